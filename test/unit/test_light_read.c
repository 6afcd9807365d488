/*
 * Reading compact values without building the filter they stand for:
 * countingbloom's light states (kind 8, src/core/counting_light.c) and
 * cuckoofilter's hash lists with a capacity (kind 2, version 3,
 * src/core/cuckoo_list.c).  The rule: every answer (contains, count, the
 * info fields) equals the materialised filter's, exactly, over random
 * states of several seeds and geometries, with repeats and saturation.
 */
#include "unit.h"
#include "cuckoo_impl.h"

/*
 * A light state of counting_agg(key, capacity, fpr) holding n hashes
 * (each repeated up to reps times, so that counters saturate), up to the
 * limit of hashes a light state holds
 */
static BloomFilter
light_state(uint64_t capacity, double fpr, uint64_t n, unsigned reps, uint64_t *seed,
			const BloomAlloc *a)
{
	BloomFilter f;
	uint64_t	limit;
	uint8_t    *src;
	uint64_t	m = 0;
	BloomPlan	plan = {0};

	assert_int_equal(counting_new_sparse(capacity, fpr, &plan, a, &f), BLOOM_OK);
	limit = f.nblocks * COUNTING_BLOCK_BYTES / 8;
	if (n > limit)
		n = limit;
	src = malloc(8 * (n + 1));
	while (m < n)
	{
		uint64_t	h = rng(seed);
		unsigned	r = 1 + (unsigned) (rng(seed) % reps);

		for (unsigned i = 0; i < r && m < n; i++)
			bloom_put_le64(src + 8 * m++, h);
	}
	assert_int_equal(counting_sparse_append(&f, src, n, a), BLOOM_OK);
	assert_int_equal(f.kind, BLOOM_KIND_SPARSE_COUNTING);
	f.nitems = n;
	bloom_write_header(&f);
	free(src);
	return f;
}

static void
test_counting_light_reads(void **ctx)
{
	static const struct
	{
		uint64_t	capacity;
		double		fpr;
		uint64_t	n;
		unsigned	reps;
	}			geo[] = {
		{1, 0.01, 40, 20}, {10, 0.01, 400, 3}, {100, 0.001, 5000, 1},
		{1000, 0.05, 3000, 16}, {100000, 0.01, 2000, 2}, {5000000, 0.0001, 4000, 1},
	};
	BloomAlloc	a = malloc_allocator(NULL);

	(void) ctx;
	for (unsigned g = 0; g < sizeof(geo) / sizeof(geo[0]); g++)
		for (uint64_t seed0 = 1; seed0 <= 4; seed0++)
		{
			uint64_t	seed = seed0 * 7919 + g;
			BloomFilter l = light_state(geo[g].capacity, geo[g].fpr, geo[g].n, geo[g].reps,
										&seed, &a);
			BloomFilter d = l,
						s = l;
			size_t		len = BLOOM_HEADER_SIZE + 8 * l.nslots;
			uint8_t    *copy = malloc(len);
			CountingInfo di,
						li;
			uint64_t	held = l.nhashes;

			memcpy(copy, l.base, len);
			assert_int_equal(counting_sparse_decode(copy, len, &s), BLOOM_OK);
			assert_int_equal(counting_sparse_densify(&d, &a), BLOOM_OK);
			assert_int_equal(counting_light_sort(&s, &a), BLOOM_OK);
			assert_true(counting_light_sorted(&s));
			for (uint64_t i = 0; i < held + 20000; i++)
			{
				/* the hashes held, then absent ones */
				uint64_t	h = i < held ? bloom_get_le64(l.data + 8 * i) : rng(&seed);

				assert_int_equal(counting_light_contains(&s, h), counting_contains(&d, h));
				assert_int_equal(counting_light_count(&s, h), counting_count(&d, h));
				if (i < held)
					assert_true(counting_light_contains(&s, h));
			}
			counting_describe(&d, &di, NULL);
			counting_light_describe(&s, &li, NULL);
			assert_int_equal(li.counters, di.counters);
			assert_int_equal(li.counters_set, di.counters_set);
			assert_int_equal(li.saturated, di.saturated);
			assert_int_equal(li.max_counter, di.max_counter);
			assert_true(li.estimated_items == di.estimated_items);
			assert_true(li.estimated_fpr == di.estimated_fpr);
			if (geo[g].reps >= 16)
				assert_true(di.saturated > 0);
			{
				size_t		blen = bloom_blocked_size(l.nblocks);
				uint8_t    *b1 = malloc(blen),
						   *b2 = malloc(blen);
				BloomFilter o1,
							o2;

				counting_to_bloom(&d, b1, &o1);
				counting_light_to_bloom(&s, b2, &o2);
				assert_memory_equal(b1, b2, blen);
				free(b1);
				free(b2);
			}
			free(copy);
			free(d.base);
			free(l.base);
		}
}

/* The geometry a 64-byte value describes: no hashes, the largest blocks */
static void
test_counting_light_empty_largest(void **ctx)
{
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter l;
	CountingInfo li;
	uint64_t	seed = 5;
	BloomPlan	plan = {0};

	(void) ctx;
	assert_int_equal(counting_new_sparse(1, 0.01, &plan, &a, &l), BLOOM_OK);
	l.nblocks = COUNTING_MAX_BLOCKS;
	l.nslots = 0;
	bloom_write_header(&l);
	assert_int_equal(counting_sparse_decode(l.base, 64, &l), BLOOM_OK);
	for (int i = 0; i < 1000; i++)
	{
		assert_false(counting_light_contains(&l, rng(&seed)));
		assert_int_equal(counting_light_count(&l, rng(&seed)), 0);
	}
	counting_light_describe(&l, &li, NULL);
	assert_int_equal(li.counters, (uint64_t) COUNTING_MAX_BLOCKS * 512);
	assert_int_equal(li.counters_set, 0);
	assert_true(li.estimated_items == 0.0 && li.estimated_fpr == 0.0);
	free(l.base);
}

/* A hash list of cuckoo_agg(key, capacity, fpr): n rows over a pool of keys */
static BloomFilter
cuckoo_list(uint64_t capacity, uint64_t n, uint64_t pool, uint64_t *seed, const BloomAlloc *a)
{
	BloomFilter st = new_hashlist(n > 0 ? n : 1, 0.01, a);
	uint64_t	base = rng(seed);

	for (uint64_t i = 0; i < n; i++)
		bloom_hashlist_set(&st, i, bloom_hash_int64(base, (int64_t) (rng(seed) % pool)));
	st.nhashes = n;
	st.nitems = n + (n % 3);	/* a few copies past the list's limit */
	st.seed = base;
	st.capacity = capacity;
	st.version = BLOOM_FORMAT_VERSION_3;
	st.key_class = BLOOM_KEY_INTEGER;
	bloom_write_header(&st);
	return st;
}

static void
check_same_cuckoo(const CuckooFilter *s, const CuckooFilter *d, const BloomFilter *st,
				  uint64_t *seed)
{
	CuckooInfo	si,
				di;

	assert_int_equal(s->nsubs, d->nsubs);
	assert_int_equal(s->hdr.nitems, d->hdr.nitems);
	assert_int_equal(s->absorbed, d->absorbed);
	assert_int_equal(s->hdr.key_class, d->hdr.key_class);
	assert_int_equal(s->hdr.seed, d->hdr.seed);
	for (unsigned i = 0; i < d->nsubs; i++)
	{
		assert_int_equal(s->subs[i].nitems, d->subs[i].nitems);
		assert_int_equal(s->subs[i].nbuckets, d->subs[i].nbuckets);
		assert_int_equal(s->subs[i].fbits, d->subs[i].fbits);
	}
	assert_int_equal(cuckoo_value_size(s), cuckoo_value_size(d));
	for (uint64_t i = 0; i < st->nhashes + 20000; i++)
	{
		uint64_t	h = i < st->nhashes ? bloom_hashlist_get(st, i) : rng(seed);

		assert_int_equal(cuckoo_contains(s, h), cuckoo_contains(d, h));
		assert_int_equal(cuckoo_count(s, h), cuckoo_count(d, h));
	}
	cuckoo_describe(s, &si);
	cuckoo_describe(d, &di);
	assert_memory_equal(&si, &di, sizeof(si));
}

static void
test_cuckoo_list_reads(void **ctx)
{
	static const struct
	{
		uint64_t	capacity;
		uint64_t	n;
		uint64_t	pool;
	}			geo[] = {
		{1000, 300, 1000000}, {100, 2000, 1000000}, {10, 500, 40}, {1, 60, 1000},
		{100000, 3000, 1000000}, {50, 5000, 100000}, {1000, 0, 1},
	};
	BloomAlloc	a = malloc_allocator(NULL);

	(void) ctx;
	for (unsigned g = 0; g < sizeof(geo) / sizeof(geo[0]); g++)
		for (uint64_t seed0 = 1; seed0 <= 4; seed0++)
		{
			uint64_t	seed = seed0 * 104729 + g;
			BloomFilter st = cuckoo_list(geo[g].capacity, geo[g].n, geo[g].pool, &seed, &a);
			CuckooFilter d,
						s,
						b;
			CkTable		t,
						bt;
			size_t		head,
						len;
			uint8_t    *flat;

			assert_int_equal(cuckoo_from_hashlist(&st, geo[g].capacity, &a, &d), BLOOM_OK);
			assert_int_equal(cuckoo_list_simulate(&st, &a, &s, &t, seed * UINT64_C(0x9E3779B97F4A7C15)), BLOOM_OK);
			if (geo[g].n == 2000)
				assert_true(d.nsubs >= 2);	/* the simulation grew too */
			check_same_cuckoo(&s, &d, &st, &seed);
			/* flat, copied 8-aligned, bound again */
			len = cuckoo_sim_size(&s, &head);
			flat = malloc(len);
			cuckoo_sim_flatten(&s, flat);
			assert_true(cuckoo_sim_is_flat(flat, len));
			assert_false(cuckoo_sim_is_flat(d.hdr.base, cuckoo_value_size(&d)));
			assert_int_equal(cuckoo_sim_bind(flat, len, &b, &bt), BLOOM_OK);
			assert_int_not_equal(cuckoo_sim_bind(flat, len - 8, &b, &bt), BLOOM_OK);
			assert_int_equal(cuckoo_sim_bind(flat, len, &b, &bt), BLOOM_OK);
			check_same_cuckoo(&b, &d, &st, &seed);
			free(flat);
			cuckoo_list_free(&s, &a);
			free(d.hdr.base);
			free(st.base);
		}
}

/* An empty list of the largest capacity: nothing built, nothing stored */
static void
test_cuckoo_list_largest(void **ctx)
{
	BloomAlloc	a = malloc_allocator(NULL);
	uint64_t	seed = 9;
	uint64_t	cap = cuckoo_max_capacity(0.01, CUCKOO_DEFAULT_BUCKET, CUCKOO_DEFAULT_EXPANSION);
	BloomFilter st = cuckoo_list(cap, 0, 1, &seed, &a);
	CuckooFilter s;
	CkTable		t;
	CuckooInfo	si;

	(void) ctx;
	assert_int_equal(cuckoo_list_simulate(&st, &a, &s, &t, 0), BLOOM_OK);
	assert_int_equal(t.mask + 1, 16);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(cuckoo_count(&s, rng(&seed)), 0);
	cuckoo_describe(&s, &si);
	assert_true(si.capacity == cap && si.load_factor == 0.0 && si.estimated_fpr == 0.0);
	assert_true(cuckoo_value_size(&s) > (size_t) 400 * 1024 * 1024);
	cuckoo_list_free(&s, &a);
	free(st.base);
}

/* The longest run of taken entries in t (the longest walk of a lookup) */
static uint64_t
longest_run(const CkTable *t)
{
	uint64_t	best = 0,
				run = 0;

	/* twice round, so that a run across the end counts whole */
	for (uint64_t i = 0; i < 2 * (t->mask + 1); i++)
	{
		run = t->keys[i & t->mask] != 0 ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best;
}

/*
 * A list whose hashes were chosen so that, without a salt, every bucket
 * they fill lands in one window of the simulation's table (a review found
 * 60,000 such hashes took 14 s to read, and could not be cancelled): with
 * a salt the table's runs stay short, and the answers are those of the
 * unsalted simulation and of the built filter
 */
static void
test_cuckoo_list_crafted(void **ctx)
{
	BloomAlloc	a = malloc_allocator(NULL);
	uint64_t	cap = cuckoo_max_capacity(0.01, CUCKOO_DEFAULT_BUCKET, CUCKOO_DEFAULT_EXPANSION);
	uint64_t	n = 20000;
	uint64_t	entries = 16;
	uint64_t	seed = 77;
	uint64_t	got = 0;
	CuckooPlan	p;
	BloomFilter st = new_hashlist(n, 0.01, &a);
	CuckooFilter plain,
				salted;
	CkTable		tp,
				ts;

	(void) ctx;
	assert_int_equal(cuckoo_plan(cap, 0.01, CUCKOO_DEFAULT_BUCKET, CUCKOO_DEFAULT_EXPANSION, &p), BLOOM_OK);
	while (entries < 2 * n)
		entries <<= 1;
	/* buckets whose unsalted entry falls in the first 1/64 of the table */
	for (uint64_t B = 0; got < n && B < p.n0; B++)
	{
		uint64_t	h;

		if ((ck_mix((UINT64_C(1) << 40) | B) & (entries - 1)) >= entries / 64)
			continue;
		h = (uint64_t) ((((unsigned __int128) B) << 64) / p.n0) + 1 + (rng(&seed) & 0xFFFF);
		if (bloom_mulhi64(h, p.n0) != B)
			continue;
		bloom_hashlist_set(&st, got++, h);
	}
	assert_int_equal(got, n);
	st.nhashes = st.nitems = n;
	st.capacity = cap;
	st.version = BLOOM_FORMAT_VERSION_3;
	st.key_class = BLOOM_KEY_INTEGER;
	bloom_write_header(&st);

	assert_int_equal(cuckoo_list_simulate(&st, &a, &plain, &tp, 0), BLOOM_OK);
	assert_int_equal(cuckoo_list_simulate(&st, &a, &salted, &ts, UINT64_C(0xD1B54A32D192ED03)), BLOOM_OK);
	assert_true(longest_run(&tp) > n / 2);	/* the craft works unsalted */
	assert_true(longest_run(&ts) < 200);	/* and not against a salt */
	for (uint64_t i = 0; i < n; i++)
	{
		uint64_t	h = bloom_hashlist_get(&st, i);

		assert_true(cuckoo_contains(&salted, h));
		assert_int_equal(cuckoo_count(&salted, h), cuckoo_count(&plain, h));
	}
	for (int i = 0; i < 20000; i++)
	{
		uint64_t	h = rng(&seed);

		assert_int_equal(cuckoo_count(&salted, h), cuckoo_count(&plain, h));
	}
	cuckoo_list_free(&plain, &a);
	cuckoo_list_free(&salted, &a);
	free(st.base);
}

int
unit_light_read_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counting_light_reads),
		cmocka_unit_test(test_counting_light_empty_largest),
		cmocka_unit_test(test_cuckoo_list_reads),
		cmocka_unit_test(test_cuckoo_list_largest),
		cmocka_unit_test(test_cuckoo_list_crafted),
	};

	return cmocka_run_group_tests_name("light reads", tests, NULL, NULL);
}
