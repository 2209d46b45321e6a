/*
 * bench_nn.c — how close the nn core gets to the machine's dense-matmul
 * speed.  Measures
 *   (a) OpenBLAS SGEMM GFLOP/s for 512x512x512 and for (20000x113)x(113x512)
 *       (the shape of a first GNN layer over a big batch of node features),
 *   (b) a 3-layer SAGEConv (hidden 512) GNN, forward + backward, on a
 *       block-diagonal batch of random graphs: graphs/s and the achieved
 *       GFLOP/s (GEMM FLOPs the layers execute) as a share of (a).
 * The model step is SAGE(113->512)-ReLU-SAGE(512->512)-ReLU-SAGE(512->512)
 * -ReLU, sum readout, Linear(512->1), MSE; no input gradient (features are
 * data), as in training.  Prints one line per measurement; never fails.
 *
 * Usage: bench_nn [graphs (64)] [nodes per graph (200)] [iterations (3)]
 */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nn/nn.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Best GFLOP/s of C = A B (m,k)x(k,n) over repeats filling ~min_s seconds. */
static double bench_sgemm(int m, int n, int k, double min_s) {
    float *A = malloc((size_t)m * k * sizeof *A), *B = malloc((size_t)k * n * sizeof *B);
    float *C = malloc((size_t)m * n * sizeof *C);
    if (!A || !B || !C) {
        free(A); free(B); free(C);
        return 0;
    }
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 1);
    for (size_t i = 0; i < (size_t)m * k; i++) A[i] = dlp__nn_rng_uniform(&r) - 0.5f;
    for (size_t i = 0; i < (size_t)k * n; i++) B[i] = dlp__nn_rng_uniform(&r) - 0.5f;
    double flops = 2.0 * m * n * k, best = 0, t_total = 0;
    dlp__nn_gemm(0, 0, m, n, k, 1, A, k, B, n, 0, C, n);   /* warm-up */
    for (int it = 0; it < 1000 && (t_total < min_s || it < 3); it++) {
        double t0 = now_s();
        dlp__nn_gemm(0, 0, m, n, k, 1, A, k, B, n, 0, C, n);
        double dt = now_s() - t0;
        t_total += dt;
        if (flops / dt > best) best = flops / dt;
    }
    free(A); free(B); free(C);
    return best * 1e-9;
}

typedef struct {
    dlp__nn_params ps;
    dlp__nn_seq net;
    dlp__nn_ws ws;
    dlp__nn_ctx cx;
} model;

enum { F_IN = 113, HID = 512, LAYERS = 3 };

static int build(model *m) {
    memset(m, 0, sizeof *m);
    char name[16];
    int in = F_IN;
    for (int i = 0; i < LAYERS; i++) {
        dlp__nn_layer *L = dlp__nn_seq_push(&m->net, DLP__NN_L_SAGE);
        snprintf(name, sizeof name, "conv%d", i + 1);
        if (!L || dlp__nn_sage_init(&L->u.sage, &m->ps, name, in, HID, DLP__NN_AGG_MEAN, 0))
            return -1;
        L = dlp__nn_seq_push(&m->net, DLP__NN_L_ACT);
        if (!L || dlp__nn_act_init(&L->u.act, &m->ps, NULL, DLP__NN_ACT_RELU, HID, 0, 0))
            return -1;
        in = HID;
    }
    dlp__nn_layer *L = dlp__nn_seq_push(&m->net, DLP__NN_L_READOUT);
    if (!L || dlp__nn_readout_init(&L->u.ro, HID, DLP__NN_AGG_SUM)) return -1;
    L = dlp__nn_seq_push(&m->net, DLP__NN_L_LINEAR);
    if (!L || dlp__nn_linear_init(&L->u.linear, &m->ps, "head", HID, 1, 1)) return -1;
    if (dlp__nn_params_alloc(&m->ps)) return -1;
    dlp__nn_params_init(&m->ps, 1);
    dlp__nn_ctx_init(&m->cx, &m->ps, &m->ws, 1, 1);
    return 0;
}

/* GEMM FLOPs of one step for N nodes: per SAGE layer 2 products (lin_l,
 * lin_r) forward, 2 weight gradients, and 2 input gradients except for the
 * first layer; plus the tiny head. */
static double step_flops(int n_nodes, int n_graphs) {
    double f = 0;
    int in = F_IN;
    for (int i = 0; i < LAYERS; i++) {
        double one = 2.0 * n_nodes * in * HID;
        f += 2 * one + 2 * one + (i > 0 ? 2 * one : 0);
        in = HID;
    }
    return f + 3 * 2.0 * n_graphs * HID;
}

/* Random graphs: n0 +- 10% nodes, each node 1..5 incoming edges. */
static int make_batch(dlp__nn_graph *g, int n_graphs, int n0, dlp__nn_rng *r) {
    dlp__nn_graph_part *parts = calloc((size_t)n_graphs, sizeof *parts);
    int32_t **bufs = calloc((size_t)n_graphs * 2, sizeof *bufs);
    int rc = -1;
    if (!parts || !bufs) goto out;
    for (int p = 0; p < n_graphs; p++) {
        int n = n0 - n0 / 10 + (int)dlp__nn_rng_below(r, (uint32_t)(n0 / 5 + 1));
        int32_t *src = malloc((size_t)n * 5 * sizeof *src), *dst = malloc((size_t)n * 5 * sizeof *dst);
        bufs[2 * p] = src;
        bufs[2 * p + 1] = dst;
        if (!src || !dst) goto out;
        int e = 0;
        for (int i = 0; i < n; i++) {
            int k = 1 + (int)dlp__nn_rng_below(r, 5);
            for (int q = 0; q < k; q++) {
                src[e] = (int32_t)dlp__nn_rng_below(r, (uint32_t)n);
                dst[e++] = i;
            }
        }
        parts[p] = (dlp__nn_graph_part){n, e, src, dst};
    }
    rc = dlp__nn_graph_collate(g, n_graphs, parts, NULL) == DLP_OK ? 0 : -1;
out:
    if (bufs)
        for (int k = 0; k < 2 * n_graphs; k++) free(bufs[k]);
    free(bufs);
    free(parts);
    return rc;
}

int main(int argc, char **argv) {
    int n_graphs = argc > 1 ? atoi(argv[1]) : 64;
    int n0 = argc > 2 ? atoi(argv[2]) : 200;
    int iters = argc > 3 ? atoi(argv[3]) : 3;
    if (n_graphs < 1 || n0 < 10 || iters < 1) {
        fprintf(stderr, "usage: bench_nn [graphs] [nodes per graph] [iterations]\n");
        return 0;
    }
    printf("openblas: %s, %d threads\n", openblas_get_config(), openblas_get_num_threads());
    double g512 = bench_sgemm(512, 512, 512, 1.0);
    double gbig = bench_sgemm(20000, 512, 113, 1.0);
    printf("sgemm 512x512x512              %8.1f GFLOP/s\n", g512);
    printf("sgemm (20000x113)x(113x512)    %8.1f GFLOP/s\n", gbig);

    model m;
    dlp__nn_graph g;
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 7);
    if (build(&m) != 0 || make_batch(&g, n_graphs, n0, &r) != 0) {
        printf("sage: setup failed (out of memory?)\n");
        return 0;
    }
    float *x = malloc((size_t)g.n_nodes * F_IN * sizeof *x);
    float *tgt = malloc((size_t)n_graphs * sizeof *tgt), *dy = malloc((size_t)n_graphs * sizeof *dy);
    if (!x || !tgt || !dy) {
        printf("sage: out of memory\n");
        return 0;
    }
    for (size_t k = 0; k < (size_t)g.n_nodes * F_IN; k++) x[k] = dlp__nn_rng_uniform(&r);
    for (int k = 0; k < n_graphs; k++) tgt[k] = dlp__nn_rng_uniform(&r);

    double t_fwd = 0, t_bwd = 0, best = 1e30;
    int ok = 1;
    for (int it = 0; it <= iters && ok; it++) {     /* iteration 0 warms up */
        dlp__nn_ws_reset(&m.ws);
        dlp__nn_zero_grad(&m.ps);
        const float *y;
        int rows;
        double t0 = now_s();
        ok = dlp__nn_seq_forward(&m.net, &m.cx, &g, x, g.n_nodes, &y, &rows) == DLP_OK;
        double t1 = now_s();
        if (ok) dlp__nn_loss_mse(y, tgt, rows, dy);
        ok = ok && dlp__nn_seq_backward(&m.net, &m.cx, &g, dy, NULL) == DLP_OK;
        double t2 = now_s();
        if (it == 0) continue;
        t_fwd += t1 - t0;
        t_bwd += t2 - t1;
        if (t2 - t0 < best) best = t2 - t0;
    }
    if (!ok) {
        printf("sage: forward/backward failed\n");
        return 0;
    }
    double flops = step_flops(g.n_nodes, n_graphs), mean = (t_fwd + t_bwd) / iters;
    /* best-of, like the sgemm figures it is compared with */
    double gf = flops / best * 1e-9;
    printf("sage3x512 fwd+bwd: %d graphs, %d nodes, %d edges, %.1f GFLOP/step (GEMM)\n",
           n_graphs, (int)g.n_nodes, (int)g.n_edges, flops * 1e-9);
    printf("  step best %.1f ms, mean %.1f ms (fwd %.1f, bwd %.1f)   %.1f graphs/s (mean %.1f)\n",
           best * 1e3, mean * 1e3, t_fwd / iters * 1e3, t_bwd / iters * 1e3, n_graphs / best,
           n_graphs / mean);
    printf("  achieved %.1f GFLOP/s  =  %.0f%% of sgemm 512^3 (%.1f), %.0f%% of sgemm 20000x113x512 (%.1f)\n",
           gf, g512 > 0 ? 100 * gf / g512 : 0, g512, gbig > 0 ? 100 * gf / gbig : 0, gbig);
    printf("  workspace peak %.1f MiB, parameters %lld\n", (double)m.ws.peak / (1 << 20),
           (long long)m.ps.total);
    free(x); free(tgt); free(dy);
    dlp__nn_graph_free(&g);
    dlp__nn_ws_free(&m.ws);
    dlp__nn_seq_free(&m.net);
    dlp__nn_params_free(&m.ps);
    return 0;
}
