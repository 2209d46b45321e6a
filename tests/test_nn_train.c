/*
 * test_nn_train.c — the optimizers and end-to-end training of the nn core.
 *
 * Adam/AdamW are checked against properties of PyTorch's update rule that
 * hold exactly (the first bias-corrected step moves every weight by lr in
 * the direction of -sign(g); AdamW's decay multiplies by 1 - lr wd; Adam's
 * L2 decay goes through the gradient), then on a quadratic.  The
 * acceptance test trains a tiny GraphSAGE regressor with Adam on ~200
 * random graphs whose target is a known function of the node features and
 * requires < 1% MAPE on held-out graphs, in about half a second at -O2.
 */
#include "tap.h"

#include "nn/nn.h"

/* ---- optimizers ------------------------------------------------------- */

static void t_adam_first_step(void) {
    dlp__nn_params ps = {0};
    int a = dlp__nn_params_add(&ps, NULL, "a", 1, 3, 1, DLP__NN_INIT_CONST, 2.0f, 1);
    int b = dlp__nn_params_add(&ps, NULL, "b", 1, 2, 1, DLP__NN_INIT_CONST, 1.0f, 0);
    CHECK_I64(dlp__nn_params_alloc(&ps), DLP_OK);
    dlp__nn_params_init(&ps, 0);
    float g[3] = {0.5f, -3.0f, 1e-3f};
    for (int mode = 0; mode < 3; mode++) {     /* plain, Adam+L2, AdamW */
        dlp__nn_params_init(&ps, 0);
        dlp__nn_adam o;
        float wd = mode ? 0.1f : 0.0f;
        CHECK_I64(dlp__nn_adam_init(&o, &ps, 0.01f, 0.9f, 0.999f, 1e-8f, wd, mode == 2), DLP_OK);
        memcpy(dlp__nn_pg(&ps, a), g, sizeof g);
        dlp__nn_pg(&ps, b)[0] = 5;             /* a buffer: never stepped */
        dlp__nn_adam_step(&o, &ps);
        for (int k = 0; k < 3; k++) {
            float p = dlp__nn_pv(&ps, a)[k];
            /* m^/sqrt(v^) = g/|g| on step 1 */
            float ge = mode == 1 ? g[k] + wd * 2.0f : g[k];
            float expect = (mode == 2 ? 2.0f * (1 - 0.01f * wd) : 2.0f) - 0.01f * (ge > 0 ? 1 : -1);
            CHECK_NEAR(p, expect, 1e-6);
        }
        CHECK_NEAR(dlp__nn_pv(&ps, b)[0], 1, 0);
        CHECK_I64(o.t, 1);
        dlp__nn_adam_free(&o);
    }
    dlp__nn_adam o;
    CHECK_I64(dlp__nn_adam_init(&o, &ps, 0.01f, 1.0f, 0.999f, 1e-8f, 0, 0), DLP_EINVAL);
    dlp__nn_adam_free(&o);
    dlp__nn_params_free(&ps);
}

/* f(p) = sum_k c_k (p_k - t_k)^2 with very different curvatures */
static void t_adam_quadratic(void) {
    for (int decoupled = 0; decoupled < 2; decoupled++) {
        enum { K = 8 };
        dlp__nn_params ps = {0};
        int id = dlp__nn_params_add(&ps, NULL, "p", 1, K, 1, DLP__NN_INIT_UNIFORM, 3.0f, 1);
        CHECK_I64(dlp__nn_params_alloc(&ps), DLP_OK);
        dlp__nn_params_init(&ps, 77);
        dlp__nn_adam o;
        CHECK_I64(dlp__nn_adam_init(&o, &ps, 0.05f, 0.9f, 0.999f, 1e-8f, 0, decoupled), DLP_OK);
        float t[K], c[K];
        for (int k = 0; k < K; k++) {
            t[k] = (float)k - 3.5f;
            c[k] = powf(10.0f, (float)(k % 4) - 2);   /* 0.01 .. 10 */
        }
        double f0 = 0, f = 0;
        for (int step = 0; step < 2000; step++) {
            float *p = dlp__nn_pv(&ps, id), *g = dlp__nn_pg(&ps, id);
            dlp__nn_zero_grad(&ps);
            f = 0;
            for (int k = 0; k < K; k++) {
                f += c[k] * (p[k] - t[k]) * (p[k] - t[k]);
                g[k] = 2 * c[k] * (p[k] - t[k]);
            }
            if (step == 0) f0 = f;
            if (step > 1500) o.lr = 0.005f;
            dlp__nn_adam_step(&o, &ps);
        }
        CHECK(f < 1e-4 * f0);
        for (int k = 0; k < K; k++) CHECK_NEAR(dlp__nn_pv(&ps, id)[k], t[k], 0.02);
        dlp__nn_adam_free(&o);
        dlp__nn_params_free(&ps);
    }
}

static void t_clip_grad_norm(void) {
    dlp__nn_params ps = {0};
    int a = dlp__nn_params_add(&ps, NULL, "a", 1, 2, 1, DLP__NN_INIT_ZEROS, 0, 1);
    int b = dlp__nn_params_add(&ps, NULL, "b", 1, 1, 1, DLP__NN_INIT_ZEROS, 0, 0);
    int c = dlp__nn_params_add(&ps, NULL, "c", 2, 1, 1, DLP__NN_INIT_ZEROS, 0, 1);
    CHECK_I64(dlp__nn_params_alloc(&ps), DLP_OK);
    dlp__nn_pg(&ps, a)[0] = 3;
    dlp__nn_pg(&ps, a)[1] = 0;
    dlp__nn_pg(&ps, b)[0] = 100;   /* buffers do not count */
    dlp__nn_pg(&ps, c)[0] = 4;
    CHECK_NEAR(dlp__nn_clip_grad_norm(&ps, 10.0), 5, 1e-9);
    CHECK_NEAR(dlp__nn_pg(&ps, a)[0], 3, 0);                /* under the limit */
    CHECK_NEAR(dlp__nn_clip_grad_norm(&ps, 1.0), 5, 1e-9);
    CHECK_NEAR(dlp__nn_pg(&ps, a)[0], 0.6, 1e-6);
    CHECK_NEAR(dlp__nn_pg(&ps, c)[0], 0.8, 1e-6);
    CHECK_NEAR(dlp__nn_pg(&ps, b)[0], 100, 0);
    dlp__nn_params_free(&ps);
}

/* ---- end to end: a tiny GraphSAGE regressor -------------------------- */

enum { N_TRAIN = 200, N_TEST = 50, N_GRAPHS = N_TRAIN + N_TEST, F_IN = 3, HID = 16 };

typedef struct {
    int32_t n, ne;
    int32_t src[48], dst[48];
    float x[16 * F_IN];         /* (n, F_IN) */
    float y;                    /* target */
} sample;

/* 4..16 nodes, each with 0..2 incoming edges from other nodes; feature 0
 * in [0.5, 1.5) and two distractors; target = 2.5 * sum of feature 0. */
static void make_dataset(sample *ds, int count, uint64_t seed) {
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, seed);
    for (int s = 0; s < count; s++) {
        sample *g = &ds[s];
        g->n = 4 + (int32_t)dlp__nn_rng_below(&r, 13);
        g->ne = 0;
        double sum0 = 0;
        for (int i = 0; i < g->n; i++) {
            int k = (int)dlp__nn_rng_below(&r, 3);
            for (int e = 0; e < k; e++) {
                int32_t j = (int32_t)dlp__nn_rng_below(&r, (uint32_t)g->n - 1);
                g->src[g->ne] = j >= i ? j + 1 : j;
                g->dst[g->ne++] = i;
            }
            float *xi = g->x + i * F_IN;
            xi[0] = 0.5f + dlp__nn_rng_uniform(&r);
            xi[1] = 2 * dlp__nn_rng_uniform(&r) - 1;
            xi[2] = 2 * dlp__nn_rng_uniform(&r) - 1;
            sum0 += xi[0];
        }
        g->y = (float)(2.5 * sum0);
    }
}

typedef struct {
    dlp__nn_params ps;
    dlp__nn_seq net;
    dlp__nn_ws ws;
    dlp__nn_ctx cx;
} model;

static void build_model(model *m) {
    memset(m, 0, sizeof *m);
    dlp__nn_layer *L;
    L = dlp__nn_seq_push(&m->net, DLP__NN_L_SAGE);
    CHECK_I64(dlp__nn_sage_init(&L->u.sage, &m->ps, "conv1", F_IN, HID, DLP__NN_AGG_MEAN, 0), DLP_OK);
    L = dlp__nn_seq_push(&m->net, DLP__NN_L_ACT);
    CHECK_I64(dlp__nn_act_init(&L->u.act, &m->ps, "act1", DLP__NN_ACT_RELU, HID, 0, 0), DLP_OK);
    L = dlp__nn_seq_push(&m->net, DLP__NN_L_SAGE);
    CHECK_I64(dlp__nn_sage_init(&L->u.sage, &m->ps, "conv2", HID, HID, DLP__NN_AGG_MEAN, 0), DLP_OK);
    L = dlp__nn_seq_push(&m->net, DLP__NN_L_ACT);
    CHECK_I64(dlp__nn_act_init(&L->u.act, &m->ps, "act2", DLP__NN_ACT_RELU, HID, 0, 0), DLP_OK);
    L = dlp__nn_seq_push(&m->net, DLP__NN_L_READOUT);
    CHECK_I64(dlp__nn_readout_init(&L->u.ro, HID, DLP__NN_AGG_SUM), DLP_OK);
    L = dlp__nn_seq_push(&m->net, DLP__NN_L_LINEAR);
    CHECK_I64(dlp__nn_linear_init(&L->u.linear, &m->ps, "head", HID, 1, 1), DLP_OK);
    CHECK_I64(dlp__nn_params_alloc(&m->ps), DLP_OK);
    dlp__nn_params_init(&m->ps, 2024);
    dlp__nn_ctx_init(&m->cx, &m->ps, &m->ws, 1, 1);
}

static void free_model(model *m) {
    dlp__nn_ws_free(&m->ws);
    dlp__nn_seq_free(&m->net);
    dlp__nn_params_free(&m->ps);
}

/* Collate samples idx[0..k) into g and their features into a ws buffer. */
static float *collate(model *m, const sample *ds, const int *idx, int k, dlp__nn_graph *g) {
    dlp__nn_graph_part parts[64] = {{0}};
    int total = 0;
    for (int q = 0; q < k; q++) {
        const sample *s = &ds[idx[q]];
        parts[q] = (dlp__nn_graph_part){s->n, s->ne, s->src, s->dst};
        total += s->n;
    }
    if (dlp__nn_graph_collate(g, k, parts, NULL) != DLP_OK) return NULL;
    float *x = dlp__nn_ws_floats(&m->ws, (size_t)total * F_IN);
    int row = 0;
    for (int q = 0; q < k; q++) {
        const sample *s = &ds[idx[q]];
        memcpy(x + (size_t)row * F_IN, s->x, (size_t)s->n * F_IN * sizeof *x);
        row += s->n;
    }
    return x;
}

/* Predictions (in target units) for samples [first, first+count). */
static double mape(model *m, const sample *ds, int first, int count, float scale) {
    double err = 0;
    int idx[50];
    m->cx.training = 0;
    for (int b = 0; b < count; b += 50) {
        int k = count - b < 50 ? count - b : 50;
        for (int q = 0; q < k; q++) idx[q] = first + b + q;
        dlp__nn_graph g;
        dlp__nn_ws_reset(&m->ws);
        float *x = collate(m, ds, idx, k, &g);
        const float *y;
        int rows;
        CHECK(x != NULL);
        CHECK_I64(dlp__nn_seq_forward(&m->net, &m->cx, &g, x, g.n_nodes, &y, &rows), DLP_OK);
        CHECK_I64(rows, k);
        for (int q = 0; q < k; q++) {
            double t = ds[idx[q]].y;
            err += fabs(y[q] * scale - t) / fabs(t);
        }
        dlp__nn_graph_free(&g);
    }
    return 100.0 * err / count;
}

static void t_train_sage_synthetic(void) {
    sample *ds = malloc(N_GRAPHS * sizeof *ds);
    make_dataset(ds, N_GRAPHS, 99);
    /* train on targets / mean so the scale of the loss is O(1) */
    double tmean = 0;
    for (int s = 0; s < N_TRAIN; s++) tmean += ds[s].y;
    float scale = (float)(tmean / N_TRAIN);

    model m;
    build_model(&m);
    dlp__nn_adam opt;
    /* ~650 weights for 200 targets: without a prior the net can fit the
     * distractor features (train MAPE fine, held-out 2-3%); AdamW's
     * decoupled decay picks the simple solution and generalises */
    CHECK_I64(dlp__nn_adam_init(&opt, &m.ps, 1e-2f, 0.9f, 0.999f, 1e-8f, 0.1f, 1), DLP_OK);
    dlp__nn_rng shuf;
    dlp__nn_rng_seed(&shuf, 5);
    int order[N_TRAIN];
    for (int s = 0; s < N_TRAIN; s++) order[s] = s;
    enum { EPOCHS = 400, BATCH = 20 };
    double before = mape(&m, ds, N_TRAIN, N_TEST, scale), last_loss = 0;
    for (int ep = 0; ep < EPOCHS; ep++) {
        /* cosine decay from 1e-2 to ~1e-4 */
        opt.lr = 1e-4f + 0.5f * (1e-2f - 1e-4f) * (1 + cosf(3.14159265f * ep / EPOCHS));
        for (int s = N_TRAIN - 1; s > 0; s--) {
            int j = (int)dlp__nn_rng_below(&shuf, (uint32_t)s + 1), t = order[s];
            order[s] = order[j];
            order[j] = t;
        }
        last_loss = 0;
        for (int b = 0; b < N_TRAIN; b += BATCH) {
            dlp__nn_graph g;
            dlp__nn_ws_reset(&m.ws);
            m.cx.training = 1;
            float *x = collate(&m, ds, order + b, BATCH, &g);
            const float *y;
            int rows;
            float tgt[BATCH], dy[BATCH];
            for (int q = 0; q < BATCH; q++) tgt[q] = ds[order[b + q]].y / scale;
            dlp__nn_zero_grad(&m.ps);
            if (!x || dlp__nn_seq_forward(&m.net, &m.cx, &g, x, g.n_nodes, &y, &rows) != DLP_OK) {
                CHECK(0);
                dlp__nn_graph_free(&g);
                goto out;
            }
            last_loss += dlp__nn_loss_mse(y, tgt, BATCH, dy);
            CHECK_I64(dlp__nn_seq_backward(&m.net, &m.cx, &g, dy, NULL), DLP_OK);
            dlp__nn_clip_grad_norm(&m.ps, 5.0);
            dlp__nn_adam_step(&opt, &m.ps);
            dlp__nn_graph_free(&g);
        }
    }
    double train = mape(&m, ds, 0, N_TRAIN, scale), test = mape(&m, ds, N_TRAIN, N_TEST, scale);
    fprintf(stderr, "  MAPE %.2f%% before, after %d epochs train %.3f%% held-out %.3f%% (mse %.2e)\n",
            before, EPOCHS, train, test, last_loss * BATCH / N_TRAIN);
    CHECK(before > 10);
    CHECK(train < 1.0);
    CHECK(test < 1.0);
out:
    dlp__nn_adam_free(&opt);
    free_model(&m);
    free(ds);
}

int main(void) {
    RUN(t_adam_first_step);
    RUN(t_adam_quadratic);
    RUN(t_clip_grad_norm);
    RUN(t_train_sage_synthetic);
    return TAP_DONE();
}
