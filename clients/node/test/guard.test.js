'use strict';
/*
 * The guard of examples/guard.js against a live server: run only when
 * asked (BLOOMTYPE_GUARD_TEST=1, PG* pointing at a server with bloomtype;
 * it creates and drops the database node_guard).
 */

const test = require('node:test');
const assert = require('node:assert/strict');

const enabled = process.env.BLOOMTYPE_GUARD_TEST === '1';
const DB = 'node_guard';
const USERS = 10000;
const id = (i) => i * 7 + 1000; // present: i = 1 .. USERS
const absent = (i) => i * 7 + 1003; // never present
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('guard', { skip: !enabled && 'set BLOOMTYPE_GUARD_TEST=1 (and PG*) to run' }, async (t) => {
  const { Client } = require('pg');
  const { Guard } = require('../examples/guard');
  const admin = new Client({ database: 'postgres' });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB}`);
  await admin.query(`CREATE DATABASE ${DB}`);
  const db = new Client({ database: DB });
  const guards = [];
  try {
    await db.connect();
    await db.query('CREATE EXTENSION bloomtype');
    await db.query('CREATE TABLE users (id bigint PRIMARY KEY)');
    await db.query('INSERT INTO users SELECT i * 7 + 1000 FROM generate_series(1, $1::int) i', [USERS]);
    await db.query('CREATE INDEX users_id_bloom ON users USING bloomfilter (id)');
    await db.query(`CREATE FUNCTION users_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_notify('bloomtype_users', ''); RETURN NULL; END $$`);
    await db.query(`CREATE TRIGGER users_notify AFTER INSERT ON users
      FOR EACH STATEMENT EXECUTE FUNCTION users_notify()`);

    const guard = await new Guard({ database: DB }, { refresh: 30, maxAge: 60 }).start();
    guards.push(guard);

    await t.test('absent ids: answered false, at most 200 lookups for 2000', async (s) => {
      for (let i = 1; i <= 2000; i++) assert.equal(await guard.exists(absent(i)), false);
      s.diagnostic(`${guard.lookups} database lookups for 2000 absent ids`);
      assert.ok(guard.lookups <= 200, `${guard.lookups} lookups`);
    });

    await t.test('every present id is true', async () => {
      for (let i = 1; i <= USERS; i++) assert.equal(await guard.exists(BigInt(id(i))), true);
    });

    await t.test('a new user: the notification reloads the filter within 10 s', async () => {
      const newId = 9007199254740000;
      const before = guard.loadedAt;
      assert.equal(guard.filter.contains(newId), false);
      await db.query('INSERT INTO users VALUES ($1)', [String(newId)]);
      const deadline = Date.now() + 10000;
      while (!(guard.loadedAt > before && guard.filter.contains(newId)) && Date.now() < deadline) {
        await sleep(50);
      }
      assert.ok(guard.loadedAt > before, 'reloaded');
      assert.equal(guard.filter.contains(newId), true);
      assert.equal(await guard.exists(newId), true);
    });

    await t.test('the server ends the guard\'s connections: the next lookup connects again', async () => {
      const error = console.error;
      console.error = () => {};
      try {
        await db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                         WHERE datname = current_database() AND pid <> pg_backend_pid()`);
        await sleep(200);
        assert.equal(await guard.exists(id(1)), true);
        assert.equal(await guard.exists(absent(1)), false);
        await guard.reload();
        assert.equal(guard.filter.contains(id(2)), true);
      } finally {
        console.error = error;
      }
    });

    await t.test('a failed reload keeps the old filter', async () => {
      const filter = guard.filter;
      const at = guard.loadedAt;
      await db.query('ALTER INDEX users_id_bloom RENAME TO users_id_bloom_away');
      const error = console.error;
      console.error = () => {};
      try {
        await guard.reload();
      } finally {
        console.error = error;
        await db.query('ALTER INDEX users_id_bloom_away RENAME TO users_id_bloom');
      }
      assert.equal(guard.filter, filter);
      assert.equal(guard.loadedAt, at);
    });

    await t.test('a stale guard asks the database, and answers correctly', async () => {
      const old = await new Guard({ database: DB }, { refresh: 0, listen: false, maxAge: 0.2 }).start();
      guards.push(old);
      assert.equal(await old.exists(absent(1)), false);
      const fresh = old.lookups;
      await sleep(400);
      assert.ok(old.stale());
      for (let i = 1; i <= 50; i++) assert.equal(await old.exists(absent(i)), false);
      assert.equal(old.lookups, fresh + 50);
      assert.equal(await old.exists(id(1)), true);
      assert.equal(old.lookups, fresh + 51);
    });
  } finally {
    for (const g of guards) await g.stop();
    await db.end();
    await admin.query(`DROP DATABASE IF EXISTS ${DB}`);
    await admin.end();
  }
});
