"""Part 9 of the demo (scripts/demo.sh): the index's filter checked in the
application, with the Python reader (clients/python), against the server's
answers for the same 200,000 requests.  Runs on Debian's Python with
python3-xxhash and python3-psycopg2; PG* point at the demo's cluster."""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "python"))
import psycopg2  # noqa: E402

import bloomtype  # noqa: E402

print("== 9. in the application: load the index's filter once, answer each request locally")
with psycopg2.connect("") as db, db.cursor() as cur:
    t0 = time.perf_counter()
    cur.execute("SELECT bloom_index_filter('users_filter')::bytea")
    users = bloomtype.BloomFilter.from_bytes(cur.fetchone()[0])
    load_ms = (time.perf_counter() - t0) * 1000
    cur.execute("SELECT user_id, bloom_index_contains('users_filter', user_id) FROM requests ORDER BY user_id")
    requests = cur.fetchall()

t0 = time.perf_counter()
local = [users.contains(uid) for uid, _ in requests]
per_key_ns = (time.perf_counter() - t0) * 1e9 / len(requests)
differ = sum(1 for a, (_, b) in zip(local, requests) if a != b)
info = users.info()
print("  filter: %s, %d layer(s), %.1f MB, loaded and checked in %.0f ms"
      % (info["kind_name"], len(info.get("layers", [])) or 1, info["bytes"] / 1e6, load_ms))
print("  %d requests: %d passed on to the database, %d turned away locally, %.2f us a request"
      % (len(requests), sum(local), len(local) - sum(local), per_key_ns / 1000))
print("  answers that differ from bloom_index_contains: %d" % differ)
sys.exit(1 if differ else 0)
