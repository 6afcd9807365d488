'use strict';
/*
 * BloomFilter: what the bloomfilter type's input accepts (bloom_decode,
 * src/core/kinds.c and format.c, and the kinds' decoders in
 * src/core/blocked.[ch], hashlist.c, aggstate.c, scalable.c, sparse.c and
 * windowed.c; docs/FORMAT.md):
 *
 *   kind 1  blocked filter (version 1, or 2 with flag NONSCALING)
 *   kind 2  hash list, version 1: only an empty one (lib/hashlist.js)
 *   kind 3  blocked filter with pending hashes (version 1, or 2 with flag
 *           SCALABLE_STATE): answers as kind 1 with the pending hashes' bits set
 *   kind 4  scalable filter (version 2): layers of blocked filters
 *   kind 7  light state (version 4): answers as the kind 1 filter of its k
 *           and blocks with its hashes' bits set
 *   kind 9  windowed filter (version 5): slices of time, each a blocked
 *           filter; contains(key, { since }) asks the later ones (lib/windowed.js)
 *
 * The bits are copied: the filter does not change if the caller's buffer does.
 */

const { FormatError } = require('./errors');
const { C, readHeader, checkCommon, fprValid, satAdd } = require('./header');
const { copyOf } = require('./bytes');
const { setHashes } = require('./blocked');
const { decodeHashlistAsBloom, refuseHashes, hashlistInfo, decodeLightSlots } = require('./hashlist');
const { decodeWindowed } = require('./windowed');
const { reader } = require('./filter');

const T = 'bloomfilter';

/* bloom_validate_rate_geometry (blocked.h), kinds 1, 3 and 7 */
function checkRateGeometry(h, type) {
  if (!fprValid(h.fpr) ||
      ((h.flags & C.FLAG_SCALABLE_STATE) && h.fpr < C.MIN_SCALABLE_FPR)) {
    throw new FormatError(type, 'PARAMS');
  }
  if (h.k < 1 || h.k > C.MAX_HASHES || h.blockLog2 !== C.BLOCK_LOG2 ||
      h.w48 < 1n || h.w48 > BigInt(C.MAX_BLOCKS)) {
    throw new FormatError(type, 'GEOMETRY');
  }
}

/* bloom_validate_bits: flags (none in version 1, v2Flag in version 2), rate, geometry */
function checkBits(h, v2Flag) {
  if (h.flags !== (h.version === C.VERSION_1 ? 0 : v2Flag)) throw new FormatError(T, 'FLAGS');
  checkRateGeometry(h, T);
}

/* bloom_validate_fill: the capacity the blocks hold, and the length */
function checkFill(h, len, size) {
  if (h.capacity < 1n || h.capacity > h.w48 * BigInt(C.BLOCK_BITS)) {
    throw new FormatError(T, 'PARAMS');
  }
  if (len !== size) throw new FormatError(T, 'LENGTH');
}

function decodeBlocked(h, buf) {
  checkBits(h, C.FLAG_NONSCALING);
  if (h.w56 !== 0n) throw new FormatError(T, 'FLAGS');
  const nblocks = Number(h.w48);
  checkFill(h, buf.length, C.HEADER_SIZE + 64 * nblocks);
  const bits = copyOf(buf, C.HEADER_SIZE);
  return {
    layers: [{ bits, off: 0, nblocks, k: h.k }],
    info: { k: h.k, blocks: nblocks, nonscaling: h.flags === C.FLAG_NONSCALING },
  };
}

function decodeBuffered(h, buf) {
  checkBits(h, C.FLAG_SCALABLE_STATE);
  if (h.w48 > BigInt(C.MAX_BUFFERED_BLOCKS)) throw new FormatError(T, 'GEOMETRY');
  if (h.w56 > BigInt(C.PENDING_SLOTS) || h.items < h.w56) throw new FormatError(T, 'COUNT');
  const nblocks = Number(h.w48);
  checkFill(h, buf.length, C.HEADER_SIZE + 64 * nblocks + 8 * C.PENDING_SLOTS);
  const npending = Number(h.w56);
  const bits = copyOf(buf, C.HEADER_SIZE, C.HEADER_SIZE + 64 * nblocks);
  setHashes(bits, nblocks, h.k, buf, C.HEADER_SIZE + 64 * nblocks, npending);
  return {
    layers: [{ bits, off: 0, nblocks, k: h.k }],
    info: { k: h.k, blocks: nblocks, pendingHashes: npending,
      scalableState: h.flags === C.FLAG_SCALABLE_STATE },
  };
}

/* scalable_decode (scalable.c) */
function decodeScalable(h, buf) {
  const len = buf.length;
  if (h.version === C.VERSION_1) throw new FormatError(T, 'KIND');
  if (h.flags !== 0) throw new FormatError(T, 'FLAGS');
  if (h.k !== 0 || h.blockLog2 !== C.BLOCK_LOG2 || h.w48 < 1n || h.w48 > BigInt(C.MAX_LAYERS)) {
    throw new FormatError(T, 'GEOMETRY');
  }
  if (h.w56 < 1n || h.w56 > BigInt(C.MAX_EXPANSION) || h.capacity < 1n ||
      !(fprValid(h.fpr) && h.fpr >= C.MIN_SCALABLE_FPR)) {
    throw new FormatError(T, 'PARAMS');
  }
  const nlayers = Number(h.w48);
  const expansion = h.w56;
  if (len < C.HEADER_SIZE + nlayers * C.LAYER_DESC_SIZE) throw new FormatError(T, 'LENGTH');
  const dv = h.dv;
  const descs = [];
  let total = 0;
  let items = 0n;
  for (let i = 0; i < nlayers; i++) {
    const d = C.HEADER_SIZE + i * C.LAYER_DESC_SIZE;
    const nblocks = dv.getBigUint64(d, true);
    const capacity = dv.getBigUint64(d + 8, true);
    const nitems = dv.getBigUint64(d + 16, true);
    const k = buf[d + 24];
    if (k < 1 || k > C.MAX_HASHES || nblocks < 1n || nblocks > BigInt(C.MAX_BLOCKS - total)) {
      throw new FormatError(T, 'GEOMETRY');
    }
    for (let j = 25; j < C.LAYER_DESC_SIZE; j++) {
      if (buf[d + j] !== 0) throw new FormatError(T, 'FLAGS');
    }
    let expect = h.capacity;
    if (i > 0) {
      // layer_after: the previous layer's capacity times the expansion, no overflow
      expect = descs[i - 1].capacityBig * expansion;
      if (expect >= (1n << 64n)) throw new FormatError(T, 'PARAMS');
    }
    if (capacity !== expect || capacity > nblocks * BigInt(C.BLOCK_BITS)) {
      throw new FormatError(T, 'PARAMS');
    }
    total += Number(nblocks);
    items = satAdd(items, nitems);
    descs.push({ nblocks: Number(nblocks), capacityBig: capacity, nitems, k });
  }
  if (items !== h.items) throw new FormatError(T, 'COUNT');
  const head = C.HEADER_SIZE + nlayers * C.LAYER_DESC_SIZE;
  if (len > C.MAX_BYTES || len !== head + 64 * total) throw new FormatError(T, 'LENGTH');
  const bits = copyOf(buf, head);
  const layers = [];
  let off = 0;
  for (const d of descs) {
    layers.push({ bits, off, nblocks: d.nblocks, k: d.k });
    off += 64 * d.nblocks;
  }
  return {
    layers,
    info: {
      expansion: Number(expansion),
      layers: descs.map((d) => ({ blocks: d.nblocks, capacity: Number(d.capacityBig),
        items: Number(d.nitems), k: d.k })),
    },
  };
}

/* sparse_decode (sparse.c): a light state, version 4 */
function decodeSparse(h, buf) {
  if (h.flags !== 0 && h.flags !== C.FLAG_SCALABLE_STATE) throw new FormatError(T, 'FLAGS');
  checkRateGeometry(h, T);
  if (h.w48 > BigInt(C.MAX_BUFFERED_BLOCKS)) throw new FormatError(T, 'GEOMETRY');
  if (h.capacity < 1n || h.capacity > h.w48 * BigInt(C.BLOCK_BITS)) {
    throw new FormatError(T, 'PARAMS');
  }
  const d = decodeLightSlots(h, buf, T, 8 * Number(h.w48) + C.PENDING_SLOTS); // bloom_sparse_limit
  d.info.scalableState = h.flags === C.FLAG_SCALABLE_STATE;
  return d;
}

/*
 * bloom_decode: the common header, which kinds and versions a
 * bloomfilter is, then the kind's decoder
 */
function decode(buf) {
  const h = readHeader(buf, T);
  if (h.version === C.VERSION_3 && (h.kind === C.KIND_COUNTING || h.kind === C.KIND_CUCKOO)) {
    throw new FormatError(T, 'OTHERTYPE');
  }
  if (h.version === C.VERSION_4 && h.kind === C.KIND_SPARSE_COUNTING) {
    throw new FormatError(T, 'OTHERTYPE');
  }
  if (h.version === C.VERSION_4) {
    if (h.kind !== C.KIND_SPARSE) throw new FormatError(T, 'KIND');
  } else if (h.version === C.VERSION_5) {
    // version 5 has kind 9 alone
    if (h.kind !== C.KIND_WINDOWED) throw new FormatError(T, 'KIND');
  } else if (h.version !== C.VERSION_1 && h.version !== C.VERSION_2) {
    throw new FormatError(T, 'VERSION');
  } else if (h.kind === C.KIND_SPARSE || h.kind === C.KIND_WINDOWED) {
    throw new FormatError(T, 'KIND');
  }
  if (h.kind < C.KIND_BLOCKED || (h.kind > C.KIND_SCALABLE && h.kind !== C.KIND_SPARSE &&
      h.kind !== C.KIND_WINDOWED)) {
    throw new FormatError(T, 'KIND');
  }
  checkCommon(h, T);
  switch (h.kind) {
    case C.KIND_BLOCKED:
      return { h, ...decodeBlocked(h, buf) };
    case C.KIND_HASHLIST:
      decodeHashlistAsBloom(h, buf.length, T);
      refuseHashes(h, T);
      return { h, layers: [], info: hashlistInfo(h) };
    case C.KIND_BUFFERED:
      return { h, ...decodeBuffered(h, buf) };
    case C.KIND_SCALABLE:
      return { h, ...decodeScalable(h, buf) };
    case C.KIND_WINDOWED:
      return { h, ...decodeWindowed(h, buf) };
    default:
      return { h, ...decodeSparse(h, buf) };
  }
}

/** A bloomfilter value, read and checked as the server reads it */
class BloomFilter extends reader(T, decode) {}

module.exports = { BloomFilter, decode, checkRateGeometry };
