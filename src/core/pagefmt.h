/*-------------------------------------------------------------------------
 *
 * pagefmt.h
 *		The on-page format of the bloomfilter index access method, in plain
 *		C: the metapage, the data pages, and where a key's bits live.
 *
 * The index keeps a scalable blocked filter on 8 kB pages (docs/FORMAT.md,
 * "The index pages").  Block 0 is the metapage: the options frozen at build
 * time and a table of layers.  Layer L holds nblocks 64-byte filter blocks
 * on npages consecutive pages starting at first_blkno, 126 blocks a page,
 * at byte offsets 64 .. 8128 of the page, below pd_lower (generic WAL
 * zeroes the hole between pd_lower and pd_upper).  Concatenating a layer's
 * blocks page by page gives, byte for byte, that layer of a kind-4 value:
 * a key falls in block j = mulhi64(h, nblocks) of its layer, as in a value.
 *
 * Each data page counts in its special space the keys that set a new bit
 * on it.  A page that reaches its mark (bfi_page_mark: 15/16 of its share
 * of the layer's capacity) is counted once in the layer's entry of the
 * metapage (full_pages: the only write an insert makes to the metapage, at
 * the end of a pass that brought pages there), and a layer is full when half
 * its pages are (bfi_layer_full), never because one page is: keys chosen
 * against the public hash to land on one page saturate that page and do
 * not make the index grow (hash flooding; format version 2).
 *
 * Pages are read in native byte order: an index never changes machine
 * (physical replicas share the architecture).  This is the code that the
 * fuzzer drives; every reader checks a page with it before it trusts a
 * field.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_PAGEFMT_H
#define BLOOM_CORE_PAGEFMT_H

#include "blocked.h"

#define BFI_PAGE_SIZE		8192
#define BFI_MAGIC			0x58494642u	/* "BFIX" */
#define BFI_VERSION			2		/* 2: full_pages; 1 (1.7) read too */
#define BFI_PAGE_ID			0xFF8B		/* last two bytes of each page */
#define BFI_META_BLKNO		0
#define BFI_CONTENTS_OFFSET	24			/* MAXALIGN(SizeOfPageHeaderData) */
#define BFI_DATA_OFFSET		64			/* first filter block of a data page */
#define BFI_SPECIAL_SIZE	16
#define BFI_BLOCKS_PER_PAGE \
	((BFI_PAGE_SIZE - BFI_SPECIAL_SIZE - BFI_DATA_OFFSET) / BLOOM_BLOCK_BYTES)
#define BFI_MAX_LAYERS		32
/* pages of all layers stay far below BlockNumber's 2^32 */
#define BFI_MAX_PAGES		((uint64_t) 1 << 30)

/* Offsets in PostgreSQL's page header (storage/bufpage.h, stable since 8.3) */
#define BFI_PD_LOWER		12
#define BFI_PD_UPPER		14
#define BFI_PD_SPECIAL		16

/* Page flags in the special space */
#define BFI_PAGE_META		0x0001
#define BFI_PAGE_DATA		0x0002

/* One layer of the index's filter */
typedef struct BfiLayer
{
	uint32_t	first_blkno;	/* its first page */
	uint32_t	npages;			/* ceil(nblocks / BFI_BLOCKS_PER_PAGE) */
	uint64_t	nblocks;		/* 64-byte filter blocks */
	uint64_t	capacity;		/* keys it was planned for */
	uint8_t		k;				/* hashes per key */
	uint8_t		pad[7];
	uint32_t	full_pages;		/* pages that reached their mark (version 2) */
	uint32_t	reserved;
} BfiLayer;

/* The metapage's contents, at BFI_CONTENTS_OFFSET of block 0 */
typedef struct BfiMeta
{
	uint32_t	magic;
	uint16_t	version;
	uint16_t	flags;			/* none yet */
	double		fpr;			/* the rate asked for, over all layers */
	uint64_t	seed;
	uint8_t		key_class;		/* BLOOM_KEY_*, of the indexed column */
	uint8_t		expansion;		/* each layer's capacity, times the last */
	uint8_t		nlayers;
	uint8_t		reserved0;
	uint32_t	key_type;		/* tag of a class "other" type */
	uint32_t	key_typid;		/* base type OID of the column */
	uint16_t	blocks_per_page;
	uint16_t	min_pages;		/* the first layer spans at least this many */
	uint32_t	next_blkno;		/* first page no layer has */
	uint32_t	generation;		/* changes with every new layer */
	uint64_t	min_capacity;	/* the option, frozen at build */
	uint64_t	build_items;	/* distinct keys the build saw */
	uint64_t	build_heap_tuples;
	BfiLayer	layers[BFI_MAX_LAYERS];
} BfiMeta;

/* The special space of every page (the last 16 bytes) */
typedef struct BfiOpaque
{
	uint64_t	nitems;			/* keys that set a new bit on this page */
	uint16_t	layer;
	uint16_t	flags;			/* BFI_PAGE_META or BFI_PAGE_DATA */
	uint16_t	pageno;			/* low 16 bits of its page number in its layer */
	uint16_t	page_id;		/* BFI_PAGE_ID */
} BfiOpaque;

/* What a reader may find wrong with a page */
typedef enum BfiStatus
{
	BFI_OK = 0,
	BFI_E_MAGIC,				/* not a bloomfilter index metapage */
	BFI_E_VERSION,				/* a version this library does not read */
	BFI_E_PARAMS,				/* rate, expansion, key class */
	BFI_E_LAYERS,				/* layer table inconsistent */
	BFI_E_PAGE					/* data page header or special space */
} BfiStatus;

/* Where hash h's block lies in layer l: its page and byte offset */
static inline void
bfi_locate(const BfiLayer *l, uint64_t h, uint32_t *blkno, uint32_t *offset)
{
	uint64_t	j = bloom_mulhi64(h, l->nblocks);

	*blkno = l->first_blkno + (uint32_t) (j / BFI_BLOCKS_PER_PAGE);
	*offset = BFI_DATA_OFFSET + (uint32_t) (j % BFI_BLOCKS_PER_PAGE) * BLOOM_BLOCK_BYTES;
}

/* Filter blocks on page p (0-based within layer l) */
static inline uint32_t
bfi_page_blocks(const BfiLayer *l, uint32_t p)
{
	uint64_t	before = (uint64_t) p * BFI_BLOCKS_PER_PAGE;

	if (before >= l->nblocks)
		return 0;
	return (uint32_t) (l->nblocks - before < BFI_BLOCKS_PER_PAGE ?
					   l->nblocks - before : BFI_BLOCKS_PER_PAGE);
}

/* pd_lower of page p of layer l: just past its last filter block */
static inline uint16_t
bfi_page_lower(const BfiLayer *l, uint32_t p)
{
	return (uint16_t) (BFI_DATA_OFFSET + bfi_page_blocks(l, p) * BLOOM_BLOCK_BYTES);
}

extern size_t bfi_meta_size(void);
extern void bfi_meta_init(BfiMeta *m, double fpr, unsigned expansion,
						  uint64_t min_capacity, unsigned min_pages);
extern BfiStatus bfi_meta_check(const BfiMeta *m);
extern BfiStatus bfi_meta_decode(const uint8_t *page, BfiMeta *m);
extern BfiStatus bfi_data_page_check(const uint8_t *page, const BfiLayer *l,
									 unsigned layer, uint32_t p);
extern const char *bfi_status_message(BfiStatus st);
extern uint64_t bfi_page_share(const BfiLayer *l, uint32_t p);
extern uint64_t bfi_page_mark(const BfiLayer *l, uint32_t p);
extern bool bfi_layer_full(const BfiLayer *l);
extern BfiStatus bfi_plan_layer(const BfiMeta *m, uint64_t capacity, BfiLayer *out);
extern BfiStatus bfi_add_layer(BfiMeta *m, uint64_t first_capacity);
extern void bfi_layer_view(const BfiLayer *l, uint64_t nitems, uint8_t *data,
						   BloomLayer *out);

#endif							/* BLOOM_CORE_PAGEFMT_H */
