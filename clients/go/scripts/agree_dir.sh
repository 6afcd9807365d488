#!/bin/bash
# Builds an agreement DIR (manifest.json, values, the server's answers) for
# cmd/agree from a server with bloomtype (PG* say where; it creates and
# drops the database go_agree): 13 filters of the three types and five key
# classes, n keys each (default 20000), the keys by cmd/agree's rules.
#
# Usage: scripts/agree_dir.sh DIR [N]
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 DIR [N]" >&2; exit 2; }
DIR=$1
N=${2:-20000}
C=$((N / 3 + 1)) # the capacity of the fixed filters: the keys they get
DB=go_agree
mkdir -p "$DIR"
psql -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" >/dev/null
q() { psql -X -q -At -d $DB -v ON_ERROR_STOP=1 "$@"; }
q -c "CREATE EXTENSION bloomtype"
q <<SQL
CREATE FUNCTION k_int(i int) RETURNS bigint IMMUTABLE LANGUAGE sql AS 'SELECT i::bigint * 1000003 - 400000000';
CREATE FUNCTION k_text(i int) RETURNS text IMMUTABLE LANGUAGE sql AS \$\$SELECT 'ключ-' || i\$\$;
CREATE FUNCTION k_bytea(i int) RETURNS bytea IMMUTABLE LANGUAGE sql AS 'SELECT int8send(i::bigint)';
CREATE FUNCTION k_uuid(i int) RETURNS uuid IMMUTABLE LANGUAGE sql AS 'SELECT md5(i::text)::uuid';
CREATE FUNCTION k_float(i int) RETURNS float8 IMMUTABLE LANGUAGE sql AS 'SELECT (i - 500000)::float8 / 7.0::float8';
CREATE TABLE vals(name text PRIMARY KEY, type text, keys text, v bytea);
-- bloomfilter: scalable (capacity form), auto-sized, fixed, grown, index snapshot
INSERT INTO vals SELECT 'bloom_int_cap', 'bloomfilter', 'int', bloom_agg(k_int(i), $C, 0.01)::bytea FROM generate_series(0, $N - 1, 3) i;
INSERT INTO vals SELECT 'bloom_text_auto', 'bloomfilter', 'text', bloom_agg(k_text(i), 0.02)::bytea FROM generate_series(0, $N - 1, 3) i;
INSERT INTO vals SELECT 'bloom_bytea_grown', 'bloomfilter', 'bytea', bloom_add_all(bloom_empty(300, 0.05), array_agg(k_bytea(i)))::bytea FROM generate_series(0, $N - 1, 3) i;
INSERT INTO vals SELECT 'bloom_uuid_fixed', 'bloomfilter', 'uuid',
  (SELECT bloom_union_agg(f) FROM (SELECT bloom_add(bloom_empty($C, 0.01, 0), k_uuid(i)) f FROM generate_series(0, $N - 1, 3) i) s)::bytea;
INSERT INTO vals SELECT 'bloom_float_cap', 'bloomfilter', 'float', bloom_agg(k_float(i), $C, 0.1)::bytea FROM generate_series(0, $N - 1, 3) i;
CREATE TABLE t(k bigint);
CREATE INDEX t_bloom ON t USING bloomfilter (k);
INSERT INTO t SELECT k_int(i) FROM generate_series(0, $N - 1, 2) i;
INSERT INTO vals SELECT 'bloom_index_int', 'bloomfilter', 'int', bloom_index_filter('t_bloom')::bytea;
-- countingbloom: with removes; auto-sized text
INSERT INTO vals SELECT 'counting_int', 'countingbloom', 'int', counting_agg(k_int(i), $C, 0.01)::bytea FROM generate_series(0, $N - 1, 3) i;
UPDATE vals SET v = (SELECT counting_remove_all(v::countingbloom, array_agg(k_int(i)))::bytea FROM generate_series(0, $N - 1, 9) i) WHERE name = 'counting_int';
INSERT INTO vals SELECT 'counting_text', 'countingbloom', 'text', counting_agg(k_text(i), 0.05)::bytea FROM generate_series(0, $N - 1, 3) i;
INSERT INTO vals SELECT 'counting_uuid', 'countingbloom', 'uuid', counting_agg(k_uuid(i), $C, 0.02)::bytea FROM generate_series(0, $N - 1, 3) i;
-- cuckoofilter: grown, fixed, float
INSERT INTO vals SELECT 'cuckoo_int_grown', 'cuckoofilter', 'int', cuckoo_agg(k_int(i), 500, 0.01)::bytea FROM generate_series(0, $N - 1, 3) i;
INSERT INTO vals SELECT 'cuckoo_text', 'cuckoofilter', 'text', cuckoo_agg(k_text(i), 0.001)::bytea FROM generate_series(0, $N - 1, 3) i;
INSERT INTO vals SELECT 'cuckoo_bytea', 'cuckoofilter', 'bytea', cuckoo_agg(k_bytea(i), $C, 0.03)::bytea FROM generate_series(0, $N - 1, 3) i;
INSERT INTO vals SELECT 'cuckoo_float', 'cuckoofilter', 'float', cuckoo_agg(k_float(i), $C, 0.01)::bytea FROM generate_series(0, $N - 1, 3) i;
SQL
names=$(q -c "SELECT name FROM vals ORDER BY name")
echo '{"filters": [' > "$DIR/manifest.json"
sep=""
for name in $names; do
  read -r type keys < <(q -F ' ' -c "SELECT type, keys FROM vals WHERE name = '$name'")
  q -c "SELECT encode(v, 'hex') FROM vals WHERE name = '$name'" | tr -d '\n' | perl -pe 's/(..)/chr(hex($1))/ge' > "$DIR/$name.bin"
  fn=$(case $type in bloomfilter) echo bloom_contains;; countingbloom) echo counting_contains;; cuckoofilter) echo cuckoo_contains;; esac)
  q -c "SELECT string_agg(CASE WHEN $fn((SELECT v::$type FROM vals WHERE name = '$name'), k_$keys(i)) THEN '1' ELSE '0' END, '' ORDER BY i)
        FROM generate_series(0, $N - 1) i" | tr -d '\n' > "$DIR/$name.answers"
  printf '%s {"name": "%s", "type": "%s", "file": "%s.bin", "keys": "%s", "n": %d, "answers": "%s.answers"}\n' \
    "$sep" "$name" "$type" "$name" "$keys" "$N" "$name" >> "$DIR/manifest.json"
  sep=","
done
echo ']}' >> "$DIR/manifest.json"
psql -q -d postgres -c "DROP DATABASE $DB" >/dev/null
ls -la "$DIR"
