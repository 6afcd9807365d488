-- What the guards of clients/*/examples need on the server (docs/COOKBOOK.md):
-- a table users(id bigint primary key), its bloomfilter index
-- users_id_bloom, and the trigger that logs each INSERT or UPDATE
-- statement's new ids for the guards' catch-ups (bloom_index_changes) and
-- wakes them with an empty NOTIFY on channel users_id_bloom.
-- Run it once: psql -v ON_ERROR_STOP=1 -f clients/guard_setup.sql
CREATE EXTENSION IF NOT EXISTS bloomtype;
CREATE TABLE IF NOT EXISTS users (id bigint PRIMARY KEY);
-- the filter, kept in step with the table by PostgreSQL (inserts, updates,
-- crash recovery, replicas); it grows by layers as users register
CREATE INDEX IF NOT EXISTS users_id_bloom ON users USING bloomfilter (id);
-- the new ids' hashes, logged in the inserting transaction (what NOTIFY
-- carries every role can read, so it carries nothing)
CREATE OR REPLACE TRIGGER users_id_bloom_log AFTER INSERT ON users
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('users_id_bloom');
CREATE OR REPLACE TRIGGER users_id_bloom_log_update AFTER UPDATE ON users
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('users_id_bloom');
-- A guard's role needs SELECT on users (to read the filter and its
-- changes) and nothing on the log:
--   GRANT SELECT ON users TO app_guard;
