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
#include "utils/lsyscache.h"

/* Hashes the elements of array argument 1 with the value's seed */
void
bt_hash_elements(FunctionCallInfo fcinfo, BloomKeyInfo *ki, uint64 seed,
				 BtBatchKeys *keys)
{
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(1);
	int16		typlen;
	bool		typbyval;
	char		typalign;
	Datum	   *elems;

	get_typlenbyvalalign(ARR_ELEMTYPE(arr), &typlen, &typbyval, &typalign);
	deconstruct_array(arr, ARR_ELEMTYPE(arr), typlen, typbyval, typalign,
					  &elems, &keys->nulls, &keys->n);
	keys->hashes = palloc(Max(keys->n, 1) * sizeof(uint64));
	for (int i = 0; i < keys->n; i++)
	{
		BT_CANCEL_POINT(i);
		keys->hashes[i] = keys->nulls[i] ? 0 :
			bloom_key_hash_fast(ki, elems[i], seed);
	}
	keys->array = arr;
	pfree(elems);
}

/* found[i] for each element, NULL where the element is; keys' dimensions */
Datum
bt_bool_array(const bool *found, const BtBatchKeys *keys)
{
	Datum	   *out = palloc(Max(keys->n, 1) * sizeof(Datum));
	ArrayType  *arr = keys->array;

	for (int i = 0; i < keys->n; i++)
		out[i] = BoolGetDatum(found[i]);
	if (keys->n == 0)
		return PointerGetDatum(construct_empty_array(BOOLOID));
	return PointerGetDatum(construct_md_array(out, keys->nulls, ARR_NDIM(arr),
											  ARR_DIMS(arr), ARR_LBOUND(arr),
											  BOOLOID, 1, true, TYPALIGN_CHAR));
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
