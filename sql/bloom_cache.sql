-- A filter that is the same datum on every row is detoasted once per query,
-- not once per row.  Checked through buffer accesses: a TOASTed filter of
-- about 1.2 MB spans some 600 TOAST pages, so fetching it for each of 2000
-- probes would touch over a million buffers.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;

CREATE TABLE filters (name text PRIMARY KEY, f bloomfilter);
INSERT INTO filters SELECT 'users', bloom_agg(g) FROM generate_series(1, 1000000) g;
CREATE TABLE probes AS SELECT g AS id FROM generate_series(999001, 1001000) g;
ANALYZE filters, probes;
-- the filter is stored out of line, uncompressed
SELECT pg_column_size(f) > 1000000 AS large, pg_column_compression(f) IS NULL AS uncompressed
  FROM filters;

CREATE FUNCTION buffers_touched(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
  EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ' || q INTO plan;
  RETURN (plan -> 0 -> 'Plan' ->> 'Shared Hit Blocks')::bigint
       + (plan -> 0 -> 'Plan' ->> 'Shared Read Blocks')::bigint;
END $$;

-- an initplan, as in the README
SELECT count(*) FROM probes WHERE bloom_contains((SELECT f FROM filters WHERE name = 'users'), id);
SELECT buffers_touched($q$SELECT count(*) FROM probes
  WHERE bloom_contains((SELECT f FROM filters WHERE name = 'users'), id)$q$) < 5000 AS initplan_once;
-- a join: every row brings the same TOAST pointer
SELECT buffers_touched($q$SELECT count(*) FROM probes p, filters f
  WHERE f.name = 'users' AND bloom_contains(f.f, p.id)$q$) < 5000 AS join_once;
-- a parameter (kept for the whole query)
CREATE FUNCTION probe_param() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE flt bloomfilter; n bigint;
BEGIN
  SELECT f INTO flt FROM filters WHERE name = 'users';
  EXECUTE 'SELECT count(*) FROM probes WHERE bloom_contains($1, id)' INTO n USING flt;
  RETURN n;
END $$;
SELECT probe_param();
-- a filter per row is fetched per row, and answers for its own row
CREATE TABLE many AS SELECT g AS id, bloom_add(bloom_empty(100), g) AS f FROM generate_series(1, 50) g;
SELECT count(*) FILTER (WHERE bloom_contains(f, id)) AS own,
       count(*) FILTER (WHERE bloom_contains(f, id + 1000)) AS other
  FROM many;
-- a filter that changes between rows is never confused with a cached one
CREATE TABLE two (k int, f bloomfilter);
INSERT INTO two SELECT 1, bloom_agg(g, 300000, 0.01) FROM generate_series(1, 100000) g;
INSERT INTO two SELECT 2, bloom_agg(g, 300000, 0.01) FROM generate_series(200001, 300000) g;
SELECT k, bloom_contains(f, 5) AS has_5, bloom_contains(f, 250000) AS has_250000
  FROM two, generate_series(1, 3) ORDER BY k;

-- PL/pgSQL keeps a call site's state while its variables change: the
-- filter must be read afresh every time (a stale one would give false
-- negatives, or read freed memory)
DO $$
DECLARE f bloomfilter := bloom_empty(1000); g bloomfilter := bloom_empty(10000000);
BEGIN
  FOR i IN 1..20 LOOP
    f := bloom_add(f, i);
    IF NOT bloom_contains(f, i) THEN RAISE EXCEPTION 'small filter: key % not found', i; END IF;
    g := bloom_add(g, i);
    IF NOT bloom_contains(g, i) THEN RAISE EXCEPTION 'large filter: key % not found', i; END IF;
  END LOOP;
  RAISE NOTICE 'every key found';
END $$;

DROP FUNCTION buffers_touched(text);
DROP FUNCTION probe_param();
DROP TABLE filters, probes, many, two;
