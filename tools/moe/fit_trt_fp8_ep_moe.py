#!/usr/bin/env python3
"""fit_trt_fp8_ep_moe.py — TensorRT-LLM's block-fp8 CUTLASS MoE on Hopper
under expert parallelism (issue 22, h227): the decode-size kernel model of
src/llm/llm_serve.c (MOE_FITFP8_TRT_EP_HITS), fitted on measured kernel
times, never on serving rows.

Data: aic_moe_fp8_trt_ep.csv beside this script — aiconfigurator's per-op
MoE tables (github ai-dynamo/aiconfigurator at 095f58a5, Apache-2.0
(NVIDIA), aic-core/src/aiconfigurator_core/systems/data/{h100_sxm,h200_sxm}/
moe/trtllm/1.3.0rc20/moe_perf.parquet, read with the npm package hyparquet;
ms -> us): op "moe", moe_dtype fp8_block, kernel moe_torch_flow_cutlass,
distribution "balanced", num_tokens <= 32, moe_ep_size > 1 (the rows
fit_16_fp8_moe.py leaves out).  Each row is one EP rank's fused-MoE module
of a layer, all T tokens routed over the E experts, E / ep of them local.

Model (fit_16_fp8_moe.py's form):  t = t0 + hit x (c + slice / (eta BW)),
hit the rank-0 local experts aiconfigurator's balanced router really hits
(collector/helper.py balanced_logits: token t takes (t + j ceil(E/k)) mod E,
or (t ceil(E/k) / T + j ceil(E/k)) mod E truncated below ceil(E/k) tokens;
rank 0 holds experts [0, E/ep)), or with --hits uniform the uniform draw
E/ep (1 - (1 - k/E)^T).  Prints the fit, the refits leaving out each GPU
and each model shape (hidden, inter, experts, top-k), and the compiled EP 1
row's error on the same rows.
Usage: python3 tools/moe/fit_trt_fp8_ep_moe.py [--hits uniform] [--selftest]
"""
import csv
import math
import os
import sys

from fit_w4a16_moe import lsq as lsq3   # beside this script: the same form's fit

BW = {'h100': 3.35e12, 'h200': 4.8e12}   # data/devices.json mem_bandwidth_gbs
POOLED = (36.2, 1.027, 0.831)            # MOE_FITFP8[TRTLLM], fitted on EP 1 rows (h130)


def local_hits(T, E, k, ep):
    """Distinct experts of rank 0 ([0, E/ep)) balanced_logits routes T tokens to."""
    stride, seen, lim = math.ceil(E / k), set(), E // ep
    for t in range(T):
        for j in range(k):
            x = (t + j * stride) % E if T >= stride else int(math.fmod(t * stride / T + j * stride, E))
            if x < lim:
                seen.add(x)
    return len(seen)


def selftest():
    """By hand: E 128, k 8 (stride 16), ep 4 (rank 0: experts 0-31): one token
    takes 0, 16, ..., 112, two of them local; 2 tokens 0, 8, 16, 24 local (4);
    16 tokens (t + 16 j) mod 128 cover 0-31 (32); ep 8 (0-15), 4 tokens take
    4t + 16 j: 0, 4, 8, 12 local (4)."""
    cases = (((1, 128, 8, 4), 2), ((2, 128, 8, 4), 4), ((16, 128, 8, 4), 32), ((4, 128, 8, 8), 4))
    bad = [(a, want, local_hits(*a)) for a, want in cases if local_hits(*a) != want]
    print("selftest:", "ok" if not bad else f"FAILED {bad}")
    return not bad


def load(path, hits):
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            T, H, I, k, E, tp, ep = (int(r[x]) for x in ('tokens', 'hidden', 'inter', 'topk', 'experts', 'moe_tp',
                                                          'moe_ep'))
            h = local_hits(T, E, k, ep) if hits == 'table' else E / ep * (1.0 - (1.0 - min(1.0, k / E)) ** T)
            hu = E / ep * (1.0 - (1.0 - min(1.0, k / E)) ** T)
            sl = 3.0 * H * I / tp   # one expert's three matrices on this GPU, 1 byte each (fp8)
            rows.append({'gpu': r['gpu'], 'shape': (H, I, E, k), 'tp': tp, 'hit': h, 'hu': hu, 'sl': sl,
                         'x': h * sl / BW[r['gpu']] * 1e6, 'y': float(r['latency_us'])})
    return rows


def lsq(rows):
    """(t0, c, eta) minimising sum(((model - y) / y)^2): fit_w4a16_moe.py's
    normal equations on (1, hit, x), the last coefficient 1/eta."""
    a = lsq3(rows)
    return (a[0], a[1], 1.0 / a[2])


def pred(p, q, key='hit'):
    return p[0] + q[key] * (p[1] + q['sl'] / (p[2] * BW[q['gpu']]) * 1e6)


def mape(rows, p, key='hit'):
    return 100.0 * sum(abs(pred(p, q, key) - q['y']) / q['y'] for q in rows) / len(rows)


def main():
    args, hits = sys.argv[1:], 'table'
    if '--selftest' in args:
        sys.exit(0 if selftest() else 1)
    if '--hits' in args:
        hits = args[args.index('--hits') + 1]
    rows = load(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'aic_moe_fp8_trt_ep.csv'), hits)
    p = lsq(rows)
    med = sorted(pred(POOLED, q, 'hu') / q['y'] for q in rows)[len(rows) // 2]
    print(f"{len(rows)} rows ({hits} hits): t0 {p[0]:.1f} us, per expert {p[1]:.3f} us, eta {p[2]:.3f}, "
          f"MAPE {mape(rows, p):.1f} %; the compiled EP 1 row (uniform hits) {mape(rows, POOLED, 'hu'):.1f} %, "
          f"median predicted / measured {med:.2f}")
    for g in sorted(BW):
        te = [q for q in rows if q['gpu'] == g]
        pg = lsq([q for q in rows if q['gpu'] != g])
        print(f"  leave out gpu {g}: t0 {pg[0]:.1f} c {pg[1]:.3f} eta {pg[2]:.3f}; held-out MAPE {mape(te, pg):.1f} % "
              f"({len(te)} rows; compiled EP 1 row {mape(te, POOLED, 'hu'):.1f} %)")
    tot = comp = 0.0
    shapes = sorted({q['shape'] for q in rows})
    for sh in shapes:
        te = [q for q in rows if q['shape'] == sh]
        pg = lsq([q for q in rows if q['shape'] != sh])
        tot += mape(te, pg) * len(te)
        comp += mape(te, POOLED, 'hu') * len(te)
    print(f"  leave out each shape ({len(shapes)}): held-out MAPE row-weighted {tot / len(rows):.1f} % "
          f"(compiled EP 1 row {comp / len(rows):.1f} %)")


if __name__ == '__main__':
    main()
