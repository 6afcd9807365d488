/*-------------------------------------------------------------------------
 *
 * bfi_funcs.c
 *		The SQL functions that read a bloomfilter index:
 *		bloom_index_contains, bloom_index_contains_each, bloom_index_filter
 *		and bloom_index_info.
 *
 * Each opens the indexes it asks with bfi_access.c (a partitioned index
 * answers for all its partitions; bfi_route.c picks the one partition a
 * probe's key belongs to, where it can), reads them with bfi_read.c, and
 * makes its answer from what they hold: a boolean, an array of them, the
 * union of the snapshots, a row of sums.  The two probes, which a query
 * may call once a row, go through their call site's entry (bfi_site.c),
 * which runs the checks and the routing's catalog reads once.
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
#include "utils/timestamp.h"

/*
 * bloom_index_contains(index, key [, since]): whether the index, or the
 * partitions the key routes to, may hold the key; with since (1.7), only
 * the partitions of a table partitioned by time whose range ends after it.  Per row, the checks, the routing
 * and the decoded metapages come from the call site's entry (bfi_site.c).
 */
static Datum
index_contains(FunctionCallInfo fcinfo, BloomKeyEnc enc)
{
	BloomKeyInfo *ki = bt_cache_key(fcinfo, enc, false);
	Datum		key = PG_GETARG_DATUM(1);
	TimestampTz since = PG_NARGS() > 2 ? PG_GETARG_TIMESTAMPTZ(2) : 0;
	BfiLeaf    *fast = PG_NARGS() > 2 ? NULL : bfi_site_copy_leaf(fcinfo, PG_GETARG_OID(0));
	const BloomFilter *copy = fast ? bfi_leaf_copy(fast) : NULL;
	BfiLeaf   **leaves;
	int			n;
	bool		found = false;

	/* a statement's copy of the bits: no lock, no page (bfi_read.c) */
	if (copy)
		PG_RETURN_BOOL(bloom_filter_contains(copy, bloom_key_hash_fast(ki, key, copy->seed)));
	/* since a time: the partitions whose range ends after it (bfi_route.c) */
	n = bfi_site_targets(fcinfo, PG_GETARG_OID(0), BFI_CALLER_CONTAINS, ki, &key,
						 PG_NARGS() > 2 ? &since : NULL, &leaves);

	for (int i = 0; i < n && !found; i++)
	{
		Relation	index;
		BfiCache   *c;

		if ((copy = bfi_leaf_copy(leaves[i])) != NULL)
		{
			found = bloom_filter_contains(copy, bloom_key_hash_fast(ki, key, copy->seed));
			continue;
		}
		index = bfi_index_open_read(leaves[i]->indexoid, NoLock);
		c = bfi_leaf_meta(index, leaves[i], ki);
		found = bfi_probe_hash(index, c, bloom_key_hash_fast(ki, key, c->meta.seed));
		/* the index itself, not a partition: a statement's copy may serve */
		if (leaves[i]->indexoid == PG_GETARG_OID(0))
			bfi_leaf_count_probe(leaves[i], index);
		index_close(index, NoLock);
	}
	PG_RETURN_BOOL(found);
}

/*
 * The entry points of bloom_index_contains(index, key), one per key type of
 * src/pg/keytypes.h (varchar's overload calls the text one):
 *	bloom_index_contains_int8, bloom_index_contains_int4,
 *	bloom_index_contains_int2, bloom_index_contains_text,
 *	bloom_index_contains_bytea, bloom_index_contains_uuid,
 *	bloom_index_contains_any
 */
#define CONTAINS_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(bloom_index_contains, suffix, index_contains(fcinfo, enc))
BT_KEY_TYPES(CONTAINS_, BT_NO_ALIAS)

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
	uint8	   *nulls = ARR_NULLBITMAP(keys);
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
	BfiLeaf   **leaves;
	int			nleaves;
	ArrayType  *result = result_like(keys, n, &found, &nvalues);

	get_typlenbyvalalign(ARR_ELEMTYPE(keys), &typlen, &typbyval, &typalign);
	h = palloc_array(uint64, Max(n, 1));
	pending = palloc_array(uint32, Max(n, 1));
	order = palloc_array(uint32, Max(n, 1));

	nleaves = bfi_site_targets(fcinfo, PG_GETARG_OID(0),
							   BFI_CALLER_CONTAINS_EACH, ki, NULL, NULL, &leaves);
	for (int i = 0; i < nleaves; i++)
	{
		Relation	index = bfi_index_open_read(leaves[i]->indexoid, NoLock);
		BfiCache   *c = bfi_leaf_meta(index, leaves[i], ki);
		uint32		npending = 0;

		if (i == 0 || c->meta.seed != seed)
		{
			/*
			 * the non-NULL elements' hashes, in order, with this partition's
			 * seed (each index draws its own: partitions built with their
			 * partitioned index share one, an attached one may not)
			 */
			array_iter	it;
			uint32		v = 0;

			seed = c->meta.seed;
			BT_ARRAY_ITER_SETUP(&it, (AnyArrayType *) keys, typlen, typbyval,
								typalign);
			for (int j = 0; j < n; j++)
			{
				bool		isnull;
				Datum		d = BT_ARRAY_ITER_NEXT(&it, &isnull, j, typlen,
												   typbyval, typalign);

				if (!isnull)
					h[v++] = bloom_key_hash_fast(ki, d, seed);
				if ((j & 4095) == 4095)
					CHECK_FOR_INTERRUPTS();
			}
		}
		for (uint32 j = 0; j < nvalues; j++)
			if (!found[j])
				pending[npending++] = j;
		bfi_probe_batch(index, c, h, found, pending, npending, order);
		index_close(index, NoLock);
	}
	PG_RETURN_ARRAYTYPE_P(result);
}

PG_FUNCTION_INFO_V1(bloom_index_filter);
Datum
bloom_index_filter(PG_FUNCTION_ARGS)
{
	List	   *targets = bfi_open_targets(PG_GETARG_OID(0), BFI_CALLER_FILTER);
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
		struct varlena *v = bfi_snapshot(t, &f);
		BloomStatus st;
		void	   *before;

		CHECK_FOR_INTERRUPTS();
		if (result == NULL)
		{
			result = v;
			acc = f;
			continue;
		}
		/* each index draws its seed: an attached partition may differ */
		if (acc.seed != f.seed)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("the partitions of index \"%s\" hash with different seeds",
							get_rel_name(PG_GETARG_OID(0))),
					 errdetail("A partition's index takes the seed of the other partitions' when it is built; an attached partition keeps the seed of its own index."),
					 errhint("REINDEX the attached partition's index, or take one filter per partition: SELECT bloom_index_filter(relid) FROM pg_partition_tree('%s') WHERE isleaf.",
							 get_rel_name(PG_GETARG_OID(0)))));
		before = acc.base;
		st = bloom_merge(&acc, &f, false, &alloc);
		if (st != BLOOM_OK)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("the partitions of index \"%s\" hold filters of different sizes",
							get_rel_name(PG_GETARG_OID(0))),
					 errdetail("%s.", bloom_status_message(st)),
					 errhint("Take one filter per partition: SELECT bloom_index_filter(relid) FROM pg_partition_tree('%s') WHERE isleaf.",
							 get_rel_name(PG_GETARG_OID(0)))));
		/*
		 * the union so far and this partition's filter, no more: a union
		 * that moved to a new value frees the one it left
		 */
		if (acc.base != before)
			pfree(bt_varlena((uint8 *) before));
		result = bt_varlena(acc.base);
		pfree(v);
	}
	bfi_close_targets(targets);
	PG_RETURN_POINTER(result);
}

PG_FUNCTION_INFO_V1(bloom_index_info);
Datum
bloom_index_info(PG_FUNCTION_ARGS)
{
	List	   *targets = bfi_open_targets(PG_GETARG_OID(0), BFI_CALLER_INFO);
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
		BfiCache   *c = bfi_target_meta(t, NULL);

		if (lc == list_head(targets))
			first = c->meta;
		for (unsigned i = 0; i < c->meta.nlayers; i++)
		{
			BfiLayerStats s;

			bfi_layer_stats(t->index, c, i, &s);
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
