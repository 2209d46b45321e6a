/*
 * test_nn.c — the neural-network core (src/nn): RNG, parameter store,
 * workspace, graph batches, and a finite-difference gradient check of every
 * layer and every loss, with respect to the inputs AND every trainable
 * parameter, on a small multi-graph batch that has nodes without incoming
 * edges, a self loop, a duplicate edge and a one-node graph.  Forward values
 * of the message-passing layers are also compared against straightforward
 * re-implementations of the PyG formulas straight from the edge list.
 *
 * How the gradient check works: for a layer y = f(x; θ) the scalar
 * L = Σ y ⊙ R (R fixed random) has dL/dy = R, so one backward with dy = R
 * gives analytic dL/dx and dL/dθ; central differences of L (accumulated in
 * double) give numeric ones.  Float32 forward passes limit the precision,
 * hence a step of 5e-3 and a 1% relative tolerance with a small absolute
 * floor.
 */
#include "tap.h"

#include "nn/nn.h"

#include <stdint.h>

/* ---- shared fixtures -------------------------------------------------- */

/* Four graphs, 10 nodes, stacked block-diagonally:
 *   g0 (nodes 0-3): 0->1 2->1 3->1 1->2 2->2(self loop) 0->3 0->3(duplicate);
 *                   node 0 has no incoming edge
 *   g1 (nodes 4-6): a 3-cycle plus a chord
 *   g2 (nodes 7-8): 7->8, node 7 has no incoming edge
 *   g3 (node 9):    a single isolated node                               */
static const int32_t G0_SRC[] = {0, 2, 3, 1, 2, 0, 0}, G0_DST[] = {1, 1, 1, 2, 2, 3, 3};
static const int32_t G1_SRC[] = {0, 1, 2, 0}, G1_DST[] = {1, 2, 0, 2};
static const int32_t G2_SRC[] = {0}, G2_DST[] = {1};

static void make_graph(dlp__nn_graph *g) {
    dlp__nn_graph_part parts[4] = {
        {4, 7, G0_SRC, G0_DST}, {3, 4, G1_SRC, G1_DST}, {2, 1, G2_SRC, G2_DST}, {1, 0, NULL, NULL}};
    dlp_error err = {0};
    dlp_status st = dlp__nn_graph_collate(g, 4, parts, &err);
    if (st != DLP_OK) fprintf(stderr, "  collate: %s\n", err.msg);
}

/* The same batch as a global edge list, for the reference formulas. */
static int global_edges(int32_t *src, int32_t *dst) {
    int e = 0;
    for (int k = 0; k < 7; k++) { src[e] = G0_SRC[k]; dst[e++] = G0_DST[k]; }
    for (int k = 0; k < 4; k++) { src[e] = G1_SRC[k] + 4; dst[e++] = G1_DST[k] + 4; }
    src[e] = 7; dst[e++] = 8;
    return e;
}

/* A random batch: 2..4 graphs of 2..6 nodes, each node 0..3 incoming edges
 * from anywhere in its graph (self loops and duplicates happen); the first
 * node of the batch never has an incoming edge. */
static void make_random_graph(dlp__nn_graph *g, uint64_t seed) {
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, seed);
    int np = 2 + (int)dlp__nn_rng_below(&r, 3);
    dlp__nn_graph_part parts[4];
    int32_t src[4][24], dst[4][24];
    for (int p = 0; p < np; p++) {
        int n = 2 + (int)dlp__nn_rng_below(&r, 5), e = 0;
        for (int i = 0; i < n; i++) {
            int k = p == 0 && i == 0 ? 0 : (int)dlp__nn_rng_below(&r, 4);
            for (int q = 0; q < k; q++) {
                src[p][e] = (int32_t)dlp__nn_rng_below(&r, (uint32_t)n);
                dst[p][e++] = i;
            }
        }
        parts[p] = (dlp__nn_graph_part){n, e, src[p], dst[p]};
    }
    dlp_error err = {0};
    if (dlp__nn_graph_collate(g, np, parts, &err) != DLP_OK)
        fprintf(stderr, "  collate: %s\n", err.msg);
}

static void fill_uniform(dlp__nn_rng *r, float *p, size_t n, float lo, float hi) {
    for (size_t k = 0; k < n; k++) p[k] = lo + (hi - lo) * dlp__nn_rng_uniform(r);
}

/* Random values for every trainable tensor (on top of the init rule) so
 * biases, norms' gammas and PReLU slopes are all exercised. */
static void jitter_params(dlp__nn_params *ps, uint64_t seed) {
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, seed);
    dlp__nn_params_init(ps, seed);
    for (int i = 0; i < ps->n; i++) {
        if (!ps->t[i].trainable) continue;
        float *p = dlp__nn_pv(ps, i);
        for (int64_t k = 0; k < ps->t[i].numel; k++)
            p[k] += 0.4f * (2 * dlp__nn_rng_uniform(&r) - 1);
    }
}

/* ---- finite-difference harness --------------------------------------- */

typedef struct {
    dlp__nn_layer *L;
    dlp__nn_params *ps;
    const dlp__nn_graph *g;
    dlp__nn_ws ws;
    float *x;                   /* (n, fin) */
    int n, fin;
    float *R;                   /* (rows, fout) */
    int rows, fout;
    int training;
} fd_case;

#define FD_H 5e-3f
#define FD_RTOL 1e-2
#define FD_ATOL 1e-3

static dlp__nn_ctx fd_ctx(fd_case *c) {
    dlp__nn_ctx cx;
    /* same dropout mask on every evaluation */
    dlp__nn_ctx_init(&cx, c->ps, &c->ws, 777, c->training);
    return cx;
}

static double fd_loss(fd_case *c) {
    dlp__nn_ws_reset(&c->ws);
    dlp__nn_ctx cx = fd_ctx(c);
    float *y = dlp__nn_ws_floats(&c->ws, (size_t)c->rows * c->fout);
    if (dlp__nn_layer_forward(c->L, &cx, c->g, c->x, c->n, y) != DLP_OK) return NAN;
    double s = 0;
    for (size_t k = 0; k < (size_t)c->rows * c->fout; k++) s += (double)y[k] * c->R[k];
    return s;
}

static int fd_close(double a, double num, double rtol, double atol) {
    return isfinite(a) && fabs(a - num) <= rtol * fmax(fabs(a), fabs(num)) + atol;
}

/* Numeric derivative of the loss at one element: central, plus both
 * one-sided ones for the kink fallback below. */
typedef struct { double central, fwd, bwd; } fd_num;

static fd_num fd_from3(double lp, double l0, double lm) {
    fd_num r = {(lp - lm) / (2.0 * FD_H), (lp - l0) / FD_H, (l0 - lm) / FD_H};
    return r;
}

/* Central differences are wrong within a step of a kink (ReLU, max,
 * LeakyReLU, |.|): there the analytic gradient must still equal the
 * one-sided derivative on the side that does not cross the kink, so such
 * an element passes if the two one-sided slopes differ and it matches one
 * of them closely.  A wrong gradient of a smooth function cannot: it would
 * have to sit h f''/2 from f', within the tight tolerance. */
static int fd_compare(const char *what, int64_t idx, double a, fd_num num, int *shown) {
    if (fd_close(a, num.central, FD_RTOL, FD_ATOL)) return 0;
    if (fabs(num.fwd - num.bwd) > 2e-3 &&
        (fd_close(a, num.fwd, 5e-3, 1e-3) || fd_close(a, num.bwd, 5e-3, 1e-3))) {
        if (getenv("FD_VERBOSE"))
            fprintf(stderr, "  kink %s[%lld]: analytic %.6g one-sided %.6g %.6g\n", what,
                    (long long)idx, a, num.fwd, num.bwd);
        return 0;
    }
    if ((*shown)++ < 5)
        fprintf(stderr, "  grad %s[%lld]: analytic %.6g numeric %.6g (one-sided %.6g %.6g)\n",
                what, (long long)idx, a, num.central, num.fwd, num.bwd);
    return 1;
}

static fd_num fd_numeric(fd_case *c, float *p) {
    float save = *p;
    double l0 = fd_loss(c);
    *p = save + FD_H;
    double lp = fd_loss(c);
    *p = save - FD_H;
    double lm = fd_loss(c);
    *p = save;
    return fd_from3(lp, l0, lm);
}

/* Checks dL/dx and dL/dθ for layer L on input x; returns mismatches. */
static int fd_check(dlp__nn_layer *L, dlp__nn_params *ps, const dlp__nn_graph *g,
                    int n, int training, uint64_t seed) {
    fd_case c = {0};
    c.L = L;
    c.ps = ps;
    c.g = g;
    c.n = n;
    c.fin = dlp__nn_layer_in(L);
    c.fout = dlp__nn_layer_out(L);
    c.rows = dlp__nn_layer_rows(L, g, n);
    c.training = training;
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, seed);
    c.x = malloc((size_t)n * c.fin * sizeof *c.x);
    c.R = malloc((size_t)c.rows * c.fout * sizeof *c.R);
    float *dx = calloc((size_t)n * c.fin, sizeof *dx);
    float *ga = malloc((size_t)ps->total * sizeof *ga);
    fill_uniform(&r, c.x, (size_t)n * c.fin, -1, 1);
    fill_uniform(&r, c.R, (size_t)c.rows * c.fout, -1, 1);

    /* analytic */
    dlp__nn_zero_grad(ps);
    dlp__nn_ws_reset(&c.ws);
    dlp__nn_ctx cx = fd_ctx(&c);
    float *y = dlp__nn_ws_floats(&c.ws, (size_t)c.rows * c.fout);
    int bad = 0, shown = 0;
    if (dlp__nn_layer_forward(L, &cx, g, c.x, n, y) != DLP_OK ||
        dlp__nn_layer_backward(L, &cx, g, c.R, dx) != DLP_OK) {
        fprintf(stderr, "  forward/backward failed\n");
        bad = 1;
        goto done;
    }
    memcpy(ga, ps->grad, (size_t)ps->total * sizeof *ga);

    for (int64_t k = 0; k < (int64_t)n * c.fin; k++)
        bad += fd_compare("x", k, dx[k], fd_numeric(&c, &c.x[k]), &shown);
    for (int i = 0; i < ps->n; i++) {
        const dlp__nn_ptensor *t = &ps->t[i];
        if (!t->trainable) continue;
        for (int64_t k = 0; k < t->numel; k++)
            bad += fd_compare(t->name, k, ga[t->offset + k],
                              fd_numeric(&c, &ps->data[t->offset + k]), &shown);
    }
done:
    dlp__nn_ws_free(&c.ws);
    free(c.x);
    free(c.R);
    free(dx);
    free(ga);
    return bad;
}

/* A one-layer model ready for fd_check; the caller fills layer.u. */
typedef struct {
    dlp__nn_params ps;
    dlp__nn_graph g;
    dlp__nn_layer L;
} fixture;

static void fx_begin(fixture *f, dlp__nn_kind kind) {
    memset(f, 0, sizeof *f);
    make_graph(&f->g);
    f->L.kind = kind;
}

/* After the layer's init: allocate, randomise, check, free. */
static void fx_check(fixture *f, int training, uint64_t seed) {
    CHECK_I64(dlp__nn_params_alloc(&f->ps), DLP_OK);
    jitter_params(&f->ps, seed);
    CHECK_I64(fd_check(&f->L, &f->ps, &f->g, f->g.n_nodes, training, seed + 1), 0);
    dlp__nn_params_free(&f->ps);
    dlp__nn_graph_free(&f->g);
}

/* ---- basics ----------------------------------------------------------- */

static void t_rng(void) {
    dlp__nn_rng a, b;
    dlp__nn_rng_seed(&a, 42);
    dlp__nn_rng_seed(&b, 42);
    for (int i = 0; i < 100; i++) CHECK(dlp__nn_rng_u64(&a) == dlp__nn_rng_u64(&b));
    dlp__nn_rng_seed(&b, 43);
    CHECK(dlp__nn_rng_u64(&a) != dlp__nn_rng_u64(&b));
    double s = 0, s2 = 0;
    int hist[7] = {0};
    for (int i = 0; i < 20000; i++) {
        float u = dlp__nn_rng_uniform(&a);
        CHECK(u >= 0 && u < 1);
        float z = dlp__nn_rng_normal(&a);
        s += z;
        s2 += (double)z * z;
        hist[dlp__nn_rng_below(&a, 7)]++;
    }
    CHECK_NEAR(s / 20000, 0, 0.05);
    CHECK_NEAR(s2 / 20000, 1, 0.05);
    for (int k = 0; k < 7; k++) CHECK(hist[k] > 2500 && hist[k] < 3200);
    CHECK_I64(dlp__nn_rng_below(&a, 1), 0);
}

static void t_params_store(void) {
    dlp__nn_params ps = {0};
    dlp__nn_linear l1, l2;
    dlp__nn_batchnorm bn;
    CHECK_I64(dlp__nn_linear_init(&l1, &ps, "head.0", 5, 7, 1), DLP_OK);
    CHECK_I64(dlp__nn_batchnorm_init(&bn, &ps, "head.1", 7), DLP_OK);
    CHECK_I64(dlp__nn_linear_init(&l2, &ps, "head.2", 7, 1, 0), DLP_OK);
    CHECK_I64(ps.n, 7);
    CHECK_I64(ps.total, 35 + 7 + 4 * 7 + 7);
    CHECK_I64(dlp__nn_params_trainable(&ps), 35 + 7 + 2 * 7 + 7);
    CHECK_STR(ps.t[l1.w].name, "head.0.weight");
    CHECK_STR(ps.t[bn.rvar].name, "head.1.running_var");
    CHECK_I64(dlp__nn_params_find(&ps, "head.2.weight"), l2.w);
    CHECK_I64(dlp__nn_params_find(&ps, "nope"), -1);
    /* contiguous size table: tensor i starts where i-1 ends */
    for (int i = 1; i < ps.n; i++)
        CHECK_I64(ps.t[i].offset, ps.t[i - 1].offset + ps.t[i - 1].numel);
    CHECK_I64(ps.t[l1.w].dims[0], 7);
    CHECK_I64(ps.t[l1.w].dims[1], 5);
    CHECK_I64(dlp__nn_params_alloc(&ps), DLP_OK);
    CHECK(dlp__nn_params_add(&ps, NULL, "late", 1, 3, 1, DLP__NN_INIT_ZEROS, 0, 1) < 0);
    dlp__nn_params_init(&ps, 9);
    /* glorot bound sqrt(6 / (5 + 7)), not all equal */
    float *w = dlp__nn_pv(&ps, l1.w), bound = sqrtf(6.0f / 12.0f), mx = 0;
    for (int k = 0; k < 35; k++) {
        CHECK(fabsf(w[k]) <= bound);
        mx = fmaxf(mx, fabsf(w[k]));
    }
    CHECK(mx > 0.5f * bound);
    CHECK_NEAR(dlp__nn_pv(&ps, l1.b)[3], 0, 0);
    CHECK_NEAR(dlp__nn_pv(&ps, bn.gamma)[2], 1, 0);
    CHECK_NEAR(dlp__nn_pv(&ps, bn.rvar)[6], 1, 0);
    /* same seed -> same numbers; another seed -> others */
    float *copy = malloc((size_t)ps.total * sizeof *copy);
    memcpy(copy, ps.data, (size_t)ps.total * sizeof *copy);
    dlp__nn_params_init(&ps, 9);
    CHECK(memcmp(copy, ps.data, (size_t)ps.total * sizeof *copy) == 0);
    dlp__nn_params_init(&ps, 10);
    CHECK(memcmp(copy, ps.data, (size_t)ps.total * sizeof *copy) != 0);
    free(copy);
    /* kaiming: U(+-sqrt(6 / fan_in)) */
    dlp__nn_params p2 = {0};
    int id = dlp__nn_params_add(&p2, "", "k", 2, 50, 200, DLP__NN_INIT_KAIMING, 0, 1);
    CHECK_I64(id, 0);
    CHECK_STR(p2.t[0].name, "k");
    CHECK_I64(dlp__nn_params_alloc(&p2), DLP_OK);
    dlp__nn_params_init(&p2, 1);
    float kb = sqrtf(6.0f / 200.0f);
    mx = 0;
    for (int k = 0; k < 10000; k++) mx = fmaxf(mx, fabsf(p2.data[k]));
    CHECK(mx <= kb && mx > 0.95f * kb);
    dlp__nn_params_free(&p2);
    dlp__nn_zero_grad(&ps);
    CHECK_NEAR(ps.grad[ps.total - 1], 0, 0);
    dlp__nn_params_free(&ps);
    dlp__nn_params_free(&ps);   /* idempotent */
}

static void t_workspace(void) {
    dlp__nn_ws ws = {0};
    float *a = dlp__nn_ws_floats(&ws, 10);
    CHECK(a && ((uintptr_t)a & 63) == 0);
    float *b = dlp__nn_ws_zeros(&ws, 3 << 20);   /* bigger than the first block */
    CHECK(b && b[12345] == 0 && ((uintptr_t)b & 63) == 0);
    CHECK(dlp__nn_ws_alloc(&ws, 0) != NULL);
    size_t peak = ws.peak;
    CHECK(peak >= (size_t)(3 << 20) * 4);
    dlp__nn_ws_reset(&ws);
    CHECK_I64(ws.used, 0);
    /* one block that holds the peak: the same step now fits without malloc */
    dlp__nn_ws_block *head = ws.head;
    CHECK(dlp__nn_ws_floats(&ws, 10) != NULL);
    CHECK(dlp__nn_ws_zeros(&ws, 3 << 20) != NULL);
    CHECK(ws.head == head);
    /* mark / release: scratch above the mark goes, older data stays */
    float *keep = dlp__nn_ws_floats(&ws, 4);
    keep[3] = 42;
    dlp__nn_ws_mark mk = dlp__nn_ws_get_mark(&ws);
    size_t used = ws.used;
    CHECK(dlp__nn_ws_floats(&ws, 100) != NULL);
    CHECK(dlp__nn_ws_floats(&ws, 8 << 20) != NULL);   /* spills into a new block */
    CHECK(ws.head != head);
    dlp__nn_ws_release(&ws, mk);
    CHECK(ws.head == head);
    CHECK_I64(ws.used, used);
    CHECK_NEAR(keep[3], 42, 0);
    dlp__nn_ws_free(&ws);
    dlp__nn_ws_free(&ws);
}

static void t_graph_build(void) {
    dlp__nn_graph g;
    make_graph(&g);
    CHECK_I64(g.n_nodes, 10);
    CHECK_I64(g.n_edges, 12);
    CHECK_I64(g.n_graphs, 4);
    CHECK_I64(g.graph_size[0], 4);
    CHECK_I64(g.graph_size[3], 1);
    CHECK_I64(g.graph_id[9], 3);
    /* incoming CSR: node 1 gathers from 0, 2, 3; node 0 from nobody */
    CHECK_I64(g.in.rowptr[1] - g.in.rowptr[0], 0);
    CHECK_I64(g.in.rowptr[2] - g.in.rowptr[1], 3);
    CHECK_I64(g.in.col[g.in.rowptr[1] + 2], 3);
    /* outgoing (transpose): node 0 sends to 1, 3, 3 */
    CHECK_I64(g.out.rowptr[1] - g.out.rowptr[0], 3);
    CHECK_I64(g.out.col[0], 1);
    CHECK_I64(g.out.col[2], 3);
    CHECK_I64(g.out.nnz, g.in.nnz);
    /* self-loop CSR: node 2's existing loop replaced, one per node */
    CHECK_I64(g.in_sl.nnz, 12 - 1 + 10);
    CHECK_I64(g.in_sl.rowptr[3] - g.in_sl.rowptr[2], 2);   /* 1->2, 2->2 */
    for (int i = 0; i < 10; i++) CHECK_I64(g.in_sl.col[g.in_sl.rowptr[i + 1] - 1], i);
    /* transpose of transpose is the original */
    dlp__nn_csr tt;
    CHECK_I64(dlp__nn_csr_transpose(&g.out, &tt), DLP_OK);
    for (int i = 0; i <= 10; i++) CHECK_I64(tt.rowptr[i], g.in.rowptr[i]);
    dlp__nn_csr_free(&tt);
    dlp__nn_graph_free(&g);
    dlp__nn_graph_free(&g);

    /* errors name the thing */
    dlp_error err = {0};
    int32_t s[] = {0, 5}, d[] = {1, 0};
    CHECK_I64(dlp__nn_graph_build(&g, 3, 2, s, d, NULL, 1, &err), DLP_EGRAPH);
    CHECK(strstr(err.msg, "out of range") != NULL);
    int32_t gid[] = {0, 0, 2};
    CHECK_I64(dlp__nn_graph_build(&g, 3, 1, d, s + 1, gid, 2, &err), DLP_EGRAPH);
    CHECK(strstr(err.msg, "graph id") != NULL);
    dlp__nn_graph_part bad = {2, 1, s + 1, s};   /* 5 -> 0 in a 2-node graph */
    CHECK_I64(dlp__nn_graph_collate(&g, 1, &bad, &err), DLP_EGRAPH);
    /* an empty batch graph is fine */
    CHECK_I64(dlp__nn_graph_build(&g, 0, 0, NULL, NULL, NULL, 1, &err), DLP_OK);
    dlp__nn_graph_free(&g);
}

/* ---- aggregation and readout ------------------------------------------ */

/* FD of L = Σ agg(x) ⊙ R for a raw aggregation over `in` or `out`. */
static int agg_fd(const dlp__nn_csr *a, dlp__nn_agg op) {
    enum { F = 3 };
    int nx = a->n_cols, ny = a->n_rows, bad = 0, shown = 0;
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 5 + (uint64_t)op);
    float *x = malloc((size_t)nx * F * sizeof *x), *R = malloc((size_t)ny * F * sizeof *R);
    float *y = malloc((size_t)ny * F * sizeof *y), *dx = calloc((size_t)nx * F, sizeof *dx);
    int32_t *am = malloc((size_t)ny * F * sizeof *am);
    fill_uniform(&r, x, (size_t)nx * F, -1, 1);
    fill_uniform(&r, R, (size_t)ny * F, -1, 1);
    dlp__nn_aggregate(a, op, x, F, y, am);
    dlp__nn_aggregate_backward(a, op, R, F, am, dx);
    for (int k = 0; k < nx * F; k++) {
        double l[3];
        float save = x[k];
        for (int s = 0; s < 3; s++) {
            x[k] = save + (float)(1 - s) * FD_H;
            dlp__nn_aggregate(a, op, x, F, y, am);
            l[s] = 0;
            for (int q = 0; q < ny * F; q++) l[s] += (double)y[q] * R[q];
        }
        x[k] = save;
        bad += fd_compare("agg x", k, dx[k], fd_from3(l[0], l[1], l[2]), &shown);
    }
    free(x); free(R); free(y); free(dx); free(am);
    return bad;
}

static void t_aggregate_values(void) {
    dlp__nn_graph g;
    make_graph(&g);
    float x[10], y[10];
    int32_t am[10];
    for (int i = 0; i < 10; i++) x[i] = (float)(i + 1);
    dlp__nn_aggregate(&g.in, DLP__NN_AGG_SUM, x, 1, y, NULL);
    CHECK_NEAR(y[0], 0, 0);                  /* no incoming edge */
    CHECK_NEAR(y[1], 1 + 3 + 4, 0);
    CHECK_NEAR(y[2], 2 + 3, 0);              /* self loop counts for SAGE/GIN */
    CHECK_NEAR(y[3], 2, 0);                  /* duplicate edge counts twice */
    dlp__nn_aggregate(&g.in, DLP__NN_AGG_MEAN, x, 1, y, NULL);
    CHECK_NEAR(y[1], 8.0 / 3, 1e-6);
    CHECK_NEAR(y[9], 0, 0);
    dlp__nn_aggregate(&g.in, DLP__NN_AGG_MAX, x, 1, y, am);
    CHECK_NEAR(y[1], 4, 0);
    CHECK_I64(am[1], 3);
    CHECK_I64(am[0], -1);
    /* outgoing: node 0 sends to 1, 3, 3 */
    dlp__nn_aggregate(&g.out, DLP__NN_AGG_SUM, x, 1, y, NULL);
    CHECK_NEAR(y[0], 2 + 4 + 4, 0);
    dlp__nn_graph_free(&g);
}

static void t_aggregate_grad(void) {
    dlp__nn_graph g;
    make_graph(&g);
    for (int op = DLP__NN_AGG_SUM; op <= DLP__NN_AGG_MAX; op++) {
        CHECK_I64(agg_fd(&g.in, (dlp__nn_agg)op), 0);
        CHECK_I64(agg_fd(&g.out, (dlp__nn_agg)op), 0);
    }
    dlp__nn_graph_free(&g);
}

static void t_readout_values(void) {
    dlp__nn_graph g;
    make_graph(&g);
    float x[10], y[4];
    int32_t am[4];
    for (int i = 0; i < 10; i++) x[i] = (float)(i % 4) - 1.5f;   /* -1.5 -0.5 .5 1.5 ... */
    dlp__nn_pool(&g, DLP__NN_AGG_SUM, x, 1, y, NULL);
    CHECK_NEAR(y[0], 0, 1e-6);
    CHECK_NEAR(y[3], -0.5, 1e-6);
    dlp__nn_pool(&g, DLP__NN_AGG_MEAN, x, 1, y, NULL);
    CHECK_NEAR(y[1], (-1.5 - 0.5 + 0.5) / 3, 1e-6);
    dlp__nn_pool(&g, DLP__NN_AGG_MAX, x, 1, y, am);
    CHECK_NEAR(y[2], 1.5, 0);             /* nodes 7, 8 hold 1.5, -1.5 */
    CHECK_I64(am[2], 7);
    CHECK_NEAR(y[3], -0.5, 0);            /* one-node graph */
    dlp__nn_graph_free(&g);
}

static void t_grad_readout(void) {
    for (int op = DLP__NN_AGG_SUM; op <= DLP__NN_AGG_MAX; op++) {
        fixture f;
        fx_begin(&f, DLP__NN_L_READOUT);
        CHECK_I64(dlp__nn_readout_init(&f.L.u.ro, 4, (dlp__nn_agg)op), DLP_OK);
        fx_check(&f, 1, 100 + (uint64_t)op);
    }
}

/* ---- gradient checks, one per layer ------------------------------------ */

static void t_grad_linear(void) {
    for (int bias = 0; bias < 2; bias++) {
        fixture f;
        fx_begin(&f, DLP__NN_L_LINEAR);
        CHECK_I64(dlp__nn_linear_init(&f.L.u.linear, &f.ps, "lin", 4, 3, bias), DLP_OK);
        fx_check(&f, 1, 11 + (uint64_t)bias);
    }
}

static void t_grad_sage(void) {
    for (int op = DLP__NN_AGG_SUM; op <= DLP__NN_AGG_MAX; op++)
        for (int norm = 0; norm < 2; norm++) {
            fixture f;
            fx_begin(&f, DLP__NN_L_SAGE);
            CHECK_I64(dlp__nn_sage_init(&f.L.u.sage, &f.ps, "conv", 3, 4, (dlp__nn_agg)op, norm),
                      DLP_OK);
            fx_check(&f, 1, 20 + (uint64_t)(op * 2 + norm));
        }
}

static void t_grad_gcn(void) {
    fixture f;
    fx_begin(&f, DLP__NN_L_GCN);
    CHECK_I64(dlp__nn_gcn_init(&f.L.u.gcn, &f.ps, "conv", 3, 4), DLP_OK);
    fx_check(&f, 1, 30);
}

static void t_grad_gin(void) {
    /* fixed eps, no BN; learnable eps + BN in train mode; BN in eval mode */
    struct { int train_eps, bn, training; } cases[] = {{0, 0, 1}, {1, 1, 1}, {1, 1, 0}};
    for (int i = 0; i < 3; i++) {
        fixture f;
        fx_begin(&f, DLP__NN_L_GIN);
        CHECK_I64(dlp__nn_gin_init(&f.L.u.gin, &f.ps, "conv", 3, 5, 2, 0.1f,
                                   cases[i].train_eps, cases[i].bn), DLP_OK);
        fx_check(&f, cases[i].training, 40 + (uint64_t)i);
    }
}

static void t_grad_gat(void) {
    struct { int heads, concat; } cases[] = {{1, 1}, {2, 1}, {3, 0}};
    for (int i = 0; i < 3; i++) {
        fixture f;
        fx_begin(&f, DLP__NN_L_GAT);
        CHECK_I64(dlp__nn_gat_init(&f.L.u.gat, &f.ps, "conv", 3, 2, cases[i].heads,
                                   cases[i].concat), DLP_OK);
        fx_check(&f, 1, 50 + (uint64_t)i);
    }
}

static void t_grad_batchnorm(void) {
    for (int training = 0; training < 2; training++) {
        fixture f;
        fx_begin(&f, DLP__NN_L_BATCHNORM);
        CHECK_I64(dlp__nn_batchnorm_init(&f.L.u.bn, &f.ps, "bn", 4), DLP_OK);
        CHECK_I64(dlp__nn_params_alloc(&f.ps), DLP_OK);
        jitter_params(&f.ps, 60);
        dlp__nn_rng r;
        dlp__nn_rng_seed(&r, 61);
        fill_uniform(&r, dlp__nn_pv(&f.ps, f.L.u.bn.rmean), 4, -0.5f, 0.5f);
        fill_uniform(&r, dlp__nn_pv(&f.ps, f.L.u.bn.rvar), 4, 0.5f, 2.0f);
        CHECK_I64(fd_check(&f.L, &f.ps, &f.g, 10, training, 62), 0);
        dlp__nn_params_free(&f.ps);
        dlp__nn_graph_free(&f.g);
    }
}

static void t_grad_layernorm(void) {
    fixture f;
    fx_begin(&f, DLP__NN_L_LAYERNORM);
    CHECK_I64(dlp__nn_layernorm_init(&f.L.u.ln, &f.ps, "ln", 5), DLP_OK);
    fx_check(&f, 1, 70);
}

static void t_grad_activations(void) {
    struct { dlp__nn_act_kind k; int n_slope; } cases[] = {
        {DLP__NN_ACT_RELU, 0}, {DLP__NN_ACT_ELU, 0}, {DLP__NN_ACT_PRELU, 1}, {DLP__NN_ACT_PRELU, 4}};
    for (int i = 0; i < 4; i++) {
        fixture f;
        fx_begin(&f, DLP__NN_L_ACT);
        CHECK_I64(dlp__nn_act_init(&f.L.u.act, &f.ps, "act", cases[i].k, 4, 1.0f,
                                   cases[i].n_slope), DLP_OK);
        fx_check(&f, 1, 80 + (uint64_t)i);
    }
}

static void t_grad_dropout(void) {
    for (int training = 0; training < 2; training++) {
        fixture f;
        fx_begin(&f, DLP__NN_L_DROPOUT);
        CHECK_I64(dlp__nn_dropout_init(&f.L.u.drop, 4, 0.3f), DLP_OK);
        fx_check(&f, training, 90 + (uint64_t)training);
    }
}

/* A whole small GNN through dlp__nn_seq: GAT -> ELU -> SAGE -> LayerNorm ->
 * PReLU -> GIN(BN) -> Dropout -> GCN -> ReLU -> mean readout -> Linear. */
static void t_grad_seq(void) {
    dlp__nn_seq s = {0};
    dlp__nn_params ps = {0};
    dlp__nn_graph g;
    make_graph(&g);
    dlp__nn_layer *L;
    L = dlp__nn_seq_push(&s, DLP__NN_L_GAT);
    CHECK_I64(dlp__nn_gat_init(&L->u.gat, &ps, "c0", 3, 2, 2, 1), DLP_OK);
    L = dlp__nn_seq_push(&s, DLP__NN_L_ACT);
    CHECK_I64(dlp__nn_act_init(&L->u.act, &ps, "a0", DLP__NN_ACT_ELU, 4, 1.0f, 0), DLP_OK);
    L = dlp__nn_seq_push(&s, DLP__NN_L_SAGE);
    CHECK_I64(dlp__nn_sage_init(&L->u.sage, &ps, "c1", 4, 4, DLP__NN_AGG_MEAN, 0), DLP_OK);
    L = dlp__nn_seq_push(&s, DLP__NN_L_LAYERNORM);
    CHECK_I64(dlp__nn_layernorm_init(&L->u.ln, &ps, "n1", 4), DLP_OK);
    L = dlp__nn_seq_push(&s, DLP__NN_L_ACT);
    CHECK_I64(dlp__nn_act_init(&L->u.act, &ps, "a1", DLP__NN_ACT_PRELU, 4, 0, 4), DLP_OK);
    L = dlp__nn_seq_push(&s, DLP__NN_L_GIN);
    CHECK_I64(dlp__nn_gin_init(&L->u.gin, &ps, "c2", 4, 4, 3, 0, 1, 1), DLP_OK);
    L = dlp__nn_seq_push(&s, DLP__NN_L_DROPOUT);
    CHECK_I64(dlp__nn_dropout_init(&L->u.drop, 3, 0.2f), DLP_OK);
    L = dlp__nn_seq_push(&s, DLP__NN_L_GCN);
    CHECK_I64(dlp__nn_gcn_init(&L->u.gcn, &ps, "c3", 3, 3), DLP_OK);
    L = dlp__nn_seq_push(&s, DLP__NN_L_ACT);
    CHECK_I64(dlp__nn_act_init(&L->u.act, &ps, "a3", DLP__NN_ACT_RELU, 3, 0, 0), DLP_OK);
    L = dlp__nn_seq_push(&s, DLP__NN_L_READOUT);
    CHECK_I64(dlp__nn_readout_init(&L->u.ro, 3, DLP__NN_AGG_MEAN), DLP_OK);
    L = dlp__nn_seq_push(&s, DLP__NN_L_LINEAR);
    CHECK_I64(dlp__nn_linear_init(&L->u.linear, &ps, "head", 3, 2, 1), DLP_OK);
    CHECK_I64(dlp__nn_params_alloc(&ps), DLP_OK);
    jitter_params(&ps, 123);

    dlp__nn_ws ws = {0};
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 124);
    float x[10 * 3], R[4 * 2], dx[10 * 3] = {0};
    fill_uniform(&r, x, 30, -1, 1);
    fill_uniform(&r, R, 8, -1, 1);
    dlp__nn_ctx cx;
    dlp__nn_ctx_init(&cx, &ps, &ws, 1, 1);
    const float *y;
    int rows = 0;
    dlp__nn_zero_grad(&ps);
    CHECK_I64(dlp__nn_seq_forward(&s, &cx, &g, x, 10, &y, &rows), DLP_OK);
    CHECK_I64(rows, 4);
    CHECK_I64(dlp__nn_seq_backward(&s, &cx, &g, R, dx), DLP_OK);
    float *ga = malloc((size_t)ps.total * sizeof *ga);
    memcpy(ga, ps.grad, (size_t)ps.total * sizeof *ga);

    int bad = 0, shown = 0;
    /* numeric gradient of the whole sequence, same dropout mask each time */
#define SEQ_LOSS(out) do { dlp__nn_ws_reset(&ws); dlp__nn_rng_seed(&cx.rng, 1); \
        CHECK_I64(dlp__nn_seq_forward(&s, &cx, &g, x, 10, &y, &rows), DLP_OK); \
        out = 0; for (int q = 0; q < 8; q++) out += (double)y[q] * R[q]; } while (0)
    for (int k = 0; k < 30; k++) {
        double l0, lp, lm;
        float save = x[k];
        SEQ_LOSS(l0);
        x[k] = save + FD_H; SEQ_LOSS(lp);
        x[k] = save - FD_H; SEQ_LOSS(lm);
        x[k] = save;
        bad += fd_compare("x", k, dx[k], fd_from3(lp, l0, lm), &shown);
    }
    for (int i = 0; i < ps.n; i++) {
        if (!ps.t[i].trainable) continue;
        for (int64_t k = 0; k < ps.t[i].numel; k++) {
            double l0, lp, lm;
            float *p = &ps.data[ps.t[i].offset + k], save = *p;
            SEQ_LOSS(l0);
            *p = save + FD_H; SEQ_LOSS(lp);
            *p = save - FD_H; SEQ_LOSS(lm);
            *p = save;
            bad += fd_compare(ps.t[i].name, k, ga[ps.t[i].offset + k], fd_from3(lp, l0, lm),
                              &shown);
        }
    }
#undef SEQ_LOSS
    CHECK_I64(bad, 0);

    /* feature dims that do not chain are refused */
    L = dlp__nn_seq_push(&s, DLP__NN_L_ACT);
    CHECK_I64(dlp__nn_act_init(&L->u.act, &ps, "bad", DLP__NN_ACT_RELU, 5, 0, 0), DLP_OK);
    CHECK_I64(dlp__nn_seq_forward(&s, &cx, &g, x, 10, &y, &rows), DLP_EINVAL);

    free(ga);
    dlp__nn_ws_free(&ws);
    dlp__nn_seq_free(&s);
    dlp__nn_params_free(&ps);
    dlp__nn_graph_free(&g);
}

/* The message-passing layers again, on several random batches. */
static void t_grad_random_graphs(void) {
    for (uint64_t seed = 1; seed <= 4; seed++)
        for (int kind = 0; kind < 4; kind++) {
            fixture f;
            memset(&f, 0, sizeof f);
            make_random_graph(&f.g, 1000 + seed);
            dlp_status st = DLP_EINVAL;
            switch (kind) {
            case 0:
                f.L.kind = DLP__NN_L_SAGE;
                st = dlp__nn_sage_init(&f.L.u.sage, &f.ps, "c", 3, 3, (dlp__nn_agg)(seed % 3),
                                       (int)(seed & 1));
                break;
            case 1:
                f.L.kind = DLP__NN_L_GCN;
                st = dlp__nn_gcn_init(&f.L.u.gcn, &f.ps, "c", 3, 3);
                break;
            case 2:
                f.L.kind = DLP__NN_L_GIN;
                st = dlp__nn_gin_init(&f.L.u.gin, &f.ps, "c", 3, 4, 2, 0, 1, (int)(seed & 1));
                break;
            default:
                f.L.kind = DLP__NN_L_GAT;
                st = dlp__nn_gat_init(&f.L.u.gat, &f.ps, "c", 3, 2, 2, (int)(seed & 1));
                break;
            }
            CHECK_I64(st, DLP_OK);
            fx_check(&f, 1, 2000 + seed * 10 + (uint64_t)kind);
        }
}

/* ---- forward values against the PyG formulas --------------------------- */

typedef struct {
    dlp__nn_params ps;
    dlp__nn_graph g;
    dlp__nn_ws ws;
    dlp__nn_ctx cx;
    float x[10 * 3];
    int32_t src[16], dst[16];
    int ne;
} ref_fixture;

static void ref_begin(ref_fixture *f) {
    memset(f, 0, sizeof *f);
    make_graph(&f->g);
    f->ne = global_edges(f->src, f->dst);
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 3);
    fill_uniform(&r, f->x, 30, -1, 1);
    dlp__nn_ctx_init(&f->cx, &f->ps, &f->ws, 1, 0);
}

static void ref_end(ref_fixture *f) {
    dlp__nn_params_free(&f->ps);
    dlp__nn_graph_free(&f->g);
    dlp__nn_ws_free(&f->ws);
}

/* y = x W^T (+ b) for one row, reference */
static void ref_lin(const float *W, const float *b, const float *x, int in, int out,
                    double *y) {
    for (int o = 0; o < out; o++) {
        y[o] = b ? b[o] : 0;
        for (int k = 0; k < in; k++) y[o] += (double)W[o * in + k] * x[k];
    }
}

static void t_ref_sage(void) {
    ref_fixture f;
    ref_begin(&f);
    dlp__nn_sage l;
    CHECK_I64(dlp__nn_sage_init(&l, &f.ps, "c", 3, 2, DLP__NN_AGG_MEAN, 0), DLP_OK);
    CHECK_STR(f.ps.t[l.lin_l.w].name, "c.lin_l.weight");
    CHECK_STR(f.ps.t[l.lin_r.w].name, "c.lin_r.weight");
    CHECK_I64(l.lin_r.b, -1);
    CHECK_I64(dlp__nn_params_alloc(&f.ps), DLP_OK);
    jitter_params(&f.ps, 4);
    float y[20];
    CHECK_I64(dlp__nn_sage_forward(&l, &f.cx, &f.g, f.x, 10, y), DLP_OK);
    for (int i = 0; i < 10; i++) {
        double mean[3] = {0}, a[2], b[2];
        int cnt = 0;
        for (int e = 0; e < f.ne; e++)
            if (f.dst[e] == i) {
                cnt++;
                for (int c = 0; c < 3; c++) mean[c] += f.x[f.src[e] * 3 + c];
            }
        float m[3];
        for (int c = 0; c < 3; c++) m[c] = cnt ? (float)(mean[c] / cnt) : 0;
        ref_lin(dlp__nn_pv(&f.ps, l.lin_l.w), dlp__nn_pv(&f.ps, l.lin_l.b), m, 3, 2, a);
        ref_lin(dlp__nn_pv(&f.ps, l.lin_r.w), NULL, f.x + i * 3, 3, 2, b);
        for (int o = 0; o < 2; o++) CHECK_NEAR(y[i * 2 + o], a[o] + b[o], 1e-5);
    }
    ref_end(&f);
}

static void t_ref_gcn(void) {
    ref_fixture f;
    ref_begin(&f);
    dlp__nn_gcn l;
    CHECK_I64(dlp__nn_gcn_init(&l, &f.ps, "c", 3, 2), DLP_OK);
    CHECK_I64(dlp__nn_params_alloc(&f.ps), DLP_OK);
    jitter_params(&f.ps, 5);
    float y[20];
    CHECK_I64(dlp__nn_gcn_forward(&l, &f.cx, &f.g, f.x, 10, y), DLP_OK);
    /* dense A + I without the graph's own self loops, multi-edges counted */
    double A[10][10] = {{0}}, deg[10] = {0}, h[10][2];
    for (int e = 0; e < f.ne; e++)
        if (f.src[e] != f.dst[e]) A[f.dst[e]][f.src[e]] += 1;
    for (int i = 0; i < 10; i++) A[i][i] += 1;
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < 10; j++) deg[i] += A[i][j];
    for (int i = 0; i < 10; i++)
        ref_lin(dlp__nn_pv(&f.ps, l.lin.w), NULL, f.x + i * 3, 3, 2, h[i]);
    const float *b = dlp__nn_pv(&f.ps, l.bias);
    for (int i = 0; i < 10; i++)
        for (int o = 0; o < 2; o++) {
            double s = b[o];
            for (int j = 0; j < 10; j++) s += A[i][j] / sqrt(deg[i] * deg[j]) * h[j][o];
            CHECK_NEAR(y[i * 2 + o], s, 1e-5);
        }
    ref_end(&f);
}

static void t_ref_gat(void) {
    for (int concat = 0; concat < 2; concat++) {
        ref_fixture f;
        ref_begin(&f);
        enum { H = 2, C = 2 };
        dlp__nn_gat l;
        CHECK_I64(dlp__nn_gat_init(&l, &f.ps, "c", 3, C, H, concat), DLP_OK);
        CHECK_I64(dlp__nn_params_alloc(&f.ps), DLP_OK);
        jitter_params(&f.ps, 6);
        float y[10 * H * C];
        CHECK_I64(dlp__nn_gat_forward(&l, &f.cx, &f.g, f.x, 10, y), DLP_OK);
        double h[10][H * C];
        for (int i = 0; i < 10; i++)
            ref_lin(dlp__nn_pv(&f.ps, l.lin.w), NULL, f.x + i * 3, 3, H * C, h[i]);
        const float *as = dlp__nn_pv(&f.ps, l.att_src), *ad = dlp__nn_pv(&f.ps, l.att_dst);
        const float *b = dlp__nn_pv(&f.ps, l.bias);
        for (int i = 0; i < 10; i++) {
            /* neighbours: non-loop edges into i (duplicates kept) + i itself */
            int nb[16], k = 0;
            for (int e = 0; e < f.ne; e++)
                if (f.dst[e] == i && f.src[e] != i) nb[k++] = f.src[e];
            nb[k++] = i;
            double out[H][C] = {{0}};
            for (int hd = 0; hd < H; hd++) {
                double e_[16], mx = -1e30, z = 0;
                for (int q = 0; q < k; q++) {
                    double s = 0;
                    for (int c = 0; c < C; c++)
                        s += h[nb[q]][hd * C + c] * as[hd * C + c] + h[i][hd * C + c] * ad[hd * C + c];
                    e_[q] = s > 0 ? s : 0.2 * s;
                    mx = fmax(mx, e_[q]);
                }
                for (int q = 0; q < k; q++) z += exp(e_[q] - mx);
                for (int q = 0; q < k; q++)
                    for (int c = 0; c < C; c++)
                        out[hd][c] += exp(e_[q] - mx) / z * h[nb[q]][hd * C + c];
            }
            if (concat)
                for (int hd = 0; hd < H; hd++)
                    for (int c = 0; c < C; c++)
                        CHECK_NEAR(y[i * H * C + hd * C + c], out[hd][c] + b[hd * C + c], 1e-5);
            else
                for (int c = 0; c < C; c++)
                    CHECK_NEAR(y[i * C + c], (out[0][c] + out[1][c]) / H + b[c], 1e-5);
        }
        ref_end(&f);
    }
}

static void t_ref_gin(void) {
    ref_fixture f;
    ref_begin(&f);
    dlp__nn_gin l;
    CHECK_I64(dlp__nn_gin_init(&l, &f.ps, "c", 3, 4, 2, 0.25f, 0, 0), DLP_OK);
    CHECK_STR(f.ps.t[l.eps].name, "c.eps");
    CHECK_I64(f.ps.t[l.eps].trainable, 0);
    CHECK_STR(f.ps.t[l.lin2.w].name, "c.nn.2.weight");
    CHECK_I64(dlp__nn_params_alloc(&f.ps), DLP_OK);
    dlp__nn_params_init(&f.ps, 8);
    CHECK_NEAR(dlp__nn_pv(&f.ps, l.eps)[0], 0.25, 0);
    float y[20];
    CHECK_I64(dlp__nn_gin_forward(&l, &f.cx, &f.g, f.x, 10, y), DLP_OK);
    for (int i = 0; i < 10; i++) {
        float z[3];
        for (int c = 0; c < 3; c++) {
            double s = 1.25 * f.x[i * 3 + c];
            for (int e = 0; e < f.ne; e++)
                if (f.dst[e] == i) s += f.x[f.src[e] * 3 + c];
            z[c] = (float)s;
        }
        double a[4], o[2];
        float r[4];
        ref_lin(dlp__nn_pv(&f.ps, l.lin1.w), dlp__nn_pv(&f.ps, l.lin1.b), z, 3, 4, a);
        for (int c = 0; c < 4; c++) r[c] = a[c] > 0 ? (float)a[c] : 0;
        ref_lin(dlp__nn_pv(&f.ps, l.lin2.w), dlp__nn_pv(&f.ps, l.lin2.b), r, 4, 2, o);
        for (int c = 0; c < 2; c++) CHECK_NEAR(y[i * 2 + c], o[c], 1e-5);
    }
    ref_end(&f);
}

static void t_batchnorm_running(void) {
    dlp__nn_params ps = {0};
    dlp__nn_batchnorm bn;
    CHECK_I64(dlp__nn_batchnorm_init(&bn, &ps, "bn", 2), DLP_OK);
    CHECK_I64(dlp__nn_params_alloc(&ps), DLP_OK);
    dlp__nn_params_init(&ps, 1);
    dlp__nn_ws ws = {0};
    dlp__nn_ctx cx;
    dlp__nn_ctx_init(&cx, &ps, &ws, 1, 1);
    float x[] = {1, 10, 2, 20, 3, 30, 6, 40}, y[8];
    CHECK_I64(dlp__nn_batchnorm_forward(&bn, &cx, x, 4, y), DLP_OK);
    /* column 0: mean 3, biased var 3.5, unbiased 14/3 */
    CHECK_NEAR(dlp__nn_pv(&ps, bn.rmean)[0], 0.3, 1e-6);
    CHECK_NEAR(dlp__nn_pv(&ps, bn.rvar)[0], 0.9 + 0.1 * 14.0 / 3, 1e-6);
    CHECK_NEAR(y[0], (1 - 3) / sqrt(3.5 + 1e-5), 1e-5);
    double m1 = 0;
    for (int i = 0; i < 4; i++) m1 += y[i * 2 + 1];
    CHECK_NEAR(m1, 0, 1e-5);
    /* eval: running stats, nothing updated */
    cx.training = 0;
    CHECK_I64(dlp__nn_batchnorm_forward(&bn, &cx, x, 4, y), DLP_OK);
    CHECK_NEAR(y[0], (1 - 0.3) / sqrt(0.9 + 0.1 * 14.0 / 3 + 1e-5), 1e-5);
    CHECK_NEAR(dlp__nn_pv(&ps, bn.rmean)[0], 0.3, 1e-6);
    /* one row in training has no variance (PyTorch raises too) */
    cx.training = 1;
    CHECK_I64(dlp__nn_batchnorm_forward(&bn, &cx, x, 1, y), DLP_EINVAL);
    dlp__nn_ws_free(&ws);
    dlp__nn_params_free(&ps);
}

static void t_dropout_mask(void) {
    enum { N = 1000, F = 10 };
    dlp__nn_dropout d;
    CHECK_I64(dlp__nn_dropout_init(&d, F, 0.25f), DLP_OK);
    CHECK_I64(dlp__nn_dropout_init(&d, F, 1.5f), DLP_EINVAL);
    CHECK_I64(dlp__nn_dropout_init(&d, F, 0.25f), DLP_OK);
    dlp__nn_ws ws = {0};
    dlp__nn_params ps = {0};
    dlp__nn_ctx cx;
    dlp__nn_ctx_init(&cx, &ps, &ws, 9, 1);
    float *x = malloc(N * F * sizeof *x), *y = malloc(N * F * sizeof *y),
          *y2 = malloc(N * F * sizeof *y2);
    for (int k = 0; k < N * F; k++) x[k] = 1.0f;
    CHECK_I64(dlp__nn_dropout_forward(&d, &cx, x, N, y), DLP_OK);
    int zeros = 0;
    double sum = 0;
    for (int k = 0; k < N * F; k++) {
        zeros += y[k] == 0;
        if (y[k] != 0) CHECK_NEAR(y[k], 1 / 0.75, 1e-6);
        sum += y[k];
    }
    CHECK(zeros > 2300 && zeros < 2700);
    CHECK_NEAR(sum / (N * F), 1, 0.03);   /* inverted scaling keeps the mean */
    /* same seed, same mask */
    dlp__nn_rng_seed(&cx.rng, 9);
    CHECK_I64(dlp__nn_dropout_forward(&d, &cx, x, N, y2), DLP_OK);
    CHECK(memcmp(y, y2, N * F * sizeof *y) == 0);
    /* eval: identity */
    cx.training = 0;
    CHECK_I64(dlp__nn_dropout_forward(&d, &cx, x, N, y), DLP_OK);
    CHECK(memcmp(x, y, N * F * sizeof *y) == 0);
    free(x); free(y); free(y2);
    dlp__nn_ws_free(&ws);
}

/* ---- losses ------------------------------------------------------------ */

typedef double (*loss_fn)(const float *, const float *, int, float, float *);

static double w_mse(const float *p, const float *t, int n, float a, float *g) {
    (void)a; return dlp__nn_loss_mse(p, t, n, g);
}
static double w_l1(const float *p, const float *t, int n, float a, float *g) {
    (void)a; return dlp__nn_loss_l1(p, t, n, g);
}
static double w_huber(const float *p, const float *t, int n, float a, float *g) {
    return dlp__nn_loss_huber(p, t, n, a, g);
}
static double w_bce(const float *p, const float *t, int n, float a, float *g) {
    (void)a; return dlp__nn_loss_bce_logits(p, t, n, g);
}
/* SCE on 4 rows of n/4 features */
static double w_sce(const float *p, const float *t, int n, float a, float *g) {
    return dlp__nn_loss_sce(p, t, 4, n / 4, a, g);
}

static int loss_fd(loss_fn fn, float arg, float lo, float hi, float tlo, float thi,
                   uint64_t seed) {
    enum { N = 16 };
    float p[N], t[N], g[N];
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, seed);
    fill_uniform(&r, p, N, lo, hi);
    fill_uniform(&r, t, N, tlo, thi);
    /* keep |pred - target| off the kinks of L1 / Huber by more than the step */
    for (int k = 0; k < N; k++)
        if (fabsf(p[k] - t[k]) < 0.05f || fabsf(fabsf(p[k] - t[k]) - arg) < 0.05f)
            p[k] += 0.2f;
    fn(p, t, N, arg, g);
    int bad = 0, shown = 0;
    for (int k = 0; k < N; k++) {
        float save = p[k];
        double l0 = fn(p, t, N, arg, NULL);
        p[k] = save + FD_H;
        double lp = fn(p, t, N, arg, NULL);
        p[k] = save - FD_H;
        double lm = fn(p, t, N, arg, NULL);
        p[k] = save;
        bad += fd_compare("pred", k, g[k], fd_from3(lp, l0, lm), &shown);
    }
    return bad;
}

static void t_loss_values(void) {
    float p[] = {1, 2, 3, -4}, t[] = {1.5f, 2, 0, -2}, g[8];
    CHECK_NEAR(dlp__nn_loss_mse(p, t, 4, g), (0.25 + 0 + 9 + 4) / 4, 1e-9);
    CHECK_NEAR(g[0], 2 * -0.5 / 4, 1e-7);
    CHECK_NEAR(dlp__nn_loss_l1(p, t, 4, g), (0.5 + 0 + 3 + 2) / 4, 1e-9);
    CHECK_NEAR(g[1], 0, 0);                       /* sign(0) = 0 */
    CHECK_NEAR(g[3], -0.25, 0);
    /* Huber delta 1: 0.5*0.25, 0, 1*(3-0.5), 1*(2-0.5) */
    CHECK_NEAR(dlp__nn_loss_huber(p, t, 4, 1.0f, g), (0.125 + 0 + 2.5 + 1.5) / 4, 1e-9);
    CHECK_NEAR(g[2], 0.25, 1e-7);
    /* BCE stays finite for huge logits and matches the textbook formula */
    float big[] = {100, -100, 0, 2}, tb[] = {1, 0, 1, 0};
    double l = dlp__nn_loss_bce_logits(big, tb, 4, g);
    CHECK_NEAR(l, (0 + 0 + log(2.0) + (2 + log1p(exp(-2.0)))) / 4, 1e-9);
    CHECK(isfinite(g[0]) && isfinite(g[1]));
    CHECK_NEAR(g[2], (0.5 - 1) / 4, 1e-7);
    /* SCE: identical rows 0, opposite rows 2^alpha, orthogonal 1 */
    float a[] = {1, 0, 0, 1, 1, 0}, b[] = {2, 0, 0, -3, 0, 5};
    CHECK_NEAR(dlp__nn_loss_sce(a, b, 3, 2, 2.0f, g), (0 + 4 + 1) / 3.0, 1e-6);
    CHECK_NEAR(dlp__nn_loss_sce(a, a, 3, 2, 3.0f, g), 0, 1e-6);
    for (int k = 0; k < 6; k++) CHECK(isfinite(g[k]));
}

static void t_grad_losses(void) {
    CHECK_I64(loss_fd(w_mse, 0, -2, 2, -2, 2, 1), 0);
    CHECK_I64(loss_fd(w_l1, 0, -2, 2, -2, 2, 2), 0);
    CHECK_I64(loss_fd(w_huber, 0.7f, -2, 2, -2, 2, 3), 0);   /* both branches */
    CHECK_I64(loss_fd(w_huber, 5.0f, -2, 2, -2, 2, 4), 0);
    CHECK_I64(loss_fd(w_bce, 0, -6, 6, 0, 1, 5), 0);
    CHECK_I64(loss_fd(w_sce, 1.0f, -1, 1, -1, 1, 6), 0);
    CHECK_I64(loss_fd(w_sce, 2.0f, -1, 1, -1, 1, 7), 0);
    CHECK_I64(loss_fd(w_sce, 3.0f, -1, 1, -1, 1, 8), 0);
}

int main(void) {
    RUN(t_rng);
    RUN(t_params_store);
    RUN(t_workspace);
    RUN(t_graph_build);
    RUN(t_aggregate_values);
    RUN(t_aggregate_grad);
    RUN(t_readout_values);
    RUN(t_grad_readout);
    RUN(t_grad_linear);
    RUN(t_grad_sage);
    RUN(t_grad_gcn);
    RUN(t_grad_gin);
    RUN(t_grad_gat);
    RUN(t_grad_batchnorm);
    RUN(t_grad_layernorm);
    RUN(t_grad_activations);
    RUN(t_grad_dropout);
    RUN(t_grad_seq);
    RUN(t_grad_random_graphs);
    RUN(t_ref_sage);
    RUN(t_ref_gcn);
    RUN(t_ref_gat);
    RUN(t_ref_gin);
    RUN(t_batchnorm_running);
    RUN(t_dropout_mask);
    RUN(t_loss_values);
    RUN(t_grad_losses);
    return TAP_DONE();
}
