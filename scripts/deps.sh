#!/usr/bin/env bash
# Installs from Debian's packages what bloomtype needs to build (and, with
# more groups named, to test: scripts/packages.sh lists them all).
#
#   bash scripts/deps.sh [GROUP...]     default: build
#
# Skips apt entirely when everything is there already.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/packages.sh
[ $# -gt 0 ] || set -- build
bt_need --who deps "$@"
