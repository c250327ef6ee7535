#!/usr/bin/env bash
# run-ptl-tests.sh -- ptl's tests: the unit tests of the matching engine,
# then the conformance suite in host and offload mode at 2, 3 and 4
# processes, the one-sided request buffers, late ACKs and atomics over
# TCP, again at 2 with MD pinning refused (RLIMIT_MEMLOCK), the faults ptl
# cannot survive
# (ptl_fault: each must end its job with ptl's fatal error), then a
# short run of each microbenchmark, each under a hard timeout.  One line
# per case:
#     PASS ptl unit
#     PASS ptl np=3 mode=offload conformance
#     FAIL ptl np=2 mode=host conformance (timeout after 60 s)
# and, after a FAIL, the output of the failed job.  Exit status 1 if any
# case failed, 0 otherwise.  (The suite runner that calls this prints the
# totals.)
#
# Environment (all optional):
#   MPIRUN        launcher (default: mpirun from PATH)
#   BUILDDIR      ptl's build directory (binaries in tests/), or
#   PTL_BINDIR    the directory holding ptl_unit, ptl_conf and ptl_fault
#                 (default: this script's directory)
#   BENCHDIR      the directory holding ptlbench and ucxbench (default:
#                 ../bench from the tests' directory)
#   NPS           process counts (default: 2 3 4)
#   MODES         modes (default: host offload mixed; mixed = even ranks
#                 host, odd ranks offload)
#   PTL_TIMEOUT   seconds per job (default: 60)
#   MPIRUN_FLAGS  extra launcher flags
set -u

here=$(cd "$(dirname "$0")" && pwd)
MPIRUN=${MPIRUN:-mpirun}
if [ -n "${BUILDDIR:-}" ]; then bindir=$BUILDDIR/tests
elif [ -n "${PTL_BINDIR:-}" ]; then bindir=$PTL_BINDIR
else bindir=$here; fi
NPS=${NPS:-2 3 4}
MODES=${MODES:-host offload mixed}
PTL_TIMEOUT=${PTL_TIMEOUT:-60}

if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export UCX_WARN_UNUSED_ENV_VARS=n

flags=()
ompi=
if "$MPIRUN" --version 2>&1 | grep -qi 'open mpi\|openrte'; then
  # 4 processes on 2 cores: oversubscribe, and let ranks move between cores
  flags=(--oversubscribe --bind-to none)
  ompi=1
fi
# shellcheck disable=SC2206
flags+=(${MPIRUN_FLAGS:-})

failed=0
subtests=() # ptl_conf's subtests in conf_run (none: all)
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# report NAME STATUS: one line; the log after a failure
report() {
  local name=$1 rc=$2 why
  if [ "$rc" = 0 ]; then echo "PASS ptl $name"; return; fi
  case $rc in
    124|137) why="timeout after $PTL_TIMEOUT s" ;;
    *) why="exit status $rc$(grep -m1 '^FAIL' "$log" | sed 's/^/: /')" ;;
  esac
  echo "FAIL ptl $name ($why)"
  sed 's/^/    /' "$log" | tail -n 40
  failed=1
}

for prog in ptl_unit ptl_conf ptl_fault; do
  if [ ! -x "$bindir/$prog" ]; then
    echo "FAIL ptl setup ($bindir/$prog is missing: build with 'make check')"
    exit 1
  fi
done

timeout -k 5 "$PTL_TIMEOUT" "$bindir/ptl_unit" >"$log" 2>&1
report unit $?

# conf NP MODE NAME [VAR=value]: one conformance job
# conf_run NP MODE PREFIX...: one conformance job, started through PREFIX
# (a command that runs the rest: env, prlimit, setpriv); the caller's rc
# gets its status, the caller's xflag goes to the launcher, and its
# subtests (if any) to ptl_conf
conf_run() {
  local np=$1 mode=$2
  shift 2
  "$@" timeout -k 5 "$PTL_TIMEOUT" "$MPIRUN" "${flags[@]}" "${xflag[@]}" -np "$np" \
    "$bindir/ptl_conf" "$mode" "${subtests[@]}" >"$log" 2>&1
  rc=$?
  # a clean exit must also have said so
  if [ "$rc" = 0 ] && ! grep -q '^ptl_conf: .* subtests passed' "$log"; then rc=99; fi
}

conf() {
  local np=$1 mode=$2 name=$3 rc xflag=()
  shift 3
  if [ -n "$ompi" ] && [ $# -gt 0 ]; then xflag=(-x "${1%%=*}"); fi # Open MPI passes only what it is told
  conf_run "$np" "$mode" env "$@"
  report "$name" "$rc"
}

for mode in $MODES; do
  for np in $NPS; do conf "$np" "$mode" "np=$np mode=$mode conformance"; done
done
# offload mode with publishing off: everything matched by the progress thread
if [[ " $MODES " == *" offload "* ]]; then
  conf 3 offload "np=3 mode=offload PTL_PUBLISH=0 conformance" PTL_PUBLISH=0
fi

# over TCP (UCX_TLS=tcp,self: nothing is mapped), offload mode: the request
# buffers' event entries are published but written by the matched path,
# each Put sent eagerly (PTLX_SR_EAGER_PUT), the contents checked as ever
if [[ " $MODES " == *" offload "* ]]; then
  xflag=()
  if [ -n "$ompi" ]; then xflag=(-x UCX_TLS -x PTL_TEST_UNMAPPED); fi
  subtests=(reqrb_oneside reqrb_pingpong reqrb_inplace put_inplace)
  conf_run 2 offload env UCX_TLS=tcp,self PTL_TEST_UNMAPPED=1
  subtests=()
  report "np=2 mode=offload UCX_TLS=tcp,self reqrb_oneside reqrb_pingpong reqrb_inplace put_inplace (eager matched path, nothing in place)" "$rc"
  # ... and shortcut Puts whose flush is a round trip: SEND_END first, the
  # ACK later; a revocation while their client stays out of ptl
  subtests=(late_ack publish)
  conf_run 3 offload env UCX_TLS=tcp,self PTL_TEST_UNMAPPED=1
  subtests=()
  report "np=3 mode=offload UCX_TLS=tcp,self late_ack publish (late ACKs, the rescuer)" "$rc"
fi
# atomics over TCP: UCX's atomics (the NIC path, offload) are its software
# ones there, performed by the target's worker; host mode all matched.
# IOVEC MDs over TCP: their rendezvous sizes gathered and scattered through
# bounce buffers with no shared memory underneath
for mode in host offload; do
  if [[ " $MODES " != *" $mode "* ]]; then continue; fi
  xflag=()
  if [ -n "$ompi" ]; then xflag=(-x UCX_TLS -x PTL_TEST_UNMAPPED); fi
  subtests=(atomic iovec)
  conf_run 3 "$mode" env UCX_TLS=tcp,self PTL_TEST_UNMAPPED=1
  subtests=()
  report "np=3 mode=$mode UCX_TLS=tcp,self atomic iovec (NIC and CPU atomics on one location; IOVEC MDs)" "$rc"
done

# MD pinning refused (RLIMIT_MEMLOCK of 16 KiB; as root, CAP_IPC_LOCK
# dropped too): every test still passes, and each process says so once.
# (Under AddressSanitizer mlock is a no-op that always succeeds: there the
# warning must not appear.)
nopin() {
  local mode=$1
  local rc n want=2 name="np=2 mode=$mode MD pinning refused" drop=() xflag=()
  if ldd "$bindir/ptl_conf" 2>/dev/null | grep -q libasan; then
    want=0
    name="$name (ASan build: its mlock pins nothing and never fails, so no warning)"
  fi
  if ! command -v prlimit >/dev/null || ! command -v setpriv >/dev/null; then
    echo "FAIL ptl $name (prlimit and setpriv, from util-linux, are needed)"
    failed=1
    return
  fi
  if [ "$(id -u)" = 0 ]; then drop=(setpriv --bounding-set=-ipc_lock --inh-caps=-ipc_lock); fi
  conf_run 2 "$mode" prlimit --memlock=16384 "${drop[@]}"
  n=$(grep -o 'cannot pin MD memory' "$log" | wc -l)
  if [ "$rc" = 0 ] && [ "$n" != "$want" ]; then
    echo "FAIL expected $want 'cannot pin MD memory' warnings (one per process unless ASan), got $n" >>"$log"
    rc=97
  fi
  report "$name" "$rc"
}
for mode in $MODES; do
  case $mode in host | offload) nopin "$mode" ;; esac
done

# the faults ptl cannot survive (ptl_fault --list), one job each: it must
# end non-zero, not by the timeout, with ptl's fatal error naming what the
# mode said to expect ("ptl_fault: MODE: expect fatal: FRAGMENT"); a mode
# ptl survives says what it did instead ("ptl went on: ...")
fault() {
  local m=$1 rc frag why=""
  timeout -k 5 "$PTL_TIMEOUT" "$MPIRUN" "${flags[@]}" -np 1 "$bindir/ptl_fault" "$m" >"$log" 2>&1
  rc=$?
  frag=$(sed -n "s/^ptl_fault: $m: expect fatal: //p" "$log" | head -n 1)
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    why="timeout after $PTL_TIMEOUT s"
  elif [ -z "$frag" ]; then
    why="exit status $rc before the fault was provoked"
  elif [ "$rc" = 0 ]; then
    why="exit status 0: $(sed -n "s/^ptl_fault: $m: //p" "$log" | grep -m1 'ptl went on' || echo 'no fatal error')"
  elif ! grep "ptl (rank 0): fatal: " "$log" | grep -qF "$frag"; then
    why="exit status $rc, but no line 'ptl (rank 0): fatal: ...$frag...'"
  fi
  if [ -z "$why" ]; then echo "PASS ptl fault $m"; return; fi
  echo "FAIL ptl fault $m ($why)"
  sed 's/^/    /' "$log" | tail -n 40
  failed=1
}
for m in $("$bindir/ptl_fault" --list | awk '/^  [a-z]/ { print $1 }'); do fault "$m"; done

# the microbenchmarks, a few iterations each: they run to the end and print
# every measurement (bench NAME RESULTS PROGRAM ARGS...)
benchdir=${BENCHDIR:-$bindir/../bench}
bench() {
  local name=$1 want=$2 rc
  shift 2
  timeout -k 5 "$PTL_TIMEOUT" "$MPIRUN" "${flags[@]}" -np 2 "$@" >"$log" 2>&1
  rc=$?
  if [ "$rc" = 0 ] && [ "$(grep -c '^RESULT ' "$log")" != "$want" ]; then
    echo "FAIL expected $want RESULT lines, got $(grep -c '^RESULT ' "$log")" >>"$log"
    rc=98
  fi
  report "$name" "$rc"
}
bench "bench ucxbench" 47 "$benchdir/ucxbench" -n 50
for mode in host offload; do
  bench "bench ptlbench $mode" 50 "$benchdir/ptlbench" "$mode" -n 50
done
exit "$failed"
