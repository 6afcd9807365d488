'use strict';
/*
 * Keys: how a JavaScript value becomes the bytes the server hashes, and
 * the hash.  README.md "Key encodings" is the specification:
 *
 *   integer  smallint, integer, bigint: the value as 8 bytes, little-endian
 *            two's complement (one key space for all three)
 *   text     the string's UTF-8 bytes (the database must be UTF8 for a
 *            client's answers to match the server's)
 *   bytea    the bytes
 *   uuid     its 16 bytes
 *   float    real, double precision: the double, little-endian; -0 as 0,
 *            every NaN as 0x7FF8000000000000 (a real widens exactly)
 *
 * hashed with XXH3-64 and the filter's 64-bit seed (src/core/hash.h).  The
 * hash comes from @node-rs/xxhash as a BigInt and is split into two
 * unsigned 32-bit halves for the lookup (lib/u64.js); the functions below
 * leave them in u64.out.
 */

const { xxh3 } = require('@node-rs/xxhash');
const u64 = require('./u64');

/* Key classes, as header byte 7 holds them (src/core/format.h) */
const KEY_NONE = 0;
const KEY_INTEGER = 1;
const KEY_TEXT = 2;
const KEY_BYTEA = 3;
const KEY_UUID = 4;
const KEY_FLOAT = 5;
const KEY_OTHER = 6;
const KEY_CLASS_NAMES = ['none', 'integer', 'text', 'bytea', 'uuid', 'float', 'other'];

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

/*
 * Scratch space for the 8-byte keys and for splitting hashes: typed-array
 * views on little-endian machines (a DataView call costs ten times as
 * much), DataView on big-endian ones.
 */
const LE = require('os').endianness() === 'LE';
const keyBuf = new Uint8Array(8);
const keyWords = new Uint32Array(keyBuf.buffer);
const keyDouble = new Float64Array(keyBuf.buffer);
const keyView = new DataView(keyBuf.buffer);
const hashBig = new BigUint64Array(1);
const hashWords = new Uint32Array(hashBig.buffer);
const hashView = new DataView(hashBig.buffer);

/* Splits the BigInt hash h (taken mod 2^64) into u64.out */
function split(h) {
  if (LE) {
    hashBig[0] = h;
    u64.out.lo = hashWords[0];
    u64.out.hi = hashWords[1];
  } else {
    hashView.setBigUint64(0, h, true);
    u64.out.lo = hashView.getUint32(0, true);
    u64.out.hi = hashView.getUint32(4, true);
  }
}

/* Writes the 64-bit little-endian word (hi, lo) into keyBuf */
function putWords(hi, lo) {
  if (LE) {
    keyWords[0] = lo;
    keyWords[1] = hi;
  } else {
    keyView.setUint32(0, lo, true);
    keyView.setUint32(4, hi, true);
  }
}

/*
 * The seed as the hash function takes it: an unsigned 64-bit BigInt.
 * (@node-rs/xxhash reads a negative BigInt as its magnitude and 2^64 as 0,
 * so a seed is always passed in [0, 2^64).)
 */
function seedOf(seed) {
  if (typeof seed === 'number' && Number.isSafeInteger(seed)) seed = BigInt(seed);
  if (typeof seed !== 'bigint') {
    throw new TypeError('a seed is a bigint (signed or unsigned 64-bit)');
  }
  if (seed < INT64_MIN || seed > UINT64_MAX) {
    throw new RangeError(`seed ${seed} is out of the 64-bit range`);
  }
  return BigInt.asUintN(64, seed);
}

/* ---------------------------------------------------------------------
 * Encodings.  Each checks its value and throws TypeError or RangeError;
 * hash* functions leave the hash's halves in u64.out.
 * ---------------------------------------------------------------------
 */

/* A number as an integer key: a safe integer, else an error */
function checkIntNumber(n) {
  if (!Number.isInteger(n)) {
    throw new TypeError(
      `${n} is not an integer key: use containsFloat() for float keys`);
  }
  if (!Number.isSafeInteger(n)) {
    throw new RangeError(
      `${n} is beyond Number.MAX_SAFE_INTEGER and may have lost digits: pass integer keys this large as a bigint`);
  }
}

function hashIntNumber(n, seed) {
  // n is a safe integer: its two's complement halves without BigInt
  putWords(Math.floor(n / 4294967296) >>> 0, n >>> 0);
  split(xxh3.xxh64(keyBuf, seed));
}

function checkIntBig(v) {
  if (v < INT64_MIN || v > INT64_MAX) {
    throw new RangeError(`${v} is out of range for an integer key (bigint, 64-bit signed)`);
  }
}

function hashIntBig(v, seed) {
  keyView.setBigInt64(0, v, true);
  split(xxh3.xxh64(keyBuf, seed));
}

/*
 * Text: UTF-8.  A string with a lone surrogate has no UTF-8 form, and
 * PostgreSQL text cannot hold NUL: the server refuses both, so does this.
 */
const hasWellFormed = typeof String.prototype.isWellFormed === 'function';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function checkText(s) {
  if (hasWellFormed ? !s.isWellFormed() : LONE_SURROGATE.test(s)) {
    throw new RangeError('a text key with a lone surrogate has no UTF-8 form');
  }
  if (s.indexOf('\0') !== -1) {
    throw new RangeError('a text key cannot contain NUL (U+0000): PostgreSQL text cannot hold it');
  }
}

function hashText(s, seed) {
  // @node-rs/xxhash hashes a string's UTF-8 bytes, without a Buffer here
  split(xxh3.xxh64(s, seed));
}

function hashBytes(b, seed) {
  split(xxh3.xxh64(b, seed));
}

/*
 * A uuid as text, read as PostgreSQL's uuid input reads it
 * (string_to_uuid in src/backend/utils/adt/uuid.c): 32 hex digits, upper
 * or lower case, optionally in braces, with at most one hyphen after any
 * group of four digits but the last; nothing else, no spaces.
 */
function hexDigit(c) {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

const uuidScratch = new Uint8Array(16);

/* The uuid's 16 bytes, in a scratch array (copy them to keep them) */
function parseUuid(s) {
  if (typeof s !== 'string') {
    throw new TypeError('a uuid key is a string (or its 16 bytes as a Uint8Array)');
  }
  const bytes = uuidScratch;
  let p = 0;
  const braces = s.charCodeAt(0) === 123; // '{'
  if (braces) p++;
  for (let i = 0; i < 16; i++) {
    const hi = p < s.length ? hexDigit(s.charCodeAt(p)) : -1;
    const lo = p + 1 < s.length ? hexDigit(s.charCodeAt(p + 1)) : -1;
    if (hi < 0 || lo < 0) throw uuidSyntax(s);
    bytes[i] = (hi << 4) | lo;
    p += 2;
    if (s.charCodeAt(p) === 45 && (i % 2) === 1 && i < 15) p++; // '-'
  }
  if (braces) {
    if (s.charCodeAt(p) !== 125) throw uuidSyntax(s); // '}'
    p++;
  }
  if (p !== s.length) throw uuidSyntax(s);
  return bytes;
}

function uuidSyntax(s) {
  return new RangeError(`invalid input syntax for type uuid: ${JSON.stringify(s)}`);
}

/* The uuid's 16 bytes, from text or bytes */
function uuidBytes(u) {
  if (u instanceof Uint8Array) {
    if (u.length !== 16) throw new RangeError(`a uuid is 16 bytes, not ${u.length}`);
    return u;
  }
  return parseUuid(u);
}

/* Floats: one double, little-endian, -0 as 0, every NaN as 0x7FF8000000000000 */
function hashFloat(x, seed) {
  if (typeof x !== 'number') {
    throw new TypeError('a float key is a number');
  }
  if (x !== x) {
    putWords(0x7ff80000, 0);
  } else if (LE) {
    keyDouble[0] = x === 0 ? 0 : x;
  } else {
    keyView.setFloat64(0, x === 0 ? 0 : x, true);
  }
  split(xxh3.xxh64(keyBuf, seed));
}

/* A 64-bit hash given by the caller (bloom_key_hash's, signed or unsigned) */
function checkHash(h) {
  if (typeof h !== 'bigint') {
    throw new TypeError('a hash is a bigint (or its decimal string), as bloom_key_hash returns it');
  }
  if (h < INT64_MIN || h > UINT64_MAX) {
    throw new RangeError(`hash ${h} is out of the 64-bit range`);
  }
}

/*
 * The class of a key given to contains(): number (a safe integer) and
 * bigint are integer keys, strings text, Uint8Array (and Buffer) bytea.
 * Anything else is a TypeError (booleans too: PostgreSQL's boolean is a
 * key of class "other", which a client cannot encode).
 */
function classOf(key) {
  switch (typeof key) {
    case 'number':
      checkIntNumber(key);
      return KEY_INTEGER;
    case 'bigint':
      checkIntBig(key);
      return KEY_INTEGER;
    case 'string':
      checkText(key);
      return KEY_TEXT;
    case 'object':
      if (key instanceof Uint8Array) return KEY_BYTEA;
      break;
    default:
      break;
  }
  throw new TypeError(
    `${describe(key)} is not a key: use a number (safe integer) or bigint, a string, ` +
    'a Uint8Array, or containsUuid(), containsFloat(), containsHash()');
}

function describe(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return `an object (${v.constructor ? v.constructor.name : 'no prototype'})`;
  return `a ${typeof v} (${String(v)})`;
}

/* Hashes a key of the class classOf gave into u64.out */
function hashKey(key, cls, seed) {
  switch (cls) {
    case KEY_INTEGER:
      if (typeof key === 'number') hashIntNumber(key, seed);
      else hashIntBig(key, seed);
      break;
    case KEY_TEXT:
      hashText(key, seed);
      break;
    default:
      hashBytes(key, seed);
      break;
  }
}

/*
 * keyHash(key, seed = 0n, keyClass): the key's hash as bloom_key_hash(key,
 * seed) returns it, a signed 64-bit bigint.  keyClass ('integer', 'text',
 * 'bytea', 'uuid' or 'float') is needed for uuids and floats only: without
 * it the class follows the key's JavaScript type as for contains().
 */
const CLASS_BY_NAME = { integer: KEY_INTEGER, int: KEY_INTEGER, text: KEY_TEXT,
  bytea: KEY_BYTEA, uuid: KEY_UUID, float: KEY_FLOAT };

function keyHash(key, seed = 0n, keyClass = undefined) {
  const s = seedOf(seed);
  let cls;
  if (keyClass === undefined) {
    cls = classOf(key);
  } else {
    cls = CLASS_BY_NAME[keyClass];
    if (cls === undefined) {
      throw new TypeError(`unknown key class ${JSON.stringify(keyClass)}: integer, text, bytea, uuid or float`);
    }
  }
  switch (cls) {
    case KEY_UUID:
      hashBytes(uuidBytes(key), s);
      break;
    case KEY_FLOAT:
      hashFloat(key, s);
      break;
    default:
      if (keyClass !== undefined && classOf(key) !== cls) {
        throw new TypeError(`${describe(key)} is not a key of class ${keyClass}`);
      }
      hashKey(key, cls, s);
      break;
  }
  return BigInt.asIntN(64, u64.toBig(u64.out.hi, u64.out.lo));
}

module.exports = {
  KEY_NONE, KEY_INTEGER, KEY_TEXT, KEY_BYTEA, KEY_UUID, KEY_FLOAT, KEY_OTHER,
  KEY_CLASS_NAMES, INT64_MIN, INT64_MAX, UINT64_MAX,
  seedOf, classOf, hashKey, hashIntNumber, hashIntBig, hashText, hashBytes,
  hashFloat, uuidBytes, parseUuid, checkHash, split, keyHash, describe,
};
