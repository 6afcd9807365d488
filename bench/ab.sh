#!/usr/bin/env bash
# A/B of the hot paths between two builds of bloomtype, side by side in one
# run: the library of a base revision and the one of the working tree.
#
#   bash bench/ab.sh [--base REV] [--rows N] [--reps N]
#
# Builds the base revision (default HEAD) in a temporary worktree and the
# working tree, starts one throwaway cluster, builds the data once, and
# defines each library's aggregate and contains functions in a schema of
# its own (base.*, head.*), by C symbol.  Each query then runs REPS times
# per library, alternating which goes first, each in a fresh connection,
# so that both see the same machine at the same moments (these machines
# are shared and noisy).  A connection loads only the library its query
# calls.  Prints, per case, the median ms of each, the median of the
# paired ratios head/base (1.00 is no change) and their range.  A floor
# that calls neither library (sum) shows how much the machine drifted.
# For a refactor that must not change speed (docs/PERFORMANCE.md says what
# was measured).
set -euo pipefail
cd "$(dirname "$0")/.."

base=HEAD
rows=10000000
reps=9
while [ $# -gt 0 ]; do
    case "$1" in
        --base) base=$2; shift 2 ;;
        --rows) rows=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --inner) shift; inner=1 ;;
        *) echo "usage: bench/ab.sh [--base REV] [--rows N] [--reps N]" >&2; exit 2 ;;
    esac
done
# the PostgreSQL to run on: BLOOMTYPE_PG=15 (default) or 18 (bench/pg.sh)
source bench/pg.sh

if [ -z "${inner:-}" ]; then
    bench_pg_select
    work=$(mktemp -d /tmp/bloomtype-ab.XXXXXX)
    trap 'git worktree remove --force "$work/base" 2>/dev/null; rm -rf "$work"' EXIT
    chmod 755 "$work"
    git worktree add --detach "$work/base" "$base" >/dev/null
    make -s -C "$work/base" PG_CONFIG="$PG_CONFIG" >/dev/null
    cp "$work/base/bloomtype.so" "$work/base.so"
    if [ "$BENCH_PG" = 15 ]; then cp bloomtype.so "$work/head.so"
    else cp bench/out/build18/bloomtype.so "$work/head.so"; fi
    echo "base: $(git rev-parse --short "$base")  head: working tree  rows: $rows  reps: $reps"
    # nothing preloaded: a library loaded into every backend would answer
    # for the other's internal calls (PostgreSQL 15 exports every symbol)
    AB_DIR=$work bench_pgenv shared_buffers=2GB \
        jit=off max_worker_processes=8 max_parallel_workers=4 work_mem=64MB -- \
        bash bench/ab.sh --inner --rows "$rows" --reps "$reps"
    exit 0
fi

q() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }

q -c "CREATE EXTENSION bloomtype"
q -v rows="$rows" -f bench/data.sql
# the other families' filters of the same keys, and the probes in arrays of 1,000
q <<SQL
CREATE TABLE families AS
    SELECT counting_agg(user_id, $rows, 0.01) AS c, cuckoo_agg(user_id, $rows, 0.01) AS k FROM users;
CREATE TABLE probe_arrays AS SELECT array_agg(id) AS ids FROM probes GROUP BY id / 1000;
SQL
q -c "VACUUM ANALYZE users, probes, filters, families, probe_arrays"
for lib in base head; do
    so="$AB_DIR/$lib.so"
    q <<SQL
CREATE SCHEMA $lib;
CREATE FUNCTION $lib.trans(bloomfilter, bigint) RETURNS bloomfilter
    AS '$so', 'bloom_agg_trans_int8' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION $lib.trans(bloomfilter, bigint, bigint, float8) RETURNS bloomfilter
    AS '$so', 'bloom_agg_trans_int8_scalable' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION $lib.combine(bloomfilter, bloomfilter) RETURNS bloomfilter
    AS '$so', 'bloom_agg_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION $lib.final(bloomfilter) RETURNS bloomfilter
    AS '$so', 'bloom_agg_final_scalable' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE $lib.bagg(bigint) (SFUNC = $lib.trans, STYPE = bloomfilter,
    COMBINEFUNC = $lib.combine, FINALFUNC = $lib.final, FINALFUNC_MODIFY = READ_ONLY,
    PARALLEL = SAFE);
CREATE AGGREGATE $lib.bagg(bigint, bigint, float8) (SFUNC = $lib.trans, STYPE = bloomfilter,
    COMBINEFUNC = $lib.combine, FINALFUNC = $lib.final, FINALFUNC_MODIFY = READ_ONLY,
    PARALLEL = SAFE);
CREATE FUNCTION $lib.contains(bloomfilter, bigint) RETURNS boolean
    AS '$so', 'bloom_contains_int8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION $lib.contains(countingbloom, bigint) RETURNS boolean
    AS '$so', 'counting_contains_int8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION $lib.contains(cuckoofilter, bigint) RETURNS boolean
    AS '$so', 'cuckoo_contains_int8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION $lib.contains_each(countingbloom, anyarray) RETURNS boolean[]
    AS '$so', 'counting_batch_contains_each' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION $lib.contains_each(cuckoofilter, anyarray) RETURNS boolean[]
    AS '$so', 'cuckoo_batch_contains_each' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
SQL
done

serial="SET max_parallel_workers_per_gather = 0;"
par="SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0; SET parallel_leader_participation = off;"

# ms of one query in a fresh connection
timed()
{
    printf '%s\n\\timing on\n%s;\n' "$1" "$2" | q | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1
}

# case label, settings, query with LIB for the schema
ab_case()
{
    local label=$1 settings=$2 query=$3 b h
    local -a pairs=()
    timed "$settings" "${query//LIB/base}" >/dev/null   # warm-up
    timed "$settings" "${query//LIB/head}" >/dev/null
    for ((i = 0; i < reps; i++)); do
        if [ $((i % 2)) -eq 0 ]; then
            b=$(timed "$settings" "${query//LIB/base}"); h=$(timed "$settings" "${query//LIB/head}")
        else
            h=$(timed "$settings" "${query//LIB/head}"); b=$(timed "$settings" "${query//LIB/base}")
        fi
        [ -n "$b" ] && [ -n "$h" ] || { echo "no timing for $label" >&2; exit 1; }
        pairs+=("$b $h")
    done
    printf '%s\n' "${pairs[@]}" | awk -v l="$label" '
        function median(a, n,   i, j, t) {
            for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
            return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        { b[NR] = $1; h[NR] = $2; r[NR] = $2 / $1 }
        END {
            m = median(r, NR)    # sorts r
            printf "| %s | %.1f | %.1f | %.3f | %.3f-%.3f |\n", l, median(b, NR), median(h, NR), m, r[1], r[NR]
        }'
}

echo "| case | base ms (median) | head ms (median) | head / base (median of paired ratios) | range of the ratios |"
echo "|---|---|---|---|---|"
ab_case "floor: sum(user_id), no bloomtype" "$serial" "SELECT sum(user_id) FROM users WHERE 'LIB' <> ''"
ab_case "bloom_agg(user_id, $rows, 0.01), serial" "$serial" "SELECT pg_column_size(LIB.bagg(user_id, $rows, 0.01)) FROM users"
ab_case "bloom_agg(user_id), serial" "$serial" "SELECT pg_column_size(LIB.bagg(user_id)) FROM users"
ab_case "bloom_agg(user_id, $rows, 0.01), 2 workers" "$par" "SELECT pg_column_size(LIB.bagg(user_id, $rows, 0.01)) FROM users"
ab_case "bloom_agg(user_id), 2 workers" "$par" "SELECT pg_column_size(LIB.bagg(user_id)) FROM users"
ab_case "bloom_contains of 1M probes (stored filter)" "$serial" "SELECT count(*) FROM probes WHERE LIB.contains((SELECT f FROM filters WHERE name = 'users'), id)"
ab_case "counting_contains of 1M probes (stored filter)" "$serial" "SELECT count(*) FROM probes WHERE LIB.contains((SELECT c FROM families), id)"
ab_case "cuckoo_contains of 1M probes (stored filter)" "$serial" "SELECT count(*) FROM probes WHERE LIB.contains((SELECT k FROM families), id)"
ab_case "counting_contains_each, 1M probes in arrays of 1,000" "$serial" "SELECT sum(cardinality(LIB.contains_each((SELECT c FROM families), ids))) FROM probe_arrays"
ab_case "cuckoo_contains_each, 1M probes in arrays of 1,000" "$serial" "SELECT sum(cardinality(LIB.contains_each((SELECT k FROM families), ids))) FROM probe_arrays"
