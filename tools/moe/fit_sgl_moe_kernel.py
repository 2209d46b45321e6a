#!/usr/bin/env python3
"""fit_sgl_moe_kernel.py -- SGLang's Blackwell fused MoE at prefill sizes
refitted on the kernel the B200 runs ran (issue 22, h247; docs/llm.md
"SGLang's Blackwell MoE priced as the kernel the runs ran").

aiconfigurator's SGLang 0.5.14 MoE tables (github ai-dynamo/aiconfigurator
095f58a5, aic-core/src/aiconfigurator_core/systems/data/{b200_sxm,b300_sxm,
gb200,gb300}/moe/sglang/0.5.14/moe_perf.parquet) carry a kernel_source
column.  On every Blackwell GPU the block-fp8 rows are timed under two
kernels on disjoint model shapes: sglang_flashinfer_trtllm_moe on 11 shapes
(DeepSeek-V3's 7168/2048/256/8 among them) and sglang_fused_moe_triton on
the 6 in TRITON below; the nvfp4 rows are all sglang_flashinfer_trtllm_moe.
aic_moe_prefill.csv (h167) pooled both fp8 kernels.  This refits MOE_PF's
two terms t = a + F / (eta peak) (floored by the weight stream) on the
flashinfer_trtllm rows alone, the kernel `--moe-runner-backend
flashinfer_trtllm` runs, and holds out by GPU and by model shape.
Usage: python3 tools/moe/fit_sgl_moe_kernel.py
"""
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_moe_prefill as fp  # noqa: E402

# (hidden, inter, experts, topk) of the sglang_fused_moe_triton fp8 rows
TRITON = {(3072, 1536, 256, 8), (4096, 14336, 8, 2), (4096, 2048, 256, 6), (4096, 2048, 256, 8),
          (6144, 16384, 8, 2), (7168, 3072, 384, 6)}
SHIPPED = (99.5e-6, 1 / 0.173)  # llm_serve.c MOE_PF[Blackwell][fp8][SGLang]


def shape(r):
    return (int(r['H']), int(r['I']), int(r['E']), int(r['K']))


def report(name, rows):
    c = fp.affine(rows)
    print('%s: %d rows, a %.1f us, eta %.4f, MAPE %.1f%% (shipped pooled fit on them %.1f%%)' % (
        name, len(rows), c[0] * 1e6, 1 / c[1], fp.mape(rows, c), fp.mape(rows, SHIPPED)))
    for key, lab in ((lambda r: r['g'], 'GPU'), (shape, 'shape')):
        out = []
        for k in sorted({key(r) for r in rows}):
            tr = [r for r in rows if key(r) != k]
            te = [r for r in rows if key(r) == k]
            c2 = fp.affine(tr)
            out.append('%s %.1f%% (shipped %.1f%%)' % (k, fp.mape(te, c2), fp.mape(te, SHIPPED)))
        print('  leave one %s out:\n    ' % lab + '\n    '.join(out))
    return c


def main():
    rows = [r for r in fp.load() if r['e'] == 'sglang' and r['arch'] == 'blackwell' and r['dist'] == 'balanced'
            and r['rpe'] >= fp.MIN_ROWS and r['ep'] == 1]
    fp8 = [r for r in rows if r['dt'] == 'fp8_block']
    fi = [r for r in fp8 if shape(r) not in TRITON]
    tri = [r for r in fp8 if shape(r) in TRITON]
    report('Blackwell fp8, both kernels (pooled, as shipped)', fp8)
    c = report('Blackwell fp8, sglang_flashinfer_trtllm_moe', fi)
    print('  the flashinfer_trtllm fit on the triton rows: MAPE %.1f%%' % fp.mape(tri, c))
    ds = [r for r in fi if shape(r) == (7168, 2048, 256, 8)]
    print('  DeepSeek-V3 shape: shipped %.1f%%, flashinfer_trtllm fit %.1f%%' % (fp.mape(ds, SHIPPED), fp.mape(ds, c)))


if __name__ == '__main__':
    main()
