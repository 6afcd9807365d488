/*-------------------------------------------------------------------------
 *
 * cbf.h
 *		The countingbloom family's glue: what its files share.
 *
 *	cb_value.c		the type (I/O methods), reading arguments, turning an
 *					aggregate's hash list into a filter, parameter checks
 *	cb_funcs.c		empty, add, remove, contains, count, info, to_bloom, union
 *	cb_batch.c		the batch forms over arrays
 *	cb_agg.c		counting_agg and counting_union_agg
 *	cb_family.c		the family described for the shared glue (cb_family)
 *
 *-------------------------------------------------------------------------
 */
#ifndef COUNTING_FAMILY_H
#define COUNTING_FAMILY_H

#include "glue_family.h"

#define CB_NOUN				"counting bloom filter"
#define CB_PLURAL			"counting bloom filters"
/* counting_add(NULL, key) makes a filter of this many keys at 1% */
#define CB_CREATE_CAPACITY	1000

/* cb_family.c */
extern const BtFamily cb_family;

/* cb_value.c */
extern const BtTypeMethods cb_type;
extern const BtCacheMethods cb_probe_methods;
extern struct varlena *cb_materialize(BloomFilter *st, BloomPlan *plan, MemoryContext cxt);
extern struct varlena *cb_light_view(BloomFilter *f, MemoryContext cxt);
extern struct varlena *cb_densify(BloomFilter *st, MemoryContext cxt);
extern void cb_check_params(int64 capacity, double fpr);
extern struct varlena *cb_new(uint64 capacity, double fpr, BloomPlan *plan,
							  MemoryContext cxt, BloomFilter *f);

/*
 * The answers of a probe's filter: a counting filter, or a sorted light
 * state (cb_light_view).  Inline: they run once a key.
 */
static inline void
cb_decode_or_error(struct varlena *v, BloomFilter *f)
{
	bt_decode_or_error(&cb_type, v, f);
}

/* argument argno as the counting filter it is or stands for */
static inline struct varlena *
cb_arg(FunctionCallInfo fcinfo, int argno, BloomFilter *f, bool copy)
{
	return bt_family_arg(fcinfo, &cb_family, argno, f, copy);
}

static inline bool
cb_contains(const BloomFilter *f, uint64 h)
{
	if (f->kind == BLOOM_KIND_SPARSE_COUNTING)
		return counting_light_contains(f, h);
	return counting_contains(f, h);
}

static inline unsigned
cb_count(const BloomFilter *f, uint64 h)
{
	if (f->kind == BLOOM_KIND_SPARSE_COUNTING)
		return counting_light_count(f, h);
	return counting_count(f, h);
}

#endif							/* COUNTING_FAMILY_H */
