#!/usr/bin/env bash
# Builds and installs bloomtype into the local PostgreSQL 15.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
make -s PG_CONFIG="$PG_CONFIG" >/dev/null
$SUDO make -s PG_CONFIG="$PG_CONFIG" install >/dev/null
