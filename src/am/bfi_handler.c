/*-------------------------------------------------------------------------
 *
 * bfi_handler.c
 *		The bloomfilter access method's handler: its capabilities, options,
 *		cost (never chosen for a scan), vacuum (reports, changes nothing)
 *		and the scan entry points that refuse.
 *
 * The index holds no row pointers, so it cannot answer a scan: the planner
 * discards its paths (no amgettuple, no amgetbitmap), and the SQL functions
 * of bfi_funcs.c read it instead (with bfi_read.c).  Options are local
 * reloptions, parsed here and nowhere else, so that the library needs no
 * _PG_init and takes no global reloption kind.
 *
 *-------------------------------------------------------------------------
 */
#include "bfindex.h"

#include "access/reloptions.h"
#include "commands/vacuum.h"
#include "optimizer/cost.h"
#include "utils/index_selfuncs.h"

PG_FUNCTION_INFO_V1(bloom_index_handler);

static void
init_options(local_relopts *relopts)
{
	init_local_reloptions(relopts, sizeof(BfiOptions));
	add_local_real_reloption(relopts, "fpr",
							 "false-positive rate the filter keeps at or under",
							 BFI_DEFAULT_FPR, BLOOM_MIN_SCALABLE_FPR, BLOOM_MAX_FPR,
							 offsetof(BfiOptions, fpr));
	add_local_int_reloption(relopts, "expansion",
							"each new layer holds this many times the keys of the last",
							BFI_DEFAULT_EXPANSION, 1, BLOOM_MAX_EXPANSION,
							offsetof(BfiOptions, expansion));
	add_local_int_reloption(relopts, "min_capacity",
							"keys the first layer holds at least",
							BFI_DEFAULT_MIN_CAPACITY, 1, 1000000000,
							offsetof(BfiOptions, min_capacity));
	add_local_int_reloption(relopts, "min_pages",
							"pages the first layer spans at least",
							BFI_DEFAULT_MIN_PAGES, 1, 1024,
							offsetof(BfiOptions, min_pages));
	add_local_int_reloption(relopts, "seed",
							"hash seed of the keys (-1: a secret one, drawn at each build)",
							BFI_DEFAULT_SEED, -1, PG_INT32_MAX,
							offsetof(BfiOptions, seed));
}

bytea *
bfi_options(Datum reloptions, bool validate)
{
	local_relopts relopts;

	init_options(&relopts);
	return (bytea *) build_local_reloptions(&relopts, reloptions, validate);
}

/* The index's options, or the defaults (in *defaults) when it has none */
const BfiOptions *
bfi_index_options(Relation index, BfiOptions *defaults)
{
	if (index->rd_options)
		return (const BfiOptions *) index->rd_options;
	defaults->fpr = BFI_DEFAULT_FPR;
	defaults->expansion = BFI_DEFAULT_EXPANSION;
	defaults->min_capacity = BFI_DEFAULT_MIN_CAPACITY;
	defaults->min_pages = BFI_DEFAULT_MIN_PAGES;
	defaults->seed = BFI_DEFAULT_SEED;
	return defaults;
}

/*
 * Never chosen: a path over this index could not be executed.  The planner
 * calls this only for a partial index whose predicate a query implies, and
 * discards the path because the method has neither amgettuple nor
 * amgetbitmap; disable_cost keeps it out of the running even before that.
 */
static void
bfi_costestimate(PlannerInfo *root, IndexPath *path, double loop_count,
				 Cost *indexStartupCost, Cost *indexTotalCost,
				 Selectivity *indexSelectivity, double *indexCorrelation,
				 double *indexPages)
{
	*indexStartupCost = disable_cost;
	*indexTotalCost = disable_cost;
	*indexSelectivity = 1.0;
	*indexCorrelation = 0.0;
	*indexPages = path->indexinfo->pages;
}

/*
 * A Bloom filter cannot forget: deleted keys stay (false positives only).
 * There are no row pointers to remove, so the callback is never called;
 * REINDEX rebuilds the filter from the rows that remain.
 */
static IndexBulkDeleteResult *
bfi_bulkdelete(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
			   IndexBulkDeleteCallback callback, void *callback_state)
{
	if (stats == NULL)
		stats = palloc0_object(IndexBulkDeleteResult);
	return stats;
}

static IndexBulkDeleteResult *
bfi_vacuumcleanup(IndexVacuumInfo *info, IndexBulkDeleteResult *stats)
{
	BfiMeta		m;

	if (info->analyze_only)
		return stats;
	if (stats == NULL)
		stats = palloc0_object(IndexBulkDeleteResult);
	stats->num_pages = RelationGetNumberOfBlocks(info->index);
	stats->num_index_tuples = info->num_heap_tuples;
	stats->estimated_count = info->estimated_count;

	bfi_meta_for_index(info->index, &m);
	ereport(info->message_level,
			(errmsg_plural("bloomfilter index \"%s\": %u layer over %u pages; deleted keys stay in the filter",
						   "bloomfilter index \"%s\": %u layers over %u pages; deleted keys stay in the filter",
						   m.nlayers,
						   RelationGetRelationName(info->index), m.nlayers,
						   stats->num_pages),
			 errhint("REINDEX rebuilds the filter from the rows that remain; bloom_index_info() shows its saturation.")));
	return stats;
}

static void
refuse_scan(Relation index)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("index access method \"bloomfilter\" does not support index scans"),
			 errdetail("Index \"%s\" holds a Bloom filter of its column, not row pointers.",
					   RelationGetRelationName(index)),
			 errhint("Use bloom_index_contains() to ask the index whether a key may be present.")));
}

static IndexScanDesc
bfi_beginscan(Relation index, int nkeys, int norderbys)
{
	refuse_scan(index);
	return NULL;				/* keep compiler quiet */
}

static void
bfi_rescan(IndexScanDesc scan, ScanKey keys, int nkeys, ScanKey orderbys,
		   int norderbys)
{
	refuse_scan(scan->indexRelation);
}

static void
bfi_endscan(IndexScanDesc scan)
{
}

Datum
bloom_index_handler(PG_FUNCTION_ARGS)
{
	IndexAmRoutine *amroutine = makeNode(IndexAmRoutine);

	amroutine->amstrategies = 0;
	amroutine->amsupport = 1;
	amroutine->amoptsprocnum = 0;
	amroutine->amcanorder = false;
	amroutine->amcanorderbyop = false;
	amroutine->amcanbackward = false;
	amroutine->amcanunique = false;
	amroutine->amcanmulticol = false;
	amroutine->amoptionalkey = true;
	amroutine->amsearcharray = false;
	amroutine->amsearchnulls = false;
	amroutine->amstorage = false;
	amroutine->amclusterable = false;
	amroutine->ampredlocks = false;
	amroutine->amcanparallel = false;
	amroutine->amcaninclude = false;
	amroutine->amusemaintenanceworkmem = false;
	amroutine->amparallelvacuumoptions = VACUUM_OPTION_NO_PARALLEL;
	amroutine->amkeytype = InvalidOid;

	amroutine->ambuild = bfi_build;
	amroutine->ambuildempty = bfi_buildempty;
	amroutine->aminsert = bfi_insert;
	amroutine->ambulkdelete = bfi_bulkdelete;
	amroutine->amvacuumcleanup = bfi_vacuumcleanup;
	amroutine->amcanreturn = NULL;
	amroutine->amcostestimate = bfi_costestimate;
	amroutine->amoptions = bfi_options;
	amroutine->amproperty = NULL;
	amroutine->ambuildphasename = NULL;
	amroutine->amvalidate = bfi_validate;
	amroutine->amadjustmembers = bfi_adjustmembers;
	amroutine->ambeginscan = bfi_beginscan;
	amroutine->amrescan = bfi_rescan;
	amroutine->amgettuple = NULL;
	amroutine->amgetbitmap = NULL;
	amroutine->amendscan = bfi_endscan;
	amroutine->ammarkpos = NULL;
	amroutine->amrestrpos = NULL;
	amroutine->amestimateparallelscan = NULL;
	amroutine->aminitparallelscan = NULL;
	amroutine->amparallelrescan = NULL;

	/*
	 * What later majors added (makeNode zeroes them; set here so that a
	 * reader of one major sees every field).  16: an index that only
	 * summarizes may let HOT updates through; ours holds every key, so
	 * no.  17: aminsertcleanup is called when a statement closes its
	 * indexes: the statement's pending keys are written there
	 * (bfi_pending.c); amcanbuildparallel would have CREATE INDEX launch workers, which an
	 * access method must then coordinate itself (README, "Supported
	 * PostgreSQL versions", says why not yet).  18: the fields for
	 * methods that answer scans, which this one does not.
	 */
#if PG_VERSION_NUM >= 160000
	amroutine->amsummarizing = false;
#endif
#if PG_VERSION_NUM >= 170000
	amroutine->amcanbuildparallel = false;
	amroutine->aminsertcleanup = bfi_insertcleanup;
#endif
#if PG_VERSION_NUM >= 180000
	amroutine->amcanhash = false;
	amroutine->amconsistentequality = false;
	amroutine->amconsistentordering = false;
	amroutine->amgettreeheight = NULL;
	amroutine->amtranslatestrategy = NULL;
	amroutine->amtranslatecmptype = NULL;
#endif

	PG_RETURN_POINTER(amroutine);
}
