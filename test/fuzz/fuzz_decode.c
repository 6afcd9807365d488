/*
 * libFuzzer harness: decoding and validation of outside bytes, then every
 * read-only operation on what was accepted.
 */
#include <stdlib.h>
#include <string.h>

#include "bloom_core.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	BloomFilter f;
	uint8_t    *copy;

	if (size > (1 << 20))
		return 0;
	/* an exact-size copy, so that any read past the end is caught */
	copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	if (bloom_decode(copy, size, &f) == BLOOM_OK)
	{
		if (f.kind == BLOOM_KIND_BLOCKED)
		{
			(void) bloom_bits_set(&f);
			(void) bloom_estimate_items(&f);
			(void) bloom_estimate_fpr(&f);
			for (int64_t i = 0; i < 64; i++)
				(void) bloom_contains_hash(&f, bloom_hash_int64(f.seed, i));
		}
		else
		{
			uint64_t	x = 0;

			for (uint64_t i = 0; i < f.nused; i++)
				x ^= bloom_hashlist_get(&f, i);
			(void) x;
		}
	}
	free(copy);
	return 0;
}
