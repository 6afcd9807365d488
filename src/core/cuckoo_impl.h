/*-------------------------------------------------------------------------
 *
 * cuckoo_impl.h
 *		What the two files of the cuckoo filter share: the hashing of keys
 *		to fingerprints and buckets, and slot access (cuckoo.h describes
 *		both).  Private to src/core/cuckoo*.c.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_CUCKOO_IMPL_H
#define BLOOM_CORE_CUCKOO_IMPL_H

#include "cuckoo.h"

#define CK_MUL_W	UINT64_C(0xC2B2AE3D27D4EB4F)
#define CK_MUL_M	UINT64_C(0xD6E8FEB86659FD93)
#define CK_ADD_G	UINT64_C(0x9E3779B97F4A7C15)

/*
 * A 64-bit mixer: the finaliser of MurmurHash3 (Austin Appleby, public
 * domain), so that fingerprint bits are independent of the bucket's
 */
static inline uint64_t
ck_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= UINT64_C(0xFF51AFD7ED558CCD);
	x ^= x >> 33;
	x *= UINT64_C(0xC4CEB9FE1A85EC53);
	x ^= x >> 33;
	return x;
}

/* The low f bits of u as a fingerprint: 0 marks an empty slot, so 0 is 1 */
static inline uint64_t
ck_fp(uint64_t u, int f)
{
	uint64_t	v = u & ((UINT64_C(1) << f) - 1);

	return v ? v : 1;
}

static inline uint64_t
ck_top(uint64_t w, int bits)
{
	return bits ? w >> (64 - bits) : 0;
}

static inline uint64_t
ck_primary(const CuckooFilter *f, const CuckooSub *s, uint64_t h)
{
	return (bloom_mulhi64(h, f->n0) << s->log2e) | ck_top(h * CK_MUL_W, s->log2e);
}

/* The other bucket of the pair of bucket B, for a fingerprint whose v_0 is v0 */
static inline uint64_t
ck_alt(const CuckooFilter *f, const CuckooSub *s, uint64_t B, uint64_t v0)
{
	uint64_t	g = ck_mix(v0 + CK_ADD_G);
	uint64_t	c = bloom_mulhi64(g, f->n0);
	uint64_t	q = B >> s->log2e;
	uint64_t	qa = c >= q ? c - q : c + f->n0 - q;
	uint64_t	low = (B & ((UINT64_C(1) << s->log2e) - 1)) ^ ck_top(g * CK_MUL_M, s->log2e);

	return (qa << s->log2e) | low;
}

/*
 * The entry of key in t (a simulated filter's bucket), or NULL; insert
 * takes a free entry for a key not there.  The table has room for every
 * bucket its filter can fill (cuckoo_list.c), so the walk ends.
 */
static inline uint64_t *
ck_table_find(const CkTable *t, uint64_t key, bool insert)
{
	uint64_t	i = ck_mix(key ^ t->salt) & t->mask;

	for (uint64_t n = 0; n <= t->mask; n++, i = (i + 1) & t->mask)
	{
		if (t->keys[i] == key)
			return t->slots + i * t->b;
		if (t->keys[i] == 0)
		{
			if (!insert)
				return NULL;
			t->keys[i] = key;
			return t->slots + i * t->b;
		}
	}
	return NULL;
}

static inline uint64_t
ck_get(const CuckooSub *s, unsigned b, uint64_t B, unsigned j)
{
	uint64_t	bit = (B * b + j) * (uint64_t) s->fbits;

	if (__builtin_expect(s->table != NULL, 0))
	{
		const uint64_t *e = ck_table_find(s->table, s->tkey | B, false);

		return e ? e[j] : 0;
	}
	return (bloom_get_le64(s->slots + (bit >> 3)) >> (bit & 7)) &
		((UINT64_C(1) << s->fbits) - 1);
}

static inline void
ck_put(CuckooSub *s, unsigned b, uint64_t B, unsigned j, uint64_t v)
{
	uint64_t	bit = (B * b + j) * (uint64_t) s->fbits;
	uint64_t	mask = ((UINT64_C(1) << s->fbits) - 1) << (bit & 7);
	uint8_t    *p;

	if (__builtin_expect(s->table != NULL, 0))
	{
		uint64_t   *e = ck_table_find(s->table, s->tkey | B, v != 0);

		if (e != NULL)
			e[j] = v;
		return;
	}
	p = s->slots + (bit >> 3);
	bloom_put_le64(p, (bloom_get_le64(p) & ~mask) | (v << (bit & 7)));
}

/* Copies of v in bucket B */
static inline unsigned
ck_in_bucket(const CuckooSub *s, unsigned b, uint64_t B, uint64_t v)
{
	unsigned	n = 0;

	for (unsigned j = 0; j < b; j++)
		n += ck_get(s, b, B, j) == v;
	return n;
}

/* Copies of v in the pair B1, B2 (one bucket when they are the same) */
static inline unsigned
ck_copies(const CuckooSub *s, unsigned b, uint64_t B1, uint64_t B2, uint64_t v)
{
	return ck_in_bucket(s, b, B1, v) + (B2 != B1 ? ck_in_bucket(s, b, B2, v) : 0);
}

/* A free slot of bucket B, or -1 */
static inline int
ck_free_slot(const CuckooSub *s, unsigned b, uint64_t B)
{
	for (unsigned j = 0; j < b; j++)
		if (ck_get(s, b, B, j) == 0)
			return (int) j;
	return -1;
}

/* cuckoo_format.c */
extern void ck_bind(CuckooFilter *f, uint8_t *base);
extern BloomStatus ck_grow(CuckooFilter *f, const BloomAlloc *a);

/*
 * The filter out built from the hash list st takes the list's seed and
 * key class; the copies of a key past the list's limit (b of them kept)
 * count as absorbed.  Its header written.
 */
static inline void
cuckoo_adopt_list(CuckooFilter *out, const BloomFilter *st)
{
	out->hdr.seed = st->seed;
	out->hdr.key_class = st->key_class;
	out->hdr.key_type = st->key_type;
	out->absorbed = bloom_sat_add(out->absorbed, st->nitems - st->nhashes);
	cuckoo_write_header(out);
}

#endif							/* BLOOM_CORE_CUCKOO_IMPL_H */
