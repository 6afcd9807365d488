/*
 * Microbenchmark of the bloomtype core, no PostgreSQL: ns per add and per
 * lookup (hits and misses separately; misses also one at a time, each
 * waiting for the last, as a query runs them) with XXH3 hashing of 8-byte
 * integer keys included, measured false-positive rate and bits per key, at several
 * capacities and rates.  Each figure is the median of REPS runs, with min
 * and max.  Also writes the data of two plots.
 *
 * Usage: bench_core [max_keys] [reps] [plotdir]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core.h"

static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return x < y ? -1 : (x > y ? 1 : 0);
}

/* keys: a bijective scramble of i, so present and absent keys never meet */
static inline int64_t
key_of(uint64_t i)
{
	return (int64_t) ((i * UINT64_C(0x9E3779B97F4A7C15)) ^ UINT64_C(0x5555555555555555));
}

typedef struct
{
	double		med,
				min,
				max;
} Stat;

static Stat
stat_of(double *v, int n)
{
	Stat		s;

	qsort(v, n, sizeof(double), cmp_double);
	s.min = v[0];
	s.max = v[n - 1];
	s.med = v[n / 2];
	return s;
}

static BloomFilter
make(uint64_t capacity, double fpr, uint8_t **buf)
{
	BloomPlan	plan;
	uint64_t	nb;
	BloomFilter f;
	size_t		len;

	bloom_plan(fpr, &plan);
	bloom_plan_size(&plan, capacity, &nb);
	len = bloom_blocked_size(nb);
	*buf = malloc(len);
	bloom_init_blocked(*buf, nb, plan.k, capacity, fpr, 0);
	bloom_decode(*buf, len, &f);
	return f;
}

int
main(int argc, char **argv)
{
	uint64_t	max_keys = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000000;
	int			reps = argc > 2 ? atoi(argv[2]) : 5;
	const char *plotdir = argc > 3 ? argv[3] : NULL;
	uint64_t	sizes[] = {1000000, 10000000, 100000000};
	double		rates[] = {0.01, 0.001};
	double	   *t_add = malloc(reps * sizeof(double)),
			   *t_hit = malloc(reps * sizeof(double)),
			   *t_miss = malloc(reps * sizeof(double)),
			   *t_lat = malloc(reps * sizeof(double));
	volatile uint64_t sink = 0;

	printf("keys\tfpr\tbits_per_key\tmeasured_fpr\tadd_ns\tadd_min\tadd_max\thit_ns\thit_min\thit_max\tmiss_ns\tmiss_min\tmiss_max\tlat_ns\tlat_min\tlat_max\n");
	for (int si = 0; si < 3; si++)
	{
		uint64_t	n = sizes[si];

		if (n > max_keys)
			break;
		for (int ri = 0; ri < 2; ri++)
		{
			uint8_t    *buf;
			BloomFilter f = make(n, rates[ri], &buf);
			uint64_t	fp = 0,
						probes = n < 10000000 ? n : 10000000;
			Stat		a,
						h,
						m,
						l;

			for (int r = 0; r < reps; r++)
			{
				double		t0;
				uint64_t	hits = 0;

				memset(f.data, 0, f.nblocks * BLOOM_BLOCK_BYTES);
				t0 = now_ns();
				for (uint64_t i = 0; i < n; i++)
					bloom_insert_hash(&f, bloom_hash_int64(0, key_of(i)));
				t_add[r] = (now_ns() - t0) / n;

				t0 = now_ns();
				for (uint64_t i = 0; i < probes; i++)
					hits += bloom_contains_hash(&f, bloom_hash_int64(0, key_of(i)));
				t_hit[r] = (now_ns() - t0) / probes;
				if (hits != probes)
				{
					fprintf(stderr, "false negative!\n");
					return 1;
				}

				t0 = now_ns();
				fp = 0;
				for (uint64_t i = 0; i < probes; i++)
					fp += bloom_contains_hash(&f, bloom_hash_int64(0, key_of(i + n)));
				t_miss[r] = (now_ns() - t0) / probes;
				sink += fp;

				/*
				 * One lookup at a time, each waiting for the one before (the
				 * next key depends on the answer), as a query evaluates rows:
				 * no overlap of cache misses.
				 */
				{
					uint64_t	dep = 0;

					t0 = now_ns();
					for (uint64_t i = 0; i < probes; i++)
						dep = bloom_contains_hash(&f, bloom_hash_int64(0, key_of(i + n + dep)));
					t_lat[r] = (now_ns() - t0) / probes;
					sink += dep;
				}
			}
			a = stat_of(t_add, reps);
			h = stat_of(t_hit, reps);
			m = stat_of(t_miss, reps);
			l = stat_of(t_lat, reps);
			printf("%lu\t%g\t%.2f\t%.5f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\n",
				   (unsigned long) n, rates[ri], (double) f.nblocks * BLOOM_BLOCK_BITS / n,
				   (double) fp / probes, a.med, a.min, a.max, h.med, h.min, h.max,
				   m.med, m.min, m.max, l.med, l.min, l.max);
			fflush(stdout);
			free(buf);
		}
	}

	if (plotdir)
	{
		char		path[512];
		FILE	   *fp1,
				   *fp2;
		uint8_t    *buf;
		uint64_t	cap = 1000000;
		BloomFilter f = make(cap, 0.01, &buf);
		uint64_t	added = 0;

		/* 1. measured and predicted rate as a 1M, 1% filter fills to 2x */
		snprintf(path, sizeof(path), "%s/fill.dat", plotdir);
		fp1 = fopen(path, "w");
		fprintf(fp1, "# fill\tmeasured\tpredicted\tfrom_bits\n");
		for (int step = 1; step <= 40; step++)
		{
			uint64_t	target = cap * step / 20;
			uint64_t	fp = 0,
						probes = 1000000;

			for (; added < target; added++)
				bloom_insert_hash(&f, bloom_hash_int64(0, key_of(added)));
			for (uint64_t i = 0; i < probes; i++)
				fp += bloom_contains_hash(&f, bloom_hash_int64(0, key_of(UINT64_C(1) << 40 | i)));
			fprintf(fp1, "%.2f\t%.6f\t%.6f\t%.6f\n", (double) added / cap, (double) fp / probes,
					bloom_model_fpr((double) added / f.nblocks, f.k), bloom_estimate_fpr(&f, NULL));
		}
		fclose(fp1);
		free(buf);

		/* 2. ns per lookup (miss) against filter size, 1% */
		snprintf(path, sizeof(path), "%s/lookup.dat", plotdir);
		fp2 = fopen(path, "w");
		fprintf(fp2, "# bytes\tmiss_ns\thit_ns\n");
		for (uint64_t n = 10000; n <= max_keys; n *= 2)
		{
			uint64_t	probes = 4000000;
			double		t0,
						miss,
						hit;
			uint64_t	x = 0;

			f = make(n, 0.01, &buf);
			for (uint64_t i = 0; i < n; i++)
				bloom_insert_hash(&f, bloom_hash_int64(0, key_of(i)));
			t0 = now_ns();
			for (uint64_t i = 0; i < probes; i++)
				x += bloom_contains_hash(&f, bloom_hash_int64(0, key_of(n + i)));
			miss = (now_ns() - t0) / probes;
			t0 = now_ns();
			for (uint64_t i = 0; i < probes; i++)
				x += bloom_contains_hash(&f, bloom_hash_int64(0, key_of(i % n)));
			hit = (now_ns() - t0) / probes;
			sink += x;
			fprintf(fp2, "%lu\t%.2f\t%.2f\n", (unsigned long) (f.nblocks * BLOOM_BLOCK_BYTES), miss, hit);
			free(buf);
		}
		fclose(fp2);
	}
	return sink == 42 ? 1 : 0;
}
