/*
 * libFuzzer harness: the pages of the bloomfilter index (pagefmt.c).  An
 * input is one 8 kB page (a shorter one is zero-padded, a longer one
 * ignored), read by bfi_meta_decode as the glue reads block 0.  On a page
 * accepted as a metapage: the layers lie back to back inside
 * [1, next_blkno), every key's block is inside its layer and below the
 * page's pd_lower, every page has a share of at least one key and the
 * shares cover the layer's capacity, the page is not taken for a data page
 * of any layer, a layer planned after the last keeps the metapage valid,
 * and a snapshot of a small index (bloom_scalable_assemble) decodes.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pagefmt.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the snapshot is assembled only for indexes of at most this many blocks */
#define SNAPSHOT_MAX_BLOCKS	4096

static void
check_layer(const BfiMeta *m, unsigned i, const uint8_t *page, const uint64_t *hashes,
			int nhashes)
{
	const BfiLayer *l = &m->layers[i];
	uint64_t	last,
				sum;

	if (l->first_blkno < 1 || l->npages < 1 ||
		(uint64_t) l->first_blkno + l->npages > m->next_blkno ||
		(i > 0 && l->first_blkno != m->layers[i - 1].first_blkno + m->layers[i - 1].npages) ||
		l->nblocks > (uint64_t) l->npages * BFI_BLOCKS_PER_PAGE ||
		l->nblocks <= (uint64_t) (l->npages - 1) * BFI_BLOCKS_PER_PAGE ||
		l->k < 1 || l->k > BLOOM_MAX_HASHES)
		abort();
	if (bfi_page_blocks(l, l->npages) != 0 || bfi_page_blocks(l, l->npages - 1) < 1 ||
		bfi_page_blocks(l, 0) < 1)
		abort();
	for (int t = 0; t < nhashes; t++)
	{
		uint32_t	blkno,
					off;

		bfi_locate(l, hashes[t], &blkno, &off);
		if (blkno < l->first_blkno || blkno - l->first_blkno >= l->npages ||
			off < BFI_DATA_OFFSET || off % BLOOM_BLOCK_BYTES != 0 ||
			off + BLOOM_BLOCK_BYTES > bfi_page_lower(l, blkno - l->first_blkno) ||
			bfi_page_lower(l, blkno - l->first_blkno) > BFI_PAGE_SIZE - BFI_SPECIAL_SIZE)
			abort();
	}
	/* every page but the last is full, so they have the first one's share */
	last = bfi_page_share(l, l->npages - 1);
	if (bfi_page_share(l, 0) < 1 || last < 1)
		abort();
	sum = bfi_page_share(l, 0) * (uint64_t) (l->npages - 1) + last;
	if (sum < l->capacity)
		abort();
	/* a metapage is never a data page, whatever the layer table says */
	if (bfi_data_page_check(page, l, i, 0) != BFI_E_PAGE ||
		bfi_data_page_check(page, l, i, l->npages - 1) != BFI_E_PAGE)
		abort();
}

/* The index as a scalable value: it decodes with the layers' geometry */
static void
check_snapshot(const BfiMeta *m, const uint64_t *hashes, int nhashes)
{
	BloomLayer	views[BFI_MAX_LAYERS];
	uint64_t	total = 0;
	size_t		size;
	uint8_t    *buf;
	BloomFilter f,
				g;

	if (m->nlayers == 0)
		return;
	for (unsigned i = 0; i < m->nlayers; i++)
	{
		total += m->layers[i].nblocks;
		if (total > SNAPSHOT_MAX_BLOCKS)
			return;
		bfi_layer_view(&m->layers[i], i + 1, NULL, &views[i]);
	}
	size = bloom_scalable_size(m->nlayers, total);
	buf = malloc(size);
	bloom_scalable_assemble(buf, views, m->nlayers, m->fpr, m->expansion, m->seed, &f);
	if (bloom_decode(buf, size, &g) != BLOOM_OK || g.nlayers != m->nlayers ||
		g.nitems != (uint64_t) m->nlayers * (m->nlayers + 1) / 2)
		abort();
	/* set through blocks as the index does, found as in a value */
	for (int t = 0; t < nhashes; t++)
	{
		const BfiLayer *l = &m->layers[t % m->nlayers];
		BloomLayer *gl = &g.layers[t % m->nlayers];
		uint32_t	blkno,
					off;

		bfi_locate(l, hashes[t], &blkno, &off);
		bloom_block_set(gl->data + ((uint64_t) (blkno - l->first_blkno) * BFI_BLOCKS_PER_PAGE +
									(off - BFI_DATA_OFFSET) / BLOOM_BLOCK_BYTES) *
						BLOOM_BLOCK_BYTES, l->k, hashes[t]);
		if (!bloom_layer_contains(gl, hashes[t]) || !bloom_filter_contains(&g, hashes[t]))
			abort();
	}
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t    *page;
	BfiMeta		m,
				grown;
	uint64_t	hashes[8];
	int			nhashes = 0;
	BfiStatus	st;

	if (size > BFI_PAGE_SIZE)
		return 0;
	/* an exact-size copy: a read past the page is caught */
	page = calloc(1, BFI_PAGE_SIZE);
	memcpy(page, data, size);
	st = bfi_meta_decode(page, &m);
	if (st != BFI_OK)
	{
		if (bfi_status_message(st) == NULL)
			abort();
		free(page);
		return 0;
	}

	if (m.nlayers > BFI_MAX_LAYERS || m.next_blkno < 1 || m.next_blkno > BFI_MAX_PAGES ||
		(m.nlayers == 0 && m.next_blkno != 1))
		abort();
	/* keys from the input: the page's words, and the edges */
	hashes[nhashes++] = 0;
	hashes[nhashes++] = UINT64_MAX;
	for (size_t off = 0; off + 8 <= size && nhashes < 8; off += size / 6 + 8)
	{
		uint64_t	w;

		memcpy(&w, data + off, 8);
		hashes[nhashes++] = bloom_hash_int64(m.seed, (int64_t) w);
	}
	for (unsigned i = 0; i < m.nlayers; i++)
		check_layer(&m, i, page, hashes, nhashes);
	check_snapshot(&m, hashes, nhashes);

	/* a metapage that decoded decodes again from a page of its own */
	{
		BfiMeta		again;
		uint8_t    *copy = malloc(BFI_PAGE_SIZE);

		memcpy(copy, page, BFI_PAGE_SIZE);
		memset(copy + BFI_CONTENTS_OFFSET, 0xA5, sizeof(BfiMeta));
		memcpy(copy + BFI_CONTENTS_OFFSET, &m, sizeof(m));
		if (bfi_meta_decode(copy, &again) != BFI_OK || memcmp(&again, &m, sizeof(m)) != 0)
			abort();
		free(copy);
	}

	/* a new layer, when it can be planned, keeps the metapage valid */
	grown = m;
	if (bfi_add_layer(&grown, m.min_capacity) == BFI_OK)
	{
		const BfiLayer *l = &grown.layers[grown.nlayers - 1];

		if (bfi_meta_check(&grown) != BFI_OK || grown.nlayers != m.nlayers + 1 ||
			grown.generation != m.generation + 1 || l->first_blkno != m.next_blkno ||
			l->nblocks != (uint64_t) l->npages * BFI_BLOCKS_PER_PAGE ||
			(m.nlayers == 0 && l->npages < m.min_pages))
			abort();
		check_layer(&grown, grown.nlayers - 1, page, hashes, nhashes);
	}
	else if (memcmp(&grown, &m, sizeof(m)) != 0)
		abort();				/* a refusal leaves the metapage as it was */
	free(page);
	return 0;
}
