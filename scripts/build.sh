#!/usr/bin/env bash
# Build stageport out of tree: scripts/build.sh BUILDDIR [configure options...]
# Regenerates the build system when needed, configures once per option set,
# then runs make.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: scripts/build.sh BUILDDIR [configure options]}
shift
jobs=$(nproc 2>/dev/null || echo 2)

if [ ! -x "$top/configure" ] || [ "$top/configure.ac" -nt "$top/configure" ]; then
  (cd "$top" && ./autogen.sh >/dev/null)
fi
mkdir -p "$build"
cd "$build"
opts="$*"
if [ ! -f Makefile ] || [ "$(cat .configure-options 2>/dev/null)" != "$opts" ]; then
  "$top/configure" "$@" > configure.out || { cat configure.out; exit 1; }
  sed -n '/^stageport .* configuration$/,$p' configure.out
  echo "$opts" > .configure-options
fi
make -j"$jobs" >make.out 2>&1 || { tail -n 60 make.out; echo "build failed (full log: $build/make.out)" >&2; exit 1; }
