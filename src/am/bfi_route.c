/*-------------------------------------------------------------------------
 *
 * bfi_route.c
 *		The partition a probe of a partitioned bloomfilter index asks: when
 *		the index's column is the table's partition key, only the partition
 *		the key would be stored in can hold it.
 *
 * A probe of a partitioned index asks every partition's filter, so its
 * false-positive rate is about the partitions' rates summed.  Routing asks
 * one, at one partition's rate and one partition's cost.  It applies when
 * the table is partitioned on one column (no expression), that column is
 * the index's (no expression, no predicate), its collation, if any, is
 * deterministic, and the probe's value can be taken as the partition key's
 * type (the integer types convert; a value outside the column's range
 * cannot be in the table).  Otherwise every partition is asked.
 *
 * The choice of partition follows get_partition_for_tuple() of PostgreSQL
 * 15's execPartition.c (static there) for one column, over the exported
 * partition_list_bsearch, partition_range_datum_bsearch and
 * compute_partition_hash_value: list and range bounds by binary search,
 * hash by the remainder of the row hash, the default partition otherwise.
 *
 *-------------------------------------------------------------------------
 */
#include "bfindex.h"

#include "access/table.h"
#include "catalog/index.h"
#include "catalog/partition.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type.h"
#include "partitioning/partbounds.h"
#include "partitioning/partdesc.h"
#include "storage/lmgr.h"
#include "utils/lsyscache.h"
#include "utils/partcache.h"

typedef enum RouteKind
{
	ROUTE_ALL,					/* cannot route: ask every partition */
	ROUTE_NONE,					/* no partition can hold the key */
	ROUTE_ONE,					/* ask one partition */
	ROUTE_SUBTREE				/* ask every leaf under one partition */
} RouteKind;

/*
 * The probe's value as a datum of the partition key's type parttype:
 * ROUTE_ALL when the types differ (or bpchar, whose padding the routing
 * would have to mimic), ROUTE_NONE when an integer is outside the type.
 */
static RouteKind
probe_as(Oid parttype, const BloomKeyInfo *ki, Datum key, Datum *out)
{
	int64		v;

	switch (ki->enc)
	{
		case BKE_INT2:
		case BKE_INT4:
		case BKE_INT8:
			v = ki->enc == BKE_INT8 ? DatumGetInt64(key) :
				ki->enc == BKE_INT4 ? DatumGetInt32(key) : DatumGetInt16(key);
			switch (parttype)
			{
				case INT8OID:
					*out = Int64GetDatum(v);
					return ROUTE_ONE;
				case INT4OID:
					if (v < PG_INT32_MIN || v > PG_INT32_MAX)
						return ROUTE_NONE;
					*out = Int32GetDatum((int32) v);
					return ROUTE_ONE;
				case INT2OID:
					if (v < PG_INT16_MIN || v > PG_INT16_MAX)
						return ROUTE_NONE;
					*out = Int16GetDatum((int16) v);
					return ROUTE_ONE;
				default:
					return ROUTE_ALL;
			}
		case BKE_TEXT:
			if (parttype != TEXTOID && parttype != VARCHAROID)
				return ROUTE_ALL;
			*out = key;
			return ROUTE_ONE;
		case BKE_BYTEA:
		case BKE_UUID:
			if (parttype != (ki->enc == BKE_BYTEA ? BYTEAOID : UUIDOID))
				return ROUTE_ALL;
			*out = key;
			return ROUTE_ONE;
		case BKE_FLOAT4:
		case BKE_FLOAT8:
		case BKE_OTHER:
			if (!OidIsValid(ki->typid) || ki->typid != parttype)
				return ROUTE_ALL;
			*out = key;
			return ROUTE_ONE;
		default:
			return ROUTE_ALL;
	}
}

/* The partition of heap (its index in the partition descriptor) for value */
static int
partition_for(PartitionKey pk, PartitionDesc pd, Datum value)
{
	PartitionBoundInfo b = pd->boundinfo;
	bool		isnull = false;
	bool		equal = false;
	int			part = -1;
	int			off;

	switch (pk->strategy)
	{
		case PARTITION_STRATEGY_HASH:
			{
				uint64		h = compute_partition_hash_value(1, pk->partsupfunc,
															 pk->partcollation,
															 &value, &isnull);

				part = b->indexes[h % get_hash_partition_greatest_modulus(b)];
				break;
			}
		case PARTITION_STRATEGY_LIST:
			off = partition_list_bsearch(pk->partsupfunc, pk->partcollation, b,
										 value, &equal);
			if (off >= 0 && equal)
				part = b->indexes[off];
			break;
		case PARTITION_STRATEGY_RANGE:
			off = partition_range_datum_bsearch(pk->partsupfunc, pk->partcollation,
												b, 1, &value, &equal);
			part = b->indexes[off + 1];
			break;
	}
	if (part < 0)
		part = b->default_index;
	return part;
}

/*
 * Routes key (described by ki) through partitioned index, of table heapoid
 * (locked by the caller): ROUTE_ONE with the leaf index to ask in *leaf,
 * ROUTE_SUBTREE with the partitioned index whose leaves to ask in *leaf,
 * ROUTE_NONE, or ROUTE_ALL.
 */
static RouteKind
route(Relation index, Oid heapoid, const BloomKeyInfo *ki, Datum key, Oid *leaf)
{
	Relation	heap = table_open(heapoid, NoLock);
	PartitionKey pk = RelationGetPartitionKey(heap);
	PartitionDesc pd;
	Datum		value;
	RouteKind	r;
	int			part;
	Oid			child_heap;
	Oid			child_index;

	r = ROUTE_ALL;
	if (pk == NULL || pk->partnatts != 1 || pk->partattrs[0] == 0 ||
		index->rd_index->indkey.values[0] != pk->partattrs[0] ||
		RelationGetIndexExpressions(index) != NIL ||
		RelationGetIndexPredicate(index) != NIL ||
		(OidIsValid(pk->partcollation[0]) &&
		 !get_collation_isdeterministic(pk->partcollation[0])))
		goto done;
	r = probe_as(getBaseType(pk->parttypid[0]), ki, key, &value);
	if (r != ROUTE_ONE)
		goto done;

	pd = RelationGetPartitionDesc(heap, true);
	part = pd->nparts > 0 ? partition_for(pk, pd, value) : -1;
	if (part < 0)
	{
		r = ROUTE_NONE;
		goto done;
	}
	child_heap = pd->oids[part];
	child_index = bfi_child_index_on(RelationGetRelid(index), heap, child_heap);
	if (pd->is_leaf[part])
		*leaf = child_index;
	else
	{
		/* a sub-partitioned partition: route again by its own key */
		Relation	sub;

		LockRelationOid(child_heap, AccessShareLock);
		sub = index_open(child_index, AccessShareLock);
		r = route(sub, child_heap, ki, key, leaf);
		index_close(sub, NoLock);
		if (r == ROUTE_ALL)
		{
			/* partitioned by something else: every leaf under it */
			r = ROUTE_SUBTREE;
			*leaf = child_index;
		}
	}

done:
	table_close(heap, NoLock);
	return r;
}

/*
 * The targets a probe of key asks of the index t (opened and checked by
 * bfi_access.c): t itself, one leaf, the leaves under one partition, none,
 * or every leaf.
 */
List *
bfi_route_targets(BfiTarget *t, const BloomKeyInfo *ki, Datum key)
{
	Oid			leaf = InvalidOid;

	if (t->index->rd_rel->relkind != RELKIND_PARTITIONED_INDEX)
		return list_make1(t);
	switch (route(t->index, t->heapoid, ki, key, &leaf))
	{
		case ROUTE_NONE:
			index_close(t->index, NoLock);
			pfree(t);
			return NIL;
		case ROUTE_ONE:
			index_close(t->index, NoLock);
			pfree(t);
			return list_make1(bfi_open_partition(leaf));
		case ROUTE_SUBTREE:
			index_close(t->index, NoLock);
			pfree(t);
			return bfi_open_partitions(bfi_open_partition(leaf));
		case ROUTE_ALL:
			break;
	}
	return bfi_open_partitions(t);
}
