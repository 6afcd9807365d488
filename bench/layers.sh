#!/usr/bin/env bash
# Lookup order in scalable filters (docs/SCALABLE.md): builds and runs
# bench/bench_layers.c.  Usage: bash bench/layers.sh [INITIAL [GROWTH]]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
mkdir -p bench/out
# the core's sources and flags, as src/core/core.mk says
core_cflags=$(make -s --no-print-directory -f src/core/core.mk print-core-cflags)
core_srcs=$(make -s --no-print-directory -f src/core/core.mk print-core-srcs)
gcc -O2 -march=x86-64 $core_cflags -o bench/out/bench_layers bench/bench_layers.c $core_srcs -lm
bench/out/bench_layers "$@"
