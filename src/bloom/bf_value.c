/*-------------------------------------------------------------------------
 *
 * bf_value.c
 *		The bloomfilter type: its I/O methods, reading filter arguments,
 *		and turning aggregate states into the filters they stand for.
 *
 * A function that reads a filter goes one way: fetch (detoast), decode and
 * validate (bf_arg), materialise when the value is an aggregate state
 * (bf_materialize, the one place where states become filters, through the
 * core's bloom_materialize; bloom_agg's final step calls it too), then the
 * core's operations on the filter.  A light state (kind 7) is the
 * exception for reads: lookups, bloom_info and bloom_cardinality ask its
 * view (bf_light_view), which costs what the state holds.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom.h"

#include "access/detoast.h"

/* ---------------------------------------------------------------------
 * The type's methods for the shared I/O and comparison (src/pg/glue_io.c)
 * ---------------------------------------------------------------------
 */

static BloomStatus
decode(const uint8 *buf, size_t len, void *f)
{
	return bloom_decode(buf, len, f);
}

/* bloom_decode checks every field a read relies on */
static BloomStatus
validate(const uint8 *buf, size_t len, void *f, const BloomCancel *c)
{
	return bloom_decode(buf, len, f);
}

const BtTypeMethods bf_type = {
	.name = "bloomfilter",
	.decode = decode,
	.validate = validate,
	.max_bytes = BLOOM_MAX_BYTES,
};

/* C names:
 *	bloomfilter_in, bloomfilter_out, bloomfilter_recv, bloomfilter_send,
 *	bloomfilter_from_bytea, bloomfilter_eq, bloomfilter_ne,
 *	bloomfilter_cmp, bloomfilter_lt, bloomfilter_le, bloomfilter_gt,
 *	bloomfilter_ge, bloomfilter_hash, bloomfilter_hash_extended
 */
BT_TYPE_ENTRIES(bloomfilter, &bf_type)

/* ---------------------------------------------------------------------
 * Aggregate states and filter arguments
 * ---------------------------------------------------------------------
 */

/*
 * What materialising the state st into out says: a fixed-capacity state
 * that received more keys than its capacity, a result that cannot grow
 * (unless quiet_growth: an empty hash list, whose capacity of create-on-add
 * can, or a view, which is read, not added to).  out may be a view's
 * header: only header fields are read.
 */
static void
materialize_warnings(const BloomFilter *st, const BloomMaterialized *m,
					 const BloomFilter *out, bool quiet_growth)
{
	if (m->over_capacity)
		ereport(WARNING,
				(errcode(ERRCODE_WARNING),
				 errmsg("bloom_agg received about %.0f distinct keys, more than its capacity " UINT64_FORMAT,
						m->estimated_items, out->capacity),
				 errdetail("Its false-positive rate is about %g, above the target %g.",
						   m->estimated_fpr, st->fpr),
				 errhint("Give a larger capacity, or leave it out: bloom_agg(key, fpr) sizes the filter for the keys it sees.")));
	if (!quiet_growth)
		bf_warn_if_cannot_grow(out);
}

/*
 * The filter the aggregate state st stands for, in a new value in cxt;
 * st then describes the result.  A hash list becomes a scalable filter
 * where api reads it so (bt_api_reads_hashlist_as_scalable), else a
 * blocked one (1.0); a buffered state follows its flag.  Warns when a fixed-capacity state
 * received more keys than its capacity, or the result cannot grow.
 */
struct varlena *
bf_materialize(BloomFilter *st, BtApiVersion api, BloomPlan *plan,
			   MemoryContext cxt)
{
	BloomPlan	local = {0};
	BloomAlloc	a = bt_allocator(cxt);
	BloomMaterialized m;
	BloomFilter out;
	BloomStatus s;
	bool		empty = bloom_is_empty_hashlist(st);

	if (plan == NULL)
		plan = &local;
	s = bloom_materialize(st, bt_api_reads_hashlist_as_scalable(api), plan,
						  &a, &m, &out);
	if (s == BLOOM_E_CAPACITY)
		bf_capacity_error(m.capacity, m.fpr, plan);
	if (s == BLOOM_E_FLAGS)
		elog(ERROR, "bloom_agg state was not planned as a scalable filter");
	if (s != BLOOM_OK)
		elog(ERROR, "could not materialise a bloom_agg state: %s", bloom_status_message(s));
	materialize_warnings(st, &m, &out, empty);
	*st = out;
	return bt_varlena(out.base);
}

/*
 * A detoasted value v, decoded into f, as the filter (blocked or scalable)
 * it stands for, as the SQL-API version api reads an aggregate's state.
 * With copy the result is a private copy the caller may modify, never
 * orig (the argument as passed).
 */
struct varlena *
bf_as_filter(struct varlena *v, BloomFilter *f, struct varlena *orig,
			 BtApiVersion api, bool copy)
{
	if (bloom_is_state(f))
		return bf_materialize(f, api, NULL, CurrentMemoryContext);
	if (copy && v == orig)
	{
		v = (struct varlena *) palloc(VARSIZE(orig));
		bt_copy_bytes(v, orig, VARSIZE(orig));
		bf_decode_or_error(v, f);
	}
	return v;
}

/*
 * Argument argno as a detoasted, validated filter, decoded into f; see
 * bf_as_filter for api and copy.  Without copy the result may be the
 * argument's own memory.
 */
struct varlena *
bf_arg(FunctionCallInfo fcinfo, int argno, BloomFilter *f, BtApiVersion api,
	   bool copy)
{
	struct varlena *orig = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(argno));
	struct varlena *v = PG_DETOAST_DATUM(PG_GETARG_DATUM(argno));

	bf_decode_or_error(v, f);
	return bf_as_filter(v, f, orig, api, copy);
}

/*
 * A view of the light state st (kind 7) in a new value in cxt, opened into
 * v: what the functions that read a filter ask of it (lookups, bloom_info,
 * bloom_cardinality) at the cost of the hashes it holds, not of the filter
 * its header describes (src/core/lightview.c).  Warns of keys past its
 * capacity as materialising it would.
 */
struct varlena *
bf_light_view(const BloomFilter *st, MemoryContext cxt, BloomLightView *v)
{
	BloomAlloc	a = bt_allocator(cxt);
	uint8	   *buf;
	size_t		len;
	BloomStatus s = bloom_light_view_build(st, &a, &buf, &len, v);

	if (s == BLOOM_E_NOMEM)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory")));
	if (s != BLOOM_OK)
		elog(ERROR, "could not read a light bloom_agg state: %s", bloom_status_message(s));
	/*
	 * Over capacity: as materialising warns (the view counted it).  Not
	 * "cannot grow", which a read does not need, and whose sizing search
	 * would cost more than the lookup (bloom_add still says it).
	 */
	materialize_warnings(st, &v->m, &v->head, true);
	return bt_varlena(buf);
}

/*
 * Argument argno for a read: a light state as its view (*light true, v
 * set, f its header), else as bf_arg reads it for api (f the filter).
 * Returns the view or the filter, in CurrentMemoryContext or the
 * argument's own memory.
 */
struct varlena *
bf_read_arg(FunctionCallInfo fcinfo, int argno, BloomFilter *f,
			BloomLightView *v, bool *light, BtApiVersion api)
{
	struct varlena *orig = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(argno));
	struct varlena *d = PG_DETOAST_DATUM(PG_GETARG_DATUM(argno));
	struct varlena *r;

	bf_decode_or_error(d, f);
	*light = f->kind == BLOOM_KIND_SPARSE;
	if (!*light)
		return bf_as_filter(d, f, orig, api, false);
	r = bf_light_view(f, CurrentMemoryContext, v);
	*f = v->head;
	if (d != orig)
		pfree(d);
	return r;
}

/* ---------------------------------------------------------------------
 * The probe cache's methods (src/pg/glue_cache.c)
 * ---------------------------------------------------------------------
 */

/*
 * A filter argument decoded for lookups (BfProbe): a light state as its
 * view, a self-contained value in CurrentMemoryContext (a copy of it,
 * anywhere, reopens: probe_redecode); anything else as the filter it
 * stands for.
 */
static struct varlena *
prepare_common(FunctionCallInfo fcinfo, int argno, void *decoded,
			   BtApiVersion api)
{
	BfProbe    *p = (BfProbe *) decoded;
	struct varlena *d = PG_DETOAST_DATUM(PG_GETARG_DATUM(argno));
	struct varlena *v;

	bf_decode_or_error(d, &p->f);
	p->light = p->f.kind == BLOOM_KIND_SPARSE;
	if (!p->light)
		return bf_as_filter(d, &p->f,
							(struct varlena *) DatumGetPointer(PG_GETARG_DATUM(argno)),
							api, false);
	v = bf_light_view(&p->f, CurrentMemoryContext, &p->view);
	p->f = p->view.head;
	if ((Pointer) d != DatumGetPointer(PG_GETARG_DATUM(argno)))
		pfree(d);
	return v;
}

/*
 * The cache's prepare step knows no version: one for each reading of a
 * hash list, as 1.0 reads it (a blocked filter) and as 1.2 does (scalable)
 */
static struct varlena *
probe_prepare(FunctionCallInfo fcinfo, int argno, void *decoded)
{
	return prepare_common(fcinfo, argno, decoded, BT_API_1_0);
}

static struct varlena *
probe_prepare_scalable(FunctionCallInfo fcinfo, int argno, void *decoded)
{
	return prepare_common(fcinfo, argno, decoded, BT_API_1_2);
}

/* the bytes before what should start on a cache line: bits, or blocks */
static size_t
probe_head(const void *decoded)
{
	const BfProbe *p = (const BfProbe *) decoded;

	if (p->light)
		return bloom_light_view_blocks_offset(&p->view);
	return bloom_bits_offset(&p->f);
}

static void
probe_redecode(uint8 *buf, size_t len, void *decoded)
{
	BfProbe    *p = (BfProbe *) decoded;

	p->light = bloom_is_light_view(buf, len);
	if (p->light)
	{
		if (bloom_light_view_open(buf, len, &p->view) != BLOOM_OK)
			elog(ERROR, "copy of a light bloomfilter view does not open");
		p->f = p->view.head;
	}
	else if (bloom_decode(buf, len, &p->f) != BLOOM_OK)
		elog(ERROR, "copy of a valid bloomfilter does not decode");
}

const BtCacheMethods bf_probe_as_blocked = {
	.decoded_size = sizeof(BfProbe),
	.prepare = probe_prepare,
	.head = probe_head,
	.redecode = probe_redecode,
};

const BtCacheMethods bf_probe_as_scalable = {
	.decoded_size = sizeof(BfProbe),
	.prepare = probe_prepare_scalable,
	.head = probe_head,
	.redecode = probe_redecode,
};
