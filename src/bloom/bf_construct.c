/*-------------------------------------------------------------------------
 *
 * bf_construct.c
 *		Making bloomfilters and adding keys: the checks of parameters and
 *		their errors, the constructors over the core's, growth, and
 *		bloom_empty.
 *
 * Every check happens before any allocation, and each refusal says what
 * would fit.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom.h"

#include <math.h>

void
bf_check_params(int64 capacity, double fpr)
{
	if (capacity <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter capacity must be positive, not " INT64_FORMAT,
						capacity),
				 errhint("Give the number of distinct keys the filter should hold, at least 1.")));
	if (!bloom_fpr_valid(fpr))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter false-positive rate %g is out of range", fpr),
				 errhint("Use a rate in (0, 0.5] and no smaller than %g, e.g. 0.01 for 1%%.",
						 BLOOM_MIN_FPR)));
}

/*
 * Checks the parameters of a filter made by bloom_empty or create-on-add:
 * expansion 0 is a fixed filter that refuses adds past its capacity,
 * 1..BLOOM_MAX_EXPANSION a scalable one.
 */
void
bf_check_scalable_params(int64 capacity, double fpr, int32 expansion)
{
	if (expansion > 0 && fpr > 0 && fpr < BLOOM_MIN_SCALABLE_FPR)
		bf_check_params(capacity, BLOOM_MIN_SCALABLE_FPR);	/* capacity first */
	else
		bf_check_params(capacity, fpr);
	if (expansion < 0 || expansion > BLOOM_MAX_EXPANSION)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter expansion %d is out of range", expansion),
				 errhint("Use 0 for a fixed filter that refuses keys past its capacity, or 1 to %d for a filter that grows by layers that many times larger.",
						 BLOOM_MAX_EXPANSION)));
	if (expansion > 0 && !bloom_scalable_fpr_valid(fpr))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("false-positive rate %g is too small for a scalable bloom filter", fpr),
				 errdetail("A scalable filter gives its later layers smaller rates, down to the target divided by 409."),
				 fpr >= BLOOM_MIN_FPR ?
				 errhint("Use a rate of at least %g, or expansion => 0 for a fixed filter.",
						 BLOOM_MIN_SCALABLE_FPR) :
				 errhint("Use a rate of at least %g.", BLOOM_MIN_SCALABLE_FPR)));
}

/* The ERROR of a filter too large for the largest value; plan is for fpr */
void
bf_capacity_error(uint64 capacity, double fpr, const BloomPlan *plan)
{
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("bloom filter capacity " UINT64_FORMAT " is too large for false-positive rate %g",
					capacity, fpr),
			 errdetail("A filter is at most 512 MB, so that its text form (what pg_dump writes) fits in one PostgreSQL value."),
			 errhint("The largest capacity that fits at this rate is " UINT64_FORMAT ".",
					 bloom_plan_max_capacity(plan))));
}

/* A core status other than the ones a caller explains: an internal error */
static void
unexpected(BloomStatus st)
{
	elog(ERROR, "bloom filter operation failed: %s", bloom_status_message(st));
}

/* The ERROR of a new filter of shape that would not fit; plan is for it */
static void
too_large(BfShape shape, uint64 capacity, double fpr, BloomPlan *plan)
{
	if (shape == BF_BUFFERED_LAYER || shape == BF_LIGHT_LAYER)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom_agg capacity " UINT64_FORMAT " is too large for false-positive rate %g",
						capacity, fpr),
				 errdetail("A filter is at most 512 MB; bloom_agg plans its first layer for rate %g, so that it can grow.",
						   bloom_layer_fpr(fpr, 0)),
				 errhint("The largest capacity at this rate is " UINT64_FORMAT ".",
						 bloom_plan_max_capacity_in(plan, BLOOM_MAX_BUFFERED_BLOCKS))));
	if (shape == BF_SCALABLE)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom filter capacity " UINT64_FORMAT " is too large for a scalable filter at false-positive rate %g",
						capacity, fpr),
				 errdetail("A filter is at most 512 MB; the first layer of a scalable filter is planned for rate %g.",
						   bloom_layer_fpr(fpr, 0)),
				 errhint("The largest first layer at this rate holds " UINT64_FORMAT " keys; a smaller one grows as keys come.",
						 bloom_scalable_max_first_layer(plan))));
	bf_capacity_error(capacity, fpr, plan);
}

/*
 * A new, empty filter in cxt, of shape:
 *	BF_BLOCKED			a blocked filter of version 1.0 (it takes keys past
 *						its capacity), planned for fpr;
 *	BF_BUFFERED			the state of a fixed-capacity bloom_agg of 1.0;
 *	BF_BUFFERED_LAYER	the same from 1.2, planned as the first layer of a
 *						scalable filter;
 *	BF_LIGHT_LAYER		the same from 1.5, as a light state (kind 7) that
 *						keeps hashes until they would outgrow its bits;
 *	BF_SCALABLE			a scalable filter with expansion (0: a fixed filter
 *						that refuses keys past its capacity), one layer of
 *						capacity keys planned for the first layer's share
 *						of fpr (see bloom_layer_fpr).
 * Parameters are checked, and the size against the largest value, before
 * anything is allocated.  plan (may be NULL) caches the sizing; f (may be
 * NULL) gets the new value decoded.
 */
struct varlena *
bf_new(BfShape shape, uint64 capacity, double fpr, int32 expansion, BloomPlan *plan,
	   MemoryContext cxt, BloomFilter *f)
{
	BloomAlloc	a = bt_allocator(cxt);
	BloomPlan	local = {0};
	BloomFilter made;
	BloomStatus st;

	if (f == NULL)
		f = &made;
	if (plan == NULL)
		plan = &local;
	if (shape == BF_BLOCKED || shape == BF_BUFFERED)
		bf_check_params((int64) capacity, fpr);
	else
		bf_check_scalable_params((int64) capacity, fpr,
								 shape == BF_SCALABLE ? expansion : BLOOM_DEFAULT_EXPANSION);
	if (shape == BF_BLOCKED)
		st = bloom_new_blocked(capacity, fpr, 0, plan, &a, f);
	else if (shape == BF_SCALABLE)
		st = bloom_new_scalable(capacity, fpr, (unsigned) expansion, plan, &a, f);
	else if (shape == BF_LIGHT_LAYER)
		st = bloom_new_sparse(capacity, fpr, true, plan, &a, f);
	else
		st = bloom_new_buffered(capacity, fpr, shape == BF_BUFFERED_LAYER, plan, &a, f);
	if (st == BLOOM_E_CAPACITY)
		too_large(shape == BF_SCALABLE && expansion == 0 ? BF_BLOCKED : shape,
				  capacity, fpr, plan);
	if (st != BLOOM_OK)
		unexpected(st);
	return bt_varlena(f->base);
}

/*
 * A new filter of 1.2 (bf_new's BF_SCALABLE) for a user who asked for it:
 * with a warning when it could not grow.
 */
struct varlena *
bf_new_scalable_warn(uint64 capacity, double fpr, int32 expansion, BloomPlan *plan,
					 MemoryContext cxt)
{
	BloomFilter f;
	struct varlena *v = bf_new(BF_SCALABLE, capacity, fpr, expansion, plan, cxt, &f);

	bf_warn_if_cannot_grow(&f);
	return v;
}

/*
 * Warns when a new scalable filter could not add even one layer: keys past
 * its capacity will be refused.
 */
void
bf_warn_if_cannot_grow(const BloomFilter *f)
{
	BloomPlan	plan;
	uint64		capacity,
				nblocks;

	if (f->kind == BLOOM_KIND_SCALABLE &&
		bloom_scalable_next_layer(f, &plan, &capacity, &nblocks) != BLOOM_OK)
		ereport(WARNING,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("scalable bloom filter of " UINT64_FORMAT " keys cannot grow: its second layer would not fit in 512 MB",
						f->capacity),
				 errdetail("Keys past its capacity will be refused."),
				 errhint("Split the keys over several filters, or use a larger false-positive rate.")));
}

/* The ERROR of a scalable filter that cannot add its next layer */
static void
scalable_full_error(const BloomFilter *f)
{
	if (f->nlayers >= BLOOM_MAX_LAYERS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("scalable bloom filter is full: it has %d layers, the most a filter may have",
						BLOOM_MAX_LAYERS),
				 errdetail("It holds " UINT64_FORMAT " keys.", f->nitems),
				 errhint("Rebuild it with a larger capacity or expansion, e.g. bloom_agg over the keys, which sizes one layer for them all.")));
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("scalable bloom filter is full: its next layer would not fit in 512 MB"),
			 errdetail("It holds " UINT64_FORMAT " keys in " UINT64_FORMAT " layers; the next layer would hold " UINT64_FORMAT " more.",
					   f->nitems, f->nlayers, bloom_scalable_next_capacity(f)),
			 errhint("Split the keys over several filters (by a hash of the key, say), or use a larger false-positive rate.")));
}

/*
 * Adds hash h to the filter v (decoded into f) by the rule of its kind
 * (the core's bloom_add): a scalable filter grows, into a new value in
 * cxt; a fixed (expansion 0) filter refuses keys past its capacity; a
 * filter made by bloom_empty or bloom_agg of version 1.0 takes every key.
 * Returns v or its grown copy, with the header written back.
 */
struct varlena *
bf_add_hash(struct varlena *v, BloomFilter *f, uint64 h, BloomPlan *plan,
			MemoryContext cxt)
{
	BloomAlloc	a = bt_allocator(cxt);
	bool		added;
	BloomStatus st;

	if (f->kind == BLOOM_KIND_WINDOWED)
		bf_window_needs_time();
	st = bloom_add(f, h, plan, &a, &added);

	if (st == BLOOM_E_FULL)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom filter is full"),
				 errdetail("It holds " UINT64_FORMAT " keys, its capacity, and was made with expansion 0, which does not grow.",
						   f->nitems),
				 errhint("Make a filter that grows, bloom_empty(capacity, fpr, expansion => 2), or a larger one.")));
	if (st == BLOOM_E_CAPACITY || st == BLOOM_E_PARAMS)
		scalable_full_error(f);
	if (st != BLOOM_OK)
		unexpected(st);
	return bt_varlena(f->base);
}

/*
 * Before adding a key of ki's class to the filter f: refuses another
 * class, and records the class in a filter that holds none.
 */
void
bf_admit_key(BloomFilter *f, const BloomKeyInfo *ki)
{
	bloom_check_key(f->key_class, f->key_type, ki, true);
	if (f->key_class == BLOOM_KEY_NONE)
		bloom_store_key_class(f, ki->key_class, ki->key_type);
}

/*
 * The filter an add function (filter in argument 0, key or keys in
 * argument 1) adds to: a private copy of argument 0 as api reads it, or
 * where api creates on add a new filter where argument 0 is NULL, with
 * the defaults of create-on-add: scalable, BLOOM_CREATE_CAPACITY keys in
 * its first layer, 1%, expansion 2.  NULL when there is nothing to add to
 * (a NULL filter, not created) or nothing to add (NULL keys): the function
 * then returns argument 0 as it is.
 */
struct varlena *
bf_add_target(FunctionCallInfo fcinfo, BtApiVersion api, BloomFilter *f)
{
	if (PG_ARGISNULL(1) || (PG_ARGISNULL(0) && !bt_api_creates_on_add(api)))
		return NULL;
	if (!PG_ARGISNULL(0))
		return bf_arg(fcinfo, 0, f, api, true);
	return bf_new(BF_SCALABLE, BLOOM_CREATE_CAPACITY, BLOOM_DEFAULT_FPR,
				  BLOOM_DEFAULT_EXPANSION, NULL, CurrentMemoryContext, f);
}

/* ---------------------------------------------------------------------
 * bloom_empty
 * ---------------------------------------------------------------------
 */

/*
 * bloom_empty(capacity [, fpr [, expansion]]) from version 1.2: scalable
 * with expansion 2 unless told otherwise (1.0's, a blocked filter, is in
 * bf_legacy.c).
 */
PG_FUNCTION_INFO_V1(bloom_empty_scalable);
Datum
bloom_empty_scalable(PG_FUNCTION_ARGS)
{
	int64		capacity = PG_GETARG_INT64(0);
	double		fpr = PG_NARGS() > 1 ? PG_GETARG_FLOAT8(1) : BLOOM_DEFAULT_FPR;
	int32		expansion = PG_NARGS() > 2 ? PG_GETARG_INT32(2) : BLOOM_DEFAULT_EXPANSION;

	PG_RETURN_POINTER(bf_new_scalable_warn((uint64) capacity, fpr, expansion,
										   &bt_call_cache(fcinfo)->plan,
										   CurrentMemoryContext));
}
