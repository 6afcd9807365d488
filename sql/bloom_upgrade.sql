-- ALTER EXTENSION bloomtype UPDATE from 1.0: values written by 1.0 read
-- unchanged, and the new functions arrive
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS bloomtype CASCADE;
RESET client_min_messages;
CREATE EXTENSION bloomtype VERSION '1.0';
SELECT extversion FROM pg_extension WHERE extname = 'bloomtype';
CREATE TABLE kept (id int, f bloomfilter);
INSERT INTO kept VALUES
  (1, bloom_empty(10)),
  (2, (SELECT bloom_agg(g) FROM generate_series(1, 10000) g)),
  (3, (SELECT bloom_agg('k' || g, 100000, 0.001) FROM generate_series(1, 1000) g));
CREATE TEMP TABLE before AS SELECT id, md5(f::bytea) AS digest FROM kept;
SELECT count(*) AS batch_functions FROM pg_proc WHERE proname = 'bloom_contains_each';

ALTER EXTENSION bloomtype UPDATE TO '1.1';
SELECT extversion FROM pg_extension WHERE extname = 'bloomtype';
SELECT id, md5(f::bytea) = digest AS unchanged FROM kept JOIN before USING (id) ORDER BY id;
SELECT bloom_contains(f, 5000) AS old_value_answers, bloom_contains_each(f, ARRAY[1, 10001]) AS batch
  FROM kept WHERE id = 2;
-- the new functions belong to the extension
SELECT p.oid::regprocedure FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomtype'
 WHERE p.proname LIKE 'bloom_%each' OR p.proname LIKE 'bloom_contains_a%' OR p.proname = 'bloom_add_all'
 ORDER BY p.oid::regprocedure::text;
DROP TABLE kept;
