/*
 * Unit tests of src/core/hashlist.c, distinct.c and aggstate.c: hash lists
 * (kind 2) and buffered filters (kind 3), appending and pushing, distinct
 * counting, canonical bytes (kinds.c).  Materialisation is in
 * test_materialize.c.
 */
#include "unit.h"

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
	f.nhashes = 1;
	f.nitems = 1;
	bloom_write_header(&f);
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
	f.npending = 100;
	f.nitems = 100;
	bloom_write_header(&f);
	assert_int_equal(bloom_decode(buf, len, &f), BLOOM_OK);
	assert_false(bloom_contains_hash(&f, bloom_hash_int64(0, 5)));
	bloom_flush_pending(&f);
	assert_int_equal(bloom_decode(buf, len, &f), BLOOM_OK);
	assert_int_equal(f.npending, 0);
	for (int64_t i = 0; i < 100; i++)
		assert_true(bloom_contains_hash(&f, bloom_hash_int64(0, i)));
	bloom_put_le64(buf + 56, BLOOM_PENDING_SLOTS + 1);
	assert_int_equal(bloom_decode(buf, len, &f), BLOOM_E_COUNT);
	bloom_put_le64(buf + 56, 0);
	assert_int_equal(bloom_decode(buf, len - 8, &f), BLOOM_E_LENGTH);
	assert_int_equal(bloom_decode(buf, bloom_blocked_size(nb), &f), BLOOM_E_LENGTH);
	free(buf);
}

/*
 * bloom_new_buffered: 1.0's state is planned for the rate, and the largest
 * is unbuffered; 1.2's (layer) is planned as a first layer, flagged, and
 * refuses rates a scalable filter cannot have.  Every value it returns
 * decodes; the plan may be NULL.  (The unbuffered fallback of 1.0, for
 * states within 32 blocks of the largest value, needs 512 MB: not here.)
 */
static void
test_new_buffered(void **state)
{
	long		live = 0;
	BloomAlloc	a = malloc_allocator(&live);
	BloomPlan	plan = {0};
	BloomFilter f,
				g;

	(void) state;
	assert_int_equal(bloom_new_buffered(1000, 0.01, false, NULL, &a, &f), BLOOM_OK);
	assert_int_equal(f.kind, BLOOM_KIND_BUFFERED);
	assert_int_equal(f.version, BLOOM_FORMAT_VERSION);
	assert_int_equal(bloom_decode(f.base, bloom_value_size(&f), &g), BLOOM_OK);
	a.free(a.arg, f.base);

	assert_int_equal(bloom_new_buffered(1000, 0.01, true, &plan, &a, &f), BLOOM_OK);
	assert_int_equal(f.flags, BLOOM_FLAG_SCALABLE_STATE);
	assert_int_equal(f.version, BLOOM_FORMAT_VERSION_2);
	assert_true(plan.fpr == bloom_layer_fpr(0.01, 0));
	assert_int_equal(bloom_decode(f.base, bloom_value_size(&f), &g), BLOOM_OK);
	a.free(a.arg, f.base);

	/* under 1e-9 only a fixed filter can keep the rate: refused, nothing made */
	assert_int_equal(bloom_new_buffered(1000, 1e-10, true, NULL, &a, &f), BLOOM_E_PARAMS);
	assert_int_equal(bloom_new_buffered(0, 0.01, false, NULL, &a, &f), BLOOM_E_PARAMS);
	assert_int_equal(live, 0);

	/* a state larger than the largest value is refused before allocating */
	assert_int_equal(bloom_new_buffered(100000000, 1e-12, false, NULL, &a, &f),
					 BLOOM_E_CAPACITY);
	assert_int_equal(live, 0);
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
		est = bloom_estimate_distinct(le, n, scratch, NULL);
		if (cases[c].distinct <= 100000)
		{
			uint64_t   *table = malloc(262144 * 8);

			assert_int_equal(bloom_count_distinct(le, n, table, 262144, NULL), cases[c].distinct);
			assert_int_equal(bloom_count_distinct(le, n, table, 1024, NULL), UINT64_MAX);
			free(table);
		}
		print_message("n %zu distinct %zu estimate %.0f\n", n, cases[c].distinct, est);
		assert_true(fabs(est - cases[c].distinct) < cases[c].distinct * cases[c].tol);
		free(le);
		free(scratch);
	}
}


/* An empty hash list of nslots slots, from the allocator */
BloomFilter
new_hashlist(uint64_t nslots, double fpr, const BloomAlloc *a)
{
	BloomFilter f;
	uint8_t    *buf = a->alloc(a->arg, bloom_hashlist_size(nslots));

	bloom_init_hashlist(buf, nslots, 0, fpr, 0);
	assert_int_equal(bloom_decode(buf, bloom_hashlist_size(nslots), &f), BLOOM_OK);
	return f;
}

/* n hashes, little-endian, of keys first .. first + n - 1 */
uint8_t *
hashes_le(int64_t first, uint64_t n)
{
	uint8_t    *le = malloc(n * 8 + 1);

	for (uint64_t i = 0; i < n; i++)
		bloom_put_le64(le + 8 * i, bloom_hash_int64(0, first + (int64_t) i));
	return le;
}

/* bloom_hashlist_append with what the caller does: count, free the old */
BloomStatus
append(BloomFilter *f, const uint8_t *src, uint64_t n, BloomPlan *plan,
	   const BloomAlloc *a, uint64_t *distinct, uint64_t *limit)
{
	uint8_t    *old = f->base;
	BloomStatus st = bloom_hashlist_append(f, src, n, plan, a, distinct, limit);
	BloomFilter g;

	if (st != BLOOM_OK)
	{
		assert_ptr_equal(f->base, old);	/* nothing changed */
		return st;
	}
	if (f->base != old)
		a->free(a->arg, old);
	f->nitems = bloom_sat_add(f->nitems, n);
	bloom_store_items(f);
	assert_int_equal(bloom_decode(f->base, bloom_value_size(f), &g), BLOOM_OK);
	assert_int_equal(g.nhashes, f->nhashes);
	assert_int_equal(g.nslots, f->nslots);
	return st;
}

/*
 * bloom_hashlist_push, bloom_agg's per-row append: in place while there is
 * a free slot (the same bytes as bloom_hashlist_append of one hash), false
 * when full, and a list of no slots is always full.
 */
static void
test_hashlist_push(void **state)
{
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter f = new_hashlist(2, 0.01, &a),
				g = new_hashlist(2, 0.01, &a),
				none = new_hashlist(0, 0.01, &a);
	uint8_t		le[8];
	uint64_t	distinct,
				limit;

	(void) state;
	for (int i = 0; i < 2; i++)
	{
		assert_true(bloom_hashlist_push(&f, 40 + i));
		bloom_put_le64(le, 40 + i);
		assert_int_equal(bloom_hashlist_append(&g, le, 1, NULL, &a, &distinct, &limit), BLOOM_OK);
		assert_memory_equal(f.base, g.base, bloom_value_size(&f));
	}
	assert_int_equal(f.nhashes, 2);
	assert_false(bloom_hashlist_push(&f, 42));	/* full: unchanged */
	assert_int_equal(f.nhashes, 2);
	assert_int_equal(bloom_get_le64(f.base + 56), 2);
	assert_false(bloom_hashlist_push(&none, 1));
	assert_int_equal(none.nhashes, 0);
	free(f.base);
	free(g.base);
	free(none.base);
}

/*
 * Appending to a hash list: in place while it has room, else into a new
 * state half as large again (at least what is needed, at least 8 slots),
 * keeping the header's fields and every hash in order.
 */
static void
test_hashlist_append(void **state)
{
	BloomPlan	plan = {0},
				real;
	long		live = 0;
	BloomAlloc	a = malloc_allocator(&live);
	BloomFilter f = new_hashlist(8, 0.02, &a);
	uint8_t    *le = hashes_le(0, 200);
	uint8_t    *base = f.base;
	uint64_t	distinct = 0,
				limit = 0;

	(void) state;
	bloom_store_key_class(&f, BLOOM_KEY_INTEGER, 0);
	assert_int_equal(append(&f, le, 3, &plan, &a, &distinct, &limit), BLOOM_OK);
	assert_ptr_equal(f.base, base);
	assert_int_equal(f.nhashes, 3);
	assert_int_equal(bloom_get_le64(f.base + 56), 3);	/* the fill is stored */
	assert_int_equal(append(&f, le + 24, 5, &plan, &a, &distinct, &limit), BLOOM_OK);
	assert_ptr_equal(f.base, base);	/* exactly full: still in place */
	assert_int_equal(f.nhashes, 8);
	assert_int_equal(live, 1);

	/* one more: grows by half */
	assert_int_equal(append(&f, le + 64, 1, &plan, &a, &distinct, &limit), BLOOM_OK);
	assert_ptr_not_equal(f.base, base);
	assert_int_equal(live, 1);		/* the old state was the caller's to free */
	assert_int_equal(f.nslots, 12);
	assert_int_equal(f.nhashes, 9);
	assert_int_equal(f.nitems, 9);
	assert_true(f.fpr == 0.02);
	assert_int_equal(f.key_class, BLOOM_KEY_INTEGER);
	assert_int_equal(bloom_decode(f.base, bloom_value_size(&f), &f), BLOOM_OK);
	assert_int_equal(f.key_class, BLOOM_KEY_INTEGER);
	assert_memory_equal(f.data, le, 9 * 8);
	/* the limit: the largest filter at the state's rate, or the largest state */
	assert_int_equal(bloom_plan(0.02, &real), BLOOM_OK);
	assert_int_equal(limit, bloom_plan_max_capacity(&real) < BLOOM_HASHLIST_MAX_HASHES ?
					 bloom_plan_max_capacity(&real) : BLOOM_HASHLIST_MAX_HASHES);

	/* more than half again: grows to what is needed */
	assert_int_equal(append(&f, le + 72, 100, &plan, &a, &distinct, &limit), BLOOM_OK);
	assert_int_equal(f.nslots, 109);
	assert_int_equal(f.nhashes, 109);
	assert_memory_equal(f.data, le, 109 * 8);
	a.free(a.arg, f.base);

	/* an empty state of no slots grows to 8 */
	f = new_hashlist(0, 0.01, &a);
	assert_int_equal(append(&f, le, 1, &plan, &a, &distinct, &limit), BLOOM_OK);
	assert_int_equal(f.nslots, BLOOM_HASHLIST_MIN_SLOTS);
	assert_int_equal(f.nhashes, 1);
	a.free(a.arg, f.base);
	assert_int_equal(live, 0);
	free(le);
}

/*
 * Past the limit, repeats are removed first; too many distinct hashes is
 * BLOOM_E_CAPACITY with the count and the limit, the state unchanged.  The
 * limit comes from the plan, which the caller caches for the state's rate:
 * a plan with few keys per block makes it small enough to reach here.
 */
/*
 * Trimming keeps at most that many copies of each hash, sorted, and the
 * count of items added; a version 3 list (with a capacity) decodes as one
 */
static void
test_hashlist_trim(void **state)
{
	long		live = 0;
	BloomAlloc	a = malloc_allocator(&live);
	BloomFilter f = new_hashlist(8, 0.01, &a);
	const uint64_t in[] = {5, 3, 5, 5, 9, 5, 3, 5};
	const uint64_t want[] = {3, 3, 5, 5, 9};
	BloomFilter g;

	(void) state;
	for (int i = 0; i < 8; i++)
		assert_true(bloom_hashlist_push(&f, in[i]));
	f.nitems = 8;
	bloom_write_header(&f);
	assert_int_equal(bloom_hashlist_trim(&f, 2, &a), BLOOM_OK);
	assert_int_equal(f.nhashes, 5);
	for (int i = 0; i < 5; i++)
		assert_int_equal(bloom_hashlist_get(&f, i), want[i]);
	assert_int_equal(bloom_decode(f.base, bloom_hashlist_size(8), &g), BLOOM_OK);
	assert_int_equal(g.nhashes, 5);
	assert_int_equal(g.nitems, 8);
	/* a capacity: version 3, which bloomfilter refuses */
	f.version = BLOOM_FORMAT_VERSION_3;
	f.capacity = 1000;
	bloom_write_header(&f);
	assert_int_equal(bloom_decode(f.base, bloom_hashlist_size(8), &g), BLOOM_E_VERSION);
	assert_int_equal(bloom_decode_hashlist_any(f.base, bloom_hashlist_size(8), &g), BLOOM_OK);
	assert_int_equal(g.capacity, 1000);
	f.capacity = 0;
	bloom_write_header(&f);
	assert_int_equal(bloom_decode_hashlist_any(f.base, bloom_hashlist_size(8), &g), BLOOM_E_PARAMS);
	a.free(a.arg, f.base);
	assert_int_equal(live, 0);
}

static void
test_hashlist_limit(void **state)
{
	long		live = 0;
	BloomAlloc	a = malloc_allocator(&live);
	BloomFilter f = new_hashlist(8, 0.01, &a);
	BloomPlan	plan = {.fpr = 0.01, .k = 1, .keys_per_block = 1e-6};
	uint8_t    *le = hashes_le(0, 16);
	uint8_t    *base = f.base;
	uint64_t	distinct = 0,
				limit = 0,
				expect = bloom_plan_max_capacity(&plan);

	(void) state;
	assert_true(expect >= 8 && expect < 16);
	assert_int_equal(append(&f, le, 8, &plan, &a, &distinct, &limit), BLOOM_OK);
	/* the 9th distinct hash */
	assert_int_equal(append(&f, le + 64, expect - 7, &plan, &a, &distinct, &limit),
					 BLOOM_E_CAPACITY);
	assert_int_equal(distinct, expect + 1);
	assert_int_equal(limit, expect);
	assert_ptr_equal(f.base, base);
	assert_int_equal(f.nhashes, 8);
	assert_int_equal(live, 1);		/* the scratch space is freed */
	assert_int_equal(bloom_decode(f.base, bloom_value_size(&f), &f), BLOOM_OK);
	assert_int_equal(f.nhashes, 8);

	/* repeats only: the state keeps its distinct hashes, sorted */
	assert_int_equal(append(&f, le, 8, &plan, &a, &distinct, &limit), BLOOM_OK);
	assert_int_equal(distinct, 8);
	assert_int_equal(f.nhashes, 8);
	assert_int_equal(f.nslots, 12);
	assert_int_equal(f.nitems, 16);	/* rows are still counted */
	for (uint64_t i = 1; i < 8; i++)
		assert_true(bloom_hashlist_get(&f, i - 1) < bloom_hashlist_get(&f, i));
	for (uint64_t i = 0; i < 8; i++)
	{
		bool		found = false;

		for (uint64_t j = 0; j < 8; j++)
			found |= bloom_hashlist_get(&f, j) == bloom_get_le64(le + 8 * i);
		assert_true(found);
	}
	a.free(a.arg, f.base);
	assert_int_equal(live, 0);
	free(le);
}

/* Pushing to a buffered state: batches of 256, each hash found once flushed */
static void
test_buffered_push(void **state)
{
	BloomPlan	plan = {0};
	long		live = 0;
	BloomAlloc	a = malloc_allocator(&live);
	BloomFilter f,
				g;

	(void) state;
	assert_int_equal(bloom_new_buffered(1000, 0.01, false, &plan, &a, &f), BLOOM_OK);
	assert_int_equal(f.kind, BLOOM_KIND_BUFFERED);
	assert_int_equal(f.version, BLOOM_FORMAT_VERSION);
	assert_int_equal(f.nblocks, 20);	/* planned for the rate: 1000 at 1% */
	for (int64_t i = 0; i < BLOOM_PENDING_SLOTS; i++)
		bloom_buffered_push(&f, bloom_hash_int64(0, i));
	assert_int_equal(f.npending, BLOOM_PENDING_SLOTS);
	assert_int_equal(bloom_bits_set(&f, NULL), 0);	/* nothing inserted yet */
	bloom_buffered_push(&f, bloom_hash_int64(0, BLOOM_PENDING_SLOTS));
	assert_int_equal(f.npending, 1);
	for (int64_t i = 0; i < BLOOM_PENDING_SLOTS; i++)
		assert_true(bloom_contains_hash(&f, bloom_hash_int64(0, i)));
	f.nitems = BLOOM_PENDING_SLOTS + 1;
	bloom_store_items(&f);
	assert_int_equal(bloom_decode(f.base, bloom_value_size(&f), &g), BLOOM_OK);
	assert_int_equal(g.npending, 1);
	a.free(a.arg, f.base);

	/* 1.2's state: planned as a first layer, the target rate in the header */
	assert_int_equal(bloom_new_buffered(1000, 0.01, true, &plan, &a, &f), BLOOM_OK);
	assert_int_equal(f.version, BLOOM_FORMAT_VERSION_2);
	assert_int_equal(f.flags, BLOOM_FLAG_SCALABLE_STATE);
	assert_true(f.fpr == 0.01);
	assert_true(plan.fpr == bloom_layer_fpr(0.01, 0));
	assert_int_equal(f.k, plan.k);
	assert_int_equal(bloom_decode(f.base, bloom_value_size(&f), &g), BLOOM_OK);
	a.free(a.arg, f.base);
	/* too large to buffer as a layer: refused before allocating */
	assert_int_equal(bloom_new_buffered(bloom_scalable_max_first_layer(&plan), 0.01, true,
										&plan, &a, &f), BLOOM_E_CAPACITY);
	assert_int_equal(live, 0);
}

/* A buffered state united with a partial one takes its pending hashes */
static void
test_buffered_merge(void **state)
{
	BloomPlan	plan = {0};
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter x,
				y;

	(void) state;
	assert_int_equal(bloom_new_buffered(1000, 0.01, false, &plan, &a, &x), BLOOM_OK);
	assert_int_equal(bloom_new_buffered(1000, 0.01, false, &plan, &a, &y), BLOOM_OK);
	for (int64_t i = 0; i < 200; i++)
		bloom_buffered_push(&x, bloom_hash_int64(0, i));
	for (int64_t i = 200; i < 500; i++)
		bloom_buffered_push(&y, bloom_hash_int64(0, i));
	x.nitems = 200;
	y.nitems = 300;
	bloom_write_header(&x);
	bloom_write_header(&y);
	assert_int_equal(bloom_merge(&x, &y, true, &a), BLOOM_E_KIND);
	assert_int_equal(bloom_merge(&x, &y, false, &a), BLOOM_OK);
	assert_int_equal(x.nitems, 500);
	bloom_flush_pending(&x);
	for (int64_t i = 0; i < 500; i++)
		assert_true(bloom_contains_hash(&x, bloom_hash_int64(0, i)));
	assert_int_equal(bloom_decode(x.base, bloom_value_size(&x), &x), BLOOM_OK);
	free(x.base);
	free(y.base);
}


/*
 * Canonical bytes: a hash list without its spare slots, a buffered
 * state with its spare pending slots zero; filters as they are.
 */
static void
test_canonical(void **state)
{
	BloomPlan	plan = {0};
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter st = new_hashlist(8, 0.01, &a),
				c,
				b;
	uint8_t    *out;
	size_t		len;

	(void) state;
	for (uint64_t i = 0; i < 3; i++)
		bloom_hashlist_set(&st, i, 100 + i);
	bloom_hashlist_set(&st, 5, 77);	/* a spare slot, past the hashes */
	st.nhashes = st.nitems = 3;
	bloom_write_header(&st);
	assert_false(bloom_is_canonical(&st));
	len = bloom_canonical_size(&st);
	assert_int_equal(len, bloom_hashlist_size(3));
	out = malloc(len);
	bloom_canonical_write(&st, out);
	assert_int_equal(bloom_decode(out, len, &c), BLOOM_OK);
	assert_int_equal(c.nslots, 3);
	assert_int_equal(c.nhashes, 3);
	assert_int_equal(c.nitems, 3);
	assert_memory_equal(c.data, st.data, 3 * 8);
	assert_true(bloom_is_canonical(&c));
	assert_int_equal(bloom_canonical_size(&c), len);
	free(out);
	free(st.base);

	/* buffered: flushed pending slots still hold their hashes */
	assert_int_equal(bloom_new_buffered(100, 0.01, false, &plan, &a, &b), BLOOM_OK);
	assert_true(bloom_is_canonical(&b));
	for (int64_t i = 0; i < 5; i++)
		bloom_buffered_push(&b, bloom_hash_int64(0, i));
	b.nitems = 5;
	bloom_store_items(&b);
	assert_true(bloom_is_canonical(&b));
	bloom_flush_pending(&b);
	bloom_buffered_push(&b, bloom_hash_int64(0, 5));
	assert_false(bloom_is_canonical(&b));	/* slots 1..4 are stale */
	len = bloom_canonical_size(&b);
	assert_int_equal(len, bloom_value_size(&b));
	out = malloc(len);
	bloom_canonical_write(&b, out);
	assert_int_equal(bloom_decode(out, len, &c), BLOOM_OK);
	assert_true(bloom_is_canonical(&c));
	assert_int_equal(c.npending, 1);
	assert_memory_equal(out, b.base, len - 8 * (BLOOM_PENDING_SLOTS - 1));
	free(out);
	free(b.base);

	/* a blocked filter is its own canonical form */
	assert_int_equal(bloom_new_blocked(100, 0.01, 0, &plan, &a, &b), BLOOM_OK);
	assert_true(bloom_is_canonical(&b));
	assert_int_equal(bloom_canonical_size(&b), bloom_value_size(&b));
	free(b.base);
}

int
unit_aggstate_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hashlist_validation),
		cmocka_unit_test(test_buffered),
		cmocka_unit_test(test_new_buffered),
		cmocka_unit_test(test_unique),
		cmocka_unit_test(test_estimate_distinct),
		cmocka_unit_test(test_hashlist_push),
		cmocka_unit_test(test_hashlist_append),
		cmocka_unit_test(test_hashlist_limit),
		cmocka_unit_test(test_hashlist_trim),
		cmocka_unit_test(test_buffered_push),
		cmocka_unit_test(test_buffered_merge),
		cmocka_unit_test(test_canonical),
	};

	return cmocka_run_group_tests_name("aggstate", tests, NULL, NULL);
}
