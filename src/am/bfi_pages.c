/*-------------------------------------------------------------------------
 *
 * bfi_pages.c
 *		The pages of a bloomfilter index: the metapage and its cached copy,
 *		data pages made on first use, and growth by a new layer.
 *
 A new layer's pages are added to the file (all zero, not logged) before
 * the metapage names them; a page's first key logs its full image.  So a
 * crash or a standby may lack pages that hold no key yet: readers treat a
 * page past the end of the file, or a new (all-zero) page, as holding no
 * keys, and an insert after a crash extends the file again if it must.
 *
 *-------------------------------------------------------------------------
 */
#include "bfindex.h"

#include "access/generic_xlog.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/memutils.h"
#include "utils/lsyscache.h"

/* The index's cache (rd_amcache), made on first use */
BfiCache *
bfi_cache(Relation index)
{
	BfiCache   *c = (BfiCache *) index->rd_amcache;

	if (c == NULL)
	{
		Oid			typid;

		c = MemoryContextAllocZero(index->rd_indexcxt, sizeof(BfiCache));
		c->key = MemoryContextAlloc(index->rd_indexcxt, sizeof(BloomKeyInfo));
		typid = getBaseType(TupleDescAttr(RelationGetDescr(index), 0)->atttypid);
		bloom_keyinfo_init_type(c->key, bloom_key_enc_for_type(typid), typid,
								index->rd_indexcxt);
		index->rd_amcache = c;
	}
	return c;
}

/*
 * A copy of the index's cache, in CurrentMemoryContext, for a reader that
 * hashes keys while it works: hashing may detoast or call a send function,
 * which may process a relcache invalidation that frees rd_amcache.
 */
BfiCache *
bfi_cache_copy(Relation index)
{
	BfiCache   *c = palloc(sizeof(BfiCache));

	*c = *bfi_cache(index);
	return c;
}

/* Decodes the metapage in page into m, or reports the index corrupted */
void
bfi_meta_from_page(Relation index, Page page, BfiMeta *m)
{
	BfiStatus	st = bfi_meta_decode((const uint8 *) page, m);

	if (st != BFI_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" has an invalid metapage: %s",
						RelationGetRelationName(index), bfi_status_message(st)),
				 errhint("REINDEX the index.")));
}

/* Checks data page p of layer number layer, or reports the index corrupted */
void
bfi_check_data_page(Relation index, Page page, const BfiMeta *m,
					unsigned layer, uint32 p)
{
	if (bfi_data_page_check((const uint8 *) page, &m->layers[layer], layer, p) != BFI_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" has an invalid data page %u",
						RelationGetRelationName(index),
						m->layers[layer].first_blkno + p),
				 errhint("REINDEX the index.")));
}

/* A copy of the index's metapage as it is now */
void
bfi_meta_for_index(Relation index, BfiMeta *m)
{
	Buffer		buf = ReadBuffer(index, BFI_META_BLKNO);

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	bfi_meta_from_page(index, BufferGetPage(buf), m);
	UnlockReleaseBuffer(buf);
}

void
bfi_init_meta_page(Page page, const BfiMeta *m)
{
	BfiOpaque  *o;

	PageInit(page, BLCKSZ, sizeof(BfiOpaque));
	o = bfi_opaque(page);
	o->flags = BFI_PAGE_META;
	o->page_id = BFI_PAGE_ID;
	memcpy(PageGetContents(page), m, sizeof(BfiMeta));
	((PageHeader) page)->pd_lower = BFI_CONTENTS_OFFSET + sizeof(BfiMeta);
}

/* An empty page p of layer number layer: its blocks all zero, below pd_lower */
void
bfi_init_data_page(Page page, const BfiMeta *m, unsigned layer, uint32 p)
{
	BfiOpaque  *o;

	PageInit(page, BLCKSZ, sizeof(BfiOpaque));
	o = bfi_opaque(page);
	o->layer = (uint16) layer;
	o->flags = BFI_PAGE_DATA;
	o->pageno = (uint16) p;
	o->page_id = BFI_PAGE_ID;
	((PageHeader) page)->pd_lower = bfi_page_lower(&m->layers[layer], p);
}

/*
 * Pins page blkno, or returns InvalidBuffer when the file does not have
 * it yet (a page no key has reached).  The file's length is asked again
 * only past the length last seen: files of an index only grow (TRUNCATE
 * makes a new file and a new relcache entry, and with it a new cache).
 */
Buffer
bfi_read_page(Relation index, BfiCache *c, BlockNumber blkno)
{
	if (blkno >= c->known_nblocks)
	{
		c->known_nblocks = RelationGetNumberOfBlocks(index);
		if (blkno >= c->known_nblocks)
			return InvalidBuffer;
	}
	return ReadBuffer(index, blkno);
}

/*
 * Page p of layer i (of the metapage in c), share-locked and checked, with
 * its buffer in *buf for the caller to UnlockReleaseBuffer; NULL, and no
 * buffer held, for a page the file lacks or that no key has written.
 */
Page
bfi_read_data_page(Relation index, BfiCache *c, unsigned i, uint32 p, Buffer *buf)
{
	Page		page;

	*buf = bfi_read_page(index, c, c->meta.layers[i].first_blkno + p);
	if (!BufferIsValid(*buf))
		return NULL;
	LockBuffer(*buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(*buf);
	if (PageIsNew(page))
	{
		UnlockReleaseBuffer(*buf);
		*buf = InvalidBuffer;
		return NULL;
	}
	bfi_check_data_page(index, page, &c->meta, i, p);
	return page;
}

/* Extends the file so that it has page blkno (new pages stay all zero) */
void
bfi_extend_to(Relation index, BfiCache *c, BlockNumber blkno)
{
	BufferAccessStrategy bulk = GetAccessStrategy(BAS_BULKWRITE);

	LockRelationForExtension(index, ExclusiveLock);
	c->known_nblocks = RelationGetNumberOfBlocks(index);
	while (c->known_nblocks <= blkno)
	{
		/* a new layer's pages: through a ring, not all of shared_buffers */
		Buffer		buf = ReadBufferExtended(index, MAIN_FORKNUM, P_NEW,
											 RBM_NORMAL, bulk);

		c->known_nblocks = BufferGetBlockNumber(buf) + 1;
		ReleaseBuffer(buf);
		CHECK_FOR_INTERRUPTS();
	}
	UnlockRelationForExtension(index, ExclusiveLock);
	FreeAccessStrategy(bulk);
}

/* The newest layer of a filter that cannot grow keeps taking keys */
void
bfi_warn_full(Relation index, unsigned nlayers, double fpr)
{
	ereport(WARNING,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("bloomfilter index \"%s\" cannot grow past %u layers; its false-positive rate will rise above %g",
					RelationGetRelationName(index), nlayers, fpr),
			 errhint("REINDEX the index: the build sizes the filter for the rows it finds.")));
}

/*
 * Writes m into the metapage as one generic WAL record, in the current
 * format version (a version 1 metapage is a version 2 one with no full
 * pages counted).  The caller holds the growth lock.
 */
static void
write_meta(Relation index, BfiMeta *m)
{
	Buffer		buf = ReadBuffer(index, BFI_META_BLKNO);
	GenericXLogState *state;
	Page		page;

	m->version = BFI_VERSION;
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	state = GenericXLogStart(index);
	page = GenericXLogRegisterBuffer(state, buf, 0);
	memcpy(PageGetContents(page), m, sizeof(*m));
	GenericXLogFinish(state);
	UnlockReleaseBuffer(buf);
}

/*
 * Adds a layer after the nlayers the caller saw, unless another backend
 * did it first.  The heavyweight lock on the metapage's number is the
 * growth mutex (GIN guards its pending list the same way); inserters that
 * find it taken (wait false) go on adding to the newest layer meanwhile,
 * which overfills it a little and never loses a key.  The new layer's
 * pages are added to the file first (zero pages, not logged: each is
 * logged whole by its first key), so that inserters find them there; then
 * one generic WAL record changes the metapage.  warn: say so when the
 * index cannot grow.
 */
void
bfi_grow(Relation index, BfiCache *c, unsigned nlayers, bool wait, bool warn)
{
	BfiMeta		m;
	BfiStatus	st;

	if (wait)
		LockPage(index, BFI_META_BLKNO, ExclusiveLock);
	else if (!ConditionalLockPage(index, BFI_META_BLKNO, ExclusiveLock))
		return;

	/* only this backend changes the layer table while it holds the lock */
	bfi_meta_for_index(index, &m);
	if (m.nlayers != nlayers)
	{
		UnlockPage(index, BFI_META_BLKNO, ExclusiveLock);
		return;
	}
	st = bfi_add_layer(&m, m.min_capacity);
	if (st != BFI_OK)
	{
		UnlockPage(index, BFI_META_BLKNO, ExclusiveLock);
		if (nlayers == 0)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("index \"%s\" cannot hold its first layer",
							RelationGetRelationName(index))));
		if (warn)
			bfi_warn_full(index, nlayers, m.fpr);
		return;
	}
	bfi_extend_to(index, c, m.next_blkno - 1);
	write_meta(index, &m);
	UnlockPage(index, BFI_META_BLKNO, ExclusiveLock);
}

/*
 * Records in the metapage the rows that a build made on the index's pages
 * (bfi_build.c, paged) scanned: its layers were written meanwhile
 */
void
bfi_set_build_tuples(Relation index, uint64 heap_tuples)
{
	BfiMeta		m;

	LockPage(index, BFI_META_BLKNO, ExclusiveLock);
	bfi_meta_for_index(index, &m);
	m.build_heap_tuples = heap_tuples;
	write_meta(index, &m);
	UnlockPage(index, BFI_META_BLKNO, ExclusiveLock);
}

/*
 * Takes the growth lock and reads the metapage into *m: false (the lock
 * released) when layer is no longer the newest
 */
static bool
lock_newest(Relation index, unsigned layer, BfiMeta *m)
{
	LockPage(index, BFI_META_BLKNO, ExclusiveLock);
	bfi_meta_for_index(index, m);
	if (layer + 1 == m->nlayers)
		return true;
	UnlockPage(index, BFI_META_BLKNO, ExclusiveLock);
	return false;
}

/*
 * Counts nfull more pages of layer that reached their mark (each page
 * once: the writer that made its count equal its mark), under the growth
 * lock, so that a concurrent growth neither loses the count nor is lost.
 * True when the layer is full (bfi_layer_full), or is no longer the newest
 * (the caller's growth then finds the layer added).  A count lost between
 * the page's record and this one (a cancel, an error, a crash) is found
 * again by bfi_recount_full_pages.
 */
bool
bfi_count_full_pages(Relation index, unsigned layer, uint32 nfull)
{
	BfiMeta		m;
	bool		full;

	if (!lock_newest(index, layer, &m))
		return true;
	m.layers[layer].full_pages = Min(m.layers[layer].full_pages + nfull,
									 m.layers[layer].npages);
	write_meta(index, &m);
	full = bfi_layer_full(&m.layers[layer]);
	UnlockPage(index, BFI_META_BLKNO, ExclusiveLock);
	return full;
}

/*
 * Counts again the pages of layer (the newest) that reached their mark,
 * and keeps the larger of that and the metapage's count: the pages other
 * writers filled and have not counted yet, and a count lost before it
 * reached the metapage (bfi_count_full_pages, to a cancel, an error or a
 * crash), which would otherwise keep a layer from ever being full.  A
 * version 1 metapage (1.7: no pages counted) is counted and written as
 * version 2.  The caller asks only as often as it has keys to write (at
 * most a page read a key).  True when the layer is full or no longer the
 * newest.
 */
bool
bfi_recount_full_pages(Relation index, BfiCache *c, unsigned layer)
{
	BfiMeta		m;
	BfiCache	read = *c;
	uint32		nfull = 0;
	bool		full;

	if (!lock_newest(index, layer, &m))
		return true;
	read.meta = m;
	for (uint32 p = 0; p < m.layers[layer].npages; p++)
	{
		Buffer		buf;
		Page		page = bfi_read_data_page(index, &read, layer, p, &buf);

		if (page != NULL)
		{
			if (bfi_opaque(page)->nitems >= bfi_page_mark(&m.layers[layer], p))
				nfull++;
			UnlockReleaseBuffer(buf);
		}
		CHECK_FOR_INTERRUPTS();	/* no buffer lock held: it can act */
	}
	if (nfull > m.layers[layer].full_pages || m.version != BFI_VERSION)
	{
		m.layers[layer].full_pages = nfull;
		write_meta(index, &m);
	}
	full = bfi_layer_full(&m.layers[layer]);
	UnlockPage(index, BFI_META_BLKNO, ExclusiveLock);
	return full;
}
