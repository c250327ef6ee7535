#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 machine:
#   bash scripts/test.sh              # install deps, build (-Werror), make check, make check-faults, then make check-gex
#   bash scripts/test.sh --check-only # make check alone (about 15 minutes)
#   bash scripts/test.sh --gex-only   # make check-gex alone: GASNet-EX's own test programs
#                                     # (../shared/peers/gasnet-ex-tests) through the installed fragments
#   bash scripts/test.sh --sanitize   # make check under AddressSanitizer + UBSan (build in _build-san)
#   bash scripts/test.sh --tsan       # the multi-threaded tests (tests/mt, exconf_par; GASNET_PAR) under ThreadSanitizer
#                                     # on every stage (build in _build/tsan-build; also part of check-faults)
# Environment filters are passed to the suites (see tests/run-suite.sh):
#   STAGES="mpi"  NPS="2 3"  TESTS="conformance"
#   check-gex: GEX_MATRIX=full  GEX_PROGRAMS="testam testimm"  GEX_MODES=par  GEX_NPS=2 (tests/run-gex-tests.sh)
# The last line is the total: "N passed, N failed".
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/_build"
opts=(--enable-werror)
targets=(check check-faults check-gex)
case "${1:-}" in
  --sanitize)
    build="$top/_build-san"
    opts+=(--enable-sanitizers)
    targets=(check)
    # Open MPI and UCX keep allocations until exit: leak reports would be theirs.
    export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:${ASAN_OPTIONS:-}"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
    ;;
  --check-only) targets=(check) ;;
  --gex-only) targets=(check-gex) ;;
  --tsan)
    targets=(check-faults)
    export TESTS="${TESTS:-tsan}"
    ;;
  "") ;;
  *) echo "usage: scripts/test.sh [--check-only | --gex-only | --sanitize | --tsan]" >&2; exit 2 ;;
esac

if ! bash "$top/scripts/setup.sh" || ! bash "$top/scripts/build.sh" "$build" "${opts[@]}"; then
  echo "set-up or build failed: no test ran"
  echo "0 passed, 1 failed"
  exit 1
fi
cd "$build"
passed=0
failed=0
for t in "${targets[@]}"; do
  # everything the suite prints, then its verdict "N passed, N failed"
  echo "# make $t"
  make "$t" 2>&1 | tee "$t.out" | grep --line-buffered -v -E '^make(\[[0-9]+\])?: |^[0-9]+ passed, [0-9]+ failed$' || true
  last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$t.out" | tail -n 1 || true)
  if [ -z "$last" ]; then
    echo "make $t did not run its suite (see $build/$t.out)"
    failed=$((failed + 1))
    continue
  fi
  echo "# make $t: $last"
  passed=$((passed + ${last%% passed*}))
  f=${last#*, }
  failed=$((failed + ${f%% failed}))
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
