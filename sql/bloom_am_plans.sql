-- The planner never uses a bloomfilter index for a scan (it holds no row
-- pointers), not even a partial index whose predicate the query implies,
-- and not even with sequential scans disabled: the plans are sequential
-- scans and the queries return their rows.
--
-- PostgreSQL 18 prints "Disabled: true" under a plan node of a disabled
-- kind that was chosen anyway (here, every Seq Scan: enable_seqscan is
-- off and nothing else can answer); 15 prints nothing there.  The plans
-- are the same: expected/bloom_am_plans_1.out is 18's output.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;
CREATE TABLE plan_users (id bigint, active boolean, email text);
INSERT INTO plan_users
SELECT g, g % 2 = 0, CASE WHEN g % 10 <> 0 THEN 'User' || g || '@Example.COM' END
  FROM generate_series(1, 10000) g;
CREATE INDEX plan_users_id ON plan_users USING bloomfilter (id);
CREATE INDEX plan_users_email ON plan_users USING bloomfilter (lower(email));
CREATE INDEX plan_users_active ON plan_users USING bloomfilter (id) WHERE active;
ANALYZE plan_users;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM plan_users WHERE id = 5;
EXPLAIN (COSTS OFF) SELECT * FROM plan_users WHERE id = 5 AND active;
EXPLAIN (COSTS OFF) SELECT count(*) FROM plan_users WHERE active;
EXPLAIN (COSTS OFF) SELECT * FROM plan_users WHERE lower(email) = 'user5@example.com';
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM plan_users WHERE active ORDER BY id;
RESET enable_bitmapscan;
-- and the queries return the rows
SELECT count(*) FROM plan_users WHERE id = 5 AND NOT active;
SELECT count(*) FROM plan_users WHERE active;
SELECT count(*) FROM plan_users WHERE lower(email) = 'user5@example.com';
RESET enable_seqscan;
DROP TABLE plan_users;
