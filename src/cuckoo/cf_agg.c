/*-------------------------------------------------------------------------
 *
 * cf_agg.c
 *		Aggregates of the cuckoofilter family: cuckoo_agg and
 *		cuckoo_union_agg.
 *
 * Each row adds a copy of its key (cuckoo_agg(DISTINCT key) for a set).
 * The state is a hash list (kind 2), one 8-byte hash per row: version 1
 * without a capacity, version 3 with the capacity given.  Partial states
 * append; the final step builds the filter (of that capacity, else sized
 * for the distinct hashes) with cuckoo_empty's defaults, adding the hashes
 * in sorted order, so that its bytes do not depend on the plan.  (A
 * filter as the state would combine by reinserting fingerprints, which
 * fails when two partial filters' sub-filters of one size together hold
 * more than it takes: a fingerprint has no bits for a larger one.)
 *
 *-------------------------------------------------------------------------
 */
#include "cf.h"

/*
 * a | b of two hash lists with a capacity (a's value, decoded into fa; fb
 * b's): b's hashes appended to a copy of a, as the aggregate's combine
 * appends partial states, so that a union of lists stays as small as they
 * are and stands for the filter of both lists' rows
 */
struct varlena *
cf_list_union(struct varlena *a, CuckooFilter *fa, const CuckooFilter *fb, BloomPlan *plan)
{
	BloomParam	param = bloom_sizing_compatible(&fa->hdr, &fb->hdr);

	if (param != BLOOM_PARAM_NONE)
		bt_param_mismatch(CF_PLURAL, param, NULL, NULL, CF_COMBINE_HINT);
	a = bt_copy_into(a, CurrentMemoryContext);
	cf_decode_or_error(a, fa);
	return bt_hashlist_combine(&fa->hdr, &fb->hdr, plan, cf_family.list_agg);
}

/*
 * cuckoo_agg(key), (key, fpr), (key, capacity, fpr): the transition of
 * glue_family.c with the states of cf_family
 */
#define AGG_TRANS_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(cuckoo_agg_trans, suffix, bt_family_agg_trans(fcinfo, &cf_family, enc, false))

/* C names:
 *	cuckoo_agg_trans_int8, cuckoo_agg_trans_int4, cuckoo_agg_trans_int2,
 *	cuckoo_agg_trans_text, cuckoo_agg_trans_bytea, cuckoo_agg_trans_uuid,
 *	cuckoo_agg_trans_any
 */
BT_KEY_TYPES(AGG_TRANS_, BT_NO_ALIAS)

/*
 * cuckoo_agg_combine combines two partial states (state 1 in place when
 * it has room): filters unite, hash lists append.  cuckoo_union_trans,
 * the transition of cuckoo_union_agg, is the same where the second
 * argument is a filter (a hash list becomes its filter).
 * cuckoo_agg_final leaves the state as it is and returns a new value.
 * The skeletons of glue_family.c with cf_family.
 */
/* C names:
 *	cuckoo_agg_combine, cuckoo_union_trans, cuckoo_agg_final
 */
BT_FAMILY_AGG_ENTRIES(cuckoo, &cf_family)
