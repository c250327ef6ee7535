#!/usr/bin/env python3
"""seed003.py -- seed 003's Figures 1-6 and Table 1, measured the way the
paper did: with GASNet-EX's own test programs (testam, testimm, testsmall,
testfaddperf, testvisperf; python3, stdlib only).

The programs are GASNet-EX 2025.8.0's, unmodified, read where they are
(--gex-tests, default ../shared/peers/gasnet-ex-tests beside the source
tree; never copied into the project).  Each is built as a site builds a
GASNet client (tests/gex/gex-tests.mk: the conduit's installed
<conduit>-seq.mak fragment), once per stage against a staged installation
of the build tree (`make install DESTDIR=...`, as tests/run-gex-tests.sh
does) and once per conduit of a real GASNet-EX installation (--gasnet), and
launched with the installation's own gasnetrun_<stage> (a real ucx-conduit
with -spawner=mpi; real conduits with GASNET_SUPERNODE_MAXSIZE=1 and
GASNET_HOST_DETECT=hostname, so the conduit itself is measured).

  Fig. 1 (negotiated-payload AMs): testam [-fp|-np-gb] -src-generate ITERS
      MAXSZ B -- an AM Medium ping-pong (request and reply of n bytes) with
      the payload generated in place, at 0 B and every power of two up to
      the stage's Medium maximum (testam clamps MAXSZ to
      gex_AM_MaxRequestMedium/MaxReplyMedium and adds that maximum when it
      is not a power of two).  Per stage three runs, as the paper's two
      executables: -fp, -np-gb with the specialized NP (STAGEPORT_NP=native)
      and -np-gb with the reference NP (STAGEPORT_NP=reference); a real
      conduit -fp and -np-gb.  Plotted: the NP round trip normalized to
      FP's (time(FP) / time(NP): above 1, NP is faster), each repetition's
      own ratio (its runs go back to back, repeated if the machine changed
      under them), the median over the repetitions.
  Fig. 2 (IMMEDIATE): testimm -m -b B M on N processes (rank 0 sends AM
      Mediums of the stage's largest-for-every-peer Medium size to N-1
      ranks that sleep 500 us between polls), B = 1 (cyclic), 5 and M (full
      block), M = TOTAL/(N-1) (strong scaling: TOTAL 20000 as in the
      paper).  testimm times the static schedule and the IMMEDIATE one in
      one run; plotted: the reduction 100 (Tstatic - Tdynamic) / Tstatic,
      the median over the repetitions of each run's own reduction.
  Fig. 3 (local completion): testsmall -m -p -out -minsz 8 ITERS MAXSZ F --
      a flood of non-bulk gex_RMA_PutNB(..., GEX_EVENT_NOW) from outside the
      segment, 8 B to 2 MiB, specialized local completion
      (STAGEPORT_LC=native) against the reference (STAGEPORT_LC=reference),
      on this host and across two emulated hosts (scripts/emuhosts.sh:
      network namespaces, TCP between them; needs root), where a local
      completion is not a remote one.  A real conduit runs once (it has one
      implementation).  ITERS puts per size up to the byte budget
      (--lc-budget), fewer above it (two testsmall runs per column).
      portals and firehose run it twice: in ptl's default offload mode and
      as the columns portals-host and firehose-host
      (STAGEPORT_PTL_MODE=host).  In offload mode a put to a published
      entry returns at local completion with its SEND_END; over shared
      memory its flush ends at once (SEND_END and ACK together), over TCP
      the ACK comes when the flush ends (ptl's late flushes).
  Fig. 4 and Table 1 (remote atomics), --figs 4: testfaddperf.  Table 1:
      testfaddperf ITERS ABEF at 2 processes -- the round trip of a
      blocking gex_AD_OpNB FADD (sections A, E) and the throughput of an
      NBI FADD flood (B, F), U32 and U64.  Fig. 4: testfaddperf -S ITERS F
      at N = --ad-np processes (default 2,4,8,16,32,64): every process
      floods FADDs at one U64 counter on rank 0; plotted: the aggregate
      throughput (the sum of every sender's).  Each stage runs twice: its
      own choice of implementation (STAGEPORT_AD_IMPL unset: the ucx stage
      lets UCX do integer atomics) and the reference (STAGEPORT_AD_IMPL=
      reference: AMs, CPU atomics at the target); a real conduit once.
      Past 2 processes the 2-core VM is oversubscribed: the reference's
      target must be scheduled to run every handler, a network atomic's
      only the sender (see the report).
  Fig. 5 (the stride optimizer), --figs 5: testvisperf -sl D -mincontig 8
      -maxcontig 8 -mindata 16 -maxdata MAX -densitysteps S T E on 2
      processes, one host, D in --vis-sl (default 3,8,32): a flood of NBI
      gex_VIS_StridedPutNBI of 8-byte elements (the paper's), payloads 16 B
      to --vis-max (2M), T = --vis-time seconds per value (the paper's
      0.5; testvisperf sizes its own count).  testvisperf spreads the
      element count over the D dimensions with strides that fold to one;
      of its S = --vis-density-steps densities (100 % .. 100/S %) only the
      last is kept: at S = 2 (default) every other element, a 1-d strided
      pattern once folded (the 100 % column folds to one contiguous chunk:
      not the optimizer's loop nest, not kept; the paper's 25 %: S = 4,
      twice the time).  Each stage twice: STAGEPORT_VIS_OPT=on and =off
      (STAGEPORT_VIS unset: auto); a real conduit once (its own
      optimizer).  Plotted: bandwidth per D, on against off, and the
      speedup time(off) / time(on).  Beside it, one run per column of
      sections A and C (vector and indexed put, the same elements, sizes
      and density; the paper's Fig. 5 has the indexed series), for the
      comparison with the real conduits.
  Fig. 6 (NP-AM packing), --figs 6: testvisperf -sl 3 -mincontig 64
      -maxcontig 64 -mindata 128 -maxdata MAX -densitysteps S T E on 2
      processes across two emulated hosts (as Fig. 3; on one host when
      they are unavailable -- the output says so): 3-d strided puts of
      64-byte elements (the paper's) with the pieces packed into AM
      Mediums (STAGEPORT_VIS=ampipe), NP-AM (STAGEPORT_NP=native: into the
      Core's own send memory) against FP-AM (STAGEPORT_NP=reference: into
      a buffer the Core copies at injection), on the stages whose Core
      lends its send memory (ucx, ucx-mpi, portals, firehose; on mpi and
      hybrid the two are one copy); a real conduit once (its own
      mechanism, under NP).  Plotted: bandwidth and NP/FP.

Every column and variant runs once per repetition, alternating, through
compare.py's runner (compare.run_reps: the progress line, the retry of a run
other load disturbed, medians over the repetitions; a group of runs compared
with each other, e.g. a stage's FP, NP and NP-ref, is repeated when the
machine's core-to-core round trip -- bench/coreprobe of the build tree --
changed under it: this VM's CPUs are placed near or far, 80-130 or 380-430
ns, and a run's time moves 2-3x with them); bench/report.py then
writes the seed 003 report: the figures as PNG/SVG plots, their
tables, and the claims (claim, measured value, verdict):
  - on ucx and portals, specialized NP-AM is at least as fast as FP-AM at
    every Medium size from 512 B to the maximum (issue 33 item 7);
  - with full blocks at 4 processes the IMMEDIATE schedule is at least 30 %
    faster than the static one on ucx and portals (the real conduits are
    shown beside them: a conduit that never refuses gains nothing);
  - across emulated hosts the specialized local completion gets at least
    the reference's bandwidth at every size from 8 to 64 KiB (seed 003:
    up to 32 % more), on the stages whose Puts are not over AMs;
  - the FADD claims of Table 1 and Fig. 4 (bench/report.py's S003_CLAIMS);
  - the stride optimizer makes the 8-d strided put at least 2x and the
    32-d one at least 4x faster, on every stage (the median over the
    sizes of time(off) / time(on); seed 003: 2.6x and 3.9x on average);
  - NP-AM packing is at least as fast as FP-AM packing (the median over
    the sizes of the bandwidth ratio, across the emulated hosts when they
    ran) on ucx, ucx-mpi, portals, firehose;
  - on ucx and portals the strided put (every D, optimizer on) and the
    indexed put get at least the real ucx-conduit's bandwidth (the median
    over the sizes; not measurable without --gasnet).

Usage (from the top of the source tree, after scripts/build.sh BUILDDIR):

    python3 bench/seed003.py --builddir _build --quick        # a few minutes
    python3 bench/seed003.py --builddir _build                # the full run (hours: see --help)
    python3 bench/seed003.py --builddir _build --quick --gasnet /work/ext/gasnet-inst
    python3 bench/seed003.py --builddir _build --figs 1 --stages ucx,portals --reps 9
    python3 bench/seed003.py --builddir _build --figs 5,6 --stages mpi,ucx,portals,firehose --gasnet /work/ext/gasnet-inst
    python3 bench/report.py results/seed003-<timestamp>       # the report again
    make -C _build/bench seed003-quick                        # the same as the first line

Output directory (default results/seed003-<timestamp>/): raw.csv,
summary.json, table.txt, log.txt, report.md, report.html, claims.csv,
plots/ -- as compare.py's (its --help), the CSV's size column being the
process count N for the testimm tests and the payload bytes per operation
for testvisperf's (its iterations 0: testvisperf sizes its own count).  Exit status: 0 when every run
succeeded, 1 when some build or run failed (the others are still
reported), 2 on bad usage.
"""

import argparse
import datetime
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402  (the runner, alternation, retries, medians)
from compare import Ctx, Runner, clock, fmt_size, launch, parse_size  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
STAGE_ORDER = ["mpi", "ucx", "ucx-mpi", "hybrid", "portals", "firehose"]
PTL_STAGES = ("portals", "firehose")  # Fig. 3 also in ptl's host mode (columns <stage>-host)
PROGRAMS = {1: "testam", 2: "testimm", 3: "testsmall", 4: "testfaddperf", 5: "testvisperf", 6: "testvisperf"}
# Fig. 6: the stages whose Core lends its own send memory to a negotiated-payload
# Medium (on mpi and hybrid NP-AM and FP-AM are the same copy)
NATIVE_NP = ("ucx", "ucx-mpi", "portals", "firehose")

# ---------------------------------------------------------------- tests
# Fig. 1: one test per testam variant (size: payload bytes; value: round trip)
AM_TESTS = {"fp": ("s003-am-fp", "-fp", None),
            "np": ("s003-am-np", "-np-gb", "native"),
            "npref": ("s003-am-npref", "-np-gb", "reference")}
# Fig. 3: (test, STAGEPORT_LC, across emulated hosts)
LC_TESTS = {("native", False): "s003-lc", ("reference", False): "s003-lcref",
            ("native", True): "s003-lc-emu", ("reference", True): "s003-lcref-emu"}
# Fig. 4 / Table 1: STAGEPORT_AD_IMPL (None: the stage's own choice) -> test suffix
AD_IMPLS = {None: "", "reference": "-ref"}
# Figs. 5 and 6 (testvisperf): the element (contiguous piece) and smallest payload
# sizes of seed 003's methodology -- Fig. 5 8-byte, Fig. 6 64-byte elements
VIS_CONTIG = {5: 8, 6: 64}
VIS_MINDATA = {5: 16, 6: 128}
# Fig. 5's second run per column: testvisperf sections -> test (size: payload bytes)
VIS_VI_SECTIONS = {"A": "s003-vis-vput", "C": "s003-vis-iput"}
# Fig. 6: (STAGEPORT_NP, across emulated hosts) -> test (STAGEPORT_VIS=ampipe)
VIS_AM_TESTS = {("native", False): "s003-vis-npam", ("reference", False): "s003-vis-fpam",
                ("native", True): "s003-vis-npam-emu", ("reference", True): "s003-vis-fpam-emu"}


def vis_strided_test(d, opt):
    """Fig. 5: the D-dimensional strided put, stride optimizer on or off."""
    return "s003-vis-s%d-%s" % (d, "opt" if opt else "noopt")


def block_label(spec):
    """testimm's block size as the figure names it: 1 -> cyclic, M -> full,
    5 -> b5."""
    return {"1": "cyclic", "M": "full"}.get(spec, "b" + spec)


def imm_tests(label):
    """Fig. 2: the static and the IMMEDIATE schedule of one block size (size:
    processes N; value: completion time in usec)."""
    return "s003-imm-%s-static" % label, "s003-imm-%s-imm" % label


def register_tests(blocks=("1", "5", "M"), vis_sl=(3, 8, 32)):
    """The seed 003 tests in compare.TESTS (titles and kinds: the tables)
    and SIZE_HEADING (testimm's size column is N)."""
    t = compare.TESTS
    t["s003-am-fp"] = ("lat", "testam -fp -src-generate: AM Medium ping-pong round trip, fixed payload "
                              "(seed 003 Fig. 1)")
    t["s003-am-np"] = ("lat", "testam -np-gb -src-generate: the same with negotiated payload in a "
                              "GASNet-allocated buffer, specialized NP (STAGEPORT_NP=native)")
    t["s003-am-npref"] = ("lat", "testam -np-gb -src-generate with the reference NP (STAGEPORT_NP=reference)")
    for b in blocks:
        lab = block_label(b)
        st, im = imm_tests(lab)
        what = {"1": "B=1 (cyclic)", "M": "B=M (full block)"}.get(b, "B=%s" % b)
        t[st] = ("lat", "testimm -m -b B M, %s: time to complete the static schedule, usec (seed 003 Fig. 2; "
                        "size = processes N)" % what)
        t[im] = ("lat", "testimm -m -b B M, %s: time to complete the IMMEDIATE schedule, usec" % what)
        compare.SIZE_HEADING[st] = compare.SIZE_HEADING[im] = "N"
    t["s003-lc"] = ("bw", "testsmall -m -p -out F: non-bulk PutNB+NOW flood from outside the segment, one host, "
                          "specialized local completion (seed 003 Fig. 3)")
    t["s003-lcref"] = ("bw", "the same, reference local completion (STAGEPORT_LC=reference)")
    t["s003-lc-emu"] = ("bw", "the same across two emulated hosts (TCP), specialized local completion")
    t["s003-lcref-emu"] = ("bw", "across two emulated hosts, reference local completion")
    for sfx, what in (("", "the stage's own implementation"), ("-ref", "the reference (STAGEPORT_AD_IMPL=reference)")):
        t["s003-ad-lat" + sfx] = ("lat", "testfaddperf: blocking FADD round trip, usec, %s (seed 003 Table 1; "
                                         "size = bits)" % what)
        t["s003-ad-tput" + sfx] = ("lat", "testfaddperf: NBI FADD flood, usec per operation, %s (Table 1; "
                                          "size = bits)" % what)
        t["s003-ad-hot" + sfx] = ("lat", "testfaddperf -S: every process FADDs one U64 counter on rank 0, "
                                         "usec per operation in aggregate, %s (seed 003 Fig. 4; size = processes N)"
                                  % what)
        compare.SIZE_HEADING["s003-ad-lat" + sfx] = compare.SIZE_HEADING["s003-ad-tput" + sfx] = "bits"
        compare.SIZE_HEADING["s003-ad-hot" + sfx] = "N"
    for d in vis_sl:
        t[vis_strided_test(d, True)] = (
            "bw", "testvisperf -sl %d E: %d-d strided put of 8-byte elements (folds to one strided dimension), "
                  "stride optimizer on (STAGEPORT_VIS_OPT=on; a real conduit: its own), one host (seed 003 Fig. 5; "
                  "size = payload bytes)" % (d, d))
        t[vis_strided_test(d, False)] = ("bw", "the same %d-d strided put, stride optimizer off (STAGEPORT_VIS_OPT=off)"
                                         % d)
    t["s003-vis-vput"] = ("bw", "testvisperf A: vector put (gex_VIS_VectorPutNBI), 8-byte elements, one host "
                                "(size = payload bytes)")
    t["s003-vis-iput"] = ("bw", "testvisperf C: indexed put (gex_VIS_IndexedPutNBI), 8-byte elements, one host "
                                "(seed 003 Fig. 5's Indexed series)")
    for emu in (False, True):
        where = "across two emulated hosts (TCP)" if emu else "one host"
        t[VIS_AM_TESTS[("native", emu)]] = (
            "bw", "testvisperf -sl 3 E: 3-d strided put of 64-byte elements packed into AM Mediums "
                  "(STAGEPORT_VIS=ampipe), NP-AM: packed in the Core's send memory (STAGEPORT_NP=native; a real "
                  "conduit: its own mechanism), %s (seed 003 Fig. 6)" % where)
        t[VIS_AM_TESTS[("reference", emu)]] = (
            "bw", "the same with FP-AM packing: a buffer the Core copies at injection (STAGEPORT_NP=reference), %s"
                  % where)


register_tests()

# ---------------------------------------------------------------- parsing
# testam (2 processes: no "rank: " prefix; section B = AM Medium ping-pong ReqRep)
RE_AM = re.compile(r"^B: (?:\d+: )?\s*(\d+) AMMedium\s+ping-pong roundtrip ReqRep\s*:\s*([\d.]+) sec\s+([\d.]+) us")
# testimm
RE_IMM = re.compile(r"^MEDIUM:\s+IMM=([NY]) completed in\s+([\d.]+) seconds")
RE_IMM_LEN = re.compile(r"active rank issues (\d+) operations per rank, each of length (\d+)")
# testsmall section F (PutNB+NOW throughput), -m: MB = 2^20
RE_LC = re.compile(r"^F:\s*\d+\s+-\s+(\d+) byte :\s+(\d+) iters, throughput\s+([\d.]+) MB/sec "
                   r"\(PutNB\+NOW throughput\)")
# testfaddperf (print_stat: "A:  0 :   1000 iters, latency ... us ave. (U32 FADD latency)")
RE_AD_LAT = re.compile(r"^[A-Z]:\s*\d+ :\s*(\d+) iters, latency\s+\d+ us total,\s+([\d.]+) us ave\. "
                       r"\((U32|U64) FADD latency\)")
RE_AD_TPUT = re.compile(r"^[A-Z]:\s*\d+ :\s*(\d+) iters, throughput\s+([\d.]+) ops/sec \((U32|U64) FADD throughput\)")
# testvisperf: "E: STRIDED PUT CONTIGSZ = 8", " density:     100%      50%", then rows
# "      16:    1.234    0.567" (2 processes: no "P0: " prefix; MiB/s, "-" where skipped)
RE_VIS_SECTION = re.compile(r"^([A-Z]): (?:VECTOR|INDEXED|STRIDED) (?:PUT|GET) CONTIGSZ = (\d+)")
RE_VIS_ROW = re.compile(r"^\s*(\d+):((?:\s+(?:[\d.]+|-))+)\s*$")
# what the programs say about the conduit (kept in summary.json's headers)
RE_HEADER = re.compile(r"^(=====>|\s*gex_AM_LUB|\s*active rank issues|[A-Za-z]+ conduit: |.*Test skipped)")


def row(col, test, size, iters, usec):
    return {"stage": col, "test": test, "size": str(size), "iters": str(iters), "usec_per_op": "%.6f" % usec,
            "MB_per_s": "%.3f" % (size / usec * 1e6 / 2**20 if usec > 0 and not test.startswith("s003-imm")
                                  else 0.0)}


def parse_am(out, r):
    rows = []
    for line in out.splitlines():
        m = RE_AM.match(line)
        if m:
            rows.append(row(r.column, r.test, int(m.group(1)), r.iters, float(m.group(3))))
    return rows


def parse_imm(out, r):
    t = {}
    for line in out.splitlines():
        m = RE_IMM.match(line)
        if m:
            t[m.group(1)] = float(m.group(2)) * 1e6
    if "N" not in t or "Y" not in t:
        return []  # both or neither: the figure pairs them per run
    st, im = imm_tests(r.label)
    return [row(r.column, st, r.np, r.iters, t["N"]), row(r.column, im, r.np, r.iters, t["Y"])]


def parse_lc(out, r):
    rows = []
    for line in out.splitlines():
        m = RE_LC.match(line)
        if m and float(m.group(3)) > 0:  # (0.0: a run shorter than testsmall's 1 us timer)
            n = int(m.group(1))
            rows.append(row(r.column, r.test, n, int(m.group(2)), n / (float(m.group(3)) * 2**20) * 1e6))
    return rows


def parse_ad(out, r):
    """Table 1: latency and throughput rows (size = bits) of one 2-process run."""
    rows = []
    for line in out.splitlines():
        m = RE_AD_LAT.match(line)
        if m:
            rows.append(row(r.column, "s003-ad-lat" + r.sfx, int(m.group(3)[1:]), int(m.group(1)), float(m.group(2))))
        m = RE_AD_TPUT.match(line)
        if m and float(m.group(2)) > 0:
            rows.append(row(r.column, "s003-ad-tput" + r.sfx, int(m.group(3)[1:]), int(m.group(1)),
                            1e6 / float(m.group(2))))
    return rows


def parse_hot(out, r):
    """Fig. 4: the aggregate of every sender's throughput line (one per
    process) as usec per operation; nothing unless every process reported."""
    tput = [float(m.group(2)) for m in map(RE_AD_TPUT.match, out.splitlines()) if m and m.group(3) == "U64"]
    if len(tput) != r.np or sum(tput) <= 0:
        return []
    return [row(r.column, "s003-ad-hot" + r.sfx, r.np, r.iters * r.np, 1e6 / sum(tput))]


def parse_vis(out, r):
    """testvisperf: the lowest-density column (the last: 100/densitysteps %)
    of every row of the sections the runner names (r.sections: letter ->
    test); MiB/s -> usec per operation.  Iterations 0: testvisperf sizes its
    own count (about r.vis_time seconds per value)."""
    rows, test = [], None
    for line in out.splitlines():
        m = RE_VIS_SECTION.match(line)
        if m:
            test = r.sections.get(m.group(1))
            continue
        m = RE_VIS_ROW.match(line)
        if not test or not m:
            continue
        vals = m.group(2).split()
        if len(vals) != r.density_steps or vals[-1] == "-" or float(vals[-1]) <= 0:
            continue
        n = int(m.group(1))
        rows.append(row(r.column, test, n, 0, n / (float(vals[-1]) * 2**20) * 1e6))
    return rows


# ---------------------------------------------------------------- runners
class GexRunner(Runner):
    """One column of one figure: a GASNet-EX test program run (or, for
    testsmall's two size bands, a few runs in a row), its output parsed into
    CSV-like rows.  GASNet's harness rule applies: a line with ERROR or
    "fatal signal" fails the run even with exit status 0."""

    def __init__(self, name, column, kind, test, argvs, env, parse, iters, group, **extra):
        super().__init__(name, argvs[0], env=env, kind=kind, group=group)
        self.column, self.test, self.argvs, self.parse, self.iters = column, test, argvs, parse, iters
        self.__dict__.update(extra)

    def command_line(self, csv_path=None):
        env = " ".join("%s=%s" % (k, shlex.quote(v)) for k, v in sorted(self.env.items()))
        return " ; ".join((env + " " if env else "") + shlex.join(a) for a in self.argvs)

    def run(self, ctx, rep):
        env = {**os.environ, **ctx.common_env, **self.env}
        rows = []
        for i, argv in enumerate(self.argvs):
            title = "%s rep %d%s" % (self.name, rep, " (%d/%d)" % (i + 1, len(self.argvs)) if len(self.argvs) > 1 else "")
            cmdline = " ".join("%s=%s" % (k, shlex.quote(v)) for k, v in sorted(self.env.items())) + " " + shlex.join(argv)
            err, out = launch(argv, env, ctx.timeout, ctx.log, title, cmdline.strip())
            if not self.headers:
                self.headers = [l.strip() for l in out.splitlines() if RE_HEADER.match(l)][:12]
            bad = [l for l in out.splitlines() if ("ERROR" in l or "fatal signal" in l)
                   and "Retrying allocation" not in l and "GASNET_FREEZE_ON_ERROR" not in l]
            if err is None and bad:
                err = "exit status 0 but %d error line(s): %s\n    $ %s" % (len(bad), bad[0].strip(), cmdline.strip())
            if err is None and re.search(r"WARNING.*Test skipped", out):
                err = "the program skipped the test: %s" % next(
                    l.strip() for l in out.splitlines() if re.search(r"WARNING.*Test skipped", l))
            got = self.parse(out, self)
            if err is None and not got:
                tail = "\n    ".join(out.strip().splitlines()[-6:])
                err = "no result lines in the output\n    $ %s\n    %s" % (cmdline.strip(), tail)
            if err:
                return rows, err
            rows += got
        return rows, None


def lc_bands(a):
    """testsmall runs of one column: (minsz, maxsz, iters) -- every size up
    to the byte budget with --lc-iters puts, the larger ones in a second run
    with budget / largest size puts (at least 16)."""
    sizes, n = [], a.lc_min
    while n <= a.lc_max:
        sizes.append(n)
        n *= 2
    if sizes and sizes[-1] != a.lc_max:
        sizes.append(a.lc_max)
    small = [s for s in sizes if s * a.lc_iters <= a.lc_budget]
    large = [s for s in sizes if s not in small]
    bands = []
    if small:
        bands.append((small[0], small[-1], a.lc_iters))
    if large:
        bands.append((large[0], large[-1], max(16, min(a.lc_iters, a.lc_budget // large[-1]))))
    return bands


class Column:
    """Where one column's programs are and how to start them: a stageport
    stage (its installation's gasnetrun_<stage>) or a real GASNet conduit
    (gasnet-<conduit>)."""

    def __init__(self, name, kind, prefix, conduit, bindir, knobs=None, figs=None):
        self.name, self.kind, self.prefix, self.conduit, self.bindir = name, kind, prefix, conduit, bindir
        self.knobs = knobs or {}  # the column's own environment (a stage's variant)
        self.figs = figs          # the figures it runs in (None: all)

    def runs(self, fig):
        return self.figs is None or fig in self.figs

    def prog(self, p):
        return os.path.join(self.bindir, p)

    def launch(self, n, prog, args):
        run = os.path.join(self.prefix, "bin", "gasnetrun_" + self.conduit)
        if self.kind == "stage":  # (it oversubscribes by itself past the cores)
            return [run, "-n", str(n), self.prog(prog)] + args
        if self.conduit == "mpi":
            return [run, "-np", str(n), self.prog(prog)] + args
        return [run, "-spawner=mpi", "-n", str(n), self.prog(prog)] + args

    def env(self, **knobs):
        if self.kind == "stage":
            return {"STAGEPORT_STAGE": self.conduit, **self.knobs, **knobs}
        # the conduit itself (no shared-memory bypass); Open MPI past the cores
        return dict(compare.GASNET_ENV, OMPI_MCA_rmaps_base_oversubscribe="1")

    def emu_launch(self, prog, args):
        """Across the emulated hosts: scripts/emuhosts.sh run (mpirun on host
        1, one rank per host; it passes STAGEPORT_* and UCX_* to the ranks
        with -x, the real conduits' GASNET_* settings are given here)."""
        pre = []
        if self.kind == "gasnet":
            for kv in sorted(dict(compare.GASNET_ENV, GASNET_UCX_SPAWNER="mpi").items()):
                pre += ["-x", "%s=%s" % kv]
        return ["bash", os.path.join(TOP, "scripts", "emuhosts.sh"), "run", "--"] + pre + \
            ["-np", "2", self.prog(prog)] + args


def vis_args(a, fig, sections, d=3):
    """testvisperf's arguments for Fig. 5 (8-byte elements) or Fig. 6 (64-byte
    elements): one element size, payloads from seed 003's smallest to
    --vis-max, --vis-density-steps densities (the last, 100/steps %, is the
    measurement: a strided pattern that folds to one dimension), about
    --vis-time seconds per value (the '.' makes it a time, not a count)."""
    return ["-sl", str(d), "-mincontig", str(VIS_CONTIG[fig]), "-maxcontig", str(VIS_CONTIG[fig]),
            "-mindata", str(VIS_MINDATA[fig]), "-maxdata", str(a.vis_max), "-densitysteps", str(a.vis_density_steps),
            "%.3f" % a.vis_time, sections]


def make_runners(a, ctx, cols):
    out = []
    figs = a.figs
    if 1 in figs:
        for c in (c for c in cols if c.runs(1)):
            for var in ("fp", "np", "npref"):
                if var == "npref" and c.kind != "stage":
                    continue  # a real conduit has one NP implementation
                test, flag, np_knob = AM_TESTS[var]
                env = c.env(**({"STAGEPORT_NP": np_knob} if np_knob else {}))
                argv = c.launch(2, "testam", [flag, "-src-generate", str(a.am_iters), str(a.am_max), "B"])
                out.append(GexRunner("%s/am-%s" % (c.name, var), c.name, c.kind, test, [argv], env, parse_am,
                                     a.am_iters, "am/" + c.name))
    if 3 in figs:
        for emu in ([False, True] if a.emu_ok else [False]):
            for c in (c for c in cols if c.runs(3)):
                for lc in ("native", "reference"):
                    if lc == "reference" and c.kind != "stage":
                        continue
                    test = LC_TESTS[(lc, emu)]
                    argvs = []
                    for lo, hi, iters in lc_bands(a):
                        args = ["-m", "-p", "-out", "-minsz", str(lo), str(iters), str(hi), "F"]
                        argvs.append(c.emu_launch("testsmall", args) if emu else c.launch(2, "testsmall", args))
                    env = c.env(STAGEPORT_LC=lc)
                    if emu:
                        env.update(EMU_HOSTS="2", EMU_PPN="1", LOGDIR=os.path.join(ctx.outdir, "emuhosts-logs"))
                    out.append(GexRunner("%s/%s" % (c.name, test[5:]), c.name, c.kind, test, argvs, env, parse_lc,
                                         a.lc_iters, ("lc-emu/" if emu else "lc/") + c.name))
    if 4 in figs:
        for c in (c for c in cols if c.runs(4)):
            for impl, sfx in AD_IMPLS.items():
                if impl and c.kind != "stage":
                    continue  # a real conduit has one implementation
                env = c.env(**({"STAGEPORT_AD_IMPL": impl} if impl else {}))
                out.append(GexRunner("%s/ad%s" % (c.name, sfx), c.name, c.kind, "s003-ad-lat" + sfx,
                                     [c.launch(2, "testfaddperf", [str(a.ad_iters), "ABEF"])], env, parse_ad,
                                     a.ad_iters, "ad/" + c.name, sfx=sfx))
        for n in a.ad_np:
            for c in (c for c in cols if c.runs(4)):
                for impl, sfx in AD_IMPLS.items():
                    if impl and c.kind != "stage":
                        continue
                    env = c.env(**({"STAGEPORT_AD_IMPL": impl} if impl else {}))
                    out.append(GexRunner("%s/hot%s-n%d" % (c.name, sfx, n), c.name, c.kind, "s003-ad-hot" + sfx,
                                         [c.launch(n, "testfaddperf", ["-S", str(a.ad_iters), "F"])], env,
                                         parse_hot, a.ad_iters, "hot/%s/%d" % (c.name, n), sfx=sfx, np=n))
    if 5 in figs:
        vis = dict(density_steps=a.vis_density_steps, vis_time=a.vis_time)
        for c in (c for c in cols if c.runs(5)):
            for d in a.vis_sl:
                for opt in (True, False):
                    if not opt and c.kind != "stage":
                        continue  # a real conduit has one implementation (its optimizer)
                    test = vis_strided_test(d, opt)
                    env = c.env(STAGEPORT_VIS_OPT="on" if opt else "off")
                    out.append(GexRunner("%s/vis-s%d-%s" % (c.name, d, "opt" if opt else "noopt"), c.name, c.kind,
                                         test, [c.launch(2, "testvisperf", vis_args(a, 5, "E", d))], env, parse_vis,
                                         0, "vis-s%d/%s" % (d, c.name), sections={"E": test}, **vis))
            # vector and indexed put (sections A, C: -sl does not matter), the stage's defaults
            out.append(GexRunner("%s/vis-vi" % c.name, c.name, c.kind, "s003-vis-vput",
                                 [c.launch(2, "testvisperf", vis_args(a, 5, "".join(VIS_VI_SECTIONS)))], c.env(),
                                 parse_vis, 0, "vis-vi/" + c.name, sections=VIS_VI_SECTIONS, **vis))
    if 6 in figs:
        emu = a.emu_ok
        vis = dict(density_steps=a.vis_density_steps, vis_time=a.vis_time)
        for c in (c for c in cols if c.runs(6) and (c.kind != "stage" or c.conduit in NATIVE_NP)):
            for np_knob in ("native", "reference"):
                if np_knob == "reference" and c.kind != "stage":
                    continue  # a real conduit runs once: its own mechanism
                test = VIS_AM_TESTS[(np_knob, emu)]
                args = vis_args(a, 6, "E", 3)
                env = c.env(STAGEPORT_VIS="ampipe", STAGEPORT_NP=np_knob)
                if emu:
                    env.update(EMU_HOSTS="2", EMU_PPN="1", LOGDIR=os.path.join(ctx.outdir, "emuhosts-logs"))
                out.append(GexRunner("%s/%s" % (c.name, test[5:]), c.name, c.kind, test,
                                     [c.emu_launch("testvisperf", args) if emu else c.launch(2, "testvisperf", args)],
                                     env, parse_vis, 0, ("visam-emu/" if emu else "visam/") + c.name,
                                     sections={"E": test}, **vis))
    if 2 in figs:
        for n in a.imm_np:
            m = max(1, a.imm_total // (n - 1))
            for c in (c for c in cols if c.runs(2)):
                for b in a.imm_blocks:
                    bsz = m if b == "M" else int(b)
                    args = ["-m"] + (["-poll-" + a.imm_poll] if a.imm_poll else []) + ["-b", str(bsz), str(m)]
                    out.append(GexRunner("%s/imm-%s-n%d" % (c.name, block_label(b), n), c.name, c.kind, None,
                                         [c.launch(n, "testimm", args)], c.env(), parse_imm, m,
                                         "imm/%s/%d" % (c.name, n), label=block_label(b), np=n))
    return out


# ---------------------------------------------------------------- building
def makefile_prefix(top_build):
    """The configured installation prefix of a build tree (its Makefile's
    `prefix = ...`)."""
    try:
        with open(os.path.join(top_build, "Makefile")) as f:
            for line in f:
                m = re.match(r"^prefix = (.*)$", line.rstrip("\n"))
                if m:
                    return m.group(1).strip()
    except OSError:
        pass
    return None


def stage_install(a, ctx, top_build, work):
    """The build tree installed with DESTDIR (as run-gex-tests.sh): the prefix
    inside it, or None (and a failure recorded)."""
    prefix = makefile_prefix(top_build)
    if not prefix:
        ctx.fail("no `prefix = ...` in %s/Makefile: is %s a configured build tree?" % (top_build, top_build))
        return None
    root = os.path.join(work, "root")
    shutil.rmtree(root, ignore_errors=True)
    cmd = ["make", "--no-print-directory", "-C", top_build, "install", "DESTDIR=" + root]
    print("seed003.py: installing %s (make install DESTDIR=%s)" % (top_build, root), flush=True)
    err, _ = launch(cmd, dict(os.environ), 900, ctx.log, "install", shlex.join(cmd))
    if err:
        ctx.fail("make install DESTDIR=... of %s failed: %s" % (top_build, err))
        return None
    return root + prefix


def build_programs(a, ctx, prefix, conduit, bindir):
    """testam, testimm, testsmall (those the figures need) through the
    installed fragment <prefix>/include/<conduit>-conduit/<conduit>-seq.mak;
    returns the programs that failed to build."""
    os.makedirs(bindir, exist_ok=True)
    failed = []
    for p in sorted({PROGRAMS[f] for f in a.figs}):
        target = os.path.join(bindir, p)
        if os.path.exists(target):
            os.unlink(target)
        cmd = ["make", "--no-print-directory", "-C", bindir, "-f", os.path.join(TOP, "tests", "gex", "gex-tests.mk"),
               "GASNET_PREFIX=" + prefix, "CONDUIT=" + conduit, "THREADS=seq", "GEX_TESTS_DIR=" + a.gex_tests, p]
        err, _ = launch(cmd, dict(os.environ), 300, ctx.log, "build %s %s" % (conduit, p), shlex.join(cmd))
        if err or not os.access(target, os.X_OK):
            ctx.fail("building %s through %s-conduit/%s-seq.mak failed: %s" % (p, conduit, conduit, err or "no program"))
            failed.append(p)
    return failed


def conduits_of(prefix):
    """The conduits of an installation: include/<c>-conduit with bin/gasnetrun_<c>."""
    inc = os.path.join(prefix, "include")
    found = [d[:-len("-conduit")] for d in os.listdir(inc) if d.endswith("-conduit")] if os.path.isdir(inc) else []
    found = [c for c in found if os.access(os.path.join(prefix, "bin", "gasnetrun_" + c), os.X_OK)]
    return sorted(found, key=lambda c: (STAGE_ORDER.index(c) if c in STAGE_ORDER else len(STAGE_ORDER), c))


def emu_check(a):
    """(usable, why not) for the emulated hosts."""
    if not a.emu:
        return False, "--no-emu"
    if 3 not in a.figs and 6 not in a.figs:
        return False, "neither Fig. 3 nor Fig. 6 selected"
    if os.geteuid() != 0:
        return False, "not root (scripts/emuhosts.sh needs network namespaces)"
    if not shutil.which("ip") or not shutil.which("unshare"):
        return False, "no ip (iproute2) or unshare (util-linux)"
    return True, ""


def emu_command(ctx, what):
    env = dict(os.environ, EMU_HOSTS="2", EMU_PPN="1", LOGDIR=os.path.join(ctx.outdir, "emuhosts-logs"))
    cmd = ["bash", os.path.join(TOP, "scripts", "emuhosts.sh"), what]
    return launch(cmd, env, 180, ctx.log, "emuhosts " + what, "EMU_HOSTS=2 EMU_PPN=1 " + shlex.join(cmd))[0]


# ---------------------------------------------------------------- main
QUICK = {"reps": 3, "am_iters": 2000, "imm_np": "4", "imm_total": 2000, "lc_iters": 2000, "lc_budget": "128M",
         "ad_iters": 2000, "ad_np": "2,4,8", "vis_time": 0.02, "vis_max": "64K", "timeout": 180}
FULL = {"reps": 5, "am_iters": 50000, "imm_np": "3,4,5,6,7,8", "imm_total": 20000, "lc_iters": 50000,
        "lc_budget": "4G", "ad_iters": 10000, "ad_np": "2,4,8,16,32,64", "vis_time": 0.5, "vis_max": "2M",
        "timeout": 900}


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="seed003.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description=__doc__.split("\n\n", 1)[1].split("\nOutput directory")[0],
        epilog="Defaults: the full run %s; --quick %s.  Time: --quick about 5-8 minutes on the 2-core VM with "
               "every stage (Fig. 2 most of it); the full run is dominated by Fig. 2 -- a static schedule takes "
               "6-14 s at TOTAL 20000 on this VM -- 3 block sizes x 6 process counts x 6 stages (+2 real) x 5 "
               "repetitions: 2-3 hours (narrow it with --imm-np, --figs).  Figs. 5 and 6 add about 50 testvisperf runs per "
               "repetition with every stage: at --quick about 2 s each (some 5 minutes in all), in the full run "
               "(--vis-time 0.5, up to 2M) about a minute each (the vector/indexed run two): 4-5 hours more (narrow "
               "them with --vis-sl, --vis-max, --vis-time, --stages)."
               % (", ".join("%s %s" % kv for kv in FULL.items()), ", ".join("%s %s" % kv for kv in QUICK.items())))
    ap.add_argument("--quick", action="store_true", help="the short run (defaults below)")
    ap.add_argument("--figs", default="1,2,3,4,5,6", help="figures to measure (default 1,2,3,4,5,6; 4 is Fig. 4 "
                    "and Table 1, 5 is Fig. 5 and the vector/indexed put bandwidth)")
    ap.add_argument("--stages", help="comma-separated stages (default: every stage of the installation)")
    ap.add_argument("--builddir", help="stageport build tree (its top, or its bench/ directory; default: "
                    "./_build, or the build tree this script is run from)")
    ap.add_argument("--prefix", help="an installed stageport to measure instead of installing the build tree "
                    "(make install DESTDIR=BUILDDIR/bench/seed003/root)")
    ap.add_argument("--gasnet", metavar="PREFIX", help="also a real GASNet-EX installed at PREFIX (columns "
                    "gasnet-<conduit>)")
    ap.add_argument("--gasnet-conduits", default="mpi,ucx", help="conduits for --gasnet (default mpi,ucx)")
    ap.add_argument("--gex-tests", default=os.environ.get("GEX_TESTS_DIR") or
                    os.path.join(os.path.dirname(TOP), "shared", "peers", "gasnet-ex-tests"),
                    help="GASNet-EX's test programs (default $GEX_TESTS_DIR or ../shared/peers/gasnet-ex-tests)")
    ap.add_argument("--reps", type=int, help="repetitions, alternating every column and variant")
    ap.add_argument("--am-iters", type=int, help="Fig. 1: testam iterations per size (the paper: 250000)")
    ap.add_argument("--am-max", default="1M", help="Fig. 1: testam's MAXSZ (default 1M: testam clamps it to the "
                    "stage's Medium maximum)")
    ap.add_argument("--imm-np", help="Fig. 2: process counts N (the paper: 3 and more)")
    ap.add_argument("--imm-blocks", default="1,5,M", help="Fig. 2: block sizes B (M: full block; default 1,5,M)")
    ap.add_argument("--imm-total", type=int, help="Fig. 2: messages in all; M = TOTAL / (N - 1) (the paper: 20000)")
    ap.add_argument("--imm-poll", choices=("next", "retry", "lazy", "always"),
                    help="Fig. 2: testimm's -poll-* policy (default: testimm's, 'next' in 2025.8.0; the paper's "
                    "description -- poll, retry the same peer once, then move on -- is 'retry')")
    ap.add_argument("--lc-iters", type=int, help="Fig. 3: puts per size (the paper: 50000)")
    ap.add_argument("--lc-budget", help="Fig. 3: bytes per size before the put count is cut (K/M/G)")
    ap.add_argument("--lc-min", default="8", help="Fig. 3: smallest size (default 8)")
    ap.add_argument("--lc-max", default="2M", help="Fig. 3: largest size (default 2M)")
    ap.add_argument("--ad-iters", type=int, help="Fig. 4 / Table 1: testfaddperf iterations (its default: 10000)")
    ap.add_argument("--ad-np", help="Fig. 4: process counts (the paper: up to 64 and more; default 2,4,8,16,32,64)")
    ap.add_argument("--vis-sl", default="3,8,32", help="Fig. 5: dimensions D of the strided descriptions "
                    "(testvisperf -sl D; default 3,8,32 as the paper)")
    ap.add_argument("--vis-time", type=float, help="Figs. 5, 6: seconds testvisperf spends on each value (its "
                    "ITERS given as a time; the paper: 0.5)")
    ap.add_argument("--vis-max", help="Figs. 5, 6: largest payload per operation (testvisperf -maxdata; the "
                    "paper: 2M)")
    ap.add_argument("--vis-density-steps", type=int, default=2, help="Figs. 5, 6: testvisperf -densitysteps; "
                    "the last density, 100/STEPS %%, is measured (default 2: 50 %%; the paper's 25 %%: 4, twice "
                    "the time)")
    ap.add_argument("--no-emu", dest="emu", action="store_false",
                    help="Figs. 3 and 6 on this host only (without root they are anyway)")
    ap.add_argument("--timeout", type=int, help="seconds per run before it is killed (a hang is a failed run)")
    ap.add_argument("--retries", type=int, default=2,
                    help="reruns of a run disturbed by other load, and of a group of runs the machine changed "
                    "under (compare.py's)")
    ap.add_argument("--wait-idle", type=float, default=0, metavar="S",
                    help="wait up to S seconds for a quiet machine before each run (compare.py's)")
    ap.add_argument("--out", help="output directory (default results/seed003-<timestamp>)")
    ap.add_argument("--no-report", dest="report", action="store_false", help="tables only (no bench/report.py)")
    a = ap.parse_args(argv)
    d = QUICK if a.quick else FULL
    for k in ("reps", "am_iters", "imm_np", "imm_total", "lc_iters", "lc_budget", "ad_iters", "ad_np", "vis_time",
              "vis_max", "timeout"):
        if getattr(a, k) is None:
            setattr(a, k, d[k])
    try:
        a.figs = sorted({int(f) for f in a.figs.split(",") if f})
        a.imm_np = sorted({int(n) for n in str(a.imm_np).split(",") if n})
        a.ad_np = sorted({int(n) for n in str(a.ad_np).split(",") if n})
        a.am_max = parse_size(a.am_max)
        a.lc_budget, a.lc_min, a.lc_max = parse_size(a.lc_budget), parse_size(a.lc_min), parse_size(a.lc_max)
        a.vis_sl = [int(d) for d in a.vis_sl.split(",") if d]
        a.vis_max = parse_size(str(a.vis_max))
    except ValueError as e:
        ap.error(str(e))
    a.imm_blocks = [b for b in a.imm_blocks.split(",") if b]
    if (not a.figs or any(f not in PROGRAMS for f in a.figs) or any(n < 2 for n in a.imm_np) or a.reps < 1
            or any(b != "M" and not (b.isdigit() and int(b) > 0) for b in a.imm_blocks) or a.lc_min < 1
            or a.lc_max < a.lc_min or a.am_iters < 1 or a.lc_iters < 1 or a.imm_total < 1 or a.ad_iters < 1
            or any(n < 2 or n % 2 for n in a.ad_np) or not a.vis_sl or any(d < 1 for d in a.vis_sl)
            or len(set(a.vis_sl)) != len(a.vis_sl) or a.vis_time <= 0 or a.vis_density_steps < 2
            or a.vis_max < max(VIS_MINDATA.values())):
        ap.error("bad --figs (1-6) / --imm-np (2 and more) / --imm-blocks (positive numbers or M) / "
                 "--ad-np (even, 2 and more: testfaddperf skips odd counts) / --vis-sl (distinct, 1 and more) / "
                 "--vis-time (above 0) / --vis-density-steps (2 and more) / --vis-max (128 and more) / --reps / "
                 "sizes / iterations")
    a.gasnet_conduits = [c for c in a.gasnet_conduits.split(",") if c]
    register_tests(a.imm_blocks, a.vis_sl)
    return a


def find_top_build(opt):
    cands = [opt] if opt else [os.path.join(os.getcwd(), "_build"), os.getcwd(), os.path.dirname(os.getcwd())]
    for d in cands:
        if not d:
            continue
        for t in (d, os.path.dirname(os.path.abspath(d))):
            if os.path.exists(os.path.join(t, "config.status")) and os.path.exists(os.path.join(t, "Makefile")):
                return os.path.abspath(t)
    return None


def main(argv):
    a = parse_args(argv)
    ctx = Ctx()
    t_start = time.monotonic()
    if not os.path.exists(os.path.join(a.gex_tests, "test.h")):
        print("seed003.py: no GASNet-EX test programs in %s (--gex-tests)" % a.gex_tests, file=sys.stderr)
        return 2
    a.gex_tests = os.path.abspath(a.gex_tests)
    top_build = None
    if not a.prefix:
        top_build = find_top_build(a.builddir)
        if not top_build:
            print("seed003.py: no stageport build tree found (build first: scripts/build.sh DIR; then "
                  "--builddir DIR), or give --prefix", file=sys.stderr)
            return 2
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    ctx.outdir = os.path.abspath(a.out or os.path.join("results", "seed003-" + stamp))
    os.makedirs(ctx.outdir, exist_ok=True)
    ctx.log = open(os.path.join(ctx.outdir, "log.txt"), "w")
    ctx.timeout = a.timeout
    ctx.common_env = {"UCX_WARN_UNUSED_ENV_VARS": "n"}
    if os.geteuid() == 0:  # Open MPI refuses root unless told
        ctx.common_env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    work = os.path.join(top_build, "bench", "seed003") if top_build else os.path.join(ctx.outdir, "build")
    # the machine's state around compared runs (compare.run_reps): the build tree's probe
    ctx.coreprobe = os.path.join(top_build, "bench", "coreprobe") if top_build else None

    # the installation(s) and the programs
    prefix = os.path.abspath(a.prefix) if a.prefix else stage_install(a, ctx, top_build, work)
    cols = []
    if prefix:
        if not os.path.exists(os.path.join(prefix, "include", "stageport.h")):
            ctx.fail("%s is not a stageport installation (no include/stageport.h)" % prefix)
        else:
            have = conduits_of(prefix)
            want = [s for s in a.stages.split(",") if s] if a.stages else have
            missing = [s for s in want if s not in have]
            if missing:
                print("seed003.py: stage(s) %s not in the installation (it has: %s)" % (",".join(missing),
                                                                                      ",".join(have)), file=sys.stderr)
                return 2
            for s in want:
                bindir = os.path.join(work, s)
                print("seed003.py: building %s through %s-conduit/%s-seq.mak" % (
                    ",".join(sorted({PROGRAMS[f] for f in a.figs})), s, s), flush=True)
                if not build_programs(a, ctx, prefix, s, bindir):
                    cols.append(Column(s, "stage", prefix, s, bindir))
                    if s in PTL_STAGES and 3 in a.figs:  # Fig. 3 in ptl's host mode too (see the top)
                        cols.append(Column(s + "-host", "stage", prefix, s, bindir, {"STAGEPORT_PTL_MODE": "host"}, {3}))
    if a.gasnet:
        g = os.path.abspath(a.gasnet)
        for c in a.gasnet_conduits:
            mak = os.path.join(g, "include", "%s-conduit" % c, "%s-seq.mak" % c)
            if not os.path.exists(mak):
                print("note: no %s in the GASNet install, skipping gasnet-%s" % (mak, c))
                continue
            bindir = os.path.join(work, "gasnet-" + c)
            print("seed003.py: building the programs against the real GASNet's %s-conduit" % c, flush=True)
            if not build_programs(a, ctx, g, c, bindir):
                cols.append(Column("gasnet-" + c, "gasnet", g, c, bindir))
    if not cols:
        print("seed003.py: nothing to run (see the errors above; log: %s/log.txt)" % ctx.outdir, file=sys.stderr)
        return 1

    a.emu_ok, emu_why = emu_check(a)
    runners = make_runners(a, ctx, cols)
    print("seed003.py: %s; %d reps x %d runs; figures %s; columns %s; output %s"
          % (platform.node(), a.reps, len(runners), ",".join(map(str, a.figs)), " ".join(c.name for c in cols),
             ctx.outdir), flush=True)
    for f in (3, 6):
        if f in a.figs and not a.emu_ok:
            print("seed003.py: Fig. %d on this host only: %s" % (f, emu_why))
    if a.emu_ok:
        err = emu_command(ctx, "setup")
        if err:
            ctx.fail("scripts/emuhosts.sh setup failed: %s" % err)
            a.emu_ok, emu_why = False, "scripts/emuhosts.sh setup failed (log.txt)"
            runners = make_runners(a, ctx, cols)  # (Fig. 3 on one host only, Fig. 6 on one host instead)
            if 6 in a.figs:
                print("seed003.py: Fig. 6 on this host only: %s" % emu_why)
    try:
        samples, _, raw, columns, loads = compare.run_reps(runners, ctx, a, t_start)
    finally:
        if a.emu_ok:
            emu_command(ctx, "teardown")

    results = compare.summarize(samples)
    tests = [t for t in compare.TESTS if t.startswith("s003-") and any(r["test"] == t for r in results)]
    summary = {
        "meta": {
            "kind": "seed003", "argv": ["seed003.py"] + argv, "host": platform.node(), "date": stamp,
            "machine": compare.machine_info(HERE), "quick": a.quick,
            "seconds": round(time.monotonic() - t_start, 1), "reps": a.reps, "np": 2, "tests": tests,
            "stages": [c.name for c in cols if c.kind == "stage"], "reference": None,
            "columns": [{"name": c, "kind": k} for c, k in columns],
            "column_env": {r.name: r.env for r in runners},
            "commands": {r.name: r.command_line() for r in runners},
            "headers": {r.name: r.headers for r in runners},
            "seed003": {
                "figs": a.figs, "prefix": prefix, "gasnet": a.gasnet, "gex_tests": a.gex_tests,
                "am_iters": a.am_iters, "am_max": a.am_max,
                "imm_np": a.imm_np, "imm_total": a.imm_total, "imm_poll": a.imm_poll,
                "imm_blocks": [{"spec": b, "label": block_label(b)} for b in a.imm_blocks],
                "lc_iters": a.lc_iters, "lc_budget": a.lc_budget, "lc_bands": lc_bands(a),
                "emu": {"ran": a.emu_ok, "why": emu_why},
                "ad_iters": a.ad_iters, "ad_np": a.ad_np,
                "vis_sl": a.vis_sl, "vis_time": a.vis_time, "vis_max": a.vis_max,
                "vis_density_steps": a.vis_density_steps, "vis_native_np": list(NATIVE_NP),
                "vis_args": {"5": shlex.join(vis_args(a, 5, "E", "D")), "vi": shlex.join(vis_args(a, 5, "AC")),
                             "6": shlex.join(vis_args(a, 6, "E", 3))},
                "titles": {t: compare.TESTS[t] for t in compare.TESTS if t.startswith("s003-")},
            },
        },
        "results": results, "targets": [], "failures": ctx.failures, "load": loads,
        "mpi_msgs": {"counter": None, "shown": {}, "results": []},
    }
    with open(os.path.join(ctx.outdir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    compare.write_raw(os.path.join(ctx.outdir, "raw.csv"), raw)
    import report  # bench/report.py: the seed 003 tables, plots and claims
    lines = report.s003_text_tables(summary)
    if ctx.failures:
        lines += ["", "%d build(s) or run(s) FAILED, see log.txt:" % len(ctx.failures)]
        lines += ["  " + f.splitlines()[0] for f in ctx.failures]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    with open(os.path.join(ctx.outdir, "table.txt"), "w") as f:
        f.write(text)
    ctx.log.close()
    files = "table.txt,raw.csv,summary.json,log.txt"
    if a.report:
        print(report.write(ctx.outdir, summary), end="")
        files += ",report.md,report.html,claims.csv,plots/"
    print("(%s; %s/{%s})" % (clock(time.monotonic() - t_start), ctx.outdir, files))
    return 1 if ctx.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
