'use strict';
/*
 * 64-bit unsigned arithmetic on pairs of 32-bit halves (hi, lo), without
 * BigInt: the lookup path of every filter runs here.  A BigInt operation
 * allocates; Math.imul and 16-bit limbs do not.
 *
 * Functions that return a 64-bit value leave it in the exported `out`
 * object (out.hi, out.lo, both unsigned 32-bit numbers), so that nothing
 * is allocated per call.  test/u64.test.js checks every function against
 * BigInt arithmetic on random and edge inputs.
 */

const out = { hi: 0, lo: 0 };

/* High 32 bits of the 64-bit product of two unsigned 32-bit numbers */
function mulhi32(a, b) {
  const a0 = a & 0xffff;
  const a1 = a >>> 16;
  const b0 = b & 0xffff;
  const b1 = b >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  return (a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16)) >>> 0;
}

/* (hi, lo) * (mhi, mlo) mod 2^64, into out */
function mul64(hi, lo, mhi, mlo) {
  out.hi = (mulhi32(lo, mlo) + Math.imul(lo, mhi) + Math.imul(hi, mlo)) >>> 0;
  out.lo = Math.imul(lo, mlo) >>> 0;
}

/*
 * The high 64 bits of the 128-bit product of (hi, lo) and n, for
 * 0 <= n < 2^36 (the result is below n): bloom_mulhi64 of src/core/hash.h,
 * which maps a hash onto [0, n).  Every partial product stays under 2^53.
 */
function mulhiSmall(hi, lo, n) {
  // lo * n / 2^32, then (hi * n + that) / 2^32, in 16-bit pieces
  const c0 = Math.floor(((lo & 0xffff) * n) / 65536);
  const c1 = Math.floor(((lo >>> 16) * n + c0) / 65536); // floor(lo * n / 2^32)
  const d0 = Math.floor(((hi & 0xffff) * n + c1) / 65536);
  return Math.floor(((hi >>> 16) * n + d0) / 65536);
}

/* The finaliser of MurmurHash3 (fmix64), as ck_mix in src/core/cuckoo_impl.h */
const MIX1_HI = 0xff51afd7;
const MIX1_LO = 0xed558ccd;
const MIX2_HI = 0xc4ceb9fe;
const MIX2_LO = 0x1a85ec53;

function mix64(hi, lo) {
  lo = (lo ^ (hi >>> 1)) >>> 0; // x ^= x >> 33
  mul64(hi, lo, MIX1_HI, MIX1_LO);
  hi = out.hi;
  lo = (out.lo ^ (hi >>> 1)) >>> 0;
  mul64(hi, lo, MIX2_HI, MIX2_LO);
  out.lo = (out.lo ^ (out.hi >>> 1)) >>> 0;
}

/* (hi, lo) + (bhi, blo) mod 2^64, into out */
function add64(hi, lo, bhi, blo) {
  const s = lo + blo;
  const carry = s >= 0x100000000 ? 1 : 0;
  out.lo = s >>> 0;
  out.hi = (hi + bhi + carry) >>> 0;
}

/* BigInt (any, taken mod 2^64) to halves, into out */
const scratch64 = new DataView(new ArrayBuffer(8));
function fromBig(v) {
  scratch64.setBigUint64(0, v, true);
  out.lo = scratch64.getUint32(0, true);
  out.hi = scratch64.getUint32(4, true);
}

function toBig(hi, lo) {
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}

module.exports = { out, mulhi32, mul64, mulhiSmall, mix64, add64, fromBig, toBig };
