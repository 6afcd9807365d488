#!/usr/bin/env bash
# What bloom_index_contains costs a row, against bloom_contains of a stored
# filter of the same keys (issue 24), on a running server with bloomtype
# installed (libpq's PGHOST, PGPORT, PGUSER say which):
#
#   bash bench/index_rows.sh [--db NAME] [--reps N] [--keep]
#
# Makes database NAME (bloomtype_rows) with users (ids 1..1M, a bloomfilter
# index users_f), the same ids in a table partitioned by range into 4
# (pusers, index pusers_f), filters (the index's snapshot) and absent (1M
# ids in neither), then times, interleaved N times (10) in one session
# without parallel workers, a count over absent: alone (the scan), with
# bloom_contains((SELECT f FROM filters), id), with
# bloom_index_contains('users_f', id) and with ('pusers_f', id).  Prints
# the best time of each and each probe's cost a row above the scan (the
# machines are shared: the best of many turns is the least disturbed).
# --keep leaves the database for another run.
set -euo pipefail
db=bloomtype_rows
reps=10
keep=
while [ $# -gt 0 ]; do
    case "$1" in
        --db) db=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        *) echo "usage: $0 [--db NAME] [--reps N] [--keep]" >&2; exit 2 ;;
    esac
done
psql=(psql -X -q -v ON_ERROR_STOP=1)

if ! "${psql[@]}" -d "$db" -c 'SELECT 1 FROM absent LIMIT 0' >/dev/null 2>&1; then
    "${psql[@]}" -d postgres -c "SET client_min_messages = warning" \
        -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
    "${psql[@]}" -d "$db" <<'EOF'
CREATE EXTENSION bloomtype;
CREATE TABLE users (id bigint);
INSERT INTO users SELECT generate_series(1, 1000000);
CREATE INDEX users_f ON users USING bloomfilter (id);
CREATE TABLE filters AS SELECT bloom_index_filter('users_f') AS f;
CREATE TABLE absent AS SELECT g::bigint AS id FROM generate_series(2000001, 3000000) g;
CREATE TABLE pusers (id bigint) PARTITION BY RANGE (id);
CREATE TABLE pusers_1 PARTITION OF pusers FOR VALUES FROM (MINVALUE) TO (250001);
CREATE TABLE pusers_2 PARTITION OF pusers FOR VALUES FROM (250001) TO (500001);
CREATE TABLE pusers_3 PARTITION OF pusers FOR VALUES FROM (500001) TO (750001);
CREATE TABLE pusers_4 PARTITION OF pusers FOR VALUES FROM (750001) TO (MAXVALUE);
INSERT INTO pusers SELECT generate_series(1, 1000000);
CREATE INDEX pusers_f ON pusers USING bloomfilter (id);
VACUUM ANALYZE;
EOF
fi

queries=("SELECT count(*) FROM absent;"
         "SELECT count(*) FROM absent WHERE bloom_contains((SELECT f FROM filters), id);"
         "SELECT count(*) FROM absent WHERE bloom_index_contains('users_f', id);"
         "SELECT count(*) FROM absent WHERE bloom_index_contains('pusers_f', id);")
times=$({
    echo 'SET max_parallel_workers_per_gather = 0;'
    echo 'SET jit = off;'
    echo '\timing on'
    for _ in $(seq "$reps"); do printf '%s\n' "${queries[@]}"; done
} | "${psql[@]}" -d "$db" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')

echo "$times" | awk -v n="${#queries[@]}" -v reps="$reps" '
    { q = (NR - 1) % n; if (!(q in best) || $1 < best[q]) best[q] = $1 }
    END {
        printf "best of %d (ms): scan %.1f, stored %.1f, index %.1f, partitioned %.1f\n",
            reps, best[0], best[1], best[2], best[3]
        s = best[1] - best[0]
        printf "a row above the scan (us): stored %.3f, index %.3f (%.1fx), partitioned %.3f (%.1fx)\n",
            s / 1000, (best[2] - best[0]) / 1000, (best[2] - best[0]) / s,
            (best[3] - best[0]) / 1000, (best[3] - best[0]) / s
    }'
[ -n "$keep" ] || "${psql[@]}" -d postgres -c "DROP DATABASE $db"
