#!/usr/bin/env bash
# Citus for the distributed tests and benchmark, built once per machine.
#
#   scripts/citus.sh ensure   build Citus 13.2.2 from ../shared/vendor (once:
#                             cached under $BLOOMTYPE_CITUS_CACHE, keyed by the
#                             tarball, the patch and pg_config --version), then
#                             lay the private PostgreSQL tree (the "shadow")
#   scripts/citus.sh shadow   lay the shadow again (after a make install of
#                             bloomtype: its lib/ and share/ are symlinks made now)
#
# Prints one last line, which scripts/test.sh and bench/citus.sh read:
#   citus: install_path DIR   a PostgreSQL tree with Citus (the shadow)
#   citus: system             citus.so and citus.control are installed already
#   citus: skipped (REASON)   no Citus here
#
# Why a shadow tree: CREATE EXTENSION citus needs citus.control in PostgreSQL's
# own share/extension, and Citus's SQL names '$libdir/citus' (PostgreSQL 15 has
# no extension_control_path).  PostgreSQL finds share/ and lib/ relative to its
# executable, so a copy of the system's bin/ beside symlinks to its lib/ and
# share/ plus Citus's files is a PostgreSQL that has Citus, and no system
# directory is touched.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/packages.sh
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
VENDOR=${BLOOMTYPE_VENDOR:-$(cd .. && pwd)/shared/vendor}
C=${BLOOMTYPE_CITUS_CACHE:-/var/cache/bloomtype-citus}
TARBALL=$VENDOR/citus-13.2.2.tar.gz
PATCHF=$VENDOR/citus-13.2.2-pg15.20.patch

skip() { echo "citus: skipped ($*)"; exit 0; }

system_citus() {
    [ -f "$("$PG_CONFIG" --pkglibdir)/citus.so" ] &&
        [ -f "$("$PG_CONFIG" --sharedir)/extension/citus.control" ]
}

key() {
    { sha256sum "$TARBALL" | cut -d' ' -f1
      [ -f "$PATCHF" ] && sha256sum "$PATCHF" | cut -d' ' -f1
      "$PG_CONFIG" --version; } | sha256sum | cut -d' ' -f1
}

build() {
    local want s src
    want=$(key)
    if [ -f "$C/KEY" ] && [ "$(cat "$C/KEY")" = "$want" ] && [ -d "$C/stage" ]; then
        echo "citus: cached in $C"
        return 0
    fi
    local log=$C/build.log
    : > "$log"
    bt_need --who citus --log "$log" citus || return 1
    s=$(date +%s)
    rm -rf "$C/src" "$C/stage" "$C/KEY"
    mkdir -p "$C/src" && chmod 755 "$C" || return 1
    tar -C "$C/src" -xzf "$TARBALL" >> "$log" 2>&1 || return 1
    src=$C/src/citus-13.2.2
    if [ -f "$PATCHF" ]; then
        (cd "$src" && patch -s -p1 < "$PATCHF") >> "$log" 2>&1 || return 1
    fi
    echo "citus: building (log $log)"
    (cd "$src" &&
        PG_CONFIG="$PG_CONFIG" ./configure --without-libcurl &&
        make -j2 &&
        make install DESTDIR="$C/stage") >> "$log" 2>&1 || return 1
    rm -rf "$C/src"
    echo "$want" > "$C/KEY"
    echo "citus: built in $(( $(date +%s) - s )) s"
}

# Lays the shadow tree again only when the system's lib/ or share/extension
# (at any depth) has a file it lacks (a new install script, say): its symlinks follow
# changed files by themselves, and a tree laid again under a running test
# would pull files from under its servers.
shadow() {
    local S=$C/shadow st=$C/stage bindir libdir sharedir f stale=0
    bindir=$("$PG_CONFIG" --bindir)
    libdir=$("$PG_CONFIG" --pkglibdir)
    sharedir=$("$PG_CONFIG" --sharedir)
    [ -d "$st$libdir" ] || return 1
    if [ -x "$S$bindir/postgres" ]; then
        # every file, in subfolders too: the JIT's bitcode of a renamed
        # source file (lib/bitcode/bloomtype/...) is one level down, and a
        # shadow without it ends the server when JIT inlines
        while IFS= read -r f; do
            [ -e "$S$f" ] || { stale=1; break; }
        done < <(find "$libdir" "$sharedir/extension" \( -type f -o -type l \))
        if [ "$stale" -eq 0 ]; then
            echo "citus: install_path $S$(dirname "$bindir")"
            return 0
        fi
    fi
    rm -rf "$S"
    mkdir -p "$S$(dirname "$bindir")" "$S$(dirname "$sharedir")" || return 1
    # bin/ copied: PostgreSQL resolves symlinks of its own executable
    cp -a "$bindir" "$S$bindir" &&
        cp -as "$libdir" "$S$libdir" &&
        cp -as "$sharedir" "$S$sharedir" &&
        cp -a "$st$libdir/." "$S$libdir/" &&
        cp -a "$st$sharedir/extension/." "$S$sharedir/extension/" || return 1
    chmod -R a+rX "$C"
    echo "citus: install_path $S$(dirname "$bindir")"
}

# one run at a time on this machine: two builds, or a shadow laid under a
# running suite, would pull files from under each other
mkdir -p "$C" && chmod 755 "$C"
exec 9> "$C/lock"
flock 9

case "${1:-ensure}" in
    ensure)
        if system_citus; then echo "citus: system"; exit 0; fi
        [ -f "$TARBALL" ] || skip "no $TARBALL and no citus.so installed"
        build || skip "build failed: see $C/build.log"
        shadow || skip "could not lay the shadow tree in $C/shadow"
        ;;
    shadow)
        if system_citus; then echo "citus: system"; exit 0; fi
        shadow || skip "no Citus build in $C: run scripts/citus.sh ensure"
        ;;
    *)
        echo "usage: $0 ensure|shadow" >&2
        exit 2
        ;;
esac
