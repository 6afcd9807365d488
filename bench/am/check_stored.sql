-- the way before the index: a filter stored as a value in a row
-- (detoasted whole by every statement)
\set id random(1, :range)
SELECT bloom_contains(f, :id::bigint) FROM filters WHERE name = 'users';
