#!/usr/bin/env python3
"""fit_dsa_gen_module.py (issue 22, h245; docs/llm.md): SGLang's whole DSA
attention module in generation, from aiconfigurator's tables.

aiconfigurator (github ai-dynamo/aiconfigurator 095f58a5,
aic-core/src/aiconfigurator_core/systems/data/<gpu>/sparse_attention/sglang/
<version>/dsa_generation_module_perf.parquet) times the whole DSA attention
module's forward of GLM-5 / GLM-5-FP8 and DeepSeek-V3.2 in generation (the
down projections, latent norms, q_b, the indexer's projections and its top-k
over the context, RoPE, the absorbed BMMs, the sparse attention kernel,
o_proj) at the local head count, one query token per sequence (isl 1, step
= the context).  dsa_gen_module/sglang_dsa_gen.csv holds the fp8_block rows
of every stored version (bf16 and fp8 cache, 8-128 heads) in the serving
steps' range (batch 1-256, ctx 256-16k), extracted with hyparquet as h236
did.

The form, per layer, h local heads, b sequences at context ctx:
    M = a + W / (eta_b BW) + 2 b W / (eta_f P8) + K / (eta_k BW)
W the module's fp8 weight bytes at h heads (the fused q_a / kv_a down
projection, the indexer's wq_b / wk / weights_proj, replicated; per head
q_b, W_UK / W_UV and o_proj's slice), K = b (ctx (dI + 4) + min(ctx, topk)
(kv_lora + rope) e) the bytes the indexer's fp8 keys (+ scale) and the
top-k latent cache rows (e bytes an element: 2 bf16, 1 fp8) stream.  Linear
in (a, 1/eta_b, 1/eta_f, 1/eta_k): least squares on relative error.
Hold-outs: each GPU of an architecture, each model, and the batch (fit on
b <= 16, checked on b >= 32).

Usage: fit_dsa_gen_module.py [VERSION] (default 0.5.10); --selftest checks
the weight count of GLM-5 at 8 heads by hand.
"""
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# data/llm_configs.json: hidden, q_lora, kv_lora, rope, nope, v, index dim,
# index heads, topk
MODELS = {'GLM-5': (6144, 2048, 512, 64, 192, 256, 128, 32, 2048),
          'GLM-5-FP8': (6144, 2048, 512, 64, 192, 256, 128, 32, 2048),
          'DeepSeek-V3.2': (7168, 1536, 512, 64, 128, 128, 128, 64, 2048)}
# data/devices.json: DRAM GB/s, fp8 dense TFLOPS
DEV = {'h100': (3350, 1978.9), 'h200': (4800, 1978.9), 'b200': (8000, 4500), 'b300': (8000, 4500)}
ARCH = {'hopper': ('h100', 'h200'), 'blackwell': ('b200', 'b300')}


def weight_bytes(model, h):
    """fp8 weight bytes one layer's DSA module reads at h local heads."""
    H, rq, rkv, dr, dn, dv, di, ni, _ = MODELS[model]
    down = H * (rq + rkv + dr) + rq * ni * di + H * di + H * ni  # q_a/kv_a, indexer
    return down + h * (rq * (dn + dr) + rkv * (dn + dv) + dv * H)


def cache_bytes(model, b, ctx, kv):
    """Bytes the indexer's keys and the top-k latent rows stream."""
    _, _, rkv, dr, _, _, di, _, topk = MODELS[model]
    e = 1 if kv == 'fp8' else 2
    return b * (ctx * (di + 4) + min(ctx, topk) * (rkv + dr) * e)


def load(version):
    rows = []
    with open(os.path.join(HERE, 'dsa_gen_module', 'sglang_dsa_gen.csv')) as f:
        for r in csv.DictReader(f):
            if r['version'] != version or r['gpu'] not in DEV:
                continue
            h, b, ctx = int(r['num_heads']), int(r['batch_size']), int(r['ctx'])
            if ctx < 256 or ctx > 16384 or b > 256:
                continue  # the serving steps' range
            bw, p8 = DEV[r['gpu']][0] * 1e9, DEV[r['gpu']][1] * 1e12
            w = weight_bytes(r['model'], h)
            x = (1.0, w / bw * 1e6, 2 * b * w / p8 * 1e6,
                 cache_bytes(r['model'], b, ctx, r['kv_cache_dtype']) / bw * 1e6)
            rows.append((r['gpu'], r['model'], b, x, float(r['module_ms']) * 1e3))
    return rows


def solve(A, y):
    n = len(y)
    M = [A[i][:] + [y[i]] for i in range(n)]
    for c in range(n):
        p = max(range(c, n), key=lambda i: abs(M[i][c]))
        M[c], M[p] = M[p], M[c]
        for i in range(n):
            if i != c:
                f = M[i][c] / M[c][c]
                M[i] = [u - f * v for u, v in zip(M[i], M[c])]
    return [M[i][n] / M[i][i] for i in range(n)]


def fit(rows):
    """(a us, eta_b, eta_f, eta_k) minimising the squared relative error."""
    A = [[0.0] * 4 for _ in range(4)]
    y = [0.0] * 4
    for _, _, _, x, m in rows:
        for i in range(4):
            y[i] += x[i] / m
            for j in range(4):
                A[i][j] += x[i] * x[j] / (m * m)
    c = solve(A, y)
    return [c[0]] + [1.0 / max(v, 1e-9) for v in c[1:]]


def pred(f, x):
    return f[0] + x[1] / f[1] + x[2] / f[2] + x[3] / f[3]


def mape(f, rows):
    return 100.0 * sum(abs(pred(f, x) / m - 1) for *_, x, m in rows) / max(1, len(rows))


def main():
    if '--selftest' in sys.argv:
        # GLM-5, 8 heads: 6144 x (2048 + 512 + 64) = 16,121,856; indexer
        # 2048 x 32 x 128 + 6144 x 128 + 6144 x 32 = 9,371,648; per head
        # 2048 x 256 + 512 x 448 + 256 x 6144 = 2,326,528, x 8 = 18,612,224
        assert weight_bytes('GLM-5', 8) == 16121856 + 9371648 + 18612224
        print('selftest ok')
        return
    version = sys.argv[1] if len(sys.argv) > 1 else '0.5.10'
    rows = load(version)
    for arch, gpus in ARCH.items():
        R = [r for r in rows if r[0] in gpus]
        if not R:
            continue
        f = fit(R)
        print('%s %s: a %.2f us, eta_b %.3f, eta_f %.3f, eta_k %.3f; MAPE %.1f %% (%d rows)'
              % (version, arch, *f, mape(f, R), len(R)))
        for g in gpus:
            tr, te = [r for r in R if r[0] != g], [r for r in R if r[0] == g]
            if tr and te and len({r[0] for r in tr}) > 0:
                print('  %s held out: %.1f %% (%d rows)' % (g, mape(fit(tr), te), len(te)))
        for m in sorted({r[1] for r in R}):
            tr, te = [r for r in R if r[1] != m], [r for r in R if r[1] == m]
            if tr and te:
                print('  %s held out: %.1f %% (%d rows)' % (m, mape(fit(tr), te), len(te)))
        tr, te = [r for r in R if r[2] <= 16], [r for r in R if r[2] >= 32]
        print('  batch >= 32 held out (fit on <= 16): %.1f %% (%d rows)' % (mape(fit(tr), te), len(te)))


if __name__ == '__main__':
    main()
