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

CREATE TABLE sync_users (id bigint PRIMARY KEY, email text, active boolean DEFAULT true);
INSERT INTO sync_users SELECT g, 'u' || g || '@example.com' FROM generate_series(1, 1000) g;
-- seed 0, so that the logged hashes can be compared with bloom_key_hash
CREATE INDEX sync_users_bloom ON sync_users USING bloomfilter (id) WITH (seed = 0);
CREATE TRIGGER sync_users_log AFTER INSERT ON sync_users REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('sync_users_bloom');
CREATE TEMP TABLE copy AS SELECT * FROM bloom_index_filter_at('sync_users_bloom');
-- the filter is bloom_index_filter's; the mark names this index
SELECT filter = bloom_index_filter('sync_users_bloom') AS same_filter,
       split_part(mark, '/', 1) AS mark_version,
       split_part(mark, '/', 5)::oid = 'sync_users_bloom'::regclass AS mark_index,
       split_part(mark, '/', 8) AS mark_layers
  FROM copy;

-- nothing since: complete, no hashes, a mark
SELECT c.complete, c.reason, length(c.hashes) AS bytes, c.mark IS NOT NULL AS has_mark
  FROM copy, bloom_index_changes('sync_users_bloom', copy.mark) c;
-- two statements, three keys: one log row a statement, the keys' hashes
-- under the index's seed, in the order of the rows
INSERT INTO sync_users (id) VALUES (5001), (5002);
INSERT INTO sync_users (id) VALUES (5003);
SELECT indexrelid::regclass, relfilenode = pg_relation_filenode('sync_users_bloom') AS this_file,
       xid IS NOT NULL AS has_xid, length(hashes) AS bytes
  FROM bloomtype_index_log ORDER BY xid;
SELECT h = bloom_key_hash(k, 0) AS same_hash, k
  FROM (SELECT sync_hashes(c.hashes) AS h, unnest(ARRAY[5001, 5002, 5003]::bigint[]) AS k
          FROM copy, bloom_index_changes('sync_users_bloom', copy.mark) c) x;
-- a copy brought up to date answers as the index
SELECT (SELECT count(*) FROM sync_hashes(c.hashes) h
         WHERE h IN (SELECT bloom_key_hash(g::bigint, 0) FROM generate_series(5001, 5003) g)) AS delivered
  FROM copy, bloom_index_changes('sync_users_bloom', copy.mark) c;

-- from the new mark: nothing, then only what came after it
CREATE TEMP TABLE mark2 AS
  SELECT c.mark FROM copy, bloom_index_changes('sync_users_bloom', copy.mark) c;
SELECT complete, length(hashes) AS bytes FROM mark2, bloom_index_changes('sync_users_bloom', mark2.mark);
INSERT INTO sync_users (id) VALUES (5004);
SELECT complete, (SELECT array_agg(h) FROM sync_hashes(hashes) h) = ARRAY[bloom_key_hash(5004::bigint, 0)] AS only_new
  FROM mark2, bloom_index_changes('sync_users_bloom', mark2.mark);

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
 WHERE indexrelid = 'sync_users_bloom'::regclass AND length(hashes) > 8;

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
CREATE TRIGGER sync_small_log AFTER INSERT ON sync_small REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('sync_small_bloom', '');
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
-- TRUNCATE
TRUNCATE sync_small;
SELECT complete, reason FROM scopy, bloom_index_changes('sync_small_bloom', scopy.mark);
-- a mark of another index, a garbled one
SELECT complete, reason FROM copy, bloom_index_changes('sync_emails_bloom', copy.mark);
SELECT * FROM bloom_index_changes('sync_users_bloom', 'bt1/1/2/3');
SELECT * FROM bloom_index_changes('sync_users_bloom', 'bt1/1/2/3/4/5/0000000a/1/junk');
-- pruning: rows older than keep go, and a mark that had not seen them
-- must reload; a mark taken after the prune catches up
INSERT INTO sync_users (id) VALUES (6002);
SELECT bloom_index_log_prune('sync_users_bloom', '1 hour') AS pruned_young;
SELECT bloom_index_log_prune('sync_users_bloom', '0') > 0 AS pruned_all;
SELECT count(*) AS left_rows FROM bloomtype_index_log WHERE indexrelid = 'sync_users_bloom'::regclass;
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
SELECT * FROM bloom_index_filter_at('sync_parted_bloom');
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
SET ROLE sync_writer;
INSERT INTO sync_users (id) VALUES (7001);
SELECT count(*) FROM bloomtype_index_log;
SELECT * FROM bloom_index_filter_at('sync_users_bloom');
SELECT complete FROM bloom_index_changes('sync_users_bloom', (SELECT mark FROM copy));
SELECT bloom_index_log_prune('sync_users_bloom');
RESET ROLE;
SET ROLE sync_reader;
SELECT complete, (SELECT array_agg(h) FROM sync_hashes(hashes) h)
         = ARRAY[bloom_key_hash(6003::bigint, 0), bloom_key_hash(7001::bigint, 0)] AS both_keys
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
CREATE TRIGGER sync_big_log AFTER INSERT ON sync_big REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('sync_big_bloom');
CREATE TEMP TABLE bcopy AS SELECT * FROM bloom_index_filter_at('sync_big_bloom');
INSERT INTO sync_big SELECT generate_series(1, 10000);
INSERT INTO sync_big SELECT generate_series(10001, 20000);
SELECT complete, reason, length(hashes) / 8 AS keys,
       (SELECT count(DISTINCT h) FROM sync_hashes(hashes) h) AS distinct_keys
  FROM bcopy, bloom_index_changes('sync_big_bloom', bcopy.mark);

DROP TABLE sync_users, sync_emails, sync_small, sync_big;
DROP FUNCTION sync_hashes(bytea);
-- the log rows of dropped indexes stay until pruned by their age
SELECT count(*) > 0 AS rows_of_dropped FROM bloomtype_index_log;
DELETE FROM bloomtype_index_log;
DELETE FROM bloomtype_index_log_horizon;
