/*-------------------------------------------------------------------------
 *
 * counting.h
 *		Counting Bloom filters (kind 5, format version 3): a blocked Bloom
 *		filter whose every bit also has a 4-bit counter, so that keys can
 *		be removed (Fan, Cao, Almeida, Broder, "Summary Cache: A Scalable
 *		Wide-Area Web Cache Sharing Protocol", IEEE/ACM ToN 2000).
 *
 * Layout after the common header: a presence plane of nblocks 64-byte
 * blocks, bit for bit the bits of a blocked filter (kind 1) with the same
 * k and blocks, then a counter plane of nblocks 256-byte blocks: cell j
 * (0..511) of block b is the nibble at byte 256 b + j / 2, the low nibble
 * for even j.  A presence bit is set exactly when its counter is not zero.
 * Lookups read the presence plane only (one cache line, as a blocked
 * filter); counting_to_bloom copies it into a blocked filter that answers
 * alike.
 *
 * Counters saturate at 15 and a saturated counter never moves again, so
 * removing keys that were added never clears a bit another added key
 * needs.  Removing a key that was never added (a false positive) takes
 * counts that belong to other keys: that is the one way to lose a key.
 *
 *	header word 48: blocks; word 56: removes of keys that were maybe
 *	present (a certainly absent key's remove is not counted); items (40):
 *	adds minus those removes, at least 0.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_COUNTING_H
#define BLOOM_CORE_COUNTING_H

#include "blocked.h"

#define COUNTING_PLANE_BYTES	256 /* counters of a block: 512 nibbles */
#define COUNTING_BLOCK_BYTES	(BLOOM_BLOCK_BYTES + COUNTING_PLANE_BYTES)
#define COUNTING_SATURATED		15
#define COUNTING_MAX_BLOCKS		((BLOOM_MAX_BYTES - BLOOM_HEADER_SIZE) / COUNTING_BLOCK_BYTES)

/* What counting_info shows */
typedef struct CountingInfo
{
	uint64_t	counters;		/* cells: blocks x 512 */
	uint64_t	counters_set;
	uint64_t	saturated;
	unsigned	max_counter;
	double		estimated_items;
	double		estimated_fpr;
} CountingInfo;

static inline size_t
counting_size(uint64_t nblocks)
{
	return BLOOM_HEADER_SIZE + (size_t) nblocks * COUNTING_BLOCK_BYTES;
}

static inline uint8_t *
counting_counters(const BloomFilter *f)
{
	return f->data + f->nblocks * BLOOM_BLOCK_BYTES;
}

/* The cells of hash h in its block, and the block's index */
static inline uint64_t
counting_key_cells(uint64_t nblocks, int k, uint64_t h, unsigned *cells)
{
	uint64_t	x = h;

	for (int i = 0; i < k; i++)
	{
		x *= BLOOM_PROBE_MUL;
		cells[i] = (unsigned) (x >> (64 - BLOOM_BLOCK_LOG2));
	}
	return bloom_mulhi64(h, nblocks);
}

static inline unsigned
counting_cell_get(const uint8_t *ctr, uint64_t j)
{
	return (ctr[j >> 1] >> ((j & 1) * 4)) & 0xF;
}

static inline void
counting_cell_put(uint8_t *ctr, unsigned j, unsigned v)
{
	unsigned	shift = (j & 1) * 4;

	ctr[j >> 1] = (uint8_t) ((ctr[j >> 1] & ~(0xF << shift)) | (v << shift));
}

/*
 * The copies counted for a key whose k cells (of its block) are cells, in
 * that block's counters ctr: the smallest counter (a cell probed m times by
 * the key counts for m copies of it); 15 means saturated
 */
static inline unsigned
counting_cells_count(const uint8_t *ctr, int k, const unsigned *cells)
{
	unsigned	best = COUNTING_SATURATED;

	for (int i = 0; i < k; i++)
	{
		unsigned	mult = 0;
		unsigned	v = counting_cell_get(ctr, cells[i]);
		unsigned	c;

		for (int j = 0; j < k; j++)
			mult += cells[j] == cells[i];
		c = v == COUNTING_SATURATED ? COUNTING_SATURATED : v / mult;
		if (c < best)
			best = c;
	}
	return best;
}

/* what a countingbloom value is: any of its forms (counting_value.c) */
extern BloomStatus counting_value_decode(const uint8_t *buf, size_t len, BloomFilter *f);
extern BloomStatus counting_value_validate(const uint8_t *buf, size_t len, BloomFilter *f,
										   const BloomCancel *c);
extern BloomStatus counting_decode(const uint8_t *buf, size_t len, BloomFilter *f);
extern BloomStatus counting_check_fields(const BloomFilter *f);
extern BloomStatus counting_validate_deep(const BloomFilter *f, const BloomCancel *c);
extern BloomStatus counting_plan(uint64_t capacity, double fpr, BloomPlan *plan,
								 uint64_t *nblocks);
extern uint64_t counting_max_capacity(const BloomPlan *plan);
extern void counting_init(uint8_t *buf, uint64_t nblocks, int k, uint64_t capacity,
						  double fpr, uint64_t seed, BloomFilter *out);
extern BloomStatus counting_new(uint64_t capacity, double fpr, BloomPlan *plan,
								const BloomAlloc *a, BloomFilter *out);
extern void counting_add(BloomFilter *f, uint64_t h);
extern bool counting_remove(BloomFilter *f, uint64_t h);
extern unsigned counting_count(const BloomFilter *f, uint64_t h);
extern BloomParam counting_compatible(const BloomFilter *a, const BloomFilter *b);
extern void counting_merge(BloomFilter *a, const BloomFilter *b, const BloomCancel *c);
extern void counting_to_bloom(const BloomFilter *c, uint8_t *buf, BloomFilter *out);
extern void counting_describe(const BloomFilter *f, CountingInfo *info,
							  const BloomCancel *c);
/* light states of counting_agg(key, capacity, fpr) (kind 8, counting_light.c) */
extern BloomStatus counting_new_sparse(uint64_t capacity, double fpr, BloomPlan *plan,
									   const BloomAlloc *a, BloomFilter *out);
extern BloomStatus counting_sparse_decode(const uint8_t *buf, size_t len, BloomFilter *f);
extern BloomStatus counting_sparse_densify(BloomFilter *f, const BloomAlloc *a);
extern BloomStatus counting_sparse_append(BloomFilter *f, const uint8_t *src, uint64_t n,
										  const BloomAlloc *a);
extern BloomStatus counting_state_merge(BloomFilter *a, const BloomFilter *b,
										const BloomAlloc *al);
extern BloomStatus counting_light_sort(BloomFilter *f, const BloomAlloc *a);
extern bool counting_light_sorted(const BloomFilter *f);
extern bool counting_light_contains(const BloomFilter *f, uint64_t h);
extern unsigned counting_light_count(const BloomFilter *f, uint64_t h);
extern void counting_light_describe(const BloomFilter *f, CountingInfo *info,
									const BloomCancel *c);
extern void counting_light_to_bloom(const BloomFilter *l, uint8_t *buf, BloomFilter *out);
extern BloomStatus counting_from_hashlist(const BloomFilter *st, BloomPlan *plan,
										  const BloomAlloc *a, BloomFilter *out,
										  uint64_t *capacity);

/* Maybe present: the presence plane answers as a blocked filter does */
static inline bool
counting_contains(const BloomFilter *f, uint64_t h)
{
	return bloom_bits_contain(f->data, f->nblocks, f->k, h);
}

#endif							/* BLOOM_CORE_COUNTING_H */
