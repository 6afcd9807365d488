#!/usr/bin/env node
'use strict';
/*
 * Differential check against a live server (PG* in the environment; not
 * part of the unit tests): random mutations of the vectors' values, each
 * offered to the three types' input on the server and to the three
 * readers here.  Acceptance must be the same (a kind 2 value with hashes
 * in use excepted), and for an accepted value the answers for the integer
 * keys 1 to 16 (or the error: another key class) too.
 *
 *   node test/differential.js [MUTANTS_PER_VALUE]     (default 200)
 *
 * It creates and drops the database node_diff.
 */

const { Client } = require('pg');
const { bt, readVectors, READERS, isHashlistWithHashes } = require('./helpers');

const TYPES = ['bloomfilter', 'countingbloom', 'cuckoofilter'];
const FN = { bloomfilter: 'bloom_contains', countingbloom: 'counting_contains',
  cuckoofilter: 'cuckoo_contains' };

/* xorshift32, deterministic */
let seed = 0x9e3779b9;
function rnd(n) {
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed % n;
}

const INTERESTING = [0n, 1n, 2n, 3n, 7n, 8n, 9n, 31n, 32n, 33n, 255n, 256n, 257n, 512n,
  0x7fffffffn, 0xffffffffn, 1n << 32n, (1n << 63n) - 1n, 1n << 63n, (1n << 64n) - 1n];

function mutate(orig) {
  let b = Buffer.from(orig);
  const kind = rnd(9);
  if (kind === 0) {
    b[rnd(Math.min(64, b.length))] = rnd(256);
  } else if (kind === 1) {
    b[rnd(b.length)] ^= 1 << rnd(8);
  } else if (kind === 2 && b.length >= 64) {
    const off = 8 * rnd(8);
    const cur = b.readBigUInt64LE(off);
    const v = rnd(3) === 0 ? INTERESTING[rnd(INTERESTING.length)] :
      BigInt.asUintN(64, cur + BigInt(rnd(5)) - 2n);
    b.writeBigUInt64LE(v, off);
  } else if (kind === 3 && b.length >= 128) {
    // a descriptor's word (kinds 4, 6) or a body word
    const off = 64 + 8 * rnd(Math.min(16, Math.floor((b.length - 64) / 8)));
    b.writeBigUInt64LE(BigInt.asUintN(64, b.readBigUInt64LE(off) + BigInt(rnd(5)) - 2n), off);
  } else if (kind === 4) {
    b = b.subarray(0, Math.max(0, b.length - 8 * (1 + rnd(3))));
  } else if (kind === 5) {
    b = Buffer.concat([b, Buffer.alloc(8 * (1 + rnd(2)))]);
  } else if (kind === 6 && b.length >= 64) {
    b[4] = 1 + rnd(4); // another version
  } else if (kind === 7 && b.length >= 64) {
    b[5] = 1 + rnd(8); // another kind
  } else if (b.length >= 64) {
    b.writeDoubleLE([1e-12, 1e-9, 9.99e-10, 0.5, 0.50001, NaN, 0, -0.01][rnd(8)], 32);
  }
  return b;
}

function clientSide(buf) {
  const out = {};
  for (const t of TYPES) {
    let f;
    try {
      f = READERS[t].fromBytes(buf);
    } catch (e) {
      if (!(e instanceof bt.FormatError)) throw new Error(`${t}: ${e.stack}`);
      out[t] = null;
      continue;
    }
    let s = '';
    try {
      for (let k = 1; k <= 16; k++) s += f.contains(k) ? '1' : '0';
    } catch (e) {
      if (!(e instanceof bt.KeyClassError)) throw e;
      s = 'E';
    }
    out[t] = s;
  }
  return out;
}

async function main() {
  const perValue = Number(process.argv[2] || 200);
  const admin = new Client({ database: 'postgres' });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS node_diff');
  await admin.query('CREATE DATABASE node_diff');
  const db = new Client({ database: 'node_diff' });
  await db.connect();
  try {
    await db.query('CREATE EXTENSION bloomtype');
    for (const t of TYPES) {
      await db.query(`CREATE FUNCTION try_${t}(v bytea) RETURNS text LANGUAGE plpgsql AS $$
        DECLARE f ${t}; s text := '';
        BEGIN
          BEGIN f := v::${t}; EXCEPTION WHEN others THEN RETURN NULL; END;
          BEGIN
            FOR k IN 1..16 LOOP
              s := s || CASE WHEN ${FN[t]}(f, k::bigint) THEN '1' ELSE '0' END;
            END LOOP;
          EXCEPTION WHEN others THEN RETURN 'E';
          END;
          RETURN s;
        END $$`);
    }
    const wide = require('./fixtures/cuckoo_wide.json').filters;
    const origins = [...readVectors('filters.json').filters, ...wide]
      .map((v) => Buffer.from(v.hex, 'hex'));
    let checked = 0;
    let accepted = 0;
    let bad = 0;
    for (const orig of origins) {
      const batch = [];
      for (let i = 0; i < perValue; i++) batch.push(mutate(orig));
      const { rows } = await db.query(
        `SELECT ${TYPES.map((t) => `try_${t}(v) AS ${t}`).join(', ')}
           FROM unnest($1::bytea[]) WITH ORDINALITY AS u(v, i) ORDER BY i`, [batch]);
      rows.forEach((server, i) => {
        const buf = batch[i];
        const mine = clientSide(buf);
        const skip = isHashlistWithHashes(buf);
        for (const t of TYPES) {
          const want = skip ? null : server[t];
          if (mine[t] !== want) {
            bad++;
            if (bad <= 20) {
              console.log(`DIFF ${t}: server ${server[t]}, client ${mine[t]}: \\x${buf.toString('hex').slice(0, 160)}`);
            }
          }
          if (want !== null) accepted++;
        }
        checked++;
      });
    }
    console.log(`differential: ${checked} values, ${accepted} acceptances, ${bad} differences`);
    process.exitCode = bad === 0 ? 0 : 1;
  } finally {
    await db.end();
    await admin.query('DROP DATABASE IF EXISTS node_diff');
    await admin.end();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 2;
});
