"""BloomFilter: what the server's bloomfilter input accepts (src/bloom/bf_value.c
bf_validate, that is bloom_decode in src/core/kinds.c and format.c) and how its
lookups answer (bloom_contains: the filter a state stands for,
src/core/materialize.c).

    kind 1   blocked filter, versions 1 and 2           src/core/blocked.c
    kind 2   hash list, version 1 (empty ones only)     src/core/hashlist.c
    kind 3   blocked filter with pending hashes         src/core/aggstate.c
    kind 4   scalable filter, version 2                 src/core/scalable.c
    kind 7   light state of bloom_agg, version 4        src/core/sparse.c
    kind 9   windowed filter, version 5                 src/core/windowed.c

docs/FORMAT.md describes every field; the checks below follow the C code's,
field by field (their order decides only which reason a message gives).
"""

from .base import Filter
from .blocked import (
    blocked_test, hashes_as_bits, layers_test, listed_hashes, never, sparse_masks,
)
from .errors import hashlist_error, refuse
from .header import (
    BLOCK_BITS, BLOCK_BYTES, BLOCK_LOG2, FLAG_NONSCALING, FLAG_SCALABLE_STATE, HEADER_SIZE,
    KIND_BLOCKED, KIND_BUFFERED, KIND_COUNTING, KIND_CUCKOO, KIND_HASHLIST, KIND_SCALABLE,
    KIND_SPARSE, KIND_SPARSE_COUNTING, KIND_WINDOWED, LAYER_DESC_SIZE, MAX_BLOCKS,
    MAX_BUFFERED_BLOCKS, MAX_BYTES, MAX_EXPANSION, MAX_HASHES, MAX_LAYERS, MAX_SLOTS,
    MIN_SCALABLE_FPR, PENDING_SLOTS, U64_MAX, fpr_valid, read_header, sat_add, scalable_fpr_valid,
)
from .windowed import decode_windowed

T = "bloomfilter"


def _bad(code):
    return refuse(T, code)


def validate_rate_geometry(h):
    """bloom_validate_rate_geometry (blocked.h), kinds 1, 3 and 7"""
    if not fpr_valid(h.fpr) or ((h.flags & FLAG_SCALABLE_STATE) and h.fpr < MIN_SCALABLE_FPR):
        raise _bad("params")
    if not 1 <= h.k <= MAX_HASHES or h.block_log2 != BLOCK_LOG2 or not 1 <= h.w48 <= MAX_BLOCKS:
        raise _bad("geometry")


def validate_bits(h, v2_flag):
    """bloom_validate_bits: no flags in version 1, v2_flag in version 2"""
    if h.flags != (0 if h.version == 1 else v2_flag):
        raise _bad("flags")
    validate_rate_geometry(h)


def validate_fill(h, length, size):
    """bloom_validate_fill: the capacity the blocks hold, and the length"""
    if not 1 <= h.capacity <= h.w48 * BLOCK_BITS:
        raise _bad("params")
    if length != size:
        raise _bad("length")


def decode_blocked(h, data):
    """kind 1 (blocked_decode)"""
    validate_bits(h, FLAG_NONSCALING)
    if h.w56 != 0:
        raise _bad("flags")
    validate_fill(h, len(data), HEADER_SIZE + BLOCK_BYTES * h.w48)


def decode_hashlist(h, data, type_name=T):
    """kind 2 (hashlist_decode): version 1, no flags, no bits, no capacity"""
    if h.version != 1 or h.flags != 0:
        raise refuse(type_name, "flags")
    if not fpr_valid(h.fpr):
        raise refuse(type_name, "params")
    if h.k != 0 or h.block_log2 != 0 or h.w48 > MAX_SLOTS:
        raise refuse(type_name, "geometry")
    if h.capacity != 0:
        raise refuse(type_name, "params")
    if h.w56 > h.w48 or h.items < h.w56:
        raise refuse(type_name, "count")
    if len(data) != HEADER_SIZE + 8 * h.w48:
        raise refuse(type_name, "length")


def decode_buffered(h, data):
    """kind 3 (buffered_decode)"""
    validate_bits(h, FLAG_SCALABLE_STATE)
    if h.w48 > MAX_BUFFERED_BLOCKS:
        raise _bad("geometry")
    if h.w56 > PENDING_SLOTS or h.items < h.w56:
        raise _bad("count")
    validate_fill(h, len(data), HEADER_SIZE + BLOCK_BYTES * h.w48 + 8 * PENDING_SLOTS)


def decode_scalable(h, data):
    """kind 4 (scalable_decode): the layer descriptors, each layer's capacity
    the first's times expansion^i, the counts and the length.
    Returns the layers as (blocks, capacity, items, k)."""
    n = h.w48
    expansion = h.w56
    if h.version == 1:
        raise _bad("kind")
    if h.flags != 0:
        raise _bad("flags")
    if h.k != 0 or h.block_log2 != BLOCK_LOG2 or not 1 <= n <= MAX_LAYERS:
        raise _bad("geometry")
    if not 1 <= expansion <= MAX_EXPANSION or h.capacity < 1 or not scalable_fpr_valid(h.fpr):
        raise _bad("params")
    if len(data) < HEADER_SIZE + n * LAYER_DESC_SIZE:
        raise _bad("length")
    layers = []
    total = 0
    items = 0
    for i in range(n):
        d = HEADER_SIZE + i * LAYER_DESC_SIZE
        nblocks = int.from_bytes(data[d:d + 8], "little")
        capacity = int.from_bytes(data[d + 8:d + 16], "little")
        nitems = int.from_bytes(data[d + 16:d + 24], "little")
        k = data[d + 24]
        if not 1 <= k <= MAX_HASHES or not 1 <= nblocks <= MAX_BLOCKS - total:
            raise _bad("geometry")
        if any(data[d + 25:d + LAYER_DESC_SIZE]):
            raise _bad("flags")
        expect = h.capacity
        if i > 0:
            expect = layers[-1][1] * expansion
            if expect > U64_MAX:        # layer_after: past 64 bits
                raise _bad("params")
        if capacity != expect or capacity > nblocks * BLOCK_BITS:
            raise _bad("params")
        total += nblocks
        items = sat_add(items, nitems)
        layers.append((nblocks, capacity, nitems, k))
    if items != h.items:
        raise _bad("count")
    if len(data) > MAX_BYTES or len(data) != HEADER_SIZE + n * LAYER_DESC_SIZE + BLOCK_BYTES * total:
        raise _bad("length")
    return layers


def scalable_layers(layers):
    """Where a scalable filter's layers lie, from decode_scalable's layers:
    (base, blocks, k) each, as layers_test takes them (the bits follow the
    descriptors, layer after layer)"""
    out = []
    base = HEADER_SIZE + LAYER_DESC_SIZE * len(layers)
    for nblocks, _, _, k in layers:
        out.append((base, nblocks, k))
        base += BLOCK_BYTES * nblocks
    return out


def decode_sparse(h, data):
    """kind 7 (sparse_decode): kind 3's fields, and whole hash slots, at most
    the limit, those in use among them and counted as rows.  Returns the slots."""
    if h.flags not in (0, FLAG_SCALABLE_STATE):
        raise _bad("flags")
    validate_rate_geometry(h)
    if h.w48 > MAX_BUFFERED_BLOCKS:
        raise _bad("geometry")
    if not 1 <= h.capacity <= h.w48 * BLOCK_BITS:
        raise _bad("params")
    return light_slots(h, data, 8 * h.w48 + PENDING_SLOTS, T)   # bloom_sparse_limit


def light_slots(h, data, limit, type_name):
    """The hash slots of a light state (kinds 7 and 8): whole slots, at most
    limit, the hashes in use among them and counted as rows.  Returns the
    slots; a FormatError of type_name otherwise."""
    rest = len(data) - HEADER_SIZE
    if rest % 8 != 0 or rest // 8 > limit:
        raise refuse(type_name, "length")
    nslots = rest // 8
    if h.w56 > nslots or h.items < h.w56:
        raise refuse(type_name, "count")
    return nslots


def decode(data):
    """bloom_decode (format.c): the version and kind, the common fields, then
    the kind's own checks.  Returns the header and the kind's extra fields."""
    h = read_header(data, T)
    v, kind = h.version, h.kind
    if v == 3 and kind in (KIND_COUNTING, KIND_CUCKOO):
        raise _bad("othertype")
    if v == 4 and kind == KIND_SPARSE_COUNTING:
        raise _bad("othertype")
    if v == 4:
        if kind != KIND_SPARSE:
            raise _bad("kind")
    elif v == 5:                        # version 5 has kind 9 alone
        if kind != KIND_WINDOWED:
            raise _bad("kind")
    elif v not in (1, 2):
        raise _bad("version")
    elif kind in (KIND_SPARSE, KIND_WINDOWED):
        raise _bad("kind")
    if kind not in (KIND_BLOCKED, KIND_HASHLIST, KIND_BUFFERED, KIND_SCALABLE, KIND_SPARSE,
                    KIND_WINDOWED):
        raise _bad("kind")
    h.check_common(T)
    extra = None
    if kind == KIND_BLOCKED:
        decode_blocked(h, data)
    elif kind == KIND_HASHLIST:
        decode_hashlist(h, data)
    elif kind == KIND_BUFFERED:
        decode_buffered(h, data)
    elif kind == KIND_SCALABLE:
        extra = decode_scalable(h, data)
    elif kind == KIND_WINDOWED:
        extra = decode_windowed(h, data)
    else:
        extra = decode_sparse(h, data)
    return h, extra


class BloomFilter(Filter):
    """A bloomfilter value: a blocked, scalable or windowed filter, or a
    partial state of bloom_agg (kinds 3 and 7, and kind 2 when it holds no
    hashes).  A windowed filter (kind 9) also answers contains(key, since)."""

    __slots__ = ()
    TYPE_NAME = T
    NOUN = "bloom filter"

    def _read(self, data):
        h, extra = decode(data)
        kind = h.kind
        info = h.fields(T, len(data))
        info["flags"] = h.flags
        key_class = h.key_class
        window = None
        if kind == KIND_BLOCKED:
            test = blocked_test(data, HEADER_SIZE, h.w48, h.k)
            info.update(k=h.k, blocks=h.w48, fixed=bool(h.flags & FLAG_NONSCALING))
        elif kind == KIND_HASHLIST:
            if h.w56 > 0:
                raise hashlist_error(T, h.w56)
            # bloom_agg over no rows: a filter that holds nothing (its key
            # class stays, as materialize.c keeps it)
            test = never
            info.update(slots=h.w48, hashes=0)
        elif kind == KIND_BUFFERED:
            # the bits with the pending hashes set (buffered_to_blocked)
            pending = listed_hashes(data, HEADER_SIZE + BLOCK_BYTES * h.w48, h.w56)
            test = blocked_test(data, HEADER_SIZE, h.w48, h.k, sparse_masks(h.w48, h.k, pending))
            info.update(k=h.k, blocks=h.w48, pending=h.w56,
                        scalable_state=bool(h.flags & FLAG_SCALABLE_STATE))
        elif kind == KIND_SCALABLE:
            test = layers_test(data, scalable_layers(extra))
            info.update(expansion=h.w56, layers=[
                {"blocks": b, "capacity": c, "items": n, "k": k} for b, c, n, k in extra])
        elif kind == KIND_WINDOWED:
            # every kept slice; contains(key, since) takes window.tests[i]
            window = extra
            test = window.tests[0]
            info.update(k=h.k, blocks=h.w56, **window.fields())
        else:
            # kind 7: empty bits with the listed hashes set (buffered_to_blocked)
            hashes = listed_hashes(data, HEADER_SIZE, h.w56)
            bits, more = hashes_as_bits(h.w48, h.k, hashes, len(data))
            test = blocked_test(bits, 0, h.w48, h.k, more)
            info.update(k=h.k, blocks=h.w48, hashes=h.w56, slots=extra,
                        scalable_state=bool(h.flags & FLAG_SCALABLE_STATE))
        self._set(data, h, key_class, test, info, window)
