#!/usr/bin/env bash
# bloom_contains per row for fixed, one-layer and grown scalable filters
# (docs/SCALABLE.md), on a throwaway cluster.
set -euo pipefail
cd "$(dirname "$0")/.."
# the PostgreSQL to run on: BLOOMTYPE_PG=15 (default) or 18 (bench/pg.sh)
source bench/pg.sh
bench_pg_select
bench_pgenv -- psql -X -q -f bench/probe_kinds.sql
