#!/usr/bin/env bash
# PostgreSQL 18 for the tests and benchmarks that run on both 15 and 18,
# built once per machine from ../shared/vendor and cached.
#
#   scripts/pg18.sh ensure    build PostgreSQL 18.6 (once: cached under
#                             $BLOOMTYPE_PG18_CACHE, keyed by the tarball and
#                             the configure line), with the TAP modules
#
# Prints one last line, which scripts/test.sh and the benchmarks read:
#   pg18: pg_config FILE      the pg_config of the cached build
#   pg18: skipped (REASON)    no PostgreSQL 18 here (no tarball)
#   pg18: failed (REASON)     the tarball is here but the build failed
#                             (scripts/test.sh counts it as a failure)
#
# Debian 12 carries no PostgreSQL 18 package; a machine whose system has one
# can point at it with BLOOMTYPE_PG18_CONFIG=/usr/lib/postgresql/18/bin/pg_config.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/packages.sh
VENDOR=${BLOOMTYPE_VENDOR:-$(cd .. && pwd)/shared/vendor}
C=${BLOOMTYPE_PG18_CACHE:-/var/cache/bloomtype-pg18}
TARBALL=$VENDOR/postgresql-18_18.6.orig.tar.bz2
CONFIGURE=(--enable-tap-tests --with-icu --with-openssl)

skip() { echo "pg18: skipped ($*)"; exit 0; }
fail() { echo "pg18: failed ($*)"; exit 1; }

key() {
    { sha256sum "$TARBALL" | cut -d' ' -f1; echo "${CONFIGURE[*]}"; } |
        sha256sum | cut -d' ' -f1
}

build() {
    local want s src
    want=$(key)
    if [ -f "$C/KEY" ] && [ "$(cat "$C/KEY")" = "$want" ] &&
        [ -x "$C/install/bin/pg_config" ]; then
        echo "pg18: cached in $C"
        return 0
    fi
    mkdir -p "$C" || return 1
    local log=$C/build.log
    : > "$log"
    bt_need --who pg18 --log "$log" pg18 || return 1
    s=$(date +%s)
    rm -rf "$C/src" "$C/install" "$C/KEY"
    mkdir -p "$C/src" || return 1
    echo "pg18: building PostgreSQL 18.6 (about 5 minutes on 2 cores; log $log)"
    tar -C "$C/src" -xjf "$TARBALL" >> "$log" 2>&1 || return 1
    src=$(find "$C/src" -mindepth 1 -maxdepth 1 -type d | head -1)
    (cd "$src" &&
        ./configure --prefix="$C/install" "${CONFIGURE[@]}" &&
        make -j2 && make install && make -C contrib -j2 install) >> "$log" 2>&1 || return 1
    rm -rf "$C/src"
    # the TAP tests run as postgres (initdb refuses root) and install into it
    chmod -R a+rX "$C"
    echo "$want" > "$C/KEY"
    echo "pg18: built in $(( $(date +%s) - s )) s"
}

case "${1:-ensure}" in
    ensure)
        if [ -n "${BLOOMTYPE_PG18_CONFIG:-}" ]; then
            [ -x "$BLOOMTYPE_PG18_CONFIG" ] || skip "BLOOMTYPE_PG18_CONFIG=$BLOOMTYPE_PG18_CONFIG is not executable"
            echo "pg18: pg_config $BLOOMTYPE_PG18_CONFIG"
            exit 0
        fi
        # one build at a time on this machine
        mkdir -p "$C" && chmod 755 "$C"
        exec 9> "$C/lock"
        flock 9
        [ -f "$TARBALL" ] || skip "no $TARBALL: PostgreSQL 18 is not tested on this machine"
        build || fail "the build failed: see $C/build.log"
        echo "pg18: pg_config $C/install/bin/pg_config"
        ;;
    *)
        echo "usage: $0 ensure" >&2
        exit 2
        ;;
esac
