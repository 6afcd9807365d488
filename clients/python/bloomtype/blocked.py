"""Where a key's bits go in a blocked filter (docs/FORMAT.md "Where a key's
bits go (kind 1)"; src/core/blocked.h bloom_block_set and bloom_block_test),
and the lookups built on it: one blocked filter, a scalable filter's layers,
and bits with hashes set on top (aggregate states).

With h the key's 64-bit hash and n the blocks:

    block = (h * n) >> 64                 (the high half of the 128-bit product)
    x = h; repeat k times: x = x * 0x9E3779B97F4A7C15 mod 2^64; bit = x >> 55

and bit b of the block is bit b mod 8 of its byte b / 8.  A lookup tests the
k bits byte by byte and stops at the first clear one; where hashes are set
on top of the bits (aggregate states), the block read as one little-endian
512-bit integer (which has exactly these bits at those positions) is tested
against the mask of the k bits.
(Putze, Sanders and Singler, "Cache-, Hash- and Space-Efficient Bloom
Filters", WEA 2007, for the blocked layout.)
"""

import struct

from .header import BLOCK_BYTES, MASK64

PROBE_MUL = 0x9E3779B97F4A7C15

_u64s = struct.Struct("<Q")


def key_mask(h, k):
    """The k bits of hash h in its block, as a 512-bit mask"""
    m = 0
    x = h
    for _ in range(k):
        x = x * PROBE_MUL & MASK64
        m |= 1 << (x >> 55)
    return m


def listed_hashes(data, offset, n):
    """The n little-endian 64-bit hashes at data[offset:]"""
    return [t[0] for t in _u64s.iter_unpack(data[offset:offset + 8 * n])]


def set_hashes(bits, base, nblocks, k, hashes):
    """Sets the bits of each hash in bits (a bytearray) from byte base on"""
    for h in hashes:
        off = base + (((h * nblocks) >> 64) << 6)
        x = h
        for _ in range(k):
            x = x * PROBE_MUL & MASK64
            b = x >> 55
            bits[off + (b >> 3)] |= 1 << (b & 7)


def sparse_masks(nblocks, k, hashes):
    """The bits of each hash, as {block: mask}, for hashes far fewer than
    the blocks (a light state of a large filter): memory in proportion to
    the hashes, not to the filter they stand for"""
    extra = {}
    for h in hashes:
        blk = (h * nblocks) >> 64
        extra[blk] = extra.get(blk, 0) | key_mask(h, k)
    return extra


def hashes_as_bits(nblocks, k, hashes, value_size):
    """The bits of a light state (kinds 7 and 8): empty bits with every
    hash's bits set, as bytes when they take at most 8 times the value's own
    size, else as {block: mask}.  Returns (data, extra) for blocked_test."""
    size = nblocks * BLOCK_BYTES
    if size > 8 * value_size:
        return None, sparse_masks(nblocks, k, hashes)
    dense = bytearray(size)
    set_hashes(dense, 0, nblocks, k, hashes)
    return bytes(dense), None


def _probe(k):
    """The k bit positions of a hash, all from one multiplication: with
    P_i = 0x9E3779B97F4A7C15^i mod 2^64, h x (sum of P_i << 128 (i - 1))
    holds each h x P_i in a 128-bit field of its own, and bits 55 to 63 of
    a field (bytes 6 and 7, as a 16-bit word shifted right by 7) are the
    i-th bit position.  Returns (multiplier, byte count, unpack): unpack of
    the product's bytes gives the words, bit = word >> 7, byte = word >> 10."""
    mult = 0
    x = 1
    for i in range(k):
        x = x * PROBE_MUL & MASK64
        mult |= x << (128 * i)
    return mult, 16 * k, struct.Struct("<" + "6xH8x" * k).unpack


def blocked_test(data, base, nblocks, k, extra=None):
    """A lookup of one blocked filter: nblocks blocks at data[base:], k bits
    a key, and extra {block: mask} of bits set on top (or None)"""
    mult, nbytes, unpack = _probe(k)
    if data is None or extra:
        # a light state's bits, or bits with pending hashes on top: the
        # block as an int, and the mask of the key's bits
        frm = int.from_bytes
        get = extra.get

        def test(h):
            blk = (h * nblocks) >> 64
            w = get(blk, 0)
            if data is not None:
                off = base + (blk << 6)
                w |= frm(data[off:off + 64], "little")
            m = 0
            for u in unpack((h * mult).to_bytes(nbytes, "little")):
                m |= 1 << (u >> 7)
            return w & m == m
        return test

    def test(h):
        off = base + (((h * nblocks) >> 64) << 6)
        for u in unpack((h * mult).to_bytes(nbytes, "little")):
            if not data[off + (u >> 10)] >> ((u >> 7) & 7) & 1:
                return False
        return True
    return test


def layers_test(data, layers):
    """A lookup of a scalable filter (bloom_scalable_contains, scalable.h):
    present when present in some layer.  layers: (base, blocks, k) each.
    The bit positions are computed once, up to the largest k."""
    if len(layers) == 1:
        base, nblocks, k = layers[0]
        return blocked_test(data, base, nblocks, k)
    mult, nbytes, unpack = _probe(max(k for _, _, k in layers))
    plan = tuple((base, nblocks, k) for base, nblocks, k in layers)

    def test(h):
        words = unpack((h * mult).to_bytes(nbytes, "little"))
        for base, nblocks, k in plan:
            off = base + (((h * nblocks) >> 64) << 6)
            for u in words[:k]:
                if not data[off + (u >> 10)] >> ((u >> 7) & 7) & 1:
                    break
            else:
                return True
        return False
    return test


def never(h):
    """The lookup of a filter that holds nothing"""
    return False
