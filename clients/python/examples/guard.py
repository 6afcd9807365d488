"""A guard against cache penetration: answer "no such user" without a query.

Lookups of ids that do not exist (a scraper, a bug, an attack) miss every
cache and all reach the database.  The index users_id_bloom (USING
bloomfilter; clients/guard_setup.sql) keeps a filter of the ids in step with
the table; the guard holds a copy of it (bloomtype.IndexCopy) and asks the
database only about ids the copy says may exist.

The copy is loaded once and then caught up: a trigger logs the hashes of
each INSERT or UPDATE statement's new ids in the inserting transaction, and
bloom_index_changes(mark) returns those committed since the copy's mark, 8
bytes an id.  At commit the trigger sends NOTIFY users_id_bloom with an
empty payload, a wake-up only (any role can read what NOTIFY carries, so
the ids go through the log, readable only with SELECT on users).  The guard
catches up on each wake-up and after refresh seconds without one, which
bounds how long a lost notification matters.  When the log cannot bridge
the gap (REINDEX, TRUNCATE, a layer added, the log pruned past the mark),
the answer says so and the guard loads the whole filter again.  A copy not
caught up for max_age seconds (the database gone) is not trusted: exists()
then asks the database every time.
"""
import select
import threading
import time

import psycopg2

import bloomtype

LOAD = "SELECT filter::bytea, mark FROM bloom_index_filter_at('users_id_bloom')"
CHANGES = "SELECT complete, hashes, mark FROM bloom_index_changes('users_id_bloom', %s)"
EXISTS = "SELECT EXISTS (SELECT 1 FROM users WHERE id = %s)"


def connect(dsn):
    conn = psycopg2.connect(dsn)
    conn.autocommit = True
    return conn


class UserGuard:
    """exists(id) for the users table.  dsn: libpq's connection string
    ("" takes the PG* environment); refresh: seconds without a notification
    after which the guard catches up anyway; max_age: seconds the copy is
    trusted after its last load or catch-up.  A first load that fails
    raises (psycopg2.Error)."""

    def __init__(self, dsn, refresh=1.0, max_age=30.0):
        if refresh <= 0:
            raise ValueError("refresh is a number of seconds, more than 0")
        self.dsn, self.refresh, self.max_age = dsn, refresh, max_age
        self.lookups = 0         # queries exists() sent to the database
        self.catchups = 0        # bloom_index_changes answered
        self.reloads = 0         # ... with a gap: the filter loaded again
        self.caught_up_at = None  # time.monotonic() of the last good load or catch-up
        self.copy = None
        # the copy's writes, and a load's query (so that an id added() while
        # the filter is read lands in the new copy, not the old one)
        self._write = threading.Lock()
        self._db_lock = threading.Lock()   # exists() may run in many threads
        self._stop = threading.Event()
        # LISTEN before the first load: a commit after it wakes the guard
        listener = self._listen()
        try:
            self._load(listener)
            self._db = connect(dsn)
        except BaseException:
            listener.close()
            raise
        self._thread = threading.Thread(target=self._follow, args=(listener,), daemon=True)
        self._thread.start()

    def exists(self, user_id):
        """Is there a user with this id?  False without a query when the
        copy, caught up less than max_age seconds ago, says certainly absent."""
        # the time first: a load sets the copy, then the time, so a copy read
        # after a time is at least that new
        at = self.caught_up_at
        copy = self.copy
        if time.monotonic() - at < self.max_age and not copy.contains(user_id):
            return False
        with self._db_lock:
            self.lookups += 1
            try:
                return self._ask(user_id)
            except (psycopg2.OperationalError, psycopg2.InterfaceError):
                self._db.close()             # the connection is gone: once more
                self._db = connect(self.dsn)
                return self._ask(user_id)

    def added(self, user_id):
        """The application has committed this user itself: the copy holds it
        at once, without waiting for the notification."""
        with self._write:
            self.copy.add(user_id)

    def close(self):
        self._stop.set()
        self._thread.join()
        self._db.close()

    def _ask(self, user_id):
        with self._db.cursor() as cur:
            cur.execute(EXISTS, (user_id,))
            return cur.fetchone()[0]

    def _listen(self):
        conn = connect(self.dsn)
        conn.cursor().execute("LISTEN users_id_bloom")
        return conn

    def _load(self, conn):
        asked = time.monotonic()     # the copy is complete as of the query
        with self._write, conn.cursor() as cur:
            cur.execute(LOAD)
            self.copy = bloomtype.IndexCopy(*cur.fetchone())
        self.caught_up_at = asked

    def _catch_up(self, conn):
        asked = time.monotonic()
        with conn.cursor() as cur:
            cur.execute(CHANGES, (self.copy.mark,))
            complete, hashes, mark = cur.fetchone()
        if complete:
            with self._write:
                self.copy.add_hashes(hashes, mark)
            self.caught_up_at = asked
        else:
            # a gap: the copy is not trusted (the database answers) until
            # a load succeeds
            self.caught_up_at = float("-inf")
            self._load(conn)
            self.reloads += 1
        self.catchups += 1

    def _follow(self, conn):
        # the guard's thread: waits for notifications (drains them all: one
        # catch-up for the lot) or refresh seconds, then catches up.  A
        # failure keeps the copy; refresh seconds later the guard listens
        # again and catches up at once: the mark brings what it missed.
        while not self._stop.is_set():
            try:
                if conn is None:
                    conn = self._listen()
                elif select.select([conn], [], [], self.refresh)[0]:
                    conn.poll()
                self._catch_up(conn)
                conn.notifies.clear()    # what came meanwhile: this catch-up saw it
            except (psycopg2.Error, bloomtype.FormatError):
                if conn is not None:
                    conn.close()
                conn = None
                self._stop.wait(self.refresh)
        if conn is not None:
            conn.close()


if __name__ == "__main__":
    import sys
    guard = UserGuard(sys.argv[1] if len(sys.argv) > 1 else "")
    for arg in sys.argv[2:]:
        print(arg, guard.exists(int(arg)))
    print("database lookups:", guard.lookups)
    guard.close()
