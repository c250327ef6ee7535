#!/usr/bin/env bash
# The main job, from a fresh Debian 12 machine: install what is missing,
# build, and run the short stage comparison (every built stage side by side
# with the MPI baselines, alternating, medians and ratios).
#   bash scripts/bench.sh                 # short comparison (~2 minutes)
#   bash scripts/bench.sh --full          # full size ranges, 10,000 iterations
#   bash scripts/bench.sh -- ARGS...      # pass ARGS to bench/compare.py (see --help)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/_build"
mode=(--quick)
if [ "${1:-}" = "--full" ]; then mode=(); shift; fi
if [ "${1:-}" = "--" ]; then shift; fi

bash "$top/scripts/setup.sh"
bash "$top/scripts/build.sh" "$build" --enable-werror
exec python3 "$top/bench/compare.py" --builddir "$build/bench" --out "$top/results/$(date +%Y%m%d-%H%M%S)" \
  "${mode[@]}" "$@"
