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
SELECT extname, extowner::regrole FROM pg_extension WHERE extname = 'bloomtype';
RESET ROLE;
DROP EXTENSION bloomtype;
REVOKE CREATE ON SCHEMA public FROM bloom_regress_user;
DO $$ BEGIN
  EXECUTE format('REVOKE CREATE ON DATABASE %I FROM bloom_regress_user', current_database());
END $$;
DROP ROLE bloom_regress_user;
CREATE EXTENSION bloomtype;
