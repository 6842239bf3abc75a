#!/usr/bin/env python3
# includes.py - the shape of src/ and tests/:
#  - Stages. src/ is a stack of folders (src/meson.build lists them bottom up, cli/ last):
#    a file includes headers of its own folder and of folders below it, never above.
#  - Modules. A module is a file stem within its folder (src/run/store.h with
#    src/run/store.c; a source with no header of its own, like estimate/est_lookups.c, is
#    a module that nothing includes). Module A uses B when a file of A includes a header
#    of B. The graph of uses must have no cycle: each module can be read knowing only
#    those below it. No grouping hides one (a file's name says nothing of its module).
#  - Headers. Every header of src/ is compiled alone (tests/meson.build's list).
#  - Sizes, in src/ and tests/: a file has at most 600 lines, a function at most 80 and
#    at most 8 parameters, unless a comment says why in a line with "long:" (at the top of
#    the file, or above the function: a table of data, a long derivation, an API whose
#    parameters are one record).
# Prints what it checked; exits 1 when anything failed.
import os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.normpath(os.path.join(here, '..'))
root = os.path.join(top, 'src')

def stages():
    text = open(os.path.join(root, 'meson.build'), encoding='utf-8').read()
    m = re.search(r"foreach\s+stage\s*:\s*\[([^\]]*)\]", text)
    order = re.findall(r"'([^']+)'", m.group(1)) if m else []
    order += re.findall(r"^subdir\('([^']+)'\)", text, re.M)
    return order

order = stages()
rank = {s: i for i, s in enumerate(order)}

def walk(d, exts):
    out = []
    for base, _, names in os.walk(d):
        if 'node_modules' in base:
            continue
        out += [os.path.join(base, n) for n in sorted(names) if n.endswith(exts)]
    return sorted(out)

files = walk(root, ('.c', '.h'))
fail = 0

def folder(rel):
    return rel.split('/')[0] if '/' in rel else ''

for f in files:
    rel = os.path.relpath(f, root)
    if folder(rel) not in rank:
        print(f"FAIL: src/{rel} is in no stage of src/meson.build")
        fail = 1

uses = {}
for f in files:
    rel = os.path.relpath(f, root)
    m = os.path.splitext(rel)[0]
    for n, line in enumerate(open(f, encoding='utf-8'), 1):
        inc = re.match(r'\s*#\s*include\s+"([^"]+)\.h"', line)
        if not inc or inc.group(1) in ('config', 'version'):
            continue
        target = inc.group(1)
        if not os.path.exists(os.path.join(root, target + '.h')):
            print(f"FAIL: src/{rel}:{n}: includes {target}.h, not a path under src/")
            fail = 1
            continue
        a, b = folder(rel), folder(target)
        if a in rank and b in rank and rank[b] > rank[a]:
            print(f"FAIL: src/{rel}:{n}: {a}/ includes {target}.h of {b}/, a later stage")
            fail = 1
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
print(f"{len(order)} stages, {len(uses)} modules, {sum(len(u) for u in uses.values())} uses")
for c in cycles:
    print("FAIL: include cycle among " + ", ".join(c))
    fail = 1

# Every header compiled alone.
tm = open(os.path.join(here, 'meson.build'), encoding='utf-8').read()
alone = set()  # every `foreach h : [...]` list (the json-c headers have their own)
for m in re.finditer(r"foreach\s+h\s*:\s*\[([^\]]*)\]", tm):
    alone |= set(re.findall(r"'([^']+)'", m.group(1)))
for f in files:
    rel = os.path.relpath(f, root)
    if rel.endswith('.h') and rel[:-2] not in alone:
        print(f"FAIL: src/{rel} is not in tests/meson.build's headers compiled alone")
        fail = 1

# Sizes. A function starts at a line that opens its body at column 0 after the lines that
# name it (its signature, from the line after the last blank, comment or ';'/'}' line),
# and ends at the next '}' at column 0.
def comment_above(lines, j):
    """The comment block ending just above line j (the signature's first line)."""
    k = j - 1
    out = []
    while k >= 0 and lines[k].strip().startswith(('/*', '*', '//')):
        out.append(lines[k])
        if lines[k].strip().startswith(('/*', '//')) and not lines[k - 1].strip().startswith('//'):
            break
        k -= 1
    return out

def params(sig):
    s = sig[sig.find('(') + 1:sig.rfind(')')]
    s = re.sub(r'\([^()]*\)', '', re.sub(r'\([^()]*\)', '', s))  # function pointers
    s = s.strip()
    if not s or s == 'void':
        return 0
    return s.count(',') + 1

checked = walk(root, ('.c', '.h')) + walk(here, ('.c', '.h', '.cc', '.java', '.js', '.py', '.sh'))
for f in checked:
    lines = open(f, encoding='utf-8').read().split('\n')
    rel = os.path.relpath(f, top)
    head = '\n'.join(lines[:40])
    if len(lines) > 601 and 'long:' not in head:
        print(f"FAIL: {rel} has {len(lines) - 1} lines (at most 600 without a 'long:' reason)")
        fail = 1
    if not f.endswith(('.c', '.h', '.cc')):
        continue
    start = None
    for i, line in enumerate(lines):
        if line == '{' and i > 0:
            start = i
            j = i - 1
            while j > 0 and lines[j - 1].strip() and not lines[j - 1].rstrip().endswith(
                    ('*/', ';', '}', '{')) and not lines[j - 1].startswith(('#', '//')):
                j -= 1
            sig = ' '.join(l.strip() for l in lines[j:i])
            why = any('long:' in c for c in comment_above(lines, j))
            if '(' in sig and params(sig) > 8 and not why:
                print(f"FAIL: {rel}:{j + 1}: {sig[:60]}... takes {params(sig)} parameters "
                      "(at most 8 without a 'long:' reason in its comment)")
                fail = 1
        elif line.startswith('}') and start is not None:
            length = i - start + 1
            if length > 80 and not why:
                print(f"FAIL: {rel}:{start}: {lines[start - 1].strip()[:60]}... has {length} "
                      "lines (at most 80 without a 'long:' reason in its comment)")
                fail = 1
            start = None
print("stages in order, no include cycles; files and functions within their sizes"
      if not fail else "")
sys.exit(fail)
