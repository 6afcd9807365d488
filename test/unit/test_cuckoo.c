/*
 * Unit tests of src/core/cuckoo*.c and cuckoo.h: the plan, the value
 * (round trip, every refusal, the deep check), the bucket hashing, fixed
 * filters filled to capacity, the rate at capacity (fixed and grown),
 * random adds and removes against an exact multiset, the copies cap,
 * failed adds and removes that change nothing, union in any order,
 * compaction and the filter of a hash list.
 */
#include "unit.h"
#include "cuckoo_impl.h"

/* Fingerprint bits per (b, rate), pinned; refusals of the plan */
static void
test_cuckoo_plan(void **state)
{
	const unsigned bs[] = {2, 4, 8};
	const double rates[] = {0.01, 0.001, 0.0001};
	const int	want[3][3] = {{9, 12, 16}, {10, 13, 17}, {11, 14, 18}};
	CuckooPlan	p;
	double		sum = 0;

	(void) state;
	for (int i = 0; i < 3; i++)
		for (int r = 0; r < 3; r++)
		{
			assert_int_equal(cuckoo_plan(1000, rates[r], bs[i], 0, &p), BLOOM_OK);
			assert_int_equal(p.fbits[0], want[i][r]);
			assert_true(p.n0 * bs[i] >= 1000);
			/* a scalable filter's first sub-filter has a smaller rate: more bits */
			assert_int_equal(cuckoo_plan(1000, rates[r], bs[i], 2, &p), BLOOM_OK);
			assert_true(p.fbits[0] > want[i][r]);
			for (int s = 1; s < CUCKOO_MAX_SUBS; s++)
				assert_true(p.fbits[s] >= p.fbits[s - 1]);
		}
	assert_int_equal(cuckoo_plan(1, 0.5, 8, 0, &p), BLOOM_OK);
	assert_int_equal(p.fbits[0], CUCKOO_MIN_FBITS);
	assert_int_equal(p.n0, 1);
	for (int s = 0; s < CUCKOO_MAX_SUBS; s++)
		sum += cuckoo_sub_fpr(0.01, 2, s);
	assert_true(sum <= 0.01 * (1 + 1e-12));
	assert_int_equal(cuckoo_plan(0, 0.01, 4, 0, &p), BLOOM_E_PARAMS);
	assert_int_equal(cuckoo_plan(10, 0.01, 3, 0, &p), BLOOM_E_PARAMS);
	assert_int_equal(cuckoo_plan(10, 0.01, 1, 0, &p), BLOOM_E_PARAMS);
	assert_int_equal(cuckoo_plan(10, 0.01, 4, 3, &p), BLOOM_E_PARAMS);
	assert_int_equal(cuckoo_plan(10, 0.0, 4, 0, &p), BLOOM_E_PARAMS);
	assert_int_equal(cuckoo_plan(10, NAN, 4, 0, &p), BLOOM_E_PARAMS);
	assert_int_equal(cuckoo_plan(10, 1e-12, 8, 0, &p), BLOOM_OK);
	assert_int_equal(cuckoo_plan(10, 1e-10, 8, 2, &p), BLOOM_E_PARAMS);
	assert_int_equal(cuckoo_plan(10, 1e-9, 8, 2, &p), BLOOM_OK);
	assert_true(p.fbits[CUCKOO_MAX_SUBS - 1] <= CUCKOO_MAX_FBITS);
	assert_int_equal(cuckoo_plan(UINT64_C(1) << 40, 0.01, 4, 0, &p), BLOOM_E_CAPACITY);
	for (int i = 0; i < 3; i++)
	{
		uint64_t	max = cuckoo_max_capacity(0.01, bs[i], 2);

		assert_true(max > 100000000);
		assert_int_equal(cuckoo_plan(max, 0.01, bs[i], 2, &p), BLOOM_OK);
		assert_true(cuckoo_plan(max + max / 100, 0.01, bs[i], 2, &p) == BLOOM_E_CAPACITY);
	}
}

/* A grown filter round-trips; new ones have the documented header */
static void
test_cuckoo_roundtrip(void **state)
{
	Ck			c;
	CuckooFilter g;
	CuckooInfo	info;

	(void) state;
	ck_new(&c, 100, 0.01, 4, 2);
	assert_int_equal(c.f.hdr.version, BLOOM_FORMAT_VERSION_3);
	assert_int_equal(c.f.hdr.kind, BLOOM_KIND_CUCKOO);
	assert_int_equal(c.f.hdr.base[12], 4);
	assert_int_equal(bloom_get_le64(c.f.hdr.base + 56), 500 | 2 << 16);
	for (int64_t i = 0; i < 500; i++)
		assert_int_equal(ck_add(&c, bloom_hash_int64(0, i), false, NULL), BLOOM_OK);
	assert_int_equal(c.f.nsubs, 3);
	ck_check(&c.f);
	assert_int_equal(cuckoo_decode(c.f.hdr.base, cuckoo_value_size(&c.f), &g), BLOOM_OK);
	for (unsigned i = 0; i < 3; i++)
		assert_true(g.subs[i].nbuckets == c.f.n0 << i && g.subs[i].capacity == 100u << i);
	assert_int_equal(g.hdr.nitems, 500 - g.absorbed);
	for (int64_t i = 0; i < 500; i++)
		assert_true(cuckoo_contains(&g, bloom_hash_int64(0, i)));
	cuckoo_describe(&g, &info);
	assert_int_equal(info.capacity, 700);
	assert_int_equal(info.buckets, 7 * c.f.n0);
	assert_true(info.load_factor > 0.3 && info.load_factor < 1);
	assert_true(info.estimated_fpr > 0 && info.estimated_fpr < 0.01);
	assert_int_equal(counting_decode(c.f.hdr.base, cuckoo_value_size(&c.f), &g.hdr),
					 BLOOM_E_OTHERTYPE);
	ck_free(&c);
}

/* Each field of the header and of the descriptors, and the lengths */
static void
test_cuckoo_refusals(void **state)
{
	Ck			c;
	CuckooFilter g;
	size_t		len;
	uint8_t    *m;
	const size_t d0 = CUCKOO_HEAD_SIZE,
				d1 = CUCKOO_HEAD_SIZE + CUCKOO_DESC_SIZE;

	(void) state;
	ck_new(&c, 50, 0.01, 4, 2);
	for (int64_t i = 0; i < 100; i++)
		ck_add(&c, bloom_hash_int64(0, i), false, NULL);
	assert_int_equal(c.f.nsubs, 2);
	len = cuckoo_value_size(&c.f);
	m = malloc(len + 8);
	/* as the input paths read a value: decode, then the deep check */
#define REFUSED(expect, stmt) \
	do { BloomStatus st_; memcpy(m, c.f.hdr.base, len); stmt; \
		st_ = cuckoo_decode(m, len, &g); \
		if (st_ == BLOOM_OK) st_ = cuckoo_validate_deep(&g, NULL); \
		assert_int_equal(st_, (expect)); } while (0)
	REFUSED(BLOOM_OK, (void) 0);
	REFUSED(BLOOM_E_MAGIC, m[3] = 'G');
	REFUSED(BLOOM_E_VERSION, m[4] = 2);
	REFUSED(BLOOM_E_OTHERTYPE, m[5] = BLOOM_KIND_COUNTING);
	REFUSED(BLOOM_E_OTHERTYPE, m[5] = BLOOM_KIND_SPARSE);
	REFUSED(BLOOM_E_KIND, m[5] = 9);
	REFUSED(BLOOM_E_HASH, m[6] = 0);
	REFUSED(BLOOM_E_KEYCLASS, m[7] = BLOOM_KEY_OTHER);
	REFUSED(BLOOM_E_GEOMETRY, m[12] = 3);
	REFUSED(BLOOM_E_COUNT, m[12] = 2);	/* more fingerprints than slots of 2 */
	REFUSED(BLOOM_E_GEOMETRY, m[13] = 9);
	REFUSED(BLOOM_E_FLAGS, m[14] = 1);
	REFUSED(BLOOM_E_PARAMS, bloom_put_le64(m + 24, 51));	/* descriptors' capacities */
	REFUSED(BLOOM_E_PARAMS, bloom_put_le64(m + 24, 0));
	REFUSED(BLOOM_E_PARAMS, m[39] = 0x7F);
	REFUSED(BLOOM_E_COUNT, m[40]++);
	REFUSED(BLOOM_E_GEOMETRY, bloom_put_le64(m + 48, 0));
	REFUSED(BLOOM_E_GEOMETRY, bloom_put_le64(m + 48, 3));
	REFUSED(BLOOM_E_GEOMETRY, bloom_put_le64(m + 48, CUCKOO_MAX_SUBS + 1));
	REFUSED(BLOOM_E_GEOMETRY, m[56] = 0; m[57] = 0);	/* no kicks */
	REFUSED(BLOOM_OK, m[56] = 0xFF; m[57] = 0xFF);	/* most kicks */
	REFUSED(BLOOM_E_GEOMETRY, m[58] = 3);	/* expansion */
	REFUSED(BLOOM_E_GEOMETRY, m[58] = 0);	/* fixed: one sub-filter */
	REFUSED(BLOOM_E_GEOMETRY, m[58] = 4);
	REFUSED(BLOOM_E_FLAGS, m[59] = 1);
	REFUSED(BLOOM_OK, m[64] = 5);	/* deletes, absorbed, stuck: any */
	REFUSED(BLOOM_E_FLAGS, m[88] = 1);
	REFUSED(BLOOM_E_GEOMETRY, m[d0]++);
	REFUSED(BLOOM_E_GEOMETRY, m[d1]--);
	REFUSED(BLOOM_E_PARAMS, m[d0 + 8]++);
	REFUSED(BLOOM_E_PARAMS, m[d1 + 15] = 0x80);
	REFUSED(BLOOM_E_COUNT, m[d0 + 16]++);
	REFUSED(BLOOM_E_COUNT, m[d0 + 16]++; m[d1 + 16]--; m[40] = 0);
	REFUSED(BLOOM_E_CONTENT, m[d0 + 16]++; m[d1 + 16]--);	/* sums agree: the slots do not */
	REFUSED(BLOOM_E_COUNT, bloom_put_le64(m + d0 + 16, c.f.n0 * 4 + 1);
			bloom_put_le64(m + 40, c.f.n0 * 4 + 1 + c.f.subs[1].nitems));
	REFUSED(BLOOM_E_LENGTH, m[d0 + 24]++);
	REFUSED(BLOOM_E_LENGTH, m[d1 + 24]--);
	REFUSED(BLOOM_E_GEOMETRY, m[d0 + 25] = 1);
#undef REFUSED
	memcpy(m, c.f.hdr.base, len);
	assert_int_equal(cuckoo_decode(m, len - 1, &g), BLOOM_E_LENGTH);
	m[len] = 0;
	assert_int_equal(cuckoo_decode(m, len + 1, &g), BLOOM_E_LENGTH);
	assert_int_equal(cuckoo_decode(m, CUCKOO_HEAD_SIZE, &g), BLOOM_E_LENGTH);
	assert_int_equal(cuckoo_decode(m, 63, &g), BLOOM_E_SHORT);

	/* the deep check: counts against slots, and zero padding */
	m[d0 + 16]++;
	m[d1 + 16]--;
	assert_int_equal(cuckoo_decode(m, len, &g), BLOOM_OK);
	assert_int_equal(cuckoo_validate_deep(&g, NULL), BLOOM_E_CONTENT);
	memcpy(m, c.f.hdr.base, len);
	assert_int_equal(cuckoo_decode(m, len, &g), BLOOM_OK);
	g.subs[0].slots[cuckoo_area_size(g.subs[0].nbuckets, 4, g.subs[0].fbits) - 1] = 1;
	assert_int_equal(cuckoo_validate_deep(&g, NULL), BLOOM_E_FLAGS);
	memcpy(m, c.f.hdr.base, len);
	assert_int_equal(cuckoo_decode(m, len, &g), BLOOM_OK);
	m[len - 1] = 0x40;
	assert_int_equal(cuckoo_validate_deep(&g, NULL), BLOOM_E_FLAGS);
	{
		/* the bits past the last slot in its byte, when it ends inside one */
		Ck			o;
		CuckooFilter h;
		size_t		olen;
		uint64_t	bits;

		ck_new(&o, 2, 0.01, 2, 0);	/* 5 buckets x 2 slots x 9 bits = 90 */
		bits = o.f.subs[0].nbuckets * 2 * 9;
		assert_true((bits & 7) != 0);
		olen = cuckoo_value_size(&o.f);
		assert_int_equal(cuckoo_decode(o.f.hdr.base, olen, &h), BLOOM_OK);
		h.subs[0].slots[bits >> 3] |= (uint8_t) (1u << (bits & 7));
		assert_int_equal(cuckoo_validate_deep(&h, NULL), BLOOM_E_FLAGS);
		ck_free(&o);
	}
	free(m);
	ck_free(&c);
}

/* The alternate bucket is an involution and nests across sub-filters */
static void
test_cuckoo_alt(void **state)
{
	const uint64_t n0s[] = {1, 2, 3, 1000003, UINT64_C(123456789)};

	(void) state;
	for (int t = 0; t < 5; t++)
	{
		CuckooFilter f;
		uint64_t	r = 7 + t;

		memset(&f, 0, sizeof(f));
		f.n0 = n0s[t];
		f.b = 4;
		f.nsubs = 12;
		for (int i = 0; i < 12; i++)
		{
			f.subs[i].log2e = i * (t % 2 ? 2 : 1);
			f.subs[i].nbuckets = f.n0 << f.subs[i].log2e;
			f.subs[i].fbits = 10 + i;
		}
		for (int n = 0; n < 100000; n++)
		{
			uint64_t	h = unit_rand(&r);
			uint64_t	v0 = ck_fp(ck_mix(h), f.subs[0].fbits);

			for (int j = 0; j < 12; j++)
			{
				const CuckooSub *sj = &f.subs[j];
				uint64_t	B1 = ck_primary(&f, sj, h);
				uint64_t	B2 = ck_alt(&f, sj, B1, v0);

				assert_true(B1 < sj->nbuckets && B2 < sj->nbuckets);
				assert_int_equal(ck_alt(&f, sj, B2, v0), B1);
				/* the fingerprint's sub-filter-0 form is the same from any sub */
				assert_int_equal(ck_fp(ck_fp(ck_mix(h), sj->fbits), f.subs[0].fbits), v0);
				for (int i = 0; i < j; i++)
				{
					const CuckooSub *si = &f.subs[i];
					int			d = sj->log2e - si->log2e;

					assert_int_equal(B1 >> d, ck_primary(&f, si, h));
					assert_int_equal(B2 >> d, ck_alt(&f, si, B1 >> d, v0));
				}
			}
		}
	}
}

/*
 * Fixed filters of many capacities take their capacity of distinct keys
 * with no BLOOM_E_FULL, for b = 2, 4, 8 (at 1%).  (b = 1 could not
 * promise it: a few keys whose pairs close two cycles fill a table at any
 * load, and pairs filled by keys of one fingerprint grow with the table;
 * the format refuses it.)
 */
static void
test_cuckoo_fill(void **state)
{
	const unsigned bs[] = {2, 4, 8};
	uint64_t	caps[160];
	int			ncaps = 0;

	(void) state;
	for (uint64_t c = 1; c <= 120; c++)
		caps[ncaps++] = c;
	for (uint64_t c = 127; c <= 1000000; c = c * 5 / 3 + 1)
		caps[ncaps++] = c;
	caps[ncaps++] = 1000000;
	for (int i = 0; i < 3; i++)
	{
		double		fpr = 0.01;
		uint64_t	refused = 0;

		double		minload = 1.0;
		uint64_t	filled = 0;

		for (int t = 0; t < ncaps; t++)
			for (int seed = 0; seed < (caps[t] < 10000 ? 8 : 1); seed++)
			{
				Ck			c;
				double		load;

				ck_new(&c, caps[t], fpr, bs[i], 0);
				for (uint64_t k = 0; k < caps[t]; k++)
				{
					BloomStatus st = ck_add(&c, bloom_hash_int64(seed, (int64_t) k), false, NULL);

					assert_int_equal(st, BLOOM_OK);
				}
				load = (double) c.f.hdr.nitems / (double) (c.f.n0 * bs[i]);
				if (caps[t] >= 1000 && load < minload)
					minload = load;
				filled++;
				ck_free(&c);
			}
		print_message("cuckoo fill b %u fpr %g: %llu filters of capacity 1..1e6, %llu "
					  "refused before capacity; lowest load at capacity (>= 1000) %.3f\n",
					  bs[i], fpr, (unsigned long long) filled,
					  (unsigned long long) refused, minload);
		assert_int_equal(refused, 0);
	}
}

/* The rate measured on 2M never-added keys, in a filter of capacity keys */
static double
measured_fpr(const CuckooFilter *f, int64_t seed)
{
	uint64_t	fp = 0;

	for (int64_t i = 0; i < 2000000; i++)
		fp += cuckoo_contains(f, bloom_hash_int64(seed, -1 - i));
	return (double) fp / 2000000;
}

/*
 * At capacity, the rate is at or under the target: fixed (b 2 and 4), and
 * scalable grown to 8x its capacity (expansion 2 and 1)
 */
static void
test_cuckoo_fpr(void **state)
{
	const double rates[] = {0.01, 0.001, 0.0001};
	const unsigned exps[] = {0, 0, 2, 1};
	const unsigned bs[] = {4, 2, 4, 4};

	(void) state;
	for (int r = 0; r < 3; r++)
		for (int t = 0; t < 4; t++)
		{
			Ck			c;
			uint64_t	cap = exps[t] ? 12500 : 100000;
			double		fpr;
			CuckooInfo	info;

			ck_new(&c, cap, rates[r], bs[t], exps[t]);
			for (int64_t i = 0; i < 100000; i++)
				assert_int_equal(ck_add(&c, bloom_hash_int64(9, i), false, NULL), BLOOM_OK);
			for (int64_t i = 0; i < 100000; i++)
				assert_true(cuckoo_contains(&c.f, bloom_hash_int64(9, i)));
			fpr = measured_fpr(&c.f, 9);
			cuckoo_describe(&c.f, &info);
			print_message("cuckoo fpr %g b %u expansion %u: measured %.6f, estimated %.6f, "
						  "%u sub-filters, %.2f bits a key\n", rates[r], bs[t], exps[t],
						  fpr, info.estimated_fpr, c.f.nsubs,
						  cuckoo_value_size(&c.f) * 8.0 / 100000);
			assert_true(fpr <= rates[r]);
			if (exps[t] == 0)
				assert_true(fpr >= rates[r] * 0.2);
			assert_true(info.estimated_fpr <= rates[r]);
			ck_free(&c);
		}
}

/*
 * 100,000 adds and removes of keys from a pool of 20,000 against an exact
 * multiset, for a fixed filter, a growing one and one compacted every
 * 10,000 operations: no key held is ever missing
 */
static void
test_cuckoo_random(void **state)
{
	const uint64_t seeds[] = {11, 12, 13};
	const int	pool = 20000;

	(void) state;
	for (int mode = 0; mode < 3; mode++)
		for (int s = 0; s < 3; s++)
		{
			Ck			c;
			int		   *mult = calloc(pool, sizeof(int));
			int		   *held = malloc(pool * sizeof(int));
			int			nheld = 0;
			uint64_t	r = seeds[s],
						kept = 0;

			ck_new(&c, mode == 0 ? 25000 : 1000, 0.01, mode == 2 ? 2 : 4, mode ? 2 : 0);
			for (int op = 1; op <= 100000; op++)
			{
				int			key;

				if (nheld == 0 || unit_rand(&r) % 100 < 60)
				{
					key = (int) (unit_rand(&r) % pool);
					assert_int_equal(ck_add(&c, bloom_hash_int64(s, key), false, NULL),
									 BLOOM_OK);
					if (mult[key]++ == 0)
						held[nheld++] = key;
				}
				else
				{
					int			i = (int) (unit_rand(&r) % nheld);
					CuckooRemoved rm;

					key = held[i];
					rm = cuckoo_remove(&c.f, bloom_hash_int64(s, key));
					assert_true(rm != CUCKOO_ABSENT);
					kept += rm == CUCKOO_KEPT;
					if (--mult[key] == 0)
						held[i] = held[--nheld];
				}
				if (mult[key] > 0)
					assert_true(cuckoo_contains(&c.f, bloom_hash_int64(s, key)));
				if (mode == 2 && op % 10000 == 0)
				{
					CuckooFilter out;

					assert_int_equal(cuckoo_compact(&c.f, &c.a, &out), BLOOM_OK);
					c.a.free(c.a.arg, c.f.hdr.base);
					c.f = out;
				}
				if (op % 5000 == 0)
				{
					for (int i = 0; i < nheld; i++)
						assert_true(cuckoo_contains(&c.f, bloom_hash_int64(s, held[i])));
					ck_check(&c.f);
				}
			}
			if (s == 0)
				print_message("cuckoo random mode %d: %u sub-filters, %llu items, %llu kept "
							  "(stuck), %llu absorbed\n", mode, c.f.nsubs,
							  (unsigned long long) c.f.hdr.nitems, (unsigned long long) kept,
							  (unsigned long long) c.f.absorbed);
			assert_int_equal(c.f.stuck, kept);
			free(mult);
			free(held);
			ck_free(&c);
		}
}

/* One key added 100,000 times fills nothing: the copies cap (RedisBloom #533) */
static void
test_cuckoo_one_key(void **state)
{
	const unsigned bs[] = {2, 4, 8};

	(void) state;
	for (int i = 0; i < 3; i++)
	{
		Ck			c;
		uint64_t	h = bloom_hash_int64(0, -5);
		unsigned	cap = cuckoo_cap(bs[i]);
		CuckooAdded what;

		ck_new(&c, 1000, 0.01, bs[i], 2);
		for (int n = 0; n < 100000; n++)
		{
			assert_int_equal(ck_add(&c, h, false, &what), BLOOM_OK);
			assert_int_equal(what, (unsigned) n < cap ? CUCKOO_STORED : CUCKOO_ABSORBED);
		}
		assert_true(c.f.nsubs == 1 && c.f.hdr.nitems == cap && cuckoo_count(&c.f, h) == cap);
		assert_int_equal(c.f.absorbed, 100000 - cap);
		/* a class at the cap is never removed from */
		assert_int_equal(cuckoo_remove(&c.f, h), CUCKOO_KEPT);
		assert_int_equal(cuckoo_count(&c.f, h), cap);
		assert_true(ck_add(&c, h, true, &what) == BLOOM_OK && what == CUCKOO_PRESENT);
		for (int64_t k = 0; k < 1000 - cap; k++)
			assert_int_equal(ck_add(&c, bloom_hash_int64(1, k), true, NULL), BLOOM_OK);
		for (int64_t k = 0; k < 1000 - cap; k++)
			assert_true(cuckoo_contains(&c.f, bloom_hash_int64(1, k)));
		assert_int_equal(c.f.nsubs, 1);
		ck_check(&c.f);
		ck_free(&c);
	}
}

/* A remove of an absent key, and a refused add, leave every byte */
static void
test_cuckoo_unchanged(void **state)
{
	Ck			c;
	size_t		len;
	uint8_t    *before;
	int64_t		k;
	int			absent = 0,
				full = 0;

	(void) state;
	ck_new(&c, 1000, 0.01, 4, 0);
	for (k = 0; k < 1000; k++)
		assert_int_equal(ck_add(&c, bloom_hash_int64(0, k), false, NULL), BLOOM_OK);
	len = cuckoo_value_size(&c.f);
	before = malloc(len);
	memcpy(before, c.f.hdr.base, len);
	for (int64_t i = 0; i < 10000; i++)
		if (!cuckoo_contains(&c.f, bloom_hash_int64(1, i)) && ++absent > 0)
			assert_int_equal(cuckoo_remove(&c.f, bloom_hash_int64(1, i)), CUCKOO_ABSENT);
	assert_true(absent > 9800);
	assert_memory_equal(before, c.f.hdr.base, len);
	/* past capacity until refused: a refusal changes nothing */
	for (; full < 5 && k < 100000; k++)
	{
		memcpy(before, c.f.hdr.base, len);
		if (ck_add(&c, bloom_hash_int64(0, k), false, NULL) == BLOOM_E_FULL &&
			++full > 0)
			assert_memory_equal(before, c.f.hdr.base, len);
	}
	assert_int_equal(full, 5);
	ck_check(&c.f);
	free(before);
	ck_free(&c);
}

/* A union of four filters in any order answers every key alike */
static void
test_cuckoo_merge(void **state)
{
	static const int orders[4][4] = {{0, 1, 2, 3}, {3, 2, 1, 0}, {2, 0, 3, 1}, {1, 3, 0, 2}};
	Ck			parts[4];
	uint8_t    *answers = malloc(1200000);

	(void) state;
	for (int p = 0; p < 4; p++)
	{
		ck_new(&parts[p], 20000, 0.01, 4, 2);
		/* overlapping ranges, some repeats */
		for (int64_t i = p * 3000; i < p * 3000 + 4000; i++)
			for (int t = 0; t < (i % 50 == 0 ? 3 : 1); t++)
				ck_add(&parts[p], bloom_hash_int64(0, i), false, NULL);
	}
	for (int o = 0; o < 4; o++)
	{
		CuckooFilter u = ck_copy(&parts[orders[o][0]].f);
		BloomAlloc	al = malloc_allocator(NULL);

		for (int p = 1; p < 4; p++)
		{
			uint8_t    *old = u.hdr.base;

			assert_int_equal(cuckoo_merge(&u, &parts[orders[o][p]].f, &al), BLOOM_OK);
			if (u.hdr.base != old)
				free(old);
		}
		ck_check(&u);
		assert_int_equal(u.nsubs, 1);
		for (int64_t i = 0; i < 1200000; i++)
		{
			uint64_t	h = bloom_hash_int64(0, i);
			uint8_t		ans = (uint8_t) (cuckoo_contains(&u, h) | cuckoo_count(&u, h) << 1);

			if (i < 13000)
				assert_true(cuckoo_contains(&u, h));
			if (o == 0)
				answers[i] = ans;
			else
				assert_int_equal(ans, answers[i]);
		}
		free(u.hdr.base);
	}
	/*
	 * A grown filter unites into an empty one (every key found);
	 * two whose first sub-filters together pass its slots cannot unite
	 * (fingerprints only move to older sub-filters): BLOOM_E_FULL
	 */
	{
		Ck			a,
					b;

		ck_new(&a, 100, 0.01, 4, 2);
		ck_new(&b, 100, 0.01, 4, 2);
		for (int64_t i = 0; i < 600; i++)
			ck_add(&b, bloom_hash_int64(1, i), false, NULL);
		for (int pass = 0; pass < 2; pass++)
		{
			CuckooFilter u = ck_copy(&a.f);
			uint8_t    *old = u.hdr.base;

			assert_int_equal(cuckoo_merge(&u, &b.f, &a.a), pass ? BLOOM_E_FULL : BLOOM_OK);
			for (int64_t i = 0; i < 600 && !pass; i++)
				assert_true(cuckoo_contains(&u, bloom_hash_int64(1, i)));
			if (!pass)
				ck_check(&u);
			assert_true(u.hdr.base != old);	/* grown: a new value, ours */
			a.a.free(a.a.arg, u.hdr.base);
			free(old);
			for (int64_t i = 0; i < 150; i++)
				ck_add(&a, bloom_hash_int64(0, i), false, NULL);
		}
		ck_free(&a);
		ck_free(&b);
	}
	for (int p = 0; p < 4; p++)
		ck_free(&parts[p]);
	free(answers);
}

/*
 * Compaction keeps every added key and every count, and drops the empty
 * sub-filters at the end; absent keys stay under the target rate
 */
static void
test_cuckoo_compact(void **state)
{
	Ck			c;
	CuckooFilter out;
	uint64_t	changed = 0;
	uint64_t	items;
	unsigned	before;

	(void) state;
	ck_new(&c, 1000, 0.01, 4, 2);
	for (int64_t i = 0; i < 7000; i++)
		assert_int_equal(ck_add(&c, bloom_hash_int64(0, i), false, NULL), BLOOM_OK);
	before = c.f.nsubs;
	assert_true(before >= 3);
	for (int64_t i = 0; i < 6600; i++)
		assert_true(cuckoo_remove(&c.f, bloom_hash_int64(0, i)) != CUCKOO_ABSENT);
	items = c.f.hdr.nitems;
	assert_int_equal(cuckoo_compact(&c.f, &c.a, &out), BLOOM_OK);
	assert_int_equal(c.live, 2);
	ck_check(&out);
	assert_int_equal(out.hdr.nitems, items);
	assert_true(out.nsubs < before);
	print_message("cuckoo compact: %u sub-filters to %u, %llu items\n", before, out.nsubs,
				  (unsigned long long) items);
	for (int64_t i = 6600; i < 7000; i++)
		assert_true(cuckoo_contains(&out, bloom_hash_int64(0, i)));
	for (int64_t i = 0; i < 1000000; i++)
		changed += cuckoo_contains(&out, bloom_hash_int64(0, -1 - i)) !=
			cuckoo_contains(&c.f, bloom_hash_int64(0, -1 - i));
	print_message("cuckoo compact: %llu of 1e6 absent keys answer otherwise\n",
				  (unsigned long long) changed);
	assert_true(measured_fpr(&out, 0) <= 0.01);
	c.a.free(c.a.arg, c.f.hdr.base);
	c.f = out;

	/* an empty grown filter compacts to its first sub-filter */
	for (int64_t i = 6600; i < 7000; i++)
		cuckoo_remove(&c.f, bloom_hash_int64(0, i));
	assert_int_equal(cuckoo_compact(&c.f, &c.a, &out), BLOOM_OK);
	c.a.free(c.a.arg, c.f.hdr.base);
	c.f = out;
	ck_check(&c.f);
	assert_int_equal(c.f.nsubs, 1);
	assert_int_equal(cuckoo_value_size(&c.f), CUCKOO_HEAD_SIZE + CUCKOO_DESC_SIZE +
					 cuckoo_area_size(c.f.n0, 4, c.f.subs[0].fbits));
	ck_free(&c);
}

/* The filter a hash list stands for holds every hash, repeats as copies */
static void
test_cuckoo_from_hashlist(void **state)
{
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter st = new_hashlist(3000, 0.001, &a);
	CuckooFilter out;

	(void) state;
	for (uint64_t i = 0; i < 3000; i++)
		bloom_hashlist_set(&st, i, bloom_hash_int64(4, (int64_t) (i % 2500)));
	st.nhashes = 3000;
	st.nitems = 3000;
	st.seed = 4;
	st.key_class = BLOOM_KEY_INTEGER;
	bloom_write_header(&st);
	assert_int_equal(cuckoo_from_hashlist(&st, 1000, &a, &out), BLOOM_OK);
	ck_check(&out);
	assert_true(out.hdr.seed == 4 && out.hdr.key_class == BLOOM_KEY_INTEGER && out.nsubs >= 2);
	for (int64_t i = 0; i < 2500; i++)
		assert_true(cuckoo_count(&out, bloom_hash_int64(4, i)) >= (i < 500 ? 2u : 1u));
	free(out.hdr.base);
	free(st.base);
}

int
unit_cuckoo_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cuckoo_plan),
		cmocka_unit_test(test_cuckoo_roundtrip),
		cmocka_unit_test(test_cuckoo_refusals),
		cmocka_unit_test(test_cuckoo_alt),
		cmocka_unit_test(test_cuckoo_fill),
		cmocka_unit_test(test_cuckoo_fpr),
		cmocka_unit_test(test_cuckoo_random),
		cmocka_unit_test(test_cuckoo_one_key),
		cmocka_unit_test(test_cuckoo_unchanged),
		cmocka_unit_test(test_cuckoo_merge),
		cmocka_unit_test(test_cuckoo_compact),
		cmocka_unit_test(test_cuckoo_from_hashlist),
	};

	return cmocka_run_group_tests_name("cuckoo", tests, NULL, NULL);
}
