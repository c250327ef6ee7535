#!/usr/bin/env bash
# check-layers.sh -- no lower layer includes or calls a higher one.
#
#   bash scripts/check-layers.sh [BUILDDIR]
#
# The layers, bottom-up (DESIGN-NOTES.md, "Layers"); a directory may use
# its own files and any directory of a LOWER layer, never one of its own
# layer (backends do not reach into each other) or above:
#
#   0  boot credits firehose bootstrap interface + MPI launcher; credit accounting; registration cache
#   1  ucx                   the UCX module
#   2  ptl                   the Portals emulation (its tests and bench too)
#   3  common include        the runtime and seams; the public headers
#   4  net-ucx net-portals   the networks: the state a stage's Core and Extended API
#                            share (the `ucx` stage's; the Portals conduit of the ptl stages)
#   5  core-mpi core-ucx core-portals ext-ref ext-ucx ext-portals
#                            Cores, Extended backends (a Core and the Extended API of one
#                            network never use each other: the network below serves both)
#   6  api                   the gex_* entry points, checks, lifecycle, stage table
#   7  legacy                GASNet-1 over GASNet-EX
#
# The legacy layer is held tighter: it may include only the public headers
# (include/, and configure's config.h), and every symbol it takes from the
# library below must be a public entry point -- gex_*, gasnet_* or one of
# the _stp_* gasnetex.h declares for it -- never the library's internals.
#
# Two checks:
#   includes  every #include "file" of every source, resolved to the
#             directory holding that file;
#   symbols   (with BUILDDIR, after make) every undefined symbol of each
#             directory's convenience library, resolved to the library that
#             defines it (nm).  Calls through ops tables and hooks are
#             function pointers, not symbols: that is how the API layer's
#             upward paths (progress hooks, handler dispatch) stay legal.
# Prints each violation and ends with "layers: N violations"; exit 1 if any.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-}

declare -A layer=(
  [boot]=0 [credits]=0 [firehose]=0 [ucx]=1 [ptl]=2 [common]=3 [include]=3
  [net-ucx]=4 [net-portals]=4 [core-mpi]=5 [core-ucx]=5 [core-portals]=5 [ext-ref]=5 [ext-ucx]=5 [ext-portals]=5
  [api]=6 [legacy]=7
)
bad=0

# May code in directory $1 use directory $2?
allowed() {
  [ "$1" = "$2" ] && return 0
  [ "$2" = include ] && [ "${layer[$1]}" -ge 3 ] && return 0
  [ "${layer[$2]}" -lt "${layer[$1]}" ]
}

# ------------------------------------------------------------ includes
declare -A home=() # file name -> directory
for d in "${!layer[@]}"; do
  while IFS= read -r f; do
    n=$(basename "$f")
    n=${n%.in}
    home[$n]=$d
  done < <(find "$top/$d" -name '*.h' -o -name '*.h.in')
done
home[config.h]=include # configure's, at the top of the build tree

for d in "${!layer[@]}"; do
  while IFS= read -r f; do
    while IFS= read -r inc; do
      h=${inc#*\"}
      h=${h%%\"*}
      h=$(basename "$h")
      to=${home[$h]:-}
      [ -z "$to" ] && continue # a system or third-party header
      if ! allowed "$d" "$to"; then
        echo "include: ${f#$top/} (layer ${layer[$d]}, $d) includes $h from $to (layer ${layer[$to]})"
        bad=$((bad + 1))
      elif [ "$d" = legacy ] && [ "$to" != include ] && [ "$to" != legacy ]; then
        echo "include: ${f#$top/} (legacy) includes $h from $to: the legacy layer sees the public headers only"
        bad=$((bad + 1))
      fi
    done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f")
  done < <(find "$top/$d" -name '*.c' -o -name '*.h' -o -name '*.h.in')
done

# ------------------------------------------------------------ symbols
# A public entry point: gex_*, gasnet_*, or an _stp_* that gasnetex.h declares.
public_entry() {
  case $1 in
    gex_* | gasnet_*) return 0 ;;
    _stp_*) grep -Eq "[^A-Za-z0-9_]$1[[:space:]]*\(" "$top/include/gasnetex.h" ;;
    *) return 1 ;;
  esac
}
if [ -n "$build" ]; then
  declare -A def=() # symbol -> directory
  libs=()
  for d in "${!layer[@]}"; do
    for a in "$build/$d"/.libs/*.a; do
      [ -f "$a" ] || continue
      libs+=("$d:$a")
      while read -r _ _ sym; do def[$sym]=$d; done < <(nm -g --defined-only "$a" 2>/dev/null | grep -E ' [TDRBCV] ')
    done
  done
  if [ ${#libs[@]} -eq 0 ]; then
    echo "symbols: no convenience libraries under $build (run make first)"
    bad=$((bad + 1))
  fi
  for la in "${libs[@]}"; do
    d=${la%%:*}
    a=${la#*:}
    while read -r sym; do
      to=${def[$sym]:-}
      [ -z "$to" ] && continue # libc, MPI, UCX, ...
      if ! allowed "$d" "$to"; then
        echo "symbol: $d (layer ${layer[$d]}) uses $sym from $to (layer ${layer[$to]})"
        bad=$((bad + 1))
      elif [ "$d" = legacy ] && [ "$to" != legacy ] && ! public_entry "$sym"; then
        echo "symbol: legacy uses $sym from $to: not a public entry point (gex_*, gasnet_*, or an _stp_* of gasnetex.h)"
        bad=$((bad + 1))
      fi
    done < <(nm -u "$a" 2>/dev/null | awk '$1 == "U" { print $2 }' | sort -u)
  done
  echo "layers: checked includes and the symbols of ${#libs[@]} libraries"
else
  echo "layers: checked includes (give a build directory to check symbols too)"
fi
echo "layers: $bad violations"
[ "$bad" -eq 0 ]
