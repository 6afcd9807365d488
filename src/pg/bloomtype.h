/*-------------------------------------------------------------------------
 *
 * bloomtype.h
 *		The PostgreSQL glue that every family shares: key encodings, memory
 *		for the core, the per-call cache, and type I/O and comparison
 *		written once.  Declarations are grouped by the file that defines
 *		them.
 *
 * The glue owns every PostgreSQL concern (datums, memory contexts,
 * ereport, canonical key encodings, caching across calls); the filter
 * algorithms are in src/core (plain C).  Each family has a folder of its
 * own for its SQL-visible functions (src/bloom for bloomfilter).
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMTYPE_H
#define BLOOMTYPE_H

#include "pgcompat.h"
#include "miscadmin.h"
#include "utils/expandeddatum.h"

#include "core.h"
#include "keytypes.h"

/* ---------------------------------------------------------------------
 * SQL-API versions
 * ---------------------------------------------------------------------
 */

/*
 * The generation of the extension's SQL that binds a C entry point.  An
 * installed database keeps the functions of the version it was created at
 * (or updated to), bound to C symbols by name; a symbol never changes
 * meaning, so when a version changes what a function does it binds a new
 * symbol.  The entry points pass their generation to the common code, and
 * what each generation means is derived from it in one place (for
 * bloomfilter, the bt_api_* predicates of src/bloom/bloom.h; the table of
 * which version binds which symbol is in src/bloom/bf_legacy.c).  Only the
 * versions whose SQL bound new C symbols are listed; the order is the
 * order of the versions.
 */
typedef enum BtApiVersion
{
	BT_API_1_0,					/* bloomtype--1.0.sql */
	BT_API_1_1,					/* array forms */
	BT_API_1_2,					/* scalable filters, create-on-add */
	BT_API_1_5,					/* light bloom_agg states */
	BT_API_1_6					/* every read of a hash list as 1.2's */
} BtApiVersion;

/* ---------------------------------------------------------------------
 * glue_keys.c: canonical encoding and hashing of SQL values used as keys
 * ---------------------------------------------------------------------
 */

/* How a key's SQL value is turned into bytes (docs/FORMAT.md) */
typedef enum BloomKeyEnc
{
	BKE_UNKNOWN = 0,			/* resolve from the call's argument type */
	BKE_INT2,
	BKE_INT4,
	BKE_INT8,
	BKE_TEXT,					/* text, varchar */
	BKE_BPCHAR,					/* bpchar: without trailing spaces */
	BKE_NAME,
	BKE_BYTEA,
	BKE_UUID,
	BKE_FLOAT4,
	BKE_FLOAT8,
	BKE_OTHER					/* binary send form */
} BloomKeyEnc;

typedef struct BloomKeyInfo
{
	BloomKeyEnc enc;
	uint8		key_class;
	uint32		key_type;		/* tag of the type, class "other" only */
	Oid			typid;			/* the SQL type of the argument */
	FmgrInfo	sendfn;			/* class "other" only */
} BloomKeyInfo;

extern BloomKeyEnc bloom_key_enc_for_type(Oid typid);
extern void bloom_keyinfo_init_type(BloomKeyInfo *ki, BloomKeyEnc enc, Oid typid,
									MemoryContext cxt);
extern void bloom_keyinfo_init(BloomKeyInfo *ki, BloomKeyEnc enc,
							   FunctionCallInfo fcinfo, int argno, bool elements);
extern uint64 bloom_key_hash(BloomKeyInfo *ki, Datum value, uint64 seed);
extern void bloom_key_mismatch(uint8 key_class, uint32 key_type,
							   const BloomKeyInfo *ki, bool adding);
extern void bloom_check_key_classes(uint8 a_class, uint32 a_type,
									uint8 b_class, uint32 b_type);
extern void bt_key_mismatch(const char *noun, uint8 key_class, uint32 key_type,
							const BloomKeyInfo *ki, bool adding);
extern void bt_check_key_classes(const char *plural, uint8 a_class, uint32 a_type,
								 uint8 b_class, uint32 b_type);
extern const char *bloom_key_class_name(uint8 key_class, uint32 key_type);

/*
 * The hash of a key.  Integer keys, the common case, are hashed inline;
 * the rest go through bloom_key_hash.
 */
static inline uint64
bloom_key_hash_fast(BloomKeyInfo *ki, Datum value, uint64 seed)
{
	switch (ki->enc)
	{
		case BKE_INT8:
			return bloom_hash_int64(seed, DatumGetInt64(value));
		case BKE_INT4:
			return bloom_hash_int64(seed, DatumGetInt32(value));
		case BKE_INT2:
			return bloom_hash_int64(seed, DatumGetInt16(value));
		default:
			return bloom_key_hash(ki, value, seed);
	}
}

/*
 * Checks that a key of ki's class may be added to (adding) or probed in a
 * filter that holds keys of key_class (and key_type); a filter that holds
 * nothing yet takes any class.
 */
static inline void
bloom_check_key(uint8 key_class, uint32 key_type, const BloomKeyInfo *ki,
				bool adding)
{
	if (key_class != BLOOM_KEY_NONE &&
		(key_class != ki->key_class || key_type != ki->key_type))
		bloom_key_mismatch(key_class, key_type, ki, adding);
}

/*
 * Before adding a key of ki's class to a value whose header is f (noun
 * names its type for the error): refuses another class, and records the
 * class in a value that holds none.
 */
static inline void
bt_admit_key(const char *noun, BloomFilter *f, const BloomKeyInfo *ki)
{
	if (f->key_class != BLOOM_KEY_NONE &&
		(f->key_class != ki->key_class || f->key_type != ki->key_type))
		bt_key_mismatch(noun, f->key_class, f->key_type, ki, true);
	if (f->key_class == BLOOM_KEY_NONE)
		bloom_store_key_class(f, ki->key_class, ki->key_type);
}

/* Before probing a value whose header is f with a key of ki's class */
static inline void
bt_check_key(const char *noun, const BloomFilter *f, const BloomKeyInfo *ki)
{
	if (f->key_class != BLOOM_KEY_NONE &&
		(f->key_class != ki->key_class || f->key_type != ki->key_type))
		bt_key_mismatch(noun, f->key_class, f->key_type, ki, false);
}

/*
 * The C entry points of a function that takes a key, one per key type of
 * src/pg/keytypes.h: name_<suffix>(fcinfo) returns call, an expression in
 * fcinfo and the entry point's encoding.  A family binds them in a macro
 * of the list's shape:
 *
 *	#define CONTAINS_(suffix, sqltype, enc, vol) \
 *		BT_KEY_ENTRY(bloom_contains, suffix, contains_common(fcinfo, enc))
 *	BT_KEY_TYPES(CONTAINS_, BT_NO_ALIAS)
 *
 * The names exist only after expansion, so a comment beside each expansion
 * lists the ones it makes (bloom_contains_int8, ..., bloom_contains_any):
 * a search for a C symbol then finds where it is defined.
 */
#define BT_KEY_ENTRY(name, suffix, call) \
	PG_FUNCTION_INFO_V1(name##_##suffix); \
	Datum name##_##suffix(PG_FUNCTION_ARGS) { return call; }
#define BT_NO_ALIAS(suffix, sqltype)

/* A count for a bigint column: a 64-bit count past its range shows as its top */
static inline int64
clamp_int64(uint64 v)
{
	return v > (uint64) PG_INT64_MAX ? PG_INT64_MAX : (int64) v;
}

/* ---------------------------------------------------------------------
 * glue_params.c: filters that do not combine
 * ---------------------------------------------------------------------
 */

extern void bt_param_mismatch(const char *plural, BloomParam param,
							  const char *first, const char *second,
							  const char *hint);

/* ---------------------------------------------------------------------
 * glue_memory.c: memory for the core
 * ---------------------------------------------------------------------
 */

/*
 * An allocator for the core in cxt whose values are the data of varlenas:
 * a value the core makes is returned to SQL as bt_varlena(base).  Its
 * work arrays are plain palloc chunks.
 */
extern BloomAlloc bt_allocator(MemoryContext cxt);
extern struct varlena *bt_new_varlena(size_t size, MemoryContext cxt);
extern void bt_copy_bytes(void *dst, const void *src, size_t n);

/*
 * The core's way out of a long loop: CHECK_FOR_INTERRUPTS() (every
 * allocator carries it; core calls that take no allocator take it)
 */
extern const BloomCancel bt_cancel;

/*
 * The same for the glue's own loops over an input (array elements, batch
 * probes): a check at step 0 and every BLOOM_CANCEL_EVERY steps
 */
#define BT_CANCEL_POINT(i) \
	do { \
		if (((i) & (BLOOM_CANCEL_EVERY - 1)) == 0) \
			CHECK_FOR_INTERRUPTS(); \
	} while (0)

#define BT_DATA(v)	((uint8 *) VARDATA(v))
#define BT_LEN(v)	((size_t) (VARSIZE(v) - VARHDRSZ))

static inline struct varlena *
bt_varlena(uint8 *base)
{
	return (struct varlena *) (base - VARHDRSZ);
}

/* ---------------------------------------------------------------------
 * glue_cache.c: what a call site keeps across calls, in fn_extra
 * ---------------------------------------------------------------------
 */

/*
 * How a family reads a filter argument into its decoded form: prepare
 * fetches argument argno (detoasted, validated, aggregate states made
 * into filters or views) and decodes it into decoded, allocating only in
 * CurrentMemoryContext (the cache sets it to a context of its own); it
 * returns the value decoded points into, or NULL when decoded is
 * self-contained (a view built in that context).  head is the number of
 * bytes before the bits of a decoded value (NULL: the header's 64), so
 * that a cached copy can start its bits on a cache line; redecode decodes
 * a copy of a prepared value.
 */
typedef struct BtCacheMethods
{
	size_t		decoded_size;
	struct varlena *(*prepare) (FunctionCallInfo fcinfo, int argno, void *decoded);
	size_t		(*head) (const void *decoded);
	void		(*redecode) (uint8 *buf, size_t len, void *decoded);
} BtCacheMethods;

/*
 * A filter argument kept across calls (one slot per call site).  At most
 * one decoded value is kept (in kept_cxt); a value read for one call only
 * lives in call_cxt, which the next call resets.
 */
typedef struct BtValueSlot
{
	int			arg_stable;		/* -1 not yet known, else bool */
	bool		have;			/* a value is kept (in kept_cxt) */
	Oid			toastrelid;		/* identity of a kept TOASTed value */
	Oid			valueid;
	uint8	   *raw;			/* or the bytes of a kept in-memory value */
	size_t		rawlen;
	MemoryContext kept_cxt;
	MemoryContext call_cxt;
	void	   *decoded;		/* the kept value's decoded form */
	void	   *percall;		/* decoded per call when nothing is kept */
} BtValueSlot;

/*
 * A transition function's state as the last row left it (bt_state_recall):
 * the state's address and length, a copy of its header, and its decoded
 * fields, which the row updates in place.
 */
typedef struct BtStateMemo
{
	const struct varlena *state;	/* NULL: nothing remembered */
	uint32		size;
	uint8		header[BLOOM_HEADER_SIZE];
	BloomFilter f;
} BtStateMemo;

typedef struct BtCallCache
{
	BloomKeyInfo key;			/* the key argument's encoding */
	bool		key_ready;
	BloomPlan	plan;			/* the last sizing plan, reused per rate */
	BtValueSlot slot;			/* argument 0, when it is a filter */
	bool		agg_checked;	/* called as an aggregate (bt_agg_context) */
	BtStateMemo memo;			/* a transition's state, the last row's */
	void	   *am;				/* the index read, checked and routed
								 * (src/am/bfi_site.c), or NULL */
} BtCallCache;

extern BtCallCache *bt_call_cache_init(FunctionCallInfo fcinfo);
extern void bt_cache_key_init(BtCallCache *cache, FunctionCallInfo fcinfo,
							  BloomKeyEnc enc, bool elements);
extern void *bt_cache_value(FunctionCallInfo fcinfo, const BtCacheMethods *m);

/* The call site's cache (in fn_extra, fn_mcxt); inline: it runs once a row */
static inline BtCallCache *
bt_call_cache(FunctionCallInfo fcinfo)
{
	BtCallCache *cache = fcinfo->flinfo->fn_extra;

	return cache ? cache : bt_call_cache_init(fcinfo);
}

/*
 * The encoding of the key in argument 1 (with elements, of its array's
 * elements), resolved once per call site.  enc is the entry point's; for
 * BKE_UNKNOWN it comes from the call's argument type.  Inline: it runs
 * once a row.
 */
static inline BloomKeyInfo *
bt_cache_key(FunctionCallInfo fcinfo, BloomKeyEnc enc, bool elements)
{
	BtCallCache *cache = bt_call_cache(fcinfo);

	if (!cache->key_ready)
		bt_cache_key_init(cache, fcinfo, enc, elements);
	return &cache->key;
}

/* ---------------------------------------------------------------------
 * glue_io.c: type I/O, casts and comparison, over a family's methods
 * ---------------------------------------------------------------------
 */

/*
 * What the shared I/O needs of a type: its name, validation of outside
 * bytes, and the canonical bytes of a stored value (equal values have
 * equal canonical bytes; the text and binary forms write them).
 */
typedef struct BtTypeMethods
{
	const char *name;

	/*
	 * The core's entry points for the type (kinds.c, counting_value.c,
	 * cuckoo_value.c): decode a stored value, and validate outside bytes
	 * (every rule, deep), each into a decoded form that begins with the
	 * header (BtAnyFilter holds any)
	 */
	BloomStatus (*decode) (const uint8 *buf, size_t len, void *f);
	BloomStatus (*validate) (const uint8 *buf, size_t len, void *f,
							 const BloomCancel *c);
	const char *version_detail; /* BLOOM_E_VERSION's detail; NULL: the core's */
	int64		max_bytes;
} BtTypeMethods;

/* Room for any family's decoded form, which begins with the header */
typedef union BtAnyFilter
{
	BloomFilter hdr;			/* bloomfilter's and countingbloom's form */
	CuckooFilter cuckoo;
} BtAnyFilter;

/* v decoded into f (a t's decoded form), or t's ERROR for a corrupt value */
extern void bt_decode_or_error(const BtTypeMethods *t, struct varlena *v, void *f);

extern Datum bt_type_in(FunctionCallInfo fcinfo, const BtTypeMethods *t);
extern Datum bt_type_out(FunctionCallInfo fcinfo, const BtTypeMethods *t);
extern Datum bt_type_recv(FunctionCallInfo fcinfo, const BtTypeMethods *t);
extern Datum bt_type_send(FunctionCallInfo fcinfo, const BtTypeMethods *t);
extern Datum bt_type_from_bytea(FunctionCallInfo fcinfo, const BtTypeMethods *t);
extern int	bt_type_cmp(FunctionCallInfo fcinfo, const BtTypeMethods *t);
extern bool bt_type_eq(FunctionCallInfo fcinfo, const BtTypeMethods *t);
extern Datum bt_type_hash(FunctionCallInfo fcinfo, const BtTypeMethods *t);
extern Datum bt_type_hash_extended(FunctionCallInfo fcinfo, const BtTypeMethods *t);

/*
 * The C entry points of a type's I/O, casts and comparison: type_in,
 * type_out, type_recv, type_send, type_from_bytea, type_eq, type_ne,
 * type_cmp, type_lt, type_le, type_gt, type_ge, type_hash,
 * type_hash_extended.
 */
#define BT_TYPE_ENTRY_(type, fn, body) \
	PG_FUNCTION_INFO_V1(type##_##fn); \
	Datum type##_##fn(PG_FUNCTION_ARGS) { body; }
#define BT_TYPE_ENTRIES(type, methods) \
	BT_TYPE_ENTRY_(type, in, return bt_type_in(fcinfo, methods)) \
	BT_TYPE_ENTRY_(type, out, return bt_type_out(fcinfo, methods)) \
	BT_TYPE_ENTRY_(type, recv, return bt_type_recv(fcinfo, methods)) \
	BT_TYPE_ENTRY_(type, send, return bt_type_send(fcinfo, methods)) \
	BT_TYPE_ENTRY_(type, from_bytea, return bt_type_from_bytea(fcinfo, methods)) \
	BT_TYPE_ENTRY_(type, eq, PG_RETURN_BOOL(bt_type_eq(fcinfo, methods))) \
	BT_TYPE_ENTRY_(type, ne, PG_RETURN_BOOL(!bt_type_eq(fcinfo, methods))) \
	BT_TYPE_ENTRY_(type, cmp, PG_RETURN_INT32(bt_type_cmp(fcinfo, methods))) \
	BT_TYPE_ENTRY_(type, lt, PG_RETURN_BOOL(bt_type_cmp(fcinfo, methods) < 0)) \
	BT_TYPE_ENTRY_(type, le, PG_RETURN_BOOL(bt_type_cmp(fcinfo, methods) <= 0)) \
	BT_TYPE_ENTRY_(type, gt, PG_RETURN_BOOL(bt_type_cmp(fcinfo, methods) > 0)) \
	BT_TYPE_ENTRY_(type, ge, PG_RETURN_BOOL(bt_type_cmp(fcinfo, methods) >= 0)) \
	BT_TYPE_ENTRY_(type, hash, return bt_type_hash(fcinfo, methods)) \
	BT_TYPE_ENTRY_(type, hash_extended, return bt_type_hash_extended(fcinfo, methods))

/* ---------------------------------------------------------------------
 * glue_batch.c: the keys of an array argument, and answers as arrays
 * ---------------------------------------------------------------------
 */

typedef struct BtBatchKeys
{
	int			n;				/* elements */
	uint64	   *hashes;			/* hash per element (NULL: undefined) */
	bool	   *nulls;
	struct ArrayType *array;
} BtBatchKeys;

extern void bt_hash_elements(FunctionCallInfo fcinfo, BloomKeyInfo *ki, uint64 seed,
							 BtBatchKeys *keys);
extern Datum bt_bool_array(const bool *found, const BtBatchKeys *keys);
extern Datum bt_quantified(FunctionCallInfo fcinfo, const bool *found,
						   const BtBatchKeys *keys, bool any);

/*
 * A family's batch probe: its probe cache (whose decoded form starts with
 * the BloomFilter of its header), the noun of its errors, and its lookup
 * of the non-NULL keys of a batch.
 */
typedef struct BtBatchProbe
{
	const BtCacheMethods *methods;
	const char *noun;
	void		(*lookup) (const void *filter, const BtBatchKeys *keys, bool *found);
	/* or, without a lookup: a key's answer, and a prefetch (may be NULL) */
	bool		(*contains) (const BloomFilter *f, uint64 h);
	void		(*prefetch) (const BloomFilter *f, uint64 h);
	/* NULL, or what of the filter the call asks (its arguments after keys) */
	const void *(*narrow) (FunctionCallInfo fcinfo, const void *filter);
} BtBatchProbe;

typedef enum BtBatchForm
{
	BT_EACH,					/* boolean[] */
	BT_ALL,						/* = ALL */
	BT_ANY						/* = ANY */
} BtBatchForm;

extern Datum bt_batch_probe(FunctionCallInfo fcinfo, const BtBatchProbe *p, BtBatchForm form);

/* The C entry points <prefix>_batch_contains_each, _all and _any over probe */
#define BT_BATCH_PROBE_ENTRIES(prefix, probe) \
	BT_TYPE_ENTRY_(prefix, batch_contains_each, return bt_batch_probe(fcinfo, probe, BT_EACH)) \
	BT_TYPE_ENTRY_(prefix, batch_contains_all, return bt_batch_probe(fcinfo, probe, BT_ALL)) \
	BT_TYPE_ENTRY_(prefix, batch_contains_any, return bt_batch_probe(fcinfo, probe, BT_ANY))

/* ---------------------------------------------------------------------
 * glue_agg.c: what every family's aggregates share
 * ---------------------------------------------------------------------
 */

extern MemoryContext bt_agg_context(FunctionCallInfo fcinfo, const char *fname);
extern struct varlena *bt_plain_state_copy(Datum d);

/* a state kept as an expanded object (src/pg/glue_agg.c) */
typedef struct BtExpState
{
	ExpandedObjectHeader hdr;
	struct varlena *flat;		/* the state's value, in hdr.eoh_context */
} BtExpState;

/*
 * States this large or larger grow as expanded states: a memory context
 * per state costs less than copying them (smaller ones, as many groups
 * have, stay plain)
 */
#define BT_EXP_MIN_BYTES	(128 * 1024)

extern bool bt_exp_allowed(FunctionCallInfo fcinfo);
extern BtExpState *bt_exp_state(Datum d);
extern BtExpState *bt_exp_state_adopt(const struct varlena *v, BloomFilter *f,
									  MemoryContext aggcxt);
extern BtExpState *bt_exp_state_new(const struct varlena *v, MemoryContext aggcxt);
extern struct varlena *bt_exp_state_resize(BtExpState *es, Size size);
extern void bt_exp_state_replace(BtExpState *es, struct varlena *v);
extern bool bt_exp_hashlist_room(BtExpState *es, BloomFilter *f, uint64 n,
								 BloomPlan *plan);

/*
 * A state argument as a plain varlena (4-byte header, not toasted).  A
 * state an aggregate built always is; anything else is copied into the
 * current memory context and the caller returns the copy, which the
 * executor moves into the aggregate context.  Inline: it runs once a row.
 */
static inline struct varlena *
bt_plain_state(Datum d)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(d);

	return VARATT_IS_EXTENDED(v) ? bt_plain_state_copy(d) : v;
}

/*
 * bt_agg_context once per call site: the node that calls an FmgrInfo does
 * not change, so a call site found to be an aggregate's stays one.
 */
static inline void
bt_agg_check_once(FunctionCallInfo fcinfo, BtCallCache *cache, const char *fname)
{
	if (!cache->agg_checked)
	{
		(void) bt_agg_context(fcinfo, fname);
		cache->agg_checked = true;
	}
}

/*
 * The transition state v decoded, kept in the call site's memo: when v is
 * the state the last row of this call site left (same address, length and
 * header bytes), as that row left it, without validating it again (a
 * state's decode reads its header and length alone, so equal bytes decode
 * to equal fields, whatever value now lives at that address); else v
 * decoded by decode (which raises an ERROR on a bad value).  The caller
 * updates the fields in place and ends the row with bt_state_remember, or
 * with bt_state_forget when v is not a state it updated.  Inline: it runs
 * once a row.
 */
static inline BloomFilter *
bt_state_recall(BtCallCache *cache, const struct varlena *v,
				void (*decode) (struct varlena *v, BloomFilter *f))
{
	BtStateMemo *m = &cache->memo;

	if (m->state != v || VARSIZE(v) != m->size ||
		memcmp(VARDATA(v), m->header, BLOOM_HEADER_SIZE) != 0)
	{
		m->state = NULL;
		decode((struct varlena *) v, &m->f);
	}
#ifdef USE_ASSERT_CHECKING
	else
	{
		/*
		 * A hit is sound only while decoding a state reads no more than its
		 * header and length (the decoders of kinds 2, 3, 7 and 8): check it
		 */
		BloomFilter again;

		decode((struct varlena *) v, &again);
		Assert(again.kind == m->f.kind && again.nhashes == m->f.nhashes &&
			   again.nslots == m->f.nslots && again.npending == m->f.npending &&
			   again.nblocks == m->f.nblocks && again.nitems == m->f.nitems &&
			   again.data == m->f.data);
	}
#endif
	return &m->f;
}

/*
 * The state v, whose decoded fields are the memo's, as this row leaves it:
 * an aggregate state (kinds 2, 3, 7 or 8)
 */
static inline void
bt_state_remember(BtCallCache *cache, const struct varlena *v)
{
	BtStateMemo *m = &cache->memo;

	Assert(m->f.base == (const uint8 *) VARDATA(v));
	m->state = v;
	m->size = VARSIZE(v);
	bloom_state_header_copy(&m->f, m->header);
}

static inline void
bt_state_forget(BtCallCache *cache)
{
	cache->memo.state = NULL;
}
extern struct varlena *bt_copy_into(struct varlena *v, MemoryContext cxt);
extern struct varlena *bt_light_push(BloomFilter *f, struct varlena *state, uint64 h,
									 const char *aggname);
extern struct varlena *bt_new_hashlist(uint64 nslots, uint64 capacity, double fpr);
/*
 * An aggregate that keeps every row's hash in a hash list (the counting
 * and cuckoo types): its name, the plural of its errors, the copies of one
 * key a filter of its type holds (what a full list keeps), and the hint
 * when the list is full anyway.
 */
typedef struct BtListAgg
{
	const char *aggname;
	const char *plural;
	unsigned	maxcopies;
	const char *limit_hint;
} BtListAgg;

extern struct varlena *bt_hashlist_push_row(BloomFilter *f, uint64 h, BloomPlan *plan,
											const BtListAgg *la);
extern struct varlena *bt_hashlist_combine(BloomFilter *f1, const BloomFilter *f2,
										   BloomPlan *plan, const BtListAgg *la);
extern void bt_param_not_null(FunctionCallInfo fcinfo, int argno, const char *aggname,
							  const char *what);
extern bool bt_is_empty_state(FunctionCallInfo fcinfo, int argno);

/*
 * The parameters of a transition call (state, key [, fpr] | [, capacity,
 * fpr]): capacity 0 and the default rate when the call has none.  NULL
 * parameters are an ERROR.  Returns the number of arguments.  Inline: it
 * runs once a row.
 */
static inline int
bt_agg_trans_params(FunctionCallInfo fcinfo, const char *aggname, int64 *capacity,
					double *fpr)
{
	int			nargs = PG_NARGS();

	*capacity = 0;
	*fpr = BLOOM_DEFAULT_FPR;
	if (nargs == 3)
	{
		if (PG_ARGISNULL(2))
			bt_param_not_null(fcinfo, 2, aggname, "false-positive rate");
		*fpr = PG_GETARG_FLOAT8(2);
	}
	else if (nargs == 4)
	{
		if (PG_ARGISNULL(2))
			bt_param_not_null(fcinfo, 2, aggname, "capacity");
		if (PG_ARGISNULL(3))
			bt_param_not_null(fcinfo, 3, aggname, "false-positive rate");
		*capacity = PG_GETARG_INT64(2);
		*fpr = PG_GETARG_FLOAT8(3);
	}
	return nargs;
}
extern int	bt_agg_const_params(FunctionCallInfo fcinfo, int64 *capacity, double *fpr);

#endif							/* BLOOMTYPE_H */
