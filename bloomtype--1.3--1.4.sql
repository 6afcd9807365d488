-- Expanded once by scripts/gen_sql.pl from src/counting/countingbloom.sql.in and src/cuckoo/cuckoofilter.sql.in (the 1.4 fragments); frozen: edit a new upgrade script instead.
-- bloomtype 1.3 -> 1.4: counting Bloom filters (countingbloom) and cuckoo filters (cuckoofilter)
\echo Use "ALTER EXTENSION bloomtype UPDATE TO '1.4'" to load this file. \quit

-- The countingbloom family: counting Bloom filters, which can forget keys.
-- Functions that take a key are written once, in --@each_key blocks, for
-- each key type of src/pg/keytypes.h.

-- The type ------------------------------------------------------------

-- The type countingbloom: I/O, casts to and from bytea, comparison.  Every family
-- has these, over the C functions countingbloom_in, _out, _recv, _send,
-- _from_bytea, _eq, _ne, _hash, _hash_extended, _cmp, _lt, _le, _gt, _ge.
-- (--@include ../pg/type.sql.in type=NAME)

CREATE TYPE countingbloom;

CREATE FUNCTION countingbloom_in(cstring) RETURNS countingbloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_out(countingbloom) RETURNS cstring
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_recv(internal) RETURNS countingbloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_send(countingbloom) RETURNS bytea
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- a varlena of a header and bits: random bits do not compress, and an
-- uncompressed value lets the header be read as a slice
CREATE TYPE countingbloom (
    INPUT = countingbloom_in,
    OUTPUT = countingbloom_out,
    RECEIVE = countingbloom_recv,
    SEND = countingbloom_send,
    INTERNALLENGTH = VARIABLE,
    ALIGNMENT = int4,
    STORAGE = external
);

-- Casts to and from bytea: the same bytes as the binary form
CREATE FUNCTION countingbloom_to_bytea(countingbloom) RETURNS bytea
    AS 'MODULE_PATHNAME', 'countingbloom_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_from_bytea(bytea) RETURNS countingbloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (countingbloom AS bytea) WITH FUNCTION countingbloom_to_bytea(countingbloom);
CREATE CAST (bytea AS countingbloom) WITH FUNCTION countingbloom_from_bytea(bytea);

-- Equality and hashing: GROUP BY, DISTINCT and UNION on filter columns
CREATE FUNCTION countingbloom_eq(countingbloom, countingbloom) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_ne(countingbloom, countingbloom) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_hash(countingbloom) RETURNS integer
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_hash_extended(countingbloom, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR = (
    LEFTARG = countingbloom, RIGHTARG = countingbloom, PROCEDURE = countingbloom_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel,
    HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = countingbloom, RIGHTARG = countingbloom, PROCEDURE = countingbloom_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR CLASS countingbloom_hash_ops
    DEFAULT FOR TYPE countingbloom USING hash AS
    OPERATOR 1 = ,
    FUNCTION 1 countingbloom_hash(countingbloom),
    FUNCTION 2 countingbloom_hash_extended(countingbloom, bigint);

-- A byte order, so that sorting plans work (count(DISTINCT f), merge joins)
CREATE FUNCTION countingbloom_cmp(countingbloom, countingbloom) RETURNS integer
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_lt(countingbloom, countingbloom) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_le(countingbloom, countingbloom) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_gt(countingbloom, countingbloom) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION countingbloom_ge(countingbloom, countingbloom) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR < (LEFTARG = countingbloom, RIGHTARG = countingbloom,
    PROCEDURE = countingbloom_lt, COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = countingbloom, RIGHTARG = countingbloom,
    PROCEDURE = countingbloom_le, COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = countingbloom, RIGHTARG = countingbloom,
    PROCEDURE = countingbloom_gt, COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = countingbloom, RIGHTARG = countingbloom,
    PROCEDURE = countingbloom_ge, COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE OPERATOR CLASS countingbloom_ops
    DEFAULT FOR TYPE countingbloom USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 countingbloom_cmp(countingbloom, countingbloom);
COMMENT ON TYPE countingbloom IS 'a counting Bloom filter: keys can be removed; never a false negative unless a key that was never added is removed';

-- Constructor ----------------------------------------------------------

CREATE FUNCTION counting_empty(capacity bigint, fpr double precision DEFAULT 0.01)
    RETURNS countingbloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION counting_empty(bigint, double precision) IS
    'an empty counting Bloom filter for capacity keys at false-positive rate fpr (4-bit counters; it never refuses a key)';

-- Add, remove, contains, count ------------------------------------------

-- counting_add is not strict: (f, NULL) is f, (NULL, key) makes a filter of
-- 1000 keys at 1%.  counting_remove: (f, NULL) is f, (NULL, key) is NULL.
CREATE FUNCTION counting_add(f countingbloom, key bigint) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_add_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_remove(f countingbloom, key bigint) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_remove_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_contains(f countingbloom, key bigint) RETURNS boolean
    AS 'MODULE_PATHNAME', 'counting_contains_int8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION counting_count(f countingbloom, key bigint) RETURNS integer
    AS 'MODULE_PATHNAME', 'counting_count_int8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION counting_add(f countingbloom, key integer) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_add_int4' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_remove(f countingbloom, key integer) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_remove_int4' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_contains(f countingbloom, key integer) RETURNS boolean
    AS 'MODULE_PATHNAME', 'counting_contains_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION counting_count(f countingbloom, key integer) RETURNS integer
    AS 'MODULE_PATHNAME', 'counting_count_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION counting_add(f countingbloom, key smallint) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_add_int2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_remove(f countingbloom, key smallint) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_remove_int2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_contains(f countingbloom, key smallint) RETURNS boolean
    AS 'MODULE_PATHNAME', 'counting_contains_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION counting_count(f countingbloom, key smallint) RETURNS integer
    AS 'MODULE_PATHNAME', 'counting_count_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION counting_add(f countingbloom, key text) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_add_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_remove(f countingbloom, key text) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_remove_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_contains(f countingbloom, key text) RETURNS boolean
    AS 'MODULE_PATHNAME', 'counting_contains_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION counting_count(f countingbloom, key text) RETURNS integer
    AS 'MODULE_PATHNAME', 'counting_count_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION counting_add(f countingbloom, key varchar) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_add_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_remove(f countingbloom, key varchar) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_remove_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_contains(f countingbloom, key varchar) RETURNS boolean
    AS 'MODULE_PATHNAME', 'counting_contains_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION counting_count(f countingbloom, key varchar) RETURNS integer
    AS 'MODULE_PATHNAME', 'counting_count_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION counting_add(f countingbloom, key bytea) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_add_bytea' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_remove(f countingbloom, key bytea) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_remove_bytea' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_contains(f countingbloom, key bytea) RETURNS boolean
    AS 'MODULE_PATHNAME', 'counting_contains_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION counting_count(f countingbloom, key bytea) RETURNS integer
    AS 'MODULE_PATHNAME', 'counting_count_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION counting_add(f countingbloom, key uuid) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_add_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_remove(f countingbloom, key uuid) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_remove_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_contains(f countingbloom, key uuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'counting_contains_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION counting_count(f countingbloom, key uuid) RETURNS integer
    AS 'MODULE_PATHNAME', 'counting_count_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION counting_add(f countingbloom, key anyelement) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_add_any' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION counting_remove(f countingbloom, key anyelement) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_remove_any' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION counting_contains(f countingbloom, key anyelement) RETURNS boolean
    AS 'MODULE_PATHNAME', 'counting_contains_any' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION counting_count(f countingbloom, key anyelement) RETURNS integer
    AS 'MODULE_PATHNAME', 'counting_count_any' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION counting_add(countingbloom, anyelement) IS
    'f with one more copy of key; counting_add(NULL, key) makes a filter of 1000 keys at 1%';
COMMENT ON FUNCTION counting_remove(countingbloom, anyelement) IS
    'f with one copy of key taken back; a certainly absent key changes nothing. Remove only keys you added: removing a key that was never added can make added keys look absent';
COMMENT ON FUNCTION counting_contains(countingbloom, anyelement) IS
    'false = certainly absent, true = maybe present';
COMMENT ON FUNCTION counting_count(countingbloom, anyelement) IS
    'an upper bound on the copies of key held (15: saturated, 15 or more were added); 0 = certainly absent';

-- Batch forms: arrays of any type (elements hashed as their type's key)
CREATE FUNCTION counting_add_all(f countingbloom, keys anyarray) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_batch_add_all' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION counting_add_all(countingbloom, anyarray) IS
    'f with a copy of every non-NULL element of keys added';
CREATE FUNCTION counting_remove_all(f countingbloom, keys anyarray) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_batch_remove_all' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION counting_remove_all(countingbloom, anyarray) IS
    'f with a copy of every non-NULL element of keys taken back (remove only keys you added)';
CREATE FUNCTION counting_contains_each(f countingbloom, keys anyarray) RETURNS boolean[]
    AS 'MODULE_PATHNAME', 'counting_batch_contains_each' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION counting_contains_each(countingbloom, anyarray) IS
    'for each element of keys: false = certainly absent, true = maybe present, NULL for NULL';
CREATE FUNCTION counting_contains_all(f countingbloom, keys anyarray) RETURNS boolean
    AS 'MODULE_PATHNAME', 'counting_batch_contains_all' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION counting_contains_all(countingbloom, anyarray) IS
    'whether every element of keys may be present, with the NULL rules of = ALL';
CREATE FUNCTION counting_contains_any(f countingbloom, keys anyarray) RETURNS boolean
    AS 'MODULE_PATHNAME', 'counting_batch_contains_any' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION counting_contains_any(countingbloom, anyarray) IS
    'whether some element of keys may be present, with the NULL rules of = ANY';

-- Union, inspection, export ------------------------------------------------

CREATE FUNCTION counting_union(countingbloom, countingbloom) RETURNS countingbloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION counting_union(countingbloom, countingbloom) IS
    'the filter of both filters'' keys: counters add (filters of one capacity and rate)';
CREATE OPERATOR | (
    LEFTARG = countingbloom, RIGHTARG = countingbloom, PROCEDURE = counting_union,
    COMMUTATOR = |
);

CREATE FUNCTION counting_info(f countingbloom,
    OUT capacity bigint,
    OUT fpr double precision,
    OUT hashes integer,
    OUT counters bigint,
    OUT counter_bits integer,
    OUT bytes bigint,
    OUT items bigint,
    OUT removes bigint,
    OUT counters_set bigint,
    OUT saturated_counters bigint,
    OUT max_counter integer,
    OUT estimated_items bigint,
    OUT estimated_fpr double precision,
    OUT saturation double precision,
    OUT key_type text,
    OUT format_version integer)
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION counting_info(countingbloom) IS
    'what a counting filter is and holds: items = adds minus removes; saturated counters (15) never go down';

CREATE FUNCTION counting_to_bloom(f countingbloom) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'counting_to_bloom_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION counting_to_bloom(countingbloom) IS
    'the fixed bloomfilter that answers every key as f does (its presence bits), a fifth of the size: to ship to clients or join on';

-- Aggregates -----------------------------------------------------------------
-- The transition type is countingbloom, so partial states cross parallel
-- workers and Citus nodes through the type's own I/O.  Each row adds a copy.

CREATE FUNCTION counting_agg_combine(countingbloom, countingbloom) RETURNS countingbloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_agg_final(countingbloom) RETURNS countingbloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION counting_agg_trans(countingbloom, bigint) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_agg_trans(countingbloom, bigint, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_agg_trans(countingbloom, bigint, bigint, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE counting_agg(key bigint) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE counting_agg(key bigint, fpr double precision) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE counting_agg(key bigint, capacity bigint, fpr double precision) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION counting_agg_trans(countingbloom, integer) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_int4' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_agg_trans(countingbloom, integer, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_int4' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_agg_trans(countingbloom, integer, bigint, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_int4' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE counting_agg(key integer) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE counting_agg(key integer, fpr double precision) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE counting_agg(key integer, capacity bigint, fpr double precision) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION counting_agg_trans(countingbloom, smallint) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_int2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_agg_trans(countingbloom, smallint, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_int2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_agg_trans(countingbloom, smallint, bigint, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_int2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE counting_agg(key smallint) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE counting_agg(key smallint, fpr double precision) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE counting_agg(key smallint, capacity bigint, fpr double precision) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION counting_agg_trans(countingbloom, text) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_agg_trans(countingbloom, text, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_agg_trans(countingbloom, text, bigint, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE counting_agg(key text) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE counting_agg(key text, fpr double precision) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE counting_agg(key text, capacity bigint, fpr double precision) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION counting_agg_trans(countingbloom, varchar) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_agg_trans(countingbloom, varchar, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_agg_trans(countingbloom, varchar, bigint, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE counting_agg(key varchar) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE counting_agg(key varchar, fpr double precision) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE counting_agg(key varchar, capacity bigint, fpr double precision) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION counting_agg_trans(countingbloom, bytea) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_bytea' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_agg_trans(countingbloom, bytea, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_bytea' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_agg_trans(countingbloom, bytea, bigint, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_bytea' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE counting_agg(key bytea) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE counting_agg(key bytea, fpr double precision) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE counting_agg(key bytea, capacity bigint, fpr double precision) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION counting_agg_trans(countingbloom, uuid) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_agg_trans(countingbloom, uuid, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION counting_agg_trans(countingbloom, uuid, bigint, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE counting_agg(key uuid) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE counting_agg(key uuid, fpr double precision) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE counting_agg(key uuid, capacity bigint, fpr double precision) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION counting_agg_trans(countingbloom, anyelement) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_any' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION counting_agg_trans(countingbloom, anyelement, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_any' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION counting_agg_trans(countingbloom, anyelement, bigint, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_any' LANGUAGE C STABLE PARALLEL SAFE;
CREATE AGGREGATE counting_agg(key anyelement) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE counting_agg(key anyelement, fpr double precision) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE counting_agg(key anyelement, capacity bigint, fpr double precision) (
    SFUNC = counting_agg_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_agg_combine, FINALFUNC = counting_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION counting_union_trans(countingbloom, countingbloom) RETURNS countingbloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE counting_union_agg(countingbloom) (
    SFUNC = counting_union_trans, STYPE = countingbloom,
    COMBINEFUNC = counting_union_trans, PARALLEL = SAFE
);
-- The cuckoofilter family: cuckoo filters, which can forget keys and count
-- them.  Functions that take a key are written once, in --@each_key
-- blocks, for each key type of src/pg/keytypes.h.

-- The type ------------------------------------------------------------

-- The type cuckoofilter: I/O, casts to and from bytea, comparison.  Every family
-- has these, over the C functions cuckoofilter_in, _out, _recv, _send,
-- _from_bytea, _eq, _ne, _hash, _hash_extended, _cmp, _lt, _le, _gt, _ge.
-- (--@include ../pg/type.sql.in type=NAME)

CREATE TYPE cuckoofilter;

CREATE FUNCTION cuckoofilter_in(cstring) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_out(cuckoofilter) RETURNS cstring
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_recv(internal) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_send(cuckoofilter) RETURNS bytea
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- a varlena of a header and bits: random bits do not compress, and an
-- uncompressed value lets the header be read as a slice
CREATE TYPE cuckoofilter (
    INPUT = cuckoofilter_in,
    OUTPUT = cuckoofilter_out,
    RECEIVE = cuckoofilter_recv,
    SEND = cuckoofilter_send,
    INTERNALLENGTH = VARIABLE,
    ALIGNMENT = int4,
    STORAGE = external
);

-- Casts to and from bytea: the same bytes as the binary form
CREATE FUNCTION cuckoofilter_to_bytea(cuckoofilter) RETURNS bytea
    AS 'MODULE_PATHNAME', 'cuckoofilter_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_from_bytea(bytea) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (cuckoofilter AS bytea) WITH FUNCTION cuckoofilter_to_bytea(cuckoofilter);
CREATE CAST (bytea AS cuckoofilter) WITH FUNCTION cuckoofilter_from_bytea(bytea);

-- Equality and hashing: GROUP BY, DISTINCT and UNION on filter columns
CREATE FUNCTION cuckoofilter_eq(cuckoofilter, cuckoofilter) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_ne(cuckoofilter, cuckoofilter) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_hash(cuckoofilter) RETURNS integer
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_hash_extended(cuckoofilter, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR = (
    LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter, PROCEDURE = cuckoofilter_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel,
    HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter, PROCEDURE = cuckoofilter_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR CLASS cuckoofilter_hash_ops
    DEFAULT FOR TYPE cuckoofilter USING hash AS
    OPERATOR 1 = ,
    FUNCTION 1 cuckoofilter_hash(cuckoofilter),
    FUNCTION 2 cuckoofilter_hash_extended(cuckoofilter, bigint);

-- A byte order, so that sorting plans work (count(DISTINCT f), merge joins)
CREATE FUNCTION cuckoofilter_cmp(cuckoofilter, cuckoofilter) RETURNS integer
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_lt(cuckoofilter, cuckoofilter) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_le(cuckoofilter, cuckoofilter) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_gt(cuckoofilter, cuckoofilter) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoofilter_ge(cuckoofilter, cuckoofilter) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR < (LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter,
    PROCEDURE = cuckoofilter_lt, COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter,
    PROCEDURE = cuckoofilter_le, COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter,
    PROCEDURE = cuckoofilter_gt, COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter,
    PROCEDURE = cuckoofilter_ge, COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE OPERATOR CLASS cuckoofilter_ops
    DEFAULT FOR TYPE cuckoofilter USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 cuckoofilter_cmp(cuckoofilter, cuckoofilter);
COMMENT ON TYPE cuckoofilter IS 'a cuckoo filter: keys can be removed and counted; never a false negative unless a key that was never added is removed';

-- Constructor ----------------------------------------------------------

CREATE FUNCTION cuckoo_empty(capacity bigint, fpr double precision DEFAULT 0.01,
    bucket_size integer DEFAULT 4, max_kicks integer DEFAULT 500,
    expansion integer DEFAULT 2)
    RETURNS cuckoofilter
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoo_empty(bigint, double precision, integer, integer, integer) IS
    'an empty cuckoo filter for capacity keys at false-positive rate fpr (CF.RESERVE): bucket_size 2, 4 or 8; expansion 0 = fixed (refuses a key it cannot place), else sub-filters that many times larger';

-- Add, remove, contains, count ------------------------------------------

-- cuckoo_add and cuckoo_add_new are not strict: (f, NULL) is f, (NULL, key)
-- makes a filter of 1000 keys at 1%.  cuckoo_remove: (f, NULL) is f,
-- (NULL, key) is NULL.
CREATE FUNCTION cuckoo_add(f cuckoofilter, key bigint) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_add_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_add_new(f cuckoofilter, key bigint) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_add_new_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_remove(f cuckoofilter, key bigint) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_remove_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_contains(f cuckoofilter, key bigint) RETURNS boolean
    AS 'MODULE_PATHNAME', 'cuckoo_contains_int8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoo_count(f cuckoofilter, key bigint) RETURNS integer
    AS 'MODULE_PATHNAME', 'cuckoo_count_int8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoo_add(f cuckoofilter, key integer) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_add_int4' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_add_new(f cuckoofilter, key integer) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_add_new_int4' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_remove(f cuckoofilter, key integer) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_remove_int4' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_contains(f cuckoofilter, key integer) RETURNS boolean
    AS 'MODULE_PATHNAME', 'cuckoo_contains_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoo_count(f cuckoofilter, key integer) RETURNS integer
    AS 'MODULE_PATHNAME', 'cuckoo_count_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoo_add(f cuckoofilter, key smallint) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_add_int2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_add_new(f cuckoofilter, key smallint) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_add_new_int2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_remove(f cuckoofilter, key smallint) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_remove_int2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_contains(f cuckoofilter, key smallint) RETURNS boolean
    AS 'MODULE_PATHNAME', 'cuckoo_contains_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoo_count(f cuckoofilter, key smallint) RETURNS integer
    AS 'MODULE_PATHNAME', 'cuckoo_count_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoo_add(f cuckoofilter, key text) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_add_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_add_new(f cuckoofilter, key text) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_add_new_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_remove(f cuckoofilter, key text) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_remove_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_contains(f cuckoofilter, key text) RETURNS boolean
    AS 'MODULE_PATHNAME', 'cuckoo_contains_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoo_count(f cuckoofilter, key text) RETURNS integer
    AS 'MODULE_PATHNAME', 'cuckoo_count_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoo_add(f cuckoofilter, key varchar) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_add_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_add_new(f cuckoofilter, key varchar) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_add_new_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_remove(f cuckoofilter, key varchar) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_remove_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_contains(f cuckoofilter, key varchar) RETURNS boolean
    AS 'MODULE_PATHNAME', 'cuckoo_contains_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoo_count(f cuckoofilter, key varchar) RETURNS integer
    AS 'MODULE_PATHNAME', 'cuckoo_count_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoo_add(f cuckoofilter, key bytea) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_add_bytea' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_add_new(f cuckoofilter, key bytea) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_add_new_bytea' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_remove(f cuckoofilter, key bytea) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_remove_bytea' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_contains(f cuckoofilter, key bytea) RETURNS boolean
    AS 'MODULE_PATHNAME', 'cuckoo_contains_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoo_count(f cuckoofilter, key bytea) RETURNS integer
    AS 'MODULE_PATHNAME', 'cuckoo_count_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoo_add(f cuckoofilter, key uuid) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_add_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_add_new(f cuckoofilter, key uuid) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_add_new_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_remove(f cuckoofilter, key uuid) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_remove_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_contains(f cuckoofilter, key uuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'cuckoo_contains_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoo_count(f cuckoofilter, key uuid) RETURNS integer
    AS 'MODULE_PATHNAME', 'cuckoo_count_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoo_add(f cuckoofilter, key anyelement) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_add_any' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_add_new(f cuckoofilter, key anyelement) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_add_new_any' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_remove(f cuckoofilter, key anyelement) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_remove_any' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_contains(f cuckoofilter, key anyelement) RETURNS boolean
    AS 'MODULE_PATHNAME', 'cuckoo_contains_any' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION cuckoo_count(f cuckoofilter, key anyelement) RETURNS integer
    AS 'MODULE_PATHNAME', 'cuckoo_count_any' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoo_add(cuckoofilter, anyelement) IS
    'f with a copy of key added, even if present (CF.ADD); cuckoo_add(NULL, key) makes a filter of 1000 keys at 1%';
COMMENT ON FUNCTION cuckoo_add_new(cuckoofilter, anyelement) IS
    'f with key added unless it may be present already (CF.ADDNX)';
COMMENT ON FUNCTION cuckoo_remove(cuckoofilter, anyelement) IS
    'f with one copy of key removed (CF.DEL); a certainly absent key changes nothing. Remove only keys you added: removing a key that was never added can make an added key look absent';
COMMENT ON FUNCTION cuckoo_contains(cuckoofilter, anyelement) IS
    'false = certainly absent, true = maybe present (CF.EXISTS)';
COMMENT ON FUNCTION cuckoo_count(cuckoofilter, anyelement) IS
    'the copies of key held (CF.COUNT): at most the bucket size per sub-filter; may count other keys with the same fingerprint';

-- Batch forms: arrays of any type (elements hashed as their type's key)
CREATE FUNCTION cuckoo_add_all(f cuckoofilter, keys anyarray) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_batch_add_all' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoo_add_all(cuckoofilter, anyarray) IS
    'f with a copy of every non-NULL element of keys added (CF.INSERT)';
CREATE FUNCTION cuckoo_add_new_all(f cuckoofilter, keys anyarray) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_batch_add_new_all' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoo_add_new_all(cuckoofilter, anyarray) IS
    'f with every non-NULL element of keys that may not be present added (CF.INSERTNX)';
CREATE FUNCTION cuckoo_remove_all(f cuckoofilter, keys anyarray) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_batch_remove_all' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION cuckoo_remove_all(cuckoofilter, anyarray) IS
    'f with one copy of every non-NULL element of keys removed (remove only keys you added)';
CREATE FUNCTION cuckoo_contains_each(f cuckoofilter, keys anyarray) RETURNS boolean[]
    AS 'MODULE_PATHNAME', 'cuckoo_batch_contains_each' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoo_contains_each(cuckoofilter, anyarray) IS
    'for each element of keys: false = certainly absent, true = maybe present, NULL for NULL (CF.MEXISTS)';
CREATE FUNCTION cuckoo_contains_all(f cuckoofilter, keys anyarray) RETURNS boolean
    AS 'MODULE_PATHNAME', 'cuckoo_batch_contains_all' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoo_contains_all(cuckoofilter, anyarray) IS
    'whether every element of keys may be present, with the NULL rules of = ALL';
CREATE FUNCTION cuckoo_contains_any(f cuckoofilter, keys anyarray) RETURNS boolean
    AS 'MODULE_PATHNAME', 'cuckoo_batch_contains_any' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoo_contains_any(cuckoofilter, anyarray) IS
    'whether some element of keys may be present, with the NULL rules of = ANY';

-- Compaction, union, inspection --------------------------------------------

CREATE FUNCTION cuckoo_compact(f cuckoofilter) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_compact_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoo_compact(cuckoofilter) IS
    'f with fingerprints moved from newer sub-filters into free slots of older ones and empty sub-filters dropped (CF.COMPACT); added keys answer as before, absent ones at the older sub-filter''s rate';
CREATE FUNCTION cuckoo_union(cuckoofilter, cuckoofilter) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoo_union(cuckoofilter, cuckoofilter) IS
    'a filter of both filters'' keys: the second''s fingerprints reinserted into the first (filters of one capacity, rate, bucket size, kicks and expansion)';
-- not COMMUTATOR: the second's fingerprints go into a copy of the first,
-- so the bytes (and, near full, whether it fits) depend on the order
CREATE OPERATOR | (
    LEFTARG = cuckoofilter, RIGHTARG = cuckoofilter, PROCEDURE = cuckoo_union
);

CREATE FUNCTION cuckoo_info(f cuckoofilter,
    OUT capacity bigint,
    OUT fpr double precision,
    OUT bytes bigint,
    OUT buckets bigint,
    OUT bucket_size integer,
    OUT fingerprint_bits integer,
    OUT subfilters integer,
    OUT items bigint,
    OUT deletes bigint,
    OUT absorbed bigint,
    OUT stuck bigint,
    OUT load_factor double precision,
    OUT expansion integer,
    OUT max_kicks integer,
    OUT estimated_fpr double precision,
    OUT saturation double precision,
    OUT key_type text,
    OUT format_version integer)
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuckoo_info(cuckoofilter) IS
    'what a cuckoo filter is and holds (CF.INFO): capacity over all sub-filters, items = fingerprints stored, absorbed = copies past the cap, stuck = removes that had to keep a copy';

-- Aggregates -----------------------------------------------------------------
-- The transition type is cuckoofilter, so partial states cross parallel
-- workers and Citus nodes through the type's own I/O.  Each row adds a copy.

CREATE FUNCTION cuckoo_agg_combine(cuckoofilter, cuckoofilter) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_agg_final(cuckoofilter) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, bigint) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, bigint, double precision) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, bigint, bigint, double precision) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE cuckoo_agg(key bigint) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE cuckoo_agg(key bigint, fpr double precision) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE cuckoo_agg(key bigint, capacity bigint, fpr double precision) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, integer) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_int4' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, integer, double precision) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_int4' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, integer, bigint, double precision) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_int4' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE cuckoo_agg(key integer) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE cuckoo_agg(key integer, fpr double precision) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE cuckoo_agg(key integer, capacity bigint, fpr double precision) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, smallint) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_int2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, smallint, double precision) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_int2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, smallint, bigint, double precision) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_int2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE cuckoo_agg(key smallint) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE cuckoo_agg(key smallint, fpr double precision) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE cuckoo_agg(key smallint, capacity bigint, fpr double precision) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, text) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, text, double precision) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, text, bigint, double precision) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE cuckoo_agg(key text) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE cuckoo_agg(key text, fpr double precision) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE cuckoo_agg(key text, capacity bigint, fpr double precision) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, varchar) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, varchar, double precision) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, varchar, bigint, double precision) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE cuckoo_agg(key varchar) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE cuckoo_agg(key varchar, fpr double precision) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE cuckoo_agg(key varchar, capacity bigint, fpr double precision) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, bytea) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_bytea' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, bytea, double precision) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_bytea' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, bytea, bigint, double precision) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_bytea' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE cuckoo_agg(key bytea) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE cuckoo_agg(key bytea, fpr double precision) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE cuckoo_agg(key bytea, capacity bigint, fpr double precision) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, uuid) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, uuid, double precision) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, uuid, bigint, double precision) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE cuckoo_agg(key uuid) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE cuckoo_agg(key uuid, fpr double precision) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE cuckoo_agg(key uuid, capacity bigint, fpr double precision) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, anyelement) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_any' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, anyelement, double precision) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_any' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION cuckoo_agg_trans(cuckoofilter, anyelement, bigint, double precision) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME', 'cuckoo_agg_trans_any' LANGUAGE C STABLE PARALLEL SAFE;
CREATE AGGREGATE cuckoo_agg(key anyelement) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE cuckoo_agg(key anyelement, fpr double precision) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE cuckoo_agg(key anyelement, capacity bigint, fpr double precision) (
    SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_agg_combine, FINALFUNC = cuckoo_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION cuckoo_union_trans(cuckoofilter, cuckoofilter) RETURNS cuckoofilter
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE cuckoo_union_agg(cuckoofilter) (
    SFUNC = cuckoo_union_trans, STYPE = cuckoofilter,
    COMBINEFUNC = cuckoo_union_trans, PARALLEL = SAFE
);
