#!/usr/bin/env bash
# The main job, from a fresh Debian 12 machine: install what is missing,
# build, and run the short stage comparison (every built stage and variant
# side by side with the MPI, raw-UCX and ptl baselines, alternating, medians,
# "x faster/slower"), then the report (bench/report.py: the seed figures as
# PNG/SVG plots, the seeds' claims checked, report.md and report.html in
# results/<timestamp>/).
#   bash scripts/bench.sh                 # short comparison (~3 minutes)
#   bash scripts/bench.sh --full          # publication run: full size ranges, 10,000 iterations
#   bash scripts/bench.sh -- ARGS...      # pass ARGS to bench/compare.py (see --help), e.g.
#   bash scripts/bench.sh -- --gasnet PREFIX   # + a real GASNet installed at PREFIX
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
