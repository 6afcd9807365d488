/*
 * Unit tests of src/core/pagefmt.c and pagefmt.h (the pages of the
 * bloomfilter index access method): the layout of the metapage, planning
 * layers, every check of the metapage and of data pages, where a key's
 * block lies, the per-page shares, bloom_block_set/_test against the
 * contiguous layout of a value, and the snapshot through
 * bloom_scalable_assemble.
 */
#include "unit.h"
#include "pagefmt.h"

#include <stddef.h>

/* xorshift64*: reproducible hashes */
static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

static void
put16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, sizeof(v));
}

/*
 * The metapage as the glue writes it (bfi_init_meta_page): PageInit with
 * a 16-byte special space, then the special space, the metapage at
 * MAXALIGN(SizeOfPageHeaderData) and pd_lower just past it.
 */
static void
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
static void
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
static void
make_meta(BfiMeta *m, double fpr, unsigned expansion, uint64_t capacity,
		  unsigned min_pages, int nlayers)
{
	bfi_meta_init(m, fpr, expansion, capacity, min_pages);
	for (int i = 0; i < nlayers; i++)
		assert_int_equal(bfi_add_layer(m, capacity), BFI_OK);
	assert_int_equal(bfi_meta_check(m), BFI_OK);
}

/* A layer by hand, possibly with a last page not full */
static BfiLayer
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
	REJECT(BFI_E_VERSION, m.version = 2);
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

/* Layers for the tests below: planned ones and ones by hand */
static int
test_layers(BfiLayer *out)
{
	BfiMeta		m;
	int			n = 0;

	make_meta(&m, 0.01, 2, 1000, 1, 4);
	for (int i = 0; i < m.nlayers; i++)
		out[n++] = m.layers[i];
	make_meta(&m, 0.001, 3, 50000, 8, 2);
	for (int i = 0; i < m.nlayers; i++)
		out[n++] = m.layers[i];
	out[n++] = layer_of(1, 1, 1, 1);
	out[n++] = layer_of(7, 125, 300, 5);
	out[n++] = layer_of(7, 127, 300, 5);
	out[n++] = layer_of(100, 300, 1000, 7);
	out[n++] = layer_of(1, BFI_MAX_PAGES * BFI_BLOCKS_PER_PAGE, UINT64_C(1) << 40, 7);
	out[n++] = layer_of(3, BFI_MAX_PAGES * BFI_BLOCKS_PER_PAGE - 5, 12345678901, 3);
	return n;
}

/* Every key's block is one of its layer's, below the page's pd_lower */
static void
test_locate(void **state)
{
	BfiLayer	ls[16];
	int			n = test_layers(ls);
	uint64_t	s = 1;

	(void) state;
	for (int i = 0; i < n; i++)
	{
		const BfiLayer *l = &ls[i];
		uint64_t	total = 0;

		for (uint32_t p = 0; p < l->npages && p < 1000; p++)
			total += bfi_page_blocks(l, p);
		if (l->npages < 1000)
			assert_int_equal(total, l->nblocks);
		assert_int_equal(bfi_page_blocks(l, l->npages), 0);
		assert_true(bfi_page_blocks(l, l->npages - 1) >= 1);

		for (int t = 0; t < 100000 + 4; t++)
		{
			uint64_t	h = t == 0 ? 0 : t == 1 ? UINT64_MAX : t == 2 ? UINT64_C(1) << 63 :
				t == 3 ? 1 : rnd(&s);
			uint32_t	blkno,
						off,
						p;
			uint64_t	j;

			bfi_locate(l, h, &blkno, &off);
			assert_true(blkno >= l->first_blkno);
			assert_true(blkno < l->first_blkno + l->npages);
			assert_true(off >= BFI_DATA_OFFSET);
			assert_true(off < BFI_DATA_OFFSET + BFI_BLOCKS_PER_PAGE * BLOOM_BLOCK_BYTES);
			assert_int_equal(off % BLOOM_BLOCK_BYTES, 0);
			p = blkno - l->first_blkno;
			assert_true(off + BLOOM_BLOCK_BYTES <= bfi_page_lower(l, p));
			/* block j of the layer, as in a value */
			j = (uint64_t) p * BFI_BLOCKS_PER_PAGE + (off - BFI_DATA_OFFSET) / BLOOM_BLOCK_BYTES;
			assert_int_equal(j, bloom_mulhi64(h, l->nblocks));
		}
	}
}

/* The pages' shares cover the layer's capacity, one key a page at least */
static void
test_page_share(void **state)
{
	BfiLayer	ls[16];
	int			n = test_layers(ls);
	uint64_t	s = 7;

	(void) state;
	for (int i = 0; i < n; i++)
	{
		const BfiLayer *l = &ls[i];
		uint64_t	sum = 0;

		if (l->npages > 100000)
		{
			/* all pages but the last are full: the same share */
			uint64_t	full = bfi_page_share(l, 0);

			for (uint32_t p = 1; p < 100; p++)
				assert_int_equal(bfi_page_share(l, p), full);
			sum = full * (l->npages - 1) + bfi_page_share(l, l->npages - 1);
		}
		else
			for (uint32_t p = 0; p < l->npages; p++)
			{
				uint64_t	sh = bfi_page_share(l, p);

				assert_true(sh >= 1);
				/* at most one over the exact proportion */
				assert_true((double) sh <= (double) l->capacity * bfi_page_blocks(l, p) /
							(double) l->nblocks + 1.0);
				sum += sh;
			}
		assert_true(sum >= l->capacity);
		assert_true(sum <= l->capacity + l->npages);
	}
	/* one key over many pages: one a page */
	{
		BfiLayer	l = layer_of(1, 10 * BFI_BLOCKS_PER_PAGE, 1, 3);

		for (uint32_t p = 0; p < 10; p++)
			assert_int_equal(bfi_page_share(&l, p), 1);
	}
	/* random layers, large ones by the full-page rule */
	for (int t = 0; t < 200000; t++)
	{
		uint64_t	nb = 1 + rnd(&s) % (BFI_MAX_PAGES * BFI_BLOCKS_PER_PAGE);
		BfiLayer	l = layer_of(1, nb, 1 + rnd(&s) % (nb * BLOOM_BLOCK_BITS), 7);
		unsigned __int128 sum = (unsigned __int128) bfi_page_share(&l, 0) * (l.npages - 1) +
			bfi_page_share(&l, l.npages - 1);

		assert_true(sum >= l.capacity);
	}
}

/*
 * bloom_block_set on blocks split over pages sets, byte for byte, the bits
 * bloom_bits_insert sets in the contiguous blocks of a value, and says
 * whether a bit changed; bloom_block_test answers as bloom_bits_contain.
 */
static void
check_equivalence(const BfiLayer *l, int nkeys, uint64_t seed)
{
	size_t		pagebytes = (size_t) l->npages * BFI_PAGE_SIZE;
	uint8_t    *pages = calloc(1, pagebytes);
	uint8_t    *flat = calloc(l->nblocks, BLOOM_BLOCK_BYTES);
	uint64_t	s = seed;
	int			changed = 0;

	assert_non_null(pages);
	assert_non_null(flat);
	for (int t = 0; t < nkeys; t++)
	{
		/* some keys again, to see set report no change */
		uint64_t	h = (t % 5 == 4) ? bloom_hash_int64(seed, t / 2) : bloom_hash_int64(seed, t);
		uint32_t	blkno,
					off;
		uint8_t    *blk;
		bool		was = bloom_bits_contain(flat, l->nblocks, l->k, h);
		bool		set;

		bfi_locate(l, h, &blkno, &off);
		blk = pages + (size_t) (blkno - l->first_blkno) * BFI_PAGE_SIZE + off;
		assert_int_equal(bloom_block_test(blk, l->k, h), was);
		set = bloom_block_set(blk, l->k, h);
		assert_int_equal(set, !was);
		changed += set;
		bloom_bits_insert(flat, l->nblocks, l->k, h);
		assert_true(bloom_block_test(blk, l->k, h));
		assert_false(bloom_block_set(blk, l->k, h));	/* again: nothing new */
	}
	assert_true(changed > 0);
	/* page j / 126 at offset 64 + (j % 126) * 64 is block j */
	for (uint64_t j = 0; j < l->nblocks; j++)
		assert_memory_equal(pages + (j / BFI_BLOCKS_PER_PAGE) * BFI_PAGE_SIZE +
							BFI_DATA_OFFSET + (j % BFI_BLOCKS_PER_PAGE) * BLOOM_BLOCK_BYTES,
							flat + j * BLOOM_BLOCK_BYTES, BLOOM_BLOCK_BYTES);
	/* nothing outside the blocks below pd_lower was written */
	for (uint32_t p = 0; p < l->npages; p++)
	{
		const uint8_t *pg = pages + (size_t) p * BFI_PAGE_SIZE;

		for (size_t b = 0; b < BFI_DATA_OFFSET; b++)
			assert_int_equal(pg[b], 0);
		for (size_t b = bfi_page_lower(l, p); b < BFI_PAGE_SIZE; b++)
			assert_int_equal(pg[b], 0);
	}
	/* probes of absent keys: the same answer both ways */
	for (int t = 0; t < 20000; t++)
	{
		uint64_t	h = rnd(&s);
		uint32_t	blkno,
					off;

		bfi_locate(l, h, &blkno, &off);
		assert_int_equal(bloom_block_test(pages + (size_t) (blkno - l->first_blkno) *
										  BFI_PAGE_SIZE + off, l->k, h),
						 bloom_bits_contain(flat, l->nblocks, l->k, h));
	}
	free(pages);
	free(flat);
}

static void
test_block_equivalence(void **state)
{
	BfiMeta		m;

	(void) state;
	make_meta(&m, 0.01, 2, 2000, 1, 3);
	for (int i = 0; i < m.nlayers; i++)
		check_equivalence(&m.layers[i], (int) m.layers[i].capacity * 2, 11 + i);
	check_equivalence(&(BfiLayer) {.first_blkno = 1, .npages = 1, .nblocks = 1,
						.capacity = 10, .k = 3}, 50, 3);
	/* every k, on a layer with a partial last page */
	for (int k = 1; k <= BLOOM_MAX_HASHES; k++)
	{
		BfiLayer	l = layer_of(5, 300, 2000, k);

		check_equivalence(&l, 3000, (uint64_t) k);
	}
}

/*
 * A snapshot of an index: bloom_scalable_assemble of the metapage's layers
 * decodes with their geometry and the sum of their counts, and with the
 * pages' blocks copied in holds every key inserted through the pages.
 */
static void
test_assemble(void **state)
{
	static const struct
	{
		double		fpr;
		unsigned	expansion;
		uint64_t	capacity;
		unsigned	min_pages;
		int			nlayers;
	}			cases[] = {
		{0.01, 2, 1000, 1, 1},
		{0.01, 2, 500, 4, 3},
		{0.001, 1, 300, 1, 5},
		{1e-9, 16, 10, 2, 3},
	};

	(void) state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
	{
		BfiMeta		m;
		BloomLayer	views[BFI_MAX_LAYERS];
		uint8_t    *pages;
		uint64_t	total = 0,
					sum = 0;
		uint64_t	counts[BFI_MAX_LAYERS] = {0};
		size_t		size;
		uint8_t    *buf;
		BloomFilter f,
					g;
		int			nkeys = 0;

		make_meta(&m, cases[c].fpr, cases[c].expansion, cases[c].capacity,
				  cases[c].min_pages, cases[c].nlayers);
		m.seed = 99;
		pages = calloc(m.next_blkno, BFI_PAGE_SIZE);
		/* keys into each layer in turn, as an index that grew */
		for (int i = 0; i < m.nlayers; i++)
		{
			const BfiLayer *l = &m.layers[i];

			for (uint64_t t = 0; t < l->capacity / 2 + 1; t++)
			{
				uint64_t	h = bloom_hash_int64(0, nkeys++);
				uint32_t	blkno,
							off;

				bfi_locate(l, h, &blkno, &off);
				counts[i] += bloom_block_set(pages + (size_t) blkno * BFI_PAGE_SIZE + off, l->k, h);
			}
		}
		for (int i = 0; i < m.nlayers; i++)
		{
			bfi_layer_view(&m.layers[i], counts[i], NULL, &views[i]);
			assert_int_equal(views[i].nblocks, m.layers[i].nblocks);
			assert_int_equal(views[i].capacity, m.layers[i].capacity);
			assert_int_equal(views[i].k, m.layers[i].k);
			assert_int_equal(views[i].nitems, counts[i]);
			total += m.layers[i].nblocks;
			sum += counts[i];
		}
		size = bloom_scalable_size(m.nlayers, total);
		buf = malloc(size);
		memset(buf, 0xEE, size);
		bloom_scalable_assemble(buf, views, m.nlayers, m.fpr, m.expansion, m.seed, &f);
		assert_int_equal(f.nlayers, m.nlayers);
		assert_int_equal(f.nitems, sum);
		assert_int_equal(bloom_decode(buf, size, &g), BLOOM_OK);
		assert_int_equal(g.kind, BLOOM_KIND_SCALABLE);
		assert_int_equal(g.nlayers, m.nlayers);
		assert_int_equal(g.nitems, sum);
		assert_int_equal(g.expansion, m.expansion);
		assert_int_equal(g.capacity, m.layers[0].capacity);
		assert_int_equal(g.seed, 99);
		assert_true(g.fpr == m.fpr);
		for (int i = 0; i < m.nlayers; i++)
		{
			assert_int_equal(g.layers[i].nblocks, m.layers[i].nblocks);
			assert_int_equal(g.layers[i].capacity, m.layers[i].capacity);
			assert_int_equal(g.layers[i].k, m.layers[i].k);
			assert_int_equal(g.layers[i].nitems, counts[i]);
			assert_ptr_equal(g.layers[i].data, f.layers[i].data);
			/* the bits zeroed */
			for (uint64_t b = 0; b < g.layers[i].nblocks * BLOOM_BLOCK_BYTES; b++)
				assert_int_equal(g.layers[i].data[b], 0);
		}
		assert_int_equal(bloom_value_size(&g), size);
		/* the pages' blocks copied in: every key is found */
		for (int i = 0; i < m.nlayers; i++)
		{
			const BfiLayer *l = &m.layers[i];

			for (uint32_t p = 0; p < l->npages; p++)
				memcpy(g.layers[i].data + (size_t) p * BFI_BLOCKS_PER_PAGE * BLOOM_BLOCK_BYTES,
					   pages + (size_t) (l->first_blkno + p) * BFI_PAGE_SIZE + BFI_DATA_OFFSET,
					   (size_t) bfi_page_blocks(l, p) * BLOOM_BLOCK_BYTES);
		}
		for (int t = 0; t < nkeys; t++)
			assert_true(bloom_filter_contains(&g, bloom_hash_int64(0, t)));
		/* and it grows on as a value: the next layer by the same schedule */
		{
			BloomPlan	plan = {0};
			uint64_t	cap,
						nb;
			BfiLayer	next;

			if (m.nlayers < BFI_MAX_LAYERS &&
				bloom_scalable_next_layer(&g, &plan, &cap, &nb) == BLOOM_OK &&
				bfi_plan_layer(&m, cap, &next) == BFI_OK)
			{
				assert_int_equal(next.capacity, cap);
				assert_int_equal(next.k, plan.k);
				assert_true(next.nblocks >= nb);
				assert_true(next.nblocks < nb + BFI_BLOCKS_PER_PAGE);
			}
		}
		free(buf);
		free(pages);
	}
}

int
unit_pagefmt_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_meta_chain),
		cmocka_unit_test(test_meta_limits),
		cmocka_unit_test(test_meta_check_rejects),
		cmocka_unit_test(test_meta_decode),
		cmocka_unit_test(test_data_page_check),
		cmocka_unit_test(test_locate),
		cmocka_unit_test(test_page_share),
		cmocka_unit_test(test_block_equivalence),
		cmocka_unit_test(test_assemble),
	};

	return cmocka_run_group_tests_name("pagefmt", tests, NULL, NULL);
}
