"""The tests import bloomtype from the source tree (clients/python) and read
the test vectors of the repository (test/vectors, made by scripts/vectors.sh
from the extension)."""
import json
import os
import struct
import sys
import uuid

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
VECTORS = os.path.join(REPO, "test", "vectors")


def _load(name):
    with open(os.path.join(VECTORS, name), encoding="utf-8") as fh:
        return json.load(fh)


@pytest.fixture(scope="session")
def filters():
    return _load("filters.json")["filters"]


@pytest.fixture(scope="session")
def hostile():
    return _load("hostile.json")["values"]


def probe_key(cls, text):
    """A key of the vectors (test/vectors/tojson.py) as a Python key"""
    if cls in ("int", "hash"):
        return int(text)
    if cls == "text":
        return text
    if cls == "bytea":
        return bytes.fromhex(text)
    if cls == "uuid":
        return uuid.UUID(text)
    if cls == "float":
        return struct.unpack(">d", bytes.fromhex(text))[0]
    raise ValueError(cls)


def holds_hashes(data):
    """A kind 2 hash list with hashes in use: the clients' one exception"""
    return len(data) >= 64 and data[:4] == b"BLMF" and data[5] == 2 and \
        int.from_bytes(data[56:64], "little") > 0


def windowed(slices, newest=None, slice_usec=3600 * 10 ** 6, window=4, k=3, blocks=4,
             key_class=1, seed=0, capacity=100, fpr=0.5):
    """A windowed value (kind 9) by docs/FORMAT.md's layout: slices {slice
    number: [keys]}, each slice's keys set as kind 1 sets them"""
    import bloomtype
    from bloomtype.blocked import set_hashes

    numbers = sorted(slices)
    if newest is None:
        newest = numbers[-1] if numbers else -2 ** 63
    items = sum(len(slices[s]) for s in numbers)
    head = struct.pack("<4sBBBBIBBHQQdQQQ", b"BLMF", 5, 9, 1, key_class, 0, k, 9, 0,
                       seed, capacity, fpr, items, len(numbers), blocks)
    head += struct.pack("<qqI12x", slice_usec, newest, window)
    for s in numbers:
        head += struct.pack("<qQ", s, len(slices[s]))
    bits = bytearray(len(numbers) * blocks * 64)
    for i, s in enumerate(numbers):
        hashes = [bloomtype.key_hash(key, seed) & (2 ** 64 - 1) for key in slices[s]]
        set_hashes(bits, i * blocks * 64, blocks, k, hashes)
    return head + bytes(bits)
