/*
 * test_gnn.c — the GNN predictors (src/learn/gnn.c, model_file.c) and the
 * evaluation toolkit (src/eval): metrics against hand-computed values,
 * split protocols, training on a synthetic dataset with a known target,
 * every architecture, model files (round trip, corruption, truncation,
 * other versions) and bitwise reproducibility.
 *
 * The synthetic dataset is built with the public dataset API: random small
 * DAGs in the dippm layout whose node "MACs" sit in one feature column and
 * whose latency is sum(node MACs) / 2e5.  No static features are given to
 * the SAGE model there, so reaching < 1% MAPE proves that message passing
 * and the sum readout carry the signal.
 */
#include <cblas.h>

#include "tap.h"

#include "dlperf.h"
#include "dlpm/container.h"
#include "nn/nn.h"

/* ---- metrics ------------------------------------------------------------- */

static void t_metrics_hand(void) {
    /* y = 10, 20, 40, 50; yhat = 11, 18, 40, 60
     * rel errors 0.1, 0.1, 0, 0.2 -> MAPE 10%; Acc(10%) 3/4 (boundary counts);
     * Acc(5%) 1/4; sq errors 1, 4, 0, 100 -> RMSE sqrt(105/4); MAE 13/4 */
    double y[] = {10, 20, 40, 50}, p[] = {11, 18, 40, 60};
    dlp_metrics m;
    dlp_metrics_compute(y, p, 4, &m);
    CHECK_I64(m.n, 4);
    CHECK_NEAR(m.mape, 10.0, 1e-12);
    CHECK_NEAR(m.rmse, sqrt(105.0 / 4), 1e-12);
    CHECK_NEAR(m.mae, 13.0 / 4, 1e-12);
    CHECK_NEAR(m.acc10, 0.75, 0);
    CHECK_NEAR(m.acc5, 0.25, 0);
    /* yhat ranks agree with y except (40, 50) vs (40, 60): all concordant */
    CHECK_NEAR(m.tau, 1.0, 1e-12);
    /* zero and NaN measurements are skipped by every metric */
    double y2[] = {10, 0, NAN, 20}, p2[] = {12, 5, 1, 20};
    CHECK_NEAR(dlp_metric_mape(y2, p2, 4), 10.0, 1e-12);
    CHECK_NEAR(dlp_metric_rmse(y2, p2, 4), sqrt(2.0), 1e-12);
    CHECK_NEAR(dlp_metric_acc(y2, p2, 4, 0.1), 0.5, 0);
    CHECK(isnan(dlp_metric_mape(y2, p2, 0)));
}

static void t_kendall_known(void) {
    /* scipy.stats.kendalltau documentation example:
     * x1 = [12, 2, 1, 12, 2], x2 = [1, 4, 7, 1, 0] -> tau-b = -0.47140452079103173.
     * By hand: of 10 pairs, C = 2, D = 6, one pair tied in both, one more tied
     * in x only: tau-b = (2 - 6) / sqrt((10 - 2)(10 - 1)) = -4 / sqrt(72). */
    double x[] = {12, 2, 1, 12, 2}, y[] = {1, 4, 7, 1, 0};
    CHECK_NEAR(dlp_metric_kendall_tau(x, y, 5), -4.0 / sqrt(72.0), 1e-15);
    CHECK_NEAR(dlp_metric_kendall_tau(x, y, 5), -0.47140452079103173, 1e-15);
    double a[] = {1, 2, 3, 4, 5}, b[] = {5, 4, 3, 2, 1};
    CHECK_NEAR(dlp_metric_kendall_tau(a, a, 5), 1.0, 0);
    CHECK_NEAR(dlp_metric_kendall_tau(a, b, 5), -1.0, 0);
    /* one swapped neighbour pair: (10 - 2) / 10 */
    double c[] = {1, 2, 4, 3, 5};
    CHECK_NEAR(dlp_metric_kendall_tau(a, c, 5), 0.8, 1e-15);
    double k[] = {3, 3, 3};
    CHECK(isnan(dlp_metric_kendall_tau(a, k, 3)));   /* a constant side */
    CHECK(isnan(dlp_metric_kendall_tau(a, a, 1)));
}

static void t_spearman_known(void) {
    /* scipy.stats.spearmanr documentation example: [1,2,3,4,5] vs
     * [5,6,7,8,7] -> 0.8207826816681233.  By hand: ranks of y are
     * 1, 2, 3.5, 5, 3.5 (the two 7s share 3.5); deviations from 3 give
     * sum dx dy = 8, sum dx^2 = 10, sum dy^2 = 9.5: rho = 8 / sqrt(95). */
    double x[] = {1, 2, 3, 4, 5}, y[] = {5, 6, 7, 8, 7};
    CHECK_NEAR(dlp_metric_spearman(x, y, 5), 8 / sqrt(95.0), 1e-15);
    CHECK_NEAR(dlp_metric_spearman(x, y, 5), 0.8207826816681233, 1e-15);
    double b[] = {50, 40, 30, 20, 10};
    CHECK_NEAR(dlp_metric_spearman(x, b, 5), -1.0, 1e-15);
    double k[] = {3, 3, 3, 3, 3};
    CHECK(isnan(dlp_metric_spearman(x, k, 5)));
    dlp_metrics m;
    dlp_metrics_compute(x, y, 5, &m);
    CHECK_NEAR(m.spearman, 8 / sqrt(95.0), 1e-15);
}

/* O(n^2) tau-b straight from the definition */
static double tau_ref(const double *x, const double *y, int n) {
    double c = 0, d = 0, tx = 0, ty = 0, n0 = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double dx = x[i] - x[j], dy = y[i] - y[j];
            n0++;
            if (dx == 0) tx++;
            if (dy == 0) ty++;
            if (dx * dy > 0) c++;
            else if (dx * dy < 0) d++;
        }
    return (c - d) / sqrt((n0 - tx) * (n0 - ty));
}

static void t_kendall_random(void) {
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 11);
    enum { N = 700 };
    static double x[N], y[N];
    for (int trial = 0; trial < 6; trial++) {
        int levels = trial < 3 ? 7 + trial * 20 : 1000000;   /* heavy ties, then almost none */
        for (int i = 0; i < N; i++) {
            x[i] = 1 + (double)dlp__nn_rng_below(&r, (uint32_t)levels);
            y[i] = 1 + (double)dlp__nn_rng_below(&r, (uint32_t)levels) + (trial % 2 ? x[i] : 0);
        }
        CHECK_NEAR(dlp_metric_kendall_tau(x, y, N), tau_ref(x, y, N), 1e-12);
    }
}

/* ---- splits ---------------------------------------------------------------- */

static void t_split_random(void) {
    enum { N = 1000 };
    static int p1[N], p2[N], p3[N];
    CHECK_I64(dlp_split_random(N, 0.7, 0.15, 1, p1, NULL), DLP_OK);
    CHECK_I64(dlp_split_random(N, 0.7, 0.15, 1, p2, NULL), DLP_OK);
    CHECK_I64(dlp_split_random(N, 0.7, 0.15, 2, p3, NULL), DLP_OK);
    int cnt[3] = {0}, same = 1, diff = 0;
    for (int i = 0; i < N; i++) {
        CHECK(p1[i] >= 0 && p1[i] <= 2);   /* every item in exactly one part */
        cnt[p1[i]]++;
        same &= p1[i] == p2[i];
        diff += p1[i] != p3[i];
    }
    CHECK_I64(cnt[DLP_PART_TRAIN], 700);
    CHECK_I64(cnt[DLP_PART_VAL], 150);
    CHECK_I64(cnt[DLP_PART_TEST], 150);
    CHECK(same);
    CHECK(diff > 100);
    /* NB201: 15,625 -> 10,938 / 2,344 / 2,343 (rounded to nearest) */
    int *big = malloc(sizeof *big * 15625), c2[3] = {0};
    CHECK_I64(dlp_split_random(15625, 0.7, 0.15, 1, big, NULL), DLP_OK);
    for (int i = 0; i < 15625; i++) c2[big[i]]++;
    CHECK_I64(c2[0], 10938);
    CHECK_I64(c2[1], 2344);
    CHECK_I64(c2[2], 2343);
    free(big);
    CHECK_I64(dlp_split_random(N, 0.9, 0.2, 1, p1, NULL), DLP_EINVAL);
}

static void t_split_family(void) {
    /* families of 10, 20 and 33 items, interleaved */
    enum { N = 63 };
    const char *fam[N];
    int n_a = 0, n_b = 0, n_c = 0;
    for (int i = 0; i < N; i++) {
        if (n_a < 10 && i % 3 == 0) fam[i] = "a", n_a++;
        else if (n_b < 20 && i % 3 == 1) fam[i] = "b", n_b++;
        else fam[i] = "c", n_c++;
    }
    CHECK_I64(n_c, 33);
    int p[N], q[N], tr[3] = {0}, tot[3] = {0};
    for (uint64_t seed = 1337; seed <= 1341; seed++) {
        CHECK_I64(dlp_split_family(fam, N, 0.7, seed, p, NULL), DLP_OK);
        CHECK_I64(dlp_split_family(fam, N, 0.7, seed, q, NULL), DLP_OK);
        memset(tr, 0, sizeof tr);
        memset(tot, 0, sizeof tot);
        for (int i = 0; i < N; i++) {
            int g = fam[i][0] - 'a';
            CHECK(p[i] == DLP_PART_TRAIN || p[i] == DLP_PART_TEST);
            CHECK_I64(p[i], q[i]);
            tot[g]++;
            tr[g] += p[i] == DLP_PART_TRAIN;
        }
        CHECK_I64(tr[0], 7);    /* round(0.7 x 10) */
        CHECK_I64(tr[1], 14);   /* round(0.7 x 20) */
        CHECK_I64(tr[2], 23);   /* round(0.7 x 33 = 23.1) */
    }
    /* the five Monte Carlo seeds give different test sets */
    int p0[N];
    dlp_split_family(fam, N, 0.7, 1337, p0, NULL);
    dlp_split_family(fam, N, 0.7, 1338, p, NULL);
    int d = 0;
    for (int i = 0; i < N; i++) d += p0[i] != p[i];
    CHECK(d > 0);
}

static void t_split_kfold_lofo(void) {
    enum { N = 103, K = 5 };
    double y[N];
    int f[N], f2[N], cnt[K] = {0};
    for (int i = 0; i < N; i++) y[i] = (double)((i * 37) % N);   /* a permutation of 0..102 */
    y[7] = NAN;
    CHECK_I64(dlp_split_kfold(y, N, K, 9, f, NULL), DLP_OK);
    CHECK_I64(dlp_split_kfold(y, N, K, 9, f2, NULL), DLP_OK);
    double lo[K], hi[K];
    for (int k = 0; k < K; k++) lo[k] = 1e9, hi[k] = -1;
    for (int i = 0; i < N; i++) {
        CHECK_I64(f[i], f2[i]);
        if (i == 7) {
            CHECK_I64(f[i], -1);
            continue;
        }
        CHECK(f[i] >= 0 && f[i] < K);
        cnt[f[i]]++;
        if (y[i] < lo[f[i]]) lo[f[i]] = y[i];
        if (y[i] > hi[f[i]]) hi[f[i]] = y[i];
    }
    /* 102 items in 5 folds: sizes 20 or 21; each spans the range of y */
    for (int k = 0; k < K; k++) {
        CHECK(cnt[k] == 20 || cnt[k] == 21);
        CHECK(lo[k] <= 5 && hi[k] >= 97);
    }
    CHECK_I64(dlp_split_kfold(y, N, 1, 9, f, NULL), DLP_EINVAL);
    const char *fam[] = {"resnet", "vgg", "resnet", "vit"};
    int p[4];
    CHECK_I64(dlp_split_lofo(fam, 4, "resnet", p, NULL), DLP_OK);
    CHECK_I64(p[0], DLP_PART_TEST);
    CHECK_I64(p[1], DLP_PART_TRAIN);
    CHECK_I64(p[2], DLP_PART_TEST);
    CHECK_I64(p[3], DLP_PART_TRAIN);
    CHECK_I64(dlp_split_lofo(fam, 4, "swin", p, NULL), DLP_ENOTFOUND);
}

/* ---- synthetic dataset ------------------------------------------------------- */

enum { MACS_COL = 18 };

/* A random DAG of 4..16 nodes: node i > 0 reads 1..2 earlier nodes.  Each
 * node is a conv2d (one-hot column 0, 0.5..1.5 MMACs), a dense (column 2,
 * 0.1..0.3 MMACs), a relu (4) or an add (6); its MACs, scaled, sit in
 * column 18 and an output-shape-like column (26) is a deterministic
 * function of the op.  Returns the sum of node MACs. */
static dlp_features *synth_graph(dlp__nn_rng *r, int id, double *macs) {
    int n = 4 + (int)dlp__nn_rng_below(r, 13), w = dlp_layout_width(DLP_LAYOUT_DIPPM);
    dlp_features *f = calloc(1, sizeof *f);
    f->layout = DLP_LAYOUT_DIPPM;
    f->layout_version = DLP_LAYOUT_DIPPM_VERSION;
    f->n_nodes = n;
    f->n_feat = w;
    f->x = calloc((size_t)n * w, sizeof *f->x);
    int src[64], dst[64], ne = 0, n_conv = 0;
    double sum = 0;
    static const int kinds[4] = {0, 2, 4, 6};
    for (int i = 0; i < n; i++) {
        float *xi = f->x + (size_t)i * w;
        int kind = kinds[dlp__nn_rng_below(r, 4)];
        double m = kind == 0 ? 0.5e6 + 1e6 * dlp__nn_rng_uniform(r)
                 : kind == 2 ? 0.1e6 + 0.2e6 * dlp__nn_rng_uniform(r) : 0;
        xi[kind] = 1;
        xi[MACS_COL] = (float)(m / 1e6);
        xi[26] = (float)(0.1 * (kind + 1));
        sum += m;
        n_conv += kind == 0;
        if (i > 0) {
            int k = 1 + (int)dlp__nn_rng_below(r, 2);
            for (int e = 0; e < k; e++) {
                src[ne] = (int)dlp__nn_rng_below(r, (uint32_t)i);
                dst[ne++] = i;
            }
        }
    }
    if (sum == 0) {   /* every graph costs something */
        f->x[0] = 1;
        f->x[MACS_COL] = 1;
        sum = 1e6;
    }
    /* CSR of out-edges (row = source) */
    f->rowptr = calloc((size_t)n + 1, sizeof *f->rowptr);
    f->col = malloc(sizeof *f->col * (size_t)(ne ? ne : 1));
    for (int e = 0; e < ne; e++) f->rowptr[src[e] + 1]++;
    for (int i = 0; i < n; i++) f->rowptr[i + 1] += f->rowptr[i];
    int fill[17] = {0};
    for (int e = 0; e < ne; e++) f->col[f->rowptr[src[e]] + fill[src[e]]++] = dst[e];
    f->n_edges = ne;
    f->static_f[DLP_SF_BATCH] = 1;
    f->static_f[DLP_SF_NODES] = n;
    f->static_f[DLP_SF_EDGES] = ne;
    f->static_f[DLP_SF_MACS] = sum;
    f->static_f[DLP_SF_N_CONV] = n_conv;
    snprintf(f->name, sizeof f->name, "g%d", id);
    *macs = sum;
    return f;
}

static dlp_dataset *synth_dataset(int n, uint64_t seed) {
    const char *names[] = {"latency_ms", "memory_mb"};
    dlp_dataset *ds;
    if (dlp_dataset_new(DLP_LAYOUT_DIPPM, 2, names, &ds, NULL) != DLP_OK) return NULL;
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, seed);
    for (int i = 0; i < n; i++) {
        double macs;
        dlp_features *f = synth_graph(&r, i, &macs);
        /* memory: a second target, known function of the node count */
        float t[2] = {(float)(macs / 2e5), (float)(10 + 2 * f->n_nodes)};
        if (dlp_dataset_add(ds, f, t, i % 2 ? "even" : "odd", "synth", f->name, NULL) != DLP_OK) {
            dlp_dataset_free(ds);
            return NULL;
        }
    }
    return ds;
}

static double test_mape(const dlp_gnn *m, const dlp_dataset *ds, const int *idx, int n, int k) {
    float *p = malloc(sizeof *p * (size_t)n * dlp_gnn_target_count(m));
    double *y = malloc(sizeof *y * (size_t)n * 2), *q = y + n;
    dlp_error e = {0};
    CHECK_I64(dlp_gnn_predict_dataset(m, ds, idx, n, p, &e), DLP_OK);
    for (int i = 0; i < n; i++) {
        dlp_dataset_sample s;
        s = *dlp_dataset_at(ds, idx[i]);
        y[i] = s.targets[k];
        q[i] = p[(size_t)i * dlp_gnn_target_count(m) + k];
    }
    double r = dlp_metric_mape(y, q, n);
    free(p);
    free(y);
    return r;
}

typedef struct {
    double first, last;
    int epochs;
} loss_log;

static int log_loss(void *u, const dlp_gnn_progress *p) {
    loss_log *l = u;
    if (p->epoch == 1) l->first = p->train_loss;
    l->last = p->train_loss;
    l->epochs = p->epoch;
    return 0;
}

enum { N_SYN = 1200, N_TR = 900, N_VA = 150, N_TE = 150 };
static int tr_idx[N_TR], va_idx[N_VA], te_idx[N_TE];

static void split_idx(void) {
    for (int i = 0; i < N_TR; i++) tr_idx[i] = i;
    for (int i = 0; i < N_VA; i++) va_idx[i] = N_TR + i;
    for (int i = 0; i < N_TE; i++) te_idx[i] = N_TR + N_VA + i;
}

static void small_opts(dlp_gnn_opts *o) {
    memset(o, 0, sizeof *o);
    o->hidden = 32;
    o->layers = 2;
    o->fc_layers = 2;
    o->dropout = -1;
    o->lr = 3e-3;
    o->lr_schedule = DLP_GNN_LR_COSINE;
    o->batch_size = 16;
    o->epochs = 60;
    o->seed = 7;
    o->threads = 1;
}

static void t_train_sage_synthetic(void) {
    dlp_dataset *ds = synth_dataset(N_SYN, 99);
    CHECK(ds != NULL);
    if (!ds) return;
    split_idx();
    dlp_gnn_opts o;
    small_opts(&o);
    o.n_static = -1;   /* graph structure only */
    o.hidden = 16;
    o.lr = 1e-2;
    o.epochs = 120;
    /* decoupled decay keeps the net off the op-type one-hots it could
     * otherwise use to memorise 900 graphs (held-out error 3x higher) */
    o.weight_decay = 0.1;
    o.adamw = 1;
    loss_log ll = {0};
    o.progress = log_loss;
    o.progress_user = &ll;
    dlp_gnn *m = NULL;
    dlp_error e = {0};
    CHECK_I64(dlp_gnn_train(ds, tr_idx, N_TR, va_idx, N_VA, &o, &m, &e), DLP_OK);
    if (!m) {
        fprintf(stderr, "  %s\n", e.msg);
        dlp_dataset_free(ds);
        return;
    }
    double te = test_mape(m, ds, te_idx, N_TE, 0);
    fprintf(stderr, "  train-set MAPE %.3f%%\n", test_mape(m, ds, tr_idx, N_TR, 0));
    dlp_gnn_info inf;
    dlp_gnn_info_get(m, &inf);
    fprintf(stderr, "  sage synthetic: loss %.4f -> %.5f, best epoch %d, val %.3f%%, test MAPE %.3f%%, %.2f s\n",
            ll.first, ll.last, inf.best_epoch, inf.best_val_mape, te, inf.train_seconds);
    CHECK(te < 1.0);
    CHECK_I64(inf.n_train, N_TR);
    CHECK_I64(inf.n_static, 0);
    CHECK(inf.best_epoch >= 1 && inf.best_epoch <= 120);
    CHECK(inf.data_fingerprint == dlp_dataset_fingerprint(ds));
    dlp_gnn_free(m);
    dlp_dataset_free(ds);
}

static void t_every_arch(void) {
    dlp_dataset *ds = synth_dataset(160, 5);
    CHECK(ds != NULL);
    if (!ds) return;
    int idx[160];
    for (int i = 0; i < 160; i++) idx[i] = i;
    const char *both[] = {"latency_ms", "memory_mb"};
    for (int a = 0; a < DLP_GNN_ARCH_COUNT_; a++) {
        if (a == DLP_GNN_TRAPPM || a == DLP_GNN_GNNLM) continue;   /* need an encoder / an LM: test_trappm.c, test_gnnlm.c */
        dlp_gnn_opts o;
        small_opts(&o);
        o.arch = a;
        o.epochs = 8;
        o.hidden = 16;
        o.gat_heads = a == DLP_GNN_GAT ? 2 : 0;
        o.readout = a % 4;   /* sum, mean, max, scaled-sum all exercised */
        o.loss = a % 3;      /* huber, mse, l1 */
        o.dropout = 0.1;
        o.n_targets = 2;     /* multi-output */
        o.targets = both;
        loss_log ll = {0};
        o.progress = log_loss;
        o.progress_user = &ll;
        dlp_gnn *m = NULL;
        dlp_error e = {0};
        CHECK_I64(dlp_gnn_train(ds, idx, 128, idx + 128, 32, &o, &m, &e), DLP_OK);
        if (!m) {
            fprintf(stderr, "  %s: %s\n", dlp_gnn_arch_name(a), e.msg);
            continue;
        }
        fprintf(stderr, "  %-4s loss %.4f -> %.4f\n", dlp_gnn_arch_name(a), ll.first, ll.last);
        CHECK_I64(ll.epochs, 8);
        CHECK(ll.last < ll.first);
        CHECK_I64(dlp_gnn_target_count(m), 2);
        CHECK_STR(dlp_gnn_target_at(m, 1), "memory_mb");
        float out[2];
        dlp_dataset_sample s;
        s = *dlp_dataset_at(ds, 140);
        CHECK_I64(dlp_gnn_predict(m, s.features, out, NULL), DLP_OK);
        CHECK(out[0] > 0 && isfinite(out[0]) && out[1] > 0 && isfinite(out[1]));
        dlp_gnn_free(m);
    }
    dlp_dataset_free(ds);
}

/* ---- model files -------------------------------------------------------------- */

static dlp_gnn *quick_model(const dlp_dataset *ds, uint64_t seed, int arch) {
    dlp_gnn_opts o;
    small_opts(&o);
    o.arch = arch;
    o.epochs = 3;
    o.seed = seed;
    o.dropout = 0.05;
    dlp_gnn *m = NULL;
    dlp_error e = {0};
    if (dlp_gnn_train(ds, tr_idx, 100, tr_idx + 100, 20, &o, &m, &e) != DLP_OK)
        fprintf(stderr, "  quick_model: %s\n", e.msg);
    return m;
}

/* Parameter bytes of a model (the payload), malloc'ed. */
static uint8_t *payload_of(const dlp_gnn *m, uint64_t *n) {
    void *b;
    size_t len;
    const char *h;
    size_t hl;
    const uint8_t *p;
    *n = 0;
    if (dlp_gnn_save_mem(m, &b, &len, NULL) != DLP_OK) return NULL;
    uint8_t *out = NULL;
    if (dlp__dlpm_unpack(b, len, "m", &h, &hl, &p, n, NULL) == DLP_OK) {
        out = malloc(*n);
        memcpy(out, p, *n);
    }
    free(b);
    return out;
}

static void t_roundtrip(void) {
    dlp_dataset *ds = synth_dataset(200, 3);
    split_idx();
    for (int arch = 0; arch < DLP_GNN_ARCH_COUNT_; arch++) {
        if (arch == DLP_GNN_TRAPPM || arch == DLP_GNN_GNNLM) continue;   /* test_trappm.c, test_gnnlm.c */
        dlp_gnn *m = quick_model(ds, 1, arch);
        CHECK(m != NULL);
        if (!m) continue;
        const char *path = "/tmp/dlperf_test_gnn.dlpm";
        dlp_error e = {0};
        CHECK_I64(dlp_gnn_save(m, path, &e), DLP_OK);
        dlp_gnn *m2 = NULL;
        CHECK_I64(dlp_gnn_load(path, &m2, &e), DLP_OK);
        if (!m2) {
            fprintf(stderr, "  %s\n", e.msg);
            dlp_gnn_free(m);
            continue;
        }
        float a[2 * 50], b[2 * 50];
        int idx[50];
        for (int i = 0; i < 50; i++) idx[i] = 150 + i;
        CHECK_I64(dlp_gnn_predict_dataset(m, ds, idx, 50, a, NULL), DLP_OK);
        CHECK_I64(dlp_gnn_predict_dataset(m2, ds, idx, 50, b, NULL), DLP_OK);
        CHECK(memcmp(a, b, sizeof(float) * 50) == 0);   /* bit for bit */
        dlp_gnn_info i1, i2;
        dlp_gnn_info_get(m, &i1);
        dlp_gnn_info_get(m2, &i2);
        CHECK_I64(i1.arch, i2.arch);
        CHECK_I64(i1.hidden, i2.hidden);
        CHECK_I64(i1.n_params, i2.n_params);
        CHECK(i1.data_fingerprint == i2.data_fingerprint);
        CHECK(i1.seed == i2.seed);
        CHECK_NEAR(i1.lr, i2.lr, 0);
        CHECK_STR(i2.split, i1.split);
        /* single-graph prediction equals the batched one */
        dlp_dataset_sample s;
        s = *dlp_dataset_at(ds, 160);
        float one;
        CHECK_I64(dlp_gnn_predict(m2, s.features, &one, NULL), DLP_OK);
        CHECK_NEAR(one, a[10], 1e-4 * fabs(a[10]));
        dlp_gnn_free(m);
        dlp_gnn_free(m2);
        remove(path);
    }
    dlp_dataset_free(ds);
}

static void t_bad_files(void) {
    dlp_dataset *ds = synth_dataset(140, 4);
    split_idx();
    dlp_gnn *m = quick_model(ds, 2, DLP_GNN_SAGE);
    CHECK(m != NULL);
    if (!m) {
        dlp_dataset_free(ds);
        return;
    }
    void *buf;
    size_t len;
    CHECK_I64(dlp_gnn_save_mem(m, &buf, &len, NULL), DLP_OK);
    uint8_t *b = buf, *c = malloc(len);
    dlp_gnn *x = NULL;
    dlp_error e = {0};
    /* intact */
    CHECK_I64(dlp_gnn_load_mem(b, len, "ok.dlpm", &x, &e), DLP_OK);
    dlp_gnn_free(x);
    /* corrupted: one flipped bit in the weights */
    memcpy(c, b, len);
    c[len - 100] ^= 0x10;
    CHECK_I64(dlp_gnn_load_mem(c, len, "bad.dlpm", &x, &e), DLP_ECHECKSUM);
    CHECK(x == NULL);
    CHECK(strstr(e.msg, "bad.dlpm") != NULL);
    /* truncated, at several places */
    size_t cuts[] = {len - 1, len / 2, 30, 10, 3, 0};
    for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
        memset(&e, 0, sizeof e);
        CHECK_I64(dlp_gnn_load_mem(b, cuts[k], "cut.dlpm", &x, &e), DLP_EFORMAT);
        CHECK(strstr(e.msg, "cut.dlpm") != NULL);
        CHECK(strchr(e.msg, '\n') == NULL);
    }
    /* another container version */
    memcpy(c, b, len);
    uint32_t v = 2;
    memcpy(c + 4, &v, 4);
    CHECK_I64(dlp_gnn_load_mem(c, len, "v2.dlpm", &x, &e), DLP_EVERSION);
    CHECK(strstr(e.msg, "v2.dlpm") != NULL && strstr(e.msg, "version 2") != NULL);
    /* another GNN format inside a valid container (CRC recomputed) */
    const char *h;
    size_t hl;
    const uint8_t *p;
    uint64_t pl;
    CHECK_I64(dlp__dlpm_unpack(b, len, "m", &h, &hl, &p, &pl, NULL), DLP_OK);
    char *hdr = malloc(hl + 1);
    memcpy(hdr, h, hl);
    hdr[hl] = 0;
    char *at = strstr(hdr, "\"gnn_format\":1");
    CHECK(at != NULL);
    if (at) {
        at[strlen("\"gnn_format\":")] = '7';
        void *nb;
        size_t nl;
        CHECK_I64(dlp__dlpm_pack(hdr, hl, p, pl, &nb, &nl, NULL), DLP_OK);
        CHECK_I64(dlp_gnn_load_mem(nb, nl, "f7.dlpm", &x, &e), DLP_EVERSION);
        CHECK(strstr(e.msg, "f7.dlpm") != NULL);
        free(nb);
        at[strlen("\"gnn_format\":")] = '1';
    }
    /* a header that lies about the network (CRC valid): refused, no crash */
    char *hid = strstr(hdr, "\"hidden\":32");
    CHECK(hid != NULL);
    if (hid) {
        hid[strlen("\"hidden\":")] = '4';   /* "hidden":42 */
        void *nb;
        size_t nl;
        CHECK_I64(dlp__dlpm_pack(hdr, hl, p, pl, &nb, &nl, NULL), DLP_OK);
        CHECK_I64(dlp_gnn_load_mem(nb, nl, "lie.dlpm", &x, &e), DLP_EFORMAT);
        free(nb);
    }
    free(hdr);
    /* not a model at all; a missing file */
    CHECK_I64(dlp_gnn_load_mem("hello world, not a model", 24, "txt", &x, &e), DLP_EFORMAT);
    CHECK_I64(dlp_gnn_load("/nonexistent/m.dlpm", &x, &e), DLP_EIO);
    CHECK(strstr(e.msg, "/nonexistent/m.dlpm") != NULL);
    /* features of another layout version are refused */
    dlp_dataset_sample s;
    s = *dlp_dataset_at(ds, 0);
    dlp_features f = *s.features;
    f.layout_version = 99;
    float out;
    CHECK_I64(dlp_gnn_predict(m, &f, &out, &e), DLP_EVERSION);
    f = *s.features;
    f.layout = DLP_LAYOUT_TRAPPM;
    CHECK_I64(dlp_gnn_predict(m, &f, &out, &e), DLP_EINVAL);
    f = *s.features;
    f.n_edges += 1;   /* rowptr no longer ends at n_edges: refused, not read past */
    CHECK_I64(dlp_gnn_predict(m, &f, &out, &e), DLP_EINVAL);
    free(c);
    free(buf);
    dlp_gnn_free(m);
    dlp_dataset_free(ds);
}

static void t_reproducible(void) {
    dlp_dataset *ds = synth_dataset(140, 8);
    split_idx();
    for (int arch = 0; arch < DLP_GNN_ARCH_COUNT_; arch++) {
        if (arch == DLP_GNN_TRAPPM || arch == DLP_GNN_GNNLM) continue;   /* test_trappm.c, test_gnnlm.c */
        dlp_gnn *a = quick_model(ds, 42, arch), *b = quick_model(ds, 42, arch), *c = quick_model(ds, 43, arch);
        CHECK(a && b && c);
        if (a && b && c) {
            uint64_t na, nb, nc;
            uint8_t *pa = payload_of(a, &na), *pb = payload_of(b, &nb), *pc = payload_of(c, &nc);
            CHECK(pa && pb && pc);
            CHECK(na == nb && na == nc && na > 0);
            if (pa && pb && pc && na == nb && na == nc) {
                CHECK(memcmp(pa, pb, na) == 0);   /* same seed: same bits */
                CHECK(memcmp(pa, pc, na) != 0);   /* another seed: other weights */
            }
            free(pa);
            free(pb);
            free(pc);
        }
        dlp_gnn_free(a);
        dlp_gnn_free(b);
        dlp_gnn_free(c);
    }
    dlp_dataset_free(ds);
}

static void t_bad_options(void) {
    dlp_dataset *ds = synth_dataset(40, 1);
    int idx[40];
    for (int i = 0; i < 40; i++) idx[i] = i;
    dlp_gnn_opts o;
    small_opts(&o);
    dlp_gnn *m = NULL;
    dlp_error e = {0};
    const char *bad_t[] = {"energy_j"};
    o.n_targets = 1;
    o.targets = bad_t;
    CHECK_I64(dlp_gnn_train(ds, idx, 40, NULL, 0, &o, &m, &e), DLP_ENOTFOUND);
    CHECK(m == NULL && strstr(e.msg, "energy_j") != NULL);
    small_opts(&o);
    o.arch = DLP_GNN_MLP;
    o.n_static = -1;   /* an MLP with no input */
    CHECK_I64(dlp_gnn_train(ds, idx, 40, NULL, 0, &o, &m, &e), DLP_EINVAL);
    small_opts(&o);
    o.arch = DLP_GNN_GAT;
    o.gat_heads = 3;   /* 32 not a multiple of 3 */
    CHECK_I64(dlp_gnn_train(ds, idx, 40, NULL, 0, &o, &m, &e), DLP_EINVAL);
    small_opts(&o);
    int bad_idx[1] = {40};
    CHECK_I64(dlp_gnn_train(ds, bad_idx, 1, NULL, 0, &o, &m, &e), DLP_EINVAL);
    CHECK_I64(dlp_gnn_train(ds, idx, 0, NULL, 0, &o, &m, &e), DLP_EINVAL);
    /* names */
    CHECK_I64(dlp_gnn_arch_parse("gin"), DLP_GNN_GIN);
    CHECK_I64(dlp_gnn_arch_parse("graphsage"), DLP_GNN_SAGE);
    CHECK_I64(dlp_gnn_arch_parse("rnn"), -1);
    CHECK_STR(dlp_gnn_readout_name(DLP_GNN_READOUT_MEAN), "mean");
    CHECK_I64(dlp_static_parse("n_relu"), DLP_SF_N_RELU);
    CHECK_I64(dlp_static_parse("memory"), DLP_SF_MEMORY);
    CHECK_I64(dlp_static_parse("nope"), -1);
    dlp_dataset_free(ds);
}

/* ---- reports ---------------------------------------------------------------- */

static void t_reports(void) {
    double y[] = {10, 20, 40, 50, 5, 7}, p[] = {11, 18, 40, 60, 5.2, 6};
    const char *fam[] = {"resnet", "resnet", "vgg", "vgg", "vgg", "resnet"};
    const char *dev[] = {"a100", "a100", "a100", "v100", "v100", "v100"};
    const char *tn[] = {"latency_ms"};
    dlp_eval_input in = {"Unit <test>", "dlperf eval ...", "Some notes.", 1, tn, 6, y, p, fam, dev, "parity.svg"};
    char *b;
    size_t n;
    CHECK_I64(dlp_eval_report_md(&in, &b, &n, NULL), DLP_OK);
    CHECK(n == strlen(b));
    CHECK(strstr(b, "# Unit <test>") != NULL);
    CHECK(strstr(b, "## latency_ms") != NULL);
    CHECK(strstr(b, "| resnet | 3 |") != NULL);
    CHECK(strstr(b, "| vgg | 3 |") != NULL);
    CHECK(strstr(b, "### Per device") != NULL);
    CHECK(strstr(b, "](parity.svg)") != NULL);
    free(b);
    CHECK_I64(dlp_eval_report_json(&in, &b, &n, NULL), DLP_OK);
    CHECK(strstr(b, "\"latency_ms\":{\"overall\":{\"n\":6,") != NULL);
    CHECK(strstr(b, "\"families\":{\"resnet\":{\"n\":3,") != NULL);
    free(b);
    CHECK_I64(dlp_eval_parity_svg(&in, 0, &b, &n, NULL), DLP_OK);
    CHECK(strncmp(b, "<svg ", 5) == 0);
    CHECK(strstr(b, "Unit &lt;test&gt;") != NULL);   /* escaped */
    CHECK(strstr(b, "<circle") != NULL && strstr(b, "</svg>") != NULL);
    free(b);
    CHECK_I64(dlp_eval_parity_svg(&in, 1, &b, &n, NULL), DLP_EINVAL);
}

int main(void) {
    /* one BLAS thread: the reproducibility checks compare bits */
    openblas_set_num_threads(1);
    RUN(t_metrics_hand);
    RUN(t_kendall_known);
    RUN(t_kendall_random);
    RUN(t_spearman_known);
    RUN(t_split_random);
    RUN(t_split_family);
    RUN(t_split_kfold_lofo);
    RUN(t_train_sage_synthetic);
    RUN(t_every_arch);
    RUN(t_roundtrip);
    RUN(t_bad_files);
    RUN(t_reproducible);
    RUN(t_bad_options);
    RUN(t_reports);
    return TAP_DONE();
}
