#!/usr/bin/env python3
"""Fit the nvfp4 dense GEMM op of aiconfigurator's GEMM tables (issue 22, h147).

Input: tools/gemm/aic_gemm_nvfp4.csv, the nvfp4 rows with m <= 32 of
aiconfigurator 095f58a5 systems/data/{b200_sxm,b300_sxm,gb200}/gemm/
{vllm/0.24.0,sglang/0.5.14,trtllm/1.3.0rc20}/gemm_perf.parquet (read with the
npm package hyparquet + hyparquet-compressors; ms -> us; shapes with
n x k >= 2^20 kept; kernels: vLLM FlashInferCuteDslNvFp4LinearKernel,
SGLang sglang_flashinfer_cutedsl_nvfp4, TensorRT-LLM torch_flow Linear).  Each collector
times the GEMM *with* the activation's fp4 quantisation from a bf16 input
(collector/{vllm,sglang,trtllm}/collect_gemm.py: vLLM's linear apply runs
scaled_fp4_quant then the FlashInfer CuTe-DSL GEMM; SGLang's gemm_op is
flashinfer fp4_quantize + mm_fp4; TensorRT-LLM's Linear quantises a bf16
input with fp4_quantize before nvfp4_gemm).

Form, per engine: t = t0 + (weight + activation bytes) / (eta x DRAM BW),
weighted least squares on relative error (rows [1/y, x/y] -> 1), nk >= 2^20.
Prints the pooled and per-engine fits, leave-one-GPU-out and
leave-one-engine-out held-out MAPEs.  No numpy: 2 x 2 normal equations.

Compiled in (src/llm/llm_serve.c NV4_GEMM_FIT): vLLM's and SGLang's fits as
printed (their engines run the quantisation as a kernel of its own, as the
tables do).  TensorRT-LLM's table is its Linear run without the autotuner
(no `with autotune()` in collector/trtllm/collect_gemm.py: the default
tactic), while the engine autotunes every GEMM at warm-up
(tensorrt_llm/_torch/pyexecutor/model_engine.py, _run_autotuner_warmup) and
fuses the quantisation into the kernel before the GEMM; so TensorRT-LLM
takes SGLang's op (FlashInfer's CuTe-DSL fp4 GEMM, among the tactics the
autotuner picks from) less one in-graph kernel (2 us).
"""
import csv, os, statistics as st, collections as C

BW = {'b200': 8.0e12, 'b300': 8.0e12, 'gb200': 8.0e12}
HERE = os.path.dirname(os.path.abspath(__file__))


def load():
    rows = []
    for r in csv.DictReader(open(os.path.join(HERE, 'aic_gemm_nvfp4.csv'))):
        m, n, k = int(r['m']), int(r['n']), int(r['k'])
        if n * k < 2 ** 20:
            continue
        x = (n * k * 0.5625 + m * k * 2.0 + m * n * 2.0) / BW[r['gpu']] * 1e6  # us at the DRAM peak
        rows.append((r['gpu'], r['engine'], m, x, float(r['latency_us'])))
    return rows


def fit(rows):
    a11 = a12 = a22 = b1 = b2 = 0.0
    for _, _, _, x, y in rows:
        u, v = 1.0 / y, x / y
        a11 += u * u; a12 += u * v; a22 += v * v; b1 += u; b2 += v
    det = a11 * a22 - a12 * a12
    t0 = (b1 * a22 - b2 * a12) / det
    b = (a11 * b2 - a12 * b1) / det
    return t0, 1.0 / b


def mape(rows, f):
    t0, eta = f
    return 100.0 * st.mean(abs((t0 + x / eta) / y - 1.0) for _, _, _, x, y in rows)


def main():
    rows = load()
    gpus = sorted({r[0] for r in rows}); engines = sorted({r[1] for r in rows})
    print(f'{len(rows)} rows; gpus {gpus}; engines {engines}')
    f = fit(rows)
    print(f'pooled: t0 {f[0]:.2f} us eta {f[1]:.3f} MAPE {mape(rows, f):.1f} %')
    for e in engines:
        re = [r for r in rows if r[1] == e]
        fe = fit(re)
        held = []
        for g in gpus:
            tr = [r for r in re if r[0] != g]; te = [r for r in re if r[0] == g]
            if tr and te:
                fg = fit(tr); held.append(f'{g} {mape(te, fg):.1f} % (t0 {fg[0]:.2f} eta {fg[1]:.3f})')
        print(f'{e}: {len(re)} rows t0 {fe[0]:.2f} us eta {fe[1]:.3f} MAPE {mape(re, fe):.1f} %; '
              f'leaving out each GPU: ' + '; '.join(held))
        by_m = C.defaultdict(list)
        for r in re:
            by_m[r[2]].append((fe[0] + r[3] / fe[1]) / r[4])
        print('   median fit / measured by m: ' + ' '.join(f'{m}:{st.median(v):.2f}' for m, v in sorted(by_m.items())))
    for e in engines:
        tr = [r for r in rows if r[1] != e]; te = [r for r in rows if r[1] == e]
        fg = fit(tr)
        print(f'leaving out engine {e}: fit t0 {fg[0]:.2f} eta {fg[1]:.3f}, held out {mape(te, fg):.1f} %')


if __name__ == '__main__':
    main()
