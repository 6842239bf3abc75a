"""A table's Markdown in the seeds' form, one function per kind of table (which kind a
table is: kind_of). Each returns the lines that follow the section's description.

Plain sweeps: one table per filter size, bits per key down the side, schemes across,
each cell the ratio of the measured rate to the formula with its standard error.
Designs and stacks: one table per design rate, keys inserted down the side, each
structure and scheme across, each cell the rate in percent with its standard error.
Experiments with a model column (guava, hash32: a few big points, several sweeps): one
table per point, a row per scheme, the rate beside the formula and the model.
Experiments with fingerprint filters (expandable): keys down the side, each structure
across, the rate, then bits per key and places a lookup consults; a second sweep's rows
against their exact rates.
Sweeps of libraries: a row per library, a column per design; with real keys (issue 22)
also each key set's rate over the library's ideal-word rate (keyset_table).
Any other table (no kind's columns): generic_table."""
import math

from .table import comma, design_label, num, pm, ratio_se, sig, split_library, text

# The columns each kind reads; a table that lacks one is drawn as generic.
NEEDS = {
    "plain": ["scheme", "m", "n", "k", "bits_per_key", "rate", "stderr", "ci_low", "ci_high",
              "formula", "exact", "ratio_formula", "rate_times_m"],
    "design": ["scheme", "n", "design_keys", "design_rate", "load", "rate", "stderr",
               "first_capacity", "growth", "tightening", "layers", "bits_ratio",
               "rate_over_design"],
    "model": ["scheme", "m", "n", "k", "bits_per_key", "filters", "lookups", "rate", "stderr",
              "formula", "ratio_formula", "model", "ratio_model", "design_keys"],
    "blocked": ["scheme", "block_bits", "m", "bits_per_key", "k", "design_keys", "design_rate",
                "rate", "stderr", "formula", "scheme_exact", "ratio_formula", "rate_over_design"],
    "library": ["library", "design_keys", "design_rate", "rate", "stderr", "ci_low", "ci_high",
                "rate_over_design"],
    "expandable": ["structure", "expansions", "scheme", "n", "load", "rate", "stderr",
                   "bits_per_key", "places", "refused", "design_keys", "design_rate",
                   "first_capacity", "growth", "tightening", "estimator", "filters", "exact",
                   "z_exact"],
}


def kind_of(t):
    """The kind of table t, from its columns: expandable (fingerprint filters, issue 21),
    library (issue 12), blocked (issue 11), model, plain (no design), design; generic
    where a table lacks the columns its kind reads (or has no rows)."""
    if not t.rows:
        return "generic"
    if t.has("expansions"):
        kind = "expandable"
    elif "library" in t.columns and t.rows[0]["library"] != "":
        kind = "library"
    elif t.has("block_bits"):
        kind = "blocked"
    elif t.has("model"):
        kind = "model"
    elif "design_keys" in t.columns and t.rows[0]["design_keys"] == "":
        kind = "plain"
    else:
        kind = "design"
    return kind if all(c in t.columns for c in NEEDS[kind]) else "generic"


def header(cols):
    return ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]


def row(cells):
    """A table row; an empty cell keeps its two spaces, as the awk engine wrote it."""
    return "|" + "".join(" " + c + " |" for c in cells)


# ---- plain sweeps ----
def plain_points(t):
    """The filter sizes of a plain sweep: a point starts at each row of the first
    scheme; a new size starts where bits per key stops increasing. A size is labelled by
    the largest m of its first point (schemes that round the size, prime or slices, only
    ever use fewer bits). Returns (sizes, points, where): sizes[i] the label, points[i]
    the first scheme's rows, where[row index] = (size index, point index)."""
    first = t.rows[0]["scheme"]
    sizes, points, where = [], [], []
    lastb = None
    for r in t.rows:
        if r["scheme"] == first:
            if lastb is None or num(r["bits_per_key"]) <= num(lastb):
                sizes.append(0)
                points.append([])
            lastb = r["bits_per_key"]
            points[-1].append(r)
        if len(points[-1]) == 1 and num(r["m"]) > sizes[-1]:
            sizes[-1] = int(num(r["m"]))
        where.append((len(sizes) - 1, len(points[-1]) - 1))
    return sizes, points, where


def plain_table(t):
    sizes, points, where = plain_points(t)
    schemes, cell = [], {}
    for r, (i, p) in zip(t.rows, where):
        if r["scheme"] not in schemes:
            schemes.append(r["scheme"])
        c = pm(r["ratio_formula"], ratio_se(r, "ratio_formula"))
        cell[i, p, r["scheme"]] = "0 (none seen)" if num(r["rate"]) == 0 else c
    out = []
    for i, m in enumerate(sizes):
        out += ["", f"**{comma(m)}-bit filter: the formula's promise, and how many times worse each "
                "scheme measured** (measured rate ÷ formula, ± one standard error)", ""]
        out += header(["bits per key", "k", "formula", "exact ÷ formula"] + schemes)
        for p, r in enumerate(points[i]):
            f = num(r["formula"])
            out.append(row([r["bits_per_key"], r["k"], "%.3g" % f, "%.4f" % (num(r["exact"]) / f)]
                           + [cell.get((i, p, s), "") for s in schemes]))
    return out


# ---- experiments with blocked schemes (blocked, split-block-sizing) ----
# A scheme is labelled with its block size (blocked/512). Plain rows: one table per
# filter size, bits per key down, schemes across, each cell the measured rate over the
# formula (± one standard error) and, in brackets, the scheme's exact rate over the
# formula. Designs: one table per run of design rates, a row per design: its size in
# bits per key, k, the measured rate and over the target, and the exact rate.
def block_label(r):
    return r["scheme"] + ("/" + r["block_bits"] if r["block_bits"] != "" else "")


def blocked_table(t):
    sizes, bits, labels, cell = [], {}, [], {}
    for r in t.rows:
        if r["design_keys"] != "":
            continue
        m, b, lab = num(r["m"]), r["bits_per_key"], block_label(r)
        if m not in sizes:
            sizes.append(m)
        if b not in bits.setdefault(m, []):
            bits[m].append(b)
        if lab not in labels:
            labels.append(lab)
        cell[m, b, lab] = pm(r["ratio_formula"], ratio_se(r, "ratio_formula")) + \
            " [" + "%.3g" % (num(r["scheme_exact"]) / num(r["formula"])) + "]"
    out = []
    for m in sizes:
        out += ["", f"**{comma(m)}-bit filter: each scheme's rate over the formula** (measured ± "
                "one standard error [exact ÷ formula])", ""]
        out += header(["bits per key"] + labels)
        for b in bits[m]:
            out.append(row([b] + [cell.get((m, b, lab), "") for lab in labels]))
    last, lastl = None, None
    for r in t.rows:
        if r["design_keys"] == "":
            continue
        if last is None or num(r["design_rate"]) >= num(last) or block_label(r) != lastl:
            out += ["", f"**Designs for {comma(r['design_keys'])} keys, {block_label(r)}** "
                    "(measured ± one standard error)", ""]
            out += header(["target", "bits per key", "k", "measured rate", "÷ target",
                           "exact rate", "exact ÷ target"])
        last, lastl = r["design_rate"], block_label(r)
        ex, target = num(r["scheme_exact"]), num(r["design_rate"])
        out.append("| %g | %.4g | %s | %s | %s | %.4g | %.3f |" % (
            target, num(r["bits_per_key"]), r["k"], pm(r["rate"], r["stderr"]),
            pm(r["rate_over_design"], ratio_se(r, "rate_over_design")), ex, ex / target))
    return out


# ---- points with a model ----
def model_table(t):
    out, lastkey = [], None
    for r in t.rows:
        key = (r["m"], r["n"], r["k"])
        if key != lastkey:
            # Rates in percent, or per million below 1 in 10,000.
            sc = 1e6 if num(r["formula"]) < 1e-4 else 100
            unit = "%" if sc == 100 else " ppm"
            design = ""
            if r["design_keys"] != "":
                design = ", designed for %s keys at %g" % (comma(r["design_keys"]), num(r["design_rate"]))
            out += ["", "**%s bits, %s keys (%s bits per key), k = %s%s** (± one standard error; "
                    "%s filters of %s lookups%s)" % (
                        comma(r["m"]), comma(r["n"]), "%.4g" % num(r["bits_per_key"]), r["k"], design,
                        r["filters"], comma(num(r["lookups"]) / num(r["filters"])),
                        "" if sc == 100 else "; ppm: per million"), ""]
            out += header(["scheme", "rate", "formula", "rate ÷ formula", "model", "rate ÷ model"])
            lastkey = key
        model = "%.4g%s" % (sc * num(r["model"]), unit) if r["model"] != "" else ""
        rm = pm(r["ratio_model"], ratio_se(r, "ratio_model")) if r["ratio_model"] != "" else ""
        out.append("| %s | %s%s | %.4g%s | %s | %s | %s |" % (
            r["scheme"], pm(sc * num(r["rate"]), sc * num(r["stderr"])), unit, sc * num(r["formula"]),
            unit, pm(r["ratio_formula"], ratio_se(r, "ratio_formula")), model, rm))
    return out


# ---- designs and stacks ----
def stack_label(r):
    """single, or the stack's first capacity/growth/tightening."""
    if r["first_capacity"] == "":
        return "single"
    return "stack " + r["first_capacity"] + "/" + r["growth"] + "/" + r["tightening"]


def design_table(t):
    rates, series, keys, load, cell = [], [], {}, {}, {}
    for r in t.rows:
        p = r["design_rate"]
        if p not in keys:
            rates.append((p, r["design_keys"]))
            keys[p] = []
        lab = stack_label(r) + " " + r["scheme"]
        if lab not in series:
            series.append(lab)
        if r["n"] not in keys[p]:
            keys[p].append(r["n"])
            load[p, r["n"]] = r["load"]
        v = pm(100 * num(r["rate"]), 100 * num(r["stderr"])) + "%"
        if r["first_capacity"] != "":
            v += ", " + r["layers"] + (" layer, " if num(r["layers"]) == 1 else " layers, ") + \
                "%.2f" % num(r["bits_ratio"]) + "× bits"
        else:
            v += " (" + "%.3g" % num(r["rate_over_design"]) + "× design)"
        cell[p, r["n"], lab] = v
    out = []
    for p, dk in rates:
        out += ["", f"**Designed for {comma(dk)} keys at {text(100 * num(p))}%: false-positive rate "
                "by keys inserted** (± one standard error)", ""]
        out += header(["keys", "load"] + series)
        for k in keys[p]:
            out.append(row([comma(k), "%.3g" % num(load[p, k]) + "×"] + [cell.get((p, k, s), "") for s in series]))
    return out


# ---- sweeps of libraries (libraries, library-reports) ----
def read_libinfo(path):
    """A TSV of bloomsim audit --list --tsv: name, scheme, sizing, hash, version, cause,
    report. Returns name to (version, hash, cause, report)."""
    info = {}
    if path:
        with open(path) as f:
            for line in f:
                fld = line.rstrip("\n").split("\t")
                if len(fld) >= 6:
                    info[fld[0]] = (fld[4], fld[3], fld[5], fld[6] if len(fld) > 6 else "")
    return info


def library_table(t, libinfo=None):
    """One table: a row per library, a column per design (keys and target rate), each
    cell the measured rate over the promise (± one standard error). With libinfo, first
    the summary "Do real libraries keep their promise?": per library its version, hash
    width, worst measured ÷ promised and where, the cause and the report."""
    libs, designs, labels, cell, worst = [], [], {}, {}, {}
    for r in t.rows:
        lib, d = r["library"], (r["design_keys"], r["design_rate"])
        if lib not in libs:
            libs.append(lib)
        if d not in labels:
            designs.append(d)
            labels[d] = design_label(r)
        ratio, se = r["rate_over_design"], num(r["stderr"]) / num(r["design_rate"])
        cell[lib, d] = pm(ratio, se)
        if lib not in worst or num(ratio) > num(worst[lib][0]):
            worst[lib] = (ratio, labels[d], se)
    out = []
    if libinfo is not None:
        out += ["", "### Do real libraries keep their promise?", "",
                "Each library at its own sizing and index arithmetic, with ideal hash words of its "
                "width: this measures the arithmetic and the sizing, never the hash function. "
                "Worst: the largest measured ÷ promised over the designs below (± one standard "
                "error).", ""]
        out += header(["library", "version followed", "hash", "worst measured ÷ promised", "where",
                       "cause", "known report"])
        for lib in libs:
            ver, hsh, cause, rep = libinfo.get(lib, ("", "", "", ""))
            w = worst[lib]
            out.append("| `%s` | %s | %s | %s | %s | %s | %s |" % (lib, ver, hsh, pm(w[0], w[2]), w[1], cause, rep))
    out += keyset_table(t, designs, labels)
    out += ["", "**Measured ÷ promised rate by design** (± one standard error)", ""]
    out += header(["library"] + [labels[d] for d in designs])
    for lib in libs:
        out.append(row(["`" + lib + "`"] + [cell.get((lib, d), "") for d in designs]))
    return out


def keyset_ratios(t):
    """Real keys (issue 22): per (library, design, key set) the key set's rate over the
    same library's rate on ideal hash words at the same design, its standard error, and
    z, the difference of the two rates in standard errors of the difference. Returns
    (libraries, key sets, hashes, ideal, ratios): ideal[(lib, d)] = (rate, stderr,
    target); ratios[(lib, d, kind)] = (ratio, se, z)."""
    libs, kinds, hashes, rate = [], [], {}, {}
    for r in t.rows:
        lib, kind, hsh = split_library(r["library"])
        d = (r["design_keys"], r["design_rate"])
        if hsh and lib not in hashes:
            hashes[lib] = hsh
        if lib not in libs:
            libs.append(lib)
        if kind not in kinds:
            kinds.append(kind)
        rate[lib, d, kind] = (num(r["rate"]), num(r["stderr"]), num(r["design_rate"]))
    ideal, ratios = {}, {}
    for (lib, d, kind), (x, sx, _) in rate.items():
        if kind == "ideal" or (lib, d, "ideal") not in rate:
            continue
        a, sa, _ = rate[lib, d, "ideal"]
        if a <= 0:
            continue
        ratio = x / a
        z = (x - a) / math.sqrt(sa * sa + sx * sx) if sa * sa + sx * sx > 0 else 0
        se = ratio * math.sqrt((sa / a) ** 2 + ((sx / x) ** 2 if x > 0 else 0))
        ratios[lib, d, kind] = (ratio, se, z)
    for (lib, d, kind), v in rate.items():
        if kind == "ideal":
            ideal[lib, d] = v
    return libs, [k for k in kinds if k != "ideal"], hashes, ideal, ratios


def keyset_table(t, designs, labels):
    """When a sweep has real keys: a row per library and design, the ideal words' rate
    over the promise, then each key set's rate over the ideal words' (± one standard
    error of the ratio; * where the two rates differ by more than 3 standard errors of
    their difference)."""
    libs, kinds, hashes, ideal, ratios = keyset_ratios(t)
    if not kinds:
        return []
    out = ["", "**Real keys against ideal words**: each key set's rate ÷ the same library's rate on "
           "ideal hash words at the same design (± one standard error; * where the two differ by "
           "more than 3 standard errors)", ""]
    out += header(["library", "hash", "design", "ideal words ÷ promised"] + kinds)
    for lib in libs:
        for d in designs:
            if (lib, d) not in ideal:
                continue
            a, sa, target = ideal[lib, d]
            line = "| `%s` | %s | %s | %s |" % (lib, hashes.get(lib, ""), labels[d], pm(a / target, sa / target))
            for kind in kinds:
                if (lib, d, kind) not in ratios:
                    line += " |"
                    continue
                ratio, se, z = ratios[lib, d, kind]
                line += " " + pm(ratio, se) + (" *" if abs(z) > 3 else "") + " |"
            out.append(line)
    return out


# ---- fingerprint filters beside the Bloom structures (expandable) ----
# The first sweep (rows until the keys inserted go back down): keys down, a column per
# structure (a Bloom structure with its scheme), the rate in percent (± one standard
# error; the keys refused where a filter refused some), then bits per key with the
# places a lookup consults. Later sweeps: each row against its exact rate.
def structure_label(r):
    st = r["structure"]
    if st == "stack":
        st = "stack " + r["first_capacity"] + "/" + r["growth"] + "/" + r["tightening"]
    return st if r["expansions"] != "" else st + " " + r["scheme"]


def expandable_sweeps(t):
    """Each row's sweep, 1 for the first: a sweep ends where the keys inserted go down."""
    sweep, last, out = 1, None, []
    for r in t.rows:
        if last is not None and num(r["n"]) < num(last):
            sweep += 1
        last = r["n"]
        out.append(sweep)
    return out


def expandable_table(t):
    sweeps = expandable_sweeps(t)
    series, keys, load, rate, bits = [], [], {}, {}, {}
    for r, s in zip(t.rows, sweeps):
        if s > 1:
            continue
        lab, k = structure_label(r), r["n"]
        if lab not in series:
            series.append(lab)
        if k not in keys:
            keys.append(k)
            load[k] = r["load"]
        v = pm(100 * num(r["rate"]), 100 * num(r["stderr"])) + "%"
        if r["refused"] != "" and num(r["refused"]) > 0:
            v += " (" + comma(r["refused"]) + " refused)"
        rate[k, lab] = v
        bits[k, lab] = "%.2f (%.3g)" % (num(r["bits_per_key"]), num(r["places"]))
    r0 = t.rows[0]
    out = ["", f"**Designed for {comma(r0['design_keys'])} keys at {text(100 * num(r0['design_rate']))}%: "
           "false-positive rate by keys inserted** (± one standard error)", ""]
    out += header(["keys", "× forecast"] + series)
    for k in keys:
        out.append(row([comma(k), "%.3g" % num(load[k])] + [rate.get((k, s), "") for s in series]))
    out += ["", "**Bits per key, with the places a lookup of an absent key consults** (metadata, "
            "extension slots and secondary tables counted)", ""]
    out += header(["keys", "× forecast"] + series)
    for k in keys:
        out.append(row([comma(k), "%.3g" % num(load[k])] + [bits.get((k, s), "") for s in series]))
    if max(sweeps) > 1:
        out += ["", "**Measured against the exact rate** (later sweeps: each row's estimator against "
                "the structure's exact rate, ± one standard error)", ""]
        out += header(["structure", "keys", "estimator", "filters", "rate", "exact", "z"])
        for r, s in zip(t.rows, sweeps):
            if s == 1:
                continue
            z = "" if r["z_exact"] == "" else "%+.2f" % num(r["z_exact"])
            ex = "(keys refused)" if r["exact"] == "" else sig(100 * num(r["exact"]), 4) + "%"
            out.append("| %s | %s | %s | %s | %s%% | %s | %s |" % (
                structure_label(r), comma(r["n"]), r["estimator"], r["filters"],
                pm(100 * num(r["rate"]), 100 * num(r["stderr"])), ex, z))
    return out


# ---- scalable filters as libraries ship them (libraries-growth) ----
# Each design (first capacity, promise) of the table: the rate by keys inserted, a column
# per chain, stack and rebuilt filter; then bits per key against the filter the library
# reserves for the keys, with the links a lookup asks; then every chain's and fingerprint
# chain's row against its exact rate (and its scheme's model where it has one).
def growth_label(r, tightened=()):
    """tightened: the chains given a tightening of their own (more than one in the table),
    whose label names it."""
    if r["structure"] == "chain" or (r["library"] and r["growth"]):  # a chain, compared or not
        label = r["library"]
        if num(r["growth"]):  # 0: the library takes no expansion (BoomFilters)
            label += f" E={text(num(r['growth']))}"
        if r["library"] in tightened:
            label += f" r={text(num(r['tightening']))}"
        return label
    if r["structure"] == "stack":
        first = num(r["bound"]) * (1 - num(r["tightening"]))
        return (f"seed 001 stack {comma(r['first_capacity'])}/{text(num(r['growth']))}/"
                f"{text(num(r['tightening']))}, first at {text(100 * first)}%")
    return r["structure"] or "filter"


def growth_tightened(t):
    """The chains given more than one tightening in the table (their labels name it)."""
    ratios = {}
    for r in t.rows:
        if r["structure"] == "chain":
            ratios.setdefault(r["library"], set()).add(r["tightening"])
    return {lib for lib, ts in ratios.items() if len(ts) > 1}


def growth_tables(t):
    tightened = growth_tightened(t)
    designs = []
    for r in t.rows:
        if (r["design_keys"], r["design_rate"]) not in designs:
            designs.append((r["design_keys"], r["design_rate"]))
    out = []
    for d in designs:
        rows = [r for r in t.rows if (r["design_keys"], r["design_rate"]) == d]
        series, keys, cell, bits = [], [], {}, {}
        for r in rows:
            lab, k = growth_label(r, tightened), r["n"]
            if (k, lab) in cell:  # two sweeps' rebuilt filters are alike
                continue
            if lab not in series:
                series.append(lab)
            if k not in keys:
                keys.append(k)
            v = pm(100 * num(r["rate"]), 100 * num(r["stderr"])) + "%"
            if r["refused"] != "" and num(r["refused"]) >= 0.5:
                v += " (" + comma(round(num(r["refused"]))) + (" swallowed)" if r["library"] else " refused)")
            cell[k, lab] = v
            b = "%.2f" % num(r["bits_per_key"])
            if r["bits_ratio"] != "":
                b += " (×%.2f" % num(r["bits_ratio"])
                asked = num(r["layers_consulted"]) if r["layers_consulted"] != "" else None
                b += ")" if asked is None else ", %.3g link%s)" % (asked, "" if asked == 1 else "s")
            bits[k, lab] = b
        keys.sort(key=num)
        p = num(d[1])
        for title, values in (
                (f"**First capacity {comma(d[0])}, promise {100 * p:.3g}%: false-positive rate by "
                 "keys inserted** (± one standard error; keys a chain swallowed as already present, "
                 "expected, or a filter refused)", cell),
                (f"**First capacity {comma(d[0])}: bits per key** (× the bits of the filter the "
                 "library reserves for the keys, or CalculateParams' at the promise for the stack and "
                 "the cuckoo chain; links a lookup of an absent key asks)", bits)):
            out += ["", title, ""] + header(["keys", "× first capacity"] + series)
            for k in keys:
                out.append(row([comma(k), "%.3g" % (num(k) / num(d[0]))]
                               + [values.get((k, s), "") for s in series]))
    out += ["", "**Measured against the exact rate** (the chains and the cuckoo chain: each row's "
            "estimator against the exact rate of its links' designs and loads with uniform probes, "
            "± one standard error, and the links' scheme's model where it has one)", ""]
    out += header(["structure", "first capacity", "keys", "estimator", "filters", "rate", "exact", "z",
                   "model"])
    for r in t.rows:
        if r["structure"] in ("stack", "rebuilt"):
            continue
        z = "" if r["z_exact"] == "" else "%+.2f" % num(r["z_exact"])
        ex = "" if r["exact"] == "" else sig(100 * num(r["exact"]), 4) + "%"
        md = "" if r["model"] == "" else sig(100 * num(r["model"]), 4) + "%"
        out.append(row([growth_label(r, tightened), comma(r["design_keys"]), comma(r["n"]),
                        r["estimator"], r["filters"],
                        pm(100 * num(r["rate"]), 100 * num(r["stderr"])) + "%", ex, z, md]))
    return out


# ---- any other table ----
GENERIC_ROWS = 60


def generic_table(t):
    """A table of a kind the report does not know: the columns every row shares once,
    then the columns that vary, a row per result row (the first GENERIC_ROWS)."""
    if not t.rows:
        return ["", "(no rows)"]
    same = [c for c in t.columns if len({r[c] for r in t.rows}) == 1 and t.rows[0][c] != ""]
    vary = [c for c in t.columns if len({r[c] for r in t.rows}) > 1 and c != "seconds"]
    out = [""]
    if same:
        out += ["Every row: " + ", ".join(f"{c} = {t.rows[0][c]}" for c in same) + ".", ""]
    shown = t.rows[:GENERIC_ROWS]
    out += ["**%s rows%s**" % (comma(len(t.rows)), "" if len(shown) == len(t.rows) else
                                 f", the first {len(shown)} shown"), ""]
    out += header(vary)
    for r in shown:
        out.append(row([cell_text(r[c]) for c in vary]))
    return out


def cell_text(v):
    """A field in a table cell: a number to 4 significant digits, text as it is."""
    try:
        x = float(v)
    except ValueError:
        return v.replace("|", "\\|")
    return v if v.lstrip("-").isdigit() else "%.4g" % x


TABLES = {"plain": plain_table, "blocked": blocked_table, "model": model_table,
          "design": design_table, "library": library_table, "expandable": expandable_table,
          "generic": generic_table}


def split_cells(t, b):
    """Hash splits (issue 39, experiment hash-split) at b bits per key: per (split or
    "ideal words", scheme) and (key set, m), the rate over the exact rate of independent
    probes (ratio_exact) with its standard error, and whether the rate departs from
    fill^k, the rate of independent probes given the filter's share of bits set, by more
    than 3 standard errors (clustering beyond what the fill explains; ideal rows: False).
    Returns (rows, cols, cells): cells[(row, col)] = (ratio, se, beyond)."""
    rows, cols, cells = [], [], {}
    for r in t.rows:
        if num(r["bits_per_key"]) != b:
            continue
        split, kind, _ = split_library(r["library"] or "ideal words")
        split = split.replace("split ", "")
        row, col = (split, r["scheme"]), (kind, int(num(r["m"])))
        if kind == "ideal":
            col = None
        if row not in rows:
            rows.append(row)
        beyond = False
        if r["fill"] != "":  # a rate of 1 has standard error 0: any departure counts
            model = num(r["fill"]) ** num(r["k"])
            beyond = abs(num(r["rate"]) - model) > max(3 * num(r["stderr"]), 1e-9)
        for c in ([col] if col else []) or [("ideal", int(num(r["m"])))]:
            if c not in cols:
                cols.append(c)
            cells[row, c] = (num(r["ratio_exact"]), ratio_se(r, "ratio_exact"), beyond)
    order = ["ideal", "seq", "seq-str", "url", "random", "uuid"]
    cols.sort(key=lambda c: (order.index(c[0]) if c[0] in order else 9, c[1]))
    return rows, cols, cells


def split_table(t):
    """The hash-split table: one Markdown table per bits per key, a row per (split,
    scheme), a column per (key set, m)."""
    out = []
    for b in sorted({num(r["bits_per_key"]) for r in t.rows}):
        k = next(r["k"] for r in t.rows if num(r["bits_per_key"]) == b)
        rows, cols, cells = split_cells(t, b)
        out += ["", f"Rate ÷ exact rate of independent probes at b = {text(b)} (k = {k}), ± one "
                "standard error; * where the rate departs from fill^k (independent probes given "
                "the filter's bits set) by more than 3 standard errors.", ""]
        out += header(["split", "scheme"] + [f"{c[0]} {comma(c[1])}" for c in cols])
        for key in rows:
            cs = []
            for c in cols:
                if (key, c) not in cells:
                    cs.append("")
                    continue
                v, se, beyond = cells[key, c]
                cs.append(pm(v, se) + (" *" if beyond else ""))
            out.append(row([f"`{key[0]}`", f"`{key[1]}`"] + cs))
    return out
