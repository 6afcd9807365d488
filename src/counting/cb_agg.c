/*-------------------------------------------------------------------------
 *
 * cb_agg.c
 *		Aggregates of the countingbloom family: counting_agg and
 *		counting_union_agg.
 *
 * Each row adds a copy of its key (counting_agg(DISTINCT key) for a set).
 * With a capacity the state is the counting filter itself, updated in
 * place in the aggregate context; partial states combine by adding
 * counters, which gives the same bytes in any order.  From 1.5 that state
 * starts light (kind 8: the rows' hashes, src/core/counting_light.c) and
 * becomes the filter when the hashes would take more room, so that a
 * partial state of few keys for its capacity is small on the wire.  Without one
 * (auto-sizing) the state is a hash list (kind 2), one 8-byte hash per
 * row, and the final step builds a filter sized for its distinct hashes.
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

/* counting_agg(key), (key, fpr), (key, capacity, fpr) */
static Datum
agg_trans_common(FunctionCallInfo fcinfo, BloomKeyEnc enc, bool light)
{
	BtCallCache *cache = bt_call_cache(fcinfo);
	int64		capacity;
	double		fpr;
	struct varlena *state;
	BloomKeyInfo *ki;
	BloomFilter f;
	uint64		h;
	int			nargs;

	nargs = bt_agg_trans_params(fcinfo, AGGNAME, &capacity, &fpr);
	(void) bt_agg_context(fcinfo, "counting_agg_trans");
	if (PG_ARGISNULL(0))
	{
		/* the executor copies the first state into the aggregate context */
		if (nargs == 4 && light)
			state = new_light((uint64) capacity, fpr, &cache->plan);
		else if (nargs == 4)
			state = cb_new((uint64) capacity, fpr, &cache->plan, CurrentMemoryContext, NULL);
		else
		{
			cb_check_params(1, fpr);
			state = bt_new_hashlist(BLOOM_HASHLIST_MIN_SLOTS, 0, fpr);
		}
	}
	else
		state = bt_plain_state(PG_GETARG_DATUM(0));
	cb_decode_or_error(state, &f);
	if (f.fpr != fpr || (nargs == 4 && f.capacity != (uint64) capacity) ||
		(nargs < 4 && f.kind != BLOOM_KIND_HASHLIST))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("counting_agg capacity and false-positive rate must be the same for every row")));
	if (PG_ARGISNULL(1))
		PG_RETURN_POINTER(state);	/* NULL keys are ignored */

	ki = bt_cache_key(fcinfo, enc, false);
	bt_admit_key(CB_NOUN, &f, ki);
	h = bloom_key_hash_fast(ki, PG_GETARG_DATUM(1), f.seed);
	if (f.kind == BLOOM_KIND_COUNTING)
	{
		counting_add(&f, h);
		PG_RETURN_POINTER(state);
	}
	if (f.kind == BLOOM_KIND_SPARSE_COUNTING)
	{
		state = bt_light_push(&f, state, h, AGGNAME);
		f.nitems = bloom_sat_add(f.nitems, 1);
		bloom_store_items(&f);
		PG_RETURN_POINTER(state);
	}
	PG_RETURN_POINTER(bt_hashlist_push_row(&f, h, &cache->plan, &list_agg));
}

/* the _light entry points (1.5) start fixed-capacity states light */
#define AGG_TRANS_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(counting_agg_trans, suffix, agg_trans_common(fcinfo, enc, false)) \
	BT_KEY_ENTRY(counting_agg_trans, suffix##_light, agg_trans_common(fcinfo, enc, true))

BT_KEY_TYPES(AGG_TRANS_, BT_NO_ALIAS)

/*
 * Combines two partial states (state 1 in place): filters add counters,
 * hash lists append.  Also counting_union_agg's transition, where the
 * second argument is a filter: then a hash list becomes its filter first.
 */
static Datum
combine_common(FunctionCallInfo fcinfo, const char *fname, bool values)
{
	BtCallCache *cache = bt_call_cache(fcinfo);
	struct varlena *s1,
			   *s2;
	BloomFilter f1,
				f2;

	(void) bt_agg_context(fcinfo, fname);
	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	s2 = PG_DETOAST_DATUM(PG_GETARG_DATUM(1));
	cb_decode_or_error(s2, &f2);
	if (values && f2.kind == BLOOM_KIND_HASHLIST && !bloom_is_empty_hashlist(&f2))
		s2 = cb_materialize(&f2, &cache->plan, CurrentMemoryContext);
	else if (values && f2.kind == BLOOM_KIND_SPARSE_COUNTING)
		s2 = cb_densify(&f2, CurrentMemoryContext);
	if (PG_ARGISNULL(0))
		PG_RETURN_POINTER(s2);
	if (bloom_is_empty_hashlist(&f2))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	s1 = bt_plain_state(PG_GETARG_DATUM(0));
	cb_decode_or_error(s1, &f1);
	if (bloom_is_empty_hashlist(&f1))
		PG_RETURN_POINTER(s2);
	if ((f1.kind == BLOOM_KIND_HASHLIST) != (f2.kind == BLOOM_KIND_HASHLIST))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot combine an auto-sized counting_agg state with a fixed-capacity one")));
	if (f1.kind != BLOOM_KIND_HASHLIST)
	{
		/* filters and light states (kinds 5 and 8) */
		BloomAlloc	a = bt_allocator(CurrentMemoryContext);
		BloomStatus st;

		cb_check_compatible(&f1, &f2);
		if ((st = counting_state_merge(&f1, &f2, &a)) != BLOOM_OK)
			elog(ERROR, "could not combine counting_agg states: %s", bloom_status_message(st));
		PG_RETURN_POINTER(bt_varlena(f1.base));
	}
	PG_RETURN_POINTER(bt_hashlist_combine(&f1, &f2, &cache->plan, &list_agg));
}

PG_FUNCTION_INFO_V1(counting_agg_combine);
Datum
counting_agg_combine(PG_FUNCTION_ARGS)
{
	return combine_common(fcinfo, "counting_agg_combine", false);
}

PG_FUNCTION_INFO_V1(counting_union_trans);
Datum
counting_union_trans(PG_FUNCTION_ARGS)
{
	return combine_common(fcinfo, "counting_union_trans", true);
}

/*
 * The final step leaves the state as it is and returns a new value: a
 * hash list becomes the filter it stands for.  No rows: an empty filter
 * of the call's capacity when it is known, else an empty hash list (it
 * holds nothing and unites with a filter of any size).
 */
PG_FUNCTION_INFO_V1(counting_agg_final);
Datum
counting_agg_final(PG_FUNCTION_ARGS)
{
	BtCallCache *cache = bt_call_cache(fcinfo);
	struct varlena *state;
	BloomFilter f;

	if (PG_ARGISNULL(0))
	{
		int64		capacity;
		double		fpr;
		int			nargs = bt_agg_const_params(fcinfo, &capacity, &fpr);

		if (nargs >= 2)
			cb_check_params(nargs == 3 ? capacity : 1, fpr);
		if (capacity > 0)
			PG_RETURN_POINTER(cb_new((uint64) capacity, fpr, &cache->plan,
									 CurrentMemoryContext, NULL));
		PG_RETURN_POINTER(bt_new_hashlist(0, 0, fpr));
	}
	state = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	cb_decode_or_error(state, &f);
	if (f.kind == BLOOM_KIND_COUNTING)
		PG_RETURN_POINTER(bt_copy_into(state, CurrentMemoryContext));
	if (f.kind == BLOOM_KIND_SPARSE_COUNTING)
		PG_RETURN_POINTER(cb_densify(&f, CurrentMemoryContext));
	/* NULL keys only, auto-sized: what no rows give */
	if (bloom_is_empty_hashlist(&f))
		PG_RETURN_POINTER(bt_new_hashlist(0, 0, f.fpr));
	PG_RETURN_POINTER(cb_materialize(&f, &cache->plan, CurrentMemoryContext));
}
