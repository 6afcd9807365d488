-- the round trip alone: what every per-request check pays
\set id random(1, :range)
SELECT :id::bigint;
