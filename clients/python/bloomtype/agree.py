"""The agreement program: python3 -m bloomtype.agree DIR

Reads DIR/manifest.json, {"filters": [{"name", "type", "file", "keys", "n",
"answers"}]}: for each filter, the value's raw bytes (file), the class of its
keys, n, and a file of n ASCII '0'/'1' bytes, the server's answers for keys
0 to n - 1.  Loads each value with the reader of its type, asks contains()
of key i for every i, and compares.  Key i is, by class:

    int     i * 1000003 - 400000000
    text    "ключ-" followed by i in decimal (UTF-8)
    bytea   i as 8 bytes big-endian (int8send(i))
    uuid    the md5 digest of i in decimal (ASCII), as a uuid
    float   (i - 500000) / 7.0
    hash    (keys of class "other") the hash of key i, from bloom_key_hash: the
            file named by "hashes", n little-endian 64-bit words

Prints one line per filter ("name: n keys, P present, agree" or "name: D of
n keys disagree (first at i=..)") and "agree: F filters, D disagreements";
exits 0 only when every filter was read and agrees.  Timings go to stderr.
"""

import hashlib
import json
import os
import struct
import sys
import time
import uuid

from . import READERS, FormatError


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


def check(directory, entry, out=sys.stdout, err=sys.stderr):
    """Checks one filter of the manifest; returns its disagreements (n when
    the value could not be read)"""
    name, n = entry["name"], int(entry["n"])
    with open(os.path.join(directory, entry["file"]), "rb") as fh:
        data = fh.read()
    with open(os.path.join(directory, entry["answers"]), "rb") as fh:
        answers = fh.read()
    if len(answers) < n or (entry["keys"] not in KEYS and entry["keys"] != "hash") \
            or entry["type"] not in READERS:
        print("%s: bad manifest entry (type %r, keys %r, %d answers for n = %d)"
              % (name, entry["type"], entry["keys"], len(answers), n), file=out)
        return max(n, 1)
    t0 = time.perf_counter()
    try:
        f = READERS[entry["type"]].from_bytes(data)
    except FormatError as e:
        print("%s: cannot read the value (%d bytes): %s" % (name, len(data), e), file=out)
        return max(n, 1)
    t1 = time.perf_counter()
    if entry["keys"] == "hash":
        # keys a client cannot encode (class "other"): their hashes, from
        # bloom_key_hash, n little-endian 64-bit words
        with open(os.path.join(directory, entry["hashes"]), "rb") as fh:
            raw = fh.read()
        if len(raw) != 8 * n:
            print("%s: %s does not hold %d hashes" % (name, entry["hashes"], n), file=out)
            return max(n, 1)
        contains, keys = f.contains_hash, (h for (h,) in struct.iter_unpack("<Q", raw))
    else:
        contains, keys = f.contains, KEYS[entry["keys"]](n)
    ours = bytes(49 if contains(k) else 48 for k in keys)
    t2 = time.perf_counter()
    theirs = answers[:n]
    if ours == theirs:
        print("%s: %d keys, %d present, agree" % (name, n, ours.count(b"1")), file=out)
        bad = 0
    else:
        bad = sum(1 for a, b in zip(ours, theirs) if a != b)
        first = next(i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b)
        print("%s: %d of %d keys disagree (first at i=%d)" % (name, bad, n, first), file=out)
    print("  python %s: read %.1f ms, %.2f us a key (key made, encoded, hashed, looked up)"
          % (name, (t1 - t0) * 1e3, (t2 - t1) / max(n, 1) * 1e6), file=err)
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
