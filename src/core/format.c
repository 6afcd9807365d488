/*-------------------------------------------------------------------------
 *
 * format.c
 *		The common header of every value: writing it, decoding it and the
 *		checks every kind shares, and the allocator's helpers.
 *
 * Decoding (inline in format.h) checks the common header, then hands the
 * value to its kind's decode, which checks the rest and the length before
 * anything reads the payload.  Which kind's decode that is, the caller
 * says (bloom_decode_as), or the registry of kinds (bloom_decode, kinds.c,
 * above every family: the format knows the kinds' numbers, not their
 * code).
 *
 *-------------------------------------------------------------------------
 */
#include "format.h"

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

	bloom_get_words(f, &w48, &w56);
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
 * The common header of any kind, for the decoders of kinds 5 and 6: magic,
 * hash algorithm and key class are checked; version and kind are the
 * caller's to check.  w48 and w56 are the raw words at offsets 48 and 56.
 */
BloomStatus
bloom_decode_common(const uint8_t *buf, size_t len, BloomFilter *f,
					uint64_t *w48, uint64_t *w56)
{
	BloomStatus st = bloom_decode_header(buf, len, f, w48, w56);

	return st != BLOOM_OK ? st : bloom_check_common(f);
}

/*
 * Decodes and validates a value of len bytes of the kind whose operations
 * are ops: bloom_decode_with (format.h), for the modules that decode a
 * value of a kind they know.
 */
BloomStatus
bloom_decode_as(const uint8_t *buf, size_t len, BloomFilter *f, const BloomOps *ops)
{
	return bloom_decode_with(buf, len, f, ops);
}

/*
 * Bytes before the first block of bits: the header, and a scalable
 * filter's layer descriptors (a copy that starts its bits on a cache line
 * is aligned by this)
 */
size_t
bloom_bits_offset(const BloomFilter *f)
{
	/* kind 9: the window descriptor (32 bytes) and 16 bytes a slice */
	if (f->kind == BLOOM_KIND_WINDOWED)
		return BLOOM_HEADER_SIZE + 32 + f->nlayers * 16;
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
			return "The format version is not one this build reads (it reads versions 1, 2, 4 and 5).";
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
	BloomParam	param;

	if (fa != fb || (!fa && a->kind != b->kind))
		return BLOOM_PARAM_KIND;
	if (a->flags != b->flags)
		return BLOOM_PARAM_GROWTH;
	if (a->kind == BLOOM_KIND_SCALABLE && a->expansion != b->expansion)
		return BLOOM_PARAM_EXPANSION;
	if (a->hash != b->hash)
		return BLOOM_PARAM_HASH;
	if ((param = bloom_sizing_compatible(a, b)) != BLOOM_PARAM_NONE)
		return param;
	if (a->nblocks != b->nblocks && fa)
		return BLOOM_PARAM_NBLOCKS;
	if (a->k != b->k)
		return BLOOM_PARAM_HASHES;
	if (!bloom_keys_compatible(a, b))
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
