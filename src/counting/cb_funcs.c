/*-------------------------------------------------------------------------
 *
 * cb_funcs.c
 *		The countingbloom functions a row at a time: counting_empty,
 *		counting_add, counting_remove, counting_contains, counting_count,
 *		union (|), counting_info and counting_to_bloom.
 *
 *-------------------------------------------------------------------------
 */
#include "cbf.h"

#include <math.h>

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"

PG_FUNCTION_INFO_V1(counting_empty);
Datum
counting_empty(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(cb_new((uint64) PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1),
							 &bt_call_cache(fcinfo)->plan, CurrentMemoryContext, NULL));
}

/*
 * counting_contains(f, key), counting_count(f, key), counting_add(f, key)
 * (one more copy; (NULL, key) makes a filter of CB_CREATE_CAPACITY keys at
 * 1%) and counting_remove(f, key) (one copy taken back): the skeletons of
 * glue_family.c with cb_family
 */
#define CONTAINS_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(counting_contains, suffix, bt_family_contains(fcinfo, &cb_family, enc))
#define COUNT_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(counting_count, suffix, bt_family_count(fcinfo, &cb_family, enc))
#define ADD_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(counting_add, suffix, bt_family_add(fcinfo, &cb_family, enc, false))
#define REMOVE_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(counting_remove, suffix, bt_family_remove(fcinfo, &cb_family, enc))

/* C names:
 *	counting_contains_int8, counting_contains_int4,
 *	counting_contains_int2, counting_contains_text,
 *	counting_contains_bytea, counting_contains_uuid,
 *	counting_contains_any, counting_count_int8, counting_count_int4,
 *	counting_count_int2, counting_count_text, counting_count_bytea,
 *	counting_count_uuid, counting_count_any, counting_add_int8,
 *	counting_add_int4, counting_add_int2, counting_add_text,
 *	counting_add_bytea, counting_add_uuid, counting_add_any,
 *	counting_remove_int8, counting_remove_int4, counting_remove_int2,
 *	counting_remove_text, counting_remove_bytea, counting_remove_uuid,
 *	counting_remove_any
 */
BT_KEY_TYPES(CONTAINS_, BT_NO_ALIAS)
BT_KEY_TYPES(COUNT_, BT_NO_ALIAS)
BT_KEY_TYPES(ADD_, BT_NO_ALIAS)
BT_KEY_TYPES(REMOVE_, BT_NO_ALIAS)

/*
 * a | b: counters add (saturating), so the union is the filter of both
 * filters' adds.  An empty hash list (counting_agg of no rows, when it
 * could not know a size) is the identity.
 */
PG_FUNCTION_INFO_V1(counting_union);
Datum
counting_union(PG_FUNCTION_ARGS)
{
	struct varlena *a,
			   *b,
			   *r;
	BloomFilter fa,
				fb;

	if ((r = bt_family_union_args(fcinfo, &cb_family, &a, &b, &fa, &fb)) != NULL)
		PG_RETURN_POINTER(r);
	if ((fa.kind == BLOOM_KIND_SPARSE_COUNTING || fb.kind == BLOOM_KIND_SPARSE_COUNTING) &&
		fa.kind != BLOOM_KIND_HASHLIST && fb.kind != BLOOM_KIND_HASHLIST)
	{
		/*
		 * A light state joins as its hashes: two light states stay light
		 * until their hashes would outgrow the counting filter
		 */
		BloomAlloc	al = bt_allocator(CurrentMemoryContext);
		BloomStatus st;

		bt_family_check_compatible(&cb_family, &fa, &fb);
		a = bt_copy_into(a, CurrentMemoryContext);
		cb_decode_or_error(a, &fa);
		if ((st = counting_state_merge(&fa, &fb, &al)) != BLOOM_OK)
			elog(ERROR, "could not unite counting bloom filters: %s", bloom_status_message(st));
		PG_RETURN_POINTER(bt_varlena(fa.base));
	}
	a = cb_arg(fcinfo, 0, &fa, true);
	(void) cb_arg(fcinfo, 1, &fb, false);
	bt_family_check_compatible(&cb_family, &fa, &fb);
	counting_merge(&fa, &fb, &bt_cancel);
	PG_RETURN_POINTER(a);
}

PG_FUNCTION_INFO_V1(counting_info);
Datum
counting_info(PG_FUNCTION_ARGS)
{
	BloomFilter f;
	struct varlena *v = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	int64		bytes;
	CountingInfo info;
	TupleDesc	tupdesc;
	Datum		values[16];
	bool		nulls[16] = {0};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE ||
		tupdesc->natts != 16)
		elog(ERROR, "return type must be a row type of 16 columns");
	tupdesc = BlessTupleDesc(tupdesc);
	cb_decode_or_error(v, &f);
	if (f.kind == BLOOM_KIND_SPARSE_COUNTING)
	{
		/* from the hashes: the fields of the counting filter it stands for */
		(void) cb_light_view(&f, CurrentMemoryContext);
		counting_light_describe(&f, &info, &bt_cancel);
		bytes = (int64) (VARHDRSZ + counting_size(f.nblocks));
		f.version = BLOOM_FORMAT_VERSION_3;
	}
	else
	{
		v = cb_arg(fcinfo, 0, &f, false);
		counting_describe(&f, &info, &bt_cancel);
		bytes = (int64) VARSIZE(v);
	}
	values[0] = Int64GetDatum(clamp_int64(f.capacity));
	values[1] = Float8GetDatum(f.fpr);
	values[2] = Int32GetDatum(f.k);
	values[3] = Int64GetDatum(clamp_int64(info.counters));
	values[4] = Int32GetDatum(4);
	values[5] = Int64GetDatum(bytes);
	values[6] = Int64GetDatum(clamp_int64(f.nitems));
	values[7] = Int64GetDatum(clamp_int64(f.nremoves));
	values[8] = Int64GetDatum(clamp_int64(info.counters_set));
	values[9] = Int64GetDatum(clamp_int64(info.saturated));
	values[10] = Int32GetDatum((int32) info.max_counter);
	values[11] = Int64GetDatum((int64) llround(info.estimated_items));
	values[12] = Float8GetDatum(info.estimated_fpr);
	values[13] = Float8GetDatum(info.estimated_fpr / f.fpr);
	values[14] = CStringGetTextDatum(bloom_key_class_name(f.key_class, f.key_type));
	values[15] = Int32GetDatum(f.version);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * counting_to_bloom(f): the bloomfilter (fixed, of the same capacity and
 * rate) whose bits are f's presence bits: it answers every key as f does.
 */
PG_FUNCTION_INFO_V1(counting_to_bloom_sql);
Datum
counting_to_bloom_sql(PG_FUNCTION_ARGS)
{
	struct varlena *v = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	BloomFilter f,
				out;
	struct varlena *r;

	cb_decode_or_error(v, &f);
	if (f.kind != BLOOM_KIND_SPARSE_COUNTING)
		(void) cb_arg(fcinfo, 0, &f, false);
	r = bt_new_varlena(bloom_blocked_size(f.nblocks), CurrentMemoryContext);
	/* a light state's hashes set the bits: its counters are never built */
	if (f.kind == BLOOM_KIND_SPARSE_COUNTING)
		counting_light_to_bloom(&f, BT_DATA(r), &out);
	else
		counting_to_bloom(&f, BT_DATA(r), &out);
	PG_RETURN_POINTER(r);
}
