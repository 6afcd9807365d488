"""Windowed filters (kind 9, docs/FORMAT.md "Version 5: windowed filters"):
values built here by the layout, the slices since a time (boundaries, before
1970, the infinities, time zones, microseconds), the errors of since, and
the validation checklist step by step."""
import math
import pickle
import struct
from datetime import datetime, timedelta, timezone

import pytest

import bloomtype
from bloomtype import BloomFilter, CountingBloomFilter, CuckooFilter, FormatError, KeyClassError
from bloomtype.windowed import since_usec
from conftest import windowed

HOUR = 3600 * 10 ** 6
UTC = timezone.utc
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
NO_TIME = -2 ** 63
MASK = 2 ** 64 - 1


def _hex(filters, name):
    return [x for x in filters if x["name"] == name][0]["hex"]


# keys 1 to 4 in the four hours before 1970-01-01 01:00 UTC: slices -3 to 0
BEFORE_1970 = {-3: [1], -2: [2], -1: [3], 0: [4]}


@pytest.fixture
def f():
    return BloomFilter.from_bytes(windowed(BEFORE_1970))


def present(f, since):
    return [k for k in (1, 2, 3, 4) if f.contains(k, since=since)]


def test_without_a_time_every_slice_answers(f):
    assert present(f, None) == [1, 2, 3, 4]
    assert [k in f for k in (1, 2, 3, 4, 5, 6)] == [True] * 4 + [False] * 2
    assert f.contains_many([1, 2, 3, 4, 5]) == [True] * 4 + [False]


@pytest.mark.parametrize("since,keys", [
    (-3 * HOUR, [1, 2, 3, 4]),
    (-3 * HOUR - 1, [1, 2, 3, 4]),      # slice -4: before the oldest kept
    (-2 * HOUR - 1, [1, 2, 3, 4]),      # the last microsecond of slice -3
    (-2 * HOUR, [2, 3, 4]),             # slice -3 ends at since: not after it
    (-HOUR - 1, [2, 3, 4]),
    (-HOUR, [3, 4]),
    (-1, [3, 4]),                       # floor(-1 / L) = -1, not 0
    (0, [4]),
    (HOUR - 1, [4]),
    (HOUR, []),                         # after the newest slice
    (10 ** 15, []),
    (-10 ** 15, [1, 2, 3, 4]),
])
def test_since_takes_the_slices_that_end_after_it(f, since, keys):
    assert present(f, since) == keys
    assert present(f, EPOCH + timedelta(microseconds=since)) == keys
    assert f.contains_many([1, 2, 3, 4], since=since) == [k in keys for k in (1, 2, 3, 4)]


def test_the_infinities(f):
    assert present(f, -math.inf) == [1, 2, 3, 4]
    assert present(f, float("-inf")) == [1, 2, 3, 4]
    assert present(f, math.inf) == []
    assert f.contains_many([1, 2, 3, 4], since=math.inf) == [False] * 4


def test_datetimes_time_zones_and_naive_ones(f):
    last_1969 = datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)
    assert present(f, last_1969) == [3, 4]
    assert present(f, last_1969 + timedelta(microseconds=1)) == [4]
    # the same instants in other zones
    for tz in (timezone(timedelta(hours=5, minutes=45)), timezone(timedelta(hours=-11))):
        assert present(f, last_1969.astimezone(tz)) == [3, 4]
        assert present(f, (last_1969 + timedelta(microseconds=1)).astimezone(tz)) == [4]
    # naive: UTC
    assert present(f, datetime(1969, 12, 31, 23, 59, 59, 999999)) == [3, 4]
    assert present(f, datetime(1970, 1, 1)) == [4]
    assert present(f, datetime(1969, 12, 31, 22)) == [2, 3, 4]


def test_since_is_exact_to_the_microsecond():
    for d in (datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
              datetime(1, 1, 1, 0, 0, 0, 1, tzinfo=UTC),
              datetime(2262, 4, 11, 23, 47, 16, 854775, tzinfo=UTC),
              datetime(1969, 12, 31, 23, 59, 59, 999999),
              datetime(2026, 11, 1, 7, 59, 59, 999999, tzinfo=timezone(timedelta(hours=3)))):
        aware = d if d.tzinfo else d.replace(tzinfo=UTC)
        assert since_usec(d) == (aware - EPOCH) // timedelta(microseconds=1)
    assert since_usec(datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)) == \
        253402300799999999
    assert since_usec(datetime(1, 1, 1, tzinfo=UTC)) == -62135596800000000
    assert since_usec(12345) == 12345 and since_usec(math.inf) == math.inf


def test_a_filter_of_one_microsecond_slices():
    f = BloomFilter.from_bytes(windowed({-1: [1], 0: [2], 1: [3]}, slice_usec=1, window=2))
    assert present(f, -1) == [1, 2, 3] and present(f, 0) == [2, 3] and present(f, 1) == [3]
    assert present(f, EPOCH - timedelta(microseconds=1)) == [1, 2, 3]


class Index:
    """An int-like time (a numpy integer, say)"""

    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


def test_what_since_may_be(f):
    assert present(f, Index(0)) == [4]
    for bad in ("1970-01-01", 1.5, float("nan"), 0.0, True, False, b"0", timedelta(0),
                datetime(1970, 1, 1).date()):
        with pytest.raises(TypeError):
            f.contains(1, since=bad)
        with pytest.raises(TypeError):
            f.contains_many([1], since=bad)
        with pytest.raises(TypeError):
            f.contains_hash(1, since=bad)


def test_a_time_out_of_the_filters_range():
    # slice_of: microseconds past int64, or a slice past the value's limit
    # (|s| <= floor((2^63 - 1) / L) - 64)
    f = BloomFilter.from_bytes(windowed({0: [1]}, slice_usec=1))
    assert f.contains(1, since=-(2 ** 63 - 1 - 64))
    assert not f.contains(1, since=2 ** 63 - 1 - 64)
    for bad in (2 ** 63 - 1 - 63, -(2 ** 63 - 1 - 63), 2 ** 63, -2 ** 63 - 1, 10 ** 30):
        with pytest.raises(ValueError, match="out of the range"):
            f.contains(1, since=bad)
        with pytest.raises(ValueError, match="out of the range"):
            f.contains_many([1, 2], since=bad)
        with pytest.raises(ValueError, match="out of the range"):
            f.contains_hash(5, since=bad)
    hour = BloomFilter.from_bytes(windowed({0: [1]}))
    lim = (2 ** 63 - 1) // HOUR - 64
    assert not hour.contains(1, since=lim * HOUR)
    with pytest.raises(ValueError):
        hour.contains(1, since=(lim + 1) * HOUR)
    # a datetime is always in range, even of the longest slices
    longest = BloomFilter.from_bytes(windowed({0: [1]}, slice_usec=31622400000000000))
    assert longest.contains(1, since=datetime(1, 1, 1, tzinfo=UTC))
    assert not longest.contains(1, since=datetime(9999, 12, 31, tzinfo=UTC))


def test_the_servers_order_of_errors():
    # bf_contains_since: a filter of no class answers False before the
    # time is read; a key of another class is refused before it too
    none = BloomFilter.from_bytes(windowed({}, key_class=0))
    assert not none.contains(1, since=10 ** 30) and not none.contains("x", since=0)
    assert none.contains_many([1, "x"], since=10 ** 30) == [False, False]
    assert not none.contains_hash(5, since=10 ** 30)
    f = BloomFilter.from_bytes(windowed({0: [1]}))
    with pytest.raises(KeyClassError):
        f.contains("x", since=10 ** 30)
    with pytest.raises(TypeError):
        f.contains(None, since=0)


def test_contains_hash_since(f):
    for since, keys in ((None, [1, 2, 3, 4]), (-HOUR, [3, 4]), (math.inf, [])):
        for k in (1, 2, 3, 4):
            h = bloomtype.key_hash(k, f.seed)
            assert f.contains_hash(h, since=since) == (k in keys)
            assert f.contains_hash(h & MASK, since=since) == (k in keys)


def test_since_on_a_filter_that_keeps_no_time(filters):
    for name in ("bloom_int", "scalable_int", "state_light", "counting_int", "cuckoo_int",
                 "agg_empty"):
        f = bloomtype.load(bytes.fromhex(_hex(filters, name)))
        assert f.contains(1, since=None) == f.contains(1)
        for call in (lambda: f.contains(1, since=0), lambda: f.contains_many([1], since=0),
                     lambda: f.contains_hash(1, since=datetime.now(UTC))):
            with pytest.raises(ValueError, match="keeps no time") as e:
                call()
            assert type(f).__name__ in str(e.value) and "windowed" in str(e.value)


def test_empty_and_expired_filters(filters):
    empty = BloomFilter.from_bytes(bytes.fromhex(_hex(filters, "window_empty")))
    assert empty.key_class == "none"
    i = empty.info()
    assert i["newest"] is None and i["slices"] == [] and i["window"] == 7
    assert i["slice_length"] == timedelta(days=1)
    for since in (None, 0, -math.inf, math.inf, datetime(2026, 1, 1)):
        assert not empty.contains(5, since=since) and not empty.contains("x", since=since)
    expired = BloomFilter.from_bytes(bytes.fromhex(_hex(filters, "window_expired")))
    assert expired.key_class == "integer" and expired.info()["newest"] is not None
    assert expired.info()["slices"] == []
    assert not any(expired.contains_many(range(-50, 1100), since=-math.inf))
    with pytest.raises(KeyClassError):
        expired.contains("x")


def test_info_of_the_slices(f):
    i = f.info()
    assert i["kind"] == 9 and i["kind_name"] == "windowed" and i["version"] == 5
    assert i["slice_usec"] == HOUR and i["slice_length"] == timedelta(hours=1)
    assert i["window"] == 4 and i["newest"] == 0 and i["k"] == 3 and i["blocks"] == 4
    assert [s["slice"] for s in i["slices"]] == [-3, -2, -1, 0]
    assert [s["items"] for s in i["slices"]] == [1, 1, 1, 1] and i["items"] == 4
    first = i["slices"][0]
    assert first["start"] == datetime(1969, 12, 31, 21, tzinfo=UTC)
    assert first["end"] == datetime(1969, 12, 31, 22, tzinfo=UTC)
    assert (first["start_usec"], first["end_usec"]) == (-3 * HOUR, -2 * HOUR)
    assert "BloomFilter kind 9 (windowed)" in repr(f)
    # slices past datetime's years: no datetime, the microseconds still
    far = BloomFilter.from_bytes(windowed({200: [1]}, slice_usec=31622400000000000))
    s = far.info()["slices"][0]
    assert s["start"] is None and s["end"] is None
    assert s["start_usec"] == 200 * 31622400000000000


def test_a_full_window_of_32_slices():
    slices = {s: [s * 10 + 1, s * 10 + 2] for s in range(100, 132)}
    f = BloomFilter.from_bytes(windowed(slices, window=31, blocks=8))
    for s in range(100, 132):
        assert f.contains(s * 10 + 1, since=s * HOUR)
        assert f.contains_many([s * 10 + 1, s * 10 + 2], since=(s + 1) * HOUR - 1) == [True, True]
    assert not any(f.contains(s * 10 + 1, since=131 * HOUR) for s in range(100, 120))


def test_a_windowed_filter_is_immutable_and_pickles(f):
    with pytest.raises(AttributeError):
        f._window = None
    g = pickle.loads(pickle.dumps(f))
    assert g.info() == f.info() and present(g, -HOUR) == [3, 4]


def test_load_and_the_other_types():
    data = windowed(BEFORE_1970)
    assert type(bloomtype.load(data)) is BloomFilter
    assert BloomFilter.from_hex("\\x" + data.hex()).contains(1, since=-3 * HOUR)
    for reader in (CountingBloomFilter, CuckooFilter):
        with pytest.raises(FormatError) as e:
            reader.from_bytes(data)
        assert e.value.code == "othertype" and "another bloomtype type" in str(e.value)


def _set(data, offset, fmt, value):
    d = bytearray(data)
    struct.pack_into(fmt, d, offset, value)
    return bytes(d)


GOOD = windowed({98: [1], 100: [2, 3]}, newest=100, window=4)
LIM = (2 ** 63 - 1) // HOUR - 64


@pytest.mark.parametrize("why,data,code", [
    # bloom_decode's steps 4 and 5, then windowed_decode's (FORMAT.md, Kind 9)
    ("version 4", _set(GOOD, 4, "B", 4), "kind"),
    ("version 1", _set(GOOD, 4, "B", 1), "kind"),
    ("version 6", _set(GOOD, 4, "B", 6), "version"),
    ("kind 1 in version 5", _set(GOOD, 5, "B", 1), "kind"),
    ("kind 10", _set(GOOD, 5, "B", 10), "kind"),
    ("hash 2", _set(GOOD, 6, "B", 2), "hash"),
    ("key class 7", _set(GOOD, 7, "B", 7), "keyclass"),
    ("flags", _set(GOOD, 14, "<H", 1), "flags"),
    ("k 0", _set(GOOD, 12, "B", 0), "geometry"),
    ("k 33", _set(GOOD, 12, "B", 33), "geometry"),
    ("block log2 10", _set(GOOD, 13, "B", 10), "geometry"),
    ("blocks 0", _set(GOOD, 56, "<Q", 0), "geometry"),
    ("blocks past the limit", _set(GOOD, 56, "<Q", 8388592), "geometry"),
    ("capacity 0", _set(GOOD, 24, "<Q", 0), "params"),
    ("capacity past the bits", _set(GOOD, 24, "<Q", 4 * 512 + 1), "params"),
    ("rate 1e-10", _set(GOOD, 32, "<d", 1e-10), "params"),
    ("rate NaN", _set(GOOD, 32, "<d", float("nan")), "params"),
    ("header alone", GOOD[:64], "length"),
    ("reserved", _set(GOOD, 95, "B", 1), "flags"),
    ("slice length 0", _set(GOOD, 64, "<q", 0), "params"),
    ("slice length -1", _set(GOOD, 64, "<q", -1), "params"),
    ("slice length past 1000 years", _set(GOOD, 64, "<q", 31622400000000001), "params"),
    ("window 0", _set(GOOD, 80, "<I", 0), "params"),
    ("window 32", _set(GOOD, 80, "<I", 32), "params"),
    ("newest past the limit", _set(GOOD, 72, "<q", LIM + 1), "params"),
    ("newest below the limit", _set(GOOD, 72, "<q", -LIM - 1), "params"),
    ("newest none with slices", _set(GOOD, 72, "<q", NO_TIME), "geometry"),
    ("more slices than the window", windowed({98: [1], 99: [2], 100: [3]}, window=1),
     "geometry"),
    ("slices and length", _set(GOOD, 48, "<Q", 3), "length"),
    ("a byte more", GOOD + b"\0", "length"),
    ("a byte less", GOOD[:-1], "length"),
    ("slice older than the window", _set(GOOD, 96, "<q", 95), "geometry"),
    ("slice newer than the newest", _set(GOOD, 112, "<q", 101), "geometry"),
    ("slices not increasing", _set(GOOD, 96, "<q", 100), "geometry"),
    ("slice items", _set(GOOD, 104, "<Q", 2), "count"),
    ("header items", _set(GOOD, 40, "<Q", 4), "count"),
])
def test_the_checklist(why, data, code):
    with pytest.raises(FormatError) as e:
        BloomFilter.from_bytes(data)
    assert e.value.code == code, why
    assert str(e.value).startswith("invalid bloomfilter value: ")


def test_the_edges_the_checklist_accepts():
    assert BloomFilter.from_bytes(GOOD).contains(1, since=98 * HOUR)
    for data in (_set(GOOD, 72, "<q", 100), _set(GOOD, 32, "<d", 1e-9),
                 _set(GOOD, 24, "<Q", 4 * 512), _set(GOOD, 80, "<I", 31),
                 windowed({LIM: [1]}), windowed({-LIM: [1]}), windowed({}, newest=LIM),
                 windowed({}), windowed({2: [1]}, slice_usec=31622400000000000)):
        BloomFilter.from_bytes(data)
    # the items saturate at 2^64 - 1
    sat = _set(_set(_set(GOOD, 104, "<Q", MASK), 120, "<Q", 5), 40, "<Q", MASK)
    assert BloomFilter.from_bytes(sat).info()["items"] == MASK
