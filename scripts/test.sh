#!/usr/bin/env bash
# Runs every bloomtype test suite: the C unit tests of the core, a replay of
# the fuzz corpus under ASan and UBSan, the pg_regress suites on a throwaway
# PostgreSQL 15 cluster (pg_virtualenv), the client readers (Python, Node,
# Go: their tests, and their answers against the server's), and the TAP tests, among them a
# coordinator and two workers of Citus when its source is at hand
# (../shared/vendor: scripts/citus.sh builds it once per machine).
# Installs its own dependencies.  Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}

# Citus builds in the background (minutes the first time on a machine,
# then cached) while the unit, fuzz and regression stages run
citus_out=$(mktemp)
bash scripts/citus.sh ensure > "$citus_out" 2>&1 &
citus_pid=$!

passed=0
failed=0
log=$(mktemp -d)

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

# 3. pg_regress suites on a throwaway cluster
rm -rf results regression.diffs regression.out
pg_virtualenv -v 15 -o shared_preload_libraries= \
    make -s PG_CONFIG="$PG_CONFIG" installcheck 2>&1 | tee "$log/regress.out"
rc=${PIPESTATUS[0]}
p=$(grep -cE '^(test | +)?[a-z0-9_]+ +\.\.\. ok' "$log/regress.out")
f=$(grep -cE '\.\.\. (FAILED|failed)' "$log/regress.out")
# pg_regress stopped without counting a failure (say, a missing file)
if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
passed=$((passed + p)); failed=$((failed + f))
[ -f regression.diffs ] && [ "$f" -gt 0 ] && head -200 regression.diffs

# 4. the client readers (clients/python, clients/node, clients/go): their
# own tests over test/vectors (no server), then against a throwaway cluster:
# the vectors are current, each reader answers as the server for 1M keys of
# every filter, the cookbook's guards work (scripts/clients.sh)
for lang in python node go; do
    if bash "clients/$lang/run-tests.sh" unit > "$log/client_$lang.out" 2>&1; then
        echo "clients: $lang unit tests ... ok"; passed=$((passed + 1))
    else
        tail -60 "$log/client_$lang.out"
        echo "clients: $lang unit tests ... FAILED"; failed=$((failed + 1))
    fi
done
pg_virtualenv -v 15 -o shared_preload_libraries= bash scripts/clients.sh check 2>&1 | tee "$log/clients.out"
p=$(grep -c '^clients: .* \.\.\. ok$' "$log/clients.out")
f=$(grep -c '^clients: .* \.\.\. FAILED$' "$log/clients.out")
# scripts/clients.sh makes 9 checks: one it did not report (it stopped
# early) is a failure
[ "$((p + f))" -lt 9 ] && f=$((9 - p))
passed=$((passed + p)); failed=$((failed + f))

# 5. TAP tests (PostgreSQL::Test::Cluster): concurrency, crash, replication,
# dump/restore, limits.  They make their own clusters with initdb, which
# refuses to run as root: as root they run as postgres in a copy of the tree.
tapdir=.
runas=()
if [ "$(id -u)" -eq 0 ]; then
    tapdir=$(mktemp -d /tmp/bloomtype-tap.XXXXXX)
    tar --exclude=./fuzz-work --exclude=./.git -cf - . | tar -C "$tapdir" -xf -
    chown -R postgres "$tapdir"
    runas=(runuser -u postgres --)
fi
wait "$citus_pid"
cat "$citus_out"
citus=$(tail -1 "$citus_out")
[ -n "$citus" ] || citus="citus: skipped (scripts/citus.sh printed nothing)"
citus_env=()
case "$citus" in
    "citus: install_path "*) citus_env=(BLOOMTYPE_CITUS_INSTALL="${citus#citus: install_path }") ;;
    "citus: system") citus_env=(BLOOMTYPE_CITUS_SYSTEM=1) ;;
    *) citus_env=(BLOOMTYPE_CITUS_WHY="${citus#citus: }") ;;
esac
rm -f "$citus_out"
"${runas[@]}" env "${citus_env[@]}" make -C "$tapdir" -s PG_CONFIG="$PG_CONFIG" tap 2>&1 | tee "$log/tap.out"
p=$(grep -cE '^t/[^ ]+\.pl \.+ ok' "$log/tap.out")
f=$(grep -cE '^t/[^ ]+\.pl +\(Wstat' "$log/tap.out")
if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # prove did not run
passed=$((passed + p)); failed=$((failed + f))
if [ "$f" -gt 0 ]; then
    for l in "$tapdir"/tmp_check/log/regress_log_*; do echo "== $l"; tail -40 "$l"; done
fi
[ "$tapdir" != . ] && rm -rf "$tapdir"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
