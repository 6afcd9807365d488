"""The common 64-byte header of every value (docs/FORMAT.md, the first table;
src/core/format.[ch] is authoritative), the limits the server checks, and the
text form (``\\x`` and hex, as psql prints a value).
"""

import binascii
import math
import struct

from .errors import FormatError, refuse

HEADER_SIZE = 64
MAGIC = b"BLMF"
MASK64 = (1 << 64) - 1
U64_MAX = MASK64

# kinds (format.h)
KIND_BLOCKED = 1
KIND_HASHLIST = 2
KIND_BUFFERED = 3
KIND_SCALABLE = 4
KIND_COUNTING = 5
KIND_CUCKOO = 6
KIND_SPARSE = 7
KIND_SPARSE_COUNTING = 8
KIND_WINDOWED = 9

KIND_NAMES = {
    1: "blocked",
    2: "hash list",
    3: "buffered state",
    4: "scalable",
    5: "counting",
    6: "cuckoo",
    7: "light state",
    8: "light counting state",
    9: "windowed",
}

FLAG_NONSCALING = 0x0001
FLAG_SCALABLE_STATE = 0x0002
HASH_XXH3_64 = 1

BLOCK_LOG2 = 9
BLOCK_BITS = 512
BLOCK_BYTES = 64
MAX_HASHES = 32
MAX_LAYERS = 32
LAYER_DESC_SIZE = 32
PENDING_SLOTS = 256
MAX_EXPANSION = 16

# the largest value, header included (0x1FFFFC00, "512 MB")
MAX_BYTES = 0x1FFFFC00
MAX_BLOCKS = (MAX_BYTES - HEADER_SIZE) // BLOCK_BYTES  # 8,388,591
MAX_BUFFERED_BLOCKS = (MAX_BYTES - HEADER_SIZE - PENDING_SLOTS * 8) // BLOCK_BYTES
MAX_SLOTS = (MAX_BYTES - HEADER_SIZE) // 8

MIN_FPR = 1e-12
MIN_SCALABLE_FPR = 1e-9
MAX_FPR = 0.5

KEY_NONE, KEY_INTEGER, KEY_TEXT, KEY_BYTEA, KEY_UUID, KEY_FLOAT, KEY_OTHER = range(7)
KEY_CLASS_NAMES = ("none", "integer", "text", "bytea", "uuid", "float", "other")

_HEADER = struct.Struct("<4sBBBBIBBHQQdQQQ")
assert _HEADER.size == HEADER_SIZE


class Header:
    """The header's fields as stored; w48 and w56 are the words whose meaning
    is the kind's (blocks, slots or layers; reserved, hashes, pending hashes,
    expansion, removes, or the cuckoo filter's kicks and expansion)."""

    __slots__ = ("version", "kind", "hash", "key_class", "key_type", "k", "block_log2",
                 "flags", "seed", "capacity", "fpr", "items", "w48", "w56", "_magic")

    def __init__(self, data):
        (magic, self.version, self.kind, self.hash, self.key_class, self.key_type,
         self.k, self.block_log2, self.flags, self.seed, self.capacity, self.fpr,
         self.items, self.w48, self.w56) = _HEADER.unpack_from(data, 0)
        self._magic = magic

    def check_common(self, type_name):
        """check_common (format.c): the hash algorithm, the key class and its type tag"""
        if self.hash != HASH_XXH3_64:
            raise refuse(type_name, "hash")
        if self.key_class > KEY_OTHER or (self.key_class == KEY_OTHER) != (self.key_type != 0):
            raise refuse(type_name, "keyclass")

    def fields(self, type_name, size):
        """The header as stored, for info()"""
        return {
            "type": type_name,
            "version": self.version,
            "kind": self.kind,
            "kind_name": KIND_NAMES.get(self.kind, "unknown"),
            "key_class": KEY_CLASS_NAMES[self.key_class],
            "key_type": self.key_type,
            "seed": self.seed,
            "capacity": self.capacity,
            "fpr": self.fpr,
            "items": self.items,
            "bytes": size,
        }


def read_header(data, type_name):
    """decode_common (format.c): the length and the magic; the fields follow."""
    if len(data) < HEADER_SIZE:
        raise refuse(type_name, "short")
    if data[:4] != MAGIC:
        raise refuse(type_name, "magic")
    return Header(data)


def fpr_valid(fpr):
    """bloom_fpr_valid (blocked.h): false for NaN"""
    return MIN_FPR <= fpr <= MAX_FPR


def scalable_fpr_valid(fpr):
    return fpr_valid(fpr) and fpr >= MIN_SCALABLE_FPR


def sat_add(a, b):
    """bloom_sat_add: a sum that stops at 2^64 - 1"""
    s = a + b
    return U64_MAX if s > U64_MAX else s


def _schedule_norm():
    # scalable.c schedule_norm: from 32 down to 1, with sqrt only, so that
    # every IEEE 754 machine gets the same sum (Python floats are binary64
    # and math.sqrt is correctly rounded, as C's sqrt)
    h = 0.0
    for j in range(MAX_LAYERS, 0, -1):
        h += 1.0 / (float(j) * math.sqrt(float(j)))
    return h


_NORM = _schedule_norm()


def layer_fpr(target, layer):
    """bloom_layer_fpr (scalable.c): the rate layer i (or sub-filter i) is planned for"""
    j = float(layer + 1)
    return target / (j * math.sqrt(j)) / _NORM


def as_bytes(data):
    """The value's bytes: bytes as given, a private copy of anything else"""
    if type(data) is bytes:
        return data
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    raise TypeError("a filter value is bytes, bytearray or memoryview, not %s"
                    % type(data).__name__)


def parse_text(text, type_name):
    """The bytes of a value's text form: \\x and an even number of hex digits,
    nothing else (bt_type_in, src/pg/glue_io.c)."""
    if isinstance(text, (bytes, bytearray, memoryview)):
        text = bytes(text).decode("ascii", "replace")
    if not isinstance(text, str):
        raise TypeError("the text form of a filter is a str, not %s" % type(text).__name__)
    if len(text) < 2 or text[0] != "\\" or text[1] != "x":
        raise FormatError('invalid input syntax for type %s: the text form must start with "\\x"'
                          % type_name, "syntax")
    digits = len(text) - 2
    if digits % 2:
        raise FormatError('invalid input syntax for type %s: the hex digits after "\\x" are '
                          'odd in number' % type_name, "syntax")
    if digits // 2 > MAX_BYTES:
        raise FormatError("%s value is too large" % type_name, "toolarge")
    try:
        return binascii.unhexlify(text[2:])
    except (binascii.Error, ValueError):
        raise FormatError("invalid input syntax for type %s: a character after \"\\x\" is not "
                          "a hexadecimal digit" % type_name, "syntax") from None
