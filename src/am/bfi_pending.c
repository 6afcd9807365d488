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
 *	- before a query that may run parallel workers starts (ExecutorStart):
 *	  the workers read the index's pages, which must hold this
 *	  transaction's keys before they start;
 *	- before this backend reads the index (bfi_pending_flush_index from
 *	  the read path): the inserting session sees its own uncommitted keys;
 *	- before a utility command (ProcessUtility, but COMMIT, ROLLBACK and
 *	  the like): a TRUNCATE, REINDEX or SET TABLESPACE gives the index
 *	  another file, and each key belongs in the file it was hashed for;
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
#include "tcop/utility.h"
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
static ProcessUtility_hook_type prev_process_utility = NULL;

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

/*
 * A query that may run parallel workers: they read the index's pages,
 * which must hold this transaction's keys before they start (the leader's
 * own reads write them first, in bfi_index_open_read)
 */
static void
executor_start(QueryDesc *queryDesc, int eflags)
{
	if (pending != NULL && queryDesc->plannedstmt->parallelModeNeeded)
		flush_all();
	if (prev_executor_start)
		prev_executor_start(queryDesc, eflags);
	else
		standard_ExecutorStart(queryDesc, eflags);
}

/*
 * A utility command (but transaction control, whose ends have their own
 * callback): the keys go into the index's file before the command may
 * give it another one (TRUNCATE, REINDEX, ALTER ... SET TABLESPACE, a
 * rewrite), so that each key is written into the file it was hashed for,
 * and a rollback to a savepoint that brings the file back finds it there
 */
static void
process_utility(PlannedStmt *pstmt, const char *queryString, bool readOnlyTree,
				ProcessUtilityContext context, ParamListInfo params,
				QueryEnvironment *queryEnv, DestReceiver *dest, QueryCompletion *qc)
{
	if (pending != NULL && !IsA(pstmt->utilityStmt, TransactionStmt))
		flush_all();
	if (prev_process_utility)
		prev_process_utility(pstmt, queryString, readOnlyTree, context, params,
							 queryEnv, dest, qc);
	else
		standard_ProcessUtility(pstmt, queryString, readOnlyTree, context, params,
								queryEnv, dest, qc);
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
	prev_process_utility = ProcessUtility_hook;
	ProcessUtility_hook = process_utility;
	callbacks_registered = true;
}

/*
 * Writes e's keys into index (open), into the file it has now: keys are
 * never dropped because the index got another file in the transaction.
 * ALTER INDEX ... SET TABLESPACE copies the file, which lacks them; a
 * TRUNCATE or REINDEX rolled back to a savepoint brings back the file they
 * were hashed for; after a rebuild that stands they are false positives
 * at worst.  A file with another seed was made by a build (each build of
 * an index without a seed option draws a new one): the build read every
 * row this transaction can see, its rows' keys among them, or the rows are
 * gone (TRUNCATE); the hashes, of no use with another seed, are forgotten.
 * bfi_insert_keys works on a copy: an error part-way (a cancel, a full
 * disk) leaves every key pending, to be written again.
 */
static void
flush_entry(Relation index, BfiPending *e)
{
	BfiCache	c;
	BfiCache   *cache;
	uint64	   *h;

	if (e->n == 0)
		return;
	/* readers of the index may hold AccessShareLock only */
	LockRelationOid(e->indexoid, RowExclusiveLock);
	c = *bfi_cache(index);
	bfi_meta_for_index(index, &c.meta);
	if (c.meta.seed != e->seed)
	{
		/* and the keys to come are hashed with the file's seed */
		e->n = 0;
		e->relnumber = BT_REL_FILENUMBER(index);
		e->seed = c.meta.seed;
		return;
	}
	h = palloc(sizeof(uint64) * e->n);
	memcpy(h, e->h, sizeof(uint64) * e->n);
	bfi_insert_keys(index, &c, h, e->n);
	pfree(h);
	e->n = 0;
	e->relnumber = BT_REL_FILENUMBER(index);
	cache = bfi_cache(index);
	cache->known_nblocks = Max(cache->known_nblocks, c.known_nblocks);
}

/*
 * The entry of index, made when new.  Keys hashed while the index had
 * another file are written into the one it has now first.
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
	if (e != NULL)
		flush_entry(index, e);
	/* the seed (an unlogged index reset by a crash gets its first layer when written) */
	bfi_meta_for_index(index, &m);
	if (e == NULL)
	{
		e = MemoryContextAllocZero(TopTransactionContext, sizeof(BfiPending));
		e->indexoid = RelationGetRelid(index);
		e->next = pending;
		pending = e;
	}
	e->relnumber = BT_REL_FILENUMBER(index);
	e->seed = m.seed;
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
			flush_entry(index, e);
			return;
		}
}

/*
 * Drops this backend's pending keys of an index rebuilt in place: a
 * TRUNCATE of a table made in the current subtransaction truncates the
 * same file and builds the index again from the table (its rows, this
 * transaction's included).  A rollback of that subtransaction drops the
 * table too, so the keys are needed nowhere.  A build into a new file
 * (CREATE, REINDEX, any other TRUNCATE or rewrite) leaves them pending: a
 * rollback to a savepoint may bring back the file that lacks them.  The
 * build in place draws a new seed: the entry's seed is read again (from
 * the new metapage) by the next key, as for a new file.
 */
void
bfi_pending_forget(Relation index)
{
	for (BfiPending *e = pending; e != NULL; e = e->next)
		if (e->indexoid == RelationGetRelid(index) &&
			e->relnumber == BT_REL_FILENUMBER(index))
		{
			e->n = 0;
			e->relnumber = InvalidOid;
		}
}

/*
 * Writes every index's pending keys.  An index dropped since (or by a
 * rollback to a savepoint) has none to write.
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
		flush_entry(index, e);
		index_close(index, NoLock);
	}
}
