"""Differential fuzz of the readers against a server (not one of the unit
tests: it needs a server).  Values of every kind made by the server are
mutated at random (header fields set to edge values, descriptor words and
body bits changed, values cut and lengthened), each fed to the three types'
input and to the three readers: acceptance must agree (but for a hash list
that holds hashes, which the readers refuse), and so must the answers for
the integer keys 1 to 16.  Then empty version 3 hash lists at the largest
capacity a cuckoofilter takes (cf_validate), and one either side.

    PG*=... /usr/bin/python3 clients/python/tests/fuzz_server.py [N [SEED]]

Makes and drops the database py_fuzz.  Exit status 1 on a disagreement.
"""
import math
import os
import random
import struct
import sys

import psycopg2

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import bloomtype  # noqa: E402
from bloomtype import cuckoo  # noqa: E402

DB = "py_fuzz"
TYPES = ("bloomfilter", "countingbloom", "cuckoofilter")

SETUP = r"""
CREATE EXTENSION bloomtype;
CREATE FUNCTION accepts(v bytea, t regtype) RETURNS bool LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('SELECT $1::%s', t) USING v;
  RETURN true;
EXCEPTION WHEN others THEN
  RETURN false;
END $$;
CREATE FUNCTION answers(v bytea, t regtype) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text; answers text := '';
BEGIN
  IF NOT accepts(v, t) OR get_byte(v, 7) NOT IN (0, 1) THEN
    RETURN NULL;
  END IF;
  FOR i IN 1..16 LOOP
    EXECUTE format('SELECT CASE WHEN %s($1::%s, $2) THEN ''1'' ELSE ''0'' END',
                   CASE t WHEN 'bloomfilter'::regtype THEN 'bloom_contains'
                          WHEN 'countingbloom'::regtype THEN 'counting_contains'
                          ELSE 'cuckoo_contains' END, t)
      INTO STRICT r USING v, i::bigint;
    answers := answers || r;
  END LOOP;
  RETURN answers;
EXCEPTION WHEN others THEN
  RETURN 'ERROR: ' || SQLERRM;
END $$;
-- partial states as values: 1.5's (light, then kind 3), 1.4's dense one,
-- counting_agg's, bloom_agg(key)'s hash list
CREATE AGGREGATE state_fixed(bigint, bigint, float8) (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
CREATE FUNCTION dense_trans(bloomfilter, bigint, bigint, float8) RETURNS bloomfilter
  AS '$libdir/bloomtype', 'bloom_agg_trans_int8' LANGUAGE C IMMUTABLE;
CREATE AGGREGATE state_dense(bigint, bigint, float8) (SFUNC = dense_trans, STYPE = bloomfilter);
CREATE AGGREGATE state_counting(bigint, bigint, float8) (SFUNC = counting_agg_trans, STYPE = countingbloom);
CREATE AGGREGATE state_auto(bigint) (SFUNC = bloom_agg_trans, STYPE = bloomfilter);
"""


def ints(a, b):
    return "(SELECT array_agg(g::bigint) FROM generate_series(%d, %d) g)" % (a, b)


SEEDS = [
    "bloom_add_all(bloom_empty(100, 0.1, 0), %s)" % ints(1, 60),
    "set_byte(set_byte(bloom_add_all(bloom_empty(40, 0.3, 0), %s)::bytea, 4, 1), 14, 0)"
    % ints(1, 30),
    "bloom_add_all(bloom_empty(10, 0.2), %s)" % ints(1, 80),
    "bloom_add_all(bloom_empty(10, 0.2, 4), %s)" % ints(1, 80),
    "bloom_add_all(bloom_empty(1, 0.01, 1), %s)" % ints(1, 31),
    "bloom_empty(30, 1e-9)",
    "bloom_add_all(bloom_empty(100, 1e-12, 0), array['a', 'b', 'c'])",
    "(SELECT state_dense(g::bigint, 100, 0.2) FROM generate_series(1, 70) g)",
    "(SELECT state_fixed(g::bigint, 60, 0.2) FROM generate_series(1, 70) g)",
    "(SELECT state_fixed(g::bigint, 500, 0.2) FROM generate_series(1, 7) g)",
    "(SELECT state_auto(g::bigint) FROM generate_series(1, 5) g)",
    "(SELECT bloom_agg(g::bigint) FROM generate_series(1, 0) g)",
    "counting_add_all(counting_empty(30, 0.1), %s)" % ints(1, 20),
    "counting_add_all(counting_empty(2000, 0.001), %s)" % ints(1, 300),
    "counting_empty(5, 0.3)",
    "(SELECT state_counting(g::bigint, 300, 0.2) FROM generate_series(1, 9) g)",
    "cuckoo_add_all(cuckoo_empty(20, 0.1), %s)" % ints(1, 60),
    "cuckoo_add_all(cuckoo_empty(20, 0.05, 2, 500, 4), %s)" % ints(1, 90),
    "cuckoo_add_all(cuckoo_empty(30, 0.3, 8, 100, 0), %s)" % ints(1, 20),
    "cuckoo_add_all(cuckoo_empty(7, 0.01, 4, 500, 1), %s)" % ints(1, 30),
    "cuckoo_add_all(cuckoo_empty(5, 1e-12, 2, 500, 0), %s)" % ints(1, 3),
    "cuckoo_add_all(cuckoo_empty(3, 0.5, 4, 500, 16), %s)" % ints(1, 100),
    "cuckoo_add_all(cuckoo_empty(40, 1e-7, 8, 10, 8), %s)" % ints(1, 200),
    "cuckoo_remove_all(cuckoo_add_all(cuckoo_empty(10, 0.2, 2, 500, 2), %s), %s)"
    % (ints(1, 50), ints(1, 25)),
]

EDGE64 = [0, 1, 2, 3, 7, 8, 9, 255, 256, 257, 511, 512, 513, 2 ** 31, 2 ** 32 - 1, 2 ** 63,
          2 ** 64 - 1]
FPRS = [0.0, 1e-13, 1e-12, 9.99e-10, 1e-9, 0.01, 0.5, 0.5000001, math.nan, math.inf, -0.01]


def le(v):
    return struct.pack("<Q", v % 2 ** 64)


def holds_hashes(v):
    return len(v) >= 64 and v[:4] == b"BLMF" and v[5] == 2 and int.from_bytes(v[56:64], "little")


def mutate(v, rnd):
    b = bytearray(v)
    r = rnd.random()
    if r < 0.25 and len(b) >= 64:
        off = rnd.choice([4, 5, 6, 7, 8, 12, 13, 14, 15])
        b[off] = rnd.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 32, 33, 255, b[off] ^ 1])
    elif r < 0.5 and len(b) >= 64:
        off = rnd.choice([16, 24, 40, 48, 56])
        w = int.from_bytes(b[off:off + 8], "little")
        b[off:off + 8] = le(rnd.choice(EDGE64 + [w + 1, w - 1, w * 2, w // 2]))
    elif r < 0.6 and len(b) >= 64:
        b[32:40] = struct.pack("<d", rnd.choice(FPRS))
    elif r < 0.75 and len(b) > 64:
        off = rnd.randrange(64, len(b))
        if rnd.random() < 0.5 and off + 8 <= len(b):
            w = int.from_bytes(b[off:off + 8], "little")
            b[off:off + 8] = le(rnd.choice([w + 1, w - 1, 0, w ^ (1 << rnd.randrange(64))]))
        else:
            b[off] ^= 1 << rnd.randrange(8)
    elif r < 0.85:
        n = rnd.choice([1, 8, 16, 32, 64, rnd.randrange(1, max(2, len(b)))])
        b = b[:-n] if n < len(b) else b[:rnd.randrange(len(b) + 1)]
    elif r < 0.95:
        b += bytes(rnd.choice([1, 8, 32, 64]))
    else:
        for _ in range(rnd.randrange(1, 4)):
            if b:
                b[rnd.randrange(len(b))] = rnd.randrange(256)
    return bytes(b)


def ours(v):
    out = []
    for t in TYPES:
        try:
            f = bloomtype.READERS[t].from_bytes(v)
        except bloomtype.FormatError:
            out.append((False, None))
            continue
        a = "".join("1" if f.contains(i) else "0" for i in range(1, 17)) if v[7] in (0, 1) else None
        out.append((True, a))
    return out


def compare(cur, vals, label, with_answers=True):
    cols = "answers(v, 'bloomfilter'), answers(v, 'countingbloom'), answers(v, 'cuckoofilter')" \
        if with_answers else "NULL, NULL, NULL"
    cur.execute("SELECT accepts(v, 'bloomfilter'), accepts(v, 'countingbloom'), "
                "accepts(v, 'cuckoofilter'), " + cols +
                " FROM unnest(%s::bytea[]) WITH ORDINALITY u(v, o) ORDER BY o",
                ([psycopg2.Binary(v) for v in vals],))
    bad = accepted = 0
    for v, s in zip(vals, cur.fetchall()):
        for i, (ok, a) in enumerate(ours(v)):
            expect = s[i] and not holds_hashes(v)
            if ok != expect or (expect and s[3 + i] is not None and a != s[3 + i]):
                bad += 1
                if bad < 10:
                    print(label, "disagree:", TYPES[i], "server", s[i], s[3 + i], "reader", ok, a,
                          len(v), v.hex()[:160])
            accepted += bool(expect)
    return bad, accepted


def capacity_edges(n, rnd):
    vals = []
    for _ in range(n):
        fpr = rnd.choice([math.exp(rnd.uniform(math.log(1e-9), math.log(0.5))),
                          1e-9, 0.5, 0.01, 0.1, 1e-6])
        m = cuckoo.max_capacity(fpr)
        for d in (-1, 0, 1):
            v = bytearray(b"BLMF" + bytes([3, 2, 1, 0]) + bytes(56))
            v[24:32] = le(max(1, m + d))
            v[32:40] = struct.pack("<d", fpr)
            vals.append(bytes(v))
    return vals


def run(cur, n, seed):
    seeds = []
    for expr in SEEDS:
        cur.execute("SELECT (%s)::bytea" % expr)
        seeds.append(bytes(cur.fetchone()[0]))
    for v in list(seeds):
        if v[5] in (7, 8):                      # a light state with no hashes
            seeds.append(v[:56] + bytes(8))
        if v[5] == 2:                           # cuckoo_agg's version 3 lists
            for w in (bytearray(v), bytearray(v[:56] + bytes(8))):
                w[4] = 3
                w[24:32] = le(100)
                seeds.append(bytes(w))
    bad, accepted = compare(cur, seeds, "seed")
    print("seeds: %d, %d disagreements" % (len(seeds), bad))
    rnd = random.Random(seed)
    for _ in range(n // 500):
        vals = []
        for _ in range(500):
            v = rnd.choice(seeds)
            for _ in range(rnd.choice([1, 1, 1, 2, 3])):
                v = mutate(v, rnd)
            vals.append(v)
        b, a = compare(cur, vals, "fuzz")
        bad += b
        accepted += a
    print("fuzzed: %d values, %d accepted (value, type) pairs, %d disagreements"
          % (n // 500 * 500, accepted, bad))
    vals = capacity_edges(200, random.Random(seed))
    b, a = compare(cur, vals, "capacity", False)
    print("capacity edges: %d values, %d accepted, %d disagreements" % (len(vals), a, b))
    return bad + b


def admin(sql):
    c = psycopg2.connect(dbname=os.environ.get("PGDATABASE", "postgres"))
    c.autocommit = True
    try:
        c.cursor().execute(sql)
    finally:
        c.close()


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 5000
    seed = int(argv[2]) if len(argv) > 2 else 1
    admin("DROP DATABASE IF EXISTS %s" % DB)
    admin("CREATE DATABASE %s TEMPLATE template0 ENCODING 'UTF8'" % DB)
    try:
        conn = psycopg2.connect(dbname=DB)
        conn.autocommit = True
        try:
            cur = conn.cursor()
            cur.execute(SETUP)
            bad = run(cur, n, seed)
        finally:
            conn.close()
    finally:
        admin("DROP DATABASE IF EXISTS %s" % DB)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
