/*
 * malloc as the core's allocator (BloomAlloc), for the programs that use
 * the core without PostgreSQL: the C unit tests, the fuzz harnesses, the
 * corpus writer and the benchmarks.  arg, when not NULL, points at a long
 * that counts the blocks given and not yet taken back, so that a test can
 * see what the core leaves allocated.
 */
#ifndef BLOOM_TEST_MALLOC_ALLOC_H
#define BLOOM_TEST_MALLOC_ALLOC_H

#include <stdlib.h>
#include <string.h>

#include "core.h"

static inline void *
malloc_alloc_fn(void *arg, size_t size)
{
	void	   *p = malloc(size ? size : 1);

	if (p != NULL && arg != NULL)
		++*(long *) arg;
	return p;
}

static inline void
malloc_free_fn(void *arg, void *p)
{
	if (p != NULL && arg != NULL)
		--*(long *) arg;
	free(p);
}

/*
 * An allocator that counts its live blocks in *live (NULL: not counted);
 * the core's scratch space comes from the same malloc.
 */
static inline BloomAlloc
malloc_allocator(long *live)
{
	BloomAlloc	a = {.alloc = malloc_alloc_fn, .free = malloc_free_fn, .arg = live};

	return a;
}

/*
 * An allocator laid out as the PostgreSQL glue's: a value starts 4 bytes
 * into its block (as a varlena's data does, so it is not aligned for
 * uint64_t), work arrays come from blocks of their own.  Every block is
 * tagged, and freeing a value as scratch or scratch as a value aborts;
 * counts[0] counts live values, counts[1] live scratch blocks.
 */
static inline void *
tagged_value(void *arg, size_t size)
{
	uint8_t    *p = malloc(size + 4);

	memcpy(p, "VAL", 4);
	((long *) arg)[0]++;
	return p + 4;
}

static inline void
tagged_value_free(void *arg, void *p)
{
	uint8_t    *q = (uint8_t *) p - 4;

	if (memcmp(q, "VAL", 4) != 0)
		abort();
	((long *) arg)[0]--;
	free(q);
}

static inline void *
tagged_scratch(void *arg, size_t size)
{
	uint8_t    *p = malloc(size + 8);

	memcpy(p, "SCRATCH", 8);
	((long *) arg)[1]++;
	return p + 8;
}

static inline void
tagged_scratch_free(void *arg, void *p)
{
	uint8_t    *q = (uint8_t *) p - 8;

	if (memcmp(q, "SCRATCH", 8) != 0)
		abort();
	((long *) arg)[1]--;
	free(q);
}

static inline BloomAlloc
tagged_allocator(long counts[2])
{
	BloomAlloc	a = {.alloc = tagged_value, .free = tagged_value_free, .arg = counts,
	.scratch = tagged_scratch, .scratch_free = tagged_scratch_free};

	return a;
}

#endif							/* BLOOM_TEST_MALLOC_ALLOC_H */
