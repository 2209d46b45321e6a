#!/usr/bin/env python3
"""fit_w4a16_moe.py — the weight-only 4-bit MoE kernel model of src/llm/llm.c
(W4A16_MOE_T0_US, W4A16_MOE_EXPERT_US, W4A16_MOE_ETA; docs/llm.md, "Weight-only
4-bit MoE"), fitted on measured kernel times, never on serving rows.

Data: aic_moe_w4a16.csv beside this script — aiconfigurator's per-op MoE tables
(github ai-dynamo/aiconfigurator at 095f58a5, Apache-2.0 (NVIDIA),
aic-core/src/aiconfigurator_core/systems/data/{h100_sxm,h200_sxm,b200_sxm}/moe/
{vllm,sglang,trtllm}/<version>/moe_perf.parquet, read with the npm package
hyparquet; values unchanged, latency in us): the rows of moe_dtype int4_wo and
w4a16_mxfp4, distribution "balanced", num_tokens <= 64, the newest collection
of each (GPU, engine, dtype).  Each row is the whole fused-MoE module of one
layer (routing, the grouped GEMMs, activation, combine) timed under a CUDA
graph (aiconfigurator collector/vllm/collect_moe.py, collector/helper.py
benchmark_with_power).  Older vLLM collections (0.18, 0.19) of the same Marlin
int4 kernel measure 2-3x the 0.14 and 0.24 ones on the same shapes and are not
in the file.

Model, per layer: t = t0 + hit x (c + slice / (eta x BW)), hit the experts the
rows reach on one GPU (balanced routing: min(E/ep, max(1, T k / ep))), slice
one expert's three matrices on that GPU (3 H I / moe_tp elements) in the
stored format (int4 with a 16-bit scale per group: group 32 for Kimi's 7168
shape, else 128; mxfp4 4.25 bits), BW the datasheet DRAM bandwidth.  Fitted
by weighted least squares on relative error (linear in t0, c, 1/eta) over
T <= 32, no expert parallelism (what the aggregated serving rows run);
prints the refits leaving out each GPU and each engine, and the error per
kernel.  Usage: python3 tools/moe/fit_w4a16_moe.py [--max-tokens N] [--ep all]
"""
import csv
import os
import sys
from collections import defaultdict

BW = {'h100': 3.35e12, 'h200': 4.8e12, 'b200': 8.0e12}   # data/devices.json mem_bandwidth_gbs


def weight_bytes(dtype, hidden):
    if dtype == 'w4a16_mxfp4':
        return 0.53125                     # e2m1 + an e8m0 scale per 32 (OCP MX v1.0)
    # int4: packed nibbles + a bf16 scale per group; the collector uses the
    # model's group size (Kimi-K2.5: 32; default 128)
    return 0.5 + 2.0 / 32 if hidden == 7168 else 0.5 + 2.0 / 128


def load(path, max_tokens, ep_all):
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            T, H, I, k, E, tp, ep = (int(r[x]) for x in ('tokens', 'hidden', 'inter', 'topk', 'experts', 'moe_tp',
                                                          'moe_ep'))
            if T > max_tokens or r['gpu'] not in BW or (ep != 1 and not ep_all):
                continue
            hit = min(E / ep, max(1.0, T * k / ep))
            slice_b = 3.0 * H * I / tp * weight_bytes(r['dtype'], H)
            rows.append({'gpu': r['gpu'], 'engine': r['framework'], 'kernel': r['kernel'], 'hit': hit,
                         'x': hit * slice_b / BW[r['gpu']] * 1e6, 'y': float(r['latency_us'])})
    return rows


def lsq(rows):
    """(t0 us, c us, 1/eta) minimising sum((model - y) / y)^2."""
    A = [[0.0] * 3 for _ in range(3)]
    b = [0.0] * 3
    for q in rows:
        v = (1.0, q['hit'], q['x'])
        w = 1.0 / q['y'] ** 2
        for i in range(3):
            b[i] += w * v[i] * q['y']
            for j in range(3):
                A[i][j] += w * v[i] * v[j]
    M = [A[i] + [b[i]] for i in range(3)]
    for i in range(3):
        p = max(range(i, 3), key=lambda r: abs(M[r][i]))
        M[i], M[p] = M[p], M[i]
        if M[i][i] == 0:
            return None
        for r in range(3):
            if r != i:
                f = M[r][i] / M[i][i]
                M[r] = [M[r][c] - f * M[i][c] for c in range(4)]
    return [M[i][3] / M[i][i] for i in range(3)]


def pred(p, q):
    return p[0] + p[1] * q['hit'] + p[2] * q['x']


def mape(rows, p):
    return 100.0 * sum(abs(pred(p, q) - q['y']) / q['y'] for q in rows) / len(rows)


def show(p):
    return f"t0 {p[0]:.1f} us, per expert {p[1]:.3f} us, eta {1 / p[2]:.3f}"


def main():
    max_tokens = 32
    ep_all = False
    args = sys.argv[1:]
    while args:
        a = args.pop(0)
        if a == '--max-tokens' and args:
            max_tokens = int(args.pop(0))
        elif a == '--ep' and args and args[0] == 'all':
            args.pop(0)
            ep_all = True
        else:
            sys.exit(f"fit_w4a16_moe.py: unknown argument {a!r} (--max-tokens N, --ep all)")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'aic_moe_w4a16.csv')
    rows = load(path, max_tokens, ep_all)
    if len(rows) < 10:
        sys.exit(f"fit_w4a16_moe.py: {path}: only {len(rows)} rows")
    p = lsq(rows)
    print(f"{len(rows)} rows (T <= {max_tokens}, {'any' if ep_all else 'no'} expert parallelism): {show(p)}, "
          f"MAPE {mape(rows, p):.1f} %")
    for key in ('gpu', 'engine'):
        for g in sorted({q[key] for q in rows}):
            tr = [q for q in rows if q[key] != g]
            te = [q for q in rows if q[key] == g]
            pg = lsq(tr)
            if pg:
                print(f"  leave out {key} {g}: {show(pg)}; held-out MAPE {mape(te, pg):.1f} % ({len(te)} rows), "
                      f"in-sample {mape(te, p):.1f} %")
    by = defaultdict(list)
    for q in rows:
        by[(q['gpu'], q['engine'], q['kernel'])].append(q)
    print("per kernel: rows, MAPE, median predicted / measured")
    for k, v in sorted(by.items()):
        r = sorted(pred(p, q) / q['y'] for q in v)[len(v) // 2]
        print(f"  {k[0]} {k[1]} {k[2][:60]}: {len(v)}, {mape(v, p):.1f} %, {r:.2f}")


if __name__ == '__main__':
    main()
