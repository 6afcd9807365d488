/*-------------------------------------------------------------------------
 *
 * cf_funcs.c
 *		The cuckoofilter functions a row at a time: cuckoo_empty,
 *		cuckoo_add, cuckoo_add_new, cuckoo_remove, cuckoo_contains,
 *		cuckoo_count, cuckoo_compact, union (|) and cuckoo_info.
 *
 *-------------------------------------------------------------------------
 */
#include "cf.h"

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"

PG_FUNCTION_INFO_V1(cuckoo_empty);
Datum
cuckoo_empty(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(cf_new((uint64) PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1),
							 PG_GETARG_INT32(2), PG_GETARG_INT32(3), PG_GETARG_INT32(4),
							 CurrentMemoryContext, NULL));
}

/*
 * cuckoo_contains(f, key) (CF.EXISTS), cuckoo_count(f, key) (CF.COUNT),
 * cuckoo_add(f, key) (CF.ADD: a copy even if present), cuckoo_add_new(f,
 * key) (CF.ADDNX: only if not maybe present; (NULL, key) makes a filter
 * with the defaults) and cuckoo_remove(f, key) (CF.DEL): the skeletons of
 * glue_family.c with cf_family
 */
#define CONTAINS_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(cuckoo_contains, suffix, bt_family_contains(fcinfo, &cf_family, enc))
#define COUNT_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(cuckoo_count, suffix, bt_family_count(fcinfo, &cf_family, enc))
#define ADD_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(cuckoo_add, suffix, bt_family_add(fcinfo, &cf_family, enc, false)) \
	BT_KEY_ENTRY(cuckoo_add_new, suffix, bt_family_add(fcinfo, &cf_family, enc, true))
#define REMOVE_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(cuckoo_remove, suffix, bt_family_remove(fcinfo, &cf_family, enc))

/* C names:
 *	cuckoo_contains_int8, cuckoo_contains_int4, cuckoo_contains_int2,
 *	cuckoo_contains_text, cuckoo_contains_bytea, cuckoo_contains_uuid,
 *	cuckoo_contains_any, cuckoo_count_int8, cuckoo_count_int4,
 *	cuckoo_count_int2, cuckoo_count_text, cuckoo_count_bytea,
 *	cuckoo_count_uuid, cuckoo_count_any, cuckoo_add_int8, cuckoo_add_int4,
 *	cuckoo_add_int2, cuckoo_add_text, cuckoo_add_bytea, cuckoo_add_uuid,
 *	cuckoo_add_any, cuckoo_add_new_int8, cuckoo_add_new_int4,
 *	cuckoo_add_new_int2, cuckoo_add_new_text, cuckoo_add_new_bytea,
 *	cuckoo_add_new_uuid, cuckoo_add_new_any, cuckoo_remove_int8,
 *	cuckoo_remove_int4, cuckoo_remove_int2, cuckoo_remove_text,
 *	cuckoo_remove_bytea, cuckoo_remove_uuid, cuckoo_remove_any
 */
BT_KEY_TYPES(CONTAINS_, BT_NO_ALIAS)
BT_KEY_TYPES(COUNT_, BT_NO_ALIAS)
BT_KEY_TYPES(ADD_, BT_NO_ALIAS)
BT_KEY_TYPES(REMOVE_, BT_NO_ALIAS)

/* cuckoo_compact(f) (CF.COMPACT) */
PG_FUNCTION_INFO_V1(cuckoo_compact_sql);
Datum
cuckoo_compact_sql(PG_FUNCTION_ARGS)
{
	struct varlena *v = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	CuckooFilter f,
				out;
	BloomAlloc	a = bt_allocator(CurrentMemoryContext);
	BloomStatus st;

	cf_decode_or_error(v, &f);
	if (f.hdr.kind == BLOOM_KIND_HASHLIST)
	{
		/*
		 * A hash list is already smaller than any filter, and answers as the
		 * filter it stands for: it stays as it is (its canonical bytes),
		 * rather than become the filter of its capacity
		 */
		struct varlena *c;

		if (bloom_is_canonical(&f.hdr))
			PG_RETURN_POINTER(v);
		c = bt_new_varlena(bloom_canonical_size(&f.hdr), CurrentMemoryContext);
		bloom_canonical_write(&f.hdr, BT_DATA(c));
		PG_RETURN_POINTER(c);
	}
	if ((st = cuckoo_compact(&f, &a, &out)) != BLOOM_OK)
		elog(ERROR, "could not compact a cuckoo filter: %s", bloom_status_message(st));
	PG_RETURN_POINTER(bt_varlena(out.hdr.base));
}

/*
 * a | b: b's fingerprints reinserted into a copy of a (the bytes depend on
 * the order, the answers do not).  An empty hash list (cuckoo_agg of no
 * rows, when it could not know a size) is the identity; two hash lists
 * with a capacity stay a list (cf_list_union), never the filters of
 * their capacity.
 */
PG_FUNCTION_INFO_V1(cuckoo_union);
Datum
cuckoo_union(PG_FUNCTION_ARGS)
{
	struct varlena *a,
			   *b,
			   *r;
	CuckooFilter fa,
				fb;

	if ((r = bt_family_union_args(fcinfo, &cf_family, &a, &b, &fa.hdr, &fb.hdr)) != NULL)
		PG_RETURN_POINTER(r);
	if (fa.hdr.kind == BLOOM_KIND_HASHLIST && fb.hdr.kind == BLOOM_KIND_HASHLIST &&
		fa.hdr.capacity > 0 && fb.hdr.capacity > 0)
		PG_RETURN_POINTER(cf_list_union(a, &fa, &fb, &bt_call_cache(fcinfo)->plan));
	(void) cf_arg(fcinfo, 0, &fa, true);
	(void) cf_arg(fcinfo, 1, &fb, false);
	PG_RETURN_POINTER(cf_merge_into(&fa, &fb, CurrentMemoryContext));
}

PG_FUNCTION_INFO_V1(cuckoo_info);
Datum
cuckoo_info(PG_FUNCTION_ARGS)
{
	struct varlena *v = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	CuckooFilter f;
	CkTable		table;
	int64		bytes;
	CuckooInfo	info;
	TupleDesc	tupdesc;
	Datum		values[18];
	bool		nulls[18] = {0};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE ||
		tupdesc->natts != 18)
		elog(ERROR, "return type must be a row type of 18 columns");
	tupdesc = BlessTupleDesc(tupdesc);
	cf_decode_or_error(v, &f);
	if (f.hdr.kind == BLOOM_KIND_HASHLIST && f.hdr.capacity > 0 &&
		cuckoo_list_build_cheaper(&f.hdr))
	{
		/* the filter it stands for, built: smaller than its simulation */
		v = cf_materialize(&f, CurrentMemoryContext);
		bytes = (int64) VARSIZE(v);
	}
	else if (f.hdr.kind == BLOOM_KIND_HASHLIST && f.hdr.capacity > 0)
	{
		/* the fields of the filter it stands for, simulated */
		cf_simulate(&f, &table, CurrentMemoryContext);
		bytes = (int64) (VARHDRSZ + cuckoo_value_size(&f));
	}
	else
	{
		v = cf_arg(fcinfo, 0, &f, false);
		bytes = (int64) VARSIZE(v);
	}
	cuckoo_describe(&f, &info);
	values[0] = Int64GetDatum(clamp_int64(info.capacity));
	values[1] = Float8GetDatum(f.hdr.fpr);
	values[2] = Int64GetDatum(bytes);
	values[3] = Int64GetDatum(clamp_int64(info.buckets));
	values[4] = Int32GetDatum((int32) f.b);
	values[5] = Int32GetDatum(info.fbits);
	values[6] = Int32GetDatum((int32) f.nsubs);
	values[7] = Int64GetDatum(clamp_int64(f.hdr.nitems));
	values[8] = Int64GetDatum(clamp_int64(f.deletes));
	values[9] = Int64GetDatum(clamp_int64(f.absorbed));
	values[10] = Int64GetDatum(clamp_int64(f.stuck));
	values[11] = Float8GetDatum(info.load_factor);
	values[12] = Int32GetDatum((int32) f.expansion);
	values[13] = Int32GetDatum((int32) f.max_kicks);
	values[14] = Float8GetDatum(info.estimated_fpr);
	values[15] = Float8GetDatum(info.estimated_fpr / f.hdr.fpr);
	values[16] = CStringGetTextDatum(bloom_key_class_name(f.hdr.key_class, f.hdr.key_type));
	values[17] = Int32GetDatum(f.hdr.version);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
