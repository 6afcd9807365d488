#!/usr/bin/env bash
# What reading a compact value costs (issue 21): the 64-byte values that
# describe far more than they hold (a light bloom_agg state of 8,388,559
# blocks, a light counting_agg state of 1,677,718 blocks, an empty version 3
# cuckoo hash list of capacity 482,699,586), each read function timed (best
# of 5, one statement each) and its peak resident memory in a fresh backend,
# beside the same function on a small ordinary filter in the same run.
#   bash bench/compact.sh          (a throwaway cluster; or set PGHOST)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${PGHOST:-}${PGPORT:-}" ] && [ -z "${BENCH_IN_VENV:-}" ]; then
    # the PostgreSQL to run on: BLOOMTYPE_PG=15 (default) or 18 (bench/pg.sh)
    source bench/pg.sh
    bench_pg_select
    BENCH_IN_VENV=1 bench_pgenv -- bash "$0" "$@"
    exit
fi
B7='\x424c4d460407010100000000070902000000000000000000e8030000000000007b14ae47e17a843f0000000000000000cfff7f00000000000000000000000000'
C8='\x424c4d460408010100000000060900000000000000000000e8030000000000007b14ae47e17a843f000000000000000096991900000000000000000000000000'
K2='\x424c4d4603020101000000000000000000000000000000004269c51c00000000000000000000e03f000000000000000000000000000000000000000000000000'
psql -X -q -c "CREATE EXTENSION IF NOT EXISTS bloomtype" >/dev/null
psql -X -q >/dev/null <<SQL
DROP TABLE IF EXISTS compact_values;
CREATE TABLE compact_values AS SELECT
  '$B7'::bloomfilter AS b7, '$C8'::countingbloom AS c8, '$K2'::cuckoofilter AS k2,
  bloom_agg(g::bigint) AS b, counting_agg(g::bigint) AS c, cuckoo_agg(g::bigint) AS k
  FROM generate_series(1, 1000) g;
CREATE OR REPLACE FUNCTION bench_best_ms(q text) RETURNS numeric LANGUAGE plpgsql AS \$\$
DECLARE t0 timestamptz; best numeric := 1e12;
BEGIN
  FOR i IN 1..5 LOOP
    t0 := clock_timestamp(); EXECUTE q;
    best := least(best, extract(epoch FROM clock_timestamp() - t0) * 1000);
  END LOOP;
  RETURN round(best, 2);
END \$\$;
SQL
peak() {  # peak RSS (MB) of a fresh backend that runs $1 once
    psql -X -At -c "$1" -c "SELECT (regexp_match(pg_read_file('/proc/self/status'), 'VmHWM:\s+(\d+) kB'))[1]::int / 1024" | tail -1
}
printf '| call | 64-byte value: ms | peak MB | small filter: ms | peak MB |\n|---|---|---|---|---|\n'
while IFS='#' read -r name q; do
    qc=${q//@v/b7}; qc=${qc//@c/c8}; qc=${qc//@k/k2}
    qs=${q//@v/b}; qs=${qs//@c/c}; qs=${qs//@k/k}
    t1=$(psql -X -At -c "SELECT bench_best_ms(\$q\$SELECT $qc FROM compact_values\$q\$)")
    m1=$(peak "SELECT $qc FROM compact_values")
    t2=$(psql -X -At -c "SELECT bench_best_ms(\$q\$SELECT $qs FROM compact_values\$q\$)")
    m2=$(peak "SELECT $qs FROM compact_values")
    printf '| `%s` | %s | %s | %s | %s |\n' "$name" "$t1" "$m1" "$t2" "$m2"
done <<'EOF_Q'
bloom_contains(f, 42)#bloom_contains(@v, 42)
bloom_contains_each(f, 1..1000)#bloom_contains_each(@v, (SELECT array_agg(g::bigint) FROM generate_series(1, 1000) g))
bloom_info(f)#(bloom_info(@v)).estimated_items
bloom_cardinality(f)#bloom_cardinality(@v)
f \| f#length((@v | @v)::bytea)
bloom_union_agg(f) over 3 rows#(SELECT length(bloom_union_agg(x)::bytea) FROM (VALUES (@v), (@v), (@v)) s(x))
counting_contains(f, 42)#counting_contains(@c, 42)
counting_count(f, 42)#counting_count(@c, 42)
counting_info(f)#(counting_info(@c)).estimated_items
cuckoo_contains(f, 42)#cuckoo_contains(@k, 42)
cuckoo_count(f, 42)#cuckoo_count(@k, 42)
cuckoo_info(f)#(cuckoo_info(@k)).load_factor
cuckoo_compact(f)#length(cuckoo_compact(@k)::bytea)
EOF_Q
psql -X -q -c "DROP TABLE compact_values; DROP FUNCTION bench_best_ms(text)"
