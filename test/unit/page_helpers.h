/*
 * Helpers of the unit tests of the index's page format (test_pagefmt.c,
 * test_pagemap.c): reproducible hashes, pages written as the glue writes
 * them, metapages and layers made to order.
 */
#ifndef UNIT_PAGE_HELPERS_H
#define UNIT_PAGE_HELPERS_H

#include "unit.h"
#include "pagefmt.h"

#include <stddef.h>

/* xorshift64*: reproducible hashes */
static inline uint64_t
rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

static inline void
put16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, sizeof(v));
}

/*
 * The metapage as the glue writes it (bfi_init_meta_page): PageInit with
 * a 16-byte special space, then the special space, the metapage at
 * MAXALIGN(SizeOfPageHeaderData) and pd_lower just past it.
 */
static inline void
build_meta_page(uint8_t *page, const BfiMeta *m)
{
	BfiOpaque	o = {0};

	memset(page, 0, BFI_PAGE_SIZE);
	put16(page + BFI_PD_LOWER, (uint16_t) (BFI_CONTENTS_OFFSET + sizeof(BfiMeta)));
	put16(page + BFI_PD_UPPER, BFI_PAGE_SIZE - BFI_SPECIAL_SIZE);
	put16(page + BFI_PD_SPECIAL, BFI_PAGE_SIZE - BFI_SPECIAL_SIZE);
	put16(page + 18, BFI_PAGE_SIZE | 4);	/* pd_pagesize_version */
	o.flags = BFI_PAGE_META;
	o.page_id = BFI_PAGE_ID;
	memcpy(page + BFI_PAGE_SIZE - BFI_SPECIAL_SIZE, &o, sizeof(o));
	memcpy(page + BFI_CONTENTS_OFFSET, m, sizeof(*m));
}

/* Page p of layer number layer as bfi_init_data_page writes it */
static inline void
build_data_page(uint8_t *page, const BfiLayer *l, unsigned layer, uint32_t p,
				uint64_t nitems)
{
	BfiOpaque	o = {0};

	memset(page, 0, BFI_PAGE_SIZE);
	put16(page + BFI_PD_LOWER, bfi_page_lower(l, p));
	put16(page + BFI_PD_UPPER, BFI_PAGE_SIZE - BFI_SPECIAL_SIZE);
	put16(page + BFI_PD_SPECIAL, BFI_PAGE_SIZE - BFI_SPECIAL_SIZE);
	put16(page + 18, BFI_PAGE_SIZE | 4);
	o.nitems = nitems;
	o.layer = (uint16_t) layer;
	o.flags = BFI_PAGE_DATA;
	o.pageno = (uint16_t) p;
	o.page_id = BFI_PAGE_ID;
	memcpy(page + BFI_PAGE_SIZE - BFI_SPECIAL_SIZE, &o, sizeof(o));
}

/* A metapage with nlayers layers from (fpr, expansion, capacity, min_pages) */
static inline void
make_meta(BfiMeta *m, double fpr, unsigned expansion, uint64_t capacity,
		  unsigned min_pages, int nlayers)
{
	bfi_meta_init(m, fpr, expansion, capacity, min_pages);
	for (int i = 0; i < nlayers; i++)
		assert_int_equal(bfi_add_layer(m, capacity), BFI_OK);
	assert_int_equal(bfi_meta_check(m), BFI_OK);
}

/* A layer by hand, possibly with a last page not full */
static inline BfiLayer
layer_of(uint32_t first, uint64_t nblocks, uint64_t capacity, int k)
{
	BfiLayer	l;

	memset(&l, 0, sizeof(l));
	l.first_blkno = first;
	l.nblocks = nblocks;
	l.npages = (uint32_t) ((nblocks + BFI_BLOCKS_PER_PAGE - 1) / BFI_BLOCKS_PER_PAGE);
	l.capacity = capacity;
	l.k = (uint8_t) k;
	return l;
}

#endif							/* UNIT_PAGE_HELPERS_H */
