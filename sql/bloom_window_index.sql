-- The index of a table partitioned by time is a windowed filter (1.7):
-- bloom_index_contains(index, key, since) asks only the partitions whose
-- range ends after since; dropping or detaching the oldest partition is
-- the expiry.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;
SET timezone = 'UTC';

-- 1. Seven daily partitions of a timestamptz column, key g at minute g
CREATE TABLE wev (uid bigint, at timestamptz) PARTITION BY RANGE (at);
SELECT format('CREATE TABLE wev_%s PARTITION OF wev FOR VALUES FROM (%L) TO (%L)', d,
              timestamptz '2026-11-01 00:00+00' + make_interval(days => d),
              timestamptz '2026-11-01 00:00+00' + make_interval(days => d + 1))
  FROM generate_series(0, 6) d \gexec
CREATE INDEX wev_uid ON wev USING bloomfilter (uid);
INSERT INTO wev SELECT g, timestamptz '2026-11-01 00:00+00' + make_interval(mins => g)
  FROM generate_series(0, 7 * 1440 - 1) g;
-- key 100 is on day 0 (2026-11-01), key 9000 on day 6 (2026-11-07)
SELECT bloom_index_contains('wev_uid', 100::bigint) AS day0_any,
       bloom_index_contains('wev_uid', 100::bigint, '2026-11-01 23:59+00') AS day0_since_its_end,
       bloom_index_contains('wev_uid', 100::bigint, '2026-11-02 00:00+00') AS day0_since_day1,
       bloom_index_contains('wev_uid', 9000::bigint, '2026-11-03 00:00+00') AS day6_since_day2,
       bloom_index_contains('wev_uid', 9000::bigint, '2026-11-07 12:00+00') AS day6_since_its_noon,
       bloom_index_contains('wev_uid', 9000::bigint, '2026-11-08 00:00+00') AS since_past_every_range,
       bloom_index_contains('wev_uid', 9000::bigint, '-infinity') AS since_ever,
       bloom_index_contains('wev_uid', 9000::bigint, 'infinity') AS since_never;
-- every key of the last two days is found since their start; the keys of
-- the five days before answer false (they are asked of no partition)
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('wev_uid', uid, '2026-11-06 00:00+00')
                        AND at >= '2026-11-06 00:00+00') AS missing_recent,
       count(*) FILTER (WHERE bloom_index_contains('wev_uid', uid, '2026-11-06 00:00+00')
                        AND at < '2026-11-06 00:00+00') AS old_found
  FROM wev WHERE uid NOT BETWEEN 5 * 1440 AND 7 * 1440 - 1 OR at >= '2026-11-06 00:00+00';

-- 2. Only the partitions that end after since are read: their index
-- blocks in pg_statio_user_indexes, before and after 5,000 probes since
-- 2026-11-06 (the stats of this session written out first)
SELECT pg_stat_force_next_flush();
SELECT 1 AS flushed;
SELECT pg_stat_clear_snapshot();
CREATE TEMP TABLE blocks_before AS
  SELECT indexrelname, idx_blks_read + idx_blks_hit AS blocks FROM pg_statio_user_indexes
   WHERE indexrelname LIKE 'wev\_%';
SELECT count(*) FILTER (WHERE bloom_index_contains('wev_uid', g::bigint, '2026-11-06 00:00+00')) AS found
  FROM generate_series(1, 5000) g;
SELECT pg_stat_force_next_flush();
SELECT 1 AS flushed;
SELECT pg_stat_clear_snapshot();
SELECT s.indexrelname, s.idx_blks_read + s.idx_blks_hit - b.blocks > 0 AS read
  FROM pg_statio_user_indexes s JOIN blocks_before b USING (indexrelname)
 ORDER BY 1;

-- 3. Detaching the oldest partition is the expiry; a new partition and a
-- default partition are asked whatever since says of them
ALTER TABLE wev DETACH PARTITION wev_0;
SELECT bloom_index_contains('wev_uid', 100::bigint) AS detached_key,
       bloom_index_contains('wev_uid', 100::bigint, '-infinity') AS detached_key_since_ever;
CREATE TABLE wev_default PARTITION OF wev DEFAULT;
INSERT INTO wev VALUES (-7, '2020-01-01 00:00+00');
SELECT bloom_index_contains('wev_uid', -7::bigint, '2026-11-06 00:00+00') AS default_partition_always;
DROP TABLE wev_0;

-- 4. timestamp (without time zone) and date partition keys: their bounds
-- are compared with since in the session's time zone, as PostgreSQL does
CREATE TABLE wts (uid bigint, at timestamp) PARTITION BY RANGE (at);
CREATE TABLE wts_1 PARTITION OF wts FOR VALUES FROM ('2026-11-01 00:00') TO ('2026-11-02 00:00');
CREATE TABLE wts_2 PARTITION OF wts FOR VALUES FROM ('2026-11-02 00:00') TO (MAXVALUE);
CREATE INDEX wts_uid ON wts USING bloomfilter (uid);
INSERT INTO wts VALUES (1, '2026-11-01 12:00'), (2, '2026-11-05 12:00');
SET timezone = 'UTC';
SELECT bloom_index_contains('wts_uid', 1::bigint, '2026-11-01 23:00+00') AS utc_before_end,
       bloom_index_contains('wts_uid', 1::bigint, '2026-11-02 00:00+00') AS utc_at_end,
       bloom_index_contains('wts_uid', 2::bigint, '2030-01-01 00:00+00') AS maxvalue_always;
SET timezone = 'Asia/Tokyo';
-- 2026-11-01 23:00 UTC is 2026-11-02 08:00 in Tokyo: past wts_1's end there
SELECT bloom_index_contains('wts_uid', 1::bigint, '2026-11-01 23:00+00') AS tokyo_past_end;
SET timezone = 'UTC';
CREATE TABLE wdate (uid bigint, d date) PARTITION BY RANGE (d);
CREATE TABLE wdate_1 PARTITION OF wdate FOR VALUES FROM ('2026-11-01') TO ('2026-11-08');
CREATE TABLE wdate_2 PARTITION OF wdate FOR VALUES FROM ('2026-11-08') TO ('2026-11-15');
CREATE INDEX wdate_uid ON wdate USING bloomfilter (uid);
INSERT INTO wdate VALUES (1, '2026-11-03'), (2, '2026-11-10');
-- a bound past every timestamp (dates reach year 5874897)
CREATE TABLE wdate_3 PARTITION OF wdate FOR VALUES FROM ('2026-11-15') TO ('300000-01-01');
INSERT INTO wdate VALUES (3, '2026-12-01');
SELECT bloom_index_contains('wdate_uid', 3::bigint, '2030-01-01 00:00+00') AS far_bound_after_since;
SELECT bloom_index_contains('wdate_uid', 1::bigint, '2026-11-07 23:59:59+00') AS week1_before_end,
       bloom_index_contains('wdate_uid', 1::bigint, '2026-11-08 00:00+00') AS week1_at_end,
       bloom_index_contains('wdate_uid', 2::bigint, '2026-11-08 00:00+00') AS week2;

-- 5. Partitions partitioned again (by key) under the days: since chooses
-- the days, then every partition under them is asked
CREATE TABLE wsub (uid bigint, at timestamptz) PARTITION BY RANGE (at);
CREATE TABLE wsub_1 PARTITION OF wsub FOR VALUES FROM ('2026-11-01 00:00+00') TO ('2026-11-02 00:00+00')
  PARTITION BY HASH (uid);
CREATE TABLE wsub_1a PARTITION OF wsub_1 FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE wsub_1b PARTITION OF wsub_1 FOR VALUES WITH (MODULUS 2, REMAINDER 1);
CREATE TABLE wsub_2 PARTITION OF wsub FOR VALUES FROM ('2026-11-02 00:00+00') TO ('2026-11-03 00:00+00');
CREATE INDEX wsub_uid ON wsub USING bloomfilter (uid);
INSERT INTO wsub SELECT g, '2026-11-01 06:00+00' FROM generate_series(1, 100) g;
INSERT INTO wsub SELECT g, '2026-11-02 06:00+00' FROM generate_series(101, 200) g;
SELECT count(*) FILTER (WHERE bloom_index_contains('wsub_uid', g::bigint, '2026-11-01 12:00+00')) AS day1_since_day1,
       count(*) FILTER (WHERE bloom_index_contains('wsub_uid', g::bigint, '2026-11-02 00:00+00')) AS day1_since_day2
  FROM generate_series(1, 100) g;

-- 6. Errors: an index that is not of a table partitioned by time
CREATE TABLE wplain (uid bigint);
CREATE INDEX wplain_uid ON wplain USING bloomfilter (uid);
SELECT bloom_index_contains('wplain_uid', 1::bigint, now());
CREATE TABLE wbykey (uid bigint) PARTITION BY RANGE (uid);
CREATE TABLE wbykey_1 PARTITION OF wbykey FOR VALUES FROM (0) TO (100);
CREATE INDEX wbykey_uid ON wbykey USING bloomfilter (uid);
SELECT bloom_index_contains('wbykey_uid', 1::bigint, now());
SELECT bloom_index_contains('wev_uid', 1::bigint, NULL) IS NULL AS strict;

DROP TABLE wev, wts, wdate, wsub, wplain, wbykey;
