/*
 * The cost of tightening schedules for scalable filters (docs/SCALABLE.md),
 * from the sizing plans of the core: for a first layer of 100,000 keys,
 * the blocks of the first layer against a fixed filter of that capacity,
 * and of a filter grown (expansion 2) to hold 10,000,000 keys against a
 * fixed filter sized for them.  Schedules: RedisBloom's halving and power
 * laws (i+1)^-s normalised over 32 layers (bloomtype's: s = 1.5).  Then
 * the growth limits of bloomtype's schedule.
 * Usage: bash bench/schedule.sh
 */
#include <math.h>
#include <stdio.h>

#include "core.h"

static double
norm(double s)
{
	double		h = 0;

	for (int j = 1; j <= BLOOM_MAX_LAYERS; j++)
		h += pow(j, -s);
	return h;
}

/* s = 0: halving; else a power law */
static double
layer_rate(double target, int i, double s)
{
	return s == 0 ? target * pow(0.5, i + 1) : target * pow(i + 1, -s) / norm(s);
}

static double
blocks(double rate, uint64_t capacity)
{
	BloomPlan	plan;
	uint64_t	nb;

	if (bloom_plan(rate, &plan) != BLOOM_OK || bloom_plan_size(&plan, capacity, &nb) != BLOOM_OK)
		return NAN;
	return (double) nb;
}

static void
row(const char *name, double target, double s)
{
	const uint64_t first = 100000,
				grown = 100 * first;
	double		total = 0;
	uint64_t	cap = first,
				sum = 0;

	for (int i = 0; sum < grown; i++, cap *= 2)
	{
		total += blocks(layer_rate(target, i, s), cap);
		sum += cap;
	}
	printf("| %s | %g | %.3fx | %.2fx | %.2g |\n", name, target,
		   blocks(layer_rate(target, 0, s), first) / blocks(target, first),
		   total / blocks(target, grown), layer_rate(target, BLOOM_MAX_LAYERS - 1, s));
}

int
main(void)
{
	const double rates[] = {0.5, 0.25, 0.1, 0.05, 0.02, 0.01, 0.001, 1e-4, 1e-6, 1e-9};
	uint64_t	cap = 1000,
				sum = 0,
				total = 0;
	int			layers;

	printf("| schedule | rate | first layer vs a fixed filter | grown 100x vs a filter sized for the keys | rate of the 32nd layer |\n");
	printf("|---|---|---|---|---|\n");
	for (int r = 0; r < 10; r++)
	{
		row("halving (RedisBloom)", rates[r], 0);
		row("(i+1)^-2", rates[r], 2.0);
		row("(i+1)^-1.5 (bloomtype)", rates[r], 1.5);
		row("(i+1)^-1.2", rates[r], 1.2);
	}
	/* the schedule the core uses must be the s = 1.5 one above */
	if (fabs(bloom_layer_fpr(0.01, 3) - layer_rate(0.01, 3, 1.5)) > 1e-15)
		return 1;

	/* create-on-add: 1,000 keys, 1%, expansion 2, until 512 MB */
	for (layers = 0; layers < BLOOM_MAX_LAYERS; layers++, cap *= 2)
	{
		BloomPlan	plan;
		uint64_t	nb;

		if (bloom_plan(bloom_layer_fpr(0.01, layers), &plan) != BLOOM_OK ||
			bloom_plan_size(&plan, cap, &nb) != BLOOM_OK ||
			bloom_scalable_size(layers + 1, total + nb) > BLOOM_MAX_BYTES)
			break;
		total += nb;
		sum += cap;
	}
	printf("\ncreate-on-add (1,000 keys, 1%%, expansion 2) grows to %d layers, %llu keys, %.0f MB\n",
		   layers, (unsigned long long) sum, bloom_scalable_size(layers, total) / 1048576.0);
	for (uint64_t c = 1000000; c < 400000000; c += 1000000)
	{
		BloomPlan	p0,
					p1;
		uint64_t	a,
					b;

		bloom_plan(bloom_layer_fpr(0.01, 0), &p0);
		bloom_plan(bloom_layer_fpr(0.01, 1), &p1);
		bloom_plan_size(&p0, c, &a);
		if (bloom_plan_size(&p1, 2 * c, &b) != BLOOM_OK ||
			bloom_scalable_size(2, a + b) > BLOOM_MAX_BYTES)
		{
			printf("at 1%%, a first layer of %llu keys or more cannot add a second layer\n",
				   (unsigned long long) c);
			break;
		}
	}
	return 0;
}
