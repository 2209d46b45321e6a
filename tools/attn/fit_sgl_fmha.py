#!/usr/bin/env python3
"""fit_sgl_fmha.py — SGLang's MLA prefill attention op alone (the FMHA of a
context step, its KV-cache write and the backend's per-token work) at
prefill sizes (issue 22, h241; docs/llm.md).  A fit on kernel tables, never
on serving rows.

Data: aic_mla_context_sglang_fmha.csv beside this script — aiconfigurator's
context_mla_perf tables for SGLang 0.5.9 (github ai-dynamo/aiconfigurator
095f58a5, Apache-2.0 (NVIDIA), aic-core/src/aiconfigurator_core/systems/
data/{b200_sxm,b300_sxm,gb200,gb300,h100_sxm,h200_sxm}/mla/sglang/0.5.9/
context_mla_perf.parquet, read with hyparquet; 0.5.9 the nearest table to
the runs' lmsysorg/sglang:v0.5.8.post1): collector/sglang/collect_mla.py
times the RadixAttention layer's forward in EXTEND mode under the
platform's default MLA backend — Blackwell trtllm_mla, Hopper
flash_attention (FA3) — with num_heads the GPU's local heads; rows
averaged over the model shapes that give the same local heads, batch x isl
>= 1,024 tokens.

Model, per layer on one GPU (h local heads, b prompts of s tokens, N = b s):
  t = a + c N h + Ff / (eta P16),   Ff = b s^2 h (192 + 128)
(the causal QK and PV over half the square, as fit_mla_context.py), P16
the bf16 dense peak; c a token's work per head (building its 192-wide K
and the Q / V views, the KV write): with c N alone the Blackwell fp8 fit
is 32.0 % MAPE, with c N h 10.9 %.  Least squares on relative error per generation and
KV dtype, heads >= 8 (DeepSeek-V3's 128 over TP <= 16); held out by GPU.
Usage: python3 tools/attn/fit_sgl_fmha.py
"""
import csv
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
P16 = {'h100_sxm': 989.4, 'h200_sxm': 989.4, 'b200_sxm': 2250, 'b300_sxm': 2250, 'gb200': 2500, 'gb300': 2500}


def feats(r):
    h, b, s = float(r['num_heads']), float(r['batch']), float(r['isl'])
    return [1e-6, b * s * h * 1e-9, b * s * s * h * 320.0 / (P16[r['gpu']] * 1e12)]  # a us, c ns a token-head, 1 / eta


def solve3(A, y):
    M = [[sum(a[i] * a[j] for a in A) for j in range(3)] + [sum(a[i] * t for a, t in zip(A, y))] for i in range(3)]
    for i in range(3):
        p = max(range(i, 3), key=lambda k: abs(M[k][i]))
        M[i], M[p] = M[p], M[i]
        for k in range(3):
            if k != i:
                f = M[k][i] / M[i][i]
                M[k] = [x - f * z for x, z in zip(M[k], M[i])]
    return [M[i][3] / M[i][i] for i in range(3)]


def fit(rows):
    return solve3([[x / (float(r['latency_ms']) * 1e-3) for x in feats(r)] for r in rows], [1.0] * len(rows))


def mape(rows, c):
    return 100 * statistics.mean(abs(sum(a * b for a, b in zip(feats(r), c)) / (float(r['latency_ms']) * 1e-3) - 1)
                                 for r in rows)


def main():
    rows = [r for r in csv.DictReader(open(os.path.join(HERE, 'aic_mla_context_sglang_fmha.csv')))
            if float(r['num_heads']) >= 8]
    print('t = a + c N h + Ff / (eta P16) per layer; SGLang 0.5.9 context_mla, heads >= 8, N >= 1,024')
    for gen, gpus in (('blackwell', ('b200_sxm', 'b300_sxm', 'gb200', 'gb300')), ('hopper', ('h100_sxm', 'h200_sxm'))):
        for kv in ('fp8', 'bf16'):
            g = [r for r in rows if r['gpu'] in gpus and r['kv'] == kv]
            c = fit(g)
            lo = []
            for gpu in gpus:
                tr, te = [r for r in g if r['gpu'] != gpu], [r for r in g if r['gpu'] == gpu]
                c2 = fit(tr)
                lo.append('%s %.1f us %.2f ns %.3f -> %.1f%%' % (gpu, c2[0], c2[1], 1 / c2[2], mape(te, c2)))
            print('%-9s kv %-4s %4d rows: a %.2f us, c %.3f ns a token-head, eta %.4f, MAPE %.1f %%' %
                  (gen, kv, len(g), c[0], c[1], 1 / c[2], mape(g, c)))
            print('    leave one GPU out: ' + '; '.join(lo))


if __name__ == '__main__':
    main()
