-- Expanded once by scripts/gen_sql.pl from the lookup lines of src/bloom/bloomfilter.sql.in (the 1.6 change); frozen: edit a new upgrade script instead.
-- bloomtype 1.5 -> 1.6: one meaning per value
\echo Use "ALTER EXTENSION bloomtype UPDATE TO '1.6'" to load this file. \quit

-- An aggregate's hash list with hashes (kind 2: the state of an aggregate
-- declared over bloom_agg_trans without a final function, or of a partial
-- plan) stands for the filter its aggregate would return: bloom_contains,
-- its array forms and bloom_cardinality now read it as |, &,
-- bloom_union_agg, bloom_info and bloom_add have read it since 1.2 (a
-- scalable filter), where 1.0 to 1.5 read it as a blocked filter, whose
-- false positives differ.  Every other value answers as in 1.5; a database
-- whose SQL stays on 1.5 keeps 1.5's answers with this library.
CREATE OR REPLACE FUNCTION bloom_contains(f bloomfilter, key bigint) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_int8_scalable' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_contains(f bloomfilter, key integer) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_int4_scalable' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_contains(f bloomfilter, key smallint) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_int2_scalable' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_contains(f bloomfilter, key text) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_text_scalable' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_contains(f bloomfilter, key varchar) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_text_scalable' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_contains(f bloomfilter, key bytea) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_bytea_scalable' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_contains(f bloomfilter, key uuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_uuid_scalable' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_contains(f bloomfilter, key anyelement) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any_scalable' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_contains_each(f bloomfilter, keys anyarray) RETURNS boolean[]
    AS 'MODULE_PATHNAME', 'bloom_scalable_batch_contains_each' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_contains_all(f bloomfilter, keys anyarray) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_scalable_batch_contains_all' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_contains_any(f bloomfilter, keys anyarray) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_scalable_batch_contains_any' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_cardinality(f bloomfilter) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_cardinality_scalable' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
