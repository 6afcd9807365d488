/*
 * libFuzzer harness: union and intersection of two decoded values.  The
 * input is two values, the first preceded by its 2-byte length.  When both
 * decode and are compatible, the union must contain everything either
 * contains and the intersection nothing that either lacks.
 */
#include <stdlib.h>
#include <string.h>

#include "bloom_core.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	BloomFilter a,
				b,
				u,
				x;
	const char *what;
	size_t		la,
				lb;
	uint8_t    *ca,
			   *cb,
			   *cu,
			   *cx;

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
		bloom_compatible(&a, &b, &what) == BLOOM_OK)
	{
		uint64_t	nbytes = a.nslots * BLOOM_BLOCK_BYTES;

		if (b.nslots != a.nslots || la != lb)
			abort();			/* compatible means the same geometry */
		cu = malloc(la);
		cx = malloc(la);
		memcpy(cu, ca, la);
		memcpy(cx, ca, la);
		if (bloom_decode(cu, la, &u) != BLOOM_OK || bloom_decode(cx, la, &x) != BLOOM_OK)
			abort();
		bloom_union_bits(u.data, b.data, nbytes);
		bloom_intersect_bits(x.data, b.data, nbytes);
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
