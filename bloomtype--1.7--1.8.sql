-- bloomtype 1.7 -> 1.8: an application's copy of an index kept in step (the change log)
\echo Use "ALTER EXTENSION bloomtype UPDATE TO '1.8'" to load this file. \quit

-- Keeping an application's copy of an index in step (1.8): a change log
-- that a trigger writes in the inserting transaction, read by position.
-- PUBLIC has no right on the log: the trigger writes it and
-- bloom_index_changes reads it as its owner, after the checks that
-- bloom_index_filter makes (SELECT on the table, no row-level security).
CREATE TABLE bloomtype_index_log (
    heaprelid oid NOT NULL,
    indexrelid oid NOT NULL,
    relfilenode oid NOT NULL,
    xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
    logged_at timestamp with time zone NOT NULL DEFAULT now(),
    hashes bytea NOT NULL
);
-- random hashes do not compress: stored as they are
ALTER TABLE bloomtype_index_log ALTER COLUMN hashes SET STORAGE EXTERNAL;
CREATE INDEX bloomtype_index_log_xid ON bloomtype_index_log (heaprelid, xid);
REVOKE ALL ON bloomtype_index_log FROM PUBLIC;
COMMENT ON TABLE bloomtype_index_log IS
    'the keys'' hashes each statement added to a logged bloomfilter index (bloom_index_log_trigger), read by bloom_index_changes';
CREATE TABLE bloomtype_index_log_horizon (
    heaprelid oid PRIMARY KEY,
    horizon xid8 NOT NULL
);
REVOKE ALL ON bloomtype_index_log_horizon FROM PUBLIC;
COMMENT ON TABLE bloomtype_index_log_horizon IS
    'the greatest transaction id pruned from the change log of each table';

CREATE FUNCTION bloom_index_log_trigger() RETURNS trigger
    AS 'MODULE_PATHNAME', 'bloom_index_log_trigger' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION bloom_index_log_trigger() IS
    'statement trigger (AFTER INSERT or UPDATE, REFERENCING NEW TABLE): logs the new keys'' hashes of the index named by its argument, then NOTIFY with an empty payload';
CREATE FUNCTION bloom_index_filter_at(index regclass, OUT filter bloomfilter, OUT mark text)
    AS 'MODULE_PATHNAME', 'bloom_index_filter_at' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_index_filter_at(regclass) IS
    'bloom_index_filter, and its mark: the position it is complete for, to pass to bloom_index_changes';
CREATE FUNCTION bloom_index_changes(index regclass, since text,
    OUT complete boolean, OUT reason text, OUT hashes bytea, OUT mark text)
    AS 'MODULE_PATHNAME', 'bloom_index_changes' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION bloom_index_changes(regclass, text) IS
    'the hashes of the keys logged since a mark (8 bytes each) and the new mark; or complete = false and why: reload the filter';
CREATE FUNCTION bloom_index_log_prune(index regclass, keep interval DEFAULT '10 minutes') RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_index_log_prune' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION bloom_index_log_prune(regclass, interval) IS
    'deletes the change log rows of the index''s table older than keep (owner of the table); returns the rows deleted';
