-- bloomtype 1.0 -> 1.1: batch forms of add and contains
\echo Use "ALTER EXTENSION bloomtype UPDATE TO '1.1'" to load this file. \quit

CREATE FUNCTION bloom_add_all(f bloomfilter, keys anyarray) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_batch_add_all' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloomfilter, anyarray) IS
    'f with every non-NULL element of keys added (RedisBloom BF.INSERT)';

CREATE FUNCTION bloom_contains_each(f bloomfilter, keys anyarray) RETURNS boolean[]
    AS 'MODULE_PATHNAME', 'bloom_batch_contains_each' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_each(bloomfilter, anyarray) IS
    'for each element of keys: false = certainly absent, true = maybe present, NULL for NULL (BF.MEXISTS)';

CREATE FUNCTION bloom_contains_all(f bloomfilter, keys anyarray) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_batch_contains_all' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloomfilter, anyarray) IS
    'whether every element of keys may be present, with the NULL rules of = ALL';

CREATE FUNCTION bloom_contains_any(f bloomfilter, keys anyarray) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_batch_contains_any' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloomfilter, anyarray) IS
    'whether some element of keys may be present, with the NULL rules of = ANY';
