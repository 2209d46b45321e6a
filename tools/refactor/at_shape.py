#!/usr/bin/env python3
"""at_shape.py — rewrite calls of the old fill-shaped indexed accessors into
the one shape of dlperf.h (a const pointer, NULL out of range), for code
written against the old shape (run after tools/refactor/rename_api.sh, which
gives the _at names):

    dlp_graph_node_at(g, i, &ni);      ->  ni = *dlp_graph_node_at(g, i);
    dlp_graph_tensor_at(g, i, &ti);    ->  ti = *dlp_graph_tensor_at(g, i);
    dlp_dataset_at(ds, i, &s);         ->  s = *dlp_dataset_at(ds, i);
    dlp_carbon_region_at(db, i, &id, &g, &src);   -> id = rg->id; ... (rg = the record)
    dlp_graph_symbol_at(g, i, &nm, &v);            -> nm = sy->name; v = sy->value;

Only statement calls are rewritten; a call whose status was tested is
printed as MANUAL (test the pointer for NULL instead).  Idempotent: the new
forms no longer match.  Usage: python3 tools/refactor/at_shape.py [FILES...]
(default: every .c file under src tests bench).
"""
import re, subprocess, sys
def carbon(m):
    ind, a, b = m.group(1), m.group(2), m.group(3)
    outs = [(o.strip()[1:], f) for o, f in zip(m.group(4).split(','), ('id', 'g_per_kwh', 'source')) if o.strip() != 'NULL']
    if len(outs) == 1: return '%s%s = dlp_carbon_region_at(%s, %s)->%s;' % (ind, outs[0][0], a, b, outs[0][1])
    return ind + 'const dlp_region *rg = dlp_carbon_region_at(%s, %s);' % (a, b) + ''.join('\n%s%s = rg->%s;' % (ind, o, f) for o, f in outs)

def symbol(m):
    ind, a, b, o1, o2 = m.groups()
    return '%sconst dlp_symbol *sy = dlp_graph_symbol_at(%s, %s);\n%s%s = sy->name;\n%s%s = sy->value;' % (ind, a, b, ind, o1, ind, o2)

fns=['dlp_graph_node_at','dlp_graph_tensor_at','dlp_dataset_at']
files = sys.argv[1:] or subprocess.check_output("grep -rlE 'dlp_(graph_node|graph_tensor|dataset|carbon_region|graph_symbol)_at\\(' src tests bench || true", shell=True, text=True).split()
for p in files:
    if p in ('src/graph/graph.c','src/data/dataset.c'): continue
    s=open(p).read(); changed=0
    for fn in fns:
        pos=0
        while True:
            k=s.find(fn+'(',pos)
            if k<0: break
            j=k+len(fn)+1; depth=1; args=[]; cur=j
            while depth:
                ch=s[cur]
                if ch in '([': depth+=1
                elif ch in ')]': depth-=1
                if (ch==',' and depth==1) or depth==0:
                    args.append(s[j:cur].strip()); j=cur+1
                cur+=1
            pre=s[:k].rstrip(' \t')
            stmt = (pre.endswith('\n') or pre.endswith('{') or pre.endswith(';') or pre.endswith(')')) and s[cur:cur+1]==';'
            # ')' before: e.g. "for (...) fn(...);" or "if (x) fn(...);"
            if len(args)==3 and args[2].startswith('&') and stmt:
                new='%s = *%s(%s, %s)'%(args[2][1:],fn,args[0],args[1])
                s=s[:k]+new+s[cur:]; pos=k+len(new); changed+=1
            else:
                if len(args)==3: print('MANUAL %s: %s'%(p, s[k:cur]))
                pos=cur
    s2 = re.sub(r'( *)dlp_carbon_region_at\(([^,()]+), ([^,()]+), ([^)]*)\);', carbon, s)
    s2 = re.sub(r'( *)dlp_graph_symbol_at\(([^,()]+), ([^,()]+), &(\w+), &(\w+)\);', symbol, s2)
    if s2 != s: changed += 1
    if changed: open(p,'w').write(s2); print(p,changed)
