/*-------------------------------------------------------------------------
 *
 * glue_io.c
 *		Type I/O, casts to and from bytea, equality, ordering and hashing,
 *		written once for every family's type over its BtTypeMethods.
 *
 * The text form is \x followed by the hex digits of the binary form, as
 * bytea prints, so that it round-trips exactly; the binary form and the
 * cast to bytea are the same bytes.  Outside bytes are validated before
 * they become a value.  Output, equality, order and hashing use the
 * canonical bytes of a value.
 *
 *-------------------------------------------------------------------------
 */
#include "bloomtype.h"

#include "access/detoast.h"
#include "access/xact.h"
#include "common/hashfn.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/builtins.h"

void
bt_decode_or_error(const BtTypeMethods *t, struct varlena *v, void *f)
{
	BloomStatus st = t->decode((const uint8 *) BT_DATA(v), BT_LEN(v), f);

	if (st != BLOOM_OK)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("%s value is corrupt", t->name),
				 errdetail("%s", bloom_status_message(st))));
}

/* Refuses outside bytes that are not a valid value of the type */
static void
validate_bytes(const BtTypeMethods *t, const char *data, size_t len, int errcode_)
{
	BtAnyFilter f;
	BloomStatus st = t->validate((const uint8 *) data, len, &f, &bt_cancel);

	if (st != BLOOM_OK)
		ereport(ERROR,
				(errcode(errcode_),
				 errmsg("invalid %s value", t->name),
				 errdetail("%s", st == BLOOM_E_VERSION && t->version_detail ?
						   t->version_detail : bloom_status_message(st)),
				 errhint("A %s value comes from bloomtype's own output (text, binary or bytea form).",
						 t->name)));
}

/*
 * v itself when it is canonical already (a filter is as stored), else a
 * canonical copy: a hash list or light state without its unused slots
 */
static struct varlena *
canonical(const BtTypeMethods *t, struct varlena *v)
{
	BtAnyFilter f;
	struct varlena *c;

	bt_decode_or_error(t, v, &f);
	if (bloom_is_canonical(&f.hdr))
		return v;
	c = bt_new_varlena(bloom_canonical_size(&f.hdr), CurrentMemoryContext);
	bloom_canonical_write(&f.hdr, BT_DATA(c));
	return c;
}

/* Validates outside bytes and wraps them in a new varlena */
static struct varlena *
from_bytes(const BtTypeMethods *t, const char *data, size_t len, int errcode_)
{
	struct varlena *v;

	validate_bytes(t, data, len, errcode_);
	v = (struct varlena *) palloc(VARHDRSZ + len);
	SET_VARSIZE(v, VARHDRSZ + len);
	bt_copy_bytes(VARDATA(v), data, len);
	return v;
}

/*
 * The canonical bytes of argument argno.  Comparison and hashing run
 * inside sorts, hash tables and grouping, whose memory is not reset per
 * row: the caller frees what this made with canonical_free, so that no
 * call leaves a copy of a value behind (as the built-in types'
 * comparison functions do with PG_FREE_IF_COPY).
 */
static struct varlena *
canonical_arg(FunctionCallInfo fcinfo, int argno, const BtTypeMethods *t,
			  struct varlena **detoasted)
{
	*detoasted = PG_DETOAST_DATUM(PG_GETARG_DATUM(argno));
	return canonical(t, *detoasted);
}

static void
canonical_free(FunctionCallInfo fcinfo, int argno, struct varlena *detoasted,
			   struct varlena *canon)
{
	if (canon != detoasted)
		pfree(canon);
	if ((Pointer) detoasted != DatumGetPointer(PG_GETARG_DATUM(argno)))
		pfree(detoasted);
}

/*
 * Are arguments 0 and 1 the same stored value?  Two TOAST pointers to one
 * TOASTed value (a grouping key compared with the rows of its group, a
 * value joined to many rows) are equal without fetching either.
 */
static bool
same_toasted_value(FunctionCallInfo fcinfo)
{
	struct varlena *a = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(0));
	struct varlena *b = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(1));
	struct varatt_external ea,
				eb;

	if (!VARATT_IS_EXTERNAL_ONDISK(a) || !VARATT_IS_EXTERNAL_ONDISK(b))
		return false;
	VARATT_EXTERNAL_GET_POINTER(ea, a);
	VARATT_EXTERNAL_GET_POINTER(eb, b);
	return ea.va_valueid == eb.va_valueid && ea.va_toastrelid == eb.va_toastrelid;
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

Datum
bt_type_in(FunctionCallInfo fcinfo, const BtTypeMethods *t)
{
	char	   *str = PG_GETARG_CSTRING(0);
	size_t		len = strlen(str);
	size_t		nbytes;
	char	   *buf;
	struct varlena *v;

	if (len < 2 || str[0] != '\\' || str[1] != 'x')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type %s", t->name),
				 errdetail("The text form must start with \"\\x\"."),
				 errhint("A %s is written as \\x followed by the hex digits of its binary form, as bytea prints.",
						 t->name)));
	len -= 2;
	if (len % 2 != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type %s", t->name),
				 errdetail("The hex digits after \"\\x\" are odd in number.")));
	nbytes = len / 2;
	if (nbytes > (size_t) t->max_bytes)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s value is too large", t->name)));
	/* decoded in place: a large value is not copied again */
	v = palloc_extended(VARHDRSZ + nbytes, MCXT_ALLOC_HUGE);
	SET_VARSIZE(v, VARHDRSZ + nbytes);
	buf = VARDATA(v);
	for (size_t i = 0; i < nbytes; i++)
	{
		int			hi = hexval(str[2 + 2 * i]);
		int			lo = hexval(str[3 + 2 * i]);

		if (hi < 0 || lo < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type %s", t->name),
					 errdetail("\"%.2s\" at byte %zu is not a hexadecimal byte.",
							   str + 2 + 2 * i, i)));
		buf[i] = (char) ((hi << 4) | lo);
		BT_CANCEL_POINT(i);
	}
	validate_bytes(t, buf, nbytes, ERRCODE_INVALID_TEXT_REPRESENTATION);
	PG_RETURN_POINTER(v);
}

#define HEX_SLICE	((size_t) 1024 * 1024)

Datum
bt_type_out(FunctionCallInfo fcinfo, const BtTypeMethods *t)
{
	struct varlena *d;
	struct varlena *v = canonical_arg(fcinfo, 0, t, &d);
	size_t		len = BT_LEN(v);
	char	   *out;

	if (len > (MaxAllocSize - 3) / 2)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s value of %zu bytes is too large for its text form", t->name, len),
				 errhint("Use binary COPY or the bytea cast for filters over 512 MB.")));
	out = palloc(2 * len + 3);
	out[0] = '\\';
	out[1] = 'x';
	/* in slices, so that the text form of a large value can be cancelled */
	for (size_t done = 0; done < len; done += HEX_SLICE)
	{
		CHECK_FOR_INTERRUPTS();
		hex_encode((const char *) BT_DATA(v) + done, Min(HEX_SLICE, len - done),
				   out + 2 + 2 * done);
	}
	out[2 + 2 * len] = '\0';
	canonical_free(fcinfo, 0, d, v);
	PG_RETURN_CSTRING(out);
}

Datum
bt_type_recv(FunctionCallInfo fcinfo, const BtTypeMethods *t)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			len = buf->len - buf->cursor;
	const char *data = pq_getmsgbytes(buf, len);

	PG_RETURN_POINTER(from_bytes(t, data, len, ERRCODE_INVALID_BINARY_REPRESENTATION));
}

/* Also the cast to bytea: the same bytes */
Datum
bt_type_send(FunctionCallInfo fcinfo, const BtTypeMethods *t)
{
	struct varlena *d;
	struct varlena *v = canonical_arg(fcinfo, 0, t, &d);
	bytea	   *result = (bytea *) palloc(VARSIZE(v));

	bt_copy_bytes(result, v, VARSIZE(v));
	canonical_free(fcinfo, 0, d, v);
	PG_RETURN_BYTEA_P(result);
}

Datum
bt_type_from_bytea(FunctionCallInfo fcinfo, const BtTypeMethods *t)
{
	struct varlena *b = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));

	/* the same bytes: the value itself, validated, without another copy */
	validate_bytes(t, VARDATA(b), BT_LEN(b), ERRCODE_INVALID_BINARY_REPRESENTATION);
	PG_RETURN_POINTER(b);
}

/* Equality of canonical bytes (GROUP BY, DISTINCT, UNION) */
bool
bt_type_eq(FunctionCallInfo fcinfo, const BtTypeMethods *t)
{
	struct varlena *da,
			   *db,
			   *a,
			   *b;
	bool		eq;

	if (same_toasted_value(fcinfo))
		return true;
	a = canonical_arg(fcinfo, 0, t, &da);
	b = canonical_arg(fcinfo, 1, t, &db);
	eq = VARSIZE(a) == VARSIZE(b) &&
		memcmp(VARDATA(a), VARDATA(b), BT_LEN(a)) == 0;
	canonical_free(fcinfo, 0, da, a);
	canonical_free(fcinfo, 1, db, b);
	return eq;
}

/*
 * A total order on the canonical bytes, so that sorting plans (DISTINCT
 * inside aggregates, merge joins, ORDER BY) work; it means nothing more.
 */
int
bt_type_cmp(FunctionCallInfo fcinfo, const BtTypeMethods *t)
{
	struct varlena *da,
			   *db,
			   *a,
			   *b;
	size_t		la,
				lb;
	int			c;

	if (same_toasted_value(fcinfo))
		return 0;
	a = canonical_arg(fcinfo, 0, t, &da);
	b = canonical_arg(fcinfo, 1, t, &db);
	la = BT_LEN(a);
	lb = BT_LEN(b);
	c = memcmp(VARDATA(a), VARDATA(b), Min(la, lb));
	if (c == 0)
		c = la < lb ? -1 : (la > lb ? 1 : 0);
	canonical_free(fcinfo, 0, da, a);
	canonical_free(fcinfo, 1, db, b);
	return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

/*
 * The hash of the last TOASTed value a hash call site saw, by its TOAST
 * pointer: a hash table that hashes one stored value for many rows (a
 * grouping key joined to every row) fetches it once.  Only within one
 * transaction: the type cache keeps a hash function's call site for the
 * life of the backend, and a TOAST value's OID may be used again once the
 * value is deleted and vacuumed, which no transaction sees happen to a
 * value it reads.
 */
typedef struct HashMemo
{
	TimestampTz xact_start;		/* the transaction it was made in */
	Oid			toastrelid;
	Oid			valueid;
	int64		seed;
	Datum		hash;
} HashMemo;

/*
 * The memo of this hash call site when argument 0 is a TOASTed value, else
 * NULL; *known says whether *hash is that value's remembered hash.
 */
static HashMemo *
hash_memo(FunctionCallInfo fcinfo, int64 seed, struct varatt_external *ext,
		  bool *known, Datum *hash)
{
	struct varlena *raw = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(0));
	HashMemo   *memo = fcinfo->flinfo->fn_extra;

	*known = false;
	if (!VARATT_IS_EXTERNAL_ONDISK(raw))
		return NULL;
	VARATT_EXTERNAL_GET_POINTER(*ext, raw);
	if (memo == NULL)
	{
		memo = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(HashMemo));
		fcinfo->flinfo->fn_extra = memo;
	}
	else if (OidIsValid(memo->valueid) && memo->valueid == ext->va_valueid &&
			 memo->xact_start == GetCurrentTransactionStartTimestamp() &&
			 memo->toastrelid == ext->va_toastrelid && memo->seed == seed)
	{
		*known = true;
		*hash = memo->hash;
	}
	return memo;
}

static Datum
type_hash(FunctionCallInfo fcinfo, const BtTypeMethods *t, bool extended)
{
	int64		seed = extended ? PG_GETARG_INT64(1) : 0;
	struct varatt_external ext;
	bool		known;
	Datum		h;
	HashMemo   *memo = hash_memo(fcinfo, seed, &ext, &known, &h);
	struct varlena *d;
	struct varlena *v;

	if (known)
		return h;
	v = canonical_arg(fcinfo, 0, t, &d);
	if (extended)
		h = hash_any_extended(BT_DATA(v), (int) BT_LEN(v), seed);
	else
		h = hash_any(BT_DATA(v), (int) BT_LEN(v));
	canonical_free(fcinfo, 0, d, v);
	if (memo != NULL)
	{
		memo->xact_start = GetCurrentTransactionStartTimestamp();
		memo->toastrelid = ext.va_toastrelid;
		memo->valueid = ext.va_valueid;
		memo->seed = seed;
		memo->hash = h;
	}
	return h;
}

Datum
bt_type_hash(FunctionCallInfo fcinfo, const BtTypeMethods *t)
{
	return type_hash(fcinfo, t, false);
}

Datum
bt_type_hash_extended(FunctionCallInfo fcinfo, const BtTypeMethods *t)
{
	return type_hash(fcinfo, t, true);
}
