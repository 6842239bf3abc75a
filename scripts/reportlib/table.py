"""One bloomsim table (an experiment's NAME.csv, or a benchmark's or a tabulation's NAME.tsv
with its # header lines): its rows (read with Python's csv module; columns by header name,
docs/model.md), its metadata (NAME.meta, `key = value` lines) and the number formats the
report prints. The formats follow C's printf (Python's % operator is the same), and a
number turned into text is written as awk writes it (an integer as an integer, any other
as %.6g), so that the Markdown the report writes stays the same bytes from one run to
the next and from the awk engine this replaced."""
import csv
import math
import os


class Table:
    """rows: a list of dicts, column name to the text of the field ("" where empty)."""

    def __init__(self, path, meta_path=None):
        self.path = path
        self.tsv = path.endswith(".tsv")
        self.comments = []  # a TSV's header lines (# ...): what made it, where and when
        with open(path, newline="") as f:
            lines = f
            if self.tsv:
                lines = [line for line in f if not line.startswith("#")]
                f.seek(0)
                self.comments = [line[1:].strip() for line in f if line.startswith("#")]
            reader = csv.DictReader(lines, delimiter="\t" if self.tsv else ",")
            self.columns = reader.fieldnames or []
            self.rows = [{k: (v or "") for k, v in r.items() if k is not None} for r in reader]
        self.meta = {}
        if meta_path and os.path.exists(meta_path):
            with open(meta_path) as f:
                for line in f:
                    key, sep, value = line.rstrip("\n").partition(" = ")
                    if sep and key not in self.meta:
                        self.meta[key] = value
        self.name = os.path.basename(path)[: -len(".tsv" if self.tsv else ".csv")]
        self.experiment = self.meta.get("experiment", self.name)

    def has(self, column):
        """Whether the table has the column and any row a value in it."""
        return column in self.columns and any(r[column] != "" for r in self.rows)

    def where(self, value):
        """'line N, column C' of the first field holding value (the header is line 1)."""
        for i, r in enumerate(self.rows):
            for c in self.columns:
                if r.get(c) == value:
                    return f"line {i + 2}, column {c}"
        return "a field"


def num(s):
    """A field as a number ("" is 0, as in awk)."""
    if isinstance(s, (int, float)):
        return float(s)
    return float(s) if s.strip() != "" else 0.0


def text(x):
    """A number as awk prints it: an integer as an integer, any other as %.6g."""
    x = float(x)
    if math.isfinite(x) and x == int(x) and abs(x) < 1e16:
        return "%d" % x
    return "%.6g" % x


def comma(x):
    """An integer with thousands separators: 1,048,576."""
    s = "%.0f" % num(x)
    r = ""
    while len(s) > 3:
        r = "," + s[-3:] + r
        s = s[:-3]
    return s + r


def pm(v, se):
    """v ± se, both rounded to the standard error's first significant digit (two when
    it starts with 1)."""
    v = num(v)
    if se == "" or num(se) <= 0:
        return "%.4g" % v
    se = num(se)
    e = int(math.log(se) / math.log(10))
    if se < 10.0 ** e:
        e -= 1
    if se >= 10.0 ** (e + 1):
        e += 1
    dec = -e + (1 if se / 10.0 ** e < 2 else 0)
    if dec <= 0:
        unit = 10.0 ** (-dec)
        return "%.0f ± %.0f" % (int(v / unit + 0.5) * unit, int(se / unit + 0.5) * unit)
    return "%.*f ± %.*f" % (dec, v, dec, se)


def sig(x, n):
    """x to n significant digits, trailing zeros kept."""
    x = num(x)
    if x <= 0:
        return "0"
    e = int(math.log(x) / math.log(10))
    if x < 10.0 ** e:
        e -= 1
    return "%.*f" % (max(n - 1 - e, 0), x)


def keys_label(k):
    """10,000 or 100 M: a key count as a column heading."""
    k = num(k)
    return comma(k / 1e6) + " M" if k >= 1e6 and math.fmod(k, 1e6) == 0 else comma(k)


def ratio_se(r, ratio):
    """The standard error of a ratio to a fixed reference: ratio × stderr ÷ rate."""
    rate = num(r["rate"])
    return num(r[ratio]) * num(r["stderr"]) / (rate if rate > 0 else 1)


def design_label(r):
    """A design as a column heading: 100 M at 0.1%."""
    return keys_label(r["design_keys"]) + " at " + text(100 * num(r["design_rate"])) + "%"


def split_library(name):
    """A libraries table's row name: (library, key set, hash). A row named LIB alone had
    ideal hash words (key set "ideal"); "LIB; keys KIND ...; hash H" had key set KIND
    through the library's hash H."""
    i = name.find("; keys ")
    if i < 0:
        return name, "ideal", ""
    kind = name[i + 7:]
    for stop in (" ", ";"):
        kind = kind.split(stop)[0]
    j = name.find("; hash ")
    return name[:i], kind, name[j + 7:] if j >= 0 else ""
