-- The benchmarks' data (bench/sql.sh, bench/ab.sh): :rows users with ids
-- spread by a prime, a million probes half present (spread over the table)
-- and half absent, and the users' filter, made by bloom_agg.
CREATE TABLE users AS SELECT g::bigint * 7919 AS user_id FROM generate_series(1, :rows) g;
ALTER TABLE users SET (parallel_workers = 2);
CREATE TABLE probes AS
  SELECT CASE WHEN g % 2 = 0 THEN ((g::bigint * 104729) % :rows + 1) * 7919 ELSE -g END AS id
    FROM generate_series(1, 1000000) g;
CREATE TABLE filters (name text PRIMARY KEY, f bloomfilter);
INSERT INTO filters SELECT 'users', bloom_agg(user_id) FROM users;
