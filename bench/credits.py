#!/usr/bin/env python3
"""credits.py -- static vs dynamic AM credits (seed 000 section 4.7): the AM
receive memory each process reserves and the AM flood throughput, with every
process flooding at once (bench/amflood), nearest-neighbour (nn: both
neighbours in turn; ring: the right one only) and all-to-all,
at several process counts.

For each process count and pattern the two modes run alternately, --rounds
times; each run reports the median of its repetitions, and the table shows
the median over rounds with the spread (min-max) of the runs.  Process counts
above the machine's cores run oversubscribed (mpirun --oversubscribe;
stageport's waits then yield the core): absolute rates are then the
machine's, not the network's; compare the two modes, which see the same
oversubscription in the same run.

  python3 bench/credits.py --builddir _build [--nodes 4,16,64] [--rounds 3]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time


def run(args, nodes, pattern, mode):
    env = dict(os.environ)
    env.update({"STAGEPORT_STAGE": args.stage, "STAGEPORT_CREDITS": mode, "STAGEPORT_PTL_MODE": args.ptl_mode,
                "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                "OMPI_MCA_rmaps_base_oversubscribe": "1"})
    cmd = args.mpirun.split() + ["-np", str(nodes), "--oversubscribe",
                                 os.path.join(args.builddir, "bench", "amflood"), "-p", pattern, "-n",
                                 str(args.msgs if nodes <= 16 else max(1, args.msgs * 16 // nodes)), "-s", str(args.size),
                                 "-r", str(args.reps)]
    t0 = time.time()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=args.timeout)
    line = next((l for l in p.stdout.splitlines() if l.startswith("amflood-summary")), None)
    if p.returncode or not line:
        sys.exit("credits.py: %s failed (exit %d):\n%s" % (" ".join(cmd), p.returncode, p.stdout[-3000:]))
    kv = dict(re.findall(r"(\w+)=(\S+)", line))
    kv["wall"] = time.time() - t0
    return kv


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--builddir", default=".", help="the build directory (holds bench/amflood)")
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--stage", default="portals", help="portals or firehose (the stages with the Portals Core)")
    ap.add_argument("--ptl-mode", default="host", help="STAGEPORT_PTL_MODE (host: no progress thread per process, "
                    "the fair choice when oversubscribed)")
    ap.add_argument("--nodes", default="4,16,64", help="process counts")
    ap.add_argument("--patterns", default="nn,a2a", help="any of nn, ring, a2a")
    ap.add_argument("--rounds", type=int, default=3, help="alternating runs per mode")
    ap.add_argument("--reps", type=int, default=5, help="timed repetitions inside each run")
    ap.add_argument("--msgs", type=int, default=20000, help="requests per process per repetition (scaled by 16/N "
                    "above 16 processes)")
    ap.add_argument("--size", type=int, default=64, help="AM Medium payload bytes")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per run")
    args = ap.parse_args()

    rows = []
    for n in [int(x) for x in args.nodes.split(",")]:
        for pat in args.patterns.split(","):
            res = {"static": [], "dynamic": []}
            for r in range(args.rounds):
                for mode in (("static", "dynamic") if r % 2 == 0 else ("dynamic", "static")):
                    kv = run(args, n, pat, mode)
                    res[mode].append(kv)
                    print("# %3d procs %-3s %-7s round %d: %s msgs/s, %s bytes, %.0f s" %
                          (n, pat, mode, r, kv["median_msgs_per_s"], kv["recv_bytes"], kv["wall"]), flush=True)
            rows.append((n, pat, res))

    print()
    print("AM flood, %s stage, ptl %s mode, Medium %d B, medians of %d alternating runs (each the median of %d "
          "repetitions); msgs/s over all processes; memory per process" %
          (args.stage, args.ptl_mode, args.size, args.rounds, args.reps))
    print()
    print("| procs | pattern | recv bytes static | recv bytes dynamic | memory static/dynamic | msgs/s static "
          "(min-max) | msgs/s dynamic (min-max) | dynamic/static | dynamic: loans, reclaims (node 0) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n, pat, res in rows:
        rs = [float(k["median_msgs_per_s"]) for k in res["static"]]
        rd = [float(k["median_msgs_per_s"]) for k in res["dynamic"]]
        ms, md = int(res["static"][0]["recv_bytes"]), int(res["dynamic"][0]["recv_bytes"])
        last = res["dynamic"][-1]
        print("| %d | %s | %d | %d | %.1fx | %.0f (%.0f-%.0f) | %.0f (%.0f-%.0f) | %.2f | %s, %s |" %
              (n, pat, ms, md, ms / md, statistics.median(rs), min(rs), max(rs), statistics.median(rd), min(rd),
               max(rd), statistics.median(rd) / statistics.median(rs), last.get("borrowed", "-"),
               last.get("reclaims", "-")))


if __name__ == "__main__":
    main()
