/*-------------------------------------------------------------------------
 *
 * glue_agg.c
 *		What the aggregates of every family share: the aggregate context,
 *		states as plain varlenas updated in place, hash lists (kind 2, the
 *		auto-sized state), and the parameters of a call that saw no rows.
 *
 * Transition types are the families' own types (not internal), so that
 * aggregates split across parallel workers and Citus nodes: a partial
 * state is an ordinary value that goes through the type's I/O.
 *
 *-------------------------------------------------------------------------
 */
#include "bloomtype.h"

#include "catalog/pg_type.h"
#include "nodes/execnodes.h"
#include "nodes/nodeFuncs.h"
#include "nodes/primnodes.h"
#include "utils/expandeddatum.h"
#include "utils/memutils.h"

MemoryContext
bt_agg_context(FunctionCallInfo fcinfo, const char *fname)
{
	MemoryContext aggcxt;

	if (!AggCheckCallContext(fcinfo, &aggcxt))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s called in non-aggregate context", fname)));
	return aggcxt;
}

/* ---------------------------------------------------------------------
 * Expanded states
 *
 * A state that grows by copying (a hash list of millions of hashes) is
 * kept as an expanded object (utils/expandeddatum.h) in a memory context of
 * its own under the aggregate context: the executor keeps a read-write
 * expanded transition value as it is (a flat one it copies whenever the
 * transition returns a new pointer), and the state's one flat value grows
 * with repalloc, which for a large chunk is realloc: the kernel moves the
 * pages instead of copying them.  Wherever the state leaves the aggregate
 * (a partial state sent to the leader, the result of an aggregate without
 * a final function) PostgreSQL flattens it: the value is the flat one,
 * byte for byte.
 * ---------------------------------------------------------------------
 */

static Size
exp_get_flat_size(ExpandedObjectHeader *eohptr)
{
	return VARSIZE(((BtExpState *) eohptr)->flat);
}

static void
exp_flatten_into(ExpandedObjectHeader *eohptr, void *result, Size allocated_size)
{
	BtExpState *es = (BtExpState *) eohptr;

	Assert(allocated_size == VARSIZE(es->flat));
	bt_copy_bytes(result, es->flat, allocated_size);
}

static const ExpandedObjectMethods bt_exp_methods = {
	exp_get_flat_size,
	exp_flatten_into
};

/*
 * May this call keep its state as an expanded object?  Only when PostgreSQL
 * calls it from an aggregate or window node, which gives the call its
 * expression and keeps a read-write expanded transition value whose context
 * is a child of the aggregate context.  A caller without an expression
 * (Citus's worker_partial_agg and coord_combine_agg call the functions so)
 * may copy what it is given without freeing the object; it keeps plain
 * states, as before.
 */
bool
bt_exp_allowed(FunctionCallInfo fcinfo)
{
	return fcinfo->flinfo != NULL && fcinfo->flinfo->fn_expr != NULL &&
		fcinfo->context != NULL &&
		(IsA(fcinfo->context, AggState) || IsA(fcinfo->context, WindowAggState));
}

/* The expanded state of ours d points to (read-write or not), else NULL */
BtExpState *
bt_exp_state(Datum d)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(d);
	ExpandedObjectHeader *eoh;

	if (!VARATT_IS_EXTERNAL_EXPANDED(v))
		return NULL;
	eoh = DatumGetEOHP(d);
	return eoh->eoh_methods == &bt_exp_methods ? (BtExpState *) eoh : NULL;
}

/*
 * A new expanded state holding a copy of the plain state v, in a context
 * of its own under aggcxt (the aggregate context: the executor keeps it as
 * the transition value without copying it, and frees it with that context)
 */
BtExpState *
bt_exp_state_new(const struct varlena *v, MemoryContext aggcxt)
{
	MemoryContext cxt = AllocSetContextCreate(aggcxt, "bloomtype aggregate state",
											  ALLOCSET_SMALL_SIZES);
	BtExpState *es = MemoryContextAlloc(cxt, sizeof(BtExpState));

	EOH_init_header(&es->hdr, &bt_exp_methods, cxt);
	es->flat = MemoryContextAlloc(cxt, VARSIZE(v));
	bt_copy_bytes(es->flat, v, VARSIZE(v));
	return es;
}

/*
 * The plain hash list state v, decoded as f, as a new expanded state (a
 * copy, which f then describes; the executor frees v when the transition
 * returns the expanded state)
 */
BtExpState *
bt_exp_state_adopt(const struct varlena *v, BloomFilter *f, MemoryContext aggcxt)
{
	BtExpState *es = bt_exp_state_new(v, aggcxt);

	bloom_hashlist_rebase(f, BT_DATA(es->flat), f->nslots);
	return es;
}

/*
 * The expanded state's value is now v, made in its context: the old one is
 * freed (unless v is the old one, updated in place)
 */
void
bt_exp_state_replace(BtExpState *es, struct varlena *v)
{
	if (v != es->flat)
	{
		pfree(es->flat);
		es->flat = v;
	}
}

/*
 * The expanded state's flat value made size bytes long, its bytes kept
 * (repalloc; a large chunk grows in place or by moving pages); the caller
 * writes what its length says
 */
struct varlena *
bt_exp_state_resize(BtExpState *es, Size size)
{
	es->flat = repalloc(es->flat, size);
	SET_VARSIZE(es->flat, size);
	return es->flat;
}

/*
 * Makes room in the hash list f, the flat value of the expanded state es,
 * for n more hashes, growing it in place by the core's rule
 * (bloom_hashlist_grown_slots).  False when the hashes would pass what a
 * state holds: then bloom_hashlist_append removes repeats or refuses.
 */
bool
bt_exp_hashlist_room(BtExpState *es, BloomFilter *f, uint64 n, BloomPlan *plan)
{
	uint64		limit = BLOOM_HASHLIST_MAX_HASHES;
	uint64		nslots;
	struct varlena *v;

	if (f->nslots - f->nhashes >= n)
		return true;
	if (bloom_plan_reuse(f->fpr, plan) == BLOOM_OK &&
		bloom_plan_max_capacity(plan) < limit)
		limit = bloom_plan_max_capacity(plan);
	if ((nslots = bloom_hashlist_grown_slots(f, n, limit)) == 0)
		return false;
	v = bt_exp_state_resize(es, VARHDRSZ + bloom_hashlist_size(nslots));
	bloom_hashlist_rebase(f, BT_DATA(v), nslots);
	return true;
}

/* bt_plain_state's slow path: a copy of a toasted or short-header state */
struct varlena *
bt_plain_state_copy(Datum d)
{
	return PG_DETOAST_DATUM_COPY(d);
}

/*
 * Adds h to the light state f (kind 7 or 8) of aggregate aggname, whose
 * value is state: in place when it has a free slot, else into a larger
 * copy or, past its limit, into the dense state it becomes, in the
 * per-call context (the executor copies a new state into the aggregate
 * context).  Returns the state's value; the caller counts the row.
 */
struct varlena *
bt_light_push(BloomFilter *f, struct varlena *state, uint64 h, const char *aggname)
{
	BloomAlloc	a = bt_allocator(CurrentMemoryContext);
	uint8		le[8];
	BloomStatus st;

	if (bloom_hashlist_push(f, h))
		return state;
	bloom_put_le64(le, h);
	if ((st = bloom_light_append(f, le, 1, &a)) != BLOOM_OK)
		elog(ERROR, "could not append to a %s state: %s", aggname, bloom_status_message(st));
	return bt_varlena(f->base);
}

struct varlena *
bt_copy_into(struct varlena *v, MemoryContext cxt)
{
	struct varlena *c = MemoryContextAlloc(cxt, VARSIZE(v));

	bt_copy_bytes(c, v, VARSIZE(v));
	return c;
}

/*
 * An empty hash list with nslots slots, in the current memory context: of
 * version 1, or with a capacity (of the filter it will become) version 3,
 * which only the counting and cuckoo types read
 */
struct varlena *
bt_new_hashlist(uint64 nslots, uint64 capacity, double fpr)
{
	struct varlena *v = bt_new_varlena(bloom_hashlist_size(nslots), CurrentMemoryContext);
	BloomFilter f;

	bloom_init_hashlist(BT_DATA(v), nslots, 0, fpr, 0);
	if (capacity > 0)
	{
		if (bloom_decode_hashlist_any(BT_DATA(v), BT_LEN(v), &f) != BLOOM_OK)
			elog(ERROR, "new hash list does not decode");
		f.version = BLOOM_FORMAT_VERSION_3;
		f.capacity = capacity;
		bloom_write_header(&f);
	}
	return v;
}

/*
 * Appends n hashes (little-endian, at src) to the hash list f, keeping
 * every one, up to la->maxcopies of one hash when the list reaches its
 * limit (past the limit then, an ERROR with la's hint): repeats are copies, which counting and cuckoo filters count.
 * Returns the state itself when it had room, else a new state in the
 * current memory context (the executor copies a replaced state into the
 * aggregate context).
 */
static struct varlena *
hashlist_add(BloomFilter *f, const uint8 *src, uint64 n, BloomPlan *plan,
			 const BtListAgg *la)
{
	BloomAlloc	a = bt_allocator(CurrentMemoryContext);
	uint64		distinct = 0,
				limit = BLOOM_HASHLIST_MAX_HASHES;
	BloomStatus st;

	/* past the core's limit it would keep distinct hashes only */
	if (bloom_plan_reuse(f->fpr, plan) == BLOOM_OK &&
		bloom_plan_max_capacity(plan) < limit)
		limit = bloom_plan_max_capacity(plan);
	if (f->nhashes + n > limit)
	{
		/* repeats past what a filter holds of one key go first */
		if ((st = bloom_hashlist_trim(f, la->maxcopies, &a)) != BLOOM_OK)
			elog(ERROR, "could not trim a %s state: %s", la->aggname, bloom_status_message(st));
		/* a trim that leaves little room would be redone every few rows */
		if (f->nhashes + n > limit - limit / 8)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("too many rows for %s", la->aggname),
					 errdetail("It keeps one 8-byte hash per row until its last step, at most " UINT64_FORMAT " of them, and at most %u of one key once it has that many.",
							   limit, la->maxcopies),
					 errhint("%s", la->limit_hint)));
	}
	st = bloom_hashlist_append(f, src, n, plan, &a, &distinct, &limit);
	if (st != BLOOM_OK)
		elog(ERROR, "could not append to a %s state: %s", la->aggname, bloom_status_message(st));
	return bt_varlena(f->base);
}

/*
 * A row's hash h into the hash list f, counted: in place when it has room
 * (bloom_hashlist_push), else through hashlist_add.  Returns the state,
 * f's value.
 */
struct varlena *
bt_hashlist_push_row(BloomFilter *f, uint64 h, BloomPlan *plan, const BtListAgg *la)
{
	if (!bloom_hashlist_push(f, h))
	{
		uint8		le[8];

		bloom_put_le64(le, h);
		(void) hashlist_add(f, le, 1, plan, la);
	}
	f->nitems = bloom_sat_add(f->nitems, 1);
	bloom_store_items(f);
	return bt_varlena(f->base);
}

/*
 * Two partial hash lists combined: f2's hashes appended to f1 (in place
 * when it has room), the rows counted.  Both must have one rate and
 * capacity, and one key class.  Returns the state, f1's value.
 */
struct varlena *
bt_hashlist_combine(BloomFilter *f1, const BloomFilter *f2, BloomPlan *plan,
					const BtListAgg *la)
{
	struct varlena *s;

	if (f1->fpr != f2->fpr || f1->capacity != f2->capacity)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s capacity and false-positive rate must be the same for every row",
						la->aggname)));
	bt_check_key_classes(la->plural, f1->key_class, f1->key_type, f2->key_class, f2->key_type);
	s = hashlist_add(f1, f2->data, f2->nhashes, plan, la);
	f1->nitems = bloom_sat_add(f1->nitems, f2->nitems);
	bloom_adopt_key_class(f1, f2);
	bloom_write_header(f1);
	return s;
}

/*
 * Is argument argno an empty hash list of version 1 (what an aggregate
 * gives for no rows when it cannot know a size)?  It holds nothing, and
 * stands for no size: removes and unions leave it as it is.  Reads the
 * header only.
 */
bool
bt_is_empty_state(FunctionCallInfo fcinfo, int argno)
{
	struct varlena *v = (struct varlena *) PG_DETOAST_DATUM_SLICE(PG_GETARG_DATUM(argno), 0,
																  BLOOM_HEADER_SIZE);
	BloomFilter f;
	uint64		w48,
				w56;

	return VARSIZE_ANY_EXHDR(v) >= BLOOM_HEADER_SIZE &&
		bloom_decode_common((const uint8 *) VARDATA_ANY(v), BLOOM_HEADER_SIZE, &f, &w48, &w56) == BLOOM_OK &&
		f.kind == BLOOM_KIND_HASHLIST && f.version == BLOOM_FORMAT_VERSION && f.nhashes == 0;
}

void
bt_param_not_null(FunctionCallInfo fcinfo, int argno, const char *aggname,
				  const char *what)
{
	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s %s must not be NULL", aggname, what),
				 errhint("Leave the argument out for the default.")));
}

/*
 * The parameters of an aggregate call (key [, fpr] | [, capacity, fpr])
 * that saw no rows, read from the call's constant arguments, as the
 * transition function never ran: capacity 0 when the call has none.
 * Returns the number of arguments (1 to 3), or 0 when they cannot be known: a parallel plan's final step
 * sees only the partial results, a window has no Aggref, and a generic
 * plan passes parameters, not constants.  The caller checks them.
 */
int
bt_agg_const_params(FunctionCallInfo fcinfo, int64 *capacity, double *fpr)
{
	Aggref	   *aggref = AggGetAggref(fcinfo);
	int			nargs;
	Expr	   *args[3] = {0};
	ListCell   *lc;
	int			i = 0;

	*capacity = 0;
	*fpr = BLOOM_DEFAULT_FPR;
	if (aggref == NULL || aggref->aggsplit != AGGSPLIT_SIMPLE)
		return 0;
	nargs = list_length(aggref->args);
	if (nargs < 1 || nargs > 3)
		return 0;
	foreach(lc, aggref->args)
		args[i++] = ((TargetEntry *) lfirst(lc))->expr;

	if (nargs == 1)
		return 1;
	if (nargs == 2 && IsA(args[1], Const) && exprType((Node *) args[1]) == FLOAT8OID &&
		!((Const *) args[1])->constisnull)
	{
		*fpr = DatumGetFloat8(((Const *) args[1])->constvalue);
		return 2;
	}
	if (nargs == 3 &&
		IsA(args[1], Const) && exprType((Node *) args[1]) == INT8OID &&
		IsA(args[2], Const) && exprType((Node *) args[2]) == FLOAT8OID &&
		!((Const *) args[1])->constisnull && !((Const *) args[2])->constisnull)
	{
		*capacity = DatumGetInt64(((Const *) args[1])->constvalue);
		*fpr = DatumGetFloat8(((Const *) args[2])->constvalue);
		return 3;
	}
	return 0;
}
