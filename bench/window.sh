#!/usr/bin/env bash
# What a windowed filter (issue 25) costs against a scalable filter of the
# same keys, on a running server with bloomtype 1.7 installed (libpq's
# PGHOST, PGPORT, PGUSER say which):
#
#   bash bench/window.sh [--db NAME] [--reps N] [--keys N]
#
# For windows of 7 and 30 one-hour slices, each slice for N/slices keys
# (N, 700,000 by default, spread over as many hours as the window keeps):
#   - adds: bloom_agg(key, at, '1 hour', slices, N/slices, 0.01) against
#     bloom_agg(key, N, 0.01) (a scalable filter sized for all N keys);
#   - probes: 1M absent keys through bloom_contains(f, key) (every kept
#     slice) and bloom_contains(f, key, since) asking the newest slice only,
#     against the scalable filter, each a cost a key above the scan;
#   - bits a key: the value's bits over the keys it holds.
# Best of N turns (5), interleaved, one session, no parallel workers (the
# machines are shared: the least disturbed turn).  Prints a Markdown table.
set -euo pipefail
db=bloomtype_window
reps=5
keys=700000
while [ $# -gt 0 ]; do
    case "$1" in
        --db) db=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --keys) keys=$2; shift 2 ;;
        *) echo "usage: $0 [--db NAME] [--reps N] [--keys N]" >&2; exit 2 ;;
    esac
done
psql=(psql -X -q -v ON_ERROR_STOP=1)
"${psql[@]}" -d postgres -c "SET client_min_messages = warning" \
    -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
"${psql[@]}" -d "$db" -v keys="$keys" <<'EOF'
CREATE EXTENSION bloomtype;
SET timezone = 'UTC';
-- keys 1..N, key g at minute g * (hours * 60) / N from the first hour, so
-- that the last `slices` hours hold them all
CREATE TABLE ev7 AS
  SELECT g::bigint AS k, timestamptz '2026-11-01' + make_interval(secs => g * (8 * 3600.0 / :keys)) AS at
    FROM generate_series(1, :keys) g;
CREATE TABLE ev30 AS
  SELECT g::bigint AS k, timestamptz '2026-11-01' + make_interval(secs => g * (31 * 3600.0 / :keys)) AS at
    FROM generate_series(1, :keys) g;
CREATE TABLE absent AS SELECT -g::bigint AS k FROM generate_series(1, 1000000) g;
VACUUM ANALYZE;
EOF

# best milliseconds of a statement over the turns (one session a turn)
declare -A best
ms() {
    printf '%s\n' 'SET max_parallel_workers_per_gather = 0;' 'SET timezone = UTC;' \
        "\\set keys $keys" '\timing on' "$2;" |
        "${psql[@]}" -d "$db" -At | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1
}
cases=(
    "agg_scalable|SELECT bloom_agg(k, $keys, 0.01) IS NOT NULL FROM ev7"
    "agg_w7|SELECT bloom_agg(k, at, '1 hour', 7, $((keys / 7)), 0.01) IS NOT NULL FROM ev7"
    "agg_w30|SELECT bloom_agg(k, at, '1 hour', 30, $((keys / 30)), 0.01) IS NOT NULL FROM ev30"
    "scan|SELECT count(*) FROM absent"
    "probe_scalable|SELECT count(*) FROM absent WHERE bloom_contains((SELECT bloom_agg(k, $keys, 0.01) FROM ev7), k)"
    "probe_w7|SELECT count(*) FROM absent WHERE bloom_contains((SELECT bloom_agg(k, at, '1 hour', 7, $((keys / 7)), 0.01) FROM ev7), k)"
    "probe_w7_newest|SELECT count(*) FROM absent WHERE bloom_contains((SELECT bloom_agg(k, at, '1 hour', 7, $((keys / 7)), 0.01) FROM ev7), k, '2026-11-01 07:00+00')"
    "probe_w30|SELECT count(*) FROM absent WHERE bloom_contains((SELECT bloom_agg(k, at, '1 hour', 30, $((keys / 30)), 0.01) FROM ev30), k)"
    "probe_w30_newest|SELECT count(*) FROM absent WHERE bloom_contains((SELECT bloom_agg(k, at, '1 hour', 30, $((keys / 30)), 0.01) FROM ev30), k, '2026-11-02 06:00+00')"
)
for ((t = 1; t <= reps; t++)); do
    for c in "${cases[@]}"; do
        name=${c%%|*}
        v=$(ms "$name" "${c#*|}")
        if [ -z "${best[$name]:-}" ] || awk -v a="$v" -v b="${best[$name]}" 'BEGIN { exit !(a < b) }'; then
            best[$name]=$v
        fi
    done
done
# the aggregates' share of the probe queries (each probe query builds its filter once)
above() { awk -v p="${best[$1]}" -v a="${best[$2]}" -v s="${best[scan]}" -v n=1000000 \
    'BEGIN { printf "%.3f", (p - a - s) * 1000 / n }'; }
info=$("${psql[@]}" -d "$db" -At -F '|' <<EOF
SELECT 'scalable', bits, items, format('%s', round(bits::numeric / items, 1)), fpr FROM bloom_info((SELECT bloom_agg(k, $keys, 0.01) FROM ev7));
SELECT 'w7', bits, items, format('%s', round(bits::numeric / items, 1)), fpr FROM bloom_info((SELECT bloom_agg(k, at, '1 hour', 7, $((keys / 7)), 0.01) FROM ev7));
SELECT 'w30', bits, items, format('%s', round(bits::numeric / items, 1)), fpr FROM bloom_info((SELECT bloom_agg(k, at, '1 hour', 30, $((keys / 30)), 0.01) FROM ev30));
SELECT 'fp_w7', count(*) FILTER (WHERE bloom_contains(f, k)), count(*), 0, 0
  FROM absent, (SELECT bloom_agg(k, at, '1 hour', 7, $((keys / 7)), 0.01) AS f FROM ev7) s;
SELECT 'fp_w30', count(*) FILTER (WHERE bloom_contains(f, k)), count(*), 0, 0
  FROM absent, (SELECT bloom_agg(k, at, '1 hour', 30, $((keys / 30)), 0.01) AS f FROM ev30) s;
EOF
)
field() { echo "$info" | awk -F'|' -v r="$1" -v c="$2" '$1 == r { print $c }'; }
echo "# Windowed filters against a scalable filter of the same keys ($(date -u +%F), $(nproc) cores)"
echo
echo "Command: \`bash bench/window.sh --reps $reps --keys $keys\`; best of $reps turns, one session, no parallel workers."
echo
echo "| | scalable | window of 7 slices | window of 30 slices |"
echo "|---|---|---|---|"
echo "| bloom_agg of $keys keys: ms | ${best[agg_scalable]} | ${best[agg_w7]} | ${best[agg_w30]} |"
echo "| adds: over the scalable filter | 1.00 | $(awk -v a="${best[agg_w7]}" -v b="${best[agg_scalable]}" 'BEGIN { printf "%.2f", a / b }') | $(awk -v a="${best[agg_w30]}" -v b="${best[agg_scalable]}" 'BEGIN { printf "%.2f", a / b }') |"
echo "| probe of 1M absent keys, every kept slice: µs a key above the scan | $(above probe_scalable agg_scalable) | $(above probe_w7 agg_w7) | $(above probe_w30 agg_w30) |"
echo "| probe since the newest slice only: µs a key above the scan | - | $(above probe_w7_newest agg_w7) | $(above probe_w30_newest agg_w30) |"
echo "| bits | $(field scalable 2) | $(field w7 2) | $(field w30 2) |"
echo "| bits a key held | $(field scalable 4) | $(field w7 4) | $(field w30 4) |"
echo "| false positives of 1M absent keys (target 1%) | - | $(field fp_w7 2) | $(field fp_w30 2) |"
"${psql[@]}" -d postgres -c "DROP DATABASE $db"
