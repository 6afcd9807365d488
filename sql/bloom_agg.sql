-- Aggregates: bloom_agg and bloom_union_agg
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;

CREATE TABLE ids (id bigint, grp int, name text);
INSERT INTO ids SELECT g, g % 10, 'user' || g FROM generate_series(1, 100000) g;
INSERT INTO ids VALUES (NULL, 1, NULL), (NULL, 2, NULL);
ANALYZE ids;

-- auto-sized: capacity is the distinct count, NULLs are ignored
SELECT capacity, fpr, items, key_type FROM bloom_info((SELECT bloom_agg(id) FROM ids));
SELECT capacity, fpr, items FROM bloom_info((SELECT bloom_agg(id, 0.001) FROM ids));
-- repeats do not inflate the capacity
SELECT capacity, items FROM bloom_info((SELECT bloom_agg(id % 1000) FROM ids));
-- fixed capacity
SELECT capacity, fpr, items FROM bloom_info((SELECT bloom_agg(id, 500000, 0.02) FROM ids));
-- every key is found: no false negatives
SELECT count(*) AS missing FROM ids, (SELECT bloom_agg(id) AS f FROM ids) s
 WHERE id IS NOT NULL AND NOT bloom_contains(f, id);
SELECT count(*) AS missing FROM ids, (SELECT bloom_agg(name, 200000, 0.01) AS f FROM ids) s
 WHERE name IS NOT NULL AND NOT bloom_contains(f, name);

-- auto-sizing: the same size as a filter made for the distinct count
SELECT a.bits = e.bits AS same_bits, a.hashes = e.hashes AS same_hashes
  FROM bloom_info((SELECT bloom_agg(id) FROM ids)) a, bloom_info(bloom_empty(100000)) e;
SELECT (SELECT bytes FROM bloom_info((SELECT bloom_agg(id % 5000) FROM ids)))::numeric
     / (SELECT bytes FROM bloom_info(bloom_empty(5000))) <= 1.25 AS within_125pct;

-- no rows: an empty filter, not NULL, with the requested parameters
SELECT capacity, fpr, items, key_type FROM bloom_info((SELECT bloom_agg(id) FROM ids WHERE false));
SELECT capacity, fpr FROM bloom_info((SELECT bloom_agg(id, 0.001) FROM ids WHERE false));
SELECT capacity, fpr FROM bloom_info((SELECT bloom_agg(id, 5000, 0.02) FROM ids WHERE false));
-- only NULL keys: the same
SELECT capacity, fpr, items FROM bloom_info((SELECT bloom_agg(id, 5000, 0.02) FROM ids WHERE id IS NULL));
-- an empty fixed-capacity result still unions with its siblings
SELECT bloom_contains((SELECT bloom_agg(id, 5000, 0.02) FROM ids WHERE false)
                      | (SELECT bloom_agg(id, 5000, 0.02) FROM ids WHERE id < 10), 5) AS unions;

-- bad parameters
SELECT bloom_agg(id, -1, 0.01) FROM ids;
SELECT bloom_agg(id, 0.7) FROM ids;
SELECT bloom_agg(id, NULL::float8) FROM ids;
SELECT bloom_agg(id, 1000, NULL) FROM ids;
SELECT bloom_agg(id, 2000000000, 0.0001) FROM ids;
-- bloom_agg_trans is for aggregates only
SELECT bloom_agg_trans(NULL::bloomfilter, 1::bigint);

-- GROUP BY: one filter per group, each holding its own keys
SELECT grp, bloom_contains(f, grp + 10) AS own, bloom_contains(f, grp + 11) AS neighbour,
       capacity
  FROM (SELECT grp, bloom_agg(id) AS f FROM ids GROUP BY grp) s, bloom_info(f)
 ORDER BY grp;

-- many small groups allocate small states: 100k groups in a hash aggregate
CREATE FUNCTION peak_memory_kb(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
  EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) ' || q INTO plan;
  RETURN (plan -> 0 -> 'Plan' ->> 'Peak Memory Usage')::bigint;
END $$;
SET enable_sort = off;
SET work_mem = '1GB';
SELECT peak_memory_kb('SELECT id % 100000, bloom_agg(id) FROM ids GROUP BY 1') < 100 * 1024 AS under_1kb_per_group;
RESET enable_sort;
RESET work_mem;
SELECT count(*), max(bytes) AS max_bytes FROM
  (SELECT id % 100000 AS k, bloom_agg(id) AS f FROM ids GROUP BY 1) s, bloom_info(f);

-- window use: the final function leaves the state alone
SELECT g, bloom_cardinality(f) AS card, bloom_contains(f, g) AS has_self,
       bloom_contains(f, g + 1) AS has_next
  FROM (SELECT g, bloom_agg(g) OVER (ORDER BY g) AS f FROM generate_series(1, 5) g) s;
SELECT g, bloom_cardinality(bloom_agg(g, 100, 0.01) OVER (ORDER BY g ROWS BETWEEN 1 PRECEDING AND CURRENT ROW))
  FROM generate_series(1, 4) g;

-- two aggregates in one query, and one state shared by two calls
SELECT bloom_info(bloom_agg(id)) = bloom_info(bloom_agg(id)) AS shared,
       (bloom_info(bloom_agg(id, 0.001))).hashes AS h1,
       (bloom_info(bloom_agg(name))).key_type AS k2,
       (bloom_info(bloom_agg(id::int))).key_type AS k3
  FROM ids;

-- every key type has its own aggregate (Citus needs concrete argument types)
SELECT a.oid::regprocedure FROM pg_proc a
 WHERE a.proname = 'bloom_agg' ORDER BY a.oid::regprocedure::text;
SELECT key_type, items FROM bloom_info((SELECT bloom_agg(x::smallint) FROM generate_series(1, 3) x));
SELECT key_type, items FROM bloom_info((SELECT bloom_agg(x::varchar) FROM generate_series(1, 3) x));
SELECT key_type, items FROM bloom_info((SELECT bloom_agg(int4send(x)) FROM generate_series(1, 3) x));
SELECT key_type, items FROM bloom_info((SELECT bloom_agg(md5(x::text)::uuid) FROM generate_series(1, 3) x));
SELECT key_type, items FROM bloom_info((SELECT bloom_agg(x::numeric) FROM generate_series(1, 3) x));

-- a forced parallel plan gives the serial result
ALTER TABLE ids SET (parallel_workers = 2);
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT bloom_agg(id) FROM ids;
CREATE TEMP TABLE par AS
  SELECT bloom_agg(id) AS auto, bloom_agg(id, 200000, 0.01) AS fixed,
         bloom_agg(name) AS txt FROM ids;
RESET max_parallel_workers_per_gather;
SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE ser AS
  SELECT bloom_agg(id) AS auto, bloom_agg(id, 200000, 0.01) AS fixed,
         bloom_agg(name) AS txt FROM ids;
RESET max_parallel_workers_per_gather;
SELECT par.auto = ser.auto AS auto_equal, par.fixed = ser.fixed AS fixed_equal,
       par.txt = ser.txt AS text_equal FROM par, ser;
-- no rows in a parallel plan: the final step cannot see the capacity, so
-- the result is an empty filter of no fixed size, which combines with any
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT bloom_agg(id, 1000, 0.001) FROM ids WHERE id * 2 < 0;
SELECT bloom_contains(f, 5) AS empty_has_5,
       bloom_contains(f | bloom_add(bloom_empty(1000, 0.001), 5), 5) AS unions,
       bloom_contains(bloom_union(bloom_add(bloom_empty(1000, 0.001), 5), f), 5) AS unions_right,
       bloom_contains(f & bloom_add(bloom_empty(1000, 0.001), 5), 5) AS intersects_empty
  FROM (SELECT bloom_agg(id, 1000, 0.001) AS f FROM ids WHERE id * 2 < 0) s;
SELECT get_byte(bloom_agg(id, 1000, 0.001)::bytea, 5) AS kind_hash_list FROM ids WHERE id * 2 < 0;
CREATE TEMP TABLE empties AS SELECT bloom_agg(id, 1000, 0.001) AS f FROM ids WHERE id * 2 < 0;
SELECT (SELECT bloom_union_agg(f) FROM (SELECT f FROM empties
          UNION ALL SELECT bloom_agg(g, 1000, 0.001) FROM generate_series(1, 10) g) s)
     = (SELECT bloom_agg(g, 1000, 0.001) FROM generate_series(1, 10) g) AS union_agg_skips_empty;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
-- an empty window frame is such an empty filter too
SELECT g, bloom_cardinality(f) AS card, bloom_contains(f | bloom_empty(100, 0.01), g - 1) AS has_prev
  FROM (SELECT g, bloom_agg(g, 100, 0.01) OVER (ORDER BY g ROWS BETWEEN 1 PRECEDING AND 1 PRECEDING) AS f
          FROM generate_series(1, 3) g) s;

-- Citus's part, by hand: partial states on separate subsets (as workers
-- would), sent through text and binary I/O, combined, finalised.
CREATE AGGREGATE partial_bloom(bigint) (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
CREATE AGGREGATE partial_bloom(bigint, bigint, double precision)
  (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
CREATE AGGREGATE combine_bloom(bloomfilter)
  (SFUNC = bloom_agg_combine, STYPE = bloomfilter, FINALFUNC = bloom_agg_final);
CREATE TEMP TABLE parts AS
  SELECT id % 3 AS node, partial_bloom(id) AS auto, partial_bloom(id, 200000, 0.01) AS fixed
    FROM ids GROUP BY 1;
-- a partial auto-sized state is a hash list, a fixed one (from 1.5) a
-- light state (kind 7) while its hashes take less room than the filter
SELECT node, get_byte(auto::bytea, 5) AS auto_kind, get_byte(fixed::bytea, 5) AS fixed_kind
  FROM parts ORDER BY node;
-- text I/O
CREATE TEMP TABLE parts_text AS SELECT node, auto::text AS auto, fixed::text AS fixed FROM parts;
-- binary I/O
COPY parts TO '/tmp/bloomtype_parts.bin' WITH (FORMAT binary);
CREATE TEMP TABLE parts_bin (LIKE parts);
COPY parts_bin FROM '/tmp/bloomtype_parts.bin' WITH (FORMAT binary);
SELECT (SELECT combine_bloom(auto::bloomfilter) FROM parts_text) = (SELECT bloom_agg(id) FROM ids) AS auto_text,
       (SELECT combine_bloom(auto) FROM parts_bin) = (SELECT bloom_agg(id) FROM ids) AS auto_binary,
       (SELECT combine_bloom(fixed::bloomfilter) FROM parts_text) = (SELECT bloom_agg(id, 200000, 0.01) FROM ids) AS fixed_text,
       (SELECT combine_bloom(fixed) FROM parts_bin) = (SELECT bloom_agg(id, 200000, 0.01) FROM ids) AS fixed_binary;
-- a partial state is checked on input like any value
SELECT set_byte(auto::bytea, 56, 255)::bloomfilter FROM parts WHERE node = 0;
-- combining an auto-sized state with a fixed one is an error
SELECT combine_bloom(f) FROM (SELECT auto AS f FROM parts WHERE node = 0
                              UNION ALL SELECT fixed FROM parts WHERE node = 1) s;
-- functions accept a partial state as the filter it stands for
SELECT bloom_contains(auto, 3::bigint) AS has_3, bloom_contains(auto, 4::bigint) AS has_4,
       (bloom_info(auto)).capacity
  FROM parts WHERE node = 0;

-- one meaning per value: a hash list with hashes (kind 2) is read by |,
-- bloom_union_agg, bloom_info and bloom_add as the scalable filter of 1.2,
-- and from 1.6 by the lookups too (bloom_contains, its array forms,
-- bloom_cardinality: their _scalable symbols).  The symbols 1.0 to 1.5
-- bind, which a database whose SQL is still on 1.5 calls, read it as a
-- blocked filter, whose false positives differ.
CREATE FUNCTION contains_v10(bloomfilter, bigint) RETURNS boolean
  AS '$libdir/bloomtype', 'bloom_contains_int8' LANGUAGE C IMMUTABLE STRICT;
CREATE FUNCTION contains_each_v10(bloomfilter, anyarray) RETURNS boolean[]
  AS '$libdir/bloomtype', 'bloom_batch_contains_each' LANGUAGE C IMMUTABLE STRICT;
CREATE FUNCTION cardinality_v10(bloomfilter) RETURNS bigint
  AS '$libdir/bloomtype', 'bloom_cardinality' LANGUAGE C IMMUTABLE STRICT;
CREATE TEMP TABLE meaning AS SELECT auto AS h, auto | auto AS u FROM parts WHERE node = 0;
SELECT get_byte(h::bytea, 5) AS kind, get_byte(u::bytea, 5) AS union_kind,
       (SELECT count(*) FROM generate_series(100001, 300000) k
         WHERE contains_v10(h, k) <> bloom_contains(u, k)) > 0 AS v10_differs,
       contains_each_v10(h, ARRAY(SELECT generate_series(100001, 110000)))
         <> bloom_contains_each(u, ARRAY(SELECT generate_series(100001, 110000))) AS each_v10_differs,
       (SELECT count(*) FROM generate_series(100001, 300000) k
         WHERE bloom_contains(h, k) <> bloom_contains(u, k)) AS differs,
       (SELECT count(*) FROM generate_series(1, 100000) k WHERE NOT bloom_contains(h, k) AND k % 3 = 0) AS missing,
       bloom_contains_each(h, ARRAY(SELECT generate_series(100001, 110000)))
         = bloom_contains_each(u, ARRAY(SELECT generate_series(100001, 110000))) AS same_each,
       bloom_contains_any(h, ARRAY[3, 4]) AS has_any, bloom_contains_all(h, ARRAY[3, 6]) AS has_all,
       bloom_cardinality(h) = bloom_cardinality(u) AS same_cardinality,
       cardinality_v10(h) IS NOT NULL AS v10_cardinality
  FROM meaning;
DROP FUNCTION contains_v10(bloomfilter, bigint), contains_each_v10(bloomfilter, anyarray),
  cardinality_v10(bloomfilter);
DROP TABLE meaning;

-- a light state (kind 7) is read from its hashes, never built: every
-- answer, every field of bloom_info, the cardinality and the batch forms
-- are those of the filter its aggregate returns (the same rows, finalised)
CREATE TEMP TABLE light_vs AS
  SELECT p.node, p.fixed AS l,
         (SELECT bloom_agg(id, 200000, 0.01) FROM ids WHERE id % 3 = p.node) AS f
    FROM parts p;
SELECT node, get_byte(l::bytea, 5) AS kind,
       (SELECT count(*) FROM generate_series(-20000, 120000) k
         WHERE bloom_contains(l, k) IS DISTINCT FROM bloom_contains(f, k)) AS answers_differ,
       (SELECT count(*) FROM generate_series(-20000, 120000) k WHERE bloom_contains(l, k)) AS present,
       bloom_info(l) = bloom_info(f) AS same_info,
       bloom_cardinality(l) = bloom_cardinality(f) AS same_cardinality,
       bloom_contains_each(l, ARRAY(SELECT generate_series(-5000, 5000)))
         = bloom_contains_each(f, ARRAY(SELECT generate_series(-5000, 5000))) AS same_each,
       bloom_contains_all(l, ARRAY[3, 6, 9]) AS has_all, bloom_contains_any(l, ARRAY[-1, -2]) AS any_absent
  FROM light_vs ORDER BY node;
-- two light states unite light (their hashes appended: 8 bytes a row) and
-- stand for the filter of both row sets; bloom_union_agg keeps them light
CREATE TEMP TABLE small_light AS
  SELECT id % 2 AS half, partial_bloom(id, 200000, 0.01) AS l FROM ids WHERE id <= 1000 GROUP BY 1;
-- from a table, row by row (a new value each row): the same answers
CREATE TEMP TABLE small_light_vs AS
  SELECT half, l, (SELECT bloom_agg(id, 200000, 0.01) FROM ids WHERE id <= 1000 AND id % 2 = half) AS f
    FROM small_light;
SELECT count(*) FILTER (WHERE bloom_contains(l, k) IS DISTINCT FROM bloom_contains(f, k)) AS differ_per_row,
       count(*) FILTER (WHERE bloom_contains(l, k)) AS present
  FROM small_light_vs, generate_series(1, 2000) k;
SELECT get_byte((a.l | b.l)::bytea, 5) AS union_kind, length((a.l | b.l)::bytea) AS union_bytes,
       bloom_info(a.l | b.l) = bloom_info((SELECT bloom_agg(id, 200000, 0.01) FROM ids WHERE id <= 1000)) AS union_info,
       get_byte((SELECT bloom_union_agg(l) FROM small_light)::bytea, 5) AS union_agg_kind,
       bloom_info((SELECT bloom_union_agg(l) FROM small_light)) = bloom_info(a.l | b.l) AS union_agg_info
  FROM small_light a, small_light b WHERE a.half = 0 AND b.half = 1;
-- past the dense state's size the union is that dense state (kind 3),
-- and reads as the whole filter
SELECT get_byte(u::bytea, 5) AS kind, bloom_info(u) = bloom_info((SELECT bloom_agg(id, 200000, 0.01) FROM ids)) AS whole
  FROM (SELECT bloom_union_agg(l) AS u FROM light_vs) s;
-- a light state with a dense filter, and &: as the filter it stands for
SELECT (bloom_info(l | f)).bits_set = (bloom_info(f)).bits_set AS with_dense,
       bloom_info(l & f) = bloom_info(f & f) AS intersect
  FROM light_vs WHERE node = 2;

-- bloom_union_agg: the union of fixed-capacity filters
SELECT bloom_union_agg(f) = (SELECT bloom_agg(id, 200000, 0.01) FROM ids) AS union_is_whole
  FROM (SELECT grp, bloom_agg(id, 200000, 0.01) AS f FROM ids GROUP BY grp) s;
SELECT bloom_union_agg(f) IS NULL AS no_rows FROM (SELECT bloom_empty(10) AS f WHERE false) s;
SELECT bloom_union_agg(f) = bloom_empty(10) AS nulls_ignored
  FROM (VALUES (bloom_empty(10)), (NULL)) v(f);
-- auto-sized filters differ in capacity and do not combine
SELECT bloom_union_agg(f) FROM (SELECT grp, bloom_agg(id) AS f FROM ids WHERE grp < 2 AND id < 50 GROUP BY grp) s;

DROP TABLE light_vs, small_light, small_light_vs;

-- The transition function remembers the state the last row left and does
-- not validate it again when its address, length and header are the same.
-- A sorted grouping frees a group's state before the next group's, whose
-- copy may take its address and length (small states of equal size): each
-- group's filter and its states must still be those of its own rows alone.
-- A NULL key first leaves a new state the row does not remember
CREATE TEMP TABLE small_groups AS
  SELECT grp, CASE WHEN i = 0 THEN NULL ELSE grp * 100 + i END::bigint AS id
    FROM generate_series(0, 5) grp, generate_series(0, 3) i;
SET enable_hashagg = off;
SELECT grp,
       md5(partial_bloom(id ORDER BY id NULLS FIRST)::text) = (SELECT md5(partial_bloom(b.id)::text) FROM small_groups b WHERE b.grp = a.grp) AS list_alone,
       md5(partial_bloom(id, 5000, 0.01 ORDER BY id NULLS FIRST)::text) = (SELECT md5(partial_bloom(b.id, 5000, 0.01)::text) FROM small_groups b WHERE b.grp = a.grp) AS light_alone,
       md5(bloom_agg(id, 5000, 0.01 ORDER BY id NULLS FIRST)::text) = (SELECT md5(bloom_agg(b.id, 5000, 0.01)::text) FROM small_groups b WHERE b.grp = a.grp) AS fixed_alone,
       md5(bloom_agg(id ORDER BY id NULLS FIRST)::text) = (SELECT md5(bloom_agg(b.id)::text) FROM small_groups b WHERE b.grp = a.grp) AS auto_alone
  FROM small_groups a GROUP BY grp ORDER BY grp;
RESET enable_hashagg;
-- groups of different sizes, dense and light, sorted and hashed
CREATE TEMP TABLE agg_groups AS
  SELECT CASE WHEN g <= 300 THEN 0 WHEN g <= 1000 THEN 1 WHEN g <= 1100 THEN 2 ELSE 3 END AS grp,
         g::bigint * 7 AS id
    FROM generate_series(1, 2500) g;
SET enable_hashagg = off;
SELECT grp, count(*),
       md5(bloom_agg(id, 5000, 0.01)::text) = (SELECT md5(bloom_agg(b.id, 5000, 0.01)::text) FROM agg_groups b WHERE b.grp = a.grp) AS fixed_alone,
       md5(bloom_agg(id)::text) = (SELECT md5(bloom_agg(b.id)::text) FROM agg_groups b WHERE b.grp = a.grp) AS auto_alone
  FROM agg_groups a GROUP BY grp ORDER BY grp;
RESET enable_hashagg;
SET enable_sort = off;
SELECT grp, count(*),
       md5(bloom_agg(id, 5000, 0.01)::text) = (SELECT md5(bloom_agg(b.id, 5000, 0.01)::text) FROM agg_groups b WHERE b.grp = a.grp) AS fixed_alone,
       md5(partial_bloom(id)::text) = (SELECT md5(partial_bloom(b.id)::text) FROM agg_groups b WHERE b.grp = a.grp) AS list_alone
  FROM agg_groups a GROUP BY grp ORDER BY grp;
RESET enable_sort;
DROP TABLE small_groups, agg_groups;

DROP AGGREGATE partial_bloom(bigint);
DROP AGGREGATE partial_bloom(bigint, bigint, double precision);
DROP AGGREGATE combine_bloom(bloomfilter);
DROP FUNCTION peak_memory_kb(text);
DROP TABLE ids;
