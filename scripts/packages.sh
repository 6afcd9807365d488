# The Debian packages every script of bloomtype needs, in one place, and the
# one function that installs them.  Sourced (bash) by scripts/*.sh, bench/*.sh
# and clients/*/run-tests.sh; nothing else names a package.
#
#   bt_need [--who WHO] [--log FILE] GROUP...
#       installs what the groups list and this machine lacks (apt-get update
#       first, then install; waits for apt's lock, since the test command's
#       stages may run apt at the same time); says "WHO: installing ..."
#       when it does; apt's output goes to FILE (default: shown only when
#       the install fails).  Returns non-zero when apt failed.
#
# An entry PKG is there when dpkg says it is installed; an entry PKG@COMMAND
# when COMMAND is on the PATH (so a Node.js or Go that came another way is
# used as it is, and Debian's package is installed only where there is none).
# Checked against a minimal Debian 12 root (debootstrap --variant=minbase
# bookworm: scripts/fresh_root.sh), which lacks among others bzip2,
# python3, ca-certificates, make and gcc.

# building and installing the extension on PostgreSQL 15 (scripts/build.sh)
BT_PKGS_build=(postgresql-15 postgresql-server-dev-15 postgresql-common libxxhash-dev make gcc)
# the test command's own tools: C unit tests (cmocka), the fuzz replay
# (clang with ASan/UBSan runtimes), the TAP tests (IPC::Run; t/012_sync.pl
# drives the Python guard: python3 with xxhash and psycopg2)
BT_PKGS_test=(libcmocka-dev clang libclang-rt-14-dev libipc-run-perl python3 python3-xxhash python3-psycopg2)
# building PostgreSQL 18.6 from ../shared/vendor (scripts/pg18.sh; the
# tarball is .tar.bz2)
BT_PKGS_pg18=(bzip2 bison flex libreadline-dev zlib1g-dev libicu-dev libssl-dev pkg-config
              libipc-run-perl make gcc)
# building Citus 13.2.2 for 15 (scripts/citus.sh)
BT_PKGS_citus=(patch liblz4-dev libzstd-dev libkrb5-dev libssl-dev libxml2-dev libxslt1-dev
               libreadline-dev libselinux1-dev libpam0g-dev zlib1g-dev libicu-dev make gcc)
# the readers: Python (Debian's python3 and modules), Node (npm ci needs the
# certificate store to reach the npm registry), Go (cgo on libxxhash; libpq
# for the guard example)
BT_PKGS_python=(python3 python3-xxhash python3-pytest python3-psycopg2)
BT_PKGS_node=(nodejs@node npm@npm ca-certificates)
BT_PKGS_go=(golang-go@go gcc libxxhash-dev libpq-dev)
# the demo (scripts/demo.sh: psql on a throwaway cluster, then the Python reader)
BT_PKGS_demo=(python3 python3-xxhash python3-psycopg2)
# the benchmarks: hll (the aggregate's baseline, for 15), plots, RedisBloom
# built from ../shared/vendor (redis, cmake, and its own build's tools)
BT_PKGS_bench=(postgresql-15-hll gnuplot-nox python3)
BT_PKGS_redis=(redis-server redis-tools cmake make gcc g++ git python3)
# scripts/fresh_root.sh
BT_PKGS_root=(debootstrap tar curl)
# Debian's package tools and what debian/control asks to build with
# (scripts/package.sh; on Debian 13 too: no version named), and the
# release archive's tools (scripts/dist.sh)
BT_PKGS_package=(build-essential debhelper dpkg-dev postgresql-all postgresql-server-dev-all libxxhash-dev)
BT_PKGS_dist=(git zip unzip)

bt_need()
{
    local who=bloomtype log="" g e p missing=() seen=" " rc sudo=""
    while [ $# -gt 0 ]; do
        case "$1" in
            --who) who=$2; shift 2 ;;
            --log) log=$2; shift 2 ;;
            *) break ;;
        esac
    done
    for g in "$@"; do
        local -n bt_list="BT_PKGS_$g" || return 2
        [ "${#bt_list[@]}" -gt 0 ] || { echo "bt_need: no group $g" >&2; return 2; }
        for e in "${bt_list[@]}"; do
            p=${e%%@*}
            if [ "$p" != "$e" ]; then
                command -v "${e#*@}" >/dev/null 2>&1 && continue
            else
                dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && continue
            fi
            case "$seen" in *" $p "*) continue ;; esac
            seen+="$p "
            missing+=("$p")
        done
        unset -n bt_list
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    echo "$who: installing ${missing[*]}"
    local out=$log
    [ -n "$out" ] || out=$(mktemp)
    # one bt_need at a time on this machine (apt-get update takes its lists'
    # lock without waiting)
    (
        flock 8
        $sudo apt-get -o DPkg::Lock::Timeout=600 update -qq &&
            DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 \
                install -y -qq --no-install-recommends "${missing[@]}"
    ) >> "$out" 2>&1 8> "${TMPDIR:-/tmp}/bloomtype-apt.lock"
    rc=$?
    if [ "$rc" -ne 0 ]; then
        echo "$who: apt-get could not install ${missing[*]}:" >&2
        tail -15 "$out" >&2
    fi
    [ -n "$log" ] || rm -f "$out"
    return $rc
}
