#!/usr/bin/env python3
"""trt_front_end_gpus.py — TensorRT-LLM's first-token time by GPU count (issue 22,
h204; docs/llm.md "gpt-oss's cells ... findings"): a finding, nothing of it
compiled in.

Reads the bench's rows dump (bash bench/bench_llm.sh --serving silicon
--analytic-only --rows FILE) and
  1. prints, for the TensorRT-LLM aggregated rows at <= 16 clients without
     attention DP, the time each (family, GPU, source, prompt, GPUs) group
     leaves over the model's TTFT without its front end: measured - (predicted
     - REQ_FIT_TRTLLM_MS), the mean;
  2. fits a front end a + b log2(GPUs) in its place, first-order on the dump
     (the model's TTFT less the compiled front end plus the term), least
     squares on relative error over the TensorRT-LLM aggregated rows (all, or
     --own: the InferenceMAX-style and db-dump rows, trtllm-serve's own
     server), and refits it leaving out each GPU and each family.
Usage: python3 tools/inferencemax/trt_front_end_gpus.py ROWS.csv [--own]
"""
import csv
import math
import sys
from collections import defaultdict

FE = 46.8  # llm_serve.c REQ_FIT_TRTLLM_MS at 2b1dd8e


def ok(r):
    y, a = float(r['y_0']), float(r['a_0'])
    return not (math.isnan(y) or math.isnan(a) or y <= 0)


def x_of(r):
    return math.log2(max(1, int(r['gpus'])))


def fit(rs):
    """(a, b) minimising sum(((pred - FE + a + b x) - y) / y)^2."""
    s00 = s01 = s11 = v0 = v1 = 0.0
    for r in rs:
        y, base, x = float(r['y_0']), float(r['a_0']) - FE, x_of(r)
        w = 1.0 / (y * y)
        s00 += w; s01 += w * x; s11 += w * x * x
        v0 += w * (y - base); v1 += w * x * (y - base)
    det = s00 * s11 - s01 * s01
    return (v0 * s11 - s01 * v1) / det, (s00 * v1 - s01 * v0) / det


def mape(rs, a, b):
    return 100.0 * sum(abs(float(r['a_0']) - FE + a + b * x_of(r) - float(r['y_0'])) / float(r['y_0'])
                       for r in rs) / len(rs)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = [r for r in csv.DictReader(open(sys.argv[1])) if ok(r)]
    own = '--own' in sys.argv[2:]
    trt = [r for r in rows if r['backend'] == 'trtllm' and r['phase'] == '0']
    left = defaultdict(list)
    for r in trt:
        if int(r['conc']) <= 16 and r['dp'] == '1' and float(r['y_0']) < 5000:
            left[(r['family'], r['system'], r['src_name'], int(r['isl']), int(r['gpus']))].append(
                float(r['y_0']) - (float(r['a_0']) - FE))
    print('time left over the model without its front end (ms), TensorRT-LLM aggregated, <= 16 clients:')
    for k in sorted(left):
        v = left[k]
        print('  %-8s %-9s %-26s isl %5d GPUs %d: %7.1f (%d rows)' % (k + (sum(v) / len(v), len(v))))
    fitr = [r for r in trt if not own or r['src_name'].startswith(('InferenceMAX', 'db-dump'))]
    a, b = fit(fitr)
    print('front end a + b log2(GPUs) on %d rows: a %.1f ms, b %.1f ms; TensorRT-LLM aggregated TTFT %.2f -> %.2f %%'
          % (len(fitr), a, b, mape(trt, FE, 0), mape(trt, a, b)))
    for key in ('system', 'family'):
        for g in sorted({r[key] for r in trt}):
            tr = [r for r in fitr if r[key] != g]
            te = [r for r in trt if r[key] == g]
            if tr:
                a2, b2 = fit(tr)
                print('  leave out %s %s: a %.1f, b %.1f; %.1f -> %.1f %% (%d rows)'
                      % (key, g, a2, b2, mape(te, FE, 0), mape(te, a2, b2), len(te)))


if __name__ == '__main__':
    main()
