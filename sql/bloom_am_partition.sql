-- A partitioned bloomfilter index answers for all its partitions; when
-- the index's column is the partition key, a probe asks only the
-- partition the key routes to (reads counted from pg_statio).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;

-- which partitions' indexes a statement read (their buffer accesses),
-- given the partitioned index; statistics reach the shared counters when
-- a statement that asked for it ends, so each reset is preceded by one
CREATE FUNCTION pt_reset(parent regclass) RETURNS void LANGUAGE sql AS $$
  SELECT pg_stat_reset_single_table_counters(relid)
    FROM pg_partition_tree(parent) WHERE isleaf $$;
CREATE FUNCTION pt_read(parent regclass) RETURNS text LANGUAGE sql AS $$
  SELECT coalesce(string_agg(s.indexrelname, ',' ORDER BY s.indexrelname), '(none)')
    FROM pg_partition_tree(parent) t JOIN pg_statio_user_indexes s ON s.indexrelid = t.relid
   WHERE t.isleaf AND s.idx_blks_hit + s.idx_blks_read > 0 $$;

-- list partitioning on the key, with a default partition
CREATE TABLE pl (id bigint, note text) PARTITION BY LIST (id);
CREATE TABLE pl_a PARTITION OF pl FOR VALUES IN (1, 2, 3);
CREATE TABLE pl_b PARTITION OF pl FOR VALUES IN (10, 20, 30);
CREATE TABLE pl_d PARTITION OF pl DEFAULT;
INSERT INTO pl SELECT g, 'x' FROM generate_series(1, 3) g;
INSERT INTO pl VALUES (10, 'y'), (20, 'y'), (1000, 'z');
CREATE INDEX pl_f ON pl USING bloomfilter (id);
SELECT relname, relkind FROM pg_class WHERE relname LIKE 'pl\_%f%' ORDER BY 1;
SELECT k, bloom_index_contains('pl_f', k) FROM unnest(ARRAY[1, 2, 10, 20, 30, 1000, 1001]::bigint[]) k;
-- an int4 probe routes too (the integer types are one key space)
SELECT pg_stat_force_next_flush();  -- what earlier statements read
SELECT pt_reset('pl_f');
SELECT bloom_index_contains('pl_f', 10) AS in_b;
SELECT pg_stat_force_next_flush();
SELECT pt_read('pl_f') AS read;
SELECT pg_stat_force_next_flush();  -- what earlier statements read
SELECT pt_reset('pl_f');
SELECT bloom_index_contains('pl_f', 5000::bigint) AS in_default;
SELECT pg_stat_force_next_flush();
SELECT pt_read('pl_f') AS read;
SELECT items, layers, partitions FROM bloom_index_info('pl_f');
-- a partition attached later brings its index; a detached one leaves
CREATE TABLE pl_c (id bigint, note text);
INSERT INTO pl_c VALUES (7, 'c');
ALTER TABLE pl ATTACH PARTITION pl_c FOR VALUES IN (7, 8);
SELECT bloom_index_contains('pl_f', 7::bigint) AS attached;
ALTER TABLE pl DETACH PARTITION pl_b;
SELECT bloom_index_contains('pl_f', 10::bigint) AS detached, partitions FROM bloom_index_info('pl_f');
-- with no default partition, a key no partition takes is absent at once
ALTER TABLE pl DETACH PARTITION pl_d;
SELECT pg_stat_force_next_flush();  -- what earlier statements read
SELECT pt_reset('pl_f');
SELECT bloom_index_contains('pl_f', 5000::bigint) AS unroutable;
SELECT pg_stat_force_next_flush();
SELECT pt_read('pl_f') AS read;

-- range partitioning on an int4 key, probed with bigint (converted) and
-- with a bigint outside int4 (no partition can hold it)
CREATE TABLE pr (id int, v text) PARTITION BY RANGE (id);
CREATE TABLE pr_1 PARTITION OF pr FOR VALUES FROM (MINVALUE) TO (1000);
CREATE TABLE pr_2 PARTITION OF pr FOR VALUES FROM (1000) TO (2000);
CREATE TABLE pr_3 PARTITION OF pr FOR VALUES FROM (2000) TO (MAXVALUE);
INSERT INTO pr SELECT g, g::text FROM generate_series(1, 3000) g;
CREATE INDEX pr_f ON pr USING bloomfilter (id);
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('pr_f', g)) AS false_negatives
  FROM generate_series(1, 3000) g;
SELECT pg_stat_force_next_flush();  -- what earlier statements read
SELECT pt_reset('pr_f');
SELECT bloom_index_contains('pr_f', 1500::bigint) AS in_2;
SELECT pg_stat_force_next_flush();
SELECT pt_read('pr_f') AS read;
SELECT bloom_index_contains('pr_f', 5000000000::bigint) AS beyond_int4;
-- a batch asks every partition, each page once
SELECT bloom_index_contains_each('pr_f', ARRAY[1, 1500, 2500, NULL, 99999]);

-- hash partitioning on a text key; sub-partitions; the filter of all
CREATE TABLE ph (email text, grp int) PARTITION BY HASH (email);
CREATE TABLE ph_0 PARTITION OF ph FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE ph_1 PARTITION OF ph FOR VALUES WITH (MODULUS 2, REMAINDER 1)
  PARTITION BY LIST (grp);
CREATE TABLE ph_1a PARTITION OF ph_1 FOR VALUES IN (1);
CREATE TABLE ph_1b PARTITION OF ph_1 DEFAULT;
INSERT INTO ph SELECT 'u' || g || '@example.org', g % 3 FROM generate_series(1, 2000) g;
CREATE INDEX ph_f ON ph USING bloomfilter (email);
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('ph_f', 'u' || g || '@example.org'))
       AS false_negatives FROM generate_series(1, 2000) g;
-- the row's partition, and what probes read: the hash routes to ph_0 or
-- to ph_1, whose own key (grp) is not the index's column, so that all of
-- ph_1's partitions are asked (an absent key routed there reads both)
SELECT tableoid::regclass AS stored_in FROM ph WHERE email = 'u1@example.org';
SELECT pg_stat_force_next_flush();  -- what earlier statements read
SELECT pt_reset('ph_f');
SELECT bloom_index_contains('ph_f', 'u1@example.org') AS present;
SELECT pg_stat_force_next_flush();
SELECT pt_read('ph_f') AS read;
SELECT pg_stat_force_next_flush();  -- what earlier statements read
SELECT pt_reset('ph_f');
SELECT bloom_index_contains('ph_f', 'nobody@example.org') AS absent,
       tableoid::regclass AS would_be_in
  FROM (SELECT 'nobody@example.org' AS email) v,
       LATERAL (SELECT 'ph_0'::regclass AS tableoid
                 WHERE satisfies_hash_partition('ph'::regclass, 2, 0, v.email)
                UNION ALL
                SELECT 'ph_1'::regclass WHERE satisfies_hash_partition('ph'::regclass, 2, 1, v.email)) p;
SELECT pg_stat_force_next_flush();
SELECT pt_read('ph_f') AS read;
SELECT items, partitions FROM bloom_index_info('ph_f');
-- one filter for all partitions, when their filters have the same size
SELECT bloom_contains(bloom_index_filter('pr_f'), 1500) AS united;
SELECT bloom_index_filter('ph_f') IS NOT NULL AS united;

-- partitioned on another column: every partition is asked
CREATE TABLE po (id bigint, region text) PARTITION BY LIST (region);
CREATE TABLE po_eu PARTITION OF po FOR VALUES IN ('eu');
CREATE TABLE po_us PARTITION OF po FOR VALUES IN ('us');
INSERT INTO po SELECT g, CASE WHEN g % 2 = 0 THEN 'eu' ELSE 'us' END FROM generate_series(1, 100) g;
CREATE INDEX po_f ON po USING bloomfilter (id);
SELECT pg_stat_force_next_flush();  -- what earlier statements read
SELECT pt_reset('po_f');
SELECT bloom_index_contains('po_f', 1001::bigint) AS absent;
SELECT pg_stat_force_next_flush();
SELECT pt_read('po_f') AS read;

-- an index made ONLY on the parent is not valid until each partition has one
CREATE TABLE pv (id bigint) PARTITION BY LIST (id);
CREATE TABLE pv_1 PARTITION OF pv FOR VALUES IN (1);
CREATE INDEX pv_f ON ONLY pv USING bloomfilter (id);
SELECT bloom_index_contains('pv_f', 1::bigint);
CREATE INDEX pv_1_f ON pv_1 USING bloomfilter (id);
ALTER INDEX pv_f ATTACH PARTITION pv_1_f;
INSERT INTO pv VALUES (1);
SELECT bloom_index_contains('pv_f', 1::bigint) AS valid_now;

-- a foreign partition is not indexed: the index cannot answer for the
-- whole table, and says so rather than answer "absent"
CREATE FOREIGN DATA WRAPPER pt_dummy_fdw;
CREATE SERVER pt_dummy_server FOREIGN DATA WRAPPER pt_dummy_fdw;
CREATE TABLE pf (id bigint) PARTITION BY LIST (id);
CREATE TABLE pf_local PARTITION OF pf FOR VALUES IN (1);
CREATE FOREIGN TABLE pf_remote PARTITION OF pf FOR VALUES IN (42) SERVER pt_dummy_server;
INSERT INTO pf_local VALUES (1);
CREATE INDEX pf_f ON pf USING bloomfilter (id);
SELECT bloom_index_contains('pf_f', 42::bigint);
-- a key that routes to an indexed partition is answered
SELECT bloom_index_contains('pf_f', 1::bigint) AS routed_local;
SELECT bloom_index_contains_each('pf_f', ARRAY[1, 42]);
-- the local partition's own index answers
SELECT bloom_index_contains(indexrelid, 1::bigint) AS local,
       bloom_index_contains(indexrelid, 2::bigint) AS absent
  FROM pg_index WHERE indrelid = 'pf_local'::regclass;
DROP TABLE pf;
DROP SERVER pt_dummy_server;
DROP FOREIGN DATA WRAPPER pt_dummy_fdw;

DROP TABLE pl, pl_b, pl_d, pr, ph, po, pv;
DROP FUNCTION pt_reset(regclass), pt_read(regclass);
