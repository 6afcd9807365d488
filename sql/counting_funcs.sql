-- countingbloom: constructor, add, remove, contains, count, batch forms,
-- union, info, counting_to_bloom, NULL rules, errors, I/O
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;
SET extra_float_digits = 0;

-- Constructor and parameters: every check before anything is allocated
SELECT capacity, fpr, hashes, counters, counter_bits, bytes, items, removes, key_type, format_version
  FROM counting_info(counting_empty(1000));
SELECT (counting_info(counting_empty(1000, 0.001))).hashes AS hashes_at_0_1pct;
SELECT counting_empty(0);
SELECT counting_empty(-5, 0.01);
SELECT counting_empty(10, 0);
SELECT counting_empty(10, 0.6);
SELECT counting_empty(10, 'NaN');
SELECT counting_empty(1000000000000000);
SELECT counting_empty(NULL) IS NULL AS strict;
-- the blocked filter it answers as has bloom_empty(capacity, fpr, 0)'s geometry
SELECT (bloom_info(counting_to_bloom(counting_empty(5000, 0.001)))).bits =
       (bloom_info(bloom_empty(5000, 0.001, 0))).bits AS same_bits,
       (counting_info(counting_empty(5000, 0.001))).bytes - 4 =
       5 * ((bloom_info(bloom_empty(5000, 0.001, 0))).bits / 8) + 64 AS five_times_the_bits;

-- NULL rules: add makes a filter, remove of NULL gives NULL
SELECT counting_add(NULL::countingbloom, NULL::bigint) IS NULL AS null_null,
       counting_remove(NULL::countingbloom, 1) IS NULL AS remove_from_null,
       counting_add(counting_empty(10), NULL::int) = counting_empty(10) AS add_null_key,
       counting_remove(counting_empty(10), NULL::text) = counting_empty(10) AS remove_null_key,
       counting_contains(counting_empty(10), NULL::int) IS NULL AS contains_strict,
       counting_count(NULL, 1) IS NULL AS count_strict;
SELECT capacity, fpr, items FROM counting_info(counting_add(NULL, 'x'::text));

-- add, contains, count, remove
CREATE TABLE cb (id int, f countingbloom);
INSERT INTO cb VALUES (1, counting_empty(1000));
UPDATE cb SET f = counting_add(counting_add(counting_add(f, 42), 42), 7) WHERE id = 1;
SELECT counting_contains(f, 42) AS has_42, counting_contains(f, 7) AS has_7,
       counting_contains(f, 8) AS has_8, counting_count(f, 42) AS count_42,
       counting_count(f, 7) AS count_7, counting_count(f, 8) AS count_8,
       (counting_info(f)).items, (counting_info(f)).key_type FROM cb;
UPDATE cb SET f = counting_remove(f, 42);
SELECT counting_contains(f, 42) AS has_42, counting_count(f, 42) AS count_42, (counting_info(f)).items,
       (counting_info(f)).removes FROM cb;
UPDATE cb SET f = counting_remove(f, 42);
SELECT counting_contains(f, 42) AS has_42, counting_contains(f, 7) AS has_7, (counting_info(f)).items FROM cb;
-- removing a key that is certainly absent changes nothing, byte for byte
SELECT md5(counting_remove(f, 123456789)::bytea) = md5(f::bytea) AS absent_remove_unchanged FROM cb;
-- counters stop at 15 and then never go down
SELECT counting_count(f, 1) AS count_after_20_adds,
       counting_count(counting_remove_all(f, array_fill(1, ARRAY[20])), 1) AS after_20_removes,
       (counting_info(f)).saturated_counters > 0 AS saturated, (counting_info(f)).max_counter
  FROM (SELECT counting_add_all(counting_empty(100), array_fill(1, ARRAY[20])) AS f) s;

-- key classes: another class is an ERROR, as for bloomfilter
SELECT counting_contains(f, 'x'::text) FROM cb;
SELECT counting_add(f, 1.5::float8) FROM cb;
SELECT counting_remove(f, '\x01'::bytea) FROM cb;
SELECT counting_contains(counting_add(NULL, 5::smallint), 5::bigint) AS integers_are_one_class;

-- every key type
SELECT counting_contains(counting_add(NULL, 'abc'::text), 'abc'::varchar) AS text_varchar,
       counting_contains(counting_add(NULL, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid),
                         'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid) AS uuid,
       counting_contains(counting_add(NULL, '\xdeadbeef'::bytea), '\xdeadbeef'::bytea) AS bytea,
       counting_contains(counting_add(NULL, 1.5::float8), 1.5::float4) AS float,
       counting_contains(counting_add(NULL, '2024-01-01'::date), '2024-01-01'::date) AS date;

-- batch forms
SELECT counting_contains_each(counting_add_all(NULL, ARRAY[1, 2, 3]), ARRAY[1, NULL, 4, 3]) AS each,
       counting_contains_all(counting_add_all(NULL, ARRAY[1, 2, 3]), ARRAY[1, 2]) AS all_in,
       counting_contains_all(counting_add_all(NULL, ARRAY[1, 2, 3]), ARRAY[1, NULL]) AS all_null,
       counting_contains_any(counting_add_all(NULL, ARRAY[1, 2, 3]), ARRAY[9, 3]) AS any_in,
       counting_contains_any(counting_add_all(NULL, ARRAY[1, 2, 3]), ARRAY[]::int[]) AS any_empty,
       counting_contains_each(counting_remove_all(counting_add_all(NULL, ARRAY[1, 2, 3]), ARRAY[2, NULL]),
                              ARRAY[[1, 2], [3, 4]]) AS each_2d,
       counting_remove_all(NULL, ARRAY[1]) IS NULL AS remove_all_null;

-- union: counters add
SELECT counting_count(a | b, 5) AS count_5, counting_contains(a | b, 6) AS has_6,
       (counting_info(a | b)).items,
       md5((a | b)::bytea) = md5((b | a)::bytea) AS commutative,
       md5((a | b)::bytea) = md5(counting_add(counting_add(a, 5), 6)::bytea) AS as_adds
  FROM (SELECT counting_add(counting_empty(100), 5) AS a,
               counting_add(counting_add(counting_empty(100), 5), 6) AS b) s;
SELECT counting_empty(100) | counting_empty(200);
SELECT counting_add(NULL, 1) | counting_add(NULL, 'a'::text);

-- counting_to_bloom answers exactly as the counting filter does
CREATE TABLE cbk AS SELECT counting_add_all(counting_empty(20000, 0.01),
                                            (SELECT array_agg(g) FROM generate_series(1, 20000) g)) AS f;
UPDATE cbk SET f = counting_remove_all(f, (SELECT array_agg(g) FROM generate_series(1, 20000, 2) g));
SELECT count(*) FILTER (WHERE counting_contains(f, g) <> bloom_contains(counting_to_bloom(f), g)) AS disagreements,
       count(*) FILTER (WHERE g <= 20000 AND g % 2 = 0 AND NOT counting_contains(f, g)) AS false_negatives,
       count(*) FILTER (WHERE g > 20000 AND counting_contains(f, g)) < 0.01 * 100000 AS fpr_ok
  FROM cbk, generate_series(1, 120000) g;
SELECT kind, capacity, fpr, expansion, key_type FROM cbk, bloom_info(counting_to_bloom(f));
SELECT bloom_contains(counting_to_bloom(f) | bloom_empty(20000, 0.01, 0), 2) AS unites_with_bloom_empty FROM cbk;

-- I/O: text, bytea and binary forms round-trip; = and hashing
SELECT f::text::countingbloom = f AS text_round_trip, f::bytea::countingbloom = f AS bytea_round_trip,
       count(DISTINCT f) AS distinct_values FROM cbk GROUP BY f;
-- bytes of another type are refused, both ways
SELECT bloom_empty(10)::bytea::countingbloom;
SELECT counting_empty(10)::bytea::bloomfilter;
SELECT counting_empty(10)::bytea::cuckoofilter;
DROP TABLE cb, cbk;
