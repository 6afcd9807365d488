'use strict';
/* info(): the header as stored and the kind's fields */

const test = require('node:test');
const assert = require('node:assert/strict');
const { bt, readVectors } = require('./helpers');

const { filters } = readVectors('filters.json');
const load = (name) => bt.load(Buffer.from(filters.find((f) => f.name === name).hex, 'hex'));

test('info of each kind', () => {
  assert.deepEqual(load('bloom_int').info(), {
    type: 'bloomfilter', formatVersion: 2, kind: 1, kindName: 'blocked', keyClass: 'integer',
    keyType: 0, seed: 0n, capacity: 200, fpr: 0.2, items: 197, flags: 1, bytes: 192,
    k: 2, blocks: 2, nonscaling: true,
  });
  const s = load('scalable_int').info();
  assert.equal(s.kindName, 'scalable');
  assert.equal(s.expansion, 2);
  assert.deepEqual(s.layers.map((l) => l.capacity), [20, 40, 80, 160]);
  assert.equal(s.layers.reduce((a, l) => a + l.items, 0), s.items);
  const p = load('state_pending').info();
  assert.equal(p.pendingHashes, 44);
  assert.equal(p.scalableState, false);
  const l = load('state_light').info();
  assert.equal(l.kindName, 'light state');
  assert.equal(l.hashes, 100);
  assert.equal(load('agg_empty').info().hashes, 0);
  assert.equal(load('counting_int').info().removes, 50);
  assert.equal(load('counting_light').info().kind, 8);
  const c = load('cuckoo_int').info();
  assert.equal(c.bucketSize, 4);
  assert.equal(c.maxKicks, 500);
  assert.equal(c.subFilters.length, 3);
  assert.deepEqual(c.subFilters[0], { buckets: 22, capacity: 50, items: 57, fingerprintBits: 8 });
  assert.equal(c.subFilters.reduce((a, x) => a + x.items, 0), c.items);
  assert.equal(load('bloom_text_seeded').info().seed, 0x2a5a000000000007n);
  assert.equal(load('bloom_text_seeded').keyClass, 'text');
  assert.equal(load('bloom_other_date').info().keyClass, 'other');
  const w = load('window_int').info();
  assert.equal(w.kindName, 'windowed');
  assert.equal(w.sliceLength, 3600000000n);
  assert.equal(w.window, 4);
  assert.equal(w.newestSlice, 498201n);
  assert.deepEqual(w.slices.map((x) => x.slice), [498197n, 498198n, 498199n, 498200n, 498201n]);
  assert.deepEqual(w.slices[0], { slice: 498197n, start: 498197n * 3600000000n,
    end: 498198n * 3600000000n, items: 99 });
  assert.equal(w.slices.reduce((a, x) => a + x.items, 0), w.items);
  assert.equal(load('window_empty').info().newestSlice, null);
  assert.deepEqual(load('window_expired').info().slices, []);
});
