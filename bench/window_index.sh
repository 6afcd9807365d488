#!/usr/bin/env bash
# What a probe of the index of a table partitioned by day costs against the
# number of partitions (issue 25), with and without since, on a running
# server with bloomtype 1.7 (libpq's PGHOST, PGPORT, PGUSER say which):
#
#   bash bench/window_index.sh [--db NAME] [--reps N] [--probes N]
#
# For 1, 7, 30 and 365 daily partitions of a timestamptz column (1,000 keys
# a day, a bloomfilter index on the key), N absent keys (100,000) are
# probed once a row: bloom_index_contains(index, key) (every partition) and
# bloom_index_contains(index, key, since) with since the start of the
# newest day (one partition), each a cost a key above the scan; best of N
# turns (5), one session, no parallel workers.  Prints a Markdown table.
set -euo pipefail
db=bloomtype_window_index
reps=5
probes=100000
while [ $# -gt 0 ]; do
    case "$1" in
        --db) db=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --probes) probes=$2; shift 2 ;;
        *) echo "usage: $0 [--db NAME] [--reps N] [--probes N]" >&2; exit 2 ;;
    esac
done
psql=(psql -X -q -v ON_ERROR_STOP=1)
"${psql[@]}" -d postgres -c "SET client_min_messages = warning" \
    -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
"${psql[@]}" -d "$db" -v probes="$probes" <<'EOF' >/dev/null
CREATE EXTENSION bloomtype;
SET timezone = 'UTC';
SET client_min_messages = warning;
CREATE TABLE absent AS SELECT -g::bigint AS k FROM generate_series(1, :probes) g;
CREATE FUNCTION make_days(name text, days int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TABLE %I (k bigint, at timestamptz) PARTITION BY RANGE (at)', name);
  FOR d IN 0 .. days - 1 LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', name || '_' || d, name,
                   timestamptz '2026-01-01 00:00+00' + make_interval(days => d),
                   timestamptz '2026-01-01 00:00+00' + make_interval(days => d + 1));
  END LOOP;
  EXECUTE format('INSERT INTO %I SELECT g, timestamptz ''2026-01-01 00:00+00'' + make_interval(secs => (g - 1) * 86.4)
                    FROM generate_series(1, %s) g', name, days * 1000);
  EXECUTE format('CREATE INDEX %I ON %I USING bloomfilter (k)', name || '_k', name);
END $$;
SELECT make_days('d1', 1), make_days('d7', 7), make_days('d30', 30), make_days('d365', 365);
VACUUM ANALYZE;
EOF

declare -A best
ms() {
    printf '%s\n' 'SET max_parallel_workers_per_gather = 0;' '\timing on' "$1;" |
        "${psql[@]}" -d "$db" -At | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1
}
since() { "${psql[@]}" -d "$db" -At -c "SELECT timestamptz '2026-01-01 00:00+00' + make_interval(days => $1 - 1)"; }
cases=("scan|SELECT count(*) FROM absent")
for p in 1 7 30 365; do
    s=$(since "$p")
    cases+=("all_$p|SELECT count(*) FROM absent WHERE bloom_index_contains('d${p}_k', k)")
    cases+=("since_$p|SELECT count(*) FROM absent WHERE bloom_index_contains('d${p}_k', k, '$s')")
done
for ((t = 1; t <= reps; t++)); do
    for c in "${cases[@]}"; do
        name=${c%%|*}
        v=$(ms "${c#*|}")
        if [ -z "${best[$name]:-}" ] || awk -v a="$v" -v b="${best[$name]}" 'BEGIN { exit !(a < b) }'; then
            best[$name]=$v
        fi
    done
done
above() { awk -v a="${best[$1]}" -v s="${best[scan]}" -v n="$probes" 'BEGIN { printf "%.2f", (a - s) * 1000 / n }'; }
echo "# Probes of a table partitioned by day ($(date -u +%F), $(nproc) cores)"
echo
echo "Command: \`bash bench/window_index.sh --reps $reps --probes $probes\`; 1,000 keys a day; best of $reps turns; µs a probe above the scan of $probes absent keys."
echo
echo "| partitions | every partition | since the newest day (one partition) |"
echo "|---|---|---|"
for p in 1 7 30 365; do
    echo "| $p | $(above "all_$p") | $(above "since_$p") |"
done
"${psql[@]}" -d postgres -c "DROP DATABASE $db"
