/*
 * Unit tests of where a bloomfilter index keeps a key (src/core/pagefmt.h
 * and blocked.h): the block a hash falls in, the per-page shares,
 * bloom_block_set/_test against the contiguous layout of a value, and the
 * snapshot through bloom_scalable_assemble.
 */
#include "page_helpers.h"

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
unit_pagemap_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_locate),
		cmocka_unit_test(test_page_share),
		cmocka_unit_test(test_block_equivalence),
		cmocka_unit_test(test_assemble),
	};

	return cmocka_run_group_tests_name("pagemap", tests, NULL, NULL);
}
