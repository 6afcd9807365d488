#!/usr/bin/env bash
# CREATE INDEX ... USING bloomfilter within maintenance_work_mem (issue 32):
# a build whose layers fit beside its hash buffer keeps them in memory; a
# larger one writes them on the index's pages from the start and its keys
# through the insert path, a batch at a time.  For N distinct bigint keys
# (default 2M and 5M), each build timed (median of 5, the cases in an order
# rotated each turn) with maintenance_work_mem at 256MB (in memory) and at
# 4MB (on the pages), with a btree build of the same column as the baseline
# of the same run; and the peak private memory (VmHWM less the shared
# buffers touched) of a fresh backend building each.
#   bash bench/build_memory.sh [N ...]   (a throwaway cluster; or set PGHOST)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${PGHOST:-}${PGPORT:-}" ] && [ -z "${BENCH_IN_VENV:-}" ]; then
    # the PostgreSQL to run on: BLOOMTYPE_PG=15 (default) or 18 (bench/pg.sh)
    source bench/pg.sh
    bench_pg_select
    BENCH_IN_VENV=1 bench_pgenv shared_buffers=1GB -- bash "$0" "$@"
    exit
fi
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(2000000 5000000)
psql -X -q -c "CREATE EXTENSION IF NOT EXISTS bloomtype" >/dev/null
build='CREATE INDEX bm_i ON bm USING %s (k)'
run() {  # mwm method: milliseconds of one build, and its private peak in MB
    psql -X -At -v ON_ERROR_STOP=1 <<SQL | tail -1
SET client_min_messages = warning;
DROP INDEX IF EXISTS bm_i;
CHECKPOINT;
SELECT (regexp_match(pg_read_file('/proc/self/status'), 'VmHWM:\s+(\d+) kB'))[1]::int AS h0,
       (regexp_match(pg_read_file('/proc/self/status'), 'RssShmem:\s+(\d+) kB'))[1]::int AS s0 \gset
SET maintenance_work_mem = '$1';
SELECT clock_timestamp() AS t0 \gset
$(printf "$build" "$2");
SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1000) || ' ' ||
       ((regexp_match(pg_read_file('/proc/self/status'), 'VmHWM:\s+(\d+) kB'))[1]::int - :h0
        - ((regexp_match(pg_read_file('/proc/self/status'), 'RssShmem:\s+(\d+) kB'))[1]::int - :s0)) / 1024;
SQL
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "| keys | btree ms | bloomfilter in memory (256MB) ms | x btree | peak MB | on the pages (4MB) ms | x btree | x in memory | peak MB |"
echo "|---|---|---|---|---|---|---|---|---|"
for n in "${sizes[@]}"; do
    psql -X -q -c "SET client_min_messages = warning" -c "DROP TABLE IF EXISTS bm" -c "CREATE TABLE bm AS SELECT (g * 2654435761 % 4294967291)::bigint AS k FROM generate_series(1, $n) g" -c "VACUUM ANALYZE bm" >/dev/null
    cases=("256MB btree" "256MB bloomfilter" "4MB bloomfilter")
    declare -A ms=() mb=()
    for turn in 1 2 3 4 5; do
        for i in 0 1 2; do
            c=${cases[$(((i + turn) % 3))]}
            read -r t m < <(run $c)
            ms[$c]+="$t "; mb[$c]=$m
        done
    done
    bt=$(echo ${ms["256MB btree"]} | tr ' ' '\n' | median)
    im=$(echo ${ms["256MB bloomfilter"]} | tr ' ' '\n' | median)
    pg=$(echo ${ms["4MB bloomfilter"]} | tr ' ' '\n' | median)
    r() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
    echo "| $n | $bt | $im | $(r "$im" "$bt") | ${mb["256MB bloomfilter"]} | $pg | $(r "$pg" "$bt") | $(r "$pg" "$im") | ${mb["4MB bloomfilter"]} |"
    unset ms mb
done
echo
echo "Command: bash bench/build_memory.sh ${sizes[*]} (PostgreSQL ${BLOOMTYPE_PG:-15}, shared_buffers = 1GB)"
