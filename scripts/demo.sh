#!/usr/bin/env bash
# The bloomtype demo: installs what it needs, builds and installs the
# extension, starts a throwaway PostgreSQL 15 cluster and runs
# scripts/demo.sql on it (the cluster is removed afterwards).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
pg_virtualenv -v 15 psql -X -q -f scripts/demo.sql
