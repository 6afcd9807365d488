#!/usr/bin/env bash
# What a probe costs by the shape of the query that brings the filter: a
# scalar subquery, a join, GROUP BY the filter (sorted and hashed), a window
# (issue 21).  Times against the scalar-subquery form of the same run, and
# each shape's peak resident memory in a fresh backend, on a throwaway
# cluster:  bash bench/shapes.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${PGHOST:-}${PGPORT:-}" ] && [ -z "${BENCH_IN_VENV:-}" ]; then
    # the PostgreSQL to run on: BLOOMTYPE_PG=15 (default) or 18 (bench/pg.sh)
    source bench/pg.sh
    bench_pg_select
    BENCH_IN_VENV=1 bench_pgenv -- bash "$0" "$@"
    exit
fi
psql -X -q -f bench/shapes.sql
echo
echo "peak resident memory of a fresh backend running each shape once (MB)"
n=$(psql -X -At -c "SELECT count(*) FROM shapes")
for i in $(seq 1 "$n"); do
    row=$(psql -X -At -F '|' -c "SELECT shape, setting, q FROM shapes WHERE n = $i")
    IFS='|' read -r shape setting q <<< "$row"
    set_cmd="SET jit = off;"
    [ -n "$setting" ] && set_cmd="$set_cmd SET $setting = off;"
    mb=$(psql -X -At -c "$set_cmd" -c "$q" -c "SELECT peak_mb()" | tail -1)
    printf '%d | %-42s | %s\n' "$i" "$shape" "$mb"
done
