-- Removing only keys that were added never loses a key: 100,000 random
-- adds and removes per type (a fixed seed), against an exact multiset of
-- the keys held, with every held key looked up every 10,000 operations,
-- and the rate over 100,000 keys never added at the end.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;

CREATE FUNCTION forget_random(kind text) RETURNS TABLE (ops int, adds int, removes int,
    checks int, false_negatives int, held int, absent_hits int, info text)
LANGUAGE plpgsql AS $$
DECLARE
    pool constant int := 20000;
    counts int[] := array_fill(0, ARRAY[pool]);
    cb countingbloom := counting_empty(pool, 0.01);
    cf cuckoofilter := cuckoo_empty(pool / 8, 0.01);
    k int;
BEGIN
    PERFORM setseed(0.42);
    ops := 0; adds := 0; removes := 0; checks := 0; false_negatives := 0;
    FOR i IN 1 .. 100000 LOOP
        k := 1 + floor(random() * pool)::int;
        IF random() < 0.4 AND counts[k] > 0 THEN
            IF kind = 'counting' THEN cb := counting_remove(cb, k); ELSE cf := cuckoo_remove(cf, k); END IF;
            counts[k] := counts[k] - 1;
            removes := removes + 1;
        ELSE
            IF kind = 'counting' THEN cb := counting_add(cb, k); ELSE cf := cuckoo_add(cf, k); END IF;
            counts[k] := counts[k] + 1;
            adds := adds + 1;
        END IF;
        ops := ops + 1;
        IF i % 10000 = 0 THEN
            IF kind = 'cuckoo' THEN
                cf := cuckoo_compact(cf);
            END IF;
            checks := checks + 1;
            false_negatives := false_negatives + (
                SELECT count(*) FROM generate_series(1, pool) g
                 WHERE counts[g] > 0
                   AND NOT CASE WHEN kind = 'counting' THEN counting_contains(cb, g)
                                ELSE cuckoo_contains(cf, g) END);
        END IF;
    END LOOP;
    held := (SELECT count(*) FROM generate_series(1, pool) g WHERE counts[g] > 0);
    absent_hits := (SELECT count(*) FROM generate_series(pool + 1, pool + 100000) g
                     WHERE CASE WHEN kind = 'counting' THEN counting_contains(cb, g)
                                ELSE cuckoo_contains(cf, g) END);
    IF kind = 'counting' THEN
        info := (SELECT format('items=%s removes=%s saturated=%s', ci.items, ci.removes, ci.saturated_counters)
                   FROM counting_info(cb) ci);
    ELSE
        info := (SELECT format('subfilters=%s deletes=%s absorbed=%s stuck=%s', ci.subfilters, ci.deletes,
                               ci.absorbed, ci.stuck)
                   FROM cuckoo_info(cf) ci);
    END IF;
    RETURN NEXT;
END $$;

-- counting: items is adds minus removes
SELECT ops, adds, removes, checks, false_negatives, held, absent_hits <= 1000 AS rate_at_most_1pct, info
  FROM forget_random('counting');
-- cuckoo, growing from an eighth of the pool, compacted every 10,000 ops
SELECT ops, adds, removes, checks, false_negatives, held, absent_hits <= 1000 AS rate_at_most_1pct, info
  FROM forget_random('cuckoo');
DROP FUNCTION forget_random(text);
