/*
 * Unit tests of src/core/pagefmt.c and pagefmt.h (the pages of the
 * bloomfilter index access method): the layout of the metapage, planning
 * layers, and every check of the metapage and of data pages.
 * test_pagemap.c tests where keys go.
 */
#include "page_helpers.h"

/* The on-page layout is a file format: pin it */
static void
test_layout(void **state)
{
	(void) state;
	assert_int_equal(BFI_BLOCKS_PER_PAGE, 126);
	/* blocks at 64 .. 8128, then 48 bytes unused, then the special space */
	assert_int_equal(BFI_DATA_OFFSET + BFI_BLOCKS_PER_PAGE * BLOOM_BLOCK_BYTES, 8128);
	assert_true(BFI_DATA_OFFSET + (BFI_BLOCKS_PER_PAGE + 1) * BLOOM_BLOCK_BYTES >
				BFI_PAGE_SIZE - BFI_SPECIAL_SIZE);
	assert_int_equal(sizeof(BfiLayer), 40);
	assert_int_equal(sizeof(BfiOpaque), BFI_SPECIAL_SIZE);
	assert_int_equal(bfi_meta_size(), sizeof(BfiMeta));
	assert_int_equal(sizeof(BfiMeta), 72 + BFI_MAX_LAYERS * sizeof(BfiLayer));
	assert_int_equal(offsetof(BfiMeta, fpr), 8);
	assert_int_equal(offsetof(BfiMeta, seed), 16);
	assert_int_equal(offsetof(BfiMeta, key_class), 24);
	assert_int_equal(offsetof(BfiMeta, nlayers), 26);
	assert_int_equal(offsetof(BfiMeta, blocks_per_page), 36);
	assert_int_equal(offsetof(BfiMeta, next_blkno), 40);
	assert_int_equal(offsetof(BfiMeta, generation), 44);
	assert_int_equal(offsetof(BfiMeta, layers), 72);
	assert_int_equal(offsetof(BfiLayer, nblocks), 8);
	assert_int_equal(offsetof(BfiLayer, k), 24);
	assert_int_equal(offsetof(BfiOpaque, page_id), 14);
	/* the metapage ends below the special space */
	assert_true(BFI_CONTENTS_OFFSET + sizeof(BfiMeta) <= BFI_PAGE_SIZE - BFI_SPECIAL_SIZE);
	for (int st = BFI_OK; st <= BFI_E_PAGE; st++)
	{
		assert_non_null(bfi_status_message((BfiStatus) st));
		for (int o = BFI_OK; o < st; o++)
			assert_string_not_equal(bfi_status_message((BfiStatus) st),
									bfi_status_message((BfiStatus) o));
	}
}

/*
 * bfi_meta_init then bfi_add_layer: capacities times the expansion, layers
 * back to back from page 1, whole pages, the first at least min_pages,
 * the rate of each layer on the scalable schedule.
 */
static void
test_meta_chain(void **state)
{
	static const struct
	{
		double		fpr;
		unsigned	expansion;
		uint64_t	capacity;
		unsigned	min_pages;
		int			nlayers;
	}			cases[] = {
		{0.01, 2, 1000, 1, 8},
		{0.01, 2, 1000, 8, 8},		/* the first layer rounded up to 8 pages */
		{0.001, 4, 100000, 1, 5},
		{0.05, 1, 1, 1, 32},		/* every layer of one key */
		{1e-9, 16, 10, 3, 4},
		{0.5, 3, 7, 1024, 2},		/* min_pages at its largest (reloption) */
	};

	(void) state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
	{
		BfiMeta		m;
		uint64_t	cap = cases[c].capacity;

		bfi_meta_init(&m, cases[c].fpr, cases[c].expansion, cases[c].capacity,
					  cases[c].min_pages);
		assert_int_equal(m.magic, BFI_MAGIC);
		assert_int_equal(m.version, BFI_VERSION);
		assert_int_equal(m.nlayers, 0);
		assert_int_equal(m.next_blkno, 1);
		assert_int_equal(m.generation, 0);
		assert_int_equal(m.blocks_per_page, BFI_BLOCKS_PER_PAGE);
		assert_int_equal(m.min_pages, cases[c].min_pages);
		assert_int_equal(m.min_capacity, cases[c].capacity);
		assert_int_equal(bfi_meta_check(&m), BFI_OK);	/* no layer yet */

		for (int i = 0; i < cases[c].nlayers; i++)
		{
			uint32_t	next = m.next_blkno;
			const BfiLayer *l = &m.layers[i];
			BloomPlan	plan;
			uint64_t	need,
						pages;

			assert_int_equal(bfi_add_layer(&m, cases[c].capacity), BFI_OK);
			assert_int_equal(m.nlayers, i + 1);
			assert_int_equal(m.generation, i + 1);
			assert_int_equal(l->first_blkno, next);
			assert_int_equal(m.next_blkno, next + l->npages);
			assert_int_equal(l->nblocks, (uint64_t) l->npages * BFI_BLOCKS_PER_PAGE);
			assert_int_equal(l->reserved, 0);
			/* planned as layer i of a scalable value, rounded up to pages */
			assert_int_equal(bloom_plan(bloom_layer_fpr(cases[c].fpr, i), &plan), BLOOM_OK);
			assert_int_equal(l->k, plan.k);
			assert_int_equal(bloom_plan_size(&plan, cap, &need), BLOOM_OK);
			pages = (need + BFI_BLOCKS_PER_PAGE - 1) / BFI_BLOCKS_PER_PAGE;
			if (i == 0 && pages < cases[c].min_pages)
				pages = cases[c].min_pages;
			assert_int_equal(l->npages, pages);
			assert_true(l->nblocks >= need);
			if (i == 0)
			{
				/* the first layer holds what its whole pages hold at its rate */
				uint64_t	fits = bloom_plan_max_capacity_in(&plan, l->nblocks);

				assert_true(fits >= cap);
				cap = fits;
			}
			assert_int_equal(l->capacity, cap);
			/* and its blocks are enough for it */
			assert_int_equal(bloom_plan_size(&plan, cap, &need), BLOOM_OK);
			assert_true(need <= l->nblocks);
			assert_true(l->capacity <= l->nblocks * BLOOM_BLOCK_BITS);
			assert_int_equal(bfi_meta_check(&m), BFI_OK);
			cap *= cases[c].expansion;
		}
		/* layers are contiguous from page 1 */
		{
			uint64_t	sum = 1;

			for (int i = 0; i < m.nlayers; i++)
			{
				assert_int_equal(m.layers[i].first_blkno, sum);
				sum += m.layers[i].npages;
			}
			assert_int_equal(m.next_blkno, sum);
		}
	}
}

/* Growth stops at 32 layers, and when a layer would not fit; m is left as it was */
static void
test_meta_limits(void **state)
{
	BfiMeta		m,
				before;
	BfiLayer	l;
	int			n = 0;

	(void) state;
	make_meta(&m, 0.01, 1, 1, 1, 32);
	before = m;
	assert_int_equal(bfi_add_layer(&m, 1), BFI_E_LAYERS);
	assert_memory_equal(&m, &before, sizeof(m));
	assert_int_equal(bfi_plan_layer(&m, 1, &l), BFI_E_LAYERS);

	/* expansion 16 from a large first layer: refused long before 32 layers */
	bfi_meta_init(&m, 0.01, 16, 1000000, 1);
	while (bfi_add_layer(&m, 1000000) == BFI_OK)
		n++;
	assert_true(n >= 2 && n < 8);
	assert_int_equal(m.nlayers, n);
	before = m;
	assert_int_equal(bfi_add_layer(&m, 1000000), BFI_E_LAYERS);
	assert_memory_equal(&m, &before, sizeof(m));
	assert_int_equal(bfi_meta_check(&m), BFI_OK);

	/* a capacity of 0 plans nothing */
	bfi_meta_init(&m, 0.01, 2, 1, 1);
	assert_int_equal(bfi_plan_layer(&m, 0, &l), BFI_E_LAYERS);
	assert_int_equal(bfi_add_layer(&m, 0), BFI_E_LAYERS);
	assert_int_equal(m.nlayers, 0);
	/* a capacity past what one layer may hold */
	assert_int_equal(bfi_add_layer(&m, UINT64_MAX / 2), BFI_E_LAYERS);
	assert_int_equal(m.nlayers, 0);
	assert_int_equal(m.next_blkno, 1);
}

/* Each field of a metapage out of range is refused, by the right status */
static void
test_meta_check_rejects(void **state)
{
	BfiMeta		good,
				m;
	int			cases = 0;

	(void) state;
	make_meta(&good, 0.01, 2, 1000, 4, 3);
	good.seed = UINT64_C(0x0123456789ABCDEF);
	good.key_class = BLOOM_KEY_OTHER;	/* the largest class */
	good.key_type = 77;
	good.key_typid = 23;
	assert_int_equal(bfi_meta_check(&good), BFI_OK);

#define REJECT(expected, stmt) \
	do { \
		m = good; \
		stmt; \
		assert_int_equal(bfi_meta_check(&m), (expected)); \
		cases++; \
	} while (0)

	REJECT(BFI_E_MAGIC, m.magic ^= 1);
	REJECT(BFI_E_MAGIC, m.magic = 0);
	REJECT(BFI_E_VERSION, m.version = 3);
	REJECT(BFI_E_VERSION, m.version = 0);
	REJECT(BFI_E_PARAMS, m.flags = 1);
	REJECT(BFI_E_PARAMS, m.flags = 0x8000);
	REJECT(BFI_E_PARAMS, m.fpr = NAN);
	REJECT(BFI_E_PARAMS, m.fpr = 0.0);
	REJECT(BFI_E_PARAMS, m.fpr = 0.5000001);
	REJECT(BFI_E_PARAMS, m.fpr = -0.01);
	REJECT(BFI_E_PARAMS, m.fpr = INFINITY);
	REJECT(BFI_E_PARAMS, m.fpr = BLOOM_MIN_SCALABLE_FPR / 2);
	REJECT(BFI_E_PARAMS, m.expansion = 0);
	REJECT(BFI_E_PARAMS, m.expansion = 17);
	REJECT(BFI_E_PARAMS, m.key_class = 7);
	REJECT(BFI_E_PARAMS, m.key_class = 255);
	REJECT(BFI_E_PARAMS, m.reserved0 = 1);
	REJECT(BFI_E_PARAMS, m.min_pages = 0);
	REJECT(BFI_E_PARAMS, m.min_capacity = 0);
	REJECT(BFI_E_LAYERS, m.blocks_per_page = 127);
	REJECT(BFI_E_LAYERS, m.nlayers = 33);
	REJECT(BFI_E_LAYERS, m.nlayers = 255);
	REJECT(BFI_E_LAYERS, m.nlayers = 2);		/* the third stays in the table */
	REJECT(BFI_E_LAYERS, m.nlayers = 4);		/* an empty fourth */
	REJECT(BFI_E_LAYERS, m.layers[1].k = 0);
	REJECT(BFI_E_LAYERS, m.layers[0].k = BLOOM_MAX_HASHES + 1);
	REJECT(BFI_E_LAYERS, m.layers[2].reserved = 1);
	/* full pages: at most the layer's pages; none in a version 1 metapage */
	REJECT(BFI_E_LAYERS, m.layers[1].full_pages = m.layers[1].npages + 1);
	REJECT(BFI_E_LAYERS, m.layers[BFI_MAX_LAYERS - 1].full_pages = 1);
	REJECT(BFI_E_LAYERS, {
		m.version = 1;
		m.layers[0].full_pages = 1;
	});
	REJECT(BFI_E_LAYERS, m.layers[1].pad[6] = 1);
	REJECT(BFI_E_LAYERS, m.layers[0].nblocks = 0);
	REJECT(BFI_E_LAYERS, m.layers[2].npages += 1);	/* npages mismatch */
	REJECT(BFI_E_LAYERS, m.layers[2].npages -= 1);
	REJECT(BFI_E_LAYERS, m.layers[1].nblocks += BFI_BLOCKS_PER_PAGE);
	/* a gap between layers 0 and 1, with next_blkno following it */
	REJECT(BFI_E_LAYERS, {
		m.layers[1].first_blkno++;
		m.layers[2].first_blkno++;
		m.next_blkno++;
	});
	/* layers overlapping */
	REJECT(BFI_E_LAYERS, {
		m.layers[2].first_blkno--;
		m.next_blkno--;
	});
	REJECT(BFI_E_LAYERS, m.layers[0].first_blkno = 0);	/* on the metapage */
	REJECT(BFI_E_LAYERS, m.layers[1].capacity += 1);	/* chain broken */
	REJECT(BFI_E_LAYERS, m.layers[2].capacity = m.layers[1].capacity);
	REJECT(BFI_E_LAYERS, m.layers[0].capacity = 0);
	REJECT(BFI_E_LAYERS, m.next_blkno++);
	REJECT(BFI_E_LAYERS, m.next_blkno--);
	REJECT(BFI_E_LAYERS, m.next_blkno = 0);
	REJECT(BFI_E_LAYERS, m.layers[3].k = 1);			/* unused slot not zero */
	REJECT(BFI_E_LAYERS, m.layers[BFI_MAX_LAYERS - 1].reserved = 1);
	REJECT(BFI_E_LAYERS, m.layers[5].pad[0] = 1);
	REJECT(BFI_E_LAYERS, m.layers[3].first_blkno = m.next_blkno);
	/* a layer past the largest index */
	REJECT(BFI_E_LAYERS, {
		m.layers[2].nblocks = BFI_MAX_PAGES * BFI_BLOCKS_PER_PAGE + 1;
		m.layers[2].npages = (uint32_t) ((m.layers[2].nblocks + BFI_BLOCKS_PER_PAGE - 1) /
										 BFI_BLOCKS_PER_PAGE);
		m.next_blkno = m.layers[2].first_blkno + m.layers[2].npages;
	});
#undef REJECT
	assert_true(cases >= 45);

	/* a layer planned for more keys than it has bits */
	make_meta(&m, 0.01, 2, 1000, 1, 1);
	m.layers[0].capacity = m.layers[0].nblocks * BLOOM_BLOCK_BITS;
	assert_int_equal(bfi_meta_check(&m), BFI_OK);
	m.layers[0].capacity++;
	assert_int_equal(bfi_meta_check(&m), BFI_E_LAYERS);

	/* what is left free is accepted: the seed, key type, counts, generation */
	m = good;
	m.seed = UINT64_MAX;
	m.key_type = UINT32_MAX;
	m.generation = 12345;
	m.build_items = 99;
	m.build_heap_tuples = 100;
	m.fpr = 0.5;
	m.expansion = 2;
	assert_int_equal(bfi_meta_check(&m), BFI_OK);
	/* a layer whose last page is not full is accepted (by-hand metapage) */
	m = good;
	m.layers[2].nblocks -= BFI_BLOCKS_PER_PAGE - 1;
	assert_int_equal(bfi_meta_check(&m), BFI_OK);
	/* full pages up to all of a layer's; 1.7's version 1 without them */
	m = good;
	m.layers[2].full_pages = m.layers[2].npages;
	assert_int_equal(bfi_meta_check(&m), BFI_OK);
	m = good;
	m.version = 1;
	assert_int_equal(bfi_meta_check(&m), BFI_OK);
}

/*
 * A layer is full when half its pages (rounded up) reached their share,
 * never by one page (hash flooding)
 */
static void
test_layer_full(void **state)
{
	BfiLayer	l = {0};

	(void) state;
	l.npages = 8;
	l.full_pages = 1;
	assert_false(bfi_layer_full(&l));
	l.full_pages = 3;
	assert_false(bfi_layer_full(&l));
	l.full_pages = 4;
	assert_true(bfi_layer_full(&l));
	l.npages = 9;
	assert_false(bfi_layer_full(&l));
	l.full_pages = 5;
	assert_true(bfi_layer_full(&l));
	l.npages = 1;
	l.full_pages = 0;
	assert_false(bfi_layer_full(&l));
	l.full_pages = 1;
	assert_true(bfi_layer_full(&l));

	/* a page counts as full at 15/16 of its share, never below one key */
	l.nblocks = BFI_BLOCKS_PER_PAGE;
	l.npages = 1;
	l.capacity = 1;
	assert_int_equal(bfi_page_mark(&l, 0), 1);
	l.capacity = 16;
	assert_int_equal(bfi_page_mark(&l, 0), 15);
	l.capacity = 6400;
	assert_int_equal(bfi_page_mark(&l, 0), 6000);
	l.capacity = 6401;
	assert_int_equal(bfi_page_share(&l, 0), 6401);
	assert_int_equal(bfi_page_mark(&l, 0), 6001);
}

/* The metapage as the glue writes it decodes; a page that is not one does not */
static void
test_meta_decode(void **state)
{
	uint8_t    *page = malloc(BFI_PAGE_SIZE);
	BfiMeta		m,
				got;

	(void) state;
	for (int n = 0; n <= 3; n++)
	{
		make_meta(&m, 0.001, 2, 5000, 2, n);
		m.seed = 42;
		m.key_class = BLOOM_KEY_TEXT;
		build_meta_page(page, &m);
		memset(&got, 0xA5, sizeof(got));
		assert_int_equal(bfi_meta_decode(page, &got), BFI_OK);
		assert_memory_equal(&got, &m, sizeof(m));
	}

	/* the page's own marks */
	make_meta(&m, 0.01, 2, 1000, 1, 2);
	build_meta_page(page, &m);
	assert_int_equal(bfi_meta_decode(page, &got), BFI_OK);
#define CORRUPT(expected, stmt) \
	do { \
		build_meta_page(page, &m); \
		stmt; \
		assert_int_equal(bfi_meta_decode(page, &got), (expected)); \
	} while (0)
	CORRUPT(BFI_E_MAGIC, put16(page + BFI_PAGE_SIZE - 2, 0xFF8A));	/* page_id */
	CORRUPT(BFI_E_MAGIC, put16(page + BFI_PAGE_SIZE - 6, BFI_PAGE_DATA));	/* flags */
	CORRUPT(BFI_E_MAGIC, put16(page + BFI_PAGE_SIZE - 6, BFI_PAGE_META | BFI_PAGE_DATA));
	CORRUPT(BFI_E_MAGIC, put16(page + BFI_PD_SPECIAL, BFI_PAGE_SIZE));
	CORRUPT(BFI_E_MAGIC, put16(page + BFI_PD_SPECIAL, BFI_PAGE_SIZE - 2 * BFI_SPECIAL_SIZE));
	CORRUPT(BFI_E_MAGIC, put16(page + BFI_PD_LOWER, BFI_CONTENTS_OFFSET + sizeof(BfiMeta) - 1));
	CORRUPT(BFI_E_MAGIC, put16(page + BFI_PD_LOWER, 24));		/* PageInit's, not set */
	CORRUPT(BFI_E_MAGIC, memset(page, 0, BFI_PAGE_SIZE));		/* a new page */
	/* the contents are checked by bfi_meta_check */
	CORRUPT(BFI_E_MAGIC, page[BFI_CONTENTS_OFFSET] ^= 0x10);
	CORRUPT(BFI_E_VERSION, page[BFI_CONTENTS_OFFSET + 4] = 9);
	CORRUPT(BFI_E_PARAMS, page[BFI_CONTENTS_OFFSET + offsetof(BfiMeta, expansion)] = 0);
	CORRUPT(BFI_E_LAYERS, page[BFI_CONTENTS_OFFSET + offsetof(BfiMeta, next_blkno)]++);
	/* pd_lower and pd_upper exactly as the glue sets them (generic WAL zeroes between them) */
	CORRUPT(BFI_E_MAGIC, put16(page + BFI_PD_LOWER, BFI_CONTENTS_OFFSET + sizeof(BfiMeta) + 8));
	CORRUPT(BFI_E_MAGIC, put16(page + BFI_PD_UPPER, 100));
	CORRUPT(BFI_E_MAGIC, put16(page + BFI_PD_UPPER, BFI_PAGE_SIZE));
	CORRUPT(BFI_OK, page[BFI_PAGE_SIZE - BFI_SPECIAL_SIZE] = 7);
#undef CORRUPT
	free(page);
}

/* Data pages as the glue writes them pass; each field off is refused */
static void
test_data_page_check(void **state)
{
	uint8_t    *page = malloc(BFI_PAGE_SIZE);
	BfiMeta		m;
	BfiLayer	part = layer_of(1, 300, 1000, 7);	/* pages of 126, 126, 48 */

	(void) state;
	make_meta(&m, 0.01, 2, 100000, 1, 3);
	for (unsigned i = 0; i < m.nlayers; i++)
	{
		const BfiLayer *l = &m.layers[i];

		for (uint32_t p = 0; p < l->npages; p++)
		{
			build_data_page(page, l, i, p, 0);
			assert_int_equal(bfi_data_page_check(page, l, i, p), BFI_OK);
			build_data_page(page, l, i, p, (uint64_t) BFI_BLOCKS_PER_PAGE * BLOOM_BLOCK_BITS);
			assert_int_equal(bfi_data_page_check(page, l, i, p), BFI_OK);
		}
	}

	assert_int_equal(bfi_page_blocks(&part, 0), 126);
	assert_int_equal(bfi_page_blocks(&part, 2), 48);
	assert_int_equal(bfi_page_blocks(&part, 3), 0);
	assert_int_equal(bfi_page_lower(&part, 2), 64 + 48 * 64);
	assert_int_equal(bfi_page_lower(&part, 0), 8128);
	build_data_page(page, &part, 5, 2, 48 * BLOOM_BLOCK_BITS);
	assert_int_equal(bfi_data_page_check(page, &part, 5, 2), BFI_OK);

#define BAD(stmt) \
	do { \
		build_data_page(page, &part, 5, 2, 10); \
		assert_int_equal(bfi_data_page_check(page, &part, 5, 2), BFI_OK); \
		stmt; \
		assert_int_equal(bfi_data_page_check(page, &part, 5, 2), BFI_E_PAGE); \
	} while (0)
	BAD(put16(page + BFI_PD_LOWER, 64 + 47 * 64));
	BAD(put16(page + BFI_PD_LOWER, 64 + 49 * 64));
	BAD(put16(page + BFI_PD_LOWER, 24));
	BAD(put16(page + BFI_PD_UPPER, BFI_PAGE_SIZE - BFI_SPECIAL_SIZE - 8));
	BAD(put16(page + BFI_PD_SPECIAL, BFI_PAGE_SIZE));
	BAD(put16(page + BFI_PAGE_SIZE - 2, 0x0000));					/* page_id */
	BAD(put16(page + BFI_PAGE_SIZE - 2, 0xFF81));
	BAD(put16(page + BFI_PAGE_SIZE - 6, BFI_PAGE_META));			/* flags */
	BAD(put16(page + BFI_PAGE_SIZE - 6, 0));
	BAD(put16(page + BFI_PAGE_SIZE - 8, 4));						/* layer */
	BAD(put16(page + BFI_PAGE_SIZE - 8, 5 + 65536 / 2));
	BAD(put16(page + BFI_PAGE_SIZE - 4, 1));						/* pageno */
	BAD(put16(page + BFI_PAGE_SIZE - 4, 3));
	BAD({															/* nitems */
		uint64_t	n = 48 * BLOOM_BLOCK_BITS + 1;

		memcpy(page + BFI_PAGE_SIZE - BFI_SPECIAL_SIZE, &n, 8);
	});
	BAD({
		uint64_t	n = UINT64_MAX;

		memcpy(page + BFI_PAGE_SIZE - BFI_SPECIAL_SIZE, &n, 8);
	});
	BAD(memset(page, 0, BFI_PAGE_SIZE));	/* a new page is the caller's to see */
#undef BAD

	/* asked as another page, layer or layer table, the page is refused */
	build_data_page(page, &part, 5, 2, 10);
	assert_int_equal(bfi_data_page_check(page, &part, 5, 1), BFI_E_PAGE);
	assert_int_equal(bfi_data_page_check(page, &part, 4, 2), BFI_E_PAGE);
	assert_int_equal(bfi_data_page_check(page, &m.layers[0], 5, 2), BFI_E_PAGE);
	/* the metapage is not a data page */
	build_meta_page(page, &m);
	assert_int_equal(bfi_data_page_check(page, &m.layers[0], 0, 0), BFI_E_PAGE);

	/* pageno keeps the low 16 bits of the page number */
	{
		BfiLayer	big = layer_of(1, (uint64_t) 70000 * BFI_BLOCKS_PER_PAGE, 1000000, 7);

		build_data_page(page, &big, 0, 65536 + 3, 0);
		assert_int_equal(bfi_data_page_check(page, &big, 0, 65536 + 3), BFI_OK);
		assert_int_equal(bfi_data_page_check(page, &big, 0, 3), BFI_OK);
		assert_int_equal(bfi_data_page_check(page, &big, 0, 4), BFI_E_PAGE);
	}
	free(page);
}

int
unit_pagefmt_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_meta_chain),
		cmocka_unit_test(test_meta_limits),
		cmocka_unit_test(test_meta_check_rejects),
		cmocka_unit_test(test_layer_full),
		cmocka_unit_test(test_meta_decode),
		cmocka_unit_test(test_data_page_check),
	};

	return cmocka_run_group_tests_name("pagefmt", tests, NULL, NULL);
}
