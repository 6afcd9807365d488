/*-------------------------------------------------------------------------
 *
 * value.c
 *		The bloomfilter type: its I/O methods, reading filter arguments,
 *		and turning aggregate states into the filters they stand for.
 *
 * A function that reads a filter goes one way: fetch (detoast), decode and
 * validate (bf_arg), materialise when the value is an aggregate state
 * (bf_materialize, the one place where states become filters, through the
 * core's bloom_materialize; bloom_agg's final step calls it too), then the
 * core's operations on the filter.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom.h"

#include "access/detoast.h"

/*
 * Decodes a value that was validated when it entered the database.  A
 * failure here means the stored bytes were damaged.
 */
void
bf_decode_or_error(struct varlena *v, BloomFilter *f)
{
	BloomStatus st = bloom_decode(BT_DATA(v), BT_LEN(v), f);

	if (st != BLOOM_OK)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("bloomfilter value is corrupt"),
				 errdetail("%s", bloom_status_message(st))));
}

/* ---------------------------------------------------------------------
 * The type's methods for the shared I/O and comparison (src/pg/io.c)
 * ---------------------------------------------------------------------
 */

static BloomStatus
bf_validate(const uint8 *buf, size_t len)
{
	BloomFilter f;

	return bloom_decode(buf, len, &f);
}

/* v itself when it is canonical already, else a canonical copy */
static struct varlena *
bf_canonical(struct varlena *v)
{
	BloomFilter f;
	struct varlena *c;

	bf_decode_or_error(v, &f);
	if (bloom_is_canonical(&f))
		return v;
	c = bt_new_varlena(bloom_canonical_size(&f), CurrentMemoryContext);
	bloom_canonical_write(&f, BT_DATA(c));
	return c;
}

static const BtTypeMethods bf_type = {
	.name = "bloomfilter",
	.validate = bf_validate,
	.status_message = bloom_status_message,
	.canonical = bf_canonical,
	.max_bytes = BLOOM_MAX_BYTES,
};

BT_TYPE_ENTRIES(bloomfilter, &bf_type)

/* ---------------------------------------------------------------------
 * Aggregate states and filter arguments
 * ---------------------------------------------------------------------
 */

/*
 * The filter the aggregate state st stands for, in a new value in cxt;
 * st then describes the result.  With scalable a hash list becomes a
 * scalable filter (the functions of 1.2), else a blocked one (1.0); a
 * buffered state follows its flag.  Warns when a fixed-capacity state
 * received more keys than its capacity, or the result cannot grow.
 */
struct varlena *
bf_materialize(BloomFilter *st, bool scalable, BloomPlan *plan, MemoryContext cxt)
{
	BloomPlan	local = {0};
	BloomAlloc	a = bt_allocator(cxt);
	BloomMaterialized m;
	BloomFilter out;
	BloomStatus s;
	bool		empty = bloom_is_empty_hashlist(st);

	if (plan == NULL)
		plan = &local;
	s = bloom_materialize(st, scalable, plan, &a, &m, &out);
	if (s == BLOOM_E_CAPACITY)
		bf_capacity_error(m.capacity, m.fpr, plan);
	if (s == BLOOM_E_FLAGS)
		elog(ERROR, "bloom_agg state was not planned as a scalable filter");
	if (s != BLOOM_OK)
		elog(ERROR, "could not materialise a bloom_agg state: %s", bloom_status_message(s));
	if (m.over_capacity)
		ereport(WARNING,
				(errcode(ERRCODE_WARNING),
				 errmsg("bloom_agg received about %.0f distinct keys, more than its capacity " UINT64_FORMAT,
						m.estimated_items, out.capacity),
				 errdetail("Its false-positive rate is about %g, above the target %g.",
						   m.estimated_fpr, st->fpr),
				 errhint("Give a larger capacity, or leave it out: bloom_agg(key, fpr) sizes the filter for the keys it sees.")));
	if (!empty)					/* the capacity of create-on-add can grow */
		bf_warn_if_cannot_grow(&out);
	*st = out;
	return bt_varlena(out.base);
}

/*
 * A detoasted value v, decoded into f, as the filter (blocked or scalable)
 * it stands for.  With BF_ARG_COPY the result is a private copy the caller
 * may modify, never orig (the argument as passed); with BF_ARG_SCALABLE an
 * aggregate's hash list is read as 1.2 reads it.
 */
struct varlena *
bf_as_filter(struct varlena *v, BloomFilter *f, struct varlena *orig, int opts)
{
	if (bloom_is_state(f))
		return bf_materialize(f, (opts & BF_ARG_SCALABLE) != 0, NULL, CurrentMemoryContext);
	if ((opts & BF_ARG_COPY) && v == orig)
	{
		v = (struct varlena *) palloc(VARSIZE(orig));
		memcpy(v, orig, VARSIZE(orig));
		bf_decode_or_error(v, f);
	}
	return v;
}

/*
 * Argument argno as a detoasted, validated filter, decoded into f; see
 * bf_as_filter for opts.  Without BF_ARG_COPY the result may be the
 * argument's own memory.
 */
struct varlena *
bf_arg(FunctionCallInfo fcinfo, int argno, BloomFilter *f, int opts)
{
	struct varlena *orig = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(argno));
	struct varlena *v = PG_DETOAST_DATUM(PG_GETARG_DATUM(argno));

	bf_decode_or_error(v, f);
	return bf_as_filter(v, f, orig, opts);
}

/* ---------------------------------------------------------------------
 * The probe cache's methods (src/pg/cache.c)
 * ---------------------------------------------------------------------
 */

static struct varlena *
probe_prepare(FunctionCallInfo fcinfo, int argno, void *decoded)
{
	return bf_arg(fcinfo, argno, (BloomFilter *) decoded, 0);
}

static size_t
probe_head(const void *decoded)
{
	return bloom_bits_offset((const BloomFilter *) decoded);
}

static void
probe_redecode(uint8 *buf, size_t len, void *decoded)
{
	if (bloom_decode(buf, len, (BloomFilter *) decoded) != BLOOM_OK)
		elog(ERROR, "copy of a valid bloomfilter does not decode");
}

const BtCacheMethods bf_probe_methods = {
	.decoded_size = sizeof(BloomFilter),
	.prepare = probe_prepare,
	.head = probe_head,
	.redecode = probe_redecode,
};
