#!/usr/bin/env bash
# Debian's package of bloomtype for this machine's PostgreSQL: on Debian 12
# postgresql-15-bloomtype, on Debian 13 postgresql-17-bloomtype (one
# package for each version debian/pgversions allows and the machine
# supports), built by dpkg-buildpackage from debian/ in a copy of the
# release archive (scripts/dist.sh; in a tree without git, a copy of the
# tree).  Installs the build dependencies first (as root, or with sudo).
#
#   bash scripts/package.sh [OUTDIR]     default ./packages
#
# Prints "package: PATH" for each .deb (debug symbols aside).  The package's
# tests (dh_pgxs_test: pg_buildext installcheck against the installed
# files, about 5 minutes) run when DEB_BUILD_OPTIONS does not say nocheck;
# by default it does (the test command runs them after installing).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$PWD/packages}
case "$out" in /*) ;; *) out=$PWD/$out ;; esac
export DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS-nocheck}
source "$here/scripts/packages.sh"
source "$here/scripts/counts.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -e "$here/.git" ]; then
	bt_need --who package package dist
	# the tracked files as they are (a developer's edits too)
	rev=$(git -C "$here" stash create 2>/dev/null || true)
	zip=$(bash "$here/scripts/dist.sh" "${rev:-HEAD}" "$work/dist.zip")
	unzip -q "$zip" -d "$work"
	rm -f "$zip"
else
	bt_need --who package package
	mkdir -p "$work/bloomtype"
	tar -C "$here" --exclude=./.git --exclude='*.o' --exclude='*.bc' --exclude='*.so' \
		--exclude=./results --exclude=./tmp_check --exclude='./build-*' -cf - . | tar -C "$work/bloomtype" -xf -
fi
src=$(ls -d "$work"/bloomtype*/)
(cd "$src" && pg_buildext updatecontrol && dpkg-buildpackage -us -uc -b) > "$work/build.log" 2>&1 ||
	{ tail -40 "$work/build.log"; echo "package: dpkg-buildpackage failed" >&2; exit 1; }
# the compiler's warnings, for the test command to see
build_warnings "$work/build.log" || true
mkdir -p "$out"
for deb in "$work"/*.deb; do
	cp "$deb" "$out/"
	case "$deb" in *-dbgsym_*) ;; *) echo "package: $out/$(basename "$deb")" ;; esac
done
