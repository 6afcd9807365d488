/*-------------------------------------------------------------------------
 *
 * cuckoo_list.c
 *		The cuckoo filter a hash list with a capacity stands for
 *		(cuckoo_agg(key, capacity, fpr)'s state, kind 2 of format version
 *		3), simulated over the buckets its fingerprints reach, so that
 *		reading the list costs what it holds and not the filter of its
 *		capacity.
 *
 * The filter a list stands for is cuckoo_from_hashlist's: an empty filter
 * of the list's capacity with cuckoo_empty's defaults, each hash added in
 * sorted order.  Where its fingerprints end depends on the kicks, and a
 * kick can fail and grow a sub-filter, so the answers cannot in general be
 * read off the hashes alone.  Instead the same adds run over a table of
 * the non-empty buckets (CkTable, cuckoo.h): ck_get and ck_put read and
 * write the table, ck_grow adds a sub-filter to it, and everything else is
 * cuckoo.c's own code, so the table holds, bucket for bucket, the
 * fingerprints of the filter.  A bucket is taken only to store a
 * fingerprint, so the table needs at most one entry a hash; it has 2 to 4
 * entries a hash (at most half full), of 8 + 8 b bytes: memory is
 * proportional to the list (80 to 160 bytes a hash at b = 4, against the
 * list's 8), time to the list and its kicks, whatever the capacity.
 *
 * A probe keeps the simulation as one flat block (cuckoo_sim_flatten) that
 * the per-call cache can copy: a private magic, the filter's struct and
 * the table's arrays, its pointers bound again after a copy.
 *
 *-------------------------------------------------------------------------
 */
#include "cuckoo_impl.h"
#include "hashlist.h"

/* Marks a flat simulation: never the first bytes of a value (magic BLMF) */
static const uint8_t sim_magic[8] = {'C', 'F', 'S', 'I', 'M', '0', '0', '1'};

/* The table's entries for n hashes: a power of two, at least 2n */
static uint64_t
table_entries(uint64_t n)
{
	uint64_t	e = 16;

	while (e < 2 * n)
		e <<= 1;
	return e;
}

/*
 * Simulates the filter the hash list st (a capacity, at a rate a growing
 * filter takes) stands for into out, its buckets in t (arrays from a's
 * scratch, cuckoo_list_free's to free).  salt is mixed into the table's
 * keys: the answers do not depend on it, but where entries sit does, so
 * that a list whose hashes were chosen to fill one run of the table
 * cannot make every walk long (give an unpredictable one; tests may give
 * any).  BLOOM_E_FULL or BLOOM_E_CAPACITY
 * when that filter cannot hold the list (cuckoo_from_hashlist fails the
 * same way), BLOOM_E_NOMEM: then nothing is left to free.
 */
BloomStatus
cuckoo_list_simulate(const BloomFilter *st, const BloomAlloc *a, CuckooFilter *out,
					 CkTable *t, uint64_t salt)
{
	uint64_t	n = st->nhashes;
	uint64_t	entries = table_entries(n);
	uint64_t   *h;
	BloomStatus s = BLOOM_OK;

	memset(t, 0, sizeof(*t));
	memset(out, 0, sizeof(*out));
	t->mask = entries - 1;
	t->salt = salt;
	t->b = CUCKOO_DEFAULT_BUCKET;
	t->keys = bloom_alloc_scratch(a, entries * sizeof(uint64_t));
	t->slots = t->keys ? bloom_alloc_scratch(a, entries * t->b * sizeof(uint64_t)) : NULL;
	h = t->slots ? bloom_alloc_scratch(a, (n > 0 ? n : 1) * sizeof(uint64_t)) : NULL;
	if (h == NULL)
		s = BLOOM_E_NOMEM;
	else
	{
		memset(t->keys, 0, entries * sizeof(uint64_t));
		memset(t->slots, 0, entries * t->b * sizeof(uint64_t));
		for (uint64_t i = 0; i < n; i++)
			h[i] = bloom_hashlist_get(st, i);
		bloom_sort_u64(h, n, bloom_alloc_cancel(a));
		s = ck_new_simulated(st->capacity, st->fpr, CUCKOO_DEFAULT_BUCKET,
							 CUCKOO_DEFAULT_KICKS, CUCKOO_DEFAULT_EXPANSION, t, a, out);
		for (uint64_t i = 0; i < n && s == BLOOM_OK; i++)
		{
			CuckooAdded what;

			/* an add walks the table and may kick: check every 1,024 */
			bloom_cancel_point(bloom_alloc_cancel(a), i << 6);
			s = cuckoo_add(out, h[i], false, a, &what);
		}
		bloom_free_scratch(a, h);
	}
	if (s != BLOOM_OK)
	{
		/* nothing is left for the caller to free */
		if (t->slots != NULL)
			bloom_free_scratch(a, t->slots);
		if (t->keys != NULL)
			bloom_free_scratch(a, t->keys);
		if (out->hdr.base != NULL)
			bloom_free_scratch(a, out->hdr.base);
		memset(t, 0, sizeof(*t));
		memset(out, 0, sizeof(*out));
		return s;
	}
	cuckoo_adopt_list(out, st);
	return BLOOM_OK;
}

/*
 * Whether the filter the hash list st (with a capacity) stands for is
 * cheaper to build than to simulate: its value's bytes against the
 * simulation's table (cuckoo_list_simulate: 2 to 4 entries a hash of 8 + 8
 * b bytes) and sorted hashes.  The answers are the same either way
 * (bucket for bucket); a list read the cheaper way costs at most what the
 * simulation does, and no more than the filter when that is smaller (a
 * list of 2M hashes for a capacity of 10M: a 15 MB filter against a 170
 * MB table).  False when the capacity cannot be planned (the simulation
 * reports it).
 */
bool
cuckoo_list_build_cheaper(const BloomFilter *st)
{
	CuckooFilter plan;
	uint64_t	n = st->nhashes;
	double		sim = (double) table_entries(n) * (8.0 + 8.0 * CUCKOO_DEFAULT_BUCKET) +
		8.0 * (double) n;

	if (ck_init_first(st->capacity, st->fpr, CUCKOO_DEFAULT_BUCKET, CUCKOO_DEFAULT_KICKS,
					  CUCKOO_DEFAULT_EXPANSION, &plan) != BLOOM_OK)
		return false;
	return (double) cuckoo_value_size(&plan) <= sim;
}

/* Frees what cuckoo_list_simulate took (f's header, its table's arrays) */
void
cuckoo_list_free(CuckooFilter *f, const BloomAlloc *a)
{
	CkTable    *t = f->subs[0].table;

	if (t != NULL)
	{
		bloom_free_scratch(a, t->keys);
		bloom_free_scratch(a, t->slots);
	}
	if (f->hdr.base != NULL)
		bloom_free_scratch(a, f->hdr.base);
	f->hdr.base = NULL;
}

/* Bytes of f's flat form; *head: where its arrays start (8-aligned) */
size_t
cuckoo_sim_size(const CuckooFilter *f, size_t *head)
{
	const CkTable *t = f->subs[0].table;

	*head = (sizeof(sim_magic) + sizeof(CuckooFilter) + sizeof(CkTable) + 7) & ~(size_t) 7;
	return *head + (t->mask + 1) * (1 + t->b) * sizeof(uint64_t);
}

/* Writes f (simulated) flat into buf (cuckoo_sim_size bytes) */
void
cuckoo_sim_flatten(const CuckooFilter *f, uint8_t *buf)
{
	const CkTable *t = f->subs[0].table;
	size_t		head;
	size_t		size = cuckoo_sim_size(f, &head);
	uint64_t	entries = t->mask + 1;

	memset(buf, 0, head);
	memcpy(buf, sim_magic, sizeof(sim_magic));
	memcpy(buf + sizeof(sim_magic), f, sizeof(CuckooFilter));
	memcpy(buf + sizeof(sim_magic) + sizeof(CuckooFilter), t, sizeof(CkTable));
	memcpy(buf + head, t->keys, entries * sizeof(uint64_t));
	memcpy(buf + head + entries * sizeof(uint64_t), t->slots,
		   size - head - entries * sizeof(uint64_t));
}

bool
cuckoo_sim_is_flat(const uint8_t *buf, size_t len)
{
	return len >= sizeof(sim_magic) && memcmp(buf, sim_magic, sizeof(sim_magic)) == 0;
}

/*
 * Binds f and t to the flat form in buf (cuckoo_sim_flatten's, or a copy
 * of it; buf + head 8-aligned): f answers lookups and cuckoo_describe from
 * it, and is never added to
 */
BloomStatus
cuckoo_sim_bind(uint8_t *buf, size_t len, CuckooFilter *f, CkTable *t)
{
	size_t		head = (sizeof(sim_magic) + sizeof(CuckooFilter) + sizeof(CkTable) + 7) & ~(size_t) 7;
	uint64_t	entries;

	if (!cuckoo_sim_is_flat(buf, len) || len < head)
		return BLOOM_E_LENGTH;
	memcpy(f, buf + sizeof(sim_magic), sizeof(CuckooFilter));
	memcpy(t, buf + sizeof(sim_magic) + sizeof(CuckooFilter), sizeof(CkTable));
	entries = t->mask + 1;
	if (f->nsubs < 1 || f->nsubs > CUCKOO_MAX_SUBS || t->b != f->b ||
		(entries & t->mask) != 0 || len != head + entries * (1 + t->b) * sizeof(uint64_t))
		return BLOOM_E_LENGTH;
	t->keys = (uint64_t *) (buf + head);
	t->slots = t->keys + entries;
	for (unsigned i = 0; i < f->nsubs; i++)
		f->subs[i].table = t;
	f->hdr.base = NULL;
	f->hdr.data = NULL;
	return BLOOM_OK;
}
