/*-------------------------------------------------------------------------
 *
 * sizing.h
 *		Sizing of blocked filters from the layout's own false-positive
 *		model (a plan: hashes per key and keys per block), and the schedule
 *		of rates of a filter that grows by layers.
 *
 * sizing.c has the model and the schedule.  The scalable filters (kind 4),
 * the index's layers and the cuckoo filter's sub-filters all follow the
 * one schedule, so it lives here, below every family.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_SIZING_H
#define BLOOM_CORE_SIZING_H

#include "format.h"

/* Sizing plan: hashes per key and the most keys a block may hold */
typedef struct BloomPlan
{
	double		fpr;
	int			k;
	double		keys_per_block;
} BloomPlan;

/* A rate the sizing plans for (false for NaN); inline: decode runs per row */
static inline bool
bloom_fpr_valid(double fpr)
{
	return fpr >= BLOOM_MIN_FPR && fpr <= BLOOM_MAX_FPR;
}

extern double bloom_model_fpr(double keys_per_block, int k);
extern BloomStatus bloom_plan(double fpr, BloomPlan *plan);
extern BloomStatus bloom_plan_reuse(double fpr, BloomPlan *plan);
extern BloomStatus bloom_plan_size(const BloomPlan *plan, uint64_t capacity,
								   uint64_t *nblocks);
extern BloomStatus bloom_plan_size_in(const BloomPlan *plan, uint64_t capacity,
									  uint64_t maxblocks, uint64_t *nblocks);
extern uint64_t bloom_plan_max_capacity(const BloomPlan *plan);
extern uint64_t bloom_plan_max_capacity_in(const BloomPlan *plan, uint64_t maxblocks);

/* the rate of layer i (0: the first) of a filter whose target is target */
extern double bloom_layer_fpr(double target, int layer);

#endif							/* BLOOM_CORE_SIZING_H */
