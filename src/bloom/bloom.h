/*-------------------------------------------------------------------------
 *
 * bloom.h
 *		The bloomfilter family's glue: what its files share.  Declarations
 *		are grouped by the file that defines them.
 *
 *	bf_value.c		the type (I/O methods), reading arguments, and turning
 *					aggregate states into filters
 *	bf_construct.c	checks, constructors, adding a key, bloom_empty
 *	bf_funcs.c		add, contains, union, intersection, bloom_info
 *	bf_batch.c		the batch forms over arrays
 *	bf_agg.c		bloom_agg and bloom_union_agg
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_FAMILY_H
#define BLOOM_FAMILY_H

#include "bloomtype.h"

/* bf_value.c */

/*
 * A filter argument as the probe cache keeps it (bf_probe_methods): the
 * filter, or a light state's view and the header of the filter it stands
 * for.  f comes first: the shared batch code reads the header there.
 */
typedef struct BfProbe
{
	BloomFilter f;
	bool		light;
	BloomLightView view;
} BfProbe;

/* Whether the probed filter may hold h */
static inline bool
bf_probe_contains(const BfProbe *p, uint64 h)
{
	if (p->light)
		return bloom_light_view_contains(&p->view, h);
	return bloom_filter_contains(&p->f, h);
}

extern const BtCacheMethods bf_probe_methods;
extern const BtCacheMethods bf_probe_scalable_methods;
extern void bf_decode_or_error(struct varlena *v, BloomFilter *f);
extern struct varlena *bf_materialize(BloomFilter *st, bool scalable,
									  BloomPlan *plan, MemoryContext cxt);

/* how bf_arg reads a filter argument */
#define BF_ARG_COPY			0x01	/* a private copy the caller may modify */
#define BF_ARG_SCALABLE		0x02	/* hash lists as 1.2 reads them: scalable */
extern struct varlena *bf_as_filter(struct varlena *v, BloomFilter *f,
									struct varlena *orig, int opts);
extern struct varlena *bf_arg(FunctionCallInfo fcinfo, int argno, BloomFilter *f,
							  int opts);
extern struct varlena *bf_light_view(const BloomFilter *st, MemoryContext cxt,
									 BloomLightView *v);
extern struct varlena *bf_read_arg(FunctionCallInfo fcinfo, int argno, BloomFilter *f,
								   BloomLightView *v, bool *light, int opts);

/* bf_construct.c */
extern void bf_check_params(int64 capacity, double fpr);
extern void bf_check_scalable_params(int64 capacity, double fpr, int32 expansion);
extern void bf_capacity_error(uint64 capacity, double fpr, const BloomPlan *plan);
typedef enum BfShape
{
	BF_BLOCKED,					/* a fixed filter of 1.0 */
	BF_BUFFERED,				/* bloom_agg's fixed-capacity state of 1.0 */
	BF_BUFFERED_LAYER,			/* ... of 1.2, planned as a first layer */
	BF_LIGHT_LAYER,				/* ... of 1.5: the light form of that state */
	BF_SCALABLE					/* a filter of 1.2 (expansion 0: fixed) */
} BfShape;
extern struct varlena *bf_new(BfShape shape, uint64 capacity, double fpr,
							  int32 expansion, BloomPlan *plan, MemoryContext cxt,
							  BloomFilter *f);
extern struct varlena *bf_new_scalable_warn(uint64 capacity, double fpr,
											int32 expansion, BloomPlan *plan,
											MemoryContext cxt);
extern void bf_warn_if_cannot_grow(const BloomFilter *f);
extern struct varlena *bf_add_hash(struct varlena *v, BloomFilter *f, uint64 h,
								   BloomPlan *plan, MemoryContext cxt);
extern void bf_admit_key(BloomFilter *f, const BloomKeyInfo *ki);
extern struct varlena *bf_add_target(FunctionCallInfo fcinfo, bool create,
									 BloomFilter *f);

/* bf_funcs.c */
extern bool bf_unite_as_states(const BloomFilter *a, const BloomFilter *b);
extern void bf_check_compatible(const BloomFilter *a, const BloomFilter *b);
extern struct varlena *bf_merge_into(BloomFilter *fa, const BloomFilter *fb,
									 bool intersect, MemoryContext cxt);

#endif							/* BLOOM_FAMILY_H */
