"""The exceptions of the reader, and the server's reasons for refusing a value.

Every malformed value is a FormatError (a ValueError); a key of another class
than the filter's is a KeyClassError (a TypeError), as the server's
"bloom filter holds integer keys, not text keys"; an integer key outside
int64 is a KeyRangeError (a ValueError, and an OverflowError).  A time
(since) given to a filter that keeps none, or outside the range of a
windowed filter's slices, is a ValueError (no_time_error, since_range_error).
"""

# The reasons, worded as the server's bloom_status_message
# (src/core/format.c), by the name of its BloomStatus code.
REASONS = {
    "short": "The value is shorter than the 64-byte header.",
    "magic": 'The value does not start with the magic bytes "BLMF".',
    "version": "The format version is not one this type reads.",
    "kind": "The filter kind is unknown.",
    "hash": "The hash algorithm is unknown.",
    "keyclass": "The key class or key type is invalid.",
    "geometry": "The geometry (hashes per key, block size or block count) is out of range.",
    "params": "The capacity or false-positive rate is out of range.",
    "flags": "The flags or reserved fields are not zero.",
    "length": "The length does not match the geometry in the header.",
    "count": "The item counts are inconsistent.",
    "othertype": "The value is of another bloomtype type (bloomfilter, countingbloom or cuckoofilter).",
    "content": "The contents disagree with the counts in the header.",
}

# What each type's input says of a version it does not read
# (bloom_status_message, cb_status_message, cf_status_message).
VERSION_REASONS = {
    "bloomfilter": "The format version is not one this build reads (it reads versions 1, 2, 4 and 5).",
    "countingbloom": "The format version is not one this build reads (a countingbloom value is "
                     "version 3, its light aggregate state version 4).",
    "cuckoofilter": "The format version is not one this build reads (a cuckoofilter value is version 3).",
}

# How to turn an aggregate's hash list into the filter it stands for, per type
MATERIALISE_HINT = {
    "bloomfilter": "SELECT bloom_union_agg(f) (or f | f)",
    "countingbloom": "SELECT counting_union_agg(f)",
    "cuckoofilter": "SELECT cuckoo_union_agg(f)",
}


class FormatError(ValueError):
    """A value the reader refuses, as the server's input function would.

    code names the reason: the server's status ("length", "count", ...),
    "syntax" for a malformed text form, "toolarge" for a text form past
    512 MB, or "hashlist" for the one value the server accepts and a client
    cannot read (a hash list that holds hashes; see hashlist_error).
    """

    def __init__(self, message, code="format"):
        super().__init__(message)
        self.code = code


class KeyClassError(TypeError):
    """A key of another class than the one the filter holds."""


class KeyRangeError(ValueError, OverflowError):
    """An integer key outside the 64-bit signed range."""


def refuse(type_name, code):
    """The FormatError the server's input for type_name raises for code."""
    if code == "version":
        reason = VERSION_REASONS[type_name]
    else:
        reason = REASONS[code]
    return FormatError("invalid %s value: %s" % (type_name, reason), code)


def hashlist_error(type_name, nhashes):
    """The one documented exception to "accept what the server accepts"."""
    return FormatError(
        "cannot read this %s value: it is a hash list (kind 2, an aggregate's partial state) "
        "holding %d hashes, which stands for a filter sized by the server's planner "
        "(src/core/sizing.c: libm and an iterative search a client cannot reproduce bit for "
        "bit). Materialise it on the server first: %s, then read that value."
        % (type_name, nhashes, MATERIALISE_HINT[type_name]),
        "hashlist",
    )


def no_time_error(reader_name, kind, kind_name):
    """since given to a filter that keeps no time: the server's "bloom_contains
    with a time needs a windowed bloom filter" (bf_window.c require_windowed)"""
    return ValueError(
        'contains with a time (since) needs a windowed bloom filter (kind 9): this %s is of '
        'kind %d ("%s"), which keeps no time; call it without since'
        % (reader_name, kind, kind_name))


def since_range_error(since):
    """A time whose slice a windowed filter cannot hold: the server's "since is
    out of the range of a windowed bloom filter" (bf_window.c slice_of)"""
    return ValueError("since %r is out of the range of a windowed bloom filter (its slice "
                      "number and microseconds since 1970 must fit in 64 bits)" % (since,))
