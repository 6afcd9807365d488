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
 * of every non-NULL element added, or taken back (bt_family_change_all)
 */
PG_FUNCTION_INFO_V1(counting_batch_add_all);
Datum
counting_batch_add_all(PG_FUNCTION_ARGS)
{
	return bt_family_change_all(fcinfo, &cb_family, BT_CHANGE_ADD);
}

PG_FUNCTION_INFO_V1(counting_batch_remove_all);
Datum
counting_batch_remove_all(PG_FUNCTION_ARGS)
{
	return bt_family_change_all(fcinfo, &cb_family, BT_CHANGE_REMOVE);
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
