/*
 * Unit tests of the core's cancel checks (BloomCancel, format.h): every
 * long operation calls the check as it goes (the glue's check is
 * CHECK_FOR_INTERRUPTS), a check that does not return (as an ERROR does
 * not) stops the operation there, and the sort that replaced qsort to be
 * cancellable sorts as qsort does.
 */
#include "unit.h"

/* A check that counts its calls, and may stop at the stop-th (longjmp) */
typedef struct Counter
{
	long		calls;
	long		stop;			/* 0: never */
	jmp_buf		jmp;
} Counter;

static void
count_check(void *arg)
{
	Counter    *c = arg;

	if (++c->calls == c->stop)
		longjmp(c->jmp, 1);
}

static BloomCancel
counter_cancel(Counter *c)
{
	BloomCancel cancel = {count_check, c};

	memset(c, 0, sizeof(*c));
	return cancel;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *) a,
				y = *(const uint64_t *) b;

	return x < y ? -1 : (x > y ? 1 : 0);
}

/* bloom_sort_u64 orders as qsort does, for sizes and patterns */
static void
test_sort(void **state)
{
	static const size_t sizes[] = {0, 1, 2, 3, 16, 17, 18, 100, 1000, 65536, 300001};
	uint64_t	seed = 42;

	(void) state;
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
	{
		size_t		n = sizes[s];

		for (int pattern = 0; pattern < 7; pattern++)
		{
			uint64_t   *a = malloc((n + 1) * sizeof(uint64_t));
			uint64_t   *b = malloc((n + 1) * sizeof(uint64_t));

			for (size_t i = 0; i < n; i++)
			{
				uint64_t	r = unit_rand(&seed);

				switch (pattern)
				{
					case 0:
						a[i] = r;
						break;
					case 1:
						a[i] = i;	/* sorted */
						break;
					case 2:
						a[i] = UINT64_MAX - i;	/* reversed */
						break;
					case 3:
						a[i] = 7;	/* all equal */
						break;
					case 4:
						a[i] = r % 5;	/* few distinct */
						break;
					case 5:
						a[i] = i < n / 2 ? i : n - i;	/* organ pipe */
						break;
					default:
						a[i] = (i & 1) ? UINT64_MAX : 0;	/* the extremes */
						break;
				}
			}
			memcpy(b, a, n * sizeof(uint64_t));
			qsort(b, n, sizeof(uint64_t), cmp_u64);
			bloom_sort_u64(a, n, NULL);
			assert_memory_equal(a, b, n * sizeof(uint64_t));
			free(a);
			free(b);
		}
	}
}

/* Each long operation calls the check, about once per 64K steps or MB */
static void
test_cancel_called(void **state)
{
	Counter		cnt;
	BloomCancel c = counter_cancel(&cnt);
	BloomAlloc	a = malloc_allocator(NULL);
	const uint64_t n = 300000;	/* hashes: checks at 0, 64K, ..., 256K */
	uint8_t    *le = hashes_le(0, n);

	(void) state;
	a.cancel = &c;

	/* sorting and counting hashes */
	{
		uint64_t   *h = malloc(n * sizeof(uint64_t));
		uint64_t   *table = malloc(1024 * sizeof(uint64_t));
		uint8_t    *scratch = malloc(bloom_estimate_scratch(n));

		for (uint64_t i = 0; i < n; i++)
			h[i] = bloom_get_le64(le + 8 * i);
		cnt.calls = 0;
		bloom_sort_u64(h, n, &c);
		assert_true(cnt.calls >= 1);
		cnt.calls = 0;
		(void) bloom_estimate_distinct(le, n, scratch, &c);
		assert_int_equal(cnt.calls, 5);
		cnt.calls = 0;
		/* stops early (more than 512 distinct), after its first check */
		assert_int_equal(bloom_count_distinct(le, n, table, 1024, &c), UINT64_MAX);
		assert_int_equal(cnt.calls, 1);
		free(h);
		free(table);
		free(scratch);
	}

	/* bits: once per megabyte; inserts: once per 64K hashes */
	{
		size_t		len;
		BloomFilter f,
					g;
		uint8_t    *fb = make_filter(2000000, 0.01, &f, &len);
		uint8_t    *gb = make_filter(2000000, 0.01, &g, &len);
		uint64_t	nbytes = f.nblocks * BLOOM_BLOCK_BYTES;
		long		mb = (long) ((nbytes + BLOOM_CANCEL_BYTES - 1) / BLOOM_CANCEL_BYTES);

		assert_true(mb >= 2);
		cnt.calls = 0;
		bloom_insert_many(&g, le, n, &c);
		assert_int_equal(cnt.calls, 5);
		cnt.calls = 0;
		bloom_union_bits(f.data, g.data, nbytes, &c);
		assert_int_equal(cnt.calls, mb);
		cnt.calls = 0;
		bloom_intersect_bits(f.data, g.data, nbytes, &c);
		assert_int_equal(cnt.calls, mb);
		/* through the allocator: bloom_merge */
		cnt.calls = 0;
		assert_int_equal(bloom_merge(&f, &g, false, &a), BLOOM_OK);
		assert_int_equal(cnt.calls, mb);
		/* the estimates pass over every block: checked every 64K blocks */
		{
			BloomInfo	info;
			long		per_pass = (long) ((f.nblocks + BLOOM_CANCEL_EVERY - 1) / BLOOM_CANCEL_EVERY);

			cnt.calls = 0;
			assert_int_equal(bloom_describe(&f, &info, &c), BLOOM_OK);
			assert_int_equal(cnt.calls, 3 * per_pass);
		}
		free(fb);
		free(gb);
	}

	/* materialising a hash list of n hashes */
	{
		BloomFilter st = new_hashlist(n, 0.01, &a),
					out;
		BloomPlan	plan = {0};
		BloomMaterialized m = {0};
		uint64_t	distinct,
					limit;

		assert_int_equal(append(&st, le, n, NULL, &a, &distinct, &limit), BLOOM_OK);
		cnt.calls = 0;
		assert_int_equal(bloom_materialize(&st, true, &plan, &a, &m, &out), BLOOM_OK);
		assert_true(cnt.calls >= 5);	/* estimate, then insert */
		a.free(a.arg, out.base);
		a.free(a.arg, st.base);
	}

	/* counting filters: merge, deep validation, describe */
	{
		BloomPlan	plan = {0};
		BloomFilter x,
					y;
		CountingInfo info;

		assert_int_equal(counting_new(200000, 0.01, &plan, &a, &x), BLOOM_OK);
		assert_int_equal(counting_new(200000, 0.01, &plan, &a, &y), BLOOM_OK);
		for (uint64_t i = 0; i < 1000; i++)
			counting_add(&y, bloom_get_le64(le + 8 * i));
		cnt.calls = 0;
		counting_merge(&x, &y, &c);
		assert_true(cnt.calls >= 2);
		cnt.calls = 0;
		assert_int_equal(counting_validate_deep(&x, &c), BLOOM_OK);
		assert_true(cnt.calls >= 2);
		cnt.calls = 0;
		counting_describe(&x, &info, &c);
		assert_true(cnt.calls >= 2);
		a.free(a.arg, x.base);
		a.free(a.arg, y.base);
	}

	/* cuckoo filters: deep validation, compaction, union */
	{
		Ck			x,
					y;
		CuckooFilter out;

		/* y grows sub-filters, which compaction empties into older ones */
		ck_new(&x, 20000, 0.01, 4, 2);
		ck_new(&y, 20000, 0.01, 4, 2);
		for (uint64_t i = 0; i < 100000; i++)
			assert_int_equal(ck_add(&y, bloom_get_le64(le + 8 * i), false, NULL), BLOOM_OK);
		assert_true(y.f.nsubs >= 3);
		cnt.calls = 0;
		assert_int_equal(cuckoo_validate_deep(&y.f, &c), BLOOM_OK);
		assert_true(cnt.calls >= 2);
		y.a.cancel = &c;
		cnt.calls = 0;
		assert_int_equal(cuckoo_compact(&y.f, &y.a, &out), BLOOM_OK);
		assert_true(cnt.calls >= 2);
		y.a.free(y.a.arg, out.hdr.base);
		x.a.cancel = &c;
		cnt.calls = 0;
		{
			uint8_t    *orig = x.f.hdr.base;

			assert_int_equal(cuckoo_merge(&x.f, &y.f, &x.a), BLOOM_OK);
			if (x.f.hdr.base != orig)
				x.a.free(x.a.arg, orig);	/* grew: the old value is ours */
		}
		assert_true(cnt.calls >= 2);
		ck_free(&x);
		ck_free(&y);
	}
	free(le);
}

/*
 * A check that does not return (PostgreSQL's ERROR longjmps) stops the
 * operation at that check: a union of 4 MB stopped at its second check
 * has united its first megabyte only
 */
static void
test_cancel_stops(void **state)
{
	Counter		cnt;
	BloomCancel c = counter_cancel(&cnt);
	const uint64_t nbytes = 4 * BLOOM_CANCEL_BYTES;
	uint8_t    *dst = calloc(nbytes, 1);
	uint8_t    *src = malloc(nbytes);

	(void) state;
	memset(src, 0xFF, nbytes);
	cnt.stop = 2;
	if (setjmp(cnt.jmp) == 0)
	{
		bloom_union_bits(dst, src, nbytes, &c);
		fail_msg("the union did not stop");
	}
	assert_int_equal(cnt.calls, 2);
	assert_int_equal(dst[0], 0xFF);
	assert_int_equal(dst[BLOOM_CANCEL_BYTES - 1], 0xFF);
	assert_int_equal(dst[BLOOM_CANCEL_BYTES], 0);
	assert_int_equal(dst[nbytes - 1], 0);

	/* and a sort of a million hashes, at its second check */
	{
		const size_t n = 1000000;
		uint64_t   *h = malloc(n * sizeof(uint64_t));
		uint64_t	seed = 7;

		for (size_t i = 0; i < n; i++)
			h[i] = unit_rand(&seed);
		cnt.calls = 0;
		cnt.stop = 2;
		if (setjmp(cnt.jmp) == 0)
		{
			bloom_sort_u64(h, n, &c);
			fail_msg("the sort did not stop");
		}
		assert_int_equal(cnt.calls, 2);
		free(h);
	}
	free(dst);
	free(src);
}

int
unit_cancel_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_cancel_called),
		cmocka_unit_test(test_cancel_stops),
	};

	return cmocka_run_group_tests_name("cancel", tests, NULL, NULL);
}
