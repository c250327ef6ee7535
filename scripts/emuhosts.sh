#!/usr/bin/env bash
# emuhosts.sh -- run stageport jobs across emulated hosts on one machine, so
# that every byte between hosts crosses TCP.  Run `emuhosts.sh --help`.
#
# Layout (why a bridge and not a veth mesh): every emulated host is a network
# namespace emuhI with one interface, veth0 (IP NET.I/24), whose peer emuhI-v
# is a port of the bridge emubr0 in the root namespace (IP NET.254).  That is
# a switch with one cable per host: one subnet, one interface per host (so
# UCX_NET_DEVICES=veth0 is the same everywhere), and cutting host I off is
# one `ip link set emuhI-v down`.  A mesh would need N(N-1)/2 pairs, and a
# cut would be N-1 links.
#
# mpirun runs ON HOST 1 (in emuh1, hostname emu1, as if logged in there), not
# in the root namespace: then every socket of a job -- mpirun's to its
# daemons, the daemons', the ranks' -- lives in a namespace whose TCP
# settings the script sets (net.ipv4.tcp_retries2 and others, EMU_TCP_*), and
# a cut host is noticed by mpirun as on a real cluster.  The ranks of host 1
# are mpirun's own children (no daemon there), as on the node one runs
# mpirun from.
#
# Hostnames: every process of host I runs in its own UTS namespace named emuI
# (the agent does `unshare --uts` and writes /proc/sys/kernel/hostname), so
# Open MPI's session directories, its node names and gethostname() all differ
# per host; /etc/hosts gets "NET.I emuI" lines (tagged, removed at teardown) so
# mpirun and the daemons resolve the names.
#
# Launch: mpirun --host emu1:P,emu2:P,... with a generated rsh agent (called
# like ssh: [options] HOST COMMAND...) that runs COMMAND in HOST's namespaces
# with a clean environment, as ssh would: a variable reaches the ranks only if
# it is passed with -x, as on real hosts.  mpirun itself also starts with a
# clean environment (plus the -x variables), so the ranks of host 1 see what
# the others see.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)

# ---------------------------------------------------------------- settings
NHOSTS=${EMU_HOSTS:-2}
PPN=${EMU_PPN:-2}
NET=${EMU_NET:-10.77.0}                 # a /24: host I is NET.I, the bridge NET.254
BTL=${EMU_BTL:-tcp,vader,self}
RUNDIR=${EMU_RUNDIR:-/run/emuhosts}
BUILDDIR=${BUILDDIR:-$top/_build}
BINDIR=${BINDIR:-$BUILDDIR/tests}
BENCHDIR=${BENCHDIR:-$BUILDDIR/bench}
LOGDIR=${LOGDIR:-$BUILDDIR/emuhosts-logs}
MPIRUN=${MPIRUN:-mpirun}
SUITE_STAGES=${SUITE_STAGES:-mpi ucx hybrid/offload hybrid/host}
LINKCUT_STAGES=${LINKCUT_STAGES:-$SUITE_STAGES}
LINKCUT_LOADS=${LINKCUT_LOADS:-am_flood putlat}
LINKCUT_MATRIX=${LINKCUT_MATRIX:-all}  # all: every stage x workload; rotate: one workload per stage, in turn
LINKCUT_AFTER=${LINKCUT_AFTER:-5}      # seconds of traffic before the cut
LINKCUT_BOUND=${LINKCUT_BOUND:-60}     # the job must end this long after the cut
LINKCUT_HOST=${LINKCUT_HOST:-2}        # whose link is cut
AMLONG_REPS=${AMLONG_REPS:-5}          # amlong: repetitions (TSR and PSS alternate in each)
AMLONG_MODES=${AMLONG_MODES:-offload host}
AMLONG_ITERS=${AMLONG_ITERS:-2000}
# TCP in every emulated host (per network namespace; see --help)
EMU_TCP_RETRIES2=${EMU_TCP_RETRIES2-5}       # kernel default 15: ~15 min of retransmissions
EMU_TCP_SYN_RETRIES=${EMU_TCP_SYN_RETRIES-2} # kernel default 6: ~2 min per connect to a silent host
EMU_TCP_KEEPALIVE=${EMU_TCP_KEEPALIVE-10 5 3} # time intvl probes; kernel default 7200 75 9
# Open MPI's OOB (mpirun <-> daemons) keepalive: time intvl probes (Open MPI's default 300 20 9)
EMU_OOB_KEEPALIVE=${EMU_OOB_KEEPALIVE-10 5 3}
CONF_TIMEOUT=${CONF_TIMEOUT:-300}
# conformance's per-subtest watchdog (exported: passed to the ranks); off by
# default: a hung job is stopped at its limit by tests/hangwatch.sh, which
# first records every rank's stacks (the watchdog would end it without them)
export CONF_WATCHDOG=${CONF_WATCHDOG:-0}
EXIT_TIMEOUT=${EXIT_TIMEOUT:-30}
CHECK_TIMEOUT=${CHECK_TIMEOUT:-60}
STRESS_OPS=${STRESS_OPS:-5000}         # tests/stress in suite: operations per node
STRESS_SEED=${STRESS_SEED:-12345}
# A job ends within EXIT_BOUND s of gasnet_exit (run-suite.sh: 5 s on one
# host), within CRASH_BOUND s of a crash.  Across hosts Open MPI's daemons
# take whole seconds more to wind down: exit_barrier ended 0.06 s after the
# exit call on one host, 1.1, 2.1 or 3.1 s (4.1 s once) after it across two
# emulated hosts, whatever STAGEPORT_EXIT_TIMEOUT was; hence 8 s here.
EXIT_BOUND=8
CRASH_BOUND=10

BR=emubr0
VIN=veth0                               # the host's interface, inside its namespace
MARK="# emuhosts.sh"                    # tags our /etc/hosts lines
ns_of() { echo "emuh$1"; }              # namespace of host I
name_of() { echo "emu$1"; }             # its hostname
ip_of() { echo "$NET.$1"; }
port_of() { echo "emuh$1-v"; }          # its cable's end on the bridge

usage() {
  cat <<EOF
usage: bash scripts/emuhosts.sh [--help] COMMAND

Runs stageport jobs across EMULATED HOSTS on this machine: N network
namespaces emuh1..emuhN (hostnames emu1..emuN, IPs $NET.1..N on veth0),
each cabled by a veth pair to the bridge $BR ($NET.254) in the root
namespace.  mpirun runs on host 1 (in emuh1, hostname emu1) and starts its
daemons on the other hosts through a generated ssh stand-in
($RUNDIR/agent); MPI uses the tcp BTL between hosts (--mca btl $BTL;
vader only among ranks of one host), UCX uses UCX_TLS=tcp,self on veth0, so
every byte between hosts crosses TCP.  Every host's TCP gives up on a
silent peer within seconds, not the kernel's minutes (EMU_TCP_*, below), and
so does Open MPI's OOB (EMU_OOB_KEEPALIVE): a host cut off ends the job.
Needs root, iproute2 (ip), util-linux (unshare, flock), coreutils (timeout),
procps (sysctl), Open MPI (openmpi-bin).

commands:
  setup            create the hosts (removes leftovers of an earlier run first)
  teardown         remove them: processes in the namespaces, namespaces, veths,
                   bridge, /etc/hosts lines, $RUNDIR
  check            print where every rank runs (hostname, network namespace,
                   IP) and check: one namespace and hostname per host, MPI
                   cross-host pairs on the tcp BTL, UCX endpoints on tcp/self
                   only, gasnet_getNodeInfo agreeing with the hostnames
  run -- CMD...    one mpirun across the hosts (np = hosts x EMU_PPN unless CMD
                   says -np), its output on the terminal, its exit status;
                   CMD may start with more mpirun options.  Set-up kept if one
                   exists (from \`setup\`), else made and removed at the end
  suite            check, then per stage in SUITE_STAGES: conformance, stress,
                   exittest exit_barrier, exit_inflight_am (AMs in flight at
                   the exit: their puts must land before the exit notices) and
                   crash_segv at hosts x EMU_PPN ranks, one
                   PASS/FAIL line each (as tests/run-suite.sh), "N passed, N failed"
  linkcut          per stage and workload: start a long job, cut host
                   $LINKCUT_HOST's link after ${LINKCUT_AFTER}s; the job must end (non-zero, with
                   an error message) within ${LINKCUT_BOUND}s; prints the time and messages
  amlong           seed 002 across the network: stpbench amlong (ping-pong),
                   amlongbw (flood) and aminject (injection vs queue depth)
                   of the portals stage, 4-64 KiB, one rank per host,
                   STAGEPORT_AM_LONG=tsr and =pss alternating, AMLONG_REPS
                   times per ptl mode; prints medians and TSR/PSS (on one
                   host PSS's ACK is a local flush: the network is where
                   seed 002's difference is)
  (suite, linkcut and amlong set up afresh and always tear down at the end)

environment (all optional):
  EMU_HOSTS=$NHOSTS (1..4)  EMU_PPN=$PPN (processes per host)  EMU_NET=$NET (a /24)
  EMU_BTL=$BTL  (tcp,self: even ranks of one host talk TCP)
  BUILDDIR=$BUILDDIR  (tests from BINDIR=BUILDDIR/tests,
          stpbench from BENCHDIR=BUILDDIR/bench)
  LOGDIR=BUILDDIR/emuhosts-logs  MPIRUN=$MPIRUN
  STAGEPORT_STAGE, STAGEPORT_*, UCX_*, CONF_*, PTL_*: passed to the ranks
          with -x (run); UCX_TLS defaults to tcp,self, UCX_NET_DEVICES to veth0
  SUITE_STAGES="$SUITE_STAGES"   (stage or stage/ptlmode)
  STRESS_OPS=$STRESS_OPS STRESS_SEED=$STRESS_SEED  (tests/stress in suite)
  CONF_TIMEOUT=$CONF_TIMEOUT EXIT_TIMEOUT=$EXIT_TIMEOUT CHECK_TIMEOUT=$CHECK_TIMEOUT  (seconds per job, timeout -k 5)
  CONF_WATCHDOG=$CONF_WATCHDOG  conformance's per-subtest watchdog in suite (seconds;
          0 = off: a job at its limit is stopped by tests/hangwatch.sh,
          which first writes every rank's stacks to LOG.stacks)
  LINKCUT_STAGES=SUITE_STAGES  LINKCUT_LOADS="$LINKCUT_LOADS"
          am_flood: conformance am_flood, CONF_FLOOD=10^7, watchdog off,
                    hosts x EMU_PPN ranks (Active Messages: MPI in every stage)
          putlat:   stpbench blocking 8-byte puts, one rank per host, node 0
                    on emu1 -> node 1 on emu2 (the stage's Put path: UCX
                    RMA in ucx and hybrid)
          the job must end by itself: the script stops it (SIGTERM, then
          SIGKILL) only after LINKCUT_BOUND, and that is a FAIL (HANG)
  LINKCUT_MATRIX=$LINKCUT_MATRIX  all: every stage with every workload; rotate: the
          k-th stage of LINKCUT_STAGES with the (k mod n)-th of the n
          LINKCUT_LOADS only (tests/run-suite.sh's emuhosts: each ~35 s job
          is one stage's cut, every workload still runs, on half the stages)
  LINKCUT_AFTER=$LINKCUT_AFTER LINKCUT_BOUND=$LINKCUT_BOUND LINKCUT_HOST=$LINKCUT_HOST
  AMLONG_REPS=$AMLONG_REPS AMLONG_MODES="$AMLONG_MODES" AMLONG_ITERS=$AMLONG_ITERS (amlong; logs in LOGDIR/amlong)
  TCP inside every emulated host (mpirun's too: it runs on emu1), set with
  sysctl in each namespace at setup; empty = the kernel's default:
  EMU_TCP_RETRIES2="$EMU_TCP_RETRIES2"  net.ipv4.tcp_retries2: an established socket with
          unacknowledged data fails after this many retransmissions (5:
          about 13 s; the kernel's 15: about 15 minutes)
  EMU_TCP_SYN_RETRIES="$EMU_TCP_SYN_RETRIES"  net.ipv4.tcp_syn_retries: a connect to a silent
          host fails after this many SYN retransmissions (2: 7 s; 6: 127 s)
  EMU_TCP_KEEPALIVE="$EMU_TCP_KEEPALIVE"  net.ipv4.tcp_keepalive_{time,intvl,probes}, for
          sockets that turn keepalive on without their own values (UCX sets
          its own idle time and interval, UCX_TCP_KEEP*, and takes the count
          from here); an idle socket to a silent peer fails after
          time + intvl x probes seconds
  EMU_OOB_KEEPALIVE="$EMU_OOB_KEEPALIVE"  Open MPI's oob_tcp_keepalive_{time,intvl,probes}
          (mpirun <-> daemons, idle most of a job; Open MPI's default
          300 20 9: 8 minutes), empty = Open MPI's.  When mpirun's
          connection to a daemon fails, mpirun ends the job ("ORTE has lost
          communication with a remote daemon")

by hand:
  bash scripts/emuhosts.sh setup
  STAGEPORT_STAGE=ucx bash scripts/emuhosts.sh run -- _build/tests/conformance nodeinfo
  bash scripts/emuhosts.sh run -- -np 2 --display-map hostname
  ip netns exec emuh1 ss -tno                 # host 1's TCP connections (and timers)
  ip link set emuh2-v down                    # cut host 2 off (up: reconnect)
  bash scripts/emuhosts.sh teardown
EOF
}

say() { echo "emuhosts: $*"; }
die() { echo "emuhosts: error: $*" >&2; exit 1; }
now() { date +%s.%N; }
fsub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

need_tools() {
  [ "$(id -u)" = 0 ] || die "needs root (network namespaces, veths, /etc/hosts)"
  local t
  for t in ip:iproute2 unshare:util-linux flock:util-linux timeout:coreutils awk:mawk; do
    command -v "${t%%:*}" >/dev/null 2>&1 || die "${t%%:*} not found (Debian package ${t#*:})"
  done
  command -v "$MPIRUN" >/dev/null 2>&1 || die "no $MPIRUN (Debian package openmpi-bin)"
  "$MPIRUN" --version 2>&1 | grep -qi 'open mpi\|openrte' || die "$MPIRUN is not Open MPI (the agent and flags are Open MPI's)"
  case $NHOSTS in [1-4]) ;; *) die "EMU_HOSTS=$NHOSTS: 1 to 4 hosts" ;; esac
  [[ $PPN =~ ^[1-9][0-9]*$ ]] || die "EMU_PPN=$PPN: a positive number"
  [[ $NET =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "EMU_NET=$NET: three octets, e.g. 10.77.0"
  command -v sysctl >/dev/null 2>&1 || die "sysctl not found (Debian package procps)"
  local k
  for k in "$EMU_TCP_RETRIES2" "$EMU_TCP_SYN_RETRIES"; do
    [[ $k =~ ^[0-9]*$ ]] || die "EMU_TCP_RETRIES2, EMU_TCP_SYN_RETRIES: a number or empty"
  done
  for k in "$EMU_TCP_KEEPALIVE" "$EMU_OOB_KEEPALIVE"; do
    [[ $k =~ ^([1-9][0-9]*\ [1-9][0-9]*\ [1-9][0-9]*)?$ ]] || die "EMU_TCP_KEEPALIVE, EMU_OOB_KEEPALIVE: \"time intvl probes\" (3 positive numbers) or empty"
  done
  # one emuhosts.sh at a time: a second one's set-up would tear down the
  # first one's hosts under its jobs
  exec 9>"$RUNDIR.lock"
  flock -n 9 || die "another emuhosts.sh is running (lock $RUNDIR.lock)"
}

# mpirun refuses root without these
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# ---------------------------------------------------------------- set-up / teardown
# pids of the processes in a namespace (ranks, orted, agent children)
ns_pids() { ip netns pids "$1" 2>/dev/null; }

# kill_ns NS: SIGKILL what runs in it (only our jobs run there); prints how
# many there were
kill_ns() {
  local pids n=0 i
  pids=$(ns_pids "$1")
  if [ -n "$pids" ]; then
    n=$(echo "$pids" | wc -w)
    # shellcheck disable=SC2086
    kill -KILL $pids 2>/dev/null
    for i in $(seq 20); do [ -z "$(ns_pids "$1")" ] && break; sleep 0.1; done
  fi
  echo "$n"
}

hosts_remove() {
  # rewrite in place (cat >), not sed -i: /etc/hosts may be a bind mount,
  # which a rename cannot replace
  if grep -q -- "$MARK" /etc/hosts 2>/dev/null; then
    local keep
    keep=$(grep -v -- "$MARK" /etc/hosts)
    printf '%s\n' "$keep" >/etc/hosts
  fi
}
hosts_add() {
  local i
  for i in $(seq "$NHOSTS"); do
    if grep -v -- "$MARK" /etc/hosts | grep -qw "$(name_of "$i")"; then
      die "/etc/hosts already names $(name_of "$i") (not ours): remove that line first"
    fi
  done
  [ -z "$(tail -c 1 /etc/hosts)" ] || echo >>/etc/hosts # (a last line without its newline)
  for i in $(seq "$NHOSTS"); do echo "$(ip_of "$i") $(name_of "$i") $MARK"; done >>/etc/hosts
}

teardown() {
  local ns dev n
  for ns in $(ip netns list 2>/dev/null | awk '{ print $1 }' | grep -E '^emuh[0-9]+$'); do
    n=$(kill_ns "$ns")
    [ "$n" = 0 ] || say "teardown: killed $n processes left in $ns"
  done
  # the root-side ends first: deleting a namespace frees its veth only
  # later (asynchronously), deleting either end of a pair removes both now
  for dev in $(ip -o link show 2>/dev/null | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }' | grep -E '^emuh[0-9]+-v$'); do
    ip link del "$dev" 2>/dev/null
  done
  for ns in $(ip netns list 2>/dev/null | awk '{ print $1 }' | grep -E '^emuh[0-9]+$'); do
    ip netns del "$ns" 2>/dev/null
  done
  ip link del "$BR" 2>/dev/null
  hosts_remove
  rm -rf "$RUNDIR"
}

# the ssh stand-in Open MPI's rsh launcher calls: [ssh options] HOST CMD...
write_agent() {
  local i map=""
  for i in $(seq "$NHOSTS"); do
    map+="    $(name_of "$i") | $(ip_of "$i")) ns=$(ns_of "$i") name=$(name_of "$i") ;;"$'\n'
  done
  cat >"$RUNDIR/agent" <<EOF
#!/bin/bash
# Generated by emuhosts.sh: called by Open MPI like ssh, runs the command in
# the emulated host's network namespace and a UTS namespace of its own.
set -u
echo "\$(date +%T.%N) called: \$*" >>"$RUNDIR/agent.log"
# ssh options: Open MPI passes some (plm_rsh_args; -x for an agent named ssh);
# the ones taking a separate argument skip two words
while [ \$# -gt 0 ]; do
  case \$1 in
    --) shift; break ;;
    -[BbcDEeFIiJLlmOoPpQRSWw]) shift 2 ;;
    -*) shift ;;
    *) break ;;
  esac
done
host=\${1:-}
[ -n "\$host" ] || { echo "emuhosts agent: no host" >&2; exit 255; }
shift
host=\${host#*@}
case \$host in
$map    *) echo "emuhosts agent: \$host is not an emulated host" >&2; exit 255 ;;
esac
[ \$# -gt 0 ] || { echo "emuhosts agent: \$host: no command (no interactive logins)" >&2; exit 255; }
echo "\$(date +%T.%N) runs in \$ns as \$name: \$*" >>"$RUNDIR/agent.log"
# like ssh: the words joined into one command line for the shell, a clean
# environment (only what mpirun puts on the command line or -x passes on);
# ip netns exec (not nsenter) also mounts the namespace's /sys, where UCX
# looks for network devices
exec ip netns exec "\$ns" unshare --uts -- \\
  env -i PATH="$PATH" HOME="\${HOME:-/root}" USER=root LOGNAME=root SHELL=/bin/bash LANG=C.UTF-8 \\
  /bin/bash -c 'echo "\$0" >/proc/sys/kernel/hostname || exit 255; exec /bin/bash -c "\$1"' "\$name" "\$*"
EOF
  chmod 755 "$RUNDIR/agent"
  # a per-rank report for `check`
  cat >"$RUNDIR/rankinfo" <<EOF
#!/bin/bash
echo "EMUCHECK rank=\${OMPI_COMM_WORLD_RANK:-?} host=\$(cat /proc/sys/kernel/hostname) net=\$(readlink /proc/self/ns/net) uts=\$(readlink /proc/self/ns/uts) ip=\$(ip -4 -o addr show dev $VIN 2>/dev/null | awk '{ print \$4 }' | head -n 1)"
EOF
  chmod 755 "$RUNDIR/rankinfo"
}

# can_reach NS|- IP: a TCP connect to a closed port -- "refused" means the
# packet got there and back (no listener needed, no ping installed)
# ns_sysctls NS: the EMU_TCP_* settings in NS (empty ones: the kernel's)
ns_sysctls() {
  local a=() k
  [ -z "$EMU_TCP_RETRIES2" ] || a+=(net.ipv4.tcp_retries2="$EMU_TCP_RETRIES2")
  [ -z "$EMU_TCP_SYN_RETRIES" ] || a+=(net.ipv4.tcp_syn_retries="$EMU_TCP_SYN_RETRIES")
  if [ -n "$EMU_TCP_KEEPALIVE" ]; then
    read -r -a k <<<"$EMU_TCP_KEEPALIVE"
    a+=(net.ipv4.tcp_keepalive_time="${k[0]}" net.ipv4.tcp_keepalive_intvl="${k[1]}" net.ipv4.tcp_keepalive_probes="${k[2]}")
  fi
  [ ${#a[@]} = 0 ] || ip netns exec "$1" sysctl -q -w "${a[@]}" || die "cannot set ${a[*]} in $1"
}

can_reach() {
  local out pre=()
  [ "$1" = - ] || pre=(ip netns exec "$1")
  out=$(timeout -k 1 3 "${pre[@]}" bash -c ": </dev/tcp/$2/9" 2>&1)
  [[ $out == *"Connection refused"* ]]
}

setup() {
  local i j
  teardown
  # a namespace deleted just now may still hold its veth for a moment
  for i in $(seq 50); do ip -o link show | grep -q ': emuh[0-9]*-v@' || break; sleep 0.1; done
  mkdir -p "$RUNDIR" || die "cannot create $RUNDIR"
  ip link add "$BR" type bridge || die "cannot create the bridge $BR"
  if ! { ip addr add "$NET.254/24" dev "$BR" && ip link set "$BR" up; }; then die "cannot configure $BR"; fi
  for i in $(seq "$NHOSTS"); do
    local ns port
    ns=$(ns_of "$i") port=$(port_of "$i")
    ip netns add "$ns" || die "cannot create namespace $ns"
    ip link add "$port" type veth peer name "$VIN" netns "$ns" || die "cannot create the veth pair $port/$ns:$VIN"
    ip link set "$port" master "$BR" up || die "cannot attach $port to $BR"
    # loopback too: PMIx and Open MPI use it inside a host
    if ! { ip -n "$ns" addr add "$(ip_of "$i")/24" dev "$VIN" && ip -n "$ns" link set "$VIN" up &&
      ip -n "$ns" link set lo up; }; then die "cannot configure $ns"; fi
    # how long TCP tries a silent peer before a socket fails: per network
    # namespace, and every process of a job (mpirun too) is in one of these
    ns_sysctls "$ns"
  done
  hosts_add
  write_agent
  echo "$NHOSTS" >"$RUNDIR/nhosts"
  # every host reaches mpirun's side and every other host
  for i in $(seq "$NHOSTS"); do
    can_reach "$(ns_of "$i")" "$NET.254" || die "$(ns_of "$i") cannot reach the bridge $NET.254"
    can_reach - "$(ip_of "$i")" || die "the root namespace cannot reach $(ip_of "$i")"
    for j in $(seq "$NHOSTS"); do
      [ "$i" = "$j" ] || can_reach "$(ns_of "$i")" "$(ip_of "$j")" || die "$(ns_of "$i") cannot reach $(ip_of "$j")"
    done
  done
}

set_up_now() { # is a set-up for NHOSTS hosts in place?
  [ -x "$RUNDIR/agent" ] && [ "$(cat "$RUNDIR/nhosts" 2>/dev/null)" = "$NHOSTS" ] &&
    ip link show "$BR" >/dev/null 2>&1 && ip netns list | grep -qw "$(ns_of "$NHOSTS")"
}

# ---------------------------------------------------------------- jobs
# mpi_flags P [NH]: for a job over NH hosts with P processes each, sets
# LAUNCH (how to start mpirun: on host 1, see the top) and FLAGS (its
# options); the job is "${LAUNCH[@]}" "${FLAGS[@]}" [-np N] CMD...
mpi_flags() {
  local p=$1 nh=${2:-$NHOSTS} i hostlist="" v envs=()
  for i in $(seq "$nh"); do hostlist+="${hostlist:+,}$(name_of "$i"):$p"; done
  FLAGS=(--host "$hostlist"
    --mca plm_rsh_agent "$RUNDIR/agent"
    # mpirun starts every daemon itself (no daemon starts another one)
    --mca plm_rsh_no_tree_spawn 1
    # MPI over ob1 and the BTLs (not pml ucx, which has its own transports);
    # TCP only on the emulated network, for MPI and for Open MPI's own OOB
    --mca pml ob1 --mca btl "$BTL"
    --mca btl_tcp_if_include "$NET.0/24" --mca oob_tcp_if_include "$NET.0/24"
    # 2 cores for all: ranks must be free to move (the library yields)
    --bind-to none)
  # mpirun <-> daemons: give up on a silent daemon within seconds, not minutes
  if [ -n "$EMU_OOB_KEEPALIVE" ]; then
    local k
    read -r -a k <<<"$EMU_OOB_KEEPALIVE"
    FLAGS+=(--mca oob_tcp_keepalive_time "${k[0]}" --mca oob_tcp_keepalive_intvl "${k[1]}" --mca oob_tcp_keepalive_probes "${k[2]}")
  fi
  # the ranks get only what -x passes (the agent cleans the environment,
  # and mpirun starts with a clean one plus these)
  for v in $(compgen -e | grep -E '^(STAGEPORT_|UCX_|CONF_|PTL_|STP_TEST_)' | sort); do
    FLAGS+=(-x "$v") envs+=("$v=${!v}")
  done
  # mpirun on host 1: its network namespace, a UTS namespace of its own named
  # as the host (mpirun then knows emu1 as its own node and starts the ranks
  # there itself), an environment as after an ssh login, as the agent's
  # shellcheck disable=SC2016 # ($0 and $@ are the inner shell's)
  LAUNCH=(ip netns exec "$(ns_of 1)" unshare --uts --
    env -i PATH="$PATH" HOME="${HOME:-/root}" USER=root LOGNAME=root SHELL=/bin/bash LANG=C.UTF-8
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "${envs[@]}"
    /bin/bash -c 'echo "$0" >/proc/sys/kernel/hostname || exit 255; exec "$@"' "$(name_of 1)" "$MPIRUN")
}

# stage_env TAG: the environment of a stage tag (mpi, ucx, hybrid/offload, ...)
stage_env() {
  unset STAGEPORT_PTL_MODE
  export STAGEPORT_STAGE=${1%%/*}
  [[ $1 == */* ]] && export STAGEPORT_PTL_MODE=${1#*/}
  # UCX: TCP only (its shared-memory transports would reach across the
  # namespaces: /dev/shm and the kernel are shared), on the host's veth only
  # (its loopback would look like a path to every host)
  export UCX_TLS=tcp,self UCX_NET_DEVICES=$VIN UCX_WARN_UNUSED_ENV_VARS=n
  export STP_TEST_GETENV="conformance value with spaces=1:2" # conformance's "getenv"
}

bytes_sent() { # by all hosts over their cables, so far
  local i s=0
  for i in $(seq "$NHOSTS"); do
    s=$((s + $(cat "/sys/class/net/$(port_of "$i")/statistics/rx_bytes" 2>/dev/null || echo 0)))
  done
  echo "$s"
}

JOBPID=""
# stop_job: end the background job (the timeout process leads its own
# process group: mpirun and the agents are in it; the daemons are not, they
# are left to kill_ns)
STOP_HOW=""
stop_job() {
  [ -n "$JOBPID" ] || return 0
  local i rc
  kill -TERM "$JOBPID" 2>/dev/null
  for i in $(seq 150); do kill -0 "$JOBPID" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$JOBPID" 2>/dev/null && kill -KILL -- "-$JOBPID" 2>/dev/null
  wait "$JOBPID"
  rc=$?
  JOBPID=""
  # timeout passes SIGTERM on to mpirun and SIGKILLs it 5 s later (-k 5)
  case $rc in
    137) STOP_HOW="SIGTERM; mpirun still running 5s later, so SIGKILL" ;;
    *) STOP_HOW="SIGTERM; mpirun ended with status $rc" ;;
  esac
}

# clean_hosts: kill what a job left in the namespaces; sets LEFT ("" or
# "emu2: 3 processes ...").  Daemons exit a moment after mpirun: wait 3 s first.
clean_hosts() {
  local i j n
  LEFT=""
  for i in $(seq 30); do
    n=0
    for j in $(seq "$NHOSTS"); do [ -z "$(ns_pids "$(ns_of "$j")")" ] || n=1; done
    [ "$n" = 0 ] && return
    sleep 0.1
  done
  for i in $(seq "$NHOSTS"); do
    local what
    what=$(ns_pids "$(ns_of "$i")" | xargs -r ps -o comm= -p 2>/dev/null | sort | uniq -c | awk '{ printf "%s%s x%s", s, $2, $1; s = ", " }')
    n=$(kill_ns "$(ns_of "$i")")
    [ "$n" = 0 ] || LEFT+="${LEFT:+; }$(name_of "$i"): $n ($what)"
  done
}

# run_job TIMEOUT LOG P CMD...: one mpirun over the hosts, P processes each;
# sets RC, T_END, ELAPSED, MB (how much the hosts sent: "1.2 MiB"), LEFT
run_job() {
  local to=$1 log=$2 p=$3 t0 b0
  shift 3
  mpi_flags "$p"
  t0=$(now) b0=$(bytes_sent)
  # in the background, so that Ctrl-C (trapped) interrupts the wait; as
  # timeout -k 5, but a job stopped at its limit leaves its ranks' stacks
  # in LOG.stacks and a line per thread at the end of LOG
  HANGWATCH_NETNS="$(for i in $(seq "$NHOSTS"); do ns_of "$i"; done | tr '\n' ' ')" \
    bash "$top/tests/hangwatch.sh" "$to" "$log" "${LAUNCH[@]}" "${FLAGS[@]}" -np $((NHOSTS * p)) "$@" >"$log" 2>&1 </dev/null &
  JOBPID=$!
  wait "$JOBPID"
  RC=$?
  JOBPID=""
  T_END=$(now)
  ELAPSED=$(fsub "$t0" "$T_END")
  JOB_TIMEOUT=$to
  MB=$(awk -v a="$b0" -v b="$(bytes_sent)" 'BEGIN { d = b - a; if (d >= 1048576) printf "%.1f MiB", d / 1048576; else printf "%.0f KiB", d / 1024 }')
  clean_hosts
}
timed_out() {
  [ "$RC" = 124 ] || { [ "$RC" = 137 ] && awk -v e="$ELAPSED" -v t="$JOB_TIMEOUT" 'BEGIN { exit !(e >= t) }'; }
}

npass=0 nfail=0
pass() { # name [note]
  echo "PASS stage=$tag np=$NP hosts=${NHOSTS}x$PPN $1 [${ELAPSED}s]${2:+ $2}"
  npass=$((npass + 1))
}
fail() { # name reason log [pattern]
  echo "FAIL stage=$tag np=$NP hosts=${NHOSTS}x$PPN $1 ($2) [${ELAPSED}s]"
  nfail=$((nfail + 1))
  if [ -n "${4:-}" ] && grep -qE "$4" "$3"; then
    grep -E "$4" "$3" | head -n 30 | sed 's/^/    | /'
    echo "    | ... last lines:"
  fi
  tail -n 20 "$3" | sed 's/^/    | /'
  echo "    (full output: $3)"
}
traffic_note() { echo "(${MB} over the hosts' links${LEFT:+; killed leftovers: $LEFT})"; }

# ---------------------------------------------------------------- check
# check: where the ranks run, and which transports cross the hosts
do_check() {
  local log="$LOGDIR/check" ok=1 root_net
  mkdir -p "$log"
  tag=check NP=$((NHOSTS * PPN))
  root_net=$(readlink /proc/self/ns/net)
  # 1. hostnames, namespaces, IPs per rank
  stage_env mpi
  run_job "$CHECK_TIMEOUT" "$log/ranks.log" "$PPN" "$RUNDIR/rankinfo"
  grep '^EMUCHECK' "$log/ranks.log" | sort -t= -k2 -n | sed 's/^EMUCHECK /# check: /'
  local bad
  bad=$(grep '^EMUCHECK' "$log/ranks.log" | awk -v ppn="$PPN" -v nh="$NHOSTS" -v net="$NET" -v root="$root_net" '
    { for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
      n++; h = int(f["rank"] / ppn) + 1
      if (f["host"] != "emu" h) print "rank " f["rank"] " on " f["host"] ", expected emu" h
      if (f["ip"] != net "." h "/24") print "rank " f["rank"] " has IP " f["ip"] ", expected " net "." h "/24"
      if (f["net"] == root) print "rank " f["rank"] " runs in the root network namespace"
      if (!(f["host"] in nets)) { nets[f["host"]] = f["net"]; nnet[f["net"]]++; uts[f["uts"]]++; hosts++ }
      else if (nets[f["host"]] != f["net"]) print "host " f["host"] " has two network namespaces" }
    END { if (n != nh * ppn) print n " ranks reported, expected " nh * ppn
          if (hosts != nh) print hosts " hostnames, expected " nh
          if (length(nnet) != nh) print length(nnet) " network namespaces, expected " nh
          if (length(uts) != nh) print length(uts) " UTS namespaces, expected " nh }')
  if [ "$RC" != 0 ] || [ -n "$bad" ]; then
    echo "FAIL check ranks (exit status $RC${bad:+; $(echo "$bad" | paste -sd ';')}) [${ELAPSED}s]"
    tail -n 20 "$log/ranks.log" | sed 's/^/    | /'
    nfail=$((nfail + 1)) ok=0
  else
    echo "PASS check ranks ($NHOSTS hosts: $NHOSTS hostnames, $NHOSTS network and $NHOSTS UTS namespaces, none the root's $root_net) [${ELAPSED}s]"
    npass=$((npass + 1))
  fi
  # 2. transports, per stage: Open MPI's BTL choice per peer (btl_base_verbose
  # prints "bml: Using B btl for send to [[j,1],R] on node H"), UCX's endpoint
  # configurations (UCX_LOG_LEVEL=info prints "ep_cfg[i]: ...(tl/dev)"), and
  # the nodeinfo subtest: gasnet_getNodeInfo's host ids agree with the host
  # names (equal ids iff equal names), so the library sees NHOSTS hosts
  local st
  for st in mpi ucx hybrid; do
    stage_env "$st"
    export UCX_LOG_LEVEL=info
    run_job "$CHECK_TIMEOUT" "$log/transport-$st.log" "$PPN" --mca btl_base_verbose 100 "$BINDIR/conformance" nodeinfo am_short_args put_blocking
    unset UCX_LOG_LEVEL
    local f="$log/transport-$st.log" btl ucx why=""
    btl=$(grep -o '^\[[^]:]*:[0-9]*\] mca: bml: Using [a-z]* btl for send to .* on node [^ ]*' "$f" |
      awk '{ split(substr($1, 2), a, ":"); from = a[1]; to = $NF; b = $5
             k = (from == to ? "same-host" : "cross-host") " " b; c[k]++
             if (from != to && b != "tcp") bad++ }
           END { for (k in c) printf "%s%s x%d", (s++ ? ", " : ""), k, c[k]; if (bad) printf " BAD"
                 if (!s) printf "none" }')
    ucx=$(grep -o 'ep_cfg\[[0-9]*\]: .*' "$f" | grep -o '([^)]*)' | tr -d '()' | tr -s ' ,' '\n' |
      grep . | sed 's/^[a-z_]*://' | sort | uniq -c | awk '{ printf "%s%s x%d", (s++ ? ", " : ""), $2, $1 }')
    [ "$RC" = 0 ] || why+="exit status $RC; "
    grep -q '^ok nodeinfo' "$f" || why+="nodeinfo not ok; "
    [[ $btl == *BAD* ]] && why+="a cross-host MPI pair not on tcp; "
    [[ $btl == none ]] && why+="no BTL choice printed; "
    if [ "$st" != mpi ]; then
      [ -n "$ucx" ] || why+="no UCX endpoint configuration printed; "
      echo "$ucx" | tr ',' '\n' | awk '{ print $1 }' | grep -qvE "^(tcp/$VIN|self/memory[0-9]*)$" &&
        why+="a UCX endpoint not on tcp/$VIN or self; "
    fi
    if [ -z "$why" ]; then
      echo "PASS check transports stage=$st (nodeinfo ok; MPI: $btl${ucx:+; UCX lanes: $ucx}) [${ELAPSED}s]"
      npass=$((npass + 1))
    else
      echo "FAIL check transports stage=$st (${why%; }; MPI: $btl; UCX lanes: ${ucx:-none}) [${ELAPSED}s]"
      grep -E '^FAIL|ok nodeinfo' "$f" | head -n 10 | sed 's/^/    | /'
      echo "    (full output: $f)"
      nfail=$((nfail + 1)) ok=0
    fi
  done
  [ "$ok" = 1 ]
}

# ---------------------------------------------------------------- suite
# judged as tests/run-suite.sh judges them
run_conformance() {
  local name=conformance log="$LOGDIR/$logtag/conformance.log" want oks fails used
  want=$("$BINDIR/conformance" --list | awk '/^  [a-z]/' | wc -l)
  run_job "$CONF_TIMEOUT" "$log" "$PPN" "$BINDIR/conformance"
  oks=$(grep -c '^ok ' "$log")
  fails=$(grep -c '^FAIL ' "$log")
  used=$(sed -n 's/^# conformance: stage=\([^ ]*\).*/\1/p' "$log" | head -n 1)
  if timed_out; then
    fail "$name" "timeout after ${CONF_TIMEOUT}s: hang; $oks of $want subtests passed before it" "$log" '^(FAIL |# hang)'
  elif [ "$fails" -gt 0 ]; then
    fail "$name" "$fails FAIL lines, exit status $RC" "$log" '^FAIL '
  elif [ "$RC" != 0 ]; then
    fail "$name" "exit status $RC" "$log"
  elif [ "$oks" != "$want" ]; then
    fail "$name" "$oks subtests reported ok, expected $want" "$log"
  elif [ "$used" != "$STAGEPORT_STAGE" ]; then
    fail "$name" "ran stage \"$used\", not \"$STAGEPORT_STAGE\"" "$log"
  elif [ -n "$LEFT" ]; then
    fail "$name" "processes left running after the job: $LEFT" "$log"
  else
    pass "$name" "$(traffic_note)"
  fi
}

run_exittest() { # mode
  local mode=$1 name="exittest:$1" log="$LOGDIR/$logtag/exittest-$1.log" want bound=$EXIT_BOUND ender=$((NP - 1))
  case $mode in
    exit_barrier) want=7 ;;
    exit_inflight_am) want=0 ender="" ;; # (a clean exit names no node)
    crash_*) want=nonzero bound=$CRASH_BOUND ;;
    *) die "run_exittest: mode $mode not judged here" ;;
  esac
  run_job "$EXIT_TIMEOUT" "$log" "$PPN" "$BINDIR/exittest" "$mode"
  local at late=""
  at=$(grep -o 'EXIT_AT [0-9.]*' "$log" | head -n 1 | cut -d' ' -f2)
  [ -z "$at" ] || late=$(awk -v a="$at" -v b="$T_END" -v m="$bound" 'BEGIN { d = b - a; if (d > m) printf "%.1f", d }')
  if timed_out; then
    fail "$name" "timeout after ${EXIT_TIMEOUT}s: the job did not end" "$log"
  elif [ "$want" = nonzero ] && [ "$RC" = 0 ]; then
    fail "$name" "exit status 0, expected non-zero" "$log"
  elif [ "$want" != nonzero ] && [ "$RC" != "$want" ]; then
    fail "$name" "exit status $RC, expected $want" "$log"
  elif [ -z "$at" ]; then
    fail "$name" "no EXIT_AT line: the ending node did not get to its exit call" "$log"
  elif [ -n "$late" ]; then
    fail "$name" "the job ended ${late}s after the exit call, more than ${bound}s" "$log"
  elif grep -q 'exittest: node .*: \(left\|computed\)' "$log"; then
    fail "$name" "a node kept running after the job should have ended" "$log"
  elif [ -n "$ender" ] && ! grep -Eq "stageport: node $ender:|rank ${ender}[^0-9]" "$log"; then
    fail "$name" "no message names node $ender, which ended the job" "$log"
  elif [ -z "$ender" ] && grep -Eqi 'stageport: .*(fatal|error)|UCX +ERROR' "$log"; then
    fail "$name" "an error was reported in a job that ended cleanly" "$log"
  elif [ -n "$LEFT" ]; then
    fail "$name" "processes left running after the job: $LEFT" "$log"
  else
    local what="exit call"
    [[ $mode == crash_* ]] && what=crash
    pass "$name" "(ended $(awk -v a="$at" -v b="$T_END" 'BEGIN { printf "%.1f", b - a }')s after the $what; $(traffic_note | tr -d '()'))"
  fi
}

run_stress() {
  local name=stress log="$LOGDIR/$logtag/stress.log"
  run_job "$CONF_TIMEOUT" "$log" "$PPN" "$BINDIR/stress" --seed "$STRESS_SEED" --ops "$STRESS_OPS" \
    --timeout $((CONF_TIMEOUT + 60)) # (the job's limit comes first: hangwatch's stacks)
  if timed_out; then
    fail "$name" "timeout after ${CONF_TIMEOUT}s: hang (seed $STRESS_SEED)" "$log" '^(FAIL|# hang)'
  elif [ "$RC" != 0 ] || ! grep -q '^ok stress' "$log"; then
    fail "$name" "exit status $RC (seed $STRESS_SEED)" "$log" '^FAIL'
  elif [ -n "$LEFT" ]; then
    fail "$name" "processes left running after the job: $LEFT" "$log"
  else
    pass "$name" "(seed $STRESS_SEED, $(sed -n 's/^ok stress: .*\(ops=[0-9]*\).*/\1/p' "$log"); $(traffic_note | tr -d '()'))"
  fi
}

do_suite() {
  local t0 tag logtag
  t0=$(now)
  NP=$((NHOSTS * PPN))
  for b in conformance exittest stress; do [ -x "$BINDIR/$b" ] || die "$BINDIR/$b not built (cd $BINDIR && make $b)"; done
  if ! do_check; then
    echo "# the hosts are not what they should be: no test run"
  else
    for tag in $SUITE_STAGES; do
      logtag=${tag//\//-}
      mkdir -p "$LOGDIR/$logtag"
      stage_env "$tag"
      NP=$((NHOSTS * PPN))
      run_conformance
      run_stress
      run_exittest exit_barrier
      run_exittest exit_inflight_am
      run_exittest crash_segv
    done
  fi
  echo "# total $(fsub "$t0" "$(now)")s (stages: $SUITE_STAGES; logs: $LOGDIR)"
  echo "$npass passed, $nfail failed"
  [ "$nfail" = 0 ]
}

# ---------------------------------------------------------------- linkcut
# messages worth showing from a job's output (from byte offset $2 on)
messages() {
  tail -c +"$((${2:-0} + 1))" "$1" |
    grep -aiE 'stageport|error|lost|abort|unreach|timed? ?out|terminat|signal|fail|refused|reset|broken' |
    grep -avE '^ok |^# |gasnet_init: called twice|plm:rsh: Warning: setpgid|Forwarding signal' | awk '!seen[$0]++' | head -n "${3:-6}" | cut -c1-220
}

# linkcut_one TAG LOAD: one job, one cut; prints a line and adds a table row
linkcut_one() {
  local tag=$1 load=$2 log="$LOGDIR/linkcut/${1//\//-}-$2.log" p cmd=() t0 tcut b0 b1 rate
  local cut_port cut_at=0 first_msg="" result ended msg
  cut_port=$(port_of "$LINKCUT_HOST")
  setup # a fresh network each time: no half-dead connections or ARP entries from the last cut
  stage_env "$tag"
  export CONF_WATCHDOG=0 # only the library or the launcher may end the job, not the test's watchdog
  case $load in
    am_flood) p=$PPN cmd=("$BINDIR/conformance" am_flood); export CONF_FLOOD=10000000 ;;
    putlat) p=1 cmd=("$BENCHDIR/stpbench" -t putlat -m 8 -M 8 -i 1000000000 --no-papi) ;;
    *) die "unknown linkcut workload $load (am_flood, putlat)" ;;
  esac
  [ -x "${cmd[0]}" ] || die "${cmd[0]} not built"
  mpi_flags "$p" # (-x CONF_...: mpirun reads their values at launch, unset after it)
  t0=$(now)
  timeout -k 5 $((LINKCUT_AFTER + LINKCUT_BOUND + 30)) "${LAUNCH[@]}" "${FLAGS[@]}" -np $((NHOSTS * p)) "${cmd[@]}" >"$log" 2>&1 </dev/null &
  JOBPID=$!
  unset CONF_WATCHDOG CONF_FLOOD
  # bash reports a background job that died of a signal ("Killed") on its
  # stderr: silenced for the job's lifetime
  exec 4>&2 2>/dev/null
  # traffic for LINKCUT_AFTER seconds, measured over the last one
  sleep "$((LINKCUT_AFTER - 1))"
  b0=$(bytes_sent)
  sleep 1
  b1=$(bytes_sent)
  rate=$(awk -v a="$b0" -v b="$b1" 'BEGIN { printf "%.1f", (b - a) / 1048576 }')
  if ! kill -0 "$JOBPID" 2>/dev/null; then
    wait "$JOBPID"
    RC=$? JOBPID=""
    exec 2>&4 4>&-
    result=FAIL ended="-" first_msg="-"
    msg="ended before the cut (status $RC, after $(fsub "$t0" "$(now)")s): $(tail -n 3 "$log" | paste -sd'|' | cut -c1-200)"
  else
    cut_at=$(stat -c %s "$log")
    tcut=$(now)
    ip link set "$cut_port" down
    # wait for the end, at most LINKCUT_BOUND seconds; note when the first
    # error message appears
    while kill -0 "$JOBPID" 2>/dev/null; do
      [ -n "$first_msg" ] || [ -z "$(messages "$log" "$cut_at" 1)" ] || first_msg=$(fsub "$tcut" "$(now)")
      awk -v a="$tcut" -v b="$(now)" -v m="$LINKCUT_BOUND" 'BEGIN { exit !(b - a >= m) }' && break
      sleep 0.2
    done
    if kill -0 "$JOBPID" 2>/dev/null; then
      ended=">$LINKCUT_BOUND"
      stop_job
      RC=hang
    else
      wait "$JOBPID"
      RC=$? JOBPID=""
      ended=$(fsub "$tcut" "$(now)")
      [ -n "$first_msg" ] || [ -z "$(messages "$log" "$cut_at" 1)" ] || first_msg=$ended
    fi
    exec 2>&4 4>&-
    # what is still running a second later (the cut-off host cannot be told to stop)
    local left="" i n
    sleep 1
    for i in $(seq "$NHOSTS"); do
      n=$(ns_pids "$(ns_of "$i")" | wc -w)
      [ "$n" = 0 ] || left+="${left:+, }$(name_of "$i") $n"
    done
    clean_hosts
    if [ "$RC" = hang ]; then
      result=FAIL msg="HANG: still running ${LINKCUT_BOUND}s after the cut, stopped: $STOP_HOW"
    elif [ "$RC" = 0 ]; then
      result=FAIL msg="ended with status 0 after the cut"
    elif [ -z "$first_msg" ]; then
      result=FAIL msg="ended with status $RC but printed no error message"
    else
      result=PASS msg="ended with status $RC"
    fi
    [ -z "$left" ] || msg+="; processes left 1s after the end: $left (killed)"
  fi
  local fm=${first_msg:-none}
  [[ $fm =~ ^[0-9] ]] && fm+="s after the cut"
  echo "$result linkcut stage=$tag $load np=$((NHOSTS * p)) cut=$(name_of "$LINKCUT_HOST") [ended: ${ended}s after the cut; first error message: $fm] ($msg; ${rate} MiB/s over the links before the cut)"
  messages "$log" "$cut_at" 8 | sed 's/^/    | /'
  echo "    (full output: $log)"
  TABLE+="| $tag | $load | $result | ${ended} s | ${first_msg:-none} | $msg | $(messages "$log" "$cut_at" 2 | paste -sd'|' | cut -c1-200) |"$'\n'
  if [ "$result" = PASS ]; then npass=$((npass + 1)); else nfail=$((nfail + 1)); fi
}

do_linkcut() {
  local t0 tag load
  t0=$(now)
  if [ "$NHOSTS" -lt 2 ] || [ "$LINKCUT_HOST" -gt "$NHOSTS" ] || [ "$LINKCUT_HOST" -lt 1 ]; then
    die "linkcut needs EMU_HOSTS >= 2 and 1 <= LINKCUT_HOST <= EMU_HOSTS"
  fi
  [ "$LINKCUT_AFTER" -ge 2 ] || die "LINKCUT_AFTER=$LINKCUT_AFTER: at least 2"
  mkdir -p "$LOGDIR/linkcut"
  TABLE="| stage | workload | result | job ended (after cut) | first error message (s after cut) | verdict | messages |"$'\n'"|---|---|---|---|---|---|---|"$'\n'
  echo "# linkcut: cut $(name_of "$LINKCUT_HOST")'s link ($(port_of "$LINKCUT_HOST") down) after ${LINKCUT_AFTER}s of traffic; the job must end within ${LINKCUT_BOUND}s${EMU_TCP_RETRIES2:+ (tcp_retries2=$EMU_TCP_RETRIES2 in the hosts)}"
  case $LINKCUT_MATRIX in all | rotate) ;; *) die "LINKCUT_MATRIX=$LINKCUT_MATRIX: all or rotate" ;; esac
  local loads ti=0
  read -ra loads <<<"$LINKCUT_LOADS"
  for tag in $LINKCUT_STAGES; do
    if [ "$LINKCUT_MATRIX" = rotate ]; then
      linkcut_one "$tag" "${loads[ti % ${#loads[@]}]}"
    else
      for load in "${loads[@]}"; do linkcut_one "$tag" "$load"; done
    fi
    ti=$((ti + 1))
  done
  printf '%s' "$TABLE"
  echo "# total $(fsub "$t0" "$(now)")s (logs: $LOGDIR/linkcut)"
  echo "$npass passed, $nfail failed"
  [ "$nfail" = 0 ]
}

# ---------------------------------------------------------------- main
# amlong: TSR against PSS, alternating; the medians table from the logs
do_amlong() {
  local r mode p log dir="$LOGDIR/amlong" failed=0
  [ -x "$BENCHDIR/stpbench" ] || die "no $BENCHDIR/stpbench: build first"
  mkdir -p "$dir"
  rm -f "$dir"/*.log
  for r in $(seq "$AMLONG_REPS"); do
    for mode in $AMLONG_MODES; do
      for p in tsr pss; do
        log="$dir/$mode-$p-$r.log"
        stage_env "portals/$mode"
        export STAGEPORT_AM_LONG=$p
        run_job "$CONF_TIMEOUT" "$log" 1 "$BENCHDIR/stpbench" -t amlong,amlongbw,aminject -m 4096 -M 65536 \
          -i "$AMLONG_ITERS"
        if [ "$RC" != 0 ]; then
          failed=1
          say "$mode $p (repetition $r): exit status $RC, $log"
        fi
      done
    done
  done
  unset STAGEPORT_AM_LONG
  python3 - "$dir" <<'PY'
import glob, os, statistics, sys
runs = {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], '*.log'))):
    mode, proto, _ = os.path.basename(f)[:-4].split('-')
    for line in open(f):
        w = line.split()
        if len(w) >= 6 and w[0] == 'portals' and w[2].isdigit():
            col = 5 if w[1] == 'amlongbw' else 4  # MB/s for the flood, us otherwise
            runs.setdefault((mode, w[1], int(w[2]), proto), []).append(float(w[col]))
print('| mode | test | bytes or depth | TSR | PSS | TSR/PSS | runs |')
print('|---|---|---|---|---|---|---|')
for (mode, test, size, proto) in sorted(runs, key=lambda k: (k[0] != 'offload', k[1], k[2])):
    if proto != 'tsr' or (mode, test, size, 'pss') not in runs:
        continue
    a, b = runs[(mode, test, size, 'tsr')], runs[(mode, test, size, 'pss')]
    unit = 'MB/s' if test == 'amlongbw' else 'us'
    ma, mb = statistics.median(a), statistics.median(b)
    print(f'| {mode} | {test} | {size} | {ma:.2f} {unit} | {mb:.2f} {unit} | {ma / mb:.2f}x | {len(a)}/{len(b)} |')
PY
  return "$failed"
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  stop_job
  [ "${TEARDOWN_AT_EXIT:-0}" = 1 ] && teardown
  exit "$rc"
}
trap cleanup EXIT
trap 'echo "emuhosts: interrupted" >&2; exit 130' INT TERM

command_word=${1:-}
[ $# -gt 0 ] && shift
case $command_word in
  -h | --help | help) usage; exit 0 ;;
  setup)
    need_tools
    TEARDOWN_AT_EXIT=1 # undone if set-up fails half-way
    setup
    TEARDOWN_AT_EXIT=0
    say "$NHOSTS hosts ready: $(for i in $(seq "$NHOSTS"); do printf '%s=%s(%s) ' "$(name_of "$i")" "$(ip_of "$i")" "$(ns_of "$i")"; done)bridge $BR=$NET.254, agent $RUNDIR/agent"
    ;;
  teardown) need_tools; teardown; say "torn down" ;;
  check)
    need_tools
    if ! set_up_now; then TEARDOWN_AT_EXIT=1; setup; fi
    do_check
    ;;
  run)
    need_tools
    [ "${1:-}" = -- ] && shift
    [ $# -gt 0 ] || die "run: no command (run -- CMD...)"
    if ! set_up_now; then TEARDOWN_AT_EXIT=1; setup; fi
    # UCX over TCP on veth0 unless the caller says otherwise
    export UCX_TLS=${UCX_TLS:-tcp,self} UCX_NET_DEVICES=${UCX_NET_DEVICES:-$VIN} UCX_WARN_UNUSED_ENV_VARS=${UCX_WARN_UNUSED_ENV_VARS:-n}
    [[ ,$UCX_TLS, =~ ^(,(tcp|self))+,$ ]] || say "warning: UCX_TLS=$UCX_TLS: not only tcp and self, UCX may share memory across the hosts"
    mpi_flags "$PPN"
    np=()
    printf '%s\n' "$@" | grep -qxE -- '-np|-n|--np|-c' || np=(-np $((NHOSTS * PPN)))
    timeout -k 5 "${RUN_TIMEOUT:-3600}" "${LAUNCH[@]}" "${FLAGS[@]}" "${np[@]}" "$@" &
    JOBPID=$!
    wait "$JOBPID"
    rc=$?
    JOBPID=""
    clean_hosts
    [ -z "$LEFT" ] || say "killed processes left in the hosts: $LEFT"
    exit "$rc"
    ;;
  suite)
    need_tools
    TEARDOWN_AT_EXIT=1
    setup
    do_suite
    ;;
  linkcut)
    need_tools
    TEARDOWN_AT_EXIT=1
    do_linkcut
    ;;
  amlong)
    need_tools
    TEARDOWN_AT_EXIT=1
    setup
    do_amlong
    ;;
  "") usage >&2; exit 2 ;;
  *) echo "emuhosts: unknown command \"$command_word\"" >&2; usage >&2; exit 2 ;;
esac
