#!/usr/bin/env bash
# PostgreSQL majors that Debian 12 does not carry, from Debian's own binary
# packages in a debootstrapped root of the release that does: 17 from
# Debian 13 (trixie), 19 (a release candidate) from experimental in an
# unstable (sid) root, with 18 beside it for pg_upgrade.  The root (the
# servers, their dev packages, xxHash, make, gcc, IPC::Run for the TAP
# tests, and on 17 Debian's package tools) is made once per machine and
# cached as a tarball named by its package list; each run unpacks a fresh
# copy, copies this checkout in and works there as root, with /proc, /sys
# and /dev mounted.
#
#   bash scripts/pgroot.sh V ensure       make the cached root (2-3 minutes,
#                                         once a machine)
#   bash scripts/pgroot.sh V run 'CMD'    CMD (bash) in /work/main of a
#                                         fresh copy; its exit status
#   bash scripts/pgroot.sh V reachable    whether Debian's archive answers
#   bash scripts/pgroot.sh V stages DIR   the test command's stages for V
#                                         (scripts/test.sh), DIR keeping
#                                         the values the clients exported
#
# stages, on 17: Debian's package built from this checkout
# (dpkg-buildpackage, without warnings), installed, its files checked
# (dpkg -V), and its autopkgtest (debian/tests/installcheck: the pg_regress
# suites against the installed package on a throwaway cluster); on 19: the
# build from the tree without warnings, installed, and the pg_regress
# suites.  Then on both: the client readers on this machine against a
# server in the root (scripts/clients.sh), and the TAP tests that depend
# on the server's version (crash, replication, dump/restore, the index's;
# on 19 pg_upgrade from 18).  Its last line: "pgroot V: N passed, N
# failed".
#
# The last line of ensure: "pgroot V: root TARBALL", or "pgroot V: failed
# (REASON)" (the archive cannot be reached, debootstrap or apt failed).
# Settings: BLOOMTYPE_ROOT_CACHE (default /var/cache/bloomtype-roots).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
C=${BLOOMTYPE_ROOT_CACHE:-/var/cache/bloomtype-roots}
v=${1:-}
mode=${2:-ensure}

case "$v" in
	17) suite=trixie ;;
	19) suite=sid ;;
	*) echo "usage: $0 17|19 [ensure | run CMD | stages DIR]" >&2; exit 2 ;;
esac
[ "$mode" = reachable ] || [ "$(id -u)" -eq 0 ] ||
	{ echo "pgroot $v: failed (needs root: debootstrap, chroot, mounts)"; exit 1; }
fail() { echo "pgroot $v: failed ($*)"; exit 1; }

# the machine's own Debian archive (deb822 or one-line form)
mirror=$(sed -n 's/^URIs: *\([^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 ~ /\/debian\/?$/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
common="postgresql-common libxxhash-dev make gcc libipc-run-perl"
case "$v" in
	# and what dpkg-buildpackage needs for debian/ (its Build-Depends)
	17) packages="postgresql-17 postgresql-server-dev-17 $common
		build-essential debhelper dpkg-dev postgresql-all postgresql-server-dev-all" ;;
	# 19 is in experimental only (a release candidate): its packages and
	# the libpq they need come from there, the rest (18 too) from unstable
	19) packages="postgresql-19/experimental postgresql-server-dev-19/experimental
		postgresql-client-19/experimental libpq-dev/experimental libpq5/experimental
		postgresql-18 postgresql-server-dev-18 $common" ;;
esac
# the tarball's name says what it holds: a new list makes a new root
tag=$(echo $packages | md5sum | cut -c1-8)
tarball=$C/pg$v-$suite-$tag.tar

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
# stopped by a signal, it still unmounts and removes its copy
trap 'exit 130' INT TERM
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
	# one maker a version on this machine; a second waits and takes its root
	mkdir -p "$C"
	exec 9> "$C/pg$v.lock"
	flock 9
	[ -s "$tarball" ] && { exec 9>&-; echo "pgroot $v: root $tarball"; return 0; }
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
	[ "$v" = 19 ] && echo "deb $mirror experimental main" >> "$root/etc/apt/sources.list"
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	mount_in "$root" || fail "cannot mount /proc, /sys, /dev in the root"
	# an unstable mirror's Release may be days old: its dates are not checked
	{ inside apt-get -o Acquire::Check-Valid-Until=false update -qq && inside apt-get install -y -qq --no-install-recommends $packages; } \
		> "$C/pg$v-apt.log" 2>&1 ||
		{ tail -5 "$C/pg$v-apt.log"; fail "apt-get install $packages failed: $C/pg$v-apt.log"; }
	inside apt-get clean
	unmount
	local part
	part=$(mktemp "$tarball.XXXXXX.part") &&
		tar -C "$root" -cf "$part" . && mv "$part" "$tarball" || { rm -f "$part"; fail "cannot write $tarball"; }
	exec 9>&-
	cleanup
	root=""
	# roots of this version made from an older list
	find "$C" -maxdepth 1 -name "pg$v-$suite*.tar" ! -name "${tarball##*/}" -delete
	echo "pgroot $v: root $tarball"
}
# CMD in a fresh copy of the root, the checkout (as on disk: tracked and
# untracked files git does not ignore) at /work/main
setup() {
	ensure >&2 || return 1
	root=$(mktemp -d "$C/run-pg$v.XXXXXX")
	tar -C "$root" -xf "$tarball" || fail "cannot unpack $tarball"
	chmod 755 "$root"
	mkdir -p "$root/work/main"
	(cd "$here" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) |
		tar -C "$root/work/main" -xf -
	mount_in "$root" || fail "cannot mount /proc, /sys, /dev in the root"
}
run_in() {
	setup || return 1
	inside /bin/bash -c "cd /work/main && $1"
}

# the test command's stages (see the top); $1 keeps the clients' export
stages() {
	local keep=$1 pgc=/usr/lib/postgresql/$v/bin/pg_config out rc p f
	local passed=0 failed=0 sock=/tmp/bloomtype-sock port=5499
	# the root shares the machine's network: its throwaway clusters
	# (pg_virtualenv listens on localhost) take a port of their own, below
	# the 5432 onwards the machine's pg_virtualenv picks from
	local vport=54$v
	out=$(mktemp -d)
	ok() { echo "pgroot $v: $1 ... ok"; passed=$((passed + 1)); }
	bad() { echo "pgroot $v: $1 ... FAILED"; failed=$((failed + 1)); }
	add() { passed=$((passed + $1)); failed=$((failed + $2)); }
	finish() { rm -rf "$out"; echo "pgroot $v: $passed passed, $failed failed"; }
	if ! setup > "$out/setup" 2>&1; then
		cat "$out/setup"; bad "a root with PostgreSQL $v"; finish; return 1
	fi

	if [ "$v" = 17 ]; then
		# Debian's package, as a DBA would get it (README, "Install from
		# a package"): the tests below use what it installed
		inside bash -c "cd /work/main && bash scripts/package.sh /work/packages" > "$out/package" 2>&1
		rc=$?
		cat "$out/package"
		if [ "$rc" -ne 0 ] || ! ls "$root"/work/packages/postgresql-17-bloomtype_*.deb >/dev/null 2>&1; then
			bad "package: scripts/package.sh makes postgresql-17-bloomtype"
			finish; return 1
		fi
		ok "package: scripts/package.sh makes postgresql-17-bloomtype"
		if build_warnings "$out/package" >/dev/null; then bad "build: PostgreSQL 17 without warnings (the package's)"
		else ok "build: PostgreSQL 17 without warnings (the package's)"; fi
		if inside bash -c "cd /work/packages && apt-get install -y -qq ./postgresql-17-bloomtype_*.deb &&
				test -z \"\$(dpkg -V postgresql-17-bloomtype)\" &&
				test -f /usr/lib/postgresql/17/lib/bloomtype.so" > "$out/install" 2>&1; then
			ok "package: postgresql-17-bloomtype installs, its files as packaged (dpkg -V)"
		else
			cat "$out/install"; bad "package: postgresql-17-bloomtype installs, its files as packaged (dpkg -V)"
		fi
		# the package's autopkgtest: pg_buildext installcheck, every
		# suite against the installed files (in a copy: it cleans up)
		inside env PGPORT=$vport bash -c "cp -a /work/main /work/ic && cd /work/ic && debian/tests/installcheck" > "$out/regress" 2>&1
		rc=$?
	else
		inside bash -c "cd /work/main && make -s with_llvm=no PG_CONFIG=$pgc &&
			make -s with_llvm=no PG_CONFIG=$pgc install >/dev/null" > "$out/build" 2>&1
		rc=$?
		cat "$out/build"
		if [ "$rc" -ne 0 ]; then bad "build: PostgreSQL $v"; finish; return 1; fi
		if build_warnings "$out/build"; then bad "build: PostgreSQL $v without warnings"
		else ok "build: PostgreSQL $v without warnings"; fi
		inside env PGPORT=$vport bash -c "cd /work/main && PG_CONFIG=$pgc bash scripts/pgenv.sh make -s with_llvm=no PG_CONFIG=$pgc installcheck" \
			> "$out/regress" 2>&1
		rc=$?
	fi
	cat "$out/regress"
	read -r p f < <(count_regress "$out/regress" "$rc")
	echo "pgroot $v: regress: $p passed, $f failed"
	add "$p" "$f"
	[ "$f" -gt 0 ] && find "$root/work/main" "$root/work/ic" -name regression.diffs -exec head -200 {} \; 2>/dev/null

	# the readers on this machine against a server in the root
	if inside runuser -u postgres -- bash -c "export PATH=/usr/lib/postgresql/$v/bin:\$PATH
			mkdir -p $sock /tmp/bloomtype-data &&
			initdb -D /tmp/bloomtype-data -U postgres -A trust --no-sync > /tmp/bloomtype-initdb.log &&
			pg_ctl -D /tmp/bloomtype-data -l /tmp/bloomtype-server.log -w \
				-o \"-k $sock -p $port -c listen_addresses='' -c fsync=off\" start" > "$out/server" 2>&1; then
		PGHOST=$root$sock PGPORT=$port PGUSER=postgres PGDATABASE=postgres BLOOMTYPE_AGREE_KEEP=$keep \
			bash "$here/scripts/clients.sh" check 2>&1 | sed "s/^clients: /clients: PostgreSQL $v: /" | tee "$out/clients"
		inside runuser -u postgres -- /usr/lib/postgresql/$v/bin/pg_ctl -D /tmp/bloomtype-data -m fast -w stop >/dev/null 2>&1
	else
		cat "$out/server" "$root/tmp/bloomtype-initdb.log" "$root/tmp/bloomtype-server.log" 2>/dev/null
		: > "$out/clients"
	fi
	read -r p f < <(count_clients "$out/clients")
	add "$p" "$f"

	# TAP, as postgres (initdb refuses root); on 19 pg_upgrade from 18,
	# bloomtype built for 18 in a copy of the tree
	local tests="t/002_crash.pl t/003_replication.pl t/004_dump_restore.pl t/006_am_concurrency.pl
		t/007_am_crash.pl t/008_am_standby.pl t/009_am_reindex.pl" env=""
	if [ "$v" = 19 ]; then
		if inside bash -c "cp -a /work/main /work/b18 && cd /work/b18 &&
				make -s clean PG_CONFIG=$pgc >/dev/null &&
				make -s with_llvm=no PG_CONFIG=/usr/lib/postgresql/18/bin/pg_config &&
				make -s with_llvm=no PG_CONFIG=/usr/lib/postgresql/18/bin/pg_config install >/dev/null" \
				> "$out/build18" 2>&1; then
			tests="$tests t/011_pg_upgrade.pl"
			env="BLOOMTYPE_UPGRADE_FROM=/usr/lib/postgresql/18"
		else
			cat "$out/build18"; bad "build: PostgreSQL 18 in the root, for pg_upgrade to 19"
		fi
	fi
	inside bash -c "chown -R postgres /work/main && cd /work/main &&
		runuser -u postgres -- env $env make -s PG_CONFIG=$pgc tap PROVE_TESTS='$(echo $tests)'" 2>&1 |
		sed -u "s|^t/|t/ (PostgreSQL $v) |" | tee "$out/tap"
	rc=${PIPESTATUS[0]}
	read -r p f < <(count_tap "$out/tap" "$rc")
	add "$p" "$f"
	if [ "$f" -gt 0 ]; then
		for l in "$root"/work/main/tmp_check/log/regress_log_*; do echo "== $l"; tail -40 "$l"; done
	fi
	finish
	[ "$failed" -eq 0 ]
}

. "$here/scripts/counts.sh"
case "$mode" in
	ensure) ensure ;;
	run) [ $# -eq 3 ] || { echo "usage: $0 $v run 'CMD'" >&2; exit 2; }; run_in "$3" ;;
	reachable)
		# whether Debian's archive answers for the suite (a root that
		# cannot be made is a failure only where it does)
		for d in $suite $([ "$v" = 19 ] && echo experimental); do
			curl -fsS -m 30 -o /dev/null "$mirror/dists/$d/Release" ||
				{ echo "pgroot $v: Debian's archive $mirror cannot be reached ($d)"; exit 1; }
		done
		echo "pgroot $v: Debian's archive $mirror answers" ;;
	stages) [ $# -eq 3 ] || { echo "usage: $0 $v stages DIR" >&2; exit 2; }; mkdir -p "$3"; stages "$3" ;;
	*) echo "usage: $0 $v [ensure | run CMD | reachable | stages DIR]" >&2; exit 2 ;;
esac
