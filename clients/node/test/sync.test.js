'use strict';
/*
 * IndexCopy (lib/sync.js): made only of a scalable filter (kind 4), its
 * lookups those of the filter it was made of, catch-ups and add() applied
 * as the index applies a key (a hash an older layer may hold is skipped,
 * the others set in the newest layer), and the caller's bytes left alone.
 * The agreement program checks a copy against a server's catch-ups.
 */

const test = require('node:test');
const assert = require('node:assert/strict');
const u64 = require('../lib/u64');
const { testBits } = require('../lib/blocked');
const { bt, readVectors, answers } = require('./helpers');

const { filters } = readVectors('filters.json');
const vector = (name) => filters.find((f) => f.name === name);
const bytesOf = (name) => Buffer.from(vector(name).hex, 'hex');
const MARK = 'bt1/mark-0';

/* bloom_index_changes' form of hashes: 8 bytes each, little-endian */
function hashBytes(list) {
  const b = Buffer.alloc(8 * list.length);
  list.forEach((h, i) => b.writeBigUInt64LE(BigInt.asUintN(64, h), 8 * i));
  return b;
}

/* Where each layer's bits are in the value: [{ off, nblocks, k }] */
function layersOf(copy) {
  const { layers } = copy.info();
  let off = 64 + 32 * layers.length;
  return layers.map((l) => {
    const at = { off, end: off + 64 * l.blocks, nblocks: l.blocks, k: l.k };
    off = at.end;
    return at;
  });
}

/* Which layers of the value may hold the hash h */
function holders(bytes, layers, h) {
  u64.fromBig(h);
  const { hi, lo } = u64.out;
  return layers.map((l) => testBits(bytes, l.off, l.nblocks, l.k, hi, lo));
}

test('made of a scalable filter only: any other kind is a FormatError that says so', () => {
  for (const name of ['bloom_int', 'state_pending', 'state_light', 'agg_empty', 'window_int',
    'counting_int', 'cuckoo_int']) {
    assert.throws(() => new bt.IndexCopy(bytesOf(name), MARK), (e) => {
      assert.ok(e instanceof bt.FormatError, name);
      assert.equal(e.status, 'NOTSCALABLE');
      assert.match(e.message, /bloom_index_filter_at's filter, a scalable filter \(kind 4\)/);
      assert.match(e.message, new RegExp(`of kind ${vector(name).kind} `));
      return true;
    });
  }
  // a value the reader refuses keeps the reader's own error
  const cut = bytesOf('scalable_int').subarray(0, 200);
  assert.throws(() => new bt.IndexCopy(cut, MARK), { name: 'FormatError', status: 'LENGTH' });
  assert.throws(() => new bt.IndexCopy(bytesOf('scalable_int'), null), TypeError);
  assert.throws(() => new bt.IndexCopy('\\x00', MARK), TypeError);
});

test('answers every vector key as the filter it was made of, and gives back its bytes', () => {
  for (const name of ['bloom_int_agg', 'scalable_int', 'scalable_text_x4', 'scalable_empty',
    'bloom_uuid', 'bloom_float', 'bloom_other_date']) {
    const v = vector(name);
    const copy = new bt.IndexCopy(bytesOf(name), MARK);
    assert.ok(copy instanceof bt.Filter);
    assert.equal(answers(copy, v.keys), v.expect, name);
    assert.deepEqual(copy.toBytes(), bytesOf(name), name);
    assert.deepEqual(copy.info(), bt.BloomFilter.fromBytes(bytesOf(name)).info(), name);
    assert.equal(copy.mark, MARK);
  }
});

test('addHashes: whole hashes only, else nothing applied and the mark kept', () => {
  const copy = new bt.IndexCopy(bytesOf('bloom_int_agg'), MARK);
  const before = copy.toBytes();
  const { seed } = copy.info();
  const fresh = [];
  for (let k = 1000000; fresh.length < 3; k++) {
    if (!copy.contains(k)) fresh.push(bt.keyHash(k, seed));
  }
  const whole = hashBytes(fresh);
  for (const bad of [whole.subarray(0, 23), whole.subarray(0, 1), Buffer.concat([whole, whole.subarray(0, 4)])]) {
    assert.throws(() => copy.addHashes(bad, 'bt1/mark-1'), RangeError);
    assert.deepEqual(copy.toBytes(), before);
    assert.equal(copy.mark, MARK);
  }
  assert.throws(() => copy.addHashes(whole, null), TypeError);
  assert.throws(() => copy.addHashes(null, null), TypeError);
  assert.deepEqual(copy.toBytes(), before);
  assert.equal(copy.mark, MARK);
  // no hashes: only the mark moves
  copy.addHashes(Buffer.alloc(0), 'bt1/mark-1');
  assert.equal(copy.mark, 'bt1/mark-1');
  assert.deepEqual(copy.toBytes(), before);
  copy.addHashes(whole, 'bt1/mark-2');
  assert.equal(copy.mark, 'bt1/mark-2');
  for (const h of fresh) assert.equal(copy.containsHash(h), true);
});

test('a hash an older layer may hold is skipped; another is set in the newest layer only', () => {
  const buf = bytesOf('scalable_int');
  const copy = new bt.IndexCopy(buf, MARK);
  const layers = layersOf(copy);
  assert.equal(layers.length, 4);
  const newest = layers[layers.length - 1];
  const { seed } = copy.info();
  let older = null; // held by an older layer, not by the newest
  let none = null; // held by no layer
  for (let k = -50; older === null || none === null; k++) {
    const h = bt.keyHash(k, seed);
    const at = holders(buf, layers, h);
    if (older === null && at.slice(0, -1).some(Boolean) && !at[at.length - 1]) older = h;
    if (none === null && !at.some(Boolean)) none = h;
  }
  copy.addHashes(hashBytes([older]), 'bt1/mark-1');
  assert.deepEqual(copy.toBytes(), buf, 'the newest layer is left as it was');
  assert.equal(copy.mark, 'bt1/mark-1');

  assert.equal(copy.containsHash(none), false);
  copy.addHashes(hashBytes([none]), 'bt1/mark-2');
  assert.equal(copy.containsHash(none), true);
  const after = copy.toBytes();
  assert.deepEqual(after.subarray(0, newest.off), buf.subarray(0, newest.off), 'older layers unchanged');
  assert.notDeepEqual(after.subarray(newest.off), buf.subarray(newest.off));
  assert.deepEqual(holders(after, layers, none), [false, false, false, true]);
  assert.equal(copy.info().items, bt.BloomFilter.fromBytes(buf).info().items,
    'the item counts stay the load\'s');
});

test('add(key): checked and hashed as contains(), added as its hash, the mark kept', () => {
  const copy = new bt.IndexCopy(bytesOf('scalable_int'), MARK);
  const twin = new bt.IndexCopy(bytesOf('scalable_int'), MARK);
  const { seed } = copy.info();
  const keys = [];
  for (let k = 5000; keys.length < 20; k++) if (!copy.contains(k)) keys.push(k);
  keys.push(2n ** 62n, -(2n ** 63n));
  for (const k of keys) copy.add(k);
  for (const k of keys) assert.equal(copy.contains(k), true, String(k));
  assert.equal(copy.mark, MARK);
  twin.addHashes(hashBytes(keys.map((k) => bt.keyHash(k, seed))), MARK);
  assert.deepEqual(copy.toBytes(), twin.toBytes(), 'add(key) is addHashes of its hash');

  const before = copy.toBytes();
  assert.throws(() => copy.add('text'), { name: 'KeyClassError' });
  assert.throws(() => copy.add(1.5), TypeError);
  assert.throws(() => copy.add(2 ** 60), RangeError);
  assert.deepEqual(copy.toBytes(), before);
  // a value that holds no key yet (class "none") takes none
  assert.throws(() => new bt.IndexCopy(bytesOf('scalable_empty'), MARK).add(1),
    { name: 'KeyClassError' });
});

test('the caller\'s buffer is never written, nor the copy by changes to toBytes()', () => {
  const buf = bytesOf('bloom_int_agg');
  const kept = Buffer.from(buf);
  const copy = new bt.IndexCopy(buf, MARK);
  for (let k = 10000; k < 10100; k++) copy.add(k);
  copy.addHashes(hashBytes([1n, 2n, 3n, 2n ** 64n - 1n]), 'bt1/mark-1');
  assert.deepEqual(buf, kept);
  const out = copy.toBytes();
  const again = Buffer.from(out);
  out.fill(0);
  assert.deepEqual(copy.toBytes(), again);
  // an ArrayBuffer, and a view into a larger buffer
  const ab = kept.buffer.slice(kept.byteOffset, kept.byteOffset + kept.length);
  assert.deepEqual(new bt.IndexCopy(ab, MARK).toBytes(), kept);
  const big = Buffer.alloc(kept.length + 9, 0xff);
  kept.copy(big, 4);
  const view = new bt.IndexCopy(big.subarray(4, 4 + kept.length), MARK);
  view.add(123456789);
  assert.equal(big[3], 0xff);
  assert.deepEqual(big.subarray(4, 4 + kept.length), kept);
});
