"""The agreement program (bloomtype.agree) on a manifest written here: a
windowed filter's answers with and without a time, and what it reports
when they differ or an entry is malformed."""
import io
import json

from bloomtype import agree
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
