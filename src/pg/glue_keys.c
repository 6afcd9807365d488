/*-------------------------------------------------------------------------
 *
 * glue_keys.c
 *		Canonical encoding and hashing of SQL values used as filter keys.
 *
 * The same value must hash the same on every platform, in every session
 * and in client programs, so each key class has one byte encoding
 * (docs/FORMAT.md lists them):
 *	- int2, int4, int8: one 8-byte little-endian integer (one key space);
 *	- text, varchar, name: their bytes; bpchar without trailing spaces;
 *	- bytea: its bytes; uuid: its 16 bytes;
 *	- float4, float8: as float8, little-endian, -0 and NaN normalised;
 *	- any other type: its binary send form.
 *
 * The SQL function bloom_key_hash returns that hash (support function 1 of
 * the bloomfilter operator classes; client programs check filters with it).
 *
 *-------------------------------------------------------------------------
 */
#include "bloomtype.h"

#include "catalog/namespace.h"
#include "mb/pg_wchar.h"
#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/uuid.h"
#include "access/htup_details.h"

static const char *const key_class_names[] = {
	"none", "integer", "text", "bytea", "uuid", "float", "other"
};

/*
 * The tag that identifies a type of class "other" in the header: the type's
 * OID for built-in types, whose OIDs are fixed; for user-defined types,
 * whose OIDs change across dump and restore, a hash of the qualified type
 * name with the top bit set.
 */
static uint32
key_type_tag(Oid typid)
{
	HeapTuple	tp;
	Form_pg_type typ;
	char	   *name;
	uint32		tag;

	if (typid < FirstNormalObjectId)
		return (uint32) typid;

	tp = SearchSysCache1(TYPEOID, ObjectIdGetDatum(typid));
	if (!HeapTupleIsValid(tp))
		elog(ERROR, "cache lookup failed for type %u", typid);
	typ = (Form_pg_type) GETSTRUCT(tp);
	name = psprintf("%s.%s", get_namespace_name(typ->typnamespace),
					NameStr(typ->typname));
	ReleaseSysCache(tp);
	tag = (uint32) bloom_hash_bytes(0, name, strlen(name));
	pfree(name);
	return tag | 0x80000000u;
}

const char *
bloom_key_class_name(uint8 key_class, uint32 key_type)
{
	if (key_class == BLOOM_KEY_OTHER)
	{
		if (key_type & 0x80000000u)
			return "user-defined type";
		return format_type_be((Oid) key_type);
	}
	if (key_class <= BLOOM_KEY_MAX)
		return key_class_names[key_class];
	return "unknown";
}

/* The SQL type to cast a key to, for hints */
static const char *
key_class_cast(uint8 key_class, uint32 key_type)
{
	switch (key_class)
	{
		case BLOOM_KEY_INTEGER:
			return "bigint";
		case BLOOM_KEY_TEXT:
			return "text";
		case BLOOM_KEY_BYTEA:
			return "bytea";
		case BLOOM_KEY_UUID:
			return "uuid";
		case BLOOM_KEY_FLOAT:
			return "double precision";
		default:
			return bloom_key_class_name(key_class, key_type);
	}
}

/* The encoding of keys of SQL type typid (a base type) */
BloomKeyEnc
bloom_key_enc_for_type(Oid typid)
{
	switch (typid)
	{
		case INT2OID:
			return BKE_INT2;
		case INT4OID:
			return BKE_INT4;
		case INT8OID:
			return BKE_INT8;
		case TEXTOID:
		case VARCHAROID:
			return BKE_TEXT;
		case BPCHAROID:
			return BKE_BPCHAR;
		case NAMEOID:
			return BKE_NAME;
		case BYTEAOID:
			return BKE_BYTEA;
		case UUIDOID:
			return BKE_UUID;
		case FLOAT4OID:
			return BKE_FLOAT4;
		case FLOAT8OID:
			return BKE_FLOAT8;
		default:
			return BKE_OTHER;
	}
}

/*
 * Resolves ki for keys of encoding enc and base type typid (needed for
 * BKE_OTHER only), keeping what it looks up in cxt.  The index resolves
 * its column's keys with this, so index, probes and bloom_add agree.
 */
void
bloom_keyinfo_init_type(BloomKeyInfo *ki, BloomKeyEnc enc, Oid typid,
						MemoryContext cxt)
{
	memset(ki, 0, sizeof(*ki));
	ki->enc = enc;
	ki->typid = typid;
	switch (enc)
	{
		case BKE_INT2:
		case BKE_INT4:
		case BKE_INT8:
			ki->key_class = BLOOM_KEY_INTEGER;
			break;
		case BKE_TEXT:
		case BKE_BPCHAR:
		case BKE_NAME:
			ki->key_class = BLOOM_KEY_TEXT;
			break;
		case BKE_BYTEA:
			ki->key_class = BLOOM_KEY_BYTEA;
			break;
		case BKE_UUID:
			ki->key_class = BLOOM_KEY_UUID;
			break;
		case BKE_FLOAT4:
		case BKE_FLOAT8:
			ki->key_class = BLOOM_KEY_FLOAT;
			break;
		case BKE_OTHER:
			{
				Oid			sendfn;
				bool		isvarlena;

				ki->key_class = BLOOM_KEY_OTHER;
				ki->key_type = key_type_tag(typid);
				getTypeBinaryOutputInfo(typid, &sendfn, &isvarlena);
				fmgr_info_cxt(sendfn, &ki->sendfn, cxt);
				break;
			}
		case BKE_UNKNOWN:
			elog(ERROR, "unresolved bloom key encoding");
	}
}

/*
 * Resolves ki for argument argno of a call (with elements, for its
 * array's elements); enc is the entry point's, BKE_UNKNOWN for anyelement.
 */
void
bloom_keyinfo_init(BloomKeyInfo *ki, BloomKeyEnc enc, FunctionCallInfo fcinfo,
				   int argno, bool elements)
{
	Oid			typid = InvalidOid;

	if (enc == BKE_UNKNOWN)
	{
		typid = get_fn_expr_argtype(fcinfo->flinfo, argno);
		if (elements && OidIsValid(typid))
			typid = get_element_type(getBaseType(typid));
		if (!OidIsValid(typid))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("could not determine the type of the bloom filter key"),
					 errhint("Cast the key to bigint, text, bytea or uuid.")));
		typid = getBaseType(typid);
		enc = bloom_key_enc_for_type(typid);
	}
	bloom_keyinfo_init_type(ki, enc, typid, fcinfo->flinfo->fn_mcxt);
}

/* Length of a bpchar's bytes without the trailing spaces, as = compares */
static int
bpchar_true_len(const char *s, int len)
{
	while (len > 0 && s[len - 1] == ' ')
		len--;
	return len;
}

/*
 * The binary send form of a key of class "other", with any text in it in
 * the database's encoding.  Send functions write text in the client's
 * encoding (pq_sendtext): jsonb, enums, arrays and records of text would
 * otherwise hash differently in a session with another client_encoding,
 * and a filter (or an index, written by many sessions) would miss keys.
 * The session's client encoding is set aside while the function runs.
 */
static bytea *
send_in_server_encoding(BloomKeyInfo *ki, Datum value)
{
	int			client = pg_get_client_encoding();
	int			server = GetDatabaseEncoding();
	bytea	   *b;

	/* no conversion: the same encoding, or a SQL_ASCII client */
	if (client == server || client == PG_SQL_ASCII)
		return SendFunctionCall(&ki->sendfn, value);

	if (SetClientEncoding(server) < 0)
		elog(ERROR, "could not set the client encoding to the database encoding");
	PG_TRY();
	{
		b = SendFunctionCall(&ki->sendfn, value);
	}
	PG_FINALLY();
	{
		if (SetClientEncoding(client) < 0)
			elog(ERROR, "could not restore client encoding \"%s\"",
				 pg_encoding_to_char(client));
	}
	PG_END_TRY();
	return b;
}

uint64
bloom_key_hash(BloomKeyInfo *ki, Datum value, uint64 seed)
{
	switch (ki->enc)
	{
		case BKE_INT2:
		case BKE_INT4:
		case BKE_INT8:
			return bloom_key_hash_fast(ki, value, seed);
		case BKE_FLOAT4:
			return bloom_hash_float8(seed, (double) DatumGetFloat4(value));
		case BKE_FLOAT8:
			return bloom_hash_float8(seed, DatumGetFloat8(value));
		case BKE_UUID:
			return bloom_hash_bytes(seed, DatumGetUUIDP(value)->data, UUID_LEN);
		case BKE_NAME:
			{
				const char *s = NameStr(*DatumGetName(value));

				return bloom_hash_bytes(seed, s, strlen(s));
			}
		case BKE_TEXT:
		case BKE_BYTEA:
		case BKE_BPCHAR:
			{
				struct varlena *orig = (struct varlena *) DatumGetPointer(value);
				struct varlena *v = PG_DETOAST_DATUM_PACKED(value);
				int			len = VARSIZE_ANY_EXHDR(v);
				uint64		h;

				if (ki->enc == BKE_BPCHAR)
					len = bpchar_true_len(VARDATA_ANY(v), len);
				h = bloom_hash_bytes(seed, VARDATA_ANY(v), len);
				if (v != orig)
					pfree(v);
				return h;
			}
		case BKE_OTHER:
			{
				bytea	   *b = send_in_server_encoding(ki, value);
				uint64		h = bloom_hash_bytes(seed, VARDATA(b),
												 VARSIZE(b) - VARHDRSZ);

				pfree(b);
				return h;
			}
		case BKE_UNKNOWN:
			break;
	}
	elog(ERROR, "unresolved bloom key encoding");
	return 0;					/* keep compiler quiet */
}

/* The error bloom_check_key raises: the filter holds keys of another class */
void
bloom_key_mismatch(uint8 key_class, uint32 key_type, const BloomKeyInfo *ki,
				   bool adding)
{
	bt_key_mismatch("bloom filter", key_class, key_type, ki, adding);
}

/* The same, for a value of any family: noun names it ("cuckoo filter") */
void
bt_key_mismatch(const char *noun, uint8 key_class, uint32 key_type,
				const BloomKeyInfo *ki, bool adding)
{
	const char *key_name;

	key_name = ki->key_class == BLOOM_KEY_OTHER ?
		format_type_be(ki->typid) :
		bloom_key_class_name(ki->key_class, ki->key_type);
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("%s holds %s keys, not %s keys",
					noun, bloom_key_class_name(key_class, key_type), key_name),
			 errdetail(adding ?
					   "Mixing key types in one filter would make lookups miss keys that were added." :
					   "A key of another type hashes differently, so it would never be found."),
			 (key_class == BLOOM_KEY_OTHER && (key_type & 0x80000000u)) ?
			 errhint("Use keys of the user-defined type the filter was built from.") :
			 errhint("Cast the key to %s.",
					 key_class_cast(key_class, key_type))));
}

/* For union and intersection: both hold the same class, or one holds none */
void
bloom_check_key_classes(uint8 a_class, uint32 a_type, uint8 b_class, uint32 b_type)
{
	bt_check_key_classes("bloom filters", a_class, a_type, b_class, b_type);
}

/* The same, for values of any family: plural names them ("cuckoo filters") */
void
bt_check_key_classes(const char *plural, uint8 a_class, uint32 a_type,
					 uint8 b_class, uint32 b_type)
{
	if (a_class == BLOOM_KEY_NONE || b_class == BLOOM_KEY_NONE)
		return;
	if (a_class == b_class && a_type == b_type)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("cannot combine %s of different key types", plural),
			 errdetail("The first filter holds %s keys, the second %s keys.",
					   bloom_key_class_name(a_class, a_type),
					   bloom_key_class_name(b_class, b_type)),
			 errhint("Build both filters from keys of the same type.")));
}

/*
 * bloom_key_hash(key, seed): the canonical 64-bit hash of a key, as a
 * filter and the index hash it (support function 1 of the bloomfilter
 * operator classes, and for client programs that check a filter).
 */
static Datum
key_hash(FunctionCallInfo fcinfo, BloomKeyEnc enc)
{
	BloomKeyInfo *ki = (BloomKeyInfo *) fcinfo->flinfo->fn_extra;

	if (ki == NULL)
	{
		ki = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(BloomKeyInfo));
		bloom_keyinfo_init(ki, enc, fcinfo, 0, false);
		fcinfo->flinfo->fn_extra = ki;
	}
	PG_RETURN_INT64((int64) bloom_key_hash_fast(ki, PG_GETARG_DATUM(0),
												(uint64) PG_GETARG_INT64(1)));
}

/*
 * The entry points of bloom_key_hash(key, seed), one per key type of
 * src/pg/keytypes.h (varchar's overload calls the text one):
 *	bloom_key_hash_sql_int8, bloom_key_hash_sql_int4,
 *	bloom_key_hash_sql_int2, bloom_key_hash_sql_text,
 *	bloom_key_hash_sql_bytea, bloom_key_hash_sql_uuid,
 *	bloom_key_hash_sql_any
 */
#define KEY_HASH_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(bloom_key_hash_sql, suffix, key_hash(fcinfo, enc))
BT_KEY_TYPES(KEY_HASH_, BT_NO_ALIAS)
