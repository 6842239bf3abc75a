#!/usr/bin/env python3
# includes.py - the shape of src/: no import cycles between modules, and no file or
# function past its size without a stated reason.
#  - A module is a header and its sources (src/NAME.h, src/NAME.c; src/schemes/NAME.*,
#    src/libraries/NAME.*, src/cli/NAME.*). A file NAME_PART.* belongs to NAME when
#    NAME.h stands beside it (dist_mpi.c to dist, experiment_keys.* to experiment), and
#    the estimators' files (est_*.c) to estimator. Module A uses B when a file of A
#    includes a header of B. The graph of uses must have no cycle: each module can be
#    read knowing only those below it.
#  - A file has at most 600 lines, a function at most 80, unless the comment above it
#    says why in a line with "long:" (a table of data, a long derivation).
# Prints what it checked; exits 1 on the first kind of failure found.
import os, re, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src')
files = []
for d, _, names in os.walk(root):
    files += [os.path.join(d, n) for n in names if n.endswith(('.c', '.h'))]

def module(path):
    rel = os.path.relpath(path, root)
    stem = os.path.splitext(rel)[0]
    d, base = os.path.split(stem)
    if base.startswith('est_') and d == '':
        return 'estimator'
    if '_' in base:
        owner = os.path.join(d, base.split('_')[0])
        if os.path.exists(os.path.join(root, owner + '.h')):
            return owner
    return stem

uses = {}
for f in files:
    m = module(f)
    for line in open(f, encoding='utf-8'):
        inc = re.match(r'\s*#\s*include\s+"([^"]+)\.h"', line)
        if inc:
            if inc.group(1) in ('config', 'version'):
                continue
            target = module(os.path.join(root, inc.group(1) + '.h'))
            if target != m:
                uses.setdefault(m, set()).add(target)

# Tarjan's strongly connected components: a component of more than one module is a cycle.
index, low, stack, on, cycles, counter = {}, {}, [], set(), [], [0]
def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in sorted(uses.get(v, ())):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            cycles.append(sorted(comp))
sys.setrecursionlimit(10000)
for v in sorted(uses):
    if v not in index:
        visit(v)

fail = 0
print(f"{len(uses)} modules, {sum(len(u) for u in uses.values())} uses")
for c in cycles:
    print("FAIL: import cycle among " + ", ".join(c))
    fail = 1

# Sizes. A function starts at a line that opens its body at column 0 after a line that
# names it, and ends at the next '}' at column 0.
for f in sorted(files):
    lines = open(f, encoding='utf-8').read().split('\n')
    rel = os.path.relpath(f, os.path.join(root, '..'))
    head = '\n'.join(lines[:40])
    if len(lines) > 601 and 'long:' not in head:
        print(f"FAIL: {rel} has {len(lines) - 1} lines (at most 600 without a 'long:' reason)")
        fail = 1
    start = None
    for i, line in enumerate(lines):
        if line == '{' and i > 0:
            start = i
        elif line.startswith('}') and start is not None:
            length = i - start + 1
            if length > 80:
                # the comment just above the signature
                j = start - 1
                while j > 0 and not lines[j - 1].strip().endswith('*/') and lines[j - 1].strip():
                    j -= 1
                k = j - 1
                comment = []
                while k >= 0 and lines[k].strip().startswith(('/*', '*')):
                    comment.append(lines[k])
                    if lines[k].strip().startswith('/*'):
                        break
                    k -= 1
                if not any('long:' in c for c in comment):
                    name = lines[start - 1].strip()
                    print(f"FAIL: {rel}:{start}: {name[:60]}... has {length} lines (at most 80 "
                          "without a 'long:' reason in its comment)")
                    fail = 1
            start = None
print("no import cycles; files and functions within their sizes" if not fail else "")
sys.exit(fail)
