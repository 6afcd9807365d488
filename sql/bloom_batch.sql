-- Batch forms: bloom_add_all, bloom_contains_each/all/any
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;

-- add_all adds every element, like bloom_add one by one
SELECT bloom_add_all(bloom_empty(1000), ARRAY[1, 2, 3]::bigint[])
     = bloom_add(bloom_add(bloom_add(bloom_empty(1000), 1::bigint), 2::bigint), 3::bigint) AS same_as_adds;
SELECT items, key_type FROM bloom_info(bloom_add_all(bloom_empty(1000), ARRAY['a', 'b', NULL, 'c']));
-- NULL elements are skipped; a NULL array adds nothing; a NULL filter
-- becomes a new one (create on add, BF.INSERT), unless the keys are NULL too
SELECT bloom_add_all(bloom_empty(100), ARRAY[NULL, NULL]::int[]) = bloom_empty(100) AS nulls_add_nothing,
       bloom_add_all(bloom_empty(100), NULL::int[]) = bloom_empty(100) AS null_array,
       bloom_contains(bloom_add_all(NULL, ARRAY[1]), 1) AS null_filter_created,
       bloom_add_all(NULL, NULL::int[]) IS NULL AS null_and_null,
       bloom_add_all(bloom_empty(100), '{}'::int[]) = bloom_empty(100) AS empty_array;
-- keys of another class than the filter holds
SELECT bloom_add_all(bloom_add(bloom_empty(100), 'x'::text), ARRAY[1, 2]);

CREATE TEMP TABLE f AS SELECT bloom_add_all(bloom_empty(10000), array_agg(g)) AS f FROM generate_series(1, 1000) g;
-- each: one answer per element, NULL for NULL, same shape
SELECT bloom_contains_each(f, ARRAY[1, 5, 5000, NULL, 1000]) FROM f;
SELECT bloom_contains_each(f, ARRAY[[1, 2], [-1, -2]]) FROM f;
SELECT bloom_contains_each(f, '{}'::int[]) FROM f;
SELECT bloom_contains_each(f, NULL::int[]) IS NULL AS strict FROM f;
-- all / any follow = ALL / = ANY for NULLs
SELECT bloom_contains_all(f, ARRAY[1, 2, 3]) AS all_in,
       bloom_contains_all(f, ARRAY[1, 2, -3]) AS one_out,
       bloom_contains_all(f, ARRAY[1, NULL]) AS in_and_null,
       bloom_contains_all(f, ARRAY[-1, NULL]) AS out_and_null,
       bloom_contains_all(f, '{}'::int[]) AS all_empty
  FROM f;
SELECT bloom_contains_any(f, ARRAY[-1, -2, 3]) AS one_in,
       bloom_contains_any(f, ARRAY[-1, -2]) AS none_in,
       bloom_contains_any(f, ARRAY[-1, NULL]) AS out_and_null,
       bloom_contains_any(f, ARRAY[1, NULL]) AS in_and_null,
       bloom_contains_any(f, '{}'::int[]) AS any_empty
  FROM f;
-- the batch answers equal the scalar ones, for a thousand present and
-- a thousand absent keys
SELECT count(*) FILTER (WHERE e <> bloom_contains(f, k)) AS disagreements, count(*)
  FROM f, LATERAL unnest(ARRAY(SELECT g FROM generate_series(-1000, 1000) g),
                          bloom_contains_each(f, ARRAY(SELECT g FROM generate_series(-1000, 1000) g))) AS u(k, e);
SELECT bloom_contains_each(bloom_add_all(bloom_empty(10), ARRAY['2024-01-01'::date]),
                           ARRAY['2024-01-01'::date, '2024-01-02'::date]) AS dates;
SELECT bloom_contains_each(f, ARRAY['1']) FROM f;
-- an empty filter holds nothing
SELECT bloom_contains_each(bloom_empty(10), ARRAY[1, 2]);
