-- bench/shapes.sh: what a probe costs by the shape of the query that
-- brings the filter (issue 21), against the scalar-subquery form measured
-- in the same run.  Best of 5 wall times, and each shape's peak resident
-- memory in a fresh backend.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS bloomtype CASCADE;
CREATE EXTENSION bloomtype;
DROP TABLE IF EXISTS v, probe, vb;
CREATE TABLE v AS SELECT bloom_agg(g::bigint) AS b, counting_agg(g::bigint) AS c,
                         cuckoo_agg(g::bigint) AS k FROM generate_series(1, 200000) g;
CREATE TABLE vb AS SELECT b::bytea AS b FROM v;
CREATE TABLE probe AS SELECT (g * 97)::bigint AS id FROM generate_series(1, 50000) g;
ANALYZE v, vb, probe;
CREATE OR REPLACE FUNCTION best_ms(q text, setting text, n int DEFAULT 5) RETURNS numeric
LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; best numeric := 1e12; ms numeric;
BEGIN
  IF setting <> '' THEN PERFORM set_config(setting, 'off', true); END IF;
  EXECUTE q;                          -- warm-up
  FOR i IN 1..n LOOP
    t0 := clock_timestamp();
    EXECUTE q;
    ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
    best := least(best, ms);
  END LOOP;
  PERFORM set_config('enable_hashagg', 'on', true);
  PERFORM set_config('enable_sort', 'on', true);
  RETURN round(best, 1);
END $$;
CREATE OR REPLACE FUNCTION peak_mb() RETURNS int LANGUAGE sql AS $$
  SELECT (regexp_match(pg_read_file('/proc/self/status'), 'VmHWM:\s+(\d+) kB'))[1]::int / 1024 $$;
DROP TABLE IF EXISTS shapes;
CREATE TABLE shapes (n int, shape text, setting text, q text);
INSERT INTO shapes VALUES
 (1, 'scalar subquery (baseline)', '', 'SELECT count(*) FILTER (WHERE bloom_contains((SELECT b FROM v), id)) FROM probe'),
 (2, 'join, the filter column on every row', '', 'SELECT count(*) FILTER (WHERE bloom_contains(b, p.id)) FROM probe p, v'),
 (3, 'GROUP BY the filter, sorted', 'enable_hashagg', 'SELECT md5(string_agg(bloom_contains(b, p.id)::int::text, '','' ORDER BY p.id)) FROM probe p, v GROUP BY b'),
 (4, 'GROUP BY the filter, hashed', 'enable_sort', 'SELECT count(*) FILTER (WHERE bloom_contains(b, p.id)) FROM probe p, v GROUP BY b'),
 (5, 'countingbloom: GROUP BY, sorted', 'enable_hashagg', 'SELECT md5(string_agg(counting_contains(c, p.id)::int::text, '','' ORDER BY p.id)) FROM probe p, v GROUP BY c'),
 (6, 'cuckoofilter: GROUP BY, sorted', 'enable_hashagg', 'SELECT md5(string_agg(cuckoo_contains(k, p.id)::int::text, '','' ORDER BY p.id)) FROM probe p, v GROUP BY k'),
 (7, 'window PARTITION BY the filter', '', 'SELECT count(*) FROM (SELECT bool_and(bloom_contains(b, p.id)) OVER (PARTITION BY b ORDER BY p.id ROWS CURRENT ROW) FROM probe p, v) s'),
 (8, 'bytea copy: GROUP BY, sorted (reference)', 'enable_hashagg', 'SELECT md5(string_agg(length(b)::text, '','' ORDER BY p.id)) FROM probe p, vb GROUP BY b');
SET jit = off;
\pset footer off
\echo 'best of 5 over 50,000 probe rows, filters of 200,000 keys; vs_baseline = ms / shape 1'
SELECT n, shape, ms, round(ms / first_value(ms) OVER (ORDER BY n), 2) AS vs_baseline
  FROM (SELECT n, shape, best_ms(q, setting) AS ms FROM shapes) s ORDER BY n;
