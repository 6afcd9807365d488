-- The data of bench/am.sh (psql variables: rows, stored).
-- users: :rows users with ids 1..:rows (probes draw ids over 1..2*:rows,
-- so half are present), a primary key and the bloomfilter index.
-- ins_base, ins_bf, ins_bt: copies of users for the insert tests, with no
-- index but the primary key, with the bloomfilter index, and with a second
-- btree on id; new ids come from one sequence, above every existing id.
-- filters: the stored values (the way before the index): 'users' with
-- :stored keys (ids 1..:stored, as in issue 11), 'users_small' with the
-- keys of users.  bulk_keys: 200,000 keys, half present, for the bulk probe.
CREATE EXTENSION IF NOT EXISTS bloomtype;

CREATE TABLE users (id bigint PRIMARY KEY, email text);
INSERT INTO users SELECT g, 'user' || g || '@example.com' FROM generate_series(1, :rows) g;
CREATE INDEX users_id_filter ON users USING bloomfilter (id) WITH (fpr = 0.01);

CREATE SEQUENCE new_ids START 1000000000;
CREATE TABLE ins_base (id bigint PRIMARY KEY, email text);
INSERT INTO ins_base SELECT * FROM users;
CREATE TABLE ins_bf (LIKE ins_base INCLUDING ALL);
INSERT INTO ins_bf SELECT * FROM users;
CREATE INDEX ins_bf_id_filter ON ins_bf USING bloomfilter (id) WITH (fpr = 0.01);
CREATE TABLE ins_bt (LIKE ins_base INCLUDING ALL);
INSERT INTO ins_bt SELECT * FROM users;
CREATE INDEX ins_bt_id ON ins_bt (id);

CREATE TABLE filters (name text PRIMARY KEY, f bloomfilter);
INSERT INTO filters SELECT 'users', bloom_agg(g::bigint) FROM generate_series(1, :stored) g;
INSERT INTO filters SELECT 'users_small', bloom_agg(id) FROM users;

-- even g: a key of users; odd g: an id above them (absent)
CREATE TABLE bulk_keys (name text PRIMARY KEY, keys bigint[]);
SELECT setseed(0.11);
INSERT INTO bulk_keys
  SELECT 'small', array_agg(CASE WHEN g % 2 = 0 THEN 1 + floor(random() * :rows)::bigint
                                 ELSE :rows + 1 + floor(random() * :rows)::bigint END ORDER BY g)
    FROM generate_series(1, 200000) g;

VACUUM ANALYZE;
CHECKPOINT;
