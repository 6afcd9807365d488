/*
 * Unit tests of src/core/materialize.c: an aggregate state (hash list or
 * buffered filter) as the filter it stands for, blocked (1.0) or scalable
 * (1.2), exact and estimated distinct counts, over-capacity states, and
 * the empty state.
 */
#include "unit.h"

/* Materialises st, checks that st is unchanged and only out is left */
static BloomStatus
materialize(const BloomFilter *st, bool scalable, BloomMaterialized *m, BloomFilter *out)
{
	long		live = 0;
	BloomAlloc	a = malloc_allocator(&live);
	size_t		len = bloom_value_size(st);
	uint8_t    *before = malloc(len);
	BloomFilter check;
	BloomStatus s;

	memcpy(before, st->base, len);
	s = bloom_materialize(st, scalable, NULL, &a, m, out);
	assert_memory_equal(before, st->base, len);
	free(before);
	assert_int_equal(live, s == BLOOM_OK ? 1 : 0);
	if (s == BLOOM_OK)
	{
		assert_int_equal(bloom_decode(out->base, bloom_value_size(out), &check), BLOOM_OK);
		assert_int_equal(check.nitems, out->nitems);
	}
	return s;
}

/*
 * A hash list becomes a filter sized for its distinct hashes: blocked at
 * its rate (1.0), or one layer of a scalable filter at the first layer's
 * rate (1.2), which counts distinct keys.
 */
static void
test_materialize_hashlist(void **state)
{
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter st = new_hashlist(1000, 0.01, &a),
				out;
	BloomMaterialized m;
	BloomPlan	plan;
	uint64_t	nb;

	(void) state;
	for (uint64_t i = 0; i < 1000; i++)
		bloom_hashlist_set(&st, i, bloom_hash_int64(4, (int64_t) (i % 600)));
	st.nhashes = 1000;
	st.nitems = 1200;			/* rows, some of them NULL-free repeats */
	st.seed = 4;
	bloom_write_header(&st);
	bloom_store_key_class(&st, BLOOM_KEY_INTEGER, 0);

	assert_int_equal(materialize(&st, false, &m, &out), BLOOM_OK);
	assert_int_equal(out.kind, BLOOM_KIND_BLOCKED);
	assert_int_equal(out.version, BLOOM_FORMAT_VERSION);
	assert_int_equal(out.capacity, 600);
	assert_true(out.fpr == 0.01);
	assert_int_equal(bloom_plan(0.01, &plan), BLOOM_OK);
	assert_int_equal(bloom_plan_size(&plan, 600, &nb), BLOOM_OK);
	assert_int_equal(out.nblocks, nb);
	assert_int_equal(out.nitems, 1200);
	assert_int_equal(out.seed, 4);
	assert_int_equal(out.key_class, BLOOM_KEY_INTEGER);
	assert_false(m.over_capacity);
	for (int64_t i = 0; i < 600; i++)
		assert_true(bloom_contains_hash(&out, bloom_hash_int64(4, i)));
	free(out.base);

	assert_int_equal(materialize(&st, true, &m, &out), BLOOM_OK);
	assert_int_equal(out.kind, BLOOM_KIND_SCALABLE);
	assert_int_equal(out.nlayers, 1);
	assert_int_equal(out.expansion, BLOOM_DEFAULT_EXPANSION);
	assert_true(out.fpr == 0.01);
	assert_int_equal(out.capacity, 600);
	assert_int_equal(out.nitems, 600);	/* distinct keys, a full layer */
	assert_int_equal(out.seed, 4);
	assert_int_equal(out.key_class, BLOOM_KEY_INTEGER);
	assert_int_equal(bloom_plan(bloom_layer_fpr(0.01, 0), &plan), BLOOM_OK);
	assert_int_equal(bloom_plan_size(&plan, 600, &nb), BLOOM_OK);
	assert_int_equal(out.layers[0].nblocks, nb);
	assert_int_equal(out.layers[0].k, plan.k);
	for (int64_t i = 0; i < 600; i++)
		assert_true(bloom_filter_contains(&out, bloom_hash_int64(4, i)));
	free(out.base);

	/* a rate no scalable filter can have: a fixed filter (expansion 0) */
	st.fpr = 1e-10;
	bloom_write_header(&st);
	assert_int_equal(materialize(&st, true, &m, &out), BLOOM_OK);
	assert_int_equal(out.kind, BLOOM_KIND_BLOCKED);
	assert_int_equal(out.flags, BLOOM_FLAG_NONSCALING);
	assert_int_equal(out.version, BLOOM_FORMAT_VERSION_2);
	assert_int_equal(out.capacity, 600);
	assert_int_equal(out.nitems, 600);
	for (int64_t i = 0; i < 600; i++)
		assert_true(bloom_contains_hash(&out, bloom_hash_int64(4, i)));
	free(out.base);
	free(st.base);
}

/* Many hashes: estimated, or counted exactly when few are distinct */
static void
test_materialize_many(void **state)
{
	BloomAlloc	a = malloc_allocator(NULL);
	const uint64_t n = 3 * BLOOM_EXACT_COUNT_MAX;
	BloomFilter st = new_hashlist(n, 0.01, &a),
				out;
	BloomMaterialized m;

	(void) state;
	/* a thousand distinct among many: counted exactly */
	for (uint64_t i = 0; i < n; i++)
		bloom_hashlist_set(&st, i, bloom_hash_int64(0, (int64_t) (i % 1000)));
	st.nhashes = st.nitems = n;
	bloom_write_header(&st);
	assert_int_equal(materialize(&st, false, &m, &out), BLOOM_OK);
	assert_int_equal(out.capacity, 1000);
	free(out.base);

	/* all distinct: sized for an estimate, never more than the hashes */
	for (uint64_t i = 0; i < n; i++)
		bloom_hashlist_set(&st, i, bloom_hash_int64(0, (int64_t) i));
	assert_int_equal(materialize(&st, false, &m, &out), BLOOM_OK);
	assert_true(out.capacity <= n);
	assert_true(out.capacity > n * 0.97);
	for (uint64_t i = 0; i < n; i++)
		assert_true(bloom_contains_hash(&out, bloom_hash_int64(0, (int64_t) i)));
	free(out.base);
	free(st.base);
}

/*
 * With an allocator laid out as the glue's (values 4 bytes into their
 * blocks, work arrays apart, each freed by its own function): the exact
 * and estimated counts, the retry, the dedup of a hash list that passes
 * its limit, and materialisation as a scalable filter take their scratch
 * and values from the right place and leave nothing behind.
 */
static void
test_materialize_tagged(void **state)
{
	long		counts[2] = {0, 0};
	BloomAlloc	a = tagged_allocator(counts);
	const uint64_t n = 3 * BLOOM_EXACT_COUNT_MAX;
	BloomFilter st = new_hashlist(n, 0.01, &a),
				out;
	BloomMaterialized m;
	BloomPlan	tiny = {.fpr = 0.01, .k = 7, .keys_per_block = 1e-6};	/* limit: 8 */
	uint8_t    *le = hashes_le(0, 64);
	uint64_t	distinct,
				limit;

	(void) state;
	for (int pass = 0; pass < 2; pass++)
	{
		/* pass 0: few distinct (exact count); pass 1: all distinct (estimate) */
		for (uint64_t i = 0; i < n; i++)
			bloom_hashlist_set(&st, i, bloom_hash_int64(0, (int64_t) (pass ? i : i % 1000)));
		st.nhashes = st.nitems = n;
		bloom_write_header(&st);
		for (int scalable = 0; scalable < 2; scalable++)
		{
			assert_int_equal(bloom_materialize(&st, scalable, NULL, &a, &m, &out), BLOOM_OK);
			assert_int_equal(counts[0], 2);	/* the state and the result */
			assert_int_equal(counts[1], 0);
			a.free(a.arg, out.base);
		}
	}
	a.free(a.arg, st.base);

	/* a hash list past its limit: gathered, sorted and deduplicated */
	st = new_hashlist(8, 0.01, &a);
	assert_int_equal(append(&st, le, 8, &tiny, &a, &distinct, &limit), BLOOM_OK);
	assert_int_equal(append(&st, le, 8, &tiny, &a, &distinct, &limit), BLOOM_OK);
	assert_int_equal(st.nhashes, 8);	/* the repeats went */
	assert_int_equal(append(&st, le + 64, 56, &tiny, &a, &distinct, &limit),
					 BLOOM_E_CAPACITY);
	assert_int_equal(counts[0], 1);
	assert_int_equal(counts[1], 0);
	a.free(a.arg, st.base);
	free(le);
	assert_int_equal(counts[0], 0);
}

/* A buffered state becomes a filter holding its bits and pending hashes */
static void
test_materialize_buffered(void **state)
{
	BloomPlan	plan = {0};
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter st,
				out;
	BloomMaterialized m;

	(void) state;
	for (int layer = 0; layer < 2; layer++)
	{
		assert_int_equal(bloom_new_buffered(1000, 0.01, layer, &plan, &a, &st), BLOOM_OK);
		bloom_store_key_class(&st, BLOOM_KEY_TEXT, 0);
		for (int64_t i = 0; i < 700; i++)
			bloom_buffered_push(&st, bloom_hash_int64(0, i));
		st.nitems = 700;
		bloom_store_items(&st);
		assert_true(st.npending > 0);

		assert_int_equal(materialize(&st, layer, &m, &out), BLOOM_OK);
		assert_int_equal(out.kind, layer ? BLOOM_KIND_SCALABLE : BLOOM_KIND_BLOCKED);
		assert_int_equal(out.capacity, 1000);
		assert_int_equal(out.nitems, 700);
		assert_true(out.fpr == 0.01);
		assert_int_equal(out.key_class, BLOOM_KEY_TEXT);
		assert_false(m.over_capacity);
		for (int64_t i = 0; i < 700; i++)
			assert_true(bloom_filter_contains(&out, bloom_hash_int64(0, i)));
		if (layer)
		{
			assert_int_equal(out.layers[0].nblocks, st.nblocks);
			assert_int_equal(out.layers[0].k, st.k);
		}
		else
			assert_int_equal(out.nblocks, st.nblocks);
		free(out.base);
		free(st.base);
	}

	/* a layer past its capacity: full, and the caller is told */
	assert_int_equal(bloom_new_buffered(100, 0.01, true, &plan, &a, &st), BLOOM_OK);
	for (int64_t i = 0; i < 1000; i++)
		bloom_buffered_push(&st, bloom_hash_int64(0, i));
	st.nitems = 1000;
	bloom_store_items(&st);
	assert_int_equal(materialize(&st, true, &m, &out), BLOOM_OK);
	assert_int_equal(out.nitems, 100);
	assert_true(m.over_capacity);
	assert_true(m.estimated_items > 500);
	assert_true(m.estimated_fpr > 0.01);
	free(out.base);
	free(st.base);
}

/* An empty hash list (no rows): the filter create-on-add would make */
static void
test_materialize_empty(void **state)
{
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter st = new_hashlist(0, 0.001, &a),
				out,
				fresh;
	BloomMaterialized m;
	BloomPlan	plan = {0};

	(void) state;
	assert_true(bloom_is_empty_hashlist(&st));
	assert_int_equal(materialize(&st, true, &m, &out), BLOOM_OK);
	assert_int_equal(bloom_new_scalable(BLOOM_CREATE_CAPACITY, 0.001, BLOOM_DEFAULT_EXPANSION,
										&plan, &a, &fresh), BLOOM_OK);
	assert_int_equal(bloom_value_size(&out), bloom_value_size(&fresh));
	assert_memory_equal(out.base, fresh.base, bloom_value_size(&out));
	assert_int_equal(out.capacity, BLOOM_CREATE_CAPACITY);
	assert_int_equal(out.expansion, BLOOM_DEFAULT_EXPANSION);
	assert_int_equal(out.nitems, 0);
	free(out.base);
	free(fresh.base);

	/* the key class is kept */
	bloom_store_key_class(&st, BLOOM_KEY_UUID, 0);
	assert_int_equal(materialize(&st, true, &m, &out), BLOOM_OK);
	assert_int_equal(out.key_class, BLOOM_KEY_UUID);
	free(out.base);

	/* 1.0: a blocked filter of capacity 1 */
	assert_int_equal(materialize(&st, false, &m, &out), BLOOM_OK);
	assert_int_equal(out.kind, BLOOM_KIND_BLOCKED);
	assert_int_equal(out.capacity, 1);
	assert_int_equal(out.nitems, 0);
	free(out.base);

	/* a rate no scalable filter can have: a fixed filter of that capacity */
	st.fpr = 1e-10;
	bloom_write_header(&st);
	assert_int_equal(materialize(&st, true, &m, &out), BLOOM_OK);
	assert_int_equal(out.kind, BLOOM_KIND_BLOCKED);
	assert_int_equal(out.flags, BLOOM_FLAG_NONSCALING);
	assert_int_equal(out.capacity, BLOOM_CREATE_CAPACITY);
	assert_int_equal(out.key_class, BLOOM_KEY_UUID);
	free(out.base);
	free(st.base);
}


int
unit_materialize_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_materialize_hashlist),
		cmocka_unit_test(test_materialize_many),
		cmocka_unit_test(test_materialize_tagged),
		cmocka_unit_test(test_materialize_buffered),
		cmocka_unit_test(test_materialize_empty),
	};

	return cmocka_run_group_tests_name("materialize", tests, NULL, NULL);
}
