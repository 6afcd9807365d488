/*-------------------------------------------------------------------------
 *
 * bfi_citus.c
 *		Indexes of Citus tables: telling a Citus table, and the error that
 *		refuses to read its index, with the query that asks its shards.
 *
 * On a Citus coordinator or worker, a distributed, reference or Citus
 * local table is a shell whose rows live in its shards, each with its own
 * index; the shell's index is empty, so reading it would answer "absent"
 * for every key.  Citus is found by name in the catalogs, never linked:
 * the library loads and works where Citus is not installed.
 *
 *-------------------------------------------------------------------------
 */
#include "bfindex.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_namespace.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

/*
 * Whether heapoid is a Citus table (distributed, reference or Citus local):
 * a row of Citus's catalog pg_dist_partition, looked up by name so that
 * nothing links to Citus.  Its index there is the empty index of a shell
 * table; the rows and their keys are in the shards (Citus names a shard's
 * index <index>_<shard id>).  A shard's own table is not in that catalog.
 */
bool
bfi_is_citus_table(Oid heapoid)
{
	Oid			cat = get_relname_relid("pg_dist_partition", PG_CATALOG_NAMESPACE);
	Oid			idx;
	Relation	rel;
	SysScanDesc scan;
	ScanKeyData key;
	bool		found;

	if (!OidIsValid(cat))
		return false;
	idx = get_relname_relid("pg_dist_partition_logical_relid_index",
							PG_CATALOG_NAMESPACE);
	/* Citus may be dropped meanwhile: then there is no Citus table */
	if ((rel = try_table_open(cat, AccessShareLock)) == NULL)
		return false;
	/* logicalrelid is its first column, a regclass */
	ScanKeyInit(&key, 1, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(heapoid));
	scan = systable_beginscan(rel, idx, OidIsValid(idx), NULL, 1, &key);
	found = HeapTupleIsValid(systable_getnext(scan));
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return found;
}

/*
 * The ERROR for an index of a Citus table read by caller, with a query that
 * asks its shards' indexes (Citus names a shard's table <table>_<shard id>
 * and its index <index>_<shard id>, in the same schema;
 * run_command_on_shards formats the command with the shard's table name,
 * quoted where needed: %L makes it a literal).  The query combines the shards' answers where one
 * answer means something (the union of the filters, whether any shard may
 * hold the key), and lists them by shard otherwise.
 */
/*
 * s with each % doubled: run_command_on_shards passes the command through
 * format(command, shard), where a % of a name would be a conversion
 */
static char *
percent_escaped(const char *s)
{
	StringInfoData b;

	initStringInfo(&b);
	for (; *s; s++)
	{
		if (*s == '%')
			appendStringInfoChar(&b, '%');
		appendStringInfoChar(&b, *s);
	}
	return b.data;
}

void
bfi_citus_table_error(BfiTarget *t, BfiCaller caller)
{
	const char *name = bfi_caller_name(caller);
	const char *ix = RelationGetRelationName(t->index);
	const char *tb = get_rel_name(t->heapoid);
	char	   *nsp = get_namespace_name(RelationGetNamespace(t->index));
	char	   *table = quote_literal_cstr(quote_qualified_identifier(nsp, tb));
	char	   *shard_index;
	const char *ask;

	/* %L: the shard's name as a literal (a name may hold a quote) */
	shard_index = psprintf("(quote_ident(%s) || '.' || quote_ident(%s || substring(%%L from '_([0-9]+)\"?$')))::regclass",
						   percent_escaped(quote_literal_cstr(nsp)),
						   percent_escaped(quote_literal_cstr(psprintf("%s_", ix))));
	/* the command as a quoted literal: a name may hold quotes or "$$" */
	if (caller == BFI_CALLER_FILTER)
		ask = psprintf("SELECT bloom_union_agg(result::bloomfilter) FROM run_command_on_shards(%s, %s);",
					   table, quote_literal_cstr(psprintf("SELECT bloom_index_filter(%s)",
														  shard_index)));
	else if (caller == BFI_CALLER_CONTAINS)
		ask = psprintf("SELECT bool_or(result::boolean) FROM run_command_on_shards(%s, %s);",
					   table, quote_literal_cstr(psprintf("SELECT bloom_index_contains(%s, KEY)",
														  shard_index)));
	else
		ask = psprintf("SELECT shardid, result FROM run_command_on_shards(%s, %s);",
					   table, quote_literal_cstr(psprintf("SELECT %s(%s%s)", name, shard_index,
														  caller == BFI_CALLER_CONTAINS_EACH ? ", KEYS" : "")));
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("%s cannot read index \"%s\": table \"%s\" is a Citus table",
					name, ix, tb),
			 errdetail("Its rows and their keys are in its shards, each with its own index; the index here is empty."),
			 errhint("Ask the shards' indexes, for example: %s", ask)));
}
