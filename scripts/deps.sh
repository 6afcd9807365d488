#!/usr/bin/env bash
# Installs what bloomtype needs to build and test, from Debian's packages.
# Skips apt entirely when everything is there already.
set -euo pipefail

PKGS=(postgresql-15 postgresql-server-dev-15 postgresql-common libxxhash-dev
      libcmocka-dev make gcc clang libclang-rt-14-dev libipc-run-perl)
missing=()
for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
        || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "installing: ${missing[*]}"
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
