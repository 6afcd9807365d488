/*-------------------------------------------------------------------------
 *
 * cuckoo_format.c
 *		The cuckoo filter's geometry and value: planning (fingerprint bits
 *		and buckets from the rate, bucket size and capacity), decoding and
 *		validation, header writing, new values, growth by a sub-filter, and
 *		what cuckoo_info shows.
 *
 *-------------------------------------------------------------------------
 */
#include "cuckoo_impl.h"
#include "sizing.h"

#include <math.h>

/*
 * The load a sub-filter is sized for, by bucket size (2, 4 or 8): under
 * what random-walk insertion with 500 kicks reaches (the paper measures
 * 84%, 95% and 98%), so that a fixed filter takes its capacity
 * (test_cuckoo.c fills filters of many sizes, 1 to 1e6 keys, to check it).
 * Bucket size 1 is refused: with one slot a bucket a few keys that share
 * two buckets fill a table at any load.
 */
static double
target_load(unsigned b)
{
	switch (b)
	{
		case 2:
			return 0.80;
		case 4:
			return 0.90;
		default:
			return 0.93;
	}
}

bool
cuckoo_bucket_size_valid(int64_t b)
{
	return b == 2 || b == 4 || b == 8;
}

bool
cuckoo_expansion_valid(int64_t e)
{
	/* 0 (fixed), or a power of two: sub-filters nest */
	return e == 0 || (e >= 1 && e <= CUCKOO_MAX_EXPANSION && (e & (e - 1)) == 0);
}

/* The rate sub-filter i is planned for: fpr, or its share on the schedule */
double
cuckoo_sub_fpr(double fpr, unsigned expansion, int i)
{
	return expansion == 0 ? fpr : bloom_layer_fpr(fpr, i);
}

/* The fewest bits (at least CUCKOO_MIN_FBITS) with 2b / (2^f - 1) <= rate */
static int
fbits_for(double rate, unsigned b)
{
	int			f = CUCKOO_MIN_FBITS;

	while (f <= CUCKOO_MAX_FBITS && 2.0 * b / (ldexp(1.0, f) - 1.0) > rate)
		f++;
	return f;
}

static int
log2u(unsigned e)
{
	int			l = 0;

	while ((1u << l) < e)
		l++;
	return l;
}

size_t
cuckoo_area_size(uint64_t nbuckets, unsigned b, int fbits)
{
	uint64_t	bits = nbuckets * b * (uint64_t) fbits;

	return (size_t) (((bits + 63) / 64) * 8 + 8);
}

/*
 * The plan with the fingerprint bits of the first n sub-filters (the rest
 * 0): decoding needs only those it has (each costs a schedule sum).
 */
static BloomStatus
plan_subs(uint64_t capacity, double fpr, unsigned b, unsigned expansion, int n,
		  CuckooPlan *p)
{
	double		n0;

	if (capacity < 1 || !cuckoo_bucket_size_valid(b) || !cuckoo_expansion_valid(expansion) ||
		!(fpr >= (expansion ? BLOOM_MIN_SCALABLE_FPR : BLOOM_MIN_FPR)) || !(fpr <= BLOOM_MAX_FPR))
		return BLOOM_E_PARAMS;
	p->capacity = capacity;
	p->fpr = fpr;
	p->b = b;
	p->expansion = expansion;
	p->log2e = expansion ? log2u(expansion) : 0;
	memset(p->fbits, 0, sizeof(p->fbits));
	for (int i = 0; i < n; i++)
		if ((p->fbits[i] = fbits_for(cuckoo_sub_fpr(fpr, expansion, i), b)) > CUCKOO_MAX_FBITS)
			return BLOOM_E_PARAMS;
	/*
	 * Slack of 4 sqrt(capacity) keys for small filters, whose loads at the
	 * first failure vary most (about 1 fill in 100 of b = 2 under 200 keys
	 * failed without it); 0.4% more slots at a million keys
	 */
	n0 = ceil(((double) capacity + 4.0 * sqrt((double) capacity)) /
			  (b * target_load(b)));
	if (n0 * b * p->fbits[0] / 8.0 + CUCKOO_HEAD_SIZE + CUCKOO_DESC_SIZE + 16 >
		(double) BLOOM_MAX_BYTES)
		return BLOOM_E_CAPACITY;
	p->n0 = (uint64_t) n0;
	return BLOOM_OK;
}

/*
 * Plans a filter: BLOOM_E_PARAMS for parameters out of range (every
 * sub-filter it may grow must have its fingerprint bits), BLOOM_E_CAPACITY
 * when its first sub-filter would not fit in a value.
 */
BloomStatus
cuckoo_plan(uint64_t capacity, double fpr, unsigned b, unsigned expansion,
			CuckooPlan *p)
{
	return plan_subs(capacity, fpr, b, expansion, expansion ? CUCKOO_MAX_SUBS : 1, p);
}

/* The largest capacity that fits at these parameters (0: none) */
uint64_t
cuckoo_max_capacity(double fpr, unsigned b, unsigned expansion)
{
	CuckooPlan	p;
	double		slots;
	uint64_t	cap;

	if (cuckoo_plan(1, fpr, b, expansion, &p) != BLOOM_OK)
		return 0;
	slots = (double) (BLOOM_MAX_BYTES - CUCKOO_HEAD_SIZE - CUCKOO_DESC_SIZE - 16) * 8.0 / p.fbits[0];
	cap = (uint64_t) (floor(slots / b) * b * target_load(b));
	while (cap > 1 && cuckoo_plan(cap, fpr, b, expansion, &p) != BLOOM_OK)
		cap -= cap / 1000 + 1;
	return cap;
}

size_t
cuckoo_value_size(const CuckooFilter *f)
{
	size_t		size = CUCKOO_HEAD_SIZE + (size_t) f->nsubs * CUCKOO_DESC_SIZE;

	for (unsigned i = 0; i < f->nsubs; i++)
		size += cuckoo_area_size(f->subs[i].nbuckets, f->b, f->subs[i].fbits);
	return size;
}

/* Points f's sub-filters at their slot areas in the value at base */
void
ck_bind(CuckooFilter *f, uint8_t *base)
{
	uint8_t    *p = base + CUCKOO_HEAD_SIZE + (size_t) f->nsubs * CUCKOO_DESC_SIZE;

	f->hdr.base = base;
	f->hdr.data = base + BLOOM_HEADER_SIZE;
	for (unsigned i = 0; i < f->nsubs; i++)
	{
		f->subs[i].slots = p;
		p += cuckoo_area_size(f->subs[i].nbuckets, f->b, f->subs[i].fbits);
	}
}

/*
 * Decodes a cuckoo filter: version 3, kind 6, every field in range, the
 * sub-filters nested (sub-filter i has n0 e^i buckets and capacity
 * capacity e^i, fingerprint bits that never shrink), the counts and the
 * length, before anything reads the slots.  What is checked here makes
 * every access in bounds; that the geometry is the plan's, and the slots
 * agree with the counts, is cuckoo_validate_deep's (values from outside):
 * planning costs more than a lookup.  A value of another type is
 * BLOOM_E_OTHERTYPE.
 */
BloomStatus
cuckoo_decode(const uint8_t *buf, size_t len, CuckooFilter *f)
{
	uint64_t	w48,
				w56,
				items = 0;
	size_t		size;
	int			log2e;
	BloomStatus st = bloom_decode_common(buf, len, &f->hdr, &w48, &w56);

	if (st != BLOOM_OK)
		return st;
	if (f->hdr.kind != BLOOM_KIND_CUCKOO)
		return f->hdr.kind >= 1 && f->hdr.kind <= BLOOM_KIND_SPARSE_COUNTING ? BLOOM_E_OTHERTYPE : BLOOM_E_KIND;
	if (f->hdr.version != BLOOM_FORMAT_VERSION_3)
		return BLOOM_E_VERSION;
	if (f->hdr.flags != 0 || (w56 >> 24) != 0)
		return BLOOM_E_FLAGS;
	f->b = f->hdr.k;
	f->max_kicks = (unsigned) (w56 & 0xFFFF);
	f->expansion = (unsigned) ((w56 >> 16) & 0xFF);
	if (!cuckoo_bucket_size_valid(f->b) || f->hdr.block_log2 != 0 ||
		f->max_kicks < 1 || !cuckoo_expansion_valid(f->expansion) ||
		w48 < 1 || w48 > (f->expansion ? CUCKOO_MAX_SUBS : 1))
		return BLOOM_E_GEOMETRY;
	if (f->hdr.capacity < 1 ||
		!(f->hdr.fpr >= (f->expansion ? BLOOM_MIN_SCALABLE_FPR : BLOOM_MIN_FPR)) ||
		!(f->hdr.fpr <= BLOOM_MAX_FPR))
		return BLOOM_E_PARAMS;
	f->nsubs = (unsigned) w48;
	log2e = f->expansion ? log2u(f->expansion) : 0;
	size = CUCKOO_HEAD_SIZE + (size_t) f->nsubs * CUCKOO_DESC_SIZE;
	if (len < size)
		return BLOOM_E_LENGTH;
	f->deletes = bloom_get_le64(buf + 64);
	f->absorbed = bloom_get_le64(buf + 72);
	f->stuck = bloom_get_le64(buf + 80);
	if (bloom_get_le64(buf + 88) != 0)
		return BLOOM_E_FLAGS;
	f->n0 = bloom_get_le64(buf + CUCKOO_HEAD_SIZE);
	for (unsigned i = 0; i < f->nsubs; i++)
	{
		const uint8_t *d = buf + CUCKOO_HEAD_SIZE + i * CUCKOO_DESC_SIZE;
		CuckooSub  *s = &f->subs[i];
		int			l2 = (int) i * log2e;

		/* later sub-filters are e^i times larger: the exponent stays small */
		if (l2 > 40)
			return BLOOM_E_GEOMETRY;
		s->log2e = l2;
		s->table = NULL;
		s->tkey = 0;
		s->nbuckets = bloom_get_le64(d);
		s->capacity = bloom_get_le64(d + 8);
		s->nitems = bloom_get_le64(d + 16);
		s->fbits = d[24];
		if ((bloom_get_le64(d + 24) >> 8) != 0 ||
			s->fbits < CUCKOO_MIN_FBITS || s->fbits > CUCKOO_MAX_FBITS ||
			(i > 0 && s->fbits < f->subs[i - 1].fbits))
			return BLOOM_E_GEOMETRY;
		/* no more slots than 512 MB hold, so that no size below wraps */
		if (f->n0 < 1 || f->n0 > (uint64_t) BLOOM_MAX_BYTES * 8 / (f->b * CUCKOO_MIN_FBITS) ||
			s->nbuckets != f->n0 << l2 ||
			s->nbuckets > (uint64_t) BLOOM_MAX_BYTES * 8 / (f->b * (uint64_t) s->fbits))
			return BLOOM_E_GEOMETRY;
		if (s->capacity != f->hdr.capacity << l2 || (s->capacity >> l2) != f->hdr.capacity)
			return BLOOM_E_PARAMS;
		if (s->nitems > s->nbuckets * f->b)
			return BLOOM_E_COUNT;
		items += s->nitems;
		size += cuckoo_area_size(s->nbuckets, f->b, s->fbits);
		if (size > BLOOM_MAX_BYTES)
			return BLOOM_E_LENGTH;
	}
	if (items != f->hdr.nitems)
		return BLOOM_E_COUNT;
	if (len != size)
		return BLOOM_E_LENGTH;
	ck_bind(f, (uint8_t *) buf);
	return BLOOM_OK;
}

/*
 * The checks of a value from outside, after cuckoo_decode: its geometry
 * is the one its parameters plan (buckets and fingerprint bits; hashing
 * depends on them), and, O(size), each sub-filter holds as many
 * fingerprints as its count says, with the bits past its last slot zero.
 */
BloomStatus
cuckoo_validate_deep(const CuckooFilter *f, const BloomCancel *c)
{
	CuckooPlan	p;

	if (plan_subs(f->hdr.capacity, f->hdr.fpr, f->b, f->expansion, (int) f->nsubs, &p) != BLOOM_OK)
		return BLOOM_E_PARAMS;
	if (p.n0 != f->n0)
		return BLOOM_E_GEOMETRY;
	for (unsigned i = 0; i < f->nsubs; i++)
		if (f->subs[i].fbits != p.fbits[i])
			return BLOOM_E_GEOMETRY;
	for (unsigned i = 0; i < f->nsubs; i++)
	{
		const CuckooSub *s = &f->subs[i];
		uint64_t	n = 0;
		uint64_t	bits = s->nbuckets * f->b * (uint64_t) s->fbits;
		size_t		area = cuckoo_area_size(s->nbuckets, f->b, s->fbits);

		for (uint64_t B = 0; B < s->nbuckets; B++)
		{
			bloom_cancel_point(c, B);
			for (unsigned j = 0; j < f->b; j++)
				n += ck_get(s, f->b, B, j) != 0;
		}
		if (n != s->nitems)
			return BLOOM_E_CONTENT;
		if ((bits & 7) != 0 && (s->slots[bits >> 3] >> (bits & 7)) != 0)
			return BLOOM_E_FLAGS;
		for (size_t k = (bits + 7) >> 3; k < area; k++)
			if (s->slots[k] != 0)
				return BLOOM_E_FLAGS;
	}
	return BLOOM_OK;
}

/* Writes the header, the counters and the descriptors of f */
void
cuckoo_write_header(const CuckooFilter *f)
{
	uint8_t    *buf = f->hdr.base;

	bloom_write_common(&f->hdr, f->nsubs,
					   (uint64_t) f->max_kicks | (uint64_t) f->expansion << 16);
	bloom_put_le64(buf + 64, f->deletes);
	bloom_put_le64(buf + 72, f->absorbed);
	bloom_put_le64(buf + 80, f->stuck);
	bloom_put_le64(buf + 88, 0);
	for (unsigned i = 0; i < f->nsubs; i++)
	{
		uint8_t    *d = buf + CUCKOO_HEAD_SIZE + i * CUCKOO_DESC_SIZE;

		bloom_put_le64(d, f->subs[i].nbuckets);
		bloom_put_le64(d + 8, f->subs[i].capacity);
		bloom_put_le64(d + 16, f->subs[i].nitems);
		bloom_put_le64(d + 24, (uint64_t) f->subs[i].fbits);
	}
}

/* Sub-filter i of the plan p, without its slots */
static void
plan_sub(const CuckooPlan *p, unsigned i, CuckooSub *s)
{
	s->log2e = (int) i * p->log2e;
	s->nbuckets = p->n0 << s->log2e;
	s->capacity = p->capacity << s->log2e;
	s->nitems = 0;
	s->fbits = p->fbits[i];
	s->slots = NULL;
	s->table = NULL;
	s->tkey = 0;
}

/*
 * The parameters and first sub-filter of a new filter into out, as
 * cuckoo_new and ck_new_simulated both start (no memory yet)
 */
BloomStatus
ck_init_first(uint64_t capacity, double fpr, unsigned b, unsigned max_kicks,
			  unsigned expansion, CuckooFilter *out)
{
	CuckooPlan	p;
	BloomStatus st;

	if (max_kicks < 1 || max_kicks > CUCKOO_MAX_KICKS)
		return BLOOM_E_PARAMS;
	if ((st = cuckoo_plan(capacity, fpr, b, expansion, &p)) != BLOOM_OK)
		return st;
	memset(out, 0, sizeof(*out));
	out->b = b;
	out->max_kicks = max_kicks;
	out->expansion = expansion;
	out->n0 = p.n0;
	out->nsubs = 1;
	plan_sub(&p, 0, &out->subs[0]);
	return BLOOM_OK;
}

/* A new, empty filter of one sub-filter from a; parameters as cuckoo_plan */
BloomStatus
cuckoo_new(uint64_t capacity, double fpr, unsigned b, unsigned max_kicks,
		   unsigned expansion, const BloomAlloc *a, CuckooFilter *out)
{
	BloomStatus st;
	size_t		size;
	uint8_t    *buf;

	if ((st = ck_init_first(capacity, fpr, b, max_kicks, expansion, out)) != BLOOM_OK)
		return st;
	size = cuckoo_value_size(out);
	if ((buf = bloom_alloc_value(a, size)) == NULL)
		return BLOOM_E_NOMEM;
	memset(buf, 0, size);
	bloom_header_init(&out->hdr, buf, BLOOM_KIND_CUCKOO, capacity, fpr, 0);
	out->hdr.version = BLOOM_FORMAT_VERSION_3;
	out->hdr.k = (uint8_t) b;
	ck_bind(out, buf);
	cuckoo_write_header(out);
	return BLOOM_OK;
}

/*
 * A filter as cuckoo_new makes it, whose buckets live in the table t
 * (empty, sized by the caller) rather than in a value: its header is
 * scratch from a, with room for every sub-filter it may grow (ck_grow adds
 * them to t), and its slots are never laid out.  What cuckoo_add does to
 * it, it does to a value of the same parameters, bucket for bucket
 * (cuckoo_list.c).
 */
BloomStatus
ck_new_simulated(uint64_t capacity, double fpr, unsigned b, unsigned max_kicks,
				 unsigned expansion, CkTable *t, const BloomAlloc *a, CuckooFilter *out)
{
	BloomStatus st;
	size_t		size = CUCKOO_HEAD_SIZE + CUCKOO_MAX_SUBS * CUCKOO_DESC_SIZE;
	uint8_t    *buf;

	if ((st = ck_init_first(capacity, fpr, b, max_kicks, expansion, out)) != BLOOM_OK)
		return st;
	out->subs[0].table = t;
	out->subs[0].tkey = UINT64_C(1) << 40;
	if ((buf = bloom_alloc_scratch(a, size)) == NULL)
		return BLOOM_E_NOMEM;
	memset(buf, 0, size);
	bloom_header_init(&out->hdr, buf, BLOOM_KIND_CUCKOO, capacity, fpr, 0);
	out->hdr.version = BLOOM_FORMAT_VERSION_3;
	out->hdr.k = (uint8_t) b;
	out->hdr.data = NULL;
	cuckoo_write_header(out);
	return BLOOM_OK;
}

/*
 * Adds an empty sub-filter: f moves to a new value from a (the old one is
 * the caller's).  BLOOM_E_FULL at the last sub-filter, BLOOM_E_CAPACITY
 * when the value would pass the largest.
 */
BloomStatus
ck_grow(CuckooFilter *f, const BloomAlloc *a)
{
	CuckooPlan	p;
	CuckooFilter g = *f;
	size_t		oldhead = CUCKOO_HEAD_SIZE + (size_t) f->nsubs * CUCKOO_DESC_SIZE;
	size_t		size;
	uint8_t    *buf;
	BloomStatus st;

	if (f->expansion == 0 || f->nsubs >= CUCKOO_MAX_SUBS)
		return BLOOM_E_FULL;
	if ((st = plan_subs(f->hdr.capacity, f->hdr.fpr, f->b, f->expansion, (int) f->nsubs + 1,
						&p)) != BLOOM_OK)
		return st;
	if ((int) f->nsubs * p.log2e > 40)
		return BLOOM_E_CAPACITY;
	plan_sub(&p, f->nsubs, &g.subs[f->nsubs]);
	g.subs[f->nsubs].nbuckets = f->n0 << g.subs[f->nsubs].log2e;	/* nested */
	g.nsubs++;
	size = cuckoo_value_size(&g);
	if (size > BLOOM_MAX_BYTES)
		return BLOOM_E_CAPACITY;
	if (f->subs[0].table != NULL)
	{
		/* simulated (ck_new_simulated): its buckets go in the same table */
		g.subs[f->nsubs].table = f->subs[0].table;
		g.subs[f->nsubs].tkey = (uint64_t) (f->nsubs + 1) << 40;
		cuckoo_write_header(&g);
		*f = g;
		return BLOOM_OK;
	}
	if ((buf = bloom_alloc_value(a, size)) == NULL)
		return BLOOM_E_NOMEM;
	memcpy(buf, f->hdr.base, oldhead);
	memset(buf + oldhead, 0, size - oldhead);
	memcpy(buf + oldhead + CUCKOO_DESC_SIZE, f->hdr.base + oldhead,
		   cuckoo_value_size(f) - oldhead);
	ck_bind(&g, buf);
	cuckoo_write_header(&g);
	*f = g;
	return BLOOM_OK;
}

void
cuckoo_describe(const CuckooFilter *f, CuckooInfo *info)
{
	double		keep = 1.0;

	memset(info, 0, sizeof(*info));
	for (unsigned i = 0; i < f->nsubs; i++)
	{
		const CuckooSub *s = &f->subs[i];
		double		load = (double) s->nitems / ((double) s->nbuckets * f->b);

		info->buckets += s->nbuckets;
		info->slots += s->nbuckets * f->b;
		info->capacity += s->capacity;
		info->fbits = s->fbits;
		/* 2b slots probed, each a fingerprint with odds load, equal 1/(2^f - 1) */
		keep *= pow(1.0 - load / (ldexp(1.0, s->fbits) - 1.0), 2.0 * f->b);
	}
	info->load_factor = info->slots ? (double) f->hdr.nitems / (double) info->slots : 0;
	info->estimated_fpr = 1.0 - keep;
}
