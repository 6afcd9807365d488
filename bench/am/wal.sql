-- WAL per insert (psql variables: n, phase).  Inserts :n new rows into each
-- of ins_base, ins_bf, ins_bt, one statement each, and prints per table the
-- phase, the table, the WAL bytes, and the start and end LSN (for
-- pg_waldump).  The 'image' phase runs right after a CHECKPOINT (first
-- touch of each page writes its full image); the 'steady' phase runs next,
-- over the same pages.
\if :{?checkpoint}
CHECKPOINT;
\endif
SELECT pg_current_wal_insert_lsn() AS l0 \gset
INSERT INTO ins_base (id, email) SELECT n, 'user' || n || '@example.com' FROM (SELECT nextval('new_ids') AS n FROM generate_series(1, :n)) s;
SELECT pg_current_wal_insert_lsn() AS l1 \gset
INSERT INTO ins_bf (id, email) SELECT n, 'user' || n || '@example.com' FROM (SELECT nextval('new_ids') AS n FROM generate_series(1, :n)) s;
SELECT pg_current_wal_insert_lsn() AS l2 \gset
INSERT INTO ins_bt (id, email) SELECT n, 'user' || n || '@example.com' FROM (SELECT nextval('new_ids') AS n FROM generate_series(1, :n)) s;
SELECT pg_current_wal_insert_lsn() AS l3 \gset
SELECT :'phase', 'base', pg_wal_lsn_diff(:'l1', :'l0'), :'l0', :'l1'
UNION ALL SELECT :'phase', 'bf', pg_wal_lsn_diff(:'l2', :'l1'), :'l1', :'l2'
UNION ALL SELECT :'phase', 'bt', pg_wal_lsn_diff(:'l3', :'l2'), :'l2', :'l3';
