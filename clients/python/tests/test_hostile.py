"""The server's hostile suites (test/vectors/hostile.json): each reader accepts
exactly what its type's input accepts, but for a hash list holding hashes,
refused with the documented FormatError; load() accepts what some type
accepts; accepted values answer the integer keys 1 to 16 as the server."""
import bloomtype
from conftest import holds_hashes

TYPES = ("bloomfilter", "countingbloom", "cuckoofilter")


def read(reader, data):
    try:
        return reader.from_bytes(data), None
    except bloomtype.FormatError as e:
        assert str(e) and e.code
        return None, e


def test_each_reader_accepts_what_its_type_accepts(hostile):
    checked = answered = 0
    for v in hostile:
        data = bytes.fromhex(v["hex"])
        for t in TYPES:
            f, err = read(bloomtype.READERS[t], data)
            accepted = t in v["accepted_by"]
            where = "%s %d (%s) as %s" % (v["suite"], v["id"], v["why"], t)
            if accepted and holds_hashes(data):
                assert f is None and err.code == "hashlist", where
                assert "bloom_union_agg" in str(err) or "_union_agg" in str(err), where
                continue
            assert (f is not None) == accepted, "%s: %s" % (where, err)
            checked += 1
            if f is not None and t in v["answers"]:
                got = "".join("1" if f.contains(i) else "0" for i in range(1, 17))
                assert got == v["answers"][t], where
                answered += 1
    assert checked > 6000 and answered > 30


def test_load_accepts_what_some_type_accepts(hostile):
    for v in hostile:
        data = bytes.fromhex(v["hex"])
        f = err = None
        try:
            f = bloomtype.load(data)
        except bloomtype.FormatError as e:
            err = e
        expect = bool(v["accepted_by"]) and not holds_hashes(data)
        assert (f is not None) == expect, "%s %d (%s): %s" % (v["suite"], v["id"], v["why"], err)
        if f is not None:
            assert f.TYPE_NAME in v["accepted_by"]


def test_a_value_of_another_type_names_it(hostile):
    for v in hostile:
        data = bytes.fromhex(v["hex"])
        if v["accepted_by"] == ["cuckoofilter"] and data[5] == 6:
            _, err = read(bloomtype.BloomFilter, data)
            assert err.code == "othertype"
            assert "another bloomtype type" in str(err)
            break
