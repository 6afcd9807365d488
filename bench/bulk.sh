#!/usr/bin/env bash
# The maintained filter at bulk speed (issue 24): the bloomfilter index's
# writes and per-row probes, each against a baseline measured in the same
# run, on PostgreSQL 15 and 18 side by side (bench/am.sh runs it as its
# part 6).
#
#   bash bench/bulk.sh [--rows N] [--load N] [--secs S] [--reps R] [--pg "15 18"] [--port P]
#
#  1. bulk loads into an emptied table (TRUNCATE, not timed) with a primary
#     key: no other index (base), one bloomfilter index on id (one), and
#     one on id and one on email (two): INSERT ... SELECT of N rows (--load,
#     default 300,000) and COPY of the same rows from a file; the rate of
#     each over base's, and the WAL each writes above base's, per key;
#  2. pgbench (2 clients, -M prepared, default settings: a commit and a WAL
#     flush a transaction) into tables of --rows rows: 100 rows a
#     statement, and one row a transaction; TPS over base's;
#  3. per-row probes over 1M absent keys (a table, no key in the index):
#     bloom_index_contains(index, id) against the stored value
#     (bloom_contains((SELECT f FROM filters), id)) and a primary-key
#     lookup (EXISTS, forced to a nested loop of index probes), each as
#     microseconds a row above the scan alone (count(*));
#  4. the per-request check (pgbench -M prepared, 2 clients):
#     bloom_index_contains of one key against the round trip alone
#     (SELECT :id).
# Every case runs R turns (default 3), the cases in an order rotated each
# turn; a ratio is the median over the turns of the ratio within a turn
# (these machines are shared and noisy).  Each version: a throwaway
# cluster, default settings but shared_buffers = 512MB, data in /tmp.
# Installs bloomtype (bench/pg.sh; 18 is built once per machine by
# scripts/pg18.sh).  Writes bench/out/bulk/{raw.tsv,report.md}.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=1000000
load=300000
secs=5
reps=3
versions="15 18"
port=5530
args=("$@")
while [ $# -gt 0 ]; do
    case "$1" in
        --rows) rows=$2; shift 2 ;;
        --load) load=$2; shift 2 ;;
        --secs) secs=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --pg) versions=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
cmdline="bash bench/bulk.sh${args[*]:+ ${args[*]}}"
source bench/pg.sh
declare -A binof portof
i=0
for v in $versions; do
    bench_pg_select "$v"
    binof[$v]=$PG_BIN
    portof[$v]=$((port + i))
    i=$((i + 1))
done
out=bench/out/bulk
mkdir -p "$out"
raw=$out/raw.tsv
: > "$raw"
csv=/tmp/bloomtype-bulk-load.csv
AS=(); [ "$(id -u)" -eq 0 ] && AS=(runuser -u postgres --)
log() { printf '%s == %s\n' "$(date +%T)" "$*" >&2; }
cleanup()
{
    local v
    for v in $versions; do
        "${AS[@]}" "${binof[$v]}/pg_ctl" -D "/tmp/bloomtype-bulk-$v" -m fast -w stop >/dev/null 2>&1 || true
        rm -rf "/tmp/bloomtype-bulk-$v"
    done
    rm -f "$csv"
}
trap cleanup EXIT
cleanup
awk -v n="$load" 'BEGIN { for (i = 1; i <= n; i++) printf "%d,user%d@example.com\n", 2000000000 + i, 2000000000 + i }' > "$csv"
chmod 644 "$csv"

q() { local v=$1; shift; "${binof[$v]}/psql" -X -q -v ON_ERROR_STOP=1 -h /tmp -p "${portof[$v]}" -U postgres -d postgres "$@"; }
pb() { local v=$1; shift; "${binof[$v]}/pgbench" -h /tmp -p "${portof[$v]}" -U postgres -n -M prepared -c 2 -j 1 "$@" postgres 2>&1; }

for v in $versions; do
    d=/tmp/bloomtype-bulk-$v
    mkdir -p "$d"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$d"
    "${AS[@]}" "${binof[$v]}/initdb" -D "$d" -A trust -U postgres >/dev/null
    "${AS[@]}" "${binof[$v]}/pg_ctl" -D "$d" -l "$d/log" -w \
        -o "-p ${portof[$v]} -k /tmp -c listen_addresses='' -c shared_buffers=512MB" start >/dev/null
    log "PostgreSQL $v on port ${portof[$v]}: data of $rows rows"
    q "$v" -v rows="$rows" -v stored="$rows" -f bench/am/setup.sql >/dev/null
    q "$v" -v rows="$rows" <<'SQL' >/dev/null
CREATE TABLE load_base (id bigint PRIMARY KEY, email text);
CREATE TABLE load_one (LIKE load_base INCLUDING ALL);
CREATE INDEX load_one_id ON load_one USING bloomfilter (id);
CREATE TABLE load_two (LIKE load_base INCLUDING ALL);
CREATE INDEX load_two_id ON load_two USING bloomfilter (id);
CREATE INDEX load_two_email ON load_two USING bloomfilter (email);
CREATE TABLE ins_two (LIKE ins_base INCLUDING ALL);
INSERT INTO ins_two SELECT * FROM users;
CREATE INDEX ins_two_id ON ins_two USING bloomfilter (id);
CREATE INDEX ins_two_email ON ins_two USING bloomfilter (email);
CREATE TABLE absent AS SELECT -g::bigint AS id FROM generate_series(1, 1000000) g;
VACUUM ANALYZE;
CHECKPOINT;
SQL
done

pbdir=$out/pgbench
mkdir -p "$pbdir"
for t in base bf two; do
    sed "s/ins_base/ins_$t/" bench/am/insert_batch.sql > "$pbdir/batch_$t.sql"
    sed "s/ins_base/ins_$t/" bench/am/insert.sql > "$pbdir/row_$t.sql"
done
cp bench/am/check_bf.sql bench/am/check_floor.sql "$pbdir/"

# "section case version turn value" lines
rec() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >> "$raw"; }

# "ms walbytes" of a load: version, table, statement (TBL for the table)
load_case()
{
    local v=$1 tbl=$2 stmt=$3
    q "$v" -c "TRUNCATE $tbl" -c "CHECKPOINT"
    q "$v" -At <<SQL | awk '/^Time:/ { ms = $2 } /^[0-9.]+$/ { wal = $1 } END { print ms, wal }'
SELECT pg_current_wal_lsn() AS before \gset
\timing on
${stmt//TBL/$tbl};
\timing off
SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), :'before');
SQL
}

probe_sql=(
    "floor|SELECT count(*) FROM absent"
    "index|SELECT count(*) FROM absent WHERE bloom_index_contains('users_id_filter', id)"
    "stored|SELECT count(*) FROM absent WHERE bloom_contains((SELECT f FROM filters WHERE name = 'users_small'), id)"
    "pk|SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_material = off; SELECT count(*) FROM absent a WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = a.id)")

for ((t = 1; t <= reps; t++)); do
    for v in $versions; do
        log "PostgreSQL $v, turn $t of $reps"
        # 1. loads, in an order rotated each turn
        names=(isel copy); tbls=(load_base load_one load_two)
        for ((a = 0; a < 2; a++)); do
            name=${names[$(((a + t) % 2))]}
            for ((b = 0; b < 3; b++)); do
                tbl=${tbls[$(((b + t) % 3))]}
                if [ "$name" = isel ]; then
                    stmt="INSERT INTO TBL SELECT 2000000000 + g, 'user' || (2000000000 + g) || '@example.com' FROM generate_series(1, $load) g"
                else
                    stmt="COPY TBL FROM '$csv' (FORMAT csv)"
                fi
                read -r ms wal < <(load_case "$v" "$tbl" "$stmt")
                rec load "${name}_${tbl#load_}" "$v" "$t" "$ms"
                rec wal "${name}_${tbl#load_}" "$v" "$t" "$wal"
            done
        done
        # 2. pgbench inserts
        for s in batch_base batch_bf batch_two row_base row_bf row_two; do
            rec tps "$s" "$v" "$t" "$(pb "$v" -T "$secs" -f "$pbdir/$s.sql" | sed -n 's/^tps = \([0-9.]*\) .*/\1/p')"
        done
        # 3. per-row probes
        n=${#probe_sql[@]}
        for ((i = 0; i < n; i++)); do
            c=${probe_sql[$(((i + t) % n))]}
            ms=$(printf '%s\n' 'SET max_parallel_workers_per_gather = 0;' '\timing on' "${c#*|};" | q "$v" -At | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1)
            rec probe "${c%%|*}" "$v" "$t" "$ms"
        done
        # 4. the per-request check
        for s in check_floor check_bf; do
            rec tps "$s" "$v" "$t" "$(pb "$v" -T "$secs" -D range="$rows" -f "$pbdir/$s.sql" | sed -n 's/^tps = \([0-9.]*\) .*/\1/p')"
        done
    done
done

# median of a case, and the median over turns of a/b within a turn
med() { awk -F'\t' -v s="$1" -v c="$2" -v v="$3" '$1 == s && $2 == c && $3 == v { print $5 }' "$raw" | sort -g |
    awk '{ x[NR] = $1 } END { if (NR == 0) print "-"; else printf "%.1f\n", NR % 2 ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2 }'; }
ratio() { awk -F'\t' -v s="$1" -v a="$2" -v b="$3" -v v="$4" -v inv="${5:-0}" '
    $1 == s && $3 == v && $2 == a { x[$4] = $5 } $1 == s && $3 == v && $2 == b { y[$4] = $5 }
    END { for (t in x) if (t in y && x[t] > 0 && y[t] > 0) print (inv ? y[t] / x[t] : x[t] / y[t]) }' "$raw" | sort -g |
    awk '{ x[NR] = $1 } END { if (NR == 0) print "-"; else printf "%.2f\n", NR % 2 ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2 }'; }
# WAL bytes a key above base's (median over turns)
walkey() { awk -F'\t' -v a="$1" -v b="$2" -v v="$3" -v n="$load" '
    $1 == "wal" && $3 == v && $2 == a { x[$4] = $5 } $1 == "wal" && $3 == v && $2 == b { y[$4] = $5 }
    END { for (t in x) if (t in y) print (x[t] - y[t]) / n }' "$raw" | sort -g |
    awk '{ x[NR] = $1 } END { if (NR == 0) print "-"; else printf "%.0f\n", NR % 2 ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2 }'; }
# microseconds a row above the scan (1M rows)
above() { awk -v a="$(med probe "$1" "$2")" -v f="$(med probe floor "$2")" 'BEGIN { printf "%.3f\n", (a - f) / 1000 }'; }

{
    echo "# The bloomfilter index at bulk speed ($(date -u +%F), $(nproc) cores)"
    echo
    echo "Command: \`$cmdline\`; rows $rows, loads of $load, $reps turns, pgbench $secs s and 2 clients."
    echo
    echo "| case | $(for v in $versions; do printf 'PostgreSQL %s | ' "$v"; done | sed 's/ | $//') |"
    echo "|---|$(for v in $versions; do printf -- '---|'; done)"
    for name in isel copy; do
        label=$([ $name = isel ] && echo "INSERT ... SELECT" || echo "COPY")
        echo "| $label of $load rows, no index: ms | $(for v in $versions; do printf '%s | ' "$(med load ${name}_base "$v")"; done | sed 's/ | $//') |"
        for k in one two; do
            echo "| $label, $k bloomfilter index(es): rate over no index | $(for v in $versions; do printf '%s | ' "$(ratio load ${name}_$k ${name}_base "$v" 1)"; done | sed 's/ | $//') |"
            echo "| $label, $k: WAL bytes a row above no index | $(for v in $versions; do printf '%s | ' "$(walkey ${name}_$k ${name}_base "$v")"; done | sed 's/ | $//') |"
        done
    done
    for s in batch row; do
        label=$([ $s = batch ] && echo "100-row INSERTs" || echo "one row a transaction")
        echo "| $label, no index: TPS | $(for v in $versions; do printf '%s | ' "$(med tps ${s}_base "$v")"; done | sed 's/ | $//') |"
        echo "| $label, one index: TPS over no index | $(for v in $versions; do printf '%s | ' "$(ratio tps ${s}_bf ${s}_base "$v")"; done | sed 's/ | $//') |"
        echo "| $label, two indexes: TPS over no index | $(for v in $versions; do printf '%s | ' "$(ratio tps ${s}_two ${s}_base "$v")"; done | sed 's/ | $//') |"
    done
    echo "| scan of 1M absent keys alone: ms | $(for v in $versions; do printf '%s | ' "$(med probe floor "$v")"; done | sed 's/ | $//') |"
    for c in index stored pk; do
        label=$(case $c in index) echo "bloom_index_contains";; stored) echo "bloom_contains, stored value";; pk) echo "primary-key EXISTS, nested loop";; esac)
        echo "| $label: µs a row above the scan | $(for v in $versions; do printf '%s | ' "$(above $c "$v")"; done | sed 's/ | $//') |"
    done
    echo "| bloom_index_contains over the stored value, above the scan | $(for v in $versions; do printf '%s | ' "$(awk -v a="$(above index "$v")" -v b="$(above stored "$v")" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"; done | sed 's/ | $//') |"
    echo "| per-request check: TPS over the round trip alone | $(for v in $versions; do printf '%s | ' "$(ratio tps check_bf check_floor "$v")"; done | sed 's/ | $//') |"
} > "$out/report.md"
cat "$out/report.md"
