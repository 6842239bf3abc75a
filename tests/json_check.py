#!/usr/bin/env python3
"""json_check.py - check a command's --json output (tests/json.sh).

usage: json_check.py SCHEMA.md JSON [TEXT]
       json_check.py --coverage SCHEMA.md JSON...

Reads the schema from docs/json.md itself (one table per command: key, type, present,
meaning), so the check cannot drift from what users read. Parses JSON with Python's
json module and checks it against its command's table: every key documented, of its
documented type, and every key documented as present "always" there whenever the
object that holds it is. With TEXT (the same command's text output, same arguments and
seed), checks that every number the text prints is in the JSON (to the digits the text
shows), and that the JSON's rates are the text's: nothing the text shows is left out.
--coverage checks the other way: every key the schema documents appears in one of the
JSON files at least once (but those present "when the audit reports" them, which
audits add as they come to report them). Prints one line per failure; exits 1 on any.
"""
import json
import math
import re
import sys

TYPES = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
    "array of integers": lambda v: isinstance(v, list) and all(
        isinstance(x, int) and not isinstance(x, bool) for x in v),
    "array of strings": lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
    "array of objects": lambda v: isinstance(v, list) and all(isinstance(x, dict) for x in v),
}


def schema(path):
    """{command: {key: (types, always)}} from the markdown tables under '## `command`'."""
    out, section = {}, None
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^## `([^`]+)`", line)
        if m:
            section = out.setdefault(m.group(1), {})
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")] \
            if line.startswith("| `") else None
        if section is None or not cells:
            continue
        # "number\|null" in markdown: the pipe is escaped, so split left it whole
        line = line.replace("\\|", "\x00")
        cells = [c.strip().replace("\x00", "|") for c in line.strip().strip("|").split("|")]
        key, types, present = cells[0].strip("`"), cells[1].split("|"), cells[2]
        for t in types:
            if t not in TYPES:
                sys.exit(f"{path}: key {key}: unknown type '{t}'")
        section[key] = (types, present == "always")
    return out


def walk(obj, prefix=""):
    """(dotted key, value, parent key) for every member, arrays' elements as key[]."""
    for k, v in obj.items():
        key = prefix + k
        yield key, v, prefix[:-1]
        if isinstance(v, dict):
            yield from walk(v, key + ".")
        elif isinstance(v, list):
            for x in v:
                if isinstance(x, dict):
                    yield from walk(x, key + "[].")


def check_schema(doc, sec, fail):
    seen = {}
    for key, v, parent in walk(doc):
        seen.setdefault(key, []).append(parent)
        if key not in sec:
            fail(f"key {key} is not in docs/json.md's section")
            continue
        types, _ = sec[key]
        if not any(TYPES[t](v) for t in types):
            fail(f"key {key} = {v!r} is not {' or '.join(types)}")
    present = {k for k, _, _ in walk(doc)}
    objects = {""} | {k for k, v, _ in walk(doc) if isinstance(v, dict)}
    for key, (_, always) in sec.items():
        parent = key.rsplit(".", 1)[0] if "." in key else ""
        if always and "[]" not in key and parent in objects and key not in present:
            fail(f"key {key} is documented as always present but is missing")


NUM = re.compile(r"(?<![\w.^/-])[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?%?(?![\w^.])")


def numbers_of(obj, pool):
    """Every number in the JSON, and every number inside its strings."""
    if isinstance(obj, dict):
        for v in obj.values():
            numbers_of(v, pool)
    elif isinstance(obj, list):
        for v in obj:
            numbers_of(v, pool)
    elif isinstance(obj, bool) or obj is None:
        pass
    elif isinstance(obj, (int, float)):
        pool.append(obj)
    elif isinstance(obj, str):
        pool.extend(float(t.rstrip("%")) for t in NUM.findall(obj))


def half_ulp(token):
    """Half a unit in the last digit the token shows."""
    mant = re.match(r"[-+]?(\d+)(?:\.(\d+))?(?:e([-+]?\d+))?", token)
    frac = len(mant.group(2) or "")
    exp = int(mant.group(3) or 0)
    try:
        return 0.5 * 10.0 ** (exp - frac)
    except OverflowError:  # a word that reads as a huge number: a commit such as 904e957
        return math.inf


def shown(token, pool):
    """Whether the text's token is some JSON number to the digits it shows (a percent
    either as a fraction of 100 or as itself)."""
    t = token.rstrip("%")
    x, tol = float(t), half_ulp(t) * (1 + 1e-9) + 1e-300
    cands = [x, x / 100] if token.endswith("%") else [x]
    tols = [tol, tol / 100] if token.endswith("%") else [tol]
    for v in pool:
        for c, e in zip(cands, tols):
            if v == c or abs(v - c) <= e or abs(abs(v) - abs(c)) <= e:
                return True
    return False


# Numbers of the texts that are words, not results: "95% interval", "2^40", "eq. 3",
# "ln^2 2", "-ln P", the wall-clock line (timed separately in each run).
CONSTANTS = {"95%", "2", "3", "1", "64"}


def check_text(doc, text, fail):
    pool = []
    numbers_of(doc, pool)
    missing = []
    for line in text.splitlines():
        if line.lstrip().startswith("seconds"):
            continue
        for token in NUM.findall(line):
            if token in CONSTANTS or shown(token, pool):
                continue
            missing.append(f"{token} (in '{line.strip()}')")
    for m in missing:
        fail(f"the text's number {m} is not in the JSON")


def coverage(sch, files):
    seen = {}
    for path in files:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        seen.setdefault(doc["command"], set()).update(k for k, _, _ in walk(doc))
    bad = 0
    for command, sec in sch.items():
        for key, (types, _) in sec.items():
            if key not in seen.get(command, set()):
                print(f"docs/json.md: {command}: key {key} appears in no output tested")
                bad = 1
    return bad


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--coverage":
        return coverage(schema(sys.argv[2]), sys.argv[3:])
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    sch = schema(sys.argv[1])
    with open(sys.argv[2], encoding="utf-8") as f:
        raw = f.read()
    failures = []

    def fail(msg):
        failures.append(f"{sys.argv[2]}: {msg}")
    try:
        doc = json.loads(raw)
    except ValueError as e:
        print(f"{sys.argv[2]}: not JSON: {e}")
        return 1
    if not isinstance(doc, dict) or doc.get("command") not in sch:
        print(f"{sys.argv[2]}: not an object with a documented command")
        return 1
    check_schema(doc, sch[doc["command"]], fail)
    if len(sys.argv) == 4:
        with open(sys.argv[3], encoding="utf-8") as f:
            check_text(doc, f.read(), fail)
    for m in failures:
        print(m)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
