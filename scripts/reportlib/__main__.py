"""scripts/report [--in DIR] [--out DIR] [--no-plots] [--jobs N]: DIR/REPORT.md and
DIR/plots/*.png from the bloomsim tables in DIR (default results/; --out defaults to
--in). See scripts/report."""
import csv
import glob
import multiprocessing
import os
import re
import shutil
import sys

from . import markdown, sections, tsv
from .table import Table

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
USAGE = """usage: scripts/report [--in DIR] [--out DIR] [--no-plots] [--jobs N]
A report of the bloomsim tables in DIR (default results/: the committed tables): for each
NAME.csv with its NAME.meta, a section with the experiment's question, its tables in the
seeds' form, its provenance and its plots; then one for each benchmark's or tabulation's
NAME.tsv (libraries.tsv aside: the libraries table's notes). Writes OUT/REPORT.md and OUT/plots/*.png (OUT
defaults to DIR). The same tables give the same REPORT.md, byte for byte."""


def fail(msg):
    print("report: " + msg, file=sys.stderr)
    sys.exit(2)


def parse(argv):
    opts = {"in": None, "out": None, "plots": True, "jobs": os.cpu_count() or 1}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            print(USAGE)
            sys.exit(0)
        if a == "--no-plots":
            opts["plots"] = False
            i += 1
            continue
        if a in ("--in", "--out", "--jobs"):
            if i + 1 >= len(argv):
                fail(f"{a} needs a value")
            opts[a[2:]] = argv[i + 1]
            i += 2
            continue
        fail(f"unknown argument (got '{a}')")
    try:
        opts["jobs"] = int(opts["jobs"])
        assert opts["jobs"] >= 1
    except (ValueError, AssertionError):
        fail(f"--jobs takes a whole number of processes, at least 1 (got '{opts['jobs']}')")
    return opts


def description(path):
    """The description = value of an experiment file, with its continuation lines."""
    d, on = "", False
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^[ \t]*description[ \t]*=[ \t]*(.*)$", line)
            if m:
                d, on = m.group(1), True
            elif on and re.match(r"^[ \t]+[^ \t]", line):
                d += " " + line.strip(" \t")
            else:
                on = False
    return d


def slug(title, used):
    """The anchor GitHub gives a heading."""
    s = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
    n = used.get(s, 0)
    used[s] = n + 1
    return s if n == 0 else f"{s}-{n}"


def load(indir):
    """The experiments' tables (NAME.csv with NAME.meta), in the sections' order, then
    the benchmarks' and tabulations' (NAME.tsv but libraries.tsv), by name."""
    tables = []
    paths = sorted(glob.glob(os.path.join(indir, "*.csv"))) + \
        [p for p in sorted(glob.glob(os.path.join(indir, "*.tsv")))
         if os.path.basename(p)[: -len(".tsv")] not in tsv.NOT_TABLES]
    for path in paths:
        meta = path[: -len(".csv")] + ".meta"
        try:
            tables.append(Table(path, None if path.endswith(".tsv") else meta))
        except (OSError, UnicodeDecodeError, csv.Error) as e:  # one line, nothing written
            fail(f"cannot read {path}: {e}")
    order = {s.experiment: i for i, s in enumerate(sections.SECTIONS)}
    tables.sort(key=lambda t: (t.tsv, order.get(t.experiment, len(order)), t.name))
    return tables


def plots_of(t, ctx):
    if t.tsv:
        return tsv.plots(t) or sections.DEFAULT["generic"][0](t, ctx)
    known = {s.experiment: s for s in sections.SECTIONS}
    funcs = known[t.experiment].plots if t.experiment in known else sections.DEFAULT[markdown.kind_of(t)]
    return [p for f in funcs for p in f(t, ctx)]


def section(t, ctx, shown, display, libinfo):
    """A table's section: its lines, and the plots first shown in it."""
    if t.tsv:
        return tsv_section(t, ctx, shown, display)
    m = t.meta
    title = m.get("title", t.name)
    out = ["", "## " + title, ""]
    f = m.get("file", "")
    path = f if os.path.isabs(f) else os.path.join(ROOT, f)
    if f and os.path.isfile(path):
        out.append(description(path))
    kind = markdown.kind_of(t)
    known = {s.experiment: s for s in sections.SECTIONS}
    if t.experiment in known and known[t.experiment].tables:
        out += known[t.experiment].tables(t)
    elif kind == "library":
        out += markdown.library_table(t, markdown.read_libinfo(libinfo) if t.experiment == "libraries" and libinfo else None)
    else:
        out += markdown.TABLES[kind](t)
    out.append("")
    csv = os.path.join(display, t.name + ".csv")
    if m:
        out.append(f"Provenance: `{csv}` from `{f}` (FNV-1a {m.get('file_fnv1a64', '')}), seed "
                   f"{m.get('seed', '')}, {m.get('scale', '')} scale, bloomsim {m.get('version', '')}, "
                   f"{m.get('threads', '')} threads, {m.get('rows', '')} rows, run {m.get('start', '')} "
                   f"to {m.get('end', '')}.")
        if m.get("retabulated"):
            out.append(f"Intervals re-tabulated {m['retabulated']}.")
    else:
        out.append(f"Provenance: `{csv}`, {len(t.rows)} rows; no metadata (`{t.name}.meta` is missing).")
    lines, new = images_of(t, ctx, shown, title)
    return out + lines, new


def tsv_section(t, ctx, shown, display):
    """A benchmark's or tabulation's section: its # header lines, its table, the file."""
    title = tsv.title(t)
    out = ["", "## " + title, "", tsv.description(t)] + tsv.table_lines(t)
    out += ["", f"Provenance: `{os.path.join(display, t.name + '.tsv')}`, {len(t.rows)} rows; "
            "its header lines (above) say what made it, where and when."]
    lines, new = images_of(t, ctx, shown, title)
    return out + lines, new


def images_of(t, ctx, shown, title):
    """The plots of t, and those first shown here (drawn once): (lines, new plots)."""
    new = []
    images = []
    for p in plots_of(t, ctx):
        if p.stem in shown:
            images.append(f"Plotted with the heat map of \"{shown[p.stem]}\" above: "
                          f"[plots/{p.stem}.png](plots/{p.stem}.png).")
        else:
            shown[p.stem] = title
            images.append(f"![{p.alt}](plots/{p.stem}.png)")
            new.append(p)
    return ([""] + images if images else []), new


PLOTS = []  # (plot, path, table): what render(i) draws, shared with its worker processes


def render(i):
    """Draw plot i; a table whose values a plot cannot take names itself, on one line."""
    from . import draw
    p, path, t = PLOTS[i]
    try:
        draw.save(p.figure(), path)
    except (ValueError, KeyError, ZeroDivisionError, IndexError, TypeError) as e:
        return f"{t.path}: cannot draw plots/{p.stem}.png ({type(e).__name__}: {e})"
    return None


def draw_all(todo, outdir, jobs):
    """Every plot drawn into a scratch folder first, then moved into OUT/plots/: a plot
    that fails leaves nothing written."""
    pdir = os.path.join(outdir, "plots")
    scratch = os.path.join(outdir, ".plots.tmp")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    PLOTS[:] = [(p, os.path.join(scratch, p.stem + ".png"), t) for p, t in todo]
    if jobs > 1 and len(PLOTS) > 1:
        with multiprocessing.get_context("fork").Pool(min(jobs, len(PLOTS))) as pool:
            errors = list(pool.imap(render, range(len(PLOTS))))
    else:
        errors = [render(i) for i in range(len(PLOTS))]
    errors = [e for e in errors if e]
    if errors:
        shutil.rmtree(scratch, ignore_errors=True)
        fail(errors[0])
    os.makedirs(pdir, exist_ok=True)
    for p, path, _ in PLOTS:
        os.replace(path, os.path.join(pdir, p.stem + ".png"))
    os.rmdir(scratch)


def main(argv):
    opts = parse(argv)
    indir = opts["in"] or os.path.join(ROOT, "results")
    display = (opts["in"] or "results").rstrip("/") or "/"
    outdir = opts["out"] or indir
    if not os.path.isdir(indir):
        fail(f"--in {indir}: no such directory")
    tables = load(indir)
    if not tables:
        fail(f"--in {indir}: no bloomsim tables (NAME.csv)")
    libinfo = os.path.join(indir, "libraries.tsv")
    if not os.path.isfile(libinfo):
        libinfo = os.path.join(ROOT, "results", "libraries.tsv")
        libinfo = libinfo if os.path.isfile(libinfo) else None
    ctx = {}
    for t in tables:
        ctx.setdefault(t.experiment, []).append(t)
    lines = ["# bloomsim results", "",
             f"Regenerated by `scripts/report` from the tables in `{display}/` (bloomsim's CSV",
             "columns are described in docs/model.md). Each section gives the question, the tables",
             "in the form of the seed articles, the provenance of the run, and its plots.", ""]
    body, shown, todo, used, contents = [], {}, [], {}, []
    for t in tables:
        try:
            out, new = section(t, ctx, shown, display, libinfo)
        except ValueError as e:
            m = re.search(r"'(.*)'$", str(e))
            bad = m.group(1) if m else ""
            fail(f"{t.path}: {t.where(bad)}: not a number (got '{bad}')")
        except (KeyError, ZeroDivisionError, IndexError) as e:
            fail(f"{t.path}: a table its section cannot take ({type(e).__name__}: {e})")
        title = tsv.title(t) if t.tsv else t.meta.get("title", t.name)
        contents.append(f"- [{title}](#{slug(title, used)}) (`{t.name}`)")
        body += out
        todo += [(p, t) for p in new]
    lines += contents + body
    try:
        os.makedirs(outdir, exist_ok=True)
        if opts["plots"]:
            draw_all(todo, outdir, opts["jobs"])
        tmp = os.path.join(outdir, ".REPORT.md.tmp")
        with open(tmp, "w") as f:
            f.write("\n".join(lines) + "\n")
        os.replace(tmp, os.path.join(outdir, "REPORT.md"))
    except OSError as e:
        fail(f"cannot write into {outdir}: {e.strerror}")
    shown_out = (opts["out"] or display).rstrip("/")
    print(f"wrote {shown_out}/REPORT.md" + (f" and {len(todo)} plots in {shown_out}/plots/" if opts["plots"] else ""))


if __name__ == "__main__":
    main(sys.argv[1:])
