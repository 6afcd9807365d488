#!/usr/bin/env bash
# The README's two commands, as a new user meets them: in a fresh minimal
# Debian 12 root (debootstrap --variant=minbase, nothing installed beyond the
# base system), with this checkout at /work/main and ../shared beside it, as
# root.  Not part of the test command (it takes about half an hour: the root
# builds PostgreSQL 18 and Citus anew); run it before resolving an issue that
# touches installation.
#
#   bash scripts/fresh_root.sh            scripts/demo.sh, then scripts/test.sh
#   bash scripts/fresh_root.sh demo       only the demo
#   bash scripts/fresh_root.sh package    the README's "Install from a
#                                         package": scripts/package.sh, apt
#                                         install of what it made, then
#                                         CREATE EXTENSION in Debian's cluster
#   bash scripts/fresh_root.sh shell      an interactive shell in a fresh root
#
# Settings: BLOOMTYPE_ROOT_CACHE (default /var/cache/bloomtype-roots) keeps the
# pristine root as a tarball, made once per machine (about 2 minutes) and
# unpacked anew for every run; BLOOMTYPE_ROOT_KEEP=1 keeps the run's root
# (its path is printed).  The checkout is copied as it is on disk (tracked
# and untracked files git does not ignore), so uncommitted work is tried too.
#
# Prints a line a command, "fresh root: NAME ... ok (N s)" or "... FAILED",
# and for the tests their own last line; Node's checks need the npm registry
# from inside the root, and the output says when the root cannot reach it.
# The root gets the machine's name server and locally added certificate
# authorities (its network's), nothing else of the machine.
# Exit status 0 only when every command passed.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
shared=$(cd "$here/.." && pwd)/shared
C=${BLOOMTYPE_ROOT_CACHE:-/var/cache/bloomtype-roots}
SUITE=bookworm

[ "$(id -u)" -eq 0 ] || { echo "fresh root: needs root (debootstrap, chroot, mounts)" >&2; exit 2; }
[ -d "$shared" ] || { echo "fresh root: no $shared beside the checkout" >&2; exit 2; }
mode=${1:-all}
case "$mode" in all | demo | test | package | shell) ;; *)
	echo "usage: $0 [all | demo | test | package | shell]" >&2; exit 2 ;;
esac

# the machine's own Debian archive (deb822 or one-line form)
mirror=$(sed -n 's/^URIs: *\([^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 ~ /\/debian\/?$/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian

mkdir -p "$C"
pristine=$C/$SUITE-minbase.tar
if [ ! -s "$pristine" ]; then
	command -v debootstrap >/dev/null ||
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq debootstrap >/dev/null ||
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; } ||
		{ echo "fresh root: cannot install debootstrap"; exit 1; }
	echo "fresh root: debootstrap --variant=minbase $SUITE from $mirror (once a machine)"
	tmp=$(mktemp -d "$C/make.XXXXXX")
	if ! debootstrap --variant=minbase "$SUITE" "$tmp/root" "$mirror" > "$C/debootstrap.log" 2>&1; then
		tail -20 "$C/debootstrap.log"; rm -rf "$tmp"
		echo "fresh root: debootstrap failed"; exit 1
	fi
	# the archive as this machine reaches it, with Debian 12's usual suites
	# (the base system's own apt sources, not the machine's extra ones)
	rm -f "$tmp/root/etc/apt/sources.list"
	for f in /etc/apt/sources.list.d/*.sources; do
		grep -q '/debian' "$f" && cp "$f" "$tmp/root/etc/apt/sources.list.d/"
	done
	[ -n "$(ls "$tmp/root/etc/apt/sources.list.d/" 2>/dev/null)" ] ||
		echo "deb $mirror $SUITE main" > "$tmp/root/etc/apt/sources.list"
	tar -C "$tmp/root" -cf "$pristine.part" . && mv "$pristine.part" "$pristine"
	rm -rf "$tmp"
fi

root=$(mktemp -d "$C/run.XXXXXX")
mounts=()
cleanup() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[$i]}" 2>/dev/null; done
	if [ "${BLOOMTYPE_ROOT_KEEP:-}" = 1 ]; then echo "fresh root: kept in $root"
	elif grep -q " $root/" /proc/mounts; then
		# never delete through a mount that is still there (/dev is the machine's)
		echo "fresh root: $root still has mounts: left in place"
	else rm -rf "$root"; fi
}
trap cleanup EXIT
tar -C "$root" -xf "$pristine" || { echo "fresh root: cannot unpack $pristine"; exit 1; }
# the machine's network, as the root reaches it: its name server, and the
# certificate authorities it adds locally (a proxy's, say), which Debian's
# ca-certificates takes in when a script installs it; nothing else
cp /etc/resolv.conf "$root/etc/resolv.conf"
if [ -n "$(ls /usr/local/share/ca-certificates/ 2>/dev/null)" ]; then
	mkdir -p "$root/usr/local/share/ca-certificates"
	cp -a /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
fi
mkdir -p "$root/work/main" "$root/work/shared"
(cd "$here" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | tar -C "$root/work/main" -xf -
cp -a "$here/.git" "$root/work/main/.git"
cp -a "$shared/." "$root/work/shared/"
for m in proc sys dev dev/pts; do
	case $m in
		proc) mount -t proc proc "$root/proc" ;;
		sys) mount -t sysfs sysfs "$root/sys" ;;
		dev) mount --bind /dev "$root/dev" ;;
		dev/pts) mount -t devpts devpts "$root/dev/pts" -o newinstance,ptmxmode=0666 ;;
	esac || { echo "fresh root: cannot mount $m"; exit 1; }
	mounts+=("$root/$m")
done
mount -t tmpfs tmpfs "$root/dev/shm" && mounts+=("$root/dev/shm")

inside() { chroot "$root" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

if [ "$mode" = shell ]; then
	inside /bin/bash -c 'cd /work/main && exec bash -i'
	exit $?
fi

failed=0
run() {
	local name=$1 s rc
	shift
	s=$(date +%s)
	inside /bin/bash -c "cd /work/main && $*" 2>&1 | tee "$C/last-$name.log"
	rc=${PIPESTATUS[0]}
	if [ "$rc" -eq 0 ]; then echo "fresh root: $name ... ok ($(( $(date +%s) - s )) s)"
	else echo "fresh root: $name ... FAILED ($(( $(date +%s) - s )) s, exit $rc; log $C/last-$name.log)"; failed=1; fi
}
if [ "$mode" = package ]; then
	# as the README says it, apt's frontend for the local file; then
	# Debian's own cluster (installing postgresql-15 made it), started
	# without an init system
	run package "bash scripts/package.sh &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q ./packages/postgresql-15-bloomtype_*.deb &&
		pg_ctlcluster 15 main start &&
		runuser -u postgres -- psql -X -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION bloomtype' \
			-c 'SELECT bloom_contains(f, 42) AS has_42, bloom_contains(f, 0) AS has_0
			      FROM (SELECT bloom_agg(g) AS f FROM generate_series(1, 100) g) s' &&
		dpkg -V postgresql-15-bloomtype; rc=\$?; pg_ctlcluster 15 main stop; exit \$rc"
	exit $failed
fi
[ "$mode" = test ] || run demo bash scripts/demo.sh
[ "$mode" = demo ] || {
	run test bash scripts/test.sh
	echo "fresh root: the test command said: $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$C/last-test.log" | tail -1)"
	# Node's packages come from the npm registry: say when the root cannot reach it
	if ! inside /bin/bash -c 'cd /work/main/clients/node && npm ping' > /dev/null 2>&1; then
		echo "fresh root: this root cannot reach the npm registry: Node's checks cannot pass here"
	fi
}
exit $failed
