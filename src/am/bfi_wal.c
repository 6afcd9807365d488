/*-------------------------------------------------------------------------
 *
 * bfi_wal.c
 *		Writing keys into a data page of a bloomfilter index, and logging
 *		what changed as a generic WAL record.
 *
 * A writer (BfiPageWrite) works on a private image of one exclusively
 * locked page: it sets the keys' bits there and remembers which 64-byte
 * blocks it touched.  Finishing copies the touched blocks and the page's
 * count into the buffer in a critical section and logs them.
 *
 * The record is a generic WAL record (RM_GENERIC_ID), replayed by
 * PostgreSQL's own generic_redo on a standby or after a crash: the block
 * data is a list of fragments (an OffsetNumber offset, an OffsetNumber
 * length, then that many bytes), the format of access/generic_xlog.c,
 * unchanged since 9.6.  GenericXLogFinish builds the same list by
 * comparing the whole 8 kB page byte by byte with its copy; a key changes
 * a few bytes of one block, so the writer compares only the blocks it
 * touched (with the same rule for merging near fragments), which is what
 * made an insert cost several microseconds.  A page's first write logs its
 * whole image, as GenericXLogFinish does with GENERIC_XLOG_FULL_IMAGE: a
 * standby or a crash may not have the page at all (extension is not
 * logged).  No shared_preload_libraries: the resource manager is the
 * built-in one, and wal_consistency_checking = generic checks it.
 *
 *-------------------------------------------------------------------------
 */
#include "bfindex.h"

#include "access/xloginsert.h"
#include "access/rmgr.h"
#include "miscadmin.h"

/*
 * A run of fewer unchanged bytes than a fragment's header costs less
 * logged than split (generic_xlog.c's MATCH_THRESHOLD is the same size)
 */
#define FRAGMENT_HEADER	(2 * sizeof(OffsetNumber))

/*
 * Where a data page's special space (BfiOpaque) is: the image of a written
 * page has no header of its own to find it by
 */
#define OPAQUE_OFFSET	(BLCKSZ - BFI_SPECIAL_SIZE)
#define IMAGE_OPAQUE(w)	((BfiOpaque *) ((w)->image.data + OPAQUE_OFFSET))

StaticAssertDecl(sizeof(BfiOpaque) == BFI_SPECIAL_SIZE,
				 "a data page's special space is its BfiOpaque");

/*
 * Starts writing page p of layer number layer (of m) in buf, which the
 * caller has pinned and locked exclusively; a page no key has written yet
 * is made here, whole, in the image.  Of a written page the image holds
 * only the blocks keys touch (copied when first touched) and the count.
 */
void
bfi_write_begin(BfiPageWrite *w, Relation index, Buffer buf, const BfiMeta *m,
				unsigned layer, uint32 p)
{
	Page		page = BufferGetPage(buf);

	w->index = index;
	w->buf = buf;
	w->isnew = PageIsNew(page);
	w->changed = false;
	memset(w->touched, 0, sizeof(w->touched));
	if (w->isnew)
		bfi_init_data_page(w->image.data, m, layer, p);
	else
	{
		bfi_check_data_page(index, page, m, layer, p);
		memcpy(IMAGE_OPAQUE(w), page + OPAQUE_OFFSET, sizeof(BfiOpaque));
	}
}

/*
 * Sets h's k bits in its block at offset off of the image: true when one
 * was clear (the key is new to the page, and counted), false when all
 * were set.
 */
bool
bfi_write_key(BfiPageWrite *w, uint32 off, int k, uint64 h)
{
	uint8	   *blk = (uint8 *) w->image.data + off;
	uint32		b = (off - BFI_DATA_OFFSET) / BLOOM_BLOCK_BYTES;
	uint64		bit = UINT64CONST(1) << (b % 64);

	if (!w->isnew && !(w->touched[b / 64] & bit))
		memcpy(blk, BufferGetPage(w->buf) + off, BLOOM_BLOCK_BYTES);
	w->touched[b / 64] |= bit;
	if (bloom_block_test(blk, k, h))
		return false;
	bloom_block_set(blk, k, h);
	IMAGE_OPAQUE(w)->nitems++;
	w->changed = true;
	return true;
}

/* The keys the image's page counts */
uint64
bfi_write_nitems(const BfiPageWrite *w)
{
	return IMAGE_OPAQUE(w)->nitems;
}

/*
 * Appends to delta (at *len) the fragments that turn old into new over n
 * bytes (at most 64) at page offset base: runs of changed bytes, joined
 * across fewer unchanged bytes than a fragment's header.  (generic_xlog.c's
 * computeRegionDelta also joins across exactly that many; either list is
 * replayed the same by generic_redo, and costs the same bytes.)  The
 * changed bytes are found a word at a time, as a mask: a key changes a few
 * bytes of its block.
 */
static void
add_fragments(char *delta, Size *len, const uint8 *old, const uint8 *new,
			  OffsetNumber base, int n)
{
	uint64		changed = 0;

	Assert(n <= 64);
	for (int w = 0; w + 8 <= n; w += 8)
	{
		uint64		a,
					b,
					x;

		/* little-endian: byte j of the word is bits 8j..8j+7 on any CPU */
		a = bloom_get_le64(old + w);
		b = bloom_get_le64(new + w);
		for (x = a ^ b; x != 0;)
		{
			int			byte = __builtin_ctzll(x) / 8;

			changed |= UINT64CONST(1) << (w + byte);
			x &= ~(UINT64CONST(0xFF) << (byte * 8));
		}
	}
	for (int i = n & ~7; i < n; i++)
		if (old[i] != new[i])
			changed |= UINT64CONST(1) << i;

	while (changed != 0)
	{
		int			start = __builtin_ctzll(changed);
		int			end = start + 1;	/* one past the last changed byte */
		OffsetNumber offset,
					length;

		changed &= changed - 1;
		/* the next changed byte joins when fewer than a header lie between */
		while (changed != 0 &&
			   __builtin_ctzll(changed) - end < (int) FRAGMENT_HEADER)
		{
			end = __builtin_ctzll(changed) + 1;
			changed &= changed - 1;
		}
		offset = base + start;
		length = end - start;
		memcpy(delta + *len, &offset, sizeof(offset));
		memcpy(delta + *len + sizeof(offset), &length, sizeof(length));
		memcpy(delta + *len + FRAGMENT_HEADER, new + start, length);
		*len += FRAGMENT_HEADER + length;
	}
}

/*
 * Applies the image to the buffer and logs it (a relation without WAL,
 * unlogged or temporary, only applies), when a key changed the page or
 * the page is new.  The caller then unlocks and releases the buffer.
 */
void
bfi_write_finish(BfiPageWrite *w)
{
	Page		page = BufferGetPage(w->buf);
	Size		special = OPAQUE_OFFSET;
	Size		len = 0;

	if (!w->changed && !w->isnew)
		return;

	/* the touched blocks' changed bytes, then the page's count */
	if (!w->isnew)
	{
		for (uint32 t = 0; t < lengthof(w->touched); t++)
			for (uint64 bits = w->touched[t]; bits != 0; bits &= bits - 1)
			{
				uint32		b = t * 64 + __builtin_ctzll(bits);
				OffsetNumber off = BFI_DATA_OFFSET + b * BLOOM_BLOCK_BYTES;

				add_fragments(w->delta, &len, (const uint8 *) page + off,
							  (const uint8 *) w->image.data + off, off,
							  BLOOM_BLOCK_BYTES);
			}
		add_fragments(w->delta, &len, (const uint8 *) page + special,
					  (const uint8 *) w->image.data + special, special,
					  sizeof(BfiOpaque));
	}

	START_CRIT_SECTION();
	if (w->isnew)
		memcpy(page, w->image.data, BLCKSZ);
	else
	{
		for (uint32 t = 0; t < lengthof(w->touched); t++)
			for (uint64 bits = w->touched[t]; bits != 0; bits &= bits - 1)
			{
				Size		off = BFI_DATA_OFFSET +
					(t * 64 + __builtin_ctzll(bits)) * BLOOM_BLOCK_BYTES;

				memcpy(page + off, w->image.data + off, BLOOM_BLOCK_BYTES);
			}
		memcpy(page + special, w->image.data + special, sizeof(BfiOpaque));
	}
	MarkBufferDirty(w->buf);
	if (RelationNeedsWAL(w->index))
	{
		XLogRecPtr	lsn;

		XLogBeginInsert();
		if (w->isnew)
			XLogRegisterBuffer(0, w->buf, REGBUF_FORCE_IMAGE | REGBUF_STANDARD);
		else
		{
			XLogRegisterBuffer(0, w->buf, REGBUF_STANDARD);
			XLogRegisterBufData(0, w->delta, len);
		}
		lsn = XLogInsert(RM_GENERIC_ID, 0);
		PageSetLSN(page, lsn);
	}
	END_CRIT_SECTION();
}
