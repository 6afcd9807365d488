/*-------------------------------------------------------------------------
 *
 * core.h
 *		The filter algorithms of bloomtype, in plain C (no PostgreSQL): what
 *		the glue, the C unit tests, the fuzzers, the benchmarks and client
 *		readers include.  No file of src/core includes it (check-core sees
 *		to that): each includes the modules it uses, which form a DAG
 *		(README.md, "Layout of the source").
 *
 *	the common base
 *	hash.h		byte order, XXH3 over canonical key bytes, multiply-shift
 *	format.h	the value format: common header, the operations table of
 *				a kind, getters and setters, decoding a kind's value
 *	sizing.h	the sizing model and the schedule of layers' rates
 *	blocked.h	the blocked layout (kind 1)
 *	hashlist.h	hash lists (kind 2) and light states' slots, which every
 *				family's aggregates keep; distinct counting
 *	the families
 *	scalable.h	scalable filters (kind 4)
 *	windowed.h	windowed filters (kind 9): slices of time
 *	aggstate.h	bloomfilter's aggregate states (kinds 3 and 7) and their
 *				materialisation into filters
 *	lightview.h	a light state (kind 7) read without materialising it
 *	counting.h	counting Bloom filters (kind 5) and their light states (8);
 *				what a countingbloom value is (counting_value_*)
 *	cuckoo.h	cuckoo filters (kind 6); what a cuckoofilter value is
 *				(cuckoo_value_*)
 *	the top
 *	kinds.h		the registry of kinds and what dispatches on a kind
 *
 * pagefmt.h (the index's pages, on blocked.h) is included on its own.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_H
#define BLOOM_CORE_H

#include "hash.h"
#include "format.h"
#include "sizing.h"
#include "blocked.h"
#include "hashlist.h"
#include "scalable.h"
#include "windowed.h"
#include "aggstate.h"
#include "lightview.h"
#include "counting.h"
#include "cuckoo.h"
#include "kinds.h"

#endif							/* BLOOM_CORE_H */
