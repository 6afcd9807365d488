/*-------------------------------------------------------------------------
 *
 * bfi_funcs.c
 *		The SQL functions that read a bloomfilter index:
 *		bloom_index_contains, bloom_index_contains_each, bloom_index_filter
 *		and bloom_index_info.
 *
 * A probe reads the metapage and one page a layer, the oldest layer first,
 * and stops at the first that may hold the key.  A batch probe groups its
 * keys by page, layer by layer, so that each page is pinned and locked
 * once however many keys fall on it.  A partitioned index answers for all
 * its partitions (bfi_access.c opens them).  The answer includes the keys of
 * rows deleted, updated away, or written by transactions that aborted or
 * are still running: false positives, never false negatives.
 *
 *-------------------------------------------------------------------------
 */
#include "bfindex.h"

#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/arrayaccess.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include <math.h>

/* Checks that a probe of ki's type may be asked of the index's keys */
static void
check_probe(const BfiMeta *m, const BloomKeyInfo *ki)
{
	/* class "other": the same type (by OID: renaming it changes its tag) */
	if (m->key_class == BLOOM_KEY_OTHER && ki->key_class == BLOOM_KEY_OTHER)
	{
		if (ki->typid != m->key_typid)
			bloom_key_mismatch(m->key_class, m->key_typid, ki, false);
		return;
	}
	bloom_check_key(m->key_class, m->key_type, ki, false);
}

/*
 * Reads target t's metapage into a copy of its cache (see bfi_cache_copy),
 * checked for probes of ki
 */
static BfiCache *
target_meta(BfiTarget *t, const BloomKeyInfo *ki)
{
	BfiCache   *c = bfi_cache_copy(t->index);

	bfi_meta_for_index(t->index, &c->meta);
	if (ki)
		check_probe(&c->meta, ki);
	return c;
}

static Datum
index_contains(FunctionCallInfo fcinfo, BloomKeyEnc enc)
{
	BloomKeyInfo *ki = bt_cache_key(fcinfo, enc, false);
	BfiTarget  *index = bfi_open_checked(PG_GETARG_OID(0), "bloom_index_contains");
	List	   *targets = bfi_route_targets(index, ki, PG_GETARG_DATUM(1));
	ListCell   *lc;
	bool		found = false;

	foreach(lc, targets)
	{
		BfiTarget  *t = (BfiTarget *) lfirst(lc);
		BfiCache   *c = target_meta(t, ki);

		if (bfi_probe_hash(t->index, c, bloom_key_hash_fast(ki, PG_GETARG_DATUM(1),
															c->meta.seed)))
		{
			found = true;
			break;
		}
	}
	bfi_close_targets(targets);
	PG_RETURN_BOOL(found);
}

#define CONTAINS_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(bloom_index_contains, suffix, index_contains(fcinfo, enc))
BT_KEY_TYPES(CONTAINS_, BT_NO_ALIAS)

/*
 * Tests the pending keys (indexes into h, found) against layer i: the
 * keys are grouped by page with a counting sort, and each page is read
 * once.  Returns the number of keys still pending, compacted in place.
 */
static uint32
probe_layer_batch(Relation index, BfiCache *c, unsigned i, const uint64 *h,
				  bool *found, uint32 *pending, uint32 npending, uint32 *order)
{
	const BfiLayer *l = &c->meta.layers[i];
	uint32	   *start = palloc0_array(uint32, l->npages + 1);
	uint32		left = 0;

	for (uint32 j = 0; j < npending; j++)
		start[bloom_mulhi64(h[pending[j]], l->nblocks) / BFI_BLOCKS_PER_PAGE + 1]++;
	for (uint32 p = 0; p < l->npages; p++)
		start[p + 1] += start[p];
	for (uint32 j = 0; j < npending; j++)
		order[start[bloom_mulhi64(h[pending[j]], l->nblocks) / BFI_BLOCKS_PER_PAGE]++] =
			pending[j];

	/* start[p] is now the end of page p's keys */
	for (uint32 p = 0, j = 0; p < l->npages; p++)
	{
		uint32		end = start[p];
		Buffer		buf;
		Page		page;

		if (j == end)
			continue;
		page = bfi_read_data_page(index, c, i, p, &buf);
		for (; j < end; j++)
		{
			uint32		key = order[j];
			uint32		blkno;
			uint32		off;

			bfi_locate(l, h[key], &blkno, &off);
			if (page && bloom_block_test((const uint8 *) page + off, l->k, h[key]))
				found[key] = true;
			else
				pending[left++] = key;
		}
		if (page)
			UnlockReleaseBuffer(buf);
		CHECK_FOR_INTERRUPTS();
	}
	pfree(start);
	return left;
}

/*
 * The result of bloom_index_contains_each: a boolean array of keys' shape
 * (n elements), NULL where keys has a NULL, its booleans false; *found
 * points at them, *nvalues of them, one for each non-NULL element, in
 * order.  Made in place, so that a batch of many keys allocates little
 * besides its hashes.
 */
static ArrayType *
result_like(ArrayType *keys, int n, bool **found, uint32 *nvalues)
{
	int			ndim = ARR_NDIM(keys);
	bits8	   *nulls = ARR_NULLBITMAP(keys);
	int32		dataoffset = nulls ? ARR_OVERHEAD_WITHNULLS(ndim, n) : 0;
	Size		nbytes;
	ArrayType  *result;

	*nvalues = 0;
	for (int j = 0; j < n; j++)
		*nvalues += (nulls == NULL || (nulls[j / 8] & (1 << (j % 8))) != 0);
	nbytes = (nulls ? dataoffset : ARR_OVERHEAD_NONULLS(ndim)) + *nvalues;
	result = palloc0(nbytes);

	SET_VARSIZE(result, nbytes);
	result->ndim = ndim;
	result->dataoffset = dataoffset;
	result->elemtype = BOOLOID;
	memcpy(ARR_DIMS(result), ARR_DIMS(keys), ndim * sizeof(int));
	memcpy(ARR_LBOUND(result), ARR_LBOUND(keys), ndim * sizeof(int));
	if (nulls)
		array_bitmap_copy(ARR_NULLBITMAP(result), 0, nulls, 0, n);
	*found = (bool *) ARR_DATA_PTR(result);
	return result;
}

PG_FUNCTION_INFO_V1(bloom_index_contains_each);
Datum
bloom_index_contains_each(PG_FUNCTION_ARGS)
{
	ArrayType  *keys = PG_GETARG_ARRAYTYPE_P(1);
	BloomKeyInfo *ki = bt_cache_key(fcinfo, BKE_UNKNOWN, true);
	int			n = ArrayGetNItems(ARR_NDIM(keys), ARR_DIMS(keys));
	int16		typlen;
	bool		typbyval;
	char		typalign;
	uint64	   *h;
	uint32		nvalues;
	bool	   *found;
	uint32	   *pending;
	uint32	   *order;
	uint64		seed = 0;
	List	   *targets;
	ListCell   *lc;
	ArrayType  *result = result_like(keys, n, &found, &nvalues);

	get_typlenbyvalalign(ARR_ELEMTYPE(keys), &typlen, &typbyval, &typalign);
	h = palloc_array(uint64, Max(n, 1));
	pending = palloc_array(uint32, Max(n, 1));
	order = palloc_array(uint32, Max(n, 1));

	targets = bfi_open_targets(PG_GETARG_OID(0), "bloom_index_contains_each");
	foreach(lc, targets)
	{
		BfiTarget  *t = (BfiTarget *) lfirst(lc);
		BfiCache   *c = target_meta(t, ki);
		uint32		npending = 0;

		if (lc == list_head(targets))
		{
			/* the non-NULL elements' hashes, in order */
			array_iter	it;
			uint32		v = 0;

			seed = c->meta.seed;
			array_iter_setup(&it, (AnyArrayType *) keys);
			for (int j = 0; j < n; j++)
			{
				bool		isnull;
				Datum		d = array_iter_next(&it, &isnull, j, typlen, typbyval,
												typalign);

				if (!isnull)
					h[v++] = bloom_key_hash_fast(ki, d, seed);
				if ((j & 4095) == 4095)
					CHECK_FOR_INTERRUPTS();
			}
		}
		else if (c->meta.seed != seed)
			elog(ERROR, "partitions of index \"%s\" hash with different seeds",
				 get_rel_name(PG_GETARG_OID(0)));
		for (uint32 j = 0; j < nvalues; j++)
			if (!found[j])
				pending[npending++] = j;
		for (unsigned i = 0; i < c->meta.nlayers && npending > 0; i++)
			npending = probe_layer_batch(t->index, c, i, h, found, pending,
										 npending, order);
	}
	bfi_close_targets(targets);
	PG_RETURN_ARRAYTYPE_P(result);
}

/*
 * Calls fn for each page of layer i that holds bits: its blocks, their
 * number and the page's count.  Pages the file lacks and new pages hold
 * no keys and are skipped.
 */
typedef void (*page_fn) (const uint8 *blocks, uint32 nblocks, uint64 nitems,
						 uint32 p, void *arg);

static void
scan_layer(Relation index, BfiCache *c, unsigned i, page_fn fn, void *arg)
{
	const BfiLayer *l = &c->meta.layers[i];

	for (uint32 p = 0; p < l->npages; p++)
	{
		Buffer		buf;
		Page		page = bfi_read_data_page(index, c, i, p, &buf);

		if (page)
		{
			fn((const uint8 *) page + BFI_DATA_OFFSET, bfi_page_blocks(l, p),
			   bfi_opaque(page)->nitems, p, arg);
			UnlockReleaseBuffer(buf);
		}
		CHECK_FOR_INTERRUPTS();
	}
}

/* Copies a page's blocks into a layer of a value */
static void
copy_page(const uint8 *blocks, uint32 nblocks, uint64 nitems, uint32 p, void *arg)
{
	BloomLayer *l = (BloomLayer *) arg;

	memcpy(l->data + (Size) p * BFI_BLOCKS_PER_PAGE * BLOOM_BLOCK_BYTES, blocks,
		   (Size) nblocks * BLOOM_BLOCK_BYTES);
	l->nitems += nitems;
}

/* The index of target t as a scalable value, in CurrentMemoryContext */
static struct varlena *
index_snapshot(BfiTarget *t, BloomFilter *f)
{
	BfiCache   *c = target_meta(t, NULL);
	BfiMeta		m = c->meta;
	BloomLayer	layers[BFI_MAX_LAYERS];
	uint64		total = 0;
	size_t		size;
	struct varlena *v;

	/* an unlogged index reset by a crash has no layer yet: an empty one */
	if (m.nlayers == 0 && bfi_add_layer(&m, m.min_capacity) != BFI_OK)
		elog(ERROR, "cannot plan the first layer of index \"%s\"",
			 RelationGetRelationName(t->index));
	for (unsigned i = 0; i < m.nlayers; i++)
	{
		/* items counted below, from the pages */
		bfi_layer_view(&m.layers[i], 0, NULL, &layers[i]);
		total += m.layers[i].nblocks;
	}
	size = bloom_scalable_size(m.nlayers, total);
	if (size > BLOOM_MAX_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("index \"%s\" is too large for a bloomfilter value",
						RelationGetRelationName(t->index)),
				 errdetail("Its filter takes %zu bytes; a value holds at most %zu.",
						   size, (size_t) BLOOM_MAX_BYTES),
				 errhint("Ask the index itself with bloom_index_contains().")));
	v = bt_new_varlena(size, CurrentMemoryContext);
	bloom_scalable_assemble(BT_DATA(v), layers, m.nlayers, m.fpr, m.expansion,
							m.seed, f);
	for (unsigned i = 0; i < c->meta.nlayers; i++)
		scan_layer(t->index, c, i, copy_page, &f->layers[i]);
	f->nitems = 0;
	for (unsigned i = 0; i < m.nlayers; i++)
		f->nitems = bloom_sat_add(f->nitems, f->layers[i].nitems);
	bloom_store_key_class(f, m.key_class, m.key_type);
	bloom_write_header(f);
	if (bloom_decode(BT_DATA(v), size, f) != BLOOM_OK)
		elog(ERROR, "snapshot of index \"%s\" does not decode",
			 RelationGetRelationName(t->index));
	return v;
}

PG_FUNCTION_INFO_V1(bloom_index_filter);
Datum
bloom_index_filter(PG_FUNCTION_ARGS)
{
	List	   *targets = bfi_open_targets(PG_GETARG_OID(0), "bloom_index_filter");
	struct varlena *result = NULL;
	BloomFilter acc;
	BloomAlloc	alloc = bt_allocator(CurrentMemoryContext);
	ListCell   *lc;

	if (targets == NIL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("partitioned index \"%s\" has no partitions",
						get_rel_name(PG_GETARG_OID(0)))));
	foreach(lc, targets)
	{
		BfiTarget  *t = (BfiTarget *) lfirst(lc);
		BloomFilter f;
		struct varlena *v = index_snapshot(t, &f);
		BloomStatus st;

		if (result == NULL)
		{
			result = v;
			acc = f;
			continue;
		}
		st = bloom_merge(&acc, &f, false, &alloc);
		if (st != BLOOM_OK)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("the partitions of index \"%s\" hold filters of different sizes",
							get_rel_name(PG_GETARG_OID(0))),
					 errdetail("%s.", bloom_status_message(st)),
					 errhint("Take one filter per partition: SELECT bloom_index_filter(relid) FROM pg_partition_tree('%s') WHERE isleaf.",
							 get_rel_name(PG_GETARG_OID(0)))));
		result = bt_varlena(acc.base);
		pfree(v);
	}
	bfi_close_targets(targets);
	PG_RETURN_POINTER(result);
}

/* What bloom_index_info sums over the pages of one layer */
typedef struct LayerStats
{
	const BfiLayer *layer;
	uint64		items;
	uint64		bits_set;
	double		fpr_sum;		/* sum over blocks of (bits set / B)^k */
} LayerStats;

static void
stat_page(const uint8 *blocks, uint32 nblocks, uint64 nitems, uint32 p, void *arg)
{
	LayerStats *s = (LayerStats *) arg;
	BloomLayer	view;

	bfi_layer_view(s->layer, nitems, (uint8 *) blocks, &view);
	view.nblocks = nblocks;
	s->items += nitems;
	s->bits_set += bloom_layer_bits_set(&view, &bt_cancel);
	s->fpr_sum += bloom_layer_estimate_fpr(&view, &bt_cancel) * nblocks;
}


PG_FUNCTION_INFO_V1(bloom_index_info);
Datum
bloom_index_info(PG_FUNCTION_ARGS)
{
	List	   *targets = bfi_open_targets(PG_GETARG_OID(0), "bloom_index_info");
	ListCell   *lc;
	TupleDesc	tupdesc;
	Datum		values[13];
	bool		nulls[13] = {0};
	uint64		items = 0,
				capacity = 0,
				bits_set = 0,
				bytes = 0,
				build_items = 0;
	int			layers = 0;
	int			hashes = 0;
	double		absent = 1.0;	/* chance an absent key is absent everywhere */
	BfiMeta		first = {0};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);

	foreach(lc, targets)
	{
		BfiTarget  *t = (BfiTarget *) lfirst(lc);
		BfiCache   *c = target_meta(t, NULL);

		if (lc == list_head(targets))
			first = c->meta;
		for (unsigned i = 0; i < c->meta.nlayers; i++)
		{
			LayerStats	s = {&c->meta.layers[i], 0, 0, 0.0};

			scan_layer(t->index, c, i, stat_page, &s);
			items += s.items;
			bits_set += s.bits_set;
			capacity += c->meta.layers[i].capacity;
			absent *= 1.0 - s.fpr_sum / (double) c->meta.layers[i].nblocks;
			hashes = c->meta.layers[i].k;
		}
		layers = Max(layers, (int) c->meta.nlayers);
		bytes += (uint64) RelationGetNumberOfBlocks(t->index) * BLCKSZ;
		build_items += c->meta.build_items;
	}

	values[0] = Int64GetDatum(clamp_int64(items));
	values[1] = Int64GetDatum(clamp_int64(capacity));
	values[2] = Float8GetDatum(first.fpr);
	values[3] = Int32GetDatum(layers);
	values[4] = Int64GetDatum(clamp_int64(bytes));
	values[5] = Float8GetDatum(1.0 - absent);
	values[6] = Float8GetDatum(targets ? (1.0 - absent) / first.fpr : 0.0);
	values[7] = Int32GetDatum(first.expansion);
	values[8] = Int32GetDatum(hashes);
	values[9] = Int64GetDatum(clamp_int64(bits_set));
	values[10] = CStringGetTextDatum(targets ?
									 bloom_key_class_name(first.key_class, first.key_typid) :
									 "none");
	values[11] = Int64GetDatum(clamp_int64(build_items));
	values[12] = Int32GetDatum(list_length(targets));
	nulls[2] = nulls[7] = (targets == NIL);
	bfi_close_targets(targets);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * bloom_key_hash(key, seed): the canonical 64-bit hash of a key, as a
 * filter and the index hash it (support function 1 of the bloomfilter
 * operator classes, and for client programs that check a filter).
 */
static Datum
key_hash(FunctionCallInfo fcinfo, BloomKeyEnc enc)
{
	BloomKeyInfo *ki = (BloomKeyInfo *) fcinfo->flinfo->fn_extra;

	if (ki == NULL)
	{
		ki = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(BloomKeyInfo));
		bloom_keyinfo_init(ki, enc, fcinfo, 0, false);
		fcinfo->flinfo->fn_extra = ki;
	}
	PG_RETURN_INT64((int64) bloom_key_hash_fast(ki, PG_GETARG_DATUM(0),
												(uint64) PG_GETARG_INT64(1)));
}

#define KEY_HASH_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(bloom_key_hash_sql, suffix, key_hash(fcinfo, enc))
BT_KEY_TYPES(KEY_HASH_, BT_NO_ALIAS)
