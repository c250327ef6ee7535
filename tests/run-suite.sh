#!/usr/bin/env bash
# run-suite.sh -- run stageport's multi-process tests for every stage.
#
# For each stage in STAGES: conformance at every process count in NPS (on
# portals and firehose in ptl's offload and host modes, its am_long_reuse
# again with the Long payload events late: STAGEPORT_AM_LATE_SEND_END=1),
# extras at those up to 3, every badinput mode at 2 processes, every
# exittest mode at every count in EXIT_NPS (or, with EXIT_NPS_ROTATE=1, at
# one of them per stage).  Each job runs under `timeout -k 5` (hangwatch.sh:
# a hung job's stacks first); a hang is a FAIL naming the test, the stage
# and the process count.  One line per job:
#     PASS stage=mpi np=3 conformance [8.2s]
#     FAIL stage=mpi np=2 badinput:nargs (exit status 0: the job did not fail)
# followed, for a failure, by the relevant output.  The last line is
# "N passed, N failed"; the exit status is 1 if anything failed.
#
# Environment (all optional):
#   MPIRUN      launcher (default: mpirun from PATH)
#   BINDIR      where the test binaries are (default: this script's directory)
#   STAGES      stages to run (default: mpi); each runs under every variant
#               listed for it in variants.txt (next to this script), e.g. the
#               ucx stage once with UCX's default transports and once with
#               UCX_TLS=tcp,self; PASS/FAIL lines name it stage=ucx/tcp
#   VARIANTS    variant labels to run (default: all of each stage's)
#   TESTS       any of: tree unit ptl conformance extras exconf exatomic exteam exvis badinput
#               exittest stress mt mpitraffic clientcompat (default: all of these).
#               tree: the checks of the tree itself, once: no lower layer
#               includes or calls a higher one (scripts/check-layers.sh, on
#               TOP_SRCDIR and the libraries in TOP_BUILDDIR), the README's
#               environment table agrees with the code (scripts/check-env.sh);
#               unit: the pure-module unit tests (UNIT_TESTS, no MPI), once;
#               extras: tests/extras (GASNet-1 release extras: conduit
#               macros, gasnet_barrier/_result and UNNAMED, queries before
#               attach, segment alignment, gasnet_tools.h) at EXTRAS_NPS;
#               exconf: tests/exconf (the GASNet-EX conformance test: every
#               gex_* call of the primordial team, public headers only) and
#               tests/exconf_par (its GASNET_PAR part: 4 threads per process
#               at once) at EXCONF_NPS (2) processes, every subtest's "ok"
#               line required; and once per stage (default or offload
#               variant) exconf again with the stage's smallest AM credits
#               (exconf:tight: STAGEPORT_AM_CREDITS=2 on the MPI Core, 33
#               static on the Portals Core, 65 with 2-slot mailboxes on the
#               UCX Core), so that IMMEDIATE injections are refused; each
#               exconf PASS line says how many refusals the job saw;
#               exatomic: tests/exatomic (GASNet-EX remote atomics: every
#               type and operation against a sequential model, contention,
#               NB/NBI forms, ACQ/REL ordering, IMMEDIATE, the implementation
#               each domain got) at EXATOMIC_NPS (2 4) processes, every
#               subtest's "ok" line required; once per stage (default or
#               offload variant) again with STAGEPORT_AD_IMPL=reference
#               (exatomic:ref) and every `exatomic --bad` mode at 2 processes
#               (exatomic:bad:MODE, judged as badinput's); run in every
#               variant that runs exconf;
#               exteam: tests/exteam (GASNet-EX teams: splits and creates
#               of odd shapes, nested; queries and translations; RMA and
#               AMs by team rank; every collective on every team against a
#               model -- every reduction type x operation, user operations,
#               sizes over an AM Medium, GASNet-1's team collectives;
#               gex_TM_Destroy) at EXTEAM_NPS (2 4) processes, every
#               subtest's "ok" line required; once per stage (default or
#               offload variant) every `exteam --bad` mode at 2 processes
#               (exteam:bad:MODE: destroyed teams, TM-pairs in collectives,
#               ranks out of a team, judged as badinput's); run in every
#               variant that runs exconf;
#               exvis: tests/exvis (GASNet-EX VIS, gasnet_vis.h: every
#               gex_VIS_{Vector,Indexed,Strided}{Put,Get}{NB,NBI,Blocking}
#               against a byte model of the destination and source areas --
#               seeded random descriptions, degenerate ones, LEAF_LC,
#               IMMEDIATE, a team of reversed ranks, peer completion
#               handlers) in every variant that runs exconf, at EXVIS_NPS
#               (2 3) processes in the stage's first variant (default or
#               offload) and at 2 in the others; in the first variant also
#               tests/exvis_par (its GASNET_PAR part: 4 threads per process
#               at once) and exvis at 2 with STAGEPORT_VIS_OPT=off (the
#               stride optimizer off), the stage's smallest AM credits (as
#               exconf:tight: IMMEDIATE refused) and, but on mpi (where auto
#               takes it already), STAGEPORT_VIS=ampipe (every remote put
#               through the AM pipeline): exvis:optoff+tight[+ampipe], the
#               same results (each exvis PASS line says how many IMMEDIATE
#               refusals rank 0 saw); on hybrid, portals and firehose exvis
#               at 2 with STAGEPORT_VIS=iovec (every remote operation
#               through ptl's scatter/gather MDs: exvis:iovec); tests/vis1 (GASNet-1's
#               gasnet_{put,get}{v,i,s}_{bulk,nb_bulk,nbi_bulk}, the same
#               model) at 2 and, on mpi, ucx and portals (one stage per
#               Core), every `exvis --bad` mode at 2
#               (exvis:bad:MODE: lists whose totals differ, a remote piece
#               outside the segment, LEAF_LC on a get, an unknown flag, a
#               get with peer completion armed; judged as badinput's);
#               ptl: the ptl Portals emulation's own suite (PTL_RUNNER), once,
#               when a stage built on ptl is in STAGES;
#               stress: tests/stress (every Put/Get flavour, sync family and
#               AM category at random, every result checked) at STRESS_NPS
#               processes (2 4; make check-faults: 2 3 4 8), STRESS_OPS
#               operations per node (5000; check-faults 20000), seed
#               STRESS_SEED (12345), STRESS_TIMEOUT (180) seconds per job;
#               mt: tests/mt, a GASNET_PAR client (MT_THREADS (4) threads
#               putting, getting, sending AMs and polling at once, plus a
#               polling thread; MT_ROUNDS (200) rounds; every byte and reply
#               checked) at MT_NPS (2 3) processes, and once per stage
#               started on MPI the client initialised at FUNNELED (refused);
#               mpitraffic: the MPI calls, messages and bytes of a conformance
#               run by phase (tests/pmpi_count.c, linked into
#               conformance_pmpi), once per stage at 2 processes (portals
#               and ucx: 2 and 4); the mpi stage's run phase must show
#               messages, the portals and ucx stages' no MPI communication
#               call;
#               a table stage x phase follows the stages' jobs;
#               report: the comparison report end to end, once
#               (tests/report_e2e.sh: bench/compare.py on a tiny
#               configuration, then every table and figure file of
#               bench/report.py checked); needs TOP_BUILDDIR and gnuplot;
#               clientcompat: a GASNet client (tests/clientcompat/) built
#               and run the way GASNet clients are, against stageport
#               installed (make install DESTDIR=, once): per stage, per
#               threading mode in CLIENT_MODES (seq par parsync), built through
#               the conduit's makefile fragment, run with gasnetrun_<stage>
#               and with plain mpirun and no STAGEPORT_STAGE (the stage the
#               fragment chose must run), and a GASNet-EX program's headers
#               compiled through it; every fragment's variables (GASNet's
#               set, GASNET_DEFINES with -D_GNU_SOURCE=1) and its
#               gasnet-<stage>-<mode>.pc (the same values); the release in
#               gasnet_config.h read as osss-gasnet's configure reads it
#               (at least 1.18.0); once, built with pkg-config (stageport,
#               gasnet-mpi-<mode>)
#               The fault kinds (make check-faults runs them; not in the
#               default list):
#               inject: failures injected into MPI and UCX calls (FAULTLIB,
#               LD_PRELOADed: tests/faultlib.c) must end the job with an error
#               naming what failed, never a silent success or a hang;
#               soak: tests/soak, SOAK_SECONDS (60) of AM + Put/Get flood at
#               2 processes, resident memory sampled: no growth after warm-up;
#               fuzz (once): the libFuzzer targets (tests/fuzz/, ptl/tests/
#               fuzz_ptl_wire.c) of every decoder of bytes from the wire,
#               built with clang (FUZZ_CC): fuzz_ptl_wire FUZZ_SECONDS (60),
#               the two small decoders a quarter of that each (their
#               coverage stops growing within 2 s; ptl_wire's still grows
#               at 45 s);
#               emuhosts (once): scripts/emuhosts.sh suite and linkcut, the
#               stages across emulated hosts (network namespaces, TCP
#               between them; root only), a host's link cut mid-run;
#               valgrind: memcheck over one conformance run at 2 processes: no
#               invalid read or write, no definite leak, in the library's code;
#               tsan (once): a --enable-sanitizers=thread build (TSAN_DIR)
#               of tests/mt, tests/exconf_par and tests/exvis_par, run on every stage at 2 processes (ptl stages
#               in both modes, ucx also over TCP): no ThreadSanitizer report
#               (suppressions: tests/tsan.supp, inside MPI and UCX only);
#               nochecks (once): a --disable-checks --enable-sanitizers build
#               (NOCHECKS_DIR) where bad calls that would corrupt memory
#               (payloads over the maximum, 17 arguments, library handler
#               indices, remote ranges outside the segment) must still end
#               the job with a message, no sanitizer report, no hang
#   UNIT_TESTS  unit test binaries in BINDIR (default: unit_portals_bits unit_credits unit_credits_dyn
#               unit_firehose unit_vis_stride)
#   FAULTLIB    the fault injector (inject), a shared object
#   PTL_RUNNER  ptl's runner script (its PASS/FAIL lines are counted here),
#   PTL_BUILDDIR  and ptl's build directory
#   NPS         process counts for conformance (default: 2 3 4)
#   EXTRAS_NPS  process counts for extras (default: those of NPS up to 3)
#   EXIT_NPS    process counts for exittest (default: 2; make check-faults: 3 4)
#   EXITTEST_EXIT_TIMEOUT  STAGEPORT_EXIT_TIMEOUT for exittest's jobs (default
#               2, the library's own; make check: 1 -- the modes whose
#               peers stay silent wait it out; check-faults keeps 2)
#   EXIT_NPS_ROTATE  1: each stage runs exittest at one of EXIT_NPS, in turn
#               (the k-th stage of STAGES at the (k mod n)-th count: make
#               check-faults, so every count and every stage is covered
#               without every pair; make check runs every stage at 2)
#   EXIT_TABLE  1: print the table of every exittest job at the end (fault,
#               stage, np, exit status, time from the exit call to the end
#               of the job, the message naming the node)
#   CONF_ARGS   conformance subtests to run (default: all)
#   EXCONF_ARGS exconf and exconf_par subtests to run (default: all)
#   EXCONF_NPS  process counts for exconf and exconf_par (default: 2)
#   EXATOMIC_NPS  process counts for exatomic (default: 2 4)
#   EXTEAM_NPS  process counts for exteam (default: 2 4)
#   EXVIS_NPS   process counts for exvis in a stage's first variant (default:
#               2 3; its other variants: the first of them)
#   MODES       badinput/exittest modes to run (default: all)
#   EXIT_TCP_MODES  the exittest modes of the variants variants.txt gives
#               "exittest:net" (the tcp and ptl host-mode ones; default: the ones whose
#               outcome depends on the transport or the ptl mode -- exits
#               racing traffic, in handlers, before attach, crashes; the
#               others run on every stage's default variant here and at 3
#               or 4 processes -- one per stage, in turn -- in
#               check-faults); "all" for every mode
#               (a variant's "conformance:2": conformance only at
#               those of NPS; "stress:4": stress only at those of
#               STRESS_NPS; "badinput:stage": only the stage's own
#               badinput jobs -- UCX unreachable, settings that disagree --
#               not the API layer's argument checks, which its stage's
#               first variant runs)
#   CONF_TIMEOUT, BAD_TIMEOUT, EXIT_TIMEOUT, EXTRAS_TIMEOUT, EXCONF_TIMEOUT   seconds per job (90, 20, 20, 60, 120)
#   STAGE_BUDGET seconds per stage (default 420; a stage normally needs
#               about 75): once used up, the stage's remaining jobs FAIL
#               without running, so a library that hangs everywhere cannot
#               keep the suite busy for long
#   LOGDIR      where job outputs are kept (default: BINDIR/suite-logs)
#   MAKE        make, for clientcompat (its install and client builds)
#   CLIENT_PREFIX, CLIENT_LIBDIR  (clientcompat) the configured prefix and
#               libdir: the staged installation is LOGDIR/clientcompat/root
#               followed by them
#   CLIENT_MODES, CLIENT_TIMEOUT  (clientcompat) threading modes (seq par parsync),
#               seconds per job (30)
#   MPIRUN_FLAGS extra launcher flags
set -u

here=$(cd "$(dirname "$0")" && pwd)
MPIRUN=${MPIRUN:-mpirun}
BINDIR=${BINDIR:-$here}
STAGES=${STAGES:-mpi}
TESTS=${TESTS:-tree unit ptl conformance extras exconf exatomic exteam exvis badinput exittest stress mt mpitraffic clientcompat report}
TOP_SRCDIR=${TOP_SRCDIR:-$here/..}
TOP_BUILDDIR=${TOP_BUILDDIR:-}
NOCHECKS_DIR=${NOCHECKS_DIR:-${TOP_BUILDDIR:-$BINDIR/..}/nochecks-build}
TSAN_DIR=${TSAN_DIR:-${TOP_BUILDDIR:-$BINDIR/..}/tsan-build}
SOAK_SECONDS=${SOAK_SECONDS:-60}
STRESS_NPS=${STRESS_NPS:-2 4}
STRESS_OPS=${STRESS_OPS:-5000}
STRESS_SEED=${STRESS_SEED:-12345}
STRESS_TIMEOUT=${STRESS_TIMEOUT:-180}
MT_NPS=${MT_NPS:-2 3}
MT_THREADS=${MT_THREADS:-4}
MT_ROUNDS=${MT_ROUNDS:-200}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_CC=${FUZZ_CC:-clang}
UNIT_TESTS=${UNIT_TESTS:-unit_portals_bits unit_credits unit_credits_dyn unit_firehose unit_vis_stride}
PTL_RUNNER=${PTL_RUNNER:-}
NPS=${NPS:-2 3 4}
EXTRAS_NPS=${EXTRAS_NPS:-$(for n in $NPS; do [ "$n" -le 3 ] && printf '%s ' "$n"; done)}
EXIT_NPS=${EXIT_NPS:-2}
EXIT_NPS_ROTATE=${EXIT_NPS_ROTATE:-0}
EXIT_TABLE=${EXIT_TABLE:-0}
CONF_ARGS=${CONF_ARGS:-}
MODES=${MODES:-}
EXIT_TCP_MODES=${EXIT_TCP_MODES:-exit_busy exit_in_handler exit_during_flood exit_all_different exit_before_attach exit_inflight exit_inflight_am crash_kill crash_segv_busy}
CONF_TIMEOUT=${CONF_TIMEOUT:-90}
BAD_TIMEOUT=${BAD_TIMEOUT:-20}
EXIT_TIMEOUT=${EXIT_TIMEOUT:-20}
EXTRAS_TIMEOUT=${EXTRAS_TIMEOUT:-60}
EXCONF_TIMEOUT=${EXCONF_TIMEOUT:-120}
EXCONF_NPS=${EXCONF_NPS:-2}
EXATOMIC_NPS=${EXATOMIC_NPS:-2 4}
EXTEAM_NPS=${EXTEAM_NPS:-2 4}
EXVIS_NPS=${EXVIS_NPS:-2 3}
EXCONF_ARGS=${EXCONF_ARGS:-}
LOGDIR=${LOGDIR:-$BINDIR/suite-logs}
STAGE_BUDGET=${STAGE_BUDGET:-420}
MAKE=${MAKE:-make}
CLIENT_PREFIX=${CLIENT_PREFIX:-}
CLIENT_LIBDIR=${CLIENT_LIBDIR:-${CLIENT_PREFIX:+$CLIENT_PREFIX/lib}}
CLIENT_MODES=${CLIENT_MODES:-seq par parsync}
CLIENT_TIMEOUT=${CLIENT_TIMEOUT:-30}
VARIANTS=${VARIANTS:-}
VARIANT_FILE=${VARIANT_FILE:-$here/variants.txt}
EXITTEST_EXIT_TIMEOUT=${EXITTEST_EXIT_TIMEOUT:-2} # exittest's STAGEPORT_EXIT_TIMEOUT (make check: 1)
EXIT_BOUND=5    # a job ends within 5 s of gasnet_exit
CRASH_BOUND=10  # and within 10 s of a crash

# mpirun refuses to run as root without these
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export UCX_WARN_UNUSED_ENV_VARS=n
# checked by conformance's "getenv" subtest
export STP_TEST_GETENV="conformance value with spaces=1:2"

# Launcher flags.  Open MPI: --oversubscribe (more ranks than cores: the
# suite runs 4 processes on 2 cores), --bind-to none (oversubscribed ranks
# must be free to move between cores; the library yields in its waits),
# -x to pass the variables the tests read to every rank.  The vader BTL's
# single-copy mechanism (CMA) is left at its default: the tests do not need
# `--mca btl_vader_single_copy_mechanism none` here.
# And Open MPI's point-to-point layer named: ob1 (with its BTLs) is what it
# selects here anyway, but left to choose, every MPI_Init first loads and
# probes the PSM/PSM2 MTL libraries (cm), which costs each job ~0.2 s --
# minutes over a suite of 1500 jobs.  (OMPI_MCA_pml=... to choose another.)
# And no grace between the launcher's SIGTERM and its SIGKILL: once a
# process ends with a non-zero code, Open MPI terminates the rest of the
# job and then sleeps odls_base_sigkill_timeout (1 s) before the SIGKILL
# whether or not anybody is left; stageport does not catch SIGTERM, so the
# wait only delays the end of every job that exits non-zero (exittest,
# badinput: ~1 s each, some 300 jobs here).  The codes and messages are the
# same.
launcher_flags=()
if "$MPIRUN" --version 2>&1 | grep -qi 'open mpi\|openrte'; then
  export OMPI_MCA_pml=${OMPI_MCA_pml:-ob1}
  export OMPI_MCA_odls_base_sigkill_timeout=${OMPI_MCA_odls_base_sigkill_timeout:-0}
  launcher_flags=(--oversubscribe --bind-to none -x STAGEPORT_STAGE)
  for v in STP_TEST_GETENV UCX_WARN_UNUSED_ENV_VARS CONF_WATCHDOG CONF_TIMES CONF_FLOOD CONF_MANY \
           EXCONF_WATCHDOG EXCONF_TIMES EXCONF_FLOOD_ATTEMPTS EXCONF_THREADS EXCONF_ROUNDS \
           STAGEPORT_WAITMODE STAGEPORT_EXIT_TIMEOUT STAGEPORT_MAX_SEGSIZE; do
    if [ -n "${!v+set}" ]; then launcher_flags+=(-x "$v"); fi
  done
fi
# shellcheck disable=SC2206
launcher_flags+=(${MPIRUN_FLAGS:-})

npass=0
nfail=0
mkdir -p "$LOGDIR"
rm -f "$LOGDIR/exit-table.md" "$LOGDIR/mpitraffic-table.txt"
declare -A np_time=()
suite_t0=$(date +%s.%N)

fsub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# run_job TIMEOUT LOG NP PROGRAM ARGS...: sets RC, T_END, ELAPSED
# (RC=125 without running when the stage's time budget is used up)
run_job() {
  local to=$1 log=$2 np=$3
  shift 3
  local t0
  t0=$(date +%s.%N)
  if [ "$(fsub "$stage_t0" "$t0" | cut -d. -f1)" -ge "$STAGE_BUDGET" ]; then
    echo "not run: stage $tag used up its time budget of ${STAGE_BUDGET}s" >"$log"
    RC=125 T_END=$t0 ELAPSED=0.0
    return
  fi
  export STAGEPORT_STAGE="$stage"
  # (timeout -k 5 that first records where a hung job's processes are: hangwatch.sh)
  bash "$here/hangwatch.sh" "$to" "$log" "$MPIRUN" "${launcher_flags[@]}" "${variant_flags[@]}" -np "$np" "$@" >"$log" 2>&1 </dev/null
  RC=$?
  T_END=$(date +%s.%N)
  ELAPSED=$(fsub "$t0" "$T_END")
  JOB_TIMEOUT=$to
  np_time[$np]=$(awk -v a="${np_time[$np]:-0}" -v b="$ELAPSED" 'BEGIN { printf "%.1f", a + b }')
}
# timeout says 124, or 137 when its SIGKILL was needed; a job whose own
# process was killed (137 too) ends well before the limit
timed_out() {
  [ "$RC" = 124 ] || { [ "$RC" = 137 ] && awk -v e="$ELAPSED" -v t="$JOB_TIMEOUT" 'BEGIN { exit !(e >= t) }'; }
}
# a job skipped for the budget is a FAIL of its own kind
skipped() {
  if [ "$RC" = 125 ] && grep -q '^not run: ' "$2"; then
    echo "FAIL stage=$tag np=$1 $3 (not run: the stage used up its time budget of ${STAGE_BUDGET}s)"
    nfail=$((nfail + 1))
    return 0
  fi
  return 1
}

pass() { # name np
  echo "PASS stage=$tag np=$2 $1 [${ELAPSED}s]"
  npass=$((npass + 1))
}
fail() { # name np reason log [pattern]
  echo "FAIL stage=$tag np=$2 $1 ($3) [${ELAPSED}s]"
  nfail=$((nfail + 1))
  if [ -n "${5:-}" ] && grep -qE "$5" "$4"; then
    grep -E "$5" "$4" | head -n 30 | sed 's/^/    | /'
    echo "    | ... last lines:"
  fi
  tail -n 20 "$4" | sed 's/^/    | /'
  echo "    (full output: $4)"
}

list_of() { # program: its modes/subtests (lines of --list output starting with 2 spaces)
  STAGEPORT_STAGE="$stage" "$BINDIR/$1" --list | awk '/^  [a-z]/ { print $1 }'
}
selected_modes() { # program
  local all m
  all=$(list_of "$1")
  if [ -z "$MODES" ]; then echo "$all"; return; fi
  for m in $MODES; do
    if echo "$all" | grep -qx "$m"; then echo "$m"; fi
  done
}

# ---------------------------------------------------------------- conformance
# conf_ok NAME NP LOG: the verdict on a conformance run (the job just run):
# 0 if it passed; else a FAIL line is printed
conf_ok() {
  local name=$1 np=$2 log=$3 want oks fails used
  # shellcheck disable=SC2086
  if [ -n "$CONF_ARGS" ]; then want=$(echo $CONF_ARGS | wc -w); else want=$(list_of conformance | wc -l); fi
  oks=$(grep -c '^ok ' "$log")
  fails=$(grep -c '^FAIL ' "$log")
  used=$(sed -n 's/^# conformance: stage=\([^ ]*\).*/\1/p' "$log" | head -n 1)
  if timed_out; then
    fail "$name" "$np" "timeout after ${CONF_TIMEOUT}s: hang; $oks of $want subtests passed before it" "$log" '^FAIL '
  elif [ "$fails" -gt 0 ]; then
    fail "$name" "$np" "$fails FAIL lines, exit status $RC" "$log" '^FAIL '
  elif [ "$RC" != 0 ]; then
    fail "$name" "$np" "exit status $RC" "$log"
  elif [ "$oks" != "$want" ]; then
    fail "$name" "$np" "$oks subtests reported ok, expected $want" "$log"
  elif [ -n "$used" ] && [ "$used" != "$stage" ]; then
    fail "$name" "$np" "ran stage \"$used\", not \"$stage\"" "$log"
  else
    return 0
  fi
  return 1
}
run_conformance() { # np
  local np=$1 name=conformance log="$LOGDIR/$logtag/np$1-conformance.log"
  # shellcheck disable=SC2086
  run_job "$CONF_TIMEOUT" "$log" "$np" "$BINDIR/conformance" $CONF_ARGS
  skipped "$np" "$log" "$name" && return
  conf_ok "$name" "$np" "$log" && pass "$name" "$np"
}

# The Portals Core's Long payload events late (the test knob
# STAGEPORT_AM_LATE_SEND_END=1): conformance am_long_reuse, where each
# blocking Long follows one whose SEND_END nobody waits for; those SEND_ENDs
# come after their replies, while that Long's payload is still to be sent,
# and its source, overwritten on return, is checked byte by byte by the
# handler.  Every node must report SEND_ENDs kept back and Puts held: the
# order was forced, not hoped for.
run_late_send_end() { # np
  local np=$1 name="conformance:am_long_reuse late SEND_END" log="$LOGDIR/$logtag/np$1-late-send-end.log" forced
  run_job "$CONF_TIMEOUT" "$log" "$np" -x STAGEPORT_AM_LATE_SEND_END=1 "$BINDIR/conformance" am_long_reuse
  skipped "$np" "$log" "$name" && return
  CONF_ARGS=am_long_reuse conf_ok "$name" "$np" "$log" || return
  forced=$(grep -c 'STAGEPORT_AM_LATE_SEND_END: [1-9][0-9]* SEND_ENDs kept back, [1-9][0-9]* payload Puts held' "$log")
  if [ "$forced" != "$np" ]; then
    fail "$name" "$np" "$forced of $np nodes kept SEND_ENDs back and held Puts: the late order was not forced" "$log"
  else
    pass "$name" "$np"
  fi
}

# ---------------------------------------------------------------- extras
# tests/extras: its "FAIL extras: node N: ..." lines, exit status 0 and
# node 0's "ok extras: ..." line
run_extras() { # np
  local np=$1 name=extras log="$LOGDIR/$logtag/np$1-extras.log" fails used
  run_job "$EXTRAS_TIMEOUT" "$log" "$np" "$BINDIR/extras"
  skipped "$np" "$log" "$name" && return
  fails=$(grep -c '^FAIL ' "$log")
  used=$(sed -n 's/^ok extras: .* stage=\([^,]*\),.*/\1/p' "$log" | head -n 1)
  if timed_out; then
    fail "$name" "$np" "timeout after ${EXTRAS_TIMEOUT}s: hang" "$log" '^FAIL '
  elif [ "$fails" -gt 0 ]; then
    fail "$name" "$np" "$fails FAIL lines, exit status $RC" "$log" '^FAIL '
  elif [ "$RC" != 0 ]; then
    fail "$name" "$np" "exit status $RC" "$log"
  elif ! grep -q '^ok extras' "$log"; then
    fail "$name" "$np" "no \"ok extras\" line" "$log"
  elif [ "$used" != "$stage" ]; then
    fail "$name" "$np" "ran stage \"$used\", not \"$stage\"" "$log"
  else
    pass "$name ($(sed -n 's/^ok extras: \(conduit [^ ]*\).*/\1/p' "$log" | head -n 1))" "$np"
  fi
}

# ---------------------------------------------------------------- exconf
# tests/exconf and tests/exconf_par: rank 0's "ok NAME" line for every
# subtest (--list, or EXCONF_ARGS), no "not ok NAME" or "FAIL NAME:" line,
# exit status 0, the stage named in the first line ("# exconf: stage=...");
# exconf's (exvis's) PASS line carries the IMMEDIATE refusals the job saw
# ("# exconf: immediate refusals N").  run_exconf NP PROGRAM [LABEL [launcher flags...]]
run_exconf() {
  local np=$1 prog=$2 name=${3:-$2} log want oks fails used refused
  shift 2
  [ $# -gt 0 ] && shift
  log="$LOGDIR/$logtag/np$np-${name//[:\/]/-}.log"
  # shellcheck disable=SC2086
  run_job "$EXCONF_TIMEOUT" "$log" "$np" "$@" "$BINDIR/$prog" $EXCONF_ARGS
  skipped "$np" "$log" "$name" && return
  # shellcheck disable=SC2086
  if [ -n "$EXCONF_ARGS" ]; then want=$(echo $EXCONF_ARGS | wc -w); else want=$(list_of "$prog" | wc -l); fi
  oks=$(grep -c '^ok ' "$log")
  fails=$(grep -cE '^not ok |^FAIL ' "$log")
  used=$(sed -n "s/^# $prog: stage=\([^ ]*\).*/\1/p" "$log" | head -n 1)
  refused=$(sed -n "s/^# \\(exconf\\|$prog\\): immediate refusals \\([0-9]*\\).*/\\2/p" "$log" | head -n 1)
  if timed_out; then
    fail "$name" "$np" "timeout after ${EXCONF_TIMEOUT}s: hang; $oks of $want subtests passed before it" "$log" \
      '^not ok |^FAIL '
  elif grep -q 'WARNING: ThreadSanitizer' "$log"; then
    fail "$name" "$np" "a ThreadSanitizer report" "$log" 'ThreadSanitizer|^    #|^  [A-Z]'
  elif [ "$fails" -gt 0 ]; then
    fail "$name" "$np" "$fails failure lines, exit status $RC" "$log" '^not ok |^FAIL '
  elif [ "$RC" != 0 ]; then
    fail "$name" "$np" "exit status $RC" "$log"
  elif [ "$oks" != "$want" ]; then
    fail "$name" "$np" "$oks subtests reported ok, expected $want" "$log"
  elif [ "$used" != "$stage" ]; then
    fail "$name" "$np" "ran stage \"$used\", not \"$stage\"" "$log"
  else
    pass "$name${refused:+ (immediate refusals $refused)}" "$np"
  fi
}
# the stage's smallest AM credits (README's environment table), as
# launcher flags
exconf_tight_flags() {
  case $stage in
    mpi | hybrid | ucx-mpi) echo "-x STAGEPORT_AM_CREDITS=2" ;;
    portals | firehose) echo "-x STAGEPORT_CREDITS=static -x STAGEPORT_AM_CREDITS=33" ;;
    ucx) echo "-x STAGEPORT_AM_CREDITS=65 -x STAGEPORT_AM_MAILBOX=2 -x STAGEPORT_AM_BIGBOX=1" ;;
  esac
}

# ---------------------------------------------------------------- mpitraffic
# The MPI calls a stage makes, by phase: conformance_pmpi (conformance with
# tests/pmpi_count.c linked in) marks the phases init, attach (gasnet_attach),
# run (from the attach barrier on) and exit (gasnet_exit); every rank writes
# its counts to STP_PMPI_OUT.<rank>.  Once per stage (its default
# environment), at 2 processes (portals and ucx: 2 and 4).  The conformance run must
# pass; every rank must report a run phase; the mpi stage's run phase must
# have messages (the counter counts); the portals and ucx stages' run phases must
# have no MPI communication call on any rank (a failure names the calls).
# Each job adds its rows (sums over the ranks) to the table printed after.
# First, once, the counter's own check (pmpi_selftest: known MPI calls on
# every rank, their counts and report line compared).
run_pmpi_selftest() {
  local np=2 name="mpitraffic:selftest" log="$LOGDIR/$logtag/np2-pmpi-selftest.log"
  rm -f "$LOGDIR/$logtag"/np2-pmpi-selftest.pmpi.*
  STP_PMPI_OUT="$LOGDIR/$logtag/np2-pmpi-selftest.pmpi" run_job "$BAD_TIMEOUT" "$log" "$np" -x STP_PMPI_OUT \
    "$BINDIR/pmpi_selftest"
  if timed_out; then
    fail "$name" "$np" "timeout after ${BAD_TIMEOUT}s: hang" "$log"
  elif [ "$RC" != 0 ] || grep -q '^FAIL' "$log" || ! grep -q '^ok pmpi_selftest' "$log"; then
    fail "$name" "$np" "exit status $RC: the counter miscounts" "$log" '^FAIL'
  else
    pass "$name (persistent, nonblocking, collective and one-sided calls counted exactly)" "$np"
  fi
}
mpitraffic_rows() { # reports...: "phase calls comm_calls msgs bytes", sums, phases in order
  awk '{ split("", v)
         for (i = 1; i <= NF; i++) { k = $i; sub(/=.*/, "", k); x = $i; sub(/^[^=]*=/, "", x); v[k] = x }
         p = v["phase"]
         if (!(p in c)) order[n++] = p
         c[p] += v["calls"]; cc[p] += v["comm_calls"]; m[p] += v["msgs"]; b[p] += v["bytes"] }
       END { for (i = 0; i < n; i++) { p = order[i]; printf "%s %.0f %.0f %.0f %.0f\n", p, c[p], cc[p], m[p], b[p] } }' "$@"
}
run_mpitraffic() { # np
  local np=$1 name="mpitraffic" log="$LOGDIR/$logtag/np$1-mpitraffic.log" out="$LOGDIR/$logtag/np$1-mpitraffic.pmpi"
  local summary="$LOGDIR/$logtag/np$1-mpitraffic.summary" r missing="" norun="" busy=""
  rm -f "$out".* "$summary"
  # shellcheck disable=SC2086
  STP_PMPI_OUT=$out run_job "$CONF_TIMEOUT" "$log" "$np" -x STP_PMPI_OUT "$BINDIR/conformance_pmpi" $CONF_ARGS
  skipped "$np" "$log" "$name" && return
  conf_ok "$name" "$np" "$log" || return
  for ((r = 0; r < np; r++)); do
    if [ ! -f "$out.$r" ]; then missing="$missing $r"; continue; fi
    sed "s/^/rank $r: /" "$out.$r" >>"$summary"
    grep -q '^phase=run ' "$out.$r" || norun="$norun $r"
    # the run phase's communication calls on this rank, and their names
    busy="$busy$(awk -v r="$r" '/^phase=run / { for (i = 1; i <= NF; i++) {
           if ($i ~ /^comm_calls=/) n = substr($i, 12); if ($i ~ /^names=/) w = substr($i, 7) }
         if (n > 0) printf "; rank %d: %s (%s)", r, n, w }' "$out.$r")"
  done
  if [ -n "$missing" ]; then
    fail "$name" "$np" "no MPI traffic report from rank(s)$missing ($out.<rank>): is the counter linked in?" "$log"
    return
  fi
  local rows run
  rows=$(mpitraffic_rows "$out".*)
  echo "$rows" | while read -r ph calls comm msgs bytes; do
    printf '%-16s %2s  %-8s %10s %10s %10s %12s\n' "$tag" "$np" "$ph" "$calls" "$comm" "$msgs" "$bytes"
  done >>"$LOGDIR/mpitraffic-table.txt"
  run=$(echo "$rows" | awk '$1 == "run" { printf "%s MPI calls, %s communication, %s messages", $2, $3, $4 }')
  if [ -n "$norun" ]; then
    fail "$name" "$np" "no run phase in the report of rank(s)$norun: conformance did not mark its phases" "$summary"
  elif [ "$stage" = mpi ] && [[ $run == *", 0 messages" ]]; then
    fail "$name" "$np" "the counter saw no MPI message in the mpi stage's run phase: it does not count" "$summary"
  elif { [ "$stage" = portals ] || [ "$stage" = ucx ]; } && [ -n "$busy" ]; then
    fail "$name" "$np" "MPI communication calls between the attach barrier and gasnet_exit${busy}" "$summary"
  else
    pass "$name (run phase: $run)" "$np"
  fi
}

# ---------------------------------------------------------------- badinput
# Every EXPECT fragment must appear in one line of output (EXPECT lines
# themselves excluded): "sub" as a substring, "word" as a whole word; any case.
expect_ok() { # log
  awk 'BEGIN { n = 0 }  # (n as a number from the start: k[0], not k[""], is the first fragment)
       FNR == NR { if (match($0, /EXPECT (sub|word) [^ ]+/)) {
                     split(substr($0, RSTART, RLENGTH), f, " "); k[n] = f[2]; v[n] = tolower(f[3]); n++ }
                   next }
       /EXPECT (sub|word) / { next }
       { l = tolower($0); ok = 1
         for (i = 0; i < n; i++) {
           if (k[i] == "sub") { if (index(l, v[i]) == 0) ok = 0 }
           else if (l !~ ("(^|[^0-9a-z_])" v[i] "([^0-9a-z_]|$)")) ok = 0
         }
         if (ok) found = 1 }
       END { exit (n > 0 && found) ? 0 : 1 }' "$1" "$1"
}
# run_bad_job NAME LOG NP COMMAND...: a job whose bad call must end it with
# an error naming what badinput.c-style "EXPECT sub|word X" lines say
run_bad_job() {
  local name=$1 log=$2 np=$3 frags
  shift 3
  run_job "$BAD_TIMEOUT" "$log" "$np" "$@"
  skipped "$np" "$log" "$name" && return
  frags=$(grep -o 'EXPECT \(sub\|word\) [^ ]*' "$log" | awk '{ printf "%s\"%s\"", sep, $3; sep = " + " }')
  if timed_out; then
    fail "$name" "$np" "timeout after ${BAD_TIMEOUT}s: the job hung instead of failing" "$log"
  elif [ "$RC" = 0 ]; then
    fail "$name" "$np" "exit status 0: the bad call did not end the job with an error" "$log"
  elif [ -z "$frags" ]; then
    fail "$name" "$np" "exit status $RC before the bad call was made" "$log"
  elif ! expect_ok "$log"; then
    fail "$name" "$np" "exit status $RC, but no line of output names $frags" "$log"
  else
    pass "$name" "$np"
  fi
}
run_badinput() { # mode
  run_bad_job "badinput:$1" "$LOGDIR/$logtag/np2-badinput-$1.log" 2 "$BINDIR/badinput" "$1"
}
# exatomic --bad MODE (exteam --bad MODE: PROGRAM exteam; exvis --bad MODE:
# PROGRAM exvis): an invalid remote-atomics (team, VIS) call, judged as
# badinput's
run_exatomic_bad() { # mode [program]
  local prog=${2:-exatomic}
  run_bad_job "$prog:bad:$1" "$LOGDIR/$logtag/np2-$prog-bad-$1.log" 2 "$BINDIR/$prog" --bad "$1"
}

# A UCX stage whose transports reach no peer (UCX_TLS=self) must fail at
# attach with a message naming the UCX status and what was being done.
run_ucx_unreachable() {
  local np=2 name="badinput:ucx_tls_unreachable" log="$LOGDIR/$logtag/np2-badinput-ucx-unreachable.log"
  UCX_TLS=self run_job "$BAD_TIMEOUT" "$log" "$np" -x UCX_TLS "$BINDIR/conformance"
  skipped "$np" "$log" "$name" && return
  if timed_out; then
    fail "$name" "$np" "timeout after ${BAD_TIMEOUT}s: the job hung instead of failing" "$log"
  elif [ "$RC" = 0 ]; then
    fail "$name" "$np" "exit status 0 with UCX_TLS=self: no error reported" "$log"
  elif ! grep -q "stageport: ucx (.*): creating the endpoint to rank [0-9]*: Destination is unreachable \[UCX_TLS=self\]" "$log"; then
    fail "$name" "$np" "exit status $RC, but no 'stageport: ucx ... Destination is unreachable [UCX_TLS=self]' line" "$log"
  else
    pass "$name" "$np"
  fi
}

# A setting every node must share, given another value on node 1 (two
# programs in one launch, MPMD): the job must end non-zero, within its time,
# with the error naming the variable -- never a hang in a collective the
# others skipped, nor a node writing past another's memory.
run_mismatch() { # VAR VALUE0 VALUE1
  local var=$1 v0=$2 v1=$3 name="badinput:mismatch_$1=$2/$3" log="$LOGDIR/$logtag/np2-badinput-mismatch-$1-$2-$3.log"
  run_job "$BAD_TIMEOUT" "$log" 1 -x "$var=$v0" "$BINDIR/conformance" am_short_args am_flood : \
    -np 1 -x STAGEPORT_STAGE ${variant_flags[@]+"${variant_flags[@]}"} -x "$var=$v1" "$BINDIR/conformance" am_short_args am_flood
  skipped 2 "$log" "$name" && return
  if timed_out; then
    fail "$name" 2 "timeout after ${BAD_TIMEOUT}s: the job hung instead of failing" "$log"
  elif [ "$RC" = 0 ]; then
    fail "$name" 2 "exit status 0: nodes ran with different $var" "$log"
  elif ! grep -q "fatal error: .*$var differs between nodes (node 0: $v0, node 1: $v1)" "$log"; then
    fail "$name" 2 "exit status $RC, but no error names $var and both values" "$log"
  else
    pass "$name" 2
  fi
}
run_mismatches() {
  [ "$stage" != mpi ] && run_mismatch STAGEPORT_STAGE "$stage" mpi
  run_mismatch STAGEPORT_AD_IMPL native reference
  case $stage in
    mpi | ucx-mpi | hybrid) run_mismatch STAGEPORT_AM_CREDITS 32 64 ;;
    ucx)
      run_mismatch STAGEPORT_AM_MAILBOX 32 64
      run_mismatch STAGEPORT_AM_MAILBOX 32 0
      run_mismatch STAGEPORT_AM_LONG rma am
      ;;
    portals | firehose)
      run_mismatch STAGEPORT_CREDITS static dynamic
      run_mismatch STAGEPORT_AM_LONG tsr pss
      ;;
  esac
}

# ---------------------------------------------------------------- inject
# A job with an injected fault (faultlib.c, FAULT_* in the environment)
# must end non-zero within its time, with a line matching PATTERN -- the
# error that names what failed -- and no watchdog line.
# run_inject NAME NP PATTERN VAR=value... -- PROGRAM ARGS...
run_inject() {
  local name="inject:$1" np=$2 pat=$3 log="$LOGDIR/$logtag/np$2-inject-$1.log" flags=(-x LD_PRELOAD="$FAULTLIB")
  shift 3
  while [ "$1" != -- ]; do
    export "${1?}"
    flags+=(-x "${1%%=*}")
    shift
  done
  shift
  run_job "$CONF_TIMEOUT" "$log" "$np" "${flags[@]}" "$@"
  for f in "${flags[@]}"; do case $f in FAULT_* | UCX_TLS* | STAGEPORT_*) unset "${f%%=*}" ;; esac; done
  skipped "$np" "$log" "$name" && return
  if timed_out || grep -q 'watchdog' "$log"; then
    fail "$name" "$np" "the job hung after the injected fault instead of failing" "$log" 'faultlib|watchdog'
  elif ! grep -q '^faultlib: .*injected' "$log"; then
    fail "$name" "$np" "the fault was never injected (exit status $RC)" "$log"
  elif [ "$RC" = 0 ]; then
    fail "$name" "$np" "exit status 0: the injected failure went unnoticed" "$log" 'faultlib'
  elif ! grep -Eq "$pat" "$log"; then
    fail "$name" "$np" "exit status $RC, but no line names the failure (/$pat/)" "$log"
  else
    pass "$name" "$np"
  fi
}
run_injects() {
  if [ -z "${FAULTLIB:-}" ] || [ ! -f "$FAULTLIB" ]; then
    echo "FAIL stage=$tag inject (no fault injector: FAULTLIB=${FAULTLIB:-unset})"
    nfail=$((nfail + 1))
    return
  fi
  # The MPI Core's traffic (not `portals` nor `ucx`: they make no MPI call
  # after attach)
  if [ "$stage" != portals ] && [ "$stage" != ucx ]; then
    # a client that set MPI_ERRORS_RETURN on MPI_COMM_WORLD, and an MPI_Isend
    # of the library's that fails mid-run
    run_inject mpi_isend_errors_return 2 "stageport: rank 1: .*MPI.*fail|MPI_Isend failed" \
      FAULT_MPI_ERRORS_RETURN=1 FAULT_MPI_ISEND_AT=3000 FAULT_RANK=1 -- "$BINDIR/conformance"
    # silent corruption on the wire (the last byte flipped in 20 messages or
    # puts in a row; one alone may land on bytes overwritten before they are
    # read): no library can notice that, but the stress test must -- the
    # proof that its checks check
    run_inject stress_sees_corrupt_message 3 "^FAIL stress: node [0-9]+: .*wrong|^FAIL stress: node [0-9]+: .*expected" \
      FAULT_MPI_ISEND_CORRUPT_AT=1000 FAULT_CORRUPT_COUNT=20 FAULT_RANK=1 -- "$BINDIR/stress" --ops 5000
  fi
  local named="stageport: node 0: fatal error: .*(fail|drop)|ptl \(rank 0\): fatal"
  case $stage in
    ucx | ucx-mpi | hybrid | portals)
      # a UCX put that fails at once (ucx: the AM mailbox's puts too)
      run_inject ucx_put_fails 2 "$named" FAULT_UCP_PUT_AT=100 FAULT_RANK=0 -- "$BINDIR/conformance"
      # silent corruption of the Extended API's puts (ucx: with the AM
      # mailbox off, so that AMs take no puts and the corruption lands in
      # the data the stress test checks)
      run_inject stress_sees_corrupt_put 3 "^FAIL stress: node [0-9]+: .*wrong" \
        STAGEPORT_AM_MAILBOX=0 FAULT_UCP_PUT_CORRUPT_AT=300 FAULT_CORRUPT_COUNT=20 FAULT_RANK=1 \
        -- "$BINDIR/stress" --ops 5000
      ;;
  esac
  if [ "$stage" = ucx ]; then
    # corrupted AM mailbox puts (images, stamps, Long payloads by RMA): the
    # stress test sees wrong data, or the receiver's checks end the job (a
    # Long destination outside the segment, a stamp past the one due)
    run_inject stress_sees_corrupt_mailbox 3 \
      "^FAIL stress: node [0-9]+: .*wrong|^FAIL stress: node [0-9]+: .*expected|fatal error: AM (Long destination .*outside|mailbox: node [0-9]+ overran)" \
      FAULT_UCP_PUT_CORRUPT_AT=300 FAULT_CORRUPT_COUNT=20 FAULT_RANK=1 -- "$BINDIR/stress" --ops 5000
  fi
  case $stage in
    ucx | hybrid | portals)
      # a UCX operation that fails after it started (its final status), on
      # a real network path where operations take requests: a Put's send,
      # a flush, a Get's reply (portals, ucx: an AM's send too)
      local at
      for at in 20 200; do
        run_inject "ucx_status_$at" 2 "$named" UCX_TLS=tcp,self FAULT_UCP_STATUS_AT=$at FAULT_RANK=0 \
          -- "$BINDIR/conformance"
      done
      ;;
  esac
}

# ---------------------------------------------------------------- builds aside
# build_aside KIND DIR TEST configure-options...: a build of its own in DIR
# (scripts/build.sh) and its tests/TEST; a failure is one FAIL line (with
# the log's tail) and status 1.
build_aside() { # kind dir "programs..." configure-args...
  local kind=$1 dir=$2 prog=$3 log="$LOGDIR/$1/build.log"
  shift 3
  echo "# $kind: building $dir ($*)"
  # shellcheck disable=SC2086 # (programs: a word list)
  if ! bash "$TOP_SRCDIR/scripts/build.sh" "$dir" "$@" >"$log" 2>&1 ||
    ! make -C "$dir/tests" $prog >>"$log" 2>&1; then
    echo "FAIL $kind build (see $log)"
    tail -n 20 "$log" | sed 's/^/    | /'
    nfail=$((nfail + 1))
    return 1
  fi
}

# ---------------------------------------------------------------- nochecks
# Checks off removes argument reports, not memory safety.  In a build
# without checks and with AddressSanitizer + UBSan, each bad call must end
# the job (non-zero, no hang) with a line matching PATTERN and no sanitizer
# report.  run_nochecks STAGE MODE PATTERN
run_nochecks() {
  local st=$1 mode=$2 pat=$3 name="nochecks:$1:$2" log="$LOGDIR/nochecks/$1-$2.log"
  stage=$st tag="nochecks/$st"
  run_job "$BAD_TIMEOUT" "$log" 2 -x ASAN_OPTIONS -x UBSAN_OPTIONS "$NOCHECKS_DIR/tests/badinput" "$mode"
  if timed_out; then
    fail "$name" 2 "timeout after ${BAD_TIMEOUT}s: the job hung instead of failing" "$log"
  elif [ "$RC" = 0 ]; then
    fail "$name" 2 "exit status 0: the bad call was not stopped" "$log"
  elif grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log"; then
    fail "$name" 2 "a sanitizer report: memory was misused before the library stopped the call" "$log" 'Sanitizer|runtime error'
  elif ! grep -Eq "$pat" "$log"; then
    fail "$name" 2 "exit status $RC, but no line matches /$pat/" "$log"
  else
    pass "$name" 2
  fi
}
run_nochecks_all() {
  local st
  mkdir -p "$LOGDIR/nochecks"
  stage_t0=$(date +%s.%N)
  # (--disable-shared: badinput links the archive anyway; half the compiling)
  build_aside nochecks "$NOCHECKS_DIR" badinput --disable-checks --enable-sanitizers --enable-werror --disable-shared ||
    return
  export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  for st in $STAGES; do
    variant_flags=()
    # the maxima + 1: the MPI Core's 65536 for Medium and Long; the Portals
    # Core's 8192 and 1 MiB; the UCX Core's 65536 and INT_MAX - 128
    local med=65537 lng=65537
    [ "$st" = portals ] && med=8193 lng=1048577
    [ "$st" = ucx ] && lng=2147483520
    run_nochecks "$st" medium_too_big "AM_?RequestMedium.*$med"
    run_nochecks "$st" long_too_big "AM_?RequestLong.*$lng"
    run_nochecks "$st" reply_medium_too_big "AM_?ReplyMedium.*$med"
    run_nochecks "$st" nargs "AM_?RequestShort.*17"
    run_nochecks "$st" reserved_handler_request "AM_?RequestShort.* 2 "
    run_nochecks "$st" reserved_handler_reply "AM_?ReplyMedium.* 11 "
    # a node index past the job indexes every backend's per-node tables
    run_nochecks "$st" node_range "(gasnet_put|gex_RMA_PutBlocking): (node|rank) [0-9]+ out of range"
    run_nochecks "$st" node_range_get "(gasnet_get_nb|gex_RMA_GetNB): (node|rank) [0-9]+ out of range"
    run_nochecks "$st" node_range_am "(gasnet_AMRequestShort|gex_AM_RequestShort): (node|rank) [0-9]+ out of range"
    case $st in
      mpi)    # ext-ref: the target bounds every address it is sent
        run_nochecks "$st" seg_beyond "outside this node's segment"
        run_nochecks "$st" seg_before "outside this node's segment"
        run_nochecks "$st" seg_straddle_memset "outside this node's segment"
        ;;
      hybrid | portals) # the target's RAR entry takes no range outside the
              # segment: the initiator learns its operation was dropped
        run_nochecks "$st" seg_beyond "dropped by the target"
        run_nochecks "$st" seg_before "dropped by the target"
        run_nochecks "$st" seg_straddle "dropped by the target"
        # the Portals Core's target bounds every Long destination it is sent
        [ "$st" = portals ] && run_nochecks "$st" long_dest_range "AM Long destination.*outside this node's segment"
        ;;
      ucx)    # the UCX Core bounds every Long destination: the sender before
              # its RMA put (STAGEPORT_AM_LONG=rma), the target (=am)
        run_nochecks "$st" long_dest_range "AM Long.*destination .*outside (this node's|its) segment"
        ;;
    esac
  done
  unset ASAN_OPTIONS UBSAN_OPTIONS
}

# ---------------------------------------------------------------- soak
run_soak() {
  local np=2 name="soak" log="$LOGDIR/$logtag/np2-soak.log"
  run_job $((SOAK_SECONDS + 60)) "$log" "$np" "$BINDIR/soak" --seconds "$SOAK_SECONDS"
  skipped "$np" "$log" "$name" && return
  if timed_out; then
    fail "$name" "$np" "timeout: the flood hung" "$log"
  elif [ "$RC" != 0 ] || ! grep -q '^ok soak' "$log"; then
    fail "$name" "$np" "exit status $RC" "$log" '^soak|^FAIL'
  else
    pass "$name ($(grep -o '[-+][0-9]* KiB after .*' "$log" | tr '\n' ';' | sed 's/;$//'))" "$np"
  fi
}

# ---------------------------------------------------------------- stress
# tests/stress: a seeded random mix of every Put/Get flavour, every sync
# family and every AM category, each result checked byte by byte; one fixed
# seed per suite (STRESS_SEED), so a failure reruns the same way.
# variant_nps PART NP...: the process counts of the list that a variant's
# "TEST:2/4" names (all of them when PART is empty)
variant_nps() {
  local part=$1 np
  shift
  for np in "$@"; do
    if [ -z "$part" ] || [[ "/$part/" == *"/$np/"* ]]; then printf '%s ' "$np"; fi
  done
}

run_stress() { # np
  local np=$1 name="stress" log="$LOGDIR/$logtag/np$1-stress.log"
  run_job "$STRESS_TIMEOUT" "$log" "$np" "$BINDIR/stress" --seed "$STRESS_SEED" --ops "$STRESS_OPS" \
    --timeout $((STRESS_TIMEOUT - 10))
  skipped "$np" "$log" "$name" && return
  if timed_out; then
    fail "$name" "$np" "timeout after ${STRESS_TIMEOUT}s: hang (seed $STRESS_SEED)" "$log" '^FAIL'
  elif [ "$RC" != 0 ] || ! grep -q '^ok stress' "$log"; then
    fail "$name" "$np" "exit status $RC (seed $STRESS_SEED)" "$log" '^FAIL'
  else
    pass "$name (seed $STRESS_SEED, $(sed -n 's/^ok stress: .*\(ops=[0-9]*\).*\(ams=[0-9]*\).*/\1 \2/p' "$log"))" "$np"
  fi
}

# ---------------------------------------------------------------- mt
run_mt() { # np [bindir name]
  local np=$1 bindir=${2:-$BINDIR} name=${3:-mt} oks log
  log="$LOGDIR/$logtag/np$1-${name//[:\/]/-}.log"
  run_job "$CONF_TIMEOUT" "$log" "$np" "$bindir/mt" --threads "$MT_THREADS" --rounds "$MT_ROUNDS"
  skipped "$np" "$log" "$name" && return
  oks=$(grep -c '^PASS mt: node' "$log")
  if timed_out; then
    fail "$name" "$np" "timeout after ${CONF_TIMEOUT}s: hang" "$log" '^FAIL'
  elif grep -q 'WARNING: ThreadSanitizer' "$log"; then
    fail "$name" "$np" "a ThreadSanitizer report" "$log" 'ThreadSanitizer|^    #|^  [A-Z]'
  elif [ "$RC" != 0 ] || grep -q '^FAIL' "$log"; then
    fail "$name" "$np" "exit status $RC" "$log" '^FAIL|fatal'
  elif [ "$oks" != "$np" ]; then
    fail "$name" "$np" "$oks of $np nodes reported PASS" "$log"
  else
    pass "$name ($MT_THREADS threads + a polling thread, $MT_ROUNDS rounds)" "$np"
  fi
}

# A GASNET_PAR client that initialised MPI itself at MPI_THREAD_FUNNELED:
# gasnet_init must refuse it with a line naming both levels (and return, so
# the client can end MPI itself).
run_mt_mpilevel() {
  local np=2 name="mt:mpi_funneled" log="$LOGDIR/$logtag/np2-mt-mpi-funneled.log"
  run_job "$BAD_TIMEOUT" "$log" "$np" "$BINDIR/mt" --mpi-first funneled
  skipped "$np" "$log" "$name" && return
  if timed_out; then
    fail "$name" "$np" "timeout after ${BAD_TIMEOUT}s: hang" "$log"
  elif [ "$RC" != 0 ] || grep -q '^FAIL' "$log" || [ "$(grep -c '^ok mt: node' "$log")" != "$np" ]; then
    fail "$name" "$np" "exit status $RC: gasnet_init did not refuse on every node" "$log" '^FAIL|^ok'
  elif ! grep -q 'needs MPI at MPI_THREAD_SERIALIZED.*MPI_THREAD_FUNNELED' "$log"; then
    fail "$name" "$np" "no line names the levels" "$log"
  else
    pass "$name (gasnet_init refuses a client's MPI_THREAD_FUNNELED, naming both levels)" "$np"
  fi
}

# tests/mt and tests/exconf_par (GASNet-EX calls from 4 threads) under
# ThreadSanitizer, every stage (ptl's in both modes, ucx over TCP too),
# from a build of its own.  UCX's memory hooks are off (they
# intercept the madvise of a thread's exit, which TSan's runtime cannot
# take); tests/tsan.supp lists what is suppressed, inside MPI and UCX only.
run_tsan_all() {
  local st cfg
  mkdir -p "$LOGDIR/tsan"
  stage_t0=$(date +%s.%N)
  build_aside tsan "$TSAN_DIR" "mt exconf_par exvis_par" --enable-sanitizers=thread --enable-werror --disable-shared || return
  export TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=$SRCDIR/tsan.supp" UCX_MEM_MMAP_HOOK_MODE=none
  for st in $STAGES; do
    for cfg in default $(case $st in hybrid | portals) echo STAGEPORT_PTL_MODE=host ;; ucx) echo UCX_TLS=tcp,self ;; esac); do
      stage=$st tag="tsan/$st"
      variant_flags=(-x TSAN_OPTIONS -x UCX_MEM_MMAP_HOOK_MODE)
      [ "$cfg" = default ] || { export "${cfg?}"; variant_flags+=(-x "${cfg%%=*}"); tag="$tag/${cfg#*=}"; }
      logtag=${tag//[\/,=]/-}
      mkdir -p "$LOGDIR/$logtag"
      MT_ROUNDS=100 run_mt 2 "$TSAN_DIR/tests" "tsan:mt"
      BINDIR="$TSAN_DIR/tests" run_exconf 2 exconf_par "tsan:exconf_par"
      BINDIR="$TSAN_DIR/tests" EXCONF_ARGS='' run_exconf 2 exvis_par "tsan:exvis_par"
      [ "$cfg" = default ] || unset "${cfg%%=*}"
    done
  done
  unset TSAN_OPTIONS UCX_MEM_MMAP_HOOK_MODE
}

# ---------------------------------------------------------------- valgrind
# memcheck on every rank of one conformance run; an error counts when a
# frame of its stack is in the library's own code (Open MPI and UCX have
# reports of their own); definite leaks likewise.
run_valgrind() {
  local np=2 name="valgrind" log="$LOGDIR/$logtag/np2-valgrind.log" vlog="$LOGDIR/$logtag/valgrind.%q{OMPI_COMM_WORLD_RANK}.txt"
  local ours
  # the library's own source files: a report is ours when its first frame
  # below the allocator / libc memory functions is in one of them
  ours=$(find "$TOP_SRCDIR"/{api,legacy,common,net-ucx,net-portals,core-mpi,core-ucx,core-portals,ext-ref,ext-ucx,ext-portals,ptl,ucx,boot,credits} -maxdepth 1 \
    -name '*.[ch]' -printf '%f\n' 2>/dev/null | sed 's/\./\\./g' | paste -sd'|')
  rm -f "$LOGDIR/$logtag"/valgrind.*.txt
  # (fewer outstanding operations and flood messages: valgrind is ~50x slower)
  run_job $((CONF_TIMEOUT * 8)) "$log" "$np" -x CONF_WATCHDOG=600 -x CONF_MANY=3000 -x CONF_FLOOD=300 \
    -x CONF_FLOOD_BIG=10 valgrind --quiet --leak-check=full --show-leak-kinds=definite --num-callers=30 \
    --log-file="$vlog" "$BINDIR/conformance"
  skipped "$np" "$log" "$name" && return
  local bad
  bad=$(cat "$LOGDIR/$logtag"/valgrind.*.txt 2>/dev/null | awk -v ours="\\((${ours}):[0-9]+\\)" '
    function judge() {
      if (kind && first ~ ours) n++
      kind = 0; first = ""
    }
    /^==[0-9]+== [^ ]/ {
      judge()
      if ($0 ~ /Invalid (read|write|free)|uninitialised|definitely lost|Mismatched free|overlap/) kind = 1
      next
    }
    kind && first == "" && /^==[0-9]+== +(at|by) / {
      if ($0 !~ /(malloc|calloc|realloc|strdup|free|memcpy|memmove|memset|memalign|posix_memalign|operator new|__GI_|__memcpy|__memmove|__memset)[ (]/) first = $0
    }
    END { judge(); print n + 0 }')
  if timed_out; then
    fail "$name" "$np" "timeout under valgrind" "$log"
  elif [ "$RC" != 0 ]; then
    fail "$name" "$np" "exit status $RC under valgrind" "$log"
  elif [ "$bad" != 0 ]; then
    fail "$name" "$np" "$bad valgrind reports in the library's code (see $LOGDIR/$logtag/valgrind.*.txt)" "$log"
  else
    pass "$name (no invalid access, no definite leak in the library's code)" "$np"
  fi
}

# ---------------------------------------------------------------- fuzz
run_fuzz_all() {
  local dir="$LOGDIR/fuzz" t name src rc runs secs
  mkdir -p "$dir"
  # name:seconds:sources:flags
  for t in "fuzz_mpi_wire:$((FUZZ_SECONDS / 4)):tests/fuzz/fuzz_mpi_wire.c:-I$TOP_SRCDIR/core-mpi" \
           "fuzz_portals_bits:$((FUZZ_SECONDS / 4)):tests/fuzz/fuzz_portals_bits.c:-I$TOP_SRCDIR/net-portals" \
           "fuzz_ptl_wire:$FUZZ_SECONDS:ptl/tests/fuzz_ptl_wire.c ptl/ptl_obj.c ptl/ptl_eq.c ptl/ptl_match.c ptl/ptl_me.c ptl/ptl_md.c:-D_GNU_SOURCE -I$TOP_SRCDIR/ptl -I$TOP_SRCDIR/boot -lpthread"; do
    name=${t%%:*}
    t=${t#*:}
    secs=${t%%:*}
    [ "$secs" -ge 1 ] || secs=1
    src=${t#*:}
    local flags=${src#*:}
    src=${src%%:*}
    local srcs=()
    for f in $src; do srcs+=("$TOP_SRCDIR/$f"); done
    # shellcheck disable=SC2086
    if ! "$FUZZ_CC" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined "${srcs[@]}" \
        $flags -o "$dir/$name" >"$dir/$name.build.log" 2>&1; then
      echo "FAIL fuzz $name (build failed: $dir/$name.build.log)"
      tail -n 10 "$dir/$name.build.log" | sed 's/^/    | /'
      nfail=$((nfail + 1))
      continue
    fi
    mkdir -p "$dir/$name.corpus"
    timeout -k 5 $((secs + 60)) "$dir/$name" -max_total_time="$secs" -seed=20261122 -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 "$dir/$name.corpus" >"$dir/$name.log" 2>&1
    rc=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$dir/$name.log" | grep -o '[0-9]*$')
    if [ "$rc" = 0 ] && [ -n "$runs" ] && ! grep -q 'ERROR: \|runtime error' "$dir/$name.log"; then
      echo "PASS fuzz $name ($runs inputs in ${secs}s, no crash, no sanitizer report)"
      npass=$((npass + 1))
    else
      echo "FAIL fuzz $name (exit status $rc; crash inputs in $dir)"
      grep -A 15 'ERROR\|runtime error' "$dir/$name.log" | head -n 30 | sed 's/^/    | /'
      nfail=$((nfail + 1))
    fi
  done
}

# ---------------------------------------------------------------- exittest
run_exittest() { # mode np
  local mode=$1 np=$2 name="exittest:$1" log="$LOGDIR/$logtag/np$2-exittest-$1.log"
  local want bound=$EXIT_BOUND clean=0
  case $mode in
    exit_barrier) want=7 ;;
    exit_zero_one) want=0 ;;
    exit_busy) want=5 ;;
    exit_in_handler) want=9 ;;
    exit_during_flood) want=6 ;;
    exit_all) want=3 ;;
    exit_all_different) want="$(seq -s ' ' 10 $((10 + np - 1)))" ;; # any one of the codes
    exit_before_attach) want=4 ;;
    exit_poll) want=12 ;;
    exit_plain_barrier) want=13 ;;
    exit_plain_busy) want=14 ;;
    exit_plain_poll) want=15 ;;
    return_code) want=16 ;;
    return_code_busy) want=17 ;;
    par_exit_hsl) want=3 ;;
    par_plain_exit_hsl) want=18 ;;
    return_main | exit_zero | exit_inflight_am) want=0 clean=1 ;;
    crash_*) want=nonzero bound=$CRASH_BOUND ;;
    *) want=0 ;;
  esac
  # the node that ends the job with a non-zero code must be named (by the
  # library, or by the launcher for a crash)
  local ender=""
  case $mode in
    exit_barrier | exit_busy | exit_in_handler | exit_during_flood | exit_poll | exit_plain_* | return_code* | crash_*)
      ender=$((np - 1)) ;;
    exit_before_attach | par_*) ender=0 ;;
  esac
  local prog=exittest
  case $mode in par_*) prog=exittest_par ;; esac # (GASNET_PAR)
  # (the exit protocol's wait for silent peers: EXITTEST_EXIT_TIMEOUT, unless
  # the caller set STAGEPORT_EXIT_TIMEOUT for the whole suite)
  STAGEPORT_EXIT_TIMEOUT=${STAGEPORT_EXIT_TIMEOUT:-$EXITTEST_EXIT_TIMEOUT} \
    run_job "$EXIT_TIMEOUT" "$log" "$np" "$BINDIR/$prog" "$mode"
  skipped "$np" "$log" "$name" && return
  local at late="" foreign
  # (the launcher may interleave other output into the middle of that line)
  at=$(grep -o 'EXIT_AT [0-9.]*' "$log" | head -n 1 | cut -d' ' -f2)
  if [ -n "$at" ]; then
    late=$(awk -v a="$at" -v b="$T_END" -v m="$bound" 'BEGIN { d = b - a; if (d > m) printf "%.1f", d }')
  fi
  foreign=$(grep -v '^exittest:' "$log" | grep -c .)
  # a row of the exit table: mode | stage | np | status | seconds from the
  # exit call to the end of the job | the first line naming the ending node
  local took="" msg=""
  [ -n "$at" ] && took=$(awk -v a="$at" -v b="$T_END" 'BEGIN { printf "%.1f", b - a }')
  [ -n "$ender" ] && msg=$(grep -Em1 "stageport: node $ender:|rank $ender[^0-9]" "$log" | cut -c1-150)
  printf '| %s | %s | %s | %s | %s | %s |\n' "$mode" "$tag" "$np" "$RC" "${took:--}" "${msg:--}" >>"$LOGDIR/exit-table.md"
  if timed_out; then
    fail "$name" "$np" "timeout after ${EXIT_TIMEOUT}s: the job did not end" "$log"
  elif [ "$want" = nonzero ] && [ "$RC" = 0 ]; then
    fail "$name" "$np" "exit status 0, expected non-zero" "$log"
  elif [ "$want" != nonzero ] && ! [[ " $want " == *" $RC "* ]]; then
    fail "$name" "$np" "exit status $RC, expected ${want// / or }" "$log"
  elif [[ $mode != exit_all* ]] && [ "$clean" = 0 ] && [ -z "$at" ]; then
    fail "$name" "$np" "no EXIT_AT line: the ending node did not get to its exit call" "$log"
  elif [ -n "$late" ]; then
    fail "$name" "$np" "the job ended ${late}s after the exit call, more than ${bound}s" "$log"
  elif [ "$clean" = 1 ] && [ "$foreign" -gt 0 ]; then
    fail "$name" "$np" "$foreign unexpected lines of output (error output from the launcher or library?)" "$log" '^[^e]|^e[^x]'
  elif grep -q 'exittest: node .*: \(left\|computed\)' "$log"; then
    fail "$name" "$np" "a node kept running after the job should have ended" "$log"
  elif [ -n "$ender" ] && ! grep -Eq "stageport: node $ender:|rank $ender[^0-9]" "$log"; then
    fail "$name" "$np" "no message names node $ender, which ended the job" "$log"
  else
    pass "$name" "$np"
  fi
}

# ---------------------------------------------------------------- clientcompat
# A GASNet client (tests/clientcompat/: client.c and the plain Makefile a
# GASNet client would have) against stageport as installed.  Once: `make
# install DESTDIR=CC_ROOT` of the build tree, so the layout is the one a
# real `make install` makes, under CC_ROOT; the files a client needs are
# checked there, and gasnetrun's command line (-t).  Then, per stage, per
# threading mode: the client built by its Makefile with GASNET_PREFIX (on
# make's command line: the fragments follow it) naming the staged prefix
# and CONDUIT=<stage> THREADS=<mode> (the mpi stage is include/mpi-conduit,
# GASNet's own name; MANUAL_CFLAGS, the fragments' hook, adds -Wall
# -Wextra -Werror: the headers must not warn in a client); run by the staged gasnetrun_<stage> -n 2 (the
# stage must be <stage>, both nodes' checks pass); run again by plain
# mpirun with STAGEPORT_STAGE unset: the stage the conduit directory chose
# must run.  The libraries are found through the run path the fragment
# linked in (no LD_LIBRARY_PATH).  Per stage and mode also: the fragment's
# variables, evaluated by make, are GASNet's set (CC_FRAG_VARS) with
# GASNET_DEFINES carrying -D_GNU_SOURCE=1 and -DGASNET_<MODE>, and the
# staged gasnet-<stage>-<mode>.pc holds the same values (CC_PC_VARS), its
# Name and Version GASNet's; a GASNet-EX program's includes (exheaders.c:
# gasnetex.h, gasnet_coll.h, gasnet_ratomic.h, gasnet_vis.h, gasnet_mk.h,
# the version macros checked at compile time) compile through the fragment
# with -Wall -Wextra -Werror.  Once: the release in the staged
# gasnet_config.h, read the way osss-gasnet's configure reads it (awk's
# third field of each GASNET_RELEASE_VERSION_{MAJOR,MINOR,PATCH} line), is
# CC_RELEASE and at least 1.18.0.  Once at the end: `cc client.c
# $(pkg-config --cflags --libs stageport)` (the staged stageport.pc, its
# prefix redefined) links against libstageport.so and runs; and per mode,
# `$GASNET_CC client.c $(pkg-config --cflags --libs gasnet-mpi-<mode>)`
# (the staged .pc, prefix redefined) links libstageport.so through the
# .pc's run path and runs the mpi stage, chosen by the .pc's include path,
# under plain mpirun.
# the GASNet release gasnet_config.h states (configure.ac's STP_GASNET_RELEASE)
CC_RELEASE=2025.8.0
# what a GASNet-EX 2025.8.0 conduit fragment defines that clients use
CC_FRAG_VARS="GASNET_PREFIX GASNET_CC GASNET_CFLAGS GASNET_CPPFLAGS GASNET_OPT_CFLAGS GASNET_MISC_CFLAGS
  GASNET_MISC_CPPFLAGS GASNET_DEVWARN_CFLAGS GASNET_CXX GASNET_CXXFLAGS GASNET_CXXCPPFLAGS GASNET_OPT_CXXFLAGS
  GASNET_MISC_CXXFLAGS GASNET_MISC_CXXCPPFLAGS GASNET_DEVWARN_CXXFLAGS GASNET_DEFINES GASNET_INCLUDES
  GASNET_LIBDIRS GASNET_EXTRADEFINES_SEQ GASNET_EXTRADEFINES_PAR GASNET_EXTRADEFINES_PARSYNC GASNET_LD
  GASNET_LDFLAGS GASNET_LIBS GASNET_LD_OVERRIDE GASNET_LDFLAGS_OVERRIDE GASNET_LD_REQUIRES_MPI
  GASNET_EXTRALIBS_SEQ GASNET_EXTRALIBS_PAR GASNET_EXTRALIBS_PARSYNC GASNET_SPAWNER_DEFAULT
  GASNET_SPAWNER_FORK GASNET_SPAWNER_PMI GASNET_SPAWNER_MPI GASNET_SPAWNER_SSH"
# the variables of GASNet's gasnet-<conduit>-<mode>.pc
CC_PC_VARS="GASNET_PREFIX GASNET_CC GASNET_OPT_CFLAGS GASNET_MISC_CFLAGS GASNET_MISC_CPPFLAGS GASNET_DEFINES
  GASNET_INCLUDES GASNET_CXX GASNET_OPT_CXXFLAGS GASNET_MISC_CXXFLAGS GASNET_MISC_CXXCPPFLAGS GASNET_LD
  GASNET_LDFLAGS GASNET_LIBS GASNET_LD_REQUIRES_MPI GASNET_SPAWNER_DEFAULT GASNET_SPAWNER_PMI
  GASNET_SPAWNER_MPI GASNET_SPAWNER_SSH GASNET_CFLAGS GASNET_CPPFLAGS GASNET_CXXFLAGS GASNET_CXXCPPFLAGS"
cc_pass() { # name
  echo "PASS clientcompat $1 [${ELAPSED}s]"
  npass=$((npass + 1))
}
cc_fail() { # name reason log
  echo "FAIL clientcompat $1 ($2) [${ELAPSED}s]"
  nfail=$((nfail + 1))
  [ -f "$3" ] && tail -n 20 "$3" | sed 's/^/    | /' && echo "    (full output: $3)"
}
cc_time() { # t0
  ELAPSED=$(fsub "$1" "$(date +%s.%N)")
}
# cc_verdict NAME LOG STAGE MODE CLIENT_STAGE: the run just made (RC)
# passed: both nodes report stage STAGE, threading MODE, the spec's
# release, and "ok"; CLIENT_STAGE non-empty: both report it as the stage
# their conduit directory selected
cc_verdict() {
  local name=$1 log=$2 st=$3 mode=$4 cst=$5 lines
  lines=$(grep -c "^# clientcompat: node [0-9]* stage=$st client_stage=${cst:-[^ ]*} .*threads=$mode release=${CC_RELEASE//./\\.}\$" "$log")
  if [ "$RC" = 124 ] || [ "$RC" = 137 ]; then
    cc_fail "$name" "timeout after ${CLIENT_TIMEOUT}s" "$log"
  elif grep -q '^FAIL ' "$log" || [ "$RC" != 0 ]; then
    cc_fail "$name" "exit status $RC" "$log"
  elif [ "$lines" != 2 ]; then
    cc_fail "$name" "expected 2 nodes reporting stage=$st${cst:+ client_stage=$cst} threads=$mode release=$CC_RELEASE, $lines did" "$log"
  elif [ "$(grep -c '^node [0-9]* ok$' "$log")" != 2 ]; then
    cc_fail "$name" "not every node reported ok" "$log"
  else
    cc_pass "$name"
  fi
}
# cc_frag_values FRAGMENT PREFIX: NAME=value for each of CC_FRAG_VARS as
# make evaluates the fragment with GASNET_PREFIX=PREFIX and no MANUAL_*
# (NAME<undefined> for one it leaves undefined)
cc_frag_values() {
  local mk
  mk=$(mktemp) || return 1
  printf '%s\n' 'include $(FRAGMENT)' \
    '$(foreach v,$(VARS),$(if $(filter undefined,$(origin $(v))),$(info $(v)<undefined>),$(info $(v)=$(strip $($(v))))))' \
    'all: ;' >"$mk"
  env -u MAKEFLAGS -u MFLAGS -u GNUMAKEFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u MANUAL_DEFINES -u MANUAL_CFLAGS \
    -u MANUAL_CXXFLAGS -u MANUAL_LDFLAGS -u MANUAL_LIBS \
    $MAKE -s --no-print-directory -f "$mk" FRAGMENT="$1" VARS="$CC_FRAG_VARS" GASNET_PREFIX="$2" all </dev/null |
    grep '^GASNET_'
  rm -f "$mk"
}
# cc_check_fragment STAGE MODE PREFIX LIBDIR LOG: the fragment's variables
# and the .pc beside it; the problems found, on stdout
cc_check_fragment() {
  local st=$1 mode=$2 pfx=$3 libdir=$4 log=$5 uc v val pcval frag pc
  uc=$(echo "$mode" | tr a-z A-Z)
  frag="$pfx/include/$st-conduit/$st-$mode.mak" pc=gasnet-$st-$mode
  cc_frag_values "$frag" "$pfx" >"$log.values" || { echo "make could not read $frag"; return; }
  cat "$log.values" >>"$log"
  for v in $CC_FRAG_VARS; do
    grep -q "^$v=" "$log.values" || echo "$st-$mode.mak leaves $v undefined"
  done
  val=$(sed -n 's/^GASNET_DEFINES=//p' "$log.values")
  case " $val " in *" -D_GNU_SOURCE=1 "*) ;; *) echo "GASNET_DEFINES ($val) lacks -D_GNU_SOURCE=1" ;; esac
  case " $val " in *" -DGASNET_$uc "*) ;; *) echo "GASNET_DEFINES ($val) lacks -DGASNET_$uc" ;; esac
  for v in GASNET_CC GASNET_LD GASNET_LIBS GASNET_INCLUDES; do
    grep -q "^$v=." "$log.values" || echo "$v is empty"
  done
  grep -q "^GASNET_INCLUDES=.*-I$pfx/include/$st-conduit\( \|\$\)" "$log.values" ||
    echo "GASNET_INCLUDES does not name $pfx/include/$st-conduit"
  # the .pc: GASNet's name, version and variables, the fragment's values
  export PKG_CONFIG_PATH="$libdir/pkgconfig"
  {
    echo "pkg-config $pc:"
    pkg-config --define-variable=prefix="$pfx" --print-variables "$pc"
    pkg-config --define-variable=prefix="$pfx" --cflags --libs "$pc"
  } >>"$log" 2>&1
  if ! pkg-config --exists "$pc" 2>>"$log"; then
    echo "pkg-config does not find $pc in $PKG_CONFIG_PATH"
    unset PKG_CONFIG_PATH
    return
  fi
  val=$(pkg-config --modversion "$pc")
  [ "$val" = "$CC_RELEASE" ] || echo "$pc Version is $val, not $CC_RELEASE"
  grep -q "^Name: $pc\$" "$libdir/pkgconfig/$pc.pc" || echo "$pc.pc's Name is not $pc"
  for v in $CC_PC_VARS; do
    pcval=$(pkg-config --define-variable=prefix="$pfx" --variable="$v" "$pc" | tr -s ' ' | sed 's/^ //; s/ $//')
    val=$(sed -n "s/^$v=//p" "$log.values" | tr -s ' ' | sed 's/^ //; s/ $//')
    [ "$pcval" = "$val" ] || echo "$pc: $v is '$pcval', $st-$mode.mak's is '$val'"
  done
  unset PKG_CONFIG_PATH
  rm -f "$log.values"
}
run_clientcompat_all() {
  local dir="$LOGDIR/clientcompat" root pfx libdir log t0 st mode uc name bdir f missing="" ncpu flags problems gnet_cc
  local -a ompi_flags=()
  mkdir -p "$dir"
  root="$dir/root"
  pfx="$root$CLIENT_PREFIX" libdir="$root$CLIENT_LIBDIR"
  if "$MPIRUN" --version 2>&1 | grep -qi 'open mpi\|openrte'; then ompi_flags=(--oversubscribe --bind-to none); fi

  # the installation, staged
  log="$dir/install.log" t0=$(date +%s.%N)
  if [ -z "$TOP_BUILDDIR" ] || [ -z "$CLIENT_PREFIX" ]; then
    cc_time "$t0"
    cc_fail install "no TOP_BUILDDIR or CLIENT_PREFIX: run it from make check" /dev/null
    return
  fi
  rm -rf "$root"
  timeout -k 5 300 $MAKE -C "$TOP_BUILDDIR" install DESTDIR="$root" >"$log" 2>&1 </dev/null
  RC=$?
  cc_time "$t0"
  if [ "$RC" != 0 ]; then cc_fail install "make install DESTDIR=... exit status $RC" "$log"; return; fi
  for f in gasnetex.h gasnet.h gasnet_fwd.h gasnet_tools.h gasnet_coll.h gasnet_ratomic.h gasnet_vis.h gasnet_mk.h \
    gasnet_config.h stageport.h mpi-conduit/mpi-par.mak; do
    [ -f "$pfx/include/$f" ] || missing="$missing include/$f"
  done
  for f in libstageport.so libstageport.a pkgconfig/stageport.pc; do [ -e "$libdir/$f" ] || missing="$missing lib/$f"; done
  for st in $STAGES; do
    for f in stageport_conduit.h gasnet_core.h $st-seq.mak $st-par.mak $st-parsync.mak; do
      [ -f "$pfx/include/$st-conduit/$f" ] || missing="$missing include/$st-conduit/$f"
    done
    for mode in seq par parsync; do
      [ -f "$libdir/pkgconfig/gasnet-$st-$mode.pc" ] || missing="$missing lib/pkgconfig/gasnet-$st-$mode.pc"
    done
    [ -x "$pfx/bin/gasnetrun_$st" ] || missing="$missing bin/gasnetrun_$st"
  done
  if [ -n "$missing" ]; then cc_fail install "missing from the installation:$missing" "$log"; return; fi
  cc_pass "install (the layout under $pfx)"

  # the release, read as a GASNet client's configure reads it (osss-gasnet:
  # awk's third field of every line naming GASNET_RELEASE_VERSION_MAJOR,
  # ..., then major<<16 | minor<<8 | patch against 1.18.0)
  log="$dir/release.log" t0=$(date +%s.%N)
  {
    local cfg="$pfx/include/gasnet_config.h" maj min pch cfgstr
    maj=$(awk '/GASNET_RELEASE_VERSION_MAJOR/ {print $3}' "$cfg")
    min=$(awk '/GASNET_RELEASE_VERSION_MINOR/ {print $3}' "$cfg")
    pch=$(awk '/GASNET_RELEASE_VERSION_PATCH/ {print $3}' "$cfg")
    echo "gasnet_config.h: release [$maj] [$min] [$pch]"
    # the string's lines, the C string concatenation undone
    cfgstr=$(sed -n '/^#define GASNET_CONFIG_STRING/,/[^\\]$/p' "$cfg" | tr -d '\\\n' | sed 's/" *"//g')
    echo "GASNET_CONFIG_STRING: $cfgstr"
    if ! echo "$maj $min $pch" | grep -Eqx '[0-9]+ [0-9]+ [0-9]+'; then
      echo "FAIL: not one number each (a client's awk gets: '$maj' '$min' '$pch')"
    elif [ $(((maj << 16) | (min << 8) | pch)) -lt $(((1 << 16) | (18 << 8) | 0)) ]; then
      echo "FAIL: GASNet $maj.$min.$pch is too old (osss-gasnet requires 1.18.0 or newer)"
    elif [ "$maj.$min.$pch" != "$CC_RELEASE" ]; then
      echo "FAIL: release $maj.$min.$pch, expected $CC_RELEASE"
    elif ! echo "$cfgstr" | grep -q "RELEASE=$CC_RELEASE,SPEC=1\.8,"; then
      echo "FAIL: GASNET_CONFIG_STRING does not say RELEASE=$CC_RELEASE,SPEC=1.8"
    fi
  } >"$log" 2>&1
  cc_time "$t0"
  if grep -q '^FAIL' "$log"; then
    cc_fail "release (gasnet_config.h, osss-gasnet's check)" "$(grep -m1 '^FAIL' "$log" | cut -c7-)" "$log"
  else
    cc_pass "release (gasnet_config.h, osss-gasnet's check: $CC_RELEASE >= 1.18.0)"
  fi

  # gasnetrun's command line: the stage, the variables passed, oversubscription
  log="$dir/gasnetrun-t.log" t0=$(date +%s.%N)
  ncpu=$(nproc 2>/dev/null || echo 1)
  env -u STAGEPORT_STAGE GASNET_CC_TEST=1 "$pfx/bin/gasnetrun_mpi" -t -n $((ncpu + 1)) -E STP_TEST_GETENV,NOT_SET_HERE -- /bin/true a >"$log" 2>&1 </dev/null
  RC=$?
  cc_time "$t0"
  if [ "$RC" != 0 ] || ! grep -q "mpirun.* -np $((ncpu + 1)) /bin/true a\$" "$log" ||
    { [ ${#ompi_flags[@]} -gt 0 ] && ! grep -q -- "--oversubscribe.*-x GASNET_CC_TEST.*-x STAGEPORT_STAGE.*-x STP_TEST_GETENV" "$log"; }; then
    cc_fail "gasnetrun -t" "not the expected mpirun command line" "$log"
  else
    cc_pass "gasnetrun -t"
  fi
  # -E takes variable names only: each is looked up indirectly, and bash
  # evaluates an array subscript there
  log="$dir/gasnetrun-E.log" t0=$(date +%s.%N)
  "$pfx/bin/gasnetrun_mpi" -t -E 'PATH,a[$(echo INJECTED >&2)]' -n 2 -- /bin/true >"$log" 2>&1 </dev/null
  RC=$?
  cc_time "$t0"
  if [ "$RC" = 0 ] || grep -qx INJECTED "$log" || ! grep -q "not a variable name: 'a\[" "$log"; then
    cc_fail "gasnetrun -E NAME" "an -E value that is not a variable name was not refused (or was evaluated)" "$log"
  else
    cc_pass "gasnetrun -E NAME"
  fi
  # under set -u, bash before 4.4 (RHEL 7's 4.2) calls an empty array
  # unbound: every array expansion of the launcher must be guarded,
  # ${a[@]+"${a[@]}"} (no such bash here to run it under)
  log="$dir/gasnetrun-arrays.log"
  sed -E 's/\$\{([A-Za-z_][A-Za-z0-9_]*)\[([@*])\]\+"\$\{\1\[\2\]\}"\}//g' "$pfx/bin/gasnetrun_mpi" |
    grep -nE '\$\{[A-Za-z_][A-Za-z0-9_]*\[[@*]\]\}' >"$log"
  if [ -s "$log" ]; then
    cc_fail "gasnetrun arrays under set -u" "unguarded array expansions (an empty one is unbound before bash 4.4)" "$log"
  else
    cc_pass "gasnetrun arrays under set -u"
  fi

  for st in $STAGES; do
    stage=$st tag=$st
    stage_t0=$(date +%s.%N)
    for mode in seq par parsync; do
      log="$dir/$st-$mode-fragment.log" t0=$(date +%s.%N)
      : >"$log"
      problems=$(cc_check_fragment "$st" "$mode" "$pfx" "$libdir" "$log")
      cc_time "$t0"
      if [ -n "$problems" ]; then
        echo "$problems" >>"$log"
        cc_fail "stage=$st $mode fragment and .pc" "$(echo "$problems" | head -n 1)" "$log"
      else
        cc_pass "stage=$st $mode fragment and .pc (GASNet's variables, -D_GNU_SOURCE=1, gasnet-$st-$mode.pc the same)"
      fi
    done
    for mode in $CLIENT_MODES; do
      name="stage=$st $mode"
      # a GASNet-EX program's headers, through the fragment
      bdir="$dir/$st-$mode" log="$dir/$st-$mode-exheaders.log" t0=$(date +%s.%N)
      rm -rf "$bdir" && mkdir -p "$bdir"
      timeout -k 5 120 $MAKE -C "$bdir" -f "$SRCDIR/clientcompat/Makefile" SRCDIR="$SRCDIR/clientcompat" \
        GASNET_PREFIX="$pfx" CONDUIT="$st" THREADS="$mode" MANUAL_CFLAGS="-Wall -Wextra -Werror" exheaders.o \
        >"$log" 2>&1 </dev/null
      RC=$?
      cc_time "$t0"
      if [ "$RC" != 0 ]; then
        cc_fail "$name EX headers" "gasnetex.h and the EX headers did not compile: make exit status $RC" "$log"
      else
        cc_pass "$name EX headers (gasnetex.h, gasnet_coll.h, gasnet_ratomic.h, gasnet_vis.h, gasnet_mk.h)"
      fi
      log="$dir/$st-$mode-build.log" t0=$(date +%s.%N)
      timeout -k 5 120 $MAKE -C "$bdir" -f "$SRCDIR/clientcompat/Makefile" SRCDIR="$SRCDIR/clientcompat" \
        GASNET_PREFIX="$pfx" CONDUIT="$st" THREADS="$mode" MANUAL_CFLAGS="-Wall -Wextra -Werror" >"$log" 2>&1 </dev/null
      RC=$?
      cc_time "$t0"
      if [ "$RC" != 0 ]; then
        cc_fail "$name build" "make exit status $RC" "$log"
        continue
      fi
      uc=$(echo "$mode" | tr a-z A-Z)
      log="$dir/$st-$mode-gasnetrun.log" t0=$(date +%s.%N)
      env -u STAGEPORT_STAGE timeout -k 5 "$CLIENT_TIMEOUT" "$pfx/bin/gasnetrun_$st" -n 2 "$bdir/client" >"$log" 2>&1 </dev/null
      RC=$?
      cc_time "$t0"
      cc_verdict "$name gasnetrun_$st" "$log" "$st" "$uc" ""
      log="$dir/$st-$mode-built.log" t0=$(date +%s.%N)
      env -u STAGEPORT_STAGE timeout -k 5 "$CLIENT_TIMEOUT" "$MPIRUN" "${ompi_flags[@]}" -np 2 "$bdir/client" >"$log" 2>&1 </dev/null
      RC=$?
      cc_time "$t0"
      cc_verdict "$name mpirun (no STAGEPORT_STAGE)" "$log" "$st" "$uc" "$st"
    done
  done

  # pkg-config, plain cc (with the sanitizers' flags in a sanitizer build: the library needs their runtime), the shared library
  stage=mpi tag=mpi
  bdir="$dir/pkgconfig" log="$dir/pkgconfig.log" t0=$(date +%s.%N)
  rm -rf "$bdir" && mkdir -p "$bdir"
  {
    flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --define-variable=prefix="$pfx" --cflags --libs stageport) &&
      echo "pkg-config: $flags" &&
      # shellcheck disable=SC2086
      cc -Wall -Wextra -Werror ${CLIENT_SAN_FLAGS:-} -o "$bdir/client" "$SRCDIR/clientcompat/client.c" $flags -Wl,-rpath,"$libdir" &&
      ldd "$bdir/client" | grep libstageport &&
      env -u STAGEPORT_STAGE timeout -k 5 "$CLIENT_TIMEOUT" "$pfx/bin/gasnetrun_mpi" -n 2 "$bdir/client"
  } >"$log" 2>&1 </dev/null
  RC=$?
  cc_time "$t0"
  if [ "$RC" = 0 ] && ! grep -q "libstageport.so.* => $libdir/libstageport.so" "$log"; then
    cc_fail "pkg-config" "not linked against the staged libstageport.so" "$log"
  else
    cc_verdict "pkg-config (cc, libstageport.so)" "$log" mpi SEQ ""
  fi
  # and libstageport.a with --static's Libs.private (an installation
  # without the shared library)
  log="$dir/pkgconfig-static.log" t0=$(date +%s.%N)
  {
    flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --define-variable=prefix="$pfx" --static --cflags --libs stageport) &&
      echo "pkg-config --static: $flags" &&
      # shellcheck disable=SC2086
      cc -Wall -Wextra -Werror ${CLIENT_SAN_FLAGS:-} -o "$bdir/client-static" "$SRCDIR/clientcompat/client.c" \
        "$libdir/libstageport.a" $(echo " $flags " | sed 's/ -lstageport / /') &&
      { ! ldd "$bdir/client-static" | grep libstageport; } &&
      env -u STAGEPORT_STAGE timeout -k 5 "$CLIENT_TIMEOUT" "$pfx/bin/gasnetrun_mpi" -n 2 "$bdir/client-static"
  } >"$log" 2>&1 </dev/null
  RC=$?
  cc_time "$t0"
  cc_verdict "pkg-config --static (cc, libstageport.a)" "$log" mpi SEQ ""
  # GASNet's own pkg-config files: gasnet-mpi-<mode>, compiled and linked
  # with the .pc's GASNET_CC, its run path (no -Wl,-rpath here), run by
  # plain mpirun with no STAGEPORT_STAGE: the .pc's include path chose mpi
  for mode in $CLIENT_MODES; do
    log="$dir/pkgconfig-gasnet-mpi-$mode.log" t0=$(date +%s.%N)
    {
      gnet_cc=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --define-variable=prefix="$pfx" --variable=GASNET_CC "gasnet-mpi-$mode") &&
        flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --define-variable=prefix="$pfx" --cflags --libs "gasnet-mpi-$mode") &&
        echo "pkg-config gasnet-mpi-$mode: GASNET_CC=$gnet_cc $flags" &&
        # shellcheck disable=SC2086
        $gnet_cc -Wall -Wextra -Werror ${CLIENT_SAN_FLAGS:-} -o "$bdir/client-gasnet-mpi-$mode" "$SRCDIR/clientcompat/client.c" $flags &&
        ldd "$bdir/client-gasnet-mpi-$mode" | grep libstageport &&
        env -u STAGEPORT_STAGE timeout -k 5 "$CLIENT_TIMEOUT" "$MPIRUN" "${ompi_flags[@]}" -np 2 "$bdir/client-gasnet-mpi-$mode"
    } >"$log" 2>&1 </dev/null
    RC=$?
    cc_time "$t0"
    if [ "$RC" = 0 ] && ! grep -q "libstageport.so.* => $libdir/libstageport.so" "$log"; then
      cc_fail "pkg-config gasnet-mpi-$mode" "not linked against the staged libstageport.so (the .pc's run path)" "$log"
    else
      cc_verdict "pkg-config gasnet-mpi-$mode (GASNET_CC, the .pc's flags, plain mpirun)" "$log" mpi "$(echo "$mode" | tr a-z A-Z)" mpi
    fi
  done
}

# ---------------------------------------------------------------- main
if ! command -v "$MPIRUN" >/dev/null 2>&1; then
  echo "FAIL: no MPI launcher ($MPIRUN); configure with MPIRUN=..."
  echo "0 passed, 1 failed"
  exit 1
fi
for t in $TESTS; do
  case $t in
    tree | unit | ptl | inject | nochecks | tsan | fuzz | valgrind | emuhosts | clientcompat | report) continue ;;
    mpitraffic) bins="conformance_pmpi pmpi_selftest" ;;
    *) bins=$t ;;
  esac
  for b in $bins; do
    if [ ! -x "$BINDIR/$b" ]; then
      echo "FAIL: $BINDIR/$b not built"
      echo "0 passed, 1 failed"
      exit 1
    fi
  done
done

# ---------------------------------------------------------------- once per suite
stage=unit tag=unit logtag=unit
stage_t0=$(date +%s.%N)
variant_flags=()
# once KIND NAME PATTERN CMD...: a job run once per suite; it passes when
# it exits 0 and its output has a line matching PATTERN (its verdict).
once() {
  local kind=$1 name=$2 pat=$3 log="$LOGDIR/$1/$2.log" t0
  shift 3
  mkdir -p "$LOGDIR/$kind"
  t0=$(date +%s.%N)
  timeout -k 5 60 "$@" >"$log" 2>&1 </dev/null
  RC=$?
  ELAPSED=$(fsub "$t0" "$(date +%s.%N)")
  if [ "$RC" = 0 ] && grep -q "$pat" "$log"; then
    echo "PASS $kind $name ($(grep "$pat" "$log" | tail -n 1)) [${ELAPSED}s]"
    npass=$((npass + 1))
  else
    echo "FAIL $kind $name (exit status $RC) [${ELAPSED}s]"
    tail -n 20 "$log" | sed 's/^/    | /'
    nfail=$((nfail + 1))
  fi
}
if [[ " $TESTS " == *" tree "* ]]; then
  once tree check-layers '^layers: 0 violations' bash "$TOP_SRCDIR/scripts/check-layers.sh" $TOP_BUILDDIR
  once tree check-env '^env: 0 disagreements' bash "$TOP_SRCDIR/scripts/check-env.sh"
fi
if [[ " $TESTS " == *" unit "* ]]; then
  for u in $UNIT_TESTS; do once unit "$u" "^ok $u" "$BINDIR/$u"; done
fi
if [[ " $TESTS " == *" report "* ]] && [ -n "$TOP_BUILDDIR" ]; then
  MPIRUN="$MPIRUN" OUT="$LOGDIR/report/results" \
    once report compare-e2e '^report: ok' bash "$TOP_SRCDIR/tests/report_e2e.sh"
fi
if [[ " $TESTS " == *" nochecks "* ]]; then
  run_nochecks_all
fi
if [[ " $TESTS " == *" tsan "* ]]; then
  run_tsan_all
fi
if [[ " $TESTS " == *" fuzz "* ]]; then
  run_fuzz_all
fi
if [[ " $TESTS " == *" ptl "* ]] && [[ " $STAGES " == *" hybrid "* ]] && [ -n "$PTL_RUNNER" ]; then
  mkdir -p "$LOGDIR/ptl"
  while IFS= read -r line; do
    echo "$line"
    case $line in
      "PASS ptl"*) npass=$((npass + 1)) ;;
      "FAIL ptl"*) nfail=$((nfail + 1)) ;;
    esac
  done < <(MPIRUN="$MPIRUN" BUILDDIR="${PTL_BUILDDIR:-}" bash "$PTL_RUNNER" 2>&1)
fi

# emuhosts: the same library across emulated hosts (scripts/emuhosts.sh:
# network namespaces on a bridge, every byte between hosts over TCP): its
# suite (placement and transport checks; conformance, stress, exit and crash
# endings per stage) and its link cut (a host cut off mid-run: the job must
# end, non-zero and with a message, within LINKCUT_BOUND seconds; one
# workload per stage, in turn: LINKCUT_MATRIX=rotate).  Needs root; its
# PASS/FAIL lines are counted here.
if [[ " $TESTS " == *" emuhosts "* ]]; then
  emu_stages=""
  for st in $STAGES; do
    case $st in hybrid) emu_stages="$emu_stages hybrid/offload hybrid/host" ;; *) emu_stages="$emu_stages $st" ;; esac
  done
  mkdir -p "$LOGDIR/emuhosts"
  for cmd in suite linkcut; do
    emu_lines=0 emu_done=0
    while IFS= read -r line; do
      case $line in
        PASS*) echo "PASS emuhosts ${line#PASS }"; npass=$((npass + 1)) emu_lines=$((emu_lines + 1)) ;;
        FAIL*) echo "FAIL emuhosts ${line#FAIL }"; nfail=$((nfail + 1)) emu_lines=$((emu_lines + 1)) ;;
        *" passed, "*" failed") emu_done=1 ;;
        *) echo "$line" ;;
      esac
    done < <(SUITE_STAGES="${emu_stages# }" LINKCUT_MATRIX=rotate BUILDDIR="${TOP_BUILDDIR:-$BINDIR/..}" BINDIR="$BINDIR" \
             LOGDIR="$LOGDIR/emuhosts" MPIRUN="$MPIRUN" timeout -k 10 1200 bash "$TOP_SRCDIR/scripts/emuhosts.sh" "$cmd" 2>&1)
    if [ "$emu_lines" = 0 ]; then
      echo "FAIL emuhosts $cmd (no result: the emulated hosts could not be set up; see above)"
      nfail=$((nfail + 1))
    elif [ "$emu_done" = 0 ]; then
      echo "FAIL emuhosts $cmd (ended without its summary: stopped after 1200 s, or died; see above)"
      nfail=$((nfail + 1))
    fi
  done
fi

# variants_of STAGE: lines "label tests [VAR=value ...]" (default: one, all tests)
variants_of() {
  local lines=""
  if [ -f "$VARIANT_FILE" ]; then
    lines=$(awk -v st="$1" '!/^[[:space:]]*(#|$)/ && $1 == st { $1 = ""; sub(/^ /, ""); print }' "$VARIANT_FILE")
  fi
  if [ -z "$lines" ]; then echo "default all"; else echo "$lines"; fi
}

stage_k=-1 # the stage's index in STAGES (EXIT_NPS_ROTATE)
# stage_exit_nps: the exittest process counts of the current stage
stage_exit_nps() {
  local nps
  read -ra nps <<<"$EXIT_NPS"
  if [ "$EXIT_NPS_ROTATE" = 1 ]; then echo "${nps[stage_k % ${#nps[@]}]}"; else echo "${nps[*]}"; fi
}
for stage in $STAGES; do
  stage_k=$((stage_k + 1))
 while read -r vlabel vtests venv; do
  if [ -n "$VARIANTS" ] && ! [[ " $VARIANTS " == *" $vlabel "* ]]; then continue; fi
  tag=$stage
  [ "$vlabel" = default ] || tag="$stage/$vlabel"
  logtag=${tag//\//-}
  # the variant's environment, exported here and passed to every rank
  variant_flags=()
  saved_env=()
  for kv in $venv; do
    saved_env+=("${kv%%=*}")
    export "${kv?}"
    variant_flags+=(-x "${kv%%=*}")
  done
  stage_tests=$TESTS
  # a variant's "exittest:net" / "badinput:stage" / "conformance:2/4" / "stress:2" (variants.txt)
  exit_part="" bad_part="" conf_part="" stress_part=""
  if [ "$vtests" != all ]; then
    stage_tests=""
    for t in $TESTS; do
      if [[ ",$vtests," == *",$t,"* ]] || { { [ "$t" = exatomic ] || [ "$t" = exteam ] || [ "$t" = exvis ]; } && [[ ",$vtests," == *",exconf,"* ]]; }; then
        stage_tests="$stage_tests $t"
      elif [[ ",$vtests," == *",$t:"* ]]; then
        stage_tests="$stage_tests $t"
        part=${vtests#*"$t":}
        case $t in
          exittest) exit_part=${part%%,*} ;; badinput) bad_part=${part%%,*} ;;
          conformance) conf_part=${part%%,*} ;; stress) stress_part=${part%%,*} ;;
        esac
      fi
    done
  fi
  stage_t0=$(date +%s.%N)
  mkdir -p "$LOGDIR/$logtag"
  for t in $stage_tests; do
    case $t in
      conformance)
        for np in $(variant_nps "$conf_part" $NPS); do run_conformance "$np"; done
        # the Portals Core in both ptl modes, with its Long payload events late
        case $stage/$vlabel in
          portals/offload | portals/host | firehose/offload | firehose/host)
            if [ -z "$CONF_ARGS" ] || [[ " $CONF_ARGS " == *" am_long_reuse "* ]]; then
              for np in $NPS; do run_late_send_end "$np"; done
            fi
            ;;
        esac
        ;;
      extras)
        for np in $EXTRAS_NPS; do run_extras "$np"; done
        ;;
      exconf)
        for np in $EXCONF_NPS; do
          run_exconf "$np" exconf
          run_exconf "$np" exconf_par
        done
        if [ "$vlabel" = default ] || [ "$vlabel" = offload ]; then
          # shellcheck disable=SC2046
          run_exconf 2 exconf "exconf:tight" $(exconf_tight_flags)
        fi
        ;;
      exatomic)
        for np in $EXATOMIC_NPS; do EXCONF_ARGS='' run_exconf "$np" exatomic; done
        if [ "$vlabel" = default ] || [ "$vlabel" = offload ]; then
          EXCONF_ARGS='' run_exconf 2 exatomic "exatomic:ref" -x STAGEPORT_AD_IMPL=reference
          for m in $("$BINDIR/exatomic" --bad-list | awk '/^  [a-z]/ { print $1 }'); do run_exatomic_bad "$m"; done
        fi
        ;;
      exteam)
        for np in $EXTEAM_NPS; do EXCONF_ARGS='' run_exconf "$np" exteam; done
        if [ "$vlabel" = default ] || [ "$vlabel" = offload ]; then
          for m in $("$BINDIR/exteam" --bad-list | awk '/^  [a-z]/ { print $1 }'); do run_exatomic_bad "$m" exteam; done
        fi
        ;;
      exvis)
        if [ "$vlabel" = default ] || [ "$vlabel" = offload ]; then
          for np in $EXVIS_NPS; do EXCONF_ARGS='' run_exconf "$np" exvis; done
          EXCONF_ARGS='' run_exconf 2 exvis_par
          # (and again with the stride optimizer off, the stage's smallest AM
          # credits -- IMMEDIATE refused -- and, where auto would not take
          # it, the AM pipeline for every remote put: the same results)
          if [ "$stage" = mpi ]; then
            # shellcheck disable=SC2046
            EXCONF_ARGS='' run_exconf 2 exvis "exvis:optoff+tight" -x STAGEPORT_VIS_OPT=off $(exconf_tight_flags)
          else
            # shellcheck disable=SC2046
            EXCONF_ARGS='' run_exconf 2 exvis "exvis:optoff+tight+ampipe" -x STAGEPORT_VIS_OPT=off \
              -x STAGEPORT_VIS=ampipe $(exconf_tight_flags)
          fi
          # (and on the ptl stages, every remote operation through ptl's
          # scatter/gather MDs)
          case $stage in
            hybrid | portals | firehose) EXCONF_ARGS='' run_exconf 2 exvis "exvis:iovec" -x STAGEPORT_VIS=iovec ;;
          esac
          EXCONF_ARGS='' run_exconf 2 vis1
          # (argument checks of the API layer: once per Core)
          case $stage in
            mpi | ucx | portals)
              for m in $("$BINDIR/exvis" --bad-list | awk '/^  [a-z]/ { print $1 }'); do run_exatomic_bad "$m" exvis; done ;;
          esac
        else
          EXCONF_ARGS='' run_exconf "${EXVIS_NPS%% *}" exvis
        fi
        ;;
      badinput)
        # (badinput:stage: only what depends on the stage -- the generic
        # argument checks are the API layer's, run on the stage's other variant)
        [ "$bad_part" = stage ] || for m in $(selected_modes badinput); do run_badinput "$m"; done
        case $stage in ucx | hybrid) [ -z "$MODES" ] && run_ucx_unreachable ;; esac
        [ -z "$MODES" ] && run_mismatches
        ;;
      exittest)
        for np in $(stage_exit_nps); do
          modes=$(selected_modes exittest)
          [ "$exit_part" = net ] && [ -z "$MODES" ] && [ "$EXIT_TCP_MODES" != all ] && modes=$EXIT_TCP_MODES
          for m in $modes; do run_exittest "$m" "$np"; done
          # (a GASNET_PAR client's exits: the API layer's, once per stage)
          if [ "$vlabel" = default ] || [ "$vlabel" = offload ]; then
            for m in $(selected_modes exittest_par); do run_exittest "$m" "$np"; done
          fi
        done
        ;;
      inject) run_injects ;;
      soak) run_soak ;;
      stress)
        for np in $(variant_nps "$stress_part" $STRESS_NPS); do run_stress "$np"; done
        ;;
      mt)
        for np in $MT_NPS; do run_mt "$np"; done
        [ "$vlabel" = default ] || [ "$vlabel" = offload ] && run_mt_mpilevel
        ;;
      valgrind) run_valgrind ;;
      tree | unit | ptl | nochecks | tsan | fuzz | emuhosts | report) ;; # once per suite, above
      mpitraffic | clientcompat) ;; # once per stage, below
      *)
        echo "FAIL: unknown test \"$t\" in TESTS"
        nfail=$((nfail + 1))
        ;;
    esac
  done
  for v in "${saved_env[@]}"; do unset "$v"; done
 done < <(variants_of "$stage")
done

if [[ " $TESTS " == *" mpitraffic "* ]]; then
  stage=unit tag=unit logtag=unit variant_flags=()
  stage_t0=$(date +%s.%N)
  mkdir -p "$LOGDIR/$logtag"
  run_pmpi_selftest
  for stage in $STAGES; do
    tag=$stage logtag=$stage variant_flags=()
    stage_t0=$(date +%s.%N)
    mkdir -p "$LOGDIR/$logtag"
    run_mpitraffic 2
    [ "$stage" = portals ] || [ "$stage" = ucx ] && run_mpitraffic 4
  done
  if [ -f "$LOGDIR/mpitraffic-table.txt" ]; then
    echo "# MPI traffic by phase (conformance; sums over the ranks; tests/pmpi_count.c):"
    printf '# %-16s %2s  %-8s %10s %10s %10s %12s\n' stage np phase calls comm_calls msgs bytes
    sed 's/^/# /' "$LOGDIR/mpitraffic-table.txt"
  fi
fi

if [[ " $TESTS " == *" clientcompat "* ]]; then
  run_clientcompat_all
fi

if [ "$EXIT_TABLE" = 1 ] && [ -f "$LOGDIR/exit-table.md" ]; then
  echo "# exit table: how each job ended (fault | stage | np | exit status | s from the exit call | message)"
  sed 's/^/# /' "$LOGDIR/exit-table.md"
fi
times=""
for np in $(printf '%s\n' "${!np_time[@]}" | sort -n); do times="$times np=$np ${np_time[$np]}s,"; done
echo "# time by process count:${times%,}; total $(fsub "$suite_t0" "$(date +%s.%N)")s (stages: $STAGES)"
echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]
