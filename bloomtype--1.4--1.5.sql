-- Expanded once by scripts/gen_sql.pl from the light-state lines of src/bloom/bloomfilter.sql.in and src/counting/countingbloom.sql.in (the 1.5 change); frozen: edit a new upgrade script instead.
-- bloomtype 1.4 -> 1.5: bloom_agg and counting_agg with a capacity keep light partial states
\echo Use "ALTER EXTENSION bloomtype UPDATE TO '1.5'" to load this file. \quit

-- The transition functions of bloom_agg(key, capacity, fpr) and
-- counting_agg(key, capacity, fpr) start a light state (format version 4:
-- kind 7 for bloom_agg's buffered state, kind 8 for counting_agg's counting
-- filter): the hashes of the keys under the header of the dense state,
-- which they become when the hashes would take more room.  Results are
-- byte for byte those of 1.4; partial states (parallel workers, Citus
-- shards) cost bytes in proportion to their keys, not the capacity.
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, bigint, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_int8_light' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION counting_agg_trans(countingbloom, bigint, bigint, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_int8_light' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, integer, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_int4_light' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION counting_agg_trans(countingbloom, integer, bigint, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_int4_light' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, smallint, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_int2_light' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION counting_agg_trans(countingbloom, smallint, bigint, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_int2_light' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, text, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_text_light' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION counting_agg_trans(countingbloom, text, bigint, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_text_light' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, varchar, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_text_light' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION counting_agg_trans(countingbloom, varchar, bigint, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_text_light' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, bytea, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_bytea_light' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION counting_agg_trans(countingbloom, bytea, bigint, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_bytea_light' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, uuid, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_uuid_light' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION counting_agg_trans(countingbloom, uuid, bigint, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_uuid_light' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, anyelement, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_any_light' LANGUAGE C STABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION counting_agg_trans(countingbloom, anyelement, bigint, double precision) RETURNS countingbloom
    AS 'MODULE_PATHNAME', 'counting_agg_trans_any_light' LANGUAGE C STABLE PARALLEL SAFE;
