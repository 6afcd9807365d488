package bloomtype

import "math/bits"

// The blocked layout (docs/FORMAT.md, "Where a key's bits go (kind 1)";
// src/core/blocked.h): a key's k bits lie in one 64-byte block,
//
//	block = (h * n) >> 64                      -- 128-bit product, high half
//	x = h
//	repeat k times:
//	    x = x * 0x9E3779B97F4A7C15 mod 2^64
//	    bit = x >> 55                          -- 0..511 within the block
//	    byte (64 * block + bit / 8), bit (bit mod 8) is set
//
// Kinds 1 and 3, each layer of kind 4, and the presence plane of kind 5
// use it; the light states (kinds 7 and 8) stand for such bits.

// blockedBits is n blocks of bits with k hashes per key.
type blockedBits struct {
	data    []byte // nblocks * 64 bytes
	nblocks uint64
	k       int
}

func blockOf(h, nblocks uint64) uint64 {
	hi, _ := bits.Mul64(h, nblocks)
	return hi
}

// blockTest: are h's k bits set in the block?
func blockTest(blk *[blockBytes]byte, k int, h uint64) bool {
	x := h
	for i := 0; i < k; i++ {
		x *= probeMul
		bit := x >> (64 - blockLog2)
		if blk[bit>>3]>>(bit&7)&1 == 0 {
			return false
		}
	}
	return true
}

// blockSet sets h's k bits in the block.
func blockSet(blk *[blockBytes]byte, k int, h uint64) {
	x := h
	for i := 0; i < k; i++ {
		x *= probeMul
		bit := x >> (64 - blockLog2)
		blk[bit>>3] |= 1 << (bit & 7)
	}
}

func (b *blockedBits) block(h uint64) *[blockBytes]byte {
	off := blockOf(h, b.nblocks) * blockBytes
	return (*[blockBytes]byte)(b.data[off : off+blockBytes])
}

func (b *blockedBits) test(h uint64) bool { return blockTest(b.block(h), b.k, h) }

func (b *blockedBits) insert(h uint64) { blockSet(b.block(h), b.k, h) }

// sparseBits stands for nblocks blocks of which only those that listed
// hashes reach hold bits: a light state (kind 7 or 8) of a large filter
// that holds few keys, read without allocating the filter's every block.
type sparseBits struct {
	blocks  map[uint64]*[blockBytes]byte
	nblocks uint64
	k       int
}

func (s *sparseBits) test(h uint64) bool {
	blk := s.blocks[blockOf(h, s.nblocks)]
	return blk != nil && blockTest(blk, s.k, h)
}

// bitsOfHashes gives the bits nblocks blocks with k hashes per key have
// when the n hashes at list (little-endian, 8 bytes each) are inserted:
// dense when that is not much more memory than a block per hash, else
// sparse.
func bitsOfHashes(list []byte, n, nblocks uint64, k int) (*blockedBits, *sparseBits) {
	if nblocks*blockBytes <= 128*n+1<<20 {
		return denseOfHashes(list, n, nblocks, k), nil
	}
	return nil, sparseOfHashes(list, n, nblocks, k)
}

func denseOfHashes(list []byte, n, nblocks uint64, k int) *blockedBits {
	b := &blockedBits{data: make([]byte, nblocks*blockBytes), nblocks: nblocks, k: k}
	for i := uint64(0); i < n; i++ {
		b.insert(le64(list[8*i:]))
	}
	return b
}

func sparseOfHashes(list []byte, n, nblocks uint64, k int) *sparseBits {
	s := &sparseBits{blocks: make(map[uint64]*[blockBytes]byte), nblocks: nblocks, k: k}
	for i := uint64(0); i < n; i++ {
		h := le64(list[8*i:])
		j := blockOf(h, nblocks)
		blk := s.blocks[j]
		if blk == nil {
			blk = new([blockBytes]byte)
			s.blocks[j] = blk
		}
		blockSet(blk, k, h)
	}
	return s
}
