'use strict';
/* What the tests share: the vectors (found from this file's place) and probing by class */

const path = require('path');
const fs = require('fs');
const bt = require('..');

const VECTORS = path.resolve(__dirname, '..', '..', '..', 'test', 'vectors');

function readVectors(name) {
  return JSON.parse(fs.readFileSync(path.join(VECTORS, name), 'utf8'));
}

const READERS = {
  bloomfilter: bt.BloomFilter,
  countingbloom: bt.CountingBloomFilter,
  cuckoofilter: bt.CuckooFilter,
};

/* The float of a vector key: the IEEE 754 bits as 16 hex digits, big-endian */
function floatOf(hex) {
  return Buffer.from(hex, 'hex').readDoubleBE(0);
}

/* One probe of a filters.json key [class, key] */
function probe(f, cls, key) {
  switch (cls) {
    case 'int': return f.contains(BigInt(key));
    case 'text': return f.contains(key);
    case 'bytea': return f.contains(Buffer.from(key, 'hex'));
    case 'uuid': return f.containsUuid(key);
    case 'float': return f.containsFloat(floatOf(key));
    case 'hash': return f.containsHash(BigInt(key));
    default: throw new Error(`unknown key class ${cls}`);
  }
}

function answers(f, keys) {
  return keys.map(([cls, key]) => (probe(f, cls, key) ? '1' : '0')).join('');
}

/* A kind 2 value whose hashes in use (offset 56) are not zero: refused by the clients */
function isHashlistWithHashes(buf) {
  return buf.length >= 64 && buf[5] === 2 && buf.readBigUInt64LE(56) > 0n;
}

module.exports = { bt, readVectors, READERS, probe, answers, floatOf, isHashlistWithHashes };
