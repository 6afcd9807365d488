-- An application's copy of an index kept in step (1.8): the change log the
-- trigger writes, the mark of a copy, the catch-up, its gaps and who may
-- read it.  Interleaved commits from several sessions are in
-- t/012_sync.pl; the readers' catch-ups in scripts/clients.sh.
SET client_min_messages = warning;
DROP TABLE IF EXISTS sync_users CASCADE;
RESET client_min_messages;
-- the hashes of a log row or a catch-up, 8 bytes each, little-endian
CREATE FUNCTION sync_hashes(b bytea) RETURNS SETOF bigint LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT ('x' || string_agg(lpad(to_hex(get_byte(b, o + 7 - i)), 2, '0'), '' ORDER BY i))::bit(64)::bigint
    FROM generate_series(0, length(b) - 8, 8) o, generate_series(0, 7) i GROUP BY o ORDER BY o $$;

-- the two statement triggers that log an index: INSERTs and UPDATEs
CREATE PROCEDURE sync_log(tab regclass, idx text, channel text DEFAULT NULL) LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %s REFERENCING NEW TABLE AS n FOR EACH STATEMENT'
                 ' EXECUTE FUNCTION bloom_index_log_trigger(%L%s)', idx || '_ins', tab, idx,
                 CASE WHEN channel IS NOT NULL THEN ', ' || quote_literal(channel) ELSE '' END);
  EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %s REFERENCING NEW TABLE AS n FOR EACH STATEMENT'
                 ' EXECUTE FUNCTION bloom_index_log_trigger(%L%s)', idx || '_upd', tab, idx,
                 CASE WHEN channel IS NOT NULL THEN ', ' || quote_literal(channel) ELSE '' END);
END $$;

-- (no autovacuum: an ANALYZE running holds back what a prune may delete)
CREATE TABLE sync_users (id bigint PRIMARY KEY, email text, active boolean DEFAULT true)
  WITH (autovacuum_enabled = off);
INSERT INTO sync_users SELECT g, 'u' || g || '@example.com' FROM generate_series(1, 1000) g;
-- a secret seed, as every build draws one: the log's hashes are under it
CREATE INDEX sync_users_bloom ON sync_users USING bloomfilter (id);
-- only INSERTs logged: not enough (an UPDATE may change a key)
CREATE TRIGGER sync_users_bloom_ins AFTER INSERT ON sync_users REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('sync_users_bloom');
SELECT * FROM bloom_index_filter_at('sync_users_bloom');
CREATE TRIGGER sync_users_bloom_upd AFTER UPDATE ON sync_users REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('sync_users_bloom');
CREATE TEMP TABLE copy AS SELECT * FROM bloom_index_filter_at('sync_users_bloom');
-- the seed of the index (drawn at its build), from its filter's header
-- (offset 16, docs/FORMAT.md)
CREATE FUNCTION sync_seed(f bloomfilter) RETURNS bigint LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT sync_hashes(substring(f::bytea FROM 17 FOR 8)) $$;
SELECT sync_seed(filter) <> 0 AS secret_seed FROM copy;
-- the filter is bloom_index_filter's; the mark names this index
SELECT filter = bloom_index_filter('sync_users_bloom') AS same_filter,
       split_part(mark, '/', 1) AS mark_version,
       split_part(mark, '/', 6)::oid = 'sync_users_bloom'::regclass AS mark_index,
       split_part(mark, '/', 9) AS mark_layers
  FROM copy;

-- nothing since: complete, no hashes, a mark
SELECT c.complete, c.reason, length(c.hashes) AS bytes, c.mark IS NOT NULL AS has_mark
  FROM copy, bloom_index_changes('sync_users_bloom', copy.mark) c;
-- two statements, three keys: one log row a statement, the keys' hashes
-- under the index's seed, in the order of the rows
INSERT INTO sync_users (id) VALUES (5001), (5002);
INSERT INTO sync_users (id) VALUES (5003);
SELECT heaprelid::regclass, indexrelid::regclass, relfilenode = pg_relation_filenode('sync_users_bloom') AS this_file,
       xid IS NOT NULL AS has_xid, length(hashes) AS bytes
  FROM bloomtype_index_log ORDER BY xid;
SELECT h = bloom_key_hash(k, sync_seed(filter)) AS same_hash, h <> bloom_key_hash(k, 0) AS not_seed_0, k
  FROM (SELECT copy.filter, sync_hashes(c.hashes) AS h, unnest(ARRAY[5001, 5002, 5003]::bigint[]) AS k
          FROM copy, bloom_index_changes('sync_users_bloom', copy.mark) c) x;
-- a copy brought up to date answers as the index
SELECT (SELECT count(*) FROM sync_hashes(c.hashes) h
         WHERE h IN (SELECT bloom_key_hash(g::bigint, sync_seed(copy.filter)) FROM generate_series(5001, 5003) g)) AS delivered
  FROM copy, bloom_index_changes('sync_users_bloom', copy.mark) c;

-- from the new mark: nothing, then only what came after it
CREATE TEMP TABLE mark2 AS
  SELECT c.mark FROM copy, bloom_index_changes('sync_users_bloom', copy.mark) c;
SELECT complete, length(hashes) AS bytes FROM mark2, bloom_index_changes('sync_users_bloom', mark2.mark);
INSERT INTO sync_users (id) VALUES (5004);
SELECT c.complete, (SELECT array_agg(h) FROM sync_hashes(c.hashes) h) = ARRAY[bloom_key_hash(5004::bigint, sync_seed(copy.filter))] AS only_new
  FROM copy, mark2, bloom_index_changes('sync_users_bloom', mark2.mark) c;

-- what the index does not hold is not logged: NULL keys, rows outside a
-- partial index's predicate; an expression index logs its expression;
-- UPDATE with its own trigger; a statement of no key sends nothing
CREATE TABLE sync_emails (id bigint, email text, active boolean);
CREATE INDEX sync_emails_bloom ON sync_emails USING bloomfilter (lower(email))
  WITH (seed = 0) WHERE active;
CREATE TRIGGER sync_emails_ins AFTER INSERT ON sync_emails REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('sync_emails_bloom', 'emails');
CREATE TRIGGER sync_emails_upd AFTER UPDATE ON sync_emails REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('sync_emails_bloom', 'emails');
CREATE TEMP TABLE ecopy AS SELECT * FROM bloom_index_filter_at('sync_emails_bloom');
INSERT INTO sync_emails VALUES (1, 'Ann@Example.com', true), (2, 'bob@example.com', false),
  (3, NULL, true);
UPDATE sync_emails SET active = true WHERE id = 2;
INSERT INTO sync_emails VALUES (4, 'carl@example.com', false);
SELECT count(*) AS log_rows FROM bloomtype_index_log WHERE indexrelid = 'sync_emails_bloom'::regclass;
SELECT array_agg(h ORDER BY h) = (SELECT array_agg(bloom_key_hash(e, 0) ORDER BY bloom_key_hash(e, 0))
                                    FROM unnest(ARRAY['ann@example.com', 'bob@example.com']) e) AS keys_of_the_index
  FROM ecopy, bloom_index_changes('sync_emails_bloom', ecopy.mark) c, sync_hashes(c.hashes) h;

-- a statement of more keys than a log row holds (65,536) writes several
INSERT INTO sync_users (id) SELECT generate_series(100001, 170000);
SELECT count(*) AS rows, sum(length(hashes)) / 8 AS hashes FROM bloomtype_index_log
 WHERE heaprelid = 'sync_users'::regclass AND indexrelid = 'sync_users_bloom'::regclass AND length(hashes) > 8;

-- the gaps: the copy must be reloaded, and the reason says why
-- a layer added since (the keys above outgrew the first layer)
SELECT (bloom_index_info('sync_users_bloom')).layers AS layers_now;
SELECT c.complete, c.reason, c.hashes IS NULL AS no_hashes, c.mark IS NULL AS no_mark
  FROM copy, bloom_index_changes('sync_users_bloom', copy.mark) c;
-- a fresh copy catches up again
DROP TABLE copy;
CREATE TEMP TABLE copy AS SELECT * FROM bloom_index_filter_at('sync_users_bloom');
INSERT INTO sync_users (id) VALUES (6001);
SELECT complete, length(hashes) AS bytes FROM copy, bloom_index_changes('sync_users_bloom', copy.mark);
-- more hashes than the filter has bytes: a reload is smaller
CREATE TABLE sync_small (id bigint);
CREATE INDEX sync_small_bloom ON sync_small USING bloomfilter (id) WITH (min_pages = 1, min_capacity = 100000);
CALL sync_log('sync_small', 'sync_small_bloom', '');
CREATE TEMP TABLE scopy AS SELECT * FROM bloom_index_filter_at('sync_small_bloom');
SELECT (bloom_index_info('sync_small_bloom')).bytes AS filter_bytes;
INSERT INTO sync_small SELECT generate_series(1, 5000);
SELECT complete, length(hashes) AS bytes FROM scopy, bloom_index_changes('sync_small_bloom', scopy.mark);
INSERT INTO sync_small SELECT generate_series(5001, 20000);
SELECT complete, reason FROM scopy, bloom_index_changes('sync_small_bloom', scopy.mark);
-- REINDEX: another file and seed
REINDEX INDEX sync_users_bloom;
SELECT complete, reason FROM copy, bloom_index_changes('sync_users_bloom', copy.mark);
DROP TABLE copy;
CREATE TEMP TABLE copy AS SELECT * FROM bloom_index_filter_at('sync_users_bloom');
-- another logged index of the same table: its rows are not this index's
-- keys, and do not stop its catch-up
CREATE INDEX sync_users_email_bloom ON sync_users USING bloomfilter (email) WITH (seed = 0);
CALL sync_log('sync_users', 'sync_users_email_bloom');
INSERT INTO sync_users VALUES (6101, 'x6101@example.com');
SELECT c.complete, (SELECT array_agg(h) FROM sync_hashes(c.hashes) h) = ARRAY[bloom_key_hash(6101::bigint, sync_seed(copy.filter))] AS only_its_keys
  FROM copy, bloom_index_changes('sync_users_bloom', copy.mark) c;
-- REINDEX CONCURRENTLY: a new index takes the name (and the trigger's
-- argument follows the name); a copy of the old one reloads
REINDEX INDEX CONCURRENTLY sync_users_bloom;
SELECT complete, reason FROM copy, bloom_index_changes('sync_users_bloom', copy.mark);
DROP TABLE copy;
CREATE TEMP TABLE copy AS SELECT * FROM bloom_index_filter_at('sync_users_bloom');
INSERT INTO sync_users VALUES (6102, 'x6102@example.com');
SELECT c.complete, length(c.hashes) AS bytes FROM copy, bloom_index_changes('sync_users_bloom', copy.mark) c;
-- a dropped logged index whose rows came after the mark: the copy
-- cannot tell them from its own index's old name's, and reloads
INSERT INTO sync_users VALUES (6103, 'x6103@example.com');
DROP INDEX sync_users_email_bloom;
DROP TRIGGER sync_users_email_bloom_ins ON sync_users;
DROP TRIGGER sync_users_email_bloom_upd ON sync_users;
SELECT complete, reason FROM copy, bloom_index_changes('sync_users_bloom', copy.mark);
DROP TABLE copy;
CREATE TEMP TABLE copy AS SELECT * FROM bloom_index_filter_at('sync_users_bloom');
-- TRUNCATE
TRUNCATE sync_small;
SELECT complete, reason FROM scopy, bloom_index_changes('sync_small_bloom', scopy.mark);
-- a mark of another index, a garbled one
SELECT complete, reason FROM copy, bloom_index_changes('sync_emails_bloom', copy.mark);
SELECT * FROM bloom_index_changes('sync_users_bloom', 'bt1/1/2/3');
SELECT * FROM bloom_index_changes('sync_users_bloom', 'bt1/1/2/3/4/5/0000000a/1/junk');
SELECT * FROM bloom_index_changes('sync_users_bloom',
  (SELECT regexp_replace(mark, '[^/]*$', 'junk') FROM copy));
SELECT c.complete, c.reason FROM copy,
       bloom_index_changes('sync_users_bloom', regexp_replace(copy.mark, '^bt1/[0-9]+/', 'bt1/1/')) c;
SELECT c.complete, c.reason FROM copy,
       bloom_index_changes('sync_users_bloom', regexp_replace(copy.mark, '^(bt1/[0-9]+/)[0-9]+/', '\11/')) c;
-- a log trigger disabled, then enabled again: what came meanwhile was not
-- logged, and a mark from before says so; with a trigger missing or
-- disabled nothing can be caught up, and no mark is given
ALTER TABLE sync_users DISABLE TRIGGER sync_users_bloom_upd;
SELECT complete, reason FROM copy, bloom_index_changes('sync_users_bloom', copy.mark);
SELECT * FROM bloom_index_filter_at('sync_users_bloom');
ALTER TABLE sync_users ENABLE TRIGGER sync_users_bloom_upd;
SELECT complete, reason FROM copy, bloom_index_changes('sync_users_bloom', copy.mark);
-- enabled for replicas only, or with a WHEN condition, a trigger may not
-- fire: it does not count
ALTER TABLE sync_users ENABLE REPLICA TRIGGER sync_users_bloom_upd;
SELECT complete, reason FROM copy, bloom_index_changes('sync_users_bloom', copy.mark);
ALTER TABLE sync_users ENABLE ALWAYS TRIGGER sync_users_bloom_upd;
DROP TABLE copy;
CREATE TEMP TABLE copy AS SELECT * FROM bloom_index_filter_at('sync_users_bloom');
CREATE TRIGGER sync_users_bloom_when AFTER UPDATE ON sync_users REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT WHEN (pg_trigger_depth() < 1) EXECUTE FUNCTION bloom_index_log_trigger('sync_users_bloom');
DROP TRIGGER sync_users_bloom_upd ON sync_users;
SELECT * FROM bloom_index_filter_at('sync_users_bloom');
DROP TRIGGER sync_users_bloom_when ON sync_users;
CREATE TRIGGER sync_users_bloom_upd AFTER UPDATE ON sync_users REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('sync_users_bloom');
DROP TABLE copy;
CREATE TEMP TABLE copy AS SELECT * FROM bloom_index_filter_at('sync_users_bloom');
-- a mark taken in a transaction that writes counts it as running: what
-- it logs, before the mark and after, comes once it has committed
BEGIN;
INSERT INTO sync_users (id) VALUES (6050);
CREATE TEMP TABLE wcopy AS SELECT * FROM bloom_index_filter_at('sync_users_bloom');
INSERT INTO sync_users (id) VALUES (6052);
COMMIT;
SELECT c.complete, (SELECT array_agg(h ORDER BY h) FROM sync_hashes(c.hashes) h)
         = (SELECT array_agg(bloom_key_hash(k, sync_seed(w.filter)) ORDER BY bloom_key_hash(k, sync_seed(w.filter)))
              FROM unnest(ARRAY[6050, 6052]::bigint[]) k) AS both_delivered
  FROM wcopy w, bloom_index_changes('sync_users_bloom', w.mark) c;
DROP TABLE wcopy;
-- pruning: rows older than keep go, and a mark that had not seen them
-- must reload; a mark taken after the prune catches up
INSERT INTO sync_users (id) VALUES (6002);
SELECT bloom_index_log_prune('sync_users_bloom', '1 hour') AS pruned_young;
SELECT bloom_index_log_prune('sync_users_bloom', '0') > 0 AS pruned_all;
SELECT count(*) AS left_rows FROM bloomtype_index_log WHERE heaprelid = 'sync_users'::regclass;
SELECT complete, reason FROM copy, bloom_index_changes('sync_users_bloom', copy.mark);
DROP TABLE copy;
CREATE TEMP TABLE copy AS SELECT * FROM bloom_index_filter_at('sync_users_bloom');
INSERT INTO sync_users (id) VALUES (6003);
SELECT complete, length(hashes) AS bytes FROM copy, bloom_index_changes('sync_users_bloom', copy.mark);
SELECT bloom_index_log_prune('sync_users_bloom', '-1 minute');

-- misuse of the trigger
SELECT bloom_index_log_trigger();
CREATE TABLE sync_bad (id bigint);
CREATE INDEX sync_bad_btree ON sync_bad (id);
CREATE TRIGGER sync_bad_row AFTER INSERT ON sync_bad FOR EACH ROW
  EXECUTE FUNCTION bloom_index_log_trigger('sync_bad_btree');
INSERT INTO sync_bad VALUES (1);
DROP TRIGGER sync_bad_row ON sync_bad;
CREATE TRIGGER sync_bad_stmt AFTER INSERT ON sync_bad REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('sync_bad_btree');
INSERT INTO sync_bad VALUES (1);
DROP TRIGGER sync_bad_stmt ON sync_bad;
CREATE TRIGGER sync_bad_name AFTER INSERT ON sync_bad REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('sync_users_bloom');
INSERT INTO sync_bad VALUES (1);
DROP TRIGGER sync_bad_name ON sync_bad;
CREATE INDEX sync_bad_bloom ON sync_bad USING bloomfilter (id);
CREATE TRIGGER sync_bad_keep AFTER INSERT ON sync_bad REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('sync_bad_bloom', 'c', '-1 day');
INSERT INTO sync_bad VALUES (1);
DROP TABLE sync_bad;
CREATE TABLE sync_parted (id bigint) PARTITION BY RANGE (id);
CREATE TABLE sync_parted_1 PARTITION OF sync_parted FOR VALUES FROM (0) TO (100);
CREATE INDEX sync_parted_bloom ON sync_parted USING bloomfilter (id);
CREATE TRIGGER sync_parted_log AFTER INSERT ON sync_parted REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('sync_parted_bloom');
INSERT INTO sync_parted VALUES (1);
DROP TRIGGER sync_parted_log ON sync_parted;
-- nor on a partition: rows inserted through the parent would not fire it
CREATE TRIGGER sync_parted_1_log AFTER INSERT ON sync_parted_1 REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('sync_parted_1_id_idx');
INSERT INTO sync_parted_1 VALUES (2);
SELECT * FROM bloom_index_filter_at('sync_parted_bloom');
-- a partition's own index: rows inserted through the parent fire no
-- trigger of the partition, so it is not logged whatever its triggers
SELECT * FROM bloom_index_filter_at('sync_parted_1_id_idx');
DROP TABLE sync_parted;

-- privileges: PUBLIC has no right on the log; a role that may only INSERT
-- gets its keys logged and reads none; a role without SELECT on the
-- table gets no hashes; only the table's owner prunes
CREATE ROLE sync_writer;
CREATE ROLE sync_reader;
GRANT INSERT ON sync_users TO sync_writer;
GRANT SELECT ON sync_users TO sync_reader;
GRANT SELECT ON copy TO sync_writer, sync_reader;
SELECT has_table_privilege('public', 'bloomtype_index_log', 'SELECT') AS public_reads,
       has_table_privilege('public', 'bloomtype_index_log', 'INSERT') AS public_writes;
-- an index's expression runs as the role whose statement fires the
-- trigger, never as the log's owner (a superuser)
CREATE FUNCTION sync_who(k bigint) RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN RAISE NOTICE 'key % hashed as %', k, current_user; RETURN k; END $$;
CREATE TABLE sync_expr (id bigint);
GRANT INSERT ON sync_expr TO sync_writer;
CREATE INDEX sync_expr_bloom ON sync_expr USING bloomfilter (sync_who(id));
CALL sync_log('sync_expr', 'sync_expr_bloom', '');
SET ROLE sync_writer;
INSERT INTO sync_expr VALUES (1);
RESET ROLE;
DROP TABLE sync_expr;
DROP FUNCTION sync_who(bigint);
SET ROLE sync_writer;
INSERT INTO sync_users (id) VALUES (7001);
SELECT count(*) FROM bloomtype_index_log;
SELECT * FROM bloom_index_filter_at('sync_users_bloom');
SELECT complete FROM bloom_index_changes('sync_users_bloom', (SELECT mark FROM copy));
SELECT bloom_index_log_prune('sync_users_bloom');
RESET ROLE;
SET ROLE sync_reader;
SELECT complete, (SELECT array_agg(h) FROM sync_hashes(hashes) h)
         = ARRAY[bloom_key_hash(6003::bigint, sync_seed(copy.filter)), bloom_key_hash(7001::bigint, sync_seed(copy.filter))] AS both_keys
  FROM copy, bloom_index_changes('sync_users_bloom', copy.mark);
DELETE FROM bloomtype_index_log;
SELECT bloom_index_log_prune('sync_users_bloom');
RESET ROLE;
-- row-level security hides rows: no filter, no hashes
ALTER TABLE sync_users ENABLE ROW LEVEL SECURITY;
CREATE POLICY sync_all ON sync_users USING (true);
SET ROLE sync_reader;
SELECT complete FROM copy, bloom_index_changes('sync_users_bloom', copy.mark);
RESET ROLE;
ALTER TABLE sync_users DISABLE ROW LEVEL SECURITY;
DROP POLICY sync_all ON sync_users;
REVOKE ALL ON sync_users FROM sync_writer, sync_reader;
REVOKE ALL ON copy FROM sync_writer, sync_reader;
DROP ROLE sync_writer;
DROP ROLE sync_reader;

-- a large catch-up: 20,000 keys in one answer, each once
CREATE TABLE sync_big (id bigint);
CREATE INDEX sync_big_bloom ON sync_big USING bloomfilter (id) WITH (min_capacity = 200000);
CALL sync_log('sync_big', 'sync_big_bloom');
CREATE TEMP TABLE bcopy AS SELECT * FROM bloom_index_filter_at('sync_big_bloom');
INSERT INTO sync_big SELECT generate_series(1, 10000);
INSERT INTO sync_big SELECT generate_series(10001, 20000);
SELECT complete, reason, length(hashes) / 8 AS keys,
       (SELECT count(DISTINCT h) FROM sync_hashes(hashes) h) AS distinct_keys
  FROM bcopy, bloom_index_changes('sync_big_bloom', bcopy.mark);

DROP TABLE sync_users, sync_emails, sync_small, sync_big;
DROP FUNCTION sync_seed(bloomfilter);
DROP PROCEDURE sync_log(regclass, text, text);
DROP FUNCTION sync_hashes(bytea);
-- the log rows of dropped tables go at the next bloom_index_log_prune
SELECT count(*) > 0 AS rows_of_dropped FROM bloomtype_index_log;
CREATE TABLE sync_last (id bigint);
CREATE INDEX sync_last_bloom ON sync_last USING bloomfilter (id);
SELECT bloom_index_log_prune('sync_last_bloom') > 0 AS pruned;
SELECT count(*) AS log_rows FROM bloomtype_index_log;
SELECT count(*) AS horizons FROM bloomtype_index_log_horizon;
DROP TABLE sync_last;
