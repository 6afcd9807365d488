/*
 * libFuzzer harness: sizing from (capacity, fpr).  Any 16 bytes are a
 * capacity and an IEEE 754 rate; planning either refuses them or gives a
 * geometry that fits the limits and meets the rate in the model.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	BloomPlan	plan;
	uint64_t	capacity,
				nblocks,
				max;
	double		fpr;

	if (size != 16)
		return 0;
	memcpy(&capacity, data, 8);
	memcpy(&fpr, data + 8, 8);
	if (bloom_plan(fpr, &plan) != BLOOM_OK)
	{
		if (bloom_fpr_valid(fpr))
			abort();			/* a valid rate must plan */
		return 0;
	}
	if (!bloom_fpr_valid(fpr) || plan.k < 1 || plan.k > BLOOM_MAX_HASHES ||
		!(plan.keys_per_block > 0))
		abort();
	max = bloom_plan_max_capacity(&plan);
	if (bloom_plan_size(&plan, capacity, &nblocks) == BLOOM_OK)
	{
		if (capacity == 0 || capacity > max || nblocks < 1 ||
			nblocks > BLOOM_MAX_BLOCKS ||
			bloom_blocked_size(nblocks) > BLOOM_MAX_BYTES ||
			capacity > nblocks * BLOOM_BLOCK_BITS)
			abort();
		if (bloom_model_fpr((double) capacity / nblocks, plan.k) > fpr)
			abort();			/* undersized */
	}
	else if (capacity != 0 && capacity <= max)
		abort();				/* refused what should fit */
	return 0;
}
