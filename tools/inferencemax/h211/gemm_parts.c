/* gemm_parts.c MODEL DEVICE QUANT TP TOKENS ENGINE (issue 22, h211; docs/llm.md):
 * the library's prompt step of one prompt of TOKENS tokens on a TP-rank group,
 * split by dlp__llm_iter_parts; prints each linear's per-call time (us) with
 * its m, k and per-rank n, so that tools/inferencemax/h211/gemm_vs_aic.py can
 * set them beside aiconfigurator's gemm_perf tables.  QUANT is dlp_quant's
 * number (2 bf16, 5 fp8, 8 nvfp4), ENGINE dlp_llm_engine's (0 vLLM V1,
 * 2 SGLang, 3 TensorRT-LLM).  DLP_FUSED_ELEM=1 prices the element-wise work
 * as fused kernels (h198); DLP_GEMM_EACH=0/1 sets dlp__llm_knob.gemm_each (h211).  Build from the repository root:
 *   cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc tools/inferencemax/h211/gemm_parts.c \
 *     build/libdlperf.a $(pkg-config --libs libcjson sqlite3) -ldl -lm -lpthread -o /tmp/gemm_parts */
#include <stdio.h>
#include <stdlib.h>
#include "dlperf.h"
#include "llm/llm_internal.h"
int main(int argc, char **argv) {
    if (argc < 7) { fprintf(stderr, "usage: MODEL DEVICE QUANT TP TOKENS ENGINE\n"); return 2; }
    int q = atoi(argv[3]), tp = atoi(argv[4]), eng = atoi(argv[6]);
    double S = atof(argv[5]);
    dlp_error e = {0};
    if (getenv("DLP_FUSED_ELEM")) dlp__llm_knob.fused_elem = atoi(getenv("DLP_FUSED_ELEM"));
    if (getenv("DLP_GEMM_EACH")) dlp__llm_knob.gemm_each = atoi(getenv("DLP_GEMM_EACH"));
    dlp_devdb *db = NULL;
    if (dlp_devdb_load(NULL, &db, &e)) { printf("db %s\n", e.msg); return 1; }
    const dlp_device *d = dlp_devdb_find(db, argv[2]);
    if (!d) { printf("no device %s\n", argv[2]); return 1; }
    dlp_llm_config c;
    if (dlp_llm_catalogue_get(argv[1], &c, &e)) { printf("cat %s\n", e.msg); return 1; }
    dlp_llm_workload wl = {.batch = 1, .seq = (int64_t)S, .gen_tokens = 1024, .quant = q, .n_gpus = tp,
                           .concurrency = 1, .ep = 1, .attn_dp = 1, .phase = DLP_LLM_PREFILL_ONLY,
                           .engine = eng, .max_seqs = 64};
    int cdt = dlp_llm_compute_dtype(d, q, NULL, 0);
    dlp__llm_parts p;
    if (dlp__llm_iter_parts(&c, d, &wl, cdt, 1.0, 0, 1.0, S, S, &p, &e)) { printf("parts %s\n", e.msg); return 1; }
    for (int i = 0; i < p.n_lin; i++)
        printf("lin,%d,%.0f,%.0f,%.0f,%.0f,%.3f\n", p.lin_kind[i], p.lin_kind[i] == 2 ? 1.0 : S, p.lin_k[i],
               p.lin_n[i] / p.tp_attn, p.lin_count[i], p.lin_s[i] / p.lin_count[i] * 1e6);
    printf("tot,%.3f,attn_pf,%.3f,other,%.3f,comm,%.3f,ovh,%.3f\n", p.total_s * 1e3, p.attn_pf_s * 1e3,
           p.other_s * 1e3, p.comm_s * 1e3, p.ovh_s * 1e3);
    return 0;
}
