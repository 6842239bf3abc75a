"""The tables that are not experiments' CSVs: the benchmarks' and tabulations' NAME.tsv
in results/ (scripts/bench --derive and --plain, scripts/crossread, scripts/word-sharing,
FINDINGS' CalculateParams loop). Each has a title, its Markdown table and its plots here;
sections.py places them. results/libraries.tsv is not one: it is `audit --list --tsv`,
the libraries table's notes (markdown.read_libinfo).

A TSV's # header lines say what made it, where and when; the report prints them as the
section's description."""
import math

from . import draw
from .markdown import cell_text, header, row
from .plots import col, ordered
from .table import comma, num

NOT_TABLES = {"libraries"}

TITLES = {
    "calculateparams": "Seed 002's CalculateParams against its targets",
    "crossread": "A filter read by another scheme: the held keys it loses",
    "derive-cost": "Hashing against deriving: k evaluations or one digest (seed 003)",
    "plain-lookup": "Seed 002's filter at a billion items: nanoseconds a lookup",
    "word-sharing": "Real keys sharing a library's hash words",
}


def title(t):
    return TITLES.get(t.name, t.name)


def description(t):
    """The # header lines, as one paragraph."""
    return " ".join(t.comments)


def full_table(t, cols=None):
    """Every row, the columns given (default all)."""
    cols = cols or t.columns
    out = ["", f"**{comma(len(t.rows))} rows**", ""] + header(cols)
    return out + [row([cell_text(r[c]) for c in cols]) for r in t.rows]


# ---- calculateparams ----
def calculateparams_plot(t):
    def figure():
        fig, axes = draw.figure(1, 1, width=8.6, height=3.6)
        ax = axes[0][0]
        draw.log_axis(ax, "x")
        look = draw.colour_map(["rule's k", "best k"])
        xs = col(t.rows, "target")
        draw.series(ax, "rule's k: ceil(b ln 2)", look["rule's k"], xs, col(t.rows, "rule_over_target"))
        draw.series(ax, "best k in the same bits", look["best k"], xs, col(t.rows, "best_over_target"))
        draw.reference(ax, 1.0, "the target")
        ax.set_xlabel("target false-positive rate P")
        ax.set_ylabel("exact rate ÷ P")
        ax.set_title("CalculateParams (m = ceil(n b), b = −ln P / ln² 2): exact rate over its target, n = 100,000")
        draw.legend_outside(ax)
        return fig
    return [draw.Plot("calculateparams", "CalculateParams: exact rate over the target, rule's k and best k", figure)]


# ---- crossread ----
def pair(r):
    return f"{r['writer']} → {r['reader']}, m {comma(num(r['m']))}, k {r['k']}"


def crossread_plot(t):
    """The held keys each reader reports absent (95% interval), a point per pair; beside
    it the reader's false-positive rate over the writer's."""
    rows = t.rows

    def figure():
        fig, axes = draw.figure(1, 2, width=10.5, height=0.24 * len(rows) + 1.4,
                                gridspec_kw={"width_ratios": [3, 2]}, sharey=True)
        left, right = axes[0]
        ys = list(range(len(rows)))
        look = draw.colour_map(["absent", "ratio"])
        for ax, name, x, lo, hi, ref in (
                (left, "held keys reported absent", col(rows, "absent"), col(rows, "absent_low"),
                 col(rows, "absent_high"), None),
                (right, "reader's rate ÷ writer's", col(rows, "reader_over_writer"), None, None, 1.0)):
            colour, marker = look["absent" if ax is left else "ratio"]
            pts = [i for i in ys if draw.finite(x[i])]
            err = None
            if lo is not None:
                err = [[max(x[i] - lo[i], 0) for i in pts], [max(hi[i] - x[i], 0) for i in pts]]
            line = ax.errorbar([x[i] for i in pts], pts, xerr=err, color=colour, marker=marker,
                               linestyle="none", label=name).lines[0]
            line.set_gid(draw.SERIES)
            if ref is not None:
                draw.reference(ax, ref, "equal rates", vertical=True)
            ax.set_xlabel(name + (" (95% intervals)" if lo is not None else ""))
        left.set_xlim(-0.02, 1.02)
        left.set_yticks(ys)
        left.set_yticklabels([pair(r) for r in rows])
        left.invert_yaxis()
        left.set_title("A filter written by one scheme, read by another (same m and k)")
        return fig
    return [draw.Plot("crossread", "crossread: held keys reported absent and the reader's rate, per writer and reader", figure)]


# ---- derive-cost ----
def derive_panels(t):
    return ordered((r["filter"], r["op"]) for r in t.rows)


def panel_label(p):
    f, op = p
    return op if f == "-" else f"{op}, {f} filter"


def derive_table(t):
    """independent_over_enhanced by operation and hash (rows) and key length (columns):
    how many times faster one digest with derived probes is than k evaluations."""
    lengths = sorted({int(num(r["key_bytes"])) for r in t.rows})
    out = ["", "Seven independent evaluations' ns over one digest with `enhanced` probes "
           "(`independent_over_enhanced`; above 1: deriving pays), by key length in bytes. "
           "Every column of every row is in the TSV.", ""]
    out += header(["operation", "hash"] + [f"{n} B" for n in lengths])
    for p in derive_panels(t):
        rs = [r for r in t.rows if (r["filter"], r["op"]) == p]
        for h in ordered(r["hash"] for r in rs):
            cells = {int(num(r["key_bytes"])): cell_text(r["independent_over_enhanced"]) for r in rs if r["hash"] == h}
            out.append(row([panel_label(p), h] + [cells.get(n, "") for n in lengths]))
    return out


def derive_plot(t):
    panels = derive_panels(t)
    hashes = ordered(r["hash"] for r in t.rows)

    def figure():
        cols = 2
        rows_n = math.ceil(len(panels) / cols)
        fig, axes = draw.figure(rows_n, cols, width=10.5, height=2.7, sharex=True)
        look = draw.colour_map(hashes)
        flat = [a for line in axes for a in line]
        for ax, p in zip(flat, panels):
            draw.log_axis(ax, "x")
            draw.log_axis(ax, "y")
            rs = [r for r in t.rows if (r["filter"], r["op"]) == p]
            for h in hashes:
                hr = sorted([r for r in rs if r["hash"] == h], key=lambda r: num(r["key_bytes"]))
                if hr:
                    draw.series(ax, h, look[h], col(hr, "key_bytes"), col(hr, "independent_over_enhanced"),
                                line=len(hr) > 1, logy=True)
            draw.reference(ax, 1.0, "equal cost")
            ax.set_title(panel_label(p))
            ax.set_ylabel("7 evaluations ÷ 1 digest")
        for ax in flat[len(panels):]:
            ax.set_visible(False)
        for ax in flat[-cols:]:
            ax.set_xlabel("key bytes")
        draw.legend_outside(flat[cols - 1])
        return fig
    return [draw.Plot("derive-cost", "derive-cost: k hash evaluations over one digest with derived probes, by key length", figure)]


# ---- plain-lookup ----
def plain_lookup_plot(t):
    """ns a lookup (median, with the least and most of the timings) per implementation
    and keys, on huge and on 4 KiB pages."""
    labels = ordered(f"{r['implementation']}, {r['keys']}" for r in t.rows)
    pages = ordered(r["pages"] for r in t.rows)

    def figure():
        fig, axes = draw.figure(1, 1, width=8.6, height=0.28 * len(labels) + 1.4)
        ax = axes[0][0]
        draw.log_axis(ax, "x")
        look = draw.colour_map(pages)
        for j, pg in enumerate(pages):
            rs = [r for r in t.rows if r["pages"] == pg]
            ys = [labels.index(f"{r['implementation']}, {r['keys']}") + (j - 0.5 * (len(pages) - 1)) * 0.18 for r in rs]
            x, lo, hi = col(rs, "ns_median"), col(rs, "ns_min"), col(rs, "ns_max")
            err = [[max(a - b, 0) for a, b in zip(x, lo)], [max(b - a, 0) for a, b in zip(x, hi)]]
            colour, marker = look[pg]
            line = ax.errorbar(x, ys, xerr=err, color=colour, marker=marker, linestyle="none",
                               label="huge pages" if pg == "huge" else ("4 KiB pages" if pg == "small" else pg)).lines[0]
            line.set_gid(draw.SERIES)
        ax.set_yticks(range(len(labels)))
        ax.set_yticklabels(labels)
        ax.invert_yaxis()
        ax.set_xlabel("ns per key (median; bars: least and most of the timings)")
        ax.set_title("Seed 002's loop at 10⁹ items in 1.2 GB, one thread")
        draw.legend_outside(ax)
        return fig
    return [draw.Plot("plain-lookup", "plain-lookup: ns per lookup of seed 002's filter by implementation", figure)]


# ---- word-sharing ----
def word_sharing_plot(t):
    """Inserted keys sharing words, over what independent words of the same width give,
    against keys: a panel per library whose words can collide at these counts."""
    libs = ordered(r["library"] for r in t.rows if num(r["shared_independent"]) >= 1)
    sets = ordered(r["key_set"] for r in t.rows)

    def figure():
        fig, axes = draw.figure(len(libs), 1, width=8.6, height=2.6, sharex=True)
        look = draw.colour_map(sets)
        for ax, lib in zip([a[0] for a in axes], libs):
            draw.log_axis(ax, "x")
            draw.log_axis(ax, "y")
            for s in sets:
                rs = sorted([r for r in t.rows if r["library"] == lib and r["key_set"] == s
                             and num(r["shared_independent"]) >= 1 and num(r["shared"]) > 0],
                            key=lambda r: num(r["keys"]))
                if rs:
                    ratio = [num(r["shared"]) / num(r["shared_independent"]) for r in rs]
                    draw.series(ax, s, look[s], col(rs, "keys"), ratio, line=len(rs) > 1, logy=True)
            draw.reference(ax, 1.0, "independent words")
            ax.set_title(f"{lib} ({text_bits(t, lib)}-bit words)")
            ax.set_ylabel("shared ÷ independent")
            draw.legend_outside(ax)
        axes[-1][0].set_xlabel("keys inserted")
        return fig
    return [draw.Plot("word-sharing", "word-sharing: inserted keys sharing hash words over independent words' count", figure)]


def text_bits(t, lib):
    return cell_text(next(r["word_bits"] for r in t.rows if r["library"] == lib))


TABLES = {
    "derive-cost": derive_table,
}
PLOTS = {
    "calculateparams": calculateparams_plot,
    "crossread": crossread_plot,
    "derive-cost": derive_plot,
    "plain-lookup": plain_lookup_plot,
    "word-sharing": word_sharing_plot,
}


def table_lines(t):
    return TABLES.get(t.name, full_table)(t)


def plots(t):
    f = PLOTS.get(t.name)
    return f(t) if f else []
