/*-------------------------------------------------------------------------
 *
 * bfi_read.c
 *		Reading a bloomfilter index's pages: its metapage checked for a
 *		probe, the lookup of hashes in its layers (one key, or a batch
 *		grouped by page), the snapshot of the index as a scalable value,
 *		and the sums over a layer's pages that bloom_index_info reports.
 *
 * A probe reads the metapage and one page a layer, the oldest layer first,
 * and stops at the first that may hold the key, as a scalable value is
 * asked.  A batch probe groups its keys by page, layer by layer, so that
 * each page is pinned and locked once however many keys fall on it.  The
 * answer includes the keys of rows deleted, updated away, or written by
 * transactions that aborted or are still running: false positives, never
 * false negatives.  The SQL functions of bfi_funcs.c call these for each
 * index bfi_access.c opened, or a call site keeps (bfi_site.c: its
 * metapage is read every call and decoded again only when it changed); an
 * insert (bfi_insert.c) asks the older layers with bfi_probe_layer_batch
 * (through bfi_older.c, which keeps copies) before it adds a key.
 *
 *-------------------------------------------------------------------------
 */
#include "bfindex.h"

#include "access/xact.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

/* Checks that a probe of ki's type may be asked of the index's keys */
static void
check_probe(const BfiMeta *m, const BloomKeyInfo *ki)
{
	/* class "other": the same type (by OID: renaming it changes its tag) */
	if (m->key_class == BLOOM_KEY_OTHER && ki->key_class == BLOOM_KEY_OTHER)
	{
		if (ki->typid != m->key_typid)
			bloom_key_mismatch(m->key_class, m->key_typid, ki, false);
		return;
	}
	bloom_check_key(m->key_class, m->key_type, ki, false);
}

/*
 * Reads target t's metapage into a copy of its cache (see bfi_cache_copy),
 * checked for probes of ki (none when ki is NULL)
 */
BfiCache *
bfi_target_meta(BfiTarget *t, const BloomKeyInfo *ki)
{
	BfiCache   *c = bfi_cache_copy(t->index);

	bfi_meta_for_index(t->index, &c->meta);
	if (ki)
		check_probe(&c->meta, ki);
	return c;
}

/*
 * The bytes of the metapage contents that say what m says: its fields and
 * its first nlayers layers.  The rest of the layer table is zero in any
 * metapage that decoded (bfi_meta_check), and only a new layer (bfi_grow)
 * or a build writes it, each changing nlayers or the generation too.
 */
static inline size_t
meta_used(const BfiMeta *m)
{
	return offsetof(BfiMeta, layers) + (size_t) m->nlayers * sizeof(BfiLayer);
}

/*
 * The metapage of leaf (its index open as index), checked for probes of ki
 * (none when NULL), as a call site keeps it (bfi_site.c).  The page is read
 * on every call, as a new layer appears there, but it is decoded and
 * checked again only when its bytes differ from those decoded last (read
 * under the share lock).  Then the file's length is asked again too, on
 * its next use: the file grew with the new layer, or was made anew by a
 * build (a REINDEX also changes the relcache, and with it the call site's
 * cache; a TRUNCATE of a table made in the same transaction rebuilds the
 * index in place, with a new metapage).  Between those changes no probe
 * asks the file's length (an lseek) for pages it has seen.
 */
BfiCache *
bfi_leaf_meta(Relation index, BfiLeaf *leaf, const BloomKeyInfo *ki)
{
	Buffer		buf = ReadBuffer(index, BFI_META_BLKNO);
	Page		page;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	if (!leaf->have_meta ||
		memcmp(PageGetContents(page), &leaf->cache.meta,
			   meta_used(&leaf->cache.meta)) != 0)
	{
		leaf->have_meta = false;
		leaf->probe_checked = false;
		bfi_meta_from_page(index, page, &leaf->cache.meta);
		leaf->cache.known_nblocks = 0;
		leaf->have_meta = true;
	}
	UnlockReleaseBuffer(buf);
	if (ki && !leaf->probe_checked)
	{
		check_probe(&leaf->cache.meta, ki);
		leaf->probe_checked = true;
	}
	return &leaf->cache;
}

/* Whether layer i of the cached metapage may hold h (reads one page) */
bool
bfi_probe_layer(Relation index, BfiCache *c, unsigned i, uint64 h)
{
	const BfiLayer *l = &c->meta.layers[i];
	uint32		blkno;
	uint32		off;
	Buffer		buf;
	Page		page;
	bool		found;

	bfi_locate(l, h, &blkno, &off);
	page = bfi_read_data_page(index, c, i, blkno - l->first_blkno, &buf);
	if (page == NULL)
		return false;
	found = bloom_block_test((const uint8 *) page + off, l->k, h);
	UnlockReleaseBuffer(buf);
	return found;
}

/*
 * Whether the index may hold hash h, for the metapage in c (read by the
 * caller): the oldest layer first, as a scalable value is asked.
 */
bool
bfi_probe_hash(Relation index, BfiCache *c, uint64 h)
{
	for (unsigned i = 0; i < c->meta.nlayers; i++)
		if (bfi_probe_layer(index, c, i, h))
			return true;
	return false;
}

/*
 * A statement's copy of a leaf's bits.  A query that probes an index once
 * a row (a join pre-filter, a scan of requests) pays for each probe what
 * the stored-value probe does not: a pin and a lock of the metapage and of
 * a data page a layer.  After BFI_COPY_AFTER probes under one snapshot, a
 * call site copies the index's bits (bfi_snapshot: what bloom_index_filter
 * returns) when they fit in work_mem, and answers the statement's further
 * probes from the copy.  The copy holds every key written when it was
 * taken, so every key of a row the snapshot sees (committed before it, or
 * this transaction's from earlier commands, written before any read); a
 * key committed later by another transaction belongs to a row the
 * statement does not see, as a btree lookup under the same snapshot would
 * not find it.  It is dropped when the active snapshot changes (a new
 * statement, a new command of the transaction, a transaction that
 * completed since: same_snapshot), when the call site's
 * entry is rebuilt (an invalidation), and when this backend adds keys to
 * the index: a statement that both inserts and probes, which must see its
 * own rows' keys as the pages have them, reads the pages from then on.
 */
/*
 * Whether snap sees what the snapshot the leaf counted probes under saw:
 * the same transaction, command, horizon and running transactions (a new
 * snapshot with the same xmin and xmax may see a transaction that was
 * running before)
 */
static bool
same_snapshot(const BfiLeaf *leaf, Snapshot snap)
{
	if (leaf->copy_xmin != snap->xmin || leaf->copy_xmax != snap->xmax ||
		leaf->copy_cid != snap->curcid || leaf->copy_xcnt != snap->xcnt ||
		leaf->copy_subxcnt != snap->subxcnt ||
		leaf->copy_suboverflowed != snap->suboverflowed ||
		leaf->copy_xact != GetCurrentTransactionStartTimestamp())
		return false;
	/* most snapshots see few running transactions: compared in line */
	for (uint32 i = 0; i < snap->xcnt; i++)
		if (leaf->copy_xip[i] != snap->xip[i])
			return false;
	for (int32 i = 0; i < snap->subxcnt; i++)
		if (leaf->copy_xip[snap->xcnt + i] != snap->subxip[i])
			return false;
	return true;
}

/* Remembers snap as the one the leaf counts probes under */
static void
remember_snapshot(BfiLeaf *leaf, Snapshot snap)
{
	uint32		need = snap->xcnt + Max(snap->subxcnt, 0);

	if (leaf->copy_xip == NULL || need > leaf->copy_xip_max)
	{
		if (leaf->copy_xip)
			pfree(leaf->copy_xip);
		leaf->copy_xip_max = Max(need, 16);
		leaf->copy_xip = MemoryContextAlloc(GetMemoryChunkContext(leaf),
											sizeof(TransactionId) * leaf->copy_xip_max);
	}
	memcpy(leaf->copy_xip, snap->xip, sizeof(TransactionId) * snap->xcnt);
	if (snap->subxcnt > 0)
		memcpy(leaf->copy_xip + snap->xcnt, snap->subxip,
			   sizeof(TransactionId) * snap->subxcnt);
	leaf->copy_xact = GetCurrentTransactionStartTimestamp();
	leaf->copy_xmin = snap->xmin;
	leaf->copy_xmax = snap->xmax;
	leaf->copy_cid = snap->curcid;
	leaf->copy_xcnt = snap->xcnt;
	leaf->copy_subxcnt = snap->subxcnt;
	leaf->copy_suboverflowed = snap->suboverflowed;
	leaf->probes = 0;
}

static bool
copy_matches(const BfiLeaf *leaf)
{
	Snapshot	snap;

	if (!ActiveSnapshotSet())
		return false;
	snap = GetActiveSnapshot();
	return same_snapshot(leaf, snap) &&
		leaf->copy_writes == bfi_pending_added(leaf->indexoid);
}

/* The leaf's copy, decoded, while it is good; NULL to read the pages */
const BloomFilter *
bfi_leaf_copy(BfiLeaf *leaf)
{
	if (leaf->copy == NULL)
		return NULL;
	if (copy_matches(leaf))
		return &leaf->copy_f;
	if (leaf->copy_writes != bfi_pending_added(leaf->indexoid))
		leaf->no_copy = true;
	pfree(leaf->copy);
	leaf->copy = NULL;
	leaf->probes = 0;
	return NULL;
}

/*
 * Counts a probe of the pages of leaf (index, open); the BFI_COPY_AFTER-th
 * under one snapshot takes the copy, when the bits fit in work_mem
 */
void
bfi_leaf_count_probe(BfiLeaf *leaf, Relation index)
{
	Snapshot	snap;
	uint64		blocks = 0;
	BfiTarget	t;
	MemoryContext old;

	if (leaf->no_copy || !ActiveSnapshotSet())
		return;
	snap = GetActiveSnapshot();
	/* a new snapshot: count its probes from here */
	if (leaf->probes == 0 || !same_snapshot(leaf, snap))
		remember_snapshot(leaf, snap);
	if (++leaf->probes != BFI_COPY_AFTER)
		return;
	for (unsigned i = 0; i < leaf->cache.meta.nlayers; i++)
		blocks += leaf->cache.meta.layers[i].nblocks;
	/* what fits in work_mem, and in a value (bfi_snapshot's limit) */
	if (blocks * BLOOM_BLOCK_BYTES > (uint64) work_mem * 1024 ||
		blocks * BLOOM_BLOCK_BYTES + 64 * 1024 > BLOOM_MAX_BYTES)
		return;
	t.indexoid = leaf->indexoid;
	t.heapoid = leaf->heapoid;
	t.index = index;
	leaf->copy_writes = bfi_pending_added(leaf->indexoid);
	old = MemoryContextSwitchTo(GetMemoryChunkContext(leaf));
	leaf->copy = bfi_snapshot(&t, &leaf->copy_f);
	MemoryContextSwitchTo(old);
}

/*
 * Tests the pending keys (indexes into h, found) against layer i: the
 * keys are grouped by page with a counting sort, and each page is read
 * once.  Returns the number of keys still pending, compacted in place.
 */
uint32
bfi_probe_layer_batch(Relation index, BfiCache *c, unsigned i, const uint64 *h,
					  bool *found, uint32 *pending, uint32 npending, uint32 *order)
{
	const BfiLayer *l = &c->meta.layers[i];
	uint32	   *start = palloc0_array(uint32, l->npages + 1);
	uint32		left = 0;

	for (uint32 j = 0; j < npending; j++)
		start[bloom_mulhi64(h[pending[j]], l->nblocks) / BFI_BLOCKS_PER_PAGE + 1]++;
	for (uint32 p = 0; p < l->npages; p++)
		start[p + 1] += start[p];
	for (uint32 j = 0; j < npending; j++)
		order[start[bloom_mulhi64(h[pending[j]], l->nblocks) / BFI_BLOCKS_PER_PAGE]++] =
			pending[j];

	/* start[p] is now the end of page p's keys */
	for (uint32 p = 0, j = 0; p < l->npages; p++)
	{
		uint32		end = start[p];
		Buffer		buf;
		Page		page;

		if (j == end)
			continue;
		page = bfi_read_data_page(index, c, i, p, &buf);
		for (; j < end; j++)
		{
			uint32		key = order[j];
			uint32		blkno;
			uint32		off;

			bfi_locate(l, h[key], &blkno, &off);
			if (page && bloom_block_test((const uint8 *) page + off, l->k, h[key]))
				found[key] = true;
			else
				pending[left++] = key;
		}
		if (page)
			UnlockReleaseBuffer(buf);
		CHECK_FOR_INTERRUPTS();
	}
	pfree(start);
	return left;
}

/*
 * Tests the pending keys (npending indexes into h and found) against the
 * layers of the metapage in c, the oldest first, setting found[] for those
 * a layer may hold; order is scratch space of npending entries.  A layer
 * asks only the keys the older layers did not find; pending is left with
 * the keys no layer found.
 */
void
bfi_probe_batch(Relation index, BfiCache *c, const uint64 *h, bool *found,
				uint32 *pending, uint32 npending, uint32 *order)
{
	for (unsigned i = 0; i < c->meta.nlayers && npending > 0; i++)
		npending = bfi_probe_layer_batch(index, c, i, h, found, pending,
										 npending, order);
}

/*
 * Calls fn for each page of layer i that holds bits (each under its share
 * lock): its blocks, their number and the page's count.  Pages the file
 * lacks and new pages hold no keys and are skipped.
 */
void
bfi_scan_layer(Relation index, BfiCache *c, unsigned i, BfiPageFn fn, void *arg)
{
	const BfiLayer *l = &c->meta.layers[i];

	for (uint32 p = 0; p < l->npages; p++)
	{
		Buffer		buf;
		Page		page = bfi_read_data_page(index, c, i, p, &buf);

		if (page)
		{
			fn((const uint8 *) page + BFI_DATA_OFFSET, bfi_page_blocks(l, p),
			   bfi_opaque(page)->nitems, p, arg);
			UnlockReleaseBuffer(buf);
		}
		CHECK_FOR_INTERRUPTS();
	}
}

/* Copies a page's blocks into a layer of a value */
static void
copy_page(const uint8 *blocks, uint32 nblocks, uint64 nitems, uint32 p, void *arg)
{
	BloomLayer *l = (BloomLayer *) arg;

	memcpy(l->data + (Size) p * BFI_BLOCKS_PER_PAGE * BLOOM_BLOCK_BYTES, blocks,
		   (Size) nblocks * BLOOM_BLOCK_BYTES);
	l->nitems += nitems;
}

/*
 * The index of target t as a scalable value, in CurrentMemoryContext; *f
 * is left decoded over it
 */
struct varlena *
bfi_snapshot(BfiTarget *t, BloomFilter *f)
{
	BfiCache   *c = bfi_target_meta(t, NULL);
	BfiMeta		m = c->meta;
	BloomLayer	layers[BFI_MAX_LAYERS];
	uint64		total = 0;
	size_t		size;
	struct varlena *v;

	/* an unlogged index reset by a crash has no layer yet: an empty one */
	if (m.nlayers == 0 && bfi_add_layer(&m, m.min_capacity) != BFI_OK)
		elog(ERROR, "cannot plan the first layer of index \"%s\"",
			 RelationGetRelationName(t->index));
	for (unsigned i = 0; i < m.nlayers; i++)
	{
		/* items counted below, from the pages */
		bfi_layer_view(&m.layers[i], 0, NULL, &layers[i]);
		total += m.layers[i].nblocks;
	}
	size = bloom_scalable_size(m.nlayers, total);
	if (size > BLOOM_MAX_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("index \"%s\" is too large for a bloomfilter value",
						RelationGetRelationName(t->index)),
				 errdetail("Its filter takes %zu bytes; a value holds at most %zu.",
						   size, (size_t) BLOOM_MAX_BYTES),
				 errhint("Ask the index itself with bloom_index_contains().")));
	v = bt_new_varlena(size, CurrentMemoryContext);
	bloom_scalable_assemble(BT_DATA(v), layers, m.nlayers, m.fpr, m.expansion,
							m.seed, f);
	for (unsigned i = 0; i < c->meta.nlayers; i++)
		bfi_scan_layer(t->index, c, i, copy_page, &f->layers[i]);
	f->nitems = 0;
	for (unsigned i = 0; i < m.nlayers; i++)
		f->nitems = bloom_sat_add(f->nitems, f->layers[i].nitems);
	bloom_store_key_class(f, m.key_class, m.key_type);
	bloom_write_header(f);
	if (bloom_decode(BT_DATA(v), size, f) != BLOOM_OK)
		elog(ERROR, "snapshot of index \"%s\" does not decode",
			 RelationGetRelationName(t->index));
	return v;
}

/* What stat_page sums over the pages of one layer */
typedef struct LayerScan
{
	const BfiLayer *layer;
	BfiLayerStats *stats;
} LayerScan;

static void
stat_page(const uint8 *blocks, uint32 nblocks, uint64 nitems, uint32 p, void *arg)
{
	LayerScan  *s = (LayerScan *) arg;
	BloomLayer	view;

	bfi_layer_view(s->layer, nitems, (uint8 *) blocks, &view);
	view.nblocks = nblocks;
	s->stats->items += nitems;
	s->stats->bits_set += bloom_layer_bits_set(&view, &bt_cancel);
	s->stats->fpr_sum += bloom_layer_estimate_fpr(&view, &bt_cancel) * nblocks;
}

/* Sums over the pages of layer i of the metapage in c, into *stats (zeroed) */
void
bfi_layer_stats(Relation index, BfiCache *c, unsigned i, BfiLayerStats *stats)
{
	LayerScan	s = {&c->meta.layers[i], stats};

	memset(stats, 0, sizeof(*stats));
	bfi_scan_layer(index, c, i, stat_page, &s);
}
