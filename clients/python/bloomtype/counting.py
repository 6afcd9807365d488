"""CountingBloomFilter: what the server's countingbloom input accepts
(src/counting/cb_value.c cb_validate: counting_decode and counting_validate_deep
in src/core/counting.c, counting_sparse_decode in src/core/counting_light.c)
and how counting_contains answers.

    kind 5   counting filter, version 3: a presence plane (bit for bit a kind 1
             filter's bits), then 4-bit counters; lookups read the presence plane
    kind 8   light state of counting_agg, version 4: the header of its kind 5
             filter and the rows' hashes; it answers as that filter's presence
             plane, every hash's bits set
    kind 2   hash list, version 1 (empty ones only)

docs/FORMAT.md "Kind 5: the counting layout" and "Version 4" describe them.
"""

from . import bloom
from .base import Filter
from .blocked import blocked_test, hashes_as_bits, listed_hashes, never
from .errors import FormatError, hashlist_error, refuse
from .header import (
    BLOCK_BITS, BLOCK_BYTES, BLOCK_LOG2, HEADER_SIZE, KIND_COUNTING, KIND_HASHLIST,
    KIND_SPARSE_COUNTING, KIND_WINDOWED, MAX_BYTES, MAX_HASHES, fpr_valid, read_header,
)

T = "countingbloom"
PLANE_BYTES = 256                                 # a block's 512 counters
COUNTING_BLOCK_BYTES = BLOCK_BYTES + PLANE_BYTES  # 320
MAX_COUNTING_BLOCKS = (MAX_BYTES - HEADER_SIZE) // COUNTING_BLOCK_BYTES  # 1,677,718


def _bad(code):
    return refuse(T, code)


def check_fields(h):
    """counting_check_fields: kinds 5 and 8 alike"""
    if h.flags != 0:
        raise _bad("flags")
    if not fpr_valid(h.fpr):
        raise _bad("params")
    if not 1 <= h.k <= MAX_HASHES or h.block_log2 != BLOCK_LOG2 or \
            not 1 <= h.w48 <= MAX_COUNTING_BLOCKS:
        raise _bad("geometry")
    if not 1 <= h.capacity <= h.w48 * BLOCK_BITS:
        raise _bad("params")


# Counter byte c holds two counters; _NONZERO[c] has bit 0 set when the low
# nibble is not zero and bit 1 when the high one is not: the presence bits
# the byte's counters call for.  Presence byte p of the plane covers counters
# 8p to 8p + 7, the counter bytes 4p to 4p + 3.
_NONZERO = [(1 if c & 0x0F else 0) | (2 if c & 0xF0 else 0) for c in range(256)]
_SHIFTED = [bytes(t << (2 * j) for t in _NONZERO) for j in range(4)]
_CHUNK_BLOCKS = 1 << 14


def presence_agrees(data, nblocks):
    """counting_validate_deep: every presence bit is set exactly when its
    counter is not zero.  Table lookups and big-integer ORs, a chunk of
    blocks at a time, so that a large filter is checked at C speed."""
    pres = HEADER_SIZE
    ctr = HEADER_SIZE + BLOCK_BYTES * nblocks
    frm = int.from_bytes
    for b0 in range(0, nblocks, _CHUNK_BLOCKS):
        b1 = min(nblocks, b0 + _CHUNK_BLOCKS)
        c = data[ctr + PLANE_BYTES * b0:ctr + PLANE_BYTES * b1]
        want = 0
        for j in range(4):
            want |= frm(c[j::4].translate(_SHIFTED[j]), "little")
        if want != frm(data[pres + BLOCK_BYTES * b0:pres + BLOCK_BYTES * b1], "little"):
            return False
    return True


def decode(data):
    """cb_decode and cb_validate: returns the header (kind 5, 8 or 2) and,
    for kind 8, the slots"""
    h = read_header(data, T)
    h.check_common(T)                   # bloom_decode_common checks these first
    kind = h.kind
    if kind == KIND_HASHLIST:
        try:
            h, _ = bloom.decode(data)
        except FormatError as e:
            raise _bad(e.code) from None
        return h, None
    if kind == KIND_SPARSE_COUNTING:
        if h.version != 4:
            raise _bad("version")
        check_fields(h)
        return h, bloom.light_slots(h, data, h.w48 * COUNTING_BLOCK_BYTES // 8, T)
    if kind != KIND_COUNTING:
        raise _bad("othertype" if 1 <= kind <= KIND_WINDOWED else "kind")
    if h.version != 3:
        raise _bad("version")
    check_fields(h)
    if len(data) != HEADER_SIZE + COUNTING_BLOCK_BYTES * h.w48:
        raise _bad("length")
    if not presence_agrees(data, h.w48):
        raise _bad("content")
    return h, None


class CountingBloomFilter(Filter):
    """A countingbloom value: a counting filter (kind 5), a light state of
    counting_agg (kind 8), or an empty hash list (kind 2)."""

    __slots__ = ()
    TYPE_NAME = T
    NOUN = "counting bloom filter"

    def _read(self, data):
        h, nslots = decode(data)
        info = h.fields(T, len(data))
        key_class = h.key_class
        if h.kind == KIND_COUNTING:
            test = blocked_test(data, HEADER_SIZE, h.w48, h.k)
            info.update(k=h.k, blocks=h.w48, removes=h.w56)
        elif h.kind == KIND_SPARSE_COUNTING:
            hashes = listed_hashes(data, HEADER_SIZE, h.w56)
            bits, more = hashes_as_bits(h.w48, h.k, hashes, len(data))
            test = blocked_test(bits, 0, h.w48, h.k, more)
            info.update(k=h.k, blocks=h.w48, hashes=h.w56, slots=nslots)
        else:
            if h.w56 > 0:
                raise hashlist_error(T, h.w56)
            # counting_agg over no rows stands for a new, empty filter of
            # the list's key class (cb_materialize keeps it): every key of
            # that class is absent, a key of another is refused
            test = never
            info.update(slots=h.w48, hashes=0)
        self._set(data, h, key_class, test, info)
