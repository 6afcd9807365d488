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
 * f with a copy of every non-NULL element added (only_new: each that is
 * not maybe present by then), or taken back (remove).  A NULL f: adding
 * makes a filter with the defaults, removing gives NULL.
 */
static Datum
change_all(FunctionCallInfo fcinfo, bool add, bool only_new)
{
	BloomKeyInfo *ki;
	struct varlena *v;
	CuckooFilter f;
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
	v = cf_add_target(fcinfo, &f);
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

			bt_admit_key(CF_NOUN, &f.hdr, ki);
			g = cf_add_hash(v, &f, keys.hashes[i], only_new, CurrentMemoryContext);
			if (g != v)
				pfree(v);
			v = g;
		}
		else if (f.hdr.key_class != BLOOM_KEY_NONE)
		{
			bt_check_key(CF_NOUN, &f.hdr, ki);
			(void) cuckoo_remove(&f, keys.hashes[i]);
		}
	}
	PG_RETURN_POINTER(v);
}

PG_FUNCTION_INFO_V1(cuckoo_batch_add_all);
Datum
cuckoo_batch_add_all(PG_FUNCTION_ARGS)
{
	return change_all(fcinfo, true, false);
}

PG_FUNCTION_INFO_V1(cuckoo_batch_add_new_all);
Datum
cuckoo_batch_add_new_all(PG_FUNCTION_ARGS)
{
	return change_all(fcinfo, true, true);
}

PG_FUNCTION_INFO_V1(cuckoo_batch_remove_all);
Datum
cuckoo_batch_remove_all(PG_FUNCTION_ARGS)
{
	return change_all(fcinfo, false, false);
}

/* The answers for the non-NULL keys of a batch */
static void
lookup_batch(const void *filter, const BtBatchKeys *keys, bool *found)
{
	const CuckooFilter *f = filter;

	for (int i = 0; i < keys->n; i++)
	{
		BT_CANCEL_POINT(i);
		found[i] = !keys->nulls[i] && cuckoo_contains(f, keys->hashes[i]);
	}
}

static const BtBatchProbe probe = {
	.methods = &cf_probe_methods,
	.noun = CF_NOUN,
	.lookup = lookup_batch,
};

/*
 * contains_each(f, keys anyarray) returns boolean[] (NULL for a NULL
 * element, keys' dimensions); contains_all and contains_any, whether every
 * or some element may be present, with the NULL rules of = ALL and = ANY
 */
BT_BATCH_PROBE_ENTRIES(cuckoo, &probe)
