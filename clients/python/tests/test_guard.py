"""The guard example (examples/guard.py) against a server: run only with
BLOOMTYPE_GUARD_TEST=1 and the PG* environment pointing at a server with
bloomtype 1.8.  Makes and drops the database py_guard, set up by
clients/guard_setup.sql."""
import os
import random
import sys
import time

import pytest

if os.environ.get("BLOOMTYPE_GUARD_TEST") != "1":
    pytest.skip("set BLOOMTYPE_GUARD_TEST=1 (and PG*) to run the guard test",
                allow_module_level=True)

import psycopg2  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "examples"))
from guard import UserGuard  # noqa: E402

DB = "py_guard"
SETUP = os.path.join(HERE, "..", "..", "guard_setup.sql")
USERS = 10000
WAIT = 2.0      # seconds a committed key may take to reach the copy


def admin(sql, dbname=None):
    conn = psycopg2.connect(dbname=dbname or os.environ.get("PGDATABASE", "postgres"))
    conn.autocommit = True
    try:
        conn.cursor().execute(sql)
    finally:
        conn.close()


@pytest.fixture(scope="module")
def dsn():
    admin("DROP DATABASE IF EXISTS %s" % DB)
    admin("CREATE DATABASE %s" % DB)
    try:
        with open(SETUP, encoding="utf-8") as fh:
            admin(fh.read(), DB)
        admin("INSERT INTO users SELECT g FROM generate_series(1, %d) g" % USERS, DB)
        yield "dbname=%s" % DB
    finally:
        admin("DROP DATABASE IF EXISTS %s" % DB)


@pytest.fixture
def guard(dsn):
    g = UserGuard(dsn)
    yield g
    g.close()


def insert(dsn, *ids, replica=False):
    """Commits the ids in one statement; returns time.monotonic() just
    before the COMMIT.  replica: with the triggers off (no log, no NOTIFY)."""
    conn = psycopg2.connect(dsn)
    try:
        with conn.cursor() as cur:
            if replica:
                cur.execute("SET session_replication_role = replica")
            cur.execute("INSERT INTO users SELECT unnest(%s::bigint[])", (list(ids),))
            t0 = time.monotonic()
            conn.commit()
        return t0
    finally:
        conn.close()


def absent_id(guard, rng=random.Random(7)):
    """An id that is not a user and that the copy says is absent"""
    while True:
        i = rng.randrange(10 ** 12, 2 * 10 ** 12)
        if not guard.copy.contains(i):
            return i


def wait_until(what, seconds):
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, "not within %.1f s" % seconds
        time.sleep(0.0005)
    return time.monotonic()


def committed_ids(dsn):
    conn = psycopg2.connect(dsn)
    try:
        with conn.cursor() as cur:
            cur.execute("SELECT id FROM users")
            return [r[0] for r in cur.fetchall()]
    finally:
        conn.close()


def found(guard, user_id):
    """The guard knows the user: its copy holds the id, so exists() asks the
    database (one query, which answers True) instead of answering False"""
    before = guard.lookups
    return guard.copy.contains(user_id) and guard.exists(user_id) and \
        guard.lookups == before + 1


def test_committed_keys_are_found_promptly(dsn, guard, capsys):
    assert all(guard.copy.contains(i) for i in range(1, USERS + 1))
    latencies = []
    for _ in range(5):
        new = absent_id(guard)
        t0 = insert(dsn, new)
        # polls the copy: from COMMIT until exists() stops answering False
        # without a query
        at = wait_until(lambda: guard.copy.contains(new), WAIT)
        latencies.append((at - t0) * 1e3)
        assert found(guard, new)
    assert guard.catchups >= 1 and guard.caught_up_at is not None
    with capsys.disabled():
        print("\n  python guard: COMMIT to the key in the copy: %s ms"
              % ", ".join("%.1f" % ms for ms in latencies))


def test_absent_keys_cost_no_query(guard):
    absent = random.Random(1).sample(range(2 * 10 ** 12, 3 * 10 ** 12), 1000)
    before = guard.lookups
    assert not any(guard.exists(i) for i in absent)
    assert guard.lookups - before <= 50, "false positives at 1%: about 10 of 1,000"


def test_added_is_answered_at_once(dsn, guard):
    # committed with the triggers off: no notification, no log; only
    # added() can tell the guard
    new = absent_id(guard)
    insert(dsn, new, replica=True)
    before = guard.lookups
    guard.added(new)
    assert guard.copy.contains(new) and guard.lookups == before
    assert found(guard, new)


@pytest.mark.parametrize("gap", ["REINDEX INDEX users_id_bloom", "TRUNCATE users"])
def test_a_gap_reloads(dsn, guard, gap):
    reloads = guard.reloads
    admin(gap, DB)
    new = absent_id(guard)
    if gap.startswith("TRUNCATE"):
        admin("INSERT INTO users SELECT g FROM generate_series(1, %d) g" % USERS, DB)
    insert(dsn, new)
    wait_until(lambda: guard.reloads > reloads, WAIT + guard.refresh)
    wait_until(lambda: guard.copy.contains(new), WAIT)
    ids = committed_ids(dsn)
    assert len(ids) > USERS and all(guard.copy.contains(i) for i in ids)
    assert found(guard, new)


def test_a_guard_outlives_its_connections(dsn, guard):
    """The server ends every connection: the guard keeps its copy, its next
    query connects again, and it listens and catches up again."""
    admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
          "WHERE datname = '%s' AND pid <> pg_backend_pid()" % DB)
    time.sleep(0.2)
    assert guard.exists(7) and guard.exists(8)
    assert not guard.exists(absent_id(guard))
    new = absent_id(guard)
    insert(dsn, new)
    wait_until(lambda: guard.copy.contains(new), WAIT + guard.refresh)
    assert found(guard, new)


def test_a_stale_copy_asks_the_database(dsn):
    guard = UserGuard(dsn, refresh=2.0, max_age=0.3)
    try:
        absent = absent_id(guard)
        assert not guard.exists(absent) and guard.lookups == 0
        time.sleep(0.5)      # no notification, no timed catch-up yet
        assert not guard.exists(absent) and guard.lookups == 1
        assert guard.exists(5) and guard.lookups == 2
    finally:
        guard.close()


def test_a_failed_first_load_raises():
    with pytest.raises(psycopg2.Error):
        UserGuard("dbname=py_guard_does_not_exist")
