#!/usr/bin/env python3
"""The library's dense GEMMs at prompt sizes beside aiconfigurator's measured
GEMM tables (issue 22, h211; docs/llm.md).

Tables: aiconfigurator 095f58a5 aic-core/src/aiconfigurator_core/systems/data/
{h100_sxm,h200_sxm,b200_sxm}/gemm/{trtllm/1.3.0rc10,vllm/0.19.0}/gemm_perf.parquet,
dumped to CSV with the npm package hyparquet (+ hyparquet-compressors) into
$AIC_GEMM_DIR (default /tmp/h211pq; file <gpu>_<engine>_<version>.csv, columns
framework,version,device,op_name,kernel_source,gemm_dtype,m,n,k,latency[ms]).
The library: /tmp/gemm_parts (tools/inferencemax/h211/gemm_parts.c) for one
prompt of m tokens, DLP_FUSED_ELEM=1, DLP_GEMM_EACH 0 (the layers' calls as one
kernel on the curve) and 1 (each call its own kernel).  A linear is compared
where its (m, n per rank, k) is on the table's grid; bf16 against bfloat16,
fp8 against fp8 (per-tensor, the Llama / Qwen FP8 checkpoints' scheme).
Prints median library / table and MAPE by GPU, format, m and the two modes."""
import csv, os, subprocess, statistics as st, collections as C, sys
D = os.environ.get('AIC_GEMM_DIR', '/tmp/h211pq')
TAB = {('h100_sxm', 3): 'h100_sxm_trtllm_1.3.0rc10', ('h200_sxm', 3): 'h200_sxm_trtllm_1.3.0rc10',
       ('b200_sxm', 3): 'b200_sxm_trtllm_1.3.0rc10', ('h100_sxm', 0): 'h100_sxm_vllm_0.19.0',
       ('h200_sxm', 0): 'h200_sxm_vllm_0.19.0', ('b200_sxm', 0): 'b200_sxm_vllm_0.19.0'}
QD = {2: 'bfloat16', 5: 'fp8'}
MODELS = ['meta-llama/Llama-3.1-70B', 'meta-llama/Llama-3.1-8B-Instruct', 'Qwen/Qwen3-32B']
MS = [1024, 2048, 4096, 8192, 16384]


def table(name):
    t = {}
    for r in csv.DictReader(open(os.path.join(D, name + '.csv'))):
        t[(r['gemm_dtype'], int(r['m']), int(r['n']), int(r['k']))] = float(r['latency']) * 1e3
    return t


def lib(model, gpu, q, tp, m, eng, each):
    env = dict(os.environ, DLP_FUSED_ELEM='1', DLP_GEMM_EACH=str(each))
    out = subprocess.run(['/tmp/gemm_parts', model, gpu, str(q), str(tp), str(m), str(eng)], env=env,
                         capture_output=True, text=True).stdout
    return [l.split(',') for l in out.splitlines() if l.startswith('lin,0,')]


def main():
    res = C.defaultdict(list)
    for (gpu, eng), name in TAB.items():
        t = table(name)
        for model in MODELS:
            for q in (2, 5):
                for tp in (1, 2, 4, 8):
                    for m in MS:
                        for each in (0, 1):
                            for l in lib(model, gpu, q, tp, m, eng, each):
                                k, n, us = int(float(l[3])), int(float(l[4])), float(l[6])
                                y = t.get((QD[q], m, n, k))
                                if y is None: continue
                                for key in (('all',), ('gpu', gpu), ('fmt', QD[q]), ('m', m), ('eng', eng)):
                                    res[(each,) + key].append(us / y)
    for key in sorted(res, key=str):
        v = res[key]
        print('each=%d %-22s n=%4d median lib/table %.2f  MAPE %.1f %%' % (key[0], ' '.join(map(str, key[1:])), len(v),
              st.median(v), 100 * st.mean(abs(x - 1) for x in v)))


if __name__ == '__main__':
    main()
