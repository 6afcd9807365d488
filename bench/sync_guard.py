"""One guard of bench/sync.sh: a copy of users_id_bloom kept in step by
catch-ups (bloom_index_filter_at, then bloom_index_changes on each
notification and every second), measuring how soon each new id is in it.

    python3 bench/sync_guard.py --from ID --secs S      (PG* env: the server)
    python3 bench/sync_guard.py --reload-only --reps R

The writers insert ids ID, ID + 1, ... (a sequence), one a transaction,
each row with the time of its insert (clock_timestamp(), in a transaction
that commits right after).  After each catch-up the guard asks its copy
for the ids from the lowest not yet found on (a window of the next ones):
the first catch-up after which the copy holds an id is when the guard
found it.  At the end (S seconds, then 1 s for the last commits) it reads
every id the writers inserted with its time and prints one JSON line:
staleness (found - inserted) p50/p99/max in ms, ids never found and ids
held only later than 100 ms (absent from the copy past the window), ids
held at the end that the window never asked (none, or the window is too
narrow for the rate: they count in no percentile), catch-ups,
reloads, payload bytes a new key (hashes and marks), and the process's
CPU (the catch-ups' share apart: the rest is the window checks of this
measurement).  --reload-only prints what a whole load costs (ms, bytes),
the median of R.
"""
import argparse
import json
import resource
import select
import statistics
import time

import psycopg2

import bloomtype

LOAD = "SELECT filter::bytea, mark FROM bloom_index_filter_at('users_id_bloom')"
CHANGES = "SELECT complete, reason, hashes, mark FROM bloom_index_changes('users_id_bloom', %s)"


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def load(cur):
    cur.execute(LOAD)
    data, mark = cur.fetchone()
    return bloomtype.IndexCopy(bytes(data), mark), len(data)


def reload_only(reps):
    conn = psycopg2.connect("")
    conn.autocommit = True
    times, size = [], 0
    with conn.cursor() as cur:
        for _ in range(reps):
            t0 = time.perf_counter()
            _, size = load(cur)
            times.append((time.perf_counter() - t0) * 1000)
    print(json.dumps({"reload_ms": round(statistics.median(times), 1), "bytes": size}))


def run(first, secs, window):
    listener = psycopg2.connect("")
    listener.autocommit = True
    listener.cursor().execute("LISTEN users_id_bloom")
    conn = psycopg2.connect("")
    conn.autocommit = True
    cur = conn.cursor()
    copy, _ = load(cur)
    print("ready", flush=True)
    found = {}
    lo = first
    catchups = reloads = 0
    payload = keys = 0
    busy = 0.0                 # CPU seconds in catch-ups (query and apply)
    cpu0, t_end = cpu(), time.time() + secs + 1.0
    last = 0.0
    while time.time() < t_end:
        woke = select.select([listener], [], [], 0.05)[0]
        if woke:
            listener.poll()
            listener.notifies.clear()
        elif time.time() - last < 1.0:
            continue
        c0 = cpu()
        cur.execute(CHANGES, (copy.mark,))
        complete, reason, hashes, mark = cur.fetchone()
        if complete:
            copy.add_hashes(bytes(hashes), mark)
            catchups += 1
            payload += len(hashes) + len(mark)
            keys += len(hashes) // 8
        else:
            copy, _ = load(cur)
            reloads += 1
        busy += cpu() - c0
        last = now = time.time()
        # the window: which of the next ids the copy holds now
        while lo in found:
            lo += 1
        for i in range(lo, lo + window):
            if i not in found and copy.contains(i):
                found[i] = now
    used = cpu() - cpu0
    cur.execute("SELECT id, extract(epoch FROM at) FROM users WHERE id >= %s", (first,))
    stale = []
    never = late = early = outside = 0
    for i, at in cur.fetchall():
        if i not in found:
            if copy.contains(i):
                outside += 1   # held, but never in the window when asked
            else:
                never += 1
            continue
        s = (found[i] - float(at)) * 1000
        if s < 0:
            early += 1         # a false positive of the copy before the insert
            continue
        stale.append(s)
        late += s > 100
    stale.sort()
    q = (lambda p: round(stale[min(len(stale) - 1, int(p * len(stale)))], 1)) if stale else (lambda p: None)
    print(json.dumps({
        "ids": len(stale) + early + never + outside, "p50_ms": q(0.5), "p99_ms": q(0.99),
        "max_ms": round(stale[-1], 1) if stale else None, "never_found": never,
        "held_after_100ms": late, "found_early_fp": early, "outside_window": outside,
        "catchups": catchups,
        "reloads": reloads, "bytes_per_key": round(payload / keys, 1) if keys else None,
        "cpu_pct": round(100 * used / (secs + 1.0), 1),
        "catchup_cpu_pct": round(100 * busy / (secs + 1.0), 1)}), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--from", dest="first", type=int)
    ap.add_argument("--secs", type=float, default=20)
    ap.add_argument("--window", type=int, default=400)
    ap.add_argument("--reload-only", action="store_true")
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    if a.reload_only:
        reload_only(a.reps)
    else:
        run(a.first, a.secs, a.window)


if __name__ == "__main__":
    main()
