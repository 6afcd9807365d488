-- Hostile values: hundreds of malformed values through text input, binary
-- receive (binary COPY) and the bytea cast.  Every one must be refused with
-- an ERROR, and the backend must stay up; but for four valid values that
-- describe far more than they hold, which every door accepts and every
-- read answers at the cost of what they hold (section 8).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;

-- What bloom_empty made in version 1.0 (a blocked filter of format
-- version 1, which takes keys past its capacity): the 1.2 fixed filter of
-- the same geometry without its version-2 flag.
CREATE OR REPLACE FUNCTION v10_empty(capacity bigint, fpr float8 DEFAULT 0.01)
  RETURNS bloomfilter LANGUAGE sql IMMUTABLE AS $$
  SELECT set_byte(set_byte(bloom_empty(capacity, fpr, 0)::bytea, 4, 1), 14, 0)::bloomfilter
$$;

CREATE AGGREGATE hostile_partial(bigint) (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
-- the fixed-capacity transition of version 1.0 (1.2 plans a scalable layer)
CREATE FUNCTION v10_trans(bloomfilter, bigint, bigint, float8) RETURNS bloomfilter
  AS '$libdir/bloomtype', 'bloom_agg_trans_int8' LANGUAGE C IMMUTABLE;
CREATE AGGREGATE hostile_partial(bigint, bigint, float8) (SFUNC = v10_trans, STYPE = bloomfilter);
CREATE TABLE hostile (id serial, why text, v bytea);

-- the bases: a one-block filter holding keys, and partial aggregate states
-- (a hash list, and a filter with pending hashes)
CREATE TEMP TABLE base AS
  SELECT bloom_add(bloom_add(v10_empty(1), 1), 2)::bytea AS b,
         (SELECT hostile_partial(g) FROM generate_series(1, 3) g)::bytea AS s,
         (SELECT hostile_partial(g, 1, 0.01) FROM generate_series(1, 3) g)::bytea AS p;
SELECT length(b) AS filter_bytes, length(s) AS state_bytes, length(p) AS pending_bytes,
       get_byte(p, 56) AS pending FROM base;

CREATE FUNCTION le64(v numeric) RETURNS bytea LANGUAGE sql AS $$
  SELECT string_agg(set_byte('\x00'::bytea, 0, (div(v, 256::numeric ^ i) % 256)::int), ''::bytea ORDER BY i)
    FROM generate_series(0, 7) i
$$;
CREATE FUNCTION put(b bytea, off int, v bytea) RETURNS bytea LANGUAGE sql AS $$
  SELECT overlay(b PLACING v FROM off + 1 FOR length(v))
$$;
CREATE FUNCTION le_double(d float8) RETURNS bytea LANGUAGE sql AS $$
  -- float8send is big-endian; the format is little-endian
  SELECT string_agg(substr(float8send(d), 9 - i, 1), ''::bytea ORDER BY i) FROM generate_series(1, 8) i
$$;
-- the helpers write what the format says: a valid value stays valid
SELECT put(b, 32, le_double(0.01))::bloomfilter = b::bloomfilter AS le_double_ok,
       put(b, 48, le64(1))::bloomfilter = b::bloomfilter AS le64_ok
  FROM base;

-- 1. truncated at every byte, header boundaries included
INSERT INTO hostile (why, v) SELECT 'truncated to ' || n, substr(b, 1, n) FROM base, generate_series(0, 127) n;
INSERT INTO hostile (why, v) SELECT 'state truncated to ' || n, substr(s, 1, n)
  FROM base, generate_series(0, 64 + 7, 8) n;
-- 2. lengths that lie
INSERT INTO hostile (why, v) SELECT 'extra byte', b || '\x00'::bytea FROM base;
INSERT INTO hostile (why, v) SELECT 'extra block', b || substr(b, 65) FROM base;
INSERT INTO hostile (why, v) SELECT 'blocks ' || n, put(b, 48, le64(n)) FROM base,
  unnest(ARRAY[0, 2, 3, 1000, 8388591, 8388592, 16777216, 4294967296, 9223372036854775807::numeric,
               18446744073709551615::numeric]) n;
INSERT INTO hostile (why, v) SELECT 'state slots ' || n, put(s, 48, le64(n)) FROM base,
  unnest(ARRAY[0, 1, 2, 7, 9, 67108864, 9223372036854775807::numeric]) n;
INSERT INTO hostile (why, v) SELECT 'state in use ' || n, put(s, 56, le64(n)) FROM base,
  unnest(ARRAY[9, 1000, 18446744073709551615::numeric]) n;
INSERT INTO hostile (why, v) SELECT 'pending ' || n, put(p, 56, le64(n)) FROM base,
  unnest(ARRAY[4, 257, 1000, 18446744073709551615::numeric]) n;
INSERT INTO hostile (why, v) SELECT 'pending state truncated to ' || n, substr(p, 1, n)
  FROM base, unnest(ARRAY[128, 129, 2000, 2175]) n;
INSERT INTO hostile (why, v) SELECT 'pending state k 0', set_byte(p, 12, 0) FROM base;
INSERT INTO hostile (why, v) SELECT 'state capacity ' || n, put(s, 24, le64(n)) FROM base,
  unnest(ARRAY[1, 1000, 18446744073709551615::numeric]) n;
INSERT INTO hostile (why, v) SELECT 'state items ' || n, put(s, 40, le64(n)) FROM base,
  unnest(ARRAY[0, 1, 2]) n;
-- 3. each header field out of range
INSERT INTO hostile (why, v) SELECT 'version ' || n, set_byte(b, 4, n) FROM base, unnest(ARRAY[0, 2, 3, 255]) n;
INSERT INTO hostile (why, v) SELECT 'kind ' || n, set_byte(b, 5, n) FROM base, unnest(ARRAY[0, 3, 4, 255]) n;
INSERT INTO hostile (why, v) SELECT 'kind 2 on filter bits', set_byte(b, 5, 2) FROM base;
INSERT INTO hostile (why, v) SELECT 'kind 1 on a state', set_byte(s, 5, 1) FROM base;
INSERT INTO hostile (why, v) SELECT 'hash ' || n, set_byte(b, 6, n) FROM base, unnest(ARRAY[0, 2, 255]) n;
INSERT INTO hostile (why, v) SELECT 'key class ' || n, set_byte(b, 7, n) FROM base, unnest(ARRAY[6, 7, 128, 255]) n;
INSERT INTO hostile (why, v) SELECT 'key type without class other', set_byte(b, 8, 23) FROM base;
INSERT INTO hostile (why, v) SELECT 'k ' || n, set_byte(b, 12, n) FROM base, unnest(ARRAY[0, 33, 64, 255]) n;
INSERT INTO hostile (why, v) SELECT 'state k 1', set_byte(s, 12, 1) FROM base;
INSERT INTO hostile (why, v) SELECT 'block log2 ' || n, set_byte(b, 13, n) FROM base, unnest(ARRAY[0, 6, 8, 10, 255]) n;
INSERT INTO hostile (why, v) SELECT 'state block log2 9', set_byte(s, 13, 9) FROM base;
INSERT INTO hostile (why, v) SELECT 'capacity ' || n, put(b, 24, le64(n)) FROM base,
  unnest(ARRAY[0, 513, 18446744073709551615::numeric]) n;
INSERT INTO hostile (why, v) SELECT 'fpr ' || d, put(b, 32, le_double(d)) FROM base,
  unnest(ARRAY[0, '-0'::float8, -0.01, 0.5000001, 0.6, 1, 1e-13, 'NaN', 'Infinity', '-Infinity']) d;
INSERT INTO hostile (why, v) SELECT 'state fpr ' || d, put(s, 32, le_double(d)) FROM base,
  unnest(ARRAY[0, 2, 'NaN'::float8]) d;
INSERT INTO hostile (why, v) SELECT 'reserved ' || n, set_byte(b, n, 1) FROM base, generate_series(56, 63) n;
-- 4. bit flips that must be caught: magic, version, kind, hash, block size,
--    flags, reserved bytes and the block count
INSERT INTO hostile (why, v)
  SELECT 'flip byte ' || byte || ' bit ' || bit, set_bit(b, byte * 8 + bit, 1 - get_bit(b, byte * 8 + bit))
    FROM base, unnest(ARRAY[0, 1, 2, 3, 4, 5, 6, 13, 14, 15, 48, 49, 50, 51, 52, 53, 54, 55,
                            56, 57, 58, 59, 60, 61, 62, 63]) byte, generate_series(0, 7) bit;
-- 5. not a filter at all
INSERT INTO hostile (why, v) VALUES ('empty', ''), ('text', convert_to('hello, world', 'UTF8')),
  ('zeros', decode(repeat('00', 128), 'hex')), ('magic only', 'BLMF'::bytea),
  ('a bytea', decode(repeat('ff', 200), 'hex'));
-- 6. values of bloomtype's other types (format version 3): counting and
--    cuckoo filters, and cuckoo_agg's hash list with a capacity
CREATE AGGREGATE pg_temp.cf_partial(bigint, bigint, float8) (SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter);
INSERT INTO hostile (why, v) SELECT why, v FROM (VALUES
  ('countingbloom', counting_add(counting_empty(1), 1)::bytea),
  ('empty countingbloom', counting_empty(1000)::bytea),
  ('cuckoofilter', cuckoo_add(cuckoo_empty(1), 1)::bytea),
  ('empty cuckoofilter', cuckoo_empty(1000, expansion => 0)::bytea),
  ('cuckoofilter hash list (version 3)', (SELECT pg_temp.cf_partial(g, 10, 0.01) FROM generate_series(1, 3) g)::bytea),
  ('countingbloom as version 2', set_byte(counting_empty(1)::bytea, 4, 2)),
  ('cuckoofilter as version 1', set_byte(cuckoo_empty(1)::bytea, 4, 1))) x(why, v);

-- 7. light states (kind 7, format version 4, from 1.5): three hashes of a
--    state planned for 1000 keys at 1% (24 blocks, k 7 as a first layer)
CREATE AGGREGATE hostile_light(bigint, bigint, float8) (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
CREATE TEMP TABLE light AS
  SELECT (SELECT hostile_light(g, 1000, 0.01) FROM generate_series(1, 3) g)::bytea AS l,
         (SELECT hostile_light(g, 1, 0.01) FROM generate_series(1, 264) g)::bytea AS full1;
SELECT length(l), get_byte(l, 4) AS version, get_byte(l, 5) AS kind, get_byte(l, 12) AS k,
       get_byte(l, 48) AS blocks, get_byte(l, 56) AS in_use, l::bloomfilter::bytea = l AS valid,
       length(full1) AS full_bytes, get_byte(full1, 5) AS full_kind
  FROM light;
-- a valid light state with unused slots is accepted, and prints canonical
SELECT length((l || '\x0000000000000000'::bytea)::bloomfilter::bytea) AS canonical_bytes,
       (l || '\x0000000000000000'::bytea)::bloomfilter::text = l::bloomfilter::text AS same_text
  FROM light;
INSERT INTO hostile (why, v) SELECT 'light truncated to ' || n, substr(l, 1, n)
  FROM light, unnest(ARRAY[0, 8, 56, 63, 64, 72, 80, 84, 87]) n;
INSERT INTO hostile (why, v) SELECT 'light version ' || n, set_byte(l, 4, n) FROM light, unnest(ARRAY[0, 1, 2, 3, 5, 255]) n;
INSERT INTO hostile (why, v) SELECT 'light kind ' || n, set_byte(l, 5, n) FROM light, unnest(ARRAY[0, 1, 2, 3, 4, 8, 255]) n;
INSERT INTO hostile (why, v) SELECT 'kind 7 in version 1', set_byte(b, 5, 7) FROM base;
INSERT INTO hostile (why, v) SELECT 'light flags ' || n, set_byte(l, 14, n) FROM light, unnest(ARRAY[1, 3, 4, 255]) n;
INSERT INTO hostile (why, v) SELECT 'light flags high byte', set_byte(l, 15, 1) FROM light;
INSERT INTO hostile (why, v) SELECT 'light k ' || n, set_byte(l, 12, n) FROM light, unnest(ARRAY[0, 33, 255]) n;
INSERT INTO hostile (why, v) SELECT 'light block log2 ' || n, set_byte(l, 13, n) FROM light, unnest(ARRAY[0, 8, 10]) n;
INSERT INTO hostile (why, v) SELECT 'light blocks ' || n, put(l, 48, le64(n)) FROM light,
  unnest(ARRAY[0, 1, 8388560, 18446744073709551615::numeric]) n;
INSERT INTO hostile (why, v) SELECT 'light capacity ' || n, put(l, 24, le64(n)) FROM light,
  unnest(ARRAY[0, 100000, 18446744073709551615::numeric]) n;
INSERT INTO hostile (why, v) SELECT 'light fpr ' || d, put(l, 32, le_double(d)) FROM light,
  unnest(ARRAY[0, 0.6, 1e-10, 'NaN'::float8, 'Infinity']) d;
INSERT INTO hostile (why, v) SELECT 'light in use ' || n, put(l, 56, le64(n)) FROM light,
  unnest(ARRAY[4, 1000, 18446744073709551615::numeric]) n;
INSERT INTO hostile (why, v) SELECT 'light items ' || n, put(l, 40, le64(n)) FROM light, unnest(ARRAY[0, 2]) n;
INSERT INTO hostile (why, v) SELECT 'light hash ' || n, set_byte(l, 6, n) FROM light, unnest(ARRAY[0, 2]) n;
INSERT INTO hostile (why, v) SELECT 'light key class 9', set_byte(l, 7, 9) FROM light;
INSERT INTO hostile (why, v) SELECT 'light one slot past the limit', full1 || substr(full1, 65, 8) FROM light;
INSERT INTO hostile (why, v) SELECT 'light slots past the limit', l || decode(repeat('00', 8 * 2200), 'hex') FROM light;
-- valid values that describe far more than they hold (section 8 reads them)
INSERT INTO hostile (why, v) VALUES
  ('describes more: light, no hashes', '\x424c4d460407010100000000070902000000000000000000e8030000000000007b14ae47e17a843f0000000000000000cfff7f00000000000000000000000000');
INSERT INTO hostile (why, v) SELECT 'describes more: light, 3 hashes', put(l, 48, le64(8388559)) FROM light;
INSERT INTO hostile (why, v) SELECT 'describes more: light, 3 hashes, 1.0 plan', set_byte(put(l, 48, le64(8388559)), 14, 0) FROM light;
INSERT INTO hostile (why, v)
  SELECT 'describes more: hash list of 64 KB',
         put(put(put(put(substr(s, 1, 64), 32, le_double(1e-12)), 40, le64(8184)), 48, le64(8184)), 56, le64(8184))
           || (SELECT string_agg(le64((i * 11400714819323198485::numeric) % 18446744073709551616::numeric), ''::bytea ORDER BY i)
                 FROM generate_series(1, 8184) i)
    FROM base;

-- 9. windowed filters (kind 9, format version 5, from 1.7): a window of 3
--    one-hour slices holding keys 1 (slice 498221, 2026-11-02 05:00 UTC)
--    and 2 (slice 498223, the newest); each field out of range
CREATE TEMP TABLE wbase AS
  SELECT bloom_add(bloom_add(bloom_window(100, 0.01, '1 hour', 3), 1::bigint, '2026-11-02 05:00+00'),
                   2::bigint, '2026-11-02 07:00+00')::bytea AS w;
SELECT length(w) AS window_bytes, get_byte(w, 4) AS version, get_byte(w, 5) AS kind,
       w::bloomfilter::bytea = w AS valid FROM wbase;
INSERT INTO hostile (why, v) SELECT 'window truncated to ' || n, substr(w, 1, n)
  FROM wbase, generate_series(64, 127, 7) n;
INSERT INTO hostile (why, v) SELECT why, v FROM wbase, LATERAL (VALUES
  ('window: version 4', set_byte(w, 4, 4)),
  ('window: version 2', set_byte(w, 4, 2)),
  ('window: version 6', set_byte(w, 4, 6)),
  ('window: kind 4 in version 5', set_byte(w, 5, 4)),
  ('window: kind 7 in version 5', set_byte(w, 5, 7)),
  ('version 5 of kind 1', set_byte(set_byte(w, 5, 1), 4, 5)),
  ('window: k 0', set_byte(w, 12, 0)),
  ('window: k 33', set_byte(w, 12, 33)),
  ('window: block log2 8', set_byte(w, 13, 8)),
  ('window: flags', set_byte(w, 14, 1)),
  ('window: capacity 0', put(w, 24, le64(0))),
  ('window: capacity past the bits', put(w, 24, le64(get_byte(w, 56) * 512 + 1))),
  ('window: rate 0.6', put(w, 32, le_double(0.6))),
  ('window: rate 1e-10', put(w, 32, le_double(1e-10))),
  ('window: items', put(w, 40, le64(3))),
  ('window: slices past the window', put(w, 48, le64(5))),
  ('window: slices and length', put(w, 48, le64(1))),
  ('window: blocks 0', put(w, 56, le64(0))),
  ('window: slice length 0', put(w, 64, le64(0))),
  ('window: slice length negative', put(w, 64, le64(18446744069109551616))),
  ('window: slice length past 1000 years', put(w, 64, le64(31622400000000001))),
  ('window: newest past the slices', put(w, 72, le64(498300))),
  ('window: newest none with slices', put(w, 72, le64(9223372036854775808))),
  ('window: newest out of range', put(w, 72, le64(9223372036854775807))),
  ('window: window 0', set_byte(w, 80, 0)),
  ('window: window 32', set_byte(w, 80, 32)),
  ('window: window 1, a slice outside it', set_byte(w, 80, 1)),
  ('window: reserved', set_byte(w, 90, 1)),
  ('window: slices not increasing', put(w, 96, le64(498223))),
  ('window: slice older than the window', put(w, 96, le64(498219))),
  ('window: a slice newer than the newest', put(w, 112, le64(498224))),
  ('window: slice items', put(w, 104, le64(2))),
  ('window: extra byte', w || '\x00'::bytea)) v(why, v);

SELECT count(*) AS hostile_values FROM hostile;

-- feed each through the three doors
CREATE TABLE sink (f bloomfilter);
CREATE TABLE outcome (id int, door text, sqlstate text, message text);
DO $$
DECLARE
  r record;
  dummy bloomfilter;
  detail text;
BEGIN
  FOR r IN SELECT id, v FROM hostile ORDER BY id LOOP
    BEGIN
      EXECUTE format('SELECT %L::bloomfilter', '\x' || encode(r.v, 'hex')) INTO dummy;
      INSERT INTO outcome VALUES (r.id, 'text', 'accepted', NULL);
    EXCEPTION WHEN others THEN
      GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
      INSERT INTO outcome VALUES (r.id, 'text', SQLSTATE, SQLERRM || ': ' || detail);
    END;
    BEGIN
      dummy := r.v::bloomfilter;
      INSERT INTO outcome VALUES (r.id, 'bytea', 'accepted', NULL);
    EXCEPTION WHEN others THEN
      GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
      INSERT INTO outcome VALUES (r.id, 'bytea', SQLSTATE, SQLERRM || ': ' || detail);
    END;
    -- binary COPY of a bytea column is the raw bytes, which is what
    -- bloomfilter_recv reads
    EXECUTE format('COPY (SELECT v FROM hostile WHERE id = %s) TO %L WITH (FORMAT binary)',
                   r.id, '/tmp/bloomtype_hostile.bin');
    BEGIN
      COPY sink FROM '/tmp/bloomtype_hostile.bin' WITH (FORMAT binary);
      INSERT INTO outcome VALUES (r.id, 'binary', 'accepted', NULL);
    EXCEPTION WHEN others THEN
      GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
      INSERT INTO outcome VALUES (r.id, 'binary', SQLSTATE, SQLERRM || ': ' || detail);
    END;
  END LOOP;
END $$;

-- every value refused at every door
SELECT door, count(*) AS tried, count(*) FILTER (WHERE sqlstate = 'accepted') AS accepted
  FROM outcome GROUP BY door ORDER BY door;
SELECT h.why, o.door FROM outcome o JOIN hostile h USING (id) WHERE o.sqlstate = 'accepted' ORDER BY h.id;
-- the three doors give the same reason for each value
SELECT count(DISTINCT regexp_replace(message, '^.*: ', '')) AS reasons_per_value
  FROM outcome GROUP BY id ORDER BY 1 DESC LIMIT 1;
-- with which errors
SELECT sqlstate, message, count(*) FROM outcome WHERE door = 'bytea'
 GROUP BY sqlstate, message ORDER BY sqlstate, message;
SELECT door, sqlstate, count(*) FROM outcome GROUP BY door, sqlstate ORDER BY door, sqlstate;
-- the values of the other types, and why each is refused
SELECT h.why, regexp_replace(o.message, '^.*: ', '') AS reason
  FROM outcome o JOIN hostile h USING (id)
 WHERE o.door = 'bytea' AND h.why ~ 'countingbloom|cuckoofilter' ORDER BY h.id;
SELECT count(*) AS stored FROM sink;
-- the backend is alive and well
SELECT bloom_contains(bloom_add(v10_empty(10), 7), 7) AS alive;

-- Hostile but valid aggregate states.  A combine function fed a filter and
-- then a buffered state (possible with a hand-made aggregate) sets the
-- pending hashes in the bits rather than writing past the filter.
CREATE AGGREGATE hostile_combine(bloomfilter) (SFUNC = bloom_agg_combine, STYPE = bloomfilter);
SELECT bloom_contains(c, 1) AS has_1, bloom_contains(c, 3) AS has_3, bloom_contains(c, 4) AS has_4,
       (bloom_info(c)).items
  FROM (SELECT hostile_combine(f ORDER BY o) AS c
          FROM (VALUES (1, v10_empty(1, 0.01)), (2, (SELECT p FROM base)::bloomfilter)) v(o, f)) s;
-- Hash lists whose hashes were chosen to fool the distinct count: 70,000
-- small values (the estimate sees one key) and 70,000 values sharing their
-- low 18 bits (the exact count's probes collide).  Both are sized for all
-- 70,000 hashes, quickly.
CREATE FUNCTION le_small(i bigint) RETURNS bytea LANGUAGE sql AS $$
  SELECT decode(lpad(to_hex(i & 255), 2, '0') || lpad(to_hex((i >> 8) & 255), 2, '0') ||
                lpad(to_hex((i >> 16) & 255), 2, '0') || lpad(to_hex((i >> 24) & 255), 2, '0') ||
                lpad(to_hex((i >> 32) & 255), 2, '0') || '000000', 'hex')
$$;
CREATE TEMP TABLE crafted AS
  SELECT 'small values' AS how,
         put(put(put(substr(s, 1, 64), 40, le64(70000)), 48, le64(70000)), 56, le64(70000))
           || (SELECT string_agg(le_small(i), ''::bytea ORDER BY i) FROM generate_series(1, 70000) i) AS v
    FROM base
  UNION ALL
  SELECT 'shared low bits',
         put(put(put(substr(s, 1, 64), 40, le64(70000)), 48, le64(70000)), 56, le64(70000))
           || (SELECT string_agg(le_small(i << 18), ''::bytea ORDER BY i) FROM generate_series(1, 70000) i)
    FROM base;
SELECT how, length(v), capacity, items FROM crafted, bloom_info(v::bloomfilter) ORDER BY how;

-- 8. Values that describe far more than they hold are read at the cost of
--    what they hold.  Light states (kind 7) of the largest geometry,
--    8,388,559 blocks (a 512 MB filter): the 64-byte one with no hashes,
--    written byte by byte from docs/FORMAT.md (version 4, kind 7, XXH3,
--    integer keys, k 7, blocks of 2^9 bits, flag 2, seed 0, capacity 1000,
--    rate 0.01, no items, 8,388,559 blocks, no hashes); the same with three
--    hashes (keys 1, 2, 3); the same planned for 1.0 (flag 0); and the
--    largest hash list (kind 2) of 64 KB at the smallest rate.  Every read
--    function answers within a statement_timeout of 1 s (building the
--    filter took 0.8 to 2.8 s a call), and a fresh backend that ran them
--    all peaks under 150 MB (building took 0.5 to 2 GB).  The values are
--    among the hostile ones above, so the client readers' vectors hold them.
CREATE TABLE described AS
  SELECT substr(why, 17) AS why, v::bloomfilter AS v FROM hostile WHERE why ~ '^describes more: ' ORDER BY id;
SELECT why, length(v::bytea) AS stored_bytes, i.kind, i.capacity, i.bits, i.bytes, i.items, i.bits_set,
       i.estimated_items, i.key_type, i.format_version, i.layers, i.expansion
  FROM described, bloom_info(v) i ORDER BY why;
\c
SET statement_timeout = '1s';
SET client_min_messages = error;	-- "cannot grow" warnings, once a call
SELECT why, bloom_contains(v, 1) AS has_1, bloom_contains(v, 4) AS has_4,
       bloom_contains_each(v, ARRAY[1, 2, 3, 4]) AS each, bloom_contains_all(v, ARRAY[1, 2]) AS all_12,
       bloom_contains_any(v, ARRAY[4, 5]) AS any_45, bloom_cardinality(v) AS cardinality,
       (bloom_info(v)).bits_set, length(v::bytea) = length(v::text::bloomfilter::bytea) AS casts
  FROM described ORDER BY why;
SELECT why, (bloom_info(v | v)).bits_set AS union_bits_set, length((v | v)::bytea) AS union_bytes
  FROM described WHERE why ~ 'light' ORDER BY why;
SELECT d.why, (bloom_info(bloom_union_agg(d.v))).bits_set AS union_agg_bits_set
  FROM described d, generate_series(1, 3) GROUP BY d.why HAVING d.why ~ 'light' ORDER BY d.why;
-- 16 rows from a table, each read afresh
SELECT count(*) FILTER (WHERE bloom_contains(v, 1)) AS found, sum(bloom_cardinality(v)) AS cardinality
  FROM described, generate_series(1, 4);
-- four such values in one SELECT
SELECT bloom_contains(a.v, 1) AND bloom_contains(b.v, 1) AND NOT bloom_contains(c.v, 1) AND bloom_contains(d.v, 2) AS four
  FROM described a, described b, described c, described d
 WHERE a.why = 'light, 3 hashes' AND b.why = 'light, 3 hashes, 1.0 plan'
   AND c.why = 'light, no hashes' AND d.why = 'light, 3 hashes';
RESET client_min_messages;
RESET statement_timeout;
SELECT substring(pg_read_file('/proc/self/status') FROM 'VmHWM:\s*(\d+) kB')::bigint < 150 * 1024 AS peak_under_150mb;
DROP TABLE described;

DROP TABLE hostile, sink, outcome;
DROP AGGREGATE hostile_light(bigint, bigint, float8);
DROP FUNCTION le64(numeric), put(bytea, int, bytea), le_double(float8);
DROP FUNCTION le_small(bigint);
DROP AGGREGATE hostile_combine(bloomfilter);
DROP AGGREGATE hostile_partial(bigint);
DROP AGGREGATE hostile_partial(bigint, bigint, float8);
DROP FUNCTION v10_trans(bloomfilter, bigint, bigint, float8);
