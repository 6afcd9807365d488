package bloomtype

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"
)

// Windowed filters (kind 9, format version 5; docs/FORMAT.md, "Version 5:
// windowed filters"; src/core/windowed.c): the keys of the last few slices
// of time, each slice a blocked filter of the header's k and blocks. Time
// is cut into slices of L microseconds aligned to multiples of L from
// 1970-01-01 00:00 UTC: slice s covers [s x L, (s + 1) x L). The filter
// keeps the slices from newest - window to newest that hold keys, at most
// window + 1 of them.

const (
	windowHeadSize = headerSize + 32 // the window descriptor, then one 16-byte descriptor a kept slice
	sliceDescSize  = 16
	windowMax      = 31                              // BLOOM_WINDOW_MAX
	maxSliceMicros = int64(1000) * 366 * 86400 * 1e6 // 1,000 years of 366 days
	windowNoTime   = math.MinInt64                   // newest, before any time
)

// windowState is a windowed filter's window: its slicing, the newest slice
// it has seen and the slices it keeps (their bits are the Filter's layers,
// in the same order).
type windowState struct {
	sliceMicros int64
	newest      int64
	window      uint32
	slices      []windowSlice // oldest first
}

type windowSlice struct {
	no    int64 // the slice number s
	items uint64
}

// windowedBitsOffset: where kept slice i's bits start in a value of kept
// slices of blocks blocks each.
func windowedBitsOffset(kept, blocks, i uint64) uint64 {
	return windowHeadSize + kept*sliceDescSize + i*blocks*blockBytes
}

// sliceValid: the slice numbers a value may hold, whose start and end (and
// a window's arithmetic around them) fit in int64 microseconds
// (bloom_window_slice_valid).
func sliceValid(s, sliceMicros int64) bool {
	lim := math.MaxInt64/sliceMicros - 2*maxLayers
	return s >= -lim && s <= lim
}

// floorDiv is floor(a / b) for b > 0, also for negative a (bloom_window_slice).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// decodeWindowed: kind 9, version 5 alone, no flags; a slice's geometry,
// the window descriptor, the kept slices (strictly increasing, inside the
// window of the newest), their items' sum and the length
// (windowed_decode). The window is written to out when it is not nil.
func decodeWindowed(b []byte, h *header, out *windowState) status {
	if h.version != 5 {
		return stKind
	}
	if h.flags != 0 {
		return stFlags
	}
	kept, blocks := h.w48, h.w56
	if h.k < 1 || h.k > maxHashes || h.log2 != blockLog2 || blocks < 1 || blocks > maxBlocks {
		return stGeometry
	}
	if h.capacity < 1 || h.capacity > blocks*blockBits || !scalableFPRValid(h.fpr) {
		return stParams
	}
	if len(b) < windowHeadSize {
		return stLength
	}
	w := windowState{
		sliceMicros: int64(le64(b[headerSize:])),
		newest:      int64(le64(b[headerSize+8:])),
		window:      binary.LittleEndian.Uint32(b[headerSize+16:]),
	}
	for _, c := range b[headerSize+20 : windowHeadSize] {
		if c != 0 {
			return stFlags
		}
	}
	if w.sliceMicros < 1 || w.sliceMicros > maxSliceMicros || w.window < 1 || w.window > windowMax {
		return stParams
	}
	if w.newest != windowNoTime && !sliceValid(w.newest, w.sliceMicros) {
		return stParams
	}
	if kept > uint64(w.window)+1 || (kept > 0 && w.newest == windowNoTime) {
		return stGeometry
	}
	// kept is at most 32 from here: no product below overflows
	if kept > maxBlocks/blocks {
		return stLength
	}
	if len(b) > maxBytes || uint64(len(b)) != windowedBitsOffset(kept, blocks, kept) {
		return stLength
	}
	var items uint64
	w.slices = make([]windowSlice, 0, kept)
	for i := uint64(0); i < kept; i++ {
		d := b[windowHeadSize+i*sliceDescSize:]
		s := windowSlice{no: int64(le64(d)), items: le64(d[8:])}
		if s.no < w.newest-int64(w.window) || s.no > w.newest || (i > 0 && s.no <= w.slices[i-1].no) {
			return stGeometry
		}
		items = satAdd(items, s.items)
		w.slices = append(w.slices, s)
	}
	if items != h.items {
		return stCount
	}
	if out != nil {
		*out = w
	}
	return stOK
}

// needWindow: a lookup since a time on a filter that keeps no time (one
// bloom_window did not make) is ErrNotWindowed, as the server's error.
func (f *Filter) needWindow(method string) error {
	if f.window != nil {
		return nil
	}
	return fmt.Errorf("%w: %s needs a windowed bloom filter; the filter is of kind %q, which keeps no time (call %s without a time)",
		ErrNotWindowed, method, f.info.KindName, method[:len(method)-len("Since")])
}

// sinceMicros is t in microseconds from 1970-01-01 00:00 UTC, rounded down
// (floor, before 1970 too: t.Nanosecond() counts up from t.Unix()); false
// past int64.
func sinceMicros(t time.Time) (int64, bool) {
	const perSec = 1000000
	sec, us := t.Unix(), int64(t.Nanosecond()/1000)
	if sec < 0 { // sec + 1 seconds, then us - 1 s: no overflow on the way down to MinInt64
		if sec+1 < math.MinInt64/perSec || (sec+1)*perSec < math.MinInt64+(perSec-us) {
			return 0, false
		}
		return (sec+1)*perSec - (perSec - us), true
	}
	if sec > math.MaxInt64/perSec || sec*perSec > math.MaxInt64-us {
		return 0, false
	}
	return sec*perSec + us, true
}

// firstSince is the first kept slice that ends after since: the one that
// holds since, or a later one (bloom_window_first_since). A time whose
// microseconds or slice the format cannot hold is ErrRange, as the
// server's error.
func (f *Filter) firstSince(since time.Time) (int, error) {
	w := f.window
	t, ok := sinceMicros(since)
	var s int64
	if ok {
		s = floorDiv(t, w.sliceMicros)
		ok = sliceValid(s, w.sliceMicros)
	}
	if !ok {
		return 0, &sinceRangeError{since}
	}
	i := 0
	for i < len(w.slices) && w.slices[i].no < s {
		i++
	}
	return i, nil
}

// sinceRangeError: a time out of the range of a windowed filter's slices.
// It matches ErrRange.
type sinceRangeError struct{ since time.Time }

func (e *sinceRangeError) Error() string {
	return fmt.Sprintf("bloomtype: since %s is out of the range of a windowed bloom filter (slices of finite time)",
		e.since.UTC().Format(time.RFC3339Nano))
}

func (e *sinceRangeError) Unwrap() error { return ErrRange }

// lookupFrom: may kept slices from, from + 1, ... hold h?
func (f *Filter) lookupFrom(h uint64, from int) bool {
	for i := from; i < len(f.layers); i++ {
		if f.layers[i].test(h) {
			return true
		}
	}
	return false
}

// ContainsSince answers whether key may have been added since a time, as
// the server's bloom_contains(f, key, since) does: whether a slice that
// ends after since (a slice whose number is at least floor(since / L),
// since in microseconds from 1970-01-01 UTC, rounded down, and L the slice
// length) may hold key. Keys are those of Contains, and so are the key
// errors. A filter that is not windowed is an error that matches
// ErrNotWindowed; a time outside the range of the filter's slices (past
// int64 microseconds) matches ErrRange. A windowed filter that holds no
// key class yet answers false. Since "-infinity" is Contains; since
// "infinity" is always false.
func (f *Filter) ContainsSince(key any, since time.Time) (bool, error) {
	if err := f.needWindow("ContainsSince"); err != nil {
		return false, err
	}
	k, err := encodeKey(key)
	if err != nil {
		return false, err
	}
	if err := f.checkClass(&k); err != nil || f.probeClass == classNone {
		return false, err
	}
	from, err := f.firstSince(since)
	if err != nil {
		return false, err
	}
	return f.lookupFrom(k.hash(f.hdr.seed), from), nil
}

// ContainsManySince answers ContainsSince for each key, hashing them in
// one call into C. The first key that is refused is the error (and no
// answers).
func (f *Filter) ContainsManySince(keys []any, since time.Time) ([]bool, error) {
	if err := f.needWindow("ContainsManySince"); err != nil {
		return nil, err
	}
	batch, err := f.encodeBatch(keys)
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(keys))
	if f.probeClass == classNone {
		return out, nil
	}
	from, err := f.firstSince(since)
	if err != nil {
		return nil, err
	}
	for i, h := range batch.hashes(f.hdr.seed) {
		out[i] = f.lookupFrom(h, from)
	}
	return out, nil
}

// ContainsHashSince answers ContainsSince for a key whose hash is h, as
// ContainsHash does: keys of any class, no key class check.
func (f *Filter) ContainsHashSince(h uint64, since time.Time) (bool, error) {
	if err := f.needWindow("ContainsHashSince"); err != nil {
		return false, err
	}
	if f.probeClass == classNone {
		return false, nil
	}
	from, err := f.firstSince(since)
	if err != nil {
		return false, err
	}
	return f.lookupFrom(h, from), nil
}
