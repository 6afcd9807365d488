'use strict';
/*
 * test/vectors/hostile.json: the server's hostile regression values.  Each
 * reader accepts a value iff its type's input does (a kind 2 value with
 * hashes in use excepted: every client refuses it), load() iff any type
 * does; refusals are FormatErrors; where the server's answers for the
 * integer keys 1 to 16 are given, the reader gives the same.  Each suite's
 * refusals by its own type carry the server's errors, as many of each as
 * the suite's regression output (expected/*_hostile.out) counts.  And
 * every truncation of every filters.json vector is refused.
 */

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
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

/*
 * The table "with which errors" of expected/SUITE_hostile.out: the
 * server's message (or "accepted") -> how many of the suite's values its
 * type's bytea cast answered so
 */
function serverTally(suite) {
  const file = path.resolve(__dirname, '..', '..', '..', 'expected', `${suite}_hostile.out`);
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  let i = lines.findIndex((l) => l.startsWith('-- with which errors'));
  assert.ok(i >= 0, `${file}: no table of errors`);
  while (!/^-+\+/.test(lines[i])) i++;
  const tally = new Map();
  for (i++; !lines[i].startsWith('('); i++) {
    const [sqlstate, message, count] = lines[i].split('|').map((x) => x.trim());
    tally.set(sqlstate === 'accepted' ? 'accepted' : message, Number(count));
  }
  return tally;
}

const SUITE_TYPES = { bloom: 'bloomfilter', counting: 'countingbloom', cuckoo: 'cuckoofilter' };

for (const [suite, type] of Object.entries(SUITE_TYPES)) {
  test(`the ${suite} suite's errors are the server's, as many of each`, () => {
    const want = serverTally(suite);
    const got = new Map();
    for (const v of values.filter((x) => x.suite === suite)) {
      const buf = Buffer.from(v.hex, 'hex');
      // the clients' one exception counts as the server's answer
      const r = isHashlistWithHashes(buf) && v.accepted_by.includes(type) ? { value: true } :
        attempt(() => READERS[type].fromBytes(buf));
      const key = r.error ? r.error.message : 'accepted';
      got.set(key, (got.get(key) || 0) + 1);
    }
    const sorted = (m) => new Map([...m].sort());
    assert.deepEqual(sorted(got), sorted(want));
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
