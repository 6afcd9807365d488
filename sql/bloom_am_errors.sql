-- The bloomfilter index access method (1.3): what it refuses.  Index
-- shapes PostgreSQL refuses for it, bad options, nondeterministic
-- collations, probes of another key class, what is not a valid bloomfilter
-- index, privileges and row-level security, and operator classes that are
-- not bloomtype's.  Roles are made and dropped here (bloom_am_*).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
DROP ROLE IF EXISTS bloom_am_owner;
DROP ROLE IF EXISTS bloom_am_reader;
DROP ROLE IF EXISTS bloom_am_bypass;
RESET client_min_messages;

CREATE TABLE am_err (id bigint, b bigint, name text);
INSERT INTO am_err SELECT g, g, 'n' || g FROM generate_series(1, 100) g;

-- 1. One key column, no options of order, no uniqueness, no scans
CREATE INDEX ON am_err USING bloomfilter (id, b);
CREATE INDEX ON am_err USING bloomfilter (id) INCLUDE (b);
CREATE UNIQUE INDEX ON am_err USING bloomfilter (id);
-- (19 points at the column in these two errors: expected/bloom_am_errors_1.out)
CREATE INDEX ON am_err USING bloomfilter (id DESC);
CREATE INDEX ON am_err USING bloomfilter (id NULLS FIRST);
ALTER TABLE am_err ADD EXCLUDE USING bloomfilter (id WITH =);
-- none of these left an index behind
SELECT count(*) AS indexes FROM pg_index WHERE indrelid = 'am_err'::regclass;

-- 2. Options: out of range, not a number, unknown
CREATE INDEX ON am_err USING bloomfilter (id) WITH (fpr = 0);
CREATE INDEX ON am_err USING bloomfilter (id) WITH (fpr = 0.9);
CREATE INDEX ON am_err USING bloomfilter (id) WITH (fpr = 'abc');
CREATE INDEX ON am_err USING bloomfilter (id) WITH (expansion = 0);
CREATE INDEX ON am_err USING bloomfilter (id) WITH (expansion = 17);
CREATE INDEX ON am_err USING bloomfilter (id) WITH (min_capacity = 0);
CREATE INDEX ON am_err USING bloomfilter (id) WITH (min_pages = 0);
CREATE INDEX ON am_err USING bloomfilter (id) WITH (min_pages = 1025);
CREATE INDEX ON am_err USING bloomfilter (id) WITH (foo = 1);
CREATE INDEX ON am_err USING bloomfilter (id) WITH (fillfactor = 50);
CREATE INDEX am_err_i ON am_err USING bloomfilter (id);
ALTER INDEX am_err_i SET (fpr = 2);
ALTER INDEX am_err_i SET (bogus = 1);

-- 3. Nondeterministic collations, on the column or in the index
CREATE COLLATION bloom_am_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE INDEX ON am_err USING bloomfilter (name COLLATE bloom_am_ci);
CREATE TABLE am_err_ci (name text COLLATE bloom_am_ci);
CREATE INDEX ON am_err_ci USING bloomfilter (name);
-- an expression that folds case is the way round, and a deterministic
-- collation is fine
CREATE INDEX am_err_ci_lower ON am_err_ci USING bloomfilter (lower(name) COLLATE "C");
CREATE INDEX am_err_ci_c ON am_err_ci USING bloomfilter (name COLLATE "C");
DROP TABLE am_err_ci;

-- 4. A probe of another key class: an error with a cast hint, never false
SELECT bloom_index_contains('am_err_i', 'x'::text);
SELECT bloom_index_contains('am_err_i', 'x'::varchar);
SELECT bloom_index_contains('am_err_i', 'x');
SELECT bloom_index_contains('am_err_i', '\x01'::bytea);
SELECT bloom_index_contains('am_err_i', 1.0::float8);
SELECT bloom_index_contains('am_err_i', 1::numeric);
SELECT bloom_index_contains_each('am_err_i', ARRAY['1', '2']);
CREATE INDEX am_err_name ON am_err USING bloomfilter (name);
SELECT bloom_index_contains('am_err_name', 1);
SELECT bloom_index_contains('am_err_name', '00000000-0000-0000-0000-000000000001'::uuid);
CREATE TABLE am_err_num (n numeric, j jsonb);
INSERT INTO am_err_num VALUES (1.5, '{"a": 1}');
CREATE INDEX am_err_num_n ON am_err_num USING bloomfilter (n);
CREATE INDEX am_err_num_j ON am_err_num USING bloomfilter (j);
SELECT bloom_index_contains('am_err_num_n', 1.5::float8);
SELECT bloom_index_contains('am_err_num_n', 1::bigint);
SELECT bloom_index_contains('am_err_num_j', 1.5);
SELECT bloom_index_contains('am_err_num_j', '{"a": 1}'::json);
-- the right class answers
SELECT bloom_index_contains('am_err_num_n', 1.5) AS numeric,
       bloom_index_contains('am_err_num_j', '{"a": 1}'::jsonb) AS jsonb;
DROP TABLE am_err_num;
-- a type without a binary send form cannot be a key
CREATE TABLE am_err_acl (a aclitem);
CREATE INDEX ON am_err_acl USING bloomfilter (a);
DROP TABLE am_err_acl;

-- 5. Not a bloomfilter index: a table, a btree index, a view, a sequence,
-- no relation at all
CREATE INDEX am_err_bt ON am_err (id);
CREATE VIEW am_err_v AS SELECT * FROM am_err;
CREATE SEQUENCE am_err_seq;
SELECT bloom_index_contains('am_err', 1);
SELECT bloom_index_contains('am_err_bt', 1);
SELECT bloom_index_contains('am_err_v', 1);
SELECT bloom_index_contains('am_err_seq', 1);
SELECT bloom_index_contains(0, 1);
SELECT bloom_index_contains_each('am_err', ARRAY[1]);
SELECT bloom_index_contains_each('am_err_bt', ARRAY[1]);
SELECT bloom_index_filter('am_err');
SELECT bloom_index_filter('am_err_bt');
SELECT * FROM bloom_index_info('am_err');
SELECT * FROM bloom_index_info('am_err_bt');
SELECT bloom_index_contains('am_err_missing', 1);
DROP INDEX am_err_bt;
DROP VIEW am_err_v;
DROP SEQUENCE am_err_seq;

-- 6. An index that is not valid (as CREATE INDEX CONCURRENTLY leaves it
-- while it runs, or when it fails): every reader refuses it
UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'am_err_i'::regclass;
SELECT bloom_index_contains('am_err_i', 1);
SELECT bloom_index_contains_each('am_err_i', ARRAY[1]);
SELECT bloom_index_filter('am_err_i');
SELECT * FROM bloom_index_info('am_err_i');
-- REINDEX makes it valid again
REINDEX INDEX am_err_i;
SELECT indisvalid FROM pg_index WHERE indexrelid = 'am_err_i'::regclass;
SELECT bloom_index_contains('am_err_i', 1) AS found;
-- a CREATE INDEX CONCURRENTLY that failed leaves an invalid index
CREATE TABLE am_err_dup (k text COLLATE "C");
INSERT INTO am_err_dup VALUES ('a');
CREATE INDEX CONCURRENTLY am_err_dup_i ON am_err_dup USING bloomfilter ((k::int));
SELECT indisvalid FROM pg_index WHERE indexrelid = 'am_err_dup_i'::regclass;
SELECT bloom_index_contains('am_err_dup_i', 1);
DROP TABLE am_err_dup;

-- 7. Privileges: SELECT on the table, or on every column the index reads
CREATE ROLE bloom_am_owner;
CREATE ROLE bloom_am_reader;
CREATE ROLE bloom_am_bypass BYPASSRLS;
GRANT CREATE ON SCHEMA public TO bloom_am_owner;
SET ROLE bloom_am_owner;
CREATE TABLE am_priv (id bigint, active boolean, email text, secret text);
INSERT INTO am_priv SELECT g, g % 2 = 0, 'u' || g, 's' FROM generate_series(1, 100) g;
CREATE INDEX am_priv_id ON am_priv USING bloomfilter (id);
CREATE INDEX am_priv_active ON am_priv USING bloomfilter (id) WHERE active;
CREATE INDEX am_priv_email ON am_priv USING bloomfilter (lower(email));
RESET ROLE;
-- no SELECT: every reader refuses
SET ROLE bloom_am_reader;
SELECT bloom_index_contains('am_priv_id', 1);
SELECT bloom_index_contains_each('am_priv_id', ARRAY[1]);
SELECT bloom_index_filter('am_priv_id') IS NOT NULL;
SELECT items FROM bloom_index_info('am_priv_id');
RESET ROLE;
-- SELECT on the key column only: allowed for the plain index; the
-- partial index also reads its predicate's column, the expression index
-- its expression's
GRANT SELECT (id) ON am_priv TO bloom_am_reader;
SET ROLE bloom_am_reader;
SELECT bloom_index_contains('am_priv_id', 1) AS found,
       bloom_index_contains_each('am_priv_id', ARRAY[1, -1]) AS each,
       (SELECT items FROM bloom_index_info('am_priv_id')) AS items;
SELECT bloom_index_contains('am_priv_active', 2);
SELECT bloom_index_contains('am_priv_email', 'u1');
RESET ROLE;
GRANT SELECT (active, email) ON am_priv TO bloom_am_reader;
SET ROLE bloom_am_reader;
SELECT bloom_index_contains('am_priv_active', 2) AS active,
       bloom_index_contains('am_priv_email', 'u1') AS email;
RESET ROLE;
-- a column privilege on another column does not do
REVOKE SELECT (id, active, email) ON am_priv FROM bloom_am_reader;
GRANT SELECT (secret) ON am_priv TO bloom_am_reader;
SET ROLE bloom_am_reader;
SELECT bloom_index_contains('am_priv_id', 1);
RESET ROLE;

-- 8. Row-level security: refused for a user subject to it; the owner
-- (not subject unless FORCE), a BYPASSRLS role and a superuser may read
SET ROLE bloom_am_owner;
ALTER TABLE am_priv ENABLE ROW LEVEL SECURITY;
CREATE POLICY am_priv_active_only ON am_priv USING (active);
GRANT SELECT ON am_priv TO bloom_am_reader, bloom_am_bypass;
SELECT bloom_index_contains('am_priv_id', 1) AS owner;
RESET ROLE;
SET ROLE bloom_am_reader;
SELECT count(*) AS visible_rows FROM am_priv;
SELECT bloom_index_contains('am_priv_id', 1);
SELECT bloom_index_contains_each('am_priv_id', ARRAY[1]);
SELECT bloom_index_filter('am_priv_id') IS NOT NULL;
SELECT items FROM bloom_index_info('am_priv_id');
SET row_security = off;
SELECT bloom_index_contains('am_priv_id', 1);
RESET row_security;
RESET ROLE;
SET ROLE bloom_am_bypass;
SELECT bloom_index_contains('am_priv_id', 1) AS bypassrls;
RESET ROLE;
SELECT bloom_index_contains('am_priv_id', 1) AS superuser;
SET ROLE bloom_am_owner;
ALTER TABLE am_priv FORCE ROW LEVEL SECURITY;
SELECT bloom_index_contains('am_priv_id', 1);
ALTER TABLE am_priv NO FORCE ROW LEVEL SECURITY;
ALTER TABLE am_priv DISABLE ROW LEVEL SECURITY;
RESET ROLE;
SET ROLE bloom_am_reader;
SELECT bloom_index_contains('am_priv_id', 1) AS rls_disabled;
RESET ROLE;
DROP TABLE am_priv;
REVOKE CREATE ON SCHEMA public FROM bloom_am_owner;
DROP ROLE bloom_am_owner;
DROP ROLE bloom_am_reader;
DROP ROLE bloom_am_bypass;

-- 9. Operator classes: no operators, support function 1 only, and only
-- bloomtype's bloom_key_hash
CREATE OPERATOR CLASS bloom_am_op FOR TYPE bigint USING bloomfilter AS
  OPERATOR 1 =;
CREATE OPERATOR CLASS bloom_am_op FOR TYPE bigint USING bloomfilter AS
  OPERATOR 1 =, FUNCTION 1 bloom_key_hash(bigint, bigint);
CREATE OPERATOR CLASS bloom_am_fn FOR TYPE bigint USING bloomfilter AS
  FUNCTION 1 hashint8extended(bigint, bigint);
CREATE FUNCTION bloom_am_fake_hash(bigint, bigint) RETURNS bigint
  LANGUAGE sql IMMUTABLE AS 'SELECT $1 # $2';
CREATE OPERATOR CLASS bloom_am_fn FOR TYPE bigint USING bloomfilter AS
  FUNCTION 1 bloom_am_fake_hash(bigint, bigint);
CREATE OPERATOR CLASS bloom_am_fn FOR TYPE bigint USING bloomfilter AS
  FUNCTION 2 bloom_key_hash(bigint, bigint);
CREATE OPERATOR FAMILY bloom_am_fam USING bloomfilter;
ALTER OPERATOR FAMILY bloom_am_fam USING bloomfilter ADD
  FUNCTION 1 (bigint, bigint) hashint8extended(bigint, bigint);
ALTER OPERATOR FAMILY bloom_am_fam USING bloomfilter ADD
  OPERATOR 1 = (bigint, bigint);
-- bloomtype's own hash is accepted, and validates
CREATE OPERATOR CLASS bloom_am_ok FOR TYPE bigint USING bloomfilter FAMILY bloom_am_fam AS
  FUNCTION 1 bloom_key_hash(bigint, bigint);
SELECT opcname, amvalidate(oid) FROM pg_opclass WHERE opcname = 'bloom_am_ok';
-- bloomtype's hash of another type than the class's is refused
CREATE OPERATOR CLASS bloom_am_mismatch FOR TYPE text USING bloomfilter AS
  FUNCTION 1 bloom_key_hash(bigint, bigint);
SELECT count(*) AS mismatched_classes FROM pg_opclass WHERE opcname = 'bloom_am_mismatch';
DROP OPERATOR FAMILY bloom_am_fam USING bloomfilter;
DROP FUNCTION bloom_am_fake_hash(bigint, bigint);

DROP TABLE am_err;
DROP COLLATION bloom_am_ci;

-- an empty array is checked as any other: the index, and the key type
SELECT bloom_index_contains_each('pg_class_oid_index', '{}'::bigint[]);
CREATE TABLE am_err_empty (id int);
CREATE INDEX am_err_empty_f ON am_err_empty USING bloomfilter (id);
SELECT bloom_index_contains_each('am_err_empty_f', '{}'::text[]);
SELECT bloom_index_contains_each('am_err_empty_f', '{}'::int[]) AS empty;
DROP TABLE am_err_empty;
