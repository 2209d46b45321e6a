# h155 prototype, fixed and used by h160 (docs/llm.md "h155", "h160"):
# refits, on bench_serving --rows output, a per-CU-clock floor on the decode GEMMs of the ROCm rows
# jointly with the GPU-time factor; row-level approximation (waves from the running column).
# usage: python3 tools/infbench/rocm_gemm_floor_proto.py ROWS.csv
import csv,sys,math
P={'Llama-2-7b-hf':6.61,'Meta-Llama-3-8B':7.50,'Mistral-7B-v0.1':7.11,'Qwen2-7B':7.07,'Llama-2-70b-hf':68.7,'Meta-Llama-3-70B':69.5,'Mixtral-8x7B-v0.1':12.75,'Qwen2-72B':71.4}
CU={'MI250':104*1.7e9,'MI300X':304*2.1e9}
rows=[]
for r in csv.DictReader(open(sys.argv[1])):
    if r['y_4']=='nan' or not r['system'].startswith('AMD') or r['backend']!='vLLM': continue
    B=int(r['conc']); run=float(r['running']); tp=int(r['gpus'])  # the rows count GCDs already (bench ib_device)
    a=float(r['a_4']); pf=float(r['prefill_ms']); st=float(r['decode_step_ms']); ov=float(r['ovh_ms'])
    waves=math.ceil(B/run); pfall=pf*waves
    F=2*P[r['model'].split('/')[-1]]*1e9*run/tp
    g=r['system'].split()[1]
    rows.append(dict(g=g,fam=r['model'].split('/')[-1],pfall=pfall,dec=a-pfall,gs=st-ov,ov=ov,st=st,Fc=F/CU[g]*1e3,y=float(r['y_4']),B=B))
def pred(r,k,c):
    newg=max(k*r['gs'], r['Fc']/c) if c>0 else k*r['gs']
    return r['pfall']*k + r['dec']*(newg+r['ov'])/r['st']
def mape(sel,k,c):
    e=[abs(pred(r,k,c)-r['y'])/r['y'] for r in rows if sel(r)]
    return 100*sum(e)/len(e),len(e)
def fit(sel):
    best=None
    for k in [x/100 for x in range(80,111,2)]:
        for c in [0]+list(range(20,121,2)):
            m,_=mape(sel,k,c)
            if best is None or m<best[0]: best=(m,k,c)
    return best
mi3=lambda r:r['g']=='MI300X'; mi2=lambda r:r['g']=='MI250'
print('compiled', mape(mi3,1,0), mape(mi2,1,0), mape(lambda r:True,1,0))
b=fit(lambda r:True); print('pooled fit',b, 'mi300',mape(mi3,b[1],b[2]),'mi250',mape(mi2,b[1],b[2]))
b3=fit(mi3); print('fit mi300',b3,'-> mi250 held',mape(mi2,b3[1],b3[2]))
b2=fit(mi2); print('fit mi250',b2,'-> mi300 held',mape(mi3,b2[1],b2[2]))
tot=0;n=0
for f in sorted(set(r['fam'] for r in rows)):
    bf=fit(lambda r,f=f:r['fam']!=f); m,cnt=mape(lambda r,f=f:r['fam']==f,bf[1],bf[2]); m0,_=mape(lambda r,f=f:r['fam']==f,1,0)
    print('LOFO',f,bf,'held %.1f (compiled %.1f) n %d'%(m,m0,cnt)); tot+=m*cnt;n+=cnt
print('LOFO pooled %.1f'%(tot/n))
for B in sorted(set(r['B'] for r in rows)):
    print('B',B,'mi300 %.1f -> %.1f'%(mape(lambda r:mi3(r) and r['B']==B,1,0)[0],mape(lambda r:mi3(r) and r['B']==B,b[1],b[2])[0]))
# h160 (compiled in, CDNA3 only): the rate fitted on MI300X's rows alone, each model family held out in turn
# (MI250 fits best without a floor; its GCDs are counted once above).  Run on rows made with the floor off:
#   build/bench_serving ../shared/data infbench --analytic-only --no-rocm-floor --rows R.csv
tot = n = tot0 = 0
for f in sorted(set(r['fam'] for r in rows if mi3(r))):
    bf = fit(lambda r, f=f: mi3(r) and r['fam'] != f)
    m, cnt = mape(lambda r, f=f: mi3(r) and r['fam'] == f, bf[1], bf[2]); m0, _ = mape(lambda r, f=f: mi3(r) and r['fam'] == f, 1, 0)
    print('MI300X LOFO', f, 'fit k %.2f c %d' % (bf[1], bf[2]), 'held %.1f (no floor %.1f) n %d' % (m, m0, cnt))
    tot += m * cnt; tot0 += m0 * cnt; n += cnt
print('MI300X LOFO pooled %.1f (no floor %.1f)' % (tot / n, tot0 / n))
