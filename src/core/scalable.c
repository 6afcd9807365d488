/*-------------------------------------------------------------------------
 *
 * scalable.c
 *		Scalable filters (kind 4): making, validating, growing, combining
 *		and describing (the schedule of the layers' rates is sizing.c's).
 *
 *-------------------------------------------------------------------------
 */
#include "scalable.h"

size_t
bloom_scalable_size(uint64_t nlayers, uint64_t total_blocks)
{
	return BLOOM_HEADER_SIZE + nlayers * BLOOM_LAYER_DESC_SIZE +
		total_blocks * BLOOM_BLOCK_BYTES;
}

uint64_t
bloom_scalable_blocks(const BloomFilter *f)
{
	uint64_t	total = 0;

	for (uint64_t i = 0; i < f->nlayers; i++)
		total += f->layers[i].nblocks;
	return total;
}

static void
scalable_header(BloomFilter *f, uint8_t *buf, uint64_t nlayers)
{
	f->version = BLOOM_FORMAT_VERSION_2;
	f->kind = BLOOM_KIND_SCALABLE;
	f->k = 0;
	f->block_log2 = BLOOM_BLOCK_LOG2;
	f->flags = 0;
	f->nlayers = nlayers;
	f->base = buf;
	f->data = buf + BLOOM_HEADER_SIZE;
}

/* Sets the layers' bit pointers of f, whose descriptors are filled in */
static void
scalable_point(BloomFilter *f)
{
	uint8_t    *bits = f->data + f->nlayers * BLOOM_LAYER_DESC_SIZE;

	for (uint64_t i = 0; i < f->nlayers; i++)
	{
		f->layers[i].data = bits;
		bits += f->layers[i].nblocks * BLOOM_BLOCK_BYTES;
	}
}

/*
 * Writes an empty scalable filter with one layer of nblocks blocks and k
 * hashes (planned for bloom_layer_fpr(fpr, 0)) into buf
 * (bloom_scalable_size(1, nblocks) bytes).
 */
void
bloom_init_scalable(uint8_t *buf, uint64_t capacity, double fpr,
					unsigned expansion, uint64_t seed, uint64_t nblocks, int k)
{
	BloomFilter f;

	bloom_header_init(&f, buf, BLOOM_KIND_SCALABLE, capacity, fpr, seed);
	scalable_header(&f, buf, 1);
	f.expansion = expansion;
	f.layers[0].nblocks = nblocks;
	f.layers[0].capacity = capacity;
	f.layers[0].nitems = 0;
	f.layers[0].k = k;
	bloom_write_header(&f);
	memset(buf + bloom_scalable_size(1, 0), 0, (size_t) nblocks * BLOOM_BLOCK_BYTES);
}

/*
 * A new, empty scalable filter decoded into out, in memory from a: one
 * layer of capacity keys, planned for the first layer's share of fpr
 * (see bloom_layer_fpr); expansion 0 makes a fixed blocked filter that
 * refuses keys past its capacity instead.  The caller has checked the
 * parameters; BLOOM_E_CAPACITY when the first layer would not fit.
 */
BloomStatus
bloom_new_scalable(uint64_t capacity, double fpr, unsigned expansion,
				   BloomPlan *plan, const BloomAlloc *a, BloomFilter *out)
{
	BloomPlan	local = {0};
	uint64_t	nblocks;
	uint8_t    *buf;

	if (plan == NULL)
		plan = &local;
	if (expansion == 0)
		return bloom_new_blocked(capacity, fpr, BLOOM_FLAG_NONSCALING, plan, a, out);
	if (capacity == 0 || expansion > BLOOM_MAX_EXPANSION ||
		!bloom_scalable_fpr_valid(fpr) ||
		bloom_plan_reuse(bloom_layer_fpr(fpr, 0), plan) != BLOOM_OK)
		return BLOOM_E_PARAMS;
	if (bloom_plan_size(plan, capacity, &nblocks) != BLOOM_OK ||
		bloom_scalable_size(1, nblocks) > BLOOM_MAX_BYTES)
		return BLOOM_E_CAPACITY;
	if ((buf = bloom_alloc_value(a, bloom_scalable_size(1, nblocks))) == NULL)
		return BLOOM_E_NOMEM;
	bloom_init_scalable(buf, capacity, fpr, expansion, 0, nblocks, plan->k);
	return bloom_decode_as(buf, bloom_scalable_size(1, nblocks), out, &bloom_scalable_ops);
}

/*
 * Writes the header and layer descriptors of a scalable filter with the
 * nlayers layers described in layers (their data pointers ignored) into
 * buf, which holds bloom_scalable_size(nlayers, their blocks) bytes, and
 * zeroes its bits; f describes the result, whose bits the caller fills
 * through f->layers[i].data.  The index's snapshot (bloom_index_filter)
 * is made this way.  The count of items is the sum of the layers'.
 */
void
bloom_scalable_assemble(uint8_t *buf, const BloomLayer *layers, uint64_t nlayers,
						double fpr, unsigned expansion, uint64_t seed,
						BloomFilter *f)
{
	uint64_t	total = 0;

	bloom_header_init(f, buf, BLOOM_KIND_SCALABLE, layers[0].capacity, fpr, seed);
	scalable_header(f, buf, nlayers);
	f->expansion = expansion;
	for (uint64_t i = 0; i < nlayers; i++)
	{
		f->layers[i] = layers[i];
		f->nitems = bloom_sat_add(f->nitems, layers[i].nitems);
		total += layers[i].nblocks;
	}
	scalable_point(f);
	bloom_write_header(f);
	memset(f->layers[0].data, 0, (size_t) total * BLOOM_BLOCK_BYTES);
}

/* The most keys the first layer of a scalable filter planned as plan holds */
uint64_t
bloom_scalable_max_first_layer(const BloomPlan *plan)
{
	return bloom_plan_max_capacity_in(plan, (BLOOM_MAX_BYTES - bloom_scalable_size(1, 0)) /
									  BLOOM_BLOCK_BYTES);
}

/*
 * Writes the blocked filter b, planned for bloom_layer_fpr(target, 0), as
 * the only layer of a scalable filter into buf
 * (bloom_scalable_size(1, b->nblocks) bytes).
 */
void
bloom_scalable_from_blocked(uint8_t *buf, const BloomFilter *b, double target,
							unsigned expansion)
{
	BloomFilter f = *b;

	scalable_header(&f, buf, 1);
	f.fpr = target;
	f.nblocks = 0;
	f.reserved = 0;
	f.expansion = expansion;
	f.layers[0].nblocks = b->nblocks;
	f.layers[0].capacity = b->capacity;
	f.layers[0].nitems = b->nitems;
	f.layers[0].k = b->k;
	bloom_write_header(&f);
	memmove(buf + bloom_scalable_size(1, 0), b->data, (size_t) b->nblocks * BLOOM_BLOCK_BYTES);
}

/*
 * The capacity of the layer after one of capacity cap: expansion times
 * larger; false when that does not fit in 64 bits.
 */
static bool
layer_after(uint64_t cap, uint64_t expansion, uint64_t *next)
{
	if (cap > UINT64_MAX / expansion)
		return false;
	*next = cap * expansion;
	return true;
}

/* The capacity of the layer after f's newest (UINT64_MAX if past it) */
uint64_t
bloom_scalable_next_capacity(const BloomFilter *f)
{
	uint64_t	next;

	if (!layer_after(f->layers[f->nlayers - 1].capacity, f->expansion, &next))
		return UINT64_MAX;
	return next;
}

/*
 * Plans the layer that would come after f's newest: its capacity, blocks
 * and (in plan) hashes.  BLOOM_E_CAPACITY when the filter has its most
 * layers or the result would not fit in the largest value.
 */
BloomStatus
bloom_scalable_next_layer(const BloomFilter *f, BloomPlan *plan,
						  uint64_t *capacity, uint64_t *nblocks)
{
	uint64_t	n = f->nlayers;

	if (n >= BLOOM_MAX_LAYERS ||
		!layer_after(f->layers[n - 1].capacity, f->expansion, capacity))
		return BLOOM_E_CAPACITY;
	if (bloom_plan(bloom_layer_fpr(f->fpr, (int) n), plan) != BLOOM_OK)
		return BLOOM_E_PARAMS;
	if (bloom_plan_size(plan, *capacity, nblocks) != BLOOM_OK)
		return BLOOM_E_CAPACITY;
	if (bloom_scalable_size(n + 1, bloom_scalable_blocks(f) + *nblocks) > BLOOM_MAX_BYTES)
		return BLOOM_E_CAPACITY;
	return BLOOM_OK;
}

/*
 * Writes f with a new, empty newest layer into buf, which holds
 * bloom_scalable_size(f->nlayers + 1, bloom_scalable_blocks(f) + nblocks)
 * bytes and does not overlap f.
 */
void
bloom_scalable_append_layer(uint8_t *buf, const BloomFilter *f,
							uint64_t capacity, uint64_t nblocks, int k)
{
	BloomFilter g = *f;
	uint64_t	n = f->nlayers;
	uint64_t	old = bloom_scalable_blocks(f) * BLOOM_BLOCK_BYTES;

	scalable_header(&g, buf, n + 1);
	g.layers[n].nblocks = nblocks;
	g.layers[n].capacity = capacity;
	g.layers[n].nitems = 0;
	g.layers[n].k = k;
	scalable_point(&g);
	bloom_write_header(&g);
	memcpy(g.layers[0].data, f->layers[0].data, old);
	memset(g.layers[n].data, 0, nblocks * BLOOM_BLOCK_BYTES);
}

static const BloomFilter *
more_layers(const BloomFilter *a, const BloomFilter *b)
{
	return a->nlayers >= b->nlayers ? a : b;
}

/* Bytes of the union of compatible scalable filters a and b */
size_t
bloom_scalable_union_size(const BloomFilter *a, const BloomFilter *b)
{
	return bloom_scalable_size(more_layers(a, b)->nlayers,
							   bloom_scalable_blocks(more_layers(a, b)));
}

/*
 * Writes the union of compatible scalable filters a and b into buf
 * (bloom_scalable_union_size bytes, overlapping neither): layer i of the
 * result is the union of their layers i.  A key is in some layer of a or
 * of b, so the union has no false negatives; the layers' counts add up, so
 * a layer holding more keys than its capacity shows in the estimates.
 */
void
bloom_scalable_union(uint8_t *buf, const BloomFilter *a, const BloomFilter *b,
					 const BloomCancel *c)
{
	const BloomFilter *big = more_layers(a, b);
	const BloomFilter *small = big == a ? b : a;
	BloomFilter g = *big;

	scalable_header(&g, buf, big->nlayers);
	bloom_adopt_key_class(&g, small);
	g.nitems = 0;
	for (uint64_t i = 0; i < g.nlayers; i++)
	{
		if (i < small->nlayers)
			g.layers[i].nitems = bloom_sat_add(small->layers[i].nitems,
											   big->layers[i].nitems);
		g.nitems = bloom_sat_add(g.nitems, g.layers[i].nitems);
	}
	scalable_point(&g);
	bloom_write_header(&g);
	memcpy(g.layers[0].data, big->layers[0].data,
		   bloom_scalable_blocks(big) * BLOOM_BLOCK_BYTES);
	for (uint64_t i = 0; i < small->nlayers; i++)
		bloom_union_bits(g.layers[i].data, small->layers[i].data,
						 small->layers[i].nblocks * BLOOM_BLOCK_BYTES, c);
}

/* ---------------------------------------------------------------------
 * The operations of kind 4
 * ---------------------------------------------------------------------
 */

/*
 * Validates the rest of a kind-4 value (version 2, no flags): the layer
 * descriptors, each layer's capacity (the first layer's times expansion^i),
 * the counts and the length.
 */
static BloomStatus
scalable_decode(const uint8_t *buf, size_t len, BloomFilter *f)
{
	uint64_t	total = 0;
	uint64_t	items = 0;

	if (f->version == BLOOM_FORMAT_VERSION)
		return BLOOM_E_KIND;
	if (f->flags != 0)
		return BLOOM_E_FLAGS;
	if (f->k != 0 || f->block_log2 != BLOOM_BLOCK_LOG2 ||
		f->nlayers < 1 || f->nlayers > BLOOM_MAX_LAYERS)
		return BLOOM_E_GEOMETRY;
	if (f->expansion < 1 || f->expansion > BLOOM_MAX_EXPANSION ||
		f->capacity < 1 || !bloom_scalable_fpr_valid(f->fpr))
		return BLOOM_E_PARAMS;
	if (len < BLOOM_HEADER_SIZE + f->nlayers * BLOOM_LAYER_DESC_SIZE)
		return BLOOM_E_LENGTH;

	for (uint64_t i = 0; i < f->nlayers; i++)
	{
		const uint8_t *d = buf + BLOOM_HEADER_SIZE + i * BLOOM_LAYER_DESC_SIZE;
		BloomLayer *l = &f->layers[i];
		uint64_t	expect;

		l->nblocks = bloom_get_le64(d);
		l->capacity = bloom_get_le64(d + 8);
		l->nitems = bloom_get_le64(d + 16);
		l->k = d[24];
		if (l->k < 1 || l->k > BLOOM_MAX_HASHES ||
			l->nblocks < 1 || l->nblocks > BLOOM_MAX_BLOCKS - total)
			return BLOOM_E_GEOMETRY;
		for (int j = 25; j < BLOOM_LAYER_DESC_SIZE; j++)
			if (d[j] != 0)
				return BLOOM_E_FLAGS;
		expect = f->capacity;
		if (i > 0 && !layer_after(f->layers[i - 1].capacity, f->expansion, &expect))
			return BLOOM_E_PARAMS;
		if (l->capacity != expect || l->capacity > l->nblocks * BLOOM_BLOCK_BITS)
			return BLOOM_E_PARAMS;
		total += l->nblocks;
		items = bloom_sat_add(items, l->nitems);
	}
	if (items != f->nitems)
		return BLOOM_E_COUNT;
	if (len > BLOOM_MAX_BYTES || len != bloom_scalable_size(f->nlayers, total))
		return BLOOM_E_LENGTH;

	scalable_point(f);
	return BLOOM_OK;
}

static size_t
scalable_value_size(const BloomFilter *f)
{
	return bloom_scalable_size(f->nlayers, bloom_scalable_blocks(f));
}

static bool
scalable_contains(const BloomFilter *f, uint64_t h)
{
	return bloom_filter_contains(f, h);
}

/*
 * Adds h unless some layer may hold it already (RedisBloom's rule, so that
 * repeats do not fill the filter).  A full newest layer makes a new one,
 * expansion times larger, in a new value from a: f then describes the new
 * value, and the old one is the caller's to free.  BLOOM_E_CAPACITY when
 * the filter cannot grow.
 */
static BloomStatus
scalable_add(BloomFilter *f, uint64_t h, BloomPlan *plan, const BloomAlloc *a,
			 bool *added)
{
	BloomLayer *l;

	*added = false;
	if (bloom_scalable_contains(f, h))
		return BLOOM_OK;
	if (bloom_scalable_full(f))
	{
		BloomPlan	local = {0};
		BloomFilter grown;
		uint64_t	capacity,
					nblocks;
		size_t		size;
		uint8_t    *buf;
		BloomStatus st;

		if (plan == NULL)
			plan = &local;
		if ((st = bloom_scalable_next_layer(f, plan, &capacity, &nblocks)) != BLOOM_OK)
			return st;
		size = bloom_scalable_size(f->nlayers + 1, bloom_scalable_blocks(f) + nblocks);
		if ((buf = bloom_alloc_value(a, size)) == NULL)
			return BLOOM_E_NOMEM;
		bloom_scalable_append_layer(buf, f, capacity, nblocks, plan->k);
		if (bloom_decode_as(buf, size, &grown, &bloom_scalable_ops) != BLOOM_OK)
			return BLOOM_E_NOMEM;	/* cannot happen: what we wrote decodes */
		*f = grown;
	}
	l = &f->layers[f->nlayers - 1];
	bloom_bits_insert(l->data, l->nblocks, l->k, h);
	l->nitems++;
	f->nitems = bloom_sat_add(f->nitems, 1);
	*added = true;
	bloom_write_header(f);
	return BLOOM_OK;
}

/*
 * Layer by layer.  Intersection only of filters of one layer: a key may
 * sit in different layers of two grown filters (BLOOM_E_GROWN).  A union
 * is a new value from a, which a then describes.
 */
static BloomStatus
scalable_merge(BloomFilter *a, const BloomFilter *b, bool intersect,
			   const BloomAlloc *al)
{
	size_t		size;
	uint8_t    *buf;

	if (intersect)
	{
		if (a->nlayers > 1 || b->nlayers > 1)
			return BLOOM_E_GROWN;
		bloom_intersect_bits(a->layers[0].data, b->layers[0].data,
							 a->layers[0].nblocks * BLOOM_BLOCK_BYTES,
							 bloom_alloc_cancel(al));
		if (b->layers[0].nitems < a->layers[0].nitems)
			a->layers[0].nitems = b->layers[0].nitems;
		a->nitems = a->layers[0].nitems;
		bloom_adopt_key_class(a, b);
		bloom_write_header(a);
		return BLOOM_OK;
	}
	size = bloom_scalable_union_size(a, b);
	if ((buf = bloom_alloc_value(al, size)) == NULL)
		return BLOOM_E_NOMEM;
	bloom_scalable_union(buf, a, b, bloom_alloc_cancel(al));
	return bloom_decode_as(buf, size, a, &bloom_scalable_ops);
}

/* BF.INFO's capacity is what the layers there are hold */
static void
scalable_describe(const BloomFilter *f, BloomInfo *info)
{
	info->capacity = 0;
	for (uint64_t i = 0; i < f->nlayers; i++)
		info->capacity = bloom_sat_add(info->capacity, f->layers[i].capacity);
	info->bits = bloom_scalable_blocks(f) * BLOOM_BLOCK_BITS;
	info->hashes = f->layers[f->nlayers - 1].k;
	info->layers = (int) f->nlayers;
	info->expansion = (int) f->expansion;
	info->has_expansion = true;
}

const BloomOps bloom_scalable_ops = {
	.name = "scalable",
	.kind = BLOOM_KIND_SCALABLE,
	.decode = scalable_decode,
	.size = scalable_value_size,
	.contains = scalable_contains,
	.add = scalable_add,
	.merge = scalable_merge,
	.describe = scalable_describe,
};
