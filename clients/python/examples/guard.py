"""A guard against cache penetration: answer "no such user" without a query.

Lookups of ids that do not exist (a scraper, a bug, an attack) miss every
cache and all reach the database.  The index users_id_bloom (USING
bloomfilter) keeps a filter of the ids in step with the table; the guard
holds a copy of it and asks the database only about ids the filter says may
exist.  A trigger notifies 'bloomtype_users' after each INSERT statement,
so the guard reloads within moments; a timer reloads too, and a guard whose filter
is older than max_age asks the database every time rather than trust it.
"""
import select
import threading
import time
from contextlib import closing

import psycopg2

import bloomtype

LOAD = "SELECT bloom_index_filter('users_id_bloom')::bytea"
EXISTS = "SELECT EXISTS (SELECT 1 FROM users WHERE id = %s)"


class UserGuard:
    """exists(id) for the users table.  dsn: libpq's connection string
    ("" takes the PG* environment); refresh: seconds between timed reloads
    (0: none); max_age: seconds a filter is trusted after its load; listen:
    reload on the trigger's notifications (on a connection of its own)."""

    def __init__(self, dsn, refresh=60.0, max_age=300.0, listen=True):
        self.dsn, self.refresh, self.max_age = dsn, refresh, max_age
        self.lookups = 0         # queries exists() sent to the database
        self.loaded_at = None    # time.monotonic() of the last good load
        self.filter = None
        self._db = psycopg2.connect(dsn)
        self._db.autocommit = True
        self._db_lock = threading.Lock()   # exists() may run in many threads
        self._stop = threading.Event()
        self._threads = []
        listener = None
        if listen:
            # LISTEN before the first load: no insert falls between the two
            listener = psycopg2.connect(dsn)
            listener.autocommit = True
            listener.cursor().execute("LISTEN bloomtype_users")
        if not self.reload():
            for conn in (listener, self._db):
                if conn is not None:
                    conn.close()
            raise RuntimeError("the first load of the filter failed")
        if listener is not None:
            self._start(self._listen, listener)
        if refresh:
            self._start(self._tick)

    def reload(self):
        """Loads the index's filter; on failure the old one stays."""
        try:
            with closing(psycopg2.connect(self.dsn)) as conn, conn.cursor() as cur:
                cur.execute(LOAD)
                f = bloomtype.BloomFilter.from_bytes(cur.fetchone()[0])
        except (psycopg2.Error, bloomtype.FormatError):
            return False         # keep the filter we have; max_age bounds it
        self.filter, self.loaded_at = f, time.monotonic()
        return True

    def exists(self, user_id):
        """Is there a user with this id?  False without a query when the
        filter, loaded less than max_age seconds ago, says certainly absent."""
        f, at = self.filter, self.loaded_at
        fresh = at is not None and time.monotonic() - at < self.max_age
        if fresh and not f.contains(user_id):
            return False
        with self._db_lock:
            self.lookups += 1
            try:
                return self._ask(user_id)
            except (psycopg2.OperationalError, psycopg2.InterfaceError):
                self._db.close()             # the connection is gone: once more
                self._db = psycopg2.connect(self.dsn)
                self._db.autocommit = True
                return self._ask(user_id)

    def _ask(self, user_id):
        with self._db.cursor() as cur:
            cur.execute(EXISTS, (user_id,))
            return cur.fetchone()[0]

    def close(self):
        self._stop.set()
        for t in self._threads:
            t.join()
        self._db.close()

    def _start(self, target, *args):
        t = threading.Thread(target=target, args=args, daemon=True)
        t.start()
        self._threads.append(t)

    def _tick(self):
        while not self._stop.wait(self.refresh):
            self.reload()

    def _listen(self, conn):
        # a notification means "reload"; several at once need one reload
        try:
            while not self._stop.is_set():
                if select.select([conn], [], [], 0.5)[0]:
                    conn.poll()
                    if conn.notifies:
                        conn.notifies.clear()
                        self.reload()
        except psycopg2.Error:
            pass                 # the timer (and max_age) carry on without us
        finally:
            conn.close()


if __name__ == "__main__":
    import sys
    guard = UserGuard(sys.argv[1] if len(sys.argv) > 1 else "")
    for arg in sys.argv[2:]:
        print(arg, guard.exists(int(arg)))
    print("database lookups:", guard.lookups)
    guard.close()
