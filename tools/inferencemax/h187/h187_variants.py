#!/usr/bin/env python3
"""h187_variants.py ROWS.csv (issue 22, h187; docs/llm.md; ROWS.csv as h187_tab.py's)

Two readings of the TensorRT-LLM attention-DP prefill workers' TTFT tried on
the dump, not compiled in (both worse on the headline):
  (a) the step in flight holds at least one whole prompt on a rank: the
      library's 0.9 x 0.5 x step term with max(step, lone prompt);
  (b) (a) and the first wave in the recipe's steps: ceil(C / (N k)) steps of
      trt_step_k in place of the library's burst (weight 1 / 10).
Prints silicon TTFT over the rows (main, (a), (b)) and the TensorRT-LLM
prefill rows by GPU and by GPU x ISL x format: MAPE and median."""
import csv, math, os, statistics as st, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from collections import defaultdict
from h187_tab import lib_queue_ms
rows=list(csv.DictReader(open(sys.argv[1])))
rec={r['recipe']:r for r in csv.DictReader(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'trt_prefill.csv')))}
W=10
res=defaultdict(lambda:[[],[],[]])
allb=[];alln=[]
for i,r in enumerate(rows):
    if r['set']!='silicon' or r['phase']=='2': continue
    if r['y_0']=='nan' or r['a_0']=='nan': continue
    a0=float(r['a_0']);y=float(r['y_0'])
    new=a0; new2=a0
    if r['phase']=='1' and r['backend']=='trtllm' and int(r['dp'])>1:
        C=float(r['conc']);S=float(r['isl']);tb=float(r['ttft_burst_ms']);pf=float(r['prefill_ms'])
        bstep=min(C*S, math.floor(8192.0/S)*S) if S<=8192 else min(C*S,8192.0)
        n_it=math.ceil(C*S/bstep); bi=2*tb/(n_it+1)
        if C>1: new=a0+0.9*0.5*max(0,pf-bi)
        rp=rec.get(r['recipe'])
        if rp and C>1:
            N=int(r['dp']);k=max(1,min(int(rp['max_batch_size']),int(rp['max_num_tokens'])//int(S),16))
            tk=float(r['trt_step_%d'%k]); nit=math.ceil(C/(N*k))
            burst=tk*(nit+1)/2
            new2=a0-tb/W+burst/W+0.9*0.5*max(0,max(pf,bi)-bi)
    allb.append(abs(a0/y-1)); alln.append((abs(new/y-1),abs(new2/y-1)))
    if r['phase']=='1' and r['backend']=='trtllm':
        for key in ('trt pf',r['system'],r['system']+' '+r['isl']+' '+r['quant'][:5]):
            res[key][0].append(a0/y);res[key][1].append(new/y);res[key][2].append(new2/y)
m=lambda v:100*sum(abs(x-1) for x in v)/len(v)
print('silicon TTFT all %.2f -> resid %.2f  -> +burst %.2f'%(100*sum(allb)/len(allb),100*sum(x[0] for x in alln)/len(alln),100*sum(x[1] for x in alln)/len(alln)))
for k,(b,n,n2) in sorted(res.items()):
    print('%-28s %4d %.1f -> %.1f -> %.1f   med %.2f %.2f %.2f'%(k,len(b),m(b),m(n),m(n2),st.median(b),st.median(n),st.median(n2)))
