'use strict';
/*
 * Windowed filters (kind 9, format version 5; docs/FORMAT.md "Version 5:
 * windowed filters"; src/core/windowed.c): the keys of the last slices of
 * time, each slice a blocked filter of its own.  Time is cut into slices
 * of L microseconds from 1970-01-01 00:00 UTC, slice s covering
 * [s L, (s + 1) L); a value keeps the slices from newest - window to
 * newest that hold keys, oldest first:
 *
 *   64  slice length L (signed), newest slice (signed, -2^63: no time
 *       yet), window (32 bits), 12 reserved bytes
 *   96  one 16-byte descriptor a kept slice: its number (signed), its items
 *       then each kept slice's blocks, laid out as kind 1's
 *
 * A key may be present when some kept slice may hold it; since a time T
 * (microseconds from 1970), only the slices that end after T, those with
 * s >= floor(T / L) (bloom_window_first_since, bloom_windowed_contains_from).
 */

const { FormatError } = require('./errors');
const { C, satAdd } = require('./header');
const { copyOf } = require('./bytes');
const { makeProbe } = require('./blocked');

const T = 'bloomfilter';

const WINDOW_OFFSET = C.HEADER_SIZE; // the window descriptor, 32 bytes
const SLICES_OFFSET = C.HEADER_SIZE + 32; // the slice descriptors, 16 bytes each
const SLICE_DESC_SIZE = 16;
const WINDOW_MAX = 31;
const MAX_SLICE_USEC = 1000n * 366n * 86400n * 1000000n; // 1,000 years of 366 days
const NO_TIME = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/* floor(t / l) for l > 0, also for negative t (bloom_window_slice) */
function sliceOf(t, l) {
  const q = t / l;
  return t % l !== 0n && t < 0n ? q - 1n : q;
}

/*
 * bloom_window_slice_valid: the slice numbers a value may hold (their
 * start and end, and a window's arithmetic around them, fit in int64
 * microseconds)
 */
function sliceValid(s, l) {
  const lim = INT64_MAX / l - 2n * BigInt(C.MAX_LAYERS);
  return s >= -lim && s <= lim;
}

/* windowed_decode: every check, in the server's order */
function decodeWindowed(h, buf) {
  const len = buf.length;
  // version 5 (decode refused kind 9 in any other)
  if (h.flags !== 0) throw new FormatError(T, 'FLAGS');
  const nblocksBig = h.w56;
  const nslicesBig = h.w48;
  if (h.k < 1 || h.k > C.MAX_HASHES || h.blockLog2 !== C.BLOCK_LOG2 ||
      nblocksBig < 1n || nblocksBig > BigInt(C.MAX_BLOCKS)) {
    throw new FormatError(T, 'GEOMETRY');
  }
  if (h.capacity < 1n || h.capacity > nblocksBig * BigInt(C.BLOCK_BITS) ||
      !(h.fpr >= C.MIN_SCALABLE_FPR && h.fpr <= C.MAX_FPR)) {
    throw new FormatError(T, 'PARAMS');
  }
  if (len < SLICES_OFFSET) throw new FormatError(T, 'LENGTH');
  const dv = h.dv;
  const sliceUsec = dv.getBigInt64(WINDOW_OFFSET, true);
  const newest = dv.getBigInt64(WINDOW_OFFSET + 8, true);
  const window = dv.getUint32(WINDOW_OFFSET + 16, true);
  for (let i = WINDOW_OFFSET + 20; i < SLICES_OFFSET; i++) {
    if (buf[i] !== 0) throw new FormatError(T, 'FLAGS');
  }
  if (sliceUsec < 1n || sliceUsec > MAX_SLICE_USEC || window < 1 || window > WINDOW_MAX) {
    throw new FormatError(T, 'PARAMS');
  }
  if (newest !== NO_TIME && !sliceValid(newest, sliceUsec)) throw new FormatError(T, 'PARAMS');
  if (nslicesBig > BigInt(window + 1) || (nslicesBig > 0n && newest === NO_TIME)) {
    throw new FormatError(T, 'GEOMETRY');
  }
  if (nslicesBig > BigInt(C.MAX_BLOCKS) / nblocksBig) throw new FormatError(T, 'LENGTH');
  const nslices = Number(nslicesBig); // at most 32
  const nblocks = Number(nblocksBig);
  const head = SLICES_OFFSET + SLICE_DESC_SIZE * nslices;
  if (len > C.MAX_BYTES || len !== head + 64 * nblocks * nslices) {
    throw new FormatError(T, 'LENGTH');
  }
  const oldest = newest - BigInt(window);
  const slices = [];
  let items = 0n;
  for (let i = 0; i < nslices; i++) {
    const d = SLICES_OFFSET + SLICE_DESC_SIZE * i;
    const s = dv.getBigInt64(d, true);
    const nitems = dv.getBigUint64(d + 8, true);
    if (s < oldest || s > newest || (i > 0 && s <= slices[i - 1].s)) {
      throw new FormatError(T, 'GEOMETRY');
    }
    items = satAdd(items, nitems);
    slices.push({ s, nitems });
  }
  if (items !== h.items) throw new FormatError(T, 'COUNT');
  const bits = copyOf(buf, head);
  const layers = slices.map((_, i) => ({ bits, off: 64 * nblocks * i, nblocks, k: h.k }));
  return {
    layers,
    window: { sliceUsec, numbers: slices.map((x) => x.s), layers, probes: [] },
    info: {
      k: h.k,
      blocks: nblocks,
      sliceLength: sliceUsec,
      window,
      newestSlice: newest === NO_TIME ? null : newest,
      slices: slices.map((x) => ({ slice: x.s, start: x.s * sliceUsec,
        end: (x.s + 1n) * sliceUsec, items: Number(x.nitems) })),
    },
  };
}

const SINCE_TYPE = 'since is a Date, a bigint (microseconds since 1970-01-01 00:00 UTC), ' +
  'Infinity or -Infinity';

/*
 * The since of contains' options, checked: undefined (none), -Infinity,
 * Infinity, or a bigint of microseconds since 1970-01-01 00:00 UTC (a
 * Date's milliseconds times 1000)
 */
function sinceOption(opts) {
  if (opts === undefined || opts === null) return undefined;
  if (typeof opts !== 'object' || opts instanceof Date) {
    throw new TypeError('the options of a lookup are an object: { since }');
  }
  const since = opts.since;
  if (since === undefined) return undefined;
  if (typeof since === 'bigint') return since;
  if (since instanceof Date) {
    const ms = since.getTime();
    if (Number.isNaN(ms)) throw new RangeError('since is an invalid Date');
    return BigInt(ms) * 1000n;
  }
  if (since === Infinity || since === -Infinity) return since;
  throw new TypeError(SINCE_TYPE);
}

/*
 * The probe of the slices of w (a decoded window) that end after since:
 * every slice for -Infinity, none for Infinity, else those from the first
 * with s >= floor(since / L).  Like the server (slice_of,
 * src/bloom/bf_window.c), a time whose slice the format cannot hold is
 * out of range.
 */
function probeSince(w, since) {
  let from;
  if (since === -Infinity) {
    from = 0;
  } else if (since === Infinity) {
    from = w.numbers.length;
  } else {
    const s = sliceOf(since, w.sliceUsec);
    if (!sliceValid(s, w.sliceUsec)) {
      throw new RangeError('since is out of the range of a windowed bloom filter');
    }
    from = 0;
    while (from < w.numbers.length && w.numbers[from] < s) from++;
  }
  let p = w.probes[from];
  if (p === undefined) {
    p = makeProbe(w.layers.slice(from));
    w.probes[from] = p;
  }
  return p;
}

module.exports = { decodeWindowed, sinceOption, probeSince, sliceOf, sliceValid };
