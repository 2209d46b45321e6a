/*
 * bench_gnnlm.c — prediction time of a gnnlm model beside a GNN on the
 * same graphs and the same machine, in one run (issue 14: < 5 ms per
 * graph).  Two ways a user predicts: one graph per call
 * (dlp_gnn_predict_on, what predict-graph does after parsing) and a batch
 * of dataset samples (dlp_gnn_predict_dataset, what eval and the
 * adaptation experiment do).
 *
 *   bench_gnnlm GNNLM.dlpm GNN.dlpm DATA.dlpd DEVICE [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dlperf.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ms per graph: one call per graph, then one batched call */
static int timeit(const dlp_gnn *m, const dlp_dataset *ds, const int *idx, int n, const char *dev, double *one,
                  double *batch) {
    dlp_error e = {0};
    float out[16], *all = malloc(sizeof *all * (size_t)n * 16);
    if (!all) return -1;
    dlp_dataset_sample s;
    s = *dlp_dataset_at(ds, idx[0]);
    if (dlp_gnn_predict_on(m, s.features, dev, out, &e) != DLP_OK) {   /* warm-up */
        fprintf(stderr, "bench_gnnlm: %s\n", e.msg);
        free(all);
        return -1;
    }
    double t0 = now_s();
    for (int i = 0; i < n; i++) {
        s = *dlp_dataset_at(ds, idx[i]);
        if (dlp_gnn_predict_on(m, s.features, dev, out, &e) != DLP_OK) {
            free(all);
            return -1;
        }
    }
    double t1 = now_s();
    if (dlp_gnn_predict_dataset(m, ds, idx, n, all, &e) != DLP_OK) {
        free(all);
        return -1;
    }
    double t2 = now_s();
    free(all);
    *one = 1e3 * (t1 - t0) / n;
    *batch = 1e3 * (t2 - t1) / n;
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: bench_gnnlm GNNLM.dlpm GNN.dlpm DATA.dlpd DEVICE [N]\n");
        return 2;
    }
    int n = argc > 5 ? atoi(argv[5]) : 300;
    dlp_error e = {0};
    dlp_gnn *a = NULL, *b = NULL;
    dlp_dataset *ds = NULL;
    if (dlp_gnn_load(argv[1], &a, &e) || dlp_gnn_load(argv[2], &b, &e) || dlp_dataset_load(argv[3], &ds, &e)) {
        fprintf(stderr, "bench_gnnlm: %s\n", e.msg);
        return 1;
    }
    int *idx = malloc(sizeof *idx * (size_t)dlp_dataset_count(ds)), k = 0;
    for (int i = 0; i < dlp_dataset_count(ds) && k < n; i++) {
        dlp_dataset_sample s;
        s = *dlp_dataset_at(ds, i);
        if (!strcmp(s.device, argv[4])) idx[k++] = i;
    }
    if (!k) {
        fprintf(stderr, "bench_gnnlm: no sample of device %s\n", argv[4]);
        return 1;
    }
    double a1, ab, b1, bb;
    if (timeit(a, ds, idx, k, argv[4], &a1, &ab) || timeit(b, ds, idx, k, argv[4], &b1, &bb)) return 1;
    dlp_gnn_info ia, ib;
    dlp_gnn_info_get(a, &ia);
    dlp_gnn_info_get(b, &ib);
    printf("| model | parameters | ms per graph, one call each | ms per graph, batched |\n|---|---:|---:|---:|\n");
    printf("| %s | %lld | %.3f | %.3f |\n", dlp_gnn_arch_name(ia.arch), (long long)ia.n_params, a1, ab);
    printf("| %s | %lld | %.3f | %.3f |\n", dlp_gnn_arch_name(ib.arch), (long long)ib.n_params, b1, bb);
    printf("| ratio gnnlm / %s | | %.1fx | %.1fx |\n", dlp_gnn_arch_name(ib.arch), a1 / b1, ab / bb);
    printf("\n%d graphs of %s, features already built (graph parsing excluded, the same for both).\n", k, argv[4]);
    free(idx);
    dlp_gnn_free(a);
    dlp_gnn_free(b);
    dlp_dataset_free(ds);
    return 0;
}
