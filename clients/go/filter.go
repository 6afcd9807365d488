package bloomtype

import (
	"fmt"
)

// The SQL types, as Filter.Type names them.
const (
	TypeBloomFilter   = "bloomfilter"
	TypeCountingBloom = "countingbloom"
	TypeCuckooFilter  = "cuckoofilter"
)

// Filter is a filter value read from its bytes (SELECT f::bytea), for
// local lookups that answer exactly as the server's bloom_contains,
// counting_contains and cuckoo_contains do. One type serves the three SQL
// types; Type says which one read it. A Filter is immutable, and safe for
// concurrent use.
type Filter struct {
	typ  string
	raw  []byte // a private copy of the value's bytes
	hdr  header
	info Info

	// what a probe checks the key against: the header's key class, or none
	// for a value that stands for a filter that holds nothing
	probeClass uint8
	probeType  uint32

	// the lookup: blocked bits (kinds 1, 3, 4 and 9 (a layer or slice each), 5, and light
	// states of a modest size), sparse bits (large light states), or a
	// cuckoo table; none at all for an empty hash list
	layers   []blockedBits
	sparse   *sparseBits
	cuckoo   *cuckooTable
	scalable []scalableLayer
	window   *windowState // kind 9: its slices are the layers
}

// FromBytes reads a bloomfilter value: what the server's bloomfilter input
// accepts (kinds 1, 2 version 1, 3, 4, 7 and 9), with one exception: a hash
// list (kind 2) that holds hashes is refused, as the filter it stands for
// is sized by the server's planner, which a client cannot reproduce bit for
// bit (materialise it on the server: SELECT bloom_union_agg(f), or f | f).
// Every refusal is an error that matches ErrFormat. The bytes are copied.
func FromBytes(b []byte) (*Filter, error) { return newFilter(TypeBloomFilter, b) }

// CountingFromBytes reads a countingbloom value: kinds 5, 8 and 2 version 1
// (an empty hash list only, as FromBytes), checked in full as the server's
// input checks them (every presence bit set exactly when its counter is
// not zero).
func CountingFromBytes(b []byte) (*Filter, error) { return newFilter(TypeCountingBloom, b) }

// CuckooFromBytes reads a cuckoofilter value: kind 6, checked in full (the
// plan of its buckets and fingerprint bits, the slots against the counts,
// zero padding), or an empty hash list of version 1 or 3 that cuckoo_agg
// could have made.
func CuckooFromBytes(b []byte) (*Filter, error) { return newFilter(TypeCuckooFilter, b) }

// Load reads a value of any of the three types: the type follows from the
// kind (a hash list of version 1 is read as a bloomfilter, of version 3 as
// a cuckoofilter). It accepts exactly what one of the three constructors
// accepts.
func Load(b []byte) (*Filter, error) {
	typ := TypeBloomFilter
	if len(b) >= 6 {
		switch b[5] {
		case kindCounting, kindLightCounting:
			typ = TypeCountingBloom
		case kindCuckoo:
			typ = TypeCuckooFilter
		case kindHashList:
			if b[4] == 3 {
				typ = TypeCuckooFilter
			}
		}
	}
	return newFilter(typ, b)
}

// FromHex reads a value of any type from its text form, as psql prints it:
// "\x" then two hex digits a byte (either case, nothing else around them,
// as the types' text input requires).
func FromHex(s string) (*Filter, error) {
	b, err := DecodeHex(s)
	if err != nil {
		return nil, err
	}
	return Load(b)
}

// DecodeHex gives the bytes of a value's text form ("\x..."), checked as
// the types' text input checks it (bt_type_in in src/pg/glue_io.c), for a
// constructor of one's choice.
func DecodeHex(s string) ([]byte, error) {
	if len(s) < 2 || s[0] != '\\' || s[1] != 'x' {
		return nil, &FormatError{Type: "filter", Detail: "The text form must start with \"\\x\"."}
	}
	s = s[2:]
	if len(s)%2 != 0 {
		return nil, &FormatError{Type: "filter", Detail: "The hex digits after \"\\x\" are odd in number."}
	}
	if len(s)/2 > maxBytes {
		return nil, &FormatError{Type: "filter", Detail: statusMessages[stTooLarge]}
	}
	b := make([]byte, len(s)/2)
	for i := range b {
		hi, ok1 := hexDigit(s[2*i])
		lo, ok2 := hexDigit(s[2*i+1])
		if !ok1 || !ok2 {
			return nil, &FormatError{Type: "filter",
				Detail: fmt.Sprintf("%q at byte %d is not a hexadecimal byte.", s[2*i:2*i+2], i)}
		}
		b[i] = hi<<4 | lo
	}
	return b, nil
}

func newFilter(typ string, b []byte) (*Filter, error) {
	var h header
	var st status
	switch typ {
	case TypeBloomFilter:
		h, st = validateBloom(b)
	case TypeCountingBloom:
		h, st = validateCounting(b)
	default:
		h, _, st = validateCuckoo(b)
	}
	if st == stOK && h.kind == kindHashList && h.w56 > 0 {
		st = stHashList
	}
	if st != stOK {
		return nil, formatError(typ, st)
	}
	f := &Filter{typ: typ, raw: append([]byte(nil), b...), hdr: h, probeClass: h.class, probeType: h.keyType}
	switch typ {
	case TypeBloomFilter:
		buildBloom(f)
	case TypeCountingBloom:
		buildCounting(f)
	default:
		if h.kind == kindCuckoo {
			f.cuckoo, _ = decodeCuckoo(f.raw, &f.hdr) // valid: binds the copy's slots
		}
		// an empty hash list stands for a new filter of its key class
		// (cf_materialize): every key of it is absent, another class refused
	}
	f.info = f.describe()
	return f, nil
}

func (f *Filter) setLight(dense *blockedBits, sparse *sparseBits) {
	if dense != nil {
		f.layers = []blockedBits{*dense}
	}
	f.sparse = sparse
}

// Type is the SQL type that reads the value: "bloomfilter", "countingbloom"
// or "cuckoofilter".
func (f *Filter) Type() string { return f.typ }

// Bytes is a copy of the value's bytes.
func (f *Filter) Bytes() []byte { return append([]byte(nil), f.raw...) }

// Info describes the value: its header as stored and its kind's fields.
func (f *Filter) Info() Info {
	info := f.info
	info.Layers = append([]LayerInfo(nil), info.Layers...)
	info.SubFilters = append([]SubFilterInfo(nil), info.SubFilters...)
	info.Slices = append([]SliceInfo(nil), info.Slices...)
	return info
}

// ContainsHash answers for a key whose 64-bit hash is h, as
// bloom_key_hash(key, seed) gives it on the server (a signed bigint:
// convert it with uint64(h)), with the filter's seed. There is no key
// class check, so it serves keys of any class, "other" (dates, numerics,
// ...) included; a filter that holds no key class yet answers false.
func (f *Filter) ContainsHash(h uint64) bool {
	if f.probeClass == classNone {
		return false // nothing was ever added
	}
	return f.lookup(h)
}

func (f *Filter) lookup(h uint64) bool {
	if f.cuckoo != nil {
		return f.cuckoo.contains(h)
	}
	if f.sparse != nil {
		return f.sparse.test(h)
	}
	for i := range f.layers {
		if f.layers[i].test(h) {
			return true
		}
	}
	return false
}

// Contains answers whether key may be present (true) or is certainly
// absent (false), exactly as the server does. Keys: Go integers of every
// width (uints up to the largest int64), string (its UTF-8 bytes: the
// database must be UTF8 for the answers to match), []byte, UUID (or any
// [16]byte), float64 and float32; types named after these too. An error
// matches ErrKeyClass when the key is of another class than the filter's
// keys or of a type no class takes (bool, nil, ...), ErrRange for an
// integer past int64. A filter that holds no key class yet answers false.
func (f *Filter) Contains(key any) (bool, error) {
	k, err := encodeKey(key)
	if err != nil {
		return false, err
	}
	if err := f.checkClass(&k); err != nil || f.probeClass == classNone {
		return false, err
	}
	return f.lookup(k.hash(f.hdr.seed)), nil
}

// ContainsMany answers Contains for each key, hashing them in one call
// into C. The first key that is refused is the error (and no answers).
func (f *Filter) ContainsMany(keys []any) ([]bool, error) {
	batch, err := f.encodeBatch(keys)
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(keys))
	if f.probeClass == classNone {
		return out, nil
	}
	for i, h := range batch.hashes(f.hdr.seed) {
		out[i] = f.lookup(h)
	}
	return out, nil
}

// encodeBatch: the keys' canonical bytes, each checked against the
// filter's key class; the first key refused is the error.
func (f *Filter) encodeBatch(keys []any) (*keyBatch, error) {
	batch := &keyBatch{buf: make([]byte, 0, 16*len(keys)), ends: make([]uint64, 0, len(keys))}
	for i, key := range keys {
		k, err := encodeKey(key)
		if err == nil {
			err = f.checkClass(&k)
		}
		if err != nil {
			return nil, fmt.Errorf("key %d: %w", i, err)
		}
		batch.add(&k)
	}
	return batch, nil
}

// checkClass: a key of another class than the filter's is an error, as on
// the server (bloom_check_key); a filter of no class yet takes any key.
func (f *Filter) checkClass(k *encodedKey) error {
	if f.probeClass == classNone || f.probeClass == k.class {
		return nil
	}
	e := &KeyClassError{Noun: f.noun(), Filter: className(f.probeClass, f.probeType), Key: classNames[k.class],
		Detail: "a key of another type hashes differently, so it would never be found"}
	if f.probeClass == classOther {
		e.Detail = "a client cannot encode keys of this type: probe with ContainsHash and the server's bloom_key_hash(key)"
	}
	return e
}

func (f *Filter) noun() string {
	switch f.typ {
	case TypeCountingBloom:
		return "counting bloom filter"
	case TypeCuckooFilter:
		return "cuckoo filter"
	}
	return "bloom filter"
}

// Some built-in types' OIDs (pg_type.dat), to name a class "other" filter's keys.
var builtinTypes = map[uint32]string{
	16: "boolean", 18: "\"char\"", 26: "oid", 114: "json", 650: "cidr", 829: "macaddr",
	869: "inet", 1082: "date", 1083: "time without time zone", 1114: "timestamp without time zone",
	1184: "timestamp with time zone", 1186: "interval", 1266: "time with time zone",
	1700: "numeric", 3802: "jsonb",
}

// className names a key class as the server's errors do (bloom_key_class_name).
func className(class uint8, keyType uint32) string {
	if class == classOther {
		if keyType&0x80000000 != 0 {
			return "user-defined type"
		}
		if name, ok := builtinTypes[keyType]; ok {
			return name
		}
		return fmt.Sprintf("type OID %d", keyType)
	}
	if int(class) < len(classNames) {
		return classNames[class]
	}
	return "unknown"
}
