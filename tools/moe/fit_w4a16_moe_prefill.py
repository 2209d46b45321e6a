#!/usr/bin/env python3
"""fit_w4a16_moe_prefill.py — the math term of the weight-only 4-bit MoE kernels
at prefill sizes in src/llm/llm_serve.c (W4_MATH_MARLIN, W4_MATH_MXFP4; docs/llm.md, "Weight-only
4-bit MoE at prefill sizes"), fitted on measured kernel times, never on serving
rows.

Data: aic_moe_w4a16_prefill.csv beside this script — aiconfigurator's per-op MoE
tables (github ai-dynamo/aiconfigurator at 095f58a5, Apache-2.0 (NVIDIA),
aic-core/src/aiconfigurator_core/systems/data/{h100_sxm,h200_sxm,b200_sxm}/moe/
{vllm/0.24.0,sglang/0.5.14,trtllm/1.3.0rc20}/moe_perf.parquet, read with the npm
package hyparquet; values unchanged, latency in us): the rows of moe_dtype int4_wo
and w4a16_mxfp4, distribution "balanced", no expert parallelism, 1-16,384
tokens.  Each row is the whole fused-MoE module of one layer timed under a CUDA
graph (collector/vllm/collect_moe.py).  "balanced" routing is deterministic
(collector/helper.py balanced_logits): every expert gets T k / E rows, the
remainder one more.

What runs (the tables' kernel_source): Marlin (vLLM's and SGLang's fused Marlin
MoE for int4; also a compressed-tensors mxfp4 checkpoint) on H100, H200 and
B200 alike; its MMA is the warp-level mma.sync.aligned.m16n8k16 on every GPU
(vllm csrc/moe/marlin_moe_wna16/marlin_template.h), not Hopper's wgmma or
Blackwell's tcgen05, so its rate is per SM per clock, not a share of the
16-bit peak.  Marlin pads each expert's rows to block_size_m, the first of
8, 16, 32, 48, 64 with T k / E / block < 0.9, else 64 (vllm
fused_marlin_moe.py; moe_align_block_size), and computes the padded rows.
gpt-oss's mxfp4 on Hopper runs vLLM's triton matmul_ogs, SGLang's triton
fused_moe, TensorRT-LLM's own w4a16_mxfp4 kernel.

Model, per layer on one GPU: t = max(t_dec, t_math) with t_dec the decode-size
W4A16 fit of src/llm/llm_serve.c (t0 24.2 us + hit (0.236 us + slice /
(0.659 BW)); tools/moe/fit_w4a16_moe.py, unchanged) and

    t_math = (2 P 3 H I / tp / R + P H delta) / (SMs x clock)

P the rows the kernel computes (Marlin: padded to its block; else T k), R the
FLOP per SM per clock of the grouped GEMMs, delta the SM-clocks per routed row
and hidden element (the down projection's output, whose K = I / tp is short:
the cost of a tile that does not shrink with I / tp).  (1/R, delta) by
weighted least squares on relative error over T >= 2048 (math-bound on every
shape); MAPE printed over T >= 256 and over all rows of the max model; the
refits leaving out each GPU and each engine printed with their held-out MAPE.
Usage: python3 tools/moe/fit_w4a16_moe_prefill.py
"""
import csv
import math
import os
from collections import defaultdict

BW = {'h100': 3.35e12, 'h200': 4.8e12, 'b200': 8.0e12}   # data/devices.json mem_bandwidth_gbs
SMS = {'h100': 132, 'h200': 132, 'b200': 148}             # data/devices.json sm_count
CLOCK = 1.98e9                                            # boost_clock_mhz of all three
PEAK16 = {'h100': 989.4e12, 'h200': 989.4e12, 'b200': 2250e12}  # bf16_tensor_tflops (dense)
DEC = (24.2e-6, 0.236e-6, 0.659)                          # llm_serve.c W4A16_MOE_*
FIT_MIN_T = 2048


def weight_bytes(dtype, hidden):
    """As fit_w4a16_moe.py: mxfp4 4.25 bits; int4 with a bf16 scale per group
    (Kimi-K2.5's 7168 shape: group 32; else 128)."""
    if dtype == 'w4a16_mxfp4':
        return 0.53125
    return 0.5 + 2.0 / 32 if hidden == 7168 else 0.5 + 2.0 / 128


def marlin_block(rows_per_expert):
    for b in (8, 16, 32, 48, 64):
        if rows_per_expert / b < 0.9:
            return b
    return 64


def marlin_rows(T, k, E):
    """Rows Marlin computes under the tables' balanced routing: each expert's
    count padded to the block."""
    tot = T * k
    base, extra = tot // E, tot % E
    b = marlin_block(tot / E)
    return (E - extra) * math.ceil(base / b) * b + extra * math.ceil((base + 1) / b) * b


def family(kernel):
    return 'marlin' if 'marlin' in kernel else kernel


def load(path):
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            T, H, I, k, E, tp = (int(r[x]) for x in ('tokens', 'hidden', 'inter', 'topk', 'experts', 'moe_tp'))
            g = r['gpu']
            hit = E * (1.0 - (1.0 - k / E) ** T)
            dec = DEC[0] + hit * (DEC[1] + 3.0 * H * I / tp * weight_bytes(r['dtype'], H) / (DEC[2] * BW[g]))
            fam = family(r['kernel'])
            P = marlin_rows(T, k, E) if fam == 'marlin' else T * k
            sc = SMS[g] * CLOCK
            rows.append({'gpu': g, 'engine': r['framework'], 'kernel': r['kernel'], 'fam': fam, 'T': T,
                         'dtype': r['dtype'], 'y': float(r['latency_us']) * 1e-6, 'dec': dec,
                         'u': 2.0 * P * 3.0 * H * I / tp / sc, 'v': P * H / sc,
                         'u_routed': 2.0 * T * k * 3.0 * H * I / tp / sc, 'v_routed': T * k * H / sc})
    return rows


def lsq(rows):
    """(1/R, delta) minimising sum((u/R + v delta - y) / y)^2."""
    a = b = c = p = q = 0.0
    for r in rows:
        w = 1.0 / r['y'] ** 2
        a += w * r['u'] * r['u']
        b += w * r['u'] * r['v']
        c += w * r['v'] * r['v']
        p += w * r['u'] * r['y']
        q += w * r['v'] * r['y']
    det = a * c - b * b
    if det <= 1e-9 * a * c:   # u and v proportional: one I / tp in the rows
        return None
    return ((p * c - q * b) / det, (a * q - b * p) / det)


def lsq_rate(rows):
    """(1/R, 0): the rate alone, where the table has one I / tp and delta
    cannot be told from it."""
    num = sum(r['u'] * r['y'] / r['y'] ** 2 for r in rows)
    den = sum(r['u'] * r['u'] / r['y'] ** 2 for r in rows)
    return (num / den, 0.0) if den > 0 else None


def pred(f, r):
    return max(r['dec'], r['u'] * f[0] + r['v'] * f[1])


def mape(rows, f):
    return 100.0 * sum(abs(pred(f, r) - r['y']) / r['y'] for r in rows) / len(rows) if rows else float('nan')


def show(f):
    return f"R {1.0 / f[0]:.4g} FLOP/SM/clock, delta {f[1]:.3f}"


def report(name, rows):
    big = [r for r in rows if r['T'] >= FIT_MIN_T]
    mid = [r for r in rows if r['T'] >= 256]
    f = lsq(big)
    if not f:
        f = lsq_rate(big)
        name += " [one I / tp: R alone, delta 0]"
    if not f:
        return
    dec_only = (0.0, 0.0)
    print(f"{name}: {len(rows)} rows, fit on {len(big)} (T >= {FIT_MIN_T}): {show(f)}; MAPE of max(t_dec, t_math) "
          f"T >= 256 {mape(mid, f):.1f} % (t_dec alone {mape(mid, dec_only):.1f} %), all T {mape(rows, f):.1f} %")
    for key in ('gpu', 'engine'):
        vals = sorted({r[key] for r in rows})
        if len(vals) < 2:
            continue
        for g in vals:
            fg = lsq([r for r in big if r[key] != g]) or lsq_rate([r for r in big if r[key] != g])
            te = [r for r in mid if r[key] == g]
            if fg:
                print(f"  leave out {key} {g}: {show(fg)}; held-out MAPE T >= 256 {mape(te, fg):.1f} % "
                      f"({len(te)} rows; in-sample {mape(te, f):.1f} %)")
    byT = defaultdict(list)
    for r in rows:
        byT[r['T']].append(pred(f, r) / r['y'])
    print("  median predicted / measured by T: " +
          " ".join(f"{T}:{sorted(v)[len(v) // 2]:.2f}" for T, v in sorted(byT.items()) if T >= 128))
    return f


def main():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'aic_moe_w4a16_prefill.csv')
    rows = load(path)
    report("Marlin (vLLM, SGLang; int4 and mxfp4; H100, H200, B200)", [r for r in rows if r['fam'] == 'marlin'])
    report("Marlin int4 only", [r for r in rows if r['fam'] == 'marlin' and r['dtype'] == 'int4_wo'])
    unpadded = [dict(r, u=r['u_routed'], v=r['v_routed']) for r in rows if r['fam'] == 'marlin' and
                r['dtype'] == 'int4_wo']
    report("Marlin int4, tried: the routed rows without Marlin's padding", unpadded)
    # the rate as a share of the 16-bit tensor peak instead (u in peak-seconds
    # x SMs clock / peak: "1/R" then reads as 1/share x SMs clock / peak)
    peak = [dict(r, u=r['u'] * SMS[r['gpu']] * CLOCK / PEAK16[r['gpu']]) for r in rows
            if r['fam'] == 'marlin' and r['dtype'] == 'int4_wo']
    report("Marlin int4, tried: a share of the 16-bit peak (R printed is that share)", peak)
    hop = [r for r in rows if r['dtype'] == 'w4a16_mxfp4' and r['gpu'] != 'b200' and r['fam'] != 'marlin']
    report("mxfp4 on Hopper, not Marlin (pooled)", hop)
    for eng in sorted({r['engine'] for r in hop}):
        report(f"mxfp4 on Hopper, {eng} ({sorted({r['kernel'] for r in hop if r['engine'] == eng})[0]})",
               [r for r in hop if r['engine'] == eng])
    print("beside (not W4A16 in dlperf: Blackwell's FP4 path, SGLang's flashinfer int4 on B200):")
    for k in sorted({r['kernel'] for r in rows if r['gpu'] == 'b200' and r['fam'] != 'marlin'}):
        report(f"  b200 {k}", [r for r in rows if r['gpu'] == 'b200' and r['kernel'] == k])


if __name__ == '__main__':
    main()
