#!/usr/bin/env python3
"""fit_mxfp4_mxfp8_moe.py — the mxfp4 MoE kernel on Blackwell (issue 22, h204;
docs/llm.md "mxfp4 experts on Blackwell: the MXFP4 x MXFP8 fused MoE"), fitted
on measured kernel times, never on serving rows.

What runs: TensorRT-LLM's TRTLLM MoE backend (TRTLLMGenFusedMoE, the trtllm-gen
block-scale kernels) with MXFP8 activations is what serving resolves gpt-oss to
on datacenter Blackwell (aiconfigurator collector/trtllm/collect_moe.py at
095f58a5: "Datacenter Blackwell: production uses TRTLLMGenFusedMoE", citing
resolve_moe_backend in model_config.py of 1.3.0rc20; TensorRT-LLM's gpt-oss
guide, examples/models/core/gpt_oss/README.md, sets moe_config backend TRTLLM
on Blackwell), and InferenceX's gptoss_fp4_b200_trt.sh sets it; its
gptoss_fp4_b200.sh runs vLLM with VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8=1, the
same trtllm-gen MxFP4 x MxFP8 kernels through FlashInfer.

Data: aic_moe_w4a8_mxfp8.csv beside this script — aiconfigurator's per-op MoE
tables (github ai-dynamo/aiconfigurator at 095f58a5, Apache-2.0 (NVIDIA),
aic-core/src/aiconfigurator_core/systems/data/{b200_sxm,b300_sxm,gb200,gb300}/
moe/trtllm/1.3.0rc20/moe_perf.parquet, read with the npm package hyparquet;
ms -> us): moe_dtype w4a8_mxfp4_mxfp8, distributions "balanced" (fitted by
default) and "power_law_1.2" (the routing aiconfigurator's own MoE model
prices gpt-oss at: sdk/models/moe.py _power_law_alpha 1.2), every shape
(gpt-oss-120b 2880 x 2880, 128 experts top 4; gpt-oss-20b, 32 experts; a
4096 x 2048, 256 experts top 6 shape), every moe_tp x moe_ep (the collector
builds the rank's own workload under EP: rank-local routing).

Two forms, as the other formats (src/llm/llm_serve.c):
  decode sizes (T <= 32), per layer on one GPU:
      t = t0 + hit x (c + slice / (eta x BW))
    hit = E / ep (1 - (1 - k / E)^T) the local experts the rows reach, slice
    one expert's three matrices on that GPU, 3 H I / moe_tp weights at
    0.53125 B (e2m1 + an e8m0 scale per 32), BW the DRAM peak (8 TB/s);
  prefill sizes (>= 64 rows an expert): t = a + F / (eta_pf x peak_fp8),
    F = 2 T k / ep x 3 H I / moe_tp, peak the dense FP8 tensor rate (the
    activations are MXFP8: the MMA runs at the FP8 rate, not FP4's).
Weighted least squares on relative error; held out leaving out each GPU and
each shape.  Usage: python3 tools/moe/fit_mxfp4_mxfp8_moe.py [--dist power_law_1.2]
(then also the two routings side by side for gpt-oss-120b on one B200).
docs/llm.md h204: a finding, nothing of it compiled in.
"""
import csv
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fit_16_fp8_moe import lsq, mape, pred, show  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
BW = {'b200': 8.0e12, 'b300': 8.0e12, 'gb200': 8.0e12, 'gb300': 8.0e12}        # data/devices.json
FP8 = {'b200': 4500e12, 'b300': 4500e12, 'gb200': 5000e12, 'gb300': 5000e12}  # dense fp8 tensor peaks
WB = 0.5 + 1.0 / 32.0
MIN_ROWS = 64


def load(dist='balanced'):
    rows = []
    with open(os.path.join(HERE, 'aic_moe_w4a8_mxfp8.csv')) as f:
        for r in csv.DictReader(f):
            if r['distribution'] != dist:
                continue
            T, H, I, k, E, tp, ep = (int(r[x]) for x in ('tokens', 'hidden', 'inter', 'topk', 'experts', 'moe_tp',
                                                          'moe_ep'))
            g = r['gpu']
            hit = E / ep * (1.0 - (1.0 - min(1.0, k / E)) ** T)
            rows.append({'gpu': g, 'shape': '%dx%d/%d/%d' % (H, I, E, k), 'engine': 'trtllm', 'kernel': r['kernel'],
                         'dtype': r['dtype'], 'T': T, 'tp': tp, 'ep': ep, 'hit': hit,
                         'x': hit * 3.0 * H * I / tp * WB / BW[g] * 1e6, 'f': 0.0,
                         'F': 2.0 * T * k / ep * 3.0 * H * I / tp / FP8[g] * 1e6,
                         'rpe': T * k / E, 'y': float(r['latency_us'])})
    return rows


def affine(rows):
    """(a us, 1 / eta) of t = a + F / (eta peak): least squares on relative error."""
    s00 = s01 = s11 = y0 = y1 = 0.0
    for q in rows:
        x, t = q['F'], q['y']
        w = 1.0 / (t * t)
        s00 += w; s01 += w * x; s11 += w * x * x; y0 += w * t; y1 += w * x * t
    det = s00 * s11 - s01 * s01
    return (y0 * s11 - s01 * y1) / det, (s00 * y1 - s01 * y0) / det


def pf_mape(rows, c):
    return 100.0 * statistics.mean(abs(c[0] + c[1] * q['F'] - q['y']) / q['y'] for q in rows)


def held_out(rows, fit, err, fmt):
    for key in ('gpu', 'shape'):
        for v in sorted({q[key] for q in rows}):
            tr = [q for q in rows if q[key] != v]
            te = [q for q in rows if q[key] == v]
            p = fit(tr)
            print('  leave out %s %s: %s; held-out MAPE %.1f %% (%d rows)' % (key, v, fmt(p), err(te, p), len(te)))


def side_by_side():
    """gpt-oss-120b's layer on one B200 (moe_tp 1, moe_ep 1), both routings."""
    by = {}
    for dist in ('balanced', 'power_law_1.2'):
        for q in load(dist):
            if q['gpu'] == 'b200' and q['shape'] == '2880x2880/128/4' and q['tp'] == 1 and q['ep'] == 1:
                by.setdefault(q['T'], {})[dist] = q['y']
    print('gpt-oss-120b, one B200: T, balanced us, power_law_1.2 us (ratio)')
    for T in sorted(by):
        b, p = by[T].get('balanced'), by[T].get('power_law_1.2')
        if b and p:
            print('  %5d %8.1f %8.1f (%.2f)' % (T, b, p, p / b))


def main():
    dist = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == '--dist' else 'balanced'
    rows = load(dist)
    print('distribution %s' % dist)
    dec = [q for q in rows if q['T'] <= 32]
    p = lsq(dec, 3)
    print('decode sizes (T <= 32): %d rows: %s, MAPE %.1f %%' % (len(dec), show(p), mape(dec, p)))
    held_out(dec, lambda r: lsq(r, 3), mape, show)
    for shape in sorted({q['shape'] for q in dec}):
        v = [q for q in dec if q['shape'] == shape and q['tp'] == 1 and q['ep'] == 1 and q['gpu'] == 'b200']
        if v:
            print('  b200 %s tp 1 ep 1: ' % shape + ', '.join('T %d %.1f / %.1f us' % (q['T'], pred(p, q), q['y'])
                                                            for q in sorted(v, key=lambda q: q['T'])))
    pf = [q for q in rows if q['rpe'] >= MIN_ROWS]
    c = affine(pf)
    fmt = lambda c: 'a %.1f us, eta %.3f' % (c[0], 1.0 / c[1])  # noqa: E731
    print('prefill sizes (>= %d rows an expert): %d rows: %s, MAPE %.1f %%' % (MIN_ROWS, len(pf), fmt(c),
                                                                              pf_mape(pf, c)))
    held_out(pf, affine, pf_mape, fmt)
    if dist != 'balanced':
        side_by_side()


if __name__ == '__main__':
    main()
