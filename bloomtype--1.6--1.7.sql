-- Expanded once by scripts/gen_sql.pl from src/bloom/window.sql.in (the 1.7 change); frozen: edit a new upgrade script instead.
-- bloomtype 1.6 -> 1.7: windowed filters
\echo Use "ALTER EXTENSION bloomtype UPDATE TO '1.7'" to load this file. \quit

-- Windowed filters (1.7): the keys of the last slices of time, each slice
-- a filter of its own (format version 5, kind 9).  The caller passes every
-- time, so the functions stay IMMUTABLE; slices are aligned to multiples
-- of their length from 1970-01-01 00:00 UTC.
CREATE FUNCTION bloom_window(capacity bigint, fpr double precision, slice interval, slices integer)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_window' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_window(bigint, double precision, interval, integer) IS
    'an empty windowed filter: the keys of the last slices slices of time slice (1 to 31), each for capacity keys, at most fpr over them all';

-- bloom_add with a time is not strict: a NULL key or time adds nothing, a
-- NULL filter stays NULL (a windowed filter is not made on add)
CREATE FUNCTION bloom_add(f bloomfilter, key bigint, at timestamp with time zone) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_at_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_contains(f bloomfilter, key bigint, since timestamp with time zone) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_since_int8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_add(f bloomfilter, key integer, at timestamp with time zone) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_at_int4' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_contains(f bloomfilter, key integer, since timestamp with time zone) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_since_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_add(f bloomfilter, key smallint, at timestamp with time zone) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_at_int2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_contains(f bloomfilter, key smallint, since timestamp with time zone) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_since_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_add(f bloomfilter, key text, at timestamp with time zone) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_at_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_contains(f bloomfilter, key text, since timestamp with time zone) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_since_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_add(f bloomfilter, key varchar, at timestamp with time zone) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_at_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_contains(f bloomfilter, key varchar, since timestamp with time zone) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_since_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_add(f bloomfilter, key bytea, at timestamp with time zone) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_at_bytea' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_contains(f bloomfilter, key bytea, since timestamp with time zone) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_since_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_add(f bloomfilter, key uuid, at timestamp with time zone) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_at_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_contains(f bloomfilter, key uuid, since timestamp with time zone) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_since_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_add(f bloomfilter, key anyelement, at timestamp with time zone) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_at_any' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION bloom_contains(f bloomfilter, key anyelement, since timestamp with time zone) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_since_any' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloomfilter, bigint, timestamp with time zone) IS
    'a windowed filter with key added to the slice of time at: a later time opens slices and drops those past the window, an older one adds nothing';
COMMENT ON FUNCTION bloom_contains(bloomfilter, bigint, timestamp with time zone) IS
    'whether a slice of a windowed filter that ends after since may hold key';
CREATE FUNCTION bloom_add_all(f bloomfilter, keys anyarray, at timestamp with time zone) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_add_all_at' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloomfilter, anyarray, timestamp with time zone) IS
    'a windowed filter with every non-NULL element of keys added at one time';
CREATE FUNCTION bloom_contains_each(f bloomfilter, keys anyarray, since timestamp with time zone) RETURNS boolean[]
    AS 'MODULE_PATHNAME', 'bloom_since_batch_contains_each' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_each(bloomfilter, anyarray, timestamp with time zone) IS
    'bloom_contains(f, key, since) for each element of keys (NULL for NULL)';
CREATE FUNCTION bloom_contains_all(f bloomfilter, keys anyarray, since timestamp with time zone) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_since_batch_contains_all' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloomfilter, anyarray, timestamp with time zone) IS
    'whether every element of keys may be in a slice that ends after since, with the NULL rules of = ALL';
CREATE FUNCTION bloom_contains_any(f bloomfilter, keys anyarray, since timestamp with time zone) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_since_batch_contains_any' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloomfilter, anyarray, timestamp with time zone) IS
    'whether some element of keys may be in a slice that ends after since, with the NULL rules of = ANY';
CREATE FUNCTION bloom_expire(f bloomfilter, at timestamp with time zone) RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_expire' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_expire(bloomfilter, timestamp with time zone) IS
    'a windowed filter without the slices that bloom_add at time at would drop';
CREATE FUNCTION bloom_slices(f bloomfilter,
    OUT slice_start timestamp with time zone,
    OUT slice_end timestamp with time zone,
    OUT items bigint,
    OUT bytes bigint,
    OUT estimated_fpr double precision)
    RETURNS SETOF record
    AS 'MODULE_PATHNAME', 'bloom_slices' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_slices(bloomfilter) IS
    'the slices a windowed filter keeps, oldest first: their time, keys, bytes and the false-positive rate their bits give';

-- bloom_agg over a history: the windowed filter of its keys, the window
-- ending at the latest time (rows in any order; partial states unite slice
-- by slice, as | does).  Without a capacity each slice holds 100,000 keys
-- at 1% over the window.  The state is the filter: no final function.
CREATE FUNCTION bloom_window_agg_trans(bloomfilter, bigint, timestamp with time zone, interval, integer)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_window_agg_trans_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_window_agg_trans(bloomfilter, bigint, timestamp with time zone, interval, integer,
                                       bigint, double precision)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_window_agg_trans_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(key bigint, at timestamp with time zone, slice interval, slices integer) (
    SFUNC = bloom_window_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_union_trans, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key bigint, at timestamp with time zone, slice interval, slices integer,
                           capacity bigint, fpr double precision) (
    SFUNC = bloom_window_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_union_trans, PARALLEL = SAFE
);
CREATE FUNCTION bloom_window_agg_trans(bloomfilter, integer, timestamp with time zone, interval, integer)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_window_agg_trans_int4' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_window_agg_trans(bloomfilter, integer, timestamp with time zone, interval, integer,
                                       bigint, double precision)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_window_agg_trans_int4' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(key integer, at timestamp with time zone, slice interval, slices integer) (
    SFUNC = bloom_window_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_union_trans, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key integer, at timestamp with time zone, slice interval, slices integer,
                           capacity bigint, fpr double precision) (
    SFUNC = bloom_window_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_union_trans, PARALLEL = SAFE
);
CREATE FUNCTION bloom_window_agg_trans(bloomfilter, smallint, timestamp with time zone, interval, integer)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_window_agg_trans_int2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_window_agg_trans(bloomfilter, smallint, timestamp with time zone, interval, integer,
                                       bigint, double precision)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_window_agg_trans_int2' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(key smallint, at timestamp with time zone, slice interval, slices integer) (
    SFUNC = bloom_window_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_union_trans, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key smallint, at timestamp with time zone, slice interval, slices integer,
                           capacity bigint, fpr double precision) (
    SFUNC = bloom_window_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_union_trans, PARALLEL = SAFE
);
CREATE FUNCTION bloom_window_agg_trans(bloomfilter, text, timestamp with time zone, interval, integer)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_window_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_window_agg_trans(bloomfilter, text, timestamp with time zone, interval, integer,
                                       bigint, double precision)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_window_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(key text, at timestamp with time zone, slice interval, slices integer) (
    SFUNC = bloom_window_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_union_trans, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key text, at timestamp with time zone, slice interval, slices integer,
                           capacity bigint, fpr double precision) (
    SFUNC = bloom_window_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_union_trans, PARALLEL = SAFE
);
CREATE FUNCTION bloom_window_agg_trans(bloomfilter, varchar, timestamp with time zone, interval, integer)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_window_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_window_agg_trans(bloomfilter, varchar, timestamp with time zone, interval, integer,
                                       bigint, double precision)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_window_agg_trans_text' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(key varchar, at timestamp with time zone, slice interval, slices integer) (
    SFUNC = bloom_window_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_union_trans, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key varchar, at timestamp with time zone, slice interval, slices integer,
                           capacity bigint, fpr double precision) (
    SFUNC = bloom_window_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_union_trans, PARALLEL = SAFE
);
CREATE FUNCTION bloom_window_agg_trans(bloomfilter, bytea, timestamp with time zone, interval, integer)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_window_agg_trans_bytea' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_window_agg_trans(bloomfilter, bytea, timestamp with time zone, interval, integer,
                                       bigint, double precision)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_window_agg_trans_bytea' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(key bytea, at timestamp with time zone, slice interval, slices integer) (
    SFUNC = bloom_window_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_union_trans, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key bytea, at timestamp with time zone, slice interval, slices integer,
                           capacity bigint, fpr double precision) (
    SFUNC = bloom_window_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_union_trans, PARALLEL = SAFE
);
CREATE FUNCTION bloom_window_agg_trans(bloomfilter, uuid, timestamp with time zone, interval, integer)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_window_agg_trans_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION bloom_window_agg_trans(bloomfilter, uuid, timestamp with time zone, interval, integer,
                                       bigint, double precision)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_window_agg_trans_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(key uuid, at timestamp with time zone, slice interval, slices integer) (
    SFUNC = bloom_window_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_union_trans, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key uuid, at timestamp with time zone, slice interval, slices integer,
                           capacity bigint, fpr double precision) (
    SFUNC = bloom_window_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_union_trans, PARALLEL = SAFE
);
CREATE FUNCTION bloom_window_agg_trans(bloomfilter, anyelement, timestamp with time zone, interval, integer)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_window_agg_trans_any' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION bloom_window_agg_trans(bloomfilter, anyelement, timestamp with time zone, interval, integer,
                                       bigint, double precision)
    RETURNS bloomfilter
    AS 'MODULE_PATHNAME', 'bloom_window_agg_trans_any' LANGUAGE C STABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(key anyelement, at timestamp with time zone, slice interval, slices integer) (
    SFUNC = bloom_window_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_union_trans, PARALLEL = SAFE
);
CREATE AGGREGATE bloom_agg(key anyelement, at timestamp with time zone, slice interval, slices integer,
                           capacity bigint, fpr double precision) (
    SFUNC = bloom_window_agg_trans, STYPE = bloomfilter,
    COMBINEFUNC = bloom_union_trans, PARALLEL = SAFE
);

-- The index of a table partitioned by range on a time column is a windowed
-- filter: a probe since a time asks the partitions whose range ends after
-- it (dropping or detaching the oldest partition is the expiry)
CREATE FUNCTION bloom_index_contains(index regclass, key bigint, since timestamp with time zone) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_index_contains_int8' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_contains(regclass, bigint, timestamp with time zone) IS
    'false if no row of the partitions whose range ends after since has the key; true if one may';
CREATE FUNCTION bloom_index_contains(index regclass, key integer, since timestamp with time zone) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_index_contains_int4' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_contains(regclass, integer, timestamp with time zone) IS
    'false if no row of the partitions whose range ends after since has the key; true if one may';
CREATE FUNCTION bloom_index_contains(index regclass, key smallint, since timestamp with time zone) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_index_contains_int2' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_contains(regclass, smallint, timestamp with time zone) IS
    'false if no row of the partitions whose range ends after since has the key; true if one may';
CREATE FUNCTION bloom_index_contains(index regclass, key text, since timestamp with time zone) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_index_contains_text' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_contains(regclass, text, timestamp with time zone) IS
    'false if no row of the partitions whose range ends after since has the key; true if one may';
CREATE FUNCTION bloom_index_contains(index regclass, key varchar, since timestamp with time zone) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_index_contains_text' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_contains(regclass, varchar, timestamp with time zone) IS
    'false if no row of the partitions whose range ends after since has the key; true if one may';
CREATE FUNCTION bloom_index_contains(index regclass, key bytea, since timestamp with time zone) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_index_contains_bytea' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_contains(regclass, bytea, timestamp with time zone) IS
    'false if no row of the partitions whose range ends after since has the key; true if one may';
CREATE FUNCTION bloom_index_contains(index regclass, key uuid, since timestamp with time zone) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_index_contains_uuid' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_contains(regclass, uuid, timestamp with time zone) IS
    'false if no row of the partitions whose range ends after since has the key; true if one may';
CREATE FUNCTION bloom_index_contains(index regclass, key anyelement, since timestamp with time zone) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_index_contains_any' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_contains(regclass, anyelement, timestamp with time zone) IS
    'false if no row of the partitions whose range ends after since has the key; true if one may';
