#!/bin/bash
# The client readers against a real server (run by scripts/test.sh inside
# pg_virtualenv; PG* point at a server with bloomtype installed):
#   1. test/vectors/*.json are what the extension makes now
#      (scripts/vectors.sh --check);
#   2. agreement: filters of every kind and key class are built and
#      exported with the server's answers for N keys (half present), and
#      each reader answers alike (clients/*/run-tests.sh agree DIR);
#   3. the cookbook's guards (clients/*/run-tests.sh guard).
# Usage: scripts/clients.sh [export DIR | check] [N]
#   check: with BLOOMTYPE_AGREE_KEEP=DIR, the export is copied into DIR.
#   export DIR: only build the export (for benchmarks and debugging).
# Prints one "ok"/"FAILED" line a check, 9 in all (scripts/test.sh counts
# a missing line as a failure).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-check}
n=${BLOOMTYPE_AGREE_KEYS:-1000000}

export_filters() {
	local dir=$1 db=bloomtype_agree
	mkdir -p "$dir"
	PGOPTIONS="-c client_min_messages=warning" psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" \
		-c "CREATE DATABASE $db TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'" || return 1
	psql -X -q -v ON_ERROR_STOP=1 -v n="$n" -d $db -f "$here/test/agree/build.sql" >/dev/null || return 1
	local list
	list=$(psql -X -At -F ' ' -d $db -c "SELECT name, type, keys,
	            coalesce((extract(epoch FROM since) * 1000000)::bigint::text, '-') FROM agree ORDER BY ord") || return 1
	local first=1 name type keys since
	{
		echo '{"filters": ['
		while read -r name type keys since; do
			psql -X -At -d $db -c "COPY (SELECT encode(f, 'hex') FROM agree WHERE name = '$name') TO STDOUT" |
				perl -ne 'chomp; print pack("H*", $_)' >"$dir/$name.bin" || return 1
			[ -s "$dir/$name.bin" ] || { echo "$name.bin: empty" >&2; return 1; }
			local fn=bloom_contains
			[ "$type" = countingbloom ] && fn=counting_contains
			[ "$type" = cuckoofilter ] && fn=cuckoo_contains
			# the value is cast once (a cast checks it in full), then probed
			# key by key; a light state through the batch form (one call
			# materialises it: bloom_contains would do so a key, 0.2 s each
			# for 500,000 hashes)
			# (OFFSET 0 keeps the answers in a subquery: PostgreSQL 16 and
			# later sort an ordered aggregate's input rows below it, and
			# rows of (f, g) would carry the whole value each, a million
			# copies spilled to disk)
			local probe="SELECT string_agg(a, '' ORDER BY g)
			             FROM (SELECT g, CASE WHEN $fn(v.f, key_$keys(g)) THEN '1' ELSE '0' END AS a
			                     FROM v, generate_series(0, $n - 1) g OFFSET 0) s"
			case $name in *_light)
				probe="SELECT string_agg(CASE WHEN a THEN '1' ELSE '0' END, '' ORDER BY o)
				       FROM v, unnest(${fn}_each(v.f, ARRAY(SELECT key_$keys(g) FROM generate_series(0, $n - 1) g)))
				               WITH ORDINALITY u(a, o)" ;;
			esac
			psql -X -At -d $db -c "COPY (WITH v AS MATERIALIZED (SELECT f::$type AS f FROM agree WHERE name = '$name')
			                             $probe) TO STDOUT" |
				tr -d '\n' >"$dir/$name.ans" || return 1
			local rule=$keys extra=
			if [ "$since" != - ]; then
				# a windowed filter: the answers since a time too
				psql -X -At -d $db -c "COPY (WITH v AS MATERIALIZED (SELECT f::$type AS f, since FROM agree WHERE name = '$name')
				                             SELECT string_agg(a, '' ORDER BY g)
				                               FROM (SELECT g, CASE WHEN $fn(v.f, key_$keys(g), v.since) THEN '1' ELSE '0' END AS a
				                                       FROM v, generate_series(0, $n - 1) g OFFSET 0) s) TO STDOUT" |
					tr -d '\n' >"$dir/$name.since.ans" || return 1
				extra=", \"since\": $since, \"since_answers\": \"$name.since.ans\""
			fi
			if [ "$keys" = date ]; then
				# a client cannot encode dates (class "other"): it probes
				# by their hashes, n little-endian 64-bit words
				psql -X -At -d $db -c "COPY (SELECT bloom_key_hash(key_date(g)) FROM generate_series(0, $n - 1) g ORDER BY g) TO STDOUT" |
					perl -ne 'print pack("q<", $_)' >"$dir/$name.hashes" || return 1
				rule=hash
				extra="$extra, \"hashes\": \"$name.hashes\""
			fi
			[ $first = 1 ] || echo ','
			first=0
			printf '{"name": "%s", "type": "%s", "file": "%s.bin", "keys": "%s", "n": %d, "answers": "%s.ans"%s}' \
				"$name" "$type" "$name" "$rule" "$n" "$name" "$extra"
		done <<<"$list"
		export_sync "$dir" "$db" || return 1
		echo ']}'
	} >"$dir/manifest.json"
	psql -X -q -d postgres -c "DROP DATABASE $db"
	# every answer file is whole, every hash file too
	for f in "$dir"/*.ans; do
		[ "$(stat -c %s "$f")" = "$n" ] || { echo "$f: not $n answers" >&2; return 1; }
	done
	for f in "$dir"/*.hashes; do
		[ -e "$f" ] || continue
		[ "$(stat -c %s "$f")" = "$((8 * n))" ] || { echo "$f: not $n hashes" >&2; return 1; }
	done
}

# The catch-up scenario (test/agree/sync.sql): the filter and mark of a
# logged index, four rounds of changes, the index's answers; one manifest
# entry with "mark" (the file of the base's mark) and "catchups" (each
# round's file of hashes and file of its mark, in order)
export_sync() {
	local dir=$1 db=$2 name=int_index_sync r
	psql -X -q -v ON_ERROR_STOP=1 -v n="$n" -d $db -f "$here/test/agree/sync.sql" >/dev/null || return 1
	# every round complete, the index two layers from the first load on
	[ "$(psql -X -At -d $db -c "SELECT count(*) FILTER (WHERE complete) || '/' || count(*) || '/' ||
	        (bloom_index_info('sync_t_bloom')).layers || '/' ||
	        (SELECT (bloom_info(filter)).layers FROM sync_base) FROM sync_rounds")" = 5/5/2/2 ] || {
		echo "$name: a round of the catch-up scenario was not complete, or the index did not have two layers" >&2
		return 1
	}
	psql -X -At -d $db -c "COPY (SELECT encode(filter::bytea, 'hex') FROM sync_base) TO STDOUT" |
		perl -ne 'chomp; print pack("H*", $_)' >"$dir/$name.bin" || return 1
	psql -X -At -d $db -c "COPY (SELECT string_agg(CASE WHEN bloom_index_contains('sync_t_bloom', key_int(g))
	                                              THEN '1' ELSE '0' END, '' ORDER BY g)
	                               FROM generate_series(0, $n - 1) g) TO STDOUT" |
		tr -d '\n' >"$dir/$name.ans" || return 1
	# the marks, in files of their own (they name the server, so that the
	# exports of two servers differ only there: scripts/test.sh)
	psql -X -At -d $db -c "SELECT mark FROM sync_base" | tr -d '\n' >"$dir/$name.mark" || return 1
	local rounds=
	for r in 1 2 3 4; do
		psql -X -At -d $db -c "COPY (SELECT encode(hashes, 'hex') FROM sync_rounds WHERE r = $r) TO STDOUT" |
			perl -ne 'chomp; print pack("H*", $_)' >"$dir/$name.$r.catchup" || return 1
		psql -X -At -d $db -c "SELECT mark FROM sync_rounds WHERE r = $r" | tr -d '\n' >"$dir/$name.$r.mark" || return 1
		rounds="$rounds${rounds:+, }{\"hashes\": \"$name.$r.catchup\", \"mark\": \"$name.$r.mark\"}"
	done
	printf ',\n{"name": "%s", "type": "bloomfilter", "file": "%s.bin", "keys": "int", "n": %d, "answers": "%s.ans", "mark": "%s.mark", "catchups": [%s]}' \
		"$name" "$name" "$n" "$name" "$name" "$rounds"
}

step() {
	local what=$1
	shift
	if "$@"; then echo "clients: $what ... ok"; else echo "clients: $what ... FAILED"; fi
}

case $mode in
export)
	export_filters "$2"
	;;
check)
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
	step "test vectors up to date" bash "$here/scripts/vectors.sh" --check
	step "export of $n keys a filter" export_filters "$dir"
	# scripts/test.sh compares what two servers exported
	[ -n "${BLOOMTYPE_AGREE_KEEP:-}" ] && cp "$dir"/* "$BLOOMTYPE_AGREE_KEEP"/
	for lang in python node go; do
		step "$lang agrees with the server" bash "$here/clients/$lang/run-tests.sh" agree "$dir"
	done
	for lang in python node go; do
		step "$lang guard (docs/COOKBOOK.md)" env BLOOMTYPE_GUARD_TEST=1 bash "$here/clients/$lang/run-tests.sh" guard
	done
	step "docs/COOKBOOK.md shows the tested guards" /usr/bin/python3 "$here/scripts/cookbook_check.py"
	;;
*)
	echo "usage: $0 [check | export DIR] " >&2
	exit 2
	;;
esac
