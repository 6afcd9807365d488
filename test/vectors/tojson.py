"""Writes test/vectors/*.json from the tables scripts/vectors.sh exported.

Usage: python3 tojson.py WORKDIR OUTDIR VERSION  (standard library only)

filters.json: {"bloomtype": VERSION, "filters": [{"name", "type", "why",
  "kind", "version", "hex", "keys": [[class, key], ...], "expect": "0110..."}]}
  class is the key's: "int" (decimal text), "text",
  "bytea" (hex), "uuid", "float" (the IEEE 754 bits, big-endian hex) or
  "hash" (the key's 64-bit hash as bloom_key_hash gives it, decimal).
  expect has one character per key: 1 when the server answers that the key
  may be present, 0 when it is certainly absent.  A windowed filter (kind
  9) also has "since": [{"at": T, "expect": "0110..."}]: the answers of
  contains(key, since) for the same keys, T in microseconds from
  1970-01-01 00:00 UTC.

hostile.json: {"bloomtype": VERSION, "values": [{"suite", "id", "why",
  "hex", "accepted_by": [types], "answers": {type: "0110..."}}]}
  answers: for a value a type accepts whose key class is none or integer,
  the server's answers for the integer keys 1 to 16.
"""
import json
import os
import sys



def rows(path):
    # psql's \copy text format: tab-separated, backslash escapes, \N = NULL
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            fields = line.rstrip("\n").split("\t")
            yield [None if f == r"\N" else unescape(f) for f in fields]


def unescape(s):
    if "\\" not in s:
        return s
    out, i = [], 0
    esc = {"t": "\t", "n": "\n", "r": "\r", "\\": "\\", "b": "\b", "f": "\f", "v": "\v"}
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            out.append(esc.get(s[i + 1], s[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def main():
    work, out, version = sys.argv[1:4]
    probes = {}
    for name, ord_, cls, key, expect in rows(os.path.join(work, "probes.tsv")):
        probes.setdefault(name, []).append((int(ord_), cls, key, expect == "t"))
    since = {}
    for name, at, ord_, expect in rows(os.path.join(work, "since.tsv")):
        since.setdefault(name, {}).setdefault(int(at), []).append((int(ord_), expect == "t"))
    filters = []
    for _ord, name, type_, why, hexv in rows(os.path.join(work, "filters.tsv")):
        ps = sorted(probes[name])
        extra = {}
        if name in since:
            extra["since"] = [{"at": at, "expect": "".join("1" if e else "0" for _o, e in sorted(v))}
                              for at, v in sorted(since[name].items())]
        filters.append({
            "name": name,
            "type": type_,
            "why": why,
            "version": int(hexv[8:10], 16),
            "kind": int(hexv[10:12], 16),
            "hex": hexv,
            "keys": [[p[1], p[2]] for p in ps],
            "expect": "".join("1" if p[3] else "0" for p in ps),
            **extra,
        })
    with open(os.path.join(out, "filters.json"), "w", encoding="utf-8") as fh:
        json.dump({"bloomtype": version, "filters": filters}, fh, ensure_ascii=False, indent=1)
        fh.write("\n")

    values = []
    types = ("bloomfilter", "countingbloom", "cuckoofilter")
    for suite in ("bloom", "counting", "cuckoo"):
        for r in rows(os.path.join(work, "hostile_%s.tsv" % suite)):
            suite_, id_, why, hexv = r[0:4]
            accepted = [t for t, a in zip(types, r[4:7]) if a == "t"]
            answers = {t: a for t, a in zip(types, r[7:10]) if a is not None}
            values.append({"suite": suite_, "id": int(id_), "why": why, "hex": hexv,
                           "accepted_by": accepted, "answers": answers})
    with open(os.path.join(out, "hostile.json"), "w", encoding="utf-8") as fh:
        json.dump({"bloomtype": version, "values": values}, fh, ensure_ascii=False, indent=0)
        fh.write("\n")


if __name__ == "__main__":
    main()
