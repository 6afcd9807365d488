'use strict';
/*
 * Keys: encodings (against bloom_key_hash values taken from the server),
 * edge keys, refusals, and key classes (errors worded as the server's).
 */

const test = require('node:test');
const assert = require('node:assert/strict');
const { bt, readVectors } = require('./helpers');

const { keyHash, KeyClassError, FormatError } = bt;
const { filters } = readVectors('filters.json');
const byName = (name) => bt.load(Buffer.from(filters.find((f) => f.name === name).hex, 'hex'));

// SELECT bloom_key_hash(...) on bloomtype 1.5
const SERVER = [
  [0, 0n, undefined, -4072596861322023719n],
  [-1, 0n, undefined, 5841669975847748627n],
  [42, 0n, undefined, -3051478158665635896n],
  [42n, 3051751697496932359n, undefined, -656375426151332286n],
  [42, -1n, undefined, 1590978491127421467n],
  [42, 0xffffffffffffffffn, undefined, 1590978491127421467n],
  [9223372036854775807n, 0n, undefined, -6758830778922508474n],
  [-9223372036854775808n, 0n, undefined, -9038965835861193121n],
  [Number.MAX_SAFE_INTEGER, 0n, undefined, 8944503144038156827n],
  [-Number.MAX_SAFE_INTEGER, 0n, undefined, 3093848776325506043n],
  ['ключ-1', 0n, undefined, 8904625523417083761n],
  ['', 0n, undefined, 3244421341483603138n],
  ['a', 7n, undefined, -7001539911779966828n],
  ['😀', 0n, undefined, 815130590857691278n],
  [new Uint8Array(0), 0n, undefined, 3244421341483603138n],
  [Buffer.from([0, 255]), -1n, undefined, -41399700781610428n],
  ['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 0n, 'uuid', 6187780171734267751n],
  ['00000000-0000-0000-0000-000000000000', 3051751697496932359n, 'uuid', 8507481246934234851n],
  [0, 0n, 'float', -4072596861322023719n],
  [-0, 0n, 'float', -4072596861322023719n],
  [NaN, 0n, 'float', 767333564151873895n],
  [Infinity, 0n, 'float', 3862676201523092338n],
  [-Infinity, 0n, 'float', -7607982011244918730n],
  [Math.fround(0.1), 0n, 'float', 6185812578492515446n], // 0.1::real widens exactly
  [0.1, 0n, 'float', -3902581968059104307n],
  [1.5, 9n, 'float', -7391195340379372500n],
];

test('keyHash gives what bloom_key_hash gives', () => {
  for (const [key, seed, cls, want] of SERVER) {
    assert.equal(keyHash(key, seed, cls), want, `${String(key)} seed ${seed} ${cls || ''}`);
  }
  assert.equal(keyHash(42), -3051478158665635896n);
  assert.equal(keyHash(42n, 0n, 'integer'), keyHash(42));
  assert.equal(keyHash('x', 0n, 'text'), keyHash('x'));
  assert.equal(keyHash(Buffer.from('x'), 0n, 'bytea'), keyHash('x'));
  assert.throws(() => keyHash('x', 0n, 'integer'), TypeError);
  assert.throws(() => keyHash(1, 0n, 'date'), TypeError);
  assert.throws(() => keyHash(1, 1n << 64n), RangeError);
  assert.throws(() => keyHash(1, -(1n << 63n) - 1n), RangeError);
  assert.throws(() => keyHash(1, 1.5), TypeError);
});

test('a NaN of any payload is one key', () => {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setBigUint64(0, 0xfff8000000000001n);
  const other = dv.getFloat64(0);
  assert.ok(Number.isNaN(other));
  assert.equal(keyHash(other, 0n, 'float'), keyHash(NaN, 0n, 'float'));
});

test('integer keys: range and refusals', () => {
  const f = byName('bloom_int');
  assert.equal(f.contains(1), f.contains(1n));
  assert.equal(f.contains(-0), f.contains(0));
  assert.equal(typeof f.contains(9223372036854775807n), 'boolean');
  assert.equal(typeof f.contains(-9223372036854775808n), 'boolean');
  assert.throws(() => f.contains(9223372036854775808n), RangeError);
  assert.throws(() => f.contains(-9223372036854775809n), RangeError);
  assert.throws(() => f.contains(2 ** 53), RangeError);
  assert.throws(() => f.contains(-(2 ** 60)), RangeError);
  for (const bad of [1.5, NaN, Infinity, -Infinity]) assert.throws(() => f.contains(bad), TypeError);
  for (const bad of [true, false, null, undefined, {}, [], [1], new Date(), Symbol('k'),
    new Uint16Array(2), new ArrayBuffer(4), () => 1]) {
    assert.throws(() => f.contains(bad), (e) => e instanceof TypeError && !(e instanceof KeyClassError),
      String(typeof bad));
  }
  // refused whatever the filter's class, even "none"
  const none = byName('scalable_empty');
  assert.throws(() => none.contains(true), TypeError);
  assert.throws(() => none.contains(2n ** 63n), RangeError);
  assert.throws(() => none.contains(0.5), TypeError);
});

test('text keys: UTF-8, no lone surrogates, no NUL', () => {
  const f = byName('bloom_text');
  assert.equal(typeof f.contains('ключ'), 'boolean');
  assert.throws(() => f.contains('a\uD800b'), RangeError);
  assert.throws(() => f.contains('\uDC00'), RangeError);
  assert.throws(() => f.contains('a\0b'), RangeError);
  assert.equal(keyHash('é'), keyHash(Buffer.from([0xc3, 0xa9])));
});

test('uuid keys are read as PostgreSQL reads uuid text', () => {
  const f = byName('bloom_uuid');
  const canon = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11';
  const want = keyHash(canon, 0n, 'uuid');
  for (const ok of ['A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}',
    'a0eebc999c0b4ef8bb6d6bb9bd380a11', 'a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11',
    '{a0eebc999c0b4ef8bb6d6bb9bd380a11}', 'a0eebc99-9c0b4ef8-bb6d6bb9-bd380a11']) {
    assert.equal(keyHash(ok, 0n, 'uuid'), want, ok);
    assert.equal(f.containsUuid(ok), f.containsUuid(canon));
  }
  // each refused by SELECT '...'::uuid
  for (const bad of ['a0eebc99--9c0b-4ef8-bb6d-6bb9bd380a11', '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}', ' a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11 ', 'a0eebc9-99c0b-4ef8-bb6d-6bb9bd380a11',
    'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11-', '-a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1', '0x0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11a', 'a0eebc999c0b4ef8bb6d6bb9bd380a1-1',
    'a0eebc999c0b4ef8bb6d6bb9bd380a-11', '', '{}', 'g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11']) {
    assert.throws(() => f.containsUuid(bad), RangeError, bad);
  }
  assert.equal(f.containsUuid(Buffer.from(canon.replace(/-/g, ''), 'hex')), f.containsUuid(canon));
  assert.throws(() => f.containsUuid(new Uint8Array(15)), RangeError);
  assert.throws(() => f.containsUuid(42), TypeError);
});

test('float keys: -0 is 0, every NaN one key; only numbers', () => {
  const f = byName('bloom_float');
  assert.equal(f.containsFloat(-0), f.containsFloat(0));
  assert.equal(typeof f.containsFloat(NaN), 'boolean');
  assert.throws(() => f.containsFloat(1n), TypeError);
  assert.throws(() => f.containsFloat('1.5'), TypeError);
  // an integer-valued number is an integer key to contains(), a float key here
  assert.throws(() => f.contains(3), KeyClassError);
  assert.equal(typeof f.containsFloat(3), 'boolean');
});

test('key class errors are worded as the server\'s', () => {
  const f = byName('bloom_int');
  assert.throws(() => f.contains('x'), (e) => e instanceof KeyClassError && e instanceof TypeError &&
    e.message === 'bloom filter holds integer keys, not text keys' && e.code === 'BLOOMTYPE_KEY_CLASS');
  assert.throws(() => f.contains(Buffer.from('x')), /holds integer keys, not bytea keys/);
  assert.throws(() => f.containsUuid('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'), /not uuid keys/);
  assert.throws(() => f.containsFloat(1.5), /not float keys/);
  assert.throws(() => byName('counting_text_auto').contains(1), /^KeyClassError: counting bloom filter holds text keys, not integer keys$/);
  assert.throws(() => byName('cuckoo_float_compacted').contains(1), /cuckoo filter holds float keys, not integer keys/);
  assert.throws(() => byName('bloom_uuid').contains('x'), /holds uuid keys, not text keys/);
});

test('class "other": keys refused naming the type, hashes answered', () => {
  const v = filters.find((x) => x.name === 'bloom_other_date');
  const f = bt.load(Buffer.from(v.hex, 'hex'));
  assert.equal(f.keyClass, 'other');
  assert.equal(f.info().keyType, 1082);
  assert.throws(() => f.contains(1), (e) => e instanceof KeyClassError &&
    /holds date \(type OID 1082\) keys, not integer keys/.test(e.message) && /bloom_key_hash/.test(e.message));
  assert.throws(() => f.contains('2024-01-01'), KeyClassError);
  // a hash signed (as bloom_key_hash returns it) or unsigned is one key
  for (const [, key] of v.keys) {
    const h = BigInt(key);
    if (h < 0n) assert.equal(f.containsHash(h + (1n << 64n)), f.containsHash(h));
  }
  assert.equal(typeof f.containsHash(8058192378891986227n), 'boolean'); // '2024-01-01'::date
  assert.equal(f.containsHash(-1n), f.containsHash((1n << 64n) - 1n));
  assert.throws(() => f.containsHash(1n << 64n), RangeError);
  assert.throws(() => f.containsHash(-(1n << 63n) - 1n), RangeError);
  assert.throws(() => f.containsHash(5), TypeError);
});

test('class "none": every key absent, no class error', () => {
  for (const name of ['scalable_empty', 'agg_empty', 'counting_empty']) {
    const f = byName(name);
    assert.equal(f.keyClass, 'none');
    assert.equal(f.contains(1), false);
    assert.equal(f.contains('x'), false);
    assert.equal(f.contains(new Uint8Array(3)), false);
    assert.equal(f.containsUuid('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'), false);
    assert.equal(f.containsFloat(1.5), false);
    assert.equal(f.containsHash(12345n), false);
  }
});

test('an empty hash list with a key class: every type checks the class', () => {
  // as the server: every type keeps the list's class (countingbloom and
  // cuckoofilter make it a new filter of that class: cb_materialize,
  // cf_materialize)
  const v = filters.find((x) => x.name === 'agg_empty');
  const buf = Buffer.from(v.hex, 'hex');
  buf[7] = 2; // text
  const f = bt.BloomFilter.fromBytes(buf);
  assert.equal(f.contains('x'), false);
  assert.throws(() => f.contains(1), KeyClassError);
  for (const R of [bt.CountingBloomFilter, bt.CuckooFilter]) {
    const g = R.fromBytes(buf);
    assert.equal(g.contains('x'), false);
    assert.throws(() => g.contains(1), KeyClassError);
  }
  assert.ok(FormatError.prototype instanceof Error);
});

test('a light state that claims many blocks keeps only the blocks its hashes touch', () => {
  // kind 7, 8,388,559 blocks, capacity 1, no hashes: 64 bytes the server accepts
  const v = Buffer.alloc(64);
  v.write('BLMF', 0, 'latin1');
  v[4] = 4; v[5] = 7; v[6] = 1; v[7] = 1; v[12] = 7; v[13] = 9; v[14] = 2;
  v.writeBigUInt64LE(1n, 24);
  v.writeDoubleLE(0.01, 32);
  v.writeBigUInt64LE(8388559n, 48);
  const before = process.memoryUsage().arrayBuffers;
  const f = bt.BloomFilter.fromBytes(v);
  assert.ok(process.memoryUsage().arrayBuffers - before < 1e6, 'no plane of 512 MB');
  assert.equal(f.contains(1), false);
  // with hashes: the sparse layer answers as the dense one would
  const light = filters.find((x) => x.name === 'state_light');
  const w = Buffer.from(light.hex, 'hex');
  const dense = bt.BloomFilter.fromBytes(w);
  const grown = Buffer.from(w);
  grown.writeBigUInt64LE(grown.readBigUInt64LE(48) * 64n, 48); // blocks x 64: sparse
  const sparse = bt.BloomFilter.fromBytes(grown);
  let present = 0;
  for (let i = 1; i <= 100; i++) {
    assert.equal(dense.contains(i), true);
    assert.equal(sparse.contains(i), true); // every listed key is found
    present += sparse.contains(i + 100000) ? 1 : 0;
  }
  assert.ok(present < 10, `${present} of 100 absent keys present`);
});
