#!/usr/bin/env python3
"""gates.py BEFORE.csv AFTER.csv  (issue 22, h200; docs/llm.md)

BEFORE, AFTER as h200_tab.py's (AFTER with --trt-ctx-sim).  Where the played
context worker is let take over a TensorRT-LLM recipe prefill row, and the
silicon TTFT, prefill-worker and TensorRT-LLM prefill-worker MAPE that
gives (the other rows keep BEFORE's):
  k = 1 only; the predicted closed loop below its knee, C <= C* = N k /
  step_k x (Z + step_k), Z the predicted time away (0.9 osl x the decode
  row's predicted TPOT + the front end), and below half of it;
  [measured] gates, which read the runs' TTFT and TPOT and so can never
  predict: a slice's median or max rho <= 1, the row's own rho <= 1 (rho as
  h200_tab.py's).  The last group says what the played worker is worth
  where the library's step is not refuted by the rate the run served."""
import csv, math, os, statistics as st, sys
from collections import defaultdict
b=list(csv.DictReader(open(sys.argv[1]))); a=list(csv.DictReader(open(sys.argv[2])))
rec={r["recipe"]: r for r in csv.DictReader(open(__file__.rsplit("/", 2)[0] + "/h187/trt_prefill.csv"))}
info={}
slice_rho=defaultdict(list)
for i,(r,x) in enumerate(zip(b,a)):
    if r["phase"]!="1" or r["backend"]!="trtllm" or r["recipe"] not in rec or r['a_0']==x['a_0']: continue
    d, rp = b[i+1], rec[r["recipe"]]
    S,N=int(r["isl"]),max(1,int(r["dp"]))
    k=max(1,min(int(rp["max_batch_size"]),int(rp["max_num_tokens"])//S,16))
    key="%s %s %d N%d k%d"%(r["system"],r["quant"][:5],S,N,k)
    rho=float('nan')
    if d["y_1"]!="nan":
        lam=float(r["conc"])/(float(r["y_0"])+0.9*float(d["osl"])*float(d["y_1"]))
        rho=lam*float(r["trt_step_%d"%k])/(N*k)
        slice_rho[key].append(rho)
    stepk=float(r["trt_step_%d"%k]); Z=0.9*float(d["osl"])*float(d["a_1"])+float(r["req_ms"])
    knee=N*k/stepk*(Z+stepk)
    info[i]=(key,k,rho,float(r["conc"]),knee)
def mape(v): return 100*sum(abs(t-1) for t in v)/len(v)
gates={
 'none (main)':lambda i:False,
 'all (sim)':lambda i:True,
 'k=1 only':lambda i:info[i][1]==1,
 'predicted knee C<=C*':lambda i:info[i][3]<=info[i][4],
 'predicted knee C<=C*/2':lambda i:info[i][3]<=info[i][4]/2,
 '[measured] slice median rho<=1':lambda i:st.median(slice_rho[info[i][0]])<=1 if slice_rho[info[i][0]] else False,
 '[measured] slice max rho<=1':lambda i:max(slice_rho[info[i][0]])<=1 if slice_rho[info[i][0]] else False,
 '[measured] row rho<=1':lambda i:info[i][2]<=1,
}
for name,gt in gates.items():
    e=[];pf=[];tp=[]
    for i,(r,x) in enumerate(zip(b,a)):
        if r['phase']=='2' or r['y_0']=='nan' or r['a_0']=='nan': continue
        y=float(r['y_0']); v=float(x['a_0']) if (i in info and gt(i)) else float(r['a_0'])
        e.append(v/y)
        if r['phase']=='1': pf.append(v/y)
        if r['phase']=='1' and r['backend']=='trtllm': tp.append(v/y)
    n=sum(1 for i in info if gt(i))
    print("%-34s played %4d  silicon TTFT %.2f  prefill workers %.2f  TRT prefill %.2f"%(name,n,mape(e),mape(pf),mape(tp)))
