#!/bin/bash
# Generates the client readers' test vectors from the extension:
#   test/vectors/filters.json  filters of every kind a client may receive,
#                              keys of their class and the server's answers
#                              (test/vectors/gen.sql);
#   test/vectors/hostile.json  every value of the server's hostile suites
#                              (sql/*_hostile.sql) and which type accepts it.
#
# Usage: scripts/vectors.sh [--check] [OUTDIR]
#   Needs a server with bloomtype installed, reached through the PG*
#   environment (as pg_virtualenv sets it).  Makes and drops the database
#   bloomtype_vectors.  --check writes to a temporary folder and compares
#   with the committed vectors (exit 1 when they differ).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
out=${1:-$here/test/vectors}
if [ $check = 1 ]; then out=$(mktemp -d); fi
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"; [ $check = 1 ] && rm -rf "$out"; true' EXIT

db=bloomtype_vectors
PGOPTIONS="-c client_min_messages=warning" psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'"
q() { PGOPTIONS="-c client_min_messages=error" psql -X -q -v ON_ERROR_STOP=1 -d $db "$@"; }

q -f "$here/test/vectors/gen.sql" >/dev/null
q -c "\\copy (SELECT ord, name, type, why, encode(f, 'hex') FROM vec_filter ORDER BY ord) TO '$work/filters.tsv'"
q -c "\\copy (SELECT name, ord, key_class, key_text, expect FROM vec_probe ORDER BY name, ord) TO '$work/probes.tsv'"
q -c "\\copy (SELECT name, since, ord, expect FROM vec_since ORDER BY name, since, ord) TO '$work/since.tsv'"

# The hostile suites, each cut before it feeds its values through the
# input doors, in a session of its own; then which type takes each value.
cat >"$work/accepts.sql" <<'EOF'
CREATE FUNCTION pg_temp.accepts(v bytea, t regtype) RETURNS bool LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('SELECT $1::%s', t) USING v;
  RETURN true;
EXCEPTION WHEN others THEN
  RETURN false;
END $$;
-- for an accepted value of class int or of no class yet: the answers for
-- the keys 1 to 16
CREATE FUNCTION pg_temp.answers(v bytea, t regtype) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text; answers text := '';
BEGIN
  IF NOT pg_temp.accepts(v, t) OR get_byte(v, 7) NOT IN (0, 1) THEN
    RETURN NULL;
  END IF;
  FOR i IN 1..16 LOOP
    EXECUTE format('SELECT CASE WHEN %s($1::%s, $2) THEN ''1'' ELSE ''0'' END',
                   CASE t WHEN 'bloomfilter'::regtype THEN 'bloom_contains'
                          WHEN 'countingbloom'::regtype THEN 'counting_contains'
                          ELSE 'cuckoo_contains' END, t)
      INTO STRICT r USING v, i::bigint;
    answers := answers || r;
  END LOOP;
  RETURN answers;
END $$;
EOF

extract() {
	local suite=$1 table=$2 cut=$3
	{
		sed "/$cut/,\$d" "$here/sql/${suite}_hostile.sql"
		cat "$work/accepts.sql"
		echo "\\copy (SELECT '$suite', id, why, encode(v, 'hex'), pg_temp.accepts(v, 'bloomfilter'), pg_temp.accepts(v, 'countingbloom'), pg_temp.accepts(v, 'cuckoofilter'), pg_temp.answers(v, 'bloomfilter'), pg_temp.answers(v, 'countingbloom'), pg_temp.answers(v, 'cuckoofilter') FROM $table ORDER BY id) TO '$work/hostile_$suite.tsv'"
	} >"$work/$suite.sql"
	q -f "$work/$suite.sql" >/dev/null
}
extract bloom hostile '^-- feed each through the three doors'
extract counting cases '^CREATE TEMP TABLE sink'
extract cuckoo cases '^CREATE TEMP TABLE sink'
psql -X -q -d postgres -c "DROP DATABASE $db"

version=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$here/bloomtype.control")
/usr/bin/python3 "$here/test/vectors/tojson.py" "$work" "$out" "$version"

if [ $check = 1 ]; then
	for f in filters.json hostile.json; do
		if ! cmp -s "$out/$f" "$here/test/vectors/$f"; then
			echo "test/vectors/$f is not what the extension makes now: run scripts/vectors.sh" >&2
			exit 1
		fi
	done
	echo "test/vectors: up to date"
fi
