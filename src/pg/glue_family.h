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

/* Room for any family's decoded form, which begins with the header */
typedef union BtFamilyFilter
{
	BloomFilter hdr;			/* countingbloom's form, every form's start */
	CuckooFilter cuckoo;
} BtFamilyFilter;

/*
 * A family's semantics.  Every f below is the header its decoded form
 * begins with (countingbloom's whole form; cuckoofilter's CuckooFilter.hdr):
 * a family casts it to its form.  "The value" is the varlena f was decoded
 * from.
 */
typedef struct BtFamily
{
	const char *noun;			/* "counting bloom filter": key errors */
	const char *aggname;		/* "counting_agg": its aggregate's errors */
	const char *trans_fname;	/* its transition, for bt_agg_context */
	const BtListAgg *list_agg;	/* the aggregate's hash lists */
	const BtCacheMethods *probe_methods;	/* what a probe's cache holds */

	/* v decoded into f, or the type's ERROR for a corrupt value */
	void		(*decode) (struct varlena *v, BloomFilter *f);
	/* argument argno detoasted (a private copy when copy) and decoded */
	struct varlena *(*arg) (FunctionCallInfo fcinfo, int argno, BloomFilter *f, bool copy);
	/* what an add adds to: a copy of argument 0, or a new value; NULL: no key */
	struct varlena *(*add_target) (FunctionCallInfo fcinfo, BloomFilter *f);
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
	 * capacity given when nargs is 4; light: the 1.5 entry points); whether
	 * a state was made with the row's parameters; a row's hash added to
	 * the state; a partial state as the filter it stands for (the union
	 * aggregate's second argument; v itself when it is one); two filters
	 * or light states (not hash lists) combined into f1's value; and the
	 * final step's value of a state, a new one (the state stays as it is).
	 * The final step of no rows checks the call's parameters as a row's
	 * and makes an empty filter when the capacity is known.
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
	void		(*check_params) (int64 capacity, double fpr);
	struct varlena *(*new_filter) (uint64 capacity, double fpr, BloomPlan *plan);
} BtFamily;

/* What the batch change functions do to each key */
typedef enum BtChange
{
	BT_CHANGE_ADD,
	BT_CHANGE_ADD_NEW,			/* add unless maybe present */
	BT_CHANGE_REMOVE
} BtChange;

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

#endif							/* GLUE_FAMILY_H */
