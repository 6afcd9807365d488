/*-------------------------------------------------------------------------
 *
 * bloom_ext.h
 *		What the fmgr glue files of bloomtype share.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_EXT_H
#define BLOOM_EXT_H

#include "postgres.h"
#include "fmgr.h"

#include "src/bloom_core.h"

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

/* Per-call-site state of bloom_add, bloom_contains and their batch forms, in fn_extra */
typedef struct BloomCallCache
{
	BloomKeyInfo key;
	bool		key_ready;
	int			arg_stable;		/* -1 not yet known, else bool */
	bool		have;			/* a filter is cached (in fn_mcxt) */
	Oid			toastrelid;		/* identity of a cached TOASTed filter */
	Oid			valueid;
	void	   *value;			/* the memory of the cached copy */
	BloomFilter filter;
	BloomFilter scratch;		/* decoded per call when nothing is cached */
} BloomCallCache;

/* bloom_keys.c */
extern void bloom_keyinfo_init(BloomKeyInfo *ki, BloomKeyEnc enc,
							   FunctionCallInfo fcinfo, int argno, bool elements);
extern uint64 bloom_key_hash(BloomKeyInfo *ki, Datum value, uint64 seed);
extern void bloom_key_mismatch(BloomFilter *f, const BloomKeyInfo *ki, bool adding);
extern void bloom_check_key_classes(const BloomFilter *a, const BloomFilter *b);
extern const char *bloom_key_class_name(uint8 key_class, uint32 key_type);

/* bloom_ext.c */
extern struct varlena *bloom_new_blocked(uint64 capacity, double fpr,
										 BloomPlan *plan_cache, MemoryContext cxt);
extern struct varlena *bloom_new_buffered(uint64 capacity, double fpr,
										  BloomPlan *plan_cache, MemoryContext cxt);
extern void bloom_check_params(int64 capacity, double fpr);
extern void bloom_check_scalable_params(int64 capacity, double fpr, int32 expansion);
extern struct varlena *bloom_new_scalable(uint64 capacity, double fpr, int32 expansion,
										  BloomPlan *plan_cache, MemoryContext cxt);
extern struct varlena *bloom_new_buffered_layer(uint64 capacity, double fpr,
												BloomPlan *plan_cache,
												MemoryContext cxt);
extern struct varlena *bloom_scalable_add(struct varlena *v, BloomFilter *f, uint64 h,
										  BloomPlan *plan_cache, MemoryContext cxt,
										  bool *added);
extern struct varlena *bloom_add_hash(struct varlena *v, BloomFilter *f, uint64 h,
									  BloomPlan *plan_cache, MemoryContext cxt);
extern struct varlena *bloom_create_default(BloomFilter *f);
extern struct varlena *bloom_add_target(FunctionCallInfo fcinfo, bool create,
										BloomFilter *f);
extern void bloom_warn_if_cannot_grow(struct varlena *v);
extern int	bloom_cmp_u64(const void *a, const void *b);
extern void bloom_get_plan(double fpr, BloomPlan *plan_cache);
extern void bloom_decode_or_error(struct varlena *v, BloomFilter *f);
extern struct varlena *bloom_materialize(BloomFilter *hl, BloomPlan *plan_cache,
										 MemoryContext cxt, bool scalable);
extern void bloom_check_compatible(const BloomFilter *a, const BloomFilter *b);
extern struct varlena *bloom_merge_into(struct varlena *a, BloomFilter *fa,
										const BloomFilter *fb, bool intersect,
										MemoryContext cxt);
extern BloomCallCache *bloom_call_cache(FunctionCallInfo fcinfo, BloomKeyEnc enc,
										bool elements);
extern BloomFilter *bloom_probe_filter(FunctionCallInfo fcinfo, BloomCallCache *cache);
extern struct varlena *bloom_filter_arg_copy(FunctionCallInfo fcinfo, int argno,
											 BloomFilter *f, bool scalable);
extern void bloom_admit_key(struct varlena *v, BloomFilter *f,
							const BloomKeyInfo *ki);
extern void bloom_set_key_class(struct varlena *v, BloomFilter *f,
								uint8 key_class, uint32 key_type);

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
 * Checks that a key of ki's class may be added to (adding) or probed in f;
 * a filter that holds nothing yet takes any class.
 */
static inline void
bloom_check_key(BloomFilter *f, const BloomKeyInfo *ki, bool adding)
{
	if (f->key_class != BLOOM_KEY_NONE &&
		(f->key_class != ki->key_class || f->key_type != ki->key_type))
		bloom_key_mismatch(f, ki, adding);
}

#define BLOOM_DATA(v)	((uint8 *) VARDATA(v))
#define BLOOM_LEN(v)	((size_t) (VARSIZE(v) - VARHDRSZ))

#endif							/* BLOOM_EXT_H */
