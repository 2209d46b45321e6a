import csv,statistics as st,sys
A=list(csv.DictReader(open(sys.argv[-1] if sys.argv[-1].endswith('.csv') else '/tmp/r.csv')))
P=[]
for i,r in enumerate(A):
    if r['set']!='silicon' or r['phase']!='1' or r['y_0']=='nan' or not float(r['a_0'])>0: continue
    d=A[i+1] if i+1<len(A) and A[i+1]['phase']=='2' and A[i+1]['system']==r['system'] and A[i+1]['model']==r['model'] else None
    D=float(d['a_1'])*int(r['osl']) if d and float(d['a_1'])>0 else 0
    P.append((r,D))
def mape(f,rs=P):
    q=[f(r,D)/float(r['y_0']) for r,D in rs]
    return st.mean(abs(x-1) for x in q)*100, st.median(q), len(q)
print('base', mape(lambda r,D: float(r['a_0'])))
for k in [0.25,0.5,0.75,1.0]:
    print(k, mape(lambda r,D: max(float(r['a_0']), int(r['conc'])*k*float(r['prefill_ms'])-D)))
print('paired D', sum(1 for r,D in P if D>0), len(P))
for isl in ['1024','8192']:
    rs=[(r,D) for r,D in P if r['isl']==isl]
    print(isl,'base',mape(lambda r,D: float(r['a_0']),rs))
    for k in [0.1,0.2,0.35,0.5,0.75,1.0]:
        print(isl,k, mape(lambda r,D: max(float(r['a_0']), int(r['conc'])*k*float(r['prefill_ms'])-D),rs))
    rs2=[(r,D) for r,D in rs if int(r['conc'])*float(r['prefill_ms'])-D>float(r['a_0'])]
    print(' rows where k=1 bound binds',len(rs2), 'meas/(C s - D) median', st.median(float(r['y_0'])/(int(r['conc'])*float(r['prefill_ms'])-D) for r,D in rs2))
print('--- burst')
def by(f,rs):
    return mape(f,rs)
for w in [0,0.25,0.5,0.75,1.0]:
    f=lambda r,D: float(r['a_0'])+w*float(r['ttft_burst_ms'])
    print(w,'all',mape(f), 'C<=S',mape(f,[(r,D) for r,D in P if int(r['slot_s'])>0 and int(r['slot_c'])<=int(r['slot_s'])]),
      'C>S',mape(f,[(r,D) for r,D in P if int(r['slot_s'])>0 and int(r['slot_c'])>int(r['slot_s'])]))
print('--- meas / burst by C_w, isl')
for isl in ['1024','8192']:
  for lo in [1,4,16,64,256,1024,4096]:
    x=[r for r,D in P if r['isl']==isl and lo<=int(r['conc'])<lo*4]
    if len(x)>3: print(isl,lo,len(x),'meas/burst',round(st.median(float(r['y_0'])/float(r['ttft_burst_ms']) for r in x),2),'meas/pred',round(st.median(float(r['y_0'])/float(r['a_0']) for r in x),2),'burst/prefill',round(st.median(float(r['ttft_burst_ms'])/float(r['prefill_ms']) for r in x),1))
