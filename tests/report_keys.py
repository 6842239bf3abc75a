#!/usr/bin/env python3
"""report_keys.py CSV MARKDOWN - the report's "Real keys against ideal words" table
(scripts/reportlib/markdown.py) checked against a real-keys table read here with Python's csv
module: a row for every library and design with an ideal-words row, and each cell the
key set's rate over the ideal words' rate, to the digits the cell shows, starred exactly
where the two rates differ by more than 3 standard errors."""
import csv
import math
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
md = open(sys.argv[2]).read().splitlines()
start = next(i for i, l in enumerate(md) if l.startswith("**Real keys against ideal words**"))
head = md[start + 2].strip("|").split("|")
kinds = [h.strip() for h in head[4:]]
table = []
for l in md[start + 4:]:
    if not l.startswith("|"):
        break
    table.append([c.strip() for c in l.strip("|").split("|")])

rate, libs, designs = {}, [], []
for r in rows:
    lib, kind = r["library"], "ideal"
    if "; keys " in lib:
        lib, rest = lib.split("; keys ", 1)
        kind = rest.split(" ")[0].split(";")[0]
    d = (r["design_keys"], r["design_rate"])
    libs += [lib] if lib not in libs else []
    designs += [d] if d not in designs else []
    rate[lib, d, kind] = (float(r["rate"]), float(r["stderr"]))

# A row per library (in order of first appearance), then per design, with ideal words.
want = [(lib, d) for lib in libs for d in designs if (lib, d, "ideal") in rate]
fails, checked = 0, 0
if len(table) != len(want):
    print(f"FAIL: {len(table)} rows, want {len(want)}, one per library and design with ideal words")
    fails += 1
for (lib, d), cells in zip(want, table):
    if cells[0] != f"`{lib}`":
        print(f"FAIL: row {cells[0]}, want `{lib}`"); fails += 1; continue
    a, sa = rate[lib, d, "ideal"]
    for kind, cell in zip(kinds, cells[4:]):
        if (lib, d, kind) not in rate:
            if cell:
                print(f"FAIL: {lib} {d} {kind}: {cell} for no row"); fails += 1
            continue
        x, sx = rate[lib, d, kind]
        shown = cell.split(" ± ")[0]
        dec = len(shown.split(".")[1]) if "." in shown else 0
        if a > 0 and abs(float(shown) - x / a) > 0.5 * 10 ** -dec + 1e-12:
            print(f"FAIL: {lib} {d} {kind}: {cell}, want {x / a}"); fails += 1
        z = (x - a) / math.sqrt(sa * sa + sx * sx) if sa or sx else 0
        if (abs(z) > 3) != cell.endswith("*"):
            print(f"FAIL: {lib} {d} {kind}: {cell} with z = {z:.2f}"); fails += 1
        checked += 1
if checked == 0:
    print("FAIL: no cell checked"); fails += 1
print(f"{checked} cells checked, {fails} failed")
sys.exit(1 if fails else 0)
