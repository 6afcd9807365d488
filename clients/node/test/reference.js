'use strict';
/*
 * Reference lookups in BigInt arithmetic, transcribed from docs/FORMAT.md
 * ("Where a key's bits go", "Kind 6: the cuckoo layout", "Version 5:
 * windowed filters") without the library's 32-bit tricks, to check them.
 * Slow, clear, test-only.
 */

const M64 = (1n << 64n) - 1n;
const PROBE_MUL = 0x9e3779b97f4a7c15n;

const mulhi = (a, b) => (a * b) >> 64n;

/* Kind 1 bits at data[off ..] of n blocks, k hashes */
function blockedContains(data, off, n, k, h) {
  const block = mulhi(h, BigInt(n));
  let x = h;
  for (let i = 0; i < k; i++) {
    x = (x * PROBE_MUL) & M64;
    const bit = Number(x >> 55n);
    const byte = off + Number(block) * 64 + (bit >> 3);
    if (((data[byte] >> (bit & 7)) & 1) === 0) return false;
  }
  return true;
}

/* Sets h's k bits in data[off ..] of n blocks (for building values in tests) */
function blockedSet(data, off, n, k, h) {
  const block = mulhi(h, BigInt(n));
  let x = h;
  for (let i = 0; i < k; i++) {
    x = (x * PROBE_MUL) & M64;
    const bit = Number(x >> 55n);
    data[off + Number(block) * 64 + (bit >> 3)] |= 1 << (bit & 7);
  }
}

/*
 * A kind 9 value's lookup since a time t (microseconds, a bigint;
 * -Infinity: every slice, Infinity: none): the kept slices s with
 * s >= floor(t / L); reads the descriptors itself (the value is assumed valid)
 */
function windowedContains(buf, h, t = -Infinity) {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.length);
  const kept = Number(dv.getBigUint64(48, true));
  const n = Number(dv.getBigUint64(56, true));
  const L = dv.getBigInt64(64, true);
  let first = null;
  if (t === Infinity) return false;
  if (t !== -Infinity) {
    first = t / L;
    if (first * L > t) first -= 1n; // floor, also below zero
  }
  for (let i = 0; i < kept; i++) {
    const s = dv.getBigInt64(96 + 16 * i, true);
    if (first !== null && s < first) continue;
    if (blockedContains(buf, 96 + 16 * kept + 64 * n * i, n, buf[12], h)) return true;
  }
  return false;
}

function mix(x) {
  x ^= x >> 33n;
  x = (x * 0xff51afd7ed558ccdn) & M64;
  x ^= x >> 33n;
  x = (x * 0xc4ceb9fe1a85ec53n) & M64;
  x ^= x >> 33n;
  return x;
}

const fp = (u, f) => {
  const v = u & ((1n << BigInt(f)) - 1n);
  return v === 0n ? 1n : v;
};
const top = (w, l) => (l === 0 ? 0n : w >> BigInt(64 - l));

/*
 * A kind 6 value's lookup: buf is the whole value; reads the descriptors
 * itself (the value is assumed valid)
 */
function cuckooContains(buf, h) {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.length);
  const b = buf[12];
  const expansion = buf[58];
  const nsubs = Number(dv.getBigUint64(48, true));
  const L = expansion <= 1 ? 0 : Math.log2(expansion);
  const subs = [];
  let at = 96 + 32 * nsubs;
  for (let i = 0; i < nsubs; i++) {
    const d = 96 + 32 * i;
    const nb = dv.getBigUint64(d, true);
    const f = buf[d + 24];
    subs.push({ nb, f, at });
    const bits = nb * BigInt(b) * BigInt(f);
    at += Number((bits + 63n) / 64n) * 8 + 8;
  }
  const n0 = subs[0].nb;
  const f0 = subs[0].f;
  const slot = (s, B, j) => {
    const bit = (B * BigInt(b) + BigInt(j)) * BigInt(s.f);
    const p = s.at + Number(bit / 8n);
    const w = dv.getBigUint64(p, true);
    return (w >> (bit % 8n)) & ((1n << BigInt(s.f)) - 1n);
  };
  const u = mix(h);
  for (let i = 0; i < nsubs; i++) {
    const s = subs[i];
    const Li = i * L;
    const v = fp(u, s.f);
    const B1 = mulhi(h, n0) * (1n << BigInt(Li)) + top((h * 0xc2b2ae3d27d4eb4fn) & M64, Li);
    const v0 = fp(v, f0);
    const g = mix((v0 + 0x9e3779b97f4a7c15n) & M64);
    const c = mulhi(g, n0);
    const q = B1 >> BigInt(Li);
    const alt = (((c - q) % n0 + n0) % n0) * (1n << BigInt(Li)) +
      ((B1 % (1n << BigInt(Li))) ^ top((g * 0xd6e8feb86659fd93n) & M64, Li));
    for (const B of [B1, alt]) {
      for (let j = 0; j < b; j++) if (slot(s, B, j) === v) return true;
    }
  }
  return false;
}

module.exports = { blockedContains, blockedSet, windowedContains, cuckooContains, mix, mulhi, M64 };
