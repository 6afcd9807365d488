/*-------------------------------------------------------------------------
 *
 * cb_family.c
 *		The countingbloom family described for the shared glue
 *		(cb_family, a BtFamily of src/pg/glue_family.h): what it does with
 *		a hash and with counting_agg's states.
 *
 * counting_agg's state: with a capacity the counting filter itself,
 * updated in place, or (the _light entry points) a light state (kind 8)
 * that becomes the filter when its hashes would take more room; without
 * one a hash list (kind 2).  Filters and light states combine by adding counters.
 *
 *-------------------------------------------------------------------------
 */
#include "cbf.h"

#define AGGNAME "counting_agg"

/* the auto-sized forms' hash lists: counters stop at 15 copies of a key */
static const BtListAgg list_agg = {
	.aggname = AGGNAME,
	.plural = CB_PLURAL,
	.maxcopies = COUNTING_SATURATED,
	.limit_hint = "Give the capacity: counting_agg(key, capacity, fpr) keeps the filter itself.",
};

/*
 * The decoded form is the header itself: counting_compatible, cb_contains
 * and cb_count serve as they are
 */

/* a hash list becomes its filter, a light state its counting filter */
static struct varlena *
to_filter(BloomFilter *f)
{
	if (f->kind == BLOOM_KIND_SPARSE_COUNTING)
		return cb_densify(f, CurrentMemoryContext);
	return cb_materialize(f, NULL, CurrentMemoryContext);
}

/* counters grow in place: the value stays where it is */
static struct varlena *
add_hash(struct varlena *v, BloomFilter *f, uint64 h, bool only_new)
{
	counting_add(f, h);
	return v;
}

static void
remove_hash(BloomFilter *f, uint64 h)
{
	(void) counting_remove(f, h);
}

/*
 * A light state of counting_agg(key, capacity, fpr) in the per-call
 * context (the executor copies it into the aggregate context), with
 * cb_new's errors: a capacity that does not fit goes to cb_new, which
 * plans, raises its error, and allocates nothing
 */
static struct varlena *
new_light(uint64 capacity, double fpr, BloomPlan *plan)
{
	BloomAlloc	a = bt_allocator(CurrentMemoryContext);
	BloomFilter f;
	BloomStatus st;

	cb_check_params((int64) capacity, fpr);
	st = counting_new_sparse(capacity, fpr, plan, &a, &f);
	if (st == BLOOM_E_CAPACITY)
		return cb_new(capacity, fpr, plan, CurrentMemoryContext, NULL);
	if (st != BLOOM_OK)
		elog(ERROR, "could not make a counting_agg state: %s", bloom_status_message(st));
	return bt_varlena(f.base);
}

/* the _light entry points start fixed-capacity states light */
static struct varlena *
agg_new_state(int nargs, int64 capacity, double fpr, BloomPlan *plan, bool light)
{
	if (nargs == 4 && light)
		return new_light((uint64) capacity, fpr, plan);
	if (nargs == 4)
		return cb_new((uint64) capacity, fpr, plan, CurrentMemoryContext, NULL);
	cb_check_params(1, fpr);
	return bt_new_hashlist(BLOOM_HASHLIST_MIN_SLOTS, 0, fpr);
}

static bool
agg_state_fits(const BloomFilter *f, int nargs, int64 capacity, double fpr)
{
	return !(f->fpr != fpr || (nargs == 4 && f->capacity != (uint64) capacity) ||
			 (nargs < 4 && f->kind != BLOOM_KIND_HASHLIST));
}

static struct varlena *
agg_add_row(struct varlena *state, BloomFilter *f, uint64 h, BloomPlan *plan)
{
	if (f->kind == BLOOM_KIND_COUNTING)
	{
		counting_add(f, h);
		return state;
	}
	if (f->kind == BLOOM_KIND_SPARSE_COUNTING)
	{
		state = bt_light_push(f, state, h, AGGNAME);
		f->nitems = bloom_sat_add(f->nitems, 1);
		bloom_store_items(f);
		return state;
	}
	return bt_hashlist_push_row(f, h, plan, &list_agg);
}

/* a hash list becomes its filter, a light state its counting filter */
static struct varlena *
agg_as_value(struct varlena *v, BloomFilter *f, BloomPlan *plan)
{
	if (f->kind == BLOOM_KIND_HASHLIST && !bloom_is_empty_hashlist(f))
		return cb_materialize(f, plan, CurrentMemoryContext);
	if (f->kind == BLOOM_KIND_SPARSE_COUNTING)
		return cb_densify(f, CurrentMemoryContext);
	return v;
}

/* filters and light states (kinds 5 and 8): counters add */
static struct varlena *
agg_merge(BloomFilter *f1, BloomFilter *f2)
{
	BloomAlloc	a = bt_allocator(CurrentMemoryContext);
	BloomStatus st;

	bt_family_check_compatible(&cb_family, f1, f2);
	if ((st = counting_state_merge(f1, f2, &a)) != BLOOM_OK)
		elog(ERROR, "could not combine counting_agg states: %s", bloom_status_message(st));
	return bt_varlena(f1->base);
}

/*
 * The final step's value: a copy of a filter, a light state's counting
 * filter, a hash list's filter; NULL keys only (an empty hash list): what
 * no rows give
 */
static struct varlena *
agg_final(struct varlena *state, BloomFilter *f, BloomPlan *plan)
{
	if (f->kind == BLOOM_KIND_COUNTING)
		return bt_copy_into(state, CurrentMemoryContext);
	if (f->kind == BLOOM_KIND_SPARSE_COUNTING)
		return cb_densify(f, CurrentMemoryContext);
	if (bloom_is_empty_hashlist(f))
		return bt_new_hashlist(0, 0, f->fpr);
	return cb_materialize(f, plan, CurrentMemoryContext);
}

static struct varlena *
new_filter(uint64 capacity, double fpr, BloomPlan *plan, BloomFilter *f)
{
	return cb_new(capacity, fpr, plan, CurrentMemoryContext, f);
}

const BtFamily cb_family = {
	.type = &cb_type,
	.noun = CB_NOUN,
	.plural = CB_PLURAL,
	.combine_hint = "Only counting filters made with the same capacity and false-positive rate combine, e.g. from counting_empty(capacity, fpr) or counting_agg(key, capacity, fpr).",
	.aggname = AGGNAME,
	.trans_fname = "counting_agg_trans",
	.list_agg = &list_agg,
	.probe_methods = &cb_probe_methods,
	.filter_kind = BLOOM_KIND_COUNTING,
	.create_capacity = CB_CREATE_CAPACITY,
	.to_filter = to_filter,
	.compatible = counting_compatible,
	.add_hash = add_hash,
	.remove_hash = remove_hash,
	.contains = cb_contains,
	.count = cb_count,
	.agg_new_state = agg_new_state,
	.agg_state_fits = agg_state_fits,
	.agg_add_row = agg_add_row,
	.agg_as_value = agg_as_value,
	.agg_merge = agg_merge,
	.agg_final = agg_final,
	.check_params = cb_check_params,
	.new_filter = new_filter,
};
