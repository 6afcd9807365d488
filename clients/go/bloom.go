package bloomtype

// What the bloomfilter type's input accepts: bloom_decode (src/core/kinds.c,
// format.c) and the decoders of kinds 1 (src/core/blocked.c), 2
// (src/core/hashlist.c), 3 (src/core/aggstate.c), 4 (src/core/scalable.c),
// 7 (src/core/sparse.c) and 9 (src/core/windowed.c, in windowed.go),
// in the server's order of checks, so that a refused value gets the
// server's reason. docs/FORMAT.md describes the fields.

// validateBloom checks b as the bloomfilter input does (bf_validate).
func validateBloom(b []byte) (header, status) {
	h, st := decodeCommon(b)
	if st != stOK {
		return h, st
	}
	// a counting or cuckoo filter is not a bloomfilter; version 4 has kind 7
	// (and kind 8, countingbloom's) alone, version 5 kind 9 alone
	if h.version == 3 && (h.kind == kindCounting || h.kind == kindCuckoo) {
		return h, stOtherType
	}
	if h.version == 4 && h.kind == kindLightCounting {
		return h, stOtherType
	}
	switch {
	case h.version == 4:
		if h.kind != kindLight {
			return h, stKind
		}
	case h.version == 5:
		if h.kind != kindWindowed {
			return h, stKind
		}
	case h.version != 1 && h.version != 2:
		return h, stVersion
	case h.kind == kindLight || h.kind == kindWindowed:
		return h, stKind
	}
	if h.kind < kindBlocked || (h.kind > kindScalable && h.kind != kindLight && h.kind != kindWindowed) {
		return h, stKind
	}
	if st = h.checkCommon(); st != stOK {
		return h, st
	}
	switch h.kind {
	case kindBlocked:
		st = decodeBlocked(b, &h)
	case kindHashList:
		st = decodeHashList(b, &h)
	case kindBuffered:
		st = decodeBuffered(b, &h)
	case kindScalable:
		st = decodeScalable(b, &h, nil)
	case kindLight:
		st = decodeLight(b, &h)
	case kindWindowed:
		st = decodeWindowed(b, &h, nil)
	}
	return h, st
}

// decodeBlocked: kind 1, version 1 without flags or version 2 with
// NONSCALING; the reserved word zero (blocked_decode).
func decodeBlocked(b []byte, h *header) status {
	if st := h.validateBits(flagNonScaling); st != stOK {
		return st
	}
	if h.w56 != 0 {
		return stFlags
	}
	return h.validateFill(len(b), headerSize+h.w48*blockBytes)
}

// decodeHashList: kind 2, version 1 only, no flags, no bits (hashlist_decode).
func decodeHashList(b []byte, h *header) status {
	if h.version != 1 || h.flags != 0 {
		return stFlags
	}
	if !fprValid(h.fpr) {
		return stParams
	}
	if h.k != 0 || h.log2 != 0 || h.w48 > maxSlots {
		return stGeometry
	}
	if h.capacity != 0 {
		return stParams
	}
	if h.w56 > h.w48 || h.items < h.w56 {
		return stCount
	}
	if uint64(len(b)) != headerSize+8*h.w48 {
		return stLength
	}
	return stOK
}

// decodeBuffered: kind 3, version 1 without flags or version 2 with
// SCALABLE_STATE; at most 256 pending hashes (buffered_decode).
func decodeBuffered(b []byte, h *header) status {
	if st := h.validateBits(flagScalableState); st != stOK {
		return st
	}
	if h.w48 > maxBufferedBlocks {
		return stGeometry
	}
	if h.w56 > pendingSlots || h.items < h.w56 {
		return stCount
	}
	return h.validateFill(len(b), headerSize+h.w48*blockBytes+pendingSlots*8)
}

// scalableLayer is one layer's descriptor (docs/FORMAT.md, "Scalable filters (kind 4)").
type scalableLayer struct {
	blocks, capacity, items uint64
	k                       int
	offset                  uint64 // of its bits in the value
}

// decodeScalable: kind 4, version 2, no flags; the layers' descriptors
// (each capacity the one before times the expansion, blocks at most the
// largest value's), their items' sum and the length (scalable_decode).
// The layers are appended to out when it is not nil.
func decodeScalable(b []byte, h *header, out *[]scalableLayer) status {
	if h.version == 1 {
		return stKind
	}
	if h.flags != 0 {
		return stFlags
	}
	nlayers := h.w48
	if h.k != 0 || h.log2 != blockLog2 || nlayers < 1 || nlayers > maxLayers {
		return stGeometry
	}
	exp := h.w56
	if exp < 1 || exp > maxExpansion || h.capacity < 1 || !scalableFPRValid(h.fpr) {
		return stParams
	}
	if uint64(len(b)) < headerSize+nlayers*layerDescSize {
		return stLength
	}
	var total, items, prev uint64
	layers := make([]scalableLayer, 0, nlayers)
	for i := uint64(0); i < nlayers; i++ {
		d := b[headerSize+i*layerDescSize:]
		l := scalableLayer{blocks: le64(d), capacity: le64(d[8:]), items: le64(d[16:]), k: int(d[24])}
		if l.k < 1 || l.k > maxHashes || l.blocks < 1 || l.blocks > maxBlocks-total {
			return stGeometry
		}
		for j := 25; j < layerDescSize; j++ {
			if d[j] != 0 {
				return stFlags
			}
		}
		expect := h.capacity
		if i > 0 {
			if prev > ^uint64(0)/exp {
				return stParams
			}
			expect = prev * exp
		}
		if l.capacity != expect || l.capacity > l.blocks*blockBits {
			return stParams
		}
		prev = l.capacity
		l.offset = headerSize + nlayers*layerDescSize + total*blockBytes
		total += l.blocks
		items = satAdd(items, l.items)
		layers = append(layers, l)
	}
	if items != h.items {
		return stCount
	}
	if len(b) > maxBytes || uint64(len(b)) != headerSize+nlayers*layerDescSize+total*blockBytes {
		return stLength
	}
	if out != nil {
		*out = layers
	}
	return stOK
}

// decodeLight: kind 7, version 4: kind 3's fields, checked as kind 3
// checks them (flags 0 or SCALABLE_STATE in this version), then whole
// hash slots, at most the limit 8 x blocks + 256, the hashes in use among
// them and counted as rows (sparse_decode).
func decodeLight(b []byte, h *header) status {
	if h.flags != 0 && h.flags != flagScalableState {
		return stFlags
	}
	if st := h.validateRateGeometry(); st != stOK {
		return st
	}
	if h.w48 > maxBufferedBlocks {
		return stGeometry
	}
	if h.capacity < 1 || h.capacity > h.w48*blockBits {
		return stParams
	}
	return lightSlots(b, h, 8*h.w48+pendingSlots)
}

// lightSlots: the hash slots of a light state (kinds 7 and 8), at most limit.
func lightSlots(b []byte, h *header, limit uint64) status {
	rest := uint64(len(b) - headerSize)
	if rest%8 != 0 || rest/8 > limit {
		return stLength
	}
	if h.w56 > rest/8 || h.items < h.w56 {
		return stCount
	}
	return stOK
}

// satAdd adds without wrapping (bloom_sat_add).
func satAdd(a, b uint64) uint64 {
	if a > ^uint64(0)-b {
		return ^uint64(0)
	}
	return a + b
}

// buildBloom makes the lookup of a valid bloomfilter value (docs/FORMAT.md:
// aggregate states answer as the filters they stand for).
func buildBloom(f *Filter) {
	b, h := f.raw, &f.hdr
	switch h.kind {
	case kindBlocked:
		f.layers = []blockedBits{{data: b[headerSize:], nblocks: h.w48, k: int(h.k)}}
	case kindHashList:
		// empty (a list with hashes is refused): absent for every key; the
		// header's key class still holds, as the filter it stands for has it
	case kindBuffered:
		// its bits with the pending hashes set (bloom_flush_pending)
		n := h.w48 * blockBytes
		bits := &blockedBits{data: append([]byte(nil), b[headerSize:headerSize+n]...), nblocks: h.w48, k: int(h.k)}
		pending := b[headerSize+n:]
		for i := uint64(0); i < h.w56; i++ {
			bits.insert(le64(pending[8*i:]))
		}
		f.layers = []blockedBits{*bits}
	case kindScalable:
		var layers []scalableLayer
		decodeScalable(b, h, &layers)
		f.scalable = layers
		for _, l := range layers {
			f.layers = append(f.layers, blockedBits{
				data: b[l.offset : l.offset+l.blocks*blockBytes], nblocks: l.blocks, k: l.k})
		}
	case kindLight:
		// the kind 3 state of its geometry with every listed hash's bits set
		f.setLight(bitsOfHashes(b[headerSize:], h.w56, h.w48, int(h.k)))
	case kindWindowed:
		// a layer a kept slice, oldest first
		w := new(windowState)
		decodeWindowed(b, h, w)
		f.window = w
		for i := range w.slices {
			off := windowedBitsOffset(uint64(len(w.slices)), h.w56, uint64(i))
			f.layers = append(f.layers, blockedBits{data: b[off : off+h.w56*blockBytes], nblocks: h.w56, k: int(h.k)})
		}
	}
}
