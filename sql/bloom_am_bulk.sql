-- The keys a transaction inserts into a bloomfilter index wait in the
-- backend's pending keys and are written page by page (src/am/
-- bfi_pending.c).  What a user sees stays as it was: the inserting session
-- finds its own uncommitted keys, in later statements, through the batch
-- form and in parallel workers; a committed key is found; a rollback of
-- the transaction or of a savepoint leaves every committed key; a
-- TRUNCATE or a REINDEX in the transaction drops the pending keys of the
-- old contents; the pending keys of a statement of any length hold at
-- most 512 kB an index; and a statement's copy of the bits for its many
-- probes answers as the pages do.  (Crashes, standbys and concurrent loaders:
-- t/006_am_concurrency.pl, t/007_am_crash.pl, t/008_am_standby.pl.)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;

CREATE TABLE bk (id bigint, email text);
CREATE INDEX bk_id ON bk USING bloomfilter (id);
CREATE INDEX bk_email ON bk USING bloomfilter (email);

-- 1. the inserting session sees its keys before it commits: 70,000 rows
-- fill the pending keys once (65,536) and leave the rest pending
BEGIN;
INSERT INTO bk SELECT g, 'u' || g FROM generate_series(1, 70000) g;
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('bk_id', id)) AS id_missing,
       count(*) FILTER (WHERE NOT bloom_index_contains('bk_email', email)) AS email_missing
  FROM bk;
INSERT INTO bk SELECT g, 'u' || g FROM generate_series(70001, 70100) g;
SELECT count(*) FILTER (WHERE NOT found) AS missing_in_batch
  FROM unnest(bloom_index_contains_each('bk_id',
                ARRAY(SELECT g::bigint FROM generate_series(1, 70100) g))) found;
COMMIT;
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('bk_id', id)) AS missing_after_commit
  FROM bk;

-- 2. a query that may run in parallel workers, after an insert in the same
-- transaction: the workers read the pages, which hold the keys by then
BEGIN;
INSERT INTO bk SELECT g, 'u' || g FROM generate_series(100001, 160000) g;
SET LOCAL parallel_setup_cost = 0;
SET LOCAL parallel_tuple_cost = 0;
SET LOCAL min_parallel_table_scan_size = 0;
SET LOCAL max_parallel_workers_per_gather = 2;
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('bk_id', id)) AS missing_parallel
  FROM bk WHERE id > 100000;
COMMIT;

-- 3. rollbacks: of a transaction (its keys may or may not have been
-- written: false positives), of a savepoint; every committed key stays
BEGIN;
INSERT INTO bk SELECT g, 'u' || g FROM generate_series(200001, 210000) g;
ROLLBACK;
BEGIN;
INSERT INTO bk SELECT g, 'u' || g FROM generate_series(210001, 211000) g;
SAVEPOINT s;
INSERT INTO bk SELECT g, 'u' || g FROM generate_series(211001, 212000) g;
ROLLBACK TO SAVEPOINT s;
INSERT INTO bk SELECT g, 'u' || g FROM generate_series(212001, 213000) g;
COMMIT;
SELECT count(*) AS rows_kept,
       count(*) FILTER (WHERE NOT bloom_index_contains('bk_id', id)) AS id_missing,
       count(*) FILTER (WHERE NOT bloom_index_contains('bk_email', email)) AS email_missing
  FROM bk;

-- 4. a TRUNCATE after inserts in the same transaction: the keys of the
-- rows it removed are not written into the new file (at most the rate's
-- share of them is found); a REINDEX: its build reads the rows, and the
-- pending keys are not needed
CREATE TABLE bt (id bigint);
CREATE INDEX bt_id ON bt USING bloomfilter (id) WITH (min_capacity = 25000);
BEGIN;
INSERT INTO bt SELECT generate_series(1, 20000);
TRUNCATE bt;
INSERT INTO bt SELECT -g FROM generate_series(1, 5000) g;
COMMIT;
SELECT count(*) FILTER (WHERE bloom_index_contains('bt_id', g::bigint)) < 400 AS truncated_keys_gone,
       (SELECT count(*) FROM bt WHERE NOT bloom_index_contains('bt_id', id)) AS missing
  FROM generate_series(1, 20000) g;
BEGIN;
INSERT INTO bt SELECT generate_series(1, 20000);
REINDEX INDEX bt_id;
INSERT INTO bt SELECT generate_series(20001, 21000);
COMMIT;
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('bt_id', id)) AS missing_after_reindex
  FROM bt;

-- 4b. the index gets another file in the transaction: ALTER INDEX ... SET
-- TABLESPACE copies the file, which must hold the keys inserted before it;
-- a TRUNCATE rolled back to a savepoint brings back the file, which must
-- hold the keys inserted before the savepoint
SET allow_in_place_tablespaces = on;
CREATE TABLESPACE bk_ts LOCATION '';
CREATE TABLE bs (id bigint);
CREATE INDEX bs_id ON bs USING bloomfilter (id);
BEGIN;
INSERT INTO bs SELECT generate_series(1, 1000);
ALTER INDEX bs_id SET TABLESPACE bk_ts;
COMMIT;
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('bs_id', id)) AS missing_after_set_tablespace
  FROM bs;
BEGIN;
INSERT INTO bs SELECT generate_series(1001, 2000);
SAVEPOINT s;
TRUNCATE bs;
ROLLBACK TO SAVEPOINT s;
COMMIT;
SELECT count(*) AS rows_kept,
       count(*) FILTER (WHERE NOT bloom_index_contains('bs_id', id)) AS missing_after_savepoint
  FROM bs;
DROP TABLE bs;
DROP TABLESPACE bk_ts;
RESET allow_in_place_tablespaces;

-- 5. memory: 300,000 rows in one statement with two indexes keep at most
-- 512 kB of pending keys each in the transaction's memory (their hashes
-- would take 4.8 MB); the keys are all found
BEGIN;
INSERT INTO bk SELECT g, 'u' || g FROM generate_series(1000001, 1300000) g;
SELECT total_bytes < 3 * 1024 * 1024 AS pending_bounded
  FROM pg_backend_memory_contexts WHERE name = 'TopTransactionContext';
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('bk_id', id)) AS id_missing,
       count(*) FILTER (WHERE NOT bloom_index_contains('bk_email', email)) AS email_missing
  FROM bk WHERE id > 1000000;
COMMIT;

-- 6. a statement that probes once a row answers from a copy of the bits
-- after 1,024 probes (when they fit in work_mem): the same answers as the
-- pages give; and one that inserts as it probes reads the pages once it
-- has written, so that it finds the keys of its own earlier rows (9,000
-- rows of 3,000 keys: each key inserted once, but for the rate's false
-- positives)
CREATE TABLE bc AS SELECT g::bigint AS id FROM generate_series(1, 100000) g;
CREATE INDEX bc_id ON bc USING bloomfilter (id);
SELECT count(*) FILTER (WHERE bloom_index_contains('bc_id', id)) AS found_from_copy
  FROM bc;
SET work_mem = '64kB';
SELECT count(*) FILTER (WHERE bloom_index_contains('bc_id', -id)) AS fp_pages
  FROM bc \gset
RESET work_mem;
SELECT count(*) FILTER (WHERE bloom_index_contains('bc_id', -id)) = :fp_pages AS same_false_positives,
       :fp_pages < 2000 AS rate_ok
  FROM bc;
CREATE TABLE bd (id bigint);
CREATE INDEX bd_id ON bd USING bloomfilter (id) WITH (min_capacity = 20000);
INSERT INTO bd SELECT g % 3000 FROM generate_series(1, 9000) g
 WHERE NOT bloom_index_contains('bd_id', (g % 3000)::bigint);
SELECT count(*) BETWEEN 2900 AND 3000 AS each_key_once, count(DISTINCT id) = count(*) AS no_repeats
  FROM bd;

-- 7. an insert asks this backend's copies of the older layers
-- (bfi_older.c) once it has asked a layer's pages for twice as many keys
-- as it has pages.  Keys an older layer holds are not counted again; the
-- copies stay within bloomtype.layer_cache; a TRUNCATE (a new file) and a
-- new index of the same name never answer from an old copy: here a stale
-- copy would drop the keys 1..150000 of the new file (false negatives).
-- A new session, whose copies are only those made here; bo_load inserts
-- keys lo..hi, 5,000 a transaction.
\c -
CREATE TABLE bo (id bigint);
CREATE INDEX bo_id ON bo USING bloomfilter (id) WITH (min_capacity = 1000);
CREATE PROCEDURE bo_load(lo bigint, hi bigint) LANGUAGE plpgsql AS $$
BEGIN
  FOR s IN lo..hi BY 5000 LOOP
    INSERT INTO bo SELECT g FROM generate_series(s, LEAST(s + 4999, hi)) g;
    COMMIT;
  END LOOP;
END $$;
CREATE VIEW bo_copies AS
  SELECT total_bytes FROM pg_backend_memory_contexts
   WHERE name = 'bloomfilter index older layers';
CALL bo_load(1, 150000);
-- (defined once the library is loaded)
SHOW bloomtype.layer_cache;
SELECT layers AS layers_before, items AS items_before FROM bloom_index_info('bo_id') \gset
SELECT :layers_before AS layers, total_bytes >= 73728 + 147456 AS older_copied,
       total_bytes < 512 * 1024 AS no_more
  FROM bo_copies;
CALL bo_load(1, 75000);
SELECT layers = :layers_before AS same_layers, items - :items_before AS counted_again
  FROM bloom_index_info('bo_id');
TRUNCATE bo;
SELECT total_bytes < 16384 AS copies_dropped FROM bo_copies;
CALL bo_load(200001, 350000);
CALL bo_load(1, 150000);
SELECT count(*) AS rows, count(*) FILTER (WHERE NOT bloom_index_contains('bo_id', id)) AS missing
  FROM bo;
DROP INDEX bo_id;
DELETE FROM bo WHERE id <= 150000;
CREATE INDEX bo_id ON bo USING bloomfilter (id) WITH (min_capacity = 1000);
CALL bo_load(1, 150000);
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('bo_id', id)) AS missing_new_index
  FROM bo;
-- a limit copies the layers that fit (the first: 8 pages of 126 blocks,
-- 63 kB; not the second);
-- 0 copies nothing (the pages answer)
SET bloomtype.layer_cache = '100kB';
TRUNCATE bo;
CALL bo_load(1, 150000);
SELECT total_bytes >= 126 * 8 * 64 AS first_copied, total_bytes < 100 * 1024 AS within_limit
  FROM bo_copies;
SET bloomtype.layer_cache = 0;
TRUNCATE bo;
CALL bo_load(1, 150000);
CALL bo_load(1, 75000);
SELECT count(*) AS rows, count(*) FILTER (WHERE NOT bloom_index_contains('bo_id', id)) AS missing,
       (SELECT total_bytes < 16384 FROM bo_copies) AS nothing_copied
  FROM bo;
RESET bloomtype.layer_cache;
-- a REINDEX (one layer again), and a TRUNCATE rolled back in the
-- transaction that loaded its new file (which is never copied: made in
-- this transaction): no key lost, none of the rolled-back file's kept
TRUNCATE bo;
CALL bo_load(1, 150000);
REINDEX INDEX bo_id;
CALL bo_load(150001, 300000);
BEGIN;
TRUNCATE bo;
INSERT INTO bo SELECT g FROM generate_series(400001, 600000) g;
ROLLBACK;
CALL bo_load(300001, 450000);
CALL bo_load(1, 450000);
SELECT count(*) AS rows, count(*) FILTER (WHERE NOT bloom_index_contains('bo_id', id)) AS missing
  FROM bo;
SELECT count(*) FILTER (WHERE bloom_index_contains('bo_id', g)) AS rolled_back_found
  FROM generate_series(450001, 600000) g \gset
SELECT :rolled_back_found < 150000 * 0.02 AS rolled_back_keys_at_the_rate;
DROP VIEW bo_copies;
DROP PROCEDURE bo_load;

DROP TABLE bk, bt, bc, bd, bo;
