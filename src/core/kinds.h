/*-------------------------------------------------------------------------
 *
 * kinds.h
 *		The registry of bloomfilter's kinds, one operations table each, and
 *		what dispatches on a value's kind: decoding, size, add, merge and
 *		describe; appending to the light state of either family that has
 *		one; the canonical bytes of any family's aggregate states.
 *
 * The top of the core: kinds.c knows the module of every family that has
 * a kind here (blocked.h, hashlist.h, aggstate.h and scalable.h for
 * bloomfilter's kinds 1, 2, 3 and 7, and 4; counting.h for kind 8), so no
 * module of the core includes this header: the glue, the tests, the
 * fuzzers and the benchmarks do (through core.h).  A module that decodes a
 * value of a kind it knows calls bloom_decode_as (format.h) with that
 * kind's table.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_KINDS_H
#define BLOOM_CORE_KINDS_H

#include "format.h"

/* the registry: a kind's operations, NULL for a kind bloomfilter has not */
extern const BloomOps *bloom_kind_ops(uint8_t kind);

/* generic dispatch on a bloomfilter value's kind */
extern BloomStatus bloom_decode(const uint8_t *buf, size_t len, BloomFilter *f);
extern size_t bloom_value_size(const BloomFilter *f);
extern BloomStatus bloom_add(BloomFilter *f, uint64_t h, struct BloomPlan *plan,
							 const BloomAlloc *a, bool *added);
extern BloomStatus bloom_merge(BloomFilter *a, const BloomFilter *b,
							   bool intersect, const BloomAlloc *al);
extern BloomStatus bloom_describe(const BloomFilter *f, BloomInfo *info,
								  const BloomCancel *c);

/* a light state of either family (kind 7 or 8): its kind's append */
extern BloomStatus bloom_light_append(BloomFilter *f, const uint8_t *src, uint64_t n,
									  const BloomAlloc *a);

/*
 * canonical bytes: a hash list or a light state without unused slots,
 * unused pending zero
 */
extern bool bloom_is_canonical(const BloomFilter *f);
extern size_t bloom_canonical_size(const BloomFilter *f);
extern void bloom_canonical_write(const BloomFilter *f, uint8_t *out);

#endif							/* BLOOM_CORE_KINDS_H */
