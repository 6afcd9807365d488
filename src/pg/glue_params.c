/*-------------------------------------------------------------------------
 *
 * glue_params.c
 *		The error of two filters that do not combine: the parameter in
 *		which they differ (BloomParam, from the core's *_compatible), in
 *		whole messages.
 *
 * One table, indexed by the parameter, holds the messages of every family
 * (the family's plural noun is their argument), so that each message is
 * one string for translators and no caller turns a word back into a
 * parameter.
 *
 *-------------------------------------------------------------------------
 */
#include "bloomtype.h"

typedef struct BtParamText
{
	const char *differs;		/* errmsg, of the family's plural noun */
	const char *values;			/* errdetail, of the two filters' values */
} BtParamText;

static const BtParamText param_text[BLOOM_NUM_PARAMS] = {
	[BLOOM_PARAM_KIND] = {
		gettext_noop("cannot combine %s with different kind"),
		gettext_noop("The first filter has kind %s, the second %s.")},
	[BLOOM_PARAM_GROWTH] = {
		gettext_noop("cannot combine %s with different growth policy"),
		gettext_noop("The first filter has growth policy %s, the second %s.")},
	[BLOOM_PARAM_EXPANSION] = {
		gettext_noop("cannot combine %s with different expansion"),
		gettext_noop("The first filter has expansion %s, the second %s.")},
	[BLOOM_PARAM_HASH] = {
		gettext_noop("cannot combine %s with different hash algorithm"),
		gettext_noop("The first filter has hash algorithm %s, the second %s.")},
	[BLOOM_PARAM_SEED] = {
		gettext_noop("cannot combine %s with different hash seed"),
		gettext_noop("The first filter has hash seed %s, the second %s.")},
	[BLOOM_PARAM_CAPACITY] = {
		gettext_noop("cannot combine %s with different capacity"),
		gettext_noop("The first filter has capacity %s, the second %s.")},
	[BLOOM_PARAM_FPR] = {
		gettext_noop("cannot combine %s with different false-positive rate"),
		gettext_noop("The first filter has false-positive rate %s, the second %s.")},
	[BLOOM_PARAM_NBLOCKS] = {
		gettext_noop("cannot combine %s with different number of blocks"),
		gettext_noop("The first filter has number of blocks %s, the second %s.")},
	[BLOOM_PARAM_HASHES] = {
		gettext_noop("cannot combine %s with different hashes per key"),
		gettext_noop("The first filter has hashes per key %s, the second %s.")},
	[BLOOM_PARAM_KEY_TYPE] = {
		gettext_noop("cannot combine %s with different key type"),
		gettext_noop("The first filter has key type %s, the second %s.")},
	[BLOOM_PARAM_LAYERS] = {
		gettext_noop("cannot combine %s with different layer geometry"),
		gettext_noop("The first filter has layer geometry %s, the second %s.")},
	[BLOOM_PARAM_BUCKET] = {
		gettext_noop("cannot combine %s with different bucket size"),
		gettext_noop("The first filter has bucket size %s, the second %s.")},
	[BLOOM_PARAM_MAX_KICKS] = {
		gettext_noop("cannot combine %s with different max kicks"),
		gettext_noop("The first filter has max kicks %s, the second %s.")},
	[BLOOM_PARAM_SLICING] = {
		gettext_noop("cannot combine %s with different slicing"),
		gettext_noop("The first filter has slices of %s, the second %s.")},
};

/*
 * Raises the ERROR of two filters (plural names their type) that differ in
 * param: with first and second, the two values as the detail says them
 * (NULL: no detail); hint, what combines.  A difference of key type is
 * the caller's to report first, by bt_check_key_classes.
 */
void
bt_param_mismatch(const char *plural, BloomParam param, const char *first,
				  const char *second, const char *hint)
{
	const BtParamText *t;

	if (param <= BLOOM_PARAM_NONE || param >= BLOOM_NUM_PARAMS)
		elog(ERROR, "unexpected filter parameter %d", (int) param);
	t = &param_text[param];
	if (first != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg(t->differs, plural),
				 errdetail(t->values, first, second),
				 errhint("%s", hint)));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg(t->differs, plural),
			 errhint("%s", hint)));
}
