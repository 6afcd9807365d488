#!/usr/bin/env bash
# bloom_contains per row for fixed, one-layer and grown scalable filters
# (docs/SCALABLE.md), on a throwaway cluster.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
pg_virtualenv -v 15 psql -X -q -f bench/probe_kinds.sql
