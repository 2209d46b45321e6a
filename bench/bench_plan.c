/*
 * bench_plan.c — speed of the serving planner (dlp_plan_llm, docs/plan.md)
 * in-process: the Llama-3.1-8B search repeated, configurations and
 * serving-model calls per second, beside one in-process dlp_llm_predict
 * serving call.  bench_plan.sh adds the whole-process times.  Public API only.
 *
 *   bench_plan [REPEATS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "dlperf.h"

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 20;
    if (reps < 1) reps = 1;
    dlp_error e = {0};
    dlp_devdb *db = NULL;
    dlp_llm_config c;
    if (dlp_devdb_load(NULL, &db, &e) || dlp_llm_catalogue_get("meta-llama/Llama-3.1-8B-Instruct", &c, &e)) {
        fprintf(stderr, "bench_plan: %s\n", e.msg);
        return 1;
    }
    dlp_plan_llm_opts o = {.prompt = 1024, .gen = 256, .ttft_ms = 500, .tpot_ms = 40};
    dlp_plan *p = NULL;
    /* one warm-up: the serving model caches its per-format profile */
    if (dlp_plan_llm(&c, db, &o, &p, &e)) {
        fprintf(stderr, "bench_plan: %s\n", e.msg);
        return 1;
    }
    int64_t cfg = dlp_plan_considered(p), calls = dlp_plan_evaluations(p);
    int plans = dlp_plan_count(p), kinds = dlp_plan_device_kinds(p);
    dlp_plan_free(p);
    double t0 = now_s();
    for (int i = 0; i < reps; i++) {
        dlp_plan_llm(&c, db, &o, &p, &e);
        dlp_plan_free(p);
    }
    double plan_s = (now_s() - t0) / reps;
    /* one serving call, as `dlperf llm --concurrency 64` makes it */
    const dlp_device *d = dlp_devdb_find(db, "h100-sxm");
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 64};
    dlp_llm_prediction pr;
    int n = 20000;
    t0 = now_s();
    for (int i = 0; i < n; i++) dlp_llm_predict(&c, d, db, &wl, NULL, &pr, &e);
    double call_s = (now_s() - t0) / n;
    printf("planner (Llama-3.1-8B, prompt 1024, gen 256, TTFT <= 500 ms, TPOT <= 40 ms, every priced GPU):\n");
    printf("  %lld configurations on %d GPU kinds, %d plans, %lld serving-model calls (%.1f per configuration)\n",
           (long long)cfg, kinds, plans, (long long)calls, (double)calls / (double)cfg);
    printf("  one search: %.2f ms in-process (mean of %d): %.0f configurations/s, %.0f serving calls/s\n",
           plan_s * 1e3, reps, (double)cfg / plan_s, (double)calls / plan_s);
    printf("  one dlp_llm_predict serving call in-process: %.2f us (%.0f calls/s)\n", call_s * 1e6, 1.0 / call_s);
    dlp_devdb_free(db);
    return 0;
}
