#!/usr/bin/env python3
"""fit_ep_a2a_normal.py — DeepEP's normal-mode (prefill) dispatch and combine
of src/llm/llm_serve.c (ep_a2a_normal_s: A2A_NORMAL_*; docs/llm.md, "Expert
parallelism's dispatch and combine at prefill sizes", h191), fitted on
measured kernel times, never on serving rows.

Data: aic_deepep_normal.csv beside this script — aiconfigurator's DeepEP
normal-mode tables (github ai-dynamo/aiconfigurator at 095f58a5, Apache-2.0
(NVIDIA), aic-core/src/aiconfigurator_core/systems/data/<gpu>/comm/sglang/
0.5.12/wideep_deepep_normal_perf.parquet for h100_sxm, h200_sxm, b200_sxm,
b300_sxm, gb200, gb300; read with the npm package hyparquet +
hyparquet-compressors; the rows at dispatch_sms 20, DeepEP's default
Buffer.num_sms, values unchanged, microseconds).  The collector
(collector/wideep/sglang/collect_deepep_normal.py) runs DeepEP's
test_intranode.py on one whole node — 8 GPUs on the SXM boards, 4 on a
GB200 / GB300 tray — and records the best transmit time over the NVLink
chunk sizes; the dispatch is DeepEP's fp8 one (fp8 + a 4-byte scale per
128) where the build has its SM90 features, the combine bf16.

Model, per kernel: t = t0 + bytes / BW, bytes = the rows a rank receives x
hidden x bytes per element, where a token goes once to each rank holding
any of its experts: rows = ep x tokens a rank x P(token hits a rank), P =
1 - C(E - E/ep, K) / C(E, K) (uniform routing without replacement, the
test's random top-k).  BW is one absolute rate (the kernels run on a fixed
20 SMs); `--nvl` fits it as a share of each GPU's one-way NVLink rate
instead (worse held out: the B200's 900 GB/s does not double the H100's
rate), `--per-expert` counts every routed row (the low-latency kernels'
count; worse too).  Checks printed: each GPU held out, each hidden size
held out.  Usage: python3 tools/moe/fit_ep_a2a_normal.py [--nvl] [--per-expert]
"""
import csv
import os
import statistics
import sys
from math import comb

HERE = os.path.dirname(os.path.abspath(__file__))
NVL_ONE_WAY = {'H100': 450.0, 'H200': 450.0, 'B200': 900.0, 'B300': 900.0, 'GB200': 900.0, 'GB300': 900.0}
BYTES = {'d': 1.0 + 4.0 / 128.0, 'c': 2.0}


def gpu(dev):
    for g in ('GB200', 'GB300', 'B200', 'B300', 'H100', 'H200'):
        if g in dev:
            return g
    raise ValueError(dev)


def load():
    rows = []
    with open(os.path.join(HERE, 'aic_deepep_normal.csv')) as f:
        for r in csv.DictReader(f):
            g = gpu(r['device'])
            ep = 4 if g.startswith('GB') else 8
            E, K = int(r['num_experts']), int(r['num_topk'])
            if K > E:
                continue
            rows.append(dict(g=g, ep=ep, E=E, K=K, t=int(r['num_token']), h=int(r['hidden_size']),
                             p=1.0 - comb(E - E // ep, K) / comb(E, K),
                             d=float(r['dispatch_transmit_us']), c=float(r['combine_transmit_us'])))
    return rows


def make_x(nvl, per_expert):
    def x(r, which):
        n = r['t'] * r['K'] if per_expert else r['ep'] * r['t'] * r['p']
        return n * r['h'] * BYTES[which] / ((NVL_ONE_WAY[r['g']] if nvl else 1.0) * 1e3)  # us at rate 1
    return x


def fit2(rows, which, x):
    """t0 (us) and rate by least squares on relative error."""
    s00 = s01 = s11 = v0 = v1 = 0.0
    for r in rows:
        y, xx = r[which], x(r, which)
        w = 1.0 / (y * y)
        s00 += w; s01 += w * xx; s11 += w * xx * xx; v0 += w * y; v1 += w * xx * y
    det = s00 * s11 - s01 * s01
    return (v0 * s11 - s01 * v1) / det, det / (s00 * v1 - s01 * v0)


def mape(rows, which, x, t0, rate):
    return statistics.mean(abs(t0 + x(r, which) / rate - r[which]) / r[which] * 100 for r in rows)


def main():
    nvl, per_expert = '--nvl' in sys.argv, '--per-expert' in sys.argv
    x = make_x(nvl, per_expert)
    rows = load()
    unit = 'x one-way NVLink' if nvl else 'GB/s'
    for which, name in (('d', 'dispatch'), ('c', 'combine')):
        t0, rate = fit2(rows, which, x)
        print('%s (%d rows): t0 %.2f us, rate %.3f %s; MAPE %.1f %%' % (name, len(rows), t0, rate, unit,
                                                                      mape(rows, which, x, t0, rate)))
        for key, label in (('g', 'GPU'), ('h', 'hidden')):
            out = []
            for v in sorted({r[key] for r in rows}):
                a, b = fit2([r for r in rows if r[key] != v], which, x)
                out.append('%s %.1f %%' % (v, mape([r for r in rows if r[key] == v], which, x, a, b)))
            print('    each %s held out: %s' % (label, ', '.join(out)))


if __name__ == '__main__':
    main()
