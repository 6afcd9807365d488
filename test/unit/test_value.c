/*
 * Unit tests of src/core/counting_value.c and cuckoo_value.c: what a
 * countingbloom and a cuckoofilter value is.  Each form a type accepts
 * decodes and validates; every refusal gives its status, including the
 * rules only these entry points add (a cuckoofilter hash list's rate and
 * capacity) and the checks of outside bytes.
 */
#include "unit.h"

/* the header's bytes: version, kind, hash algorithm */
#define AT_VERSION	4
#define AT_KIND		5
#define AT_HASH		6

/* A copy of len bytes of buf, from malloc, with byte at set to v */
static uint8_t *
with_byte(const uint8_t *buf, size_t len, size_t at, uint8_t v)
{
	uint8_t    *c = malloc(len);

	memcpy(c, buf, len);
	c[at] = v;
	return c;
}

static BloomStatus
counting_both(const uint8_t *buf, size_t len)
{
	BloomFilter f;
	BloomStatus st = counting_value_decode(buf, len, &f);

	/* outside bytes are refused for what a stored value is refused for */
	if (st != BLOOM_OK)
		assert_int_equal(counting_value_validate(buf, len, &f, NULL), st);
	return st;
}

static BloomStatus
cuckoo_both(const uint8_t *buf, size_t len)
{
	CuckooFilter f;
	BloomStatus st = cuckoo_value_decode(buf, len, &f);

	if (st != BLOOM_OK)
		assert_int_equal(cuckoo_value_validate(buf, len, &f, NULL), st);
	return st;
}

/* A hash list of version 3 with capacity (as cuckoo_agg keeps it) */
static uint8_t *
hashlist_v3(uint64_t capacity, double fpr, size_t *len)
{
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter f = new_hashlist(4, fpr, &a);

	f.version = BLOOM_FORMAT_VERSION_3;
	f.capacity = capacity;
	bloom_write_header(&f);
	*len = bloom_hashlist_size(4);
	return f.base;
}

/* countingbloom's three forms, and what each refuses */
static void
test_counting_value_forms(void **state)
{
	BloomAlloc	a = malloc_allocator(NULL);
	BloomPlan	plan = {0};
	BloomFilter c,
				l,
				h = new_hashlist(4, 0.01, &a),
				f;
	size_t		clen,
				llen,
				hlen = bloom_hashlist_size(4);
	uint8_t    *x;

	(void) state;
	assert_int_equal(counting_new(1000, 0.01, &plan, &a, &c), BLOOM_OK);
	assert_int_equal(counting_new_sparse(1000, 0.01, &plan, &a, &l), BLOOM_OK);
	clen = counting_size(c.nblocks);
	llen = BLOOM_HEADER_SIZE + 8 * l.nslots;

	/* the forms: (3, 5), (1, 2), (4, 8) */
	assert_int_equal(counting_value_validate(c.base, clen, &f, NULL), BLOOM_OK);
	assert_int_equal(f.kind, BLOOM_KIND_COUNTING);
	assert_int_equal(counting_value_validate(h.base, hlen, &f, NULL), BLOOM_OK);
	assert_int_equal(f.kind, BLOOM_KIND_HASHLIST);
	assert_int_equal(counting_value_validate(l.base, llen, &f, NULL), BLOOM_OK);
	assert_int_equal(f.kind, BLOOM_KIND_SPARSE_COUNTING);

	/* the common header, whatever the kind */
	assert_int_equal(counting_both(c.base, 10), BLOOM_E_SHORT);
	x = with_byte(c.base, clen, 0, 'X');
	assert_int_equal(counting_both(x, clen), BLOOM_E_MAGIC);
	free(x);
	x = with_byte(c.base, clen, AT_HASH, 9);
	assert_int_equal(counting_both(x, clen), BLOOM_E_HASH);
	free(x);
	/* a hash list's hash algorithm is checked before its version */
	x = with_byte(h.base, hlen, AT_HASH, 9);
	x[AT_VERSION] = BLOOM_FORMAT_VERSION_3;
	assert_int_equal(counting_both(x, hlen), BLOOM_E_HASH);
	free(x);

	/* kinds: another type's, or none */
	for (uint8_t k = 1; k <= BLOOM_KIND_WINDOWED; k++)
	{
		if (k == BLOOM_KIND_COUNTING || k == BLOOM_KIND_HASHLIST ||
			k == BLOOM_KIND_SPARSE_COUNTING)
			continue;
		x = with_byte(c.base, clen, AT_KIND, k);
		assert_int_equal(counting_both(x, clen), BLOOM_E_OTHERTYPE);
		free(x);
	}
	x = with_byte(c.base, clen, AT_KIND, 0);
	assert_int_equal(counting_both(x, clen), BLOOM_E_KIND);
	free(x);
	x = with_byte(c.base, clen, AT_KIND, BLOOM_KIND_WINDOWED + 1);
	assert_int_equal(counting_both(x, clen), BLOOM_E_KIND);
	free(x);

	/* versions: each kind's own */
	x = with_byte(c.base, clen, AT_VERSION, BLOOM_FORMAT_VERSION_4);
	assert_int_equal(counting_both(x, clen), BLOOM_E_VERSION);
	free(x);
	x = with_byte(l.base, llen, AT_VERSION, BLOOM_FORMAT_VERSION_3);
	assert_int_equal(counting_both(x, llen), BLOOM_E_VERSION);
	free(x);
	x = with_byte(h.base, hlen, AT_VERSION, BLOOM_FORMAT_VERSION_3);
	assert_int_equal(counting_both(x, hlen), BLOOM_E_VERSION);
	free(x);
	x = with_byte(h.base, hlen, AT_VERSION, BLOOM_FORMAT_VERSION_2);
	assert_int_equal(counting_both(x, hlen), BLOOM_E_FLAGS);
	free(x);
	x = with_byte(h.base, hlen, AT_VERSION, BLOOM_FORMAT_VERSION_4);
	assert_int_equal(counting_both(x, hlen), BLOOM_E_KIND);
	free(x);

	/* outside bytes: a counter set under a clear presence bit */
	x = with_byte(c.base, clen, BLOOM_HEADER_SIZE + c.nblocks * BLOOM_BLOCK_BYTES, 1);
	assert_int_equal(counting_value_decode(x, clen, &f), BLOOM_OK);
	assert_int_equal(counting_value_validate(x, clen, &f, NULL), BLOOM_E_CONTENT);
	free(x);
	free(c.base);
	free(l.base);
	free(h.base);
}

/* cuckoofilter's three forms, and what each refuses */
static void
test_cuckoo_value_forms(void **state)
{
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter h = new_hashlist(4, 0.01, &a);
	CuckooFilter c,
				f;
	size_t		clen,
				hlen = bloom_hashlist_size(4),
				len3;
	uint8_t    *h3 = hashlist_v3(1000, 0.01, &len3),
			   *x;
	uint64_t	max = cuckoo_max_capacity(0.01, CUCKOO_DEFAULT_BUCKET,
										  CUCKOO_DEFAULT_EXPANSION);
	size_t		slots;

	(void) state;
	assert_int_equal(cuckoo_new(1000, 0.01, 4, CUCKOO_DEFAULT_KICKS, 2, &a, &c), BLOOM_OK);
	assert_int_equal(cuckoo_add(&c, bloom_hash_int64(0, 1), false, &a,
								&(CuckooAdded) {0}), BLOOM_OK);
	clen = cuckoo_value_size(&c);

	/* the forms: (3, 6), (1, 2), (3, 2) */
	assert_int_equal(cuckoo_value_validate(c.hdr.base, clen, &f, NULL), BLOOM_OK);
	assert_int_equal(f.hdr.kind, BLOOM_KIND_CUCKOO);
	assert_int_equal(cuckoo_value_validate(h.base, hlen, &f, NULL), BLOOM_OK);
	assert_int_equal(f.hdr.version, BLOOM_FORMAT_VERSION);
	assert_int_equal(cuckoo_value_validate(h3, len3, &f, NULL), BLOOM_OK);
	assert_int_equal(f.hdr.version, BLOOM_FORMAT_VERSION_3);
	assert_int_equal(f.hdr.capacity, 1000);

	/* the common header, kinds and versions */
	assert_int_equal(cuckoo_both(c.hdr.base, 63), BLOOM_E_SHORT);
	x = with_byte(h.base, hlen, 1, 'X');
	assert_int_equal(cuckoo_both(x, hlen), BLOOM_E_MAGIC);
	free(x);
	for (uint8_t k = 1; k <= BLOOM_KIND_WINDOWED; k++)
	{
		if (k == BLOOM_KIND_CUCKOO || k == BLOOM_KIND_HASHLIST)
			continue;
		x = with_byte(c.hdr.base, clen, AT_KIND, k);
		assert_int_equal(cuckoo_both(x, clen), BLOOM_E_OTHERTYPE);
		free(x);
	}
	x = with_byte(c.hdr.base, clen, AT_KIND, 200);
	assert_int_equal(cuckoo_both(x, clen), BLOOM_E_KIND);
	free(x);
	x = with_byte(c.hdr.base, clen, AT_VERSION, BLOOM_FORMAT_VERSION);
	assert_int_equal(cuckoo_both(x, clen), BLOOM_E_VERSION);
	free(x);
	x = with_byte(h.base, hlen, AT_VERSION, BLOOM_FORMAT_VERSION_2);
	assert_int_equal(cuckoo_both(x, hlen), BLOOM_E_VERSION);
	free(x);
	x = with_byte(h.base, hlen, AT_VERSION, BLOOM_FORMAT_VERSION_4);
	assert_int_equal(cuckoo_both(x, hlen), BLOOM_E_VERSION);
	free(x);
	free(h3);

	/* a hash list's rate is one a growing filter takes, either version */
	free(h.base);
	h = new_hashlist(4, 1e-10, &a);
	assert_int_equal(cuckoo_both(h.base, hlen), BLOOM_E_PARAMS);
	h3 = hashlist_v3(1000, 1e-10, &len3);
	assert_int_equal(cuckoo_both(h3, len3), BLOOM_E_PARAMS);
	free(h3);
	/* version 3 has a capacity */
	h3 = hashlist_v3(1000, 0.01, &len3);
	bloom_put_le64(h3 + 24, 0);
	assert_int_equal(cuckoo_both(h3, len3), BLOOM_E_PARAMS);
	free(h3);

	/* outside bytes: a capacity no filter can have, at most the largest */
	h3 = hashlist_v3(max + 1, 0.01, &len3);
	assert_int_equal(cuckoo_value_decode(h3, len3, &f), BLOOM_OK);
	assert_int_equal(cuckoo_value_validate(h3, len3, &f, NULL), BLOOM_E_PARAMS);
	free(h3);
	h3 = hashlist_v3(max, 0.01, &len3);
	assert_int_equal(cuckoo_value_validate(h3, len3, &f, NULL), BLOOM_OK);
	free(h3);

	/* outside bytes: slots that do not hold the fingerprints counted */
	slots = CUCKOO_HEAD_SIZE + c.nsubs * CUCKOO_DESC_SIZE;
	x = malloc(clen);
	memcpy(x, c.hdr.base, clen);
	memset(x + slots, 0, clen - slots);
	assert_int_equal(cuckoo_value_decode(x, clen, &f), BLOOM_OK);
	assert_int_equal(cuckoo_value_validate(x, clen, &f, NULL), BLOOM_E_CONTENT);
	free(x);
	free(h.base);
	free(c.hdr.base);
}

int
unit_value_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counting_value_forms),
		cmocka_unit_test(test_cuckoo_value_forms),
	};

	return cmocka_run_group_tests_name("value", tests, NULL, NULL);
}
