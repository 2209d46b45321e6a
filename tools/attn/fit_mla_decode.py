#!/usr/bin/env python3
"""MLA decode attention per layer from aiconfigurator's MLA generation tables
(issue 22, h157; a negative result: not compiled in, see docs/llm.md h157).

Data: mla_gen/*.csv beside this script — aiconfigurator (github
ai-dynamo/aiconfigurator at 095f58a5, Apache-2.0 (NVIDIA)),
aic-core/src/aiconfigurator_core/systems/data/<gpu>/mla/<engine>/<version>/
generation_mla_perf.parquet for H100 / H200 / B200 SXM, TensorRT-LLM
1.3.0rc10 and SGLang 0.5.14 (H200, B200), read with the npm package hyparquet
+ hyparquet-compressors; kept columns kv_cache_dtype, batch_size, isl, step,
latency (ms), values unchanged.  Each row: the absorbed MLA generation kernel,
one query token per sequence, num_heads 1-128 a rank (DeepSeek-V3 shapes).

Form: t = t0 + latent bytes / (eta x DRAM BW); latent bytes = batch x
(isl + step) x (kv_lora_rank 512 + rope 64) x element bytes (fp8 1, bf16 2).
Weighted least squares on relative error.  Prints the per-table fits, the
pooled fit, leave-one-GPU-out and leave-one-engine-out, each beside the
form compiled in for every model's decode attention (8.58 us, 0.85; h147).
Usage: python3 tools/attn/fit_mla_decode.py
"""
import csv
import glob
import os
import statistics as st

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'mla_gen')
BW = {'h100': 3.35e12, 'h200': 4.8e12, 'b200': 8.0e12}   # data/devices.json DRAM
LATENT = 512 + 64


def load(f):
    rows = []
    for r in csv.DictReader(open(f)):
        eb = 1 if 'fp8' in r['kv_cache_dtype'] else 2
        by = int(r['batch_size']) * (int(r['isl']) + int(r['step'])) * LATENT * eb
        rows.append((by, float(r['latency']) * 1e3))
    return rows


def fit(rows, bw):
    """min sum ((t0 + b / (eta bw)) / t - 1)^2: linear in t0 and 1 / eta."""
    a11 = a12 = a22 = b1 = b2 = 0.0
    for by, t in rows:
        x1, x2 = 1.0 / t, by / bw * 1e6 / t
        a11 += x1 * x1; a12 += x1 * x2; a22 += x2 * x2; b1 += x1; b2 += x2
    d = a11 * a22 - a12 * a12
    return (b1 * a22 - b2 * a12) / d, d / (a11 * b2 - a12 * b1)


def mape(rows, bw, t0, eta):
    return 100.0 * st.mean(abs(t0 + by / (eta * bw) * 1e6 - t) / t for by, t in rows)


def pooled(tabs, names):
    """fit on several GPUs at once, bytes scaled to H100's bandwidth"""
    rows = []
    for n in names:
        rows += [(by / BW[n[:4]] * BW['h100'], t) for by, t in tabs[n]]
    return fit(rows, BW['h100'])


def main():
    tabs = {os.path.basename(f)[:-4]: load(f) for f in sorted(glob.glob(os.path.join(HERE, '*.csv')))}
    for n, rows in tabs.items():
        bw = BW[n[:4]]
        t0, eta = fit(rows, bw)
        print('%-32s %5d rows: t0 %.2f us, eta %.3f, MAPE %.1f %% (compiled-in form %.1f %%)'
              % (n, len(rows), t0, eta, mape(rows, bw, t0, eta), mape(rows, bw, 8.58, 0.85)))
    t0, eta = pooled(tabs, list(tabs))
    print('pooled: t0 %.2f us, eta %.3f; MAPE %s' % (t0, eta, ', '.join(
        '%s %.1f %%' % (n, mape(r, BW[n[:4]], t0, eta)) for n, r in tabs.items())))
    for held in ['h100', 'h200', 'b200', 'trtllm', 'sglang']:
        out = [n for n in tabs if held in n]
        t0, eta = pooled(tabs, [n for n in tabs if n not in out])
        print('held out %-6s: t0 %.2f us, eta %.3f; %s' % (held, t0, eta, ', '.join(
            '%s %.1f %% (compiled-in %.1f %%)' % (n, mape(tabs[n], BW[n[:4]], t0, eta),
                                                 mape(tabs[n], BW[n[:4]], 8.58, 0.85)) for n in out)))


if __name__ == '__main__':
    main()
