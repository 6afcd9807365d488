/*-------------------------------------------------------------------------
 *
 * sizing.c
 *		Sizing of blocked filters from the layout's own false-positive
 *		model, and the schedule of rates of the layers of a growing filter
 *		(at the end).
 *
 * The number of keys that land in a block is Poisson distributed with
 * mean lambda = n / blocks, and a block holding j keys answers a random
 * probe falsely with probability (1 - (1 - 1/B)^(k j))^k, B = 512.  The
 * expected rate is the Poisson mixture of these (Putze, Sanders, Singler,
 * WEA 2007, section 3).  For a requested rate we find, for each k, the
 * largest lambda whose mixture stays at or under the rate, and keep the k
 * that allows the largest lambda.  The results are part of the value
 * contract (filters combine only when planned alike): the unit tests pin
 * them.
 *
 *-------------------------------------------------------------------------
 */
#include "sizing.h"

#include <math.h>

/*
 * Rates are planned with a small margin under the requested rate, so that
 * a filter filled to exactly its capacity measures at or under the target
 * despite the granularity of whole blocks and hash imperfection.
 */
#define BLOOM_PLAN_MARGIN	0.99

/* lambda is rounded down to this grid so that sizing is reproducible */
#define BLOOM_LAMBDA_GRID	4096.0


/*
 * Expected false-positive rate of a blocked filter whose blocks hold on
 * average keys_per_block keys, k bits per key.  A block that holds j keys
 * has each bit set with probability s_j = 1 - (1 - 1/B)^(k j).  A probe
 * tests k positions drawn with replacement, so it tests D <= k distinct
 * bits and answers "maybe" with probability s_j^D; the distribution of D is
 * that of the occupied cells when k balls go into B bins.  Leaving the
 * repeats out (s_j^k) underestimates the rate by 2% to 5% at k = 7 to 9.
 */
double
bloom_model_fpr(double keys_per_block, int k)
{
	const double B = BLOOM_BLOCK_BITS;
	double		lambda = keys_per_block;
	double		q = pow(1.0 - 1.0 / B, k);	/* a bit stays clear after one key */
	double		pd[BLOOM_MAX_HASHES + 1] = {1.0};	/* P(D = d) */
	double		pmf = exp(-lambda);
	double		clear = 1.0;	/* q^j */
	double		total = 0.0;
	double		mass = 0.0;
	int			jmax = (int) (lambda + 10.0 * sqrt(lambda) + 20.0);

	if (k < 1 || k > BLOOM_MAX_HASHES)
		return 1.0;
	for (int i = 0; i < k; i++)
	{
		for (int d = i + 1; d >= 1; d--)
			pd[d] = pd[d] * d / B + pd[d - 1] * (B - d + 1) / B;
		pd[0] = 0.0;
	}

	for (int j = 0; j <= jmax; j++)
	{
		double		s,
					p = 0.0,
					sd = 1.0;

		if (j > 0)
		{
			pmf *= lambda / j;
			clear *= q;
		}
		s = 1.0 - clear;
		for (int d = 1; d <= k; d++)
		{
			sd *= s;
			p += pd[d] * sd;
		}
		total += pmf * p;
		mass += pmf;
	}
	/* the tail beyond jmax answers "maybe" for sure: count it as such */
	if (mass < 1.0)
		total += 1.0 - mass;
	return total;
}

/*
 * The largest lambda (keys per block) whose model rate for k hashes stays at
 * or under target.  The model rises steeply from 0 at lambda = 0 to nearly
 * 1 at lambda = B, about as a power of lambda, so log(rate) is nearly a
 * straight line in log(lambda); its crossing of log(target) is found with
 * the Illinois variant of regula falsi, which keeps a bracket and
 * converges in a handful of steps.
 */
static double
largest_lambda(int k, double target)
{
	double		lo = log(1e-6),
				hi = log((double) BLOOM_BLOCK_BITS);
	double		glo = log(bloom_model_fpr(exp(lo), k)) - log(target);
	double		ghi = log(bloom_model_fpr(exp(hi), k)) - log(target);
	int			side = 0;

	if (glo > 0)
		return 0.0;				/* not even a millionth of a key per block */
	if (ghi <= 0)
		return exp(hi);
	for (int it = 0; it < 100 && hi - lo > 1e-9; it++)
	{
		double		mid = (lo * ghi - hi * glo) / (ghi - glo);
		double		g;

		if (!(mid > lo && mid < hi))
			mid = (lo + hi) / 2;
		g = log(bloom_model_fpr(exp(mid), k)) - log(target);
		if (g <= 0)
		{
			lo = mid;
			glo = g;
			if (side == -1)
				ghi /= 2;
			side = -1;
		}
		else
		{
			hi = mid;
			ghi = g;
			if (side == 1)
				glo /= 2;
			side = 1;
		}
		if (fabs(g) < 1e-12)
			break;
	}
	return exp(lo);
}

BloomStatus
bloom_plan(double fpr, BloomPlan *plan)
{
	double		target;
	double		best_lambda = 0.0;
	int			best_k = 0;
	int			kmin,
				kmax;

	if (!bloom_fpr_valid(fpr))
		return BLOOM_E_PARAMS;
	target = fpr * BLOOM_PLAN_MARGIN;

	/*
	 * The best k for a blocked filter lies between 0.6 and 1.0 times the
	 * classic log2(1/p).  The largest lambda for each k rises to a peak at
	 * the best k and falls after it: stop two steps past the peak.
	 */
	kmin = (int) floor(0.6 * log2(1.0 / target)) - 1;
	if (kmin < 1)
		kmin = 1;
	kmax = (int) ceil(1.2 * log2(1.0 / target)) + 2;
	if (kmax > BLOOM_MAX_HASHES)
		kmax = BLOOM_MAX_HASHES;

	for (int k = kmin; k <= kmax; k++)
	{
		double		lambda = largest_lambda(k, target);

		if (lambda > best_lambda)
		{
			best_lambda = lambda;
			best_k = k;
		}
		else if (best_k > 0 && k >= best_k + 2)
			break;
	}
	best_lambda = floor(best_lambda * BLOOM_LAMBDA_GRID) / BLOOM_LAMBDA_GRID;
	if (best_k == 0 || best_lambda <= 0.0)
		return BLOOM_E_PARAMS;
	plan->fpr = fpr;
	plan->k = best_k;
	plan->keys_per_block = best_lambda;
	return BLOOM_OK;
}

/* Plans for fpr, reusing *plan when it was planned for the same rate */
BloomStatus
bloom_plan_reuse(double fpr, BloomPlan *plan)
{
	if (plan->k > 0 && plan->fpr == fpr)
		return BLOOM_OK;
	return bloom_plan(fpr, plan);
}

/*
 * The blocks capacity keys planned as plan need, at most maxblocks
 * (BLOOM_E_CAPACITY past them): a value's limit for bloom_plan_size, the
 * index's own for its layers, which live on pages and not in one value.
 */
BloomStatus
bloom_plan_size_in(const BloomPlan *plan, uint64_t capacity, uint64_t maxblocks,
				   uint64_t *nblocks)
{
	double		blocks;

	if (capacity == 0)
		return BLOOM_E_PARAMS;
	blocks = ceil((double) capacity / plan->keys_per_block);
	if (blocks < 1.0)
		blocks = 1.0;
	if (blocks > (double) maxblocks)
		return BLOOM_E_CAPACITY;
	*nblocks = (uint64_t) blocks;
	return BLOOM_OK;
}

BloomStatus
bloom_plan_size(const BloomPlan *plan, uint64_t capacity, uint64_t *nblocks)
{
	return bloom_plan_size_in(plan, capacity, BLOOM_MAX_BLOCKS, nblocks);
}

/* The most keys maxblocks blocks planned as plan hold */
uint64_t
bloom_plan_max_capacity_in(const BloomPlan *plan, uint64_t maxblocks)
{
	uint64_t	cap = (uint64_t) floor((double) maxblocks * plan->keys_per_block);
	uint64_t	nb;

	while (cap > 0 && bloom_plan_size_in(plan, cap, maxblocks, &nb) != BLOOM_OK)
		cap--;
	return cap;
}

/* The most keys the largest filter planned as plan holds */
uint64_t
bloom_plan_max_capacity(const BloomPlan *plan)
{
	return bloom_plan_max_capacity_in(plan, BLOOM_MAX_BLOCKS);
}

/*
 * The schedule of rates.
 *
 * Almeida et al. 2007 grow a filter by layers of geometrically growing
 * capacity with rates tightened by a geometric ratio r, p_i = p_0 r^i, so
 * that the sum of the layers' rates, an upper bound of the filter's rate,
 * stays under the target.  RedisBloom uses r = 1/2, which builds the first
 * layer at half the target rate.  We tighten by a power instead:
 *
 *		p_i = P (i + 1)^-1.5 / H,	H = sum of j^-1.5 for j = 1..32,
 *
 * so that the sum over all 32 layers a filter may have is exactly P.  The
 * first layer gets P / 2.26 (RedisBloom's: P / 2), but later layers are
 * tightened far less than by halving (layer 6: P / 40 instead of P / 128),
 * and large layers dominate the bits of a grown filter.  At 1% the first
 * layer costs 1.20x a fixed filter's bits (halving: 1.16x), and a filter
 * grown 100x with expansion 2 costs 2.42x the bits of a filter sized for
 * its keys (halving: 2.69x).  docs/SCALABLE.md has the comparison.
 */

static double
schedule_norm(void)
{
	double		h = 0.0;

	/* in this order, with sqrt only: the same on every IEEE 754 platform */
	for (int j = BLOOM_MAX_LAYERS; j >= 1; j--)
		h += 1.0 / ((double) j * sqrt((double) j));
	return h;
}

double
bloom_layer_fpr(double target, int layer)
{
	double		j = (double) (layer + 1);

	return target / (j * sqrt(j)) / schedule_norm();
}
