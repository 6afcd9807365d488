/*
 * Unit tests of src/core/sizing.c: the false-positive model of the blocked
 * layout, plans, sizes and the largest capacities.  The golden geometry is
 * part of the value contract.
 */
#include "unit.h"

/* Bits per key at large capacity: at or under the bounds */
static void
test_sizing_bits_per_key(void **state)
{
	struct
	{
		double		fpr;
		double		max_bits;
	}			cases[] = {{0.01, 10.1}, {0.001, 15.8}};

	(void) state;
	for (size_t i = 0; i < 2; i++)
	{
		BloomPlan	plan;
		uint64_t	nblocks;
		double		bpk;
		double		classic = -log(cases[i].fpr) / (log(2) * log(2));

		assert_int_equal(bloom_plan(cases[i].fpr, &plan), BLOOM_OK);
		assert_int_equal(bloom_plan_size(&plan, 1000000, &nblocks), BLOOM_OK);
		bpk = (double) nblocks * BLOOM_BLOCK_BITS / 1e6;
		assert_true(bpk <= cases[i].max_bits);
		assert_true(bpk >= classic);	/* no layout beats the optimum */
		/* the model's rate at capacity is at or under the target */
		assert_true(bloom_model_fpr(1e6 / nblocks, plan.k) <= cases[i].fpr);
	}
}

/* The model agrees with the classic formula where blocks do not matter */
static void
test_model_monotone(void **state)
{
	(void) state;
	for (int k = 1; k <= 16; k++)
	{
		double		prev = 0.0;

		for (double lambda = 1; lambda < 200; lambda *= 1.5)
		{
			double		r = bloom_model_fpr(lambda, k);

			assert_true(r >= prev);
			assert_true(r >= 0.0 && r <= 1.0);
			prev = r;
		}
	}
	/* one key in a 512-bit block with k = 1: rate is 1/512 */
	assert_true(fabs(bloom_model_fpr(1e-9, 1)) < 1e-9);
}

static void
test_plan_rejects_bad_rates(void **state)
{
	BloomPlan	plan;

	(void) state;
	assert_int_equal(bloom_plan(0.0, &plan), BLOOM_E_PARAMS);
	assert_int_equal(bloom_plan(-0.1, &plan), BLOOM_E_PARAMS);
	assert_int_equal(bloom_plan(0.51, &plan), BLOOM_E_PARAMS);
	assert_int_equal(bloom_plan(NAN, &plan), BLOOM_E_PARAMS);
	assert_int_equal(bloom_plan(1e-13, &plan), BLOOM_E_PARAMS);
	assert_int_equal(bloom_plan(0.5, &plan), BLOOM_OK);
	assert_int_equal(bloom_plan(1e-12, &plan), BLOOM_OK);
	assert_true(plan.k <= BLOOM_MAX_HASHES);
}

/* The plan's early stop finds the k an exhaustive search finds */
static void
test_plan_matches_exhaustive(void **state)
{
	double		fprs[] = {0.5, 0.2, 0.1, 0.03, 0.01, 1e-3, 1e-4, 1e-6, 1e-9, 1e-12};

	(void) state;
	for (int i = 0; i < 10; i++)
	{
		BloomPlan	plan;
		double		best = 0.0;
		int			best_k = 0;

		assert_int_equal(bloom_plan(fprs[i], &plan), BLOOM_OK);
		for (int k = 1; k <= BLOOM_MAX_HASHES; k++)
		{
			double		lo = 0.0,
						hi = BLOOM_BLOCK_BITS;

			for (int it = 0; it < 40; it++)
			{
				double		mid = (lo + hi) / 2;

				if (bloom_model_fpr(mid, k) <= fprs[i] * 0.99)
					lo = mid;
				else
					hi = mid;
			}
			if (lo > best)
			{
				best = lo;
				best_k = k;
			}
		}
		assert_int_equal(plan.k, best_k);
		assert_true(plan.keys_per_block <= best);
		assert_true(plan.keys_per_block > best * 0.999);
	}
}

/*
 * Geometry is part of the value contract: filters made from the same
 * capacity and rate must union, also across versions and machines.  These
 * pinned results fail when sizing changes; such a change needs a new
 * format version, not an edit here.
 */
static void
test_sizing_golden(void **state)
{
	struct
	{
		uint64_t	capacity;
		double		fpr;
		int			k;
		uint64_t	nblocks;
	}			g[] = {
		{1ULL, 0.01, 6, 1ULL},
		{1000ULL, 0.01, 6, 20ULL},
		{1000000ULL, 0.01, 6, 19528ULL},
		{1000000ULL, 0.001, 9, 30686ULL},
		{12345ULL, 0.05, 4, 154ULL},
		{100ULL, 1e-06, 16, 8ULL},
		{10ULL, 0.5, 1, 1ULL},
		{50000000ULL, 0.01, 6, 976378ULL},
		{777ULL, 1e-12, 27, 255ULL},
	};

	(void) state;
	for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++)
	{
		BloomPlan	plan;
		uint64_t	nb;

		assert_int_equal(bloom_plan(g[i].fpr, &plan), BLOOM_OK);
		assert_int_equal(bloom_plan_size(&plan, g[i].capacity, &nb), BLOOM_OK);
		assert_int_equal(plan.k, g[i].k);
		assert_int_equal(nb, g[i].nblocks);
	}
}

static void
test_max_capacity(void **state)
{
	BloomPlan	plan;
	uint64_t	nblocks;
	uint64_t	max;

	(void) state;
	assert_int_equal(bloom_plan(0.01, &plan), BLOOM_OK);
	max = bloom_plan_max_capacity(&plan);
	assert_int_equal(bloom_plan_size(&plan, max, &nblocks), BLOOM_OK);
	assert_true(nblocks <= BLOOM_MAX_BLOCKS);
	assert_true(bloom_blocked_size(nblocks) <= BLOOM_MAX_BYTES);
	assert_int_equal(bloom_plan_size(&plan, max + 1, &nblocks), BLOOM_E_CAPACITY);
	assert_int_equal(bloom_plan_size(&plan, 0, &nblocks), BLOOM_E_PARAMS);
	/* about 430 million keys fit at 1% in 512 MB */
	assert_true(max > 400000000ULL && max < 450000000ULL);
}

/* A plan is reused for the rate it was made for, and remade for another */
static void
test_plan_reuse(void **state)
{
	BloomPlan	plan = {0},
				fresh;

	(void) state;
	assert_int_equal(bloom_plan_reuse(0.01, &plan), BLOOM_OK);
	assert_int_equal(bloom_plan(0.01, &fresh), BLOOM_OK);
	assert_int_equal(plan.k, fresh.k);
	assert_true(plan.keys_per_block == fresh.keys_per_block);
	/* the same rate: the plan is kept as it is (it is a cache) */
	plan.keys_per_block = 1.0;
	assert_int_equal(bloom_plan_reuse(0.01, &plan), BLOOM_OK);
	assert_true(plan.keys_per_block == 1.0);
	/* another rate: planned again */
	assert_int_equal(bloom_plan_reuse(0.001, &plan), BLOOM_OK);
	assert_int_equal(bloom_plan(0.001, &fresh), BLOOM_OK);
	assert_true(plan.fpr == 0.001);
	assert_int_equal(plan.k, fresh.k);
	assert_true(plan.keys_per_block == fresh.keys_per_block);
	/* a bad rate is refused whatever the plan held */
	assert_int_equal(bloom_plan_reuse(0.6, &plan), BLOOM_E_PARAMS);
}

/* The most keys that fit in a number of blocks, at the edge exactly */
static void
test_max_capacity_in(void **state)
{
	const double fprs[] = {0.5, 0.01, 1e-6, 1e-12};

	(void) state;
	for (int i = 0; i < 4; i++)
	{
		BloomPlan	plan;
		uint64_t	prev = 0;

		assert_int_equal(bloom_plan(fprs[i], &plan), BLOOM_OK);
		assert_int_equal(bloom_plan_max_capacity_in(&plan, BLOOM_MAX_BLOCKS),
						 bloom_plan_max_capacity(&plan));
		for (uint64_t maxblocks = 1; maxblocks < 5000; maxblocks = maxblocks * 3 + 1)
		{
			uint64_t	cap = bloom_plan_max_capacity_in(&plan, maxblocks);
			uint64_t	nb;

			assert_true(cap >= prev);
			prev = cap;
			if (cap == 0)
				continue;
			assert_int_equal(bloom_plan_size(&plan, cap, &nb), BLOOM_OK);
			assert_true(nb <= maxblocks);
			assert_int_equal(bloom_plan_size(&plan, cap + 1, &nb), BLOOM_OK);
			assert_true(nb > maxblocks);
		}
	}
}

int
unit_sizing_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizing_bits_per_key),
		cmocka_unit_test(test_model_monotone),
		cmocka_unit_test(test_plan_rejects_bad_rates),
		cmocka_unit_test(test_plan_matches_exhaustive),
		cmocka_unit_test(test_sizing_golden),
		cmocka_unit_test(test_max_capacity),
		cmocka_unit_test(test_plan_reuse),
		cmocka_unit_test(test_max_capacity_in),
	};

	return cmocka_run_group_tests_name("sizing", tests, NULL, NULL);
}
