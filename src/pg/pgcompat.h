/*-------------------------------------------------------------------------
 *
 * pgcompat.h
 *		The one place where the glue meets the differences between the
 *		PostgreSQL majors it is written for: 15 to 19.
 *
 * Only this header and the access method (src/am, for the callbacks a
 * major adds to IndexAmRoutine) test PG_VERSION_NUM.  15, 17, 18 and 19
 * are built and tested (scripts/test.sh); the guards for 16 follow its
 * release notes and headers (the varlena macros and RelFileLocator arrived
 * in 16) but no 16 server is at hand to test them: no release of Debian's
 * archive carries one (README, "Supported PostgreSQL versions").
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMTYPE_PGCOMPAT_H
#define BLOOMTYPE_PGCOMPAT_H

#include "postgres.h"
#include "fmgr.h"

#if PG_VERSION_NUM < 150000 || PG_VERSION_NUM >= 200000
#error "bloomtype is written for PostgreSQL 15 to 19"
#endif

/*
 * 16 moved the varlena macros (VARDATA, VARSIZE, SET_VARSIZE, struct
 * varatt_external, VARATT_IS_EXTERNAL_ONDISK...) out of postgres.h into
 * varatt.h, which postgres.h no longer includes.
 */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/*
 * 16 renamed RelFileNode to RelFileLocator: an SMgrRelation's physical
 * address is smgr_rlocator.locator (a RelFileLocator) where 15 has
 * smgr_rnode.node (a RelFileNode).  log_newpage takes either by pointer.
 */
#if PG_VERSION_NUM >= 160000
#define BT_SMGR_LOCATOR(smgr)	(&(smgr)->smgr_rlocator.locator)
#else
#define BT_SMGR_LOCATOR(smgr)	(&(smgr)->smgr_rnode.node)
#endif

/*
 * A relation's file number, an Oid (16 renamed rd_node to rd_locator and
 * named the type RelFileNumber)
 */
typedef Oid BtRelFileNumber;
#if PG_VERSION_NUM >= 160000
#define BT_REL_FILENUMBER(rel)	((rel)->rd_locator.relNumber)
#else
#define BT_REL_FILENUMBER(rel)	((rel)->rd_node.relNode)
#endif

/* Whether rel, or its current file, was made in this transaction */
#if PG_VERSION_NUM >= 160000
#define BT_REL_NEW_FILE_IN_XACT(rel) \
	((rel)->rd_createSubid != InvalidSubTransactionId || \
	 (rel)->rd_firstRelfilelocatorSubid != InvalidSubTransactionId)
#else
#define BT_REL_NEW_FILE_IN_XACT(rel) \
	((rel)->rd_createSubid != InvalidSubTransactionId || \
	 (rel)->rd_firstRelfilenodeSubid != InvalidSubTransactionId)
#endif

/*
 * 18 lets a module name itself and its version in its magic block
 * (pg_get_loaded_modules() reports them).  BLOOMTYPE_VERSION comes from
 * the Makefile, which reads bloomtype.control's default_version.
 */
#ifndef BLOOMTYPE_VERSION
#error "BLOOMTYPE_VERSION is set by the Makefile"
#endif
#if PG_VERSION_NUM >= 180000
#define BT_MODULE_MAGIC \
	PG_MODULE_MAGIC_EXT(.name = "bloomtype", .version = BLOOMTYPE_VERSION)
#else
#define BT_MODULE_MAGIC PG_MODULE_MAGIC
#endif

/*
 * 19 passes an array's element type to array_iter_setup, once, where
 * earlier majors take it at every array_iter_next.
 */
#if PG_VERSION_NUM >= 190000
#define BT_ARRAY_ITER_SETUP(it, a, len, byval, align) \
	array_iter_setup((it), (a), (len), (byval), (align))
#define BT_ARRAY_ITER_NEXT(it, isnull, i, len, byval, align) \
	array_iter_next((it), (isnull), (i))
#else
#define BT_ARRAY_ITER_SETUP(it, a, len, byval, align) \
	array_iter_setup((it), (a))
#define BT_ARRAY_ITER_NEXT(it, isnull, i, len, byval, align) \
	array_iter_next((it), (isnull), (i), (len), (byval), (align))
#endif

/*
 * A page's checksum set in place before it is written past shared buffers
 * (19 renamed PageSetChecksumInplace to PageSetChecksum)
 */
#if PG_VERSION_NUM >= 190000
#define BT_PAGE_SET_CHECKSUM(page, blkno)	PageSetChecksum((page), (blkno))
#else
#define BT_PAGE_SET_CHECKSUM(page, blkno)	PageSetChecksumInplace((page), (blkno))
#endif

/* Whether a role owns a relation (16 made the check one for every class) */
#if PG_VERSION_NUM >= 160000
#define BT_CLASS_OWNERCHECK(relid, roleid) \
	object_ownercheck(RelationRelationId, (relid), (roleid))
#else
#define BT_CLASS_OWNERCHECK(relid, roleid) pg_class_ownercheck((relid), (roleid))
#endif

#endif							/* BLOOMTYPE_PGCOMPAT_H */
