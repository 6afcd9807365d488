package bloomtype

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// The test vectors of the repository (test/vectors, made from the server
// by scripts/vectors.sh), found from this file's place.
func vectorPath(t *testing.T, name string) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot find the test file's directory")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "test", "vectors", name)
}

type vectorFilter struct {
	Name    string     `json:"name"`
	Type    string     `json:"type"`
	Why     string     `json:"why"`
	Version int        `json:"version"`
	Kind    int        `json:"kind"`
	Hex     string     `json:"hex"`
	Keys    [][]string `json:"keys"`
	Expect  string     `json:"expect"`
	// windowed filters: the server's bloom_contains(f, key, since) for the
	// same keys, since the time "at" (microseconds from 1970-01-01 UTC)
	Since []struct {
		At     int64  `json:"at"`
		Expect string `json:"expect"`
	} `json:"since"`
}

type hostileValue struct {
	Suite      string            `json:"suite"`
	ID         int               `json:"id"`
	Why        string            `json:"why"`
	Hex        string            `json:"hex"`
	AcceptedBy []string          `json:"accepted_by"`
	Answers    map[string]string `json:"answers"`
}

func loadJSON(t *testing.T, name string, v any) {
	data, err := os.ReadFile(vectorPath(t, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatal(err)
	}
}

func filterVectors(t *testing.T) []vectorFilter {
	var doc struct {
		Filters []vectorFilter `json:"filters"`
	}
	loadJSON(t, "filters.json", &doc)
	if len(doc.Filters) == 0 {
		t.Fatal("no filters in filters.json")
	}
	return doc.Filters
}

func hostileValues(t *testing.T) []hostileValue {
	var doc struct {
		Values []hostileValue `json:"values"`
	}
	loadJSON(t, "hostile.json", &doc)
	if len(doc.Values) == 0 {
		t.Fatal("no values in hostile.json")
	}
	return doc.Values
}

func mustHex(t *testing.T, s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var constructors = map[string]func([]byte) (*Filter, error){
	TypeBloomFilter:   FromBytes,
	TypeCountingBloom: CountingFromBytes,
	TypeCuckooFilter:  CuckooFromBytes,
}

// probe asks f about one key of the vectors: [class, text].
func probe(t *testing.T, f *Filter, class, text string) (bool, error) {
	switch class {
	case "int":
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return f.Contains(v)
	case "text":
		return f.Contains(text)
	case "bytea":
		return f.Contains(mustHex(t, text))
	case "uuid":
		u, err := ParseUUID(text)
		if err != nil {
			t.Fatal(err)
		}
		return f.Contains(u)
	case "float":
		b := mustHex(t, text)
		return f.Contains(math.Float64frombits(binary.BigEndian.Uint64(b)))
	case "hash":
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return f.ContainsHash(uint64(v)), nil
	}
	t.Fatalf("unknown key class %q", class)
	return false, nil
}

func TestVectorsAnswer(t *testing.T) {
	for _, v := range filterVectors(t) {
		b := mustHex(t, v.Hex)
		for _, how := range []string{"type", "load", "hex"} {
			var f *Filter
			var err error
			switch how {
			case "type":
				f, err = constructors[v.Type](b)
			case "load":
				f, err = Load(b)
			case "hex":
				f, err = FromHex(`\x` + v.Hex)
			}
			if err != nil {
				t.Fatalf("%s (%s): %v", v.Name, how, err)
			}
			if f.Type() != v.Type {
				t.Errorf("%s (%s): type %s, want %s", v.Name, how, f.Type(), v.Type)
			}
			got := make([]byte, len(v.Keys))
			many := make([]any, 0, len(v.Keys))
			for i, k := range v.Keys {
				ok, err := probe(t, f, k[0], k[1])
				if err != nil {
					t.Fatalf("%s key %d %v: %v", v.Name, i, k, err)
				}
				got[i] = '0'
				if ok {
					got[i] = '1'
				}
			}
			if string(got) != v.Expect {
				t.Errorf("%s (%s): answers\n%s, want\n%s", v.Name, how, got, v.Expect)
			}
			// ContainsMany gives the same answers
			if v.Keys[0][0] != "hash" && how == "type" {
				for _, k := range v.Keys {
					many = append(many, keyValue(t, k[0], k[1]))
				}
				answers, err := f.ContainsMany(many)
				if err != nil {
					t.Fatalf("%s: ContainsMany: %v", v.Name, err)
				}
				for i, a := range answers {
					if a != (got[i] == '1') {
						t.Errorf("%s: ContainsMany key %d: %v, Contains %c", v.Name, i, a, got[i])
					}
				}
			}
		}
	}
}

// probeSince asks f about one key of the vectors since a time.
func probeSince(t *testing.T, f *Filter, class, text string, since time.Time) (bool, error) {
	if class == "hash" {
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return f.ContainsHashSince(uint64(v), since)
	}
	return f.ContainsSince(keyValue(t, class, text), since)
}

// Windowed filters answer since each time as the server did, key by key
// and in one call; the times are also asked a nanosecond later (the same
// microsecond) and, for the start of a microsecond, a nanosecond earlier
// (the microsecond before). Other filters refuse a time.
func TestVectorsSince(t *testing.T) {
	windowed := 0
	for _, v := range filterVectors(t) {
		f, err := FromHex(`\x` + v.Hex)
		if err != nil {
			t.Fatal(err)
		}
		if v.Kind != kindWindowed {
			if len(v.Since) > 0 {
				t.Errorf("%s: answers since a time, but is of kind %d", v.Name, v.Kind)
			}
			if _, err := probeSince(t, f, v.Keys[0][0], v.Keys[0][1], time.Unix(0, 0)); !errors.Is(err, ErrNotWindowed) {
				t.Errorf("%s: a lookup since a time: %v, want ErrNotWindowed", v.Name, err)
			}
			continue
		}
		windowed++
		if len(v.Since) == 0 {
			t.Errorf("%s: a windowed filter without answers since a time", v.Name)
		}
		answers := func(since time.Time) string {
			got := make([]byte, len(v.Keys))
			for i, k := range v.Keys {
				ok, err := probeSince(t, f, k[0], k[1], since)
				if err != nil {
					t.Fatalf("%s key %d %v since %v: %v", v.Name, i, k, since, err)
				}
				got[i] = "01"[b2i(ok)]
			}
			return string(got)
		}
		for _, s := range v.Since {
			at := time.UnixMicro(s.At)
			if got := answers(at); got != s.Expect {
				t.Errorf("%s since %d: answers\n%s, want\n%s", v.Name, s.At, got, s.Expect)
			}
			if got := answers(at.Add(999 * time.Nanosecond)); got != s.Expect {
				t.Errorf("%s since %d and 999 ns: answers differ", v.Name, s.At)
			}
			if v.Keys[0][0] != "hash" {
				many := make([]any, 0, len(v.Keys))
				for _, k := range v.Keys {
					many = append(many, keyValue(t, k[0], k[1]))
				}
				got, err := f.ContainsManySince(many, at.In(time.FixedZone("UTC-7", -7*3600)))
				if err != nil {
					t.Fatalf("%s: ContainsManySince: %v", v.Name, err)
				}
				for i, a := range got {
					if a != (s.Expect[i] == '1') {
						t.Errorf("%s since %d: ContainsManySince key %d: %v", v.Name, s.At, i, a)
					}
				}
			}
		}
		// since the earliest time of every slice kept: Contains; since a time
		// after the newest: nothing
		info := f.Info()
		if len(info.Slices) > 0 {
			first, last := info.Slices[0], info.Slices[len(info.Slices)-1]
			if got := answers(first.Start); got != v.Expect {
				t.Errorf("%s since the first slice's start: answers differ from Contains", v.Name)
			}
			if got := answers(first.Start.Add(-time.Nanosecond)); got != v.Expect {
				t.Errorf("%s since before the first slice: answers differ from Contains", v.Name)
			}
			if got := answers(last.End); got != string(make0(len(v.Keys))) {
				t.Errorf("%s since the newest slice's end: %s", v.Name, got)
			}
		}
	}
	if windowed == 0 {
		t.Error("no windowed filter in the vectors")
	}
}

func make0(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = '0'
	}
	return b
}

// keyValue is a vector's key as a Go value.
func keyValue(t *testing.T, class, text string) any {
	switch class {
	case "int":
		v, _ := strconv.ParseInt(text, 10, 64)
		return v
	case "text":
		return text
	case "bytea":
		return mustHex(t, text)
	case "uuid":
		u, _ := ParseUUID(text)
		return u
	case "float":
		return math.Float64frombits(binary.BigEndian.Uint64(mustHex(t, text)))
	}
	t.Fatalf("no Go value for class %q", class)
	return nil
}

// A key of another class is an error, except in a filter that holds no
// key class yet (every key absent).
func TestVectorsKeyClass(t *testing.T) {
	others := map[string]any{"int": int64(1), "text": "1", "bytea": []byte{1}, "uuid": UUID{1}, "float": 1.0}
	for _, v := range filterVectors(t) {
		f, err := Load(mustHex(t, v.Hex))
		if err != nil {
			t.Fatal(err)
		}
		info := f.Info()
		for class, key := range others {
			ok, err := f.Contains(key)
			own := map[string]string{"int": "integer", "text": "text", "bytea": "bytea", "uuid": "uuid", "float": "float"}[class]
			switch {
			case info.KeyClass == "none":
				if ok || err != nil {
					t.Errorf("%s: a filter of no key class answers %v, %v for %s", v.Name, ok, err, class)
				}
			case info.KeyClass == own:
				if err != nil {
					t.Errorf("%s: %s key: %v", v.Name, class, err)
				}
			default:
				var kce *KeyClassError
				if !errors.Is(err, ErrKeyClass) || !errors.As(err, &kce) || ok {
					t.Errorf("%s: %s key in a %s filter: %v, %v", v.Name, class, info.KeyClass, ok, err)
				}
			}
		}
	}
}

// Every truncation of every vector is refused, by every constructor, with
// a format error (and without a panic): a value never answers wrong.
func TestVectorsTruncated(t *testing.T) {
	for _, v := range filterVectors(t) {
		b := mustHex(t, v.Hex)
		for n := 0; n < len(b); n++ {
			for typ, ctor := range constructors {
				if f, err := ctor(b[:n]); err == nil || !errors.Is(err, ErrFormat) {
					t.Fatalf("%s truncated to %d: %s gives %v, %v", v.Name, n, typ, f, err)
				}
			}
			if _, err := Load(b[:n]); err == nil {
				t.Fatalf("%s truncated to %d: Load accepts it", v.Name, n)
			}
		}
	}
}

// Info reports the header as stored.
func TestVectorsInfo(t *testing.T) {
	for _, v := range filterVectors(t) {
		b := mustHex(t, v.Hex)
		f, err := Load(b)
		if err != nil {
			t.Fatal(err)
		}
		info := f.Info()
		if info.Version != v.Version || info.Kind != v.Kind || info.Size != len(b) || info.Type != v.Type {
			t.Errorf("%s: info %+v", v.Name, info)
		}
		if info.Seed != binary.LittleEndian.Uint64(b[16:]) || info.Items != binary.LittleEndian.Uint64(b[40:]) {
			t.Errorf("%s: seed or items differ: %+v", v.Name, info)
		}
		switch info.Kind {
		case kindScalable:
			if len(info.Layers) != int(binary.LittleEndian.Uint64(b[48:])) || info.Expansion < 1 {
				t.Errorf("%s: layers %+v", v.Name, info)
			}
		case kindCuckoo:
			if len(info.SubFilters) != int(binary.LittleEndian.Uint64(b[48:])) || info.BucketSize != int(b[12]) {
				t.Errorf("%s: sub-filters %+v", v.Name, info)
			}
		case kindWindowed:
			if len(info.Slices) != int(binary.LittleEndian.Uint64(b[48:])) || info.K != int(b[12]) ||
				info.Blocks != binary.LittleEndian.Uint64(b[56:]) || info.KindName != "windowed" ||
				info.SliceMicros != int64(binary.LittleEndian.Uint64(b[64:])) ||
				info.NewestSlice != int64(binary.LittleEndian.Uint64(b[72:])) || info.Window != int(b[80]) {
				t.Errorf("%s: window %+v", v.Name, info)
			}
			var items uint64
			for _, s := range info.Slices {
				items += s.Items
				if s.End.Sub(s.Start) != time.Duration(info.SliceMicros)*time.Microsecond ||
					s.Start.UnixMicro() != s.Number*info.SliceMicros || s.Number > info.NewestSlice {
					t.Errorf("%s: slice %+v", v.Name, s)
				}
			}
			if items != info.Items {
				t.Errorf("%s: the slices hold %d items, the header %d", v.Name, items, info.Items)
			}
		case kindBlocked, kindBuffered, kindCounting, kindLight, kindLightCounting:
			if info.K != int(b[12]) || info.Blocks != binary.LittleEndian.Uint64(b[48:]) {
				t.Errorf("%s: k or blocks %+v", v.Name, info)
			}
		}
	}
}
