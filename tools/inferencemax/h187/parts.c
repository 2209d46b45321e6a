/* parts.c DEVICE QUANT N S J [EP] (issue 22, h187; docs/llm.md): the library's
 * TensorRT-LLM context step of DeepSeek-R1 (fp8 KV cache) on an N-rank
 * attention-DP worker (EP N) with J prompts of S tokens on every rank, split
 * by dlp__llm_iter_parts into its terms (EP: a 6th argument, default N).  QUANT is dlp_quant's number (5 fp8,
 * 8 nvfp4).  DLP_FUSED_ELEM=1 in the environment prices the element-wise
 * work as the engines' fused kernels (dlp__llm_knob.fused_elem, h198);
 * DLP_TRT_FP4_EW / DLP_MOE_IMB_FP4 set h240's switches (--trt-fp4-ew, --moe-imb-fp4).  Build from the repository root:
 *   cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc tools/inferencemax/h187/parts.c \
 *     build/libdlperf.a $(pkg-config --libs libcjson sqlite3) -ldl -lm -lpthread -o /tmp/parts */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dlperf.h"
#include "llm/llm_internal.h"
int main(int argc, char **argv) {
    const char *dev = argv[1]; int q = atoi(argv[2]); int N = atoi(argv[3]); double S = atof(argv[4]); double j = atof(argv[5]); int ep = argc > 6 ? atoi(argv[6]) : N;
    dlp_error e = {0};
    if (getenv("DLP_FUSED_ELEM")) dlp__llm_knob.fused_elem = atoi(getenv("DLP_FUSED_ELEM"));
    if (getenv("DLP_TRT_FP4_EW")) dlp__llm_knob.trt_fp4_ew = atoi(getenv("DLP_TRT_FP4_EW"));   /* h240 */
    if (getenv("DLP_MOE_IMB_FP4")) dlp__llm_knob.moe_imb_fp4 = atoi(getenv("DLP_MOE_IMB_FP4")); /* h240 */
    if (getenv("DLP_GEMM_EACH")) dlp__llm_knob.gemm_each = atoi(getenv("DLP_GEMM_EACH"));
    dlp_devdb *db = NULL;
    if (dlp_devdb_load(NULL, &db, &e)) { printf("db %s\n", e.msg); return 1; }
    const dlp_device *d = dlp_devdb_find(db, dev);
    dlp_llm_config c; if (dlp_llm_catalogue_get("deepseek-ai/DeepSeek-R1", &c, &e)) { printf("cat %s\n", e.msg); return 1; }
    dlp_llm_workload wl = {.batch = 1, .seq = (int64_t)S, .gen_tokens = 1024, .quant = q, .kv_dtype = DLP_DT_FLOAT8E4M3FN,
                           .n_gpus = N, .concurrency = 64, .ep = ep, .attn_dp = N, .phase = DLP_LLM_PREFILL_ONLY, .engine = DLP_LLM_ENGINE_TRTLLM, .max_seqs = 64};
    int cdt = dlp_llm_compute_dtype(d, q, NULL, 0);
    dlp__llm_parts p;
    if (dlp__llm_iter_parts(&c, d, &wl, cdt, 1.0, 0, 1.0, N * j * S, S, &p, &e)) { printf("parts %s\n", e.msg); return 1; }
    double dense = 0, exp_ = 0, other = 0;
    for (int i = 0; i < p.n_lin; i++) { if (p.lin_kind[i] == 1) exp_ += p.lin_s[i]; else dense += p.lin_s[i]; }
    printf("%s q%d N%d S%.0f j%.0f: total %.1f ms  dense-lin %.1f experts %.1f attn_pf %.1f other %.1f comm %.1f ovh %.1f\n", dev, q, N, S, j,
           p.total_s * 1e3, dense * 1e3, exp_ * 1e3, p.attn_pf_s * 1e3, p.other_s * 1e3, p.comm_s * 1e3, p.ovh_s * 1e3);
    return 0;
}
