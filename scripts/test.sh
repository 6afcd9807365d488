#!/usr/bin/env bash
# Runs every bloomtype test suite.  Installs its own dependencies.  Ends
# with "N passed, N failed".
#
# Once (they do not depend on the server): the release metadata and the
# archive PGXN takes (scripts/release_check.sh), the C unit tests of the
# core, a replay of the fuzz corpus under ASan and UBSan, the client
# readers' own tests.  On PostgreSQL 15 (Debian 12's), 17 (Debian 13's),
# 18 (built once per machine from ../shared/vendor by scripts/pg18.sh) and
# 19 (experimental's release candidate): a build without warnings, the
# pg_regress suites on a throwaway cluster, the client readers against the
# server (their answers, and the same bytes from every server), and TAP
# tests.  On 15 and 17 what is tested is Debian's package
# (postgresql-NN-bloomtype, built by dpkg-buildpackage from debian/ and
# installed), its suites run by its autopkgtest.  On 15 and 18 every TAP
# test (concurrency, crash, replication, dump/restore, limits, the
# index's; Citus's on 15, built by scripts/citus.sh; pg_upgrade from 15 on
# 18); on 17 and 19, in debootstrapped roots of Debian's packages
# (scripts/pgroot.sh), the ones that depend on the server's version, and
# on 19 pg_upgrade from 18.  A stage that cannot run for want of something
# this machine cannot get says so on a line of its own.
set -uo pipefail
cd "$(dirname "$0")/.."
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
passed=0
failed=0
log=$(mktemp -d)
. scripts/counts.sh
ok() { echo "$1 ... ok"; passed=$((passed + 1)); }
bad() { echo "$1 ... FAILED"; failed=$((failed + 1)); }

# what every stage below needs from Debian's packages (scripts/packages.sh
# lists them; PostgreSQL 18's, Citus's and the readers' are installed by
# their own stages)
if ! bash scripts/deps.sh build test package dist root; then
    echo "the test command's packages could not be installed"; echo "$passed passed, 1 failed"; exit 1
fi

# 0. the build on 15 (warnings are failures: PGXS prints them on stderr)
make -s PG_CONFIG="$PG_CONFIG" clean >/dev/null 2>&1
bash scripts/build.sh 2>&1 | tee "$log/build15.out"
if [ "${PIPESTATUS[0]}" -ne 0 ]; then echo "build failed"; echo "$passed passed, 1 failed"; exit 1; fi
if grep -q 'warning:' "$log/build15.out"; then bad "build: PostgreSQL 15 without warnings"
else ok "build: PostgreSQL 15 without warnings"; fi
# the build refuses an xxHash older than 0.8.0 (XXH3 hashed otherwise)
if echo '#include "hash.h"' | { gcc -fsyntax-only -Itest/xxhash_old -Isrc/core -x c - 2>&1 || true; } |
        grep -q 'needs xxHash 0.8.0 or later'; then ok "build: refuses xxHash 0.7"
else bad "build: refuses xxHash 0.7"; fi

# release metadata, and the archive PGXN takes, of the tracked files as
# they are (the commit CI checks out, or a developer's edits)
rev=$(git stash create 2>/dev/null)
[ -n "$rev" ] || rev=HEAD
bash scripts/release_check.sh "$rev" "$log/dist" 2>&1 | tee "$log/release.out"
p=$(grep -c '^release: .* \.\.\. ok$' "$log/release.out")
passed=$((passed + p)); failed=$((failed + 5 - p))

# Citus and PostgreSQL 18 build in the background (minutes the first time
# on a machine, then cached) while the unit, fuzz and regression stages
# run; one after the other (PostgreSQL 18 first: its stages come first).
# On a new machine they share the cores with the stages of 17 and 19 below
# (whose roots, made first, cost mostly the network).
bg=$(mktemp -d)
{ bash scripts/pg18.sh ensure > "$bg/pg18" 2>&1; touch "$bg/pg18.done"
  bash scripts/citus.sh ensure > "$bg/citus" 2>&1; } &
bg_pid=$!


# 1. C unit tests of the core (cmocka): one group per core module, each
# with its own summary.  Tests a group announced but did not report (the
# program crashed, or did not build) count as failures.
rm -f test/unit/run_unit
make -s PG_CONFIG="$PG_CONFIG" test/unit/run_unit >/dev/null
test/unit/run_unit 2>&1 | tee "$log/unit.out"
rc=${PIPESTATUS[0]}
sum() { sed -n "s/^\[  $1  \] \([0-9]*\) test.*/\1/p" "$log/unit.out" | awk '{ s += $1 } END { print s + 0 }'; }
p=$(sum PASSED)
f=$(sum FAILED)
n=$(sed -n 's/^\[==========\] Running \([0-9]*\) test.*/\1/p' "$log/unit.out" | awk '{ s += $1 } END { print s + 0 }')
[ "$((p + f))" -lt "$n" ] && f=$((n - p))           # crashed inside a group
if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # crashed or did not build
passed=$((passed + p)); failed=$((failed + f))

# 2. the fuzz harnesses replay their seed corpus (ASan + UBSan)
bash scripts/fuzz.sh replay 2>&1 | tee "$log/fuzz.out"
p=$(grep -c '\.\.\. ok' "$log/fuzz.out")
f=$(grep -c '\.\.\. FAILED' "$log/fuzz.out")
if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # did not build or run
passed=$((passed + p)); failed=$((failed + f))

# PostgreSQL 17 and 19, in roots of Debian's packages (scripts/pgroot.sh:
# made once a machine, then cached), run in the background beside the
# stages of 15 and 18 below, one after the other: each stream is mostly
# one process, and the two share the machine's two cores (the suites that
# time a cancel allow for a second cluster beside them).  Their output is
# shown and counted at the end.
roots=$(mktemp -d)
( for v in 17 19; do
      if bash scripts/pgroot.sh "$v" ensure > "$roots/ensure$v" 2>&1; then
          bash scripts/pgroot.sh "$v" stages "$log/agree$v" > "$roots/stages$v" 2>&1
      fi
  done ) &
roots_pid=$!

# The stages that depend on the server, run once per version.  $1 is the
# version's label, $2 its pg_config, $3 the tree to test in (built and
# installed for that version), $4 a directory where the client stage keeps
# the values it exported.

# 3. pg_regress suites on a throwaway cluster (output that differs between
# versions is in expected/NAME_1.out, which pg_regress accepts as well)
regress() {
    local v=$1 pgc=$2 dir=$3 rc p f
    rm -rf "$dir/results" "$dir/regression.diffs" "$dir/regression.out"
    PG_CONFIG=$pgc bash scripts/pgenv.sh make -C "$dir" -s PG_CONFIG="$pgc" installcheck 2>&1 |
        tee "$log/regress$v.out"
    rc=${PIPESTATUS[0]}
    read -r p f < <(count_regress "$log/regress$v.out" "$rc")
    echo "regress: PostgreSQL $v: $p passed, $f failed"
    passed=$((passed + p)); failed=$((failed + f))
    [ -f "$dir/regression.diffs" ] && [ "$f" -gt 0 ] && head -200 "$dir/regression.diffs"
}

# 4b. the client readers against a throwaway cluster: the vectors are
# current, each reader answers as the server for 1M keys of every filter,
# the cookbook's guards work (scripts/clients.sh); the values and answers
# are kept to compare across versions
clients_check() {
    local v=$1 pgc=$2 keep=$3 p f
    mkdir -p "$keep"
    PG_CONFIG=$pgc BLOOMTYPE_AGREE_KEEP=$keep bash scripts/pgenv.sh bash scripts/clients.sh check 2>&1 |
        sed "s/^clients: /clients: PostgreSQL $v: /" | tee "$log/clients$v.out"
    read -r p f < <(count_clients "$log/clients$v.out")
    passed=$((passed + p)); failed=$((failed + f))
}

# 5. TAP tests (PostgreSQL::Test::Cluster).  They make their own clusters
# with initdb, which refuses to run as root: as root they run as postgres
# in a copy of the tree.  $4... are environment settings for the tests.
tap() {
    local v=$1 pgc=$2 dir=$3 p f l rc
    shift 3
    local runas=()
    if [ "$(id -u)" -eq 0 ]; then
        chown -R postgres "$dir"
        runas=(runuser -u postgres --)
    fi
    "${runas[@]}" env "$@" make -C "$dir" -s PG_CONFIG="$pgc" tap 2>&1 |
        sed "s|^t/|t/ (PostgreSQL $v) |" | tee "$log/tap$v.out"
    rc=${PIPESTATUS[0]}
    read -r p f < <(count_tap "$log/tap$v.out" "$rc")
    passed=$((passed + p)); failed=$((failed + f))
    if [ "$f" -gt 0 ]; then
        for l in "$dir"/tmp_check/log/regress_log_*; do echo "== $l"; tail -40 "$l"; done
    fi
}

# a copy of the tree without build products (the TAP tests' own, and
# PostgreSQL 18's build)
copy_tree() {
    local d
    d=$(mktemp -d "/tmp/bloomtype-$1.XXXXXX")
    tar --exclude=./fuzz-work --exclude=./.git --exclude='*.o' --exclude='*.bc' \
        --exclude='*.so' --exclude=./results --exclude=./tmp_check -cf - . | tar -C "$d" -xf -
    echo "$d"
}

# the values every filter kind exports, and the server's answers for
# them, are the same bytes on 15 and on $1
same_as_15() {
    if [ -n "$(ls "$log/agree15" 2>/dev/null)" ] &&
        diff -r -x "*.mark" "$log/agree15" "$log/agree$1" > "$log/agree.diff" 2>&1; then
        ok "clients: the same values and answers from PostgreSQL 15 and $1 ($(ls "$log/agree15" | wc -l) files)"
    else
        head -20 "$log/agree.diff"
        bad "clients: the same values and answers from PostgreSQL 15 and $1"
    fi
}

# 4a. the client readers' own tests over test/vectors (no server)
for lang in python node go; do
    if bash "clients/$lang/run-tests.sh" unit > "$log/client_$lang.out" 2>&1; then
        ok "clients: $lang unit tests"
    else
        tail -60 "$log/client_$lang.out"
        bad "clients: $lang unit tests"
    fi
done

# PostgreSQL 15: Debian's package, built from the release archive by
# scripts/package.sh (README, "Install from a package"), installed over
# what scripts/build.sh installed and tested by its autopkgtest, which runs
# the pg_regress suites against the installed files; the stages after it
# use the package too.  Without a package, the suites run from the tree.
pkg15=""
bash scripts/package.sh "$log/packages" > "$log/package15.out" 2>&1
rc=$?
cat "$log/package15.out"
deb15=$(sed -n 's/^package: \(.*postgresql-15-bloomtype_.*\.deb\)$/\1/p' "$log/package15.out")
if [ "$rc" -eq 0 ] && [ -n "$deb15" ]; then
    ok "package: scripts/package.sh makes postgresql-15-bloomtype"
    if build_warnings "$log/package15.out" >/dev/null; then
        bad "build: PostgreSQL 15 without warnings (the package's)"
    else ok "build: PostgreSQL 15 without warnings (the package's)"; fi
    if apt-get -o DPkg::Lock::Timeout=600 install -y -qq --reinstall "$deb15" > "$log/install15.out" 2>&1 &&
        [ -z "$(dpkg -V postgresql-15-bloomtype 2>&1)" ]; then
        ok "package: postgresql-15-bloomtype installs, its files as packaged (dpkg -V)"
        pkg15=$(copy_tree pkg15)
    else
        cat "$log/install15.out"; dpkg -V postgresql-15-bloomtype
        bad "package: postgresql-15-bloomtype installs, its files as packaged (dpkg -V)"
    fi
else
    bad "package: scripts/package.sh makes postgresql-15-bloomtype"
fi
if [ -n "$pkg15" ]; then
    # the package's autopkgtest (pg_buildext installcheck)
    (cd "$pkg15" && debian/tests/installcheck) 2>&1 | tee "$log/regress15.out"
    rc=${PIPESTATUS[0]}
    read -r p f < <(count_regress "$log/regress15.out" "$rc")
    echo "regress: PostgreSQL 15 (the installed package): $p passed, $f failed"
    passed=$((passed + p)); failed=$((failed + f))
    [ "$f" -gt 0 ] && [ -f "$pkg15/regression.diffs" ] && head -200 "$pkg15/regression.diffs"
    rm -rf "$pkg15"
else
    make -s PG_CONFIG="$PG_CONFIG" install >/dev/null
    regress 15 "$PG_CONFIG" .
fi
clients_check 15 "$PG_CONFIG" "$log/agree15"

# PostgreSQL 18: built from a copy of the tree, installed into the cached build
while [ ! -e "$bg/pg18.done" ] && kill -0 "$bg_pid" 2>/dev/null; do sleep 2; done
cat "$bg/pg18"
pg18=$(tail -1 "$bg/pg18")
pg18_config=""
built18=""
case "$pg18" in
    "pg18: pg_config "*) pg18_config=${pg18#pg18: pg_config } ;;
    "pg18: skipped "*) echo "PostgreSQL 18 stages skipped: ${pg18#pg18: skipped }" ;;
    # the tarball is here but PostgreSQL 18 did not build: a failure
    *) bad "PostgreSQL 18: ${pg18:-scripts/pg18.sh printed nothing}" ;;
esac
if [ -n "$pg18_config" ]; then
    dir18=$(copy_tree pg18)
    if make -C "$dir18" -s PG_CONFIG="$pg18_config" > "$log/build18.out" 2>&1 &&
        make -C "$dir18" -s PG_CONFIG="$pg18_config" install >> "$log/build18.out" 2>&1; then
        built18=1
        cat "$log/build18.out"
        if grep -q 'warning:' "$log/build18.out"; then bad "build: PostgreSQL 18 without warnings"
        else ok "build: PostgreSQL 18 without warnings"; fi
        regress 18 "$pg18_config" "$dir18"
        clients_check 18 "$pg18_config" "$log/agree18"
        same_as_15 18
    else
        cat "$log/build18.out"
        bad "build: PostgreSQL 18"
    fi
fi

# TAP on 15, with Citus when scripts/citus.sh could build it
wait "$bg_pid"
cat "$bg/citus"
citus=$(tail -1 "$bg/citus")
[ -n "$citus" ] || citus="citus: skipped (scripts/citus.sh printed nothing)"
citus_env=(BLOOMTYPE_UPGRADE_WHY="pg_upgrade runs in the PostgreSQL 18 and 19 stages")
case "$citus" in
    "citus: install_path "*) citus_env+=(BLOOMTYPE_CITUS_INSTALL="${citus#citus: install_path }") ;;
    "citus: system") citus_env+=(BLOOMTYPE_CITUS_SYSTEM=1) ;;
    *) citus_env+=(BLOOMTYPE_CITUS_WHY="${citus#citus: }") ;;
esac
dir15=.
[ "$(id -u)" -eq 0 ] && dir15=$(copy_tree tap15)
tap 15 "$PG_CONFIG" "$dir15" "${citus_env[@]}"
[ "$dir15" != . ] && rm -rf "$dir15"

# TAP on 18 (Citus 13.2.2 is for 15), and pg_upgrade from 15
# (only over the library just built: the cache keeps the last one installed)
if [ -n "$built18" ]; then
    tap 18 "$pg18_config" "$dir18" \
        BLOOMTYPE_CITUS_WHY="Citus 13.2.2 is built for PostgreSQL 15 only" \
        BLOOMTYPE_UPGRADE_FROM="$(dirname "$("$PG_CONFIG" --bindir)")"
fi
[ -n "${dir18:-}" ] && rm -rf "$dir18"

# PostgreSQL 17 and 19 (started above): a root that could not be made is
# a failure, unless Debian's archive cannot be reached from here at all
wait "$roots_pid"
for v in 17 19; do
    cat "$roots/ensure$v"
    if grep -q "^pgroot $v: root " "$roots/ensure$v"; then
        cp "$roots/stages$v" "$log/root$v.out"
        cat "$log/root$v.out"
        last=$(grep -E "^pgroot $v: [0-9]+ passed, [0-9]+ failed$" "$log/root$v.out" | tail -1)
        if [ -n "$last" ]; then
            read -r p f < <(echo "$last" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\1 \2/')
            passed=$((passed + p)); failed=$((failed + f))
            same_as_15 "$v"
        else
            bad "PostgreSQL $v: scripts/pgroot.sh $v stages stopped ($(tail -1 "$log/root$v.out"))"
        fi
    elif bash scripts/pgroot.sh "$v" reachable; then
        bad "PostgreSQL $v: $(tail -1 "$roots/ensure$v")"
    else
        echo "PostgreSQL $v stages skipped: $(bash scripts/pgroot.sh "$v" reachable 2>&1 | tail -1)"
    fi
done
rm -rf "$bg" "$roots" "$log"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
