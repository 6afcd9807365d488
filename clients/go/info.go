package bloomtype

import "time"

// Info is what a value holds: its header as stored (docs/FORMAT.md) and its
// kind's fields. Fields that a kind does not have are zero.
type Info struct {
	Type      string  // the SQL type that read it
	Version   int     // format version, 1 to 5
	Kind      int     // 1 to 9
	KindName  string  // "blocked", "hash list", "buffered", "scalable", "counting", "cuckoo", "light state", "light counting state", "windowed"
	KeyClass  string  // "none", "integer", "text", "bytea", "uuid", "float", "other"
	KeyTypeID uint32  // class "other": the type's OID (top bit set: a user-defined type's tag)
	Seed      uint64  // the hash seed
	Capacity  uint64  // kinds 1, 3, 5, 7, 8: the capacity; 4, 6: the first layer's or sub-filter's; 9: a slice's; 2: 0, or (version 3) the capacity of the filter it will become
	FPR       float64 // the target false-positive rate (kind 9: over every slice it may keep)
	Items     uint64  // items added, as the header counts them (kind 9: in the kept slices)
	Size      int     // bytes
	Flags     uint16  // 1: fixed, refuses keys past its capacity (kind 1); 2: planned as a scalable filter's first layer (kinds 3, 7)

	K      int    // hashes per key (kinds 1, 3, 5, 7, 8, 9)
	Blocks uint64 // 64-byte blocks (kinds 1, 3, 5; kinds 7, 8: of the filter it stands for; kind 9: of each slice)

	Slots   uint64 // hash slots (kinds 2, 7, 8)
	Hashes  uint64 // hashes in use (kinds 2, 7, 8)
	Pending uint64 // pending hashes (kind 3)

	Layers    []LayerInfo // kind 4, oldest first
	Expansion int         // kinds 4, 6 (0: a fixed cuckoo filter)

	Removes uint64 // kind 5: removes of keys that were maybe present

	BucketSize int             // kind 6: slots per bucket
	MaxKicks   int             // kind 6
	SubFilters []SubFilterInfo // kind 6, oldest first
	Deletes    uint64          // kind 6: removes that took a copy
	Absorbed   uint64          // kind 6: adds not stored (the key's class held the most copies)
	Stuck      uint64          // kind 6: removes of a maybe-present key that kept the copy

	SliceMicros int64       // kind 9: the length of a slice, in microseconds
	Window      int         // kind 9: the slices it keeps before the newest (window + 1 at most in all)
	NewestSlice int64       // kind 9: the number of the newest slice it has seen; math.MinInt64 before any time
	Slices      []SliceInfo // kind 9: the kept slices, oldest first
}

// LayerInfo is one layer of a scalable filter.
type LayerInfo struct {
	Blocks, Capacity, Items uint64
	K                       int
}

// SliceInfo is one kept slice of a windowed filter: slice Number covers
// [Start, End), Number x SliceMicros to (Number + 1) x SliceMicros
// microseconds from 1970-01-01 00:00 UTC.
type SliceInfo struct {
	Number     int64
	Start, End time.Time // in UTC
	Items      uint64    // keys added to it that set a new bit
}

// SubFilterInfo is one sub-filter of a cuckoo filter.
type SubFilterInfo struct {
	Buckets, Capacity, Items uint64
	FingerprintBits          int
}

var kindNames = map[uint8]string{
	kindBlocked: "blocked", kindHashList: "hash list", kindBuffered: "buffered", kindScalable: "scalable",
	kindCounting: "counting", kindCuckoo: "cuckoo", kindLight: "light state", kindLightCounting: "light counting state",
	kindWindowed: "windowed",
}

func (f *Filter) describe() Info {
	h := &f.hdr
	info := Info{
		Type: f.typ, Version: int(h.version), Kind: int(h.kind), KindName: kindNames[h.kind],
		KeyClass: classNames[h.class], KeyTypeID: h.keyType, Seed: h.seed, Capacity: h.capacity,
		FPR: h.fpr, Items: h.items, Size: len(f.raw), Flags: h.flags,
	}
	switch h.kind {
	case kindBlocked, kindCounting:
		info.K, info.Blocks = int(h.k), h.w48
		if h.kind == kindCounting {
			info.Removes = h.w56
		}
	case kindBuffered:
		info.K, info.Blocks, info.Pending = int(h.k), h.w48, h.w56
	case kindHashList:
		info.Slots, info.Hashes = h.w48, h.w56
	case kindLight, kindLightCounting:
		info.K, info.Blocks, info.Hashes = int(h.k), h.w48, h.w56
		info.Slots = uint64(len(f.raw)-headerSize) / 8
	case kindScalable:
		info.Expansion = int(h.w56)
		for _, l := range f.scalable {
			info.Layers = append(info.Layers, LayerInfo{Blocks: l.blocks, Capacity: l.capacity, Items: l.items, K: l.k})
		}
	case kindWindowed:
		w := f.window
		info.K, info.Blocks = int(h.k), h.w56
		info.SliceMicros, info.Window, info.NewestSlice = w.sliceMicros, int(w.window), w.newest
		for _, s := range w.slices {
			// a kept slice's start and end fit in int64 microseconds (sliceValid)
			info.Slices = append(info.Slices, SliceInfo{Number: s.no, Items: s.items,
				Start: time.UnixMicro(s.no * w.sliceMicros).UTC(), End: time.UnixMicro((s.no + 1) * w.sliceMicros).UTC()})
		}
	case kindCuckoo:
		t := f.cuckoo
		info.BucketSize, info.MaxKicks, info.Expansion = int(t.b), t.maxKicks, t.expansion
		info.Deletes, info.Absorbed, info.Stuck = t.deletes, t.absorbed, t.stuck
		for _, s := range t.subs {
			info.SubFilters = append(info.SubFilters, SubFilterInfo{Buckets: s.buckets, Capacity: s.capacity,
				Items: s.items, FingerprintBits: s.fbits})
		}
	}
	return info
}
