/*-------------------------------------------------------------------------
 *
 * cf_family.c
 *		The cuckoofilter family described for the shared glue
 *		(cf_family, a BtFamily of src/pg/glue_family.h): what it does with
 *		a hash and with cuckoo_agg's states.
 *
 * cuckoo_agg's state is always a hash list (kind 2): version 1 without a
 * capacity, version 3 with the capacity given; cuckoo_union_agg's states
 * are filters, which unite by reinserting fingerprints.
 *
 *-------------------------------------------------------------------------
 */
#include "cf.h"

#define AGGNAME "cuckoo_agg"

/* its hash lists: a bucket pair holds 4 copies of a key (the default size) */
static const BtListAgg list_agg = {
	.aggname = AGGNAME,
	.plural = CF_PLURAL,
	.maxcopies = CUCKOO_DEFAULT_BUCKET,
	.limit_hint = "Build the filter in parts: cuckoo_add_all(f, keys) over batches of rows.",
};

/* f is the header (hdr) a CuckooFilter begins with: that CuckooFilter */
#define CF(f)	((CuckooFilter *) (f))

/* a hash list becomes its filter */
static struct varlena *
to_filter(BloomFilter *f)
{
	return cf_materialize(CF(f), CurrentMemoryContext);
}

static BloomParam
compatible(const BloomFilter *a, const BloomFilter *b)
{
	return cuckoo_compatible((const CuckooFilter *) a, (const CuckooFilter *) b);
}

/* a full filter grows by a sub-filter: the value may move */
static struct varlena *
add_hash(struct varlena *v, BloomFilter *f, uint64 h, bool only_new)
{
	return cf_add_hash(v, CF(f), h, only_new, CurrentMemoryContext);
}

static void
remove_hash(BloomFilter *f, uint64 h)
{
	(void) cuckoo_remove(CF(f), h);
}

/* the parameters and filters of cuckoo_empty's defaults */
static void
check_params(int64 capacity, double fpr)
{
	cf_check_params(capacity, fpr, CUCKOO_DEFAULT_BUCKET, CUCKOO_DEFAULT_KICKS,
					CUCKOO_DEFAULT_EXPANSION);
}

static struct varlena *
new_filter(uint64 capacity, double fpr, BloomPlan *plan, BloomFilter *f)
{
	return cf_new(capacity, fpr, CUCKOO_DEFAULT_BUCKET, CUCKOO_DEFAULT_KICKS,
				  CUCKOO_DEFAULT_EXPANSION, CurrentMemoryContext, CF(f));
}

/*
 * A hash list, with the capacity when given (nargs 4), after the checks
 * cuckoo_empty's defaults take: a capacity no filter can have raises
 * cf_new's error
 */
static struct varlena *
agg_new_state(int nargs, int64 capacity, double fpr, BloomPlan *plan, bool light)
{
	check_params(nargs == 4 ? capacity : 1, fpr);
	if (nargs == 4 && cuckoo_max_capacity(fpr, CUCKOO_DEFAULT_BUCKET,
										  CUCKOO_DEFAULT_EXPANSION) < (uint64) capacity)
		(void) new_filter((uint64) capacity, fpr, plan, NULL);	/* its ERROR */
	return bt_new_hashlist(BLOOM_HASHLIST_MIN_SLOTS, nargs == 4 ? (uint64) capacity : 0, fpr);
}

static bool
agg_state_fits(const BloomFilter *f, int nargs, int64 capacity, double fpr)
{
	return !(f->fpr != fpr || f->kind != BLOOM_KIND_HASHLIST ||
			 f->capacity != (uint64) capacity);
}

static struct varlena *
agg_add_row(struct varlena *state, BloomFilter *f, uint64 h, BloomPlan *plan)
{
	return bt_hashlist_push_row(f, h, plan, &list_agg);
}

/* a hash list becomes its filter */
static struct varlena *
agg_as_value(struct varlena *v, BloomFilter *f, BloomPlan *plan)
{
	if (f->kind == BLOOM_KIND_HASHLIST && !bloom_is_empty_hashlist(f))
		return cf_materialize(CF(f), CurrentMemoryContext);
	return v;
}

/* two filters: f2's fingerprints reinserted into f1's value */
static struct varlena *
agg_merge(BloomFilter *f1, BloomFilter *f2)
{
	return cf_merge_into(CF(f1), CF(f2), CurrentMemoryContext);
}

/*
 * The final step's value: a copy of a filter, a hash list's filter (of
 * its capacity when it has one); NULL keys only, without a capacity: what
 * no rows give
 */
static struct varlena *
agg_final(struct varlena *state, BloomFilter *f, BloomPlan *plan)
{
	if (f->kind == BLOOM_KIND_CUCKOO)
		return bt_copy_into(state, CurrentMemoryContext);
	if (bloom_is_empty_hashlist(f) && f->capacity == 0)
		return bt_new_hashlist(0, 0, f->fpr);
	return cf_materialize(CF(f), CurrentMemoryContext);
}

const BtFamily cf_family = {
	.type = &cf_type,
	.noun = CF_NOUN,
	.plural = CF_PLURAL,
	.combine_hint = CF_COMBINE_HINT,
	.aggname = AGGNAME,
	.trans_fname = "cuckoo_agg_trans",
	.list_agg = &list_agg,
	.probe_methods = &cf_probe_methods,
	.filter_kind = BLOOM_KIND_CUCKOO,
	.create_capacity = CF_CREATE_CAPACITY,
	.to_filter = to_filter,
	.compatible = compatible,
	.add_hash = add_hash,
	.remove_hash = remove_hash,
	.contains = cf_contains,
	.count = cf_count,
	.agg_new_state = agg_new_state,
	.agg_state_fits = agg_state_fits,
	.agg_add_row = agg_add_row,
	.agg_as_value = agg_as_value,
	.agg_merge = agg_merge,
	.agg_final = agg_final,
	.check_params = check_params,
	.new_filter = new_filter,
};
