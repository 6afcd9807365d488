'use strict';
/*
 * The errors of the reader.  A value the server's input function would
 * refuse is a FormatError whose detail is the server's own (the messages
 * of bloom_status_message, src/core/format.c); a key of another class
 * than the filter holds is a KeyClassError, worded as the server's
 * (bt_key_mismatch, src/pg/glue_keys.c); a lookup since a time on a
 * filter that is not windowed is a WindowError.
 */

const { KEY_CLASS_NAMES, KEY_OTHER } = require('./keys');

/* BloomStatus of src/core/format.h: name -> the server's detail */
const STATUS = {
  SHORT: 'The value is shorter than the 64-byte header.',
  MAGIC: 'The value does not start with the magic bytes "BLMF".',
  VERSION: 'The format version is not one this build reads (it reads versions 1, 2, 4 and 5).',
  KIND: 'The filter kind is unknown.',
  HASH: 'The hash algorithm is unknown.',
  KEYCLASS: 'The key class or key type is invalid.',
  GEOMETRY: 'The geometry (hashes per key, block size or block count) is out of range.',
  PARAMS: 'The capacity or false-positive rate is out of range.',
  FLAGS: 'The flags or reserved fields are not zero.',
  LENGTH: 'The length does not match the geometry in the header.',
  COUNT: 'The item counts are inconsistent.',
  CAPACITY: 'The capacity does not fit in the largest value.',
  OTHERTYPE: 'The value is of another bloomtype type (bloomfilter, countingbloom or cuckoofilter).',
  CONTENT: 'The contents disagree with the counts in the header.',
  // the clients' own refusals (not server statuses)
  HASHLIST: 'The value is a hash list that holds hashes: a partial aggregate state, sized by the server\'s planner when it becomes a filter, which a client cannot reproduce bit for bit.',
  TEXT: 'The text form is not \\x followed by an even number of hex digits.',
  TOOLARGE: 'The value is larger than 536,869,888 bytes, the largest filter.',
  NOTSCALABLE: 'An index copy is made from bloom_index_filter_at\'s filter, a scalable filter (kind 4).',
};

/* What each type says of a version it does not read (cb_ and cf_status_message) */
const VERSION_BY_TYPE = {
  countingbloom: 'The format version is not one this build reads (a countingbloom value is version 3, its light aggregate state version 4).',
  cuckoofilter: 'The format version is not one this build reads (a cuckoofilter value is version 3).',
};

const HASHLIST_HINT = 'Materialise it on the server: SELECT bloom_union_agg(f) (or f | f) ' +
  'returns the filter it stands for.';

class FormatError extends Error {
  /**
   * @param {string} type  bloomfilter, countingbloom or cuckoofilter (or 'bloomtype' for load)
   * @param {string} status  a key of STATUS
   * @param {string} [hint]
   */
  constructor(type, status, hint) {
    const detail = (status === 'VERSION' && VERSION_BY_TYPE[type]) || STATUS[status] || status;
    super(`invalid ${type} value: ${detail}${hint ? ' ' + hint : ''}`);
    this.name = 'FormatError';
    this.code = 'BLOOMTYPE_FORMAT';
    this.type = type;
    this.status = status;
    this.detail = detail;
    if (hint) this.hint = hint;
  }
}

/* A few built-in types of class "other", for the message (the server prints format_type_be) */
const TYPE_NAMES = {
  16: 'boolean', 18: '"char"', 20: 'bigint', 26: 'oid', 114: 'json', 650: 'cidr',
  790: 'money', 829: 'macaddr', 869: 'inet', 1042: 'character', 1082: 'date',
  1083: 'time without time zone', 1114: 'timestamp without time zone',
  1184: 'timestamp with time zone', 1186: 'interval', 1266: 'time with time zone',
  1560: 'bit', 1562: 'bit varying', 1700: 'numeric', 3802: 'jsonb', 3614: 'tsvector',
};

function classDisplay(keyClass, keyType) {
  if (keyClass === KEY_OTHER) {
    if (keyType & 0x80000000) return `user-defined type (tag 0x${(keyType >>> 0).toString(16)})`;
    const name = TYPE_NAMES[keyType];
    return name ? `${name} (type OID ${keyType})` : `type OID ${keyType}`;
  }
  return KEY_CLASS_NAMES[keyClass] || 'unknown';
}

const NOUNS = { bloomfilter: 'bloom filter', countingbloom: 'counting bloom filter',
  cuckoofilter: 'cuckoo filter' };

class KeyClassError extends TypeError {
  constructor(type, filterClass, filterKeyType, keyClass) {
    const noun = NOUNS[type] || 'filter';
    let msg = `${noun} holds ${classDisplay(filterClass, filterKeyType)} keys, not ` +
      `${KEY_CLASS_NAMES[keyClass]} keys`;
    if (filterClass === KEY_OTHER) {
      msg += ': a client cannot encode keys of that type; probe with containsHash(h), ' +
        'h from SELECT bloom_key_hash(key)';
    }
    super(msg);
    this.name = 'KeyClassError';
    this.code = 'BLOOMTYPE_KEY_CLASS';
    this.filterKeyClass = KEY_CLASS_NAMES[filterClass];
    this.filterKeyType = filterKeyType;
    this.keyClass = KEY_CLASS_NAMES[keyClass];
  }
}

/*
 * A lookup since a time on a filter that keeps no time: only a windowed
 * filter (kind 9) does, as the server's require_windowed
 * (src/bloom/bf_window.c) says
 */
class WindowError extends TypeError {
  constructor(type, kindName) {
    super(`a lookup with since needs a windowed bloom filter: this ${NOUNS[type] || 'filter'} ` +
      `is of kind "${kindName}", which keeps no time; make one with bloom_window(capacity, fpr, ` +
      'slice, slices), or ask without since');
    this.name = 'WindowError';
    this.code = 'BLOOMTYPE_NOT_WINDOWED';
    this.type = type;
    this.kindName = kindName;
  }
}

module.exports = { FormatError, KeyClassError, WindowError, STATUS, HASHLIST_HINT, classDisplay };
