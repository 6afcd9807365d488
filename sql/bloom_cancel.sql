-- Long calls can be cancelled: every loop whose length depends on the
-- input checks for interrupts (the core through its BloomCancel callback,
-- the glue with CHECK_FOR_INTERRUPTS), so a statement_timeout stops a call
-- soon after it fires.  Each call below runs, past its inputs, for most of
-- a second or more without those checks (checked by building without
-- them); each must end with "canceling statement due to statement timeout"
-- within half a second of the timeout firing (sql/bloom_cancel_case.inc runs
-- each case).  Only booleans are printed
-- (client_min_messages = debug1 shows the times).
--
-- What is measured is the call's overrun past its timeout, and only when
-- the timeout fired inside the call: each case's inputs are built in a
-- subquery (or read from a table) and the call starts after began() has
-- noted the time in a sequence (setval is not undone by the cancel).  A
-- timeout that fired while the inputs were still being built (a loaded
-- machine builds them slower than the timing run did) or after the call
-- ended proves nothing either way, and the case is tried again; so a busy
-- machine cannot make a cancellable call look late by cancelling the
-- (uninterruptible) building of its inputs.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;

CREATE TEMP SEQUENCE call_began MINVALUE 0;
-- true, after noting when the call starts (microseconds since the epoch)
CREATE FUNCTION began() RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM setval('call_began', (extract(epoch FROM clock_timestamp()) * 1000000)::bigint);
  RETURN true;
END $$;

-- Runs call under the statement_timeout set; true when the timeout fired
-- inside the call (after began()) and ended it within 500 ms.  A try that
-- cannot tell (the timeout fired before the call began, or not at all) is
-- false too, and says which at debug1: bloom_cancel_case.inc tries again,
-- with the timeout this try suggests (in bloom_cancel.timeout_ms) from
-- when the call began and ended: a third into the call.
CREATE FUNCTION cancels_in_time(call text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  timeout interval := current_setting('statement_timeout')::interval;
  fires timestamptz := statement_timestamp() + timeout;
  began_us bigint;
  start timestamptz;
  late interval;
  next interval := timeout;
BEGIN
  PERFORM setval('call_began', 0);
  EXECUTE call;
  SELECT last_value INTO began_us FROM call_began;
  start := to_timestamp(began_us / 1e6);
  RAISE DEBUG 'not cancelled, ended % after the timeout', clock_timestamp() - fires;
  next := CASE WHEN began_us = 0 THEN timeout * 2
               ELSE start - statement_timestamp() + (clock_timestamp() - start) / 3 END;
  PERFORM set_config('bloom_cancel.timeout_ms',
                     round(extract(epoch FROM next) * 1000)::text, false);
  RETURN false;
EXCEPTION WHEN query_canceled THEN
  late := clock_timestamp() - fires;
  SELECT last_value INTO began_us FROM call_began;
  start := to_timestamp(began_us / 1e6);
  IF began_us = 0 OR start >= fires THEN
    RAISE DEBUG '%: fired before the call began', SQLERRM;
    next := CASE WHEN began_us = 0 THEN timeout * 2
                 ELSE (start - statement_timestamp()) * 1.1 + interval '150 ms' END;
    PERFORM set_config('bloom_cancel.timeout_ms',
                       round(extract(epoch FROM next) * 1000)::text, false);
    RETURN false;
  END IF;
  RAISE DEBUG '%: % after the timeout (% into the call)', SQLERRM, late, fires - start;
  RETURN SQLERRM = 'canceling statement due to statement timeout'
     AND late < interval '500 ms';
END $$;

-- Builds a call's inputs (setup) twice, untimed, and sets statement_timeout
-- to the shorter of the two times plus a tenth and 150 ms (on a loaded
-- machine a build of several seconds varies by more than 150 ms, and a
-- timeout that fires before the call proves nothing): in the next statement, which
-- builds them again and then makes the call, the timeout fires inside the
-- call (large values cost page faults that vary from run to run; the
-- shorter time keeps a faster third build from finishing the call first).
-- Inputs in a table have no setup (''). A try after the first takes the
-- timeout the one before suggested.
CREATE FUNCTION timeout_after(setup text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  t0 timestamptz;
  best interval := '0';
  suggested text := current_setting('bloom_cancel.timeout_ms', true);
BEGIN
  IF coalesce(suggested, '') <> '' THEN
    PERFORM set_config('statement_timeout', suggested || 'ms', false);
    RETURN;
  END IF;
  IF setup <> '' THEN
    best := NULL;
    FOR i IN 1..2 LOOP
      t0 := clock_timestamp();
      EXECUTE setup;
      best := least(best, clock_timestamp() - t0);
    END LOOP;
  END IF;
  PERFORM set_config('statement_timeout',
    round(extract(epoch FROM best) * 1100 + 150)::text || 'ms', false);
END $$;

-- aggregate states as partial plans give them (no final function): hash
-- lists of 5M hashes (40 MB each), which a read materialises
CREATE AGGREGATE raw_counting_agg(bigint) (SFUNC = counting_agg_trans, STYPE = countingbloom);
CREATE AGGREGATE raw_cuckoo_agg(bigint) (SFUNC = cuckoo_agg_trans, STYPE = cuckoofilter);
CREATE TEMP TABLE states AS
  SELECT raw_counting_agg(g) AS c, raw_cuckoo_agg(g) AS k
  FROM generate_series(1, 5000000) g;
SELECT octet_length(c::bytea) AS c_bytes, octet_length(k::bytea) AS k_bytes FROM states;

-- Each case names its inputs (a FROM item with alias s), the statement
-- that builds them (setup) and the call made on them.
-- materialising them: a counting and a cuckoo filter of 5M hashes (the
-- cuckoo one sorts them first)
SELECT 'counting_state' AS name, '' AS setup, 'states s' AS inputs,
       'counting_contains(c, 1)' AS call \gset
\i sql/bloom_cancel_case.inc
SELECT 'cuckoo_state' AS name, '' AS setup, 'states s' AS inputs,
       'cuckoo_contains(k, 1)' AS call \gset
\i sql/bloom_cancel_case.inc

-- compacting a cuckoo filter grown to 12 sub-filters (3M keys): a hash
-- list, already the smallest form, comes back as it is
CREATE TEMP TABLE grown AS
  SELECT cuckoo_add_all(cuckoo_empty(1000, 0.01), array_agg(g)) AS f
  FROM generate_series(1, 3000000) g;
SELECT (cuckoo_info(f)).subfilters FROM grown;
SELECT cuckoo_compact(k) = k AS list_as_is FROM states;
SELECT 'cuckoo_compact' AS name, '' AS setup, 'grown s' AS inputs,
       'cuckoo_compact(f) IS NULL' AS call \gset
\i sql/bloom_cancel_case.inc

-- batch probes: hashing and probing 25M keys
SELECT 'bloom_each' AS name, 'SELECT array_fill(1::bigint, ARRAY[25000000]) IS NULL' AS setup,
       $$(SELECT bloom_add(bloom_empty(1000, 0.01), 0::bigint) f,
                 array_fill(1::bigint, ARRAY[25000000]) a OFFSET 0) s$$ AS inputs,
       'bloom_contains_each(f, a) IS NULL' AS call \gset
\i sql/bloom_cancel_case.inc
SELECT 'cuckoo_any' AS name, 'SELECT array_fill(1::bigint, ARRAY[25000000]) IS NULL' AS setup,
       $$(SELECT cuckoo_add(cuckoo_empty(1000, 0.01), 0::bigint) f,
                 array_fill(1::bigint, ARRAY[25000000]) a OFFSET 0) s$$ AS inputs,
       'cuckoo_contains_any(f, a)' AS call \gset
\i sql/bloom_cancel_case.inc

-- bloom_info (three passes over the blocks) and bloom_cardinality (one) of
-- a filter of 400M keys (500 MB), in one expression: PostgreSQL checks for
-- interrupts between rows, not between these calls
SELECT 'bloom_info' AS name, 'SELECT b IS NULL FROM (SELECT bloom_empty(400000000, 0.01, 0) b OFFSET 0) s' AS setup,
       '(SELECT bloom_empty(400000000, 0.01, 0) b OFFSET 0) s' AS inputs,
       '(bloom_info(b)).bits_set + (bloom_info(b)).estimated_items + bloom_cardinality(b)' AS call \gset
\i sql/bloom_cancel_case.inc

-- a counting filter of 60M keys (320 MB): info; one of 80M (430 MB):
-- deep validation of outside bytes (each call made four and eight times
-- over, as cuckoo_validate below: one is shorter than its inputs' build,
-- and on a loaded machine the timeout then fired before it on every try)
SELECT 'counting_info' AS name, 'SELECT c IS NULL FROM (SELECT counting_empty(60000000, 0.01) c OFFSET 0) s' AS setup,
       '(SELECT counting_empty(60000000, 0.01) c OFFSET 0) s' AS inputs,
       '(SELECT max((counting_info(c)).counters + 0 * g) FROM generate_series(1, 4) g)' AS call \gset
\i sql/bloom_cancel_case.inc
SELECT 'counting_validate' AS name, 'SELECT b IS NULL FROM (SELECT counting_empty(80000000, 0.01)::bytea b OFFSET 0) s' AS setup,
       '(SELECT counting_empty(80000000, 0.01)::bytea b OFFSET 0) s' AS inputs,
       '(SELECT bool_or(b::countingbloom IS NULL OR g = 0) FROM generate_series(1, 8) g)' AS call \gset
\i sql/bloom_cancel_case.inc

-- a cuckoo filter of 300M keys (460 MB): union, deep validation
SELECT 'cuckoo_union' AS name, 'SELECT c IS NULL FROM (SELECT cuckoo_empty(300000000, 0.01) c OFFSET 0) s' AS setup,
       '(SELECT cuckoo_empty(300000000, 0.01) c OFFSET 0) s' AS inputs,
       'cuckoo_union(c, c) IS NULL' AS call \gset
\i sql/bloom_cancel_case.inc
-- (validated eight times: building the 460 MB bytea costs ten times one
-- validation, and a call shorter than its inputs' variation on a loaded
-- machine leaves the timeout no room to fire inside it; g keeps bool_or
-- an aggregate of the inner query)
SELECT 'cuckoo_validate' AS name, 'SELECT b IS NULL FROM (SELECT cuckoo_empty(300000000, 0.01)::bytea b OFFSET 0) s' AS setup,
       '(SELECT cuckoo_empty(300000000, 0.01)::bytea b OFFSET 0) s' AS inputs,
       '(SELECT bool_or(b::cuckoofilter IS NULL OR g = 0) FROM generate_series(1, 8) g)' AS call \gset
\i sql/bloom_cancel_case.inc

-- the text form of a filter of 200M keys (240 MB), which pg_dump writes
-- (its input decodes the 480M hex digits in about 150 ms: not a long call)
SELECT 'text_out' AS name, 'SELECT f IS NULL FROM (SELECT bloom_empty(200000000, 0.01, 0) f OFFSET 0) s' AS setup,
       '(SELECT bloom_empty(200000000, 0.01, 0) f OFFSET 0) s' AS inputs,
       'length(f::text)' AS call \gset
\i sql/bloom_cancel_case.inc

DROP TABLE states, grown;
DROP AGGREGATE raw_counting_agg(bigint);
DROP AGGREGATE raw_cuckoo_agg(bigint);
DROP FUNCTION cancels_in_time(text);
DROP FUNCTION timeout_after(text);
DROP FUNCTION began();
DROP SEQUENCE call_began;
