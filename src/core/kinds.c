/*-------------------------------------------------------------------------
 *
 * kinds.c
 *		The registry of bloomfilter's kinds, and the operations that
 *		dispatch on a value's kind, for any family (kinds.h).
 *
 * The top of the core: it includes every family's module, and none of
 * them includes it.
 *
 *-------------------------------------------------------------------------
 */
#include "kinds.h"
#include "aggstate.h"
#include "counting.h"
#include "windowed.h"

/* The registry: one operations table per kind, indexed by kind */
static const BloomOps *const kind_ops[BLOOM_KIND_WINDOWED + 1] = {
	[BLOOM_KIND_BLOCKED] = &bloom_blocked_ops,
	[BLOOM_KIND_HASHLIST] = &bloom_hashlist_ops,
	[BLOOM_KIND_BUFFERED] = &bloom_buffered_ops,
	[BLOOM_KIND_SCALABLE] = &bloom_scalable_ops,
	/* kinds 5 and 6 are other types' */
	[BLOOM_KIND_SPARSE] = &bloom_sparse_ops,
	/* kind 8 is countingbloom's */
	[BLOOM_KIND_WINDOWED] = &bloom_windowed_ops,
};

/*
 * Static, so that the calls in this file are inlined (in a shared library
 * an exported function called from its own file is not: decode runs once
 * per aggregated row).
 */
static inline const BloomOps *
ops_of(uint8_t kind)
{
	return kind <= BLOOM_KIND_WINDOWED ? kind_ops[kind] : NULL;
}

const BloomOps *
bloom_kind_ops(uint8_t kind)
{
	return ops_of(kind);
}

/*
 * Decodes and validates a value of len bytes of any of bloomfilter's
 * kinds: bloom_decode_with (format.h) with the operations of the kind its
 * header names at offset 5 (a value shorter than a header is refused
 * there before any kind is looked at).
 */
BloomStatus
bloom_decode(const uint8_t *buf, size_t len, BloomFilter *f)
{
	return bloom_decode_with(buf, len, f, len >= BLOOM_HEADER_SIZE ? ops_of(buf[5]) : NULL);
}

size_t
bloom_value_size(const BloomFilter *f)
{
	return ops_of(f->kind)->size(f);
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

/*
 * Appends n hashes (little-endian, at src) to the light state f, of
 * bloom_agg (kind 7: bloom_sparse_append) or of counting_agg (kind 8:
 * counting_sparse_append), for the glue the aggregates share: in place, in
 * a larger copy, or past its limit into the dense state it becomes.  f may
 * move to a new value from a (the old one is the caller's).  The caller
 * counts the rows.
 */
BloomStatus
bloom_light_append(BloomFilter *f, const uint8_t *src, uint64_t n, const BloomAlloc *a)
{
	if (f->kind == BLOOM_KIND_SPARSE_COUNTING)
		return counting_sparse_append(f, src, n, a);
	return bloom_sparse_append(f, src, n, a);
}

/* ---------------------------------------------------------------------
 * Canonical bytes
 *
 * Two states that stand for the same thing can differ in bytes that are
 * not part of the value: a hash list's or a light state's unused slots, a
 * buffered state's unused pending slots.  The canonical bytes leave them
 * out (or zero), so that output, equality and hashing see one form.  Every
 * family's aggregate states have them: the kinds 2 of the three types,
 * bloomfilter's 3 and 7, countingbloom's 8.
 * ---------------------------------------------------------------------
 */

bool
bloom_is_canonical(const BloomFilter *f)
{
	if (f->kind == BLOOM_KIND_BUFFERED)
	{
		const uint8_t *p = bloom_pending(f) + 8 * f->npending;
		size_t		rest = 8 * (BLOOM_PENDING_SLOTS - f->npending);

		for (size_t i = 0; i < rest; i++)
			if (p[i] != 0)
				return false;
		return true;
	}
	if (f->kind == BLOOM_KIND_HASHLIST || f->kind == BLOOM_KIND_SPARSE ||
		f->kind == BLOOM_KIND_SPARSE_COUNTING)
		return f->nhashes == f->nslots;
	return true;
}

size_t
bloom_canonical_size(const BloomFilter *f)
{
	if (f->kind == BLOOM_KIND_HASHLIST)
		return bloom_hashlist_size(f->nhashes);
	if (f->kind == BLOOM_KIND_SPARSE || f->kind == BLOOM_KIND_SPARSE_COUNTING)
		return bloom_sparse_size(f->nhashes);	/* slots are the length's */
	return bloom_value_size(f);
}

/* Writes the canonical bytes of f into out (bloom_canonical_size bytes) */
void
bloom_canonical_write(const BloomFilter *f, uint8_t *out)
{
	memcpy(out, f->base, bloom_canonical_size(f));
	if (f->kind == BLOOM_KIND_BUFFERED)
		memset(out + (bloom_pending(f) - f->base) + 8 * f->npending, 0,
			   8 * (BLOOM_PENDING_SLOTS - f->npending));
	else if (f->kind == BLOOM_KIND_HASHLIST)
	{
		BloomFilter c = *f;

		c.base = out;
		c.data = out + BLOOM_HEADER_SIZE;
		c.nslots = c.nhashes;
		bloom_write_header(&c);
	}
}
