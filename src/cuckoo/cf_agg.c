/*-------------------------------------------------------------------------
 *
 * cf_agg.c
 *		Aggregates of the cuckoofilter family: cuckoo_agg and
 *		cuckoo_union_agg.
 *
 * Each row adds a copy of its key (cuckoo_agg(DISTINCT key) for a set).
 * The state is a hash list (kind 2), one 8-byte hash per row: version 1
 * without a capacity, version 3 with the capacity given.  Partial states
 * append; the final step builds the filter (of that capacity, else sized
 * for the distinct hashes) with cuckoo_empty's defaults, adding the hashes
 * in sorted order, so that its bytes do not depend on the plan.  (A
 * filter as the state would combine by reinserting fingerprints, which
 * fails when two partial filters' sub-filters of one size together hold
 * more than it takes: a fingerprint has no bits for a larger one.)
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

/*
 * a | b of two hash lists with a capacity (a's value, decoded into fa; fb
 * b's): b's hashes appended to a copy of a, as the aggregate's combine
 * appends partial states, so that a union of lists stays as small as they
 * are and stands for the filter of both lists' rows
 */
struct varlena *
cf_list_union(struct varlena *a, CuckooFilter *fa, const CuckooFilter *fb, BloomPlan *plan)
{
	BloomParam	param = fa->hdr.seed != fb->hdr.seed ? BLOOM_PARAM_SEED :
		fa->hdr.capacity != fb->hdr.capacity ? BLOOM_PARAM_CAPACITY :
		fa->hdr.fpr != fb->hdr.fpr ? BLOOM_PARAM_FPR : BLOOM_PARAM_NONE;

	if (param != BLOOM_PARAM_NONE)
		bt_param_mismatch(CF_PLURAL, param, NULL, NULL, CF_COMBINE_HINT);
	a = bt_copy_into(a, CurrentMemoryContext);
	cf_decode_or_error(a, fa);
	return bt_hashlist_combine(&fa->hdr, &fb->hdr, plan, &list_agg);
}

static Datum
agg_trans_common(FunctionCallInfo fcinfo, BloomKeyEnc enc)
{
	BtCallCache *cache = bt_call_cache(fcinfo);
	int64		capacity;
	double		fpr;
	struct varlena *state;
	BloomKeyInfo *ki;
	CuckooFilter f;
	uint64		h;
	int			nargs;

	nargs = bt_agg_trans_params(fcinfo, AGGNAME, &capacity, &fpr);
	(void) bt_agg_context(fcinfo, "cuckoo_agg_trans");
	if (PG_ARGISNULL(0))
	{
		/* the executor copies the first state into the aggregate context */
		cf_check_params(nargs == 4 ? capacity : 1, fpr, CUCKOO_DEFAULT_BUCKET,
						CUCKOO_DEFAULT_KICKS, CUCKOO_DEFAULT_EXPANSION);
		if (nargs == 4 && cuckoo_max_capacity(fpr, CUCKOO_DEFAULT_BUCKET,
											  CUCKOO_DEFAULT_EXPANSION) < (uint64) capacity)
			(void) cf_new((uint64) capacity, fpr, CUCKOO_DEFAULT_BUCKET, CUCKOO_DEFAULT_KICKS,
						  CUCKOO_DEFAULT_EXPANSION, CurrentMemoryContext, NULL);	/* its ERROR */
		state = bt_new_hashlist(BLOOM_HASHLIST_MIN_SLOTS, nargs == 4 ? (uint64) capacity : 0, fpr);
	}
	else
		state = bt_plain_state(PG_GETARG_DATUM(0));
	cf_decode_or_error(state, &f);
	if (f.hdr.fpr != fpr || f.hdr.kind != BLOOM_KIND_HASHLIST ||
		f.hdr.capacity != (uint64) capacity)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cuckoo_agg capacity and false-positive rate must be the same for every row")));
	if (PG_ARGISNULL(1))
		PG_RETURN_POINTER(state);	/* NULL keys are ignored */

	ki = bt_cache_key(fcinfo, enc, false);
	bt_admit_key(CF_NOUN, &f.hdr, ki);
	h = bloom_key_hash_fast(ki, PG_GETARG_DATUM(1), f.hdr.seed);
	PG_RETURN_POINTER(bt_hashlist_push_row(&f.hdr, h, &cache->plan, &list_agg));
}

#define AGG_TRANS_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(cuckoo_agg_trans, suffix, agg_trans_common(fcinfo, enc))

BT_KEY_TYPES(AGG_TRANS_, BT_NO_ALIAS)

/*
 * Combines two partial states (state 1 in place when it has room):
 * filters unite, hash lists append.  Also cuckoo_union_agg's transition,
 * where the second argument is a filter (a hash list becomes its filter).
 */
static Datum
combine_common(FunctionCallInfo fcinfo, const char *fname, bool values)
{
	BtCallCache *cache = bt_call_cache(fcinfo);
	struct varlena *s1,
			   *s2;
	CuckooFilter f1,
				f2;

	(void) bt_agg_context(fcinfo, fname);
	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	s2 = PG_DETOAST_DATUM(PG_GETARG_DATUM(1));
	cf_decode_or_error(s2, &f2);
	if (values && f2.hdr.kind == BLOOM_KIND_HASHLIST && !bloom_is_empty_hashlist(&f2.hdr))
		s2 = cf_materialize(&f2, CurrentMemoryContext);
	if (PG_ARGISNULL(0))
		PG_RETURN_POINTER(s2);
	if (bloom_is_empty_hashlist(&f2.hdr))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	s1 = bt_plain_state(PG_GETARG_DATUM(0));
	cf_decode_or_error(s1, &f1);
	if (bloom_is_empty_hashlist(&f1.hdr))
		PG_RETURN_POINTER(s2);
	if (f1.hdr.kind != f2.hdr.kind)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot combine an auto-sized cuckoo_agg state with a fixed-capacity one")));
	if (f1.hdr.kind == BLOOM_KIND_CUCKOO)
		PG_RETURN_POINTER(cf_merge_into(&f1, &f2, CurrentMemoryContext));
	PG_RETURN_POINTER(bt_hashlist_combine(&f1.hdr, &f2.hdr, &cache->plan, &list_agg));
}

PG_FUNCTION_INFO_V1(cuckoo_agg_combine);
Datum
cuckoo_agg_combine(PG_FUNCTION_ARGS)
{
	return combine_common(fcinfo, "cuckoo_agg_combine", false);
}

PG_FUNCTION_INFO_V1(cuckoo_union_trans);
Datum
cuckoo_union_trans(PG_FUNCTION_ARGS)
{
	return combine_common(fcinfo, "cuckoo_union_trans", true);
}

/*
 * The final step leaves the state as it is and returns a new value.  No
 * rows: an empty filter of the call's capacity when it is known, else an
 * empty hash list (it holds nothing and unites with any filter).
 */
PG_FUNCTION_INFO_V1(cuckoo_agg_final);
Datum
cuckoo_agg_final(PG_FUNCTION_ARGS)
{
	struct varlena *state;
	CuckooFilter f;

	if (PG_ARGISNULL(0))
	{
		int64		capacity;
		double		fpr;
		int			nargs = bt_agg_const_params(fcinfo, &capacity, &fpr);

		if (nargs >= 2)
			cf_check_params(nargs == 3 ? capacity : 1, fpr, CUCKOO_DEFAULT_BUCKET,
							CUCKOO_DEFAULT_KICKS, CUCKOO_DEFAULT_EXPANSION);
		if (capacity > 0)
			PG_RETURN_POINTER(cf_new((uint64) capacity, fpr, CUCKOO_DEFAULT_BUCKET,
									 CUCKOO_DEFAULT_KICKS, CUCKOO_DEFAULT_EXPANSION,
									 CurrentMemoryContext, NULL));
		PG_RETURN_POINTER(bt_new_hashlist(0, 0, fpr));
	}
	state = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	cf_decode_or_error(state, &f);
	if (f.hdr.kind == BLOOM_KIND_CUCKOO)
		PG_RETURN_POINTER(bt_copy_into(state, CurrentMemoryContext));
	/* NULL keys only, without a capacity: what no rows give */
	if (bloom_is_empty_hashlist(&f.hdr) && f.hdr.capacity == 0)
		PG_RETURN_POINTER(bt_new_hashlist(0, 0, f.hdr.fpr));
	PG_RETURN_POINTER(cf_materialize(&f, CurrentMemoryContext));
}
