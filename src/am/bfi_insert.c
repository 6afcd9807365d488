/*-------------------------------------------------------------------------
 *
 * bfi_insert.c
 *		Adding keys to a bloomfilter index.
 *
 * aminsert hashes the row's key and keeps the hash in this backend's
 * pending keys of the index (bfi_pending.c), which are written at the
 * latest before the transaction commits or prepares, before a query of
 * this backend starts or reads the index, at the end of the statement
 * (PostgreSQL 17 and later), and when the pending keys fill their buffer.
 *
 * Writing keys (bfi_insert_keys) goes page by page: the keys an older
 * layer may hold already are dropped (as a scalable value adds a key only
 * to its newest layer, and only when no layer may hold it), the rest are
 * sorted by their page of the newest layer, and each page is locked once,
 * its keys' bits set and the change logged as one record (bfi_wal.c).  A
 * page whose count reaches its share of the layer's capacity is counted in
 * the metapage; when half the layer's pages have (bfi_layer_full), the
 * writer adds a layer (bfi_pages.c) and writes the keys left to it, and
 * until then full pages take their keys on (one page never makes the index
 * grow: keys chosen to fall on it only fill it).  Writers
 * wait only for writers of the same page, one page at a time, in the
 * order of the pages, as in any index.
 *
 *-------------------------------------------------------------------------
 */
#include "bfindex.h"

#include "miscadmin.h"

/* A key and its place (page, block offset) on the newest layer */
typedef struct KeySlot
{
	uint32		blkno;
	uint32		off;
	uint64		h;
} KeySlot;

/*
 * The n keys h as slots sorted by their page of layer l: a counting sort,
 * stable, so that within a page the keys keep the order they came in (a
 * page that reaches its share takes the first of its keys, spread over its
 * blocks as they fall, not the lowest hashes)
 */
static void
sort_by_page(const BfiLayer *l, const uint64 *h, uint32 n, KeySlot *slots)
{
	uint32	   *start = palloc0(sizeof(uint32) * (l->npages + 1));

	for (uint32 j = 0; j < n; j++)
		start[bloom_mulhi64(h[j], l->nblocks) / BFI_BLOCKS_PER_PAGE + 1]++;
	for (uint32 p = 0; p < l->npages; p++)
		start[p + 1] += start[p];
	for (uint32 j = 0; j < n; j++)
	{
		uint32		blkno;
		uint32		off;
		KeySlot    *s;

		bfi_locate(l, h[j], &blkno, &off);
		s = &slots[start[blkno - l->first_blkno]++];
		s->blkno = blkno;
		s->off = off;
		s->h = h[j];
	}
	pfree(start);
}

/*
 * Keeps in h (of *n) the keys that no layer before the newest of c's
 * metapage may hold
 */
static void
drop_older(Relation index, BfiCache *c, uint64 *h, uint32 *n)
{
	bool	   *found;
	uint32	   *pending;
	uint32	   *order;
	uint32		kept = 0;

	if (c->meta.nlayers <= 1 || *n == 0)
		return;
	found = palloc0(sizeof(bool) * *n);
	pending = palloc(sizeof(uint32) * *n);
	order = palloc(sizeof(uint32) * *n);
	for (uint32 i = 0; i < *n; i++)
		pending[i] = i;
	bfi_older_probe(index, c, h, found, pending, *n, order);
	for (uint32 i = 0; i < *n; i++)
		if (!found[i])
			h[kept++] = h[i];
	*n = kept;
	pfree(found);
	pfree(pending);
	pfree(order);
}

/*
 * The buffer of page blkno (pinned already in buf, or InvalidBuffer),
 * exclusively locked; a page past the file's end is added
 */
static Buffer
lock_page(Relation index, BfiCache *c, BlockNumber blkno, Buffer buf)
{
	if (!BufferIsValid(buf))
		buf = bfi_read_page(index, c, blkno);
	if (!BufferIsValid(buf))
	{
		/* after a crash: the file may lack pages a layer was given */
		bfi_extend_to(index, c, blkno);
		buf = ReadBuffer(index, blkno);
	}
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	return buf;
}

/*
 * Pins the page of the keys slots[from..] (when the file has it) and asks
 * the CPU for the lines a write will read: the page's header, its special
 * space and the keys' blocks.  Keys fall on pages far apart, each line a
 * miss: asked while the page before is written, they arrive meanwhile.
 */
static Buffer
pin_ahead(Relation index, BfiCache *c, const KeySlot *slots, uint32 from,
		  uint32 n)
{
	Buffer		buf = bfi_read_page(index, c, slots[from].blkno);
	const char *page;

	if (!BufferIsValid(buf))
		return InvalidBuffer;
	page = BufferGetPage(buf);
	__builtin_prefetch(page);
	__builtin_prefetch(page + BLCKSZ - BFI_SPECIAL_SIZE);
	for (uint32 j = from; j < n && slots[j].blkno == slots[from].blkno; j++)
		__builtin_prefetch(page + slots[j].off);
	return buf;
}

/*
 * Writes the n hashes h (hashed with the seed of the index's metapage;
 * the array is reused) into the index.  c is a copy of the index's cache,
 * its metapage read again here.  A page takes keys until its count
 * reaches its mark (bfi_page_mark), as one insert a row does; the pages
 * that reach it are counted in the metapage, and the keys of full pages
 * wait: for the new layer that the pass then adds when the layer is full
 * (half its pages are), in the order they came (a pass that finds another
 * backend adding the layer waits for it).  Else they go to their full
 * pages in the newest layer, and so they do when no layer can be added
 * (the most layers, or past the size limit).
 *
 * Before keys go to full pages of a layer the metapage does not call
 * full, the pass counts the layer's full pages again from the pages
 * themselves (bfi_recount_full_pages) when it holds as many keys as the
 * layer has pages (a read a key at most) or a page it wrote reached
 * its share or another multiple of it (a page whose mark was reached in
 * a pass that a cancel, an error or a crash ended before it counted the
 * page is found so at its share, not at twice it): concurrent bulk writers each fill pages
 * they count only when their pass ends, and a pass that trusted the
 * metapage alone poured a pass's keys into a layer that was already full
 * (rates of 4% for a 1% index in t/006 while this rule was built).
 */
void
bfi_insert_keys(Relation index, BfiCache *c, uint64 *h, uint32 n)
{
	BfiPageWrite *w = palloc(sizeof(BfiPageWrite));
	KeySlot    *slots = palloc(sizeof(KeySlot) * Max(n, 1));
	bool		may_grow = true;

	while (n > 0)
	{
		unsigned	layer;
		const BfiLayer *l;
		uint32		left = 0;
		bool		any_full = false;
		bool		at_share = false;
		bool		layer_full;
		uint32		reached = 0;	/* pages that reached their mark */
		bool		recount = false;	/* one reached 2, 3, ... shares */
		Buffer		next;

		bfi_meta_for_index(index, &c->meta);
		if (c->meta.nlayers == 0)
		{
			/* an unlogged index after a crash, reset to its init fork */
			bfi_grow(index, c, 0, true, true);
			bfi_meta_for_index(index, &c->meta);
		}
		drop_older(index, c, h, &n);
		layer = c->meta.nlayers - 1;
		l = &c->meta.layers[layer];
		if (c->meta.version != BFI_VERSION && may_grow && n > 0)
		{
			/* 1.7's metapage counts no full page: count them once */
			(void) bfi_recount_full_pages(index, c, layer);
			continue;
		}
		sort_by_page(l, h, n, slots);

		next = n > 0 ? pin_ahead(index, c, slots, 0, n) : InvalidBuffer;
		for (uint32 i = 0; i < n;)
		{
			BlockNumber blkno = slots[i].blkno;
			uint32		p = blkno - l->first_blkno;
			uint64		share = bfi_page_share(l, p);
			uint64		mark = bfi_page_mark(l, p);
			uint32		end = i;
			Buffer		buf;
			bool		full = false;

			while (end < n && slots[end].blkno == blkno)
				end++;
			buf = next;
			next = end < n ? pin_ahead(index, c, slots, end, n) : InvalidBuffer;
			buf = lock_page(index, c, blkno, buf);
			bfi_write_begin(w, index, buf, &c->meta, layer, p);
			for (; i < end; i++)
			{
				uint64		count;

				if (full)
				{
					h[left++] = slots[i].h; /* for the next layer */
					continue;
				}
				if (!bfi_write_key(w, slots[i].off, l->k, slots[i].h))
					continue;
				count = bfi_write_nitems(w);
				if (count < mark)
					continue;
				if (count == mark)
				{
					reached++;
					at_share = true;
				}
				else if (count % share == 0)
					recount = true; /* at 1, 2, ... shares: see above */
				full = any_full = may_grow;
			}
			bfi_write_finish(w);
			UnlockReleaseBuffer(buf);
			CHECK_FOR_INTERRUPTS();
		}
		n = left;
		layer_full = reached > 0 ?
			bfi_count_full_pages(index, layer, reached) : bfi_layer_full(l);
		if (!layer_full && (recount || (any_full && n >= l->npages)))
			layer_full = bfi_recount_full_pages(index, c, layer);
		if (!any_full)
			break;
		if (!layer_full)
		{
			/* full pages of a layer that is not: their keys go to them */
			may_grow = false;
			continue;
		}

		/*
		 * The layer is full: a new layer, for the keys of full pages and
		 * those to come.  When another backend is adding one, wait for it
		 * (no page lock is held here): a pass must not pour its keys into
		 * the full layer, which would saturate and then hold every key
		 * after it as maybe present.  Only a filter that cannot grow (the
		 * most layers, or past the size limit) fills its newest layer on,
		 * as one insert a row does.
		 */
		if (layer + 1 < BFI_MAX_LAYERS)
			bfi_grow(index, c, layer + 1, true, at_share);
		else if (at_share)
			bfi_warn_full(index, BFI_MAX_LAYERS, c->meta.fpr);
		bfi_meta_for_index(index, &c->meta);
		if (c->meta.nlayers == layer + 1)
			may_grow = false;
	}
	pfree(slots);
	pfree(w);
}

bool
bfi_insert(Relation index, Datum *values, bool *isnull, ItemPointer ht_ctid,
		   Relation heapRel, IndexUniqueCheck checkUnique, bool indexUnchanged,
		   IndexInfo *indexInfo)
{
	/*
	 * NULLs are not keys.  The executor's indexUnchanged hint is not used:
	 * it is a guess from the UPDATE's SET list (a trigger may change the
	 * key, and it ignores a partial index's predicate), and a key whose
	 * bits are set writes nothing anyway.
	 */
	if (isnull[0])
		return false;
	bfi_pending_add(index, values[0]);
	return false;
}

#if PG_VERSION_NUM >= 170000
/* The end of a statement that inserted into the index: its keys are written */
void
bfi_insertcleanup(Relation index, IndexInfo *indexInfo)
{
	bfi_pending_flush_index(index);
}
#endif
