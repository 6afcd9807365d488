/*-------------------------------------------------------------------------
 *
 * cache.c
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
 * probing, decoded into decoded; returns the memory to free.  The bits
 * start on a cache line, so that a 64-byte block is one line; a large
 * filter's bits start on a 2 MB boundary and are offered to the kernel for
 * huge pages, which spares a TLB miss on most lookups.
 */
#define HUGE_PAGE_SIZE	(2 * 1024 * 1024)

static void *
aligned_copy(struct varlena *v, const BtCacheMethods *m, const void *scratch,
			 void *decoded, MemoryContext cxt)
{
	size_t		len = BT_LEN(v);
	size_t		align = len >= 2 * HUGE_PAGE_SIZE ? HUGE_PAGE_SIZE : PG_CACHE_LINE_SIZE;
	size_t		head = m->head(scratch);
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
	memcpy(buf, BT_DATA(v), len);
	m->redecode(buf, len, decoded);
	return mem;
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
 * The filter in argument 0, decoded by the family's methods, detoasted and
 * validated once per query when the argument is the same datum on every
 * row: a constant (kept for the whole query), or a TOASTed value,
 * remembered by its TOAST pointer, so that an initplan such as (SELECT f
 * FROM filters WHERE ...) or a join partner is fetched once, not once per
 * row.  Parameters are not trusted to stay the same: PL/pgSQL keeps a call
 * site's state across changes of its variables.  Values in memory are
 * decoded per call, which reads the header only.  The cache holds its own
 * copy, never a pointer into memory it does not own.
 */
void *
bt_cache_value(FunctionCallInfo fcinfo, const BtCacheMethods *m)
{
	BtCallCache *cache = bt_call_cache(fcinfo);
	BtValueSlot *slot = &cache->slot;
	MemoryContext mcxt = fcinfo->flinfo->fn_mcxt;
	struct varlena *raw = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(0));
	bool		ondisk = VARATT_IS_EXTERNAL_ONDISK(raw);
	struct varatt_external ext = {0};
	struct varlena *v;

	if (slot->decoded == NULL)
	{
		slot->decoded = MemoryContextAllocZero(mcxt, m->decoded_size);
		slot->percall = MemoryContextAllocZero(mcxt, m->decoded_size);
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
	}

	if (!slot->arg_stable && !ondisk)
	{
		(void) m->prepare(fcinfo, 0, slot->percall);
		return slot->percall;
	}

	/* detoast, and keep an aligned copy in the call site's memory */
	if (slot->have)
		pfree(slot->mem);
	slot->have = false;
	v = m->prepare(fcinfo, 0, slot->percall);
	slot->mem = aligned_copy(v, m, slot->percall, slot->decoded, mcxt);
	slot->toastrelid = ext.va_toastrelid;
	slot->valueid = ext.va_valueid;
	slot->have = true;
	return slot->decoded;
}
