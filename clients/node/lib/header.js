'use strict';
/*
 * The common 64-byte header of every value (docs/FORMAT.md, the first
 * table; src/core/format.c decode_common and check_common), and the
 * constants of the format.  All integers are little-endian.
 */

const { FormatError } = require('./errors');
const { KEY_OTHER } = require('./keys');

const C = Object.freeze({
  HEADER_SIZE: 64,
  VERSION_1: 1,
  VERSION_2: 2, // kind 4, flags
  VERSION_3: 3, // kinds 5, 6, hash list with a capacity
  VERSION_4: 4, // kinds 7, 8
  VERSION_5: 5, // kind 9
  KIND_BLOCKED: 1,
  KIND_HASHLIST: 2,
  KIND_BUFFERED: 3,
  KIND_SCALABLE: 4,
  KIND_COUNTING: 5,
  KIND_CUCKOO: 6,
  KIND_SPARSE: 7,
  KIND_SPARSE_COUNTING: 8,
  KIND_WINDOWED: 9,
  FLAG_NONSCALING: 1,
  FLAG_SCALABLE_STATE: 2,
  HASH_XXH3_64: 1,
  BLOCK_LOG2: 9,
  BLOCK_BITS: 512,
  BLOCK_BYTES: 64,
  MAX_HASHES: 32,
  MAX_LAYERS: 32,
  LAYER_DESC_SIZE: 32,
  PENDING_SLOTS: 256,
  MAX_BYTES: 0x1ffffc00, // 536,869,888
  MAX_BLOCKS: Math.floor((0x1ffffc00 - 64) / 64), // 8,388,591
  MAX_BUFFERED_BLOCKS: Math.floor((0x1ffffc00 - 64 - 256 * 8) / 64), // 8,388,559
  MAX_SLOTS: Math.floor((0x1ffffc00 - 64) / 8),
  MIN_FPR: 1e-12,
  MIN_SCALABLE_FPR: 1e-9,
  MAX_FPR: 0.5,
  MAX_EXPANSION: 16,
  COUNTING_PLANE_BYTES: 256,
  COUNTING_BLOCK_BYTES: 320,
  COUNTING_MAX_BLOCKS: Math.floor((0x1ffffc00 - 64) / 320), // 1,677,718
});

const KIND_NAMES = ['unknown', 'blocked', 'hash list', 'buffered', 'scalable', 'counting',
  'cuckoo', 'light state', 'light counting state', 'windowed'];

/*
 * The header's fields.  64-bit words are BigInts here (the checks compare
 * them exactly, as the C code compares uint64_t); the kinds' decoders turn
 * the bounded ones into numbers.
 */
function readHeader(buf, type) {
  if (buf.length < C.HEADER_SIZE) throw new FormatError(type, 'SHORT');
  if (buf[0] !== 0x42 || buf[1] !== 0x4c || buf[2] !== 0x4d || buf[3] !== 0x46) {
    throw new FormatError(type, 'MAGIC');
  }
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.length);
  return {
    dv,
    version: buf[4],
    kind: buf[5],
    hash: buf[6],
    keyClass: buf[7],
    keyType: dv.getUint32(8, true),
    k: buf[12],
    blockLog2: buf[13],
    flags: dv.getUint16(14, true),
    seed: dv.getBigUint64(16, true),
    capacity: dv.getBigUint64(24, true),
    fpr: dv.getFloat64(32, true),
    items: dv.getBigUint64(40, true),
    w48: dv.getBigUint64(48, true),
    w56: dv.getBigUint64(56, true),
  };
}

/* check_common: the hash algorithm and the key class */
function checkCommon(h, type) {
  if (h.hash !== C.HASH_XXH3_64) throw new FormatError(type, 'HASH');
  if (h.keyClass > KEY_OTHER || (h.keyClass === KEY_OTHER) !== (h.keyType !== 0)) {
    throw new FormatError(type, 'KEYCLASS');
  }
}

/* bloom_fpr_valid: 1e-12 <= fpr <= 0.5 (false for NaN) */
function fprValid(fpr) {
  return fpr >= C.MIN_FPR && fpr <= C.MAX_FPR;
}

/* Adds without passing 2^64 - 1 (bloom_sat_add) */
const U64_MAX = (1n << 64n) - 1n;
function satAdd(a, b) {
  const s = a + b;
  return s > U64_MAX ? U64_MAX : s;
}

module.exports = { C, KIND_NAMES, readHeader, checkCommon, fprValid, satAdd, U64_MAX };
