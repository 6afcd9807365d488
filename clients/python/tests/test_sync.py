"""IndexCopy (bloomtype/sync.py): what it is made from, how a catch-up's
hashes are added (the index's rule: skipped when an older layer may hold
them, else set in the newest layer), and that the caller's buffer is left
alone.  The values are the scalable filters of the test vectors."""
import struct

import pytest

import bloomtype
from bloomtype import BloomFilter, FormatError, IndexCopy, KeyClassError
from bloomtype.blocked import blocked_test
from conftest import probe_key

MASK = 2 ** 64 - 1


def _value(filters, name):
    return bytes.fromhex([x for x in filters if x["name"] == name][0]["hex"])


def _packed(*hashes):
    return b"".join(struct.pack("<Q", h & MASK) for h in hashes)


def _layer_tests(data):
    """Each layer's own lookup, and where its bits lie, from info()"""
    layers = BloomFilter.from_bytes(data).info()["layers"]
    base = 64 + 32 * len(layers)
    out = []
    for layer in layers:
        size = 64 * layer["blocks"]
        out.append((blocked_test(data, base, layer["blocks"], layer["k"]), base, base + size))
        base += size
    return out


def test_made_from_a_scalable_filter_alone(filters):
    for name in ("bloom_int", "counting_int", "cuckoo_int", "state_light", "state_pending"):
        with pytest.raises(FormatError, match=r"bloom_index_filter_at's filter, a scalable "
                                              r"filter \(kind 4\)") as e:
            IndexCopy(_value(filters, name), "m")
        assert e.value.code == "notscalable", name
    data = _value(filters, "scalable_int")
    # a scalable filter is checked as BloomFilter.from_bytes checks it
    for bad, code in ((data[:-1], "length"), (data[:10], "short"), (b"XLMF" + data[4:], "magic")):
        with pytest.raises(FormatError) as e:
            IndexCopy(bad, "m")
        assert e.value.code == code
    with pytest.raises(TypeError):
        IndexCopy(data.hex(), "m")
    with pytest.raises(TypeError):
        IndexCopy(data, b"m")


def test_lookups_answer_as_the_filter(filters):
    for name in ("scalable_int", "scalable_text_x4", "bloom_int_agg", "bloom_other_date",
                 "scalable_empty"):
        vector = [x for x in filters if x["name"] == name][0]
        data = bytes.fromhex(vector["hex"])
        f, copy = BloomFilter.from_bytes(data), IndexCopy(data, "m")
        for cls, text in vector["keys"]:
            key = probe_key(cls, text)
            if cls == "hash":
                assert copy.contains_hash(key) == f.contains_hash(key)
                continue
            try:
                want = f.contains(key)
            except KeyClassError:
                with pytest.raises(KeyClassError):
                    copy.contains(key)
                continue
            assert copy.contains(key) == (key in copy) == want, (name, key)


def test_a_catch_up_adds_its_hashes_and_takes_its_mark(filters):
    data = _value(filters, "scalable_int")
    copy = IndexCopy(memoryview(data), "bt1/a")
    new = [k for k in range(10 ** 6, 10 ** 6 + 2000) if not copy.contains(k)][:50]
    copy.add_hashes(memoryview(_packed(*(bloomtype.key_hash(k) for k in new))), "bt1/b")
    assert copy.mark == "bt1/b"
    assert all(copy.contains(k) for k in new)
    assert all(copy.contains_hash(bloomtype.key_hash(k)) for k in new)    # signed
    # still a value the server reads, whose lookups answer as the copy's;
    # the header (counts included) as loaded
    after = copy.to_bytes()
    assert bytes(copy) == after and after[:64 + 32 * 4] == data[:64 + 32 * 4]
    f = BloomFilter.from_bytes(after)
    assert all(f.contains(k) == copy.contains(k) for k in range(-100, 3000))
    copy.add_hashes(b"", "bt1/c")
    assert copy.mark == "bt1/c" and copy.to_bytes() == after


def test_a_hash_an_older_layer_holds_is_not_set_again(filters):
    data = _value(filters, "scalable_int")
    layers = _layer_tests(data)
    newest_test, start, end = layers[-1]

    def older(h):
        return any(t(h) for t, _, _ in layers[:-1])

    held = next(h for h in (bloomtype.key_hash(k) & MASK for k in range(-50, 451))
                if older(h) and not newest_test(h))
    fresh = next(h for h in (bloomtype.key_hash(k) & MASK for k in range(10 ** 6, 10 ** 7))
                 if not older(h) and not newest_test(h))
    copy = IndexCopy(data, "m")
    copy.add_hashes(_packed(held), "m1")
    assert copy.to_bytes() == data
    copy.add_hashes(_packed(fresh, held), "m2")
    after = copy.to_bytes()
    # the fresh hash set in the newest layer alone
    assert after[:start] == data[:start] and after[start:end] != data[start:end]
    assert _layer_tests(after)[-1][0](fresh) and copy.contains_hash(fresh)


def test_whole_hashes_or_nothing(filters):
    data = _value(filters, "scalable_int")
    copy = IndexCopy(data, "m")
    good = _packed(*(bloomtype.key_hash(k) for k in range(10 ** 6, 10 ** 6 + 9)))
    for bad in (good[:-1], good + b"\0", b"\1" * 7):
        with pytest.raises(ValueError, match="8 bytes each"):
            copy.add_hashes(bad, "m2")
        assert copy.to_bytes() == data and copy.mark == "m"
    for bad_mark in (None, b"m2"):
        with pytest.raises(TypeError):
            copy.add_hashes(good, bad_mark)
        assert copy.to_bytes() == data and copy.mark == "m"
    with pytest.raises(TypeError):
        copy.add_hashes(good.hex(), "m2")


def test_add_a_committed_key(filters):
    data = bytearray(_value(filters, "scalable_int"))
    original = bytes(data)
    copy = IndexCopy(data, "m")
    new = next(k for k in range(10 ** 6, 10 ** 7) if not copy.contains(k))
    copy.add(new)
    assert copy.contains(new) and copy.mark == "m"
    # the caller's buffer is never written
    assert data == original and copy.to_bytes() != original
    before = copy.to_bytes()
    with pytest.raises(KeyClassError):
        copy.add("text")
    with pytest.raises(TypeError):
        copy.add(None)
    assert copy.to_bytes() == before
    # a key added is a hash added: the same bits
    twin = IndexCopy(original, "m")
    twin.add_hashes(_packed(bloomtype.key_hash(new)), "m")
    assert twin.to_bytes() == before


def test_a_filter_of_no_class_takes_no_key(filters):
    copy = IndexCopy(_value(filters, "scalable_empty"), "m")
    assert not copy.contains(5) and not copy.contains_hash(5)
    with pytest.raises(KeyClassError, match="no key class"):
        copy.add(5)


def test_repr(filters):
    assert repr(IndexCopy(_value(filters, "scalable_int"), "bt1/x")) == \
        "<IndexCopy integer keys, %d bytes, mark 'bt1/x'>" % len(_value(filters, "scalable_int"))
