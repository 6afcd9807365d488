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
/* C names:
 *	counting_batch_add_all, counting_batch_remove_all
 */
BT_FAMILY_BATCH_ENTRIES(counting, &cb_family)

/* a counting filter's block, on its way while the keys before it are read */
static void
prefetch(const BloomFilter *f, uint64 h)
{
	if (f->kind == BLOOM_KIND_COUNTING)
		__builtin_prefetch(bloom_bits_block(f->data, f->nblocks, h));
}

static const BtBatchProbe probe = {
	.methods = &cb_probe_methods,
	.noun = CB_NOUN,
	.contains = cb_contains,
	.prefetch = prefetch,
};

/*
 * contains_each(f, keys anyarray) returns boolean[] (NULL for a NULL
 * element, keys' dimensions); contains_all and contains_any, whether every
 * or some element may be present, with the NULL rules of = ALL and = ANY
 */
/* C names:
 *	counting_batch_contains_each, counting_batch_contains_all,
 *	counting_batch_contains_any
 */
BT_BATCH_PROBE_ENTRIES(counting, &probe)
