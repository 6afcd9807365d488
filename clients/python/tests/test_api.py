"""The readers' API: constructors, the text form, immutability, info()."""
import pickle

import pytest

import bloomtype
from bloomtype import BloomFilter, CountingBloomFilter, CuckooFilter, FormatError


def _hex(filters, name):
    return [x for x in filters if x["name"] == name][0]["hex"]


def test_text_form(filters):
    h = _hex(filters, "bloom_int")
    assert BloomFilter.from_hex("\\x" + h).contains(5)
    assert BloomFilter.from_hex("\\x" + h.upper()).contains(5)
    assert BloomFilter.from_hex(("\\x" + h).encode()).contains(5)
    for bad, code in (("", "syntax"), (h, "syntax"), ("\\X" + h, "syntax"), ("x" + h, "syntax"),
                      ("\\x" + h[:-1], "syntax"), ("\\x" + h[:-2] + "zz", "syntax"),
                      ("\\x " + h[1:], "syntax"), ("\\x" + h + "\n", "syntax"),
                      ("\\x" + h[:-2] + "é0", "syntax"), ("\\x", "short")):
        with pytest.raises(FormatError) as e:
            BloomFilter.from_hex(bad)
        assert e.value.code == code, bad[:20]
    with pytest.raises(TypeError):
        BloomFilter.from_hex(5)


def test_constructors_take_buffers_only(filters):
    h = _hex(filters, "bloom_int")
    with pytest.raises(TypeError):
        BloomFilter.from_bytes(h)
    with pytest.raises(TypeError):
        bloomtype.load(None)
    with pytest.raises(TypeError):
        BloomFilter(bytes.fromhex(h))


def test_a_reader_owns_its_bytes(filters):
    data = bytearray.fromhex(_hex(filters, "bloom_int"))
    f = BloomFilter.from_bytes(data)
    before = f.contains_many(range(-50, 450))
    data[64:] = bytes(len(data) - 64)
    assert f.contains_many(range(-50, 450)) == before
    assert f.to_bytes() == bytes.fromhex(_hex(filters, "bloom_int"))


def test_filters_are_immutable(filters):
    f = bloomtype.load(bytes.fromhex(_hex(filters, "cuckoo_int")))
    with pytest.raises(AttributeError):
        f._test = lambda h: True
    with pytest.raises(AttributeError):
        f.anything = 1
    with pytest.raises(AttributeError):
        del f._data
    info = f.info()
    info["items"] = -1
    info["subfilters"].clear()
    assert f.info()["items"] > 0 and f.info()["subfilters"]


def test_pickle_round_trips(filters):
    for name in ("bloom_int", "counting_light", "cuckoo_text_b2_x4"):
        f = bloomtype.load(bytes.fromhex(_hex(filters, name)))
        g = pickle.loads(pickle.dumps(f))
        assert type(g) is type(f) and g.info() == f.info()


def test_info_fields(filters):
    i = bloomtype.load(bytes.fromhex(_hex(filters, "scalable_int"))).info()
    assert i["kind_name"] == "scalable" and i["expansion"] == 2 and len(i["layers"]) > 1
    assert set(i["layers"][0]) == {"blocks", "capacity", "items", "k"}
    i = bloomtype.load(bytes.fromhex(_hex(filters, "cuckoo_text_b2_x4"))).info()
    assert i["bucket_size"] == 2 and i["expansion"] == 4 and i["max_kicks"] == 500
    assert {"deletes", "absorbed", "stuck"} <= set(i) and i["key_class"] == "text"
    assert set(i["subfilters"][0]) == {"buckets", "capacity", "items", "fingerprint_bits"}
    i = bloomtype.load(bytes.fromhex(_hex(filters, "counting_int"))).info()
    assert i["removes"] == 50 and i["type"] == "countingbloom"
    i = bloomtype.load(bytes.fromhex(_hex(filters, "state_pending"))).info()
    assert i["pending"] > 0 and i["kind"] == 3
    i = bloomtype.load(bytes.fromhex(_hex(filters, "state_light"))).info()
    assert i["hashes"] == 100 and i["kind"] == 7
    i = bloomtype.load(bytes.fromhex(_hex(filters, "bloom_int"))).info()
    assert i["fixed"] is True and i["fpr"] == 0.2 and i["key_class"] == "integer"
    assert "BloomFilter kind 1" in repr(bloomtype.load(bytes.fromhex(_hex(filters, "bloom_int"))))


def test_readers_refuse_other_types(filters):
    for name, refusing in (("bloom_int", (CountingBloomFilter, CuckooFilter)),
                           ("counting_int", (BloomFilter, CuckooFilter)),
                           ("counting_light", (BloomFilter, CuckooFilter)),
                           ("state_light", (CountingBloomFilter, CuckooFilter)),
                           ("cuckoo_int", (BloomFilter, CountingBloomFilter))):
        for reader in refusing:
            with pytest.raises(FormatError) as e:
                reader.from_bytes(bytes.fromhex(_hex(filters, name)))
            assert e.value.code == "othertype", (name, reader)


def test_a_hash_list_with_hashes_is_refused_with_the_hint(hostile):
    v = [x for x in hostile if x["suite"] == "counting" and x["why"] == "hash list"][0]
    for reader, hint in ((BloomFilter, "bloom_union_agg"), (CountingBloomFilter, "counting_union_agg"),
                         (CuckooFilter, "cuckoo_union_agg")):
        with pytest.raises(FormatError, match=hint) as e:
            reader.from_bytes(bytes.fromhex(v["hex"]))
        assert e.value.code == "hashlist" and "planner" in str(e.value)
