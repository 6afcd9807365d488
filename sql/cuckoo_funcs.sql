-- cuckoofilter: constructor, add, add_new, remove, contains, count,
-- compact, batch forms, union, info, growth, NULL rules, errors, I/O
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;
SET extra_float_digits = 0;

-- Constructor, defaults and the fingerprint bits the rate asks for
SELECT capacity, fpr, bytes, buckets, bucket_size, fingerprint_bits, subfilters, items,
       expansion, max_kicks, key_type, format_version
  FROM cuckoo_info(cuckoo_empty(1000));
SELECT r.rate, i.bucket_size, i.fingerprint_bits
  FROM (VALUES (0.03), (0.01), (0.001), (0.0001)) r(rate),
       (VALUES (2), (4), (8)) b(bs),
       cuckoo_info(cuckoo_empty(1000, r.rate, b.bs, expansion => 0)) i
 ORDER BY r.rate DESC, i.bucket_size;
-- named arguments
SELECT bucket_size, max_kicks, expansion, subfilters
  FROM cuckoo_info(cuckoo_empty(100, bucket_size => 2, max_kicks => 20, expansion => 1));
-- bad parameters: an ERROR before anything is allocated
SELECT cuckoo_empty(0);
SELECT cuckoo_empty(10, 0);
SELECT cuckoo_empty(10, 0.6);
SELECT cuckoo_empty(10, 'NaN');
SELECT cuckoo_empty(10, 1e-10);
SELECT cuckoo_empty(10, 1e-10, expansion => 0) IS NOT NULL AS fixed_takes_1e_10;
SELECT cuckoo_empty(10, bucket_size => 3);
SELECT cuckoo_empty(10, bucket_size => 1);
SELECT cuckoo_empty(10, max_kicks => 0);
SELECT cuckoo_empty(10, max_kicks => 70000);
SELECT cuckoo_empty(10, expansion => 3);
SELECT cuckoo_empty(10, expansion => -1);
SELECT cuckoo_empty(1000000000000000);
SELECT cuckoo_empty(NULL) IS NULL AS strict;

-- NULL rules
SELECT cuckoo_add(NULL::cuckoofilter, NULL::bigint) IS NULL AS null_null,
       cuckoo_remove(NULL::cuckoofilter, 1) IS NULL AS remove_from_null,
       cuckoo_add(cuckoo_empty(10), NULL::int) = cuckoo_empty(10) AS add_null_key,
       cuckoo_add_new(cuckoo_empty(10), NULL::int) = cuckoo_empty(10) AS add_new_null_key,
       cuckoo_remove(cuckoo_empty(10), NULL::text) = cuckoo_empty(10) AS remove_null_key,
       cuckoo_contains(cuckoo_empty(10), NULL::int) IS NULL AS contains_strict,
       cuckoo_count(NULL, 1) IS NULL AS count_strict;
SELECT capacity, fpr, bucket_size, max_kicks, expansion, items
  FROM cuckoo_info(cuckoo_add(NULL, 'x'::text));

-- add (copies), add_new, count, remove
CREATE TABLE cf (id int, f cuckoofilter);
INSERT INTO cf VALUES (1, cuckoo_empty(1000));
UPDATE cf SET f = cuckoo_add(cuckoo_add(cuckoo_add(f, 42), 42), 7);
UPDATE cf SET f = cuckoo_add_new(cuckoo_add_new(f, 42), 9);
SELECT cuckoo_contains(f, 42) AS has_42, cuckoo_contains(f, 9) AS has_9, cuckoo_contains(f, 8) AS has_8,
       cuckoo_count(f, 42) AS count_42, cuckoo_count(f, 9) AS count_9, cuckoo_count(f, 8) AS count_8,
       items, deletes, key_type FROM cf, cuckoo_info(f);
UPDATE cf SET f = cuckoo_remove(f, 42);
SELECT cuckoo_contains(f, 42) AS has_42, cuckoo_count(f, 42) AS count_42, items, deletes FROM cf, cuckoo_info(f);
UPDATE cf SET f = cuckoo_remove(f, 42);
SELECT cuckoo_contains(f, 42) AS has_42, cuckoo_contains(f, 7) AS has_7, items, deletes FROM cf, cuckoo_info(f);
-- removing a key that is certainly absent changes nothing, byte for byte
SELECT md5(cuckoo_remove(f, 123456789)::bytea) = md5(f::bytea) AS absent_remove_unchanged FROM cf;
-- one key added 1000 times: copies stop at the bucket size (RedisBloom
-- #533), the filter does not grow, other keys still go in, and a key held
-- at the cap is kept by removes (it may stand for more adds)
SELECT cuckoo_count(f, 1) AS copies, subfilters, items, absorbed,
       cuckoo_contains(cuckoo_add(f, 2), 2) AS others_go_in,
       cuckoo_contains(cuckoo_remove_all(f, array_fill(1, ARRAY[1000])), 1) AS kept,
       (cuckoo_info(cuckoo_remove_all(f, array_fill(1, ARRAY[1000])))).stuck
  FROM (SELECT cuckoo_add_all(cuckoo_empty(100), array_fill(1, ARRAY[1000])) AS f) s, cuckoo_info(f);

-- key classes
SELECT cuckoo_contains(f, 'x'::text) FROM cf;
SELECT cuckoo_add(f, 1.5::float8) FROM cf;
SELECT cuckoo_remove(f, '\x01'::bytea) FROM cf;
SELECT cuckoo_contains(cuckoo_add(NULL, 5::smallint), 5::bigint) AS integers_are_one_class,
       cuckoo_contains(cuckoo_add(NULL, 'abc'::text), 'abc'::varchar) AS text_varchar,
       cuckoo_contains(cuckoo_add(NULL, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid),
                       'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid) AS uuid,
       cuckoo_contains(cuckoo_add(NULL, '\xdeadbeef'::bytea), '\xdeadbeef'::bytea) AS bytea,
       cuckoo_contains(cuckoo_add(NULL, '2024-01-01'::date), '2024-01-01'::date) AS date;

-- a fixed filter refuses the key it cannot place, and is unchanged
CREATE TABLE cfix (f cuckoofilter);
DO $$
DECLARE
    f cuckoofilter := cuckoo_empty(1000, 0.01, 4, 500, 0);
    i int := 0;
BEGIN
    LOOP
        i := i + 1;
        BEGIN
            f := cuckoo_add(f, i);
        EXCEPTION WHEN program_limit_exceeded THEN
            EXIT;
        END;
    END LOOP;
    INSERT INTO cfix VALUES (f);
    RAISE NOTICE 'a fixed filter of capacity 1000 refused a key after % keys or more: %',
        1000, i > 1000;
END $$;
SELECT items >= 1000 AS holds_capacity, subfilters, load_factor > 0.9 AS loaded FROM cfix, cuckoo_info(f);
SELECT md5(f::bytea) AS before, items AS items_before FROM cfix, cuckoo_info(f) \gset
-- the refusal, with the filter's numbers; the stored value is unchanged
BEGIN;
SAVEPOINT s;
UPDATE cfix SET f = cuckoo_add_all(f, (SELECT array_agg(g) FROM generate_series(-1, -200, -1) g));
ROLLBACK TO s;
SELECT md5(f::bytea) = :'before' AS unchanged FROM cfix;
COMMIT;

-- a filter that grows: sub-filters, and the rate over all of them
CREATE TABLE cgrow AS SELECT cuckoo_add_all(cuckoo_empty(1000), (SELECT array_agg(g) FROM generate_series(1, 20000) g)) AS f;
SELECT subfilters, items, capacity, load_factor < 1 AS load_ok, fingerprint_bits,
       estimated_fpr < fpr AS estimate_under_target FROM cgrow, cuckoo_info(f);
SELECT count(*) FILTER (WHERE g <= 20000 AND NOT cuckoo_contains(f, g)) AS false_negatives,
       count(*) FILTER (WHERE g > 20000 AND cuckoo_contains(f, g))::float8 / 100000 <= 0.01 AS rate_at_most_fpr
  FROM cgrow, generate_series(1, 120000) g;
-- removing half, then compacting: answers kept, sub-filters dropped
UPDATE cgrow SET f = cuckoo_remove_all(f, (SELECT array_agg(g) FROM generate_series(1, 20000) g WHERE g % 4 <> 0));
SELECT subfilters, items, deletes, stuck FROM cgrow, cuckoo_info(f);
-- (a moved fingerprint is shorter in its older sub-filter: absent keys may
-- answer otherwise, at that sub-filter's rate; added keys answer as before)
CREATE TEMP TABLE compacted AS SELECT cuckoo_compact(f) AS c FROM cgrow;
SELECT (cuckoo_info(c)).subfilters < (cuckoo_info(f)).subfilters AS fewer_subfilters,
       (cuckoo_info(c)).items = (cuckoo_info(f)).items AS same_items,
       (SELECT count(*) FROM generate_series(4, 20000, 4) g WHERE NOT cuckoo_contains(c, g)) AS compact_false_negatives,
       (SELECT count(*) FROM generate_series(100001, 200000) g WHERE cuckoo_contains(c, g)) <= 1000 AS compact_rate_ok
  FROM cgrow, compacted;
SELECT count(*) FILTER (WHERE g % 4 = 0 AND NOT cuckoo_contains(f, g)) AS false_negatives
  FROM cgrow, generate_series(1, 20000) g;

-- batch forms
SELECT cuckoo_contains_each(cuckoo_add_all(NULL, ARRAY[1, 2, 3]), ARRAY[1, NULL, 4, 3]) AS each,
       cuckoo_contains_all(cuckoo_add_all(NULL, ARRAY[1, 2, 3]), ARRAY[1, 2]) AS all_in,
       cuckoo_contains_all(cuckoo_add_all(NULL, ARRAY[1, 2, 3]), ARRAY[1, NULL]) AS all_null,
       cuckoo_contains_any(cuckoo_add_all(NULL, ARRAY[1, 2, 3]), ARRAY[9, 3]) AS any_in,
       cuckoo_contains_any(cuckoo_add_all(NULL, ARRAY[1, 2, 3]), ARRAY[]::int[]) AS any_empty,
       cuckoo_contains_each(cuckoo_remove_all(cuckoo_add_all(NULL, ARRAY[1, 2, 3]), ARRAY[2, NULL]),
                            ARRAY[[1, 2], [3, 4]]) AS each_2d,
       (cuckoo_info(cuckoo_add_new_all(NULL, ARRAY[1, 1, 2, 1]))).items AS add_new_all_items,
       cuckoo_remove_all(NULL, ARRAY[1]) IS NULL AS remove_all_null;

-- union: fingerprints reinserted
SELECT cuckoo_count(a | b, 5) AS count_5, cuckoo_contains(a | b, 6) AS has_6,
       (cuckoo_info(a | b)).items
  FROM (SELECT cuckoo_add(cuckoo_empty(100), 5) AS a,
               cuckoo_add(cuckoo_add(cuckoo_empty(100), 5), 6) AS b) s;
SELECT count(*) FILTER (WHERE NOT cuckoo_contains(u, g)) AS union_false_negatives
  FROM (SELECT cuckoo_add_all(cuckoo_empty(10000), (SELECT array_agg(g) FROM generate_series(1, 3000) g)) |
               cuckoo_add_all(cuckoo_empty(10000), (SELECT array_agg(g) FROM generate_series(2001, 6000) g)) AS u) s,
       generate_series(1, 6000) g;
SELECT cuckoo_empty(100) | cuckoo_empty(200);
SELECT cuckoo_empty(100) | cuckoo_empty(100, bucket_size => 2);
SELECT cuckoo_add(NULL, 1) | cuckoo_add(NULL, 'a'::text);
-- a union that does not fit: an ERROR with a hint
SELECT cuckoo_add_all(cuckoo_empty(1000, expansion => 0), (SELECT array_agg(g) FROM generate_series(1, 900) g)) |
       cuckoo_add_all(cuckoo_empty(1000, expansion => 0), (SELECT array_agg(g) FROM generate_series(1001, 1900) g));

-- I/O round trips, = and hashing
SELECT f::text::cuckoofilter = f AS text_round_trip, f::bytea::cuckoofilter = f AS bytea_round_trip,
       count(DISTINCT f) AS distinct_values FROM cgrow GROUP BY f;
SELECT cuckoo_empty(10)::bytea::bloomfilter;
SELECT cuckoo_empty(10)::bytea::countingbloom;
SELECT bloom_empty(10)::bytea::cuckoofilter;
DROP TABLE cf, cfix, cgrow;

-- Reading a hash list with a capacity costs what it holds (issue 32): a
-- state of 2M rows for a capacity of 10M (an aggregate over
-- cuckoo_agg_trans with no final step keeps its hash list, 18 MB) read by
-- one cuckoo_contains in a fresh backend.  1.7 simulated the filter over a
-- table of 40 bytes an entry: 534 MB at its peak (30x the list) and 2 s;
-- the filter it stands for (15 MB) is built when it is the smaller: about
-- 70 MB (the list, its sorted hashes, the filter and the call site's copy).
CREATE FUNCTION cf_peak_mb() RETURNS int LANGUAGE sql AS $$
  SELECT (regexp_match(pg_read_file('/proc/self/status'), 'VmHWM:\s+(\d+) kB'))[1]::int / 1024 $$;
CREATE AGGREGATE cf_raw_list(bigint, bigint, float8) (SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter);
CREATE TABLE cf_list AS SELECT cf_raw_list(g, 10000000, 0.01) AS k FROM generate_series(1, 2000000) g;
SELECT pg_column_size(k) / 1048576 AS list_mb FROM cf_list;
\c
SELECT cf_peak_mb() AS before_mb \gset
SELECT count(*) FILTER (WHERE cuckoo_contains((SELECT k FROM cf_list), g)) AS found_of_2000
  FROM generate_series(1, 2000000, 1000) g;
SELECT count(*) FILTER (WHERE cuckoo_contains((SELECT k FROM cf_list), g)) < 200 AS absent_under_1_percent
  FROM generate_series(-20000, -1) g;
SELECT cf_peak_mb() - :before_mb <= 7 * 18 AS peak_within_7x_the_list;
SELECT capacity, bytes < 20000000 AS bytes_of_the_filter, items FROM cuckoo_info((SELECT k FROM cf_list));
-- a small list for a large capacity is simulated (its table is smaller
-- than the filter), and a call site that keeps the simulation probes it
-- row by row (a value read from a materialized CTE, not from a table)
WITH s AS MATERIALIZED (SELECT cf_raw_list(g, 10000000, 0.01) AS f FROM generate_series(1, 10000) g)
SELECT count(*) FILTER (WHERE cuckoo_contains(s.f, x)) AS found_of_100
  FROM s, generate_series(1, 100) x;
DROP TABLE cf_list;
DROP AGGREGATE cf_raw_list(bigint, bigint, float8);
DROP FUNCTION cf_peak_mb();
