"""IndexCopy: an application's copy of a bloomfilter index's filter, kept in
step with the index by catch-ups that cost 8 bytes a new key (bloomtype 1.8):

    SELECT filter::bytea, mark FROM bloom_index_filter_at('users_id_bloom')
        -> copy = IndexCopy(filter, mark)
    SELECT complete, reason, hashes, mark
      FROM bloom_index_changes('users_id_bloom', copy.mark)
        complete     -> copy.add_hashes(hashes, mark)
        not complete -> load again (reason says why: REINDEX, TRUNCATE, a
                        layer added, the log pruned past the mark, ...)

The mark is opaque text: the position the copy is complete for.  A hash is
added as the index adds a key (src/am/bfi_insert.c: drop_older, then the
newest layer): skipped when a layer other than the newest may hold it, else
its bits set in the newest layer, at the positions the lookups read
(blocked.py).  So the copy holds every key committed before its mark with
the bits the index gave it (a key of a transaction that aborted may be in
the index and not in the copy: the copy never holds less than what
committed).
"""

import struct

from .base import probe_hash
from .bloom import BloomFilter, decode, scalable_layers
from .blocked import layers_test, set_hashes
from .errors import FormatError, KeyClassError
from .header import KEY_CLASS_NAMES, KEY_NONE, KIND_NAMES, KIND_SCALABLE, as_bytes, read_header
from .keys import hash_int

_u64s = struct.Struct("<Q")


def _check_mark(mark):
    if type(mark) is not str:
        raise TypeError("a mark is the text bloom_index_filter_at or bloom_index_changes "
                        "returned, not %s" % type(mark).__name__)


class IndexCopy:
    """A copy of an index's filter (a scalable filter, kind 4, from
    bloom_index_filter_at) and its mark, brought up to date by
    add_hashes(); contains(key) and contains_hash(h) answer from its
    current bits, as BloomFilter's lookups.

    The copy owns its bytes (a bytearray, written in place): the caller's
    buffer is never written.  The header's item counts (the total and each
    layer's) stay those of the load: a catch-up brings hashes, not how many
    of them were new keys.

    Threads: one writer (add_hashes, add) and any number of readers are
    safe under the GIL.  A reader may see a hash half set, which can only
    answer "absent" for a key being added at that moment, which is what the
    copy said a moment before.  Two writers need a lock of their own (a
    bit set is a read and a write of its byte).
    """

    __slots__ = ("_bits", "_mark", "_seed", "_class", "_ktype", "_test", "_older", "_newest")

    def __init__(self, data, mark):
        """data: SELECT filter::bytea of bloom_index_filter_at (bytes,
        bytearray or memoryview), read as BloomFilter.from_bytes reads it;
        a value of another kind than 4 is a FormatError.  mark: the mark
        that came with it."""
        data = as_bytes(data)
        _check_mark(mark)
        h = read_header(data, BloomFilter.TYPE_NAME)
        if h.kind != KIND_SCALABLE:
            raise FormatError(
                "invalid bloomfilter value for an index copy: an index copy is made from "
                "bloom_index_filter_at's filter, a scalable filter (kind 4); this value is of "
                "kind %d (%s)" % (h.kind, KIND_NAMES.get(h.kind, "unknown")), "notscalable")
        h, layers = decode(data)
        plan = scalable_layers(layers)
        self._bits = bytearray(data)
        self._mark = mark
        self._seed = h.seed
        self._class = h.key_class
        self._ktype = h.key_type
        self._test = layers_test(self._bits, plan)
        # the layers a new hash is looked up in first (None: one layer), and
        # the one its bits are set in
        self._older = layers_test(self._bits, plan[:-1]) if len(plan) > 1 else None
        self._newest = plan[-1]

    @property
    def mark(self):
        """The position the copy is complete for: ask bloom_index_changes from it"""
        return self._mark

    def _add(self, hashes):
        # as the index (bfi_insert.c): drop what an older layer may hold,
        # set the rest in the newest layer; the older layers never change,
        # so dropping first and setting after is the one-by-one order
        if self._older is not None:
            hashes = [h for h in hashes if not self._older(h)]
        base, nblocks, k = self._newest
        set_hashes(self._bits, base, nblocks, k, hashes)

    def add_hashes(self, hashes, mark):
        """A complete catch-up: bloom_index_changes' hashes (bytes-like, 8
        bytes a hash, little-endian) and its new mark, which becomes the
        copy's.  Bytes that are not whole hashes are a ValueError, and
        nothing is applied."""
        if not isinstance(hashes, (bytes, bytearray, memoryview)):
            raise TypeError("hashes are bytes (bloom_index_changes' hashes), not %s"
                            % type(hashes).__name__)
        hashes = memoryview(hashes).cast("B")
        if len(hashes) % 8:
            raise ValueError("hashes are 8 bytes each: %d bytes are not whole hashes"
                             % len(hashes))
        _check_mark(mark)
        self._add([h for (h,) in _u64s.iter_unpack(hashes)])
        self._mark = mark

    def add(self, key):
        """A key the application has just committed itself, so that the copy
        holds it before a catch-up brings it: its class checked and hashed as
        contains() does (KeyClassError for another class), then added as a
        catch-up's hash.  The mark is unchanged."""
        h = probe_hash(key, self._class, self._ktype, self._seed, BloomFilter.NOUN)
        if h is None:
            raise KeyClassError("this filter holds no key class (an empty aggregate's, not an "
                                "index's): a key added to it would never be found")
        self._add((h,))

    def contains(self, key):
        """False: certainly absent; True: maybe present, from the current
        bits.  KeyClassError (a TypeError) for a key of another class."""
        h = probe_hash(key, self._class, self._ktype, self._seed, BloomFilter.NOUN)
        return h is not None and self._test(h)

    __contains__ = contains

    def contains_hash(self, h):
        """The answer for a key whose 64-bit hash is h (bloom_key_hash(key,
        seed), signed or unsigned), no class check; False when the filter
        holds no class"""
        h = hash_int(h)
        return self._class != KEY_NONE and self._test(h)

    def to_bytes(self):
        """The value as it is now, as new bytes (the header's counts those of the load)"""
        return bytes(self._bits)

    __bytes__ = to_bytes

    def __repr__(self):
        return "<IndexCopy %s keys, %d bytes, mark %r>" % (
            KEY_CLASS_NAMES[self._class], len(self._bits), self._mark)
