#!/usr/bin/env python3
"""layers.py [BUILD] — the calls between the library's files, read from the
object files (nm: which file defines each symbol, which files use it), so
that hand-written prototypes and inline headers cannot hide an arrow.
Prints the folder-to-folder arrows, every circle between files (strongly
connected components of more than one file), and the arrows that run up a
floor of FLOORS below.  Exit 1 if there is a circle."""
import collections, glob, os, subprocess, sys

BUILD = sys.argv[1] if len(sys.argv) > 1 else 'build'
# the floors, lowest first (docs/ARCHITECTURE.md)
FLOORS = [['util'], ['nn', 'hw', 'dlpm'], ['graph'], ['onnx', 'builders', 'features'],
          ['data', 'eval'], ['lm'], ['learn'], ['predict'], ['llm'], ['plan', 'json'], ['serve']]
floor = {d: i for i, ds in enumerate(FLOORS) for d in ds}

defs, uses = {}, collections.defaultdict(set)
objs = sorted(glob.glob(f'{BUILD}/obj/src/*/*.o'))
objs = [o for o in objs if '/src/cli/' not in o]
for o in objs:
    f = os.path.relpath(o, f'{BUILD}/obj')[:-2]
    out = subprocess.run(['nm', o], capture_output=True, text=True).stdout
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in 'TDBRV' and p[1].isupper():
            defs[p[2]] = f
        elif len(p) == 2 and p[0] == 'U':
            uses[f].add(p[1])
edges = collections.defaultdict(set)
for f, syms in uses.items():
    for s in syms:
        g = defs.get(s)
        if g and g != f:
            edges[f].add(g)

def folder(f): return f.split('/')[1]

# Tarjan's strongly connected components
idx, low, st, on, comps, n = {}, {}, [], set(), [], [0]
def sc(v):
    idx[v] = low[v] = n[0]; n[0] += 1; st.append(v); on.add(v)
    for w in edges.get(v, ()):
        if w not in idx: sc(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], idx[w])
    if low[v] == idx[v]:
        c = []
        while True:
            w = st.pop(); on.discard(w); c.append(w)
            if w == v: break
        comps.append(c)
sys.setrecursionlimit(10000)
for v in sorted(set(edges) | {g for s in edges.values() for g in s}):
    if v not in idx: sc(v)
circles = [sorted(c) for c in comps if len(c) > 1]

fe = collections.Counter()
up = []
for f, gs in edges.items():
    for g in gs:
        a, b = folder(f), folder(g)
        if a != b:
            fe[(a, b)] += 1
            if a in floor and b in floor and floor[b] > floor[a]: up.append((f, g))
print('folder arrows (calls between files):')
for (a, b), k in sorted(fe.items()): print(f'  {a:9s} -> {b:9s} {k}')
print(f'circles between files: {len(circles)}')
for c in circles: print('  ' + ' <-> '.join(c))
print(f'arrows up a floor: {len(up)}')
for f, g in sorted(up): print(f'  {f} -> {g}')
sys.exit(1 if circles else 0)
