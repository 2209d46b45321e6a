#!/usr/bin/env python3
"""fit_ep_a2a.py — the expert-parallel all-to-all of src/llm/llm_serve.c
(ep_a2a_s: A2A_T0_*_US, A2A_ETA_*, A2A_T0_NODE_US; docs/llm.md, "The
all-to-all of expert parallelism"), fitted on measured kernel times, never on
serving rows.

Data: aic_deepep_ll_h100.csv beside this script — aiconfigurator's DeepEP
low-latency tables (github ai-dynamo/aiconfigurator at 095f58a5, Apache-2.0
(NVIDIA), aic-core/src/aiconfigurator_core/systems/data/h100_sxm/comm/sglang/
{0.5.12,0.5.6.post2}/wideep_deepep_ll_perf.parquet, read with the npm package
hyparquet + hyparquet-compressors; values unchanged, microseconds).  Each row
times one DeepEP low-latency dispatch (fp8 + a 4-byte scale per 128 values)
and one combine (bf16) on 8 x node_num H100 SXM (EP = 8 x node_num;
aiconfigurator's loader: "ep_size = node_num * 8"), num_token tokens per rank,
each sent once per chosen expert (the tables' own bandwidth column counts
num_token x topk x hidden x bytes per rank).

Model, per kernel: t = t0 + bytes / BW, bytes = the rank's routed rows x
hidden x bytes per element.  Inside one NVLink node BW = eta x the GPU's
one-way NVLink rate (H100: 450 GB/s of its 900 bidirectional); past the node
the share (1 - 8 / EP) of the bytes that leaves it goes at BW = the NIC's
(400 Gb/s = 50 GB/s, a datasheet figure, not fitted; the free fit gives
46-47 GB/s) with its own floor.  Fitted by least squares on relative error.
Checks printed: the intranode fit (collection 0.5.12, hidden 2048-7168)
held out on the other collection's EP 8 rows and leaving out each hidden
size; the internode floors fitted on EP 16 and held out on EP 32 and back.
Usage: python3 tools/moe/fit_ep_a2a.py
"""
import csv
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
NVL_ONE_WAY_H100 = 450.0   # GB/s: NVLink 4, 900 GB/s both directions (data/devices.json)
NIC_GBS = 50.0             # GB/s: one 400 Gb/s ConnectX-7 per GPU (llm_serve.c IB_GBS)
DISPATCH_B = 1.0 + 4.0 / 128.0   # fp8 + an fp32 scale per 128 (DeepEP low-latency dispatch)
COMBINE_B = 2.0                  # bf16


def load():
    rows = []
    with open(os.path.join(HERE, 'aic_deepep_ll_h100.csv')) as f:
        for r in csv.DictReader(f):
            rows.append(dict(coll=r['collection'], ep=8 * int(r['node_num']), h=int(r['hidden_size']),
                             t=int(r['num_token']), k=int(r['num_topk']),
                             d=float(r['dispatch_avg_t_us']), c=float(r['combine_avg_t_us'])))
    return rows


def xbytes(r, which):
    b = r['t'] * r['k'] * r['h'] * (DISPATCH_B if which == 'd' else COMBINE_B)
    return b * (1.0 - 8.0 / r['ep']) if r['ep'] > 8 else b


def fit2(rows, which):
    """t0 (us) and BW (GB/s) by least squares on relative error."""
    s00 = s01 = s11 = v0 = v1 = 0.0
    for r in rows:
        y, x = r[which], xbytes(r, which)
        w = 1.0 / (y * y)
        s00 += w; s01 += w * x; s11 += w * x * x; v0 += w * y; v1 += w * x * y
    det = s00 * s11 - s01 * s01
    t0 = (v0 * s11 - s01 * v1) / det
    c = (s00 * v1 - s01 * v0) / det
    return t0, 1.0 / c / 1e3


def fit_t0(rows, which, bw):
    """t0 alone with BW fixed (relative least squares)."""
    num = den = 0.0
    for r in rows:
        y = r[which]
        w = 1.0 / (y * y)
        num += w * (y - xbytes(r, which) / (bw * 1e3)); den += w
    return num / den


def mape(rows, which, t0, bw):
    return statistics.mean(abs(t0 + xbytes(r, which) / (bw * 1e3) - r[which]) / r[which] * 100 for r in rows)


def main():
    rows = load()
    intra = [r for r in rows if r['coll'] == '0.5.12' and r['ep'] == 8]
    other8 = [r for r in rows if r['coll'] != '0.5.12' and r['ep'] == 8]
    ep16 = [r for r in rows if r['ep'] == 16]
    ep32 = [r for r in rows if r['ep'] == 32]
    for which, name in (('d', 'dispatch'), ('c', 'combine')):
        t0, bw = fit2(intra, which)
        print('%s intranode (EP 8, %d rows): t0 %.2f us, BW %.1f GB/s = eta %.3f x %.0f; MAPE %.1f %%; '
              'held out: the other collection\'s EP 8 (%d rows) %.1f %%'
              % (name, len(intra), t0, bw, bw / NVL_ONE_WAY_H100, NVL_ONE_WAY_H100, mape(intra, which, t0, bw),
                 len(other8), mape(other8, which, t0, bw)))
        for h in sorted({r['h'] for r in intra}):
            a, b = fit2([r for r in intra if r['h'] != h], which)
            print('    without hidden %d: t0 %.2f us, eta %.3f; held-out MAPE %.1f %%'
                  % (h, a, b / NVL_ONE_WAY_H100, mape([r for r in intra if r['h'] == h], which, a, b)))
        t0f, bwf = fit2(ep16 + ep32, which)
        print('%s internode, free fit (EP 16 + 32): t0 %.2f us, BW %.1f GB/s' % (name, t0f, bwf))
        t16, t32 = fit_t0(ep16, which, NIC_GBS), fit_t0(ep32, which, NIC_GBS)
        t_all = fit_t0(ep16 + ep32, which, NIC_GBS)
        print('%s internode at the NIC\'s %.0f GB/s: t0 %.2f us (EP 16 + 32), MAPE %.1f %%; '
              'fit on EP 16 (t0 %.2f) held out on EP 32 %.1f %%; on EP 32 (t0 %.2f) held out on EP 16 %.1f %%'
              % (name, NIC_GBS, t_all, mape(ep16 + ep32, which, t_all, NIC_GBS), t16,
                 mape(ep32, which, t16, NIC_GBS), t32, mape(ep16, which, t32, NIC_GBS)))


if __name__ == '__main__':
    main()
