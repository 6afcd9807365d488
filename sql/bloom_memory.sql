-- No query shape keeps a copy of a filter per row, and a call site reads a
-- value once, however the value reaches it.  Each shape probes 50,000 rows
-- against filters of 300 kB to 1.2 MB in a fresh backend and checks the
-- backend's peak resident memory (VmHWM): a copy kept per row (as 1.5
-- kept one per comparison of a sort or a grouping) would pass 1 GB; the
-- shapes stay far under the bound of 150 MB.  Answers are checked against
-- the scalar-subquery form.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;

CREATE TABLE v AS SELECT bloom_agg(g::bigint) AS b, counting_agg(g::bigint) AS c,
                         cuckoo_agg(g::bigint) AS k
                    FROM generate_series(1, 200000) g;
CREATE TABLE probe AS SELECT (g * 97)::bigint AS id FROM generate_series(1, 50000) g;
ANALYZE v, probe;
SELECT pg_column_size(b) > 250000 AS b_large, pg_column_size(c) > 1000000 AS c_large,
       pg_column_size(k) > 250000 AS k_large FROM v;

-- the backend's peak resident memory in MB
CREATE FUNCTION peak_mb() RETURNS int LANGUAGE sql AS $$
  SELECT (regexp_match(pg_read_file('/proc/self/status'), 'VmHWM:\s+(\d+) kB'))[1]::int / 1024 $$;

-- the answers of the scalar-subquery form, which reads each filter once
SELECT md5(string_agg(bloom_contains((SELECT b FROM v), id)::int::text, ',' ORDER BY id)) AS ref_b,
       md5(string_agg(counting_contains((SELECT c FROM v), id)::int::text, ',' ORDER BY id)) AS ref_c,
       md5(string_agg(cuckoo_contains((SELECT k FROM v), id)::int::text, ',' ORDER BY id)) AS ref_k
  FROM probe \gset
SELECT count(*) FILTER (WHERE bloom_contains((SELECT b FROM v), id)) AS b_hits FROM probe;
-- the same answers, as a sum that needs no order (PostgreSQL 16 and later
-- sort an ordered aggregate's input in the plan, each row with its values:
-- a filter made in memory is then copied into every row of the sort)
SELECT sum(hashint8(id)::numeric) FILTER (WHERE bloom_contains((SELECT b FROM v), id)) AS ref_b_sum
  FROM probe \gset

-- 1. grouping by the filter after a sort: the sort compares the grouping
-- key, the aggregate compares each row with the group's first
\c -
SET jit = off; SET enable_hashagg = off;
SELECT md5(string_agg(bloom_contains(b, p.id)::int::text, ',' ORDER BY p.id)) = :'ref_b' AS same
  FROM probe p, v GROUP BY b;
SELECT md5(string_agg(counting_contains(c, p.id)::int::text, ',' ORDER BY p.id)) = :'ref_c' AS same
  FROM probe p, v GROUP BY c;
SELECT md5(string_agg(cuckoo_contains(k, p.id)::int::text, ',' ORDER BY p.id)) = :'ref_k' AS same
  FROM probe p, v GROUP BY k;
SELECT peak_mb() < 150 AS bounded;

-- 2. grouping by the filter in a hash table (hashes the key per row)
\c -
SET jit = off; SET enable_sort = off;
SELECT count(*) FILTER (WHERE bloom_contains(b, p.id)) AS hits FROM probe p, v GROUP BY b;
SELECT count(*) FILTER (WHERE counting_contains(c, p.id)) AS hits FROM probe p, v GROUP BY c;
SELECT count(*) FILTER (WHERE cuckoo_contains(k, p.id)) AS hits FROM probe p, v GROUP BY k;
SELECT peak_mb() < 150 AS bounded;

-- 3. a window partitioned by the filter, and DISTINCT on it (a sort of
-- the filters, compared by their TOAST pointers)
\c -
SET jit = off;
SELECT md5(string_agg(x::int::text, ',' ORDER BY id)) = :'ref_b' AS same
  FROM (SELECT p.id, bool_and(bloom_contains(b, p.id)) OVER (PARTITION BY b ORDER BY p.id ROWS CURRENT ROW) AS x
          FROM probe p, v) s;
SELECT count(DISTINCT c) AS distinct_filters, count(*) AS all_rows FROM probe p, v;
SELECT peak_mb() < 150 AS bounded;

-- 4. a materialised CTE, and values made in memory: a copy per row
-- (v.b::bytea::bloomfilter), and states kept by a partial aggregate
\c -
SET jit = off;
WITH f AS MATERIALIZED (SELECT b, c, k FROM v)
SELECT md5(string_agg(bloom_contains(b, p.id)::int::text, ',' ORDER BY p.id)) = :'ref_b' AS b_same,
       md5(string_agg(counting_contains(c, p.id)::int::text, ',' ORDER BY p.id)) = :'ref_c' AS c_same,
       md5(string_agg(cuckoo_contains(k, p.id)::int::text, ',' ORDER BY p.id)) = :'ref_k' AS k_same
  FROM probe p, f;
WITH f AS MATERIALIZED (SELECT b::bytea::bloomfilter AS b FROM v)
SELECT sum(hashint8(p.id)::numeric) FILTER (WHERE bloom_contains(b, p.id)) = :'ref_b_sum' AS same
  FROM probe p, f;
SELECT count(*) FILTER (WHERE bloom_contains(b::bytea::bloomfilter, p.id)) AS hits FROM probe p, v;
SELECT peak_mb() < 150 AS bounded;

-- 5. aggregate states in memory (a hash list, a light state), read by
-- every row: a state is made into a filter once per call site, not per row
-- (from 1.6 the hash list answers as the filter its aggregate returns:
-- 426 hits, those of bloom_agg(g) over the same rows; 1.5 read it as a
-- blocked filter, 670).  No grouping: a sort would copy the states made in
-- memory into each of its rows (51 s on PostgreSQL 18 before this
-- rewrite, for nothing the case measures)
\c -
SET jit = off;
CREATE AGGREGATE pg_temp.partial_bloom(bigint) (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
CREATE AGGREGATE pg_temp.partial_bloom(bigint, bigint, double precision)
  (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
WITH s AS MATERIALIZED (SELECT pg_temp.partial_bloom(g::bigint) AS auto,
                               pg_temp.partial_bloom(g::bigint, 4000000, 0.01) AS fixed
                          FROM generate_series(1, 20000) g)
SELECT (SELECT get_byte(auto::bytea, 5) FROM s) AS auto_kind,
       (SELECT get_byte(fixed::bytea, 5) FROM s) AS fixed_kind,
       count(*) FILTER (WHERE bloom_contains(auto, p.id)) AS auto_hits,
       count(*) FILTER (WHERE bloom_contains(fixed, p.id)) AS fixed_hits
  FROM probe p, s;
SELECT peak_mb() < 150 AS bounded;

-- a changed value evicts the kept one: two filters that alternate row by
-- row answer for themselves
CREATE TEMP TABLE two AS
  SELECT 1 AS n, bloom_agg(g::bigint) AS f FROM generate_series(1, 100000) g
  UNION ALL
  SELECT 2, bloom_agg(g::bigint) FROM generate_series(100001, 200000) g;
SELECT n, count(*) FILTER (WHERE bloom_contains(f, p.id)) AS hits
  FROM (SELECT * FROM probe, generate_series(1, 2) r) p JOIN two ON two.n = p.r
 GROUP BY n ORDER BY n;
SELECT peak_mb() < 150 AS bounded;

DROP TABLE v, probe;
DROP FUNCTION peak_mb();
