'use strict';
/*
 * The 32-bit arithmetic of the lookups (lib/u64.js, blocked.js, cuckoo.js)
 * against BigInt: the helpers on random and edge values, and every
 * vector filter's lookup (a windowed one's since each of its times too)
 * against the BigInt transcription of FORMAT.md (test/reference.js) on
 * random hashes.
 */

const test = require('node:test');
const assert = require('node:assert/strict');
const u64 = require('../lib/u64');
const { testBits } = require('../lib/blocked');
const ref = require('./reference');
const { bt, readVectors, floatOf } = require('./helpers');

const M64 = (1n << 64n) - 1n;

/* A deterministic stream of 64-bit values (splitmix64), edges first */
function* values(n) {
  const edges = [0n, 1n, 2n, 0xffffffffn, 0x100000000n, 0x7fffffffffffffffn, 0x8000000000000000n,
    M64, M64 - 1n, 0xffffffff00000000n, 0x00000000ffffffffn, 0x9e3779b97f4a7c15n];
  yield* edges;
  let s = 0x1234567887654321n;
  for (let i = 0; i < n; i++) {
    s = (s + 0x9e3779b97f4a7c15n) & M64;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
    yield z ^ (z >> 31n);
  }
}

const hiOf = (v) => Number(v >> 32n);
const loOf = (v) => Number(v & 0xffffffffn);
const got = () => u64.toBig(u64.out.hi, u64.out.lo);

test('mulhi32, mul64, add64, mix64 agree with BigInt', () => {
  const vs = [...values(3000)];
  for (let i = 0; i < vs.length; i++) {
    const a = vs[i];
    const b = vs[(i * 7 + 3) % vs.length];
    const a32 = loOf(a);
    const b32 = hiOf(b);
    assert.equal(BigInt(u64.mulhi32(a32, b32)), (BigInt(a32) * BigInt(b32)) >> 32n);
    u64.mul64(hiOf(a), loOf(a), hiOf(b), loOf(b));
    assert.equal(got(), (a * b) & M64);
    u64.add64(hiOf(a), loOf(a), hiOf(b), loOf(b));
    assert.equal(got(), (a + b) & M64);
    u64.mix64(hiOf(a), loOf(a));
    assert.equal(got(), ref.mix(a));
    u64.fromBig(a);
    assert.equal(got(), a);
  }
});

test('mulhiSmall agrees with BigInt for n below 2^36', () => {
  const ns = [0, 1, 2, 3, 63, 64, 1000, 8388591, 8388559, 1677718, 268434944, 2 ** 31 - 1,
    2 ** 32, 2 ** 32 + 1, 2 ** 35, 2 ** 36 - 1];
  for (const h of values(2000)) {
    for (const n of ns) {
      assert.equal(BigInt(u64.mulhiSmall(hiOf(h), loOf(h), n)), ref.mulhi(h, BigInt(n)), `${h} ${n}`);
    }
  }
});

test('blocked bits: testBits agrees with the reference on random blocks', () => {
  const bits = new Uint8Array(64 * 37);
  for (let i = 0; i < bits.length; i++) bits[i] = (i * 2654435761) >>> 24 | 0x11;
  for (const h of values(3000)) {
    for (const k of [1, 2, 7, 32]) {
      assert.equal(testBits(bits, 0, 37, k, hiOf(h), loOf(h)), ref.blockedContains(bits, 0, 37, k, h));
    }
  }
});

function keyHashOf(cls, key, seed) {
  let h;
  switch (cls) {
    case 'int': h = bt.keyHash(BigInt(key), seed); break;
    case 'text': h = bt.keyHash(key, seed); break;
    case 'bytea': h = bt.keyHash(Buffer.from(key, 'hex'), seed); break;
    case 'uuid': h = bt.keyHash(key, seed, 'uuid'); break;
    case 'float': h = bt.keyHash(floatOf(key), seed, 'float'); break;
    default: h = BigInt(key);
  }
  return BigInt.asUintN(64, h);
}

test('every vector filter answers random hashes as the reference does', () => {
  const { filters } = readVectors('filters.json');
  const hashes = [...values(1500)];
  for (const v of filters) {
    const buf = Buffer.from(v.hex, 'hex');
    const f = bt.load(buf);
    if (f.keyClass === 'none') continue;
    let refContains;
    if (v.kind === 6) {
      refContains = (h) => ref.cuckooContains(buf, h);
    } else if (v.kind === 1 || v.kind === 5) {
      const n = Number(buf.readBigUInt64LE(48));
      refContains = (h) => ref.blockedContains(buf, 64, n, buf[12], h);
    } else if (v.kind === 4) {
      const nl = Number(buf.readBigUInt64LE(48));
      const layers = [];
      let off = 64 + 32 * nl;
      for (let i = 0; i < nl; i++) {
        const n = Number(buf.readBigUInt64LE(64 + 32 * i));
        layers.push({ off, n, k: buf[64 + 32 * i + 24] });
        off += 64 * n;
      }
      refContains = (h) => layers.some((l) => ref.blockedContains(buf, l.off, l.n, l.k, h));
    } else if (v.kind === 9) {
      refContains = (h) => ref.windowedContains(buf, h);
      // and since each of the vector's times, the server's own answers among them
      for (const s of v.since) {
        const at = BigInt(s.at);
        for (const h of hashes.slice(0, 300)) {
          assert.equal(f.containsHash(h, { since: at }), ref.windowedContains(buf, h, at),
            `${v.name} ${h} since ${at}`);
        }
      }
    } else {
      continue; // states: the vectors' expected answers cover them
    }
    // the vector's own keys, present ones among them, by their hashes
    const seed = buf.readBigUInt64LE(16);
    v.keys.forEach(([cls, key], i) => {
      const h = keyHashOf(cls, key, seed);
      assert.equal(refContains(h), v.expect[i] === '1', `${v.name} key ${key}: reference`);
      assert.equal(f.containsHash(h), v.expect[i] === '1', `${v.name} key ${key}`);
    });
    let present = 0;
    for (const h of hashes) {
      const want = refContains(h);
      assert.equal(f.containsHash(h), want, `${v.name} ${h}`);
      if (want) present++;
    }
    if (v.kind === 9 && buf.readBigUInt64LE(48) === 0n) {
      assert.equal(present, 0, `${v.name}: no slice, nothing present`);
    } else {
      assert.ok(present > 0, `${v.name}: some random hash is present`);
    }
  }
});
