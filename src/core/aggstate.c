/*-------------------------------------------------------------------------
 *
 * aggstate.c
 *		Buffered states (kind 3) of bloom_agg: making, validating, filling
 *		and combining them.  sparse.c has the light states (kind 7),
 *		materialize.c turns states into filters; the hash lists (kind 2)
 *		every family keeps are hashlist.c's.
 *
 *-------------------------------------------------------------------------
 */
#include "aggstate.h"

/* ---------------------------------------------------------------------
 * Buffered filters (kind 3)
 * ---------------------------------------------------------------------
 */

size_t
bloom_buffered_size(uint64_t nblocks)
{
	return bloom_blocked_size(nblocks) + BLOOM_PENDING_SLOTS * 8;
}

/*
 * Writes an empty blocked filter with room for pending hashes into buf
 * (bloom_buffered_size bytes).
 */
void
bloom_init_buffered(uint8_t *buf, uint64_t nblocks, int k, uint64_t capacity,
					double fpr, uint64_t seed)
{
	BloomFilter f;

	bloom_header_init(&f, buf, BLOOM_KIND_BUFFERED, capacity, fpr, seed);
	f.k = (uint8_t) k;
	f.block_log2 = BLOOM_BLOCK_LOG2;
	f.nblocks = nblocks;
	bloom_write_header(&f);
	memset(buf + BLOOM_HEADER_SIZE, 0, bloom_buffered_size(nblocks) - BLOOM_HEADER_SIZE);
}

/*
 * The state of bloom_agg(key, capacity, fpr), decoded into out, in memory
 * from a.  Without layer it is planned for fpr; the largest filters, whose
 * pending area would not fit, are made unbuffered (kind 1).  With layer
 * (flag SCALABLE_STATE) it is planned as the first layer of a scalable filter
 * (the header keeps the target rate and says so in its flags), and
 * BLOOM_E_CAPACITY when it would not fit buffered.
 */
BloomStatus
bloom_new_buffered(uint64_t capacity, double fpr, bool layer, BloomPlan *plan,
				   const BloomAlloc *a, BloomFilter *out)
{
	BloomPlan	local = {0};
	uint64_t	nblocks;
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
	{
		if (layer)
			return BLOOM_E_CAPACITY;
		return bloom_new_blocked(capacity, fpr, 0, plan, a, out);
	}
	if ((buf = bloom_alloc_value(a, bloom_buffered_size(nblocks))) == NULL)
		return BLOOM_E_NOMEM;
	bloom_init_buffered(buf, nblocks, plan->k, capacity, fpr, 0);
	if ((st = bloom_decode_as(buf, bloom_buffered_size(nblocks), out,
							  &bloom_buffered_ops)) == BLOOM_OK && layer)
	{
		bloom_set_flag(out, BLOOM_FLAG_SCALABLE_STATE);
		st = bloom_decode_as(buf, bloom_buffered_size(nblocks), out, &bloom_buffered_ops);
	}
	return st;
}

/*
 * Inserts a buffered filter's pending hashes into its bits and empties the
 * list; the header is written back.
 */
void
bloom_flush_pending(BloomFilter *f)
{
	bloom_insert_many(f, bloom_pending(f), f->npending, NULL);	/* 256 at most */
	f->npending = 0;
	bloom_store_fill(f);
}

/*
 * Version 1: no flags; version 2: planned as a scalable filter's first
 * layer (SCALABLE_STATE), whose rate a scalable filter must be able to
 * have.
 * Reads the header and the length only: bloom_agg's transition memo
 * (bt_state_recall) relies on it.
 */
static BloomStatus
buffered_decode(const uint8_t *buf, size_t len, BloomFilter *f)
{
	BloomStatus st;

	(void) buf;
	if ((st = bloom_validate_bits(f, BLOOM_FLAG_SCALABLE_STATE)) != BLOOM_OK)
		return st;
	if (f->nblocks > BLOOM_MAX_BUFFERED_BLOCKS)
		return BLOOM_E_GEOMETRY;
	if (f->npending > BLOOM_PENDING_SLOTS || f->nitems < f->npending)
		return BLOOM_E_COUNT;
	return bloom_validate_fill(f, len, bloom_buffered_size(f->nblocks));
}

static size_t
buffered_value_size(const BloomFilter *f)
{
	return bloom_buffered_size(f->nblocks);
}

/*
 * Combines the partial state b (kind 1, 3 or 7, compatible) into a: the
 * bits unite, and b's pending hashes (a light b's hashes) join a's.  Union
 * only: intersection reads materialised filters.
 */
static BloomStatus
buffered_merge(BloomFilter *a, const BloomFilter *b, bool intersect,
			   const BloomAlloc *al)
{
	BloomStatus st;

	if (intersect)
		return BLOOM_E_KIND;
	if (b->kind == BLOOM_KIND_SPARSE)
	{
		/* a light state's hashes, which it counted */
		bloom_adopt_key_class(a, b);
		for (uint64_t i = 0; i < b->nhashes; i++)
		{
			bloom_cancel_point(bloom_alloc_cancel(al), i);
			bloom_buffered_push(a, bloom_get_le64(b->data + 8 * i));
		}
		a->nitems = bloom_sat_add(a->nitems, b->nitems);
		bloom_write_header(a);
		return BLOOM_OK;
	}
	if ((st = bloom_blocked_ops.merge(a, b, false, al)) != BLOOM_OK)
		return st;
	if (b->kind == BLOOM_KIND_BUFFERED)
		for (uint64_t i = 0; i < b->npending; i++)
			bloom_buffered_push(a, bloom_get_le64(bloom_pending(b) + 8 * i));
	return BLOOM_OK;
}

const BloomOps bloom_buffered_ops = {
	.name = "buffered",
	.kind = BLOOM_KIND_BUFFERED,
	.decode = buffered_decode,
	.size = buffered_value_size,
	.merge = buffered_merge,
};
