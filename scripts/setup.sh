#!/usr/bin/env bash
# Install what stageport needs on Debian 12 (idempotent: installs only what is
# missing).  Run as root, or as a user with sudo.
set -euo pipefail

# (clang and libclang-rt-14-dev: the fuzz targets; valgrind: memcheck runs;
# gdb: a hung test job's backtraces, tests/hangwatch.sh;
# iproute2: the emulated hosts of make check-faults; gnuplot-nox and
# fonts-dejavu-core: the report's plots)
pkgs=(build-essential autoconf automake libtool pkg-config
      libopenmpi-dev openmpi-bin libucx-dev ucx-utils libpapi-dev
      python3 bc procps util-linux
      clang libclang-rt-14-dev valgrind gdb iproute2 gnuplot-nox fonts-dejavu-core git)

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
