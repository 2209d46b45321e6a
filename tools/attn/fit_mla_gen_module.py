#!/usr/bin/env python3
"""fit_mla_gen_module.py (issue 22, h236; docs/llm.md): TensorRT-LLM's MLA
generation module beside its attention kernel, from aiconfigurator's tables.

aiconfigurator (github ai-dynamo/aiconfigurator 095f58a5,
aic-core/src/aiconfigurator_core/systems/data/<gpu>/mla/trtllm/1.3.0rc20/)
times DeepSeek-V3's whole MLA attention module in generation
(mla_generation_module_perf: collector/trtllm/collect_mla_module.py runs the
module's forward, projections + attention + output, at the local head count)
and the bare attention kernel (generation_mla_perf).  Their difference N is
what the module runs around the kernel: the fused q_a / kv_a down
projection, the two latent RMSNorms, q_b, RoPE, the absorbed BMMs before and
after the kernel, o_proj and the fp8 block-scale activation quantisations.
mla_gen_module/trtllm_1.3.0rc20.csv holds the fp8_block rows (DeepSeek-V3,
bf16 compute, both cache dtypes, ctx 1k-16k, 8-128 heads, batch 1-1024),
extracted with hyparquet as h147 / h229 did.

The form, per layer, h local heads, b sequences (one query token each):
    N = a + W / (eta_b BW) + F / (eta_f P8)
W the module's fp8 weight bytes at h heads (the down projections, replicated,
plus per head q_b, the two BMMs' W_UK / W_UV and o_proj's slice), F = 2 b W
(its GEMM FLOPs), BW the DRAM peak, P8 the fp8 dense peak (data/devices.json).
Least squares on relative error, per architecture (Hopper: H100, H200;
Blackwell: B200, B300, GB200, GB300), and each GPU held out (refit on the
others of its architecture).  Prints the constants the library compiles
(MLA_GEN_MOD in src/llm/llm_serve.c).

--selftest checks the weight count against DeepSeek-V3's shapes worked by
hand.
"""
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# DeepSeek-V3 / R1 (config.json): hidden 7168, q_lora_rank 1536,
# kv_lora_rank 512, qk_rope 64, qk_nope 128, v_head 128
H, RQ, RKV, DR, DN, DV = 7168, 1536, 512, 64, 128, 128
# data/devices.json: DRAM GB/s, fp8 dense TFLOPS
DEV = {'h100_sxm': (3350, 1978.9), 'h200_sxm': (4800, 1978.9), 'b200_sxm': (8000, 4500),
       'b300_sxm': (8000, 4500), 'gb200': (8000, 5000), 'gb300': (8000, 5000)}
ARCH = {'hopper': ('h100_sxm', 'h200_sxm'), 'blackwell': ('b200_sxm', 'b300_sxm', 'gb200', 'gb300')}


def weight_bytes(h):
    """fp8 weight bytes one layer's MLA module reads at h local heads."""
    down = H * (RQ + RKV + DR)              # fused q_a + kv_a (replicated)
    per_head = RQ * (DN + DR) + RKV * (DN + DV) + DV * H  # q_b, W_UK + W_UV, o_proj
    return down + h * per_head


def load():
    rows = []
    with open(os.path.join(HERE, 'mla_gen_module', 'trtllm_1.3.0rc20.csv')) as f:
        for r in csv.DictReader(f):
            n_us = (float(r['module_ms']) - float(r['kernel_ms'])) * 1e3
            h, b = int(r['num_heads']), int(r['batch_size'])
            if n_us <= 0 or r['gpu'] not in DEV:
                continue
            bw, p8 = DEV[r['gpu']]
            w = weight_bytes(h)
            x = (1.0, w / (bw * 1e9) * 1e6, 2.0 * b * w / (p8 * 1e12) * 1e6)  # us
            rows.append((r['gpu'], x, n_us))
    return rows


def solve3(A, y):
    """3x3 linear system by Cramer's rule."""
    def det(m):
        return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
    d = det(A)
    out = []
    for j in range(3):
        m = [row[:] for row in A]
        for i in range(3):
            m[i][j] = y[i]
        out.append(det(m) / d)
    return out


def fit(rows):
    """Least squares of 1 = x . c / N (relative error): c = (a, 1/eta_b, 1/eta_f)."""
    A = [[0.0] * 3 for _ in range(3)]
    y = [0.0] * 3
    for _, x, n in rows:
        z = [v / n for v in x]
        for i in range(3):
            y[i] += z[i]
            for j in range(3):
                A[i][j] += z[i] * z[j]
    return solve3(A, y)


def mape(rows, c):
    e = [abs(sum(ci * xi for ci, xi in zip(c, x)) - n) / n for _, x, n in rows]
    return 100.0 * sum(e) / len(e)


def selftest():
    # by hand: down 7168 x 2112 = 15,138,816; a head 1536 x 192 + 512 x 256
    # + 128 x 7168 = 294,912 + 131,072 + 917,504 = 1,343,488
    assert weight_bytes(0) == 15138816, weight_bytes(0)
    assert weight_bytes(16) == 15138816 + 16 * 1343488
    print('selftest ok')


def main():
    if '--selftest' in sys.argv:
        selftest()
        return
    rows = load()
    for arch, gpus in ARCH.items():
        mine = [r for r in rows if r[0] in gpus]
        c = fit(mine)
        print('%s: a %.2f us, eta_b %.3f, eta_f %.3f; MAPE %.1f %% on %d rows' %
              (arch, c[0], 1.0 / c[1], 1.0 / c[2], mape(mine, c), len(mine)))
        for g in gpus:
            held = [r for r in mine if r[0] == g]
            rest = [r for r in mine if r[0] != g]
            ch = fit(rest)
            print('  %s held out: a %.2f eta_b %.3f eta_f %.3f -> MAPE %.1f %% (in-sample fit on it %.1f %%)' %
                  (g, ch[0], 1.0 / ch[1], 1.0 / ch[2], mape(held, ch), mape(held, c)))
        for h in (16, 128):
            for b in (1, 16, 64):
                pts = [r for r in mine if abs(r[1][1] - weight_bytes(h) / (DEV[r[0]][0] * 1e9) * 1e6) < 1e-9 and
                       abs(r[1][2] - 2.0 * b * weight_bytes(h) / (DEV[r[0]][1] * 1e12) * 1e6) < 1e-9]
                if pts:
                    m = sorted(p[2] for p in pts)[len(pts) // 2]
                    f = sum(ci * xi for ci, xi in zip(c, pts[0][1]))
                    print('    %3d heads, batch %3d: table median %.1f us, fit %.1f us (%s)' % (h, b, m, f, pts[0][0]))


if __name__ == '__main__':
    main()
