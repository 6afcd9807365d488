'use strict';
/*
 * Cuckoo filters beyond the shared vectors: fingerprints of 17 to 42 bits
 * (slots that straddle 32-bit words), expansion 16, a seed
 * (test/fixtures/cuckoo_wide.json, the server's answers for the integer
 * keys 1 to 2000), against the server and against the BigInt reference;
 * and the deep checks of cuckoo_validate_deep on damaged copies.
 */

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const ref = require('./reference');
const { bt } = require('./helpers');

const wide = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'cuckoo_wide.json'), 'utf8'));

for (const v of wide.filters) {
  test(`cuckoo ${v.name}`, () => {
    const buf = Buffer.from(v.hex, 'hex');
    const f = bt.CuckooFilter.fromBytes(buf);
    assert.equal(bt.load(buf).type, 'cuckoofilter');
    let got = '';
    for (let k = 1; k <= 2000; k++) got += f.contains(k) ? '1' : '0';
    assert.equal(got, v.expect);
    const seed = buf.readBigUInt64LE(16);
    for (let k = 1; k <= 2000; k += 7) {
      const h = BigInt.asUintN(64, bt.keyHash(k, seed));
      assert.equal(ref.cuckooContains(buf, h), v.expect[k - 1] === '1', `reference, key ${k}`);
    }
    for (let i = 0n; i < 500n; i++) {
      const h = (i * 0x9e3779b97f4a7c15n + 0x0123456789abcdefn) & ref.M64;
      assert.equal(f.containsHash(h), ref.cuckooContains(buf, h), `hash ${h}`);
    }
  });
}

function refused(buf, status) {
  assert.throws(() => bt.CuckooFilter.fromBytes(buf), (e) => e instanceof bt.FormatError &&
    (status === undefined || e.status === status), status);
}

test('damaged cuckoo filters are refused as the server refuses them', () => {
  const v = wide.filters.find((x) => x.name === 'x4_grown_removed');
  const good = Buffer.from(v.hex, 'hex');
  const nsubs = Number(good.readBigUInt64LE(48));
  const b = good[12];
  const descs = [];
  let at = 96 + 32 * nsubs;
  for (let i = 0; i < nsubs; i++) {
    const d = 96 + 32 * i;
    const nb = Number(good.readBigUInt64LE(d));
    const fb = good[d + 24];
    const bits = nb * b * fb;
    descs.push({ d, nb, fb, at, bits });
    at += Math.ceil(bits / 64) * 8 + 8;
  }
  const copy = () => Buffer.from(good);
  let c;
  // a fingerprint width that is not the plan's (still nested, so only the deep check sees it)
  c = copy(); c[descs[2].d + 24] += 1; refused(c); // the length no longer matches either
  // a count that disagrees with the slots
  c = copy(); c.writeBigUInt64LE(c.readBigUInt64LE(descs[0].d + 16) + 1n, descs[0].d + 16);
  c.writeBigUInt64LE(c.readBigUInt64LE(40) + 1n, 40); refused(c, 'CONTENT');
  // a bit set in the final zero word, and in the padding after the last slot
  c = copy(); c[descs[0].at + Math.ceil(descs[0].bits / 64) * 8 + 3] = 1; refused(c, 'FLAGS');
  if (descs[1].bits % 8) {
    c = copy(); c[descs[1].at + Math.floor(descs[1].bits / 8)] |= 0x80; refused(c, 'FLAGS');
  }
  // the reserved word, the bytes after the fingerprint width, byte 59
  c = copy(); c[88] = 1; refused(c, 'FLAGS');
  c = copy(); c[descs[0].d + 25] = 1; refused(c, 'GEOMETRY');
  c = copy(); c[59] = 1; refused(c, 'FLAGS');
  // n0 that is not the plan's, with every size made consistent: only the plan check sees it
  c = copy(); c.writeBigUInt64LE(BigInt(descs[0].nb + 1), descs[0].d); refused(c);
  // expansion 3 (not a power of two), bucket size 3, max kicks 0
  c = copy(); c[58] = 3; refused(c, 'GEOMETRY');
  c = copy(); c[12] = 3; refused(c, 'GEOMETRY');
  c = copy(); c[56] = 0; c[57] = 0; refused(c, 'GEOMETRY');
  // a rate under 1e-9 for a growing filter, NaN
  c = copy(); c.writeDoubleLE(1e-10, 32); refused(c, 'PARAMS');
  c = copy(); c.writeDoubleLE(NaN, 32); refused(c, 'PARAMS');
  // version, kind
  c = copy(); c[4] = 2; refused(c, 'VERSION');
  c = copy(); c[5] = 10; refused(c, 'KIND');
  c = copy(); c[5] = 9; refused(c, 'OTHERTYPE'); // a windowed filter's kind, in any version
  c = copy(); c[5] = 5; refused(c, 'OTHERTYPE');
  assert.ok(bt.CuckooFilter.fromBytes(copy()));
});

test('a version 3 hash list\'s capacity must fit a filter of buckets of 4, expansion 2', () => {
  // an empty version 3 hash list (what cuckoo_agg(key, capacity, fpr) returns over no rows)
  const h = Buffer.alloc(64);
  h.write('BLMF', 0, 'latin1');
  h[4] = 3; h[5] = 2; h[6] = 1;
  h.writeDoubleLE(0.01, 32);
  h.writeBigUInt64LE(1000n, 24);
  const f = bt.CuckooFilter.fromBytes(h);
  assert.equal(f.info().capacity, 1000);
  assert.equal(f.contains(1), false);
  assert.equal(bt.load(h).type, 'cuckoofilter');
  assert.throws(() => bt.BloomFilter.fromBytes(h), /format version/);
  assert.throws(() => bt.CountingBloomFilter.fromBytes(h), /format version/);
  // the largest at 1% (cuckoo_max_capacity: 351,054,242 for cuckoo_empty's defaults)
  h.writeBigUInt64LE(351054242n, 24);
  assert.ok(bt.CuckooFilter.fromBytes(h));
  h.writeBigUInt64LE(351054243n, 24);
  assert.throws(() => bt.CuckooFilter.fromBytes(h), (e) => e.status === 'PARAMS');
  h.writeBigUInt64LE(0n, 24);
  assert.throws(() => bt.CuckooFilter.fromBytes(h), (e) => e.status === 'PARAMS');
  // a version 1 hash list at a rate under 1e-9: bloomfilter's, not cuckoofilter's
  h[4] = 1;
  h.writeDoubleLE(1e-10, 32);
  assert.throws(() => bt.CuckooFilter.fromBytes(h), (e) => e.status === 'PARAMS');
  assert.ok(bt.BloomFilter.fromBytes(h));
  assert.ok(bt.CountingBloomFilter.fromBytes(h));
});
