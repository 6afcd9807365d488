/*-------------------------------------------------------------------------
 *
 * bloom_ext.c
 *		The module entry of bloomtype.
 *
 * Where things are (the README's "Layout of the source" has the full map):
 *	src/core/	the filter algorithms in plain C, no PostgreSQL: value
 *				format and kind registry, blocked layout and sizing,
 *				scalable layers, aggregate states
 *	src/pg/		glue_*.c: glue every family shares: key encodings, memory
 *				for the core, the per-call cache, type I/O and comparison
 *	src/bloom/	bf_*.c: the bloomfilter family's SQL-visible functions and
 *				aggregates, and its fragment of the install script
 *	src/counting/
 *				cb_*.c: the countingbloom family, laid out the same way
 *	src/cuckoo/	cf_*.c: the cuckoofilter family, laid out the same way
 *	src/am/		bfi_*.c: the bloomfilter index access method
 *
 * Every C file's name is unique (an error's LOCATION keeps only the base
 * name) and its prefix says the layer or family it belongs to.
 *
 *-------------------------------------------------------------------------
 */
#include "pgcompat.h"

#include "bfindex.h"

BT_MODULE_MAGIC;

extern PGDLLEXPORT void _PG_init(void);

/*
 * Loading the library registers what writes the index keys a transaction
 * inserted (src/am/bfi_pending.c): a transaction callback and the
 * ExecutorStart and ProcessUtility hooks; the relcache and role callbacks
 * that invalidate call sites and copies of older layers (bfi_site.c,
 * bfi_older.c); and the setting bloomtype.layer_cache.  Nothing else is
 * process-wide.
 */
void
_PG_init(void)
{
	bfi_pending_init();
	bfi_older_init();
	bfi_site_init();
}
