/*
 * libFuzzer harness: cuckoo filters (kind 6).  The first input byte is a
 * number of operations, the second seeds their keys, the rest is a value.
 * An accepted value that passes the deep check is read (describe, count,
 * contains), then changed by operations drawn from the input: adds (with
 * growth, up to 4 MB: past it the allocator gives nothing), adds of new
 * keys only, removes of keys it added (tracked), removes of keys certainly
 * absent, compaction and unions with a copy of itself.  Every tracked key
 * must be found, a remove of an absent key and a refused add must change
 * no byte, and the value must decode with as many items as nonzero slots.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../malloc_alloc.h"

#define GROW_LIMIT	(4u << 20)
#define MAX_TRACKED 64

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* malloc up to GROW_LIMIT bytes a value */
static void *
limited_alloc(void *arg, size_t size)
{
	return size > GROW_LIMIT ? NULL : malloc_alloc_fn(arg, size);
}

/* It decodes, and its items are its nonzero slots (validate_deep) */
static void
check_value(const CuckooFilter *f)
{
	CuckooFilter g;

	if (cuckoo_decode(f->hdr.base, cuckoo_value_size(f), &g) != BLOOM_OK ||
		cuckoo_validate_deep(&g, NULL) != BLOOM_OK || g.hdr.nitems != f->hdr.nitems ||
		g.nsubs != f->nsubs)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	CuckooFilter f;
	CuckooInfo	info;
	BloomAlloc	a = {.alloc = limited_alloc, .free = malloc_free_fn};
	uint8_t    *buf,
			   *before = NULL;
	size_t		len;
	uint64_t	keys[MAX_TRACKED];
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
	/* the cuckoo filters the type accepts from outside */
	if (cuckoo_value_validate(buf, len, &f, NULL) != BLOOM_OK || f.hdr.kind != BLOOM_KIND_CUCKOO)
	{
		free(buf);
		return 0;
	}
	cuckoo_describe(&f, &info);
	if (info.capacity < f.hdr.capacity || !(info.load_factor >= 0 && info.load_factor <= 1) ||
		!(info.estimated_fpr >= 0 && info.estimated_fpr <= 1))
		abort();
	for (int64_t i = 0; i < 64; i++)
	{
		uint64_t	h = bloom_hash_int64(f.hdr.seed, i);

		if ((cuckoo_count(&f, h) > 0) != cuckoo_contains(&f, h))
			abort();
	}
	for (int op = 0; op < nops; op++)
	{
		uint64_t	h;
		uint8_t    *old = f.hdr.base;
		size_t		flen = cuckoo_value_size(&f);
		BloomStatus st;
		CuckooAdded what;
		int			i;

		r ^= r >> 12;
		r ^= r << 25;
		r ^= r >> 27;
		h = r * UINT64_C(0x2545F4914F6CDD1D);
		switch (h % 10)
		{
			case 0:
			case 1:
			case 2:
			case 3:
				/* a new key, or a tracked one again; only_new now and then */
				i = (int) ((h >> 8) % (MAX_TRACKED + 8));
				if (i < ntracked)
					h = keys[i];
				free(before);
				before = malloc(flen);
				memcpy(before, old, flen);
				st = cuckoo_add(&f, h, (h >> 20) % 4 == 0, &a, &what);
				if (st == BLOOM_OK)
				{
					if (f.hdr.base != old)
						free(old);
					if (i >= ntracked && ntracked < MAX_TRACKED && what != CUCKOO_PRESENT)
						keys[ntracked++] = h;
				}
				else if (f.hdr.base != old || cuckoo_value_size(&f) != flen ||
						 memcmp(before, old, flen) != 0 ||
						 (st != BLOOM_E_FULL && st != BLOOM_E_NOMEM &&
						  st != BLOOM_E_CAPACITY))
					abort();	/* a refusal changes nothing */
				break;
			case 4:
			case 5:
				/* one copy of a tracked key: it was added, so it is there */
				if (ntracked == 0)
					break;
				i = (int) ((h >> 8) % ntracked);
				if (cuckoo_remove(&f, keys[i]) == CUCKOO_ABSENT)
					abort();
				keys[i] = keys[--ntracked];
				break;
			case 6:
				/* a key certainly absent: nothing changes */
				if (cuckoo_contains(&f, h))
					break;
				free(before);
				before = malloc(flen);
				memcpy(before, old, flen);
				if (cuckoo_remove(&f, h) != CUCKOO_ABSENT || cuckoo_count(&f, h) != 0 ||
					memcmp(before, old, flen) != 0)
					abort();
				break;
			case 7:
				{
					CuckooFilter out;

					st = cuckoo_compact(&f, &a, &out);
					if (st == BLOOM_E_NOMEM)
						break;
					if (st != BLOOM_OK || out.nsubs > f.nsubs ||
						out.hdr.nitems != f.hdr.nitems)
						abort();
					free(old);
					f = out;
					check_value(&f);
					break;
				}
			case 8:
				{
					/* a union with a copy of itself, kept when it fits */
					uint8_t    *copy = malloc(flen);
					CuckooFilter c,
								u;

					memcpy(copy, old, flen);
					if (cuckoo_decode(copy, flen, &c) != BLOOM_OK ||
						cuckoo_compatible(&f, &c) != BLOOM_PARAM_NONE)
						abort();
					u = c;
					/* u's value is the copy; c is read from the original */
					if (cuckoo_decode(old, flen, &c) != BLOOM_OK)
						abort();
					st = cuckoo_merge(&u, &c, &a);
					if (st == BLOOM_OK)
					{
						check_value(&u);
						for (i = 0; i < ntracked; i++)
							if (!cuckoo_contains(&u, keys[i]))
								abort();
						free(old);
						f = u;
						if (u.hdr.base != copy)
							free(copy);
					}
					else
					{
						if (st != BLOOM_E_FULL && st != BLOOM_E_NOMEM &&
							st != BLOOM_E_CAPACITY)
							abort();
						if (u.hdr.base != copy)
							free(u.hdr.base);
						free(copy);
					}
					break;
				}
			case 9:
				check_value(&f);
				break;
		}
		for (i = 0; i < ntracked; i++)
			if (!cuckoo_contains(&f, keys[i]) || cuckoo_count(&f, keys[i]) == 0)
				abort();
	}
	check_value(&f);
	free(before);
	free(f.hdr.base);
	return 0;
}
