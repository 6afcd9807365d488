/*-------------------------------------------------------------------------
 *
 * aggstate.h
 *		bloomfilter's aggregate states: what bloom_agg keeps while it reads
 *		rows, and how a state becomes the filter it stands for.
 *
 *	- kind 2, hash list (auto-sized bloom_agg): the 64-bit hashes of the
 *	  keys (hashlist.h: the counting and cuckoo types keep them too); the
 *	  final step counts the distinct hashes and builds a filter sized for
 *	  them.
 *	- kind 3, buffered filter (bloom_agg with a capacity): a blocked
 *	  filter's bits and up to 256 pending hashes, inserted in prefetched
 *	  batches; with flag SCALABLE_STATE planned as the first layer of a
 *	  scalable filter (aggstate.c).
 *	- kind 7, light state (bloom_agg with a capacity; format version 4): kind 3's header and the hashes of the keys, 8 bytes each
 *	  (hashlist.h's slots), until they would take more room than kind 3's
 *	  bits: then it becomes the kind 3 state it stands for.  A partial state
 *	  so costs bytes in proportion to its keys, not its capacity
 *	  (src/core/sparse.c).
 *
 * States cross parallel workers and Citus nodes as ordinary values, so they
 * are validated like filters; every function that reads a filter
 * materialises a state first (bloom_materialize, materialize.c), here and
 * nowhere else.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_AGGSTATE_H
#define BLOOM_CORE_AGGSTATE_H

#include "hashlist.h"
#include "scalable.h"

extern const BloomOps bloom_buffered_ops;
extern const BloomOps bloom_sparse_ops;

/* buffered filters (kind 3) */
extern size_t bloom_buffered_size(uint64_t nblocks);
extern void bloom_init_buffered(uint8_t *buf, uint64_t nblocks, int k,
								uint64_t capacity, double fpr, uint64_t seed);
extern BloomStatus bloom_new_buffered(uint64_t capacity, double fpr, bool layer,
									  BloomPlan *plan, const BloomAlloc *a,
									  BloomFilter *out);
extern void bloom_flush_pending(BloomFilter *f);

static inline uint8_t *
bloom_pending(const BloomFilter *f)
{
	return f->data + f->nblocks * BLOOM_BLOCK_BYTES;
}

/*
 * Collects h among the pending hashes (full: inserts them first), so that
 * inserts come in batches whose cache misses overlap.  The caller counts h.
 * Inline: bloom_agg calls it once a row.
 */
static inline void
bloom_buffered_push(BloomFilter *f, uint64_t h)
{
	if (f->npending == BLOOM_PENDING_SLOTS)
		bloom_flush_pending(f);
	bloom_put_le64(bloom_pending(f) + 8 * f->npending, h);
	f->npending++;
	bloom_store_fill(f);
}

/* light states (kind 7, sparse.c) */
extern uint64_t bloom_sparse_limit(uint64_t nblocks);
extern BloomStatus bloom_new_sparse(uint64_t capacity, double fpr, bool layer,
									BloomPlan *plan, const BloomAlloc *a,
									BloomFilter *out);
extern BloomStatus bloom_sparse_densify(BloomFilter *f, const BloomAlloc *a);
extern BloomStatus bloom_sparse_append(BloomFilter *f, const uint8_t *src,
									   uint64_t n, const BloomAlloc *a);

/*
 * Materialisation: what a state stands for, and what the caller should say
 * about it.  With scalable a hash list becomes a scalable filter of one
 * layer; without, a blocked filter (which SQL API reads which: the glue's
 * BtApiVersion).  A buffered state follows its flag.
 */
typedef struct BloomMaterialized
{
	/* BLOOM_E_CAPACITY: the filter that did not fit */
	uint64_t	capacity;
	double		fpr;
	/* a fixed-capacity state received clearly more keys than its capacity */
	bool		over_capacity;
	double		estimated_items;
	double		estimated_fpr;
} BloomMaterialized;

extern BloomStatus bloom_materialize(const BloomFilter *st, bool scalable,
									 BloomPlan *plan, const BloomAlloc *a,
									 BloomMaterialized *m, BloomFilter *out);

#endif							/* BLOOM_CORE_AGGSTATE_H */
