-- counting_agg and cuckoo_agg: every form, serial and parallel plans give
-- the same filters, GROUP BY, DISTINCT, no rows, NULL keys, union
-- aggregates, errors
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;
SET extra_float_digits = 0;

CREATE TABLE fa AS SELECT g AS id, g % 10 AS grp, 'k' || g AS name FROM generate_series(1, 200000) g;
ANALYZE fa;

-- serial results, kept in psql variables (a temporary table in the
-- comparison would keep the plan serial)
SET max_parallel_workers_per_gather = 0;
SELECT md5(counting_agg(id)::bytea) AS c1, md5(counting_agg(id, 0.001)::bytea) AS c2,
       md5(counting_agg(id, 300000, 0.01)::bytea) AS c3,
       md5(cuckoo_agg(id)::bytea) AS k1, md5(cuckoo_agg(id, 0.001)::bytea) AS k2,
       md5(cuckoo_agg(id, 300000, 0.01)::bytea) AS k3, md5(cuckoo_agg(id, 50000, 0.01)::bytea) AS k4
  FROM fa \gset
-- parallel results: byte-identical (counters add; cuckoo states are hash
-- lists, inserted in sorted order at the end); the plan shows partial
-- aggregates, so the combine functions run
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF)
SELECT md5(counting_agg(id)::bytea) = :'c1' AS c1, md5(counting_agg(id, 0.001)::bytea) = :'c2' AS c2,
       md5(counting_agg(id, 300000, 0.01)::bytea) = :'c3' AS c3,
       md5(cuckoo_agg(id)::bytea) = :'k1' AS k1, md5(cuckoo_agg(id, 0.001)::bytea) = :'k2' AS k2,
       md5(cuckoo_agg(id, 300000, 0.01)::bytea) = :'k3' AS k3, md5(cuckoo_agg(id, 50000, 0.01)::bytea) = :'k4' AS k4
  FROM fa;
SELECT md5(counting_agg(id)::bytea) = :'c1' AS c1, md5(counting_agg(id, 0.001)::bytea) = :'c2' AS c2,
       md5(counting_agg(id, 300000, 0.01)::bytea) = :'c3' AS c3,
       md5(cuckoo_agg(id)::bytea) = :'k1' AS k1, md5(cuckoo_agg(id, 0.001)::bytea) = :'k2' AS k2,
       md5(cuckoo_agg(id, 300000, 0.01)::bytea) = :'k3' AS k3, md5(cuckoo_agg(id, 50000, 0.01)::bytea) = :'k4' AS k4
  FROM fa;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

-- what they hold: every key, the rate asked for, the size asked for
CREATE TEMP TABLE built AS SELECT counting_agg(id) AS c, counting_agg(id, 300000, 0.01) AS cc,
       cuckoo_agg(id) AS k, cuckoo_agg(id, 50000, 0.01) AS kc FROM fa;
SELECT (SELECT count(*) FROM fa WHERE NOT counting_contains(c, id)) AS c_missing,
       (SELECT count(*) FROM fa WHERE NOT counting_contains(cc, id)) AS cc_missing,
       (SELECT count(*) FROM fa WHERE NOT cuckoo_contains(k, id)) AS k_missing,
       (SELECT count(*) FROM fa WHERE NOT cuckoo_contains(kc, id)) AS kc_missing,
       (SELECT count(*) FROM generate_series(200001, 300000) g WHERE counting_contains(c, g)) <= 1000 AS c_rate,
       (SELECT count(*) FROM generate_series(200001, 300000) g WHERE cuckoo_contains(k, g)) <= 1000 AS k_rate,
       (SELECT count(*) FROM generate_series(200001, 300000) g WHERE cuckoo_contains(kc, g)) <= 1000 AS kc_rate
  FROM built;
SELECT (counting_info(c)).capacity AS c_capacity, (counting_info(c)).items AS c_items,
       (counting_info(cc)).capacity AS cc_capacity,
       (cuckoo_info(k)).capacity AS k_capacity, (cuckoo_info(k)).items AS k_items,
       (cuckoo_info(k)).subfilters AS k_subfilters,
       (cuckoo_info(kc)).capacity AS kc_capacity, (cuckoo_info(kc)).subfilters AS kc_subfilters
  FROM built;

-- each row adds a copy; DISTINCT for a set
SELECT counting_count(counting_agg(grp), 3) AS counting_copies,
       counting_count(counting_agg(DISTINCT grp), 3) AS counting_distinct,
       cuckoo_count(cuckoo_agg(grp), 3) AS cuckoo_copies_capped,
       cuckoo_count(cuckoo_agg(DISTINCT grp), 3) AS cuckoo_distinct,
       (cuckoo_info(cuckoo_agg(grp))).absorbed AS absorbed
  FROM fa WHERE id <= 100;

-- GROUP BY and key types
SELECT grp, counting_contains(counting_agg(name), 'k' || (grp + 10)) AS c_has,
       cuckoo_contains(cuckoo_agg(name), 'k' || (grp + 10)) AS k_has,
       cuckoo_contains(cuckoo_agg(name), 'k' || (grp + 11)) AS k_other_group
  FROM fa WHERE id <= 1000 GROUP BY grp ORDER BY grp LIMIT 3;

-- NULL keys are ignored; no rows give empty filters (of the capacity when
-- the call has one; else an empty state that unites with anything)
SELECT (counting_info(counting_agg(NULL::int))).items AS c_null_items,
       (cuckoo_info(cuckoo_agg(NULL::int))).items AS k_null_items
  FROM fa WHERE id <= 10;
SELECT (counting_info(counting_agg(id, 5000, 0.01))).capacity AS c_empty_capacity,
       (cuckoo_info(cuckoo_agg(id, 5000, 0.01))).capacity AS k_empty_capacity,
       counting_contains(counting_agg(id), 1) AS c_empty_contains,
       cuckoo_contains(cuckoo_agg(id), 1) AS k_empty_contains,
       counting_contains(counting_agg(id) | counting_add(counting_empty(7), 1), 1) AS c_empty_unites,
       cuckoo_contains(cuckoo_agg(id) | cuckoo_add(cuckoo_empty(7), 1), 1) AS k_empty_unites
  FROM fa WHERE id < 0;

-- NULL keys only, without a capacity, give what no rows give; two of them
-- unite into the same
SELECT (SELECT cuckoo_agg(NULL::int)::bytea FROM fa WHERE id <= 10) =
       (SELECT cuckoo_agg(id)::bytea FROM fa WHERE id < 0) AS k_null_as_no_rows,
       (SELECT counting_agg(NULL::int)::bytea FROM fa WHERE id <= 10) =
       (SELECT counting_agg(id)::bytea FROM fa WHERE id < 0) AS c_null_as_no_rows,
       (SELECT (cuckoo_agg(id) | cuckoo_agg(id))::bytea = cuckoo_agg(id)::bytea FROM fa WHERE id < 0) AS k_empty_union,
       (SELECT (counting_agg(id) | counting_agg(id))::bytea = counting_agg(id)::bytea FROM fa WHERE id < 0) AS c_empty_union;

-- removes leave an empty result as it is (it stands for no size)
SELECT counting_remove(f, 5) = f AS c_remove, counting_remove_all(f, ARRAY[5]) = f AS c_remove_all,
       (counting_empty(50) | counting_remove(f, 5)) = counting_empty(50) AS c_unites_after_remove
  FROM (SELECT counting_agg(id) AS f FROM fa WHERE id < 0) s;
SELECT cuckoo_remove(f, 5)::bytea = f::bytea AS k_remove, cuckoo_remove_all(f, ARRAY[5])::bytea = f::bytea AS k_remove_all,
       (cuckoo_empty(50) | cuckoo_remove(f, 5))::bytea = cuckoo_empty(50)::bytea AS k_unites_after_remove
  FROM (SELECT cuckoo_agg(id) AS f FROM fa WHERE id < 0) s;

-- union aggregates
SELECT counting_count(counting_union_agg(f), 5) AS c_union_count,
       (counting_info(counting_union_agg(f))).items AS c_union_items
  FROM (SELECT counting_agg(id, 1000, 0.01) AS f FROM fa WHERE id <= 100 GROUP BY grp
        UNION ALL SELECT counting_agg(id, 1000, 0.01) FROM fa WHERE id = 5) s;
SELECT (SELECT count(*) FROM generate_series(1, 100) g WHERE NOT cuckoo_contains(u, g)) AS k_union_missing,
       (cuckoo_info(u)).items AS k_union_items
  FROM (SELECT cuckoo_union_agg(f) AS u
          FROM (SELECT cuckoo_agg(id, 1000, 0.01) AS f FROM fa WHERE id <= 100 GROUP BY grp) s) t;

-- window use: the state is left as it is by the final step
SELECT id, (counting_info(counting_agg(id) OVER (ORDER BY id))).items AS c_running,
       (cuckoo_info(cuckoo_agg(id) OVER (ORDER BY id))).items AS k_running
  FROM fa WHERE id <= 3 ORDER BY id;

-- errors
SELECT counting_agg(id, NULL::float8) FROM fa WHERE id <= 2;
SELECT cuckoo_agg(id, 0, 0.01) FROM fa WHERE id <= 2;
SELECT cuckoo_agg(id, 1e-11) FROM fa WHERE id <= 2;
SELECT counting_agg(id, 1000000000000, 0.01) FROM fa WHERE id <= 2;
SELECT counting_agg(id, CASE WHEN id = 1 THEN 0.01 ELSE 0.02 END) FROM fa WHERE id <= 2;
SELECT counting_agg_combine(counting_empty(10), counting_empty(10));
DROP TABLE fa;
