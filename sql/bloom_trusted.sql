-- A trusted extension: a non-superuser with CREATE on the database installs it
SELECT extname FROM pg_extension WHERE extname = 'bloomtype';
DROP EXTENSION bloomtype;
CREATE ROLE bloom_regress_user LOGIN;
DO $$ BEGIN
  EXECUTE format('GRANT CREATE ON DATABASE %I TO bloom_regress_user', current_database());
END $$;
GRANT CREATE ON SCHEMA public TO bloom_regress_user;
SET ROLE bloom_regress_user;
CREATE EXTENSION bloomtype;
SELECT bloom_contains(bloom_add(bloom_empty(10), 1), 1) AS works;
-- the access method comes with it, usable by the same user
CREATE TABLE trusted_t AS SELECT g AS id FROM generate_series(1, 100) g;
CREATE INDEX trusted_t_f ON trusted_t USING bloomfilter (id);
INSERT INTO trusted_t VALUES (1000);
SELECT bloom_index_contains('trusted_t_f', 1000) AS indexed, bloom_index_contains('trusted_t_f', 1001) AS absent;
DROP TABLE trusted_t;
SELECT extname, extowner::regrole FROM pg_extension WHERE extname = 'bloomtype';
RESET ROLE;
DROP EXTENSION bloomtype;
REVOKE CREATE ON SCHEMA public FROM bloom_regress_user;
DO $$ BEGIN
  EXECUTE format('REVOKE CREATE ON DATABASE %I FROM bloom_regress_user', current_database());
END $$;
DROP ROLE bloom_regress_user;
CREATE EXTENSION bloomtype;
