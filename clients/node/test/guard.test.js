'use strict';
/*
 * The guard of examples/guard.js against a live server: run only when
 * asked (BLOOMTYPE_GUARD_TEST=1, PG* pointing at a server with bloomtype
 * 1.8; it creates and drops the database node_guard and runs
 * clients/guard_setup.sql in it).
 */

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');

const enabled = process.env.BLOOMTYPE_GUARD_TEST === '1';
const DB = 'node_guard';
const SETUP = path.resolve(__dirname, '..', '..', 'guard_setup.sql');
const USERS = 10000;
const REFRESH = 1; // the guard's refresh, seconds
const id = (i) => i * 7 + 1000; // present: i = 1 .. USERS
const absent = (i) => i * 7 + 1003; // never present
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/* Waits (polling every millisecond) until cond() holds or ms pass; the time taken */
async function until(cond, ms) {
  const t0 = performance.now();
  while (!cond() && performance.now() - t0 < ms) await sleep(1);
  return performance.now() - t0;
}

/* console.error silenced while fn runs (the guard reports its lost connections there) */
async function quietly(fn) {
  const error = console.error;
  console.error = () => {};
  try {
    return await fn();
  } finally {
    console.error = error;
  }
}

test('guard', { skip: !enabled && 'set BLOOMTYPE_GUARD_TEST=1 (and PG*) to run' }, async (t) => {
  const { Client } = require('pg');
  const { Guard } = require('../examples/guard');
  const admin = new Client({ database: 'postgres' });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB}`);
  const db = new Client({ database: DB });
  const guards = [];
  let next = 9007199254740000; // new users: next++ (not in the copy, see fresh())
  try {
    await db.connect();
    await db.query(fs.readFileSync(SETUP, 'utf8'));
    await db.query('INSERT INTO users SELECT i * 7 + 1000 FROM generate_series(1, $1::int) i', [USERS]);

    const guard = await new Guard({ database: DB }, { refresh: REFRESH }).start();
    guards.push(guard);
    // a new id the copy does not hold yet (not a false positive of it)
    const fresh = () => {
      while (guard.copy.contains(next)) next++;
      return next++;
    };
    // every id committed in users is in the copy
    const holdsAll = async () => {
      const { rows } = await db.query('SELECT id FROM users');
      for (const r of rows) assert.equal(guard.copy.contains(BigInt(r.id)), true, r.id);
      return rows.length;
    };

    await t.test('absent ids cost no query: at most 50 lookups for 1,000', async (s) => {
      const before = guard.lookups;
      for (let i = 1; i <= 1000; i++) assert.equal(await guard.exists(absent(i)), false);
      s.diagnostic(`${guard.lookups - before} database lookups for 1000 absent ids`);
      assert.ok(guard.lookups - before <= 50, `${guard.lookups - before} lookups`);
    });

    await t.test('every present id is true', async () => {
      assert.equal(await holdsAll(), USERS);
      for (let i = 1; i <= USERS; i += 97) assert.equal(await guard.exists(id(i)), true);
    });

    await t.test('a key committed by another connection is in the copy within 2 s', async (s) => {
      const took = [];
      for (let round = 0; round < 5; round++) {
        const newId = fresh();
        const lookups = guard.lookups;
        const catchups = guard.catchups;
        await db.query('INSERT INTO users VALUES ($1)', [String(newId)]); // COMMIT
        took.push(await until(() => guard.copy.contains(newId), 2000));
        assert.equal(guard.copy.contains(newId), true, `${newId} after ${took[round]} ms`);
        assert.equal(guard.lookups, lookups, 'no query');
        assert.ok(guard.catchups > catchups);
        assert.ok(guard.caughtUpAt > 0);
        assert.equal(await guard.exists(newId), true);
      }
      s.diagnostic(`commit to found in the copy: ${took.map((ms) => ms.toFixed(1)).join(', ')} ms`);
    });

    await t.test('added(id): in the copy at once, before any notification', async () => {
      const newId = fresh();
      await db.query('BEGIN');
      try {
        await db.query('INSERT INTO users VALUES ($1)', [String(newId)]);
        // before the COMMIT no notification or catch-up can bring it: only added() can
        const lookups = guard.lookups;
        guard.added(newId);
        assert.equal(guard.copy.contains(newId), true);
        assert.equal(guard.lookups, lookups, 'no query');
      } finally {
        await db.query('COMMIT');
      }
      assert.equal(await guard.exists(newId), true);
    });

    await t.test('REINDEX, then an INSERT: the guard loads the filter again', async () => {
      const reloads = guard.reloads;
      await db.query('REINDEX INDEX users_id_bloom');
      const newId = fresh();
      await db.query('INSERT INTO users VALUES ($1)', [String(newId)]);
      await until(() => guard.reloads > reloads && guard.copy.contains(newId), 2000 + 1000 * REFRESH);
      assert.ok(guard.reloads > reloads, 'reloaded');
      await holdsAll();
    });

    await t.test('the guard\'s connections terminated: it keeps answering, and catches up', async () => {
      await quietly(async () => {
        await db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                         WHERE datname = current_database() AND pid <> pg_backend_pid()`);
        await sleep(200);
        assert.equal(await guard.exists(id(1)), true);
        assert.equal(await guard.exists(absent(1)), false);
        await holdsAll();
        const newId = fresh();
        await db.query('INSERT INTO users VALUES ($1)', [String(newId)]);
        await until(() => guard.copy.contains(newId), 2000 + 1000 * REFRESH);
        assert.equal(guard.copy.contains(newId), true);
        assert.equal(await guard.exists(newId), true);
        assert.notEqual(guard.listener, null, 'listening again');
      });
    });

    await t.test('a failed catch-up keeps the copy', async () => {
      const { copy, syncedAt, mark } = { copy: guard.copy, syncedAt: guard.syncedAt, mark: guard.copy.mark };
      await db.query('ALTER INDEX users_id_bloom RENAME TO users_id_bloom_away');
      try {
        await quietly(() => guard.catchUp());
      } finally {
        await db.query('ALTER INDEX users_id_bloom_away RENAME TO users_id_bloom');
      }
      assert.equal(guard.copy, copy);
      assert.equal(guard.copy.mark, mark);
      assert.equal(guard.syncedAt, syncedAt);
    });

    await t.test('a copy past maxAge is not trusted: exists() asks the database', async () => {
      const old = await new Guard({ database: DB }, { refresh: 60, maxAge: 0.2 }).start();
      guards.push(old);
      assert.equal(await old.exists(absent(1)), false);
      const lookups = old.lookups;
      await sleep(400);
      assert.equal(old.fresh(), false);
      for (let i = 1; i <= 50; i++) assert.equal(await old.exists(absent(i)), false);
      assert.equal(old.lookups, lookups + 50);
      assert.equal(await old.exists(id(1)), true);
    });

    await t.test('TRUNCATE, then an INSERT: the guard loads the filter again', async () => {
      const reloads = guard.reloads;
      await db.query('TRUNCATE users');
      const newId = fresh();
      await db.query('INSERT INTO users VALUES ($1), ($2)', [String(newId), String(id(1))]);
      await until(() => guard.reloads > reloads && guard.copy.contains(newId), 2000 + 1000 * REFRESH);
      assert.ok(guard.reloads > reloads, 'reloaded');
      assert.equal(await holdsAll(), 2);
      assert.equal(await guard.exists(id(2)), false);
    });

    await t.test('the first load failing raises', async () => {
      await assert.rejects(new Guard({ database: `${DB}_none` }).start());
      // a database without the index: listening works, the load does not
      await assert.rejects(new Guard({ database: 'postgres' }).start(), /users_id_bloom|bloom_index_filter_at/);
    });
  } finally {
    for (const g of guards) await g.stop();
    await db.end();
    await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await admin.end();
  }
});
