"""CuckooFilter: what the server's cuckoofilter input accepts (src/cuckoo/cf_value.c
cf_validate: cuckoo_decode and cuckoo_validate_deep in src/core/cuckoo_format.c)
and how cuckoo_contains answers (src/core/cuckoo.c, cuckoo_impl.h).

    kind 6   cuckoo filter, version 3: sub-filters of buckets of b slots of
             f-bit fingerprints (Fan, Andersen, Kaminsky and Mitzenmacher,
             "Cuckoo Filter: Practically Better Than Bloom", CoNEXT 2014)
    kind 2   hash list of cuckoo_agg, version 1, or version 3 with a capacity
             that fits (empty ones only), at a rate from 1e-9

docs/FORMAT.md "Kind 6: the cuckoo layout" gives the layout, the plan and
the hashing this file follows.
"""

import functools
import math

from . import bloom
from .base import Filter
from .blocked import never
from .errors import hashlist_error, refuse
from .header import (
    HEADER_SIZE, KIND_CUCKOO, KIND_HASHLIST, KIND_WINDOWED, MASK64, MAX_BYTES,
    MIN_FPR, MIN_SCALABLE_FPR, MAX_FPR, layer_fpr, read_header,
)

T = "cuckoofilter"
EXT_SIZE = 32
DESC_SIZE = 32
HEAD_SIZE = HEADER_SIZE + EXT_SIZE      # 96
MAX_SUBS = 32
MIN_FBITS = 8
MAX_FBITS = 56
DEFAULT_BUCKET = 4
DEFAULT_EXPANSION = 2

CK_MUL_W = 0xC2B2AE3D27D4EB4F
CK_MUL_M = 0xD6E8FEB86659FD93
CK_ADD_G = 0x9E3779B97F4A7C15


def _bad(code):
    return refuse(T, code)


class PlanError(Exception):
    """plan_subs failed: code is "params" or "capacity" """

    def __init__(self, code):
        super().__init__(code)
        self.code = code


# ---------------------------------------------------------------------------
# The plan (cuckoo_format.c), in IEEE 754 doubles as the C code computes it:
# Python floats are binary64 and math.sqrt, math.ceil, math.floor and
# math.ldexp are exact or correctly rounded, as their C counterparts.
# ---------------------------------------------------------------------------

def target_load(b):
    return {2: 0.80, 4: 0.90}.get(b, 0.93)


def bucket_size_valid(b):
    return b in (2, 4, 8)


def expansion_valid(e):
    return e == 0 or (1 <= e <= 16 and e & (e - 1) == 0)


def log2u(e):
    return (e - 1).bit_length() if e > 1 else 0


def sub_fpr(fpr, expansion, i):
    return fpr if expansion == 0 else layer_fpr(fpr, i)


def fbits_for(rate, b):
    """The fewest bits f from 8 with 2b / (2^f - 1) <= rate (57: none)"""
    f = MIN_FBITS
    while f <= MAX_FBITS and 2.0 * b / (math.ldexp(1.0, f) - 1.0) > rate:
        f += 1
    return f


def _n0_of(capacity, b):
    # ceil((C + 4 sqrt(C)) / (b x load)), every step a double as in C
    c = float(capacity)
    return math.ceil((c + 4.0 * math.sqrt(c)) / (b * target_load(b)))


def _n0_fits(n0, b, f0):
    # n0 x b x f_0 / 8 + 96 + 32 + 16 <= 536,869,888, in doubles, in C's order
    return not (float(n0) * b * f0 / 8.0 + HEAD_SIZE + DESC_SIZE + 16 > float(MAX_BYTES))


def plan_subs(capacity, fpr, b, expansion, n):
    """plan_subs: (n0, fingerprint bits of the first n sub-filters)"""
    if capacity < 1 or not bucket_size_valid(b) or not expansion_valid(expansion) or \
            not fpr >= (MIN_SCALABLE_FPR if expansion else MIN_FPR) or not fpr <= MAX_FPR:
        raise PlanError("params")
    fbits = []
    for i in range(n):
        f = fbits_for(sub_fpr(fpr, expansion, i), b)
        if f > MAX_FBITS:
            raise PlanError("params")
        fbits.append(f)
    n0 = _n0_of(capacity, b)
    if not _n0_fits(n0, b, fbits[0]):
        raise PlanError("capacity")
    return n0, fbits


def max_capacity(fpr, b=DEFAULT_BUCKET, expansion=DEFAULT_EXPANSION):
    """cuckoo_max_capacity: the largest capacity that fits (0: none)"""
    n = MAX_SUBS if expansion else 1
    try:
        _, fbits = plan_subs(1, fpr, b, expansion, n)
    except PlanError:
        return 0
    slots = float(MAX_BYTES - HEAD_SIZE - DESC_SIZE - 16) * 8.0 / fbits[0]
    cap = int(math.floor(slots / b) * b * target_load(b))
    # the plan's other checks passed for capacity 1 and do not depend on it
    while cap > 1 and not _n0_fits(_n0_of(cap, b), b, fbits[0]):
        cap -= cap // 1000 + 1
    return cap


def area_size(nbuckets, b, f):
    """cuckoo_area_size: the slots, rounded up to 8 bytes, then 8 zero bytes"""
    return (nbuckets * b * f + 63) // 64 * 8 + 8


# ---------------------------------------------------------------------------
# Decoding and validation
# ---------------------------------------------------------------------------

def _le64(data, off):
    return int.from_bytes(data[off:off + 8], "little")


def decode_cuckoo(h, data):
    """cuckoo_decode after the common checks: returns (b, max_kicks,
    expansion, n0, counters, subs), subs as (buckets, capacity, items,
    fbits, log2 of e^i, offset of the slot area)"""
    if h.version != 3:
        raise _bad("version")
    if h.flags != 0 or h.w56 >> 24 != 0:
        raise _bad("flags")
    b = h.k
    max_kicks = h.w56 & 0xFFFF
    expansion = (h.w56 >> 16) & 0xFF
    if not bucket_size_valid(b) or h.block_log2 != 0 or max_kicks < 1 or \
            not expansion_valid(expansion) or not 1 <= h.w48 <= (MAX_SUBS if expansion else 1):
        raise _bad("geometry")
    if h.capacity < 1 or not h.fpr >= (MIN_SCALABLE_FPR if expansion else MIN_FPR) or \
            not h.fpr <= MAX_FPR:
        raise _bad("params")
    nsubs = h.w48
    log2e = log2u(expansion) if expansion else 0
    size = HEAD_SIZE + nsubs * DESC_SIZE
    if len(data) < size:
        raise _bad("length")
    counters = (_le64(data, 64), _le64(data, 72), _le64(data, 80))
    if _le64(data, 88) != 0:
        raise _bad("flags")
    n0 = _le64(data, HEAD_SIZE)
    subs = []
    items = 0
    for i in range(nsubs):
        d = HEAD_SIZE + i * DESC_SIZE
        l2 = i * log2e
        if l2 > 40:
            raise _bad("geometry")
        nbuckets, capacity, nitems = _le64(data, d), _le64(data, d + 8), _le64(data, d + 16)
        f = data[d + 24]
        if _le64(data, d + 24) >> 8 != 0 or not MIN_FBITS <= f <= MAX_FBITS or \
                (i > 0 and f < subs[-1][3]):
            raise _bad("geometry")
        if n0 < 1 or n0 > MAX_BYTES * 8 // (b * MIN_FBITS) or \
                nbuckets != (n0 << l2) & MASK64 or nbuckets > MAX_BYTES * 8 // (b * f):
            raise _bad("geometry")
        if capacity != (h.capacity << l2) & MASK64 or capacity >> l2 != h.capacity:
            raise _bad("params")
        if nitems > nbuckets * b:
            raise _bad("count")
        items += nitems
        subs.append((nbuckets, capacity, nitems, f, l2, size))  # size: where its slots start
        size += area_size(nbuckets, b, f)
        if size > MAX_BYTES:
            raise _bad("length")
    if items != h.items:
        raise _bad("count")
    if len(data) != size:
        raise _bad("length")
    return b, max_kicks, expansion, n0, counters, subs


@functools.lru_cache(maxsize=64)
def _lanes(f, lanes):
    """(low, high) masks of lanes f-bit lanes (a multiple of 8): the f - 1 low
    bits of each lane, and its top bit"""
    one = sum(1 << (j * f) for j in range(8))       # 8 lanes: f whole bytes
    n8 = lanes // 8
    lo = int.from_bytes((((1 << (f - 1)) - 1) * one).to_bytes(f, "little") * n8, "little")
    hi = int.from_bytes(((1 << (f - 1)) * one).to_bytes(f, "little") * n8, "little")
    return lo, hi


_CHUNK_LANES = 8 * 16384


def nonzero_slots(data, off, nslots, f):
    """The slots that are not zero among nslots f-bit slots at data[off:]:
    a lane is not zero when its low bits plus all ones carry into its top bit
    or its top bit is set; a chunk of lanes at a time, at C speed."""
    chunk = min(_CHUNK_LANES, (nslots + 7) // 8 * 8)
    lo, hi = _lanes(f, chunk)
    count = 0
    for first in range(0, nslots, chunk):
        n = min(chunk, nslots - first)
        start = off + first * f // 8
        x = int.from_bytes(data[start:start + (n * f + 7) // 8], "little")
        if n < chunk:
            x &= (1 << (n * f)) - 1
        count += ((((x & lo) + lo) | x) & hi).bit_count()
    return count


def validate_deep(h, b, expansion, n0, subs, data):
    """cuckoo_validate_deep: the geometry is the plan's, each sub-filter holds
    as many fingerprints as its count says, the bits after its slots are zero"""
    try:
        pn0, fbits = plan_subs(h.capacity, h.fpr, b, expansion, len(subs))
    except PlanError:
        raise _bad("params") from None
    if pn0 != n0:
        raise _bad("geometry")
    if any(s[3] != f for s, f in zip(subs, fbits)):
        raise _bad("geometry")
    for nbuckets, _, nitems, f, _, off in subs:
        bits = nbuckets * b * f
        if nonzero_slots(data, off, nbuckets * b, f) != nitems:
            raise _bad("content")
        if bits & 7 and data[off + (bits >> 3)] >> (bits & 7):
            raise _bad("flags")
        if any(data[off + ((bits + 7) >> 3):off + area_size(nbuckets, b, f)]):
            raise _bad("flags")


def decode_hashlist(h, data):
    """cf_decode's hash list (bloom_decode_hashlist_any, aggstate.c), with a
    rate a growing filter takes, and cf_validate's capacity check"""
    if h.version == 3:
        if h.capacity < 1:
            raise _bad("params")
        version, capacity = h.version, h.capacity
        h.version, h.capacity = 1, 0
        try:
            bloom.decode_hashlist(h, data, T)
        finally:
            h.version, h.capacity = version, capacity
    elif h.version == 1:
        bloom.decode_hashlist(h, data, T)
    else:
        raise _bad("version")
    if h.fpr < MIN_SCALABLE_FPR:
        raise _bad("params")
    if h.capacity > 0 and h.capacity > max_capacity(h.fpr, DEFAULT_BUCKET, DEFAULT_EXPANSION):
        raise _bad("params")


# ---------------------------------------------------------------------------
# Lookups (cuckoo_contains)
# ---------------------------------------------------------------------------

def mix(x):
    """ck_mix: the finaliser of MurmurHash3 (fmix64)"""
    x ^= x >> 33
    x = x * 0xFF51AFD7ED558CCD & MASK64
    x ^= x >> 33
    x = x * 0xC4CEB9FE1A85EC53 & MASK64
    return x ^ (x >> 33)


def cuckoo_test(data, b, n0, subs):
    """The lookup: in some sub-filter, one of the b slots of B1 or of its
    alternate holds the key's fingerprint there.  A bucket is read as one
    integer and its b lanes compared with the fingerprint at once (a lane of
    bucket xor (v in every lane) is zero where a slot holds v; (x - ones) &
    ~x & highs is not zero exactly when some lane of x is)."""
    frm = int.from_bytes
    mask0 = (1 << subs[0][3]) - 1
    plan = []
    for _, _, _, f, l2, off in subs:
        ones = sum(1 << (j * f) for j in range(b))
        bf = b * f
        plan.append((l2, 64 - l2, (1 << f) - 1, off, ones, ones << (f - 1), (1 << bf) - 1,
                     (bf + 14) // 8, bf))
    plan = tuple(plan)
    grows = len(plan) > 1 and plan[-1][0] > 0

    def test(h):
        # u = mix(h) and g = mix(v0 + CK_ADD_G), ck_mix inlined
        u = h ^ (h >> 33)
        u = u * 0xFF51AFD7ED558CCD & 0xFFFFFFFFFFFFFFFF
        u ^= u >> 33
        u = u * 0xC4CEB9FE1A85EC53 & 0xFFFFFFFFFFFFFFFF
        u ^= u >> 33
        g = ((u & mask0 or 1) + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        g ^= g >> 33
        g = g * 0xFF51AFD7ED558CCD & 0xFFFFFFFFFFFFFFFF
        g ^= g >> 33
        g = g * 0xC4CEB9FE1A85EC53 & 0xFFFFFFFFFFFFFFFF
        g ^= g >> 33
        q = (h * n0) >> 64                          # B1 >> L_i in every sub-filter
        qa = (((g * n0) >> 64) - q) % n0            # alt's (c - q) mod n0
        if grows:
            hw = h * 0xC2B2AE3D27D4EB4F & 0xFFFFFFFFFFFFFFFF
            gm = g * 0xD6E8FEB86659FD93 & 0xFFFFFFFFFFFFFFFF
        for l2, sh, fmask, off, ones, highs, bmask, nbytes, bf in plan:
            rep = (u & fmask or 1) * ones
            if l2:
                t = hw >> sh
                b1 = (q << l2) | t
                b2 = (qa << l2) | (t ^ (gm >> sh))
            else:
                b1, b2 = q, qa
            bit = b1 * bf
            s = off + (bit >> 3)
            x = ((frm(data[s:s + nbytes], "little") >> (bit & 7)) & bmask) ^ rep
            if (x - ones) & ~x & highs:
                return True
            if b2 != b1:
                bit = b2 * bf
                s = off + (bit >> 3)
                x = ((frm(data[s:s + nbytes], "little") >> (bit & 7)) & bmask) ^ rep
                if (x - ones) & ~x & highs:
                    return True
        return False
    return test


class CuckooFilter(Filter):
    """A cuckoofilter value: a cuckoo filter (kind 6), or an empty hash list
    of cuckoo_agg (kind 2)."""

    __slots__ = ()
    TYPE_NAME = T
    NOUN = "cuckoo filter"

    def _read(self, data):
        h = read_header(data, T)
        h.check_common(T)           # bloom_decode_common checks these first
        kind = h.kind
        info = h.fields(T, len(data))
        if kind == KIND_HASHLIST:
            decode_hashlist(h, data)
            if h.w56 > 0:
                raise hashlist_error(T, h.w56)
            # cuckoo_agg over no rows stands for a new, empty filter of the
            # list's key class (cf_materialize keeps it)
            info.update(slots=h.w48, hashes=0)
            self._set(data, h, h.key_class, never, info)
            return
        if kind != KIND_CUCKOO:
            raise _bad("othertype" if 1 <= kind <= KIND_WINDOWED else "kind")
        b, kicks, expansion, n0, counters, subs = decode_cuckoo(h, data)
        validate_deep(h, b, expansion, n0, subs, data)
        info.update(bucket_size=b, max_kicks=kicks, expansion=expansion,
                    deletes=counters[0], absorbed=counters[1], stuck=counters[2],
                    subfilters=[{"buckets": nb, "capacity": c, "items": n, "fingerprint_bits": f}
                                for nb, c, n, f, _, _ in subs])
        self._set(data, h, h.key_class, cuckoo_test(data, b, n0, subs), info)

