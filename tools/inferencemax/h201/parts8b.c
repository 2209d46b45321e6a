/* parts8b.c N RUNNING CTX PROMPT_TOKENS S (issue 22, h201; docs/llm.md): one vLLM
 * (modern engine) step of nvidia/Llama-3.1-8B-Instruct-FP8 on N x H200 with an
 * fp8 cache, RUNNING decoding sequences at context CTX and PROMPT_TOKENS prompt
 * tokens of S-token prompts, split by dlp__llm_iter_parts.  Build from the
 * repository root:
 *   cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc tools/inferencemax/h201/parts8b.c \
 *     build/libdlperf.a $(pkg-config --libs libcjson sqlite3) -ldl -lm -lpthread -o /tmp/parts8b */
#include <stdio.h>
#include <stdlib.h>
#include "dlperf.h"
#include "llm/llm_internal.h"
int main(int argc, char **argv) {
    int N = atoi(argv[1]); double R = atof(argv[2]), ctx = atof(argv[3]), npf = atof(argv[4]), S = atof(argv[5]);
    dlp_error e = {0}; dlp_devdb *db = NULL;
    if (dlp_devdb_load(NULL, &db, &e)) return 1;
    const dlp_device *d = dlp_devdb_find(db, "h200-sxm");
    dlp_llm_config c; if (dlp_llm_catalogue_get("nvidia/Llama-3.1-8B-Instruct-FP8", &c, &e)) { printf("%s\n", e.msg); return 1; }
    dlp_llm_workload wl = {.batch = 1, .seq = (int64_t)S, .gen_tokens = 100, .quant = DLP_QT_FP8, .kv_dtype = DLP_DT_FLOAT8E4M3FN,
                           .n_gpus = N, .concurrency = (int64_t)R, .phase = DLP_LLM_AGG, .engine = DLP_LLM_ENGINE_MODERN, .max_seqs = (int64_t)R};
    int cdt = dlp_llm_compute_dtype(d, DLP_QT_FP8, NULL, 0);
    dlp__llm_parts p;
    if (dlp__llm_iter_parts(&c, d, &wl, cdt, 1.0, R, ctx, npf, S, &p, &e)) { printf("parts %s\n", e.msg); return 1; }
    double lin = 0; for (int i = 0; i < p.n_lin; i++) lin += p.lin_s[i];
    printf("tp%d R%.0f ctx%.0f pf%.0f S%.0f: total %.2f ms  linear %.2f attn_dec %.2f attn_pf %.2f other %.2f comm %.2f ovh(cpu) %.2f\n",
           N, R, ctx, npf, S, p.total_s*1e3, lin*1e3, p.attn_dec_s*1e3, p.attn_pf_s*1e3, p.other_s*1e3, p.comm_s*1e3, p.ovh_s*1e3);
    return 0;
}
