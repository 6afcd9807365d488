-- The bloomfilter index access method (1.3): default operator classes for
-- every key type, probes across the integer family, expression, partial
-- and NULL keys, options, the filter snapshot, bloom_index_info, VACUUM,
-- TRUNCATE, REINDEX [CONCURRENTLY], growth past 100x the build with the
-- false-positive rate kept, the planner never scanning it, amvalidate.
-- Hashing is deterministic (seed 0): every count below is the same on
-- every run.  Every object made here is dropped at the end (bloom_trusted
-- drops the extension without CASCADE).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;
\pset null NULL

-- 1. The access method and its operator classes
SELECT amname, amtype, amhandler FROM pg_am WHERE amname = 'bloomfilter';
SELECT opc.opcname, opf.opfname, opc.opcintype::regtype, opc.opcdefault,
       amp.amprocnum, amp.amproc::regprocedure
  FROM pg_opclass opc
  JOIN pg_am am ON am.oid = opc.opcmethod
  JOIN pg_opfamily opf ON opf.oid = opc.opcfamily
  JOIN pg_amproc amp ON amp.amprocfamily = opc.opcfamily
                    AND amp.amproclefttype = opc.opcintype
 WHERE am.amname = 'bloomfilter'
 ORDER BY opf.opfname, opc.opcname;
-- no operators in any family
SELECT count(*) AS operators
  FROM pg_amop WHERE amopmethod = (SELECT oid FROM pg_am WHERE amname = 'bloomfilter');
-- amvalidate is true for every class
SELECT opc.opcname, amvalidate(opc.oid)
  FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
 WHERE am.amname = 'bloomfilter'
 ORDER BY opc.opcname;

-- 2. Every key type's default operator class, and its key class
CREATE DOMAIN am_d8 AS bigint;
CREATE DOMAIN am_dnum AS numeric;
CREATE TYPE am_mood AS ENUM ('sad', 'ok', 'happy');
CREATE TABLE am_keys (i2 int2, i4 int4, i8 int8, tx text, vc varchar(20),
  ch char(6), nm name, ba bytea, u uuid, f4 float4, f8 float8, nu numeric,
  jb jsonb, dd am_d8, mo am_mood, ts timestamptz, ia int[]);
INSERT INTO am_keys
SELECT g, g, g, 'k' || g, 'k' || g, 'c' || g, 'n' || g,
       ('\x' || lpad(to_hex(g), 4, '0'))::bytea, md5(g::text)::uuid,
       g + 0.5, g + 0.5, g + 0.5, jsonb_build_object('k', g), g,
       (ARRAY['sad', 'ok', 'happy']::am_mood[])[g % 3 + 1],
       '2020-01-01 00:00:00+00'::timestamptz + g * interval '1 day', ARRAY[g, g]
  FROM generate_series(1, 1000) g;
-- and the special values of float keys
INSERT INTO am_keys (f4, f8) VALUES ('-0', '-0'), ('NaN', 'NaN'), ('Infinity', '-Infinity');
DO $$
DECLARE c text;
BEGIN
  FOR c IN SELECT attname FROM pg_attribute
            WHERE attrelid = 'am_keys'::regclass AND attnum > 0 AND NOT attisdropped
  LOOP
    EXECUTE format('CREATE INDEX %I ON am_keys USING bloomfilter (%I) WITH (seed = 0)', 'am_keys_' || c, c);
  END LOOP;
END $$;
SELECT c.relname AS index, a.atttypid::regtype AS column_type, opc.opcname,
       opf.opfname, i.key_type, i.items, i.build_items, i.layers, i.partitions
  FROM pg_index x
  JOIN pg_class c ON c.oid = x.indexrelid
  JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = x.indkey[0]
  JOIN pg_opclass opc ON opc.oid = x.indclass[0]
  JOIN pg_opfamily opf ON opf.oid = opc.opcfamily,
  LATERAL bloom_index_info(c.oid) i
 WHERE x.indrelid = 'am_keys'::regclass
 ORDER BY 1;
-- indclass asserted for int4, varchar, a domain over int8 and numeric
SELECT c.relname, opc.opcname,
       opc.opcname = CASE c.relname WHEN 'am_keys_i4' THEN 'bloomfilter_int4_ops'
                                    WHEN 'am_keys_vc' THEN 'bloomfilter_text_ops'
                                    WHEN 'am_keys_dd' THEN 'bloomfilter_int8_ops'
                                    WHEN 'am_keys_nu' THEN 'bloomfilter_any_ops' END AS expected
  FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
  JOIN pg_opclass opc ON opc.oid = x.indclass[0]
 WHERE c.relname IN ('am_keys_i4', 'am_keys_vc', 'am_keys_dd', 'am_keys_nu')
 ORDER BY 1;
-- every present key is found, through each index (no false negatives)
SELECT count(*) FILTER (WHERE bloom_index_contains('am_keys_i2', i2)) AS i2,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_i4', i4)) AS i4,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_i8', i8)) AS i8,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_tx', tx)) AS tx,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_vc', vc)) AS vc,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_ch', ch)) AS ch,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_nm', nm)) AS nm,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_ba', ba)) AS ba,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_u', u)) AS u,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_f4', f4)) AS f4,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_f8', f8)) AS f8,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_nu', nu)) AS nu,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_jb', jb)) AS jb,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_dd', dd)) AS dd,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_mo', mo)) AS mo,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_ts', ts)) AS ts,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_ia', ia)) AS ia
  FROM am_keys WHERE i2 IS NOT NULL;
-- absent keys of each type, 1,000 each: at most a few false positives
SELECT count(*) FILTER (WHERE bloom_index_contains('am_keys_i4', -g)) <= 20 AS i4,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_tx', 'x' || g)) <= 20 AS tx,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_ba', int4send(-g))) <= 20 AS ba,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_u', md5((-g)::text)::uuid)) <= 20 AS u,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_f8', g + 0.25::float8)) <= 20 AS f8,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_nu', g + 0.25)) <= 20 AS nu,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_jb', jsonb_build_object('j', g))) <= 20 AS jb
  FROM generate_series(1, 1000) g;
-- a few keys one by one: the class rules of bloomfilter values
SELECT bloom_index_contains('am_keys_f8', 1.5::float4) AS f4_probe_of_f8,
       bloom_index_contains('am_keys_f4', 1.5::float8) AS f8_probe_of_f4,
       bloom_index_contains('am_keys_f8', 0::float8) AS zero_is_minus_zero,
       bloom_index_contains('am_keys_f8', 'NaN'::float8) AS nan,
       bloom_index_contains('am_keys_f8', '-Infinity'::float8) AS minus_inf,
       bloom_index_contains('am_keys_f8', 'Infinity'::float8) AS plus_inf_absent;
SELECT bloom_index_contains('am_keys_vc', 'k1') AS text_probe_of_varchar,
       bloom_index_contains('am_keys_tx', 'k1'::varchar) AS varchar_probe_of_text,
       bloom_index_contains('am_keys_ch', 'c1'::text) AS text_probe_of_char,
       bloom_index_contains('am_keys_nm', 'n1'::text) AS text_probe_of_name,
       bloom_index_contains('am_keys_tx', 'K1') AS case_matters;
SELECT bloom_index_contains('am_keys_dd', 7) AS int4_probe_of_domain,
       bloom_index_contains('am_keys_i8', 7::am_d8) AS domain_probe_of_int8,
       bloom_index_contains('am_keys_nu', 1.5::am_dnum) AS domain_probe_of_numeric,
       bloom_index_contains('am_keys_mo', 'happy'::am_mood) AS enum,
       bloom_index_contains('am_keys_ia', ARRAY[7, 7]) AS int_array,
       bloom_index_contains('am_keys_ia', ARRAY[7]) AS other_array_absent;
-- class "other" keys are their send form (README, Key encodings): numeric
-- keeps its display scale, so 1.50 is not the key 1.5
SELECT bloom_index_contains('am_keys_nu', 1.5) AS scale_1,
       bloom_index_contains('am_keys_nu', 1.50) AS scale_2,
       bloom_index_contains('am_keys_jb', '{"k": 1}'::jsonb) AS jsonb;

-- 3. int2 and int4 probes of an int8 index, and int8 probes of an int2 one
SELECT bloom_index_contains('am_keys_i8', 42::int2) AS int2,
       bloom_index_contains('am_keys_i8', 42::int4) AS int4,
       bloom_index_contains('am_keys_i8', 42::int8) AS int8,
       bloom_index_contains('am_keys_i2', 42::int8) AS int8_of_int2,
       bloom_index_contains('am_keys_i2', 70000::int8) AS out_of_int2_range;
SELECT count(*) FILTER (WHERE bloom_index_contains('am_keys_i8', g::int2)) AS int2_found,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_i8', g::int4)) AS int4_found,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_i4', g::int8)) AS int8_in_int4,
       count(*) FILTER (WHERE bloom_index_contains('am_keys_i2', g::int4)) AS int4_in_int2
  FROM generate_series(1, 1000) g;
SELECT bloom_index_contains_each('am_keys_i8', ARRAY[1, 2, NULL, -5]::int2[]) AS int2_each,
       bloom_index_contains_each('am_keys_i8', ARRAY[1, 2, NULL, -5]::int4[]) AS int4_each,
       bloom_index_contains_each('am_keys_i8', ARRAY[1, 2, NULL, -5]::int8[]) AS int8_each;
-- the canonical hash: one key space for the integers, the same hash
-- through domains, varchar and text, and the seed matters
SELECT bloom_key_hash(42::int4) = bloom_key_hash(42::int8) AS int4_is_int8,
       bloom_key_hash(42::int2) = bloom_key_hash(42::int8) AS int2_is_int8,
       bloom_key_hash(42::am_d8) = bloom_key_hash(42::int8) AS domain_is_base,
       bloom_key_hash('x'::varchar) = bloom_key_hash('x'::text) AS varchar_is_text,
       bloom_key_hash(1.5::float4) = bloom_key_hash(1.5::float8) AS float4_is_float8,
       bloom_key_hash('-0'::float8) = bloom_key_hash(0::float8) AS minus_zero,
       bloom_key_hash(42::int8) <> bloom_key_hash('42'::text) AS classes_differ,
       bloom_key_hash(42::int8) <> bloom_key_hash(42::int8, 1) AS seed_matters,
       bloom_key_hash(42::int8, 0) = bloom_key_hash(42::int8) AS seed_defaults_to_0;
SELECT bloom_key_hash(42::int8) AS int8_42, bloom_key_hash('x'::text) AS text_x,
       bloom_key_hash(1.5) AS numeric_1_5;

-- 4. Expression index, partial index, NULL keys, and contains_each shapes
CREATE TABLE am_users (id bigint, active boolean, email text);
INSERT INTO am_users
SELECT g, g % 2 = 0, CASE WHEN g % 10 <> 0 THEN 'User' || g || '@Example.COM' END
  FROM generate_series(1, 10000) g;
CREATE INDEX am_users_email ON am_users USING bloomfilter (lower(email)) WITH (seed = 0);
CREATE INDEX am_users_active ON am_users USING bloomfilter (id) WITH (seed = 0) WHERE active;
-- the expression's keys: lower case only; 1,000 NULL emails are no keys
SELECT bloom_index_contains('am_users_email', 'user1@example.com') AS lowered,
       bloom_index_contains('am_users_email', 'User1@Example.COM') AS as_written;
SELECT count(*) FILTER (WHERE bloom_index_contains('am_users_email', lower(email))) AS found,
       count(*) FILTER (WHERE email IS NOT NULL) AS keys
  FROM am_users;
SELECT items, build_items, key_type FROM bloom_index_info('am_users_email');
-- the partial index holds the 5,000 active ids, and few inactive ones
SELECT count(*) FILTER (WHERE active AND bloom_index_contains('am_users_active', id)) AS active_found,
       count(*) FILTER (WHERE NOT active AND bloom_index_contains('am_users_active', id)) <= 50
         AS inactive_few
  FROM am_users;
SELECT items, build_items FROM bloom_index_info('am_users_active');
-- inserts: a row the predicate rejects adds no key, a NULL adds no key
INSERT INTO am_users VALUES (20001, false, NULL), (20002, true, NULL);
SELECT bloom_index_contains('am_users_active', 20001) AS inactive_row,
       bloom_index_contains('am_users_active', 20002) AS active_row,
       (SELECT items FROM bloom_index_info('am_users_email')) AS email_items,
       (SELECT items FROM bloom_index_info('am_users_active')) AS active_items;
-- an UPDATE of the key adds the new key; the old one stays (no deletes)
UPDATE am_users SET email = 'New' || id || '@example.com' WHERE id BETWEEN 1 AND 5;
SELECT count(*) FILTER (WHERE bloom_index_contains('am_users_email', 'new' || g || '@example.com')) AS new_keys,
       count(*) FILTER (WHERE bloom_index_contains('am_users_email', 'user' || g || '@example.com')) AS old_keys
  FROM generate_series(1, 5) g;
-- an UPDATE of another column adds nothing
SELECT items AS before FROM bloom_index_info('am_users_email') \gset
UPDATE am_users SET active = NOT active WHERE id BETWEEN 100 AND 200;
SELECT items = :before AS unchanged FROM bloom_index_info('am_users_email');
-- NULL probes: NULL (strict), NULL elements NULL, shapes kept
SELECT bloom_index_contains('am_users_active', NULL::bigint) AS null_key;
SELECT bloom_index_contains_each('am_users_active', ARRAY[2, 3, NULL]) AS flat,
       bloom_index_contains_each('am_users_active', ARRAY[[2, 3], [NULL, 4]]) AS two_dims,
       bloom_index_contains_each('am_users_active', '[3:4]={2,-2}'::int[]) AS bounds,
       bloom_index_contains_each('am_users_active', '{}'::int[]) AS empty;
-- contains_each agrees with contains on 10,000 keys
SELECT count(*) AS disagree
  FROM unnest(bloom_index_contains_each('am_users_active', ARRAY(SELECT generate_series(-5000, 4999))))
       WITH ORDINALITY e(found, n)
 WHERE found <> bloom_index_contains('am_users_active', n - 5001);
-- a table of NULLs only: no keys, an empty filter that answers false
CREATE TABLE am_nulls (k int8);
INSERT INTO am_nulls SELECT NULL FROM generate_series(1, 100);
CREATE INDEX am_nulls_k ON am_nulls USING bloomfilter (k) WITH (seed = 0);
SELECT items, capacity, layers, bits_set, build_items FROM bloom_index_info('am_nulls_k');
SELECT bloom_index_contains('am_nulls_k', 0) AS zero;

-- 5. Options: stored in reloptions, frozen into the index at build
CREATE TABLE am_opts (id bigint);
INSERT INTO am_opts SELECT generate_series(1, 10000);
-- (seed = 0: these counts are those of the public seed, not of a secret one
-- drawn at each build: bloom_am_flood tests those)
CREATE INDEX am_opts_default ON am_opts USING bloomfilter (id) WITH (seed = 0);
CREATE INDEX am_opts_set ON am_opts USING bloomfilter (id)
  WITH (fpr = 0.001, expansion = 4, min_capacity = 50000, min_pages = 16, seed = 0);
CREATE INDEX am_opts_pages ON am_opts USING bloomfilter (id) WITH (min_pages = 32, seed = 0);
SELECT c.relname, c.reloptions, i.fpr, i.expansion, i.capacity, i.hashes, i.layers,
       i.bytes, i.bytes = pg_relation_size(c.oid) AS bytes_is_size,
       i.items, i.bits_set
  FROM pg_class c, LATERAL bloom_index_info(c.oid) i
 WHERE c.relname LIKE 'am\_opts\_%' ORDER BY 1;
-- ALTER INDEX SET changes the options of the next build, not the filter
ALTER INDEX am_opts_default SET (fpr = 0.05);
SELECT fpr, capacity, hashes FROM bloom_index_info('am_opts_default');
REINDEX INDEX am_opts_default;
SELECT fpr, capacity, hashes FROM bloom_index_info('am_opts_default');
ALTER INDEX am_opts_default RESET (fpr);
REINDEX INDEX am_opts_default;
SELECT fpr, capacity, hashes FROM bloom_index_info('am_opts_default');
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('am_opts_set', id)) AS false_negatives,
       (SELECT count(*) FROM generate_series(-1, -100000, -1) k
         WHERE bloom_index_contains('am_opts_set', k)) <= 100 AS fpr_0_001_kept
  FROM am_opts;

-- 6. bloom_index_filter: a snapshot that answers as the index does, on
-- 10,000 keys present and 20,000 absent
-- (a temporary table: its dead rows are gone for VACUUM and REINDEX
-- whatever other sessions' snapshots, so the counts below are exact)
CREATE TEMP TABLE am_snap (id bigint);
INSERT INTO am_snap SELECT generate_series(1, 10000);
CREATE INDEX am_snap_i ON am_snap USING bloomfilter (id) WITH (seed = 0);
SELECT count(*) FILTER (WHERE bloom_contains(f, k) <> bloom_index_contains('am_snap_i', k)) AS disagree,
       count(*) FILTER (WHERE k BETWEEN 1 AND 10000 AND bloom_contains(f, k)) AS present_found,
       count(*) FILTER (WHERE k BETWEEN 1 AND 10000 AND bloom_contains(f, k::int4)) AS int4_found,
       count(*) FILTER (WHERE k NOT BETWEEN 1 AND 10000 AND bloom_contains(f, k)) <= 200 AS absent_few
  FROM bloom_index_filter('am_snap_i') f, generate_series(-9999, 20000) k;
SELECT kind, capacity, fpr, bits, hashes, bytes, items, bits_set, key_type,
       format_version, layers, expansion
  FROM bloom_info(bloom_index_filter('am_snap_i'));
-- the snapshot and bloom_index_info agree
SELECT i.items = f.items AS items, i.capacity = f.capacity AS capacity,
       i.bits_set = f.bits_set AS bits_set, i.layers = f.layers AS layers,
       i.hashes = f.hashes AS hashes, i.estimated_fpr = f.estimated_fpr AS estimated_fpr
  FROM bloom_index_info('am_snap_i') i, bloom_info(bloom_index_filter('am_snap_i')) f;
-- the snapshot takes keys as any scalable value does
SELECT bloom_contains(bloom_add(bloom_index_filter('am_snap_i'), -1), -1) AS added;
-- a filter built by bloom_add and the index agree on text keys
CREATE TEMP TABLE am_words (w text);
INSERT INTO am_words VALUES ('x'), ('y'), (NULL);
CREATE INDEX am_words_w ON am_words USING bloomfilter (w) WITH (seed = 0);
SELECT k, bloom_contains(bloom_add(NULL, 'x'::text), k) AS value_x,
       bloom_index_contains('am_words_w', k) AS index,
       bloom_contains(bloom_index_filter('am_words_w'), k) AS snapshot
  FROM unnest(ARRAY['x', 'y', 'z', '']) k ORDER BY k;
SELECT bloom_contains(bloom_add(NULL, 'x'::text), 'x') = bloom_index_contains('am_words_w', 'x')
         AS agree_x,
       bloom_contains(bloom_add(NULL, 'x'::text), 'x'::varchar) = bloom_index_contains('am_words_w', 'x'::varchar)
         AS agree_varchar;

-- 7. bloom_index_info columns
SELECT items, capacity, fpr, layers, bytes, expansion, hashes, bits_set, key_type,
       build_items, partitions,
       estimated_fpr > 0 AND estimated_fpr <= fpr AS estimated_under_fpr,
       abs(saturation - estimated_fpr / fpr) < 1e-12 AS saturation_is_ratio,
       round(estimated_fpr::numeric, 8) AS estimated_fpr
  FROM bloom_index_info('am_snap_i');

-- 8. VACUUM reports (at DEBUG2: PostgreSQL 15 hands index AMs that level,
-- VERBOSE or not) and changes nothing; deleted keys stay
SET client_min_messages = debug2;
VACUUM am_words;
RESET client_min_messages;
SELECT md5(bloom_index_filter('am_snap_i')::bytea) AS before_vacuum \gset
DELETE FROM am_snap WHERE id % 2 = 0;
VACUUM am_snap;
SELECT md5(bloom_index_filter('am_snap_i')::bytea) = :'before_vacuum' AS unchanged,
       (SELECT count(*) FROM generate_series(2, 10000, 2) k
         WHERE bloom_index_contains('am_snap_i', k)) AS deleted_still_found,
       (SELECT items FROM bloom_index_info('am_snap_i')) AS items;
-- VACUUM FULL rebuilds, as REINDEX does
DELETE FROM am_words WHERE w = 'y';
VACUUM FULL am_words;
SELECT bloom_index_contains('am_words_w', 'x') AS kept, bloom_index_contains('am_words_w', 'y') AS gone,
       items, build_items FROM bloom_index_info('am_words_w');

-- 9. REINDEX rebuilds from the rows that remain; CONCURRENTLY too
REINDEX INDEX am_snap_i;
SELECT items, capacity, layers, build_items FROM bloom_index_info('am_snap_i');
SELECT (SELECT count(*) FROM am_snap WHERE NOT bloom_index_contains('am_snap_i', id)) AS false_negatives,
       (SELECT count(*) FROM generate_series(2, 10000, 2) k
         WHERE bloom_index_contains('am_snap_i', k)) <= 50 AS deleted_gone;
-- REINDEX CONCURRENTLY (a permanent table: a temporary one is reindexed
-- in place) of an index that grew: one layer again, sized for the rows
CREATE TABLE am_conc (id bigint);
INSERT INTO am_conc SELECT generate_series(1, 1000);
CREATE INDEX am_conc_i ON am_conc USING bloomfilter (id) WITH (min_pages = 1, seed = 0);
INSERT INTO am_conc SELECT generate_series(1001, 20000);
SELECT items, capacity, layers, build_items FROM bloom_index_info('am_conc_i');
REINDEX INDEX CONCURRENTLY am_conc_i;
SELECT items, capacity, layers, build_items FROM bloom_index_info('am_conc_i');
SELECT x.indisvalid, x.indisready, am.amname
  FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid JOIN pg_am am ON am.oid = c.relam
 WHERE x.indexrelid = 'am_conc_i'::regclass;
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('am_conc_i', id)) AS false_negatives,
       count(*) AS keys
  FROM am_conc;
INSERT INTO am_conc SELECT generate_series(20001, 25000);
REINDEX TABLE CONCURRENTLY am_conc;
SELECT items, capacity, layers, build_items FROM bloom_index_info('am_conc_i');
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('am_conc_i', id)) AS false_negatives
  FROM am_conc;
-- CREATE INDEX CONCURRENTLY builds a valid index too
CREATE INDEX CONCURRENTLY am_conc_cic ON am_conc USING bloomfilter (id) WITH (seed = 0);
SELECT (SELECT indisvalid FROM pg_index WHERE indexrelid = 'am_conc_cic'::regclass) AS valid,
       (SELECT count(*) FROM am_conc WHERE NOT bloom_index_contains('am_conc_cic', id)) AS false_negatives,
       (SELECT items FROM bloom_index_info('am_conc_cic')) AS items;
DROP INDEX CONCURRENTLY am_conc_cic;

-- 10. TRUNCATE empties the filter; inserts then work
TRUNCATE am_conc;
SELECT items, capacity, layers, bits_set, build_items FROM bloom_index_info('am_conc_i');
SELECT bloom_index_contains('am_conc_i', 1) AS gone;
INSERT INTO am_conc SELECT generate_series(1, 12000);
SELECT items, layers FROM bloom_index_info('am_conc_i');
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('am_conc_i', id)) AS false_negatives
  FROM am_conc;
-- TRUNCATE rolled back keeps the filter
BEGIN;
TRUNCATE am_conc;
INSERT INTO am_conc VALUES (-1);
ROLLBACK;
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('am_conc_i', id)) AS false_negatives,
       (SELECT items FROM bloom_index_info('am_conc_i')) AS items
  FROM am_conc;
-- and a TRUNCATE of a temporary table
TRUNCATE am_snap;
SELECT items, layers FROM bloom_index_info('am_snap_i');
INSERT INTO am_snap VALUES (7);
SELECT bloom_index_contains('am_snap_i', 7) AS seven, bloom_index_contains('am_snap_i', 1) AS one;

-- 11. Growth: built on 1,000 rows with a one-page first layer (what one
-- page holds: about 5,400 keys at 1%, 3,600 at 0.1%), 100,000 more
-- inserted (20x and more the first layer).  Layers are added, no key is
-- lost, and the rate measured over 100,000 absent keys stays at or under
-- fpr.
CREATE TABLE am_grow (id bigint);
INSERT INTO am_grow SELECT generate_series(1, 1000);
CREATE INDEX am_grow_1 ON am_grow USING bloomfilter (id) WITH (fpr = 0.01, min_pages = 1, seed = 0);
CREATE INDEX am_grow_2 ON am_grow USING bloomfilter (id)
  WITH (fpr = 0.001, expansion = 4, min_pages = 1, seed = 0);
SELECT c.relname, i.items, i.capacity, i.layers, i.build_items
  FROM pg_class c, LATERAL bloom_index_info(c.oid) i
 WHERE c.relname LIKE 'am\_grow\_%' ORDER BY 1;
INSERT INTO am_grow SELECT generate_series(1001, 101000);
SELECT c.relname, i.fpr, i.layers, i.layers > 1 AS grew, i.capacity >= 101000 AS room,
       i.items BETWEEN 100000 AND 101000 AS items_ok, i.capacity, i.hashes,
       i.estimated_fpr <= i.fpr AS estimated_ok, i.build_items,
       (SELECT count(*) FROM am_grow WHERE NOT bloom_index_contains(c.oid, id)) AS false_negatives,
       (SELECT count(*) FROM generate_series(-1, -100000, -1) k
         WHERE bloom_index_contains(c.oid, k)) / 100000.0 <= i.fpr AS measured_at_or_under
  FROM pg_class c, LATERAL bloom_index_info(c.oid) i
 WHERE c.relname LIKE 'am\_grow\_%' ORDER BY 1;
-- the same through contains_each and the snapshot
SELECT count(*) FILTER (WHERE NOT found) AS false_negatives
  FROM unnest(bloom_index_contains_each('am_grow_1', ARRAY(SELECT id FROM am_grow))) found;
SELECT count(*) FILTER (WHERE bloom_contains(f, k) <> bloom_index_contains('am_grow_1', k)) AS disagree
  FROM bloom_index_filter('am_grow_1') f, generate_series(-20000, 101000, 7) k;
-- REINDEX brings it back to one layer sized for the rows
REINDEX INDEX am_grow_1;
SELECT items, capacity, layers, build_items FROM bloom_index_info('am_grow_1');
SELECT count(*) FILTER (WHERE NOT bloom_index_contains('am_grow_1', id)) AS false_negatives
  FROM am_grow;

-- 12. The planner never uses the index for a scan: bloom_am_plans (its
-- EXPLAIN output differs between PostgreSQL 15 and 18)

-- 13. Unlogged and temporary tables
CREATE UNLOGGED TABLE am_unlogged (id bigint);
CREATE INDEX am_unlogged_i ON am_unlogged USING bloomfilter (id) WITH (seed = 0);
INSERT INTO am_unlogged SELECT generate_series(1, 5000);
SELECT (SELECT items FROM bloom_index_info('am_unlogged_i')) AS items,
       count(*) FILTER (WHERE NOT bloom_index_contains('am_unlogged_i', id)) AS false_negatives
  FROM am_unlogged;
CREATE TEMP TABLE am_temp (id bigint);
CREATE INDEX am_temp_i ON am_temp USING bloomfilter (id) WITH (seed = 0);
INSERT INTO am_temp SELECT generate_series(1, 5000);
SELECT (SELECT items FROM bloom_index_info('am_temp_i')) AS items,
       count(*) FILTER (WHERE NOT bloom_index_contains('am_temp_i', id)) AS false_negatives
  FROM am_temp;

-- 14. An UPDATE that makes a partial index's predicate true brings the
-- key in, though the key column did not change
CREATE TABLE am_pred (id int, active bool);
CREATE INDEX am_pred_f ON am_pred USING bloomfilter (id) WITH (seed = 0) WHERE active;
INSERT INTO am_pred VALUES (5, false), (6, true);
SELECT bloom_index_contains('am_pred_f', 5) AS before_update;
UPDATE am_pred SET active = true WHERE id = 5;
SELECT bloom_index_contains('am_pred_f', 5) AS after_update,
       bloom_index_contains('am_pred_f', 6) AS six;
-- and one whose trigger changes the key, though the SET list does not
CREATE TABLE am_trig (k int, note text);
CREATE INDEX am_trig_f ON am_trig USING bloomfilter (k) WITH (seed = 0);
CREATE FUNCTION am_trig_set_k() RETURNS trigger LANGUAGE plpgsql AS
  $$ BEGIN NEW.k := 424242; RETURN NEW; END $$;
CREATE TRIGGER am_trig_t BEFORE UPDATE ON am_trig FOR EACH ROW EXECUTE FUNCTION am_trig_set_k();
INSERT INTO am_trig VALUES (1, 'a');
UPDATE am_trig SET note = 'b';
SELECT k, bloom_index_contains('am_trig_f', k) AS found FROM am_trig;
DROP TABLE am_pred, am_trig;
DROP FUNCTION am_trig_set_k();

-- 15. Keys of class "other" hash in the database's encoding, whatever the
-- session's client_encoding: text arrays and jsonb written from a LATIN1
-- session are found from a UTF8 one, and the reverse
CREATE TABLE am_enc (a text[], j jsonb);
CREATE INDEX am_enc_a ON am_enc USING bloomfilter (a) WITH (seed = 0);
CREATE INDEX am_enc_j ON am_enc USING bloomfilter (j) WITH (seed = 0);
SET client_encoding = LATIN1;
INSERT INTO am_enc VALUES (ARRAY['caf' || chr(233)], jsonb_build_object('k', 'caf' || chr(233)));
RESET client_encoding;
INSERT INTO am_enc VALUES (ARRAY['na' || chr(239) || 've'], jsonb_build_object('k', 'na' || chr(239) || 've'));
SELECT bloom_index_contains('am_enc_a', ARRAY['caf' || chr(233)]) AS latin1_row,
       bloom_index_contains('am_enc_j', jsonb_build_object('k', 'caf' || chr(233))) AS latin1_json;
SET client_encoding = LATIN1;
SELECT bloom_index_contains('am_enc_a', ARRAY['na' || chr(239) || 've']) AS utf8_row,
       bloom_index_contains('am_enc_j', jsonb_build_object('k', 'na' || chr(239) || 've')) AS utf8_json,
       bloom_contains(bloom_index_filter('am_enc_a'), ARRAY['caf' || chr(233)]) AS snapshot;
RESET client_encoding;
DROP TABLE am_enc;

DROP TABLE am_keys, am_users, am_nulls, am_opts, am_snap, am_words, am_conc, am_grow,
  am_unlogged, am_temp;
DROP DOMAIN am_d8;
DROP DOMAIN am_dnum;
DROP TYPE am_mood;
