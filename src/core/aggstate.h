/*-------------------------------------------------------------------------
 *
 * aggstate.h
 *		Aggregate states: what bloom_agg keeps while it reads rows, and how
 *		a state becomes the filter it stands for.
 *
 *	- kind 2, hash list (auto-sized bloom_agg): the 64-bit hashes of the
 *	  keys, 8 bytes each; the final step counts the distinct hashes (exactly
 *	  up to 65,536, else estimated) and builds a filter sized for them.
 *	  Bit positions depend only on the hash, so nothing is lost by keeping
 *	  hashes instead of keys.
 *	- kind 3, buffered filter (bloom_agg with a capacity): a blocked
 *	  filter's bits and up to 256 pending hashes, inserted in prefetched
 *	  batches; from version 1.2 (flag SCALABLE_STATE) planned as the first
 *	  layer of a scalable filter.
 *	- kind 7, light state (bloom_agg with a capacity, from 1.5; format
 *	  version 4): kind 3's header and the hashes of the keys, 8 bytes each,
 *	  until they would take more room than kind 3's bits: then it becomes
 *	  the kind 3 state it stands for.  A partial state so costs bytes in
 *	  proportion to its keys, not its capacity (src/core/sparse.c).
 *
 * States cross parallel workers and Citus nodes as ordinary values, so they
 * are validated like filters; every function that reads a filter
 * materialises a state first (bloom_materialize), here and nowhere else.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_AGGSTATE_H
#define BLOOM_CORE_AGGSTATE_H

#include "scalable.h"

/* a hash list's slots: it grows by half, from this many */
#define BLOOM_HASHLIST_MIN_SLOTS	8
/* a hash list holds at most this many hashes (distinct ones, past it) */
#define BLOOM_HASHLIST_MAX_HASHES	(BLOOM_MAX_SLOTS / 4 * 3)
/* auto-sizing counts distinct hashes exactly up to this many */
#define BLOOM_EXACT_COUNT_MAX		(1 << 16)

extern const BloomOps bloom_hashlist_ops;
extern const BloomOps bloom_buffered_ops;
extern const BloomOps bloom_sparse_ops;

/* hash lists (kind 2) */
extern size_t bloom_hashlist_size(uint64_t nslots);
extern void bloom_init_hashlist(uint8_t *buf, uint64_t nslots,
								uint64_t capacity, double fpr, uint64_t seed);
extern uint64_t bloom_hashlist_grown_slots(const BloomFilter *f, uint64_t n,
										   uint64_t limit);
extern void bloom_hashlist_rebase(BloomFilter *f, uint8_t *buf, uint64_t nslots);
extern BloomStatus bloom_decode_hashlist_any(const uint8_t *buf, size_t len,
											 BloomFilter *f);
extern BloomStatus bloom_hashlist_trim(BloomFilter *f, unsigned maxcopies,
									   const BloomAlloc *a);
extern uint64_t bloom_hashlist_get(const BloomFilter *f, uint64_t i);
extern void bloom_hashlist_set(BloomFilter *f, uint64_t i, uint64_t h);
extern BloomStatus bloom_hashlist_append(BloomFilter *f, const uint8_t *src,
										 uint64_t n, BloomPlan *plan,
										 const BloomAlloc *a,
										 uint64_t *distinct, uint64_t *limit);

/*
 * Appends one hash to the hash list f, or to a light state (kinds 7, 8:
 * the same slots), in place, if it has room (else false:
 * bloom_hashlist_append or bloom_sparse_append grows it).  Inline: the
 * aggregates call it once a row.  The caller counts h.
 */
static inline bool
bloom_hashlist_push(BloomFilter *f, uint64_t h)
{
	if (f->nhashes >= f->nslots)
		return false;
	bloom_put_le64(f->data + 8 * f->nhashes, h);
	f->nhashes++;
	bloom_store_fill(f);
	return true;
}

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

/* light states (kind 7) */
extern size_t bloom_sparse_size(uint64_t nslots);
extern uint64_t bloom_sparse_limit(uint64_t nblocks);
extern BloomStatus bloom_new_sparse(uint64_t capacity, double fpr, bool layer,
									BloomPlan *plan, const BloomAlloc *a,
									BloomFilter *out);
extern BloomStatus bloom_sparse_densify(BloomFilter *f, const BloomAlloc *a);
extern BloomStatus bloom_sparse_append(BloomFilter *f, const uint8_t *src,
									   uint64_t n, const BloomAlloc *a);
extern void bloom_sparse_write(uint8_t *buf, const BloomFilter *f, uint64_t nslots,
							   BloomFilter *out);

/* distinct counting */
extern size_t bloom_unique_u64(uint64_t *a, size_t n);
extern void bloom_sort_u64(uint64_t *a, size_t n, const BloomCancel *c);
extern uint64_t bloom_count_distinct(const uint8_t *hashes_le, uint64_t n,
									 uint64_t *table, uint64_t tsize,
									 const BloomCancel *c);
extern size_t bloom_estimate_scratch(uint64_t n);
extern double bloom_estimate_distinct(const uint8_t *hashes_le, uint64_t n,
									  uint8_t *scratch, const BloomCancel *c);

extern BloomStatus bloom_hashlist_distinct(const BloomFilter *st, const BloomAlloc *a,
										   uint64_t **sorted, uint64_t *distinct);

/*
 * canonical bytes: a hash list or a light state without unused slots,
 * unused pending zero
 */
extern bool bloom_is_canonical(const BloomFilter *f);
extern size_t bloom_canonical_size(const BloomFilter *f);
extern void bloom_canonical_write(const BloomFilter *f, uint8_t *out);

/*
 * Materialisation: what a state stands for, and what the caller should say
 * about it.  With scalable (the functions of version 1.2) a hash list
 * becomes a scalable filter of one layer; without, a blocked filter, as
 * 1.0 made it.  A buffered state follows its flag.
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
