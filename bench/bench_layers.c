/*
 * Lookup order in a scalable filter: which layer to test first, and
 * whether to prefetch every layer's block before testing.  Builds a filter
 * of INITIAL keys grown GROWTH times (expansion 2, 1%), then times lookups
 * of present keys and of absent keys, random order, for: bloomtype's
 * lookup; prefetching every layer's block first or not; computing the bit
 * positions once for all layers or per layer; testing the oldest or the
 * newest layer first (each stops at the first layer that answers yes);
 * and a fixed filter sized for all the keys as the baseline, measured in
 * the same run.  Prints ns per lookup and the ratio to the baseline.
 * Usage: bench_layers [INITIAL [GROWTH]]   (default 1000000 64)
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#include <time.h>

#include "core.h"
#include "../test/malloc_alloc.h"

/*
 * Memory as the extension's probe cache holds a large filter: on a 2 MB
 * boundary, offered to the kernel for huge pages.
 */
static uint8_t *
alloc_huge(size_t len)
{
	void	   *p = NULL;

	if (posix_memalign(&p, 2 << 20, len + (2 << 20)) != 0)
		abort();
#ifdef MADV_HUGEPAGE
	(void) madvise(p, (len + (2 << 20)) & ~(size_t) ((2 << 20) - 1), MADV_HUGEPAGE);
#endif
	return p;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline bool
test_layer(const BloomLayer *l, uint64_t h)
{
	return bloom_layer_contains(l, h);
}

/* positions computed once for all layers, as bloomtype does */
static inline bool
shared_positions(const BloomFilter *f, uint64_t h, bool newest_first)
{
	const uint8_t *blk[BLOOM_MAX_LAYERS];
	unsigned	bits[BLOOM_MAX_HASHES];
	int			n = (int) f->nlayers,
				kmax = 0;
	uint64_t	x = h;

	for (int i = 0; i < n; i++)
	{
		blk[i] = f->layers[i].data + bloom_mulhi64(h, f->layers[i].nblocks) * BLOOM_BLOCK_BYTES;
		__builtin_prefetch(blk[i]);
		if (f->layers[i].k > kmax)
			kmax = f->layers[i].k;
	}
	for (int j = 0; j < kmax; j++)
	{
		x *= BLOOM_PROBE_MUL;
		bits[j] = (unsigned) (x >> (64 - BLOOM_BLOCK_LOG2));
	}
	for (int t = 0; t < n; t++)
	{
		int			i = newest_first ? n - 1 - t : t;
		unsigned	ok = 1;

		for (int j = 0; j < f->layers[i].k; j++)
			ok &= (unsigned) blk[i][bits[j] >> 3] >> (bits[j] & 7);
		if (ok & 1)
			return true;
	}
	return false;
}

static bool
shared_newest(const BloomFilter *f, uint64_t h)
{
	return shared_positions(f, h, true);
}

static bool
shared_oldest(const BloomFilter *f, uint64_t h)
{
	return shared_positions(f, h, false);
}

/* each layer computes its own positions, after prefetching all */
static bool
own_newest_prefetch(const BloomFilter *f, uint64_t h)
{
	for (uint64_t i = 0; i < f->nlayers; i++)
		__builtin_prefetch(f->layers[i].data + bloom_mulhi64(h, f->layers[i].nblocks) * BLOOM_BLOCK_BYTES);
	for (int i = (int) f->nlayers - 1; i >= 0; i--)
		if (test_layer(&f->layers[i], h))
			return true;
	return false;
}

/* one layer after the other, no prefetch (the plain way) */
static bool
oldest_plain(const BloomFilter *f, uint64_t h)
{
	for (uint64_t i = 0; i < f->nlayers; i++)
		if (test_layer(&f->layers[i], h))
			return true;
	return false;
}

static bool
bloomtype(const BloomFilter *f, uint64_t h)
{
	return bloom_scalable_contains(f, h);
}

static const BloomFilter *fixed_filter;

static bool
fixed(const BloomFilter *f, uint64_t h)
{
	(void) f;
	return bloom_contains_hash(fixed_filter, h);
}

typedef bool (*lookup_fn) (const BloomFilter *, uint64_t);

static double
time_lookups(lookup_fn fn, const BloomFilter *f, const uint64_t *keys, uint64_t n,
			 uint64_t *hits)
{
	double		best = 1e30;

	for (int rep = 0; rep < 3; rep++)
	{
		double		t0 = now();
		uint64_t	c = 0;

		for (uint64_t i = 0; i < n; i++)
			c += fn(f, keys[i]);
		t0 = now() - t0;
		if (t0 < best)
			best = t0;
		*hits = c;
	}
	return best * 1e9 / n;
}

int
main(int argc, char **argv)
{
	uint64_t	initial = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
	uint64_t	growth = argc > 2 ? strtoull(argv[2], NULL, 10) : 64;
	uint64_t	n = initial * growth,
				probes = 4000000;
	BloomPlan	plan = {0};
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter f,
				x;
	uint64_t	nb;
	size_t		len;
	uint8_t    *buf,
			   *xbuf;
	uint64_t   *present = malloc(probes * 8),
			   *absent = malloc(probes * 8),
				hits;
	static const struct
	{
		const char *name;
		lookup_fn	fn;
	}			ways[] = {
		{"bloomtype (bloom_scalable_contains)", bloomtype},
		{"prefetch all, positions once, oldest first", shared_oldest},
		{"prefetch all, positions once, newest first", shared_newest},
		{"prefetch all, positions per layer, newest first", own_newest_prefetch},
		{"no prefetch, positions per layer, oldest first", oldest_plain},
		{"fixed filter sized for every key (baseline)", fixed},
	};

	if (bloom_new_scalable(initial, 0.01, 2, &plan, &a, &f) != BLOOM_OK)
		return 1;
	for (uint64_t i = 0; i < n; i++)
	{
		uint8_t    *old = f.base;
		bool		added;

		if (bloom_add(&f, bloom_hash_int64(0, (int64_t) i), &plan, &a, &added) != BLOOM_OK)
			return 1;
		if (f.base != old)
			free(old);
	}
	buf = f.base;
	len = bloom_value_size(&f);
	{
		/* the bits on a 2 MB boundary, after the header and descriptors */
		size_t		head = bloom_scalable_size(f.nlayers, 0);
		uint8_t    *h = alloc_huge(len + (2 << 20)) + (2 << 20) - head;

		memcpy(h, buf, len);
		free(buf);
		buf = h;
		bloom_decode(buf, len, &f);
	}
	bloom_plan(0.01, &plan);
	bloom_plan_size(&plan, n, &nb);
	xbuf = alloc_huge(bloom_blocked_size(nb) + (2 << 20)) + (2 << 20) - BLOOM_HEADER_SIZE;
	bloom_init_blocked(xbuf, nb, plan.k, n, 0.01, 0);
	bloom_decode(xbuf, bloom_blocked_size(nb), &x);
	for (uint64_t i = 0; i < n; i++)
		bloom_insert_hash(&x, bloom_hash_int64(0, (int64_t) i));
	fixed_filter = &x;

	srand(42);
	for (uint64_t i = 0; i < probes; i++)
	{
		uint64_t	r = ((uint64_t) rand() << 31 ^ (uint64_t) rand()) % n;

		present[i] = bloom_hash_int64(0, (int64_t) r);
		absent[i] = bloom_hash_int64(0, -1 - (int64_t) i);
	}
	printf("%llu keys in %llu layers (%.0f MB); fixed filter %.0f MB; %llu lookups each, best of 3\n\n",
		   (unsigned long long) n, (unsigned long long) f.nlayers, len / 1048576.0,
		   bloom_blocked_size(nb) / 1048576.0, (unsigned long long) probes);
	printf("| lookup | present keys, ns | absent keys, ns | present vs baseline | absent vs baseline |\n");
	printf("|---|---|---|---|---|\n");
	{
		double		base_p,
					base_a;

		base_p = time_lookups(fixed, &f, present, probes, &hits);
		base_a = time_lookups(fixed, &f, absent, probes, &hits);
		for (int w = 0; w < 6; w++)
		{
			double		p = time_lookups(ways[w].fn, &f, present, probes, &hits);
			double		a;

			if (hits != probes)
				return 1;		/* a false negative */
			a = time_lookups(ways[w].fn, &f, absent, probes, &hits);
			printf("| %s | %.1f | %.1f | %.2fx | %.2fx |\n", ways[w].name, p, a,
				   p / base_p, a / base_a);
		}
	}
	return 0;
}
