'use strict';
/*
 * Where a key's bits go in a blocked filter (docs/FORMAT.md "Where a
 * key's bits go (kind 1)"; src/core/blocked.h bloom_block_test): with h
 * the key's 64-bit hash and n the number of 64-byte blocks,
 *
 *   block = (h * n) >> 64                 the high half of the product
 *   x = h; k times: x = x * 0x9E3779B97F4A7C15 mod 2^64,
 *                   bit = x >> 55         (0..511 in the block)
 *   byte 64 * block + bit / 8, bit (bit mod 8)
 *
 * Kinds 1 and 3, each layer of kind 4, the presence plane of kind 5 and
 * the filters kinds 7 and 8 stand for share this layout (Putze, Sanders,
 * Singler, "Cache-, Hash- and Space-Efficient Bloom Filters", 2007).  h
 * comes as two unsigned 32-bit halves; the multiplications are done in
 * 32-bit pieces (lib/u64.js), no BigInt.
 */

const { mulhiSmall, mulhi32 } = require('./u64');

const PM_HI = 0x9e3779b9; // BLOOM_PROBE_MUL, high and low halves
const PM_LO = 0x7f4a7c15;

/* Are all k bits of (hi, lo) set in the blocks at bits[off ..]? */
function testBits(bits, off, nblocks, k, hi, lo) {
  const base = off + mulhiSmall(hi, lo, nblocks) * 64;
  let xh = hi;
  let xl = lo;
  for (let i = 0; i < k; i++) {
    xh = (mulhi32(xl, PM_LO) + Math.imul(xl, PM_HI) + Math.imul(xh, PM_LO)) >>> 0;
    xl = Math.imul(xl, PM_LO) >>> 0;
    const bit = xh >>> 23;
    if ((bits[base + (bit >>> 3)] & (1 << (bit & 7))) === 0) return false;
  }
  return true;
}

/* Sets the k bits of (hi, lo) (bloom_block_set), for the states' pending hashes */
function setBits(bits, off, nblocks, k, hi, lo) {
  const base = off + mulhiSmall(hi, lo, nblocks) * 64;
  let xh = hi;
  let xl = lo;
  for (let i = 0; i < k; i++) {
    xh = (mulhi32(xl, PM_LO) + Math.imul(xl, PM_HI) + Math.imul(xh, PM_LO)) >>> 0;
    xl = Math.imul(xl, PM_LO) >>> 0;
    const bit = xh >>> 23;
    bits[base + (bit >>> 3)] |= 1 << (bit & 7);
  }
}

/*
 * Sets the bits of n little-endian 64-bit hashes at src[at ..] (a kind 3
 * state's pending hashes, a light state's hashes)
 */
function setHashes(bits, nblocks, k, src, at, n) {
  const dv = new DataView(src.buffer, src.byteOffset, src.length);
  for (let i = 0; i < n; i++) {
    const p = at + 8 * i;
    setBits(bits, 0, nblocks, k, dv.getUint32(p + 4, true), dv.getUint32(p, true));
  }
}

/*
 * The layer that n hashes at src[at ..] stand for (kinds 7 and 8: the
 * filter of nblocks blocks with those hashes' bits set).  The header may
 * claim far more blocks than the value holds hashes (a 64-byte value may
 * name 8 million blocks): past 8 times the value's size, only the blocks
 * the hashes touch are kept, in a map from block to its 64 bytes.
 */
function hashesLayer(nblocks, k, src, at, n) {
  if (64 * nblocks <= 8 * src.length) {
    const bits = new Uint8Array(64 * nblocks);
    setHashes(bits, nblocks, k, src, at, n);
    return { bits, off: 0, nblocks, k };
  }
  const blocks = new Map();
  const dv = new DataView(src.buffer, src.byteOffset, src.length);
  for (let i = 0; i < n; i++) {
    const p = at + 8 * i;
    const hi = dv.getUint32(p + 4, true);
    const lo = dv.getUint32(p, true);
    const b = mulhiSmall(hi, lo, nblocks);
    let block = blocks.get(b);
    if (block === undefined) {
      block = new Uint8Array(64);
      blocks.set(b, block);
    }
    setBits(block, 0, 1, k, hi, lo); // one block: its bits as in block b
  }
  return { blocks, nblocks, k };
}

/* One layer's test: dense bits, or the map of a sparse layer */
function testLayer(l, hi, lo) {
  if (l.blocks === undefined) return testBits(l.bits, l.off, l.nblocks, l.k, hi, lo);
  const block = l.blocks.get(mulhiSmall(hi, lo, l.nblocks));
  return block !== undefined && testBits(block, 0, 1, l.k, hi, lo);
}

/*
 * The probe of a filter made of layers of blocked bits: {bits, off,
 * nblocks, k} each, or a sparse {blocks, nblocks, k} (one layer for every
 * kind but 4).  A key may be present when it may be present in some layer
 * (docs/FORMAT.md "Scalable filters").
 */
function makeProbe(layers) {
  if (layers.length === 0) return () => false;
  if (layers.length === 1) {
    const l = layers[0];
    if (l.blocks !== undefined) return (hi, lo) => testLayer(l, hi, lo);
    const { bits, off, nblocks, k } = l;
    return (hi, lo) => testBits(bits, off, nblocks, k, hi, lo);
  }
  return (hi, lo) => {
    for (let i = 0; i < layers.length; i++) {
      if (testLayer(layers[i], hi, lo)) return true;
    }
    return false;
  };
}

module.exports = { testBits, setBits, setHashes, hashesLayer, makeProbe, PM_HI, PM_LO };
