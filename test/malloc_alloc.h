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

#endif							/* BLOOM_TEST_MALLOC_ALLOC_H */
