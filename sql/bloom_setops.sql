-- Union (|) and intersection (&) of filters, and their errors
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;

CREATE TEMP TABLE fs AS
SELECT (SELECT bloom_agg(g, 10000, 0.01) FROM generate_series(1, 3000) g) AS a,
       (SELECT bloom_agg(g, 10000, 0.01) FROM generate_series(2001, 5000) g) AS b;

-- union holds every key of both; intersection every key of both sets' overlap
SELECT (SELECT count(*) FROM generate_series(1, 5000) g WHERE NOT bloom_contains(a | b, g)) AS union_missing,
       (SELECT count(*) FROM generate_series(2001, 3000) g WHERE NOT bloom_contains(a & b, g)) AS intersection_missing,
       (SELECT count(*) FROM generate_series(1, 1000) g WHERE bloom_contains(a & b, g)) < 50 AS intersection_excludes
  FROM fs;
-- counts and estimates
SELECT (bloom_info(a | b)).items AS union_items, (bloom_info(a & b)).items AS intersection_items,
       bloom_cardinality(a | b) BETWEEN 4850 AND 5150 AS union_card,
       bloom_cardinality(a & b) BETWEEN 900 AND 1300 AS intersection_card
  FROM fs;
-- commutative, idempotent, and the inputs are left alone
SELECT a | b = b | a AS commutes, a & b = b & a AS commutes_and,
       bloom_contains(a, 4000) AS a_unchanged
  FROM fs;
SELECT bloom_cardinality(a | a) = bloom_cardinality(a) AS idempotent FROM fs;
-- an empty filter is the identity of union and the zero of intersection
SELECT (a | bloom_empty(10000, 0.01)) = a AS union_identity,
       bloom_cardinality(a & bloom_empty(10000, 0.01)) AS intersect_zero
  FROM fs;
-- NULL in, NULL out
SELECT (a | NULL) IS NULL AS union_null, (NULL & a) IS NULL AS intersect_null FROM fs;

-- incompatible filters: the error names the parameter that differs
SELECT bloom_empty(1000) | bloom_empty(2000);
SELECT bloom_empty(1000, 0.01) & bloom_empty(1000, 0.02);
SELECT bloom_add(bloom_empty(1000), 1) | bloom_add(bloom_empty(1000), 'x'::text);
SELECT bloom_add(bloom_empty(1000), 1) | bloom_add(bloom_empty(1000), now()::date);
-- a filter with no keys yet takes the key type of the other
SELECT key_type FROM bloom_info(bloom_empty(1000) | bloom_add(bloom_empty(1000), 'x'::text));
