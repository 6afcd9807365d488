-- Hostile cuckoofilter values: hundreds of malformed values through text
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
CREATE FUNCTION pg_temp.get64(b bytea, off int) RETURNS numeric LANGUAGE sql AS $$
  SELECT round(sum(get_byte(b, off + i) * 256::numeric ^ i)) FROM generate_series(0, 7) i
$$;
-- slot i of a slot area at byte area, f bits a slot, packed little-endian
CREATE FUNCTION pg_temp.slot_of(v bytea, area int, f int, i int) RETURNS int LANGUAGE sql AS $$
  SELECT sum(get_bit(v, area * 8 + i * f + t) << t)::int FROM generate_series(0, f - 1) t
$$;
CREATE FUNCTION pg_temp.set_slot(v bytea, area int, f int, i int, x int) RETURNS bytea LANGUAGE plpgsql AS $$
BEGIN
  FOR t IN 0 .. f - 1 LOOP
    v := set_bit(v, area * 8 + i * f + t, (x >> t) & 1);
  END LOOP;
  RETURN v;
END $$;

-- the partial aggregate states: hash lists (kind 2), version 1 without a
-- capacity, version 3 with one
CREATE AGGREGATE pg_temp.cf_partial(bigint) (SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter);
CREATE AGGREGATE pg_temp.cf_partial(bigint, bigint, float8) (SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter);
CREATE AGGREGATE pg_temp.bf_partial(bigint) (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
CREATE AGGREGATE pg_temp.bf_partial(bigint, bigint, float8) (SFUNC = bloom_agg_trans, STYPE = bloomfilter);

-- the bases.  b: one sub-filter of 2 buckets of 4 slots of 11 bits (88
-- bits, slots at byte 128, padding bytes 139..143, final word 144..151)
-- holding two keys; b3: capacity 3, 3 buckets of 4 slots (132 bits: the
-- top four bits of byte 144 and bytes 145..151 are padding, the final word
-- is 152..159), holding two keys; g: grown to two
-- sub-filters (descriptors at 96 and 128, slots at 160 and 184); the hash
-- lists; and values of the other types
CREATE TEMP TABLE base AS
  SELECT cuckoo_add(cuckoo_add(cuckoo_empty(1), 1), 2)::bytea AS b,
         cuckoo_empty(1)::bytea AS e,
         cuckoo_add(cuckoo_add(cuckoo_empty(3), 1), 2)::bytea AS b3,
         (SELECT cuckoo_add_all(cuckoo_empty(1), array_agg(g)) FROM generate_series(1, 9) g)::bytea AS g,
         (SELECT pg_temp.cf_partial(g) FROM generate_series(1, 3) g)::bytea AS s1,
         (SELECT pg_temp.cf_partial(g, 10, 0.01) FROM generate_series(1, 3) g)::bytea AS s3,
         counting_add(counting_empty(1), 1)::bytea AS cb,
         set_byte(set_byte(bloom_add(bloom_empty(1, 0.01, 0), 1)::bytea, 4, 1), 14, 0) AS bf1,
         bloom_add(bloom_empty(1, 0.01, 0), 1)::bytea AS bf1n,
         (SELECT pg_temp.bf_partial(g, 1, 0.01) FROM generate_series(1, 3) g)::bytea AS bf3,
         bloom_add(bloom_empty(1), 1)::bytea AS bf4;
-- the geometry the cases below rely on
SELECT length(b) AS b_bytes, get_byte(b, 12) AS b_bucket, pg_temp.get64(b, 96) AS b_buckets,
       get_byte(b, 120) AS b_fbits, pg_temp.get64(b, 40) AS b_items,
       (SELECT count(*) FROM generate_series(0, 7) i WHERE pg_temp.slot_of(b, 128, 11, i) <> 0) AS b_used,
       length(b3) AS b3_bytes, pg_temp.get64(b3, 96) AS b3_buckets, get_byte(b3, 120) AS b3_fbits,
       length(g) AS g_bytes, pg_temp.get64(g, 48) AS g_subs, pg_temp.get64(g, 96) AS g_buckets0,
       get_byte(g, 120) AS g_fbits0, pg_temp.get64(g, 112) AS g_items0, pg_temp.get64(g, 128) AS g_buckets1,
       get_byte(g, 152) AS g_fbits1, pg_temp.get64(g, 144) AS g_items1,
       get_byte(s1, 4) AS s1_version, get_byte(s3, 4) AS s3_version, pg_temp.get64(s3, 24) AS s3_capacity
  FROM base;
-- the helpers write what the format says: a valid value stays valid
SELECT pg_temp.put(b, 32, pg_temp.le_double(0.01))::cuckoofilter = b::cuckoofilter AS le_double_ok,
       pg_temp.put(b, 104, pg_temp.le64(1))::cuckoofilter = b::cuckoofilter AS le64_ok,
       pg_temp.set_slot(b, 128, 11, 5, pg_temp.slot_of(b, 128, 11, 5))::cuckoofilter = b::cuckoofilter AS slot_ok
  FROM base;

-- cat orders the summary; valid marks the controls
CREATE TEMP TABLE cases (id serial, cat text, why text, v bytea, valid bool DEFAULT false);

-- 1. truncated at every byte; lengths that lie
INSERT INTO cases (cat, why, v) SELECT '01 truncated', 'truncated to ' || n, substr(b, 1, n)
  FROM base, generate_series(0, 151) n;
INSERT INTO cases (cat, why, v) SELECT '01 truncated', 'grown truncated to ' || n, substr(g, 1, n)
  FROM base, generate_series(64, 220, 4) n;
INSERT INTO cases (cat, why, v) SELECT '01 truncated', 'grown truncated to ' || n, substr(g, 1, n)
  FROM base, unnest(ARRAY[151, 152, 183, 223]) n;
INSERT INTO cases (cat, why, v) SELECT '02 extended', why, v FROM base, LATERAL (VALUES
  ('extra byte', b || '\x00'::bytea), ('extra word', b || '\x0000000000000000'::bytea),
  ('twice', b || b), ('empty, extra byte', e || '\x00'::bytea),
  ('grown, extra byte', g || '\x00'::bytea), ('grown, extra word', g || '\x0000000000000000'::bytea),
  ('a sub-filter appended', b || substr(b, 97))) x(why, v);
-- 2. each header field out of range
INSERT INTO cases (cat, why, v) SELECT '03 magic', 'magic byte ' || n || ' + 1', set_byte(b, n, get_byte(b, n) + 1)
  FROM base, generate_series(0, 3) n;
INSERT INTO cases (cat, why, v) SELECT '03 magic', 'magic ' || m, pg_temp.put(b, 0, convert_to(m, 'UTF8'))
  FROM base, unnest(ARRAY['blmf', 'FMLB', 'CKOO', '    ']) m;
INSERT INTO cases (cat, why, v) SELECT '04 version', 'version ' || n, set_byte(b, 4, n)
  FROM base, unnest(ARRAY[0, 1, 2, 4, 255]) n;
INSERT INTO cases (cat, why, v) SELECT '04 version', 'grown, version ' || n, set_byte(g, 4, n)
  FROM base, unnest(ARRAY[1, 2]) n;
INSERT INTO cases (cat, why, v) SELECT '05 kind', 'kind ' || n, set_byte(b, 5, n)
  FROM base, unnest(ARRAY[0, 1, 2, 3, 4, 5, 7, 255]) n;
INSERT INTO cases (cat, why, v) SELECT '06 hash', 'hash ' || n, set_byte(b, 6, n)
  FROM base, unnest(ARRAY[0, 2, 255]) n;
INSERT INTO cases (cat, why, v) SELECT '07 key class', 'key class ' || n, set_byte(b, 7, n)
  FROM base, unnest(ARRAY[6, 7, 8, 128, 255]) n;
INSERT INTO cases (cat, why, v) SELECT '07 key class', 'key type byte ' || n || ' without class other', set_byte(b, n, 1)
  FROM base, generate_series(8, 11) n;
INSERT INTO cases (cat, why, v) SELECT '08 bucket size', 'bucket size ' || n, set_byte(b, 12, n)
  FROM base, unnest(ARRAY[0, 1, 2, 3, 5, 8, 16, 255]) n;
INSERT INTO cases (cat, why, v) SELECT '08 bucket size', 'capacity 3 filter, bucket size ' || n, set_byte(b3, 12, n)
  FROM base, unnest(ARRAY[0, 1, 2, 8]) n;
INSERT INTO cases (cat, why, v) SELECT '09 block log2', 'block log2 ' || n, set_byte(b, 13, n)
  FROM base, unnest(ARRAY[1, 9, 255]) n;
INSERT INTO cases (cat, why, v) SELECT '10 flags', 'flag bit ' || n, set_bit(b, 14 * 8 + n, 1)
  FROM base, generate_series(0, 15) n;
INSERT INTO cases (cat, why, v) SELECT '11 capacity', 'capacity ' || n, pg_temp.put(b, 24, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 2, 3, 1000, 4294967296, 9223372036854775807::numeric,
                          18446744073709551615::numeric]) n;
INSERT INTO cases (cat, why, v) SELECT '11 capacity', 'header and descriptor capacity ' || n,
       pg_temp.put(pg_temp.put(b, 24, pg_temp.le64(n)), 104, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 2, 9223372036854775807::numeric, 18446744073709551615::numeric]) n;
INSERT INTO cases (cat, why, v) SELECT '12 fpr', 'fpr ' || d, pg_temp.put(b, 32, pg_temp.le_double(d))
  FROM base, unnest(ARRAY[0, '-0'::float8, -0.01, 0.5000001, 0.6, 1, 2, 0.001, 1e-10, 1e-13, 'NaN', 'Infinity',
                          '-Infinity']) d;
INSERT INTO cases (cat, why, v) SELECT '12 fpr', 'fpr bits ' || w, pg_temp.put(b, 32, pg_temp.le64(w))
  FROM base, unnest(ARRAY[1, 18446744073709551615::numeric]) w;  -- a denormal; a negative NaN
INSERT INTO cases (cat, why, v) SELECT '13 items', 'items ' || n, pg_temp.put(b, 40, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 1, 3, 8, 9, 18446744073709551615::numeric]) n;
INSERT INTO cases (cat, why, v) SELECT '13 items', 'grown, items ' || n, pg_temp.put(g, 40, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 8, 10, 18446744073709551615::numeric]) n;
INSERT INTO cases (cat, why, v) SELECT '14 sub-filters', 'sub-filters ' || n, pg_temp.put(b, 48, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 2, 3, 32, 33, 4294967297, 18446744073709551615::numeric]) n;
INSERT INTO cases (cat, why, v) SELECT '14 sub-filters', 'grown, sub-filters ' || n, pg_temp.put(g, 48, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 1, 3, 33]) n;
INSERT INTO cases (cat, why, v) SELECT '14 sub-filters', 'grown, one sub-filter dropped', pg_temp.put(substr(g, 1, 128) || substr(g, 161, 24), 48, pg_temp.le64(1))
  FROM base;
-- word 56: max kicks (56-57), expansion (58), zero (59-63)
INSERT INTO cases (cat, why, v) SELECT '15 kicks, expansion', 'max kicks 0', pg_temp.put(b, 56, '\x0000'::bytea)
  FROM base;
INSERT INTO cases (cat, why, v) SELECT '15 kicks, expansion', 'expansion ' || n, set_byte(b, 58, n)
  FROM base, unnest(ARRAY[0, 3, 5, 6, 7, 17, 32, 255]) n;
INSERT INTO cases (cat, why, v) SELECT '15 kicks, expansion', 'grown, expansion ' || n, set_byte(g, 58, n)
  FROM base, unnest(ARRAY[0, 1, 3, 4, 16]) n;
INSERT INTO cases (cat, why, v) SELECT '15 kicks, expansion', 'word 56 byte ' || n || ' nonzero', set_byte(b, n, 1)
  FROM base, generate_series(59, 63) n;
INSERT INTO cases (cat, why, v) SELECT '15 kicks, expansion', 'word 56 ' || n, pg_temp.put(b, 56, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 65536, 18446744073709551615::numeric]) n;
-- 3. the extension words: deletes, absorbed and stuck take any value (the
--    controls), the reserved word must be zero
INSERT INTO cases (cat, why, v) SELECT '16 reserved word', 'reserved byte ' || n, set_byte(b, n, 1)
  FROM base, generate_series(88, 95) n;
INSERT INTO cases (cat, why, v) SELECT '16 reserved word', 'grown, reserved byte ' || n, set_byte(g, n, 128)
  FROM base, unnest(ARRAY[88, 95]) n;
-- 4. each field of a sub-filter's descriptor
INSERT INTO cases (cat, why, v) SELECT '17 descriptor', 'buckets ' || n, pg_temp.put(b, 96, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 1, 3, 4, 4294967298, 18446744073709551615::numeric]) n;
INSERT INTO cases (cat, why, v) SELECT '17 descriptor', 'sub-filter capacity ' || n, pg_temp.put(b, 104, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 2, 18446744073709551615::numeric]) n;
INSERT INTO cases (cat, why, v) SELECT '17 descriptor', 'sub-filter items ' || n, pg_temp.put(b, 112, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 1, 3, 8, 9, 18446744073709551615::numeric]) n;
INSERT INTO cases (cat, why, v) SELECT '17 descriptor', 'fingerprint bits ' || n, set_byte(b, 120, n)
  FROM base, unnest(ARRAY[0, 7, 8, 10, 12, 56, 57, 64, 255]) n;
INSERT INTO cases (cat, why, v) SELECT '17 descriptor', 'descriptor pad byte ' || n, set_byte(b, n, 1)
  FROM base, generate_series(121, 127) n;
INSERT INTO cases (cat, why, v) SELECT '17 descriptor', 'grown, sub-filter 1 buckets ' || n, pg_temp.put(g, 128, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 2, 3, 5, 8]) n;
INSERT INTO cases (cat, why, v) SELECT '17 descriptor', 'grown, sub-filter 1 capacity ' || n, pg_temp.put(g, 136, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 1, 3, 4]) n;
INSERT INTO cases (cat, why, v) SELECT '17 descriptor', 'grown, sub-filter 1 fingerprint bits ' || n, set_byte(g, 152, n)
  FROM base, unnest(ARRAY[11, 12, 14]) n;
INSERT INTO cases (cat, why, v) SELECT '17 descriptor', 'grown, sub-filter 1 pad byte ' || n, set_byte(g, n, 1)
  FROM base, generate_series(153, 159) n;
INSERT INTO cases (cat, why, v) SELECT '17 descriptor', 'grown, descriptors swapped',
       substr(g, 1, 96) || substr(g, 129, 32) || substr(g, 97, 32) || substr(g, 161)
  FROM base;
-- 5. the counts against the slots: the sum of the sub-filters' items, and
--    each sub-filter's items against its nonzero slots
INSERT INTO cases (cat, why, v) SELECT '18 items and slots', 'header and sub-filter items ' || n,
       pg_temp.put(pg_temp.put(b, 40, pg_temp.le64(n)), 112, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 1, 3, 8]) n;
INSERT INTO cases (cat, why, v) SELECT '18 items and slots', 'grown, item moved from sub-filter ' || f || ' to ' || t,
       pg_temp.put(pg_temp.put(g, 112 + 32 * f, pg_temp.le64(pg_temp.get64(g, 112 + 32 * f) - 1)),
                   112 + 32 * t, pg_temp.le64(pg_temp.get64(g, 112 + 32 * t) + 1))
  FROM base, (VALUES (0, 1), (1, 0)) x(f, t);
INSERT INTO cases (cat, why, v) SELECT '18 items and slots', 'fingerprint zeroed in slot ' || i, pg_temp.set_slot(b, 128, 11, i, 0)
  FROM base, generate_series(0, 7) i WHERE pg_temp.slot_of(b, 128, 11, i) <> 0;
INSERT INTO cases (cat, why, v) SELECT '18 items and slots', 'fingerprint ' || x || ' in empty slot ' || i,
       pg_temp.set_slot(b, 128, 11, i, x)
  FROM base, generate_series(0, 7) i, unnest(ARRAY[1, 1024, 2047]) x WHERE pg_temp.slot_of(b, 128, 11, i) = 0;
INSERT INTO cases (cat, why, v) SELECT '18 items and slots', 'capacity 3 filter, fingerprint zeroed in slot ' || i,
       pg_temp.set_slot(b3, 128, 11, i, 0)
  FROM base, generate_series(0, 11) i WHERE pg_temp.slot_of(b3, 128, 11, i) <> 0;
INSERT INTO cases (cat, why, v) SELECT '18 items and slots', 'capacity 3 filter, fingerprint in empty slot ' || i,
       pg_temp.set_slot(b3, 128, 11, i, 2047)
  FROM base, generate_series(0, 11) i WHERE pg_temp.slot_of(b3, 128, 11, i) = 0;
INSERT INTO cases (cat, why, v) SELECT '18 items and slots', 'empty filter, slot byte ' || n, set_byte(e, n, 1)
  FROM base, generate_series(128, 138) n;
INSERT INTO cases (cat, why, v) SELECT '18 items and slots', 'grown, sub-filter ' || sub || ' slot ' || i || ' zeroed',
       pg_temp.set_slot(g, area, f, i, 0)
  FROM base, (VALUES (0, 160, 11, 8), (1, 184, 13, 16)) x(sub, area, f, slots), generate_series(0, 15) i
 WHERE i < slots AND pg_temp.slot_of(g, area, f, i) <> 0;
-- 6. padding: bits past the last slot, and the final 8-byte word
INSERT INTO cases (cat, why, v) SELECT '19 padding', 'padding byte ' || n, set_byte(b, n, 1)
  FROM base, generate_series(139, 143) n;
INSERT INTO cases (cat, why, v) SELECT '19 padding', 'final word byte ' || n, set_byte(b, n, 128)
  FROM base, generate_series(144, 151) n;
INSERT INTO cases (cat, why, v) SELECT '19 padding', 'capacity 3 filter, padding bit ' || n, set_bit(b3, 144 * 8 + n, 1)
  FROM base, generate_series(4, 7) n;
INSERT INTO cases (cat, why, v) SELECT '19 padding', 'capacity 3 filter, padding byte ' || n, set_byte(b3, n, 1)
  FROM base, generate_series(145, 151) n;
INSERT INTO cases (cat, why, v) SELECT '19 padding', 'capacity 3 filter, final word byte ' || n, set_byte(b3, n, 1)
  FROM base, unnest(ARRAY[152, 159]) n;
INSERT INTO cases (cat, why, v) SELECT '19 padding', 'grown, byte ' || n, set_byte(g, n, 1)
  FROM base, unnest(ARRAY[171, 175, 176, 183, 210, 215, 216, 223]) n;
-- 7. hash lists (the aggregate states)
INSERT INTO cases (cat, why, v) SELECT '20 hash list', 'version 3 state, capacity 0', pg_temp.put(s3, 24, pg_temp.le64(0))
  FROM base;
INSERT INTO cases (cat, why, v) SELECT '20 hash list', 'version 1 state as version 3 (capacity 0)', set_byte(s1, 4, 3)
  FROM base;
INSERT INTO cases (cat, why, v) SELECT '20 hash list', 'version ' || f || ' state as version ' || n, set_byte(st, 4, n)
  FROM base, LATERAL (VALUES (1, s1), (3, s3)) x(f, st), unnest(ARRAY[0, 2, 4, 255]) n;
INSERT INTO cases (cat, why, v) SELECT '20 hash list', 'version 3 state as version 1 (with a capacity)', set_byte(s3, 4, 1)
  FROM base;
INSERT INTO cases (cat, why, v) SELECT '20 hash list', 'version 1 state, capacity ' || n, pg_temp.put(s1, 24, pg_temp.le64(n))
  FROM base, unnest(ARRAY[1, 10]) n;
INSERT INTO cases (cat, why, v) SELECT '20 hash list', 'version 3 state truncated to ' || n, substr(s3, 1, n)
  FROM base, generate_series(0, 87, 4) n;
INSERT INTO cases (cat, why, v) SELECT '20 hash list', 'version 3 state, extra ' || n || ' bytes', s3 || substr(s3, 65, n)
  FROM base, unnest(ARRAY[1, 8]) n;
INSERT INTO cases (cat, why, v) SELECT '20 hash list', 'version 3 state, k ' || n, set_byte(s3, 12, n)
  FROM base, unnest(ARRAY[1, 4]) n;
INSERT INTO cases (cat, why, v) SELECT '20 hash list', 'version 3 state, block log2 ' || n, set_byte(s3, 13, n)
  FROM base, unnest(ARRAY[1, 9]) n;
INSERT INTO cases (cat, why, v) SELECT '20 hash list', 'version 3 state, flags ' || n, set_byte(s3, 14, n)
  FROM base, unnest(ARRAY[1, 2]) n;
INSERT INTO cases (cat, why, v) SELECT '20 hash list', 'version 3 state, hash 2', set_byte(s3, 6, 2)
  FROM base;
INSERT INTO cases (cat, why, v) SELECT '20 hash list', 'version 3 state, fpr ' || d, pg_temp.put(s3, 32, pg_temp.le_double(d))
  FROM base, unnest(ARRAY[0, -0.01, 0.6, 1e-13, 'NaN'::float8, '-Infinity']) d;
INSERT INTO cases (cat, why, v) SELECT '20 hash list', 'version 3 state, items ' || n, pg_temp.put(s3, 40, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 2]) n;
INSERT INTO cases (cat, why, v) SELECT '20 hash list', 'version 3 state, slots ' || n, pg_temp.put(s3, 48, pg_temp.le64(n))
  FROM base, unnest(ARRAY[0, 2, 4, 67108729, 18446744073709551615::numeric]) n;
INSERT INTO cases (cat, why, v) SELECT '20 hash list', 'version 3 state, hashes ' || n, pg_temp.put(s3, 56, pg_temp.le64(n))
  FROM base, unnest(ARRAY[4, 18446744073709551615::numeric]) n;
INSERT INTO cases (cat, why, v) SELECT '20 hash list', 'version 3 state, kind 6', set_byte(s3, 5, 6)
  FROM base;
-- 8. the bytes of the other types, as they are and relabelled
INSERT INTO cases (cat, why, v) SELECT '21 other types', why, v FROM base, LATERAL (VALUES
  ('bloomfilter kind 1 (version 1)', bf1), ('bloomfilter kind 1 (version 2, fixed)', bf1n),
  ('bloomfilter kind 3 (pending hashes)', bf3), ('bloomfilter kind 4 (scalable)', bf4),
  ('countingbloom', cb),
  ('bloomfilter kind 1 relabelled version 3 kind 6', set_byte(set_byte(bf1, 4, 3), 5, 6)),
  ('bloomfilter kind 4 relabelled version 3 kind 6', set_byte(set_byte(bf4, 4, 3), 5, 6)),
  ('bloomfilter kind 3 relabelled version 3 kind 6', set_byte(set_byte(set_byte(bf3, 4, 3), 5, 6), 14, 0)),
  ('countingbloom relabelled kind 6', set_byte(cb, 5, 6)),
  ('countingbloom relabelled kind 6, bucket size 4', set_byte(set_byte(set_byte(cb, 5, 6), 12, 4), 13, 0)),
  ('cuckoofilter relabelled version 2 kind 4', set_byte(set_byte(b, 4, 2), 5, 4)),
  ('cuckoofilter relabelled version 1 kind 1', set_byte(set_byte(b, 4, 1), 5, 1))) x(why, v);
-- 9. not a filter at all
INSERT INTO cases (cat, why, v) SELECT '22 not a filter', why, v FROM (VALUES
  ('empty', ''::bytea), ('text', convert_to('hello, world', 'UTF8')),
  ('zeros', decode(repeat('00', 152), 'hex')), ('magic only', 'BLMF'::bytea),
  ('magic and version', '\x424c4d460306'::bytea), ('ones', decode(repeat('ff', 152), 'hex'))) x(why, v);

-- the controls: valid values, which every door must accept
INSERT INTO cases (cat, why, v, valid) SELECT '00 control', why, v, true FROM base, LATERAL (VALUES
  ('two keys', b), ('empty filter', e), ('capacity 3', b3), ('grown', g),
  ('bucket size 2', cuckoo_add(cuckoo_empty(1, bucket_size => 2), 1)::bytea),
  ('bucket size 8', cuckoo_add(cuckoo_empty(1, bucket_size => 8), 1)::bytea),
  ('expansion 0', cuckoo_add(cuckoo_empty(1, expansion => 0), 1)::bytea),
  ('expansion 16', cuckoo_add(cuckoo_empty(1, expansion => 16), 1)::bytea),
  ('max kicks 1', cuckoo_empty(1, max_kicks => 1)::bytea),
  ('max kicks 65535', cuckoo_empty(1, max_kicks => 65535)::bytea),
  ('removed again', cuckoo_remove(cuckoo_remove(b::cuckoofilter, 1), 2)::bytea),
  ('deletes max', pg_temp.put(b, 64, pg_temp.le64(18446744073709551615::numeric))),
  ('absorbed 7', pg_temp.put(b, 72, pg_temp.le64(7))),
  ('stuck max', pg_temp.put(b, 80, pg_temp.le64(18446744073709551615::numeric))),
  ('hash list, version 1', s1), ('hash list, version 3', s3),
  ('empty hash list', (SELECT cuckoo_agg(g) FROM generate_series(1, 0) g)::bytea),
  ('bloomfilter hash list', (SELECT pg_temp.bf_partial(g) FROM generate_series(5, 9) g)::bytea),
  -- (1.6) the largest version 3 list: 64 bytes that stand for 512 MB
  ('version 3 state of the largest capacity, empty',
   pg_temp.put(pg_temp.put(pg_temp.put(pg_temp.put(pg_temp.put(substr(s3, 1, 64), 24, pg_temp.le64(482699586)),
               32, pg_temp.le_double(0.5)), 40, pg_temp.le64(0)), 48, pg_temp.le64(0)), 56, pg_temp.le64(0))),
  ('version 3 state of the largest capacity, 3 keys',
   pg_temp.put(pg_temp.put(s3, 24, pg_temp.le64(482699586)), 32, pg_temp.le_double(0.5)))) x(why, v);
INSERT INTO cases (cat, why, v) SELECT '20 hash list', 'version 3 state, capacity one past the largest',
       pg_temp.put(pg_temp.put(s3, 24, pg_temp.le64(482699587)), 32, pg_temp.le_double(0.5))
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
CREATE TEMP TABLE sink (id int, f cuckoofilter);
CREATE TEMP TABLE landing (f cuckoofilter);
CREATE TEMP TABLE outcome (id int, door text, sqlstate text, message text);
DO $$
DECLARE
  r record;
  dummy cuckoofilter;
  detail text;
BEGIN
  FOR r IN SELECT id, v FROM cases ORDER BY id LOOP
    BEGIN
      EXECUTE format('SELECT %L::cuckoofilter', '\x' || encode(r.v, 'hex')) INTO dummy;
      INSERT INTO outcome VALUES (r.id, 'text', 'accepted', NULL);
    EXCEPTION WHEN others THEN
      GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
      INSERT INTO outcome VALUES (r.id, 'text', SQLSTATE, SQLERRM || ': ' || detail);
    END;
    BEGIN
      dummy := r.v::cuckoofilter;
      INSERT INTO outcome VALUES (r.id, 'bytea', 'accepted', NULL);
    EXCEPTION WHEN others THEN
      GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
      INSERT INTO outcome VALUES (r.id, 'bytea', SQLSTATE, SQLERRM || ': ' || detail);
    END;
    -- binary COPY of a bytea column is the raw bytes, which is what
    -- cuckoofilter_recv reads
    EXECUTE format('COPY (SELECT v FROM cases WHERE id = %s) TO %L WITH (FORMAT binary)',
                   r.id, '/tmp/bloomtype_cuckoo_hostile.bin');
    BEGIN
      COPY landing FROM '/tmp/bloomtype_cuckoo_hostile.bin' WITH (FORMAT binary);
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
-- the slots and padding are caught by the deep check, after the header
SELECT c.cat, regexp_replace(o.message, '^.*: ', '') AS reason, count(*)
  FROM cases c JOIN outcome o USING (id)
 WHERE o.door = 'bytea' AND c.cat IN ('18 items and slots', '19 padding')
 GROUP BY 1, 2 ORDER BY 1, 2;

-- a refused value leaves nothing behind: the sink holds the controls and
-- nothing else, each byte for byte as it went in
SELECT count(*) AS stored, count(*) FILTER (WHERE c.valid AND f::bytea = c.v) AS controls_intact
  FROM sink JOIN cases c USING (id);
-- a statement that meets one bad value among good ones stores none of them
CREATE TEMP TABLE mixed (f cuckoofilter);
INSERT INTO mixed SELECT v::cuckoofilter FROM cases
 WHERE why IN ('two keys', 'grown', 'final word byte 151') ORDER BY valid DESC, id;
COPY (SELECT v FROM cases WHERE why IN ('two keys', 'grown', 'hash list, version 3', 'reserved byte 88')
       ORDER BY valid DESC, id)
  TO '/tmp/bloomtype_cuckoo_hostile.bin' WITH (FORMAT binary);
COPY mixed FROM '/tmp/bloomtype_cuckoo_hostile.bin' WITH (FORMAT binary);
SELECT count(*) AS mixed_stored FROM mixed;
-- the backend is alive and well, and the controls work
SELECT cuckoo_contains(v::cuckoofilter, 1) AS has_1, cuckoo_contains(v::cuckoofilter, 3) AS has_3,
       cuckoo_count(v::cuckoofilter, 2) AS count_2
  FROM cases WHERE why = 'two keys';
SELECT why, cuckoo_contains(v::cuckoofilter, 1) AS has_1, cuckoo_contains(v::cuckoofilter, 10) AS has_10
  FROM cases WHERE why IN ('grown', 'hash list, version 3') ORDER BY id;

-- Hostile but valid: every slot holds the same fingerprint, past the cap of
-- copies a class may hold (which no check can see).  Adding, counting,
-- removing, compacting and uniting stay within the value.
CREATE TEMP TABLE crowded AS
  SELECT pg_temp.put(pg_temp.put(v, 40, pg_temp.le64(8)), 112, pg_temp.le64(8)) AS v
    FROM (SELECT pg_temp.set_slot(pg_temp.set_slot(pg_temp.set_slot(pg_temp.set_slot(
                 pg_temp.set_slot(pg_temp.set_slot(pg_temp.set_slot(pg_temp.set_slot(e,
                 128, 11, 0, 7), 128, 11, 1, 7), 128, 11, 2, 7), 128, 11, 3, 7),
                 128, 11, 4, 7), 128, 11, 5, 7), 128, 11, 6, 7), 128, 11, 7, 7) AS v FROM base) s;
SELECT (cuckoo_info(v::cuckoofilter)).items AS items,
       (cuckoo_info(cuckoo_add_all(v::cuckoofilter, ARRAY[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]))).items AS after_adds,
       cuckoo_contains_all(cuckoo_add_all(v::cuckoofilter, ARRAY[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
                           ARRAY[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) AS has_them,
       (cuckoo_info(cuckoo_remove_all(v::cuckoofilter, ARRAY[1, 2, 3]))).items AS after_removes,
       (cuckoo_info(cuckoo_compact(cuckoo_add_all(v::cuckoofilter, ARRAY[1, 2, 3, 4, 5, 6, 7, 8, 9, 10])))).items
         AS compacted,
       (cuckoo_info(cuckoo_union(v::cuckoofilter, v::cuckoofilter))).items AS united
  FROM crowded;

-- A hash list must be one cuckoo_agg could have made: a version 3 list
-- carries the capacity of the filter it will become, so a capacity no
-- filter can have, or a rate under the 1e-9 a growing filter needs, is
-- refused at input, not at its first use.
CREATE FUNCTION pg_temp.input_then_use(v bytea) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  f cuckoofilter;
  found bool;
BEGIN
  BEGIN
    f := v::cuckoofilter;
  EXCEPTION WHEN others THEN
    RETURN 'refused at input: ' || SQLERRM;
  END;
  BEGIN
    found := cuckoo_contains(f, 1);
  EXCEPTION WHEN others THEN
    RETURN 'accepted at input, ERROR at use: ' || SQLERRM;
  END;
  RETURN 'accepted at input and at use';
END $$;
SELECT why, pg_temp.input_then_use(v) FROM base, LATERAL (VALUES
  ('version 3 state, capacity 2^63 - 1', pg_temp.put(s3, 24, pg_temp.le64(9223372036854775807))),
  ('version 3 state, capacity 2^64 - 1', pg_temp.put(s3, 24, pg_temp.le64(18446744073709551615::numeric))),
  ('version 3 state, fpr 1e-10', pg_temp.put(s3, 32, pg_temp.le_double(1e-10))),
  ('version 1 state, fpr 1e-10', pg_temp.put(s1, 32, pg_temp.le_double(1e-10)))) x(why, v);

-- (1.6) A hash list with a capacity answers what the filter it stands for
-- answers (cuckoo_agg's final step builds it), without building it: the
-- fingerprints' buckets are simulated.  3 x capacity rows: the filter grew.
CREATE TEMP TABLE lists AS
  SELECT c, (SELECT pg_temp.cf_partial(g % (2 * c), c, 0.01) FROM generate_series(1, 3 * c) g) AS l,
         (SELECT cuckoo_agg(g % (2 * c), c, 0.01) FROM generate_series(1, 3 * c) g) AS f
    FROM unnest(ARRAY[10, 1000, 5000]) c;
SELECT c, get_byte(l::bytea, 5) AS list_kind, get_byte(f::bytea, 5) AS filter_kind,
       cuckoo_info(l) = cuckoo_info(f) AS same_info, (cuckoo_info(l)).subfilters,
       (cuckoo_info(l)).items, (cuckoo_info(l)).absorbed
  FROM lists ORDER BY c;
SELECT c, count(*) FILTER (WHERE cuckoo_contains(l, g) <> cuckoo_contains(f, g)) AS contains_differ,
       count(*) FILTER (WHERE cuckoo_count(l, g) <> cuckoo_count(f, g)) AS count_differ,
       count(*) FILTER (WHERE cuckoo_contains(l, g)) AS present
  FROM lists CROSS JOIN LATERAL generate_series(1, 20000 + c - c) g GROUP BY c ORDER BY c;
-- cuckoo_compact of a list is the list: already smaller than any filter
SELECT c, cuckoo_compact(l)::bytea = l::bytea AS compact_is_the_list FROM lists ORDER BY c;
-- a union of two lists is a list (both lists' rows), never the filters
-- of their capacity; no key of either is lost
CREATE TEMP TABLE unions AS SELECT c, l, l | l AS u FROM lists;
SELECT c, get_byte(u::bytea, 4) AS version, get_byte(u::bytea, 5) AS kind,
       length(u::bytea) = 2 * length(l::bytea) - 64 AS both_lists_hashes, (cuckoo_info(u)).items AS items
  FROM unions ORDER BY c;
SELECT c, count(*) FILTER (WHERE cuckoo_contains(u, g)) AS found, count(*) AS keys
  FROM unions CROSS JOIN LATERAL generate_series(0, 2 * c - 1) g GROUP BY c ORDER BY c;

-- (1.6) Reading a value costs what it holds.  An empty version 3 hash list
-- of capacity 482,699,586 (the largest, at rate 0.5) is 64 bytes that
-- stand for a 512 MB filter; with 7,000 hashes, 56 kB.  Sixteen rows of
-- each go through every read function under a statement_timeout of 1 s
-- (building the filter once a row takes seconds), and the backend, fresh,
-- must peak under 150 MB of memory (VmHWM, its peak resident set).
\c
CREATE FUNCTION pg_temp.le64(v numeric) RETURNS bytea LANGUAGE sql AS $$
  SELECT string_agg(set_byte('\x00'::bytea, 0, (div(v, 256::numeric ^ i) % 256)::int), ''::bytea ORDER BY i)
    FROM generate_series(0, 7) i
$$;
CREATE FUNCTION pg_temp.put(b bytea, off int, v bytea) RETURNS bytea LANGUAGE sql AS $$
  SELECT overlay(b PLACING v FROM off + 1 FOR length(v))
$$;
CREATE AGGREGATE pg_temp.cf_partial(bigint, bigint, float8) (SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter);
CREATE TEMP TABLE huge (why text, v cuckoofilter);
INSERT INTO huge SELECT why, v::cuckoofilter FROM
  (SELECT (SELECT pg_temp.cf_partial(g, 482699586, 0.5) FROM generate_series(1, 3) g)::bytea AS l,
          (SELECT pg_temp.cf_partial(g, 482699586, 0.5) FROM generate_series(1, 7000) g)::bytea AS l7) s,
  LATERAL (VALUES
  ('a 64-byte version 3 list of capacity 482699586, no hashes',
   pg_temp.put(pg_temp.put(pg_temp.put(substr(l, 1, 64), 48, pg_temp.le64(0)), 56, pg_temp.le64(0)),
               40, pg_temp.le64(0))),
  ('a version 3 list of capacity 482699586, 7000 hashes', l7)) x(why, v),
  generate_series(1, 16);
SELECT why, count(*) AS "rows", min(length(v::bytea)) AS bytes, min(get_byte(v::bytea, 4)) AS version,
       min(get_byte(v::bytea, 5)) AS kind
  FROM huge GROUP BY why ORDER BY why;
SET statement_timeout = '1s';
SELECT why, bool_or(cuckoo_contains(v, 42)) AS has_42, bool_or(cuckoo_contains(v, 7001)) AS has_7001,
       max(cuckoo_count(v, 42)) AS count_42,
       bool_and(cuckoo_contains_each(v, ARRAY[1, 2, 7001]) IN ('{t,t,f}', '{f,f,f}')) AS each,
       bool_or(cuckoo_contains_all(v, ARRAY[1, 2])) AS "all",
       bool_or(cuckoo_contains_any(v, ARRAY[7001, 7002])) AS "any"
  FROM huge GROUP BY why ORDER BY why;
SELECT why, i.capacity, i.bytes, i.buckets, i.fingerprint_bits, i.subfilters, i.items, i.load_factor > 0 AS loaded,
       i.key_type, i.format_version
  FROM (SELECT DISTINCT ON (why) why, v FROM huge ORDER BY why) h, cuckoo_info(v) i ORDER BY why;
SELECT why, count(*) FILTER (WHERE (v::bytea)::cuckoofilter = v AND v::text::cuckoofilter = v) AS casts_equal,
       count(*) FILTER (WHERE cuckoo_compact(v) = v) AS compact_equal
  FROM huge GROUP BY why ORDER BY why;
RESET statement_timeout;
SELECT (regexp_match(pg_read_file('/proc/self/status'), 'VmHWM:\s*(\d+) kB'))[1]::bigint < 150 * 1024
         AS peak_memory_under_150mb;

-- (1.6) an empty hash list keeps its key class: a probe of another class is
-- the ERROR every filter gives (and bloomfilter gave)
SELECT cuckoo_contains(set_byte((SELECT cuckoo_agg(g) FROM generate_series(1, 0) g)::bytea, 7, 1)::cuckoofilter, 1) AS int_probe;
SELECT cuckoo_contains(set_byte((SELECT cuckoo_agg(g) FROM generate_series(1, 0) g)::bytea, 7, 1)::cuckoofilter, 'x'::text);
SELECT (cuckoo_info(set_byte((SELECT cuckoo_agg(g) FROM generate_series(1, 0) g)::bytea, 7, 1)::cuckoofilter)).key_type;
