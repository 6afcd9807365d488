#!/usr/bin/env bash
# The aggregates' build paths of two builds of the library, side by side,
# on the cluster the libpq variables point at (as bench/agg.sh; the
# connecting role must be a superuser: it reads /proc/self/schedstat with
# pg_read_file).
#
#   bash bench/agg_ab.sh BASE.so HEAD.so [--rows N] [--reps N]
#
# Defines each library's bloom_agg (the 1.5 entry points: the capacity form
# starts light) by C symbol in a schema of its own (base, head), in the
# database of bench/agg.sh, checks that both give the same bytes serially
# and with two workers, then runs each case REPS times per library,
# alternating which goes first, each in a fresh connection (a backend loads
# one of the two libraries only).  A run's figure is the CPU time of its
# backend (the leader, in parallel plans) from /proc/self/schedstat, which a
# busy machine disturbs less than the wall clock; the ratio is the median
# of the paired ratios head / base, with their range.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: bench/agg_ab.sh BASE.so HEAD.so [--rows N] [--reps N]" >&2; exit 2; }
base_so=$(readlink -f "$1"); head_so=$(readlink -f "$2"); shift 2
rows=2000000
reps=9
while [ $# -gt 0 ]; do
    case "$1" in
        --rows) rows=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        *) echo "usage: bench/agg_ab.sh BASE.so HEAD.so [--rows N] [--reps N]" >&2; exit 2 ;;
    esac
done
db=bloomtype_aggbench
tab="keys_$rows"
q() { psql -X -q -v ON_ERROR_STOP=1 -v VERBOSITY=terse -d "$db" "$@"; }
q -Atc "SELECT 1 FROM $tab LIMIT 1" >/dev/null || { echo "run bench/agg.sh --rows $rows first (it makes $tab)" >&2; exit 1; }

for lib in base head; do
    so=${lib}_so; so=${!so}
    q <<SQL
SET client_min_messages = warning;
DROP SCHEMA IF EXISTS $lib CASCADE;
CREATE SCHEMA $lib;
CREATE FUNCTION $lib.trans(bloomfilter, bigint) RETURNS bloomfilter
    AS '$so', 'bloom_agg_trans_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION $lib.trans(bloomfilter, bigint, bigint, float8) RETURNS bloomfilter
    AS '$so', 'bloom_agg_trans_int8_light' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION $lib.combine(bloomfilter, bloomfilter) RETURNS bloomfilter
    AS '$so', 'bloom_agg_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION $lib.final(bloomfilter) RETURNS bloomfilter
    AS '$so', 'bloom_agg_final_scalable' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE $lib.bagg(bigint) (SFUNC = $lib.trans, STYPE = bloomfilter,
    COMBINEFUNC = $lib.combine, FINALFUNC = $lib.final, FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE);
CREATE AGGREGATE $lib.bagg(bigint, bigint, float8) (SFUNC = $lib.trans, STYPE = bloomfilter,
    COMBINEFUNC = $lib.combine, FINALFUNC = $lib.final, FINALFUNC_MODIFY = READ_ONLY, PARALLEL = SAFE);
SQL
done

serial="SET max_parallel_workers_per_gather = 0;"
forced="SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0; SET parallel_leader_participation = off;"
for s in "$serial" "$forced"; do
    for a in "id" "id, $rows, 0.01"; do
        b=$(printf '%s\nSELECT md5(base.bagg(%s)::bytea) FROM %s;\n' "$s" "$a" "$tab" | q -At)
        h=$(printf '%s\nSELECT md5(head.bagg(%s)::bytea) FROM %s;\n' "$s" "$a" "$tab" | q -At)
        [ "$b" = "$h" ] || { echo "bloom_agg($a) differs between the libraries ($s)" >&2; exit 1; }
    done
done
echo "results: the same bytes from both libraries, serial and with 2 workers"

# CPU ms of the backend for one query, in a fresh connection
cpu()
{
    printf "%s\nSELECT split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint AS c0 \\\\gset\n%s;\nSELECT (split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint - :c0) / 1e6;\n" \
        "$1" "$2" | q -At | tail -1
}

ab_case()
{
    local label=$1 settings=$2 query=$3 b h
    local -a pairs=()
    cpu "$settings" "${query//LIB/base}" >/dev/null
    cpu "$settings" "${query//LIB/head}" >/dev/null
    for ((i = 0; i < reps; i++)); do
        if [ $((i % 2)) -eq 0 ]; then
            b=$(cpu "$settings" "${query//LIB/base}"); h=$(cpu "$settings" "${query//LIB/head}")
        else
            h=$(cpu "$settings" "${query//LIB/head}"); b=$(cpu "$settings" "${query//LIB/base}")
        fi
        pairs+=("$b $h")
    done
    printf '%s\n' "${pairs[@]}" | awk -v l="$label" '
        function median(a, n,   i, j, t) {
            for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
            return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        { b[NR] = $1; h[NR] = $2; r[NR] = $2 / $1 }
        END {
            m = median(r, NR)
            printf "| %s | %.1f | %.1f | %.3f | %.3f-%.3f |\n", l, median(b, NR), median(h, NR), m, r[1], r[NR]
        }'
}

echo "$rows rows, $reps pairs; CPU ms of the backend (the leader in parallel plans)"
echo
echo "| case | base CPU ms (median) | head CPU ms (median) | head / base (median of paired ratios) | range |"
echo "|---|---|---|---|---|"
ab_case "bloom_agg(id, $rows, 0.01), serial" "$serial" "SELECT pg_column_size(LIB.bagg(id, $rows, 0.01)) FROM $tab"
ab_case "bloom_agg(id), serial" "$serial" "SELECT pg_column_size(LIB.bagg(id)) FROM $tab"
ab_case "bloom_agg(id, $rows, 0.01), 2 workers: the leader" "$forced" "SELECT pg_column_size(LIB.bagg(id, $rows, 0.01)) FROM $tab"
ab_case "bloom_agg(id), 2 workers: the leader" "$forced" "SELECT pg_column_size(LIB.bagg(id)) FROM $tab"
ab_case "bloom_agg(id), default plan: the leader" "" "SELECT pg_column_size(LIB.bagg(id)) FROM $tab"
