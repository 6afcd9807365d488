'use strict';
/*
 * Windowed filters (kind 9): values built here field by field (docs/FORMAT.md
 * "Version 5: windowed filters"), each key in a slice of its own, to
 * check contains(key, { since }) at the slices' edges, before 1970, with
 * +-Infinity, Dates and bigints; the range of since; since on filters that
 * keep no time; and every check of windowed_decode (src/core/windowed.c)
 * with the server's error.
 */

const test = require('node:test');
const assert = require('node:assert/strict');
const ref = require('./reference');
const { bt, readVectors } = require('./helpers');

const HOUR = 3600000000n; // microseconds
const INT64_MAX = (1n << 63n) - 1n;
const NO_TIME = -(1n << 63n);
const MAX_SLICE = 1000n * 366n * 86400n * 1000000n;
const limOf = (L) => INT64_MAX / L - 64n; // the largest |slice number| a value holds

/*
 * A kind 9 value: slices [{ s, keys }] oldest first (integer keys, their
 * bits set with the header's k and blocks; items the count of keys)
 */
function windowed({ k = 3, blocks = 2, capacity = 100n, fpr = 0.01, keyClass = 1, L = HOUR,
  window = 3, newest, slices = [] }) {
  const n = slices.length;
  const buf = Buffer.alloc(96 + 16 * n + 64 * blocks * n);
  buf.write('BLMF', 0, 'latin1');
  buf[4] = 5;
  buf[5] = 9;
  buf[6] = 1;
  buf[7] = keyClass;
  buf[12] = k;
  buf[13] = 9;
  buf.writeBigUInt64LE(capacity, 24);
  buf.writeDoubleLE(fpr, 32);
  buf.writeBigUInt64LE(BigInt(n), 48);
  buf.writeBigUInt64LE(BigInt(blocks), 56);
  buf.writeBigInt64LE(L, 64);
  buf.writeBigInt64LE(newest === undefined ? (n ? slices[n - 1].s : NO_TIME) : newest, 72);
  buf.writeUInt32LE(window, 80);
  let items = 0n;
  slices.forEach(({ s, keys = [] }, i) => {
    buf.writeBigInt64LE(s, 96 + 16 * i);
    buf.writeBigUInt64LE(BigInt(keys.length), 104 + 16 * i);
    items += BigInt(keys.length);
    for (const key of keys) {
      ref.blockedSet(buf, 96 + 16 * n + 64 * blocks * i, blocks, k, BigInt.asUintN(64, bt.keyHash(key)));
    }
  });
  buf.writeBigUInt64LE(items, 40);
  return buf;
}

/* Keys 101 (slice -1), 102 (slice 0) and 103 (slice 2), one-hour slices, window 3 */
function threeSlices() {
  return bt.BloomFilter.fromBytes(windowed({
    slices: [{ s: -1n, keys: [101] }, { s: 0n, keys: [102] }, { s: 2n, keys: [103] }],
  }));
}

const which = (f, since) => [101, 102, 103].map((key) => (f.contains(key, { since }) ? '1' : '0')).join('');

test('the built value answers as the reference, every key only in its slice', () => {
  const buf = windowed({ slices: [{ s: -1n, keys: [101] }, { s: 0n, keys: [102] }, { s: 2n, keys: [103] }] });
  const f = bt.BloomFilter.fromBytes(buf);
  for (const key of [101, 102, 103, 104, 105]) {
    const h = BigInt.asUintN(64, bt.keyHash(key));
    for (const t of [-Infinity, -HOUR - 1n, -HOUR, -1n, 0n, HOUR, 2n * HOUR, 3n * HOUR, Infinity]) {
      assert.equal(f.contains(key, { since: t }), ref.windowedContains(buf, h, t), `${key} since ${t}`);
    }
  }
  // each key in its own slice only (no false positive among them, checked)
  assert.equal(which(f, 0n), '011');
  assert.equal(which(f, HOUR), '001');
});

test('since: the slices that end after it, at their edges', () => {
  const f = threeSlices();
  assert.equal(which(f, undefined), '111');
  assert.equal(which(f, -Infinity), '111');
  assert.equal(which(f, Infinity), '000');
  assert.equal(which(f, -2n * HOUR), '111'); // slice -2 is not kept: from -1
  assert.equal(which(f, -HOUR), '111'); // the start of slice -1
  assert.equal(which(f, -1n), '111'); // its last microsecond
  assert.equal(which(f, 0n), '011'); // slice -1 ends at 0: not after it
  assert.equal(which(f, HOUR - 1n), '011');
  assert.equal(which(f, HOUR), '001'); // slice 1 is not kept: from 2
  assert.equal(which(f, 3n * HOUR - 1n), '001');
  assert.equal(which(f, 3n * HOUR), '000'); // after the newest slice
  assert.equal(which(f, 1000n * HOUR), '000');
  assert.equal(which(f, -1000n * HOUR), '111');
});

test('since before 1970: slices by floor division', () => {
  const L = 90n * 60000000n; // 90 minutes
  const f = bt.BloomFilter.fromBytes(windowed({ L, window: 4,
    slices: [{ s: -3n, keys: [101] }, { s: -2n, keys: [102] }, { s: 0n, keys: [103] }] }));
  assert.equal(which(f, -3n * L), '111');
  assert.equal(which(f, -2n * L - 1n), '111'); // still slice -3 (truncation would say -2)
  assert.equal(which(f, -2n * L), '011');
  assert.equal(which(f, -1n), '001'); // slice -1 (not kept), then 0
  assert.equal(which(f, new Date(-1)), '001');
  assert.equal(which(f, new Date(Number(-2n * L / 1000n) - 1)), '111'); // slice -3's last millisecond
  assert.equal(which(f, new Date(Number(-2n * L / 1000n))), '011');
  assert.equal(which(f, new Date(Number(-3n * L / 1000n) + 1)), '111');
});

test('since as a Date is its milliseconds, as a bigint exact microseconds', () => {
  const f = threeSlices();
  assert.equal(which(f, new Date(0)), which(f, 0n));
  assert.equal(which(f, new Date(-1)), '111'); // -1000 microseconds: slice -1
  assert.equal(which(f, new Date(3599999)), '011'); // 3,599,999,000 microseconds: slice 0
  assert.equal(which(f, new Date(3600000)), '001');
  assert.equal(which(f, new Date('1970-01-01T03:00:00Z')), '000');
  assert.equal(which(f, new Date('1969-12-31T23:00:00Z')), '111');
  // the largest and smallest Dates are inside this filter's range
  assert.equal(which(f, new Date(8.64e15)), '000');
  assert.equal(which(f, new Date(-8.64e15)), '111');
});

test('every lookup takes since, and containsMany asks as contains does', () => {
  const f = threeSlices();
  const keys = [101, 102n, 103, 104];
  for (const since of [undefined, -Infinity, -HOUR, 0n, HOUR, new Date(0), Infinity]) {
    const one = keys.map((key) => f.contains(key, { since }));
    assert.deepEqual(f.containsMany(keys, { since }), one, String(since));
    assert.deepEqual(keys.map((key) => f.containsHash(bt.keyHash(key), { since })), one);
    assert.deepEqual(keys.map((key) => f.containsHash(String(bt.keyHash(key)), { since })), one);
  }
  assert.deepEqual(f.containsMany([], { since: 0n }), []);
  // a text filter, and uuid and float keys, by their classes
  const g = bt.BloomFilter.fromBytes(windowed({ keyClass: 5, slices: [{ s: 0n }] }));
  assert.equal(g.containsFloat(1.5, { since: 0n }), false);
  assert.throws(() => g.containsUuid('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', { since: 0n }),
    bt.KeyClassError);
});

test('options: {} and { since: undefined } ask every slice; other values are refused', () => {
  const f = threeSlices();
  assert.equal(f.contains(101, {}), true);
  assert.equal(f.contains(101, { since: undefined }), true);
  assert.equal(f.contains(101, null), true);
  for (const since of [0, 1.5, NaN, -0, '0', '2026-01-01', null, true, {}, [0n]]) {
    assert.throws(() => f.contains(101, { since }), TypeError, JSON.stringify(String(since)));
  }
  assert.throws(() => f.contains(101, { since: new Date(NaN) }), RangeError);
  // the time itself, not in an object
  assert.throws(() => f.contains(101, new Date()), TypeError);
  assert.throws(() => f.contains(101, 0n), TypeError);
  assert.throws(() => f.containsMany([101], 0n), TypeError);
});

test('since out of the range of the filter is a RangeError, as the server says', () => {
  const f = threeSlices();
  const lim = limOf(HOUR);
  assert.equal(which(f, lim * HOUR + HOUR - 1n), '000'); // slice lim
  assert.equal(which(f, -lim * HOUR), '111'); // slice -lim
  const outside = [(lim + 1n) * HOUR, -lim * HOUR - 1n, INT64_MAX, -INT64_MAX - 1n, 1n << 80n,
    -(1n << 80n)];
  for (const t of outside) {
    assert.throws(() => f.contains(101, { since: t }), (e) => e instanceof RangeError &&
      /out of the range of a windowed bloom filter/.test(e.message), String(t));
  }
  // slices of 1,000 years: the range is 227 slices either side of 1970
  const g = bt.BloomFilter.fromBytes(windowed({ L: MAX_SLICE, slices: [{ s: 0n, keys: [101] }] }));
  assert.equal(limOf(MAX_SLICE), 227n);
  assert.equal(g.contains(101, { since: -227n * MAX_SLICE }), true);
  assert.throws(() => g.contains(101, { since: -227n * MAX_SLICE - 1n }), RangeError);
  assert.throws(() => g.contains(101, { since: 228n * MAX_SLICE }), RangeError);
  // as the server: a key of another class first; a filter that holds no key answers false
  assert.throws(() => f.contains('x', { since: 1n << 80n }), bt.KeyClassError);
  const empty = bt.BloomFilter.fromBytes(windowed({ keyClass: 0 }));
  assert.equal(empty.contains('x', { since: 1n << 80n }), false);
});

test('a filter with no slice, or no key class, answers false since any time', () => {
  const { filters } = readVectors('filters.json');
  for (const name of ['window_empty', 'window_expired']) {
    const f = bt.load(Buffer.from(filters.find((v) => v.name === name).hex, 'hex'));
    for (const since of [undefined, -Infinity, 0n, new Date(), Infinity]) {
      assert.equal(f.contains(1, { since }), false, `${name} ${String(since)}`);
    }
  }
});

test('since on a filter that keeps no time is a WindowError', () => {
  const { filters } = readVectors('filters.json');
  for (const name of ['bloom_int', 'scalable_int', 'state_pending', 'state_light', 'agg_empty',
    'counting_int', 'counting_light', 'cuckoo_int']) {
    const v = filters.find((x) => x.name === name);
    const f = bt.load(Buffer.from(v.hex, 'hex'));
    const kindName = f.info().kindName;
    const isWindowError = (e) => e instanceof bt.WindowError && e instanceof TypeError &&
      e.code === 'BLOOMTYPE_NOT_WINDOWED' && e.type === v.type && e.kindName === kindName &&
      e.message.includes(`kind "${kindName}", which keeps no time`);
    // even for a filter that holds no key, and whatever the key (as the server, that check first)
    for (const since of [0n, new Date(), -Infinity, Infinity]) {
      assert.throws(() => f.contains(1, { since }), isWindowError, `${name} ${String(since)}`);
      assert.throws(() => f.containsMany([1, 'x'], { since }), isWindowError, name);
    }
    assert.throws(() => f.containsHash(1n, { since: 0n }), isWindowError, name);
    assert.throws(() => f.containsUuid('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', { since: 0n }), isWindowError);
    assert.throws(() => f.containsFloat(1, { since: 0n }), isWindowError, name);
    // no since: asked as before
    assert.equal(f.contains(1, {}) === f.contains(1), true);
  }
});

test('info(): the slicing, the window, the newest slice and each kept slice', () => {
  const f = threeSlices();
  const i = f.info();
  assert.equal(i.kind, 9);
  assert.equal(i.kindName, 'windowed');
  assert.equal(i.formatVersion, 5);
  assert.equal(i.items, 3);
  assert.equal(i.sliceLength, HOUR);
  assert.equal(i.window, 3);
  assert.equal(i.newestSlice, 2n);
  assert.deepEqual(i.slices, [
    { slice: -1n, start: -HOUR, end: 0n, items: 1 },
    { slice: 0n, start: 0n, end: HOUR, items: 1 },
    { slice: 2n, start: 2n * HOUR, end: 3n * HOUR, items: 1 },
  ]);
  const empty = bt.BloomFilter.fromBytes(windowed({ window: 7 })).info();
  assert.equal(empty.newestSlice, null);
  assert.deepEqual(empty.slices, []);
});

/* The status a reader refuses buf with ('ok' when it reads it) */
function status(Reader, buf) {
  try {
    Reader.fromBytes(buf);
    return 'ok';
  } catch (e) {
    if (!(e instanceof bt.FormatError)) throw e;
    return e.status;
  }
}

test('windowed_decode\'s checks, each with the server\'s error', () => {
  const base = { slices: [{ s: 5n, keys: [1] }, { s: 7n, keys: [2, 3] }] }; // newest 7, window 3
  const good = windowed(base);
  const lim = limOf(HOUR);
  const set = (f) => {
    const b = Buffer.from(good);
    f(b);
    return b;
  };
  const cases = [
    ['the value', good, 'ok'],
    ['version 1', set((b) => { b[4] = 1; }), 'KIND'],
    ['version 2', set((b) => { b[4] = 2; }), 'KIND'],
    ['version 3', set((b) => { b[4] = 3; }), 'VERSION'],
    ['version 4', set((b) => { b[4] = 4; }), 'KIND'],
    ['version 6', set((b) => { b[4] = 6; }), 'VERSION'],
    ['kind 1 in version 5', set((b) => { b[5] = 1; }), 'KIND'],
    ['kind 8 in version 5', set((b) => { b[5] = 8; }), 'KIND'],
    ['kind 10 in version 5', set((b) => { b[5] = 10; }), 'KIND'],
    ['hash 2', set((b) => { b[6] = 2; }), 'HASH'],
    ['key class 7', set((b) => { b[7] = 7; }), 'KEYCLASS'],
    ['flags', set((b) => { b[15] = 1; }), 'FLAGS'],
    ['k 0', set((b) => { b[12] = 0; }), 'GEOMETRY'],
    ['k 33', set((b) => { b[12] = 33; }), 'GEOMETRY'],
    ['block log2 10', set((b) => { b[13] = 10; }), 'GEOMETRY'],
    ['blocks 0', set((b) => b.writeBigUInt64LE(0n, 56)), 'GEOMETRY'],
    ['blocks 8,388,592', set((b) => b.writeBigUInt64LE(8388592n, 56)), 'GEOMETRY'],
    ['capacity 0', set((b) => b.writeBigUInt64LE(0n, 24)), 'PARAMS'],
    ['capacity past the bits', set((b) => b.writeBigUInt64LE(1025n, 24)), 'PARAMS'],
    ['capacity the bits', set((b) => b.writeBigUInt64LE(1024n, 24)), 'ok'],
    ['rate 1e-10', set((b) => b.writeDoubleLE(1e-10, 32)), 'PARAMS'],
    ['rate 1e-9', set((b) => b.writeDoubleLE(1e-9, 32)), 'ok'],
    ['rate 0.5', set((b) => b.writeDoubleLE(0.5, 32)), 'ok'],
    ['rate 0.50001', set((b) => b.writeDoubleLE(0.50001, 32)), 'PARAMS'],
    ['rate NaN', set((b) => b.writeDoubleLE(NaN, 32)), 'PARAMS'],
    ['95 bytes', good.subarray(0, 95), 'LENGTH'],
    ['reserved byte 84', set((b) => { b[84] = 1; }), 'FLAGS'],
    ['reserved byte 95', set((b) => { b[95] = 1; }), 'FLAGS'],
    ['window high bytes', set((b) => { b[83] = 1; }), 'PARAMS'],
    ['slice length 0', set((b) => b.writeBigInt64LE(0n, 64)), 'PARAMS'],
    ['slice length -1', set((b) => b.writeBigInt64LE(-1n, 64)), 'PARAMS'],
    ['slice length 1,000 years and 1', set((b) => b.writeBigInt64LE(MAX_SLICE + 1n, 64)), 'PARAMS'],
    ['slice length 1,000 years', set((b) => b.writeBigInt64LE(MAX_SLICE, 64)), 'ok'],
    ['slice length 1', set((b) => b.writeBigInt64LE(1n, 64)), 'ok'],
    ['window 0', set((b) => b.writeUInt32LE(0, 80)), 'PARAMS'],
    ['window 32', set((b) => b.writeUInt32LE(32, 80)), 'PARAMS'],
    ['window 31', set((b) => b.writeUInt32LE(31, 80)), 'ok'],
    ['window 1, slice 5 outside it', set((b) => b.writeUInt32LE(1, 80)), 'GEOMETRY'],
    ['newest past the range', set((b) => b.writeBigInt64LE(lim + 1n, 72)), 'PARAMS'],
    ['newest before the range', set((b) => b.writeBigInt64LE(-lim - 1n, 72)), 'PARAMS'],
    ['newest -2^63 + 1', set((b) => b.writeBigInt64LE(NO_TIME + 1n, 72)), 'PARAMS'],
    ['newest none, with slices', set((b) => b.writeBigInt64LE(NO_TIME, 72)), 'GEOMETRY'],
    ['newest past the slices', set((b) => b.writeBigInt64LE(9n, 72)), 'GEOMETRY'],
    ['newest 8', set((b) => b.writeBigInt64LE(8n, 72)), 'ok'],
    ['slices kept past the window', set((b) => b.writeBigUInt64LE(5n, 48)), 'GEOMETRY'],
    ['slices kept 3, the length of 2', set((b) => b.writeBigUInt64LE(3n, 48)), 'LENGTH'],
    ['slices kept 1', set((b) => b.writeBigUInt64LE(1n, 48)), 'LENGTH'],
    ['slices past the blocks', set((b) => b.writeBigUInt64LE(8388591n, 56)), 'LENGTH'],
    ['slice newer than the newest', set((b) => b.writeBigInt64LE(8n, 112)), 'GEOMETRY'],
    ['slice older than the window', set((b) => b.writeBigInt64LE(3n, 96)), 'GEOMETRY'],
    ['slice the oldest of the window', set((b) => b.writeBigInt64LE(4n, 96)), 'ok'],
    ['slices equal', set((b) => b.writeBigInt64LE(7n, 96)), 'GEOMETRY'],
    ['slices decreasing', set((b) => { b.writeBigInt64LE(7n, 96); b.writeBigInt64LE(6n, 112); }), 'GEOMETRY'],
    ['a slice\'s items', set((b) => b.writeBigUInt64LE(3n, 120)), 'COUNT'],
    ['the items', set((b) => b.writeBigUInt64LE(4n, 40)), 'COUNT'],
    ['one byte more', Buffer.concat([good, Buffer.alloc(1)]), 'LENGTH'],
    ['one byte less', good.subarray(0, good.length - 1), 'LENGTH'],
  ];
  for (const [why, buf, want] of cases) {
    assert.equal(status(bt.BloomFilter, buf), want, why);
    // the other types: kind 9 is another type's in any version, kind 10 none's
    // (and kind 8 countingbloom's, but of version 4)
    const other = buf.length < 64 ? 'SHORT' : buf[6] !== 1 ? 'HASH' : buf[7] > 6 ? 'KEYCLASS' :
      buf[5] === 10 ? 'KIND' : 'OTHERTYPE';
    assert.equal(status(bt.CountingBloomFilter, buf), buf[5] === 8 ? 'VERSION' : other,
      `${why}: countingbloom`);
    assert.equal(status(bt.CuckooFilter, buf), other, `${why}: cuckoofilter`);
  }
  // the sum of the slices' items saturates at 2^64 - 1, as the header's
  const sat = set((b) => {
    b.writeBigUInt64LE((1n << 64n) - 1n, 104);
    b.writeBigUInt64LE((1n << 64n) - 1n, 40);
  });
  assert.equal(status(bt.BloomFilter, sat), 'ok');
  // the newest slice at either end of the range, its window's slices kept
  for (const newest of [limOf(HOUR), -limOf(HOUR)]) {
    const v = windowed({ newest, slices: [{ s: newest - 3n, keys: [1] }, { s: newest, keys: [2] }] });
    const f = bt.BloomFilter.fromBytes(v);
    assert.equal(f.contains(1), true);
    assert.equal(f.contains(1, { since: newest * HOUR }), false);
    assert.equal(f.contains(2, { since: newest * HOUR }), true);
  }
  // every truncation of the value is refused
  for (let len = 0; len < good.length; len++) {
    assert.throws(() => bt.load(good.subarray(0, len)), bt.FormatError, `cut to ${len}`);
  }
});
