/*-------------------------------------------------------------------------
 *
 * windowed.h
 *		Windowed filters (kind 9, format version 5): the keys of the last
 *		few slices of time, one blocked filter a slice.
 *
 * Time is cut into slices of a fixed length, aligned to multiples of it
 * from 1970-01-01 00:00 UTC (slice s covers [s * L, (s + 1) * L)
 * microseconds), so that filters of the same slicing line up.  A filter
 * keeps the slices of its window: the newest slice it has seen (by an add
 * or an expiry) and the window slices before it, at most window + 1 in all,
 * and only those that hold keys.  Each slice is a blocked filter (kind 1's
 * layout) sized for the capacity at the rate fpr / (window + 1), so that a
 * lookup that asks every kept slice stays at or under fpr (the union
 * bound).  This is a time-sliced ("rotating") filter: the aging Bloom
 * filter of M. Yoon, "Aging Bloom Filter with Two Active Buffers for
 * Dynamic Sets", IEEE TKDE 22(1), 2010, with window + 1 buffers aligned to
 * the clock instead of two swapped at a count.
 *
 * The slices decode into f->layers (their blocks, k and items) with their
 * numbers in f->slice_no, so that bloom_filter_contains asks them as a
 * scalable filter's layers.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_WINDOWED_H
#define BLOOM_CORE_WINDOWED_H

#include "blocked.h"

#define BLOOM_WINDOW_DESC_SIZE	32	/* after the header */
#define BLOOM_SLICE_DESC_SIZE	16	/* one a kept slice */
#define BLOOM_WINDOW_MAX		31	/* window + 1 slices fit in layers[] */
#define BLOOM_WINDOW_NO_TIME	INT64_MIN	/* newest, before any time */
/* slices of at most 1,000 years of 366 days */
#define BLOOM_WINDOW_MAX_SLICE_USEC	(INT64_C(1000) * 366 * 86400 * 1000000)

extern const BloomOps bloom_windowed_ops;

extern size_t bloom_windowed_size(uint64_t nslices, uint64_t nblocks);
extern BloomStatus bloom_windowed_plan(uint64_t capacity, double fpr,
									   uint32_t window, uint64_t *nblocks,
									   int *k);
extern void bloom_windowed_init(uint8_t *buf, uint64_t capacity, double fpr,
								uint64_t seed, uint64_t nblocks, int k,
								int64_t slice_usec, uint32_t window);

/* The slice that holds usec (floor division: times before 1970 too) */
static inline int64_t
bloom_window_slice(int64_t usec, int64_t slice_usec)
{
	int64_t		q = usec / slice_usec;

	return (usec % slice_usec != 0 && usec < 0) ? q - 1 : q;
}

extern bool bloom_window_slice_valid(int64_t s, int64_t slice_usec);

/*
 * What an add at slice s (or an expiry at s, open false) makes of f: the
 * newest slice, and the kept slices, each taken from f's slice src[i] or
 * new and empty (src -1); target is the index of slice s (-1: s is older
 * than the window, and the add adds nothing).
 */
typedef struct BloomWindowPlan
{
	int64_t		newest;
	uint64_t	nslices;
	int64_t		slice_no[BLOOM_MAX_LAYERS];
	int			src[BLOOM_MAX_LAYERS];
	int			target;
	bool		changed;		/* the value is not f's as it is */
} BloomWindowPlan;

extern void bloom_window_plan(const BloomFilter *f, int64_t s, bool open,
							  BloomWindowPlan *p);
extern size_t bloom_window_plan_size(const BloomFilter *f,
									 const BloomWindowPlan *p);
extern void bloom_window_apply(uint8_t *out, const BloomFilter *f,
							   const BloomWindowPlan *p, BloomFilter *nf);
extern bool bloom_windowed_insert(BloomFilter *f, int slice, uint64_t h);
extern int	bloom_window_first_since(const BloomFilter *f, int64_t since_slice);
extern bool bloom_windowed_contains_from(const BloomFilter *f, int from,
										 uint64_t h);
extern BloomParam bloom_windowed_compatible(const BloomFilter *a,
											const BloomFilter *b);
extern void bloom_window_union_plan(const BloomFilter *a, const BloomFilter *b,
									BloomWindowPlan *p, int *bsrc);
extern void bloom_windowed_union(uint8_t *out, const BloomFilter *a,
								 const BloomFilter *b, const BloomCancel *c,
								 BloomFilter *nf);
extern size_t bloom_windowed_union_size(const BloomFilter *a,
										const BloomFilter *b);

#endif							/* BLOOM_CORE_WINDOWED_H */
