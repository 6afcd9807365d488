#!/usr/bin/env bash
# PostgreSQL majors that Debian 12 does not carry, from Debian's own binary
# packages in a debootstrapped root of the release that does: 17 from
# Debian 13 (trixie).  The root (the server, its dev package, xxHash, make
# and gcc) is made once per machine and cached as a tarball; each run
# unpacks a fresh copy, copies this checkout in and runs a command there as
# root, with /proc, /sys and /dev mounted.  (Issue 33, under way: 19 from
# experimental and the test command's stages on these majors come next.)
#
#   bash scripts/pgroot.sh 17 ensure        make the cached root (about 2
#                                           minutes, once a machine)
#   bash scripts/pgroot.sh 17 run 'CMD'     CMD (bash) in /work/main of a
#                                           fresh copy; its exit status
#   bash scripts/pgroot.sh 17 check         the build without warnings and
#                                           the pg_regress suites there
#
# The last line of ensure: "pgroot 17: root TARBALL", or "pgroot 17: failed
# (REASON)" (the archive cannot be reached, debootstrap or apt failed).
# Settings: BLOOMTYPE_ROOT_CACHE (default /var/cache/bloomtype-roots).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
C=${BLOOMTYPE_ROOT_CACHE:-/var/cache/bloomtype-roots}
v=${1:-}
mode=${2:-ensure}

case "$v" in
	17) suite=trixie ;;
	*) echo "usage: $0 17 [ensure | run CMD | check]" >&2; exit 2 ;;
esac
[ "$(id -u)" -eq 0 ] || { echo "pgroot $v: failed (needs root: debootstrap, chroot, mounts)"; exit 1; }
fail() { echo "pgroot $v: failed ($*)"; exit 1; }

# the machine's own Debian archive (deb822 or one-line form)
mirror=$(sed -n 's/^URIs: *\([^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 ~ /\/debian\/?$/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
packages="postgresql-$v postgresql-server-dev-$v postgresql-common libxxhash-dev make gcc"
tarball=$C/pg$v-$suite.tar

root=""
mounts=()
unmount() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[$i]}" 2>/dev/null; done
	mounts=()
}
cleanup() {
	unmount
	# never delete through a mount that is still there (/dev is the machine's)
	if [ -n "$root" ] && ! grep -q " $root/" /proc/mounts; then rm -rf "$root"; fi
}
trap cleanup EXIT
mount_in() {
	mount -t proc proc "$1/proc" && mounts+=("$1/proc") &&
		mount -t sysfs sysfs "$1/sys" && mounts+=("$1/sys") &&
		mount --bind /dev "$1/dev" && mounts+=("$1/dev") &&
		mount -t tmpfs tmpfs "$1/dev/shm" && mounts+=("$1/dev/shm")
}
inside() {
	chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

ensure() {
	[ -s "$tarball" ] && { echo "pgroot $v: root $tarball"; return 0; }
	command -v debootstrap >/dev/null ||
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq debootstrap >/dev/null ||
		fail "cannot install debootstrap"
	mkdir -p "$C"
	root=$(mktemp -d "$C/make-pg$v.XXXXXX")
	chmod 755 "$root" # its /: the server runs as postgres in it
	echo "pgroot $v: debootstrap --variant=minbase $suite from $mirror (once a machine)"
	debootstrap --variant=minbase "$suite" "$root" "$mirror" > "$C/pg$v-debootstrap.log" 2>&1 ||
		{ tail -5 "$C/pg$v-debootstrap.log"; fail "debootstrap $suite failed: $C/pg$v-debootstrap.log"; }
	echo "deb $mirror $suite main" > "$root/etc/apt/sources.list"
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	mount_in "$root" || fail "cannot mount /proc, /sys, /dev in the root"
	{ inside apt-get update -qq && inside apt-get install -y -qq --no-install-recommends $packages; } \
		> "$C/pg$v-apt.log" 2>&1 ||
		{ tail -5 "$C/pg$v-apt.log"; fail "apt-get install $packages failed: $C/pg$v-apt.log"; }
	inside apt-get clean
	unmount
	tar -C "$root" -cf "$tarball.part" . && mv "$tarball.part" "$tarball" || fail "cannot write $tarball"
	echo "pgroot $v: root $tarball"
}
# CMD in a fresh copy of the root, the checkout (as on disk: tracked and
# untracked files git does not ignore) at /work/main
run_in() {
	ensure >&2 || return 1
	root=$(mktemp -d "$C/run-pg$v.XXXXXX")
	tar -C "$root" -xf "$tarball" || fail "cannot unpack $tarball"
	chmod 755 "$root"
	mkdir -p "$root/work/main"
	(cd "$here" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) |
		tar -C "$root/work/main" -xf -
	mount_in "$root" || fail "cannot mount /proc, /sys, /dev in the root"
	inside /bin/bash -c "cd /work/main && $1"
}

case "$mode" in
	ensure) ensure ;;
	run) [ $# -eq 3 ] || { echo "usage: $0 $v run 'CMD'" >&2; exit 2; }; run_in "$3" ;;
	check)
		# Debian's server is built with LLVM: with_llvm=no spares clang for
		# the bitcode, which the tests do not use
		run_in "export PG_CONFIG=/usr/lib/postgresql/$v/bin/pg_config
			make -s with_llvm=no 2> build.err; rc=\$?; cat build.err
			[ \$rc -eq 0 ] || { echo 'pgroot $v: the build failed'; exit 1; }
			grep -q 'warning:' build.err && { echo 'pgroot $v: the build warns'; exit 1; }
			make -s with_llvm=no install >/dev/null || exit 1
			bash scripts/pgenv.sh make -s with_llvm=no installcheck"
		;;
	*) echo "usage: $0 $v [ensure | run CMD | check]" >&2; exit 2 ;;
esac
