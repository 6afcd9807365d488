'use strict';
/*
 * test/vectors/hostile.json: the server's hostile regression values.  Each
 * reader accepts a value iff its type's input does (a kind 2 value with
 * hashes in use excepted: every client refuses it), load() iff any type
 * does; refusals are FormatErrors; where the server's answers for the
 * integer keys 1 to 16 are given, the reader gives the same.  And every
 * truncation of every filters.json vector is refused.
 */

const test = require('node:test');
const assert = require('node:assert/strict');
const { bt, readVectors, READERS, isHashlistWithHashes } = require('./helpers');

const { values } = readVectors('hostile.json');
const TYPES = Object.keys(READERS);

function attempt(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    return { error };
  }
}

function keys1to16(f) {
  let s = '';
  for (let i = 1; i <= 16; i++) s += f.contains(i) ? '1' : '0';
  return s;
}

for (const suite of ['bloom', 'counting', 'cuckoo']) {
  test(`hostile values of the ${suite} suite`, () => {
    let checked = 0;
    for (const v of values.filter((x) => x.suite === suite)) {
      const buf = Buffer.from(v.hex, 'hex');
      const refused = isHashlistWithHashes(buf);
      const what = `${v.suite} #${v.id} (${v.why})`;
      for (const type of TYPES) {
        const want = v.accepted_by.includes(type) && !refused;
        const r = attempt(() => READERS[type].fromBytes(buf));
        if (r.error) {
          assert.ok(r.error instanceof bt.FormatError, `${what}: ${type} threw ${r.error}`);
          assert.equal(r.error.code, 'BLOOMTYPE_FORMAT');
          if (refused && v.accepted_by.includes(type)) {
            assert.equal(r.error.status, 'HASHLIST', what);
            assert.match(r.error.message, /union_agg/);
          }
        }
        assert.equal(!r.error, want, `${what}: ${type} ${r.error ? 'refused: ' + r.error.message : 'accepted'}`);
        if (r.value && v.answers[type] !== undefined) {
          assert.equal(keys1to16(r.value), v.answers[type], `${what}: ${type} answers`);
        }
        checked++;
      }
      const r = attempt(() => bt.load(buf));
      assert.equal(!r.error, v.accepted_by.length > 0 && !refused, `${what}: load`);
      if (r.error) assert.ok(r.error instanceof bt.FormatError, `${what}: load threw ${r.error}`);
      if (r.value && v.answers[r.value.type] !== undefined) {
        assert.equal(keys1to16(r.value), v.answers[r.value.type], `${what}: load answers`);
      }
    }
    assert.ok(checked > 0);
  });
}

test('the clients\' one exception is only kind 2 with hashes in use', () => {
  const refusedButAccepted = values.filter((v) => v.accepted_by.length > 0 &&
    isHashlistWithHashes(Buffer.from(v.hex, 'hex')));
  assert.ok(refusedButAccepted.length > 0);
  for (const v of refusedButAccepted) {
    const r = attempt(() => bt.load(Buffer.from(v.hex, 'hex')));
    assert.ok(r.error instanceof bt.FormatError);
    assert.match(r.error.message, /hash list/);
  }
});

test('every truncation of every vector is refused', () => {
  const { filters } = readVectors('filters.json');
  let n = 0;
  for (const v of filters) {
    const buf = Buffer.from(v.hex, 'hex');
    for (let len = 0; len < buf.length; len++) {
      const cut = buf.subarray(0, len);
      for (const type of TYPES) {
        const r = attempt(() => READERS[type].fromBytes(cut));
        assert.ok(r.error instanceof bt.FormatError, `${v.name} cut to ${len}: ${type}`);
      }
      const r = attempt(() => bt.load(cut));
      assert.ok(r.error instanceof bt.FormatError, `${v.name} cut to ${len}: load`);
      n++;
    }
  }
  assert.ok(n > 1000);
});

test('every vector with one byte more is refused', () => {
  const { filters } = readVectors('filters.json');
  for (const v of filters) {
    const buf = Buffer.concat([Buffer.from(v.hex, 'hex'), Buffer.alloc(1)]);
    const r = attempt(() => bt.load(buf));
    // a light state (kinds 7 and 8) takes whole 8-byte slots only
    assert.ok(r.error instanceof bt.FormatError, v.name);
  }
});
