/*-------------------------------------------------------------------------
 *
 * cf.h
 *		The cuckoofilter family's glue: what its files share.
 *
 *	cf_value.c		the type (I/O methods), reading arguments, parameter
 *					checks, new filters, adding with growth, and the filter an
 *					aggregate's hash list stands for
 *	cf_funcs.c		empty, add, add_new, remove, contains, count, compact,
 *					union, info
 *	cf_batch.c		the batch forms over arrays
 *	cf_agg.c		cuckoo_agg and cuckoo_union_agg
 *	cf_family.c		the family described for the shared glue (cf_family)
 *
 *-------------------------------------------------------------------------
 */
#ifndef CUCKOO_FAMILY_H
#define CUCKOO_FAMILY_H

#include "glue_family.h"

#define CF_NOUN				"cuckoo filter"
#define CF_PLURAL			"cuckoo filters"
/* what combines, the hint of a mismatch */
#define CF_COMBINE_HINT		"Only cuckoo filters made with the same capacity, false-positive rate, bucket size, max kicks and expansion combine."
/* cuckoo_add(NULL, key) makes a filter of this many keys at 1% */
#define CF_CREATE_CAPACITY	1000

/*
 * What a probe reads (the per-call cache's decoded form): a cuckoo filter,
 * or the filter a hash list with a capacity stands for, simulated, its
 * buckets in table (cuckoo_list.c)
 */
typedef struct CfProbe
{
	CuckooFilter f;
	CkTable		table;
} CfProbe;

/* cf_family.c */
extern const BtFamily cf_family;

/* cf_value.c */
extern const BtTypeMethods cf_type;
extern const BtCacheMethods cf_probe_methods;
extern struct varlena *cf_materialize(CuckooFilter *st, MemoryContext cxt);
extern void cf_simulate(CuckooFilter *f, CkTable *t, MemoryContext cxt);
extern void cf_check_params(int64 capacity, double fpr, int32 bucket_size,
							int32 max_kicks, int32 expansion);
extern struct varlena *cf_new(uint64 capacity, double fpr, int32 bucket_size,
							  int32 max_kicks, int32 expansion, MemoryContext cxt,
							  CuckooFilter *f);
extern struct varlena *cf_add_hash(struct varlena *v, CuckooFilter *f, uint64 h,
								   bool only_new, MemoryContext cxt);
extern struct varlena *cf_merge_into(CuckooFilter *fa, const CuckooFilter *fb,
									 MemoryContext cxt);

static inline void
cf_decode_or_error(struct varlena *v, CuckooFilter *f)
{
	bt_decode_or_error(&cf_type, v, f);
}

/* argument argno as the cuckoo filter it is or stands for */
static inline struct varlena *
cf_arg(FunctionCallInfo fcinfo, int argno, CuckooFilter *f, bool copy)
{
	return bt_family_arg(fcinfo, &cf_family, argno, &f->hdr, copy);
}

/* a probe's answers; f is the header (hdr) a CuckooFilter begins with */
static inline bool
cf_contains(const BloomFilter *f, uint64 h)
{
	return cuckoo_contains((const CuckooFilter *) f, h);
}

static inline unsigned
cf_count(const BloomFilter *f, uint64 h)
{
	return cuckoo_count((const CuckooFilter *) f, h);
}

/* cf_agg.c */
extern struct varlena *cf_list_union(struct varlena *a, CuckooFilter *fa,
									 const CuckooFilter *fb, BloomPlan *plan);

#endif							/* CUCKOO_FAMILY_H */
