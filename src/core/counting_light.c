/*-------------------------------------------------------------------------
 *
 * counting_light.c
 *		Light states of counting_agg(key, capacity, fpr) (kind 8, format
 *		version 4): the counting filter's header and the 64-bit hashes of
 *		the rows, 8 bytes each, until they would take more room than the
 *		filter's bits and counters; then the state becomes that counting
 *		filter (kind 5), and stays one.
 *
 * Kind 8 is to kind 5 what kind 7 is to kind 3 (src/core/sparse.c; the
 * slots of both, and their growth, are hashlist.c's): a counter goes up by
 * one a copy and stops at 15, so adding the hashes in any order, in any
 * split, gives the bytes the dense state gives.  Only countingbloom reads
 * kind 8.
 *
 *-------------------------------------------------------------------------
 */
#include "counting.h"
#include "hashlist.h"

#include <math.h>

/* The most hashes the light state f holds: the counting filter's data size over 8 */
static inline uint64_t
sparse_limit(const BloomFilter *f)
{
	return f->nblocks * COUNTING_BLOCK_BYTES / 8;
}

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
		(len - BLOOM_HEADER_SIZE) / 8 > sparse_limit(f))
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
 * Appends n hashes (little-endian, at src) to the light state f (kind 8):
 * in place when they fit, else into a copy with half as many slots again
 * (or as many as needed: bloom_slots_append); past the limit, f becomes
 * the counting filter it stands for, the hashes added.  f may move to a
 * new value from a (the old one is the caller's).  The caller counts the
 * rows.
 */
BloomStatus
counting_sparse_append(BloomFilter *f, const uint8_t *src, uint64_t n, const BloomAlloc *a)
{
	uint64_t	items = f->nitems;
	BloomStatus st = bloom_slots_append(f, src, n, sparse_limit(f), a);

	if (st != BLOOM_E_FULL)
		return st;
	if ((st = counting_sparse_densify(f, a)) != BLOOM_OK)
		return st;
	for (uint64_t i = 0; i < n; i++)
	{
		bloom_cancel_point(bloom_alloc_cancel(a), i);
		counting_add(f, bloom_get_le64(src + 8 * i));
	}
	f->nitems = items;			/* the caller counts rows */
	bloom_store_items(f);
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
		if ((st = counting_sparse_append(a, b->data, b->nhashes, al)) != BLOOM_OK)
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

/* ---------------------------------------------------------------------
 * Reading a light state without building its counting filter
 *
 * A block of the counting filter a light state stands for depends only on
 * the hashes that fall in it (a counter goes up by one a copy and stops at
 * 15, in any order), and the block of hash h, bloom_mulhi64(h, nblocks),
 * never decreases as h grows.  So once the hashes are sorted, the hashes
 * of a block are one run, found by binary search, and a lookup builds that
 * one block (COUNTING_BLOCK_BYTES on the stack): it costs log n plus the
 * run, whatever number of blocks the header describes.  counting_info's
 * fields are sums over blocks in which an empty block adds zero, so they
 * come from the runs alone, in block order, to the same bits.
 * ---------------------------------------------------------------------
 */

static inline uint64_t
light_hash(const BloomFilter *f, uint64_t i)
{
	return bloom_get_le64(f->data + 8 * i);
}

/*
 * Sorts the hashes of the light state f in place (its value must be the
 * caller's to change), scratch from a: the order the readers below need.
 * The state stands for the same filter in any order.
 */
BloomStatus
counting_light_sort(BloomFilter *f, const BloomAlloc *a)
{
	uint64_t   *h;

	if (f->nhashes < 2)
		return BLOOM_OK;
	if ((h = bloom_alloc_scratch(a, f->nhashes * sizeof(uint64_t))) == NULL)
		return BLOOM_E_NOMEM;
	for (uint64_t i = 0; i < f->nhashes; i++)
		h[i] = light_hash(f, i);
	bloom_sort_u64(h, f->nhashes, bloom_alloc_cancel(a));
	for (uint64_t i = 0; i < f->nhashes; i++)
		bloom_put_le64(f->data + 8 * i, h[i]);
	bloom_free_scratch(a, h);
	return BLOOM_OK;
}

bool
counting_light_sorted(const BloomFilter *f)
{
	for (uint64_t i = 1; i < f->nhashes; i++)
		if (light_hash(f, i - 1) > light_hash(f, i))
			return false;
	return true;
}

/* The run [*lo, *hi) of the sorted hashes of f that fall in block b */
static void
light_run(const BloomFilter *f, uint64_t b, uint64_t *lo, uint64_t *hi)
{
	uint64_t	l = 0,
				r = f->nhashes;

	while (l < r)
	{
		uint64_t	m = l + (r - l) / 2;

		if (bloom_mulhi64(light_hash(f, m), f->nblocks) < b)
			l = m + 1;
		else
			r = m;
	}
	*lo = l;
	for (r = l; r < f->nhashes && bloom_mulhi64(light_hash(f, r), f->nblocks) == b; r++)
		;
	*hi = r;
}

/*
 * Block b of the counting filter, made of the run [lo, hi) of hashes in
 * it, in blk: the presence plane's 64 bytes, then the block's counters, as
 * counting_add sets them
 */
static void
light_block(const BloomFilter *f, uint64_t lo, uint64_t hi, uint8_t *blk)
{
	uint8_t    *ctr = blk + BLOOM_BLOCK_BYTES;

	memset(blk, 0, COUNTING_BLOCK_BYTES);
	for (uint64_t i = lo; i < hi; i++)
	{
		unsigned	cells[BLOOM_MAX_HASHES];

		(void) counting_key_cells(f->nblocks, f->k, light_hash(f, i), cells);
		for (int j = 0; j < f->k; j++)
		{
			unsigned	v = counting_cell_get(ctr, cells[j]);

			if (v < COUNTING_SATURATED)
				counting_cell_put(ctr, cells[j], v + 1);
			blk[cells[j] >> 3] |= (uint8_t) (1u << (cells[j] & 7));
		}
	}
}

/* counting_contains of the filter the sorted light state f stands for */
bool
counting_light_contains(const BloomFilter *f, uint64_t h)
{
	uint8_t		blk[COUNTING_BLOCK_BYTES];
	uint64_t	lo,
				hi;

	light_run(f, bloom_mulhi64(h, f->nblocks), &lo, &hi);
	if (lo == hi)
		return false;
	light_block(f, lo, hi, blk);
	return bloom_block_test(blk, f->k, h);
}

/* counting_count of the filter the sorted light state f stands for */
unsigned
counting_light_count(const BloomFilter *f, uint64_t h)
{
	uint8_t		blk[COUNTING_BLOCK_BYTES];
	unsigned	cells[BLOOM_MAX_HASHES];
	uint64_t	lo,
				hi,
				b = counting_key_cells(f->nblocks, f->k, h, cells);

	light_run(f, b, &lo, &hi);
	if (lo == hi)
		return 0;
	light_block(f, lo, hi, blk);
	return counting_cells_count(blk + BLOOM_BLOCK_BYTES, f->k, cells);
}

/*
 * counting_describe of the filter the sorted light state f stands for: the
 * sums of counting_describe (and of bloom_layer_estimate_items and
 * bloom_layer_estimate_fpr, which it calls) over the blocks that hold a
 * hash, in block order; every other block adds zero to each
 */
void
counting_light_describe(const BloomFilter *f, CountingInfo *info,
						const BloomCancel *c)
{
	const double B = BLOOM_BLOCK_BITS;
	double		denom = f->k * log1p(-1.0 / B);
	double		items = 0.0,
				rate = 0.0;
	uint8_t		blk[COUNTING_BLOCK_BYTES];
	uint64_t	lo = 0;
	uint64_t	step = 0;

	memset(info, 0, sizeof(*info));
	info->counters = f->nblocks * BLOOM_BLOCK_BITS;
	while (lo < f->nhashes)
	{
		uint64_t	b = bloom_mulhi64(light_hash(f, lo), f->nblocks);
		uint64_t	hi = lo;
		double		x;

		/* a block's work is 512 counters: check every 128 blocks */
		bloom_cancel_point(c, (step++) << 9);
		while (hi < f->nhashes && bloom_mulhi64(light_hash(f, hi), f->nblocks) == b)
			hi++;
		light_block(f, lo, hi, blk);
		for (unsigned j = 0; j < BLOOM_BLOCK_BITS; j++)
		{
			unsigned	v = counting_cell_get(blk + BLOOM_BLOCK_BYTES, j);

			if (v != 0)
				info->counters_set++;
			if (v == COUNTING_SATURATED)
				info->saturated++;
			if (v > info->max_counter)
				info->max_counter = v;
		}
		x = bloom_block_popcount(blk);
		rate += pow(x / B, f->k);
		if (x >= B)
			x = B - 0.5;
		items += log1p(-x / B) / denom;
		lo = hi;
	}
	info->estimated_items = items;
	info->estimated_fpr = rate / (double) f->nblocks;
}

/*
 * counting_to_bloom of the filter the light state l stands for, in buf
 * (bloom_blocked_size(l->nblocks) bytes), without its counters: the
 * presence plane is the blocked filter of the same hashes
 */
void
counting_light_to_bloom(const BloomFilter *l, uint8_t *buf, BloomFilter *out)
{
	BloomLayer	layer;
	double		est;

	bloom_init_blocked(buf, l->nblocks, l->k, l->capacity, l->fpr, l->seed);
	if (bloom_decode_as(buf, bloom_blocked_size(l->nblocks), out,
						&bloom_blocked_ops) != BLOOM_OK)
		return;					/* cannot happen: l was valid */
	for (uint64_t i = 0; i < l->nhashes; i++)
		bloom_bits_insert(out->data, l->nblocks, l->k, light_hash(l, i));
	layer = bloom_blocked_layer(out);
	est = bloom_layer_estimate_items(&layer, NULL);
	out->key_class = l->key_class;
	out->key_type = l->key_type;
	out->nitems = est >= (double) l->capacity ? l->capacity : (uint64_t) llround(est);
	out->version = BLOOM_FORMAT_VERSION_2;
	out->flags = BLOOM_FLAG_NONSCALING;
	bloom_write_header(out);
}
