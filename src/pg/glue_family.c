/*-------------------------------------------------------------------------
 *
 * glue_family.c
 *		The skeletons of the SQL functions that the countingbloom and
 *		cuckoofilter families share, driven by a family's descriptor
 *		(BtFamily, glue_family.h): add, remove, contains and count of a
 *		key, the batch adds and removes, and the aggregates' transition,
 *		combine and final step.
 *
 * Here are the NULL rules, the key's checks and the order of the steps;
 * the descriptor gives what a family does with a hash or a state.
 *
 *-------------------------------------------------------------------------
 */
#include "glue_family.h"

#include "access/detoast.h"

/*
 * Argument argno as a detoasted, validated filter of the family, decoded
 * into f (an aggregate's state as the filter it stands for).  With copy
 * the result is a private copy the caller may modify.
 */
struct varlena *
bt_family_arg(FunctionCallInfo fcinfo, const BtFamily *fam, int argno, BloomFilter *f,
			  bool copy)
{
	struct varlena *orig = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(argno));
	struct varlena *v = PG_DETOAST_DATUM(PG_GETARG_DATUM(argno));

	bt_decode_or_error(fam->type, v, f);
	if (f->kind != fam->filter_kind)
		return fam->to_filter(f);
	if (copy && v == orig)
	{
		v = bt_copy_into(orig, CurrentMemoryContext);
		bt_decode_or_error(fam->type, v, f);
	}
	return v;
}

/*
 * What an add adds to: a private copy of argument 0, or a new filter of
 * the family's create_capacity keys at 1% where it is NULL.  NULL when
 * there is nothing to add (a NULL key).
 */
static struct varlena *
add_target(FunctionCallInfo fcinfo, const BtFamily *fam, BloomFilter *f)
{
	if (PG_ARGISNULL(1))
		return NULL;
	if (!PG_ARGISNULL(0))
		return bt_family_arg(fcinfo, fam, 0, f, true);
	return fam->new_filter(fam->create_capacity, BLOOM_DEFAULT_FPR, NULL, f);
}

/*
 * a | b's arguments detoasted and decoded into fa and fb: the result when
 * one of them is an empty hash list (an aggregate of no rows that could
 * not know a size), the identity of a union; else NULL
 */
struct varlena *
bt_family_union_args(FunctionCallInfo fcinfo, const BtFamily *fam, struct varlena **a,
					 struct varlena **b, BloomFilter *fa, BloomFilter *fb)
{
	*a = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	*b = PG_DETOAST_DATUM(PG_GETARG_DATUM(1));
	bt_decode_or_error(fam->type, *a, fa);
	bt_decode_or_error(fam->type, *b, fb);
	if (bloom_is_empty_hashlist(fb))
		return *a;
	if (bloom_is_empty_hashlist(fa))
		return *b;
	return NULL;
}

/* Two filters that must combine: an ERROR naming what differs */
void
bt_family_check_compatible(const BtFamily *fam, const BloomFilter *a, const BloomFilter *b)
{
	BloomParam	param = fam->compatible(a, b);

	if (param == BLOOM_PARAM_NONE)
		return;
	if (param == BLOOM_PARAM_KEY_TYPE)
		bt_check_key_classes(fam->plural, a->key_class, a->key_type,
							 b->key_class, b->key_type);
	bt_param_mismatch(fam->plural, param, NULL, NULL, fam->combine_hint);
}

/*
 * <type>_add(f, key): f with one more copy of key (only_new: unless it may
 * be present).  (f, NULL) is f; (NULL, key) makes a filter.
 */
Datum
bt_family_add(FunctionCallInfo fcinfo, const BtFamily *fam, BloomKeyEnc enc,
			  bool only_new)
{
	BtAnyFilter f;
	BloomKeyInfo *ki;
	struct varlena *v;

	if ((v = add_target(fcinfo, fam, &f.hdr)) == NULL)
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	ki = bt_cache_key(fcinfo, enc, false);
	bt_admit_key(fam->noun, &f.hdr, ki);
	PG_RETURN_POINTER(fam->add_hash(v, &f.hdr, bloom_key_hash_fast(ki, PG_GETARG_DATUM(1),
															   f.hdr.seed),
									only_new));
}

/*
 * <type>_remove(f, key): f with one copy of key taken back; a key that is
 * certainly absent leaves f as it is.  (f, NULL) is f, (NULL, key) NULL.
 */
Datum
bt_family_remove(FunctionCallInfo fcinfo, const BtFamily *fam, BloomKeyEnc enc)
{
	BtAnyFilter f;
	BloomKeyInfo *ki;
	struct varlena *v;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(1) || bt_is_empty_state(fcinfo, 0))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	v = bt_family_arg(fcinfo, fam, 0, &f.hdr, true);
	ki = bt_cache_key(fcinfo, enc, false);
	if (f.hdr.key_class == BLOOM_KEY_NONE)
		PG_RETURN_POINTER(v);	/* holds nothing */
	bt_check_key(fam->noun, &f.hdr, ki);
	fam->remove_hash(&f.hdr, bloom_key_hash_fast(ki, PG_GETARG_DATUM(1), f.hdr.seed));
	PG_RETURN_POINTER(v);
}

/* The filter of a probe, from the call site's cache; NULL: holds nothing */
static inline const BloomFilter *
probe_filter(FunctionCallInfo fcinfo, const BtFamily *fam, BloomKeyEnc enc,
			 BloomKeyInfo **ki)
{
	const BloomFilter *f = bt_cache_value(fcinfo, fam->probe_methods);

	*ki = bt_cache_key(fcinfo, enc, false);
	if (f->key_class == BLOOM_KEY_NONE)
		return NULL;
	bt_check_key(fam->noun, f, *ki);
	return f;
}

/* <type>_contains(f, key): whether key may be present */
Datum
bt_family_contains(FunctionCallInfo fcinfo, const BtFamily *fam, BloomKeyEnc enc)
{
	BloomKeyInfo *ki;
	const BloomFilter *f = probe_filter(fcinfo, fam, enc, &ki);

	if (f == NULL)
		PG_RETURN_BOOL(false);
	PG_RETURN_BOOL(fam->contains(f, bloom_key_hash_fast(ki, PG_GETARG_DATUM(1),
														f->seed)));
}

/* <type>_count(f, key): how many copies of key f may hold */
Datum
bt_family_count(FunctionCallInfo fcinfo, const BtFamily *fam, BloomKeyEnc enc)
{
	BloomKeyInfo *ki;
	const BloomFilter *f = probe_filter(fcinfo, fam, enc, &ki);

	if (f == NULL)
		PG_RETURN_INT32(0);
	PG_RETURN_INT32((int32) fam->count(f, bloom_key_hash_fast(ki, PG_GETARG_DATUM(1),
															  f->seed)));
}

/*
 * <type>_add_all(f, keys) and <type>_remove_all(f, keys): f with a copy of
 * every non-NULL element added, or taken back (certainly absent ones change
 * nothing).  A NULL f: adding makes a filter, removing gives NULL.
 */
Datum
bt_family_change_all(FunctionCallInfo fcinfo, const BtFamily *fam, BtChange change)
{
	bool		add = change != BT_CHANGE_REMOVE;
	BtAnyFilter f;
	BloomKeyInfo *ki;
	struct varlena *v;
	BtBatchKeys keys;

	if (PG_ARGISNULL(0) && !add)
		PG_RETURN_NULL();
	if (!add && bt_is_empty_state(fcinfo, 0))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));	/* holds nothing to remove */
	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	v = add_target(fcinfo, fam, &f.hdr);
	ki = bt_cache_key(fcinfo, BKE_UNKNOWN, true);
	bt_hash_elements(fcinfo, ki, f.hdr.seed, &keys);
	for (int i = 0; i < keys.n; i++)
	{
		BT_CANCEL_POINT(i);
		if (keys.nulls[i])
			continue;
		if (add)
		{
			struct varlena *g;

			bt_admit_key(fam->noun, &f.hdr, ki);
			g = fam->add_hash(v, &f.hdr, keys.hashes[i], change == BT_CHANGE_ADD_NEW);
			if (g != v)
				pfree(v);
			v = g;
		}
		else if (f.hdr.key_class != BLOOM_KEY_NONE)
		{
			bt_check_key(fam->noun, &f.hdr, ki);
			fam->remove_hash(&f.hdr, keys.hashes[i]);
		}
	}
	PG_RETURN_POINTER(v);
}

/*
 * <aggname>(key), (key, fpr), (key, capacity, fpr): the state (the first
 * row's new one), checked against the row's parameters, then the row's key
 * added unless it is NULL
 */
Datum
bt_family_agg_trans(FunctionCallInfo fcinfo, const BtFamily *fam, BloomKeyEnc enc,
					bool light)
{
	BtCallCache *cache = bt_call_cache(fcinfo);
	int64		capacity;
	double		fpr;
	struct varlena *state;
	BloomKeyInfo *ki;
	BtAnyFilter f;
	uint64		h;
	int			nargs;

	nargs = bt_agg_trans_params(fcinfo, fam->aggname, &capacity, &fpr);
	(void) bt_agg_context(fcinfo, fam->trans_fname);
	if (PG_ARGISNULL(0))
	{
		/* the executor copies the first state into the aggregate context */
		state = fam->agg_new_state(nargs, capacity, fpr, &cache->plan, light);
	}
	else
		state = bt_plain_state(PG_GETARG_DATUM(0));
	bt_decode_or_error(fam->type, state, &f);
	if (!fam->agg_state_fits(&f.hdr, nargs, capacity, fpr))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s capacity and false-positive rate must be the same for every row",
						fam->aggname)));
	if (PG_ARGISNULL(1))
		PG_RETURN_POINTER(state);	/* NULL keys are ignored */

	ki = bt_cache_key(fcinfo, enc, false);
	bt_admit_key(fam->noun, &f.hdr, ki);
	h = bloom_key_hash_fast(ki, PG_GETARG_DATUM(1), f.hdr.seed);
	PG_RETURN_POINTER(fam->agg_add_row(state, &f.hdr, h, &cache->plan));
}

/*
 * Combines two partial states (state 1 in place where the family can):
 * filters and light states combine as the family says, hash lists append.
 * Also the union aggregate's transition (values), where the second
 * argument is a filter: then a state becomes its filter first.  An empty
 * hash list is the identity.
 */
Datum
bt_family_agg_combine(FunctionCallInfo fcinfo, const BtFamily *fam, const char *fname,
					  bool values)
{
	BtCallCache *cache = bt_call_cache(fcinfo);
	struct varlena *s1,
			   *s2;
	BtAnyFilter f1,
				f2;

	(void) bt_agg_context(fcinfo, fname);
	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	s2 = PG_DETOAST_DATUM(PG_GETARG_DATUM(1));
	bt_decode_or_error(fam->type, s2, &f2);
	if (values)
		s2 = fam->agg_as_value(s2, &f2.hdr, &cache->plan);
	if (PG_ARGISNULL(0))
		PG_RETURN_POINTER(s2);
	if (bloom_is_empty_hashlist(&f2.hdr))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	s1 = bt_plain_state(PG_GETARG_DATUM(0));
	bt_decode_or_error(fam->type, s1, &f1);
	if (bloom_is_empty_hashlist(&f1.hdr))
		PG_RETURN_POINTER(s2);
	if ((f1.hdr.kind == BLOOM_KIND_HASHLIST) != (f2.hdr.kind == BLOOM_KIND_HASHLIST))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot combine an auto-sized %s state with a fixed-capacity one",
						fam->aggname)));
	if (f1.hdr.kind != BLOOM_KIND_HASHLIST)
		PG_RETURN_POINTER(fam->agg_merge(&f1.hdr, &f2.hdr));
	PG_RETURN_POINTER(bt_hashlist_combine(&f1.hdr, &f2.hdr, &cache->plan, fam->list_agg));
}

/*
 * The final step leaves the state as it is and returns a new value (the
 * family's agg_final).  No rows: an empty filter of the call's capacity
 * when it is known, else an empty hash list (it holds nothing and unites
 * with a filter of any size).
 */
Datum
bt_family_agg_final(FunctionCallInfo fcinfo, const BtFamily *fam)
{
	BtCallCache *cache = bt_call_cache(fcinfo);
	struct varlena *state;
	BtAnyFilter f;

	if (PG_ARGISNULL(0))
	{
		int64		capacity;
		double		fpr;
		int			nargs = bt_agg_const_params(fcinfo, &capacity, &fpr);

		if (nargs >= 2)
			fam->check_params(nargs == 3 ? capacity : 1, fpr);
		if (capacity > 0)
			PG_RETURN_POINTER(fam->new_filter((uint64) capacity, fpr, &cache->plan, NULL));
		PG_RETURN_POINTER(bt_new_hashlist(0, 0, fpr));
	}
	state = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	bt_decode_or_error(fam->type, state, &f);
	PG_RETURN_POINTER(fam->agg_final(state, &f.hdr, &cache->plan));
}
