"""The plots of each kind of table (markdown.kind_of). Each function takes a Table (and
options) and returns a list of draw.Plot; sections.py says which a table gets.

rates: sweeps over bits per key (plain, blocked), a figure per filter size: the rate
  (log) with the formula and the exact rate as lines; under it the measured ÷ exact rate
  with its 95% interval (differences of a few percent stay visible); with floor=True the
  floor, rate × m.
designs: designs for target rates (blocked, split-block-sizing): measured ÷ target with
  its interval, and the bits per key each needed.
loads: designs filled past their size (past-design, stack, stack-dials): the rate
  against keys inserted ÷ design keys, with the design rate and the design load as
  reference lines; for stacks, the bits per key inserted beside it.
expandable: fingerprint filters against the stack: the rate, and bits per key as steps.
points: a few big points with a model (guava, hash32): rate ÷ formula per scheme with
  the model ÷ formula, a panel per point.
library_lines: a few libraries over key counts (adapter-example): measured ÷ promised
  against keys.
library_dots: one row per library and design (library-reports): measured ÷ promised
  with its interval.
generic: any other table: rate (or its last varying number) against the first varying
  size column, a series per library, structure or scheme, 8 to a panel."""
import math

from . import draw
from .markdown import (block_label, expandable_sweeps, growth_label, growth_tightened, plain_points,
                       stack_label, structure_label)
from .table import comma, num, split_library, text

NAMES_PER_PANEL = draw.MAX_SERIES


def ordered(values):
    out = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def col(rows, name):
    return [num(r[name]) if r.get(name, "") != "" else float("nan") for r in rows]


def over(rows, reference):
    """The rate and its 95% interval over a column of reference rates (the exact rate,
    the promise, the formula): (ratio, low, high), a list each."""
    ref = col(rows, reference)
    return tuple([a / b for a, b in zip(col(rows, c), ref)] for c in ("rate", "ci_low", "ci_high"))


# ---- sweeps over bits per key ----
def sizes(t, kind):
    """(m, rows) per filter size: a plain sweep's sizes as its tables have them; a
    blocked table's rows without a design, by m."""
    if kind == "plain":
        labels, _, where = plain_points(t)
        return [(m, [r for r, w in zip(t.rows, where) if w[0] == i]) for i, m in enumerate(labels)]
    out = {}
    for r in t.rows:
        if r["design_keys"] == "":
            out.setdefault(int(num(r["m"])), []).append(r)
    return list(out.items())


def k_ticks(ax, rows):
    """Bits per key labelled with k under it, where a panel has at most 8 points."""
    pts = ordered((num(r["bits_per_key"]), r["k"]) for r in rows)
    if len(pts) <= 8 and len({p[0] for p in pts}) == len(pts):
        ax.set_xticks([p[0] for p in pts], [f"{p[0]:g}\nk = {p[1]}" for p in pts])


def rates(t, kind="plain", floor=False):
    plots = []
    for m, rows in sizes(t, kind):
        label = block_label if kind == "blocked" else (lambda r: r["scheme"])
        names = ordered(label(r) for r in rows)
        plots.append(draw.Plot(f"{t.name}-{m}", f"{t.name}, {m} bits: rate, measured ÷ exact"
                               + (", floor" if floor else ""),
                               lambda m=m, rows=rows, names=names, label=label:
                               rates_figure(t, m, rows, names, label, floor, kind == "blocked")))
    return plots


def own_exact(rs):
    """A scheme's own exact rate ÷ the independent probes' exact rate, where the table has
    it and it differs by more than 0.1% somewhere (None otherwise)."""
    if "scheme_exact" not in rs[0] or any(r["scheme_exact"] == "" for r in rs):
        return None
    own = [a / e for a, e in zip(col(rs, "scheme_exact"), col(rs, "exact"))]
    return own if any(abs(v - 1) > 1e-3 for v in own) else None


def rates_figure(t, m, rows, names, label, floor, by_own):
    """by_own: the ratio panel divides by each scheme's own exact rate (blocked schemes,
    whose cost the rate panel shows); otherwise by the independent probes' exact rate,
    a scheme's own drawn dotted where it differs."""
    fig, axes = draw.figure(3 if floor else 2, 1, width=8.6, height=2.9, sharex=True)
    look = draw.colour_map(names)
    top, mid = axes[0][0], axes[1][0]
    draw.log_axis(top, "y")
    first = [r for r in rows if label(r) == names[0]]
    x0 = col(first, "bits_per_key")
    draw.reference_curve(top, x0, col(first, "formula"), "formula", "black", "--", logy=True)
    draw.reference_curve(top, x0, col(first, "exact"), "exact (independent probes)", "#777777", ":", logy=True)
    ratios, owned = [], False
    # Points of the ratio panel side by side (over a fifth of the smallest step of bits
    # per key), so that their intervals do not hide each other.
    bs = sorted(set(x0))
    step = min([b - a for a, b in zip(bs, bs[1:])] or [1.0])
    for i, n in enumerate(names):
        rs = [r for r in rows if label(r) == n]
        x = col(rs, "bits_per_key")
        draw.series(top, n, look[n], x, col(rs, "rate"), logy=True)
        dodge = (i / (len(names) - 1) - 0.5) * step * 0.2 if len(names) > 2 else 0.0
        y, lo, hi = over(rs, "scheme_exact" if by_own else "exact")
        ratios += y
        draw.series(mid, n, look[n], [v + dodge for v in x], y, lo, hi)
        own = None if by_own else own_exact(rs)
        if own:
            owned = True
            line = mid.plot(x, own, color=look[n][0], linestyle=":", linewidth=1.3)[0]
            line.set_gid(draw.REFERENCE)
    draw.reference(mid, 1.0, colour="#777777", style="-")
    fx = [f / e for f, e in zip(col(first, "formula"), col(first, "exact"))]
    if not by_own:
        draw.reference_curve(mid, x0, fx, "formula ÷ exact", "black", "--")
    draw.ratio_scale(mid, ratios + ([] if by_own else fx))
    top.set_title(f"{t.name}: {comma(m)}-bit filter, the rate and the measured ÷ exact rate (95% intervals)")
    top.set_ylabel("false-positive rate")
    mid.set_ylabel("measured ÷ the scheme's exact" if by_own else
                   "measured ÷ exact" + ("\n(dotted: the scheme's own exact)" if owned else ""))
    draw.legend_outside(top)
    bottom = mid
    if floor:
        bottom = axes[2][0]
        draw.log_axis(bottom, "y")
        for n in names:
            rs = [r for r in rows if label(r) == n]
            draw.series(bottom, n, look[n], col(rs, "bits_per_key"), col(rs, "rate_times_m"), logy=True)
        bottom.set_ylabel("the floor: rate × m")
    bottom.set_xlabel("bits per key")
    k_ticks(bottom, first)
    return fig


# ---- designs for target rates ----
def designs(t):
    rows = [r for r in t.rows if r["design_keys"] != ""]
    if len(rows) < 2:
        return []

    def name(r):
        return block_label(r) + (f" ({r['sizing']})" if r.get("sizing", "") else "")

    def figure():
        names = ordered(name(r) for r in rows)
        look = draw.colour_map(names)
        fig, axes = draw.figure(1, 2, width=9.6, height=3.6)
        left, right = axes[0]
        ratios = []
        for n in names:
            rs = [r for r in rows if name(r) == n]
            p = col(rs, "design_rate")
            y, lo, hi = over(rs, "design_rate")
            ratios += y
            draw.series(left, n, look[n], p, y, lo, hi)
            draw.series(right, n, look[n], p, col(rs, "bits_per_key"))
        draw.reference(left, 1.0, "the promise")
        draw.ratio_scale(left, ratios)
        for ax in (left, right):
            draw.log_axis(ax, "x")
            ax.set_xlabel("target rate")
            ax.invert_xaxis()
        left.set_ylabel("measured ÷ target (95% intervals)")
        right.set_ylabel("bits per key")
        left.set_title(f"{t.name}: measured ÷ target")
        right.set_title(f"bits per key, {comma(rows[0]['design_keys'])} keys")
        draw.legend_outside(right)
        return fig

    return [draw.Plot(f"{t.name}-designs", f"{t.name}: designs, measured ÷ target and bits per key", figure)]


# ---- designs filled past their size ----
def loads(t):
    plots = []
    for p in ordered(r["design_rate"] for r in t.rows):
        rows = [r for r in t.rows if r["design_rate"] == p]
        what = "rate and bits held" if any(r["first_capacity"] != "" for r in rows) else "rate"
        plots.append(draw.Plot(f"{t.name}-{p}", f"{t.name}, designed at {p}: {what} against load",
                               lambda p=p, rows=rows: loads_figure(t, p, rows)))
    return plots


def loads_figure(t, p, rows):
    def name(r):
        return stack_label(r) + " " + r["scheme"]
    names = ordered(name(r) for r in rows)
    look = draw.colour_map(names)
    stacks = any(r["first_capacity"] != "" for r in rows)
    fig, axes = draw.figure(2 if stacks else 1, 1, width=9.0, height=3.5, sharex=True)
    ax = axes[0][0]
    draw.log_axis(ax, "x")
    draw.log_axis(ax, "y")
    for n in names:
        rs = [r for r in rows if name(r) == n]
        draw.series(ax, n, look[n], col(rs, "load"), col(rs, "rate"), col(rs, "ci_low"), col(rs, "ci_high"), logy=True)
    single = [r for r in rows if r["first_capacity"] == ""]
    if single:
        s0 = [r for r in single if r["scheme"] == single[0]["scheme"]]
        draw.reference_curve(ax, col(s0, "load"), col(s0, "formula"), "formula (single filter)", "#777777", ":", logy=True)
    draw.reference(ax, num(p), f"design rate {text(100 * num(p))}%")
    draw.reference(ax, 1.0, "design load", vertical=True, colour="#777777", style="-.")
    keys = comma(rows[0]["design_keys"])
    ax.set_title(f"{t.name}: designed for {keys} keys at {text(100 * num(p))}%, filled past it (95% intervals)")
    ax.set_ylabel("false-positive rate")
    draw.legend_outside(ax)
    bottom = ax
    if stacks:
        bottom = axes[1][0]
        bits_panel(bottom, rows, names, name, look, p)
    bottom.set_xlabel(f"keys inserted ÷ design keys ({keys})")
    return fig


def bits_panel(ax, rows, names, name, look, p):
    """The bits each structure holds ÷ the design keys, as steps (a layer added), beside
    the bits a filter designed for the keys inserted at the design rate would hold."""
    dk = num(rows[0]["design_keys"])
    for n in names:
        rs = [r for r in rows if name(r) == n]
        bits = [num(r["total_bits"] if r["total_bits"] != "" else r["m"]) / dk for r in rs]
        draw.series(ax, n, look[n], col(rs, "load"), bits, step=True, logy=True)
    one = sorted({num(r["n"]): num(r["single_bits"]) for r in rows if r["single_bits"] != ""}.items())
    draw.reference_curve(ax, [k / dk for k, _ in one], [b / dk for _, b in one],
                         f"one filter designed for the keys inserted at {text(100 * num(p))}%", "black", "--",
                         logy=True)
    draw.log_axis(ax, "y")
    draw.reference(ax, 1.0, vertical=True, colour="#777777", style="-.")
    ax.set_ylabel("bits held ÷ design keys\n(steps: a layer added)")
    draw.legend_outside(ax, references_only=True)


# ---- fingerprint filters ----
def expandable(t):
    def figure():
        sweeps = expandable_sweeps(t)
        rows = [r for r, s in zip(t.rows, sweeps) if s == 1]
        names = ordered(structure_label(r) for r in rows)
        look = draw.colour_map(names)
        fig, axes = draw.figure(2, 1, width=9.4, height=3.3, sharex=True)
        top, bottom = axes[0][0], axes[1][0]
        draw.log_axis(top, "x")
        draw.log_axis(top, "y")
        draw.log_axis(bottom, "y")
        r0 = rows[0]
        for n in names:
            rs = [r for r in rows if structure_label(r) == n]
            ok = [r for r in rs if not num(r["refused"]) > 0]  # a filter refusing keys is not drawn
            draw.series(top, n, look[n], col(ok, "n"), col(ok, "rate"), col(ok, "ci_low"), col(ok, "ci_high"), logy=True)
            bits = [b * k / num(r0["design_keys"]) for b, k in zip(col(ok, "bits_per_key"), col(ok, "n"))]
            draw.series(bottom, n, look[n], col(ok, "n"), bits, step=True, logy=True)
        p = num(r0["design_rate"])
        one = -math.log(p) / math.log(2) ** 2  # bits per key of a Bloom filter designed for p
        ks = ordered(col(rows, "n"))
        draw.reference_curve(bottom, ks, [one * k / num(r0["design_keys"]) for k in ks],
                             f"a Bloom filter designed for the keys at {text(100 * p)}%", "black", "--", logy=True)
        for ax in (top, bottom):
            draw.reference(ax, num(r0["design_keys"]), f"design keys ({comma(r0['design_keys'])})",
                           vertical=True, colour="#777777", style="-.")
        draw.reference(top, p, f"design rate {text(100 * p)}%")
        top.set_title(f"{t.name}: designed for {comma(r0['design_keys'])} keys at "
                      f"{text(100 * p)}%, filled past it (95% intervals)")
        top.set_ylabel("false-positive rate")
        bottom.set_ylabel("bits held ÷ design keys\n(steps: an expansion or a layer)")
        bottom.set_xlabel("keys inserted")
        draw.legend_outside(top)
        draw.legend_outside(bottom, references_only=True)
        return fig

    return [draw.Plot(f"{t.name}", f"{t.name}: rate and bits held against keys inserted", figure)]


# ---- a few big points with a model ----
def points(t):
    groups = ordered((r["m"], r["n"], r["k"]) for r in t.rows)

    def figure():
        fig, axes = draw.figure(1, len(groups), width=min(4.2 * len(groups), 12.5), height=3.8)
        look = draw.colour_map(["measured", "model"])
        for ax, g in zip(axes[0], groups):
            rs = [r for r in t.rows if (r["m"], r["n"], r["k"]) == g]
            x = list(range(len(rs)))
            f = col(rs, "formula")
            y, lo, hi = over(rs, "formula")
            draw.series(ax, "measured", look["measured"], [v - 0.08 for v in x], y, lo, hi, line=False)
            model = [a / b for a, b in zip(col(rs, "model"), f)]
            if any(draw.finite(v) for v in model):
                draw.series(ax, "model", look["model"], [v + 0.08 for v in x], model, line=False)
            draw.reference(ax, 1.0, "formula")
            draw.ratio_scale(ax, y + model)
            ax.set_xticks(x, [r["scheme"] for r in rs], rotation=30, ha="right")
            ax.set_xlim(-0.6, len(rs) - 0.4)
            r0 = rs[0]
            ax.set_title(f"{comma(r0['m'])} bits, {comma(r0['n'])} keys\nk = {r0['k']}, "
                         f"b = {num(r0['bits_per_key']):.4g}", fontsize=9)
        axes[0][0].set_ylabel("rate ÷ formula (95% intervals)")
        fig.suptitle(f"{t.name}: measured and modelled rate ÷ the formula", fontsize=10.5)
        draw.legend_outside(axes[0][-1])
        return fig

    return [draw.Plot(f"{t.name}", f"{t.name}: rate ÷ formula per scheme, with the model", figure)]


# ---- libraries ----
def lib_rows(t):
    return [r for r in t.rows if split_library(r["library"])[1] == "ideal"]


def library_lines(t):
    """Measured ÷ promised against keys, a series per library and target rate."""
    rows = lib_rows(t)
    libs = ordered(r["library"] for r in rows)

    def name(r):
        p = text(100 * num(r["design_rate"])) + "%"
        return p if len(libs) == 1 else f"{r['library']} at {p}"

    def figure():
        names = ordered(name(r) for r in rows)
        parts = draw.chunks(names)
        fig, axes = draw.figure(len(parts), 1, width=8.6, height=3.4, sharex=True)
        look = draw.colour_map(names)
        for ax, part in zip([a[0] for a in axes], parts):
            draw.log_axis(ax, "x")
            ys = []
            for n in part:
                rs = [r for r in rows if name(r) == n]
                y, lo, hi = over(rs, "design_rate")
                ys += y
                draw.series(ax, n, look[n], col(rs, "design_keys"), y, lo, hi)
            draw.reference(ax, 1.0, "the promise")
            draw.ratio_scale(ax, ys)
            ax.set_ylabel("measured ÷ promised")
            draw.legend_outside(ax, title="target" if len(libs) == 1 else None)
        axes[0][0].set_title(f"{t.name}: " + (libs[0] + ", " if len(libs) == 1 else "")
                             + "measured ÷ promised rate against keys (95% intervals)")
        axes[-1][0].set_xlabel("keys designed for (and inserted)")
        return fig

    return [draw.Plot(f"{t.name}", f"{t.name}: measured ÷ promised against keys", figure)]


def library_dots(t):
    """A row per library and design: measured ÷ promised, log scale, with its interval."""
    rows = lib_rows(t)

    def figure():
        libs = ordered(r["library"] for r in rows)
        look = draw.colour_map(libs)
        fig, axes = draw.figure(1, 1, width=9.0, height=1.2 + 0.26 * len(rows))
        ax = axes[0][0]
        draw.log_axis(ax, "x")
        ys = {id(r): len(rows) - 1 - i for i, r in enumerate(rows)}
        for lib in libs:
            rs = [r for r in rows if r["library"] == lib]
            x, lo, hi = over(rs, "design_rate")
            y = [ys[id(r)] for r in rs]
            line = ax.errorbar(x, y, xerr=[[max(a - b, 0) for a, b in zip(x, lo)], [max(b - a, 0) for a, b in zip(x, hi)]],
                               color=look[lib][0], marker=look[lib][1], linestyle="none", label=lib).lines[0]
            line.set_gid(draw.SERIES)
            for xi, yi in zip(x, y):
                ax.annotate(comma(xi) if xi >= 1000 else "%.3g" % xi, (xi, yi), xytext=(7, 0), textcoords="offset points",
                            va="center", fontsize=7.5, color=look[lib][0])
        draw.reference(ax, 1.0, "the promise", vertical=True)
        ax.set_yticks([ys[id(r)] for r in rows],
                      [f"{r['library']}: {comma(r['design_keys'])} keys at {text(100 * num(r['design_rate']))}%"
                       for r in rows], fontsize=8)
        ax.set_ylim(-0.7, len(rows) - 0.3)
        ax.set_xlabel("measured ÷ promised rate (log scale, 95% intervals)")
        ax.set_title(f"{t.name}: measured ÷ promised, each design")
        draw.legend_outside(ax)
        return fig

    return [draw.Plot(f"{t.name}", f"{t.name}: measured ÷ promised per library and design", figure)]


# ---- any other table ----
SIZE_COLUMNS = ["bits_per_key", "n", "design_keys", "m", "load", "k", "design_rate"]
NAME_COLUMNS = ["library", "structure", "scheme"]


def generic(t):
    """rate (or the last numeric column that varies) against the first of SIZE_COLUMNS
    that varies (or the first numeric column that does), a series per the first of
    NAME_COLUMNS that varies (or the first text column that does)."""
    def numeric(c):
        try:
            [float(r[c]) for r in t.rows if r[c] != ""]
            return any(r[c] != "" for r in t.rows)
        except ValueError:
            return False

    def varies(c):
        return len({r[c] for r in t.rows}) > 1

    nums = [c for c in t.columns if c != "seconds" and numeric(c) and varies(c)]
    y = "rate" if "rate" in nums else (nums[-1] if nums else None)
    xs = [c for c in SIZE_COLUMNS if c in nums and c != y] + [c for c in nums if c != y]
    if y is None or not xs:
        return []
    x = xs[0]
    texts = [c for c in t.columns if c not in nums and c != "seconds" and varies(c)]
    by = next((c for c in NAME_COLUMNS + texts if c in t.columns and varies(c)), None)
    names = ordered(r[by] for r in t.rows) if by else [y]
    interval = y == "rate" and "ci_low" in t.columns and "ci_high" in t.columns

    def figure():
        parts = draw.chunks(names)
        fig, axes = draw.figure(len(parts), 1, width=8.6, height=3.4, sharex=True)
        look = draw.colour_map(names)
        vals = [num(r[y]) for r in t.rows if r[y] != ""]
        logy = min(vals) > 0 and max(vals) / min(vals) > 10
        logx = min(num(r[x]) for r in t.rows if r[x] != "") > 0 and \
            max(num(r[x]) for r in t.rows) / max(min(num(r[x]) for r in t.rows if r[x] != ""), 1e-300) > 100
        for ax, part in zip([a[0] for a in axes], parts):
            if logy:
                draw.log_axis(ax, "y")
            if logx:
                draw.log_axis(ax, "x")
            for n in part:
                rs = sorted([r for r in t.rows if (r[by] if by else y) == n], key=lambda r: num(r[x]))
                draw.series(ax, n, look[n], col(rs, x), col(rs, y), col(rs, "ci_low") if interval else None,
                            col(rs, "ci_high") if interval else None, logy=logy)
            ax.set_ylabel(y + (" (95% intervals)" if interval else ""))
            draw.legend_outside(ax)
        axes[0][0].set_title(f"{t.name}: {y} against {x}" + (f", by {by}" if by else ""))
        axes[-1][0].set_xlabel(x)
        return fig

    return [draw.Plot(f"{t.name}", f"{t.name}: {y} against {x}", figure)]


# ---- filter families (families) ----
def family_name(r):
    """A row's filter: its library, or its fingerprint filter."""
    return r["library"] or r["structure"] or r["scheme"]


def families(t):
    """Per key count, two panels against the promise: measured ÷ promised (log, 95%
    intervals), and bits per key ÷ log2(1/p), the information-theoretic floor, a series
    per filter."""
    rows = [r for r in t.rows if r["design_rate"] != ""]
    keys = ordered(int(num(r["design_keys"])) for r in rows)
    names = ordered(family_name(r) for r in rows)

    def figure():
        fig, axes = draw.figure(len(keys), 2, width=11.0, height=3.2, sharex=True)
        look = draw.colour_map(names)
        for row_axes, n in zip(axes, keys):
            left, right = row_axes
            ys = []
            for name in names:
                rs = [r for r in rows if family_name(r) == name and int(num(r["design_keys"])) == n]
                if not rs:
                    continue
                p = col(rs, "design_rate")
                y, lo, hi = over(rs, "design_rate")
                ys += y
                draw.series(left, name, look[name], p, y, lo, hi, logy=True)
                floor = [b / math.log2(1 / q) for b, q in zip(col(rs, "bits_per_key"), p)]
                draw.series(right, name, look[name], p, floor)
            for ax in (left, right):
                draw.log_axis(ax, "x")
                ax.invert_xaxis()
            draw.log_axis(left, "y")
            draw.reference(left, 1.0, "the promise")
            draw.reference(right, 1.0, "log2(1/p)")
            left.set_ylabel(f"{comma(n)} keys\nmeasured ÷ promised")
            right.set_ylabel("bits per key ÷ log2(1/p)")
            draw.legend_outside(right)
        axes[0][0].set_title(f"{t.name}: rate ÷ promise (95% intervals)")
        axes[0][1].set_title("bits per key ÷ the floor log2(1/p)")
        for ax in axes[-1]:
            ax.set_xlabel("promised rate p")
        return fig

    return [draw.Plot(t.name, f"{t.name}: measured ÷ promised and bits per key ÷ log2(1/p) "
                      "per filter, against the promise", figure)]


# ---- libraries' scalable filters filled far past their first capacity (issue 41) ----
def growth(t):
    """Rate and bits per key against keys inserted, log axes: a column per promise (each
    library's defaults), the chains beside seed 001's stack and the rebuilt filter; two
    columns a figure, in the table's order (its first figure the first two designs)."""
    every = ordered((r["design_keys"], r["design_rate"]) for r in t.rows)
    tightened = growth_tightened(t)
    return [growth_plot(t, every[i:i + 2], i // 2, tightened) for i in range(0, len(every), 2)]


def growth_plot(t, designs, part, tightened):
    def label(r):
        return growth_label(r, tightened)

    def figure():
        fig, axes = draw.figure(2, len(designs), width=min(7.4 * len(designs), 15.0), height=3.3)
        # Colours per figure: its own series (the table's 20 or so would repeat a colour).
        names = ordered(label(r) for r in t.rows if (r["design_keys"], r["design_rate"]) in designs)
        look = draw.colour_map(names)
        for c, d in enumerate(designs):
            top, bottom = axes[0][c], axes[1][c]
            # From the first capacity on: below it every structure is one lightly filled
            # filter (the table has those rows).
            rows = [r for r in t.rows if (r["design_keys"], r["design_rate"]) == d
                    and num(r["n"]) >= num(r["design_keys"])]
            for ax in (top, bottom):
                draw.log_axis(ax, "x")
                draw.log_axis(ax, "y")
            for n in ordered(label(r) for r in rows):
                rs, seen = [], set()  # one row a load (two sweeps' rebuilt filters are alike)
                for r in sorted((r for r in rows if label(r) == n), key=lambda r: num(r["n"])):
                    if r["n"] not in seen:
                        seen.add(r["n"])
                        rs.append(r)
                draw.series(top, n, look[n], col(rs, "n"), col(rs, "rate"), col(rs, "ci_low"),
                            col(rs, "ci_high"), logy=True)
                draw.series(bottom, n, look[n], col(rs, "n"), col(rs, "bits_per_key"), logy=True)
            p = num(d[1])
            draw.reference(top, p, f"promise {100 * p:.3g}%")
            top.set_title(f"first capacity {comma(d[0])}, promise {100 * p:.3g}% (95% intervals)")
            top.set_ylabel("false-positive rate")
            bottom.set_ylabel("bits per key")
            bottom.set_xlabel("keys inserted")
            draw.legend_outside(top)
        return fig

    firsts = " and ".join(f"{comma(d[0])} at {100 * num(d[1]):.3g}%" for d in designs)
    return draw.Plot(t.name if part == 0 else f"{t.name}-{part + 1}",
                     f"{t.name}: rate and bits per key of the libraries' scalable filters "
                     f"(first capacity {firsts}) against keys inserted from their first "
                     "capacity on (log axes)", figure)
