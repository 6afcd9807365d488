#!/usr/bin/env bash
# Lookup order in scalable filters (docs/SCALABLE.md): builds and runs
# bench/bench_layers.c.  Usage: bash bench/layers.sh [INITIAL [GROWTH]]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
mkdir -p bench/out
gcc -O2 -march=x86-64 -Isrc/core -o bench/out/bench_layers bench/bench_layers.c src/core/*.c -lm
bench/out/bench_layers "$@"
