'use strict';
/*
 * bloomtype: read the values of bloomtype's PostgreSQL types
 * (bloomfilter, countingbloom, cuckoofilter) and answer contains(key)
 * locally with exactly the server's answers.
 *
 *   const { BloomFilter, load } = require('bloomtype');
 *   const { rows } = await client.query("SELECT f::bytea AS f FROM filters WHERE name = 'users'");
 *   const f = BloomFilter.fromBytes(rows[0].f);
 *   f.contains(42);        // false: certainly absent; true: maybe present
 *   w.contains(42, { since: new Date(Date.now() - 3600e3) });   // a windowed filter's last hour
 *
 * IndexCopy (lib/sync.js) keeps a copy of an index's filter in step with
 * it by catch-ups (bloom_index_filter_at, bloom_index_changes).
 *
 * docs/FORMAT.md is the specification of the bytes; README.md "Key
 * encodings" of the keys.
 */

const { BloomFilter } = require('./bloom');
const { CountingBloomFilter } = require('./counting');
const { CuckooFilter } = require('./cuckoo');
const { FormatError, KeyClassError, WindowError } = require('./errors');
const { asBytes, parseHex } = require('./bytes');
const { C } = require('./header');
const { keyHash } = require('./keys');
const { Filter } = require('./filter');
const { IndexCopy } = require('./sync');

/*
 * The reader of a value's type, from its kind (byte 5) and version (byte
 * 4): kinds 1, 3, 4, 7, 9 and a version 1 hash list are bloomfilter's, 5
 * and 8 countingbloom's, 6 and a version 3 hash list cuckoofilter's
 * (docs/FORMAT.md "Which type reads which kind").  What no type reads is
 * refused by bloomfilter's checks.
 */
function readerFor(buf) {
  if (buf.length >= C.HEADER_SIZE && buf[0] === 0x42 && buf[1] === 0x4c &&
      buf[2] === 0x4d && buf[3] === 0x46) {
    switch (buf[5]) {
      case C.KIND_COUNTING:
      case C.KIND_SPARSE_COUNTING:
        return CountingBloomFilter;
      case C.KIND_CUCKOO:
        return CuckooFilter;
      case C.KIND_HASHLIST:
        return buf[4] === C.VERSION_3 ? CuckooFilter : BloomFilter;
      default:
        break;
    }
  }
  return BloomFilter;
}

/** A value of any of the three types, read by its type's reader */
function load(buf) {
  const bytes = asBytes(buf);
  return readerFor(bytes).fromBytes(bytes);
}

/** load() of the text form, \x and hex digits */
function fromHex(text) {
  const bytes = parseHex(text, 'bloomtype');
  return readerFor(bytes).fromBytes(bytes);
}

module.exports = {
  BloomFilter,
  CountingBloomFilter,
  CuckooFilter,
  Filter,
  IndexCopy,
  FormatError,
  KeyClassError,
  WindowError,
  load,
  fromHex,
  keyHash,
};
