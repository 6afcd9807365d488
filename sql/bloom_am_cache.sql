-- What a call site of bloom_index_contains keeps across calls (issue 24):
-- the checks passed, the index's leaves and their metapages, the routing
-- of a partitioned index.  A PL/pgSQL function keeps the state of its
-- simple expressions (and so the call site's cache) across its calls in a
-- transaction, so each change below is made between two calls of one
-- function in one transaction, and each probe must answer, or fail, as a
-- probe with nothing cached would.  Roles are made and dropped here
-- (bloom_am_cache_*).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
DROP ROLE IF EXISTS bloom_am_cache_owner;
DROP ROLE IF EXISTS bloom_am_cache_reader;
DROP ROLE IF EXISTS bloom_am_cache_group;
RESET client_min_messages;

-- one probe; how many keys of lo..hi the index misses (any is a bug); the
-- same while inserting each key just before its probe; a batch
CREATE FUNCTION cache_probe(ix regclass, k bigint) RETURNS boolean
  LANGUAGE plpgsql AS $$ BEGIN RETURN bloom_index_contains(ix, k); END $$;
CREATE FUNCTION cache_missing(ix regclass, lo bigint, hi bigint) RETURNS bigint
  LANGUAGE plpgsql AS $$
DECLARE
  n bigint := 0;
BEGIN
  FOR k IN lo .. hi LOOP
    IF NOT bloom_index_contains(ix, k) THEN
      n := n + 1;
    END IF;
  END LOOP;
  RETURN n;
END $$;
CREATE FUNCTION cache_insert_missing(tab regclass, ix regclass, lo bigint, hi bigint)
  RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  n bigint := 0;
BEGIN
  FOR k IN lo .. hi LOOP
    EXECUTE format('INSERT INTO %s VALUES ($1)', tab) USING k;
    IF NOT bloom_index_contains(ix, k) THEN
      n := n + 1;
    END IF;
  END LOOP;
  RETURN n;
END $$;
CREATE FUNCTION cache_each(ix regclass, keys bigint[]) RETURNS boolean[]
  LANGUAGE plpgsql AS $$ BEGIN RETURN bloom_index_contains_each(ix, keys); END $$;
-- cache_probe's error, its numbers (an OID) hidden
CREATE FUNCTION cache_error(ix oid, k bigint) RETURNS text
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cache_probe(ix, k);
  RETURN 'no error';
EXCEPTION WHEN others THEN
  RETURN regexp_replace(SQLERRM, '[0-9]+', 'N');
END $$;

CREATE TABLE cache_t (id bigint);
INSERT INTO cache_t SELECT generate_series(1, 5000);
CREATE INDEX cache_t_f ON cache_t USING bloomfilter (id);

-- 1. REINDEX between probes: the index gets a new file (and here a
-- different size: it had grown by layers), which the next probe reads
CREATE TABLE cache_r (id bigint);
CREATE INDEX cache_r_f ON cache_r USING bloomfilter (id)
  WITH (min_capacity = 100, min_pages = 1);
INSERT INTO cache_r SELECT generate_series(1, 8000);
SELECT layers FROM bloom_index_info('cache_r_f');
BEGIN;
SELECT cache_missing('cache_r_f', 1, 8000) AS missing,
       cache_each('cache_r_f', ARRAY[1, 8000]) AS each;
REINDEX INDEX cache_r_f;
SELECT layers FROM bloom_index_info('cache_r_f');
SELECT cache_missing('cache_r_f', 1, 8000) AS missing,
       cache_each('cache_r_f', ARRAY[1, 8000]) AS each;
COMMIT;

-- 2. Growth: keys inserted until the index adds a layer (its first, of
-- one page, takes about 5,400), each probed just after its insert, then
-- all again
CREATE TABLE cache_g (id bigint);
CREATE INDEX cache_g_f ON cache_g USING bloomfilter (id)
  WITH (min_capacity = 100, min_pages = 1);
INSERT INTO cache_g SELECT generate_series(1, 5000);
BEGIN;
SELECT cache_missing('cache_g_f', 1, 5000) AS missing, layers
  FROM bloom_index_info('cache_g_f');
SELECT cache_insert_missing('cache_g', 'cache_g_f', 5001, 8000) AS missing;
SELECT layers FROM bloom_index_info('cache_g_f');
SELECT cache_missing('cache_g_f', 1, 8000) AS missing,
       cache_each('cache_g_f', ARRAY[1, 5001, 8000]) AS each;
COMMIT;
-- a table made in the transaction is truncated in place, its index made
-- again in the same file: the probe reads the new metapage and length
BEGIN;
CREATE TABLE cache_tr (id bigint);
CREATE INDEX cache_tr_f ON cache_tr USING bloomfilter (id)
  WITH (min_capacity = 100, min_pages = 1);
INSERT INTO cache_tr SELECT generate_series(1, 8000);
SELECT cache_missing('cache_tr_f', 1, 8000) AS missing, layers
  FROM bloom_index_info('cache_tr_f');
TRUNCATE cache_tr;
SELECT cache_insert_missing('cache_tr', 'cache_tr_f', 1, 20) AS missing,
       cache_missing('cache_tr_f', 1, 20) AS missing_again;
SELECT layers FROM bloom_index_info('cache_tr_f');
ROLLBACK;

-- 3. Privileges: the call site's user changes (SET ROLE), or the user's
-- privileges do (REVOKE of the table, of a role it is a member of)
CREATE ROLE bloom_am_cache_owner;
CREATE ROLE bloom_am_cache_reader;
CREATE ROLE bloom_am_cache_group;
GRANT CREATE ON SCHEMA public TO bloom_am_cache_owner;
SET ROLE bloom_am_cache_owner;
CREATE TABLE cache_priv (id bigint, active boolean);
INSERT INTO cache_priv SELECT g, g % 2 = 0 FROM generate_series(1, 1000) g;
CREATE INDEX cache_priv_f ON cache_priv USING bloomfilter (id);
RESET ROLE;
-- the superuser's entry does not serve a role without SELECT
BEGIN;
SELECT cache_probe('cache_priv_f', 1) AS superuser;
SET ROLE bloom_am_cache_reader;
SELECT cache_probe('cache_priv_f', 1);
ROLLBACK;
-- each role's entry: the superuser's, the owner's, the superuser's again
BEGIN;
SELECT cache_probe('cache_priv_f', 1) AS superuser;
SET ROLE bloom_am_cache_owner;
SELECT cache_probe('cache_priv_f', 1) AS owner;
RESET ROLE;
SELECT cache_probe('cache_priv_f', 1) AS superuser_again;
COMMIT;
-- SELECT revoked between two probes of the same role
BEGIN;
GRANT SELECT ON cache_priv TO bloom_am_cache_reader;
SET ROLE bloom_am_cache_reader;
SELECT cache_probe('cache_priv_f', 1) AS granted;
RESET ROLE;
REVOKE SELECT ON cache_priv FROM bloom_am_cache_reader;
SET ROLE bloom_am_cache_reader;
SELECT cache_probe('cache_priv_f', 1);
ROLLBACK;
-- a column privilege, revoked
BEGIN;
GRANT SELECT (id) ON cache_priv TO bloom_am_cache_reader;
SET ROLE bloom_am_cache_reader;
SELECT cache_probe('cache_priv_f', 1) AS granted;
RESET ROLE;
REVOKE SELECT (id) ON cache_priv FROM bloom_am_cache_reader;
SET ROLE bloom_am_cache_reader;
SELECT cache_probe('cache_priv_f', 1);
ROLLBACK;
-- SELECT held through a role, whose membership is revoked
GRANT SELECT ON cache_priv TO bloom_am_cache_group;
BEGIN;
GRANT bloom_am_cache_group TO bloom_am_cache_reader;
SET ROLE bloom_am_cache_reader;
SELECT cache_probe('cache_priv_f', 1) AS member;
RESET ROLE;
REVOKE bloom_am_cache_group FROM bloom_am_cache_reader;
SET ROLE bloom_am_cache_reader;
SELECT cache_probe('cache_priv_f', 1);
ROLLBACK;
REVOKE SELECT ON cache_priv FROM bloom_am_cache_group;

-- 4. Row-level security enabled, or forced, between two probes; a role's
-- BYPASSRLS taken away; row_security turned off
GRANT SELECT ON cache_priv TO bloom_am_cache_reader;
BEGIN;
SET ROLE bloom_am_cache_reader;
SELECT cache_probe('cache_priv_f', 1) AS before_rls;
RESET ROLE;
ALTER TABLE cache_priv ENABLE ROW LEVEL SECURITY;
CREATE POLICY cache_priv_active ON cache_priv USING (active);
SET ROLE bloom_am_cache_reader;
SELECT cache_probe('cache_priv_f', 1);
ROLLBACK;
SET ROLE bloom_am_cache_owner;
ALTER TABLE cache_priv ENABLE ROW LEVEL SECURITY;
CREATE POLICY cache_priv_active ON cache_priv USING (active);
RESET ROLE;
BEGIN;
SET ROLE bloom_am_cache_owner;
SELECT cache_probe('cache_priv_f', 1) AS owner;
ALTER TABLE cache_priv FORCE ROW LEVEL SECURITY;
SELECT cache_probe('cache_priv_f', 1);
ROLLBACK;
BEGIN;
SET ROLE bloom_am_cache_owner;
SELECT cache_probe('cache_priv_f', 1) AS owner;
SET row_security = off;
SELECT cache_probe('cache_priv_f', 1) AS owner_row_security_off;
ALTER TABLE cache_priv FORCE ROW LEVEL SECURITY;
SELECT cache_probe('cache_priv_f', 1);
ROLLBACK;
ALTER ROLE bloom_am_cache_reader BYPASSRLS;
BEGIN;
SET ROLE bloom_am_cache_reader;
SELECT cache_probe('cache_priv_f', 1) AS bypassrls;
RESET ROLE;
ALTER ROLE bloom_am_cache_reader NOBYPASSRLS;
SET ROLE bloom_am_cache_reader;
SELECT cache_probe('cache_priv_f', 1);
ROLLBACK;
-- and disabled again: the reader may read the index
BEGIN;
ALTER TABLE cache_priv DISABLE ROW LEVEL SECURITY;
SET ROLE bloom_am_cache_reader;
SELECT cache_probe('cache_priv_f', 1) AS rls_disabled;
ROLLBACK;

-- 5. An index dropped and made again under the same name: the name
-- resolves to the new index; the old OID is an error as it would be
CREATE TABLE cache_d (id bigint);
INSERT INTO cache_d SELECT generate_series(1, 1000);
CREATE INDEX cache_d_f ON cache_d USING bloomfilter (id);
SELECT 'cache_d_f'::regclass::oid AS cache_d_old \gset
BEGIN;
SELECT cache_missing('cache_d_f', 1, 1000) AS missing,
       cache_probe('cache_d_f', 1) AS found;
DROP INDEX cache_d_f;
CREATE INDEX cache_d_f ON cache_d USING bloomfilter (id) WITH (fpr = 0.001);
SELECT 'cache_d_f'::regclass::oid <> :cache_d_old AS new_oid,
       cache_missing('cache_d_f', 1, 1000) AS missing,
       (SELECT fpr FROM bloom_index_info('cache_d_f')) AS fpr;
ROLLBACK;
BEGIN;
SELECT cache_probe(:cache_d_old, 1) AS found;
DROP INDEX cache_d_f;
SELECT cache_error(:cache_d_old, 1) AS old_oid;
ROLLBACK;
-- another index on each row: the call site keeps the last one
SELECT ix, k, bloom_index_contains(ix, k) AS sql, cache_probe(ix, k) AS plpgsql
  FROM (VALUES ('cache_t_f'::regclass, 1), ('cache_d_f', 1), ('cache_d_f', 2),
               ('cache_t_f', 5000), ('cache_d_f', 1000), ('cache_t_f', 2)) v(ix, k);

-- 6. A partitioned index: partitions attached and detached between probes
CREATE TABLE cache_p (id bigint) PARTITION BY RANGE (id);
CREATE TABLE cache_p1 PARTITION OF cache_p FOR VALUES FROM (1) TO (1001);
CREATE TABLE cache_p2 PARTITION OF cache_p FOR VALUES FROM (1001) TO (2001);
CREATE TABLE cache_p3 PARTITION OF cache_p FOR VALUES FROM (2001) TO (3001);
CREATE TABLE cache_p4 PARTITION OF cache_p FOR VALUES FROM (3001) TO (4001);
INSERT INTO cache_p SELECT generate_series(1, 4000);
CREATE INDEX cache_p_f ON cache_p USING bloomfilter (id);
CREATE TABLE cache_p5 (id bigint);
INSERT INTO cache_p5 SELECT generate_series(4001, 5000);
CREATE TABLE cache_p6 (id bigint) PARTITION BY LIST ((id % 2));
CREATE TABLE cache_p6_even PARTITION OF cache_p6 FOR VALUES IN (0);
CREATE TABLE cache_p6_odd PARTITION OF cache_p6 FOR VALUES IN (1);
INSERT INTO cache_p6 SELECT generate_series(5001, 6000);
CREATE TABLE cache_p7 (id bigint) PARTITION BY RANGE (id);
CREATE TABLE cache_p7_a PARTITION OF cache_p7 FOR VALUES FROM (6001) TO (6501);
CREATE TABLE cache_p7_b PARTITION OF cache_p7 FOR VALUES FROM (6501) TO (7001);
INSERT INTO cache_p7 SELECT generate_series(6001, 7000);
-- a probe per row in a query: one call site, as in PL/pgSQL
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('cache_p_f', k)) AS missing,
       count(*) FILTER (WHERE bloom_index_contains('cache_p_f', k + 4000)) AS unroutable
  FROM generate_series(1, 4000) k;
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('cache_t_f', id)) AS missing
  FROM cache_t;
BEGIN;
SELECT cache_missing('cache_p_f', 1, 4000) AS missing,
       cache_probe('cache_p_f', 4500) AS unroutable,
       cache_each('cache_p_f', ARRAY[1, 4000, 4500]) AS each;
ALTER TABLE cache_p ATTACH PARTITION cache_p5 FOR VALUES FROM (4001) TO (5001);
SELECT cache_missing('cache_p_f', 1, 5000) AS missing,
       cache_probe('cache_p_f', 4500) AS attached,
       cache_each('cache_p_f', ARRAY[1, 4000, 4500]) AS each;
-- a partition partitioned by another key: all its leaves are asked
ALTER TABLE cache_p ATTACH PARTITION cache_p6 FOR VALUES FROM (5001) TO (6001);
SELECT cache_missing('cache_p_f', 1, 6000) AS missing,
       (SELECT partitions FROM bloom_index_info('cache_p_f'));
-- one partitioned by the same key: the key is routed on into it
ALTER TABLE cache_p ATTACH PARTITION cache_p7 FOR VALUES FROM (6001) TO (7001);
SELECT cache_missing('cache_p_f', 1, 7000) AS missing,
       cache_each('cache_p_f', ARRAY[5500, 6700, 7500]) AS each,
       (SELECT partitions FROM bloom_index_info('cache_p_f'));
ALTER TABLE cache_p DETACH PARTITION cache_p2;
SELECT cache_missing('cache_p_f', 1001, 2000) AS detached_keys_absent,
       cache_missing('cache_p_f', 1, 1000) + cache_missing('cache_p_f', 2001, 6000) AS missing,
       cache_each('cache_p_f', ARRAY[1, 1500, 5500]) AS each;
-- detached, its index answers on its own
SELECT cache_missing(indexrelid, 1001, 2000) AS missing
  FROM pg_index WHERE indrelid = 'cache_p2'::regclass;
-- a foreign partition has no index: a probe routed there fails
CREATE FOREIGN DATA WRAPPER cache_fdw;
CREATE SERVER cache_server FOREIGN DATA WRAPPER cache_fdw;
CREATE FOREIGN TABLE cache_pf PARTITION OF cache_p FOR VALUES FROM (1001) TO (2001)
  SERVER cache_server;
SELECT cache_probe('cache_p_f', 1) AS routed_elsewhere;
SELECT cache_probe('cache_p_f', 1500);
ROLLBACK;
SELECT cache_missing('cache_p_f', 1, 4000) AS missing_after_rollback,
       cache_probe('cache_p_f', 4500) AS unroutable;

-- 7. An invalidation rolled back with a savepoint: the index is back
BEGIN;
SELECT cache_missing('cache_t_f', 1, 5000) AS missing;
SAVEPOINT s;
DROP INDEX cache_t_f;
ROLLBACK TO SAVEPOINT s;
SELECT cache_missing('cache_t_f', 1, 5000) AS missing;
COMMIT;

DROP TABLE cache_t, cache_r, cache_g, cache_d, cache_p, cache_p5, cache_p6, cache_p7;
DROP TABLE cache_priv;
DROP FUNCTION cache_probe(regclass, bigint), cache_missing(regclass, bigint, bigint),
  cache_insert_missing(regclass, regclass, bigint, bigint), cache_each(regclass, bigint[]),
  cache_error(oid, bigint);
REVOKE CREATE ON SCHEMA public FROM bloom_am_cache_owner;
DROP ROLE bloom_am_cache_owner;
DROP ROLE bloom_am_cache_reader;
DROP ROLE bloom_am_cache_group;
