#!/usr/bin/env python3
"""TensorRT-LLM 0.11's GQA decode attention as XQA's blocks in waves (docs/llm.md, h210).

Reads the --rows dump of `bench/bench_llm.sh --serving infbench --analytic-only --no-trt-xqa --rows R.csv` (the
answers without the term, so the excess is what the term must explain) and, for the TP 1 TensorRT-LLM rows of the
GQA models at B 16 / 32 / 64 (Llama-3-8B, Mistral-7B: 8 KV heads of 128), takes the growth of the derived step from
the shortest to the longest prompt = output length (A100 B 64: to L 1,024; its L 2,048 row is cache-bound), adds our
own decode-attention growth at 0.85 of the bandwidth back (the measured attention's growth), and reads the rate
one XQA block streams at: ceil(B x 8 / SMs) waves x one KV head's K and V of one sequence per layer x 32 layers /
that growth, per SM clock.  Prints the pooled fit (median) and the fit leaving out each GPU and each model family,
scored as the mean |predicted growth / measured - 1| on the held-out pairs, beside the re-read form (growth = k x
ours, h206's prototype) fitted the same way.  Device figures (bandwidth, SMs, boost clock) are data/devices.json's.
Usage: python3 tools/infbench/trt_gqa_block_rate.py R.csv
"""
import csv
import math
import statistics as st
import sys
from collections import defaultdict
BW={'A100':1555e9,'H100':3350e9,'GH200':4000e9}; SM={'A100':108,'H100':132,'GH200':132}; CLK={'A100':1.41e9,'H100':1.98e9,'GH200':1.98e9}
cells=defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    if r['set']!='infbench' or r['backend']!='TensorRT-LLM' or r['y_4'] in ('','nan') or int(r['gpus'])!=1: continue
    s=[k for k in BW if k in r['system']]; m=r['model'].split('/')[-1]
    if not s or not any(x in m for x in ('Llama-3-8B','Mistral-7B')): continue
    G=int(r['osl']); 
    if G<2: continue
    exc=(float(r['y_4'])-float(r['a_4']))/(G-1)
    cells[(s[0],m,int(r['conc']))][int(r['isl'])]=exc
res=[]
for (s,m,B),d in sorted(cells.items()):
    if B<16: continue
    Ls=sorted(d); lo,hi=Ls[0],Ls[-1]
    if B==64 and s=='A100' and 1024 in d: hi=1024   # L 2048 at B 64 on A100: cache-bound, not this term
    ctx=lambda L:L+(L-1)/2.0
    db=(ctx(hi)-ctx(lo))*128*2*2   # one KV head's K+V of one sequence, one layer
    ours=B*db*8*32/(BW[s]*0.85)*1e3
    meas=d[hi]-d[lo]+ours          # measured growth of the step, ms
    waves=math.ceil(B*8/SM[s])
    rate=waves*db*32/(meas*1e-3)
    res.append((s,m,B,lo,hi,meas/ours,rate/CLK[s]))
    print('%-5s %-16s B %2d L %4d->%4d  growth meas/ours %.2f  rate %.1f B/SM-clk (waves %d)'%(s,m,B,lo,hi,meas/ours,rate/CLK[s],waves))
def fit(sel): return st.median([x[6] for x in sel])
def score(sel,bpc):
    errs=[]
    for s,m,B,lo,hi,mult,r in sel:
        errs.append(abs(bpc/r-1)) # predicted growth / measured - 1 (time inverse to rate)
    return 100*st.mean(errs)
allr=[x for x in res if x[0]!='GH200']
def mscore0(sel): return 100*st.mean([abs(1/x[5]-1) for x in sel])
print('pooled A100+H100 (0.11): %.1f B/clk, growth err %.1f%%'%(fit(allr),score(allr,fit(allr))))
for hold in ('A100','H100'):
    tr=[x for x in allr if x[0]!=hold]; te=[x for x in allr if x[0]==hold]; b=fit(tr)
    print(' hold out %s: fit %.1f, held-out growth err %.1f%% (own fit %.1f)'%(hold,b,score(te,b),fit(te)))
for hold in ('Llama','Mistral'):
    tr=[x for x in allr if hold not in x[1]]; te=[x for x in allr if hold in x[1]]; b=fit(tr)
    print(' hold out %s: fit %.1f, held-out growth err %.1f%%'%(hold,b,score(te,b)))
gh=[x for x in res if x[0]=='GH200']; print('GH200 (0.12) own: %.1f B/clk; with the 0.11 rate growth err %.1f%%'%(fit(gh),score(gh,fit(allr))))
print('re-read form (growth = k x ours, k fitted); no term at all (k = 1): err %.1f%%' % mscore0(allr))
def mscore(sel,k): return 100*st.mean([abs(k/x[5]-1) for x in sel])
k=st.median([x[5] for x in allr]); print(' pooled k %.2f err %.1f%%'%(k,mscore(allr,k)))
for hold in ('A100','H100'):
    tr=[x for x in allr if x[0]!=hold]; te=[x for x in allr if x[0]==hold]; k=st.median([x[5] for x in tr])
    print(' hold out %s: k %.2f, held-out err %.1f%%'%(hold,k,mscore(te,k)))
