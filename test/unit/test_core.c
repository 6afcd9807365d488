/*
 * C unit tests of the bloomtype core (cmocka): sizing maths, layout,
 * header validation, hashing, set operations, estimates and sorting.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <math.h>
#include <cmocka.h>

#include "bloom_core.h"

static uint8_t *
make_filter(uint64_t capacity, double fpr, BloomFilter *f, size_t *len)
{
	BloomPlan	plan;
	uint64_t	nblocks;
	uint8_t    *buf;

	assert_int_equal(bloom_plan(fpr, &plan), BLOOM_OK);
	assert_int_equal(bloom_plan_size(&plan, capacity, &nblocks), BLOOM_OK);
	*len = bloom_blocked_size(nblocks);
	buf = malloc(*len);
	assert_non_null(buf);
	bloom_init_blocked(buf, nblocks, plan.k, capacity, fpr, 0);
	assert_int_equal(bloom_decode(buf, *len, f), BLOOM_OK);
	return buf;
}

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
		for (uint64_t b = 0; b < f.nslots; b++)
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
		assert_true(fabs(bloom_estimate_items(&f) - n) < n * 0.03);
		assert_true(bloom_estimate_fpr(&f) <= fprs[t] * 1.05);
		free(buf);
	}
}

static void
test_decode_validation(void **state)
{
	BloomFilter f,
				g;
	size_t		len;
	uint8_t    *buf = make_filter(1000, 0.01, &f, &len);
	uint8_t    *copy = malloc(len + 64);

	(void) state;
#define CHECK_FIELD(off, val, expect) \
	do { \
		memcpy(copy, buf, len); \
		copy[off] = (val); \
		assert_int_equal(bloom_decode(copy, len, &g), expect); \
	} while (0)

	for (size_t cut = 0; cut < BLOOM_HEADER_SIZE; cut++)
		assert_int_equal(bloom_decode(buf, cut, &g), BLOOM_E_SHORT);
	assert_int_equal(bloom_decode(buf, len - 1, &g), BLOOM_E_LENGTH);
	memcpy(copy, buf, len);
	assert_int_equal(bloom_decode(copy, len + 1, &g), BLOOM_E_LENGTH);

	CHECK_FIELD(0, 'X', BLOOM_E_MAGIC);
	CHECK_FIELD(3, 'G', BLOOM_E_MAGIC);
	CHECK_FIELD(4, 2, BLOOM_E_FLAGS);	/* version 2 of kind 1 needs its flag */
	CHECK_FIELD(4, 3, BLOOM_E_VERSION);
	CHECK_FIELD(4, 0, BLOOM_E_VERSION);
	CHECK_FIELD(5, 0, BLOOM_E_KIND);
	CHECK_FIELD(5, 9, BLOOM_E_KIND);
	CHECK_FIELD(6, 2, BLOOM_E_HASH);
	CHECK_FIELD(7, 7, BLOOM_E_KEYCLASS);
	CHECK_FIELD(7, BLOOM_KEY_OTHER, BLOOM_E_KEYCLASS); /* other needs a type */
	CHECK_FIELD(8, 1, BLOOM_E_KEYCLASS);	/* a type without class other */
	CHECK_FIELD(12, 0, BLOOM_E_GEOMETRY);
	CHECK_FIELD(12, 33, BLOOM_E_GEOMETRY);
	CHECK_FIELD(13, 8, BLOOM_E_GEOMETRY);
	CHECK_FIELD(14, 1, BLOOM_E_FLAGS);
	CHECK_FIELD(15, 0x80, BLOOM_E_FLAGS);
	CHECK_FIELD(56, 1, BLOOM_E_FLAGS);	/* reserved for blocked filters */
	CHECK_FIELD(48, 0, BLOOM_E_GEOMETRY);	/* 0 blocks (1000 keys < 256) */
	CHECK_FIELD(55, 1, BLOOM_E_GEOMETRY);	/* absurd block count */
	CHECK_FIELD(49, 1, BLOOM_E_LENGTH); /* block count lies about length */
	CHECK_FIELD(39, 0x7F, BLOOM_E_PARAMS);	/* fpr becomes huge or NaN */
	CHECK_FIELD(39, 0xBF, BLOOM_E_PARAMS);	/* negative fpr */

	/* capacity 0 and capacity beyond the bits */
	memcpy(copy, buf, len);
	bloom_put_le64(copy + 24, 0);
	assert_int_equal(bloom_decode(copy, len, &g), BLOOM_E_PARAMS);
	bloom_put_le64(copy + 24, f.nslots * BLOOM_BLOCK_BITS + 1);
	assert_int_equal(bloom_decode(copy, len, &g), BLOOM_E_PARAMS);

	assert_int_equal(bloom_decode(buf, len, &g), BLOOM_OK);
	free(copy);
	free(buf);
}

static void
test_hashlist_validation(void **state)
{
	uint8_t		buf[BLOOM_HEADER_SIZE + 8 * 8];
	BloomFilter f;

	(void) state;
	bloom_init_hashlist(buf, 8, 0, 0.01, 0);
	assert_int_equal(bloom_decode(buf, sizeof(buf), &f), BLOOM_OK);
	assert_int_equal(f.kind, BLOOM_KIND_HASHLIST);
	bloom_hashlist_set(&f, 0, 42);
	f.nused = 1;
	f.nitems = 1;
	bloom_write_header(buf, &f);
	assert_int_equal(bloom_decode(buf, sizeof(buf), &f), BLOOM_OK);
	assert_int_equal(bloom_hashlist_get(&f, 0), 42);

	bloom_put_le64(buf + 56, 9);	/* more used than slots */
	assert_int_equal(bloom_decode(buf, sizeof(buf), &f), BLOOM_E_COUNT);
	bloom_put_le64(buf + 56, 2);	/* more used than items */
	assert_int_equal(bloom_decode(buf, sizeof(buf), &f), BLOOM_E_COUNT);
	bloom_put_le64(buf + 56, 1);
	buf[12] = 3;				/* hash lists have no k */
	assert_int_equal(bloom_decode(buf, sizeof(buf), &f), BLOOM_E_GEOMETRY);
	buf[12] = 0;
	assert_int_equal(bloom_decode(buf, sizeof(buf) - 8, &f), BLOOM_E_LENGTH);
}

/* A buffered filter: pending hashes are found once flushed, counts checked */
static void
test_buffered(void **state)
{
	BloomPlan	plan;
	uint64_t	nb;
	size_t		len;
	uint8_t    *buf;
	BloomFilter f;

	(void) state;
	bloom_plan(0.01, &plan);
	bloom_plan_size(&plan, 1000, &nb);
	len = bloom_buffered_size(nb);
	buf = malloc(len);
	bloom_init_buffered(buf, nb, plan.k, 1000, 0.01, 0);
	assert_int_equal(bloom_decode(buf, len, &f), BLOOM_OK);
	assert_int_equal(f.kind, BLOOM_KIND_BUFFERED);
	for (int64_t i = 0; i < 100; i++)
		bloom_put_le64(bloom_pending(&f) + 8 * i, bloom_hash_int64(0, i));
	f.nused = 100;
	f.nitems = 100;
	bloom_write_header(buf, &f);
	assert_int_equal(bloom_decode(buf, len, &f), BLOOM_OK);
	assert_false(bloom_contains_hash(&f, bloom_hash_int64(0, 5)));
	bloom_flush_pending(buf, &f);
	assert_int_equal(bloom_decode(buf, len, &f), BLOOM_OK);
	assert_int_equal(f.nused, 0);
	for (int64_t i = 0; i < 100; i++)
		assert_true(bloom_contains_hash(&f, bloom_hash_int64(0, i)));
	bloom_put_le64(buf + 56, BLOOM_PENDING_SLOTS + 1);
	assert_int_equal(bloom_decode(buf, len, &f), BLOOM_E_COUNT);
	bloom_put_le64(buf + 56, 0);
	assert_int_equal(bloom_decode(buf, len - 8, &f), BLOOM_E_LENGTH);
	assert_int_equal(bloom_decode(buf, bloom_blocked_size(nb), &f), BLOOM_E_LENGTH);
	free(buf);
}

/* Integer keys hash as 8 little-endian bytes; -0.0 and NaN normalised */
static void
test_hash_encoding(void **state)
{
	uint8_t		le[8] = {0x2A, 0, 0, 0, 0, 0, 0, 0};
	uint8_t		neg[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

	(void) state;
	assert_true(bloom_hash_int64(0, 42) == bloom_hash_bytes(0, le, 8));
	assert_true(bloom_hash_int64(0, -1) == bloom_hash_bytes(0, neg, 8));
	assert_true(bloom_hash_int64(0, 42) != bloom_hash_int64(1, 42));
	assert_true(bloom_hash_float8(0, 0.0) == bloom_hash_float8(0, -0.0));
	assert_true(bloom_hash_float8(0, NAN) == bloom_hash_float8(0, -NAN));
	assert_true(bloom_hash_float8(0, 1.0) != bloom_hash_float8(0, 2.0));
	/* pinned value: XXH3-64 of "" with seed 0 (from the xxHash spec) */
	assert_true(bloom_hash_bytes(0, "", 0) == UINT64_C(0x2D06800538D394C2));
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
	const char *what;

	(void) state;
	for (int64_t i = 0; i < 5000; i++)
		bloom_insert_hash(&a, bloom_hash_int64(0, i));
	for (int64_t i = 2500; i < 7500; i++)
		bloom_insert_hash(&b, bloom_hash_int64(0, i));
	assert_int_equal(bloom_compatible(&a, &b, &what), BLOOM_OK);
	assert_int_equal(bloom_compatible(&a, &c, &what), BLOOM_E_MISMATCH);
	assert_string_equal(what, "capacity");

	{
		uint64_t	nbytes = a.nslots * BLOOM_BLOCK_BYTES;
		uint8_t    *u = malloc(nbytes),
				   *x = malloc(nbytes);
		BloomFilter fu = a,
					fx = a;

		memcpy(u, a.data, nbytes);
		memcpy(x, a.data, nbytes);
		fu.data = u;
		fx.data = x;
		bloom_union_bits(u, b.data, nbytes);
		bloom_intersect_bits(x, b.data, nbytes);
		for (int64_t i = 0; i < 7500; i++)
			assert_true(bloom_contains_hash(&fu, bloom_hash_int64(0, i)));
		for (int64_t i = 2500; i < 5000; i++)
			assert_true(bloom_contains_hash(&fx, bloom_hash_int64(0, i)));
		/* union estimates about 7500 distinct keys */
		assert_true(fabs(bloom_estimate_items(&fu) - 7500) < 300);
		free(u);
		free(x);
	}
	free(ba);
	free(bb);
	free(bc);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *) a,
				y = *(const uint64_t *) b;

	return x < y ? -1 : (x > y ? 1 : 0);
}

static void
test_unique(void **state)
{
	size_t		n = 100000;
	uint64_t   *a = malloc(n * 8);
	uint64_t	x = 88172645463325252ULL;

	(void) state;
	for (size_t i = 0; i < n; i++)
	{
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		a[i] = (i % 4 == 3) ? a[i - 1] : x; /* a quarter are repeats */
	}
	qsort(a, n, 8, cmp_u64);
	assert_int_equal(bloom_unique_u64(a, n), n - n / 4);
	for (size_t i = 0; i < 1000; i++)
		a[i] = 7;
	assert_int_equal(bloom_unique_u64(a, 1000), 1);
	free(a);
}

/*
 * The distinct estimate: within 0.3% by linear counting (up to 2^22
 * hashes), within 2% (five standard errors) by HyperLogLog above.
 */
static void
test_estimate_distinct(void **state)
{
	struct
	{
		size_t		n,
					distinct;
		double		tol;
	}			cases[] = {{70000, 70000, 0.003}, {200000, 50000, 0.003},
				   {4000000, 4000000, 0.003}, {6000000, 6000000, 0.02},
				   {6000000, 1500000, 0.02}};

	(void) state;
	for (int c = 0; c < 5; c++)
	{
		size_t		n = cases[c].n;
		uint8_t    *le = malloc(n * 8);
		uint8_t    *scratch = malloc(bloom_estimate_scratch(n));
		double		est;

		for (size_t i = 0; i < n; i++)
			bloom_put_le64(le + 8 * i, bloom_hash_int64(0, (int64_t) (i % cases[c].distinct)));
		est = bloom_estimate_distinct(le, n, scratch);
		if (cases[c].distinct <= 100000)
		{
			uint64_t   *table = malloc(262144 * 8);

			assert_int_equal(bloom_count_distinct(le, n, table, 262144), cases[c].distinct);
			assert_int_equal(bloom_count_distinct(le, n, table, 1024), UINT64_MAX);
			free(table);
		}
		print_message("n %zu distinct %zu estimate %.0f\n", n, cases[c].distinct, est);
		assert_true(fabs(est - cases[c].distinct) < cases[c].distinct * cases[c].tol);
		free(le);
		free(scratch);
	}
}


/* ---------------------------------------------------------------------
 * Scalable filters
 * ---------------------------------------------------------------------
 */

/* A scalable filter for (capacity, fpr, expansion), grown by n keys */
typedef struct Grown
{
	uint8_t    *buf;
	size_t		len;
	BloomFilter f;
} Grown;

static void
grow_new(Grown *g, uint64_t capacity, double fpr, unsigned expansion)
{
	BloomPlan	plan;
	uint64_t	nb;

	assert_int_equal(bloom_plan(bloom_layer_fpr(fpr, 0), &plan), BLOOM_OK);
	assert_int_equal(bloom_plan_size(&plan, capacity, &nb), BLOOM_OK);
	g->len = bloom_scalable_size(1, nb);
	g->buf = malloc(g->len);
	bloom_init_scalable(g->buf, capacity, fpr, expansion, 0, nb, plan.k);
	assert_int_equal(bloom_decode(g->buf, g->len, &g->f), BLOOM_OK);
}

static BloomStatus
grow_add(Grown *g, uint64_t h)
{
	if (bloom_scalable_contains(&g->f, h))
		return BLOOM_OK;
	if (bloom_scalable_full(&g->f))
	{
		BloomPlan	plan;
		uint64_t	cap,
					nb;
		BloomStatus st = bloom_scalable_next_layer(&g->f, &plan, &cap, &nb);
		size_t		len;
		uint8_t    *buf;

		if (st != BLOOM_OK)
			return st;
		len = bloom_scalable_size(g->f.nslots + 1, bloom_scalable_blocks(&g->f) + nb);
		buf = malloc(len);
		bloom_scalable_append_layer(buf, &g->f, cap, nb, plan.k);
		free(g->buf);
		g->buf = buf;
		g->len = len;
		assert_int_equal(bloom_decode(g->buf, g->len, &g->f), BLOOM_OK);
	}
	bloom_scalable_insert(&g->f, h);
	bloom_write_header(g->buf, &g->f);
	return BLOOM_OK;
}

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
		assert_int_equal(g.f.nslots, 7);
		for (uint64_t i = 0; i < n; i++)
			assert_true(bloom_scalable_contains(&g.f, bloom_hash_int64(7, (int64_t) i)));
		for (uint64_t i = 0; i < probes; i++)
			fp += bloom_scalable_contains(&g.f, bloom_hash_int64(7, -1 - (int64_t) i));
		print_message("scalable fpr %g: measured %.5f, estimated %.5f\n", fpr,
					  (double) fp / probes, bloom_estimate_fpr(&g.f));
		assert_true((double) fp / probes <= fpr);
		assert_true(fabs(bloom_estimate_fpr(&g.f) - (double) fp / probes) < fpr * 0.1);

		assert_int_equal(bloom_plan(fpr, &fixed), BLOOM_OK);
		assert_int_equal(bloom_plan_size(&fixed, 1000, &nb_fixed), BLOOM_OK);
		assert_int_equal(bloom_plan_size(&fixed, n, &nb_exact), BLOOM_OK);
		assert_true(nb_first <= 1.25 * nb_fixed);
		assert_true(bloom_scalable_blocks(&g.f) <= 2.5 * nb_exact);
		free(g.buf);
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
	for (uint64_t i = 0; i < 200 && g.f.nslots < BLOOM_MAX_LAYERS; i++)
		assert_int_equal(grow_add(&g, bloom_hash_int64(0, (int64_t) i)), BLOOM_OK);
	assert_int_equal(g.f.nslots, BLOOM_MAX_LAYERS);
	while (!bloom_scalable_full(&g.f))
		grow_add(&g, bloom_hash_int64(1, (int64_t) g.f.nitems));
	assert_int_equal(bloom_scalable_next_layer(&g.f, &plan, &cap, &nb), BLOOM_E_CAPACITY);
	free(g.buf);

	/* a first layer so large that the second cannot fit in 512 MB */
	grow_new(&g, 100000000, 0.01, 16);
	assert_int_equal(bloom_scalable_next_layer(&g.f, &plan, &cap, &nb), BLOOM_E_CAPACITY);
	free(g.buf);
}

/* Every field of a two-layer value is checked */
static void
test_scalable_decode(void **state)
{
	Grown		g;
	BloomFilter h;
	uint8_t    *copy;

	(void) state;
	grow_new(&g, 10, 0.01, 2);
	for (uint64_t i = 0; i < 15; i++)
		grow_add(&g, bloom_hash_int64(0, (int64_t) i));
	assert_int_equal(g.f.nslots, 2);
	copy = malloc(g.len + 8);
#define SCHECK(off, val, expect) \
	do { \
		memcpy(copy, g.buf, g.len); \
		copy[off] = (val); \
		assert_int_equal(bloom_decode(copy, g.len, &h), expect); \
	} while (0)
	for (size_t cut = 0; cut < g.len; cut++)
		assert_int_not_equal(bloom_decode(g.buf, cut, &h), BLOOM_OK);
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
	memcpy(copy, g.buf, g.len);
	assert_int_equal(bloom_decode(copy, g.len + 1, &h), BLOOM_E_LENGTH);
	free(copy);
	free(g.buf);
}

/* Union layer by layer: every key of both, the layers of the larger */
static void
test_scalable_union(void **state)
{
	Grown		a,
				b;
	BloomFilter u;
	const char *what;
	size_t		len;
	uint8_t    *buf;

	(void) state;
	grow_new(&a, 100, 0.01, 2);
	grow_new(&b, 100, 0.01, 2);
	for (uint64_t i = 0; i < 700; i++)
		grow_add(&a, bloom_hash_int64(0, (int64_t) i));
	for (uint64_t i = 1000; i < 1150; i++)
		grow_add(&b, bloom_hash_int64(0, (int64_t) i));
	assert_int_equal(bloom_compatible(&a.f, &b.f, &what), BLOOM_OK);
	len = bloom_scalable_union_size(&b.f, &a.f);
	buf = malloc(len);
	bloom_scalable_union(buf, &b.f, &a.f);
	assert_int_equal(bloom_decode(buf, len, &u), BLOOM_OK);
	assert_int_equal(u.nslots, a.f.nslots);
	assert_int_equal(u.nitems, a.f.nitems + b.f.nitems);
	for (uint64_t i = 0; i < 700; i++)
		assert_true(bloom_scalable_contains(&u, bloom_hash_int64(0, (int64_t) i)));
	for (uint64_t i = 1000; i < 1150; i++)
		assert_true(bloom_scalable_contains(&u, bloom_hash_int64(0, (int64_t) i)));
	free(buf);

	/* another expansion does not combine */
	b.f.nused = 4;
	assert_int_equal(bloom_compatible(&a.f, &b.f, &what), BLOOM_E_MISMATCH);
	assert_string_equal(what, "expansion");
	b.f.nused = 2;
	b.f.layers[0].k++;
	assert_int_equal(bloom_compatible(&a.f, &b.f, &what), BLOOM_E_MISMATCH);
	assert_string_equal(what, "layer geometry");
	free(a.buf);
	free(b.buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizing_bits_per_key),
		cmocka_unit_test(test_model_monotone),
		cmocka_unit_test(test_plan_rejects_bad_rates),
		cmocka_unit_test(test_plan_matches_exhaustive),
		cmocka_unit_test(test_sizing_golden),
		cmocka_unit_test(test_max_capacity),
		cmocka_unit_test(test_layout_one_block),
		cmocka_unit_test(test_fpr_at_capacity),
		cmocka_unit_test(test_decode_validation),
		cmocka_unit_test(test_hashlist_validation),
		cmocka_unit_test(test_buffered),
		cmocka_unit_test(test_hash_encoding),
		cmocka_unit_test(test_union_intersection),
		cmocka_unit_test(test_unique),
		cmocka_unit_test(test_estimate_distinct),
		cmocka_unit_test(test_schedule),
		cmocka_unit_test(test_scalable_growth),
		cmocka_unit_test(test_scalable_limits),
		cmocka_unit_test(test_scalable_decode),
		cmocka_unit_test(test_scalable_union),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
