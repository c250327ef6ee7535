#!/usr/bin/env python3
"""report.py -- the comparison report of a bench/compare.py run (python3,
stdlib only; plots with gnuplot).

    python3 bench/report.py RESULTS_DIR     # (re)make the report of a run

compare.py calls it at the end of every run (unless --no-report); run by
hand it redoes the report from RESULTS_DIR/summary.json and raw.csv.  It
writes into RESULTS_DIR:

    report.md      the tables (units; every column against the mpi stage as
                   "x faster/slower"), the claims section, MPI messages per
                   operation, PAPI, the machine, versions, commit and knobs
    report.html    the same, self-contained (styles and SVG plots inline):
                   open it in any browser, mail it, attach it
    claims.csv     the claims section as rows
    plots/FIG.png, plots/FIG.svg   one per seed figure (FIGURES below), with
                   the gnuplot script (FIG.gp) and its data (FIG.dat);
                   baselines (MPI, raw UCX) dotted as in the papers; a figure
                   whose data was not measured says so in the picture

and prints the claims section.  The claims (CLAIMS below) are the seeds'
quantitative statements, each checked against this run's medians for every
stage it concerns: holds, does not hold, or not measurable here (and why).
Exit status: 0, or 2 when RESULTS_DIR has no summary.json.
"""

import csv
import html
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import (NOISY_SPREAD, SIZE_HEADING, TESTS, fmt_size, msgs_rows, speed_text,  # noqa: E402
                     table_notes, test_table)

# ---------------------------------------------------------------- figures
# id, title, test, legend: {column: its name in this figure}; columns not in
# it are drawn under their own name, except the variants compare.py adds by
# itself (DEFAULT_VARIANTS), which only the figures naming them show
TMPMD = {"hybrid": "hybrid (TMPMD)", "portals": "portals (TMPMD)", "firehose": "firehose",
         "ucx": "ucx (UCX's rcache)", "mpi": "mpi"}
AMLONG = {"portals": "portals (target-side reassembly)", "portals-pss": "portals-pss (put-sync-send)",
          "portals-host": "portals-host (host mode, target-side reassembly)",
          "portals-host-pss": "portals-host-pss (host mode, put-sync-send)"}
FIGURES = [
    ("s000-fig2-putlat", "Seed 000 Fig. 2: blocking put latency", "putlat", {}),
    ("s000-fig3-putbw", "Seed 000 Fig. 3: non-blocking put flood bandwidth", "putbw", {}),
    ("s000-fig4-ammedium", "Seed 000 Fig. 4: AM Medium round trip", "ammedium", {}),
    ("s000-fig5-oosputbw", "Seed 000 Fig. 5: out-of-segment blocking put, firehose vs TMPMD", "oosputbw", TMPMD),
    ("s002-fig2-amlong", "Seed 002 Fig. 2: AM Long round trip (ping-pong)", "amlong", AMLONG),
    ("s002-fig1-amlongbw", "Seed 002 Fig. 1: AM Long flood bandwidth", "amlongbw", AMLONG),
    ("s002-fig3-aminject", "Seed 002 Fig. 3: AM Long injection overhead vs queue depth", "aminject", AMLONG),
    ("s004-fig1-ptl-putlat", "Seed 004 Fig. 1: Put latency, host vs offload processing", "ptl-putlat", {}),
    ("s004-fig7-melist", "Seed 004 Fig. 7: latency vs match-list length", "ptl-melist", {}),
]
# only the figures naming them draw these
FIG_ONLY = {"portals-pss", "portals-host", "portals-host-pss"}



def run_gnuplot(base, gp):
    """Write the script base.gp and run it; None, or why there is no PNG/SVG."""
    with open(base + ".gp", "w") as f:
        f.write("\n".join(gp) + "\n")
    if not shutil.which("gnuplot"):
        return "gnuplot not found (bash scripts/setup.sh installs gnuplot-nox): no PNG/SVG"
    p = subprocess.run(["gnuplot", base + ".gp"], capture_output=True, text=True, timeout=120)
    bad = [e for e in (".png", ".svg") if not os.path.exists(base + e) or os.path.getsize(base + e) == 0]
    if p.returncode != 0 or bad:
        return "gnuplot failed (%s): %s" % (p.returncode, p.stderr.strip()[-300:])
    return None

def fig_columns(columns, legend):
    """The (column, kind, label) a figure draws: Fig. 5 only the columns of
    its legend (TMPMD against firehose), the others every column but FIG_ONLY
    unless their legend names it."""
    if legend is TMPMD:
        return [(c, k, legend[c]) for c, k in columns if c in legend]
    return [(c, k, legend.get(c, c)) for c, k in columns if c not in FIG_ONLY or c in legend]
XLABEL = {"aminject": "queue depth Q (requests per burst)", "ptl-melist": "match-list entries walked L"}


def fig_series(results, columns, test):
    """[(label, kind, [(x, y, ymin, ymax)], column)] of one test (columns:
    (column, kind, label)): y the median (usec, or MB/s for bandwidth tests),
    ymin/ymax the range of the repetitions."""
    kind = TESTS.get(test, ("lat", ""))[0]
    out = []
    for col, ckind, label in columns:
        pts = []
        for r in results:
            if r["column"] != col or r["test"] != test or r["size"] <= 0:
                continue  # a log axis has no 0
            n = r["size"]
            if kind == "lat":
                pts.append((n, r["median_usec"], r["min_usec"], r["max_usec"]))
            elif r["median_usec"] > 0 and r["min_usec"] > 0:
                mb = lambda u: n / u * 1e6 / 2**20  # noqa: E731
                pts.append((n, mb(r["median_usec"]), mb(r["max_usec"]), mb(r["min_usec"])))
        if pts:
            out.append((label, ckind, sorted(pts), col))
    return out


# distinct colours; every column has its own, the same in every figure
PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
           "#7f7f7f", "#bcbd22", "#000000", "#393b79", "#ad494a", "#637939", "#843c39", "#5254a3"]
COLOUR_ORDER = ["mpi", "ucx", "ucx-mpi", "hybrid", "portals", "firehose", "portals-pss", "portals-host",
                "portals-host-pss", "gasnet-mpi", "gasnet-ucx", "mpi-pingack", "mpi-flood", "ucx-perftest",
                "ptl-host", "ptl-offload", "ucx-raw", "firehose-host"]


def colour_index(column):
    """A column's place in PALETTE: fixed for the known columns, from the
    name (stable across runs and figures) for any other."""
    if column in COLOUR_ORDER:
        return COLOUR_ORDER.index(column)
    return len(COLOUR_ORDER) + sum(column.encode()) % len(PALETTE)


def gp_quote(text):
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def plot(outdir, fig, series, test, missing):
    """Writes plots/FIG.{dat,gp,png,svg}; returns None or what went wrong."""
    fid, title, _, _ = fig
    pdir = os.path.join(outdir, "plots")
    os.makedirs(pdir, exist_ok=True)
    base = os.path.join(pdir, fid)
    kind = TESTS.get(test, ("lat", ""))[0]
    lines = ["# %s (test %s): %s" % (title, test, "x y ymin ymax per column, blocks in column order"
                                     if series else "no data")]
    for col, _, pts, _ in series:
        lines.append("# %s" % col)
        lines += ["%d %.6g %.6g %.6g" % p for p in pts]
        lines += ["", ""]
    with open(base + ".dat", "w") as f:
        f.write("\n".join(lines) + "\n")
    gp = ["set encoding utf8", "set title %s" % gp_quote(title), "set grid",
          # the key under the plot, so the plot keeps the whole width however long the names
          "set key below left Left reverse width 2 font ',10' title %s" % gp_quote(
              "points: medians; bars: min-max of the repetitions; dotted: baselines"),
          "set xlabel %s" % gp_quote(XLABEL.get(test, "payload (bytes)")),
          "set ylabel %s" % gp_quote("microseconds per operation (lower is better)" if kind == "lat"
                                    else "MB/s, MB = 2^20 (higher is better)")]
    if series:
        # tics at the powers of two only (a conduit's odd maximum, 65000 B, would crowd them)
        xs = sorted({p[0] for _, _, pts, _ in series for p in pts if p[0] & (p[0] - 1) == 0})
        gp += ["set logscale x 2" if test != "ptl-melist" else "set logscale x 10", "set logscale y",
               "set xtics (%s)" % ", ".join('"%s" %d' % (fmt_size(x), x) for x in xs),
               "set xtics rotate by -45", "set mxtics 1", "set bars small", "set offsets graph 0.03, graph 0.03"]
        plots = []
        for i, (col, ckind, _, name) in enumerate(series):
            # baselines (MPI, raw UCX) dotted, as the papers draw theirs; a column keeps its colour
            # and point type in every figure
            style = "lw 1.5 dt 3" if ckind == "baseline" else "lw 2 dt 1"
            k = colour_index(name)
            plots.append("%s index %d using 1:2:3:4 with yerrorlines %s lc rgb '%s' pt %d ps 0.8 title %s"
                         % (gp_quote(base + ".dat"), i, style, PALETTE[k % len(PALETTE)], 1 + k % 13,
                            gp_quote(col)))
        body = "plot " + ", \\\n     ".join(plots)
    else:
        gp += ["unset key", "set xrange [0:1]", "set yrange [0:1]", "unset xtics", "unset ytics",
               "set label 1 %s at 0.5,0.5 center" % gp_quote("no data: " + missing)]
        body = "plot -1 notitle"
    gp += ["set terminal pngcairo size 1000,720 font 'DejaVu Sans,11'", "set output %s" % gp_quote(base + ".png"),
           body, "set terminal svg size 1000,720 dynamic font 'DejaVu Sans,11'",
           "set output %s" % gp_quote(base + ".svg"), "replot", "unset output"]
    return run_gnuplot(base, gp)


# ---------------------------------------------------------------- claims
# Stages by what they have natively (the others take the reference path):
NATIVE_PUT = ("ucx", "ucx-mpi", "hybrid", "portals", "firehose")  # Extended API not over MPI
NATIVE_AM = ("ucx", "portals", "firehose")                      # AM Core not over MPI

# Each claim: text, source, test, sizes (None: every size measured), column(s)
# (a tuple: each stage of it that ran), reference column, the least speedup
# (time(ref) / time(column)) at every size for "holds", and a note on what
# differs here from the paper's machine.
# the AM Long protocols: (target-side reassembly, put-sync-send) in each ptl mode
TSR_PSS = (("portals", "portals-pss"), ("portals-host", "portals-host-pss"))
TSR_NOTE = ("in offload mode (portals, portals-pss) both payloads go without the target's CPU -- put-sync-send's "
            "as one RMA into the published segment, whose ACK comes from a local flush on shared memory, "
            "target-side reassembly's copied by the initiator into RARAM, an event entry, with its event -- so "
            "the ACK wait that put-sync-send pays on Aries costs almost nothing here; host mode matches both "
            "on the target's CPU")
CLAIMS = [
    {"claim": "Blocking put latency for small transfers (8 B) is about half the portable mpi-conduit's "
              "(roughly 2x: at least 1.8x faster)",
     "source": "seed 000 sec. 6.2, Fig. 2; sec. 7", "test": "putlat", "sizes": [8], "columns": NATIVE_PUT,
     "ref": "mpi", "need": 1.8},
    {"claim": "The native put beats the MPI ping-ack, the lower bound of any put over MPI (8 B)",
     "source": "seed 000 sec. 6.2, Fig. 2 (dotted line)", "test": "putlat", "sizes": [8],
     "columns": NATIVE_PUT, "ref": "mpi-pingack", "need": 1.0},
    {"claim": "Put flood bandwidth is about twice mpi-conduit's across the whole range (at least 1.8x at "
              "every size)",
     "source": "seed 000 sec. 6.3, Fig. 3; sec. 7", "test": "putbw", "sizes": None, "columns": NATIVE_PUT,
     "ref": "mpi", "need": 1.8},
    {"claim": "Put flood bandwidth meets or exceeds the MPI flood benchmark (osu_bw) at every size",
     "source": "seed 000 sec. 6.3, Fig. 3 (dotted line)", "test": "putbw", "sizes": None,
     "columns": NATIVE_PUT, "ref": "mpi-flood", "need": 1.0},
    {"claim": "Native AMs: the AM Medium round trip up to 16 B of payload is about half mpi-conduit's "
              "(at least 1.8x faster)",
     "source": "seed 000 sec. 6.4, Fig. 4", "test": "ammedium", "sizes": [8, 16], "columns": NATIVE_AM,
     "ref": "mpi", "need": 1.8},
    {"claim": "Native AMs: the AM Short round trip is about half mpi-conduit's (at least 1.8x faster)",
     "source": "seed 000 sec. 4 and 6.4 (Short: the 0-byte point of Fig. 4)", "test": "amshort",
     "sizes": [0], "columns": NATIVE_AM, "ref": "mpi", "need": 1.8},
    {"claim": "Firehose gets equal or higher out-of-segment put bandwidth than TMPMD at every size above "
              "4 KiB (+3.5 % asymptotically, +8.5 % at 8 KiB on the XT)",
     "source": "seed 000 sec. 6.5, Fig. 5; sec. 7", "test": "oosputbw", "sizes": "above4K",
     "columns": ("firehose",), "ref": "portals", "need": 1.0,
     "note": "here binding a TMPMD pins and registers the source every time, so the gap is far larger "
             "than the XT's"},
    {"claim": "Target-side reassembly cuts the AM Long round trip against put-sync-send (up to 33 %; "
              "here: at most 0.85x the time, i.e. 1.18x faster, at 4-64 KiB)",
     "source": "seed 002 Fig. 2", "test": "amlong", "sizes": [4096, 8192, 16384, 32768, 65536],
     "pairs": TSR_PSS, "need": 1 / 0.85,
     "note": TSR_NOTE},
    {"claim": "Target-side reassembly raises AM Long bandwidth against put-sync-send (up to 49 %; here: "
              "at least 1.2x at 8-64 KiB)",
     "source": "seed 002 Fig. 1", "test": "amlongbw", "sizes": [8192, 16384, 32768, 65536],
     "pairs": TSR_PSS, "need": 1.2,
     "note": TSR_NOTE},
    {"claim": "Target-side reassembly has lower injection overhead than put-sync-send at queue depth 8 "
              "and more",
     "source": "seed 002 Fig. 3", "test": "aminject", "sizes": "from8", "pairs": TSR_PSS, "need": 1.0,
     "note": TSR_NOTE},
    {"claim": "Offloaded (NIC) Portals processing has lower small-message latency than host processing "
              "(26 % lower: at least 1.35x faster, 8 B)",
     "source": "seed 004 sec. VI-A, Fig. 1; sec. VII", "test": "ptl-putlat", "sizes": [8],
     "columns": ("ptl-offload",), "ref": "ptl-host", "need": 1 / 0.74,
     "note": "offload here is a progress thread per process on the same 2 cores (no NIC processor): it "
             "saves the target's polling, not an interrupt"},
]
MELIST_CLAIM = {
    "claim": "Walking the match list costs the NIC about 30 ns per entry, so offload loses to host "
             "processing beyond about 50 entries",
    "source": "seed 004 sec. VI-E, Fig. 7"}
MSGS_CLAIM = {
    "claim": "The native stages move no data through MPI: 0 MPI messages per put and per AM "
             "(MPI only launches and exchanges addresses)",
    "source": "seed 000 sec. 4 (the port replaces MPI); the portals stage's design"}


def select_sizes(spec, sizes):
    if spec is None:
        return sizes
    if spec == "above4K":
        return [n for n in sizes if n > 4096]
    if spec == "from8":
        return [n for n in sizes if n >= 8]
    return [n for n in sizes if n in spec]


def speedup_range(by, test, col, ref, sizes):
    """{size: time(ref) / time(col)} over the sizes both measured."""
    out = {}
    for n in sizes:
        r, rr = by.get((col, test, n)), by.get((ref, test, n))
        if r and rr and r["median_usec"] > 0:
            out[n] = rr["median_usec"] / r["median_usec"]
    return out


def size_text(test, n):
    """'8 B', '4K B', or 'Q=16' / 'L=50' for the tests whose size is not bytes."""
    head = SIZE_HEADING.get(test)
    if head:
        return "%s=%d" % (head, n)
    t = fmt_size(n)
    return t[:-1] + " " + t[-1] + "iB" if t[-1] in "KM" else t + " B"


def describe(sp, test):
    """'2.10x faster (8 B)' or '1.20x faster (4K) .. 0.90x (1M)' for a row."""
    items = sorted(sp.items())
    fmt = lambda n, v: "%s at %s" % (speed_text(1 / v), size_text(test, n))  # noqa: E731
    if len(items) == 1:
        return fmt(*items[0])
    lo = min(items, key=lambda kv: kv[1])
    hi = max(items, key=lambda kv: kv[1])
    return "from %s to %s (%d sizes)" % (fmt(*lo), fmt(*hi), len(items))


def check_claims(summary):
    """[{claim, source, column, reference, measured, verdict, why}]."""
    results = summary["results"]
    by = {(r["column"], r["test"], r["size"]): r for r in results}
    ran = {r["column"] for r in results}
    tests_ran = {r["test"] for r in results}
    rows = []
    claims = list(CLAIMS)
    if "gasnet-mpi" in ran:  # the real mpi-conduit: the seeds' own reference, when it ran
        claims += [dict(c, ref="gasnet-mpi") for c in CLAIMS if c.get("ref") == "mpi"]
    for c in claims:
        test = c["test"]
        if "pairs" in c:
            pairs = [p for p in c["pairs"] if p[0] in ran] or list(c["pairs"][:1])
        else:
            pairs = [(s, c["ref"]) for s in c["columns"] if s in ran] or [(c["columns"][0], c["ref"])]
        for col, ref in pairs:
            row = {"claim": c["claim"], "source": c["source"], "column": col, "reference": ref}
            sizes = select_sizes(c["sizes"], sorted({k[2] for k in by if k[1] == test and k[0] == col}))
            sp = speedup_range(by, test, col, ref, sizes)
            if test not in tests_ran:
                row.update(measured="-", verdict="not measurable here",
                           why="test %s was not run (compare.py --tests)" % test)
            elif col not in ran or ref not in ran:
                miss = [x for x in (col, ref) if x not in ran]
                row.update(measured="-", verdict="not measurable here",
                           why="no %s column in this run (not built, or not selected)" % " or ".join(miss))
            elif not sp:
                row.update(measured="-", verdict="not measurable here",
                           why="no size of the claim measured by both (%s)" % (
                               ", ".join(fmt_size(n) for n in (c["sizes"] if isinstance(c["sizes"], list)
                                                               else [])) or c["sizes"]))
            else:
                worst = min(sp.values())
                ok = worst >= c["need"] * 0.995
                noisy = any(by[(x, test, n)]["spread"] > NOISY_SPREAD for n in sp for x in (col, ref))
                row.update(measured=describe(sp, test), verdict="holds" if ok else "does not hold",
                           why=("needs %s at every size; " % ("at least as fast" if c["need"] == 1.0 else
                                                               "at least " + speed_text(1 / c["need"]))) +
                           ("met" if ok else "the worst is %s" % speed_text(1 / worst)) +
                           ("; some values are noisy (~)" if noisy else "") +
                           ("; " + c["note"] if c.get("note") else ""))
            rows.append(row)
    rows.append(melist_claim(by, ran))
    rows += msgs_claims(summary)
    return rows


def fit(points):
    """Least-squares (slope, intercept) of [(x, y)]."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0
    return slope, my - slope * mx


def melist_claim(by, ran):
    row = dict(MELIST_CLAIM, column="ptl-offload", reference="ptl-host")
    pts = {m: sorted((n, by[k]["median_usec"]) for k in by if k[0] == m and k[1] == "ptl-melist"
                     for n in [k[2]]) for m in ("ptl-host", "ptl-offload")}
    if len(pts["ptl-host"]) < 2 or len(pts["ptl-offload"]) < 2:
        row.update(measured="-", verdict="not measurable here",
                   why="ptl-melist was not run by both modes (compare.py --baselines ptl, --tests ptl-melist)")
        return row
    (sh, ih), (so, io) = fit(pts["ptl-host"]), fit(pts["ptl-offload"])
    cross = (ih - io) / (so - sh) if so > sh else None
    row.update(measured="%.1f ns per entry offload, %.1f ns host; intercepts %.3f / %.3f us%s"
               % (so * 1e3, sh * 1e3, io, ih,
                  "; lines cross at L = %.0f" % cross if cross and cross > 0 else "; lines do not cross"),
               verdict="not measurable here",
               why="the paper's cost is a slow NIC processor walking the list; here both modes walk it on "
                   "the same host CPU (offload is a progress thread), so the per-entry costs say how ptl "
                   "walks, not what a NIC would")
    return row


def msgs_claims(summary):
    mm = summary.get("mpi_msgs") or {}
    vals = {}
    for r in mm.get("results", []):
        vals.setdefault(r["column"], []).append((r["test"], r["size"], r["median"]))
    out = []
    cols = [c["name"] for c in summary["meta"]["columns"] if c["name"] in NATIVE_AM + NATIVE_PUT]
    for col in cols:
        row = dict(MSGS_CLAIM, column=col, reference="-")
        v = vals.get(col)
        if not v:
            row.update(measured="-", verdict="not measurable here",
                       why="MPI messages were not counted (no tests/libstpmpicount.so, or --mpi-count none)")
        else:
            am_native = col in NATIVE_AM
            # stages whose AMs run over the MPI Core are expected to use MPI for AM tests
            relevant = [t for t in v if am_native or not t[0].startswith("am")] or v
            worst = max(relevant, key=lambda t: t[2])
            bad = [t for t in relevant if t[2] > 0.001]
            row.update(measured="max %.2f per operation (%s %s)" % (worst[2], worst[0], size_text(worst[0], worst[1])),
                       verdict="holds" if not bad else "does not hold",
                       why=("%d tests counted" % len(relevant)) +
                       ("" if am_native else "; AM tests left out: this stage's AMs run over the MPI Core "
                        "by design") + ("; over 0 in: " + ", ".join("%s %s" % (t[0], fmt_size(t[1]))
                                                                    for t in bad) if bad else ""))
        out.append(row)
    return out


# ---------------------------------------------------------------- PAPI
def papi_section(summary, raw):
    """(lines, table or None): the PAPI headers the benches printed, and per-
    operation counters when the machine counted them."""
    heads = sorted({h for hs in summary["meta"].get("headers", {}).values() for h in hs if h.startswith("PAPI:")})
    counted = [r for r in raw if r.get("counters_per_op")]
    if not heads and not counted:
        return ["PAPI: the benches printed no PAPI line (stpbench built without PAPI)."], None
    if not counted:
        none = [h for h in heads if "no hardware counters" in h]
        return ([none[0] + " -- no per-operation counters in this report."] if none else heads), None
    agg = {}
    for r in counted:
        for kv in r["counters_per_op"].split(";"):
            if "=" in kv:
                k, v = kv.split("=", 1)
                agg.setdefault((r["stage"], r["test"], int(r["size"]), k), []).append(float(v))
    events = sorted({k[3] for k in agg})
    keys = sorted({k[:3] for k in agg})
    table = [["column", "test", "size"] + events]
    for col, test, n in keys:
        table.append([col, test, fmt_size(n)] + ["%.1f" % statistics.median(agg[(col, test, n, e)])
                                                 if (col, test, n, e) in agg else "-" for e in events])
    return heads, table


# ---------------------------------------------------------------- output
def md_table(rows):
    out = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in rows[1:]]
    return out


def html_table(rows, cls="", span=0):
    """rows as an HTML table; the first `span` cells of a row that repeat the
    row above are merged into it (rowspan: a claim over its stages)."""
    out = ['<table class="%s"><thead><tr>' % cls + "".join("<th>%s</th>" % html.escape(c) for c in rows[0]) +
           "</tr></thead><tbody>"]
    body = rows[1:]
    for i, r in enumerate(body):
        cells = []
        for j, c in enumerate(r):
            if j < span:
                if i > 0 and body[i - 1][:j + 1] == r[:j + 1]:
                    continue
                n = 1
                while i + n < len(body) and body[i + n][:j + 1] == r[:j + 1]:
                    n += 1
                cells.append('<td rowspan="%d">%s</td>' % (n, html.escape(c)))
                continue
            k = ("holds" if c == "holds" else "nothold" if c == "does not hold" else
                 "na" if c == "not measurable here" else "" if cls == "claims" else
                 "faster" if c.endswith("faster") else "slower" if c.endswith("slower") else "")
            cells.append('<td class="%s">%s</td>' % (k, html.escape(c)))
        out.append("<tr>%s</tr>" % "".join(cells))
    return out + ["</tbody></table>"]


def claims_rows(claims):
    return [["claim", "source", "column", "against", "measured", "verdict", "why"]] + \
        [[c["claim"], c["source"], c["column"], c["reference"], c["measured"], c["verdict"], c["why"]]
         for c in claims]


def machine_lines(meta, run=None):
    """The machine and settings section; run: the line describing the run
    (default: compare.py's)."""
    m = meta.get("machine", {})
    v = m.get("versions", {})
    out = ["- machine: %s, %s, %s CPUs, %s MiB, %s, kernel %s" % (
        m.get("host", meta.get("host")), m.get("cpu", "?"), m.get("cpus", "?"),
        (m.get("memory_kB") or 0) // 1024, m.get("os", "?"), m.get("kernel", "?")),
        "- commit: %s" % m.get("commit", "unknown (not a git checkout)"),
        "- versions: " + "; ".join("%s: %s" % kv for kv in sorted(v.items())),
        run or "- run: %s; %d processes; %d repetitions alternating the columns; %d iterations per size; "
        "sizes x%d; %s s" % (" ".join(meta.get("argv", [])), meta.get("np", 2), meta.get("reps", 0),
                             meta.get("iters", 0), meta.get("step", 0), meta.get("seconds", "?")),
        "- environment knobs: %s" % (" ".join("%s=%s" % kv for kv in m.get("environment", {}).items()) or
                                     "none set")]
    for col, env in sorted(meta.get("column_env", {}).items()):
        extra = {k: x for k, x in env.items() if k != "STAGEPORT_STAGE"}
        if extra:
            out.append("- column %s: %s" % (col, " ".join("%s=%s" % kv for kv in sorted(extra.items()))))
    return out



def claims_lines(whose, claims, verdicts, outdir):
    """The terminal's claims section: a line per claim, its source and why
    when it does not hold."""
    out = ["", "Claims of %s, checked on this run (%s; details and plots: %s/report.html):" % (whose, verdicts, outdir)]
    for c in claims:
        out.append("  [%s] %s -- %s vs %s: %s" % (c["verdict"], c["claim"], c["column"], c["reference"],
                                                   c["measured"]))
        if c["verdict"] != "holds":
            out.append("      (%s; %s)" % (c["source"], c["why"]))
    return out

def write(outdir, summary):
    """Writes the report of one compare.py run into outdir; returns the text
    to print (the claims section and where everything went)."""
    if summary["meta"].get("kind") == "seed003":
        return write_seed003(outdir, summary)
    results, meta = summary["results"], summary["meta"]
    columns = [(c["name"], c["kind"]) for c in meta["columns"]]
    ref = meta.get("reference")
    raw = []
    try:
        with open(os.path.join(outdir, "raw.csv"), newline="") as f:
            raw = list(csv.DictReader(f))
    except OSError:
        pass
    ran_cols = {r["column"] for r in results}
    tests = [t for t in meta.get("tests", []) if any(r["test"] == t for r in results)]

    figs, problems = [], []
    for fig in FIGURES:
        fid, title, test, legend = fig
        series = fig_series(results, fig_columns(columns, legend), test)
        missing = ("test %s was not run in this comparison" % test if test not in {r["test"] for r in results}
                   else "no column measured %s at a size above 0" % test)
        err = plot(outdir, fig, series, test, missing)
        if err:
            problems.append("%s: %s" % (fid, err))
        figs.append((fid, title, test, [s[0] for s in series], None if series else missing, err))

    claims = check_claims(summary)
    with open(os.path.join(outdir, "claims.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerows(claims_rows(claims))
    papi_lines, papi_table = papi_section(summary, raw)
    msg_rows, _ = msgs_rows({(r["column"], r["test"], r["size"]): r["values"]
                             for r in (summary.get("mpi_msgs") or {}).get("results", [])}, columns, tests)

    counts = {}
    for c in claims:
        counts[c["verdict"]] = counts.get(c["verdict"], 0) + 1
    verdicts = ", ".join("%d %s" % (n, v) for v, n in sorted(counts.items()))
    tables = [t for t in (test_table(results, columns, ref, test) for test in tests) if t]

    # ---- Markdown
    md = ["# stageport stage comparison", "",
          "Every column ran alternately with the others, %d repetitions; values are medians over the "
          "repetitions.  Columns: the stages (%s)%s; MPI baselines (mpi-pingack, mpi-flood) and raw UCX "
          "(ucx-perftest, ucx-raw) are drawn dotted in the plots." % (
              meta.get("reps", 0), ", ".join(c for c, k in columns if k == "stage"),
              "; ptl on its own (ptl-host, ptl-offload)" if "ptl-host" in ran_cols else ""), ""]
    md += ["## Claims", "", "%s.  A claim is checked against this run's medians at every size it names; "
           "'holds' means at every one of them." % verdicts, ""] + md_table(claims_rows(claims))
    md += ["", "## Tables", ""] + ["- " + n for n in table_notes(ref)]
    for heading, table in tables:
        md += ["", "### " + heading, ""] + md_table(table)
    md += ["", "## MPI messages per operation", ""]
    md += (["Messages nodes 0 and 1 sent during the timed run, per operation (PMPI counter), one size per "
            "test.", ""] + md_table(msg_rows)) if len(msg_rows) > 1 else ["Not counted in this run."]
    md += ["", "## PAPI", ""] + papi_lines + ([""] + md_table(papi_table) if papi_table else [])
    md += ["", "## Plots", ""]
    for fid, title, test, cols, missing, err in figs:
        md.append("- **%s** (`plots/%s.png`, `.svg`): %s" % (
            title, fid, "no data: " + missing if missing else "test %s; %s" % (test, ", ".join(cols))) +
            (" -- " + err if err else ""))
        if not err:
            md.append("  ![%s](plots/%s.png)" % (title, fid))
    if summary.get("failures"):
        md += ["", "## Failed runs", ""] + ["- " + f.splitlines()[0] for f in summary["failures"]]
    md += ["", "## Machine and settings", ""] + machine_lines(meta)
    with open(os.path.join(outdir, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")

    # ---- HTML (self-contained)
    h = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
         "<title>stageport stage comparison</title>", "<style>", CSS, "</style></head><body>",
         "<h1>stageport stage comparison</h1>",
         "<p>%s</p>" % html.escape(md[2]), "<h2>Claims</h2>",
         "<p>%s.  A claim is checked against this run's medians at every size it names; "
         "<em>holds</em> means at every one of them.</p>" % html.escape(verdicts)]
    h += html_table(claims_rows(claims), "claims", span=2)
    h += ["<h2>Plots</h2>"]
    for fid, title, test, cols, missing, err in figs:
        h.append("<figure><figcaption>%s</figcaption>" % html.escape(title))
        svg = os.path.join(outdir, "plots", fid + ".svg")
        if not err and os.path.exists(svg):
            with open(svg) as f:
                text = f.read()
            h.append(re.sub(r"^<\?xml[^>]*>\s*(<!DOCTYPE[^>]*>\s*)?", "", text))
        else:
            h.append("<p class=\"na\">%s</p>" % html.escape(err or missing or ""))
        h.append("</figure>")
    h += ["<h2>Tables</h2>", "<ul>"] + ["<li>%s</li>" % html.escape(n) for n in table_notes(ref)] + ["</ul>"]
    for heading, table in tables:
        h += ["<h3>%s</h3>" % html.escape(heading)] + html_table(table, "data")
    h += ["<h2>MPI messages per operation</h2>"]
    h += html_table(msg_rows, "data") if len(msg_rows) > 1 else ["<p>Not counted in this run.</p>"]
    h += ["<h2>PAPI</h2>"] + ["<p>%s</p>" % html.escape(l) for l in papi_lines]
    h += html_table(papi_table, "data") if papi_table else []
    if summary.get("failures"):
        h += ["<h2>Failed runs</h2><ul>"] + ["<li>%s</li>" % html.escape(f.splitlines()[0])
                                            for f in summary["failures"]] + ["</ul>"]
    h += ["<h2>Machine and settings</h2><ul>"] + ["<li>%s</li>" % html.escape(l[2:]) for l in machine_lines(meta)]
    h += ["</ul></body></html>"]
    with open(os.path.join(outdir, "report.html"), "w") as f:
        f.write("\n".join(h) + "\n")

    # ---- the terminal: the claims section
    out = claims_lines("the seed papers", claims, verdicts, outdir)
    out += [""] + [l for l in papi_lines]
    out.append("plots: %d figures in %s/plots (PNG and SVG)%s" % (
        len(figs) - len(problems), outdir, "; " + "; ".join(problems) if problems else ""))
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- seed 003 (bench/seed003.py)
# Figures 1-6 and Table 1 of seed 003, measured with GASNet-EX's own test
# programs (testam, testimm, testsmall, testfaddperf); bench/seed003.py runs
# them, write() sends its summaries (meta.kind "seed003") here.
S003_FIGURES = [
    ("s003-fig1-npam", "Seed 003 Fig. 1: AM Medium ping-pong with generated payload, NP-AM normalized to FP-AM"),
    ("s003-fig2-imm", "Seed 003 Fig. 2: reduced communication time with IMMEDIATE AM Mediums"),
    ("s003-fig3-lc", "Seed 003 Fig. 3: non-bulk PutNB flood (out-of-segment source), specialized vs reference "
                     "local completion"),
    ("s003-fig4-hot", "Seed 003 Fig. 4: every process FADDs one counter on rank 0, aggregate throughput, "
                      "specialized vs reference remote atomics"),
    ("s003-fig5-vis", "Seed 003 Fig. 5: strided put bandwidth, D-d descriptions that fold to one dimension, stride "
                      "optimizer on vs off (one host)"),
    ("s003-fig5-vis-speedup", "Seed 003 Fig. 5: the stride optimizer's speedup, time(off) / time(on)"),
    ("s003-fig6-visam", "Seed 003 Fig. 6: strided put packed into AM Mediums, NP-AM vs FP-AM packing"),
    ("s003-vis-vi", "Vector, indexed and strided put bandwidth (testvisperf, one host), stages and real conduits"),
]
BLOCK_NAME = {"cyclic": "Cyclic (B=1)", "full": "Full Block (B=M)"}
# the stages whose Puts are not AMs (the Fig. 3 claim's)
S003_LC_STAGES = NATIVE_PUT + ("portals-host", "firehose-host")  # (the ptl stages in host mode too)
# why local completion cannot gain on a ptl stage in offload mode
S003_LC_OFFLOAD = ("; in ptl's offload mode a put to a published entry is remotely complete when PtlPut returns "
                   "(its SEND_END and ACK come together): see %s-host, the same stage in host mode")
S003_CLAIMS = [
    {"id": "npam",
     "claim": "Specialized NP-AM (payload generated in the GASNet-allocated buffer of gex_AM_PrepareRequestMedium) "
              "is at least as fast as FP-AM at every AM Medium size from 512 B to the maximum",
     "source": "seed 003 Fig. 1 (Aries: NP meets or exceeds FP at every size, by up to 6 % to 4 KiB, 14 % at "
               "64 KiB); issue 33 item 7",
     "columns": ("ucx", "portals"), "need": 1.0},
    {"id": "imm",
     "claim": "With full blocks (B=M) at 4 processes, the IMMEDIATE schedule takes at least 30 % less time "
              "than the static one",
     "source": "seed 003 Fig. 2 (Full Block: up to 93 % less); issue 33 item 7",
     "columns": ("ucx", "portals"), "np": 4, "label": "full", "need": 30.0},
    {"id": "lc",
     "claim": "Across hosts, specialized local completion gets at least the reference's non-bulk put bandwidth "
              "at every size from 8 KiB to 64 KiB",
     "source": "seed 003 Fig. 3 (Aries: matches or exceeds it everywhere, up to 32 % more at 8 KiB)",
     "columns": S003_LC_STAGES, "lo": 8192, "hi": 65536, "need": 1.0},
    {"id": "adlat",
     "claim": "The network's U64 FADD round trip is at least 1.7x shorter than its own stage's reference over AMs "
              "(2 processes)",
     "source": "seed 003 Table 1 (Aries: 1.7x lower FADD latency); issue 34",
     "columns": ("ucx", "portals", "firehose"), "test": "s003-ad-lat", "need": 1.7},
    {"id": "adtput",
     "claim": "The network's U64 FADD flood throughput is at least 1.7x its own stage's reference's (2 processes)",
     "source": "seed 003 Table 1 (Aries: 1.7-1.8x the throughput); issue 34",
     "columns": ("ucx", "portals", "firehose"), "test": "s003-ad-tput", "need": 1.7},
    {"id": "hot",
     "claim": "With every process FADDing one counter on rank 0, at 16 processes the specialized atomics' "
              "aggregate throughput is at least 2x the reference's",
     "source": "seed 003 Fig. 4 (Aries: the reference's throughput falls as processes are added, the "
               "specialized one keeps rising); issue 34",
     "columns": ("ucx", "portals", "firehose"), "np": 16, "need": 2.0},
]
S003_VIS_STAGES = ("mpi", "ucx", "ucx-mpi", "hybrid", "portals", "firehose")
S003_CLAIMS += [
    {"id": "visopt8",
     "claim": "The stride optimizer makes the 8-d strided put (a description that folds to one strided dimension) "
              "at least 2x faster (median over the sizes of time(off) / time(on), one host)",
     "source": "seed 003 Fig. 5 (Cori-II, one node: 2.6x on average at 8-d, against GASNet-1's VIS); issue 35",
     "columns": S003_VIS_STAGES, "always": ("mpi", "ucx", "portals"), "d": 8, "need": 2.0},
    {"id": "visopt32",
     "claim": "The stride optimizer makes the 32-d strided put (a description that folds to one strided dimension) "
              "at least 4x faster (median over the sizes of time(off) / time(on), one host)",
     "source": "seed 003 Fig. 5 (3.9x on average at 32-d, up to 8.6x); issue 35",
     "columns": S003_VIS_STAGES, "always": ("mpi", "ucx", "portals"), "d": 32, "need": 4.0},
    {"id": "visnp",
     "claim": "A strided put packed into AM Mediums is at least as fast with NP-AM packing (into the Core's send "
              "memory) as with FP-AM packing (a buffer copied at injection): median over the sizes of "
              "bandwidth(NP) / bandwidth(FP), across hosts",
     "source": "seed 003 Fig. 6 (Aries: NP-AM 6.2 % faster than FP-AM on average); issue 35",
     "columns": ("ucx", "ucx-mpi", "portals", "firehose"), "always": ("ucx", "portals"), "need": 1.0},
    {"id": "visreal-s",
     "claim": "testvisperf's strided put bandwidth (every D measured, optimizer on) is at least the real GASNet-EX "
              "ucx-conduit's (median over the sizes of the bandwidth ratio, at every D)",
     "source": "issue 35", "columns": ("ucx", "portals"), "test": "strided", "need": 1.0},
    {"id": "visreal-i",
     "claim": "testvisperf's indexed put bandwidth is at least the real GASNet-EX ucx-conduit's (median over the "
              "sizes of the bandwidth ratio)",
     "source": "issue 35", "columns": ("ucx", "portals"), "test": "s003-vis-iput", "need": 1.0},
]
# why a hot spot on this VM cannot scale (the Fig. 4 notes)
S003_HOT_NOTE = ("the VM has 2 cores: past 2 processes they are oversubscribed, so an aggregate throughput cannot "
                 "rise with N; the reference also needs rank 0's CPU for every operation, a network atomic only "
                 "its sender's")


def s003_columns(meta):
    return [(c["name"], c["kind"]) for c in meta["columns"]]


def s003_am(by, col):
    """{variant: {size: time(FP) / time(NP variant)}}, variant np or npref,
    and {variant: {size: noisy?}}.  Each repetition's own ratio (its FP and
    NP runs went back to back, on one machine: compare.run_reps repeats them
    when the machine changed under them), the median over the repetitions,
    as Fig. 2 takes each run's own reduction; noisy when those ratios spread
    over NOISY_SPREAD of their median.  (Should a repetition be missing from
    one side: the ratio of the medians, noisy by either side's spread.)"""
    out, noisy = {}, {}
    for var in ("np", "npref"):
        for (c, t, n), r in by.items():
            if c != col or t != "s003-am-" + var:
                continue
            fp = by.get((col, "s003-am-fp", n))
            if not fp or r["median_usec"] <= 0:
                continue
            pairs = [f / x for f, x in zip(fp["usec"], r["usec"]) if x > 0]
            if len(fp["usec"]) == len(r["usec"]) and len(pairs) == len(r["usec"]):
                ratio = statistics.median(pairs)
                out.setdefault(var, {})[n] = ratio
                noisy.setdefault(var, {})[n] = (max(pairs) - min(pairs)) / ratio > NOISY_SPREAD
            else:
                out.setdefault(var, {})[n] = fp["median_usec"] / r["median_usec"]
                noisy.setdefault(var, {})[n] = max(fp["spread"], r["spread"]) > NOISY_SPREAD
    return out, noisy


def s003_imm(by, col, label):
    """{N: (reduction %, min, max, static usec, IMMEDIATE usec, runs)}: each
    run's own reduction 100 (Tstatic - Tdynamic) / Tstatic (testimm times
    both schedules in one run), the median over the runs."""
    out = {}
    st_test, im_test = "s003-imm-%s-static" % label, "s003-imm-%s-imm" % label
    for (c, t, n), st in by.items():
        im = by.get((col, im_test, n))
        if c != col or t != st_test or not im:
            continue
        if len(st["usec"]) == len(im["usec"]):
            reds = [100.0 * (s - d) / s for s, d in zip(st["usec"], im["usec"]) if s > 0]
        else:  # (cannot happen: a run gives both or neither) the medians' reduction
            reds = [100.0 * (st["median_usec"] - im["median_usec"]) / st["median_usec"]]
        if reds:
            out[n] = (statistics.median(reds), min(reds), max(reds), st["median_usec"], im["median_usec"], len(reds))
    return out


def s003_lc(by, col, emu):
    """{size: (specialized MB/s, reference MB/s or None, ratio or None, noisy)}."""
    sfx = "-emu" if emu else ""
    out = {}
    for (c, t, n), r in by.items():
        if c != col or t != "s003-lc" + sfx or r["median_usec"] <= 0:
            continue
        rr = by.get((col, "s003-lcref" + sfx, n))
        mb = n / r["median_usec"] * 1e6 / 2**20
        mbr = n / rr["median_usec"] * 1e6 / 2**20 if rr and rr["median_usec"] > 0 else None
        noisy = r["spread"] > NOISY_SPREAD or (rr is not None and rr["spread"] > NOISY_SPREAD)
        out[n] = (mb, mbr, mb / mbr if mbr else None, noisy)
    return out


def s003_ad(by, col):
    """Table 1: {bits: (spec latency us, ref latency us, spec Mops/s, ref Mops/s)}, None where not measured."""
    out = {}
    for bits in (32, 64):
        v = []
        for test in ("s003-ad-lat", "s003-ad-lat-ref", "s003-ad-tput", "s003-ad-tput-ref"):
            r = by.get((col, test, bits))
            u = r["median_usec"] if r and r["median_usec"] > 0 else None
            v.append(u if u is None or "-lat" in test else 1.0 / u)
        if any(x is not None for x in v):
            out[bits] = tuple(v)
    return out


def s003_hot(by, col):
    """Fig. 4: {N: (spec Mops/s, ref Mops/s, spec (min, max), ref (min, max))} (aggregate; None: not measured)."""
    out = {}
    for (c, t, n), r in by.items():
        if c != col or t not in ("s003-ad-hot", "s003-ad-hot-ref") or r["median_usec"] <= 0:
            continue
        cur = list(out.get(int(n), (None, None, None, None)))
        k = 1 if t.endswith("-ref") else 0
        cur[k], cur[k + 2] = 1.0 / r["median_usec"], (1.0 / r["max_usec"], 1.0 / r["min_usec"])
        out[int(n)] = tuple(cur)
    return out


def s003_vis_ratio(by, col, test, ref_col, ref_test):
    """{size: (time(ref) / time(col), noisy)}: above 1, col's bandwidth is
    higher (testvisperf: the same bytes per operation)."""
    out = {}
    for (c, t, n), r in by.items():
        if c != col or t != test or r["median_usec"] <= 0:
            continue
        rr = by.get((ref_col, ref_test, n))
        if rr and rr["median_usec"] > 0:
            out[n] = (rr["median_usec"] / r["median_usec"], max(r["spread"], rr["spread"]) > NOISY_SPREAD)
    return out


def s003_vis_text(sp, test):
    """'median 2.31x, mean 2.40x over 13 sizes (16 B to 64 KiB); lowest 1.10x at
    16 B, highest 4.20x at 64 KiB' for a {size: (ratio, noisy)}."""
    v = [x[0] for x in sp.values()]
    lo, hi = min(sp, key=lambda n: sp[n][0]), max(sp, key=lambda n: sp[n][0])
    return ("median %.2fx, mean %.2fx over %d sizes (%s to %s); lowest %.2fx at %s, highest %.2fx at %s%s"
            % (statistics.median(v), statistics.mean(v), len(v), size_text(test, min(sp)), size_text(test, max(sp)),
               sp[lo][0], size_text(test, lo), sp[hi][0], size_text(test, hi),
               "; some values are noisy (~)" if any(x[1] for x in sp.values()) else ""))


def s003_vis_am(by, col):
    """Fig. 6: ({size: (NP/FP, noisy)}, across emulated hosts?) -- across
    the emulated hosts when they ran, else on one host."""
    sp = s003_vis_ratio(by, col, "s003-vis-npam-emu", col, "s003-vis-fpam-emu")
    if sp:
        return sp, True
    return s003_vis_ratio(by, col, "s003-vis-npam", col, "s003-vis-fpam"), False


def s003_ratio_points(by, col, test, ref_col, ref_test):
    """[(size, time(ref) / time(col), lowest, highest)]: the bar is the range
    of the repetitions' own ratios (the two ran in turn in each repetition)."""
    pts = []
    for n, (v, _) in sorted(s003_vis_ratio(by, col, test, ref_col, ref_test).items()):
        r, rr = by[(col, test, n)], by[(ref_col, ref_test, n)]
        per = [f / o for f, o in zip(rr["usec"], r["usec"]) if o > 0] if len(r["usec"]) == len(rr["usec"]) else []
        pts.append((n, v, min(per + [v]), max(per + [v])))
    return pts


def s003_bw_points(by, col, test):
    """[(size, MB/s median, lowest, highest)] of one column and test."""
    pts = []
    for (c, t, n), r in sorted(by.items()):
        if c == col and t == test and r["median_usec"] > 0 and r["min_usec"] > 0:
            mb = lambda u: n / u * 1e6 / 2**20  # noqa: E731
            pts.append((n, mb(r["median_usec"]), mb(r["max_usec"]), mb(r["min_usec"])))
    return pts


def s003_labels(meta):
    """Fig. 2's block sizes as named in the tests (cyclic, b5, full)."""
    return [b["label"] for b in meta.get("seed003", {}).get("imm_blocks", [])]


def s003_tables(summary):
    """The derived tables: [(heading, rows)] -- Fig. 1's NP/FP ratios, Fig. 2's
    reductions, Fig. 3's bandwidths and specialized/reference ratios."""
    meta, results = summary["meta"], summary["results"]
    by = {(r["column"], r["test"], r["size"]): r for r in results}
    cols = [c for c, _ in s003_columns(meta)]
    tables = []
    # Fig. 1
    am = {c: s003_am(by, c) for c in cols}
    heads = [(c, v) for c in cols for v in ("np", "npref") if v in am[c][0]]
    if heads:
        sizes = sorted({n for c, v in heads for n in am[c][0][v]})
        rows = [["size"] + ["%s %s" % (c, "NP" if v == "np" else "NP-ref") for c, v in heads]]
        for n in sizes:
            rows.append([fmt_size(n)] + ["%.3f%s" % (am[c][0][v][n], "~" if am[c][1][v][n] else "")
                                         if n in am[c][0][v] else "-" for c, v in heads])
        tables.append(("Fig. 1: AM Medium ping-pong, time(FP) / time(NP) per column, each repetition's own, "
                       "the median (above 1: NP faster; NP: "
                       "specialized, STAGEPORT_NP=native on stageport, the conduit's own on a real one; NP-ref: "
                       "STAGEPORT_NP=reference)", rows))
    # Fig. 2
    labels = s003_labels(meta)
    imm = {(c, l): s003_imm(by, c, l) for c in cols for l in labels}
    heads = [k for k in imm if imm[k]]
    if heads:
        nps = sorted({n for k in heads for n in imm[k]})
        rows = [["N"] + ["%s %s" % k for k in heads]]
        for n in nps:
            cells = [str(n)]
            for k in heads:
                v = imm[k].get(n)
                cells.append("-" if not v else "%+.1f%%%s" % (v[0], "~" if v[2] - v[1] > 20 else ""))
            rows.append(cells)
        tables.append(("Fig. 2: testimm -m, reduction of the completion time with IMMEDIATE, 100 (Tstatic - "
                       "Tdynamic) / Tstatic, median of the runs (cyclic: B=1, b5: B=5, full: B=M; N processes, "
                       "M = TOTAL / (N-1) messages per receiver; ~: the runs spread over more than 20 points)", rows))
        rows = [["N"] + ["%s %s" % k for k in heads]]
        for n in nps:
            rows.append([str(n)] + ["-" if not imm[k].get(n) else "%.3f / %.3f" % (imm[k][n][3] / 1e6, imm[k][n][4] / 1e6)
                                    for k in heads])
        tables.append(("Fig. 2: Tstatic / Tdynamic in seconds (medians)", rows))
    # Fig. 3
    for emu in (False, True):
        lc = {c: s003_lc(by, c, emu) for c in cols}
        have = [c for c in cols if lc[c]]
        if not have:
            continue
        sizes = sorted({n for c in have for n in lc[c]})
        rows = [["size"] + [h for c in have for h in ((c + " spec", c + " ref", c + " spec/ref")
                                                       if any(v[1] for v in lc[c].values()) else (c,))]]
        for n in sizes:
            cells = [fmt_size(n)]
            for c in have:
                v = lc[c].get(n)
                two = any(x[1] for x in lc[c].values())
                if not v:
                    cells += ["-"] * (3 if two else 1)
                    continue
                cells.append("%.1f" % v[0])
                if two:
                    cells += ["-" if v[1] is None else "%.1f" % v[1],
                              "-" if v[2] is None else "%.3f%s" % (v[2], "~" if v[3] else "")]
            rows.append(cells)
        tables.append(("Fig. 3: testsmall -m -p -out, PutNB+NOW flood bandwidth, MB/s (MB = 2^20), %s; spec: "
                       "STAGEPORT_LC=native, ref: STAGEPORT_LC=reference, spec/ref above 1: specialized faster"
                       % ("across two emulated hosts (TCP)" if emu else "one host"), rows))
    # Table 1 and Fig. 4
    ad = {c: s003_ad(by, c) for c in cols}
    have = [c for c in cols if ad[c]]
    if have:
        rows = [["column", "type", "FADD latency us spec", "ref", "ref/spec", "FADD Mops/s spec", "ref", "spec/ref"]]
        for c in have:
            for bits, (ls, lr, ts, tr) in sorted(ad[c].items()):
                f = lambda x, p="%.3f": "-" if x is None else p % x  # noqa: E731
                rows.append([c, "U%d" % bits, f(ls), f(lr), f(lr / ls if ls and lr else None),
                             f(ts), f(tr), f(ts / tr if ts and tr else None)])
        tables.append(("Table 1: testfaddperf on 2 processes, blocking FADD round trip and NBI FADD flood "
                       "throughput (spec: the stage's own choice of implementation, ref: STAGEPORT_AD_IMPL="
                       "reference; a real conduit: its own, under spec)", rows))
    hot = {c: s003_hot(by, c) for c in cols}
    have = [c for c in cols if hot[c]]
    if have:
        nps = sorted({n for c in have for n in hot[c]})
        heads = [(c, k) for c in have for k in (0, 1) if any(v[k] for v in hot[c].values())]
        rows = [["N"] + ["%s %s" % (c, "spec" if k == 0 else "ref") for c, k in heads]]
        for n in nps:
            rows.append([str(n)] + ["-" if not hot[c].get(n) or hot[c][n][k] is None else "%.3f" % hot[c][n][k]
                                    for c, k in heads])
        tables.append(("Fig. 4: testfaddperf -S, every process FADDs one U64 counter on rank 0: aggregate "
                       "throughput, millions of operations per second (%s)" % S003_HOT_NOTE, rows))
    # Figs. 5 and 6, and the real conduits' VIS: ratio tables (the bandwidths: the medians of every test)
    s3 = meta.get("seed003", {})

    def ratio_table(heading, sps):
        """sps: [(column heading, {size: (ratio, noisy)})]; rows per size, then the median and mean."""
        sps = [(h, sp) for h, sp in sps if sp]
        if not sps:
            return
        sizes = sorted({n for _, sp in sps for n in sp})
        rows = [["size"] + [h for h, _ in sps]]
        for n in sizes:
            rows.append([fmt_size(n)] + ["-" if n not in sp else "%.2f%s" % (sp[n][0], "~" if sp[n][1] else "")
                                         for _, sp in sps])
        for what, f in (("median", statistics.median), ("mean", statistics.mean)):
            rows.append([what] + ["%.2f" % f([x[0] for x in sp.values()]) for _, sp in sps])
        tables.append((heading, rows))

    for d in s3.get("vis_sl", []):
        ratio_table("Fig. 5, D=%d: testvisperf -sl %d E, strided put of 8-byte elements (%s %% density), one host: "
                    "time(optimizer off) / time(on) per stage (above 1: the optimizer is faster; "
                    "~: a noisy median)" % (d, d, 100 // max(1, s3.get("vis_density_steps", 2))),
                    [(c, s003_vis_ratio(by, c, "s003-vis-s%d-opt" % d, c, "s003-vis-s%d-noopt" % d)) for c in cols])
    am = {c: s003_vis_am(by, c) for c in cols}
    for emu in (True, False):
        ratio_table("Fig. 6: testvisperf -sl 3 E with STAGEPORT_VIS=ampipe, 64-byte elements, %s: bandwidth(NP-AM) "
                    "/ bandwidth(FP-AM) per stage (NP: STAGEPORT_NP=native, FP: =reference; above 1: NP faster)"
                    % ("across two emulated hosts (TCP)" if emu else "one host"),
                    [(c, am[c][0]) for c in cols if am[c][1] == emu])
    for ref in ("gasnet-ucx", "gasnet-mpi"):
        if ref not in cols:
            continue
        stages = [c for c in cols if not c.startswith("gasnet-")]
        tests = [("vector put", "s003-vis-vput"), ("indexed put", "s003-vis-iput")]
        tests += [("strided put D=%d, optimizer on" % d, "s003-vis-s%d-opt" % d) for d in s3.get("vis_sl", [])]
        rows = [["column", "put", "median", "mean", "lowest", "highest", "sizes"]]
        for c in stages:
            for what, t in tests:
                sp = s003_vis_ratio(by, c, t, ref, t)
                if not sp:
                    continue
                v = [x[0] for x in sp.values()]
                lo, hi = min(sp, key=lambda n: sp[n][0]), max(sp, key=lambda n: sp[n][0])
                rows.append([c, what, "%.2f%s" % (statistics.median(v), "~" if any(x[1] for x in sp.values()) else ""),
                             "%.2f" % statistics.mean(v), "%.2f (%s)" % (sp[lo][0], fmt_size(lo)),
                             "%.2f (%s)" % (sp[hi][0], fmt_size(hi)), "%s-%s" % (fmt_size(min(sp)), fmt_size(max(sp)))])
        if len(rows) > 1:
            tables.append(("testvisperf on one host, 8-byte elements: bandwidth(stage) / bandwidth(%s) over the sizes "
                           "both measured (above 1: the stage is faster; ~: some noisy medians; per size: the medians "
                           "of every test below)" % ref, rows))
    return tables


def text_table(heading, rows):
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["", heading] + ["  ".join(x.rjust(w) for x, w in zip(r, widths)) for r in rows]


def s003_text_tables(summary):
    """The derived tables as text (seed003.py prints them, and table.txt)."""
    out = []
    for heading, rows in s003_tables(summary):
        out += text_table(heading, rows)
    if not out:
        out = ["", "(no seed 003 results)"]
    return out


def s003_claims(summary):
    """[{claim, source, column, reference, measured, verdict, why}] for the
    seed 003 claims, a row per column each concerns (the real conduits,
    when they ran, beside the stages: what they do, for comparison)."""
    meta, results = summary["meta"], summary["results"]
    by = {(r["column"], r["test"], r["size"]): r for r in results}
    ran = {c for c, _ in s003_columns(meta)}
    s3 = meta.get("seed003", {})
    figs = s3.get("figs", [1, 2, 3])
    reals = [c for c in ("gasnet-ucx", "gasnet-mpi") if c in ran]
    failed = " ".join(f.splitlines()[0] for f in summary.get("failures", []))
    rows = []

    def absent(col, fig, test_hint):
        if fig not in figs:
            return "Fig. %d was not measured in this run (seed003.py --figs)" % fig
        if col not in ran:
            if col + "/" in failed:
                return "every run of the %s column failed (see the failed runs)" % col
            return "no %s column in this run (not built or not selected)" % col
        return "no %s result for %s (its runs failed: see the failed runs)" % (test_hint, col)

    for c in S003_CLAIMS:
        # every stage the claim concerns (one that did not run says why not), then the real conduits
        cols = list(c["columns"])
        cols += [] if c["id"] == "lc" or c["id"].startswith("vis") else reals
        if "always" in c:  # (the claim's other stages only when they ran)
            cols = [col for col in cols if col in c["always"] or col in ran]
        for col in cols:
            real = col.startswith("gasnet-")
            note = "; a real conduit, shown for comparison" if real else ""
            row = {"claim": c["claim"], "source": c["source"], "column": col}
            if c["id"] == "npam":
                row["reference"] = col + " FP"
                sp, noisy = s003_am(by, col)
                sp, noisy = sp.get("np", {}), noisy.get("np", {})
                sel = {n: v for n, v in sp.items() if n >= 512}
                if not sel:
                    row.update(measured="-", verdict="not measurable here", why=absent(col, 1, "testam") + note)
                else:
                    worst = min(sel.values())
                    ok = worst >= c["need"] * 0.995
                    row.update(measured=describe(sel, "s003-am-np").replace(
                        "sizes)", "sizes, 512 B to %s)" % size_text("s003-am-np", max(sel))),
                        verdict="holds" if ok else "does not hold",
                        why=("NP at least as fast as FP at every size from 512 B; " +
                             ("met" if ok else "the worst is %s at %s" % (speed_text(1 / worst), size_text(
                                 "s003-am-np", min(sel, key=sel.get))))) +
                        ("; some values are noisy (~)" if any(noisy.get(n) for n in sel) else "") + note)
            elif c["id"].startswith("vis"):
                row.update(s003_vis_claim(c, col, by, s3, absent))
            elif c["id"] in ("adlat", "adtput", "hot"):
                if real:
                    continue  # (a real conduit has one implementation: Table 1 shows it)
                row["reference"] = col + " (STAGEPORT_AD_IMPL=reference)"
                if c["id"] == "hot":
                    v = {n: x for n, x in s003_hot(by, col).items() if x[0] and x[1]}
                    ratios = {n: x[0] / x[1] for n, x in v.items()}
                    trend = lambda k: " -> ".join("%.2f" % v[n][k] for n in sorted(v))  # noqa: E731
                    meas = ("spec/ref %s at N = %s (Mops/s spec %s, ref %s)"
                            % (" ".join("%.2f" % ratios[n] for n in sorted(v)), ",".join(map(str, sorted(v))),
                               trend(0), trend(1))) if v else None
                else:
                    v = {b: x for b, x in s003_ad(by, col).items() if all(y is not None for y in x)}
                    ratios = {b: (x[1] / x[0] if c["id"] == "adlat" else x[2] / x[3]) for b, x in v.items()}
                    meas = ", ".join("U%d %.2fx" % (b, r) for b, r in sorted(ratios.items())) if v else None
                key = c["np"] if c["id"] == "hot" else 64  # (the ratio the verdict is on: N=16, U64)
                if key not in ratios:
                    why = absent(col, 4, "testfaddperf")
                    if c["id"] == "hot" and v:
                        why = "N=%d not measured in this run (--ad-np)" % key
                    row.update(measured=meas or "-", verdict="not measurable here", why=why)
                else:
                    ok = ratios[key] >= c["need"] * 0.995
                    row.update(measured=meas, verdict="holds" if ok else "does not hold",
                               why="needs %.1fx %s; %s" % (c["need"], "at N=%d" % key if c["id"] == "hot" else "for U64",
                                                          "met" if ok else "%.2fx" % ratios[key]) +
                               ("; " + S003_HOT_NOTE if c["id"] == "hot" else ""))
            elif c["id"] == "imm":
                row["reference"] = col + " static schedule"
                v = s003_imm(by, col, c["label"]).get(c["np"])
                if not v:
                    row.update(measured="-", verdict="not measurable here",
                               why=absent(col, 2, "testimm N=%d B=M" % c["np"]) + (
                                   "" if 4 in s3.get("imm_np", [4]) else "; N=4 not run (--imm-np)") + note)
                else:
                    ok = v[0] >= c["need"]
                    length = s003_msg_len(meta, col)
                    row.update(measured="%.1f %% less time (%.3f s -> %.3f s; runs from %.1f to %.1f %%, %d runs)"
                               % (v[0], v[3] / 1e6, v[4] / 1e6, v[1], v[2], v[5]),
                               verdict="holds" if ok else "does not hold",
                               why="needs at least %d %%; %s%s%s" % (
                                   c["need"], "met" if ok else "not met",
                                   "; Mediums of %s B" % length if length else "",
                                   (note + ("; a conduit that never refuses an IMMEDIATE injection gains nothing"
                                            if real else ""))))
            else:
                row["reference"] = col + " (STAGEPORT_LC=reference)"
                lc = s003_lc(by, col, True)
                sel = {n: v for n, v in lc.items() if c["lo"] <= n <= c["hi"] and v[2]}
                if not sel:
                    why = absent(col, 3, "testsmall across the emulated hosts")
                    emu = s3.get("emu", {})
                    if 3 in figs and not emu.get("ran", True):
                        why = "not run across emulated hosts: " + emu.get("why", "?")
                    row.update(measured="-", verdict="not measurable here", why=why)
                else:
                    worst = min(v[2] for v in sel.values())
                    best = max(sel.items(), key=lambda kv: kv[1][2])
                    ok = worst >= c["need"] * 0.995
                    row.update(measured=describe({n: v[2] for n, v in sel.items()}, "s003-lc-emu") +
                               "; best %+.0f %% bandwidth (%s)" % (100 * (best[1][2] - 1), size_text("s003-lc", best[0])),
                               verdict="holds" if ok else "does not hold",
                               why="needs at least the reference's bandwidth at every size from 8 to 64 KiB; " +
                               ("met" if ok else "the worst is %s at %s" % (speed_text(1 / worst), size_text(
                                   "s003-lc", min(sel, key=lambda n: sel[n][2])))) +
                               ("; some values are noisy (~)" if any(v[3] for v in sel.values()) else "") +
                               (S003_LC_OFFLOAD % col if col in ("portals", "firehose") and not ok else ""))
            rows.append(row)
    return rows


def s003_vis_claim(c, col, by, s3, absent):
    """The Fig. 5 / Fig. 6 / real-conduit VIS claims for one column: {reference,
    measured, verdict, why}.  Every rule: the median over the measured sizes
    of a bandwidth ratio (time(reference) / time(column)) at least c["need"]
    (0.5 % tolerance, as the other claims); seed 003 reports averages, the
    mean is shown beside it."""
    figs = s3.get("figs", [])
    tol = 0.995

    def verdict(med):
        return "holds" if med >= c["need"] * tol else "does not hold"

    if c["id"].startswith("visopt"):
        d = c["d"]
        test = "s003-vis-s%d-opt" % d
        out = {"reference": col + " (STAGEPORT_VIS_OPT=off)"}
        sp = s003_vis_ratio(by, col, test, col, "s003-vis-s%d-noopt" % d)
        if not sp:
            why = absent(col, 5, "testvisperf -sl %d" % d)
            if 5 in figs and d not in s3.get("vis_sl", [d]):
                why = "D=%d not measured in this run (--vis-sl)" % d
            return dict(out, measured="-", verdict="not measurable here", why=why)
        med = statistics.median(x[0] for x in sp.values())
        return dict(out, measured="time(off) / time(on): " + s003_vis_text(sp, test), verdict=verdict(med),
                    why="needs a median of at least %.1fx over the sizes; %s" % (
                        c["need"], "met" if verdict(med) == "holds" else "%.2fx" % med))
    if c["id"] == "visnp":
        out = {"reference": col + " FP-AM (STAGEPORT_NP=reference)"}
        sp, emu = s003_vis_am(by, col)
        if not sp:
            return dict(out, measured="-", verdict="not measurable here",
                        why=absent(col, 6, "testvisperf with STAGEPORT_VIS=ampipe"))
        med = statistics.median(x[0] for x in sp.values())
        e = s3.get("emu", {})
        where = "across two emulated hosts" if emu else "on one host only (not run across emulated hosts: %s)" % (
            e.get("why", "?"))
        return dict(out, measured="bandwidth(NP) / bandwidth(FP), %s: %s" % (
            "across hosts" if emu else "one host", s003_vis_text(sp, "s003-vis-npam")), verdict=verdict(med),
            why="needs a median of at least 1.00 over the sizes; %s; measured %s" % (
                "met" if verdict(med) == "holds" else "%.3f" % med, where))
    # visreal-*: against the real ucx-conduit
    ref = "gasnet-ucx"
    out = {"reference": ref}
    if c["test"] == "strided":
        tests = [(d, "s003-vis-s%d-opt" % d) for d in s3.get("vis_sl", [])]
    else:
        tests = [(None, c["test"])]
    per = [(d, t, s003_vis_ratio(by, col, t, ref, t)) for d, t in tests]
    per = [(d, t, sp) for d, t, sp in per if sp]
    if not per:
        if 5 in figs and not any(k[0] == ref for k in by):
            why = absent(ref, 5, "testvisperf")
            return dict(out, measured="not measured", verdict="not measurable here",
                        why="the real GASNet-EX ucx-conduit was not measured in this run: %s (seed003.py --gasnet "
                            "PREFIX)" % why)
        return dict(out, measured="-", verdict="not measurable here", why=absent(col, 5, "testvisperf"))
    meds = [(d, statistics.median(x[0] for x in sp.values())) for d, _, sp in per]
    worst = min(m for _, m in meds)
    measured = "; ".join(("D=%d: " % d if d else "") + s003_vis_text(sp, t) for d, t, sp in per)
    missing = [d for d, t in tests if d and d not in [p[0] for p in per]]
    return dict(out, measured="bandwidth(%s) / bandwidth(%s): %s" % (col, ref, measured), verdict=verdict(worst),
                why="needs a median of at least 1.00 over the sizes%s; %s%s" % (
                    " at every D" if c["test"] == "strided" else "",
                    "met" if verdict(worst) == "holds" else "the lowest median is %.3f" % worst,
                    "; D=%s not measured" % ",".join(map(str, missing)) if missing else ""))


def s003_msg_len(meta, col):
    """testimm's Medium length for a column (from the headers it printed)."""
    for name, heads in meta.get("headers", {}).items():
        if name.startswith(col + "/imm-"):
            for h in heads:
                m = re.search(r"each of length (\d+)", h)
                if m:
                    return m.group(1)
    return None


def plot_panels(outdir, fid, title, panels, size=(1000, 720)):
    """A figure of one or more panels side by side: plots/FID.{dat,gp,png,svg}.
    A panel: {title, xlabel, ylabel, logx (base or 0), logy, xtics [(label,
    x)] or None, hlines [y], series [(name, colour column, dash type, [(x, y,
    ylo, yhi)])], missing (text when no series)}.  Returns None or what went
    wrong."""
    def q(text):  # quoted, with enhanced text's _ (subscript) kept as an underscore
        return gp_quote(text.replace("_", "\\_"))

    pdir = os.path.join(outdir, "plots")
    os.makedirs(pdir, exist_ok=True)
    base = os.path.join(pdir, fid)
    lines = ["# %s: x y ymin ymax per series, blocks in order" % title]
    for p in panels:
        for s in p["series"]:
            lines.append("# %s / %s" % (p["title"], s[0]))
            lines += ["%.6g %.6g %.6g %.6g" % q for q in s[3]]
            lines += ["", ""]
    with open(base + ".dat", "w") as f:
        f.write("\n".join(lines) + "\n")

    def body():
        out = []
        if len(panels) > 1:
            out.append("set multiplot layout 1,%d title %s" % (len(panels), q(title)))
        i = 0
        for p in panels:
            # (autoscale fix: a log axis would otherwise grow to whole decades)
            out += ["unset logscale", "unset label", "unset arrow", "unset xrange", "unset yrange",
                    "set autoscale fix", "set xtics autofreq", "set ytics autofreq", "set mxtics default", "set grid",
                    "set title %s" % q(p["title"] if len(panels) > 1 else title),
                    "set xlabel %s" % q(p["xlabel"]), "set ylabel %s" % q(p["ylabel"]),
                    "set key below left Left reverse width 1 font ',9' maxrows 8"]
            if not p["series"]:
                out += ["unset key", "set xrange [0:1]", "set yrange [0:1]", "unset xtics", "unset ytics",
                        "set label 1 %s at 0.5,0.5 center" % q("no data: " + p.get("missing", "")),
                        "plot -1 notitle"]
                continue
            if p.get("logx"):
                out.append("set logscale x %d" % p["logx"])
            if p.get("logy"):
                out.append("set logscale y")
            if p.get("ytics"):
                out.append("set ytics (%s)" % ", ".join("%g" % y for y in p["ytics"]))
            if p.get("xtics"):
                out += ["set xtics (%s)" % ", ".join('"%s" %g' % t for t in p["xtics"]), "set xtics rotate by -45",
                        "set mxtics 1"]
            out += ["set bars small", "set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05"]
            plots = []
            for s in p["series"]:
                name, colcol, dt, pts = s[:4]
                k = colour_index(colcol)
                plots.append("%s index %d using 1:2:3:4 with yerrorlines lw %s dt %d lc rgb '%s' pt %d ps 0.7 "
                             "title %s" % (gp_quote(base + ".dat"), i, "2" if dt == 1 else "1.5", dt,
                                           PALETTE[k % len(PALETTE)], 1 + k % 13, q(name)))
                i += 1
            for y in p.get("hlines", []):
                plots.append("%g with lines lw 1 dt 4 lc rgb '#555555' notitle" % y)
            out.append("plot " + ", \\\n     ".join(plots))
        if len(panels) > 1:
            out.append("unset multiplot")
        return out

    w, h = size
    gp = ["set encoding utf8"]
    gp += ["set terminal pngcairo size %d,%d font 'DejaVu Sans,11'" % (w, h), "set output %s" % gp_quote(base + ".png")]
    gp += body()
    gp += ["set terminal svg size %d,%d dynamic font 'DejaVu Sans,11'" % (w, h), "set output %s" % gp_quote(base + ".svg")]
    gp += body() + ["unset output"]
    return run_gnuplot(base, gp)


def s003_figures(outdir, summary):
    """The three plots; returns [(fid, title, what it shows or None, error or None)]."""
    meta, results = summary["meta"], summary["results"]
    by = {(r["column"], r["test"], r["size"]): r for r in results}
    cols = [c for c, _ in s003_columns(meta)]
    s3 = meta.get("seed003", {})
    figs = s3.get("figs", [1, 2, 3])
    out = []

    def why_none(fig, what):
        return ("Fig. %d was not measured in this run (--figs)" % fig if fig not in figs
                else "no column measured %s (failed runs?)" % what)

    # Fig. 1: NP / FP on a categorical size axis (0 B and a non-power-of-two maximum included); the
    # specialized NP (and the real conduits' own) on the left, the reference on the right
    sizes = set()
    for c in cols:
        sp, _ = s003_am(by, c)
        for var in sp:
            sizes |= set(sp[var])
    xs = {n: i for i, n in enumerate(sorted(sizes))}
    panels = []
    for var, what in (("np", "specialized NP (STAGEPORT_NP=native; a real conduit: its own)"),
                      ("npref", "reference NP (STAGEPORT_NP=reference)")):
        ser = []
        for c in cols:
            sp, _ = s003_am(by, c)
            if var not in sp:
                continue
            pts = []
            for n, v in sorted(sp[var].items()):
                fp, r = by[(c, "s003-am-fp", n)], by[(c, "s003-am-" + var, n)]
                # the bar: the range of the repetitions' own ratios (FP and NP of one repetition ran
                # one after the other)
                per = ([f / x for f, x in zip(fp["usec"], r["usec"]) if x > 0] if len(fp["usec"]) == len(r["usec"])
                       else [fp["min_usec"] / r["max_usec"], fp["max_usec"] / r["min_usec"]])
                pts.append((xs[n], v, min(per + [v]), max(per + [v])))
            ser.append([c if c.startswith("gasnet-") or var == "npref" else c, c, 1, pts])
        panels.append({"title": what, "xlabel": "payload (bytes); request and reply carry it",
                       "ylabel": "time(FP) / time(NP): above 1, NP-AM is faster", "logy": 1,
                       "ytics": [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 0.8, 1, 1.25, 2, 5, 10, 20, 50, 100],
                       "xtics": [(fmt_size(n), i) for n, i in xs.items()], "hlines": [1], "series": ser,
                       "missing": why_none(1, "testam") if var == "np" or 1 not in figs else
                       "no stage ran the reference NP"})
    fid, title = S003_FIGURES[0]
    names = ["%s %s" % (sr[0], "NP" if p is panels[0] else "NP-ref") for p in panels for sr in p["series"]]
    out.append((fid, title, ", ".join(names) or None, plot_panels(outdir, fid, title, panels, size=(1500, 760)),
                None if names else panels[0]["missing"]))

    # Fig. 2: one panel per block size, reduction against N
    labels = s003_labels(meta)
    panels = []
    for lab in labels:
        ser = []
        for c in cols:
            v = s003_imm(by, c, lab)
            if v:
                ser.append([c, c, 1, [(n, x[0], x[1], x[2]) for n, x in sorted(v.items())]])
        spec = next((b["spec"] for b in s3.get("imm_blocks", []) if b["label"] == lab), "")
        panels.append({"title": BLOCK_NAME.get(lab, "Blocksize=%s" % spec), "xlabel": "processes N (1 sender)",
                       "ylabel": "reduction of the time, % (100 (Tstatic - Tdynamic) / Tstatic)",
                       "hlines": [0], "series": ser, "missing": why_none(2, "testimm"),
                       "xtics": [(str(n), n) for n in s3.get("imm_np", [])]})
    fid, title = S003_FIGURES[1]
    names = sorted({s[0] for p in panels for s in p["series"]})
    if not panels:
        panels = [{"title": "", "xlabel": "", "ylabel": "", "series": [], "missing": why_none(2, "testimm")}]
    out.append((fid, title, ", ".join(names) or None,
                plot_panels(outdir, fid, title, panels, size=(560 * len(panels), 720)),
                None if names else panels[0]["missing"]))

    # Fig. 3: bandwidth, one host | across emulated hosts
    panels = []
    for emu in (False, True):
        ser = []
        for c in cols:
            for test, dt, what in (("s003-lc", 1, "specialized"), ("s003-lcref", 2, "reference")):
                test += "-emu" if emu else ""
                pts = []
                for (cc, t, n), r in sorted(by.items()):
                    if cc == c and t == test and r["median_usec"] > 0 and r["min_usec"] > 0:
                        mb = lambda u: n / u * 1e6 / 2**20  # noqa: E731
                        pts.append((n, mb(r["median_usec"]), mb(r["max_usec"]), mb(r["min_usec"])))
                if pts:
                    ser.append([c if c.startswith("gasnet-") else "%s %s" % (c, what), c, dt, pts])
        xs = sorted({q[0] for s in ser for q in s[3]})
        emu_note = s3.get("emu", {})
        missing = why_none(3, "testsmall")
        if emu and 3 in figs and not emu_note.get("ran", True):
            missing = "not run across emulated hosts: " + emu_note.get("why", "?")
        panels.append({"title": "across two emulated hosts (TCP)" if emu else "one host",
                       "xlabel": "payload per put (bytes)", "ylabel": "MB/s, MB = 2{^20} (higher is better)",
                       "logx": 2, "logy": 1, "xtics": [(fmt_size(x), x) for x in xs], "series": ser,
                       "missing": missing})
    fid, title = S003_FIGURES[2]
    names = sorted({s[0] for p in panels for s in p["series"]})
    out.append((fid, title, ", ".join(names) or None, plot_panels(outdir, fid, title, panels, size=(1400, 760)),
                None if names else panels[0]["missing"]))

    # Fig. 4: aggregate throughput against N, specialized solid, reference dashed
    ser = []
    for c in cols:
        v = s003_hot(by, c)
        for k, dt, what in ((0, 1, "specialized"), (1, 2, "reference")):
            pts = [(n, x[k], x[k + 2][0], x[k + 2][1]) for n, x in sorted(v.items()) if x[k]]
            if pts:
                ser.append([c if c.startswith("gasnet-") else "%s %s" % (c, what), c, dt, pts])
    fid, title = S003_FIGURES[3]
    panel = {"title": title, "xlabel": "processes N (every one FADDs rank 0's counter)",
             "ylabel": "aggregate Mops/s (higher is better)", "logx": 2, "series": ser,
             "xtics": [(str(n), n) for n in s3.get("ad_np", [])], "missing": why_none(4, "testfaddperf -S")}
    names = sorted({s[0] for s in ser})
    out.append((fid, title, ", ".join(names) or None, plot_panels(outdir, fid, title, [panel], size=(1000, 720)),
                None if names else panel["missing"]))

    # Fig. 5: a panel per D, bandwidth against size, optimizer on solid, off dashed (a real conduit: its own)
    vis_sl = s3.get("vis_sl") or [3, 8, 32]
    dens = "%d %% density" % (100 // max(1, s3.get("vis_density_steps", 2)))
    xs = sorted({n for (c, t, n) in by if t.startswith("s003-vis-")})
    xtics = [(fmt_size(x), x) for x in xs]
    bw_axes = {"xlabel": "payload per operation (bytes)", "ylabel": "MB/s, MB = 2{^20} (higher is better)",
               "logx": 2, "logy": 1, "xtics": xtics}
    panels, sp_panels = [], []
    for d in vis_sl:
        ser, sps = [], []
        for c in cols:
            for opt, dt in (("opt", 1), ("noopt", 2)):
                pts = s003_bw_points(by, c, "s003-vis-s%d-%s" % (d, opt))
                if pts:
                    ser.append([c if c.startswith("gasnet-") else "%s %s" % (c, "on" if opt == "opt" else "off"),
                                c, dt, pts])
            pts = s003_ratio_points(by, c, "s003-vis-s%d-opt" % d, c, "s003-vis-s%d-noopt" % d)
            if pts:
                sps.append([c, c, 1, pts])
        missing = why_none(5, "testvisperf")
        panels.append(dict(bw_axes, title="D=%d, 8-byte elements, %s" % (d, dens), series=ser, missing=missing))
        sp_panels.append({"title": "D=%d" % d, "xlabel": "payload per operation (bytes)",
                          "ylabel": "time(optimizer off) / time(on): above 1, the optimizer is faster",
                          "logx": 2, "logy": 1, "xtics": xtics, "series": sps, "missing": missing,
                          "ytics": [0.1, 0.2, 0.5, 0.8, 1, 1.25, 2, 4, 8, 16, 32, 64, 128],
                          "hlines": [1] + [need for dd, need in ((8, 2.0), (32, 4.0)) if dd == d]})
    for (fid, title), pl in ((S003_FIGURES[4], panels), (S003_FIGURES[5], sp_panels)):
        names = sorted({s[0] for p in pl for s in p["series"]})
        out.append((fid, title, ", ".join(names) or None,
                    plot_panels(outdir, fid, title, pl, size=(520 * len(pl), 760)),
                    None if names else pl[0]["missing"]))

    # Fig. 6: bandwidth (NP solid, FP dashed; a real conduit: its own) | NP / FP
    emu_note = s3.get("emu", {})
    emu = any(t.endswith("-emu") and t.startswith("s003-vis-") for (c, t, n) in by)
    sfx = "-emu" if emu else ""
    where = "across two emulated hosts (TCP)" if emu else "one host"
    missing = why_none(6, "testvisperf with STAGEPORT_VIS=ampipe")
    if 6 in figs and not emu_note.get("ran", True):
        where += " (not run across emulated hosts: %s)" % emu_note.get("why", "?")
    ser, sps = [], []
    for c in cols:
        for test, dt, what in (("s003-vis-npam", 1, "NP-AM"), ("s003-vis-fpam", 2, "FP-AM")):
            pts = s003_bw_points(by, c, test + sfx)
            if pts:
                ser.append([c if c.startswith("gasnet-") else "%s %s" % (c, what), c, dt, pts])
        pts = s003_ratio_points(by, c, "s003-vis-npam" + sfx, c, "s003-vis-fpam" + sfx)
        if pts:
            sps.append([c, c, 1, pts])
    fid, title = S003_FIGURES[6]
    pl = [dict(bw_axes, title="bandwidth, 3-d strided put of 64-byte elements, " + where, series=ser,
               missing=missing),
          {"title": "bandwidth(NP-AM) / bandwidth(FP-AM): above 1, NP-AM is faster", "xlabel": bw_axes["xlabel"],
           "ylabel": "NP / FP", "logx": 2, "logy": 1, "xtics": xtics, "series": sps, "missing": missing,
           "ytics": [0.1, 0.2, 0.5, 0.8, 0.9, 1, 1.1, 1.25, 2, 5, 10], "hlines": [1]}]
    names = sorted({s[0] for s in ser})
    out.append((fid, title + ", " + where, ", ".join(names) or None,
                plot_panels(outdir, fid, title + ", " + where, pl, size=(1400, 760)),
                None if names else missing))

    # vector, indexed and strided (the smallest D, optimizer on) put bandwidth of every column
    d0 = min(vis_sl)
    pl = []
    for test, what in (("s003-vis-vput", "vector put (A)"), ("s003-vis-iput", "indexed put (C)"),
                       ("s003-vis-s%d-opt" % d0, "strided put, D=%d, optimizer on (E)" % d0)):
        ser = [[c, c, 1, s003_bw_points(by, c, test)] for c in cols if s003_bw_points(by, c, test)]
        pl.append(dict(bw_axes, title=what + ", 8-byte elements, " + dens, series=ser,
                       missing=why_none(5, "testvisperf")))
    fid, title = S003_FIGURES[7]
    names = sorted({s[0] for p in pl for s in p["series"]})
    out.append((fid, title, ", ".join(names) or None, plot_panels(outdir, fid, title, pl, size=(1560, 760)),
                None if names else pl[0]["missing"]))
    return out


def write_seed003(outdir, summary):
    """The report of a bench/seed003.py run: plots, tables, claims, report.md,
    report.html, claims.csv; returns the text to print (the claims)."""
    meta, results = summary["meta"], summary["results"]
    s3 = meta.get("seed003", {})
    for t, v in s3.get("titles", {}).items():  # (a block size compare.TESTS does not know yet)
        TESTS.setdefault(t, tuple(v))
        if t.startswith("s003-imm-"):
            SIZE_HEADING[t] = "N"
    columns = s003_columns(meta)
    figs = s003_figures(outdir, summary)
    problems = ["%s: %s" % (f[0], f[3]) for f in figs if f[3]]
    claims = s003_claims(summary)
    with open(os.path.join(outdir, "claims.csv"), "w", newline="") as f:
        csv.writer(f).writerows(claims_rows(claims))
    counts = {}
    for c in claims:
        counts[c["verdict"]] = counts.get(c["verdict"], 0) + 1
    verdicts = ", ".join("%d %s" % (n, v) for v, n in sorted(counts.items()))
    derived = s003_tables(summary)
    raw_tables = [t for t in (test_table(results, columns, None, test) for test in meta.get("tests", [])) if t]
    emu = s3.get("emu", {})
    intro = ("Seed 003's Figures 1-6 and Table 1 measured with GASNet-EX 2025.8.0's own test programs (testam, "
             "testimm, testsmall, testfaddperf, testvisperf; %s), unmodified, built through each installed conduit "
             "fragment and launched with its gasnetrun.  Columns: %s.  Every column and variant ran once per "
             "repetition, alternating, %d repetitions; values are medians over the repetitions.  Figs. 3 and 6 "
             "across emulated hosts: %s."
             % (s3.get("gex_tests", "?"), ", ".join(c for c, _ in columns) or "none",
                meta.get("reps", 0), "yes (scripts/emuhosts.sh, 2 hosts, TCP)" if emu.get("ran") else
                "no (%s)" % emu.get("why", "?")))
    vis_args = s3.get("vis_args", {})
    method = [
        "Fig. 1: `testam [-fp|-np-gb] -src-generate %s %s B` on 2 processes (testam clamps the size to the "
        "column's Medium maximum); stages: -np-gb with STAGEPORT_NP=native and =reference." % (
            s3.get("am_iters"), s3.get("am_max")),
        "Fig. 2: `testimm -m%s -b B M` on N = %s processes, M = %s / (N-1), B in %s." % (
            " -poll-" + s3["imm_poll"] if s3.get("imm_poll") else "", ", ".join(map(str, s3.get("imm_np", []))),
            s3.get("imm_total"), ", ".join(b["spec"] for b in s3.get("imm_blocks", []))),
        "Fig. 3: `testsmall -m -p -out -minsz LO ITERS HI F` on 2 processes, runs (LO, HI, ITERS): %s; stages "
        "with STAGEPORT_LC=native and =reference." % ", ".join("(%s, %s, %d)" % (fmt_size(lo), fmt_size(hi), it)
                                                                  for lo, hi, it in s3.get("lc_bands", [])),
        "Table 1: `testfaddperf %s ABEF` on 2 processes (U32 and U64 FADD: blocking round trip, NBI flood); "
        "Fig. 4: `testfaddperf -S %s F` on N = %s processes (U64 FADD into rank 0's counter, the sum of the "
        "senders' throughputs); stages with STAGEPORT_AD_IMPL unset and =reference." % (
            s3.get("ad_iters"), s3.get("ad_iters"), ", ".join(map(str, s3.get("ad_np", [])))),
        "Fig. 5: `testvisperf %s` on 2 processes, one host, D = %s (the last density column kept: 100/%s %%; "
        "iterations sized by testvisperf, about %s s per value); stages with STAGEPORT_VIS_OPT=on and =off "
        "(STAGEPORT_VIS=auto), a real conduit once.  Vector and indexed put: `testvisperf %s`, every column "
        "with its defaults." % (vis_args.get("5", "?"), ", ".join(map(str, s3.get("vis_sl", []))),
                                s3.get("vis_density_steps"), s3.get("vis_time"), vis_args.get("vi", "?")),
        "Fig. 6: `testvisperf %s` on 2 processes, %s; STAGEPORT_VIS=ampipe with STAGEPORT_NP=native (NP-AM) and "
        "=reference (FP-AM) on the stages whose Core lends its send memory (%s); a real conduit once (its own "
        "mechanism, shown as NP)." % (vis_args.get("6", "?"), "across two emulated hosts" if emu.get("ran") else
                                      "one host", ", ".join(s3.get("vis_native_np", []))),
        "Real GASNet-EX (%s): the same programs through its <conduit>-seq.mak, GASNET_SUPERNODE_MAXSIZE=1 "
        "GASNET_HOST_DETECT=hostname, ucx-conduit with -spawner=mpi." % (s3.get("gasnet") or "not run"),
    ]
    method = [m for m in method if not (m.startswith("Fig. 5") and 5 not in s3.get("figs", [])) and
              not (m.startswith("Fig. 6") and 6 not in s3.get("figs", []))]
    lens = sorted({(c, s003_msg_len(meta, c)) for c, _ in columns if s003_msg_len(meta, c)})
    if lens:
        method.append("testimm's Medium length per column (its LUB Medium; the paper's Aries: 4032 B): " +
                      ", ".join("%s %s B" % kv for kv in lens))
    run_line = "- run: %s; %d repetitions alternating the columns; %s s" % (
        " ".join(meta.get("argv", [])), meta.get("reps", 0), meta.get("seconds", "?"))

    md = ["# stageport: seed 003 Figures 1-6 and Table 1 (GASNet-EX's test programs)", "", intro, ""]
    md += ["## Claims", "", "%s.  A claim is checked against this run's medians at every size it names; "
           "'holds' means at every one of them." % verdicts, ""] + md_table(claims_rows(claims))
    md += ["", "## Plots", ""]
    for fid, title, shows, err, missing in figs:
        md.append("- **%s** (`plots/%s.png`, `.svg`): %s" % (title, fid, shows or "no data: %s" % missing) +
                  (" -- " + err if err else ""))
        if not err:
            md.append("  ![%s](plots/%s.png)" % (title, fid))
    md += ["", "## Tables", ""]
    for heading, rows in derived:
        md += ["### " + heading, ""] + md_table(rows) + [""]
    md += ["## Medians of every test", "", "- " + table_notes(None)[0], ""]
    for heading, table in raw_tables:
        md += ["### " + heading, ""] + md_table(table) + [""]
    md += ["## Methodology", ""] + ["- " + m for m in method]
    if summary.get("failures"):
        md += ["", "## Failed builds and runs", ""] + ["- " + f.splitlines()[0] for f in summary["failures"]]
    md += ["", "## Machine and settings", ""] + machine_lines(meta, run_line)
    with open(os.path.join(outdir, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")

    h = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
         "<title>stageport: seed 003 Figures 1-6 and Table 1</title>", "<style>", CSS, "</style></head><body>",
         "<h1>stageport: seed 003 Figures 1-6 and Table 1 (GASNet-EX's test programs)</h1>", "<p>%s</p>" % html.escape(intro),
         "<h2>Claims</h2>", "<p>%s.  A claim is checked against this run's medians at every size it names; "
         "<em>holds</em> means at every one of them.</p>" % html.escape(verdicts)]
    h += html_table(claims_rows(claims), "claims", span=2)
    h += ["<h2>Plots</h2>"]
    for fid, title, shows, err, missing in figs:
        h.append("<figure><figcaption>%s</figcaption>" % html.escape(title))
        svg = os.path.join(outdir, "plots", fid + ".svg")
        if not err and os.path.exists(svg):
            with open(svg) as f:
                h.append(re.sub(r"^<\?xml[^>]*>\s*(<!DOCTYPE[^>]*>\s*)?", "", f.read()))
        else:
            h.append("<p class=\"na\">%s</p>" % html.escape(err or missing or ""))
        h.append("</figure>")
    h += ["<h2>Tables</h2>"]
    for heading, rows in derived:
        h += ["<h3>%s</h3>" % html.escape(heading)] + html_table(rows, "data")
    h += ["<h2>Medians of every test</h2>", "<p>%s</p>" % html.escape(table_notes(None)[0])]
    for heading, table in raw_tables:
        h += ["<h3>%s</h3>" % html.escape(heading)] + html_table(table, "data")
    h += ["<h2>Methodology</h2><ul>"] + ["<li>%s</li>" % html.escape(m) for m in method] + ["</ul>"]
    if summary.get("failures"):
        h += ["<h2>Failed builds and runs</h2><ul>"] + ["<li>%s</li>" % html.escape(f.splitlines()[0])
                                                       for f in summary["failures"]] + ["</ul>"]
    h += ["<h2>Machine and settings</h2><ul>"] + ["<li>%s</li>" % html.escape(l[2:])
                                                  for l in machine_lines(meta, run_line)]
    h += ["</ul></body></html>"]
    with open(os.path.join(outdir, "report.html"), "w") as f:
        f.write("\n".join(h) + "\n")

    out = claims_lines("seed 003", claims, verdicts, outdir)
    out.append("plots: %d figures in %s/plots (PNG and SVG)%s" % (
        len(figs) - len(problems), outdir, "; " + "; ".join(problems) if problems else ""))
    return "\n".join(out) + "\n"


CSS = """body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:90%}
th,td{border:1px solid #ccc;padding:.2em .5em;text-align:right;vertical-align:top}
th{background:#eee} table.claims td, table.claims th{text-align:left}
td.faster{color:#060} td.slower{color:#a00}
td.holds{background:#dfd} td.nothold{background:#fdd} td.na{background:#eee;color:#555}
figure{margin:1em 0} figcaption{font-weight:bold} figure svg{max-width:100%;height:auto}
p.na{color:#555;font-style:italic}"""


def main(argv):
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    path = os.path.join(argv[0], "summary.json")
    try:
        with open(path) as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        print("report.py: cannot read %s: %s" % (path, e), file=sys.stderr)
        return 2
    print(write(os.path.abspath(argv[0]), summary), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
