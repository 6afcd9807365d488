'use strict';
/* What the tests share: the vectors (found from this file's place) and probing by class */

const path = require('path');
const fs = require('fs');
const bt = require('..');

const VECTORS = path.resolve(__dirname, '..', '..', '..', 'test', 'vectors');

/*
 * A vectors file; the times of a windowed filter's "since" entries
 * ({"at": microseconds}) quoted before parsing, so that each is read
 * exactly: BigInt(s.at)
 */
function readVectors(name) {
  const text = fs.readFileSync(path.join(VECTORS, name), 'utf8');
  return JSON.parse(text.replace(/("at"\s*:\s*)(-?[0-9]+)(?=\s*[,}])/g, '$1"$2"'));
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

/* One probe of a filters.json key [class, key], with the lookup's options */
function probe(f, cls, key, opts) {
  switch (cls) {
    case 'int': return f.contains(BigInt(key), opts);
    case 'text': return f.contains(key, opts);
    case 'bytea': return f.contains(Buffer.from(key, 'hex'), opts);
    case 'uuid': return f.containsUuid(key, opts);
    case 'float': return f.containsFloat(floatOf(key), opts);
    case 'hash': return f.containsHash(BigInt(key), opts);
    default: throw new Error(`unknown key class ${cls}`);
  }
}

function answers(f, keys, opts) {
  return keys.map(([cls, key]) => (probe(f, cls, key, opts) ? '1' : '0')).join('');
}

/* A kind 2 value whose hashes in use (offset 56) are not zero: refused by the clients */
function isHashlistWithHashes(buf) {
  return buf.length >= 64 && buf[5] === 2 && buf.readBigUInt64LE(56) > 0n;
}

module.exports = { bt, readVectors, READERS, probe, answers, floatOf, isHashlistWithHashes };
