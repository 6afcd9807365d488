'use strict';
/*
 * CountingBloomFilter: what the countingbloom type's input accepts
 * (cb_decode and cb_validate, src/counting/cb_value.c; src/core/counting.c
 * and counting_light.c; docs/FORMAT.md "Kind 5: the counting layout"):
 *
 *   kind 5  counting filter (version 3): a presence plane, bit for bit a
 *           kind 1 filter of the same k and blocks, then a plane of 4-bit
 *           counters; a presence bit must be set exactly when its counter
 *           is not zero.  A lookup reads the presence plane only.
 *   kind 8  light state (version 4): answers as a presence plane of the
 *           header's k and blocks with its hashes' bits set
 *   kind 2  hash list, version 1: only an empty one (lib/hashlist.js)
 */

const { FormatError } = require('./errors');
const { C, readHeader, checkCommon, fprValid } = require('./header');
const { copyOf } = require('./bytes');
const { decodeHashlistAsBloom, refuseHashes, hashlistInfo, decodeLightSlots } = require('./hashlist');
const { reader } = require('./filter');

const T = 'countingbloom';

/* counting_check_fields: what kinds 5 and 8 check alike */
function checkFields(h) {
  if (h.flags !== 0) throw new FormatError(T, 'FLAGS');
  if (!fprValid(h.fpr)) throw new FormatError(T, 'PARAMS');
  if (h.k < 1 || h.k > C.MAX_HASHES || h.blockLog2 !== C.BLOCK_LOG2 ||
      h.w48 < 1n || h.w48 > BigInt(C.COUNTING_MAX_BLOCKS)) {
    throw new FormatError(T, 'GEOMETRY');
  }
  if (h.capacity < 1n || h.capacity > h.w48 * BigInt(C.BLOCK_BITS)) {
    throw new FormatError(T, 'PARAMS');
  }
}

/*
 * counting_validate_deep: every presence bit is set exactly when its
 * counter (the nibble of byte 256 b + j / 2 of the counter plane, low
 * for even j) is not zero.  Values from outside are checked so.
 */
function checkCounters(buf, nblocks) {
  const pres = C.HEADER_SIZE;
  const ctr = C.HEADER_SIZE + 64 * nblocks;
  for (let b = 0; b < nblocks; b++) {
    const p = pres + 64 * b;
    const c = ctr + C.COUNTING_PLANE_BYTES * b;
    for (let byte = 0; byte < 64; byte++) {
      // presence byte `byte` holds cells 8 byte .. 8 byte + 7: counter bytes c + 4 byte .. + 3
      const q = c + 4 * byte;
      let want = 0;
      for (let i = 0; i < 4; i++) {
        const v = buf[q + i];
        if (v & 0x0f) want |= 1 << (2 * i);
        if (v & 0xf0) want |= 2 << (2 * i);
      }
      if (buf[p + byte] !== want) throw new FormatError(T, 'CONTENT');
    }
  }
}

function decodeCounting(h, buf) {
  if (h.version !== C.VERSION_3) throw new FormatError(T, 'VERSION');
  checkFields(h);
  const nblocks = Number(h.w48);
  if (buf.length !== C.HEADER_SIZE + C.COUNTING_BLOCK_BYTES * nblocks) {
    throw new FormatError(T, 'LENGTH');
  }
  checkCounters(buf, nblocks);
  const bits = copyOf(buf, C.HEADER_SIZE, C.HEADER_SIZE + 64 * nblocks);
  return {
    layers: [{ bits, off: 0, nblocks, k: h.k }],
    info: { k: h.k, blocks: nblocks, removes: Number(h.w56) },
  };
}

/* counting_sparse_decode (counting_light.c) */
function decodeLight(h, buf) {
  if (h.version !== C.VERSION_4) throw new FormatError(T, 'VERSION');
  checkFields(h);
  // the counting filter it stands for, of which a lookup reads the presence plane
  return decodeLightSlots(h, buf, T, (Number(h.w48) * C.COUNTING_BLOCK_BYTES) / 8);
}

/* cb_decode (and cb_validate's deep check of kind 5) */
function decode(buf) {
  const h = readHeader(buf, T);
  checkCommon(h, T);
  switch (h.kind) {
    case C.KIND_COUNTING:
      return { h, ...decodeCounting(h, buf) };
    case C.KIND_HASHLIST:
      decodeHashlistAsBloom(h, buf.length, T);
      refuseHashes(h, T);
      // the server makes an empty hash list a new counting filter of the
      // list's key class (cb_materialize): every key of it is absent, a key
      // of another class is refused
      return { h, layers: [], info: hashlistInfo(h) };
    case C.KIND_SPARSE_COUNTING:
      return { h, ...decodeLight(h, buf) };
    default:
      if (h.kind >= C.KIND_BLOCKED && h.kind <= C.KIND_WINDOWED) {
        throw new FormatError(T, 'OTHERTYPE');
      }
      throw new FormatError(T, 'KIND');
  }
}

/** A countingbloom value, read and checked as the server reads it */
class CountingBloomFilter extends reader(T, decode) {}

module.exports = { CountingBloomFilter, decode };
