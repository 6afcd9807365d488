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
 * A copy belongs to one file of one index (its OID and file number) and one
 * layer table entry (and seed): a REINDEX or TRUNCATE makes a new file, and
 * every relcache invalidation of the index, or of all relations, drops the
 * copies of it.  An index whose file was made in this transaction is not
 * copied (a TRUNCATE of a table made in the same transaction rebuilds it
 * in place).  The copies live in their own memory context under
 * TopMemoryContext, at most bloomtype.layer_cache kilobytes in all (0
 * copies nothing), and are kept across transactions: the backend-wide
 * state this needs is this list, which the relcache callback reaches.
 *
 *-------------------------------------------------------------------------
 */
#include "bfindex.h"

#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/memutils.h"

/* bloomtype.layer_cache: kilobytes of older layers a backend may copy */
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

/* Drops the copies of relid (all of them for InvalidOid) */
static void
older_relcache_changed(Datum arg, Oid relid)
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
		if (e->blocks)
		{
			older_bytes -= (Size) e->layer.nblocks * BLOOM_BLOCK_BYTES;
			pfree(e->blocks);
		}
		pfree(e);
	}
}

/* Called once, when the library is loaded (bloom_ext.c's _PG_init) */
void
bfi_older_init(void)
{
	DefineCustomIntVariable("bloomtype.layer_cache",
							"Memory a backend may use for copies of the older layers of the bloomfilter indexes it writes.",
							"An insert asks the copy, not the pages, whether an older layer holds a key. 0 keeps no copy.",
							&layer_cache_kb,
							32 * 1024, 0, MAX_KILOBYTES,
							PGC_USERSET, GUC_UNIT_KB,
							NULL, NULL, NULL);
	MarkGUCPrefixReserved("bloomtype");
	CacheRegisterRelcacheCallback(older_relcache_changed, (Datum) 0);
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
	else if (e->blocks)
	{
		/* another file or layer table under the same OID and number */
		older_bytes -= (Size) e->layer.nblocks * BLOOM_BLOCK_BYTES;
		pfree(e->blocks);
		e->blocks = NULL;
	}
	e->indexoid = RelationGetRelid(index);
	e->relnumber = BT_REL_FILENUMBER(index);
	e->seed = c->meta.seed;
	e->layerno = i;
	e->layer = *l;
	e->asked = 0;
	return e;
}

/* Copies one page's blocks into the entry's copy */
static void
copy_blocks(const uint8 *blocks, uint32 nblocks, uint64 nitems, uint32 p,
			void *arg)
{
	OlderCopy  *e = (OlderCopy *) arg;

	memcpy(e->blocks + (Size) p * BFI_BLOCKS_PER_PAGE * BLOOM_BLOCK_BYTES,
		   blocks, (Size) nblocks * BLOOM_BLOCK_BYTES);
}

/* Takes the copy of e's layer when it is due and fits */
static void
maybe_copy(Relation index, BfiCache *c, OlderCopy *e)
{
	Size		bytes = (Size) e->layer.nblocks * BLOOM_BLOCK_BYTES;

	if (e->asked < 2 * (uint64) e->layer.npages ||
		older_bytes + bytes > (Size) layer_cache_kb * 1024)
		return;
	/* zeroed: pages the file lacks, or new ones, hold no keys */
	e->blocks = MemoryContextAllocHuge(older_cxt, bytes);
	memset(e->blocks, 0, bytes);
	older_bytes += bytes;
	bfi_scan_layer(index, c, e->layerno, copy_blocks, e);
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
