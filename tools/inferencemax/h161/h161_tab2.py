import csv,statistics as st,sys
R=[r for r in csv.DictReader(open(sys.argv[1])) if r['phase']=='1' and r['y_0']!='nan' and float(r['a_0'])>0]
def row(lbl,rs):
    if not rs: return
    q=[float(r['a_0'])/float(r['y_0']) for r in rs]
    pw=[float(r['ttft_pw_ms'])/float(r['y_0']) for r in rs if float(r['ttft_pw_ms'])>0]
    print(f"| {lbl} | {len(rs)} | {st.mean(abs(x-1) for x in q)*100:.1f} % | {st.median(q):.2f} | {st.median(pw) if pw else float('nan'):.2f} | {st.median(float(r['y_0'])/float(r['prefill_ms']) for r in rs):.1f} |")
def cls(r):
    c,s=int(r['slot_c']),int(r['slot_s'])
    if s<=0: return 'no decode cap known'
    return 'C > S' if c>s else 'C <= S'
def depth(r):
    d=float(r['y_0'])/float(r['prefill_ms'])
    return 'queue < 16 steps' if d<16 else 'queue >= 16 steps'
print("| slice | rows | MAPE | median pred/meas | median worker-only pred/meas | median meas / prefill step |\n|---|---:|---:|---:|---:|---:|")
for k in ['C <= S','C > S','no decode cap known']:
    for dd in ['queue < 16 steps','queue >= 16 steps']:
        row(f"{k}, {dd}",[r for r in R if cls(r)==k and depth(r)==dd])
for k in ['C <= S','C > S']:
  for e in ['trtllm','sglang']:
    row(f"{k}, {e}",[r for r in R if cls(r)==k and r['backend']==e])
