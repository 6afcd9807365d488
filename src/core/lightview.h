/*-------------------------------------------------------------------------
 *
 * lightview.h
 *		A light state (kind 7) read at the cost of what it holds: the blocks
 *		its hashes reach, and nothing else, of the filter it stands for.
 *
 * A light state's header describes a buffered state of up to about 8.4
 * million blocks (512 MB); materialising it costs that much memory and a
 * pass over it, for a value that may hold no hash at all.  A view keeps
 * only the 64-byte blocks its hashes set bits in, sorted by block number
 * (memory O(hashes)), and answers every read exactly as the materialised
 * filter does: a lookup tests the same k bits of the same block (a block
 * no hash reached is all zeros, so a key that falls there is absent), and
 * the estimates, which are sums over blocks of terms that are zero for an
 * empty block, are summed over the touched blocks in the same order.  The
 * header of the filter it stands for (blocked, or a scalable filter of one
 * layer when the state was planned as one) is derived as
 * bloom_materialize derives it (src/core/materialize.c); the unit tests
 * compare both, field by field and answer by answer.
 *
 * A view is one self-contained buffer (no pointers into other memory), so
 * that a caller may copy it and reopen the copy (bloom_light_view_open).
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_LIGHTVIEW_H
#define BLOOM_CORE_LIGHTVIEW_H

#include "aggstate.h"

typedef struct BloomLightView
{
	/* the filter the state stands for, without its bits (base, data NULL) */
	BloomFilter head;
	/* what materialising it would warn about (over_capacity) */
	BloomMaterialized m;
	size_t		size;			/* bytes of that filter */
	uint64_t	nblocks;		/* its blocks */
	int			k;				/* hashes per key */
	uint64_t	nset;			/* blocks some hash reached */
	uint64_t	bits_set;
	double		estimated_items;
	double		estimated_fpr;
	/* set by build and open: into the view's buffer */
	const uint8_t *blockno;		/* nset block numbers, 8 bytes, ascending */
	const uint8_t *blocks;		/* nset blocks of 64 bytes, in that order */
} BloomLightView;

/* Is the n-byte buffer buf a view (as bloom_light_view_build writes it)? */
extern bool bloom_is_light_view(const uint8_t *buf, size_t n);
extern BloomStatus bloom_light_view_build(const BloomFilter *st, const BloomAlloc *a,
										  uint8_t **buf, size_t *len,
										  BloomLightView *v);
extern BloomStatus bloom_light_view_open(const uint8_t *buf, size_t len,
										 BloomLightView *v);
extern size_t bloom_light_view_blocks_offset(const BloomLightView *v);
extern bool bloom_light_view_contains(const BloomLightView *v, uint64_t h);
extern void bloom_light_view_describe(const BloomLightView *v, BloomInfo *info);

#endif							/* BLOOM_CORE_LIGHTVIEW_H */
