/* pf_parts.c MODEL DEVICE QUANT GPUS EP DP PROMPTS S ENGINE (issue 22, h241;
 * docs/llm.md): the library's prefill step of PROMPTS prompts of S tokens on a
 * worker of GPUS GPUs (EP, attention DP), split by dlp__llm_iter_parts; one
 * line per part in ms and per 1k prompt tokens, to set beside aiconfigurator's
 * SGLang op tables.  Build from the repository root:
 *   cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc tools/inferencemax/h241/pf_parts.c \
 *     build/libdlperf.a $(pkg-config --libs libcjson sqlite3) -ldl -lm -lpthread -o /tmp/pf_parts */
#include <stdio.h>
#include <stdlib.h>
#include "dlperf.h"
#include "llm/llm_internal.h"
int main(int argc, char **argv) {
    if (argc < 10) { fprintf(stderr, "usage: MODEL DEVICE QUANT GPUS EP DP PROMPTS S ENGINE\n"); return 2; }
    int q = atoi(argv[3]), g = atoi(argv[4]), ep = atoi(argv[5]), dp = atoi(argv[6]), eng = atoi(argv[9]);
    double k = atof(argv[7]), S = atof(argv[8]);
    dlp_error e = {0};
    dlp_devdb *db = NULL;
    if (dlp_devdb_load(NULL, &db, &e)) { printf("db %s\n", e.msg); return 1; }
    const dlp_device *d = dlp_devdb_find(db, argv[2]);
    if (!d) { printf("no device %s\n", argv[2]); return 1; }
    dlp_llm_config c;
    if (dlp_llm_catalogue_get(argv[1], &c, &e)) { printf("cat %s\n", e.msg); return 1; }
    dlp_llm_workload wl = {.batch = 1, .seq = (int64_t)S, .gen_tokens = 1024, .quant = q, .n_gpus = g,
                           .concurrency = 1, .ep = ep, .attn_dp = dp, .phase = DLP_LLM_PREFILL_ONLY,
                           .engine = eng, .max_seqs = 64};
    int cdt = dlp_llm_compute_dtype(d, q, NULL, 0);
    dlp__llm_parts p;
    if (dlp__llm_iter_parts(&c, d, &wl, cdt, 1.0, 0, 1.0, k * S, S, &p, &e)) { printf("parts %s\n", e.msg); return 1; }
    double per = 1e3 / (k * S / 1024.0); /* ms per 1k prompt tokens */
    for (int i = 0; i < p.n_lin; i++)
        printf("lin kind %d k %.0f n %.0f x%.0f E %.0f: %.3f ms, %.3f ms/1k\n", p.lin_kind[i], p.lin_k[i], p.lin_n[i],
               p.lin_count[i], p.lin_experts[i], p.lin_s[i] * 1e3, p.lin_s[i] * per);
    printf("attn_pf %.3f (%.3f/1k) other %.3f (%.3f/1k) comm %.3f (%.3f/1k) ovh %.3f total %.3f ms (%.3f/1k)\n",
           p.attn_pf_s * 1e3, p.attn_pf_s * per, p.other_s * 1e3, p.other_s * per, p.comm_s * 1e3, p.comm_s * per,
           p.ovh_s * 1e3, p.total_s * 1e3, p.total_s * per);
    return 0;
}
