'use strict';
/*
 * CuckooFilter: what the cuckoofilter type's input accepts (cf_decode and
 * cf_validate, src/cuckoo/cf_value.c; cuckoo_decode and cuckoo_validate_deep,
 * src/core/cuckoo_format.c; docs/FORMAT.md "Kind 6: the cuckoo layout"):
 *
 *   kind 6  cuckoo filter (version 3), checked in full: the header, the
 *           sub-filters' nesting, the plan of n0 and the fingerprint bits,
 *           the non-zero slots against the counts, zero padding
 *   kind 2  hash list, version 1 or 3, rate at least 1e-9, a version 3
 *           capacity that fits: only an empty one (lib/hashlist.js)
 *
 * The lookup (cuckoo_contains, src/core/cuckoo.c; Fan, Andersen,
 * Kaminsky, Mitzenmacher, "Cuckoo Filter: Practically Better Than
 * Bloom", CoNEXT 2014), for the key's hash h, all arithmetic mod 2^64:
 *
 *   u = mix(h); v_i = fp(u, f_i), the low f_i bits or 1 when they are 0
 *   B1 = mulhi(h, n0) 2^L_i + top(h * CK_MUL_W, L_i),  L_i = i log2(e)
 *   g = mix(fp(v_i, f_0) + CK_ADD_G); c = mulhi(g, n0); q = B1 >> L_i
 *   B2 = ((c - q) mod n0) 2^L_i + ((B1 mod 2^L_i) xor top(g * CK_MUL_M, L_i))
 *
 * and a key may be present when, in some sub-filter, a slot of B1 or B2
 * holds v_i.  Done in 32-bit halves (lib/u64.js); test/cuckoo.test.js
 * checks it against a BigInt transcription of FORMAT.md.
 */

const { FormatError } = require('./errors');
const { C, readHeader, checkCommon } = require('./header');
const { copyOf } = require('./bytes');
const { decodeHashlistAny, refuseHashes, hashlistInfo } = require('./hashlist');
const P = require('./cuckoo_plan');
const u64 = require('./u64');
const { reader } = require('./filter');

const T = 'cuckoofilter';
const W_HI = 0xc2b2ae3d; // CK_MUL_W
const W_LO = 0x27d4eb4f;
const M_HI = 0xd6e8feb8; // CK_MUL_M
const M_LO = 0x6659fd93;
const G_HI = 0x9e3779b9; // CK_ADD_G
const G_LO = 0x7f4a7c15;
const U64 = 1n << 64n;

/* The low n bits of a 32-bit word (n at least 32: all) */
function mask32(n) {
  return n >= 32 ? 0xffffffff : (2 ** n) - 1;
}

/* cuckoo_decode: every field, the nesting, the counts and the length */
function decodeHeader(h, buf) {
  const len = buf.length;
  if (h.version !== C.VERSION_3) throw new FormatError(T, 'VERSION');
  if (h.flags !== 0 || (h.w56 >> 24n) !== 0n) throw new FormatError(T, 'FLAGS');
  const b = h.k;
  const maxKicks = Number(h.w56 & 0xffffn);
  const expansion = Number((h.w56 >> 16n) & 0xffn);
  if (!P.bucketSizeValid(b) || h.blockLog2 !== 0 || maxKicks < 1 ||
      !P.expansionValid(expansion) || h.w48 < 1n || h.w48 > (expansion ? 32n : 1n)) {
    throw new FormatError(T, 'GEOMETRY');
  }
  if (h.capacity < 1n || !(h.fpr >= (expansion ? C.MIN_SCALABLE_FPR : C.MIN_FPR)) ||
      !(h.fpr <= C.MAX_FPR)) {
    throw new FormatError(T, 'PARAMS');
  }
  const nsubs = Number(h.w48);
  const log2e = expansion ? P.log2u(expansion) : 0;
  let size = P.HEAD_SIZE + nsubs * P.DESC_SIZE;
  if (len < size) throw new FormatError(T, 'LENGTH');
  const dv = h.dv;
  const deletes = dv.getBigUint64(64, true);
  const absorbed = dv.getBigUint64(72, true);
  const stuck = dv.getBigUint64(80, true);
  if (dv.getBigUint64(88, true) !== 0n) throw new FormatError(T, 'FLAGS');
  const n0 = dv.getBigUint64(P.HEAD_SIZE, true);
  const maxSlotBits = BigInt(C.MAX_BYTES) * 8n;
  const subs = [];
  let items = 0n;
  for (let i = 0; i < nsubs; i++) {
    const d = P.HEAD_SIZE + i * P.DESC_SIZE;
    const l2 = i * log2e;
    if (l2 > 40) throw new FormatError(T, 'GEOMETRY');
    const nbuckets = dv.getBigUint64(d, true);
    const capacity = dv.getBigUint64(d + 8, true);
    const nitems = dv.getBigUint64(d + 16, true);
    const fbits = buf[d + 24];
    if ((dv.getBigUint64(d + 24, true) >> 8n) !== 0n ||
        fbits < P.MIN_FBITS || fbits > P.MAX_FBITS ||
        (i > 0 && fbits < subs[i - 1].fbits)) {
      throw new FormatError(T, 'GEOMETRY');
    }
    // no more slots than 512 MB hold, so that no size wraps
    if (n0 < 1n || n0 > maxSlotBits / BigInt(b * P.MIN_FBITS) ||
        nbuckets !== ((n0 << BigInt(l2)) % U64) ||
        nbuckets > maxSlotBits / (BigInt(b) * BigInt(fbits))) {
      throw new FormatError(T, 'GEOMETRY');
    }
    const shifted = (h.capacity << BigInt(l2)) % U64;
    if (capacity !== shifted || (capacity >> BigInt(l2)) !== h.capacity) {
      throw new FormatError(T, 'PARAMS');
    }
    if (nitems > nbuckets * BigInt(b)) throw new FormatError(T, 'COUNT');
    items += nitems;
    size += P.areaSize(Number(nbuckets), b, fbits);
    if (size > C.MAX_BYTES) throw new FormatError(T, 'LENGTH');
    subs.push({ nbuckets: Number(nbuckets), capacity, nitems, fbits, log2e: l2,
      maskLo: mask32(fbits), maskHi: fbits > 32 ? mask32(fbits - 32) : 0 });
  }
  if (items !== h.items) throw new FormatError(T, 'COUNT');
  if (len !== size) throw new FormatError(T, 'LENGTH');
  let at = P.HEAD_SIZE + nsubs * P.DESC_SIZE;
  for (const s of subs) {
    s.at = at;
    at += P.areaSize(s.nbuckets, b, s.fbits);
  }
  return { b, maxKicks, expansion, n0: Number(n0), deletes, absorbed, stuck, subs };
}

/*
 * Slot j of bucket B of a sub-filter into u64.out (hi, lo): the f bits at
 * bit (B b + j) f of its area, packed little-endian (ck_get).  The area
 * ends with a zero word, so the 8 bytes read are always inside it.
 */
function readSlot(bytes, s, b, B, j) {
  const bit = (B * b + j) * s.fbits;
  const byte = s.at + Math.floor(bit / 8);
  const sh = bit % 8;
  let lo = (bytes[byte] | (bytes[byte + 1] << 8) | (bytes[byte + 2] << 16) |
    (bytes[byte + 3] << 24)) >>> 0;
  if (s.fbits + sh <= 32) {
    // the common case (up to 25 bits): one 32-bit word holds the slot
    u64.out.lo = ((lo >>> sh) & s.maskLo) >>> 0;
    u64.out.hi = 0;
    return;
  }
  let hi = (bytes[byte + 4] | (bytes[byte + 5] << 8) | (bytes[byte + 6] << 16) |
    (bytes[byte + 7] << 24)) >>> 0;
  if (sh) {
    lo = ((lo >>> sh) | (hi << (32 - sh))) >>> 0;
    hi >>>= sh;
  }
  u64.out.lo = (lo & s.maskLo) >>> 0;
  u64.out.hi = (hi & s.maskHi) >>> 0;
}

/*
 * cuckoo_validate_deep: the plan's n0 and fingerprint bits; each
 * sub-filter's non-zero slots number its items; zero bits after the last slot
 */
function validateDeep(h, f, buf) {
  const p = P.planSubs(h.capacity, h.fpr, f.b, f.expansion, f.subs.length);
  if (typeof p === 'string') throw new FormatError(T, 'PARAMS');
  if (p.n0 !== f.n0) throw new FormatError(T, 'GEOMETRY');
  f.subs.forEach((s, i) => {
    if (s.fbits !== p.fbits[i]) throw new FormatError(T, 'GEOMETRY');
  });
  for (const s of f.subs) {
    let n = 0;
    const nslots = s.nbuckets * f.b;
    for (let slot = 0; slot < nslots; slot++) {
      readSlot(buf, s, 1, slot, 0);
      if (u64.out.lo !== 0 || u64.out.hi !== 0) n++;
    }
    if (BigInt(n) !== s.nitems) throw new FormatError(T, 'CONTENT');
    const bits = nslots * s.fbits;
    const area = P.areaSize(s.nbuckets, f.b, s.fbits);
    const last = Math.floor(bits / 8);
    if (bits % 8 !== 0 && (buf[s.at + last] >> (bits % 8)) !== 0) {
      throw new FormatError(T, 'FLAGS');
    }
    for (let k = Math.ceil(bits / 8); k < area; k++) {
      if (buf[s.at + k] !== 0) throw new FormatError(T, 'FLAGS');
    }
  }
}

/* The lookup of a decoded kind 6 value (its slot areas copied into `areas`) */
function makeProbe(f, areas) {
  const { b, n0, subs } = f;
  const nsubs = subs.length;
  const inBucket = (s, B, vh, vl) => {
    const f = s.fbits;
    if (f <= 25) {
      // each slot within one 32-bit little-endian word (vh is 0)
      let bit = B * b * f;
      for (let j = 0; j < b; j++, bit += f) {
        const p = s.at + Math.floor(bit / 8);
        const w = areas[p] | (areas[p + 1] << 8) | (areas[p + 2] << 16) | (areas[p + 3] << 24);
        if (((w >>> (bit & 7)) & s.maskLo) === vl) return true;
      }
      return false;
    }
    for (let j = 0; j < b; j++) {
      readSlot(areas, s, b, B, j);
      if (u64.out.lo === vl && u64.out.hi === vh) return true;
    }
    return false;
  };
  return (hi, lo) => {
    const q = u64.mulhiSmall(hi, lo, n0);
    u64.mul64(hi, lo, W_HI, W_LO);
    const wh = u64.out.hi; // top bits of h * CK_MUL_W
    u64.mix64(hi, lo);
    const uh = u64.out.hi;
    const ul = u64.out.lo;
    // v0 = fp(v_i, f_0) = fp(u, f_0) in every sub-filter (f_i >= f_0)
    const v0h = (uh & subs[0].maskHi) >>> 0;
    let v0l = (ul & subs[0].maskLo) >>> 0;
    if (v0h === 0 && v0l === 0) v0l = 1;
    u64.add64(v0h, v0l, G_HI, G_LO);
    u64.mix64(u64.out.hi, u64.out.lo);
    const gh = u64.out.hi;
    const gl = u64.out.lo;
    const c = u64.mulhiSmall(gh, gl, n0);
    u64.mul64(gh, gl, M_HI, M_LO);
    const mh = u64.out.hi; // top bits of g * CK_MUL_M
    const qa = c >= q ? c - q : c + n0 - q;
    for (let i = 0; i < nsubs; i++) {
      const s = subs[i];
      const L = s.log2e; // at most 27: n0 2^L buckets fit in 512 MB
      const vh = (uh & s.maskHi) >>> 0;
      let vl = (ul & s.maskLo) >>> 0;
      if (vh === 0 && vl === 0) vl = 1;
      const tw = L ? wh >>> (32 - L) : 0;
      const tm = L ? mh >>> (32 - L) : 0;
      const B1 = q * 2 ** L + tw;
      const B2 = qa * 2 ** L + ((tw ^ tm) >>> 0);
      if (inBucket(s, B1, vh, vl) || (B2 !== B1 && inBucket(s, B2, vh, vl))) return true;
    }
    return false;
  };
}

/* cf_decode and cf_validate */
function decode(buf) {
  const h = readHeader(buf, T);
  checkCommon(h, T);
  if (h.kind === C.KIND_HASHLIST) {
    decodeHashlistAny(h, buf.length, T);
    if (h.fpr < C.MIN_SCALABLE_FPR) throw new FormatError(T, 'PARAMS');
    if (h.version === C.VERSION_3 && h.capacity > BigInt(P.maxCapacity(h.fpr, 4, 2))) {
      throw new FormatError(T, 'PARAMS');
    }
    refuseHashes(h, T);
    // the server makes an empty hash list a new cuckoo filter of the list's
    // key class (cf_materialize): every key of it is absent, a key of
    // another class is refused
    const info = hashlistInfo(h);
    return { h, probe: () => false, info };
  }
  if (h.kind !== C.KIND_CUCKOO) {
    throw new FormatError(T, h.kind >= 1 && h.kind <= C.KIND_WINDOWED ? 'OTHERTYPE' : 'KIND');
  }
  const f = decodeHeader(h, buf);
  validateDeep(h, f, buf);
  // the slot areas, copied, at the same offsets
  const areas = copyOf(buf);
  const probe = makeProbe(f, areas);
  const info = {
    bucketSize: f.b,
    maxKicks: f.maxKicks,
    expansion: f.expansion,
    deletes: Number(f.deletes),
    absorbed: Number(f.absorbed),
    stuck: Number(f.stuck),
    subFilters: f.subs.map((s) => ({ buckets: s.nbuckets, capacity: Number(s.capacity),
      items: Number(s.nitems), fingerprintBits: s.fbits })),
  };
  return { h, probe, info };
}

/** A cuckoofilter value, read and checked as the server reads it */
class CuckooFilter extends reader(T, decode) {}

module.exports = { CuckooFilter, decode };
