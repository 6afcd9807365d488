-- The catch-up scenario of the agreement (scripts/clients.sh): an index
-- logged by bloom_index_log_trigger, its filter and mark taken once
-- (bloom_index_filter_at), then rounds of INSERT statements, each round's
-- changes read from the mark before it (bloom_index_changes).  A reader
-- that loads the filter and applies the rounds in order must answer every
-- key as the index does (bloom_index_contains).  Keys are key_int(i), i
-- from 0 to :n - 1: the table starts with i = 0 mod 4, and the rounds add
-- i = 2 mod 4 in four ranges (a quarter of the keys, in statements of
-- several sizes, one id twice, one round empty); the odd i stay absent.
-- The index is made on the empty table, for n / 16 keys (at least a page),
-- expansion 8, and keys no probe asks (i from n on) are added until it has
-- grown a second layer, 8 times the first, which the rounds then fill
-- without a third (a layer added would be a gap, and the reader would
-- reload instead).  So the readers apply the rule of a grown index: a hash
-- an older layer may hold is not set again.
CREATE TABLE sync_t (id bigint);
SELECT :n / 16 AS first_capacity \gset
CREATE INDEX sync_t_bloom ON sync_t USING bloomfilter (id)
  WITH (min_capacity = :first_capacity, expansion = 8, min_pages = 1, seed = 20261208);
INSERT INTO sync_t SELECT key_int(i) FROM generate_series(0, :n - 1, 4) i;
CREATE TEMP TABLE sync_n AS SELECT :n::bigint AS n;
DO $$
DECLARE
  next bigint := (SELECT n FROM sync_n);
BEGIN
  -- bloom_index_info writes this session's pending keys first
  WHILE (bloom_index_info('sync_t_bloom')).layers < 2 LOOP
    INSERT INTO sync_t SELECT key_int(i) FROM generate_series(next, next + 999) i;
    next := next + 1000;
  END LOOP;
END $$;
CREATE TRIGGER sync_t_log AFTER INSERT ON sync_t REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('sync_t_bloom');
CREATE TRIGGER sync_t_log_update AFTER UPDATE ON sync_t REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('sync_t_bloom');
CREATE TABLE sync_base AS SELECT * FROM bloom_index_filter_at('sync_t_bloom');
CREATE TABLE sync_rounds (r int PRIMARY KEY, complete boolean, reason text, hashes bytea, mark text);
INSERT INTO sync_rounds SELECT 0, true, NULL, NULL, mark FROM sync_base;
-- round 1: one statement of many rows, one of one row, one id again
INSERT INTO sync_t SELECT key_int(i) FROM generate_series(2, :n / 4 - 1, 4) i;
INSERT INTO sync_t VALUES (key_int(:n / 4 + 2));
INSERT INTO sync_t VALUES (key_int(2));
INSERT INTO sync_rounds SELECT 1, c.* FROM sync_rounds p, bloom_index_changes('sync_t_bloom', p.mark) c WHERE p.r = 0;
-- round 2: nothing
INSERT INTO sync_rounds SELECT 2, c.* FROM sync_rounds p, bloom_index_changes('sync_t_bloom', p.mark) c WHERE p.r = 1;
-- round 3: a quarter of the keys in statements of 1,000
INSERT INTO sync_t SELECT key_int(i) FROM generate_series(:n / 4 + 6, :n / 2 - 1, 4) i WHERE i < :n / 4 + 6 + 4000;
INSERT INTO sync_t SELECT key_int(i) FROM generate_series(:n / 4 + 6 + 4000, :n / 2 - 1, 4) i;
INSERT INTO sync_rounds SELECT 3, c.* FROM sync_rounds p, bloom_index_changes('sync_t_bloom', p.mark) c WHERE p.r = 2;
-- round 4: the rest
INSERT INTO sync_t SELECT key_int(i) FROM generate_series(:n / 2 + 2, :n - 1, 4) i;
INSERT INTO sync_rounds SELECT 4, c.* FROM sync_rounds p, bloom_index_changes('sync_t_bloom', p.mark) c WHERE p.r = 3;
