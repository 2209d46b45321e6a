#!/usr/bin/env python3
"""fit_mla_context.py — the context-MLA module of DeepSeek-V3's layer at
prefill sizes (issue 22, h167; docs/llm.md "The DeepSeek prefill priced
against aiconfigurator's op tables").  A fit on kernel tables, never on
serving rows.

Data: aic_mla_context_module.csv beside this script — aiconfigurator's
mla_context_module_perf tables (github ai-dynamo/aiconfigurator 095f58a5,
Apache-2.0 (NVIDIA), aic-core/src/aiconfigurator_core/systems/data/
{h100_sxm,h200_sxm,b200_sxm,b300_sxm,gb200,gb300}/mla/{trtllm/1.3.0rc20,
vllm/0.24.0}/mla_context_module_perf.parquet, read with hyparquet):
DeepSeek-V3's attention module of one layer (collector/trtllm/
collect_mla_module.py: the engine's own module at num_heads local heads,
tp_size 1: fused q_a / kv_a down projections, the norms, q_b and kv_b up
projections of every context token, RoPE, the FMHA, o_proj), bf16 FMHA,
fp8 KV, GEMMs fp8_block or bf16 (the nvfp4 checkpoints keep attention
16-bit), batch x isl >= 1,024 tokens.

Model, per layer on one GPU (h heads a GPU, b prompts of s tokens, N = b s):
  t = a + c N + Fp / (eta_p Pg) + Ff / (eta_f P16)
  Fp = 2 N (7168 x 2112 + 1536 x 192 h + 512 x 256 h + 128 h x 7168)
  Ff = b s^2 h (192 + 128)            (causal: QK and PV over half the square)
Pg the GEMM format's dense peak, P16 the bf16 peak (data/devices.json).
Least squares on relative error, per engine and GEMM format; held out by
GPU (fit on the others, MAPE on the one left out).

SGLang (h174): aic_mla_context_sglang_wideep.csv — the same repository's
{b200_sxm,b300_sxm,gb200,gb300,h100_sxm,h200_sxm}/mla/sglang/0.5.10/
wideep_context_mla_perf.parquet: SGLang's attention module under attention
DP (tp_size 1, 8-128 heads on the GPU), fp8_block GEMMs, fp8 KV; Blackwell
trtllm_mla, Hopper both its flashinfer and fa3 rows; batch x isl >= 1,024;
fitted with c = 0.  Not compiled in (docs/llm.md, h174: a floor from it
moved silicon TTFT 32.55 -> 32.52 % but GB300's prefill workers 35.5 ->
37.9 %).
Usage: python3 tools/attn/fit_mla_context.py
"""
import csv
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
PEAK = {'h100_sxm': (989.4, 1978.9), 'h200_sxm': (989.4, 1978.9), 'b200_sxm': (2250, 4500),
        'b300_sxm': (2250, 4500), 'gb200': (2500, 5000), 'gb300': (2500, 5000)}


def feats(r):
    h, b, s = float(r['num_heads']), float(r['batch']), float(r['isl'])
    N = b * s
    p16, p8 = (x * 1e12 for x in PEAK[r['gpu']])
    pg = p8 if r['gemm_type'] == 'fp8_block' else p16
    Fp = 2 * N * (7168 * 2112 + 1536 * 192 * h + 512 * 256 * h + 128 * h * 7168)
    Ff = b * s * s * h * 320.0
    return [1e-6, N * 1e-9, Fp / pg, Ff / p16]   # a in us, c in ns a token, 1/eta_p, 1/eta_f


def solve(A, y):
    n = len(A[0])
    M = [[sum(a[i] * a[j] for a in A) for j in range(n)] + [sum(a[i] * t for a, t in zip(A, y))] for i in range(n)]
    for i in range(n):
        p = max(range(i, n), key=lambda r: abs(M[r][i]))
        M[i], M[p] = M[p], M[i]
        for r in range(n):
            if r != i:
                f = M[r][i] / M[i][i]
                M[r] = [x - f * z for x, z in zip(M[r], M[i])]
    return [M[i][n] / M[i][i] for i in range(n)]


def fit(rows, noc=False):
    """noc: c held at 0 (the free fit puts SGLang's c below 0)."""
    if noc:
        A = [[x / (float(r['latency_ms']) * 1e-3) for i, x in enumerate(feats(r)) if i != 1] for r in rows]
        a, p, f = solve(A, [1.0] * len(rows))
        return [a, 0.0, p, f]
    A = [[x / (float(r['latency_ms']) * 1e-3) for x in feats(r)] for r in rows]
    return solve(A, [1.0] * len(rows))


def mape(rows, c):
    return 100 * statistics.mean(abs(sum(a * b for a, b in zip(feats(r), c)) / (float(r['latency_ms']) * 1e-3) - 1)
                                 for r in rows)


def main():
    rows = list(csv.DictReader(open(os.path.join(HERE, 'aic_mla_context_module.csv'))))
    rows += list(csv.DictReader(open(os.path.join(HERE, 'aic_mla_context_sglang_wideep.csv'))))
    for eng in ('trtllm', 'vllm', 'sglang'):
        for gt in ('fp8_block', 'bfloat16'):
            g = [r for r in rows if r['engine'] == eng and r['gemm_type'] == gt]
            if not g:
                continue
            noc = eng == 'sglang'
            c = fit(g, noc)
            print('%-6s %-9s %5d rows: a %.1f us, c %.2f ns a token, eta_p %.3f, eta_f %.3f, MAPE %.1f%%'
                  % (eng, gt, len(g), c[0], c[1], 1 / c[2], 1 / c[3], mape(g, c)))
            for gpu in sorted({r['gpu'] for r in g}):
                tr = [r for r in g if r['gpu'] != gpu]
                c2 = fit(tr, noc)
                print('    leave out %-9s a %.1f c %.2f eta_p %.3f eta_f %.3f -> held-out MAPE %.1f%%'
                      % (gpu, c2[0], c2[1], 1 / c2[2], 1 / c2[3], mape([r for r in g if r['gpu'] == gpu], c2)))


if __name__ == '__main__':
    main()
