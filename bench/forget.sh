#!/usr/bin/env bash
# The benchmark of the filters that forget (issue 12), in one run:
#
#   bash bench/forget.sh [--n N] [--reps R] [--port P]
#
#  1. bench_forget (C, the core only, -O2): for N keys (default 1000000) at
#     1%, 0.1% and 0.01%, a blocked Bloom filter (the baseline), cuckoo
#     filters fixed at bucket sizes 4 and 2, a scalable cuckoo filter
#     (expansion 2) started at N/16 and grown by the N adds, and a counting
#     Bloom filter: bytes, bits per key, ns per add, lookup (present,
#     absent) and remove, the rate measured over N never-added keys,
#     sub-filters, counters.  R turns (default 5), the structures in an
#     order rotated each turn; ratios are to the Bloom filter in the same
#     turn.
#  2. RedisBloom 2.4.20's cuckoo filter on 127.0.0.1:P (default 6391), the
#     same run: CF.RESERVE of N at BUCKETSIZE 2 (its default) and 4, N
#     CF.ADD through redis-cli --pipe, CF.INFO, CF.MEXISTS of N absent keys
#     (and of the N added ones) in batches of 1000.  Times include the
#     loopback round trips.  Skipped with a line saying so when neither
#     bench/out/redisbloom's module nor ../shared/vendor's tarball is there.
#  3. docs/perf/forget.png: bits per key against the measured rate.
#
# Writes bench/out/forget/{core_N.tsv,core_N.txt,redis_N.tsv}.  About a
# minute at the default N on 2 cores; 10M keys about 5 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

n=1000000
reps=5
rport=6391
args=("$@")
while [ $# -gt 0 ]; do
    case "$1" in
        --n) n=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --port) rport=$2; shift 2 ;;
        *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
cmdline="bash bench/forget.sh${args[*]:+ ${args[*]}}"

out=$repo/bench/out/forget
mkdir -p "$out" docs/perf
vendor=$(cd "$repo/.." && pwd)/shared/vendor
rbtar=$vendor/redisbloom-2.4.20.tar.gz
rbdir=$repo/bench/out/redisbloom
so=$rbdir/src/bin/linux-x64-release/redisbloom.so
log() { printf '%s == %s\n' "$(date +%T)" "$*" >&2; }
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.${2:-2}f\", $1 }"; }

bash scripts/deps.sh build bench >&2

# ---------------------------------------------------------------- 1. core
log "building bench_forget"
# the core's sources and flags, as src/core/core.mk says
core_cflags=$(make -s --no-print-directory -f src/core/core.mk print-core-cflags)
core_srcs=$(make -s --no-print-directory -f src/core/core.mk print-core-srcs)
gcc -O2 $core_cflags -o "$out/bench_forget" bench/bench_forget.c $core_srcs -lm
log "core: N = $n, $reps turns"
"$out/bench_forget" "$n" "$reps" "$out/core_$n.tsv" | tee "$out/core_$n.txt"

# ---------------------------------------------------------------- 2. RedisBloom
rtsv=$out/redis_$n.tsv
printf 'n\tbucket_size\tsize_bytes\tbits_per_key\tfilters\tbuckets\titems\terrors\tmeasured_fpr\tfalse_negatives\tadd_s\tadd_ns\tmexists_ns\tgrown_at\tload_at_growth\n' > "$rtsv"
redis_pid=
cleanup() { if [ -n "$redis_pid" ]; then kill "$redis_pid" 2>/dev/null || true; fi; }
trap cleanup EXIT
if [ ! -f "$so" ] && [ ! -f "$rbtar" ]; then
    echo "RedisBloom: skipped ($so and $rbtar are both absent)" | tee "$out/redis_$n.txt" >&2
else
    bash scripts/deps.sh redis >&2
    if [ ! -f "$so" ]; then
        log "building RedisBloom 2.4.20 into $rbdir"
        rm -rf "$rbdir/src"
        mkdir -p "$rbdir/src"
        tar xzf "$rbtar" -C "$rbdir/src" --strip-components=1
        rm -rf "$rbdir/src/deps/readies" "$rbdir/src/deps/t-digest-c"
        tar xzf "$vendor"/readies-7fc8e62.tar.gz -C "$rbdir/src/deps"
        tar xzf "$vendor"/t-digest-c-5b89d70.tar.gz -C "$rbdir/src/deps"
        make -C "$rbdir/src" -j2 > "$rbdir/build.log" 2>&1 ||
            { tail -20 "$rbdir/build.log" >&2; exit 1; }
    fi
    if redis-cli -p "$rport" ping >/dev/null 2>&1; then
        echo "port $rport is taken: stop what listens there or pass --port" >&2; exit 1
    fi
    rm -f "$out/redis.pid"
    redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no \
        --daemonize yes --pidfile "$out/redis.pid" --logfile "$out/redis.log" \
        --loadmodule "$so" >/dev/null
    for _ in $(seq 50); do redis-cli -p "$rport" ping >/dev/null 2>&1 && break; sleep 0.1; done
    for _ in $(seq 50); do [ -s "$out/redis.pid" ] && break; sleep 0.1; done
    redis_pid=$(cat "$out/redis.pid")
    rc() { redis-cli -p "$rport" "$@"; }

    # keys: 12 digits, zero-padded; added 1..N, absent N+1..2N
    awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) printf "%012d\n", i }' > "$out/keys_present.txt"
    # CF.MEXISTS lines of 1000 keys (redis-cli reads one command a line)
    mexists_lines()
    {
        awk -v n="$n" -v off="$1" -v key="$2" 'BEGIN {
            for (i = 1; i <= n; i += 1000) {
                m = (n - i + 1 < 1000) ? n - i + 1 : 1000
                printf "CF.MEXISTS %s", key
                for (j = i; j < i + m; j++) printf " %012d", j + off
                printf "\n"
            } }'
    }
    # CF.ADD of every key, in RESP (as bench/am.sh writes BF.MADD)
    cf_add_resp()
    {
        awk -v key="$1" '{ printf "*3\r\n$6\r\nCF.ADD\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n", length(key), key, length($1), $1 }' \
            "$out/keys_present.txt"
    }
    for b in 2 4; do
        key=cf_b$b
        log "RedisBloom: CF.RESERVE $key $n BUCKETSIZE $b, $n CF.ADD through redis-cli --pipe"
        rc DEL "$key" >/dev/null
        rc CF.RESERVE "$key" "$n" BUCKETSIZE "$b" >/dev/null
        cf_add_resp "$key" > "$out/load_$key.resp"
        t0=$(now)
        rc --pipe < "$out/load_$key.resp" > "$out/load_$key.txt" 2>&1
        t1=$(now)
        add_s=$(calc "$t1 - $t0" 6)
        errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$out/load_$key.txt" | tail -1)
        # the same keys again into grow_b$b in 50 pieces (untimed), CF.INFO
        # after each: the load at which a second sub-filter appears, to N/50
        gkey=grow_b$b
        rc DEL "$gkey" >/dev/null
        rc CF.RESERVE "$gkey" "$n" BUCKETSIZE "$b" >/dev/null
        rm -f "$out/piece_"*
        cf_add_resp "$gkey" | split -a 3 -d -l $((7 * ((n + 49) / 50))) - "$out/piece_"
        grew_at=-; added=0
        for piece in "$out/piece_"*; do
            rc --pipe < "$piece" > /dev/null 2>&1
            added=$((added + $(wc -l < "$piece") / 7))
            if [ "$(rc CF.INFO "$gkey" | awk 'p { print; exit } /^Number of filters$/ { p = 1 }')" -gt 1 ]; then
                grew_at=$added; break
            fi
        done
        rm -f "$out/piece_"*
        rc DEL "$gkey" >/dev/null
        rc CF.INFO "$key" | paste - - | tr '\t' ' ' > "$out/info_$key.txt"
        info() { awk -v f="$1" 'index($0, f " ") == 1 { print $NF }' "$out/info_$key.txt"; }
        size=$(info Size); filters=$(info "Number of filters"); buckets=$(info "Number of buckets")
        items=$(info "Number of items inserted")

        mexists_lines "$n" "$key" > "$out/absent_$key.txt"
        t2=$(now)
        fp=$(rc < "$out/absent_$key.txt" | grep -c '^1$' || true)
        t3=$(now)
        mexists_lines 0 "$key" > "$out/present_$key.txt"
        fn=$(rc < "$out/present_$key.txt" | grep -c '^0$' || true)
        if [ "$grew_at" = - ]; then lag=-; else lag=$(calc "$grew_at / ($buckets * $b)" 3); fi
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$b" "$size" \
            "$(calc "$size * 8 / $n" 3)" "$filters" "$buckets" "$items" "${errors:-?}" \
            "$(calc "$fp / $n" 7)" "$fn" "$(calc "$add_s" 3)" \
            "$(calc "$add_s * 1e9 / $n" 1)" "$(calc "($t3 - $t2) * 1e9 / $n" 1)" "$grew_at" "$lag" >> "$rtsv"
        rm -f "$out/load_$key.resp" "$out/absent_$key.txt" "$out/present_$key.txt"
    done
    rm -f "$out/keys_present.txt"
    echo
    echo "RedisBloom 2.4.20 CF (127.0.0.1:$rport; times include the loopback round trips;"
    echo "grown_at: keys added when CF.INFO first showed a second sub-filter, to N/50; load_at_growth: those keys / the first sub-filter's slots):"
    column -t -s $'\t' "$rtsv"
fi

# ---------------------------------------------------------------- 3. plot
log "plot -> docs/perf/forget.png"
ctsv=$out/core_$n.tsv
# one file a structure (rate in percent, bits per key), so that gnuplot joins its points
for s in bloom cuckoo_b4 cuckoo_b2 cuckoo_b4_scalable counting; do
    awk -F'\t' -v s="$s" '$3 == s { print $10 * 100 "\t" $5 }' "$ctsv" > "$out/plot_$s.dat"
done
awk -F'\t' 'NR > 1 { print $9 * 100 "\t" $4 > (FILENAME "_b" $2 ".dat") }' "$rtsv"
redis_plot=""
if [ -s "${rtsv}_b2.dat" ]; then
    redis_plot+=", '${rtsv}_b2.dat' using 1:2 with points pt 9 ps 2.5 lc rgb 'black' title 'RedisBloom 2.4.20 CF, bucket size 2 (its default)'"
fi
if [ -s "${rtsv}_b4.dat" ]; then
    redis_plot+=", '${rtsv}_b4.dat' using 1:2 with points pt 11 ps 2.5 lc rgb 'dark-red' title 'RedisBloom 2.4.20 CF, bucket size 4'"
fi
gnuplot <<GP
set terminal png size 960,640
set output 'docs/perf/forget.png'
set title "Bits per key against the measured false-positive rate, $n keys, targets 1%, 0.1%, 0.01% (dotted)"
set xlabel 'measured false-positive rate over $n never-added keys (%)'
set ylabel 'bits per key'
set logscale xy
set xrange [0.001:5]
set yrange [6:128]
set format x '%g%%'
set ytics (8, 10, 12, 16, 20, 24, 32, 48, 64, 96, 128)
set key outside below horizontal maxrows 4 width -2
set grid
set datafile separator '\t'
set arrow from 1, graph 0 to 1, graph 1 nohead dt 3 lc rgb 'gray40'
set arrow from 0.1, graph 0 to 0.1, graph 1 nohead dt 3 lc rgb 'gray40'
set arrow from 0.01, graph 0 to 0.01, graph 1 nohead dt 3 lc rgb 'gray40'
plot '$out/plot_bloom.dat' using 1:2 with linespoints lw 2 pt 7 title 'blocked Bloom filter (no remove)', \
     '$out/plot_cuckoo_b4.dat' using 1:2 with linespoints lw 2 pt 5 title 'cuckoo, bucket size 4, fixed', \
     '$out/plot_cuckoo_b2.dat' using 1:2 with linespoints lw 2 pt 13 title 'cuckoo, bucket size 2, fixed', \
     '$out/plot_cuckoo_b4_scalable.dat' using 1:2 with linespoints lw 2 pt 3 title 'cuckoo, bucket size 4, grown from N/16', \
     '$out/plot_counting.dat' using 1:2 with linespoints lw 2 pt 1 title 'counting Bloom filter', \
     -log(x / 100)/log(2) with lines dt 2 lc rgb 'gray' title 'log2(1/rate): the least any filter can use'$redis_plot
GP
rm -f "$out"/plot_*.dat "${rtsv}"_b*.dat
echo
echo "written: $ctsv, $rtsv, docs/perf/forget.png; command: $cmdline"
