#!/usr/bin/env node
'use strict';
/*
 * How a lookup in the application compares with asking the server, per
 * key, one key at a time on one connection with prepared statements:
 *
 *   local                 BloomFilter.contains on the filter loaded once
 *                         from SELECT f::bytea FROM filters WHERE name = 'users'
 *   bloom_contains        SELECT bloom_contains(f, $1) FROM filters WHERE name = 'users'
 *   bloom_index_contains  SELECT bloom_index_contains('users_id_bloom', $1::bigint)
 *   primary_key           SELECT EXISTS (SELECT 1 FROM users WHERE id = $1)
 *
 * against a database (PG* in the environment) that holds users(id bigint
 * primary key) with ids 1 to 1,000,000, the index users_id_bloom ON users
 * USING bloomfilter (id), and filters(name, f) with the row
 * ('users', bloom_agg(id, 1000000, 0.01)).  Keys: half present (1 to
 * 1,000,000), half absent (above).
 *
 *   node bench/bench.js [N]    N keys a measure (default 200,000 local,
 *                              20,000 for the queries)
 *
 * Prints "node <measure> <ns per key> <ratio to primary_key>", and exits
 * non-zero if a local answer differs from bloom_contains's.
 */

const { Client } = require('pg');
const { BloomFilter } = require('bloomtype');

const USERS = 1000000;

/* Key j: even j present, odd j absent, spread over the ids */
function key(j) {
  const r = (j * 2654435761) % USERS; // a permutation of 0 .. USERS - 1 (gcd 1)
  return j % 2 === 0 ? 1 + r : USERS + 1 + r;
}

async function timeQueries(db, name, text, n, answers) {
  const q = { name, text, values: [''] };
  const t0 = process.hrtime.bigint();
  for (let j = 0; j < n; j++) {
    q.values[0] = String(key(j));
    const { rows } = await db.query(q);
    if (answers) answers[j] = rows[0].r;
  }
  return Number(process.hrtime.bigint() - t0) / n;
}

async function main() {
  const arg = process.argv[2];
  const nLocal = arg ? Number(arg) : 200000;
  const nQuery = arg ? Number(arg) : 20000;
  if (!Number.isSafeInteger(nLocal) || nLocal < 1) throw new Error(`bad N ${arg}`);
  const db = new Client();
  await db.connect();
  try {
    const { rows } = await db.query("SELECT f::bytea AS f FROM filters WHERE name = 'users'");
    if (rows.length !== 1) throw new Error("no row 'users' in filters");
    const filter = BloomFilter.fromBytes(rows[0].f);

    // (a) local, after a warm-up
    const local = new Array(nLocal);
    for (let j = 0; j < Math.min(nLocal, 20000); j++) filter.contains(key(j));
    const t0 = process.hrtime.bigint();
    for (let j = 0; j < nLocal; j++) local[j] = filter.contains(key(j));
    const aNs = Number(process.hrtime.bigint() - t0) / nLocal;

    const server = new Array(nQuery);
    const bNs = await timeQueries(db, 'bench_b',
      "SELECT bloom_contains(f, $1::bigint) AS r FROM filters WHERE name = 'users'", nQuery, server);
    const cNs = await timeQueries(db, 'bench_c',
      "SELECT bloom_index_contains('users_id_bloom', $1::bigint) AS r", nQuery);
    const dNs = await timeQueries(db, 'bench_d',
      'SELECT EXISTS (SELECT 1 FROM users WHERE id = $1::bigint) AS r', nQuery);

    for (const [measure, ns] of [['local', aNs], ['bloom_contains', bNs],
      ['bloom_index_contains', cNs], ['primary_key', dNs]]) {
      console.log(`node ${measure} ${Math.round(ns)} ${(ns / dNs).toPrecision(3)}`);
    }
    let differ = 0;
    const both = Math.min(nLocal, nQuery);
    for (let j = 0; j < both; j++) if (local[j] !== server[j]) differ++;
    if (differ > 0) {
      console.error(`bench: ${differ} of ${both} local answers differ from bloom_contains's`);
      process.exitCode = 1;
    }
  } finally {
    await db.end();
  }
}

main().catch((e) => {
  console.error(`bench: ${e.message}`);
  process.exitCode = 2;
});
