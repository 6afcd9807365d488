package bloomtype

// What the countingbloom type's input accepts (cb_validate in
// src/counting/cb_value.c): a counting filter (kind 5, version 3;
// counting_decode and counting_validate_deep in src/core/counting.c), its
// light aggregate state (kind 8, version 4; counting_sparse_decode in
// src/core/counting_light.c), or a hash list as bloomfilter reads it (kind
// 2, version 1). docs/FORMAT.md, "Kind 5: the counting layout".

func validateCounting(b []byte) (header, status) {
	h, st := decodeCommon(b)
	if st != stOK {
		return h, st
	}
	if st = h.checkCommon(); st != stOK {
		return h, st
	}
	switch h.kind {
	case kindCounting:
		if h.version != 3 {
			return h, stVersion
		}
		if st = h.checkCountingFields(); st != stOK {
			return h, st
		}
		if uint64(len(b)) != headerSize+h.w48*countingBlockBytes {
			return h, stLength
		}
		return h, countingDeep(b, &h)
	case kindHashList:
		return validateBloom(b)
	case kindLightCounting:
		if h.version != 4 {
			return h, stVersion
		}
		if st = h.checkCountingFields(); st != stOK {
			return h, st
		}
		// at most the counting filter's data size over 8: 40 x blocks
		return h, lightSlots(b, &h, h.w48*countingBlockBytes/8)
	}
	if h.kind >= kindBlocked && h.kind <= kindWindowed {
		return h, stOtherType
	}
	return h, stKind
}

// checkCountingFields: no flags, the rate, k and blocks, the capacity the
// blocks hold (counting_check_fields).
func (h *header) checkCountingFields() status {
	if h.flags != 0 {
		return stFlags
	}
	if !fprValid(h.fpr) {
		return stParams
	}
	if h.k < 1 || h.k > maxHashes || h.log2 != blockLog2 || h.w48 < 1 || h.w48 > countingMaxBlocks {
		return stGeometry
	}
	if h.capacity < 1 || h.capacity > h.w48*blockBits {
		return stParams
	}
	return stOK
}

// countingDeep: every presence bit is set exactly when its 4-bit counter
// is not zero (counting_validate_deep). Counter j of block b is the nibble
// at byte 64 + 64 x blocks + 256 x b + j / 2, the low nibble for even j.
func countingDeep(b []byte, h *header) status {
	n := h.w48
	pres := b[headerSize : headerSize+n*blockBytes]
	ctr := b[headerSize+n*blockBytes:]
	for i := uint64(0); i < n*blockBytes; i++ {
		c := ctr[4*i : 4*i+4] // the 8 counters of presence byte i: 256 b + (i mod 64) x 4 = 4 i
		var want byte
		for j := 0; j < 4; j++ {
			if c[j]&0x0F != 0 {
				want |= 1 << (2 * j)
			}
			if c[j]&0xF0 != 0 {
				want |= 1 << (2*j + 1)
			}
		}
		if pres[i] != want {
			return stContent
		}
	}
	return stOK
}

// buildCounting makes the lookup of a valid countingbloom value: the
// presence plane of a kind 5 filter; a kind 8 state's presence plane of
// the header's geometry with its listed hashes' bits set; an empty hash
// list answers absent.
func buildCounting(f *Filter) {
	b, h := f.raw, &f.hdr
	switch h.kind {
	case kindCounting:
		f.layers = []blockedBits{{data: b[headerSize : headerSize+h.w48*blockBytes], nblocks: h.w48, k: int(h.k)}}
	case kindLightCounting:
		f.setLight(bitsOfHashes(b[headerSize:], h.w56, h.w48, int(h.k)))
	case kindHashList:
		// empty: the server reads it as a new filter of the list's key
		// class (cb_materialize), so every key of it is absent and a key of
		// another class is refused (probeClass stays the header's)
	}
}
