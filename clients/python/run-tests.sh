#!/bin/bash
# The Python reader's tests (clients/python), for the test command:
#   run-tests.sh unit        the unit tests (test/vectors; no server needed)
#   run-tests.sh agree DIR   the agreement program on DIR/manifest.json
#   run-tests.sh guard       the guard example's test (PG* env: a server with
#                            bloomtype; makes and drops the database py_guard)
# Runs on Debian's Python (/usr/bin/python3) and installs the Debian packages
# it needs when they are missing (scripts/packages.sh, group python).  Exit
# status 0 only on success.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3

source "$here/../../scripts/packages.sh"
bt_need --who clients/python python >&2 || { echo "run-tests.sh: could not install the python group" >&2; exit 1; }

# -P: never import from the working directory, where the extension's own
# bloomtype.so may lie (the repository root after a build)
export PYTHONSAFEPATH=1
export PYTHONDONTWRITEBYTECODE=1
export PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}"

mode=${1:-unit}
case "$mode" in
unit)
	exec "$py" -m pytest -q -p no:cacheprovider "$here/tests"
	;;
agree)
	[ $# -eq 2 ] || { echo "usage: $0 agree DIR" >&2; exit 2; }
	exec "$py" -P -m bloomtype.agree "$2"
	;;
guard)
	BLOOMTYPE_GUARD_TEST=1 exec "$py" -m pytest -q -p no:cacheprovider "$here/tests/test_guard.py"
	;;
*)
	echo "usage: $0 unit | agree DIR | guard" >&2
	exit 2
	;;
esac
