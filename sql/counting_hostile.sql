-- Hostile countingbloom values: hundreds of malformed values through text
-- input, binary receive (binary COPY) and the bytea cast.  Every one must be
-- refused with an ERROR, and the backend must stay up; a handful of valid
-- values (the controls) must be accepted through the same three doors, so
-- that the suite cannot pass by refusing everything.  Everything this suite
-- makes is temporary (pg_temp), so nothing is left behind in the database.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;

CREATE FUNCTION pg_temp.le64(v numeric) RETURNS bytea LANGUAGE sql AS $$
  SELECT string_agg(set_byte('\x00'::bytea, 0, (div(v, 256::numeric ^ i) % 256)::int), ''::bytea ORDER BY i)
    FROM generate_series(0, 7) i
$$;
CREATE FUNCTION pg_temp.put(b bytea, off int, v bytea) RETURNS bytea LANGUAGE sql AS $$
  SELECT overlay(b PLACING v FROM off + 1 FOR length(v))
$$;
CREATE FUNCTION pg_temp.le_double(d float8) RETURNS bytea LANGUAGE sql AS $$
  -- float8send is big-endian; the format is little-endian
  SELECT string_agg(substr(float8send(d), 9 - i, 1), ''::bytea ORDER BY i) FROM generate_series(1, 8) i
$$;
-- a one-block counting filter: the presence plane is bytes 64..127 (cell j
-- at bit 512 + j), the counters bytes 128..383 (cell j's nibble at bits
-- 1024 + 4j .. 1027 + 4j)
CREATE FUNCTION pg_temp.bit_of(v bytea, j int) RETURNS int LANGUAGE sql AS $$
  SELECT get_bit(v, 512 + j)
$$;
CREATE FUNCTION pg_temp.counter_of(v bytea, j int) RETURNS int LANGUAGE sql AS $$
  SELECT get_bit(v, 1024 + 4 * j) + 2 * get_bit(v, 1025 + 4 * j) +
         4 * get_bit(v, 1026 + 4 * j) + 8 * get_bit(v, 1027 + 4 * j)
$$;
CREATE FUNCTION pg_temp.set_counter(v bytea, j int, n int) RETURNS bytea LANGUAGE sql AS $$
  SELECT set_bit(set_bit(set_bit(set_bit(v, 1024 + 4 * j, n & 1), 1025 + 4 * j, (n >> 1) & 1),
                         1026 + 4 * j, (n >> 2) & 1), 1027 + 4 * j, (n >> 3) & 1)
$$;

-- the partial aggregate state: a hash list (kind 2, version 1)
CREATE AGGREGATE pg_temp.cb_partial(bigint) (SFUNC = counting_agg_trans, STYPE = countingbloom);
CREATE AGGREGATE pg_temp.cf_partial(bigint, bigint, float8) (SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter);
CREATE AGGREGATE pg_temp.bf_partial(bigint, bigint, float8) (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
CREATE AGGREGATE pg_temp.bf_partial(bigint) (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
-- (1.5) counting_agg(key, capacity, fpr)'s partial state: light (kind 8)
CREATE AGGREGATE pg_temp.cb_partial(bigint, bigint, float8) (SFUNC = counting_agg_trans, STYPE = countingbloom);

-- the bases: a one-block filter holding two keys, an empty one, a hash list,
-- and values of the other types
CREATE TEMP TABLE base AS
  SELECT counting_add(counting_add(counting_empty(1), 1), 2)::bytea AS b,
         counting_empty(1)::bytea AS e,
         (SELECT pg_temp.cb_partial(g) FROM generate_series(1, 3) g)::bytea AS s,
         cuckoo_add(cuckoo_add(cuckoo_empty(1), 1), 2)::bytea AS cf,
         (SELECT pg_temp.cf_partial(g, 10, 0.01) FROM generate_series(1, 3) g)::bytea AS cs,
         set_byte(set_byte(bloom_add(bloom_empty(1, 0.01, 0), 1)::bytea, 4, 1), 14, 0) AS bf1,
         bloom_add(bloom_empty(1, 0.01, 0), 1)::bytea AS bf1n,
         (SELECT pg_temp.bf_partial(g, 1, 0.01) FROM generate_series(1, 300) g)::bytea AS bf3,
         (SELECT pg_temp.bf_partial(g, 1, 0.01) FROM generate_series(1, 3) g)::bytea AS bf7,
         (SELECT pg_temp.cb_partial(g, 1000, 0.01) FROM generate_series(1, 3) g)::bytea AS l,
         bloom_add(bloom_empty(1), 1)::bytea AS bf4;
SELECT length(b) AS filter_bytes, length(s) AS state_bytes, get_byte(b, 12) AS k,
       (SELECT count(*) FROM generate_series(0, 511) j WHERE pg_temp.bit_of(b, j) = 1) AS bits_set,
       (SELECT count(*) FROM generate_series(0, 511) j
         WHERE (pg_temp.bit_of(b, j) = 1) <> (pg_temp.counter_of(b, j) > 0)) AS disagree,
       get_byte(cf, 5) AS cf_kind, get_byte(cs, 4) AS cs_version,
       get_byte(bf1, 5) AS bf1_kind, get_byte(bf1n, 5) AS bf1n_kind,
       get_byte(bf3, 5) AS bf3_kind, get_byte(bf4, 5) AS bf4_kind, get_byte(bf7, 5) AS bf7_kind,
       get_byte(l, 4) AS light_version, get_byte(l, 5) AS light_kind, length(l) AS light_bytes,
       get_byte(l, 48) AS light_blocks, get_byte(l, 12) AS light_k
  FROM base;
-- the helpers write what the format says: a valid value stays valid
SELECT pg_temp.put(b, 32, pg_temp.le_double(0.01))::countingbloom = b::countingbloom AS le_double_ok,
       pg_temp.put(b, 48, pg_temp.le64(1))::countingbloom = b::countingbloom AS le64_ok,
       pg_temp.set_counter(b, 0, pg_temp.counter_of(b, 0))::countingbloom = b::countingbloom AS counter_ok
  FROM base;

-- cat orders the summary; valid marks the controls
CREATE TEMP TABLE cases (id serial, cat text, why text, v bytea, valid bool DEFAULT false);

-- 1. truncated at every byte; lengths that lie
INSERT INTO cases (cat, why, v) SELECT '01 truncated', 'truncated to ' || n, substr(b, 1, n)
  FROM base, generate_series(0, 383) n;
INSERT INTO cases (cat, why, v) SELECT '02 extended', why, v FROM base, LATERAL (VALUES
  ('extra byte', b || '\x00'::bytea), ('extra word', b || '\x0000000000000000'::bytea),
  ('extra block', b || substr(b, 65)), ('extra plane', b || substr(b, 65, 64)),
  ('twice', b || b)) x(why, v);
-- 2. each header field out of range
INSERT INTO cases (cat, why, v) SELECT '03 magic', 'magic byte ' || n || ' + 1', set_byte(b, n, get_byte(b, n) + 1)
  FROM base, generate_series(0, 3) n;
INSERT INTO cases (cat, why, v) SELECT '03 magic', 'magic ' || m, pg_temp.put(b, 0, convert_to(m, 'UTF8'))
  FROM base, unnest(ARRAY['blmf', 'FMLB', 'CBF1', '    ']) m;
INSERT INTO cases (cat, why, v) SELECT '04 version', 'version ' || n, set_byte(b, 4, n)
  FROM base, unnest(ARRAY[0, 1, 2, 4, 255]) n;
INSERT INTO cases (cat, why, v) SELECT '05 kind', 'kind ' || n, set_byte(b, 5, n)
  FROM base, unnest(ARRAY[0, 1, 2, 3, 4, 6, 7, 255]) n;
INSERT INTO cases (cat, why, v) SELECT '06 hash', 'hash ' || n, set_byte(b, 6, n)
  FROM base, unnest(ARRAY[0, 2, 255]) n;
INSERT INTO cases (cat, why, v) SELECT '07 key class', 'key class ' || n, set_byte(b, 7, n)
  FROM base, unnest(ARRAY[6, 7, 8, 128, 255]) n;
INSERT INTO cases (cat, why, v) SELECT '07 key class', 'key type byte ' || n || ' without class other', set_byte(b, n, 1)
  FROM base, generate_series(8, 11) n;
INSERT INTO cases (cat, why, v) SELECT '07 key class', 'empty filter, key type without class', set_byte(e, 8, 23)
  FROM base;
INSERT INTO cases (cat, why, v) SELECT '08 k', 'k ' || n, set_byte(b, 12, n)
  FROM base, unnest(ARRAY[0, 33, 34, 64, 128, 255]) n;
INSERT INTO cases (cat, why, v) SELECT '09 block log2', 'block log2 ' || n, set_byte(b, 13, n)
  FROM base, unnest(ARRAY[0, 6, 8, 10, 255]) n;
INSERT INTO cases (cat, why, v) SELECT '10 flags', 'flag bit ' || n, set_bit(b, 14 * 8 + n, 1)
  FROM base, generate_series(0, 15) n;
INSERT INTO cases (cat, why, v) SELECT '11 capacity', 'capacity ' || n, pg_temp.put(b, 24, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 513, 1024, 4294967296, 9223372036854775807::numeric,
                          18446744073709551615::numeric]) n;
INSERT INTO cases (cat, why, v) SELECT '12 fpr', 'fpr ' || d, pg_temp.put(b, 32, pg_temp.le_double(d))
  FROM base, unnest(ARRAY[0, '-0'::float8, -0.01, 0.5000001, 0.6, 1, 2, 1e-13, 1e-300, 'NaN', 'Infinity',
                          '-Infinity']) d;
INSERT INTO cases (cat, why, v) SELECT '12 fpr', 'fpr bits ' || w, pg_temp.put(b, 32, pg_temp.le64(w))
  FROM base, unnest(ARRAY[1, 18446744073709551615::numeric]) w;  -- a denormal; a negative NaN
INSERT INTO cases (cat, why, v) SELECT '13 blocks', 'blocks ' || n, pg_temp.put(b, 48, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 2, 3, 1000, 1677718, 1677719, 4294967296, 9223372036854775807::numeric,
                          18446744073709551615::numeric]) n;
INSERT INTO cases (cat, why, v) SELECT '13 blocks', 'extra block, blocks 2', pg_temp.put(b || substr(e, 65), 48, pg_temp.le64(2))
  FROM base;
INSERT INTO cases (cat, why, v) SELECT '13 blocks', 'truncated to the presence plane, blocks ' || n,
       pg_temp.put(substr(b, 1, 128), 48, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 1]) n;
-- 3. bit flips that must be caught: magic, version, kind, hash, block size,
--    flags and the block count
INSERT INTO cases (cat, why, v)
  SELECT '14 bit flips', 'flip byte ' || byte || ' bit ' || bit, set_bit(b, byte * 8 + bit, 1 - get_bit(b, byte * 8 + bit))
    FROM base, unnest(ARRAY[0, 1, 2, 3, 4, 5, 6, 13, 14, 15, 48, 49, 50, 51, 52, 53, 54, 55]) byte,
         generate_series(0, 7) bit;
-- 4. the planes disagree: a counter set with its presence bit clear, and
--    the reverse, in the filter with keys and at every byte of an empty one
INSERT INTO cases (cat, why, v)
  SELECT '15 counter without bit', 'counter ' || n || ' at clear cell ' || j, pg_temp.set_counter(b, j, n)
    FROM base, (SELECT j FROM base, generate_series(0, 511) j WHERE pg_temp.bit_of(b, j) = 0 ORDER BY j LIMIT 8) c,
         unnest(ARRAY[1, 2, 8, 15]) n;
INSERT INTO cases (cat, why, v)
  SELECT '15 counter without bit', 'empty filter, counter byte ' || n || ' = ' || x, set_byte(e, n, x)
    FROM base, generate_series(128, 383, 4) n, unnest(ARRAY[1, 16]) x;
INSERT INTO cases (cat, why, v)
  SELECT '15 counter without bit', 'bit cleared under counter at cell ' || j, set_bit(b, 512 + j, 0)
    FROM base, generate_series(0, 511) j WHERE pg_temp.bit_of(b, j) = 1;
INSERT INTO cases (cat, why, v)
  SELECT '16 bit without counter', 'bit set at clear cell ' || j, set_bit(b, 512 + j, 1)
    FROM base, (SELECT j FROM base, generate_series(0, 511) j WHERE pg_temp.bit_of(b, j) = 0 ORDER BY j LIMIT 8) c;
INSERT INTO cases (cat, why, v)
  SELECT '16 bit without counter', 'empty filter, presence byte ' || n, set_byte(e, n, 1 << (n % 8))
    FROM base, generate_series(64, 127) n;
INSERT INTO cases (cat, why, v)
  SELECT '16 bit without counter', 'counter zeroed under bit at cell ' || j, pg_temp.set_counter(b, j, 0)
    FROM base, generate_series(0, 511) j WHERE pg_temp.bit_of(b, j) = 1;
INSERT INTO cases (cat, why, v)
  SELECT '16 bit without counter', 'planes swapped', substr(b, 1, 64) || substr(e, 65, 64) || substr(b, 129)
    FROM base;
-- 5. hash lists (the aggregate state, version 1 only for this type)
INSERT INTO cases (cat, why, v) SELECT '17 hash list', 'state truncated to ' || n, substr(s, 1, n)
  FROM base, generate_series(0, 87, 4) n;
INSERT INTO cases (cat, why, v) SELECT '17 hash list', 'state extra ' || n || ' bytes', s || substr(s, 65, n)
  FROM base, unnest(ARRAY[1, 8]) n;
INSERT INTO cases (cat, why, v) SELECT '17 hash list', 'state version ' || n, set_byte(s, 4, n)
  FROM base, unnest(ARRAY[0, 2, 3, 4, 255]) n;
INSERT INTO cases (cat, why, v) SELECT '17 hash list', 'state version 3 with capacity ' || n,
       pg_temp.put(set_byte(s, 4, 3), 24, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 1, 10]) n;
INSERT INTO cases (cat, why, v) SELECT '17 hash list', 'state capacity ' || n, pg_temp.put(s, 24, pg_temp.le64(n))
  FROM base, unnest(ARRAY[1, 10, 18446744073709551615::numeric]) n;
INSERT INTO cases (cat, why, v) SELECT '17 hash list', 'state k ' || n, set_byte(s, 12, n)
  FROM base, unnest(ARRAY[1, 6, 255]) n;
INSERT INTO cases (cat, why, v) SELECT '17 hash list', 'state block log2 ' || n, set_byte(s, 13, n)
  FROM base, unnest(ARRAY[1, 9]) n;
INSERT INTO cases (cat, why, v) SELECT '17 hash list', 'state flags ' || n, set_byte(s, 14, n)
  FROM base, unnest(ARRAY[1, 2, 128]) n;
INSERT INTO cases (cat, why, v) SELECT '17 hash list', 'state hash ' || n, set_byte(s, 6, n)
  FROM base, unnest(ARRAY[0, 2]) n;
INSERT INTO cases (cat, why, v) SELECT '17 hash list', 'state key class 9', set_byte(s, 7, 9)
  FROM base;
INSERT INTO cases (cat, why, v) SELECT '17 hash list', 'state fpr ' || d, pg_temp.put(s, 32, pg_temp.le_double(d))
  FROM base, unnest(ARRAY[0, -0.01, 0.6, 1e-13, 'NaN'::float8, 'Infinity']) d;
INSERT INTO cases (cat, why, v) SELECT '17 hash list', 'state items ' || n, pg_temp.put(s, 40, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 1, 2]) n;
INSERT INTO cases (cat, why, v) SELECT '17 hash list', 'state slots ' || n, pg_temp.put(s, 48, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 1, 2, 4, 67108728, 67108729, 18446744073709551615::numeric]) n;
INSERT INTO cases (cat, why, v) SELECT '17 hash list', 'state hashes ' || n, pg_temp.put(s, 56, pg_temp.le64(n))
  FROM base, unnest(ARRAY[4, 1000, 18446744073709551615::numeric]) n;
INSERT INTO cases (cat, why, v) SELECT '17 hash list', 'state kind 5', set_byte(s, 5, 5)
  FROM base;
-- 6. the bytes of the other types, as they are and relabelled
INSERT INTO cases (cat, why, v) SELECT '18 other types', why, v FROM base, LATERAL (VALUES
  ('bloomfilter kind 1 (version 1)', bf1), ('bloomfilter kind 1 (version 2, fixed)', bf1n),
  ('bloomfilter kind 3 (pending hashes)', bf3), ('bloomfilter kind 4 (scalable)', bf4),
  ('bloomfilter kind 7 (light state)', bf7),
  ('bloomfilter kind 7 relabelled kind 8', set_byte(bf7, 5, 8)),
  ('cuckoofilter', cf), ('cuckoofilter hash list (version 3, capacity 10)', cs),
  ('bloomfilter kind 1 relabelled version 3 kind 5', set_byte(set_byte(bf1, 4, 3), 5, 5)),
  ('bloomfilter kind 1 relabelled version 3 kind 5, extended', set_byte(set_byte(bf1, 4, 3), 5, 5) || decode(repeat('00', 256), 'hex')),
  ('bloomfilter kind 3 relabelled version 3 kind 5', set_byte(set_byte(set_byte(bf3, 4, 3), 5, 5), 14, 0)),
  ('bloomfilter kind 4 relabelled version 3 kind 5', set_byte(set_byte(bf4, 4, 3), 5, 5)),
  ('cuckoofilter relabelled kind 5', set_byte(cf, 5, 5)),
  ('counting filter relabelled version 2 kind 1', set_byte(set_byte(b, 4, 2), 5, 1)),
  ('counting filter relabelled version 1 kind 1', set_byte(set_byte(b, 4, 1), 5, 1))) x(why, v);
-- 7. (1.5) light states (kind 8, version 4): every field off
INSERT INTO cases (cat, why, v) SELECT '20 light state', why, v FROM base, LATERAL (VALUES
  ('light truncated to 0', substr(l, 1, 0)), ('light truncated to 63', substr(l, 1, 63)),
  ('light truncated to 64', substr(l, 1, 64)), ('light truncated to 84', substr(l, 1, 84)),
  ('light one byte more', l || '\x00'::bytea),
  ('light version 1', set_byte(l, 4, 1)), ('light version 3', set_byte(l, 4, 3)),
  ('light version 5', set_byte(l, 4, 5)),
  ('light kind 5', set_byte(l, 5, 5)), ('light kind 7', set_byte(l, 5, 7)),
  ('light kind 9', set_byte(l, 5, 9)),
  ('light flags 1', set_byte(l, 14, 1)), ('light flags 2', set_byte(l, 14, 2)),
  ('light k 0', set_byte(l, 12, 0)), ('light k 33', set_byte(l, 12, 33)),
  ('light block log2 10', set_byte(l, 13, 10)),
  ('light blocks 0', pg_temp.put(l, 48, pg_temp.le64(0))),
  ('light blocks max', pg_temp.put(l, 48, pg_temp.le64(18446744073709551615::numeric))),
  ('light capacity 0', pg_temp.put(l, 24, pg_temp.le64(0))),
  ('light capacity 1e9', pg_temp.put(l, 24, pg_temp.le64(1000000000))),
  ('light fpr 0', pg_temp.put(l, 32, pg_temp.le_double(0))),
  ('light fpr NaN', pg_temp.put(l, 32, pg_temp.le_double('NaN'))),
  ('light fpr 0.6', pg_temp.put(l, 32, pg_temp.le_double(0.6))),
  ('light in use 4', pg_temp.put(l, 56, pg_temp.le64(4))),
  ('light in use max', pg_temp.put(l, 56, pg_temp.le64(18446744073709551615::numeric))),
  ('light items 2', pg_temp.put(l, 40, pg_temp.le64(2))),
  ('light hash 2', set_byte(l, 6, 2)),
  ('light slots past the limit', l || decode(repeat('00', 8 * 2000), 'hex'))) x(why, v);
-- 8. not a filter at all
INSERT INTO cases (cat, why, v) SELECT '19 not a filter', why, v FROM (VALUES
  ('empty', ''::bytea), ('text', convert_to('hello, world', 'UTF8')),
  ('zeros', decode(repeat('00', 384), 'hex')), ('magic only', 'BLMF'::bytea),
  ('magic and version', '\x424c4d460305'::bytea), ('ones', decode(repeat('ff', 384), 'hex'))) x(why, v);

-- the controls: valid values, which every door must accept.  The items
-- (adds less removes) and removes counts are not checked against the
-- contents (removing a false positive lowers them but not every counter).
INSERT INTO cases (cat, why, v, valid) SELECT '00 control', why, v, true FROM base, LATERAL (VALUES
  ('two keys', b), ('empty filter', e), ('hash list', s),
  ('empty hash list', (SELECT counting_agg(g) FROM generate_series(1, 0) g)::bytea),
  ('one key', counting_add(counting_empty(1), 'x'::text)::bytea),
  ('saturated', (SELECT counting_add_all(counting_empty(1), array_agg(1)) FROM generate_series(1, 20))::bytea),
  ('removed again', counting_remove(counting_remove(b::countingbloom, 1), 2)::bytea),
  ('1000 keys', (SELECT counting_add_all(counting_empty(1000, 0.001), array_agg(g)) FROM generate_series(1, 1000) g)::bytea),
  ('capacity 512, one block', pg_temp.put(b, 24, pg_temp.le64(512))),
  ('items 0', pg_temp.put(b, 40, pg_temp.le64(0))),
  ('items max', pg_temp.put(b, 40, pg_temp.le64(18446744073709551615::numeric))),
  ('removes max', pg_temp.put(b, 56, pg_temp.le64(18446744073709551615::numeric))),
  ('bloomfilter hash list', (SELECT pg_temp.bf_partial(g) FROM generate_series(5, 9) g)::bytea),
  ('light state', l),
  -- (1.6) the largest geometry: 64 bytes that stand for 537 MB
  ('light state of the largest geometry, no hashes',
   pg_temp.put(pg_temp.put(pg_temp.put(substr(l, 1, 64), 48, pg_temp.le64(1677718)), 56, pg_temp.le64(0)),
               40, pg_temp.le64(0))),
  ('light state of the largest geometry, 3 keys', pg_temp.put(l, 48, pg_temp.le64(1677718)))) x(why, v);
-- a light state with an unused slot is valid too, and is stored canonical
SELECT length((l || '\x0000000000000000'::bytea)::countingbloom::bytea) = length(l) AS canonical,
       (l || '\x0000000000000000'::bytea)::countingbloom = l::countingbloom AS equal
  FROM base;

SELECT count(*) FILTER (WHERE NOT valid) AS hostile_values,
       count(*) FILTER (WHERE v IS NULL) AS null_values,
       count(DISTINCT v) FILTER (WHERE NOT valid) AS distinct_hostile_values,
       count(*) FILTER (WHERE valid) AS controls
  FROM cases;
-- no hostile value is one of the controls
SELECT count(*) AS hostile_equal_to_a_control
  FROM cases h JOIN cases c ON c.valid AND NOT h.valid AND c.v = h.v;

-- feed each through the three doors
CREATE TEMP TABLE sink (id int, f countingbloom);
CREATE TEMP TABLE landing (f countingbloom);
CREATE TEMP TABLE outcome (id int, door text, sqlstate text, message text);
DO $$
DECLARE
  r record;
  dummy countingbloom;
  detail text;
BEGIN
  FOR r IN SELECT id, v FROM cases ORDER BY id LOOP
    BEGIN
      EXECUTE format('SELECT %L::countingbloom', '\x' || encode(r.v, 'hex')) INTO dummy;
      INSERT INTO outcome VALUES (r.id, 'text', 'accepted', NULL);
    EXCEPTION WHEN others THEN
      GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
      INSERT INTO outcome VALUES (r.id, 'text', SQLSTATE, SQLERRM || ': ' || detail);
    END;
    BEGIN
      dummy := r.v::countingbloom;
      INSERT INTO outcome VALUES (r.id, 'bytea', 'accepted', NULL);
    EXCEPTION WHEN others THEN
      GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
      INSERT INTO outcome VALUES (r.id, 'bytea', SQLSTATE, SQLERRM || ': ' || detail);
    END;
    -- binary COPY of a bytea column is the raw bytes, which is what
    -- countingbloom_recv reads
    EXECUTE format('COPY (SELECT v FROM cases WHERE id = %s) TO %L WITH (FORMAT binary)',
                   r.id, '/tmp/bloomtype_counting_hostile.bin');
    BEGIN
      COPY landing FROM '/tmp/bloomtype_counting_hostile.bin' WITH (FORMAT binary);
      INSERT INTO sink SELECT r.id, f FROM landing;
      DELETE FROM landing;
      INSERT INTO outcome VALUES (r.id, 'binary', 'accepted', NULL);
    EXCEPTION WHEN others THEN
      GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
      INSERT INTO outcome VALUES (r.id, 'binary', SQLSTATE, SQLERRM || ': ' || detail);
    END;
  END LOOP;
END $$;

-- every hostile value refused at every door, every control accepted
SELECT c.cat, count(DISTINCT c.id) AS "values",
       count(*) FILTER (WHERE o.door = 'text' AND o.sqlstate <> 'accepted') AS text_refused,
       count(*) FILTER (WHERE o.door = 'bytea' AND o.sqlstate <> 'accepted') AS bytea_refused,
       count(*) FILTER (WHERE o.door = 'binary' AND o.sqlstate <> 'accepted') AS binary_refused
  FROM cases c JOIN outcome o USING (id) GROUP BY c.cat ORDER BY c.cat;
SELECT c.cat, c.why, o.door FROM outcome o JOIN cases c USING (id)
 WHERE (o.sqlstate = 'accepted') <> c.valid ORDER BY c.id, o.door;
-- the three doors give the same reason for each value
SELECT count(DISTINCT regexp_replace(message, '^.*: ', '')) AS reasons_per_value
  FROM outcome GROUP BY id ORDER BY 1 DESC LIMIT 1;
-- with which errors
SELECT sqlstate, message, count(*) FROM outcome WHERE door = 'bytea'
 GROUP BY sqlstate, message ORDER BY sqlstate, message;
SELECT door, sqlstate, count(*) FROM outcome GROUP BY door, sqlstate ORDER BY door, sqlstate;
-- the planes' disagreements are caught by the deep check, not the header
SELECT c.cat, regexp_replace(o.message, '^.*: ', '') AS reason, count(*)
  FROM cases c JOIN outcome o USING (id)
 WHERE o.door = 'bytea' AND c.cat IN ('15 counter without bit', '16 bit without counter')
 GROUP BY 1, 2 ORDER BY 1, 2;

-- a refused value leaves nothing behind: the sink holds the controls and
-- nothing else, each byte for byte as it went in
SELECT count(*) AS stored, count(*) FILTER (WHERE c.valid AND f::bytea = c.v) AS controls_intact
  FROM sink JOIN cases c USING (id);
-- a statement that meets one bad value among good ones stores none of them
CREATE TEMP TABLE mixed (f countingbloom);
INSERT INTO mixed SELECT v::countingbloom FROM cases
 WHERE why IN ('two keys', 'empty filter', 'flip byte 5 bit 0') ORDER BY valid DESC, id;
COPY (SELECT v FROM cases
       WHERE why IN ('two keys', 'empty filter', 'hash list')
          OR id = (SELECT min(id) FROM cases WHERE why LIKE 'bit set at clear cell %')
       ORDER BY valid DESC, id)
  TO '/tmp/bloomtype_counting_hostile.bin' WITH (FORMAT binary);
COPY mixed FROM '/tmp/bloomtype_counting_hostile.bin' WITH (FORMAT binary);
SELECT count(*) AS mixed_stored FROM mixed;
-- the backend is alive and well, and a control works
SELECT counting_contains(v::countingbloom, 1) AS has_1, counting_contains(v::countingbloom, 3) AS has_3,
       counting_count(v::countingbloom, 2) AS count_2
  FROM cases WHERE why = 'two keys';

-- (1.6) A light state answers from its hashes what the counting filter it
-- stands for answers (a capacity of 1,000,000: 20,000 blocks, 6 MB), which
-- a union with an empty one builds
CREATE TEMP TABLE pair AS
  SELECT l, l | counting_empty(1000000, 0.01) AS d
    FROM (SELECT pg_temp.cb_partial(g, 1000000, 0.01) AS l FROM generate_series(1, 7000) g) s;
SELECT count(*) FILTER (WHERE counting_contains(l, g) <> counting_contains(d, g)) AS contains_differ,
       count(*) FILTER (WHERE counting_count(l, g) <> counting_count(d, g)) AS count_differ,
       count(*) FILTER (WHERE counting_contains(l, g)) AS present
  FROM pair, generate_series(5001, 15000) g;
SELECT get_byte(d::bytea, 5) AS dense_kind, get_byte(l::bytea, 5) AS light_kind,
       (counting_info(l)).bytes = (counting_info(d)).bytes AS same_bytes,
       (counting_info(l)).estimated_fpr = (counting_info(d)).estimated_fpr AS same_estimated_fpr,
       (counting_info(l)).counters_set = (counting_info(d)).counters_set AS same_counters_set,
       counting_to_bloom(l) = counting_to_bloom(d) AS same_to_bloom
  FROM pair;

-- (1.6) Reading a value costs what it holds.  A light state (kind 8) of
-- the largest geometry, 1,677,718 blocks, describes a 537 MB counting
-- filter: every read must answer from its hashes, never build that
-- filter.  Sixteen rows of each (64 bytes with no hashes; under 64 kB
-- with 7,000) go through every read function under a statement_timeout
-- of 1 s (building the filter once a row takes seconds), and the
-- backend, fresh, must peak under 150 MB of memory (VmHWM, its peak
-- resident set).  counting_to_bloom is not a read: its result is the
-- 107 MB blocked filter of those blocks.
\c
CREATE FUNCTION pg_temp.le64(v numeric) RETURNS bytea LANGUAGE sql AS $$
  SELECT string_agg(set_byte('\x00'::bytea, 0, (div(v, 256::numeric ^ i) % 256)::int), ''::bytea ORDER BY i)
    FROM generate_series(0, 7) i
$$;
CREATE FUNCTION pg_temp.put(b bytea, off int, v bytea) RETURNS bytea LANGUAGE sql AS $$
  SELECT overlay(b PLACING v FROM off + 1 FOR length(v))
$$;
CREATE AGGREGATE pg_temp.cb_partial(bigint, bigint, float8) (SFUNC = counting_agg_trans, STYPE = countingbloom);
CREATE TEMP TABLE light (l bytea, l7 bytea);
INSERT INTO light
  SELECT (SELECT pg_temp.cb_partial(g, 1000000, 0.01) FROM generate_series(1, 3) g)::bytea,
         (SELECT pg_temp.cb_partial(g, 1000000, 0.01) FROM generate_series(1, 7000) g)::bytea;
CREATE TEMP TABLE huge (why text, v countingbloom);
INSERT INTO huge SELECT why, v::countingbloom FROM light, LATERAL (VALUES
  ('a 64-byte light state of 1677718 blocks, no hashes',
   pg_temp.put(pg_temp.put(pg_temp.put(substr(l, 1, 64), 48, pg_temp.le64(1677718)),
                           56, pg_temp.le64(0)), 40, pg_temp.le64(0))),
  ('a light state of 1677718 blocks, 7000 hashes', pg_temp.put(l7, 48, pg_temp.le64(1677718)))) x(why, v),
  generate_series(1, 16);
SELECT why, count(*) AS "rows", min(length(v::bytea)) AS bytes, min(get_byte(v::bytea, 5)) AS kind,
       min(get_byte(v::bytea, 48) + 256 * get_byte(v::bytea, 49) + 65536 * get_byte(v::bytea, 50)) AS blocks
  FROM huge GROUP BY why ORDER BY why;
SET statement_timeout = '1s';
SELECT why, bool_or(counting_contains(v, 42)) AS has_42, bool_or(counting_contains(v, 7001)) AS has_7001,
       max(counting_count(v, 42)) AS count_42,
       bool_and(counting_contains_each(v, ARRAY[1, 2, 7001]) IN ('{t,t,f}', '{f,f,f}')) AS each,
       bool_or(counting_contains_all(v, ARRAY[1, 2])) AS "all",
       bool_or(counting_contains_any(v, ARRAY[7001, 7002])) AS "any"
  FROM huge GROUP BY why ORDER BY why;
SELECT why, i.capacity, i.counters, i.bytes, i.items, i.counters_set > 0 AS set, i.max_counter,
       i.estimated_items, i.key_type, i.format_version
  FROM (SELECT DISTINCT ON (why) why, v FROM huge ORDER BY why) h, counting_info(v) i ORDER BY why;
SELECT why, count(*) FILTER (WHERE (v::bytea)::countingbloom = v AND v::text::countingbloom = v) AS casts_equal,
       min(get_byte((v | v)::bytea, 5)) AS union_kind, max(counting_count(v | v, 42)) AS union_count_42
  FROM huge GROUP BY why ORDER BY why;
RESET statement_timeout;
SELECT (regexp_match(pg_read_file('/proc/self/status'), 'VmHWM:\s*(\d+) kB'))[1]::bigint < 150 * 1024
         AS peak_memory_under_150mb;

-- (1.6) an empty hash list keeps its key class: a probe of another class is
-- the ERROR every filter gives (and bloomfilter gave)
SELECT counting_contains(set_byte((SELECT counting_agg(g) FROM generate_series(1, 0) g)::bytea, 7, 1)::countingbloom, 1) AS int_probe;
SELECT counting_contains(set_byte((SELECT counting_agg(g) FROM generate_series(1, 0) g)::bytea, 7, 1)::countingbloom, 'x'::text);
SELECT (counting_info(set_byte((SELECT counting_agg(g) FROM generate_series(1, 0) g)::bytea, 7, 1)::countingbloom)).key_type;
SELECT bloom_contains(set_byte((SELECT bloom_agg(g) FROM generate_series(1, 0) g)::bytea, 7, 1)::bloomfilter, 'x'::text);
