#!/usr/bin/env bash
# report_e2e.sh -- the comparison report end to end on a tiny configuration:
# bench/compare.py (two stages, the default AM Long variant, the MPI and
# ptl baselines, a few tests at few sizes, one repetition) and the report it
# makes (bench/report.py).  Checks that every table and every figure file
# (PNG and SVG, one per seed figure, also for tests this run left out: they
# must say "no data") is produced and non-empty, that the HTML inlines every
# plot, that the claims section has a verdict per row and that the progress
# line was printed.  Last line: "report: ok ..." (or the first problem).
#   TOP_SRCDIR TOP_BUILDDIR OUT [MPIRUN] (environment)
set -uo pipefail
top=${TOP_SRCDIR:?} build=${TOP_BUILDDIR:?} out=${OUT:?}
rm -rf "$out"
python3 "$top/bench/compare.py" --builddir "$build/bench" --mpirun "${MPIRUN:-mpirun}" --out "$out" \
  --stages mpi,portals --tests putlat,ammedium,oosputbw,amlong,aminject,ptl-putlat,ptl-melist \
  --iters 50 --reps 1 --max 4K --step 8 --inject-depth 8 --retries 0 --timeout 40 >"$out.stdout" 2>&1
rc=$?
cat "$out.stdout"
[ "$rc" = 0 ] || { echo "report: compare.py exit status $rc"; exit 1; }
python3 - "$top/bench" "$out" "$out.stdout" <<'PY'
import csv, os, re, sys
sys.path.insert(0, sys.argv[1])
import report
out, stdout = sys.argv[2], open(sys.argv[3]).read()
bad = []
files = ["table.txt", "raw.csv", "summary.json", "report.md", "report.html", "claims.csv", "log.txt"]
files += ["plots/%s.%s" % (f[0], e) for f in report.FIGURES for e in ("png", "svg", "gp", "dat")]
for f in files:
    p = os.path.join(out, f)
    if not os.path.exists(p) or os.path.getsize(p) == 0:
        bad.append("%s missing or empty" % f)
for f in report.FIGURES:
    png = os.path.join(out, "plots", f[0] + ".png")
    if os.path.exists(png) and open(png, "rb").read(8) != b"\x89PNG\r\n\x1a\n":
        bad.append("%s is not a PNG" % png)
html = open(os.path.join(out, "report.html")).read()
if html.count("<svg") != len(report.FIGURES):
    bad.append("report.html inlines %d plots, not %d" % (html.count("<svg"), len(report.FIGURES)))
md = open(os.path.join(out, "report.md")).read()
for sec in ("## Claims", "## Tables", "## MPI messages per operation", "## PAPI", "## Plots", "## Machine"):
    if sec not in md:
        bad.append("report.md has no '%s'" % sec)
# the tests left out (putbw, amlongbw, ...) must say so in their figure
for f in report.FIGURES:
    gp = open(os.path.join(out, "plots", f[0] + ".gp")).read()
    ran = f[2] in ("putlat", "ammedium", "oosputbw", "amlong", "aminject", "ptl-putlat", "ptl-melist")
    if ran == ("no data" in gp):
        bad.append("%s: %s" % (f[0], "has no data" if ran else "does not say 'no data'"))
rows = list(csv.DictReader(open(os.path.join(out, "claims.csv"))))
verdicts = {"holds", "does not hold", "not measurable here"}
if not rows or any(r["verdict"] not in verdicts for r in rows):
    bad.append("claims.csv: no rows or a row without a verdict")
if not any(r["column"] == "portals" and r["against"] == "portals-pss" and r["measured"] != "-" for r in rows):
    bad.append("claims: the AM Long protocols (portals vs portals-pss) were not measured")
for want in (r"\[ *1/\d+ ", r"~\d+:\d\d left", r"^Claims of the seed papers", r"^(PAPI|plots): "):
    if not re.search(want, stdout, re.M):
        bad.append("stdout lacks %r" % want)
for t in ("putlat", "ptl-melist"):
    if not re.search(r"^%s: " % re.escape(t), open(os.path.join(out, "table.txt")).read(), re.M):
        bad.append("table.txt has no %s table" % t)
print("report: " + ("ok: %d files, %d figures, %d claims" % (len(files), len(report.FIGURES), len(rows))
                    if not bad else "FAILED: " + "; ".join(bad)))
sys.exit(1 if bad else 0)
PY
