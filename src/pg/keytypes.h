/*-------------------------------------------------------------------------
 *
 * keytypes.h
 *		The one list of key types that get their own SQL overloads and C
 *		entry points, in every family.
 *
 * Each family's functions that take a key (add, contains, the aggregate's
 * transition) have one overload per common key type, so that no call
 * looks up its argument's type per row and Citus, which calls transition
 * functions without a call expression, resolves them; anyelement takes
 * the rest.  The C side expands this list into entry points (see
 * BT_KEY_ENTRY in src/pg/bloomtype.h); scripts/gen_sql.pl reads the same
 * lines to write the SQL overloads of the generated install script.
 *
 *	BT_KEY(suffix, SQL type, encoding, volatility)
 *		a C entry point <function>_<suffix> taking keys of that SQL type;
 *		volatility is the marking of its SQL functions (anyelement's are
 *		STABLE: other types hash their send form, and send functions may
 *		be STABLE)
 *	BT_KEY_ALIAS(suffix, SQL type)
 *		an SQL overload served by an existing entry point
 *
 * The order is the order of the overloads in the install script.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BT_KEYTYPES_H
#define BT_KEYTYPES_H

#define BT_KEY_TYPES(BT_KEY, BT_KEY_ALIAS) \
	BT_KEY(int8, bigint, BKE_INT8, IMMUTABLE) \
	BT_KEY(int4, integer, BKE_INT4, IMMUTABLE) \
	BT_KEY(int2, smallint, BKE_INT2, IMMUTABLE) \
	BT_KEY(text, text, BKE_TEXT, IMMUTABLE) \
	BT_KEY_ALIAS(text, varchar) \
	BT_KEY(bytea, bytea, BKE_BYTEA, IMMUTABLE) \
	BT_KEY(uuid, uuid, BKE_UUID, IMMUTABLE) \
	BT_KEY(any, anyelement, BKE_UNKNOWN, STABLE)

#endif							/* BT_KEYTYPES_H */
