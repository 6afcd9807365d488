-- bloomtype 1.1 -> 1.2: scalable filters, create-on-add, BF.INFO fields
\echo Use "ALTER EXTENSION bloomtype UPDATE TO '1.2'" to load this file. \quit

-- Filters made from here on grow by layers (scalable Bloom filters) unless
-- made with expansion 0; filters made before read and behave as they did.

CREATE OR REPLACE FUNCTION bloom_empty(capacity bigint, fpr double precision DEFAULT 0.01)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_empty_scalable' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_empty(bigint, double precision) IS
    'an empty scalable filter: capacity keys in its first layer at false-positive rate fpr, expansion 2 (BF.RESERVE)';

-- no defaults: they would make bloom_empty(capacity) ambiguous
CREATE FUNCTION bloom_empty(capacity bigint, fpr double precision, expansion integer)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_empty_scalable' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_empty(bigint, double precision, integer) IS
    'an empty filter: scalable with layers expansion times larger (1..16), or fixed with expansion 0 (BF.RESERVE ... EXPANSION / NONSCALING)';

-- create on add: bloom_add(NULL, key) makes a filter (BF.ADD)
CREATE OR REPLACE FUNCTION bloom_add(f bloomfilter, key bigint) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_create_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_add(f bloomfilter, key integer) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_create_int4' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_add(f bloomfilter, key smallint) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_create_int2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_add(f bloomfilter, key text) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_create_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_add(f bloomfilter, key varchar) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_create_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_add(f bloomfilter, key bytea) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_create_bytea' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_add(f bloomfilter, key uuid) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_create_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_add(f bloomfilter, key anyelement) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_create_any' LANGUAGE C STABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_add_all(f bloomfilter, keys anyarray) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_batch_add_all_create' LANGUAGE C STABLE PARALLEL SAFE;

-- bloom_agg builds scalable filters, so that keys added later make them grow;
-- the forms with a rate refuse rates a scalable filter cannot have (< 1e-9),
-- the forms with a capacity plan the first layer
CREATE OR REPLACE FUNCTION bloom_agg_final(bloomfilter) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_final_scalable' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, bigint, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_int8_scalable' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, integer, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_int4_scalable' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, smallint, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_int2_scalable' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, text, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_text_scalable' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, bytea, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_bytea_scalable' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, uuid, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_uuid_scalable' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_int8_scalable' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, integer, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_int4_scalable' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, smallint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_int2_scalable' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, text, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_text_scalable' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, varchar, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_text_scalable' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, bytea, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_bytea_scalable' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, uuid, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_uuid_scalable' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, anyelement, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_any_scalable' LANGUAGE C STABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, varchar, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_text_scalable' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_agg_trans(bloomfilter, anyelement, bigint, double precision) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_agg_trans_any_scalable' LANGUAGE C STABLE PARALLEL SAFE;

-- union and intersection read an aggregate's partial state (a hash list)
-- as the scalable filter 1.2 makes of it
CREATE OR REPLACE FUNCTION bloom_union(bloomfilter, bloomfilter) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_union_scalable' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_intersect(bloomfilter, bloomfilter) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_intersect_scalable' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bloom_union_trans(bloomfilter, bloomfilter) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_union_trans_scalable' LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- bloom_info gains BF.INFO's layers and expansion, and saturation.  Its
-- row type changes, so it is dropped and made again: a view that uses it
-- must be dropped before the update and made again after.
DROP FUNCTION bloom_info(bloomfilter);
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
    OUT format_version integer,
    OUT layers integer,
    OUT expansion integer,
    OUT saturation double precision)
    AS 'MODULE_PATHNAME', 'bloom_info_scalable' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_info(bloomfilter) IS
    'what a filter is and holds (BF.INFO): saturation is estimated_fpr / fpr, above 1 when the filter holds more than it was sized for';
