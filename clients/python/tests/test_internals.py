"""The fast paths against plain transcriptions of docs/FORMAT.md: the bit
positions from one multiplication, the bucket compared lane by lane at once,
the slot count and the presence check done on big integers."""
import random

import pytest

import bloomtype
from bloomtype import counting, cuckoo
from bloomtype.blocked import PROBE_MUL

M64 = 2 ** 64 - 1


def naive_blocked(data, base, nblocks, k, h):
    # docs/FORMAT.md "Where a key's bits go (kind 1)"
    block = (h * nblocks) >> 64
    x = h
    for _ in range(k):
        x = x * PROBE_MUL & M64
        bit = x >> 55
        if not data[base + 64 * block + bit // 8] >> (bit % 8) & 1:
            return False
    return True


def naive_mix(x):
    x ^= x >> 33
    x = x * 0xFF51AFD7ED558CCD & M64
    x ^= x >> 33
    x = x * 0xC4CEB9FE1A85EC53 & M64
    return x ^ (x >> 33)


def naive_cuckoo(data, info, h):
    # docs/FORMAT.md "Kind 6: the cuckoo layout", Hashing
    b = info["bucket_size"]
    e = info["expansion"]
    L = (e - 1).bit_length() if e > 1 else 0
    subs = info["subfilters"]
    n0 = subs[0]["buckets"]
    f0 = subs[0]["fingerprint_bits"]

    def fp(u, f):
        return (u % 2 ** f) or 1

    def top(w, l):
        return w >> (64 - l) if l else 0

    u = naive_mix(h)
    off = 96 + 32 * len(subs)
    for i, s in enumerate(subs):
        f = s["fingerprint_bits"]
        v = fp(u, f)
        Li = i * L
        B1 = ((h * n0) >> 64) * 2 ** Li + top(h * 0xC2B2AE3D27D4EB4F & M64, Li)
        g = naive_mix((fp(v, f0) + 0x9E3779B97F4A7C15) & M64)
        c = (g * n0) >> 64
        q = B1 >> Li
        B2 = ((c - q) % n0) * 2 ** Li + ((B1 % 2 ** Li) ^ top(g * 0xD6E8FEB86659FD93 & M64, Li))
        for B in (B1, B2):
            for j in range(b):
                bit = (B * b + j) * f
                word = int.from_bytes(data[off + bit // 8:off + bit // 8 + 8], "little")
                if (word >> (bit % 8)) & (2 ** f - 1) == v:
                    return True
        off += cuckoo.area_size(s["buckets"], b, f)
    return False


def test_fast_lookups_are_the_format(filters):
    rnd = random.Random(5)
    present = 0
    for v in filters:
        data = bytes.fromhex(v["hex"])
        f = bloomtype.load(data)
        i = f.info()
        hashes = [rnd.getrandbits(64) for _ in range(3000)]
        if v["kind"] in (1, 5):
            want = [naive_blocked(data, 64, i["blocks"], i["k"], h) for h in hashes]
        elif v["kind"] == 4:
            want = []
            for h in hashes:
                base, hit = 64 + 32 * len(i["layers"]), False
                for layer in i["layers"]:
                    hit = hit or naive_blocked(data, base, layer["blocks"], layer["k"], h)
                    base += 64 * layer["blocks"]
                want.append(hit)
        elif v["kind"] == 9:
            # each kept slice a kind 1 filter, after the 16-byte descriptors
            n, base = len(i["slices"]), 96 + 16 * len(i["slices"])
            want = [any(naive_blocked(data, base + 64 * i["blocks"] * j, i["blocks"], i["k"], h)
                        for j in range(n)) for h in hashes]
        elif v["kind"] == 6:
            want = [naive_cuckoo(data, i, h) for h in hashes]
        else:
            continue
        assert [f._test(h) for h in hashes] == want, v["name"]
        present += sum(want)
    assert present > 1000


@pytest.mark.parametrize("f", range(8, 57))
def test_nonzero_slots(f):
    rnd = random.Random(f)
    for nslots in (1, 7, 8, 9, 100, 1000):
        slots = [rnd.choice([0, 0, 1, 2 ** (f - 1), 2 ** f - 1, rnd.getrandbits(f)])
                 for _ in range(nslots)]
        x = sum(s << (i * f) for i, s in enumerate(slots))
        data = b"\xff" * 3 + x.to_bytes((nslots * f + 7) // 8 + 8, "little")
        assert cuckoo.nonzero_slots(data, 3, nslots, f) == sum(1 for s in slots if s)


def test_nonzero_slots_in_chunks(monkeypatch):
    monkeypatch.setattr(cuckoo, "_CHUNK_LANES", 16)
    rnd = random.Random(1)
    for f in (8, 13, 56):
        slots = [rnd.choice([0, rnd.getrandbits(f)]) for _ in range(200)]
        x = sum(s << (i * f) for i, s in enumerate(slots))
        data = x.to_bytes((200 * f + 7) // 8 + 8, "little")
        assert cuckoo.nonzero_slots(data, 0, 200, f) == sum(1 for s in slots if s)


def test_presence_check_in_chunks(monkeypatch, filters):
    v = [x for x in filters if x["name"] == "counting_int"][0]
    data = bytes.fromhex(v["hex"])
    nblocks = int.from_bytes(data[48:56], "little")
    monkeypatch.setattr(counting, "_CHUNK_BLOCKS", 1)
    assert counting.presence_agrees(data, nblocks)
    rnd = random.Random(3)
    ctr = 64 + 64 * nblocks
    for _ in range(300):
        bad = bytearray(data)
        at = rnd.randrange(64, len(data))
        bad[at] ^= 1 << rnd.randrange(8)
        # a presence bit flipped, or a counter that became or stopped being 0
        nibble = [c >> s & 15 for c in (data[at], bad[at]) for s in (0, 4)]
        broken = at < ctr or (nibble[0] == 0) != (nibble[2] == 0) or \
            (nibble[1] == 0) != (nibble[3] == 0)
        assert counting.presence_agrees(bytes(bad), nblocks) is not broken


def test_max_capacity_plans():
    # cuckoo_max_capacity steps down by 0.1% from an estimate to a capacity
    # that plans: cf_validate compares a hash list's capacity with it
    for fpr in (1e-9, 1e-6, 0.001, 0.01, 0.1, 0.3, 0.5):
        m = cuckoo.max_capacity(fpr)
        assert m > 1000
        cuckoo.plan_subs(m, fpr, 4, 2, 32)
        with pytest.raises(cuckoo.PlanError):
            cuckoo.plan_subs(2 * m, fpr, 4, 2, 32)
    # the server's hint: 351,054,242 at 1% with the defaults
    assert cuckoo.max_capacity(0.01) == 351054242
    assert cuckoo.max_capacity(1e-10) == 0
