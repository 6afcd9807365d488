/*-------------------------------------------------------------------------
 *
 * blocked.c
 *		Blocked Bloom filters (kind 1): making, validating, adding,
 *		combining and estimating.  The bit layout itself is inline in
 *		blocked.h; sizing is in sizing.c.
 *
 *-------------------------------------------------------------------------
 */
#include "blocked.h"

#include <math.h>

/* Writes an empty blocked filter into buf (bloom_blocked_size bytes). */
void
bloom_init_blocked(uint8_t *buf, uint64_t nblocks, int k, uint64_t capacity,
				   double fpr, uint64_t seed)
{
	BloomFilter f;

	bloom_header_init(&f, buf, BLOOM_KIND_BLOCKED, capacity, fpr, seed);
	f.k = (uint8_t) k;
	f.block_log2 = BLOOM_BLOCK_LOG2;
	f.nblocks = nblocks;
	bloom_write_header(&f);
	memset(buf + BLOOM_HEADER_SIZE, 0, (size_t) nblocks * BLOOM_BLOCK_BYTES);
}

/*
 * A new, empty blocked filter for capacity keys at rate fpr, decoded into
 * out, in memory from a; flags 0 (a filter that takes every key) or
 * BLOOM_FLAG_NONSCALING (refuses keys past its capacity, format version
 * 2).  plan (may be NULL) is reused when it was planned for fpr,
 * and holds the plan for fpr afterwards.  Checks come
 * before the allocation: BLOOM_E_PARAMS for a bad capacity or rate,
 * BLOOM_E_CAPACITY when the filter would pass the largest value.
 */
BloomStatus
bloom_new_blocked(uint64_t capacity, double fpr, uint16_t flags, BloomPlan *plan,
				  const BloomAlloc *a, BloomFilter *out)
{
	BloomPlan	local = {0};
	uint64_t	nblocks;
	uint8_t    *buf;
	BloomStatus st;

	if (plan == NULL)
		plan = &local;
	if (capacity == 0 || bloom_plan_reuse(fpr, plan) != BLOOM_OK)
		return BLOOM_E_PARAMS;
	if ((st = bloom_plan_size(plan, capacity, &nblocks)) != BLOOM_OK)
		return st;
	if ((buf = bloom_alloc_value(a, bloom_blocked_size(nblocks))) == NULL)
		return BLOOM_E_NOMEM;
	bloom_init_blocked(buf, nblocks, plan->k, capacity, fpr, 0);
	if ((st = bloom_decode_as(buf, bloom_blocked_size(nblocks), out,
							  &bloom_blocked_ops)) == BLOOM_OK && flags != 0)
	{
		bloom_set_flag(out, flags);
		st = bloom_decode_as(buf, bloom_blocked_size(nblocks), out, &bloom_blocked_ops);
	}
	return st;
}

/*
 * Version 1 has no flags; in version 2 a blocked filter is one that
 * refuses keys past its capacity (NONSCALING), as a value is written in
 * the oldest version that can hold it.
 */
static BloomStatus
blocked_decode(const uint8_t *buf, size_t len, BloomFilter *f)
{
	BloomStatus st;

	(void) buf;
	if ((st = bloom_validate_bits(f, BLOOM_FLAG_NONSCALING)) != BLOOM_OK)
		return st;
	if (f->reserved != 0)
		return BLOOM_E_FLAGS;
	return bloom_validate_fill(f, len, bloom_blocked_size(f->nblocks));
}

static size_t
blocked_value_size(const BloomFilter *f)
{
	return bloom_blocked_size(f->nblocks);
}

static bool
blocked_contains(const BloomFilter *f, uint64_t h)
{
	return bloom_contains_hash(f, h);
}

/*
 * A filter of flags 0 takes every key (its rate rises past its capacity);
 * a fixed filter (NONSCALING) adds a key that may be present already as
 * nothing, and refuses a new key past its capacity.
 */
static BloomStatus
blocked_add(BloomFilter *f, uint64_t h, BloomPlan *plan, const BloomAlloc *a,
			bool *added)
{
	(void) plan;
	(void) a;
	*added = false;
	if (f->flags & BLOOM_FLAG_NONSCALING)
	{
		if (bloom_contains_hash(f, h))
			return BLOOM_OK;
		if (f->nitems >= f->capacity)
			return BLOOM_E_FULL;
	}
	bloom_insert_hash(f, h);
	f->nitems = bloom_sat_add(f->nitems, 1);
	*added = true;
	bloom_store_items(f);		/* the only header field that changed */
	return BLOOM_OK;
}

/* Bit by bit, in place: union or intersection of compatible filters */
static BloomStatus
blocked_merge(BloomFilter *a, const BloomFilter *b, bool intersect,
			  const BloomAlloc *al)
{
	const BloomCancel *c = bloom_alloc_cancel(al);

	if (intersect && b->kind == BLOOM_KIND_SPARSE)
		return BLOOM_E_KIND;	/* intersections read materialised filters */
	bloom_adopt_key_class(a, b);
	if (intersect)
	{
		bloom_intersect_bits(a->data, b->data, a->nblocks * BLOOM_BLOCK_BYTES, c);
		a->nitems = a->nitems < b->nitems ? a->nitems : b->nitems;
	}
	else if (b->kind == BLOOM_KIND_SPARSE)
	{
		/* a light state has hashes, not bits */
		bloom_insert_many(a, b->data, b->nhashes, c);
		a->nitems = bloom_sat_add(a->nitems, b->nitems);
	}
	else
	{
		bloom_union_bits(a->data, b->data, a->nblocks * BLOOM_BLOCK_BYTES, c);
		a->nitems = bloom_sat_add(a->nitems, b->nitems);
		/* a partial aggregate state's pending hashes, which it counted */
		if (a->kind == BLOOM_KIND_BLOCKED && b->kind == BLOOM_KIND_BUFFERED)
			bloom_insert_many(a, b->data + b->nblocks * BLOOM_BLOCK_BYTES, b->npending, c);
	}
	bloom_write_header(a);
	return BLOOM_OK;
}

static void
blocked_describe(const BloomFilter *f, BloomInfo *info)
{
	info->capacity = f->capacity;
	info->bits = f->nblocks * BLOOM_BLOCK_BITS;
	info->hashes = f->k;
	info->layers = 1;
	info->expansion = 0;
	/* a filter of flags 0 has no growth policy */
	info->has_expansion = (f->flags & BLOOM_FLAG_NONSCALING) != 0;
}

const BloomOps bloom_blocked_ops = {
	.name = "blocked",
	.kind = BLOOM_KIND_BLOCKED,
	.decode = blocked_decode,
	.size = blocked_value_size,
	.contains = blocked_contains,
	.add = blocked_add,
	.merge = blocked_merge,
	.describe = blocked_describe,
};

/*
 * Inserts n hashes.  A row at a time, every insert waits for its cache
 * line; here the line of the hash some steps ahead is prefetched, so that
 * several misses overlap.
 */
#define BLOOM_PREFETCH_AHEAD	16

void
bloom_insert_many(BloomFilter *f, const uint8_t *hashes_le, uint64_t n,
				  const BloomCancel *c)
{
	/* a cancel check per 64K hashes, outside the loop that inserts them */
	for (uint64_t start = 0; start < n; start += BLOOM_CANCEL_EVERY)
	{
		uint64_t	end = n - start < BLOOM_CANCEL_EVERY ? n : start + BLOOM_CANCEL_EVERY;

		bloom_cancel_check(c);
		for (uint64_t i = start; i < end; i++)
		{
			if (i + BLOOM_PREFETCH_AHEAD < n)
				__builtin_prefetch(bloom_bits_block(f->data, f->nblocks,
													bloom_get_le64(hashes_le + 8 * (i + BLOOM_PREFETCH_AHEAD))), 1);
			bloom_insert_hash(f, bloom_get_le64(hashes_le + 8 * i));
		}
	}
}

/*
 * Bit by bit, eight bytes at a time (unaligned loads through memcpy: a
 * varlena's data is not aligned), a megabyte between cancel checks; one
 * body for union and intersection, specialised by the constant intersect
 */
static inline void
combine_bits(uint8_t *dst, const uint8_t *src, uint64_t nbytes,
			 const BloomCancel *c, bool intersect)
{
	for (uint64_t off = 0; off < nbytes; off += BLOOM_CANCEL_BYTES)
	{
		uint64_t	end = nbytes - off < BLOOM_CANCEL_BYTES ? nbytes : off + BLOOM_CANCEL_BYTES;
		uint64_t	i = off;

		bloom_cancel_check(c);
		for (; i + 8 <= end; i += 8)
		{
			uint64_t	x,
						y;

			memcpy(&x, dst + i, 8);
			memcpy(&y, src + i, 8);
			x = intersect ? x & y : x | y;
			memcpy(dst + i, &x, 8);
		}
		for (; i < end; i++)
			dst[i] = intersect ? dst[i] & src[i] : dst[i] | src[i];
	}
}

void
bloom_union_bits(uint8_t *dst, const uint8_t *src, uint64_t nbytes,
				 const BloomCancel *c)
{
	combine_bits(dst, src, nbytes, c, false);
}

void
bloom_intersect_bits(uint8_t *dst, const uint8_t *src, uint64_t nbytes,
					 const BloomCancel *c)
{
	combine_bits(dst, src, nbytes, c, true);
}

/* ---------------------------------------------------------------------
 * Estimates from the bits, per layer (a blocked filter is one)
 * ---------------------------------------------------------------------
 */

uint64_t
bloom_layer_bits_set(const BloomLayer *l, const BloomCancel *c)
{
	uint64_t	n = 0;

	for (uint64_t b = 0; b < l->nblocks; b++)
	{
		bloom_cancel_point(c, b);
		n += bloom_block_popcount(l->data + b * BLOOM_BLOCK_BYTES);
	}
	return n;
}

/*
 * Distinct items, estimated block by block from the bits set: a block with
 * X of B bits set after j keys of k bits expects X = B (1 - (1 - 1/B)^(kj)),
 * so j = ln(1 - X/B) / (k ln(1 - 1/B)) (Swamidass and Baldi 2007, applied
 * per block).  A full block counts as if one bit were still clear.
 */
double
bloom_layer_estimate_items(const BloomLayer *l, const BloomCancel *c)
{
	const double B = BLOOM_BLOCK_BITS;
	double		denom = l->k * log1p(-1.0 / B);
	double		total = 0.0;

	for (uint64_t b = 0; b < l->nblocks; b++)
	{
		double		x = bloom_block_popcount(l->data + b * BLOOM_BLOCK_BYTES);

		bloom_cancel_point(c, b);
		if (x >= B)
			x = B - 0.5;
		total += log1p(-x / B) / denom;
	}
	return total;
}

/*
 * The rate at which a random absent key is reported present, for the bits
 * as they are now: the mean over blocks of (X/B)^k.
 */
double
bloom_layer_estimate_fpr(const BloomLayer *l, const BloomCancel *c)
{
	const double B = BLOOM_BLOCK_BITS;
	double		total = 0.0;

	for (uint64_t b = 0; b < l->nblocks; b++)
	{
		double		x = bloom_block_popcount(l->data + b * BLOOM_BLOCK_BYTES);

		bloom_cancel_point(c, b);
		total += pow(x / B, l->k);
	}
	return total / (double) l->nblocks;
}

/* The layers of f: a filter that is not scalable is one, copied into one */
static const BloomLayer *
layers_of(const BloomFilter *f, BloomLayer *one, uint64_t *n)
{
	if (f->kind == BLOOM_KIND_SCALABLE || f->kind == BLOOM_KIND_WINDOWED)
	{
		*n = f->nlayers;
		return f->layers;
	}
	*one = bloom_blocked_layer(f);
	*n = 1;
	return one;
}

/*
 * The same for a whole filter: a blocked one (or a buffered state's bits,
 * pending hashes left out) is one layer; a scalable one sums its layers'
 * bits and items, and reports a key when any layer does: its rate is
 * 1 - prod(1 - rate of layer i).
 */
uint64_t
bloom_bits_set(const BloomFilter *f, const BloomCancel *c)
{
	BloomLayer	one;
	uint64_t	n,
				set = 0;
	const BloomLayer *l = layers_of(f, &one, &n);

	for (uint64_t i = 0; i < n; i++)
		set += bloom_layer_bits_set(&l[i], c);
	return set;
}

double
bloom_estimate_items(const BloomFilter *f, const BloomCancel *c)
{
	BloomLayer	one;
	uint64_t	n;
	double		total = 0.0;
	const BloomLayer *l = layers_of(f, &one, &n);

	for (uint64_t i = 0; i < n; i++)
		total += bloom_layer_estimate_items(&l[i], c);
	return total;
}

double
bloom_estimate_fpr(const BloomFilter *f, const BloomCancel *c)
{
	BloomLayer	one;
	uint64_t	n;
	double		none = 1.0;
	const BloomLayer *l = layers_of(f, &one, &n);

	if (f->kind != BLOOM_KIND_SCALABLE && f->kind != BLOOM_KIND_WINDOWED)
		return bloom_layer_estimate_fpr(l, c);
	for (uint64_t i = 0; i < n; i++)
		none *= 1.0 - bloom_layer_estimate_fpr(&l[i], c);
	return 1.0 - none;
}
