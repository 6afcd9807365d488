/*-------------------------------------------------------------------------
 *
 * blocked.h
 *		The blocked layout (kind 1) and its sizing model.
 *
 * Every key sets its k bits inside one 512-bit (64-byte) block chosen by
 * the hash, so a lookup touches one cache line however large the filter is
 * (Putze, Sanders, Singler, "Cache-, Hash- and Space-Efficient Bloom
 * Filters", WEA 2007; the same idea as RocksDB's FastLocalBloom and
 * Parquet's split-block filters).  The layers of a scalable filter and the
 * bits of a buffered aggregate state use the same layout.
 *
 * sizing.h plans a filter (hashes per key, keys per block) from the
 * layout's own false-positive model; blocked.c makes, tests, combines and
 * estimates blocked filters.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_BLOCKED_H
#define BLOOM_CORE_BLOCKED_H

#include "sizing.h"

/* The bytes of a blocked filter of nblocks blocks, header included */
static inline size_t
bloom_blocked_size(uint64_t nblocks)
{
	return BLOOM_HEADER_SIZE + (size_t) nblocks * BLOOM_BLOCK_BYTES;
}

/* blocked.c */
extern const BloomOps bloom_blocked_ops;
extern void bloom_init_blocked(uint8_t *buf, uint64_t nblocks, int k,
							   uint64_t capacity, double fpr, uint64_t seed);
extern BloomStatus bloom_new_blocked(uint64_t capacity, double fpr, uint16_t flags,
									 BloomPlan *plan, const BloomAlloc *a,
									 BloomFilter *out);
extern void bloom_insert_many(BloomFilter *f, const uint8_t *hashes_le, uint64_t n,
							  const BloomCancel *c);
extern void bloom_union_bits(uint8_t *dst, const uint8_t *src, uint64_t nbytes,
							 const BloomCancel *c);
extern void bloom_intersect_bits(uint8_t *dst, const uint8_t *src, uint64_t nbytes,
								 const BloomCancel *c);
/* passes over every block: c is checked every 64K blocks (4 MB) */
extern uint64_t bloom_bits_set(const BloomFilter *f, const BloomCancel *c);
extern double bloom_estimate_items(const BloomFilter *f, const BloomCancel *c);
extern double bloom_estimate_fpr(const BloomFilter *f, const BloomCancel *c);
extern uint64_t bloom_layer_bits_set(const BloomLayer *l, const BloomCancel *c);
extern double bloom_layer_estimate_items(const BloomLayer *l, const BloomCancel *c);
extern double bloom_layer_estimate_fpr(const BloomLayer *l, const BloomCancel *c);

/*
 * Bit positions of a key in a blocked filter.  The block is chosen by
 * multiply-shift of the full 64-bit hash onto [0, nblocks); the k bits
 * inside the 512-bit block come from the top nine bits of successive
 * multiplications of the hash by an odd constant, as in RocksDB's
 * FastLocalBloom.  Bits are addressed by byte, so the layout does not
 * depend on the machine's byte order.
 */
#define BLOOM_PROBE_MUL		UINT64_C(0x9E3779B97F4A7C15)

/*
 * The k bits of hash h inside one 64-byte block blk, the block chosen by
 * bloom_mulhi64(h, nblocks).  The index keeps its blocks on pages and sets
 * them one at a time; set reports whether a bit changed.
 */
static inline bool
bloom_block_set(uint8_t *blk, int k, uint64_t h)
{
	uint64_t	x = h;
	unsigned	changed = 0;

	for (int i = 0; i < k; i++)
	{
		unsigned	bit;
		uint8_t		mask;

		x *= BLOOM_PROBE_MUL;
		bit = (unsigned) (x >> (64 - BLOOM_BLOCK_LOG2));
		mask = (uint8_t) (1u << (bit & 7));
		changed |= (unsigned) (~blk[bit >> 3] & mask);
		blk[bit >> 3] |= mask;
	}
	return changed != 0;
}

/* Bits set in one 64-byte block (popcount does not care about byte order) */
static inline int
bloom_block_popcount(const uint8_t *blk)
{
	int			n = 0;

	for (int w = 0; w < BLOOM_BLOCK_BYTES / 8; w++)
	{
		uint64_t	x;

		memcpy(&x, blk + 8 * w, 8);
		n += __builtin_popcountll(x);
	}
	return n;
}

/*
 * All k bits are tested, without an early exit: for an absent key the
 * first clear bit comes at a random probe, and the mispredicted branch
 * costs more than the few loads from the same cache line.
 */
static inline bool
bloom_block_test(const uint8_t *blk, int k, uint64_t h)
{
	uint64_t	x = h;
	unsigned	ok = 1;

	for (int i = 0; i < k; i++)
	{
		unsigned	bit;

		x *= BLOOM_PROBE_MUL;
		bit = (unsigned) (x >> (64 - BLOOM_BLOCK_LOG2));
		ok &= (unsigned) blk[bit >> 3] >> (bit & 7);
	}
	return (ok & 1) != 0;
}

/*
 * Sets (or tests) the k bits of hash h in nblocks blocks of bits at data:
 * the layout of a blocked filter and of each layer of a scalable one.
 */
static inline void
bloom_bits_insert(uint8_t *data, uint64_t nblocks, int k, uint64_t h)
{
	(void) bloom_block_set(data + bloom_mulhi64(h, nblocks) * BLOOM_BLOCK_BYTES, k, h);
}

static inline bool
bloom_bits_contain(const uint8_t *data, uint64_t nblocks, int k, uint64_t h)
{
	return bloom_block_test(data + bloom_mulhi64(h, nblocks) * BLOOM_BLOCK_BYTES, k, h);
}

/* The block hash h falls in, for prefetching */
static inline const uint8_t *
bloom_bits_block(const uint8_t *data, uint64_t nblocks, uint64_t h)
{
	return data + bloom_mulhi64(h, nblocks) * BLOOM_BLOCK_BYTES;
}

/*
 * The rate (a state planned as a scalable filter's first layer needs a
 * rate a scalable filter can have) and the geometry (hashes per key, block
 * size, block count) of a value with blocks of bits, or a light state of
 * one (kind 7).  Inline: decode runs once per aggregated row.
 */
static inline BloomStatus
bloom_validate_rate_geometry(const BloomFilter *f)
{
	if (!bloom_fpr_valid(f->fpr) ||
		((f->flags & BLOOM_FLAG_SCALABLE_STATE) && f->fpr < BLOOM_MIN_SCALABLE_FPR))
		return BLOOM_E_PARAMS;
	if (f->k < 1 || f->k > BLOOM_MAX_HASHES ||
		f->block_log2 != BLOOM_BLOCK_LOG2 ||
		f->nblocks < 1 || f->nblocks > BLOOM_MAX_BLOCKS)
		return BLOOM_E_GEOMETRY;
	return BLOOM_OK;
}

/*
 * The first checks of a value with blocks of bits (kinds 1 and 3), in
 * order: its flags (none in version 1, v2_flag in version 2: a value is
 * written in the oldest version that can hold it), then its rate and
 * geometry.
 */
static inline BloomStatus
bloom_validate_bits(const BloomFilter *f, uint16_t v2_flag)
{
	if (f->flags != (f->version == BLOOM_FORMAT_VERSION ? 0 : v2_flag))
		return BLOOM_E_FLAGS;
	return bloom_validate_rate_geometry(f);
}

/*
 * The last checks of a value with bits (kinds 1 and 3): the capacity its
 * blocks can hold, and its length, size for its geometry.
 */
static inline BloomStatus
bloom_validate_fill(const BloomFilter *f, size_t len, size_t size)
{
	if (f->capacity < 1 || f->capacity > f->nblocks * BLOOM_BLOCK_BITS)
		return BLOOM_E_PARAMS;
	if (len != size)
		return BLOOM_E_LENGTH;
	return BLOOM_OK;
}

/* Kinds 1 and 3: sets h's bits (the caller counts it) */
static inline void
bloom_insert_hash(BloomFilter *f, uint64_t h)
{
	bloom_bits_insert(f->data, f->nblocks, f->k, h);
}

static inline bool
bloom_contains_hash(const BloomFilter *f, uint64_t h)
{
	return bloom_bits_contain(f->data, f->nblocks, f->k, h);
}

/* A blocked filter (or a buffered state's bits) seen as one layer */
static inline BloomLayer
bloom_blocked_layer(const BloomFilter *f)
{
	BloomLayer	l;

	l.nblocks = f->nblocks;
	l.capacity = f->capacity;
	l.nitems = f->nitems;
	l.k = f->k;
	l.data = f->data;
	return l;
}

#endif							/* BLOOM_CORE_BLOCKED_H */
