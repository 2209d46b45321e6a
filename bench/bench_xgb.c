/*
 * bench_xgb.c — prediction latency of dlperf's XGBoost models (goal: under
 * 10 us per sample).  Trains boosters of the shipped size (500 trees, depth
 * 6) and of the chapter's optimum (2000 trees, depth 8) on synthetic data
 * with the LLM feature count, then times dlp_xgb_predict (the flattened
 * trees, one thread) for one row per call and for batches, beside
 * libxgboost's own in-place prediction (XGBoosterPredictFromDense), and the
 * shipped models as embedded.  Prints medians; never fails.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dlperf.h"
#include "learn/xgb.h"

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmpd(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median over `reps` calls of predict on n rows, per row (us); calls of
 * one row take a different row each time (a repeated row would let the
 * branch predictor learn its path). */
static double time_pred(const dlp_xgb *m, const float *x, int n, int reps, int nf, int nrows) {
    double *t = malloc(sizeof(double) * (size_t)reps), *out = malloc(sizeof(double) * (size_t)n);
    dlp_error e = {0};
    for (int r = 0; r < reps; r++) {
        const float *xr = n == 1 ? x + (size_t)(r % nrows) * (size_t)nf : x;
        double t0 = now_us();
        if (dlp_xgb_predict(m, xr, n, out, &e)) {
            fprintf(stderr, "%s\n", e.msg);
            exit(1);
        }
        t[r] = (now_us() - t0) / n;
    }
    qsort(t, (size_t)reps, sizeof *t, cmpd);
    double med = t[reps / 2];
    free(t);
    free(out);
    return med;
}

int main(void) {
    enum { NF = 38, N = 3000, NB = 1000 };
    float *x = malloc(sizeof(float) * N * NF), *y = malloc(sizeof(float) * N);
    uint64_t s = 1;
    for (int i = 0; i < N; i++) {
        double acc = 1;
        for (int j = 0; j < NF; j++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            x[i * NF + j] = (float)((s >> 11) % 10000) / 100.0f;
            acc += (j % 3 + 1) * x[i * NF + j] * (j < 5 ? 3 : 0.1);
        }
        y[i] = (float)acc;
    }
    const struct { const char *name; int trees, depth; } cfg[] = {{"500 trees, depth 6 (shipped size)", 500, 6},
                                                                   {"2000 trees, depth 8 (chapter optimum)", 2000, 8}};
    printf("== XGBoost prediction latency, dlp_xgb_predict (flattened trees; one thread) ==\n");
    printf("%-40s %14s %16s\n", "model", "1 row/call us", "1000 rows us/row");
    for (int k = 0; k < 2; k++) {
        dlp_xgb_params p = {0};
        p.n_estimators = cfg[k].trees;
        p.max_depth = cfg[k].depth;
        p.nthread = 2;
        p.log_target = 1;
        dlp_xgb *m = NULL;
        dlp_error e = {0};
        if (dlp_xgb_train(x, y, N, NF, NULL, "y", &p, &m, &e)) {
            fprintf(stderr, "%s\n", e.msg);
            return 0;
        }
        /* reload: prediction runs on a loaded model with nthread 1, as shipped */
        void *buf;
        size_t len;
        dlp_xgb *ml = NULL;
        dlp_xgb_save_mem(m, &buf, &len, &e);
        dlp_xgb_load_mem(buf, len, "bench", &ml, &e);
        free(buf);
        double one = time_pred(ml, x, 1, 2001, NF, N), many = time_pred(ml, x, NB, 21, NF, N);
        /* libxgboost's in-place prediction on the same model */
        double tx[201], out[NB];
        for (int r = 0; r < 201; r++) {
            double t0 = now_us();
            dlp__xgb_predict_xgboost(ml, x + (size_t)(r % N) * NF, 1, out, &e);
            tx[r] = now_us() - t0;
        }
        qsort(tx, 201, sizeof tx[0], cmpd);
        double t0 = now_us();
        dlp__xgb_predict_xgboost(ml, x, NB, out, &e);
        double xb = (now_us() - t0) / NB;
        printf("%-40s %14.2f %16.2f   libxgboost: %.2f, %.2f\n", cfg[k].name, one, many, tx[100], xb);
        dlp_xgb_free(m);
        dlp_xgb_free(ml);
    }
    for (int i = 0; i < dlp_llm_model_count(); i++) {
        const dlp_xgb *m = dlp_llm_model_at(i);
        int nf = dlp_xgb_feature_count(m);
        float *xm = calloc((size_t)NB * (size_t)nf, sizeof(float));
        for (int r = 0; r < NB; r++)
            for (int j = 0; j < nf; j++) xm[r * nf + j] = x[(r % N) * NF + j % NF];
        printf("%-40s %14.2f %16.2f\n", dlp_xgb_get_meta(m, "name"), time_pred(m, xm, 1, 2001, nf, NB),
               time_pred(m, xm, NB, 21, nf, NB));
        free(xm);
    }
    free(x);
    free(y);
    return 0;
}
