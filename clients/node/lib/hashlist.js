'use strict';
/*
 * Hash lists (kind 2): the partial state of the auto-sized aggregates
 * (src/core/hashlist.c hashlist_decode, bloom_decode_hashlist_any).  Every
 * type reads one as the filter it stands for, sized by the server's
 * planner (libm pow, exp and log and an iterative search,
 * src/core/sizing.c), which a client cannot reproduce bit for bit.  So
 * the clients accept only an empty hash list (bloom_agg over no rows),
 * which answers "absent" to every key, and refuse one that holds hashes
 * with a FormatError that says how to materialise it on the server.
 */

const { FormatError, HASHLIST_HINT } = require('./errors');
const { C, fprValid } = require('./header');
const { hashesLayer } = require('./blocked');

/* hashlist_decode: version 1, no flags, no bits, no capacity */
function decodeHashlistV1(h, len, type) {
  if (h.version !== C.VERSION_1 || h.flags !== 0) throw new FormatError(type, 'FLAGS');
  if (!fprValid(h.fpr)) throw new FormatError(type, 'PARAMS');
  if (h.k !== 0 || h.blockLog2 !== 0 || h.w48 > BigInt(C.MAX_SLOTS)) {
    throw new FormatError(type, 'GEOMETRY');
  }
  if (h.capacity !== 0n) throw new FormatError(type, 'PARAMS');
  if (h.w56 > h.w48 || h.items < h.w56) throw new FormatError(type, 'COUNT');
  if (len !== C.HEADER_SIZE + 8 * Number(h.w48)) throw new FormatError(type, 'LENGTH');
}

/*
 * The path of bloom_decode for a kind 2 value (bloomfilter, and
 * countingbloom through cb_decode): version 1 only
 */
function decodeHashlistAsBloom(h, len, type) {
  if (h.version === C.VERSION_4) throw new FormatError(type, 'KIND');
  if (h.version !== C.VERSION_1 && h.version !== C.VERSION_2) {
    throw new FormatError(type, 'VERSION');
  }
  decodeHashlistV1(h, len, type);
}

/* bloom_decode_hashlist_any: version 1, or version 3 with a capacity (cuckoofilter) */
function decodeHashlistAny(h, len, type) {
  if (h.version === C.VERSION_1) {
    decodeHashlistV1(h, len, type);
    return;
  }
  if (h.version !== C.VERSION_3) throw new FormatError(type, 'VERSION');
  if (h.capacity < 1n) throw new FormatError(type, 'PARAMS');
  decodeHashlistV1({ ...h, version: C.VERSION_1, capacity: 0n }, len, type);
}

const HINTS = {
  bloomfilter: HASHLIST_HINT,
  countingbloom: 'Materialise it on the server: SELECT counting_union_agg(f) returns the filter it stands for.',
  cuckoofilter: 'Materialise it on the server: SELECT cuckoo_union_agg(f) returns the filter it stands for.',
  bloomtype: 'Materialise it on the server: SELECT bloom_union_agg(f), counting_union_agg(f) or ' +
    'cuckoo_union_agg(f), as its type is, returns the filter it stands for.',
};

/* The clients' one refusal of a value the server accepts */
function refuseHashes(h, type) {
  if (h.w56 > 0n) throw new FormatError(type, 'HASHLIST', HINTS[type]);
}

/* What info() shows of a hash list */
function hashlistInfo(h) {
  return { slots: Number(h.w48), hashes: Number(h.w56) };
}

/*
 * The hash slots of a light state (kinds 7 and 8: sparse_decode,
 * counting_sparse_decode): whole slots, at most limit, the hashes in use
 * among them and counted as rows; the layer of the header's geometry with
 * their bits set, and the fields for info()
 */
function decodeLightSlots(h, buf, type, limit) {
  const rest = buf.length - C.HEADER_SIZE;
  if (rest % 8 !== 0 || rest / 8 > limit) throw new FormatError(type, 'LENGTH');
  const nslots = rest / 8;
  if (h.w56 > BigInt(nslots) || h.items < h.w56) throw new FormatError(type, 'COUNT');
  const nblocks = Number(h.w48);
  const nhashes = Number(h.w56);
  return {
    layers: [hashesLayer(nblocks, h.k, buf, C.HEADER_SIZE, nhashes)],
    info: { k: h.k, blocks: nblocks, slots: nslots, hashes: nhashes },
  };
}

module.exports = { decodeHashlistAsBloom, decodeHashlistAny, refuseHashes, hashlistInfo, decodeLightSlots };
