#!/usr/bin/env bash
# An application's copy of an index kept in step (issue 34): how soon a new
# user is in the guards' copies, what it costs on the wire and in CPU, and
# what the trigger costs the writers; a whole reload beside it.
#
#   bash bench/sync.sh [--users "1000000 10000000"] [--rates "200 2000"]
#                      [--secs 20] [--guards 3] [--writers 4] [--port 5508]
#
# For each number of users N: a table users(id bigint primary key, at
# timestamptz) of N rows, its index users_id_bloom and the log triggers of
# clients/guard_setup.sql.  Then:
#   - the writers' throughput, unthrottled (pgbench, --writers clients, one
#     row a transaction, 10 s a turn, without the log trigger and with it,
#     twice in turn): the ratio of the means is what the sync costs a
#     writer;
#   - a whole load of the filter (bloom_index_filter_at into a Python
#     IndexCopy), median of 5: what each reload would cost;
#   - for each rate R: --guards guard processes (bench/sync_guard.py), then
#     --writers pgbench clients inserting R rows a second in all for --secs
#     seconds; each guard prints the staleness of every new id (from its
#     insert, in a transaction that commits right after, to the catch-up
#     after which its copy holds it) p50/p99/max, ids never held and held
#     only later than 100 ms (absent from the copy past the window), bytes
#     a new key, and its CPU.
# The cluster: PostgreSQL 15 (BLOOMTYPE_PG=18 for 18), shared_buffers 1 GB,
# fsync off (the writers measure the trigger, not the disk).  Needs
# python3-psycopg2 (scripts/packages.sh, group python), run by Debian's
# /usr/bin/python3.  Writes
# bench/out/sync/sync.tsv and prints it.
set -euo pipefail
cd "$(dirname "$0")/.."
users="1000000 10000000"
rates="200 2000"
secs=20
guards=3
writers=4
port=5508
while [ $# -gt 0 ]; do
    case "$1" in
        --users) users=$2; shift 2 ;;
        --rates) rates=$2; shift 2 ;;
        --secs) secs=$2; shift 2 ;;
        --guards) guards=$2; shift 2 ;;
        --writers) writers=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
source scripts/packages.sh
bt_need --who bench/sync.sh python >&2
source bench/pg.sh
bench_pg_select
out=bench/out/sync
mkdir -p "$out"
pgdata=/tmp/bloomtype-sync-$port
work=$(mktemp -d)
trap 'bench_cluster_stop "$pgdata"; rm -rf "$work"' EXIT
bench_cluster_start "$pgdata" "$port" shared_buffers=1GB fsync=off max_connections=60
PATH=$PG_BIN:$PATH
export PYTHONPATH=$PWD/clients/python PYTHONSAFEPATH=1 PYTHONDONTWRITEBYTECODE=1

q() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }
echo 'INSERT INTO users (id) VALUES (nextval('"'"'ids'"'"'));' >"$work/insert.sql"
pgb() { pgbench -n -c "$writers" -j 2 -f "$work/insert.sql" "$@" 2>&1; }
tps() { sed -n 's/^tps = \([0-9.]*\) .*/\1/p' | tail -1 | cut -d. -f1; }

tsv=$out/sync.tsv
printf 'users\trate\twhat\tvalue\n' >"$tsv"
row() { printf '%s\t%s\t%s\t%s\n' "$@" | tee -a "$tsv"; }

for n in $users; do
    q -v n="$n" <<'SQL' >/dev/null
SET client_min_messages = warning;
DROP TABLE IF EXISTS users;
DROP SEQUENCE IF EXISTS ids;
CREATE EXTENSION IF NOT EXISTS bloomtype;
CREATE TABLE users (id bigint PRIMARY KEY, at timestamptz NOT NULL DEFAULT clock_timestamp());
INSERT INTO users (id) SELECT generate_series(1, :n);
SQL
    q -v n="$n" -c "CREATE SEQUENCE ids START $((n + 1))" >/dev/null
    q -f clients/guard_setup.sql >/dev/null
    q -c 'VACUUM ANALYZE users' >/dev/null

    # the writers, unthrottled, without the log trigger and with it, twice
    # in turn (the sum of each: neither gets the warmer cache alone)
    with=0
    without=0
    for turn in 1 2; do
        q -c 'ALTER TABLE users DISABLE TRIGGER users_id_bloom_log' >/dev/null
        without=$((without + $(pgb -T 10 | tps)))
        q -c 'ALTER TABLE users ENABLE TRIGGER users_id_bloom_log' >/dev/null
        with=$((with + $(pgb -T 10 | tps)))
    done
    with=$((with / 2))
    without=$((without / 2))
    row "$n" - writers_tps_with_log "$with"
    row "$n" - writers_tps_without "$without"
    row "$n" - writers_ratio "$(awk -v a="$with" -v b="$without" 'BEGIN { printf "%.2f", a / b }')"

    reload=$(/usr/bin/python3 bench/sync_guard.py --reload-only --reps 5)
    row "$n" - reload "$reload"

    for r in $rates; do
        first=$(q -At -c "SELECT last_value + 1 FROM ids")
        pids=()
        for g in $(seq "$guards"); do
            /usr/bin/python3 bench/sync_guard.py --from "$first" --secs "$secs" >"$work/guard$g" &
            pids+=($!)
        done
        for g in $(seq "$guards"); do
            until grep -q '^ready' "$work/guard$g" 2>/dev/null; do sleep 0.1; done
        done
        got=$(pgb -R "$r" -T "$secs" | tps)
        wait "${pids[@]}"
        row "$n" "$r" writers_tps "$got"
        for g in $(seq "$guards"); do
            row "$n" "$r" "guard$g" "$(grep '^{' "$work/guard$g")"
        done
    done
done
