-- Hostile keys and roles against the bloomfilter index (hash flooding).
-- The key hash is public (bloom_key_hash), and so was 1.7's index seed (0):
-- a role with only INSERT could pick keys that all fall on one page of the
-- newest layer, and 1.7 added a layer, twice as large, as soon as that one
-- page reached its share: about 7,000 such rows doubled the index, and 42,000
-- made it 13 MB where CREATE INDEX on as many ordinary keys gives about
-- 100 kB.  Now a layer grows when half its pages are full (one page never
-- makes it grow), and each build draws a secret seed, kept in the metapage
-- and shown only to roles that may read the indexed column.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
DROP ROLE IF EXISTS bloom_flood_writer;
RESET client_min_messages;
CREATE ROLE bloom_flood_writer;

-- n keys of round r whose public hash (seed 0) falls on the first page of
-- every layer of up to 8 * 2^r pages, as an attacker computes them offline:
-- unsigned hash < 2^(61 - r), from a range of candidates of the round's own
CREATE FUNCTION flood_keys(r int, n int) RETURNS SETOF bigint
LANGUAGE sql AS $$
  SELECT g FROM generate_series(r::bigint * 100000000, r::bigint * 100000000 + 99999999) g
   WHERE bloom_key_hash(g, 0) >= 0 AND bloom_key_hash(g, 0) < (1::bigint << (61 - r))
   LIMIT n
$$;
CREATE TABLE flood_keys AS
  SELECT r, k FROM generate_series(0, 5) r, flood_keys(r, 7000) k;
SELECT r, count(*) AS keys FROM flood_keys GROUP BY r ORDER BY r;

-- 1. The attack of the review, as an INSERT-only role, against an index
-- whose seed it knows (WITH (seed = 0), the public seed of 1.7): six rounds
-- of 7,000 rows, each aimed at the first page of the newest layer
CREATE TABLE flood_known (k bigint);
CREATE INDEX flood_known_i ON flood_known USING bloomfilter (k) WITH (seed = 0);
GRANT INSERT ON flood_known TO bloom_flood_writer;
GRANT SELECT ON flood_keys TO bloom_flood_writer;
SET ROLE bloom_flood_writer;
INSERT INTO flood_known SELECT k FROM flood_keys WHERE r = 0;
INSERT INTO flood_known SELECT k FROM flood_keys WHERE r = 1;
INSERT INTO flood_known SELECT k FROM flood_keys WHERE r = 2;
INSERT INTO flood_known SELECT k FROM flood_keys WHERE r = 3;
INSERT INTO flood_known SELECT k FROM flood_keys WHERE r = 4;
INSERT INTO flood_known SELECT k FROM flood_keys WHERE r = 5;
-- what it can see: the index's size only (no SELECT, no bloom_index_*)
SELECT pg_relation_size('flood_known_i') > 0 AS sees_size;
\set VERBOSITY terse
SELECT bloom_index_filter('flood_known_i') IS NULL;
SELECT layers FROM bloom_index_info('flood_known_i');
\set VERBOSITY default
RESET ROLE;

-- the same number of ordinary keys, indexed by CREATE INDEX and by inserts
CREATE TABLE flood_plain_built (k bigint);
INSERT INTO flood_plain_built SELECT generate_series(1, 42000);
CREATE INDEX flood_plain_built_i ON flood_plain_built USING bloomfilter (k) WITH (seed = 0);
CREATE TABLE flood_plain_grown (k bigint);
CREATE INDEX flood_plain_grown_i ON flood_plain_grown USING bloomfilter (k) WITH (seed = 0);
INSERT INTO flood_plain_grown SELECT generate_series(1, 42000);
-- 1.7: 13 MB (6 layers); now one layer, no larger than the ordinary keys'
-- index grown by inserts, and within 4x of the built one (1.7's was 170x)
SELECT (SELECT layers FROM bloom_index_info('flood_known_i')) AS flooded_layers,
       (SELECT layers FROM bloom_index_info('flood_plain_grown_i')) AS plain_layers,
       pg_relation_size('flood_known_i') <= pg_relation_size('flood_plain_grown_i')
         AS no_larger_than_plain_inserts,
       pg_relation_size('flood_known_i') <= 4 * pg_relation_size('flood_plain_built_i')
         AS within_4x_of_plain_build;
-- no key is lost
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('flood_known_i', k)) AS false_negatives
  FROM flood_known;
-- a build over the chosen rows is not flooded either (1.7: 16.5 MB)
REINDEX INDEX flood_known_i;
SELECT layers,
       pg_relation_size('flood_known_i') <= 4 * pg_relation_size('flood_plain_built_i')
         AS within_4x_of_plain_build
  FROM bloom_index_info('flood_known_i');
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('flood_known_i', k)) AS false_negatives
  FROM flood_known;
-- and a filter that cannot grow by one page grows by keys that spread:
-- 100,000 more ordinary keys make layers
INSERT INTO flood_known SELECT generate_series(1, 100000);
SELECT layers > 1 AS grew_for_ordinary_keys FROM bloom_index_info('flood_known_i');
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('flood_known_i', k)) AS false_negatives
  FROM flood_known;

-- 2. The same rows against an index with a secret seed (the default): the
-- keys were chosen for seed 0 and spread; the index keeps its rate for
-- absent keys (100,000 keys no row has, at most its fpr of 1%)
CREATE TABLE flood_secret (k bigint);
CREATE INDEX flood_secret_i ON flood_secret USING bloomfilter (k);
GRANT INSERT ON flood_secret TO bloom_flood_writer;
SET ROLE bloom_flood_writer;
INSERT INTO flood_secret SELECT k FROM flood_keys;
RESET ROLE;
SELECT layers,
       pg_relation_size('flood_secret_i') <= 4 * pg_relation_size('flood_plain_built_i')
         AS within_4x_of_plain_build
  FROM bloom_index_info('flood_secret_i');
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('flood_secret_i', k)) AS false_negatives
  FROM flood_secret;
SELECT count(*) FILTER (WHERE bloom_index_contains('flood_secret_i', g)) < 1000 AS rate_under_fpr
  FROM generate_series(-100000, -1) g;

-- 3. The secret seed.  Its value is in the metapage and in
-- bloom_index_filter's header (offset 16, little-endian), which takes
-- SELECT on the column: a role without it reads neither
CREATE FUNCTION flood_seed(ix regclass) RETURNS bytea
  LANGUAGE sql AS $$ SELECT substring(bloom_index_filter(ix)::bytea FROM 17 FOR 8) $$;
CREATE TABLE flood_seeds (k bigint);
INSERT INTO flood_seeds SELECT generate_series(1, 5000);
CREATE INDEX flood_seeds_a ON flood_seeds USING bloomfilter (k);
CREATE INDEX flood_seeds_b ON flood_seeds USING bloomfilter (k);
CREATE INDEX flood_seeds_42 ON flood_seeds USING bloomfilter (k) WITH (seed = 42);
SELECT flood_seed('flood_seeds_a') <> '\x0000000000000000' AS a_not_public,
       flood_seed('flood_seeds_a') <> flood_seed('flood_seeds_b') AS a_b_differ,
       flood_seed('flood_seeds_42') = '\x2a00000000000000' AS fixed_42;
SELECT flood_seed('flood_seeds_a') AS a_seed, flood_seed('flood_seeds_42') AS s42_seed \gset
-- REINDEX draws a new one (a fixed seed stays); every key still answers
REINDEX TABLE flood_seeds;
SELECT flood_seed('flood_seeds_a') <> :'a_seed' AS a_reseeded,
       flood_seed('flood_seeds_42') = :'s42_seed' AS s42_kept;
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('flood_seeds_a', k)) AS a_missing,
       count(*) FILTER (WHERE NOT bloom_index_contains('flood_seeds_42', k)) AS s42_missing
  FROM flood_seeds;
-- rows inserted in a transaction that then rebuilds the index: the build
-- has them (the pending keys hashed with the old seed are not written)
BEGIN;
INSERT INTO flood_seeds SELECT generate_series(5001, 6000);
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('flood_seeds_a', k)) AS missing_before
  FROM flood_seeds;
INSERT INTO flood_seeds SELECT generate_series(6001, 7000);
REINDEX INDEX flood_seeds_a;
INSERT INTO flood_seeds SELECT generate_series(7001, 8000);
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('flood_seeds_a', k)) AS missing_after
  FROM flood_seeds;
COMMIT;
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('flood_seeds_a', k)) AS missing_committed
  FROM flood_seeds;
-- a TRUNCATE (a new file, a new seed) rolled back to a savepoint: the
-- keys written after it are hashed with the seed of the file that is back
CREATE TABLE flood_sp (k bigint);
INSERT INTO flood_sp SELECT generate_series(1, 100);
CREATE INDEX flood_sp_i ON flood_sp USING bloomfilter (k);
BEGIN;
SAVEPOINT a;
TRUNCATE flood_sp;
INSERT INTO flood_sp VALUES (1001);
ROLLBACK TO a;
SET LOCAL work_mem = '8MB';
INSERT INTO flood_sp SELECT generate_series(2001, 2100);
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('flood_sp_i', k)) AS missing_in_xact
  FROM flood_sp;
INSERT INTO flood_sp SELECT generate_series(3001, 3100);
COMMIT;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE NOT bloom_index_contains('flood_sp_i', k)) AS missing
  FROM flood_sp;
DROP TABLE flood_sp;
-- a role with INSERT only: no filter, no seed
GRANT INSERT ON flood_seeds TO bloom_flood_writer;
SET ROLE bloom_flood_writer;
\set VERBOSITY terse
SELECT flood_seed('flood_seeds_a');
\set VERBOSITY default
RESET ROLE;

-- 4. Partitions: the partitions' indexes of one partitioned index share a
-- seed (drawn once), so that bloom_index_filter unites them; a partition
-- made later takes it too.  An attached partition keeps its own index and
-- seed: probes hash per partition; a union of different seeds is refused.
CREATE TABLE flood_part (k bigint) PARTITION BY RANGE (k);
CREATE TABLE flood_part_1 PARTITION OF flood_part FOR VALUES FROM (0) TO (1000);
CREATE TABLE flood_part_2 PARTITION OF flood_part FOR VALUES FROM (1000) TO (2000);
INSERT INTO flood_part SELECT generate_series(0, 1999);
CREATE INDEX flood_part_i ON flood_part USING bloomfilter (k);
CREATE TABLE flood_part_3 PARTITION OF flood_part FOR VALUES FROM (2000) TO (3000);
INSERT INTO flood_part SELECT generate_series(2000, 2999);
SELECT count(DISTINCT flood_seed(relid)) AS seeds, count(*) AS partitions,
       bool_and(flood_seed(relid) <> '\x0000000000000000') AS not_public
  FROM pg_partition_tree('flood_part_i') WHERE isleaf;
SELECT bloom_index_filter('flood_part_i') IS NOT NULL AS united;
CREATE TABLE flood_part_4 (k bigint);
INSERT INTO flood_part_4 SELECT generate_series(3000, 3999);
CREATE INDEX flood_part_4_i ON flood_part_4 USING bloomfilter (k);
ALTER TABLE flood_part ATTACH PARTITION flood_part_4 FOR VALUES FROM (3000) TO (4000);
SELECT count(DISTINCT flood_seed(relid)) AS seeds
  FROM pg_partition_tree('flood_part_i') WHERE isleaf;
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('flood_part_i', k)) AS missing,
       (SELECT bool_and(a) FROM unnest(bloom_index_contains_each('flood_part_i',
                                 ARRAY[0, 1500, 2500, 3500, 3999])) a) AS each_found
  FROM flood_part;
SELECT bloom_index_filter('flood_part_i') IS NOT NULL;
-- REINDEX of the attached partition's index takes the others' seed
REINDEX INDEX flood_part_4_i;
SELECT count(DISTINCT flood_seed(relid)) AS seeds
  FROM pg_partition_tree('flood_part_i') WHERE isleaf;
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('flood_part_i', k)) AS missing
  FROM flood_part;
-- REINDEX CONCURRENTLY of a partition's index takes the seed of the index
-- it replaces, also beside other partitioned bloomfilter indexes of the
-- table, of another column or of the same one, and with a name that
-- PostgreSQL cut short
CREATE TABLE flood_two (a bigint, b bigint) PARTITION BY RANGE (a);
CREATE TABLE flood_two_1 PARTITION OF flood_two FOR VALUES FROM (0) TO (1000);
CREATE TABLE flood_two_2 PARTITION OF flood_two FOR VALUES FROM (1000) TO (2000);
INSERT INTO flood_two SELECT g, -g FROM generate_series(0, 1999) g;
CREATE INDEX flood_two_a ON flood_two USING bloomfilter (a);
CREATE INDEX flood_two_b ON flood_two USING bloomfilter (b);
CREATE INDEX flood_two_a2 ON flood_two USING bloomfilter (a);
SELECT relname FROM pg_class WHERE relname LIKE 'flood\_two\_1\_%' ORDER BY oid;
REINDEX INDEX CONCURRENTLY flood_two_1_b_idx;
REINDEX INDEX CONCURRENTLY flood_two_1_a_idx1;
REINDEX INDEX CONCURRENTLY flood_two_1_a_idx;
SELECT i AS partitioned_index,
       (SELECT count(DISTINCT flood_seed(relid)) FROM pg_partition_tree(i) WHERE isleaf) AS seeds,
       bloom_index_filter(i) IS NOT NULL AS united
  FROM unnest(ARRAY['flood_two_a', 'flood_two_b', 'flood_two_a2']::regclass[]) i;
SELECT count(DISTINCT flood_seed(i)) AS three_seeds
  FROM unnest(ARRAY['flood_two_1_a_idx', 'flood_two_1_b_idx', 'flood_two_1_a_idx1']::regclass[]) i;
DROP TABLE flood_two;
CREATE TABLE flood_long (a bigint) PARTITION BY RANGE (a);
CREATE TABLE flood_long_partition_with_a_name_long_enough_to_be_cut_short_1
  PARTITION OF flood_long FOR VALUES FROM (0) TO (1000);
CREATE TABLE flood_long_partition_with_a_name_long_enough_to_be_cut_short_2
  PARTITION OF flood_long FOR VALUES FROM (1000) TO (2000);
INSERT INTO flood_long SELECT generate_series(0, 1999);
CREATE INDEX flood_long_i1 ON flood_long USING bloomfilter (a);
CREATE INDEX flood_long_i2 ON flood_long USING bloomfilter (a);
SELECT relname, length(relname) FROM pg_class
 WHERE relname LIKE 'flood\_long\_partition%' AND relkind = 'i' ORDER BY oid;
-- the first partition's index of the second partitioned index
SELECT format('REINDEX INDEX CONCURRENTLY %I', indexrelid::regclass) FROM pg_index
 WHERE indrelid = 'flood_long_partition_with_a_name_long_enough_to_be_cut_short_1'::regclass
 ORDER BY indexrelid DESC LIMIT 1 \gexec
SELECT i AS partitioned_index,
       (SELECT count(DISTINCT flood_seed(relid)) FROM pg_partition_tree(i) WHERE isleaf) AS seeds,
       bloom_index_filter(i) IS NOT NULL AS united
  FROM unnest(ARRAY['flood_long_i1', 'flood_long_i2']::regclass[]) i;
DROP TABLE flood_long;

-- 5. bloomtype.layer_cache (copies kept across transactions) is set by
-- superusers only: an ordinary role cannot make its backend keep more
SET ROLE bloom_flood_writer;
SET bloomtype.layer_cache = '2000GB';
SHOW bloomtype.layer_cache;
RESET ROLE;

-- 6. bloom_index_filter of a partitioned index holds the union so far and
-- one partition's filter, not every union it made on the way: 32
-- partitions of 1.5 MB filters, a union at each, in a fresh backend.  The
-- backend's private peak is its peak resident memory less the shared
-- buffers it touched (the 47 MB of index pages): 1.7 kept each
-- intermediate union, 51 MB; now 9 MB
CREATE TABLE flood_wide (k bigint) PARTITION BY HASH (k);
DO $$ BEGIN
  FOR r IN 0..31 LOOP
    EXECUTE format('CREATE TABLE flood_wide_%s PARTITION OF flood_wide FOR VALUES WITH (MODULUS 32, REMAINDER %s)', r, r);
  END LOOP;
END $$;
CREATE INDEX flood_wide_i ON flood_wide USING bloomfilter (k) WITH (min_capacity = 1000000);
INSERT INTO flood_wide SELECT generate_series(1, 3200);
\c
CREATE FUNCTION pg_temp.kb(f text) RETURNS int LANGUAGE sql AS $$
  SELECT (regexp_match(pg_read_file('/proc/self/status'), f || ':\s+(\d+) kB'))[1]::int $$;
SELECT pg_temp.kb('VmHWM') AS hwm0, pg_temp.kb('RssShmem') AS shm0 \gset
SELECT pg_column_size(bloom_index_filter('flood_wide_i')) AS filter_bytes;
SELECT (pg_temp.kb('VmHWM') - :hwm0 - (pg_temp.kb('RssShmem') - :shm0)) / 1024 <= 16
         AS private_peak_within_16_mb;
DROP TABLE flood_wide;

-- 7. A build holds maintenance_work_mem and a constant, whatever the size
-- of the index: layers larger than that live on the index's pages from the
-- start, their keys written a batch at a time.  Any role with TEMP asks
-- for a first layer of 1e8 keys (145 MB) on an empty table, in a fresh
-- backend with maintenance_work_mem at 16 MB: 1.7 built it in memory
-- (178 MB at the peak); now about 7 MB (local buffers included)
\c
CREATE FUNCTION pg_temp.kb(f text) RETURNS int LANGUAGE sql AS $$
  SELECT (regexp_match(pg_read_file('/proc/self/status'), f || ':\s+(\d+) kB'))[1]::int $$;
SET temp_buffers = '8MB';
SELECT pg_temp.kb('VmHWM') AS hwm0, pg_temp.kb('RssShmem') AS shm0 \gset
SET maintenance_work_mem = '16MB';
SET ROLE bloom_flood_writer;
CREATE TEMP TABLE flood_empty (k bigint);
CREATE INDEX flood_empty_i ON flood_empty USING bloomfilter (k)
  WITH (min_capacity = 100000000);
INSERT INTO flood_empty VALUES (1), (2);
SELECT bloom_index_contains('flood_empty_i', 1::bigint) AS has_1,
       bloom_index_contains('flood_empty_i', 3::bigint) AS has_3;
RESET ROLE;
SELECT pg_relation_size('flood_empty_i') > 100 * 1024 * 1024 AS index_over_100_mb,
       (pg_temp.kb('VmHWM') - :hwm0 - (pg_temp.kb('RssShmem') - :shm0)) / 1024 <= 32
         AS private_peak_within_32_mb;
RESET maintenance_work_mem;
DROP TABLE flood_empty;

-- Each build's memory goes with it: CREATE INDEX on a partitioned table
-- builds every partition's index in one statement (8 layers of 6 MB, each
-- in memory: the first version of the paged build kept them all, 48 MB)
\c
CREATE FUNCTION pg_temp.kb(f text) RETURNS int LANGUAGE sql AS $$
  SELECT (regexp_match(pg_read_file('/proc/self/status'), f || ':\s+(\d+) kB'))[1]::int $$;
CREATE TABLE flood_parts (k bigint) PARTITION BY HASH (k);
DO $$ BEGIN
  FOR r IN 0..7 LOOP
    EXECUTE format('CREATE TABLE flood_parts_%s PARTITION OF flood_parts FOR VALUES WITH (MODULUS 8, REMAINDER %s)', r, r);
  END LOOP;
END $$;
SELECT pg_temp.kb('VmHWM') AS hwm0, pg_temp.kb('RssShmem') AS shm0 \gset
SET maintenance_work_mem = '16MB';
CREATE INDEX flood_parts_i ON flood_parts USING bloomfilter (k) WITH (min_capacity = 5000000);
RESET maintenance_work_mem;
SELECT count(*) AS partitions, sum(pg_relation_size(relid)) > 40 * 1024 * 1024 AS over_40_mb
  FROM pg_partition_tree('flood_parts_i') WHERE isleaf;
SELECT (pg_temp.kb('VmHWM') - :hwm0 - (pg_temp.kb('RssShmem') - :shm0)) / 1024 <= 24
         AS private_peak_within_24_mb;
DROP TABLE flood_parts;

-- The same keys give the same index either way: 300,000 keys into a
-- layer for 2M (3 MB), built on its pages (maintenance_work_mem 1 MB) and
-- in memory, with one seed: the same bits, the same answer for every key
-- of 1.3M
CREATE TABLE flood_build AS SELECT g::bigint AS k FROM generate_series(1, 300000) g;
SET maintenance_work_mem = '1MB';
SET client_min_messages = debug1;
CREATE INDEX flood_build_paged ON flood_build USING bloomfilter (k)
  WITH (min_capacity = 2000000, seed = 7);
RESET client_min_messages;
RESET maintenance_work_mem;
CREATE INDEX flood_build_mem ON flood_build USING bloomfilter (k)
  WITH (min_capacity = 2000000, seed = 7);
SELECT p.layers, p.bytes = m.bytes AS same_bytes, p.bits_set = m.bits_set AS same_bits
FROM bloom_index_info('flood_build_paged') p, bloom_index_info('flood_build_mem') m;
SELECT count(*) FILTER (WHERE bloom_index_contains('flood_build_paged', g::bigint)) AS found,
       count(*) FILTER (WHERE bloom_index_contains('flood_build_paged', g::bigint)
                          <> bloom_index_contains('flood_build_mem', g::bigint)) AS differ
FROM generate_series(1, 1300000) g;
DROP TABLE flood_build;

-- A build that grows: 200,000 rows of 100 keys come first, so the first
-- 65,536 hashes (half of 1 MB) extrapolate to a few thousand keys; the
-- layers grow in memory past the budget, go to the pages, and grow there
-- through the insert path.  Every key is found and the rate holds
CREATE TABLE flood_build AS
  SELECT (CASE WHEN i <= 200000 THEN i % 100 ELSE i END)::bigint AS k
  FROM generate_series(1, 1500000) i;
SET maintenance_work_mem = '1MB';
SET client_min_messages = debug1;
CREATE INDEX flood_build_grown ON flood_build USING bloomfilter (k);
RESET client_min_messages;
RESET maintenance_work_mem;
SELECT layers > 2 AS grew, build_items < 10000 AS estimate_short,
       bytes > 1024 * 1024 AS past_the_budget
FROM bloom_index_info('flood_build_grown');
SELECT count(*) AS missed FROM flood_build
WHERE NOT bloom_index_contains('flood_build_grown', k);
SELECT count(*) FILTER (WHERE bloom_index_contains('flood_build_grown', g::bigint)) <= 10000
         AS absent_at_most_1_percent
FROM generate_series(2000001, 3000000) g;
DROP TABLE flood_build;

-- 8. Partition walks recurse: a tree deeper than the stack allows is an
-- ERROR, not a crash (2,000 levels under max_stack_depth = 100kB, where
-- 1,500 are past it; 1.7 walked on past the limit on the stack it was
-- given).  Made and dropped a few hundred levels a transaction (the lock
-- table holds some thousands)
CREATE TABLE flood_deep_0 (k bigint) PARTITION BY RANGE (k);
DO $$ BEGIN
  FOR i IN 1..2000 LOOP
    EXECUTE format('CREATE TABLE flood_deep_%s PARTITION OF flood_deep_%s FOR VALUES FROM (MINVALUE) TO (MAXVALUE) PARTITION BY RANGE (k)', i, i - 1);
    IF i % 250 = 0 THEN COMMIT; END IF;
  END LOOP;
END $$;
CREATE TABLE flood_deep_leaf PARTITION OF flood_deep_2000 FOR VALUES FROM (MINVALUE) TO (MAXVALUE);
CREATE INDEX flood_deep_i ON flood_deep_0 USING bloomfilter (k);
INSERT INTO flood_deep_0 VALUES (1), (2);
\c
SET max_stack_depth = '100kB';
SELECT bloom_index_contains('flood_deep_i', 1::bigint);
SELECT bloom_index_contains_each('flood_deep_i', ARRAY[1, 2]::bigint[]);
SELECT bloom_index_filter('flood_deep_i') IS NULL;
SELECT (bloom_index_info('flood_deep_i')).partitions;
RESET max_stack_depth;
SELECT (bloom_index_info('flood_deep_i')).partitions,
       bloom_index_contains_each('flood_deep_i', ARRAY[1, 2, 3]::bigint[]);
DO $$ BEGIN
  FOR i IN REVERSE 2000..0 LOOP
    EXECUTE format('DROP TABLE flood_deep_%s', i);
    IF i % 250 = 0 THEN COMMIT; END IF;
  END LOOP;
END $$;

DROP TABLE flood_known, flood_plain_built, flood_plain_grown, flood_secret,
  flood_seeds, flood_part, flood_keys;
DROP FUNCTION flood_keys(int, int);
DROP FUNCTION flood_seed(regclass);
DROP ROLE bloom_flood_writer;
