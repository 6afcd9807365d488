package bloomtype

/*
#cgo LDFLAGS: -lxxhash
#include <stdint.h>
#include <stddef.h>
#include <xxhash.h>

// XXH3's output is fixed only from xxHash 0.8.0 (src/core/hash.h): an
// older one would hash keys differently from every stored filter.
#if !defined(XXH_VERSION_NUMBER) || XXH_VERSION_NUMBER < 800
#error "the bloomtype Go reader needs xxHash 0.8.0 or later (Debian: libxxhash-dev >= 0.8.0): XXH3's output is stable only from 0.8.0"
#endif

// XXH3-64 with a seed over n bytes (src/core/hash.h, bloom_hash_bytes).
static uint64_t bt_hash_bytes(const void *p, size_t n, uint64_t seed)
{
	return XXH3_64bits_withSeed(p, n, seed);
}

// An 8-byte key (an integer, or a float's bits) as its little-endian bytes.
static uint64_t bt_hash_word(uint64_t w, uint64_t seed)
{
	uint8_t b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t) (w >> (8 * i));
	return XXH3_64bits_withSeed(b, 8, seed);
}

// n keys in one call: key i is buf[ends[i-1] .. ends[i]) (ends[-1] = 0).
static void bt_hash_many(const uint8_t *buf, const uint64_t *ends, size_t n,
						 uint64_t seed, uint64_t *out)
{
	uint64_t start = 0;

	for (size_t i = 0; i < n; i++)
	{
		out[i] = XXH3_64bits_withSeed(buf + start, ends[i] - start, seed);
		start = ends[i];
	}
}
*/
import "C"

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Key classes, header byte 7 (docs/FORMAT.md; README "Key encodings").
const (
	classNone  = 0
	classInt   = 1
	classText  = 2
	classBytea = 3
	classUUID  = 4
	classFloat = 5
	classOther = 6
)

var classNames = [...]string{"none", "integer", "text", "bytea", "uuid", "float", "other"}

// canonicalNaN is the one encoding of every NaN (src/core/hash.h, bloom_hash_float8).
const canonicalNaN = 0x7FF8000000000000

// encodedKey is a key in its canonical bytes (README "Key encodings"): an
// 8-byte little-endian word for integers and floats, else the bytes.
type encodedKey struct {
	class uint8
	word  uint64 // classInt, classFloat
	bytes []byte // classBytea, classUUID (nil for a string)
	str   string // classText
}

// floatWord is a float8 key's bits: -0 as 0, every NaN as 0x7FF8000000000000.
func floatWord(v float64) uint64 {
	if v != v {
		return canonicalNaN
	}
	if v == 0 {
		return 0
	}
	return math.Float64bits(v)
}

// encodeKey gives the canonical encoding of a Go value used as a key:
// integers of every width as int64 (uints that fit), string as its UTF-8
// bytes (the database must be UTF8 for the answers to match), []byte as
// bytea, UUID (or any [16]byte) as uuid, float64 and float32 (widened
// exactly) as float8. Booleans and every other type are refused: the server
// hashes them as class "other" (their binary send form), which only
// bloom_key_hash on the server can give (then use ContainsHash).
func encodeKey(k any) (encodedKey, error) {
	switch v := k.(type) {
	case int64:
		return encodedKey{class: classInt, word: uint64(v)}, nil
	case int:
		return encodedKey{class: classInt, word: uint64(int64(v))}, nil
	case int32:
		return encodedKey{class: classInt, word: uint64(int64(v))}, nil
	case int16:
		return encodedKey{class: classInt, word: uint64(int64(v))}, nil
	case int8:
		return encodedKey{class: classInt, word: uint64(int64(v))}, nil
	case uint64:
		return uintKey(v, "uint64")
	case uint:
		return uintKey(uint64(v), "uint")
	case uint32:
		return encodedKey{class: classInt, word: uint64(v)}, nil
	case uint16:
		return encodedKey{class: classInt, word: uint64(v)}, nil
	case uint8:
		return encodedKey{class: classInt, word: uint64(v)}, nil
	case string:
		return textKey(v)
	case []byte:
		return encodedKey{class: classBytea, bytes: v}, nil
	case UUID:
		return encodedKey{class: classUUID, bytes: v[:]}, nil
	case *UUID:
		if v != nil {
			return encodedKey{class: classUUID, bytes: v[:]}, nil
		}
	case float64:
		return encodedKey{class: classFloat, word: floatWord(v)}, nil
	case float32:
		return encodedKey{class: classFloat, word: floatWord(float64(v))}, nil
	case bool:
		return encodedKey{}, &KeyClassError{Detail: "a bool key has no key class a client can encode " +
			"(the server hashes booleans as class \"other\"): probe with ContainsHash and bloom_key_hash"}
	case nil:
		return encodedKey{}, &KeyClassError{Detail: "a nil key (SQL NULL) is no key"}
	}
	return encodeReflect(k)
}

func uintKey(v uint64, name string) (encodedKey, error) {
	if v > math.MaxInt64 {
		return encodedKey{}, fmt.Errorf("%w: %s %d is past the largest bigint", ErrRange, name, v)
	}
	return encodedKey{class: classInt, word: v}, nil
}

// encodeReflect serves named types whose kind is one of the above (a
// `type UserID int64`, google/uuid's [16]byte, ...).
func encodeReflect(k any) (encodedKey, error) {
	rv := reflect.ValueOf(k)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return encodedKey{class: classInt, word: uint64(rv.Int())}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return uintKey(rv.Uint(), rv.Type().String())
	case reflect.String:
		return textKey(rv.String())
	case reflect.Float32, reflect.Float64:
		return encodedKey{class: classFloat, word: floatWord(rv.Float())}, nil
	case reflect.Slice:
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return encodedKey{class: classBytea, bytes: rv.Bytes()}, nil
		}
	case reflect.Array:
		if rv.Len() == 16 && rv.Type().Elem().Kind() == reflect.Uint8 {
			var u UUID
			reflect.Copy(reflect.ValueOf(u[:]), rv)
			return encodedKey{class: classUUID, bytes: u[:]}, nil
		}
	}
	return encodedKey{}, &KeyClassError{Detail: fmt.Sprintf("a key of Go type %T has no key class a client can encode "+
		"(use an integer, string, []byte, UUID or float; for other SQL types probe with ContainsHash and bloom_key_hash)", k)}
}

// hashWord is XXH3-64 of an 8-byte little-endian word.
func hashWord(w, seed uint64) uint64 {
	return uint64(C.bt_hash_word(C.uint64_t(w), C.uint64_t(seed)))
}

// hashBytes is XXH3-64 of b.
func hashBytes(b []byte, seed uint64) uint64 {
	if len(b) == 0 {
		return uint64(C.bt_hash_bytes(nil, 0, C.uint64_t(seed)))
	}
	return uint64(C.bt_hash_bytes(unsafe.Pointer(&b[0]), C.size_t(len(b)), C.uint64_t(seed)))
}

// hashString is XXH3-64 of s's bytes, without a copy: the first word of a
// string header is its data pointer (memory that holds no Go pointers).
func hashString(s string, seed uint64) uint64 {
	if len(s) == 0 {
		return uint64(C.bt_hash_bytes(nil, 0, C.uint64_t(seed)))
	}
	p := *(*unsafe.Pointer)(unsafe.Pointer(&s))
	return uint64(C.bt_hash_bytes(p, C.size_t(len(s)), C.uint64_t(seed)))
}

// hash is the key's 64-bit hash with the filter's seed, as bloom_key_hash gives it.
func (k *encodedKey) hash(seed uint64) uint64 {
	switch k.class {
	case classInt, classFloat:
		return hashWord(k.word, seed)
	case classText:
		return hashString(k.str, seed)
	}
	return hashBytes(k.bytes, seed)
}

// appendTo appends the key's canonical bytes to buf (for hashMany).
func (k *encodedKey) appendTo(buf []byte) []byte {
	switch k.class {
	case classInt, classFloat:
		return binary.LittleEndian.AppendUint64(buf, k.word)
	case classText:
		return append(buf, k.str...)
	}
	return append(buf, k.bytes...)
}

// keyBatch is many keys' canonical bytes end to end, hashed with one call
// into C (a cgo call costs more than the hash of a short key).
type keyBatch struct {
	buf  []byte
	ends []uint64
}

func (kb *keyBatch) add(k *encodedKey) {
	kb.buf = k.appendTo(kb.buf)
	kb.ends = append(kb.ends, uint64(len(kb.buf)))
}

func (kb *keyBatch) hashes(seed uint64) []uint64 {
	out := make([]uint64, len(kb.ends))
	if len(out) == 0 {
		return out
	}
	var p unsafe.Pointer
	if len(kb.buf) > 0 {
		p = unsafe.Pointer(&kb.buf[0])
	}
	C.bt_hash_many((*C.uint8_t)(p), (*C.uint64_t)(unsafe.Pointer(&kb.ends[0])), C.size_t(len(out)),
		C.uint64_t(seed), (*C.uint64_t)(unsafe.Pointer(&out[0])))
	return out
}

// KeyHash is the key's 64-bit hash as the server's bloom_key_hash(key, seed)
// gives it (a signed bigint): XXH3-64 with the seed over the key's
// canonical bytes.
func KeyHash(key any, seed uint64) (int64, error) {
	k, err := encodeKey(key)
	if err != nil {
		return 0, err
	}
	return int64(k.hash(seed)), nil
}

// textKey is a text key: its UTF-8 bytes. A string PostgreSQL's text cannot
// hold (invalid UTF-8, a NUL) is never in a filter: ErrText, as the Python
// and Node readers refuse it.
func textKey(s string) (encodedKey, error) {
	if strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) {
		return encodedKey{}, fmt.Errorf("%w: %q", ErrText, s)
	}
	return encodedKey{class: classText, str: s}, nil
}
