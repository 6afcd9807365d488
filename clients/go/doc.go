// Package bloomtype reads the filters of the bloomtype PostgreSQL extension
// (bloomfilter, countingbloom, cuckoofilter) from their bytes, so that an
// application loads a filter once and answers lookups locally, with exactly
// the server's answers:
//
//	var raw []byte // SELECT f::bytea FROM filters WHERE name = 'users'
//	f, err := bloomtype.FromBytes(raw)
//	...
//	maybe, err := f.Contains(int64(42)) // false: certainly absent
//
// The format is docs/FORMAT.md of the repository; the server's C code
// (src/core) is the authority, and this package follows its checks one by
// one: a constructor accepts exactly what the server's input function of
// that type accepts (text, binary or bytea), deep checks included, and
// refuses the rest with an error that matches ErrFormat and says why in the
// server's words. The one exception: an auto-sized aggregate state (a hash
// list, kind 2) that holds hashes is refused, because the filter it stands
// for is sized by the server's planner (libm's pow, exp and log and an
// iterative search), which a client cannot reproduce bit for bit;
// materialise it on the server (SELECT bloom_union_agg(f), or f | f).
// Servers return such values only as partial aggregate states. An empty
// hash list (bloom_agg over no rows) is read, and answers false.
//
// Keys are hashed as the server hashes them (README "Key encodings"):
// XXH3-64 (libxxhash, through cgo) with the filter's seed over an integer's
// 8 little-endian bytes, a string's UTF-8 bytes (the database must use the
// UTF8 encoding for the answers to match; char(n) keys are hashed without
// their trailing spaces, so trim them), a bytea's bytes, a uuid's 16 bytes,
// or a float's IEEE 754 double (little-endian; -0 as 0, every NaN as
// 0x7FF8000000000000; a float32 widens exactly). A filter records the class
// of its keys; probing it with a key of another class is an error that
// matches ErrKeyClass, as on the server. Keys of class "other" (dates,
// numerics, ...) have no client encoding: get their hash from the server
// (SELECT bloom_key_hash(key)) and use ContainsHash.
//
// Aggregate states answer as the filters they stand for: a buffered state
// (kind 3) and a light state (kind 7) as the blocked filter of their k and
// blocks with the pending or listed hashes set, a light counting state
// (kind 8) as the presence plane of its geometry with its hashes set. A
// counting filter answers from its presence plane, a scalable filter when
// any layer holds the key, a cuckoo filter by docs/FORMAT.md "Kind 6".
//
// A windowed filter (bloom_window, kind 9) keeps the keys of the last few
// slices of time, aligned to multiples of the slice length from 1970-01-01
// UTC: Contains asks every slice it keeps, ContainsSince (and
// ContainsManySince, ContainsHashSince) those that end after a time, as
// the server's bloom_contains(f, key, since). A lookup since a time on any
// other filter is an error that matches ErrNotWindowed.
//
// An IndexCopy (NewIndexCopy) is a copy of a bloomfilter index's filter
// that is kept in step with the index by the hashes bloom_index_changes
// returns, as the index sets them, instead of being read again.
package bloomtype
