/*-------------------------------------------------------------------------
 *
 * cb_value.c
 *		The countingbloom type: I/O methods, reading filter arguments, the
 *		filter an aggregate's hash list stands for, and the checks of
 *		parameters (every check before any allocation).
 *
 * A countingbloom value is a counting filter (kind 5), the hash list
 * (kind 2) that counting_agg keeps while it reads rows and returns for no
 * rows when it cannot know a size, or the light state (kind 8) of
 * counting_agg(key, capacity, fpr); every function answers for the
 * latter two as the filter they stand for (cb_arg).  Reads of a light
 * state (probes, counting_info, counting_to_bloom, a union of light
 * states) cost what it holds: they never build the counting filter of its
 * capacity (src/core/counting_light.c).
 *
 *-------------------------------------------------------------------------
 */
#include "cbf.h"

#include "access/detoast.h"

/*
 * The core says what a countingbloom value is (src/core/counting_value.c):
 * a stored value decoded, outside bytes validated (every counter against
 * its bit too)
 */
static BloomStatus
decode(const uint8 *buf, size_t len, void *f)
{
	return counting_value_decode(buf, len, f);
}

static BloomStatus
validate(const uint8 *buf, size_t len, void *f, const BloomCancel *c)
{
	return counting_value_validate(buf, len, f, c);
}

const BtTypeMethods cb_type = {
	.name = "countingbloom",
	.decode = decode,
	.validate = validate,
	.version_detail = "The format version is not one this build reads (a countingbloom value is version 3, its light aggregate state version 4).",
	.max_bytes = BLOOM_MAX_BYTES,
};

/* C names:
 *	countingbloom_in, countingbloom_out, countingbloom_recv,
 *	countingbloom_send, countingbloom_from_bytea, countingbloom_eq,
 *	countingbloom_ne, countingbloom_cmp, countingbloom_lt,
 *	countingbloom_le, countingbloom_gt, countingbloom_ge,
 *	countingbloom_hash, countingbloom_hash_extended
 */
BT_TYPE_ENTRIES(countingbloom, &cb_type)

/* ---------------------------------------------------------------------
 * Parameters and new filters
 * ---------------------------------------------------------------------
 */

void
cb_check_params(int64 capacity, double fpr)
{
	if (capacity <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("counting bloom filter capacity must be positive, not " INT64_FORMAT,
						capacity),
				 errhint("Give the number of keys the filter should hold, at least 1.")));
	if (!bloom_fpr_valid(fpr))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("counting bloom filter false-positive rate %g is out of range", fpr),
				 errhint("Use a rate in (0, 0.5] and no smaller than %g, e.g. 0.01 for 1%%.",
						 BLOOM_MIN_FPR)));
}

/* A new, empty counting filter in cxt; parameters checked first */
struct varlena *
cb_new(uint64 capacity, double fpr, BloomPlan *plan, MemoryContext cxt, BloomFilter *f)
{
	BloomAlloc	a = bt_allocator(cxt);
	BloomPlan	local = {0};
	BloomFilter made;
	BloomStatus st;

	if (f == NULL)
		f = &made;
	if (plan == NULL)
		plan = &local;
	cb_check_params((int64) capacity, fpr);
	st = counting_new(capacity, fpr, plan, &a, f);
	if (st == BLOOM_E_CAPACITY)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("counting bloom filter capacity " UINT64_FORMAT " is too large for false-positive rate %g",
						capacity, fpr),
				 errdetail("A filter is at most 512 MB; a counting filter spends five times the bits of a bloomfilter (a 4-bit counter beside each bit)."),
				 errhint("The largest capacity that fits at this rate is " UINT64_FORMAT ".",
						 counting_max_capacity(plan))));
	if (st != BLOOM_OK)
		elog(ERROR, "could not make a counting bloom filter: %s", bloom_status_message(st));
	return bt_varlena(f->base);
}

/*
 * The counting filter the hash list st stands for, in a new value in cxt
 * (an empty list: an empty filter of CB_CREATE_CAPACITY keys); st then
 * describes the result.
 */
struct varlena *
cb_materialize(BloomFilter *st, BloomPlan *plan, MemoryContext cxt)
{
	BloomAlloc	a = bt_allocator(cxt);
	BloomPlan	local = {0};
	BloomFilter out;
	uint64		capacity = 0;
	BloomStatus s;

	if (plan == NULL)
		plan = &local;
	if (st->nhashes == 0)
	{
		struct varlena *v = cb_new(st->capacity > 0 ? st->capacity : CB_CREATE_CAPACITY,
								   st->fpr, plan, cxt, &out);

		/* an empty list keeps its key class: a probe of another is an ERROR */
		out.key_class = st->key_class;
		out.key_type = st->key_type;
		bloom_write_header(&out);
		*st = out;
		return v;
	}
	s = counting_from_hashlist(st, plan, &a, &out, &capacity);
	if (s == BLOOM_E_CAPACITY)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("counting_agg received " UINT64_FORMAT " distinct keys, more than a counting bloom filter at false-positive rate %g can hold",
						capacity, st->fpr),
				 errhint("The largest capacity at this rate is " UINT64_FORMAT "; use a larger rate.",
						 counting_max_capacity(plan))));
	if (s != BLOOM_OK)
		elog(ERROR, "could not build a counting bloom filter: %s", bloom_status_message(s));
	*st = out;
	return bt_varlena(out.base);
}

/*
 * The counting filter the light state st stands for, in a new value in
 * cxt; st then describes the result
 */
struct varlena *
cb_densify(BloomFilter *st, MemoryContext cxt)
{
	BloomAlloc	a = bt_allocator(cxt);
	BloomStatus s = counting_sparse_densify(st, &a);

	if (s != BLOOM_OK)
		elog(ERROR, "could not build a counting bloom filter: %s", bloom_status_message(s));
	return bt_varlena(st->base);
}

/*
 * The light state f (decoded from a value in memory) as a new value in cxt
 * that reads without its counting filter: its hashes in use, sorted (the
 * order counting_light_* read), decoded into f
 */
struct varlena *
cb_light_view(BloomFilter *f, MemoryContext cxt)
{
	BloomAlloc	a = bt_allocator(cxt);
	struct varlena *v = bt_new_varlena(BLOOM_HEADER_SIZE + 8 * (size_t) f->nhashes, cxt);
	BloomFilter out;
	BloomStatus st;

	memcpy(BT_DATA(v) + BLOOM_HEADER_SIZE, f->data, 8 * (size_t) f->nhashes);
	bloom_sparse_write(BT_DATA(v), f, f->nhashes, &out);
	if ((st = counting_light_sort(&out, &a)) != BLOOM_OK)
		elog(ERROR, "could not sort a light countingbloom state: %s", bloom_status_message(st));
	*f = out;
	return v;
}

/* ---------------------------------------------------------------------
 * The probe cache's methods (src/pg/glue_cache.c)
 * ---------------------------------------------------------------------
 */

/*
 * A probe reads a light state as it is (sorted: cb_light_view), never the
 * counting filter of its capacity; a hash list (auto-sized: as large as its
 * distinct keys) becomes its filter.  Everything is allocated in
 * CurrentMemoryContext, which the cache chooses.
 */
static struct varlena *
probe_prepare(FunctionCallInfo fcinfo, int argno, void *decoded)
{
	BloomFilter *f = decoded;
	struct varlena *v = PG_DETOAST_DATUM(PG_GETARG_DATUM(argno));

	cb_decode_or_error(v, f);
	if (f->kind == BLOOM_KIND_SPARSE_COUNTING)
		return cb_light_view(f, CurrentMemoryContext);
	if (f->kind == BLOOM_KIND_HASHLIST)
		return cb_materialize(f, NULL, CurrentMemoryContext);
	return v;
}

/* A copy of what probe_prepare returned: a counting filter or a sorted light state */
static void
probe_redecode(uint8 *buf, size_t len, void *decoded)
{
	BloomFilter *f = decoded;

	if (len > 5 && buf[5] == BLOOM_KIND_SPARSE_COUNTING)
	{
		if (counting_sparse_decode(buf, len, f) != BLOOM_OK || !counting_light_sorted(f))
			elog(ERROR, "copy of a light countingbloom state does not decode sorted");
	}
	else if (counting_decode(buf, len, f) != BLOOM_OK)
		elog(ERROR, "copy of a valid countingbloom does not decode");
}

const BtCacheMethods cb_probe_methods = {
	.decoded_size = sizeof(BloomFilter),
	.prepare = probe_prepare,
	.redecode = probe_redecode,
};
