#!/usr/bin/env python3
"""fit_trt_alltoall.py — TensorRT-LLM's MNNVL all-to-all (the two-sided
kernel) of src/llm/llm_serve.c (ep_a2a_trt_s: A2A_TRT_*; docs/llm.md,
"Expert parallelism's dispatch and combine at prefill sizes, by engine",
h191), fitted on measured kernel times, never on serving rows.

Data: aic_trtllm_alltoall_gb200.csv beside this script — aiconfigurator's
table (github ai-dynamo/aiconfigurator at 095f58a5, Apache-2.0 (NVIDIA),
aic-core/src/aiconfigurator_core/systems/data/gb200/comm/trtllm/1.3.0rc10/
trtllm_alltoall_perf.parquet, read with the npm package hyparquet +
hyparquet-compressors; values unchanged, latency in ms): TensorRT-LLM
1.2.0rc6 on GB200, kernel NVLinkTwoSided, DeepSeek's shape (hidden 7168,
256 experts, top 8), balanced routing, EP 2-64, payload bf16 / fp8 / nvfp4,
1-65,536 tokens a rank; ops alltoall_prepare, alltoall_dispatch,
alltoall_combine (bf16; the nvfp4 rows' low-precision combine is not used).

Model, per MoE layer: t = t0 + bytes / rate, bytes = the rows a rank sends
to other ranks x hidden x (payload bytes + 2 for the bf16 combine), a token
going once to each rank holding any of its experts: rows = tokens x
ep (1 - C(E - E/ep, K) / C(E, K)) x (ep - 1) / ep.  `--per-expert` counts
every routed row instead (tokens x K x (ep - 1) / ep; worse).  Checks
printed: each EP size held out, each payload held out.
Usage: python3 tools/moe/fit_trt_alltoall.py [--per-expert]
"""
import collections
import csv
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PAYLOAD = {'bfloat16': 2.0, 'fp8': 1.0 + 4.0 / 128.0, 'nvfp4': 0.5 + 1.0 / 16.0}


def distinct_ranks(E, K, ep):
    per, miss = E / ep, 1.0
    for i in range(K):
        miss *= max(0.0, (E - per - i) / (E - i))
    return ep * (1.0 - miss)


def load(per_expert):
    ops = collections.defaultdict(dict)
    with open(os.path.join(HERE, 'aic_trtllm_alltoall_gb200.csv')) as f:
        for r in csv.DictReader(f):
            key = (r['moe_dtype'], int(r['moe_ep_size']), int(r['num_tokens']), int(r['hidden_size']),
                   int(r['topk']), int(r['num_experts']))
            ops[key][r['op_name']] = float(r['latency']) * 1e3  # us
    rows = []
    for (dt, ep, t, h, k, e), m in ops.items():
        y = m.get('alltoall_prepare', 0.0) + m['alltoall_dispatch'] + m['alltoall_combine']
        n = t * (k if per_expert else distinct_ranks(e, k, ep)) * (ep - 1) / ep
        rows.append(dict(dt=dt, ep=ep, y=y, x=n * h * (PAYLOAD[dt] + 2.0) / 1e3))  # us at 1 GB/s
    return rows


def fit2(rows):
    s00 = s01 = s11 = v0 = v1 = 0.0
    for r in rows:
        w = 1.0 / (r['y'] * r['y'])
        s00 += w; s01 += w * r['x']; s11 += w * r['x'] * r['x']; v0 += w * r['y']; v1 += w * r['x'] * r['y']
    det = s00 * s11 - s01 * s01
    return (v0 * s11 - s01 * v1) / det, det / (s00 * v1 - s01 * v0)


def mape(rows, t0, rate):
    return statistics.mean(abs(t0 + r['x'] / rate - r['y']) / r['y'] * 100 for r in rows)


def main():
    rows = load('--per-expert' in sys.argv)
    t0, rate = fit2(rows)
    print('prepare + dispatch + combine (%d rows): t0 %.2f us, rate %.1f GB/s; MAPE %.1f %%'
          % (len(rows), t0, rate, mape(rows, t0, rate)))
    for key, label in (('ep', 'EP'), ('dt', 'payload')):
        out = []
        for v in sorted({r[key] for r in rows}):
            a, b = fit2([r for r in rows if r[key] != v])
            out.append('%s %.1f %%' % (v, mape([r for r in rows if r[key] == v], a, b)))
        print('    each %s held out: %s' % (label, ', '.join(out)))


if __name__ == '__main__':
    main()
