/*
 * Light states (kind 7, src/core/sparse.c): the header and every refusal,
 * and the rule that matters: a light state, however it was split, grown,
 * merged and made dense, stands for exactly the buffered state (kind 3)
 * the same hashes make, so the filters they materialise are byte-identical.
 */
#include "unit.h"

static void
test_sparse_header(void **ctx)
{
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter s,
				d,
				g;
	uint8_t    *buf;
	size_t		len;

	(void) ctx;
	assert_int_equal(bloom_new_sparse(100000, 0.01, true, NULL, &a, &s), BLOOM_OK);
	assert_int_equal(bloom_new_buffered(100000, 0.01, true, NULL, &a, &d), BLOOM_OK);
	assert_int_equal(s.version, BLOOM_FORMAT_VERSION_4);
	assert_int_equal(s.kind, BLOOM_KIND_SPARSE);
	assert_int_equal(s.nblocks, d.nblocks);
	assert_int_equal(s.k, d.k);
	assert_int_equal(s.flags, BLOOM_FLAG_SCALABLE_STATE);
	assert_int_equal(s.nslots, BLOOM_HASHLIST_MIN_SLOTS);
	assert_int_equal(s.nhashes, 0);
	assert_int_equal(bloom_sparse_limit(s.nblocks), (bloom_buffered_size(d.nblocks) - 64) / 8);
	len = bloom_value_size(&s);
	assert_int_equal(len, 64 + 8 * BLOOM_HASHLIST_MIN_SLOTS);
	assert_int_equal(bloom_decode(s.base, len, &g), BLOOM_OK);
	assert_true(bloom_is_state(&g));
	assert_false(bloom_is_canonical(&g));	/* unused slots */
	assert_int_equal(bloom_canonical_size(&g), 64);

	/* every refusal, on a copy with 2 hashes in 8 slots */
	buf = malloc(len);
#define REDO() (memcpy(buf, s.base, len))
#define CHECK(expr, want) do { REDO(); expr; assert_int_equal(bloom_decode(buf, len, &g), want); } while (0)
	s.nhashes = 2;
	s.nitems = 2;
	bloom_write_header(&s);
	CHECK((void) 0, BLOOM_OK);
	CHECK(buf[4] = 1, BLOOM_E_KIND);
	CHECK(buf[4] = 2, BLOOM_E_KIND);
	CHECK(buf[4] = 3, BLOOM_E_VERSION);
	CHECK(buf[4] = 5, BLOOM_E_KIND);	/* version 5 is kind 9's */
	CHECK(buf[4] = 6, BLOOM_E_VERSION);
	CHECK(buf[5] = 1, BLOOM_E_KIND);
	CHECK(buf[5] = 3, BLOOM_E_KIND);
	CHECK(buf[5] = 5, BLOOM_E_KIND);
	CHECK(buf[5] = 8, BLOOM_E_OTHERTYPE);	/* countingbloom's light state */
	CHECK(buf[14] = 1, BLOOM_E_FLAGS);
	CHECK(buf[14] = 4, BLOOM_E_FLAGS);
	CHECK(buf[12] = 0, BLOOM_E_GEOMETRY);
	CHECK(buf[12] = 33, BLOOM_E_GEOMETRY);
	CHECK(buf[13] = 10, BLOOM_E_GEOMETRY);
	CHECK(bloom_put_le64(buf + 48, 0), BLOOM_E_GEOMETRY);
	CHECK(bloom_put_le64(buf + 48, BLOOM_MAX_BUFFERED_BLOCKS + 1), BLOOM_E_GEOMETRY);
	CHECK(bloom_put_le64(buf + 24, 0), BLOOM_E_PARAMS);
	CHECK(bloom_put_le64(buf + 24, s.nblocks * 512 + 1), BLOOM_E_PARAMS);
	CHECK(bloom_put_le64(buf + 56, 9), BLOOM_E_COUNT);
	CHECK(bloom_put_le64(buf + 40, 1), BLOOM_E_COUNT);
	CHECK(buf[6] = 2, BLOOM_E_HASH);
	REDO();
	assert_int_equal(bloom_decode(buf, len - 4, &g), BLOOM_E_LENGTH);
	assert_int_equal(bloom_decode(buf, 63, &g), BLOOM_E_SHORT);
	/* a state of 1 block holds at most 8 + 256 hashes */
	{
		BloomFilter t;
		size_t		tl;

		assert_int_equal(bloom_new_sparse(10, 0.01, true, NULL, &a, &t), BLOOM_OK);
		assert_int_equal(t.nblocks, 1);
		tl = bloom_sparse_size(8 + 256 + 1);
		t.base = realloc(t.base, tl);
		memset(t.base + 64, 0, tl - 64);
		assert_int_equal(bloom_decode(t.base, tl, &g), BLOOM_E_LENGTH);
		assert_int_equal(bloom_decode(t.base, tl - 8, &g), BLOOM_OK);
		free(t.base);
	}
	/*
	 * Another geometry within bounds is valid, as for kind 3: the state
	 * stands for the kind 3 state of that geometry
	 */
	REDO();
	bloom_put_le64(buf + 48, s.nblocks + 1);
	assert_int_equal(bloom_decode(buf, len, &g), BLOOM_OK);
#undef CHECK
#undef REDO
	free(buf);
	free(s.base);
	free(d.base);
}

/* Adds h to a light state, as bloom_agg's transition does */
static void
light_add(BloomFilter *f, uint64_t h, const BloomAlloc *a)
{
	if (f->kind == BLOOM_KIND_BUFFERED)
		bloom_buffered_push(f, h);
	else if (!bloom_hashlist_push(f, h))
	{
		uint8_t		le[8];

		bloom_put_le64(le, h);
		assert_int_equal(bloom_sparse_append(f, le, 1, a), BLOOM_OK);
	}
	f->nitems++;
	bloom_store_items(f);
}

/* The bytes of the filter st stands for */
static uint8_t *
materialised(const BloomFilter *st, bool scalable, size_t *len)
{
	BloomAlloc	a = malloc_allocator(NULL);
	BloomMaterialized m;
	BloomFilter out;

	assert_int_equal(bloom_materialize(st, scalable, NULL, &a, &m, &out), BLOOM_OK);
	*len = bloom_value_size(&out);
	return out.base;
}

/*
 * For capacities and rates around the switch point: the hashes of n keys
 * (some repeated) through the dense path, and through 1 to 4 light states
 * that take a random share each and merge in a random order (a light
 * state into a light one, into a dense one, a dense one into a light one):
 * the materialised filters are byte for byte the same, blocked and
 * scalable, with the 1.0 and the 1.2 plan.
 */
static void
test_sparse_identity(void **ctx)
{
	static const uint64_t caps[] = {1, 10, 600, 5000, 40000};
	static const double fprs[] = {0.01, 0.001, 0.2};
	uint64_t	seed = 42;
	BloomAlloc	a = malloc_allocator(NULL);

	(void) ctx;
	for (size_t ci = 0; ci < sizeof(caps) / sizeof(caps[0]); ci++)
		for (size_t fi = 0; fi < sizeof(fprs) / sizeof(fprs[0]); fi++)
			for (int layer = 0; layer <= 1; layer++)
			{
				BloomFilter d,
							probe;
				uint64_t	limit,
							sizes[7];

				assert_int_equal(bloom_new_sparse(caps[ci], fprs[fi], layer, NULL, &a, &probe), BLOOM_OK);
				limit = bloom_sparse_limit(probe.nblocks);
				free(probe.base);
				sizes[0] = 0;
				sizes[1] = 1;
				sizes[2] = limit / 3;
				sizes[3] = limit - 1;
				sizes[4] = limit;
				sizes[5] = limit + 1;
				sizes[6] = limit * 2 + 17;
				for (int si = 0; si < 7; si++)
				{
					uint64_t	n = sizes[si];
					int			parts = 1 + (int) (rng(&seed) % 4);
					BloomFilter st[4];
					uint8_t    *x,
							   *y;
					size_t		xl,
								yl;

					assert_int_equal(bloom_new_buffered(caps[ci], fprs[fi], layer, NULL, &a, &d), BLOOM_OK);
					for (int p = 0; p < parts; p++)
						assert_int_equal(bloom_new_sparse(caps[ci], fprs[fi], layer, NULL, &a, &st[p]), BLOOM_OK);
					for (uint64_t i = 0; i < n; i++)
					{
						/* a key in ten is a repeat */
						uint64_t	h = rng(&seed) % 10 == 0 ? i / 2 * 0x9E3779B97F4A7C15ULL : rng(&seed);
						int			p = (int) (rng(&seed) % (uint64_t) parts);

						bloom_buffered_push(&d, h);
						d.nitems++;
						bloom_store_items(&d);
						light_add(&st[p], h, &a);
					}
					/* merge the parts into a random one, in a random order */
					for (int p = 1; p < parts; p++)
					{
						int			q = (int) (rng(&seed) % 2);
						BloomFilter *into = q ? &st[0] : &st[p];
						BloomFilter *from = q ? &st[p] : &st[0];

						assert_int_equal(bloom_merge(into, from, false, &a), BLOOM_OK);
						if (!q)
							st[0] = st[p];
					}
					for (int sc = 0; sc <= 1; sc++)
					{
						if (sc && !layer)
							continue;	/* a 1.0 state is not a layer */
						x = materialised(&d, sc, &xl);
						y = materialised(&st[0], sc, &yl);
						assert_int_equal(xl, yl);
						assert_memory_equal(x, y, xl);
						free(x);
						free(y);
					}
					/* light below the limit, dense from it (when one part) */
					if (parts == 1)
						assert_int_equal(st[0].kind, n <= limit ? BLOOM_KIND_SPARSE : BLOOM_KIND_BUFFERED);
					assert_int_equal(st[0].nitems, n);
					free(d.base);
				}
			}
}

/* Canonical bytes: no unused slots; they decode, and are canonical */
static void
test_sparse_canonical(void **ctx)
{
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter s,
				c;
	uint8_t    *out;

	(void) ctx;
	assert_int_equal(bloom_new_sparse(100000, 0.01, true, NULL, &a, &s), BLOOM_OK);
	for (uint64_t i = 0; i < 100; i++)
		light_add(&s, i * 7919, &a);
	assert_true(s.nslots > 100);
	assert_false(bloom_is_canonical(&s));
	out = malloc(bloom_canonical_size(&s));
	bloom_canonical_write(&s, out);
	assert_int_equal(bloom_decode(out, bloom_canonical_size(&s), &c), BLOOM_OK);
	assert_int_equal(c.nslots, 100);
	assert_int_equal(c.nhashes, 100);
	assert_int_equal(c.nitems, 100);
	assert_true(bloom_is_canonical(&c));
	assert_memory_equal(c.data, s.data, 800);
	free(out);
}

/* Adds h to a counting light state, as counting_agg's transition does */
static void
counting_light_add(BloomFilter *f, uint64_t h, const BloomAlloc *a)
{
	if (f->kind == BLOOM_KIND_COUNTING)
	{
		counting_add(f, h);
		return;
	}
	if (!bloom_hashlist_push(f, h))
	{
		uint8_t		le[8];

		bloom_put_le64(le, h);
		assert_int_equal(counting_sparse_append(f, le, 1, a), BLOOM_OK);
	}
	f->nitems++;
	bloom_store_items(f);
}

/*
 * Kind 8: the header and its refusals, and the same rule as kind 7: the
 * counting filter made of light states split and merged at random is byte
 * for byte the one the rows make directly (keys repeated past 15 copies,
 * so that saturation is in it)
 */
static void
test_counting_light(void **ctx)
{
	static const uint64_t caps[] = {1, 100, 3000};
	static const double fprs[] = {0.01, 0.0001};
	BloomAlloc	a = malloc_allocator(NULL);
	uint64_t	seed = 7;
	BloomFilter s,
				g;
	size_t		len;

	(void) ctx;
	assert_int_equal(counting_new_sparse(1000, 0.01, &(BloomPlan) {0}, &a, &s), BLOOM_OK);
	len = bloom_sparse_size(s.nslots);
	assert_int_equal(len, 64 + 8 * BLOOM_HASHLIST_MIN_SLOTS);
	assert_int_equal(s.kind, BLOOM_KIND_SPARSE_COUNTING);
	assert_int_equal(counting_sparse_decode(s.base, len, &g), BLOOM_OK);
	/* bloomfilter and cuckoofilter take it for another type's */
	assert_int_equal(bloom_decode(s.base, len, &g), BLOOM_E_OTHERTYPE);
	assert_int_equal(counting_decode(s.base, len, &g), BLOOM_E_OTHERTYPE);
	s.base[4] = 3;
	assert_int_equal(counting_sparse_decode(s.base, len, &g), BLOOM_E_VERSION);
	s.base[4] = 4;
	s.base[14] = 2;
	assert_int_equal(counting_sparse_decode(s.base, len, &g), BLOOM_E_FLAGS);
	s.base[14] = 0;
	bloom_put_le64(s.base + 56, 9);
	assert_int_equal(counting_sparse_decode(s.base, len, &g), BLOOM_E_COUNT);
	bloom_put_le64(s.base + 56, 0);
	assert_int_equal(counting_sparse_decode(s.base, len - 1, &g), BLOOM_E_LENGTH);
	s.base[12]++;				/* another k within bounds: valid, as for kind 5 */
	assert_int_equal(counting_sparse_decode(s.base, len, &g), BLOOM_OK);
	free(s.base);

	for (size_t ci = 0; ci < sizeof(caps) / sizeof(caps[0]); ci++)
		for (size_t fi = 0; fi < sizeof(fprs) / sizeof(fprs[0]); fi++)
		{
			BloomFilter probe;
			uint64_t	limit;

			assert_int_equal(counting_new_sparse(caps[ci], fprs[fi], &(BloomPlan) {0}, &a, &probe), BLOOM_OK);
			limit = probe.nblocks * COUNTING_BLOCK_BYTES / 8;
			free(probe.base);
			for (uint64_t n = 0; n <= 2 * limit + 3; n += 1 + limit / 3)
			{
				int			parts = 1 + (int) (rng(&seed) % 4);
				BloomFilter d,
							st[4];

				assert_int_equal(counting_new(caps[ci], fprs[fi], &(BloomPlan) {0}, &a, &d), BLOOM_OK);
				for (int p = 0; p < parts; p++)
					assert_int_equal(counting_new_sparse(caps[ci], fprs[fi], &(BloomPlan) {0}, &a, &st[p]), BLOOM_OK);
				for (uint64_t i = 0; i < n; i++)
				{
					/* one row in three is one of 4 hot keys */
					uint64_t	h = rng(&seed) % 3 == 0 ? rng(&seed) % 4 : rng(&seed);
					int			p = (int) (rng(&seed) % (uint64_t) parts);

					counting_add(&d, h);
					counting_light_add(&st[p], h, &a);
				}
				for (int p = 1; p < parts; p++)
				{
					int			q = (int) (rng(&seed) % 2);
					BloomFilter *into = q ? &st[0] : &st[p];
					BloomFilter *from = q ? &st[p] : &st[0];

					assert_int_equal(counting_state_merge(into, from, &a), BLOOM_OK);
					if (!q)
						st[0] = st[p];
				}
				if (st[0].kind == BLOOM_KIND_SPARSE_COUNTING)
					assert_int_equal(counting_sparse_densify(&st[0], &a), BLOOM_OK);
				assert_int_equal(counting_size(d.nblocks), counting_size(st[0].nblocks));
				assert_memory_equal(d.base, st[0].base, counting_size(d.nblocks));
				assert_int_equal(counting_validate_deep(&st[0], NULL), BLOOM_OK);
				free(d.base);
			}
		}
}

int
unit_sparse_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sparse_header),
		cmocka_unit_test(test_sparse_identity),
		cmocka_unit_test(test_sparse_canonical),
		cmocka_unit_test(test_counting_light),
	};

	return cmocka_run_group_tests_name("sparse", tests, NULL, NULL);
}
