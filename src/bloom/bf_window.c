/*-------------------------------------------------------------------------
 *
 * bf_window.c
 *		Windowed bloom filters (kind 9, src/core/windowed.h) in SQL:
 *		bloom_window, bloom_add and bloom_add_all with a time,
 *		bloom_contains and its array forms since a time, bloom_expire and
 *		bloom_slices.
 *
 * The caller passes every time (the functions stay IMMUTABLE): a key is
 * added to the slice that holds its time, lookups since a time ask the
 * slices that end after it.  Slices are aligned to multiples of their
 * length from 1970-01-01 00:00 UTC, so filters of the same slicing line up
 * whatever the session's time zone.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom.h"

#include "common/int.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

/* Microseconds from the Unix epoch to PostgreSQL's (2000-01-01) */
#define UNIX_TO_PG_USEC \
	((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY)

/* The slice of f that holds t; what names t in an error */
static int64
slice_of(const BloomFilter *f, TimestampTz t, const char *what)
{
	int64		u;
	int64		s = 0;

	if (TIMESTAMP_NOT_FINITE(t) || pg_add_s64_overflow(t, UNIX_TO_PG_USEC, &u) ||
		!bloom_window_slice_valid(s = bloom_window_slice(u, f->slice_usec), f->slice_usec))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("%s is out of the range of a windowed bloom filter", what),
				 errhint("A windowed filter places keys in slices of finite time.")));
	return s;
}

/*
 * The start of slice s of f as a timestamptz: -infinity or infinity past
 * PostgreSQL's range (a value may say any slice its format can hold)
 */
static TimestampTz
slice_start(const BloomFilter *f, int64 s)
{
	int64		t;

	if (pg_mul_s64_overflow(s, f->slice_usec, &t) ||
		pg_sub_s64_overflow(t, UNIX_TO_PG_USEC, &t) || !IS_VALID_TIMESTAMP(t))
	{
		TimestampTz inf;

		if (s < 0)
			TIMESTAMP_NOBEGIN(inf);
		else
			TIMESTAMP_NOEND(inf);
		return inf;
	}
	return (TimestampTz) t;
}

/* f's slice length as an interval (of days and time, as it was given) */
Interval *
bf_window_interval(const BloomFilter *f)
{
	Interval   *iv = palloc0(sizeof(Interval));

	iv->day = (int32) (f->slice_usec / USECS_PER_DAY);
	iv->time = f->slice_usec % USECS_PER_DAY;
	return iv;
}

static const char *
kind_name(const BloomFilter *f)
{
	switch (f->kind)
	{
		case BLOOM_KIND_SCALABLE:
			return "scalable";
		case BLOOM_KIND_BLOCKED:
			return "blocked";
		default:
			return "aggregate state";
	}
}

/* f must be windowed: fname needs its slices */
static void
require_windowed(const BloomFilter *f, const char *fname)
{
	if (f->kind != BLOOM_KIND_WINDOWED)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s with a time needs a windowed bloom filter", fname),
				 errdetail("The filter is of kind \"%s\", which keeps no time.",
						   kind_name(f)),
				 errhint("Make one with bloom_window(capacity, fpr, slice, slices), or call %s without a time.",
						 fname)));
}

/* Refuses an add without a time to a windowed filter (bf_add_hash) */
void
bf_window_needs_time(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("a windowed bloom filter needs the time of each key it adds"),
			 errhint("Use bloom_add(f, key, at timestamptz) or bloom_add_all(f, keys, at timestamptz).")));
}

/* The slice length of an interval: no months (their length varies) */
static int64
slice_usec_of(const Interval *iv)
{
	int64		usec;

	/* infinite intervals (17+) have every field at its limit */
	if (iv->month == PG_INT32_MAX || iv->month == PG_INT32_MIN)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a slice must be a finite length of time")));
	if (iv->month != 0 ||
		pg_mul_s64_overflow((int64) iv->day, USECS_PER_DAY, &usec) ||
		pg_add_s64_overflow(usec, iv->time, &usec))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a slice must be a fixed length of time"),
				 errdetail("Months and years vary in length."),
				 errhint("Give the slice in days, hours, minutes or seconds, e.g. interval '30 days'.")));
	if (usec <= 0 || usec > BLOOM_WINDOW_MAX_SLICE_USEC)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a slice must be longer than zero and at most 1000 years")));
	return usec;
}

/*
 * bloom_window(capacity, fpr, slice, slices): an empty windowed filter of
 * slices slices of slice each (1 to 31), each for capacity keys, the rate
 * over them all at most fpr
 */
PG_FUNCTION_INFO_V1(bloom_window);
Datum
bloom_window(PG_FUNCTION_ARGS)
{
	int64		capacity = PG_GETARG_INT64(0);
	double		fpr = PG_GETARG_FLOAT8(1);
	int64		slice = slice_usec_of(PG_GETARG_INTERVAL_P(2));
	int32		window = PG_GETARG_INT32(3);
	uint64		nblocks;
	int			k;
	BloomStatus st;
	struct varlena *v;

	if (window < 1 || window > BLOOM_WINDOW_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("slices must be between 1 and %d", BLOOM_WINDOW_MAX),
				 errhint("For a longer window, use longer slices, or a table partitioned by time with a bloomfilter index.")));
	if (capacity <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("windowed bloom filter capacity must be positive, not " INT64_FORMAT, capacity),
				 errhint("Give the number of distinct keys a slice should hold, at least 1.")));
	if (!(fpr >= BLOOM_MIN_SCALABLE_FPR && fpr <= BLOOM_MAX_FPR))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("windowed bloom filter false-positive rate %g is out of range", fpr),
				 errhint("Use a rate in [1e-9, 0.5], e.g. 0.01 for 1%%; each slice is planned at the rate divided by slices + 1.")));
	st = bloom_windowed_plan((uint64) capacity, fpr, (uint32) window, &nblocks, &k);
	if (st == BLOOM_E_CAPACITY)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("a window of %d slices of " INT64_FORMAT " keys does not fit in 512 MB",
						window + 1, capacity),
				 errhint("Use fewer or shorter slices (each holds fewer keys), or a larger false-positive rate.")));
	if (st != BLOOM_OK)
		elog(ERROR, "cannot plan a windowed filter: %s", bloom_status_message(st));
	v = bt_new_varlena(bloom_windowed_size(0, nblocks), CurrentMemoryContext);
	bloom_windowed_init(BT_DATA(v), (uint64) capacity, fpr, 0, nblocks, k, slice,
						(uint32) window);
	PG_RETURN_POINTER(v);
}

/*
 * f (v, decoded) moved to slice s: by an add (open: the slice of s made
 * when inside the window) or an expiry.  Returns the value, v itself when
 * nothing changes, and in *target the index of slice s (-1: none).
 */
static struct varlena *
move_to(struct varlena *v, BloomFilter *f, int64 s, bool open, int *target)
{
	BloomWindowPlan p;
	struct varlena *out;
	BloomFilter nf;

	bloom_window_plan(f, s, open, &p);
	*target = p.target;
	if (!p.changed)
		return v;
	out = bt_new_varlena(bloom_window_plan_size(f, &p), CurrentMemoryContext);
	bloom_window_apply(BT_DATA(out), f, &p, &nf);
	*f = nf;
	return out;
}

/*
 * The value v (decoded in f) with the key in argument 1 of fcinfo added at
 * the time in argument 2: its slice made or the window moved first (a new
 * value, or v in place); the key's class is checked first and stored with
 * the first key that goes in (an add older than the window changes nothing)
 */
static struct varlena *
add_at(FunctionCallInfo fcinfo, struct varlena *v, BloomFilter *f,
	   BloomKeyInfo *ki)
{
	int			target;

	bloom_check_key(f->key_class, f->key_type, ki, true);
	v = move_to(v, f, slice_of(f, PG_GETARG_TIMESTAMPTZ(2), "the time of a key"),
				true, &target);
	if (target >= 0)
	{
		bf_admit_key(f, ki);
		(void) bloom_windowed_insert(f, target,
									 bloom_key_hash_fast(ki, PG_GETARG_DATUM(1), f->seed));
	}
	return v;
}

/* A private, decoded copy of argument 0, which must be windowed */
static struct varlena *
windowed_arg(FunctionCallInfo fcinfo, BloomFilter *f, const char *fname)
{
	struct varlena *v = bf_arg(fcinfo, 0, f, BT_API_1_6, true);

	require_windowed(f, fname);
	return v;
}

/*
 * bloom_add(f, key, at): key added to the slice of at.  Not strict, as
 * bloom_add(f, key) is not: a NULL key or time adds nothing; a NULL filter
 * gives NULL (a windowed filter is not made on add: it needs its slicing).
 */
static Datum
bf_add_at(FunctionCallInfo fcinfo, BloomKeyEnc enc)
{
	BloomKeyInfo *ki;
	struct varlena *v;
	BloomFilter f;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	v = windowed_arg(fcinfo, &f, "bloom_add");
	ki = bt_cache_key(fcinfo, enc, false);
	PG_RETURN_POINTER(add_at(fcinfo, v, &f, ki));
}

/* C names:
 *	bloom_add_at_int8, bloom_add_at_int4, bloom_add_at_int2,
 *	bloom_add_at_text, bloom_add_at_bytea, bloom_add_at_uuid,
 *	bloom_add_at_any
 */
#define ADD_AT_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(bloom_add_at, suffix, bf_add_at(fcinfo, enc))
BT_KEY_TYPES(ADD_AT_, BT_NO_ALIAS)

/* bloom_add_all(f, keys, at): every non-NULL element at one time */
PG_FUNCTION_INFO_V1(bloom_add_all_at);
Datum
bloom_add_all_at(PG_FUNCTION_ARGS)
{
	BloomKeyInfo *ki;
	struct varlena *v;
	BloomFilter f;
	BtBatchKeys keys;
	int			target;
	int			m = 0;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	v = windowed_arg(fcinfo, &f, "bloom_add_all");
	ki = bt_cache_key(fcinfo, BKE_UNKNOWN, true);
	bt_hash_elements(fcinfo, ki, f.seed, &keys);
	for (int i = 0; i < keys.n; i++)
		m += !keys.nulls[i];
	if (m == 0)
		PG_RETURN_POINTER(v);	/* no key: the window stays where it is */
	bloom_check_key(f.key_class, f.key_type, ki, true);
	v = move_to(v, &f, slice_of(&f, PG_GETARG_TIMESTAMPTZ(2), "the time of a key"),
				true, &target);
	if (target >= 0)
		bf_admit_key(&f, ki);
	if (target >= 0)
		for (int i = 0; i < keys.n; i++)
		{
			BT_CANCEL_POINT(i);
			if (!keys.nulls[i])
				(void) bloom_windowed_insert(&f, target, keys.hashes[i]);
		}
	PG_RETURN_POINTER(v);
}

/*
 * The first slice of f (windowed) that ends after since: the slice that
 * holds since, or a later one
 */
static int
first_since(const BloomFilter *f, TimestampTz since)
{
	/* every slice ends after -infinity, none after infinity */
	if (TIMESTAMP_IS_NOBEGIN(since))
		return 0;
	if (TIMESTAMP_IS_NOEND(since))
		return (int) f->nlayers;
	return bloom_window_first_since(f, slice_of(f, since, "since"));
}

/*
 * bloom_contains(f, key, since): whether a slice that ends after since may
 * hold key.  The filter comes from the call site's cache, as
 * bloom_contains(f, key)'s does.
 */
static Datum
bf_contains_since(FunctionCallInfo fcinfo, BloomKeyEnc enc)
{
	BloomKeyInfo *ki = bt_cache_key(fcinfo, enc, false);
	BfProbe    *p = bt_cache_value(fcinfo, bf_probe_methods(BT_API_1_6));
	BloomFilter *f = &p->f;

	require_windowed(f, "bloom_contains");
	if (f->key_class == BLOOM_KEY_NONE)
		PG_RETURN_BOOL(false);
	bloom_check_key(f->key_class, f->key_type, ki, false);
	PG_RETURN_BOOL(bloom_windowed_contains_from(f, first_since(f, PG_GETARG_TIMESTAMPTZ(2)),
												bloom_key_hash_fast(ki, PG_GETARG_DATUM(1),
																	f->seed)));
}

/* C names:
 *	bloom_contains_since_int8, bloom_contains_since_int4,
 *	bloom_contains_since_int2, bloom_contains_since_text,
 *	bloom_contains_since_bytea, bloom_contains_since_uuid,
 *	bloom_contains_since_any
 */
#define CONTAINS_SINCE_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(bloom_contains_since, suffix, bf_contains_since(fcinfo, enc))
BT_KEY_TYPES(CONTAINS_SINCE_, BT_NO_ALIAS)

/*
 * The array forms since a time: the filter seen through the slices that
 * end after since (a copy of the probe, its slices from the first such)
 */
static const void *
probe_since(FunctionCallInfo fcinfo, const void *filter)
{
	const BfProbe *p = filter;
	BfProbe    *q;
	int			from;

	require_windowed(&p->f, "bloom_contains");
	from = first_since(&p->f, PG_GETARG_TIMESTAMPTZ(2));
	q = palloc(sizeof(BfProbe));
	*q = *p;
	q->f.nlayers = p->f.nlayers - from;
	for (uint64 i = 0; i < q->f.nlayers; i++)
	{
		q->f.layers[i] = p->f.layers[i + from];
		q->f.slice_no[i] = p->f.slice_no[i + from];
	}
	return q;
}

static const BtBatchProbe probe_windowed = {
	.methods = &bf_probe_as_scalable,
	.noun = "bloom filter",
	.narrow = probe_since,
	.contains = bloom_filter_contains,
};

/* C names:
 *	bloom_since_batch_contains_each, bloom_since_batch_contains_all,
 *	bloom_since_batch_contains_any
 */
BT_BATCH_PROBE_ENTRIES(bloom_since, &probe_windowed)

/* bloom_expire(f, at): f without the slices an add at that time would drop */
PG_FUNCTION_INFO_V1(bloom_expire);
Datum
bloom_expire(PG_FUNCTION_ARGS)
{
	struct varlena *v;
	BloomFilter f;
	int			target;

	v = windowed_arg(fcinfo, &f, "bloom_expire");
	PG_RETURN_POINTER(move_to(v, &f, slice_of(&f, PG_GETARG_TIMESTAMPTZ(1), "the time"),
							  false, &target));
}

/*
 * bloom_slices(f): a row a kept slice, oldest first: its start and end,
 * its keys, its bytes of bits and the rate its bits give
 */
PG_FUNCTION_INFO_V1(bloom_slices);
Datum
bloom_slices(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	BloomFilter f;
	struct varlena *v = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));

	bf_decode_or_error(v, &f);
	require_windowed(&f, "bloom_slices");
	InitMaterializedSRF(fcinfo, 0);
	for (uint64 i = 0; i < f.nlayers; i++)
	{
		Datum		values[5];
		bool		nulls[5] = {0};

		values[0] = TimestampTzGetDatum(slice_start(&f, f.slice_no[i]));
		values[1] = TimestampTzGetDatum(slice_start(&f, f.slice_no[i] + 1));
		values[2] = Int64GetDatum(clamp_int64(f.layers[i].nitems));
		values[3] = Int64GetDatum((int64) (f.nblocks * BLOOM_BLOCK_BYTES));
		values[4] = Float8GetDatum(bloom_layer_estimate_fpr(&f.layers[i], &bt_cancel));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * bloom_agg(key, at, slice, slices [, capacity, fpr]): the windowed filter
 * of a history, the window ending at the latest at.  The state is the
 * filter itself, changed in place while the slices it keeps stay (the
 * executor owns it); a new slice makes a new value.  Rows may come in any
 * order and partial states unite slice by slice (bloom_union_trans, the
 * combine step): a key whose time the window has passed is dropped either
 * way, so the slices and their bits are the same (their item counts are
 * not: a union adds its parts' counts, and a key that sets no new bit is
 * not counted, which depends on the order).  NULL keys and times add
 * nothing.
 */
#define BF_WINDOW_AGG_CAPACITY	100000

static Datum
bf_window_agg_trans(FunctionCallInfo fcinfo, BloomKeyEnc enc)
{
	struct varlena *v;
	BloomFilter f;
	BloomKeyInfo *ki;
	int64		slice;
	int32		window;
	int64		capacity = PG_NARGS() > 5 ? PG_GETARG_INT64(5) : BF_WINDOW_AGG_CAPACITY;
	double		fpr = PG_NARGS() > 6 ? PG_GETARG_FLOAT8(6) : BLOOM_DEFAULT_FPR;

	(void) bt_agg_context(fcinfo, "bloom_agg");
	if (PG_ARGISNULL(3) || PG_ARGISNULL(4) || (PG_NARGS() > 6 && (PG_ARGISNULL(5) || PG_ARGISNULL(6))))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("bloom_agg needs a slice, a number of slices, a capacity and a rate that are not NULL")));
	slice = slice_usec_of(PG_GETARG_INTERVAL_P(3));
	window = PG_GETARG_INT32(4);
	if (PG_ARGISNULL(0))
	{
		if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
			PG_RETURN_NULL();
		v = (struct varlena *) DatumGetPointer(DirectFunctionCall4(bloom_window,
																	Int64GetDatum(capacity),
																	Float8GetDatum(fpr),
																	PG_GETARG_DATUM(3),
																	Int32GetDatum(window)));
	}
	else
		v = bt_plain_state(PG_GETARG_DATUM(0)); /* a state of any origin */
	bf_decode_or_error(v, &f);
	require_windowed(&f, "bloom_agg");
	if (f.slice_usec != slice || f.window != (uint32) window ||
		f.capacity != (uint64) capacity || f.fpr != fpr)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom_agg slice, slices, capacity and false-positive rate must be the same for every row")));
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		PG_RETURN_POINTER(v);
	ki = bt_cache_key(fcinfo, enc, false);

	/*
	 * In place while the slices stay; a new value when they change, which
	 * the executor copies into the aggregate's memory (freeing the old)
	 */
	PG_RETURN_POINTER(add_at(fcinfo, v, &f, ki));
}

/* C names:
 *	bloom_window_agg_trans_int8, bloom_window_agg_trans_int4,
 *	bloom_window_agg_trans_int2, bloom_window_agg_trans_text,
 *	bloom_window_agg_trans_bytea, bloom_window_agg_trans_uuid,
 *	bloom_window_agg_trans_any
 */
#define WINDOW_AGG_(suffix, sqltype, enc, vol) \
	BT_KEY_ENTRY(bloom_window_agg_trans, suffix, bf_window_agg_trans(fcinfo, enc))
BT_KEY_TYPES(WINDOW_AGG_, BT_NO_ALIAS)
