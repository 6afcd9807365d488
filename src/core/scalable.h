/*-------------------------------------------------------------------------
 *
 * scalable.h
 *		Scalable filters (kind 4): layers of blocked filters, each a fixed
 *		factor larger than the one before, with tightening rates.
 *
 * Almeida, Baquero, Preguica and Hutchison, "Scalable Bloom Filters",
 * Information Processing Letters 101(6), 2007.  The schedule of the
 * layers' rates is sizing.h's (bloom_layer_fpr: the index and the cuckoo
 * filter follow it too); scalable.c has growth (with an allocator, so that
 * the glue, tests, fuzzers, the corpus writer and benchmarks grow filters
 * with one function: bloom_add in kinds.h), union and validation.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_SCALABLE_H
#define BLOOM_CORE_SCALABLE_H

#include "blocked.h"

#define BLOOM_MAX_EXPANSION		16
#define BLOOM_DEFAULT_EXPANSION	2
#define BLOOM_CREATE_CAPACITY	1000	/* first layer of create-on-add */

extern const BloomOps bloom_scalable_ops;

/* A target rate a scalable filter can have (its last layer's must plan) */
static inline bool
bloom_scalable_fpr_valid(double fpr)
{
	return bloom_fpr_valid(fpr) && fpr >= BLOOM_MIN_SCALABLE_FPR;
}

extern size_t bloom_scalable_size(uint64_t nlayers, uint64_t total_blocks);
extern uint64_t bloom_scalable_blocks(const BloomFilter *f);
extern void bloom_init_scalable(uint8_t *buf, uint64_t capacity, double fpr,
								unsigned expansion, uint64_t seed,
								uint64_t nblocks, int k);
extern BloomStatus bloom_new_scalable(uint64_t capacity, double fpr,
									  unsigned expansion, BloomPlan *plan,
									  const BloomAlloc *a, BloomFilter *out);
extern void bloom_scalable_assemble(uint8_t *buf, const BloomLayer *layers,
									uint64_t nlayers, double fpr, unsigned expansion,
									uint64_t seed, BloomFilter *f);
extern uint64_t bloom_scalable_max_first_layer(const BloomPlan *plan);
extern void bloom_scalable_from_blocked(uint8_t *buf, const BloomFilter *b,
										double target, unsigned expansion);
extern BloomStatus bloom_scalable_next_layer(const BloomFilter *f,
											 BloomPlan *plan,
											 uint64_t *capacity, uint64_t *nblocks);
extern uint64_t bloom_scalable_next_capacity(const BloomFilter *f);
extern void bloom_scalable_append_layer(uint8_t *buf, const BloomFilter *f,
										uint64_t capacity, uint64_t nblocks, int k);
extern size_t bloom_scalable_union_size(const BloomFilter *a, const BloomFilter *b);
extern void bloom_scalable_union(uint8_t *buf, const BloomFilter *a,
								 const BloomFilter *b, const BloomCancel *c);

/*
 * A key may sit in any layer.  Every layer takes the key's bit positions
 * from the same sequence (the top bits of h times the odd constant, again
 * and again), so the positions are computed once for the layer with the
 * most hashes.  The blocks of every layer are prefetched first, so that
 * their cache misses overlap, then tested oldest (smallest) layer first:
 * the small layers are likely in cache, and the misses of the large ones
 * have the longest time to arrive (docs/SCALABLE.md has the measurements).
 */
static inline bool
bloom_scalable_contains(const BloomFilter *f, uint64_t h)
{
	const uint8_t *blk[BLOOM_MAX_LAYERS];
	unsigned	bits[BLOOM_MAX_HASHES];
	int			n = (int) f->nlayers;
	int			kmax = 0;
	uint64_t	x = h;

	for (int i = 0; i < n; i++)
	{
		blk[i] = bloom_bits_block(f->layers[i].data, f->layers[i].nblocks, h);
		__builtin_prefetch(blk[i]);
		if (f->layers[i].k > kmax)
			kmax = f->layers[i].k;
	}
	for (int j = 0; j < kmax; j++)
	{
		x *= BLOOM_PROBE_MUL;
		bits[j] = (unsigned) (x >> (64 - BLOOM_BLOCK_LOG2));
	}
	for (int i = 0; i < n; i++)
	{
		unsigned	ok = 1;

		for (int j = 0; j < f->layers[i].k; j++)
			ok &= (unsigned) blk[i][bits[j] >> 3] >> (bits[j] & 7);
		if (ok & 1)
			return true;
	}
	return false;
}

/* One layer of a scalable filter */
static inline bool
bloom_layer_contains(const BloomLayer *l, uint64_t h)
{
	return bloom_bits_contain(l->data, l->nblocks, l->k, h);
}

/*
 * Any filter that answers lookups, blocked (kind 1) or scalable (kind 4),
 * inline for the per-row paths; aggregate states (kinds 2 and 3) are
 * materialised first.  A scalable filter that has not grown, the common
 * case, is one layer: tested as a blocked filter.
 */
static inline bool
bloom_filter_contains(const BloomFilter *f, uint64_t h)
{
	if (f->kind == BLOOM_KIND_SCALABLE || f->kind == BLOOM_KIND_WINDOWED)
	{
		/* a windowed filter keeps 0 to 32 slices as layers */
		if (f->nlayers == 1)
			return bloom_layer_contains(&f->layers[0], h);
		return f->nlayers > 0 && bloom_scalable_contains(f, h);
	}
	return bloom_contains_hash(f, h);
}

/* Has the newest layer as many keys as it was planned for? */
static inline bool
bloom_scalable_full(const BloomFilter *f)
{
	const BloomLayer *l = &f->layers[f->nlayers - 1];

	return l->nitems >= l->capacity;
}

#endif							/* BLOOM_CORE_SCALABLE_H */
