#!/bin/bash
# Builds a small agreement directory for bin/agree.js from a server with
# bloomtype (PG* in the environment): filters of every type and key class,
# n keys each (default 20000), the server's answers for every key.
#   test/make-agree-dir.sh DIR [N]
# It creates and drops the database node_agree.
set -euo pipefail
dir=${1:?usage: make-agree-dir.sh DIR [N]}
n=${2:-20000}
db=node_agree
mkdir -p "$dir"
psql -qX -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
trap 'psql -qX -d postgres -c "DROP DATABASE IF EXISTS $db"' EXIT
run() { psql -qX -v ON_ERROR_STOP=1 -d "$db" "$@"; }
run -c "CREATE EXTENSION bloomtype"
# keys by the agreement rules; every third key is added
run <<SQL
CREATE TABLE k (i int PRIMARY KEY, ki bigint, kt text, kb bytea, ku uuid, kf float8);
INSERT INTO k SELECT i, i::bigint * 1000003 - 400000000, 'ключ-' || i, int8send(i::bigint),
    md5(i::text)::uuid, (i - 500000)::float8 / 7.0::float8 FROM generate_series(0, $n - 1) i;
CREATE TABLE f (name text, type text, keys text, v bytea);
SQL
add() { # name type keys expression
  run -c "INSERT INTO f SELECT '$1', '$2', '$3', ($4)::bytea FROM k WHERE i % 3 = 0"
}
for c in i t b u f; do
  case $c in i) r=int;; t) r=text;; b) r=bytea;; u) r=uuid;; f) r=float;; esac
  add bloom_fixed_$r bloomfilter $r "bloom_agg(k$c, $n, 0.01)"
  add bloom_auto_$r bloomfilter $r "bloom_agg(k$c)"
  add bloom_grown_$r bloomfilter $r "bloom_add_all(bloom_empty(500, 0.02, 2), array_agg(k$c))"
  add counting_$r countingbloom $r "counting_agg(k$c, $n, 0.01)"
  add cuckoo_$r cuckoofilter $r "cuckoo_agg(k$c, 1000, 0.01)"
  add cuckoo_fixed_b8_$r cuckoofilter $r "cuckoo_add_all(cuckoo_empty($n, 0.05, 8, 500, 0), array_agg(k$c))"
done
# removes: every ninth key leaves the counting and cuckoo filters of integers
run -c "UPDATE f SET v = counting_remove_all(v::countingbloom, (SELECT array_agg(ki) FROM k WHERE i % 9 = 0))::bytea WHERE name = 'counting_int'"
run -c "UPDATE f SET v = cuckoo_remove_all(v::cuckoofilter, (SELECT array_agg(ki) FROM k WHERE i % 9 = 0))::bytea WHERE name = 'cuckoo_int'"
run -At -c "SELECT name, type, keys FROM f ORDER BY name" | while IFS='|' read -r name type keys; do
  run -At -c "SELECT encode(v, 'hex') FROM f WHERE name = '$name'" |
    node -e 'process.stdout.write(Buffer.from(require("fs").readFileSync(0, "utf8").trim(), "hex"))' \
    > "$dir/$name.bin"
  case $type in bloomfilter) fn=bloom_contains;; countingbloom) fn=counting_contains;; cuckoofilter) fn=cuckoo_contains;; esac
  col=$(case $keys in int) echo ki;; text) echo kt;; bytea) echo kb;; uuid) echo ku;; float) echo kf;; esac)
  run -At -c "WITH ff AS MATERIALIZED (SELECT v::$type AS fv FROM f WHERE name = '$name')
    SELECT string_agg(CASE WHEN $fn(ff.fv, k.$col) THEN '1' ELSE '0' END, '' ORDER BY k.i) FROM k, ff" |
    tr -d '\n' > "$dir/$name.answers"
  printf '%s\t%s\t%s\n' "$name" "$type" "$keys"
done > "$dir/list.tsv"
node -e '
const fs = require("fs");
const [dir, n] = process.argv.slice(1);
const filters = fs.readFileSync(dir + "/list.tsv", "utf8").trim().split("\n").map((l) => {
  const [name, type, keys] = l.split("\t");
  return { name, type, file: name + ".bin", keys, n: Number(n), answers: name + ".answers" };
});
fs.writeFileSync(dir + "/manifest.json", JSON.stringify({ filters }, null, 1) + "\n");
' "$dir" "$n"
rm "$dir/list.tsv"
echo "wrote $dir/manifest.json"
