#!/usr/bin/env bash
# The bloomtype benchmark: one command from a fresh machine.
#
#   bash bench/run.sh [--scale 1M|10M|100M] [--reps N]
#
# Installs what it needs (PostgreSQL 15, postgresql-15-hll for comparison,
# gnuplot), builds and installs bloomtype, runs the C microbenchmark of the
# core, starts a throwaway cluster, builds the data and times each query
# REPS times (after one warm-up run) in one session, reporting the median
# with min and max.  Writes the table and the exact command into
# docs/PERFORMANCE.md (between its GENERATED markers) and two plots into
# docs/perf/.  Figures are ratios against baselines measured in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."

scale=10M
reps=5
while [ $# -gt 0 ]; do
    case "$1" in
        --scale) scale=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        *) echo "usage: bench/run.sh [--scale 1M|10M|100M] [--reps N]" >&2; exit 2 ;;
    esac
done
case "$scale" in
    1M) rows=1000000 ;; 10M) rows=10000000 ;; 100M) rows=100000000 ;;
    *) echo "scale must be 1M, 10M or 100M" >&2; exit 2 ;;
esac
[ "$reps" -ge 5 ] || { echo "at least 5 repetitions" >&2; exit 2; }
cmdline="bash bench/run.sh --scale $scale --reps $reps"

bash scripts/deps.sh build bench
# the PostgreSQL to run on: BLOOMTYPE_PG=15 (default) or 18 (bench/pg.sh)
source bench/pg.sh
if [ "${BLOOMTYPE_PG:-15}" != 15 ]; then
    echo "bench/run.sh: its SQL part measures against hll, packaged by Debian for PostgreSQL 15 only" >&2
    exit 2
fi
bench_pg_select

out=bench/out
mkdir -p "$out" docs/perf
# the core's sources and flags, as src/core/core.mk says
core_cflags=$(make -s --no-print-directory -f src/core/core.mk print-core-cflags)
core_srcs=$(make -s --no-print-directory -f src/core/core.mk print-core-srcs)
gcc -O2 $core_cflags -o "$out/bench_core" bench/bench_core.c $core_srcs -lm

echo "== core microbenchmark"
"$out/bench_core" "${CORE_MAX_KEYS:-100000000}" "$reps" "$out" | tee "$out/core.tsv"

echo "== SQL benchmark, $rows users"
bench_pgenv shared_buffers=2GB jit=off max_worker_processes=8 \
    max_parallel_workers=4 work_mem=64MB -- \
    bash bench/sql.sh "$rows" "$reps" "$out"

echo "== plots"
gnuplot <<GP
set terminal png size 900,560
set output 'docs/perf/fpr_fill.png'
set title 'False-positive rate as a 1M-key, 1% filter fills to 2x its capacity'
set xlabel 'keys added / capacity'
set ylabel 'false-positive rate'
set logscale y
set key top left
set grid
plot '$out/fill.dat' using 1:2 with points pt 7 title 'measured (1M absent keys)', \
     '' using 1:3 with lines lw 2 title 'predicted by the sizing model', \
     '' using 1:4 with lines dt 2 title 'estimated from the bits (bloom\_info)', \
     0.01 with lines dt 3 title 'target'
set output 'docs/perf/lookup_ns.png'
set title 'Core lookup time against filter size (1%)'
set format x '%.0s%cB'
set xlabel 'filter size (bytes)'
set ylabel 'ns per lookup'
unset logscale y
set logscale x 2
plot '$out/lookup.dat' using 1:2 with linespoints pt 7 title 'absent keys', \
     '' using 1:3 with linespoints pt 5 title 'present keys'
GP

echo "== report"
bash bench/report.sh "$out" "$rows" "$reps" "$cmdline" > "$out/report.md"
awk -v rep="$out/report.md" '
    /<!-- BEGIN GENERATED -->/ { print; while ((getline l < rep) > 0) print l; skip = 1; next }
    /<!-- END GENERATED -->/ { skip = 0 }
    !skip' docs/PERFORMANCE.md > "$out/PERFORMANCE.md"
mv "$out/PERFORMANCE.md" docs/PERFORMANCE.md
cat "$out/report.md"
