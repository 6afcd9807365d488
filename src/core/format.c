/*-------------------------------------------------------------------------
 *
 * format.c
 *		The common header of every value, the registry of kinds, and the
 *		generic operations that dispatch on a value's kind.
 *
 * Decoding checks the common header here, then hands the value to its
 * kind's decode, which checks the rest and the length before anything
 * reads the payload.
 *
 *-------------------------------------------------------------------------
 */
#include "core.h"

/* The registry: one operations table per kind, indexed by kind */
static const BloomOps *const kind_ops[BLOOM_KIND_SPARSE + 1] = {
	[BLOOM_KIND_BLOCKED] = &bloom_blocked_ops,
	[BLOOM_KIND_HASHLIST] = &bloom_hashlist_ops,
	[BLOOM_KIND_BUFFERED] = &bloom_buffered_ops,
	[BLOOM_KIND_SCALABLE] = &bloom_scalable_ops,
	/* kinds 5 and 6 are other types' */
	[BLOOM_KIND_SPARSE] = &bloom_sparse_ops,
};

/*
 * Static, so that the calls in this file are inlined (in a shared library
 * an exported function called from its own file is not: decode runs once
 * per aggregated row).
 */
static inline const BloomOps *
ops_of(uint8_t kind)
{
	return kind <= BLOOM_KIND_SPARSE ? kind_ops[kind] : NULL;
}

const BloomOps *
bloom_kind_ops(uint8_t kind)
{
	return ops_of(kind);
}

/*
 * What the words at offsets 48 and 56 hold, per kind: the fields of the
 * decoded struct they go to.  set_words and get_words are the two
 * directions of the one mapping (the unit tests round-trip every kind);
 * decode assigns by a switch, not through pointers, as it runs once per
 * aggregated row.
 */
static inline void
set_words(BloomFilter *f, uint64_t w48, uint64_t w56)
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
get_words(const BloomFilter *f, uint64_t *w48, uint64_t *w56)
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
 * Writes the common header of f, with w48 and w56 the words at offsets 48
 * and 56 (what they hold is the kind's)
 */
void
bloom_write_common(const BloomFilter *f, uint64_t w48, uint64_t w56)
{
	uint8_t    *buf = f->base;
	uint64_t	fbits;

	buf[0] = BLOOM_MAGIC_0;
	buf[1] = BLOOM_MAGIC_1;
	buf[2] = BLOOM_MAGIC_2;
	buf[3] = BLOOM_MAGIC_3;
	buf[4] = f->version;
	buf[5] = f->kind;
	buf[6] = f->hash;
	buf[7] = f->key_class;
	buf[8] = (uint8_t) f->key_type;
	buf[9] = (uint8_t) (f->key_type >> 8);
	buf[10] = (uint8_t) (f->key_type >> 16);
	buf[11] = (uint8_t) (f->key_type >> 24);
	buf[12] = f->k;
	buf[13] = f->block_log2;
	buf[14] = (uint8_t) f->flags;
	buf[15] = (uint8_t) (f->flags >> 8);
	bloom_put_le64(buf + 16, f->seed);
	bloom_put_le64(buf + 24, f->capacity);
	memcpy(&fbits, &f->fpr, 8);
	bloom_put_le64(buf + 32, fbits);
	bloom_put_le64(buf + 40, f->nitems);
	bloom_put_le64(buf + 48, w48);
	bloom_put_le64(buf + 56, w56);
}

/* The header of a value of kinds 1 to 5, a scalable filter's descriptors too */
void
bloom_write_header(const BloomFilter *f)
{
	uint8_t    *buf = f->base;
	uint64_t	w48,
				w56;

	get_words(f, &w48, &w56);
	bloom_write_common(f, w48, w56);
	if (f->kind == BLOOM_KIND_SCALABLE)
	{
		for (uint64_t i = 0; i < f->nlayers; i++)
		{
			uint8_t    *d = buf + BLOOM_HEADER_SIZE + i * BLOOM_LAYER_DESC_SIZE;

			bloom_put_le64(d, f->layers[i].nblocks);
			bloom_put_le64(d + 8, f->layers[i].capacity);
			bloom_put_le64(d + 16, f->layers[i].nitems);
			memset(d + 24, 0, 8);
			d[24] = (uint8_t) f->layers[i].k;
		}
	}
}

/* The fields every new value starts with: version 1, nothing added */
void
bloom_header_init(BloomFilter *f, uint8_t *buf, int kind, uint64_t capacity,
				  double fpr, uint64_t seed)
{
	memset(f, 0, sizeof(*f));
	f->version = BLOOM_FORMAT_VERSION;
	f->kind = (uint8_t) kind;
	f->hash = BLOOM_HASH_XXH3_64;
	f->key_class = BLOOM_KEY_NONE;
	f->seed = seed;
	f->capacity = capacity;
	f->fpr = fpr;
	f->base = buf;
	f->data = buf + BLOOM_HEADER_SIZE;
}

/*
 * Decodes and validates a value of len bytes.  Every field is checked, and
 * the length against the geometry, before anything else reads the payload.
 * A value is written in the oldest version that can hold it, so each value
 * has one encoding: each kind's decode says which versions and flags it
 * takes.
 */
static inline BloomStatus
decode_common(const uint8_t *buf, size_t len, BloomFilter *f, uint64_t *w48,
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
	set_words(f, *w48, *w56);
	f->base = (uint8_t *) buf;
	f->data = (uint8_t *) buf + BLOOM_HEADER_SIZE;
	return BLOOM_OK;
}

/* The fields every kind checks alike: hash algorithm and key class */
static inline BloomStatus
check_common(const BloomFilter *f)
{
	if (f->hash != BLOOM_HASH_XXH3_64)
		return BLOOM_E_HASH;
	if (f->key_class > BLOOM_KEY_MAX ||
		(f->key_class == BLOOM_KEY_OTHER) != (f->key_type != 0))
		return BLOOM_E_KEYCLASS;
	return BLOOM_OK;
}

/*
 * The common header of any kind, for the decoders of kinds 5 and 6: magic,
 * hash algorithm and key class are checked; version and kind are the
 * caller's to check.  w48 and w56 are the raw words at offsets 48 and 56.
 */
BloomStatus
bloom_decode_common(const uint8_t *buf, size_t len, BloomFilter *f,
					uint64_t *w48, uint64_t *w56)
{
	BloomStatus st = decode_common(buf, len, f, w48, w56);

	return st != BLOOM_OK ? st : check_common(f);
}

BloomStatus
bloom_decode(const uint8_t *buf, size_t len, BloomFilter *f)
{
	uint64_t	w48,
				w56;
	BloomStatus st = decode_common(buf, len, f, &w48, &w56);

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
	else if (f->version != BLOOM_FORMAT_VERSION && f->version != BLOOM_FORMAT_VERSION_2)
		return BLOOM_E_VERSION;
	else if (f->kind == BLOOM_KIND_SPARSE)
		return BLOOM_E_KIND;
	if (ops_of(f->kind) == NULL)
		return BLOOM_E_KIND;
	if ((st = check_common(f)) != BLOOM_OK)
		return st;
	return ops_of(f->kind)->decode(buf, len, f);
}

size_t
bloom_value_size(const BloomFilter *f)
{
	return ops_of(f->kind)->size(f);
}

/*
 * Bytes before the first block of bits: the header, and a scalable
 * filter's layer descriptors (a copy that starts its bits on a cache line
 * is aligned by this)
 */
size_t
bloom_bits_offset(const BloomFilter *f)
{
	return BLOOM_HEADER_SIZE +
		(f->kind == BLOOM_KIND_SCALABLE ? f->nlayers * BLOOM_LAYER_DESC_SIZE : 0);
}

const char *
bloom_status_message(BloomStatus st)
{
	switch (st)
	{
		case BLOOM_OK:
			return "The value is valid.";
		case BLOOM_E_SHORT:
			return "The value is shorter than the 64-byte header.";
		case BLOOM_E_MAGIC:
			return "The value does not start with the magic bytes \"BLMF\".";
		case BLOOM_E_VERSION:
			return "The format version is not one this build reads (it reads versions 1, 2 and 4).";
		case BLOOM_E_KIND:
			return "The filter kind is unknown.";
		case BLOOM_E_HASH:
			return "The hash algorithm is unknown.";
		case BLOOM_E_KEYCLASS:
			return "The key class or key type is invalid.";
		case BLOOM_E_GEOMETRY:
			return "The geometry (hashes per key, block size or block count) is out of range.";
		case BLOOM_E_PARAMS:
			return "The capacity or false-positive rate is out of range.";
		case BLOOM_E_FLAGS:
			return "The flags or reserved fields are not zero.";
		case BLOOM_E_LENGTH:
			return "The length does not match the geometry in the header.";
		case BLOOM_E_COUNT:
			return "The item counts are inconsistent.";
		case BLOOM_E_CAPACITY:
			return "The capacity does not fit in the largest value.";
		case BLOOM_E_MISMATCH:
			return "The filters differ.";
		case BLOOM_E_FULL:
			return "The filter holds its capacity and does not grow.";
		case BLOOM_E_GROWN:
			return "The filters have grown past their first layer.";
		case BLOOM_E_NOMEM:
			return "Out of memory.";
		case BLOOM_E_OTHERTYPE:
			return "The value is of another bloomtype type (bloomfilter, countingbloom or cuckoofilter).";
		case BLOOM_E_CONTENT:
			return "The contents disagree with the counts in the header.";
	}
	return "Unknown error.";
}

/*
 * Can a and b be combined bit by bit?  Returns the first parameter that
 * differs, BLOOM_PARAM_NONE if none does.  Filters that hold nothing yet
 * match any key class.
 */
BloomParam
bloom_compatible(const BloomFilter *a, const BloomFilter *b)
{
	/* a light state (kind 7) stands for a buffered one: it has its geometry */
	bool		fa = bloom_has_bits(a) || a->kind == BLOOM_KIND_SPARSE;
	bool		fb = bloom_has_bits(b) || b->kind == BLOOM_KIND_SPARSE;

	if (fa != fb || (!fa && a->kind != b->kind))
		return BLOOM_PARAM_KIND;
	if (a->flags != b->flags)
		return BLOOM_PARAM_GROWTH;
	if (a->kind == BLOOM_KIND_SCALABLE && a->expansion != b->expansion)
		return BLOOM_PARAM_EXPANSION;
	if (a->hash != b->hash)
		return BLOOM_PARAM_HASH;
	if (a->seed != b->seed)
		return BLOOM_PARAM_SEED;
	if (a->capacity != b->capacity)
		return BLOOM_PARAM_CAPACITY;
	if (a->fpr != b->fpr)
		return BLOOM_PARAM_FPR;
	if (a->nblocks != b->nblocks && fa)
		return BLOOM_PARAM_NBLOCKS;
	if (a->k != b->k)
		return BLOOM_PARAM_HASHES;
	if (a->key_class != BLOOM_KEY_NONE && b->key_class != BLOOM_KEY_NONE &&
		(a->key_class != b->key_class || a->key_type != b->key_type))
		return BLOOM_PARAM_KEY_TYPE;
	if (a->kind == BLOOM_KIND_SCALABLE)
	{
		/* layers both have were planned alike: a crafted value may differ */
		for (uint64_t i = 0; i < a->nlayers && i < b->nlayers; i++)
			if (a->layers[i].nblocks != b->layers[i].nblocks ||
				a->layers[i].k != b->layers[i].k)
				return BLOOM_PARAM_LAYERS;
	}
	return BLOOM_PARAM_NONE;
}

/*
 * Adds hash h to the filter f by the rule of its kind, and writes the
 * header back.  *added says whether the filter changed.  A kind that grows
 * may move f to a new value from a (compare f->base before and after: the
 * old value is the caller's to free).  plan, when given, caches a sizing
 * plan across calls.  Aggregate states are not added to here.
 */
BloomStatus
bloom_add(BloomFilter *f, uint64_t h, struct BloomPlan *plan, const BloomAlloc *a,
		  bool *added)
{
	const BloomOps *ops = ops_of(f->kind);

	*added = false;
	if (ops->add == NULL)
		return BLOOM_E_KIND;
	return ops->add(f, h, plan, a, added);
}

/*
 * Combines b into a, compatible filters (bloom_compatible): union, or
 * intersection, by the rule of a's kind (a blocked filter and a buffered
 * state combine with each other).  a may move to a new value from al, as
 * for bloom_add.
 */
BloomStatus
bloom_merge(BloomFilter *a, const BloomFilter *b, bool intersect,
			const BloomAlloc *al)
{
	const BloomOps *ops = ops_of(a->kind);

	if (ops->merge == NULL)
		return BLOOM_E_KIND;
	return ops->merge(a, b, intersect, al);
}

/*
 * What a filter (kind 1 or 4) is and holds, estimates included;
 * BLOOM_E_KIND for an aggregate state (materialise it first).
 */
BloomStatus
bloom_describe(const BloomFilter *f, BloomInfo *info, const BloomCancel *c)
{
	const BloomOps *ops = ops_of(f->kind);

	if (ops->describe == NULL)
		return BLOOM_E_KIND;
	info->kind = ops->name;
	ops->describe(f, info);
	info->bits_set = bloom_bits_set(f, c);
	info->estimated_items = bloom_estimate_items(f, c);
	info->estimated_fpr = bloom_estimate_fpr(f, c);
	return BLOOM_OK;
}

void *
bloom_alloc_value(const BloomAlloc *a, size_t size)
{
	return a->alloc(a->arg, size);
}

/* Work memory, aligned for uint64_t */
void *
bloom_alloc_scratch(const BloomAlloc *a, size_t size)
{
	return a->scratch ? a->scratch(a->arg, size) : a->alloc(a->arg, size);
}

/* scratch and scratch_free come as a pair: both set, or neither */
void
bloom_free_scratch(const BloomAlloc *a, void *p)
{
	if (a->scratch)
		a->scratch_free(a->arg, p);
	else
		a->free(a->arg, p);
}
