#!/usr/bin/env bash
# Runs every bloomtype test suite.  Installs its own dependencies.  Ends
# with "N passed, N failed".
#
# Once (they do not depend on the server): the C unit tests of the core, a
# replay of the fuzz corpus under ASan and UBSan, the client readers' own
# tests.  On PostgreSQL 15 (Debian's) and on PostgreSQL 18 (built once per
# machine from ../shared/vendor by scripts/pg18.sh, and skipped with a line
# saying why where it cannot be): a build without warnings, the pg_regress
# suites on a throwaway cluster, the client readers against the server
# (their answers, and the same bytes from both servers), and the TAP tests:
# concurrency, crash, replication, dump/restore, limits and the index's,
# Citus's on 15 (Citus 13.2.2 is built for 15 by scripts/citus.sh), and on
# 18 pg_upgrade from 15.
set -uo pipefail
cd "$(dirname "$0")/.."
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
passed=0
failed=0
log=$(mktemp -d)
ok() { echo "$1 ... ok"; passed=$((passed + 1)); }
bad() { echo "$1 ... FAILED"; failed=$((failed + 1)); }

# what every stage below needs from Debian's packages (scripts/packages.sh
# lists them; PostgreSQL 18's, Citus's and the readers' are installed by
# their own stages)
if ! bash scripts/deps.sh build test; then
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

# Citus and PostgreSQL 18 build in the background (minutes the first time
# on a machine, then cached) while the unit, fuzz and regression stages
# run; one after the other (PostgreSQL 18 first: its stages come first),
# not to share two cores three ways
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
    # 15 prints "test NAME ... ok" (or "     NAME ... ok" in a parallel
    # group), 16 and later TAP lines: "ok 3  - NAME  12 ms", "not ok 3 - NAME"
    p=$(grep -cE '^(test | +)?[a-z0-9_]+ +\.\.\. ok|^ok +[0-9]+ +[-+] +[a-z0-9_]+' "$log/regress$v.out")
    f=$(grep -cE '\.\.\. (FAILED|failed)|^not ok +[0-9]+ ' "$log/regress$v.out")
    # pg_regress stopped without counting a failure (say, a missing file)
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
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
    p=$(grep -c '^clients: .* \.\.\. ok$' "$log/clients$v.out")
    f=$(grep -c '^clients: .* \.\.\. FAILED$' "$log/clients$v.out")
    # scripts/clients.sh makes 9 checks: one it did not report (it stopped
    # early) is a failure
    [ "$((p + f))" -lt 9 ] && f=$((9 - p))
    passed=$((passed + p)); failed=$((failed + f))
}

# 5. TAP tests (PostgreSQL::Test::Cluster).  They make their own clusters
# with initdb, which refuses to run as root: as root they run as postgres
# in a copy of the tree.  $4... are environment settings for the tests.
tap() {
    local v=$1 pgc=$2 dir=$3 p f l
    shift 3
    local runas=()
    if [ "$(id -u)" -eq 0 ]; then
        chown -R postgres "$dir"
        runas=(runuser -u postgres --)
    fi
    "${runas[@]}" env "$@" make -C "$dir" -s PG_CONFIG="$pgc" tap 2>&1 |
        sed "s|^t/|t/ (PostgreSQL $v) |" | tee "$log/tap$v.out"
    p=$(grep -cE '^t/ \(PostgreSQL [0-9]+\) [^ ]+\.pl \.+ ok' "$log/tap$v.out")
    f=$(grep -cE '^t/ \(PostgreSQL [0-9]+\) [^ ]+\.pl +\(Wstat' "$log/tap$v.out")
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # prove did not run
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

# 4a. the client readers' own tests over test/vectors (no server)
for lang in python node go; do
    if bash "clients/$lang/run-tests.sh" unit > "$log/client_$lang.out" 2>&1; then
        ok "clients: $lang unit tests"
    else
        tail -60 "$log/client_$lang.out"
        bad "clients: $lang unit tests"
    fi
done

# PostgreSQL 15
regress 15 "$PG_CONFIG" .
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
        # the values every filter kind exports, and the server's answers
        # for them, are the same bytes on 15 and 18
        if [ -n "$(ls "$log/agree15" 2>/dev/null)" ] &&
            diff -r "$log/agree15" "$log/agree18" > "$log/agree.diff" 2>&1; then
            ok "clients: the same values and answers from PostgreSQL 15 and 18 ($(ls "$log/agree15" | wc -l) files)"
        else
            head -20 "$log/agree.diff"
            bad "clients: the same values and answers from PostgreSQL 15 and 18"
        fi
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
citus_env=(BLOOMTYPE_PG18_WHY="pg_upgrade to 18 runs in the PostgreSQL 18 stage")
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
        BLOOMTYPE_PG15_INSTALL="$(dirname "$("$PG_CONFIG" --bindir)")"
fi
[ -n "${dir18:-}" ] && rm -rf "$dir18"
rm -rf "$bg" "$log"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
