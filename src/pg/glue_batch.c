/*-------------------------------------------------------------------------
 *
 * glue_batch.c
 *		What the batch forms of every family share: hashing the elements
 *		of an array argument, and giving answers back as a boolean array
 *		or with the NULL rules of = ANY / = ALL.
 *
 *-------------------------------------------------------------------------
 */
#include "bloomtype.h"

#include "catalog/pg_type.h"
#include "utils/array.h"

/*
 * Hashes the elements of array argument 1 with the value's seed.  The
 * elements are walked one at a time (array_iterate), not deconstructed: an
 * array of 25M keys would take a Datum array of 200 MB, filled by a loop
 * that no statement_timeout can stop.
 */
void
bt_hash_elements(FunctionCallInfo fcinfo, BloomKeyInfo *ki, uint64 seed,
				 BtBatchKeys *keys)
{
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(1);
	int			n = ArrayGetNItems(ARR_NDIM(arr), ARR_DIMS(arr));
	ArrayIterator it = array_create_iterator(arr, 0, NULL);
	Datum		elem;
	bool		isnull;

	keys->n = n;
	keys->hashes = palloc(Max(n, 1) * sizeof(uint64));
	keys->nulls = palloc(Max(n, 1) * sizeof(bool));
	for (int i = 0; i < n && array_iterate(it, &elem, &isnull); i++)
	{
		BT_CANCEL_POINT(i);
		keys->nulls[i] = isnull;
		keys->hashes[i] = isnull ? 0 : bloom_key_hash_fast(ki, elem, seed);
	}
	array_free_iterator(it);
	keys->array = arr;
}

/*
 * found[i] for each element, NULL where the element is; keys' dimensions.
 * Built in place (a bool is one byte, no alignment padding between
 * elements), with interrupt checks, rather than through a Datum per
 * element and construct_md_array.
 */
Datum
bt_bool_array(const bool *found, const BtBatchKeys *keys)
{
	ArrayType  *arr = keys->array;
	int			n = keys->n;
	int			ndim = ARR_NDIM(arr);
	bool		any_null = false;
	int32		dataoffset;
	Size		nbytes;
	ArrayType  *out;
	bool	   *data;
	uint8	   *bitmap;
	int			j = 0;

	if (n == 0)
		return PointerGetDatum(construct_empty_array(BOOLOID));
	for (int i = 0; i < n && !any_null; i++)
	{
		BT_CANCEL_POINT(i);
		any_null = keys->nulls[i];
	}
	dataoffset = any_null ? ARR_OVERHEAD_WITHNULLS(ndim, n) : 0;
	nbytes = (any_null ? dataoffset : ARR_OVERHEAD_NONULLS(ndim)) + (Size) n;
	out = (ArrayType *) palloc0(nbytes);
	SET_VARSIZE(out, nbytes);
	out->ndim = ndim;
	out->dataoffset = dataoffset;
	out->elemtype = BOOLOID;
	memcpy(ARR_DIMS(out), ARR_DIMS(arr), ndim * sizeof(int));
	memcpy(ARR_LBOUND(out), ARR_LBOUND(arr), ndim * sizeof(int));
	data = (bool *) ARR_DATA_PTR(out);
	bitmap = ARR_NULLBITMAP(out);
	for (int i = 0; i < n; i++)
	{
		BT_CANCEL_POINT(i);
		if (bitmap == NULL || !keys->nulls[i])
		{
			if (bitmap)
				bitmap[i / 8] |= 1 << (i % 8);
			data[j++] = found[i];
		}
	}
	/* with NULLs, the data part is shorter by them (they take no byte) */
	if (any_null)
		SET_VARSIZE(out, dataoffset + j);
	return PointerGetDatum(out);
}

/*
 * The answer over all elements with the NULL rules of key = ANY(array)
 * (any) or key = ALL(array) (!any): an element whose answer is "any"
 * decides; else NULL if an element is NULL; else !any.
 */
Datum
bt_quantified(FunctionCallInfo fcinfo, const bool *found, const BtBatchKeys *keys,
			  bool any)
{
	bool		any_null = false;

	for (int i = 0; i < keys->n; i++)
	{
		BT_CANCEL_POINT(i);
		if (keys->nulls[i])
			any_null = true;
		else if (found[i] == any)
			PG_RETURN_BOOL(any);
	}
	if (any_null)
		PG_RETURN_NULL();
	PG_RETURN_BOOL(!any);
}

/*
 * <type>_contains_each / _all / _any(f, keys anyarray): the filter from the
 * call site's cache, the keys hashed with its seed, their class checked
 * once, then the family's lookup of the batch, or its answer a key.
 */
Datum
bt_batch_probe(FunctionCallInfo fcinfo, const BtBatchProbe *p, BtBatchForm form)
{
	BloomKeyInfo *ki = bt_cache_key(fcinfo, BKE_UNKNOWN, true);
	const void *filter = bt_cache_value(fcinfo, p->methods);
	const BloomFilter *hdr;
	BtBatchKeys keys;
	bool	   *found;

	if (p->narrow != NULL)
		filter = p->narrow(fcinfo, filter);
	hdr = (const BloomFilter *) filter;
	bt_hash_elements(fcinfo, ki, hdr->seed, &keys);
	found = palloc0(Max(keys.n, 1) * sizeof(bool));
	for (int i = 0; i < keys.n; i++)
		if (!keys.nulls[i])
		{
			bt_check_key(p->noun, hdr, ki);
			break;
		}
	if (hdr->key_class != BLOOM_KEY_NONE && p->lookup != NULL)
		p->lookup(filter, &keys, found);
	else if (hdr->key_class != BLOOM_KEY_NONE)
		for (int i = 0; i < keys.n; i++)
		{
			BT_CANCEL_POINT(i);
			if (p->prefetch != NULL && i + 8 < keys.n)
				p->prefetch(hdr, keys.hashes[i + 8]);
			found[i] = !keys.nulls[i] && p->contains(hdr, keys.hashes[i]);
		}
	if (form == BT_EACH)
		return bt_bool_array(found, &keys);
	return bt_quantified(fcinfo, found, &keys, form == BT_ANY);
}
