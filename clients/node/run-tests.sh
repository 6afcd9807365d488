#!/bin/bash
# The Node reader's tests.
#   run-tests.sh unit         installs the packages (npm ci) if missing, runs the unit tests
#   run-tests.sh agree DIR    the agreement program on DIR/manifest.json
#   run-tests.sh guard        the guard example's test (PG* set by the caller)
# Exit status 0 only on success.
set -euo pipefail
cd "$(dirname "$0")"

deps() {
  # Node.js, npm and the certificate store npm ci needs (scripts/packages.sh)
  source ../../scripts/packages.sh
  bt_need --who clients/node node >&2
  # installed as package-lock.json pins them, unless they are there already
  if [ ! -d node_modules/@node-rs/xxhash ] || [ ! -d node_modules/pg ] ||
     [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund --loglevel=error
  fi
}

case "${1:-}" in
  unit)
    deps
    exec node --test test/*.test.js
    ;;
  agree)
    [ -n "${2:-}" ] || { echo "usage: $0 agree DIR" >&2; exit 2; }
    deps
    exec node bin/agree.js "$2"
    ;;
  guard)
    deps
    BLOOMTYPE_GUARD_TEST=1 exec node --test test/guard.test.js
    ;;
  *)
    echo "usage: $0 unit | agree DIR | guard" >&2
    exit 2
    ;;
esac
