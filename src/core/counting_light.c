/*-------------------------------------------------------------------------
 *
 * counting_light.c
 *		Light states of counting_agg(key, capacity, fpr) (kind 8, format
 *		version 4): the counting filter's header and the 64-bit hashes of
 *		the rows, 8 bytes each, until they would take more room than the
 *		filter's bits and counters; then the state becomes that counting
 *		filter (kind 5), and stays one.
 *
 * Kind 8 is to kind 5 what kind 7 is to kind 3 (src/core/sparse.c, whose
 * growth it shares): a counter goes up by one a copy and stops at 15, so
 * adding the hashes in any order, in any split, gives the bytes the dense
 * state gives.  Only countingbloom reads kind 8.
 *
 *-------------------------------------------------------------------------
 */
#include "aggstate.h"
#include "counting.h"

/*
 * The light state of counting_agg(key, capacity, fpr), decoded into out, in
 * memory from a: counting_new's plan, no hashes.
 */
BloomStatus
counting_new_sparse(uint64_t capacity, double fpr, BloomPlan *plan, const BloomAlloc *a,
					BloomFilter *out)
{
	BloomFilter f;
	uint64_t	nblocks;
	uint64_t	nslots = BLOOM_HASHLIST_MIN_SLOTS;
	uint8_t    *buf;
	BloomStatus st = counting_plan(capacity, fpr, plan, &nblocks);

	if (st != BLOOM_OK)
		return st;
	if ((buf = bloom_alloc_value(a, bloom_sparse_size(nslots))) == NULL)
		return BLOOM_E_NOMEM;
	memset(buf, 0, bloom_sparse_size(nslots));
	bloom_header_init(&f, buf, BLOOM_KIND_SPARSE_COUNTING, capacity, fpr, 0);
	f.k = (uint8_t) plan->k;
	f.block_log2 = BLOOM_BLOCK_LOG2;
	f.nblocks = nblocks;
	bloom_sparse_write(buf, &f, nslots, out);
	return BLOOM_OK;
}

/*
 * Decodes a kind 8 value (version 4): the fields kind 5 has, checked as
 * kind 5 checks them, and the hashes as kind 7's: whole slots, at most the
 * limit (the counting filter's data size over 8), those in use among them
 * and counted as rows.
 */
BloomStatus
counting_sparse_decode(const uint8_t *buf, size_t len, BloomFilter *f)
{
	uint64_t	w48,
				w56;
	BloomStatus st = bloom_decode_common(buf, len, f, &w48, &w56);

	if (st != BLOOM_OK)
		return st;
	if (f->kind != BLOOM_KIND_SPARSE_COUNTING)
		return BLOOM_E_KIND;
	if (f->version != BLOOM_FORMAT_VERSION_4)
		return BLOOM_E_VERSION;
	if ((st = counting_check_fields(f)) != BLOOM_OK)
		return st;
	if ((len - BLOOM_HEADER_SIZE) % 8 != 0 ||
		(len - BLOOM_HEADER_SIZE) / 8 > f->nblocks * COUNTING_BLOCK_BYTES / 8)
		return BLOOM_E_LENGTH;
	f->nslots = (len - BLOOM_HEADER_SIZE) / 8;
	if (f->nhashes > f->nslots || f->nitems < f->nhashes)
		return BLOOM_E_COUNT;
	return BLOOM_OK;
}

/*
 * Replaces the light state f by the counting filter it stands for (a new
 * value from a; the old one is the caller's): counting_new's header, the
 * key class and rows counted, every hash added.
 */
BloomStatus
counting_sparse_densify(BloomFilter *f, const BloomAlloc *a)
{
	uint8_t    *buf = bloom_alloc_value(a, counting_size(f->nblocks));
	BloomFilter d;

	if (buf == NULL)
		return BLOOM_E_NOMEM;
	counting_init(buf, f->nblocks, f->k, f->capacity, f->fpr, f->seed, &d);
	d.key_class = f->key_class;
	d.key_type = f->key_type;
	for (uint64_t i = 0; i < f->nhashes; i++)
	{
		bloom_cancel_point(bloom_alloc_cancel(a), i);
		counting_add(&d, bloom_get_le64(f->data + 8 * i));
	}
	d.nitems = f->nitems;
	bloom_write_header(&d);
	*f = d;
	return BLOOM_OK;
}

/*
 * Unites the partial state b into a (both kind 5 or 8, compatible: see
 * counting_compatible): two light states append their hashes; a light b
 * adds its hashes to a counting filter a; a light a becomes its counting
 * filter first.  a may move to a new value from al (the old one is the
 * caller's).
 */
BloomStatus
counting_state_merge(BloomFilter *a, const BloomFilter *b, const BloomAlloc *al)
{
	uint64_t	items = bloom_sat_add(a->nitems, b->nitems);
	BloomStatus st;

	if (a->kind == BLOOM_KIND_SPARSE_COUNTING && b->kind == BLOOM_KIND_SPARSE_COUNTING)
	{
		if ((st = bloom_sparse_append(a, b->data, b->nhashes, al)) != BLOOM_OK)
			return st;
	}
	else
	{
		if (a->kind == BLOOM_KIND_SPARSE_COUNTING &&
			(st = counting_sparse_densify(a, al)) != BLOOM_OK)
			return st;
		if (b->kind == BLOOM_KIND_SPARSE_COUNTING)
			for (uint64_t i = 0; i < b->nhashes; i++)
			{
				bloom_cancel_point(bloom_alloc_cancel(al), i);
				counting_add(a, bloom_get_le64(b->data + 8 * i));
			}
		else
			counting_merge(a, b, bloom_alloc_cancel(al));
	}
	bloom_adopt_key_class(a, b);
	a->nitems = items;
	bloom_write_header(a);
	return BLOOM_OK;
}
