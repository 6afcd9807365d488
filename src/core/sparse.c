/*-------------------------------------------------------------------------
 *
 * sparse.c
 *		Light states of bloom_agg(key, capacity, fpr) (kind 7, format
 *		version 4): the buffered state's header and the 64-bit hashes of
 *		the keys added, 8 bytes each, until they would take more room than
 *		the buffered state's bits and pending area; then the state becomes
 *		that buffered state (kind 3), and stays one.
 *
 * A partial state that holds few keys for its capacity (a shard's share of
 * a Citus table, a parallel worker's share) so costs bytes in proportion
 * to its keys, not its capacity, in memory and on the wire.  The filter it
 * stands for is the one the buffered state would give: the same bits (an
 * OR of each hash's bits, in any order), the same count of rows, so the
 * results of bloom_agg are byte for byte those of the dense state.  The
 * slots, and how they grow, are those of countingbloom's light state
 * (kind 8) too: hashlist.c's.
 *
 *-------------------------------------------------------------------------
 */
#include "aggstate.h"

/*
 * The most hashes a light state of nblocks blocks holds: as many as fit in
 * the buffered state's bits and pending area, so that it is never larger
 */
uint64_t
bloom_sparse_limit(uint64_t nblocks)
{
	return (bloom_buffered_size(nblocks) - BLOOM_HEADER_SIZE) / 8;
}

/*
 * The light state of bloom_agg(key, capacity, fpr), decoded into out, in
 * memory from a: bloom_new_buffered's plan (layer: as a scalable filter's
 * first layer) and no hashes.  A capacity too large for a
 * buffered state is bloom_new_buffered's answer (a blocked filter, or
 * BLOOM_E_CAPACITY).
 */
BloomStatus
bloom_new_sparse(uint64_t capacity, double fpr, bool layer, BloomPlan *plan,
				 const BloomAlloc *a, BloomFilter *out)
{
	BloomPlan	local = {0};
	BloomFilter f;
	uint64_t	nblocks,
				nslots;
	uint8_t    *buf;
	BloomStatus st;

	if (plan == NULL)
		plan = &local;
	if (capacity == 0 || (layer && !bloom_scalable_fpr_valid(fpr)) ||
		bloom_plan_reuse(layer ? bloom_layer_fpr(fpr, 0) : fpr, plan) != BLOOM_OK)
		return BLOOM_E_PARAMS;
	if ((st = bloom_plan_size(plan, capacity, &nblocks)) != BLOOM_OK)
		return st;
	if (nblocks > BLOOM_MAX_BUFFERED_BLOCKS)
		return bloom_new_buffered(capacity, fpr, layer, plan, a, out);
	nslots = BLOOM_HASHLIST_MIN_SLOTS;
	if ((buf = bloom_alloc_value(a, bloom_sparse_size(nslots))) == NULL)
		return BLOOM_E_NOMEM;
	memset(buf, 0, bloom_sparse_size(nslots));
	bloom_header_init(&f, buf, BLOOM_KIND_SPARSE, capacity, fpr, 0);
	f.k = (uint8_t) plan->k;
	f.block_log2 = BLOOM_BLOCK_LOG2;
	f.flags = layer ? BLOOM_FLAG_SCALABLE_STATE : 0;
	f.nblocks = nblocks;
	bloom_sparse_write(buf, &f, nslots, out);
	return BLOOM_OK;
}

/*
 * Replaces the light state f by the buffered state it stands for (a new
 * value from a; the old one is the caller's): the header bloom_new_buffered
 * writes, the key class and rows counted, and every hash's bits.
 */
BloomStatus
bloom_sparse_densify(BloomFilter *f, const BloomAlloc *a)
{
	size_t		size = bloom_buffered_size(f->nblocks);
	uint8_t    *buf = bloom_alloc_value(a, size);
	BloomFilter d;
	BloomStatus st;

	if (buf == NULL)
		return BLOOM_E_NOMEM;
	bloom_init_buffered(buf, f->nblocks, f->k, f->capacity, f->fpr, f->seed);
	if ((st = bloom_decode_as(buf, size, &d, &bloom_buffered_ops)) != BLOOM_OK)
		return st;
	if (f->flags & BLOOM_FLAG_SCALABLE_STATE)
		bloom_set_flag(&d, BLOOM_FLAG_SCALABLE_STATE);
	bloom_store_key_class(&d, f->key_class, f->key_type);
	d.nitems = f->nitems;
	bloom_insert_many(&d, f->data, f->nhashes, bloom_alloc_cancel(a));
	bloom_write_header(&d);
	*f = d;
	return BLOOM_OK;
}

/*
 * Appends n hashes (little-endian, at src) to the light state f (kind 7):
 * in place when they fit, else into a copy with half as many slots again
 * (or as many as needed: bloom_slots_append); past the limit, f becomes
 * the buffered state it stands for, the hashes in its pending list.  f may
 * move to a new value from a (the old one is the caller's).  The caller
 * counts the rows.
 */
BloomStatus
bloom_sparse_append(BloomFilter *f, const uint8_t *src, uint64_t n, const BloomAlloc *a)
{
	BloomStatus st = bloom_slots_append(f, src, n, bloom_sparse_limit(f->nblocks), a);

	if (st != BLOOM_E_FULL)
		return st;
	if ((st = bloom_sparse_densify(f, a)) != BLOOM_OK)
		return st;
	for (uint64_t i = 0; i < n; i++)
	{
		bloom_cancel_point(bloom_alloc_cancel(a), i);
		bloom_buffered_push(f, bloom_get_le64(src + 8 * i));
	}
	return BLOOM_OK;
}

/*
 * Version 4 only (bloom_decode checks).  The fields kind 3 has, checked as
 * kind 3 checks them, and the hashes: whole slots, at most the limit, the
 * hashes in use among them and counted as rows.
 * Reads the header and the length only: bloom_agg's transition memo
 * (bt_state_recall) relies on it.
 */
static BloomStatus
sparse_decode(const uint8_t *buf, size_t len, BloomFilter *f)
{
	BloomStatus st;

	(void) buf;
	/* either plan, in version 4 alike (kind 3 ties the flag to version 2) */
	if (f->flags != 0 && f->flags != BLOOM_FLAG_SCALABLE_STATE)
		return BLOOM_E_FLAGS;
	if ((st = bloom_validate_rate_geometry(f)) != BLOOM_OK)
		return st;
	if (f->nblocks > BLOOM_MAX_BUFFERED_BLOCKS)
		return BLOOM_E_GEOMETRY;
	if (f->capacity < 1 || f->capacity > f->nblocks * BLOOM_BLOCK_BITS)
		return BLOOM_E_PARAMS;
	if ((len - BLOOM_HEADER_SIZE) % 8 != 0 ||
		(len - BLOOM_HEADER_SIZE) / 8 > bloom_sparse_limit(f->nblocks))
		return BLOOM_E_LENGTH;
	f->nslots = (len - BLOOM_HEADER_SIZE) / 8;
	if (f->nhashes > f->nslots || f->nitems < f->nhashes)
		return BLOOM_E_COUNT;
	return BLOOM_OK;
}

static size_t
sparse_value_size(const BloomFilter *f)
{
	return bloom_sparse_size(f->nslots);
}

/*
 * Combines the partial state b (compatible) into the light state a: b's
 * hashes join a's (a light b), or a becomes its buffered state and b's
 * bits and pending hashes join it (a buffered or blocked b).  Union only.
 */
static BloomStatus
sparse_merge(BloomFilter *a, const BloomFilter *b, bool intersect,
			 const BloomAlloc *al)
{
	BloomStatus st;

	if (intersect)
		return BLOOM_E_KIND;
	if (b->kind != BLOOM_KIND_SPARSE)
	{
		if ((st = bloom_sparse_densify(a, al)) != BLOOM_OK)
			return st;
		return bloom_buffered_ops.merge(a, b, false, al);
	}
	if ((st = bloom_sparse_append(a, b->data, b->nhashes, al)) != BLOOM_OK)
		return st;
	bloom_adopt_key_class(a, b);
	a->nitems = bloom_sat_add(a->nitems, b->nitems);
	bloom_write_header(a);
	return BLOOM_OK;
}

const BloomOps bloom_sparse_ops = {
	.name = "light state",
	.kind = BLOOM_KIND_SPARSE,
	.decode = sparse_decode,
	.size = sparse_value_size,
	.merge = sparse_merge,
};
