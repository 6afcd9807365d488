/*-------------------------------------------------------------------------
 *
 * bfindex.h
 *		The bloomfilter index access method: a scalable blocked Bloom filter
 *		of one column on index pages, kept in step with every write.
 *		Declarations are grouped by the file that defines them.
 *
 * The page format is plain C in src/core/pagefmt.[ch]; this folder is the
 * PostgreSQL side: the handler and its options, build, insert and growth
 * under generic WAL, operator-class validation, and the SQL functions that
 * read an index (contrib/bloom is the model for the WAL, the metapage and
 * the validation).
 *
 *-------------------------------------------------------------------------
 */
#ifndef BFINDEX_H
#define BFINDEX_H

#include "bloomtype.h"
#include "pagefmt.h"

#include "access/amapi.h"
#include "access/genam.h"
#include "nodes/execnodes.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "access/relscan.h"
#include "utils/rel.h"

StaticAssertDecl(BLCKSZ == BFI_PAGE_SIZE, "bloomfilter indexes need 8 kB pages");
StaticAssertDecl(MAXALIGN(SizeOfPageHeaderData) == BFI_CONTENTS_OFFSET,
				 "page contents start where pagefmt.h says");

/* The index's options (WITH (...)), frozen into the metapage at build */
typedef struct BfiOptions
{
	int32		vl_len_;		/* varlena header (do not touch directly!) */
	double		fpr;
	int			expansion;
	int			min_capacity;
	int			min_pages;
	int			seed;			/* -1: a secret one drawn at build */
} BfiOptions;

#define BFI_DEFAULT_FPR			0.01
#define BFI_DEFAULT_EXPANSION	2
#define BFI_DEFAULT_MIN_CAPACITY 1000
#define BFI_DEFAULT_MIN_PAGES	8
#define BFI_DEFAULT_SEED		(-1)

/* What an open index keeps in rd_amcache (rd_indexcxt) */
typedef struct BfiCache
{
	BfiMeta		meta;			/* the metapage as last read */
	BlockNumber known_nblocks;	/* pages the file had when last asked */
	BloomKeyInfo *key;			/* encoding of the column's keys: apart, in
								 * rd_indexcxt, so that copies of the cache
								 * share its send function's state */
} BfiCache;

static inline BfiOpaque *
bfi_opaque(Page page)
{
	return (BfiOpaque *) PageGetSpecialPointer(page);
}

/* bfi_handler.c */
extern bytea *bfi_options(Datum reloptions, bool validate);
extern const BfiOptions *bfi_index_options(Relation index, BfiOptions *defaults);

/* bfi_pages.c */
extern BfiCache *bfi_cache(Relation index);
extern BfiCache *bfi_cache_copy(Relation index);
extern void bfi_init_meta_page(Page page, const BfiMeta *m);
extern void bfi_init_data_page(Page page, const BfiMeta *m, unsigned layer, uint32 p);
extern Buffer bfi_read_page(Relation index, BfiCache *c, BlockNumber blkno);
extern Page bfi_read_data_page(Relation index, BfiCache *c, unsigned i, uint32 p,
							   Buffer *buf);
extern void bfi_extend_to(Relation index, BfiCache *c, BlockNumber blkno);
extern void bfi_warn_full(Relation index, unsigned nlayers, double fpr);
extern void bfi_grow(Relation index, BfiCache *c, unsigned nlayers, bool wait,
					 bool warn);
extern bool bfi_count_full_pages(Relation index, unsigned layer, uint32 nfull);
extern void bfi_set_build_tuples(Relation index, uint64 heap_tuples);
extern bool bfi_recount_full_pages(Relation index, BfiCache *c, unsigned layer);
extern void bfi_meta_for_index(Relation index, BfiMeta *m);
extern void bfi_meta_from_page(Relation index, Page page, BfiMeta *m);
extern void bfi_check_data_page(Relation index, Page page, const BfiMeta *m,
								unsigned layer, uint32 p);

/* bfi_build.c */
extern IndexBuildResult *bfi_build(Relation heap, Relation index,
								   IndexInfo *indexInfo);
extern void bfi_buildempty(Relation index);

/* bfi_insert.c */
/*
 * bfi_wal.c: keys written into one data page, logged as one generic WAL
 * record of the bytes they changed
 */
typedef struct BfiPageWrite
{
	Relation	index;
	Buffer		buf;			/* pinned and locked exclusively */
	bool		isnew;			/* a page no key has written yet */
	bool		changed;		/* a key set a bit */
	uint64		touched[(BFI_BLOCKS_PER_PAGE + 63) / 64];	/* blocks changed */
	PGAlignedBlock image;		/* the page as the keys make it */
	char		delta[BFI_BLOCKS_PER_PAGE * (4 + BLOOM_BLOCK_BYTES) + 64];
} BfiPageWrite;

extern void bfi_write_begin(BfiPageWrite *w, Relation index, Buffer buf,
							const BfiMeta *m, unsigned layer, uint32 p);
extern bool bfi_write_key(BfiPageWrite *w, uint32 off, int k, uint64 h);
extern uint64 bfi_write_nitems(const BfiPageWrite *w);
extern void bfi_write_finish(BfiPageWrite *w);

/*
 * bfi_pending.c: the keys this backend inserted and has not written yet,
 * at most BFI_PENDING_MAX an index (512 kB)
 */
#define BFI_PENDING_MAX		65536

extern void bfi_pending_init(void);
extern void bfi_pending_add(Relation index, Datum key);
extern void bfi_pending_flush_index(Relation index);
extern void bfi_pending_forget(Relation index);
extern uint64 bfi_pending_added(Oid indexoid);

/*
 * bfi_older.c: this backend's copies of the older layers of the indexes it
 * writes, which an insert asks before it adds a key
 */
extern void bfi_older_init(void);
extern void bfi_older_forget(Oid relid);
extern uint32 bfi_older_probe(Relation index, BfiCache *c, const uint64 *h,
							  bool *found, uint32 *pending, uint32 npending,
							  uint32 *order);

extern void bfi_insert_keys(Relation index, BfiCache *c, uint64 *h, uint32 n);
#if PG_VERSION_NUM >= 170000
extern void bfi_insertcleanup(Relation index, IndexInfo *indexInfo);
#endif
extern bool bfi_insert(Relation index, Datum *values, bool *isnull,
					   ItemPointer ht_ctid, Relation heapRel,
					   IndexUniqueCheck checkUnique, bool indexUnchanged,
					   IndexInfo *indexInfo);

/* bfi_validate.c */
extern bool bfi_validate(Oid opclassoid);
extern void bfi_adjustmembers(Oid opfamilyoid, Oid opclassoid,
							  List *operators, List *functions);

/* bfi_access.c: opening an index for the SQL functions */
typedef struct BfiTarget
{
	Oid			indexoid;
	Oid			heapoid;
	Relation	index;			/* open, AccessShareLock */
} BfiTarget;

/* The SQL function that opens an index: its errors name it */
typedef enum BfiCaller
{
	BFI_CALLER_CONTAINS,		/* bloom_index_contains */
	BFI_CALLER_CONTAINS_EACH,	/* bloom_index_contains_each */
	BFI_CALLER_FILTER,			/* bloom_index_filter */
	BFI_CALLER_INFO,			/* bloom_index_info */
	BFI_CALLER_FILTER_AT,		/* bloom_index_filter_at */
	BFI_CALLER_CHANGES			/* bloom_index_changes */
} BfiCaller;

extern const char *bfi_caller_name(BfiCaller caller);

extern Relation bfi_index_open_read(Oid indexoid, LOCKMODE lockmode);
extern BfiTarget *bfi_open_checked(Oid indexoid, BfiCaller caller);
extern List *bfi_open_partitions(BfiTarget *t);
extern BfiTarget *bfi_open_partition(Oid indexoid);
extern List *bfi_open_targets(Oid indexoid, BfiCaller caller);
extern void bfi_close_targets(List *targets);

/* The child indexes of a partitioned index, by their tables' OIDs */
typedef struct BfiChildIndex
{
	Oid			heap;			/* the table of each, looked up once */
	Oid			index;
} BfiChildIndex;

typedef struct BfiChildIndexes
{
	int			n;
	BfiChildIndex *children;	/* sorted by heap, for bfi_child_lookup */
} BfiChildIndexes;

extern void bfi_load_children(BfiChildIndexes *ci, Oid indexoid);
extern Oid	bfi_child_lookup(const BfiChildIndexes *ci, Oid partoid);
extern void bfi_free_children(BfiChildIndexes *ci);
extern void bfi_no_child_index(Oid partoid, Oid heapoid);

/* bfi_citus.c: indexes of Citus tables, whose rows are in their shards */
extern bool bfi_is_citus_table(Oid heapoid);
extern void bfi_citus_table_error(BfiTarget *t, BfiCaller caller);

/* bfi_site.c: what a call site keeps of the indexes it reads (fn_extra) */
typedef struct BfiLeaf
{
	Oid			heapoid;
	Oid			indexoid;		/* a bloomfilter index with pages */
	bool		have_meta;		/* cache.meta: the metapage last decoded */
	bool		probe_checked;	/* the call site's key checked against it */
	BfiCache	cache;			/* its metapage and the file's known length;
								 * cache.key unused (NULL) */
	/* a copy of its bits for the rest of a statement (bfi_read.c) */
	uint32		probes;			/* probes since the snapshot changed */
	bool		no_copy;		/* this backend writes it: read the pages */
	struct varlena *copy;		/* the copy, as a scalable value, or NULL */
	BloomFilter copy_f;			/* decoded */
	TimestampTz copy_xact;		/* the transaction, */
	TransactionId copy_xmin;	/* the snapshot */
	TransactionId copy_xmax;
	CommandId	copy_cid;
	uint32		copy_xcnt;		/* and the transactions it saw running */
	int32		copy_subxcnt;
	bool		copy_suboverflowed;
	TransactionId *copy_xip;	/* copy_xcnt, then copy_subxcnt of them */
	uint32		copy_xip_max;
	uint64		copy_writes;	/* and this backend's keys of it, when taken */
} BfiLeaf;

/* Probes of one statement before a call site copies an index's bits */
#define BFI_COPY_AFTER		1024

/* The leaves a call asks, in the order it asks them */
typedef struct BfiTargets
{
	BfiLeaf   **leaves;
	int			n;
	int			max;
	MemoryContext cxt;			/* where leaves and route nodes live */
	bool		once;			/* something read is good for one call only */
} BfiTargets;

extern int	bfi_site_targets(FunctionCallInfo fcinfo, Oid indexoid,
							 BfiCaller caller, const BloomKeyInfo *ki,
							 const Datum *key, const TimestampTz *since,
							 BfiLeaf ***leaves);
extern void bfi_site_init(void);
extern BfiLeaf *bfi_site_copy_leaf(FunctionCallInfo fcinfo, Oid indexoid);
extern BfiLeaf *bfi_leaf_new(Oid indexoid, Oid heapoid, MemoryContext cxt);
extern void bfi_targets_add(BfiTargets *out, BfiLeaf *leaf);

/* bfi_route.c: the partitions a probe asks */
typedef struct BfiRouteNode BfiRouteNode;

extern BfiRouteNode *bfi_route_node(Relation index, Oid heapoid, BfiTargets *out);
extern bool bfi_route_by_time(const BfiRouteNode *node);
extern void bfi_route_collect(BfiRouteNode *node, const BloomKeyInfo *ki,
							  const Datum *key, const TimestampTz *since,
							  BfiTargets *out);

/* bfi_read.c: reading an index's pages */
typedef struct BfiLayerStats
{
	uint64		items;			/* the pages' counts of keys */
	uint64		bits_set;
	double		fpr_sum;		/* sum over blocks of (bits set / B)^k */
} BfiLayerStats;

extern BfiCache *bfi_target_meta(BfiTarget *t, const BloomKeyInfo *ki);
extern BfiCache *bfi_leaf_meta(Relation index, BfiLeaf *leaf,
							   const BloomKeyInfo *ki);
extern bool bfi_probe_layer(Relation index, BfiCache *c, unsigned i, uint64 h);
extern bool bfi_probe_hash(Relation index, BfiCache *c, uint64 h);
extern const BloomFilter *bfi_leaf_copy(BfiLeaf *leaf);
extern void bfi_leaf_count_probe(BfiLeaf *leaf, Relation index);
extern uint32 bfi_probe_layer_batch(Relation index, BfiCache *c, unsigned i,
									const uint64 *h, bool *found,
									uint32 *pending, uint32 npending,
									uint32 *order);
typedef void (*BfiPageFn) (const uint8 *blocks, uint32 nblocks, uint64 nitems,
						   uint32 p, void *arg);
extern void bfi_scan_layer(Relation index, BfiCache *c, unsigned i,
						   BfiPageFn fn, void *arg);
extern void bfi_probe_batch(Relation index, BfiCache *c, const uint64 *h,
							bool *found, uint32 *pending, uint32 npending,
							uint32 *order);
extern struct varlena *bfi_snapshot(BfiTarget *t, BloomFilter *f);
extern void bfi_layer_stats(Relation index, BfiCache *c, unsigned i,
							BfiLayerStats *stats);


#endif							/* BFINDEX_H */
