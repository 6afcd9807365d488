/*-------------------------------------------------------------------------
 *
 * bfi_validate.c
 *		Operator classes of the bloomfilter access method: amvalidate and
 *		amadjustmembers (contrib/bloom's blvalidate.c is the model).
 *
 * A bloomfilter operator class has no operators and one support function,
 * number 1: bloom_key_hash(key, seed bigint) returning bigint, the
 * canonical hash of a key.  The index does not call it through fmgr: it
 * hashes its column with the same key-encoding code that bloom_add uses
 * (src/pg/glue_keys.c), resolved from the column's type, so index, probes and
 * filter values cannot drift apart.  The function names that contract in
 * the catalog, and only this library's may fill it.
 *
 *-------------------------------------------------------------------------
 */
#include "bfindex.h"

#include "access/amvalidate.h"
#include "access/htup_details.h"
#include "catalog/pg_amop.h"
#include "catalog/pg_amproc.h"
#include "catalog/pg_language.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "parser/parse_coerce.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "utils/syscache.h"

#define BFI_HASH_PROC		1

static char *
opfamily_name(Oid opfamilyoid)
{
	HeapTuple	tp = SearchSysCache1(OPFAMILYOID, ObjectIdGetDatum(opfamilyoid));
	char	   *name;

	if (!HeapTupleIsValid(tp))
		elog(ERROR, "cache lookup failed for operator family %u", opfamilyoid);
	name = pstrdup(NameStr(((Form_pg_opfamily) GETSTRUCT(tp))->opfname));
	ReleaseSysCache(tp);
	return name;
}
#define BFI_HASH_PREFIX		"bloom_key_hash"

bool
bfi_validate(Oid opclassoid)
{
	HeapTuple	classtup;
	Form_pg_opclass classform;
	Oid			opfamilyoid;
	Oid			opcintype;
	char	   *opclassname;
	char	   *opfamilyname;
	CatCList   *proclist;
	CatCList   *oprlist;
	bool		have_hash = false;
	bool		result = true;

	classtup = SearchSysCache1(CLAOID, ObjectIdGetDatum(opclassoid));
	if (!HeapTupleIsValid(classtup))
		elog(ERROR, "cache lookup failed for operator class %u", opclassoid);
	classform = (Form_pg_opclass) GETSTRUCT(classtup);
	opfamilyoid = classform->opcfamily;
	opcintype = classform->opcintype;
	opclassname = NameStr(classform->opcname);
	opfamilyname = opfamily_name(opfamilyoid);

	oprlist = SearchSysCacheList1(AMOPSTRATEGY, ObjectIdGetDatum(opfamilyoid));
	proclist = SearchSysCacheList1(AMPROCNUM, ObjectIdGetDatum(opfamilyoid));

	for (int i = 0; i < proclist->n_members; i++)
	{
		Form_pg_amproc procform =
			(Form_pg_amproc) GETSTRUCT(&proclist->members[i]->tuple);

		if (procform->amprocnum != BFI_HASH_PROC)
		{
			ereport(INFO,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("operator family \"%s\" of access method %s contains function %s with invalid support number %d",
							opfamilyname, "bloomfilter",
							format_procedure(procform->amproc),
							procform->amprocnum)));
			result = false;
			continue;
		}
		if (!check_amproc_signature(procform->amproc, INT8OID, false, 2, 2,
									procform->amproclefttype, INT8OID))
		{
			ereport(INFO,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("operator family \"%s\" of access method %s contains function %s with wrong signature for support number %d",
							opfamilyname, "bloomfilter",
							format_procedure(procform->amproc),
							procform->amprocnum)));
			result = false;
			continue;
		}
		if (procform->amproclefttype == opcintype &&
			procform->amprocrighttype == opcintype)
			have_hash = true;
	}

	for (int i = 0; i < oprlist->n_members; i++)
	{
		Form_pg_amop oprform = (Form_pg_amop) GETSTRUCT(&oprlist->members[i]->tuple);

		ereport(INFO,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("operator family \"%s\" of access method %s contains operator %s, but it takes none",
						opfamilyname, "bloomfilter",
						format_operator(oprform->amopopr))));
		result = false;
	}

	if (!have_hash)
	{
		ereport(INFO,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("operator class \"%s\" of access method %s is missing support function %d",
						opclassname, "bloomfilter", BFI_HASH_PROC)));
		result = false;
	}

	ReleaseCatCacheList(proclist);
	ReleaseCatCacheList(oprlist);
	ReleaseSysCache(classtup);
	return result;
}

/*
 * Whether funcid is one of this library's bloom_key_hash functions taking
 * keys of type keytype: bloom_key_hash(keytype or anyelement, bigint).
 */
static bool
is_key_hash(Oid funcid, Oid keytype)
{
	HeapTuple	tp = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
	Form_pg_proc proc;
	Datum		d;
	bool		isnull;
	bool		ours = false;

	if (!HeapTupleIsValid(tp))
		elog(ERROR, "cache lookup failed for function %u", funcid);
	proc = (Form_pg_proc) GETSTRUCT(tp);
	if (proc->prolang == ClanguageId)
	{
		char	   *src;
		char	   *bin;

		d = SysCacheGetAttr(PROCOID, tp, Anum_pg_proc_prosrc, &isnull);
		src = isnull ? NULL : TextDatumGetCString(d);
		d = SysCacheGetAttr(PROCOID, tp, Anum_pg_proc_probin, &isnull);
		bin = isnull ? NULL : TextDatumGetCString(d);
		ours = src && bin &&
			strncmp(src, BFI_HASH_PREFIX, strlen(BFI_HASH_PREFIX)) == 0 &&
			strcmp(bin, "$libdir/bloomtype") == 0 &&
			proc->pronargs == 2 && proc->prorettype == INT8OID &&
			proc->proargtypes.values[1] == INT8OID &&
			(!OidIsValid(keytype) ||
			 IsBinaryCoercible(keytype, proc->proargtypes.values[0]));
	}
	ReleaseSysCache(tp);
	return ours;
}

/*
 * Checks what CREATE OPERATOR CLASS or ALTER OPERATOR FAMILY adds: no
 * operators, support function 1 only, and that one this library's key
 * hash.  A class's function depends hard on the class, as in hash indexes.
 */
void
bfi_adjustmembers(Oid opfamilyoid, Oid opclassoid, List *operators,
				  List *functions)
{
	ListCell   *lc;

	if (operators != NIL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("access method \"bloomfilter\" takes no operators"),
				 errhint("A bloomfilter operator class names support function 1, bloom_key_hash(key, bigint), and nothing else.")));

	foreach(lc, functions)
	{
		OpFamilyMember *op = (OpFamilyMember *) lfirst(lc);

		if (op->number != BFI_HASH_PROC)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("invalid support function number %d for access method \"bloomfilter\"",
							op->number),
					 errhint("A bloomfilter operator class names support function 1, bloom_key_hash(key, bigint), and nothing else.")));
		if (!is_key_hash(op->object, op->lefttype))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("support function 1 of access method \"bloomfilter\" must be bloomtype's bloom_key_hash for the class's type, not %s",
							format_procedure(op->object)),
					 errdetail("The index hashes keys with bloomtype's own key encodings; another function would not describe them.")));
		if (OidIsValid(opclassoid))
		{
			op->ref_is_hard = true;
			op->ref_is_family = false;
			op->refobjid = opclassoid;
		}
		else
		{
			op->ref_is_hard = false;
			op->ref_is_family = true;
			op->refobjid = opfamilyoid;
		}
	}
}
