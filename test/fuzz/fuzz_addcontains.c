/*
 * libFuzzer harness: add and contains.  The input picks a rate and a
 * capacity, then is cut into keys; every key added must be found (no false
 * negatives), and the filter must still decode.
 */
#include <stdlib.h>
#include <string.h>

#include "bloom_core.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const double rates[8] = {0.5, 0.1, 0.03, 0.01, 1e-3, 1e-5, 1e-9, 1e-12};
static BloomPlan plans[8];		/* planned once: planning has its own harness */

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	BloomPlan	plan;
	BloomFilter f,
				g;
	uint64_t	capacity,
				nblocks;
	uint8_t    *buf;
	size_t		len,
				pos;

	if (size < 3)
		return 0;
	if (plans[data[0] & 7].k == 0 &&
		bloom_plan(rates[data[0] & 7], &plans[data[0] & 7]) != BLOOM_OK)
		abort();
	plan = plans[data[0] & 7];
	capacity = 1 + (((uint64_t) data[1] << 8) | data[2]) % 5000;
	if (bloom_plan_size(&plan, capacity, &nblocks) != BLOOM_OK)
		abort();
	len = bloom_blocked_size(nblocks);
	buf = malloc(len);
	bloom_init_blocked(buf, nblocks, plan.k, capacity, plan.fpr, data[1]);
	if (bloom_decode(buf, len, &f) != BLOOM_OK)
		abort();

	/* keys: a length byte, then that many bytes */
	for (pos = 3; pos < size;)
	{
		size_t		klen = data[pos++] % 17;

		if (klen > size - pos)
			klen = size - pos;
		bloom_insert_hash(&f, bloom_hash_bytes(f.seed, data + pos, klen));
		pos += klen;
	}
	for (pos = 3; pos < size;)
	{
		size_t		klen = data[pos++] % 17;

		if (klen > size - pos)
			klen = size - pos;
		if (!bloom_contains_hash(&f, bloom_hash_bytes(f.seed, data + pos, klen)))
			abort();			/* a false negative */
		pos += klen;
	}
	if (bloom_decode(buf, len, &g) != BLOOM_OK)
		abort();
	free(buf);
	return 0;
}
