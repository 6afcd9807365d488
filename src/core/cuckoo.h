/*-------------------------------------------------------------------------
 *
 * cuckoo.h
 *		Cuckoo filters (kind 6, format version 3): fingerprints in buckets
 *		of b slots, each key with two candidate buckets, placed by partial-
 *		key cuckoo hashing (Fan, Andersen, Kaminsky, Mitzenmacher, "Cuckoo
 *		Filter: Practically Better Than Bloom", CoNEXT 2014), in one or
 *		more sub-filters.
 *
 * Layout after the common header (k at 12 = bucket size b; items at 40 =
 * fingerprints stored; word 48 = sub-filters; word 56 = max kicks in
 * bytes 56-57, expansion in byte 58, bytes 59-63 zero):
 *	64	 32  deletes (8), absorbed (8), stuck (8), reserved (8, zero)
 *	96	 32  per sub-filter, oldest first: buckets (8), capacity (8),
 *			 fingerprints stored (8), fingerprint bits (1), 7 zero bytes
 *	...		 per sub-filter: buckets x b slots of f bits, slot s of bucket B
 *			 at bit (B b + s) f, packed little-endian, rounded up to 8 bytes,
 *			 then 8 zero bytes (a slot is read with one 8-byte load)
 *
 * Geometry, all derived from (capacity, fpr, b, expansion), so decoding
 * checks it: sub-filter i has n0 e^i buckets and capacity capacity e^i;
 * its fingerprints have the fewest bits f_i >= 8 with 2b / (2^f_i - 1) <=
 * r_i, where r_i is fpr for a fixed filter (expansion 0) and the scalable
 * Bloom filter's schedule bloom_layer_fpr(fpr, i) otherwise, so the rate
 * summed over every sub-filter stays under fpr at any load.
 *
 * Hashing (a client can check a filter from this alone), for the key's
 * 64-bit hash h: u = mix(h), fingerprint v_i = u mod 2^f_i, or 1 when
 * that is 0; q = mulhi(h, n0); w = h * 0xC2B2AE3D27D4EB4F; the primary
 * bucket of sub-filter i is q e^i + (top L_i bits of w), L_i = log2 e^i.
 * The alternate of bucket B in sub-filter i, for a fingerprint whose
 * sub-filter-0 form is v_0: g = mix(v_0 + 0x9E3779B97F4A7C15),
 * c = mulhi(g, n0), m = top L_i bits of (g * 0xD6E8FEB86659FD93):
 * alt(B) = ((c - B div e^i) mod n0) e^i + ((B mod e^i) xor m), an
 * involution.  Buckets and fingerprints nest: a fingerprint of sub-filter
 * j at bucket B is, in an older sub-filter i, fingerprint v mod 2^f_i (or
 * 1) at bucket B div e^(j-i); so compaction and union can move
 * fingerprints to older sub-filters.
 *
 * Copies: a class (fingerprint, bucket pair) of a sub-filter holds at
 * most b copies; more adds are absorbed (counted, not stored), so
 * one key added many times cannot fill a pair (RedisBloom #533), and a
 * class at that cap is never removed from (it may stand for more adds).
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_CUCKOO_H
#define BLOOM_CORE_CUCKOO_H

#include "format.h"

#define CUCKOO_EXT_SIZE			32
#define CUCKOO_DESC_SIZE		32
#define CUCKOO_HEAD_SIZE		(BLOOM_HEADER_SIZE + CUCKOO_EXT_SIZE)
#define CUCKOO_MAX_SUBS			32
#define CUCKOO_MIN_FBITS		8
#define CUCKOO_MAX_FBITS		56
#define CUCKOO_MAX_KICKS		65535
#define CUCKOO_MAX_EXPANSION	16
#define CUCKOO_DEFAULT_BUCKET	4
#define CUCKOO_DEFAULT_KICKS	500
#define CUCKOO_DEFAULT_EXPANSION 2

/*
 * The non-empty buckets of a simulated filter (cuckoo_list.c): open
 * addressing, keyed by (sub-filter + 1) << 40 | bucket, b fingerprints an
 * entry.  Sized for twice the fingerprints it may take, so never full.
 */
typedef struct CkTable
{
	uint64_t	mask;			/* entries - 1 (entries a power of two) */
	uint64_t	salt;			/* mixed into every key: a value cannot aim
								 * its buckets at one run of entries */
	unsigned	b;
	uint64_t   *keys;			/* 0: a free entry */
	uint64_t   *slots;
} CkTable;

typedef struct CuckooSub
{
	uint64_t	nbuckets;
	uint64_t	capacity;
	uint64_t	nitems;
	int			fbits;
	int			log2e;			/* L_i: log2 of e^i */
	uint8_t    *slots;
	CkTable    *table;			/* a simulated filter's buckets, else NULL */
	uint64_t	tkey;			/* (index + 1) << 40 in table */
} CuckooSub;

typedef struct CuckooFilter
{
	BloomFilter hdr;			/* the common header's fields; hdr.k = b */
	unsigned	b;
	unsigned	max_kicks;
	unsigned	expansion;
	uint64_t	n0;
	uint64_t	deletes;
	uint64_t	absorbed;
	uint64_t	stuck;
	unsigned	nsubs;
	CuckooSub	subs[CUCKOO_MAX_SUBS];
} CuckooFilter;

/* The geometry (capacity, fpr, b, expansion) fixes */
typedef struct CuckooPlan
{
	uint64_t	capacity;
	double		fpr;
	unsigned	b;
	unsigned	expansion;
	uint64_t	n0;
	int			log2e;
	int			fbits[CUCKOO_MAX_SUBS];
} CuckooPlan;

/* What cuckoo_add did */
typedef enum CuckooAdded
{
	CUCKOO_STORED,				/* a fingerprint was stored */
	CUCKOO_ABSORBED,			/* the key's class is at its cap: counted */
	CUCKOO_PRESENT				/* cuckoo_add_new: maybe present, nothing done */
} CuckooAdded;

/* What cuckoo_remove did */
typedef enum CuckooRemoved
{
	CUCKOO_ABSENT,				/* certainly absent: nothing changed */
	CUCKOO_REMOVED,				/* one copy removed */
	CUCKOO_KEPT					/* maybe present, but no copy could be
								 * removed safely (stuck + 1) */
} CuckooRemoved;

typedef struct CuckooInfo
{
	uint64_t	buckets;		/* over all sub-filters */
	uint64_t	slots;
	uint64_t	capacity;		/* over all sub-filters */
	int			fbits;			/* of the newest sub-filter */
	double		load_factor;
	double		estimated_fpr;
} CuckooInfo;

static inline unsigned
cuckoo_cap(unsigned b)
{
	return b;
}

extern bool cuckoo_bucket_size_valid(int64_t b);
extern bool cuckoo_expansion_valid(int64_t e);
extern double cuckoo_sub_fpr(double fpr, unsigned expansion, int i);
extern BloomStatus cuckoo_plan(uint64_t capacity, double fpr, unsigned b,
							   unsigned expansion, CuckooPlan *p);
extern uint64_t cuckoo_max_capacity(double fpr, unsigned b, unsigned expansion);
extern size_t cuckoo_area_size(uint64_t nbuckets, unsigned b, int fbits);
extern size_t cuckoo_value_size(const CuckooFilter *f);
/* what a cuckoofilter value is: any of its forms (cuckoo_value.c) */
extern BloomStatus cuckoo_value_decode(const uint8_t *buf, size_t len, CuckooFilter *f);
extern BloomStatus cuckoo_value_validate(const uint8_t *buf, size_t len, CuckooFilter *f,
										 const BloomCancel *c);
extern BloomStatus cuckoo_decode(const uint8_t *buf, size_t len, CuckooFilter *f);
extern BloomStatus cuckoo_validate_deep(const CuckooFilter *f, const BloomCancel *c);
extern void cuckoo_write_header(const CuckooFilter *f);
extern BloomStatus cuckoo_new(uint64_t capacity, double fpr, unsigned b,
							  unsigned max_kicks, unsigned expansion,
							  const BloomAlloc *a, CuckooFilter *out);
extern BloomStatus cuckoo_add(CuckooFilter *f, uint64_t h, bool only_new,
							  const BloomAlloc *a, CuckooAdded *what);
extern bool cuckoo_contains(const CuckooFilter *f, uint64_t h);
extern unsigned cuckoo_count(const CuckooFilter *f, uint64_t h);
extern CuckooRemoved cuckoo_remove(CuckooFilter *f, uint64_t h);
extern BloomStatus cuckoo_compact(const CuckooFilter *f, const BloomAlloc *a,
								  CuckooFilter *out);
extern BloomParam cuckoo_compatible(const CuckooFilter *a, const CuckooFilter *b);
extern BloomStatus cuckoo_merge(CuckooFilter *a, const CuckooFilter *b,
								const BloomAlloc *al);
extern void cuckoo_describe(const CuckooFilter *f, CuckooInfo *info);
/* cuckoo_list.c: the filter a hash list with a capacity stands for, simulated */
extern BloomStatus ck_new_simulated(uint64_t capacity, double fpr, unsigned b,
									unsigned max_kicks, unsigned expansion, CkTable *t,
									const BloomAlloc *a, CuckooFilter *out);
extern BloomStatus cuckoo_list_simulate(const BloomFilter *st, const BloomAlloc *a,
										CuckooFilter *out, CkTable *t, uint64_t salt);
extern void cuckoo_list_free(CuckooFilter *f, const BloomAlloc *a);
extern bool cuckoo_list_build_cheaper(const BloomFilter *st);
extern BloomStatus ck_init_first(uint64_t capacity, double fpr, unsigned b,
								 unsigned max_kicks, unsigned expansion,
								 CuckooFilter *out);
extern size_t cuckoo_sim_size(const CuckooFilter *f, size_t *head);
extern void cuckoo_sim_flatten(const CuckooFilter *f, uint8_t *buf);
extern bool cuckoo_sim_is_flat(const uint8_t *buf, size_t len);
extern BloomStatus cuckoo_sim_bind(uint8_t *buf, size_t len, CuckooFilter *f, CkTable *t);
extern BloomStatus cuckoo_from_hashlist(const BloomFilter *st, uint64_t capacity,
										const BloomAlloc *a, CuckooFilter *out);

#endif							/* BLOOM_CORE_CUCKOO_H */
