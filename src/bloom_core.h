/*-------------------------------------------------------------------------
 *
 * bloom_core.h
 *		Filter algorithms of bloomtype: value format, sizing, hashing of
 *		bytes, add/contains, union/intersection and aggregate hash lists.
 *
 * This part knows nothing of PostgreSQL.  It takes bytes and sizes and
 * answers with codes, so that C unit tests, fuzzers, benchmarks and client
 * programs can use it directly.  The PostgreSQL glue lives in bloom_ext.c
 * and its siblings.
 *
 * The value format (all integers little-endian, see docs/FORMAT.md):
 *
 *	off size field
 *	  0   4  magic "BLMF"
 *	  4   1  format version (1; 2 for values that use kind 4 or flags)
 *	  5   1  kind: 1 = blocked Bloom filter, 2 = hash list (aggregate state),
 *			 3 = blocked filter with pending hashes (aggregate state),
 *			 4 = scalable filter (layers of blocked filters)
 *	  6   1  hash algorithm: 1 = XXH3-64 with seed
 *	  7   1  key class (BloomKeyClass)
 *	  8   4  key type tag (class "other" only, else 0)
 *	 12   1  hashes per key k (kinds 1, 3: 1..32; kinds 2, 4: 0)
 *	 13   1  log2 of block size in bits (kinds 1, 3, 4: 9; kind 2: 0)
 *	 14   2  flags (0 in version 1; version 2: kind 1 may have NONSCALING,
 *			 kind 3 SCALABLE_STATE)
 *	 16   8  hash seed
 *	 24   8  capacity (kinds 1, 3: >= 1; kind 2: 0; kind 4: of the first layer)
 *	 32   8  target false-positive rate (IEEE 754 binary64)
 *	 40   8  items added (counting repeats; kind 4 and NONSCALING: keys
 *			 that were not already present)
 *	 48   8  kinds 1, 3: number of 64-byte blocks; kind 2: hash slots;
 *			 kind 4: number of layers (1..32)
 *	 56   8  kind 1: 0 (reserved); kind 2: hash slots in use; kind 3:
 *			 pending hashes (at most 256); kind 4: expansion (1..16)
 *	 64   -  kind 1: blocks * 64 bytes of bits; kind 2: slots * 8 bytes;
 *			 kind 3: blocks * 64 bytes of bits, then 256 * 8 bytes of
 *			 pending hashes; kind 4: one 32-byte descriptor per layer
 *			 (blocks 8, capacity 8, items 8, k 1, 7 zero bytes), then
 *			 each layer's blocks * 64 bytes of bits, oldest first
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_H
#define BLOOM_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#define BLOOM_MAGIC_0			'B'
#define BLOOM_MAGIC_1			'L'
#define BLOOM_MAGIC_2			'M'
#define BLOOM_MAGIC_3			'F'
#define BLOOM_FORMAT_VERSION	1
#define BLOOM_FORMAT_VERSION_2	2	/* kind 4, flags */
#define BLOOM_HEADER_SIZE		64

#define BLOOM_KIND_BLOCKED		1
#define BLOOM_KIND_HASHLIST		2
#define BLOOM_KIND_BUFFERED		3
#define BLOOM_KIND_SCALABLE		4
#define BLOOM_PENDING_SLOTS		256

/* flags (version 2) */
#define BLOOM_FLAG_NONSCALING	0x0001	/* kind 1: adds past capacity are refused */
#define BLOOM_FLAG_SCALABLE_STATE 0x0002	/* kind 3: sized as the first layer
											 * of a scalable filter */

/* scalable filters */
#define BLOOM_MAX_LAYERS		32
#define BLOOM_MAX_EXPANSION		16
#define BLOOM_DEFAULT_EXPANSION	2
#define BLOOM_CREATE_CAPACITY	1000	/* first layer of create-on-add */
#define BLOOM_LAYER_DESC_SIZE	32
/* the last layer's rate, target / 409, must be a rate the sizing accepts */
#define BLOOM_MIN_SCALABLE_FPR	1e-9

#define BLOOM_HASH_XXH3_64		1

#define BLOOM_BLOCK_LOG2		9	/* 512-bit blocks: one 64-byte cache line */
#define BLOOM_BLOCK_BITS		(1 << BLOOM_BLOCK_LOG2)
#define BLOOM_BLOCK_BYTES		(BLOOM_BLOCK_BITS / 8)
#define BLOOM_MAX_HASHES		32

/*
 * Largest value the core will build or accept, in bytes, header included.
 * PostgreSQL's limit for one value is 1 GB; a filter's text form (what
 * pg_dump writes) takes two hex digits a byte, so the limit is half of
 * that, less room for the "\x" prefix and COPY's escaping.
 */
#define BLOOM_MAX_BYTES			((uint64_t) 0x1FFFFC00)
#define BLOOM_MAX_BLOCKS		((BLOOM_MAX_BYTES - BLOOM_HEADER_SIZE) / BLOOM_BLOCK_BYTES)
/* a buffered aggregate state must fit too: larger filters go unbuffered */
#define BLOOM_MAX_BUFFERED_BLOCKS	((BLOOM_MAX_BYTES - BLOOM_HEADER_SIZE - BLOOM_PENDING_SLOTS * 8) / BLOOM_BLOCK_BYTES)
#define BLOOM_MAX_SLOTS			((BLOOM_MAX_BYTES - BLOOM_HEADER_SIZE) / 8)

#define BLOOM_MIN_FPR			1e-12
#define BLOOM_MAX_FPR			0.5
#define BLOOM_DEFAULT_FPR		0.01

typedef enum BloomKeyClass
{
	BLOOM_KEY_NONE = 0,			/* nothing added yet */
	BLOOM_KEY_INTEGER = 1,		/* int2, int4, int8 as 8-byte LE int64 */
	BLOOM_KEY_TEXT = 2,			/* text, varchar, name, bpchar: bytes */
	BLOOM_KEY_BYTEA = 3,		/* bytea: bytes */
	BLOOM_KEY_UUID = 4,			/* uuid: its 16 bytes */
	BLOOM_KEY_FLOAT = 5,		/* float4, float8 as float8 LE, -0 and NaN
								 * normalised */
	BLOOM_KEY_OTHER = 6,		/* binary send form, type in key type tag */
	BLOOM_KEY_MAX = BLOOM_KEY_OTHER
} BloomKeyClass;

/* Result codes of the core */
typedef enum BloomStatus
{
	BLOOM_OK = 0,
	BLOOM_E_SHORT,				/* shorter than a header */
	BLOOM_E_MAGIC,
	BLOOM_E_VERSION,
	BLOOM_E_KIND,
	BLOOM_E_HASH,
	BLOOM_E_KEYCLASS,
	BLOOM_E_GEOMETRY,			/* k, block size, blocks or slots out of range */
	BLOOM_E_PARAMS,				/* capacity or fpr out of range */
	BLOOM_E_FLAGS,				/* flags or reserved fields not zero */
	BLOOM_E_LENGTH,				/* total length disagrees with geometry */
	BLOOM_E_COUNT,				/* items/slot counts inconsistent */
	BLOOM_E_CAPACITY,			/* sizing: does not fit */
	BLOOM_E_MISMATCH			/* two filters differ */
} BloomStatus;

/* One layer of a scalable filter, decoded */
typedef struct BloomLayer
{
	uint64_t	nblocks;
	uint64_t	capacity;
	uint64_t	nitems;
	int			k;
	uint8_t    *data;			/* its bits */
} BloomLayer;

/* A decoded header; bits points into the value it was decoded from. */
typedef struct BloomFilter
{
	uint8_t		version;
	uint8_t		kind;
	uint8_t		hash;
	uint8_t		key_class;
	uint32_t	key_type;
	uint8_t		k;
	uint8_t		block_log2;
	uint16_t	flags;
	uint64_t	seed;
	uint64_t	capacity;
	double		fpr;
	uint64_t	nitems;
	uint64_t	nslots;			/* blocks (kind 1), hash slots (kind 2),
								 * layers (kind 4) */
	uint64_t	nused;			/* kind 2: slots in use; kind 4: expansion */
	uint8_t    *data;			/* payload after the header */
	BloomLayer	layers[BLOOM_MAX_LAYERS];	/* kind 4: nslots of them */
} BloomFilter;

/* Sizing plan: hashes per key and the most keys a block may hold */
typedef struct BloomPlan
{
	double		fpr;
	int			k;
	double		keys_per_block;
} BloomPlan;

/* sizing */
extern BloomStatus bloom_plan(double fpr, BloomPlan *plan);
extern BloomStatus bloom_plan_size(const BloomPlan *plan, uint64_t capacity,
								   uint64_t *nblocks);
extern uint64_t bloom_plan_max_capacity(const BloomPlan *plan);
extern double bloom_model_fpr(double keys_per_block, int k);
extern bool bloom_fpr_valid(double fpr);

/* format */
extern size_t bloom_blocked_size(uint64_t nblocks);
extern size_t bloom_hashlist_size(uint64_t nslots);
extern size_t bloom_buffered_size(uint64_t nblocks);
extern void bloom_init_blocked(uint8_t *buf, uint64_t nblocks, int k,
							   uint64_t capacity, double fpr, uint64_t seed);
extern void bloom_init_hashlist(uint8_t *buf, uint64_t nslots,
								uint64_t capacity, double fpr, uint64_t seed);
extern void bloom_init_buffered(uint8_t *buf, uint64_t nblocks, int k,
								uint64_t capacity, double fpr, uint64_t seed);
extern BloomStatus bloom_decode(const uint8_t *buf, size_t len, BloomFilter *f);
extern void bloom_write_header(uint8_t *buf, const BloomFilter *f);
extern const char *bloom_status_message(BloomStatus st);

/* blocked filter operations (insert and contains are inline, below) */
/* scalable filters (kind 4) */
extern double bloom_layer_fpr(double target, int layer);
extern bool bloom_scalable_fpr_valid(double fpr);
extern size_t bloom_scalable_size(uint64_t nlayers, uint64_t total_blocks);
extern uint64_t bloom_scalable_blocks(const BloomFilter *f);
extern void bloom_init_scalable(uint8_t *buf, uint64_t capacity, double fpr,
								unsigned expansion, uint64_t seed,
								uint64_t nblocks, int k);
extern void bloom_scalable_from_blocked(uint8_t *buf, const BloomFilter *b,
										double target, unsigned expansion);
extern BloomStatus bloom_scalable_next_layer(const BloomFilter *f,
											 BloomPlan *plan,
											 uint64_t *capacity, uint64_t *nblocks);
extern void bloom_scalable_append_layer(uint8_t *buf, const BloomFilter *f,
										uint64_t capacity, uint64_t nblocks, int k);
extern void bloom_layer_view(const BloomFilter *f, int i, BloomFilter *out);
extern size_t bloom_scalable_union_size(const BloomFilter *a, const BloomFilter *b);
extern void bloom_scalable_union(uint8_t *buf, const BloomFilter *a,
								 const BloomFilter *b);

extern BloomStatus bloom_compatible(const BloomFilter *a, const BloomFilter *b,
									const char **what);
extern void bloom_union_bits(uint8_t *dst, const uint8_t *src, uint64_t nbytes);
extern void bloom_intersect_bits(uint8_t *dst, const uint8_t *src, uint64_t nbytes);
extern void bloom_insert_many(BloomFilter *f, const uint8_t *hashes_le, uint64_t n);
extern void bloom_flush_pending(uint8_t *buf, BloomFilter *f);
extern uint64_t bloom_bits_set(const BloomFilter *f);
extern double bloom_estimate_items(const BloomFilter *f);
extern double bloom_estimate_fpr(const BloomFilter *f);

/* hash lists (auto-sized aggregate states) */
static inline bool
bloom_is_empty_hashlist(const BloomFilter *f)
{
	return f->kind == BLOOM_KIND_HASHLIST && f->nused == 0;
}

/* Kinds 1 and 3 have blocks of bits; kind 3 also has pending hashes */
static inline bool
bloom_has_bits(const BloomFilter *f)
{
	return f->kind == BLOOM_KIND_BLOCKED || f->kind == BLOOM_KIND_BUFFERED;
}

static inline uint8_t *
bloom_pending(const BloomFilter *f)
{
	return f->data + f->nslots * BLOOM_BLOCK_BYTES;
}

extern uint64_t bloom_hashlist_get(const BloomFilter *f, uint64_t i);
extern void bloom_hashlist_set(BloomFilter *f, uint64_t i, uint64_t h);
extern size_t bloom_unique_u64(uint64_t *a, size_t n);
extern uint64_t bloom_count_distinct(const uint8_t *hashes_le, uint64_t n,
									 uint64_t *table, uint64_t tsize);
extern size_t bloom_estimate_scratch(uint64_t n);
extern double bloom_estimate_distinct(const uint8_t *hashes_le, uint64_t n,
									  uint8_t *scratch);

/*
 * Little-endian helpers.  On little-endian machines they are plain 8-byte
 * copies: byte-by-byte stores followed by an 8-byte load (as when a key is
 * encoded and then hashed) defeat store forwarding and cost ten times the
 * hash itself.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define BLOOM_LITTLE_ENDIAN 1
#endif

static inline uint64_t
bloom_get_le64(const uint8_t *p)
{
#ifdef BLOOM_LITTLE_ENDIAN
	uint64_t	v;

	memcpy(&v, p, 8);
	return v;
#else
	return (uint64_t) p[0] | ((uint64_t) p[1] << 8) | ((uint64_t) p[2] << 16) |
		((uint64_t) p[3] << 24) | ((uint64_t) p[4] << 32) |
		((uint64_t) p[5] << 40) | ((uint64_t) p[6] << 48) |
		((uint64_t) p[7] << 56);
#endif
}

static inline void
bloom_put_le64(uint8_t *p, uint64_t v)
{
#ifdef BLOOM_LITTLE_ENDIAN
	memcpy(p, &v, 8);
#else
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t) (v >> (8 * i));
#endif
}

/*
 * Hashing: XXH3-64 with the filter's seed over the canonical bytes of a key
 * (docs/FORMAT.md has the table of encodings).  Inlined, as the hash of an
 * 8-byte key costs about as much as a call through the shared library.
 */
static inline uint64_t
bloom_hash_bytes(uint64_t seed, const void *data, size_t len)
{
	return XXH3_64bits_withSeed(data, len, seed);
}

static inline uint64_t
bloom_hash_int64(uint64_t seed, int64_t v)
{
	uint8_t		buf[8];

	bloom_put_le64(buf, (uint64_t) v);
	return XXH3_64bits_withSeed(buf, 8, seed);
}

static inline uint64_t
bloom_hash_float8(uint64_t seed, double v)
{
	uint64_t	bits;
	uint8_t		buf[8];

	if (v == 0.0)
		v = 0.0;				/* -0 and +0 are one key */
	if (v != v)
		bits = UINT64_C(0x7FF8000000000000);	/* every NaN is one key */
	else
		memcpy(&bits, &v, 8);
	bloom_put_le64(buf, bits);
	return XXH3_64bits_withSeed(buf, 8, seed);
}

/*
 * Bit positions of a key in a blocked filter.  The block is chosen by
 * multiply-shift of the full 64-bit hash onto [0, nblocks) (Lemire's
 * "fastrange"); the k bits inside the 512-bit block come from the top nine
 * bits of successive multiplications of the hash by an odd constant, as in
 * RocksDB's FastLocalBloom.  Bits are addressed by byte, so the layout does
 * not depend on the machine's byte order.
 */
#define BLOOM_PROBE_MUL		UINT64_C(0x9E3779B97F4A7C15)

static inline uint64_t
bloom_mulhi64(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
	return (uint64_t) (((unsigned __int128) a * b) >> 64);
#else
	uint64_t	a_lo = (uint32_t) a,
				a_hi = a >> 32,
				b_lo = (uint32_t) b,
				b_hi = b >> 32;
	uint64_t	lo_lo = a_lo * b_lo,
				hi_lo = a_hi * b_lo,
				lo_hi = a_lo * b_hi,
				hi_hi = a_hi * b_hi;
	uint64_t	cross = (lo_lo >> 32) + (uint32_t) hi_lo + lo_hi;

	return hi_hi + (hi_lo >> 32) + (cross >> 32);
#endif
}

/*
 * Sets (or tests) the k bits of hash h in nblocks blocks of bits at data:
 * the layout of a blocked filter and of each layer of a scalable one.
 */
static inline void
bloom_bits_insert(uint8_t *data, uint64_t nblocks, int k, uint64_t h)
{
	uint8_t    *blk = data + bloom_mulhi64(h, nblocks) * BLOOM_BLOCK_BYTES;
	uint64_t	x = h;

	for (int i = 0; i < k; i++)
	{
		unsigned	bit;

		x *= BLOOM_PROBE_MUL;
		bit = (unsigned) (x >> (64 - BLOOM_BLOCK_LOG2));
		blk[bit >> 3] |= (uint8_t) (1u << (bit & 7));
	}
}

/*
 * All k bits are tested, without an early exit: for an absent key the
 * first clear bit comes at a random probe, and the mispredicted branch
 * costs more than the few loads from the same cache line.
 */
static inline bool
bloom_bits_contain(const uint8_t *data, uint64_t nblocks, int k, uint64_t h)
{
	const uint8_t *blk = data + bloom_mulhi64(h, nblocks) * BLOOM_BLOCK_BYTES;
	uint64_t	x = h;
	unsigned	ok = 1;

	for (int i = 0; i < k; i++)
	{
		unsigned	bit;

		x *= BLOOM_PROBE_MUL;
		bit = (unsigned) (x >> (64 - BLOOM_BLOCK_LOG2));
		ok &= (unsigned) blk[bit >> 3] >> (bit & 7);
	}
	return (ok & 1) != 0;
}

static inline void
bloom_insert_hash(BloomFilter *f, uint64_t h)
{
	bloom_bits_insert(f->data, f->nslots, f->k, h);
}

static inline bool
bloom_contains_hash(const BloomFilter *f, uint64_t h)
{
	return bloom_bits_contain(f->data, f->nslots, f->k, h);
}

/*
 * Scalable filters (Almeida, Baquero, Preguica and Hutchison, "Scalable
 * Bloom Filters", Information Processing Letters 101(6), 2007): a key may
 * sit in any layer.  Every layer takes the key's bit positions from the
 * same sequence (the top bits of h times the odd constant, again and
 * again), so the positions are computed once for the layer with the most
 * hashes.  The blocks of every layer are prefetched first, so that their
 * cache misses overlap, then tested oldest (smallest) layer first: the
 * small layers are likely in cache, and the misses of the large ones have
 * the longest time to arrive (docs/SCALABLE.md has the measurements).
 */
static inline bool
bloom_scalable_contains(const BloomFilter *f, uint64_t h)
{
	const uint8_t *blk[BLOOM_MAX_LAYERS];
	unsigned	bits[BLOOM_MAX_HASHES];
	int			n = (int) f->nslots;
	int			kmax = 0;
	uint64_t	x = h;

	for (int i = 0; i < n; i++)
	{
		blk[i] = f->layers[i].data +
			bloom_mulhi64(h, f->layers[i].nblocks) * BLOOM_BLOCK_BYTES;
		__builtin_prefetch(blk[i]);
		if (f->layers[i].k > kmax)
			kmax = f->layers[i].k;
	}
	for (int j = 0; j < kmax; j++)
	{
		x *= BLOOM_PROBE_MUL;
		bits[j] = (unsigned) (x >> (64 - BLOOM_BLOCK_LOG2));
	}
	for (int i = 0; i < n; i++)
	{
		unsigned	ok = 1;

		for (int j = 0; j < f->layers[i].k; j++)
			ok &= (unsigned) blk[i][bits[j] >> 3] >> (bits[j] & 7);
		if (ok & 1)
			return true;
	}
	return false;
}

/* One layer of a scalable filter */
static inline bool
bloom_layer_contains(const BloomLayer *l, uint64_t h)
{
	return bloom_bits_contain(l->data, l->nblocks, l->k, h);
}

/*
 * Any filter with bits (kinds 1 and 4).  A scalable filter that has not
 * grown, the common case, is one layer: tested as a blocked filter.
 */
static inline bool
bloom_filter_contains(const BloomFilter *f, uint64_t h)
{
	if (f->kind == BLOOM_KIND_SCALABLE)
	{
		if (f->nslots == 1)
			return bloom_layer_contains(&f->layers[0], h);
		return bloom_scalable_contains(f, h);
	}
	return bloom_contains_hash(f, h);
}

/*
 * Inserts h into the newest layer, which the caller has made sure has
 * room, and counts it; the caller writes the header back.
 */
static inline void
bloom_scalable_insert(BloomFilter *f, uint64_t h)
{
	BloomLayer *l = &f->layers[f->nslots - 1];

	bloom_bits_insert(l->data, l->nblocks, l->k, h);
	l->nitems++;
	if (f->nitems < UINT64_MAX)
		f->nitems++;
}

static inline bool
bloom_scalable_full(const BloomFilter *f)
{
	const BloomLayer *l = &f->layers[f->nslots - 1];

	return l->nitems >= l->capacity;
}

#endif							/* BLOOM_CORE_H */
