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
#   bash scripts/bench.sh --seed003 [--full] [-- ARGS...]
#                                         # seed 003's Figs. 1-3 (NP-AM, IMMEDIATE, local
#                                         # completion) with GASNet-EX's own test programs on every
#                                         # stage (bench/seed003.py, its --help; short: a few minutes,
#                                         # --full: hours), into results/seed003-<timestamp>/; ARGS
#                                         # e.g. --gasnet PREFIX for the real conduits beside them
#   bash scripts/bench.sh --help          # this text
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/_build"
runner=compare.py out="$top/results/$(date +%Y%m%d-%H%M%S)"
case ${1:-} in
  -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
  --seed003) runner=seed003.py out="$top/results/seed003-$(date +%Y%m%d-%H%M%S)"; shift ;;
esac
mode=(--quick)
if [ "${1:-}" = "--full" ]; then mode=(); shift; fi
if [ "${1:-}" = "--" ]; then shift; fi

bash "$top/scripts/setup.sh"
bash "$top/scripts/build.sh" "$build" --enable-werror
if [ "$runner" = seed003.py ]; then
  exec python3 "$top/bench/seed003.py" --builddir "$build" --out "$out" "${mode[@]}" "$@"
fi
exec python3 "$top/bench/compare.py" --builddir "$build/bench" --out "$out" "${mode[@]}" "$@"
