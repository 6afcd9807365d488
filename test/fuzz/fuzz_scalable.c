/*
 * libFuzzer harness: scalable filters (kind 4).  The first input byte is a
 * number of keys to add, the rest a value.  An accepted scalable value is
 * read (estimates, lookups), united with itself, grown by the keys (new
 * layers included, up to 4 MB) and united with its grown self; every
 * result must decode, and every added key must be found.
 */
#include <stdlib.h>
#include <string.h>

#include "bloom_core.h"

#define GROW_LIMIT	(4u << 20)

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t *
united(const BloomFilter *a, const BloomFilter *b, BloomFilter *u)
{
	const char *what;
	size_t		len;
	uint8_t    *buf;

	if (bloom_compatible(a, b, &what) != BLOOM_OK)
		abort();				/* a value and its grown self share geometry */
	len = bloom_scalable_union_size(a, b);
	buf = malloc(len);
	bloom_scalable_union(buf, a, b);
	if (bloom_decode(buf, len, u) != BLOOM_OK)
		abort();
	return buf;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	BloomFilter f,
				g,
				u;
	uint8_t    *orig,
			   *buf,
			   *ubuf;
	size_t		len;
	int			nadds;

	if (size < 1 || size > (1 << 20))
		return 0;
	nadds = data[0];
	len = size - 1;
	orig = malloc(len ? len : 1);
	memcpy(orig, data + 1, len);
	if (bloom_decode(orig, len, &f) != BLOOM_OK || f.kind != BLOOM_KIND_SCALABLE)
	{
		free(orig);
		return 0;
	}
	(void) bloom_bits_set(&f);
	(void) bloom_estimate_items(&f);
	(void) bloom_estimate_fpr(&f);
	for (int64_t i = 0; i < 64; i++)
		(void) bloom_scalable_contains(&f, bloom_hash_int64(f.seed, -i));

	ubuf = united(&f, &f, &u);
	free(ubuf);

	/* grow a copy */
	buf = malloc(len);
	memcpy(buf, orig, len);
	if (bloom_decode(buf, len, &g) != BLOOM_OK)
		abort();
	for (int i = 0; i < nadds; i++)
	{
		uint64_t	h = bloom_hash_int64(g.seed, i);

		if (bloom_scalable_contains(&g, h))
			continue;
		if (bloom_scalable_full(&g))
		{
			BloomPlan	plan;
			uint64_t	cap,
						nb;
			uint8_t    *nbuf;

			if (bloom_scalable_next_layer(&g, &plan, &cap, &nb) != BLOOM_OK)
				break;
			len = bloom_scalable_size(g.nslots + 1, bloom_scalable_blocks(&g) + nb);
			if (len > GROW_LIMIT)
				break;
			nbuf = malloc(len);
			bloom_scalable_append_layer(nbuf, &g, cap, nb, plan.k);
			free(buf);
			buf = nbuf;
			if (bloom_decode(buf, len, &g) != BLOOM_OK)
				abort();
		}
		bloom_scalable_insert(&g, h);
		bloom_write_header(buf, &g);
		if (!bloom_scalable_contains(&g, h))
			abort();
	}
	if (bloom_decode(buf, len, &g) != BLOOM_OK)
		abort();

	/* the union of the value and its grown self holds every added key */
	ubuf = united(&f, &g, &u);
	for (int i = 0; i < nadds; i++)
		if (!bloom_scalable_contains(&u, bloom_hash_int64(g.seed, i)) &&
			bloom_scalable_contains(&g, bloom_hash_int64(g.seed, i)))
			abort();
	free(ubuf);
	free(buf);
	free(orig);
	return 0;
}
