/*-------------------------------------------------------------------------
 *
 * bfi_insert.c
 *		Adding a key to a bloomfilter index.
 *
 * An insert changes one data page, under generic WAL: the k bits of the
 * key in one 64-byte block, and the page's count of keys (a delta of a few
 * dozen bytes; a key whose bits are all set writes nothing).  It takes a
 * share lock on the metapage, to see the newest layer, and an exclusive
 * lock on its one data page: writers wait only for writers of the same
 * page, as in any index.  As in a scalable value, a key that an older
 * layer may hold is not added again (bfi_read.c asks the layers).  When
 * the page's count reaches its share of the layer's capacity, the inserter
 * adds a layer (bfi_pages.c).
 *
 *-------------------------------------------------------------------------
 */
#include "bfindex.h"

#include "access/generic_xlog.h"

bool
bfi_insert(Relation index, Datum *values, bool *isnull, ItemPointer ht_ctid,
		   Relation heapRel, IndexUniqueCheck checkUnique, bool indexUnchanged,
		   IndexInfo *indexInfo)
{
	BfiCache	c;
	const BfiLayer *l;
	unsigned	n;
	uint64		h;
	uint32		blkno;
	uint32		off;
	uint32		p;
	uint64		nitems;
	uint64		share;
	Buffer		buf;
	Page		page;
	bool		isnew;
	GenericXLogState *state;

	/*
	 * NULLs are not keys.  The executor's indexUnchanged hint is not used:
	 * it is a guess from the UPDATE's SET list (a trigger may change the
	 * key, and it ignores a partial index's predicate), and a key whose
	 * bits are set costs a page read and writes nothing anyway.
	 */
	if (isnull[0])
		return false;

	/*
	 * Work on a copy of the index's cache: hashing may detoast or call a
	 * send function, which may process a relcache invalidation that frees
	 * rd_amcache.
	 */
	c = *bfi_cache(index);
	bfi_meta_for_index(index, &c.meta);
	if (c.meta.nlayers == 0)
	{
		/* an unlogged index after a crash, reset to its init fork */
		bfi_grow(index, &c, 0, true, true);
		bfi_meta_for_index(index, &c.meta);
	}
	h = bloom_key_hash_fast(c.key, values[0], c.meta.seed);

	n = c.meta.nlayers - 1;
	for (unsigned i = 0; i < n; i++)
		if (bfi_probe_layer(index, &c, i, h))
			goto done;

	l = &c.meta.layers[n];
	bfi_locate(l, h, &blkno, &off);
	p = blkno - l->first_blkno;
	buf = bfi_read_page(index, &c, blkno);
	if (!BufferIsValid(buf))
	{
		/* after a crash: the file may lack pages a layer was given */
		bfi_extend_to(index, &c, blkno);
		buf = ReadBuffer(index, blkno);
	}
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	page = BufferGetPage(buf);
	isnew = PageIsNew(page);
	if (!isnew)
	{
		bfi_check_data_page(index, page, &c.meta, n, p);
		if (bloom_block_test((const uint8 *) page + off, l->k, h))
		{
			UnlockReleaseBuffer(buf);
			goto done;
		}
	}

	/*
	 * A page's first write logs its whole image: a standby or a crash may
	 * not have the page at all (extension is not logged), and a delta
	 * cannot be replayed onto a page that is not there.
	 */
	state = GenericXLogStart(index);
	page = GenericXLogRegisterBuffer(state, buf, isnew ? GENERIC_XLOG_FULL_IMAGE : 0);
	if (isnew)
		bfi_init_data_page(page, &c.meta, n, p);
	bloom_block_set((uint8 *) page + off, l->k, h);
	nitems = ++bfi_opaque(page)->nitems;
	GenericXLogFinish(state);
	UnlockReleaseBuffer(buf);

	share = bfi_page_share(l, p);
	if (nitems >= share)
	{
		if (n + 1 < BFI_MAX_LAYERS)
			bfi_grow(index, &c, n + 1, false, nitems == share);
		else if (nitems == share)
			bfi_warn_full(index, BFI_MAX_LAYERS, c.meta.fpr);
	}

done:
	{
		/* what the file has, for the next insert (the cache may be new) */
		BfiCache   *cache = bfi_cache(index);

		cache->known_nblocks = Max(cache->known_nblocks, c.known_nblocks);
	}
	return false;
}
