#!/usr/bin/env python3
"""results_intervals.py [CSV...] - every committed result row's interval is honest
(docs/model.md, "Standard errors and intervals"): for each lookups row of results/*.csv
and of the finished rows of a run committed while under way, results/*.csv.partial (or
the tables named), the rate is its counts' (false_positives / lookups), its standard
error is at least the binomial one those counts imply, sqrt(rate (1 - rate) / lookups),
its interval holds the rate, and the interval is never of zero width while false
positives were seen. Conditional rows (exact per-filter rates) and the stacks and chains
measured by lookups (their rates combine each layer's) have no binomial floor; only their
interval is checked. Prints one line per offending row and exits 1 if there
is one (or if no table has a lookups row)."""
import csv
import glob
import math
import sys

SLACK = 1e-9  # relative: rounding in the last printed digit, no more


def check(path):
    bad = []
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or "estimator" not in rows[0]:
        return 0, bad
    n = 0
    for i, r in enumerate(rows, start=2):
        where = f"{path}:{i} ({r.get('library') or r['scheme']}, m = {r['m']})"
        rate, lo, hi = float(r["rate"]), float(r["ci_low"]), float(r["ci_high"])
        tol = 1e-15 + SLACK * abs(rate)
        if not lo - tol <= rate <= hi + tol:
            bad.append(f"{where}: rate {rate} outside its interval [{lo}, {hi}]")
        if r["estimator"] != "lookups":
            continue
        if r["lookups"] == "" and r.get("layers", "") != "":
            # A stack or chain measured by lookups: its rate combines its layers' rates
            # (docs/model.md, Stacks), no counts of its own; its interval is its spread's.
            if float(r["ci_high"]) <= float(r["ci_low"]) and rate > 0:
                bad.append(f"{where}: a zero-width interval at rate {rate}")
            continue
        n += 1
        lookups, fp, se = float(r["lookups"]), float(r["false_positives"]), float(r["stderr"])
        if lookups <= 0:
            bad.append(f"{where}: a lookups row with {r['lookups']} lookups")
            continue
        if abs(fp / lookups - rate) > tol:
            bad.append(f"{where}: rate {rate} is not its counts' {fp:.0f}/{lookups:.0f}")
        floor = math.sqrt(rate * (1 - rate) / lookups)
        if se < floor * (1 - SLACK):
            bad.append(f"{where}: stderr {se:.4g} below the binomial {floor:.4g} of its counts")
        if fp > 0 and hi <= lo:
            bad.append(f"{where}: a zero-width interval with {fp:.0f} false positives")
    return n, bad


def main():
    committed = glob.glob("results/*.csv") + glob.glob("results/*.csv.partial")
    files = sys.argv[1:] or sorted(committed)
    total, offending = 0, []
    for path in files:
        n, bad = check(path)
        total += n
        offending += bad
    for line in offending:
        print(line)
    print(f"{total} lookups rows in {len(files)} tables; {len(offending)} offending")
    return 1 if offending or total == 0 else 0


sys.exit(main())
