/*
 * libFuzzer harness: counting Bloom filters (kind 5).  The first input
 * byte is a number of operations, the second seeds their keys, the rest
 * is a value.  An accepted value that passes the deep check is read
 * (describe, count, contains), then changed by operations drawn from the
 * input: adds, removes of keys it added (tracked), removes of keys
 * certainly absent, unions with a copy of itself and the blocked filter
 * it answers as.  Every tracked key must be found with a count at least
 * its adds (up to 15), a remove of an absent key must change no byte, the
 * presence plane must agree with the counters, and the value must decode.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../malloc_alloc.h"

#define MAX_TRACKED 64

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_value(const BloomFilter *f, size_t len)
{
	BloomFilter g;

	if (counting_decode(f->base, len, &g) != BLOOM_OK ||
		counting_validate_deep(&g, NULL) != BLOOM_OK || g.nitems != f->nitems)
		abort();
}

/* The blocked filter c answers as: it decodes, and answers alike */
static void
check_to_bloom(const BloomFilter *c, const uint64_t *keys, int nkeys)
{
	size_t		len = bloom_blocked_size(c->nblocks);
	uint8_t    *buf = malloc(len);
	BloomFilter out,
				g;

	counting_to_bloom(c, buf, &out);
	if (bloom_decode(buf, len, &g) != BLOOM_OK || g.kind != BLOOM_KIND_BLOCKED ||
		g.nitems > g.capacity)
		abort();
	for (int i = 0; i < nkeys; i++)
		if (bloom_filter_contains(&g, keys[i]) != counting_contains(c, keys[i]))
			abort();
	for (int64_t i = 0; i < 64; i++)
	{
		uint64_t	h = bloom_hash_int64(c->seed, i);

		if (bloom_filter_contains(&g, h) != counting_contains(c, h))
			abort();
	}
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	BloomFilter f;
	CountingInfo info;
	uint8_t    *buf,
			   *before;
	size_t		len;
	uint64_t	keys[MAX_TRACKED];
	unsigned	mult[MAX_TRACKED];
	int			ntracked = 0,
				nops;
	uint64_t	r;

	if (size < 2 || size > (1 << 20))
		return 0;
	nops = data[0];
	r = data[1] * UINT64_C(0x9E3779B97F4A7C15) + 1;
	len = size - 2;
	buf = malloc(len ? len : 1);
	memcpy(buf, data + 2, len);
	/* the counting filters the type accepts from outside */
	if (counting_value_validate(buf, len, &f, NULL) != BLOOM_OK || f.kind != BLOOM_KIND_COUNTING)
	{
		free(buf);
		return 0;
	}
	counting_describe(&f, &info, NULL);
	if (info.counters != f.nblocks * BLOOM_BLOCK_BITS || info.max_counter > 15 ||
		info.saturated > info.counters_set || info.counters_set > info.counters)
		abort();
	before = malloc(len);
	for (int op = 0; op < nops; op++)
	{
		uint64_t	h;
		int			i;

		r ^= r >> 12;
		r ^= r << 25;
		r ^= r >> 27;
		h = r * UINT64_C(0x2545F4914F6CDD1D);
		switch (h % 8)
		{
			case 0:
			case 1:
			case 2:
				/* add a new key, or one more copy of a tracked one */
				i = (int) ((h >> 8) % (MAX_TRACKED + 8));
				if (i < ntracked)
					h = keys[i];
				else if (ntracked < MAX_TRACKED)
				{
					i = ntracked++;
					keys[i] = h;
					mult[i] = 0;
				}
				else
					break;
				counting_add(&f, h);
				mult[i]++;
				break;
			case 3:
			case 4:
				/* remove one copy of a tracked key */
				if (ntracked == 0)
					break;
				i = (int) ((h >> 8) % ntracked);
				if (!counting_remove(&f, keys[i]))
					abort();
				if (--mult[i] == 0)
				{
					keys[i] = keys[--ntracked];
					mult[i] = mult[ntracked];
				}
				break;
			case 5:
				/* a key certainly absent: nothing changes */
				if (counting_contains(&f, h))
					break;
				memcpy(before, buf, len);
				if (counting_remove(&f, h) || counting_count(&f, h) != 0 ||
					memcmp(before, buf, len) != 0)
					abort();
				break;
			case 6:
				{
					/* a union with a copy of itself: every count doubles */
					uint8_t    *copy = malloc(len);
					BloomFilter c;

					memcpy(copy, buf, len);
					if (counting_decode(copy, len, &c) != BLOOM_OK ||
						counting_compatible(&f, &c) != BLOOM_PARAM_NONE)
						abort();
					counting_merge(&f, &c, NULL);
					for (i = 0; i < ntracked; i++)
						mult[i] = mult[i] * 2 > 15 ? 15 : mult[i] * 2;
					free(copy);
					check_value(&f, len);
					break;
				}
			case 7:
				check_to_bloom(&f, keys, ntracked);
				break;
		}
		for (i = 0; i < ntracked; i++)
			if (!counting_contains(&f, keys[i]) ||
				counting_count(&f, keys[i]) < (mult[i] < 15 ? mult[i] : 15))
				abort();
	}
	check_value(&f, len);
	free(before);
	free(buf);
	return 0;
}
