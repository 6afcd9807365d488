package bloomtype

import (
	"math"
	"math/bits"
)

// The cuckoofilter type (docs/FORMAT.md, "Kind 6: the cuckoo layout";
// src/core/cuckoo_format.c, cuckoo_impl.h, cuckoo.c; its input is
// cf_validate in src/cuckoo/cf_value.c): a cuckoo filter (kind 6, version 3),
// or a hash list cuckoo_agg could have made (kind 2, version 1 or 3).

const (
	cuckooHeadSize = headerSize + 32 // then one 32-byte descriptor per sub-filter
	cuckooDescSize = 32
	cuckooMaxSubs  = 32
	cuckooMinFBits = 8
	cuckooMaxFBits = 56
	ckMulW         = 0xC2B2AE3D27D4EB4F
	ckMulM         = 0xD6E8FEB86659FD93
	ckAddG         = 0x9E3779B97F4A7C15
)

type cuckooSub struct {
	buckets, capacity, items uint64
	fbits                    int
	log2e                    int    // L_i = i x log2(expansion)
	slots                    []byte // its slot area
}

type cuckooTable struct {
	b                        uint64 // slots per bucket
	maxKicks                 int
	expansion                int
	n0                       uint64
	deletes, absorbed, stuck uint64
	subs                     []cuckooSub
}

func validBucketSize(b uint64) bool { return b == 2 || b == 4 || b == 8 }

// validExpansion: 0 (fixed), or a power of two up to 16: sub-filters nest.
func validExpansion(e int) bool { return e == 0 || (e >= 1 && e <= 16 && e&(e-1) == 0) }

func log2u(e int) int {
	l := 0
	for 1<<l < e {
		l++
	}
	return l
}

// areaSize: ceil(buckets x b x f / 64) x 8 + 8 bytes (cuckoo_area_size).
func areaSize(buckets, b uint64, fbits int) uint64 {
	n := buckets * b * uint64(fbits)
	return (n+63)/64*8 + 8
}

// validateCuckoo checks b as the cuckoofilter input does (cf_validate).
func validateCuckoo(b []byte) (header, *cuckooTable, status) {
	h, st := decodeCommon(b)
	if st != stOK {
		return h, nil, st
	}
	if st = h.checkCommon(); st != stOK {
		return h, nil, st
	}
	if h.kind == kindHashList {
		return h, nil, validateCuckooHashList(b, &h)
	}
	if h.kind != kindCuckoo {
		if h.kind >= kindBlocked && h.kind <= kindWindowed {
			return h, nil, stOtherType
		}
		return h, nil, stKind
	}
	t, st := decodeCuckoo(b, &h)
	if st == stOK {
		st = cuckooDeep(&h, t)
	}
	return h, t, st
}

// validateCuckooHashList: a hash list of version 1, or of version 3 with a
// capacity of at least 1 (bloom_decode_hashlist_any), at a rate a growing
// filter takes (cf_decode), and in version 3 a capacity a filter of
// buckets of 4 and expansion 2 takes at that rate (cf_validate).
func validateCuckooHashList(b []byte, h *header) status {
	var st status
	switch h.version {
	case 1:
		st = decodeHashList(b, h)
	case 3:
		if h.capacity < 1 {
			return stParams
		}
		v := *h
		v.version, v.capacity = 1, 0
		st = decodeHashList(b, &v)
	default:
		return stVersion
	}
	if st == stOK && h.fpr < minScalableFPR {
		st = stParams
	}
	if st == stOK && h.capacity > 0 && h.capacity > cuckooMaxCapacity(h.fpr, 4, 2) {
		st = stParams
	}
	return st
}

// decodeCuckoo: every field in range, the sub-filters nested, the counts
// and the length, before any slot is read (cuckoo_decode).
func decodeCuckoo(b []byte, h *header) (*cuckooTable, status) {
	if h.version != 3 {
		return nil, stVersion
	}
	if h.flags != 0 || h.w56>>24 != 0 {
		return nil, stFlags
	}
	t := &cuckooTable{b: uint64(h.k), maxKicks: int(h.w56 & 0xFFFF), expansion: int(h.w56 >> 16 & 0xFF)}
	nsubs := h.w48
	maxSubs := uint64(1)
	if t.expansion != 0 {
		maxSubs = cuckooMaxSubs
	}
	if !validBucketSize(t.b) || h.log2 != 0 || t.maxKicks < 1 || !validExpansion(t.expansion) ||
		nsubs < 1 || nsubs > maxSubs {
		return nil, stGeometry
	}
	minRate := minFPR
	if t.expansion != 0 {
		minRate = minScalableFPR
	}
	if h.capacity < 1 || !(h.fpr >= minRate) || !(h.fpr <= maxFPR) {
		return nil, stParams
	}
	log2e := 0
	if t.expansion != 0 {
		log2e = log2u(t.expansion)
	}
	size := uint64(cuckooHeadSize + nsubs*cuckooDescSize)
	if uint64(len(b)) < size {
		return nil, stLength
	}
	t.deletes, t.absorbed, t.stuck = le64(b[64:]), le64(b[72:]), le64(b[80:])
	if le64(b[88:]) != 0 {
		return nil, stFlags
	}
	t.n0 = le64(b[cuckooHeadSize:])
	var items uint64
	for i := uint64(0); i < nsubs; i++ {
		d := b[cuckooHeadSize+i*cuckooDescSize:]
		l2 := int(i) * log2e
		if l2 > 40 { // later sub-filters are e^i times larger: the exponent stays small
			return nil, stGeometry
		}
		s := cuckooSub{buckets: le64(d), capacity: le64(d[8:]), items: le64(d[16:]), fbits: int(d[24]), log2e: l2}
		if le64(d[24:])>>8 != 0 || s.fbits < cuckooMinFBits || s.fbits > cuckooMaxFBits ||
			(i > 0 && s.fbits < t.subs[i-1].fbits) {
			return nil, stGeometry
		}
		// no more slots than 512 MB hold, so that no size below wraps
		if t.n0 < 1 || t.n0 > maxBytes*8/(t.b*cuckooMinFBits) || s.buckets != t.n0<<l2 ||
			s.buckets > maxBytes*8/(t.b*uint64(s.fbits)) {
			return nil, stGeometry
		}
		if s.capacity != h.capacity<<l2 || s.capacity>>l2 != h.capacity {
			return nil, stParams
		}
		if s.items > s.buckets*t.b {
			return nil, stCount
		}
		items += s.items
		size += areaSize(s.buckets, t.b, s.fbits)
		if size > maxBytes {
			return nil, stLength
		}
		t.subs = append(t.subs, s)
	}
	if items != h.items {
		return nil, stCount
	}
	if uint64(len(b)) != size {
		return nil, stLength
	}
	// the slot areas, oldest sub-filter first, after the descriptors (ck_bind)
	off := uint64(cuckooHeadSize + nsubs*cuckooDescSize)
	for i := range t.subs {
		area := areaSize(t.subs[i].buckets, t.b, t.subs[i].fbits)
		t.subs[i].slots = b[off : off+area : off+area]
		off += area
	}
	return t, stOK
}

// cuckooDeep: the geometry is the plan's (n0 and every sub-filter's
// fingerprint bits), each sub-filter holds as many fingerprints as its
// count says, and every bit after its last slot is zero (cuckoo_validate_deep).
func cuckooDeep(h *header, t *cuckooTable) status {
	n0, fbits, st := cuckooPlan(h.capacity, h.fpr, t.b, t.expansion, len(t.subs))
	if st != stOK {
		return stParams
	}
	if n0 != t.n0 {
		return stGeometry
	}
	for i := range t.subs {
		if t.subs[i].fbits != fbits[i] {
			return stGeometry
		}
	}
	for i := range t.subs {
		s := &t.subs[i]
		nslots := s.buckets * t.b
		var n uint64
		for j := uint64(0); j < nslots; j++ {
			if s.slot(j) != 0 {
				n++
			}
		}
		if n != s.items {
			return stContent
		}
		used := nslots * uint64(s.fbits)
		if used&7 != 0 && s.slots[used>>3]>>(used&7) != 0 {
			return stFlags
		}
		for k := (used + 7) >> 3; k < uint64(len(s.slots)); k++ {
			if s.slots[k] != 0 {
				return stFlags
			}
		}
	}
	return stOK
}

// targetLoad is the load a sub-filter is sized for, by bucket size.
func targetLoad(b uint64) float64 {
	switch b {
	case 2:
		return 0.80
	case 4:
		return 0.90
	}
	return 0.93
}

// fbitsFor: the fewest bits f from 8 up with 2b / (2^f - 1) <= rate (57: none).
func fbitsFor(rate float64, b uint64) int {
	f := cuckooMinFBits
	for f <= cuckooMaxFBits && float64(2.0*float64(b))/float64(math.Ldexp(1, f)-1.0) > rate {
		f++
	}
	return f
}

// cuckooPlan is the plan of the first n sub-filters (plan_subs in
// src/core/cuckoo_format.c; docs/FORMAT.md, "The plan"): n0, the first
// sub-filter's buckets, ceil((C + 4 sqrt C) / (b x load)), and each
// sub-filter's fingerprint bits for its rate. Every product and sum is
// rounded to double on its own, as the C code does (no fused multiply-add).
func cuckooPlan(capacity uint64, fpr float64, b uint64, expansion int, n int) (uint64, []int, status) {
	minRate := minFPR
	if expansion != 0 {
		minRate = minScalableFPR
	}
	if capacity < 1 || !validBucketSize(b) || !validExpansion(expansion) || !(fpr >= minRate) || !(fpr <= maxFPR) {
		return 0, nil, stParams
	}
	fbits := make([]int, n)
	for i := 0; i < n; i++ {
		rate := fpr
		if expansion != 0 {
			rate = layerFPR(fpr, i)
		}
		if fbits[i] = fbitsFor(rate, b); fbits[i] > cuckooMaxFBits {
			return 0, nil, stParams
		}
	}
	c := float64(capacity)
	n0 := math.Ceil(float64(c+float64(4.0*math.Sqrt(c))) / float64(float64(b)*targetLoad(b)))
	f0 := 0
	if n > 0 {
		f0 = fbits[0]
	}
	bytes := float64(float64(float64(n0*float64(b))*float64(f0)) / 8.0)
	if bytes+cuckooHeadSize+cuckooDescSize+16 > maxBytes {
		return 0, nil, stCapacity
	}
	return uint64(n0), fbits, stOK
}

// cuckooMaxCapacity: the largest capacity that plans at these parameters,
// 0 when none does (cuckoo_max_capacity).
func cuckooMaxCapacity(fpr float64, b uint64, expansion int) uint64 {
	subs := 1
	if expansion != 0 {
		subs = cuckooMaxSubs
	}
	_, fbits, st := cuckooPlan(1, fpr, b, expansion, subs)
	if st != stOK {
		return 0
	}
	slots := float64(float64(maxBytes-cuckooHeadSize-cuckooDescSize-16)*8.0) / float64(fbits[0])
	capacity := uint64(float64(float64(math.Floor(slots/float64(b))*float64(b)) * targetLoad(b)))
	for capacity > 1 {
		if _, _, st := cuckooPlan(capacity, fpr, b, expansion, subs); st == stOK {
			break
		}
		capacity -= capacity/1000 + 1
	}
	return capacity
}

// slot j of the area (bucket j / b, slot j mod b): f bits at bit j x f,
// packed little-endian; read with one 8-byte load, which the final zero
// word keeps in bounds.
func (s *cuckooSub) slot(j uint64) uint64 {
	bit := j * uint64(s.fbits)
	return le64(s.slots[bit>>3:]) >> (bit & 7) & (1<<s.fbits - 1)
}

// mix is MurmurHash3's fmix64 finaliser (ck_mix).
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xFF51AFD7ED558CCD
	x ^= x >> 33
	x *= 0xC4CEB9FE1A85EC53
	x ^= x >> 33
	return x
}

// fingerprint: u mod 2^f, or 1 when that is 0 (0 marks an empty slot).
func fingerprint(u uint64, f int) uint64 {
	if v := u & (1<<f - 1); v != 0 {
		return v
	}
	return 1
}

// top: w >> (64 - l), 0 when l = 0.
func top(w uint64, l int) uint64 {
	if l == 0 {
		return 0
	}
	return w >> (64 - l)
}

func mulhi(a, b uint64) uint64 {
	hi, _ := bits.Mul64(a, b)
	return hi
}

// inBucket: does bucket B hold v?
func (t *cuckooTable) inBucket(s *cuckooSub, B, v uint64) bool {
	for j := uint64(0); j < t.b; j++ {
		if s.slot(B*t.b+j) == v {
			return true
		}
	}
	return false
}

// contains: in some sub-filter i, bucket B1 or alt(B1, v_i) holds v_i
// (docs/FORMAT.md, "Hashing"; cuckoo_contains).
func (t *cuckooTable) contains(h uint64) bool {
	u := mix(h)
	q := mulhi(h, t.n0)
	w := h * ckMulW
	f0 := t.subs[0].fbits
	for i := range t.subs {
		s := &t.subs[i]
		v := fingerprint(u, s.fbits)
		L := s.log2e
		B1 := q<<L | top(w, L)
		if t.inBucket(s, B1, v) {
			return true
		}
		// alt(B1, v): from v's sub-filter-0 form
		g := mix(fingerprint(v, f0) + ckAddG)
		c := mulhi(g, t.n0)
		qb := B1 >> L
		qa := c + t.n0 - qb
		if c >= qb {
			qa = c - qb
		}
		B2 := qa<<L | ((B1 & (1<<L - 1)) ^ top(g*ckMulM, L))
		if B2 != B1 && t.inBucket(s, B2, v) {
			return true
		}
	}
	return false
}
