/*
 * libFuzzer harness: decoding and validation of outside bytes, then every
 * read-only operation on what was accepted: lookups and estimates of
 * filters, distinct counts, canonical bytes, views of light states
 * (compared with the filter, up to 1 MB) and materialisation of
 * aggregate states (whose results must decode).
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../malloc_alloc.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The canonical bytes of a state decode, and are canonical */
static void
check_canonical(const BloomFilter *f)
{
	size_t		len = bloom_canonical_size(f);
	uint8_t    *out = malloc(len);
	BloomFilter c;

	bloom_canonical_write(f, out);
	if ((f->kind == BLOOM_KIND_SPARSE_COUNTING ? counting_sparse_decode(out, len, &c) :
		 bloom_decode(out, len, &c)) != BLOOM_OK || !bloom_is_canonical(&c))
		abort();
	free(out);
}

/*
 * What a state stands for, for 1.0 and for 1.2, must decode and hold every
 * hash the state holds (a hash list's, a buffered state's pending ones)
 */
static void
check_materialize(const BloomFilter *st)
{
	BloomAlloc	a = malloc_allocator(NULL);

	for (int scalable = 0; scalable < 2; scalable++)
	{
		BloomMaterialized m;
		BloomFilter out,
					g;
		BloomStatus s = bloom_materialize(st, scalable, NULL, &a, &m, &out);

		if (s == BLOOM_OK)
		{
			if (bloom_decode(out.base, bloom_value_size(&out), &g) != BLOOM_OK ||
				bloom_is_state(&g))
				abort();
			for (uint64_t i = 0; i < st->nhashes; i++)
				if (!bloom_filter_contains(&g, bloom_hashlist_get(st, i)))
					abort();
			for (uint64_t i = 0; i < st->npending; i++)
				if (!bloom_filter_contains(&g, bloom_get_le64(bloom_pending(st) + 8 * i)))
					abort();
			free(out.base);
		}
		else if (s != BLOOM_E_CAPACITY)
			abort();
	}
}

/*
 * A light state's view (lightview.c), of any geometry: it holds every hash
 * and costs memory in proportion to them; for the states materialised
 * here, it answers as the filter does, for its hashes and for others, and
 * gives the same bits set and estimates
 */
static void
check_view(const BloomFilter *st, bool compare)
{
	BloomAlloc	a = malloc_allocator(NULL);
	BloomMaterialized m;
	BloomLightView v;
	BloomFilter out;
	BloomInfo	iv,
				im;
	uint8_t    *buf;
	size_t		len;

	if (bloom_light_view_build(st, &a, &buf, &len, &v) != BLOOM_OK)
		abort();
	if (v.nset > st->nhashes || len > 4096 + 72 * st->nhashes)
		abort();
	for (uint64_t i = 0; i < st->nhashes; i++)
		if (!bloom_light_view_contains(&v, bloom_get_le64(st->data + 8 * i)))
			abort();
	bloom_light_view_describe(&v, &iv);
	if (compare && bloom_materialize(st, false, NULL, &a, &m, &out) == BLOOM_OK)
	{
		if (bloom_describe(&out, &im, NULL) != BLOOM_OK || im.bits_set != iv.bits_set ||
			im.estimated_items != iv.estimated_items || im.estimated_fpr != iv.estimated_fpr ||
			out.nitems != v.head.nitems || bloom_value_size(&out) != v.size)
			abort();
		for (uint64_t i = 0; i < st->nhashes; i++)
		{
			/* neighbours of each hash: the same block, other bits */
			uint64_t	h = bloom_get_le64(st->data + 8 * i) ^ (i + 1);

			if (bloom_filter_contains(&out, h) != bloom_light_view_contains(&v, h))
				abort();
		}
		free(out.base);
	}
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	BloomFilter f;
	CuckooFilter cf;
	uint8_t    *copy;

	if (size > (1 << 20))
		return 0;
	/* an exact-size copy, so that any read past the end is caught */
	copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	if (bloom_decode(copy, size, &f) == BLOOM_OK)
	{
		if (bloom_is_state(&f))
		{
			check_canonical(&f);
			/*
			 * a light state's bits are not in its bytes: a few of its bytes
			 * can ask for a filter of 512 MB (as a state of that capacity
			 * would); materialise the ones of at most 1 MB
			 */
			if (f.kind != BLOOM_KIND_SPARSE || f.nblocks <= 16384)
				check_materialize(&f);
			if (f.kind == BLOOM_KIND_SPARSE)
				check_view(&f, f.nblocks <= 16384);
		}
		if (f.kind == BLOOM_KIND_BUFFERED)
		{
			/* setting the pending hashes writes only inside the value */
			bloom_flush_pending(&f);
			if (bloom_decode(copy, size, &f) != BLOOM_OK || f.npending != 0)
				abort();
		}
		if (bloom_has_bits(&f) || f.kind == BLOOM_KIND_SCALABLE)
		{
			(void) bloom_bits_set(&f, NULL);
			(void) bloom_estimate_items(&f, NULL);
			(void) bloom_estimate_fpr(&f, NULL);
			for (int64_t i = 0; i < 64; i++)
				(void) bloom_filter_contains(&f, bloom_hash_int64(f.seed, i));
			if (!bloom_is_state(&f))
			{
				BloomInfo	info;

				bloom_describe(&f, &info, NULL);
			}
		}
		else
		{
			uint8_t    *scratch = malloc(bloom_estimate_scratch(f.nhashes));
			uint64_t   *table = malloc(1024 * sizeof(uint64_t));
			uint64_t	exact = bloom_count_distinct(f.data, f.nhashes, table, 1024, NULL);
			double		est = bloom_estimate_distinct(f.data, f.nhashes, scratch, NULL);

			if (exact != UINT64_MAX && exact > f.nhashes)
				abort();
			if (!(est >= 0.0))
				abort();
			free(scratch);
			free(table);
		}
	}
	else if (counting_value_validate(copy, size, &f, NULL) == BLOOM_OK &&
			 f.kind == BLOOM_KIND_SPARSE_COUNTING)
	{
		/*
		 * countingbloom's light state (kind 8, as the type accepts it from
		 * outside: counting_value_validate): its canonical bytes, and
		 * (up to 1 MB) the counting filter it stands for, which must pass
		 * the deep check and hold every hash
		 */
		BloomAlloc	a = malloc_allocator(NULL);
		BloomFilter d = f;

		BloomFilter s = f;
		CountingInfo info;

		check_canonical(&f);
		/* (1.6) read without the filter, at any geometry: sorted in place */
		if (counting_light_sort(&s, &a) != BLOOM_OK || !counting_light_sorted(&s))
			abort();
		counting_light_describe(&s, &info, NULL);
		for (uint64_t i = 0; i < s.nhashes; i++)
			if (!counting_light_contains(&s, bloom_get_le64(s.data + 8 * i)) ||
				counting_light_count(&s, bloom_get_le64(s.data + 8 * i)) == 0)
				abort();
		if (f.nblocks <= 4096)
		{
			if (counting_sparse_densify(&d, &a) != BLOOM_OK ||
				counting_validate_deep(&d, NULL) != BLOOM_OK)
				abort();
			for (uint64_t i = 0; i < f.nhashes + 64; i++)
			{
				uint64_t	h = i < f.nhashes ? bloom_get_le64(f.data + 8 * i) :
					bloom_hash_int64(f.seed, (int64_t) i);

				if (!counting_contains(&d, h) && i < f.nhashes)
					abort();
				if (counting_contains(&d, h) != counting_light_contains(&s, h) ||
					counting_count(&d, h) != counting_light_count(&s, h))
					abort();
			}
			free(d.base);
		}
	}
	else if (cuckoo_value_validate(copy, size, &cf, NULL) == BLOOM_OK &&
			 cf.hdr.kind == BLOOM_KIND_HASHLIST && cf.hdr.version == BLOOM_FORMAT_VERSION_3)
	{
		/*
		 * (1.6) cuckoofilter's hash list with a capacity (as the type
		 * accepts it from outside: cuckoo_value_validate): the filter it
		 * stands for, simulated at any capacity; below 20,000 keys, the
		 * same as the filter built
		 */
		BloomAlloc	a = malloc_allocator(NULL);
		CuckooFilter sim,
					d;
		CkTable		t;
		CuckooInfo	si,
					di;
		BloomStatus ss = cuckoo_list_simulate(&cf.hdr, &a, &sim, &t,
											  UINT64_C(0x2545F4914F6CDD1D));

		if (ss == BLOOM_OK)
		{
			cuckoo_describe(&sim, &si);
			for (uint64_t i = 0; i < cf.hdr.nhashes; i++)
				if (!cuckoo_contains(&sim, bloom_hashlist_get(&cf.hdr, i)))
					abort();
		}
		else if (ss != BLOOM_E_FULL && ss != BLOOM_E_CAPACITY)
			abort();
		if (cf.hdr.capacity <= 20000)
		{
			BloomStatus ds = cuckoo_from_hashlist(&cf.hdr, cf.hdr.capacity, &a, &d);

			if (ds != ss)
				abort();
			if (ds == BLOOM_OK)
			{
				cuckoo_describe(&d, &di);
				if (memcmp(&si, &di, sizeof(si)) != 0 || sim.nsubs != d.nsubs)
					abort();
				for (int64_t i = 0; i < 64; i++)
				{
					uint64_t	h = bloom_hash_int64(cf.hdr.seed, i);

					if (cuckoo_count(&sim, h) != cuckoo_count(&d, h))
						abort();
				}
				free(d.hdr.base);
			}
		}
		if (ss == BLOOM_OK)
			cuckoo_list_free(&sim, &a);
	}
	free(copy);
	return 0;
}
