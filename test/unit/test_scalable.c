/*
 * Unit tests of src/core/scalable.c and scalable.h: the schedule of rates
 * (sizing.c), making, growth by bloom_add (no false negatives, rate and size bounds),
 * the limits of growth, validation of every field, union and
 * intersection.
 */
#include "unit.h"

/* The schedule: rates fall as (i+1)^-1.5 and sum to the target over 32 layers */
static void
test_schedule(void **state)
{
	double		sum = 0.0;

	(void) state;
	for (int i = 0; i < BLOOM_MAX_LAYERS; i++)
	{
		sum += bloom_layer_fpr(0.01, i);
		if (i > 0)
			assert_true(bloom_layer_fpr(0.01, i) < bloom_layer_fpr(0.01, i - 1));
	}
	assert_true(sum <= 0.01 * (1 + 1e-12));
	assert_true(sum >= 0.01 * (1 - 1e-12));
	/* golden: the first and last layers' shares */
	assert_true(fabs(bloom_layer_fpr(0.01, 0) - 0.00442172) < 1e-8);
	assert_true(bloom_layer_fpr(BLOOM_MIN_SCALABLE_FPR, BLOOM_MAX_LAYERS - 1) >= BLOOM_MIN_FPR);
	assert_false(bloom_scalable_fpr_valid(BLOOM_MIN_SCALABLE_FPR / 2));
}

/*
 * Grown to 100x: no false negatives, measured rate at or under the
 * target, at most 2.5x the bits of a filter sized for the keys, and a
 * first layer at most 1.25x a fixed filter (at 1% and 0.1%).
 */
static void
test_scalable_growth(void **state)
{
	const double rates[] = {0.01, 0.001};

	(void) state;
	for (int r = 0; r < 2; r++)
	{
		double		fpr = rates[r];
		Grown		g;
		BloomPlan	fixed;
		uint64_t	nb_fixed,
					nb_first,
					nb_exact,
					fp = 0;
		const uint64_t n = 100000,
					probes = 2000000;

		grow_new(&g, 1000, fpr, 2);
		nb_first = g.f.layers[0].nblocks;
		for (uint64_t i = 0; i < n; i++)
			assert_int_equal(grow_add(&g, bloom_hash_int64(7, (int64_t) i)), BLOOM_OK);
		assert_int_equal(g.f.nlayers, 7);
		for (uint64_t i = 0; i < n; i++)
			assert_true(bloom_scalable_contains(&g.f, bloom_hash_int64(7, (int64_t) i)));
		for (uint64_t i = 0; i < probes; i++)
			fp += bloom_scalable_contains(&g.f, bloom_hash_int64(7, -1 - (int64_t) i));
		print_message("scalable fpr %g: measured %.5f, estimated %.5f\n", fpr,
					  (double) fp / probes, bloom_estimate_fpr(&g.f, NULL));
		assert_true((double) fp / probes <= fpr);
		assert_true(fabs(bloom_estimate_fpr(&g.f, NULL) - (double) fp / probes) < fpr * 0.1);

		assert_int_equal(bloom_plan(fpr, &fixed), BLOOM_OK);
		assert_int_equal(bloom_plan_size(&fixed, 1000, &nb_fixed), BLOOM_OK);
		assert_int_equal(bloom_plan_size(&fixed, n, &nb_exact), BLOOM_OK);
		assert_true(nb_first <= 1.25 * nb_fixed);
		assert_true(bloom_scalable_blocks(&g.f) <= 2.5 * nb_exact);
		grow_free(&g);
	}
}

/* The most layers, and capacities that would overflow, are refused */
static void
test_scalable_limits(void **state)
{
	Grown		g;
	BloomPlan	plan;
	uint64_t	cap,
				nb;

	(void) state;
	grow_new(&g, 1, 0.01, 1);
	for (uint64_t i = 0; i < 200 && g.f.nlayers < BLOOM_MAX_LAYERS; i++)
		assert_int_equal(grow_add(&g, bloom_hash_int64(0, (int64_t) i)), BLOOM_OK);
	assert_int_equal(g.f.nlayers, BLOOM_MAX_LAYERS);
	while (!bloom_scalable_full(&g.f))
		grow_add(&g, bloom_hash_int64(1, (int64_t) g.f.nitems));
	assert_int_equal(bloom_scalable_next_layer(&g.f, &plan, &cap, &nb), BLOOM_E_CAPACITY);
	{
		/* bloom_add refuses a new key, and leaves the filter as it was */
		uint8_t    *base = g.f.base;
		uint64_t	items = g.f.nitems;
		int64_t		i = 0;
		bool		added = true;

		while (bloom_filter_contains(&g.f, bloom_hash_int64(2, i)))
			i++;
		assert_int_equal(grow_add(&g, bloom_hash_int64(2, i)), BLOOM_E_CAPACITY);
		assert_int_equal(bloom_add(&g.f, bloom_hash_int64(2, i), &plan, &g.a, &added),
						 BLOOM_E_CAPACITY);
		assert_false(added);
		assert_ptr_equal(g.f.base, base);
		assert_int_equal(g.f.nitems, items);
		assert_int_equal(g.live, 1);
		/* a key that may be present is no change, full or not */
		assert_int_equal(grow_add(&g, bloom_hash_int64(0, 0)), BLOOM_OK);
	}
	grow_free(&g);

	/* a first layer so large that the second cannot fit in 512 MB */
	grow_new(&g, 100000000, 0.01, 16);
	assert_int_equal(bloom_scalable_next_layer(&g.f, &plan, &cap, &nb), BLOOM_E_CAPACITY);
	/* full, it cannot grow: bloom_add says so, nothing is allocated */
	g.f.layers[0].nitems = g.f.nitems = g.f.capacity;
	bloom_write_header(&g.f);
	assert_int_equal(grow_add(&g, bloom_hash_int64(9, -1)), BLOOM_E_CAPACITY);
	grow_free(&g);
}

/* Every field of a two-layer value is checked */
static void
test_scalable_decode(void **state)
{
	Grown		g;
	BloomFilter h;
	size_t		len;
	uint8_t    *copy;

	(void) state;
	grow_new(&g, 10, 0.01, 2);
	for (uint64_t i = 0; i < 15; i++)
		grow_add(&g, bloom_hash_int64(0, (int64_t) i));
	assert_int_equal(g.f.nlayers, 2);
	len = grown_len(&g);
	copy = malloc(len + 8);
#define SCHECK(off, val, expect) \
	do { \
		memcpy(copy, g.f.base, len); \
		copy[off] = (val); \
		assert_int_equal(bloom_decode(copy, len, &h), expect); \
	} while (0)
	for (size_t cut = 0; cut < len; cut++)
		assert_int_not_equal(bloom_decode(g.f.base, cut, &h), BLOOM_OK);
	SCHECK(4, 1, BLOOM_E_KIND);		/* kind 4 needs version 2 */
	SCHECK(12, 1, BLOOM_E_GEOMETRY);
	SCHECK(13, 8, BLOOM_E_GEOMETRY);
	SCHECK(14, 1, BLOOM_E_FLAGS);
	SCHECK(24, 11, BLOOM_E_PARAMS);		/* first layer's capacity differs */
	SCHECK(40, 0, BLOOM_E_COUNT);		/* items do not add up */
	SCHECK(48, 0, BLOOM_E_GEOMETRY);
	SCHECK(48, 33, BLOOM_E_GEOMETRY);
	SCHECK(48, 3, BLOOM_E_GEOMETRY);	/* bits read as a third descriptor */
	SCHECK(48, 1, BLOOM_E_COUNT);
	SCHECK(56, 0, BLOOM_E_PARAMS);
	SCHECK(56, 17, BLOOM_E_PARAMS);
	SCHECK(56, 3, BLOOM_E_PARAMS);		/* second layer's capacity disagrees */
	SCHECK(64, 0, BLOOM_E_GEOMETRY);	/* layer 0: no blocks */
	SCHECK(64, 2, BLOOM_E_LENGTH);
	SCHECK(72, 9, BLOOM_E_PARAMS);
	SCHECK(80, 0, BLOOM_E_COUNT);
	SCHECK(88, 0, BLOOM_E_GEOMETRY);
	SCHECK(88, 33, BLOOM_E_GEOMETRY);
	SCHECK(89, 1, BLOOM_E_FLAGS);
	SCHECK(95, 1, BLOOM_E_FLAGS);
	SCHECK(96 + 24, 0, BLOOM_E_GEOMETRY);	/* layer 1: k 0 */
	memcpy(copy, g.f.base, len);
	assert_int_equal(bloom_decode(copy, len + 1, &h), BLOOM_E_LENGTH);
	free(copy);
	grow_free(&g);
}

/* Union layer by layer: every key of both, the layers of the larger */
static void
test_scalable_union(void **state)
{
	Grown		a,
				b;
	BloomFilter u;
	size_t		len;
	uint8_t    *buf;

	(void) state;
	grow_new(&a, 100, 0.01, 2);
	grow_new(&b, 100, 0.01, 2);
	for (uint64_t i = 0; i < 700; i++)
		grow_add(&a, bloom_hash_int64(0, (int64_t) i));
	for (uint64_t i = 1000; i < 1150; i++)
		grow_add(&b, bloom_hash_int64(0, (int64_t) i));
	assert_int_equal(bloom_compatible(&a.f, &b.f), BLOOM_PARAM_NONE);
	len = bloom_scalable_union_size(&b.f, &a.f);
	buf = malloc(len);
	bloom_scalable_union(buf, &b.f, &a.f, NULL);
	assert_int_equal(bloom_decode(buf, len, &u), BLOOM_OK);
	assert_int_equal(u.nlayers, a.f.nlayers);
	assert_int_equal(u.nitems, a.f.nitems + b.f.nitems);
	for (uint64_t i = 0; i < 700; i++)
		assert_true(bloom_scalable_contains(&u, bloom_hash_int64(0, (int64_t) i)));
	for (uint64_t i = 1000; i < 1150; i++)
		assert_true(bloom_scalable_contains(&u, bloom_hash_int64(0, (int64_t) i)));

	/* bloom_merge makes the same value, new from the allocator */
	{
		BloomFilter m = b.f;

		assert_int_equal(bloom_merge(&m, &a.f, false, &b.a), BLOOM_OK);
		assert_ptr_not_equal(m.base, b.f.base);
		assert_int_equal(b.live, 2);
		assert_int_equal(bloom_value_size(&m), len);
		assert_memory_equal(m.base, buf, len);
		b.a.free(b.a.arg, m.base);
		/* intersection only of filters that have not grown */
		m = b.f;
		assert_int_equal(bloom_merge(&m, &a.f, true, &b.a), BLOOM_E_GROWN);
		assert_int_equal(b.live, 1);
	}
	free(buf);

	/* another expansion does not combine */
	b.f.expansion = 4;
	assert_int_equal(bloom_compatible(&a.f, &b.f), BLOOM_PARAM_EXPANSION);
	b.f.expansion = 2;
	b.f.layers[0].k++;
	assert_int_equal(bloom_compatible(&a.f, &b.f), BLOOM_PARAM_LAYERS);
	grow_free(&a);
	grow_free(&b);
}


/* The constructors make what bloom_init_scalable writes; expansion 0 is fixed */
static void
test_new_scalable(void **state)
{
	BloomPlan	plan = {0};
	long		live = 0;
	BloomAlloc	a = malloc_allocator(&live);
	BloomFilter f;
	uint8_t    *buf;
	size_t		len;

	(void) state;
	assert_int_equal(bloom_new_scalable(1000, 0.01, 2, &plan, &a, &f), BLOOM_OK);
	assert_int_equal(f.version, BLOOM_FORMAT_VERSION_2);
	assert_int_equal(f.nlayers, 1);
	assert_int_equal(f.expansion, 2);
	assert_true(plan.fpr == bloom_layer_fpr(0.01, 0));
	assert_int_equal(f.layers[0].k, plan.k);
	len = bloom_value_size(&f);
	assert_int_equal(len, bloom_scalable_size(1, f.layers[0].nblocks));
	buf = malloc(len);
	bloom_init_scalable(buf, 1000, 0.01, 2, 0, f.layers[0].nblocks, plan.k);
	assert_memory_equal(buf, f.base, len);
	free(buf);
	a.free(a.arg, f.base);

	/* expansion 0: a fixed blocked filter planned for the whole rate */
	assert_int_equal(bloom_new_scalable(1000, 0.01, 0, &plan, &a, &f), BLOOM_OK);
	assert_int_equal(f.kind, BLOOM_KIND_BLOCKED);
	assert_int_equal(f.flags, BLOOM_FLAG_NONSCALING);
	assert_int_equal(f.nblocks, 20);	/* the golden geometry of 1000 at 1% */
	a.free(a.arg, f.base);

	assert_int_equal(bloom_new_scalable(0, 0.01, 2, &plan, &a, &f), BLOOM_E_PARAMS);
	assert_int_equal(bloom_new_scalable(10, 0.01, BLOOM_MAX_EXPANSION + 1, &plan, &a, &f),
					 BLOOM_E_PARAMS);
	assert_int_equal(bloom_new_scalable(10, BLOOM_MIN_SCALABLE_FPR / 2, 2, &plan, &a, &f),
					 BLOOM_E_PARAMS);
	assert_int_equal(bloom_new_scalable(bloom_scalable_max_first_layer(&plan) + 1, 0.01, 2,
										&plan, &a, &f), BLOOM_E_CAPACITY);
	assert_int_equal(live, 0);
}

/* Growth: each layer expansion times the last, counts add up, BF.INFO */
static void
test_scalable_layers(void **state)
{
	Grown		g;
	BloomInfo	info;
	uint64_t	sum = 0;

	(void) state;
	grow_new(&g, 100, 0.01, 3);
	for (int64_t i = 0; i < 2000; i++)
		assert_int_equal(grow_add(&g, bloom_hash_int64(5, i)), BLOOM_OK);
	assert_int_equal(g.f.nlayers, 4);	/* 100 + 300 + 900 + 2700 */
	for (uint64_t i = 0; i < g.f.nlayers; i++)
	{
		if (i > 0)
			assert_int_equal(g.f.layers[i].capacity, 3 * g.f.layers[i - 1].capacity);
		if (i + 1 < g.f.nlayers)
			assert_int_equal(g.f.layers[i].nitems, g.f.layers[i].capacity);
		sum += g.f.layers[i].nitems;
	}
	assert_int_equal(sum, g.f.nitems);
	assert_true(g.f.nitems <= 2000 && g.f.nitems > 1990);	/* false positives */
	assert_int_equal(bloom_scalable_next_capacity(&g.f), 3 * 2700);
	bloom_describe(&g.f, &info, NULL);
	assert_string_equal(info.kind, "scalable");
	assert_int_equal(info.capacity, 4000);
	assert_int_equal(info.layers, 4);
	assert_int_equal(info.expansion, 3);
	assert_true(info.has_expansion);
	assert_int_equal(info.hashes, g.f.layers[3].k);
	assert_int_equal(info.bits, bloom_scalable_blocks(&g.f) * BLOOM_BLOCK_BITS);
	assert_true(fabs(info.estimated_items - (double) g.f.nitems) < 0.05 * g.f.nitems);
	grow_free(&g);
}

/* A blocked filter as the one layer of a scalable filter */
static void
test_scalable_from_blocked(void **state)
{
	BloomPlan	plan = {0};
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter b,
				s;
	uint8_t    *buf;
	size_t		len;

	(void) state;
	assert_int_equal(bloom_new_blocked(500, bloom_layer_fpr(0.01, 0), 0, &plan, &a, &b),
					 BLOOM_OK);
	for (int64_t i = 0; i < 300; i++)
		bloom_insert_hash(&b, bloom_hash_int64(0, i));
	b.nitems = 300;
	bloom_store_key_class(&b, BLOOM_KEY_INTEGER, 0);
	len = bloom_scalable_size(1, b.nblocks);
	buf = malloc(len);
	bloom_scalable_from_blocked(buf, &b, 0.01, 2);
	assert_int_equal(bloom_decode(buf, len, &s), BLOOM_OK);
	assert_int_equal(s.nlayers, 1);
	assert_true(s.fpr == 0.01);
	assert_int_equal(s.capacity, 500);
	assert_int_equal(s.nitems, 300);
	assert_int_equal(s.key_class, BLOOM_KEY_INTEGER);
	assert_int_equal(s.layers[0].k, b.k);
	assert_memory_equal(s.layers[0].data, b.data, b.nblocks * BLOOM_BLOCK_BYTES);
	for (int64_t i = 0; i < 300; i++)
		assert_true(bloom_filter_contains(&s, bloom_hash_int64(0, i)));
	free(buf);
	free(b.base);
}

/* Intersection of one-layer filters, in place */
static void
test_scalable_intersect(void **state)
{
	Grown		a,
				b;

	(void) state;
	grow_new(&a, 1000, 0.01, 2);
	grow_new(&b, 1000, 0.01, 2);
	for (int64_t i = 0; i < 600; i++)
		grow_add(&a, bloom_hash_int64(0, i));
	for (int64_t i = 400; i < 900; i++)
		grow_add(&b, bloom_hash_int64(0, i));
	assert_int_equal(bloom_merge(&a.f, &b.f, true, &a.a), BLOOM_OK);
	assert_int_equal(a.live, 1);
	assert_int_equal(a.f.nitems, b.f.nitems);	/* the smaller count */
	for (int64_t i = 400; i < 600; i++)
		assert_true(bloom_filter_contains(&a.f, bloom_hash_int64(0, i)));
	grow_add(&a, bloom_hash_int64(0, 10000));	/* checks the header */
	grow_free(&a);
	grow_free(&b);
}

int
unit_scalable_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schedule),
		cmocka_unit_test(test_scalable_growth),
		cmocka_unit_test(test_scalable_limits),
		cmocka_unit_test(test_scalable_decode),
		cmocka_unit_test(test_scalable_union),
		cmocka_unit_test(test_new_scalable),
		cmocka_unit_test(test_scalable_layers),
		cmocka_unit_test(test_scalable_from_blocked),
		cmocka_unit_test(test_scalable_intersect),
	};

	return cmocka_run_group_tests_name("scalable", tests, NULL, NULL);
}
