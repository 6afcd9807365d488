/*-------------------------------------------------------------------------
 *
 * cf_batch.c
 *		Batch forms of the cuckoofilter functions over the elements of an
 *		array: cuckoo_add_all (CF.INSERT), cuckoo_add_new_all (CF.INSERTNX),
 *		cuckoo_remove_all, cuckoo_contains_each (CF.MEXISTS),
 *		cuckoo_contains_all and cuckoo_contains_any.
 *
 *-------------------------------------------------------------------------
 */
#include "cf.h"

/*
 * f with a copy of every non-NULL element added (add_new_all: each that is
 * not maybe present by then), or taken back (bt_family_change_all)
 */
/* C names:
 *	cuckoo_batch_add_all, cuckoo_batch_remove_all
 */
BT_FAMILY_BATCH_ENTRIES(cuckoo, &cf_family)

PG_FUNCTION_INFO_V1(cuckoo_batch_add_new_all);
Datum
cuckoo_batch_add_new_all(PG_FUNCTION_ARGS)
{
	return bt_family_change_all(fcinfo, &cf_family, BT_CHANGE_ADD_NEW);
}

static const BtBatchProbe probe = {
	.methods = &cf_probe_methods,
	.noun = CF_NOUN,
	.contains = cf_contains,
};

/*
 * contains_each(f, keys anyarray) returns boolean[] (NULL for a NULL
 * element, keys' dimensions); contains_all and contains_any, whether every
 * or some element may be present, with the NULL rules of = ALL and = ANY
 */
/* C names:
 *	cuckoo_batch_contains_each, cuckoo_batch_contains_all,
 *	cuckoo_batch_contains_any
 */
BT_BATCH_PROBE_ENTRIES(cuckoo, &probe)
