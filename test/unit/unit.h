/*
 * Shared by the C unit tests of the core (cmocka): one file of tests per
 * core module (test_*.c), each a group that run_unit.c runs.  Here: the
 * includes, the malloc allocator and the helpers that make filters.
 */
#ifndef BLOOM_UNIT_H
#define BLOOM_UNIT_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "core.h"
#include "../malloc_alloc.h"

/* The groups, one per core module */
extern int	unit_hash_tests(void);
extern int	unit_sizing_tests(void);
extern int	unit_format_tests(void);
extern int	unit_blocked_tests(void);
extern int	unit_scalable_tests(void);
extern int	unit_aggstate_tests(void);
extern int	unit_materialize_tests(void);
extern int	unit_pagefmt_tests(void);
extern int	unit_pagemap_tests(void);
extern int	unit_counting_tests(void);
extern int	unit_cuckoo_tests(void);
extern int	unit_sparse_tests(void);
extern int	unit_cancel_tests(void);
extern int	unit_lightview_tests(void);
extern int	unit_light_read_tests(void);
extern int	unit_value_tests(void);
extern int	unit_windowed_tests(void);

/* test_aggstate.c: states for the tests of both state files */
extern BloomFilter new_hashlist(uint64_t nslots, double fpr, const BloomAlloc *a);
extern uint8_t *hashes_le(int64_t first, uint64_t n);
extern BloomStatus append(BloomFilter *f, const uint8_t *src, uint64_t n,
						  BloomPlan *plan, const BloomAlloc *a,
						  uint64_t *distinct, uint64_t *limit);

/* The tests' random numbers: splitmix64 (Steele, Lea and Flood 2014) */
static inline uint64_t
rng(uint64_t *s)
{
	uint64_t	z = (*s += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* An empty blocked filter (kind 1, version 1, seed 0) from malloc */
static inline uint8_t *
make_filter(uint64_t capacity, double fpr, BloomFilter *f, size_t *len)
{
	BloomPlan	plan = {0};
	BloomAlloc	a = malloc_allocator(NULL);

	assert_int_equal(bloom_new_blocked(capacity, fpr, 0, &plan, &a, f), BLOOM_OK);
	*len = bloom_value_size(f);
	return f->base;
}

/* A scalable filter for (capacity, fpr, expansion), grown by bloom_add */
typedef struct Grown
{
	BloomFilter f;
	long		live;			/* blocks from the allocator not freed */
	BloomAlloc	a;
} Grown;

static inline void
grow_new(Grown *g, uint64_t capacity, double fpr, unsigned expansion)
{
	BloomPlan	plan = {0};

	g->live = 0;
	g->a = malloc_allocator(&g->live);
	assert_int_equal(bloom_new_scalable(capacity, fpr, expansion, &plan, &g->a, &g->f),
					 BLOOM_OK);
	assert_int_equal(g->live, 1);
}

/* bloom_add, freeing the old value when the filter grew into a new one */
static inline BloomStatus
grow_add(Grown *g, uint64_t h)
{
	uint8_t    *old = g->f.base;
	bool		added;
	BloomStatus st = bloom_add(&g->f, h, NULL, &g->a, &added);

	BloomFilter check;

	if (g->f.base != old)
		g->a.free(g->a.arg, old);
	assert_int_equal(g->live, 1);	/* the core keeps nothing else */
	/* the header written back describes the value */
	assert_int_equal(bloom_decode(g->f.base, bloom_value_size(&g->f), &check), BLOOM_OK);
	assert_int_equal(check.nitems, g->f.nitems);
	return st;
}

static inline size_t
grown_len(const Grown *g)
{
	return bloom_value_size(&g->f);
}

static inline void
grow_free(Grown *g)
{
	g->a.free(g->a.arg, g->f.base);
	assert_int_equal(g->live, 0);
}

/* xorshift64* (Vigna), for fixed streams of random numbers */
static inline uint64_t
unit_rand(uint64_t *s)
{
	uint64_t	x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * UINT64_C(0x2545F4914F6CDD1D);
}

/* A cuckoo filter from a counting allocator (test_cuckoo.c), and its adds */
typedef struct Ck
{
	CuckooFilter f;
	long		live;
	BloomAlloc	a;
} Ck;

static inline void
ck_new(Ck *c, uint64_t capacity, double fpr, unsigned b, unsigned expansion)
{
	c->live = 0;
	c->a = malloc_allocator(&c->live);
	assert_int_equal(cuckoo_new(capacity, fpr, b, CUCKOO_DEFAULT_KICKS, expansion,
								&c->a, &c->f), BLOOM_OK);
	assert_int_equal(c->live, 1);
}

/* cuckoo_add, freeing the old value when the filter moved */
static inline BloomStatus
ck_add(Ck *c, uint64_t h, bool only_new, CuckooAdded *what)
{
	uint8_t    *old = c->f.hdr.base;
	CuckooAdded w;
	BloomStatus st = cuckoo_add(&c->f, h, only_new, &c->a, what ? what : &w);

	if (c->f.hdr.base != old)
		c->a.free(c->a.arg, old);
	assert_int_equal(c->live, 1);	/* the core keeps nothing else */
	return st;
}

/* Decodes, checks the slots, and the header agrees with f */
static inline void
ck_check(const CuckooFilter *f)
{
	CuckooFilter g;

	assert_int_equal(cuckoo_decode(f->hdr.base, cuckoo_value_size(f), &g), BLOOM_OK);
	assert_int_equal(cuckoo_validate_deep(&g, NULL), BLOOM_OK);
	assert_int_equal(g.hdr.nitems, f->hdr.nitems);
	assert_int_equal(g.nsubs, f->nsubs);
	assert_int_equal(g.absorbed, f->absorbed);
	assert_int_equal(g.deletes, f->deletes);
	assert_int_equal(g.stuck, f->stuck);
}

static inline void
ck_free(Ck *c)
{
	c->a.free(c->a.arg, c->f.hdr.base);
	assert_int_equal(c->live, 0);
}

/* A copy of f's value, decoded, from malloc (not counted) */
static inline CuckooFilter
ck_copy(const CuckooFilter *f)
{
	size_t		len = cuckoo_value_size(f);
	uint8_t    *buf = malloc(len);
	CuckooFilter g;

	memcpy(buf, f->hdr.base, len);
	assert_int_equal(cuckoo_decode(buf, len, &g), BLOOM_OK);
	return g;
}

#endif							/* BLOOM_UNIT_H */
