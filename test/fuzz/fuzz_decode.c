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
		if (f.kind == BLOOM_KIND_BUFFERED)
		{
			/* setting the pending hashes writes only inside the value */
			bloom_flush_pending(copy, &f);
			if (bloom_decode(copy, size, &f) != BLOOM_OK || f.nused != 0)
				abort();
		}
		if (bloom_has_bits(&f) || f.kind == BLOOM_KIND_SCALABLE)
		{
			(void) bloom_bits_set(&f);
			(void) bloom_estimate_items(&f);
			(void) bloom_estimate_fpr(&f);
			for (int64_t i = 0; i < 64; i++)
				(void) bloom_filter_contains(&f, bloom_hash_int64(f.seed, i));
		}
		else
		{
			uint8_t    *scratch = malloc(bloom_estimate_scratch(f.nused));
			uint64_t   *table = malloc(1024 * sizeof(uint64_t));
			uint64_t	exact = bloom_count_distinct(f.data, f.nused, table, 1024);
			double		est = bloom_estimate_distinct(f.data, f.nused, scratch);

			if (exact != UINT64_MAX && exact > f.nused)
				abort();
			if (!(est >= 0.0))
				abort();
			free(scratch);
			free(table);
		}
	}
	free(copy);
	return 0;
}
