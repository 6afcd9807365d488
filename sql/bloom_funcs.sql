-- Constructors, add, contains, info, cardinality: behaviour, NULLs, errors
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;

-- bloom_empty: fpr defaults to 0.01, expansion to 2 (scalable, one layer
-- to start with, planned for the first layer's share of the rate)
SELECT kind, capacity, fpr, bits, hashes, bytes, items, bits_set,
       estimated_items, estimated_fpr, key_type, format_version, layers, expansion, saturation
  FROM bloom_info(bloom_empty(1000000));
-- expansion 0: a fixed filter, sized per the blocked layout
SELECT kind, capacity, fpr, bits, hashes, bytes, format_version, layers, expansion
  FROM bloom_info(bloom_empty(1000000, 0.01, 0));
SELECT capacity, fpr, hashes, round(bits::numeric / capacity, 2) AS bits_per_key
  FROM bloom_info(bloom_empty(1000000, 0.001, 0));
-- bits per key of a fixed filter stay at or under 10.1 at 1% and 15.8 at
-- 0.1%; a scalable filter's first layer costs at most 1.25x that
SELECT c, (SELECT bits::numeric / capacity FROM bloom_info(bloom_empty(c, 0.01, 0))) <= 10.1 AS ok_1pct,
          (SELECT bits::numeric / capacity FROM bloom_info(bloom_empty(c, 0.001, 0))) <= 15.8 AS ok_01pct,
          (SELECT bits::numeric / capacity FROM bloom_info(bloom_empty(c, 0.01))) <= 1.25 * 10.1 AS ok_scalable_1pct,
          (SELECT bits::numeric / capacity FROM bloom_info(bloom_empty(c, 0.001))) <= 1.25 * 15.8 AS ok_scalable_01pct
  FROM unnest(ARRAY[100000, 1000000, 10000000]) c;
-- smallest filter: one 64-byte block (and a 32-byte layer descriptor)
SELECT bits, bytes FROM bloom_info(bloom_empty(1, 0.01, 0));
SELECT bits, bytes FROM bloom_info(bloom_empty(1));
-- the largest rate and tiny ones
SELECT hashes FROM bloom_info(bloom_empty(100, 0.5));
SELECT hashes FROM bloom_info(bloom_empty(100, 1e-12, 0));
SELECT hashes FROM bloom_info(bloom_empty(100, 1e-9));

-- bad parameters: errors with hints, before any allocation
SELECT bloom_empty(0);
SELECT bloom_empty(-5, 0.01);
SELECT bloom_empty(100, 0);
SELECT bloom_empty(100, 0.6);
SELECT bloom_empty(100, -0.1);
SELECT bloom_empty(100, 'NaN');
SELECT bloom_empty(100, 'Infinity');
SELECT bloom_empty(100, 1e-13);
SELECT bloom_empty(100, 1e-10);
SELECT bloom_empty(100, 0.01, -1);
SELECT bloom_empty(100, 0.01, 17);
SELECT bloom_empty(429577370, 0.01, 0);
SELECT bloom_empty(359578877, 0.01);
SELECT bloom_empty(9223372036854775807, 0.01);
-- strict: NULL parameters give NULL
SELECT bloom_empty(NULL) IS NULL AS null_cap, bloom_empty(10, NULL) IS NULL AS null_fpr,
       bloom_empty(10, 0.01, NULL) IS NULL AS null_expansion;

-- add returns a new value and leaves its input alone
CREATE TABLE t (id int PRIMARY KEY, f bloomfilter);
INSERT INTO t VALUES (1, bloom_empty(1000));
SELECT bloom_contains(bloom_add(f, 'alice'), 'alice') AS in_new,
       bloom_contains(f, 'alice') AS in_old
  FROM t;
UPDATE t SET f = bloom_add(f, 'alice');
UPDATE t SET f = bloom_add(f, 'bob');
UPDATE t SET f = bloom_add(f, 'alice');
SELECT bloom_contains(f, 'alice') AS alice, bloom_contains(f, 'bob') AS bob,
       bloom_contains(f, 'carol') AS carol, bloom_contains(f, ''::text) AS empty_string
  FROM t;
-- items counts the adds of keys not already present (a repeat is not
-- counted), estimated_items the distinct keys from the bits
SELECT items, estimated_items, bits_set, key_type FROM t, bloom_info(f);
SELECT bloom_cardinality(f) FROM t;

-- NULLs: contains is strict; add of NULL returns the filter unchanged
SELECT bloom_contains(f, NULL::text) IS NULL AS null_key,
       bloom_contains(NULL, 'alice'::text) IS NULL AS null_filter
  FROM t;
SELECT bloom_add(f, NULL::text) = f AS add_null_is_noop,
       bloom_add(f, NULL::bigint) = f AS add_null_bigint_is_noop
  FROM t;
-- create on add: a NULL filter becomes a new scalable filter (BF.ADD)
SELECT kind, capacity, fpr, expansion, items, key_type
  FROM bloom_info(bloom_add(NULL, 'x'::text));
SELECT bloom_contains(bloom_add(NULL, 'x'::text), 'x') AS has_x,
       bloom_add(NULL::bloomfilter, NULL::text) IS NULL AS null_and_null;
SELECT bloom_info(NULL) IS NULL AS info_null, bloom_cardinality(NULL) IS NULL AS card_null;

-- an empty filter holds nothing of any type
SELECT bloom_contains(bloom_empty(10), 1) AS int_key,
       bloom_contains(bloom_empty(10), 'a'::text) AS text_key,
       bloom_contains(bloom_empty(10), now()) AS other_key;

-- cardinality follows distinct keys, not adds; so do the items of the
-- layer bloom_agg builds (from the bits, plus 2%, when rows repeat)
WITH f AS (SELECT bloom_agg(g % 1000, 100000, 0.01) AS f FROM generate_series(1, 50000) g)
SELECT items, bloom_cardinality(f) BETWEEN 970 AND 1030 AS about_1000 FROM f, bloom_info(f);

-- estimated fpr rises past capacity
WITH f AS (SELECT bloom_agg(g, 1000, 0.01) AS f FROM generate_series(1, 3000) g)
SELECT estimated_fpr > 0.1 AS saturated, saturation > 10 AS saturation_shows_it FROM f, bloom_info(f);

-- volatility and parallel markings as documented
SELECT p.oid::regprocedure AS function, p.provolatile, p.proisstrict, p.proparallel
  FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomtype'
 WHERE p.proname IN ('bloom_empty', 'bloom_add', 'bloom_contains', 'bloom_info',
                     'bloom_cardinality', 'bloom_union', 'bloom_intersect')
 ORDER BY p.oid::regprocedure::text COLLATE "C";
-- every function of the extension is parallel safe but those of the
-- change log (1.8): the trigger and the pruning write the log (unsafe);
-- the catch-up reads it as its owner, in the leader (restricted)
SELECT p.oid::regprocedure AS not_parallel_safe, p.proparallel
  FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomtype'
 WHERE p.proparallel <> 's'
 ORDER BY 1::text COLLATE "C";

DROP TABLE t;
