"""What every plot of the report shares (matplotlib): the style, the colours, a series
with its 95% intervals, reference lines, legends outside the data, and the checks of
tests/report_look.py. A plot is a Plot: the file it is saved as, its alt text, and a
function that draws its matplotlib Figure (called only when the plot is saved or
checked)."""
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

# matplotlib's tab10 without its grey (the reference lines are black and grey): nine
# colours a reader tells apart; a panel draws at most MAX_SERIES series, more go to
# further panels (small multiples).
COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#17becf", "#bcbd22"]
MARKERS = ["o", "s", "^", "v", "D", "<", ">", "P", "X"]
MAX_SERIES = 8
REFERENCE = "reference"  # the gid of a reference line: not a series
SERIES = "series"  # the gid of a series's line (tests/report_look.py counts them)

STYLE = {
    "font.family": "DejaVu Sans", "font.size": 9.5, "axes.titlesize": 10.5,
    "axes.labelsize": 9.5, "legend.fontsize": 8.5, "xtick.labelsize": 8.5,
    "ytick.labelsize": 8.5, "axes.grid": True, "grid.color": "#dddddd", "grid.linewidth": 0.6,
    "axes.axisbelow": True, "lines.linewidth": 1.3, "lines.markersize": 4.5,
    "errorbar.capsize": 2.5, "figure.dpi": 100, "savefig.dpi": 100,
    "svg.hashsalt": "bloomsim", "svg.fonttype": "none", "path.simplify": False,
    "axes.formatter.useoffset": False,
}
plt.rcParams.update(STYLE)


class Plot:
    """stem: the file name without extension, under plots/; alt: the image's alt text;
    draw: a function returning the matplotlib Figure, which figure() tidies."""

    def __init__(self, stem, alt, draw):
        self.stem, self.alt, self.draw = stem, alt, draw

    def figure(self):
        fig = self.draw()
        for ax in fig.axes:
            if ax.get_label() != "<colorbar>":
                tidy_log(ax)
        return fig


def figure(rows=1, cols=1, width=9.0, height=3.4, **kw):
    """A figure of rows × cols panels (height per row), laid out so that nothing
    overlaps (constrained layout)."""
    fig, axes = plt.subplots(rows, cols, figsize=(width, height * rows), squeeze=False,
                             layout="constrained", **kw)
    return fig, axes


def colour_map(names):
    """A colour and marker per series name, the same in every panel of a figure."""
    return {n: (COLOURS[i % len(COLOURS)], MARKERS[i % len(MARKERS)]) for i, n in enumerate(names)}


def finite(*vs):
    return all(v is not None and math.isfinite(v) for v in vs)


def series(ax, name, look, xs, ys, lo=None, hi=None, line=True, step=False, logy=False):
    """A series: points joined by a line (or steps, or none), with the 95% interval as
    error bars where lo and hi are given. Points a log axis cannot show are left out."""
    pts = [i for i in range(len(xs)) if finite(xs[i], ys[i]) and (not logy or ys[i] > 0)]
    x = [xs[i] for i in pts]
    y = [ys[i] for i in pts]
    colour, marker = look
    style = dict(color=colour, marker=marker, label=name,
                 linestyle="-" if line else "none", markersize=4.5)
    if step:
        style.update(drawstyle="steps-post")
    if lo is not None and hi is not None:
        err = [[max(y[j] - lo[i], 0) for j, i in enumerate(pts)],
               [max(hi[i] - y[j], 0) for j, i in enumerate(pts)]]
        line = ax.errorbar(x, y, yerr=err, elinewidth=1.0, **style).lines[0]
    else:
        line, = ax.plot(x, y, **style)
    line.set_gid(SERIES)


def reference(ax, value, label=None, vertical=False, colour="black", style="--"):
    """A reference line (the promise, the design load, the formula's 1): drawn in black
    or grey, never counted as a series."""
    f = ax.axvline if vertical else ax.axhline
    line = f(value, color=colour, linestyle=style, linewidth=1.1, label=label or "_ref", zorder=1)
    line.set_gid(REFERENCE)
    return line


def reference_curve(ax, xs, ys, label, colour="black", style="--", logy=False):
    pts = [(x, y) for x, y in zip(xs, ys) if finite(x, y) and (not logy or y > 0)]
    if len(pts) < 2:
        return
    line, = ax.plot([p[0] for p in pts], [p[1] for p in pts], color=colour, linestyle=style,
                    linewidth=1.4, label=label, zorder=1.5)
    line.set_gid(REFERENCE)


def legend_outside(ax, references_only=False, **kw):
    """The legend right of the panel, outside the data (only the reference lines where
    another panel's legend names the series)."""
    handles, labels = ax.get_legend_handles_labels()
    if references_only:
        keep = [i for i, h in enumerate(handles) if getattr(h, "get_gid", lambda: None)() == REFERENCE]
        handles, labels = [handles[i] for i in keep], [labels[i] for i in keep]
    if handles:
        ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                  borderaxespad=0.0, frameon=False, **kw)


def ratio_scale(ax, values, around=1.0):
    """A ratio axis: logarithmic where the values span more than a factor of 3,
    otherwise linear (differences of a few percent stay visible)."""
    v = [x for x in values if finite(x) and x > 0] + [around]
    if max(v) / min(v) > 3:
        log_axis(ax, "y")


def log_axis(ax, which):
    """A log axis (tidy_log labels it once the data are drawn)."""
    if which == "y":
        ax.set_yscale("log")
    else:
        ax.set_xscale("log")


def tidy_log(ax):
    """Label a log axis readably for the range its data span: powers of ten (10^k) over
    three decades or more; 1, 2, 5 times them as plain numbers over fewer, and 1, 2, 3,
    5 over less than one (a ratio axis from 0.9 to 4 is labelled 1, 2, 3, never 10^0
    alone)."""
    for axis, lims in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
        if axis.get_scale() != "log" or min(lims) <= 0:
            continue
        decades = math.log10(max(lims) / min(lims))
        if decades >= 3:
            axis.set_major_locator(LogLocator(base=10, numticks=12))
            axis.set_minor_locator(LogLocator(base=10, subs=tuple(range(2, 10)), numticks=12))
            axis.set_minor_formatter(NullFormatter())
            continue
        subs = (1.0, 2.0, 5.0) if decades >= 1 else (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0)
        axis.set_major_locator(LogLocator(base=10, subs=subs, numticks=20))
        axis.set_major_formatter(FuncFormatter(plain_number))
        axis.set_minor_locator(LogLocator(base=10, subs=tuple(range(1, 10)), numticks=20))
        axis.set_minor_formatter(NullFormatter())


def plain_number(v, pos=None):
    """1, 0.5, 2000, 1e-05: a tick label as a plain number."""
    return "%g" % float("%.3g" % v)


def chunks(names, size=MAX_SERIES):
    """Series names split into panels of at most size, as evenly as the count allows."""
    if not names:
        return []
    n = math.ceil(len(names) / size)
    per = math.ceil(len(names) / n)
    return [names[i:i + per] for i in range(0, len(names), per)]


def save(fig, path):
    """PNG, without the metadata that would change from run to run (matplotlib's
    version is kept out too: the same tables and packages give the same bytes)."""
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)


# ---- the look test's checks (tests/report_look.py) ----
def look(fig):
    """What is wrong with a figure as a reader sees it: a list of sentences, empty when
    nothing is. A panel with data must have at least two points; a line at least two; a
    panel no more series than COLOURS; a heat map at least two cells with a value."""
    problems = []
    panels = 0
    for i, ax in enumerate(fig.axes):
        if ax.get_label() == "<colorbar>":
            continue
        if ax.images:
            panels += 1
            for im in ax.images:
                a = im.get_array()
                cells = int(a.count()) if hasattr(a, "count") else a.size
                if cells < 2:
                    problems.append(f"panel {i + 1}: a heat map with {cells} cell(s)")
            continue
        lines = [l for l in ax.get_lines() if l.get_gid() == SERIES]
        if not lines:
            continue
        panels += 1
        points = 0
        for l in lines:
            xy = [(x, y) for x, y in zip(l.get_xdata(), l.get_ydata()) if finite(float(x), float(y))]
            points += len(xy)
            if l.get_linestyle() not in ("None", "none", "", " ") and len(xy) < 2:
                problems.append(f"panel {i + 1}: the line '{series_name(l)}' has {len(xy)} point(s)")
        if points < 2:
            problems.append(f"panel {i + 1}: {points} point(s)")
        if len(lines) > len(COLOURS):
            problems.append(f"panel {i + 1}: {len(lines)} series, more than {len(COLOURS)} colours")
        colours = [matplotlib.colors.to_hex(l.get_color()) for l in lines]
        if len(set(colours)) < len(colours):
            problems.append(f"panel {i + 1}: two series share a colour")
    if panels == 0:
        problems.append("no panel with data")
    return problems


def series_name(line):
    return line.get_label() if not line.get_label().startswith("_") else "(unnamed)"
