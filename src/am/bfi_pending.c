/*-------------------------------------------------------------------------
 *
 * bfi_pending.c
 *		The keys this backend has inserted into bloomfilter indexes and not
 *		yet written: kept per index for the transaction, written in one
 *		pass a page (bfi_insert_keys) instead of one page write a row.
 *
 * When they are written:
 *	- when an index's keys fill their buffer (BFI_PENDING_MAX hashes, 512
 *	  kB: a COPY of any length holds no more);
 *	- at the end of the statement, where PostgreSQL calls aminsertcleanup
 *	  (17 and later: INSERT, COPY, UPDATE, MERGE, logical replication,
 *	  CREATE INDEX CONCURRENTLY's validation);
 *	- before any query of this backend starts (ExecutorStart): a query
 *	  that runs in parallel workers reads the index's pages, which must
 *	  hold this transaction's keys before the workers start;
 *	- before this backend reads the index (bfi_pending_flush_index from
 *	  the read path): the inserting session sees its own uncommitted keys;
 *	- before the transaction commits or prepares (XACT_EVENT_PRE_COMMIT,
 *	  XACT_EVENT_PRE_PREPARE), after the deferred triggers: a committed key
 *	  is in the filter.  The keys' WAL comes before the commit record's, so
 *	  a crash that keeps the commit keeps them, and a standby replays them
 *	  before it sees the commit.
 * A transaction that aborts forgets them (its rows are not there); keys of
 * a subtransaction rolled back may stay, as a row that was inserted and
 * deleted leaves its key: false positives, never false negatives.  An
 * error while writing leaves the keys pending, to be written again (a key
 * whose bits are set writes nothing).
 *
 * This is the backend's one piece of state that outlives a call: pending
 * keys belong to the transaction, not to a statement or a relcache entry
 * (rd_amcache is freed by any invalidation), and PostgreSQL's transaction
 * callbacks and hooks are process-wide.  The list lives in
 * TopTransactionContext and is forgotten when the transaction ends.
 *
 *-------------------------------------------------------------------------
 */
#include "bfindex.h"

#include "access/xact.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/memutils.h"

/* An index's pending keys: seed and file as when they were hashed */
typedef struct BfiPending
{
	struct BfiPending *next;
	Oid			indexoid;
	BtRelFileNumber relnumber;
	uint64		seed;
	uint32		n;
	uint32		cap;
	uint64	   *h;
	uint64		added;			/* keys added in the transaction */
} BfiPending;

static BfiPending *pending = NULL;
static bool callbacks_registered = false;
static ExecutorStart_hook_type prev_executor_start = NULL;

static void flush_all(void);

static void
xact_callback(XactEvent event, void *arg)
{
	switch (event)
	{
		case XACT_EVENT_PRE_COMMIT:
		case XACT_EVENT_PRE_PREPARE:
			flush_all();
			break;
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PREPARE:
		case XACT_EVENT_PARALLEL_COMMIT:
		case XACT_EVENT_PARALLEL_ABORT:
			pending = NULL;		/* its memory goes with the transaction */
			break;
		default:
			break;
	}
}

static void
executor_start(QueryDesc *queryDesc, int eflags)
{
	if (pending != NULL)
		flush_all();
	if (prev_executor_start)
		prev_executor_start(queryDesc, eflags);
	else
		standard_ExecutorStart(queryDesc, eflags);
}

/* Called once, when the library is loaded (bloom_ext.c's _PG_init) */
void
bfi_pending_init(void)
{
	if (callbacks_registered)
		return;
	RegisterXactCallback(xact_callback, NULL);
	prev_executor_start = ExecutorStart_hook;
	ExecutorStart_hook = executor_start;
	callbacks_registered = true;
}

/* Writes e's keys into index, which is e's and open */
static void
flush_entry(Relation index, BfiPending *e)
{
	BfiCache	c;
	BfiCache   *cache;

	if (e->n == 0)
		return;
	/* readers of the index may hold AccessShareLock only */
	LockRelationOid(e->indexoid, RowExclusiveLock);
	c = *bfi_cache(index);
	bfi_meta_for_index(index, &c.meta);
	if (c.meta.seed == e->seed)
		bfi_insert_keys(index, &c, e->h, e->n);
	e->n = 0;
	cache = bfi_cache(index);
	cache->known_nblocks = Max(cache->known_nblocks, c.known_nblocks);
}

/*
 * The entry of index, made when new; keys hashed for another file of it
 * (TRUNCATE, REINDEX or a rewrite in this transaction, which rebuilt it
 * from the table) are dropped
 */
static BfiPending *
entry_for(Relation index)
{
	BfiPending *e;
	BfiMeta		m;

	for (e = pending; e != NULL; e = e->next)
		if (e->indexoid == RelationGetRelid(index))
			break;
	if (e != NULL && e->relnumber == BT_REL_FILENUMBER(index))
		return e;
	bfi_meta_for_index(index, &m);
	if (m.nlayers == 0)
	{
		/* an unlogged index after a crash, reset to its init fork */
		BfiCache	c = *bfi_cache(index);

		bfi_grow(index, &c, 0, true, true);
		bfi_meta_for_index(index, &m);
	}
	if (e == NULL)
	{
		e = MemoryContextAllocZero(TopTransactionContext, sizeof(BfiPending));
		e->indexoid = RelationGetRelid(index);
		e->next = pending;
		pending = e;
	}
	e->relnumber = BT_REL_FILENUMBER(index);
	e->seed = m.seed;
	e->n = 0;
	return e;
}

/* Adds the key of a new row to the index's pending keys */
void
bfi_pending_add(Relation index, Datum key)
{
	BfiPending *e = entry_for(index);
	BloomKeyInfo *ki = bfi_cache(index)->key;
	uint64		h = bloom_key_hash_fast(ki, key, e->seed);

	if (e->n == e->cap)
	{
		if (e->cap == BFI_PENDING_MAX)
			flush_entry(index, e);
		else
		{
			uint32		cap = e->cap == 0 ? 1024 : Min(2 * e->cap, BFI_PENDING_MAX);

			e->h = e->h == NULL ?
				MemoryContextAlloc(TopTransactionContext, sizeof(uint64) * cap) :
				repalloc(e->h, sizeof(uint64) * cap);
			e->cap = cap;
		}
	}
	e->h[e->n++] = h;
	e->added++;
}

/*
 * The keys this backend has added to an index in this transaction: a
 * probe's copy of the index's bits (bfi_read.c) is stale once it grows
 */
uint64
bfi_pending_added(Oid indexoid)
{
	for (BfiPending *e = pending; e != NULL; e = e->next)
		if (e->indexoid == indexoid)
			return e->added;
	return 0;
}

/* Writes this backend's pending keys of index, open, if it has any */
void
bfi_pending_flush_index(Relation index)
{
	for (BfiPending *e = pending; e != NULL; e = e->next)
		if (e->indexoid == RelationGetRelid(index))
		{
			if (e->relnumber == BT_REL_FILENUMBER(index))
				flush_entry(index, e);
			else
				e->n = 0;
			return;
		}
}

/*
 * Drops this backend's pending keys of an index being built (CREATE
 * INDEX, REINDEX, a TRUNCATE in the transaction that made the table, which
 * rebuilds the same file): the build reads the table, this transaction's
 * rows included
 */
void
bfi_pending_forget(Oid indexoid)
{
	for (BfiPending *e = pending; e != NULL; e = e->next)
		if (e->indexoid == indexoid)
			e->n = 0;
}

/*
 * Writes every index's pending keys.  An index dropped since, or given a
 * new file, has none to write.
 */
static void
flush_all(void)
{
	for (BfiPending *e = pending; e != NULL; e = e->next)
	{
		Relation	index;

		if (e->n == 0)
			continue;
		index = try_index_open(e->indexoid, RowExclusiveLock);
		if (index == NULL)
		{
			e->n = 0;
			continue;
		}
		if (e->relnumber == BT_REL_FILENUMBER(index))
			flush_entry(index, e);
		else
			e->n = 0;
		index_close(index, NoLock);
	}
}
