"""Key encodings (README.md "Key encodings") against the server's
bloom_key_hash, key classes and their errors."""
import math
import struct
import uuid

import pytest

import bloomtype
from bloomtype import KeyClassError, KeyRangeError, key_hash

# SELECT bloom_key_hash(...) on bloomtype 1.5
SERVER = [
    (42, 0, -3051478158665635896),
    (-2 ** 63, 0, -9038965835861193121),
    (2 ** 63 - 1, 0, -6758830778922508474),
    (0.0, 0, -4072596861322023719),
    (-0.0, 0, -4072596861322023719),
    (float("nan"), 0, 767333564151873895),
    (-float("nan"), 0, 767333564151873895),
    (struct.unpack("<f", struct.pack("<f", 0.1))[0], 0, 6185812578492515446),  # 0.1::real
    (0.1, 0, -3902581968059104307),
    (1.5, 0, 2693614958850487384),
    (float("inf"), 0, 3862676201523092338),
    ("ключ", 0, -7344390190256529698),
    ("", 0, 3244421341483603138),
    (b"\xde\xad\xbe\xef", 0, -4204484777596849071),
    (b"", 0, 3244421341483603138),
    (uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), 0, 6187780171734267751),
    (42, 7, -5685824711826749659),
    (42, -1, 1590978491127421467),
    (42, 2 ** 64 - 1, 1590978491127421467),
    ("x", -2 ** 63, -5307850268518950518),
]


@pytest.mark.parametrize("key,seed,expect", SERVER)
def test_key_hash_is_the_servers(key, seed, expect):
    assert key_hash(key, seed) == expect


def test_buffers_and_subclasses_are_their_class():
    assert key_hash(bytearray(b"\xde\xad\xbe\xef")) == key_hash(memoryview(b"\xde\xad\xbe\xef")) \
        == -4204484777596849071
    assert key_hash(memoryview(b"abcdef")[::2]) == key_hash(b"ace")

    class MyInt(int):
        pass

    class MyStr(str):
        pass

    assert key_hash(MyInt(42)) == key_hash(42)
    assert key_hash(MyStr("ключ")) == key_hash("ключ")
    nan = struct.unpack("<d", struct.pack("<Q", 0xFFF0000000000001))[0]
    assert math.isnan(nan) and key_hash(nan) == key_hash(float("nan"))


@pytest.mark.parametrize("key", [True, False, None, [1], (1,), {1: 2}, object(), 1j])
def test_keys_of_no_class_are_type_errors(key):
    with pytest.raises(TypeError):
        key_hash(key)


@pytest.mark.parametrize("key", [2 ** 63, -2 ** 63 - 1, 2 ** 64, -(10 ** 30)])
def test_integers_past_int64_are_range_errors(key):
    with pytest.raises(ValueError):
        key_hash(key)
    with pytest.raises(OverflowError):
        key_hash(key)
    with pytest.raises(KeyRangeError):
        key_hash(key)


def test_bad_seeds_and_hashes():
    with pytest.raises(ValueError):
        key_hash(1, 2 ** 64)
    with pytest.raises(TypeError):
        key_hash(1, True)


def _filter(filters, name):
    v = [x for x in filters if x["name"] == name][0]
    return bloomtype.load(bytes.fromhex(v["hex"]))


def test_a_key_of_another_class_is_an_error(filters):
    f = _filter(filters, "bloom_int")
    with pytest.raises(KeyClassError) as e:
        f.contains("1")
    assert isinstance(e.value, TypeError)
    assert "bloom filter holds integer keys, not text keys" in str(e.value)
    for key in (b"1", 1.0, uuid.UUID(int=1)):
        with pytest.raises(KeyClassError):
            f.contains(key)
    with pytest.raises(TypeError):
        f.contains(True)
    with pytest.raises(ValueError):
        f.contains(2 ** 63)
    with pytest.raises(KeyClassError, match="cuckoo filter holds uuid keys, not float keys"):
        _filter(filters, "cuckoo_uuid_b8_fixed").contains(0.5)
    with pytest.raises(KeyClassError, match="counting bloom filter holds text keys"):
        _filter(filters, "counting_text_auto").contains(5)


def test_class_other_is_probed_by_hash(filters):
    f = _filter(filters, "bloom_other_date")
    assert f.key_class == "other" and f.info()["key_type"] == 1082
    with pytest.raises(KeyClassError, match="1082") as e:
        f.contains(1)
    assert "contains_hash" in str(e.value)
    for key in ("2020-01-02", b"x", 1.0):
        with pytest.raises(KeyClassError):
            f.contains(key)
    # the keys it holds (SELECT bloom_key_hash('2020-01-01'::date + 1), and so on)
    v = [x for x in filters if x["name"] == "bloom_other_date"][0]
    for (cls, h), e in zip(v["keys"], v["expect"]):
        assert f.contains_hash(int(h)) == (e == "1")
        assert f.contains_hash(int(h) % 2 ** 64) == (e == "1")
    with pytest.raises(ValueError):
        f.contains_hash(2 ** 64)
    with pytest.raises(TypeError):
        f.contains_hash("1")


def test_an_empty_hash_list_keeps_its_class_as_the_server_does(filters):
    # every type keeps the key class of an empty hash list (since 1.6 for
    # countingbloom and cuckoofilter, which read it as a new filter): a key
    # of another class is refused
    v = [x for x in filters if x["name"] == "agg_empty"][0]
    data = bytearray.fromhex(v["hex"])
    data[7] = 1                                     # integer keys
    data = bytes(data)
    f = bloomtype.BloomFilter.from_bytes(data)
    assert f.contains(1) is False
    with pytest.raises(KeyClassError):
        f.contains("x")
    for reader in (bloomtype.CountingBloomFilter, bloomtype.CuckooFilter):
        g = reader.from_bytes(data)
        assert g.contains(1) is False
        with pytest.raises(KeyClassError):
            g.contains("x")
        assert g.info()["key_class"] == "integer"


def test_a_class_none_filter_still_refuses_non_keys(filters):
    f = _filter(filters, "scalable_empty")
    with pytest.raises(TypeError):
        f.contains(None)
    with pytest.raises(ValueError):
        f.contains(2 ** 64)


def test_numpy_scalars():
    np = pytest.importorskip("numpy")
    assert key_hash(np.int64(42)) == key_hash(np.int32(42)) == key_hash(42)
    assert key_hash(np.float32(0.1)) == key_hash(struct.unpack("<f", struct.pack("<f", 0.1))[0])
    assert key_hash(np.float64(-0.0)) == key_hash(0.0)
    with pytest.raises(TypeError):
        key_hash(np.bool_(True))


def _vector(filters, name):
    return bloomtype.load(bytes.fromhex(next(v["hex"] for v in filters if v["name"] == name)))


def test_text_keys_postgres_cannot_hold_are_refused(filters):
    f = _vector(filters, "bloom_text")
    for bad in ("a\x00b", "\x00", "a\ud800"):
        with pytest.raises(ValueError):
            f.contains(bad)
        with pytest.raises(ValueError):
            bloomtype.key_hash(bad)
    assert f.contains("ключ") is True


def test_contains_many_takes_an_iterable_of_keys(filters):
    f = _vector(filters, "bloom_text")
    with pytest.raises(TypeError):
        f.contains_many("k1")
    assert f.contains_many(["k1", "ключ"]) == [f.contains("k1"), True]
    with pytest.raises(TypeError):
        f.contains(None)
