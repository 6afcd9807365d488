/*
 * Views of light states (src/core/lightview.c): over random states of
 * several geometries, seeds and fills, with and without the scalable plan,
 * with repeated and over-capacity rows, a view answers every lookup and
 * every field of bloom_info exactly as the filter bloom_materialize makes
 * of the same state, and a copy of it reopens to the same answers.
 */
#include "unit.h"

/* Every header field the readers see, the filter's against the view's */
static void
same_header(const BloomFilter *m, const BloomFilter *h)
{
	assert_int_equal(m->version, h->version);
	assert_int_equal(m->kind, h->kind);
	assert_int_equal(m->hash, h->hash);
	assert_int_equal(m->key_class, h->key_class);
	assert_int_equal(m->key_type, h->key_type);
	assert_int_equal(m->k, h->k);
	assert_int_equal(m->block_log2, h->block_log2);
	assert_int_equal(m->flags, h->flags);
	assert_int_equal(m->seed, h->seed);
	assert_int_equal(m->capacity, h->capacity);
	assert_true(m->fpr == h->fpr);
	assert_int_equal(m->nitems, h->nitems);
	assert_int_equal(m->nblocks, h->nblocks);
	assert_int_equal(m->nlayers, h->nlayers);
	assert_int_equal(m->expansion, h->expansion);
	assert_int_equal(m->reserved, h->reserved);
	for (uint64_t i = 0; i < m->nlayers; i++)
	{
		assert_int_equal(m->layers[i].nblocks, h->layers[i].nblocks);
		assert_int_equal(m->layers[i].capacity, h->layers[i].capacity);
		assert_int_equal(m->layers[i].nitems, h->layers[i].nitems);
		assert_int_equal(m->layers[i].k, h->layers[i].k);
	}
}

static void
check_view(const BloomFilter *st, uint64_t *seed)
{
	BloomAlloc	a = malloc_allocator(NULL);
	long		counts[2] = {0, 0};
	BloomAlloc	t = tagged_allocator(counts);
	BloomMaterialized mm;
	BloomFilter m;
	BloomLightView v,
				w;
	BloomInfo	im,
				iv;
	uint8_t    *buf,
			   *copy;
	size_t		len;

	assert_int_equal(bloom_materialize(st, false, NULL, &a, &mm, &m), BLOOM_OK);
	/* the glue's layout: values 4 bytes into their blocks */
	assert_int_equal(bloom_light_view_build(st, &t, &buf, &len, &v), BLOOM_OK);
	assert_int_equal(counts[0], 1);
	assert_int_equal(counts[1], 0);
	assert_true(v.nset <= st->nhashes);
	assert_true(v.nset <= st->nblocks);

	same_header(&m, &v.head);
	assert_int_equal(v.size, bloom_value_size(&m));
	assert_int_equal(mm.over_capacity, v.m.over_capacity);
	if (mm.over_capacity)
	{
		assert_true(mm.estimated_items == v.m.estimated_items);
		assert_true(mm.estimated_fpr == v.m.estimated_fpr);
	}
	assert_int_equal(bloom_describe(&m, &im, NULL), BLOOM_OK);
	bloom_light_view_describe(&v, &iv);
	assert_string_equal(im.kind, iv.kind);
	assert_int_equal(im.capacity, iv.capacity);
	assert_int_equal(im.bits, iv.bits);
	assert_int_equal(im.hashes, iv.hashes);
	assert_int_equal(im.bits_set, iv.bits_set);
	assert_true(im.estimated_items == iv.estimated_items);
	assert_true(im.estimated_fpr == iv.estimated_fpr);
	assert_int_equal(im.layers, iv.layers);
	assert_int_equal(im.expansion, iv.expansion);
	assert_int_equal(im.has_expansion, iv.has_expansion);
	assert_true(bloom_estimate_items(&m, NULL) == v.estimated_items);

	/* a copy elsewhere (as the per-call cache keeps it) reopens */
	copy = malloc(len + 3);
	memcpy(copy + 3, buf, len);
	assert_int_equal(bloom_light_view_open(copy + 3, len, &w), BLOOM_OK);
	assert_int_equal(bloom_light_view_open(copy + 3, len - 1, &w), BLOOM_E_LENGTH);
	assert_int_equal(bloom_light_view_open(copy + 3, len, &w), BLOOM_OK);
	assert_false(bloom_is_light_view(m.base, bloom_value_size(&m)));

	/* every hash it holds, and random ones (some share their blocks) */
	for (uint64_t i = 0; i < st->nhashes; i++)
	{
		uint64_t	h = bloom_get_le64(st->data + 8 * i);

		assert_true(bloom_filter_contains(&m, h));
		assert_true(bloom_light_view_contains(&v, h));
		assert_true(bloom_light_view_contains(&w, h));
	}
	for (int i = 0; i < 20000; i++)
	{
		uint64_t	h = rng(seed);
		bool		want = bloom_filter_contains(&m, h);

		assert_int_equal(want, bloom_light_view_contains(&v, h));
		assert_int_equal(want, bloom_light_view_contains(&w, h));
	}
	free(copy);
	t.free(t.arg, buf);
	assert_int_equal(counts[0], 0);
	free(m.base);
}

static void
test_lightview_agrees(void **ctx)
{
	static const uint64_t caps[] = {1, 10, 600, 5000, 100000};
	static const double fprs[] = {0.01, 0.001, 0.2, 1e-9};
	uint64_t	seeds[] = {1, 42, 20261126};
	BloomAlloc	a = malloc_allocator(NULL);

	(void) ctx;
	for (size_t si = 0; si < sizeof(seeds) / sizeof(seeds[0]); si++)
		for (size_t ci = 0; ci < sizeof(caps) / sizeof(caps[0]); ci++)
			for (size_t fi = 0; fi < sizeof(fprs) / sizeof(fprs[0]); fi++)
				for (int layer = 0; layer <= 1; layer++)
				{
					uint64_t	seed = seeds[si];
					BloomFilter probe;
					uint64_t	limit,
								sizes[6];

					assert_int_equal(bloom_new_sparse(caps[ci], fprs[fi], layer, NULL, &a, &probe), BLOOM_OK);
					limit = bloom_sparse_limit(probe.nblocks);
					free(probe.base);
					sizes[0] = 0;
					sizes[1] = 1;
					sizes[2] = 1 + rng(&seed) % limit;
					sizes[3] = limit / 2;
					sizes[4] = limit - 1;
					sizes[5] = limit;
					for (int zi = 0; zi < 6; zi++)
					{
						BloomFilter st;
						uint64_t	n = sizes[zi];
						int			mode = (int) (rng(&seed) % 3);

						assert_int_equal(bloom_new_sparse(caps[ci], fprs[fi], layer, NULL, &a, &st), BLOOM_OK);
						st.seed = seed;
						st.key_class = BLOOM_KEY_TEXT;
						for (uint64_t i = 0; i < n; i++)
						{
							/* mode 1: keys repeat; mode 2: few blocks */
							uint64_t	h = mode == 1 && i % 3 ? (i / 3) * 0x9E3779B97F4A7C15ULL :
								mode == 2 ? rng(&seed) % (UINT64_MAX / 4) : rng(&seed);
							uint8_t		le[8];
							uint8_t    *old = st.base;

							bloom_put_le64(le, h);
							assert_int_equal(bloom_sparse_append(&st, le, 1, &a), BLOOM_OK);
							if (st.base != old)
								free(old);
						}
						/* rows counted: some states saw many more than they hold */
						st.nitems = n * (mode == 1 ? 1000 : 1);
						bloom_write_header(&st);
						assert_int_equal(st.kind, BLOOM_KIND_SPARSE);
						check_view(&st, &seed);
						free(st.base);
					}
				}
}

/* The largest geometry: a view of few hashes is small, whatever it stands for */
static void
test_lightview_largest(void **ctx)
{
	long		counts[2] = {0, 0};
	BloomAlloc	t = tagged_allocator(counts);
	uint8_t		val[64 + 8 * 3];
	BloomFilter st;
	BloomLightView v;
	BloomInfo	info;
	uint8_t    *buf;
	size_t		len;

	(void) ctx;
	memset(val, 0, sizeof(val));
	bloom_header_init(&st, val, BLOOM_KIND_SPARSE, 1, 0.5, 0);
	st.version = BLOOM_FORMAT_VERSION_4;
	st.k = 1;
	st.block_log2 = BLOOM_BLOCK_LOG2;
	st.nblocks = BLOOM_MAX_BUFFERED_BLOCKS;
	st.capacity = st.nblocks * BLOOM_BLOCK_BITS;
	st.nhashes = 3;
	st.nitems = 3;
	bloom_write_header(&st);
	bloom_put_le64(val + 64, 1);
	bloom_put_le64(val + 72, UINT64_MAX);
	bloom_put_le64(val + 80, UINT64_MAX / 2);
	assert_int_equal(bloom_decode(val, sizeof(val), &st), BLOOM_OK);
	assert_int_equal(bloom_light_view_build(&st, &t, &buf, &len, &v), BLOOM_OK);
	assert_true(len < 4096);
	assert_int_equal(v.nset, 3);
	assert_true(bloom_light_view_contains(&v, 1));
	assert_true(bloom_light_view_contains(&v, UINT64_MAX));
	assert_true(bloom_light_view_contains(&v, UINT64_MAX / 2));
	bloom_light_view_describe(&v, &info);
	assert_int_equal(info.bits, (uint64_t) BLOOM_MAX_BUFFERED_BLOCKS * BLOOM_BLOCK_BITS);
	assert_int_equal(info.bits_set, 3);
	assert_int_equal(v.size, bloom_blocked_size(BLOOM_MAX_BUFFERED_BLOCKS));
	t.free(t.arg, buf);
}

int
unit_lightview_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lightview_agrees),
		cmocka_unit_test(test_lightview_largest),
	};

	return cmocka_run_group_tests_name("lightview", tests, NULL, NULL);
}
