/*-------------------------------------------------------------------------
 *
 * core.h
 *		The filter algorithms of bloomtype, in plain C (no PostgreSQL): what
 *		the glue, the C unit tests, the fuzzers, the benchmarks and client
 *		readers include.
 *
 *	hash.h		byte order, XXH3 over canonical key bytes, multiply-shift
 *	format.h	the value format: common header, kind registry (one
 *				operations table per kind), getters and setters
 *	blocked.h	the blocked layout (kind 1) and its sizing model
 *	scalable.h	scalable filters (kind 4): layers, schedule, growth
 *	aggstate.h	aggregate states (kinds 2 and 3) and their
 *				materialisation into filters
 *	counting.h	counting Bloom filters (kind 5)
 *	cuckoo.h	cuckoo filters (kind 6)
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_H
#define BLOOM_CORE_H

#include "hash.h"
#include "format.h"
#include "blocked.h"
#include "scalable.h"
#include "aggstate.h"
#include "lightview.h"
#include "counting.h"
#include "cuckoo.h"

#endif							/* BLOOM_CORE_H */
