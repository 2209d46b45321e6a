#!/usr/bin/env python3
"""fit_nvfp4_moe.py — the nvfp4 MoE kernel (experts on Blackwell's FP4
tensor cores) in the W4A16 / h130 form, fitted on measured kernel times,
never on serving rows (docs/llm.md, "nvfp4 MoE kernels (issue 22, h137)").

Data: aic_moe_nvfp4.csv beside this script — aiconfigurator's per-op MoE
tables (github ai-dynamo/aiconfigurator at 095f58a5, Apache-2.0 (NVIDIA),
aic-core/src/aiconfigurator_core/systems/data/b200_sxm/moe/{vllm/0.24.0,
sglang/0.5.14,trtllm/1.3.0rc20}/moe_perf.parquet, read with the npm package
hyparquet; ms -> us): moe_dtype nvfp4, distribution "balanced", num_tokens
<= 128, no expert parallelism, gated kernels.  Only B200 has nvfp4 rows, so
the held-out check is leave-one-engine-out (no GPU to leave out).  Where an
engine has two kernels for a shape (TensorRT-LLM cutlass / min_latency) the
faster is kept: the engine's autotuner picks it.

Model, per layer: t = t0 + hit x (c + slice / (eta x BW)), slice one
expert's three matrices on one GPU at 0.5625 B a weight (e2m1 + an e4m3
scale per 16), BW 8.0 TB/s (data/devices.json b200).  Weighted least
squares on relative error over T <= 32.  Also prints the ratio of the
table to the slices at the DRAM peak (what a 4-bit streaming roofline, the
library's GEMM curve at best, charges).
Usage: python3 tools/moe/fit_nvfp4_moe.py [--max-tokens N]
"""
import csv
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fit_16_fp8_moe import lsq, mape, show, pred  # noqa: E402

BW = {'b200': 8.0e12}
WB = 0.5 + 1.0 / 16.0


def load(path, max_tokens):
    best = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            T, H, I, k, E, tp, ep = (int(r[x]) for x in ('tokens', 'hidden', 'inter', 'topk', 'experts', 'moe_tp',
                                                          'moe_ep'))
            if T > max_tokens or ep != 1 or r['gpu'] not in BW:
                continue
            key = (r['gpu'], r['framework'], T, H, I, k, E, tp)
            y = float(r['latency_us'])
            if key not in best or y < best[key][0]:
                best[key] = (y, r['kernel'])
    rows = []
    for (gpu, eng, T, H, I, k, E, tp), (y, kern) in best.items():
        hit = E * (1.0 - (1.0 - min(1.0, k / E)) ** T)
        x = hit * 3.0 * H * I / tp * WB / BW[gpu] * 1e6
        rows.append({'gpu': gpu, 'engine': eng, 'kernel': kern, 'dtype': 'nvfp4', 'T': T, 'hit': hit, 'x': x,
                     'f': 0.0, 'y': y})
    return rows


def main():
    max_tokens = 32
    args = sys.argv[1:]
    while args:
        a = args.pop(0)
        if a == '--max-tokens' and args:
            max_tokens = int(args.pop(0))
        else:
            sys.exit(f"fit_nvfp4_moe.py: unknown argument {a!r} (--max-tokens N)")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'aic_moe_nvfp4.csv')
    rows = load(path, max_tokens)
    if len(rows) < 10:
        sys.exit(f"fit_nvfp4_moe.py: {path}: only {len(rows)} rows")
    p = lsq(rows, 3)
    print(f"nvfp4 pooled: {len(rows)} rows: {show(p)}, MAPE {mape(rows, p):.1f} %")
    for eng in sorted({q['engine'] for q in rows}):
        tr = [q for q in rows if q['engine'] != eng]
        te = [q for q in rows if q['engine'] == eng]
        pe = lsq(te, 3)
        pg = lsq(tr, 3)
        print(f"  {eng}: {len(te)} rows: own fit {show(pe)}, MAPE {mape(te, pe):.1f} %; "
              f"left out of the pooled fit: {show(pg)}, held-out MAPE {mape(te, pg):.1f} %")
    print("  table / slices at the DRAM peak (4-bit streaming), median by tokens:")
    by = defaultdict(list)
    for q in rows:
        by[q['T']].append(q['y'] / q['x'])
    for T in sorted(by):
        v = sorted(by[T])
        print(f"    T {T}: {v[len(v) // 2]:.1f} x ({len(v)} rows)")


if __name__ == '__main__':
    main()
