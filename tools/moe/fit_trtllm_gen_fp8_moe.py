#!/usr/bin/env python3
"""fit_trtllm_gen_fp8_moe.py — TensorRT-LLM's TRTLLM MoE backend for block
fp8 on Blackwell (src/llm/llm_serve.c MOE_FITFP8_TRTGEN; docs/llm.md, "The
sweep that ran a row; TensorRT-LLM's TRTLLM MoE backend (issue 22, h188)"),
fitted on measured kernel times, never on serving rows.

What runs.  TensorRT-LLM's `moe_config.backend: TRTLLM` runs the trtllm-gen
fused MoE (tensorrt_llm/_torch/modules/fused_moe/fused_moe_trtllm_gen.py:
routing, both grouped GEMMs and the finalize in trtllm-gen kernels,
torch.ops.trtllm.fp8_block_scale_moe_runner for block fp8); its default
table in aiconfigurator (moe/trtllm/1.3.0rc20 on b200_sxm) holds only the
DEEPGEMM kernel for fp8_block, which h130's TensorRT-LLM fit was made on.
FlashInfer ships the same trtllm-gen MoE kernels (flashinfer.fused_moe
trtllm_fp8_block_scale_moe, "TensorRT-LLM-Gen" kernels), and aiconfigurator
times them under vLLM 0.24 (vllm_fp8moe_flashinfer_trtllm_
trtllmfp8expertsmonolithic: routing inside the kernel, as TensorRT-LLM's
runner) and SGLang 0.5.14 (sglang_flashinfer_trtllm_moe) on B200.  Those rows
are the kernel TensorRT-LLM's TRTLLM backend runs.

Data: aic_moe_16_fp8.csv beside this script (fit_16_fp8_moe.py says where it
comes from): fp8_block rows of those two kernels on b200, balanced routing,
no expert parallelism, T <= 32.  Model and fit as fit_16_fp8_moe.py
(t = t0 + hit x (c + slice / (eta x BW)), weighted least squares on
relative error).  Held out: each engine's wrapper in turn, and each model
shape (hidden, inter, experts, topk) in turn (one GPU only: no
leave-one-GPU-out).  The DEEPGEMM rows of the same shapes beside it.
Usage: python3 tools/moe/fit_trtllm_gen_fp8_moe.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fit_16_fp8_moe import lsq, mape, show, load, pred  # noqa: E402

KERNELS = ('vllm_fp8moe_flashinfer_trtllm_trtllmfp8expertsmonolithic', 'sglang_flashinfer_trtllm_moe')


def shape_rows(path):
    import csv
    shape = {}
    with open(path) as f:
        for i, r in enumerate(csv.DictReader(f)):
            shape[i] = (r['hidden'], r['inter'], r['experts'], r['topk'])
    return shape


def main():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'aic_moe_16_fp8.csv')
    import csv
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            if r['gpu'] != 'b200' or r['dtype'] != 'fp8_block' or int(r['moe_ep']) != 1 or int(r['tokens']) > 32:
                continue
            rows.append(r)
    base = load(path, 32, 8)
    # load() keeps the same rows in file order: pair them up with the shapes
    keyed = []
    for q in base:
        if q['gpu'] == 'b200':
            keyed.append(q)
    for q, r in zip(keyed, rows):
        q['shape'] = (r['hidden'], r['inter'], r['experts'], r['topk'])
    gen = [q for q in keyed if q['kernel'] in KERNELS]
    dg = [q for q in keyed if q['kernel'] == 'deepgemm']
    p = lsq(gen, 3)
    print(f"trtllm-gen fp8_block on b200: {len(gen)} rows: {show(p)}, MAPE {mape(gen, p):.1f} %")
    for key in ('engine', 'shape'):
        for g in sorted({q[key] for q in gen}):
            tr = [q for q in gen if q[key] != g]
            te = [q for q in gen if q[key] == g]
            pg = lsq(tr, 3)
            print(f"  leave out {key} {g}: {show(pg)}; held-out MAPE {mape(te, pg):.1f} % ({len(te)} rows), "
                  f"in-sample {mape(te, p):.1f} %")
    pd = lsq(dg, 3)
    print(f"deepgemm fp8_block on b200 (TensorRT-LLM's DEEPGEMM backend): {len(dg)} rows: {show(pd)}, "
          f"MAPE {mape(dg, pd):.1f} %")
    ds = [q for q in gen if q['shape'] == ('7168', '2048', '256', '8')]
    dd = [q for q in dg if q['shape'] == ('7168', '2048', '256', '8')]
    for T in (1, 4, 16, 32):
        a = [q for q in ds if q['T'] == T]
        b = [q for q in dd if q['T'] == T]
        print(f"  DeepSeek-V3's layer, {T} tokens: trtllm-gen " +
              ", ".join(f"{q['y']:.1f} us (fit {pred(p, q):.1f})" for q in a) + "; deepgemm " +
              ", ".join(f"{q['y']:.1f} us" for q in b))


if __name__ == '__main__':
    main()
