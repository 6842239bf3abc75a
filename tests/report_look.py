#!/usr/bin/env python3
"""report_look.py - the report's plots as a reader sees them (issue 42): every plot of
results/REPORT.md is drawn again from the committed tables (scripts/reportlib) and fails
when a panel is empty, has a single point, a line of one point, more series than
colours or two series of one colour, or a heat map fewer than two cells
(reportlib.draw.look); every committed PNG is a PNG of a plausible size whose pixels are
not all one colour; and the plots of the --quick tables in tests/golden/ (another
directory, as `scripts/report --in` reads it) are drawn without error. Runs with the
first python3 that imports matplotlib (Debian's python3-matplotlib)."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

try:
    import matplotlib  # noqa: F401
except ImportError:  # pyenv's python3, say: rerun with Debian's
    if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3"):
        sys.exit(subprocess.call(["/usr/bin/python3", __file__] + sys.argv[1:]))
    print("report_look.py: no python3 with matplotlib (Debian: python3-matplotlib)")
    sys.exit(1)

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import matplotlib.image  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
from reportlib import __main__ as report, draw  # noqa: E402

passed = failed = 0


def check(ok, msg):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + msg)


def plots(indir):
    tables = report.load(indir)
    ctx = {}
    for t in tables:
        ctx.setdefault(t.experiment, []).append(t)
    seen, out = set(), []
    for t in tables:
        for p in report.plots_of(t, ctx):
            if p.stem not in seen:
                seen.add(p.stem)
                out.append(p)
    return tables, out


# The checks themselves: each fault they name is found.
for name, make, want in [
    ("one point", lambda ax: draw.series(ax, "a", draw.colour_map(["a"])["a"], [1], [1]), "1 point"),
    ("no series", lambda ax: draw.reference(ax, 1.0), "no panel with data"),
    ("too many series", lambda ax: [draw.series(ax, str(i), (draw.COLOURS[0], "o"), [1, 2], [i, i + 1])
                                    for i in range(len(draw.COLOURS) + 1)], "more than"),
]:
    fig, axes = draw.figure()
    make(axes[0][0])
    check(any(want in p for p in draw.look(fig)), f"look() misses a figure with {name}")
    plt.close(fig)

tables, committed = plots(os.path.join(ROOT, "results"))
ctx = {}
for t in tables:
    ctx.setdefault(t.experiment, []).append(t)
for t in tables:
    check(len(report.plots_of(t, ctx)) > 0, f"results/{t.name}.csv has no plot")
for p in committed:
    fig = p.figure()
    for problem in draw.look(fig):
        check(False, f"plots/{p.stem}.png: {problem}")
    check(True, "")
    plt.close(fig)
    path = os.path.join(ROOT, "results", "plots", p.stem + ".png")
    if not os.path.exists(path):
        check(False, f"results/plots/{p.stem}.png is missing (run scripts/report)")
        continue
    img = matplotlib.image.imread(path)
    h, w = img.shape[:2]
    check(300 <= w <= 2500 and 200 <= h <= 2500, f"results/plots/{p.stem}.png is {w}×{h} pixels")
    check(img.min() < img.max(), f"results/plots/{p.stem}.png is one colour")

# The --quick tables: another directory, tables without metadata, few points.
_, quick = plots(os.path.join(ROOT, "tests", "golden"))
for p in quick:
    try:
        plt.close(p.figure())
        check(True, "")
    except Exception as e:  # a plot that cannot be drawn at all
        check(False, f"tests/golden: {p.stem}: {type(e).__name__}: {e}")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
