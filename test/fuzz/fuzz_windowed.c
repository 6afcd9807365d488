/*
 * libFuzzer harness: windowed filters (kind 9).  The first input byte is a
 * number of adds, the second a seed for their slices, the rest a value.
 * An accepted windowed value is read (estimates, lookups since every kept
 * slice), united with itself, moved by adds at slices around its window
 * (new slices, drops, times older than the window) and by an expiry, each
 * result written into a new buffer and decoded again; a key added at a
 * slice kept in the window must be found, and the value never holds more
 * than window + 1 slices.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../malloc_alloc.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* f moved to slice s (an add when open), into a new buffer; f follows */
static uint8_t *
moved(uint8_t *buf, BloomFilter *f, int64_t s, bool open, int *target)
{
	BloomWindowPlan p;
	BloomFilter nf;
	uint8_t    *out;
	size_t		len;

	bloom_window_plan(f, s, open, &p);
	*target = p.target;
	if (p.nslices > f->window + 1)
		abort();
	if (!p.changed)
		return buf;
	len = bloom_window_plan_size(f, &p);
	if (len > (64u << 20))
	{
		*target = -1;
		return buf;				/* not worth the memory */
	}
	out = malloc(len);
	bloom_window_apply(out, f, &p, &nf);
	if (bloom_decode(out, len, f) != BLOOM_OK)
		abort();
	free(buf);
	return out;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	BloomFilter f,
				u;
	uint8_t    *buf,
			   *ubuf;
	size_t		len;
	int			nadds;
	uint64_t	x;

	if (size < 2 || size > (1 << 20))
		return 0;
	nadds = data[0];
	x = data[1] * 0x9E3779B97F4A7C15ull + 1;
	len = size - 2;
	buf = malloc(len ? len : 1);
	memcpy(buf, data + 2, len);
	if (bloom_decode(buf, len, &f) != BLOOM_OK || f.kind != BLOOM_KIND_WINDOWED)
	{
		free(buf);
		return 0;
	}
	(void) bloom_bits_set(&f, NULL);
	(void) bloom_estimate_items(&f, NULL);
	(void) bloom_estimate_fpr(&f, NULL);
	for (uint64_t i = 0; i <= f.nlayers; i++)
		(void) bloom_windowed_contains_from(&f, (int) i, bloom_hash_int64(f.seed, (int64_t) i));
	if (f.nlayers > 0)
		(void) bloom_window_first_since(&f, f.slice_no[0]);

	/* united with itself: the same slices */
	len = bloom_windowed_union_size(&f, &f);
	ubuf = malloc(len);
	bloom_windowed_union(ubuf, &f, &f, NULL, &u);
	if (bloom_decode(ubuf, len, &u) != BLOOM_OK || u.nlayers != f.nlayers)
		abort();
	free(ubuf);

	/* adds at slices around the newest: inside, newer, older than the window */
	for (int i = 0; i < nadds; i++)
	{
		int64_t		base = f.newest == BLOOM_WINDOW_NO_TIME ? 0 : f.newest;
		int64_t		s;
		int			target;
		uint64_t	h = bloom_hash_int64(f.seed, -1 - i);

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		s = base + (int64_t) (x % 97) - 48;
		if (!bloom_window_slice_valid(s, f.slice_usec))
			continue;
		buf = moved(buf, &f, s, true, &target);
		if (target >= 0)
		{
			bloom_windowed_insert(&f, target, h);
			if (bloom_decode(f.base, bloom_windowed_size(f.nlayers, f.nblocks), &f) != BLOOM_OK)
				abort();
			if (!bloom_filter_contains(&f, h) ||
				!bloom_windowed_contains_from(&f, bloom_window_first_since(&f, s), h))
				abort();
		}
	}
	/* an expiry a little past the newest */
	if (f.newest != BLOOM_WINDOW_NO_TIME && bloom_window_slice_valid(f.newest + 2, f.slice_usec))
	{
		int			target;

		buf = moved(buf, &f, f.newest + 2, false, &target);
		if (target != -1 || f.nlayers > f.window + 1)
			abort();
	}
	free(buf);
	return 0;
}
