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
from .markdown import keyset_ratios


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


SECTIONS = [
    Section("exact-vs-formula", [rates]),
    Section("floor-4096", [rates_floor]),
    Section("floor-65536", [rates_floor]),
    Section("stride-zero", [rates_floor]),
    Section("strides", [rates_floor]),
    Section("cubic-gain", [rates_floor]),
    Section("past-design", [one(plots.loads)]),
    Section("stack", [one(plots.loads)]),
    Section("stack-dials", [one(plots.loads)]),
    Section("expandable", [one(plots.expandable)]),
    Section("libraries-growth", [one(plots.growth)]),
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
