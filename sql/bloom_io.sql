-- Type I/O: text, binary, bytea casts, round trips and bad values
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

-- the text form is \x and the hex of the binary form, as bytea prints
SELECT v10_empty(1)::text;
SELECT bloom_add(v10_empty(1), 42)::text;
SELECT length(v10_empty(1)::text) = 2 + 2 * 128 AS one_block;

-- text round trip is exact, and equals the bytea form
CREATE TABLE io (id int, f bloomfilter);
INSERT INTO io VALUES
  (1, v10_empty(1)),
  (2, bloom_add(bloom_add(v10_empty(1000, 0.001), 'alice'), 'bob')),
  (3, (SELECT bloom_agg(g) FROM generate_series(1, 5000) g));
SELECT id, f::text::bloomfilter = f AS text_rt,
       f::bytea::bloomfilter = f AS bytea_rt,
       f::bytea = decode(substr(f::text, 3), 'hex') AS same_bytes,
       bloomfilter_send(f) = f::bytea AS send_is_bytea
  FROM io ORDER BY id;

-- binary COPY round trip
COPY io TO '/tmp/bloomtype_io.bin' WITH (FORMAT binary);
CREATE TABLE io2 (LIKE io);
COPY io2 FROM '/tmp/bloomtype_io.bin' WITH (FORMAT binary);
SELECT io.id, io.f = io2.f AS same, io.f::bytea = io2.f::bytea AS same_bytes
  FROM io JOIN io2 USING (id) ORDER BY id;
-- text COPY round trip
COPY io TO '/tmp/bloomtype_io.txt';
TRUNCATE io2;
COPY io2 FROM '/tmp/bloomtype_io.txt';
SELECT io.id, io.f::bytea = io2.f::bytea AS same_bytes
  FROM io JOIN io2 USING (id) ORDER BY id;

-- equality, hashing: GROUP BY, DISTINCT, UNION, hash joins
SELECT count(DISTINCT f) FROM (SELECT f FROM io UNION ALL SELECT f FROM io) s;
SELECT count(*) FROM (SELECT f FROM io UNION SELECT f FROM io2) s;
SELECT f = f2 AS eq, f <> f2 AS ne FROM
  (SELECT (SELECT f FROM io WHERE id = 1) AS f, (SELECT f FROM io WHERE id = 2) AS f2) s;
SELECT count(*) FROM (SELECT f, count(*) FROM (SELECT f FROM io UNION ALL SELECT f FROM io2) s GROUP BY f) g;
SELECT bloomfilter_hash(f) = bloomfilter_hash(f::bytea::bloomfilter) AS stable_hash,
       bloomfilter_hash_extended(f, 1) <> bloomfilter_hash_extended(f, 2) AS seeded
  FROM io WHERE id = 2;

-- storage is external: not compressed
SELECT attstorage FROM pg_attribute WHERE attrelid = 'io'::regclass AND attname = 'f';

-- bad values: syntax
SELECT ''::bloomfilter;
SELECT 'x00'::bloomfilter;
SELECT '\x0'::bloomfilter;
SELECT '\xzz'::bloomfilter;
SELECT '\x'::bloomfilter;
-- bad values: truncated at every header boundary and in the bits
SELECT substr(v10_empty(1)::bytea, 1, 4)::bloomfilter;
SELECT substr(v10_empty(1)::bytea, 1, 63)::bloomfilter;
SELECT substr(v10_empty(1)::bytea, 1, 64)::bloomfilter;
SELECT substr(v10_empty(1)::bytea, 1, 127)::bloomfilter;
SELECT (v10_empty(1)::bytea || '\x00'::bytea)::bloomfilter;
-- wrong magic, version, kind, hash, key class, flags, reserved
SELECT set_byte(v10_empty(1)::bytea, 0, 0)::bloomfilter;
SELECT set_byte(v10_empty(1)::bytea, 4, 2)::bloomfilter;
SELECT set_byte(v10_empty(1)::bytea, 5, 7)::bloomfilter;
SELECT set_byte(v10_empty(1)::bytea, 6, 9)::bloomfilter;
SELECT set_byte(v10_empty(1)::bytea, 7, 99)::bloomfilter;
SELECT set_byte(v10_empty(1)::bytea, 14, 1)::bloomfilter;
SELECT set_byte(v10_empty(1)::bytea, 56, 1)::bloomfilter;
-- geometry: k, block size, block count that lies about the length
SELECT set_byte(v10_empty(1)::bytea, 12, 0)::bloomfilter;
SELECT set_byte(v10_empty(1)::bytea, 12, 200)::bloomfilter;
SELECT set_byte(v10_empty(1)::bytea, 13, 10)::bloomfilter;
SELECT set_byte(v10_empty(1)::bytea, 48, 2)::bloomfilter;
SELECT set_byte(v10_empty(1)::bytea, 55, 255)::bloomfilter;
-- capacity and fpr out of range
SELECT set_byte(v10_empty(1)::bytea, 24, 0)::bloomfilter;
SELECT set_byte(v10_empty(1)::bytea, 39, 255)::bloomfilter;
-- the same checks guard the text input and binary receive
SELECT ('\x' || encode(set_byte(v10_empty(1)::bytea, 4, 9), 'hex'))::bloomfilter;
SELECT array_agg(id ORDER BY f) IS NOT NULL AS sortable FROM io;
-- the backend is still alive and well
SELECT bloom_contains(bloom_add(v10_empty(10), 7), 7);

DROP TABLE io, io2;
