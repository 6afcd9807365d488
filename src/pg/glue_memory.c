/*-------------------------------------------------------------------------
 *
 * glue_memory.c
 *		Memory for the core: a value it makes (a grown filter, a union, a
 *		filter made of an aggregate state) is the data of a varlena in a
 *		memory context, so that it is returned to SQL as it is, without a
 *		copy; its work arrays are plain (aligned) palloc chunks.
 *
 *-------------------------------------------------------------------------
 */
#include "bloomtype.h"

#include "utils/memutils.h"

/* A varlena of size data bytes in cxt (values reach 512 MB: huge) */
struct varlena *
bt_new_varlena(size_t size, MemoryContext cxt)
{
	struct varlena *v;

	/* a varlena's length has 30 bits: past MaxAllocSize it would wrap */
	if (size > MaxAllocSize - VARHDRSZ)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("a filter value of %zu bytes is too large", size),
				 errdetail("A value holds at most %zu bytes.",
						   (size_t) (MaxAllocSize - VARHDRSZ)),
				 errhint("Ask for a smaller capacity or a higher false-positive rate.")));
	v = MemoryContextAllocHuge(cxt, VARHDRSZ + size);

	SET_VARSIZE(v, VARHDRSZ + size);
	return v;
}

/*
 * memcpy of n bytes, a run of BT_COPY_RUN bytes at a time with an interrupt
 * check before each: copying a value of up to 512 MB (and the page faults
 * of its new memory) takes most of a second on a busy machine
 */
#define BT_COPY_RUN		((size_t) 8 << 20)

void
bt_copy_bytes(void *dst, const void *src, size_t n)
{
	for (size_t off = 0; off < n; off += BT_COPY_RUN)
	{
		CHECK_FOR_INTERRUPTS();
		memcpy((char *) dst + off, (const char *) src + off, Min(BT_COPY_RUN, n - off));
	}
}

static void *
varlena_alloc(void *arg, size_t size)
{
	return BT_DATA(bt_new_varlena(size, (MemoryContext) arg));
}

static void
varlena_free(void *arg, void *p)
{
	(void) arg;
	pfree(bt_varlena((uint8 *) p));
}

/* Work arrays: MAXALIGNed, unlike a varlena's data */
static void *
scratch_alloc(void *arg, size_t size)
{
	return MemoryContextAllocHuge((MemoryContext) arg, size);
}

static void
scratch_free(void *arg, void *p)
{
	(void) arg;
	pfree(p);
}

/*
 * The core's cancel check: a statement_timeout or a cancel request ends
 * the call here with an ERROR (the core keeps nothing it must release:
 * its memory is the context's)
 */
static void
bt_check_interrupts(void *arg)
{
	(void) arg;
	CHECK_FOR_INTERRUPTS();
}

const BloomCancel bt_cancel = {bt_check_interrupts, NULL};

/*
 * The allocator the core gets.  It never returns NULL: running out of
 * memory is an ERROR, as for palloc.
 */
BloomAlloc
bt_allocator(MemoryContext cxt)
{
	BloomAlloc	a;

	a.alloc = varlena_alloc;
	a.free = varlena_free;
	a.arg = cxt;
	a.scratch = scratch_alloc;
	a.scratch_free = scratch_free;
	a.cancel = &bt_cancel;
	return a;
}
