/*-------------------------------------------------------------------------
 *
 * bfi_sync.c
 *		An application's copy of a bloomfilter index brought up to date by
 *		the keys added since it was taken (1.8): bloom_index_filter_at and
 *		bloom_index_changes.
 *
 * A position (its text is the mark) says what a copy is complete for:
 * the snapshot of the statement that read it (pg_current_snapshot), with
 * what identifies the index's filter (the cluster and its start, the
 * database, timeline, index, its file and seed, its layers, its log
 * triggers).  bloom_index_filter_at reads the filter after its
 * statement's snapshot was taken, and every transaction that snapshot sees
 * wrote its keys to the index's pages before it committed (bfi_pending.c
 * flushes at pre-commit), so the copy holds every key of a transaction
 * visible at the position (and perhaps more, of transactions running).
 *
 * bloom_index_changes(index, since) returns the hashes of the log rows
 * (bfi_log.c) of the transactions that its own statement's snapshot sees
 * and the position's does not:
 *
 *		xid >= pg_snapshot_xmin(since) AND NOT pg_visible_in_snapshot(xid, since)
 *
 * and that snapshot as the new position, so that every transaction is
 * delivered once whatever the order in which transactions commit (a
 * sequence number taken at insert would skip a row that commits after a
 * later one was read).  When the copy cannot be brought up to date it
 * says so, with no hashes, and the reader reloads: another cluster,
 * database, timeline or index; another file or seed (REINDEX, TRUNCATE,
 * VACUUM FULL); a layer added since (the server then put keys in it that
 * the copy cannot place); log rows pruned that the position had not seen;
 * or more hashes than the filter has bytes (a reload is then cheaper).
 *
 * Both read the index as bloom_index_filter does, with its checks (SELECT
 * on the table, no row-level security), and read the log as its owner
 * only after them: a role that may not read the index receives no hashes.
 *
 *-------------------------------------------------------------------------
 */
#include "bfindex.h"
#include "bfsync.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/index.h"
#include "catalog/pg_index.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_subscription_rel.h"
#include "catalog/pg_trigger.h"
#include "commands/trigger.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#define MARK_VERSION	"bt1"

/*
 * What identifies the filter a copy was taken from, in the order of the
 * mark's fields: the cluster and the server's start (a restore from a
 * file-level copy keeps the system identifier and may give transaction
 * ids again: a restart is a gap, one reload), the database, the timeline
 * (a promotion), the index, its file and seed (a tag of it), its layers,
 * and a tag of the table's log triggers (log_triggers).
 */
typedef struct SyncIdent
{
	uint64		sysid;
	uint64		started;
	uint64		dboid;
	uint64		tli;
	uint64		indexoid;
	uint64		relfile;
	uint64		seedtag;
	uint64		nlayers;
	uint64		trigtag;
} SyncIdent;

#define IDENT_FIELDS	9

/* The index's identity (its seed as a tag, not the seed) */
static void
ident_of(SyncIdent *id, Relation index, uint64 seed, uint32 nlayers, uint64 trigtag)
{
	id->sysid = GetSystemIdentifier();
	id->started = (uint64) PgStartTime;
	id->dboid = MyDatabaseId;
	id->tli = GetWALInsertionTimeLine();
	id->indexoid = RelationGetRelid(index);
	id->relfile = BT_REL_FILENUMBER(index);
	id->seedtag = (uint32) DatumGetUInt64(hash_any_extended((const unsigned char *) &seed,
															sizeof(seed), 0x62743173));
	id->nlayers = nlayers;
	id->trigtag = trigtag;
}

static int
xid_cmp(const void *a, const void *b)
{
	uint64		x = *(const uint64 *) a;
	uint64		y = *(const uint64 *) b;

	return (x > y) - (x < y);
}

/*
 * The active snapshot as pg_snapshot's text form (xmin:xmax:xip,...),
 * with this transaction among the running ones when it has an id: a
 * snapshot leaves its own transaction out (its changes are visible to
 * it), but a mark counts as done only what has committed, so that the
 * keys this transaction logs, before or after, come in a catch-up once
 * it commits.
 */
static char *
snapshot_text(void)
{
	Datum		snap = OidFunctionCall0Coll(F_PG_CURRENT_SNAPSHOT, InvalidOid);
	char	   *text = DatumGetCString(OidFunctionCall1(F_PG_SNAPSHOT_OUT, snap));
	FullTransactionId own = GetTopFullTransactionIdIfAny();
	uint64		xmin,
				xmax,
			   *xip;
	int			n = 0;
	char	   *c;
	StringInfoData out;

	if (!FullTransactionIdIsValid(own))
		return text;
	/* the text pg_snapshot_out wrote: numbers, ':' and ',' */
	xip = palloc(sizeof(uint64) * (strlen(text) / 2 + 2));
	xmin = strtoull(text, &c, 10);
	xmax = strtoull(c + 1, &c, 10);
	c++;
	while (*c != '\0')
	{
		xip[n++] = strtoull(c, &c, 10);
		if (*c == ',')
			c++;
	}
	/* an id taken after the snapshot is running in it already */
	if (U64FromFullTransactionId(own) >= xmax)
	{
		pfree(xip);
		return text;
	}
	xip[n++] = U64FromFullTransactionId(own);
	qsort(xip, n, sizeof(uint64), xid_cmp);
	initStringInfo(&out);
	appendStringInfo(&out, UINT64_FORMAT ":" UINT64_FORMAT ":", Min(xmin, xip[0]), xmax);
	for (int i = 0; i < n; i++)
		if (i == 0 || xip[i] != xip[i - 1])
			appendStringInfo(&out, "%s" UINT64_FORMAT, i > 0 ? "," : "", xip[i]);
	pfree(xip);
	return out.data;
}

static text *
mark_text(const SyncIdent *id, const char *snapshot)
{
	return cstring_to_text(psprintf(MARK_VERSION "/" UINT64_FORMAT "/" UINT64_FORMAT "/"
									UINT64_FORMAT "/" UINT64_FORMAT "/" UINT64_FORMAT "/"
									UINT64_FORMAT "/" UINT64_FORMAT "/" UINT64_FORMAT "/"
									UINT64_FORMAT "/%s",
									id->sysid, id->started, id->dboid, id->tli, id->indexoid,
									id->relfile, id->seedtag, id->nlayers, id->trigtag,
									snapshot));
}

static void
bad_mark(const char *s)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid mark for bloom_index_changes: \"%s\"", s),
			 errhint("Pass the mark that bloom_index_filter_at or bloom_index_changes returned, unchanged.")));
}

/*
 * Reads mark p into id and *snapshot (which pg_snapshot's input checks);
 * an ERROR when it is not one
 */
static void
parse_mark(text *p, SyncIdent *id, char **snapshot)
{
	char	   *s = text_to_cstring(p);
	char	   *c = s;
	uint64	   *fields = (uint64 *) id;

	StaticAssertStmt(sizeof(SyncIdent) == IDENT_FIELDS * sizeof(uint64),
					 "a mark's fields are the identity's");
	if (strncmp(c, MARK_VERSION "/", strlen(MARK_VERSION "/")) != 0)
		bad_mark(s);
	c += strlen(MARK_VERSION "/");
	for (int i = 0; i < IDENT_FIELDS; i++)
	{
		char	   *end;

		if (*c < '0' || *c > '9')
			bad_mark(s);
		errno = 0;
		fields[i] = strtoull(c, &end, 10);
		if (errno != 0 || *end != '/')
			bad_mark(s);
		c = end + 1;
	}
	if (*c == '\0')
		bad_mark(s);
	*snapshot = c;
}

/*
 * Whether rows may reach table heapoid without firing its statement
 * triggers though they are enabled: a partition or an inheritance child
 * (rows written through a parent fire the parent's), or a table a
 * subscription writes (logical replication's apply fires row triggers
 * only)
 */
static bool
bypasses_triggers(Oid heapoid)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	bool		found;

	if (get_rel_relispartition(heapoid) || has_superclass(heapoid))
		return true;
	rel = table_open(SubscriptionRelRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_subscription_rel_srrelid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(heapoid));
	scan = systable_beginscan(rel, SubscriptionRelSrrelidSrsubidIndexId, true, NULL, 1, &key);
	found = HeapTupleIsValid(systable_getnext(scan));
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return found;
}

/*
 * A tag of the table's log triggers for index (bloom_index_log_trigger
 * naming it, for each statement, with no WHEN condition, enabled so that
 * ordinary sessions fire it), or 0 when they do not log both its INSERTs
 * and its UPDATEs, or when rows may reach the table without them: then
 * changes would be missed without a trace.  The tag mixes each such
 * trigger's OID and the transaction that last wrote its row (ALTER TABLE
 * ... DISABLE, then ENABLE TRIGGER writes it twice): a mark taken before
 * another tag has missed what was not logged meanwhile.  A trigger
 * enabled for replicas alone ('R') does not count; one enabled the
 * default way ('O') does not fire in a session whose
 * session_replication_role is replica, which no reader can see (the docs
 * say so).
 */
static uint64
log_triggers(FunctionCallInfo fcinfo, Relation index)
{
	Oid			nsp = get_func_namespace(fcinfo->flinfo->fn_oid);
	Oid			heapoid = index->rd_index->indrelid;
	Relation	tgrel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tup;
	bool		ins = false,
				upd = false;
	uint64		tag = 0x62743174;

	if (bypasses_triggers(heapoid))
		return 0;
	tgrel = table_open(TriggerRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_trigger_tgrelid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(heapoid));
	scan = systable_beginscan(tgrel, TriggerRelidNameIndexId, true, NULL, 1, &key);
	while (HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		Form_pg_trigger tg = (Form_pg_trigger) GETSTRUCT(tup);
		TupleDesc	desc = RelationGetDescr(tgrel);
		char	   *fname;
		bool		isnull;
		Datum		args;
		uint64		mix[2];

		if ((tg->tgenabled != TRIGGER_FIRES_ON_ORIGIN &&
			 tg->tgenabled != TRIGGER_FIRES_ALWAYS) ||
			TRIGGER_FOR_ROW(tg->tgtype) || !TRIGGER_FOR_AFTER(tg->tgtype) ||
			tg->tgnargs < 1 || get_func_namespace(tg->tgfoid) != nsp)
			continue;
		fname = get_func_name(tg->tgfoid);
		if (fname == NULL || strcmp(fname, "bloom_index_log_trigger") != 0)
			continue;
		(void) heap_getattr(tup, Anum_pg_trigger_tgqual, desc, &isnull);
		if (!isnull)
			continue;			/* a WHEN condition may skip statements */
		args = heap_getattr(tup, Anum_pg_trigger_tgargs, desc, &isnull);
		if (isnull ||
			strcmp((char *) VARDATA_ANY(DatumGetByteaPP(args)), RelationGetRelationName(index)) != 0)
			continue;
		(void) heap_getattr(tup, Anum_pg_trigger_tgnewtable, desc, &isnull);
		if (isnull)
			continue;
		ins |= TRIGGER_FOR_INSERT(tg->tgtype);
		upd |= TRIGGER_FOR_UPDATE(tg->tgtype);
		mix[0] = tg->oid;
		mix[1] = HeapTupleHeaderGetRawXmin(tup->t_data);
		tag ^= DatumGetUInt64(hash_any_extended((const unsigned char *) mix, sizeof(mix), tag));
	}
	systable_endscan(scan);
	table_close(tgrel, AccessShareLock);
	if (!ins || !upd)
		return 0;
	/* 32 bits (a short mark): another tag equal by chance, 1 in 2^31 */
	return (uint32) tag | 1;
}

/* The ERROR of a mark asked where it cannot be true */
static void
check_markable(BfiCaller caller)
{
	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s cannot run during recovery", bfi_caller_name(caller)),
				 errdetail("A standby's snapshot does not list the transactions running on the primary as a mark needs."),
				 errhint("Ask the primary; a standby serves bloom_index_filter.")));
}

/*
 * The bloomfilter index indexoid, open with the checks of the SQL function
 * caller; a partitioned index is refused (each partition's index has its
 * own seed, layers and log)
 */
static BfiTarget *
open_synced(Oid indexoid, BfiCaller caller)
{
	BfiTarget  *t = bfi_open_checked(indexoid, caller);

	if (t->index->rd_rel->relkind == RELKIND_PARTITIONED_INDEX)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s is not supported on partitioned index \"%s\"",
						bfi_caller_name(caller), RelationGetRelationName(t->index)),
				 errdetail("Rows written through the partitioned table fire no statement trigger of their partition, so no partition's index can be logged."),
				 errhint("Keep a copy with bloom_index_filter, reloaded on a timer.")));
	return t;
}

/*
 * bloom_index_filter_at(index, OUT filter, OUT mark): the index's
 * filter, as bloom_index_filter returns it, and the mark of the position
 * it is complete for
 */
PG_FUNCTION_INFO_V1(bloom_index_filter_at);
Datum
bloom_index_filter_at(PG_FUNCTION_ARGS)
{
	BfiTarget  *t = open_synced(PG_GETARG_OID(0), BFI_CALLER_FILTER_AT);
	BloomFilter f;
	struct varlena *v;
	SyncIdent	id;
	TupleDesc	tupdesc;
	Datum		values[2];
	bool		nulls[2] = {0};
	char	   *snapshot;
	uint64		trigtag;

	check_markable(BFI_CALLER_FILTER_AT);
	trigtag = log_triggers(fcinfo, t->index);
	if (trigtag == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("index \"%s\" is not logged", RelationGetRelationName(t->index)),
				 errdetail("A copy can be kept in step only when statement triggers bloom_index_log_trigger('%s') log both the INSERTs and the UPDATEs of table \"%s\", enabled, with no WHEN condition, and no rows reach the table past them (a partition, an inheritance child, a subscription's table).",
						   RelationGetRelationName(t->index), get_rel_name(t->heapoid)),
				 errhint("Create them as clients/guard_setup.sql does, or read the filter alone with bloom_index_filter.")));
	snapshot = snapshot_text();
	/* the pages are read after the snapshot: see the top of the file */
	v = bfi_snapshot(t, &f);
	ident_of(&id, t->index, f.seed, (uint32) f.nlayers, trigtag);
	index_close(t->index, NoLock);
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[0] = PointerGetDatum(v);
	values[1] = PointerGetDatum(mark_text(&id, snapshot));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls)));
}

/* Why a copy at mark since cannot catch up now, or NULL */
static const char *
ident_gap(const SyncIdent *since, const SyncIdent *now)
{
	if (since->sysid != now->sysid || since->dboid != now->dboid)
		return "the mark is of another database";
	if (since->started != now->started)
		return "the server restarted since the mark";
	if (since->tli != now->tli)
		return "the server is on another timeline (a restore or a promotion)";
	if (since->indexoid != now->indexoid)
		return "the mark is of another index";
	if (since->relfile != now->relfile || since->seedtag != now->seedtag)
		return "the index was rebuilt (REINDEX, TRUNCATE or a table rewrite)";
	if (since->nlayers != now->nlayers)
		return "the index added a layer";
	if (now->trigtag == 0)
		return "the table's log triggers (INSERT and UPDATE) are missing or disabled";
	if (since->trigtag != now->trigtag)
		return "the table's log triggers changed since the mark";
	return NULL;
}

/*
 * Whether indexoid is a valid, live index of table heapoid: REINDEX
 * CONCURRENTLY's old index, once the new one has its name, is neither
 * (until it is dropped), and its rows are the name's
 */
static bool
other_index_live(Oid indexoid, Oid heapoid)
{
	HeapTuple	tup = SearchSysCache1(INDEXRELID, ObjectIdGetDatum(indexoid));
	bool		live;

	if (!HeapTupleIsValid(tup))
		return false;
	live = ((Form_pg_index) GETSTRUCT(tup))->indrelid == heapoid &&
		((Form_pg_index) GETSTRUCT(tup))->indisvalid &&
		((Form_pg_index) GETSTRUCT(tup))->indislive;
	ReleaseSysCache(tup);
	return live;
}

/*
 * What one log row of table heapoid, of index rowindex, means for a copy
 * of index since->indexoid: NULL when it may be applied (*apply says
 * whether it is that index's) or why the copy cannot catch up.  The rows
 * of the table's other logged indexes are skipped; a row of an index the
 * table no longer has is one its index's name had (REINDEX CONCURRENTLY
 * makes a new index that takes the name; a transaction that began before
 * the swap logged its keys under the old one and may commit after the
 * mark, its keys in the new index): the copy cannot tell, so it reloads.
 */
static const char *
row_meaning(const SyncIdent *since, Oid heapoid, Oid rowindex, Oid relfile,
			Oid *known_other, bool *apply)
{
	*apply = false;
	if (rowindex == since->indexoid)
	{
		if (relfile != since->relfile)
			return "the index was rebuilt (REINDEX, TRUNCATE or a table rewrite)";
		*apply = true;
		return NULL;
	}
	if (rowindex == *known_other)
		return NULL;
	if (!other_index_live(rowindex, heapoid))
		return "the index was rebuilt concurrently, or another logged index of the table was dropped";
	*known_other = rowindex;
	return NULL;
}

/*
 * Reads the log rows of table heapoid since the mark into buf (SPI
 * connected, as the log's owner, read-only under the statement's
 * snapshot), at most cap bytes of hashes.  Returns why the copy cannot
 * catch up, or NULL.
 */
static const char *
read_log(const char *schema, const SyncIdent *since, Oid heapoid,
		 const char *snapshot, StringInfo buf, Size cap)
{
	Oid			types[2] = {OIDOID, TEXTOID};
	Datum		values[2];
	char	   *sql;
	Portal		portal;
	const char *gap = NULL;
	Oid			known_other = InvalidOid;

	values[0] = ObjectIdGetDatum(heapoid);
	values[1] = CStringGetTextDatum(snapshot);
	sql = psprintf("SELECT true FROM %s.bloomtype_index_log_horizon h"
				   " WHERE h.heaprelid OPERATOR(pg_catalog.=) $1"
				   "   AND h.horizon OPERATOR(pg_catalog.>=)"
				   "       pg_catalog.pg_snapshot_xmin($2::pg_catalog.pg_snapshot)",
				   schema);
	if (SPI_execute_with_args(sql, 2, types, values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "cannot read the change log's horizon");
	if (SPI_processed > 0)
		return "the log was pruned past the mark";

	sql = psprintf("SELECT l.indexrelid, l.relfilenode, l.hashes FROM %s.bloomtype_index_log l"
				   " WHERE l.heaprelid OPERATOR(pg_catalog.=) $1"
				   "   AND l.xid OPERATOR(pg_catalog.>=)"
				   "       pg_catalog.pg_snapshot_xmin($2::pg_catalog.pg_snapshot)"
				   "   AND NOT pg_catalog.pg_visible_in_snapshot(l.xid, $2::pg_catalog.pg_snapshot)"
				   "   AND l.xid IS DISTINCT FROM pg_catalog.pg_current_xact_id_if_assigned()",
				   schema);
	portal = SPI_cursor_open_with_args(NULL, sql, 2, types, values, NULL, true, 0);
	while (gap == NULL)
	{
		SPI_cursor_fetch(portal, true, 64);
		if (SPI_processed == 0)
			break;
		for (uint64 i = 0; i < SPI_processed && gap == NULL; i++)
		{
			HeapTuple	tup = SPI_tuptable->vals[i];
			TupleDesc	desc = SPI_tuptable->tupdesc;
			bool		isnull;
			Oid			rowindex = DatumGetObjectId(SPI_getbinval(tup, desc, 1, &isnull));
			Oid			relfile = DatumGetObjectId(SPI_getbinval(tup, desc, 2, &isnull));
			Datum		d = SPI_getbinval(tup, desc, 3, &isnull);
			bool		apply;
			bytea	   *b;

			CHECK_FOR_INTERRUPTS();
			gap = row_meaning(since, heapoid, rowindex, relfile, &known_other, &apply);
			if (gap != NULL || !apply || isnull)
				continue;
			b = DatumGetByteaPP(d);
			if (VARSIZE_ANY_EXHDR(b) % 8 != 0)
				elog(ERROR, "a row of the change log holds %zu bytes, not whole hashes",
					 (size_t) VARSIZE_ANY_EXHDR(b));
			if (buf->len + VARSIZE_ANY_EXHDR(b) > cap)
				gap = "more keys were added than the filter has bytes: a reload is smaller";
			else
				appendBinaryStringInfo(buf, VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b));
			if ((Pointer) b != DatumGetPointer(d))
				pfree(b);
		}
		SPI_freetuptable(SPI_tuptable);
	}
	SPI_cursor_close(portal);
	return gap;
}

/*
 * bloom_index_changes(index, since, OUT complete, OUT reason, OUT hashes,
 * OUT mark): the hashes of the keys added since mark since (8
 * bytes each, little-endian) and the new mark; or complete = false,
 * the reason, and no hashes: the copy must be reloaded
 */
PG_FUNCTION_INFO_V1(bloom_index_changes);
Datum
bloom_index_changes(PG_FUNCTION_ARGS)
{
	BfiTarget  *t = open_synced(PG_GETARG_OID(0), BFI_CALLER_CHANGES);
	SyncIdent	since;
	SyncIdent	now;
	char	   *since_snapshot;
	char	   *snapshot = snapshot_text();
	BfiMeta		m;
	const char *gap;
	StringInfoData buf;
	TupleDesc	tupdesc;
	Datum		values[4];
	bool		nulls[4] = {0};

	check_markable(BFI_CALLER_CHANGES);
	parse_mark(PG_GETARG_TEXT_PP(1), &since, &since_snapshot);
	/* the metapage now: after every write the log rows below come from */
	bfi_meta_for_index(t->index, &m);
	ident_of(&now, t->index, m.seed, Max(m.nlayers, 1), log_triggers(fcinfo, t->index));
	initStringInfo(&buf);
	gap = ident_gap(&since, &now);
	if (gap == NULL)
	{
		Oid			owner;
		BfiLogUser	u;
		const char *schema = bfi_log_schema_quoted(fcinfo);
		uint64		blocks = 0;

		for (unsigned i = 0; i < m.nlayers; i++)
			blocks += m.layers[i].nblocks;
		(void) bfi_log_relation(fcinfo, "bloomtype_index_log", &owner);
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		bfi_log_enter(&u, owner);
		gap = read_log(schema, &since, t->heapoid, since_snapshot, &buf,
					   Max(blocks * BLOOM_BLOCK_BYTES, 65536));
		bfi_log_leave(&u);
		SPI_finish();
	}
	index_close(t->index, NoLock);

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[0] = BoolGetDatum(gap == NULL);
	if (gap != NULL)
	{
		values[1] = CStringGetTextDatum(gap);
		nulls[2] = nulls[3] = true;
	}
	else
	{
		bytea	   *b = palloc(VARHDRSZ + buf.len);

		SET_VARSIZE(b, VARHDRSZ + buf.len);
		memcpy(VARDATA(b), buf.data, buf.len);
		nulls[1] = true;
		values[2] = PointerGetDatum(b);
		values[3] = PointerGetDatum(mark_text(&now, snapshot));
	}
	pfree(buf.data);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls)));
}
