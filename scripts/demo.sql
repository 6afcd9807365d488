-- bloomtype demo: a filter in front of a table, against cache penetration
\set ON_ERROR_STOP on
\pset footer off
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;

\echo '== 1. one million users (ids spread over 1..10^9)'
DROP TABLE IF EXISTS users, filters, requests;
CREATE TABLE users AS
  SELECT (g::bigint * 7919 % 1000000007) AS user_id, 'user' || g AS name
    FROM generate_series(1, 1000000) g;
CREATE UNIQUE INDEX users_pkey ON users (user_id);
ANALYZE users;

\echo '== 2. the filter: bloom_agg(user_id), auto-sized at the default 1% rate'
CREATE TABLE filters AS SELECT 'users' AS name, bloom_agg(user_id) AS f FROM users;
SELECT kind, capacity, fpr AS target_fpr, hashes, items, estimated_items,
       round(estimated_fpr::numeric, 5) AS estimated_fpr, layers, expansion
  FROM filters, bloom_info(f);

\echo '== 3. filter size vs index size'
SELECT pg_size_pretty(pg_column_size(f)::bigint) AS filter_size,
       pg_size_pretty(pg_relation_size('users_pkey')) AS index_size,
       pg_size_pretty(pg_relation_size('users')) AS table_size,
       round(pg_relation_size('users_pkey')::numeric / pg_column_size(f), 1) AS index_over_filter
  FROM filters;

\echo '== 4. 200,000 requests, half for users that do not exist'
CREATE TABLE requests AS
  SELECT CASE WHEN g % 2 = 0 THEN (g::bigint * 7919 % 1000000007)   -- existing
              ELSE 1000000007 + g END AS user_id                   -- never existed
    FROM generate_series(1, 200000) g;

\echo '== 5. cache-penetration check: only ids the filter passes reach the table'
WITH checked AS (
  SELECT r.user_id,
         bloom_contains((SELECT f FROM filters WHERE name = 'users'), r.user_id) AS maybe,
         EXISTS (SELECT 1 FROM users u WHERE u.user_id = r.user_id) AS present
    FROM requests r
)
SELECT count(*) AS requests,
       count(*) FILTER (WHERE present) AS present,
       count(*) FILTER (WHERE present AND NOT maybe) AS false_negatives,
       count(*) FILTER (WHERE NOT maybe) AS lookups_avoided,
       count(*) FILTER (WHERE maybe AND NOT present) AS false_positives,
       round(100.0 * count(*) FILTER (WHERE maybe AND NOT present)
             / nullif(count(*) FILTER (WHERE NOT present), 0), 3) AS measured_fpr_pct
  FROM checked;

\echo '== 6. new users join the filter as they register: it grows a layer, and keeps its rate'
UPDATE filters SET f = bloom_add(f, 4242424242::bigint) WHERE name = 'users';
SELECT bloom_contains(f, 4242424242::bigint) AS new_user_found,
       bloom_contains(f, 4242424243::bigint) AS other_id_found
  FROM filters WHERE name = 'users';
-- 300,000 more, in batches of 1,000 as an application would add them
DO $$
BEGIN
  FOR b IN 0..299 LOOP
    UPDATE filters SET f = bloom_add_all(f, ARRAY(SELECT 5000000000 + b * 1000 + g FROM generate_series(1, 1000) g))
     WHERE name = 'users';
  END LOOP;
END $$;
SELECT kind, capacity, items, layers, round(saturation::numeric, 3) AS saturation,
       (SELECT count(*) FROM generate_series(1, 300000) g
         WHERE NOT bloom_contains(f, 5000000000 + g)) AS false_negatives,
       round(100.0 * (SELECT count(*) FROM generate_series(1, 200000) g
                       WHERE bloom_contains(f, 9000000000 + g)) / 200000, 3) AS measured_fpr_pct
  FROM filters, bloom_info(f) WHERE name = 'users';

\echo '== 7. a maintained filter: the bloomfilter index keeps itself in step with the table'
CREATE INDEX users_filter ON users USING bloomfilter (user_id) WITH (fpr = 0.01);
SELECT pg_size_pretty(pg_relation_size('users_filter')) AS filter_index_size,
       pg_size_pretty(pg_relation_size('users_pkey')) AS btree_size,
       round(pg_relation_size('users_pkey')::numeric / pg_relation_size('users_filter'), 1) AS btree_over_filter;
-- a registration is an ordinary INSERT: Postgres adds the key to the filter
-- in the same transaction, writing one index page
INSERT INTO users VALUES (4242424242, 'newcomer');
SELECT bloom_index_contains('users_filter', 4242424242::bigint) AS new_user_found,
       bloom_index_contains('users_filter', 4242424243::bigint) AS other_id_found;
-- the per-request check reads the metapage and one page: no value to detoast
SELECT count(*) AS requests,
       count(*) FILTER (WHERE NOT bloom_index_contains('users_filter', user_id)) AS lookups_avoided
  FROM requests;
SELECT items, capacity, layers, round(estimated_fpr::numeric, 5) AS estimated_fpr,
       pg_size_pretty(bytes) AS bytes
  FROM bloom_index_info('users_filter');

\echo '== 8. filters that forget: a blocklist with releases (cuckoo) and a counting filter shipped as a plain Bloom filter'
CREATE TABLE blocklist AS
  SELECT 'ips' AS name, cuckoo_agg(ip, 200000, 0.001) AS f
    FROM (SELECT ('10.' || (g / 65536) || '.' || (g / 256 % 256) || '.' || (g % 256))::text AS ip
            FROM generate_series(1, 100000) g) s;
-- a release: remove only what was added
UPDATE blocklist SET f = cuckoo_remove(f, '10.0.0.7');
UPDATE blocklist SET f = cuckoo_add(f, '192.168.1.1');
SELECT cuckoo_contains(f, '10.0.0.7') AS released_still_blocked,
       cuckoo_contains(f, '10.0.0.8') AS other_blocked,
       cuckoo_contains(f, '192.168.1.1') AS new_blocked,
       items, deletes, subfilters, fingerprint_bits,
       round(8.0 * bytes / items, 1) AS bits_per_key
  FROM blocklist, cuckoo_info(f);
SELECT counting_contains(c, k) AS held, counting_count(c, k) AS copies,
       bloom_contains(counting_to_bloom(counting_remove(c, k)), k) AS shipped_after_removal,
       pg_size_pretty(length(counting_to_bloom(c)::bytea)::bigint) AS shipped_size,
       pg_size_pretty(length(c::bytea)::bigint) AS counting_size
  FROM (SELECT counting_agg(user_id, 1000000, 0.01) AS c, min(user_id) AS k FROM users) s;
