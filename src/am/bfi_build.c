/*-------------------------------------------------------------------------
 *
 * bfi_build.c
 *		CREATE INDEX and REINDEX of a bloomfilter index: one pass over the
 *		table, the filter sized from the keys it finds, written page by page.
 *
 * The scan hashes every non-NULL key into a buffer (8 bytes a key, at most
 * half of maintenance_work_mem).  When the scan ends the first layer is
 * sized for the distinct keys with 25% headroom; when the buffer fills
 * first, the count so far is extrapolated over the table's pages and the
 * rest of the keys go straight into the layers, which grow on the scalable
 * schedule if the estimate was short.
 *
 * Layers that fit in maintenance_work_mem beside the buffer are built in
 * memory, written through shared buffers and WAL-logged in batches with
 * log_newpage_range, as GiST's sorted build does; there is no sort, so the
 * build is faster than a btree's.  Larger ones (a big table, or a
 * min_capacity of 1e9 on an empty one, which any role with TEMP could ask
 * for) live on the index's pages from the start: the metapage and the
 * layers built so far are written and logged, the new layer is added to
 * the file as zero pages, and the keys go in batches through the insert
 * path (bfi_insert_keys: a batch sorted by page, each page written once),
 * so the build holds maintenance_work_mem and a constant whatever the
 * index's size (and, per batch, 4 bytes a page of the newest layer: a
 * two-thousandth of its size).  What a build allocates is freed with its
 * own memory context: CREATE INDEX on a partitioned table builds many.
 *
 *-------------------------------------------------------------------------
 */
#include "bfindex.h"

#include "access/relation.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xloginsert.h"
#include "catalog/index.h"
#include "catalog/partition.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_collation.h"
#include "commands/defrem.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "storage/smgr.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/relcache.h"

#include <math.h>

#define BFI_HEADROOM	1.25

typedef struct BuildState
{
	Relation	index;
	BloomKeyInfo *key;			/* in rd_indexcxt: rd_amcache may be freed
								 * meanwhile, the key info is not */
	BfiMeta		meta;
	uint64		first_capacity;
	/* hashes before the layers are sized */
	uint64	   *hashes;
	uint64		nhashes;
	uint64		maxhashes;
	uint64		limit;			/* most hashes maintenance_work_mem allows */
	bool		sized;
	BlockNumber heap_nblocks;
	BlockNumber last_block;		/* heap page of the last row seen */
	/* the layers in memory */
	uint8	   *bits[BFI_MAX_LAYERS];
	uint64	   *counts[BFI_MAX_LAYERS]; /* keys a page counts */
	Size		budget;			/* maintenance_work_mem, in bytes */
	Size		layer_bytes;	/* of the layers in memory */
	/* or on the index's pages, the keys written a batch at a time */
	bool		paged;
	BfiCache   *cache;			/* paged: a copy of the index's cache */
	uint64	   *batch;
	uint32		nbatch;
	uint32		maxbatch;
	uint64		nkeys;			/* non-NULL keys */
	double		heap_tuples;
} BuildState;

static void write_page(Relation index, BlockNumber blkno, Page src);
static void write_layers(Relation index, BuildState *st, unsigned nlayers);

/*
 * Memory of a batch key on the paged path: the batch's 8 bytes and what
 * bfi_insert_keys takes for it (a 16-byte slot, 9 bytes to drop the keys
 * an older layer holds), rounded up
 */
#define BATCH_KEY_BYTES	40

/*
 * Keys a batch takes at most: bfi_insert_keys allocates its slots with
 * palloc (under MaxAllocSize); batches past millions of keys write each
 * page once already
 */
#define BATCH_MAX_KEYS	((Size) 16 * 1024 * 1024)

/*
 * From now on the layers live on the index's pages: the metapage (with
 * its newest layer, not in memory) and the older layers, built in memory
 * so far, are written and logged, the newest layer's pages are added to
 * the file as zero pages (as an insert's growth adds them: each is logged
 * whole by its first write), and keys go through bfi_insert_keys.
 */
static void
go_paged(Relation index, BuildState *st)
{
	unsigned	n = st->meta.nlayers - 1;
	BlockNumber written = st->meta.layers[n].first_blkno;

	write_layers(index, st, n);
	if (RelationNeedsWAL(index))
		log_newpage_range(index, MAIN_FORKNUM, 0, written, true);
	for (unsigned i = 0; i < n; i++)
	{
		pfree(st->bits[i]);
		pfree(st->counts[i]);
		st->bits[i] = NULL;
		st->counts[i] = NULL;
	}
	st->layer_bytes = 0;
	st->cache = bfi_cache_copy(index);
	st->cache->known_nblocks = written;
	bfi_extend_to(index, st->cache, st->meta.next_blkno - 1);
	st->maxbatch = (uint32) Min(Max(st->budget / 2 / BATCH_KEY_BYTES, 1024),
								BATCH_MAX_KEYS);
	st->batch = palloc_extended((Size) st->maxbatch * sizeof(uint64), MCXT_ALLOC_HUGE);
	st->nbatch = 0;
	st->paged = true;
	elog(DEBUG1, "bloomfilter index \"%s\": layers past maintenance_work_mem are built on the index's pages",
		 RelationGetRelationName(index));
}

/* Writes the keys of the batch (paged) */
static void
flush_batch(Relation index, BuildState *st)
{
	if (st->nbatch > 0)
		bfi_insert_keys(index, st->cache, st->batch, st->nbatch);
	st->nbatch = 0;
}

static void
add_layer(Relation index, BuildState *st)
{
	BfiLayer   *l;
	unsigned	n = st->meta.nlayers;
	Size		bytes;
	Size		held = st->hashes != NULL ? st->maxhashes * sizeof(uint64) : 0;

	if (bfi_add_layer(&st->meta, st->first_capacity) != BFI_OK)
	{
		if (n == 0)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("index \"%s\" would be too large",
							RelationGetRelationName(index))));
		return;					/* the newest layer keeps absorbing keys */
	}
	l = &st->meta.layers[n];
	bytes = (Size) l->nblocks * BLOOM_BLOCK_BYTES + (Size) l->npages * sizeof(uint64);
	if (st->layer_bytes + bytes + held > st->budget)
	{
		go_paged(index, st);
		return;
	}
	st->layer_bytes += bytes;
	st->bits[n] = palloc_extended((Size) l->nblocks * BLOOM_BLOCK_BYTES,
								  MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	st->counts[n] = palloc0_array(uint64, l->npages);
}

/*
 * Adds h as an insert would: unless an older layer may hold it; pages past
 * their mark (bfi_page_mark) take keys on until the layer is full
 * (bfi_layer_full)
 */
static void
build_add(Relation index, BuildState *st, uint64 h)
{
	unsigned	n = st->meta.nlayers - 1;
	BfiLayer   *l = &st->meta.layers[n];
	uint64		j;
	uint32		p;

	if (st->paged)
	{
		st->batch[st->nbatch++] = h;
		if (st->nbatch == st->maxbatch)
			flush_batch(index, st);
		return;
	}
	for (unsigned i = 0; i < n; i++)
		if (bloom_bits_contain(st->bits[i], st->meta.layers[i].nblocks,
							   st->meta.layers[i].k, h))
			return;
	j = bloom_mulhi64(h, l->nblocks);
	if (!bloom_block_set(st->bits[n] + j * BLOOM_BLOCK_BYTES, l->k, h))
		return;
	p = (uint32) (j / BFI_BLOCKS_PER_PAGE);
	/* a page that reaches its mark is counted; half of them fill the layer */
	if (++st->counts[n][p] == bfi_page_mark(l, p) && l->full_pages < l->npages)
	{
		l->full_pages++;
		if (bfi_layer_full(l) && n + 1 < BFI_MAX_LAYERS)
			add_layer(index, st);
	}
}

/*
 * Sizes the first layer from the hashes buffered so far: their distinct
 * count (exact up to 65,536, estimated past it), extrapolated over the
 * table's pages when the buffer filled before the scan ended.
 */
static void
size_layers(Relation index, BuildState *st, bool scan_done)
{
	double		distinct = -1.0;
	double		cap;

	if (st->nhashes <= 65536)
	{
		uint64	   *table = palloc0_array(uint64, 131072);
		uint64		d = bloom_count_distinct((const uint8 *) st->hashes,
											 st->nhashes, table, 131072,
											 &bt_cancel);

		if (d != UINT64_MAX)
			distinct = (double) d;
		pfree(table);
	}
	if (distinct < 0)
	{
		uint8	   *scratch = palloc_extended(bloom_estimate_scratch(st->nhashes),
											  MCXT_ALLOC_HUGE);

		distinct = bloom_estimate_distinct((const uint8 *) st->hashes,
										   st->nhashes, scratch, &bt_cancel);
		pfree(scratch);
	}
	if (!scan_done && st->heap_nblocks > 0)
		distinct = distinct * (double) st->heap_nblocks / (double) (st->last_block + 1);

	cap = ceil(BFI_HEADROOM * distinct);
	st->first_capacity = Max((uint64) st->meta.min_capacity,
							 cap > 1e15 ? (uint64) 1e15 : (uint64) cap);
	st->meta.build_items = (uint64) (distinct + 0.5);
	add_layer(index, st);
	/* paged: in batches, beside the buffer (half the budget at most) */
	for (uint64 i = 0; i < st->nhashes; i++)
	{
		build_add(index, st, bloom_get_le64((const uint8 *) &st->hashes[i]));
		if ((i & 65535) == 65535)
			CHECK_FOR_INTERRUPTS();
	}
	pfree(st->hashes);
	st->hashes = NULL;
	st->sized = true;
}

static void
build_callback(Relation heap, ItemPointer tid, Datum *values, bool *isnull,
			   bool tupleIsAlive, void *state)
{
	BuildState *st = (BuildState *) state;
	uint64		h;

	st->heap_tuples += 1;
	if (isnull[0])
		return;
	st->nkeys++;
	h = bloom_key_hash_fast(st->key, values[0], st->meta.seed);
	if (st->sized)
	{
		build_add(st->index, st, h);
		return;
	}
	if (st->nhashes == st->maxhashes)
	{
		if (st->maxhashes >= st->limit)
		{
			st->last_block = ItemPointerGetBlockNumber(tid);
			size_layers(st->index, st, false);
			build_add(st->index, st, h);
			return;
		}
		st->maxhashes = Min(st->maxhashes * 2, st->limit);
		st->hashes = repalloc_huge(st->hashes, st->maxhashes * sizeof(uint64));
	}
	bloom_put_le64((uint8 *) &st->hashes[st->nhashes++], h);
}

/* Refuses what the index cannot keep a correct filter of */
static void
check_column(Relation index)
{
	Oid			coll = index->rd_indcollation[0];

	if (OidIsValid(coll) && !get_collation_isdeterministic(coll))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bloomfilter indexes do not support nondeterministic collations"),
				 errdetail("Keys that the collation calls equal hash differently, so a probe could miss them."),
				 errhint("Index an expression such as lower(column), or use a deterministic collation.")));
}

/* Writes page blkno through shared buffers (the file has blkno pages) */
static void
write_page(Relation index, BlockNumber blkno, Page src)
{
	Buffer		buf = ReadBufferExtended(index, MAIN_FORKNUM, P_NEW, RBM_NORMAL, NULL);

	if (BufferGetBlockNumber(buf) != blkno)
		elog(ERROR, "bloomfilter index \"%s\": unexpected page %u, wanted %u",
			 RelationGetRelationName(index), BufferGetBlockNumber(buf), blkno);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	memcpy(BufferGetPage(buf), src, BLCKSZ);
	MarkBufferDirty(buf);
	UnlockReleaseBuffer(buf);
}

/* Writes the metapage and the first nlayers layers (in memory) */
static void
write_layers(Relation index, BuildState *st, unsigned nlayers)
{
	PGAlignedBlock page;
	BlockNumber blkno = BFI_META_BLKNO + 1;

	bfi_init_meta_page(page.data, &st->meta);
	write_page(index, BFI_META_BLKNO, page.data);
	for (unsigned i = 0; i < nlayers; i++)
	{
		BfiLayer   *l = &st->meta.layers[i];

		for (uint32 p = 0; p < l->npages; p++)
		{
			bfi_init_data_page(page.data, &st->meta, i, p);
			memcpy(page.data + BFI_DATA_OFFSET,
				   st->bits[i] + (Size) p * BFI_BLOCKS_PER_PAGE * BLOOM_BLOCK_BYTES,
				   (Size) bfi_page_blocks(l, p) * BLOOM_BLOCK_BYTES);
			bfi_opaque(page.data)->nitems = st->counts[i][p];
			write_page(index, blkno++, page.data);
			CHECK_FOR_INTERRUPTS();
		}
	}
}

/* Writes and logs the index built in memory */
static void
write_index(Relation index, BuildState *st)
{
	write_layers(index, st, st->meta.nlayers);
	if (RelationNeedsWAL(index))
		log_newpage_range(index, MAIN_FORKNUM, 0, st->meta.next_blkno, true);
}

/*
 * The seed of index oid (another than index), into *seed, when it is a
 * bloomfilter index with pages that no one holds exclusively: a lock it
 * cannot have at once is skipped (two rebuilds of sibling partitions must
 * not wait for each other), and is held only while the metapage is read
 */
static bool
seed_of(Relation index, Oid oid, uint64 *seed)
{
	Relation	other;
	bool		found = false;

	if (oid == RelationGetRelid(index) || get_rel_relkind(oid) != RELKIND_INDEX ||
		!ConditionalLockRelationOid(oid, AccessShareLock))
		return false;
	other = try_relation_open(oid, NoLock);
	if (other != NULL)
	{
		if (other->rd_rel->relkind == RELKIND_INDEX &&
			other->rd_rel->relam == index->rd_rel->relam &&
			RelationGetNumberOfBlocks(other) > 0)
		{
			Buffer		buf = ReadBuffer(other, BFI_META_BLKNO);
			BfiMeta		m;

			/* a sibling's corrupt metapage is its own REINDEX's business */
			LockBuffer(buf, BUFFER_LOCK_SHARE);
			if (bfi_meta_decode((const uint8 *) BufferGetPage(buf), &m) == BFI_OK)
			{
				*seed = m.seed;
				found = true;
			}
			UnlockReleaseBuffer(buf);
		}
		relation_close(other, NoLock);
	}
	UnlockRelationOid(oid, AccessShareLock);
	return found;
}

/*
 * Whether indexes a and b of one table index the same key: the same
 * column or expression, collation, operator family and predicate (a copy
 * that REINDEX CONCURRENTLY makes has the definition of its original)
 */
static bool
same_definition(Relation a, Relation b)
{
	return a->rd_index->indrelid == b->rd_index->indrelid &&
		a->rd_index->indnatts == b->rd_index->indnatts &&
		a->rd_index->indkey.values[0] == b->rd_index->indkey.values[0] &&
		a->rd_indcollation[0] == b->rd_indcollation[0] &&
		a->rd_opfamily[0] == b->rd_opfamily[0] &&
		equal(RelationGetIndexExpressions(a), RelationGetIndexExpressions(b)) &&
		equal(RelationGetIndexPredicate(a), RelationGetIndexPredicate(b));
}

/*
 * The attached bloomfilter index of index's table that index replaces, as
 * the copy REINDEX CONCURRENTLY builds before it swaps it in: one with the
 * same definition, named so that the copy's name is the one PostgreSQL
 * chose for it (ChooseRelationName: the name, cut to fit, then "_ccnew"
 * and perhaps a number); else the only one with the same definition
 */
static Oid
replaced_index(Relation index, List *indexes)
{
	ListCell   *lc;
	Oid			same_only = InvalidOid;
	int			nsame = 0;
	const char *name = RelationGetRelationName(index);
	const char *label = NULL;

	for (const char *p = strstr(name, "_ccnew"); p != NULL; p = strstr(p + 1, "_ccnew"))
		if (strspn(p + 6, "0123456789") == strlen(p + 6))
			label = p + 1;
	foreach(lc, indexes)
	{
		Oid			oid = lfirst_oid(lc);
		Relation	other;
		bool		same;
		bool		named = false;

		CHECK_FOR_INTERRUPTS();
		if (oid == RelationGetRelid(index) || !get_rel_relispartition(oid) ||
			!ConditionalLockRelationOid(oid, AccessShareLock))
			continue;
		other = try_relation_open(oid, NoLock);
		if (other == NULL)
		{
			UnlockRelationOid(oid, AccessShareLock);
			continue;
		}
		same = other->rd_rel->relam == index->rd_rel->relam &&
			same_definition(index, other);
		if (same && label != NULL)
			named = strcmp(makeObjectName(RelationGetRelationName(other), NULL, label),
						   name) == 0;
		relation_close(other, NoLock);
		UnlockRelationOid(oid, AccessShareLock);
		if (named)
			return oid;
		if (same)
		{
			same_only = oid;
			nsame++;
		}
	}
	return nsame == 1 ? same_only : InvalidOid;
}

/*
 * The seed of another partition's index under the same partitioned index,
 * into *seed: partitions that share a seed (and a size) unite into one
 * filter (bloom_index_filter of the partitioned index).  The index of a
 * partition's table that is not attached yet (REINDEX CONCURRENTLY builds
 * its copy before it swaps it in) takes the seed of the index it replaces
 * (replaced_index).
 */
static bool
partition_seed(Relation index, uint64 *seed)
{
	ListCell   *lc;

	if (index->rd_rel->relispartition)
	{
		List	   *ancestors = get_partition_ancestors(RelationGetRelid(index));

		if (ancestors == NIL)
			return false;
		foreach(lc, find_all_inheritors(llast_oid(ancestors), NoLock, NULL))
		{
			CHECK_FOR_INTERRUPTS();
			if (seed_of(index, lfirst_oid(lc), seed))
				return true;
		}
		return false;
	}
	else
	{
		Relation	heap = table_open(index->rd_index->indrelid, NoLock);
		List	   *indexes = heap->rd_rel->relispartition ? RelationGetIndexList(heap) : NIL;
		Oid			old;

		table_close(heap, NoLock);
		old = replaced_index(index, indexes);
		return OidIsValid(old) && seed_of(index, old, seed);
	}
}

/*
 * The seed of a new index's keys.  The key hash is public
 * (bloom_key_hash), so keys chosen with a known seed all fall on one page
 * of a layer: they could not make the index grow (bfi_layer_full), but
 * they fill that page and raise the rate of the keys that fall there, and
 * a page that fills tells a writer which keys set new bits.  So each build
 * draws a secret seed (pg_strong_random), kept in the metapage and shown
 * only in bloom_index_filter's value, which takes SELECT on the column (the
 * readers need it to hash as the index does).  A partition's index takes
 * the seed of its partitioned index's other partitions; WITH (seed = N)
 * fixes it (a public seed: pg_class.reloptions is readable by any role).
 */
static uint64
index_seed(Relation index, const BfiOptions *o)
{
	uint64		seed;

	if (o->seed >= 0)
		return (uint64) o->seed;
	if (partition_seed(index, &seed))
		return seed;
	if (!pg_strong_random(&seed, sizeof(seed)))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not generate a random hash seed for index \"%s\"",
						RelationGetRelationName(index)),
				 errhint("Give the index a seed: WITH (seed = N).")));
	return seed;
}

/*
 * The metapage of a new index: its options, seed (*seed, or one chosen by
 * index_seed) and column's key class
 */
static void
init_meta(Relation index, BfiMeta *m, BfiCache *c, const uint64 *seed)
{
	BfiOptions	defaults;
	const BfiOptions *o = bfi_index_options(index, &defaults);
	BloomKeyInfo *key = c->key; /* in rd_indexcxt: c may go meanwhile */

	bfi_meta_init(m, o->fpr, o->expansion, o->min_capacity, o->min_pages);
	m->key_class = key->key_class;
	m->key_type = key->key_type;
	m->key_typid = key->typid;
	/* may take locks, and so process invalidations that free rd_amcache */
	m->seed = seed != NULL ? *seed : index_seed(index, o);
}

IndexBuildResult *
bfi_build(Relation heap, Relation index, IndexInfo *indexInfo)
{
	IndexBuildResult *result;
	BuildState	st;
	MemoryContext buildcxt;
	MemoryContext oldcxt;

	if (RelationGetNumberOfBlocks(index) != 0)
		elog(ERROR, "index \"%s\" already contains data",
			 RelationGetRelationName(index));
	check_column(index);
	/* a rebuild in place reads this transaction's rows: its pending keys are in */
	bfi_pending_forget(index);

	/*
	 * What the build allocates goes with it: CREATE INDEX on a partitioned
	 * table, and a rebuild of a table's indexes, build many indexes in one
	 * memory context
	 */
	buildcxt = AllocSetContextCreate(CurrentMemoryContext, "bloomfilter index build",
									 ALLOCSET_DEFAULT_SIZES);
	oldcxt = MemoryContextSwitchTo(buildcxt);
	memset(&st, 0, sizeof(st));
	st.index = index;
	{
		BfiCache   *c = bfi_cache(index);

		/* a new file (TRUNCATE, REINDEX): forget what the old one had */
		c->known_nblocks = 0;
		st.key = c->key;
		init_meta(index, &st.meta, c, NULL);
	}
	st.heap_nblocks = RelationGetNumberOfBlocks(heap);
	st.budget = (Size) maintenance_work_mem * 1024;
	st.limit = Max((uint64) st.budget / 2 / sizeof(uint64), 65536);
	st.maxhashes = 1024;
	st.hashes = palloc(st.maxhashes * sizeof(uint64));

	/* no synchronized scan: the heap page of a row measures progress */
	table_index_build_scan(heap, index, indexInfo, false, true,
						   build_callback, &st, NULL);
	if (!st.sized)
		size_layers(index, &st, true);
	st.meta.build_heap_tuples = (uint64) st.heap_tuples;
	if (st.paged)
	{
		flush_batch(index, &st);
		bfi_set_build_tuples(index, st.meta.build_heap_tuples);
	}
	else
		write_index(index, &st);
	MemoryContextSwitchTo(oldcxt);
	MemoryContextDelete(buildcxt);

	result = palloc_object(IndexBuildResult);
	result->heap_tuples = st.heap_tuples;
	result->index_tuples = (double) st.nkeys;
	return result;
}

/* The init fork of an unlogged index: a metapage without layers */
void
bfi_buildempty(Relation index)
{
	PGAlignedBlock page;
	BfiMeta		m;
	BfiMeta		main;

	/* the main fork's seed (ambuild ran first): a crash reset keeps it */
	bfi_meta_for_index(index, &main);
	init_meta(index, &m, bfi_cache(index), &main.seed);
	bfi_init_meta_page(page.data, &m);
	BT_PAGE_SET_CHECKSUM(page.data, BFI_META_BLKNO);
	smgrwrite(RelationGetSmgr(index), INIT_FORKNUM, BFI_META_BLKNO, page.data, true);
	log_newpage(BT_SMGR_LOCATOR(RelationGetSmgr(index)), INIT_FORKNUM,
				BFI_META_BLKNO, page.data, true);
	smgrimmedsync(RelationGetSmgr(index), INIT_FORKNUM);
}
