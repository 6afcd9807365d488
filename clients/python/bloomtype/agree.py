"""The agreement program: python3 -m bloomtype.agree DIR

Reads DIR/manifest.json, {"filters": [{"name", "type", "file", "keys", "n",
"answers"}]}: for each filter, the value's raw bytes (file), the class of its
keys, n, and a file of n ASCII '0'/'1' bytes, the server's answers for keys
0 to n - 1.  Loads each value with the reader of its type, asks contains()
of key i for every i, and compares.  A windowed filter's entry may also have
"since" (microseconds from 1970-01-01 UTC) and "since_answers" (a file of n
'0'/'1' bytes, the server's bloom_contains(f, key, since)): its keys are also
asked contains(key, since=since) and compared with those.  Key i is, by class:

    int     i * 1000003 - 400000000
    text    "ключ-" followed by i in decimal (UTF-8)
    bytea   i as 8 bytes big-endian (int8send(i))
    uuid    the md5 digest of i in decimal (ASCII), as a uuid
    float   (i - 500000) / 7.0
    hash    (keys of class "other") the hash of key i, from bloom_key_hash: the
            file named by "hashes", n little-endian 64-bit words

An index's entry may have "mark" (a file holding the mark that came with the
filter from bloom_index_filter_at) and "catchups", [{"hashes", "mark"}]
(files: each bloom_index_changes' hashes and new mark, in order): its keys
are then asked of an IndexCopy of the value brought up to date by every
catch-up, whose mark must end as the last file's.

Prints one line per filter ("name: n keys, P present, agree" or "name: D of
n keys disagree (first at i=..)", with "(C catch-ups, H hashes)" after an
index's), and one per time ("name since T: ...")
and "agree: F filters, D disagreements";
exits 0 only when every filter was read and agrees.  Timings go to stderr.
"""

import hashlib
import json
import os
import struct
import sys
import time
import uuid

from . import READERS, FormatError, IndexCopy


def _int_keys(n):
    return range(-400000000, n * 1000003 - 400000000, 1000003)


def _text_keys(n):
    return ("ключ-%d" % i for i in range(n))


def _bytea_keys(n):
    return (i.to_bytes(8, "big", signed=True) for i in range(n))


def _uuid_keys(n):
    md5 = hashlib.md5
    return (uuid.UUID(bytes=md5(b"%d" % i).digest()) for i in range(n))


def _float_keys(n):
    return ((i - 500000) / 7.0 for i in range(n))


KEYS = {"int": _int_keys, "text": _text_keys, "bytea": _bytea_keys, "uuid": _uuid_keys,
        "float": _float_keys}


def _read(directory, name):
    with open(os.path.join(directory, name), "rb") as fh:
        return fh.read()


def _compare(what, ours, theirs, out, note=""):
    """Prints how ours agrees with the server's answers, and note after;
    returns the disagreements"""
    n = len(theirs)
    if ours == theirs:
        print("%s: %d keys, %d present, agree%s" % (what, n, ours.count(b"1"), note), file=out)
        return 0
    bad = sum(1 for a, b in zip(ours, theirs) if a != b)
    first = next(i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b)
    print("%s: %d of %d keys disagree (first at i=%d)%s" % (what, bad, n, first, note), file=out)
    return bad


def _caught_up(directory, entry, data):
    """An IndexCopy of the entry's value and mark after its catch-ups, and
    the note of how many hashes they brought.  ValueError when a catch-up's
    hashes are not whole or the copy's mark does not end as the last one."""
    copy = IndexCopy(data, _read(directory, entry["mark"]).decode("utf-8"))
    mark = copy.mark
    hashes = 0
    for c in entry["catchups"]:
        raw = _read(directory, c["hashes"])
        mark = _read(directory, c["mark"]).decode("utf-8")
        copy.add_hashes(raw, mark)
        hashes += len(raw) // 8
    if copy.mark != mark:
        raise ValueError("the copy's mark is %r, not %r" % (copy.mark, mark))
    return copy, " (%d catch-ups, %d hashes)" % (len(entry["catchups"]), hashes)


def _asker(directory, entry, f, n, out):
    """(contains, keys) for the entry's class: contains(key, since) and the
    n keys (their hashes for class "other"); None when the hashes are missing"""
    if entry["keys"] != "hash":
        return f.contains, lambda: KEYS[entry["keys"]](n)
    # keys a client cannot encode (class "other"): their hashes, from
    # bloom_key_hash, n little-endian 64-bit words
    raw = _read(directory, entry["hashes"])
    if len(raw) != 8 * n:
        print("%s: %s does not hold %d hashes" % (entry["name"], entry["hashes"], n), file=out)
        return None
    return f.contains_hash, lambda: (h for (h,) in struct.iter_unpack("<Q", raw))


def _well_formed(entry, n, answers, since_answers):
    return len(answers) >= n and (entry["keys"] in KEYS or entry["keys"] == "hash") \
        and entry["type"] in READERS and \
        ("since" not in entry or (type(entry["since"]) is int and len(since_answers) >= n)) \
        and ("mark" not in entry or (entry["type"] == "bloomfilter" and "since" not in entry
                                     and type(entry.get("catchups")) is list))


def check(directory, entry, out=sys.stdout, err=sys.stderr):
    """Checks one filter of the manifest, and its answers since a time when
    the entry has one; returns its disagreements (n when the value could not
    be read)"""
    name, n = entry["name"], int(entry["n"])
    data = _read(directory, entry["file"])
    answers = _read(directory, entry["answers"])
    since_answers = _read(directory, entry["since_answers"]) if "since" in entry else b""
    if not _well_formed(entry, n, answers, since_answers):
        print("%s: bad manifest entry (type %r, keys %r, %d answers for n = %d, since %r, "
              "catchups %r)" % (name, entry["type"], entry["keys"], len(answers), n,
                                entry.get("since"), entry.get("catchups")), file=out)
        return max(n, 1)
    note = ""
    t0 = time.perf_counter()
    try:
        if "mark" in entry:
            f, note = _caught_up(directory, entry, data)
        else:
            f = READERS[entry["type"]].from_bytes(data)
    except FormatError as e:
        print("%s: cannot read the value (%d bytes): %s" % (name, len(data), e), file=out)
        return max(n, 1)
    except ValueError as e:
        print("%s: cannot catch up: %s" % (name, e), file=out)
        return max(n, 1)
    t1 = time.perf_counter()
    asker = _asker(directory, entry, f, n, out)
    if asker is None:
        return max(n, 1)
    contains, keys = asker
    ours = bytes(49 if contains(k) else 48 for k in keys())
    t2 = time.perf_counter()
    bad = _compare(name, ours, answers[:n], out, note)
    if "since" in entry:
        since = entry["since"]
        ours = bytes(49 if contains(k, since=since) else 48 for k in keys())
        bad += _compare("%s since %d" % (name, since), ours, since_answers[:n], out)
    print("  python %s: read%s %.1f ms, %.2f us a key (key made, encoded, hashed, looked up)"
          % (name, " and caught up" if note else "", (t1 - t0) * 1e3,
             (t2 - t1) / max(n, 1) * 1e6), file=err)
    return bad


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python3 -m bloomtype.agree DIR", file=sys.stderr)
        return 2
    directory = argv[0]
    with open(os.path.join(directory, "manifest.json"), encoding="utf-8") as fh:
        manifest = json.load(fh)
    total = 0
    for entry in manifest["filters"]:
        total += check(directory, entry)
        sys.stdout.flush()
    print("agree: %d filters, %d disagreements" % (len(manifest["filters"]), total))
    return 0 if total == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
