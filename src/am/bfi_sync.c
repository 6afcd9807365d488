/*-------------------------------------------------------------------------
 *
 * bfi_sync.c
 *		An application's copy of a bloomfilter index brought up to date by
 *		the keys added since it was taken (1.8): bloom_index_filter_at and
 *		bloom_index_changes.
 *
 * A position says what a copy is complete for: the snapshot of the
 * statement that read it (pg_current_snapshot), with what identifies the
 * index's filter (the cluster, database, timeline, index, its file and
 * seed, its layers).  bloom_index_filter_at reads the filter after its
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
#include "access/xlogrecovery.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"

#define POSITION_VERSION	"bt1"

/* What identifies the filter a copy was taken from */
typedef struct SyncIdent
{
	uint64		sysid;
	Oid			dboid;
	uint32		tli;
	Oid			indexoid;
	Oid			relfile;
	uint32		seedtag;
	uint32		nlayers;
} SyncIdent;

/* The timeline this server is on: a restore or a promotion starts another */
static uint32
current_timeline(void)
{
	TimeLineID	tli = 0;

	if (RecoveryInProgress())
		(void) GetXLogReplayRecPtr(&tli);
	else
		tli = GetWALInsertionTimeLine();
	return tli;
}

/* The index's identity, its seed given as a tag (not the seed) */
static void
ident_of(SyncIdent *id, Relation index, uint64 seed, uint32 nlayers)
{
	id->sysid = GetSystemIdentifier();
	id->dboid = MyDatabaseId;
	id->tli = current_timeline();
	id->indexoid = RelationGetRelid(index);
	id->relfile = BT_REL_FILENUMBER(index);
	id->seedtag = (uint32) DatumGetUInt64(hash_any_extended((const unsigned char *) &seed,
															sizeof(seed), 0x62743173));
	id->nlayers = nlayers;
}

/* The active snapshot as pg_snapshot's text form */
static char *
snapshot_text(void)
{
	Datum		snap = OidFunctionCall0Coll(F_PG_CURRENT_SNAPSHOT, InvalidOid);

	return DatumGetCString(OidFunctionCall1(F_PG_SNAPSHOT_OUT, snap));
}

static text *
position_text(const SyncIdent *id, const char *snapshot)
{
	return cstring_to_text(psprintf(POSITION_VERSION "/" UINT64_FORMAT "/%u/%u/%u/%u/%08x/%u/%s",
									id->sysid, id->dboid, id->tli, id->indexoid,
									id->relfile, id->seedtag, id->nlayers, snapshot));
}

/* Reads position p into id and *snapshot; an ERROR when it is not one */
static void
parse_position(text *p, SyncIdent *id, char **snapshot)
{
	char	   *s = text_to_cstring(p);
	int			end = -1;

	if (sscanf(s, POSITION_VERSION "/" UINT64_FORMAT "/%u/%u/%u/%u/%8x/%u/%n",
			   &id->sysid, &id->dboid, &id->tli, &id->indexoid, &id->relfile,
			   &id->seedtag, &id->nlayers, &end) != 7 || end < 0 || s[end] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid mark for bloom_index_changes: \"%s\"", s),
				 errhint("Pass the mark that bloom_index_filter_at or bloom_index_changes returned, unchanged.")));
	*snapshot = s + end;
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
				 errhint("Keep a copy of each partition's index: SELECT %s(relid) FROM pg_partition_tree('%s') WHERE isleaf.",
						 bfi_caller_name(caller), RelationGetRelationName(t->index))));
	return t;
}

/*
 * bloom_index_filter_at(index, OUT filter, OUT position): the index's
 * filter, as bloom_index_filter returns it, and the position it is
 * complete for
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
	char	   *snapshot = snapshot_text();

	/* the pages are read after the snapshot: see the top of the file */
	v = bfi_snapshot(t, &f);
	ident_of(&id, t->index, f.seed, (uint32) f.nlayers);
	index_close(t->index, NoLock);
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[0] = PointerGetDatum(v);
	values[1] = PointerGetDatum(position_text(&id, snapshot));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls)));
}

/* Why a copy at position since cannot catch up now, or NULL */
static const char *
ident_gap(const SyncIdent *since, const SyncIdent *now)
{
	if (since->sysid != now->sysid || since->dboid != now->dboid)
		return "the mark is of another database";
	if (since->tli != now->tli)
		return "the server is on another timeline (a restore or a promotion)";
	if (since->indexoid != now->indexoid)
		return "the mark is of another index";
	if (since->relfile != now->relfile || since->seedtag != now->seedtag)
		return "the index was rebuilt (REINDEX, TRUNCATE or a table rewrite)";
	if (since->nlayers != now->nlayers)
		return "the index added a layer";
	return NULL;
}

/*
 * Reads the log rows since the position into buf (SPI connected, as the
 * log's owner, read-only under the statement's snapshot), at most cap
 * bytes of hashes.  Returns why the copy cannot catch up, or NULL.
 */
static const char *
read_log(const char *schema, const SyncIdent *since, const char *snapshot,
		 StringInfo buf, Size cap)
{
	Oid			types[2] = {OIDOID, TEXTOID};
	Datum		values[2];
	char	   *sql;
	Portal		portal;
	const char *gap = NULL;

	values[0] = ObjectIdGetDatum(since->indexoid);
	values[1] = CStringGetTextDatum(snapshot);
	sql = psprintf("SELECT true FROM %s.bloomtype_index_log_horizon h"
				   " WHERE h.indexrelid OPERATOR(pg_catalog.=) $1"
				   "   AND h.horizon OPERATOR(pg_catalog.>=)"
				   "       pg_catalog.pg_snapshot_xmin($2::pg_catalog.pg_snapshot)",
				   schema);
	if (SPI_execute_with_args(sql, 2, types, values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "cannot read the change log's horizon");
	if (SPI_processed > 0)
		return "the log was pruned past the mark";

	sql = psprintf("SELECT l.relfilenode, l.hashes FROM %s.bloomtype_index_log l"
				   " WHERE l.indexrelid OPERATOR(pg_catalog.=) $1"
				   "   AND l.xid OPERATOR(pg_catalog.>=)"
				   "       pg_catalog.pg_snapshot_xmin($2::pg_catalog.pg_snapshot)"
				   "   AND NOT pg_catalog.pg_visible_in_snapshot(l.xid, $2::pg_catalog.pg_snapshot)",
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
			bool		isnull;
			Oid			relfile = DatumGetObjectId(SPI_getbinval(tup, SPI_tuptable->tupdesc, 1, &isnull));
			Datum		d = SPI_getbinval(tup, SPI_tuptable->tupdesc, 2, &isnull);
			bytea	   *b;

			CHECK_FOR_INTERRUPTS();
			if (isnull)
				continue;
			b = DatumGetByteaPP(d);
			if (relfile != since->relfile)
				gap = "the index was rebuilt (REINDEX, TRUNCATE or a table rewrite)";
			else if (VARSIZE_ANY_EXHDR(b) % 8 != 0)
				elog(ERROR, "a row of the change log holds %zu bytes, not whole hashes",
					 (size_t) VARSIZE_ANY_EXHDR(b));
			else if (buf->len + VARSIZE_ANY_EXHDR(b) > cap)
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
 * OUT position): the hashes of the keys added since position since (8
 * bytes each, little-endian) and the new position; or complete = false,
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

	parse_position(PG_GETARG_TEXT_PP(1), &since, &since_snapshot);
	/* the metapage now: after every write the log rows below come from */
	bfi_meta_for_index(t->index, &m);
	ident_of(&now, t->index, m.seed, Max(m.nlayers, 1));
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
		gap = read_log(schema, &since, since_snapshot, &buf,
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
		values[3] = PointerGetDatum(position_text(&now, snapshot));
	}
	pfree(buf.data);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls)));
}
