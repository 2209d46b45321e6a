# Closed-loop prefill-worker sim: C_w clients, FIFO prefill worker taking up to `chunk` tokens a step,
# each request then decodes for D*u, u in [0.8,1] (benchmark_serving --random-range-ratio 0.8, golden-ratio
# sequence as h152's sim), then the client sends its next prompt. TTFT = prefill finish - arrival.
import csv,statistics as st,heapq,math,sys
A=list(csv.DictReader(open(sys.argv[-1] if sys.argv[-1].endswith('.csv') else '/tmp/r.csv')))
CH=8192.0; W=10; RR=0.8  # the runs' 10 waves; benchmark_serving --random-range-ratio 0.8
def sim(C,S,D,step_full,pf1):
    n_req=W*C; arr=[(0.0,i) for i in range(C)]; heapq.heapify(arr)
    t=0.0; done=0; tt=[]; g=0.0; q=[]  # q: (arrival time)
    per=max(1,int(CH//S)) if S<=CH else 1
    nsteps_prompt=max(1,math.ceil(S/CH))
    sent=C
    while done<n_req:
        while arr and arr[0][0]<=t: q.append(heapq.heappop(arr)[0])
        if not q:
            t=arr[0][0]; continue
        k=min(per,len(q)); batch=q[:k]; del q[:k]
        tok=k*S
        dt=max(pf1, step_full*min(tok,CH)/CH)*nsteps_prompt if S>CH else max(pf1,step_full*tok/CH)
        t+=dt
        for a in batch:
            tt.append(t-a); done+=1
            if sent<n_req:
                g=(g+0.6180339887)%1.0
                heapq.heappush(arr,(t+D*(RR+(1-RR)*g),0)); sent+=1
    return st.mean(tt)
P=[]
for i,r in enumerate(A):
    if r['set']!='silicon' or r['phase']!='1' or r['y_0']=='nan' or not float(r['a_0'])>0: continue
    d=A[i+1]
    D=float(d['a_1'])*int(r['osl'])
    C=int(r['conc']); S=int(r['isl']); pf1=float(r['prefill_ms'])
    n_it=math.ceil(C*S/CH); bit=2*float(r['ttft_burst_ms'])/(n_it+1)
    s=sim(C,S,D,bit,pf1)+float(r['req_ms'])
    comp=float(r['a_0']); pw=float(r['ttft_pw_ms']) if float(r['ttft_pw_ms'])>0 else comp
    slotwait=comp if comp>pw*1.0001 else 0
    P.append((r,max(s,slotwait),comp))
def m(rs,k):
    q=[x[k]/float(x[0]['y_0']) for x in rs]; return f"{st.mean(abs(v-1) for v in q)*100:.1f} % ({st.median(q):.2f})"
print('all',len(P),'base',m(P,2),'sim',m(P,1))
def cls(r):
    c,s=int(r['slot_c']),int(r['slot_s'])
    return 'nocap' if s<=0 else ('C>S' if c>s else 'C<=S')
for k in ['C<=S','C>S','nocap']:
    x=[p for p in P if cls(p[0])==k]; print(k,len(x),'base',m(x,2),'sim',m(x,1))
for key in ['backend','system','family','isl','src_name','workers_unknown']:
    for v in sorted(set(p[0][key] for p in P)):
        x=[p for p in P if p[0][key]==v]; print(' ',key,v,len(x),'base',m(x,2),'sim',m(x,1))
