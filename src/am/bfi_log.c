/*-------------------------------------------------------------------------
 *
 * bfi_log.c
 *		The change log of a bloomfilter index (1.8): the keys each statement
 *		adds, as the index hashes them, written in the inserting transaction
 *		so that an application's copy of the index's filter can catch up by
 *		the keys instead of reloading the whole filter (bfi_sync.c reads it).
 *
 * bloom_index_log_trigger(index [, channel [, keep]]) is a statement-level
 * AFTER INSERT or AFTER UPDATE trigger with a transition table (REFERENCING
 * NEW TABLE): for the statement's new rows it computes the index's key
 * (column, expression, partial predicate) and its 64-bit hash under the
 * index's seed, and writes them to the extension's table
 * bloomtype_index_log as rows of at most BFI_LOG_CHUNK hashes, 8 bytes
 * each, little-endian, with the table, the index and its file, and the
 * writing transaction's id.  The rows are found by table (bfi_sync.c says
 * why: an index's name may pass to another index).  The rows are
 * written as the log table's owner (PUBLIC has no right on it), as
 * PostgreSQL's foreign-key triggers act as the referenced table's owner:
 * a role that may only INSERT gets its keys logged and reads none.  The
 * trigger then sends NOTIFY on the channel (the index's name unless
 * given; '' for none) with an empty payload: a wake-up only, since what a
 * notification carries every role may read with LISTEN.
 *
 * The log is pruned of a table's rows older than keep (10 minutes unless
 * given) by one statement in 256 (by its transaction id, so no state is
 * kept), and by bloom_index_log_prune; the greatest transaction id pruned
 * is kept per table in bloomtype_index_log_horizon, so that a reader whose
 * position is older learns that its copy cannot be brought up to date
 * (bfi_sync.c).  A written table's log is so bounded by its write rate
 * times keep (and the longest transaction running), whatever the keys;
 * the rows of a table no longer written, or dropped, stay until
 * bloom_index_log_prune (which also deletes those of dropped tables).  A
 * table's rows are pruned with the keep of whichever of its triggers
 * fires: give them the same.  A writer that ran longer than keep has its
 * rows pruned soon after it commits, and the copies whose marks saw it
 * running reload once.
 *
 *-------------------------------------------------------------------------
 */
#include "bfindex.h"
#include "bfsync.h"

#include "access/table.h"
#include "access/xact.h"
#include "catalog/index.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type.h"
#include "commands/async.h"
#include "commands/trigger.h"
#include "executor/executor.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"

/* Prune in one statement of this many (by transaction id) */
#define BFI_LOG_PRUNE_EVERY		256

/*
 * The schema of the extension's objects: that of the calling function,
 * which is one of them (the extension is relocatable; a name looked up
 * through search_path could be anyone's table)
 */
static Oid
log_schema(FunctionCallInfo fcinfo)
{
	return get_func_namespace(fcinfo->flinfo->fn_oid);
}

/* The log table (or its horizon) of the extension, and its owner */
Oid
bfi_log_relation(FunctionCallInfo fcinfo, const char *name, Oid *owner)
{
	Oid			nsp = log_schema(fcinfo);
	Oid			relid = get_relname_relid(name, nsp);
	HeapTuple	tup;

	if (!OidIsValid(relid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("table \"%s.%s\" of extension bloomtype does not exist",
						get_namespace_name(nsp), name),
				 errhint("ALTER EXTENSION bloomtype UPDATE makes it (version 1.8 or later).")));
	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	*owner = ((Form_pg_class) GETSTRUCT(tup))->relowner;
	ReleaseSysCache(tup);
	return relid;
}

/* The extension's schema, quoted for a query's text */
const char *
bfi_log_schema_quoted(FunctionCallInfo fcinfo)
{
	return quote_identifier(get_namespace_name(log_schema(fcinfo)));
}

/*
 * Runs as the log's owner from here to bfi_log_leave.  Only the log's own
 * statements run so (they name every object with its schema, and call no
 * function a user can define); a restricted operation besides.  An ERROR
 * meanwhile is no harm: the transaction's abort restores the user.
 */
void
bfi_log_enter(BfiLogUser *u, Oid owner)
{
	GetUserIdAndSecContext(&u->userid, &u->sec_context);
	SetUserIdAndSecContext(owner, u->sec_context | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
}

void
bfi_log_leave(const BfiLogUser *u)
{
	SetUserIdAndSecContext(u->userid, u->sec_context);
}

/* The hashes h[0..n) as one bytea, 8 bytes each, little-endian */
static bytea *
hashes_bytea(const uint64 *h, uint32 n)
{
	bytea	   *b = palloc(VARHDRSZ + (Size) 8 * n);
	uint8	   *p = (uint8 *) VARDATA(b);

	SET_VARSIZE(b, VARHDRSZ + (Size) 8 * n);
	for (uint32 i = 0; i < n; i++)
		for (int j = 0; j < 8; j++)
			*p++ = (uint8) (h[i] >> (8 * j));
	return b;
}

/* The log's INSERT, planned once a statement (SPI connected), as the log's owner */
static SPIPlanPtr
prepare_insert(const char *schema, Oid owner)
{
	BfiLogUser	u;
	Oid			types[4] = {OIDOID, OIDOID, OIDOID, BYTEAOID};
	char	   *sql = psprintf("INSERT INTO %s.bloomtype_index_log"
							   " (heaprelid, indexrelid, relfilenode, hashes)"
							   " VALUES ($1, $2, $3, $4)", schema);
	SPIPlanPtr	plan;

	bfi_log_enter(&u, owner);
	plan = SPI_prepare(sql, 4, types);
	bfi_log_leave(&u);
	if (plan == NULL)
		elog(ERROR, "cannot plan the change log's insert: %s",
			 SPI_result_code_string(SPI_result));
	pfree(sql);
	return plan;
}

/*
 * Writes one log row of the n hashes h of index (SPI connected), as the
 * log's owner
 */
static void
write_row(SPIPlanPtr insert, Oid owner, Relation index, const uint64 *h, uint32 n)
{
	Datum		values[4];
	bytea	   *b = hashes_bytea(h, n);
	BfiLogUser	u;

	values[0] = ObjectIdGetDatum(index->rd_index->indrelid);
	values[1] = ObjectIdGetDatum(RelationGetRelid(index));
	values[2] = ObjectIdGetDatum(BT_REL_FILENUMBER(index));
	values[3] = PointerGetDatum(b);
	bfi_log_enter(&u, owner);
	if (SPI_execute_plan(insert, values, NULL, false, 0) != SPI_OK_INSERT)
		elog(ERROR, "cannot write the change log of index \"%s\"",
			 RelationGetRelationName(index));
	bfi_log_leave(&u);
	SPI_freetuptable(SPI_tuptable);
	pfree(b);
}

/*
 * Deletes the log rows of table heapoid (of all its logged indexes) older
 * than keep, and raises its horizon to the greatest transaction id
 * deleted.  SPI connected, as the log's owner.  Returns the rows deleted.
 * It never deletes past its own snapshot's xmin: every mark taken since
 * has an xmin at least that, so that a transaction that runs long (or a
 * prepared one left behind) keeps its rows, not every mark "pruned".
 */
uint64
bfi_log_prune(const char *schema, Oid heapoid, Interval *keep)
{
	char	   *sql = psprintf(
							   "WITH old AS ("
							   " SELECT coalesce((SELECT l.xid FROM %s.bloomtype_index_log l"
							   "   WHERE l.heaprelid OPERATOR(pg_catalog.=) $1"
							   "     AND l.logged_at OPERATOR(pg_catalog.>=) (pg_catalog.now() OPERATOR(pg_catalog.-) $2)"
							   "   ORDER BY l.xid LIMIT 1), pg_catalog.pg_current_xact_id()) AS x),"
							   " cut AS (SELECT LEAST(old.x, pg_catalog.pg_snapshot_xmin(pg_catalog.pg_current_snapshot())) AS x"
							   "   FROM old),"
							   " gone AS (DELETE FROM %s.bloomtype_index_log l USING cut"
							   "   WHERE l.heaprelid OPERATOR(pg_catalog.=) $1 AND l.xid OPERATOR(pg_catalog.<) cut.x"
							   "   RETURNING l.xid),"
							   " top AS (SELECT (SELECT g.xid FROM gone g ORDER BY g.xid DESC LIMIT 1) AS x,"
							   "   (SELECT pg_catalog.count(*) FROM gone) AS n),"
							   " raised AS (INSERT INTO %s.bloomtype_index_log_horizon AS h (heaprelid, horizon)"
							   "   SELECT $1, top.x FROM top WHERE top.n OPERATOR(pg_catalog.>) 0"
							   "   ON CONFLICT (heaprelid) DO UPDATE"
							   "   SET horizon = GREATEST(h.horizon, excluded.horizon))"
							   "SELECT n FROM top",
							   schema, schema, schema);
	Oid			types[2] = {OIDOID, INTERVALOID};
	Datum		values[2] = {ObjectIdGetDatum(heapoid), IntervalPGetDatum(keep)};
	bool		isnull;
	Datum		n;

	if (SPI_execute_with_args(sql, 2, types, values, NULL, false, 0) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "cannot prune the change log of table %u", heapoid);
	n = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	pfree(sql);
	return isnull ? 0 : (uint64) DatumGetInt64(n);
}

/*
 * Deletes the log rows and horizons of tables that no longer exist (SPI
 * connected, as the log's owner): no trigger of theirs prunes them.
 * Returns the rows deleted.
 */
static uint64
prune_orphans(const char *schema)
{
	char	   *sql = psprintf("WITH gone AS (DELETE FROM %s.bloomtype_index_log l"
							   "   WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_class c"
							   "                      WHERE c.oid OPERATOR(pg_catalog.=) l.heaprelid)"
							   "   RETURNING 1),"
							   " h AS (DELETE FROM %s.bloomtype_index_log_horizon h"
							   "   WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_class c"
							   "                      WHERE c.oid OPERATOR(pg_catalog.=) h.heaprelid))"
							   "SELECT pg_catalog.count(*) FROM gone", schema, schema);
	bool		isnull;
	Datum		n;

	if (SPI_execute(sql, false, 0) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "cannot prune the change log of dropped tables");
	n = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	pfree(sql);
	return isnull ? 0 : (uint64) DatumGetInt64(n);
}

/*
 * The ERROR for a negative retention keep: given as text s (a trigger's
 * argument, named in the message), or NULL (bloom_index_log_prune's)
 */
static void
check_keep(const Interval *keep, const char *s)
{
	if (keep->month >= 0 && keep->day >= 0 && keep->time >= 0)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 s != NULL ?
			 errmsg("the change log's retention cannot be negative: %s", s) :
			 errmsg("the change log's retention cannot be negative"),
			 errhint("Give an interval such as '10 minutes'.")));
}

/* The interval of text s, for keep */
static Interval *
parse_keep(const char *s)
{
	Interval   *keep = DatumGetIntervalP(DirectFunctionCall3(interval_in,
															 CStringGetDatum(s),
															 ObjectIdGetDatum(InvalidOid),
															 Int32GetDatum(-1)));

	check_keep(keep, s);
	return keep;
}

/*
 * The bloomfilter index of the trigger's table named by its first
 * argument, open (the table is locked by the statement already)
 */
static Relation
trigger_index(TriggerData *td)
{
	Relation	rel = td->tg_relation;
	Trigger    *tg = td->tg_trigger;
	Oid			indexoid;
	Relation	index;

	if (tg->tgnargs < 1 || tg->tgnargs > 3)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("trigger \"%s\" on table \"%s\" passes %d arguments to bloom_index_log_trigger",
						tg->tgname, RelationGetRelationName(rel), tg->tgnargs),
				 errhint("Pass the index's name, then optionally the NOTIFY channel and the log's retention: bloom_index_log_trigger('users_id_bloom').")));
	if (rel->rd_rel->relkind == RELKIND_PARTITIONED_TABLE || rel->rd_rel->relispartition ||
		has_superclass(RelationGetRelid(rel)))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bloom_index_log_trigger is not supported on table \"%s\", which is partitioned, a partition or an inheritance child",
						RelationGetRelationName(rel)),
				 errdetail("Rows written through a parent table fire no statement trigger of the table they land in, so their keys would be missing from the log."),
				 errhint("Keep copies of such a table's indexes with bloom_index_filter, reloaded on a timer.")));
	indexoid = get_relname_relid(tg->tgargs[0], RelationGetNamespace(rel));
	if (!OidIsValid(indexoid) || get_rel_relkind(indexoid) != RELKIND_INDEX ||
		IndexGetRelation(indexoid, true) != RelationGetRelid(rel))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("table \"%s\" has no index \"%s\"",
						RelationGetRelationName(rel), tg->tgargs[0]),
				 errhint("The trigger's first argument names a bloomfilter index of the table it is on.")));
	index = index_open(indexoid, RowExclusiveLock);
	if (index->rd_indam == NULL || index->rd_indam->aminsert != bfi_insert)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("index \"%s\" is not a bloomfilter index", RelationGetRelationName(index)),
				 errhint("Create one with CREATE INDEX ... USING bloomfilter (column).")));
	return index;
}

/*
 * The hashes of the index's keys of the transition table's rows, as the
 * index hashes them (bfi_insert: NULLs and rows outside a partial index's
 * predicate are no keys), written to the log in rows of BFI_LOG_CHUNK.
 * The keys (the index's expressions and predicate, the type's send
 * function) are computed as the user whose statement fired the trigger,
 * as the executor computed them for the index: only the log's own
 * statements run as its owner, which may be a superuser (a role that
 * could make an index's expression run as the owner would be one).
 */
static uint64
log_rows(SPIPlanPtr insert, Oid owner, Relation rel, Relation index,
		 Tuplestorestate *rows)
{
	IndexInfo  *ii = BuildIndexInfo(index);
	EState	   *estate = CreateExecutorState();
	ExprContext *econtext = GetPerTupleExprContext(estate);
	TupleTableSlot *slot = MakeSingleTupleTableSlot(RelationGetDescr(rel),
													&TTSOpsMinimalTuple);
	ExprState  *pred = ii->ii_Predicate != NIL ?
		ExecPrepareQual(ii->ii_Predicate, estate) : NULL;
	BloomKeyInfo *ki = bfi_cache(index)->key;
	BfiMeta		m;
	uint64		seed;
	uint64	   *h = palloc(sizeof(uint64) * BFI_LOG_CHUNK);
	uint32		n = 0;
	uint64		total = 0;

	/* the seed of the index's file, as its pending keys are hashed */
	bfi_meta_for_index(index, &m);
	seed = m.seed;
	econtext->ecxt_scantuple = slot;
	tuplestore_rescan(rows);
	while (tuplestore_gettupleslot(rows, true, false, slot))
	{
		Datum		values[INDEX_MAX_KEYS];
		bool		isnull[INDEX_MAX_KEYS];

		MemoryContext old;

		CHECK_FOR_INTERRUPTS();
		ResetExprContext(econtext);
		if (pred != NULL && !ExecQual(pred, econtext))
			continue;
		/* what the key's hashing allocates (a detoasted value, a send
		 * function's result) goes with the row */
		old = MemoryContextSwitchTo(econtext->ecxt_per_tuple_memory);
		FormIndexDatum(ii, slot, estate, values, isnull);
		if (!isnull[0])
			h[n++] = bloom_key_hash_fast(ki, values[0], seed);
		MemoryContextSwitchTo(old);
		if (n == BFI_LOG_CHUNK)
		{
			write_row(insert, owner, index, h, n);
			total += n;
			n = 0;
		}
	}
	if (n > 0)
		write_row(insert, owner, index, h, n);
	total += n;
	ExecDropSingleTupleTableSlot(slot);
	FreeExecutorState(estate);
	pfree(h);
	return total;
}

PG_FUNCTION_INFO_V1(bloom_index_log_trigger);
Datum
bloom_index_log_trigger(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	Relation	index;
	Tuplestorestate *rows;
	const char *channel;
	Interval   *keep;
	Oid			owner;
	BfiLogUser	u;
	const char *schema;
	uint64		logged;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("bloom_index_log_trigger was not called by the trigger manager"),
				 errhint("Use it in CREATE TRIGGER ... AFTER INSERT ON t REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('index').")));
	if (!TRIGGER_FIRED_AFTER(td->tg_event) || !TRIGGER_FIRED_FOR_STATEMENT(td->tg_event) ||
		!(TRIGGER_FIRED_BY_INSERT(td->tg_event) || TRIGGER_FIRED_BY_UPDATE(td->tg_event)) ||
		td->tg_newtable == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("trigger \"%s\" must fire AFTER INSERT or AFTER UPDATE, FOR EACH STATEMENT, with REFERENCING NEW TABLE",
						td->tg_trigger->tgname),
				 errhint("CREATE TRIGGER ... AFTER INSERT ON t REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bloom_index_log_trigger('index').")));
	index = trigger_index(td);
	channel = td->tg_trigger->tgnargs >= 2 ? td->tg_trigger->tgargs[1] :
		RelationGetRelationName(index);
	keep = parse_keep(td->tg_trigger->tgnargs >= 3 ? td->tg_trigger->tgargs[2] :
					  BFI_LOG_DEFAULT_KEEP);
	rows = td->tg_newtable;

	(void) bfi_log_relation(fcinfo, "bloomtype_index_log", &owner);
	schema = bfi_log_schema_quoted(fcinfo);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	logged = log_rows(prepare_insert(schema, owner), owner, td->tg_relation, index, rows);
	if (logged > 0 &&
		XidFromFullTransactionId(GetTopFullTransactionId()) % BFI_LOG_PRUNE_EVERY == 0)
	{
		bfi_log_enter(&u, owner);
		(void) bfi_log_prune(schema, RelationGetRelid(td->tg_relation), keep);
		bfi_log_leave(&u);
	}
	SPI_finish();
	if (logged > 0 && channel[0] != '\0')
		Async_Notify(channel, "");
	index_close(index, NoLock);
	return PointerGetDatum(NULL);
}

/*
 * bloom_index_log_prune(index, keep): deletes the log rows of the index's
 * table older than keep, for the owner of the table, and those of tables
 * dropped since; returns the rows deleted
 */
PG_FUNCTION_INFO_V1(bloom_index_log_prune);
Datum
bloom_index_log_prune(PG_FUNCTION_ARGS)
{
	Oid			indexoid = PG_GETARG_OID(0);
	Interval   *keep = PG_GETARG_INTERVAL_P(1);
	Oid			heapoid = IndexGetRelation(indexoid, true);
	Oid			owner;
	BfiLogUser	u;
	const char *schema;
	uint64		n;

	if (!OidIsValid(heapoid))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("relation with OID %u is not an index", indexoid),
				 errhint("Pass the name of the bloomfilter index whose log to prune.")));
	if (!BT_CLASS_OWNERCHECK(heapoid, GetUserId()))
		aclcheck_error(ACLCHECK_NOT_OWNER, OBJECT_TABLE, get_rel_name(heapoid));
	check_keep(keep, NULL);
	(void) bfi_log_relation(fcinfo, "bloomtype_index_log", &owner);
	schema = bfi_log_schema_quoted(fcinfo);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	bfi_log_enter(&u, owner);
	n = bfi_log_prune(schema, heapoid, keep);
	n += prune_orphans(schema);
	bfi_log_leave(&u);
	SPI_finish();
	PG_RETURN_INT64((int64) n);
}
