-- Key classes: canonical encodings, equivalences and mismatch errors
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;

-- int2, int4 and int8 are one key space
SELECT bloom_contains(bloom_add(bloom_empty(100), 42::smallint), 42::bigint) AS i2_i8,
       bloom_contains(bloom_add(bloom_empty(100), 42::bigint), 42::integer) AS i8_i4,
       bloom_contains(bloom_add(bloom_empty(100), 42), 42::smallint) AS i4_i2,
       bloom_contains(bloom_add(bloom_empty(100), -1), -1::bigint) AS negative,
       bloom_contains(bloom_add(bloom_empty(100), 42), 43) AS other_int;
-- the same bytes whatever the integer type (byte-identical filters)
SELECT bloom_add(bloom_empty(100), 7::smallint) = bloom_add(bloom_empty(100), 7::bigint) AS same;

-- text, varchar, name and bpchar (without trailing spaces) are one key space
SELECT bloom_contains(bloom_add(bloom_empty(100), 'abc'::text), 'abc'::varchar) AS text_varchar,
       bloom_contains(bloom_add(bloom_empty(100), 'abc'::varchar(10)), 'abc'::text) AS varchar_text,
       bloom_contains(bloom_add(bloom_empty(100), 'abc'::char(8)), 'abc'::text) AS bpchar_text,
       bloom_contains(bloom_add(bloom_empty(100), 'abc'::text), 'abc   '::char(6)) AS text_bpchar,
       bloom_contains(bloom_add(bloom_empty(100), 'abc'::name), 'abc'::text) AS name_text,
       bloom_contains(bloom_add(bloom_empty(100), 'abc '::text), 'abc'::text) AS text_keeps_spaces;
-- text compares bytes: case and collation do not fold keys
SELECT bloom_contains(bloom_add(bloom_empty(100), 'Alice'::text), 'alice'::text) AS case_folded;

-- bytea and uuid
SELECT bloom_contains(bloom_add(bloom_empty(100), '\xdeadbeef'::bytea), '\xdeadbeef'::bytea) AS bytea_hit,
       bloom_contains(bloom_add(bloom_empty(100), '\xdeadbeef'::bytea), '\xdeadbe'::bytea) AS bytea_miss,
       bloom_contains(bloom_add(bloom_empty(100), 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid),
                      'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid) AS uuid_hit;

-- floats: float4 and float8 share a class; -0 = 0; every NaN is one key
SELECT bloom_contains(bloom_add(bloom_empty(100), 1.5::float4), 1.5::float8) AS f4_f8,
       bloom_contains(bloom_add(bloom_empty(100), '-0'::float8), 0::float8) AS neg_zero,
       bloom_contains(bloom_add(bloom_empty(100), 'NaN'::float8), 'NaN'::float4) AS nan;

-- other types hash their binary send form; the header names the type
SELECT bloom_contains(bloom_add(bloom_empty(100), '2024-01-31'::date), '2024-01-31'::date) AS date_hit,
       bloom_contains(bloom_add(bloom_empty(100), '2024-01-31'::date), '2024-02-01'::date) AS date_miss,
       bloom_contains(bloom_add(bloom_empty(100), 1.50::numeric), 1.50::numeric) AS numeric_hit,
       bloom_contains(bloom_add(bloom_empty(100), '10.0.0.1'::inet), '10.0.0.1'::inet) AS inet_hit,
       bloom_contains(bloom_add(bloom_empty(100), ARRAY[1,2]), ARRAY[1,2]) AS array_hit;
SELECT key_type FROM bloom_info(bloom_add(bloom_empty(100), '2024-01-31'::date));
SELECT key_type FROM bloom_info(bloom_add(bloom_empty(100), 'x'::text));
SELECT key_type FROM bloom_info(bloom_add(bloom_empty(100), 1::smallint));

-- domains hash as their base type
CREATE DOMAIN user_id AS bigint;
SELECT bloom_contains(bloom_add(bloom_empty(100), 5::user_id), 5::bigint) AS domain_int;
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
SELECT bloom_contains(bloom_add(bloom_empty(100), 'ok'::mood), 'ok'::mood) AS enum_hit,
       bloom_contains(bloom_add(bloom_empty(100), 'ok'::mood), 'sad'::mood) AS enum_miss;
SELECT key_type FROM bloom_info(bloom_add(bloom_empty(100), 'ok'::mood));

-- mismatched classes are errors with a hint to cast, never a silent miss
SELECT bloom_contains(bloom_add(bloom_empty(100), 42), '42'::text);
SELECT bloom_add(bloom_add(bloom_empty(100), 'x'::text), 42);
SELECT bloom_contains(bloom_add(bloom_empty(100), 42), 42::numeric);
SELECT bloom_contains(bloom_add(bloom_empty(100), '2024-01-31'::date), '2024-01-31'::timestamp);
SELECT bloom_contains(bloom_add(bloom_empty(100), 1.5::float8), 1.5::numeric);
SELECT bloom_add(bloom_add(bloom_empty(100), 'ok'::mood), '\x00'::bytea);
-- an untyped literal is text
SELECT bloom_contains(bloom_add(bloom_empty(100), 'alice'), 'alice') AS literal_is_text;

DROP TYPE mood;
DROP DOMAIN user_id;
