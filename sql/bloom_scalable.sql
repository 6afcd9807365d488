-- Scalable filters (version 1.2): growth by layers, the tightening
-- schedule, expansion 0, create on add, bloom_agg filters that keep taking
-- keys, union and intersection, bloom_info's BF.INFO fields, limits, and
-- hostile values of the new kind.  Fixed keys: results are the same on
-- every run.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;

-- 1. Grown to 100x its initial capacity: no false negatives, measured rate
-- at or under the target, at most 2.5x the bits of a filter sized exactly
-- for what it holds (expansion 2, at 1% and 0.1%).  Expansion 1 grows by
-- layers of the same size, 32 at most: 30x here.
CREATE TEMP TABLE grown AS
SELECT fpr, expansion, n,
       bloom_add_all(bloom_empty(1000, fpr, expansion), ARRAY(SELECT generate_series(1, n)::bigint)) AS f
  FROM (VALUES (0.01, 2, 100000), (0.001, 2, 100000), (0.01, 4, 100000), (0.01, 1, 30000)) p(fpr, expansion, n);
SELECT g.fpr, g.expansion, n, layers, capacity, items BETWEEN 0.99 * n AND n AS items_ok,
       (SELECT count(*) FROM generate_series(1, n) k WHERE NOT bloom_contains(f, k)) AS false_negatives,
       (SELECT count(*) FROM generate_series(-1, -1000000, -1) k WHERE bloom_contains(f, k)) / 1e6 <= g.fpr AS measured_at_or_under,
       saturation <= 1 AS saturation_ok
  FROM grown g, bloom_info(f) i ORDER BY g.expansion, g.fpr DESC;
SELECT g.fpr, round(i.bits::numeric / x.bits, 2) AS bits_vs_exact,
       i.bits <= 2.5 * x.bits AS at_most_25
  FROM grown g, bloom_info(g.f) i, bloom_info(bloom_empty(100000, g.fpr, 0)) x
 WHERE g.expansion = 2 ORDER BY g.fpr DESC;
-- the measured rate, for the docs
SELECT fpr, expansion,
       (SELECT count(*) FROM generate_series(-1, -1000000, -1) g WHERE bloom_contains(f, g)) AS false_positives_in_1m
  FROM grown ORDER BY expansion, fpr DESC;

-- 2. One key at a time across statements: layers appear as each fills, the
-- first layer 1000 keys, then 2000, 4000; capacity is the sum (BF.INFO)
CREATE TABLE users_filter (f bloomfilter);
INSERT INTO users_filter VALUES (NULL);
DO $$ BEGIN FOR i IN 1..3500 LOOP UPDATE users_filter SET f = bloom_add(f, i); END LOOP; END $$;
SELECT kind, capacity, fpr, layers, expansion, items, key_type, format_version
  FROM users_filter, bloom_info(f);
SELECT count(*) FILTER (WHERE NOT bloom_contains(f, g)) AS false_negatives FROM users_filter, generate_series(1, 3500) g;
-- adding a key that is there changes nothing
SELECT bloom_add(f, 1) = f AS repeat_is_noop FROM users_filter;

-- 3. The seeds' case: a filter built by bloom_agg, then users register.
-- Keys join it with no ERROR and without raising its rate: it grows.
CREATE TABLE users (id bigint);
INSERT INTO users SELECT generate_series(1, 20000);
CREATE TABLE filters AS
  SELECT 'auto' AS name, bloom_agg(id) AS f FROM users
  UNION ALL SELECT 'fixed', bloom_agg(id, 20000, 0.01) FROM users
  UNION ALL SELECT 'empty', bloom_agg(id) FROM users WHERE false;
SELECT name, kind, capacity, layers, items FROM filters, bloom_info(f) ORDER BY name;
-- 20 registrations of 1,000 users each, as the application would add them
DO $$
BEGIN
  FOR b IN 0..19 LOOP
    UPDATE filters SET f = bloom_add_all(f, ARRAY(SELECT generate_series(20001 + b * 1000, 21000 + b * 1000)::bigint));
  END LOOP;
END $$;
-- ('empty' was built from no rows: it holds the registered users only)
SELECT name, kind, layers,
       items BETWEEN CASE name WHEN 'empty' THEN 19000 ELSE 39000 END AND 40000 AS items_ok,
       (SELECT count(*) FROM generate_series(CASE name WHEN 'empty' THEN 20001 ELSE 1 END, 40000) g
         WHERE NOT bloom_contains(f, g)) AS false_negatives,
       (SELECT count(*) FROM generate_series(-1, -500000, -1) g WHERE bloom_contains(f, g)) / 5e5 <= 0.01 AS measured_at_or_under,
       saturation <= 1 AS saturation_ok
  FROM filters, bloom_info(f) ORDER BY name;

-- 4. expansion 0: fixed, refuses keys past its capacity (BF.RESERVE ...
-- NONSCALING); a key already there is not refused
-- (one of the keys 1..101 is taken for a repeat: 100 are counted)
CREATE TEMP TABLE fixed AS SELECT bloom_add_all(bloom_empty(100, 0.01, 0), ARRAY(SELECT generate_series(1, 101))) AS f;
SELECT kind, capacity, items, layers, expansion FROM fixed, bloom_info(f);
SELECT bloom_add(f, 50) = f AS present_key_ok FROM fixed;
SELECT bloom_contains(f, 1000) AS maybe_present_already FROM fixed;
SELECT bloom_add(f, 1000) FROM fixed;
SELECT bloom_add_all(f, ARRAY[1000, 1001]) FROM fixed;

-- 5. Filters of version 1.0 (kind blocked, format version 1) still take
-- every key, as they did: no growth policy, so expansion is NULL
CREATE OR REPLACE FUNCTION v10_empty(capacity bigint, fpr float8 DEFAULT 0.01)
  RETURNS bloomfilter LANGUAGE sql IMMUTABLE AS $$
  SELECT set_byte(set_byte(bloom_empty(capacity, fpr, 0)::bytea, 4, 1), 14, 0)::bloomfilter
$$;
SELECT kind, items, layers, expansion IS NULL AS no_policy, format_version, saturation > 1 AS saturated
  FROM bloom_info(bloom_add_all(v10_empty(10), ARRAY(SELECT generate_series(1, 100))));

-- 6. Union and intersection of layered filters that share geometry
CREATE TEMP TABLE two AS
SELECT bloom_add_all(bloom_empty(100), ARRAY(SELECT generate_series(1, 700))) AS a,
       bloom_add_all(bloom_empty(100), ARRAY(SELECT generate_series(1001, 1150))) AS b;
SELECT (bloom_info(a)).layers AS a_layers, (bloom_info(b)).layers AS b_layers,
       (bloom_info(a | b)).layers AS union_layers, (bloom_info(a | b)).items AS union_items,
       (bloom_info(b | a)).layers AS commutes,
       (SELECT count(*) FROM generate_series(1, 700) g WHERE NOT bloom_contains(a | b, g)) +
       (SELECT count(*) FROM generate_series(1001, 1150) g WHERE NOT bloom_contains(a | b, g)) AS false_negatives,
       a | b = b | a AS same_bytes
  FROM two;
SELECT (bloom_info(bloom_union_agg(f))).layers, bloom_contains(bloom_union_agg(f), 1150) AS has_b
  FROM two, LATERAL (VALUES (a), (b), (NULL::bloomfilter)) v(f);
-- intersection: one layer each works; grown filters are refused, as a key
-- may sit in different layers of the two
SELECT bloom_contains(x & y, 50) AS both_have_50, bloom_contains(x & y, 10) AS only_x_has_10
  FROM (SELECT bloom_add_all(bloom_empty(100), ARRAY(SELECT generate_series(1, 60))) AS x,
               bloom_add_all(bloom_empty(100), ARRAY(SELECT generate_series(40, 99))) AS y) s;
SELECT a & b FROM two;
-- different geometry: clear errors
SELECT bloom_empty(100) | bloom_empty(100, 0.01, 4);
SELECT bloom_empty(100) | bloom_empty(200);
SELECT bloom_empty(100) | bloom_empty(100, 0.01, 0);
SELECT bloom_empty(100) | v10_empty(100);
SELECT bloom_empty(100, 0.01, 0) & v10_empty(100);
SELECT bloom_add(bloom_empty(100), 1) | bloom_add(bloom_empty(100), 'x'::text);

-- 7. Limits: expansion 1..16, at most 32 layers, rates down to 1e-9
SELECT layers, capacity FROM bloom_info(bloom_add_all(bloom_empty(1, 0.01, 16), ARRAY(SELECT generate_series(1, 300))));
SELECT layers FROM bloom_info(bloom_add_all(bloom_empty(1, 0.01, 1), ARRAY(SELECT generate_series(1, 32))));
SELECT bloom_add_all(bloom_empty(1, 0.01, 1), ARRAY(SELECT generate_series(1, 40)));
-- a first layer so large that the next would not fit in 512 MB: a WARNING
-- when it is made (20M keys at expansion 16: a second layer of 320M)
SELECT (bloom_info(bloom_empty(20000000, 0.01, 16))).layers;
SELECT bloom_empty(10, 1e-9) IS NOT NULL AS smallest_rate_ok;
SELECT bloom_empty(10, 9e-10);
SELECT bloom_empty(10, 0.01, 0) IS NOT NULL, bloom_empty(10, 0.01, 16) IS NOT NULL;
-- named arguments, as the reference writes them
SELECT (bloom_info(bloom_empty(1000, 0.01, expansion => 0))).kind,
       (bloom_info(bloom_empty(capacity => 1000, fpr => 0.001, expansion => 8))).expansion;

-- 8. I/O: text, binary and bytea round trips of a grown filter are exact
SELECT f::text::bloomfilter = f AS text_rt, f::bytea::bloomfilter = f AS bytea_rt,
       length(f::text) = 2 + 2 * (bloom_info(f)).bytes - 8 AS text_is_hex
  FROM users_filter;
COPY (SELECT f FROM users_filter) TO '/tmp/bloomtype_scalable.bin' WITH (FORMAT binary);
CREATE TEMP TABLE back (f bloomfilter);
COPY back FROM '/tmp/bloomtype_scalable.bin' WITH (FORMAT binary);
SELECT b.f = u.f AS binary_copy_rt FROM back b, users_filter u;

-- 9. Hostile values of the scalable kind: every one refused
CREATE TEMP TABLE sbase AS SELECT bloom_add_all(bloom_empty(10), ARRAY(SELECT generate_series(1, 15)))::bytea AS b;
SELECT length(b) AS bytes, get_byte(b, 48) AS layers FROM sbase;
CREATE FUNCTION le64(v numeric) RETURNS bytea LANGUAGE sql AS $$
  SELECT string_agg(set_byte('\x00'::bytea, 0, (div(v, 256::numeric ^ i) % 256)::int), ''::bytea ORDER BY i)
    FROM generate_series(0, 7) i
$$;
CREATE FUNCTION put(b bytea, off int, v bytea) RETURNS bytea LANGUAGE sql AS $$
  SELECT overlay(b PLACING v FROM off + 1 FOR length(v))
$$;
CREATE TEMP TABLE shostile (why text, v bytea);
INSERT INTO shostile SELECT 'truncated to ' || n, substr(b, 1, n) FROM sbase, generate_series(0, 255) n;
INSERT INTO shostile SELECT 'extra byte', b || '\x00'::bytea FROM sbase;
INSERT INTO shostile SELECT 'version ' || n, set_byte(b, 4, n) FROM sbase, unnest(ARRAY[0, 1, 3]) n;
INSERT INTO shostile SELECT 'k ' || n, set_byte(b, 12, n) FROM sbase, unnest(ARRAY[1, 7]) n;
INSERT INTO shostile SELECT 'block log ' || n, set_byte(b, 13, n) FROM sbase, unnest(ARRAY[0, 8, 10]) n;
INSERT INTO shostile SELECT 'flags ' || n, set_byte(b, 14, n) FROM sbase, unnest(ARRAY[1, 2]) n;
INSERT INTO shostile SELECT 'capacity ' || n, put(b, 24, le64(n)) FROM sbase, unnest(ARRAY[0, 9, 11, 18446744073709551615::numeric]) n;
INSERT INTO shostile SELECT 'fpr bits ' || n, put(b, 32, le64(n)) FROM sbase, unnest(ARRAY[0, 4457293557087583675, 4602678819172646912 + 1, 9218868437227405312]) n;
-- (1e-10, just above 0.5, infinity)
INSERT INTO shostile SELECT 'items ' || n, put(b, 40, le64(n)) FROM sbase, unnest(ARRAY[0, 14, 16, 18446744073709551615::numeric]) n;
INSERT INTO shostile SELECT 'layers ' || n, put(b, 48, le64(n)) FROM sbase, unnest(ARRAY[0, 1, 3, 32, 33, 18446744073709551615::numeric]) n;
INSERT INTO shostile SELECT 'expansion ' || n, put(b, 56, le64(n)) FROM sbase, unnest(ARRAY[0, 1, 3, 17, 18446744073709551615::numeric]) n;
INSERT INTO shostile SELECT 'layer ' || l || ' blocks ' || n, put(b, 64 + 32 * l, le64(n)) FROM sbase,
  unnest(ARRAY[0, 1]) l, unnest(ARRAY[0, 2, 3, 8388591, 18446744073709551615::numeric]) n;
INSERT INTO shostile SELECT 'layer ' || l || ' capacity ' || n, put(b, 72 + 32 * l, le64(n)) FROM sbase,
  unnest(ARRAY[0, 1]) l, unnest(ARRAY[0, 1, 19, 21, 10000, 18446744073709551615::numeric]) n;
INSERT INTO shostile SELECT 'layer ' || l || ' items ' || n, put(b, 80 + 32 * l, le64(n)) FROM sbase,
  unnest(ARRAY[0, 1]) l, unnest(ARRAY[0, 6, 18446744073709551615::numeric]) n;
INSERT INTO shostile SELECT 'layer ' || l || ' k ' || n, set_byte(b, 88 + 32 * l, n) FROM sbase,
  unnest(ARRAY[0, 1]) l, unnest(ARRAY[0, 33, 255]) n;
INSERT INTO shostile SELECT 'layer ' || l || ' reserved ' || n, set_byte(b, 89 + 32 * l + n, 1) FROM sbase,
  unnest(ARRAY[0, 1]) l, generate_series(0, 6) n;
-- a layer's capacity and items changed together, still consistent counts
INSERT INTO shostile SELECT 'second layer doubled', put(put(b, 104, le64(40)), 40, le64(35)) FROM sbase;
CREATE FUNCTION try_bloom(v bytea) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  PERFORM v::bloomfilter;
  RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE;
END $$;
SELECT try_bloom(v) AS outcome, count(*) FROM shostile GROUP BY 1 ORDER BY 1;
SELECT why FROM shostile WHERE try_bloom(v) = 'accepted' ORDER BY why;
-- the same value unharmed is accepted, and the backend is alive
SELECT try_bloom(b) FROM sbase;

-- 10. Hand-made aggregates over the support functions: a scalable or fixed
-- filter as the initial state is added to by its own rule (it grows, or
-- refuses); combining scalable states unites them
CREATE FUNCTION make_agg(init bloomfilter, name text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE AGGREGATE %I(bigint) (SFUNC = bloom_agg_trans, STYPE = bloomfilter, INITCOND = %L)',
                 name, init::text);
END $$;
SELECT make_agg(bloom_empty(2), 'grow_from'), make_agg(bloom_empty(2, 0.01, 0), 'fixed_from');
SELECT layers, items, (SELECT count(*) FROM generate_series(1, 100) g WHERE NOT bloom_contains(f, g)) AS false_negatives
  FROM (SELECT grow_from(g) AS f FROM generate_series(1, 100) g) s, bloom_info(f);
SELECT fixed_from(g) FROM generate_series(1, 3) g;
CREATE AGGREGATE unite_states(bloomfilter) (SFUNC = bloom_agg_combine, STYPE = bloomfilter);
SELECT layers, (SELECT count(*) FROM generate_series(1, 700) g WHERE NOT bloom_contains(u, g)) AS false_negatives
  FROM (SELECT unite_states(f) AS u FROM (SELECT a AS f FROM two UNION ALL SELECT b FROM two) s) s, bloom_info(u);
SELECT unite_states(f) FROM (VALUES (bloom_empty(100)), (bloom_empty(100, 0.01, 0))) v(f);
DROP AGGREGATE grow_from(bigint), fixed_from(bigint), unite_states(bloomfilter);
DROP FUNCTION make_agg(bloomfilter, text);

-- 11. bloom_agg refuses rates under 1e-9 (a scalable filter has no room
-- for later layers there) when it starts, not when keys are added later;
-- a fixed-capacity bloom_agg over repeated keys counts the distinct ones,
-- so its layer is not taken for full
SELECT bloom_agg(g::bigint, 1e-10) FROM generate_series(1, 100) g;
SELECT bloom_agg(g::bigint, 1e-10) FROM generate_series(1, 0) g;
SELECT bloom_agg(g::bigint, 100, 1e-10) FROM generate_series(1, 100) g;
SELECT bloom_agg(g::bigint, 1e-9) IS NOT NULL AS smallest_rate_ok FROM generate_series(1, 100) g;
SELECT items BETWEEN 100 AND 110 AS items_distinct, layers
  FROM bloom_info((SELECT bloom_agg((g % 100)::bigint, 1000, 0.01) FROM generate_series(1, 2000) g));

DROP TABLE users_filter, users, filters;
DROP FUNCTION v10_empty(bigint, float8), le64(numeric), put(bytea, int, bytea), try_bloom(bytea);
