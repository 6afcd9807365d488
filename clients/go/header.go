package bloomtype

import (
	"encoding/binary"
	"math"
)

// The format's constants (docs/FORMAT.md; src/core/format.h and the kinds' headers).
const (
	headerSize = 64
	maxBytes   = 0x1FFFFC00 // 536,869,888: BLOOM_MAX_BYTES

	kindBlocked        = 1
	kindHashList       = 2
	kindBuffered       = 3
	kindScalable       = 4
	kindCounting       = 5
	kindCuckoo         = 6
	kindLight          = 7 // light state of bloom_agg (version 4)
	kindLightCounting  = 8 // light state of counting_agg (version 4)
	kindWindowed       = 9 // windowed filter (version 5)
	flagNonScaling     = 0x0001
	flagScalableState  = 0x0002
	hashXXH3           = 1
	blockLog2          = 9
	blockBits          = 512
	blockBytes         = 64
	maxHashes          = 32
	maxLayers          = 32
	layerDescSize      = 32
	pendingSlots       = 256
	maxExpansion       = 16
	minFPR             = 1e-12
	minScalableFPR     = 1e-9
	maxFPR             = 0.5
	maxBlocks          = (maxBytes - headerSize) / blockBytes                  // 8,388,591
	maxBufferedBlocks  = (maxBytes - headerSize - pendingSlots*8) / blockBytes // 8,388,559
	maxSlots           = (maxBytes - headerSize) / 8                           // 67,108,728
	countingPlaneBytes = 256
	countingBlockBytes = blockBytes + countingPlaneBytes
	countingMaxBlocks  = (maxBytes - headerSize) / countingBlockBytes // 1,677,718
	probeMul           = 0x9E3779B97F4A7C15
)

// header is the common 64-byte header, decoded as stored (docs/FORMAT.md,
// the table at the top; src/core/format.c, decode_common).
type header struct {
	version  uint8
	kind     uint8
	hash     uint8
	class    uint8
	keyType  uint32
	k        uint8
	log2     uint8
	flags    uint16
	seed     uint64
	capacity uint64
	fpr      float64
	items    uint64
	w48      uint64 // blocks, slots, layers, sub-filters or kept slices, by kind
	w56      uint64 // reserved, hashes in use, pending, expansion, removes, kicks and expansion, or a slice's blocks
}

func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// readHeader reads the header; the caller has checked the length.
func readHeader(b []byte) header {
	return header{
		version:  b[4],
		kind:     b[5],
		hash:     b[6],
		class:    b[7],
		keyType:  binary.LittleEndian.Uint32(b[8:]),
		k:        b[12],
		log2:     b[13],
		flags:    binary.LittleEndian.Uint16(b[14:]),
		seed:     le64(b[16:]),
		capacity: le64(b[24:]),
		fpr:      math.Float64frombits(le64(b[32:])),
		items:    le64(b[40:]),
		w48:      le64(b[48:]),
		w56:      le64(b[56:]),
	}
}

// decodeCommon: a header's length and magic (decode_common).
func decodeCommon(b []byte) (header, status) {
	if len(b) < headerSize {
		return header{}, stShort
	}
	if b[0] != 'B' || b[1] != 'L' || b[2] != 'M' || b[3] != 'F' {
		return header{}, stMagic
	}
	return readHeader(b), stOK
}

// checkCommon: the hash algorithm and the key class (check_common).
func (h *header) checkCommon() status {
	if h.hash != hashXXH3 {
		return stHash
	}
	if h.class > classOther || (h.class == classOther) != (h.keyType != 0) {
		return stKeyClass
	}
	return stOK
}

// fprValid: 1e-12 <= rate <= 0.5, false for NaN (bloom_fpr_valid).
func fprValid(p float64) bool { return p >= minFPR && p <= maxFPR }

// scalableFPRValid: a rate a scalable filter (or a growing cuckoo filter) takes.
func scalableFPRValid(p float64) bool { return fprValid(p) && p >= minScalableFPR }

// validateRateGeometry: bloom_validate_rate_geometry (src/core/blocked.h).
func (h *header) validateRateGeometry() status {
	if !fprValid(h.fpr) || (h.flags&flagScalableState != 0 && h.fpr < minScalableFPR) {
		return stParams
	}
	if h.k < 1 || h.k > maxHashes || h.log2 != blockLog2 || h.w48 < 1 || h.w48 > maxBlocks {
		return stGeometry
	}
	return stOK
}

// validateBits: bloom_validate_bits, for kinds 1 and 3: no flags in
// version 1, exactly v2flag in version 2, then rate and geometry.
func (h *header) validateBits(v2flag uint16) status {
	want := v2flag
	if h.version == 1 {
		want = 0
	}
	if h.flags != want {
		return stFlags
	}
	return h.validateRateGeometry()
}

// validateFill: bloom_validate_fill: the capacity the blocks hold, and the length.
func (h *header) validateFill(n int, size uint64) status {
	if h.capacity < 1 || h.capacity > h.w48*blockBits {
		return stParams
	}
	if uint64(n) != size {
		return stLength
	}
	return stOK
}

// scheduleNorm is H, the sum of j^-1.5 for j = 32 down to 1, in that
// order, with sqrt only (src/core/sizing.c, schedule_norm): every IEEE
// 754 machine gets the same value. Each term is converted explicitly so
// that no platform fuses a multiply and an add.
func scheduleNorm() float64 {
	h := 0.0
	for j := maxLayers; j >= 1; j-- {
		d := float64(j)
		h += float64(1.0 / float64(d*math.Sqrt(d)))
	}
	return h
}

var layerNorm = scheduleNorm()

// layerFPR is bloom_layer_fpr(target, layer): target / (j sqrt j) / H, j = layer + 1.
func layerFPR(target float64, layer int) float64 {
	j := float64(layer + 1)
	return float64(target/float64(j*math.Sqrt(j))) / layerNorm
}
