/*-------------------------------------------------------------------------
 *
 * bfi_access.c
 *		Opening a bloomfilter index for the SQL functions that read it: what
 *		it must be, who may read it, and the partitions a partitioned index
 *		answers for.
 *
 * A filter reveals which keys the table holds, so reading it asks what
 * reading the rows would: SELECT on the table, or on every column the
 * index reads (its key, its expressions, its predicate, since membership
 * tells whether the predicate held).  A table with row-level security
 * enabled for the caller is refused: a filter cannot hide the keys of rows
 * the caller may not see.  An index that is not a valid bloomfilter index
 * is an error, never an answer of "absent".  So is an index on a Citus
 * table read on a coordinator or worker: the table there is a shell whose
 * rows live in its shards, each with its own index (bfi_citus.c).
 *
 * bloom_index_contains and bloom_index_contains_each run these checks once
 * per call site and keep the result (bfi_site.c); every reader, checked
 * here or kept there, opens an index through bfi_index_open_read.
 *
 *-------------------------------------------------------------------------
 */
#include "bfindex.h"

#include "access/genam.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/sysattr.h"
#include "access/xlog.h"
#include "catalog/index.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "miscadmin.h"
#include "optimizer/optimizer.h"
#include "partitioning/partdesc.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/rls.h"

/* The SQL name of each caller, for errors, in the order of BfiCaller */
static const char *const caller_names[] = {
	"bloom_index_contains",
	"bloom_index_contains_each",
	"bloom_index_filter",
	"bloom_index_info",
	"bloom_index_filter_at",
	"bloom_index_changes"
};

StaticAssertDecl(lengthof(caller_names) == BFI_CALLER_CHANGES + 1,
				 "one name for each BfiCaller");

/* The name of the SQL function caller, as its errors give it */
const char *
bfi_caller_name(BfiCaller caller)
{
	Assert((unsigned) caller < lengthof(caller_names));
	return caller_names[caller];
}

/*
 * Opens index indexoid for a reader: the one place where every SQL function
 * that reads an index opens it, whether with the checks of open_index or
 * through a call site's cache (bfi_site.c), so that whatever must happen
 * before an index is read belongs here.  lockmode is NoLock when the caller
 * holds the lock already.  The index may be a partitioned one (no pages).
 */
Relation
bfi_index_open_read(Oid indexoid, LOCKMODE lockmode)
{
	Relation	index = index_open(indexoid, lockmode);

	/* this backend's own keys first: it sees what it inserted */
	bfi_pending_flush_index(index);
	return index;
}

/* Locks the table of indexoid, then opens the index (amcheck's order) */
static Relation
open_index(Oid indexoid, Oid *heapoid)
{
	Relation	index;
	char		relkind = get_rel_relkind(indexoid);

	if (relkind == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("relation with OID %u does not exist", indexoid)));
	*heapoid = IndexGetRelation(indexoid, true);
	if (!OidIsValid(*heapoid) ||
		(relkind != RELKIND_INDEX && relkind != RELKIND_PARTITIONED_INDEX))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not an index", get_rel_name(indexoid)),
				 errhint("Pass the name of a bloomfilter index, such as one made by CREATE INDEX ... USING bloomfilter (column).")));
	LockRelationOid(*heapoid, AccessShareLock);
	index = bfi_index_open_read(indexoid, AccessShareLock);
	if (IndexGetRelation(indexoid, false) != *heapoid)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("index \"%s\" was dropped or moved concurrently",
						RelationGetRelationName(index))));
	if (index->rd_indam == NULL || index->rd_indam->aminsert != bfi_insert)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("index \"%s\" is not a bloomfilter index",
						RelationGetRelationName(index)),
				 errhint("Create one with CREATE INDEX ... USING bloomfilter (column).")));
	if (!index->rd_index->indisvalid)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("index \"%s\" is not valid", RelationGetRelationName(index)),
				 errdetail("A build that failed or a CREATE INDEX CONCURRENTLY still running leaves an index that may lack keys."),
				 errhint("Wait for the build to finish, or REINDEX the index.")));
	if (RELATION_IS_OTHER_TEMP(index))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot read temporary index \"%s\" of another session",
						RelationGetRelationName(index))));
	if (RecoveryInProgress() && !RelationIsPermanent(index))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("cannot read unlogged index \"%s\" during recovery",
						RelationGetRelationName(index)),
				 errdetail("An unlogged index is not replicated; it is empty on a standby.")));
	return index;
}

/*
 * Whether the current user may read what the index holds: SELECT on the
 * table, or on every column the index reads.
 */
static void
check_privileges(Relation index, Oid heapoid, BfiCaller caller)
{
	Oid			userid = GetUserId();
	Bitmapset  *attrs = NULL;
	int			x = -1;
	bool		ok = true;

	if (pg_class_aclcheck(heapoid, userid, ACL_SELECT) == ACLCHECK_OK)
		goto rls;

	for (int i = 0; i < index->rd_index->indnatts; i++)
		if (index->rd_index->indkey.values[i] != 0)
			attrs = bms_add_member(attrs, index->rd_index->indkey.values[i] -
								   FirstLowInvalidHeapAttributeNumber);
	pull_varattnos((Node *) RelationGetIndexExpressions(index), 1, &attrs);
	pull_varattnos((Node *) RelationGetIndexPredicate(index), 1, &attrs);
	while (ok && (x = bms_next_member(attrs, x)) >= 0)
	{
		AttrNumber	attnum = x + FirstLowInvalidHeapAttributeNumber;

		ok = attnum > 0 &&
			pg_attribute_aclcheck(heapoid, attnum, userid, ACL_SELECT) == ACLCHECK_OK;
	}
	if (!ok)
		aclcheck_error(ACLCHECK_NO_PRIV, OBJECT_TABLE, get_rel_name(heapoid));

rls:
	if (check_enable_rls(heapoid, InvalidOid, false) == RLS_ENABLED)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("%s is not supported on table \"%s\", which has row-level security enabled",
						bfi_caller_name(caller), get_rel_name(heapoid)),
				 errdetail("A filter of the column would reveal keys of rows that the policies hide."),
				 errhint("The table's owner (unless the table forces row-level security) or a role with BYPASSRLS may read the index.")));
}


static int
child_cmp(const void *a, const void *b)
{
	Oid			x = ((const BfiChildIndex *) a)->heap;
	Oid			y = ((const BfiChildIndex *) b)->heap;

	return (x > y) - (x < y);
}

/*
 * The child indexes of partitioned index indexoid, and the table of each,
 * sorted by table: a lookup a partition costs a binary search, not a walk
 * of every child (a table of many thousand partitions)
 */
void
bfi_load_children(BfiChildIndexes *ci, Oid indexoid)
{
	List	   *oids = find_inheritance_children(indexoid, NoLock);
	ListCell   *lc;

	ci->n = 0;
	ci->children = palloc_array(BfiChildIndex, Max(list_length(oids), 1));
	foreach(lc, oids)
	{
		CHECK_FOR_INTERRUPTS();
		ci->children[ci->n].index = lfirst_oid(lc);
		ci->children[ci->n++].heap = IndexGetRelation(lfirst_oid(lc), true);
	}
	qsort(ci->children, ci->n, sizeof(BfiChildIndex), child_cmp);
	list_free(oids);
}

/* The child index on partition partoid, or InvalidOid when it has none */
Oid
bfi_child_lookup(const BfiChildIndexes *ci, Oid partoid)
{
	BfiChildIndex key = {.heap = partoid};
	BfiChildIndex *found = bsearch(&key, ci->children, ci->n,
								   sizeof(BfiChildIndex), child_cmp);

	return found != NULL ? found->index : InvalidOid;
}

void
bfi_free_children(BfiChildIndexes *ci)
{
	pfree(ci->children);
}

/*
 * The ERROR for partition partoid of table heapoid, which has no child of
 * the index asked: a foreign table's rows are not indexed, and a filter
 * that skipped them would answer "absent" for keys the table has.
 */
void
bfi_no_child_index(Oid partoid, Oid heapoid)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("partition \"%s\" of table \"%s\" has no bloomfilter index",
					get_rel_name(partoid), get_rel_name(heapoid)),
			 errdetail("Its rows are not in the filter (a foreign table is not indexed), so the index cannot answer for the whole table."),
			 errhint("Ask the indexes of the other partitions, or detach that partition.")));
}

/*
 * Adds the leaf indexes under partitioned index indexoid, of table heapoid
 * (locked), to targets: one for each partition of the table.
 */
static List *
add_partitions(List *targets, Oid indexoid, Oid heapoid)
{
	Relation	heap = table_open(heapoid, NoLock);
	PartitionDesc pd = RelationGetPartitionDesc(heap, true);
	BfiChildIndexes ci;

	/* sub-partitions recurse: a deep tree is an ERROR, not a crash */
	check_stack_depth();
	bfi_load_children(&ci, indexoid);
	for (int i = 0; i < pd->nparts; i++)
	{
		Oid			child = bfi_child_lookup(&ci, pd->oids[i]);
		BfiTarget  *t;

		CHECK_FOR_INTERRUPTS();
		if (!OidIsValid(child))
			bfi_no_child_index(pd->oids[i], heapoid);
		t = palloc0_object(BfiTarget);

		t->indexoid = child;
		t->index = open_index(child, &t->heapoid);
		if (t->index->rd_rel->relkind == RELKIND_PARTITIONED_INDEX)
		{
			targets = add_partitions(targets, child, t->heapoid);
			index_close(t->index, NoLock);
			pfree(t);
		}
		else
			targets = lappend(targets, t);
	}
	table_close(heap, NoLock);
	bfi_free_children(&ci);
	return targets;
}

/*
 * Opens bloomfilter index indexoid for reading by caller (the SQL function
 * whose errors these are), with every check.  The privileges checked are those
 * of the index named: for a partitioned index, those of a query through
 * its table.
 */
BfiTarget *
bfi_open_checked(Oid indexoid, BfiCaller caller)
{
	BfiTarget  *t = palloc0_object(BfiTarget);

	t->indexoid = indexoid;
	t->index = open_index(indexoid, &t->heapoid);
	check_privileges(t->index, t->heapoid, caller);
	if (bfi_is_citus_table(t->heapoid))
		bfi_citus_table_error(t, caller);
	return t;
}

/* The indexes of the leaf partitions under partitioned index t (closed) */
List *
bfi_open_partitions(BfiTarget *t)
{
	List	   *targets = add_partitions(NIL, t->indexoid, t->heapoid);

	index_close(t->index, NoLock);
	pfree(t);
	return targets;
}

/* Index indexoid, a partition of an index already checked */
BfiTarget *
bfi_open_partition(Oid indexoid)
{
	BfiTarget  *t = palloc0_object(BfiTarget);

	t->indexoid = indexoid;
	t->index = open_index(indexoid, &t->heapoid);
	return t;
}

/*
 * The indexes a read of bloomfilter index indexoid asks: the index itself,
 * or for a partitioned index the indexes of all its leaf partitions.
 */
List *
bfi_open_targets(Oid indexoid, BfiCaller caller)
{
	BfiTarget  *t = bfi_open_checked(indexoid, caller);

	if (t->index->rd_rel->relkind != RELKIND_PARTITIONED_INDEX)
		return list_make1(t);
	return bfi_open_partitions(t);
}

void
bfi_close_targets(List *targets)
{
	ListCell   *lc;

	foreach(lc, targets)
	{
		BfiTarget  *t = (BfiTarget *) lfirst(lc);

		index_close(t->index, NoLock);
	}
	list_free_deep(targets);
}
