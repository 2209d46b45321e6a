#!/usr/bin/env python3
"""longfuncs.py [N] — functions of src/ longer than N lines (default 150),
longest first: a definition starts at a line that opens a top-level
function (not indented, ends with '{', has a '(') and ends at the next
line that is just '}'."""
import glob, re, sys
limit = int(sys.argv[1]) if len(sys.argv) > 1 else 150
rows = []
for path in sorted(glob.glob('src/*/*.c')):
    lines = open(path, encoding='utf-8', errors='replace').read().split('\n')
    start = name = cand = None
    for i, l in enumerate(lines):
        if start is None:
            if l and (l[0].isalpha() or l[0] == '_') and '(' in l and not l.startswith(('typedef', 'struct', 'enum')) \
                    and '=' not in l.split('(')[0]:
                m = re.search(r'(\w+)\s*\(', l)
                cand = (i, m.group(1) if m else '?')
            if cand and l.rstrip().endswith(';') and not l[:1].isspace():
                cand = None
            if cand and l.rstrip().endswith('{'):
                start, name = cand
                cand = None
        elif l == '}':
            n = i - start + 1
            if n > limit: rows.append((n, path, name))
            start = None
for n, p, f in sorted(rows, reverse=True): print(f'{n:5d}  {p}  {f}')
print(f'{len(rows)} functions over {limit} lines')
