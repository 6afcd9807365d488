"""The agreement program (bloomtype.agree) on a manifest written here: a
windowed filter's answers with and without a time, an index's filter
caught up (its mark and catch-ups), and what it reports when they differ
or an entry is malformed."""
import io
import json
import struct

from bloomtype import IndexCopy, agree, key_hash
from conftest import windowed

HOUR = 3600 * 10 ** 6


def _write(tmp_path, answers, since_answers, since=0):
    keys = list(agree.KEYS["int"](6))
    (tmp_path / "w.bin").write_bytes(windowed({-1: keys[:3], 0: keys[3:]}, blocks=16))
    (tmp_path / "w.ans").write_bytes(answers)
    (tmp_path / "w.since.ans").write_bytes(since_answers)
    entry = {"name": "w", "type": "bloomfilter", "file": "w.bin", "keys": "int", "n": 6,
             "answers": "w.ans", "since": since, "since_answers": "w.since.ans"}
    (tmp_path / "manifest.json").write_text(json.dumps({"filters": [entry]}))
    return entry


def _check(tmp_path, entry):
    out = io.StringIO()
    bad = agree.check(str(tmp_path), entry, out=out, err=io.StringIO())
    return bad, out.getvalue()


def test_since_is_checked(tmp_path):
    entry = _write(tmp_path, b"111111", b"000111")
    bad, out = _check(tmp_path, entry)
    assert bad == 0 and "w since 0: 6 keys, 3 present, agree" in out
    assert agree.main([str(tmp_path)]) == 0


def test_a_since_disagreement_is_counted(tmp_path):
    entry = _write(tmp_path, b"111111", b"111111")
    bad, out = _check(tmp_path, entry)
    assert bad == 3 and "w since 0: 3 of 6 keys disagree (first at i=0)" in out
    assert agree.main([str(tmp_path)]) == 1
    entry = _write(tmp_path, b"111111", b"000000", since=HOUR)
    assert _check(tmp_path, entry)[0] == 0


def test_bad_since_entries(tmp_path):
    for since, answers in ((0, b"000"), ("1970-01-01", b"000111"), (1.5, b"000111")):
        entry = _write(tmp_path, b"111111", answers, since=since)
        bad, out = _check(tmp_path, entry)
        assert bad == 6 and "bad manifest entry" in out


def _write_sync(tmp_path, filters, rounds):
    """An index's entry: scalable_int of the vectors, its mark, and a
    catch-up of the hashes of each round's keys; the answers those of the
    value with every round's keys added"""
    value = bytes.fromhex([x for x in filters if x["name"] == "scalable_int"][0]["hex"])
    keys = list(agree.KEYS["int"](40))
    (tmp_path / "s.bin").write_bytes(value)
    (tmp_path / "s.mark").write_text("bt1/0")
    expect = IndexCopy(value, "bt1/0")
    catchups = []
    for r, picked in enumerate(rounds, 1):
        hashes = b"".join(struct.pack("<q", key_hash(keys[i])) for i in picked)
        (tmp_path / ("s.%d.catchup" % r)).write_bytes(hashes)
        (tmp_path / ("s.%d.mark" % r)).write_text("bt1/%d" % r)
        catchups.append({"hashes": "s.%d.catchup" % r, "mark": "s.%d.mark" % r})
        expect.add_hashes(hashes, "bt1/%d" % r)
    (tmp_path / "s.ans").write_bytes(bytes(49 if expect.contains(k) else 48 for k in keys))
    return {"name": "s", "type": "bloomfilter", "file": "s.bin", "keys": "int", "n": 40,
            "answers": "s.ans", "mark": "s.mark", "catchups": catchups}


def test_an_index_entry_is_caught_up(tmp_path, filters):
    entry = _write_sync(tmp_path, filters, [range(0, 40, 4), [], range(2, 40, 4)])
    bad, out = _check(tmp_path, entry)
    assert bad == 0 and out.startswith("s: 40 keys, ") and \
        out.endswith(" present, agree (3 catch-ups, 20 hashes)\n")
    # without its catch-ups, the keys they bring are missing
    bad, out = _check(tmp_path, dict(entry, catchups=[]))
    assert bad > 0 and "(0 catch-ups, 0 hashes)" in out


def test_bad_index_entries(tmp_path, filters):
    entry = _write_sync(tmp_path, filters, [range(0, 40, 4)])
    (tmp_path / "s.1.catchup").write_bytes(b"\0" * 9)
    bad, out = _check(tmp_path, entry)
    assert bad == 40 and "cannot catch up: hashes are 8 bytes each" in out
    for broken in (dict(entry, catchups=None), dict(entry, type="cuckoofilter"),
                   dict(entry, since=0, since_answers="s.ans")):
        bad, out = _check(tmp_path, broken)
        assert bad == 40 and "bad manifest entry" in out
    (tmp_path / "s.bin").write_bytes(bytes.fromhex(
        [x for x in filters if x["name"] == "bloom_int"][0]["hex"]))
    bad, out = _check(tmp_path, entry)
    assert bad == 40 and "cannot read the value" in out and "kind 4" in out
