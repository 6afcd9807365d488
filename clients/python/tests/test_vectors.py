"""Every filter of test/vectors/filters.json loads with its type's reader and
with load(), and answers every key exactly as the server did."""
import pytest

import bloomtype
from conftest import probe_key


def answers(f, keys):
    out = []
    for cls, text in keys:
        key = probe_key(cls, text)
        out.append(f.contains_hash(key) if cls == "hash" else f.contains(key))
    return "".join("1" if a else "0" for a in out)


def test_vectors_are_there(filters):
    kinds = {(v["type"], v["kind"]) for v in filters}
    assert len(filters) >= 20
    for kind in (1, 2, 3, 4, 7):
        assert ("bloomfilter", kind) in kinds
    assert ("countingbloom", 5) in kinds and ("countingbloom", 8) in kinds
    assert ("cuckoofilter", 6) in kinds


def test_every_filter_answers_as_the_server(filters):
    for v in filters:
        data = bytes.fromhex(v["hex"])
        reader = bloomtype.READERS[v["type"]]
        for f in (reader.from_bytes(data), bloomtype.load(data),
                  reader.from_hex("\\x" + v["hex"]), bloomtype.load_hex("\\x" + v["hex"]),
                  reader.from_bytes(bytearray(data)), reader.from_bytes(memoryview(data))):
            assert type(f) is reader, v["name"]
            assert answers(f, v["keys"]) == v["expect"], v["name"]


def test_contains_many_and_in(filters):
    for v in filters:
        f = bloomtype.load(bytes.fromhex(v["hex"]))
        keys = [probe_key(c, t) for c, t in v["keys"] if c != "hash"]
        expect = [e == "1" for (c, _), e in zip(v["keys"], v["expect"]) if c != "hash"]
        assert f.contains_many(keys) == expect, v["name"]
        assert [k in f for k in keys] == expect, v["name"]


def test_info_is_the_header(filters):
    for v in filters:
        data = bytes.fromhex(v["hex"])
        i = bloomtype.load(data).info()
        assert i["type"] == v["type"] and i["kind"] == v["kind"] and i["version"] == v["version"]
        assert i["bytes"] == len(data)
        assert i["seed"] == int.from_bytes(data[16:24], "little")
        assert i["capacity"] == int.from_bytes(data[24:32], "little")
        assert i["items"] == int.from_bytes(data[40:48], "little")
        if v["kind"] in (1, 3, 5, 7, 8):
            assert i["blocks"] == int.from_bytes(data[48:56], "little") and i["k"] == data[12]
        if v["kind"] == 4:
            assert len(i["layers"]) == int.from_bytes(data[48:56], "little")
            assert sum(layer["items"] for layer in i["layers"]) == i["items"]
        if v["kind"] == 6:
            assert i["bucket_size"] == data[12]
            assert sum(s["items"] for s in i["subfilters"]) == i["items"]
    seeded = [v for v in filters if v["name"] == "bloom_text_seeded"]
    if seeded:
        assert bloomtype.load(bytes.fromhex(seeded[0]["hex"])).seed == 0x2A5A000000000007


def test_contains_hash_is_contains(filters):
    """contains_hash(bloom_key_hash(key)) answers as contains(key), signed or not"""
    for v in filters:
        f = bloomtype.load(bytes.fromhex(v["hex"]))
        if f.key_class in ("none", "other"):
            continue
        for (cls, text), e in zip(v["keys"], v["expect"]):
            key = probe_key(cls, text)
            h = bloomtype.key_hash(key, f.seed)
            assert f.contains_hash(h) == (e == "1") == f.contains_hash(h & (2 ** 64 - 1))


@pytest.mark.parametrize("name", ["scalable_empty", "agg_empty", "counting_empty"])
def test_a_filter_of_no_class_answers_absent(filters, name):
    v = [x for x in filters if x["name"] == name][0]
    f = bloomtype.load(bytes.fromhex(v["hex"]))
    assert f.key_class == "none"
    assert not any(f.contains(k) for k in (1, "x", b"x", 1.5, 2 ** 63 - 1))
    assert not f.contains_hash(12345)
