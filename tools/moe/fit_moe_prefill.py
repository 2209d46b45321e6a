#!/usr/bin/env python3
"""fit_moe_prefill.py — the fused-MoE module's grouped GEMMs at prefill sizes
(issue 22, h167; docs/llm.md "The DeepSeek prefill priced against
aiconfigurator's op tables").  A fit on kernel tables, never on serving rows.

Data: aic_moe_prefill.csv beside this script — aiconfigurator's per-op MoE
tables (github ai-dynamo/aiconfigurator at 095f58a5, Apache-2.0 (NVIDIA),
aic-core/src/aiconfigurator_core/systems/data/{h100_sxm,h200_sxm,b200_sxm,
b300_sxm,gb200,gb300}/moe/{trtllm/1.3.0rc20,sglang/0.5.14,vllm/0.24.0}/
moe_perf.parquet, read with the npm package hyparquet): num_tokens 1,024 to
16,384 (powers of two), hidden >= 2,048, moe_tp <= 8, moe_ep <= 64, every
model shape, the faster kernel where an engine has two (its autotuner
picks); balanced routing, plus power_law_1.01 for TensorRT-LLM at moe_tp 1.
TensorRT-LLM's collector builds the rank's own workload under EP
(collector/trtllm/collect_moe.py, rank-local routing), so its EP rows are
kept; SGLang's and vLLM's EP > 1 rows do not scale with 1 / EP (their
latency at EP 8 is ~EP 1's / 1.3), so only their EP 1 rows are there.

Model, per layer on one GPU: t = a + F / (eta x peak), floored by the
weight stream (every local expert's slices at the DRAM peak); F = 2 x T x
topk / EP x 3 x hidden x inter / TP (SwiGLU: gate, up, down), peak the
dense tensor rate of the format (data/devices.json: bf16, fp8, fp4).  One
fit per engine, format and GPU generation (Hopper: H100, H200; Blackwell:
B200, B300, GB200, GB300), least squares on relative error over the
balanced rows with at least 64 rows an expert.  Held-out check: the fit
redone leaving out each GPU of the generation, MAPE on that GPU's rows.
Then the busiest EP rank under the tables' power-law routing: power_law_1.01
over balanced time on TensorRT-LLM's moe_tp 1 rows, fitted as 1 + b0 + b1
log2(EP) log2(T / 512), held out by GPU likewise.
With --rows (issue 22, h218): TensorRT-LLM's groups refitted with a third
term, the routed rows a rank permutes, quantises and finalises whatever its
expert slice: t = a + F / (eta peak) + c (T topk / EP) hidden / BW (BW the
DRAM peak), held out by GPU and by model shape (hidden, inter, experts, topk).
With --rows-sglang (issue 22, h241): the same refit on SGLang's groups (its
Triton fused MoE writes the down GEMM's T topk x hidden rows unsliced,
intermediate_cache3, and sums them, moe_sum_reduce).
Usage: python3 tools/moe/fit_moe_prefill.py [--rows] [--rows-sglang]
"""
import csv
import math
import os
import statistics
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
# data/devices.json: dense tensor TFLOPS by format, DRAM GB/s
PEAK = {'h100_sxm': (989.4, 1978.9, None, 3350), 'h200_sxm': (989.4, 1978.9, None, 4800),
        'b200_sxm': (2250, 4500, 9000, 8000), 'b300_sxm': (2250, 4500, 13500, 8000),
        'gb200': (2500, 5000, 10000, 8000), 'gb300': (2500, 5000, 15000, 8000)}
FMT = {'bfloat16': (0, 2.0), 'fp8_block': (1, 1.0), 'nvfp4': (2, 0.5625)}
MIN_ROWS = 64  # rows an expert: the math-bound rows the fit uses


def load():
    rows = []
    with open(os.path.join(HERE, 'aic_moe_prefill.csv')) as f:
        for r in csv.DictReader(f):
            g, dt = r['gpu'], r['dtype']
            fi, wb = FMT[dt]
            pk = PEAK[g][fi]
            if not pk:
                continue
            T, H, I, E, K, tp, ep = (float(r[k]) for k in ('tokens', 'hidden', 'inter', 'experts', 'topk', 'tp', 'ep'))
            F = 2.0 * T * K / ep * 3.0 * H * I / tp
            W = E / ep * 3.0 * H * I / tp * wb
            rows.append(dict(g=g, e=r['engine'], dt=dt, T=T, tp=tp, ep=ep, E=E, K=K, H=H, I=I, dist=r['distribution'],
                             arch='hopper' if g.startswith('h') else 'blackwell',
                             t=float(r['latency_ms']) * 1e-3, F=F, W=W, pk=pk * 1e12, bw=PEAK[g][3] * 1e9,
                             rpe=T * K / E))
    return rows


def affine(rows):
    """(a s, 1 / eta) of t = a + F / (eta peak), least squares on relative error."""
    s00 = s01 = s11 = y0 = y1 = 0.0
    for r in rows:
        x, t = r['F'] / r['pk'], r['t']
        w = 1.0 / (t * t)
        s00 += w; s01 += w * x; s11 += w * x * x; y0 += w * t; y1 += w * x * t
    det = s00 * s11 - s01 * s01
    return (y0 * s11 - s01 * y1) / det, (s00 * y1 - s01 * y0) / det


def pred(r, c):
    return max(c[0] + c[1] * r['F'] / r['pk'], r['W'] / r['bw'])


def mape(rows, c):
    return 100.0 * statistics.mean(abs(pred(r, c) / r['t'] - 1) for r in rows) if rows else float('nan')


def main():
    rows = load()
    bal = [r for r in rows if r['dist'] == 'balanced' and r['rpe'] >= MIN_ROWS]
    groups = defaultdict(list)
    for r in bal:
        groups[(r['e'], r['dt'], r['arch'])].append(r)
    print('t = a + F / (eta peak) per layer, floored by the weight stream; balanced, >= %d rows an expert' % MIN_ROWS)
    print('engine  format     arch        rows   a us    eta  MAPE   | leave one GPU out: a us / eta -> held-out MAPE')
    for k in sorted(groups):
        g = groups[k]
        c = affine(g)
        lo = []
        for gpu in sorted({r['g'] for r in g}):
            tr = [r for r in g if r['g'] != gpu]
            if not tr:
                continue
            c2 = affine(tr)
            lo.append('%s %.0f / %.3f -> %.1f%%' % (gpu, c2[0] * 1e6, 1 / c2[1], mape([r for r in g if r['g'] == gpu], c2)))
        print('%-7s %-10s %-9s %6d %6.1f %6.3f %5.1f%% | %s' % (k[0], k[1], k[2], len(g), c[0] * 1e6, 1 / c[1], mape(g, c),
                                                             '; '.join(lo)))
    # the busiest rank: power-law over balanced, TensorRT-LLM, moe_tp 1
    pl = defaultdict(list)
    idx = {(r['g'], r['e'], r['dt'], r['T'], r['H'], r['I'], r['E'], r['K'], r['tp'], r['ep'], r['dist']): r for r in rows}
    for k, r in idx.items():
        if k[1] != 'trtllm' or k[10] != 'power_law_1.01' or k[8] != 1:
            continue
        b = idx.get(k[:10] + ('balanced',))
        if b and r['rpe'] >= MIN_ROWS:
            pl[(int(r['ep']), int(r['T']))].append(r['t'] / b['t'])
    print('\nTensorRT-LLM, power_law_1.01 / balanced (median over GPUs, formats, shapes with >= %d rows an expert):' % MIN_ROWS)
    for ep in sorted({k[0] for k in pl}):
        print('  EP %3d: ' % ep + '  '.join('T %5d %.2f' % (T, statistics.median(pl[(ep, T)]))
                                         for T in sorted({k[1] for k in pl if k[0] == ep})))
    imbalance_report(rows)


def imbalance_fit(rows, gpus=None):
    """(b0, b1) of power / balanced - 1 = b0 + b1 log2(EP) log2(T / 512),
    least squares over TensorRT-LLM's moe_tp 1 rows with >= MIN_ROWS rows an expert."""
    idx = {(r['g'], r['e'], r['dt'], r['T'], r['H'], r['I'], r['E'], r['K'], r['tp'], r['ep'], r['dist']): r for r in rows}
    pts = []
    for k, r in idx.items():
        if k[1] != 'trtllm' or k[10] != 'power_law_1.01' or k[8] != 1 or (gpus and k[0] not in gpus):
            continue
        b = idx.get(k[:10] + ('balanced',))
        if b and r['rpe'] >= MIN_ROWS:
            pts.append((math.log2(r['ep']) * math.log2(r['T'] / 512.0), r['t'] / b['t'] - 1, r['g']))
    n = len(pts)
    sx = sum(p[0] for p in pts)
    sy = sum(p[1] for p in pts)
    sxx = sum(p[0] ** 2 for p in pts)
    sxy = sum(p[0] * p[1] for p in pts)
    b1 = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    return (sy - b1 * sx) / n, b1, pts


def imbalance_report(rows):
    b0, b1, pts = imbalance_fit(rows)

    def err(ps, a, b):
        return 100 * statistics.mean(abs((1 + a + b * p[0]) / (1 + p[1]) - 1) for p in ps)
    print('\nbusiest EP rank, power_law_1.01 / balanced = 1 + b0 + b1 log2(EP) log2(T / 512): '
          'b0 %.4f b1 %.4f, MAPE %.1f%% (%d rows)' % (b0, b1, err(pts, b0, b1), len(pts)))
    for gpu in sorted({p[2] for p in pts}):
        a, b, _ = imbalance_fit(rows, {g for g in PEAK if g != gpu})
        print('  leave out %-9s b0 %.4f b1 %.4f -> held-out MAPE %.1f%%' % (gpu, a, b, err([p for p in pts if p[2] == gpu], a, b)))


def solve3(A, b):
    """Gaussian elimination with partial pivoting, 3 x 3."""
    A = [row[:] for row in A]
    b = b[:]
    for i in range(3):
        p = max(range(i, 3), key=lambda k: abs(A[k][i]))
        A[i], A[p], b[i], b[p] = A[p], A[i], b[p], b[i]
        for k in range(i + 1, 3):
            f = A[k][i] / A[i][i]
            for j in range(i, 3):
                A[k][j] -= f * A[i][j]
            b[k] -= f * b[i]
    c = [0.0] * 3
    for i in reversed(range(3)):
        c[i] = (b[i] - sum(A[i][j] * c[j] for j in range(i + 1, 3))) / A[i][i]
    return c


def row_x(r):
    """(1, F / peak, routed row elements a rank handles / BW): the three terms."""
    return (1.0, r['F'] / r['pk'], r['T'] * r['K'] / r['ep'] * r['H'] / r['bw'])


def fit_rows(rows):
    """(a s, 1 / eta, c) of t = a + F / (eta peak) + c X / BW, least squares on relative error."""
    A = [[0.0] * 3 for _ in range(3)]
    y = [0.0] * 3
    for r in rows:
        x, w = row_x(r), 1.0 / (r['t'] * r['t'])
        for i in range(3):
            y[i] += w * x[i] * r['t']
            for j in range(3):
                A[i][j] += w * x[i] * x[j]
    return solve3(A, y)


def mape_rows(rows, c):
    if not rows:
        return float('nan')
    return 100.0 * statistics.mean(
        abs(max(sum(ci * xi for ci, xi in zip(c, row_x(r))), r['W'] / r['bw']) / r['t'] - 1) for r in rows)


def rows_report(rows, engine='trtllm'):
    bal = [r for r in rows if r['dist'] == 'balanced' and r['rpe'] >= MIN_ROWS and r['e'] == engine]
    groups = defaultdict(list)
    for r in bal:
        groups[(r['dt'], r['arch'])].append(r)
    ds = (7168.0, 2048.0, 256.0, 8.0)
    print('\n%s, t = a + F / (eta peak) + c (T topk / EP) hidden / BW: two terms -> three' % engine)
    for k in sorted(groups):
        g = groups[k]
        c2, c3 = affine(g), fit_rows(g)
        tp = [r for r in g if r['tp'] > 1]
        print('%-10s %-9s %5d rows: a %.2f us eta %.4f c %.2f | MAPE %.1f -> %.1f %%, moe_tp > 1 %.1f -> %.1f %%'
              % (k[0], k[1], len(g), c3[0] * 1e6, 1 / c3[1], c3[2], mape(g, c2), mape_rows(g, c3), mape(tp, c2),
                 mape_rows(tp, c3)))
        lo = []
        for gpu in sorted({r['g'] for r in g}):
            tr, te = [r for r in g if r['g'] != gpu], [r for r in g if r['g'] == gpu]
            lo.append('%s %.1f -> %.1f' % (gpu, mape(te, affine(tr)), mape_rows(te, fit_rows(tr))))
        print('    leave one GPU out: ' + '; '.join(lo))
        n = s2 = s3 = 0
        dsl = ''
        for sh in sorted({(r['H'], r['I'], r['E'], r['K']) for r in g}):
            tr = [r for r in g if (r['H'], r['I'], r['E'], r['K']) != sh]
            te = [r for r in g if (r['H'], r['I'], r['E'], r['K']) == sh]
            m2, m3 = mape(te, affine(tr)), mape_rows(te, fit_rows(tr))
            n, s2, s3 = n + len(te), s2 + m2 * len(te), s3 + m3 * len(te)
            if sh == ds:
                dsl = ', DeepSeek-V3 held out %.1f -> %.1f %%' % (m2, m3)
        print('    leave one model shape out (row-weighted): %.1f -> %.1f %%%s' % (s2 / n, s3 / n, dsl))


if __name__ == '__main__':
    main()
    if '--rows' in sys.argv[1:]:
        rows_report(load())
    if '--rows-sglang' in sys.argv[1:]:  # h241: the same three terms for SGLang's Triton fused MoE
        rows_report(load(), 'sglang')

