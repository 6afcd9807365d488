-- Long calls can be cancelled: every loop whose length depends on the
-- input checks for interrupts (the core through its BloomCancel callback,
-- the glue with CHECK_FOR_INTERRUPTS), so a statement_timeout stops a call
-- soon after it fires.  Each call below runs, past its inputs, for most of
-- a second or more without those checks (checked by building without
-- them); each must end with "canceling statement due to statement timeout"
-- within half a second of the timeout firing (sql/bloom_cancel_case.inc runs
-- each case).  Only booleans are printed
-- (client_min_messages = debug1 shows the times).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;

-- Runs call; true when a statement timeout ended it within 500 ms of firing
CREATE FUNCTION cancels_in_time(call text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  fires timestamptz := statement_timestamp() +
    current_setting('statement_timeout')::interval;
BEGIN
  EXECUTE call;
  RAISE DEBUG 'not cancelled, ended % after the timeout', clock_timestamp() - fires;
  RETURN false;
EXCEPTION WHEN query_canceled THEN
  RAISE DEBUG '%: % after the timeout', SQLERRM, clock_timestamp() - fires;
  RETURN SQLERRM = 'canceling statement due to statement timeout'
     AND clock_timestamp() - fires < interval '500 ms';
END $$;

-- Builds a call's inputs (setup) twice, untimed, and sets statement_timeout
-- to the shorter of the two times plus 150 ms: in the next statement, which
-- builds them again and then makes the call, the timeout fires inside the
-- call (large values cost page faults that vary from run to run; the
-- shorter time keeps a faster third build from finishing the call first)
CREATE FUNCTION timeout_after(setup text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  t0 timestamptz;
  best interval;
BEGIN
  IF setup = '' THEN                  -- inputs in a table: a fixed timeout
    PERFORM set_config('statement_timeout', '300ms', false);
    RETURN;
  END IF;
  FOR i IN 1..2 LOOP
    t0 := clock_timestamp();
    EXECUTE setup;
    best := least(best, clock_timestamp() - t0);
  END LOOP;
  PERFORM set_config('statement_timeout',
    round(extract(epoch FROM best) * 1000 + 150)::text || 'ms', false);
END $$;

-- aggregate states as partial plans give them (no final function): hash
-- lists of 5M hashes (40 MB each), which a read materialises
CREATE AGGREGATE raw_counting_agg(bigint) (SFUNC = counting_agg_trans, STYPE = countingbloom);
CREATE AGGREGATE raw_cuckoo_agg(bigint) (SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter);
CREATE TEMP TABLE states AS
  SELECT raw_counting_agg(g) AS c, raw_cuckoo_agg(g) AS k
  FROM generate_series(1, 5000000) g;
SELECT octet_length(c::bytea) AS c_bytes, octet_length(k::bytea) AS k_bytes FROM states;

-- materialising them: a counting and a cuckoo filter of 5M hashes (the
-- cuckoo one sorts them first)
SELECT 'counting_state' AS name, '' AS setup,
       $$SELECT counting_contains(c, 1) FROM states$$ AS call \gset
\i sql/bloom_cancel_case.inc
SELECT 'cuckoo_state' AS name, '' AS setup,
       $$SELECT cuckoo_contains(k, 1) FROM states$$ AS call \gset
\i sql/bloom_cancel_case.inc

-- compacting a cuckoo filter grown to 12 sub-filters (3M keys): a hash
-- list, already the smallest form, comes back as it is
CREATE TEMP TABLE grown AS
  SELECT cuckoo_add_all(cuckoo_empty(1000, 0.01), array_agg(g)) AS f
  FROM generate_series(1, 3000000) g;
SELECT (cuckoo_info(f)).subfilters FROM grown;
SELECT cuckoo_compact(k) = k AS list_as_is FROM states;
SELECT 'cuckoo_compact' AS name, '' AS setup,
       $$SELECT cuckoo_compact(f) IS NULL FROM grown$$ AS call \gset
\i sql/bloom_cancel_case.inc

-- batch probes: hashing and probing 25M keys
SELECT 'bloom_each' AS name, 'SELECT array_fill(1::bigint, ARRAY[25000000]) IS NULL' AS setup,
       $$SELECT bloom_contains_each(bloom_add(bloom_empty(1000, 0.01), 0::bigint),
                             array_fill(1::bigint, ARRAY[25000000])) IS NULL$$ AS call \gset
\i sql/bloom_cancel_case.inc
SELECT 'cuckoo_any' AS name, 'SELECT array_fill(1::bigint, ARRAY[25000000]) IS NULL' AS setup,
       $$SELECT cuckoo_contains_any(cuckoo_add(cuckoo_empty(1000, 0.01), 0::bigint),
                             array_fill(1::bigint, ARRAY[25000000]))$$ AS call \gset
\i sql/bloom_cancel_case.inc

-- bloom_info (three passes over the blocks) and bloom_cardinality (one) of
-- a filter of 400M keys (500 MB), in one expression: PostgreSQL checks for
-- interrupts between rows, not between these calls
SELECT 'bloom_info' AS name, 'SELECT b IS NULL FROM (SELECT bloom_empty(400000000, 0.01, 0) b OFFSET 0) s' AS setup,
       $$SELECT (bloom_info(b)).bits_set + (bloom_info(b)).estimated_items + bloom_cardinality(b)
  FROM (SELECT bloom_empty(400000000, 0.01, 0) b OFFSET 0) s$$ AS call \gset
\i sql/bloom_cancel_case.inc

-- a counting filter of 60M keys (320 MB): info; one of 80M (430 MB):
-- deep validation of outside bytes
SELECT 'counting_info' AS name, 'SELECT c IS NULL FROM (SELECT counting_empty(60000000, 0.01) c OFFSET 0) s' AS setup,
       $$SELECT (counting_info(c)).counters FROM (SELECT counting_empty(60000000, 0.01) c OFFSET 0) s$$ AS call \gset
\i sql/bloom_cancel_case.inc
SELECT 'counting_validate' AS name, 'SELECT b IS NULL FROM (SELECT counting_empty(80000000, 0.01)::bytea b OFFSET 0) s' AS setup,
       $$SELECT b::countingbloom IS NULL FROM (SELECT counting_empty(80000000, 0.01)::bytea b OFFSET 0) s$$ AS call \gset
\i sql/bloom_cancel_case.inc

-- a cuckoo filter of 300M keys (460 MB): union, deep validation
SELECT 'cuckoo_union' AS name, 'SELECT c IS NULL FROM (SELECT cuckoo_empty(300000000, 0.01) c OFFSET 0) s' AS setup,
       $$SELECT cuckoo_union(c, c) IS NULL FROM (SELECT cuckoo_empty(300000000, 0.01) c OFFSET 0) s$$ AS call \gset
\i sql/bloom_cancel_case.inc
SELECT 'cuckoo_validate' AS name, 'SELECT b IS NULL FROM (SELECT cuckoo_empty(300000000, 0.01)::bytea b OFFSET 0) s' AS setup,
       $$SELECT b::cuckoofilter IS NULL FROM (SELECT cuckoo_empty(300000000, 0.01)::bytea b OFFSET 0) s$$ AS call \gset
\i sql/bloom_cancel_case.inc

-- the text form of a filter of 200M keys (240 MB), which pg_dump writes
-- (its input decodes the 480M hex digits in about 150 ms: not a long call)
SELECT 'text_out' AS name, 'SELECT f IS NULL FROM (SELECT bloom_empty(200000000, 0.01, 0) f OFFSET 0) s' AS setup,
       $$SELECT length(f::text) FROM (SELECT bloom_empty(200000000, 0.01, 0) f OFFSET 0) s$$ AS call \gset
\i sql/bloom_cancel_case.inc

DROP TABLE states, grown;
DROP AGGREGATE raw_counting_agg(bigint);
DROP AGGREGATE raw_cuckoo_agg(bigint);
DROP FUNCTION cancels_in_time(text);
DROP FUNCTION timeout_after(text);
