#!/usr/bin/env python3
"""The absorbed MLA decode kernel's math rate at many heads (issue 22, h229).

Data: mla_gen_heads/*.csv beside this script -- the same aiconfigurator
tables as mla_gen/ (github ai-dynamo/aiconfigurator at the mirror's HEAD,
aic-core/src/aiconfigurator_core/systems/data/<gpu>/mla/<engine>/<version>/
generation_mla_perf.parquet, read with hyparquet), this time with the
num_heads column kept (mla_gen/ dropped it).  A row: the absorbed MLA
generation kernel, one query token a sequence, `num_heads` heads a rank.

The kernel does, per cached token, QK over the latent + rope key
(2 x heads x (512 + 64) FLOPs) and PV over the latent (2 x heads x 512):
2 x heads x 1,088 FLOPs against 576 cached elements, 483 FLOPs a byte at
128 heads with a bf16 cache -- above every GPU's ridge, so at 128 heads the
kernel is math-bound.  The rate it reaches is eta x the dense tensor-core
peak of the cache's precision (bf16 cache: bf16 math; fp8 cache: the tables'
fp8 rows run at about twice the bf16 rows' rate on Blackwell and 1.2x on
Hopper, i.e. fp8 math at a lower share of its peak).  Fitted: eta per cache
precision = median over the 128-head rows with batch x context >= 262,144
tokens (floors negligible) of FLOPs / (latency x peak); checked as the floor
max(math, bytes at 0.85 BW) on every 64- and 128-head row of that size,
leaving each GPU out and each engine out.  SGLang H200's fp8 rows are left
out: they stream at 6 % of DRAM bandwidth whatever the heads (a fallback
path of that collection, not the kernel the runs use).
Usage: python3 tools/attn/fit_mla_decode_math.py
"""
import csv
import glob
import os
import statistics as st

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'mla_gen_heads')
BW = {'h100': 3.35e12, 'h200': 4.8e12, 'b200': 8.0e12, 'b300': 8.0e12, 'gb200': 8.0e12,
      'gb300': 8.0e12}   # data/devices.json
P16 = {'h100': 989.4e12, 'h200': 989.4e12, 'b200': 2250e12, 'b300': 2250e12, 'gb200': 2500e12,
       'gb300': 2500e12}   # dense bf16
MIN_TOK = 262144


def load():
    out = []
    for f in sorted(glob.glob(os.path.join(HERE, '*.csv'))):
        b = os.path.basename(f).replace('_sxm', '')
        gpu, eng = b.split('_')[0], b.split('_')[2]
        for r in csv.DictReader(open(f)):
            kv = 'fp8' if 'fp8' in r['kv_cache_dtype'] else 'bf16'
            if gpu in ('h100', 'h200') and eng == 'sglang' and kv == 'fp8':
                continue
            h, n = int(r['num_heads']), int(r['batch_size']) * (int(r['isl']) + int(r['step']))
            out.append(dict(gpu=gpu, eng=eng, kv=kv, arch='hopper' if gpu[0] == 'h' else 'blackwell', h=h, n=n, t=float(r['latency']) * 1e-3,
                            fl=n * 2.0 * h * 1088, by=n * 576.0 * (1 if kv == 'fp8' else 2)))
    return out


def peak(r):
    return P16[r['gpu']] * (2 if r['kv'] == 'fp8' else 1)


def fit(rows, by_arch=True):
    e = {}
    for a in ('hopper', 'blackwell'):
        for kv in ('bf16', 'fp8'):
            s = [r['fl'] / (r['t'] * peak(r)) for r in rows if r['kv'] == kv and r['h'] == 128 and r['n'] >= MIN_TOK
                 and (r['arch'] == a or not by_arch)]
            e[(a, kv)] = st.median(s) if s else None
    return e


def mape(rows, e, math=True):
    err = []
    for r in rows:
        if r['h'] < 64 or r['n'] < MIN_TOK or e.get((r['arch'], r['kv'])) is None:
            continue
        t = r['by'] / (0.85 * BW[r['gpu']])
        if math:
            t = max(t, r['fl'] / (e[(r['arch'], r['kv'])] * peak(r)))
        err.append(abs(t - r['t']) / r['t'])
    return 100 * st.mean(err) if err else float('nan'), len(err)


def fmt(e):
    return '  '.join('%s %s %.3f' % (a, kv, v) for (a, kv), v in sorted(e.items()) if v is not None)


def main():
    rows = load()
    for by_arch in (False, True):
        e = fit(rows, by_arch)
        if not by_arch:
            e = {k: v for k, v in e.items()}
        print('%s eta: %s' % ('per architecture' if by_arch else 'pooled', fmt(e)))
        print('  all rows (64/128 heads, >= %d tokens): bytes only %.1f %% (n %d), with the math floor %.1f %%'
              % (MIN_TOK, mape(rows, e, False)[0], mape(rows, e)[1], mape(rows, e)[0]))
        for key in ('gpu', 'eng'):
            for v in sorted({r[key] for r in rows}):
                eh = fit([r for r in rows if r[key] != v], by_arch)
                te = [r for r in rows if r[key] == v]
                print('  held out %s=%s: bytes only %.1f %%, math floor %.1f %% (n %d); eta %s'
                      % (key, v, mape(te, eh, False)[0], mape(te, eh)[0], mape(te, eh)[1], fmt(eh)))
    for g in sorted({(r['gpu'], r['eng'], r['kv']) for r in rows}):
        sub = [r for r in rows if (r['gpu'], r['eng'], r['kv']) == g]
        print('table %s %s %s: own-table eta %.3f' % (g + (fit(sub)[(sub[0]['arch'], g[2])],)))


if __name__ == '__main__':
    main()
