/*-------------------------------------------------------------------------
 *
 * hashlist.c
 *		Lists of hashes that every family's aggregates keep: hash lists
 *		(kind 2) made, grown, validated and trimmed, and the slots of the
 *		light states (kinds 7 and 8) written and grown.  distinct.c sorts
 *		and counts the distinct hashes of a list.
 *
 *-------------------------------------------------------------------------
 */
#include "hashlist.h"

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
	.kind = BLOOM_KIND_HASHLIST,
	.decode = hashlist_decode,
	.size = hashlist_value_size,
};

/* ---------------------------------------------------------------------
 * The slots of light states (kinds 7 and 8)
 *
 * A light state is the header of the state it stands for (kind 7:
 * bloomfilter's buffered state; kind 8: a counting filter) and hashes in
 * slots, as a hash list's.  Each family's module decides what its state
 * becomes past its limit (aggstate.h, counting.h); the slots are written
 * and grown here, alike.
 * ---------------------------------------------------------------------
 */

size_t
bloom_sparse_size(uint64_t nslots)
{
	return BLOOM_HEADER_SIZE + 8 * nslots;
}

/*
 * Writes a light state (f's kind, 7 or 8) with nslots slots and the
 * fields of f into buf, decoded into out
 */
void
bloom_sparse_write(uint8_t *buf, const BloomFilter *f, uint64_t nslots, BloomFilter *out)
{
	*out = *f;
	out->version = BLOOM_FORMAT_VERSION_4;
	out->npending = 0;
	out->nslots = nslots;
	out->base = buf;
	out->data = buf + BLOOM_HEADER_SIZE;
	bloom_write_header(out);
}

/*
 * Appends n hashes (little-endian, at src) to the light state f (kind 7 or
 * 8), which holds at most limit hashes (its kind says how many): in place
 * when they fit, else into a copy with half as many slots again (or as
 * many as needed, at most limit), a new value from a (f then describes it;
 * the old one is the caller's).  BLOOM_E_FULL, and nothing done, when the
 * hashes would pass limit: the caller's kind then makes f the state it
 * stands for.  The caller counts the rows.
 */
BloomStatus
bloom_slots_append(BloomFilter *f, const uint8_t *src, uint64_t n, uint64_t limit,
				   const BloomAlloc *a)
{
	uint64_t	want,
				nslots;
	uint8_t    *buf;
	BloomFilter g;

	if (n <= f->nslots - f->nhashes)
	{
		memcpy(f->data + 8 * f->nhashes, src, 8 * n);
		f->nhashes += n;
		bloom_store_fill(f);
		return BLOOM_OK;
	}
	if (n > limit - f->nhashes)
		return BLOOM_E_FULL;
	want = f->nhashes + n;
	nslots = f->nslots + f->nslots / 2;
	if (nslots < want)
		nslots = want;
	if (nslots < BLOOM_HASHLIST_MIN_SLOTS)
		nslots = BLOOM_HASHLIST_MIN_SLOTS;
	if (nslots > limit)
		nslots = limit;
	if ((buf = bloom_alloc_value(a, bloom_sparse_size(nslots))) == NULL)
		return BLOOM_E_NOMEM;
	memcpy(buf + BLOOM_HEADER_SIZE, f->data, 8 * f->nhashes);
	memcpy(buf + BLOOM_HEADER_SIZE + 8 * f->nhashes, src, 8 * n);
	memset(buf + BLOOM_HEADER_SIZE + 8 * want, 0, 8 * (nslots - want));
	g = *f;
	g.nhashes = want;
	bloom_sparse_write(buf, &g, nslots, f);
	return BLOOM_OK;
}
