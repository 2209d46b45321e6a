#!/usr/bin/env python3
"""fit_moe_imb_fp4.py (issue 22, h240; docs/llm.md): the busiest EP rank of
an MoE layer at prefill sizes, fitted per format on aiconfigurator's
TensorRT-LLM tables (tools/moe/aic_moe_prefill.csv, 095f58a5).

fit_moe_prefill.py fits power_law_1.01 / balanced - 1 = b0 + b1 log2(EP)
log2(T / 512) on every format at once (llm_serve.c MOE_PF_IMB_B0 / _B1);
this reads the same rows (TensorRT-LLM, moe_tp 1, >= 64 rows an expert) one
format at a time, against the pooled constants, leaving out each GPU, each model
shape (hidden, intermediate, experts, top-k: the families) and fitting below 8,192 / 16,384 tokens to test on the larger steps.  The
nvfp4 fit is llm_serve.c MOE_PF_IMB_FP4_B0 / _B1.  Run from the repository
root: python3 tools/moe/fit_moe_imb_fp4.py (a second)."""
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_moe_prefill as F  # noqa: E402

POOLED = (0.1512, 0.0393)


def points(rows):
    """(x = log2(EP) log2(T / 512), power / balanced - 1, GPU, format, T) per table row."""
    idx = {(r['g'], r['e'], r['dt'], r['T'], r['H'], r['I'], r['E'], r['K'], r['tp'], r['ep'], r['dist']): r
           for r in rows}
    out = []
    for k, r in idx.items():
        if k[1] != 'trtllm' or k[10] != 'power_law_1.01' or k[8] != 1:
            continue
        b = idx.get(k[:10] + ('balanced',))
        if b and r['rpe'] >= F.MIN_ROWS:
            out.append((math.log2(r['ep']) * math.log2(r['T'] / 512.0), r['t'] / b['t'] - 1, k[0], k[2], r['T'],
                        (r['H'], r['I'], r['E'], r['K'])))
    return out


def fit(ps):
    """Least squares of y = b0 + b1 x."""
    n = len(ps)
    sx, sy = sum(p[0] for p in ps), sum(p[1] for p in ps)
    sxx, sxy = sum(p[0] ** 2 for p in ps), sum(p[0] * p[1] for p in ps)
    b1 = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    return (sy - b1 * sx) / n, b1


def err(ps, c):
    """MAPE % of the busiest rank's ratio 1 + b0 + b1 x against the table's."""
    return 100 * statistics.mean(abs((1 + c[0] + c[1] * p[0]) / (1 + p[1]) - 1) for p in ps)


def main():
    pts = points(F.load())
    for dt in sorted({p[3] for p in pts}):
        ps = [p for p in pts if p[3] == dt]
        c = fit(ps)
        print('%-9s %5d rows: b0 %.4f b1 %.4f, MAPE %.1f %% (pooled %.1f %%); median ratio %.3f; '
              'EP 4 at 65,536 tokens %.2f (pooled %.2f)' % (
                  dt, len(ps), c[0], c[1], err(ps, c), err(ps, POOLED), 1 + statistics.median(p[1] for p in ps),
                  1 + c[0] + c[1] * 14, 1 + POOLED[0] + POOLED[1] * 14))
        for g in sorted({p[2] for p in ps}):
            c2 = fit([p for p in ps if p[2] != g])
            te = [p for p in ps if p[2] == g]
            print('    leave out %-9s b0 %.4f b1 %.4f: held-out %.1f %% (pooled %.1f %%)' % (
                g, c2[0], c2[1], err(te, c2), err(te, POOLED)))
        for sh in sorted({p[5] for p in ps}):   # the model shape (hidden, inter, experts, top-k): by family
            c2 = fit([p for p in ps if p[5] != sh])
            te = [p for p in ps if p[5] == sh]
            print('    leave out shape H %d I %d E %d K %d (%d rows): held-out %.1f %% (pooled %.1f %%)' % (
                sh + (len(te), err(te, c2), err(te, POOLED))))
        for cut in (8192, 16384):
            te = [p for p in ps if p[4] >= cut]
            c2 = fit([p for p in ps if p[4] < cut])
            print('    fit under %5d tokens, test the %d rows at or above: held-out %.1f %% (pooled %.1f %%)' % (
                cut, len(te), err(te, c2), err(te, POOLED)))


if __name__ == '__main__':
    main()
