#!/usr/bin/env bash
# The bloomtype demo: installs what it needs, builds and installs the
# extension, starts a throwaway PostgreSQL 15 cluster and runs
# scripts/demo.sql on it, then scripts/demo_client.py (the index's filter
# checked in the application by the Python reader, clients/python); the
# cluster is removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh build demo
bash scripts/build.sh
pg_virtualenv -v 15 bash -c 'psql -X -q -f scripts/demo.sql && /usr/bin/python3 scripts/demo_client.py'
