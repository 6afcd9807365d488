/*-------------------------------------------------------------------------
 *
 * bfsync.h
 *		An application's copy of a bloomfilter index in step (1.8): the change
 *		log the trigger writes (bfi_log.c) and the catch-up that reads it by
 *		position (bfi_sync.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef BFSYNC_H
#define BFSYNC_H

#include "fmgr.h"
#include "datatype/timestamp.h"

/* Hashes a log row holds at most (512 kB) */
#define BFI_LOG_CHUNK			65536

/* How long the trigger keeps log rows unless told */
#define BFI_LOG_DEFAULT_KEEP	"10 minutes"

/* The user and security context saved while acting as the log's owner */
typedef struct BfiLogUser
{
	Oid			userid;
	int			sec_context;
} BfiLogUser;

/* bfi_log.c */
extern Oid	bfi_log_relation(FunctionCallInfo fcinfo, const char *name, Oid *owner);
extern const char *bfi_log_schema_quoted(FunctionCallInfo fcinfo);
extern void bfi_log_enter(BfiLogUser *u, Oid owner);
extern void bfi_log_leave(const BfiLogUser *u);
extern uint64 bfi_log_prune(const char *schema, Oid heapoid, Interval *keep);

#endif							/* BFSYNC_H */
