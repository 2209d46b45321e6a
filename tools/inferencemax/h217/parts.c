/* parts.c S EP (issue 22, h217; docs/llm.md): the library's SGLang prompt
 * step of DeepSeek-R1 fp8 (fp8 KV cache) on one 8 x H200 prefill worker
 * without attention DP (TP 8, dp 1, EP given), one prompt of S tokens,
 * split by dlp__llm_iter_parts into its linear layers and terms.  Build
 * from the repository root:
 *   cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc tools/inferencemax/h217/parts.c \
 *     build/libdlperf.a $(pkg-config --libs libcjson sqlite3) -ldl -lm -lpthread -o /tmp/parts217 */
#include <stdio.h>
#include <stdlib.h>
#include "dlperf.h"
#include "llm/llm_internal.h"
int main(int argc, char **argv) {
    double S = atof(argv[1]); int ep = atoi(argv[2]);
    dlp_error e = {0}; dlp_devdb *db = NULL;
    if (dlp_devdb_load(NULL, &db, &e)) { printf("db %s\n", e.msg); return 1; }
    const dlp_device *d = dlp_devdb_find(db, "h200_sxm");
    dlp_llm_config c; if (dlp_llm_catalogue_get("deepseek-ai/DeepSeek-R1", &c, &e)) { printf("cat %s\n", e.msg); return 1; }
    dlp_llm_workload wl = {.batch = 1, .seq = (int64_t)S, .gen_tokens = 1024, .quant = 5, .kv_dtype = DLP_DT_FLOAT8E4M3FN,
        .n_gpus = 8, .concurrency = 1, .ep = ep, .attn_dp = 1, .phase = DLP_LLM_PREFILL_ONLY, .engine = DLP_LLM_ENGINE_SGLANG, .max_seqs = 1};
    int cdt = dlp_llm_compute_dtype(d, 5, NULL, 0);
    dlp__llm_parts p;
    if (dlp__llm_iter_parts(&c, d, &wl, cdt, 1.0, 0, 1.0, S, S, &p, &e)) { printf("parts %s\n", e.msg); return 1; }
    double dense = 0, exp_ = 0;
    for (int i = 0; i < p.n_lin; i++) { printf("  lin %d kind %d k %.0f n %.0f experts %.0f count %.0f  %.2f ms\n", i, p.lin_kind[i], p.lin_k[i], p.lin_n[i], p.lin_experts[i], p.lin_count[i], p.lin_s[i]*1e3);
        if (p.lin_kind[i] == 1) exp_ += p.lin_s[i]; else dense += p.lin_s[i]; }
    printf("S%.0f ep%d: total %.1f ms dense-lin %.1f experts %.1f attn_pf %.1f other %.1f comm %.1f ovh %.1f tp_attn %d layers %d\n", S, ep,
           p.total_s * 1e3, dense * 1e3, exp_ * 1e3, p.attn_pf_s * 1e3, p.other_s * 1e3, p.comm_s * 1e3, p.ovh_s * 1e3, p.tp_attn, p.attn_layers);
    return 0;
}
