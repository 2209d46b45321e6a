#!/usr/bin/env python3
"""prefill_bound.py ROWS.csv [MODEL SYSTEM LIN_PARAMS WEIGHT_BYTES PEAK_FLOPS BW]  (issue 22, h201; docs/llm.md)

A lower bound on the time a closed-loop aggregated run needs per request cycle, from
the GPU's peak rates alone, against the cycle it measured.  C clients each send a
prompt of S tokens and read G outputs; one cycle of a client is TTFT + (G - 1) TPOT
(measured).  In that time the engine must (a) run the C prompts' linear layers,
2 x LIN_PARAMS FLOPs per prompt token, at no more than n x PEAK_FLOPS, and (b) run
G - 1 decode steps, each streaming the weights (WEIGHT_BYTES, split over the n
GPUs) at no more than n x BW.  Attention, the KV cache, element-wise kernels,
collectives and the CPU are left out, so the bound is below any real time.  A share
(bound / measured cycle) near or above 1 means the run cannot have computed every
prompt token: its prompts were (partly) served from a cache.

Defaults: nvidia/Llama-3.1-8B-Instruct-FP8 on h200_sxm.  Llama-3.1-8B's linear
weights per layer (config.json: hidden 4,096, 32 query / 8 KV heads of 128,
intermediate 14,336): q 4096^2 + k, v 4096 x 1024 each + o 4096^2 + gate, up
4096 x 14336 each + down 14336 x 4096 = 218.1 M, x 32 layers = 6.98 G; the FP8
checkpoint streams them at 1 byte plus its 16-bit LM head (128,256 x 4,096 x 2 B =
1.05 GB) per decode step: 8.03 GB.  H200: 1,979 TFLOP/s dense FP8 and 4.8 TB/s
(NVIDIA H200 datasheet: 3,958 TFLOPS FP8 with sparsity, 4.8 TB/s).

Prints one line per row (clients, GPUs, prompt / output, measured cycle ms, bound
ms, share) and the count of rows at a share >= 0.9.
"""
import csv
import sys


def bound_s(C, S, G, n, lin, wbytes, peak, bw):
    prompts = C * S * 2.0 * lin / (n * peak)
    steps = (G - 1) * wbytes / (n * bw)
    return prompts + steps


def main(argv):
    path = argv[1]
    model = argv[2] if len(argv) > 2 else "nvidia/Llama-3.1-8B-Instruct-FP8"
    system = argv[3] if len(argv) > 3 else "h200_sxm"
    lin = float(argv[4]) if len(argv) > 4 else 6.98e9
    wbytes = float(argv[5]) if len(argv) > 5 else 8.03e9
    peak = float(argv[6]) if len(argv) > 6 else 1.979e15
    bw = float(argv[7]) if len(argv) > 7 else 4.8e12
    high = 0
    for r in csv.DictReader(open(path)):
        if r["model"] != model or r["system"] != system or r["phase"] != "0":
            continue
        try:
            ttft, tpot = float(r["y_0"]), float(r["y_1"])
        except ValueError:
            continue
        if not (ttft > 0 and tpot > 0):
            continue
        C, S, G, n = int(r["conc"]), int(r["isl"]), int(r["osl"]), int(r["gpus"])
        cyc = (ttft + (G - 1) * tpot) * 1e-3
        b = bound_s(C, S, G, n, lin, wbytes, peak, bw)
        share = b / cyc
        high += share >= 0.9
        print(f"C {C} n {n} {S}/{G}: cycle {cyc * 1e3:.0f} ms, bound {b * 1e3:.0f} ms, share {share:.2f}")
    print(f"rows at share >= 0.9: {high}")


if __name__ == "__main__":
    main(sys.argv)
