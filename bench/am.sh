#!/usr/bin/env bash
# The benchmark of maintained filters (the bloomfilter index, issue 11):
# every figure against a baseline measured in the same run.
#
#   bash bench/am.sh [--quick] [--rows N] [--big N|0] [--secs S] [--reps R]
#                    [--clients "2 8"] [--port P] [--keep] [--pg 15|18]
#
#  --pg: the PostgreSQL to run on (default 15, or BLOOMTYPE_PG; 18 is built
#  once per machine by scripts/pg18.sh: bench/pg.sh).  bench/versions.sh
#  runs the per-request check and the inserts on 15 and 18 side by side.
#
#  1. per-request check (pgbench -M prepared): bloom_index_contains against
#     a primary-key EXISTS on the same table, the round trip alone, the
#     stored value of issue 11 (5M keys, detoasted by every statement) and
#     RedisBloom 2.4.20's BF.EXISTS at the same number of clients;
#  2. insert throughput (pgbench, 2 clients, default settings: one commit,
#     one WAL flush a transaction): no index but the primary key, the
#     bloomfilter index, a second btree on the same column; rows one a
#     transaction, 100 a statement, and one INSERT ... SELECT of 100,000
#     rows (a bulk load: no commit to wait for, the index's CPU cost shows);
#  3. WAL bytes per insert, right after a CHECKPOINT (page images) and in
#     steady state, with pg_waldump's count and size of the Generic records;
#  4. bulk probe of 200,000 keys (half present): bloom_index_contains_each
#     against bloom_contains_each on the stored value of the same keys;
#  5. CREATE INDEX time and size, bloomfilter against btree, on the bigint
#     id and the text email;
#  6. (not with --quick) bench/bulk.sh on the same version: bulk loads with
#     one and two indexes (INSERT ... SELECT, COPY, 100-row statements, one
#     row a transaction) and their WAL, and per-row probes against the
#     stored value and a primary-key lookup.
#
# The default run (1M rows, and 5M for the check, bulk probe and build) takes
# about 10 minutes on 2 cores; --quick (1M rows only, shorter runs, 2 clients)
# about 3.  The cases of each part run in turns (checks 5, inserts 3, builds
# 5, bulk probes 15; --reps R sets the first two), in an order rotated each
# turn (the machines are shared and noisy); the report gives medians, and
# ratios as the median over the turns of the ratio within a turn.  It needs
# the extension installed (bench_pg_select does it).
#
# It starts its own throwaway cluster (initdb in /tmp, default settings but
# shared_buffers = 512MB; the socket in /tmp) and, where
# ../shared/vendor/redisbloom-2.4.20.tar.gz exists, builds RedisBloom into
# bench/out/redisbloom (once) and runs redis-server on 127.0.0.1:6390.
# Writes bench/out/am/{raw.tsv,report.md} and prints the report.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

rows=1000000
big=5000000
stored=5000000
secs=5
isecs=8
reps=3
creps=5
breps=5
clients="2 8"
port=5504
rport=6390
walrows=10000
bulkrows=100000
keep=
quick=
args=("$@")
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick=1; big=0; secs=3; isecs=3; reps=3; creps=3; breps=3; clients=2; bulkrows=50000; shift ;;
        --rows) rows=$2; shift 2 ;;
        --big) big=$2; shift 2 ;;
        --secs) secs=$2; isecs=$2; shift 2 ;;
        --reps) reps=$2; creps=$2; shift 2 ;;
        --clients) clients=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        --pg) BLOOMTYPE_PG=$2; shift 2 ;;
        *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
cmdline="bash bench/am.sh${args[*]:+ ${args[*]}}"

source bench/pg.sh
bench_pg_select
bin=$PG_BIN
export PATH=$bin:$PATH
out=$repo/bench/out/am
mkdir -p "$out"
raw=$out/raw.tsv
: > "$raw"
pgdata=/tmp/bloomtype-am-$port
vendor=$(cd "$repo/.." && pwd)/shared/vendor
rbtar=$vendor/redisbloom-2.4.20.tar.gz
rbdir=$repo/bench/out/redisbloom
AS=(); [ "$(id -u)" -eq 0 ] && AS=(runuser -u postgres --)

log() { printf '%s == %s\n' "$(date +%T)" "$*" >&2; }
calc() { awk "BEGIN { printf \"%.${2:-2}f\", $1 }"; }


# ---------------------------------------------------------------- cluster
export PGHOST=/tmp PGPORT=$port PGUSER=postgres PGDATABASE=postgres
redis_pid=
cleanup()
{
    if [ -n "$redis_pid" ]; then kill "$redis_pid" 2>/dev/null || true; fi
    if [ -z "$keep" ] && [ -d "$pgdata" ]; then
        "${AS[@]}" pg_ctl -D "$pgdata" -m fast -w stop >/dev/null 2>&1 || true
        rm -rf "$pgdata"
    fi
}
trap cleanup EXIT
if [ -d "$pgdata" ]; then
    "${AS[@]}" pg_ctl -D "$pgdata" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$pgdata"
fi
log "cluster in $pgdata, port $port"
mkdir -p "$pgdata"
if [ "$(id -u)" -eq 0 ]; then chown postgres: "$pgdata"; fi
"${AS[@]}" initdb -D "$pgdata" -A trust -U postgres >/dev/null
"${AS[@]}" pg_ctl -D "$pgdata" -l "$pgdata/log" -w \
    -o "-p $port -k /tmp -c listen_addresses='' -c shared_buffers=512MB" start >/dev/null

q() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }

log "data: users of $rows rows, three insert tables, stored filters"
t0=$(date +%s)
q -v rows="$rows" -v stored="$stored" -f bench/am/setup.sql >/dev/null
if [ "$big" -gt 0 ]; then
    log "data: users_big of $big rows"
    q -v big="$big" -f bench/am/setup_big.sql >/dev/null
fi
log "data built in $(($(date +%s) - t0)) s"

# pgbench scripts: the ones in bench/am, and their copies for the other tables
pb=$out/pgbench
mkdir -p "$pb"
cp bench/am/check_*.sql bench/am/insert*.sql "$pb/"
sed 's/FROM users /FROM users_big /' bench/am/check_pk.sql > "$pb/check_pk_big.sql"
sed 's/users_id_filter/users_big_id_filter/' bench/am/check_bf.sql > "$pb/check_bf_big.sql"
for t in bf bt; do
    sed "s/ins_base/ins_$t/" bench/am/insert.sql > "$pb/insert_$t.sql"
    sed "s/ins_base/ins_$t/" bench/am/insert_batch.sql > "$pb/insert_batch_$t.sql"
done
mv "$pb/insert.sql" "$pb/insert_base.sql"
mv "$pb/insert_batch.sql" "$pb/insert_batch_base.sql"

# pgbench TPS of one run: clients, seconds, script, extra options
tps()
{
    local c=$1 s=$2 f=$3; shift 3
    pgbench -n -M prepared -c "$c" -j 1 -T "$s" "$@" -f "$f" 2>&1 |
        sed -n 's/^tps = \([0-9.]*\) .*/\1/p'
}

# ---------------------------------------------------------------- RedisBloom
redis=
if [ ! -f "$rbtar" ]; then
    echo "RedisBloom: skipped ($rbtar is absent; the BF.EXISTS column is left out)" | tee "$out/redis.txt" >&2
else
    so=$rbdir/src/bin/linux-x64-release/redisbloom.so
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
        echo "port $rport is taken: stop what listens there or free it" >&2; exit 1
    fi
    redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no \
        --daemonize yes --pidfile "$out/redis.pid" --logfile "$out/redis.log" \
        --loadmodule "$so" >/dev/null
    for _ in $(seq 50); do redis-cli -p "$rport" ping >/dev/null 2>&1 && break; sleep 0.1; done
    redis_pid=$(cat "$out/redis.pid")
    # redis-benchmark's __rand_int__ is 12 digits, zero-padded, in [0, r):
    # the keys are written the same way so that probes over twice the key
    # range find half of them
    rkeys=$([ "$big" -gt 0 ] && echo "$big" || echo "$rows")
    log "RedisBloom: BF.RESERVE users 0.01 $rkeys, BF.MADD of $rkeys keys"
    redis-cli -p "$rport" BF.RESERVE users 0.01 "$rkeys" >/dev/null
    awk -v n="$rkeys" 'BEGIN {
        for (i = 1; i <= n; i += 1000) {
            m = (n - i + 1 < 1000) ? n - i + 1 : 1000
            printf "*%d\r\n$7\r\nBF.MADD\r\n$5\r\nusers\r\n", m + 2
            for (j = i; j < i + m; j++) printf "$12\r\n%012d\r\n", j
        } }' | redis-cli -p "$rport" --pipe > "$out/redis_load.txt"
    redis-cli -p "$rport" BF.INFO users | paste - - | tr '\t' ' ' > "$out/redis.txt"
    redis=1
fi
rb_rps()
{
    local c=$1 n=$2 r=$3
    redis-benchmark -h 127.0.0.1 -p "$rport" -c "$c" -n "$n" -r "$r" --csv BF.EXISTS users __rand_int__ |
        awk -F'"' 'NR == 2 { print $4 }'
}

# ---------------------------------------------------------------- helpers
# median, min, max of the values of key $1 $2 in raw.tsv
stat()
{
    awk -F'\t' -v s="$1" -v k="$2" '$1 == s && $2 == k { print $4 }' "$raw" | sort -g |
        awk '{ v[NR] = $1 } END { if (NR == 0) print "-\t-\t-"; else printf "%s\t%s\t%s\n", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[1], v[NR] }'
}
med() { stat "$1" "$2" | cut -f1; }
# median over the turns of the ratio a/b within a turn (section, a, b)
paired()
{
    awk -F'\t' -v s="$1" -v a="$2" -v b="$3" '$1 == s && $2 == a { x[$3] = $4 } $1 == s && $2 == b { y[$3] = $4 }
        END { for (t in x) if ((t in y) && y[t] > 0) print x[t] / y[t] }' "$raw" | sort -g |
        awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else printf "%.2f\n", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

# runs psql scripts whose timed statements follow a line "\echo @label"
# (a label "-" stops timing); appends "section label turn ms" to raw.tsv
psql_timed()
{
    local section=$1 turn=$2
    q -At | awk -F'\t' -v s="$section" -v t="$turn" '
        /^@/ { l = substr($0, 2); next }
        /^Time: / { if (l != "" && l != "-") printf "%s\t%s\t%s\t%s\n", s, l, t, $0; l = "" }' |
        sed 's/\tTime: \([0-9.]*\) ms.*/\t\1/' >> "$raw"
}

# ---------------------------------------------------------------- 5. build
log "CREATE INDEX: bloomfilter against btree, $breps turns"
build_cases=("id_bf|users|USING bloomfilter (id) WITH (fpr = 0.01)"
             "id_bt|users|(id)"
             "email_bf|users|USING bloomfilter (email) WITH (fpr = 0.01)"
             "email_bt|users|(email)")
if [ "$big" -gt 0 ]; then
    build_cases+=("bigid_bf|users_big|USING bloomfilter (id) WITH (fpr = 0.01)"
                  "bigid_bt|users_big|(id)")
fi
for ((t = 1; t <= breps; t++)); do
    n=${#build_cases[@]}
    {
        echo '\timing on'
        for ((i = 0; i < n; i++)); do
            IFS='|' read -r label tbl spec <<< "${build_cases[$(((i + t) % n))]}"
            echo "\\echo @$label"
            echo "CREATE INDEX b_$label ON $tbl $spec;"
            echo "\\echo @-"
            echo "SELECT 'size_$label', pg_relation_size('b_$label');"
            echo "DROP INDEX b_$label;"
        done
    } | psql_timed build "$t"
done
q -At -F $'\t' -c "SELECT 'size', 'id_bf', 0, pg_relation_size('users_id_filter')
    UNION ALL SELECT 'size', 'id_pk', 0, pg_relation_size('users_pkey')
    UNION ALL SELECT 'size', 'stored_small', 0, pg_column_size(f) FROM filters WHERE name = 'users_small'
    UNION ALL SELECT 'size', 'stored_big', 0, pg_column_size(f) FROM filters WHERE name = 'users_big'
    UNION ALL SELECT 'size', 'stored', 0, pg_column_size(f) FROM filters WHERE name = 'users'" >> "$raw"
sizes=$(for label in id_bf id_bt email_bf email_bt bigid_bf bigid_bt; do
    if printf '%s\n' "${build_cases[@]}" | grep -q "^$label|"; then
        tbl=$(printf '%s\n' "${build_cases[@]}" | grep "^$label|" | cut -d'|' -f2)
        spec=$(printf '%s\n' "${build_cases[@]}" | grep "^$label|" | cut -d'|' -f3)
        echo "CREATE INDEX s_$label ON $tbl $spec;"
        echo "SELECT 'size', '$label', 0, pg_relation_size('s_$label');"
        echo "DROP INDEX s_$label;"
    fi
done)
printf '%s\n' "$sizes" | q -At -F $'\t' >> "$raw"

# ---------------------------------------------------------------- 4. bulk
log "bulk probe of 200,000 keys, $((breps * 3)) turns"
# each counts the keys found (array_positions: no row per key)
bulk_cases=("floor_small|SELECT cardinality(keys) FROM bulk_keys WHERE name = 'small'"
            "index_small|SELECT cardinality(array_positions(bloom_index_contains_each('users_id_filter', keys), true)) FROM bulk_keys WHERE name = 'small'"
            "stored_small|SELECT cardinality(array_positions(bloom_contains_each(f.f, b.keys), true)) FROM bulk_keys b, filters f WHERE b.name = 'small' AND f.name = 'users_small'")
if [ "$big" -gt 0 ]; then
    bulk_cases+=("floor_big|SELECT cardinality(keys) FROM bulk_keys WHERE name = 'big'"
                 "index_big|SELECT cardinality(array_positions(bloom_index_contains_each('users_big_id_filter', keys), true)) FROM bulk_keys WHERE name = 'big'"
                 "stored_big|SELECT cardinality(array_positions(bloom_contains_each(f.f, b.keys), true)) FROM bulk_keys b, filters f WHERE b.name = 'big' AND f.name = 'users_big'")
fi
# one session, as an application would; before and after each timed query
# the backend's minor page faults (/proc/PID/stat, field 10): on a VM a
# fault costs microseconds, and whether a call's scratch memory is faulted
# in afresh each time (malloc hands large blocks back to the kernel) can
# weigh more than the probe itself
n=${#bulk_cases[@]}
{
    echo '\timing on'
    echo 'SELECT pg_backend_pid() AS bpid \gset'
    echo '\setenv BPID :bpid'
    for ((i = 0; i < n; i++)); do echo "${bulk_cases[$i]#*|};"; done   # warm-up
    for ((t = 1; t <= breps * 3; t++)); do
        for ((i = 0; i < n; i++)); do
            c=${bulk_cases[$(((i + t) % n))]}
            echo '\! awk '"'"'{ print "faults", $10 }'"'"' /proc/$BPID/stat'
            echo "\\echo @${c%%|*} $t"
            echo "${c#*|};"
        done
    done
    echo '\! awk '"'"'{ print "faults", $10 }'"'"' /proc/$BPID/stat'
} | q -At | awk '
    /^faults / { if (l != "") printf "bulk\t%s\t%s\t%s\nfaults\t%s\t%s\t%d\n", l, turn, ms, l, turn, $2 - f; f = $2; l = ""; next }
    /^@/ { split(substr($0, 2), a, " "); l = a[1]; turn = a[2]; next }
    /^Time: / { ms = $2 }' >> "$raw"
# what each found (no key may be missed: at least the 100,000 present)
for c in "${bulk_cases[@]}"; do
    printf 'found\t%s\t0\t%s\n' "${c%%|*}" "$(q -At -c "${c#*|}")" >> "$raw"
done

# ---------------------------------------------------------------- 3. WAL
log "WAL per insert: $walrows rows a table, after CHECKPOINT and steady"
q -c "ALTER TABLE ins_base SET (autovacuum_enabled = off);
      ALTER TABLE ins_bf SET (autovacuum_enabled = off);
      ALTER TABLE ins_bt SET (autovacuum_enabled = off)"
{
    q -At -F $'\t' -v n="$walrows" -v phase=image -v checkpoint=1 -f bench/am/wal.sql
    q -At -F $'\t' -v n="$walrows" -v phase=steady -f bench/am/wal.sql
} > "$out/wal.tsv"
q -c "ALTER TABLE ins_base RESET (autovacuum_enabled);
      ALTER TABLE ins_bf RESET (autovacuum_enabled);
      ALTER TABLE ins_bt RESET (autovacuum_enabled)"
while IFS=$'\t' read -r phase tbl bytes l0 l1; do
    printf 'wal\t%s_%s\t0\t%s\n' "$phase" "$tbl" "$(calc "$bytes / $walrows" 1)" >> "$raw"
    if [ "$tbl" = bf ]; then
        "${AS[@]}" pg_waldump -p "$pgdata/pg_wal" --stats=record -s "$l0" -e "$l1" > "$out/waldump_$phase.txt" 2>&1 || true
        # Generic/Generic  N (%)  record bytes (%)  FPI bytes (%)  combined (%)
        awk -v p="$phase" '$1 == "Generic/Generic" { gsub(/\([^)]*\)/, ""); printf "waldump\t%s_n\t0\t%s\nwaldump\t%s_rec\t0\t%s\nwaldump\t%s_fpi\t0\t%s\n", p, $2, p, $3, p, $4 }' \
            "$out/waldump_$phase.txt" >> "$raw"
    fi
done < "$out/wal.tsv"

# ---------------------------------------------------------------- 1. check
check_cases=(floor pk bf stored)
[ "$big" -gt 0 ] && check_cases+=(pk_big bf_big)
[ -n "$redis" ] && check_cases+=(redis)
for c in $clients; do
    log "per-request check, $c clients, $creps turns of ${secs} s a case"
    n=${#check_cases[@]}
    for ((t = 1; t <= creps; t++)); do
        for ((i = 0; i < n; i++)); do
            k=${check_cases[$(((i + t) % n))]}
            case $k in
                floor|pk|bf|stored) v=$(tps "$c" "$secs" "$pb/check_$k.sql" -D range=$((2 * rows))) ;;
                pk_big|bf_big) v=$(tps "$c" "$secs" "$pb/check_${k%_big}_big.sql" -D range=$((2 * big))) ;;
                redis)
                    # about as long as the others: n from the last turn's rate
                    prev=$(awk -F'\t' -v k="redis_c$c" '$2 == k { v = $4 } END { print v + 0 }' "$raw")
                    [ "$prev" = 0 ] && prev=40000
                    v=$(rb_rps "$c" "$(calc "$prev * $secs" 0)" $((2 * rkeys))) ;;
            esac
            printf 'check\t%s_c%s\t%s\t%s\n' "$k" "$c" "$t" "$v" >> "$raw"
        done
    done
done

# ---------------------------------------------------------------- 2. insert
log "insert throughput, 2 clients, $reps turns of ${isecs} s a case"
ins_cases=(base bf bt)
for ((t = 1; t <= reps; t++)); do
    for ((i = 0; i < 3; i++)); do
        k=${ins_cases[$(((i + t) % 3))]}
        printf 'insert\t%s\t%s\t%s\n' "$k" "$t" "$(tps 2 "$isecs" "$pb/insert_$k.sql")" >> "$raw"
    done
    for ((i = 0; i < 3; i++)); do
        k=${ins_cases[$(((i + t) % 3))]}
        v=$(tps 2 "$isecs" "$pb/insert_batch_$k.sql")
        printf 'insert\tbatch_%s\t%s\t%s\n' "$k" "$t" "$(calc "$v * 100" 0)" >> "$raw"
    done
    # a bulk load: one INSERT ... SELECT (no commit in between: the CPU cost)
    {
        echo '\timing on'
        for ((i = 0; i < 3; i++)); do
            k=${ins_cases[$(((i + t) % 3))]}
            echo "\\echo @bulk_$k"
            echo "INSERT INTO ins_$k (id, email) SELECT n, 'user' || n || '@example.com' FROM (SELECT nextval('new_ids') AS n FROM generate_series(1, $bulkrows)) s;"
        done
    } | psql_timed insert "$t"
done
q -At -F $'\t' -c "SELECT 'info', 'ins_bf_' || key, 0, value
    FROM jsonb_each_text(to_jsonb((SELECT i FROM bloom_index_info('ins_bf_id_filter') i)))
    UNION ALL SELECT 'info', 'users_' || key, 0, value
    FROM jsonb_each_text(to_jsonb((SELECT i FROM bloom_index_info('users_id_filter') i)))" >> "$raw" || true

# ---------------------------------------------------------------- report
log "report"
cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
pgv=$(pg_config --version | awk '{ print $2 }')
hdr()
{
    echo "Measured on $(date -u +%Y-%m-%d) with \`$cmdline\`"
    echo "($(nproc) cores${cpu:+ ($cpu)}, $(free -g | awk '/Mem:/ { print $2 }') GB, PostgreSQL $pgv, default settings but"
    echo "shared_buffers = 512MB; medians of $creps turns of ${secs} s (checks), $reps of ${isecs} s (inserts), $breps (builds),"
    echo "$((breps * 3)) (bulk probes), the cases in an order rotated each turn; a ratio is the median over the turns of"
    echo "the ratio within a turn; client and server on the same cores)."
}
ms() { printf '%.1f' "$(med "$@")"; }
fmt() { awk -v v="$1" 'BEGIN { if (v == "-" || v == "") print "-"; else printf "%\047.0f", v }'; }
mb() { calc "$1 / 1048576" "${2:-1}"; }
verdict() { awk "BEGIN { print ($1) ? \"met\" : \"**missed**\" }"; }
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { if (a == "-" || b == "-" || a == "" || b == "" || b == 0) print "-"; else printf "%.*f", d, a / b }'; }
{
    hdr
    echo
    echo "#### 1. Per-request check (pgbench -M prepared, -j 1; ids random over twice the key range, half present)"
    echo
    printf '| query |'; for c in $clients; do printf ' %s clients TPS | ratio to PK EXISTS |' "$c"; done; echo
    printf '|---|'; for c in $clients; do printf -- '---|---|'; done; echo
    row()
    {
        local label=$1 key=$2 base=$3
        printf '| %s |' "$label"
        for c in $clients; do
            v=$(med check "${key}_c$c"); b=$(med check "${base}_c$c")
            printf ' %s | %s |' "$(fmt "$v")" "$(paired check "${key}_c$c" "${base}_c$c")"
        done
        echo
    }
    row "round trip alone: \`SELECT :id\`" floor pk
    row "PK \`EXISTS (SELECT 1 FROM users WHERE id = :id)\`, $rows rows" pk pk
    row "\`bloom_index_contains('users_id_filter', :id)\`, $rows rows" bf pk
    if [ "$big" -gt 0 ]; then
        row "PK \`EXISTS\`, $big rows" pk_big pk_big
        row "\`bloom_index_contains\`, $big rows" bf_big pk_big
    fi
    sbase=pk; [ "$big" -eq "$stored" ] && sbase=pk_big
    row "stored value: \`bloom_contains(f, :id) FROM filters WHERE name = 'users'\` ($stored keys, $(mb "$(med size stored)") MB)" stored "$sbase"
    if [ -n "$redis" ]; then
        row "RedisBloom 2.4.20 \`BF.EXISTS users __rand_int__\` (redis-benchmark, $rkeys keys)" redis pk
    else
        echo "| RedisBloom BF.EXISTS | skipped: $rbtar absent | |"
    fi
    echo
    echo "#### 2. Insert throughput (pgbench, 2 clients; tables of $rows rows with a primary key on id)"
    echo
    echo "| extra index on id | rows one a transaction: TPS | ratio | 100 rows a statement: rows/s | ratio | one INSERT ... SELECT of $bulkrows rows (1 client): ms | ratio of the rates | extra µs a row |"
    echo "|---|---|---|---|---|---|---|---|"
    for k in base bf bt; do
        case $k in base) l="none" ;; bf) l="bloomfilter (fpr 0.01)" ;; bt) l="btree (a second one)" ;; esac
        echo "| $l | $(fmt "$(med insert "$k")") | $(paired insert "$k" base) | $(fmt "$(med insert "batch_$k")") | $(paired insert "batch_$k" batch_base) | $(fmt "$(med insert "bulk_$k")") | $(paired insert bulk_base "bulk_$k") | $(calc "($(med insert "bulk_$k") - $(med insert bulk_base)) * 1000 / $bulkrows" 1) |"
    done
    echo
    echo "#### 3. WAL per insert ($walrows rows a statement; pg_current_wal_insert_lsn() before and after)"
    echo
    echo "| extra index on id | after CHECKPOINT: bytes/insert | extra over none | steady: bytes/insert | extra over none |"
    echo "|---|---|---|---|---|"
    for k in base bf bt; do
        case $k in base) l="none" ;; bf) l="bloomfilter" ;; bt) l="btree" ;; esac
        echo "| $l | $(med wal "image_$k") | $(calc "$(med wal "image_$k") - $(med wal image_base)" 1) | $(med wal "steady_$k") | $(calc "$(med wal "steady_$k") - $(med wal steady_base)" 1) |"
    done
    echo
    for p in image steady; do
        gn=$(med waldump "${p}_n"); gr=$(med waldump "${p}_rec"); gf=$(med waldump "${p}_fpi")
        [ "$gn" = "-" ] && continue
        echo "pg_waldump --stats=record, $p phase, the bloomfilter table's range: $gn Generic records, $(calc "$gr / $gn" 1) bytes each on average without page images, page images $(fmt "$gf") bytes ($(calc "$gf / 8192" 0) pages' worth)."
        echo
    done
    echo "#### 4. Bulk probe of 200,000 keys, half present (one session, \\timing; $((breps * 3)) turns)"
    echo
    echo "| query | median ms | min | max | above the floor (median) | ratio to the stored value: of the medians, median of the turns' ratios | page faults a call | keys found |"
    echo "|---|---|---|---|---|---|---|---|"
    for s in small big; do
        [ "$s" = big ] && [ "$big" -eq 0 ] && continue
        n_=$rows; [ $s = big ] && n_=$big
        fl=$(med bulk "floor_$s")
        for k in floor index stored; do
            IFS=$'\t' read -r m mn mx <<< "$(stat bulk "${k}_$s")"
            case $k in
                floor) l="floor: \`cardinality(keys)\` (the array read), $n_-key set"; r=- ;;
                index) l="\`bloom_index_contains_each\`, index of $n_ keys ($(mb "$(med size "$([ $s = big ] && echo bigid_bf || echo id_bf)")") MB)"
                       r="$(ratio "$m" "$(med bulk "stored_$s")"), $(paired bulk "index_$s" "stored_$s")" ;;
                stored) l="\`bloom_contains_each\`, stored value of $n_ keys ($(mb "$(med size "stored_$s")") MB)"; r="1.00" ;;
            esac
            above=-; [ $k != floor ] && above=$(calc "$m - $fl" 1)
            f=$(med found "${k}_$s"); [ $k = floor ] && f=-
            echo "| $l | $(calc "$m" 1) | $(calc "$mn" 1) | $(calc "$mx" 1) | $above | $r | $(printf '%.0f' "$(med faults "${k}_$s")") | $f |"
        done
    done
    echo
    echo "#### 5. CREATE INDEX (default maintenance_work_mem)"
    echo
    echo "| column | rows | bloomfilter ms | btree ms | time ratio bf/btree | bloomfilter size | btree size | size ratio btree/bf |"
    echo "|---|---|---|---|---|---|---|---|"
    for k in id email bigid; do
        [ "$k" = bigid ] && [ "$big" -eq 0 ] && continue
        case $k in id) l="id bigint"; n_=$rows ;; email) l="email text"; n_=$rows ;; bigid) l="id bigint"; n_=$big ;; esac
        b=$(med build "${k}_bf"); t_=$(med build "${k}_bt"); sb=$(med size "${k}_bf"); st=$(med size "${k}_bt")
        echo "| $l | $n_ | $(printf '%.0f' "$b") | $(printf '%.0f' "$t_") | $(paired build "${k}_bf" "${k}_bt") | $(mb "$sb" 2) MB | $(mb "$st" 2) MB | $(ratio "$st" "$sb" 1) |"
    done
    echo
    echo "#### Targets (issue 11)"
    echo
    echo "| target | measured | |"
    echo "|---|---|---|"
    for c in $clients; do
        r=$(paired check "bf_c$c" "pk_c$c")
        m="$r x at $rows rows"; v="$(verdict "$r >= 0.8")"
        if [ "$big" -gt 0 ]; then
            r2=$(paired check "bf_big_c$c" "pk_big_c$c")
            m+=", $r2 x at $big rows"; v+=", $(verdict "$r2 >= 0.8")"
        fi
        echo "| check >= 0.8x PK EXISTS TPS ($c clients) | $m | $v |"
    done
    r=$(paired insert bf base); r2=$(paired insert batch_bf batch_base)
    r3=$(paired insert bulk_base bulk_bf)
    echo "| inserts with the index >= 0.7x without (aim 0.9x) | $r x one a transaction, $r2 x 100 a statement, $r3 x in one INSERT ... SELECT | $(verdict "$r >= 0.7"), $(verdict "$r2 >= 0.7"), $(verdict "$r3 >= 0.7") |"
    wi=$(calc "$(med wal image_bf) - $(med wal image_base)" 1); ws=$(calc "$(med wal steady_bf) - $(med wal steady_base)" 1)
    echo "| <= 1 KB extra WAL a insert (aim 200 B) | $ws B steady, $wi B in the $walrows inserts after a CHECKPOINT | $(verdict "$ws <= 1024") steady ($(verdict "$ws <= 200") aim), $(verdict "$wi <= 1024") after CHECKPOINT |"
    r=$(paired bulk index_small stored_small)
    m="$r x at $rows keys"; v=$(verdict "$r <= 2")
    if [ "$big" -gt 0 ]; then
        r2=$(paired bulk index_big stored_big); m+=", $r2 x at $big keys"; v+=", $(verdict "$r2 <= 2")"
    fi
    echo "| bulk probe within 2x of the stored-value probe (median of the turns' ratios) | $m | $v |"
    for k in id email bigid; do
        [ "$k" = bigid ] && [ "$big" -eq 0 ] && continue
        rt=$(paired build "${k}_bf" "${k}_bt"); rs=$(ratio "$(med size "${k}_bt")" "$(med size "${k}_bf")" 1)
        n_=$rows; [ $k = bigid ] && n_=$big
        echo "| CREATE INDEX faster than btree, >= 10x smaller (${k/bigid/id}, $n_ rows) | $rt x the time, $rs x smaller | $(verdict "$rt < 1"), $(verdict "$rs >= 10") |"
    done
    echo
    echo "Filters after the insert runs (bloom_index_info): ins_bf $(awk -F'\t' '$1 == "info" && $2 ~ /^ins_bf_/ { sub(/^ins_bf_/, "", $2); printf "%s=%s ", $2, $4 }' "$raw")"
} > "$out/report.md"
cat "$out/report.md"
echo
echo "raw figures: $raw; command: $cmdline"

# 6. bulk writes and per-row probes (issue 24): bench/bulk.sh, on the same
# version, with its own cluster (this one is stopped first)
if [ -z "$quick" ]; then
    cleanup
    trap - EXIT
    bash bench/bulk.sh --pg "$BENCH_PG" --reps "$reps"
fi
