/*-------------------------------------------------------------------------
 *
 * bloom_core.c
 *		Filter algorithms of bloomtype, in plain C (no PostgreSQL headers).
 *
 * The layout is a blocked Bloom filter: every key sets its k bits inside
 * one 512-bit (64-byte) block chosen by the hash, so a lookup touches one
 * cache line however large the filter is (Putze, Sanders, Singler,
 * "Cache-, Hash- and Space-Efficient Bloom Filters", WEA 2007; the same
 * idea as RocksDB's FastLocalBloom and Parquet's split-block filters).
 *
 * Sizing uses that layout's own false-positive model: the number of keys
 * that land in a block is Poisson distributed with mean lambda = n / blocks,
 * and a block holding j keys answers a random probe falsely with
 * probability (1 - (1 - 1/B)^(k j))^k, B = 512.  The expected rate is the
 * Poisson mixture of these (Putze et al., section 3).  For a requested
 * rate we find, for each k, the largest lambda whose mixture stays at or
 * under the rate, and keep the k that allows the largest lambda.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_core.h"

#include <math.h>

/*
 * Rates are planned with a small margin under the requested rate, so that
 * a filter filled to exactly its capacity measures at or under the target
 * despite the granularity of whole blocks and hash imperfection.
 */
#define BLOOM_PLAN_MARGIN	0.99

/* lambda is rounded down to this grid so that sizing is reproducible */
#define BLOOM_LAMBDA_GRID	4096.0

bool
bloom_fpr_valid(double fpr)
{
	return fpr >= BLOOM_MIN_FPR && fpr <= BLOOM_MAX_FPR;	/* false for NaN */
}

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

BloomStatus
bloom_plan_size(const BloomPlan *plan, uint64_t capacity, uint64_t *nblocks)
{
	double		blocks;

	if (capacity == 0)
		return BLOOM_E_PARAMS;
	blocks = ceil((double) capacity / plan->keys_per_block);
	if (blocks < 1.0)
		blocks = 1.0;
	if (blocks > (double) BLOOM_MAX_BLOCKS)
		return BLOOM_E_CAPACITY;
	*nblocks = (uint64_t) blocks;
	return BLOOM_OK;
}

uint64_t
bloom_plan_max_capacity(const BloomPlan *plan)
{
	uint64_t	cap = (uint64_t) floor((double) BLOOM_MAX_BLOCKS * plan->keys_per_block);
	uint64_t	nb;

	while (cap > 0 && bloom_plan_size(plan, cap, &nb) != BLOOM_OK)
		cap--;
	return cap;
}

size_t
bloom_blocked_size(uint64_t nblocks)
{
	return BLOOM_HEADER_SIZE + (size_t) nblocks * BLOOM_BLOCK_BYTES;
}

size_t
bloom_buffered_size(uint64_t nblocks)
{
	return bloom_blocked_size(nblocks) + BLOOM_PENDING_SLOTS * 8;
}

size_t
bloom_hashlist_size(uint64_t nslots)
{
	return BLOOM_HEADER_SIZE + (size_t) nslots * 8;
}

void
bloom_write_header(uint8_t *buf, const BloomFilter *f)
{
	uint64_t	fbits;

	buf[0] = BLOOM_MAGIC_0;
	buf[1] = BLOOM_MAGIC_1;
	buf[2] = BLOOM_MAGIC_2;
	buf[3] = BLOOM_MAGIC_3;
	buf[4] = f->version;
	buf[5] = f->kind;
	buf[6] = f->hash;
	buf[7] = f->key_class;
	buf[8] = (uint8_t) f->key_type;
	buf[9] = (uint8_t) (f->key_type >> 8);
	buf[10] = (uint8_t) (f->key_type >> 16);
	buf[11] = (uint8_t) (f->key_type >> 24);
	buf[12] = f->k;
	buf[13] = f->block_log2;
	buf[14] = (uint8_t) f->flags;
	buf[15] = (uint8_t) (f->flags >> 8);
	bloom_put_le64(buf + 16, f->seed);
	bloom_put_le64(buf + 24, f->capacity);
	memcpy(&fbits, &f->fpr, 8);
	bloom_put_le64(buf + 32, fbits);
	bloom_put_le64(buf + 40, f->nitems);
	bloom_put_le64(buf + 48, f->nslots);
	bloom_put_le64(buf + 56, f->nused);
	if (f->kind == BLOOM_KIND_SCALABLE)
	{
		for (uint64_t i = 0; i < f->nslots; i++)
		{
			uint8_t    *d = buf + BLOOM_HEADER_SIZE + i * BLOOM_LAYER_DESC_SIZE;

			bloom_put_le64(d, f->layers[i].nblocks);
			bloom_put_le64(d + 8, f->layers[i].capacity);
			bloom_put_le64(d + 16, f->layers[i].nitems);
			memset(d + 24, 0, 8);
			d[24] = (uint8_t) f->layers[i].k;
		}
	}
}

static void
init_common(BloomFilter *f, uint8_t *buf, int kind, uint64_t nslots,
			uint64_t capacity, double fpr, uint64_t seed)
{
	memset(f, 0, sizeof(*f));
	f->version = BLOOM_FORMAT_VERSION;
	f->kind = (uint8_t) kind;
	f->hash = BLOOM_HASH_XXH3_64;
	f->key_class = BLOOM_KEY_NONE;
	f->seed = seed;
	f->capacity = capacity;
	f->fpr = fpr;
	f->nslots = nslots;
	f->data = buf + BLOOM_HEADER_SIZE;
}

/* Writes an empty blocked filter into buf (bloom_blocked_size bytes). */
void
bloom_init_blocked(uint8_t *buf, uint64_t nblocks, int k, uint64_t capacity,
				   double fpr, uint64_t seed)
{
	BloomFilter f;

	init_common(&f, buf, BLOOM_KIND_BLOCKED, nblocks, capacity, fpr, seed);
	f.k = (uint8_t) k;
	f.block_log2 = BLOOM_BLOCK_LOG2;
	bloom_write_header(buf, &f);
	memset(buf + BLOOM_HEADER_SIZE, 0, (size_t) nblocks * BLOOM_BLOCK_BYTES);
}

/*
 * Writes an empty blocked filter with room for pending hashes into buf
 * (bloom_buffered_size bytes): the state of a fixed-capacity aggregate,
 * which collects hashes and inserts them in batches.
 */
void
bloom_init_buffered(uint8_t *buf, uint64_t nblocks, int k, uint64_t capacity,
					double fpr, uint64_t seed)
{
	bloom_init_blocked(buf, nblocks, k, capacity, fpr, seed);
	buf[5] = BLOOM_KIND_BUFFERED;
	memset(buf + bloom_blocked_size(nblocks), 0, BLOOM_PENDING_SLOTS * 8);
}

/* Writes an empty hash list into buf (bloom_hashlist_size bytes). */
void
bloom_init_hashlist(uint8_t *buf, uint64_t nslots, uint64_t capacity,
					double fpr, uint64_t seed)
{
	BloomFilter f;

	init_common(&f, buf, BLOOM_KIND_HASHLIST, nslots, capacity, fpr, seed);
	bloom_write_header(buf, &f);
	memset(buf + BLOOM_HEADER_SIZE, 0, (size_t) nslots * 8);
}

static void scalable_point(BloomFilter *f);

/* Validates the rest of a kind-4 value; the common header is checked */
static BloomStatus
decode_scalable(const uint8_t *buf, size_t len, BloomFilter *f)
{
	uint64_t	total = 0;
	uint64_t	items = 0;

	if (f->k != 0 || f->block_log2 != BLOOM_BLOCK_LOG2 ||
		f->nslots < 1 || f->nslots > BLOOM_MAX_LAYERS)
		return BLOOM_E_GEOMETRY;
	if (f->nused < 1 || f->nused > BLOOM_MAX_EXPANSION ||
		f->capacity < 1 || !bloom_scalable_fpr_valid(f->fpr))
		return BLOOM_E_PARAMS;
	if (len < BLOOM_HEADER_SIZE + f->nslots * BLOOM_LAYER_DESC_SIZE)
		return BLOOM_E_LENGTH;

	for (uint64_t i = 0; i < f->nslots; i++)
	{
		const uint8_t *d = buf + BLOOM_HEADER_SIZE + i * BLOOM_LAYER_DESC_SIZE;
		BloomLayer *l = &f->layers[i];
		uint64_t	expect;

		l->nblocks = bloom_get_le64(d);
		l->capacity = bloom_get_le64(d + 8);
		l->nitems = bloom_get_le64(d + 16);
		l->k = d[24];
		if (l->k < 1 || l->k > BLOOM_MAX_HASHES ||
			l->nblocks < 1 || l->nblocks > BLOOM_MAX_BLOCKS - total)
			return BLOOM_E_GEOMETRY;
		for (int j = 25; j < BLOOM_LAYER_DESC_SIZE; j++)
			if (d[j] != 0)
				return BLOOM_E_FLAGS;
		/* capacities are the first layer's times expansion^i */
		expect = i == 0 ? f->capacity : f->layers[i - 1].capacity * f->nused;
		if (i > 0 && f->layers[i - 1].capacity > UINT64_MAX / f->nused)
			return BLOOM_E_PARAMS;
		if (l->capacity != expect || l->capacity > l->nblocks * BLOOM_BLOCK_BITS)
			return BLOOM_E_PARAMS;
		total += l->nblocks;
		items = l->nitems > UINT64_MAX - items ? UINT64_MAX : items + l->nitems;
	}
	if (items != f->nitems)
		return BLOOM_E_COUNT;
	if (len > BLOOM_MAX_BYTES || len != bloom_scalable_size(f->nslots, total))
		return BLOOM_E_LENGTH;

	scalable_point(f);
	return BLOOM_OK;
}

/*
 * Decodes and validates a value of len bytes.  Every field is checked, and
 * the length against the geometry, before anything else reads the payload.
 */
BloomStatus
bloom_decode(const uint8_t *buf, size_t len, BloomFilter *f)
{
	uint64_t	fbits;

	uint64_t	w0,
				w1;

	if (len < BLOOM_HEADER_SIZE)
		return BLOOM_E_SHORT;
	/* eight-byte words, then fields: this runs once per aggregated row */
	w0 = bloom_get_le64(buf);
	w1 = bloom_get_le64(buf + 8);
	if ((uint32_t) w0 != ((uint32_t) BLOOM_MAGIC_0 | (uint32_t) BLOOM_MAGIC_1 << 8 |
						  (uint32_t) BLOOM_MAGIC_2 << 16 | (uint32_t) BLOOM_MAGIC_3 << 24))
		return BLOOM_E_MAGIC;

	f->version = (uint8_t) (w0 >> 32);
	f->kind = (uint8_t) (w0 >> 40);
	f->hash = (uint8_t) (w0 >> 48);
	f->key_class = (uint8_t) (w0 >> 56);
	f->key_type = (uint32_t) w1;
	f->k = (uint8_t) (w1 >> 32);
	f->block_log2 = (uint8_t) (w1 >> 40);
	f->flags = (uint16_t) (w1 >> 48);
	f->seed = bloom_get_le64(buf + 16);
	f->capacity = bloom_get_le64(buf + 24);
	fbits = bloom_get_le64(buf + 32);
	memcpy(&f->fpr, &fbits, 8);
	f->nitems = bloom_get_le64(buf + 40);
	f->nslots = bloom_get_le64(buf + 48);
	f->nused = bloom_get_le64(buf + 56);
	f->data = (uint8_t *) buf + BLOOM_HEADER_SIZE;

	if (f->version != BLOOM_FORMAT_VERSION && f->version != BLOOM_FORMAT_VERSION_2)
		return BLOOM_E_VERSION;
	if (f->kind < BLOOM_KIND_BLOCKED || f->kind > BLOOM_KIND_SCALABLE)
		return BLOOM_E_KIND;
	if (f->hash != BLOOM_HASH_XXH3_64)
		return BLOOM_E_HASH;
	if (f->key_class > BLOOM_KEY_MAX ||
		(f->key_class == BLOOM_KEY_OTHER) != (f->key_type != 0))
		return BLOOM_E_KEYCLASS;

	/*
	 * A value is written in the oldest version that can hold it, so each
	 * value has one encoding: version 2 exactly when it is scalable or has
	 * a flag.
	 */
	if (f->version == BLOOM_FORMAT_VERSION)
	{
		if (f->kind == BLOOM_KIND_SCALABLE)
			return BLOOM_E_KIND;
		if (f->flags != 0)
			return BLOOM_E_FLAGS;
	}
	else if (f->kind == BLOOM_KIND_SCALABLE)
	{
		if (f->flags != 0)
			return BLOOM_E_FLAGS;
		return decode_scalable(buf, len, f);
	}
	else if ((f->kind == BLOOM_KIND_BLOCKED && f->flags != BLOOM_FLAG_NONSCALING) ||
			 (f->kind == BLOOM_KIND_BUFFERED && f->flags != BLOOM_FLAG_SCALABLE_STATE) ||
			 f->kind == BLOOM_KIND_HASHLIST)
		return BLOOM_E_FLAGS;
	if (!bloom_fpr_valid(f->fpr) ||
		((f->flags & BLOOM_FLAG_SCALABLE_STATE) && !bloom_scalable_fpr_valid(f->fpr)))
		return BLOOM_E_PARAMS;

	if (bloom_has_bits(f))
	{
		if (f->k < 1 || f->k > BLOOM_MAX_HASHES ||
			f->block_log2 != BLOOM_BLOCK_LOG2 ||
			f->nslots < 1 || f->nslots > BLOOM_MAX_BLOCKS)
			return BLOOM_E_GEOMETRY;
		if (f->kind == BLOOM_KIND_BLOCKED && f->nused != 0)
			return BLOOM_E_FLAGS;
		if (f->kind == BLOOM_KIND_BUFFERED && f->nslots > BLOOM_MAX_BUFFERED_BLOCKS)
			return BLOOM_E_GEOMETRY;
		if (f->kind == BLOOM_KIND_BUFFERED &&
			(f->nused > BLOOM_PENDING_SLOTS || f->nitems < f->nused))
			return BLOOM_E_COUNT;
		if (f->capacity < 1 || f->capacity > f->nslots * BLOOM_BLOCK_BITS)
			return BLOOM_E_PARAMS;
		if (len != (f->kind == BLOOM_KIND_BLOCKED ?
					bloom_blocked_size(f->nslots) : bloom_buffered_size(f->nslots)))
			return BLOOM_E_LENGTH;
	}
	else
	{
		if (f->k != 0 || f->block_log2 != 0 || f->nslots > BLOOM_MAX_SLOTS)
			return BLOOM_E_GEOMETRY;
		if (f->capacity != 0)
			return BLOOM_E_PARAMS;
		if (f->nused > f->nslots || f->nitems < f->nused)
			return BLOOM_E_COUNT;
		if (len != bloom_hashlist_size(f->nslots))
			return BLOOM_E_LENGTH;
	}
	return BLOOM_OK;
}

const char *
bloom_status_message(BloomStatus st)
{
	switch (st)
	{
		case BLOOM_OK:
			return "The value is valid.";
		case BLOOM_E_SHORT:
			return "The value is shorter than the 64-byte header.";
		case BLOOM_E_MAGIC:
			return "The value does not start with the magic bytes \"BLMF\".";
		case BLOOM_E_VERSION:
			return "The format version is not one this build reads (it reads versions 1 and 2).";
		case BLOOM_E_KIND:
			return "The filter kind is unknown.";
		case BLOOM_E_HASH:
			return "The hash algorithm is unknown.";
		case BLOOM_E_KEYCLASS:
			return "The key class or key type is invalid.";
		case BLOOM_E_GEOMETRY:
			return "The geometry (hashes per key, block size or block count) is out of range.";
		case BLOOM_E_PARAMS:
			return "The capacity or false-positive rate is out of range.";
		case BLOOM_E_FLAGS:
			return "The flags or reserved fields are not zero.";
		case BLOOM_E_LENGTH:
			return "The length does not match the geometry in the header.";
		case BLOOM_E_COUNT:
			return "The item counts are inconsistent.";
		case BLOOM_E_CAPACITY:
			return "The capacity does not fit in the largest value.";
		case BLOOM_E_MISMATCH:
			return "The filters differ.";
	}
	return "Unknown error.";
}

/*
 * Can a and b be combined bit by bit?  On a mismatch *what names the first
 * parameter that differs.  Filters that hold nothing yet match any key
 * class.
 */
BloomStatus
bloom_compatible(const BloomFilter *a, const BloomFilter *b, const char **what)
{
	*what = NULL;
	if (bloom_has_bits(a) != bloom_has_bits(b) ||
		(!bloom_has_bits(a) && a->kind != b->kind))
		*what = "kind";
	else if (a->flags != b->flags)
		*what = "growth policy";
	else if (a->kind == BLOOM_KIND_SCALABLE && a->nused != b->nused)
		*what = "expansion";
	else if (a->hash != b->hash)
		*what = "hash algorithm";
	else if (a->seed != b->seed)
		*what = "hash seed";
	else if (a->capacity != b->capacity)
		*what = "capacity";
	else if (a->fpr != b->fpr)
		*what = "false-positive rate";
	else if (a->nslots != b->nslots && bloom_has_bits(a))
		*what = "number of blocks";
	else if (a->k != b->k)
		*what = "hashes per key";
	else if (a->key_class != BLOOM_KEY_NONE && b->key_class != BLOOM_KEY_NONE &&
			 (a->key_class != b->key_class || a->key_type != b->key_type))
		*what = "key type";
	else if (a->kind == BLOOM_KIND_SCALABLE)
	{
		/* layers both have were planned alike: a crafted value may differ */
		for (uint64_t i = 0; i < a->nslots && i < b->nslots; i++)
			if (a->layers[i].nblocks != b->layers[i].nblocks ||
				a->layers[i].k != b->layers[i].k)
				*what = "layer geometry";
	}
	return *what ? BLOOM_E_MISMATCH : BLOOM_OK;
}

void
bloom_union_bits(uint8_t *dst, const uint8_t *src, uint64_t nbytes)
{
	for (uint64_t i = 0; i < nbytes; i++)
		dst[i] |= src[i];
}

void
bloom_intersect_bits(uint8_t *dst, const uint8_t *src, uint64_t nbytes)
{
	for (uint64_t i = 0; i < nbytes; i++)
		dst[i] &= src[i];
}

/*
 * Inserts n hashes.  A row at a time, every insert waits for its cache
 * line; here the line of the hash some steps ahead is prefetched, so that
 * several misses overlap.
 */
#define BLOOM_PREFETCH_AHEAD	16

void
bloom_insert_many(BloomFilter *f, const uint8_t *hashes_le, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
	{
		if (i + BLOOM_PREFETCH_AHEAD < n)
			__builtin_prefetch(f->data + bloom_mulhi64(bloom_get_le64(hashes_le + 8 * (i + BLOOM_PREFETCH_AHEAD)),
													   f->nslots) * BLOOM_BLOCK_BYTES, 1);
		bloom_insert_hash(f, bloom_get_le64(hashes_le + 8 * i));
	}
}

/*
 * Inserts a buffered filter's pending hashes into its bits and empties the
 * list; buf is the value f was decoded from, whose header is rewritten.
 */
void
bloom_flush_pending(uint8_t *buf, BloomFilter *f)
{
	bloom_insert_many(f, bloom_pending(f), f->nused);
	f->nused = 0;
	bloom_put_le64(buf + 56, 0);
}

static inline int
block_popcount(const uint8_t *blk)
{
	int			n = 0;

	for (int w = 0; w < BLOOM_BLOCK_BYTES / 8; w++)
	{
		uint64_t	v;

		memcpy(&v, blk + 8 * w, 8);
		n += __builtin_popcountll(v);
	}
	return n;
}

uint64_t
bloom_bits_set(const BloomFilter *f)
{
	uint64_t	n = 0;

	if (f->kind == BLOOM_KIND_SCALABLE)
	{
		for (int i = 0; i < (int) f->nslots; i++)
		{
			BloomFilter l;

			bloom_layer_view(f, i, &l);
			n += bloom_bits_set(&l);
		}
		return n;
	}
	for (uint64_t b = 0; b < f->nslots; b++)
		n += block_popcount(f->data + b * BLOOM_BLOCK_BYTES);
	return n;
}

/*
 * Distinct items, estimated block by block from the bits set: a block with
 * X of B bits set after j keys of k bits expects X = B (1 - (1 - 1/B)^(kj)),
 * so j = ln(1 - X/B) / (k ln(1 - 1/B)) (Swamidass and Baldi 2007, applied
 * per block).  A full block counts as if one bit were still clear.
 */
double
bloom_estimate_items(const BloomFilter *f)
{
	const double B = BLOOM_BLOCK_BITS;
	double		denom = f->k * log1p(-1.0 / B);
	double		total = 0.0;

	if (f->kind == BLOOM_KIND_SCALABLE)
	{
		for (int i = 0; i < (int) f->nslots; i++)
		{
			BloomFilter l;

			bloom_layer_view(f, i, &l);
			total += bloom_estimate_items(&l);
		}
		return total;
	}
	for (uint64_t b = 0; b < f->nslots; b++)
	{
		double		x = block_popcount(f->data + b * BLOOM_BLOCK_BYTES);

		if (x >= B)
			x = B - 0.5;
		total += log1p(-x / B) / denom;
	}
	return total;
}

/*
 * The rate at which a random absent key is reported present, for the bits
 * as they are now: the mean over blocks of (X/B)^k.  A scalable filter
 * reports a key when any layer does: 1 - prod(1 - rate of layer i).
 */
double
bloom_estimate_fpr(const BloomFilter *f)
{
	const double B = BLOOM_BLOCK_BITS;
	double		total = 0.0;

	if (f->kind == BLOOM_KIND_SCALABLE)
	{
		double		none = 1.0;

		for (int i = 0; i < (int) f->nslots; i++)
		{
			BloomFilter l;

			bloom_layer_view(f, i, &l);
			none *= 1.0 - bloom_estimate_fpr(&l);
		}
		return 1.0 - none;
	}
	for (uint64_t b = 0; b < f->nslots; b++)
	{
		double		x = block_popcount(f->data + b * BLOOM_BLOCK_BYTES);

		total += pow(x / B, f->k);
	}
	return total / (double) f->nslots;
}

uint64_t
bloom_hashlist_get(const BloomFilter *f, uint64_t i)
{
	return bloom_get_le64(f->data + 8 * i);
}

void
bloom_hashlist_set(BloomFilter *f, uint64_t i, uint64_t h)
{
	bloom_put_le64(f->data + 8 * i, h);
}

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
bloom_estimate_distinct(const uint8_t *hashes_le, uint64_t n, uint8_t *scratch)
{
	if (n <= LC_MAX_HASHES)
	{
		uint64_t	mbits = 8 * (n > 8 ? n : 8);
		uint64_t	set = 0;

		memset(scratch, 0, mbits / 8);
		for (uint64_t i = 0; i < n; i++)
		{
			uint64_t	bit = bloom_mulhi64(bloom_get_le64(hashes_le + 8 * i), mbits);

			scratch[bit >> 3] |= (uint8_t) (1u << (bit & 7));
		}
		for (uint64_t i = 0; i < mbits / 8; i++)
			set += __builtin_popcount(scratch[i]);
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
		for (uint64_t i = 0; i < n; i++)
		{
			uint64_t	h = bloom_get_le64(hashes_le + 8 * i);
			unsigned	idx = (unsigned) (h >> 48);
			uint64_t	rest = (h << 16) | (UINT64_C(1) << 15);
			uint8_t		rank = (uint8_t) (__builtin_clzll(rest) + 1);

			if (rank > scratch[idx])
				scratch[idx] = rank;
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
					 uint64_t tsize)
{
	uint64_t	count = 0;
	bool		zero = false;	/* 0 marks an empty slot: count it apart */

	memset(table, 0, tsize * sizeof(uint64_t));
	for (uint64_t i = 0; i < n; i++)
	{
		uint64_t	h = bloom_get_le64(hashes_le + 8 * i);
		uint64_t	slot;

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

/* ---------------------------------------------------------------------
 * Scalable filters (kind 4)
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
 * ---------------------------------------------------------------------
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

bool
bloom_scalable_fpr_valid(double fpr)
{
	return bloom_fpr_valid(fpr) && fpr >= BLOOM_MIN_SCALABLE_FPR;
}

size_t
bloom_scalable_size(uint64_t nlayers, uint64_t total_blocks)
{
	return BLOOM_HEADER_SIZE + nlayers * BLOOM_LAYER_DESC_SIZE +
		total_blocks * BLOOM_BLOCK_BYTES;
}

uint64_t
bloom_scalable_blocks(const BloomFilter *f)
{
	uint64_t	total = 0;

	for (uint64_t i = 0; i < f->nslots; i++)
		total += f->layers[i].nblocks;
	return total;
}

static void
scalable_header(BloomFilter *f, uint8_t *buf, uint64_t nlayers)
{
	f->version = BLOOM_FORMAT_VERSION_2;
	f->kind = BLOOM_KIND_SCALABLE;
	f->k = 0;
	f->block_log2 = BLOOM_BLOCK_LOG2;
	f->flags = 0;
	f->nslots = nlayers;
	f->data = buf + BLOOM_HEADER_SIZE;
}

/* Sets the layers' bit pointers of f, whose descriptors are filled in */
static void
scalable_point(BloomFilter *f)
{
	uint8_t    *bits = f->data + f->nslots * BLOOM_LAYER_DESC_SIZE;

	for (uint64_t i = 0; i < f->nslots; i++)
	{
		f->layers[i].data = bits;
		bits += f->layers[i].nblocks * BLOOM_BLOCK_BYTES;
	}
}

/*
 * Writes an empty scalable filter with one layer of nblocks blocks and k
 * hashes (planned for bloom_layer_fpr(fpr, 0)) into buf
 * (bloom_scalable_size(1, nblocks) bytes).
 */
void
bloom_init_scalable(uint8_t *buf, uint64_t capacity, double fpr,
					unsigned expansion, uint64_t seed, uint64_t nblocks, int k)
{
	BloomFilter f;

	init_common(&f, buf, BLOOM_KIND_SCALABLE, 1, capacity, fpr, seed);
	scalable_header(&f, buf, 1);
	f.nused = expansion;
	f.layers[0].nblocks = nblocks;
	f.layers[0].capacity = capacity;
	f.layers[0].nitems = 0;
	f.layers[0].k = k;
	bloom_write_header(buf, &f);
	memset(buf + bloom_scalable_size(1, 0), 0, (size_t) nblocks * BLOOM_BLOCK_BYTES);
}

/*
 * Writes the blocked filter b, planned for bloom_layer_fpr(target, 0), as
 * the only layer of a scalable filter into buf
 * (bloom_scalable_size(1, b->nslots) bytes).
 */
void
bloom_scalable_from_blocked(uint8_t *buf, const BloomFilter *b, double target,
							unsigned expansion)
{
	BloomFilter f = *b;

	scalable_header(&f, buf, 1);
	f.fpr = target;
	f.nused = expansion;
	f.layers[0].nblocks = b->nslots;
	f.layers[0].capacity = b->capacity;
	f.layers[0].nitems = b->nitems;
	f.layers[0].k = b->k;
	bloom_write_header(buf, &f);
	memmove(buf + bloom_scalable_size(1, 0), b->data, (size_t) b->nslots * BLOOM_BLOCK_BYTES);
}

/*
 * Plans the layer that would come after f's newest: its capacity, blocks
 * and (in plan) hashes.  BLOOM_E_CAPACITY when the filter has its most
 * layers or the result would not fit in the largest value.
 */
BloomStatus
bloom_scalable_next_layer(const BloomFilter *f, BloomPlan *plan,
						  uint64_t *capacity, uint64_t *nblocks)
{
	uint64_t	n = f->nslots;
	uint64_t	last = f->layers[n - 1].capacity;

	if (n >= BLOOM_MAX_LAYERS || last > UINT64_MAX / f->nused)
		return BLOOM_E_CAPACITY;
	*capacity = last * f->nused;
	if (bloom_plan(bloom_layer_fpr(f->fpr, (int) n), plan) != BLOOM_OK)
		return BLOOM_E_PARAMS;
	if (bloom_plan_size(plan, *capacity, nblocks) != BLOOM_OK)
		return BLOOM_E_CAPACITY;
	if (bloom_scalable_size(n + 1, bloom_scalable_blocks(f) + *nblocks) > BLOOM_MAX_BYTES)
		return BLOOM_E_CAPACITY;
	return BLOOM_OK;
}

/*
 * Writes f with a new, empty newest layer into buf, which holds
 * bloom_scalable_size(f->nslots + 1, bloom_scalable_blocks(f) + nblocks)
 * bytes and does not overlap f.
 */
void
bloom_scalable_append_layer(uint8_t *buf, const BloomFilter *f,
							uint64_t capacity, uint64_t nblocks, int k)
{
	BloomFilter g = *f;
	uint64_t	n = f->nslots;
	uint64_t	old = bloom_scalable_blocks(f) * BLOOM_BLOCK_BYTES;

	scalable_header(&g, buf, n + 1);
	g.layers[n].nblocks = nblocks;
	g.layers[n].capacity = capacity;
	g.layers[n].nitems = 0;
	g.layers[n].k = k;
	scalable_point(&g);
	bloom_write_header(buf, &g);
	memcpy(g.layers[0].data, f->layers[0].data, old);
	memset(g.layers[n].data, 0, nblocks * BLOOM_BLOCK_BYTES);
}

/* Layer i of the scalable filter f, as a blocked filter (read only) */
void
bloom_layer_view(const BloomFilter *f, int i, BloomFilter *out)
{
	const BloomLayer *l = &f->layers[i];

	out->version = BLOOM_FORMAT_VERSION;
	out->kind = BLOOM_KIND_BLOCKED;
	out->hash = f->hash;
	out->key_class = f->key_class;
	out->key_type = f->key_type;
	out->k = (uint8_t) l->k;
	out->block_log2 = BLOOM_BLOCK_LOG2;
	out->flags = 0;
	out->seed = f->seed;
	out->capacity = l->capacity;
	out->fpr = bloom_layer_fpr(f->fpr, i);
	out->nitems = l->nitems;
	out->nslots = l->nblocks;
	out->nused = 0;
	out->data = l->data;
}

static const BloomFilter *
more_layers(const BloomFilter *a, const BloomFilter *b)
{
	return a->nslots >= b->nslots ? a : b;
}

/* Bytes of the union of compatible scalable filters a and b */
size_t
bloom_scalable_union_size(const BloomFilter *a, const BloomFilter *b)
{
	return bloom_scalable_size(more_layers(a, b)->nslots,
							   bloom_scalable_blocks(more_layers(a, b)));
}

/*
 * Writes the union of compatible scalable filters a and b into buf
 * (bloom_scalable_union_size bytes, overlapping neither): layer i of the
 * result is the union of their layers i.  A key is in some layer of a or
 * of b, so the union has no false negatives; the layers' counts add up, so
 * a layer holding more keys than its capacity shows in the estimates.
 */
void
bloom_scalable_union(uint8_t *buf, const BloomFilter *a, const BloomFilter *b)
{
	const BloomFilter *big = more_layers(a, b);
	const BloomFilter *small = big == a ? b : a;
	BloomFilter g = *big;

	scalable_header(&g, buf, big->nslots);
	if (g.key_class == BLOOM_KEY_NONE)
	{
		g.key_class = small->key_class;
		g.key_type = small->key_type;
	}
	g.nitems = 0;
	for (uint64_t i = 0; i < g.nslots; i++)
	{
		if (i < small->nslots)
			g.layers[i].nitems = small->layers[i].nitems >
				UINT64_MAX - big->layers[i].nitems ? UINT64_MAX :
				small->layers[i].nitems + big->layers[i].nitems;
		g.nitems = g.layers[i].nitems > UINT64_MAX - g.nitems ? UINT64_MAX :
			g.nitems + g.layers[i].nitems;
	}
	scalable_point(&g);
	bloom_write_header(buf, &g);
	memcpy(g.layers[0].data, big->layers[0].data,
		   bloom_scalable_blocks(big) * BLOOM_BLOCK_BYTES);
	for (uint64_t i = 0; i < small->nslots; i++)
		bloom_union_bits(g.layers[i].data, small->layers[i].data,
						 small->layers[i].nblocks * BLOOM_BLOCK_BYTES);
}
