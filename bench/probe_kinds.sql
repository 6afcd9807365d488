-- Per-row cost of bloom_contains in SQL for a fixed filter, a scalable
-- filter that has not grown (one layer: what bloom_agg and bloom_empty
-- make) and one grown 64x (7 layers), each holding 1,000,000 keys at 1%.
-- 5,000,000 probes (a fifth present) through an initplan, 5 runs each
-- after a warm-up, median; ns per row above the same scan without the
-- probe, measured in the same run, beside a built-in comparison.  Run by bench/probe_kinds.sh.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
DROP TABLE IF EXISTS kinds;
CREATE TABLE kinds AS
SELECT 'fixed (expansion 0)' AS filter,
       bloom_add_all(bloom_empty(1000000, 0.01, 0), ARRAY(SELECT generate_series(1, 1000000)::bigint)) AS f
UNION ALL
SELECT 'scalable, one layer (bloom_agg)', (SELECT bloom_agg(g::bigint) FROM generate_series(1, 1000000) g)
UNION ALL
SELECT 'scalable, grown 64x (7 layers)',
       bloom_add_all(bloom_empty(15625, 0.01), ARRAY(SELECT generate_series(1, 1000000)::bigint));

CREATE OR REPLACE FUNCTION time_probe(which text) RETURNS double precision LANGUAGE plpgsql AS $$
DECLARE
  t0 timestamptz;
  runs double precision[] := '{}';
  n bigint;
BEGIN
  FOR r IN 0..5 LOOP
    t0 := clock_timestamp();
    IF which IS NULL THEN
      SELECT count(*) INTO n FROM generate_series(1, 5000000) g;
    ELSIF which = 'built-in comparison (g > 0)' THEN
      SELECT count(*) INTO n FROM generate_series(1, 5000000) g WHERE g > 0;
    ELSE
      SELECT count(*) INTO n FROM generate_series(1, 5000000) g
       WHERE bloom_contains((SELECT f FROM kinds WHERE filter = which), g::bigint);
    END IF;
    IF r > 0 THEN
      runs := runs || extract(epoch FROM clock_timestamp() - t0)::double precision;
    END IF;
  END LOOP;
  RETURN (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(runs) x);
END $$;

WITH base AS (SELECT time_probe(NULL) AS s)
SELECT 'built-in comparison (g > 0)' AS filter, NULL::int AS layers, NULL AS size,
       round(((time_probe('built-in comparison (g > 0)') - base.s) * 1e9 / 5000000)::numeric, 1) AS ns_per_row
  FROM base
UNION ALL
SELECT k.filter, i.layers, pg_size_pretty(i.bytes),
       round(((time_probe(k.filter) - base.s) * 1e9 / 5000000)::numeric, 1)
  FROM kinds k, bloom_info(k.f) i, base;
DROP TABLE kinds;
DROP FUNCTION time_probe(text);
