#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 machine:
#   bash scripts/test.sh              # install deps, build (-Werror), make check
#   bash scripts/test.sh --sanitize   # the same under AddressSanitizer + UBSan
# Environment filters are passed to the suite (see tests/run-suite.sh):
#   STAGES="mpi"  NPS="2 3"  TESTS="conformance"
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/_build"
opts=(--enable-werror)
if [ "${1:-}" = "--sanitize" ]; then
  build="$top/_build-san"
  opts+=(--enable-sanitizers)
  # Open MPI and UCX keep allocations until exit: leak reports would be theirs.
  export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:${ASAN_OPTIONS:-}"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
fi

if ! bash "$top/scripts/setup.sh" || ! bash "$top/scripts/build.sh" "$build" "${opts[@]}"; then
  echo "set-up or build failed: no test ran"
  echo "0 passed, 1 failed"
  exit 1
fi
cd "$build"
# everything the suite prints, then its verdict "N passed, N failed" last
make check 2>&1 | tee check.out | grep --line-buffered -v -E '^make(\[[0-9]+\])?: |^[0-9]+ passed, [0-9]+ failed$' || true
last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' check.out | tail -n 1 || true)
if [ -z "$last" ]; then
  echo "make check did not run the suite (see $build/check.out)"
  echo "0 passed, 1 failed"
  exit 1
fi
echo "$last"
case "$last" in
  *" 0 failed") exit 0 ;;
  *) exit 1 ;;
esac
