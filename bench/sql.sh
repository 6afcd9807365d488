#!/usr/bin/env bash
# Runs inside pg_virtualenv (bench/run.sh): builds the data, times every
# case and writes bench/out/sql.tsv (case, median, min, max in ms) and
# bench/out/memory.tsv.
set -euo pipefail
rows=$1
reps=$2
out=$3
: > "$out/sql.tsv"

psql -X -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION bloomtype" -c "CREATE EXTENSION hll"
psql -X -q -v ON_ERROR_STOP=1 -v rows="$rows" -f bench/data.sql
psql -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE INDEX users_user_id ON users (user_id);
VACUUM ANALYZE users, probes, filters;
SQL

# time one case: label, settings, query
run_case()
{
    local label=$1 settings=$2 query=$3
    local script
    script=$(printf '%s\n\\timing on\n' "$settings")
    for ((i = 0; i <= reps; i++)); do script+=$(printf '\n%s;' "$query"); done
    psql -X -q -v ON_ERROR_STOP=1 -c "SELECT 1" >/dev/null
    printf '%s\n' "$script" | psql -X -q -v ON_ERROR_STOP=1 | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' \
        | tail -n "$reps" | sort -g \
        | awk -v l="$label" '{ v[NR] = $1 } END { printf "%s\t%.1f\t%.1f\t%.1f\n", l, v[int((NR + 1) / 2)], v[1], v[NR] }' \
        | tee -a "$out/sql.tsv"
}

serial="SET max_parallel_workers_per_gather = 0;"
par="SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0; SET parallel_leader_participation = off;"
for w in 0 2; do
    if [ $w = 0 ]; then s=$serial; else s=$par; fi
    run_case "scan_w$w" "$s" "SELECT count(*) FROM users"
    run_case "sum_w$w" "$s" "SELECT sum(user_id) FROM users"
    run_case "hll_w$w" "$s" "SELECT pg_column_size(hll_add_agg(hll_hash_bigint(user_id))) FROM users"
    run_case "bloom_fixed_w$w" "$s" "SELECT pg_column_size(bloom_agg(user_id, $rows, 0.01)) FROM users"
    run_case "bloom_auto_w$w" "$s" "SELECT pg_column_size(bloom_agg(user_id)) FROM users"
done

run_case probe_floor "$serial" "SELECT count(*) FROM probes WHERE id % 7 = 3"
run_case probe_bloom "$serial" "SELECT count(*) FROM probes WHERE bloom_contains((SELECT f FROM filters WHERE name = 'users'), id)"
run_case probe_batch "$serial" "SELECT count(*) FROM unnest(bloom_contains_each((SELECT f FROM filters WHERE name = 'users'), (SELECT array_agg(id) FROM probes))) AS x WHERE x"
btree="$serial SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_material = off;"
hash="$serial SET enable_nestloop = off; SET enable_mergejoin = off; SET work_mem = '4GB'; SET hash_mem_multiplier = 1;"
exists="SELECT count(*) FROM probes p WHERE EXISTS (SELECT 1 FROM users u WHERE u.user_id = p.id)"
run_case probe_btree "$btree" "$exists"
run_case probe_hash "$hash" "$exists"

# memory each needs, and the plans used
psql -X -q -At -F $'\t' -v ON_ERROR_STOP=1 <<SQL > "$out/memory.tsv"
SELECT 'filter_bytes', pg_column_size(f) FROM filters WHERE name = 'users';
SELECT 'index_bytes', pg_relation_size('users_user_id');
SELECT 'table_bytes', pg_relation_size('users');
SQL
hplan=$(printf '%s\nEXPLAIN (ANALYZE, COSTS OFF) %s;\n' "$hash" "$exists" | psql -X -q -At)
echo "$hplan" > "$out/plan_hash.txt"
printf 'hash_kb\t%s\n' "$(echo "$hplan" | sed -n 's/.*Memory Usage: \([0-9]*\)kB.*/\1/p' | sort -n | tail -1)" >> "$out/memory.tsv"
printf '%s\nEXPLAIN (COSTS OFF) %s;\n' "$btree" "$exists" | psql -X -q -At > "$out/plan_btree.txt"
printf '%s\nEXPLAIN (COSTS OFF) SELECT pg_column_size(bloom_agg(user_id)) FROM users;\n' "$par" | psql -X -q -At > "$out/plan_parallel.txt"
cat "$out/memory.tsv"
