/*
 * Unit tests of src/core/hash.h: key hashing over canonical bytes,
 * little-endian loads and stores, multiply-shift.
 */
#include "unit.h"

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

/* Stores are little-endian on every machine; loads read them back */
static void
test_le64(void **state)
{
	uint8_t		b[9] = {0};

	(void) state;
	bloom_put_le64(b + 1, UINT64_C(0x0102030405060708));	/* unaligned */
	assert_int_equal(b[0], 0);
	assert_int_equal(b[1], 0x08);
	assert_int_equal(b[8], 0x01);
	assert_true(bloom_get_le64(b + 1) == UINT64_C(0x0102030405060708));
}

/* The high half of the 128-bit product: maps a hash onto [0, n) */
static void
test_mulhi64(void **state)
{
	(void) state;
	assert_true(bloom_mulhi64(UINT64_MAX, UINT64_MAX) == UINT64_MAX - 1);
	assert_true(bloom_mulhi64(UINT64_C(1) << 63, 10) == 5);
	assert_true(bloom_mulhi64(UINT64_C(1) << 32, UINT64_C(1) << 32) == 1);
	assert_true(bloom_mulhi64(12345, 0) == 0);
	for (uint64_t n = 1; n < 1000; n += 37)
		assert_true(bloom_mulhi64(UINT64_MAX, n) == n - 1);
}

int
unit_hash_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_encoding),
		cmocka_unit_test(test_le64),
		cmocka_unit_test(test_mulhi64),
	};

	return cmocka_run_group_tests_name("hash", tests, NULL, NULL);
}
