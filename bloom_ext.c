/*-------------------------------------------------------------------------
 *
 * bloom_ext.c
 *		fmgr glue of bloomtype: the bloomfilter type's I/O, its functions
 *		and operators.  Aggregates are in bloom_agg.c, key hashing in
 *		bloom_keys.c, the filter algorithms in src/bloom_core.c.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_ext.h"

#include <math.h>
#include <sys/mman.h>

#include "access/detoast.h"
#include "access/htup_details.h"
#include "common/hashfn.h"
#include "funcapi.h"
#include "libpq/pqformat.h"
#include "nodes/primnodes.h"
#include "utils/builtins.h"

PG_MODULE_MAGIC;

/* ---------------------------------------------------------------------
 * Shared helpers
 * ---------------------------------------------------------------------
 */

void
bloom_check_params(int64 capacity, double fpr)
{
	if (capacity <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter capacity must be positive, not " INT64_FORMAT,
						capacity),
				 errhint("Give the number of distinct keys the filter should hold, at least 1.")));
	if (!bloom_fpr_valid(fpr))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter false-positive rate %g is out of range", fpr),
				 errhint("Use a rate in (0, 0.5] and no smaller than %g, e.g. 0.01 for 1%%.",
						 BLOOM_MIN_FPR)));
}

/* Plans for fpr, reusing *plan_cache when it was planned for the same rate */
void
bloom_get_plan(double fpr, BloomPlan *plan_cache)
{
	if (plan_cache->k > 0 && plan_cache->fpr == fpr)
		return;
	if (bloom_plan(fpr, plan_cache) != BLOOM_OK)
		bloom_check_params(1, fpr); /* raises the error */
}

static void
capacity_error(uint64 capacity, double fpr, const BloomPlan *plan)
{
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("bloom filter capacity " UINT64_FORMAT " is too large for false-positive rate %g",
					capacity, fpr),
			 errdetail("A filter is at most 512 MB, so that its text form (what pg_dump writes) fits in one PostgreSQL value."),
			 errhint("The largest capacity that fits at this rate is " UINT64_FORMAT ".",
					 bloom_plan_max_capacity(plan))));
}

static struct varlena *
new_filter(uint64 capacity, double fpr, BloomPlan *plan_cache,
		   MemoryContext cxt, bool buffered)
{
	BloomPlan	local = {0};
	BloomPlan  *plan = plan_cache ? plan_cache : &local;
	uint64		nblocks;
	size_t		size;
	struct varlena *v;

	bloom_check_params((int64) capacity, fpr);
	bloom_get_plan(fpr, plan);
	if (bloom_plan_size(plan, capacity, &nblocks) != BLOOM_OK)
		capacity_error(capacity, fpr, plan);
	if (nblocks > BLOOM_MAX_BUFFERED_BLOCKS)
		buffered = false;		/* the largest filters are built unbuffered */
	size = buffered ? bloom_buffered_size(nblocks) : bloom_blocked_size(nblocks);
	v = (struct varlena *) MemoryContextAllocHuge(cxt, VARHDRSZ + size);
	SET_VARSIZE(v, VARHDRSZ + size);
	if (buffered)
		bloom_init_buffered(BLOOM_DATA(v), nblocks, plan->k, capacity, fpr, 0);
	else
		bloom_init_blocked(BLOOM_DATA(v), nblocks, plan->k, capacity, fpr, 0);
	return v;
}

/*
 * A new, empty blocked filter for capacity and fpr, allocated in cxt.  All
 * checks happen before any allocation.
 */
struct varlena *
bloom_new_blocked(uint64 capacity, double fpr, BloomPlan *plan_cache,
				  MemoryContext cxt)
{
	return new_filter(capacity, fpr, plan_cache, cxt, false);
}

/* The same with room for pending hashes: a fixed-capacity aggregate state */
struct varlena *
bloom_new_buffered(uint64 capacity, double fpr, BloomPlan *plan_cache,
				   MemoryContext cxt)
{
	return new_filter(capacity, fpr, plan_cache, cxt, true);
}

static uint64 max_capacity_in(const BloomPlan *plan, uint64 maxblocks);

/*
 * The state of a fixed-capacity bloom_agg from version 1.2: a buffered
 * filter planned as the first layer of a scalable filter (the header keeps
 * the target rate and says so in its flags).
 */
struct varlena *
bloom_new_buffered_layer(uint64 capacity, double fpr, BloomPlan *plan_cache,
						 MemoryContext cxt)
{
	BloomPlan	local = {0};
	BloomPlan  *plan = plan_cache ? plan_cache : &local;
	double		p0 = bloom_layer_fpr(fpr, 0);
	uint64		nblocks;
	size_t		size;
	struct varlena *v;
	BloomFilter f;

	bloom_check_scalable_params((int64) capacity, fpr, BLOOM_DEFAULT_EXPANSION);
	bloom_get_plan(p0, plan);
	if (bloom_plan_size(plan, capacity, &nblocks) != BLOOM_OK ||
		nblocks > BLOOM_MAX_BUFFERED_BLOCKS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom_agg capacity " UINT64_FORMAT " is too large for false-positive rate %g",
						capacity, fpr),
				 errdetail("A filter is at most 512 MB; bloom_agg plans its first layer for rate %g, so that it can grow.", p0),
				 errhint("The largest capacity at this rate is " UINT64_FORMAT ".",
						 max_capacity_in(plan, BLOOM_MAX_BUFFERED_BLOCKS))));
	size = bloom_buffered_size(nblocks);
	v = (struct varlena *) MemoryContextAllocHuge(cxt, VARHDRSZ + size);
	SET_VARSIZE(v, VARHDRSZ + size);
	bloom_init_buffered(BLOOM_DATA(v), nblocks, plan->k, capacity, fpr, 0);
	bloom_decode_or_error(v, &f);	/* a version 1 value: fine to decode */
	f.version = BLOOM_FORMAT_VERSION_2;
	f.flags = BLOOM_FLAG_SCALABLE_STATE;
	bloom_write_header(BLOOM_DATA(v), &f);
	return v;
}

/*
 * Checks the parameters of a filter made by bloom_empty or create-on-add:
 * expansion 0 is a fixed filter that refuses adds past its capacity,
 * 1..BLOOM_MAX_EXPANSION a scalable one.
 */
void
bloom_check_scalable_params(int64 capacity, double fpr, int32 expansion)
{
	if (expansion > 0 && fpr > 0 && fpr < BLOOM_MIN_SCALABLE_FPR)
		bloom_check_params(capacity, BLOOM_MIN_SCALABLE_FPR);	/* capacity first */
	else
		bloom_check_params(capacity, fpr);
	if (expansion < 0 || expansion > BLOOM_MAX_EXPANSION)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter expansion %d is out of range", expansion),
				 errhint("Use 0 for a fixed filter that refuses keys past its capacity, or 1 to %d for a filter that grows by layers that many times larger.",
						 BLOOM_MAX_EXPANSION)));
	if (expansion > 0 && !bloom_scalable_fpr_valid(fpr))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("false-positive rate %g is too small for a scalable bloom filter", fpr),
				 errdetail("A scalable filter gives its later layers smaller rates, down to the target divided by 409."),
				 fpr >= BLOOM_MIN_FPR ?
				 errhint("Use a rate of at least %g, or expansion => 0 for a fixed filter.",
						 BLOOM_MIN_SCALABLE_FPR) :
				 errhint("Use a rate of at least %g.", BLOOM_MIN_SCALABLE_FPR)));
}

/* The most keys maxblocks blocks planned as plan hold */
static uint64
max_capacity_in(const BloomPlan *plan, uint64 maxblocks)
{
	uint64		cap = (uint64) floor((double) maxblocks * plan->keys_per_block);
	uint64		nb;

	while (cap > 0 && (bloom_plan_size(plan, cap, &nb) != BLOOM_OK || nb > maxblocks))
		cap--;
	return cap;
}

/*
 * A new, empty scalable filter: one layer of capacity keys, planned for
 * the first layer's share of fpr (see bloom_layer_fpr).  expansion 0 makes
 * a fixed blocked filter that refuses adds past its capacity.
 */
struct varlena *
bloom_new_scalable(uint64 capacity, double fpr, int32 expansion,
				   BloomPlan *plan_cache, MemoryContext cxt)
{
	BloomPlan	local = {0};
	BloomPlan  *plan = plan_cache ? plan_cache : &local;
	double		p0;
	uint64		nblocks;
	size_t		size;
	struct varlena *v;

	bloom_check_scalable_params((int64) capacity, fpr, expansion);
	if (expansion == 0)
	{
		BloomFilter f;

		v = bloom_new_blocked(capacity, fpr, plan, cxt);
		bloom_decode_or_error(v, &f);
		f.version = BLOOM_FORMAT_VERSION_2;
		f.flags = BLOOM_FLAG_NONSCALING;
		bloom_write_header(BLOOM_DATA(v), &f);
		return v;
	}
	p0 = bloom_layer_fpr(fpr, 0);
	bloom_get_plan(p0, plan);
	if (bloom_plan_size(plan, capacity, &nblocks) != BLOOM_OK ||
		bloom_scalable_size(1, nblocks) > BLOOM_MAX_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom filter capacity " UINT64_FORMAT " is too large for a scalable filter at false-positive rate %g",
						capacity, fpr),
				 errdetail("A filter is at most 512 MB; the first layer of a scalable filter is planned for rate %g.", p0),
				 errhint("The largest first layer at this rate holds " UINT64_FORMAT " keys; a smaller one grows as keys come.",
						 max_capacity_in(plan, (BLOOM_MAX_BYTES - bloom_scalable_size(1, 0)) / BLOOM_BLOCK_BYTES))));
	size = bloom_scalable_size(1, nblocks);
	v = (struct varlena *) MemoryContextAllocHuge(cxt, VARHDRSZ + size);
	SET_VARSIZE(v, VARHDRSZ + size);
	bloom_init_scalable(BLOOM_DATA(v), capacity, fpr, (unsigned) expansion, 0,
						nblocks, plan->k);
	return v;
}

/* The ERROR of a scalable filter that cannot add its next layer */
static void
scalable_full_error(const BloomFilter *f)
{
	if (f->nslots >= BLOOM_MAX_LAYERS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("scalable bloom filter is full: it has %d layers, the most a filter may have",
						BLOOM_MAX_LAYERS),
				 errdetail("It holds " UINT64_FORMAT " keys.", f->nitems),
				 errhint("Rebuild it with a larger capacity or expansion, e.g. bloom_agg over the keys, which sizes one layer for them all.")));
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("scalable bloom filter is full: its next layer would not fit in 512 MB"),
			 errdetail("It holds " UINT64_FORMAT " keys in " UINT64_FORMAT " layers; the next layer would hold " UINT64_FORMAT " more.",
					   f->nitems, f->nslots,
					   f->layers[f->nslots - 1].capacity > UINT64_MAX / f->nused ? UINT64_MAX :
					   f->layers[f->nslots - 1].capacity * f->nused),
			 errhint("Split the keys over several filters (by a hash of the key, say), or use a larger false-positive rate.")));
}

/*
 * Warns when a new scalable filter could not add even one layer: keys past
 * its capacity will be refused.
 */
void
bloom_warn_if_cannot_grow(struct varlena *v)
{
	BloomFilter f;
	BloomPlan	plan;
	uint64		capacity,
				nblocks;

	bloom_decode_or_error(v, &f);
	if (f.kind == BLOOM_KIND_SCALABLE &&
		bloom_scalable_next_layer(&f, &plan, &capacity, &nblocks) != BLOOM_OK)
		ereport(WARNING,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("scalable bloom filter of " UINT64_FORMAT " keys cannot grow: its second layer would not fit in 512 MB",
						f.capacity),
				 errdetail("Keys past its capacity will be refused."),
				 errhint("Split the keys over several filters, or use a larger false-positive rate.")));
}

/*
 * Adds hash h to the scalable filter v (decoded into f), unless some layer
 * may hold it already; a full newest layer makes a new one, in a new value
 * allocated in cxt.  Returns the value (v or its grown copy) with its
 * header written back; *added says whether h was new.
 */
struct varlena *
bloom_scalable_add(struct varlena *v, BloomFilter *f, uint64 h,
				   BloomPlan *plan_cache, MemoryContext cxt, bool *added)
{
	*added = false;
	if (bloom_scalable_contains(f, h))
		return v;
	if (bloom_scalable_full(f))
	{
		BloomPlan	local = {0};
		BloomPlan  *plan = plan_cache ? plan_cache : &local;
		uint64		capacity,
					nblocks;
		size_t		size;
		struct varlena *g;

		if (bloom_scalable_next_layer(f, plan, &capacity, &nblocks) != BLOOM_OK)
			scalable_full_error(f);
		size = bloom_scalable_size(f->nslots + 1, bloom_scalable_blocks(f) + nblocks);
		g = (struct varlena *) MemoryContextAllocHuge(cxt, VARHDRSZ + size);
		SET_VARSIZE(g, VARHDRSZ + size);
		bloom_scalable_append_layer(BLOOM_DATA(g), f, capacity, nblocks, plan->k);
		bloom_decode_or_error(g, f);
		v = g;
	}
	bloom_scalable_insert(f, h);
	*added = true;
	return v;
}

/*
 * Adds hash h to the filter v (decoded into f) by the rule of its kind:
 * a scalable filter grows, a fixed (expansion 0) filter refuses keys past
 * its capacity, and a filter made by bloom_empty or bloom_agg of version
 * 1.0 takes every key.  Writes the header back; returns v or a new value.
 */
struct varlena *
bloom_add_hash(struct varlena *v, BloomFilter *f, uint64 h,
			   BloomPlan *plan_cache, MemoryContext cxt)
{
	bool		added;

	if (f->kind == BLOOM_KIND_SCALABLE)
	{
		v = bloom_scalable_add(v, f, h, plan_cache, cxt, &added);
		if (added)
			bloom_write_header(BLOOM_DATA(v), f);
		return v;
	}
	if (f->flags & BLOOM_FLAG_NONSCALING)
	{
		if (bloom_contains_hash(f, h))
			return v;
		if (f->nitems >= f->capacity)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("bloom filter is full"),
					 errdetail("It holds " UINT64_FORMAT " keys, its capacity, and was made with expansion 0, which does not grow.",
							   f->nitems),
					 errhint("Make a filter that grows, bloom_empty(capacity, fpr, expansion => 2), or a larger one.")));
	}
	bloom_insert_hash(f, h);
	if (f->nitems < UINT64_MAX)
		f->nitems++;
	bloom_write_header(BLOOM_DATA(v), f);
	return v;
}

/*
 * Decodes a value that was validated when it entered the database.  A
 * failure here means the stored bytes were damaged.
 */
void
bloom_decode_or_error(struct varlena *v, BloomFilter *f)
{
	BloomStatus st = bloom_decode(BLOOM_DATA(v), BLOOM_LEN(v), f);

	if (st != BLOOM_OK)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("bloomfilter value is corrupt"),
				 errdetail("%s", bloom_status_message(st))));
}

/* Writes a new key class into the header of v and into f */
void
bloom_set_key_class(struct varlena *v, BloomFilter *f, uint8 key_class,
					uint32 key_type)
{
	uint8	   *p = BLOOM_DATA(v);

	f->key_class = key_class;
	f->key_type = key_type;
	p[7] = key_class;
	p[8] = (uint8) key_type;
	p[9] = (uint8) (key_type >> 8);
	p[10] = (uint8) (key_type >> 16);
	p[11] = (uint8) (key_type >> 24);
}

/*
 * Before adding a key of ki's class to the filter v (decoded into f):
 * refuses another class, and records the class in a filter that holds none.
 */
void
bloom_admit_key(struct varlena *v, BloomFilter *f, const BloomKeyInfo *ki)
{
	bloom_check_key(f, ki, true);
	if (f->key_class == BLOOM_KEY_NONE)
		bloom_set_key_class(v, f, ki->key_class, ki->key_type);
}

/* qsort comparator for uint64 */
int
bloom_cmp_u64(const void *a, const void *b)
{
	uint64		x = *(const uint64 *) a,
				y = *(const uint64 *) b;

	return x < y ? -1 : (x > y ? 1 : 0);
}

/* Auto-sizing counts distinct hashes exactly up to this many */
#define BLOOM_EXACT_COUNT_MAX	(1 << 16)
/* ... and above it sizes for an estimate (under 0.41% standard error) times this */
#define BLOOM_ESTIMATE_MARGIN	1.03

/*
 * Turns an aggregate state into the blocked filter it stands for.  A hash
 * list (auto-sized) becomes a filter sized for the distinct hashes it
 * holds, at its target rate.  A buffered filter (fixed capacity) becomes
 * its bits with the pending hashes inserted.  The state is not modified.
 */
static struct varlena *materialize_blocked(BloomFilter *st, BloomPlan *plan_cache,
										   MemoryContext cxt, bool scalable_layer);

/*
 * An aggregate state as a scalable filter of one layer: a hash list sized
 * for its distinct hashes at the first layer's rate (an empty one: the
 * capacity of create-on-add), a buffered state (planned as a first layer)
 * as it is.
 */
static struct varlena *
materialize_scalable(BloomFilter *st, BloomPlan *plan_cache, MemoryContext cxt)
{
	struct varlena *b;
	struct varlena *v;
	BloomFilter f;
	size_t		size;

	if (!bloom_scalable_fpr_valid(st->fpr))
	{
		/*
		 * Rates under 1e-9 leave no room for later layers: such a state
		 * becomes a fixed filter (expansion 0), which refuses keys past its
		 * capacity rather than rise above its rate.
		 */
		v = st->kind == BLOOM_KIND_HASHLIST && st->nused == 0 ?
			bloom_new_scalable(BLOOM_CREATE_CAPACITY, st->fpr, 0, plan_cache, cxt) :
			materialize_blocked(st, plan_cache, cxt, false);
		bloom_decode_or_error(v, &f);
		f.key_class = st->key_class;
		f.key_type = st->key_type;
		f.version = BLOOM_FORMAT_VERSION_2;
		f.flags = BLOOM_FLAG_NONSCALING;
		f.nitems = Min(f.nitems, f.capacity);
		bloom_write_header(BLOOM_DATA(v), &f);
		return v;
	}
	if (st->kind == BLOOM_KIND_HASHLIST && st->nused == 0)
	{
		v = bloom_new_scalable(BLOOM_CREATE_CAPACITY, st->fpr, BLOOM_DEFAULT_EXPANSION,
							   plan_cache, cxt);
		if (st->key_class != BLOOM_KEY_NONE)
		{
			bloom_decode_or_error(v, &f);
			bloom_set_key_class(v, &f, st->key_class, st->key_type);
		}
		return v;
	}
	if (st->kind == BLOOM_KIND_BUFFERED && !(st->flags & BLOOM_FLAG_SCALABLE_STATE))
		elog(ERROR, "bloom_agg state was not planned as a scalable filter");
	b = materialize_blocked(st, plan_cache, CurrentMemoryContext, true);
	bloom_decode_or_error(b, &f);
	if (st->kind == BLOOM_KIND_BUFFERED)
	{
		/*
		 * A layer counts distinct keys, the state counted rows: where rows
		 * repeated (the bits hold clearly fewer keys), count what the bits
		 * hold, so that the layer is not taken for full too early.
		 */
		double		est = bloom_estimate_items(&f);

		if (est < 0.9 * (double) f.nitems)
			f.nitems = Min(f.nitems, (uint64) ceil(est * 1.02));
	}
	if (f.nitems > f.capacity)
	{
		double		est = bloom_estimate_items(&f);

		/* a layer counts distinct keys: more than its capacity went in? */
		if (est > 1.05 * f.capacity + 10)
			ereport(WARNING,
					(errcode(ERRCODE_WARNING),
					 errmsg("bloom_agg received about %.0f distinct keys, more than its capacity " UINT64_FORMAT,
							est, f.capacity),
					 errdetail("Its false-positive rate is about %g, above the target %g.",
							   bloom_estimate_fpr(&f), st->fpr),
					 errhint("Give a larger capacity, or leave it out: bloom_agg(key, fpr) sizes the filter for the keys it sees.")));
		f.nitems = f.capacity;
	}
	size = bloom_scalable_size(1, f.nslots);
	v = (struct varlena *) MemoryContextAllocHuge(cxt, VARHDRSZ + size);
	SET_VARSIZE(v, VARHDRSZ + size);
	bloom_scalable_from_blocked(BLOOM_DATA(v), &f, st->fpr, BLOOM_DEFAULT_EXPANSION);
	pfree(b);
	bloom_warn_if_cannot_grow(v);
	return v;
}

struct varlena *
bloom_materialize(BloomFilter *st, BloomPlan *plan_cache, MemoryContext cxt,
				  bool scalable)
{
	if (scalable || (st->flags & BLOOM_FLAG_SCALABLE_STATE))
		return materialize_scalable(st, plan_cache, cxt);
	return materialize_blocked(st, plan_cache, cxt, false);
}

static struct varlena *
materialize_blocked(BloomFilter *st, BloomPlan *plan_cache, MemoryContext cxt,
					bool scalable_layer)
{
	struct varlena *v;
	BloomFilter f;

	if (st->kind == BLOOM_KIND_BUFFERED)
	{
		size_t		size = bloom_blocked_size(st->nslots);

		v = (struct varlena *) MemoryContextAllocHuge(cxt, VARHDRSZ + size);
		SET_VARSIZE(v, VARHDRSZ + size);
		memcpy(BLOOM_DATA(v) + BLOOM_HEADER_SIZE, st->data, size - BLOOM_HEADER_SIZE);
		f = *st;
		f.data = BLOOM_DATA(v) + BLOOM_HEADER_SIZE;
		f.kind = BLOOM_KIND_BLOCKED;
		f.nused = 0;
		f.version = BLOOM_FORMAT_VERSION;
		f.flags = 0;
		if (scalable_layer)
			f.fpr = bloom_layer_fpr(st->fpr, 0);	/* what it was planned for */
		for (uint64 i = 0; i < st->nused; i++)
			bloom_insert_hash(&f, bloom_get_le64(bloom_pending(st) + 8 * i));
		bloom_write_header(BLOOM_DATA(v), &f);
		return v;
	}
	else
	{
		uint64		n = st->nused;
		uint64		distinct;
		double		size_fpr = scalable_layer ? bloom_layer_fpr(st->fpr, 0) : st->fpr;

		if (n <= BLOOM_EXACT_COUNT_MAX)
		{
			/* count exactly */
			uint64	   *hashes = palloc(Max(n, 1) * sizeof(uint64));

			for (uint64 i = 0; i < n; i++)
				hashes[i] = bloom_hashlist_get(st, i);
			qsort(hashes, n, sizeof(uint64), bloom_cmp_u64);
			distinct = bloom_unique_u64(hashes, n);
			v = bloom_new_blocked(Max(distinct, 1), size_fpr, plan_cache, cxt);
			bloom_decode_or_error(v, &f);
			for (uint64 i = 0; i < distinct; i++)
				bloom_insert_hash(&f, hashes[i]);
			pfree(hashes);
		}
		else
		{
			/*
			 * Sorting millions of hashes costs more than building the
			 * filter: estimate the distinct count instead, and size for the
			 * estimate plus seven standard errors or more, never more than
			 * the hashes there are.
			 */
			uint8	   *scratch = palloc_extended(bloom_estimate_scratch(n), MCXT_ALLOC_HUGE);
			double		est = bloom_estimate_distinct(st->data, n, scratch);

			pfree(scratch);
			distinct = (uint64) Min((double) n, ceil(est * BLOOM_ESTIMATE_MARGIN));
			if (distinct <= BLOOM_EXACT_COUNT_MAX)
			{
				/* few distinct among many: a set in cache counts them exactly */
				uint64	   *table = palloc(4 * BLOOM_EXACT_COUNT_MAX * sizeof(uint64));
				uint64		exact = bloom_count_distinct(st->data, n, table,
														 4 * BLOOM_EXACT_COUNT_MAX);

				pfree(table);
				/* a failed count disproves the estimate: take the bound */
				distinct = exact != UINT64_MAX ? exact : n;
			}
			v = bloom_new_blocked(Max(distinct, 1), size_fpr, plan_cache, cxt);
			bloom_decode_or_error(v, &f);
			bloom_insert_many(&f, st->data, n);
			if (bloom_estimate_items(&f) > 1.2 * Max(distinct, 1) + 100 && distinct < n)
			{
				/*
				 * The bits hold more keys than the estimate said, which hash
				 * values from outside can arrange: size for every hash.
				 */
				pfree(v);
				v = bloom_new_blocked(n, size_fpr, plan_cache, cxt);
				bloom_decode_or_error(v, &f);
				bloom_insert_many(&f, st->data, n);
			}
		}
		f.nitems = st->nitems;
		f.key_class = st->key_class;
		f.key_type = st->key_type;
		f.seed = st->seed;
		if (scalable_layer)
		{
			/* a layer counts distinct keys, and this one is full */
			f.nitems = Min(st->nitems, f.capacity);
			f.fpr = bloom_layer_fpr(st->fpr, 0);
		}
		bloom_write_header(BLOOM_DATA(v), &f);
		return v;
	}
}

/*
 * A detoasted value v, decoded into f, as the filter (blocked or scalable)
 * it stands for: aggregate states are materialised, as scalable filters.  When orig is given (the argument as
 * passed), the result is a private copy the caller may modify, never orig.
 */
static struct varlena *
as_blocked_as(struct varlena *v, BloomFilter *f, struct varlena *orig, bool scalable)
{
	if (f->kind == BLOOM_KIND_HASHLIST || f->kind == BLOOM_KIND_BUFFERED)
		v = bloom_materialize(f, NULL, CurrentMemoryContext,
							  scalable && f->kind == BLOOM_KIND_HASHLIST);
	else if (v == orig)
	{
		v = (struct varlena *) palloc(VARSIZE(orig));
		memcpy(v, orig, VARSIZE(orig));
	}
	else
		return v;
	bloom_decode_or_error(v, f);
	return v;
}

/*
 * The same, with hash lists as version 1.0 read them (blocked filters; a
 * buffered state follows its flag): what the functions of 1.0, which 1.2
 * keeps for reading, see.
 */
static struct varlena *
as_blocked(struct varlena *v, BloomFilter *f, struct varlena *orig)
{
	return as_blocked_as(v, f, orig, false);
}

/*
 * Fetches argument argno as a detoasted, validated blocked filter.  The
 * result may be the argument's own memory: callers that modify it use
 * bloom_filter_arg_copy.
 */
static struct varlena *
get_filter_arg(FunctionCallInfo fcinfo, int argno, BloomFilter *f)
{
	struct varlena *v = PG_DETOAST_DATUM(PG_GETARG_DATUM(argno));

	bloom_decode_or_error(v, f);
	return as_blocked(v, f, NULL);
}

/*
 * As get_filter_arg, but always a private copy the caller may modify.  With
 * scalable (the add functions of 1.2), an aggregate's hash list becomes a
 * scalable filter, as bloom_agg's final step of 1.2 makes it; else a
 * blocked one, as in 1.0.
 */
struct varlena *
bloom_filter_arg_copy(FunctionCallInfo fcinfo, int argno, BloomFilter *f,
					  bool scalable)
{
	struct varlena *v = PG_DETOAST_DATUM(PG_GETARG_DATUM(argno));

	bloom_decode_or_error(v, f);
	return as_blocked_as(v, f, (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(argno)),
						 scalable);
}

/*
 * The canonical bytes of a value: a hash list is written without its
 * unused slots.  Returns v itself when it is canonical already.
 */
static struct varlena *
canonical(struct varlena *v)
{
	BloomFilter f;
	struct varlena *c;
	size_t		size;

	bloom_decode_or_error(v, &f);
	if (f.kind == BLOOM_KIND_BUFFERED)
	{
		/* unused pending slots are not part of the value: write zeros */
		uint8	   *p = bloom_pending(&f) + 8 * f.nused;
		size_t		rest = 8 * (BLOOM_PENDING_SLOTS - f.nused);

		for (size_t i = 0; i < rest; i++)
			if (p[i] != 0)
			{
				c = (struct varlena *) palloc(VARSIZE(v));
				memcpy(c, v, VARSIZE(v));
				memset((uint8 *) c + (p - (uint8 *) v), 0, rest);
				return c;
			}
		return v;
	}
	if (f.kind != BLOOM_KIND_HASHLIST || f.nused == f.nslots)
		return v;
	size = bloom_hashlist_size(f.nused);
	c = (struct varlena *) palloc(VARHDRSZ + size);
	SET_VARSIZE(c, VARHDRSZ + size);
	memcpy(BLOOM_DATA(c), BLOOM_DATA(v), size);
	f.nslots = f.nused;
	bloom_write_header(BLOOM_DATA(c), &f);
	return c;
}

/* Validates outside bytes and wraps them in a new varlena */
static struct varlena *
bloom_from_bytes(const char *data, size_t len, int errcode_)
{
	BloomFilter f;
	BloomStatus st;
	struct varlena *v;

	st = bloom_decode((const uint8 *) data, len, &f);
	if (st != BLOOM_OK)
		ereport(ERROR,
				(errcode(errcode_),
				 errmsg("invalid bloomfilter value"),
				 errdetail("%s", bloom_status_message(st)),
				 errhint("A bloomfilter value comes from bloomtype's own output (text, binary or bytea form).")));
	v = (struct varlena *) palloc(VARHDRSZ + len);
	SET_VARSIZE(v, VARHDRSZ + len);
	memcpy(VARDATA(v), data, len);
	return v;
}

/* ---------------------------------------------------------------------
 * Type I/O
 * ---------------------------------------------------------------------
 */

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

PG_FUNCTION_INFO_V1(bloomfilter_in);
Datum
bloomfilter_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	size_t		len = strlen(str);
	size_t		nbytes;
	char	   *buf;
	struct varlena *v;

	if (len < 2 || str[0] != '\\' || str[1] != 'x')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type bloomfilter"),
				 errdetail("The text form must start with \"\\x\"."),
				 errhint("A bloomfilter is written as \\x followed by the hex digits of its binary form, as bytea prints.")));
	len -= 2;
	if (len % 2 != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type bloomfilter"),
				 errdetail("The hex digits after \"\\x\" are odd in number.")));
	nbytes = len / 2;
	if (nbytes > BLOOM_MAX_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloomfilter value is too large")));
	buf = palloc_extended(Max(nbytes, 1), MCXT_ALLOC_HUGE);
	for (size_t i = 0; i < nbytes; i++)
	{
		int			hi = hexval(str[2 + 2 * i]);
		int			lo = hexval(str[3 + 2 * i]);

		if (hi < 0 || lo < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type bloomfilter"),
					 errdetail("\"%.2s\" at byte %zu is not a hexadecimal byte.",
							   str + 2 + 2 * i, i)));
		buf[i] = (char) ((hi << 4) | lo);
	}
	v = bloom_from_bytes(buf, nbytes, ERRCODE_INVALID_TEXT_REPRESENTATION);
	pfree(buf);
	PG_RETURN_POINTER(v);
}

PG_FUNCTION_INFO_V1(bloomfilter_out);
Datum
bloomfilter_out(PG_FUNCTION_ARGS)
{
	struct varlena *v = canonical(PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));
	size_t		len = BLOOM_LEN(v);
	char	   *out;

	if (len > (MaxAllocSize - 3) / 2)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloomfilter value of %zu bytes is too large for its text form", len),
				 errhint("Use binary COPY or the bytea cast for filters over 512 MB.")));
	out = palloc(2 * len + 3);
	out[0] = '\\';
	out[1] = 'x';
	hex_encode((const char *) BLOOM_DATA(v), len, out + 2);
	out[2 + 2 * len] = '\0';
	PG_RETURN_CSTRING(out);
}

PG_FUNCTION_INFO_V1(bloomfilter_recv);
Datum
bloomfilter_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			len = buf->len - buf->cursor;
	const char *data = pq_getmsgbytes(buf, len);

	PG_RETURN_POINTER(bloom_from_bytes(data, len, ERRCODE_INVALID_BINARY_REPRESENTATION));
}

/* Also the cast to bytea: the same bytes */
PG_FUNCTION_INFO_V1(bloomfilter_send);
Datum
bloomfilter_send(PG_FUNCTION_ARGS)
{
	struct varlena *v = canonical(PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));
	bytea	   *result = (bytea *) palloc(VARSIZE(v));

	memcpy(result, v, VARSIZE(v));
	PG_RETURN_BYTEA_P(result);
}

PG_FUNCTION_INFO_V1(bloomfilter_from_bytea);
Datum
bloomfilter_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);

	PG_RETURN_POINTER(bloom_from_bytes(VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b),
									   ERRCODE_INVALID_BINARY_REPRESENTATION));
}

/* ---------------------------------------------------------------------
 * Equality and hashing (for GROUP BY, DISTINCT, UNION)
 * ---------------------------------------------------------------------
 */

static bool
bloom_equal(FunctionCallInfo fcinfo)
{
	struct varlena *a = canonical(PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));
	struct varlena *b = canonical(PG_DETOAST_DATUM(PG_GETARG_DATUM(1)));

	return VARSIZE(a) == VARSIZE(b) &&
		memcmp(VARDATA(a), VARDATA(b), BLOOM_LEN(a)) == 0;
}

/*
 * A total order on the canonical bytes, so that sorting plans (DISTINCT
 * inside aggregates, merge joins, ORDER BY) work; it means nothing more.
 */
static int
bloom_cmp_internal(FunctionCallInfo fcinfo)
{
	struct varlena *a = canonical(PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));
	struct varlena *b = canonical(PG_DETOAST_DATUM(PG_GETARG_DATUM(1)));
	size_t		la = BLOOM_LEN(a),
				lb = BLOOM_LEN(b);
	int			c = memcmp(VARDATA(a), VARDATA(b), Min(la, lb));

	if (c != 0)
		return c < 0 ? -1 : 1;
	return la < lb ? -1 : (la > lb ? 1 : 0);
}

PG_FUNCTION_INFO_V1(bloomfilter_cmp);
Datum
bloomfilter_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(bloom_cmp_internal(fcinfo));
}

PG_FUNCTION_INFO_V1(bloomfilter_lt);
Datum
bloomfilter_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_cmp_internal(fcinfo) < 0);
}

PG_FUNCTION_INFO_V1(bloomfilter_le);
Datum
bloomfilter_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_cmp_internal(fcinfo) <= 0);
}

PG_FUNCTION_INFO_V1(bloomfilter_gt);
Datum
bloomfilter_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_cmp_internal(fcinfo) > 0);
}

PG_FUNCTION_INFO_V1(bloomfilter_ge);
Datum
bloomfilter_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_cmp_internal(fcinfo) >= 0);
}

PG_FUNCTION_INFO_V1(bloomfilter_eq);
Datum
bloomfilter_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_equal(fcinfo));
}

PG_FUNCTION_INFO_V1(bloomfilter_ne);
Datum
bloomfilter_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(!bloom_equal(fcinfo));
}

PG_FUNCTION_INFO_V1(bloomfilter_hash);
Datum
bloomfilter_hash(PG_FUNCTION_ARGS)
{
	struct varlena *v = canonical(PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));

	return hash_any(BLOOM_DATA(v), (int) BLOOM_LEN(v));
}

PG_FUNCTION_INFO_V1(bloomfilter_hash_extended);
Datum
bloomfilter_hash_extended(PG_FUNCTION_ARGS)
{
	struct varlena *v = canonical(PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));

	return hash_any_extended(BLOOM_DATA(v), (int) BLOOM_LEN(v),
							 PG_GETARG_INT64(1));
}

/* ---------------------------------------------------------------------
 * Constructors, add, contains
 * ---------------------------------------------------------------------
 */

PG_FUNCTION_INFO_V1(bloom_empty);
Datum
bloom_empty(PG_FUNCTION_ARGS)
{
	int64		capacity = PG_GETARG_INT64(0);
	double		fpr = PG_GETARG_FLOAT8(1);
	BloomPlan  *plan = fcinfo->flinfo->fn_extra;

	bloom_check_params(capacity, fpr);
	if (plan == NULL)
		plan = fcinfo->flinfo->fn_extra =
			MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(BloomPlan));
	PG_RETURN_POINTER(bloom_new_blocked((uint64) capacity, fpr, plan,
										CurrentMemoryContext));
}

/*
 * bloom_empty(capacity [, fpr [, expansion]]) from version 1.2: scalable
 * with expansion 2 unless told otherwise.
 */
PG_FUNCTION_INFO_V1(bloom_empty_scalable);
Datum
bloom_empty_scalable(PG_FUNCTION_ARGS)
{
	int64		capacity = PG_GETARG_INT64(0);
	double		fpr = PG_NARGS() > 1 ? PG_GETARG_FLOAT8(1) : BLOOM_DEFAULT_FPR;
	int32		expansion = PG_NARGS() > 2 ? PG_GETARG_INT32(2) : BLOOM_DEFAULT_EXPANSION;
	BloomPlan  *plan = fcinfo->flinfo->fn_extra;

	bloom_check_scalable_params(capacity, fpr, expansion);
	if (plan == NULL)
		plan = fcinfo->flinfo->fn_extra =
			MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(BloomPlan));
	{
		struct varlena *v = bloom_new_scalable((uint64) capacity, fpr, expansion, plan,
											   CurrentMemoryContext);

		bloom_warn_if_cannot_grow(v);
		PG_RETURN_POINTER(v);
	}
}

BloomCallCache *
bloom_call_cache(FunctionCallInfo fcinfo, BloomKeyEnc enc, bool elements)
{
	BloomCallCache *cache = fcinfo->flinfo->fn_extra;

	if (cache == NULL)
	{
		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt,
									   sizeof(BloomCallCache));
		cache->arg_stable = -1;
		fcinfo->flinfo->fn_extra = cache;
	}
	if (!cache->key_ready)
	{
		bloom_keyinfo_init(&cache->key, enc, fcinfo, 1, elements);
		cache->key_ready = true;
	}
	return cache;
}

/*
 * A copy of filter v for probing, decoded into f; returns the memory to
 * free.  The bits start on a cache line, so that a 64-byte block is one
 * line; a large filter's bits start on a 2 MB boundary and are offered to
 * the kernel for huge pages, which spares a TLB miss on most lookups.
 */
#define HUGE_PAGE_SIZE	(2 * 1024 * 1024)

static void *
aligned_copy(struct varlena *v, BloomFilter *f, MemoryContext cxt)
{
	size_t		len = BLOOM_LEN(v);
	size_t		align = len >= 2 * HUGE_PAGE_SIZE ? HUGE_PAGE_SIZE : PG_CACHE_LINE_SIZE;
	size_t		head = BLOOM_HEADER_SIZE;
	char	   *mem;
	uint8	   *data;
	uint8	   *buf;

	/*
	 * The bits of a scalable filter come after its layer descriptors: read
	 * the layout from v itself (f may describe a filter cached before).
	 */
	if (bloom_decode(BLOOM_DATA(v), len, f) != BLOOM_OK)
		elog(ERROR, "a valid bloomfilter does not decode");
	if (f->kind == BLOOM_KIND_SCALABLE)
		head += f->nslots * BLOOM_LAYER_DESC_SIZE;
	mem = MemoryContextAllocHuge(cxt, len + align);
	data = (uint8 *) TYPEALIGN(align, mem + head);
	buf = data - head;

#ifdef MADV_HUGEPAGE
	if (align == HUGE_PAGE_SIZE)
		(void) madvise(data, (len - head) / HUGE_PAGE_SIZE * HUGE_PAGE_SIZE,
					   MADV_HUGEPAGE);
#endif
	memcpy(buf, BLOOM_DATA(v), len);
	if (bloom_decode(buf, len, f) != BLOOM_OK)
		elog(ERROR, "copy of a valid bloomfilter does not decode");
	return mem;
}

/* Is argument argno of this call a constant? */
static bool
arg_is_const(FunctionCallInfo fcinfo, int argno)
{
	Node	   *expr = fcinfo->flinfo->fn_expr;
	List	   *args;

	if (expr == NULL)
		return false;
	if (IsA(expr, FuncExpr))
		args = ((FuncExpr *) expr)->args;
	else if (IsA(expr, OpExpr))
		args = ((OpExpr *) expr)->args;
	else
		return false;
	return argno < list_length(args) && IsA(list_nth(args, argno), Const);
}

/*
 * The filter to probe, detoasted and validated once per query when the
 * argument is the same datum on every row: a constant (kept for the whole
 * query), or a TOASTed value, remembered by its TOAST pointer, so that an
 * initplan such as (SELECT f FROM filters WHERE ...) or a join partner is
 * fetched once, not once per row.  (PostGIS keeps a similar per-call-site
 * cache of detoasted geometries.)  Parameters are not trusted to stay the
 * same: PL/pgSQL keeps a call site's state across changes of its
 * variables.  Values in memory are decoded per call, which reads the
 * header only.  The cache holds its own copy, never a pointer into memory
 * it does not own.
 */
BloomFilter *
bloom_probe_filter(FunctionCallInfo fcinfo, BloomCallCache *cache)
{
	struct varlena *raw = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(0));
	bool		ondisk = VARATT_IS_EXTERNAL_ONDISK(raw);
	struct varatt_external ext = {0};
	struct varlena *v;

	if (cache->arg_stable < 0)
		cache->arg_stable = arg_is_const(fcinfo, 0) ? 1 : 0;
	if (ondisk)
		VARATT_EXTERNAL_GET_POINTER(ext, raw);

	if (cache->have)
	{
		if (cache->arg_stable)
			return &cache->filter;
		if (ondisk && ext.va_valueid == cache->valueid &&
			ext.va_toastrelid == cache->toastrelid)
			return &cache->filter;
	}

	if (!cache->arg_stable && !ondisk)
	{
		(void) get_filter_arg(fcinfo, 0, &cache->scratch);
		return &cache->scratch;
	}

	/* detoast, and keep an aligned copy in the call site's memory */
	if (cache->have)
		pfree(cache->value);
	cache->have = false;
	v = get_filter_arg(fcinfo, 0, &cache->scratch);
	cache->value = aligned_copy(v, &cache->filter, fcinfo->flinfo->fn_mcxt);
	cache->toastrelid = ext.va_toastrelid;
	cache->valueid = ext.va_valueid;
	cache->have = true;
	return &cache->filter;
}

static Datum
contains_common(FunctionCallInfo fcinfo, BloomKeyEnc enc)
{
	BloomCallCache *cache = bloom_call_cache(fcinfo, enc, false);
	BloomFilter *f = bloom_probe_filter(fcinfo, cache);

	if (f->key_class == BLOOM_KEY_NONE)
		PG_RETURN_BOOL(false);	/* nothing was ever added */
	bloom_check_key(f, &cache->key, false);
	PG_RETURN_BOOL(bloom_filter_contains(f, bloom_key_hash_fast(&cache->key,
																PG_GETARG_DATUM(1),
																f->seed)));
}

/*
 * A new filter with the defaults of create-on-add (bloom_add(NULL, key)
 * from version 1.2): scalable, BLOOM_CREATE_CAPACITY keys in its first
 * layer, 1%, expansion 2.
 */
struct varlena *
bloom_create_default(BloomFilter *f)
{
	struct varlena *v = bloom_new_scalable(BLOOM_CREATE_CAPACITY, BLOOM_DEFAULT_FPR,
										   BLOOM_DEFAULT_EXPANSION, NULL,
										   CurrentMemoryContext);

	bloom_decode_or_error(v, f);
	return v;
}

/*
 * bloom_add(f, key).  A NULL key adds nothing.  A NULL filter gives NULL
 * (version 1.0) or, with create, a new filter (1.2).
 */
/*
 * The filter an add function (filter in argument 0, key or keys in
 * argument 1) adds to: a private copy of argument 0, or with create a new
 * filter where argument 0 is NULL.  NULL when there is nothing to add to
 * (a NULL filter without create) or nothing to add (NULL keys): the
 * function then returns argument 0 as it is.
 */
struct varlena *
bloom_add_target(FunctionCallInfo fcinfo, bool create, BloomFilter *f)
{
	if (PG_ARGISNULL(1) || (PG_ARGISNULL(0) && !create))
		return NULL;
	if (PG_ARGISNULL(0))
		return bloom_create_default(f);
	return bloom_filter_arg_copy(fcinfo, 0, f, create);
}

static Datum
add_common(FunctionCallInfo fcinfo, BloomKeyEnc enc, bool create)
{
	BloomCallCache *cache;
	struct varlena *v;
	BloomFilter f;

	if ((v = bloom_add_target(fcinfo, create, &f)) == NULL)
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	cache = bloom_call_cache(fcinfo, enc, false);
	bloom_admit_key(v, &f, &cache->key);
	v = bloom_add_hash(v, &f, bloom_key_hash_fast(&cache->key, PG_GETARG_DATUM(1), f.seed),
					   NULL, CurrentMemoryContext);
	PG_RETURN_POINTER(v);
}

static Datum
add_v10(FunctionCallInfo fcinfo, BloomKeyEnc enc)
{
	return add_common(fcinfo, enc, false);
}

static Datum
add_create(FunctionCallInfo fcinfo, BloomKeyEnc enc)
{
	return add_common(fcinfo, enc, true);
}

#define BLOOM_KEY_ENTRY(name, common, enc) \
	PG_FUNCTION_INFO_V1(name); \
	Datum name(PG_FUNCTION_ARGS) { return common(fcinfo, enc); }

BLOOM_KEY_ENTRY(bloom_contains_any, contains_common, BKE_UNKNOWN)
BLOOM_KEY_ENTRY(bloom_contains_int8, contains_common, BKE_INT8)
BLOOM_KEY_ENTRY(bloom_contains_int4, contains_common, BKE_INT4)
BLOOM_KEY_ENTRY(bloom_contains_int2, contains_common, BKE_INT2)
BLOOM_KEY_ENTRY(bloom_contains_text, contains_common, BKE_TEXT)
BLOOM_KEY_ENTRY(bloom_contains_bytea, contains_common, BKE_BYTEA)
BLOOM_KEY_ENTRY(bloom_contains_uuid, contains_common, BKE_UUID)
BLOOM_KEY_ENTRY(bloom_add_any, add_v10, BKE_UNKNOWN)
BLOOM_KEY_ENTRY(bloom_add_int8, add_v10, BKE_INT8)
BLOOM_KEY_ENTRY(bloom_add_int4, add_v10, BKE_INT4)
BLOOM_KEY_ENTRY(bloom_add_int2, add_v10, BKE_INT2)
BLOOM_KEY_ENTRY(bloom_add_text, add_v10, BKE_TEXT)
BLOOM_KEY_ENTRY(bloom_add_bytea, add_v10, BKE_BYTEA)
BLOOM_KEY_ENTRY(bloom_add_uuid, add_v10, BKE_UUID)
BLOOM_KEY_ENTRY(bloom_add_create_any, add_create, BKE_UNKNOWN)
BLOOM_KEY_ENTRY(bloom_add_create_int8, add_create, BKE_INT8)
BLOOM_KEY_ENTRY(bloom_add_create_int4, add_create, BKE_INT4)
BLOOM_KEY_ENTRY(bloom_add_create_int2, add_create, BKE_INT2)
BLOOM_KEY_ENTRY(bloom_add_create_text, add_create, BKE_TEXT)
BLOOM_KEY_ENTRY(bloom_add_create_bytea, add_create, BKE_BYTEA)
BLOOM_KEY_ENTRY(bloom_add_create_uuid, add_create, BKE_UUID)

/* ---------------------------------------------------------------------
 * Union and intersection
 * ---------------------------------------------------------------------
 */

static char *
describe_param(const BloomFilter *f, const char *what)
{
	if (strcmp(what, "capacity") == 0)
		return psprintf(UINT64_FORMAT, f->capacity);
	if (strcmp(what, "false-positive rate") == 0)
		return psprintf("%g", f->fpr);
	if (strcmp(what, "number of blocks") == 0)
		return psprintf(UINT64_FORMAT, f->nslots);
	if (strcmp(what, "hashes per key") == 0)
		return psprintf("%d", f->k);
	if (strcmp(what, "hash seed") == 0)
		return psprintf(UINT64_FORMAT, f->seed);
	if (strcmp(what, "expansion") == 0)
		return psprintf(UINT64_FORMAT, f->nused);
	if (strcmp(what, "growth policy") == 0)
		return pstrdup(f->kind == BLOOM_KIND_SCALABLE ? "\"scalable\"" :
					   (f->flags & BLOOM_FLAG_NONSCALING) ? "\"fixed, refuses keys past capacity\"" :
					   "\"fixed, takes keys past capacity (1.0)\"");
	if (strcmp(what, "kind") == 0)
		return pstrdup(f->kind == BLOOM_KIND_SCALABLE ? "\"scalable\"" : "\"blocked\"");
	return psprintf("%d", f->kind);
}

void
bloom_check_compatible(const BloomFilter *a, const BloomFilter *b)
{
	const char *what;

	if (bloom_compatible(a, b, &what) != BLOOM_OK)
	{
		if (strcmp(what, "key type") == 0)
			bloom_check_key_classes(a, b);
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot combine bloom filters with different %s", what),
				 errdetail("The first filter has %s %s, the second %s.",
						   what, describe_param(a, what), describe_param(b, what)),
				 errhint("Only filters built with the same capacity, false-positive rate and expansion combine, e.g. from bloom_empty(capacity, fpr) or bloom_agg(key, capacity, fpr).")));
	}
}

/*
 * Combines b into the private copy a (whose header f describes), bit by
 * bit: union or intersection.  Scalable filters combine layer by layer;
 * the result is a new value in cxt when b has more layers.  Returns the
 * result, decoded into fa.
 */
struct varlena *
bloom_merge_into(struct varlena *a, BloomFilter *fa, const BloomFilter *fb,
				 bool intersect, MemoryContext cxt)
{
	bloom_check_compatible(fa, fb);
	if (fa->kind == BLOOM_KIND_SCALABLE)
	{
		struct varlena *r;
		size_t		size;

		if (intersect && (fa->nslots > 1 || fb->nslots > 1))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("cannot intersect scalable bloom filters that have grown past their first layer"),
					 errdetail("The filters have " UINT64_FORMAT " and " UINT64_FORMAT " layers; a key can sit in different layers of the two, and a layer-by-layer intersection would lose it.",
							   fa->nslots, fb->nslots),
					 errhint("Test both filters instead: bloom_contains(a, key) AND bloom_contains(b, key).")));
		if (intersect)
		{
			bloom_intersect_bits(fa->layers[0].data, fb->layers[0].data,
								 fa->layers[0].nblocks * BLOOM_BLOCK_BYTES);
			fa->layers[0].nitems = Min(fa->layers[0].nitems, fb->layers[0].nitems);
			fa->nitems = fa->layers[0].nitems;
			if (fa->key_class == BLOOM_KEY_NONE)
				bloom_set_key_class(a, fa, fb->key_class, fb->key_type);
			bloom_write_header(BLOOM_DATA(a), fa);
			return a;
		}
		size = bloom_scalable_union_size(fa, fb);
		r = (struct varlena *) MemoryContextAllocHuge(cxt, VARHDRSZ + size);
		SET_VARSIZE(r, VARHDRSZ + size);
		bloom_scalable_union(BLOOM_DATA(r), fa, fb);
		bloom_decode_or_error(r, fa);
		return r;
	}
	if (fa->key_class == BLOOM_KEY_NONE)
		bloom_set_key_class(a, fa, fb->key_class, fb->key_type);
	if (intersect)
	{
		bloom_intersect_bits(fa->data, fb->data, fa->nslots * BLOOM_BLOCK_BYTES);
		fa->nitems = Min(fa->nitems, fb->nitems);
	}
	else
	{
		bloom_union_bits(fa->data, fb->data, fa->nslots * BLOOM_BLOCK_BYTES);
		fa->nitems = (fa->nitems > UINT64_MAX - fb->nitems) ?
			UINT64_MAX : fa->nitems + fb->nitems;
	}
	bloom_write_header(BLOOM_DATA(a), fa);
	return a;
}

/*
 * Union or intersection.  An empty hash list (what bloom_agg gives for no
 * rows when it cannot know a size) holds nothing and has no size: it is
 * the identity of union and the zero of intersection.
 */
static Datum
merge_common(FunctionCallInfo fcinfo, bool intersect, bool scalable)
{
	struct varlena *orig = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(0));
	struct varlena *a = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	struct varlena *b = PG_DETOAST_DATUM(PG_GETARG_DATUM(1));
	BloomFilter fa,
				fb;

	bloom_decode_or_error(a, &fa);
	bloom_decode_or_error(b, &fb);
	if (bloom_is_empty_hashlist(&fa))
		PG_RETURN_POINTER(intersect ? a : b);
	if (bloom_is_empty_hashlist(&fb))
		PG_RETURN_POINTER(intersect ? b : a);

	/* aggregate states as the filters they stand for; a private result */
	a = as_blocked_as(a, &fa, orig, scalable);
	b = as_blocked_as(b, &fb, NULL, scalable);
	PG_RETURN_POINTER(bloom_merge_into(a, &fa, &fb, intersect, CurrentMemoryContext));
}

PG_FUNCTION_INFO_V1(bloom_union);
Datum
bloom_union(PG_FUNCTION_ARGS)
{
	return merge_common(fcinfo, false, false);
}

/* 1.2: an aggregate's hash list is read as the scalable filter 1.2 makes */
PG_FUNCTION_INFO_V1(bloom_union_scalable);
Datum
bloom_union_scalable(PG_FUNCTION_ARGS)
{
	return merge_common(fcinfo, false, true);
}

PG_FUNCTION_INFO_V1(bloom_intersect);
Datum
bloom_intersect(PG_FUNCTION_ARGS)
{
	return merge_common(fcinfo, true, false);
}

PG_FUNCTION_INFO_V1(bloom_intersect_scalable);
Datum
bloom_intersect_scalable(PG_FUNCTION_ARGS)
{
	return merge_common(fcinfo, true, true);
}

/* ---------------------------------------------------------------------
 * Inspection
 * ---------------------------------------------------------------------
 */

static int64
clamp_int64(uint64 v)
{
	return v > (uint64) PG_INT64_MAX ? PG_INT64_MAX : (int64) v;
}

/*
 * bloom_info: version 1.0's entry point describes an aggregate's hash list
 * as the blocked filter 1.0 makes of it, 1.2's (bloom_info_scalable) as
 * the scalable filter 1.2 makes of it.
 */
static Datum
info_common(FunctionCallInfo fcinfo, bool scalable_view)
{
	BloomFilter f;
	struct varlena *v = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	TupleDesc	tupdesc;
	Datum		values[15];
	bool		nulls[15] = {0};
	double		est;
	double		efpr;
	bool		scalable;
	uint64		capacity;

	bloom_decode_or_error(v, &f);
	v = as_blocked_as(v, &f, NULL, scalable_view);
	scalable = f.kind == BLOOM_KIND_SCALABLE;
	capacity = f.capacity;

	/* the row has 12 columns in versions 1.0 and 1.1, 15 from 1.2 */
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE ||
		(tupdesc->natts != 12 && tupdesc->natts != 15))
		elog(ERROR, "return type must be a row type of 12 or 15 columns");
	tupdesc = BlessTupleDesc(tupdesc);

	if (scalable)
	{
		/* BF.INFO's capacity: what the layers there are hold */
		capacity = 0;
		for (uint64 i = 0; i < f.nslots; i++)
			capacity = f.layers[i].capacity > UINT64_MAX - capacity ? UINT64_MAX :
				capacity + f.layers[i].capacity;
	}
	est = bloom_estimate_items(&f);
	efpr = bloom_estimate_fpr(&f);
	values[0] = CStringGetTextDatum(scalable ? "scalable" : "blocked");
	values[1] = Int64GetDatum(clamp_int64(capacity));
	values[2] = Float8GetDatum(f.fpr);
	values[3] = Int64GetDatum((int64) ((scalable ? bloom_scalable_blocks(&f) : f.nslots) *
									   BLOOM_BLOCK_BITS));
	values[4] = Int32GetDatum(scalable ? f.layers[f.nslots - 1].k : f.k);
	values[5] = Int64GetDatum((int64) VARSIZE(v));
	values[6] = Int64GetDatum(clamp_int64(f.nitems));
	values[7] = Int64GetDatum((int64) bloom_bits_set(&f));
	values[8] = Int64GetDatum((int64) llround(est));
	values[9] = Float8GetDatum(efpr);
	values[10] = CStringGetTextDatum(bloom_key_class_name(f.key_class, f.key_type));
	values[11] = Int32GetDatum(f.version);
	values[12] = Int32GetDatum(scalable ? (int32) f.nslots : 1);
	/* expansion: NULL for a 1.0 filter, which has no growth policy */
	values[13] = Int32GetDatum(scalable ? (int32) f.nused : 0);
	nulls[13] = !scalable && !(f.flags & BLOOM_FLAG_NONSCALING);
	values[14] = Float8GetDatum(efpr / f.fpr);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

PG_FUNCTION_INFO_V1(bloom_info);
Datum
bloom_info(PG_FUNCTION_ARGS)
{
	return info_common(fcinfo, false);
}

PG_FUNCTION_INFO_V1(bloom_info_scalable);
Datum
bloom_info_scalable(PG_FUNCTION_ARGS)
{
	return info_common(fcinfo, true);
}

PG_FUNCTION_INFO_V1(bloom_cardinality);
Datum
bloom_cardinality(PG_FUNCTION_ARGS)
{
	BloomFilter f;

	get_filter_arg(fcinfo, 0, &f);
	PG_RETURN_INT64((int64) llround(bloom_estimate_items(&f)));
}
