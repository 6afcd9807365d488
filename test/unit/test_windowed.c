/*
 * Unit tests of src/core/windowed.c (kind 9): planning, the window promise
 * (inside the window never a false negative, outside it gone but for the
 * rate, at most window + 1 slices, the rate at capacity at or under the
 * target), adds older than the window, expiry, lookups since a slice,
 * union, and validation of every field.
 */
#include "unit.h"

/* A windowed filter in malloc'd memory, with its length */
typedef struct Win
{
	BloomFilter f;
	uint8_t    *buf;
	size_t		len;
} Win;

static void
win_new(Win *w, uint64_t capacity, double fpr, int64_t slice_usec, uint32_t window)
{
	uint64_t	nblocks;
	int			k;

	assert_int_equal(bloom_windowed_plan(capacity, fpr, window, &nblocks, &k), BLOOM_OK);
	w->len = bloom_windowed_size(0, nblocks);
	w->buf = malloc(w->len);
	bloom_windowed_init(w->buf, capacity, fpr, 0, nblocks, k, slice_usec, window);
	assert_int_equal(bloom_decode(w->buf, w->len, &w->f), BLOOM_OK);
}

/* Moves w to the layout of an add (open) or expiry at slice s */
static int
win_move(Win *w, int64_t s, bool open)
{
	BloomWindowPlan p;
	uint8_t    *out;
	BloomFilter nf;

	bloom_window_plan(&w->f, s, open, &p);
	if (!p.changed)
		return p.target;
	w->len = bloom_window_plan_size(&w->f, &p);
	out = malloc(w->len);
	bloom_window_apply(out, &w->f, &p, &nf);
	free(w->buf);
	w->buf = out;
	assert_int_equal(bloom_decode(w->buf, w->len, &w->f), BLOOM_OK);
	return p.target;
}

static void
win_add(Win *w, int64_t s, uint64_t h)
{
	int			i = win_move(w, s, true);

	if (i >= 0)
		bloom_windowed_insert(&w->f, i, h);
	assert_int_equal(bloom_decode(w->buf, w->len, &w->f), BLOOM_OK);
}

static void
test_windowed_plan(void **state)
{
	uint64_t	nb1,
				nb7;
	int			k;

	(void) state;
	assert_int_equal(bloom_windowed_plan(1000, 0.01, 1, &nb1, &k), BLOOM_OK);
	assert_int_equal(bloom_windowed_plan(1000, 0.01, 7, &nb7, &k), BLOOM_OK);
	assert_true(nb7 > nb1);		/* each slice at 0.01 / 8, not 0.01 / 2 */
	assert_int_equal(bloom_windowed_plan(1000, 0.01, 0, &nb1, &k), BLOOM_E_PARAMS);
	assert_int_equal(bloom_windowed_plan(1000, 0.01, 32, &nb1, &k), BLOOM_E_PARAMS);
	assert_int_equal(bloom_windowed_plan(0, 0.01, 7, &nb1, &k), BLOOM_E_PARAMS);
	assert_int_equal(bloom_windowed_plan(1000, 0.6, 7, &nb1, &k), BLOOM_E_PARAMS);
	/* 31 + 1 slices of a billion keys pass 512 MB */
	assert_int_equal(bloom_windowed_plan(1000000000, 0.01, 31, &nb1, &k), BLOOM_E_CAPACITY);
	assert_int_equal(bloom_window_slice(-1, 10), -1);
	assert_int_equal(bloom_window_slice(-10, 10), -1);
	assert_int_equal(bloom_window_slice(-11, 10), -2);
	assert_int_equal(bloom_window_slice(9, 10), 0);
}

/*
 * 50 slices of 1,000 keys into a window of 7 slices of capacity 1,000 at
 * 1%: a key added in slice m is found while the newest slice is at most
 * m + 7, and gone (but for the rate) once it is m + 8 or more; never more
 * than 8 slices; absent keys at or under 1% with every slice at capacity.
 */
static void
test_windowed_promise(void **state)
{
	Win			w;
	const int	window = 7,
				per = 1000,
				nslices = 50;
	uint64_t	fp = 0,
				gone = 0,
				asked = 0;

	(void) state;
	win_new(&w, per, 0.01, 3600 * INT64_C(1000000), window);
	for (int s = 0; s < nslices; s++)
	{
		for (int j = 0; j < per; j++)
			win_add(&w, s, bloom_hash_int64(0, (int64_t) s * per + j));
		assert_true(w.f.nlayers <= (uint64_t) window + 1);
		assert_int_equal(w.f.newest, s);
		/* every key of the window is found, the older ones mostly not */
		for (int m = 0; m <= s; m++)
			for (int j = 0; j < per; j += 10)
			{
				bool		in = bloom_filter_contains(&w.f, bloom_hash_int64(0, (int64_t) m * per + j));

				if (m >= s - window)
					assert_true(in);
				else
				{
					gone += !in;
					asked++;
				}
			}
	}
	assert_true(gone >= asked - asked / 50);
	assert_int_equal(w.f.nlayers, window + 1);
	for (int64_t i = 0; i < 200000; i++)
		fp += bloom_filter_contains(&w.f, bloom_hash_int64(0, -1 - i));
	assert_true(fp <= 200000 / 100);
	/* and not a broken sizing: each slice asks its share */
	assert_true(fp >= 200000 / 100 / 10);
	free(w.buf);
}

/* A time older than the window adds nothing; expiry drops what an add would */
static void
test_windowed_old_and_expire(void **state)
{
	Win			w;
	uint64_t	h = bloom_hash_int64(0, 42);

	(void) state;
	win_new(&w, 100, 0.01, 60 * INT64_C(1000000), 3);
	win_add(&w, 10, bloom_hash_int64(0, 1));
	win_add(&w, 5, h);			/* 10 - 3 = 7 is the oldest kept */
	assert_false(bloom_filter_contains(&w.f, h));
	assert_int_equal(w.f.nlayers, 1);
	win_add(&w, 7, h);			/* inside: a slice before the newest */
	assert_int_equal(w.f.nlayers, 2);
	assert_int_equal(w.f.slice_no[0], 7);
	assert_true(bloom_filter_contains(&w.f, h));
	/* lookups since a slice ask the slices from it on */
	assert_int_equal(bloom_window_first_since(&w.f, 8), 1);
	assert_false(bloom_windowed_contains_from(&w.f, 1, h));
	assert_true(bloom_windowed_contains_from(&w.f, 0, h));
	/* expiry at slice 11 drops slice 7; at 100 every slice, the window moves */
	assert_int_equal(win_move(&w, 11, false), -1);
	assert_int_equal(w.f.nlayers, 1);
	assert_int_equal(w.f.newest, 11);
	assert_false(bloom_filter_contains(&w.f, h));
	win_move(&w, 100, false);
	assert_int_equal(w.f.nlayers, 0);
	assert_int_equal(w.f.nitems, 0);
	win_add(&w, 50, h);			/* older than 100 - 3 */
	assert_int_equal(w.f.nlayers, 0);
	assert_false(bloom_filter_contains(&w.f, h));
	free(w.buf);
}

/* Slice by slice; the newer window wins; another slicing is refused */
static void
test_windowed_union(void **state)
{
	Win			a,
				b,
				c;
	BloomFilter u;
	uint8_t    *out;
	size_t		size;

	(void) state;
	win_new(&a, 500, 0.01, 1000, 3);
	win_new(&b, 500, 0.01, 1000, 3);
	win_new(&c, 500, 0.01, 2000, 3);
	for (int s = 0; s <= 4; s++)
		for (int j = 0; j < 100; j++)
			win_add(&a, s, bloom_hash_int64(0, s * 1000 + j));
	for (int s = 3; s <= 6; s++)
		for (int j = 0; j < 100; j++)
			win_add(&b, s, bloom_hash_int64(0, s * 1000 + 500 + j));
	assert_int_equal(bloom_windowed_compatible(&a.f, &c.f), BLOOM_PARAM_SLICING);
	assert_int_equal(bloom_windowed_compatible(&a.f, &b.f), BLOOM_PARAM_NONE);
	size = bloom_windowed_union_size(&a.f, &b.f);
	out = malloc(size);
	bloom_windowed_union(out, &a.f, &b.f, NULL, &u);
	assert_int_equal(bloom_decode(out, size, &u), BLOOM_OK);
	assert_int_equal(u.newest, 6);
	assert_int_equal(u.nlayers, 4);	/* slices 3 to 6 */
	for (int s = 3; s <= 6; s++)
		for (int j = 0; j < 100; j++)
		{
			if (s <= 4)
				assert_true(bloom_filter_contains(&u, bloom_hash_int64(0, s * 1000 + j)));
			assert_true(bloom_filter_contains(&u, bloom_hash_int64(0, s * 1000 + 500 + j)));
		}
	assert_int_equal(u.nitems, 100 * 2 + 100 * 4);
	free(out);
	free(a.buf);
	free(b.buf);
	free(c.buf);
}

/* Every field checked: a changed byte is refused with its status */
static void
test_windowed_decode(void **state)
{
	Win			w;
	BloomFilter f;
	uint8_t    *v;

	(void) state;
	win_new(&w, 100, 0.01, 1000, 3);
	win_add(&w, 5, bloom_hash_int64(0, 1));
	win_add(&w, 7, bloom_hash_int64(0, 2));
	v = malloc(w.len);
#define MUTATE(stmt, status) \
	do { \
		memcpy(v, w.buf, w.len); \
		stmt; \
		assert_int_equal(bloom_decode(v, w.len, &f), status); \
	} while (0)
	MUTATE((void) 0, BLOOM_OK);
	MUTATE(v[4] = 4, BLOOM_E_KIND);	/* kind 9 in version 4 */
	MUTATE(v[4] = 2, BLOOM_E_KIND);
	MUTATE(v[5] = 1, BLOOM_E_KIND);	/* kind 1 in version 5 */
	MUTATE(v[12] = 0, BLOOM_E_GEOMETRY);	/* k */
	MUTATE(v[14] = 1, BLOOM_E_FLAGS);
	MUTATE(bloom_put_le64(v + 24, 0), BLOOM_E_PARAMS);	/* capacity */
	MUTATE(bloom_put_le64(v + 40, 3), BLOOM_E_COUNT);	/* items */
	MUTATE(bloom_put_le64(v + 48, 5), BLOOM_E_GEOMETRY);	/* more slices than the window */
	MUTATE(bloom_put_le64(v + 48, 1), BLOOM_E_LENGTH);
	MUTATE(bloom_put_le64(v + 56, 0), BLOOM_E_GEOMETRY);	/* blocks */
	MUTATE(bloom_put_le64(v + 64, 0), BLOOM_E_PARAMS);	/* slice length */
	MUTATE(bloom_put_le64(v + 72, 9), BLOOM_E_GEOMETRY);	/* newest: slice 5 out */
	MUTATE(bloom_put_le64(v + 72, (uint64_t) INT64_MIN), BLOOM_E_GEOMETRY);
	MUTATE(bloom_put_le64(v + 72, (uint64_t) INT64_MAX), BLOOM_E_PARAMS);
	MUTATE(v[80] = 0, BLOOM_E_PARAMS);	/* window 0 */
	MUTATE(v[80] = 32, BLOOM_E_PARAMS);
	MUTATE(v[84] = 1, BLOOM_E_FLAGS);	/* reserved */
	MUTATE(bloom_put_le64(v + 96, 7), BLOOM_E_GEOMETRY);	/* slices not increasing */
	MUTATE(bloom_put_le64(v + 96, 3), BLOOM_E_GEOMETRY);	/* older than the window */
	MUTATE(bloom_put_le64(v + 104, 2), BLOOM_E_COUNT);	/* a slice's items */
	assert_int_equal(bloom_decode(v, w.len - 1, &f), BLOOM_E_LENGTH);
#undef MUTATE
	free(v);
	free(w.buf);
}

int
unit_windowed_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_windowed_plan),
		cmocka_unit_test(test_windowed_promise),
		cmocka_unit_test(test_windowed_old_and_expire),
		cmocka_unit_test(test_windowed_union),
		cmocka_unit_test(test_windowed_decode),
	};

	return cmocka_run_group_tests_name("windowed", tests, NULL, NULL);
}
