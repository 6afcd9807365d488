/*-------------------------------------------------------------------------
 *
 * cb_batch.c
 *		Batch forms of the countingbloom functions over the elements of an
 *		array: counting_add_all, counting_remove_all, counting_contains_each,
 *		counting_contains_all and counting_contains_any.
 *
 *-------------------------------------------------------------------------
 */
#include "cbf.h"

/*
 * counting_add_all(f, keys) and counting_remove_all(f, keys): f with a copy
 * of every non-NULL element added, or taken back (certainly absent ones
 * change nothing).  A NULL f: add makes a filter, remove gives NULL.
 */
static Datum
change_all(FunctionCallInfo fcinfo, bool add)
{
	BloomKeyInfo *ki;
	struct varlena *v;
	BloomFilter f;
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
	v = cb_add_target(fcinfo, &f);
	ki = bt_cache_key(fcinfo, BKE_UNKNOWN, true);
	bt_hash_elements(fcinfo, ki, f.seed, &keys);
	for (int i = 0; i < keys.n; i++)
	{
		BT_CANCEL_POINT(i);
		if (keys.nulls[i])
			continue;
		if (add)
		{
			bt_admit_key(CB_NOUN, &f, ki);
			counting_add(&f, keys.hashes[i]);
		}
		else if (f.key_class != BLOOM_KEY_NONE)
		{
			bt_check_key(CB_NOUN, &f, ki);
			(void) counting_remove(&f, keys.hashes[i]);
		}
	}
	PG_RETURN_POINTER(v);
}

PG_FUNCTION_INFO_V1(counting_batch_add_all);
Datum
counting_batch_add_all(PG_FUNCTION_ARGS)
{
	return change_all(fcinfo, true);
}

PG_FUNCTION_INFO_V1(counting_batch_remove_all);
Datum
counting_batch_remove_all(PG_FUNCTION_ARGS)
{
	return change_all(fcinfo, false);
}

/* The answers for the non-NULL keys of a batch */
static void
lookup_batch(const void *filter, const BtBatchKeys *keys, bool *found)
{
	const BloomFilter *f = filter;

	if (f->kind == BLOOM_KIND_SPARSE_COUNTING)
	{
		/* a light state (cb_light_view): a binary search a key */
		for (int i = 0; i < keys->n; i++)
			found[i] = !keys->nulls[i] && counting_light_contains(f, keys->hashes[i]);
		return;
	}
	for (int i = 0; i < keys->n; i++)
	{
		BT_CANCEL_POINT(i);
		if (i + 8 < keys->n)
			__builtin_prefetch(bloom_bits_block(f->data, f->nblocks, keys->hashes[i + 8]));
		found[i] = !keys->nulls[i] && counting_contains(f, keys->hashes[i]);
	}
}

static const BtBatchProbe probe = {
	.methods = &cb_probe_methods,
	.noun = CB_NOUN,
	.lookup = lookup_batch,
};

/*
 * contains_each(f, keys anyarray) returns boolean[] (NULL for a NULL
 * element, keys' dimensions); contains_all and contains_any, whether every
 * or some element may be present, with the NULL rules of = ALL and = ANY
 */
BT_BATCH_PROBE_ENTRIES(counting, &probe)
