#!/usr/bin/env bash
# The release archive PGXN takes: a zip of one folder bloomtype-VERSION
# (VERSION from META.json) holding a commit's tracked files and the
# install script META.json's "provides" names (bloomtype--X.Y.sql, which
# the build generates), so that a PGXN client, a packager or a user builds
# it with PGXS alone.  `make dist` runs it.
#
#   bash scripts/dist.sh [COMMIT [OUT.zip]]   default HEAD, ./bloomtype-VERSION.zip
#
# Prints the archive's path.  Needs git, zip, perl and a pg_config (PGXS
# generates the install script): PG_CONFIG, default the newest of Debian's
# /usr/lib/postgresql/*/bin, else pg_config on the PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-HEAD}
meta() { git show "$rev:META.json" | perl -MJSON::PP -e 'local $/; my $m = decode_json(<STDIN>); print eval "\$m->$ARGV[0]"' "$1"; }
version=$(meta '{version}')
script=$(meta '{provides}{bloomtype}{file}')
name=bloomtype-$version
out=${2:-$PWD/$name.zip}
case "$out" in /*) ;; *) out=$PWD/$out ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git archive --prefix="$name/" "$rev" | tar -C "$tmp" -xf -
pgc=${PG_CONFIG:-$(ls /usr/lib/postgresql/*/bin/pg_config 2>/dev/null | sort -V | tail -1)}
[ -n "$pgc" ] || pgc=$(command -v pg_config) || { echo "dist: no pg_config (set PG_CONFIG)" >&2; exit 1; }
make -s -C "$tmp/$name" PG_CONFIG="$pgc" "$script" >/dev/null
[ -s "$tmp/$name/$script" ] || { echo "dist: $script was not made" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
rm -f "$out"
(cd "$tmp" && zip -q -X -r "$out" "$name")
echo "$out"
