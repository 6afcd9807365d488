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


# The windowed values of the bloom suite (1.7) and the C core's reason for
# each (bloom_decode); countingbloom and cuckoofilter refuse every one as a
# value of another type (kind 9 or kind 1, whatever the version)
WINDOW_REASONS = {
    "window: version 4": "kind", "window: version 2": "kind", "window: version 6": "version",
    "window: kind 4 in version 5": "kind", "window: kind 7 in version 5": "kind",
    "version 5 of kind 1": "kind", "window: k 0": "geometry", "window: k 33": "geometry",
    "window: block log2 8": "geometry", "window: flags": "flags",
    "window: capacity 0": "params", "window: capacity past the bits": "params",
    "window: rate 0.6": "params", "window: rate 1e-10": "params", "window: items": "count",
    "window: slices past the window": "geometry", "window: slices and length": "length",
    "window: blocks 0": "geometry", "window: slice length 0": "params",
    "window: slice length negative": "params", "window: slice length past 1000 years": "params",
    "window: newest past the slices": "geometry", "window: newest none with slices": "geometry",
    "window: newest out of range": "params", "window: window 0": "params",
    "window: window 32": "params", "window: window 1, a slice outside it": "geometry",
    "window: reserved": "flags", "window: slices not increasing": "geometry",
    "window: slice older than the window": "geometry",
    "window: a slice newer than the newest": "geometry", "window: slice items": "count",
    "window: extra byte": "length",
}

VERSION_DETAIL = ("invalid bloomfilter value: The format version is not one this build reads "
                  "(it reads versions 1, 2, 4 and 5).")


def test_windowed_values_are_refused_for_the_servers_reasons(hostile):
    seen = 0
    for v in hostile:
        why = v["why"]
        if not (why.startswith("window") or why.startswith("version 5 of kind 1")):
            continue
        data = bytes.fromhex(v["hex"])
        expect = "length" if why.startswith("window truncated") else WINDOW_REASONS[why]
        _, err = read(bloomtype.BloomFilter, data)
        assert err is not None and err.code == expect, (why, err)
        if expect == "version":
            assert str(err) == VERSION_DETAIL
        for t in ("countingbloom", "cuckoofilter"):
            _, err = read(bloomtype.READERS[t], data)
            assert err is not None and err.code == "othertype", (why, t, err)
        seen += 1
    assert seen == 43
