/*-------------------------------------------------------------------------
 *
 * format.h
 *		The value format of bloomtype's filters: the common header, the
 *		operations table a kind fills in (kinds.h has the registry of them),
 *		and the getters and setters of header fields.
 *
 * This is the only code that knows header offsets: everything else reads
 * a decoded BloomFilter and writes through bloom_write_header or the
 * setters below.  Plain C, no PostgreSQL.  docs/FORMAT.md is the
 * specification; all integers are little-endian:
 *
 *	off size field
 *	  0   4  magic "BLMF"
 *	  4   1  format version (1; 2 for values that use kind 4 or flags)
 *	  5   1  kind: 1 = blocked Bloom filter, 2 = hash list (aggregate state),
 *			 3 = blocked filter with pending hashes (aggregate state),
 *			 4 = scalable filter (layers of blocked filters); version 3:
 *			 5 = counting Bloom filter (counting.h), 6 = cuckoo filter
 *			 (cuckoo.h), which have layouts of their own after this header
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
 *	 48   8  kinds 1, 3: number of 64-byte blocks (nblocks); kind 2: hash
 *			 slots (nslots); kind 4: number of layers (nlayers, 1..32)
 *	 56   8  kind 1: 0 (reserved); kind 2: hashes held (nhashes); kind 3:
 *			 pending hashes (npending, at most 256); kind 4: expansion
 *			 (1..16)
 *	 64   -  kind 1: nblocks * 64 bytes of bits; kind 2: nslots * 8 bytes;
 *			 kind 3: nblocks * 64 bytes of bits, then 256 * 8 bytes of
 *			 pending hashes; kind 4: one 32-byte descriptor per layer
 *			 (blocks 8, capacity 8, items 8, k 1, 7 zero bytes), then
 *			 each layer's blocks * 64 bytes of bits, oldest first
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_FORMAT_H
#define BLOOM_CORE_FORMAT_H

#include "hash.h"

#define BLOOM_MAGIC_0			'B'
#define BLOOM_MAGIC_1			'L'
#define BLOOM_MAGIC_2			'M'
#define BLOOM_MAGIC_3			'F'
#define BLOOM_FORMAT_VERSION	1
#define BLOOM_FORMAT_VERSION_2	2	/* kind 4, flags */
#define BLOOM_FORMAT_VERSION_3	3	/* kinds 5 and 6 (and only they) */
#define BLOOM_FORMAT_VERSION_4	4	/* kinds 7 and 8 (and only they) */
#define BLOOM_FORMAT_VERSION_5	5	/* kind 9 (and only it) */
#define BLOOM_HEADER_SIZE		64

#define BLOOM_KIND_BLOCKED		1
#define BLOOM_KIND_HASHLIST		2
#define BLOOM_KIND_BUFFERED		3
#define BLOOM_KIND_SCALABLE		4
#define BLOOM_KIND_MAX			BLOOM_KIND_SCALABLE	/* of bloomfilter */
#define BLOOM_KIND_COUNTING		5	/* countingbloom (counting.h) */
#define BLOOM_KIND_CUCKOO		6	/* cuckoofilter (cuckoo.h) */
#define BLOOM_KIND_SPARSE		7	/* bloom_agg's light state (aggstate.h) */
#define BLOOM_KIND_SPARSE_COUNTING 8	/* counting_agg's light state (counting.h) */
#define BLOOM_KIND_WINDOWED		9	/* slices of time (windowed.h) */

/* flags (version 2) */
#define BLOOM_FLAG_NONSCALING	0x0001	/* kind 1: adds past capacity are refused */
#define BLOOM_FLAG_SCALABLE_STATE 0x0002	/* kind 3: sized as the first layer
											 * of a scalable filter */

#define BLOOM_HASH_XXH3_64		1

#define BLOOM_BLOCK_LOG2		9	/* 512-bit blocks: one 64-byte cache line */
#define BLOOM_BLOCK_BITS		(1 << BLOOM_BLOCK_LOG2)
#define BLOOM_BLOCK_BYTES		(BLOOM_BLOCK_BITS / 8)
#define BLOOM_MAX_HASHES		32
#define BLOOM_MAX_LAYERS		32
#define BLOOM_LAYER_DESC_SIZE	32
#define BLOOM_PENDING_SLOTS		256

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
/* the last layer's rate, target / 409, must be a rate the sizing accepts */
#define BLOOM_MIN_SCALABLE_FPR	1e-9
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
	BLOOM_E_MISMATCH,			/* two filters differ */
	BLOOM_E_FULL,				/* a fixed (NONSCALING) filter is at capacity */
	BLOOM_E_GROWN,				/* intersection of filters past one layer */
	BLOOM_E_NOMEM,				/* the allocator gave nothing */
	BLOOM_E_OTHERTYPE,			/* a value of another of bloomtype's types */
	BLOOM_E_CONTENT				/* the contents disagree with the counts */
} BloomStatus;

/*
 * The parameter in which two filters differ, so that they do not combine
 * (bloom_compatible, counting_compatible, cuckoo_compatible): the first
 * that differs, in the order each function checks them.  Callers name it
 * in their own words.
 */
typedef enum BloomParam
{
	BLOOM_PARAM_NONE = 0,		/* none: they combine */
	BLOOM_PARAM_KIND,
	BLOOM_PARAM_GROWTH,			/* growth policy (flags) */
	BLOOM_PARAM_EXPANSION,
	BLOOM_PARAM_HASH,			/* hash algorithm */
	BLOOM_PARAM_SEED,			/* hash seed */
	BLOOM_PARAM_CAPACITY,
	BLOOM_PARAM_FPR,			/* false-positive rate */
	BLOOM_PARAM_NBLOCKS,		/* number of blocks */
	BLOOM_PARAM_HASHES,			/* hashes per key */
	BLOOM_PARAM_KEY_TYPE,		/* both hold keys, of different classes */
	BLOOM_PARAM_LAYERS,			/* geometry of the layers both have */
	BLOOM_PARAM_BUCKET,			/* a cuckoo filter's bucket size */
	BLOOM_PARAM_MAX_KICKS,		/* a cuckoo filter's max kicks */
	BLOOM_PARAM_SLICING			/* a windowed filter's slice and window */
} BloomParam;

#define BLOOM_NUM_PARAMS	(BLOOM_PARAM_SLICING + 1)

/* One layer of a scalable filter, decoded (also a view of a blocked one) */
typedef struct BloomLayer
{
	uint64_t	nblocks;
	uint64_t	capacity;
	uint64_t	nitems;
	int			k;
	uint8_t    *data;			/* its bits */
} BloomLayer;

/*
 * A decoded value.  base points at the value's first byte (its header),
 * data at the payload after the header; both point into the value it was
 * decoded from.  The words at offsets 48 and 56 mean one thing per kind,
 * and are decoded into the field that says what they hold (the others of
 * the group are zero).
 */
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
	uint64_t	nblocks;		/* kinds 1, 3: blocks of bits; 7: of its kind 3 */
	uint64_t	nslots;			/* kinds 2, 7: hash slots */
	uint64_t	nlayers;		/* kind 4: layers */
	uint64_t	nhashes;		/* kinds 2, 7: hashes held */
	uint64_t	npending;		/* kind 3: pending hashes */
	uint64_t	expansion;		/* kind 4 */
	uint64_t	reserved;		/* kind 1: zero */
	uint64_t	nremoves;		/* kind 5: removes that changed the filter */
	uint8_t    *base;
	uint8_t    *data;
	BloomLayer	layers[BLOOM_MAX_LAYERS];	/* kinds 4, 9: nlayers of them */
	/* kind 9 (windowed.h): the window, and the numbers of its slices */
	int64_t		slice_usec;
	int64_t		newest;
	uint32_t	window;
	int64_t		slice_no[BLOOM_MAX_LAYERS];
} BloomFilter;

/*
 * A way out of a long call.  Every loop of the core whose length depends
 * on its input (deep validation, merges, materialisation, sorting and
 * counting hashes, estimates from the bits, conversions, compaction, batch
 * inserts) calls check(arg) every BLOOM_CANCEL_EVERY steps, or every
 * BLOOM_CANCEL_BYTES bytes; the PostgreSQL glue's check is
 * CHECK_FOR_INTERRUPTS(), which does not return when the query is
 * cancelled.  So the core keeps nothing across a check that the caller
 * could not drop: its memory is the allocator's (a memory context in the
 * glue), and a value it changes in place is the caller's and is thrown
 * away with the query.  NULL (or a NULL check): never cancelled, as in the
 * tests, fuzzers and benchmarks.  A check every 64K steps costs nothing
 * measurable (a call through a pointer per 64K keys), and is made outside
 * the inner loop where that loop is hot.
 */
typedef struct BloomCancel
{
	void		(*check) (void *arg);
	void	   *arg;
} BloomCancel;

#define BLOOM_CANCEL_EVERY		65536	/* loop steps between checks (2^16) */
#define BLOOM_CANCEL_BYTES		((uint64_t) 1 << 20)	/* bytes of bits */

static inline void
bloom_cancel_check(const BloomCancel *c)
{
	if (c != NULL && c->check != NULL)
		c->check(c->arg);
}

/* Checks at step i of a loop: at steps 0, 65536, 131072, ... */
static inline void
bloom_cancel_point(const BloomCancel *c, uint64_t i)
{
	if ((i & (BLOOM_CANCEL_EVERY - 1)) == 0)
		bloom_cancel_check(c);
}

/*
 * Memory for the values the core makes (grown filters, unions, filters
 * made of aggregate states) and for its scratch space.  alloc returns size
 * bytes for a value, or NULL; free takes back a value the core made and
 * no longer needs (an intermediate one: a value the caller passed in is
 * the caller's to free).  scratch and scratch_free, a pair (both set or
 * neither), serve the core's work arrays, which must be aligned for
 * uint64_t (neither: alloc and free serve, as with malloc).  The PostgreSQL glue allocates values inside varlenas
 * in a memory context, scratch with palloc; tests, fuzzers and benchmarks
 * use malloc.
 */
typedef struct BloomAlloc
{
	void	   *(*alloc) (void *arg, size_t size);
	void		(*free) (void *arg, void *p);
	void	   *arg;
	void	   *(*scratch) (void *arg, size_t size);
	void		(*scratch_free) (void *arg, void *p);
	/* the long loops of calls with this allocator check it (NULL: never) */
	const BloomCancel *cancel;
} BloomAlloc;

/* The cancel check of an allocator (NULL allocator: none) */
static inline const BloomCancel *
bloom_alloc_cancel(const BloomAlloc *a)
{
	return a != NULL ? a->cancel : NULL;
}

/* What bloom_info shows of a filter (BF.INFO) */
typedef struct BloomInfo
{
	const char *kind;			/* "blocked" or "scalable" */
	uint64_t	capacity;		/* scalable: the sum over its layers */
	uint64_t	bits;
	int			hashes;			/* scalable: of the newest layer */
	uint64_t	bits_set;
	double		estimated_items;
	double		estimated_fpr;
	int			layers;
	int			expansion;		/* 0: fixed (NONSCALING) */
	bool		has_expansion;	/* false: flags 0, no growth policy */
} BloomInfo;

struct BloomPlan;

/*
 * The operations of a kind, which the glue dispatches on (through the
 * registry of kinds.h).  Aggregate states (kinds 2, 3 and 7) have no
 * contains, add or describe: they are materialised into the filters they
 * stand for first (src/core/aggstate.h); a buffered or light state merges
 * with another (bloom_agg's combine step).
 */
typedef struct BloomOps
{
	const char *name;
	uint8_t		kind;			/* the kind whose table this is */
	/* validates the kind's fields and the length; the common part is checked */
	BloomStatus (*decode) (const uint8_t *buf, size_t len, BloomFilter *f);
	/* the bytes of the value f describes */
	size_t		(*size) (const BloomFilter *f);
	bool		(*contains) (const BloomFilter *f, uint64_t h);
	/* adds h by the kind's rule; may replace f's value (see bloom_add) */
	BloomStatus (*add) (BloomFilter *f, uint64_t h, struct BloomPlan *plan,
						const BloomAlloc *a, bool *added);
	/* combines b into a (compatible, same kind); may replace a's value */
	BloomStatus (*merge) (BloomFilter *a, const BloomFilter *b, bool intersect,
						  const BloomAlloc *al);
	void		(*describe) (const BloomFilter *f, BloomInfo *info);
} BloomOps;

/* format.c: header I/O, the checks every kind shares, memory */
extern BloomStatus bloom_decode_as(const uint8_t *buf, size_t len, BloomFilter *f,
								   const BloomOps *ops);
extern BloomStatus bloom_decode_common(const uint8_t *buf, size_t len, BloomFilter *f,
									   uint64_t *w48, uint64_t *w56);
extern void bloom_write_header(const BloomFilter *f);
extern void bloom_write_common(const BloomFilter *f, uint64_t w48, uint64_t w56);
extern void bloom_header_init(BloomFilter *f, uint8_t *buf, int kind,
							  uint64_t capacity, double fpr, uint64_t seed);
extern size_t bloom_bits_offset(const BloomFilter *f);
extern const char *bloom_status_message(BloomStatus st);
extern BloomParam bloom_compatible(const BloomFilter *a, const BloomFilter *b);

/*
 * Whether two filters' keys may meet: a filter that has seen no key (class
 * none) meets any; otherwise class and type must agree.  The rule of every
 * family's *_compatible.
 */
static inline bool
bloom_keys_compatible(const BloomFilter *a, const BloomFilter *b)
{
	return a->key_class == BLOOM_KEY_NONE || b->key_class == BLOOM_KEY_NONE ||
		(a->key_class == b->key_class && a->key_type == b->key_type);
}

/*
 * What every family's *_compatible checks of the sizing first: the seed,
 * then the capacity and rate it was planned for
 */
static inline BloomParam
bloom_sizing_compatible(const BloomFilter *a, const BloomFilter *b)
{
	if (a->seed != b->seed)
		return BLOOM_PARAM_SEED;
	if (a->capacity != b->capacity)
		return BLOOM_PARAM_CAPACITY;
	if (a->fpr != b->fpr)
		return BLOOM_PARAM_FPR;
	return BLOOM_PARAM_NONE;
}

extern void *bloom_alloc_value(const BloomAlloc *a, size_t size);
extern void *bloom_alloc_scratch(const BloomAlloc *a, size_t size);
extern void bloom_free_scratch(const BloomAlloc *a, void *p);

/* Kinds 1 and 3 have blocks of bits; kind 3 also has pending hashes */
static inline bool
bloom_has_bits(const BloomFilter *f)
{
	return f->kind == BLOOM_KIND_BLOCKED || f->kind == BLOOM_KIND_BUFFERED;
}

/* Aggregate states stand for filters and are materialised before use */
static inline bool
bloom_is_state(const BloomFilter *f)
{
	return f->kind == BLOOM_KIND_HASHLIST || f->kind == BLOOM_KIND_BUFFERED ||
		f->kind == BLOOM_KIND_SPARSE;
}

/*
 * The states of bloom_agg(key, capacity, fpr): a buffered filter (kind 3),
 * or the light form of one (kind 7) that keeps its keys' hashes until they
 * would take more room than its bits
 */
static inline bool
bloom_is_fixed_state(const BloomFilter *f)
{
	return f->kind == BLOOM_KIND_BUFFERED || f->kind == BLOOM_KIND_SPARSE;
}

/* What bloom_agg gives for no rows when it cannot know a size */
static inline bool
bloom_is_empty_hashlist(const BloomFilter *f)
{
	return f->kind == BLOOM_KIND_HASHLIST && f->nhashes == 0;
}

/*
 * Setters of single header fields, for the per-row paths that change one
 * count (bloom_write_header writes them all).
 */
static inline void
bloom_store_items(const BloomFilter *f)
{
	bloom_put_le64(f->base + 40, f->nitems);
}

/* kinds 2, 7 and 8's hashes held, kind 3's pending hashes (only those kinds) */
static inline void
bloom_store_fill(const BloomFilter *f)
{
	bloom_put_le64(f->base + 56, f->kind == BLOOM_KIND_BUFFERED ? f->npending : f->nhashes);
}

/*
 * A copy of the header of the aggregate state f (kinds 2, 3, 7, 8) into out
 * (BLOOM_HEADER_SIZE bytes), as bloom_store_items and bloom_store_fill left
 * it: the two count words are taken from f, not read back, because a copy
 * that read them back with wider loads right after those stores would wait
 * for them (no store forwarding: about 15 cycles a row for bloom_agg).
 */
static inline void
bloom_state_header_copy(const BloomFilter *f, uint8_t *out)
{
	memcpy(out, f->base, 40);
	bloom_put_le64(out + 40, f->nitems);
	memcpy(out + 48, f->base + 48, 8);
	bloom_put_le64(out + 56, f->kind == BLOOM_KIND_BUFFERED ? f->npending : f->nhashes);
}

static inline void
bloom_store_key_class(BloomFilter *f, uint8_t key_class, uint32_t key_type)
{
	f->key_class = key_class;
	f->key_type = key_type;
	f->base[7] = key_class;
	f->base[8] = (uint8_t) key_type;
	f->base[9] = (uint8_t) (key_type >> 8);
	f->base[10] = (uint8_t) (key_type >> 16);
	f->base[11] = (uint8_t) (key_type >> 24);
}

/* A filter that holds no keys yet takes the key class of one it joins */
static inline void
bloom_adopt_key_class(BloomFilter *a, const BloomFilter *b)
{
	if (a->key_class == BLOOM_KEY_NONE)
	{
		a->key_class = b->key_class;
		a->key_type = b->key_type;
	}
}

/*
 * Gives f a flag of version 2 (a value is written in the oldest version
 * that can hold it: a flag needs version 2) and writes the header.  The
 * flag replaces f's flags: each kind has at most one.
 */
static inline void
bloom_set_flag(BloomFilter *f, uint16_t flag)
{
	f->version = BLOOM_FORMAT_VERSION_2;
	f->flags = flag;
	bloom_write_header(f);
}

/* Adds n to a count without wrapping */
static inline uint64_t
bloom_sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
 * Decoding, inline: a value is decoded once per aggregated row, through
 * bloom_decode (kinds.c) or bloom_decode_as (format.c), and a call of an
 * exported function is not inlined in a shared library, even within one
 * file.  The rest of the core calls those two, or bloom_decode_common.
 */

/*
 * What the words at offsets 48 and 56 hold, per kind: the fields of the
 * decoded struct they go to.  bloom_set_words and bloom_get_words are the two
 * directions of the one mapping (the unit tests round-trip every kind);
 * decode assigns by a switch, not through pointers, as it runs once per
 * aggregated row.
 */
static inline void
bloom_set_words(BloomFilter *f, uint64_t w48, uint64_t w56)
{
	f->nblocks = f->nslots = f->nlayers = 0;
	f->nhashes = f->npending = f->expansion = f->reserved = f->nremoves = 0;
	switch (f->kind)
	{
		case BLOOM_KIND_HASHLIST:
			f->nslots = w48;
			f->nhashes = w56;
			break;
		case BLOOM_KIND_BUFFERED:
			f->nblocks = w48;
			f->npending = w56;
			break;
		case BLOOM_KIND_SCALABLE:
			f->nlayers = w48;
			f->expansion = w56;
			break;
		case BLOOM_KIND_WINDOWED:
			f->nlayers = w48;
			f->nblocks = w56;
			break;
		case BLOOM_KIND_COUNTING:
			f->nblocks = w48;
			f->nremoves = w56;
			break;
		case BLOOM_KIND_SPARSE:
		case BLOOM_KIND_SPARSE_COUNTING:
			f->nblocks = w48;
			f->nhashes = w56;
			break;
		default:				/* kind 1, and unknown kinds decode refuses */
			f->nblocks = w48;
			f->reserved = w56;
			break;
	}
}

static inline void
bloom_get_words(const BloomFilter *f, uint64_t *w48, uint64_t *w56)
{
	switch (f->kind)
	{
		case BLOOM_KIND_HASHLIST:
			*w48 = f->nslots;
			*w56 = f->nhashes;
			break;
		case BLOOM_KIND_BUFFERED:
			*w48 = f->nblocks;
			*w56 = f->npending;
			break;
		case BLOOM_KIND_SCALABLE:
			*w48 = f->nlayers;
			*w56 = f->expansion;
			break;
		case BLOOM_KIND_WINDOWED:
			*w48 = f->nlayers;
			*w56 = f->nblocks;
			break;
		case BLOOM_KIND_COUNTING:
			*w48 = f->nblocks;
			*w56 = f->nremoves;
			break;
		case BLOOM_KIND_SPARSE:
		case BLOOM_KIND_SPARSE_COUNTING:
			*w48 = f->nblocks;
			*w56 = f->nhashes;
			break;
		default:
			*w48 = f->nblocks;
			*w56 = f->reserved;
			break;
	}
}

/*
 * The common header of a value of len bytes, decoded into f; w48 and w56
 * are the raw words at offsets 48 and 56.  Only the magic is checked.
 */
static inline BloomStatus
bloom_decode_header(const uint8_t *buf, size_t len, BloomFilter *f, uint64_t *w48,
					uint64_t *w56)
{
	uint64_t	fbits;
	uint64_t	w0,
				w1;

	if (len < BLOOM_HEADER_SIZE)
		return BLOOM_E_SHORT;
	/* eight-byte words, then fields: this runs once per aggregated row */
	w0 = bloom_get_le64(buf);
	w1 = bloom_get_le64(buf + 8);
	if ((uint32_t) w0 != ((uint32_t) BLOOM_MAGIC_0 | (uint32_t) BLOOM_MAGIC_1 << 8 |
						  (uint32_t) BLOOM_MAGIC_2 << 16 | (uint32_t) BLOOM_MAGIC_3 << 24))
		return BLOOM_E_MAGIC;

	f->version = (uint8_t) (w0 >> 32);
	f->kind = (uint8_t) (w0 >> 40);
	f->hash = (uint8_t) (w0 >> 48);
	f->key_class = (uint8_t) (w0 >> 56);
	f->key_type = (uint32_t) w1;
	f->k = (uint8_t) (w1 >> 32);
	f->block_log2 = (uint8_t) (w1 >> 40);
	f->flags = (uint16_t) (w1 >> 48);
	f->seed = bloom_get_le64(buf + 16);
	f->capacity = bloom_get_le64(buf + 24);
	fbits = bloom_get_le64(buf + 32);
	memcpy(&f->fpr, &fbits, 8);
	f->nitems = bloom_get_le64(buf + 40);
	*w48 = bloom_get_le64(buf + 48);
	*w56 = bloom_get_le64(buf + 56);
	bloom_set_words(f, *w48, *w56);
	f->base = (uint8_t *) buf;
	f->data = (uint8_t *) buf + BLOOM_HEADER_SIZE;
	return BLOOM_OK;
}

/* The fields every kind checks alike: hash algorithm and key class */
static inline BloomStatus
bloom_check_common(const BloomFilter *f)
{
	if (f->hash != BLOOM_HASH_XXH3_64)
		return BLOOM_E_HASH;
	if (f->key_class > BLOOM_KEY_MAX ||
		(f->key_class == BLOOM_KEY_OTHER) != (f->key_type != 0))
		return BLOOM_E_KEYCLASS;
	return BLOOM_OK;
}

/*
 * Decodes and validates a value of len bytes of the kind whose operations
 * are ops (NULL: a kind bloomfilter does not have): the common header,
 * then ops's decode.  Every field is checked, and the length against the
 * geometry, before anything else reads the payload.  A value is written in
 * the oldest version that can hold it, so each value has one encoding:
 * each kind's decode says which versions and flags it takes.  A value of
 * another kind than ops's, or of a kind or version bloomfilter does not
 * read, is refused with the status bloom_decode (kinds.c: ops from the
 * registry) gives for it.
 */
static inline BloomStatus
bloom_decode_with(const uint8_t *buf, size_t len, BloomFilter *f, const BloomOps *ops)
{
	uint64_t	w48,
				w56;
	BloomStatus st = bloom_decode_header(buf, len, f, &w48, &w56);

	if (st != BLOOM_OK)
		return st;
	/* a counting or cuckoo filter is not a bloomfilter */
	if (f->version == BLOOM_FORMAT_VERSION_3 &&
		(f->kind == BLOOM_KIND_COUNTING || f->kind == BLOOM_KIND_CUCKOO))
		return BLOOM_E_OTHERTYPE;
	/* version 4 has kind 7 (and kind 8, countingbloom's) alone */
	if (f->version == BLOOM_FORMAT_VERSION_4 && f->kind == BLOOM_KIND_SPARSE_COUNTING)
		return BLOOM_E_OTHERTYPE;
	if (f->version == BLOOM_FORMAT_VERSION_4)
	{
		if (f->kind != BLOOM_KIND_SPARSE)
			return BLOOM_E_KIND;
	}
	/* version 5 has kind 9 alone */
	else if (f->version == BLOOM_FORMAT_VERSION_5)
	{
		if (f->kind != BLOOM_KIND_WINDOWED)
			return BLOOM_E_KIND;
	}
	else if (f->version != BLOOM_FORMAT_VERSION && f->version != BLOOM_FORMAT_VERSION_2)
		return BLOOM_E_VERSION;
	else if (f->kind == BLOOM_KIND_SPARSE || f->kind == BLOOM_KIND_WINDOWED)
		return BLOOM_E_KIND;
	if (ops == NULL || ops->kind != f->kind)
		return BLOOM_E_KIND;
	if ((st = bloom_check_common(f)) != BLOOM_OK)
		return st;
	return ops->decode(buf, len, f);
}

#endif							/* BLOOM_CORE_FORMAT_H */
