/*-------------------------------------------------------------------------
 *
 * cb_agg.c
 *		Aggregates of the countingbloom family: counting_agg and
 *		counting_union_agg.
 *
 * Each row adds a copy of its key (counting_agg(DISTINCT key) for a set).
 * With a capacity the state is the counting filter itself, updated in
 * place in the aggregate context; partial states combine by adding
 * counters, which gives the same bytes in any order.  Through the _light
 * entry points that state starts light (kind 8: the rows' hashes,
 * src/core/counting_light.c) and becomes the filter when the hashes would
 * take more room, so that a partial state of few keys for its capacity is
 * small on the wire.  Without one (auto-sizing) the state is a hash list (kind 2), one 8-byte hash per
 * row, and the final step builds a filter sized for its distinct hashes.
 *
 *-------------------------------------------------------------------------
 */
#include "cbf.h"

/*
 * counting_agg(key), (key, fpr), (key, capacity, fpr): the transition of
 * glue_family.c with the states of cb_family; the _light entry points
 * (those the install script binds) start fixed-capacity states light
 */
#define AGG_TRANS_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(counting_agg_trans, suffix, bt_family_agg_trans(fcinfo, &cb_family, enc, false)) \
	BT_KEY_ENTRY(counting_agg_trans, suffix##_light, bt_family_agg_trans(fcinfo, &cb_family, enc, true))

/* C names:
 *	counting_agg_trans_int8, counting_agg_trans_int4,
 *	counting_agg_trans_int2, counting_agg_trans_text,
 *	counting_agg_trans_bytea, counting_agg_trans_uuid,
 *	counting_agg_trans_any, counting_agg_trans_int8_light,
 *	counting_agg_trans_int4_light, counting_agg_trans_int2_light,
 *	counting_agg_trans_text_light, counting_agg_trans_bytea_light,
 *	counting_agg_trans_uuid_light, counting_agg_trans_any_light
 */
BT_KEY_TYPES(AGG_TRANS_, BT_NO_ALIAS)

/*
 * counting_agg_combine combines two partial states (state 1 in place):
 * filters add counters, hash lists append.  counting_union_trans, the
 * transition of counting_union_agg, is the same where the second argument
 * is a filter (a hash list becomes its filter first).  counting_agg_final
 * leaves the state as it is and returns a new value.  The skeletons of
 * glue_family.c with cb_family.
 */
/* C names:
 *	counting_agg_combine, counting_union_trans, counting_agg_final
 */
BT_FAMILY_AGG_ENTRIES(counting, &cb_family)
