/*-------------------------------------------------------------------------
 *
 * lightview.c
 *		Views of light states (kind 7): lookups and bloom_info's fields at
 *		the cost of the hashes a state holds, not of the filter its header
 *		describes (see lightview.h).
 *
 * The buffer of a view:
 *
 *	off		what
 *	0		"BLMLVIEW" (8 bytes: no value starts so, values start "BLMF")
 *	8		the BloomLightView, its pointers NULL
 *	N		nset block numbers, 8 bytes each, ascending (N: 8-aligned)
 *	B		nset blocks of 64 bytes (B: 64-aligned from the buffer's start,
 *			so that a copy aligned on B puts every block on a cache line)
 *
 *-------------------------------------------------------------------------
 */
#include "lightview.h"

#include <math.h>

static const char view_magic[8] = {'B', 'L', 'M', 'L', 'V', 'I', 'E', 'W'};

#define VIEW_NUMBERS_OFFSET		((8 + sizeof(BloomLightView) + 7) & ~(size_t) 7)

static size_t
blocks_offset(uint64_t nset)
{
	return (VIEW_NUMBERS_OFFSET + 8 * (size_t) nset + BLOOM_BLOCK_BYTES - 1) &
		~(size_t) (BLOOM_BLOCK_BYTES - 1);
}

static size_t
view_size(uint64_t nset)
{
	return blocks_offset(nset) + (size_t) nset * BLOOM_BLOCK_BYTES;
}

static inline uint64_t
blockno_at(const BloomLightView *v, uint64_t i)
{
	uint64_t	b;

	memcpy(&b, v->blockno + 8 * i, 8);
	return b;
}

bool
bloom_is_light_view(const uint8_t *buf, size_t n)
{
	return n >= VIEW_NUMBERS_OFFSET && memcmp(buf, view_magic, 8) == 0;
}

size_t
bloom_light_view_blocks_offset(const BloomLightView *v)
{
	return blocks_offset(v->nset);
}

/*
 * The estimates of blocked.c (bloom_layer_estimate_items and _fpr), over
 * the touched blocks in ascending order: an untouched block adds zero to
 * both sums, so the result is the materialised filter's, bit for bit.
 */
static void
view_estimates(BloomLightView *v)
{
	const double B = BLOOM_BLOCK_BITS;
	double		denom = v->k * log1p(-1.0 / B);
	double		items = 0.0,
				fpr = 0.0;

	v->bits_set = 0;
	for (uint64_t i = 0; i < v->nset; i++)
	{
		double		x = bloom_block_popcount(v->blocks + i * BLOOM_BLOCK_BYTES);

		v->bits_set += (uint64_t) x;
		fpr += pow(x / B, v->k);
		if (x >= B)
			x = B - 0.5;
		items += log1p(-x / B) / denom;
	}
	v->estimated_items = items;
	v->estimated_fpr = fpr / (double) v->nblocks;
}

/*
 * The header of the filter the light state st stands for, as
 * bloom_materialize makes it: without the SCALABLE_STATE flag, the blocked
 * filter of its bits (buffered_to_blocked); with it, that filter planned
 * as a first layer, its count of keys bounded by what the bits hold and by
 * its capacity, as the one layer of a scalable filter (state_to_scalable).
 * The estimates must be made.
 */
static BloomStatus
view_head(const BloomFilter *st, BloomLightView *v)
{
	BloomFilter f = *st;
	double		est = v->estimated_items;

	f.base = f.data = NULL;
	f.kind = BLOOM_KIND_BLOCKED;
	f.npending = f.nslots = f.nhashes = 0;
	f.version = BLOOM_FORMAT_VERSION;
	f.flags = 0;
	if (!(st->flags & BLOOM_FLAG_SCALABLE_STATE))
	{
		v->head = f;
		v->size = bloom_blocked_size(st->nblocks);
		return BLOOM_OK;
	}
	if (!bloom_scalable_fpr_valid(st->fpr))
		return BLOOM_E_PARAMS;	/* decode refuses such a state */
	f.fpr = bloom_layer_fpr(st->fpr, 0);
	if (est < 0.9 * (double) f.nitems && (uint64_t) ceil(est * 1.02) < f.nitems)
		f.nitems = (uint64_t) ceil(est * 1.02);
	if (f.nitems > f.capacity)
	{
		if (est > 1.05 * f.capacity + 10)
		{
			v->m.over_capacity = true;
			v->m.estimated_items = est;
			v->m.estimated_fpr = v->estimated_fpr;
		}
		f.nitems = f.capacity;
	}
	/* bloom_scalable_from_blocked, then what bloom_decode reads back */
	f.version = BLOOM_FORMAT_VERSION_2;
	f.kind = BLOOM_KIND_SCALABLE;
	f.k = 0;
	f.block_log2 = BLOOM_BLOCK_LOG2;
	f.nlayers = 1;
	f.fpr = st->fpr;
	f.nblocks = 0;
	f.reserved = 0;
	f.expansion = BLOOM_DEFAULT_EXPANSION;
	f.layers[0].nblocks = st->nblocks;
	f.layers[0].capacity = st->capacity;
	f.layers[0].nitems = f.nitems;
	f.layers[0].k = st->k;
	f.layers[0].data = NULL;
	v->head = f;
	v->size = bloom_scalable_size(1, st->nblocks);
	return BLOOM_OK;
}

/*
 * A view of the light state st (kind 7, decoded), in a new buffer from a
 * (*buf, *len bytes: the caller's, to free with a->free or keep), opened
 * into v.  Memory: scratch of 8 bytes a hash, then a view of about 72
 * bytes a touched block; time: a sort of the hashes.
 */
BloomStatus
bloom_light_view_build(const BloomFilter *st, const BloomAlloc *a,
					   uint8_t **buf, size_t *len, BloomLightView *v)
{
	uint64_t	n = st->nhashes;
	uint64_t   *key;
	uint64_t	nset = 0;
	uint8_t    *out;
	uint8_t    *numbers;
	uint8_t    *blocks;
	BloomLightView hdr;
	BloomStatus s;

	if (st->kind != BLOOM_KIND_SPARSE)
		return BLOOM_E_KIND;
	/* block numbers are under 2^24, hash indexes under 2^27: one word */
	key = bloom_alloc_scratch(a, (n > 0 ? n : 1) * sizeof(uint64_t));
	if (key == NULL)
		return BLOOM_E_NOMEM;
	for (uint64_t i = 0; i < n; i++)
	{
		bloom_cancel_point(bloom_alloc_cancel(a), i);
		key[i] = (bloom_mulhi64(bloom_get_le64(st->data + 8 * i), st->nblocks) << 32) | i;
	}
	bloom_sort_u64(key, n, bloom_alloc_cancel(a));
	for (uint64_t i = 0; i < n; i++)
		if (i == 0 || (key[i] >> 32) != (key[i - 1] >> 32))
			nset++;

	*len = view_size(nset);
	if ((out = bloom_alloc_value(a, *len)) == NULL)
	{
		bloom_free_scratch(a, key);
		return BLOOM_E_NOMEM;
	}
	memset(out, 0, *len);
	numbers = out + VIEW_NUMBERS_OFFSET;
	blocks = out + blocks_offset(nset);
	for (uint64_t i = 0, j = 0; i < n; i++)
	{
		uint64_t	b = key[i] >> 32;
		uint64_t	h = bloom_get_le64(st->data + 8 * (key[i] & 0xFFFFFFFF));

		bloom_cancel_point(bloom_alloc_cancel(a), i);
		if (i > 0 && b != (key[i - 1] >> 32))
			j++;
		memcpy(numbers + 8 * j, &b, 8);
		(void) bloom_block_set(blocks + j * BLOOM_BLOCK_BYTES, st->k, h);
	}
	bloom_free_scratch(a, key);

	memset(&hdr, 0, sizeof(hdr));
	hdr.nblocks = st->nblocks;
	hdr.k = st->k;
	hdr.nset = nset;
	hdr.blockno = numbers;
	hdr.blocks = blocks;
	view_estimates(&hdr);
	if ((s = view_head(st, &hdr)) != BLOOM_OK)
	{
		a->free(a->arg, out);
		return s;
	}
	hdr.blockno = NULL;
	hdr.blocks = NULL;
	memcpy(out, view_magic, 8);
	memcpy(out + 8, &hdr, sizeof(hdr));
	*buf = out;
	return bloom_light_view_open(out, *len, v);
}

/*
 * Reopens a view (or a byte-for-byte copy of one, anywhere in memory)
 * into v; BLOOM_E_LENGTH when len is not its length.
 */
BloomStatus
bloom_light_view_open(const uint8_t *buf, size_t len, BloomLightView *v)
{
	if (!bloom_is_light_view(buf, len))
		return BLOOM_E_MAGIC;
	memcpy(v, buf + 8, sizeof(*v));
	if (len != view_size(v->nset))
		return BLOOM_E_LENGTH;
	v->blockno = buf + VIEW_NUMBERS_OFFSET;
	v->blocks = buf + blocks_offset(v->nset);
	return BLOOM_OK;
}

/*
 * Whether the filter the state stands for may hold h: the k bits of h in
 * its block, when a hash reached that block (binary search), else false.
 */
bool
bloom_light_view_contains(const BloomLightView *v, uint64_t h)
{
	uint64_t	b = bloom_mulhi64(h, v->nblocks);
	uint64_t	lo = 0,
				hi = v->nset;

	while (lo < hi)
	{
		uint64_t	mid = lo + (hi - lo) / 2;
		uint64_t	m = blockno_at(v, mid);

		if (m == b)
			return bloom_block_test(v->blocks + mid * BLOOM_BLOCK_BYTES, v->k, h);
		if (m < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* bloom_describe of the filter the state stands for */
void
bloom_light_view_describe(const BloomLightView *v, BloomInfo *info)
{
	const BloomFilter *f = &v->head;

	/* the name the registry gives the kind (kinds.c): blocked or scalable */
	info->kind = f->kind == BLOOM_KIND_SCALABLE ?
		bloom_scalable_ops.name : bloom_blocked_ops.name;
	info->capacity = f->capacity;
	info->bits = v->nblocks * BLOOM_BLOCK_BITS;
	info->hashes = v->k;
	info->layers = 1;
	info->bits_set = v->bits_set;
	info->estimated_items = v->estimated_items;
	if (f->kind == BLOOM_KIND_SCALABLE)
	{
		double		none = 1.0;

		none *= 1.0 - v->estimated_fpr;
		info->estimated_fpr = 1.0 - none;
		info->expansion = (int) f->expansion;
		info->has_expansion = true;
	}
	else
	{
		info->estimated_fpr = v->estimated_fpr;
		info->expansion = 0;
		info->has_expansion = (f->flags & BLOOM_FLAG_NONSCALING) != 0;
	}
}
