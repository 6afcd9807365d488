"""The Python guard (clients/python/examples/guard.py) for t/012_sync.pl:
started with a connection string, it answers commands on stdin, one a line:

    check    reads every id in users (on a connection of its own), waits
             until the guard has begun and ended a catch-up since (two
             more: the first may have begun before the read), then counts
             the ids its copy lacks, once: "missing=N catchups=C
             reloads=R ids=I" (missing=-1: no catch-up within 20 s)
    quit

Prints "ready" once the guard has loaded its copy.
"""
import os
import sys
import time

import psycopg2

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "clients", "python"))
sys.path.insert(0, os.path.join(here, "..", "clients", "python", "examples"))

from guard import UserGuard  # noqa: E402


def main():
    dsn = sys.argv[1]
    guard = UserGuard(dsn, refresh=0.2, max_age=30.0)
    # the test ends the guard's connections (application_name guard), not this one
    db = psycopg2.connect(dsn + " application_name=guard_check")
    db.autocommit = True
    print("ready", flush=True)
    for line in sys.stdin:
        cmd = line.strip()
        if cmd == "quit":
            break
        if cmd == "check":
            with db.cursor() as cur:
                cur.execute("SELECT id FROM users")
                ids = [r[0] for r in cur.fetchall()]
            want = guard.catchups + 2
            deadline = time.monotonic() + 20
            while guard.catchups < want and time.monotonic() < deadline:
                time.sleep(0.01)
            copy = guard.copy
            missing = (sum(1 for i in ids if not copy.contains(i))
                       if guard.catchups >= want else -1)
            print("missing=%d catchups=%d reloads=%d ids=%d"
                  % (missing, guard.catchups, guard.reloads, len(ids)), flush=True)
    guard.close()
    db.close()


if __name__ == "__main__":
    main()
