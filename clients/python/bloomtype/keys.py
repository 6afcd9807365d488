"""Keys: their class and the bytes hashed, as the server encodes them
(README.md "Key encodings"; src/pg/glue_keys.c and src/core/hash.h are
authoritative), and their 64-bit hash, XXH3-64 with the filter's seed.

    Python key                        class    bytes hashed
    int (not bool), -2^63 .. 2^63-1   integer  8-byte little-endian two's complement
    str                               text     its UTF-8 bytes (the database must be UTF8)
    bytes, bytearray, memoryview      bytea    the bytes
    uuid.UUID                         uuid     its 16 bytes
    float                             float    little-endian IEEE 754 double;
                                               -0.0 as 0.0, every NaN as 0x7FF8000000000000

SQL's smallint, integer and bigint are one key space, as are text, varchar,
name and char(n) (without trailing spaces), and real and double precision (a
real widens exactly: probe float(numpy.float32(x)), not the decimal literal).
Keys of any other SQL type (class "other": date, numeric, jsonb, ...) are
hashed from their binary send form, which this reader does not build: probe
them with contains_hash(h) and h from SELECT bloom_key_hash(key).
"""

import operator
import struct
import uuid

import xxhash

from .errors import KeyClassError, KeyRangeError
from .header import KEY_CLASS_NAMES, KEY_OTHER, MASK64

xxh3 = xxhash.xxh3_64_intdigest

_pack_q = struct.Struct("<q").pack
_pack_d = struct.Struct("<d").pack
_NAN = struct.pack("<Q", 0x7FF8000000000000)
_ZERO = _pack_d(0.0)
_UUID = uuid.UUID

# a few built-in types of class "other", for messages (their OIDs are fixed)
_OTHER_TYPES = {
    16: "boolean", 18: "char", 114: "json", 650: "cidr", 790: "money", 829: "macaddr",
    869: "inet", 1082: "date", 1083: "time without time zone",
    1114: "timestamp without time zone", 1184: "timestamp with time zone",
    1186: "interval", 1266: "time with time zone", 1700: "numeric", 3802: "jsonb",
}

_PY_TYPES = {1: "an int", 2: "a str", 3: "bytes", 4: "a uuid.UUID", 5: "a float"}


def int_bytes(key):
    try:
        return _pack_q(key)
    except struct.error:
        raise KeyRangeError("integer key %d is outside the 64-bit signed range of bigint" % key) \
            from None


def float_bytes(v):
    # bloom_hash_float8 (hash.h): -0 and +0 are one key, every NaN is one key
    if v != v:
        return _NAN
    if v == 0.0:
        return _ZERO
    return _pack_d(v)


def text_bytes(key):
    """A text key's UTF-8 bytes.  A string PostgreSQL's text cannot hold (a
    NUL, a lone surrogate) is never a key of a filter: ValueError, as the
    Node and Go readers."""
    try:
        data = key.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("a text key must be valid Unicode (no lone surrogates): "
                         "PostgreSQL's text cannot hold it") from None
    if b"\x00" in data:
        raise ValueError("a text key cannot contain NUL: PostgreSQL's text cannot hold it")
    return data


def key_bytes(key):
    """(class, bytes hashed) of a key; TypeError for a key of no class"""
    t = type(key)
    if t is int:
        return 1, int_bytes(key)
    if t is str:
        return 2, text_bytes(key)
    if t is bytes:
        return 3, key
    if t is _UUID:
        return 4, key.bytes
    if t is float:
        return 5, float_bytes(key)
    return _other_key_bytes(key)


def _other_key_bytes(key):
    # subclasses, other buffers, numpy scalars; bool is not an integer here:
    # the server has no boolean key class (boolean is class "other")
    if key is None:
        raise TypeError("None is not a filter key (the server's functions are strict: "
                        "a NULL key gives NULL)")
    if isinstance(key, bool):
        raise TypeError("a %s is not a filter key (the server's boolean keys are of class "
                        "\"other\": probe them with contains_hash)" % type(key).__name__)
    if isinstance(key, int):
        return 1, int_bytes(int(key))
    if isinstance(key, str):
        return 2, text_bytes(str(key))
    if isinstance(key, (bytes, bytearray)):
        return 3, bytes(key)
    if isinstance(key, memoryview):
        return 3, key.tobytes()
    if isinstance(key, _UUID):
        return 4, key.bytes
    if isinstance(key, float):
        return 5, float_bytes(float(key))
    t = type(key)
    if t.__module__ == "numpy":
        kind = getattr(getattr(key, "dtype", None), "kind", None)
        if kind in ("i", "u"):
            return 1, int_bytes(operator.index(key))
        if kind == "f":
            return 5, float_bytes(float(key))  # float32 widens exactly
    raise TypeError("a %s is not a filter key: use int, str, bytes, uuid.UUID or float "
                    "(or contains_hash for keys of other SQL types)" % t.__name__)


def hash_int(h):
    """A 64-bit hash given signed (as bloom_key_hash returns it) or unsigned"""
    if type(h) is not int:
        if isinstance(h, bool) or not hasattr(type(h), "__index__"):
            raise TypeError("a key hash is an int, not %s" % type(h).__name__)
        h = operator.index(h)
    if not -(1 << 63) <= h <= MASK64:
        raise ValueError("key hash %d is outside the 64-bit range" % h)
    return h & MASK64


def key_hash(key, seed=0):
    """The key's 64-bit hash as the server's bloom_key_hash(key, seed) gives it:
    a signed 64-bit int.  seed is a bigint (signed) or its unsigned form."""
    _, data = key_bytes(key)
    h = xxh3(data, hash_int(seed))
    return h - (1 << 64) if h >> 63 else h


def class_name(key_class, key_type):
    if key_class == KEY_OTHER:
        if key_type & 0x80000000:
            return "user-defined type (tag 0x%08x)" % key_type
        return "%s (type OID %d)" % (_OTHER_TYPES.get(key_type, "class \"other\""), key_type)
    if 0 <= key_class < len(KEY_CLASS_NAMES):
        return KEY_CLASS_NAMES[key_class]
    return "unknown"


def class_error(noun, filter_class, filter_type, key_class):
    """The server's bt_key_mismatch, for a probe"""
    msg = "%s holds %s keys, not %s keys: a key of another type hashes differently, so it " \
          "would never be found" % (noun, class_name(filter_class, filter_type),
                                    KEY_CLASS_NAMES[key_class])
    if filter_class == KEY_OTHER:
        msg += "; this reader cannot encode keys of that type: probe with contains_hash(h), " \
               "h from SELECT bloom_key_hash(key)"
    else:
        msg += "; probe with %s" % _PY_TYPES[filter_class]
    return KeyClassError(msg)
