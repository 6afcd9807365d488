'use strict';
/*
 * What the three readers share: the key classes' checks and the lookups
 * by key, uuid, float or hash.  A subclass decodes its value and sets
 * this._probe(hi, lo), the answer for a hash given as two unsigned 32-bit
 * halves (a filter that cannot hold anything answers false).
 *
 * As the server's bloom_contains (src/bloom/bf_funcs.c contains_common): a
 * filter of key class "none" holds nothing and answers false to every
 * key; otherwise a key of another class is an error, never a silent
 * "absent".
 *
 * Every lookup takes options { since }: a windowed filter (kind 9)
 * answers from the slices of time that end after since
 * (lib/windowed.js); any other filter keeps no time, and refuses it with
 * a WindowError (as bloom_contains(f, key, since), src/bloom/bf_window.c:
 * that check first, then key class "none", the key's class, the range of
 * since).
 */

const keys = require('./keys');
const u64 = require('./u64');
const { KeyClassError, WindowError } = require('./errors');
const { KIND_NAMES } = require('./header');
const { asBytes, parseHex } = require('./bytes');
const { makeProbe } = require('./blocked');
const { sinceOption, probeSince } = require('./windowed');

const { KEY_NONE, KEY_UUID, KEY_FLOAT, KEY_CLASS_NAMES } = keys;

class Filter {
  /* hdr: the decoded header (lib/header.js); size: the value's bytes */
  _init(type, hdr, size) {
    this._type = type;
    this._keyClass = hdr.keyClass;
    this._keyType = hdr.keyType;
    this._seed = hdr.seed; // unsigned, as the hash function takes it
    this._size = size;
    this._header = {
      type,
      formatVersion: hdr.version,
      kind: hdr.kind,
      kindName: KIND_NAMES[hdr.kind],
      keyClass: KEY_CLASS_NAMES[hdr.keyClass],
      keyType: hdr.keyType,
      seed: hdr.seed,
      capacity: Number(hdr.capacity),
      fpr: hdr.fpr,
      items: Number(hdr.items),
      flags: hdr.flags,
      bytes: size,
    };
  }

  /** The SQL type this reader mirrors: bloomfilter, countingbloom or cuckoofilter */
  get type() {
    return this._type;
  }

  /** The key class of the header: none, integer, text, bytea, uuid, float or other */
  get keyClass() {
    return KEY_CLASS_NAMES[this._keyClass];
  }

  _check(cls) {
    if (cls !== this._keyClass) {
      throw new KeyClassError(this._type, this._keyClass, this._keyType, cls);
    }
  }

  /*
   * The since of a lookup's options (undefined: none), refused by a
   * filter that keeps no time
   */
  _since(opts) {
    const since = sinceOption(opts);
    if (since !== undefined && this._window === undefined) {
      throw new WindowError(this._type, KIND_NAMES[this._kind]);
    }
    return since;
  }

  /* The answer for the hash in u64.out: every slice, or those since `since` */
  _ask(since) {
    const hi = u64.out.hi;
    const lo = u64.out.lo;
    if (since === undefined) return this._probe(hi, lo);
    return probeSince(this._window, since)(hi, lo);
  }

  /*
   * contains() of a key with its since checked: hashes it into u64.out
   * (a key of class "none" answers false)
   */
  _containsKey(key, since) {
    const cls = keys.classOf(key);
    if (this._keyClass === KEY_NONE) return false;
    this._check(cls);
    keys.hashKey(key, cls, this._seed);
    return this._ask(since);
  }

  /**
   * May the key be present?  number (a safe integer) or bigint: an integer
   * key; string: text (UTF-8); Uint8Array or Buffer: bytea.  opts.since
   * (a windowed filter only): a Date, a bigint of microseconds since
   * 1970-01-01 00:00 UTC, or +-Infinity; may the key be in a slice of time
   * that ends after it?
   */
  contains(key, opts) {
    return this._containsKey(key, this._since(opts));
  }

  /** A uuid key: its text (as PostgreSQL's uuid input reads it) or its 16 bytes */
  containsUuid(u, opts) {
    const bytes = keys.uuidBytes(u);
    const since = this._since(opts);
    if (this._keyClass === KEY_NONE) return false;
    this._check(KEY_UUID);
    keys.hashBytes(bytes, this._seed);
    return this._ask(since);
  }

  /** A float key (real or double precision): any number, -0 and NaN included */
  containsFloat(x, opts) {
    if (typeof x !== 'number') throw new TypeError('a float key is a number');
    const since = this._since(opts);
    if (this._keyClass === KEY_NONE) return false;
    this._check(KEY_FLOAT);
    keys.hashFloat(x, this._seed);
    return this._ask(since);
  }

  /**
   * A key given by its hash, as SELECT bloom_key_hash(key, seed) returns it
   * (a bigint, signed or unsigned 64-bit; the seed is the filter's, see
   * info().seed).  No key class check: this is how keys of class "other"
   * (dates, numerics, ...) are probed.
   */
  containsHash(h, opts) {
    // node-postgres gives a bigint column (bloom_key_hash's) as a string
    if (typeof h === 'string' && /^-?[0-9]{1,20}$/.test(h)) h = BigInt(h);
    keys.checkHash(h);
    const since = this._since(opts);
    if (this._keyClass === KEY_NONE) return false;
    u64.fromBig(h);
    return this._ask(since);
  }

  /** contains() of every key of an iterable, as an array of booleans; the same opts */
  containsMany(keyList, opts) {
    if (keyList == null || typeof keyList === 'string' ||
        typeof keyList[Symbol.iterator] !== 'function') {
      throw new TypeError('containsMany takes an array (or iterable) of keys');
    }
    const since = this._since(opts);
    const out = [];
    for (const key of keyList) out.push(this._containsKey(key, since));
    return out;
  }

  /** The header as stored, and the kind's own fields (camelCase) */
  info() {
    return { ...this._header, ...this._kindInfo() };
  }
}

/*
 * The base of a type's reader: fromBytes and fromHex decode with the
 * type's decoder (which checks the value as the server's input for the
 * type does) and make the reader of what it returns: the header (h), the
 * probe of a hash (probe) and the kind's fields for info() (info).
 */
function reader(type, decode) {
  return class extends Filter {
    /** Reads a value (SELECT f::bytea): Buffer, Uint8Array or ArrayBuffer */
    static fromBytes(buf) {
      return new this(decode(asBytes(buf)), buf.byteLength);
    }

    /** Reads the text form, \x and hex digits (psql's output, SELECT f::text) */
    static fromHex(text) {
      const buf = parseHex(text, type);
      return new this(decode(buf), buf.length);
    }

    /** @private use fromBytes or fromHex */
    constructor(d, size) {
      super();
      this._init(type, d.h, size);
      this._kind = d.h.kind;
      this._info = d.info;
      this._probe = d.probe !== undefined ? d.probe : makeProbe(d.layers);
      this._window = d.window; // a windowed filter's slices (lib/windowed.js)
    }

    _kindInfo() {
      return this._info;
    }
  };
}

module.exports = { Filter, reader };
