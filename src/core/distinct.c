/*-------------------------------------------------------------------------
 *
 * distinct.c
 *		Distinct hashes among an auto-sized aggregate's hash list (of any
 *		family): sorted and counted exactly, or estimated, so that the
 *		filter is sized for them (bloom_hashlist_distinct, at the end).
 *
 *-------------------------------------------------------------------------
 */
#include "hashlist.h"

#include <math.h>
#include <stddef.h>

/* above BLOOM_EXACT_COUNT_MAX, size for an estimate (0.41% error) times this */
#define BLOOM_ESTIMATE_MARGIN	1.03

/*
 * Distinct values among n 64-bit hashes (little-endian, at hashes_le),
 * estimated.  Linear counting (Whang, Vander-Zanden, Taylor 1990) over a
 * bitmap of 8 bits per hash, whose standard error is under 0.3 / sqrt(n),
 * while the bitmap stays small (up to 2^22 hashes, 4 MB); above that
 * HyperLogLog (Flajolet, Fusy, Gandouet, Meunier 2007) with 2^16 one-byte
 * registers, standard error 1.04 / 256 = 0.41%, where n is far above the
 * 5 * 2^16 from which the raw estimate needs no bias correction.
 * scratch holds bloom_estimate_scratch(n) bytes.
 */
#define LC_MAX_HASHES	(UINT64_C(1) << 22)

size_t
bloom_estimate_scratch(uint64_t n)
{
	return n <= LC_MAX_HASHES ? (size_t) (n > 8 ? n : 8) : 65536;
}

double
bloom_estimate_distinct(const uint8_t *hashes_le, uint64_t n, uint8_t *scratch,
						const BloomCancel *c)
{
	if (n <= LC_MAX_HASHES)
	{
		uint64_t	mbits = 8 * (n > 8 ? n : 8);
		uint64_t	set = 0;

		memset(scratch, 0, mbits / 8);
		for (uint64_t start = 0; start < n; start += BLOOM_CANCEL_EVERY)
		{
			uint64_t	end = n - start < BLOOM_CANCEL_EVERY ? n : start + BLOOM_CANCEL_EVERY;

			bloom_cancel_check(c);
			for (uint64_t i = start; i < end; i++)
			{
				uint64_t	bit = bloom_mulhi64(bloom_get_le64(hashes_le + 8 * i), mbits);

				scratch[bit >> 3] |= (uint8_t) (1u << (bit & 7));
			}
		}
		{
			uint64_t	nbytes = mbits / 8,
						i = 0;

			/* eight bytes a step, then the rest */
			for (; i + 8 <= nbytes; i += 8)
			{
				uint64_t	w;

				memcpy(&w, scratch + i, 8);
				set += (uint64_t) __builtin_popcountll(w);
			}
			for (; i < nbytes; i++)
				set += (uint64_t) __builtin_popcount(scratch[i]);
		}
		if (set >= mbits)
			return (double) n;
		return -(double) mbits * log1p(-(double) set / mbits);
	}
	else
	{
		const double m = 65536.0;
		double		sum = 0.0;
		uint64_t	zeros = 0;
		double		raw;

		memset(scratch, 0, 65536);
		for (uint64_t start = 0; start < n; start += BLOOM_CANCEL_EVERY)
		{
			uint64_t	end = n - start < BLOOM_CANCEL_EVERY ? n : start + BLOOM_CANCEL_EVERY;

			bloom_cancel_check(c);
			for (uint64_t i = start; i < end; i++)
			{
				uint64_t	h = bloom_get_le64(hashes_le + 8 * i);
				unsigned	idx = (unsigned) (h >> 48);
				uint64_t	rest = (h << 16) | (UINT64_C(1) << 15);
				uint8_t		rank = (uint8_t) (__builtin_clzll(rest) + 1);

				if (rank > scratch[idx])
					scratch[idx] = rank;
			}
		}
		for (unsigned i = 0; i < 65536; i++)
		{
			sum += ldexp(1.0, -scratch[i]);
			zeros += scratch[i] == 0;
		}
		raw = (0.7213 / (1.0 + 1.079 / m)) * m * m / sum;
		/* few distinct values: linear counting on the empty registers */
		if (raw <= 2.5 * m && zeros > 0)
			return m * log(m / (double) zeros);
		return raw;
	}
}

/*
 * Distinct values among n hashes (little-endian), counted exactly with an
 * open-addressing set of tsize slots (a power of two); returns UINT64_MAX
 * if there are more than tsize / 2, or if a probe runs longer than it
 * would for hash values (hashes from outside may be crafted to collide:
 * the bound keeps the work linear).  Cheap when the set stays in cache.
 */
#define COUNT_MAX_PROBE		64

uint64_t
bloom_count_distinct(const uint8_t *hashes_le, uint64_t n, uint64_t *table,
					 uint64_t tsize, const BloomCancel *c)
{
	uint64_t	count = 0;
	bool		zero = false;	/* 0 marks an empty slot: count it apart */

	memset(table, 0, tsize * sizeof(uint64_t));
	for (uint64_t i = 0; i < n; i++)
	{
		uint64_t	h = bloom_get_le64(hashes_le + 8 * i);
		uint64_t	slot;

		bloom_cancel_point(c, i);
		if (h == 0)
		{
			count += !zero;
			zero = true;
			continue;
		}
		{
			int			steps = 0;

			for (slot = h & (tsize - 1); table[slot] != 0 && table[slot] != h;
				 slot = (slot + 1) & (tsize - 1))
				if (++steps > COUNT_MAX_PROBE)
					return UINT64_MAX;
		}
		if (table[slot] == 0)
		{
			table[slot] = h;
			if (++count > tsize / 2)
				return UINT64_MAX;
		}
	}
	return count;
}

/* Removes repeats from a sorted array; returns the new length. */
size_t
bloom_unique_u64(uint64_t *a, size_t n)
{
	size_t		out = 0;

	for (size_t i = 0; i < n; i++)
		if (out == 0 || a[i] != a[out - 1])
			a[out++] = a[i];
	return out;
}

/*
 * Sorts n hashes in place, cancellably: introsort (Musser, "Introspective
 * Sorting and Selection Algorithms", 1997): quicksort with the median of
 * three and Hoare's partition, the smaller side first so that the stack
 * stays O(log n); insertion sort under 16 hashes; heapsort past a depth of
 * 2 log2 n, so that hashes from outside crafted against the pivot rule
 * still cost O(n log n).  c is checked before each partition of 64K hashes
 * or more, and every 64K steps of a heapsort (qsort, which it replaces,
 * could not be stopped, and glibc's takes a copy of the array).
 */
static void
insertion_sort(uint64_t *a, size_t n)
{
	for (size_t i = 1; i < n; i++)
	{
		uint64_t	v = a[i];
		size_t		j = i;

		for (; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

static void
sift_down(uint64_t *a, size_t root, size_t n)
{
	uint64_t	v = a[root];

	for (;;)
	{
		size_t		child = 2 * root + 1;

		if (child >= n)
			break;
		if (child + 1 < n && a[child + 1] > a[child])
			child++;
		if (a[child] <= v)
			break;
		a[root] = a[child];
		root = child;
	}
	a[root] = v;
}

static void
heap_sort(uint64_t *a, size_t n, const BloomCancel *c)
{
	for (size_t i = n / 2; i-- > 0;)
	{
		bloom_cancel_point(c, i);
		sift_down(a, i, n);
	}
	for (size_t end = n; end-- > 1;)
	{
		uint64_t	t = a[0];

		bloom_cancel_point(c, end);
		a[0] = a[end];
		a[end] = t;
		sift_down(a, 0, end);
	}
}

static void
intro_sort(uint64_t *a, size_t n, int depth, const BloomCancel *c)
{
	while (n > 16)
	{
		uint64_t	x = a[0],
					y = a[n / 2],
					z = a[n - 1];
		uint64_t	p;
		ptrdiff_t	i = -1,
					j = (ptrdiff_t) n;
		size_t		left;

		if (n >= BLOOM_CANCEL_EVERY)
			bloom_cancel_check(c);
		if (depth-- == 0)
		{
			heap_sort(a, n, c);
			return;
		}
		/* the median of three: a[0] and a[n / 2] are not both below it */
		p = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
		for (;;)
		{
			uint64_t	t;

			do
				i++;
			while (a[i] < p);
			do
				j--;
			while (a[j] > p);
			if (i >= j)
				break;
			t = a[i];
			a[i] = a[j];
			a[j] = t;
		}
		/* a[0..j] <= p <= a[j+1..n-1], both sides non-empty */
		left = (size_t) j + 1;
		if (left < n - left)
		{
			intro_sort(a, left, depth, c);
			a += left;
			n -= left;
		}
		else
		{
			intro_sort(a + left, n - left, depth, c);
			n = left;
		}
	}
	insertion_sort(a, n);
}

void
bloom_sort_u64(uint64_t *a, size_t n, const BloomCancel *c)
{
	int			depth = 0;

	for (size_t m = n; m > 1; m >>= 1)
		depth += 2;
	intro_sort(a, n, depth, c);
}

/*
 * Distinct hashes of a hash list: counted exactly when few; else
 * estimated, sized for the estimate plus seven standard errors or more,
 * never more than the hashes there are (sorting millions of hashes costs
 * more than building the filter).  *sorted, when not NULL, holds the
 * distinct hashes in order (scratch from a, the caller's to free).
 */
BloomStatus
bloom_hashlist_distinct(const BloomFilter *st, const BloomAlloc *a, uint64_t **sorted,
						uint64_t *distinct)
{
	uint64_t	n = st->nhashes;
	uint8_t    *scratch;
	uint64_t   *table;
	double		est;

	*sorted = NULL;
	if (n <= BLOOM_EXACT_COUNT_MAX)
	{
		uint64_t   *h = bloom_alloc_scratch(a, (n > 0 ? n : 1) * sizeof(uint64_t));

		if (h == NULL)
			return BLOOM_E_NOMEM;
		for (uint64_t i = 0; i < n; i++)
			h[i] = bloom_hashlist_get(st, i);
		bloom_sort_u64(h, n, bloom_alloc_cancel(a));
		*distinct = bloom_unique_u64(h, n);
		*sorted = h;
		return BLOOM_OK;
	}
	if ((scratch = bloom_alloc_scratch(a, bloom_estimate_scratch(n))) == NULL)
		return BLOOM_E_NOMEM;
	est = bloom_estimate_distinct(st->data, n, scratch, bloom_alloc_cancel(a));
	bloom_free_scratch(a, scratch);
	est = ceil(est * BLOOM_ESTIMATE_MARGIN);
	*distinct = (uint64_t) ((double) n < est ? (double) n : est);
	if (*distinct <= BLOOM_EXACT_COUNT_MAX)
	{
		/* few distinct among many: a set in cache counts them exactly */
		uint64_t	exact;

		if ((table = bloom_alloc_scratch(a, 4 * BLOOM_EXACT_COUNT_MAX * sizeof(uint64_t))) == NULL)
			return BLOOM_E_NOMEM;
		exact = bloom_count_distinct(st->data, n, table, 4 * BLOOM_EXACT_COUNT_MAX,
									 bloom_alloc_cancel(a));
		bloom_free_scratch(a, table);
		/* a failed count disproves the estimate: take the bound */
		*distinct = exact != UINT64_MAX ? exact : n;
	}
	return BLOOM_OK;
}
