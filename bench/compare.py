#!/usr/bin/env python3
"""compare.py -- stageport's stage comparison runner (python3, stdlib only).

Runs bench/stpbench under every chosen stage (STAGEPORT_STAGE) and variant,
optionally the same stpbench.c built against a real GASNet install (its mpi
and ucx conduits, with GASNET_SUPERNODE_MAXSIZE=1 so the conduit itself is
measured), the plain-MPI baselines (bench/mpibench: ping-ack, flood), raw
UCX (ucx_perftest, and ptl's own ucxbench) and ptl on its own in host and
offload mode (ptl/bench/ptlbench: seed 004), all in one invocation,
alternating (A B C A B C ...) for several repetitions, with a progress line
(run n of N, time spent, time left).  For each test and size it takes the
median over the repetitions and prints one table per test: one column per
stage/baseline, then every column against the `mpi` stage as "2.00x
faster" / "1.30x slower".  Then bench/report.py makes the report: every seed
figure as a PNG and SVG plot, the seeds' quantitative claims checked on this
run (holds / does not hold / not measurable here), report.md and a
self-contained report.html.  Methodology: seed 000 section 6 and DESIGN.md
section 8; the AM Long tests (amlong, amlongbw, aminject) seed 002's
(stpbench --help says what each times).  With a PMPI message counter
(--mpi-count) it also tabulates the MPI messages each stage sends per
operation.

Usage (from the top of a build tree, after `make`):

    python3 bench/compare.py --quick            # ~2 min: the project's main job (scripts/bench.sh)
    python3 bench/compare.py                    # full size ranges, 10,000 iterations, 3 reps
    python3 bench/compare.py --gasnet /work/ext/gasnet-inst   # + real GASNet mpi/ucx columns
    python3 bench/compare.py --stages mpi,ucx --tests putlat,amshort --reps 5
    python3 bench/compare.py --quick --other-build before=../build-before   # a change, before/after
    python3 bench/compare.py --tests amlong,amlongbw,aminject --inject-size 64K  # seed 002's AM Long
    python3 bench/compare.py --quick --variant hybrid-host hybrid STAGEPORT_PTL_MODE=host  # + a variant
    python3 bench/compare.py --stages portals --tests amlong,amlongbw,aminject \\
        --variant portals-pss portals STAGEPORT_AM_LONG=pss   # seed 002's two AM Long protocols
    python3 bench/report.py results/<timestamp>  # the report again, from a run's summary.json
    make -C bench compare-quick                  # the same as the first line

Output directory (default results/<timestamp>/):
    raw.csv       every row of every run: rep,runner,stage,test,size,iters,usec_per_op,MB_per_s,
                  mpi_msgs_per_op (empty unless counted), counters_per_op (PAPI, empty unless
                  the machine counts), other_load (CPUs used by anything else during that run),
                  core_rt_ns (the machine's core-to-core round trip after the run; empty: not probed)
    summary.json  medians (and every repetition's value), targets, commands, failures,
                  mpi_msgs (the counter, the size shown per test, every column/test/size), and
                  meta: the machine, tool versions, the commit, the environment knobs and each
                  column's own settings
    table.txt     the printed tables
    report.md, report.html, claims.csv, plots/  the report (bench/report.py --help)
    log.txt       the full output of every run, with its command and environment
    runs/         the CSV each run wrote

Columns: a stage column is named after the stage (mpi, ucx, ...); a variant
after its label (without --variant, for the AM Long tests only: portals-pss,
the portals stage with the put-sync-send protocol, and portals-host and
portals-host-pss, both protocols in ptl's host mode; --no-default-variants:
none); a real GASNet
column gasnet-<conduit>; baselines mpi-pingack (shown under putlat, getlat,
amshort, ammedium) and mpi-flood (shown under putbw and amlongbw);
ucx-perftest under putlat, putbw, amshort, ammedium and ammedbw; ucx-raw
(ucxbench: put + flush) under putlat and ptl-putlat; ptl-host and
ptl-offload under ptl-putlat and ptl-melist.  aminject's size column is the
queue depth Q, ptl-melist's the match-list entries walked L, not bytes.
"X vs mpi" columns say how much faster or slower X is than the mpi stage,
same test and size, for latency and bandwidth alike (time(mpi) / time(X)).
A '~' after a value marks a spread (max - min) over the repetitions larger
than 20 % of the median: noise, take it with care.

Noise: the machine is shared and virtual.  For every run the script measures
the "other load" -- CPU time used by anything but its own processes, VM steal
time included -- and reruns a disturbed run (--retries, default 2), keeping
the least disturbed attempt; --wait-idle S also waits for a quiet machine
before each run.  The other noise is the machine itself: a VM's CPUs may
sit near each other or far apart and move while a job runs (on this
project's 2-CPU VM the round trip of a cache line between them is 80-130 ns
or 380-430 ns, and a shared-memory AM round trip 0.26 or 0.68 us).  So the
build tree's bench/coreprobe measures that round trip before a group of
runs compared with each other (a column and its --other-build shadows;
seed003.py: a stage's variants) and after each run, and the group is
repeated (up to --retries times) when it changed more than 2x under it;
raw.csv's core_rt_ns keeps the probe after every run.  Medians over --reps
then absorb what is left.

MPI messages per operation: --mpi-count SO (default: the build tree's
tests/libstpmpicount.so when it exists) preloads a PMPI interposer
exporting stp_pmpi_total() into every stpbench column's ranks (stages and
--gasnet); stpbench then counts the messages nodes 0 and 1 send in each timed
run, and a last table shows them per operation, one size per test (MSGS_SIZE),
one column per stage.  --mpi-count none times without it.

Baselines: mpi (bench/mpibench: ping-ack, flood), ucx (raw UCX, ucx_perftest
put latency and bandwidth, AM round trip (ucp_am_lat, one way doubled) and AM
message rate (ucp_am_bw) at the same sizes: the ceiling of the UCX stages)
and ptl (ptl/bench/ptlbench host and offload, ucxbench; tests ptl-putlat and
ptl-melist).  Adding a baseline is one function appended to
BASELINES: it returns Runner objects (override Runner.run if the tool does not
write stpbench CSV rows).

Exit status: 0 when every run succeeded, 1 when some run failed or timed out
(the results of the others are still written), 2 on bad usage.
"""

import argparse
import csv
import datetime
import json
import math
import os
import platform
import resource
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import time

# ---------------------------------------------------------------- tests
# name -> (kind, title); kind 'lat' shows usec/op, 'bw' shows MB/s (MB = 2^20)
TESTS = {
    "putlat": ("lat", "blocking put latency"),
    "getlat": ("lat", "blocking get latency"),
    "putbw": ("bw", "non-blocking put flood bandwidth (put_nbi_bulk x N, one sync)"),
    "amshort": ("lat", "AM Short request/reply round trip"),
    "ammedium": ("lat", "AM Medium round trip (payload in request, 0-byte reply)"),
    "ammedbw": ("bw", "AM Medium flood (RequestMedium x N, Short replies, wait for all; time per message "
                "= 1 / message rate)"),
    "oosputbw": ("bw", "blocking put bandwidth, out-of-segment source"),
    "oosputbw-seg": ("bw", "blocking put bandwidth, in-segment source"),
    "oosslide": ("bw", "blocking put bandwidth, out-of-segment source window moving through a buffer larger "
                 "than the firehose stage's pinning limit"),
    "amlong": ("lat", "AM Long ping-pong round trip (RequestLong n B, ReplyLong n B; seed 002 Fig. 2, "
               "its Fig. 1 bandwidth = 2n / this)"),
    "amlongbw": ("bw", "AM Long flood bandwidth (RequestLongAsync x N, Short replies, wait for all)"),
    "aminject": ("lat", "AM Long injection overhead vs queue depth (time inside RequestLongAsync, "
                 "bursts of Q requests; seed 002 Fig. 3)"),
    # ptl on its own (ptl/bench/ptlbench in host and offload mode, ucxbench raw), the
    # 'ptl' baseline: seed 004's host vs NIC-offload processing
    "ptl-putlat": ("lat", "ptl Put+ACK latency, host vs offload processing (ptlbench; seed 004 Fig. 1), "
                   "raw UCX put+flush (ucxbench)"),
    "ptl-melist": ("lat", "ptl 8 B Put+ACK latency vs match-list length L (entries walked before the one "
                   "that matches; ptlbench melist; seed 004 Fig. 7)"),
}
DEFAULT_TESTS = ("putlat,getlat,putbw,amshort,ammedium,ammedbw,oosputbw,amlong,amlongbw,aminject,"
                 "ptl-putlat,ptl-melist")
# tests run by the ptl baseline, not by stpbench
PTL_TESTS = ("ptl-putlat", "ptl-melist")
# tests whose size column is not bytes: its heading in the tables
SIZE_HEADING = {"aminject": "Q", "ptl-melist": "L"}
# MPI messages per operation: the one size shown per test (the nearest
# measured one when absent)
MSGS_SIZE = {"putlat": 8, "getlat": 8, "putbw": 65536, "amshort": 0, "ammedium": 8, "ammedbw": 4096,
             "oosputbw": 65536, "oosputbw-seg": 65536, "oosslide": 65536, "amlong": 8, "amlongbw": 65536, "aminject": 64}
# rows stpbench emits for a selected test (-t oosputbw also gives oosputbw-seg)
EMITS = {"oosputbw": ["oosputbw", "oosputbw-seg"]}

# --quick: the short comparison (a few sizes, few iterations)
QUICK = {"tests": DEFAULT_TESTS, "iters": 1000, "step": 8, "max_bytes": "64M", "reps": 5}

# (test, size, column, reference column, max time ratio): the project's targets
TARGETS = [
    ("putlat", 8, "mpi", "gasnet-mpi", 1.25),
    ("amshort", 0, "mpi", "gasnet-mpi", 1.25),
    # the ucx stage: half the mpi stage's put latency, below MPI ping-ack,
    # 1.5x the mpi stage's flood bandwidth and at least the real ucx-conduit's
    ("putlat", 8, "ucx", "mpi", 0.5),
    ("putlat", 8, "ucx", "mpi-pingack", 1.0),
    ("putbw", 65536, "ucx", "mpi", 1 / 1.5),
    ("putbw", 1048576, "ucx", "mpi", 1 / 1.5),
    ("putbw", 65536, "ucx", "gasnet-ucx", 1.0),
    ("putbw", 1048576, "ucx", "gasnet-ucx", 1.0),
    # the ucx stage's own Core: AM Short round trip <= 0.6x the real
    # ucx-conduit's and <= 1.5x UCX's own AM round trip; Medium 4 KiB round
    # trip and flood at least as good as the real ucx-conduit's
    ("amshort", 0, "ucx", "gasnet-ucx", 0.6),
    ("amshort", 0, "ucx", "ucx-perftest", 1.5),
    ("ammedium", 4096, "ucx", "gasnet-ucx", 1.0),
    ("ammedbw", 4096, "ucx", "gasnet-ucx", 1.0),
]

# columns added when no --variant is given (--no-default-variants: none):
# (tests that need it, LABEL, STAGE, VAR=VALUE...) -- seed 002's second AM Long protocol
# (tests the column runs, LABEL, STAGE, VAR=VALUE...): seed 002's second AM
# Long protocol, and both protocols in ptl's host mode, where the target
# matches every payload (in offload mode a put-sync-send payload is one RMA)
AMLONG_TESTS = ("amlong", "amlongbw", "aminject")
DEFAULT_VARIANTS = [(AMLONG_TESTS, "portals-pss", "portals", "STAGEPORT_AM_LONG=pss"),
                    (AMLONG_TESTS, "portals-host", "portals", "STAGEPORT_PTL_MODE=host"),
                    (AMLONG_TESTS, "portals-host-pss", "portals", "STAGEPORT_PTL_MODE=host", "STAGEPORT_AM_LONG=pss")]

NOISY_SPREAD = 0.20
# other load (CPUs busy with anything but this comparison, steal time included)
# above which a run counts as disturbed and is retried (--retries)
OTHER_LOAD_MAX = 0.10
# the factor by which the core-to-core round trip (bench/coreprobe) must
# change around runs compared with each other for them to be repeated
# (on this project's VM: 80-130 ns or 380-430 ns, as the hypervisor places
# its CPUs)
CORE_CHANGE = 2.0
CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


# ---------------------------------------------------------------- runners
class Runner:
    """One command run once per repetition; its rows become one or more
    columns (the CSV 'stage' field names the column).  test_map maps a CSV
    test name to the tests it is shown under (None: shown under itself)."""

    def __init__(self, name, argv, env=None, test_map=None, kind="stage", group=None):
        self.name, self.argv, self.env = name, argv, dict(env or {})
        self.test_map, self.kind = test_map, kind
        self.group = group  # runners of one group take turns at going first (see rep_order)
        self.headers = []

    def command_line(self, csv_path):
        env = " ".join("%s=%s" % (k, shlex.quote(v)) for k, v in sorted(self.env.items()))
        return (env + " " if env else "") + shlex.join(self.argv + ["--csv", csv_path])

    def run(self, ctx, rep):
        """Run once; returns (rows, error or None).  Rows are dicts with the
        CSV columns (strings)."""
        csv_path = os.path.join(ctx.outdir, "runs", "%s-rep%d.csv" % (self.name, rep))
        if os.path.exists(csv_path):
            os.unlink(csv_path)
        env = {**os.environ, **ctx.common_env, **self.env}
        err, out = launch(self.argv + ["--csv", csv_path], env, ctx.timeout, ctx.log,
                          "%s rep %d" % (self.name, rep), self.command_line(csv_path))
        if not self.headers:  # what the bench says about itself (configuration lines)
            self.headers = [l for l in out.splitlines() if l.startswith(("# ", "PAPI:"))]
        rows = read_csv(csv_path)
        if err is None and not rows:
            err = "no rows written"
        return rows, err

    def shown_under(self, test):
        if self.test_map is None:
            return [test]
        return self.test_map.get(test, [])


def launch(argv, env, timeout, log, title, cmdline):
    """Run argv in its own process group; log everything; on timeout kill the
    whole group.  Returns (None or an error message, the output)."""
    log.write("\n==== %s  [%s]\n$ %s\n" % (title, time.strftime("%H:%M:%S"), cmdline))
    log.flush()
    t0 = time.monotonic()
    try:
        p = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, errors="replace", start_new_session=True)
    except OSError as e:
        log.write("cannot start: %s\n" % e)
        return "cannot start: %s" % e, ""
    try:
        out, _ = p.communicate(timeout=timeout)
        err = None if p.returncode == 0 else "exit status %d" % p.returncode
    except subprocess.TimeoutExpired:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                break
            time.sleep(2)
        out, _ = p.communicate()
        err = "timed out after %d s (killed)" % timeout
    log.write(out or "")
    log.write("---- %s in %.1f s\n" % (err or "ok", time.monotonic() - t0))
    log.flush()
    if err:
        tail = "\n".join((out or "").strip().splitlines()[-8:])
        err += "\n    $ %s\n    %s" % (cmdline, tail.replace("\n", "\n    "))
    return err, out or ""


def cpu_sample():
    """(wall, busy CPU seconds of the whole machine, CPU seconds of our
    finished children) -- Linux /proc/stat; None where unavailable."""
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:9]]  # user .. steal
    except (OSError, ValueError):
        return None
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (time.monotonic(), (sum(v) - v[3] - v[4]) / CLK_TCK, ru.ru_utime + ru.ru_stime)


def other_load(s0, s1):
    """CPUs used by anything but our own (waited-for) processes between two
    samples, steal time included: the main noise on a shared VM."""
    if not s0 or not s1 or s1[0] <= s0[0]:
        return None
    return max(0.0, (s1[1] - s0[1]) - (s1[2] - s0[2])) / (s1[0] - s0[0])


def wait_idle(limit):
    """Wait up to limit seconds (0: just look) for other load to stop;
    returns the other load (CPUs) last seen before the run."""
    deadline = time.monotonic() + limit
    while True:
        s0 = cpu_sample()
        time.sleep(0.2)
        load = other_load(s0, cpu_sample())
        if load is None or load <= OTHER_LOAD_MAX or time.monotonic() >= deadline:
            return load
        time.sleep(0.8)


def read_csv(path):
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except OSError:
        return []


def parse_size(text):
    """'64K' -> 65536 (K, M, G = 2^10, 2^20, 2^30)."""
    t = str(text).strip().upper()
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(t[-1:], 1)
    return int(t[:-1] if mult > 1 else t) * mult


def size_args(a, min_size=None):
    """stpbench/mpibench size and iteration options shared by every runner."""
    out = ["-i", str(a.iters), "--step", str(a.step), "--max-bytes", str(a.max_bytes)]
    if min_size is not None or a.min is not None:
        out += ["-m", min_size if min_size is not None else a.min]
    if a.max is not None:
        out += ["-M", a.max]
    return out


def stp_tests(a):
    """The selected tests stpbench runs (comma-separated; '' when none)."""
    return ",".join(t for t in a.tests.split(",") if t not in PTL_TESTS)


def asan_runtime(binary):
    """[the ASan runtime binary links] ([] when it links none): what must
    precede any other preloaded library."""
    if not shutil.which("ldd"):
        return []
    p = subprocess.run(["ldd", binary], capture_output=True, text=True)
    return [f.split("=>")[1].split()[0] for f in p.stdout.splitlines()
            if "=>" in f and f.strip().startswith("libasan.so") and len(f.split("=>")[1].split()) > 1][:1]


def stpbench_argv(a, ctx, bench, label=None, tests=None):
    """The command of one stpbench column: the launcher, the MPI message
    counter when there is one (LD_PRELOAD through `env`, so that it reaches
    the ranks whatever the launcher, and not the launcher itself), the bench
    and its options."""
    pre = []
    if ctx.mpi_count:
        # a sanitizer build's ASan runtime must come first in the library list
        preload = ":".join(asan_runtime(bench) + [ctx.mpi_count] + [p for p in [os.environ.get("LD_PRELOAD")] if p])
        pre = ["env", "LD_PRELOAD=" + preload]
    opts = ["-t", tests or stp_tests(a)] + (["--label", label] if label else []) + size_args(a)
    if a.inject_size:
        opts += ["--inject-size", a.inject_size]
    if a.inject_depth:
        opts += ["--inject-depth", str(a.inject_depth)]
    return ctx.mpirun + pre + [bench] + opts


def stage_runners(a, ctx):
    """One column per stage, plus one per --variant (a stage run with extra
    environment, e.g. a tuning knob, under its own column name); with
    --other-build, each of them again from the other build, right after it
    (so the two alternate: before/after comparisons of a change)."""
    if not stp_tests(a):
        return []
    cols = [(s, s, {"STAGEPORT_STAGE": s}) for s in a.stages]
    for label, stage, *assigns in a.variant or []:
        env = dict(kv.split("=", 1) for kv in assigns)
        env["STAGEPORT_STAGE"] = stage
        cols.append((label, stage, env))
    out = []
    for name, stage, env in cols:
        tests = a.variant_tests.get(name)  # a default variant runs only the tests it is for
        out.append(Runner(name, stpbench_argv(a, ctx, ctx.stpbench, name, tests), env=env, kind="stage",
                          group=name))
        for olabel, obench in ctx.other_builds:
            oname = "%s-%s" % (olabel, name)
            out.append(Runner(oname, stpbench_argv(a, ctx, obench, oname, tests), env=env, kind="stage",
                              group=name))
    return out


def rep_order(runners, rep):
    """The order of one repetition: the runners' order, except that the
    members of a group (a column and its --other-build shadows) rotate, so
    each goes first as often as the others: a run's place in the sequence
    shifts its time by several percent on this VM, which must not pass for
    the difference between two builds."""
    out, i = [], 0
    while i < len(runners):
        g = runners[i].group
        j = i + 1
        while g is not None and j < len(runners) and runners[j].group == g:
            j += 1
        members = runners[i:j]
        k = (rep - 1) % len(members)
        out += members[k:] + members[:k]
        i = j
    return out


GASNET_ENV = {"GASNET_SUPERNODE_MAXSIZE": "1",   # no shared-memory bypass: measure the conduit
              "GASNET_HOST_DETECT": "hostname"}  # gethostid() is unusable in some VMs


def gasnet_runners(a, ctx):
    """stpbench.c built against a real GASNet (bench/Makefile.gasnet)."""
    if not a.gasnet:
        return []
    out = []
    for c in a.gasnet_conduits:
        mak = os.path.join(a.gasnet, "include", "%s-conduit" % c, "%s-seq.mak" % c)
        if not os.path.exists(mak):
            print("note: no %s in the GASNet install, skipping gasnet-%s" % (mak, c))
            continue
        gdir = os.path.join(ctx.builddir, "gasnet")
        cmd = ["make", "--no-print-directory", "-f", os.path.join(ctx.srcdir, "Makefile.gasnet"),
               "GASNET=" + a.gasnet, "CONDUIT=" + c, "OUT=" + gdir]
        err, _ = launch(cmd, dict(os.environ), 600, ctx.log, "build gasnet-" + c, shlex.join(cmd))
        if err:
            ctx.fail("build of the gasnet-%s bench failed: %s" % (c, err))
            continue
        out.append(Runner("gasnet-" + c, stpbench_argv(a, ctx, os.path.join(gdir, "stpbench-gasnet-" + c)),
                          env=GASNET_ENV, kind="gasnet"))
    return out


def baseline_mpi(a, ctx):
    """Seed 000's MPI lines: ping-ack (Put and AM latency), osu_bw-style flood."""
    want = set(a.tests.split(","))
    show = {"pingack": [t for t in ("putlat", "getlat", "amshort", "ammedium") if t in want],
            "flood": [t for t in ("putbw", "amlongbw") if t in want]}
    tests = [t for t in ("pingack", "flood") if show[t]]
    if not tests:
        return []
    # amshort is a size-0 row: keep ping-ack's 0-byte size whatever --min says
    lo = "0" if "amshort" in want and a.min is not None else None
    return [Runner("mpibench", ctx.mpirun + [ctx.mpibench, "-t", ",".join(tests)] + size_args(a, lo),
                   test_map=show, kind="baseline")]


class PerftestRunner(Runner):
    """Raw UCX, the ceiling of every UCX-based stage: ucx_perftest (UCX's own
    tool, a server and a client on this host, UCX-allocated memory) at the
    same sizes as stpbench.  putlat <- ucp_put_lat (one-way latency of a put
    the target detects by polling memory: no flush round trip, so a strict
    floor), putbw <- ucp_put_bw; amshort and ammedium <- ucp_am_lat, its
    one-way latency doubled into a round trip (UCX's AM ping-pong: both ways
    carry the size, where stpbench's reply is empty; amshort uses 8 bytes,
    UCX's smallest), ammedbw <- ucp_am_bw's message rate (time per message).
    Rows carry the column name ucx-perftest."""

    TESTS = {"putlat": "ucp_put_lat", "putbw": "ucp_put_bw", "amshort": "ucp_am_lat",
             "ammedium": "ucp_am_lat", "ammedbw": "ucp_am_bw"}

    def __init__(self, a, sizes):
        super().__init__("ucx-perftest", ["ucx_perftest"], kind="baseline")
        self.a, self.sizes = a, sizes

    def command_line(self, csv_path):
        return ("ucx_perftest -t ucp_put_lat|ucp_put_bw|ucp_am_lat|ucp_am_bw -s SIZE -n ITERS "
                "(server + client on localhost)")

    def run(self, ctx, rep):
        rows = []
        port = 13000 + (os.getpid() + 97 * rep) % 20000
        for test, sizes in self.sizes.items():
            for size in sizes:
                iters = max(100, min(self.a.iters, self.a.max_bytes_n // max(size, 1)))
                port += 1
                argv = ["ucx_perftest", "-t", self.TESTS[test], "-s", str(max(size, 8)), "-n", str(iters),
                        "-p", str(port)]
                env = {**os.environ, **ctx.common_env, "UCX_WARN_UNUSED_ENV_VARS": "n"}
                srv = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       start_new_session=True)
                time.sleep(0.3)
                err, out = launch(argv[:1] + ["localhost"] + argv[1:], env, ctx.timeout, ctx.log,
                                  "ucx-perftest %s %d rep %d" % (test, size, rep), shlex.join(argv))
                try:
                    srv.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(srv.pid, signal.SIGKILL)
                if err:
                    return rows, err
                final = [l.split() for l in out.splitlines() if l.startswith("Final:")]
                if not final:
                    return rows, "ucx_perftest printed no Final: line"
                # Final: iters  lat50%  lat-avg  lat-overall  bw-avg  bw-overall  rate-avg  rate-overall
                f = final[-1]
                if test == "putlat":
                    usec = float(f[3])
                elif test in ("amshort", "ammedium"):
                    usec = 2 * float(f[3])
                elif test == "ammedbw":
                    usec = 1e6 / float(f[8])
                else:
                    usec = size / (float(f[6]) * 2**20) * 1e6
                rows.append({"stage": "ucx-perftest", "test": test, "size": str(size), "iters": str(iters),
                             "usec_per_op": "%.6f" % usec, "MB_per_s": "%.3f" % (size / usec * 1e6 / 2**20)})
        return rows, None


def baseline_ucx(a, ctx):
    """Raw UCX via ucx_perftest (package ucx-utils), if it is installed."""
    want = [t for t in PerftestRunner.TESTS if t in a.tests.split(",")]
    if not want or not shutil.which("ucx_perftest"):
        return []
    sizes = {}
    for t in want:
        lo, hi = {"putlat": (1, 4096), "putbw": (1024, 4 << 20), "amshort": (0, 0), "ammedium": (0, 65536),
                  "ammedbw": (8, 65536)}[t]
        if t == "amshort":
            sizes[t] = [0]
            continue
        if a.min is not None:
            lo = max(lo, parse_size(a.min))
        if a.max is not None:
            hi = parse_size(a.max)
        n, sizes[t] = lo or 1, [0] if lo == 0 else []  # (stpbench's sizes: 0, then powers of the step)
        while n <= hi:
            sizes[t].append(n)
            n *= a.step
        if hi and sizes[t] and sizes[t][-1] < hi:
            sizes[t].append(hi)
        if t == "putlat" and 8 not in sizes[t] and lo <= 8 <= hi:
            sizes[t].append(8)
        if t in ("ammedium", "ammedbw") and 4096 not in sizes[t] and lo <= 4096 <= hi:
            sizes[t].append(4096)
    return [PerftestRunner(a, sizes)]


class PtlRunner(Runner):
    """ptl on its own, no GASNet above it: ptl/bench/ptlbench in one
    processing mode (columns ptl-host, ptl-offload), or ptl/bench/ucxbench
    (column ucx-raw: put + flush, the faster of its endpoint and worker
    flush per size).  They print 'RESULT <mode> <test> <param> <value> us';
    putlat rows become test ptl-putlat (size = bytes), melist rows
    ptl-melist (size = L, the match-list entries walked)."""

    MAP = {"putlat": "ptl-putlat", "putlat_wf": "ptl-putlat", "melist": "ptl-melist"}

    def __init__(self, name, argv, want, test_map=None):
        super().__init__(name, argv, kind="ptl" if name.startswith("ptl-") else "baseline", test_map=test_map)
        self.want, self.iters = want, int(argv[argv.index("-n") + 1])

    def command_line(self, csv_path):
        return shlex.join(self.argv)

    def run(self, ctx, rep):
        env = {**os.environ, **ctx.common_env}
        err, out = launch(self.argv, env, ctx.timeout, ctx.log, "%s rep %d" % (self.name, rep),
                          self.command_line(None))
        best = {}
        for line in out.splitlines():
            f = line.split()
            if len(f) != 6 or f[0] != "RESULT" or f[5] != "us" or self.MAP.get(f[2]) not in self.want:
                continue
            key = (self.MAP[f[2]], int(f[3]))
            best[key] = min(best.get(key, float("inf")), float(f[4]))
        rows = [{"stage": self.name, "test": t, "size": str(n), "iters": str(self.iters),
                 "usec_per_op": "%.6f" % v, "MB_per_s": "%.3f" % (n / v * 1e6 / 2**20 if t == "ptl-putlat" else 0)}
                for (t, n), v in sorted(best.items())]
        if err is None and not rows:
            err = "no RESULT rows"
        return rows, err


def baseline_ptl(a, ctx):
    """Seed 004: ptl's Put+ACK latency in host and offload mode against
    raw UCX, and the latency against the match-list length, from ptl's own
    benchmarks (ptl/bench in the build tree)."""
    want = [t for t in PTL_TESTS if t in a.tests.split(",")]
    bench = os.path.join(os.path.dirname(ctx.builddir), "ptl", "bench")
    if not want or not os.path.exists(os.path.join(bench, "ptlbench")):
        return []
    iters = str(a.iters)
    tests = [t.split("-", 1)[1] for t in want]
    out = [PtlRunner("ptl-" + m, ctx.mpirun[:-1] + ["2", os.path.join(bench, "ptlbench"), m, "-n", iters] + tests,
                     want) for m in ("host", "offload")]
    if "ptl-putlat" in want and os.path.exists(os.path.join(bench, "ucxbench")):
        # raw UCX put + flush: also the ceiling of stpbench's blocking put
        show = {"ptl-putlat": ["ptl-putlat"] + (["putlat"] if "putlat" in a.tests.split(",") else [])}
        out.append(PtlRunner("ucx-raw", ctx.mpirun[:-1] + ["2", os.path.join(bench, "ucxbench"), "-n", iters],
                             want, show))
    return out


# Extra "baseline" runners: each function (args, ctx) -> [Runner].  Add one here.
BASELINES = {"mpi": baseline_mpi, "ucx": baseline_ucx, "ptl": baseline_ptl}


# ---------------------------------------------------------------- results
def fmt_size(n):
    for unit, shift in (("M", 20), ("K", 10)):
        if n >= (1 << shift) and n % (1 << shift) == 0:
            return "%d%s" % (n >> shift, unit)
    return str(n)


def summarize(samples):
    """samples: {(column, test, size): [(usec, iters), ...]} -> result rows."""
    results = []
    for (col, test, size), vals in sorted(samples.items()):
        usecs = [u for u, _ in vals]
        med = statistics.median(usecs)
        results.append({
            "column": col, "test": test, "size": size, "reps": len(usecs),
            "median_usec": med,
            "median_MBps": size / med * 1e6 / 2**20 if med > 0 else 0.0,
            "min_usec": min(usecs), "max_usec": max(usecs),
            "spread": (max(usecs) - min(usecs)) / med if med > 0 else 0.0,
            "usec": usecs, "iters": [i for _, i in vals],
        })
    return results


def speed_text(time_ratio):
    """time(column) / time(reference) as a reader says it: '12.50x faster'
    (a twelfth of the time, 12.5 times the bandwidth), '1.30x slower',
    'same' within 0.5 %."""
    if not time_ratio or time_ratio <= 0 or math.isinf(time_ratio):
        return "-"
    if abs(time_ratio - 1) < 0.005:
        return "same"
    if time_ratio < 1:
        return "%.2fx faster" % (1 / time_ratio)
    return "%.2fx slower" % time_ratio


def test_table(results, columns, ref, test, stat="median"):
    """The table of one test: (heading, rows), rows[0] the column names,
    then one row of cells (strings) per size: the value of every column
    (usec/op or MB/s, '~' when noisy, '-' when absent), then every column
    against ref ('2.00x faster').  None when no column measured the test.
    stat: 'median' or 'min' (best repetition).  The text tables and the
    report (report.py) both print these."""
    key = "median_usec" if stat == "median" else "min_usec"
    by = {(r["column"], r["test"], r["size"]): r for r in results}
    baseline_cols = {c for c, kind in columns if kind == "baseline"}
    kind, title = TESTS.get(test, ("lat", test))
    present = [c for c, _ in columns if any(k[0] == c and k[1] == test for k in by)]
    if not present:
        return None
    main = [c for c in present if c not in baseline_cols] or present
    sizes = sorted({k[2] for k in by if k[1] == test and k[0] in main})
    unit = "usec/op, lower is better" if kind == "lat" else "MB/s (MB = 2^20), higher is better"
    ratio_cols = [c for c in present if c != ref] if ref in present else []
    table = [[SIZE_HEADING.get(test, "size")] + present + ["%s vs %s" % (c, ref) for c in ratio_cols]]
    for s in sizes:
        cells = [fmt_size(s)]
        for c in present:
            r = by.get((c, test, s))
            if not r:
                cells.append("-")
                continue
            v = r[key] if kind == "lat" else s / r[key] * 1e6 / 2**20 if r[key] > 0 else 0.0
            txt = ("%.3f" if kind == "lat" and v < 100 else "%.1f") % v
            cells.append(txt + ("~" if r["spread"] > NOISY_SPREAD else ""))
        for c in ratio_cols:
            r, rr = by.get((c, test, s)), by.get((ref, test, s))
            cells.append(speed_text(r[key] / rr[key]) if r and rr and rr[key] > 0 else "-")
        table.append(cells)
    return "%s: %s  [%s; %s of the repetitions]" % (test, title, unit, stat), table


def table_notes(ref):
    """How to read the tables (after them, in every format)."""
    out = []
    if ref:
        out.append("X vs %s: how much faster or slower X is than %s, same test and size, for latency "
                   "and bandwidth alike (2.00x faster: half the time per operation, twice the MB/s)"
                   % (ref, ref))
    out.append("~ : the repetitions spread by more than %d %% of the median (noise: take that value "
               "with care)" % (NOISY_SPREAD * 100))
    return out


def render_tables(results, columns, ref, tests, reps, stat="median"):
    """One text table per test; stat: 'median' or 'min' (best repetition)."""
    lines = []
    for test in tests:
        t = test_table(results, columns, ref, test, stat)
        if not t:
            continue
        heading, table = t
        lines += ["", heading.replace("repetitions]", "%d repetitions]" % reps)]
        widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
        lines += ["  ".join(x.rjust(w) for x, w in zip(row, widths)) for row in table]
    return lines + [""] + table_notes(ref)


def check_targets(results):
    by = {(r["column"], r["test"], r["size"]): r for r in results}
    out = []
    for test, size, col, ref, limit in TARGETS:
        r, rr = by.get((col, test, size)), by.get((ref, test, size))
        if not r or not rr:
            continue
        ratio = r["median_usec"] / rr["median_usec"]
        out.append({"test": test, "size": size, "column": col, "reference": ref,
                    "ratio": ratio, "limit": limit, "met": ratio <= limit,
                    "usec": r["median_usec"], "ref_usec": rr["median_usec"],
                    # best of the repetitions: the least disturbed runs of each side
                    "ratio_of_minima": r["min_usec"] / rr["min_usec"]})
    return out


def msgs_rows(msgs, columns, tests):
    """MPI messages per operation: one row per test, at its MSGS_SIZE (or the
    measured size nearest to it), one column per column that counted; the
    median over the repetitions.  msgs: {(column, test, size): [values]}.
    Returns (rows, rows[0] the heading, {test: size shown}); the text table
    and the report (report.py) both print these."""
    cols = [c for c, _ in columns if any(k[0] == c for k in msgs)]
    shown, table = {}, [["test", "size"] + cols]
    for test in tests:
        sizes = sorted({k[2] for k in msgs if k[1] == test})
        if not sizes:
            continue
        want = max(MSGS_SIZE.get(test, sizes[0]), 1)
        size = min(sizes, key=lambda n: (abs(math.log2(max(n, 1) / want)), n))
        shown[test] = size
        cells = [test, ("%s=" % SIZE_HEADING[test] if test in SIZE_HEADING else "") + fmt_size(size)]
        for c in cols:
            v = msgs.get((c, test, size))
            cells.append("%.2f" % statistics.median(v) if v else "-")
        table.append(cells)
    return table, shown


def msgs_table(msgs, columns, tests):
    """msgs_rows as text: (lines, {test: size shown})."""
    table, shown = msgs_rows(msgs, columns, tests)
    if not shown:
        return [], shown
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines = ["", "MPI messages per operation  [messages nodes 0 and 1 sent during the timed run / "
             "operations; median of the repetitions]"]
    lines += ["  ".join(x.ljust(w) if i < 2 else x.rjust(w) for i, (x, w) in enumerate(zip(row, widths)))
              for row in table]
    return lines, shown


def measure_run(r, ctx, rep, a):
    """One runner, one repetition: wait (bounded) for a quiet machine, run,
    and rerun up to a.retries times while other load disturbed the run.
    Keeps the least disturbed attempt.  Returns (rows, err, other load during,
    other load before, attempts)."""
    best = None
    for attempt in range(1, a.retries + 2):
        before = wait_idle(a.wait_idle)
        s0 = cpu_sample()
        rows, err = r.run(ctx, rep)
        load = other_load(s0, cpu_sample())
        if best is None or (not err and (best[1] or (load or 0) < (best[2] or 0))):
            best = (rows, err, load, before, attempt)
        if err or load is None or load <= OTHER_LOAD_MAX:
            break
    return best[:4] + (attempt,)


# ---------------------------------------------------------------- main
def core_probe(ctx):
    """The machine's core-to-core round trip now (bench/coreprobe, ns), or
    None: no probe built (ctx.coreprobe unset or absent), fewer than two
    CPUs, or a machine too busy to say."""
    exe = getattr(ctx, "coreprobe", None)
    if not exe or not os.access(exe, os.X_OK):
        return None
    try:
        out = subprocess.run([exe], capture_output=True, text=True, timeout=30).stdout.split()
        return float(out[0]) if out and out[0] != "none" else None
    except (OSError, subprocess.SubprocessError, ValueError):
        return None


def machine_changed(probes):
    """Whether the core-to-core round trips seen around some runs say the
    machine changed under them (the VM's CPUs placed elsewhere): the
    largest over CORE_CHANGE times the smallest."""
    p = [x for x in probes if x]
    return len(p) > 1 and max(p) > CORE_CHANGE * min(p)


def rep_segments(order):
    """One repetition's runners cut into what is compared with each other:
    the members of a group together, any other runner alone."""
    out = []
    for r in order:
        if out and r.group is not None and out[-1][-1].group == r.group:
            out[-1].append(r)
        else:
            out.append([r])
    return out


def run_reps(runners, ctx, a, t_start=None):
    """The repetitions: a.reps times every runner (rep_order: a group's
    members take turns at going first), each run through measure_run (a
    quiet machine waited for, a disturbed run retried), with a progress
    line per run (run n of N, time spent, time left).  The machine's
    core-to-core round trip (core_probe) is taken after every run, and
    once before the first: so before a group's runs and after each of them; when it changed under them (machine_changed),
    the group's runs are repeated, up to a.retries times, so that what is
    compared was measured on the same machine (the last attempt is kept).
    Failures go to ctx.fail.  Returns (samples {(column, test, size):
    [(usec, iters)]}, msgs {(column, test, size): [MPI messages per op]},
    raw rows, columns [(column, kind)] in order of appearance, loads).
    compare.py and seed003.py both run their columns with it."""
    t_start = time.monotonic() if t_start is None else t_start
    samples, msgs, raw, columns, loads = {}, {}, [], [], []
    total, done, repeats = a.reps * len(runners), 0, 0
    width = max([14] + [len(r.name) for r in runners])

    def run_one(r, rep, n):
        """Run n of total, with its progress line; (r, rows, err, load,
        load before, attempts, core round trip after)."""
        elapsed = time.monotonic() - t_start
        left = "" if n == 1 else ", ~%s left" % clock(elapsed / (n - 1) * (total - n + 1))
        print("  [%*d/%d %s%s] rep %d/%d %-*s" % (len(str(total)), n, total, clock(elapsed), left,
                                                  rep, a.reps, width, r.name), end="", flush=True)
        t_run = time.monotonic()
        rows, err, load, before, tries = measure_run(r, ctx, rep, a)
        probe = core_probe(ctx)
        note = " %5.1f s" % (time.monotonic() - t_run)
        note += "" if load is None else "  other load %.2f CPU" % load
        note += "" if probe is None else "  core rt %.0f ns" % probe
        if tries > 1:
            note += "  (%d attempts: other load on the machine)" % tries
        print("%s%s" % (note, "  FAILED: " + err.splitlines()[0] if err else ""), flush=True)
        return r, rows, err, load, before, tries, probe

    last = core_probe(ctx)  # (each run's probe after it is the next one's before)
    for rep in range(1, a.reps + 1):
        for seg in rep_segments(rep_order(runners, rep)):
            for attempt in range(1, a.retries + 2):
                kept = [run_one(r, rep, done + i + 1) for i, r in enumerate(seg)]
                probes = [last] + [k[-1] for k in kept]
                last = probes[-1]
                changed = machine_changed(probes)
                if not changed or attempt > a.retries:
                    break
                repeats += 1
                print("  (the machine changed under %s: core-to-core round trip %s ns; repeating %s)"
                      % ("these runs" if len(seg) > 1 else "this run",
                         " -> ".join("%.0f" % p if p else "?" for p in probes),
                         "them" if len(seg) > 1 else "it"), flush=True)
            done += len(seg)
            for r, rows, err, load, before, tries, probe in kept:
                loads.append({"rep": rep, "runner": r.name, "other_load": load,
                              "other_load_before": before, "attempts": tries, "core_rt_ns": probe,
                              "machine_changed": changed})
                if err:
                    ctx.fail("%s rep %d: %s" % (r.name, rep, err))
                for row in rows:
                    raw.append(dict(row, rep=rep, runner=r.name,
                                    other_load="" if load is None else "%.3f" % load,
                                    core_rt_ns="" if probe is None else "%.1f" % probe))
                    col = row["stage"]
                    if (col, r.kind) not in columns:
                        columns.append((col, r.kind))
                    for test in r.shown_under(row["test"]):
                        key = (col, test, int(row["size"]))
                        samples.setdefault(key, []).append((float(row["usec_per_op"]), int(row["iters"])))
                        if row.get("mpi_msgs_per_op"):
                            msgs.setdefault(key, []).append(float(row["mpi_msgs_per_op"]))
    if repeats:
        print("  (%d time(s) the machine changed under runs compared with each other: they were repeated)"
              % repeats, flush=True)
    return samples, msgs, raw, columns, loads


def write_raw(path, raw):
    """raw.csv: every row of every run (the columns the docstring lists)."""
    with open(path, "w", newline="") as f:
        fields = ["rep", "runner", "stage", "test", "size", "iters", "usec_per_op", "MB_per_s",
                  "mpi_msgs_per_op", "counters_per_op", "other_load", "core_rt_ns"]
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        w.writerows(raw)


def clock(seconds):
    """'1:05' (minutes:seconds), '1:02:05' past an hour."""
    m, sec = divmod(int(seconds + 0.5), 60)
    return "%d:%02d:%02d" % (m // 60, m % 60, sec) if m >= 60 else "%d:%02d" % (m, sec)


def first_line(argv):
    """The first non-empty output line of a command, or None."""
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = [l.strip() for l in (p.stdout + p.stderr).splitlines() if l.strip()]
    return lines[0] if lines else None


def machine_info(srcdir):
    """What the results were measured on and with: machine, versions,
    commit, environment knobs."""
    info = {"host": platform.node(), "kernel": platform.release(), "arch": platform.machine(),
            "cpus": os.cpu_count(), "python": platform.python_version()}
    try:
        with open("/proc/cpuinfo") as f:
            info["cpu"] = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), None)
        with open("/proc/meminfo") as f:
            info["memory_kB"] = int(f.readline().split()[1])
        with open("/etc/os-release") as f:
            info["os"] = next((l.split("=", 1)[1].strip().strip('"') for l in f if l.startswith("PRETTY_NAME")),
                              None)
    except (OSError, ValueError):
        pass
    versions = {"mpirun": ["mpirun", "--version"], "ucx": ["ucx_info", "-v"], "gcc": ["gcc", "--version"],
                "gnuplot": ["gnuplot", "--version"]}
    info["versions"] = {k: first_line(v) for k, v in versions.items() if shutil.which(v[0])}
    top = os.path.dirname(srcdir)
    commit = first_line(["git", "-C", top, "rev-parse", "HEAD"]) if shutil.which("git") else None
    if commit and len(commit) == 40:
        dirty = subprocess.run(["git", "-C", top, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        info["commit"] = commit + ("-dirty" if dirty else "")
    info["environment"] = {k: v for k, v in sorted(os.environ.items())
                           if k.startswith(("STAGEPORT_", "UCX_", "OMPI_MCA_", "GASNET_", "PTL_"))}
    return info


class Ctx:
    def __init__(self):
        self.failures = []

    def fail(self, msg):
        self.failures.append(msg)
        print("ERROR: " + msg, file=sys.stderr)


def find_builddir(explicit):
    here = os.path.dirname(os.path.abspath(__file__))
    cands = [explicit] if explicit else [os.path.join(os.getcwd(), "bench"), os.getcwd(), here]
    for d in cands:
        if d and os.path.exists(os.path.join(d, "stpbench")):
            return os.path.abspath(d)
    return None


def find_mpi_count(opt, builddir):
    """The interposer to preload: the option's path (False when it does not
    exist), none for 'none', else the build tree's when it has one."""
    if opt == "none":
        return None
    if opt:
        return os.path.abspath(opt) if os.path.exists(opt) else False
    for d in (os.path.dirname(builddir), builddir):
        so = os.path.join(d, "tests", "libstpmpicount.so")
        if os.path.exists(so):
            return so
    return None


def list_stages(stpbench):
    p = subprocess.run([stpbench, "--list-stages"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise SystemExit("compare.py: '%s --list-stages' failed: %s" % (stpbench, p.stderr.strip()))
    return [s for s in p.stdout.split() if s]


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="compare.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description=__doc__.split("\n\n", 1)[1].split("\nOutput directory")[0])
    ap.add_argument("--stages", help="comma-separated stages (default: every built stage, "
                    "from stpbench --list-stages)")
    ap.add_argument("--variant", nargs="+", action="append", metavar="ARG",
                    help="LABEL STAGE [VAR=VALUE ...]: one more column, LABEL, running STAGE with "
                    "these environment variables (repeatable), e.g. --variant mpi-rq4 mpi "
                    "STAGEPORT_MPI_RECV_REQUEST=4; two variants of one stage side by side: "
                    "--stages mpi --variant hybrid-host hybrid STAGEPORT_PTL_MODE=host --variant "
                    "hybrid-offload hybrid STAGEPORT_PTL_MODE=offload; the portals stage's AM Long "
                    "protocols: --stages portals --variant portals-pss portals STAGEPORT_AM_LONG=pss "
                    "(column portals runs the stage's default)")
    ap.add_argument("--no-default-variants", dest="default_variants", action="store_false",
                    help="without --variant, compare.py adds %s (each for %s only); this option adds none"
                    % ("; ".join("%s (%s %s)" % (v[1], v[2], " ".join(v[3:])) for v in DEFAULT_VARIANTS),
                       ",".join(AMLONG_TESTS)))
    ap.add_argument("--no-report", dest="report", action="store_false",
                    help="tables only: no plots, claims, report.md or report.html (bench/report.py)")
    ap.add_argument("--other-build", action="append", metavar="LABEL=DIR", default=[],
                    help="also run every stage column with the stpbench of another build tree "
                    "(DIR, or DIR/bench), as column LABEL-<column>, right after the column it "
                    "shadows: the before/after table of a change (repeatable)")
    ap.add_argument("--tests", help="comma-separated stpbench tests (default %s; --quick: %s)"
                    % (DEFAULT_TESTS, QUICK["tests"]))
    ap.add_argument("--reps", type=int, help="repetitions, alternating the columns (default 3; --quick: %d)" % QUICK["reps"])
    ap.add_argument("--iters", type=int, help="iterations per size (default 10000; --quick: %d)"
                    % QUICK["iters"])
    ap.add_argument("--min", help="smallest size, passed as -m (K/M suffixes)")
    ap.add_argument("--max", help="largest size, passed as -M")
    ap.add_argument("--step", type=int, help="size multiplier (default 2; --quick: %d)" % QUICK["step"])
    ap.add_argument("--max-bytes", help="per-size byte budget of the benches (default 1G; "
                    "--quick: %s)" % QUICK["max_bytes"])
    ap.add_argument("--quick", action="store_true",
                    help="the short comparison: %s, %d iterations, sizes x%d, %d reps, byte budget %s "
                    "(about 2 minutes here)" % ("every test" if QUICK["tests"] == DEFAULT_TESTS
                                                else "tests " + QUICK["tests"], QUICK["iters"], QUICK["step"],
                                                QUICK["reps"], QUICK["max_bytes"]))
    ap.add_argument("--np", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--mpirun", default=os.environ.get("MPIRUN") or "mpirun",
                    help="launcher command, split like a shell would (default $MPIRUN or mpirun); "
                    "settings travel in the environment, which reaches local processes -- across "
                    "hosts add the launcher's export option, e.g. \"mpirun -x STAGEPORT_STAGE\"")
    ap.add_argument("--gasnet", metavar="PREFIX",
                    help="also run stpbench built against the real GASNet installed at PREFIX "
                    "(built with bench/Makefile.gasnet into BUILDDIR/gasnet)")
    ap.add_argument("--gasnet-conduits", default="mpi,ucx", help="conduits for --gasnet (default mpi,ucx)")
    ap.add_argument("--baselines", default=",".join(BASELINES),
                    help="baseline runners (default %s; 'none' for none)" % ",".join(BASELINES))
    ap.add_argument("--stat", choices=("median", "min"), default="median",
                    help="what the tables show per test and size: the median over the repetitions "
                    "(default) or the best one (min time); summary.json always has both")
    ap.add_argument("--ref", default="mpi", help="column the ratios are against (default mpi)")
    ap.add_argument("--builddir", help="directory holding stpbench and mpibench "
                    "(default: ./bench, ., or this script's directory)")
    ap.add_argument("--out", help="output directory (default results/<timestamp>)")
    ap.add_argument("--wait-idle", type=float, default=0, metavar="S",
                    help="before each run, wait up to S seconds for other load on the machine "
                    "to stop (default 0: measure at once; other load is reported either way)")
    ap.add_argument("--retries", type=int, default=2,
                    help="rerun a run up to this many times when other load (anything but this "
                    "comparison, VM steal time included) exceeded %.2f CPU during it (the least "
                    "disturbed attempt is kept), and a group of runs compared with each other when the "
                    "machine's core-to-core round trip changed over %gx under it (default 2)"
                    % (OTHER_LOAD_MAX, CORE_CHANGE))
    ap.add_argument("--timeout", type=int, default=600, help="seconds per run before it is killed (default 600)")
    ap.add_argument("--mpi-count", metavar="SO",
                    help="PMPI interposer exporting stp_pmpi_total(), LD_PRELOADed into the ranks of "
                    "every stpbench column (stages and --gasnet): adds the table 'MPI messages per "
                    "operation' (default: tests/libstpmpicount.so of the build tree holding "
                    "stpbench, when it exists; "
                    "'none': never -- node 1 then waits in a barrier, not polling, during a timed run)")
    ap.add_argument("--inject-size", metavar="SIZE",
                    help="aminject's payload, passed to stpbench (default stpbench's, 4K)")
    ap.add_argument("--inject-depth", type=int, metavar="Q",
                    help="aminject's largest queue depth, passed to stpbench (default stpbench's, 256)")
    a = ap.parse_args(argv)
    q = QUICK if a.quick else {}
    a.tests = a.tests or q.get("tests", DEFAULT_TESTS)
    a.variant_tests = {}
    a.reps = a.reps or q.get("reps", 3)
    a.iters = a.iters or q.get("iters", 10000)
    a.step = a.step or q.get("step", 2)
    a.max_bytes = a.max_bytes or q.get("max_bytes", "1G")
    a.max_bytes_n = parse_size(a.max_bytes)
    a.gasnet_conduits = [c for c in a.gasnet_conduits.split(",") if c]
    a.baselines = [] if a.baselines == "none" else [b for b in a.baselines.split(",") if b]
    bad = [t for t in a.tests.split(",") if t not in TESTS]
    unknown_b = [b for b in a.baselines if b not in BASELINES]
    if any(len(v) < 2 or not all("=" in kv for kv in v[2:]) for v in a.variant or []):
        ap.error("--variant LABEL STAGE [VAR=VALUE ...]")
    if bad or unknown_b or a.reps < 1 or a.iters < 1 or a.np < 2:
        ap.error("bad --tests %s / --baselines %s / --reps / --iters / --np" % (bad, unknown_b))
    return a


def main(argv):
    a = parse_args(argv)
    ctx = Ctx()
    ctx.srcdir = os.path.dirname(os.path.abspath(__file__))
    ctx.builddir = find_builddir(a.builddir)
    if not ctx.builddir:
        print("compare.py: no stpbench found (build first, or give --builddir)", file=sys.stderr)
        return 2
    ctx.stpbench = os.path.join(ctx.builddir, "stpbench")
    ctx.mpibench = os.path.join(ctx.builddir, "mpibench")
    ctx.coreprobe = os.path.join(ctx.builddir, "coreprobe")
    ctx.other_builds = []
    for spec in a.other_build:
        label, _, odir = spec.partition("=")
        found = find_builddir(os.path.join(odir, "bench")) or find_builddir(odir)
        if not label or not found:
            print("compare.py: --other-build %s: want LABEL=DIR with DIR/stpbench or DIR/bench/stpbench"
                  % spec, file=sys.stderr)
            return 2
        ctx.other_builds.append((label, os.path.join(found, "stpbench")))
    built = list_stages(ctx.stpbench)
    a.stages = [s for s in a.stages.split(",") if s] if a.stages is not None else built
    if a.variant is None and a.default_variants:
        want = a.tests.split(",")
        chosen = [v for v in DEFAULT_VARIANTS if v[2] in a.stages and set(want) & set(v[0])]
        a.variant = [list(v[1:]) for v in chosen]
        a.variant_tests = {v[1]: ",".join(t for t in v[0] if t in want) for v in chosen}
    missing = [s for s in dict.fromkeys(a.stages + [v[1] for v in a.variant or []]) if s not in built]
    if missing:
        print("compare.py: stage(s) %s not built (built: %s)" % (",".join(missing), ",".join(built)),
              file=sys.stderr)
        return 2
    ctx.mpi_count = find_mpi_count(a.mpi_count, ctx.builddir)
    if ctx.mpi_count is False:
        print("compare.py: --mpi-count %s: no such file" % a.mpi_count, file=sys.stderr)
        return 2
    if a.inject_size:
        kind, title = TESTS["aminject"]
        TESTS["aminject"] = (kind, title.replace("bursts of Q requests", "bursts of Q requests of %s B"
                                                 % a.inject_size))
    ctx.mpirun = shlex.split(a.mpirun) + ["-np", str(a.np)]
    ctx.common_env = {}
    if os.geteuid() == 0:  # Open MPI refuses root unless told
        ctx.common_env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    ctx.timeout = a.timeout
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    ctx.outdir = os.path.abspath(a.out or os.path.join("results", stamp))
    os.makedirs(os.path.join(ctx.outdir, "runs"), exist_ok=True)
    ctx.log = open(os.path.join(ctx.outdir, "log.txt"), "w")

    runners = stage_runners(a, ctx) + gasnet_runners(a, ctx)
    for b in a.baselines:
        runners += BASELINES[b](a, ctx)
    if not runners:
        print("compare.py: nothing to run", file=sys.stderr)
        return 2

    print("compare.py: %s; %d reps x [%s]; tests %s; iters %d; output %s"
          % (platform.node(), a.reps, " ".join(r.name for r in runners), a.tests, a.iters, ctx.outdir))
    if ctx.mpi_count:
        print("compare.py: MPI messages counted with %s (LD_PRELOAD in the stpbench columns)" % ctx.mpi_count)
    t_start = time.monotonic()
    samples, msgs, raw, columns, loads = run_reps(runners, ctx, a, t_start)

    tests = [t for sel in a.tests.split(",") for t in EMITS.get(sel, [sel])]
    results = summarize(samples)
    ref = a.ref if any(c == a.ref for c, _ in columns) else None
    lines = render_tables(results, columns, ref, tests, a.reps, a.stat)
    mlines, mshown = msgs_table(msgs, columns, tests)
    lines += mlines
    targets = check_targets(results)
    if targets:
        lines.append("")
        lines.append("targets (time ratio of the medians; of the best repetitions in brackets):")
        for t in targets:
            lines.append("  %-8s %6s: %s / %s = %.2f  (limit %.2f: %s)  [%.3f vs %.3f usec; best: %.2f]"
                         % (t["test"], fmt_size(t["size"]) + " B", t["column"], t["reference"],
                            t["ratio"], t["limit"], "met" if t["met"] else "NOT met",
                            t["usec"], t["ref_usec"], t["ratio_of_minima"]))
    if ctx.failures:
        lines.append("")
        lines.append("%d run(s) FAILED, see log.txt:" % len(ctx.failures))
        lines += ["  " + f.splitlines()[0] for f in ctx.failures]
    text = "\n".join(lines) + "\n"
    print(text, end="")

    with open(os.path.join(ctx.outdir, "table.txt"), "w") as f:
        f.write(text)
    write_raw(os.path.join(ctx.outdir, "raw.csv"), raw)
    summary = {
        "meta": {
            "argv": ["compare.py"] + argv, "host": platform.node(), "date": stamp,
            "machine": machine_info(ctx.srcdir), "quick": a.quick,
            "seconds": round(time.monotonic() - t_start, 1), "reps": a.reps, "iters": a.iters,
            "step": a.step, "max_bytes": a.max_bytes, "np": a.np, "tests": tests,
            "stages": a.stages, "reference": ref,
            "columns": [{"name": c, "kind": k} for c, k in columns],
            "column_env": {r.name: r.env for r in runners},
            "commands": {r.name: r.command_line("<csv>") for r in runners},
            "headers": {r.name: r.headers for r in runners},
        },
        "results": results, "targets": targets, "failures": ctx.failures, "load": loads,
        "mpi_msgs": {"counter": ctx.mpi_count, "shown": mshown,
                     "results": [{"column": c, "test": t, "size": n, "median": statistics.median(v), "values": v}
                                 for (c, t, n), v in sorted(msgs.items())]},
    }
    with open(os.path.join(ctx.outdir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    ctx.log.close()
    files = "table.txt,raw.csv,summary.json,log.txt"
    if a.report:
        sys.path.insert(0, ctx.srcdir)
        import report  # bench/report.py: plots, claims, Markdown and HTML
        print(report.write(ctx.outdir, summary), end="")
        files += ",report.md,report.html,plots/"
    print("(%.0f s; %s/{%s})" % (time.monotonic() - t_start, ctx.outdir, files))
    return 1 if ctx.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
