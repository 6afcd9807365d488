package bloomtype

import (
	"encoding/binary"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

// windowSpec is a windowed filter to build: integer keys in each slice.
type windowSpec struct {
	k           uint8
	blocks      uint64
	capacity    uint64
	fpr         float64
	seed        uint64
	class       uint8
	sliceMicros int64
	newest      int64
	window      uint32
	slices      []int64   // kept slice numbers
	keys        [][]int64 // the keys of each
}

const hour = int64(3600) * 1e6 // microseconds

// testWindow: a filter of hour slices, window 3, newest slice 0, keys
// 100.. in slice -2, 200.. in -1 and 300.. in 0 (ten each).
func testWindow() windowSpec {
	w := windowSpec{k: 7, blocks: 64, capacity: 100, fpr: 0.01, seed: 42, class: classInt,
		sliceMicros: hour, newest: 0, window: 3, slices: []int64{-2, -1, 0}}
	for _, base := range []int64{100, 200, 300} {
		var keys []int64
		for i := int64(0); i < 10; i++ {
			keys = append(keys, base+i)
		}
		w.keys = append(w.keys, keys)
	}
	return w
}

// bytes lays the filter out as docs/FORMAT.md "Version 5" says, each
// slice's items the keys that set a new bit.
func (w windowSpec) bytes() []byte {
	kept := uint64(len(w.slices))
	b := make([]byte, windowedBitsOffset(kept, w.blocks, kept))
	copy(b, "BLMF")
	b[4], b[5], b[6], b[7], b[12], b[13] = 5, kindWindowed, hashXXH3, w.class, w.k, blockLog2
	put := func(off int, v uint64) { binary.LittleEndian.PutUint64(b[off:], v) }
	put(16, w.seed)
	put(24, w.capacity)
	put(32, math.Float64bits(w.fpr))
	put(48, kept)
	put(56, w.blocks)
	put(64, uint64(w.sliceMicros))
	put(72, uint64(w.newest))
	binary.LittleEndian.PutUint32(b[80:], w.window)
	var items uint64
	for i, s := range w.slices {
		off := windowedBitsOffset(kept, w.blocks, uint64(i))
		bits := blockedBits{data: b[off : off+w.blocks*blockBytes], nblocks: w.blocks, k: int(w.k)}
		var n uint64
		for _, key := range w.keys[i] {
			h, err := KeyHash(key, w.seed)
			if err != nil {
				panic(err)
			}
			if !bits.test(uint64(h)) {
				bits.insert(uint64(h))
				n++
			}
		}
		put(windowHeadSize+sliceDescSize*i, uint64(s))
		put(windowHeadSize+sliceDescSize*i+8, n)
		items += n
	}
	put(40, items)
	return b
}

func mustWindow(t *testing.T, b []byte) *Filter {
	t.Helper()
	f, err := FromBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Since a time: the slices from floor(T / L), T rounded down to the
// microsecond, before 1970 too; the boundaries of slices are exact.
func TestWindowedSince(t *testing.T) {
	w := testWindow()
	f := mustWindow(t, w.bytes())
	cases := []struct {
		name  string
		since time.Time
		from  int // the first slice asked: keys of slices from it on are present
	}{
		{"slice 0's start (1970)", time.Unix(0, 0), 2},
		{"a nanosecond before 1970", time.Unix(0, -1), 1},
		{"a microsecond before 1970", time.UnixMicro(-1), 1},
		{"slice -1's start", time.UnixMicro(-hour), 1},
		{"a nanosecond before slice -1", time.UnixMicro(-hour).Add(-time.Nanosecond), 0},
		{"a microsecond before slice -1", time.UnixMicro(-hour - 1), 0},
		{"slice -2's start", time.UnixMicro(-2 * hour), 0},
		{"before the window", time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC), 0},
		{"year -100000", time.Date(-100000, 1, 1, 0, 0, 0, 0, time.UTC), 0},
		{"the zero time.Time", time.Time{}, 0},
		{"the last nanosecond of slice 0", time.UnixMicro(hour).Add(-time.Nanosecond), 2},
		{"the last microsecond of slice 0", time.UnixMicro(hour - 1), 2},
		{"the end of slice 0", time.UnixMicro(hour), 3},
		{"slice 0 in another zone", time.Unix(1800, 5).In(time.FixedZone("UTC+14", 14*3600)), 2},
		{"2038", time.Date(2038, 1, 19, 3, 14, 8, 0, time.UTC), 3},
	}
	for _, c := range cases {
		for i, keys := range w.keys {
			for _, key := range keys {
				in, err := f.ContainsSince(key, c.since)
				if err != nil {
					t.Fatalf("%s: key %d: %v", c.name, key, err)
				}
				if in != (i >= c.from) {
					t.Errorf("%s: key %d of slice %d: %v", c.name, key, w.slices[i], in)
				}
				h, _ := KeyHash(key, w.seed)
				if hin, err := f.ContainsHashSince(uint64(h), c.since); err != nil || hin != in {
					t.Errorf("%s: key %d: ContainsHashSince %v, %v", c.name, key, hin, err)
				}
			}
			got, err := f.ContainsManySince([]any{keys[0], int32(keys[1]), uint16(keys[2])}, c.since)
			if err != nil || len(got) != 3 || got[0] != (i >= c.from) || got[1] != got[0] || got[2] != got[0] {
				t.Errorf("%s: ContainsManySince over slice %d: %v, %v", c.name, w.slices[i], got, err)
			}
		}
	}
	// Contains asks every kept slice
	for _, keys := range w.keys {
		for _, key := range keys {
			if in, err := f.Contains(key); !in || err != nil {
				t.Errorf("Contains(%d): %v, %v", key, in, err)
			}
		}
	}
}

// Times are microseconds from 1970, rounded down (floor).
func TestSinceMicros(t *testing.T) {
	cases := []struct {
		t    time.Time
		want int64
	}{
		{time.Unix(0, 0), 0},
		{time.Unix(0, 999), 0},
		{time.Unix(0, 1000), 1},
		{time.Unix(0, -1), -1},
		{time.Unix(0, -999), -1},
		{time.Unix(0, -1000), -1},
		{time.Unix(0, -1001), -2},
		{time.Unix(-1, 0), -1000000},
		{time.UnixMicro(math.MaxInt64), math.MaxInt64},
		{time.UnixMicro(math.MaxInt64).Add(999), math.MaxInt64},
		{time.UnixMicro(math.MinInt64), math.MinInt64},
		{time.UnixMicro(1793516399999999).Add(1), 1793516399999999},
	}
	for _, c := range cases {
		if got, ok := sinceMicros(c.t); !ok || got != c.want {
			t.Errorf("sinceMicros(%v) = %d, %v; want %d", c.t, got, ok, c.want)
		}
	}
	for _, bad := range []time.Time{
		time.UnixMicro(math.MaxInt64).Add(time.Microsecond),
		time.UnixMicro(math.MinInt64).Add(-time.Nanosecond),
		time.Date(300000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-300000, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		if got, ok := sinceMicros(bad); ok {
			t.Errorf("sinceMicros(%v) = %d, want out of range", bad, got)
		}
	}
	for _, c := range [][3]int64{{7, 2, 3}, {-7, 2, -4}, {-8, 2, -4}, {-1, hour, -1}, {0, hour, 0},
		{math.MinInt64, 1, math.MinInt64}, {math.MinInt64, 3, math.MinInt64/3 - 1}} {
		if got := floorDiv(c[0], c[1]); got != c[2] {
			t.Errorf("floorDiv(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}

// A time whose slice the format cannot hold is ErrRange, as the server's
// error; with slices of a microsecond the last slice is 2^63 - 1 - 64.
func TestWindowedSinceRange(t *testing.T) {
	w := testWindow()
	w.sliceMicros, w.newest = 1, 1000
	w.slices = []int64{998, 999, 1000}
	f := mustWindow(t, w.bytes())
	ok := []time.Time{time.UnixMicro(math.MaxInt64 - 64), time.UnixMicro(-math.MaxInt64 + 64)}
	bad := []time.Time{time.UnixMicro(math.MaxInt64 - 63), time.UnixMicro(-math.MaxInt64 + 63),
		time.UnixMicro(math.MinInt64), time.Date(300000, 1, 1, 0, 0, 0, 0, time.UTC)}
	for _, since := range ok {
		if _, err := f.ContainsSince(int64(300), since); err != nil {
			t.Errorf("since %v: %v", since, err)
		}
	}
	for _, since := range bad {
		_, err := f.ContainsSince(int64(300), since)
		_, err2 := f.ContainsManySince([]any{int64(300)}, since)
		_, err3 := f.ContainsHashSince(1, since)
		for _, e := range []error{err, err2, err3} {
			if !errors.Is(e, ErrRange) || !strings.Contains(e.Error(), "out of the range of a windowed bloom filter") {
				t.Errorf("since %v: %v, want ErrRange", since, e)
			}
		}
	}
	// the key comes first: a key of another class, then the time
	if _, err := f.ContainsSince("300", bad[0]); !errors.Is(err, ErrKeyClass) {
		t.Errorf("a text key in an integer filter: %v", err)
	}
}

// A windowed filter of no key class yet (bloom_window, nothing added)
// answers false, whatever the key or the time.
func TestWindowedEmpty(t *testing.T) {
	w := windowSpec{k: 9, blocks: 3, capacity: 100, fpr: 0.01, sliceMicros: 86400 * 1e6,
		newest: windowNoTime, window: 7}
	f := mustWindow(t, w.bytes())
	for _, key := range []any{int64(1), "a", []byte{1}, 1.5} {
		for _, since := range []time.Time{time.Unix(0, 0), time.Date(300000, 1, 1, 0, 0, 0, 0, time.UTC)} {
			if in, err := f.ContainsSince(key, since); in || err != nil {
				t.Errorf("ContainsSince(%v, %v): %v, %v", key, since, in, err)
			}
		}
		if in, err := f.Contains(key); in || err != nil {
			t.Errorf("Contains(%v): %v, %v", key, in, err)
		}
	}
	if got, err := f.ContainsManySince([]any{int64(1), "a"}, time.Unix(0, 0)); err != nil || got[0] || got[1] {
		t.Errorf("ContainsManySince: %v, %v", got, err)
	}
	info := f.Info()
	if info.KindName != "windowed" || info.NewestSlice != math.MinInt64 || len(info.Slices) != 0 ||
		info.Window != 7 || info.SliceMicros != 86400*1e6 || info.KeyClass != "none" || info.Blocks != 3 || info.K != 9 {
		t.Errorf("info %+v", info)
	}
}

// A lookup since a time on a filter that keeps no time is ErrNotWindowed.
func TestSinceNotWindowed(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range filterVectors(t) {
		form := v.Type + " " + strconv.Itoa(v.Kind)
		if v.Kind == kindWindowed || seen[form] {
			continue
		}
		seen[form] = true
		f, err := Load(mustHex(t, v.Hex))
		if err != nil {
			t.Fatal(err)
		}
		_, err1 := f.ContainsSince(int64(1), time.Now())
		_, err2 := f.ContainsManySince([]any{int64(1)}, time.Now())
		_, err3 := f.ContainsHashSince(1, time.Now())
		for i, err := range []error{err1, err2, err3} {
			if !errors.Is(err, ErrNotWindowed) || !strings.Contains(err.Error(), "keeps no time") ||
				!strings.Contains(err.Error(), f.Info().KindName) {
				t.Errorf("%s (%s, kind %d): lookup %d since a time: %v", v.Name, v.Type, v.Kind, i, err)
			}
		}
	}
	if len(seen) < 8 {
		t.Errorf("only %d kinds of filter tried", len(seen))
	}
}

// Info: the window and its slices, their times exact.
func TestWindowedInfo(t *testing.T) {
	w := testWindow()
	b := w.bytes()
	f, err := Load(b)
	if err != nil {
		t.Fatal(err)
	}
	info := f.Info()
	if f.Type() != TypeBloomFilter || info.Version != 5 || info.Kind != 9 || info.KindName != "windowed" ||
		info.SliceMicros != hour || info.Window != 3 || info.NewestSlice != 0 || info.K != 7 ||
		info.Blocks != 64 || info.Capacity != 100 || info.Size != len(b) || len(info.Slices) != 3 {
		t.Fatalf("info %+v", info)
	}
	var items uint64
	for i, s := range info.Slices {
		start := time.Date(1969, 12, 31, 22+i, 0, 0, 0, time.UTC)
		if s.Number != int64(i-2) || !s.Start.Equal(start) || !s.End.Equal(start.Add(time.Hour)) ||
			s.Start.Location() != time.UTC || s.Items == 0 || s.Items > 10 {
			t.Errorf("slice %d: %+v", i, s)
		}
		items += s.Items
	}
	if items != info.Items {
		t.Errorf("items %d, slices %d", info.Items, items)
	}
	info.Slices[0].Number = 99 // a copy
	if f.Info().Slices[0].Number != -2 {
		t.Error("Info shares its slices")
	}
}

// Each check of windowed_decode (docs/FORMAT.md, "Kind 9"), in order, with
// the server's detail; the other types refuse kind 9 as another type's.
func TestWindowedRefused(t *testing.T) {
	good := testWindow().bytes()
	put := func(b []byte, off int, v uint64) { binary.LittleEndian.PutUint64(b[off:], v) }
	lim := uint64(math.MaxInt64/hour - 64)
	cases := []struct {
		why    string
		st     status
		change func(b []byte) []byte
	}{
		{"version 1", stKind, func(b []byte) []byte { b[4] = 1; return b }},
		{"version 2", stKind, func(b []byte) []byte { b[4] = 2; return b }},
		{"version 3", stVersion, func(b []byte) []byte { b[4] = 3; return b }},
		{"version 4", stKind, func(b []byte) []byte { b[4] = 4; return b }},
		{"version 6", stVersion, func(b []byte) []byte { b[4] = 6; return b }},
		{"kind 1 in version 5", stKind, func(b []byte) []byte { b[5] = 1; return b }},
		{"kind 4 in version 5", stKind, func(b []byte) []byte { b[5] = 4; return b }},
		{"kind 10", stKind, func(b []byte) []byte { b[5] = 10; return b }},
		{"hash", stHash, func(b []byte) []byte { b[6] = 2; return b }},
		{"key class", stKeyClass, func(b []byte) []byte { b[7] = 7; return b }},
		{"flags", stFlags, func(b []byte) []byte { b[14] = 1; return b }},
		{"k 0", stGeometry, func(b []byte) []byte { b[12] = 0; return b }},
		{"k 33", stGeometry, func(b []byte) []byte { b[12] = 33; return b }},
		{"block log2 8", stGeometry, func(b []byte) []byte { b[13] = 8; return b }},
		{"blocks 0", stGeometry, func(b []byte) []byte { put(b, 56, 0); return b }},
		{"blocks past the largest", stGeometry, func(b []byte) []byte { put(b, 56, maxBlocks+1); return b }},
		{"capacity 0", stParams, func(b []byte) []byte { put(b, 24, 0); return b }},
		{"capacity past the bits", stParams, func(b []byte) []byte { put(b, 24, 64*512+1); return b }},
		{"rate 0.6", stParams, func(b []byte) []byte { put(b, 32, math.Float64bits(0.6)); return b }},
		{"rate 1e-10", stParams, func(b []byte) []byte { put(b, 32, math.Float64bits(1e-10)); return b }},
		{"rate NaN", stParams, func(b []byte) []byte { put(b, 32, math.Float64bits(math.NaN())); return b }},
		{"shorter than the window", stLength, func(b []byte) []byte { return b[:95] }},
		{"reserved byte 84", stFlags, func(b []byte) []byte { b[84] = 1; return b }},
		{"reserved byte 95", stFlags, func(b []byte) []byte { b[95] = 0x80; return b }},
		{"slice length 0", stParams, func(b []byte) []byte { put(b, 64, 0); return b }},
		{"slice length -1", stParams, func(b []byte) []byte { put(b, 64, math.MaxUint64); return b }},
		{"slice length past 1000 years", stParams, func(b []byte) []byte { put(b, 64, uint64(maxSliceMicros)+1); return b }},
		{"window 0", stParams, func(b []byte) []byte { b[80] = 0; return b }},
		{"window 32", stParams, func(b []byte) []byte { b[80] = 32; return b }},
		{"window 259", stParams, func(b []byte) []byte { b[81] = 1; return b }},
		{"newest past the range", stParams, func(b []byte) []byte { put(b, 72, lim+1); return b }},
		{"newest before the range", stParams, func(b []byte) []byte { put(b, 72, -(lim + 1)); return b }},
		{"slices past the window", stGeometry, func(b []byte) []byte { b[80] = 1; return b }},
		{"slices without a time", stGeometry, func(b []byte) []byte { put(b, 72, 1<<63); return b }},
		{"slices past the largest value", stLength, func(b []byte) []byte { put(b, 56, maxBlocks/2); return b }},
		{"an extra byte", stLength, func(b []byte) []byte { return append(b, 0) }},
		{"a byte short", stLength, func(b []byte) []byte { return b[:len(b)-1] }},
		{"slices not increasing", stGeometry, func(b []byte) []byte { put(b, windowHeadSize+16, uint64(0xFFFFFFFFFFFFFFFE)); return b }},
		{"a slice older than the window", stGeometry, func(b []byte) []byte { put(b, windowHeadSize, uint64(0xFFFFFFFFFFFFFFFC)); return b }},
		{"a slice newer than the newest", stGeometry, func(b []byte) []byte { put(b, 72, uint64(0xFFFFFFFFFFFFFFFF)); return b }},
		{"slice items", stCount, func(b []byte) []byte { b[windowHeadSize+8]++; return b }},
		{"header items", stCount, func(b []byte) []byte { b[40]++; return b }},
	}
	for _, c := range cases {
		b := c.change(append([]byte(nil), good...))
		_, err := FromBytes(b)
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Type != TypeBloomFilter {
			t.Errorf("%s: %v", c.why, err)
			continue
		}
		want := statusMessages[c.st]
		if c.st == stVersion {
			want = "The format version is not one this build reads (it reads versions 1, 2, 4 and 5)."
		}
		if fe.Detail != want {
			t.Errorf("%s: %q, want %q", c.why, fe.Detail, want)
		}
		if _, err := Load(b); err == nil {
			t.Errorf("%s: Load accepts it", c.why)
		}
	}
	// countingbloom and cuckoofilter: another type's value, in any version
	for _, v := range []byte{1, 5, 6} {
		b := append([]byte(nil), good...)
		b[4] = v
		for typ, ctor := range map[string]func([]byte) (*Filter, error){
			TypeCountingBloom: CountingFromBytes, TypeCuckooFilter: CuckooFromBytes} {
			_, err := ctor(b)
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Detail != statusMessages[stOtherType] {
				t.Errorf("%s of kind 9 version %d: %v", typ, v, err)
			}
		}
	}
}

// The items of the slices add up saturating at 2^64 - 1, as the header's.
func TestWindowedItemsSaturate(t *testing.T) {
	b := testWindow().bytes()
	binary.LittleEndian.PutUint64(b[windowHeadSize+8:], math.MaxUint64)
	binary.LittleEndian.PutUint64(b[40:], math.MaxUint64)
	f := mustWindow(t, b)
	if info := f.Info(); info.Items != math.MaxUint64 || info.Slices[0].Items != math.MaxUint64 {
		t.Errorf("info %+v", info)
	}
}
