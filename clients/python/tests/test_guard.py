"""The guard example (examples/guard.py) against a server: run only with
BLOOMTYPE_GUARD_TEST=1 and the PG* environment pointing at a server with
bloomtype.  Makes and drops the database py_guard."""
import os
import random
import sys
import time

import pytest

if os.environ.get("BLOOMTYPE_GUARD_TEST") != "1":
    pytest.skip("set BLOOMTYPE_GUARD_TEST=1 (and PG*) to run the guard test",
                allow_module_level=True)

import psycopg2  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "examples"))
from guard import UserGuard  # noqa: E402

DB = "py_guard"
SCHEMA = """
CREATE EXTENSION bloomtype;
CREATE TABLE users (id bigint PRIMARY KEY);
INSERT INTO users SELECT g FROM generate_series(1, 10000) g;
CREATE INDEX users_id_bloom ON users USING bloomfilter (id);
CREATE FUNCTION users_notify() RETURNS trigger LANGUAGE plpgsql AS
  $$ BEGIN PERFORM pg_notify('bloomtype_users', ''); RETURN NULL; END $$;
CREATE TRIGGER users_notify AFTER INSERT ON users
  FOR EACH STATEMENT EXECUTE FUNCTION users_notify();
"""


def admin(sql):
    conn = psycopg2.connect(dbname=os.environ.get("PGDATABASE", "postgres"))
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
        conn = psycopg2.connect(dbname=DB)
        with conn, conn.cursor() as cur:
            cur.execute(SCHEMA)
        conn.close()
        yield "dbname=%s" % DB
    finally:
        admin("DROP DATABASE IF EXISTS %s" % DB)


def test_guard(dsn):
    guard = UserGuard(dsn, refresh=30, max_age=60)
    try:
        assert guard.filter is not None and guard.loaded_at is not None
        absent = random.Random(1).sample(range(10001, 10 ** 9), 2000)
        assert not any(guard.exists(i) for i in absent)
        assert guard.lookups <= 200, "false positives at 1%: about 20 of 2,000"
        assert all(guard.exists(i) for i in range(1, 10001))

        # a new user: the trigger notifies, the guard reloads
        new, loaded = 10 ** 12 + 7, guard.loaded_at
        assert not guard.filter.contains(new)
        conn = psycopg2.connect(dsn)
        with conn, conn.cursor() as cur:
            cur.execute("INSERT INTO users VALUES (%s)", (new,))
        conn.close()
        deadline = time.monotonic() + 10
        while not guard.exists(new):
            assert time.monotonic() < deadline, "no reload within 10 s of the insert"
            time.sleep(0.05)
        assert guard.loaded_at > loaded and guard.filter.contains(new)
    finally:
        guard.close()


def test_a_stale_guard_asks_the_database(dsn):
    guard = UserGuard(dsn, refresh=0, max_age=0.5, listen=False)
    try:
        assert not guard.exists(10 ** 9 + 1) and guard.lookups == 0
        time.sleep(0.6)
        before = guard.lookups
        assert not guard.exists(10 ** 9 + 1)
        assert not guard.exists(10 ** 9 + 2)
        assert guard.lookups == before + 2
        assert guard.exists(5) and guard.lookups == before + 3
    finally:
        guard.close()


def test_a_failed_reload_keeps_the_filter(dsn):
    guard = UserGuard(dsn, refresh=0, listen=False)
    try:
        f, at = guard.filter, guard.loaded_at
        guard.dsn = "dbname=py_guard_does_not_exist"
        assert guard.reload() is False
        assert guard.filter is f and guard.loaded_at == at
        assert not guard.exists(10 ** 9 + 3) and guard.exists(7)
    finally:
        guard.close()


def test_a_guard_outlives_its_connections(dsn):
    """The server ends every connection: the next lookup connects again."""
    guard = UserGuard(dsn, refresh=0, listen=True)
    try:
        assert guard.exists(7)
        admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
              "WHERE datname = '%s' AND pid <> pg_backend_pid()" % DB)
        time.sleep(0.2)
        assert guard.exists(7) and guard.exists(8)
        assert not guard.exists(10 ** 9 + 5)
    finally:
        guard.close()
