/*-------------------------------------------------------------------------
 *
 * glue_family.h
 *		A family of filters described once for the shared glue: the
 *		descriptor (BtFamily) that each family fills in, and the skeletons
 *		of glue_family.c that it drives.
 *
 * The countingbloom and cuckoofilter families' SQL functions share their
 * shape: the NULL rules, the key's checks, the preambles of their
 * aggregates' transitions and combines.  Those are written once in
 * glue_family.c; a family's files keep its semantics (how a hash is added,
 * what a state becomes), given here as function pointers.  A family's
 * decoded form begins with the common header (BloomFilter), so that the
 * skeletons read the seed, kind and key class of any family.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GLUE_FAMILY_H
#define GLUE_FAMILY_H

#include "bloomtype.h"

/*
 * A family's semantics.  Every f below is the header its decoded form
 * begins with (countingbloom's whole form; cuckoofilter's CuckooFilter.hdr):
 * a family casts it to its form.  "The value" is the varlena f was decoded
 * from.
 */
typedef struct BtFamily
{
	const BtTypeMethods *type;	/* its type: name, the core's decode */
	const char *noun;			/* "counting bloom filter": key errors */
	const char *plural;			/* "counting bloom filters": mismatches */
	const char *combine_hint;	/* what combines, a mismatch's hint */
	const char *aggname;		/* "counting_agg": its aggregate's errors */
	const char *trans_fname;	/* its transition, for bt_agg_context */
	const BtListAgg *list_agg;	/* the aggregate's hash lists */
	const BtCacheMethods *probe_methods;	/* what a probe's cache holds */
	uint8		filter_kind;	/* the kind of a filter (not a state) */
	uint64		create_capacity;	/* <type>_add(NULL, key) makes one of these */

	/*
	 * f, an aggregate's state of another kind than filter_kind, as the
	 * filter it stands for: a new value in CurrentMemoryContext that f
	 * then describes
	 */
	struct varlena *(*to_filter) (BloomFilter *f);
	/* the parameter in which two filters differ (BLOOM_PARAM_NONE: none) */
	BloomParam	(*compatible) (const BloomFilter *a, const BloomFilter *b);
	/* v (decoded in f) with h added (only_new: unless maybe present); moves */
	struct varlena *(*add_hash) (struct varlena *v, BloomFilter *f, uint64 h,
								 bool only_new);
	/* one copy of h taken back from f, in place, if it may be present */
	void		(*remove_hash) (BloomFilter *f, uint64 h);
	/* the answers of a probe's filter (probe_methods' decoded form) */
	bool		(*contains) (const BloomFilter *f, uint64 h);
	unsigned	(*count) (const BloomFilter *f, uint64 h);

	/*
	 * The aggregate: the first state of a call with nargs arguments (the
	 * capacity given when nargs is 4; light: the light entry points);
	 * whether a state was made with the row's parameters; a row's hash
	 * added to the state; a partial state as the filter it stands for (the
	 * union aggregate's second argument; v itself when it is one); two
	 * filters or light states (not hash lists) combined into f1's value;
	 * and the final step's value of a state, a new one (the state stays as
	 * it is).  The final step of no rows checks the call's parameters as a
	 * row's and makes an empty filter when the capacity is known.
	 */
	struct varlena *(*agg_new_state) (int nargs, int64 capacity, double fpr,
									  BloomPlan *plan, bool light);
	bool		(*agg_state_fits) (const BloomFilter *f, int nargs, int64 capacity,
								   double fpr);
	struct varlena *(*agg_add_row) (struct varlena *state, BloomFilter *f, uint64 h,
									BloomPlan *plan);
	struct varlena *(*agg_as_value) (struct varlena *v, BloomFilter *f, BloomPlan *plan);
	struct varlena *(*agg_merge) (BloomFilter *f1, BloomFilter *f2);
	struct varlena *(*agg_final) (struct varlena *state, BloomFilter *f,
								  BloomPlan *plan);
	/* the parameters' checks, and a new empty filter (decoded into f if given) */
	void		(*check_params) (int64 capacity, double fpr);
	struct varlena *(*new_filter) (uint64 capacity, double fpr, BloomPlan *plan,
								   BloomFilter *f);
} BtFamily;

/* What the batch change functions do to each key */
typedef enum BtChange
{
	BT_CHANGE_ADD,
	BT_CHANGE_ADD_NEW,			/* add unless maybe present */
	BT_CHANGE_REMOVE
} BtChange;

/* glue_family.c: reading a family's arguments */
extern struct varlena *bt_family_arg(FunctionCallInfo fcinfo, const BtFamily *fam,
									 int argno, BloomFilter *f, bool copy);
extern struct varlena *bt_family_union_args(FunctionCallInfo fcinfo, const BtFamily *fam,
											struct varlena **a, struct varlena **b,
											BloomFilter *fa, BloomFilter *fb);
extern void bt_family_check_compatible(const BtFamily *fam, const BloomFilter *a,
									   const BloomFilter *b);

/* glue_family.c: the SQL functions' skeletons */
extern Datum bt_family_add(FunctionCallInfo fcinfo, const BtFamily *fam,
						   BloomKeyEnc enc, bool only_new);
extern Datum bt_family_remove(FunctionCallInfo fcinfo, const BtFamily *fam,
							  BloomKeyEnc enc);
extern Datum bt_family_contains(FunctionCallInfo fcinfo, const BtFamily *fam,
								BloomKeyEnc enc);
extern Datum bt_family_count(FunctionCallInfo fcinfo, const BtFamily *fam,
							 BloomKeyEnc enc);
extern Datum bt_family_change_all(FunctionCallInfo fcinfo, const BtFamily *fam,
								  BtChange change);
extern Datum bt_family_agg_trans(FunctionCallInfo fcinfo, const BtFamily *fam,
								 BloomKeyEnc enc, bool light);
extern Datum bt_family_agg_combine(FunctionCallInfo fcinfo, const BtFamily *fam,
								   const char *fname, bool values);
extern Datum bt_family_agg_final(FunctionCallInfo fcinfo, const BtFamily *fam);

/*
 * A family's aggregate entry points, prefix_agg_combine,
 * prefix_union_trans and prefix_agg_final, and its batch changes,
 * prefix_batch_add_all and prefix_batch_remove_all: the skeletons above
 */
#define BT_FAMILY_FUNC_(name, body) \
	PG_FUNCTION_INFO_V1(name); \
	Datum name(PG_FUNCTION_ARGS) { return body; }
#define BT_FAMILY_AGG_ENTRIES(prefix, fam) \
	BT_FAMILY_FUNC_(prefix##_agg_combine, \
					bt_family_agg_combine(fcinfo, fam, #prefix "_agg_combine", false)) \
	BT_FAMILY_FUNC_(prefix##_union_trans, \
					bt_family_agg_combine(fcinfo, fam, #prefix "_union_trans", true)) \
	BT_FAMILY_FUNC_(prefix##_agg_final, bt_family_agg_final(fcinfo, fam))
#define BT_FAMILY_BATCH_ENTRIES(prefix, fam) \
	BT_FAMILY_FUNC_(prefix##_batch_add_all, \
					bt_family_change_all(fcinfo, fam, BT_CHANGE_ADD)) \
	BT_FAMILY_FUNC_(prefix##_batch_remove_all, \
					bt_family_change_all(fcinfo, fam, BT_CHANGE_REMOVE))

#endif							/* GLUE_FAMILY_H */
