/*-------------------------------------------------------------------------
 *
 * bf_batch.c
 *		Batch forms of add and contains, over the elements of an array:
 *		bloom_add_all, bloom_contains_each, bloom_contains_all and
 *		bloom_contains_any (RedisBloom's BF.INSERT and BF.MEXISTS).
 *
 * All the keys of a batch are hashed first; then the block of the key some
 * steps ahead is prefetched while the current one is tested, so that the
 * cache misses of a batch overlap, which a row at a time cannot do.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom.h"

#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/lsyscache.h"

#define BATCH_PREFETCH_AHEAD	16

static inline void
prefetch_block(const BloomFilter *f, uint64 h)
{
	if (f->kind == BLOOM_KIND_SCALABLE || f->kind == BLOOM_KIND_WINDOWED)
		__builtin_prefetch(bloom_bits_block(f->layers[0].data, f->layers[0].nblocks, h));
	else
		__builtin_prefetch(bloom_bits_block(f->data, f->nblocks, h));
}

/* Answers for every element: found[i], or NULL where the element is */
static void
probe_all(const void *filter, const BtBatchKeys *keys, bool *found)
{
	const BfProbe *p = filter;
	const BloomFilter *f = &p->f;

	if (p->light)
	{
		/* a light state's view: a binary search, then one block */
		for (int i = 0; i < keys->n; i++)
			found[i] = !keys->nulls[i] && f->key_class != BLOOM_KEY_NONE &&
				bloom_light_view_contains(&p->view, keys->hashes[i]);
		return;
	}
	for (int i = 0; i < keys->n; i++)
	{
		BT_CANCEL_POINT(i);
		/* a grown scalable filter prefetches its layers in each lookup */
		if (i + BATCH_PREFETCH_AHEAD < keys->n && !keys->nulls[i + BATCH_PREFETCH_AHEAD] &&
			(f->kind == BLOOM_KIND_BLOCKED || f->nlayers == 1))
			prefetch_block(f, keys->hashes[i + BATCH_PREFETCH_AHEAD]);
		if (keys->nulls[i] || f->key_class == BLOOM_KEY_NONE)
			found[i] = false;
		else if (f->kind == BLOOM_KIND_SCALABLE || f->kind == BLOOM_KIND_WINDOWED)
			found[i] = bloom_filter_contains(f, keys->hashes[i]);	/* prefetches its layers */
		else
			found[i] = bloom_contains_hash(f, keys->hashes[i]);
	}
}

/*
 * bloom_add_all(f, keys anyarray): f with every non-NULL element added.  A
 * NULL f gives NULL (version 1.1) or a new filter (bt_api_creates_on_add:
 * 1.2).
 */
Datum
bf_add_all(FunctionCallInfo fcinfo, BtApiVersion api)
{
	BloomKeyInfo *ki;
	struct varlena *v;
	BloomFilter f;
	BtBatchKeys	keys;
	uint8	   *le;
	int			m = 0;

	if ((v = bf_add_target(fcinfo, api, &f)) == NULL)
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	ki = bt_cache_key(fcinfo, BKE_UNKNOWN, true);
	bt_hash_elements(fcinfo, ki, f.seed, &keys);
	le = palloc(Max(keys.n, 1) * 8);
	for (int i = 0; i < keys.n; i++)
		if (!keys.nulls[i])
			bloom_put_le64(le + 8 * m++, keys.hashes[i]);
	if (m == 0)
		PG_RETURN_POINTER(v);
	bf_admit_key(&f, ki);
	if (f.kind == BLOOM_KIND_BLOCKED && !(f.flags & BLOOM_FLAG_NONSCALING))
	{
		/* a 1.0 filter takes every key: insert in prefetched batches */
		bloom_insert_many(&f, le, m, &bt_cancel);
		f.nitems = bloom_sat_add(f.nitems, m);
		bloom_store_items(&f);
		PG_RETURN_POINTER(v);
	}
	/* one by one: each key is tested first, and may make the filter grow */
	for (int i = 0; i < m; i++)
	{
		struct varlena *g;

		BT_CANCEL_POINT(i);
		g = bf_add_hash(v, &f, bloom_get_le64(le + 8 * i), NULL,
						CurrentMemoryContext);
		if (g != v)
			pfree(v);
		v = g;
	}
	PG_RETURN_POINTER(v);
}

PG_FUNCTION_INFO_V1(bloom_batch_add_all_create);
Datum
bloom_batch_add_all_create(PG_FUNCTION_ARGS)
{
	return bf_add_all(fcinfo, BT_API_1_2);
}

static const BtBatchProbe probe = {
	.methods = &bf_probe_as_blocked,
	.noun = "bloom filter",
	.lookup = probe_all,
};

static const BtBatchProbe probe_scalable = {
	.methods = &bf_probe_as_scalable,
	.noun = "bloom filter",
	.lookup = probe_all,
};

/* The shared batch code's probe of a filter argument as api reads it */
const BtBatchProbe *
bf_batch_probe(BtApiVersion api)
{
	return bt_api_reads_hashlist_as_scalable(api) ? &probe_scalable : &probe;
}

/*
 * contains_each(f, keys anyarray) returns boolean[] (NULL for a NULL
 * element, keys' dimensions); contains_all and contains_any, whether every
 * or some element may be present, with the NULL rules of = ALL and = ANY.
 * bloom_scalable_batch_contains_* (1.6) read an aggregate's hash list as
 * the scalable filter of 1.2.
 */
/* C names:
 *	bloom_scalable_batch_contains_each, bloom_scalable_batch_contains_all,
 *	bloom_scalable_batch_contains_any
 */
BT_BATCH_PROBE_ENTRIES(bloom_scalable, bf_batch_probe(BT_API_1_6))
