-- Test vectors for client readers (clients/, docs/FORMAT.md): filters of
-- every kind a client may receive, built by the extension, with keys of
-- their class and the server's answers.  Run by scripts/vectors.sh, which
-- writes test/vectors/filters.json from the two tables this leaves behind.
-- Every filter is made by a fixed query, so the output is the same on every
-- run and machine.
SET client_min_messages = warning;
DROP TABLE IF EXISTS vec_filter, vec_probe, vec_since;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;

CREATE TABLE vec_filter (ord serial, name text PRIMARY KEY, type text, why text, f bytea);
-- a probe: a key of the filter's class (as text: see key_text), and the
-- server's answer
CREATE TABLE vec_probe (name text, ord int, key_class text, key_text text, expect bool);
-- a windowed filter's answers since a time (microseconds from 1970-01-01
-- UTC) for the same keys, in the same order
CREATE TABLE vec_since (name text, since bigint, ord int, expect bool);

-- The text a reader parses back into a key: integers in decimal, text as
-- is, bytea and the IEEE 754 bits of a float (big-endian) in hex, uuids in
-- their canonical form, and for keys of class "other" the 64-bit hash
-- (bloom_key_hash) in decimal.
CREATE FUNCTION pg_temp.ftext(d float8) RETURNS text LANGUAGE sql IMMUTABLE AS
  $$ SELECT encode(float8send(d), 'hex') $$;

-- partial aggregate states as values (what crosses parallel workers and
-- Citus nodes): kind 3 (1.2's fixed-capacity state), kind 7 (1.5's light
-- state) and kind 8 (1.5's light counting state)
CREATE AGGREGATE pg_temp.state_fixed(bigint, bigint, float8) (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
CREATE FUNCTION pg_temp.dense_trans(bloomfilter, bigint, bigint, float8) RETURNS bloomfilter
  AS '$libdir/bloomtype', 'bloom_agg_trans_int8' LANGUAGE C IMMUTABLE;
CREATE AGGREGATE pg_temp.state_dense(bigint, bigint, float8) (SFUNC = pg_temp.dense_trans, STYPE = bloomfilter);
CREATE AGGREGATE pg_temp.state_counting(bigint, bigint, float8) (SFUNC = counting_agg_trans, STYPE = countingbloom);

-- 1. blocked filters (kind 1), one per key class, at a high rate so that
--    the absent keys include false positives
INSERT INTO vec_filter (name, type, why, f) VALUES
  ('bloom_int', 'bloomfilter', 'bloom_empty(200, 0.2, 0) and 200 keys: kind 1, version 2, fixed',
   bloom_add_all(bloom_empty(200, 0.2, 0), (SELECT array_agg(g::bigint) FROM generate_series(1, 200) g))::bytea),
  ('bloom_int_agg', 'bloomfilter', 'bloom_agg(bigint, 200, 0.2): a scalable filter of one layer (kind 4)',
   (SELECT bloom_agg(g::bigint, 200, 0.2) FROM generate_series(1, 200) g)::bytea),
  ('bloom_int_auto', 'bloomfilter', 'bloom_agg(int): sized for its distinct keys (kind 4, one layer)',
   (SELECT bloom_agg(g * 37 - 2000) FROM generate_series(1, 300) g)::bytea),
  ('bloom_text', 'bloomfilter', 'a fixed filter of text keys, with non-ASCII and empty keys',
   (SELECT bloom_add_all(bloom_empty(150, 0.3, 0), array_agg(t)) FROM (SELECT 'k' || g AS t FROM generate_series(1, 120) g
      UNION ALL VALUES (''), ('ключ'), ('日本語'), ('🙂 emoji'), (E'tab\there')) x)::bytea),
  ('bloom_bytea', 'bloomfilter', 'bloom_agg(bytea, 150, 0.3), with an empty key',
   (SELECT bloom_agg(b, 150, 0.3) FROM (SELECT int8send(g) AS b FROM generate_series(1, 120) g
      UNION ALL VALUES (''::bytea), ('\x00'::bytea), ('\xdeadbeef'::bytea)) x)::bytea),
  ('bloom_uuid', 'bloomfilter', 'bloom_agg(uuid, 150, 0.3)',
   (SELECT bloom_agg(md5(g::text)::uuid, 150, 0.3) FROM generate_series(1, 120) g)::bytea),
  ('bloom_float', 'bloomfilter', 'bloom_agg(float8, 150, 0.3), with -0, NaN, infinities and a real',
   (SELECT bloom_agg(d, 150, 0.3) FROM (SELECT g / 7.0::float8 AS d FROM generate_series(-60, 60) g
      UNION ALL VALUES ('-0'::float8), ('NaN'), ('Infinity'), ('-Infinity'), (1e308), (5e-324),
                       (0.1::real::float8)) x)::bytea),
  ('bloom_text_seeded', 'bloomfilter', 'a fixed filter with seed 0x2a5a000000000007 (a value made elsewhere)',
   bloom_add_all(overlay(bloom_empty(100, 0.25, 0)::bytea PLACING '\x0700000000005a2a'::bytea FROM 17 FOR 8)::bloomfilter,
                 (SELECT array_agg('s' || g) FROM generate_series(1, 80) g))::bytea),
  ('bloom_v1', 'bloomfilter', 'version 1 (as bloomtype 1.0 and 1.1 wrote): no flags, adds past the capacity',
   bloom_add_all(set_byte(set_byte(bloom_empty(50, 0.2, 0)::bytea, 4, 1), 14, 0)::bloomfilter,
                 (SELECT array_agg(g::bigint) FROM generate_series(1, 120) g))::bytea);

-- 2. scalable filters (kind 4), grown to several layers
INSERT INTO vec_filter (name, type, why, f) VALUES
  ('scalable_int', 'bloomfilter', 'bloom_empty(20, 0.2) grown by 300 keys (expansion 2)',
   bloom_add_all(bloom_empty(20, 0.2), (SELECT array_agg(g::bigint) FROM generate_series(1, 300) g))::bytea),
  ('scalable_text_x4', 'bloomfilter', 'bloom_empty(10, 0.1, 4) grown by 400 keys',
   bloom_add_all(bloom_empty(10, 0.1, 4), (SELECT array_agg('x' || g) FROM generate_series(1, 400) g))::bytea),
  ('scalable_empty', 'bloomfilter', 'bloom_empty(100): no key class yet, every key is absent',
   bloom_empty(100)::bytea);

-- 3. aggregate states a client may be handed
INSERT INTO vec_filter (name, type, why, f) VALUES
  ('agg_empty', 'bloomfilter', 'bloom_agg over no rows: the empty hash list (kind 2), every key is absent',
   (SELECT bloom_agg(g::bigint) FROM generate_series(1, 0) g)::bytea),
  ('state_pending', 'bloomfilter', 'a fixed-capacity partial state with bits and pending hashes (kind 3)',
   (SELECT pg_temp.state_dense(g::bigint, 600, 0.2) FROM generate_series(1, 300) g)::bytea),
  ('state_pending_flagged', 'bloomfilter', 'a light state grown into kind 3, planned as a first layer (flag 2)',
   (SELECT pg_temp.state_fixed(g::bigint, 600, 0.2) FROM generate_series(1, 600) g)::bytea),
  ('state_light', 'bloomfilter', 'a light partial state (kind 7)',
   (SELECT pg_temp.state_fixed(g::bigint, 2000, 0.2) FROM generate_series(1, 100) g)::bytea);

-- 4. counting Bloom filters (kind 5 and the light state, kind 8)
INSERT INTO vec_filter (name, type, why, f) VALUES
  ('counting_int', 'countingbloom', 'counting_agg(bigint, 200, 0.2), then 50 keys removed',
   counting_remove_all((SELECT counting_agg(g::bigint, 200, 0.2) FROM generate_series(1, 200) g),
                       (SELECT array_agg(g::bigint) FROM generate_series(1, 50) g))::bytea),
  ('counting_text_auto', 'countingbloom', 'counting_agg(text) sized for its keys',
   (SELECT counting_agg('c' || (g % 90)) FROM generate_series(1, 200) g)::bytea),
  ('counting_light', 'countingbloom', 'a light partial counting state (kind 8)',
   (SELECT pg_temp.state_counting(g::bigint, 1000, 0.2) FROM generate_series(1, 60) g)::bytea),
  ('counting_empty', 'countingbloom', 'counting_empty(10): no key class yet',
   counting_empty(10)::bytea);

-- 5. cuckoo filters (kind 6)
INSERT INTO vec_filter (name, type, why, f) VALUES
  ('cuckoo_int', 'cuckoofilter', 'cuckoo_agg(bigint, 50, 0.1): grown to several sub-filters',
   (SELECT cuckoo_agg(g::bigint, 50, 0.1) FROM generate_series(1, 400) g)::bytea),
  ('cuckoo_text_b2_x4', 'cuckoofilter', 'cuckoo_empty(30, 0.05, 2, 500, 4) grown, some keys removed',
   cuckoo_remove_all(cuckoo_add_all(cuckoo_empty(30, 0.05, 2, 500, 4),
                                    (SELECT array_agg('t' || g) FROM generate_series(1, 300) g)),
                     (SELECT array_agg('t' || g) FROM generate_series(1, 40) g))::bytea),
  ('cuckoo_uuid_b8_fixed', 'cuckoofilter', 'cuckoo_empty(300, 0.3, 8, 500, 0): fixed, 8 slots a bucket',
   cuckoo_add_all(cuckoo_empty(300, 0.3, 8, 500, 0),
                  (SELECT array_agg(md5(g::text)::uuid) FROM generate_series(1, 250) g))::bytea),
  ('cuckoo_float_compacted', 'cuckoofilter', 'cuckoo_compact of a grown filter with removes',
   cuckoo_compact(cuckoo_remove_all(cuckoo_add_all(cuckoo_empty(20, 0.01),
                  (SELECT array_agg(g / 3.0::float8) FROM generate_series(1, 200) g)),
                  (SELECT array_agg(g / 3.0::float8) FROM generate_series(1, 150) g)))::bytea);

-- 6. a filter of keys of class "other" (dates): readers probe by hash
INSERT INTO vec_filter (name, type, why, f) VALUES
  ('bloom_other_date', 'bloomfilter', 'bloom_agg(date, 100, 0.2): class other, probed by bloom_key_hash',
   (SELECT bloom_agg('2020-01-01'::date + g, 100, 0.2) FROM generate_series(1, 80) g)::bytea);

-- 7. windowed filters (kind 9, version 5, 1.7): keys 1..n added at hour
--    g % hours from 2026-11-01 00:00 UTC (or from 1969-12-31 20:00 UTC,
--    slices before 1970), one bloom_add_all an hour in order; the window
--    keeps the newest slices
CREATE FUNCTION pg_temp.windowed(f bloomfilter, n int, hours int, t0 timestamptz, text_keys bool)
  RETURNS bytea LANGUAGE plpgsql AS $$
BEGIN
  FOR h IN 0 .. hours - 1 LOOP
    IF text_keys THEN
      f := bloom_add_all(f, (SELECT array_agg('w' || g) FROM generate_series(1, n) g WHERE g % hours = h),
                         t0 + make_interval(hours => h));
    ELSE
      f := bloom_add_all(f, (SELECT array_agg(g::bigint) FROM generate_series(1, n) g WHERE g % hours = h),
                         t0 + make_interval(hours => h));
    END IF;
  END LOOP;
  RETURN f::bytea;
END $$;
INSERT INTO vec_filter (name, type, why, f) VALUES
  ('window_int', 'bloomfilter', 'bloom_window(100, 0.5, 1 hour, 4), keys 1..1000 over 10 hours: kind 9, slices 5 to 9 kept',
   pg_temp.windowed(bloom_window(100, 0.5, '1 hour', 4), 1000, 10, '2026-11-01 00:00+00', false)),
  ('window_text_1969', 'bloomfilter', 'bloom_window(50, 0.5, 90 minutes, 2), text keys over 6 hours from 1969-12-31 20:00 UTC: negative slice numbers',
   pg_temp.windowed(bloom_window(50, 0.5, '90 minutes', 2), 600, 6, '1969-12-31 20:00+00', true)),
  ('window_empty', 'bloomfilter', 'bloom_window(100, 0.01, 1 day, 7): no time yet, no slice',
   bloom_window(100, 0.01, '1 day', 7)::bytea),
  ('window_expired', 'bloomfilter', 'window_int expired a day later: no slice, the newest moved',
   bloom_expire(pg_temp.windowed(bloom_window(100, 0.5, '1 hour', 4), 1000, 10, '2026-11-01 00:00+00', false)::bloomfilter,
                '2026-11-02 00:00+00')::bytea);

-- the probes: keys the filter holds and keys it does not
CREATE FUNCTION pg_temp.probe_int(n text, keys bigint[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE t text; fb bytea;
BEGIN
  SELECT type, f INTO t, fb FROM vec_filter WHERE name = n;
  INSERT INTO vec_probe SELECT n, o, 'int', k::text,
    CASE t WHEN 'bloomfilter' THEN bloom_contains(fb::bloomfilter, k)
           WHEN 'countingbloom' THEN counting_contains(fb::countingbloom, k)
           ELSE cuckoo_contains(fb::cuckoofilter, k) END
    FROM unnest(keys) WITH ORDINALITY u(k, o);
END $$;
CREATE FUNCTION pg_temp.probe_text(n text, keys text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE t text; fb bytea;
BEGIN
  SELECT type, f INTO t, fb FROM vec_filter WHERE name = n;
  INSERT INTO vec_probe SELECT n, o, 'text', k,
    CASE t WHEN 'bloomfilter' THEN bloom_contains(fb::bloomfilter, k)
           WHEN 'countingbloom' THEN counting_contains(fb::countingbloom, k)
           ELSE cuckoo_contains(fb::cuckoofilter, k) END
    FROM unnest(keys) WITH ORDINALITY u(k, o);
END $$;
CREATE FUNCTION pg_temp.probe_bytea(n text, keys bytea[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO vec_probe SELECT n, o, 'bytea', encode(k, 'hex'),
    bloom_contains((SELECT f FROM vec_filter WHERE name = n)::bloomfilter, k)
    FROM unnest(keys) WITH ORDINALITY u(k, o);
END $$;
CREATE FUNCTION pg_temp.probe_uuid(n text, keys uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE t text; fb bytea;
BEGIN
  SELECT type, f INTO t, fb FROM vec_filter WHERE name = n;
  INSERT INTO vec_probe SELECT n, o, 'uuid', k::text,
    CASE t WHEN 'bloomfilter' THEN bloom_contains(fb::bloomfilter, k)
           ELSE cuckoo_contains(fb::cuckoofilter, k) END
    FROM unnest(keys) WITH ORDINALITY u(k, o);
END $$;
CREATE FUNCTION pg_temp.probe_float(n text, keys float8[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE t text; fb bytea;
BEGIN
  SELECT type, f INTO t, fb FROM vec_filter WHERE name = n;
  INSERT INTO vec_probe SELECT n, o, 'float', pg_temp.ftext(k),
    CASE t WHEN 'bloomfilter' THEN bloom_contains(fb::bloomfilter, k)
           ELSE cuckoo_contains(fb::cuckoofilter, k) END
    FROM unnest(keys) WITH ORDINALITY u(k, o);
END $$;

SELECT pg_temp.probe_int(n, ARRAY(SELECT g::bigint FROM generate_series(-50, 450) g)
                            || ARRAY[-9223372036854775808, 9223372036854775807, 4294967296, -4294967296]::bigint[])
  FROM unnest(ARRAY['bloom_int', 'bloom_int_agg', 'state_pending_flagged', 'bloom_v1', 'scalable_int', 'agg_empty', 'scalable_empty',
                    'state_pending', 'state_light', 'counting_int', 'counting_light',
                    'counting_empty', 'cuckoo_int']) n;
SELECT pg_temp.probe_int('bloom_int_auto', ARRAY(SELECT (g * 37 - 2000)::bigint FROM generate_series(-100, 400) g));
SELECT pg_temp.probe_text(n, ARRAY(SELECT p || g FROM generate_series(1, 250) g, unnest(ARRAY['k', 's', 'x', 'c', 't']) p)
                             || ARRAY['', 'ключ', 'ключи', '日本語', '🙂 emoji', E'tab\there', 'K1', 'k1 '])
  FROM unnest(ARRAY['bloom_text', 'bloom_text_seeded', 'scalable_text_x4', 'counting_text_auto',
                    'cuckoo_text_b2_x4', 'scalable_empty', 'agg_empty']) n;
SELECT pg_temp.probe_bytea('bloom_bytea', ARRAY(SELECT int8send(g) FROM generate_series(1, 300) g)
                                          || ARRAY['', '\x00', '\x0000', '\xdeadbeef', '\xdeadbe']::bytea[]);
SELECT pg_temp.probe_uuid(n, ARRAY(SELECT md5(g::text)::uuid FROM generate_series(1, 400) g)
                             || ARRAY['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff']::uuid[])
  FROM unnest(ARRAY['bloom_uuid', 'cuckoo_uuid_b8_fixed']) n;
SELECT pg_temp.probe_float(n, ARRAY(SELECT g / 7.0::float8 FROM generate_series(-100, 100) g)
                              || ARRAY(SELECT g / 3.0::float8 FROM generate_series(1, 250) g)
                              || ARRAY['-0', '0', 'NaN', '-NaN', 'Infinity', '-Infinity', 1e308, 5e-324,
                                       0.1::real::float8, 0.1, 1, -1]::float8[])
  FROM unnest(ARRAY['bloom_float', 'cuckoo_float_compacted']) n;
INSERT INTO vec_probe
  SELECT 'bloom_other_date', o, 'hash', bloom_key_hash(d)::text,
         bloom_contains((SELECT f FROM vec_filter WHERE name = 'bloom_other_date')::bloomfilter, d)
    FROM unnest(ARRAY(SELECT '2020-01-01'::date + g FROM generate_series(-50, 200) g)) WITH ORDINALITY u(d, o);

SELECT pg_temp.probe_int(n, ARRAY(SELECT g::bigint FROM generate_series(-50, 1100) g))
  FROM unnest(ARRAY['window_int', 'window_empty', 'window_expired']) n;
SELECT pg_temp.probe_text('window_text_1969', ARRAY(SELECT 'w' || g FROM generate_series(-50, 700) g));
-- since a time: each slice boundary of the window, one inside a slice, and
-- before and after every slice
INSERT INTO vec_since
  SELECT p.name, s.since, p.ord,
         CASE p.key_class WHEN 'int' THEN bloom_contains(f.f::bloomfilter, p.key_text::bigint, s.t)
                          ELSE bloom_contains(f.f::bloomfilter, p.key_text, s.t) END
    FROM vec_probe p JOIN vec_filter f USING (name),
         LATERAL (SELECT t, (extract(epoch FROM t) * 1000000)::bigint AS since
                    FROM unnest(CASE p.name WHEN 'window_text_1969' THEN
                                  ARRAY['1969-12-31 18:00+00', '1969-12-31 22:59:59.999999+00', '1969-12-31 23:00+00',
                                        '1970-01-01 00:00+00', '1970-01-01 00:30+00', '1970-01-01 03:00+00']::timestamptz[]
                                ELSE
                                  ARRAY['2026-10-31 00:00+00', '2026-11-01 05:00+00', '2026-11-01 06:59:59.999999+00',
                                        '2026-11-01 07:00+00', '2026-11-01 09:30+00', '2026-11-01 10:00+00']::timestamptz[]
                                END) t) s
   WHERE p.name LIKE 'window%';

-- every filter has probes, some present and some absent
SELECT name FROM vec_filter f
 WHERE NOT EXISTS (SELECT 1 FROM vec_probe p WHERE p.name = f.name);
