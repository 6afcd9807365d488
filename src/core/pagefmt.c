/*-------------------------------------------------------------------------
 *
 * pagefmt.c
 *		Metapage and data pages of the bloomfilter index: checks, layer
 *		planning, per-page shares.  Plain C: the fuzzer drives it.
 *
 * Layers follow the schedule of a scalable value (sizing.c): layer i is
 * planned for bloom_layer_fpr(fpr, i) and holds the first layer's capacity
 * times expansion^i, so a snapshot of the index is a valid kind-4 value.
 *
 *-------------------------------------------------------------------------
 */
#include "pagefmt.h"
#include "scalable.h"

#include <math.h>
#include <string.h>

_Static_assert(sizeof(BfiLayer) == 40, "BfiLayer is 40 bytes");
_Static_assert(sizeof(BfiOpaque) == BFI_SPECIAL_SIZE, "BfiOpaque fills the special space");
_Static_assert(BFI_CONTENTS_OFFSET + sizeof(BfiMeta) < BFI_PAGE_SIZE - BFI_SPECIAL_SIZE,
			   "the metapage fits in a page");
_Static_assert(BFI_BLOCKS_PER_PAGE == 126, "126 blocks a page");

size_t
bfi_meta_size(void)
{
	return sizeof(BfiMeta);
}

/* An index's metapage before its first layer */
void
bfi_meta_init(BfiMeta *m, double fpr, unsigned expansion,
			  uint64_t min_capacity, unsigned min_pages)
{
	memset(m, 0, sizeof(*m));
	m->magic = BFI_MAGIC;
	m->version = BFI_VERSION;
	m->fpr = fpr;
	m->expansion = (uint8_t) expansion;
	m->blocks_per_page = BFI_BLOCKS_PER_PAGE;
	m->min_pages = (uint16_t) min_pages;
	m->min_capacity = min_capacity;
	m->next_blkno = BFI_META_BLKNO + 1;
}

static uint16_t
get_u16(const uint8_t *p)
{
	uint16_t	v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Every field of a metapage, before anything trusts one */
BfiStatus
bfi_meta_check(const BfiMeta *m)
{
	uint64_t	next = BFI_META_BLKNO + 1;

	if (m->magic != BFI_MAGIC)
		return BFI_E_MAGIC;
	if (m->version != 1 && m->version != BFI_VERSION)
		return BFI_E_VERSION;
	if (m->flags != 0 || m->reserved0 != 0 || !bloom_scalable_fpr_valid(m->fpr) ||
		m->expansion < 1 || m->expansion > BLOOM_MAX_EXPANSION ||
		m->key_class > BLOOM_KEY_MAX || m->min_pages < 1 || m->min_capacity < 1)
		return BFI_E_PARAMS;
	if (m->blocks_per_page != BFI_BLOCKS_PER_PAGE || m->nlayers > BFI_MAX_LAYERS)
		return BFI_E_LAYERS;
	for (unsigned i = 0; i < m->nlayers; i++)
	{
		const BfiLayer *l = &m->layers[i];

		if (l->k < 1 || l->k > BLOOM_MAX_HASHES || l->reserved != 0 ||
			l->full_pages > l->npages || (m->version == 1 && l->full_pages != 0) ||
			l->nblocks < 1 || l->nblocks > BFI_MAX_PAGES * BFI_BLOCKS_PER_PAGE ||
			l->npages != (l->nblocks + BFI_BLOCKS_PER_PAGE - 1) / BFI_BLOCKS_PER_PAGE ||
			l->first_blkno != next)
			return BFI_E_LAYERS;
		for (int j = 0; j < 7; j++)
			if (l->pad[j] != 0)
				return BFI_E_LAYERS;
		if (l->capacity < 1 || l->capacity > l->nblocks * BLOOM_BLOCK_BITS ||
			(i > 0 && (m->layers[i - 1].capacity > UINT64_MAX / m->expansion ||
					   l->capacity != m->layers[i - 1].capacity * m->expansion)))
			return BFI_E_LAYERS;
		next += l->npages;
		if (next > BFI_MAX_PAGES)
			return BFI_E_LAYERS;
	}
	if (m->next_blkno != next)
		return BFI_E_LAYERS;
	for (unsigned i = m->nlayers; i < BFI_MAX_LAYERS; i++)
	{
		static const BfiLayer zero;

		if (memcmp(&m->layers[i], &zero, sizeof(zero)) != 0)
			return BFI_E_LAYERS;
	}
	return BFI_OK;
}

/* Reads and checks the metapage of page (BFI_PAGE_SIZE bytes) into m */
BfiStatus
bfi_meta_decode(const uint8_t *page, BfiMeta *m)
{
	BfiOpaque	o;

	memcpy(&o, page + BFI_PAGE_SIZE - BFI_SPECIAL_SIZE, sizeof(o));
	if (get_u16(page + BFI_PD_SPECIAL) != BFI_PAGE_SIZE - BFI_SPECIAL_SIZE ||
		get_u16(page + BFI_PD_UPPER) != BFI_PAGE_SIZE - BFI_SPECIAL_SIZE ||
		o.page_id != BFI_PAGE_ID || o.flags != BFI_PAGE_META ||
		get_u16(page + BFI_PD_LOWER) != BFI_CONTENTS_OFFSET + sizeof(BfiMeta))
		return BFI_E_MAGIC;
	memcpy(m, page + BFI_CONTENTS_OFFSET, sizeof(*m));
	return bfi_meta_check(m);
}

/*
 * Checks that page is page p of layer l (number layer) as an insert wrote
 * it: the page header's bounds and the special space.  A new (all-zero)
 * page is the caller's to recognise first: it holds no keys.
 */
BfiStatus
bfi_data_page_check(const uint8_t *page, const BfiLayer *l, unsigned layer,
					uint32_t p)
{
	BfiOpaque	o;

	memcpy(&o, page + BFI_PAGE_SIZE - BFI_SPECIAL_SIZE, sizeof(o));
	if (get_u16(page + BFI_PD_SPECIAL) != BFI_PAGE_SIZE - BFI_SPECIAL_SIZE ||
		get_u16(page + BFI_PD_UPPER) != BFI_PAGE_SIZE - BFI_SPECIAL_SIZE ||
		get_u16(page + BFI_PD_LOWER) != bfi_page_lower(l, p) ||
		o.page_id != BFI_PAGE_ID || o.flags != BFI_PAGE_DATA ||
		o.layer != layer || o.pageno != (uint16_t) p ||
		o.nitems > (uint64_t) bfi_page_blocks(l, p) * BLOOM_BLOCK_BITS)
		return BFI_E_PAGE;
	return BFI_OK;
}

const char *
bfi_status_message(BfiStatus st)
{
	switch (st)
	{
		case BFI_OK:
			return "valid";
		case BFI_E_MAGIC:
			return "not a bloomfilter index metapage";
		case BFI_E_VERSION:
			return "unsupported bloomfilter index version";
		case BFI_E_PARAMS:
			return "invalid parameters in the bloomfilter index metapage";
		case BFI_E_LAYERS:
			return "inconsistent layer table in the bloomfilter index metapage";
		case BFI_E_PAGE:
			return "invalid bloomfilter index data page";
	}
	return "unknown status";
}

/*
 * The keys page p of layer l is planned for: the layer's capacity in
 * proportion to the page's blocks, rounded up.
 */
uint64_t
bfi_page_share(const BfiLayer *l, uint32_t p)
{
	double		share = ceil((double) l->capacity * bfi_page_blocks(l, p) /
							 (double) l->nblocks);

	return share < 1.0 ? 1 : (uint64_t) share;
}

/*
 * The count at which page p of layer l counts as full (bfi_layer_full):
 * fifteen sixteenths of its share, rounded up.  A full page takes keys on
 * until its layer is full.
 */
uint64_t
bfi_page_mark(const BfiLayer *l, uint32_t p)
{
	uint64_t	share = bfi_page_share(l, p);

	return share - share / 16;
}

/*
 * Whether layer l is full: half its pages (rounded up) reached their
 * mark (bfi_page_mark).  Keys spread evenly over pages, so the median page
 * reaches its mark when the layer holds about fifteen sixteenths of its
 * capacity (the pages above the median are then a little fuller, and the
 * layer stays under its planned rate, as 1.7's first full page left it at
 * about 96%); one page cannot make a
 * layer full, so keys chosen to fall on a few pages (the hash and its seed
 * are public) fill those pages and no more: the index grows only by half a
 * layer's capacity of keys that reach different pages (as Gerbet, Kumar and
 * Lauradoux's "The Power of Evil Choices in Bloom Filters", DSN 2015,
 * describe the pollution of a filter whose hash is known).
 */
bool
bfi_layer_full(const BfiLayer *l)
{
	return l->full_pages >= (l->npages + 1) / 2;
}

/*
 * Plans the next layer of m for capacity keys: its rate on the scalable
 * schedule, its blocks rounded up to whole pages (and the first layer to
 * at least min_pages pages, so that concurrent writers spread, with the
 * capacity those pages hold), placed at next_blkno.
 */
BfiStatus
bfi_plan_layer(const BfiMeta *m, uint64_t capacity, BfiLayer *out)
{
	BloomPlan	plan;
	uint64_t	nblocks;
	uint64_t	npages;

	if (m->nlayers >= BFI_MAX_LAYERS || capacity < 1)
		return BFI_E_LAYERS;
	if (bloom_plan(bloom_layer_fpr(m->fpr, m->nlayers), &plan) != BLOOM_OK)
		return BFI_E_PARAMS;
	/* the index's limit, not a value's 512 MB: layers live on pages */
	if (bloom_plan_size_in(&plan, capacity, BFI_MAX_PAGES * BFI_BLOCKS_PER_PAGE,
						   &nblocks) != BLOOM_OK)
		return BFI_E_LAYERS;
	npages = (nblocks + BFI_BLOCKS_PER_PAGE - 1) / BFI_BLOCKS_PER_PAGE;
	if (m->nlayers == 0 && npages < m->min_pages)
		npages = m->min_pages;
	if (m->next_blkno + npages > BFI_MAX_PAGES)
		return BFI_E_LAYERS;
	nblocks = npages * BFI_BLOCKS_PER_PAGE;

	/*
	 * The first layer holds what its whole pages hold at its rate: pages
	 * planned for a few keys each would reach their shares by chance long
	 * before the layer holds its capacity.
	 * Later layers keep the capacities of the schedule (the first's times
	 * expansion^i), as a value's layers do.
	 */
	if (m->nlayers == 0)
	{
		uint64_t	fits = bloom_plan_max_capacity_in(&plan, nblocks);

		if (fits > capacity)
			capacity = fits;
	}
	memset(out, 0, sizeof(*out));
	out->first_blkno = m->next_blkno;
	out->npages = (uint32_t) npages;
	out->nblocks = nblocks;
	out->capacity = capacity;
	out->k = (uint8_t) plan.k;
	return BFI_OK;
}

/*
 * Appends the next layer to m: the first of first_capacity keys, later
 * ones expansion times the last.  BFI_E_LAYERS when m cannot grow.
 */
BfiStatus
bfi_add_layer(BfiMeta *m, uint64_t first_capacity)
{
	uint64_t	cap = first_capacity;
	BfiStatus	st;

	if (m->nlayers > 0)
	{
		const BfiLayer *last = &m->layers[m->nlayers - 1];

		if (last->capacity > UINT64_MAX / m->expansion)
			return BFI_E_LAYERS;
		cap = last->capacity * m->expansion;
	}
	st = bfi_plan_layer(m, cap, &m->layers[m->nlayers]);
	if (st != BFI_OK)
		return st;
	m->next_blkno += m->layers[m->nlayers].npages;
	m->nlayers++;
	m->generation++;
	return BFI_OK;
}

/* Layer l with nitems keys and its bits at data, as the core's estimators take it */
void
bfi_layer_view(const BfiLayer *l, uint64_t nitems, uint8_t *data, BloomLayer *out)
{
	out->nblocks = l->nblocks;
	out->capacity = l->capacity;
	out->nitems = nitems;
	out->k = l->k;
	out->data = data;
}
