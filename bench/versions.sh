#!/usr/bin/env bash
# The bloomfilter index on PostgreSQL 15 and 18 side by side, in one run
# (issue 22): two throwaway clusters, one of each, with the data of
# bench/am.sh, and the same cases in turns that alternate between them.
#
#   bash bench/versions.sh [--rows N] [--secs S] [--reps R] [--clients C] [--port P]
#
#  1. per-request check (pgbench -M prepared, C clients):
#     bloom_index_contains against a primary-key EXISTS, and the round trip
#     alone;
#  2. inserts (pgbench, 2 clients): rows one a transaction and 100 a
#     statement into a table with the bloomfilter index and one without
#     (the primary key only); one INSERT ... SELECT of 100,000 rows;
#  3. CREATE INDEX on users(id): bloomfilter (serial: amcanbuildparallel is
#     off, README "Supported PostgreSQL versions") against btree (which
#     builds with max_parallel_maintenance_workers = 2 workers by default).
#
# Every case runs R turns (default 5) of S seconds (default 5), the cases
# and the versions in an order rotated each turn; the same pgbench (15's)
# drives both servers.  The report gives each version's medians, each
# one's ratio to its own baseline (a ratio within a turn, then the median
# over the turns) and 18's figure over 15's for each case (the same).
# Both servers: default settings but shared_buffers = 512MB; data in
# /tmp.  Installs bloomtype into both (bench/pg.sh; 18 is built once per
# machine by scripts/pg18.sh).  Writes bench/out/versions/{raw.tsv,report.md}.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=1000000
secs=5
reps=5
clients=2
port=5520
bulkrows=100000
args=("$@")
while [ $# -gt 0 ]; do
    case "$1" in
        --rows) rows=$2; shift 2 ;;
        --secs) secs=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --clients) clients=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
cmdline="bash bench/versions.sh${args[*]:+ ${args[*]}}"
source bench/pg.sh
bench_pg_select 18
bin18=$PG_BIN
bench_pg_select 15
bin15=$PG_BIN
out=bench/out/versions
mkdir -p "$out"
raw=$out/raw.tsv
: > "$raw"
AS=(); [ "$(id -u)" -eq 0 ] && AS=(runuser -u postgres --)
log() { printf '%s == %s\n' "$(date +%T)" "$*" >&2; }
calc() { awk "BEGIN { printf \"%.${2:-2}f\", $1 }"; }

declare -A binof=([15]=$bin15 [18]=$bin18) portof=([15]=$port [18]=$((port + 1)))
cleanup()
{
    local v
    for v in 15 18; do
        "${AS[@]}" "${binof[$v]}/pg_ctl" -D "/tmp/bloomtype-versions-$v" -m fast -w stop >/dev/null 2>&1 || true
        rm -rf "/tmp/bloomtype-versions-$v"
    done
}
trap cleanup EXIT
cleanup
for v in 15 18; do
    d=/tmp/bloomtype-versions-$v
    mkdir -p "$d"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$d"
    "${AS[@]}" "${binof[$v]}/initdb" -D "$d" -A trust -U postgres >/dev/null
    "${AS[@]}" "${binof[$v]}/pg_ctl" -D "$d" -l "$d/log" -w \
        -o "-p ${portof[$v]} -k /tmp -c listen_addresses='' -c shared_buffers=512MB" start >/dev/null
    log "PostgreSQL $v on port ${portof[$v]}: data of $rows rows"
    "$bin15/psql" -X -q -v ON_ERROR_STOP=1 -h /tmp -p "${portof[$v]}" -U postgres -d postgres \
        -v rows="$rows" -v stored="$rows" -f bench/am/setup.sql >/dev/null
done

pb=$out/pgbench
mkdir -p "$pb"
cp bench/am/check_floor.sql bench/am/check_pk.sql bench/am/check_bf.sql "$pb/"
for t in base bf; do
    sed "s/ins_base/ins_$t/" bench/am/insert.sql > "$pb/insert_$t.sql"
    sed "s/ins_base/ins_$t/" bench/am/insert_batch.sql > "$pb/insert_batch_$t.sql"
done
tps()
{
    local v=$1 c=$2 f=$3; shift 3
    "$bin15/pgbench" -h /tmp -p "${portof[$v]}" -U postgres -n -M prepared -c "$c" -j 1 -T "$secs" "$@" \
        -f "$f" postgres 2>&1 | sed -n 's/^tps = \([0-9.]*\) .*/\1/p'
}
build_ms()
{
    local v=$1 k=$2 spec
    case $k in bf) spec="USING bloomfilter (id) WITH (fpr = 0.01)" ;; bt) spec="(id)" ;; esac
    printf '%s\n' '\timing on' "CREATE INDEX b_$k ON users $spec;" '\timing off' "DROP INDEX b_$k;" |
        "$bin15/psql" -X -q -At -h /tmp -p "${portof[$v]}" -U postgres -d postgres |
        sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p'
}
bulk_ms()
{
    local v=$1 k=$2
    printf '%s\n' '\timing on' \
        "INSERT INTO ins_$k (id, email) SELECT n, 'user' || n || '@example.com' FROM (SELECT nextval('new_ids') AS n FROM generate_series(1, $bulkrows)) s;" |
        "$bin15/psql" -X -q -At -h /tmp -p "${portof[$v]}" -U postgres -d postgres |
        sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p'
}

# the cases: kind|label; each runs on both versions
cases=("check|floor" "check|pk" "check|bf" "insert|base" "insert|bf"
       "batch|base" "batch|bf" "bulk|base" "bulk|bf" "build|bf" "build|bt")
n=${#cases[@]}
for ((t = 1; t <= reps; t++)); do
    log "turn $t of $reps"
    for ((i = 0; i < n; i++)); do
        IFS='|' read -r kind label <<< "${cases[$(((i + t) % n))]}"
        for v in $( ((t % 2)) && echo "15 18" || echo "18 15"); do
            case $kind in
                check) x=$(tps "$v" "$clients" "$pb/check_$label.sql" -D range=$((2 * rows))) ;;
                insert) x=$(tps "$v" 2 "$pb/insert_$label.sql") ;;
                batch) x=$(calc "$(tps "$v" 2 "$pb/insert_batch_$label.sql") * 100" 0) ;;
                bulk) x=$(bulk_ms "$v" "$label") ;;
                build) x=$(build_ms "$v" "$label") ;;
            esac
            printf '%s\t%s_%s\t%s\t%s\n' "$v" "$kind" "$label" "$t" "$x" >> "$raw"
        done
    done
done

# median of version v's key k over the turns
med()
{
    awk -F'\t' -v v="$1" -v k="$2" '$1 == v && $2 == k { print $4 }' "$raw" | sort -g |
        awk '{ a[NR] = $1 } END { if (NR == 0) print "-"; else print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'
}
# median over the turns of (v1, k1) / (v2, k2) within a turn
paired()
{
    awk -F'\t' -v v1="$1" -v k1="$2" -v v2="$3" -v k2="$4" \
        '$1 == v1 && $2 == k1 { x[$3] = $4 } $1 == v2 && $2 == k2 { y[$3] = $4 }
         END { for (t in x) if ((t in y) && y[t] > 0) print x[t] / y[t] }' "$raw" | sort -g |
        awk '{ a[NR] = $1 } END { if (NR == 0) print "-"; else printf "%.2f\n", (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'
}
fmt() { awk -v x="$1" 'BEGIN { if (x == "-") print "-"; else printf "%\047.0f", x }'; }
{
    echo "Measured on $(date -u +%Y-%m-%d) with \`$cmdline\`"
    echo "($(nproc) cores, $("$bin15/pg_config" --version) and $("$bin18/pg_config" --version), default settings but"
    echo "shared_buffers = 512MB, $rows rows; $reps turns of $secs s a case, cases and versions in an order rotated"
    echo "each turn; a ratio is the median over the turns of the ratio within a turn.)"
    echo
    echo "| case | 15 | 18 | 18 / 15 | 15: ratio to its baseline | 18: ratio to its baseline |"
    echo "|---|---|---|---|---|---|"
    row()
    {
        local label=$1 key=$2 base=$3 inv=${4:-}
        local r15 r18 r
        if [ -n "$inv" ]; then
            r=$(paired 15 "$key" 18 "$key"); r15=$(paired 15 "$base" 15 "$key"); r18=$(paired 18 "$base" 18 "$key")
        else
            r=$(paired 18 "$key" 15 "$key"); r15=$(paired 15 "$key" 15 "$base"); r18=$(paired 18 "$key" 18 "$base")
        fi
        echo "| $label | $(fmt "$(med 15 "$key")") | $(fmt "$(med 18 "$key")") | $r | $r15 | $r18 |"
    }
    row "round trip alone: \`SELECT :id\` (TPS, $clients clients)" check_floor check_pk
    row "PK \`EXISTS\` (TPS)" check_pk check_pk
    row "\`bloom_index_contains\` (TPS; baseline: PK \`EXISTS\`)" check_bf check_pk
    row "insert, one row a transaction, no extra index (TPS, 2 clients)" insert_base insert_base
    row "insert, one row a transaction, bloomfilter index (TPS)" insert_bf insert_base
    row "insert, 100 rows a statement, no extra index (rows/s)" batch_base batch_base
    row "insert, 100 rows a statement, bloomfilter index (rows/s)" batch_bf batch_base
    row "one INSERT ... SELECT of $bulkrows rows, no extra index (ms; ratios of rates)" bulk_base bulk_base inv
    row "one INSERT ... SELECT of $bulkrows rows, bloomfilter index (ms; ratios of rates)" bulk_bf bulk_base inv
    row "CREATE INDEX on users(id), btree, 2 parallel workers allowed (ms; ratios of rates)" build_bt build_bt inv
    row "CREATE INDEX on users(id), bloomfilter, serial (ms; baseline: btree; ratios of rates)" build_bf build_bt inv
} > "$out/report.md"
cat "$out/report.md"
echo
echo "raw figures: $raw; command: $cmdline"
