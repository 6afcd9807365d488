"""What a lookup costs: the filter in the process against the same question
asked of the server.  With the PG* environment pointing at a database that
holds users(id bigint primary key) with ids 1 to 1,000,000, the index
users_id_bloom ON users USING bloomfilter (id), and filters(name, f) with
the row ('users', bloom_agg(id, 1000000, 0.01)):

    /usr/bin/python3 bench/bench.py [N_LOCAL [N_QUERIES]]   (200,000 and 20,000)

Keys are half present (ids 1 to 1e6), half absent (past 1e6), asked one at a
time, on one connection, with prepared statements:

    local            BloomFilter.contains on the filter loaded once
    bloom_contains   SELECT bloom_contains(f, $1) FROM filters WHERE name = 'users'
    bloom_index_contains SELECT bloom_index_contains('users_id_bloom', $1::bigint)
    primary_key      SELECT EXISTS (SELECT 1 FROM users WHERE id = $1)

Prints "python <measure> <ns per key> <ratio to primary_key>" a line, and
exits 1 when the local answers differ from bloom_contains's.
"""
import os
import random
import sys
import time

import psycopg2

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import bloomtype  # noqa: E402

QUERIES = {
    "bloom_contains": "SELECT bloom_contains(f, $1) FROM filters WHERE name = 'users'",
    "bloom_index_contains": "SELECT bloom_index_contains('users_id_bloom', $1::bigint)",
    "primary_key": "SELECT EXISTS (SELECT 1 FROM users WHERE id = $1)",
}


def keys(n, seed=1):
    rnd = random.Random(seed)
    return [rnd.randint(1, 1000000) if i % 2 == 0 else rnd.randint(1000001, 2000000)
            for i in range(n)]


def per_key(run, ks):
    t0 = time.perf_counter_ns()
    answers = run(ks)
    return (time.perf_counter_ns() - t0) / len(ks), answers


def main(argv):
    n_local = int(argv[1]) if len(argv) > 1 else 200000
    n_query = int(argv[2]) if len(argv) > 2 else min(20000, n_local)
    conn = psycopg2.connect("")
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute("SELECT f::bytea FROM filters WHERE name = 'users'")
    f = bloomtype.BloomFilter.from_bytes(cur.fetchone()[0])
    for name, sql in QUERIES.items():
        cur.execute("PREPARE %s(bigint) AS %s" % (name, sql))

    def local(ks):
        contains = f.contains
        return [contains(k) for k in ks]

    def query(name):
        def run(ks):
            out = []
            for k in ks:
                cur.execute("EXECUTE %s(%%s)" % name, (k,))
                out.append(cur.fetchone()[0])
            return out
        return run

    ks = keys(max(n_local, n_query))
    local(ks[:1000])                          # warm up
    results = {"local": per_key(local, ks[:n_local])}
    for name in QUERIES:
        query(name)(ks[:100])                 # warm up: plans, caches
        results[name] = per_key(query(name), ks[:n_query])
    base = results["primary_key"][0]
    for name, (ns, _) in results.items():
        print("python %s %.0f %.4f" % (name, ns, ns / base))
    both = min(n_local, n_query)
    if results["local"][1][:both] != results["bloom_contains"][1][:both]:
        bad = sum(a != b for a, b in zip(results["local"][1], results["bloom_contains"][1]))
        print("python: %d of %d local answers differ from bloom_contains" % (bad, both),
              file=sys.stderr)
        return 1
    # every present key is maybe present
    if not all(a for k, a in zip(ks, results["local"][1]) if k <= 1000000):
        print("python: a present key answered absent", file=sys.stderr)
        return 1
    conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
