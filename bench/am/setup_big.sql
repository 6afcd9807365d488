-- The larger table of a full bench/am.sh run (psql variable: big): the
-- same shape as users, with ids 1..:big, its stored value ('users_big' in
-- filters) and its 200,000 bulk keys.
CREATE TABLE users_big (id bigint PRIMARY KEY, email text);
INSERT INTO users_big SELECT g, 'user' || g || '@example.com' FROM generate_series(1, :big) g;
CREATE INDEX users_big_id_filter ON users_big USING bloomfilter (id) WITH (fpr = 0.01);
INSERT INTO filters SELECT 'users_big', bloom_agg(id) FROM users_big;
SELECT setseed(0.12);
INSERT INTO bulk_keys
  SELECT 'big', array_agg(CASE WHEN g % 2 = 0 THEN 1 + floor(random() * :big)::bigint
                               ELSE :big + 1 + floor(random() * :big)::bigint END ORDER BY g)
    FROM generate_series(1, 200000) g;
VACUUM ANALYZE users_big, filters, bulk_keys;
CHECKPOINT;
