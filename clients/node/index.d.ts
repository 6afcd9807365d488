// Types of bloomtype, the Node reader of bloomtype's PostgreSQL filter values.

/** A value as the server sends it: SELECT f::bytea (a Buffer with pg) */
export type FilterBytes = Uint8Array | ArrayBuffer;

/**
 * A key for contains(): a number (a safe integer) or bigint (int64) is an
 * integer key, a string a text key (UTF-8), a Uint8Array (or Buffer) a bytea key.
 */
export type Key = number | bigint | string | Uint8Array;

export interface LayerInfo {
  blocks: number;
  capacity: number;
  items: number;
  k: number;
}

/**
 * A kept slice of a windowed filter (kind 9): slice number `slice` covers
 * [start, end) microseconds since 1970-01-01 00:00 UTC
 * (`new Date(Number(start / 1000n))` as a Date, where one can hold it)
 */
export interface SliceInfo {
  slice: bigint;
  start: bigint;
  end: bigint;
  items: number;
}

/**
 * The options of a lookup.  `since` asks a windowed filter (kind 9) only
 * for the slices of time that end after it (the server's
 * bloom_contains(f, key, since)): a Date (millisecond precision), a bigint
 * of microseconds since 1970-01-01 00:00 UTC (exact), or -Infinity (every
 * slice) or Infinity (none).  On any other filter it throws WindowError;
 * a time whose slice the filter's format cannot hold throws RangeError.
 */
export interface LookupOptions {
  since?: Date | bigint | number;
}

export interface SubFilterInfo {
  buckets: number;
  capacity: number;
  items: number;
  fingerprintBits: number;
}

/**
 * The header as stored, and the fields of the value's kind.  64-bit counts
 * are numbers (exact up to 2^53); the seed is a bigint.
 */
export interface FilterInfo {
  type: 'bloomfilter' | 'countingbloom' | 'cuckoofilter';
  formatVersion: number;
  kind: number;
  kindName: string;
  keyClass: 'none' | 'integer' | 'text' | 'bytea' | 'uuid' | 'float' | 'other';
  /** class "other": the type's OID (a built-in type) or tag */
  keyType: number;
  seed: bigint;
  capacity: number;
  fpr: number;
  items: number;
  flags: number;
  /** the length of the value's bytes (bloom_info's bytes counts 4 more, the varlena header) */
  bytes: number;
  /** kinds 1, 3, 5, 7, 8, 9 (9: each slice's) */
  k?: number;
  blocks?: number;
  /** kind 1: a fixed filter (flag NONSCALING) */
  nonscaling?: boolean;
  /** kind 3 */
  pendingHashes?: number;
  /** kinds 3, 7: planned as a scalable filter's first layer */
  scalableState?: boolean;
  /** kinds 2, 7, 8 */
  slots?: number;
  hashes?: number;
  /** kind 4 */
  expansion?: number;
  layers?: LayerInfo[];
  /** kind 5 */
  removes?: number;
  /** kind 6 */
  bucketSize?: number;
  maxKicks?: number;
  deletes?: number;
  absorbed?: number;
  stuck?: number;
  subFilters?: SubFilterInfo[];
  /** kind 9: the slice length in microseconds */
  sliceLength?: bigint;
  /** kind 9: the slices kept are newestSlice - window to newestSlice */
  window?: number;
  /** kind 9: the newest slice seen (by an add or an expiry); null before any time */
  newestSlice?: bigint | null;
  /** kind 9: the kept slices, oldest first */
  slices?: SliceInfo[];
}

export abstract class Filter {
  /** The SQL type this reader mirrors */
  readonly type: 'bloomfilter' | 'countingbloom' | 'cuckoofilter';
  /** The header's key class */
  readonly keyClass: FilterInfo['keyClass'];
  /**
   * false: certainly absent; true: maybe present.  Throws KeyClassError for
   * a key of another class than the filter holds (a filter that holds none
   * answers false), TypeError or RangeError for a value that is not a key.
   * opts.since: a windowed filter's slices that end after it only.
   */
  contains(key: Key, opts?: LookupOptions): boolean;
  /** A uuid key: text as PostgreSQL's uuid input reads it, or its 16 bytes */
  containsUuid(uuid: string | Uint8Array, opts?: LookupOptions): boolean;
  /** A float key (real, double precision): -0 is 0, every NaN one key */
  containsFloat(x: number, opts?: LookupOptions): boolean;
  /** A key by its hash, SELECT bloom_key_hash(key, seed) (signed or unsigned 64-bit); no class check */
  containsHash(hash: bigint | string, opts?: LookupOptions): boolean;
  /** contains() of each key, the same options for all */
  containsMany(keys: Iterable<Key>, opts?: LookupOptions): boolean[];
  info(): FilterInfo;
}

/** bloomfilter: kinds 1, 3, 4, 7, 9 (windowed) and an empty hash list (kind 2) */
export class BloomFilter extends Filter {
  static fromBytes(buf: FilterBytes): BloomFilter;
  /** The text form: \x and hex digits */
  static fromHex(text: string): BloomFilter;
  private constructor();
}

/** countingbloom: kinds 5, 8 and an empty hash list (kind 2) */
export class CountingBloomFilter extends Filter {
  static fromBytes(buf: FilterBytes): CountingBloomFilter;
  static fromHex(text: string): CountingBloomFilter;
  private constructor();
}

/** cuckoofilter: kind 6 and an empty hash list (kind 2, versions 1 and 3) */
export class CuckooFilter extends Filter {
  static fromBytes(buf: FilterBytes): CuckooFilter;
  static fromHex(text: string): CuckooFilter;
  private constructor();
}

/**
 * A copy of a bloomfilter index's filter kept in step with the index:
 * made from SELECT filter::bytea, mark FROM bloom_index_filter_at(index)
 * (a scalable filter, kind 4; anything else is a FormatError with status
 * NOTSCALABLE), brought up to date with bloom_index_changes(index, mark).
 * Lookups as Filter's, from the current bits. The header's item counts
 * (info()) stay those of the load.
 */
export class IndexCopy extends Filter {
  /** The filter's bytes are copied: the caller's buffer is never written */
  constructor(filter: FilterBytes, mark: string);
  /** The position the copy is complete for */
  readonly mark: string;
  /**
   * A complete catch-up: its hashes (8 bytes each, little-endian; another
   * length is a RangeError and nothing is applied) and its new mark. A hash
   * an older layer may hold is skipped, the others set in the newest layer,
   * as the index does.
   */
  addHashes(hashes: Uint8Array | ArrayBuffer, mark: string): void;
  /** A key the application has just committed: checked and hashed as contains() does; the mark is unchanged */
  add(key: Key): void;
  /** The value as it is now: new bytes (a Buffer in Node) */
  toBytes(): Uint8Array;
}

/** A value of any of the three types, read by its type's reader */
export function load(buf: FilterBytes): BloomFilter | CountingBloomFilter | CuckooFilter;
export function fromHex(text: string): BloomFilter | CountingBloomFilter | CuckooFilter;

/**
 * The key's hash as bloom_key_hash(key, seed) returns it (signed).
 * keyClass is needed for uuid and float keys.
 */
export function keyHash(key: Key | number, seed?: bigint | number,
  keyClass?: 'integer' | 'text' | 'bytea' | 'uuid' | 'float'): bigint;

/** A value the server's input function would refuse (code BLOOMTYPE_FORMAT) */
export class FormatError extends Error {
  readonly code: 'BLOOMTYPE_FORMAT';
  /** The reader's type, or 'bloomtype' for fromHex()'s text form */
  readonly type: string;
  /** SHORT, MAGIC, VERSION, KIND, HASH, KEYCLASS, GEOMETRY, PARAMS, FLAGS, LENGTH, COUNT,
   *  OTHERTYPE, CONTENT (the server's), HASHLIST, TEXT, TOOLARGE, NOTSCALABLE (the client's) */
  readonly status: string;
  /** The server's detail for the status */
  readonly detail: string;
  readonly hint?: string;
}

/**
 * A lookup with since on a filter that keeps no time, that is not windowed
 * (code BLOOMTYPE_NOT_WINDOWED)
 */
export class WindowError extends TypeError {
  readonly code: 'BLOOMTYPE_NOT_WINDOWED';
  /** The reader's type */
  readonly type: 'bloomfilter' | 'countingbloom' | 'cuckoofilter';
  /** The filter's kind, as info().kindName */
  readonly kindName: string;
}

/** A key of another class than the filter holds (code BLOOMTYPE_KEY_CLASS) */
export class KeyClassError extends TypeError {
  readonly code: 'BLOOMTYPE_KEY_CLASS';
  readonly filterKeyClass: string;
  readonly filterKeyType: number;
  readonly keyClass: string;
}
