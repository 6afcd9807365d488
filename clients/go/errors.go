package bloomtype

import (
	"errors"
	"fmt"
)

// The kinds of error this package returns; test for them with errors.Is.
var (
	// ErrFormat: the bytes are not a value the server's input function for
	// the type accepts (the error is a *FormatError that says why).
	ErrFormat = errors.New("bloomtype: malformed value")
	// ErrKeyClass: the key is of another class than the filter's keys, of a
	// Go type this package cannot encode, or the filter holds keys of a
	// type the client cannot encode (class "other"; use ContainsHash).
	ErrKeyClass = errors.New("bloomtype: key of another class")
	// ErrRange: an integer key outside int64 (the server's bigint), or a
	// time a windowed filter's slices cannot hold (ContainsSince).
	ErrRange = errors.New("bloomtype: integer key out of range")
	// ErrText: a text key PostgreSQL's text cannot hold (a NUL, or not
	// valid UTF-8), so never a key of a filter.
	ErrText = errors.New("bloomtype: text key PostgreSQL cannot hold (NUL or invalid UTF-8)")
	// ErrNotWindowed: a lookup since a time (ContainsSince and its
	// variants) on a filter that keeps no time, one that is not a windowed
	// filter (kind 9, made by bloom_window).
	ErrNotWindowed = errors.New("bloomtype: a lookup since a time needs a windowed bloom filter")
)

// The reasons a value is refused: the server's BloomStatus codes
// (src/core/format.h), and its messages (bloom_status_message in
// src/core/format.c), so that a client says what psql would say.
type status int

const (
	stOK status = iota
	stShort
	stMagic
	stVersion
	stKind
	stHash
	stKeyClass
	stGeometry
	stParams
	stFlags
	stLength
	stCount
	stCapacity
	stOtherType
	stContent
	stHashList // the client's one exception: a hash list that holds hashes
	stHexSyntax
	stTooLarge
)

var statusMessages = map[status]string{
	stShort:     "The value is shorter than the 64-byte header.",
	stMagic:     "The value does not start with the magic bytes \"BLMF\".",
	stKind:      "The filter kind is unknown.",
	stHash:      "The hash algorithm is unknown.",
	stKeyClass:  "The key class or key type is invalid.",
	stGeometry:  "The geometry (hashes per key, block size or block count) is out of range.",
	stParams:    "The capacity or false-positive rate is out of range.",
	stFlags:     "The flags or reserved fields are not zero.",
	stLength:    "The length does not match the geometry in the header.",
	stCount:     "The item counts are inconsistent.",
	stCapacity:  "The capacity does not fit in the largest value.",
	stOtherType: "The value is of another bloomtype type (bloomfilter, countingbloom or cuckoofilter).",
	stContent:   "The contents disagree with the counts in the header.",
	stHashList: "The value is an auto-sized aggregate state (a hash list, kind 2) that holds hashes: " +
		"the filter it stands for is sized by the server's planner, which a client cannot reproduce bit for bit.",
	stTooLarge: "The value is larger than 536,869,888 bytes.",
}

// versionMessage is the server's per-type wording of a version it does not read.
func versionMessage(typ string) string {
	switch typ {
	case TypeCountingBloom:
		return "The format version is not one this build reads (a countingbloom value is version 3, its light aggregate state version 4)."
	case TypeCuckooFilter:
		return "The format version is not one this build reads (a cuckoofilter value is version 3)."
	}
	return "The format version is not one this build reads (it reads versions 1, 2, 4 and 5)."
}

// FormatError says why a value was refused. It matches ErrFormat.
type FormatError struct {
	Type   string // the SQL type whose input refused it ("bloomfilter", ...)
	Detail string // the reason, in the server's words
	Hint   string // what to do, when there is something to do
}

func (e *FormatError) Error() string {
	msg := fmt.Sprintf("invalid %s value: %s", e.Type, e.Detail)
	if e.Hint != "" {
		msg += " (" + e.Hint + ")"
	}
	return msg
}

// Unwrap makes errors.Is(err, ErrFormat) true.
func (e *FormatError) Unwrap() error { return ErrFormat }

func formatError(typ string, st status) error {
	e := &FormatError{Type: typ, Detail: statusMessages[st]}
	switch st {
	case stVersion:
		e.Detail = versionMessage(typ)
	case stHashList:
		switch typ {
		case "countingbloom":
			e.Hint = "materialise it on the server first: SELECT counting_union_agg(f)"
		case "cuckoofilter":
			e.Hint = "materialise it on the server first: SELECT cuckoo_union_agg(f)"
		default:
			e.Hint = "materialise it on the server first: SELECT bloom_union_agg(f), or f | f"
		}
	}
	return e
}

// KeyClassError: a key the filter cannot be probed with. It matches ErrKeyClass.
type KeyClassError struct {
	Noun   string // "bloom filter", "counting bloom filter", "cuckoo filter"
	Filter string // the class of the filter's keys ("integer", "type OID 1082", ...)
	Key    string // the class of the key ("text", or a Go type)
	Detail string
}

func (e *KeyClassError) Error() string {
	if e.Noun == "" {
		return "bloomtype: " + e.Detail
	}
	msg := fmt.Sprintf("%s holds %s keys, not %s keys", e.Noun, e.Filter, e.Key)
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

// Unwrap makes errors.Is(err, ErrKeyClass) true.
func (e *KeyClassError) Unwrap() error { return ErrKeyClass }
