-- The agreement test of the client readers (scripts/clients.sh): filters of
-- every kind and key class, each built from the keys 0 .. n/2 - 1 of its
-- class, probed with the keys 0 .. n - 1 (half present).  Key i of a class
-- is key(class, i) below; clients/*/ generate the same keys.
-- psql variable :n is the number of keys.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;

CREATE FUNCTION key_int(i bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT i * 1000003 - 400000000 $$;
CREATE FUNCTION key_text(i bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT 'ключ-' || i $$;
CREATE FUNCTION key_bytea(i bigint) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$ SELECT int8send(i) $$;
CREATE FUNCTION key_uuid(i bigint) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$ SELECT md5(i::text)::uuid $$;
CREATE FUNCTION key_float(i bigint) RETURNS float8 LANGUAGE sql IMMUTABLE AS $$ SELECT (i - 500000)::float8 / 7.0::float8 $$;
-- keys of class "other", which a client probes by their hash (bloom_key_hash)
CREATE FUNCTION key_date(i bigint) RETURNS date LANGUAGE sql IMMUTABLE AS $$ SELECT date '2000-01-01' + i::int $$;

-- partial aggregate states as values: kind 3 (1.0's dense fixed-capacity
-- state), kind 7 (the light state) and kind 8 (the light counting state)
CREATE FUNCTION dense_trans(bloomfilter, bigint, bigint, float8) RETURNS bloomfilter
  AS '$libdir/bloomtype', 'bloom_agg_trans_int8' LANGUAGE C IMMUTABLE;
CREATE AGGREGATE state_dense(bigint, bigint, float8) (SFUNC = dense_trans, STYPE = bloomfilter);
CREATE AGGREGATE state_light(bigint, bigint, float8) (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
CREATE AGGREGATE state_counting(bigint, bigint, float8) (SFUNC = counting_agg_trans, STYPE = countingbloom);

CREATE TABLE present AS SELECT g::bigint AS i FROM generate_series(0, :n / 2 - 1) g;
CREATE TABLE agree (ord serial, name text, type text, keys text, f bytea);

INSERT INTO agree (name, type, keys, f) VALUES
  ('int_fixed', 'bloomfilter', 'int',
   bloom_add_all(bloom_empty(:n / 2, 0.01, 0), ARRAY(SELECT key_int(i) FROM present))::bytea),
  ('int_agg', 'bloomfilter', 'int', (SELECT bloom_agg(key_int(i)) FROM present)::bytea),
  ('int_scalable', 'bloomfilter', 'int',
   bloom_add_all(bloom_empty(:n / 100, 0.01), ARRAY(SELECT key_int(i) FROM present))::bytea),
  ('int_state_pending', 'bloomfilter', 'int', (SELECT state_dense(key_int(i), :n / 2, 0.01) FROM present)::bytea),
  ('int_state_light', 'bloomfilter', 'int', (SELECT state_light(key_int(i), :n * 10, 0.01) FROM present)::bytea),
  ('int_empty_agg', 'bloomfilter', 'int', (SELECT bloom_agg(key_int(i)) FROM present WHERE false)::bytea),
  ('int_counting', 'countingbloom', 'int',
   counting_remove_all((SELECT counting_agg(key_int(i), :n / 2, 0.01) FROM present),
                       ARRAY(SELECT key_int(i) FROM present WHERE i % 10 = 0))::bytea),
  ('int_counting_light', 'countingbloom', 'int', (SELECT state_counting(key_int(i), :n * 5, 0.01) FROM present)::bytea),
  ('int_cuckoo', 'cuckoofilter', 'int', (SELECT cuckoo_agg(key_int(i), :n / 20, 0.01) FROM present)::bytea),
  ('int_cuckoo_b2_fixed', 'cuckoofilter', 'int',
   cuckoo_add_all(cuckoo_empty(:n / 2, 0.001, 2, 500, 0), ARRAY(SELECT key_int(i) FROM present))::bytea);

INSERT INTO agree (name, type, keys, f) VALUES
  ('text_fixed', 'bloomfilter', 'text',
   bloom_add_all(bloom_empty(:n / 2, 0.01, 0), ARRAY(SELECT key_text(i) FROM present))::bytea),
  ('text_scalable', 'bloomfilter', 'text',
   bloom_add_all(bloom_empty(:n / 100, 0.001, 4), ARRAY(SELECT key_text(i) FROM present))::bytea),
  ('text_counting', 'countingbloom', 'text', (SELECT counting_agg(key_text(i)) FROM present)::bytea),
  ('text_cuckoo', 'cuckoofilter', 'text', (SELECT cuckoo_agg(key_text(i), :n / 2, 0.01) FROM present)::bytea),
  ('bytea_agg', 'bloomfilter', 'bytea', (SELECT bloom_agg(key_bytea(i), :n / 2, 0.01) FROM present)::bytea),
  ('bytea_cuckoo', 'cuckoofilter', 'bytea',
   cuckoo_add_all(cuckoo_empty(:n / 10, 0.01, 8, 500, 2), ARRAY(SELECT key_bytea(i) FROM present))::bytea),
  ('uuid_fixed', 'bloomfilter', 'uuid',
   bloom_add_all(bloom_empty(:n / 2, 0.05, 0), ARRAY(SELECT key_uuid(i) FROM present))::bytea),
  ('uuid_counting', 'countingbloom', 'uuid', (SELECT counting_agg(key_uuid(i), :n / 2, 0.01) FROM present)::bytea),
  ('float_scalable', 'bloomfilter', 'float', (SELECT bloom_agg(key_float(i), 0.02) FROM present)::bytea),
  ('float_cuckoo', 'cuckoofilter', 'float', (SELECT cuckoo_agg(key_float(i)) FROM present)::bytea);

-- states and empty results of the other types, filters with no key class
-- yet, and keys of class "other"
INSERT INTO agree (name, type, keys, f) VALUES
  ('int_state_flagged', 'bloomfilter', 'int', (SELECT state_light(key_int(i), :n / 2, 0.01) FROM present)::bytea),
  ('int_counting_empty_agg', 'countingbloom', 'int', (SELECT counting_agg(key_int(i)) FROM present WHERE false)::bytea),
  ('int_cuckoo_empty_agg', 'cuckoofilter', 'int', (SELECT cuckoo_agg(key_int(i)) FROM present WHERE false)::bytea),
  ('text_none', 'bloomfilter', 'text', bloom_empty(1000)::bytea),
  ('float_counting_none', 'countingbloom', 'float', counting_empty(1000)::bytea),
  ('date_fixed', 'bloomfilter', 'date',
   bloom_add_all(bloom_empty(:n / 2, 0.01, 0), ARRAY(SELECT key_date(i) FROM present))::bytea),
  ('date_cuckoo', 'cuckoofilter', 'date', (SELECT cuckoo_agg(key_date(i), :n / 2, 0.01) FROM present)::bytea);

-- windowed filters (kind 9, 1.7): the keys of present added at hour
-- i % 10 from 2026-11-01 00:00 UTC, one bloom_add_all an hour in order, a
-- window of 4 one-hour slices (slices 5 to 9 kept); the manifest also has
-- the server's answers since the time in column since (scripts/clients.sh)
ALTER TABLE agree ADD COLUMN since timestamptz;
CREATE FUNCTION windowed(f bloomfilter, t0 timestamptz, text_keys bool) RETURNS bloomfilter
  LANGUAGE plpgsql AS $$
BEGIN
  FOR h IN 0 .. 9 LOOP
    IF text_keys THEN
      f := bloom_add_all(f, ARRAY(SELECT key_text(i) FROM present WHERE i % 10 = h), t0 + make_interval(hours => h));
    ELSE
      f := bloom_add_all(f, ARRAY(SELECT key_int(i) FROM present WHERE i % 10 = h), t0 + make_interval(hours => h));
    END IF;
  END LOOP;
  RETURN f;
END $$;
INSERT INTO agree (name, type, keys, f, since) VALUES
  ('int_window', 'bloomfilter', 'int',
   windowed(bloom_window(:n / 20, 0.01, '1 hour', 4), '2026-11-01 00:00+00', false)::bytea, '2026-11-01 07:30+00'),
  ('text_window_1969', 'bloomfilter', 'text',
   windowed(bloom_window(:n / 40, 0.05, '90 minutes', 3), '1969-12-31 20:00+00', true)::bytea, '1970-01-01 00:00+00');
