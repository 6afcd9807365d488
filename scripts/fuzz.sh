#!/usr/bin/env bash
# Builds the libFuzzer harnesses of the core (clang, ASan + UBSan) and runs
# them.  Usage:
#   scripts/fuzz.sh replay            replay the seed corpus once (the test command does this)
#   scripts/fuzz.sh run SECONDS [H]   fuzz each harness (or only H) for SECONDS
#   scripts/fuzz.sh runs N [H]        fuzz each harness (or only H) for N executions
#   scripts/fuzz.sh coverage          line coverage of the core (src/core) by the corpus
#                                     (repo seeds and fuzz-work), with llvm-cov
# New inputs go to fuzz-work/<harness>; the repo's corpus stays as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
HARNESSES=(decode addcontains setops sizing scalable page counting cuckoo windowed)
BIN=fuzz-work/bin
mkdir -p "$BIN"
bash scripts/deps.sh build test
# the core's sources and flags, as src/core/core.mk says, once it has
# passed check-core (no PostgreSQL header in src/core)
core_mk=(make -s --no-print-directory -f src/core/core.mk)
"${core_mk[@]}" check-core
CORE_CFLAGS=$("${core_mk[@]}" print-core-cflags)
core_srcs=$("${core_mk[@]}" print-core-srcs)
read -ra CORE <<<"$core_srcs"
CFLAGS="-g -O2 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $CORE_CFLAGS"
# rebuilt when the harness, the shared allocator or any file of the core
# (core.mk included) is newer
stale() {
    local bin=$1 f
    [ -x "$bin" ] || return 0
    for f in "${@:2}" test/malloc_alloc.h src/core/core.mk "${CORE[@]}" src/core/*.h; do
        [ "$f" -nt "$bin" ] && return 0
    done
    return 1
}
for h in "${HARNESSES[@]}"; do
    if stale "$BIN/fuzz_$h" "test/fuzz/fuzz_$h.c"; then
        clang $CFLAGS -o "$BIN/fuzz_$h" "test/fuzz/fuzz_$h.c" "${CORE[@]}" -lm
    fi
done

mode=${1:-replay}
if [ "$mode" = coverage ]; then
    cov=fuzz-work/cov
    mkdir -p "$cov"
    rm -f "$cov"/*.profraw
    for h in "${HARNESSES[@]}"; do
        clang -g -O0 -fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping $CORE_CFLAGS \
            -o "$cov/fuzz_$h" "test/fuzz/fuzz_$h.c" "${CORE[@]}" -lm
        dirs=("test/fuzz/corpus/$h")
        [ -d "fuzz-work/$h" ] && dirs+=("fuzz-work/$h")
        LLVM_PROFILE_FILE="$cov/$h.profraw" "$cov/fuzz_$h" -runs=0 "${dirs[@]}" >/dev/null 2>&1
    done
    llvm-profdata merge -sparse "$cov"/*.profraw -o "$cov/all.profdata"
    objs=()
    for h in "${HARNESSES[@]}"; do objs+=(-object "$cov/fuzz_$h"); done
    llvm-cov report "${objs[@]:1}" -instr-profile="$cov/all.profdata" "${CORE[@]}" src/core/*.h
    exit 0
fi
only=${3:-}
status=0
for h in "${HARNESSES[@]}"; do
    [ -n "$only" ] && [ "$only" != "$h" ] && continue
    case "$mode" in
        replay)
            # every seed once: findings are kept as seeds, so this is the regression test;
            # a seed may cost 256 MB and 10 s at most (values that describe far more
            # than they hold, such as a 64-byte light state of 512 MB, are seeds)
            if "$BIN/fuzz_$h" -runs=0 -rss_limit_mb=256 -timeout=10 "test/fuzz/corpus/$h" \
                    >"fuzz-work/replay-$h.log" 2>&1; then
                echo "fuzz replay $h ... ok ($(ls "test/fuzz/corpus/$h" | wc -l) seeds)"
            else
                echo "fuzz replay $h ... FAILED"; tail -30 "fuzz-work/replay-$h.log"; status=1
            fi ;;
        run|runs)
            mkdir -p "fuzz-work/$h"
            if [ "$mode" = run ]; then lim="-max_total_time=$2"; else lim="-runs=$2"; fi
            # a crash is written to fuzz-work/crash-<harness>-..., not into the tree
            "$BIN/fuzz_$h" $lim -print_final_stats=1 -artifact_prefix="fuzz-work/crash-$h-" \
                "fuzz-work/$h" "test/fuzz/corpus/$h" \
                >"fuzz-work/run-$h.log" 2>&1 || status=1
            grep -E "stat::number_of_executed_units|cov:|crash|ERROR" "fuzz-work/run-$h.log" | tail -4
            ;;
    esac
done
exit $status
