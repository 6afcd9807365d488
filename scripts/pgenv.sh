#!/usr/bin/env bash
# Runs a command against a throwaway cluster of the PostgreSQL that
# PG_CONFIG names, the way Debian's pg_virtualenv does for its packaged
# versions (which this uses when PG_CONFIG is one of them):
#
#   PG_CONFIG=/path/to/pg_config scripts/pgenv.sh COMMAND [ARG...]
#
# The cluster lives in a temporary directory, listens on a unix socket
# there only, and is stopped and removed when COMMAND ends; COMMAND sees
# PGHOST, PGPORT, PGUSER (postgres) and PGDATABASE and its exit status is
# this script's.  Extra server settings: PGENV_OPTS="name=value ..." (no
# spaces inside a value).
# As root the server runs as postgres (initdb refuses root).
set -uo pipefail
: "${PG_CONFIG:?set PG_CONFIG}"
bindir=$("$PG_CONFIG" --bindir) || exit 1
case "$bindir" in
    /usr/lib/postgresql/[0-9]*/bin)
        v=${bindir#/usr/lib/postgresql/}; v=${v%/bin}
        opts=(-o shared_preload_libraries=)
        for o in ${PGENV_OPTS:-}; do opts+=(-o "$o"); done
        exec pg_virtualenv -v "$v" "${opts[@]}" "$@"
        ;;
esac
dir=$(mktemp -d /tmp/bloomtype-pgenv.XXXXXX) || exit 1
runas=()
if [ "$(id -u)" -eq 0 ]; then
    chown postgres "$dir"
    runas=(runuser -u postgres --)
fi
cleanup() {
    "${runas[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1
    rm -rf "$dir"
}
trap cleanup EXIT
port=$(( 20000 + RANDOM % 20000 ))
opts="-k $dir -p $port -c listen_addresses='' -c fsync=off"
for o in ${PGENV_OPTS:-}; do opts+=" -c $o"; done
if ! "${runas[@]}" "$bindir/initdb" -D "$dir/data" -U postgres -A trust --no-sync \
        > "$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log"; exit 1
fi
if ! "${runas[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
        -o "$opts" start >/dev/null; then
    cat "$dir/server.log"; exit 1
fi
export PGHOST=$dir PGPORT=$port PGUSER=postgres PGDATABASE=postgres
"$@"
rc=$?
exit $rc
