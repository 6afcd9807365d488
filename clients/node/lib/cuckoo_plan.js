'use strict';
/*
 * The geometry of a cuckoo filter, from its capacity C, rate p, bucket
 * size b and expansion e (docs/FORMAT.md "Kind 6", "The plan";
 * src/core/cuckoo_format.c plan_subs, cuckoo_max_capacity), in IEEE 754
 * doubles exactly as the C code computes them (sqrt and ldexp only, in
 * the same order), so that a client accepts exactly the values the
 * server's input accepts.
 */

const { C } = require('./header');

const MIN_FBITS = 8;
const MAX_FBITS = 56;
const MAX_SUBS = 32;
const HEAD_SIZE = 96; // header and the 32 bytes of counters
const DESC_SIZE = 32;

/* H, the sum of 1 / (j sqrt j) for j from 32 down to 1 (scalable.c schedule_norm) */
let norm = 0;
for (let j = C.MAX_LAYERS; j >= 1; j--) norm += 1.0 / (j * Math.sqrt(j));
const SCHEDULE_NORM = norm;

/* bloom_layer_fpr: the rate of layer i of a scalable filter */
function layerFpr(target, layer) {
  const j = layer + 1;
  return target / (j * Math.sqrt(j)) / SCHEDULE_NORM;
}

function targetLoad(b) {
  return b === 2 ? 0.8 : b === 4 ? 0.9 : 0.93;
}

function bucketSizeValid(b) {
  return b === 2 || b === 4 || b === 8;
}

function expansionValid(e) {
  return e === 0 || (e >= 1 && e <= 16 && (e & (e - 1)) === 0);
}

function log2u(e) {
  let l = 0;
  while ((1 << l) < e) l++;
  return l;
}

/* The fewest bits f from 8 with 2b / (2^f - 1) <= rate; 57 when none up to 56 */
function fbitsFor(rate, b) {
  let f = MIN_FBITS;
  while (f <= MAX_FBITS && (2.0 * b) / (Math.pow(2, f) - 1.0) > rate) f++;
  return f;
}

/* The bytes of a slot area: the slots rounded up to 8 bytes, and one zero word */
function areaSize(nbuckets, b, fbits) {
  const bits = nbuckets * b * fbits;
  return Math.ceil(bits / 64) * 8 + 8;
}

/*
 * plan_subs with n sub-filters: {n0, fbits[]} or a status, 'PARAMS' or
 * 'CAPACITY'.  capacity is a BigInt (any uint64).
 */
function planSubs(capacity, fpr, b, expansion, n) {
  if (capacity < 1n || !bucketSizeValid(b) || !expansionValid(expansion) ||
      !(fpr >= (expansion ? C.MIN_SCALABLE_FPR : C.MIN_FPR)) || !(fpr <= C.MAX_FPR)) {
    return 'PARAMS';
  }
  const fbits = [];
  for (let i = 0; i < n; i++) {
    fbits[i] = fbitsFor(expansion === 0 ? fpr : layerFpr(fpr, i), b);
    if (fbits[i] > MAX_FBITS) return 'PARAMS';
  }
  const cap = Number(capacity); // (double) capacity: round to nearest, as C converts
  const n0 = Math.ceil((cap + 4.0 * Math.sqrt(cap)) / (b * targetLoad(b)));
  if (n0 * b * fbits[0] / 8.0 + HEAD_SIZE + DESC_SIZE + 16 > C.MAX_BYTES) return 'CAPACITY';
  return { n0, fbits };
}

/* cuckoo_plan: every sub-filter a growing filter may have */
function plan(capacity, fpr, b, expansion) {
  return planSubs(capacity, fpr, b, expansion, expansion ? MAX_SUBS : 1);
}

/* cuckoo_max_capacity: the largest capacity that fits (0: none) */
function maxCapacity(fpr, b, expansion) {
  const p = plan(1n, fpr, b, expansion);
  if (typeof p === 'string') return 0;
  const slots = ((C.MAX_BYTES - HEAD_SIZE - DESC_SIZE - 16) * 8.0) / p.fbits[0];
  let cap = Math.floor(Math.floor(slots / b) * b * targetLoad(b)); // (uint64_t) truncates
  while (cap > 1 && typeof plan(BigInt(cap), fpr, b, expansion) === 'string') {
    cap -= Math.floor(cap / 1000) + 1;
  }
  return cap;
}

module.exports = {
  MIN_FBITS, MAX_FBITS, MAX_SUBS, HEAD_SIZE, DESC_SIZE,
  layerFpr, fbitsFor, areaSize, planSubs, plan, maxCapacity,
  bucketSizeValid, expansionValid, log2u,
};
