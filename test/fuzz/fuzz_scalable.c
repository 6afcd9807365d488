/*
 * libFuzzer harness: scalable filters (kind 4).  The first input byte is a
 * number of keys to add, the rest a value.  An accepted scalable value is
 * read (estimates, lookups), united with itself, grown by the keys with
 * bloom_add (new layers included, up to 4 MB: past it the allocator gives
 * nothing, and the filter must be left as it was) and united with its
 * grown self; every result must decode, and every added key must be found.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../malloc_alloc.h"

#define GROW_LIMIT	(4u << 20)

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* malloc up to GROW_LIMIT bytes a value */
static void *
limited_alloc(void *arg, size_t size)
{
	return size > GROW_LIMIT ? NULL : malloc_alloc_fn(arg, size);
}

static uint8_t *
united(const BloomFilter *a, const BloomFilter *b, BloomFilter *u)
{
	size_t		len;
	uint8_t    *buf;

	if (bloom_compatible(a, b) != BLOOM_PARAM_NONE)
		abort();				/* a value and its grown self share geometry */
	len = bloom_scalable_union_size(a, b);
	buf = malloc(len);
	bloom_scalable_union(buf, a, b, NULL);
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
	BloomAlloc	a = {.alloc = limited_alloc, .free = malloc_free_fn};
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
	(void) bloom_bits_set(&f, NULL);
	(void) bloom_estimate_items(&f, NULL);
	(void) bloom_estimate_fpr(&f, NULL);
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
		uint64_t	items = g.nitems;
		bool		added;
		BloomStatus st = bloom_add(&g, h, NULL, &a, &added);

		if (g.base != buf)
		{
			free(buf);
			buf = g.base;
		}
		if (st == BLOOM_E_CAPACITY || st == BLOOM_E_NOMEM)
		{
			/* could not grow: nothing changed */
			if (added || g.nitems != items ||
				bloom_decode(buf, bloom_value_size(&g), &g) != BLOOM_OK)
				abort();
			break;
		}
		if (st != BLOOM_OK || !bloom_scalable_contains(&g, h) ||
			g.nitems != (added ? bloom_sat_add(items, 1) : items))
			abort();
	}
	len = bloom_value_size(&g);
	if (bloom_decode(buf, len, &g) != BLOOM_OK)
		abort();

	/* the union of the value and its grown self holds every added key */
	ubuf = united(&f, &g, &u);
	for (int i = 0; i < nadds; i++)
		if (!bloom_scalable_contains(&u, bloom_hash_int64(g.seed, i)) &&
			bloom_scalable_contains(&g, bloom_hash_int64(g.seed, i)))
			abort();
	free(ubuf);

	/* bloom_merge makes the same union */
	{
		BloomFilter m = f;
		BloomAlloc	al = malloc_allocator(NULL);

		if (bloom_merge(&m, &g, false, &al) != BLOOM_OK ||
			bloom_value_size(&m) != bloom_scalable_union_size(&f, &g))
			abort();
		ubuf = united(&f, &g, &u);
		if (memcmp(m.base, ubuf, bloom_value_size(&m)) != 0)
			abort();
		free(ubuf);
		free(m.base);
	}
	free(buf);
	free(orig);
	return 0;
}
