/*-------------------------------------------------------------------------
 *
 * bf_funcs.c
 *		The bloomfilter functions a row at a time: bloom_add,
 *		bloom_contains, union and intersection (| and &), bloom_info and
 *		bloom_cardinality.
 *
 * Each function's body takes the SQL-API version of its entry point; the
 * entry points here are those the newest SQL binds, the older ones are in
 * bf_legacy.c.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom.h"

#include <math.h>

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

/* ---------------------------------------------------------------------
 * Add and contains, one entry point per key type (src/pg/keytypes.h)
 * ---------------------------------------------------------------------
 */

/*
 * bloom_contains(f, key): the filter comes from the call site's cache
 * (detoasted and validated once per query when it is the same datum on
 * every row), then one lookup.
 */
Datum
bf_contains(FunctionCallInfo fcinfo, BloomKeyEnc enc, BtApiVersion api)
{
	BloomKeyInfo *ki = bt_cache_key(fcinfo, enc, false);
	BfProbe    *p = bt_cache_value(fcinfo, bf_probe_methods(api));
	BloomFilter *f = &p->f;

	if (f->key_class == BLOOM_KEY_NONE)
		PG_RETURN_BOOL(false);	/* nothing was ever added */
	bloom_check_key(f->key_class, f->key_type, ki, false);
	PG_RETURN_BOOL(bf_probe_contains(p, bloom_key_hash_fast(ki, PG_GETARG_DATUM(1),
															 f->seed)));
}

/*
 * bloom_add(f, key).  A NULL key adds nothing.  A NULL filter gives NULL
 * (version 1.0) or a new filter (bt_api_creates_on_add: 1.2).
 */
Datum
bf_add(FunctionCallInfo fcinfo, BloomKeyEnc enc, BtApiVersion api)
{
	BloomKeyInfo *ki;
	struct varlena *v;
	BloomFilter f;

	if ((v = bf_add_target(fcinfo, api, &f)) == NULL)
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	ki = bt_cache_key(fcinfo, enc, false);
	bf_admit_key(&f, ki);
	PG_RETURN_POINTER(bf_add_hash(v, &f, bloom_key_hash_fast(ki, PG_GETARG_DATUM(1), f.seed),
								  NULL, CurrentMemoryContext));
}

/*
 * bloom_contains_<suffix>_scalable (1.6) reads an aggregate's hash list
 * (kind 2) as the scalable filter |, bloom_union_agg, bloom_info and
 * bloom_add read it as (1.2), so that a value has one meaning in every
 * function of a version; bloom_add_create_<suffix> (1.2) creates on add.
 */
#define CONTAINS_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(bloom_contains, suffix##_scalable, bf_contains(fcinfo, enc, BT_API_1_6))
#define ADD_CREATE_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(bloom_add_create, suffix, bf_add(fcinfo, enc, BT_API_1_2))

/* C names:
 *	bloom_contains_int8_scalable, bloom_contains_int4_scalable,
 *	bloom_contains_int2_scalable, bloom_contains_text_scalable,
 *	bloom_contains_bytea_scalable, bloom_contains_uuid_scalable,
 *	bloom_contains_any_scalable, bloom_add_create_int8,
 *	bloom_add_create_int4, bloom_add_create_int2, bloom_add_create_text,
 *	bloom_add_create_bytea, bloom_add_create_uuid, bloom_add_create_any
 */
BT_KEY_TYPES(CONTAINS_, BT_NO_ALIAS)
BT_KEY_TYPES(ADD_CREATE_, BT_NO_ALIAS)

/* ---------------------------------------------------------------------
 * Union and intersection
 * ---------------------------------------------------------------------
 */

/* f's value of param, as the detail of a mismatch says it */
static char *
describe_param(const BloomFilter *f, BloomParam param)
{
	switch (param)
	{
		case BLOOM_PARAM_CAPACITY:
			return psprintf(UINT64_FORMAT, f->capacity);
		case BLOOM_PARAM_FPR:
			return psprintf("%g", f->fpr);
		case BLOOM_PARAM_NBLOCKS:
			return psprintf(UINT64_FORMAT, f->nblocks);
		case BLOOM_PARAM_HASHES:
			return psprintf("%d", f->k);
		case BLOOM_PARAM_SEED:
			return psprintf(UINT64_FORMAT, f->seed);
		case BLOOM_PARAM_EXPANSION:
			return psprintf(UINT64_FORMAT, f->expansion);
		case BLOOM_PARAM_GROWTH:
			return pstrdup(f->kind == BLOOM_KIND_SCALABLE ? "\"scalable\"" :
						   (f->flags & BLOOM_FLAG_NONSCALING) ? "\"fixed, refuses keys past capacity\"" :
						   "\"fixed, takes keys past capacity (1.0)\"");
		case BLOOM_PARAM_SLICING:
			return psprintf("%s, a window of %u",
							DatumGetCString(DirectFunctionCall1(interval_out,
																IntervalPGetDatum(bf_window_interval(f)))),
							f->window);
		case BLOOM_PARAM_KIND:
			return pstrdup(f->kind == BLOOM_KIND_WINDOWED ? "\"windowed\"" :
						   f->kind == BLOOM_KIND_SCALABLE ? "\"scalable\"" :
						   f->kind == BLOOM_KIND_HASHLIST ? "\"auto-sized bloom_agg state\"" :
						   bloom_is_fixed_state(f) ? "\"fixed-capacity bloom_agg state\"" :
						   "\"blocked\"");
		default:
			/* the hash algorithm, the layers: only a crafted value differs */
			return psprintf("%d", f->kind);
	}
}

void
bf_check_compatible(const BloomFilter *a, const BloomFilter *b)
{
	BloomParam	param = (a->kind == BLOOM_KIND_WINDOWED && b->kind == BLOOM_KIND_WINDOWED) ?
		bloom_windowed_compatible(a, b) : bloom_compatible(a, b);

	if (param == BLOOM_PARAM_NONE)
		return;
	if (param == BLOOM_PARAM_KEY_TYPE)
		bloom_check_key_classes(a->key_class, a->key_type, b->key_class, b->key_type);
	bt_param_mismatch("bloom filters", param,
					  describe_param(a, param), describe_param(b, param),
					  a->kind == BLOOM_KIND_WINDOWED || b->kind == BLOOM_KIND_WINDOWED ?
					  "Only windowed filters made by bloom_window with the same capacity, false-positive rate, slice and slices combine." :
					  "Only filters built with the same capacity, false-positive rate and expansion combine, e.g. from bloom_empty(capacity, fpr) or bloom_agg(key, capacity, fpr).");
}

/*
 * Combines fb into fa, which describes a private copy: union or
 * intersection, by the core's bloom_merge.  Scalable filters combine layer
 * by layer; their union is a new value in cxt.  Returns the result,
 * decoded into fa.
 */
struct varlena *
bf_merge_into(BloomFilter *fa, const BloomFilter *fb, bool intersect,
			  MemoryContext cxt)
{
	BloomAlloc	al = bt_allocator(cxt);
	uint64		la = fa->nlayers;
	BloomStatus st;

	bf_check_compatible(fa, fb);
	if (intersect && fa->kind == BLOOM_KIND_WINDOWED)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot intersect windowed bloom filters"),
				 errhint("Test both filters instead: bloom_contains(a, key) AND bloom_contains(b, key).")));
	st = bloom_merge(fa, fb, intersect, &al);
	if (st == BLOOM_E_GROWN)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot intersect scalable bloom filters that have grown past their first layer"),
				 errdetail("The filters have " UINT64_FORMAT " and " UINT64_FORMAT " layers; a key can sit in different layers of the two, and a layer-by-layer intersection would lose it.",
						   la, fb->nlayers),
				 errhint("Test both filters instead: bloom_contains(a, key) AND bloom_contains(b, key).")));
	if (st != BLOOM_OK)
		elog(ERROR, "could not combine bloom filters: %s", bloom_status_message(st));
	return bt_varlena(fa->base);
}

/*
 * Whether the union of a and b is their aggregate's combine step: both
 * fixed-capacity states (kinds 3 and 7), at least one light, so that the
 * union of light states stays light and builds nothing
 */
bool
bf_unite_as_states(const BloomFilter *a, const BloomFilter *b)
{
	return bloom_is_fixed_state(a) && bloom_is_fixed_state(b) &&
		(a->kind == BLOOM_KIND_SPARSE || b->kind == BLOOM_KIND_SPARSE);
}

/*
 * Union or intersection.  An empty hash list (what bloom_agg gives for no
 * rows when it cannot know a size) holds nothing and has no size: it is
 * the identity of union and the zero of intersection.
 */
Datum
bf_merge(FunctionCallInfo fcinfo, bool intersect, BtApiVersion api)
{
	struct varlena *a;
	struct varlena *b;
	BloomFilter fa,
				fb;

	a = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	b = PG_DETOAST_DATUM(PG_GETARG_DATUM(1));
	bf_decode_or_error(a, &fa);
	bf_decode_or_error(b, &fb);
	if (bloom_is_empty_hashlist(&fa))
		PG_RETURN_POINTER(intersect ? a : b);
	if (bloom_is_empty_hashlist(&fb))
		PG_RETURN_POINTER(intersect ? b : a);

	/*
	 * Two light states (kind 7) unite as the aggregate's combine step does:
	 * their hashes appended, the result light until it would outgrow the
	 * dense state (then kind 3); nothing of their capacity is built.  So
	 * does a light state with a dense one (kind 3).
	 */
	if (!intersect && bf_unite_as_states(&fa, &fb))
	{
		a = bt_copy_into(a, CurrentMemoryContext);
		bf_decode_or_error(a, &fa);
		PG_RETURN_POINTER(bf_merge_into(&fa, &fb, false, CurrentMemoryContext));
	}

	/* aggregate states as the filters they stand for; a private result */
	(void) bf_as_filter(a, &fa, (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(0)),
						api, true);
	(void) bf_as_filter(b, &fb, NULL, api, false);
	PG_RETURN_POINTER(bf_merge_into(&fa, &fb, intersect, CurrentMemoryContext));
}

/* 1.2: an aggregate's hash list is read as the scalable filter 1.2 makes */
PG_FUNCTION_INFO_V1(bloom_union_scalable);
Datum
bloom_union_scalable(PG_FUNCTION_ARGS)
{
	return bf_merge(fcinfo, false, BT_API_1_2);
}

PG_FUNCTION_INFO_V1(bloom_intersect_scalable);
Datum
bloom_intersect_scalable(PG_FUNCTION_ARGS)
{
	return bf_merge(fcinfo, true, BT_API_1_2);
}

/* ---------------------------------------------------------------------
 * Inspection
 * ---------------------------------------------------------------------
 */


/*
 * bloom_info: an aggregate's hash list described as the filter api makes
 * of it (1.0: blocked, 1.2: scalable)
 */
Datum
bf_info(FunctionCallInfo fcinfo, BtApiVersion api)
{
	BloomFilter f;
	BloomInfo	info;
	BloomLightView view;
	struct varlena *v;
	int64		bytes;
	TupleDesc	tupdesc;
	Datum		values[15];
	bool		nulls[15] = {0};

	/* the row has 12 columns in versions 1.0 and 1.1, 15 from 1.2 */
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE ||
		(tupdesc->natts != 12 && tupdesc->natts != 15))
		elog(ERROR, "return type must be a row type of 12 or 15 columns");
	tupdesc = BlessTupleDesc(tupdesc);

	/* a light state from its hashes, as the filter it stands for */
	v = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	bf_decode_or_error(v, &f);
	if (f.kind == BLOOM_KIND_SPARSE)
	{
		(void) bf_light_view(&f, CurrentMemoryContext, &view);
		f = view.head;
		bloom_light_view_describe(&view, &info);
		bytes = (int64) (view.size + VARHDRSZ);
	}
	else
	{
		v = bf_as_filter(v, &f, NULL, api, false);
		if (bloom_describe(&f, &info, &bt_cancel) != BLOOM_OK)
			elog(ERROR, "bloom_info of an aggregate state that was not materialised");
		bytes = (int64) VARSIZE(v);
	}
	values[0] = CStringGetTextDatum(info.kind);
	values[1] = Int64GetDatum(clamp_int64(info.capacity));
	values[2] = Float8GetDatum(f.fpr);
	values[3] = Int64GetDatum((int64) info.bits);
	values[4] = Int32GetDatum(info.hashes);
	values[5] = Int64GetDatum(bytes);
	values[6] = Int64GetDatum(clamp_int64(f.nitems));
	values[7] = Int64GetDatum((int64) info.bits_set);
	values[8] = Int64GetDatum((int64) llround(info.estimated_items));
	values[9] = Float8GetDatum(info.estimated_fpr);
	values[10] = CStringGetTextDatum(bloom_key_class_name(f.key_class, f.key_type));
	values[11] = Int32GetDatum(f.version);
	values[12] = Int32GetDatum(info.layers);
	/* expansion: NULL for a 1.0 filter, which has no growth policy */
	values[13] = Int32GetDatum(info.expansion);
	nulls[13] = !info.has_expansion;
	values[14] = Float8GetDatum(info.estimated_fpr / f.fpr);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

PG_FUNCTION_INFO_V1(bloom_info_scalable);
Datum
bloom_info_scalable(PG_FUNCTION_ARGS)
{
	return bf_info(fcinfo, BT_API_1_2);
}

Datum
bf_cardinality(FunctionCallInfo fcinfo, BtApiVersion api)
{
	BloomFilter f;
	BloomLightView view;
	bool		light;

	(void) bf_read_arg(fcinfo, 0, &f, &view, &light, api);
	PG_RETURN_INT64((int64) llround(light ? view.estimated_items : bloom_estimate_items(&f, &bt_cancel)));
}

/* 1.6: a hash list read as 1.2's bloom_info reads it */
PG_FUNCTION_INFO_V1(bloom_cardinality_scalable);
Datum
bloom_cardinality_scalable(PG_FUNCTION_ARGS)
{
	return bf_cardinality(fcinfo, BT_API_1_6);
}
