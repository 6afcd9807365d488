/*-------------------------------------------------------------------------
 *
 * bfi_site.c
 *		What a call site of bloom_index_contains or bloom_index_contains_each
 *		keeps of the index it reads, across calls: the checks passed, the
 *		leaf indexes and their metapages, and how to route a key.
 *
 * A probe per row (SELECT ... WHERE bloom_index_contains('f', id)) would
 * otherwise look the index up, check it and the privileges to read it, ask
 * Citus's catalog, route through the partitions' catalogs and decode the
 * metapage on every row, which costs many times the probe.  The call site
 * (its FmgrInfo: fn_extra, memory in fn_mcxt) keeps one entry, for one
 * index OID (the argument may change per row: another OID replaces it),
 * one user and security context (GetUserIdAndSecContext) and one setting
 * of row_security, holding what the checks of bfi_access.c and bfi_citus.c
 * found (an entry exists only when they passed: a failing check runs, and
 * raises its error, on every call), the index's table, and either its one
 * leaf or, for a partitioned index, its route node (bfi_route.c).  Each
 * leaf keeps its metapage as last decoded and the file's known length
 * (bfi_read.c).
 *
 * Invalidation.  An entry records the generation below when it is built,
 * and is built again when the generation has moved.  The generation moves
 * on every relcache invalidation, of any relation or of all (the index,
 * its table, a partition, an index's validity, ACLs and column ACLs,
 * row-level security, ATTACH and DETACH, a REINDEX, a DROP, and Citus's
 * catalog all reach the relcache), and on every invalidation of the role
 * catalogs (AUTHOID: superuser, BYPASSRLS; AUTHMEMROLEMEM: membership,
 * through which privileges and ownership are held).  It is the one piece of
 * backend-wide state, because invalidation callbacks are: PostgreSQL calls
 * a fixed list of functions registered once per backend, with no way to
 * reach a call site, so each call site compares instead.
 *
 * Locks.  Every call still locks what it reads, as the checks do: the
 * table, then the index named, then the partitions and leaves it passes
 * through (local lock hits after the first call).  Invalidation messages
 * are processed when a lock is first taken, so the generation is compared
 * after the locks: first after those of the index named, then after those
 * of the partitions; when it moved, the entry is built again and the call
 * goes on with it, as the checks would have run.
 *
 *-------------------------------------------------------------------------
 */
#include "bfindex.h"

#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rls.h"
#include "utils/syscache.h"

/*
 * Moves on every invalidation that may change what an entry holds (see
 * above).  The one piece of backend-wide state: PostgreSQL's invalidation
 * callbacks are process-wide, registered once per backend into a fixed
 * list, and cannot reach a call site's fn_extra; each entry compares the
 * generation it was built under instead.
 */
static uint64 site_generation = 0;
static bool site_callbacks_registered = false;

typedef struct BfiSite
{
	bool		valid;			/* the rest describes a built entry */
	uint64		generation;		/* site_generation when it was built */
	Oid			indexoid;		/* the index named */
	Oid			userid;			/* whose checks passed */
	int			sec_context;
	bool		row_security;
	Oid			heapoid;		/* the index's table */
	BfiLeaf    *leaf;			/* the index itself, not partitioned */
	BfiRouteNode *route;		/* or the partitioned index's route */
	BfiTargets	targets;		/* memory (targets.cxt, reset on a build),
								 * and this call's leaves */
} BfiSite;

static void
relcache_changed(Datum arg, Oid relid)
{
	site_generation++;
	bfi_older_forget(relid);
}

static void
syscache_changed(Datum arg, int cacheid, uint32 hashvalue)
{
	site_generation++;
}

/*
 * Called once, when the library is loaded (bloom_ext.c's _PG_init): the
 * library's one relcache callback (it also drops bfi_older.c's copies) and
 * the role catalogs' callbacks
 */
void
bfi_site_init(void)
{
	if (site_callbacks_registered)
		return;
	CacheRegisterRelcacheCallback(relcache_changed, (Datum) 0);
	CacheRegisterSyscacheCallback(AUTHOID, syscache_changed, (Datum) 0);
	CacheRegisterSyscacheCallback(AUTHMEMROLEMEM, syscache_changed, (Datum) 0);
	site_callbacks_registered = true;
}

/* The call site's entry, made on its first call */
static BfiSite *
site_of(FunctionCallInfo fcinfo)
{
	BtCallCache *cache = bt_call_cache(fcinfo);
	BfiSite    *s = (BfiSite *) cache->am;

	if (s != NULL)
		return s;
	s = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(BfiSite));
	s->targets.cxt = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt,
										   "bloomfilter index call site",
										   ALLOCSET_SMALL_SIZES);
	cache->am = s;
	return s;
}

/* Whether the entry was built for index indexoid as the caller is now */
static bool
site_matches(const BfiSite *s, Oid indexoid)
{
	Oid			userid;
	int			sec_context;

	if (!s->valid || s->indexoid != indexoid || s->row_security != row_security)
		return false;
	GetUserIdAndSecContext(&userid, &sec_context);
	return userid == s->userid && sec_context == s->sec_context;
}

/*
 * The call site's leaf when it holds a statement's copy of the index's bits
 * (bfi_read.c) and its entry is good for this call: for indexoid, as the
 * caller is now, nothing invalidated since it was built.  The copy reads
 * no page, so the call takes no lock: the table's and the index's are held
 * since the calls that read the pages, and a lock already held would not
 * process invalidations again.  NULL: go through bfi_site_targets.
 */
BfiLeaf *
bfi_site_copy_leaf(FunctionCallInfo fcinfo, Oid indexoid)
{
	BfiSite    *s = (BfiSite *) bt_call_cache(fcinfo)->am;

	if (s == NULL || s->leaf == NULL || s->leaf->copy == NULL ||
		s->generation != site_generation || !site_matches(s, indexoid))
		return NULL;
	return s->leaf;
}

/* A leaf for index indexoid (of table heapoid, checked), in cxt */
BfiLeaf *
bfi_leaf_new(Oid indexoid, Oid heapoid, MemoryContext cxt)
{
	BfiLeaf    *leaf = MemoryContextAllocZero(cxt, sizeof(BfiLeaf));

	leaf->indexoid = indexoid;
	leaf->heapoid = heapoid;
	return leaf;
}

/* Appends leaf to this call's leaves */
void
bfi_targets_add(BfiTargets *out, BfiLeaf *leaf)
{
	if (out->n == out->max)
	{
		out->max = Max(8, out->max * 2);
		out->leaves = out->leaves == NULL ?
			MemoryContextAlloc(out->cxt, out->max * sizeof(BfiLeaf *)) :
			repalloc(out->leaves, out->max * sizeof(BfiLeaf *));
	}
	out->leaves[out->n++] = leaf;
}

/*
 * Builds the entry for index indexoid with every check of bfi_access.c,
 * whose errors are caller's; it locks the table and the index.  The
 * generation is the one before the locks: an invalidation they process
 * leaves the entry good for this call only.
 */
static void
site_build(BfiSite *s, Oid indexoid, BfiCaller caller)
{
	uint64		generation = site_generation;
	BfiTarget  *t;

	s->valid = false;
	MemoryContextReset(s->targets.cxt);
	s->leaf = NULL;
	s->route = NULL;
	s->targets.leaves = NULL;
	s->targets.n = s->targets.max = 0;
	s->targets.once = false;

	t = bfi_open_checked(indexoid, caller);
	s->indexoid = indexoid;
	s->heapoid = t->heapoid;
	GetUserIdAndSecContext(&s->userid, &s->sec_context);
	s->row_security = row_security;
	if (t->index->rd_rel->relkind == RELKIND_PARTITIONED_INDEX)
		s->route = bfi_route_node(t->index, t->heapoid, &s->targets);
	else
		s->leaf = bfi_leaf_new(indexoid, t->heapoid, s->targets.cxt);
	index_close(t->index, NoLock);
	pfree(t);
	s->generation = generation;
	s->valid = true;
}

/*
 * The leaf indexes a call reads of bloomfilter index indexoid, for caller
 * (whose errors the checks raise), locked, through the call site's entry:
 * for a probe of key (described by ki), the index itself or the partitions
 * the key routes to; every leaf when key is NULL.  *leaves is the call
 * site's array, good until its next call; their pages are read with
 * bfi_index_open_read and bfi_leaf_meta.
 */
int
bfi_site_targets(FunctionCallInfo fcinfo, Oid indexoid, BfiCaller caller,
				 const BloomKeyInfo *ki, const Datum *key, const TimestampTz *since,
				 BfiLeaf ***leaves)
{
	BfiSite    *s = site_of(fcinfo);
	bool		built = false;

	for (;;)
	{
		if (!site_matches(s, indexoid))
		{
			site_build(s, indexoid, caller);
			built = true;
		}
		else
		{
			LockRelationOid(s->heapoid, AccessShareLock);
			LockRelationOid(s->indexoid, AccessShareLock);
			if (s->generation != site_generation)
			{
				s->valid = false;
				continue;
			}
		}

		s->targets.n = 0;
		if (since != NULL && (s->leaf != NULL || !bfi_route_by_time(s->route)))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("bloom_index_contains with a time needs an index of a table partitioned by time"),
					 errdetail("Index \"%s\" is not on a table partitioned by range on one timestamptz, timestamp or date column.",
							   get_rel_name(indexoid)),
					 errhint("Partition the table by range on its time column (each partition a period), or call bloom_index_contains without a time.")));
		if (s->leaf != NULL)
			bfi_targets_add(&s->targets, s->leaf);
		else
			bfi_route_collect(s->route, ki, key, since, &s->targets);

		/*
		 * The partitions' locks may have processed invalidations: an entry
		 * built before them is built again.  One built in this call routed
		 * as the checks would, each partition checked after its lock.
		 */
		if (built || s->generation == site_generation)
			break;
		s->valid = false;
	}
	if (s->generation != site_generation || s->targets.once)
		s->valid = false;		/* good for this call only */
	*leaves = s->targets.leaves;
	return s->targets.n;
}
