"""Windowed filters (kind 9, format version 5; docs/FORMAT.md "Version 5:
windowed filters"; src/core/windowed.c is authoritative): the keys of the
last few slices of time, each slice a blocked filter of its own.

Time is cut into slices of L microseconds aligned to multiples of L from
1970-01-01 00:00 UTC: slice s covers [s x L, (s + 1) x L), s = floor(t / L)
(also for times before 1970).  After the 64-byte header:

    64   8   slice length L, microseconds (signed)
    72   8   newest slice (signed; -2^63: no time seen yet, no slice)
    80   4   window (the slices kept are newest - window .. newest)
    84  12   reserved (0)
    96  16   a kept slice's number and items, oldest first
    then each kept slice's blocks, laid out as kind 1 (header's k and blocks)

contains(key) asks every kept slice; contains(key, since) the slices that
end after since, those with s >= floor(T / L), T = since in microseconds
(every slice for -infinity, none for +infinity).
"""

import bisect
import math
import operator
from datetime import datetime, timedelta, timezone

from .blocked import layers_test, never
from .errors import refuse, since_range_error
from .header import (
    BLOCK_BITS, BLOCK_BYTES, BLOCK_LOG2, HEADER_SIZE, MAX_BLOCKS, MAX_BYTES, MAX_HASHES,
    MAX_LAYERS, sat_add, scalable_fpr_valid,
)

T = "bloomfilter"
WINDOW_DESC_SIZE = 32
SLICE_DESC_SIZE = 16
SLICES_OFFSET = HEADER_SIZE + WINDOW_DESC_SIZE          # 96
MAX_WINDOW = 31
MAX_SLICE_USEC = 1000 * 366 * 86400 * 1000000           # 1,000 years of 366 days
INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
NO_TIME = INT64_MIN

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
USEC_PER_DAY = 86400 * 1000000


def _bad(code):
    return refuse(T, code)


def _i64(data, offset):
    return int.from_bytes(data[offset:offset + 8], "little", signed=True)


def _u64(data, offset):
    return int.from_bytes(data[offset:offset + 8], "little")


def windowed_size(nslices, nblocks):
    """bloom_windowed_size: the length of a value of nslices kept slices"""
    return SLICES_OFFSET + nslices * SLICE_DESC_SIZE + nslices * nblocks * BLOCK_BYTES


def slice_valid(s, slice_usec):
    """bloom_window_slice_valid: the slice numbers a value may hold (their
    start and end, and a window's arithmetic around them, fit in int64)"""
    lim = INT64_MAX // slice_usec - 2 * MAX_LAYERS
    return -lim <= s <= lim


def _check_header(h, length):
    """windowed_decode's checks of the common header: version, flags, a
    slice's geometry, capacity and rate, the length of the fixed part"""
    if h.version != 5:
        raise _bad("kind")
    if h.flags != 0:
        raise _bad("flags")
    if not 1 <= h.k <= MAX_HASHES or h.block_log2 != BLOCK_LOG2 or not 1 <= h.w56 <= MAX_BLOCKS:
        raise _bad("geometry")
    if not 1 <= h.capacity <= h.w56 * BLOCK_BITS or not scalable_fpr_valid(h.fpr):
        raise _bad("params")
    if length < SLICES_OFFSET:
        raise _bad("length")


def _check_window(data, nslices, nblocks):
    """The window descriptor: returns (slice length, newest, window)"""
    slice_usec = _i64(data, HEADER_SIZE)
    newest = _i64(data, HEADER_SIZE + 8)
    window = int.from_bytes(data[HEADER_SIZE + 16:HEADER_SIZE + 20], "little")
    if any(data[HEADER_SIZE + 20:SLICES_OFFSET]):
        raise _bad("flags")
    if not 1 <= slice_usec <= MAX_SLICE_USEC or not 1 <= window <= MAX_WINDOW:
        raise _bad("params")
    if newest != NO_TIME and not slice_valid(newest, slice_usec):
        raise _bad("params")
    if nslices > window + 1 or (nslices > 0 and newest == NO_TIME):
        raise _bad("geometry")
    if nslices > MAX_BLOCKS // nblocks:
        raise _bad("length")
    if len(data) > MAX_BYTES or len(data) != windowed_size(nslices, nblocks):
        raise _bad("length")
    return slice_usec, newest, window


def _check_slices(data, nslices, newest, window, items):
    """The slice descriptors: inside the window, strictly increasing, their
    items summing to the header's.  Returns [(slice number, items)]."""
    slices = []
    total = 0
    for i in range(nslices):
        d = SLICES_OFFSET + i * SLICE_DESC_SIZE
        s = _i64(data, d)
        n = _u64(data, d + 8)
        if s < newest - window or s > newest or (slices and s <= slices[-1][0]):
            raise _bad("geometry")
        total = sat_add(total, n)
        slices.append((s, n))
    if total != items:
        raise _bad("count")
    return slices


def decode_windowed(h, data):
    """kind 9 (windowed_decode), after bloom_decode's common checks.
    Returns the Window the value describes."""
    _check_header(h, len(data))
    nslices, nblocks = h.w48, h.w56
    slice_usec, newest, window = _check_window(data, nslices, nblocks)
    slices = _check_slices(data, nslices, newest, window, h.items)
    return Window(data, h.k, nblocks, slice_usec, newest, window, slices)


def since_usec(since):
    """since as microseconds from 1970-01-01 UTC (an int, exact), or
    -math.inf / math.inf as given.  A naive datetime is taken as UTC."""
    if isinstance(since, datetime):
        if since.utcoffset() is None:
            since = since.replace(tzinfo=timezone.utc)
        d = since - EPOCH
        return d.days * USEC_PER_DAY + d.seconds * 1000000 + d.microseconds
    if isinstance(since, float) and math.isinf(since):
        return since
    if isinstance(since, bool) or not hasattr(type(since), "__index__"):
        raise TypeError("since is a datetime, an int of microseconds since 1970-01-01 UTC, or "
                        "-math.inf / math.inf, not %s" % type(since).__name__)
    return operator.index(since)


def _time(usec):
    """A microsecond count as an aware UTC datetime, None outside datetime's range"""
    try:
        return EPOCH + timedelta(microseconds=usec)
    except OverflowError:
        return None


class Window:
    """A windowed filter's slicing and kept slices, and its lookups: one a
    first kept slice (tests[i] asks slices i, i + 1, ...; tests[n] nothing)"""

    __slots__ = ("slice_usec", "newest", "window", "slices", "_numbers", "tests")

    def __init__(self, data, k, nblocks, slice_usec, newest, window, slices):
        self.slice_usec = slice_usec
        self.newest = newest
        self.window = window
        self.slices = slices
        self._numbers = [s for s, _ in slices]
        base = SLICES_OFFSET + SLICE_DESC_SIZE * len(slices)
        layers = [(base + i * nblocks * BLOCK_BYTES, nblocks, k) for i in range(len(slices))]
        self.tests = [layers_test(data, layers[i:]) for i in range(len(slices))] + [never]

    def first_since(self, since):
        """bloom_window_first_since: the index of the first kept slice that
        ends after since (len(slices): none).  ValueError for a time whose
        slice the filter cannot hold, as the server's slice_of."""
        t = since_usec(since)
        if t == -math.inf:
            return 0
        if t == math.inf:
            return len(self.slices)
        if not INT64_MIN <= t <= INT64_MAX:
            raise since_range_error(since)
        s = t // self.slice_usec                 # floor, before 1970 too
        if not slice_valid(s, self.slice_usec):
            raise since_range_error(since)
        return bisect.bisect_left(self._numbers, s)

    def test_since(self, since):
        """The lookup of the slices that end after since"""
        return self.tests[self.first_since(since)]

    def fields(self):
        """info()'s fields of the window"""
        length = self.slice_usec
        return {
            "slice_usec": length,
            "slice_length": timedelta(microseconds=length),
            "window": self.window,
            "newest": None if self.newest == NO_TIME else self.newest,
            "slices": [{
                "slice": s, "items": n,
                "start_usec": s * length, "end_usec": (s + 1) * length,
                "start": _time(s * length), "end": _time((s + 1) * length),
            } for s, n in self.slices],
        }
