/*-------------------------------------------------------------------------
 *
 * bf_agg.c
 *		Aggregates of the bloomfilter family: bloom_agg and bloom_union_agg.
 *
 * The transition type is bloomfilter itself (not internal), so that the
 * aggregates split across parallel workers and across Citus nodes: a
 * partial state is an ordinary value that goes through the type's text and
 * binary I/O.  The state is updated in place in the aggregate memory
 * context; it is replaced only when a hash list has to grow.
 *
 * With a capacity, the state of 1.5 starts light (kind 7: the hashes of
 * the keys, 8 bytes each, under the header of the state below) and becomes
 * that state when the hashes would take more room than its bits, so that a
 * partial state of few keys for its capacity (a Citus shard's, a parallel
 * worker's) is small on the wire.  Before 1.5 it is, and then it becomes,
 * a buffered filter (kind 3: the blocked
 * filter's bits and up to 256 pending hashes, inserted in prefetched
 * batches; a filter too large for the pending area is kept unbuffered, as
 * kind 1).  Without one (auto-sizing), the state is a hash list (kind 2):
 * the 64-bit key hashes, 8 bytes each, growing by half when full, so at
 * most 12 bytes per input row plus the header.  The final function counts
 * the distinct hashes, exactly up to 65,536 of them and by estimate above
 * (src/core/distinct.c), and builds a filter sized for them
 * (src/core/materialize.c); since bit positions depend only on the hash,
 * nothing is lost by keeping hashes instead of keys.
 *
 * Transition functions get their key type from their C entry point, not
 * from the call expression, because Citus calls them without one.
 *
 * What a row costs (docs/PERFORMANCE.md, "The aggregate paths"): the
 * transition remembers the state the last row left (bt_state_recall) and
 * does not validate it again; a state of 128 kB or more that still grows
 * (a hash list, a light state) is kept as an expanded object in a context
 * of its own (src/pg/glue_agg.c), which the executor does not copy and which
 * grows in place; it leaves the aggregate flattened, the same bytes.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom.h"

#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"
#include "nodes/primnodes.h"

/* An empty hash list with nslots slots, in the current memory context */
static struct varlena *
new_hashlist(uint64 nslots, double fpr)
{
	return bt_new_hashlist(nslots, 0, fpr);
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
 * Appends n hashes (little-endian, at src) to the hash list state f (the
 * core's bloom_hashlist_append).  Returns the state itself when it had
 * room, else a new state in the current (per-call) memory context: the
 * executor copies a replaced state into the aggregate context and frees
 * the old one.
 */
static struct varlena *
append_hashes(BloomFilter *f, const uint8 *src, uint64 n, BloomPlan *plan)
{
	BloomAlloc	a = bt_allocator(CurrentMemoryContext);
	uint64		distinct = 0,
				limit = 0;
	BloomStatus st = bloom_hashlist_append(f, src, n, plan, &a, &distinct, &limit);

	if (st == BLOOM_E_CAPACITY)
		too_many_keys(distinct, limit, limit < BLOOM_HASHLIST_MAX_HASHES, f->fpr);
	if (st != BLOOM_OK)
		elog(ERROR, "could not append to a bloom_agg state: %s", bloom_status_message(st));
	return bt_varlena(f->base);
}

/*
 * The transition value: the expanded state es (read-write: the executor
 * keeps it), or the plain state (when it is a new pointer, the executor
 * copies it into the aggregate context and frees the old value)
 */
static inline Datum
trans_result(BtExpState *es, struct varlena *state)
{
	if (es != NULL)
		return EOHPGetRWDatum(&es->hdr);
	return PointerGetDatum(state);
}

/* The first state of a fixed-capacity bloom_agg of api */
static inline BfShape
fixed_state_shape(BtApiVersion api)
{
	if (bt_api_starts_states_light(api))
		return BF_LIGHT_LAYER;
	if (bt_api_plans_states_as_layers(api))
		return BF_BUFFERED_LAYER;
	return BF_BUFFERED;
}

/*
 * bloom_agg(key), bloom_agg(key, fpr), bloom_agg(key, capacity, fpr)
 */
static Datum
agg_trans_common(FunctionCallInfo fcinfo, BloomKeyEnc enc, BtApiVersion api)
{
	BtCallCache *cache = bt_call_cache(fcinfo);
	int64		capacity;
	double		fpr;
	struct varlena *state;
	BtExpState *es = NULL;
	BloomKeyInfo *ki;
	BloomFilter *f;
	uint64		h;
	int			nargs;

	nargs = bt_agg_trans_params(fcinfo, "bloom_agg", &capacity, &fpr);

	bt_agg_check_once(fcinfo, cache, "bloom_agg_trans");
	if (PG_ARGISNULL(0))
	{
		/*
		 * First row: the state exists from here on, even if keys are NULL.
		 * It is built in the per-call context; the executor copies it into
		 * the aggregate context.
		 */
		if (nargs == 4)
			state = bf_new(fixed_state_shape(api), (uint64) capacity,
						   fpr, 0, &cache->plan, CurrentMemoryContext, NULL);
		else
		{
			/* 1.2 builds scalable filters: refuse a rate they cannot have */
			if (bt_api_reads_hashlist_as_scalable(api))
				bf_check_scalable_params(1, fpr, BLOOM_DEFAULT_EXPANSION);
			else
				bf_check_params(1, fpr);
			state = new_hashlist(BLOOM_HASHLIST_MIN_SLOTS, fpr);
		}
	}
	else if ((es = bt_exp_state(PG_GETARG_DATUM(0))) != NULL)
		state = es->flat;
	else
		state = bt_plain_state(PG_GETARG_DATUM(0));

	/* the state the last row left, as it decoded it: not validated again */
	f = bt_state_recall(cache, state, bf_decode_or_error);
	if (f->fpr != fpr || (nargs == 4 && f->capacity != (uint64) capacity))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom_agg capacity and false-positive rate must be the same for every row")));

	if (PG_ARGISNULL(1))
		return trans_result(es, state);	/* NULL keys are ignored */

	ki = bt_cache_key(fcinfo, enc, false);
	/* a windowed filter as the initial state: its adds need a time */
	if (f->kind == BLOOM_KIND_WINDOWED)
		bf_window_needs_time();
	/* a state that holds keys of this class admits them */
	if (f->key_class != ki->key_class || f->key_type != ki->key_type)
		bf_admit_key(f, ki);
	h = bloom_key_hash_fast(ki, PG_GETARG_DATUM(1), f->seed);
	if (f->kind == BLOOM_KIND_SCALABLE || f->kind == BLOOM_KIND_BLOCKED)
	{
		/*
		 * A filter given as the initial state of a hand-made aggregate, or
		 * too large for a pending area: added to by its own rule (it may
		 * grow, or refuse).
		 */
		bt_state_forget(cache);
		PG_RETURN_POINTER(bf_add_hash(state, f, h, &cache->plan, CurrentMemoryContext));
	}
	if (f->kind == BLOOM_KIND_BUFFERED)
		bloom_buffered_push(f, h);
	else if (f->kind == BLOOM_KIND_SPARSE)
	{
		/*
		 * A large light state about to grow becomes an expanded state: its
		 * larger copies, and the buffered state it turns into, are made in
		 * the state's own context instead of being copied by the executor
		 */
		if (es == NULL && f->nhashes == f->nslots && VARSIZE(state) >= BT_EXP_MIN_BYTES &&
			bt_exp_allowed(fcinfo))
			es = bt_exp_state_adopt(state, f, bt_agg_context(fcinfo, "bloom_agg_trans"));
		if (es != NULL)
		{
			MemoryContext old = MemoryContextSwitchTo(es->hdr.eoh_context);

			state = bt_light_push(f, es->flat, h, "bloom_agg");
			MemoryContextSwitchTo(old);
			bt_exp_state_replace(es, state);
		}
		else
			state = bt_light_push(f, state, h, "bloom_agg");
	}
	else if (!bloom_hashlist_push(f, h))
	{
		uint8		le[8];

		/* a large hash list grows as an expanded state */
		if (es == NULL && VARSIZE(state) >= BT_EXP_MIN_BYTES && bt_exp_allowed(fcinfo))
			es = bt_exp_state_adopt(state, f, bt_agg_context(fcinfo, "bloom_agg_trans"));
		if (es != NULL && bt_exp_hashlist_room(es, f, 1, &cache->plan))
		{
			state = es->flat;
			(void) bloom_hashlist_push(f, h);
		}
		else
		{
			/* repeats removed, or an ERROR; a new flat state */
			bloom_put_le64(le, h);
			state = append_hashes(f, le, 1, &cache->plan);
			es = NULL;
		}
	}
	f->nitems = bloom_sat_add(f->nitems, 1);
	bloom_store_items(f);
	bt_state_remember(cache, state);
	return trans_result(es, state);
}

/*
 * Entry points, all three bound by the SQL of 1.6 (its bloom_agg(key),
 * bloom_agg(key, fpr) and bloom_agg(key, capacity, fpr)): those of
 * version 1.0 build fixed-capacity states planned for the target rate;
 * the _scalable ones (1.2) plan them as the first layer of a scalable
 * filter; the _light ones (1.5) start those states light.  Auto-sized
 * states are the same for all.
 */
#define AGG_TRANS_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(bloom_agg_trans, suffix, agg_trans_common(fcinfo, enc, BT_API_1_0)) \
	BT_KEY_ENTRY(bloom_agg_trans, suffix##_scalable, agg_trans_common(fcinfo, enc, BT_API_1_2)) \
	BT_KEY_ENTRY(bloom_agg_trans, suffix##_light, agg_trans_common(fcinfo, enc, BT_API_1_5))

/* C names:
 *	bloom_agg_trans_int8, bloom_agg_trans_int4, bloom_agg_trans_int2,
 *	bloom_agg_trans_text, bloom_agg_trans_bytea, bloom_agg_trans_uuid,
 *	bloom_agg_trans_any, bloom_agg_trans_int8_scalable,
 *	bloom_agg_trans_int4_scalable, bloom_agg_trans_int2_scalable,
 *	bloom_agg_trans_text_scalable, bloom_agg_trans_bytea_scalable,
 *	bloom_agg_trans_uuid_scalable, bloom_agg_trans_any_scalable,
 *	bloom_agg_trans_int8_light, bloom_agg_trans_int4_light,
 *	bloom_agg_trans_int2_light, bloom_agg_trans_text_light,
 *	bloom_agg_trans_bytea_light, bloom_agg_trans_uuid_light,
 *	bloom_agg_trans_any_light
 */
BT_KEY_TYPES(AGG_TRANS_, BT_NO_ALIAS)

/*
 * Combines two partial states of bloom_agg: unites filters (a buffered
 * state's pending hashes join the other's), appends hash lists.  state1 is
 * updated in place.
 */
PG_FUNCTION_INFO_V1(bloom_agg_combine);
Datum
bloom_agg_combine(PG_FUNCTION_ARGS)
{
	BtCallCache *cache = bt_call_cache(fcinfo);
	MemoryContext aggcxt;
	struct varlena *s1,
			   *s2;
	BtExpState *es;
	BloomFilter f1,
				f2;

	aggcxt = bt_agg_context(fcinfo, "bloom_agg_combine");
	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	if ((es = bt_exp_state(PG_GETARG_DATUM(1))) != NULL)
		s2 = es->flat;
	else
		s2 = PG_DETOAST_DATUM(PG_GETARG_DATUM(1));
	bf_decode_or_error(s2, &f2);
	if (PG_ARGISNULL(0))
	{
		/*
		 * A hash list becomes an expanded state, which the next partial
		 * state's hashes join in place; the executor copies any other new
		 * state into the aggregate context
		 */
		if (VARSIZE(s2) >= BT_EXP_MIN_BYTES && bt_exp_allowed(fcinfo))
			PG_RETURN_DATUM(EOHPGetRWDatum(&bt_exp_state_new(s2, aggcxt)->hdr));
		PG_RETURN_POINTER(s2);
	}
	if (bloom_is_empty_hashlist(&f2))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));

	if ((es = bt_exp_state(PG_GETARG_DATUM(0))) != NULL)
		s1 = es->flat;
	else
		s1 = bt_plain_state(PG_GETARG_DATUM(0));
	bf_decode_or_error(s1, &f1);
	if (bloom_is_empty_hashlist(&f1))
		PG_RETURN_POINTER(s2);
	/* scalable filters (from a hand-made aggregate) unite, or ERROR */
	if (f1.kind != BLOOM_KIND_SCALABLE && f2.kind != BLOOM_KIND_SCALABLE &&
		(f1.kind == BLOOM_KIND_HASHLIST) != (f2.kind == BLOOM_KIND_HASHLIST))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot combine an auto-sized bloom_agg state with a fixed-capacity one")));
	if (f1.kind != BLOOM_KIND_HASHLIST || f2.kind == BLOOM_KIND_SCALABLE)
	{
		struct varlena *r;

		/* an expanded state's larger copies are made in its context */
		if (es != NULL)
		{
			MemoryContext old = MemoryContextSwitchTo(es->hdr.eoh_context);

			r = bf_merge_into(&f1, &f2, false, es->hdr.eoh_context);
			MemoryContextSwitchTo(old);
			bt_exp_state_replace(es, r);
			PG_RETURN_DATUM(EOHPGetRWDatum(&es->hdr));
		}
		PG_RETURN_POINTER(bf_merge_into(&f1, &f2, false, CurrentMemoryContext));
	}

	bf_check_compatible(&f1, &f2);
	/* an expanded state makes room in place; else a new state, if need be */
	if (es != NULL && !bt_exp_hashlist_room(es, &f1, f2.nhashes, &cache->plan))
		es = NULL;
	s1 = append_hashes(&f1, f2.data, f2.nhashes, &cache->plan);
	f1.nitems = bloom_sat_add(f1.nitems, f2.nitems);
	bloom_adopt_key_class(&f1, &f2);
	bloom_write_header(&f1);
	if (es != NULL)
	{
		Assert(s1 == es->flat);
		PG_RETURN_DATUM(EOHPGetRWDatum(&es->hdr));
	}
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
	int			nargs = bt_agg_const_params(fcinfo, capacity, fpr);

	if (nargs >= 2)
		bf_check_params(nargs == 3 ? *capacity : 1, *fpr);
	return nargs > 0;
}

/*
 * The final function leaves the state as it is (window use and shared
 * states rely on that) and returns a new value.  Version 1.0's builds a
 * blocked filter; version 1.2's a scalable one, so that keys added later
 * make it grow instead of raising its rate.
 */
Datum
bf_agg_final(FunctionCallInfo fcinfo, BtApiVersion api)
{
	BtCallCache *cache = bt_call_cache(fcinfo);
	struct varlena *state;
	BtExpState *es;
	BloomFilter f;

	if (PG_ARGISNULL(0))
	{
		int64		capacity;
		double		fpr;
		bool		scalable = bt_api_reads_hashlist_as_scalable(api);

		/*
		 * No rows.  With a known capacity, an empty filter of that size;
		 * otherwise an empty hash list, which holds nothing and combines
		 * with a filter of any size.
		 */
		if (empty_params(fcinfo, &capacity, &fpr) && scalable)
			bf_check_scalable_params(Max(capacity, 1), fpr, BLOOM_DEFAULT_EXPANSION);
		if (capacity > 0 && scalable)
			PG_RETURN_POINTER(bf_new_scalable_warn((uint64) capacity, fpr,
												   BLOOM_DEFAULT_EXPANSION,
												   &cache->plan, CurrentMemoryContext));
		if (capacity > 0)
			PG_RETURN_POINTER(bf_new(BF_BLOCKED, (uint64) capacity, fpr, 0,
									 &cache->plan, CurrentMemoryContext, NULL));
		PG_RETURN_POINTER(new_hashlist(0, fpr));
	}
	/* an expanded state is read where it is, not flattened into a copy */
	if ((es = bt_exp_state(PG_GETARG_DATUM(0))) != NULL)
		state = es->flat;
	else
		state = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	bf_decode_or_error(state, &f);
	if (f.kind == BLOOM_KIND_BLOCKED || f.kind == BLOOM_KIND_SCALABLE ||
		f.kind == BLOOM_KIND_WINDOWED)
		PG_RETURN_POINTER(bt_copy_into(state, CurrentMemoryContext));
	state = bf_materialize(&f, api, &cache->plan, CurrentMemoryContext);
	bf_decode_or_error(state, &f);	/* what is returned must read back */
	PG_RETURN_POINTER(state);
}

PG_FUNCTION_INFO_V1(bloom_agg_final_scalable);
Datum
bloom_agg_final_scalable(PG_FUNCTION_ARGS)
{
	return bf_agg_final(fcinfo, BT_API_1_2);
}

/*
 * bloom_union_agg(bloomfilter): transition and combine function both.  A
 * state is read as the filter api makes of it (1.0: blocked, 1.2:
 * scalable).
 */
Datum
bf_union_trans(FunctionCallInfo fcinfo, BtApiVersion api)
{
	BtCallCache *cache = bt_call_cache(fcinfo);
	struct varlena *state;
	struct varlena *v;
	BloomFilter fs,
				fv;

	(void) bt_agg_context(fcinfo, "bloom_union_trans");
	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	v = PG_DETOAST_DATUM(PG_GETARG_DATUM(1));
	bf_decode_or_error(v, &fv);
	if (!PG_ARGISNULL(0) && bloom_is_empty_hashlist(&fv))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));	/* adds nothing */
	/* the executor copies a new state into the aggregate context */
	if (PG_ARGISNULL(0))
	{
		/* a light state (kind 7) stays light: its union with others too */
		if (bloom_is_state(&fv) && !bloom_is_empty_hashlist(&fv) &&
			fv.kind != BLOOM_KIND_SPARSE)
			v = bf_materialize(&fv, api, &cache->plan, CurrentMemoryContext);
		PG_RETURN_POINTER(v);
	}

	state = bt_plain_state(PG_GETARG_DATUM(0));
	bf_decode_or_error(state, &fs);
	if (bloom_is_empty_hashlist(&fs))
		PG_RETURN_POINTER(bloom_is_state(&fv) && fv.kind != BLOOM_KIND_SPARSE ?
						  bf_materialize(&fv, api, &cache->plan, CurrentMemoryContext) : v);

	/*
	 * Light states unite as bloom_agg's combine step does: hashes appended,
	 * light until they would outgrow the dense state (kind 3, which later
	 * light states join the same way).  A state meets anything else as the
	 * filter it stands for (as large as the other).
	 */
	if (bf_unite_as_states(&fs, &fv))
		PG_RETURN_POINTER(bf_merge_into(&fs, &fv, false, CurrentMemoryContext));
	if (bloom_is_fixed_state(&fs))
		(void) bf_materialize(&fs, api, &cache->plan, CurrentMemoryContext);
	if (bloom_is_state(&fv))
		(void) bf_materialize(&fv, api, &cache->plan, CurrentMemoryContext);
	PG_RETURN_POINTER(bf_merge_into(&fs, &fv, false, CurrentMemoryContext));
}

PG_FUNCTION_INFO_V1(bloom_union_trans_scalable);
Datum
bloom_union_trans_scalable(PG_FUNCTION_ARGS)
{
	return bf_union_trans(fcinfo, BT_API_1_2);
}
