/*
 * Unit tests of src/core/counting.c and counting.h: the value (round trip,
 * every refusal, the deep check), saturation, removal, random add/remove
 * against an exact multiset, union, the blocked filter a counting filter
 * answers as, the rate at capacity, and counter maxima.
 */
#include "unit.h"

/* A counting filter from malloc, seed 0 */
static BloomFilter
new_counting(uint64_t capacity, double fpr)
{
	BloomPlan	plan = {0};
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter f;

	assert_int_equal(counting_new(capacity, fpr, &plan, &a, &f), BLOOM_OK);
	assert_int_equal(f.nitems, 0);
	return f;
}

static size_t
counting_len(const BloomFilter *f)
{
	return counting_size(f->nblocks);
}

/* Decodes, checks the contents, and says the header agrees with f */
static void
check_decodes(const BloomFilter *f)
{
	BloomFilter g;

	assert_int_equal(counting_decode(f->base, counting_len(f), &g), BLOOM_OK);
	assert_int_equal(counting_validate_deep(&g, NULL), BLOOM_OK);
	assert_int_equal(g.nitems, f->nitems);
	assert_int_equal(g.nremoves, f->nremoves);
	assert_int_equal(g.nblocks, f->nblocks);
	assert_int_equal(g.k, f->k);
}

/* Round trip, and the value's size and header */
static void
test_counting_roundtrip(void **state)
{
	BloomFilter f = new_counting(1000, 0.01),
				g;

	(void) state;
	assert_int_equal(f.version, BLOOM_FORMAT_VERSION_3);
	assert_int_equal(f.kind, BLOOM_KIND_COUNTING);
	for (int64_t i = 0; i < 500; i++)
		counting_add(&f, bloom_hash_int64(0, i));
	for (int64_t i = 0; i < 100; i++)
		assert_true(counting_remove(&f, bloom_hash_int64(0, i)));
	assert_int_equal(counting_decode(f.base, counting_len(&f), &g), BLOOM_OK);
	assert_int_equal(g.nitems, 400);
	assert_int_equal(g.nremoves, 100);
	assert_int_equal(g.capacity, 1000);
	assert_true(g.fpr == 0.01);
	assert_int_equal(counting_validate_deep(&g, NULL), BLOOM_OK);
	for (int64_t i = 100; i < 500; i++)
		assert_true(counting_contains(&g, bloom_hash_int64(0, i)));
	/* not a bloomfilter; the blocked plan's k and blocks */
	assert_int_equal(bloom_decode(f.base, counting_len(&f), &g), BLOOM_E_OTHERTYPE);
	{
		BloomPlan	plan;
		uint64_t	nb;

		assert_int_equal(bloom_plan(0.01, &plan), BLOOM_OK);
		assert_int_equal(bloom_plan_size(&plan, 1000, &nb), BLOOM_OK);
		assert_int_equal(f.nblocks, nb);
		assert_int_equal(f.k, plan.k);
	}
	free(f.base);
}

/* Every header field out of range, and lengths off by one, are refused */
static void
test_counting_refusals(void **state)
{
	BloomFilter f = new_counting(1000, 0.01),
				g;
	size_t		len = counting_len(&f);
	uint8_t    *m = malloc(len + 1);
	BloomPlan	plan = {0};
	uint64_t	nb;

	(void) state;
	counting_add(&f, bloom_hash_int64(0, 1));
#define REFUSED(expect, stmt) \
	do { memcpy(m, f.base, len); stmt; \
		assert_int_equal(counting_decode(m, len, &g), (expect)); } while (0)
	REFUSED(BLOOM_OK, (void) 0);
	REFUSED(BLOOM_E_MAGIC, m[0] = 'X');
	REFUSED(BLOOM_E_VERSION, m[4] = 1);
	REFUSED(BLOOM_E_VERSION, m[4] = 2);
	REFUSED(BLOOM_E_VERSION, m[4] = 4);
	REFUSED(BLOOM_E_OTHERTYPE, m[5] = BLOOM_KIND_BLOCKED);
	REFUSED(BLOOM_E_OTHERTYPE, m[5] = BLOOM_KIND_CUCKOO);
	REFUSED(BLOOM_E_KIND, m[5] = 0);
	REFUSED(BLOOM_E_OTHERTYPE, m[5] = BLOOM_KIND_SPARSE);
	REFUSED(BLOOM_E_KIND, m[5] = 9);
	REFUSED(BLOOM_E_HASH, m[6] = 2);
	REFUSED(BLOOM_E_KEYCLASS, m[7] = 7);
	REFUSED(BLOOM_E_KEYCLASS, m[8] = 1);
	REFUSED(BLOOM_E_GEOMETRY, m[12] = 0);
	REFUSED(BLOOM_E_GEOMETRY, m[12] = 33);
	REFUSED(BLOOM_E_GEOMETRY, m[13] = 8);
	REFUSED(BLOOM_E_FLAGS, m[14] = 1);
	REFUSED(BLOOM_E_FLAGS, m[15] = 0x80);
	REFUSED(BLOOM_E_PARAMS, bloom_put_le64(m + 24, 0));
	REFUSED(BLOOM_E_PARAMS, bloom_put_le64(m + 24, f.nblocks * BLOOM_BLOCK_BITS + 1));
	REFUSED(BLOOM_OK, bloom_put_le64(m + 24, f.nblocks * BLOOM_BLOCK_BITS));
	REFUSED(BLOOM_E_PARAMS, m[39] = 0x7F);	/* fpr past 0.5 */
	REFUSED(BLOOM_E_GEOMETRY, bloom_put_le64(m + 48, 0));
	REFUSED(BLOOM_E_GEOMETRY, bloom_put_le64(m + 48, COUNTING_MAX_BLOCKS + 1));
	REFUSED(BLOOM_E_LENGTH, bloom_put_le64(m + 48, f.nblocks + 1));
	REFUSED(BLOOM_E_LENGTH, bloom_put_le64(m + 48, f.nblocks - 1));
#undef REFUSED
	memcpy(m, f.base, len);
	assert_int_equal(counting_decode(m, len - 1, &g), BLOOM_E_LENGTH);
	m[len] = 0;
	assert_int_equal(counting_decode(m, len + 1, &g), BLOOM_E_LENGTH);
	assert_int_equal(counting_decode(m, BLOOM_HEADER_SIZE - 1, &g), BLOOM_E_SHORT);
	assert_int_equal(counting_decode(m, BLOOM_HEADER_SIZE, &g), BLOOM_E_LENGTH);

	/* the plan refuses what decode would */
	assert_int_equal(counting_plan(0, 0.01, &plan, &nb), BLOOM_E_PARAMS);
	assert_int_equal(counting_plan(10, 0.0, &plan, &nb), BLOOM_E_PARAMS);
	assert_int_equal(counting_plan(10, 0.6, &plan, &nb), BLOOM_E_PARAMS);
	assert_int_equal(counting_plan(10, NAN, &plan, &nb), BLOOM_E_PARAMS);
	assert_int_equal(counting_plan(UINT64_C(1) << 40, 0.01, &plan, &nb), BLOOM_E_CAPACITY);
	assert_int_equal(counting_plan(counting_max_capacity(&plan), 0.01, &plan, &nb), BLOOM_OK);
	assert_true(nb <= COUNTING_MAX_BLOCKS);
	assert_int_equal(counting_plan(counting_max_capacity(&plan) + 1, 0.01, &plan, &nb),
					 BLOOM_E_CAPACITY);
	free(m);
	free(f.base);
}

/* The deep check: a counter without its presence bit, and the reverse */
static void
test_counting_validate_deep(void **state)
{
	BloomFilter f = new_counting(100, 0.01),
				g;
	size_t		len = counting_len(&f);
	uint8_t    *m = malloc(len);
	uint8_t    *ctr;

	(void) state;
	for (int64_t i = 0; i < 50; i++)
		counting_add(&f, bloom_hash_int64(0, i));
	/* cell 3 of block 0: a counter with a clear presence bit */
	memcpy(m, f.base, len);
	assert_int_equal(counting_decode(m, len, &g), BLOOM_OK);
	ctr = counting_counters(&g);
	g.data[0] &= (uint8_t) ~(1u << 3);
	ctr[1] = (uint8_t) ((ctr[1] & 0x0F) | 0x20);
	assert_int_equal(counting_validate_deep(&g, NULL), BLOOM_E_CONTENT);
	/* the reverse: a presence bit with a zero counter (last cell of the last block) */
	memcpy(m, f.base, len);
	assert_int_equal(counting_decode(m, len, &g), BLOOM_OK);
	ctr = counting_counters(&g);
	ctr[g.nblocks * COUNTING_PLANE_BYTES - 1] &= 0x0F;
	g.data[g.nblocks * BLOOM_BLOCK_BYTES - 1] |= 0x80;
	assert_int_equal(counting_validate_deep(&g, NULL), BLOOM_E_CONTENT);
	/* both set agree */
	ctr[g.nblocks * COUNTING_PLANE_BYTES - 1] |= 0x10;
	assert_int_equal(counting_validate_deep(&g, NULL), BLOOM_OK);
	free(m);
	free(f.base);
}

/* Counters stop at 15 and never come down from it */
static void
test_counting_saturate(void **state)
{
	BloomFilter f = new_counting(1000, 0.01);
	uint64_t	h = bloom_hash_int64(0, 42);
	CountingInfo info;

	(void) state;
	for (int i = 1; i <= 40; i++)
	{
		counting_add(&f, h);
		assert_int_equal(counting_count(&f, h), i < 15 ? i : 15);
	}
	counting_describe(&f, &info, NULL);
	assert_int_equal(info.max_counter, 15);
	assert_true(info.saturated >= 1 && info.saturated <= f.k);
	assert_int_equal(info.counters_set, info.saturated);
	for (int i = 0; i < 100; i++)
		assert_true(counting_remove(&f, h));
	assert_int_equal(counting_count(&f, h), 15);
	assert_true(counting_contains(&f, h));
	assert_int_equal(f.nitems, 0);
	assert_int_equal(f.nremoves, 100);
	check_decodes(&f);

	/* a key below 15 comes back to zero, and is gone */
	{
		uint64_t	h2 = bloom_hash_int64(0, 43);

		for (int i = 0; i < 7; i++)
			counting_add(&f, h2);
		assert_true(counting_count(&f, h2) >= 7);
		for (int i = 0; i < 7; i++)
			assert_true(counting_remove(&f, h2));
		assert_int_equal(counting_count(&f, h2), 0);
		assert_false(counting_contains(&f, h2));
		assert_true(counting_contains(&f, h));
	}
	free(f.base);
}

/* Removing a key certainly absent changes no byte */
static void
test_counting_remove_absent(void **state)
{
	BloomFilter f = new_counting(1000, 0.01);
	size_t		len = counting_len(&f);
	uint8_t    *before = malloc(len);
	int			absent = 0;

	(void) state;
	for (int64_t i = 0; i < 1000; i++)
		counting_add(&f, bloom_hash_int64(0, i));
	memcpy(before, f.base, len);
	for (int64_t i = 0; i < 10000; i++)
	{
		uint64_t	h = bloom_hash_int64(1, i);

		if (counting_contains(&f, h))
			continue;
		absent++;
		assert_false(counting_remove(&f, h));
		assert_int_equal(counting_count(&f, h), 0);
	}
	assert_true(absent > 9000);
	assert_memory_equal(before, f.base, len);
	free(before);
	free(f.base);
}

/*
 * 100,000 adds and removes of keys from a pool of 20,000, removes only of
 * keys held, against an exact multiset: no key held is ever missing, and
 * the count is at least its multiplicity (up to 15).
 */
static void
test_counting_random(void **state)
{
	const uint64_t seeds[] = {1, 2, 3, 0xDEADBEEF};
	const int	pool = 20000;

	(void) state;
	for (int s = 0; s < 4; s++)
	{
		BloomFilter f = new_counting(20000, 0.01);
		int		   *mult = calloc(pool, sizeof(int));
		int		   *held = malloc(pool * sizeof(int));
		int		   *pos = malloc(pool * sizeof(int));
		int			nheld = 0;
		uint64_t	r = seeds[s],
					adds = 0,
					removes = 0;

		for (int op = 1; op <= 100000; op++)
		{
			int			key;

			if (nheld == 0 || unit_rand(&r) % 100 < 60)
			{
				key = (int) (unit_rand(&r) % pool);
				counting_add(&f, bloom_hash_int64(s, key));
				if (mult[key]++ == 0)
				{
					pos[key] = nheld;
					held[nheld++] = key;
				}
				adds++;
			}
			else
			{
				int			i = (int) (unit_rand(&r) % nheld);

				key = held[i];
				assert_true(counting_remove(&f, bloom_hash_int64(s, key)));
				if (--mult[key] == 0)
				{
					held[i] = held[--nheld];
					pos[held[i]] = i;
				}
				removes++;
			}
			if (mult[key] > 0)
				assert_true(counting_contains(&f, bloom_hash_int64(s, key)));
			if (op % 2000 == 0)
			{
				for (int i = 0; i < nheld; i++)
				{
					uint64_t	h = bloom_hash_int64(s, held[i]);
					int			want = mult[held[i]] < 15 ? mult[held[i]] : 15;

					assert_true(counting_contains(&f, h));
					assert_true((int) counting_count(&f, h) >= want);
				}
			}
		}
		assert_int_equal(f.nitems, adds - removes);
		assert_int_equal(f.nremoves, removes);
		check_decodes(&f);
		free(mult);
		free(held);
		free(pos);
		free(f.base);
	}
}

/* A union is the same bytes as adding the other's keys, in either order */
static void
test_counting_merge(void **state)
{
	BloomFilter a = new_counting(2000, 0.01),
				b = new_counting(2000, 0.01),
				seq = new_counting(2000, 0.01),
				c;
	size_t		len = counting_len(&a);
	uint8_t    *ab = malloc(len),
			   *ba = malloc(len);

	(void) state;
	for (int64_t i = 0; i < 1500; i++)
	{
		/* repeats, so that counters saturate in the sum but not alone */
		int			times = i < 20 ? 9 : 1;

		for (int t = 0; t < times; t++)
		{
			counting_add(&a, bloom_hash_int64(0, i));
			counting_add(&seq, bloom_hash_int64(0, i));
		}
	}
	for (int64_t i = 0; i < 1500; i++)
	{
		int			times = i < 20 ? 9 : 1;

		for (int t = 0; t < times; t++)
		{
			counting_add(&b, bloom_hash_int64(0, i + 1000));
			counting_add(&seq, bloom_hash_int64(0, i + 1000));
		}
	}
	assert_int_equal(counting_compatible(&a, &b), BLOOM_PARAM_NONE);
	memcpy(ab, a.base, len);
	assert_int_equal(counting_decode(ab, len, &c), BLOOM_OK);
	counting_merge(&c, &b, NULL);
	assert_memory_equal(ab, seq.base, len);
	memcpy(ba, b.base, len);
	assert_int_equal(counting_decode(ba, len, &c), BLOOM_OK);
	counting_merge(&c, &a, NULL);
	assert_memory_equal(ba, seq.base, len);
	assert_int_equal(counting_validate_deep(&c, NULL), BLOOM_OK);

	/* incompatible ones are named */
	{
		BloomFilter d = new_counting(2001, 0.01);

		assert_int_equal(counting_compatible(&a, &d), BLOOM_PARAM_CAPACITY);
		free(d.base);
	}
	free(ab);
	free(ba);
	free(a.base);
	free(b.base);
	free(seq.base);
}

/* counting_to_bloom answers every key as the counting filter does */
static void
test_counting_to_bloom(void **state)
{
	BloomFilter c = new_counting(100000, 0.01),
				out,
				g;
	uint8_t    *buf = malloc(bloom_blocked_size(c.nblocks));
	uint64_t	agree = 0;

	(void) state;
	for (int64_t i = 0; i < 100000; i++)
		counting_add(&c, bloom_hash_int64(0, i));
	for (int64_t i = 0; i < 30000; i++)
		counting_remove(&c, bloom_hash_int64(0, i));
	counting_to_bloom(&c, buf, &out);
	assert_int_equal(bloom_decode(buf, bloom_blocked_size(c.nblocks), &g), BLOOM_OK);
	assert_int_equal(g.kind, BLOOM_KIND_BLOCKED);
	assert_int_equal(g.flags, BLOOM_FLAG_NONSCALING);
	assert_int_equal(g.nblocks, c.nblocks);
	assert_int_equal(g.k, c.k);
	assert_true(g.nitems <= g.capacity);
	assert_true(g.nitems > 60000 && g.nitems < 80000);
	for (int64_t i = 0; i < 1000000; i++)
	{
		uint64_t	h = bloom_hash_int64(0, i);

		agree += bloom_filter_contains(&g, h) == counting_contains(&c, h);
	}
	assert_int_equal(agree, 1000000);
	free(buf);
	free(c.base);
}

/*
 * The rate at capacity, on 2M never-added keys: at or under the target,
 * and not far under it (the blocked filter's sizing)
 */
static void
test_counting_fpr(void **state)
{
	const double rates[] = {0.01, 0.001, 0.0001};

	(void) state;
	for (int r = 0; r < 3; r++)
	{
		const uint64_t n = 100000,
					probes = 2000000;
		BloomFilter f = new_counting(n, rates[r]);
		uint64_t	fp = 0;

		for (uint64_t i = 0; i < n; i++)
			counting_add(&f, bloom_hash_int64(5, (int64_t) i));
		for (uint64_t i = 0; i < probes; i++)
			fp += counting_contains(&f, bloom_hash_int64(5, -1 - (int64_t) i));
		print_message("counting fpr %g: measured %.6f (%llu bytes)\n", rates[r],
					  (double) fp / probes, (unsigned long long) counting_len(&f));
		assert_true((double) fp / probes <= rates[r]);
		assert_true((double) fp / probes >= rates[r] * 0.3);
		free(f.base);
	}
}

/* The largest counters at 1x and 2x capacity (docs: the odds of overflow) */
static void
test_counting_maxima(void **state)
{
	const double rates[] = {0.01, 0.001, 0.0001};

	(void) state;
	for (int r = 0; r < 3; r++)
	{
		const uint64_t n = 1000000;
		BloomFilter f = new_counting(n, rates[r]);
		CountingInfo info;

		for (uint64_t fill = 1; fill <= 2; fill++)
		{
			for (uint64_t i = (fill - 1) * n; i < fill * n; i++)
				counting_add(&f, bloom_hash_int64(6, (int64_t) i));
			counting_describe(&f, &info, NULL);
			print_message("counting fpr %g k %d at %llux capacity: max counter %u, "
						  "saturated %llu of %llu, set %llu\n", rates[r], f.k,
						  (unsigned long long) fill, info.max_counter,
						  (unsigned long long) info.saturated,
						  (unsigned long long) info.counters,
						  (unsigned long long) info.counters_set);
			assert_true(info.max_counter >= 5);
			if (fill == 1)
				assert_true(info.saturated <= info.counters / 100000);
		}
		free(f.base);
	}
}

/* The filter an aggregate's hash list stands for: every hash, repeats counted */
static void
test_counting_from_hashlist(void **state)
{
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter st = new_hashlist(16, 0.01, &a),
				out;
	BloomPlan	plan = {0};
	uint64_t	cap;

	(void) state;
	for (uint64_t i = 0; i < 10; i++)
		bloom_hashlist_set(&st, i, bloom_hash_int64(3, (int64_t) (i % 6)));
	st.nhashes = 10;
	st.nitems = 10;
	st.seed = 3;
	bloom_write_header(&st);
	assert_int_equal(counting_from_hashlist(&st, &plan, &a, &out, &cap), BLOOM_OK);
	assert_int_equal(cap, 6);
	assert_int_equal(out.capacity, 6);
	assert_int_equal(out.nitems, 10);
	assert_int_equal(out.seed, 3);
	for (int64_t i = 0; i < 6; i++)
		assert_true(counting_count(&out, bloom_hash_int64(3, i)) >= (i < 4 ? 2u : 1u));
	check_decodes(&out);
	free(out.base);
	free(st.base);
}

int
unit_counting_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counting_roundtrip),
		cmocka_unit_test(test_counting_refusals),
		cmocka_unit_test(test_counting_validate_deep),
		cmocka_unit_test(test_counting_saturate),
		cmocka_unit_test(test_counting_remove_absent),
		cmocka_unit_test(test_counting_random),
		cmocka_unit_test(test_counting_merge),
		cmocka_unit_test(test_counting_to_bloom),
		cmocka_unit_test(test_counting_fpr),
		cmocka_unit_test(test_counting_maxima),
		cmocka_unit_test(test_counting_from_hashlist),
	};

	return cmocka_run_group_tests_name("counting", tests, NULL, NULL);
}
