/*
 * libFuzzer harness: union and intersection of two decoded values.  The
 * input is two values, the first preceded by its 2-byte length.  When both
 * decode and are compatible, the union must contain everything either
 * contains and the intersection nothing that either lacks; both are made
 * by bloom_merge and must decode, with the bits bloom_union_bits and
 * bloom_intersect_bits give.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../malloc_alloc.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	BloomFilter a,
				b,
				u,
				x;
	size_t		la,
				lb;
	uint8_t    *ca,
			   *cb,
			   *cu,
			   *cx;
	BloomAlloc	al = malloc_allocator(NULL);

	if (size < 2 || size > (1 << 20))
		return 0;
	la = ((size_t) data[0] << 8) | data[1];
	if (la > size - 2)
		return 0;
	lb = size - 2 - la;
	ca = malloc(la ? la : 1);
	cb = malloc(lb ? lb : 1);
	memcpy(ca, data + 2, la);
	memcpy(cb, data + 2 + la, lb);
	if (bloom_decode(ca, la, &a) == BLOOM_OK &&
		bloom_decode(cb, lb, &b) == BLOOM_OK &&
		a.kind == BLOOM_KIND_BLOCKED &&
		bloom_compatible(&a, &b) == BLOOM_PARAM_NONE)
	{
		uint64_t	nbytes = a.nblocks * BLOOM_BLOCK_BYTES;
		uint8_t    *bits = malloc(nbytes);

		if (b.nblocks != a.nblocks || la != lb)
			abort();			/* compatible means the same geometry */
		cu = malloc(la);
		cx = malloc(la);
		memcpy(cu, ca, la);
		memcpy(cx, ca, la);
		if (bloom_decode(cu, la, &u) != BLOOM_OK || bloom_decode(cx, la, &x) != BLOOM_OK)
			abort();
		/* in place, the value's header written back */
		if (bloom_merge(&u, &b, false, &al) != BLOOM_OK ||
			bloom_merge(&x, &b, true, &al) != BLOOM_OK ||
			u.base != cu || x.base != cx ||
			bloom_decode(cu, la, &u) != BLOOM_OK || bloom_decode(cx, la, &x) != BLOOM_OK)
			abort();
		memcpy(bits, a.data, nbytes);
		bloom_union_bits(bits, b.data, nbytes, NULL);
		if (memcmp(bits, u.data, nbytes) != 0)
			abort();
		memcpy(bits, a.data, nbytes);
		bloom_intersect_bits(bits, b.data, nbytes, NULL);
		if (memcmp(bits, x.data, nbytes) != 0)
			abort();
		free(bits);
		for (int64_t i = 0; i < 256; i++)
		{
			uint64_t	h = bloom_hash_int64(a.seed, i);
			bool		ia = bloom_contains_hash(&a, h),
						ib = bloom_contains_hash(&b, h);

			if ((ia || ib) && !bloom_contains_hash(&u, h))
				abort();
			if ((!ia || !ib) && bloom_contains_hash(&x, h))
				abort();
		}
		free(cu);
		free(cx);
	}
	free(ca);
	free(cb);
	return 0;
}
