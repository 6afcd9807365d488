"""bloomtype: read the PostgreSQL extension bloomtype's filters in Python.

Load a filter's bytes once (SELECT f::bytea) and answer contains(key)
locally, with exactly the server's answers:

    import bloomtype
    f = bloomtype.BloomFilter.from_bytes(row[0])     # or bloomtype.load(row[0])
    f.contains(42)          # False: certainly absent; True: maybe present
    w.contains(42, since=datetime(2026, 11, 1, tzinfo=timezone.utc))
                            # a windowed filter (kind 9): the slices after a time

BloomFilter, CountingBloomFilter and CuckooFilter accept exactly what the
server's input for bloomfilter, countingbloom and cuckoofilter accepts
(docs/FORMAT.md), with one exception: an aggregate's hash list that holds
hashes (a partial state, never a final result) is refused, as the filter it
stands for is sized by the server's planner; materialise it on the server.
A malformed value is a FormatError (a ValueError); a key of another class
than the filter's a KeyClassError (a TypeError).

IndexCopy keeps a copy of a bloomfilter index's filter in step with the
index (bloom_index_filter_at, then bloom_index_changes from its mark).
"""

from .bloom import BloomFilter
from .counting import CountingBloomFilter
from .cuckoo import CuckooFilter
from .errors import FormatError, KeyClassError, KeyRangeError
from .header import (
    KIND_BLOCKED, KIND_BUFFERED, KIND_COUNTING, KIND_CUCKOO, KIND_HASHLIST, KIND_SCALABLE,
    KIND_SPARSE, KIND_SPARSE_COUNTING, KIND_WINDOWED, as_bytes, parse_text,
)
from .keys import key_hash
from .sync import IndexCopy

__all__ = [
    "BloomFilter", "CountingBloomFilter", "CuckooFilter", "FormatError", "IndexCopy",
    "KeyClassError", "KeyRangeError", "key_hash", "load", "load_hex", "READERS",
]

__version__ = "1.8.0"

# the reader of each SQL type
READERS = {
    "bloomfilter": BloomFilter,
    "countingbloom": CountingBloomFilter,
    "cuckoofilter": CuckooFilter,
}

_BY_KIND = {
    KIND_BLOCKED: BloomFilter,
    KIND_BUFFERED: BloomFilter,
    KIND_SCALABLE: BloomFilter,
    KIND_SPARSE: BloomFilter,
    KIND_WINDOWED: BloomFilter,
    KIND_COUNTING: CountingBloomFilter,
    KIND_SPARSE_COUNTING: CountingBloomFilter,
    KIND_CUCKOO: CuckooFilter,
}


def load(data):
    """Reads a value of any of the three types, by its kind: a value that
    some type's input accepts (a hash list of version 1 reads as a
    BloomFilter, of version 3 as a CuckooFilter)."""
    data = as_bytes(data)
    kind = data[5] if len(data) > 5 else 0
    if kind == KIND_HASHLIST:
        cls = CuckooFilter if data[4] == 3 else BloomFilter
    else:
        cls = _BY_KIND.get(kind, BloomFilter)
    return cls.from_bytes(data)


def load_hex(text):
    """load() of a value's text form (\\x and hex digits)"""
    return load(parse_text(text, "bloomtype"))
