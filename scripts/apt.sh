# Sourced by the scripts that install Debian packages in the background
# (scripts/pg18.sh, scripts/citus.sh).
#
#   apt_ensure WHO LOG PACKAGE...   installs those of the packages that are
#                                   missing (apt's output into LOG), waiting
#                                   for apt's lock (other stages of the test
#                                   command may run apt at the same time);
#                                   says "WHO: installing ..." when it does
apt_ensure()
{
    local who=$1 log=$2 p sudo="" missing=()
    shift 2
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
            missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "$who: installing ${missing[*]}"
    $sudo apt-get -o DPkg::Lock::Timeout=600 update -qq >> "$log" 2>&1
    DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 \
        install -y -qq --no-install-recommends "${missing[@]}" >> "$log" 2>&1
}
