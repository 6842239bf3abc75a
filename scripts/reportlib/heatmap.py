"""The libraries at a glance: heat maps of library (rows, grouped by family) against
design (columns, grouped), each cell coloured by a ratio on a log colour scale centred
on 1 (blue below, red above, white at 1), the ratio printed in the cell and framed in
bold where it differs from 1 beyond its uncertainty.

libraries_heat: measured ÷ promised, over every libraries table given (libraries,
libraries-big, libraries-2e9), the rows with ideal hash words; framed where the 95%
interval excludes 1. keysets_heat: each real key set's rate ÷ the same library's rate
on ideal words at the same design (real-keys, real-keys-big; real-keys-reports), key
set × keys across; framed where the two rates differ by more than 3 standard errors of
their difference (the starred cells of the report's table)."""
import math
import textwrap

import numpy as np
import matplotlib.colors as mcolors
from matplotlib.patches import Rectangle

from . import draw
from .markdown import keyset_ratios
from .table import comma, num, split_library, text

CMAP = "RdBu_r"


def family(names, lib):
    """Each row's family: the part of its library's name (lib[name]) before the first
    '-' where another row's shares it (guava and guava-2012, the rocksdb versions), else
    the library's name. Returns {name: family}."""
    first = {n: lib[n].split("-")[0] for n in names}
    count = {}
    for f in first.values():
        count[f] = count.get(f, 0) + 1
    return {n: first[n] if count[first[n]] > 1 else lib[n] for n in names}


def grouped(names, lib):
    """The names with each family's members together, families in the order their
    first member appears."""
    fam = family(names, lib)
    order = []
    for n in names:
        if fam[n] not in order:
            order.append(fam[n])
    return [n for f in order for n in names if fam[n] == f], fam


def keys_tick(k):
    """A key count as a short label: 10⁶, 2·10⁹, 150,000."""
    k = num(k)
    e = int(math.floor(math.log10(k) + 1e-9)) if k > 0 else 0
    if k < 1e5 and k != 10 ** e:
        return comma(k)
    a = k / 10 ** e
    if abs(a - round(a)) < 1e-9:
        return f"$10^{{{e}}}$" if round(a) == 1 else f"${int(round(a))}{{\\cdot}}10^{{{e}}}$"
    return f"${a:.2g}{{\\cdot}}10^{{{e}}}$"


def ratio_text(v):
    if v >= 100:
        return "%.0f" % v
    if v >= 10:
        return "%.1f" % v
    if v >= 0.01:
        return "%.2f" % v
    return "%.0e" % v


def heat(title, rows, cols, cells, bar_label, note, decades):
    """The figure. rows: [(row, library)], cols: [(group, label, key)], cells:
    {(row, key): (ratio, framed)}. Rows are grouped by family, a line between
    families; columns by group, a heavier line between groups. The colours run from
    10^-decades to 10^decades (beyond: the end colours); a cell not run is hatched."""
    names, fam = grouped([r[0] for r in rows], dict(rows))
    nr, nc = len(names), len(cols)
    a = np.full((nr, nc), np.nan)
    for i, lib in enumerate(names):
        for j, (_, _, key) in enumerate(cols):
            if (lib, key) in cells and cells[lib, key][0] > 0:
                a[i, j] = math.log10(cells[lib, key][0])
    width = 2.6 + 0.56 * nc + 1.1
    fig, axes = draw.figure(1, 1, width=width, height=max(3.6, 2.0 + 0.24 * nr))
    ax = axes[0][0]
    cmap = draw.plt.get_cmap(CMAP).copy()
    cmap.set_bad((0, 0, 0, 0))
    ax.patch.set_facecolor("white")
    ax.patch.set_hatch("////")
    ax.patch.set_edgecolor("#cccccc")
    im = ax.imshow(np.ma.masked_invalid(a), cmap=cmap, aspect="auto", interpolation="nearest",
                   norm=mcolors.Normalize(-decades, decades))
    ax.grid(False)
    for i, lib in enumerate(names):
        for j, (_, _, key) in enumerate(cols):
            if (lib, key) not in cells:
                continue
            v, framed = cells[lib, key]
            dark = not math.isnan(a[i, j]) and abs(a[i, j]) > 0.55 * decades
            ax.text(j, i, ratio_text(v), ha="center", va="center", fontsize=7,
                    color="white" if dark else "black", fontweight="bold" if framed else "normal")
            if framed:
                ax.add_patch(Rectangle((j - 0.45, i - 0.42), 0.9, 0.84, fill=False,
                                       edgecolor="black", linewidth=0.9))
    ax.set_yticks(range(nr), names, fontsize=8)
    ax.set_xticks(range(nc), [c[1] for c in cols], fontsize=8)
    ax.xaxis.tick_top()
    ax.tick_params(length=0)
    for i in range(1, nr):
        if fam[names[i]] != fam[names[i - 1]]:
            ax.axhline(i - 0.5, color="#555555", linewidth=0.6)
    groups = []
    for j, c in enumerate(cols):
        if groups and groups[-1][0] == c[0]:
            groups[-1][2] = j
        else:
            groups.append([c[0], j, j])
    for g, j0, j1 in groups:
        if j0 > 0:
            ax.axvline(j0 - 0.5, color="black", linewidth=1.4)
    top = ax.secondary_xaxis("top")
    top.set_xticks([(j0 + j1) / 2 for _, j0, j1 in groups], [g for g, _, _ in groups],
                   fontsize=8.5, fontweight="bold")
    top.tick_params(length=0, pad=16)
    fig.suptitle(title, fontsize=10.5)
    bar = fig.colorbar(im, ax=ax, shrink=min(1.0, 14 / max(nr, 1)), extend="both", pad=0.02,
                       aspect=min(20, 3 + nr))
    steps = (-2, -1, math.log10(0.5), 0, math.log10(2), 1, 2) if decades >= 2 else \
        (-1, math.log10(0.5), 0, math.log10(2), 1)
    ticks = [t for t in steps if abs(t) <= decades]
    bar.set_ticks(ticks, labels=["%g×" % float("%.2g" % 10 ** t) for t in ticks])
    bar.set_label(bar_label)
    ax.set_xlabel(textwrap.fill(note, int(width * 15)), fontsize=7.5, color="#333333", loc="left")
    return fig


def libraries_heat(tables, stem="libraries-heat"):
    """Measured ÷ promised over the given libraries tables, ideal-word rows only:
    columns by target rate, then keys."""
    tables = [t for t in tables if t is not None]
    rows, designs, cells = [], [], {}
    for t in tables:
        for r in t.rows:
            lib, kind, _ = split_library(r["library"])
            if kind != "ideal":
                continue
            d = (num(r["design_rate"]), num(r["design_keys"]))
            if lib not in [x[0] for x in rows]:
                rows.append((lib, lib))
            if d not in designs:
                designs.append(d)
            p = num(r["design_rate"])
            lo, hi = num(r["ci_low"]) / p, num(r["ci_high"]) / p
            cells[lib, d] = (num(r["rate_over_design"]), lo > 1 or hi < 1)
    filled = {}
    for (_, d) in cells:
        filled[d[0]] = filled.get(d[0], 0) + 1
    designs.sort(key=lambda d: (-filled[d[0]], -d[0], d[1]))
    cols = [("target " + text(100 * d[0]) + "%", keys_tick(d[1]), d) for d in designs]
    names = ", ".join(t.name for t in tables)
    title = f"Measured ÷ promised false-positive rate, each library at its own sizing ({names})"
    note = ("Ideal hash words: the libraries' sizing and index arithmetic. Columns: keys designed "
            "for, by target rate. Bold and framed: the 95% interval excludes 1. Hatched: "
            "no row (the library does not build that design, or the sweep did not ask for it).")
    alt = f"heat map of measured ÷ promised rate, library by design ({names})"
    return draw.Plot(stem, alt, lambda: heat(title, rows, cols, cells, "measured ÷ promised (log scale)", note, 2))


def keysets_heat(tables, stem):
    """Each real key set's rate ÷ the library's ideal-words rate: rows library (at its
    target where the map has several), columns key set, then keys."""
    tables = [t for t in tables if t is not None]
    per = []
    for t in tables:
        libs, kinds, _, _, ratios = keyset_ratios(t)
        per.append((libs, kinds, ratios))
    rates = {}
    for _, _, ratios in per:
        for (_, d, _) in ratios:
            rates[num(d[1])] = rates.get(num(d[1]), 0) + 1
    common = max(rates, key=lambda p: (rates[p], p)) if rates else 0
    rows, kinds, keys, cells = [], [], [], {}
    for libs, ks, ratios in per:
        for k in ks:
            if k not in kinds:
                kinds.append(k)
        for (lib, d, kind), (ratio, _, z) in ratios.items():
            p = num(d[1])
            row = lib if p == common else f"{lib} at {text(100 * p)}%"
            if row not in [x[0] for x in rows]:
                rows.append((row, lib))
            if num(d[0]) not in keys:
                keys.append(num(d[0]))
            cells[row, (kind, num(d[0]))] = (ratio, abs(z) > 3)
    keys.sort()
    cols = [(kind, keys_tick(k), (kind, k)) for kind in kinds for k in keys
            if any((r[0], (kind, k)) in cells for r in rows)]
    names = ", ".join(t.name for t in tables)
    title = f"Real keys through each library's own hash ÷ ideal hash words ({names})"
    note = ("Each cell: the key set's rate ÷ the same library's rate on ideal hash words at the same "
            f"design (target {text(100 * common)}% unless the row says). Columns: key set, then keys "
            "inserted. Bold and framed: the rates differ by more than 3 standard errors. Hatched: no row.")
    alt = f"heat map of real keys' rate ÷ ideal words' rate, library by key set and keys ({names})"
    return draw.Plot(stem, alt, lambda: heat(title, rows, cols, cells, "real keys ÷ ideal words (log scale)", note, 1))


def splits_heat(t, stem):
    """Hash splits (hash-split): for each bits per key, rate ÷ exact rate of independent
    probes, rows (split, scheme), columns key set then m; framed where the rate departs
    from fill^k by more than 3 standard errors."""
    from .markdown import split_cells
    out = []
    for b in sorted({num(r["bits_per_key"]) for r in t.rows}):
        rows, cols, cells = split_cells(t, b)
        names = [f"{s} / {sc}" for s, sc in rows]
        fam = [(n, s.replace("-mixed", "").replace("-32", "")) for n, (s, _) in zip(names, rows)]
        hc = [(c[0], f"$2^{{{int(math.log2(c[1]))}}}$", c) for c in cols]
        hcells = {(n, c): (v, beyond) for n, key in zip(names, rows) for c in cols
                  if (key, c) in cells for v, _, beyond in [cells[key, c]]}
        k = next(r["k"] for r in t.rows if num(r["bits_per_key"]) == b)
        title = f"Hash splits: rate ÷ exact rate of independent probes, b = {text(b)}, k = {k} ({t.name})"
        note = ("Rows: split / scheme (ideal words: the scheme's own uniform words). Columns: key "
                "set, then m. Bold and framed: the rate departs from fill^k, independent probes "
                "given the filter's bits set, by more than 3 standard errors.")
        alt = f"heat map of hash splits' rate ÷ exact rate at b = {text(b)}, split by key set and m ({t.name})"
        out.append(draw.Plot(f"{stem}-b{text(b)}", alt,
                             lambda title=title, fam=fam, hc=hc, hcells=hcells, note=note:
                             heat(title, fam, hc, hcells, "rate ÷ exact (log scale)", note, 1)))
    return out
