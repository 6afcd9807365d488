/*
 * libFuzzer harness: add and contains.  The input picks a rate, a kind and
 * a capacity, then is cut into keys, added with bloom_add: to a blocked
 * filter of 1.0 (takes every key), a fixed one (refuses new keys past its
 * capacity) or a scalable one (grows, from malloc, up to 32 layers).
 * Every key added must be found (no false negatives), the counts must
 * follow, and the filter must still decode.
 *
 * Byte 0: bits 0-2 the rate, bits 3-4 the kind (0: blocked, 1: fixed,
 * 2: scalable with expansion 2, 3: with expansion 1); bytes 1-2: capacity.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../malloc_alloc.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const double rates[8] = {0.5, 0.1, 0.03, 0.01, 1e-3, 1e-5, 1e-9, 1e-12};
/* planned once (planning has its own harness): for the rate, for a first layer */
static BloomPlan plans[8],
			layer_plans[8];

/* the next key: a length byte, then that many bytes */
static size_t
next_key(const uint8_t *data, size_t size, size_t *pos)
{
	size_t		klen = data[(*pos)++] % 17;

	if (klen > size - *pos)
		klen = size - *pos;
	return klen;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	BloomPlan	plan;
	BloomFilter f,
				g;
	BloomAlloc	a = malloc_allocator(NULL);
	uint64_t	capacity,
				added_keys = 0;
	int			kind;
	uint8_t    *refused;
	size_t		pos;
	BloomStatus st;

	if (size < 3)
		return 0;
	if (plans[data[0] & 7].k == 0 &&
		bloom_plan(rates[data[0] & 7], &plans[data[0] & 7]) != BLOOM_OK)
		abort();
	plan = plans[data[0] & 7];
	kind = (data[0] >> 3) & 3;
	capacity = 1 + (((uint64_t) data[1] << 8) | data[2]) % 5000;
	if (kind < 2)
		st = bloom_new_blocked(capacity, plan.fpr, kind ? BLOOM_FLAG_NONSCALING : 0,
							   &plan, &a, &f);
	else
		st = bloom_new_scalable(capacity, plan.fpr, kind == 2 ? 2 : 1,
								&layer_plans[data[0] & 7], &a, &f);
	if (st == BLOOM_E_PARAMS && kind >= 2 && !bloom_scalable_fpr_valid(plan.fpr))
		return 0;				/* a rate scalable filters cannot have */
	if (st != BLOOM_OK)
		abort();
	f.seed = data[1];
	bloom_write_header(&f);
	if (bloom_decode(f.base, bloom_value_size(&f), &f) != BLOOM_OK)
		abort();

	refused = calloc(size, 1);
	for (pos = 3; pos < size;)
	{
		size_t		start = pos;
		size_t		klen = next_key(data, size, &pos);
		uint8_t    *old = f.base;
		bool		added;

		st = bloom_add(&f, bloom_hash_bytes(f.seed, data + pos, klen), NULL, &a, &added);
		if (f.base != old)
			free(old);
		if ((st == BLOOM_E_FULL && kind == 1) || (st == BLOOM_E_CAPACITY && kind >= 2))
		{
			/* a fixed filter at capacity, a scalable one that cannot grow */
			if (added || f.base != old)
				abort();
			refused[start] = 1;
		}
		else if (st != BLOOM_OK)
			abort();
		added_keys += added;
		pos += klen;
	}
	/* 1.0 counts every key; fixed and scalable filters count new ones */
	if (kind == 0 ? f.nitems != added_keys : f.nitems > added_keys)
		abort();
	if (kind == 1 && f.nitems > f.capacity)
		abort();
	for (pos = 3; pos < size;)
	{
		size_t		start = pos;
		size_t		klen = next_key(data, size, &pos);

		if (!refused[start] &&
			!bloom_filter_contains(&f, bloom_hash_bytes(f.seed, data + pos, klen)))
			abort();			/* a false negative */
		pos += klen;
	}
	if (bloom_decode(f.base, bloom_value_size(&f), &g) != BLOOM_OK || g.nitems != f.nitems)
		abort();
	free(refused);
	free(f.base);
	return 0;
}
