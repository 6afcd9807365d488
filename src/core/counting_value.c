/*-------------------------------------------------------------------------
 *
 * counting_value.c
 *		What a countingbloom value is: the (format version, kind) pairs the
 *		type accepts, each with its decoder and the checks of a value from
 *		outside, and the two entry points that read one: a stored value
 *		(counting_value_decode) and outside bytes (counting_value_validate).
 *		The glue, the fuzzers and the tests call these and nothing else to
 *		tell a countingbloom value.
 *
 * A countingbloom value is a counting filter (version 3, kind 5), the
 * hash list counting_agg keeps (version 1, kind 2, read as bloomfilter
 * reads it) or the light state of counting_agg(key, capacity, fpr)
 * (version 4, kind 8).  A value of another kind of the format is
 * BLOOM_E_OTHERTYPE; a kind the format does not have is BLOOM_E_KIND.
 *
 *-------------------------------------------------------------------------
 */
#include "counting.h"
#include "hashlist.h"

/* One form a countingbloom value takes */
typedef struct CountingForm
{
	uint8_t		version;
	uint8_t		kind;
	/* the whole header, the kind's fields and the length */
	BloomStatus (*decode) (const uint8_t *buf, size_t len, BloomFilter *f);
	/* for outside bytes, after decode (NULL: nothing more) */
	BloomStatus (*validate) (const BloomFilter *f, const BloomCancel *c);
} CountingForm;

/*
 * A hash list by bloomfilter's checks of kind 2 (version 1 alone), after
 * the hash algorithm and key class, which every form checks before its
 * version
 */
static BloomStatus
decode_hashlist(const uint8_t *buf, size_t len, BloomFilter *f)
{
	uint64_t	w48,
				w56;
	BloomStatus st = bloom_decode_common(buf, len, f, &w48, &w56);

	return st != BLOOM_OK ? st : bloom_decode_as(buf, len, f, &bloom_hashlist_ops);
}

/*
 * The forms, one a kind: the decoder of each refuses every other version
 * of its kind (kind 5's and 8's with BLOOM_E_VERSION; kind 2's by
 * bloomfilter's rules for a hash list)
 */
static const CountingForm counting_forms[] = {
	{BLOOM_FORMAT_VERSION_3, BLOOM_KIND_COUNTING, counting_decode, counting_validate_deep},
	{BLOOM_FORMAT_VERSION, BLOOM_KIND_HASHLIST, decode_hashlist, NULL},
	{BLOOM_FORMAT_VERSION_4, BLOOM_KIND_SPARSE_COUNTING, counting_sparse_decode, NULL},
};

#define COUNTING_NFORMS (sizeof(counting_forms) / sizeof(counting_forms[0]))

/*
 * Decodes a countingbloom value of len bytes into f by the form of the
 * kind its header names.  The common header is checked first, so a value
 * with a bad header is refused for that whatever its kind.
 */
BloomStatus
counting_value_decode(const uint8_t *buf, size_t len, BloomFilter *f)
{
	uint64_t	w48,
				w56;
	BloomStatus st;

	if (len >= BLOOM_HEADER_SIZE)
		for (size_t i = 0; i < COUNTING_NFORMS; i++)
			if (counting_forms[i].kind == buf[5])
			{
				st = counting_forms[i].decode(buf, len, f);
				/* what decodes is of the form's version */
				if (st == BLOOM_OK && f->version != counting_forms[i].version)
					st = BLOOM_E_VERSION;
				return st;
			}
	if ((st = bloom_decode_common(buf, len, f, &w48, &w56)) != BLOOM_OK)
		return st;
	return f->kind >= 1 && f->kind <= BLOOM_KIND_WINDOWED ?
		BLOOM_E_OTHERTYPE : BLOOM_E_KIND;
}

/*
 * Decodes and validates outside bytes (text, binary, bytea): the decode
 * above, then the checks its form adds, which cost O(size) (a counting
 * filter's counters against its bits).  c, when given, is polled during
 * those.
 */
BloomStatus
counting_value_validate(const uint8_t *buf, size_t len, BloomFilter *f,
						const BloomCancel *c)
{
	BloomStatus st = counting_value_decode(buf, len, f);

	if (st != BLOOM_OK)
		return st;
	for (size_t i = 0; i < COUNTING_NFORMS; i++)
		if (counting_forms[i].kind == f->kind && counting_forms[i].validate != NULL)
			return counting_forms[i].validate(f, c);
	return BLOOM_OK;
}
