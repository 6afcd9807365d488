"""What the three readers share: construction from bytes or the text form,
lookups by key or by hash (since a time, for a windowed filter), and
immutability."""

import copy
import struct

from .errors import no_time_error
from .header import KEY_CLASS_NAMES, KEY_NONE, as_bytes, parse_text
from .keys import class_error, hash_int, key_bytes, xxh3

_pack_q = struct.Struct("<q").pack


def probe_hash(key, key_class, key_type, seed, noun):
    """The hash a lookup probes for key: its class checked against the
    filter's (KeyClassError, the server's message naming the filter as
    noun), then hashed with the filter's seed.  None when the filter holds
    no class (nothing was ever added: every key is absent)."""
    kc, data = key_bytes(key)
    if kc != key_class:
        if key_class == KEY_NONE:
            return None
        raise class_error(noun, key_class, key_type, kc)
    return xxh3(data, seed)


class Filter:
    """A filter read from a value's bytes; immutable.

    contains(key) answers False when the key is certainly absent and True
    when it may be present, exactly as the server's *_contains does;
    contains(key, since) that of a windowed filter's slices after a time.
    """

    __slots__ = ("_data", "_hdr", "_seed", "_class", "_ktype", "_test", "_info", "_window")

    TYPE_NAME = None    # the SQL type whose input this reader mirrors
    NOUN = None         # as the server's errors name it

    def __init__(self, *args, **kwargs):
        raise TypeError("use %s.from_bytes(data) or %s.from_hex(text)"
                        % (type(self).__name__, type(self).__name__))

    @classmethod
    def from_bytes(cls, data):
        """Reads a value's bytes (SELECT f::bytea), refusing what the server's
        input for the type refuses (FormatError)."""
        data = as_bytes(data)
        self = object.__new__(cls)
        self._read(data)
        return self

    @classmethod
    def from_hex(cls, text):
        """Reads a value's text form, \\x and hex digits (SELECT f, as psql prints it)"""
        return cls.from_bytes(parse_text(text, cls.TYPE_NAME))

    def _set(self, data, hdr, key_class, test, info, window=None):
        # the one place the fields are written (the class has no setters);
        # window: a windowed filter's slices (windowed.Window), else None
        s = object.__setattr__
        s(self, "_data", data)
        s(self, "_hdr", hdr)
        s(self, "_seed", hdr.seed)
        s(self, "_class", key_class)
        s(self, "_ktype", hdr.key_type)
        s(self, "_test", test)
        s(self, "_info", info)
        s(self, "_window", window)

    def __setattr__(self, name, value):
        raise AttributeError("%s is immutable" % type(self).__name__)

    def __delattr__(self, name):
        raise AttributeError("%s is immutable" % type(self).__name__)

    def __reduce__(self):
        return (type(self).from_bytes, (self._data,))

    def contains(self, key, since=None):
        """False: certainly absent; True: maybe present.  KeyClassError
        (a TypeError) for a key of another class than the filter holds.

        since (windowed filters alone; ValueError on any other, which keeps
        no time): only the slices that end after since may answer, as the
        server's bloom_contains(f, key, since).  since is a datetime (a
        naive one is taken as UTC), an int of microseconds since
        1970-01-01 00:00 UTC, or -math.inf (every slice) / math.inf (none);
        a time whose slice the filter cannot hold is a ValueError."""
        if since is not None:
            return self._contains_since(key, since)
        if type(key) is int and self._class == 1:
            try:
                data = _pack_q(key)
            except struct.error:
                data = key_bytes(key)[1]  # raises the range error
            return self._test(xxh3(data, self._seed))
        h = self._hash(key)
        return h is not None and self._test(h)

    __contains__ = contains

    def _hash(self, key):
        """The key's hash with the filter's seed; None when the filter holds
        no class (every key is absent)"""
        return probe_hash(key, self._class, self._ktype, self._seed, self.NOUN)

    def _time_window(self):
        """The filter's slices; ValueError when it keeps no time"""
        if self._window is None:
            i = self._info
            raise no_time_error(type(self).__name__, i["kind"], i["kind_name"])
        return self._window

    def _contains_since(self, key, since):
        # in the server's order (bf_contains_since): a windowed filter, a
        # filter of no class answers False, the key's class, then the time
        window = self._time_window()
        h = self._hash(key)
        return h is not None and window.test_since(since)(h)

    def contains_many(self, keys, since=None):
        """contains(key, since) of each key of an iterable, as a list (a str
        or bytes is one key, not an iterable of keys: TypeError)"""
        if isinstance(keys, (str, bytes, bytearray, memoryview)):
            raise TypeError("contains_many takes an iterable of keys, not one %s key"
                            % type(keys).__name__)
        if since is None:
            return [self.contains(k) for k in keys]
        window = self._time_window()
        test = None
        out = []
        for k in keys:
            h = self._hash(k)
            if h is not None and test is None:
                test = window.test_since(since)     # the time, once
            out.append(h is not None and test(h))
        return out

    def contains_hash(self, h, since=None):
        """The answer for a key whose 64-bit hash is h (SELECT bloom_key_hash(key),
        signed, or its unsigned form), for keys of any class, "other" included;
        no class check.  A filter that holds no class yet answers False.
        since: as for contains (windowed filters alone)."""
        window = None if since is None else self._time_window()
        h = hash_int(h)
        if self._class == KEY_NONE:
            return False
        if window is not None:
            return window.test_since(since)(h)
        return self._test(h)

    @property
    def seed(self):
        return self._seed

    @property
    def key_class(self):
        """The class of the keys the filter holds, as its answers see it
        ("none": every key is absent)"""
        return KEY_CLASS_NAMES[self._class]

    def to_bytes(self):
        """The value's bytes, as read"""
        return self._data

    def info(self):
        """The header as stored and the kind's fields, as a new dict"""
        return copy.deepcopy(self._info)

    def __repr__(self):
        i = self._info
        return "<%s kind %d (%s), %s keys, %d bytes>" % (
            type(self).__name__, i["kind"], i["kind_name"], i["key_class"], i["bytes"])
