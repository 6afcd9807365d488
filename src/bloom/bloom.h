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
 *	bf_legacy.c		the entry points only older versions' SQL binds, and
 *					the table of which version binds each C symbol
 *
 * The common code behind the entry points takes the SQL-API version that
 * binds them (BtApiVersion, src/pg/bloomtype.h); what a version means for
 * this family is said once, by the predicates below.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_FAMILY_H
#define BLOOM_FAMILY_H

#include "bloomtype.h"

#include "datatype/timestamp.h"

/* ---------------------------------------------------------------------
 * What an SQL-API version means for bloomfilter
 * ---------------------------------------------------------------------
 */

/*
 * Whether an aggregate's state (a hash list, kind 2, or a fixed-capacity
 * state) stands for the scalable filter 1.2 makes of it, not the blocked
 * filter of 1.0: what bloom_agg's final step builds, the rate it accepts,
 * and how every function that reads a filter reads a state.  The lookups
 * of 1.0 (contains, its array forms, bloom_cardinality) kept 1.0's reading
 * until 1.6 bound new symbols for them.
 */
static inline bool
bt_api_reads_hashlist_as_scalable(BtApiVersion api)
{
	return api >= BT_API_1_2;
}

/* Whether bloom_add and bloom_add_all make a new filter for a NULL one */
static inline bool
bt_api_creates_on_add(BtApiVersion api)
{
	return api >= BT_API_1_2;
}

/*
 * Whether bloom_agg's fixed-capacity state is planned as the first layer
 * of a scalable filter, not as a blocked filter for the target rate
 */
static inline bool
bt_api_plans_states_as_layers(BtApiVersion api)
{
	return api >= BT_API_1_2;
}

/*
 * Whether bloom_agg's fixed-capacity state starts light (kind 7: the keys'
 * hashes, until they would take more room than the state's bits)
 */
static inline bool
bt_api_starts_states_light(BtApiVersion api)
{
	return api >= BT_API_1_5;
}

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

extern const BtCacheMethods bf_probe_as_blocked;
extern const BtCacheMethods bf_probe_as_scalable;

/* The probe cache's methods for a filter argument as api reads it */
static inline const BtCacheMethods *
bf_probe_methods(BtApiVersion api)
{
	return bt_api_reads_hashlist_as_scalable(api) ? &bf_probe_as_scalable :
		&bf_probe_as_blocked;
}

extern const BtTypeMethods bf_type;

static inline void
bf_decode_or_error(struct varlena *v, BloomFilter *f)
{
	bt_decode_or_error(&bf_type, v, f);
}

extern struct varlena *bf_materialize(BloomFilter *st, BtApiVersion api,
									  BloomPlan *plan, MemoryContext cxt);
extern struct varlena *bf_as_filter(struct varlena *v, BloomFilter *f,
									struct varlena *orig, BtApiVersion api,
									bool copy);
extern struct varlena *bf_arg(FunctionCallInfo fcinfo, int argno, BloomFilter *f,
							  BtApiVersion api, bool copy);
extern struct varlena *bf_light_view(const BloomFilter *st, MemoryContext cxt,
									 BloomLightView *v);
extern struct varlena *bf_read_arg(FunctionCallInfo fcinfo, int argno, BloomFilter *f,
								   BloomLightView *v, bool *light, BtApiVersion api);

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

/* bf_window.c */
extern void bf_window_needs_time(void);
extern Interval *bf_window_interval(const BloomFilter *f);
extern struct varlena *bf_add_target(FunctionCallInfo fcinfo, BtApiVersion api,
									 BloomFilter *f);

/*
 * The common bodies of the SQL-visible functions, for the SQL-API version
 * that binds the entry point (bf_legacy.c binds the older ones)
 */

/* bf_funcs.c */
extern bool bf_unite_as_states(const BloomFilter *a, const BloomFilter *b);
extern void bf_check_compatible(const BloomFilter *a, const BloomFilter *b);
extern struct varlena *bf_merge_into(BloomFilter *fa, const BloomFilter *fb,
									 bool intersect, MemoryContext cxt);
extern Datum bf_contains(FunctionCallInfo fcinfo, BloomKeyEnc enc, BtApiVersion api);
extern Datum bf_add(FunctionCallInfo fcinfo, BloomKeyEnc enc, BtApiVersion api);
extern Datum bf_merge(FunctionCallInfo fcinfo, bool intersect, BtApiVersion api);
extern Datum bf_info(FunctionCallInfo fcinfo, BtApiVersion api);
extern Datum bf_cardinality(FunctionCallInfo fcinfo, BtApiVersion api);

/* bf_batch.c */
extern Datum bf_add_all(FunctionCallInfo fcinfo, BtApiVersion api);
extern const BtBatchProbe *bf_batch_probe(BtApiVersion api);

/* bf_agg.c */
extern Datum bf_agg_final(FunctionCallInfo fcinfo, BtApiVersion api);
extern Datum bf_union_trans(FunctionCallInfo fcinfo, BtApiVersion api);

#endif							/* BLOOM_FAMILY_H */
