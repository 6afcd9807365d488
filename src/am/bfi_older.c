/*-------------------------------------------------------------------------
 *
 * bfi_older.c
 *		This backend's copies of the older layers of the bloomfilter
 *		indexes it writes, which an insert asks before it adds a key.
 *
 * An insert drops the keys an older layer may already hold, as a scalable
 * value's add does (bfi_insert.c): a key that is there is not counted
 * again in the newest layer, so a table whose keys repeat (an events table
 * of user ids, UPDATEs that are not HOT) grows its index by its distinct
 * keys.  Asking the pages costs a page read a key and an older layer: most
 * of an insert's cost once an index has grown, for statements of a few
 * hundred rows whose keys fall on as many pages.
 *
 * Older layers change little: a layer gets no new key once a newer one
 * exists, but for the passes of other backends that were under way when
 * it was added.  So after an insert has asked a layer's pages for about
 * twice as many keys as it has pages (the copy then costs at most what the
 * probes did), this backend copies the layer's blocks, each page under its
 * share lock, and asks the copy from then on.  A copy can only lack bits,
 * never hold one the pages do not (bits are only ever set): a key a late
 * pass wrote after the copy is written again into the newest layer, which
 * costs its bits there, never an answer.
 *
 * What keeps a copy from outliving the layer it copied is the relcache
 * invalidation that every rebuild of an index sends (REINDEX, TRUNCATE, a
 * new file or the same file rebuilt in place, as ON COMMIT DELETE ROWS and
 * a TRUNCATE after SET TABLESPACE in one transaction do; index_update_stats
 * always sends one), processed before an insert can ask, since the insert
 * holds a lock on the index that a rebuild by another backend waits for:
 * any invalidation of the index, or of all relations, drops its copies.  A
 * copy also names the file (OID and file number), the seed and its layer's
 * entry of the layer table, and an index whose file was made in this
 * transaction is not copied at all.  The copies live in their own memory
 * context under TopMemoryContext, at most bloomtype.layer_cache kilobytes
 * in all (0 copies nothing; lowered, the copies go at the next insert),
 * and are kept across transactions: the backend-wide state this needs is
 * this list, which the relcache callback reaches.  The first insert past
 * the threshold pays for the copy (a layer's pages, once).
 *
 *-------------------------------------------------------------------------
 */
#include "bfindex.h"

#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/memutils.h"

/*
 * bloomtype.layer_cache: kilobytes of older layers a backend may copy,
 * kept across transactions: superusers only (PGC_SUSET), since a role
 * could otherwise make its backend keep gigabytes
 */
static int	layer_cache_kb = 32 * 1024;

typedef struct OlderCopy
{
	struct OlderCopy *next;
	Oid			indexoid;
	BtRelFileNumber relnumber;
	uint64		seed;
	unsigned	layerno;
	BfiLayer	layer;			/* its entry of the layer table */
	uint64		asked;			/* keys asked of its pages */
	uint8	   *blocks;			/* layer.nblocks blocks once copied */
} OlderCopy;

/*
 * The copies of this backend, in older_cxt, and their bytes.  Backend-wide
 * because the relcache callback that drops them is: PostgreSQL calls a
 * fixed list of functions registered once per backend.
 */
static MemoryContext older_cxt = NULL;
static OlderCopy *older = NULL;
static Size older_bytes = 0;

/* Frees e's copy of its layer, if it has one */
static void
drop_blocks(OlderCopy *e)
{
	if (e->blocks == NULL)
		return;
	older_bytes -= (Size) e->layer.nblocks * BLOOM_BLOCK_BYTES;
	pfree(e->blocks);
	e->blocks = NULL;
}

/* Called once, when the library is loaded (bloom_ext.c's _PG_init) */
void
bfi_older_init(void)
{
	static bool done = false;

	if (done)
		return;
	done = true;
	DefineCustomIntVariable("bloomtype.layer_cache",
							"Memory a backend may use for copies of the older layers of the bloomfilter indexes it writes.",
							"An insert asks the copy, not the pages, whether an older layer holds a key. 0 keeps no copy.",
							&layer_cache_kb,
							32 * 1024, 0, MAX_KILOBYTES,
							PGC_SUSET, GUC_UNIT_KB,
							NULL, NULL, NULL);
	MarkGUCPrefixReserved("bloomtype");
}

/*
 * A relation's relcache entry was invalidated (all of them for InvalidOid):
 * its copies go.  Called by bfi_site.c's relcache callback, the library's
 * one (PostgreSQL has room for ten in a backend, for every library).
 */
void
bfi_older_forget(Oid relid)
{
	OlderCopy **link = &older;

	while (*link != NULL)
	{
		OlderCopy  *e = *link;

		if (relid != InvalidOid && e->indexoid != relid)
		{
			link = &e->next;
			continue;
		}
		*link = e->next;
		drop_blocks(e);
		pfree(e);
	}
}

/* The entry for layer i of index's layer table in c, made when missing */
static OlderCopy *
entry_for(Relation index, const BfiCache *c, unsigned i)
{
	const BfiLayer *l = &c->meta.layers[i];
	OlderCopy  *e;

	for (e = older; e != NULL; e = e->next)
		if (e->indexoid == RelationGetRelid(index) && e->layerno == i)
		{
			if (e->relnumber == BT_REL_FILENUMBER(index) &&
				e->seed == c->meta.seed &&
				memcmp(&e->layer, l, sizeof(BfiLayer)) == 0)
				return e;
			break;
		}
	if (older_cxt == NULL)
		older_cxt = AllocSetContextCreate(TopMemoryContext,
										  "bloomfilter index older layers",
										  ALLOCSET_SMALL_SIZES);
	if (e == NULL)
	{
		e = MemoryContextAllocZero(older_cxt, sizeof(OlderCopy));
		e->next = older;
		older = e;
	}
	else
		drop_blocks(e);			/* another file or layer table, same OID and number */
	e->indexoid = RelationGetRelid(index);
	e->relnumber = BT_REL_FILENUMBER(index);
	e->seed = c->meta.seed;
	e->layerno = i;
	e->layer = *l;
	e->asked = 0;
	return e;
}

/* Copies one page's blocks into a layer's copy (arg) */
static void
copy_blocks(const uint8 *blocks, uint32 nblocks, uint64 nitems, uint32 p,
			void *arg)
{
	uint8	   *copy = (uint8 *) arg;

	memcpy(copy + (Size) p * BFI_BLOCKS_PER_PAGE * BLOOM_BLOCK_BYTES,
		   blocks, (Size) nblocks * BLOOM_BLOCK_BYTES);
}

/*
 * Takes the copy of e's layer when it is due and fits.  The copy is
 * attached only once every page is in it (an error or a cancel part-way
 * frees it), and memory that is not there skips it: the copy is optional,
 * and an insert (a COMMIT, on 15) must not fail for want of one.
 */
static void
maybe_copy(Relation index, BfiCache *c, OlderCopy *e)
{
	Size		bytes = (Size) e->layer.nblocks * BLOOM_BLOCK_BYTES;
	uint8	   *copy;

	if (e->asked < 2 * (uint64) e->layer.npages ||
		older_bytes + bytes > (Size) layer_cache_kb * 1024)
		return;
	/* zeroed: pages the file lacks, or new ones, hold no keys */
	copy = MemoryContextAllocExtended(older_cxt, bytes,
									  MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO |
									  MCXT_ALLOC_NO_OOM);
	if (copy == NULL)
		return;
	PG_TRY();
	{
		bfi_scan_layer(index, c, e->layerno, copy_blocks, copy);
	}
	PG_CATCH();
	{
		pfree(copy);
		PG_RE_THROW();
	}
	PG_END_TRY();
	e->blocks = copy;
	older_bytes += bytes;
}

/*
 * Tests the pending keys (npending indexes into h) against every layer of
 * c but its newest, the oldest first, as bfi_probe_batch does, setting
 * found[] for those a layer may hold; each layer is asked from this
 * backend's copy when it has one.  Returns the number of keys no older
 * layer found, left in pending; order is scratch space.
 */
uint32
bfi_older_probe(Relation index, BfiCache *c, const uint64 *h, bool *found,
				uint32 *pending, uint32 npending, uint32 *order)
{
	bool		cache = layer_cache_kb > 0 &&
		!BT_REL_NEW_FILE_IN_XACT(index);

	/* the setting was lowered: the copies go, and are taken again within it */
	if (older_bytes > (Size) layer_cache_kb * 1024)
		bfi_older_forget(InvalidOid);

	for (unsigned i = 0; i + 1 < c->meta.nlayers && npending > 0; i++)
	{
		const BfiLayer *l = &c->meta.layers[i];
		OlderCopy  *e = cache ? entry_for(index, c, i) : NULL;
		uint32		left = 0;

		if (e == NULL || e->blocks == NULL)
		{
			if (e != NULL)
				e->asked += npending;
			npending = bfi_probe_layer_batch(index, c, i, h, found, pending,
											 npending, order);
			if (e != NULL)
				maybe_copy(index, c, e);
			continue;
		}
		/* the keys' blocks are far apart: ask for them all, then test */
		for (uint32 j = 0; j < npending; j++)
			__builtin_prefetch(e->blocks +
							   bloom_mulhi64(h[pending[j]], l->nblocks) * BLOOM_BLOCK_BYTES);
		for (uint32 j = 0; j < npending; j++)
		{
			uint64		hk = h[pending[j]];
			const uint8 *blk = e->blocks +
				bloom_mulhi64(hk, l->nblocks) * BLOOM_BLOCK_BYTES;

			if (bloom_block_test(blk, l->k, hk))
				found[pending[j]] = true;
			else
				pending[left++] = pending[j];
		}
		npending = left;
	}
	return npending;
}
