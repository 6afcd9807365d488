#!/usr/bin/env bash
# Tightening schedules of scalable filters compared (docs/SCALABLE.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
mkdir -p bench/out
gcc -O2 -Wall -Isrc/core -o bench/out/bench_schedule bench/bench_schedule.c src/core/*.c -lm
bench/out/bench_schedule
