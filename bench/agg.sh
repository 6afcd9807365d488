#!/usr/bin/env bash
# The aggregates' build paths, against the baselines the targets name,
# timed side by side in one run (docs/PERFORMANCE.md, "The aggregate paths").
#
#   bash bench/agg.sh [--rows N] [--turns N] [--own]
#
# Works on the cluster the libpq variables (PGHOST, PGPORT, PGUSER) point
# at, in a database of its own (bloomtype_aggbench, made on first use with
# bloomtype and hll, and a table of --rows bigint keys spread by a prime,
# as bench/data.sql's users); --own starts a throwaway cluster
# (pg_virtualenv) instead.  Builds and installs bloomtype, and installs
# postgresql-15-hll from Debian when it is missing.
#
# Cases: count(*) (the scan), sum(id) (a transition), hll_add_agg of the
# key's hash, bloom_agg(id, rows, 0.01) and bloom_agg(id); each serial
# (w0), with two parallel workers forced as bench/sql.sh does (w2: leader
# not participating), and in the default plan of the table (dflt: two
# workers where the planner chooses them, leader participating).  A turn
# runs every case once, in an order rotated each turn, in one session; the
# first turn is a warm-up.  Every ratio is taken within one turn (both
# sides saw the same moment of a shared machine), and the report gives the
# median of each ratio over the turns, with its range:
#   - x / hll (serial): bloom_agg against hll_add_agg;
#   - speedup share: (x_w0 / x_w2) / (count_w0 / count_w2), the part of
#     count(*)'s speedup from 2 workers that the aggregate gets;
#   - default / serial: the default plan against the serial one.
set -euo pipefail
cd "$(dirname "$0")/.."

rows=2000000
turns=9
own=
while [ $# -gt 0 ]; do
    case "$1" in
        --rows) rows=$2; shift 2 ;;
        --turns) turns=$2; shift 2 ;;
        --own) own=1; shift ;;
        --inner) inner=1; shift ;;
        *) echo "usage: bench/agg.sh [--rows N] [--turns N] [--own]" >&2; exit 2 ;;
    esac
done
[ "$turns" -ge 3 ] || { echo "at least 3 turns" >&2; exit 2; }

# builds and installs bloomtype, and installs postgresql-15-hll (Debian's)
# the PostgreSQL to run on: BLOOMTYPE_PG=15 (default) or 18 (bench/pg.sh;
# Debian has no hll for 18: the hll baseline needs 15)
source bench/pg.sh
if [ -z "${inner:-}" ]; then
    if [ "${BLOOMTYPE_PG:-15}" != 15 ]; then
        echo "bench/agg.sh: its baseline, hll_add_agg, is packaged by Debian for PostgreSQL 15 only" >&2
        exit 2
    fi
    bench_pg_select
    bash scripts/deps.sh bench
fi

if [ -n "$own" ] && [ -z "${inner:-}" ]; then
    bench_pgenv shared_buffers=1GB jit=off max_worker_processes=8 \
        max_parallel_workers=4 work_mem=64MB -- \
        bash bench/agg.sh --inner --rows "$rows" --turns "$turns"
    exit $?
fi

db=bloomtype_aggbench
out=bench/out/agg
mkdir -p "$out"
q() { psql -X -q -v ON_ERROR_STOP=1 -v VERBOSITY=terse "$@"; }

if ! q -d postgres -Atc "SELECT 1 FROM pg_database WHERE datname = '$db'" | grep -q 1; then
    q -d postgres -c "CREATE DATABASE $db"
fi
q -d "$db" -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS bloomtype" -c "CREATE EXTENSION IF NOT EXISTS hll"
tab="keys_$rows"
if ! q -d "$db" -Atc "SELECT to_regclass('$tab') IS NOT NULL" | grep -q t; then
    q -d "$db" -c "CREATE TABLE $tab AS SELECT g::bigint * 7919 AS id FROM generate_series(1, $rows) g" \
        -c "ALTER TABLE $tab SET (parallel_workers = 2)" -c "VACUUM ANALYZE $tab"
fi

serial="SET max_parallel_workers_per_gather = 0;"
forced="SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0; SET parallel_leader_participation = off;"
dflt="RESET max_parallel_workers_per_gather; RESET parallel_setup_cost; RESET parallel_tuple_cost; RESET min_parallel_table_scan_size; RESET parallel_leader_participation;"
names=(count sum hll fixed auto)
exprs=("count(*)" "sum(id)" "pg_column_size(hll_add_agg(hll_hash_bigint(id)))"
       "pg_column_size(bloom_agg(id, $rows, 0.01))" "pg_column_size(bloom_agg(id))")

# the results must not depend on the plan: one check before timing
sums=$(for s in "$serial" "$forced" "$dflt"; do
           printf '%s\nSELECT md5(bloom_agg(id, %s, 0.01)::text), md5(bloom_agg(id)::text) FROM %s;\n' \
               "$s" "$rows" "$tab" | q -d "$db" -At
       done | sort -u | wc -l)
[ "$sums" = 1 ] || { echo "bloom_agg's result differs between plans" >&2; exit 1; }

raw="$out/raw_$rows.tsv"
: > "$raw"
ncase=$(( ${#names[@]} * 3 ))
for ((t = 0; t <= turns; t++)); do
    script=
    labels=()
    for ((c = 0; c < ncase; c++)); do
        i=$(( (c + t) % ncase ))
        e=$(( i % ${#names[@]} ))
        case $(( i / ${#names[@]} )) in
            0) s=$serial; w=w0 ;;
            1) s=$forced; w=w2 ;;
            2) s=$dflt; w=dflt ;;
        esac
        script+=$'\\timing off\n'"$s"$'\n\\timing on\n'"SELECT ${exprs[$e]} FROM $tab;"$'\n'
        labels+=("${names[$e]}_$w")
    done
    times=($(printf '%s' "$script" | q -d "$db" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -n "$ncase"))
    # \timing is on for the queries alone
    [ ${#times[@]} = "$ncase" ] || { echo "turn $t: ${#times[@]} times" >&2; exit 1; }
    [ "$t" = 0 ] && continue    # warm-up
    for ((c = 0; c < ncase; c++)); do
        printf '%s\t%s\t%s\n' "$t" "${labels[$c]}" "${times[$c]}" >> "$raw"
    done
done

# per-turn ratios, then their medians
awk -F'\t' -v rows="$rows" -v turns="$turns" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" '
    { v[$1, $2] = $3; T[$1] = 1; L[$2] = 1 }
    function med(a, n,   i, j, x) {
        for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    function stat(name, expr,   t, n, a, lo, hi) {
        n = 0
        for (t in T) { n++; a[n] = R[expr, t] }
        lo = hi = a[1]
        for (t = 1; t <= n; t++) { if (a[t] < lo) lo = a[t]; if (a[t] > hi) hi = a[t] }
        printf "| %s | %.2f | %.2f-%.2f |\n", name, med(a, n), lo, hi
    }
    END {
        printf "%d rows, %d turns after a warm-up, load average %s at the end\n\n", rows, turns, load
        print "| case | median ms | min | max |"
        print "|---|---|---|---|"
        split("count sum hll fixed auto", N, " ")
        split("w0 w2 dflt", W, " ")
        for (w = 1; w <= 3; w++) for (e = 1; e <= 5; e++) {
            k = N[e] "_" W[w]; n = 0
            for (t in T) { n++; a[n] = v[t, k] }
            lo = hi = a[1]
            for (i = 1; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
            printf "| %s | %.1f | %.1f | %.1f |\n", k, med(a, n), lo, hi
        }
        for (t in T) {
            R["fh", t] = v[t, "fixed_w0"] / v[t, "hll_w0"]
            R["ah", t] = v[t, "auto_w0"] / v[t, "hll_w0"]
            sc = v[t, "count_w0"] / v[t, "count_w2"]
            R["sc", t] = sc
            R["sh", t] = (v[t, "hll_w0"] / v[t, "hll_w2"]) / sc
            R["sf", t] = (v[t, "fixed_w0"] / v[t, "fixed_w2"]) / sc
            R["sa", t] = (v[t, "auto_w0"] / v[t, "auto_w2"]) / sc
            R["df", t] = v[t, "fixed_dflt"] / v[t, "fixed_w0"]
            R["da", t] = v[t, "auto_dflt"] / v[t, "auto_w0"]
        }
        print ""
        print "| ratio (per turn) | median | range |"
        print "|---|---|---|"
        stat("`bloom_agg(id, rows, 0.01)` / hll, serial (target <= 1.0)", "fh")
        stat("`bloom_agg(id)` / hll, serial (target <= 1.1)", "ah")
        stat("count(*) speedup from 2 workers", "sc")
        stat("hll: share of count(*)'"'"'s speedup", "sh")
        stat("`bloom_agg(id, rows, 0.01)`: share of count(*)'"'"'s speedup (target >= 0.9)", "sf")
        stat("`bloom_agg(id)`: share of count(*)'"'"'s speedup (target >= 0.9)", "sa")
        stat("`bloom_agg(id, rows, 0.01)`: default plan / serial (target <= 1.0)", "df")
        stat("`bloom_agg(id)`: default plan / serial (target <= 1.0)", "da")
    }' "$raw" | tee "$out/report_$rows.md"
