"""Every filter of test/vectors/filters.json loads with its type's reader and
with load(), and answers every key exactly as the server did; a windowed
filter also since each time the server was asked ("since")."""
from datetime import datetime, timedelta, timezone

import pytest

import bloomtype
from conftest import probe_key


def answers(f, keys, since=None):
    out = []
    for cls, text in keys:
        key = probe_key(cls, text)
        if cls == "hash":
            out.append(f.contains_hash(key, since=since))
        else:
            out.append(f.contains(key, since=since))
    return "".join("1" if a else "0" for a in out)


def as_datetime(usec):
    """A time of the vectors (microseconds since 1970) as an aware datetime"""
    return datetime(1970, 1, 1, tzinfo=timezone.utc) + timedelta(microseconds=usec)


def test_vectors_are_there(filters):
    kinds = {(v["type"], v["kind"]) for v in filters}
    assert len(filters) >= 20
    for kind in (1, 2, 3, 4, 7, 9):
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
            for at in v.get("since", ()):
                assert answers(f, v["keys"], at["at"]) == at["expect"], (v["name"], at["at"])


def test_every_since_answers_as_the_server(filters):
    """contains(key, since) for each time the server was asked: the time as
    microseconds, as an aware datetime (UTC and another zone), as a naive
    one (UTC), and through contains_many and contains_hash"""
    windowed = [v for v in filters if v["kind"] == 9]
    assert len(windowed) >= 4 and all(len(v["since"]) >= 5 for v in windowed)
    tz = timezone(timedelta(hours=-5, minutes=-30))
    for v in windowed:
        f = bloomtype.BloomFilter.from_bytes(bytes.fromhex(v["hex"]))
        keys = [probe_key(c, t) for c, t in v["keys"]]
        for at in v["since"]:
            t = as_datetime(at["at"])
            expect = [e == "1" for e in at["expect"]]
            where = (v["name"], at["at"])
            for since in (at["at"], t, t.astimezone(tz), t.replace(tzinfo=None)):
                assert f.contains_many(keys, since=since) == expect, where
            if f.key_class != "none":
                hashes = [bloomtype.key_hash(k, f.seed) for k in keys]
                assert [f.contains_hash(h, since=t) for h in hashes] == expect, where


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
        if v["kind"] == 9:
            assert i["kind_name"] == "windowed" and i["k"] == data[12]
            assert i["blocks"] == int.from_bytes(data[56:64], "little")
            assert len(i["slices"]) == int.from_bytes(data[48:56], "little")
            assert sum(s["items"] for s in i["slices"]) == i["items"]
            assert i["slice_usec"] == int.from_bytes(data[64:72], "little", signed=True)
            assert i["window"] == int.from_bytes(data[80:84], "little")
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


@pytest.mark.parametrize("name", ["scalable_empty", "agg_empty", "counting_empty", "window_empty"])
def test_a_filter_of_no_class_answers_absent(filters, name):
    v = [x for x in filters if x["name"] == name][0]
    f = bloomtype.load(bytes.fromhex(v["hex"]))
    assert f.key_class == "none"
    assert not any(f.contains(k) for k in (1, "x", b"x", 1.5, 2 ** 63 - 1))
    assert not f.contains_hash(12345)
