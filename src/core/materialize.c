/*-------------------------------------------------------------------------
 *
 * materialize.c
 *		An aggregate state as the filter it stands for: the one place where
 *		states become filters (bloom_agg's final step, and every function
 *		that is handed a partial state).
 *
 *-------------------------------------------------------------------------
 */
#include "aggstate.h"

#include <math.h>

/*
 * A fixed-capacity state as kind 1: a buffered state's bits with its
 * pending hashes inserted, or a light state's hashes inserted into empty
 * bits (the same bits its buffered state would have)
 */
static BloomStatus
buffered_to_blocked(const BloomFilter *st, bool layer, const BloomAlloc *a,
					BloomFilter *out)
{
	size_t		size = bloom_blocked_size(st->nblocks);
	uint8_t    *buf = bloom_alloc_value(a, size);

	if (buf == NULL)
		return BLOOM_E_NOMEM;
	if (st->kind == BLOOM_KIND_SPARSE)
		memset(buf + BLOOM_HEADER_SIZE, 0, size - BLOOM_HEADER_SIZE);
	else
		memcpy(buf + BLOOM_HEADER_SIZE, st->data, size - BLOOM_HEADER_SIZE);
	*out = *st;
	out->base = buf;
	out->data = buf + BLOOM_HEADER_SIZE;
	out->kind = BLOOM_KIND_BLOCKED;
	out->npending = out->nslots = out->nhashes = 0;
	out->version = BLOOM_FORMAT_VERSION;
	out->flags = 0;
	if (layer)
		out->fpr = bloom_layer_fpr(st->fpr, 0);	/* what it was planned for */
	if (st->kind == BLOOM_KIND_SPARSE)
		bloom_insert_many(out, st->data, st->nhashes, bloom_alloc_cancel(a));
	else
		bloom_insert_many(out, bloom_pending(st), st->npending, NULL);
	bloom_write_header(out);
	return BLOOM_OK;
}

/* A blocked filter for capacity keys at fpr; on failure says which */
static BloomStatus
sized_filter(uint64_t capacity, double fpr, BloomPlan *plan, const BloomAlloc *a,
			 BloomMaterialized *m, BloomFilter *out)
{
	BloomStatus st = bloom_new_blocked(capacity, fpr, 0, plan, a, out);

	if (st == BLOOM_E_CAPACITY)
	{
		m->capacity = capacity;
		m->fpr = fpr;
	}
	return st;
}

/*
 * A hash list as a blocked filter sized for its distinct hashes at its
 * rate (layer: at the rate of a scalable filter's first layer, counting
 * distinct keys up to its capacity).
 */
static BloomStatus
hashlist_to_blocked(const BloomFilter *st, bool layer, BloomPlan *plan,
					const BloomAlloc *a, BloomMaterialized *m, BloomFilter *out)
{
	uint64_t	n = st->nhashes;
	double		size_fpr = layer ? bloom_layer_fpr(st->fpr, 0) : st->fpr;
	uint64_t   *sorted;
	uint64_t	distinct;
	BloomStatus s;

	if ((s = bloom_hashlist_distinct(st, a, &sorted, &distinct)) != BLOOM_OK)
		return s;
	s = sized_filter(distinct > 0 ? distinct : 1, size_fpr, plan, a, m, out);
	if (sorted != NULL)
	{
		if (s == BLOOM_OK)
			for (uint64_t i = 0; i < distinct; i++)
				bloom_insert_hash(out, sorted[i]);
		bloom_free_scratch(a, sorted);
	}
	else if (s == BLOOM_OK)
	{
		bloom_insert_many(out, st->data, n, bloom_alloc_cancel(a));
		if (bloom_estimate_items(out, bloom_alloc_cancel(a)) > 1.2 * (distinct > 0 ? distinct : 1) + 100 &&
			distinct < n)
		{
			/*
			 * The bits hold more keys than the estimate said, which hash
			 * values from outside can arrange: size for every hash.
			 */
			a->free(a->arg, out->base);
			if ((s = sized_filter(n, size_fpr, plan, a, m, out)) == BLOOM_OK)
				bloom_insert_many(out, st->data, n, bloom_alloc_cancel(a));
		}
	}
	if (s != BLOOM_OK)
		return s;
	out->nitems = st->nitems;
	out->key_class = st->key_class;
	out->key_type = st->key_type;
	out->seed = st->seed;
	if (layer)
	{
		/* a layer counts distinct keys, and this one is full */
		out->nitems = st->nitems < out->capacity ? st->nitems : out->capacity;
		out->fpr = bloom_layer_fpr(st->fpr, 0);
	}
	bloom_write_header(out);
	return BLOOM_OK;
}

static BloomStatus
state_to_blocked(const BloomFilter *st, bool layer, BloomPlan *plan,
				 const BloomAlloc *a, BloomMaterialized *m, BloomFilter *out)
{
	if (bloom_is_fixed_state(st))
		return buffered_to_blocked(st, layer, a, out);
	return hashlist_to_blocked(st, layer, plan, a, m, out);
}

/*
 * A state as a scalable filter of one layer: a hash list sized for its
 * distinct hashes at the first layer's rate (an empty one: the capacity of
 * create-on-add), a buffered state (planned as a first layer) as it is.
 * Rates under 1e-9 leave no room for later layers: such a state becomes a
 * fixed filter (expansion 0), which refuses keys past its capacity rather
 * than rise above its rate.
 */
static BloomStatus
state_to_scalable(const BloomFilter *st, BloomPlan *plan, const BloomAlloc *a,
				  BloomMaterialized *m, BloomFilter *out)
{
	BloomFilter f;
	size_t		size;
	uint8_t    *buf;
	double		est = 0.0;
	BloomStatus s;

	if (!bloom_scalable_fpr_valid(st->fpr))
	{
		s = bloom_is_empty_hashlist(st) ?
			bloom_new_blocked(BLOOM_CREATE_CAPACITY, st->fpr, BLOOM_FLAG_NONSCALING,
							  plan, a, out) :
			state_to_blocked(st, false, plan, a, m, out);
		if (s != BLOOM_OK)
			return s;
		out->key_class = st->key_class;
		out->key_type = st->key_type;
		if (out->nitems > out->capacity)
			out->nitems = out->capacity;
		bloom_set_flag(out, BLOOM_FLAG_NONSCALING);
		return BLOOM_OK;
	}
	if (bloom_is_empty_hashlist(st))
	{
		s = bloom_new_scalable(BLOOM_CREATE_CAPACITY, st->fpr, BLOOM_DEFAULT_EXPANSION,
							   plan, a, out);
		if (s == BLOOM_OK && st->key_class != BLOOM_KEY_NONE)
			bloom_store_key_class(out, st->key_class, st->key_type);
		return s;
	}
	if (bloom_is_fixed_state(st) && !(st->flags & BLOOM_FLAG_SCALABLE_STATE))
		return BLOOM_E_FLAGS;	/* not planned as a layer */

	if ((s = state_to_blocked(st, true, plan, a, m, &f)) != BLOOM_OK)
		return s;
	/* the keys the bits hold, estimated once (a pass over all of them) */
	if (bloom_is_fixed_state(st) || f.nitems > f.capacity)
		est = bloom_estimate_items(&f, bloom_alloc_cancel(a));
	if (bloom_is_fixed_state(st))
	{
		/*
		 * A layer counts distinct keys, the state counted rows: where rows
		 * repeated (the bits hold clearly fewer keys), count what the bits
		 * hold, so that the layer is not taken for full too early.
		 */
		if (est < 0.9 * (double) f.nitems && (uint64_t) ceil(est * 1.02) < f.nitems)
			f.nitems = (uint64_t) ceil(est * 1.02);
	}
	if (f.nitems > f.capacity)
	{
		/* a layer counts distinct keys: more than its capacity went in? */
		if (est > 1.05 * f.capacity + 10)
		{
			m->over_capacity = true;
			m->estimated_items = est;
			m->estimated_fpr = bloom_estimate_fpr(&f, bloom_alloc_cancel(a));
		}
		f.nitems = f.capacity;
	}
	size = bloom_scalable_size(1, f.nblocks);
	if ((buf = bloom_alloc_value(a, size)) == NULL)
	{
		a->free(a->arg, f.base);
		return BLOOM_E_NOMEM;
	}
	bloom_scalable_from_blocked(buf, &f, st->fpr, BLOOM_DEFAULT_EXPANSION);
	a->free(a->arg, f.base);
	return bloom_decode_as(buf, size, out, &bloom_scalable_ops);
}

/*
 * The filter the aggregate state st stands for, decoded into out, in a new
 * value from a; st is not modified.  m says what did not fit
 * (BLOOM_E_CAPACITY) and what the caller should warn about.
 */
BloomStatus
bloom_materialize(const BloomFilter *st, bool scalable, BloomPlan *plan,
				  const BloomAlloc *a, BloomMaterialized *m, BloomFilter *out)
{
	BloomPlan	local = {0};

	memset(m, 0, sizeof(*m));
	if (plan == NULL)
		plan = &local;
	if ((st->kind == BLOOM_KIND_HASHLIST && scalable) ||
		(st->flags & BLOOM_FLAG_SCALABLE_STATE))
		return state_to_scalable(st, plan, a, m, out);
	return state_to_blocked(st, false, plan, a, m, out);
}
