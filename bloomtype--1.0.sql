-- bloomtype 1.0: the bloomfilter type
\echo Use "CREATE EXTENSION bloomtype" to load this file. \quit

-- The type ------------------------------------------------------------

CREATE TYPE bloomfilter;

CREATE FUNCTION bloomfilter_in(cstring) RETURNS bloomfilter
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloomfilter_out(bloomfilter) RETURNS cstring
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloomfilter_recv(internal) RETURNS bloomfilter
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloomfilter_send(bloomfilter) RETURNS bytea
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE bloomfilter (
    INPUT = bloomfilter_in,
    OUTPUT = bloomfilter_out,
    RECEIVE = bloomfilter_recv,
    SEND = bloomfilter_send,
    INTERNALLENGTH = VARIABLE,
    ALIGNMENT = int4,
    STORAGE = external
);
COMMENT ON TYPE bloomfilter IS 'a Bloom filter: never a false negative, false positives at a chosen rate';

-- Casts to and from bytea: the same bytes as the binary form
CREATE FUNCTION bloomfilter_to_bytea(bloomfilter) RETURNS bytea
    AS 'MODULE_PATHNAME', 'bloomfilter_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloomfilter_from_bytea(bytea) RETURNS bloomfilter
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (bloomfilter AS bytea) WITH FUNCTION bloomfilter_to_bytea(bloomfilter);
CREATE CAST (bytea AS bloomfilter) WITH FUNCTION bloomfilter_from_bytea(bytea);

-- Equality and hashing: GROUP BY, DISTINCT and UNION on filter columns
CREATE FUNCTION bloomfilter_eq(bloomfilter, bloomfilter) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloomfilter_ne(bloomfilter, bloomfilter) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloomfilter_hash(bloomfilter) RETURNS integer
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloomfilter_hash_extended(bloomfilter, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR = (
    LEFTARG = bloomfilter, RIGHTARG = bloomfilter, PROCEDURE = bloomfilter_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel,
    HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = bloomfilter, RIGHTARG = bloomfilter, PROCEDURE = bloomfilter_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR CLASS bloomfilter_hash_ops
    DEFAULT FOR TYPE bloomfilter USING hash AS
    OPERATOR 1 = ,
    FUNCTION 1 bloomfilter_hash(bloomfilter),
    FUNCTION 2 bloomfilter_hash_extended(bloomfilter, bigint);

-- A byte order, so that sorting plans work (count(DISTINCT f), merge joins)
CREATE FUNCTION bloomfilter_cmp(bloomfilter, bloomfilter) RETURNS integer
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloomfilter_lt(bloomfilter, bloomfilter) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloomfilter_le(bloomfilter, bloomfilter) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloomfilter_gt(bloomfilter, bloomfilter) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloomfilter_ge(bloomfilter, bloomfilter) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR < (LEFTARG = bloomfilter, RIGHTARG = bloomfilter,
    PROCEDURE = bloomfilter_lt, COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = bloomfilter, RIGHTARG = bloomfilter,
    PROCEDURE = bloomfilter_le, COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = bloomfilter, RIGHTARG = bloomfilter,
    PROCEDURE = bloomfilter_gt, COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = bloomfilter, RIGHTARG = bloomfilter,
    PROCEDURE = bloomfilter_ge, COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE OPERATOR CLASS bloomfilter_ops
    DEFAULT FOR TYPE bloomfilter USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 bloomfilter_cmp(bloomfilter, bloomfilter);

-- Constructors ---------------------------------------------------------

CREATE FUNCTION bloom_empty(capacity bigint, fpr double precision DEFAULT 0.01)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_empty(bigint, double precision) IS
    'an empty filter for capacity distinct keys at false-positive rate fpr';

-- Add and contains: one overload per common key type (no type lookup per
-- row, and the calls Citus makes resolve), anyelement for the rest.

CREATE FUNCTION bloom_add(f bloomfilter, key bigint) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_add(f bloomfilter, key integer) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_int4' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_add(f bloomfilter, key smallint) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_int2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_add(f bloomfilter, key text) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_add(f bloomfilter, key varchar) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_add(f bloomfilter, key bytea) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_bytea' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_add(f bloomfilter, key uuid) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
-- other types hash their binary send form; send functions may be STABLE
CREATE FUNCTION bloom_add(f bloomfilter, key anyelement) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_any' LANGUAGE C STABLE PARALLEL SAFE;

CREATE FUNCTION bloom_contains(f bloomfilter, key bigint) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_int8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_contains(f bloomfilter, key integer) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_contains(f bloomfilter, key smallint) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_contains(f bloomfilter, key text) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_contains(f bloomfilter, key varchar) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_contains(f bloomfilter, key bytea) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_contains(f bloomfilter, key uuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_contains(f bloomfilter, key anyelement) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C STABLE STRICT PARALLEL SAFE;

-- Union and intersection ---------------------------------------------

CREATE FUNCTION bloom_union(bloomfilter, bloomfilter) RETURNS bloomfilter
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_intersect(bloomfilter, bloomfilter) RETURNS bloomfilter
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR | (
    LEFTARG = bloomfilter, RIGHTARG = bloomfilter, PROCEDURE = bloom_union,
    COMMUTATOR = |
);
CREATE OPERATOR & (
    LEFTARG = bloomfilter, RIGHTARG = bloomfilter, PROCEDURE = bloom_intersect,
    COMMUTATOR = &
);

-- Inspection -----------------------------------------------------------

CREATE FUNCTION bloom_info(f bloomfilter,
    OUT kind text,
    OUT capacity bigint,
    OUT fpr double precision,
    OUT bits bigint,
    OUT hashes integer,
    OUT bytes bigint,
    OUT items bigint,
    OUT bits_set bigint,
    OUT estimated_items bigint,
    OUT estimated_fpr double precision,
    OUT key_type text,
    OUT format_version integer)
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION bloom_cardinality(f bloomfilter) RETURNS bigint
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Aggregates -------------------------------------------------------------
-- The transition type is bloomfilter, so partial states cross parallel
-- workers and Citus nodes through the type's own I/O.

CREATE FUNCTION bloom_agg_combine(bloomfilter, bloomfilter) RETURNS bloomfilter
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_agg_final(bloomfilter) RETURNS bloomfilter
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_agg_trans(bloomfilter, bigint) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_agg_trans(bloomfilter, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_agg_trans(bloomfilter, bigint, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(key bigint) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key bigint, fpr double precision) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key bigint, capacity bigint, fpr double precision) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION bloom_agg_trans(bloomfilter, integer) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_int4' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_agg_trans(bloomfilter, integer, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_int4' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_agg_trans(bloomfilter, integer, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_int4' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(key integer) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key integer, fpr double precision) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key integer, capacity bigint, fpr double precision) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION bloom_agg_trans(bloomfilter, smallint) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_int2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_agg_trans(bloomfilter, smallint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_int2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_agg_trans(bloomfilter, smallint, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_int2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(key smallint) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key smallint, fpr double precision) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key smallint, capacity bigint, fpr double precision) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION bloom_agg_trans(bloomfilter, text) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_agg_trans(bloomfilter, text, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_agg_trans(bloomfilter, text, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(key text) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key text, fpr double precision) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key text, capacity bigint, fpr double precision) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION bloom_agg_trans(bloomfilter, varchar) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_agg_trans(bloomfilter, varchar, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_agg_trans(bloomfilter, varchar, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(key varchar) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key varchar, fpr double precision) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key varchar, capacity bigint, fpr double precision) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION bloom_agg_trans(bloomfilter, bytea) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_bytea' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_agg_trans(bloomfilter, bytea, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_bytea' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_agg_trans(bloomfilter, bytea, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_bytea' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(key bytea) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key bytea, fpr double precision) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key bytea, capacity bigint, fpr double precision) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION bloom_agg_trans(bloomfilter, uuid) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_agg_trans(bloomfilter, uuid, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_agg_trans(bloomfilter, uuid, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(key uuid) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key uuid, fpr double precision) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key uuid, capacity bigint, fpr double precision) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION bloom_agg_trans(bloomfilter, anyelement) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_any' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION bloom_agg_trans(bloomfilter, anyelement, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_any' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION bloom_agg_trans(bloomfilter, anyelement, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_any' LANGUAGE C STABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(key anyelement) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key anyelement, fpr double precision) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key anyelement, capacity bigint, fpr double precision) (
    SFUNC = bloom_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_agg_combine, FINALFUNC = bloom_agg_final,
    FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE
);

CREATE FUNCTION bloom_union_trans(bloomfilter, bloomfilter) RETURNS bloomfilter
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_union_agg(bloomfilter) (
    SFUNC = bloom_union_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_union_trans, PARALLEL = SAFE
);
