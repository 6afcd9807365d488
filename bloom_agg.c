/*-------------------------------------------------------------------------
 *
 * bloom_agg.c
 *		Aggregates of bloomtype: bloom_agg and bloom_union_agg.
 *
 * The transition type is bloomfilter itself (not internal), so that the
 * aggregates split across parallel workers and across Citus nodes: a
 * partial state is an ordinary value that goes through the type's text and
 * binary I/O.  The state is updated in place in the aggregate memory
 * context; it is replaced only when a hash list has to grow.
 *
 * With a capacity, the state is the blocked filter itself.  Without one
 * (auto-sizing), the state is a hash list: the 64-bit key hashes, 8 bytes
 * each, growing by half when full, so at most 12 bytes per input row plus
 * the header.  The final function counts the distinct hashes and builds a
 * filter sized exactly for them; since bit positions depend only on the
 * hash, nothing is lost by keeping hashes instead of keys.
 *
 * Transition functions get their key type from their C entry point, not
 * from the call expression, because Citus calls them without one.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_ext.h"

#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"
#include "nodes/primnodes.h"

#define HASHLIST_MIN_SLOTS	8

typedef struct BloomAggCache
{
	BloomPlan	plan;
	BloomKeyInfo key;
	bool		key_ready;
} BloomAggCache;

static BloomAggCache *
get_agg_cache(FunctionCallInfo fcinfo)
{
	if (fcinfo->flinfo->fn_extra == NULL)
		fcinfo->flinfo->fn_extra =
			MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(BloomAggCache));
	return (BloomAggCache *) fcinfo->flinfo->fn_extra;
}

static MemoryContext
agg_context(FunctionCallInfo fcinfo, const char *fname)
{
	MemoryContext aggcxt;

	if (!AggCheckCallContext(fcinfo, &aggcxt))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s called in non-aggregate context", fname)));
	return aggcxt;
}

/*
 * A state argument as a plain varlena (4-byte header, not toasted).  A
 * state this file built always is; anything else is copied into the
 * current memory context and the caller returns the copy, which the
 * executor moves into the aggregate context.
 */
static struct varlena *
plain_state(Datum d)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(d);

	if (VARATT_IS_EXTENDED(v))
		v = PG_DETOAST_DATUM_COPY(d);
	return v;
}

static struct varlena *
copy_into(struct varlena *v, MemoryContext cxt)
{
	struct varlena *c = MemoryContextAlloc(cxt, VARSIZE(v));

	memcpy(c, v, VARSIZE(v));
	return c;
}

/* An empty hash list with nslots slots, in the current memory context */
static struct varlena *
new_hashlist(uint64 nslots, double fpr)
{
	size_t		size = bloom_hashlist_size(nslots);
	struct varlena *v = palloc_extended(VARHDRSZ + size, MCXT_ALLOC_HUGE);

	SET_VARSIZE(v, VARHDRSZ + size);
	bloom_init_hashlist(BLOOM_DATA(v), nslots, 0, fpr, 0);
	return v;
}

static void
too_many_keys(uint64 distinct, uint64 limit, bool by_rate, double fpr)
{
	if (by_rate)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("auto-sized bloom_agg has at least " UINT64_FORMAT " distinct keys, more than a filter at false-positive rate %g can hold",
						distinct, fpr),
				 errdetail("The largest capacity at this rate is " UINT64_FORMAT ".", limit),
				 errhint("Use a larger false-positive rate.")));
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("too many distinct keys for an auto-sized bloom_agg"),
			 errdetail("Auto-sizing keeps one 8-byte hash per distinct key, at most " UINT64_FORMAT " of them.",
					   limit),
			 errhint("Give the capacity: bloom_agg(key, capacity, fpr).")));
}

/*
 * Appends n hashes (little-endian, at src) to the hash list state, whose
 * header f describes.  Returns the state itself when it has room, else a
 * new state in the current (per-call) memory context: the executor copies
 * a replaced state into the aggregate context and frees the old one.  A
 * state grows by half; when the hashes would pass what the largest state
 * or the largest filter at the state's rate can hold, repeats are removed
 * first, and if too many distinct hashes remain that is an ERROR, raised
 * while the input is read rather than after it.
 */
static struct varlena *
hashlist_append(struct varlena *state, BloomFilter *f, const uint8 *src,
				uint64 n, BloomPlan *plan)
{
	uint64		total = f->nused + n;
	uint64		limit;
	uint64		nslots;
	struct varlena *v;
	BloomFilter nf;

	if (f->nslots - f->nused >= n)
	{
		memcpy(f->data + f->nused * 8, src, n * 8);
		f->nused = total;
		bloom_put_le64(BLOOM_DATA(state) + 56, f->nused);
		return state;
	}

	bloom_get_plan(f->fpr, plan);
	limit = Min(bloom_plan_max_capacity(plan), BLOOM_MAX_SLOTS / 4 * 3);
	if (total > limit)
	{
		/* gather, sort and remove repeats */
		uint64	   *h = palloc_extended(total * sizeof(uint64), MCXT_ALLOC_HUGE);

		for (uint64 i = 0; i < f->nused; i++)
			h[i] = bloom_hashlist_get(f, i);
		for (uint64 i = 0; i < n; i++)
			h[f->nused + i] = bloom_get_le64(src + 8 * i);
		qsort(h, total, sizeof(uint64), bloom_cmp_u64);
		total = bloom_unique_u64(h, total);
		if (total > limit)
			too_many_keys(total, limit, limit < BLOOM_MAX_SLOTS / 4 * 3, f->fpr);
		nslots = Min(total + total / 2, BLOOM_MAX_SLOTS);
		v = new_hashlist(nslots, f->fpr);
		nf = *f;
		nf.nslots = nslots;
		nf.nused = total;
		nf.data = BLOOM_DATA(v) + BLOOM_HEADER_SIZE;
		for (uint64 i = 0; i < total; i++)
			bloom_hashlist_set(&nf, i, h[i]);
		pfree(h);
	}
	else
	{
		nslots = Max(f->nslots + f->nslots / 2, total);
		nslots = Max(nslots, HASHLIST_MIN_SLOTS);
		nslots = Min(nslots, BLOOM_MAX_SLOTS);
		v = new_hashlist(nslots, f->fpr);
		memcpy(BLOOM_DATA(v) + BLOOM_HEADER_SIZE, f->data, f->nused * 8);
		memcpy(BLOOM_DATA(v) + BLOOM_HEADER_SIZE + f->nused * 8, src, n * 8);
		nf = *f;
		nf.nslots = nslots;
		nf.nused = total;
		nf.data = BLOOM_DATA(v) + BLOOM_HEADER_SIZE;
	}
	bloom_write_header(BLOOM_DATA(v), &nf);
	*f = nf;
	return v;
}

static void
param_not_null(FunctionCallInfo fcinfo, int argno, const char *what)
{
	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("bloom_agg %s must not be NULL", what),
				 errhint("Leave the argument out for the default.")));
}

/*
 * bloom_agg(key), bloom_agg(key, fpr), bloom_agg(key, capacity, fpr)
 */
static Datum
agg_trans_common(FunctionCallInfo fcinfo, BloomKeyEnc enc, bool scalable)
{
	BloomAggCache *cache = get_agg_cache(fcinfo);
	int			nargs = PG_NARGS();
	int64		capacity = 0;
	double		fpr = BLOOM_DEFAULT_FPR;
	struct varlena *state;
	BloomFilter f;
	uint64		h;

	if (nargs == 3)
	{
		param_not_null(fcinfo, 2, "false-positive rate");
		fpr = PG_GETARG_FLOAT8(2);
	}
	else if (nargs == 4)
	{
		param_not_null(fcinfo, 2, "capacity");
		param_not_null(fcinfo, 3, "false-positive rate");
		capacity = PG_GETARG_INT64(2);
		fpr = PG_GETARG_FLOAT8(3);
	}

	(void) agg_context(fcinfo, "bloom_agg_trans");
	if (PG_ARGISNULL(0))
	{
		/*
		 * First row: the state exists from here on, even if keys are NULL.
		 * It is built in the per-call context; the executor copies it into
		 * the aggregate context.
		 */
		if (nargs == 4 && scalable)
			state = bloom_new_buffered_layer((uint64) capacity, fpr, &cache->plan,
											 CurrentMemoryContext);
		else if (nargs == 4)
			state = bloom_new_buffered((uint64) capacity, fpr, &cache->plan,
									   CurrentMemoryContext);
		else
		{
			/* 1.2 builds scalable filters: refuse a rate they cannot have */
			if (scalable)
				bloom_check_scalable_params(1, fpr, BLOOM_DEFAULT_EXPANSION);
			else
				bloom_check_params(1, fpr);
			state = new_hashlist(HASHLIST_MIN_SLOTS, fpr);
		}
	}
	else
		state = plain_state(PG_GETARG_DATUM(0));

	bloom_decode_or_error(state, &f);
	if (f.fpr != fpr || (nargs == 4 && f.capacity != (uint64) capacity))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom_agg capacity and false-positive rate must be the same for every row")));

	if (PG_ARGISNULL(1))
		PG_RETURN_POINTER(state);	/* NULL keys are ignored */

	if (!cache->key_ready)
	{
		bloom_keyinfo_init(&cache->key, enc, fcinfo, 1, false);
		cache->key_ready = true;
	}
	bloom_admit_key(state, &f, &cache->key);

	h = bloom_key_hash_fast(&cache->key, PG_GETARG_DATUM(1), f.seed);
	if (f.kind == BLOOM_KIND_SCALABLE || (f.flags & BLOOM_FLAG_NONSCALING))
	{
		/*
		 * A filter given as the initial state of a hand-made aggregate:
		 * added to by its own rule (it may grow, or refuse).
		 */
		PG_RETURN_POINTER(bloom_add_hash(state, &f, h, &cache->plan, CurrentMemoryContext));
	}
	if (f.kind == BLOOM_KIND_BUFFERED)
	{
		/* collect hashes, insert them in batches that overlap cache misses */
		if (f.nused == BLOOM_PENDING_SLOTS)
			bloom_flush_pending(BLOOM_DATA(state), &f);
		bloom_put_le64(bloom_pending(&f) + 8 * f.nused, h);
		f.nused++;
		bloom_put_le64(BLOOM_DATA(state) + 56, f.nused);
	}
	else if (f.kind == BLOOM_KIND_BLOCKED)
		bloom_insert_hash(&f, h);
	else
	{
		uint8		le[8];

		bloom_put_le64(le, h);
		state = hashlist_append(state, &f, le, 1, &cache->plan);
	}
	if (f.nitems < UINT64_MAX)
		f.nitems++;
	bloom_put_le64(BLOOM_DATA(state) + 40, f.nitems);
	PG_RETURN_POINTER(state);
}

/*
 * Entry points: those of version 1.0 build fixed-capacity states planned
 * for the target rate; the _scalable ones (1.2) plan them as the first
 * layer of a scalable filter.  Auto-sized states are the same for both.
 */
#define BLOOM_AGG_ENTRY(name, enc) \
	PG_FUNCTION_INFO_V1(name); \
	Datum name(PG_FUNCTION_ARGS) { return agg_trans_common(fcinfo, enc, false); } \
	PG_FUNCTION_INFO_V1(name##_scalable); \
	Datum name##_scalable(PG_FUNCTION_ARGS) { return agg_trans_common(fcinfo, enc, true); }

BLOOM_AGG_ENTRY(bloom_agg_trans_any, BKE_UNKNOWN)
BLOOM_AGG_ENTRY(bloom_agg_trans_int8, BKE_INT8)
BLOOM_AGG_ENTRY(bloom_agg_trans_int4, BKE_INT4)
BLOOM_AGG_ENTRY(bloom_agg_trans_int2, BKE_INT2)
BLOOM_AGG_ENTRY(bloom_agg_trans_text, BKE_TEXT)
BLOOM_AGG_ENTRY(bloom_agg_trans_bytea, BKE_BYTEA)
BLOOM_AGG_ENTRY(bloom_agg_trans_uuid, BKE_UUID)

/*
 * Combines two partial states of bloom_agg: ORs blocked filters, appends
 * hash lists.  state1 is updated in place.
 */
PG_FUNCTION_INFO_V1(bloom_agg_combine);
Datum
bloom_agg_combine(PG_FUNCTION_ARGS)
{
	BloomAggCache *cache = get_agg_cache(fcinfo);
	struct varlena *s1,
			   *s2;
	BloomFilter f1,
				f2;

	(void) agg_context(fcinfo, "bloom_agg_combine");
	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	s2 = PG_DETOAST_DATUM(PG_GETARG_DATUM(1));
	bloom_decode_or_error(s2, &f2);
	/* the executor copies a new state into the aggregate context */
	if (PG_ARGISNULL(0))
		PG_RETURN_POINTER(s2);
	if (bloom_is_empty_hashlist(&f2))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));

	s1 = plain_state(PG_GETARG_DATUM(0));
	bloom_decode_or_error(s1, &f1);
	if (bloom_is_empty_hashlist(&f1))
		PG_RETURN_POINTER(s2);
	if (f1.kind == BLOOM_KIND_SCALABLE || f2.kind == BLOOM_KIND_SCALABLE)
	{
		/* scalable filters (from a hand-made aggregate) unite, or ERROR */
		PG_RETURN_POINTER(bloom_merge_into(s1, &f1, &f2, false, CurrentMemoryContext));
	}
	if (bloom_has_bits(&f1) != bloom_has_bits(&f2))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot combine an auto-sized bloom_agg state with a fixed-capacity one")));
	if (bloom_has_bits(&f1))
	{
		s1 = bloom_merge_into(s1, &f1, &f2, false, CurrentMemoryContext);
		if (f2.kind == BLOOM_KIND_BUFFERED && f1.kind == BLOOM_KIND_BUFFERED)
		{
			for (uint64 i = 0; i < f2.nused; i++)
			{
				if (f1.nused == BLOOM_PENDING_SLOTS)
					bloom_flush_pending(BLOOM_DATA(s1), &f1);
				memcpy(bloom_pending(&f1) + 8 * f1.nused, bloom_pending(&f2) + 8 * i, 8);
				f1.nused++;
			}
			bloom_put_le64(BLOOM_DATA(s1) + 56, f1.nused);
		}
		else if (f2.kind == BLOOM_KIND_BUFFERED)
			bloom_insert_many(&f1, bloom_pending(&f2), f2.nused);	/* no pending area */
		PG_RETURN_POINTER(s1);
	}

	bloom_check_compatible(&f1, &f2);
	s1 = hashlist_append(s1, &f1, f2.data, f2.nused, &cache->plan);
	f1.nitems = (f1.nitems > UINT64_MAX - f2.nitems) ? UINT64_MAX : f1.nitems + f2.nitems;
	if (f1.key_class == BLOOM_KEY_NONE)
	{
		f1.key_class = f2.key_class;
		f1.key_type = f2.key_type;
	}
	bloom_write_header(BLOOM_DATA(s1), &f1);
	PG_RETURN_POINTER(s1);
}

/*
 * The parameters of a bloom_agg call whose aggregate saw no rows, read from
 * the call's constant arguments, as the transition function never ran.
 * Returns false when they cannot be known: a parallel plan's final step
 * sees only the partial results, a window has no Aggref, and a generic
 * plan passes parameters, not constants.
 */
static bool
empty_params(FunctionCallInfo fcinfo, int64 *capacity, double *fpr)
{
	Aggref	   *aggref = AggGetAggref(fcinfo);
	int			nargs;
	Expr	   *args[3] = {0};
	ListCell   *lc;
	int			i = 0;

	*capacity = 0;
	*fpr = BLOOM_DEFAULT_FPR;
	if (aggref == NULL || aggref->aggsplit != AGGSPLIT_SIMPLE)
		return false;
	nargs = list_length(aggref->args);
	if (nargs < 1 || nargs > 3)
		return false;
	foreach(lc, aggref->args)
		args[i++] = ((TargetEntry *) lfirst(lc))->expr;

	if (nargs == 1)
		return true;
	if (nargs == 2 && IsA(args[1], Const) && exprType((Node *) args[1]) == FLOAT8OID &&
		!((Const *) args[1])->constisnull)
	{
		*fpr = DatumGetFloat8(((Const *) args[1])->constvalue);
		bloom_check_params(1, *fpr);
		return true;
	}
	if (nargs == 3 &&
		IsA(args[1], Const) && exprType((Node *) args[1]) == INT8OID &&
		IsA(args[2], Const) && exprType((Node *) args[2]) == FLOAT8OID &&
		!((Const *) args[1])->constisnull && !((Const *) args[2])->constisnull)
	{
		*capacity = DatumGetInt64(((Const *) args[1])->constvalue);
		*fpr = DatumGetFloat8(((Const *) args[2])->constvalue);
		bloom_check_params(*capacity, *fpr);
		return true;
	}
	return false;
}

/*
 * The final function leaves the state as it is (window use and shared
 * states rely on that) and returns a new value.  Version 1.0's builds a
 * blocked filter; version 1.2's a scalable one, so that keys added later
 * make it grow instead of raising its rate.
 */
static Datum
agg_final_common(FunctionCallInfo fcinfo, bool scalable)
{
	BloomAggCache *cache = get_agg_cache(fcinfo);
	struct varlena *state;
	BloomFilter f;

	if (PG_ARGISNULL(0))
	{
		int64		capacity;
		double		fpr;

		/*
		 * No rows.  With a known capacity, an empty filter of that size;
		 * otherwise an empty hash list, which holds nothing and combines
		 * with a filter of any size.
		 */
		if (empty_params(fcinfo, &capacity, &fpr) && scalable)
			bloom_check_scalable_params(Max(capacity, 1), fpr, BLOOM_DEFAULT_EXPANSION);
		if (capacity > 0 && scalable)
		{
			state = bloom_new_scalable((uint64) capacity, fpr, BLOOM_DEFAULT_EXPANSION,
									   &cache->plan, CurrentMemoryContext);
			bloom_warn_if_cannot_grow(state);
			PG_RETURN_POINTER(state);
		}
		if (capacity > 0)
			PG_RETURN_POINTER(bloom_new_blocked((uint64) capacity, fpr,
												&cache->plan, CurrentMemoryContext));
		PG_RETURN_POINTER(new_hashlist(0, fpr));
	}
	state = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	bloom_decode_or_error(state, &f);
	if (f.kind == BLOOM_KIND_BLOCKED || f.kind == BLOOM_KIND_SCALABLE)
		PG_RETURN_POINTER(copy_into(state, CurrentMemoryContext));
	state = bloom_materialize(&f, &cache->plan, CurrentMemoryContext,
							  scalable && f.kind == BLOOM_KIND_HASHLIST);
	bloom_decode_or_error(state, &f);	/* what is returned must read back */
	PG_RETURN_POINTER(state);
}

PG_FUNCTION_INFO_V1(bloom_agg_final);
Datum
bloom_agg_final(PG_FUNCTION_ARGS)
{
	return agg_final_common(fcinfo, false);
}

PG_FUNCTION_INFO_V1(bloom_agg_final_scalable);
Datum
bloom_agg_final_scalable(PG_FUNCTION_ARGS)
{
	return agg_final_common(fcinfo, true);
}

/*
 * bloom_union_agg(bloomfilter): transition and combine function both.
 */
static Datum
union_trans_common(FunctionCallInfo fcinfo, bool scalable)
{
	BloomAggCache *cache = get_agg_cache(fcinfo);
	struct varlena *state;
	struct varlena *v;
	BloomFilter fs,
				fv;

	(void) agg_context(fcinfo, "bloom_union_trans");
	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	v = PG_DETOAST_DATUM(PG_GETARG_DATUM(1));
	bloom_decode_or_error(v, &fv);
	if (!PG_ARGISNULL(0) && bloom_is_empty_hashlist(&fv))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));	/* adds nothing */
	if ((fv.kind == BLOOM_KIND_HASHLIST || fv.kind == BLOOM_KIND_BUFFERED) &&
		!bloom_is_empty_hashlist(&fv))
	{
		v = bloom_materialize(&fv, &cache->plan, CurrentMemoryContext,
							  scalable && fv.kind == BLOOM_KIND_HASHLIST);
		bloom_decode_or_error(v, &fv);
	}
	/* the executor copies a new state into the aggregate context */
	if (PG_ARGISNULL(0))
		PG_RETURN_POINTER(v);

	state = plain_state(PG_GETARG_DATUM(0));
	bloom_decode_or_error(state, &fs);
	if (bloom_is_empty_hashlist(&fs))
		PG_RETURN_POINTER(v);
	PG_RETURN_POINTER(bloom_merge_into(state, &fs, &fv, false, CurrentMemoryContext));
}

/*
 * Version 1.0's reads an aggregate's hash list as the blocked filter 1.0
 * makes of it; 1.2's as the scalable filter 1.2 makes.
 */
PG_FUNCTION_INFO_V1(bloom_union_trans);
Datum
bloom_union_trans(PG_FUNCTION_ARGS)
{
	return union_trans_common(fcinfo, false);
}

PG_FUNCTION_INFO_V1(bloom_union_trans_scalable);
Datum
bloom_union_trans_scalable(PG_FUNCTION_ARGS)
{
	return union_trans_common(fcinfo, true);
}
