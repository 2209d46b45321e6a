#!/usr/bin/env python3
"""Decode-attention kernel per layer from aiconfigurator's generation-attention
tables (issue 22, h147).

Input (read-only shared data, ../shared from the main checkout):
data/aiconfigurator/DERIVED_csv/.../{h100_sxm/attention/trtllm/1.3.0rc10,
a100_sxm/attention/trtllm/1.0.0}/generation_attention_perf.csv (aiconfigurator
095f58a5; TensorRT-LLM's attention op at one query token per sequence: XQA /
masked MHA over a paged cache, its rope and cache append included).  Full
attention only (window_size 0).

Form: t = t0 + cache bytes / (eta x DRAM BW), cache bytes = 2 x batch x
context x kv heads x head dim x element bytes; weighted least squares on
relative error.  Prints the fit on each GPU, each held out on the other, and
the form dlperf had (2 us + bytes / (0.85 BW)).
"""
import csv, os, statistics as st

BW = {'h100': 3.35e12, 'a100': 2.039e12}
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'shared', 'data', 'aiconfigurator',
                    'DERIVED_csv', 'aic-core', 'src', 'aiconfigurator_core', 'systems', 'data')
FILES = {'h100': 'h100_sxm/attention/trtllm/1.3.0rc10/generation_attention_perf.csv',
         'a100': 'a100_sxm/attention/trtllm/1.0.0/generation_attention_perf.csv'}


def load(g):
    rows = []
    for r in csv.DictReader(open(os.path.join(ROOT, FILES[g]))):
        if int(r['window_size']) > 0:
            continue
        eb = 1 if 'fp8' in r['kv_cache_dtype'] else 2
        ctx = int(r['isl']) + int(r['step'])
        by = 2.0 * int(r['batch_size']) * ctx * int(r['num_key_value_heads']) * int(r['head_dim']) * eb
        rows.append((by / BW[g] * 1e6, float(r['latency']) * 1e3))
    return rows


def fit(rows):
    a11 = a12 = a22 = b1 = b2 = 0.0
    for x, y in rows:
        u, v = 1.0 / y, x / y
        a11 += u * u; a12 += u * v; a22 += v * v; b1 += u; b2 += v
    det = a11 * a22 - a12 * a12
    return (b1 * a22 - b2 * a12) / det, det / (a11 * b2 - a12 * b1)


def mape(rows, f):
    return 100.0 * st.mean(abs((f[0] + x / f[1]) / y - 1.0) for x, y in rows)


def main():
    data = {g: load(g) for g in FILES}
    for g, rows in data.items():
        f = fit(rows)
        other = [o for o in data if o != g][0]
        print(f'{g}: {len(rows)} rows, t0 {f[0]:.2f} us, eta {f[1]:.3f}, MAPE {mape(rows, f):.1f} %; '
              f'held out on {other}: {mape(data[other], f):.1f} %; the old form (2 us, 0.85) {mape(rows, (2.0, 0.85)):.1f} %')


if __name__ == '__main__':
    main()
