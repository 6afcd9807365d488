-- ALTER EXTENSION bloomtype UPDATE from 1.0 through every version to the
-- newest (1.8): values written by 1.0 read unchanged, and the new functions
-- arrive
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS bloomtype CASCADE;
RESET client_min_messages;
CREATE EXTENSION bloomtype VERSION '1.0';
SELECT extversion FROM pg_extension WHERE extname = 'bloomtype';
CREATE TABLE kept (id int, f bloomfilter);
INSERT INTO kept VALUES
  (1, bloom_empty(10)),
  (2, (SELECT bloom_agg(g) FROM generate_series(1, 10000) g)),
  (3, (SELECT bloom_agg('k' || g, 100000, 0.001) FROM generate_series(1, 1000) g)),
  (4, (SELECT bloom_agg(g) FROM generate_series(1, 0) g));
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
 ORDER BY p.oid::regprocedure::text COLLATE "C";
-- behaviour of 1.1 with the new library: as 1.0's, the empty aggregate
-- result (4) included
SELECT bloom_add(NULL, 1) IS NULL AS add_to_null_is_null,
       (bloom_info(bloom_empty(10))).kind AS empty_kind,
       (bloom_info((SELECT bloom_agg(g) FROM generate_series(1, 100) g))).kind AS agg_kind,
       bloom_add_all(NULL, ARRAY[1]) IS NULL AS add_all_to_null_is_null;
SELECT kind, capacity, format_version FROM kept, bloom_info(f) WHERE id = 4;
SELECT kind, capacity, format_version FROM kept, bloom_info(bloom_add(f, 1)) WHERE id = 4;
-- partial aggregate states (hash lists) are read as 1.0 reads them, by
-- union, intersection and bloom_union_agg too
CREATE AGGREGATE partial_bloom(bigint) (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
CREATE TEMP TABLE partials AS SELECT g % 2 AS grp, partial_bloom(g) AS s FROM generate_series(1, 100) g GROUP BY 1;
SELECT (bloom_info(bloom_union_agg(s))).kind AS union_agg, (bloom_info(bloom_union_agg(s | s))).kind AS union_op,
       get_byte(bloom_union_agg(s)::bytea, 4) AS format_version FROM partials WHERE grp = 0;

ALTER EXTENSION bloomtype UPDATE TO '1.2';
-- after the update, as 1.2 reads them: scalable
SELECT (bloom_info(bloom_union_agg(s))).kind AS union_agg, (bloom_info(s | s)).kind AS union_op,
       (bloom_info(s & s)).kind AS intersect_op FROM partials WHERE grp = 0 GROUP BY s;
DROP AGGREGATE partial_bloom(bigint);
SELECT extversion FROM pg_extension WHERE extname = 'bloomtype';
SELECT id, md5(f::bytea) = digest AS unchanged FROM kept JOIN before USING (id) ORDER BY id;
-- old values keep their kind and answers; a 1.0 filter still takes keys
-- past its capacity, as it did
SELECT id, kind, format_version, layers, expansion,
       CASE key_type WHEN 'integer' THEN bloom_contains(f, 5000) END AS has_5000
  FROM kept, bloom_info(f) ORDER BY id;
SELECT (bloom_info(bloom_add_all(f, ARRAY(SELECT generate_series(1, 100))))).items FROM kept WHERE id = 1;
-- the 1.2 behaviour: scalable by default, create on add, new columns
SELECT bloom_contains(bloom_add(NULL, 1), 1) AS created,
       (bloom_info(bloom_empty(10))).kind AS empty_kind,
       (bloom_info(bloom_empty(10, 0.01, 0))).kind AS fixed_kind,
       (bloom_info((SELECT bloom_agg(g) FROM generate_series(1, 100) g))).kind AS agg_kind,
       (bloom_info((SELECT bloom_agg(g, 1000, 0.01) FROM generate_series(1, 100) g))).layers AS fixed_agg_layers;
SELECT p.oid::regprocedure, p.prosrc, p.proisstrict FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomtype'
 WHERE p.proname IN ('bloom_empty', 'bloom_add', 'bloom_add_all', 'bloom_agg_final', 'bloom_info')
 ORDER BY p.oid::regprocedure::text COLLATE "C";
-- an empty aggregate result made by 1.0 is, after the update, what 1.2's
-- bloom_add makes of it
SELECT kind, capacity, format_version FROM kept, bloom_info(f) WHERE id = 4;
SELECT kind, capacity, format_version FROM kept, bloom_info(bloom_add(f, 1)) WHERE id = 4;
-- The catalog after the update, as the specification of 1.2: every
-- function with its C symbol and markings, every aggregate with its
-- support functions.  (bloom_install checks that a fresh install makes the same.)
SELECT p.oid::regprocedure AS function, p.prosrc, p.provolatile AS vol, p.proisstrict AS strict,
       p.proparallel AS par, pg_get_function_result(p.oid) AS result
  FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomtype'
 WHERE p.prokind = 'f'
 ORDER BY p.oid::regprocedure::text COLLATE "C";
SELECT a.aggfnoid::regprocedure AS aggregate, a.aggtransfn::regprocedure AS trans,
       a.aggcombinefn AS combine, a.aggfinalfn AS final, a.aggfinalmodify AS final_modify,
       p.proparallel AS par
  FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
  JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomtype'
 ORDER BY a.aggfnoid::regprocedure::text COLLATE "C";
SELECT o.oid::regoperator AS operator, o.oprcode FROM pg_operator o
  JOIN pg_depend d ON d.classid = 'pg_operator'::regclass AND d.objid = o.oid
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomtype'
 ORDER BY o.oid::regoperator::text COLLATE "C";
DROP TABLE kept;

-- 1.2 -> 1.3: the bloomfilter index access method, its operator classes,
-- bloom_key_hash and the functions that read an index
ALTER EXTENSION bloomtype UPDATE TO '1.3';
SELECT extversion FROM pg_extension WHERE extname = 'bloomtype';
SELECT amname, amtype, amhandler FROM pg_am WHERE amname = 'bloomfilter';
SELECT p.oid::regprocedure AS function, p.prosrc, p.provolatile AS vol, p.proisstrict AS strict,
       p.proparallel AS par, pg_get_function_result(p.oid) AS result
  FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomtype'
 WHERE p.proname LIKE 'bloom\_index\_%' OR p.proname = 'bloom_key_hash'
 ORDER BY p.oid::regprocedure::text COLLATE "C";
SELECT oc.opcname, oc.opcintype::regtype, oc.opcdefault, f.opfname
  FROM pg_opclass oc JOIN pg_opfamily f ON f.oid = oc.opcfamily
 WHERE oc.opcmethod = (SELECT oid FROM pg_am WHERE amname = 'bloomfilter')
 ORDER BY oc.opcname;
-- an index made after the update holds its table's keys
CREATE TABLE upgraded_t AS SELECT g AS id FROM generate_series(1, 1000) g;
CREATE INDEX upgraded_t_f ON upgraded_t USING bloomfilter (id);
SELECT count(*) FILTER (WHERE bloom_index_contains('upgraded_t_f', id)) AS found FROM upgraded_t;

-- 1.3 -> 1.4: the countingbloom and cuckoofilter types, their functions,
-- operators and aggregates; values and the index of 1.3 are unchanged
CREATE TABLE kept13 AS
  SELECT 1 AS id, bloom_agg(id) AS f FROM upgraded_t
  UNION ALL SELECT 2, bloom_empty(100, 0.01, 0)
  UNION ALL SELECT 3, bloom_index_filter('upgraded_t_f');
CREATE TEMP TABLE before_14 AS SELECT id, md5(f::bytea) AS digest FROM kept13;
ALTER EXTENSION bloomtype UPDATE TO '1.4';
SELECT extversion FROM pg_extension WHERE extname = 'bloomtype';
SELECT id, md5(f::bytea) = digest AS unchanged, bloom_contains(f, 500) AS answers
  FROM kept13 JOIN before_14 USING (id) ORDER BY id;
SELECT count(*) FILTER (WHERE bloom_index_contains('upgraded_t_f', id)) AS index_found FROM upgraded_t;
SELECT t.typname, count(p.oid) AS functions
  FROM pg_type t JOIN pg_depend d ON d.classid = 'pg_type'::regclass AND d.objid = t.oid
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomtype'
  LEFT JOIN pg_proc p ON p.proname LIKE (CASE t.typname WHEN 'countingbloom' THEN 'counting\_%'
                                                     WHEN 'cuckoofilter' THEN 'cuckoo\_%' END)
 WHERE t.typname IN ('countingbloom', 'cuckoofilter')
 GROUP BY t.typname ORDER BY t.typname;
-- the new types work after the update
SELECT counting_contains(counting_remove(counting_add(counting_add(NULL, 7), 8), 7), 7) AS counting_removed,
       cuckoo_contains(cuckoo_remove(cuckoo_add(cuckoo_add(NULL, 7), 8), 7), 8) AS cuckoo_kept,
       counting_contains(f, 5000) AND cuckoo_contains(c, 5000) AS agg_found
  FROM (SELECT counting_agg(g) AS f, cuckoo_agg(g) AS c FROM generate_series(1, 10000) g) s;

-- 1.4 -> 1.5: bloom_agg(key, capacity, fpr) and counting_agg(key, capacity,
-- fpr) keep light partial states (kinds 7 and 8); their results are byte
-- for byte those of 1.4, and a dense partial state of 1.4 combines with a
-- light one
CREATE AGGREGATE partial14(bigint, bigint, double precision)
  (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
CREATE TABLE kept14 AS
  SELECT g % 4 AS part, partial14(g::bigint, 100000, 0.01) AS s
    FROM generate_series(1, 20000) g GROUP BY 1;
CREATE AGGREGATE cpartial14(bigint, bigint, double precision)
  (SFUNC = counting_agg_trans, STYPE = countingbloom);
CREATE TABLE ckept14 AS
  SELECT g % 4 AS part, cpartial14(g::bigint, 30000, 0.01) AS s
    FROM generate_series(1, 20000) g GROUP BY 1;
CREATE TEMP TABLE cbefore_15 AS
  SELECT md5(counting_agg(g % 7000, 30000, 0.01)::text) AS fixed,
         md5(counting_agg(g % 50, 100, 0.01)::text) AS saturated
    FROM generate_series(1, 20000) g;
CREATE TEMP TABLE before_15 AS
  SELECT md5(bloom_agg(g::bigint, 100000, 0.01)::text) AS fixed,
         md5(bloom_agg(g::text, 5000, 0.001)::text) AS over_capacity,
         md5(bloom_agg(g::bigint)::text) AS auto
    FROM generate_series(1, 20000) g;
SELECT DISTINCT get_byte(s::bytea, 5) AS kind_14 FROM kept14;
SET client_min_messages = error;
ALTER EXTENSION bloomtype UPDATE TO '1.5';
RESET client_min_messages;
SELECT extversion FROM pg_extension WHERE extname = 'bloomtype';
SELECT md5(bloom_agg(g::bigint, 100000, 0.01)::text) = fixed AS fixed_same,
       md5(bloom_agg(g::text, 5000, 0.001)::text) = over_capacity AS over_capacity_same,
       md5(bloom_agg(g::bigint)::text) = auto AS auto_same
  FROM generate_series(1, 20000) g, before_15 GROUP BY fixed, over_capacity, auto;
SELECT md5(counting_agg(g % 7000, 30000, 0.01)::text) = fixed AS counting_fixed_same,
       md5(counting_agg(g % 50, 100, 0.01)::text) = saturated AS counting_saturated_same
  FROM generate_series(1, 20000) g, cbefore_15 GROUP BY fixed, saturated;
SELECT get_byte(s::bytea, 4) AS version, get_byte(s::bytea, 5) AS kind, length(s::bytea) AS bytes
  FROM (SELECT cpartial14(g::bigint, 30000, 0.01) AS s FROM generate_series(1, 100) g) x;
CREATE AGGREGATE ccombine15(countingbloom)
  (SFUNC = counting_agg_combine, STYPE = countingbloom, FINALFUNC = counting_agg_final);
SELECT md5(ccombine15(s ORDER BY o)::text) = (SELECT md5(counting_agg(g::bigint, 30000, 0.01)::text)
                                               FROM generate_series(1, 20000) g) AS counting_mixed_same
  FROM (SELECT 1 AS o, s FROM ckept14 WHERE part < 2
        UNION ALL SELECT 2, cpartial14(g::bigint, 30000, 0.01)
          FROM generate_series(1, 20000) g WHERE g % 4 >= 2) x;
-- the aggregate's own function now starts light states
SELECT get_byte(s::bytea, 4) AS version, get_byte(s::bytea, 5) AS kind, length(s::bytea) AS bytes
  FROM (SELECT partial14(g::bigint, 100000, 0.01) AS s FROM generate_series(1, 100) g) x;
-- dense (1.4) and light (1.5) partial states combine, in either order
CREATE AGGREGATE combine15(bloomfilter)
  (SFUNC = bloom_agg_combine, STYPE = bloomfilter, FINALFUNC = bloom_agg_final);
SELECT md5(combine15(s ORDER BY o)::text) = (SELECT fixed FROM before_15) AS mixed_same
  FROM (SELECT 1 AS o, s FROM kept14 WHERE part < 2
        UNION ALL SELECT 2, partial14(g::bigint, 100000, 0.01)
          FROM generate_series(1, 20000) g WHERE g % 4 >= 2) x;
SELECT md5(combine15(s ORDER BY o)::text) = (SELECT fixed FROM before_15) AS mixed_same_reversed
  FROM (SELECT 2 AS o, s FROM kept14 WHERE part < 2
        UNION ALL SELECT 1, partial14(g::bigint, 100000, 0.01)
          FROM generate_series(1, 20000) g WHERE g % 4 >= 2) x;
DROP AGGREGATE partial14(bigint, bigint, double precision);
DROP AGGREGATE combine15(bloomfilter);
DROP AGGREGATE cpartial14(bigint, bigint, double precision);
DROP AGGREGATE ccombine15(countingbloom);

-- 1.5 -> 1.6: one meaning per value.  On 1.5 the lookups (bloom_contains,
-- its array forms, bloom_cardinality) read an aggregate's hash list with
-- hashes (kind 2) as a blocked filter, while |, bloom_union_agg, bloom_info
-- and bloom_add read it as the scalable filter its aggregate returns; after
-- the update every function reads it the latter way.  Fixed input: the
-- partial state of 1,000 integers, probed with 20,000 absent keys.
CREATE AGGREGATE partial15(bigint) (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
CREATE TABLE kept15 AS
  SELECT s AS h, s | s AS u, (SELECT bloom_agg(g::bigint) FROM generate_series(1, 1000) g) AS f
    FROM (SELECT partial15(g::bigint) AS s FROM generate_series(1, 1000) g) x;
CREATE TEMP TABLE before_16 AS SELECT md5(h::bytea) AS h, md5(u::bytea) AS u, md5(f::bytea) AS f FROM kept15;
CREATE TEMP VIEW meaning AS
  SELECT get_byte(h::bytea, 5) AS kind,
         (SELECT count(*) FROM generate_series(100001, 120000) k
           WHERE bloom_contains(h, k) <> bloom_contains(u, k)) AS contains_differ,
         (SELECT count(*) FROM generate_series(100001, 120000) k
           WHERE bloom_contains(h, k::integer) <> bloom_contains(u, k::integer)) AS int4_differ,
         (SELECT count(*) FROM generate_series(1, 1000) k WHERE NOT bloom_contains(h, k)) AS missing,
         bloom_contains_each(h, ARRAY(SELECT generate_series(100001, 120000)))
           = bloom_contains_each(u, ARRAY(SELECT generate_series(100001, 120000))) AS same_each,
         bloom_cardinality(h) = bloom_cardinality(u) AS same_cardinality,
         (SELECT count(*) FROM generate_series(100001, 120000) k
           WHERE bloom_contains(u, k) <> bloom_contains(f, k)) AS union_vs_final
    FROM kept15;
SELECT * FROM meaning;
SELECT p.oid::regprocedure AS function, p.prosrc FROM pg_proc p
 WHERE p.proname IN ('bloom_contains', 'bloom_contains_each', 'bloom_contains_all',
                     'bloom_contains_any', 'bloom_cardinality')
 ORDER BY p.oid::regprocedure::text COLLATE "C";
ALTER EXTENSION bloomtype UPDATE TO '1.6';
SELECT extversion FROM pg_extension WHERE extname = 'bloomtype';
-- stored values are unchanged; the hash list now answers as its union
-- (and as the filter its aggregate returns) in every lookup
SELECT md5(v.h::bytea) = b.h AND md5(v.u::bytea) = b.u AND md5(v.f::bytea) = b.f AS unchanged
  FROM kept15 v, before_16 b;
SELECT * FROM meaning;
-- the batch forms, single keys and other key types answer alike
SELECT bloom_contains_all(h, ARRAY[1, 500, 1000]) AS has_all,
       bloom_contains_any(h, ARRAY(SELECT generate_series(100001, 120000)))
         = bloom_contains_any(u, ARRAY(SELECT generate_series(100001, 120000))) AS same_any,
       bloom_contains_all(h, ARRAY(SELECT generate_series(100001, 100003)))
         = bloom_contains_all(u, ARRAY(SELECT generate_series(100001, 100003))) AS same_all,
       bloom_contains(h, 1::smallint) AND bloom_contains(h, 1::integer) AS small_keys
  FROM kept15;
-- filters other than hash lists answer as on 1.5
SELECT id, md5(f::bytea) = digest AS unchanged, bloom_contains(f, 500) AS answers
  FROM kept13 JOIN before_14 USING (id) ORDER BY id;
SELECT p.oid::regprocedure AS function, p.prosrc FROM pg_proc p
 WHERE p.proname IN ('bloom_contains', 'bloom_contains_each', 'bloom_contains_all',
                     'bloom_contains_any', 'bloom_cardinality')
 ORDER BY p.oid::regprocedure::text COLLATE "C";
DROP VIEW meaning;
DROP AGGREGATE partial15(bigint);

-- 1.6 -> 1.7: windowed filters.  The update adds bloom_window, the forms
-- of bloom_add, bloom_add_all and the lookups with a time, bloom_expire
-- and bloom_slices; nothing else changes: stored values keep their bytes
-- and answers.
CREATE TEMP TABLE before_17 AS
  SELECT md5(f::bytea) AS digest, bloom_contains(f, 500) AS answers FROM kept15;
SELECT count(*) AS windowed_functions_before FROM pg_proc
 WHERE proname IN ('bloom_window', 'bloom_expire', 'bloom_slices')
    OR (proname LIKE 'bloom_%' AND pg_get_function_identity_arguments(oid) LIKE '%timestamp with time zone%');
ALTER EXTENSION bloomtype UPDATE TO '1.7';
SELECT extversion FROM pg_extension WHERE extname = 'bloomtype';
SELECT count(*) AS windowed_functions_after FROM pg_proc
 WHERE proname IN ('bloom_window', 'bloom_expire', 'bloom_slices')
    OR (proname LIKE 'bloom_%' AND pg_get_function_identity_arguments(oid) LIKE '%timestamp with time zone%');
SELECT md5(f::bytea) = b.digest AS unchanged, bloom_contains(f, 500) = b.answers AS same_answer
  FROM kept15, before_17 b;
-- a windowed filter made on the updated SQL, stored and read back
CREATE TABLE kept17 AS
  SELECT bloom_add(bloom_window(100, 0.01, '1 day', 7), 42::bigint, '2026-11-02') AS w;
SELECT bloom_contains(w, 42::bigint) AS found, bloom_contains(w, 42::bigint, '2026-11-03') AS not_since,
       (SELECT count(*) FROM bloom_slices(w)) AS slices
  FROM kept17;
DROP TABLE kept17;

-- 1.7 -> 1.8: the change log of an index (a table of the extension and
-- its horizon, the trigger, bloom_index_filter_at, bloom_index_changes,
-- bloom_index_log_prune); stored values keep their bytes and answers, and
-- an index made on 1.7 is logged after the update
CREATE TABLE kept18 (id bigint);
INSERT INTO kept18 SELECT generate_series(1, 100);
CREATE INDEX kept18_bloom ON kept18 USING bloomfilter (id);
SELECT count(*) AS sync_functions_before FROM pg_proc
 WHERE proname IN ('bloom_index_log_trigger', 'bloom_index_filter_at', 'bloom_index_changes', 'bloom_index_log_prune');
ALTER EXTENSION bloomtype UPDATE TO '1.8';
SELECT extversion FROM pg_extension WHERE extname = 'bloomtype';
SELECT count(*) AS sync_functions_after FROM pg_proc
 WHERE proname IN ('bloom_index_log_trigger', 'bloom_index_filter_at', 'bloom_index_changes', 'bloom_index_log_prune');
SELECT c.relname, pg_describe_object(d.refclassid, d.refobjid, 0) AS member_of
  FROM pg_class c JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e'
 ORDER BY c.relname;
SELECT md5(f::bytea) = b.digest AS unchanged, bloom_contains(f, 500) = b.answers AS same_answer
  FROM kept15, before_17 b;
CREATE TRIGGER kept18_log AFTER INSERT ON kept18 REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('kept18_bloom');
CREATE TRIGGER kept18_log_update AFTER UPDATE ON kept18 REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('kept18_bloom');
CREATE TEMP TABLE kept18_copy AS SELECT * FROM bloom_index_filter_at('kept18_bloom');
INSERT INTO kept18 VALUES (101), (102);
SELECT c.complete, length(c.hashes) / 8 AS keys
  FROM kept18_copy k, bloom_index_changes('kept18_bloom', k.mark) c;
DROP TABLE kept18;
DELETE FROM bloomtype_index_log;
DROP TABLE upgraded_t, kept13, kept14, ckept14, kept15;
