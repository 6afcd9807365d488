-- the lookup the filter should spare: a primary-key probe
\set id random(1, :range)
SELECT EXISTS (SELECT 1 FROM users WHERE id = :id);
