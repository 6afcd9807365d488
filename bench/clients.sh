#!/usr/bin/env bash
# The client readers (issue 14): a membership test in the application
# against one query per key to a local PostgreSQL, in each language, in one
# run on a cluster of its own.
#
#   bash bench/clients.sh [--n N] [--port P] [--langs "python node go"]
#
# A table users(id bigint primary key) of 1,000,000 ids, the index
# users_id_bloom ON users USING bloomfilter (id), and filters(name, f) with
# ('users', bloom_agg(id, 1000000, 0.01)) (1.5 MB, TOASTed).  Each
# language's bench program (clients/<lang>/...) times per key, one key at a
# time on one connection with prepared statements, over keys half present:
#   local                 contains() on the filter loaded once (f::bytea)
#   bloom_contains        SELECT bloom_contains(f, $1) FROM filters WHERE name = 'users'
#   bloom_index_contains  SELECT bloom_index_contains('users_id_bloom', $1::bigint)
#   primary_key           SELECT EXISTS (SELECT 1 FROM users WHERE id = $1)
# and prints the ns a key and the ratio to primary_key, measured in the same
# run (the baseline).  N keys a measure (default: each program's own, 200,000
# local and 20,000 a query type).  Each program also checks that its local
# answers are bloom_contains's.  Needs bloomtype installed
# (bash scripts/build.sh) and each client's dependencies
# (clients/<lang>/run-tests.sh unit installs them).  Writes
# bench/out/clients/run.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
here=$(pwd)
n=
port=5509
langs="python node go"
while [ $# -gt 0 ]; do
    case "$1" in
        --n) n=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        --langs) langs=$2; shift 2 ;;
        *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
# the PostgreSQL to run on: BLOOMTYPE_PG=15 (default) or 18 (bench/pg.sh)
source bench/pg.sh
bench_pg_select
out=bench/out/clients
mkdir -p "$out"
pgdata=/tmp/bloomtype-clients-$port
trap 'bench_cluster_stop "$pgdata"' EXIT
bench_cluster_start "$pgdata" "$port" shared_buffers=512MB
PATH=$PG_BIN:$PATH

psql -X -q -v ON_ERROR_STOP=1 <<'SQL' >/dev/null
CREATE EXTENSION bloomtype;
CREATE TABLE users (id bigint PRIMARY KEY);
INSERT INTO users SELECT g FROM generate_series(1, 1000000) g;
CREATE INDEX users_id_bloom ON users USING bloomfilter (id);
CREATE TABLE filters (name text PRIMARY KEY, f bloomfilter);
INSERT INTO filters SELECT 'users', bloom_agg(id, 1000000, 0.01) FROM users;
VACUUM ANALYZE;
SQL

: >"$out/run.tsv"
for lang in $langs; do
    case $lang in
        python) cmd=(env PYTHONPATH="$here/clients/python" /usr/bin/python3 -P "$here/clients/python/bench/bench.py") ;;
        node) cmd=(node "$here/clients/node/bench/bench.js") ;;
        go) cmd=(bash -c 'cd "$0/clients/go" && GOFLAGS=-mod=mod GOPROXY=off go run ./cmd/bench "$@"' "$here") ;;
        *) echo "unknown language $lang" >&2; exit 2 ;;
    esac
    [ -n "$n" ] && cmd+=("$n")
    "${cmd[@]}" | tee -a "$out/run.tsv"
done
echo
echo "language  measure                 ns/key   x primary_key"
awk '{ printf "%-9s %-22s %8.0f   %8.4f\n", $1, $2, $3, $4 }' "$out/run.tsv"
