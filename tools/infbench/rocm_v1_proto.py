# h184 prototype: refits, on bench_serving --rows output made with --no-rocm-floor, the ROCm rows'
# GPU-time factor k, CDNA3's GEMM floor c (FLOP per CU clock) and the paged-attention-V1 rate eta
# (share of HBM bandwidth at which a GQA group's repeated cache reads stream), row-level approximation
# of the waves as in rocm_gemm_floor_proto.py.  usage: python3 tools/infbench/rocm_v1_proto.py ROWS.csv
import csv, sys, math
P = {'Llama-2-7b-hf': 6.61, 'Meta-Llama-3-8B': 7.50, 'Mistral-7B-v0.1': 7.11, 'Qwen2-7B': 7.07, 'Llama-2-70b-hf': 68.7,
     'Meta-Llama-3-70B': 69.5, 'Mixtral-8x7B-v0.1': 12.75, 'Qwen2-72B': 71.4}
# layers, query heads, KV heads, head size (config.json)
A = {'Llama-2-7b-hf': (32, 32, 32, 128), 'Meta-Llama-3-8B': (32, 32, 8, 128), 'Mistral-7B-v0.1': (32, 32, 8, 128),
     'Qwen2-7B': (28, 28, 4, 128), 'Llama-2-70b-hf': (80, 64, 8, 128), 'Meta-Llama-3-70B': (80, 64, 8, 128),
     'Mixtral-8x7B-v0.1': (32, 32, 8, 128), 'Qwen2-72B': (80, 64, 8, 128)}
CU = {'MI250': 104 * 1.7e9, 'MI300X': 304 * 2.1e9}
BW = {'MI250': 1638.4e9, 'MI300X': 5300e9}
rows = []
for r in csv.DictReader(open(sys.argv[1])):
    if r['y_4'] == 'nan' or not r['system'].startswith('AMD') or r['backend'] != 'vLLM': continue
    B = int(r['conc']); run = float(r['running']); tp = int(r['gpus']); L = int(r['isl']); G = int(r['osl'])
    a = float(r['a_4']); pf = float(r['prefill_ms']); st = float(r['decode_step_ms']); ov = float(r['ovh_ms'])
    waves = math.ceil(B / run); pfall = pf * waves
    fam = r['model'].split('/')[-1]; g = r['system'].split()[1]
    F = 2 * P[fam] * 1e9 * run / tp
    nl, hq, hkv, hd = A[fam]
    q = hq / tp; kv = max(1.0, hkv / tp)
    v1 = run * q > 512 and L + G <= 8192   # vLLM paged_attn.py use_v1's many-blocks branch
    extra = nl * run * (q - kv) * (L + G / 2.0) * hd * 2 * 2 if v1 else 0.0   # bytes a step re-reads
    rows.append(dict(g=g, fam=fam, pfall=pfall, dec=a - pfall, gs=st - ov, ov=ov, st=st, Fc=F / CU[g] * 1e3,
                     X=extra / BW[g] * 1e3, y=float(r['y_4']), B=B, L=L, tp=tp, v1=v1, mha=hq == hkv))
def pred(r, k, c, eta, floor_g=('MI300X',)):
    g = k * r['gs']
    if c > 0 and r['g'] in floor_g: g = max(g, r['Fc'] / c)
    if eta > 0: g += r['X'] / eta
    return r['pfall'] * k + r['dec'] * (g + r['ov']) / r['st']
def mape(sel, k, c, eta, **kw):
    e = [abs(pred(r, k, c, eta, **kw) - r['y']) / r['y'] for r in rows if sel(r)]
    return 100 * sum(e) / max(1, len(e)), len(e)
def fit(sel, cs=None, etas=None, **kw):
    best = None
    for k in [x / 100 for x in range(86, 107, 2)]:
        for c in (cs if cs is not None else [0] + list(range(50, 121, 5))):
            for eta in (etas if etas is not None else [0] + [x / 100 for x in range(16, 61, 2)]):
                m, _ = mape(sel, k, c, eta, **kw)
                if best is None or m < best[0]: best = (m, k, c, eta)
    return best
mi3 = lambda r: r['g'] == 'MI300X'; mi2 = lambda r: r['g'] == 'MI250'; al = lambda r: True
print('compiled (k 1, c 54 on MI300X, no V1 term): MI300X %.1f MI250 %.1f all %.1f' % (mape(mi3, 1, 54, 0)[0], mape(mi2, 1, 54, 0)[0], mape(al, 1, 54, 0)[0]))
# eta fitted on one GPU (k, c free where the floor applies), held out on the other
b2 = fit(mi2, cs=[0]); print('fit MI250 (no floor):', b2)
for c in (0, 54):
    bb = fit(mi3, cs=[c], etas=[b2[3]]); print('  MI250 eta %.2f held out on MI300X (k refit, c %d): k %.2f  %.1f %%' % (b2[3], c, bb[1], bb[0]))
b3 = fit(mi3); print('fit MI300X:', b3)
bb = fit(mi2, cs=[0], etas=[b3[3]]); print('  MI300X eta %.2f held out on MI250 (k refit): k %.2f %.1f %%; k %.2f c kept: %.1f' % (b3[3], bb[1], bb[0], b3[1], mape(mi2, b3[1], 0, b3[3])[0]))
ba = fit(al); print('pooled fit:', ba, 'MI300X %.1f MI250 %.1f' % (mape(mi3, *ba[1:])[0], mape(mi2, *ba[1:])[0]))
tot = n = tot0 = 0
for f in sorted(set(r['fam'] for r in rows)):
    bf = fit(lambda r, f=f: r['fam'] != f)
    m, cnt = mape(lambda r, f=f: r['fam'] == f, *bf[1:]); m0, _ = mape(lambda r, f=f: r['fam'] == f, 1, 54, 0)
    print('LOFO %-18s fit k %.2f c %d eta %.2f held %.1f (compiled %.1f) n %d' % (f, bf[1], bf[2], bf[3], m, m0, cnt))
    tot += m * cnt; tot0 += m0 * cnt; n += cnt
print('LOFO pooled %.1f (compiled %.1f)' % (tot / n, tot0 / n))
