/*-------------------------------------------------------------------------
 *
 * cuckoo_value.c
 *		What a cuckoofilter value is: the (format version, kind) pairs the
 *		type accepts, each with its decoder, the rules it adds to that
 *		decoder and the checks of a value from outside, and the two entry
 *		points that read one: a stored value (cuckoo_value_decode) and
 *		outside bytes (cuckoo_value_validate).  The glue, the fuzzers and
 *		the tests call these and nothing else to tell a cuckoofilter value.
 *
 * A cuckoofilter value is a cuckoo filter (version 3, kind 6), or the hash
 * list cuckoo_agg keeps: version 1 when auto-sized, version 3 with the
 * capacity cuckoo_agg(key, capacity, fpr) was given.  A value of another
 * kind of the format is BLOOM_E_OTHERTYPE; a kind the format does not
 * have is BLOOM_E_KIND.
 *
 *-------------------------------------------------------------------------
 */
#include "cuckoo.h"
#include "hashlist.h"

/* One form a cuckoofilter value takes */
typedef struct CuckooForm
{
	uint8_t		version;
	uint8_t		kind;
	/* the whole header, the kind's fields and the length */
	BloomStatus (*decode) (const uint8_t *buf, size_t len, CuckooFilter *f);
	/* what the type adds to decode, cheap enough for every read (or NULL) */
	BloomStatus (*check) (const CuckooFilter *f);
	/* for outside bytes, after decode and check (NULL: nothing more) */
	BloomStatus (*validate) (const CuckooFilter *f, const BloomCancel *c);
} CuckooForm;

/* a hash list of either version (bloom_decode_hashlist_any) */
static BloomStatus
decode_hashlist(const uint8_t *buf, size_t len, CuckooFilter *f)
{
	return bloom_decode_hashlist_any(buf, len, &f->hdr);
}

/* a state cuckoo_agg made: its rate is one a growing filter takes */
static BloomStatus
check_hashlist_rate(const CuckooFilter *f)
{
	return f->hdr.fpr < BLOOM_MIN_SCALABLE_FPR ? BLOOM_E_PARAMS : BLOOM_OK;
}

/*
 * A hash list's capacity is one a filter (of the default bucket size and
 * expansion) can have: cuckoo_agg checks it when it makes one; this costs
 * a few plans, too many for every read
 */
static BloomStatus
validate_hashlist_capacity(const CuckooFilter *f, const BloomCancel *c)
{
	(void) c;
	if (f->hdr.capacity > cuckoo_max_capacity(f->hdr.fpr, CUCKOO_DEFAULT_BUCKET,
											  CUCKOO_DEFAULT_EXPANSION))
		return BLOOM_E_PARAMS;
	return BLOOM_OK;
}

/*
 * The forms.  The first of a kind decodes every version of it (refusing
 * the versions no form has); the form of the version decoded then adds
 * its rules.
 */
static const CuckooForm cuckoo_forms[] = {
	{BLOOM_FORMAT_VERSION_3, BLOOM_KIND_CUCKOO, cuckoo_decode, NULL, cuckoo_validate_deep},
	{BLOOM_FORMAT_VERSION, BLOOM_KIND_HASHLIST, decode_hashlist, check_hashlist_rate, NULL},
	{BLOOM_FORMAT_VERSION_3, BLOOM_KIND_HASHLIST, decode_hashlist, check_hashlist_rate,
	validate_hashlist_capacity},
};

#define CUCKOO_NFORMS (sizeof(cuckoo_forms) / sizeof(cuckoo_forms[0]))

/* The form of the version and kind f decoded as (NULL: none) */
static const CuckooForm *
form_of(const CuckooFilter *f)
{
	for (size_t i = 0; i < CUCKOO_NFORMS; i++)
		if (cuckoo_forms[i].kind == f->hdr.kind && cuckoo_forms[i].version == f->hdr.version)
			return &cuckoo_forms[i];
	return NULL;
}

/*
 * Decodes a cuckoofilter value of len bytes into f by the forms of the
 * kind its header names.  The common header is checked first, so a value
 * with a bad header is refused for that whatever its kind.
 */
BloomStatus
cuckoo_value_decode(const uint8_t *buf, size_t len, CuckooFilter *f)
{
	uint64_t	w48,
				w56;
	const CuckooForm *form;
	BloomStatus st;

	if (len >= BLOOM_HEADER_SIZE)
		for (size_t i = 0; i < CUCKOO_NFORMS; i++)
			if (cuckoo_forms[i].kind == buf[5])
			{
				if ((st = cuckoo_forms[i].decode(buf, len, f)) != BLOOM_OK)
					return st;
				if ((form = form_of(f)) == NULL)
					return BLOOM_E_VERSION;
				return form->check != NULL ? form->check(f) : BLOOM_OK;
			}
	if ((st = bloom_decode_common(buf, len, &f->hdr, &w48, &w56)) != BLOOM_OK)
		return st;
	return f->hdr.kind >= 1 && f->hdr.kind <= BLOOM_KIND_WINDOWED ?
		BLOOM_E_OTHERTYPE : BLOOM_E_KIND;
}

/*
 * Decodes and validates outside bytes (text, binary, bytea): the decode
 * above, then the checks its form adds for them, which cost O(size) (a
 * filter's geometry against its plan, its slots against its counts) or a
 * few plans.  c, when given, is polled during those.
 */
BloomStatus
cuckoo_value_validate(const uint8_t *buf, size_t len, CuckooFilter *f,
					  const BloomCancel *c)
{
	BloomStatus st = cuckoo_value_decode(buf, len, f);
	const CuckooForm *form;

	if (st != BLOOM_OK)
		return st;
	form = form_of(f);
	return form->validate != NULL ? form->validate(f, c) : BLOOM_OK;
}
