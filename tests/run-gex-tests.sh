#!/usr/bin/env bash
# run-gex-tests.sh -- GASNet-EX's own test programs against an installation,
# by GASNet's harness rule (issue 33 item 6(b); `make check-gex`).
#
# The programs are GASNet-EX 2025.8.0's tests/, unmodified, read where they
# are (GEX_TESTS_DIR: never copied, never edited), with their harness.conf
# (the arguments, environment and rules GASNet's own harness uses).  Each
# is built as a site builds a GASNet client: tests/gex/gex-tests.mk includes
# <prefix>/include/<stage>-conduit/<stage>-<mode>.mak and compiles the
# program the way GASNet's tests/Makefile does ($(GASNET_CC) -I<testdir>
# $(GASNET_CPPFLAGS) $(GASNET_CFLAGS) -c, $(GASNET_LD) $(GASNET_LDFLAGS) ...
# $(GASNET_LIBS); delay.o at -O0 for testlogGP and testbarrierlate; testmpi
# with the MPI compiler), one program per make, two at a time.  Each job is
# launched by the installation's own <prefix>/bin/gasnetrun_<stage> -n N
# under `timeout -k 5` (tests/hangwatch.sh: a hung job's stacks first).
#
# The installation: GEX_PREFIX if given (stageport's, or a real GASNet-EX
# one: the same harness runs against both); else stageport's build tree
# (TOP_BUILDDIR) installed with `make install DESTDIR=LOGDIR/root`, exactly
# as run-suite.sh's clientcompat does, and CLIENT_PREFIX inside it.
#
# Pass rule (GASNet's harness, README of GEX_TESTS_DIR): exit status 0 and
# no output line matching ERROR or "fatal signal" (GASNet's run-tests
# ignores lines with "Retrying allocation" or "GASNET_FREEZE_ON_ERROR"; so
# does this), testcore1's "failed!" lines count as errors; a test that
# prints "WARNING ... Test skipped" and exits 0 is a SKIP, not a pass; a
# hang (the timeout) is a FAIL naming the test, stage, mode and process
# count.  harness.conf's FailExpr is ERROR (its default) and PassExpr 0
# (none) for every program here.  One line per job:
#     PASS stage=ucx mode=par np=2 testthreads [2.1s]
#     SKIP stage=mpi mode=seq np=1 testcore1 (WARNING: This test requires an even number of nodes. Test skipped.)
#     FAIL stage=mpi mode=seq build testam (compile failed through mpi-conduit/mpi-seq.mak: exit status 2) [0.4s]
#     FAIL stage=mpi mode=seq np=2 testam (not built: see its build FAIL)
# a FAIL followed by the relevant output (a build's: the compiler's first
# distinct errors).  The last lines are "N skipped"
# and "N passed, N failed"; the exit status is 1 if anything failed.
#
# The programs (harness.conf's arguments and environment):
#   SEQ and PAR: testhello testcore1 (1000) testcore2 testam (-sync-req;
#   PAR: -sync-req -p 1) testimm (1000: see below) testsmall testlarge
#   (100 2097152) testqueue (1 256 262144) testnbr testbarrier (PAR: -p 1)
#   testcore3 testcore4 testcore5 testval testalign (100) testrand (1024)
#   testlogGP (1000 0 8 65536) testenv (GASNet is "Global Address Space
#   Networking", GASNET_DUMMY="GASNet dummy value") testbarrierconf
#   testbarrierlate testalltoall (-progress) testslice testhsl (0) testmisc
#   testmpi (harness.conf's testconduitspecific on mpi-conduit:
#   GASNET_MPI_THREAD=MULTIPLE; PAR: 2 threads, GASNet's TEST_PARAMS);
#   PAR only: testthreads (2) testcontend (GASNET_TEST_POLITE_SYNC=0)
#   testlockcontend.  Teams and collectives (issue 34): testteam
#   testteambarrier testteambcast testsplit (not in harness.conf: no
#   arguments) testreduce testacc (50000, harness.conf's for network_mpi)
#   testcollperf (see below).  Remote atomics (issue 34): testratomic
#   testfaddperf, both "test loopback" in harness.conf, and testfaddperf
#   -S (harness.conf's testfaddperf_S: every process FADDs rank 0's
#   counter), a variant at 2 processes like testam's.  testam also runs in
#   its negotiated-payload modes (-np-gb -src-generate -sync-req and -np-cb
#   -sync-req; not in harness.conf), SEQ at 2 processes, PAR too in the full
#   matrix.  VIS (issue 35): testvis (50) and testvisperf (-maxdata 131072
#   -maxcontig 512 10), harness.conf's arguments; its GASNET_VIS_AMPIPE /
#   GASNET_VIS_REMOTECONTIG variants name real GASNet's algorithms and are
#   not run (stageport's knobs: STAGEPORT_VIS*).
# One argument scaled down: testimm's passive ranks sleep 500 us between
# polls, so its time grows with the operation count -- harness.conf's 5000
# (mpi-conduit; 10000, the program's default, elsewhere) take 19 s (real
# mpi-conduit) and 26 s (real ucx-conduit) at 2 processes on the 2-core VM;
# 1000 operations (at 2 and 4 processes) take about 4 s.  And
# testcollperf's inner verification count: harness.conf's 25
# (-szfactor 4 16384 2 25 0) becomes 5 -- every collective, sync mode and
# size is still run and verified, 5 times per outer iteration instead of
# 25 (its 9 sync modes x 7 collectives x 8 sizes make it the longest
# program of the list otherwise).  Every other argument is harness.conf's.
#
# The matrix.  Process counts "where the program allows": 1 is left out
# for the programs that skip at an odd count (testcore1, testalign,
# testrand, testlogGP, testcontend; testimm needs 2) and for testmpi SEQ
# (it needs a second thread or process); testimm also runs at 4.
#   GEX_MATRIX=full: every program built through every stage's own
#     fragment, run at every allowed process count, SEQ and PAR, on every
#     stage, testimm at 4 too.
#   default (CI; at most ~15 minutes on the 2-core VM: its 320 jobs of six
#     stages take 9.8 minutes, builds included, when the real mpi and ucx
#     conduits stand in for them, three times each): on a stageport
#     installation a program selects its stage at run time (gasnetrun_<stage>
#     sets STAGEPORT_STAGE), so each program is built once per mode through
#     the first stage's fragment (GEX_BUILD_STAGE), and testhello and
#     testmpi -- testmpi is the one program whose code depends on the
#     conduit (GASNET_CONDUIT_MPI: the MPI thread level it requires) --
#     through every stage's own fragment, run from there: the build check
#     of every fragment.  (A real GASNet installation links a library per
#     conduit: everything is built per conduit.)  Per stage:
#       SEQ, 2 processes: every program; 4: testimm;
#       SEQ, 1 process: the programs harness.conf runs at 1 ("test
#         loopback": testhello testam testcore2 testcore3 testcore4
#         testcore5 testbarrierconf; testmisc, which it runs at 1 only);
#       PAR, 2 processes: the thread-heavy ones (testthreads testcontend
#         testlockcontend testmpi testhsl testam testbarrier) and testvis
#         testvisperf on every stage, the others in rotation: the k-th of them on stage number
#         i (in STAGES' order) when (k + i) mod min(3, stages) is 0, so
#         each runs PAR on a third of the stages (on every stage when
#         there is one);
#       PAR, 1 process: testthreads on every stage, the other "loopback"
#         programs in rotation by halves.
#
# Environment (all optional):
#   GEX_TESTS_DIR  the programs (default: ../shared/peers/gasnet-ex-tests
#                  from the source tree's top, i.e. TOP_SRCDIR/..)
#   GEX_PREFIX     an installation to test (default: stageport's, staged)
#   GEX_CONDUITS   the stages or conduits to run (default: STAGES; else
#                  every <name>-conduit directory of the installation with
#                  a gasnetrun_<name>)
#   STAGES         stageport's stages (make check-gex: every built stage)
#   GEX_MODES      threading modes (default: seq par)
#   GEX_MATRIX     default | full (above)
#   GEX_PROGRAMS   programs to build and run (default: all of the above)
#   GEX_NPS        only the jobs at these process counts (default: all)
#   GEX_BUILD_STAGE  the stage whose fragments build the shared binaries
#                  (default: the first of GEX_CONDUITS; stageport only)
#   GEX_TIMEOUT    seconds per job (default 90: the longest job of the
#                  real conduits takes 14 s, 52 on a VM loaded by another
#                  suite; harness.conf's relative time limits -- three
#                  times its default for testnbr and testcontend -- are
#                  not needed under it)
#   GEX_BUILD_TIMEOUT  seconds per program build (default 120)
#   GEX_STAGE_BUDGET  seconds of jobs per stage (default 300; a stage of
#                  the default matrix needs 70-125 s on the real conduits,
#                  up to 160 on a VM loaded by another suite)
#   GEX_BUDGET     seconds of jobs in all (default 900; the default matrix
#                  needs about 550 on the real conduits): once either is
#                  used up, the remaining jobs (of the stage; of the run)
#                  FAIL without running, so a library that hangs everywhere
#                  cannot keep CI busy for long
#   GEX_JOBS       builds at a time (default 2)
#   GEX_LOG_MAX    bytes of output kept per job (default 16 MiB; a job that
#                  prints more -- a passing one prints under 100 KB -- is
#                  cut there, the rest read and dropped, and FAILs)
#   GEX_LAUNCH_ARGS  extra arguments for every gasnetrun_<name> (before -n)
#   Real GASNet-EX (an installation without stageport.h): every conduit
#   but mpi and smp is launched with -spawner=mpi (GEX_SPAWNER_ARGS), and
#   every job gets GEX_REAL_ENV (default: GASNET_SUPERNODE_MAXSIZE=1, so that the two
#   processes on this host talk through the conduit and not through shared
#   memory, as on stageport; GASNET_HOST_DETECT=hostname, as gethostid()
#   gives nothing useful on the VM) and, for Open MPI,
#   OMPI_MCA_rmaps_base_oversubscribe=1 (gasnetrun_mpi does not
#   oversubscribe; stageport's gasnetrun_<stage> does it itself).
#   LOGDIR         builds and job outputs (default: ./gex-logs)
#   MAKE, MPIRUN   make; the launcher gasnetrun_<stage> was built for (used
#                  only to tell Open MPI)
#   TOP_SRCDIR, TOP_BUILDDIR, SRCDIR, CLIENT_PREFIX (the configured
#                  prefix: the staged installation is LOGDIR/root followed
#                  by it)  (from make)
set -u

here=$(cd "$(dirname "$0")" && pwd)
SRCDIR=${SRCDIR:-$here}
TOP_SRCDIR=${TOP_SRCDIR:-$here/..}
TOP_BUILDDIR=${TOP_BUILDDIR:-}
GEX_TESTS_DIR=${GEX_TESTS_DIR:-$TOP_SRCDIR/../shared/peers/gasnet-ex-tests}
GEX_PREFIX=${GEX_PREFIX:-}
GEX_CONDUITS=${GEX_CONDUITS:-${STAGES:-}}
GEX_MODES=${GEX_MODES:-seq par}
GEX_MATRIX=${GEX_MATRIX:-default}
GEX_PROGRAMS=${GEX_PROGRAMS:-}
GEX_NPS=${GEX_NPS:-}
GEX_BUILD_STAGE=${GEX_BUILD_STAGE:-}
GEX_TIMEOUT=${GEX_TIMEOUT:-90}
GEX_BUILD_TIMEOUT=${GEX_BUILD_TIMEOUT:-120}
GEX_STAGE_BUDGET=${GEX_STAGE_BUDGET:-300}
GEX_BUDGET=${GEX_BUDGET:-900}
GEX_LOG_MAX=${GEX_LOG_MAX:-16777216}
hangwatch=$here/hangwatch.sh
GEX_JOBS=${GEX_JOBS:-2}
# Open MPI's point-to-point layer named for every job's mpirun: ob1 is what
# it selects here anyway; left to choose, each MPI_Init first probes the
# PSM/PSM2 MTL libraries, ~0.2 s per job (run-suite.sh does the same)
export OMPI_MCA_pml=${OMPI_MCA_pml:-ob1}
GEX_LAUNCH_ARGS=${GEX_LAUNCH_ARGS:-}
GEX_SPAWNER_ARGS=${GEX_SPAWNER_ARGS--spawner=mpi}
GEX_REAL_ENV=${GEX_REAL_ENV-GASNET_SUPERNODE_MAXSIZE=1 GASNET_HOST_DETECT=hostname}
LOGDIR=${LOGDIR:-$PWD/gex-logs}
MAKE=${MAKE:-make}
MPIRUN=${MPIRUN:-mpirun}
CLIENT_PREFIX=${CLIENT_PREFIX:-}

# every program, in the order they run
PROGRAMS_ALL="testhello testcore1 testcore2 testam testimm testsmall testlarge testqueue testnbr testbarrier
  testcore3 testcore4 testcore5 testval testalign testrand testlogGP testenv testbarrierconf testbarrierlate
  testalltoall testslice testthreads testcontend testlockcontend testhsl testmisc testmpi
  testteam testteambarrier testteambcast testsplit testreduce testacc testcollperf testratomic testfaddperf
  testvis testvisperf"
# shellcheck disable=SC2086,SC2116 # (one line, single spaces)
PROGRAMS_ALL=$(echo $PROGRAMS_ALL)
PAR_ONLY=" testthreads testcontend testlockcontend "
# not at 1 process: they skip at an odd count (testimm: fewer than 2);
# testmpi SEQ needs a second thread or process (below)
NOT_AT_1=" testcore1 testalign testrand testlogGP testcontend testimm "
# default matrix: harness.conf's "test loopback" programs (DynamicThreads
# 1,$DEFAULT$) and testmisc (DynamicThreads 1)
LOOPBACK=" testhello testam testcore2 testcore3 testcore4 testcore5 testbarrierconf testmisc testratomic testfaddperf "
THREAD_HEAVY=" testthreads testcontend testlockcontend testmpi testhsl testam testbarrier "
# PAR at 2 processes on every stage too (issue 35: VIS, SEQ and PAR everywhere)
PAR_EVERY=" $THREAD_HEAVY testvis testvisperf "
PER_STAGE=" testhello testmpi "

# spec PROGRAM MODE NP [VARIANT]: harness.conf's arguments (ARGS) and
# environment (ENVS) for the job
spec() {
  ARGS=() ENVS=()
  case $1 in
    testcore1) ARGS=(1000) ;;
    testam) ARGS=(-sync-req); [ "$2" = par ] && ARGS+=(-p 1)
      # the negotiated-payload variants: GASNet-allocated and client buffers
      case ${4:-} in np-gb) ARGS=(-np-gb -src-generate "${ARGS[@]}") ;; np-cb) ARGS=(-np-cb "${ARGS[@]}") ;; esac ;;
    testimm) ARGS=(1000) ;; # scaled down: see the header
    testlarge) ARGS=(100 2097152) ;;
    testqueue) ARGS=(1 256 262144) ;;
    testbarrier) [ "$2" = par ] && ARGS=(-p 1) ;;
    testalign) ARGS=(100) ;;
    testrand) ARGS=(1024) ;;
    testlogGP) ARGS=(1000 0 8 65536) ;;
    testenv) ARGS=(GASNet is "Global Address Space Networking") ENVS=("GASNET_DUMMY=GASNet dummy value") ;;
    testalltoall) ARGS=(-progress) ;;
    testthreads) ARGS=(2) ;;
    testcontend) ENVS=(GASNET_TEST_POLITE_SYNC=0) ;;
    testhsl) ARGS=(0) ;;
    testacc) ARGS=(50000) ;; # (harness.conf's for network_mpi)
    testcollperf) ARGS=(-szfactor 4 16384 2 5 0) ;; # scaled down: see the header
    testvis) ARGS=(50) ;;
    testvisperf) ARGS=(-maxdata 131072 -maxcontig 512 10) ;;
    testfaddperf) [ "${4:-}" = S ] && ARGS=(-S) ;; # (the single-counter variant: harness.conf's testfaddperf_S)
    # (GASNET_MPI_THREAD: mpi-conduit's; the other conduits ignore it)
    testmpi) ENVS=(GASNET_MPI_THREAD=MULTIPLE); [ "$2" = par ] && ARGS=(2) ;;
  esac
}

if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export UCX_WARN_UNUSED_ENV_VARS=n

npass=0 nfail=0 nskip=0
suite_t0=$(date +%s.%N)
fsub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
inlist() { [[ " $2 " == *" $1 "* ]]; } # word list

# ---------------------------------------------------------------- verdicts
pass() { # label
  echo "PASS $1 [${ELAPSED}s]"
  npass=$((npass + 1))
}
skip() { # label reason
  echo "SKIP $1 ($2)"
  nskip=$((nskip + 1))
}
fail() { # label reason [log [pattern]]
  echo "FAIL $1 ($2)${ELAPSED:+ [${ELAPSED}s]}"
  nfail=$((nfail + 1))
  [ -n "${3:-}" ] && [ -f "$3" ] || return 0
  if [ -n "${4:-}" ] && grep -qE "$4" "$3"; then
    grep -E "$4" "$3" | head -n 30 | sed 's/^/    | /'
    echo "    | ... last lines:"
  fi
  tail -n 20 "$3" | sed 's/^/    | /'
  echo "    (full output: $3)"
}
# a whole run that cannot start
give_up() { # reason [log]
  ELAPSED=""
  fail "check-gex" "$1" "${2:-}"
  echo "$nskip skipped"
  echo "$npass passed, $nfail failed"
  exit 1
}

mkdir -p "$LOGDIR"
LOGDIR=$(cd "$LOGDIR" && pwd)

if [ ! -f "$GEX_TESTS_DIR/test.h" ] || [ ! -f "$GEX_TESTS_DIR/harness.conf" ]; then
  give_up "no GASNet-EX test programs in GEX_TESTS_DIR=$GEX_TESTS_DIR"
fi
GEX_TESTS_DIR=$(cd "$GEX_TESTS_DIR" && pwd)
[ -f "$SRCDIR/gex/gex-tests.mk" ] || give_up "no $SRCDIR/gex/gex-tests.mk (SRCDIR: the tests' source directory)"
case $GEX_MATRIX in default | full) ;; *) give_up "GEX_MATRIX=$GEX_MATRIX: not default or full" ;; esac

# ---------------------------------------------------------------- the installation
if [ -n "$GEX_PREFIX" ]; then
  [ -d "$GEX_PREFIX/include" ] || give_up "GEX_PREFIX=$GEX_PREFIX: no include/ there"
  pfx=$(cd "$GEX_PREFIX" && pwd)
  echo "# installation: $pfx"
else
  # stageport's build tree, installed (staged) as clientcompat does
  if [ -z "$TOP_BUILDDIR" ] || [ -z "$CLIENT_PREFIX" ]; then
    give_up "no GEX_PREFIX, and no TOP_BUILDDIR and CLIENT_PREFIX to install from: run it from make check-gex"
  fi
  root="$LOGDIR/root"
  rm -rf "$root"
  log="$LOGDIR/install.log" t0=$(date +%s.%N)
  # shellcheck disable=SC2086 # (MAKE may carry options)
  timeout -k 5 300 $MAKE -C "$TOP_BUILDDIR" install DESTDIR="$root" >"$log" 2>&1 </dev/null
  rc=$?
  ELAPSED=$(fsub "$t0" "$(date +%s.%N)")
  if [ "$rc" != 0 ]; then
    fail "install" "make install DESTDIR=... exit status $rc" "$log"
    echo "$nskip skipped"
    echo "$npass passed, $nfail failed"
    exit 1
  fi
  pfx="$root$CLIENT_PREFIX"
  echo "# installation: stageport's, make install DESTDIR=$root [${ELAPSED}s]"
fi
if [ -f "$pfx/include/stageport.h" ]; then kind=stageport; else kind=gasnet; fi
if [ -f "$pfx/include/gasnet_config.h" ]; then
  rel=$(sed -n 's/^#define GASNET_RELEASE_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' "$pfx/include/gasnet_config.h" | paste -sd. -)
  echo "# $kind installation, GASNET_RELEASE_VERSION ${rel:-unknown}"
fi

if [ -z "$GEX_CONDUITS" ]; then
  for d in "$pfx"/include/*-conduit; do
    c=$(basename "$d" -conduit)
    [ -x "$pfx/bin/gasnetrun_$c" ] && GEX_CONDUITS="$GEX_CONDUITS $c"
  done
fi
# shellcheck disable=SC2086
set -- $GEX_CONDUITS
[ $# -gt 0 ] || give_up "no conduit to test (GEX_CONDUITS, STAGES) in $pfx"
conduits="$*"
[ -n "$GEX_BUILD_STAGE" ] || GEX_BUILD_STAGE=$1
nst=$#

if [ -n "$GEX_PROGRAMS" ]; then
  for p in $GEX_PROGRAMS; do
    inlist "$p" "$PROGRAMS_ALL" || give_up "GEX_PROGRAMS: $p is not one of the programs in scope ($PROGRAMS_ALL)"
  done
  programs=$(for p in $PROGRAMS_ALL; do inlist "$p" "$GEX_PROGRAMS" && printf '%s ' "$p"; done)
else
  programs=$PROGRAMS_ALL
fi
for m in $GEX_MODES; do
  case $m in seq | par) ;; *) give_up "GEX_MODES: $m is not seq or par" ;; esac
done

# Open MPI: real GASNet's gasnetrun_mpi does not oversubscribe by itself
if [ "$kind" = gasnet ] && "$MPIRUN" --version 2>&1 | grep -qi 'open mpi\|openrte'; then
  export OMPI_MCA_rmaps_base_oversubscribe=1
fi
nproc_here=$(nproc 2>/dev/null || echo 1)
echo "# GASNet-EX tests: $GEX_TESTS_DIR; stages: $conduits; modes: $GEX_MODES; matrix: $GEX_MATRIX; $nproc_here CPUs"

# ---------------------------------------------------------------- the matrix
# mode_programs MODE: the programs built in MODE
mode_programs() {
  local p
  for p in $programs; do
    [ "$1" = seq ] && inlist "$p" "$PAR_ONLY" && continue
    printf '%s ' "$p"
  done
}
# nps PROGRAM MODE: the process counts the program allows
nps() {
  local n=""
  inlist "$1" "$NOT_AT_1" || { [ "$1" = testmpi ] && [ "$2" = seq ]; } || n="1"
  n="$n 2"
  [ "$1" = testimm ] && n="$n 4"
  echo "${n# }"
}
# shared PROGRAM: built once per mode (through GEX_BUILD_STAGE's fragment)
shared() {
  [ "$kind" = stageport ] && [ "$GEX_MATRIX" = default ] && ! inlist "$1" "$PER_STAGE"
}
# matrix_jobs STAGE_INDEX MODE: the jobs of one stage and mode, "program np
# [variant]" lines (variants: testam's negotiated-payload modes, np-gb and
# np-cb, and testfaddperf's single counter, S: SEQ at 2 processes on every
# stage; PAR in the full matrix)
matrix_jobs() {
  local i=$1 mode=$2 p np k=0 kl=0 rot rotl
  rot=$((nst < 3 ? nst : 3)) rotl=$((nst < 2 ? nst : 2))
  for p in $(mode_programs "$mode"); do
    for np in $(nps "$p" "$mode"); do
      if [ -n "$GEX_NPS" ] && ! inlist "$np" "$GEX_NPS"; then continue; fi
      if [ "$p" = testam ] && [ "$np" = 2 ] && { [ "$mode" = seq ] || [ "$GEX_MATRIX" = full ]; }; then
        echo "$p $np np-gb"
        echo "$p $np np-cb"
      fi
      if [ "$p" = testfaddperf ] && [ "$np" = 2 ] && { [ "$mode" = seq ] || [ "$GEX_MATRIX" = full ]; }; then
        echo "$p $np S"
      fi
      if [ "$GEX_MATRIX" = full ]; then echo "$p $np"; continue; fi
      case $mode-$np in
        seq-2 | seq-4) echo "$p $np" ;;
        seq-1) inlist "$p" "$LOOPBACK" && echo "$p $np" ;;
        par-2 | par-4)
          if inlist "$p" "$PAR_EVERY"; then echo "$p $np"
          elif [ $(((k + i) % rot)) = 0 ]; then echo "$p $np"; fi ;;
        par-1)
          if [ "$p" = testthreads ]; then echo "$p $np"
          elif inlist "$p" "$LOOPBACK" && [ $(((kl + i) % rotl)) = 0 ]; then echo "$p $np"; fi ;;
      esac
    done
    inlist "$p" "$PAR_EVERY" || k=$((k + 1))
    inlist "$p" "$LOOPBACK" && kl=$((kl + 1))
  done
}

# ---------------------------------------------------------------- building
# bindir STAGE MODE PROGRAM: where the program for that job is built
bindir() {
  if shared "$3"; then echo "$LOGDIR/build/$GEX_BUILD_STAGE-$2/$3"; else echo "$LOGDIR/build/$1-$2/$3"; fi
}
declare -A built=()   # bindir -> ok | fail
build_t0=$(date +%s.%N)
# build_one STAGE MODE PROGRAM DIR (a background job): DIR/build.log, DIR/build.rc, DIR/build.time
build_one() {
  local st=$1 mode=$2 p=$3 dir=$4 t0 rc
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086 # (MAKE may carry options)
  timeout -k 5 "$GEX_BUILD_TIMEOUT" $MAKE --no-print-directory -C "$dir" -f "$SRCDIR/gex/gex-tests.mk" GASNET_PREFIX="$pfx" \
    CONDUIT="$st" THREADS="$mode" GEX_TESTS_DIR="$GEX_TESTS_DIR" "$p" >"$dir/build.log" 2>&1 </dev/null
  rc=$?
  [ "$rc" = 0 ] && [ ! -x "$dir/$p" ] && rc=1
  echo "$rc" >"$dir/build.rc"
  fsub "$t0" "$(date +%s.%N)" >"$dir/build.time"
}
# the builds, GEX_JOBS at a time
declare -a todo=()
for st in $conduits; do
  for mode in $GEX_MODES; do
    for p in $(mode_programs "$mode"); do
      # built only when some job of this stage runs it
      shared "$p" && [ "$st" != "$GEX_BUILD_STAGE" ] && continue
      dir=$(bindir "$st" "$mode" "$p")
      [ -n "${built[$dir]:-}" ] && continue
      built[$dir]=pending
      todo+=("$st $mode $p $dir")
    done
  done
done
for st in $conduits; do
  for f in "$pfx/include/$st-conduit" "$pfx/bin/gasnetrun_$st"; do
    [ -e "$f" ] || { ELAPSED="" fail "stage=$st" "not in the installation: $f"; }
  done
done
running=0
for b in "${todo[@]}"; do
  # shellcheck disable=SC2086
  set -- $b
  rm -rf "$4" && mkdir -p "$4"
  if [ ! -f "$pfx/include/$1-conduit/$1-$2.mak" ]; then
    echo 2 >"$4/build.rc" && echo 0.0 >"$4/build.time"
    echo "no fragment $pfx/include/$1-conduit/$1-$2.mak" >"$4/build.log"
    continue
  fi
  if [ "$running" -ge "$GEX_JOBS" ]; then wait -n; running=$((running - 1)); fi
  build_one "$@" &
  running=$((running + 1))
done
wait
nbuilt=0
for b in "${todo[@]}"; do
  # shellcheck disable=SC2086
  set -- $b
  ELAPSED=$(cat "$4/build.time" 2>/dev/null || echo 0.0)
  rc=$(cat "$4/build.rc" 2>/dev/null || echo 1)
  if [ "$rc" = 0 ]; then
    built[$4]=ok nbuilt=$((nbuilt + 1))
    continue
  fi
  built[$4]=fail
  frag="$1-conduit/$1-$2.mak"
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then why="build timeout after ${GEX_BUILD_TIMEOUT}s"
  elif grep -q '^no fragment ' "$4/build.log"; then why="no fragment $frag"
  else why="compile failed through $frag: exit status $rc"; fi
  echo "FAIL stage=$1 mode=$2 build $3 ($why) [${ELAPSED}s]"
  nfail=$((nfail + 1))
  # the compiler's first errors (each once), else the end of the log
  errs=': (fatal )?error:|undefined reference|cannot find -l|No such file'
  if grep -qE "$errs" "$4/build.log"; then
    grep -E "$errs" "$4/build.log" | awk '!seen[$0]++' | head -n 8 | cut -c1-300 | sed 's/^/    | /'
    echo "    | ($(grep -cE ': (fatal )?error:' "$4/build.log") error lines in all)"
  else
    tail -n 12 "$4/build.log" | cut -c1-300 | sed 's/^/    | /'
  fi
  echo "    (full output: $4/build.log)"
done
build_time=$(fsub "$build_t0" "$(date +%s.%N)")
echo "# built $nbuilt of ${#todo[@]} programs in ${build_time}s ($GEX_JOBS at a time)"

# ---------------------------------------------------------------- running
declare -A np_time=()
# run_one STAGE MODE NP PROGRAM [VARIANT]
run_one() {
  local st=$1 mode=$2 np=$3 p=$4 v=${5:-} dir label log to t0 rc lines why skipline
  local -a launch=()
  label="stage=$st mode=$mode np=$np $p${v:+ ($v)}"
  dir=$(bindir "$st" "$mode" "$p")
  ELAPSED=""
  if [ "${built[$dir]:-}" != ok ]; then
    fail "$label" "not built: see its build FAIL"
    return
  fi
  if [ "$(fsub "$stage_t0" "$(date +%s.%N)" | cut -d. -f1)" -ge "$GEX_STAGE_BUDGET" ]; then
    fail "$label" "not run: the stage used up its time budget of ${GEX_STAGE_BUDGET}s"
    return
  fi
  if [ "$(fsub "$run_t0" "$(date +%s.%N)" | cut -d. -f1)" -ge "$GEX_BUDGET" ]; then
    fail "$label" "not run: the jobs used up their time budget of ${GEX_BUDGET}s"
    return
  fi
  spec "$p" "$mode" "$np" "$v"
  to=$GEX_TIMEOUT
  log="$LOGDIR/run/$st-$mode-np$np-$p${v:+-$v}.log"
  # shellcheck disable=SC2206
  launch=("$pfx/bin/gasnetrun_$st" $GEX_LAUNCH_ARGS)
  if [ "$kind" = gasnet ]; then
    # shellcheck disable=SC2206
    case $st in mpi | smp) ;; *) launch+=($GEX_SPAWNER_ARGS) ;; esac
    # shellcheck disable=SC2206
    ENVS=($GEX_REAL_ENV ${ENVS[@]+"${ENVS[@]}"})
  fi
  t0=$(date +%s.%N)
  # (the output past GEX_LOG_MAX read and dropped: the job never meets a
  # closed pipe)
  # (timeout -k 5 that first records where a hung job's processes are,
  # in $log.hang, added to the log below: hangwatch.sh)
  rm -f "$log.hang" "$log.hang.stacks"
  (cd "$dir" && env ${ENVS[@]+"${ENVS[@]}"} bash "$hangwatch" "$to" "$log.hang" "${launch[@]}" -n "$np" "./$p" ${ARGS[@]+"${ARGS[@]}"}) 2>&1 </dev/null |
    { head -c "$GEX_LOG_MAX"; cat >/dev/null; } >"$log"
  rc=${PIPESTATUS[0]}
  if [ -s "$log.hang" ]; then cat "$log.hang" >>"$log"; fi
  ELAPSED=$(fsub "$t0" "$(date +%s.%N)")
  np_time[$np]=$(awk -v a="${np_time[$np]:-0}" -v b="$ELAPSED" 'BEGIN { printf "%.1f", a + b }')
  # GASNet's rule: ERROR or "fatal signal" (not GASNet's own two
  # exceptions), and testcore1's "failed!"
  lines=$(grep -E 'ERROR|fatal signal|failed!' "$log" | grep -vE 'Retrying allocation|GASNET_FREEZE_ON_ERROR' |
    { if [ "$p" = testcore1 ]; then cat; else grep -E 'ERROR|fatal signal'; fi; } | wc -l)
  skipline=$(grep -m 1 -E 'WARNING.*Test skipped' "$log" | sed 's/^[[:space:]]*//')
  if [ "$rc" = 124 ] || { [ "$rc" = 137 ] && awk -v e="$ELAPSED" -v t="$to" 'BEGIN { exit !(e >= t) }'; }; then
    fail "$label" "timeout after ${to}s: hang" "$log" 'ERROR|fatal signal'
  elif [ "$(stat -c %s "$log")" -ge "$GEX_LOG_MAX" ]; then
    fail "$label" "output over $GEX_LOG_MAX bytes, cut there; exit status $rc, $lines error lines before the cut" "$log" 'ERROR|fatal signal|failed!'
  elif [ "$rc" != 0 ]; then
    why="exit status $rc"
    [ "$lines" -gt 0 ] && why="$why, $lines error lines"
    fail "$label" "$why" "$log" 'ERROR|fatal signal|failed!'
  elif [ "$lines" -gt 0 ]; then
    fail "$label" "exit status 0 but $lines error lines" "$log" 'ERROR|fatal signal|failed!'
  elif [ -n "$skipline" ]; then
    skip "$label" "$skipline"
  else
    pass "$label"
  fi
}

mkdir -p "$LOGDIR/run"
run_t0=$(date +%s.%N)
i=0
for st in $conduits; do
  stage_t0=$(date +%s.%N)
  for mode in $GEX_MODES; do
    while read -r p np v; do
      [ -n "$p" ] && run_one "$st" "$mode" "$np" "$p" "$v"
    done < <(matrix_jobs "$i" "$mode" | sort -s -k2,2n)
  done
  echo "# stage=$st: $(fsub "$stage_t0" "$(date +%s.%N)")s"
  i=$((i + 1))
done

times=""
for np in $(printf '%s\n' "${!np_time[@]}" | sort -n); do times="$times np=$np ${np_time[$np]}s,"; done
echo "# time by process count:${times%,}${times:+;} builds ${build_time}s; total $(fsub "$suite_t0" "$(date +%s.%N)")s (stages: $conduits; matrix: $GEX_MATRIX)"
echo "$nskip skipped"
echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]
