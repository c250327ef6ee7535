#!/usr/bin/env bash
# hangwatch.sh SECONDS LOG CMD [ARG...] -- run CMD as `timeout -k 5 SECONDS
# CMD` does (its own process group; at the limit SIGTERM to the group, 5 s
# later SIGKILL, to the processes under CMD too; exit status 124 when the
# limit was reached, 137 when the SIGKILL was needed, else CMD's), and
# before stopping a job that reached the limit, record where its processes
# are: every thread's backtrace of every process under CMD but the launcher
# (gdb, when installed) in LOG.stacks, and one line per thread at the end
# of LOG
#     # hang: pid 4242 (stress) thread 1: sched_yield < stp_wait_step < ... < main
# so that a hang seen once in CI says where it was.  Used by
# tests/run-suite.sh and tests/run-gex-tests.sh for every multi-process job,
# and by scripts/emuhosts.sh, whose ranks on other emulated hosts are not
# under CMD: HANGWATCH_NETNS="ns1 ns2 ..." adds the processes in those
# network namespaces (ip netns pids).
set -u
if [ $# -lt 3 ]; then
  echo "usage: hangwatch.sh SECONDS LOG CMD [ARG...]" >&2
  exit 125
fi
to=$1 log=$2
shift 2

# descendants PID: PID and every process below it (Open MPI's launcher puts
# the ranks it starts in process groups of their own)
descendants() {
  ps -e -o pid=,ppid= | awk -v root="$1" '
    { kids[$2] = kids[$2] " " $1 }
    END { n = split(root, q, " "); for (i = 1; i <= n; i++) { print q[i]; m = split(kids[q[i]], k, " "); for (j = 1; j <= m; j++) q[++n] = k[j] } }'
}
# stacks PID: the backtraces, into LOG.stacks and summarized into LOG
stacks() {
  local p comm out
  command -v gdb >/dev/null || { echo "# hang: no stacks (gdb is not installed)" >>"$log"; return; }
  : >"$log.stacks"
  for p in $( { descendants "$1"; for ns in ${HANGWATCH_NETNS:-}; do ip netns pids "$ns" 2>/dev/null; done; } | awk '!seen[$1]++'); do
    comm=$(cat "/proc/$p/comm" 2>/dev/null) || continue
    case $comm in mpirun | orterun | prterun | orted | prted | timeout | hangwatch.sh | bash | gasnetrun_*) continue ;; esac
    out=$(timeout 30 gdb -p "$p" -batch -nx -ex 'set pagination off' -ex 'thread apply all bt' 2>/dev/null)
    printf '=== pid %s (%s)\n%s\n' "$p" "$comm" "$out" >>"$log.stacks"
    # one line per thread that runs our code (the MPI runtime's and UCX's
    # own service threads only in LOG.stacks): its functions, innermost first
    printf '%s\n' "$out" | awk -v pid="$p" -v comm="$comm" '
      function flush() { if (t != "" && f ~ /(^| )(stp_|ptl_|gasnet|gex_|main$)/) print "# hang: pid " pid " (" comm ") thread " t ": " substr(f, 1, 400); f = "" }
      /^Thread [0-9]+ / { flush(); t = $2; next }
      /^#[0-9]+ / { n = $0; sub(/^#[0-9]+ +(0x[0-9a-f]+ in )?/, "", n); sub(/ \(.*/, "", n); f = (f == "" ? n : f " < " n) }
      END { flush() }' >>"$log"
  done
  echo "# hang: every thread's backtrace in $log.stacks" >>"$log"
}

set -m # the job in a process group of its own (as timeout does)
"$@" &
pid=$!
set +m
# the watchdog: at the limit the stacks, then TERM, then KILL; a mark for the status
mark=$(mktemp)
(
  trap 'kill "$s" 2>/dev/null; exit 0' TERM
  sleep "$to" &
  s=$!
  wait "$s"
  kill -0 "$pid" 2>/dev/null || exit 0
  echo 124 >"$mark"
  stacks "$pid"
  all=$(descendants "$pid")
  kill -TERM -- "-$pid" 2>/dev/null
  sleep 5 &
  s=$!
  wait "$s"
  if kill -0 "$pid" 2>/dev/null; then
    echo 137 >"$mark"
    kill -KILL -- "-$pid" 2>/dev/null
  fi
  # (and whatever the launcher left: its ranks are in process groups of their own)
  # shellcheck disable=SC2086
  kill -KILL $all 2>/dev/null
) >/dev/null 2>&1 </dev/null &
wd=$!
wait "$pid" 2>/dev/null
rc=$?
kill "$wd" 2>/dev/null
wait "$wd" 2>/dev/null
if [ -s "$mark" ]; then rc=$(cat "$mark"); fi
rm -f "$mark"
exit "$rc"
