/*
 * Unit tests of src/core/blocked.c and blocked.h: the blocked layout, the
 * rate at capacity, making, adding (fixed and 1.0 filters), union and
 * intersection, and the estimates from the bits.
 */
#include "unit.h"

/* Every key's bits fall inside one 64-byte block */
static void
test_layout_one_block(void **state)
{
	BloomFilter f;
	size_t		len;
	uint8_t    *buf = make_filter(100000, 0.01, &f, &len);

	(void) state;
	for (int64_t key = 0; key < 2000; key++)
	{
		uint64_t	h = bloom_hash_int64(0, key);
		int			touched = 0;
		int			bits = 0;

		memset(f.data, 0, len - BLOOM_HEADER_SIZE);
		bloom_insert_hash(&f, h);
		for (uint64_t b = 0; b < f.nblocks; b++)
		{
			int			n = 0;

			for (int i = 0; i < BLOOM_BLOCK_BYTES; i++)
				n += __builtin_popcount(f.data[b * BLOOM_BLOCK_BYTES + i]);
			if (n)
				touched++;
			bits += n;
		}
		assert_int_equal(touched, 1);
		assert_true(bits >= 1 && bits <= f.k);
		assert_true(bloom_contains_hash(&f, h));
	}
	free(buf);
}

/* No false negatives; measured rate at capacity at or under target */
static void
test_fpr_at_capacity(void **state)
{
	double		fprs[] = {0.1, 0.01, 0.001};

	(void) state;
	for (int t = 0; t < 3; t++)
	{
		BloomFilter f;
		size_t		len;
		uint64_t	n = 200000;
		uint8_t    *buf = make_filter(n, fprs[t], &f, &len);
		uint64_t	fp = 0,
					probes = 2000000;

		for (uint64_t i = 0; i < n; i++)
			bloom_insert_hash(&f, bloom_hash_int64(0, (int64_t) i));
		for (uint64_t i = 0; i < n; i++)
			assert_true(bloom_contains_hash(&f, bloom_hash_int64(0, (int64_t) i)));
		for (uint64_t i = 0; i < probes; i++)
			fp += bloom_contains_hash(&f, bloom_hash_int64(0, (int64_t) (i + (1ULL << 40))));
		print_message("fpr %g: measured %.5f\n", fprs[t], (double) fp / probes);
		/* at or under target, and not absurdly under (sizing sanity) */
		assert_true((double) fp / probes <= fprs[t]);
		assert_true((double) fp / probes >= fprs[t] * 0.6);
		/* the estimates follow the bits */
		assert_true(fabs(bloom_estimate_items(&f, NULL) - n) < n * 0.03);
		assert_true(bloom_estimate_fpr(&f, NULL) <= fprs[t] * 1.05);
		free(buf);
	}
}

static void
test_union_intersection(void **state)
{
	BloomFilter a,
				b,
				c;
	size_t		len;
	uint8_t    *ba = make_filter(10000, 0.01, &a, &len);
	uint8_t    *bb = make_filter(10000, 0.01, &b, &len);
	uint8_t    *bc = make_filter(20000, 0.01, &c, &len);

	(void) state;
	for (int64_t i = 0; i < 5000; i++)
		bloom_insert_hash(&a, bloom_hash_int64(0, i));
	for (int64_t i = 2500; i < 7500; i++)
		bloom_insert_hash(&b, bloom_hash_int64(0, i));
	assert_int_equal(bloom_compatible(&a, &b), BLOOM_PARAM_NONE);
	assert_int_equal(bloom_compatible(&a, &c), BLOOM_PARAM_CAPACITY);

	{
		uint64_t	nbytes = a.nblocks * BLOOM_BLOCK_BYTES;
		uint8_t    *u = malloc(nbytes),
				   *x = malloc(nbytes);
		BloomFilter fu = a,
					fx = a;

		memcpy(u, a.data, nbytes);
		memcpy(x, a.data, nbytes);
		fu.data = u;
		fx.data = x;
		bloom_union_bits(u, b.data, nbytes, NULL);
		bloom_intersect_bits(x, b.data, nbytes, NULL);
		for (int64_t i = 0; i < 7500; i++)
			assert_true(bloom_contains_hash(&fu, bloom_hash_int64(0, i)));
		for (int64_t i = 2500; i < 5000; i++)
			assert_true(bloom_contains_hash(&fx, bloom_hash_int64(0, i)));
		/* union estimates about 7500 distinct keys */
		assert_true(fabs(bloom_estimate_items(&fu, NULL) - 7500) < 300);
		free(u);
		free(x);
	}
	free(ba);
	free(bb);
	free(bc);
}

/* The constructor makes what bloom_init_blocked writes */
static void
test_new_blocked(void **state)
{
	BloomPlan	plan = {0};
	long		live = 0;
	BloomAlloc	a = malloc_allocator(&live);
	BloomFilter f;
	uint8_t    *buf;
	size_t		len;

	(void) state;
	assert_int_equal(bloom_new_blocked(12345, 0.05, 0, &plan, &a, &f), BLOOM_OK);
	assert_int_equal(live, 1);
	assert_int_equal(f.k, 4);
	assert_int_equal(f.nblocks, 154);	/* the golden geometry */
	len = bloom_blocked_size(f.nblocks);
	assert_int_equal(bloom_value_size(&f), len);
	buf = malloc(len);
	bloom_init_blocked(buf, f.nblocks, f.k, 12345, 0.05, 0);
	assert_memory_equal(buf, f.base, len);
	free(buf);
	a.free(a.arg, f.base);

	/* fixed (1.2): version 2 with its flag */
	assert_int_equal(bloom_new_blocked(100, 0.01, BLOOM_FLAG_NONSCALING, &plan, &a, &f), BLOOM_OK);
	assert_int_equal(f.version, BLOOM_FORMAT_VERSION_2);
	assert_int_equal(bloom_decode(f.base, bloom_value_size(&f), &f), BLOOM_OK);
	assert_int_equal(f.flags, BLOOM_FLAG_NONSCALING);
	a.free(a.arg, f.base);

	/* refused before anything is allocated */
	assert_int_equal(bloom_new_blocked(0, 0.01, 0, &plan, &a, &f), BLOOM_E_PARAMS);
	assert_int_equal(bloom_new_blocked(10, 0.7, 0, &plan, &a, &f), BLOOM_E_PARAMS);
	assert_int_equal(bloom_new_blocked(bloom_plan_max_capacity(&plan) + 1, 0.01, 0,
									   &plan, &a, &f), BLOOM_E_CAPACITY);
	assert_int_equal(live, 0);
}

/*
 * bloom_add on blocked filters: one of 1.0 takes every key and counts
 * repeats; a fixed one (NONSCALING) adds a present key as nothing and
 * refuses new keys past its capacity.  The header is written back.
 */
static void
test_blocked_add(void **state)
{
	BloomPlan	plan = {0};
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter f,
				g;
	bool		added;
	uint64_t	refused = 0;

	(void) state;
	assert_int_equal(bloom_new_blocked(10, 0.01, 0, &plan, &a, &f), BLOOM_OK);
	for (int64_t i = 0; i < 30; i++)
	{
		assert_int_equal(bloom_add(&f, bloom_hash_int64(0, i % 15), &plan, &a, &added), BLOOM_OK);
		assert_true(added);
	}
	assert_int_equal(f.nitems, 30);
	assert_int_equal(bloom_decode(f.base, bloom_value_size(&f), &g), BLOOM_OK);
	assert_int_equal(g.nitems, 30);
	free(f.base);

	assert_int_equal(bloom_new_blocked(10, 0.01, BLOOM_FLAG_NONSCALING, &plan, &a, &f), BLOOM_OK);
	for (int64_t i = 0; i < 10; i++)
	{
		assert_int_equal(bloom_add(&f, bloom_hash_int64(0, i), NULL, &a, &added), BLOOM_OK);
		assert_true(added);
		assert_int_equal(bloom_add(&f, bloom_hash_int64(0, i), NULL, &a, &added), BLOOM_OK);
		assert_false(added);	/* a repeat */
	}
	assert_int_equal(f.nitems, 10);
	for (int64_t i = 10; i < 1000; i++)
	{
		uint64_t	h = bloom_hash_int64(0, i);
		BloomStatus st = bloom_add(&f, h, NULL, &a, &added);

		assert_false(added);
		if (st == BLOOM_E_FULL)
			refused++;
		else
		{
			assert_int_equal(st, BLOOM_OK);	/* a false positive: "present" */
			assert_true(bloom_contains_hash(&f, h));
		}
	}
	assert_true(refused > 900);
	assert_int_equal(f.nitems, 10);
	assert_int_equal(bloom_decode(f.base, bloom_value_size(&f), &g), BLOOM_OK);
	assert_int_equal(g.nitems, 10);
	free(f.base);
}

/* bloom_merge of blocked filters: in place, bits and counts */
static void
test_blocked_merge(void **state)
{
	BloomFilter a,
				b,
				c;
	size_t		len;
	uint8_t    *ba = make_filter(1000, 0.01, &a, &len);
	uint8_t    *bb = make_filter(1000, 0.01, &b, &len);
	uint8_t    *bc = make_filter(1000, 0.01, &c, &len);
	BloomAlloc	al = malloc_allocator(NULL);
	uint8_t    *expect = malloc(len);

	(void) state;
	for (int64_t i = 0; i < 600; i++)
		bloom_insert_hash(&a, bloom_hash_int64(0, i));
	for (int64_t i = 300; i < 900; i++)
		bloom_insert_hash(&b, bloom_hash_int64(0, i));
	a.nitems = 600;
	b.nitems = 600;
	bloom_store_key_class(&b, BLOOM_KEY_INTEGER, 0);
	bloom_write_header(&a);
	bloom_write_header(&b);
	memcpy(c.data, a.data, len - BLOOM_HEADER_SIZE);
	c.nitems = a.nitems;
	bloom_write_header(&c);

	assert_int_equal(bloom_merge(&a, &b, false, &al), BLOOM_OK);
	assert_ptr_equal(a.base, ba);	/* in place */
	memcpy(expect, c.data, len - BLOOM_HEADER_SIZE);
	bloom_union_bits(expect, b.data, len - BLOOM_HEADER_SIZE, NULL);
	assert_memory_equal(a.data, expect, len - BLOOM_HEADER_SIZE);
	assert_int_equal(a.nitems, 1200);
	assert_int_equal(a.key_class, BLOOM_KEY_INTEGER);	/* taken from b */

	assert_int_equal(bloom_merge(&c, &b, true, &al), BLOOM_OK);
	for (int64_t i = 300; i < 600; i++)
		assert_true(bloom_contains_hash(&c, bloom_hash_int64(0, i)));
	assert_int_equal(c.nitems, 600);
	assert_int_equal(bloom_decode(ba, len, &a), BLOOM_OK);
	assert_int_equal(bloom_decode(bc, len, &c), BLOOM_OK);
	free(expect);
	free(ba);
	free(bb);
	free(bc);
}

/* Inserting many (prefetched) sets the bits one at a time would */
static void
test_insert_many(void **state)
{
	BloomFilter a,
				b;
	size_t		len;
	uint8_t    *ba = make_filter(5000, 0.01, &a, &len);
	uint8_t    *bb = make_filter(5000, 0.01, &b, &len);
	uint8_t    *le = malloc(5000 * 8);

	(void) state;
	for (int64_t i = 0; i < 5000; i++)
	{
		bloom_put_le64(le + 8 * i, bloom_hash_int64(3, i));
		bloom_insert_hash(&a, bloom_hash_int64(3, i));
	}
	bloom_insert_many(&b, le, 5000, NULL);
	assert_memory_equal(a.data, b.data, len - BLOOM_HEADER_SIZE);
	free(le);
	free(ba);
	free(bb);
}

/* What bloom_info shows of a blocked filter */
static void
test_blocked_describe(void **state)
{
	BloomFilter f;
	BloomInfo	info;
	size_t		len;
	uint8_t    *buf = make_filter(1000, 0.01, &f, &len);

	(void) state;
	for (int64_t i = 0; i < 500; i++)
		bloom_insert_hash(&f, bloom_hash_int64(0, i));
	bloom_describe(&f, &info, NULL);
	assert_string_equal(info.kind, "blocked");
	assert_int_equal(info.capacity, 1000);
	assert_int_equal(info.bits, f.nblocks * BLOOM_BLOCK_BITS);
	assert_int_equal(info.hashes, f.k);
	assert_int_equal(info.layers, 1);
	assert_int_equal(info.expansion, 0);
	assert_false(info.has_expansion);	/* 1.0 has no growth policy */
	assert_int_equal(info.bits_set, bloom_bits_set(&f, NULL));
	assert_true(fabs(info.estimated_items - 500) < 25);
	assert_true(info.estimated_fpr > 0 && info.estimated_fpr < 0.01);
	f.flags = BLOOM_FLAG_NONSCALING;
	bloom_describe(&f, &info, NULL);
	assert_true(info.has_expansion);
	free(buf);
}

int
unit_blocked_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_one_block),
		cmocka_unit_test(test_fpr_at_capacity),
		cmocka_unit_test(test_union_intersection),
		cmocka_unit_test(test_new_blocked),
		cmocka_unit_test(test_blocked_add),
		cmocka_unit_test(test_blocked_merge),
		cmocka_unit_test(test_insert_many),
		cmocka_unit_test(test_blocked_describe),
	};

	return cmocka_run_group_tests_name("blocked", tests, NULL, NULL);
}
