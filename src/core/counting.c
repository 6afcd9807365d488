/*-------------------------------------------------------------------------
 *
 * counting.c
 *		Counting Bloom filters (kind 5): sizing, validation, add, remove,
 *		count, union, the blocked filter a counting filter answers as, and
 *		the filter an aggregate's hash list stands for.
 *
 * A key's cells are the bits a blocked filter of the same blocks and k
 * would set (bloom_block_set): one block by multiply-shift of the hash,
 * k cells in it from successive multiplications.  A cell probed twice by
 * one key counts twice, and is taken back twice by its removal.
 *
 *-------------------------------------------------------------------------
 */
#include "counting.h"
#include "hashlist.h"

#include <math.h>

/*
 * Decodes a counting filter: version 3, kind 5, each field in range and
 * the length, before anything reads the payload.  A value of the other
 * types is BLOOM_E_OTHERTYPE.
 */
BloomStatus
counting_decode(const uint8_t *buf, size_t len, BloomFilter *f)
{
	uint64_t	w48,
				w56;
	BloomStatus st = bloom_decode_common(buf, len, f, &w48, &w56);

	if (st != BLOOM_OK)
		return st;
	if (f->kind != BLOOM_KIND_COUNTING)
		return f->kind >= 1 && f->kind <= BLOOM_KIND_SPARSE_COUNTING ? BLOOM_E_OTHERTYPE : BLOOM_E_KIND;
	if (f->version != BLOOM_FORMAT_VERSION_3)
		return BLOOM_E_VERSION;
	if ((st = counting_check_fields(f)) != BLOOM_OK)
		return st;
	if (len != counting_size(f->nblocks))
		return BLOOM_E_LENGTH;
	return BLOOM_OK;
}

/*
 * The fields a counting filter and its light state (kind 8) check alike:
 * no flags, the rate, the geometry, the capacity its blocks can hold
 */
BloomStatus
counting_check_fields(const BloomFilter *f)
{
	if (f->flags != 0)
		return BLOOM_E_FLAGS;
	if (!bloom_fpr_valid(f->fpr))
		return BLOOM_E_PARAMS;
	if (f->k < 1 || f->k > BLOOM_MAX_HASHES || f->block_log2 != BLOOM_BLOCK_LOG2 ||
		f->nblocks < 1 || f->nblocks > COUNTING_MAX_BLOCKS)
		return BLOOM_E_GEOMETRY;
	if (f->capacity < 1 || f->capacity > f->nblocks * BLOOM_BLOCK_BITS)
		return BLOOM_E_PARAMS;
	return BLOOM_OK;
}

/*
 * The check of the contents, O(size), for values from outside (text,
 * binary, bytea): a presence bit is set exactly when its counter is not
 * zero.
 */
BloomStatus
counting_validate_deep(const BloomFilter *f, const BloomCancel *cancel)
{
	const uint8_t *ctr = counting_counters(f);

	for (uint64_t b = 0; b < f->nblocks; b++)
	{
		const uint8_t *pres = f->data + b * BLOOM_BLOCK_BYTES;
		const uint8_t *c = ctr + b * COUNTING_PLANE_BYTES;

		/* 512 counters a block: every 128 blocks is every 64K counters */
		bloom_cancel_point(cancel, b * (BLOOM_CANCEL_EVERY / 128));

		for (unsigned j = 0; j < BLOOM_BLOCK_BITS; j += 8)
		{
			uint8_t		want = 0;

			for (unsigned i = 0; i < 8; i++)
				if (counting_cell_get(c, j + i) != 0)
					want |= (uint8_t) (1u << i);
			if (pres[j >> 3] != want)
				return BLOOM_E_CONTENT;
		}
	}
	return BLOOM_OK;
}

/*
 * Plans a counting filter: the blocked filter's plan for fpr (so that
 * counting_to_bloom gives the filter bloom_empty(capacity, fpr, 0) would),
 * and its blocks; BLOOM_E_CAPACITY when it would not fit.
 */
BloomStatus
counting_plan(uint64_t capacity, double fpr, BloomPlan *plan, uint64_t *nblocks)
{
	BloomStatus st;

	if (capacity < 1 || !bloom_fpr_valid(fpr))
		return BLOOM_E_PARAMS;
	if ((st = bloom_plan_reuse(fpr, plan)) != BLOOM_OK)
		return st;
	return bloom_plan_size_in(plan, capacity, COUNTING_MAX_BLOCKS, nblocks);
}

uint64_t
counting_max_capacity(const BloomPlan *plan)
{
	return bloom_plan_max_capacity_in(plan, COUNTING_MAX_BLOCKS);
}

/* An empty counting filter in buf (counting_size(nblocks) bytes) */
void
counting_init(uint8_t *buf, uint64_t nblocks, int k, uint64_t capacity, double fpr,
			  uint64_t seed, BloomFilter *out)
{
	bloom_header_init(out, buf, BLOOM_KIND_COUNTING, capacity, fpr, seed);
	out->version = BLOOM_FORMAT_VERSION_3;
	out->k = (uint8_t) k;
	out->block_log2 = BLOOM_BLOCK_LOG2;
	out->nblocks = nblocks;
	memset(out->data, 0, nblocks * COUNTING_BLOCK_BYTES);
	bloom_write_header(out);
}

BloomStatus
counting_new(uint64_t capacity, double fpr, BloomPlan *plan, const BloomAlloc *a,
			 BloomFilter *out)
{
	uint64_t	nblocks;
	uint8_t    *buf;
	BloomStatus st = counting_plan(capacity, fpr, plan, &nblocks);

	if (st != BLOOM_OK)
		return st;
	if ((buf = bloom_alloc_value(a, counting_size(nblocks))) == NULL)
		return BLOOM_E_NOMEM;
	counting_init(buf, nblocks, plan->k, capacity, fpr, 0, out);
	return BLOOM_OK;
}

/* Adds one copy of h: its counters go up, a saturated one stays */
void
counting_add(BloomFilter *f, uint64_t h)
{
	unsigned	cells[BLOOM_MAX_HASHES];
	uint64_t	b = counting_key_cells(f->nblocks, f->k, h, cells);
	uint8_t    *pres = f->data + b * BLOOM_BLOCK_BYTES;
	uint8_t    *ctr = counting_counters(f) + b * COUNTING_PLANE_BYTES;

	for (int i = 0; i < f->k; i++)
	{
		unsigned	v = counting_cell_get(ctr, cells[i]);

		if (v < COUNTING_SATURATED)
			counting_cell_put(ctr, cells[i], v + 1);
		pres[cells[i] >> 3] |= (uint8_t) (1u << (cells[i] & 7));
	}
	f->nitems = bloom_sat_add(f->nitems, 1);
	bloom_store_items(f);
}

/*
 * Removes one copy of h.  A key certainly absent (a presence bit clear)
 * changes nothing: false.  Otherwise each of its counters goes down by one,
 * except a saturated one, and none below zero (which only a key that was
 * never added can reach).
 */
bool
counting_remove(BloomFilter *f, uint64_t h)
{
	unsigned	cells[BLOOM_MAX_HASHES];
	uint64_t	b = counting_key_cells(f->nblocks, f->k, h, cells);
	uint8_t    *pres = f->data + b * BLOOM_BLOCK_BYTES;
	uint8_t    *ctr = counting_counters(f) + b * COUNTING_PLANE_BYTES;

	if (!bloom_block_test(pres, f->k, h))
		return false;
	for (int i = 0; i < f->k; i++)
	{
		unsigned	v = counting_cell_get(ctr, cells[i]);

		if (v == COUNTING_SATURATED || v == 0)
			continue;
		counting_cell_put(ctr, cells[i], v - 1);
		if (v == 1)
			pres[cells[i] >> 3] &= (uint8_t) ~(1u << (cells[i] & 7));
	}
	if (f->nitems > 0)
		f->nitems--;
	f->nremoves = bloom_sat_add(f->nremoves, 1);
	bloom_write_header(f);
	return true;
}

/*
 * An upper bound on the copies of h held: the smallest of its counters (a
 * cell probed m times by h counts for m copies of it); 15 means saturated
 * (15 or more were added; removes do not lower it).
 * Zero for a key certainly absent.
 */
unsigned
counting_count(const BloomFilter *f, uint64_t h)
{
	unsigned	cells[BLOOM_MAX_HASHES];
	uint64_t	b = counting_key_cells(f->nblocks, f->k, h, cells);

	return counting_cells_count(counting_counters(f) + b * COUNTING_PLANE_BYTES, f->k, cells);
}

/*
 * Can a and b be united counter by counter?  Returns the first parameter
 * that differs, BLOOM_PARAM_NONE if none does.
 */
BloomParam
counting_compatible(const BloomFilter *a, const BloomFilter *b)
{
	BloomParam	param = bloom_sizing_compatible(a, b);

	if (param != BLOOM_PARAM_NONE)
		return param;
	if (a->nblocks != b->nblocks)
		return BLOOM_PARAM_NBLOCKS;
	if (a->k != b->k)
		return BLOOM_PARAM_HASHES;
	if (!bloom_keys_compatible(a, b))
		return BLOOM_PARAM_KEY_TYPE;
	return BLOOM_PARAM_NONE;
}

/*
 * Unites b into a (compatible): counters add and saturate at 15, so the
 * result is that of adding b's keys to a, in any order.
 */
void
counting_merge(BloomFilter *a, const BloomFilter *b, const BloomCancel *c)
{
	uint8_t    *ca = counting_counters(a);
	const uint8_t *cb = counting_counters(b);
	uint64_t	n = a->nblocks * COUNTING_PLANE_BYTES;

	/* a cancel check per megabyte of counters */
	for (uint64_t off = 0; off < n; off += BLOOM_CANCEL_BYTES)
	{
		uint64_t	end = n - off < BLOOM_CANCEL_BYTES ? n : off + BLOOM_CANCEL_BYTES;

		bloom_cancel_check(c);
		for (uint64_t i = off; i < end; i++)
		{
			unsigned	lo = (ca[i] & 0xF) + (cb[i] & 0xF);
			unsigned	hi = (ca[i] >> 4) + (cb[i] >> 4);

			if (lo > COUNTING_SATURATED)
				lo = COUNTING_SATURATED;
			if (hi > COUNTING_SATURATED)
				hi = COUNTING_SATURATED;
			ca[i] = (uint8_t) (lo | (hi << 4));
		}
	}
	bloom_union_bits(a->data, b->data, a->nblocks * BLOOM_BLOCK_BYTES, c);
	bloom_adopt_key_class(a, b);
	a->nitems = bloom_sat_add(a->nitems, b->nitems);
	a->nremoves = bloom_sat_add(a->nremoves, b->nremoves);
	bloom_write_header(a);
}

/* c's presence plane as one layer of bits */
static BloomLayer
presence_layer(const BloomFilter *c)
{
	BloomLayer	l;

	l.nblocks = c->nblocks;
	l.capacity = c->capacity;
	l.nitems = c->nitems;
	l.k = c->k;
	l.data = c->data;
	return l;
}

/*
 * The blocked filter (kind 1, fixed: flag NONSCALING) whose bits are c's
 * presence plane, in buf (bloom_blocked_size(c->nblocks) bytes): it
 * answers every key as c does.  Its items are the distinct keys its bits
 * suggest, at most its capacity.
 */
void
counting_to_bloom(const BloomFilter *c, uint8_t *buf, BloomFilter *out)
{
	BloomLayer	l = presence_layer(c);
	double		est = bloom_layer_estimate_items(&l, NULL);	/* 100 MB at most */

	bloom_init_blocked(buf, c->nblocks, c->k, c->capacity, c->fpr, c->seed);
	if (bloom_decode_as(buf, bloom_blocked_size(c->nblocks), out,
						&bloom_blocked_ops) != BLOOM_OK)
		return;					/* cannot happen: c was valid */
	memcpy(out->data, c->data, c->nblocks * BLOOM_BLOCK_BYTES);
	out->key_class = c->key_class;
	out->key_type = c->key_type;
	out->nitems = est >= (double) c->capacity ? c->capacity : (uint64_t) llround(est);
	out->version = BLOOM_FORMAT_VERSION_2;
	out->flags = BLOOM_FLAG_NONSCALING;
	bloom_write_header(out);
}

void
counting_describe(const BloomFilter *f, CountingInfo *info, const BloomCancel *c)
{
	const uint8_t *ctr = counting_counters(f);
	BloomLayer	l = presence_layer(f);
	uint64_t	cells = f->nblocks * BLOOM_BLOCK_BITS;

	memset(info, 0, sizeof(*info));
	info->counters = cells;
	for (uint64_t j = 0; j < cells; j++)
	{
		unsigned	v;

		bloom_cancel_point(c, j);
		v = counting_cell_get(ctr, j);

		if (v != 0)
			info->counters_set++;
		if (v == COUNTING_SATURATED)
			info->saturated++;
		if (v > info->max_counter)
			info->max_counter = v;
	}
	info->estimated_items = bloom_layer_estimate_items(&l, c);
	info->estimated_fpr = bloom_layer_estimate_fpr(&l, c);
}

/*
 * The counting filter an aggregate's hash list (kind 2) stands for: sized
 * for its distinct hashes (at least 1) at its rate, every hash added
 * (repeats are copies).  On BLOOM_E_CAPACITY *capacity is the size that
 * did not fit.
 */
BloomStatus
counting_from_hashlist(const BloomFilter *st, BloomPlan *plan, const BloomAlloc *a,
					   BloomFilter *out, uint64_t *capacity)
{
	uint64_t   *sorted;
	uint64_t	distinct;
	BloomStatus s;

	if ((s = bloom_hashlist_distinct(st, a, &sorted, &distinct)) != BLOOM_OK)
		return s;
	if (sorted != NULL)
		bloom_free_scratch(a, sorted);
	*capacity = distinct > 0 ? distinct : 1;
	if ((s = counting_new(*capacity, st->fpr, plan, a, out)) != BLOOM_OK)
		return s;
	out->seed = st->seed;
	out->key_class = st->key_class;
	out->key_type = st->key_type;
	for (uint64_t i = 0; i < st->nhashes; i++)
	{
		bloom_cancel_point(bloom_alloc_cancel(a), i);
		counting_add(out, bloom_hashlist_get(st, i));
	}
	out->nitems = st->nitems;	/* rows: a list past its limit keeps 15 of a key */
	bloom_write_header(out);
	return BLOOM_OK;
}
