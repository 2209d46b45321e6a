#!/usr/bin/env python3
"""partial_ranks.py ROWS.csv  (issue 22, h200; docs/llm.md)

ROWS.csv: DLP_ROWS_TRT_STEPS=1 bench_serving ... --rows (main's prices).
h187's Python play of the TensorRT-LLM context worker (h187_tab.py --sim)
twice: a step whose busiest rank holds j >= 2 prompts priced as j on every
rank (h187's and trt_ctx_sim_ms's upper bound), and at its lower bound, the
m prompts of the step spread evenly (m / N a rank, the step between the
neighbouring trt_step_j linearly).  Prints, per slice, MAPE main / upper /
lower: how much the ranks not full at j can move the played worker."""
import csv, heapq, math, sys, statistics as st
import os; sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'h187'))
from h187_tab import lib_queue_ms, draws
from collections import defaultdict
W=10
def play(C,N,mbs,k,step,pf,extra,D,lb):
    g=draws(); n,sent,done,tot,t=C*W,0,0,0.0,0.0
    arr,wait,ranks=[],[],[[] for _ in range(N)]
    for c in range(C): heapq.heappush(arr,(0.0,sent)); sent+=1
    while done<n:
        while arr and arr[0][0]<=t: wait.append(heapq.heappop(arr)[0])
        active=sum(len(x) for x in ranks)
        if active==0 and not wait:
            if not arr: break
            t=arr[0][0]; continue
        room=max(N*mbs-active,0)
        for a in wait[:room]: min(ranks,key=len).append(a)
        wait=wait[room:]
        sched=[x[:k] for x in ranks]
        j,m=max(len(x) for x in sched),sum(len(x) for x in sched)
        if j==1: dt=pf+(step[1]-pf)*(m-1)/(N-1) if N>1 else pf
        elif not lb: dt=step[j]
        else:
            x=m/N
            if x<=1: dt=pf+(step[1]-pf)*(m-1)/(N-1) if N>1 else pf
            else:
                f=int(math.floor(x)); dt=step[f]+(step[min(f+1,16)]-step[f])*(x-f)
        t+=dt
        for i in range(N):
            for a in sched[i]:
                tot,done=tot+t-a,done+1
                if sent<n: heapq.heappush(arr,(t+extra+D*(0.8+0.2*next(g)),sent)); sent+=1
            ranks[i]=ranks[i][len(sched[i]):]
    return tot/max(done,1)
rows=list(csv.DictReader(open(sys.argv[1])))
rec={r["recipe"]:r for r in csv.DictReader(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'h187', 'trt_prefill.csv')))}
out=defaultdict(lambda:[[],[],[]])
for i,r in enumerate(rows):
    if r["phase"]!="1" or r["backend"]!="trtllm" or r["recipe"] not in rec: continue
    d,rp=rows[i+1],rec[r["recipe"]]
    S,N=int(r["isl"]),max(1,int(r["dp"]))
    k=max(1,min(int(rp["max_batch_size"]),int(rp["max_num_tokens"])//S,16))
    a0,y,lq=float(r["a_0"]),float(r["y_0"]),lib_queue_ms(r)
    step=[0]+[float(r["trt_step_%d"%j]) for j in range(1,17)]
    args=(int(r["conc"]),N,int(rp["max_batch_size"]),k,step,float(r["prefill_ms"]),max(a0-lq,0),float(d["osl"])*float(d["a_1"]))
    q0=play(*args,False); q1=play(*args,True)
    for key in ("all","%s %s %d k%d"%(r["system"],r["quant"][:5],S,k)):
        out[key][0].append(a0/y); out[key][1].append((a0-lq+q0)/y); out[key][2].append((a0-lq+q1)/y)
m=lambda v:100*sum(abs(x-1) for x in v)/len(v)
for key,(a,b,c) in sorted(out.items()):
    print("%-28s %3d  %5.1f  %6.1f  %6.1f"%(key,len(a),m(a),m(b),m(c)))
