#!/usr/bin/env python3
"""run-ptl-bench.py -- ptl's microbenchmarks against the raw-UCX ceiling.

Runs bench/ucxbench (mode "raw": put+flush, get, put bandwidth and the
UCX AM round trip) and bench/ptlbench in host and offload
mode, REPS times each, alternating the order (raw host offload, host
offload raw, ...), each run a fresh `mpirun -np 2`.  Prints the median of
each measurement over the repetitions, in tables with the ratios
offload/raw and host/raw, the match-list-length curve with its linear fit
(ns per ME traversed), and MD bind+unlink cost against region size.

  run-ptl-bench.py [--builddir DIR] [--mpirun CMD] [--reps N] [--iters N]
                   [--quick] [--wait-idle SECONDS] [--csv FILE]

Python 3 standard library only.
"""
import argparse
import csv
import os
import shlex
import statistics
import subprocess
import sys
import time

PTL_TESTS = ["putlat", "getlat", "evpp", "putbw", "melist", "melist_disjoint", "mdbind"]


def wait_idle(limit_s, threshold=0.7):
    """Wait (at most limit_s) for the 1-minute load average to drop."""
    t0 = time.time()
    while time.time() - t0 < limit_s:
        with open("/proc/loadavg") as f:
            if float(f.read().split()[0]) < threshold:
                return True
        time.sleep(2)
    return False


def run(cmd, env):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
    rows = []
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 6 and f[0] == "RESULT":
            rows.append((f[1], f[2], f[3], float(f[4]), f[5]))
    if p.returncode != 0 or not rows:
        sys.stderr.write("run failed (%d): %s\n%s\n" % (p.returncode, " ".join(cmd), p.stdout[-2000:]))
    return rows


def fit(xs, ys):
    """Least-squares slope and intercept."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    slope = sxy / sxx if sxx else 0.0
    return slope, my - slope * mx


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--builddir", default=os.path.dirname(here), help="ptl build directory")
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--iters", type=int, default=10000)
    ap.add_argument("--quick", action="store_true", help="3 repetitions of 2000 iterations")
    ap.add_argument("--wait-idle", type=float, default=0, help="wait up to this long for an idle machine per run")
    ap.add_argument("--csv", help="also write every measurement here")
    a = ap.parse_args()
    if a.quick:
        a.reps, a.iters = 3, 2000

    env = dict(os.environ, UCX_WARN_UNUSED_ENV_VARS="n")
    if os.getuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    launcher = shlex.split(a.mpirun) + ["-np", "2"]
    bench = os.path.join(a.builddir, "bench")
    cmds = {
        "raw": [os.path.join(bench, "ucxbench"), "-n", str(a.iters)],
        "host": [os.path.join(bench, "ptlbench"), "host", "-n", str(a.iters)] + PTL_TESTS,
        "offload": [os.path.join(bench, "ptlbench"), "offload", "-n", str(a.iters)] + PTL_TESTS,
    }
    modes = ["raw", "host", "offload"]
    vals = {}
    allrows = []
    busy = 0
    for rep in range(a.reps):
        order = modes[rep % 3:] + modes[:rep % 3]
        for m in order:
            if a.wait_idle and not wait_idle(a.wait_idle):
                busy += 1
            rows = run(launcher + cmds[m], env)
            for mode, test, param, v, unit in rows:
                vals.setdefault((mode, test, param), []).append(v)
                allrows.append((rep, mode, test, param, v, unit))
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["rep", "mode", "test", "param", "value", "unit"])
            w.writerows(allrows)

    def med(mode, test, param):
        v = vals.get((mode, test, str(param)))
        return statistics.median(v) if v else None

    def cell(v, fmt="%.3f"):
        return (fmt % v) if v is not None else "-"

    def ratio(a_, b_):
        return "%.2f" % (a_ / b_) if a_ is not None and b_ else "-"

    print("ptl microbenchmarks: medians of %d runs per mode (alternating), %d iterations, np=2%s" %
          (a.reps, a.iters, "" if not busy else "; %d runs started on a busy machine" % busy))

    def table(title, test, params, unit, fmt="%.3f"):
        print("\n%s (%s)" % (title, unit))
        print("%10s %10s %10s %10s %12s %12s" % ("size", "raw", "host", "offload", "offload/raw", "host/raw"))
        for p in params:
            r, h, o = med("raw", test, p), med("host", test, p), med("offload", test, p)
            print("%10s %10s %10s %10s %12s %12s" % (p, cell(r, fmt), cell(h, fmt), cell(o, fmt), ratio(o, r),
                                                    ratio(h, r)))

    small = [8 << i for i in range(10)]
    # Put+ACK against the faster raw way to complete one Put remotely, and
    # against the UCX AM round trip: the floor of any scheme in which the
    # target's CPU must see the Put (host mode)
    print("\nPut with ACK latency (us): raw = the faster of put+ep flush and put+worker flush;")
    print("AM RTT = UCX active-message ping-pong round trip, the floor for host mode")
    print("%10s %10s %10s %10s %12s %12s %10s %12s" % ("size", "raw", "host", "offload", "offload/raw", "host/raw",
                                                       "AM RTT", "host/AM RTT"))
    for p in small:
        raws = [v for v in (med("raw", "putlat", p), med("raw", "putlat_wf", p)) if v is not None]
        r = min(raws) if raws else None
        h, o, am = med("host", "putlat", p), med("offload", "putlat", p), med("raw", "amlat", p)
        rtt = 2 * am if am is not None else None
        print("%10s %10s %10s %10s %12s %12s %10s %12s" % (p, cell(r), cell(h), cell(o), ratio(o, r), ratio(h, r),
                                                           cell(rtt), ratio(h, rtt)))
    table("Get latency", "getlat", small, "us")
    print("\nPut ping-pong to entries with END events (GASNet's request buffers and replies), us per round trip;")
    print("offload: event entries written one-sidedly (ptl.h section 5); AM RTT = UCX active-message round trip")
    print("%10s %10s %10s %10s %14s" % ("size", "host", "offload", "AM RTT", "offload/AM RTT"))
    for p in [8, 64, 512, 4096]:
        h, o, am = med("host", "evpp", p), med("offload", "evpp", p), med("raw", "amlat", p)
        rtt = 2 * am if am is not None else None
        print("%10s %10s %10s %10s %14s" % (p, cell(h), cell(o), cell(rtt), ratio(o, rtt)))
    table("Put streaming bandwidth, 64 in flight", "putbw", [1024 << (2 * i) for i in range(7)], "GB/s", "%.2f")

    lens = [1, 10, 50, 100, 1000]
    print("\nLatency vs match entries traversed (8 B Put+ACK, us)")
    print("%10s %10s %10s %18s %18s" % ("entries", "host", "offload", "host disjoint", "offload disjoint"))
    for L in lens:
        print("%10d %10s %10s %18s %18s" % (L, cell(med("host", "melist", L)), cell(med("offload", "melist", L)),
                                             cell(med("host", "melist_disjoint", L)),
                                             cell(med("offload", "melist_disjoint", L))))
    for test in ("melist", "melist_disjoint"):
        for m in ("host", "offload"):
            pts = [(L, med(m, test, L)) for L in lens if med(m, test, L) is not None]
            if len(pts) >= 2:
                slope, icpt = fit([p[0] for p in pts], [p[1] for p in pts])
                print("  fit %-16s %-8s %7.2f ns per entry traversed, %.3f us at zero entries" %
                      (test, m, slope * 1000, icpt))

    print("\nMD bind + unlink over memory not yet registered (us; pin + register + deregister + unpin)")
    print("%10s %12s %12s" % ("bytes", "host", "offload"))
    for n in [4096 << (2 * i) for i in range(8)] + ["xmem"]:
        print("%10s %12s %12s" % (n, cell(med("host", "mdbind", n), "%.1f"), cell(med("offload", "mdbind", n), "%.1f")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
