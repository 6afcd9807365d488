'use strict';
/*
 * test/vectors/filters.json: every filter loads with its type's reader,
 * with load() and from its text form, and answers every key as the
 * server did; a windowed filter also answers every key since each of its
 * "since" times as the server did.
 */

const test = require('node:test');
const assert = require('node:assert/strict');
const { bt, readVectors, READERS, answers, isHashlistWithHashes } = require('./helpers');

const vectors = readVectors('filters.json');
const { filters } = vectors;

test('the package is of the extension version the vectors were made by', () => {
  const { version } = require('../package.json');
  assert.equal(version.split('.').slice(0, 2).join('.'), vectors.bloomtype);
  assert.equal(readVectors('hostile.json').bloomtype, vectors.bloomtype);
});

test('filters.json has filters of every type', () => {
  const types = new Set(filters.map((f) => f.type));
  assert.deepEqual([...types].sort(), ['bloomfilter', 'countingbloom', 'cuckoofilter']);
});

for (const v of filters) {
  test(`${v.name}: ${v.why}`, () => {
    const buf = Buffer.from(v.hex, 'hex');
    assert.equal(isHashlistWithHashes(buf), false);
    const f = READERS[v.type].fromBytes(buf);
    assert.equal(f.type, v.type);
    assert.equal(answers(f, v.keys), v.expect);
    const g = bt.load(buf);
    assert.ok(g instanceof READERS[v.type]);
    assert.equal(answers(g, v.keys), v.expect);
    // text form, a Uint8Array that is a view into a larger buffer, an ArrayBuffer
    assert.equal(answers(READERS[v.type].fromHex('\\x' + v.hex), v.keys), v.expect);
    assert.equal(answers(bt.fromHex('\\x' + v.hex.toUpperCase()), v.keys), v.expect);
    const big = new Uint8Array(buf.length + 11);
    big.set(buf, 5);
    assert.equal(answers(bt.load(big.subarray(5, 5 + buf.length)), v.keys), v.expect);
    const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length);
    assert.equal(answers(bt.load(ab), v.keys), v.expect);
    const info = f.info();
    assert.equal(info.type, v.type);
    assert.equal(info.kind, v.kind);
    assert.equal(info.formatVersion, v.version);
    assert.equal(info.bytes, buf.length);
    assert.equal(v.since !== undefined, v.kind === 9);
    for (const s of v.since || []) {
      const at = BigInt(s.at);
      const what = `${v.name} since ${at}`;
      assert.equal(answers(f, v.keys, { since: at }), s.expect, what);
      assert.equal(answers(g, v.keys, { since: at }), s.expect, `${what}: load`);
      if (at % 1000n === 0n) {
        // the same time as a Date (milliseconds)
        assert.equal(answers(f, v.keys, { since: new Date(Number(at / 1000n)) }), s.expect,
          `${what}: Date`);
      }
      if (f.keyClass !== 'none' && v.keys.every(([cls]) => cls === v.keys[0][0] && cls !== 'uuid' &&
          cls !== 'float' && cls !== 'hash')) {
        const list = v.keys.map(([cls, key]) => (cls === 'int' ? BigInt(key) :
          cls === 'bytea' ? Buffer.from(key, 'hex') : key));
        assert.equal(f.containsMany(list, { since: at }).map((b) => (b ? '1' : '0')).join(''),
          s.expect, `${what}: containsMany`);
      }
    }
  });
}

test('a filter does not change when the caller\'s buffer does', () => {
  const v = filters.find((x) => x.name === 'bloom_int');
  const buf = Buffer.from(v.hex, 'hex');
  const f = bt.BloomFilter.fromBytes(buf);
  buf.fill(0, 64);
  assert.equal(answers(f, v.keys), v.expect);
});

test('containsMany answers as contains, in order', () => {
  const v = filters.find((x) => x.name === 'bloom_text');
  const f = bt.load(Buffer.from(v.hex, 'hex'));
  const keys = v.keys.map(([, k]) => k);
  assert.equal(f.containsMany(keys).map((b) => (b ? '1' : '0')).join(''), v.expect);
  assert.deepEqual(f.containsMany(new Set(keys.slice(0, 3))), f.containsMany(keys.slice(0, 3)));
  assert.deepEqual(f.containsMany([]), []);
  assert.throws(() => f.containsMany(42), TypeError);
  assert.throws(() => f.containsMany('abc'), TypeError);
  assert.throws(() => f.containsMany(['a', 1]), bt.KeyClassError);
});

test('the text form is read as the server reads it', () => {
  const v = filters.find((x) => x.name === 'bloom_v1');
  for (const bad of ['', '\\', 'x' + v.hex, '\\X' + v.hex, '\\x' + v.hex + '0',
    '\\x' + v.hex.slice(0, 10) + 'zz' + v.hex.slice(12), '\\x ' + v.hex.slice(1),
    ' \\x' + v.hex, '\\x' + v.hex + '\n']) {
    assert.throws(() => bt.BloomFilter.fromHex(bad), (e) => e instanceof bt.FormatError &&
      e.code === 'BLOOMTYPE_FORMAT', JSON.stringify(bad.slice(0, 12)));
    assert.throws(() => bt.fromHex(bad), bt.FormatError);
  }
  assert.throws(() => bt.fromHex(42), TypeError);
  assert.throws(() => bt.load('\\x' + v.hex), TypeError);
  assert.throws(() => bt.load([1, 2, 3]), TypeError);
});
