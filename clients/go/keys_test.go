package bloomtype

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// Hashes the dev server gave: SELECT bloom_key_hash(key[, seed]).
func TestKeyHashMatchesServer(t *testing.T) {
	u, _ := ParseUUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")
	cases := []struct {
		key  any
		seed uint64
		want int64
	}{
		{int64(0), 0, -4072596861322023719},
		{int64(1), 0, 3439722301264460078},
		{int64(-1), 0, 5841669975847748627},
		{int64(math.MaxInt64), 0, -6758830778922508474},
		{int64(math.MinInt64), 0, -9038965835861193121},
		{int64(42), 7, -5685824711826749659},
		{int64(42), math.MaxUint64, 1590978491127421467}, // seed -1
		{"", 0, 3244421341483603138},
		{"ключ-1", 0, 8904625523417083761},
		{[]byte{}, 0, 3244421341483603138},
		{[]byte(nil), 0, 3244421341483603138},
		{[]byte{0x00, 0xff, 0x10}, 0, -6613654770341896913},
		{u, 0, 6187780171734267751},
		{0.0, 0, -4072596861322023719}, // float 0 is the word 0, as integer 0
		{math.Copysign(0, -1), 0, -4072596861322023719},
		{math.NaN(), 0, 767333564151873895},
		{math.Inf(1), 0, 3862676201523092338},
		{0.1, 0, -3902581968059104307},
		{float32(0.1), 0, 6185812578492515446}, // 0.1::real widens exactly
		{float64(3-500000) / 7.0, 0, 3531700495014294227},
	}
	for _, c := range cases {
		got, err := KeyHash(c.key, c.seed)
		if err != nil || got != c.want {
			t.Errorf("KeyHash(%T %v, %d) = %d, %v; want %d", c.key, c.key, c.seed, got, err, c.want)
		}
	}
}

// Integers of every width are one key; floats normalise -0 and NaN.
func TestKeyEncodings(t *testing.T) {
	type myID int32
	type myName string
	type myUUID [16]byte
	same := [][]any{
		{int64(5), int(5), int8(5), int16(5), int32(5), uint(5), uint8(5), uint16(5), uint32(5), uint64(5), myID(5)},
		{int64(-7), int8(-7), int(-7)},
		{int64(math.MaxInt64), uint64(math.MaxInt64), uint(math.MaxInt64)},
		{"abc", myName("abc")},
		{[]byte("abc")},
		{UUID{1, 2, 3}, myUUID{1, 2, 3}, &UUID{1, 2, 3}},
		{math.NaN(), math.Float64frombits(0x7FF0000000000001), math.Float64frombits(0xFFF8000000000000),
			float32(math.NaN()), -math.NaN()},
		{0.0, math.Copysign(0, -1), float32(0), float32(math.Copysign(0, -1))},
		{1.5, float32(1.5)},
	}
	for _, group := range same {
		first, err := KeyHash(group[0], 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range group[1:] {
			if h, err := KeyHash(k, 0); err != nil || h != first {
				t.Errorf("KeyHash(%T %v) = %d, %v; want %d as %T %v", k, k, h, err, first, group[0], group[0])
			}
		}
	}
	// text and bytea of the same bytes hash alike (their classes differ)
	a, _ := KeyHash("abc", 0)
	b, _ := KeyHash([]byte("abc"), 0)
	if a != b {
		t.Error("text and bytea of the same bytes hash differently")
	}
}

func TestKeyRefused(t *testing.T) {
	for _, k := range []any{uint64(math.MaxInt64) + 1, uint64(math.MaxUint64), uint(math.MaxUint64)} {
		if _, err := KeyHash(k, 0); !errors.Is(err, ErrRange) {
			t.Errorf("KeyHash(%T %v): %v, want ErrRange", k, k, err)
		}
	}
	type flag bool
	for _, k := range []any{true, false, flag(true), nil, struct{}{}, []int{1}, map[string]int{}, (*UUID)(nil), complex(1, 2)} {
		if _, err := KeyHash(k, 0); !errors.Is(err, ErrKeyClass) {
			t.Errorf("KeyHash(%T %v): %v, want ErrKeyClass", k, k, err)
		}
	}
	// and in a filter, even one that holds no key class yet
	f := loadVector(t, "scalable_empty")
	for _, k := range []any{true, uint64(math.MaxUint64)} {
		if _, err := f.Contains(k); err == nil {
			t.Errorf("Contains(%v) on an empty filter: no error", k)
		}
		if _, err := f.ContainsMany([]any{int64(1), k}); err == nil {
			t.Errorf("ContainsMany(..., %v): no error", k)
		}
	}
}

func loadVector(t *testing.T, name string) *Filter {
	for _, v := range filterVectors(t) {
		if v.Name == name {
			f, err := Load(mustHex(t, v.Hex))
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
	}
	t.Fatalf("no vector %s", name)
	return nil
}

func TestKeyClassErrors(t *testing.T) {
	f := loadVector(t, "bloom_int")
	_, err := f.Contains("x")
	if !errors.Is(err, ErrKeyClass) || err.Error() != "bloom filter holds integer keys, not text keys: "+
		"a key of another type hashes differently, so it would never be found" {
		t.Errorf("text in an integer filter: %v", err)
	}
	if _, err := f.ContainsMany([]any{int64(1), "x"}); !errors.Is(err, ErrKeyClass) {
		t.Errorf("ContainsMany: %v", err)
	}
	// class "other" (a date filter): a key class error naming the type;
	// ContainsHash answers
	d := loadVector(t, "bloom_other_date")
	for _, k := range []any{int64(1), "2024-01-01", 1.0} {
		_, err := d.Contains(k)
		if !errors.Is(err, ErrKeyClass) || !strings.Contains(err.Error(), "holds date keys") {
			t.Errorf("Contains(%v) in a date filter: %v", k, err)
		}
	}
	for _, name := range []string{"counting_int", "cuckoo_int"} {
		if _, err := loadVector(t, name).Contains("x"); !errors.Is(err, ErrKeyClass) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestParseUUID(t *testing.T) {
	want := "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
	for _, s := range []string{want, strings.ToUpper(want), "{" + want + "}",
		"a0eebc999c0b4ef8bb6d6bb9bd380a11", "a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11",
		"{a0eebc99-9c0b4ef8-bb6d6bb9-bd380a11}"} {
		u, err := ParseUUID(s)
		if err != nil || u.String() != want {
			t.Errorf("ParseUUID(%q) = %v, %v", s, u, err)
		}
	}
	// what Postgres' uuid input refuses
	for _, s := range []string{"", " " + want, want + " ", want + "-", "a0e-ebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
		"{" + want, want + "}", "a0eebc99--9c0b-4ef8-bb6d-6bb9bd380a11", "-" + want,
		"a0eebc999c0b4ef8bb6d6bb9bd380a1", "a0eebc999c0b4ef8bb6d6bb9bd380a111", "g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"} {
		if _, err := ParseUUID(s); err == nil {
			t.Errorf("ParseUUID(%q) accepted", s)
		}
	}
}

func TestFromHex(t *testing.T) {
	v := filterVectors(t)[0]
	if _, err := FromHex(`\x` + strings.ToUpper(v.Hex)); err != nil {
		t.Errorf("upper-case hex: %v", err)
	}
	for _, s := range []string{"", `\`, v.Hex, `\X` + v.Hex, `\x` + v.Hex + "0", `\x` + v.Hex + "zz",
		` \x` + v.Hex, `\x` + v.Hex + "\n", `\x`} {
		if _, err := FromHex(s); !errors.Is(err, ErrFormat) {
			t.Errorf("FromHex(%.20q...): %v", s, err)
		}
	}
}

// A hash list that holds hashes is refused, with the hint; an empty one
// answers absent (bloomfilter: with its header's class checked).
func TestHashListPolicy(t *testing.T) {
	empty := loadVector(t, "agg_empty")
	if ok, err := empty.Contains(int64(1)); ok || err != nil {
		t.Errorf("empty hash list: %v, %v", ok, err)
	}
	if empty.ContainsHash(12345) {
		t.Error("empty hash list: ContainsHash true")
	}
	list := make([]byte, 72)
	copy(list, "BLMF\x01\x02\x01\x01")
	list[32+6], list[32+7] = 0x84, 0x3f // 0.01: 0x3F847AE147AE147B
	copy(list[32:40], []byte{0x7b, 0x14, 0xae, 0x47, 0xe1, 0x7a, 0x84, 0x3f})
	list[40], list[48], list[56] = 1, 1, 1 // items 1, slots 1, hashes 1
	for typ, ctor := range constructors {
		_, err := ctor(list)
		var fe *FormatError
		want := map[string]string{"bloomfilter": "bloom_union_agg(f)", "countingbloom": "counting_union_agg(f)",
			"cuckoofilter": "cuckoo_union_agg(f)"}[typ]
		if !errors.As(err, &fe) || want == "" || !strings.Contains(fe.Hint, want) {
			t.Errorf("%s: hash list with a hash: %v", typ, err)
		}
	}
	list[56], list[7] = 0, 1 // no hashes, integer keys
	b, err := FromBytes(list)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Contains("x"); !errors.Is(err, ErrKeyClass) {
		t.Errorf("bloomfilter empty hash list of integer keys, text key: %v", err)
	}
	for _, ctor := range []func([]byte) (*Filter, error){CountingFromBytes, CuckooFromBytes} {
		f, err := ctor(list)
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := f.Contains("x"); ok || !errors.Is(err, ErrKeyClass) {
			t.Errorf("%s empty hash list of integer keys, text key: %v, %v (the server: an ERROR)", f.Type(), ok, err)
		}
		if ok, err := f.Contains(1); ok || err != nil {
			t.Errorf("%s empty hash list of integer keys, integer key: %v, %v", f.Type(), ok, err)
		}
	}
}

func TestTextKeysPostgresCannotHold(t *testing.T) {
	f := loadVector(t, "bloom_text")
	for _, k := range []string{"\xff9", "k\x0011", "\x00"} {
		if _, err := f.Contains(k); !errors.Is(err, ErrText) {
			t.Errorf("Contains(%q): %v, want ErrText", k, err)
		}
		if _, err := KeyHash(k, 0); !errors.Is(err, ErrText) {
			t.Errorf("KeyHash(%q): %v, want ErrText", k, err)
		}
	}
	if in, err := f.Contains("ключ"); err != nil || !in {
		t.Errorf("Contains(ключ) = %v, %v", in, err)
	}
}
