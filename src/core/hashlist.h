/*-------------------------------------------------------------------------
 *
 * hashlist.h
 *		Lists of hashes, what the aggregates of every family keep: the hash
 *		list (kind 2), the slots of the light states (kinds 7 and 8), and
 *		the sorting and distinct counting of hashes.
 *
 *	- kind 2, hash list: the 64-bit hashes of the keys, 8 bytes each.
 *	  bloom_agg without a capacity keeps one (its final step counts the
 *	  distinct hashes, exactly up to 65,536, else estimated, and builds a
 *	  filter sized for them: src/core/aggstate.h); so do counting_agg and
 *	  cuckoo_agg, whose version 3 also carries the capacity of the filter
 *	  it will become.  Bit positions depend only on the hash, so nothing is
 *	  lost by keeping hashes instead of keys.
 *	- kinds 7 and 8, light states: the header of the state they stand for
 *	  (bloomfilter's buffered state, kind 3; a counting filter, kind 5)
 *	  and the hashes of the rows, 8 bytes each, until they would take more
 *	  room than it: then the state becomes it (each family's module does
 *	  that: bloom_sparse_append in aggstate.h, counting_sparse_append in
 *	  counting.h).  Their slots, and how they grow, are the same.
 *
 * Plain C, no PostgreSQL; on the common base alone (format.h, sizing.h),
 * so that every family's module may use it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_HASHLIST_H
#define BLOOM_CORE_HASHLIST_H

#include "sizing.h"

/* a hash list's (and a light state's) slots: it grows by half, from this many */
#define BLOOM_HASHLIST_MIN_SLOTS	8
/* a hash list holds at most this many hashes (distinct ones, past it) */
#define BLOOM_HASHLIST_MAX_HASHES	(BLOOM_MAX_SLOTS / 4 * 3)
/* auto-sizing counts distinct hashes exactly up to this many */
#define BLOOM_EXACT_COUNT_MAX		(1 << 16)

extern const BloomOps bloom_hashlist_ops;

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
 * bloom_hashlist_append, bloom_sparse_append or counting_sparse_append
 * grows it).  Inline: the aggregates call it once a row.  The caller
 * counts h.
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

/* the slots of light states (kinds 7 and 8) */
extern size_t bloom_sparse_size(uint64_t nslots);
extern void bloom_sparse_write(uint8_t *buf, const BloomFilter *f, uint64_t nslots,
							   BloomFilter *out);
extern BloomStatus bloom_slots_append(BloomFilter *f, const uint8_t *src, uint64_t n,
									  uint64_t limit, const BloomAlloc *a);

/* sorting and distinct counting (distinct.c) */
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

#endif							/* BLOOM_CORE_HASHLIST_H */
