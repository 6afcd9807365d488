#!/bin/bash
# The Go reader's tests (clients/go).
#
#   run-tests.sh unit        the package's tests (test/vectors; no server)
#   run-tests.sh agree DIR   the agreement program on DIR/manifest.json
#   run-tests.sh guard       the guard example's test (PG* point at a server
#                            with bloomtype; it creates and drops go_guard)
#
# Installs what it needs if missing (scripts/packages.sh, group go: Debian's
# golang-go, gcc, libxxhash-dev, libpq-dev). Go 1.19 from Debian, no module proxy: the standard library
# and cgo only.
set -euo pipefail
if [ "${1:-}" = agree ] && [ $# -eq 2 ]; then
	dir=$(cd "$2" && pwd) # DIR as the caller named it, before the cd below
fi
cd "$(dirname "$0")"

source ../../scripts/packages.sh
bt_need --who clients/go go >&2

export GOPROXY=off GOFLAGS=-mod=mod CGO_ENABLED=1 GO111MODULE=on
if [ -z "${HOME:-}" ] && [ -z "${XDG_CACHE_HOME:-}" ] && [ -z "${GOCACHE:-}" ]; then
	export GOCACHE=/tmp/bloomtype-go-cache
fi
[ -n "${GOPATH:-}" ] || [ -n "${HOME:-}" ] || export GOPATH=/tmp/bloomtype-go-path

case "${1:-}" in
unit)
	go vet ./...
	go test -count=1 ./...
	# the cgo build refuses an xxHash older than 0.8.0
	old=$(CGO_CFLAGS="-I$(cd ../../test/xxhash_old && pwd)" go build ./... 2>&1 || true)
	if grep -q 'needs xxHash 0.8.0 or later' <<<"$old"; then
		echo "ok: the build refuses xxHash 0.7"
	else
		echo "FAILED: the build took xxHash 0.7"
		exit 1
	fi
	;;
agree)
	[ $# -eq 2 ] || { echo "usage: $0 agree DIR" >&2; exit 2; }
	go build -o bin/agree ./cmd/agree
	bin/agree "$dir"
	;;
guard)
	BLOOMTYPE_GUARD_TEST=1 go test -count=1 -v -run TestGuard ./examples/guard/
	;;
*)
	echo "usage: $0 unit | agree DIR | guard" >&2
	exit 2
	;;
esac
