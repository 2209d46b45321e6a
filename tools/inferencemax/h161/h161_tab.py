import csv,statistics as st,math,sys
R=[r for r in csv.DictReader(open(sys.argv[1])) if r['phase']=='1' and r['y_0']!='nan' and float(r['a_0'])>0]
def row(lbl,rs):
    if not rs: return
    q=[float(r['a_0'])/float(r['y_0']) for r in rs]
    m=st.mean(abs(x-1) for x in q)*100
    print(f"| {lbl} | {len(rs)} | {m:.1f} % | {st.median(q):.2f} | {st.median(float(r['y_0'])/float(r['prefill_ms']) for r in rs):.1f} |")
srcn={'0':'data','1':'recipe','2':'unknown','3':'data(db)'}
def grp(name,key,rs=R):
    print(f"\n| {name} | rows | MAPE | median pred/meas | median meas TTFT / prefill step |\n|---|---:|---:|---:|---:|")
    ks=sorted(set(key(r) for r in rs),key=lambda k:(str(type(k)),k))
    for k in ks: row(k,[r for r in rs if key(r)==k])
row('all',R)
grp('sub-slice (workers_unknown/src)',lambda r:('unknown' if r['workers_unknown']=='1' else 'known')+'/'+r['src_name'])
grp('engine',lambda r:r['backend'])
grp('GPU',lambda r:r['system'])
grp('family',lambda r:r['family'])
grp('ISL',lambda r:int(r['isl']))
def cb(r):
    c=int(r['conc']); b=2**int(math.log2(max(c,1)))
    return f"C {b}-{2*b-1}"
grp('clients C (per run)',lambda r:(int(r['conc']).bit_length(),cb(r)))
grp('measured TTFT / prefill step, bin',lambda r:min(int(float(r['y_0'])/float(r['prefill_ms'])).bit_length(),8))
grp('deepseek engine x GPU',lambda r:r['backend']+' '+r['system'],[r for r in R if r['family']=='deepseek'])
