/*-------------------------------------------------------------------------
 *
 * cuckoo.c
 *		The cuckoo filter's operations: add (with kicks, rolled back when
 *		they fail, then growth), contains, count, remove, compaction,
 *		union, and the filter an aggregate's hash list stands for.
 *
 * Kicks follow a random walk (Fan et al. 2014, section 3.1: a victim slot
 * chosen at random in a full bucket moves to its alternate bucket); the
 * random numbers come from the key's hash, so that the result depends
 * only on the inputs (the SQL functions are IMMUTABLE, and no state is
 * kept between calls).
 *
 *-------------------------------------------------------------------------
 */
#include "cuckoo_impl.h"
#include "hashlist.h"

/* Kicks whose path is kept on the stack; longer walks use scratch memory */
#define CK_STACK_PATH	512
/* compaction and union check for a cancel every 4096 buckets (mask) */
#define CUCKOO_CANCEL_BUCKETS	4095

typedef struct CkStep
{
	uint64_t	bucket;
	uint64_t	old;
	unsigned	slot;
} CkStep;

/* xorshift64* (Vigna 2016) */
static inline uint64_t
ck_rand(uint64_t *state)
{
	uint64_t	x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * UINT64_C(0x2545F4914F6CDD1D);
}

/* The form in sub-filter 0 of a fingerprint of sub-filter i */
static inline uint64_t
ck_v0(const CuckooFilter *f, uint64_t v)
{
	return ck_fp(v, f->subs[0].fbits);
}

/* Outcome of placing one fingerprint in a sub-filter */
typedef enum CkPlaced
{
	CK_PLACED,
	CK_CAPPED,					/* its class holds the most copies */
	CK_NO_ROOM,					/* the walk failed; nothing changed */
	CK_NOMEM
} CkPlaced;

/*
 * Places fingerprint v in sub-filter s at its pair (B1 and its alternate):
 * a free slot, else a random walk of at most max_kicks kicks (kicks false:
 * none), undone when it fails.
 */
static CkPlaced
ck_place(CuckooFilter *f, CuckooSub *s, uint64_t B1, uint64_t v, uint64_t rng,
		 bool kicks, const BloomAlloc *a)
{
	unsigned	b = f->b;
	uint64_t	B2 = ck_alt(f, s, B1, ck_v0(f, v));
	CkStep		local[CK_STACK_PATH];
	CkStep	   *path = local;
	uint64_t	cur = v,
				B;
	unsigned	n;
	int			j;

	if (ck_copies(s, b, B1, B2, v) >= cuckoo_cap(b))
		return CK_CAPPED;
	if ((j = ck_free_slot(s, b, B1)) >= 0)
	{
		ck_put(s, b, B1, (unsigned) j, v);
		return CK_PLACED;
	}
	if ((j = ck_free_slot(s, b, B2)) >= 0)
	{
		ck_put(s, b, B2, (unsigned) j, v);
		return CK_PLACED;
	}
	if (!kicks)
		return CK_NO_ROOM;
	if (f->max_kicks > CK_STACK_PATH &&
		(path = bloom_alloc_scratch(a, f->max_kicks * sizeof(CkStep))) == NULL)
		return CK_NOMEM;
	rng = rng ^ (v * CK_ADD_G) ^ B1;
	if (rng == 0)
		rng = CK_ADD_G;
	B = (ck_rand(&rng) & 1) ? B2 : B1;
	for (n = 0; n < f->max_kicks; n++)
	{
		unsigned	victim = (unsigned) (ck_rand(&rng) % b);

		/* up to 65,535 kicks a key: a walk can be cancelled */
		if ((n & 4095) == 4095)
			bloom_cancel_check(bloom_alloc_cancel(a));

		path[n].bucket = B;
		path[n].slot = victim;
		path[n].old = ck_get(s, b, B, victim);
		ck_put(s, b, B, victim, cur);
		cur = path[n].old;
		B = ck_alt(f, s, B, ck_v0(f, cur));
		if ((j = ck_free_slot(s, b, B)) >= 0)
		{
			ck_put(s, b, B, (unsigned) j, cur);
			if (path != local)
				bloom_free_scratch(a, path);
			return CK_PLACED;
		}
	}
	while (n-- > 0)
		ck_put(s, b, path[n].bucket, path[n].slot, path[n].old);
	if (path != local)
		bloom_free_scratch(a, path);
	return CK_NO_ROOM;
}

/* Where hash h is in sub-filter i: its fingerprint and primary bucket */
static inline void
ck_locate(const CuckooFilter *f, unsigned i, uint64_t h, uint64_t *v, uint64_t *B1)
{
	*v = ck_fp(ck_mix(h), f->subs[i].fbits);
	*B1 = ck_primary(f, &f->subs[i], h);
}

/* Copies of h's fingerprint at its pair in sub-filter i */
static inline unsigned
ck_key_copies(const CuckooFilter *f, unsigned i, uint64_t h, uint64_t *B1, uint64_t *B2,
			  uint64_t *v)
{
	const CuckooSub *s = &f->subs[i];

	ck_locate(f, i, h, v, B1);
	*B2 = ck_alt(f, s, *B1, ck_v0(f, *v));
	return ck_copies(s, f->b, *B1, *B2, *v);
}

bool
cuckoo_contains(const CuckooFilter *f, uint64_t h)
{
	for (unsigned i = 0; i < f->nsubs; i++)
	{
		uint64_t	B1,
					B2,
					v;

		if (ck_key_copies(f, i, h, &B1, &B2, &v) > 0)
			return true;
	}
	return false;
}

/* CF.COUNT: the copies held over every sub-filter (absorbed ones are not) */
unsigned
cuckoo_count(const CuckooFilter *f, uint64_t h)
{
	unsigned	n = 0;

	for (unsigned i = 0; i < f->nsubs; i++)
	{
		uint64_t	B1,
					B2,
					v;

		n += ck_key_copies(f, i, h, &B1, &B2, &v);
	}
	return n;
}

/*
 * Adds a copy of h (CF.ADD; only_new: CF.ADDNX) to the sub-filter that
 * holds its copies, or the newest; when it has no room, a new sub-filter
 * takes it (f moves to a new value
 * from a: compare f->hdr.base before and after), or, for a fixed filter,
 * BLOOM_E_FULL with f unchanged.
 */
BloomStatus
cuckoo_add(CuckooFilter *f, uint64_t h, bool only_new, const BloomAlloc *a,
		   CuckooAdded *what)
{
	unsigned	i = f->nsubs - 1;
	unsigned	matches = 0,
				which = 0;
	uint64_t	v,
				B1,
				B2;
	CkPlaced	r = CK_NO_ROOM;
	BloomStatus st;

	/* one sub-filter: it is the newest, and only CF.ADDNX needs to look */
	if (f->nsubs > 1 || only_new)
		for (unsigned j = 0; j < f->nsubs; j++)
			if (ck_key_copies(f, j, h, &B1, &B2, &v) > 0)
			{
				matches++;
				which = j;
			}
	if (only_new && matches > 0)
	{
		*what = CUCKOO_PRESENT;
		return BLOOM_OK;
	}

	/*
	 * A key held in one sub-filter gets its copy there, so that its copies
	 * stay together and a remove can take one back; else the newest takes
	 * it.
	 */
	if (matches == 1 && which != i)
	{
		ck_locate(f, which, h, &v, &B1);
		r = ck_place(f, &f->subs[which], B1, v, h, true, a);
		if (r == CK_NOMEM)
			return BLOOM_E_NOMEM;
		if (r != CK_NO_ROOM)
			i = which;
	}
	if (r == CK_NO_ROOM)
	{
		ck_locate(f, i, h, &v, &B1);
		r = ck_place(f, &f->subs[i], B1, v, h, true, a);
	}
	if (r == CK_NOMEM)
		return BLOOM_E_NOMEM;
	if (r == CK_NO_ROOM)
	{
		if ((st = ck_grow(f, a)) != BLOOM_OK)
			return st;
		i = f->nsubs - 1;
		ck_locate(f, i, h, &v, &B1);
		r = ck_place(f, &f->subs[i], B1, v, h, true, a);
		if (r != CK_PLACED)
			return r == CK_NOMEM ? BLOOM_E_NOMEM : BLOOM_E_FULL;
	}
	/* the counts that changed (a new sub-filter's header is written) */
	if (r == CK_CAPPED)
	{
		f->absorbed = bloom_sat_add(f->absorbed, 1);
		bloom_put_le64(f->hdr.base + 72, f->absorbed);
		*what = CUCKOO_ABSORBED;
	}
	else
	{
		f->subs[i].nitems++;
		f->hdr.nitems++;
		bloom_store_items(&f->hdr);
		bloom_put_le64(f->hdr.base + CUCKOO_HEAD_SIZE + (size_t) i * CUCKOO_DESC_SIZE + 16,
					   f->subs[i].nitems);
		*what = CUCKOO_STORED;
	}
	return BLOOM_OK;
}

/*
 * Removes one copy of h (CF.DEL).  A copy is taken only where it is safe:
 * h matches in exactly one sub-filter (where its copies must be), and its
 * class there is below the cap (a class at the cap may stand for more
 * adds).  Otherwise the filter keeps it and counts it in stuck.
 */
CuckooRemoved
cuckoo_remove(CuckooFilter *f, uint64_t h)
{
	unsigned	matches = 0,
				which = 0,
				copies = 0;
	uint64_t	B1 = 0,
				B2 = 0,
				v = 0;

	for (unsigned i = 0; i < f->nsubs; i++)
	{
		uint64_t	b1,
					b2,
					vi;
		unsigned	c = ck_key_copies(f, i, h, &b1, &b2, &vi);

		if (c > 0)
		{
			matches++;
			which = i;
			copies = c;
			B1 = b1;
			B2 = b2;
			v = vi;
		}
	}
	if (matches == 0)
		return CUCKOO_ABSENT;
	if (matches > 1 || copies >= cuckoo_cap(f->b))
	{
		f->stuck = bloom_sat_add(f->stuck, 1);
		cuckoo_write_header(f);
		return CUCKOO_KEPT;
	}
	{
		CuckooSub  *s = &f->subs[which];
		uint64_t	B = ck_in_bucket(s, f->b, B1, v) > 0 ? B1 : B2;

		for (unsigned j = 0; j < f->b; j++)
			if (ck_get(s, f->b, B, j) == v)
			{
				ck_put(s, f->b, B, j, 0);
				break;
			}
		s->nitems--;
	}
	f->hdr.nitems--;
	f->deletes = bloom_sat_add(f->deletes, 1);
	cuckoo_write_header(f);
	return CUCKOO_REMOVED;
}

/* Free slots of the pair B1, B2 */
static inline unsigned
ck_free_slots(const CuckooSub *s, unsigned b, uint64_t B1, uint64_t B2)
{
	return ck_in_bucket(s, b, B1, 0) + (B2 != B1 ? ck_in_bucket(s, b, B2, 0) : 0);
}

/* Puts n copies of v into free slots of the pair B1, B2 (they are there) */
static void
ck_put_copies(CuckooSub *s, unsigned b, uint64_t B1, uint64_t B2, uint64_t v, unsigned n)
{
	for (unsigned k = 0; k < b && n > 0; k++)
		if (ck_get(s, b, B1, k) == 0)
		{
			ck_put(s, b, B1, k, v);
			n--;
		}
	for (unsigned k = 0; k < b && n > 0 && B2 != B1; k++)
		if (ck_get(s, b, B2, k) == 0)
		{
			ck_put(s, b, B2, k, v);
			n--;
		}
}

/* Clears every copy of v in the pair B1, B2 */
static void
ck_clear_copies(CuckooSub *s, unsigned b, uint64_t B1, uint64_t B2, uint64_t v)
{
	for (unsigned k = 0; k < b; k++)
	{
		if (ck_get(s, b, B1, k) == v)
			ck_put(s, b, B1, k, 0);
		if (B2 != B1 && ck_get(s, b, B2, k) == v)
			ck_put(s, b, B2, k, 0);
	}
}

/*
 * Moves the class of fingerprint v at bucket B of sub-filter j (its n
 * copies in the pair) into free slots of an older sub-filter, oldest
 * first, whole, so that a key's copies stay in one sub-filter; the class
 * there stays below the cap.  Returns whether it moved.
 */
static bool
ck_move_class(CuckooFilter *f, unsigned j, uint64_t B, uint64_t B2, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < j; i++)
	{
		CuckooSub  *s = &f->subs[i];
		uint64_t	Bi = B >> (f->subs[j].log2e - s->log2e);
		uint64_t	vi = ck_fp(v, s->fbits);
		uint64_t	Bi2 = ck_alt(f, s, Bi, ck_v0(f, vi));

		if (ck_copies(s, f->b, Bi, Bi2, vi) + n >= cuckoo_cap(f->b) ||
			ck_free_slots(s, f->b, Bi, Bi2) < n)
			continue;
		ck_put_copies(s, f->b, Bi, Bi2, vi, n);
		s->nitems += n;
		ck_clear_copies(&f->subs[j], f->b, B, B2, v);
		f->subs[j].nitems -= n;
		return true;
	}
	return false;
}

/*
 * Moves the fingerprint v at bucket B of sub-filter j into an older
 * sub-filter, oldest first, where its class there stays below the cap
 * (a walk of kicks may make room).  For union.
 */
static CkPlaced
ck_move_older(CuckooFilter *f, unsigned j, uint64_t B, uint64_t v, const BloomAlloc *a)
{
	for (unsigned i = 0; i < j; i++)
	{
		CuckooSub  *s = &f->subs[i];
		uint64_t	Bi = B >> (f->subs[j].log2e - s->log2e);
		uint64_t	vi = ck_fp(v, s->fbits);
		uint64_t	Bi2 = ck_alt(f, s, Bi, ck_v0(f, vi));
		CkPlaced	r;

		if (ck_copies(s, f->b, Bi, Bi2, vi) + 1 >= cuckoo_cap(f->b))
			continue;
		r = ck_place(f, s, Bi, vi, v ^ B, true, a);
		if (r == CK_NOMEM)
			return r;
		if (r == CK_PLACED)
		{
			s->nitems++;
			return r;
		}
	}
	return CK_NO_ROOM;
}

/*
 * CF.COMPACT: moves fingerprints from newer sub-filters into free slots of
 * older ones, then drops empty sub-filters at the end (never the first);
 * the result is a new value from a.  Every added key answers as before;
 * a moved fingerprint is shorter in its older sub-filter, so an absent key
 * may now match there, at that sub-filter's rate (within the target).
 */
BloomStatus
cuckoo_compact(const CuckooFilter *f, const BloomAlloc *a, CuckooFilter *out)
{
	size_t		size = cuckoo_value_size(f);
	uint8_t    *tmp = bloom_alloc_scratch(a, size);
	CuckooFilter w = *f;
	unsigned	keep;
	size_t		head;
	uint8_t    *buf;

	if (tmp == NULL)
		return BLOOM_E_NOMEM;
	memcpy(tmp, f->hdr.base, size);
	ck_bind(&w, tmp);
	for (unsigned j = w.nsubs - 1; j >= 1 && j < w.nsubs; j--)
	{
		CuckooSub  *s = &w.subs[j];

		for (uint64_t B = 0; B < s->nbuckets && s->nitems > 0; B++)
			for (unsigned k = 0; k < w.b; k++)
			{
				uint64_t	v = ck_get(s, w.b, B, k);
				uint64_t	B2;
				unsigned	n;

				/* a move may kick: check more often than per 64K */
				if (k == 0 && (B & CUCKOO_CANCEL_BUCKETS) == 0)
					bloom_cancel_check(bloom_alloc_cancel(a));
				if (v == 0)
					continue;
				B2 = ck_alt(&w, s, B, ck_v0(&w, v));
				n = ck_copies(s, w.b, B, B2, v);
				if (n < cuckoo_cap(w.b))	/* a class at the cap stays */
					(void) ck_move_class(&w, j, B, B2, v, n);
			}
	}
	for (keep = w.nsubs; keep > 1 && w.subs[keep - 1].nitems == 0; keep--)
		;
	head = CUCKOO_HEAD_SIZE + (size_t) w.nsubs * CUCKOO_DESC_SIZE;
	*out = w;
	out->nsubs = keep;
	size = cuckoo_value_size(out);
	if ((buf = bloom_alloc_value(a, size)) == NULL)
	{
		bloom_free_scratch(a, tmp);
		return BLOOM_E_NOMEM;
	}
	memcpy(buf, tmp, CUCKOO_HEAD_SIZE + (size_t) keep * CUCKOO_DESC_SIZE);
	memcpy(buf + CUCKOO_HEAD_SIZE + (size_t) keep * CUCKOO_DESC_SIZE, tmp + head,
		   size - CUCKOO_HEAD_SIZE - (size_t) keep * CUCKOO_DESC_SIZE);
	bloom_free_scratch(a, tmp);
	ck_bind(out, buf);
	cuckoo_write_header(out);
	return BLOOM_OK;
}

/*
 * Can b be united into a?  Returns the first parameter that differs,
 * BLOOM_PARAM_NONE if none does.
 */
BloomParam
cuckoo_compatible(const CuckooFilter *a, const CuckooFilter *b)
{
	BloomParam	param = bloom_sizing_compatible(&a->hdr, &b->hdr);

	if (param != BLOOM_PARAM_NONE)
		return param;
	if (a->b != b->b)
		return BLOOM_PARAM_BUCKET;
	if (a->expansion != b->expansion)
		return BLOOM_PARAM_EXPANSION;
	if (a->max_kicks != b->max_kicks)
		return BLOOM_PARAM_MAX_KICKS;
	if (!bloom_keys_compatible(&a->hdr, &b->hdr))
		return BLOOM_PARAM_KEY_TYPE;
	return BLOOM_PARAM_NONE;
}

/*
 * Unites b into a (compatible) by reinserting b's fingerprints: each into
 * a's sub-filter of the same index (added when a has fewer), else an
 * older one; classes keep at most the cap.  a may move to a new value
 * from a (as cuckoo_add); BLOOM_E_FULL when a fingerprint finds no room,
 * and a is then part-way (the caller discards it).
 */
BloomStatus
cuckoo_merge(CuckooFilter *a, const CuckooFilter *b, const BloomAlloc *al)
{
	uint8_t    *orig = a->hdr.base;
	BloomStatus st;

	while (a->nsubs < b->nsubs)
	{
		uint8_t    *old = a->hdr.base;

		if ((st = ck_grow(a, al)) != BLOOM_OK)
			return st;
		if (old != orig)
			al->free(al->arg, old);	/* an intermediate value of ours */
	}
	for (unsigned j = 0; j < b->nsubs; j++)
	{
		const CuckooSub *s = &b->subs[j];

		for (uint64_t B = 0; B < s->nbuckets; B++)
			for (unsigned k = 0; k < b->b; k++)
			{
				uint64_t	v = ck_get(s, b->b, B, k);
				CkPlaced	r;

				if (k == 0 && (B & CUCKOO_CANCEL_BUCKETS) == 0)
					bloom_cancel_check(bloom_alloc_cancel(al));
				if (v == 0)
					continue;
				r = ck_place(a, &a->subs[j], B, v, v ^ B, true, al);
				if (r == CK_NO_ROOM)
					r = ck_move_older(a, j, B, v, al);
				else if (r == CK_PLACED)
					a->subs[j].nitems++;
				if (r == CK_NOMEM)
					return BLOOM_E_NOMEM;
				if (r == CK_NO_ROOM)
					return BLOOM_E_FULL;
				if (r == CK_CAPPED)
					a->absorbed = bloom_sat_add(a->absorbed, 1);
			}
	}
	a->hdr.nitems = 0;
	for (unsigned j = 0; j < a->nsubs; j++)
		a->hdr.nitems += a->subs[j].nitems;
	a->absorbed = bloom_sat_add(a->absorbed, b->absorbed);
	a->deletes = bloom_sat_add(a->deletes, b->deletes);
	a->stuck = bloom_sat_add(a->stuck, b->stuck);
	bloom_adopt_key_class(&a->hdr, &b->hdr);
	cuckoo_write_header(a);
	return BLOOM_OK;
}

/*
 * The filter an aggregate's hash list (kind 2) stands for: capacity keys
 * at its rate with the default bucket size, kicks and expansion, each hash
 * added once per copy in sorted order, so that the bytes do not depend on
 * the order the rows came in.
 */
BloomStatus
cuckoo_from_hashlist(const BloomFilter *st, uint64_t capacity, const BloomAlloc *a,
					 CuckooFilter *out)
{
	uint64_t	n = st->nhashes;
	uint64_t   *h = bloom_alloc_scratch(a, (n > 0 ? n : 1) * sizeof(uint64_t));
	BloomStatus s;

	if (h == NULL)
		return BLOOM_E_NOMEM;
	for (uint64_t i = 0; i < n; i++)
		h[i] = bloom_hashlist_get(st, i);
	bloom_sort_u64(h, n, bloom_alloc_cancel(a));
	s = cuckoo_new(capacity, st->fpr, CUCKOO_DEFAULT_BUCKET, CUCKOO_DEFAULT_KICKS,
				   CUCKOO_DEFAULT_EXPANSION, a, out);
	for (uint64_t i = 0; i < n && s == BLOOM_OK; i++)
	{
		uint8_t    *old = out->hdr.base;
		CuckooAdded what;

		bloom_cancel_point(bloom_alloc_cancel(a), i);
		s = cuckoo_add(out, h[i], false, a, &what);
		if (s == BLOOM_OK && out->hdr.base != old)
			a->free(a->arg, old);
	}
	bloom_free_scratch(a, h);
	if (s != BLOOM_OK)
		return s;
	cuckoo_adopt_list(out, st);
	return BLOOM_OK;
}
