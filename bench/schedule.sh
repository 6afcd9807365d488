#!/usr/bin/env bash
# Tightening schedules of scalable filters compared (docs/SCALABLE.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
mkdir -p bench/out
# the core's sources and flags, as src/core/core.mk says
core_cflags=$(make -s --no-print-directory -f src/core/core.mk print-core-cflags)
core_srcs=$(make -s --no-print-directory -f src/core/core.mk print-core-srcs)
gcc -O2 -Wall $core_cflags -o bench/out/bench_schedule bench/bench_schedule.c $core_srcs -lm
bench/out/bench_schedule
