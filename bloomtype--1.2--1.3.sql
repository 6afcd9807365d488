-- Expanded once by scripts/gen_sql.pl from src/am/bloomindex.sql.in (the 1.3 fragment); frozen: edit a new upgrade script instead.
-- bloomtype 1.2 -> 1.3: the bloomfilter index access method
\echo Use "ALTER EXTENSION bloomtype UPDATE TO '1.3'" to load this file. \quit

-- The bloomfilter index access method (src/am): a Bloom filter of one
-- column on index pages, kept in step with every write by Postgres itself.
-- It holds no row pointers, so the planner never uses it for a scan; the
-- bloom_index_* functions read it.

CREATE FUNCTION bloom_index_handler(internal) RETURNS index_am_handler
    AS 'MODULE_PATHNAME', 'bloom_index_handler' LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_handler(internal) IS
    'handler of the bloomfilter index access method';
CREATE ACCESS METHOD bloomfilter TYPE INDEX HANDLER bloom_index_handler;
COMMENT ON ACCESS METHOD bloomfilter IS
    'a Bloom filter of a column, maintained on every write; read with bloom_index_contains';

-- The canonical hash of a key: what filters and the index hash, and
-- support function 1 of every bloomfilter operator class.
CREATE FUNCTION bloom_key_hash(key bigint, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_key_hash_sql_int8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_key_hash(bigint, bigint) IS
    'the 64-bit XXH3 hash of the key''s canonical encoding, as filters and bloomfilter indexes hash it';
CREATE FUNCTION bloom_key_hash(key integer, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_key_hash_sql_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_key_hash(integer, bigint) IS
    'the 64-bit XXH3 hash of the key''s canonical encoding, as filters and bloomfilter indexes hash it';
CREATE FUNCTION bloom_key_hash(key smallint, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_key_hash_sql_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_key_hash(smallint, bigint) IS
    'the 64-bit XXH3 hash of the key''s canonical encoding, as filters and bloomfilter indexes hash it';
CREATE FUNCTION bloom_key_hash(key text, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_key_hash_sql_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_key_hash(text, bigint) IS
    'the 64-bit XXH3 hash of the key''s canonical encoding, as filters and bloomfilter indexes hash it';
CREATE FUNCTION bloom_key_hash(key varchar, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_key_hash_sql_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_key_hash(varchar, bigint) IS
    'the 64-bit XXH3 hash of the key''s canonical encoding, as filters and bloomfilter indexes hash it';
CREATE FUNCTION bloom_key_hash(key bytea, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_key_hash_sql_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_key_hash(bytea, bigint) IS
    'the 64-bit XXH3 hash of the key''s canonical encoding, as filters and bloomfilter indexes hash it';
CREATE FUNCTION bloom_key_hash(key uuid, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_key_hash_sql_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_key_hash(uuid, bigint) IS
    'the 64-bit XXH3 hash of the key''s canonical encoding, as filters and bloomfilter indexes hash it';
CREATE FUNCTION bloom_key_hash(key anyelement, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_key_hash_sql_any' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_key_hash(anyelement, bigint) IS
    'the 64-bit XXH3 hash of the key''s canonical encoding, as filters and bloomfilter indexes hash it';

-- Operator classes: one family per key class, so that keys of one class
-- (int2, int4 and int8 are one key space) share one family.
CREATE OPERATOR FAMILY bloomfilter_integer_ops USING bloomfilter;
CREATE OPERATOR CLASS bloomfilter_int8_ops DEFAULT FOR TYPE bigint
    USING bloomfilter FAMILY bloomfilter_integer_ops AS
    FUNCTION 1 bloom_key_hash(bigint, bigint);
CREATE OPERATOR CLASS bloomfilter_int4_ops DEFAULT FOR TYPE integer
    USING bloomfilter FAMILY bloomfilter_integer_ops AS
    FUNCTION 1 bloom_key_hash(integer, bigint);
CREATE OPERATOR CLASS bloomfilter_int2_ops DEFAULT FOR TYPE smallint
    USING bloomfilter FAMILY bloomfilter_integer_ops AS
    FUNCTION 1 bloom_key_hash(smallint, bigint);
CREATE OPERATOR FAMILY bloomfilter_text_ops USING bloomfilter;
CREATE OPERATOR CLASS bloomfilter_text_ops DEFAULT FOR TYPE text
    USING bloomfilter FAMILY bloomfilter_text_ops AS
    FUNCTION 1 bloom_key_hash(text, bigint);
CREATE OPERATOR FAMILY bloomfilter_bytea_ops USING bloomfilter;
CREATE OPERATOR CLASS bloomfilter_bytea_ops DEFAULT FOR TYPE bytea
    USING bloomfilter FAMILY bloomfilter_bytea_ops AS
    FUNCTION 1 bloom_key_hash(bytea, bigint);
CREATE OPERATOR FAMILY bloomfilter_uuid_ops USING bloomfilter;
CREATE OPERATOR CLASS bloomfilter_uuid_ops DEFAULT FOR TYPE uuid
    USING bloomfilter FAMILY bloomfilter_uuid_ops AS
    FUNCTION 1 bloom_key_hash(uuid, bigint);
CREATE OPERATOR FAMILY bloomfilter_float_ops USING bloomfilter;
CREATE OPERATOR CLASS bloomfilter_float8_ops DEFAULT FOR TYPE double precision
    USING bloomfilter FAMILY bloomfilter_float_ops AS
    FUNCTION 1 bloom_key_hash(anyelement, bigint);
CREATE OPERATOR CLASS bloomfilter_float4_ops DEFAULT FOR TYPE real
    USING bloomfilter FAMILY bloomfilter_float_ops AS
    FUNCTION 1 bloom_key_hash(anyelement, bigint);
-- every other type (numeric, jsonb, arrays, enums, ...): its send form
CREATE OPERATOR FAMILY bloomfilter_any_ops USING bloomfilter;
CREATE OPERATOR CLASS bloomfilter_any_ops DEFAULT FOR TYPE anyelement
    USING bloomfilter FAMILY bloomfilter_any_ops AS
    FUNCTION 1 bloom_key_hash(anyelement, bigint);

-- Reading an index.  VOLATILE: the index changes under a running
-- statement (its own inserts add keys).
CREATE FUNCTION bloom_index_contains(index regclass, key bigint) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_index_contains_int8' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_contains(regclass, bigint) IS
    'false if no row of the indexed table has the key (reads one page a layer); true if one may';
CREATE FUNCTION bloom_index_contains(index regclass, key integer) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_index_contains_int4' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_contains(regclass, integer) IS
    'false if no row of the indexed table has the key (reads one page a layer); true if one may';
CREATE FUNCTION bloom_index_contains(index regclass, key smallint) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_index_contains_int2' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_contains(regclass, smallint) IS
    'false if no row of the indexed table has the key (reads one page a layer); true if one may';
CREATE FUNCTION bloom_index_contains(index regclass, key text) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_index_contains_text' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_contains(regclass, text) IS
    'false if no row of the indexed table has the key (reads one page a layer); true if one may';
CREATE FUNCTION bloom_index_contains(index regclass, key varchar) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_index_contains_text' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_contains(regclass, varchar) IS
    'false if no row of the indexed table has the key (reads one page a layer); true if one may';
CREATE FUNCTION bloom_index_contains(index regclass, key bytea) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_index_contains_bytea' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_contains(regclass, bytea) IS
    'false if no row of the indexed table has the key (reads one page a layer); true if one may';
CREATE FUNCTION bloom_index_contains(index regclass, key uuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_index_contains_uuid' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_contains(regclass, uuid) IS
    'false if no row of the indexed table has the key (reads one page a layer); true if one may';
CREATE FUNCTION bloom_index_contains(index regclass, key anyelement) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_index_contains_any' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_contains(regclass, anyelement) IS
    'false if no row of the indexed table has the key (reads one page a layer); true if one may';
CREATE FUNCTION bloom_index_contains_each(index regclass, keys anyarray) RETURNS boolean[]
    AS 'MODULE_PATHNAME', 'bloom_index_contains_each' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_contains_each(regclass, anyarray) IS
    'bloom_index_contains for each element of keys (NULL for a NULL element), each page read once';
CREATE FUNCTION bloom_index_filter(index regclass) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_index_filter' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_filter(regclass) IS
    'a snapshot of the index''s filter as a scalable bloomfilter value (partitions united)';
CREATE FUNCTION bloom_index_info(index regclass,
    OUT items bigint, OUT capacity bigint, OUT fpr double precision,
    OUT layers integer, OUT bytes bigint, OUT estimated_fpr double precision,
    OUT saturation double precision, OUT expansion integer, OUT hashes integer,
    OUT bits_set bigint, OUT key_type text, OUT build_items bigint,
    OUT partitions integer)
    AS 'MODULE_PATHNAME', 'bloom_index_info' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_info(regclass) IS
    'keys, capacity, layers, size and estimated false-positive rate of a bloomfilter index';
