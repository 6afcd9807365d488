/*-------------------------------------------------------------------------
 *
 * bf_legacy.c
 *		The bloomfilter entry points that only the SQL of older versions
 *		binds, and the table of which version binds each C symbol.
 *
 * A database created at an older version, and not updated, calls these
 * symbols; they must stay, with their names and meanings.  Each passes the
 * SQL-API version that bound it (BtApiVersion) to the body every version
 * shares; what a version changes is said once, by the bt_api_* predicates
 * of bloom.h.
 *
 * Which SQL binds each C symbol of the family (<K> stands for every key
 * suffix of src/pg/keytypes.h: int8, int4, int2, text, bytea, uuid, any);
 * "1.x-1.y" means the install or update scripts from 1.x through 1.y,
 * "1.6" the generated install script too.  A symbol bound by 1.6 is
 * defined beside its function; those bound only before 1.6, here.
 *
 *	C symbol							bound by	defined in
 *	--------------------------------	---------	--------------
 *	bloom_add_<K>						1.0-1.1		bf_legacy.c
 *	bloom_add_create_<K>				1.2-1.6		bf_funcs.c
 *	bloom_contains_<K>					1.0-1.5		bf_legacy.c
 *	bloom_contains_<K>_scalable			1.6			bf_funcs.c
 *	bloom_union, bloom_intersect		1.0-1.1		bf_legacy.c
 *	bloom_union_scalable,
 *	bloom_intersect_scalable			1.2-1.6		bf_funcs.c
 *	bloom_info							1.0-1.1		bf_legacy.c
 *	bloom_info_scalable					1.2-1.6		bf_funcs.c
 *	bloom_cardinality					1.0-1.5		bf_legacy.c
 *	bloom_cardinality_scalable			1.6			bf_funcs.c
 *	bloom_empty							1.0-1.1		bf_legacy.c
 *	bloom_empty_scalable				1.2-1.6		bf_construct.c
 *	bloom_batch_add_all					1.1			bf_legacy.c
 *	bloom_batch_add_all_create			1.2-1.6		bf_batch.c
 *	bloom_batch_contains_{each,all,any}	1.1-1.5		bf_legacy.c
 *	bloom_scalable_batch_contains_
 *		{each,all,any}					1.6			bf_batch.c
 *	bloom_agg_trans_<K>					1.0-1.6		bf_agg.c
 *	bloom_agg_trans_<K>_scalable		1.2-1.6		bf_agg.c
 *	bloom_agg_trans_<K>_light			1.5-1.6		bf_agg.c
 *	bloom_agg_combine					1.0-1.6		bf_agg.c
 *	bloom_agg_final						1.0-1.1		bf_legacy.c
 *	bloom_agg_final_scalable			1.2-1.6		bf_agg.c
 *	bloom_union_trans					1.0-1.1		bf_legacy.c
 *	bloom_union_trans_scalable			1.2-1.6		bf_agg.c
 *
 * The type's I/O, casts and comparison (bloomfilter_*) are the same in
 * every version (bf_value.c, src/pg/glue_io.c).
 *
 *-------------------------------------------------------------------------
 */
#include "bloom.h"

/* bloom_add(f, key) of 1.0: a NULL filter gives NULL */
#define ADD_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(bloom_add, suffix, bf_add(fcinfo, enc, BT_API_1_0))

/* bloom_contains(f, key) of 1.0: a hash list read as 1.0's blocked filter */
#define CONTAINS_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(bloom_contains, suffix, bf_contains(fcinfo, enc, BT_API_1_0))

/* C names:
 *	bloom_add_int8, bloom_add_int4, bloom_add_int2, bloom_add_text,
 *	bloom_add_bytea, bloom_add_uuid, bloom_add_any, bloom_contains_int8,
 *	bloom_contains_int4, bloom_contains_int2, bloom_contains_text,
 *	bloom_contains_bytea, bloom_contains_uuid, bloom_contains_any
 */
BT_KEY_TYPES(ADD_, BT_NO_ALIAS)
BT_KEY_TYPES(CONTAINS_, BT_NO_ALIAS)

PG_FUNCTION_INFO_V1(bloom_union);
Datum
bloom_union(PG_FUNCTION_ARGS)
{
	return bf_merge(fcinfo, false, BT_API_1_0);
}

PG_FUNCTION_INFO_V1(bloom_intersect);
Datum
bloom_intersect(PG_FUNCTION_ARGS)
{
	return bf_merge(fcinfo, true, BT_API_1_0);
}

/* a row of 12 columns, a hash list described as 1.0's blocked filter */
PG_FUNCTION_INFO_V1(bloom_info);
Datum
bloom_info(PG_FUNCTION_ARGS)
{
	return bf_info(fcinfo, BT_API_1_0);
}

PG_FUNCTION_INFO_V1(bloom_cardinality);
Datum
bloom_cardinality(PG_FUNCTION_ARGS)
{
	return bf_cardinality(fcinfo, BT_API_1_0);
}

/* bloom_empty(capacity, fpr) of 1.0: a blocked filter */
PG_FUNCTION_INFO_V1(bloom_empty);
Datum
bloom_empty(PG_FUNCTION_ARGS)
{
	int64		capacity = PG_GETARG_INT64(0);
	double		fpr = PG_GETARG_FLOAT8(1);

	PG_RETURN_POINTER(bf_new(BF_BLOCKED, (uint64) capacity, fpr, 0,
							 &bt_call_cache(fcinfo)->plan, CurrentMemoryContext, NULL));
}

/* bloom_add_all(f, keys) of 1.1: a NULL filter gives NULL */
PG_FUNCTION_INFO_V1(bloom_batch_add_all);
Datum
bloom_batch_add_all(PG_FUNCTION_ARGS)
{
	return bf_add_all(fcinfo, BT_API_1_1);
}

/* the array forms of contains of 1.1: a hash list read as 1.0 reads it */
/* C names:
 *	bloom_batch_contains_each, bloom_batch_contains_all,
 *	bloom_batch_contains_any
 */
BT_BATCH_PROBE_ENTRIES(bloom, bf_batch_probe(BT_API_1_1))

/* bloom_agg's final function of 1.0: a blocked filter */
PG_FUNCTION_INFO_V1(bloom_agg_final);
Datum
bloom_agg_final(PG_FUNCTION_ARGS)
{
	return bf_agg_final(fcinfo, BT_API_1_0);
}

/* bloom_union_agg's of 1.0: a state read as 1.0's blocked filter */
PG_FUNCTION_INFO_V1(bloom_union_trans);
Datum
bloom_union_trans(PG_FUNCTION_ARGS)
{
	return bf_union_trans(fcinfo, BT_API_1_0);
}
