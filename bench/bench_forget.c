/*
 * Benchmark of the filters that forget (issue 12), core only, no
 * PostgreSQL: a blocked Bloom filter (the baseline, it cannot remove),
 * cuckoo filters fixed at bucket sizes 4 and 2, a scalable cuckoo filter
 * started at N/16 and grown by the N adds, and a counting Bloom filter,
 * each at 1%, 0.1% and 0.01%.
 *
 * Keys are 8-byte integers (a bijective scramble of i), hashed with XXH3
 * (bloom_hash_int64, seed 0) before any clock starts: a timed loop runs
 * the one operation it times over an array of hashes and nothing else.
 * Present keys are i in [0, N), absent keys i + 2^40 for i in [0, N).
 *
 * Per structure and rate, a turn: a new filter; N adds (timed); N lookups
 * of the present keys (timed; every one must be found); N lookups of the
 * absent keys (timed; the positives are the measured rate); N/2 removes of
 * every other present key (timed, cuckoo and counting); then, untimed, the
 * other half must still be found, and the rate over the absent keys is
 * measured again.  REPS turns, the structures in an order rotated each
 * turn; a time is the median over the turns, a ratio the median over the
 * turns of the ratio to the Bloom filter's time in the same turn.
 *
 * Usage: bench_forget [N] [reps] [tsv]
 *   table on stdout, the TSV (one row per structure and rate) to tsv or
 *   stdout; exit status 1 on a wrong answer (a false negative, a failed
 *   add of a filter below its capacity), with the reason on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core.h"
#include "../test/malloc_alloc.h"

#define MAX_REPS	31

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

static double
median(const double *v, int n)
{
	double		t[MAX_REPS];

	if (n == 0)
		return -1;
	memcpy(t, v, n * sizeof(double));
	qsort(t, n, sizeof(double), cmp_double);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* keys: a bijective scramble of i, as in bench_core */
static inline int64_t
key_of(uint64_t i)
{
	return (int64_t) ((i * UINT64_C(0x9E3779B97F4A7C15)) ^ UINT64_C(0x5555555555555555));
}

#define ABSENT_BASE	(UINT64_C(1) << 40)

enum
{
	S_BLOOM,
	S_CUCKOO4,
	S_CUCKOO2,
	S_CUCKOO_SCALABLE,
	S_COUNTING,
	NSTRUCT
};

static const char *const names[NSTRUCT] = {
	"bloom (blocked)", "cuckoo b=4", "cuckoo b=2", "cuckoo b=4 scalable", "counting bloom"
};
static const char *const tags[NSTRUCT] = {
	"bloom", "cuckoo_b4", "cuckoo_b2", "cuckoo_b4_scalable", "counting"
};

/* What one turn of one structure gave */
typedef struct
{
	bool		ok;				/* made (the rate is within its range) */
	double		add,
				hit,
				miss,
				rem;			/* ns per operation; rem < 0: none */
	size_t		bytes;
	uint64_t	fp,
				fp_half;		/* positives over the absent keys */
	unsigned	subs,
				fbits,
				fbits_last;		/* of the first and the newest sub-filter */
	uint64_t	stuck;			/* cuckoo removes that kept a copy */
	double		load;
	unsigned	max_counter;
	uint64_t	saturated;
} Turn;

static BloomAlloc alloc;
static volatile uint64_t sink;

static void
fail(const char *what, const char *s, double fpr, uint64_t n, uint64_t i)
{
	fprintf(stderr, "WRONG ANSWER: %s: %s at fpr %g, N %lu, key index %lu\n",
			s, what, fpr, (unsigned long) n, (unsigned long) i);
	fprintf(stderr, "reproduce: bench_forget %lu 1\n", (unsigned long) n);
	exit(1);
}

/* The blocked Bloom filter: no remove */
static Turn
run_bloom(uint64_t n, double fpr, const uint64_t *hp, const uint64_t *ha)
{
	Turn		t = {0};
	BloomFilter f;
	double		t0;
	uint64_t	x = 0;

	if (bloom_new_blocked(n, fpr, 0, NULL, &alloc, &f) != BLOOM_OK)
		return t;
	t.ok = true;
	t.bytes = bloom_blocked_size(f.nblocks);

	t0 = now_ns();
	for (uint64_t i = 0; i < n; i++)
		bloom_insert_hash(&f, hp[i]);
	t.add = (now_ns() - t0) / n;

	t0 = now_ns();
	for (uint64_t i = 0; i < n; i++)
		x += bloom_contains_hash(&f, hp[i]);
	t.hit = (now_ns() - t0) / n;
	if (x != n)
		for (uint64_t i = 0; i < n; i++)
			if (!bloom_contains_hash(&f, hp[i]))
				fail("false negative", "bloom", fpr, n, i);

	x = 0;
	t0 = now_ns();
	for (uint64_t i = 0; i < n; i++)
		x += bloom_contains_hash(&f, ha[i]);
	t.miss = (now_ns() - t0) / n;
	t.fp = t.fp_half = x;
	t.rem = -1;
	t.subs = 1;
	alloc.free(alloc.arg, f.base);
	return t;
}

static Turn
run_cuckoo(uint64_t n, double fpr, unsigned b, bool scalable, const uint64_t *hp,
		   const uint64_t *ha, const char *name)
{
	Turn		t = {0};
	CuckooFilter f;
	CuckooAdded what;
	CuckooInfo info;
	double		t0;
	uint64_t	x = 0,
				bad = UINT64_MAX,
				removed = 0;
	BloomStatus st = BLOOM_OK;

	if (cuckoo_new(scalable ? (n / 16 ? n / 16 : 1) : n, fpr, b, CUCKOO_DEFAULT_KICKS,
				   scalable ? 2 : 0, &alloc, &f) != BLOOM_OK)
		return t;
	t.ok = true;

	t0 = now_ns();
	for (uint64_t i = 0; i < n; i++)
	{
		uint8_t    *old = f.hdr.base;

		st = cuckoo_add(&f, hp[i], false, &alloc, &what);
		if (f.hdr.base != old)
			alloc.free(alloc.arg, old);
		if (st != BLOOM_OK && bad == UINT64_MAX)
			bad = i;
	}
	t.add = (now_ns() - t0) / n;
	if (bad != UINT64_MAX)
	{
		char		msg[128];

		snprintf(msg, sizeof(msg), "cuckoo_add failed (status %d) below capacity, %lu items stored",
				 (int) st, (unsigned long) f.hdr.nitems);
		fail(msg, name, fpr, n, bad);
	}

	t0 = now_ns();
	for (uint64_t i = 0; i < n; i++)
		x += cuckoo_contains(&f, hp[i]);
	t.hit = (now_ns() - t0) / n;
	if (x != n)
		for (uint64_t i = 0; i < n; i++)
			if (!cuckoo_contains(&f, hp[i]))
				fail("false negative", name, fpr, n, i);

	x = 0;
	t0 = now_ns();
	for (uint64_t i = 0; i < n; i++)
		x += cuckoo_contains(&f, ha[i]);
	t.miss = (now_ns() - t0) / n;
	t.fp = x;

	cuckoo_describe(&f, &info);
	t.bytes = cuckoo_value_size(&f);
	t.subs = f.nsubs;
	t.fbits = f.subs[0].fbits;
	t.fbits_last = f.subs[f.nsubs - 1].fbits;
	t.load = info.load_factor;

	/* remove every other key, timed alone */
	t0 = now_ns();
	for (uint64_t i = 0; i < n; i += 2)
		removed += cuckoo_remove(&f, hp[i]) == CUCKOO_REMOVED;
	t.rem = (now_ns() - t0) / ((n + 1) / 2);
	t.stuck = f.stuck;
	sink += removed;

	for (uint64_t i = 1; i < n; i += 2)
		if (!cuckoo_contains(&f, hp[i]))
			fail("false negative after removing the other half", name, fpr, n, i);
	x = 0;
	for (uint64_t i = 0; i < n; i++)
		x += cuckoo_contains(&f, ha[i]);
	t.fp_half = x;
	alloc.free(alloc.arg, f.hdr.base);
	return t;
}

static Turn
run_counting(uint64_t n, double fpr, const uint64_t *hp, const uint64_t *ha)
{
	Turn		t = {0};
	BloomFilter f;
	BloomPlan	plan = {0};
	CountingInfo info;
	double		t0;
	uint64_t	x = 0,
				removed = 0;

	if (counting_new(n, fpr, &plan, &alloc, &f) != BLOOM_OK)
		return t;
	t.ok = true;
	t.bytes = counting_size(f.nblocks);

	t0 = now_ns();
	for (uint64_t i = 0; i < n; i++)
		counting_add(&f, hp[i]);
	t.add = (now_ns() - t0) / n;

	t0 = now_ns();
	for (uint64_t i = 0; i < n; i++)
		x += counting_contains(&f, hp[i]);
	t.hit = (now_ns() - t0) / n;
	if (x != n)
		for (uint64_t i = 0; i < n; i++)
			if (!counting_contains(&f, hp[i]))
				fail("false negative", "counting", fpr, n, i);

	x = 0;
	t0 = now_ns();
	for (uint64_t i = 0; i < n; i++)
		x += counting_contains(&f, ha[i]);
	t.miss = (now_ns() - t0) / n;
	t.fp = x;

	counting_describe(&f, &info, NULL);
	t.max_counter = info.max_counter;
	t.saturated = info.saturated;
	t.subs = 1;

	t0 = now_ns();
	for (uint64_t i = 0; i < n; i += 2)
		removed += counting_remove(&f, hp[i]);
	t.rem = (now_ns() - t0) / ((n + 1) / 2);
	if (removed != (n + 1) / 2)
		fail("counting_remove said absent for an added key", "counting", fpr, n, 0);

	for (uint64_t i = 1; i < n; i += 2)
		if (!counting_contains(&f, hp[i]))
			fail("false negative after removing the other half", "counting", fpr, n, i);
	x = 0;
	for (uint64_t i = 0; i < n; i++)
		x += counting_contains(&f, ha[i]);
	t.fp_half = x;
	alloc.free(alloc.arg, f.base);
	return t;
}

static Turn
run_one(int s, uint64_t n, double fpr, const uint64_t *hp, const uint64_t *ha)
{
	switch (s)
	{
		case S_BLOOM:
			return run_bloom(n, fpr, hp, ha);
		case S_CUCKOO4:
			return run_cuckoo(n, fpr, 4, false, hp, ha, names[s]);
		case S_CUCKOO2:
			return run_cuckoo(n, fpr, 2, false, hp, ha, names[s]);
		case S_CUCKOO_SCALABLE:
			return run_cuckoo(n, fpr, 4, true, hp, ha, names[s]);
		default:
			return run_counting(n, fpr, hp, ha);
	}
}

/*
 * A counting filter filled past its capacity, 1x, 2x and 4x (untimed):
 * counters that reach 15 stay there.
 */
static void
counting_overfill(FILE *tsv, uint64_t n, double fpr, const uint64_t *ha)
{
	BloomFilter f;
	BloomPlan	plan = {0};
	uint64_t	added = 0;

	if (counting_new(n, fpr, &plan, &alloc, &f) != BLOOM_OK)
		return;
	for (int fill = 1; fill <= 4; fill *= 2)
	{
		CountingInfo info;
		uint64_t	x = 0;

		for (; added < fill * n; added++)
			counting_add(&f, bloom_hash_int64(0, key_of(added)));
		for (uint64_t i = 0; i < n; i++)
			x += counting_contains(&f, ha[i]);
		counting_describe(&f, &info, NULL);
		printf("  counting at %gx fill: max counter %u, saturated %lu of %lu, measured fpr %.6f\n",
			   (double) fill, info.max_counter, (unsigned long) info.saturated,
			   (unsigned long) info.counters, (double) x / n);
		fprintf(tsv, "#overfill\t%lu\t%g\t%d\t%u\t%lu\t%lu\t%.7f\n", (unsigned long) n, fpr,
				fill, info.max_counter, (unsigned long) info.saturated,
				(unsigned long) info.counters, (double) x / n);
	}
	alloc.free(alloc.arg, f.base);
}

int
main(int argc, char **argv)
{
	uint64_t	n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
	int			reps = argc > 2 ? atoi(argv[2]) : 5;
	FILE	   *tsv = argc > 3 ? fopen(argv[3], "w") : stdout;
	double		rates[] = {0.01, 0.001, 0.0001};
	uint64_t   *hp,
			   *ha;
	double		t0,
				hash_ns;

	if (n < 16 || reps < 1 || reps > MAX_REPS || tsv == NULL)
	{
		fprintf(stderr, "usage: bench_forget [N >= 16] [reps 1..%d] [tsv]\n", MAX_REPS);
		return 2;
	}
	alloc = malloc_allocator(NULL);
	hp = malloc(n * sizeof(uint64_t));
	ha = malloc(n * sizeof(uint64_t));
	t0 = now_ns();
	for (uint64_t i = 0; i < n; i++)
		hp[i] = bloom_hash_int64(0, key_of(i));
	hash_ns = (now_ns() - t0) / n;
	for (uint64_t i = 0; i < n; i++)
		ha[i] = bloom_hash_int64(0, key_of(ABSENT_BASE + i));

	printf("bench_forget: N = %lu keys, %d turns; XXH3 of a key %.1f ns (not in the times below)\n",
		   (unsigned long) n, reps, hash_ns);
	fprintf(tsv, "n\tfpr\tstructure\tbytes\tbits_per_key\tadd_ns\thit_ns\tmiss_ns\tremove_ns\t"
			"measured_fpr\tfpr_after_half_removed\tsubfilters\tfbits\tload\tstuck\t"
			"max_counter\tsaturated\tbits_x\tadd_x\thit_x\tmiss_x\tremove_x_bloom_add\n");

	for (int ri = 0; ri < 3; ri++)
	{
		double		fpr = rates[ri];
		Turn		last[NSTRUCT];
		double		tm[NSTRUCT][4][MAX_REPS],
					ra[NSTRUCT][4][MAX_REPS];

		memset(last, 0, sizeof(last));
		for (int r = 0; r < reps; r++)
		{
			Turn		turn[NSTRUCT];

			for (int j = 0; j < NSTRUCT; j++)
			{
				int			s = (j + r) % NSTRUCT;

				turn[s] = run_one(s, n, fpr, hp, ha);
			}
			for (int s = 0; s < NSTRUCT; s++)
			{
				double		v[4] = {turn[s].add, turn[s].hit, turn[s].miss, turn[s].rem};
				double		base[4] = {turn[0].add, turn[0].hit, turn[0].miss, turn[0].add};

				for (int m = 0; m < 4; m++)
				{
					tm[s][m][r] = v[m];
					ra[s][m][r] = v[m] / base[m];
				}
				last[s] = turn[s];
			}
		}

		printf("\nfpr %g, N %lu (times: median of %d turns, ns per operation; (x): median ratio to the bloom filter's in the same turn)\n",
			   fpr, (unsigned long) n, reps);
		printf("%-20s %11s %9s %15s %15s %15s %19s %10s %10s %5s %6s %6s %7s %5s\n",
			   "structure", "bytes", "bits/key", "add", "lookup present", "lookup absent",
			   "remove (x bl.add)", "meas.fpr", "fpr/2rem", "subs", "fbits", "load", "maxctr", "satur");
		for (int s = 0; s < NSTRUCT; s++)
		{
			Turn	   *t = &last[s];
			double		med[4],
						rat[4];
			char		cell[4][40];
			double		bits;

			if (!t->ok)
			{
				printf("%-20s  (not made: fpr %g out of its range)\n", names[s], fpr);
				continue;
			}
			for (int m = 0; m < 4; m++)
			{
				med[m] = median(tm[s][m], reps);
				rat[m] = median(ra[s][m], reps);
				if (med[m] < 0)
					snprintf(cell[m], sizeof(cell[m]), "-");
				else
					snprintf(cell[m], sizeof(cell[m]), "%.1f (%.2fx)", med[m], rat[m]);
			}
			bits = t->bytes * 8.0 / n;
			{
				char		fb[16] = "-",
							mc[16] = "-",
							sat[24] = "-",
							rem_ns[24] = "-",
							rem_x[24] = "-",
							load[16] = "-";

				if (s != S_BLOOM && s != S_COUNTING)
				{
				{
					if (t->fbits_last != t->fbits)
						snprintf(fb, sizeof(fb), "%u-%u", t->fbits, t->fbits_last);
					else
						snprintf(fb, sizeof(fb), "%u", t->fbits);
				}
					snprintf(load, sizeof(load), "%.3f", t->load);
				}
				if (s == S_COUNTING)
				{
					snprintf(mc, sizeof(mc), "%u", t->max_counter);
					snprintf(sat, sizeof(sat), "%lu", (unsigned long) t->saturated);
				}
				if (med[3] >= 0)
				{
					snprintf(rem_ns, sizeof(rem_ns), "%.2f", med[3]);
					snprintf(rem_x, sizeof(rem_x), "%.3f", rat[3]);
				}
				printf("%-20s %11lu %9.2f %15s %15s %15s %19s %10.6f %10.6f %5u %6s %6s %7s %5s\n",
					   names[s], (unsigned long) t->bytes, bits, cell[0], cell[1], cell[2], cell[3],
					   (double) t->fp / n, (double) t->fp_half / n, t->subs, fb, load, mc, sat);
				fprintf(tsv, "%lu\t%g\t%s\t%lu\t%.3f\t%.2f\t%.2f\t%.2f\t%s\t%.7f\t%.7f\t%u\t%s\t%s\t%lu\t%s\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%s\n",
						(unsigned long) n, fpr, tags[s], (unsigned long) t->bytes, bits,
						med[0], med[1], med[2], rem_ns,
						(double) t->fp / n, (double) t->fp_half / n, t->subs, fb, load,
						(unsigned long) t->stuck, mc, sat,
						bits / (last[0].bytes * 8.0 / n), rat[0], rat[1], rat[2], rem_x);
			}
		}
		counting_overfill(tsv, n, fpr, ha);
		fflush(stdout);
		fflush(tsv);
	}
	return sink == 42 ? 1 : 0;
}
