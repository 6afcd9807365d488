/*
 * Writes the seed corpus of the fuzz harnesses: valid values of each kind
 * and near-valid ones (one field off, truncated, lying lengths).
 * Usage: make_corpus DIR   (writes DIR/decode, DIR/setops, DIR/addcontains,
 * DIR/sizing, DIR/scalable, DIR/page, DIR/counting, DIR/cuckoo)
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pagefmt.h"
#include "../malloc_alloc.h"

static const char *root;

static void
put(const char *harness, const char *name, const uint8_t *data, size_t len)
{
	char		path[512];
	FILE	   *fp;

	snprintf(path, sizeof(path), "%s/%s/%s", root, harness, name);
	fp = fopen(path, "wb");
	if (!fp || fwrite(data, 1, len, fp) != len)
	{
		perror(path);
		exit(1);
	}
	fclose(fp);
}

static uint8_t *
blocked(uint64_t capacity, double fpr, int nkeys, size_t *len)
{
	BloomPlan	plan;
	BloomFilter f;
	uint64_t	nb;
	uint8_t    *buf;

	bloom_plan(fpr, &plan);
	bloom_plan_size(&plan, capacity, &nb);
	*len = bloom_blocked_size(nb);
	buf = malloc(*len);
	bloom_init_blocked(buf, nb, plan.k, capacity, fpr, 0);
	bloom_decode(buf, *len, &f);
	for (int i = 0; i < nkeys; i++)
		bloom_insert_hash(&f, bloom_hash_int64(0, i));
	if (nkeys)
	{
		f.key_class = BLOOM_KEY_INTEGER;
		f.nitems = nkeys;
		bloom_write_header(&f);
	}
	return buf;
}

/* A scalable filter of capacity/fpr/expansion with nkeys added */
static uint8_t *
scalable(uint64_t capacity, double fpr, unsigned expansion, int nkeys, size_t *len)
{
	BloomPlan	plan = {0};
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter f;
	bool		added;

	if (bloom_new_scalable(capacity, fpr, expansion, &plan, &a, &f) != BLOOM_OK)
		exit(1);
	for (int i = 0; i < nkeys; i++)
	{
		uint8_t    *old = f.base;

		if (bloom_add(&f, bloom_hash_int64(0, i), &plan, &a, &added) != BLOOM_OK)
			exit(1);
		if (f.base != old)
			free(old);
	}
	if (nkeys)
		f.key_class = BLOOM_KEY_INTEGER;
	bloom_write_header(&f);
	*len = bloom_value_size(&f);
	return f.base;
}

/* The scalable harness's input: a count of keys to add, then the value */
static void
put_scalable(const char *name, int nadds, const uint8_t *v, size_t len)
{
	uint8_t    *m = malloc(len + 1);

	m[0] = (uint8_t) nadds;
	memcpy(m + 1, v, len);
	put("scalable", name, m, len + 1);
	free(m);
}

/*
 * The counting and cuckoo harnesses' input: a number of operations, a key
 * seed, then the value; with flip >= 0, that byte of the value changed
 */
static void
put_ops(const char *harness, const char *name, int nops, const uint8_t *v, size_t len,
		int flip)
{
	uint8_t    *m = malloc(len + 2);

	m[0] = (uint8_t) nops;
	m[1] = 7;
	memcpy(m + 2, v, len);
	if (flip >= 0)
		m[2 + flip] ^= 0x81;
	put(harness, name, m, len + 2);
	free(m);
}

/* A counting filter of capacity/fpr with nkeys keys added, each copies times */
static BloomFilter
counting(uint64_t capacity, double fpr, int nkeys, int copies)
{
	BloomPlan	plan = {0};
	BloomAlloc	a = malloc_allocator(NULL);
	BloomFilter f;

	if (counting_new(capacity, fpr, &plan, &a, &f) != BLOOM_OK)
		exit(1);
	for (int i = 0; i < nkeys; i++)
		for (int c = 0; c < copies; c++)
			counting_add(&f, bloom_hash_int64(0, i));
	return f;
}

/* A cuckoo filter with nkeys keys added (growing when it may) */
static CuckooFilter
cuckoo(uint64_t capacity, double fpr, unsigned b, unsigned expansion, int nkeys)
{
	BloomAlloc	a = malloc_allocator(NULL);
	CuckooFilter f;
	CuckooAdded what;

	if (cuckoo_new(capacity, fpr, b, CUCKOO_DEFAULT_KICKS, expansion, &a, &f) != BLOOM_OK)
		exit(1);
	for (int i = 0; i < nkeys; i++)
	{
		uint8_t    *old = f.hdr.base;

		if (cuckoo_add(&f, bloom_hash_int64(0, i), false, &a, &what) != BLOOM_OK)
			exit(1);
		if (f.hdr.base != old)
			free(old);
	}
	return f;
}

/* The page harness's input: a metapage as the glue writes it (bfi_init_meta_page) */
static void
put_page(const char *name, const BfiMeta *m, uint16_t flags, int flip)
{
	uint8_t    *page = calloc(1, BFI_PAGE_SIZE);
	BfiOpaque	o = {0};
	uint16_t	lower = BFI_CONTENTS_OFFSET + sizeof(BfiMeta),
				special = BFI_PAGE_SIZE - BFI_SPECIAL_SIZE,
				version = BFI_PAGE_SIZE | 4;

	memcpy(page + BFI_PD_LOWER, &lower, 2);
	memcpy(page + BFI_PD_UPPER, &special, 2);
	memcpy(page + BFI_PD_SPECIAL, &special, 2);
	memcpy(page + 18, &version, 2);
	o.flags = flags;
	o.page_id = BFI_PAGE_ID;
	memcpy(page + BFI_PAGE_SIZE - BFI_SPECIAL_SIZE, &o, sizeof(o));
	memcpy(page + BFI_CONTENTS_OFFSET, m, sizeof(*m));
	if (flip >= 0)
		page[flip] ^= 0x81;
	put("page", name, page, BFI_PAGE_SIZE);
	free(page);
}

/* A metapage with nlayers layers planned from its options */
static void
meta(BfiMeta *m, double fpr, unsigned expansion, uint64_t capacity, unsigned min_pages,
	 int nlayers)
{
	bfi_meta_init(m, fpr, expansion, capacity, min_pages);
	m->seed = 0;
	m->key_class = BLOOM_KEY_INTEGER;
	for (int i = 0; i < nlayers; i++)
		if (bfi_add_layer(m, capacity) != BFI_OK)
			exit(1);
	if (bfi_meta_check(m) != BFI_OK)
		exit(1);
}

int
main(int argc, char **argv)
{
	size_t		len,
				len2;
	uint8_t    *v,
			   *w,
			   *m;
	char		name[64];

	if (argc != 2)
		return 2;
	root = argv[1];

	/* decode: valid values */
	v = blocked(1, 0.01, 0, &len);
	put("decode", "empty-1-block", v, len);
	free(v);
	v = blocked(100, 0.01, 50, &len);
	put("decode", "ints-100", v, len);
	/* near-valid: each header byte changed, truncations, extra bytes */
	m = malloc(len + 64);
	for (int off = 0; off < BLOOM_HEADER_SIZE; off += 1)
	{
		memcpy(m, v, len);
		m[off] ^= 0x81;
		snprintf(name, sizeof(name), "flip-%02d", off);
		put("decode", name, m, len);
	}
	for (size_t cut = 0; cut < len; cut += 13)
	{
		snprintf(name, sizeof(name), "cut-%03zu", cut);
		put("decode", name, v, cut);
	}
	memcpy(m, v, len);
	memset(m + len, 0, 64);
	put("decode", "extra-block", m, len + 64);
	free(m);

	/* a hash list (a partial aggregate state) */
	{
		uint8_t		hl[BLOOM_HEADER_SIZE + 4 * 8];
		BloomFilter f;

		bloom_init_hashlist(hl, 4, 0, 0.01, 0);
		bloom_decode(hl, sizeof(hl), &f);
		bloom_hashlist_set(&f, 0, 1);
		bloom_hashlist_set(&f, 1, 2);
		f.nhashes = 2;
		f.nitems = 3;
		f.key_class = BLOOM_KEY_TEXT;
		bloom_write_header(&f);
		put("decode", "hashlist", hl, sizeof(hl));
		hl[56] = 9;				/* more used than slots */
		put("decode", "hashlist-overused", hl, sizeof(hl));
	}

	/* a buffered filter (a partial fixed-capacity state) with pending hashes */
	{
		BloomPlan	plan;
		uint64_t	nb;
		size_t		blen;
		uint8_t    *b;
		BloomFilter f;

		bloom_plan(0.01, &plan);
		bloom_plan_size(&plan, 10, &nb);
		blen = bloom_buffered_size(nb);
		b = malloc(blen);
		bloom_init_buffered(b, nb, plan.k, 10, 0.01, 0);
		bloom_decode(b, blen, &f);
		for (int i = 0; i < 5; i++)
			bloom_put_le64(bloom_pending(&f) + 8 * i, bloom_hash_int64(0, i));
		f.npending = 5;
		f.nitems = 5;
		f.key_class = BLOOM_KEY_INTEGER;
		bloom_write_header(&f);
		put("decode", "buffered", b, blen);
		free(b);
	}

	/* light states (kind 7): five hashes, and one at its limit (1 block) */
	{
		BloomAlloc	a = malloc_allocator(NULL);
		BloomFilter f;
		uint8_t		le[8];

		for (int full = 0; full < 2; full++)
		{
			uint64_t	n = full ? bloom_sparse_limit(1) : 5;

			bloom_new_sparse(full ? 10 : 1000, 0.01, true, NULL, &a, &f);
			for (uint64_t i = 0; i < n; i++)
			{
				bloom_put_le64(le, bloom_hash_int64(0, (int64_t) i));
				bloom_sparse_append(&f, le, 1, &a);
				f.nitems++;
			}
			f.key_class = BLOOM_KEY_INTEGER;
			bloom_write_header(&f);
			put("decode", full ? "light-full" : "light", f.base, bloom_value_size(&f));
			free(f.base);
		}
		/*
		 * the largest geometry (8,388,559 blocks, a 512 MB filter) in 64
		 * bytes, no hashes (docs/FORMAT.md, kind 7), then with three
		 * hashes, and planned for 1.0 (flag 0)
		 */
		{
			uint8_t		big[64 + 3 * 8];
			BloomFilter g;

			memset(big, 0, sizeof(big));
			bloom_header_init(&g, big, BLOOM_KIND_SPARSE, 1000, 0.01, 0);
			g.version = BLOOM_FORMAT_VERSION_4;
			g.key_class = BLOOM_KEY_INTEGER;
			g.k = 7;
			g.block_log2 = BLOOM_BLOCK_LOG2;
			g.flags = BLOOM_FLAG_SCALABLE_STATE;
			g.nblocks = BLOOM_MAX_BUFFERED_BLOCKS;
			bloom_write_header(&g);
			put("decode", "light-largest-empty", big, 64);
			for (int i = 0; i < 3; i++)
				bloom_put_le64(big + 64 + 8 * i, bloom_hash_int64(0, i + 1));
			g.nhashes = g.nitems = 3;
			bloom_write_header(&g);
			put("decode", "light-largest", big, sizeof(big));
			g.flags = 0;
			bloom_write_header(&g);
			put("decode", "light-largest-v10", big, sizeof(big));
		}
		/* the largest hash list (kind 2) of 64 KB, at the smallest rate */
		{
			BloomFilter g;
			uint64_t	n = (65536 - 64) / 8;
			uint8_t    *hl = malloc(bloom_hashlist_size(n));

			bloom_init_hashlist(hl, n, 0, BLOOM_MIN_FPR, 0);
			bloom_decode_hashlist_any(hl, bloom_hashlist_size(n), &g);
			for (uint64_t i = 0; i < n; i++)
				bloom_hashlist_set(&g, i, bloom_hash_int64(0, (int64_t) i));
			g.nhashes = g.nitems = n;
			g.key_class = BLOOM_KEY_INTEGER;
			bloom_write_header(&g);
			put("decode", "hashlist-64k", hl, bloom_hashlist_size(n));
			free(hl);
		}
		/* countingbloom's (kind 8), with repeats */
		counting_new_sparse(100, 0.01, &(BloomPlan) {0}, &a, &f);
		for (uint64_t i = 0; i < 20; i++)
		{
			bloom_put_le64(le, bloom_hash_int64(0, (int64_t) (i % 6)));
			counting_sparse_append(&f, le, 1, &a);
			f.nitems++;
		}
		f.key_class = BLOOM_KEY_INTEGER;
		bloom_write_header(&f);
		put("decode", "counting-light", f.base, bloom_sparse_size(f.nslots));
		/* (1.6) the largest geometry: 64 bytes for 537 MB, then 20 hashes */
		f.nblocks = COUNTING_MAX_BLOCKS;
		bloom_write_header(&f);
		put("decode", "counting-light-largest-keys", f.base, bloom_sparse_size(f.nslots));
		f.nhashes = 0;
		f.nitems = 0;
		f.nslots = 0;
		bloom_write_header(&f);
		put("decode", "counting-light-largest", f.base, BLOOM_HEADER_SIZE);
		free(f.base);
	}

	/*
	 * (1.6) cuckoofilter's hash lists with a capacity (version 3): the
	 * largest capacity (at rate 0.5), empty and with keys, one past it, and
	 * a small one whose filter grows
	 */
	{
		uint64_t	maxcap = cuckoo_max_capacity(0.5, CUCKOO_DEFAULT_BUCKET,
												 CUCKOO_DEFAULT_EXPANSION);
		BloomFilter f;
		static const struct
		{
			const char *name;
			int			cap;		/* 0: the largest, 1: one past it, else itself */
			double		fpr;
			int			nkeys;
		}			cl[] = {
			{"cuckoo-list-largest", 0, 0.5, 0}, {"cuckoo-list-largest-keys", 0, 0.5, 3},
			{"cuckoo-list-past-largest", 1, 0.5, 3}, {"cuckoo-list-grows", 10, 0.01, 60},
		};

		for (int i = 0; i < 4; i++)
		{
			size_t		llen = BLOOM_HEADER_SIZE + 8 * (size_t) cl[i].nkeys;
			uint8_t    *buf = malloc(llen);
			uint64_t	cap = cl[i].cap == 0 ? maxcap : cl[i].cap == 1 ? maxcap + 1 :
				(uint64_t) cl[i].cap;

			bloom_init_hashlist(buf, (uint64_t) cl[i].nkeys, cap, cl[i].fpr, 0);
			bloom_decode_hashlist_any(buf, llen, &f);
			f.version = BLOOM_FORMAT_VERSION_3;
			for (int k = 0; k < cl[i].nkeys; k++)
				bloom_hashlist_set(&f, (uint64_t) k, bloom_hash_int64(0, k % 40));
			f.nhashes = (uint64_t) cl[i].nkeys;
			f.nitems = f.nhashes;
			f.key_class = BLOOM_KEY_INTEGER;
			bloom_write_header(&f);
			put("decode", cl[i].name, buf, llen);
			free(buf);
		}
	}

	/* scalable filters: one, two and three layers, and near-valid ones */
	{
		static const struct
		{
			const char *name;
			uint64_t	capacity;
			unsigned	expansion;
			int			nkeys;
		}			sc[] = {
			{"scalable-empty", 10, 2, 0},
			{"scalable-2-layers", 10, 2, 15},
			{"scalable-3-layers-x4", 4, 4, 40},
			{"scalable-x1", 2, 1, 9},
		};

		for (int i = 0; i < 4; i++)
		{
			size_t		slen;	/* not len: the setops seeds below use v's */
			uint8_t    *s = scalable(sc[i].capacity, 0.01, sc[i].expansion, sc[i].nkeys, &slen);

			put("decode", sc[i].name, s, slen);
			put_scalable(sc[i].name, 60, s, slen);
			if (i == 1)
			{
				/* each header and descriptor byte changed, truncations */
				m = malloc(slen);
				for (size_t off = 0; off < BLOOM_HEADER_SIZE + 2 * BLOOM_LAYER_DESC_SIZE; off++)
				{
					memcpy(m, s, slen);
					m[off] ^= 0x81;
					snprintf(name, sizeof(name), "scalable-flip-%03zu", off);
					put("decode", name, m, slen);
					put_scalable(name, 20, m, slen);
				}
				for (size_t cut = 0; cut < slen; cut += 17)
				{
					snprintf(name, sizeof(name), "scalable-cut-%03zu", cut);
					put("decode", name, s, cut);
				}
				free(m);
			}
			free(s);
		}
	}

	/* setops: two compatible values, two incompatible ones */
	w = blocked(100, 0.01, 10, &len2);
	m = malloc(2 + len + len2);
	m[0] = (uint8_t) (len >> 8);
	m[1] = (uint8_t) len;
	memcpy(m + 2, v, len);
	memcpy(m + 2 + len, w, len2);
	put("setops", "compatible", m, 2 + len + len2);
	free(w);
	free(m);
	w = blocked(1000, 0.01, 10, &len2);
	m = malloc(2 + len + len2);
	m[0] = (uint8_t) (len >> 8);
	m[1] = (uint8_t) len;
	memcpy(m + 2, v, len);
	memcpy(m + 2 + len, w, len2);
	put("setops", "incompatible", m, 2 + len + len2);
	free(w);
	free(m);
	free(v);

	/* addcontains: rate byte, capacity, keys */
	{
		const uint8_t a[] = {3, 0, 100, 3, 'a', 'b', 'c', 0, 5, 1, 2, 3, 4, 5};
		const uint8_t b[] = {6, 255, 255, 8, 1, 2, 3, 4, 5, 6, 7, 8, 16, 'x'};

		put("addcontains", "small", a, sizeof(a));
		put("addcontains", "tiny-rate", b, sizeof(b));
	}

	/* sizing: capacity and rate */
	{
		struct
		{
			uint64_t	cap;
			double		fpr;
		}			s[] = {{1, 0.01}, {1000000, 0.001}, {429577369, 0.01}, {429577370, 0.01},
					   {0, 0.01}, {5, 0.5}, {5, 1e-12}, {5, 0.0}};

		for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		{
			uint8_t		b[16];

			memcpy(b, &s[i].cap, 8);
			memcpy(b + 8, &s[i].fpr, 8);
			snprintf(name, sizeof(name), "size-%zu", i);
			put("sizing", name, b, 16);
		}
	}
	/* counting: empty, with keys, saturated counters, near-valid ones */
	{
		BloomFilter f = counting(10, 0.01, 0, 0);

		put_ops("counting", "empty-1-block", 40, f.base, counting_size(f.nblocks), -1);
		free(f.base);
		f = counting(100, 0.001, 60, 1);
		put_ops("counting", "keys-60", 200, f.base, counting_size(f.nblocks), -1);
		for (int off = 4; off < BLOOM_HEADER_SIZE; off += 4)
		{
			snprintf(name, sizeof(name), "keys-60-flip-%02d", off);
			put_ops("counting", name, 20, f.base, counting_size(f.nblocks), off);
		}
		/* a counter without its presence bit, and the reverse */
		put_ops("counting", "keys-60-counter-flip", 20, f.base, counting_size(f.nblocks),
				BLOOM_HEADER_SIZE + (int) f.nblocks * BLOOM_BLOCK_BYTES + 3);
		put_ops("counting", "keys-60-presence-flip", 20, f.base, counting_size(f.nblocks),
				BLOOM_HEADER_SIZE + 5);
		free(f.base);
		f = counting(20, 0.1, 5, 20);
		put_ops("counting", "saturated", 255, f.base, counting_size(f.nblocks), -1);
		free(f.base);
	}
	/* cuckoo: fixed and grown, each bucket size, near-valid ones */
	{
		static const struct
		{
			const char *name;
			uint64_t	capacity;
			double		fpr;
			unsigned	b,
						expansion;
			int			nkeys;
		}			ck[] = {
			{"fixed-empty", 10, 0.01, 4, 0, 0},
			{"fixed-b1", 20, 0.01, 1, 0, 8},
			{"fixed-b2-full", 20, 0.001, 2, 0, 20},
			{"fixed-b8", 50, 0.01, 8, 0, 30},
			{"grown-3-subs", 10, 0.01, 4, 2, 60},
			{"grown-x1", 4, 0.05, 2, 1, 30},
			{"grown-x16", 2, 0.01, 4, 16, 20},
		};

		for (size_t i = 0; i < sizeof(ck) / sizeof(ck[0]); i++)
		{
			CuckooFilter f = cuckoo(ck[i].capacity, ck[i].fpr, ck[i].b, ck[i].expansion,
									ck[i].nkeys);
			size_t		clen = cuckoo_value_size(&f);

			put_ops("cuckoo", ck[i].name, 120, f.hdr.base, clen, -1);
			if (i == 4)
			{
				/* header, counters and descriptor fields; the last slot byte */
				static const int offs[] = {4, 5, 12, 14, 24, 32, 40, 48, 56, 58, 59,
					64, 88, 96, 104, 112, 120, 121, 128, 144};

				for (size_t j = 0; j < sizeof(offs) / sizeof(offs[0]); j++)
				{
					snprintf(name, sizeof(name), "grown-3-subs-flip-%03d", offs[j]);
					put_ops("cuckoo", name, 20, f.hdr.base, clen, offs[j]);
				}
				put_ops("cuckoo", "grown-3-subs-padding", 20, f.hdr.base, clen,
						(int) clen - 1);
				put_ops("cuckoo", "grown-3-subs-cut", 20, f.hdr.base, clen - 8, -1);
			}
			free(f.hdr.base);
		}
	}
	/* page: metapages of 0, 1, 3 and 32 layers, and near-valid ones */
	{
		BfiMeta		pm;

		meta(&pm, 0.01, 2, 1000, 1, 0);
		put_page("meta-0-layers", &pm, BFI_PAGE_META, -1);
		meta(&pm, 0.01, 2, 1000, 8, 1);
		put_page("meta-1-layer-min-pages-8", &pm, BFI_PAGE_META, -1);
		meta(&pm, 0.001, 4, 50, 1, 3);
		put_page("meta-3-layers", &pm, BFI_PAGE_META, -1);
		put_page("meta-3-layers-as-data", &pm, BFI_PAGE_DATA, -1);
		put_page("meta-3-layers-bad-next", &pm, BFI_PAGE_META,
				 BFI_CONTENTS_OFFSET + (int) offsetof(BfiMeta, next_blkno));
		put_page("meta-3-layers-bad-capacity", &pm, BFI_PAGE_META,
				 BFI_CONTENTS_OFFSET + (int) offsetof(BfiMeta, layers[2].capacity));
		meta(&pm, 0.05, 1, 1, 1, 32);
		put_page("meta-32-layers", &pm, BFI_PAGE_META, -1);
	}
	return 0;
}
