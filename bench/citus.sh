#!/usr/bin/env bash
# bloom_agg on Citus against one node, before and after the light partial
# states of 1.5, in one run on a cluster of its own.
#
#   bash bench/citus.sh [--n N] [--shards S] [--reps R]
#
# A coordinator and two workers on this machine (ports 55431-55433, unix
# sockets, Citus from scripts/citus.sh) and N rows (default 2000000) in a
# table distributed over S shards (default 32), the same rows in a plain
# table on the coordinator (one node: its default parallel plan, 2 workers).
# Timed, best of R (default 5): bloom_agg(id), bloom_agg(id, N, 0.01) and
# counting_agg(id, N, 0.01) on Citus and on one node (its default plan, and
# serial), with bloomtype 1.4 (dense partial states) and then after ALTER
# EXTENSION bloomtype UPDATE TO '1.5' on the coordinator (light ones).  Also
# the text bytes the shards send the coordinator for each form (Citus ships
# partial states as text), and the floor of Citus's path for a custom
# aggregate: a sum of bigint declared with CREATE AGGREGATE, which goes
# through worker_partial_agg / coord_combine_agg as ours do.  Prints a table
# with the ratios Citus / one node; writes bench/out/citus/result.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
n=2000000
shards=32
reps=5
while [ $# -gt 0 ]; do
    case "$1" in
        --n) n=$2; shift 2 ;;
        --shards) shards=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
if [ "${BLOOMTYPE_PG:-15}" != 15 ]; then
    echo "bench/citus.sh: Citus 13.2.2 is built for PostgreSQL 15 only (BLOOMTYPE_PG=${BLOOMTYPE_PG})"
    exit 0
fi
line=$(bash scripts/citus.sh ensure | tail -1)
case "$line" in
    "citus: install_path "*) bin=${line#citus: install_path }/bin ;;
    "citus: system") bin=$(/usr/lib/postgresql/15/bin/pg_config --bindir) ;;
    *) echo "bench/citus.sh: $line"; exit 0 ;;
esac
out=$PWD/bench/out/citus
sock=/tmp/bloomtype-citus-bench
mkdir -p "$out" "$sock"
AS=()
if [ "$(id -u)" -eq 0 ]; then
    AS=(runuser -u postgres --)
    chown postgres "$sock"
fi
ports=(55431 55432 55433)
cleanup() {
    for p in "${ports[@]}"; do
        "${AS[@]}" "$bin/pg_ctl" -D "$sock/n$p" -m immediate stop >/dev/null 2>&1 || true
    done
    rm -rf "$sock"
}
trap cleanup EXIT
for p in "${ports[@]}"; do
    "${AS[@]}" "$bin/initdb" -D "$sock/n$p" -A trust >/dev/null
    cat >> "$sock/n$p/postgresql.conf" <<EOF
port = $p
unix_socket_directories = '$sock'
listen_addresses = ''
shared_preload_libraries = 'citus'
fsync = off
synchronous_commit = off
shared_buffers = 512MB
max_connections = 100
EOF
    "${AS[@]}" "$bin/pg_ctl" -D "$sock/n$p" -l "$sock/n$p.log" -w start >/dev/null
done
q() { local p=$1; shift; "$bin/psql" -h "$sock" -p "$p" -U postgres -X -q -A -t -v ON_ERROR_STOP=1 "$@"; }
for p in "${ports[@]}"; do
    q "$p" -c "CREATE EXTENSION citus; CREATE EXTENSION bloomtype VERSION '1.4'"
done
q 55431 -c "SELECT citus_set_coordinator_host('$sock', 55431)" >/dev/null
q 55431 -c "SELECT citus_add_node('$sock', 55432)" >/dev/null
q 55431 -c "SELECT citus_add_node('$sock', 55433)" >/dev/null
q 55431 <<EOF
SET citus.shard_count = $shards;
CREATE TABLE t (id bigint);
SELECT create_distributed_table('t', 'id');
CREATE TABLE p (id bigint);
INSERT INTO p SELECT g FROM generate_series(1, $n) g;
INSERT INTO t SELECT id FROM p;
VACUUM ANALYZE t;
VACUUM ANALYZE p;
CREATE AGGREGATE floor_sum(bigint) (SFUNC = int8pl, STYPE = bigint, COMBINEFUNC = int8pl,
                                    PARALLEL = SAFE);
EOF

# best of reps, in ms (psql's \timing of the statement)
best() {
    local sql=$1 b=""
    for _ in $(seq "$reps"); do
        local ms
        ms=$(q 55431 -c '\timing on' -c "$sql" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
        if [ -z "$b" ] || awk "BEGIN { exit !($ms < $b) }"; then b=$ms; fi
    done
    echo "$b"
}
# text bytes of the partial states of all shards (as Citus ships them)
shipped() {
    q 55431 -c "SELECT sum(result::bigint) FROM run_command_on_shards('t',
        \$\$SELECT length(worker_partial_agg('$1'::regprocedure, $2)::text) FROM %s\$\$)"
}

printf 'version\tform\tcitus_ms\tone_node_ms\tratio\tone_node_serial_ms\tratio_serial\tbytes_all_shards\tbytes_a_shard\n' > "$out/result.tsv"
forms=("bloom_agg(id)" "bloom_agg(id, $n, 0.01)" "counting_agg(id, $n, 0.01)")
aggs=("bloom_agg(bigint)" "bloom_agg(bigint,bigint,double precision)"
      "counting_agg(bigint,bigint,double precision)")
args=("id" "ROW(id, ${n}::bigint, 0.01::float8)" "ROW(id, ${n}::bigint, 0.01::float8)")
c=$(best "SELECT floor_sum(id) FROM t")
o=$(best "SELECT floor_sum(id) FROM p")
os=$(best "SET max_parallel_workers_per_gather = 0; SELECT floor_sum(id) FROM p")
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "-" "floor_sum(id) (Citus's floor)" "$c" "$o" \
    "$(awk "BEGIN { printf \"%.2f\", $c / $o }")" "$os" "$(awk "BEGIN { printf \"%.2f\", $c / $os }")" \
    "$(shipped "floor_sum(bigint)" id)" "-" >> "$out/result.tsv"
for version in 1.4 1.5; do
    if [ "$version" = 1.5 ]; then
        # Citus propagates the update from the coordinator to the workers
        q 55431 -c "ALTER EXTENSION bloomtype UPDATE TO '1.5'"
        q 55431 -c "SELECT 'worker at ' || result FROM run_command_on_workers(\$\$SELECT extversion FROM pg_extension WHERE extname = 'bloomtype'\$\$)"
    fi
    for i in 0 1 2; do
        f=${forms[$i]}
        c=$(best "SELECT length($f::bytea) FROM t")
        o=$(best "SELECT length($f::bytea) FROM p")
        os=$(best "SET max_parallel_workers_per_gather = 0; SELECT length($f::bytea) FROM p")
        b=$(shipped "${aggs[$i]}" "${args[$i]}")
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$version" "$f" "$c" "$o" \
            "$(awk "BEGIN { printf \"%.2f\", $c / $o }")" "$os" "$(awk "BEGIN { printf \"%.2f\", $c / $os }")" \
            "$b" "$((b / shards))" >> "$out/result.tsv"
    done
done
same=$(q 55431 -c "SELECT (SELECT md5(bloom_agg(id, $n, 0.01)::text) FROM t) = (SELECT md5(bloom_agg(id, $n, 0.01)::text) FROM p)
    AND (SELECT md5(counting_agg(id, $n, 0.01)::text) FROM t) = (SELECT md5(counting_agg(id, $n, 0.01)::text) FROM p)")
echo "bloom_agg on Citus (1 coordinator + 2 workers, $shards shards, $n rows) against one node; best of $reps; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
column -t -s $'\t' "$out/result.tsv"
echo "1.5 capacity forms byte-identical to one node: $same"
