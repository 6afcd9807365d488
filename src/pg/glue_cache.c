/*-------------------------------------------------------------------------
 *
 * glue_cache.c
 *		What a call site keeps across calls, in fn_extra: the key
 *		argument's encoding, the last sizing plan, and a filter argument
 *		that is the same datum on every row.
 *
 * One cache manager for every function of every family, in the manner of
 * PostGIS's GetGeomCache: a slot for the filter argument, and a methods
 * struct (BtCacheMethods) by which each family reads its values.
 *
 *-------------------------------------------------------------------------
 */
#include "bloomtype.h"

#include <sys/mman.h>

#include "access/detoast.h"
#include "nodes/primnodes.h"
#include "utils/memutils.h"

/* A call site's cache, made on its first call (bt_call_cache) */
BtCallCache *
bt_call_cache_init(FunctionCallInfo fcinfo)
{
	BtCallCache *cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt,
												sizeof(BtCallCache));

	cache->slot.arg_stable = -1;
	fcinfo->flinfo->fn_extra = cache;
	return cache;
}

/* The key's encoding, resolved once per call site (bt_cache_key) */
void
bt_cache_key_init(BtCallCache *cache, FunctionCallInfo fcinfo, BloomKeyEnc enc,
				  bool elements)
{
	bloom_keyinfo_init(&cache->key, enc, fcinfo, 1, elements);
	cache->key_ready = true;
}

/*
 * A copy of the prepared value v (decoded into the slot's scratch) for
 * probing, decoded into decoded, in cxt.  The bits start on a cache line,
 * so that a 64-byte block is one line; a large filter's bits start on a
 * 2 MB boundary and are offered to the kernel for huge pages, which spares
 * a TLB miss on most lookups.
 */
#define HUGE_PAGE_SIZE	(2 * 1024 * 1024)

static void
aligned_copy(struct varlena *v, const BtCacheMethods *m, const void *scratch,
			 void *decoded, MemoryContext cxt)
{
	size_t		len = BT_LEN(v);
	size_t		align = len >= 2 * HUGE_PAGE_SIZE ? HUGE_PAGE_SIZE : PG_CACHE_LINE_SIZE;
	size_t		head = m->head != NULL ? m->head(scratch) : BLOOM_HEADER_SIZE;
	char	   *mem;
	uint8	   *data;
	uint8	   *buf;

	mem = MemoryContextAllocHuge(cxt, len + align);
	data = (uint8 *) TYPEALIGN(align, mem + head);
	buf = data - head;

#ifdef MADV_HUGEPAGE
	if (align == HUGE_PAGE_SIZE)
		(void) madvise(data, (len - head) / HUGE_PAGE_SIZE * HUGE_PAGE_SIZE,
					   MADV_HUGEPAGE);
#endif
	bt_copy_bytes(buf, BT_DATA(v), len);
	m->redecode(buf, len, decoded);
}

/* Is argument argno of this call a constant? */
static bool
arg_is_const(FunctionCallInfo fcinfo, int argno)
{
	Node	   *expr = fcinfo->flinfo->fn_expr;
	List	   *args;

	if (expr == NULL)
		return false;
	if (IsA(expr, FuncExpr))
		args = ((FuncExpr *) expr)->args;
	else if (IsA(expr, OpExpr))
		args = ((OpExpr *) expr)->args;
	else
		return false;
	return argno < list_length(args) && IsA(list_nth(args, argno), Const);
}

/*
 * The kept value is the in-memory value raw (the same bytes, its header
 * included: a short header or inline compression compares as stored)?
 */
static bool
same_bytes(const BtValueSlot *slot, struct varlena *raw)
{
	return slot->raw != NULL && !VARATT_IS_EXTERNAL(raw) &&
		VARSIZE_ANY(raw) == slot->rawlen &&
		memcmp(raw, slot->raw, slot->rawlen) == 0;
}

/*
 * Makes the value just prepared in call_cxt (decoded into percall) the
 * kept one: the two contexts and decoded forms change places, and the
 * old kept value goes with the next reset of call_cxt.
 */
static void
keep_call_value(BtValueSlot *slot)
{
	MemoryContext c = slot->kept_cxt;
	void	   *d = slot->decoded;

	slot->kept_cxt = slot->call_cxt;
	slot->call_cxt = c;
	slot->decoded = slot->percall;
	slot->percall = d;
	MemoryContextReset(slot->call_cxt);
	slot->have = true;
}

/*
 * The filter in argument 0, decoded by the family's methods.  A call site
 * keeps at most one decoded value, in memory of its own, and reads what it
 * was not asked to keep in memory it resets at the next call, so that no
 * query shape (a grouping key, a sort, a comparison inside a sort) makes
 * memory grow per row.  It keeps:
 *
 * - a constant, for the whole query;
 * - a TOASTed value, by its TOAST pointer, so that an initplan such as
 *	 (SELECT f FROM filters WHERE ...) or a join partner is fetched once,
 *	 not once per row; another pointer evicts it;
 * - an in-memory value that was costly to read (an aggregate state made
 *	 into a filter or a view, a copy), by its bytes, compared per call: a
 *	 CTE's or a sort's copies of one value are read once.
 *
 * Other in-memory values (a plain filter in a 4-byte header: reading it is
 * decoding its header) are read per call.  Parameters are not trusted to
 * stay the same: PL/pgSQL keeps a call site's state across changes of its
 * variables.  The cache never keeps a pointer into memory it does not own.
 */
void *
bt_cache_value(FunctionCallInfo fcinfo, const BtCacheMethods *m)
{
	BtCallCache *cache = bt_call_cache(fcinfo);
	BtValueSlot *slot = &cache->slot;
	MemoryContext mcxt = fcinfo->flinfo->fn_mcxt;
	MemoryContext old;
	struct varlena *raw = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(0));
	bool		ondisk = VARATT_IS_EXTERNAL_ONDISK(raw);
	struct varatt_external ext = {0};
	struct varlena *v;

	if (slot->decoded == NULL)
	{
		slot->decoded = MemoryContextAllocZero(mcxt, m->decoded_size);
		slot->percall = MemoryContextAllocZero(mcxt, m->decoded_size);
		slot->kept_cxt = AllocSetContextCreate(mcxt, "bloomtype kept value",
											   ALLOCSET_DEFAULT_SIZES);
		slot->call_cxt = AllocSetContextCreate(mcxt, "bloomtype call value",
											   ALLOCSET_DEFAULT_SIZES);
	}
	if (slot->arg_stable < 0)
		slot->arg_stable = arg_is_const(fcinfo, 0) ? 1 : 0;
	if (ondisk)
		VARATT_EXTERNAL_GET_POINTER(ext, raw);

	if (slot->have)
	{
		if (slot->arg_stable)
			return slot->decoded;
		if (ondisk && ext.va_valueid == slot->valueid &&
			ext.va_toastrelid == slot->toastrelid)
			return slot->decoded;
		if (!ondisk && same_bytes(slot, raw))
			return slot->decoded;
	}

	/* read it in call_cxt, from what the last call left */
	MemoryContextReset(slot->call_cxt);
	old = MemoryContextSwitchTo(slot->call_cxt);
	v = m->prepare(fcinfo, 0, slot->percall);
	MemoryContextSwitchTo(old);

	if (!slot->arg_stable && !ondisk)
	{
		/* a plain value read in place: nothing to keep */
		if (v == raw || VARATT_IS_EXTERNAL(raw))
			return slot->percall;
		/* costly to read: keep it, by its bytes (set together, after the
		 * allocation, so that an error leaves the kept value as it was) */
		{
			size_t		len = VARSIZE_ANY(raw);
			uint8	   *copy = MemoryContextAlloc(slot->call_cxt, len);

			bt_copy_bytes(copy, raw, len);
			slot->raw = copy;
			slot->rawlen = len;
		}
		slot->toastrelid = slot->valueid = InvalidOid;
		keep_call_value(slot);
		return slot->decoded;
	}

	/* a constant or a TOASTed value: keep it, by its identity */
	slot->raw = NULL;
	slot->toastrelid = ext.va_toastrelid;
	slot->valueid = ext.va_valueid;
	if (v == NULL)
	{
		keep_call_value(slot);	/* self-contained */
		return slot->decoded;
	}
	/* an aligned copy in kept_cxt; the detoasted value goes with call_cxt */
	MemoryContextReset(slot->kept_cxt);
	slot->have = false;
	aligned_copy(v, m, slot->percall, slot->decoded, slot->kept_cxt);
	MemoryContextReset(slot->call_cxt);
	slot->have = true;
	return slot->decoded;
}
