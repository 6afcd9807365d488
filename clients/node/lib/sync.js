'use strict';
/*
 * IndexCopy: an application's copy of a bloomfilter index's filter, kept
 * in step with the index by catch-ups that cost 8 bytes a new key
 * (bloomtype 1.8):
 *
 *   SELECT filter::bytea, mark FROM bloom_index_filter_at('users_id_bloom')
 *     -> new IndexCopy(filter, mark)
 *   SELECT complete, reason, hashes, mark
 *     FROM bloom_index_changes('users_id_bloom', copy.mark)
 *     complete -> copy.addHashes(hashes, mark)
 *     not      -> load again (reason says why: REINDEX, TRUNCATE, a layer
 *                 added, the log pruned past the mark, ...)
 *
 * The mark is opaque text: the position the copy is complete for. A hash
 * is added as the index adds a key (src/am/bfi_insert.c: drop_older, then
 * the newest layer): skipped when a layer other than the newest may hold
 * it, else its bits are set in the newest layer. So the copy holds every
 * key committed before its mark with the bits the index gave it (a key of
 * a transaction that aborted may be in the index and not in the copy: the
 * copy never holds less than what committed).
 *
 * The item counts of the header (info().items, the layers' items) stay
 * those of the load: a catch-up brings hashes, not how many of them were
 * new keys. The copy is read and written on Node's one thread; nothing
 * else shares its bits.
 */

const keys = require('./keys');
const u64 = require('./u64');
const { decode } = require('./bloom');
const { Filter } = require('./filter');
const { C, KIND_NAMES, readHeader } = require('./header');
const { asBytes, copyOf } = require('./bytes');
const { testBits, setBits, makeProbe } = require('./blocked');
const { FormatError } = require('./errors');

const T = 'bloomfilter';

function checkMark(mark) {
  if (typeof mark !== 'string') {
    throw new TypeError('a mark is the text bloom_index_filter_at or bloom_index_changes returned');
  }
}

/** A scalable filter (kind 4) from bloom_index_filter_at, and its mark; lookups as Filter's */
class IndexCopy extends Filter {
  /**
   * buf: the filter's bytes (Buffer, Uint8Array or ArrayBuffer), read and
   * checked as BloomFilter.fromBytes reads it, then copied (the caller's
   * buffer is never written); mark: the mark that came with it
   */
  constructor(buf, mark) {
    super();
    const bytes = asBytes(buf);
    checkMark(mark);
    // the kind first: a value of another type or kind is refused for what it is
    const { kind } = readHeader(bytes, T);
    if (kind !== C.KIND_SCALABLE) {
      throw new FormatError(T, 'NOTSCALABLE',
        `This value is of kind ${kind} (${KIND_NAMES[kind] || 'unknown'}).`);
    }
    const d = decode(bytes);
    this._init(T, d.h, bytes.length);
    this._kind = d.h.kind;
    this._info = d.info;
    // the header and layer descriptors, for toBytes; the layers' bits, which the catch-ups set
    this._head = copyOf(bytes, 0, C.HEADER_SIZE + d.layers.length * C.LAYER_DESC_SIZE);
    this._layers = d.layers;
    this._probe = makeProbe(d.layers);
    this._mark = mark;
  }

  /** The position the copy is complete for: ask bloom_index_changes from it */
  get mark() {
    return this._mark;
  }

  /* Adds the hash (hi, lo) as the index does: dropped if an older layer may hold it */
  _addHash(hi, lo) {
    const layers = this._layers;
    const last = layers.length - 1;
    for (let i = 0; i < last; i++) {
      const l = layers[i];
      if (testBits(l.bits, l.off, l.nblocks, l.k, hi, lo)) return;
    }
    const l = layers[last];
    setBits(l.bits, l.off, l.nblocks, l.k, hi, lo);
  }

  /**
   * A complete catch-up: bloom_index_changes' hashes (8 bytes each,
   * little-endian) and its new mark. Bytes that are not whole hashes are
   * refused before anything is applied.
   */
  addHashes(hashes, mark) {
    if (hashes instanceof ArrayBuffer) hashes = new Uint8Array(hashes);
    if (!(hashes instanceof Uint8Array)) {
      throw new TypeError('hashes are bytes (a Buffer): bloom_index_changes\' hashes');
    }
    if (hashes.length % 8 !== 0) {
      throw new RangeError(`hashes are 8 bytes each: ${hashes.length} bytes are not whole hashes`);
    }
    checkMark(mark);
    const dv = new DataView(hashes.buffer, hashes.byteOffset, hashes.length);
    for (let p = 0; p < hashes.length; p += 8) {
      this._addHash(dv.getUint32(p + 4, true), dv.getUint32(p, true));
    }
    this._mark = mark;
  }

  /**
   * A key the application has just committed itself, so that the copy
   * holds it before the catch-up brings it: checked and hashed as
   * contains() does. The mark is unchanged.
   */
  add(key) {
    const cls = keys.classOf(key);
    this._check(cls);
    keys.hashKey(key, cls, this._seed);
    this._addHash(u64.out.hi, u64.out.lo);
  }

  /** The value as it is now (a new Buffer): the load's header, the bits of every catch-up */
  toBytes() {
    return Buffer.concat([this._head, this._layers[0].bits]);
  }

  _kindInfo() {
    return this._info;
  }
}

module.exports = { IndexCopy };
