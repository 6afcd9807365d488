/*-------------------------------------------------------------------------
 *
 * bloom_ext.c
 *		The module entry of bloomtype.
 *
 * Where things are (the README's "Source layout" has the full map):
 *	src/core/	the filter algorithms in plain C, no PostgreSQL: value
 *				format and kind registry, blocked layout and sizing,
 *				scalable layers, aggregate states
 *	src/pg/		glue every family shares: key encodings, memory for the
 *				core, the per-call cache, type I/O and comparison
 *	src/bloom/	the bloomfilter family's SQL-visible functions and
 *				aggregates, and its fragment of the install script
 *
 *-------------------------------------------------------------------------
 */
#include "pgcompat.h"

BT_MODULE_MAGIC;
