/*-------------------------------------------------------------------------
 *
 * bfi_route.c
 *		The partitions a probe of a partitioned bloomfilter index asks: when
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
 * A probe since a time (bloom_index_contains(index, key, since)) asks only
 * the partitions whose range ends after since, when the table is
 * partitioned by range on one column of type timestamptz, timestamp or
 * date (the default partition, and a range without an upper bound, always
 * qualify): the index of a table partitioned by time is a windowed filter,
 * and dropping or detaching the oldest partition is its expiry.  Each
 * partition's upper bound is read once per call site from its
 * relpartbound; a timestamp or date bound is compared with since in the
 * session's time zone, as PostgreSQL compares the types.
 *
 * What routing needs of a partitioned table is read once per call site
 * (bfi_site.c) into a route node, in the call site's memory: whether it
 * can route, the partition key's type, support function and collation, a
 * copy of the bounds, and each partition's child index.  A partition that
 * is itself partitioned gets its node, and a leaf its BfiLeaf, when a probe
 * first reaches it, under its lock.  Every probe still locks the tables
 * and indexes it passes through, in the order the checks of bfi_access.c
 * take them; bfi_site.c drops the nodes on any relcache invalidation.
 *
 *-------------------------------------------------------------------------
 */
#include "bfindex.h"

#include "access/table.h"
#include "common/int.h"
#include "miscadmin.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "nodes/parsenodes.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "partitioning/partbounds.h"
#include "partitioning/partdesc.h"
#include "storage/lmgr.h"
#include "utils/lsyscache.h"
#include "utils/partcache.h"

typedef enum RouteKind
{
	ROUTE_ALL,					/* cannot route: ask every partition */
	ROUTE_NONE,					/* no partition can hold the key */
	ROUTE_ONE					/* ask one partition */
} RouteKind;

/* A partition of a route node's table */
typedef struct RoutePart
{
	Oid			heapoid;		/* the partition */
	Oid			indexoid;		/* its child index; InvalidOid: none */
	bool		is_leaf;
	BfiRouteNode *sub;			/* a partitioned partition's, made on use */
	BfiLeaf    *leaf;			/* a leaf's, made on use */
} RoutePart;

/* A partitioned table and its partitioned bloomfilter index */
struct BfiRouteNode
{
	Oid			heapoid;
	bool		routable;		/* partitioned on the index's column alone */
	Oid			parttype;		/* the partition key's base type */
	char		strategy;
	FmgrInfo	partsupfunc;
	Oid			partcollation;
	PartitionBoundInfo bounds;
	int			nparts;
	RoutePart  *parts;			/* in the partition descriptor's order */
	/* by range on one time column: each partition's end, for since */
	Oid			timetype;		/* TIMESTAMPTZOID, TIMESTAMPOID, DATEOID or 0 */
	int64	   *part_end;		/* timestamptz, or timestamp of a date; INT64_MAX: none */
};

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

/* The partition of node's table (its index in parts) for value, or -1 */
static int
partition_for(BfiRouteNode *node, Datum value)
{
	PartitionBoundInfo b = node->bounds;
	bool		isnull = false;
	bool		equal = false;
	int			part = -1;
	int			off;

	switch (node->strategy)
	{
		case PARTITION_STRATEGY_HASH:
			{
				uint64		h = compute_partition_hash_value(1, &node->partsupfunc,
															 &node->partcollation,
															 &value, &isnull);

				part = b->indexes[h % get_hash_partition_greatest_modulus(b)];
				break;
			}
		case PARTITION_STRATEGY_LIST:
			off = partition_list_bsearch(&node->partsupfunc, &node->partcollation,
										 b, value, &equal);
			if (off >= 0 && equal)
				part = b->indexes[off];
			break;
		case PARTITION_STRATEGY_RANGE:
			off = partition_range_datum_bsearch(&node->partsupfunc,
												&node->partcollation, b, 1,
												&value, &equal);
			part = b->indexes[off + 1];
			break;
	}
	if (part < 0)
		part = b->default_index;
	return part;
}

/*
 * Whether a table partitioned by pk can route probes of index: partitioned
 * on one column, the index's own, under a deterministic collation
 */
static bool
can_route(Relation index, PartitionKey pk)
{
	return pk != NULL && pk->partnatts == 1 && pk->partattrs[0] != 0 &&
		index->rd_index->indkey.values[0] == pk->partattrs[0] &&
		RelationGetIndexExpressions(index) == NIL &&
		RelationGetIndexPredicate(index) == NIL &&
		(!OidIsValid(pk->partcollation[0]) ||
		 get_collation_isdeterministic(pk->partcollation[0]));
}

/*
 * The end of partition partoid's range on a time column of type timetype,
 * as a timestamptz (timestamptz) or a timestamp (timestamp, date):
 * INT64_MAX for the default partition and an upper bound of MAXVALUE
 */
static int64
partition_end(Oid partoid, Oid timetype)
{
	HeapTuple	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(partoid));
	int64		end = PG_INT64_MAX;
	bool		isnull;
	Datum		d;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for relation %u", partoid);
	d = SysCacheGetAttr(RELOID, tup, Anum_pg_class_relpartbound, &isnull);
	if (!isnull)
	{
		PartitionBoundSpec *spec = castNode(PartitionBoundSpec,
											stringToNode(TextDatumGetCString(d)));

		if (!spec->is_default && spec->strategy == PARTITION_STRATEGY_RANGE &&
			list_length(spec->upperdatums) == 1)
		{
			PartitionRangeDatum *u = linitial_node(PartitionRangeDatum, spec->upperdatums);

			if (u->kind == PARTITION_RANGE_DATUM_VALUE)
			{
				Datum		v = castNode(Const, u->value)->constvalue;

				if (timetype == DATEOID)
				{
					DateADT		date = DatumGetDateADT(v);

					/* a date past every timestamp ends after any since */
					if (DATE_NOT_FINITE(date))
						end = DATE_IS_NOBEGIN(date) ? PG_INT64_MIN : PG_INT64_MAX;
					else if (pg_mul_s64_overflow((int64) date, USECS_PER_DAY, &end))
						end = date < 0 ? PG_INT64_MIN : PG_INT64_MAX;
				}
				else
					end = DatumGetInt64(v);	/* timestamp and timestamptz */
			}
			else if (u->kind == PARTITION_RANGE_DATUM_MINVALUE)
				end = PG_INT64_MIN;
		}
	}
	ReleaseSysCache(tup);
	return end;
}

/*
 * The route node of partitioned index (open) of table heapoid (locked by
 * the caller), in out->cxt.  A table with partitions being detached
 * concurrently has a partition descriptor that depends on the snapshot:
 * then out->once is set, so that the node serves this call only.
 */
BfiRouteNode *
bfi_route_node(Relation index, Oid heapoid, BfiTargets *out)
{
	Relation	heap = table_open(heapoid, NoLock);
	PartitionKey pk = RelationGetPartitionKey(heap);
	PartitionDesc pd = RelationGetPartitionDesc(heap, true);
	bool		routable = can_route(index, pk);
	MemoryContext old = MemoryContextSwitchTo(out->cxt);
	BfiRouteNode *node = palloc0_object(BfiRouteNode);
	BfiChildIndexes ci;

	node->heapoid = heapoid;
	node->routable = routable;
	if (routable)
	{
		node->parttype = getBaseType(pk->parttypid[0]);
		node->strategy = pk->strategy;
		fmgr_info_copy(&node->partsupfunc, &pk->partsupfunc[0], out->cxt);
		node->partcollation = pk->partcollation[0];
		if (pd->nparts > 0)
			node->bounds = partition_bounds_copy(pd->boundinfo, pk);
	}
	out->once |= pd->detached_exist;

	bfi_load_children(&ci, RelationGetRelid(index));
	node->nparts = pd->nparts;
	node->parts = palloc0_array(RoutePart, Max(pd->nparts, 1));
	if (pk != NULL && pk->strategy == PARTITION_STRATEGY_RANGE && pk->partnatts == 1 &&
		pk->partattrs[0] != 0 &&
		(pk->parttypid[0] == TIMESTAMPTZOID || pk->parttypid[0] == TIMESTAMPOID ||
		 pk->parttypid[0] == DATEOID))
	{
		node->timetype = pk->parttypid[0];
		node->part_end = palloc_array(int64, Max(pd->nparts, 1));
	}
	for (int i = 0; i < pd->nparts; i++)
	{
		CHECK_FOR_INTERRUPTS();
		node->parts[i].heapoid = pd->oids[i];
		node->parts[i].indexoid = bfi_child_lookup(&ci, pd->oids[i]);
		node->parts[i].is_leaf = pd->is_leaf[i];
		if (node->part_end != NULL)
			node->part_end[i] = partition_end(pd->oids[i], node->timetype);
	}
	bfi_free_children(&ci);
	MemoryContextSwitchTo(old);
	table_close(heap, NoLock);
	return node;
}

/*
 * Adds what partition i of node holds to out: its leaf, or (through its
 * own node) the leaves under it that key routes to, every one when key is
 * NULL.  A partition's table and index are locked on every call; the
 * first reach opens them with every check (bfi_open_partition).
 */
static void
collect_part(BfiRouteNode *node, int i, const BloomKeyInfo *ki,
			 const Datum *key, const TimestampTz *since, BfiTargets *out)
{
	RoutePart  *p = &node->parts[i];

	/* sub-partitions recurse: a deep tree is an ERROR, not a crash */
	check_stack_depth();
	CHECK_FOR_INTERRUPTS();
	if (!OidIsValid(p->indexoid))
		bfi_no_child_index(p->heapoid, node->heapoid);
	if ((p->is_leaf && p->leaf == NULL) || (!p->is_leaf && p->sub == NULL))
	{
		BfiTarget  *t = bfi_open_partition(p->indexoid);

		if (p->is_leaf)
			p->leaf = bfi_leaf_new(p->indexoid, t->heapoid, out->cxt);
		else
			p->sub = bfi_route_node(t->index, t->heapoid, out);
		index_close(t->index, NoLock);
		pfree(t);
	}
	else
	{
		LockRelationOid(p->heapoid, AccessShareLock);
		LockRelationOid(p->indexoid, AccessShareLock);
	}
	if (p->is_leaf)
		bfi_targets_add(out, p->leaf);
	else
		bfi_route_collect(p->sub, ki, key, since, out);
}

/*
 * since in the domain of node's partition ends: a timestamptz as it is,
 * for a timestamp or date key the local time of the session (as
 * PostgreSQL compares a timestamptz with a timestamp)
 */
static int64
since_in(const BfiRouteNode *node, TimestampTz since)
{
	if (TIMESTAMP_NOT_FINITE(since) || node->timetype == TIMESTAMPTZOID)
		return since;
	return (int64) DatumGetTimestamp(DirectFunctionCall1(timestamptz_timestamp,
														 TimestampTzGetDatum(since)));
}

/* Whether partition i of node may hold rows after since (in its domain) */
static inline bool
ends_after(const BfiRouteNode *node, int i, int64 since)
{
	return node->part_end == NULL || node->part_end[i] > since ||
		node->part_end[i] == PG_INT64_MAX;
}

/* Whether node's table is partitioned by range on a time column */
bool
bfi_route_by_time(const BfiRouteNode *node)
{
	return node->part_end != NULL;
}

/*
 * Adds to out the leaf indexes a probe of key (described by ki) asks under
 * node, whose table and index the caller locked: the one partition the key
 * routes to (or the leaves under it), none, or every leaf when it cannot
 * route or key is NULL (a batch asks them all).
 */
void
bfi_route_collect(BfiRouteNode *node, const BloomKeyInfo *ki, const Datum *key,
				  const TimestampTz *since, BfiTargets *out)
{
	Datum		value;
	int			part;
	int64		after = since != NULL && node->part_end != NULL ?
		since_in(node, *since) : PG_INT64_MIN;

	if (key != NULL && node->routable)
	{
		switch (probe_as(node->parttype, ki, *key, &value))
		{
			case ROUTE_NONE:
				return;
			case ROUTE_ONE:
				part = node->nparts > 0 ? partition_for(node, value) : -1;
				if (part >= 0 && ends_after(node, part, after))
					collect_part(node, part, ki, key, since, out);
				return;
			case ROUTE_ALL:
				break;
		}
	}
	for (int i = 0; i < node->nparts; i++)
		if (ends_after(node, i, after))
			collect_part(node, i, NULL, NULL, since, out);
}
