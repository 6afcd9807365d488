/*
 * Unit tests of src/core/format.[ch] and kinds.[ch]: decoding and
 * validation of the common header, writing it back, the kind registry, the
 * setters, the status messages and the generic dispatch.
 */
#include "unit.h"

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
	bloom_put_le64(copy + 24, f.nblocks * BLOOM_BLOCK_BITS + 1);
	assert_int_equal(bloom_decode(copy, len, &g), BLOOM_E_PARAMS);

	assert_int_equal(bloom_decode(buf, len, &g), BLOOM_OK);
	free(copy);
	free(buf);
}

/* Decoding then writing the header back gives the same bytes, every kind */
static void
test_header_roundtrip(void **state)
{
	BloomPlan	plan = {0};
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter f[4],
				g;
	uint8_t		hl[BLOOM_HEADER_SIZE + 8 * 8];

	(void) state;
	assert_int_equal(bloom_new_blocked(1000, 0.01, BLOOM_FLAG_NONSCALING, &plan, &a, &f[0]),
					 BLOOM_OK);
	bloom_init_hashlist(hl, 8, 0, 0.02, 7);
	assert_int_equal(bloom_decode(hl, sizeof(hl), &f[1]), BLOOM_OK);
	assert_int_equal(bloom_new_buffered(1000, 0.01, true, &plan, &a, &f[2]), BLOOM_OK);
	assert_int_equal(bloom_new_scalable(1000, 0.01, 4, &plan, &a, &f[3]), BLOOM_OK);
	for (int i = 0; i < 4; i++)
	{
		size_t		len = bloom_value_size(&f[i]);
		uint8_t    *copy = malloc(len);

		assert_int_equal(f[i].kind, i + 1);
		assert_ptr_equal(f[i].data, f[i].base + BLOOM_HEADER_SIZE);
		/* every field that has a setter or a meaning per kind */
		bloom_store_key_class(&f[i], BLOOM_KEY_OTHER, 0x01020304);
		f[i].nitems = 3;
		bloom_store_items(&f[i]);
		/* a non-zero word at 56 wherever the kind has one */
		if (f[i].kind == BLOOM_KIND_HASHLIST)
			for (int j = 0; j < 2; j++)
				assert_true(bloom_hashlist_push(&f[i], 100 + j));
		if (f[i].kind == BLOOM_KIND_BUFFERED)
			for (int j = 0; j < 3; j++)
				bloom_buffered_push(&f[i], 200 + j);
		if (f[i].kind == BLOOM_KIND_SCALABLE)
		{
			/* the items are the sum of the layers' */
			f[i].layers[0].nitems = 3;
			bloom_write_header(&f[i]);
		}
		assert_int_equal(bloom_decode(f[i].base, len, &g), BLOOM_OK);
		assert_int_equal(g.key_class, BLOOM_KEY_OTHER);
		assert_int_equal(g.key_type, 0x01020304);
		assert_int_equal(g.nitems, 3);
		assert_int_equal(bloom_get_le64(f[i].base + 40), 3);
		assert_int_equal(g.nhashes, f[i].kind == BLOOM_KIND_HASHLIST ? 2 : 0);
		assert_int_equal(g.npending, f[i].kind == BLOOM_KIND_BUFFERED ? 3 : 0);
		assert_int_equal(g.expansion, f[i].kind == BLOOM_KIND_SCALABLE ? 4 : 0);
		/* the decoded value written back: the same bytes */
		memcpy(copy, f[i].base, len);
		bloom_write_header(&g);
		assert_memory_equal(copy, f[i].base, len);
		free(copy);
	}
	/* the words at 48 and 56 go to the fields that say what they hold */
	assert_int_equal(f[0].nblocks, bloom_get_le64(f[0].base + 48));
	assert_int_equal(f[0].reserved, 0);
	assert_int_equal(f[1].nslots, 8);
	assert_int_equal(f[1].nhashes, bloom_get_le64(f[1].base + 56));
	assert_int_equal(f[1].nblocks + f[1].nlayers, 0);
	assert_int_equal(f[2].nblocks, bloom_get_le64(f[2].base + 48));
	assert_int_equal(f[2].npending, bloom_get_le64(f[2].base + 56));
	assert_int_equal(f[3].nlayers, 1);
	assert_int_equal(f[3].expansion, 4);
	assert_int_equal(f[3].nblocks + f[3].nslots, 0);
	free(f[0].base);
	free(f[2].base);
	free(f[3].base);
}

/*
 * One operations table per kind of bloomfilter, none outside 1..4 and 7
 * (5, 6 and 8 are the other types'), each of the kind it is registered as
 * (bloom_decode_as relies on it)
 */
static void
test_kind_registry(void **state)
{
	(void) state;
	assert_null(bloom_kind_ops(0));
	assert_null(bloom_kind_ops(BLOOM_KIND_COUNTING));
	assert_null(bloom_kind_ops(BLOOM_KIND_CUCKOO));
	assert_null(bloom_kind_ops(BLOOM_KIND_SPARSE_COUNTING));
	assert_null(bloom_kind_ops(255));
	assert_ptr_equal(bloom_kind_ops(BLOOM_KIND_BLOCKED), &bloom_blocked_ops);
	assert_ptr_equal(bloom_kind_ops(BLOOM_KIND_HASHLIST), &bloom_hashlist_ops);
	assert_ptr_equal(bloom_kind_ops(BLOOM_KIND_BUFFERED), &bloom_buffered_ops);
	assert_ptr_equal(bloom_kind_ops(BLOOM_KIND_SCALABLE), &bloom_scalable_ops);
	assert_ptr_equal(bloom_kind_ops(BLOOM_KIND_SPARSE), &bloom_sparse_ops);
	for (int k = 0; k <= 255; k++)
		if (bloom_kind_ops((uint8_t) k) != NULL)
			assert_int_equal(bloom_kind_ops((uint8_t) k)->kind, k);
	for (int k = 1; k <= BLOOM_KIND_MAX; k++)
	{
		const BloomOps *ops = bloom_kind_ops((uint8_t) k);

		assert_non_null(ops->name);
		assert_non_null(ops->decode);
		assert_non_null(ops->size);
		/* filters are read; states are materialised first */
		assert_true((ops->contains != NULL) == (k == 1 || k == 4));
		assert_true((ops->add != NULL) == (k == 1 || k == 4));
		assert_true((ops->describe != NULL) == (k == 1 || k == 4));
	}
}

/*
 * bloom_decode_as, which the modules below the registry decode their own
 * values with, answers as bloom_decode for a value of its kind, and
 * refuses one of another kind (or none) as bloom_decode refuses a kind it
 * has not
 */
static void
test_decode_as(void **state)
{
	BloomFilter f,
				g,
				h;
	size_t		len;
	uint8_t		short_buf[BLOOM_HEADER_SIZE - 1] = {0};

	(void) state;
	make_filter(1000, 0.01, &f, &len);
	memset(&g, 0, sizeof(g));
	memset(&h, 0, sizeof(h));
	assert_int_equal(bloom_decode_as(f.base, len, &g, &bloom_blocked_ops), BLOOM_OK);
	assert_int_equal(bloom_decode(f.base, len, &h), BLOOM_OK);
	assert_memory_equal(&g, &h, sizeof(g));
	assert_int_equal(bloom_decode_as(f.base, len, &g, &bloom_scalable_ops), BLOOM_E_KIND);
	assert_int_equal(bloom_decode_as(f.base, len, &g, NULL), BLOOM_E_KIND);
	assert_int_equal(bloom_decode_as(short_buf, sizeof(short_buf), &g, NULL), BLOOM_E_SHORT);
	assert_int_equal(bloom_decode(short_buf, sizeof(short_buf), &g), BLOOM_E_SHORT);
	/* a kind bloomfilter has not: the same answer either way */
	f.base[5] = BLOOM_KIND_COUNTING;
	assert_int_equal(bloom_decode(f.base, len, &g), BLOOM_E_KIND);
	assert_int_equal(bloom_decode_as(f.base, len, &g, NULL), BLOOM_E_KIND);
	free(f.base);
}

/* States are not added to by bloom_add: they are materialised first */
static void
test_add_dispatch(void **state)
{
	uint8_t		hl[BLOOM_HEADER_SIZE + 8 * 8];
	BloomFilter f;
	BloomAlloc	a = malloc_allocator(NULL);
	bool		added = true;

	(void) state;
	bloom_init_hashlist(hl, 8, 0, 0.01, 0);
	assert_int_equal(bloom_decode(hl, sizeof(hl), &f), BLOOM_OK);
	assert_int_equal(bloom_add(&f, 42, NULL, &a, &added), BLOOM_E_KIND);
	assert_false(added);
	assert_int_equal(bloom_merge(&f, &f, false, &a), BLOOM_E_KIND);
	{
		BloomInfo	info;

		assert_int_equal(bloom_describe(&f, &info, NULL), BLOOM_E_KIND);
	}
}

/* Every status has its own message */
static void
test_status_messages(void **state)
{
	(void) state;
	for (int s = BLOOM_OK; s <= BLOOM_E_NOMEM; s++)
	{
		const char *m = bloom_status_message((BloomStatus) s);

		assert_non_null(m);
		assert_string_not_equal(m, "Unknown error.");
		for (int t = BLOOM_OK; t < s; t++)
			assert_string_not_equal(m, bloom_status_message((BloomStatus) t));
	}
	assert_string_equal(bloom_status_message((BloomStatus) 999), "Unknown error.");
}

/* What differs is named: kind, policy, then the parameters in order */
static void
test_compatible(void **state)
{
	BloomFilter a,
				b,
				s;
	size_t		len;
	uint8_t    *ba = make_filter(1000, 0.01, &a, &len);
	uint8_t    *bb = make_filter(1000, 0.01, &b, &len);
	Grown		g;

	(void) state;
	grow_new(&g, 1000, 0.01, 2);
	s = g.f;
	assert_int_equal(bloom_compatible(&a, &b), BLOOM_PARAM_NONE);
	assert_int_equal(bloom_compatible(&a, &s), BLOOM_PARAM_KIND);
	b.flags = BLOOM_FLAG_NONSCALING;
	assert_int_equal(bloom_compatible(&a, &b), BLOOM_PARAM_GROWTH);
	b.flags = 0;
	b.seed = 1;
	assert_int_equal(bloom_compatible(&a, &b), BLOOM_PARAM_SEED);
	b.seed = 0;
	b.fpr = 0.02;
	assert_int_equal(bloom_compatible(&a, &b), BLOOM_PARAM_FPR);
	b.fpr = 0.01;
	/* a filter that holds nothing yet matches any key class */
	b.key_class = BLOOM_KEY_TEXT;
	assert_int_equal(bloom_compatible(&a, &b), BLOOM_PARAM_NONE);
	a.key_class = BLOOM_KEY_INTEGER;
	assert_int_equal(bloom_compatible(&a, &b), BLOOM_PARAM_KEY_TYPE);
	free(ba);
	free(bb);
	grow_free(&g);
}

int
unit_format_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_validation),
		cmocka_unit_test(test_header_roundtrip),
		cmocka_unit_test(test_kind_registry),
		cmocka_unit_test(test_decode_as),
		cmocka_unit_test(test_add_dispatch),
		cmocka_unit_test(test_status_messages),
		cmocka_unit_test(test_compatible),
	};

	return cmocka_run_group_tests_name("format", tests, NULL, NULL);
}
