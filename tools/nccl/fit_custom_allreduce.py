#!/usr/bin/env python3
"""Fit the engines' custom (one-shot) all-reduce inside an NVLink node (issue 22, h147).

Input: tools/nccl/aic_custom_allreduce.csv, aiconfigurator 095f58a5
systems/data/{h100_sxm,h200_sxm,b200_sxm,b300_sxm}/comm/{vllm/0.24.0,
sglang/0.5.14,trtllm/1.3.0rc20}/custom_allreduce_perf.parquet (hyparquet;
ms -> us), the CUDA-graph rows (vLLM_custom_graph, SGLang_CustomAllReduce_graph,
TRTLLM: TensorRT-LLM's AllReduce, strategy AUTO), bf16, messages up to 8 MiB.

Form, per engine: t = t0 + (n - 1) x bytes / (eta x one-way NVLink), one-shot:
each GPU reads the n - 1 peers' buffers; fitted on messages <= 1 MiB (the
decode sizes where the engines run one-shot; larger messages go two-shot or
to NCCL and keep NCCL's table in dlperf), weighted least squares on relative
error.  Prints the fit per engine with leave-one-GPU-out held-out MAPEs, and
the NCCL-table price beside nothing (that is llm_serve.c's coll_s).
"""
import csv, os, statistics as st

ONEWAY = {'h100': 450e9, 'h200': 450e9, 'b200': 900e9, 'b300': 900e9}  # NVLink 4 / 5, GB/s each way
HERE = os.path.dirname(os.path.abspath(__file__))
MAX_BYTES = 1048576


def load():
    rows = []
    for r in csv.DictReader(open(os.path.join(HERE, 'aic_custom_allreduce.csv'))):
        n, b = int(r['num_gpus']), int(r['message_elems']) * 2
        if b > MAX_BYTES:
            continue
        rows.append((r['gpu'], r['engine'], n, (n - 1) * b / ONEWAY[r['gpu']] * 1e6, float(r['latency_us'])))
    return rows


def fit(rows):
    a11 = a12 = a22 = b1 = b2 = 0.0
    for *_, x, y in rows:
        u, v = 1.0 / y, x / y
        a11 += u * u; a12 += u * v; a22 += v * v; b1 += u; b2 += v
    det = a11 * a22 - a12 * a12
    return (b1 * a22 - b2 * a12) / det, det / (a11 * b2 - a12 * b1)


def mape(rows, f):
    return 100.0 * st.mean(abs((f[0] + x / f[1]) / y - 1.0) for *_, x, y in rows)


def main():
    rows = load()
    for e in sorted({r[1] for r in rows}):
        re_ = [r for r in rows if r[1] == e]
        f = fit(re_)
        held = []
        for g in sorted({r[0] for r in re_}):
            tr = [r for r in re_ if r[0] != g]; te = [r for r in re_ if r[0] == g]
            fg = fit(tr)
            held.append(f'{g} {mape(te, fg):.1f} % (t0 {fg[0]:.2f}, eta {fg[1]:.3f})')
        print(f'{e}: {len(re_)} rows, t0 {f[0]:.2f} us, eta {f[1]:.3f}, MAPE {mape(re_, f):.1f} %; '
              'leaving out each GPU: ' + '; '.join(held))


if __name__ == '__main__':
    main()
