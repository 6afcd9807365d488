/*-------------------------------------------------------------------------
 *
 * cf_value.c
 *		The cuckoofilter type: I/O methods, reading filter arguments, the
 *		checks of parameters (every check before any allocation), new
 *		filters, adding a key (growth and its errors), union, and the
 *		filter an aggregate's hash list stands for.
 *
 * A cuckoofilter value is a cuckoo filter (kind 6), or the hash list
 * (kind 2) that cuckoo_agg keeps while it reads rows (version 3 when it
 * was given a capacity) and returns for no rows when it cannot know a
 * size; every function reads the latter as the filter it stands for
 * (cf_arg).  The reads of a list with a capacity (probes, cuckoo_info,
 * cuckoo_compact) never build the filter of that capacity: they simulate
 * it over the buckets the list's fingerprints reach (cf_simulate).
 *
 *-------------------------------------------------------------------------
 */
#include "cf.h"

#include "common/pg_prng.h"

#include "access/detoast.h"

/*
 * The core says what a cuckoofilter value is (src/core/cuckoo_value.c):
 * kind 6, or a hash list decoded into f->hdr; outside bytes validated
 * (the slots against the counts, a hash list's capacity against the
 * largest a filter can have too)
 */
static BloomStatus
decode(const uint8 *buf, size_t len, void *f)
{
	return cuckoo_value_decode(buf, len, f);
}

static BloomStatus
validate(const uint8 *buf, size_t len, void *f, const BloomCancel *c)
{
	return cuckoo_value_validate(buf, len, f, c);
}

const BtTypeMethods cf_type = {
	.name = "cuckoofilter",
	.decode = decode,
	.validate = validate,
	.version_detail = "The format version is not one this build reads (a cuckoofilter value is version 3).",
	.max_bytes = BLOOM_MAX_BYTES,
};

/* C names:
 *	cuckoofilter_in, cuckoofilter_out, cuckoofilter_recv,
 *	cuckoofilter_send, cuckoofilter_from_bytea, cuckoofilter_eq,
 *	cuckoofilter_ne, cuckoofilter_cmp, cuckoofilter_lt, cuckoofilter_le,
 *	cuckoofilter_gt, cuckoofilter_ge, cuckoofilter_hash,
 *	cuckoofilter_hash_extended
 */
BT_TYPE_ENTRIES(cuckoofilter, &cf_type)

/* ---------------------------------------------------------------------
 * Parameters, new filters, adding
 * ---------------------------------------------------------------------
 */

void
cf_check_params(int64 capacity, double fpr, int32 bucket_size, int32 max_kicks,
				int32 expansion)
{
	double		min_fpr = expansion > 0 ? BLOOM_MIN_SCALABLE_FPR : BLOOM_MIN_FPR;

	if (capacity <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cuckoo filter capacity must be positive, not " INT64_FORMAT, capacity),
				 errhint("Give the number of keys the filter should hold, at least 1.")));
	if (!cuckoo_bucket_size_valid(bucket_size))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cuckoo filter bucket size %d is out of range", bucket_size),
				 errdetail("With one fingerprint a bucket, a few keys that share their two buckets fill a table at any load, so a fixed filter could not promise its capacity."),
				 errhint("Use 2, 4 or 8 fingerprints a bucket (4 is the default).")));
	if (max_kicks < 1 || max_kicks > CUCKOO_MAX_KICKS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cuckoo filter max kicks %d is out of range", max_kicks),
				 errhint("Use 1 to %d (500 is the default).", CUCKOO_MAX_KICKS)));
	if (!cuckoo_expansion_valid(expansion))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cuckoo filter expansion %d is out of range", expansion),
				 errhint("Use 0 for a fixed filter that refuses keys it cannot place, or 1, 2, 4, 8 or 16 for a filter that grows by sub-filters that many times larger.")));
	if (!(fpr >= min_fpr && fpr <= BLOOM_MAX_FPR))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cuckoo filter false-positive rate %g is out of range", fpr),
				 expansion > 0 ?
				 errdetail("A filter that grows gives its later sub-filters smaller rates, down to the target divided by 409.") : 0,
				 errhint("Use a rate in (0, 0.5] and no smaller than %g%s.", min_fpr,
						 expansion > 0 ? ", or expansion => 0 for a fixed filter" : "")));
}

/* A new, empty filter in cxt; parameters checked first */
struct varlena *
cf_new(uint64 capacity, double fpr, int32 bucket_size, int32 max_kicks, int32 expansion,
	   MemoryContext cxt, CuckooFilter *f)
{
	BloomAlloc	a = bt_allocator(cxt);
	CuckooFilter made;
	BloomStatus st;

	if (f == NULL)
		f = &made;
	cf_check_params((int64) capacity, fpr, bucket_size, max_kicks, expansion);
	st = cuckoo_new(capacity, fpr, (unsigned) bucket_size, (unsigned) max_kicks,
					(unsigned) expansion, &a, f);
	if (st == BLOOM_E_CAPACITY)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cuckoo filter capacity " UINT64_FORMAT " is too large for false-positive rate %g and bucket size %d",
						capacity, fpr, bucket_size),
				 errdetail("A filter is at most 512 MB, so that its text form (what pg_dump writes) fits in one PostgreSQL value."),
				 errhint("The largest capacity that fits is " UINT64_FORMAT ".",
						 cuckoo_max_capacity(fpr, (unsigned) bucket_size, (unsigned) expansion))));
	if (st != BLOOM_OK)
		elog(ERROR, "could not make a cuckoo filter: %s", bloom_status_message(st));
	return bt_varlena(f->hdr.base);
}

/*
 * Adds hash h to f, the decoded form of v (a private copy): returns v or
 * its grown copy (v is then the caller's to free).  A filter that cannot take the key is
 * an ERROR, and the caller's value is unchanged.
 */
struct varlena *
cf_add_hash(struct varlena *v, CuckooFilter *f, uint64 h, bool only_new, MemoryContext cxt)
{
	BloomAlloc	a = bt_allocator(cxt);
	CuckooAdded what;
	uint64		items = f->hdr.nitems;
	BloomStatus st = cuckoo_add(f, h, only_new, &a, &what);

	if (st == BLOOM_E_FULL && f->expansion == 0)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cuckoo filter is full"),
				 errdetail("It holds " UINT64_FORMAT " fingerprints for a capacity of " UINT64_FORMAT ", and no walk of %u kicks found a free slot for the key; it was made with expansion 0, which does not grow.",
						   items, f->hdr.capacity, f->max_kicks),
				 errhint("Make a filter that grows, cuckoo_empty(capacity, fpr, expansion => 2), or a larger one.")));
	if (st == BLOOM_E_FULL || st == BLOOM_E_CAPACITY)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cuckoo filter is full: it cannot add a sub-filter"),
				 errdetail("It has %u sub-filters and holds " UINT64_FORMAT " fingerprints; %s.",
						   f->nsubs, items,
						   st == BLOOM_E_FULL ? "32 is the most a filter may have" :
						   "the next would take the value past 512 MB"),
				 errhint("Split the keys over several filters, or start from a larger capacity.")));
	if (st != BLOOM_OK)
		elog(ERROR, "could not add to a cuckoo filter: %s", bloom_status_message(st));
	return bt_varlena(f->hdr.base);
}

/*
 * The filter the hash list st (decoded into st->hdr) stands for, in a new
 * value in cxt: of its capacity when it has one, else sized for its
 * distinct hashes (none: CF_CREATE_CAPACITY), with the defaults of
 * cuckoo_empty.
 */
struct varlena *
cf_materialize(CuckooFilter *st, MemoryContext cxt)
{
	BloomAlloc	a = bt_allocator(cxt);
	BloomFilter hl = st->hdr;
	uint64	   *sorted;
	uint64		distinct = 0,
				capacity;
	BloomStatus s;

	if (hl.nhashes == 0)
	{
		struct varlena *v = cf_new(hl.capacity > 0 ? hl.capacity : CF_CREATE_CAPACITY, hl.fpr,
								   CUCKOO_DEFAULT_BUCKET, CUCKOO_DEFAULT_KICKS,
								   CUCKOO_DEFAULT_EXPANSION, cxt, st);

		/* an empty list keeps its key class: a probe of another is an ERROR */
		st->hdr.key_class = hl.key_class;
		st->hdr.key_type = hl.key_type;
		cuckoo_write_header(st);
		return v;
	}
	if (hl.capacity > 0)
		capacity = hl.capacity;	/* cuckoo_agg(key, capacity, fpr) */
	else
	{
		/* auto-sized: the distinct keys */
		if ((s = bloom_hashlist_distinct(&hl, &a, &sorted, &distinct)) != BLOOM_OK)
			elog(ERROR, "could not count a cuckoo_agg state: %s", bloom_status_message(s));
		if (sorted != NULL)
			pfree(sorted);
		capacity = Max(distinct, 1);
	}
	cf_check_params((int64) capacity, hl.fpr, CUCKOO_DEFAULT_BUCKET,
					CUCKOO_DEFAULT_KICKS, CUCKOO_DEFAULT_EXPANSION);
	s = cuckoo_from_hashlist(&hl, capacity, &a, st);
	if (s == BLOOM_E_CAPACITY && hl.capacity == 0)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cuckoo_agg received " UINT64_FORMAT " distinct keys, more than a cuckoo filter at false-positive rate %g can hold",
						distinct, hl.fpr),
				 errhint("The largest capacity at this rate is " UINT64_FORMAT "; use a larger rate.",
						 cuckoo_max_capacity(hl.fpr, CUCKOO_DEFAULT_BUCKET,
											 CUCKOO_DEFAULT_EXPANSION))));
	if (s == BLOOM_E_CAPACITY || s == BLOOM_E_FULL)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cuckoo_agg received " UINT64_FORMAT " rows, more than a cuckoo filter of capacity " UINT64_FORMAT " can grow to hold",
						hl.nhashes, capacity),
				 errdetail("Its sub-filters would pass 512 MB, or number more than 32."),
				 errhint("Give a larger capacity.")));
	if (s != BLOOM_OK)
		elog(ERROR, "could not build a cuckoo filter: %s", bloom_status_message(s));
	return bt_varlena(st->hdr.base);
}

/*
 * The filter the hash list with a capacity f (decoded) stands for,
 * simulated into f over the buckets its fingerprints reach, its table t in
 * cxt: memory and time of the list's size, not the capacity's
 * (cuckoo_list.c).  A list that filter cannot hold is cf_materialize's
 * ERROR.
 */
void
cf_simulate(CuckooFilter *f, CkTable *t, MemoryContext cxt)
{
	BloomAlloc	a = bt_allocator(cxt);
	BloomFilter hl = f->hdr;
	/* a salt the value cannot know: see cuckoo_list_simulate */
	BloomStatus s = cuckoo_list_simulate(&hl, &a, f, t,
										 pg_prng_uint64(&pg_global_prng_state));

	if (s == BLOOM_E_CAPACITY || s == BLOOM_E_FULL)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cuckoo_agg received " UINT64_FORMAT " rows, more than a cuckoo filter of capacity " UINT64_FORMAT " can grow to hold",
						hl.nhashes, hl.capacity),
				 errdetail("Its sub-filters would pass 512 MB, or number more than 32."),
				 errhint("Give a larger capacity.")));
	if (s != BLOOM_OK)
		elog(ERROR, "could not read a cuckoo_agg state: %s", bloom_status_message(s));
}

/*
 * Unites fb into fa (a private copy) by reinserting fb's fingerprints;
 * returns the result (fa may move to a new value in cxt).
 */
struct varlena *
cf_merge_into(CuckooFilter *fa, const CuckooFilter *fb, MemoryContext cxt)
{
	BloomAlloc	al = bt_allocator(cxt);
	BloomStatus st;

	bt_family_check_compatible(&cf_family, &fa->hdr, &fb->hdr);
	st = cuckoo_merge(fa, fb, &al);
	if (st == BLOOM_E_FULL || st == BLOOM_E_CAPACITY)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cannot unite cuckoo filters: a fingerprint found no free slot"),
				 errdetail("A union reinserts each fingerprint into the sub-filter of the same size or an older one; together the filters hold more than those sub-filters take."),
				 errhint("Build the filters with a larger capacity, or test both: cuckoo_contains(a, key) OR cuckoo_contains(b, key).")));
	if (st != BLOOM_OK)
		elog(ERROR, "could not unite cuckoo filters: %s", bloom_status_message(st));
	return bt_varlena(fa->hdr.base);
}

/* ---------------------------------------------------------------------
 * The probe cache's methods (src/pg/glue_cache.c)
 * ---------------------------------------------------------------------
 */

/*
 * A probe of a hash list with a capacity reads the filter it stands for
 * simulated (cf_simulate), or built when the filter is the smaller
 * (cuckoo_list_build_cheaper): decoded points at the simulation
 * (in CurrentMemoryContext, which the cache chooses), and the value
 * returned is its flat form, for the cache to copy and bind again
 * (probe_redecode).  A hash list without a capacity (sized for its
 * distinct keys) becomes its filter.
 */
static struct varlena *
probe_prepare(FunctionCallInfo fcinfo, int argno, void *decoded)
{
	CfProbe    *p = decoded;
	struct varlena *v = PG_DETOAST_DATUM(PG_GETARG_DATUM(argno));
	struct varlena *flat;
	size_t		head;

	cf_decode_or_error(v, &p->f);
	if (p->f.hdr.kind != BLOOM_KIND_HASHLIST)
		return v;
	if (p->f.hdr.capacity == 0 || cuckoo_list_build_cheaper(&p->f.hdr))
		return cf_materialize(&p->f, CurrentMemoryContext);
	cf_simulate(&p->f, &p->table, CurrentMemoryContext);
	flat = bt_new_varlena(cuckoo_sim_size(&p->f, &head), CurrentMemoryContext);
	/*
	 * decoded keeps pointing at the simulation: a call site that keeps this
	 * call's memory (glue_cache.c, keep_call_value) probes it as it is
	 */
	cuckoo_sim_flatten(&p->f, BT_DATA(flat));
	return flat;
}

static size_t
probe_head(const void *decoded)
{
	const CfProbe *p = decoded;
	size_t		head;

	if (p->f.subs[0].table != NULL)
		(void) cuckoo_sim_size(&p->f, &head);	/* the table's arrays, aligned */
	else
		head = CUCKOO_HEAD_SIZE + (size_t) p->f.nsubs * CUCKOO_DESC_SIZE;
	return head;
}

static void
probe_redecode(uint8 *buf, size_t len, void *decoded)
{
	CfProbe    *p = decoded;

	if (cuckoo_sim_is_flat(buf, len))
	{
		if (cuckoo_sim_bind(buf, len, &p->f, &p->table) != BLOOM_OK)
			elog(ERROR, "copy of a simulated cuckoofilter does not bind");
	}
	else if (cuckoo_decode(buf, len, &p->f) != BLOOM_OK)
		elog(ERROR, "copy of a valid cuckoofilter does not decode");
}

const BtCacheMethods cf_probe_methods = {
	.decoded_size = sizeof(CfProbe),
	.prepare = probe_prepare,
	.head = probe_head,
	.redecode = probe_redecode,
};
