/*-------------------------------------------------------------------------
 *
 * aggstate.c
 *		Aggregate states (kinds 2 and 3): making, validating and filling
 *		them.  materialize.c turns them into filters; distinct.c counts
 *		the distinct hashes of a hash list.
 *
 *-------------------------------------------------------------------------
 */
#include "aggstate.h"

#include <stdlib.h>

/* ---------------------------------------------------------------------
 * Hash lists (kind 2)
 * ---------------------------------------------------------------------
 */

size_t
bloom_hashlist_size(uint64_t nslots)
{
	return BLOOM_HEADER_SIZE + (size_t) nslots * 8;
}

/* Writes an empty hash list into buf (bloom_hashlist_size bytes). */
void
bloom_init_hashlist(uint8_t *buf, uint64_t nslots, uint64_t capacity,
					double fpr, uint64_t seed)
{
	BloomFilter f;

	bloom_header_init(&f, buf, BLOOM_KIND_HASHLIST, capacity, fpr, seed);
	f.nslots = nslots;
	bloom_write_header(&f);
	memset(buf + BLOOM_HEADER_SIZE, 0, (size_t) nslots * 8);
}

uint64_t
bloom_hashlist_get(const BloomFilter *f, uint64_t i)
{
	return bloom_get_le64(f->data + 8 * i);
}

void
bloom_hashlist_set(BloomFilter *f, uint64_t i, uint64_t h)
{
	bloom_put_le64(f->data + 8 * i, h);
}

/*
 * A new hash list of nslots slots holding f's fields and n hashes, which
 * the caller copies into its first n slots (the rest are zeroed here, not
 * the whole list: a state of millions of hashes grows by copying them)
 */
static BloomStatus
hashlist_copy(BloomFilter *f, uint64_t nslots, uint64_t n, const BloomAlloc *a)
{
	uint8_t    *buf;

	if (n > nslots)
		return BLOOM_E_COUNT;
	if ((buf = bloom_alloc_value(a, bloom_hashlist_size(nslots))) == NULL)
		return BLOOM_E_NOMEM;
	bloom_init_hashlist(buf, 0, 0, f->fpr, 0);	/* the header alone */
	memset(buf + BLOOM_HEADER_SIZE + 8 * n, 0, 8 * (nslots - n));
	f->base = buf;
	f->data = buf + BLOOM_HEADER_SIZE;
	f->nslots = nslots;
	f->nhashes = n;
	return BLOOM_OK;
}

/*
 * The slots the hash list f grows to for n more hashes: half as many again,
 * at least what they need, at least BLOOM_HASHLIST_MIN_SLOTS, at most
 * BLOOM_MAX_SLOTS.  0 when f's hashes and the n would pass limit (the most
 * a state holds: bloom_hashlist_append then removes repeats, or refuses).
 */
uint64_t
bloom_hashlist_grown_slots(const BloomFilter *f, uint64_t n, uint64_t limit)
{
	uint64_t	total = f->nhashes + n;
	uint64_t	nslots = f->nslots + f->nslots / 2;

	if (total > limit)
		return 0;
	if (nslots < total)
		nslots = total;
	if (nslots < BLOOM_HASHLIST_MIN_SLOTS)
		nslots = BLOOM_HASHLIST_MIN_SLOTS;
	if (nslots > BLOOM_MAX_SLOTS)
		nslots = BLOOM_MAX_SLOTS;
	return nslots;
}

/*
 * The hash list f now lives in buf, bloom_hashlist_size(nslots) bytes (at
 * least f's) that start with f's bytes (a larger copy, or the same memory
 * made larger in place by the caller's allocator): the new slots are
 * zeroed, the header says nslots.  f describes buf.
 */
void
bloom_hashlist_rebase(BloomFilter *f, uint8_t *buf, uint64_t nslots)
{
	uint64_t	old = f->nslots;

	f->base = buf;
	f->data = buf + BLOOM_HEADER_SIZE;
	f->nslots = nslots;
	if (nslots > old)
		memset(f->data + 8 * old, 0, 8 * (nslots - old));
	bloom_write_header(f);
}

/*
 * Appends n hashes (little-endian, at src) to the hash list f, in place
 * when it has room, else in a new state from a (f then describes it; the
 * old one is the caller's): a state grows by half.  When the hashes would
 * pass what the largest state or the largest filter at the state's rate
 * can hold, repeats are removed first, and if too many distinct hashes
 * remain that is BLOOM_E_CAPACITY with *distinct and *limit, raised while
 * the input is read rather than after it.  Writes the header back; the
 * count of items added (nitems) is the caller's to raise.
 */
BloomStatus
bloom_hashlist_append(BloomFilter *f, const uint8_t *src, uint64_t n,
					  BloomPlan *plan, const BloomAlloc *a,
					  uint64_t *distinct, uint64_t *limit)
{
	uint64_t	total = f->nhashes + n;
	uint64_t	nslots;
	uint8_t    *old = f->data;
	BloomPlan	local = {0};
	BloomStatus st;

	if (f->nslots - f->nhashes >= n)
	{
		memcpy(f->data + f->nhashes * 8, src, n * 8);
		f->nhashes = total;
		bloom_store_fill(f);
		return BLOOM_OK;
	}

	if (plan == NULL)
		plan = &local;
	if ((st = bloom_plan_reuse(f->fpr, plan)) != BLOOM_OK)
		return st;
	*limit = bloom_plan_max_capacity(plan);
	if (*limit > BLOOM_HASHLIST_MAX_HASHES)
		*limit = BLOOM_HASHLIST_MAX_HASHES;
	if (total > *limit)
	{
		/* gather, sort and remove repeats */
		uint64_t   *h = bloom_alloc_scratch(a, total * sizeof(uint64_t));

		if (h == NULL)
			return BLOOM_E_NOMEM;
		for (uint64_t i = 0; i < f->nhashes; i++)
			h[i] = bloom_hashlist_get(f, i);
		for (uint64_t i = 0; i < n; i++)
			h[f->nhashes + i] = bloom_get_le64(src + 8 * i);
		bloom_sort_u64(h, total, bloom_alloc_cancel(a));
		total = bloom_unique_u64(h, total);
		*distinct = total;
		if (total > *limit)
		{
			bloom_free_scratch(a, h);
			return BLOOM_E_CAPACITY;
		}
		nslots = total + total / 2;
		if (nslots > BLOOM_MAX_SLOTS)
			nslots = BLOOM_MAX_SLOTS;
		if ((st = hashlist_copy(f, nslots, total, a)) == BLOOM_OK)
			for (uint64_t i = 0; i < total; i++)
				bloom_hashlist_set(f, i, h[i]);
		bloom_free_scratch(a, h);
		if (st != BLOOM_OK)
			return st;
	}
	else
	{
		uint64_t	held = f->nhashes;

		nslots = bloom_hashlist_grown_slots(f, n, *limit);
		if ((st = hashlist_copy(f, nslots, total, a)) != BLOOM_OK)
			return st;
		memcpy(f->data, old, held * 8);
		memcpy(f->data + held * 8, src, n * 8);
	}
	bloom_write_header(f);
	return BLOOM_OK;
}

/*
 * Version 1 only, no flags; no bits: no k or block size, no capacity.
 * Reads the header and the length only: bloom_agg's transition memo
 * (bt_state_recall) relies on it.
 */
static BloomStatus
hashlist_decode(const uint8_t *buf, size_t len, BloomFilter *f)
{
	(void) buf;
	if (f->version != BLOOM_FORMAT_VERSION || f->flags != 0)
		return BLOOM_E_FLAGS;
	if (!bloom_fpr_valid(f->fpr))
		return BLOOM_E_PARAMS;
	if (f->k != 0 || f->block_log2 != 0 || f->nslots > BLOOM_MAX_SLOTS)
		return BLOOM_E_GEOMETRY;
	if (f->capacity != 0)
		return BLOOM_E_PARAMS;
	if (f->nhashes > f->nslots || f->nitems < f->nhashes)
		return BLOOM_E_COUNT;
	if (len != bloom_hashlist_size(f->nslots))
		return BLOOM_E_LENGTH;
	return BLOOM_OK;
}

/*
 * A hash list as the counting and cuckoo types keep it: version 1 as
 * bloomfilter's (capacity 0), or version 3, which also carries the
 * capacity of the filter it will become (at least 1).
 */
BloomStatus
bloom_decode_hashlist_any(const uint8_t *buf, size_t len, BloomFilter *f)
{
	uint64_t	w48,
				w56,
				capacity;
	BloomStatus st = bloom_decode_common(buf, len, f, &w48, &w56);

	if (st != BLOOM_OK)
		return st;
	if (f->kind != BLOOM_KIND_HASHLIST)
		return BLOOM_E_KIND;
	if (f->version == BLOOM_FORMAT_VERSION)
		return hashlist_decode(buf, len, f);
	if (f->version != BLOOM_FORMAT_VERSION_3)
		return BLOOM_E_VERSION;
	if (f->capacity < 1)
		return BLOOM_E_PARAMS;
	capacity = f->capacity;
	f->version = BLOOM_FORMAT_VERSION;
	f->capacity = 0;
	st = hashlist_decode(buf, len, f);
	f->version = BLOOM_FORMAT_VERSION_3;
	f->capacity = capacity;
	return st;
}

/*
 * Keeps at most maxcopies copies of each hash of the hash list f, sorted,
 * in place (the counting and cuckoo types count copies, but no filter
 * holds more than that many of one key: a counter saturates, a cuckoo
 * class is capped).  Writes the header; the count of items stays.
 */
BloomStatus
bloom_hashlist_trim(BloomFilter *f, unsigned maxcopies, const BloomAlloc *a)
{
	uint64_t	n = f->nhashes,
				m = 0;
	uint64_t   *h = bloom_alloc_scratch(a, (n > 0 ? n : 1) * sizeof(uint64_t));

	if (h == NULL)
		return BLOOM_E_NOMEM;
	for (uint64_t i = 0; i < n; i++)
		h[i] = bloom_hashlist_get(f, i);
	bloom_sort_u64(h, n, bloom_alloc_cancel(a));
	for (uint64_t i = 0, run = 0; i < n; i++)
	{
		run = (i > 0 && h[i] == h[i - 1]) ? run + 1 : 0;
		if (run < maxcopies)
			bloom_hashlist_set(f, m++, h[i]);
	}
	bloom_free_scratch(a, h);
	f->nhashes = m;
	bloom_write_header(f);
	return BLOOM_OK;
}

static size_t
hashlist_value_size(const BloomFilter *f)
{
	return bloom_hashlist_size(f->nslots);
}

const BloomOps bloom_hashlist_ops = {
	.name = "hash list",
	.decode = hashlist_decode,
	.size = hashlist_value_size,
};

/* ---------------------------------------------------------------------
 * Buffered filters (kind 3)
 * ---------------------------------------------------------------------
 */

size_t
bloom_buffered_size(uint64_t nblocks)
{
	return bloom_blocked_size(nblocks) + BLOOM_PENDING_SLOTS * 8;
}

/*
 * Writes an empty blocked filter with room for pending hashes into buf
 * (bloom_buffered_size bytes).
 */
void
bloom_init_buffered(uint8_t *buf, uint64_t nblocks, int k, uint64_t capacity,
					double fpr, uint64_t seed)
{
	BloomFilter f;

	bloom_header_init(&f, buf, BLOOM_KIND_BUFFERED, capacity, fpr, seed);
	f.k = (uint8_t) k;
	f.block_log2 = BLOOM_BLOCK_LOG2;
	f.nblocks = nblocks;
	bloom_write_header(&f);
	memset(buf + BLOOM_HEADER_SIZE, 0, bloom_buffered_size(nblocks) - BLOOM_HEADER_SIZE);
}

/*
 * The state of bloom_agg(key, capacity, fpr), decoded into out, in memory
 * from a.  Version 1.0's (layer false) is planned for fpr; the largest
 * filters, whose pending area would not fit, are made unbuffered (kind 1).
 * Version 1.2's (layer) is planned as the first layer of a scalable filter
 * (the header keeps the target rate and says so in its flags), and
 * BLOOM_E_CAPACITY when it would not fit buffered.
 */
BloomStatus
bloom_new_buffered(uint64_t capacity, double fpr, bool layer, BloomPlan *plan,
				   const BloomAlloc *a, BloomFilter *out)
{
	BloomPlan	local = {0};
	uint64_t	nblocks;
	uint8_t    *buf;
	BloomStatus st;

	if (plan == NULL)
		plan = &local;
	if (capacity == 0 || (layer && !bloom_scalable_fpr_valid(fpr)) ||
		bloom_plan_reuse(layer ? bloom_layer_fpr(fpr, 0) : fpr, plan) != BLOOM_OK)
		return BLOOM_E_PARAMS;
	if ((st = bloom_plan_size(plan, capacity, &nblocks)) != BLOOM_OK)
		return st;
	if (nblocks > BLOOM_MAX_BUFFERED_BLOCKS)
	{
		if (layer)
			return BLOOM_E_CAPACITY;
		return bloom_new_blocked(capacity, fpr, 0, plan, a, out);
	}
	if ((buf = bloom_alloc_value(a, bloom_buffered_size(nblocks))) == NULL)
		return BLOOM_E_NOMEM;
	bloom_init_buffered(buf, nblocks, plan->k, capacity, fpr, 0);
	if ((st = bloom_decode(buf, bloom_buffered_size(nblocks), out)) == BLOOM_OK && layer)
	{
		bloom_set_flag(out, BLOOM_FLAG_SCALABLE_STATE);
		st = bloom_decode(buf, bloom_buffered_size(nblocks), out);
	}
	return st;
}

/*
 * Inserts a buffered filter's pending hashes into its bits and empties the
 * list; the header is written back.
 */
void
bloom_flush_pending(BloomFilter *f)
{
	bloom_insert_many(f, bloom_pending(f), f->npending, NULL);	/* 256 at most */
	f->npending = 0;
	bloom_store_fill(f);
}

/*
 * Version 1: no flags; version 2: planned as a scalable filter's first
 * layer (SCALABLE_STATE), whose rate a scalable filter must be able to
 * have.
 * Reads the header and the length only: bloom_agg's transition memo
 * (bt_state_recall) relies on it.
 */
static BloomStatus
buffered_decode(const uint8_t *buf, size_t len, BloomFilter *f)
{
	BloomStatus st;

	(void) buf;
	if ((st = bloom_validate_bits(f, BLOOM_FLAG_SCALABLE_STATE)) != BLOOM_OK)
		return st;
	if (f->nblocks > BLOOM_MAX_BUFFERED_BLOCKS)
		return BLOOM_E_GEOMETRY;
	if (f->npending > BLOOM_PENDING_SLOTS || f->nitems < f->npending)
		return BLOOM_E_COUNT;
	return bloom_validate_fill(f, len, bloom_buffered_size(f->nblocks));
}

static size_t
buffered_value_size(const BloomFilter *f)
{
	return bloom_buffered_size(f->nblocks);
}

/*
 * Combines the partial state b (kind 1, 3 or 7, compatible) into a: the
 * bits unite, and b's pending hashes (a light b's hashes) join a's.  Union
 * only: intersection reads materialised filters.
 */
static BloomStatus
buffered_merge(BloomFilter *a, const BloomFilter *b, bool intersect,
			   const BloomAlloc *al)
{
	BloomStatus st;

	if (intersect)
		return BLOOM_E_KIND;
	if (b->kind == BLOOM_KIND_SPARSE)
	{
		/* a light state's hashes, which it counted */
		bloom_adopt_key_class(a, b);
		for (uint64_t i = 0; i < b->nhashes; i++)
		{
			bloom_cancel_point(bloom_alloc_cancel(al), i);
			bloom_buffered_push(a, bloom_get_le64(b->data + 8 * i));
		}
		a->nitems = bloom_sat_add(a->nitems, b->nitems);
		bloom_write_header(a);
		return BLOOM_OK;
	}
	if ((st = bloom_blocked_ops.merge(a, b, false, al)) != BLOOM_OK)
		return st;
	if (b->kind == BLOOM_KIND_BUFFERED)
		for (uint64_t i = 0; i < b->npending; i++)
			bloom_buffered_push(a, bloom_get_le64(bloom_pending(b) + 8 * i));
	return BLOOM_OK;
}

const BloomOps bloom_buffered_ops = {
	.name = "buffered",
	.decode = buffered_decode,
	.size = buffered_value_size,
	.merge = buffered_merge,
};

/* ---------------------------------------------------------------------
 * Canonical bytes
 *
 * Two states that stand for the same thing can differ in bytes that are
 * not part of the value: a hash list's unused slots, a buffered state's
 * unused pending slots.  The canonical bytes leave them out (or zero), so
 * that output, equality and hashing see one form.
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
