#!/usr/bin/env bash
# The SQL side of the filters that forget (issue 12): what a row costs in
# PostgreSQL, beside bloomfilter's, in one run on a cluster of its own.
#
#   bash bench/forget_sql.sh [--n N] [--reps R] [--port P]
#
# A table of N keys (default 1000000) and one of N probes (half of them
# keys); filters of capacity N at 1% built by bloom_agg, cuckoo_agg and
# counting_agg and stored in a table (TOASTed, so each probe query reads
# and decodes one once).  Timed, each R times (default 5), the median
# kept: the aggregate building each filter over the N keys; the probes
#   SELECT count(*) FROM probes WHERE <type>_contains((SELECT f ...), k)
# against the same scan with a built-in comparison (k % 2 = 0) as the
# baseline (the ns a row above it are the filter's); and a batch of
# 100,000 adds (new keys, into the full filter) and removes (of added keys)
# through <type>_add_all / _remove_all on the stored filter, less the same
# statement with NULL keys (reading, copying and writing the value).
# Ratios are to bloomfilter in the same run.  Needs bloomtype 1.4
# installed (bash scripts/build.sh).  Writes bench/out/forget/sql_N.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
n=1000000
reps=5
port=5507
while [ $# -gt 0 ]; do
    case "$1" in
        --n) n=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
# the PostgreSQL to run on: BLOOMTYPE_PG=15 (default) or 18 (bench/pg.sh)
source bench/pg.sh
bench_pg_select
out=bench/out/forget
mkdir -p "$out"
pgdata=/tmp/bloomtype-forget-$port
trap 'bench_cluster_stop "$pgdata"' EXIT
bench_cluster_start "$pgdata" "$port" shared_buffers=512MB max_parallel_workers_per_gather=0
PATH=$PG_BIN:$PATH

q() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }
q -v n="$n" <<'SQL' >/dev/null
CREATE EXTENSION bloomtype;
CREATE TABLE keys AS SELECT g::bigint * 7919 AS k FROM generate_series(1, :n) g;
CREATE TABLE probes AS SELECT CASE WHEN g % 2 = 0 THEN g::bigint * 7919 ELSE g::bigint * 7919 + 1 END AS k
  FROM generate_series(1, :n) g;
CREATE TABLE filters (name text PRIMARY KEY, f_b bloomfilter, f_k cuckoofilter, f_c countingbloom);
INSERT INTO filters VALUES ('f',
  (SELECT bloom_agg(k, :n, 0.01) FROM keys), (SELECT cuckoo_agg(k, :n, 0.01) FROM keys),
  (SELECT counting_agg(k, :n, 0.01) FROM keys));
VACUUM ANALYZE;
SQL

# milliseconds of one statement, from EXPLAIN ANALYZE's execution time
# the statement's execution time in ms, from EXPLAIN ANALYZE's last line
ms() { q -At -c "EXPLAIN (ANALYZE, TIMING OFF) $1" | sed -n 's/^Execution Time: \([0-9.]*\) ms$/\1/p'; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

declare -A stmt
stmt[agg_bloom]="SELECT bloom_agg(k, $n, 0.01) FROM keys"
stmt[agg_cuckoo]="SELECT cuckoo_agg(k, $n, 0.01) FROM keys"
stmt[agg_counting]="SELECT counting_agg(k, $n, 0.01) FROM keys"
stmt[probe_base]="SELECT count(*) FROM probes WHERE k % 2 = 0"
stmt[probe_bloom]="SELECT count(*) FROM probes WHERE bloom_contains((SELECT f_b FROM filters WHERE name = 'f'), k)"
stmt[probe_cuckoo]="SELECT count(*) FROM probes WHERE cuckoo_contains((SELECT f_k FROM filters WHERE name = 'f'), k)"
stmt[probe_counting]="SELECT count(*) FROM probes WHERE counting_contains((SELECT f_c FROM filters WHERE name = 'f'), k)"
stmt[add_bloom]="SELECT length(bloom_add_all(f_b, ARRAY(SELECT -g::bigint FROM generate_series(1, 100000) g))::bytea) FROM filters"
stmt[add_cuckoo]="SELECT length(cuckoo_add_all(f_k, ARRAY(SELECT -g::bigint FROM generate_series(1, 100000) g))::bytea) FROM filters"
stmt[add_counting]="SELECT length(counting_add_all(f_c, ARRAY(SELECT -g::bigint FROM generate_series(1, 100000) g))::bytea) FROM filters"
stmt[remove_cuckoo]="SELECT length(cuckoo_remove_all(f_k, ARRAY(SELECT g::bigint * 7919 FROM generate_series(1, 100000) g))::bytea) FROM filters"
stmt[remove_counting]="SELECT length(counting_remove_all(f_c, ARRAY(SELECT g::bigint * 7919 FROM generate_series(1, 100000) g))::bytea) FROM filters"
# the same statements with nothing to add: the value read, copied and
# written, and the array built
stmt[copy_bloom]="SELECT length(bloom_add_all(f_b, ARRAY(SELECT NULL::bigint FROM generate_series(1, 100000) g))::bytea) FROM filters"
stmt[copy_cuckoo]="SELECT length(cuckoo_add_all(f_k, ARRAY(SELECT NULL::bigint FROM generate_series(1, 100000) g))::bytea) FROM filters"
stmt[copy_counting]="SELECT length(counting_add_all(f_c, ARRAY(SELECT NULL::bigint FROM generate_series(1, 100000) g))::bytea) FROM filters"

order=(agg_bloom agg_cuckoo agg_counting probe_base probe_bloom probe_cuckoo probe_counting
       add_bloom add_cuckoo add_counting remove_cuckoo remove_counting copy_bloom copy_cuckoo copy_counting)
declare -A runs
for r in $(seq "$reps"); do
    for k in "${order[@]}"; do runs[$k]+="$(ms "${stmt[$k]}") "; done
done
declare -A med
for k in "${order[@]}"; do med[$k]=$(printf '%s\n' ${runs[$k]} | median); done

sizes=$(q -At -F ' ' -c "SELECT length(f_b::bytea), length(f_k::bytea), length(f_c::bytea) FROM filters")
read -r sb sk sc <<< "$sizes"
tsv=$out/sql_$n.tsv
{
    printf 'measure\tbloomfilter\tcuckoofilter\tcountingbloom\n'
    printf 'bytes\t%s\t%s\t%s\n' "$sb" "$sk" "$sc"
    awk -v n="$n" -v b="${med[agg_bloom]}" -v k="${med[agg_cuckoo]}" -v c="${med[agg_counting]}" \
        'BEGIN { printf "agg ns/row\t%.0f\t%.0f\t%.0f\n", b*1e6/n, k*1e6/n, c*1e6/n }'
    awk -v n="$n" -v z="${med[probe_base]}" -v b="${med[probe_bloom]}" -v k="${med[probe_cuckoo]}" -v c="${med[probe_counting]}" \
        'BEGIN { printf "probe ns/row over the scan\t%.1f\t%.1f\t%.1f\n", (b-z)*1e6/n, (k-z)*1e6/n, (c-z)*1e6/n }'
    awk -v b="${med[add_bloom]}" -v k="${med[add_cuckoo]}" -v c="${med[add_counting]}" \
        -v cb="${med[copy_bloom]}" -v ck="${med[copy_cuckoo]}" -v cc="${med[copy_counting]}" \
        'BEGIN { printf "add_all ns/key (copy of the value subtracted)\t%.0f\t%.0f\t%.0f\n", (b-cb)*1e6/100000, (k-ck)*1e6/100000, (c-cc)*1e6/100000 }'
    awk -v k="${med[remove_cuckoo]}" -v c="${med[remove_counting]}" -v ck="${med[copy_cuckoo]}" -v cc="${med[copy_counting]}" \
        'BEGIN { printf "remove_all ns/key (copy subtracted)\t-\t%.0f\t%.0f\n", (k-ck)*1e6/100000, (c-cc)*1e6/100000 }'
} > "$tsv"
echo "bloomtype SQL, N = $n, median of $reps (ms): $(for k in "${order[@]}"; do printf '%s=%s ' "$k" "${med[$k]}"; done)"
column -t -s $'\t' "$tsv"
awk -F'\t' 'NR > 2 && $3 != "-" && $2 != "-" && $2 + 0 > 0 { printf "%s: cuckoofilter %.2fx, countingbloom %.2fx bloomfilter\n", $1, $3 / $2, $4 / $2 }' "$tsv"
