# Sourced by the benchmarks that start a cluster: which PostgreSQL to run
# on.  BLOOMTYPE_PG=15 (the default: Debian's) or 18 (built once per
# machine from ../shared/vendor by scripts/pg18.sh); bench/am.sh also
# takes --pg N.  bench_pg_select installs bloomtype for that version (18:
# built in bench/out/build18 from a copy of the tree, installed into the
# cached PostgreSQL 18) and sets PG_CONFIG, PG_BIN and BENCH_PG;
# bench_pgenv [name=value ...] -- COMMAND runs COMMAND against a
# throwaway cluster of that version (scripts/pgenv.sh: pg_virtualenv for
# 15) with those server settings.

bench_pg_select()
{
    local v=${1:-${BLOOMTYPE_PG:-15}} root line b
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    case "$v" in
        15)
            PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config
            bash "$root/scripts/build.sh" >&2 || return 1
            ;;
        18)
            line=$(bash "$root/scripts/pg18.sh" ensure | tail -1)
            case "$line" in
                "pg18: pg_config "*) PG_CONFIG=${line#pg18: pg_config } ;;
                *) echo "PostgreSQL 18 is not available: $line" >&2; return 1 ;;
            esac
            b=$root/bench/out/build18
            rm -rf "$b" && mkdir -p "$b" || return 1
            (cd "$root" && tar --exclude=./fuzz-work --exclude=./.git --exclude=./bench/out \
                --exclude='*.o' --exclude='*.bc' --exclude='*.so' -cf - .) | tar -C "$b" -xf - || return 1
            make -C "$b" -s -j2 PG_CONFIG="$PG_CONFIG" >/dev/null &&
                make -C "$b" -s PG_CONFIG="$PG_CONFIG" install >/dev/null || return 1
            ;;
        *)
            echo "PostgreSQL $v: the benchmarks run on 15 or 18" >&2
            return 1
            ;;
    esac
    PG_BIN=$("$PG_CONFIG" --bindir)
    BENCH_PG=$v
    export PG_CONFIG PG_BIN BENCH_PG BLOOMTYPE_PG=$v
}

bench_pgenv()
{
    local opts=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts+=("$1"); shift; done
    [ "${1:-}" = "--" ] && shift
    local root
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    PG_CONFIG=$PG_CONFIG PGENV_OPTS="${opts[*]}" bash "$root/scripts/pgenv.sh" "$@"
}

# bench_cluster_start DIR PORT [name=value ...]: a cluster of the selected
# version made afresh in DIR, listening on a unix socket in /tmp at PORT
# only, with those settings; exports PGHOST, PGPORT, PGUSER, PGDATABASE.
# bench_cluster_stop DIR stops and removes it (call it from an EXIT trap).
# As root the server runs as postgres (initdb refuses root).
bench_cluster_stop()
{
    local as=()
    [ "$(id -u)" -eq 0 ] && as=(runuser -u postgres --)
    "${as[@]}" "$PG_BIN/pg_ctl" -D "$1" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$1"
}

bench_cluster_start()
{
    local dir=$1 port=$2 o opts as=()
    shift 2
    opts="-p $port -k /tmp -c listen_addresses=''"
    for o in "$@"; do opts+=" -c $o"; done
    [ "$(id -u)" -eq 0 ] && as=(runuser -u postgres --)
    bench_cluster_stop "$dir"
    mkdir -p "$dir" || return 1
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    "${as[@]}" "$PG_BIN/initdb" -D "$dir" -A trust -U postgres >/dev/null || return 1
    "${as[@]}" "$PG_BIN/pg_ctl" -D "$dir" -l "$dir/log" -w -o "$opts" start >/dev/null || return 1
    export PGHOST=/tmp PGPORT=$port PGUSER=postgres PGDATABASE=postgres
}
