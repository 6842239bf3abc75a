"""The report's sections, declared: which plots each experiment's table gets, in the
report's order (the seeds' order, as the README's table of experiments). A section's
Markdown tables come from the kind of its table (markdown.kind_of: plain, blocked,
model, design, library, expandable, or generic where a table lacks its kind's columns).

To give a new experiment its own plots, add one line to SECTIONS:

    Section("my-experiment", [plots.rates]),

naming functions of plots.py (or heatmap.py) that take the table and return plots;
`lambda t, ctx: ...` when a plot draws several tables (ctx: every table of the report,
by experiment name). A table no line names still gets its section, placed after the
known ones in name order, with its kind's tables and DEFAULT[kind]'s plots."""
from . import heatmap, plots
from .markdown import growth_tables, keyset_ratios, split_table


class Section:
    """experiment: the name in the table's .meta (the file's name without .csv where it
    has none); plot_list: functions (table, ctx) -> [draw.Plot]; tables: a function
    table -> Markdown lines, where the kind's (markdown.TABLES) will not do."""

    def __init__(self, experiment, plot_list, tables=None):
        self.experiment, self.plots, self.tables = experiment, plot_list, tables


def rates(t, ctx):
    return plots.rates(t, "plain")


def rates_floor(t, ctx):
    return plots.rates(t, "plain", floor=True)


def rates_blocked(t, ctx):
    return plots.rates(t, "blocked", floor=True)


def one(f):
    """A function of plots.py that takes the table alone."""
    return lambda t, ctx: f(t)


def group(members):
    """The tables of members the report has, at the scale of t (a --quick table groups
    with quick ones)."""
    def tables(t, ctx):
        quick = t.name.endswith(".quick")
        return [x for n in members for x in ctx.get(n, []) if x.name.endswith(".quick") == quick]
    return tables


LIBRARIES = group(["libraries", "libraries-big", "libraries-2e9"])
REAL_KEYS = group(["real-keys", "real-keys-big"])


def suffix(t):
    return ".quick" if t.name.endswith(".quick") else ""


def libraries_heat(t, ctx):
    return [heatmap.libraries_heat(LIBRARIES(t, ctx), "libraries-heat" + suffix(t))]


def real_keys_heat(t, ctx):
    return [heatmap.keysets_heat(REAL_KEYS(t, ctx), "real-keys-heat" + suffix(t))]


def own_heat(t, ctx):
    """A libraries table of its own: its measured ÷ promised heat map, and its real keys'
    where it has some."""
    out = [heatmap.libraries_heat([t], t.name + "-heat")]
    if keyset_ratios(t)[4]:
        out.append(heatmap.keysets_heat([t], t.name + "-keys-heat"))
    return out


def families_table(t):
    """A row per filter and key count, a column per promise: measured ÷ promised with its
    95% interval, then bits per key (÷ log2(1/p)) and the places a lookup reads."""
    import math
    from .table import comma, num
    rows = [r for r in t.rows if r["design_rate"] != ""]
    name = plots.family_name
    rates = plots.ordered(r["design_rate"] for r in rows)
    keys = plots.ordered(r["design_keys"] for r in rows)
    names = plots.ordered(name(r) for r in rows)
    head = "| filter | keys | " + " | ".join(f"{100 * num(p):g}%: rate ÷ promise; bits/key (÷ log2 1/p); places"
                                            for p in rates) + " |"
    out = ["", "**Measured ÷ promised (95% interval); bits per key, every bit of the table "
           "counted, and its ratio to log2(1/p); places a lookup of an absent key reads (a Bloom "
           "filter's cache lines, a cuckoo filter's buckets, an xor filter's slots, a Ribbon filter's cache lines)**", "",
           head, "|---|---|" + "---|" * len(rates)]
    for n in names:
        for k in keys:
            cells = []
            for p in rates:
                r = next((x for x in rows if name(x) == n and x["design_keys"] == k and x["design_rate"] == p), None)
                if r is None:
                    cells.append("")
                    continue
                q, b = num(p), num(r["bits_per_key"])
                cells.append(f"{num(r['rate']) / q:.3g} ({num(r['ci_low']) / q:.3g}–{num(r['ci_high']) / q:.3g}); "
                             f"{b:.2f} ({b / math.log2(1 / q):.2f}); {num(r['places']):.2f}")
            out.append(f"| {n} | {comma(k)} | " + " | ".join(cells) + " |")
    return out


SECTIONS = [
    Section("exact-vs-formula", [rates]),
    Section("floor-4096", [rates_floor]),
    Section("floor-65536", [rates_floor]),
    Section("stride-zero", [rates_floor]),
    Section("strides", [rates_floor]),
    Section("cubic-gain", [rates_floor]),
    Section("hash-split", [lambda t, ctx: heatmap.splits_heat(t, t.name + "-heat")], split_table),
    Section("past-design", [one(plots.loads)]),
    Section("stack", [one(plots.loads)]),
    Section("stack-dials", [one(plots.loads)]),
    Section("expandable", [one(plots.expandable)]),
    Section("libraries-growth", [one(plots.growth)], tables=growth_tables),
    Section("guava", [one(plots.points)]),
    Section("hash32", [one(plots.points)]),
    Section("blocked", [rates_blocked, one(plots.designs)]),
    Section("split-block-sizing", [one(plots.designs)]),
    Section("libraries", [libraries_heat]),
    Section("libraries-big", [libraries_heat]),
    Section("libraries-2e9", [libraries_heat]),
    Section("library-reports", [one(plots.library_dots)]),
    Section("real-keys", [real_keys_heat]),
    Section("real-keys-big", [real_keys_heat]),
    Section("real-keys-reports", [lambda t, ctx: [heatmap.keysets_heat([t], t.name + "-heat")]]),
    Section("adapter-example", [one(plots.library_lines)]),
    Section("families", [one(plots.families)], tables=families_table),
]

# The plots of a table no section names, by its kind.
DEFAULT = {
    "plain": [rates],
    "blocked": [rates_blocked, one(plots.designs)],
    "design": [one(plots.loads)],
    "model": [one(plots.points)],
    "expandable": [one(plots.expandable)],
    "library": [own_heat],
    "generic": [one(plots.generic)],
}
