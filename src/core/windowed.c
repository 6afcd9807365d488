/*-------------------------------------------------------------------------
 *
 * windowed.c
 *		Windowed filters (kind 9): planning, the layout, adds and expiry
 *		(a new layout planned, then written), lookups since a time, union,
 *		and validation.
 *
 * Layout (docs/FORMAT.md, "Windowed filters"): the common header (k, the
 * capacity of a slice, the rate over the kept slices, items, the kept
 * slices at offset 48 and the blocks of a slice at 56), a 32-byte window
 * descriptor (slice length in microseconds, the newest slice, the window,
 * 12 reserved bytes), one 16-byte descriptor a kept slice (its number, its
 * items), oldest first, then each kept slice's blocks.
 *
 *-------------------------------------------------------------------------
 */
#include "windowed.h"

#include "sizing.h"

#define WINDOW_OFFSET	BLOOM_HEADER_SIZE
#define SLICES_OFFSET	(BLOOM_HEADER_SIZE + BLOOM_WINDOW_DESC_SIZE)

size_t
bloom_windowed_size(uint64_t nslices, uint64_t nblocks)
{
	return SLICES_OFFSET + nslices * BLOOM_SLICE_DESC_SIZE +
		nslices * nblocks * BLOOM_BLOCK_BYTES;
}

/*
 * The blocks and hashes of a slice of capacity keys in a filter whose rate
 * over window + 1 slices is fpr: each slice at fpr / (window + 1).  Fails
 * when window + 1 such slices pass a value's size limit.
 */
BloomStatus
bloom_windowed_plan(uint64_t capacity, double fpr, uint32_t window,
					uint64_t *nblocks, int *k)
{
	BloomPlan	plan;
	BloomStatus st;

	if (capacity < 1 || window < 1 || window > BLOOM_WINDOW_MAX ||
		!(fpr >= BLOOM_MIN_SCALABLE_FPR && fpr <= BLOOM_MAX_FPR))
		return BLOOM_E_PARAMS;
	if ((st = bloom_plan(fpr / (double) (window + 1), &plan)) != BLOOM_OK)
		return st;
	if ((st = bloom_plan_size(&plan, capacity, nblocks)) != BLOOM_OK)
		return st;
	if (*nblocks > BLOOM_MAX_BLOCKS / (window + 1) ||
		bloom_windowed_size(window + 1, *nblocks) > BLOOM_MAX_BYTES)
		return BLOOM_E_CAPACITY;
	*k = plan.k;
	return BLOOM_OK;
}

/* Points f's slices (layers) at their descriptors' fields and bits */
static void
windowed_point(BloomFilter *f)
{
	uint8_t    *bits = f->base + SLICES_OFFSET +
		f->nlayers * BLOOM_SLICE_DESC_SIZE;

	f->data = f->base + BLOOM_HEADER_SIZE;
	for (uint64_t i = 0; i < f->nlayers; i++)
	{
		f->layers[i].nblocks = f->nblocks;
		f->layers[i].capacity = f->capacity;
		f->layers[i].k = f->k;
		f->layers[i].data = bits + i * f->nblocks * BLOOM_BLOCK_BYTES;
	}
}

/* Writes f's header, window and slice descriptors into f->base */
static void
windowed_write(const BloomFilter *f)
{
	uint8_t    *w = f->base + WINDOW_OFFSET;

	bloom_write_common(f, f->nlayers, f->nblocks);
	bloom_put_le64(w, (uint64_t) f->slice_usec);
	bloom_put_le64(w + 8, (uint64_t) f->newest);
	memset(w + 16, 0, BLOOM_WINDOW_DESC_SIZE - 16);
	w[16] = (uint8_t) f->window;
	w[17] = (uint8_t) (f->window >> 8);
	w[18] = (uint8_t) (f->window >> 16);
	w[19] = (uint8_t) (f->window >> 24);
	for (uint64_t i = 0; i < f->nlayers; i++)
	{
		uint8_t    *d = f->base + SLICES_OFFSET + i * BLOOM_SLICE_DESC_SIZE;

		bloom_put_le64(d, (uint64_t) f->slice_no[i]);
		bloom_put_le64(d + 8, f->layers[i].nitems);
	}
}

/* An empty windowed filter (no slice, no time yet) in buf */
void
bloom_windowed_init(uint8_t *buf, uint64_t capacity, double fpr, uint64_t seed,
					uint64_t nblocks, int k, int64_t slice_usec, uint32_t window)
{
	BloomFilter f;

	bloom_header_init(&f, buf, BLOOM_KIND_WINDOWED, capacity, fpr, seed);
	f.version = BLOOM_FORMAT_VERSION_5;
	f.k = (uint8_t) k;
	f.block_log2 = BLOOM_BLOCK_LOG2;
	f.nblocks = nblocks;
	f.nlayers = 0;
	f.slice_usec = slice_usec;
	f.newest = BLOOM_WINDOW_NO_TIME;
	f.window = window;
	windowed_write(&f);
}

/*
 * The slice numbers a value may hold: their start and end fit in int64
 * microseconds, and so does a window's arithmetic around them
 */
bool
bloom_window_slice_valid(int64_t s, int64_t slice_usec)
{
	int64_t		lim = INT64_MAX / slice_usec - 2 * BLOOM_MAX_LAYERS;

	return s >= -lim && s <= lim;
}

/*
 * The newest slice and the first one kept after moving to s (a time older
 * than the window leaves the window where it is)
 */
static int64_t
newest_after(const BloomFilter *f, int64_t s)
{
	return (f->newest == BLOOM_WINDOW_NO_TIME || s > f->newest) ? s : f->newest;
}

void
bloom_window_plan(const BloomFilter *f, int64_t s, bool open, BloomWindowPlan *p)
{
	int64_t		oldest;
	uint64_t	n = 0;
	bool		placed = false;

	p->newest = newest_after(f, s);
	oldest = p->newest - (int64_t) f->window;
	open = open && s >= oldest;
	p->target = -1;
	p->changed = p->newest != f->newest;
	for (uint64_t i = 0; i < f->nlayers; i++)
	{
		if (f->slice_no[i] < oldest)
		{
			p->changed = true;	/* dropped */
			continue;
		}
		if (open && !placed && s < f->slice_no[i])
		{
			/* a new slice before this one */
			p->slice_no[n] = s;
			p->src[n] = -1;
			p->target = (int) n++;
			p->changed = placed = true;
		}
		if (open && f->slice_no[i] == s)
		{
			p->target = (int) n;
			placed = true;
		}
		p->slice_no[n] = f->slice_no[i];
		p->src[n++] = (int) i;
	}
	if (open && !placed)
	{
		p->slice_no[n] = s;
		p->src[n] = -1;
		p->target = (int) n++;
		p->changed = true;
	}
	p->nslices = n;
}

size_t
bloom_window_plan_size(const BloomFilter *f, const BloomWindowPlan *p)
{
	return bloom_windowed_size(p->nslices, f->nblocks);
}

/*
 * Writes the value p plans from f into out (bloom_window_plan_size bytes,
 * apart from f), decoded into nf: kept slices copied, new ones empty
 */
void
bloom_window_apply(uint8_t *out, const BloomFilter *f, const BloomWindowPlan *p,
				   BloomFilter *nf)
{
	*nf = *f;
	nf->base = out;
	nf->nlayers = p->nslices;
	nf->newest = p->newest;
	nf->nitems = 0;
	windowed_point(nf);
	for (uint64_t i = 0; i < p->nslices; i++)
	{
		size_t		bytes = f->nblocks * BLOOM_BLOCK_BYTES;

		nf->slice_no[i] = p->slice_no[i];
		if (p->src[i] >= 0)
		{
			nf->layers[i].nitems = f->layers[p->src[i]].nitems;
			memcpy(nf->layers[i].data, f->layers[p->src[i]].data, bytes);
		}
		else
		{
			nf->layers[i].nitems = 0;
			memset(nf->layers[i].data, 0, bytes);
		}
		nf->nitems = bloom_sat_add(nf->nitems, nf->layers[i].nitems);
	}
	windowed_write(nf);
}

/* Adds h to kept slice i of f, in place: true when it set a new bit */
bool
bloom_windowed_insert(BloomFilter *f, int i, uint64_t h)
{
	BloomLayer *l = &f->layers[i];

	if (bloom_bits_contain(l->data, l->nblocks, l->k, h))
		return false;
	bloom_bits_insert(l->data, l->nblocks, l->k, h);
	l->nitems = bloom_sat_add(l->nitems, 1);
	f->nitems = bloom_sat_add(f->nitems, 1);
	bloom_put_le64(f->base + SLICES_OFFSET + (size_t) i * BLOOM_SLICE_DESC_SIZE + 8,
				   l->nitems);
	bloom_put_le64(f->base + 40, f->nitems);
	return true;
}

/* The first kept slice that ends after the start of slice since_slice */
int
bloom_window_first_since(const BloomFilter *f, int64_t since_slice)
{
	int			i = 0;

	while (i < (int) f->nlayers && f->slice_no[i] < since_slice)
		i++;
	return i;
}

/* Whether kept slices from, from + 1, ... may hold h */
bool
bloom_windowed_contains_from(const BloomFilter *f, int from, uint64_t h)
{
	for (int i = (int) f->nlayers - 1; i >= from; i--)
		__builtin_prefetch(bloom_bits_block(f->layers[i].data, f->nblocks, h));
	for (int i = from; i < (int) f->nlayers; i++)
		if (bloom_bits_contain(f->layers[i].data, f->nblocks, f->k, h))
			return true;
	return false;
}

/*
 * Whether two windowed filters may be united: the same slicing and
 * window, and each slice planned alike (seed, capacity, rate, geometry)
 */
BloomParam
bloom_windowed_compatible(const BloomFilter *a, const BloomFilter *b)
{
	BloomParam	p;

	if (a->kind != b->kind)
		return BLOOM_PARAM_KIND;
	if (a->slice_usec != b->slice_usec || a->window != b->window)
		return BLOOM_PARAM_SLICING;
	if ((p = bloom_sizing_compatible(a, b)) != BLOOM_PARAM_NONE)
		return p;
	if (a->nblocks != b->nblocks)
		return BLOOM_PARAM_NBLOCKS;
	if (a->k != b->k)
		return BLOOM_PARAM_HASHES;
	if (!bloom_keys_compatible(a, b))
		return BLOOM_PARAM_KEY_TYPE;
	return BLOOM_PARAM_NONE;
}

/*
 * The slices of the union of a and b: the newer newest, and the slices of
 * either inside its window, each from a's slice src[i] and b's bsrc[i]
 */
void
bloom_window_union_plan(const BloomFilter *a, const BloomFilter *b,
						BloomWindowPlan *p, int *bsrc)
{
	int64_t		oldest;
	uint64_t	i = 0,
				j = 0,
				n = 0;

	p->newest = b->newest == BLOOM_WINDOW_NO_TIME ? a->newest : newest_after(a, b->newest);
	p->target = -1;
	p->changed = true;
	p->nslices = 0;
	if (p->newest == BLOOM_WINDOW_NO_TIME)
		return;					/* neither has a slice */
	oldest = p->newest - (int64_t) a->window;
	while (i < a->nlayers || j < b->nlayers)
	{
		int64_t		s;

		if (j >= b->nlayers || (i < a->nlayers && a->slice_no[i] <= b->slice_no[j]))
			s = a->slice_no[i];
		else
			s = b->slice_no[j];
		p->src[n] = bsrc[n] = -1;
		if (i < a->nlayers && a->slice_no[i] == s)
			p->src[n] = (int) i++;
		if (j < b->nlayers && b->slice_no[j] == s)
			bsrc[n] = (int) j++;
		if (s < oldest)
			continue;
		p->slice_no[n++] = s;
	}
	p->nslices = n;
}

size_t
bloom_windowed_union_size(const BloomFilter *a, const BloomFilter *b)
{
	BloomWindowPlan p;
	int			bsrc[2 * BLOOM_MAX_LAYERS];

	bloom_window_union_plan(a, b, &p, bsrc);
	return bloom_window_plan_size(a, &p);
}

/*
 * Writes the union of compatible windowed filters a and b into out
 * (bloom_windowed_union_size bytes, apart from both), decoded into nf: a
 * slice of either kept in the union's window holds the keys both had in
 * it, the counts added (as a scalable filter's layers are)
 */
void
bloom_windowed_union(uint8_t *out, const BloomFilter *a, const BloomFilter *b,
					 const BloomCancel *c, BloomFilter *nf)
{
	BloomWindowPlan p;
	int			bsrc[2 * BLOOM_MAX_LAYERS];
	size_t		bytes = a->nblocks * BLOOM_BLOCK_BYTES;

	bloom_window_union_plan(a, b, &p, bsrc);
	bloom_window_apply(out, a, &p, nf);
	bloom_adopt_key_class(nf, b);
	nf->nitems = 0;
	for (uint64_t i = 0; i < p.nslices; i++)
	{
		if (bsrc[i] >= 0)
		{
			bloom_union_bits(nf->layers[i].data, b->layers[bsrc[i]].data, bytes, c);
			nf->layers[i].nitems = bloom_sat_add(nf->layers[i].nitems,
												 b->layers[bsrc[i]].nitems);
		}
		nf->nitems = bloom_sat_add(nf->nitems, nf->layers[i].nitems);
	}
	windowed_write(nf);
}

/* ---------------------------------------------------------------------
 * The operations of kind 9
 * ---------------------------------------------------------------------
 */

/*
 * Validates the rest of a kind-9 value (version 5 alone, no flags): the
 * geometry of a slice, the window descriptor, the slices (strictly
 * increasing, inside the window of the newest), the counts and the length
 */
static BloomStatus
windowed_decode(const uint8_t *buf, size_t len, BloomFilter *f)
{
	const uint8_t *w = buf + WINDOW_OFFSET;
	uint64_t	items = 0;

	if (f->version != BLOOM_FORMAT_VERSION_5)
		return BLOOM_E_KIND;
	if (f->flags != 0)
		return BLOOM_E_FLAGS;
	if (f->k < 1 || f->k > BLOOM_MAX_HASHES || f->block_log2 != BLOOM_BLOCK_LOG2 ||
		f->nblocks < 1 || f->nblocks > BLOOM_MAX_BLOCKS)
		return BLOOM_E_GEOMETRY;
	if (f->capacity < 1 || f->capacity > f->nblocks * BLOOM_BLOCK_BITS ||
		!(f->fpr >= BLOOM_MIN_SCALABLE_FPR && f->fpr <= BLOOM_MAX_FPR))
		return BLOOM_E_PARAMS;
	if (len < SLICES_OFFSET)
		return BLOOM_E_LENGTH;
	f->slice_usec = (int64_t) bloom_get_le64(w);
	f->newest = (int64_t) bloom_get_le64(w + 8);
	f->window = (uint32_t) w[16] | (uint32_t) w[17] << 8 |
		(uint32_t) w[18] << 16 | (uint32_t) w[19] << 24;
	for (int i = 20; i < BLOOM_WINDOW_DESC_SIZE; i++)
		if (w[i] != 0)
			return BLOOM_E_FLAGS;
	if (f->slice_usec < 1 || f->slice_usec > BLOOM_WINDOW_MAX_SLICE_USEC ||
		f->window < 1 || f->window > BLOOM_WINDOW_MAX)
		return BLOOM_E_PARAMS;
	if (f->newest != BLOOM_WINDOW_NO_TIME &&
		!bloom_window_slice_valid(f->newest, f->slice_usec))
		return BLOOM_E_PARAMS;
	if (f->nlayers > f->window + 1 || (f->nlayers > 0 && f->newest == BLOOM_WINDOW_NO_TIME))
		return BLOOM_E_GEOMETRY;
	if (f->nlayers > BLOOM_MAX_BLOCKS / f->nblocks)
		return BLOOM_E_LENGTH;
	if (len > BLOOM_MAX_BYTES || len != bloom_windowed_size(f->nlayers, f->nblocks))
		return BLOOM_E_LENGTH;
	for (uint64_t i = 0; i < f->nlayers; i++)
	{
		const uint8_t *d = buf + SLICES_OFFSET + i * BLOOM_SLICE_DESC_SIZE;

		f->slice_no[i] = (int64_t) bloom_get_le64(d);
		f->layers[i].nitems = bloom_get_le64(d + 8);
		if (f->slice_no[i] < f->newest - (int64_t) f->window ||
			f->slice_no[i] > f->newest ||
			(i > 0 && f->slice_no[i] <= f->slice_no[i - 1]))
			return BLOOM_E_GEOMETRY;
		items = bloom_sat_add(items, f->layers[i].nitems);
	}
	if (items != f->nitems)
		return BLOOM_E_COUNT;
	windowed_point(f);
	return BLOOM_OK;
}

static size_t
windowed_value_size(const BloomFilter *f)
{
	return bloom_windowed_size(f->nlayers, f->nblocks);
}

static bool
windowed_contains(const BloomFilter *f, uint64_t h)
{
	return bloom_windowed_contains_from(f, 0, h);
}

/* A union is a new value from a, which a then describes; no intersection */
static BloomStatus
windowed_merge(BloomFilter *a, const BloomFilter *b, bool intersect,
			   const BloomAlloc *al)
{
	size_t		size;
	uint8_t    *buf;
	BloomFilter nf;

	if (intersect)
		return BLOOM_E_KIND;
	if (bloom_windowed_compatible(a, b) != BLOOM_PARAM_NONE)
		return BLOOM_E_MISMATCH;
	size = bloom_windowed_union_size(a, b);
	if ((buf = bloom_alloc_value(al, size)) == NULL)
		return BLOOM_E_NOMEM;
	bloom_windowed_union(buf, a, b, bloom_alloc_cancel(al), &nf);
	return bloom_decode_as(buf, size, a, &bloom_windowed_ops);
}

/* BF.INFO's capacity: a slice's times the slices kept */
static void
windowed_describe(const BloomFilter *f, BloomInfo *info)
{
	info->capacity = f->capacity * f->nlayers;
	info->bits = f->nlayers * f->nblocks * BLOOM_BLOCK_BITS;
	info->hashes = f->k;
	info->layers = (int) f->nlayers;
	info->expansion = 0;
	info->has_expansion = false;
}

const BloomOps bloom_windowed_ops = {
	.name = "windowed",
	.kind = BLOOM_KIND_WINDOWED,
	.decode = windowed_decode,
	.size = windowed_value_size,
	.contains = windowed_contains,
	.add = NULL,				/* an add needs a time: bloom_window_plan */
	.merge = windowed_merge,
	.describe = windowed_describe,
};
