/*
 * test_pretrain.c — self-supervised graph encoders (src/learn/encoder.c)
 * and their nn pieces (src/nn/nn_pretrain.c):
 *   - finite-difference gradient checks of the inner-product decoder, the
 *     GAE BCE loss (saturated scores, where the eps inside the log shapes
 *     the gradient), the mask-token scatter, re-masking, and one whole GAE
 *     and GraphMAE step with respect to the network's parameters;
 *   - loss values against hand formulas;
 *   - pre-training on a synthetic corpus of random DAGs (node features: a
 *     one-hot of in- and out-degree class, a constant and noise) lowers the
 *     reconstruction loss on unseen graphs against the untrained encoder;
 *   - checkpoint / resume gives bit-identical weights (1 BLAS thread);
 *   - .dlpm round trip, damaged and wrong-kind files;
 *   - the graph vector equals the hand-computed sum of a one-layer
 *     SAGEConv's node outputs, is deterministic and thread-safe.
 */
#include "tap.h"

#include <cblas.h>
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>

#include "dlpm/container.h"
#include "learn/encoder_internal.h"
#include "nn/nn.h"

#define LAYOUT DLP_LAYOUT_DIPPM   /* 32 columns: small and fast */

static char tmpdir[64];

static const char *tmp_path(const char *name) {
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

/* ---- synthetic graphs ---------------------------------------------------- */

/* A graph from an edge list (src, dst) in topological order; node features
 * depend on the structure: one-hot in-degree class (0, 1, 2, 3+) in columns
 * 0-3, one-hot out-degree class (0, 1, 2+) in 4-6, a constant 1 in 7 and
 * U(-0.1, 0.1) noise in 8.  zero_row >= 0 makes that node's row all zero. */
static dlp_features *make_graph(int layout, int n, int ne, const int32_t *src, const int32_t *dst,
                                dlp__nn_rng *r, int zero_row, const char *name) {
    dlp_features *f = calloc(1, sizeof *f);
    f->layout = layout;
    f->layout_version = layout == DLP_LAYOUT_TRAPPM ? DLP_LAYOUT_TRAPPM_VERSION : DLP_LAYOUT_DIPPM_VERSION;
    f->n_nodes = n;
    f->n_feat = dlp_layout_width(layout);
    f->n_edges = ne;
    snprintf(f->name, sizeof f->name, "%s", name);
    f->x = calloc((size_t)n * f->n_feat + 1, sizeof *f->x);
    f->rowptr = calloc((size_t)n + 1, sizeof *f->rowptr);
    f->col = calloc((size_t)ne + 1, sizeof *f->col);
    int indeg[64] = {0}, outdeg[64] = {0};
    for (int e = 0; e < ne; e++) {
        f->rowptr[src[e] + 1]++;
        indeg[dst[e]]++;
        outdeg[src[e]]++;
    }
    for (int i = 0; i < n; i++) f->rowptr[i + 1] += f->rowptr[i];
    int fill[64] = {0};
    for (int e = 0; e < ne; e++) f->col[f->rowptr[src[e]] + fill[src[e]]++] = dst[e];
    for (int i = 0; i < n; i++) {
        float *x = f->x + (size_t)i * f->n_feat;
        if (i == zero_row) continue;
        x[indeg[i] < 3 ? indeg[i] : 3] = 1;
        x[4 + (outdeg[i] < 2 ? outdeg[i] : 2)] = 1;
        x[7] = 1;
        x[8] = 0.2f * dlp__nn_rng_uniform(r) - 0.1f;
    }
    return f;
}

/* A random DAG of n nodes: node i > 0 gets 1..min(i, 3) distinct
 * predecessors. */
static dlp_features *random_dag(dlp__nn_rng *r, int layout, int n, const char *name) {
    int32_t src[200], dst[200];
    int ne = 0;
    for (int i = 1; i < n; i++) {
        int k = 1 + (int)dlp__nn_rng_below(r, (uint32_t)(i < 3 ? i : 3));
        int used[64] = {0};
        for (int q = 0; q < k; q++) {
            int j;
            do j = (int)dlp__nn_rng_below(r, (uint32_t)i);
            while (used[j]);
            used[j] = 1;
            src[ne] = j;
            dst[ne++] = i;
        }
    }
    int zero = dlp__nn_rng_below(r, 4) == 0 ? (int)dlp__nn_rng_below(r, (uint32_t)n) : -1;
    return make_graph(layout, n, ne, src, dst, r, zero, name);
}

static dlp_features **corpus(uint64_t seed, int count, int lo, int hi, int layout) {
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, seed);
    dlp_features **fs = malloc(sizeof *fs * (size_t)count);
    for (int i = 0; i < count; i++) {
        char nm[32];
        snprintf(nm, sizeof nm, "g%llu_%d", (unsigned long long)seed, i);
        fs[i] = random_dag(&r, layout, lo + (int)dlp__nn_rng_below(&r, (uint32_t)(hi - lo + 1)), nm);
    }
    return fs;
}

static void corpus_free(dlp_features **fs, int count) {
    for (int i = 0; i < count; i++) dlp_features_free(fs[i]);
    free(fs);
}

/* ---- finite differences ------------------------------------------------- */

static int fd_close(double a, double num, double rtol, double atol) {
    return isfinite(a) && fabs(a - num) <= rtol * fmax(fabs(a), fabs(num)) + atol;
}

/* Central difference, or at a kink (ReLU / PReLU within a step) one of the
 * one-sided slopes when they differ (test_nn.c's rule). */
static int fd_ok(double a, double lp, double l0, double lm, double h, double rtol, double atol) {
    double c = (lp - lm) / (2 * h), fw = (lp - l0) / h, bw = (l0 - lm) / h;
    if (fd_close(a, c, rtol, atol)) return 1;
    return fabs(fw - bw) > 10 * atol && (fd_close(a, fw, rtol, atol) || fd_close(a, bw, rtol, atol));
}

/* ---- 1. gradients of the pieces ------------------------------------------- */

static double ip_loss(const float *z, int f, const int32_t *pairs, int np, const float *R) {
    float out[16];
    dlp__nn_inner_product(z, f, pairs, np, out);
    double s = 0;
    for (int k = 0; k < np; k++) s += (double)out[k] * R[k];
    return s;
}

static void t_inner_product(void) {
    enum { N = 5, F = 4, P = 7 };
    /* a pair, its reverse, a repeat, a self pair */
    const int32_t pairs[2 * P] = {0, 1, 1, 0, 2, 4, 2, 4, 3, 3, 4, 0, 1, 2};
    float z[N * F], R[P], dz[N * F] = {0}, out[P];
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 11);
    for (int i = 0; i < N * F; i++) z[i] = 2 * dlp__nn_rng_uniform(&r) - 1;
    for (int k = 0; k < P; k++) R[k] = 2 * dlp__nn_rng_uniform(&r) - 1;
    dlp__nn_inner_product(z, F, pairs, P, out);
    double want = 0;
    for (int c = 0; c < F; c++) want += (double)z[2 * F + c] * z[4 * F + c];
    CHECK_NEAR(out[2], want, 1e-6);
    CHECK(out[0] == out[1]);   /* symmetric */
    dlp__nn_inner_product_backward(z, F, pairs, P, R, dz);
    /* by hand: dz[3] = 2 R[4] z[3] (the self pair) */
    for (int c = 0; c < F; c++) CHECK_NEAR(dz[3 * F + c], 2 * R[4] * z[3 * F + c], 1e-6);
    int bad = 0;
    const double h = 1e-2;
    for (int i = 0; i < N * F; i++) {
        float s = z[i];
        double l0 = ip_loss(z, F, pairs, P, R);
        z[i] = s + (float)h;
        double lp = ip_loss(z, F, pairs, P, R);
        z[i] = s - (float)h;
        double lm = ip_loss(z, F, pairs, P, R);
        z[i] = s;
        bad += !fd_ok(dz[i], lp, l0, lm, h, 1e-3, 1e-5);
    }
    CHECK_I64(bad, 0);
}

/* sigmoid and 1 - sigmoid written straight from the definition */
static double sgm(double s) { return 1.0 / (1.0 + exp(-s)); }

static void t_gae_bce(void) {
    const double eps = 1e-15;
    float pos[] = {0, 2, -40, 40, -3.5f}, neg[] = {0, 40, -3, 12, -60, 1.5f};
    int np = 5, nn = 6;
    float gp[5], gn[6];
    double l = dlp__nn_loss_gae_bce(pos, np, neg, nn, eps, gp, gn);
    double want_p = 0, want_n = 0;
    for (int k = 0; k < np; k++) want_p += -log(sgm(pos[k]) + eps);
    /* 1 - sigmoid(s) = sigmoid(-s): exact where 1 - sigmoid(40) is not */
    for (int k = 0; k < nn; k++) want_n += -log(sgm(-neg[k]) + eps);
    CHECK_NEAR(l, want_p / np + want_n / nn, 1e-9);
    /* the saturated negative s = 40: 1 - sigmoid = 4.25e-18 is below eps,
     * so the loss is about -log(eps) and the gradient is damped from ~1 to
     * sigma' / (1 - sigma + eps) = 4.25e-18 / 1.00425e-15 */
    double om = sgm(-40.0);
    CHECK_NEAR(gn[1], om * (1 - om) / (om + eps) / nn, 1e-9);
    CHECK(gn[1] * nn < 0.01);
    CHECK_NEAR(-log(om + eps), 34.5346, 1e-3);
    /* a saturated wrong positive (s = -40): -log(sigmoid + eps), gradient
     * likewise damped */
    double sp = sgm(-40.0);
    CHECK_NEAR(gp[2], -sp * (1 - sp) / (sp + eps) / np, 1e-9);
    /* an unsaturated one: the textbook sigma - 1 */
    CHECK_NEAR(gp[0], (sgm(0) - 1) / np, 1e-7);
    CHECK_NEAR(gn[0], sgm(0) / nn, 1e-7);
    /* finite differences of the double loss */
    int bad = 0;
    const double h = 1e-3;
    for (int side = 0; side < 2; side++) {
        float *v = side ? neg : pos, *g = side ? gn : gp;
        int n = side ? nn : np;
        for (int k = 0; k < n; k++) {
            float s = v[k];
            double l0 = dlp__nn_loss_gae_bce(pos, np, neg, nn, eps, NULL, NULL);
            v[k] = s + (float)h;
            double lp = dlp__nn_loss_gae_bce(pos, np, neg, nn, eps, NULL, NULL);
            v[k] = s - (float)h;
            double lm = dlp__nn_loss_gae_bce(pos, np, neg, nn, eps, NULL, NULL);
            v[k] = s;
            if (!fd_ok(g[k], lp, l0, lm, h, 2e-3, 1e-9)) {
                bad++;
                fprintf(stderr, "  bce %s[%d]: analytic %g numeric %g\n", side ? "neg" : "pos", k, g[k],
                        (lp - lm) / (2 * h));
            }
        }
    }
    CHECK_I64(bad, 0);
    /* empty sides add nothing */
    CHECK_NEAR(dlp__nn_loss_gae_bce(pos, 0, neg, 1, eps, NULL, gn), -log(sgm(-neg[0]) + eps), 1e-12);
    CHECK_NEAR(dlp__nn_loss_gae_bce(pos, 0, neg, 0, eps, NULL, NULL), 0, 0);
}

enum { MN = 6, MF = 3 };
static const int32_t mask_src[MN] = {0, -1, 4, 3, -1, 5};   /* 1, 4 token; 2 <- node 4 */

static double mask_loss(const float *x, const float *tok, const float *R) {
    float y[MN * MF];
    dlp__nn_mask_token_forward(x, MN, MF, mask_src, tok, y);
    double s = 0;
    for (int i = 0; i < MN * MF; i++) s += (double)y[i] * R[i];
    return s;
}

static void t_mask_token(void) {
    float x[MN * MF], tok[MF], R[MN * MF], y[MN * MF], dtok[MF] = {0}, dx[MN * MF] = {0};
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 5);
    for (int i = 0; i < MN * MF; i++) x[i] = 2 * dlp__nn_rng_uniform(&r) - 1;
    for (int i = 0; i < MN * MF; i++) R[i] = 2 * dlp__nn_rng_uniform(&r) - 1;
    for (int c = 0; c < MF; c++) tok[c] = 2 * dlp__nn_rng_uniform(&r) - 1;
    dlp__nn_mask_token_forward(x, MN, MF, mask_src, tok, y);
    for (int c = 0; c < MF; c++) {
        CHECK(y[0 * MF + c] == x[0 * MF + c]);
        CHECK(y[1 * MF + c] == tok[c]);
        CHECK(y[2 * MF + c] == x[4 * MF + c]);
        CHECK(y[4 * MF + c] == tok[c]);
    }
    dlp__nn_mask_token_backward(R, MN, MF, mask_src, dtok, dx);
    /* token gradient = sum of the gradients of the token rows */
    for (int c = 0; c < MF; c++) {
        CHECK_NEAR(dtok[c], R[1 * MF + c] + R[4 * MF + c], 1e-6);
        CHECK_NEAR(dx[4 * MF + c], R[2 * MF + c], 1e-6);   /* the noise row's source */
        CHECK_NEAR(dx[1 * MF + c], 0, 0);
        CHECK_NEAR(dx[2 * MF + c], 0, 0);
    }
    int bad = 0;
    const double h = 1e-2;
    for (int pass = 0; pass < 2; pass++) {
        float *v = pass ? tok : x, *g = pass ? dtok : dx;
        int n = pass ? MF : MN * MF;
        for (int i = 0; i < n; i++) {
            float s = v[i];
            double l0 = mask_loss(x, tok, R);
            v[i] = s + (float)h;
            double lp = mask_loss(x, tok, R);
            v[i] = s - (float)h;
            double lm = mask_loss(x, tok, R);
            v[i] = s;
            bad += !fd_ok(g[i], lp, l0, lm, h, 1e-3, 1e-5);
        }
    }
    CHECK_I64(bad, 0);
}

static double remask_loss(const float *x, const uint8_t *m, const float *R) {
    float y[MN * MF];
    dlp__nn_remask_forward(x, MN, MF, m, y);
    double s = 0;
    for (int i = 0; i < MN * MF; i++) s += (double)y[i] * R[i];
    return s;
}

static void t_remask_gather(void) {
    const uint8_t m[MN] = {0, 1, 0, 0, 1, 1};
    float x[MN * MF], R[MN * MF], y[MN * MF], dx[MN * MF];
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 6);
    for (int i = 0; i < MN * MF; i++) {
        x[i] = 2 * dlp__nn_rng_uniform(&r) - 1;
        R[i] = 2 * dlp__nn_rng_uniform(&r) - 1;
        dx[i] = 0.5f;   /* backward accumulates */
    }
    dlp__nn_remask_forward(x, MN, MF, m, y);
    dlp__nn_remask_backward(R, MN, MF, m, dx);
    for (int i = 0; i < MN; i++)
        for (int c = 0; c < MF; c++) {
            CHECK(y[i * MF + c] == (m[i] ? 0.0f : x[i * MF + c]));
            CHECK_NEAR(dx[i * MF + c], 0.5 + (m[i] ? 0 : R[i * MF + c]), 1e-6);
        }
    int bad = 0;
    const double h = 1e-2;
    for (int i = 0; i < MN * MF; i++) {
        float s = x[i];
        double l0 = remask_loss(x, m, R);
        x[i] = s + (float)h;
        double lp = remask_loss(x, m, R);
        x[i] = s - (float)h;
        double lm = remask_loss(x, m, R);
        x[i] = s;
        bad += !fd_ok(dx[i] - 0.5, lp, l0, lm, h, 1e-3, 1e-5);
    }
    CHECK_I64(bad, 0);
    /* gather: rows picked in order, repeats accumulate on the way back */
    const int32_t rows[3] = {4, 1, 4};
    float g[3 * MF], dg[MN * MF] = {0};
    dlp__nn_gather_rows(x, MF, rows, 3, g);
    for (int c = 0; c < MF; c++) CHECK(g[MF + c] == x[MF + c] && g[c] == x[4 * MF + c]);
    dlp__nn_gather_rows_backward(R, MF, rows, 3, dg);
    for (int c = 0; c < MF; c++) {
        CHECK_NEAR(dg[4 * MF + c], R[c] + R[2 * MF + c], 1e-6);
        CHECK_NEAR(dg[1 * MF + c], R[MF + c], 1e-6);
        CHECK_NEAR(dg[0 * MF + c], 0, 0);
    }
}

/* ---- 1b. whole steps ------------------------------------------------------ */

static dlp_pretrain_opts small_opts(int method, int hidden, int layers) {
    dlp_pretrain_opts o;
    memset(&o, 0, sizeof o);
    o.method = method;
    o.hidden = hidden;
    o.layers = layers;
    o.dropout = -1;
    o.seed = 42;
    o.threads = 1;
    return o;
}

/* d loss / d p for a sample of every trainable tensor's elements (all of
 * the tensor named `all`), BatchNorm in train mode, no dropout. */
static int fd_step(dlp_encoder *e, const dlp_features *const *fs, int k, const char *all, int *checked) {
    dlp__nn_params *ps = dlp__encoder_params(e);
    dlp_error err = {0};
    double loss;
    int skipped;
    if (dlp__encoder_step(e, fs, k, 9, 1, 1, &loss, &skipped, &err) != DLP_OK || skipped) {
        fprintf(stderr, "  step: %s (skipped %d)\n", err.msg, skipped);
        return 1;
    }
    float *ga = malloc(sizeof *ga * (size_t)ps->total);
    memcpy(ga, ps->grad, sizeof *ga * (size_t)ps->total);
    int bad = 0, shown = 0;
    const double h = 5e-3;
    for (int i = 0; i < ps->n; i++) {
        const dlp__nn_ptensor *t = &ps->t[i];
        if (!t->trainable) continue;
        int64_t stride = all && !strcmp(t->name, all) ? 1 : t->numel / 5 + 1;
        for (int64_t q = 0; q < t->numel; q += stride) {
            float *p = ps->data + t->offset + q, s = *p;
            double l0, lp, lm;
            dlp__encoder_step(e, fs, k, 9, 1, 0, &l0, &skipped, &err);
            *p = s + (float)h;
            dlp__encoder_step(e, fs, k, 9, 1, 0, &lp, &skipped, &err);
            *p = s - (float)h;
            dlp__encoder_step(e, fs, k, 9, 1, 0, &lm, &skipped, &err);
            *p = s;
            (*checked)++;
            if (!fd_ok(ga[t->offset + q], lp, l0, lm, h, 3e-2, 2e-4)) {
                bad++;
                if (shown++ < 6)
                    fprintf(stderr, "  grad %s[%lld]: analytic %.6g numeric %.6g (one-sided %.6g %.6g)\n",
                            t->name, (long long)q, ga[t->offset + q], (lp - lm) / (2 * h), (lp - l0) / h,
                            (l0 - lm) / h);
            }
        }
    }
    free(ga);
    return bad;
}

static void jitter(dlp_encoder *e, uint64_t seed, float amp) {
    dlp__nn_params *ps = dlp__encoder_params(e);
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, seed);
    for (int i = 0; i < ps->n; i++) {
        if (!ps->t[i].trainable) continue;
        float *p = dlp__nn_pv(ps, i);
        for (int64_t q = 0; q < ps->t[i].numel; q++) p[q] += amp * (2 * dlp__nn_rng_uniform(&r) - 1);
    }
}

static void t_grad_gae_step(void) {
    dlp_features **fs = corpus(3, 3, 5, 8, LAYOUT);
    dlp_pretrain_opts o = small_opts(DLP_PRETRAIN_GAE, 6, 3);
    o.neg_ratio = 2;
    dlp_encoder *e;
    dlp_error err = {0};
    CHECK_I64(dlp_encoder_new(&o, LAYOUT, &e, &err), DLP_OK);
    if (!e) return;
    jitter(e, 4, 0.1f);
    int checked = 0;
    CHECK_I64(fd_step(e, (const dlp_features *const *)fs, 3, NULL, &checked), 0);
    CHECK(checked > 40);
    /* every tensor of a GAE is the encoder's */
    dlp__nn_params *ps = dlp__encoder_params(e);
    for (int i = 0; i < ps->n; i++) CHECK(!strncmp(ps->t[i].name, "encoder.", 8));
    dlp_encoder_free(e);
    corpus_free(fs, 3);
}

static void t_grad_graphmae_step(void) {
    dlp_features **fs = corpus(4, 3, 5, 8, LAYOUT);
    dlp_pretrain_opts o = small_opts(DLP_PRETRAIN_GRAPHMAE, 6, 2);
    o.replace_rate = 0.3;   /* token rows and noise rows in one batch */
    dlp_encoder *e;
    dlp_error err = {0};
    CHECK_I64(dlp_encoder_new(&o, LAYOUT, &e, &err), DLP_OK);
    if (!e) return;
    jitter(e, 5, 0.1f);   /* also moves the token off zero */
    int checked = 0;
    CHECK_I64(fd_step(e, (const dlp_features *const *)fs, 3, "enc_mask_token", &checked), 0);
    CHECK(checked > 60);
    dlp__nn_params *ps = dlp__encoder_params(e);
    CHECK(dlp__nn_params_find(ps, "enc_mask_token") >= 0);
    CHECK(dlp__nn_params_find(ps, "encoder_to_decoder.weight") >= 0);
    CHECK(dlp__nn_params_find(ps, "encoder_to_decoder.bias") < 0);
    /* the token gets a gradient (the mask hits token rows) */
    double loss;
    int skipped;
    dlp__encoder_step(e, (const dlp_features *const *)fs, 3, 9, 1, 1, &loss, &skipped, &err);
    int tk = dlp__nn_params_find(ps, "enc_mask_token");
    double gn = 0;
    for (int c = 0; c < ps->t[tk].numel; c++) gn += fabs(dlp__nn_pg(ps, tk)[c]);
    CHECK(gn > 0);
    dlp_encoder_free(e);
    corpus_free(fs, 3);
}

/* Steps that cannot run are skipped, not crashed: one node in training
 * (BatchNorm), no edge for the GAE. */
static void t_step_skips(void) {
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 1);
    dlp_features *one = make_graph(LAYOUT, 1, 0, NULL, NULL, &r, -1, "one");
    const dlp_features *fs[1] = {one};
    dlp_error err = {0};
    for (int m = 0; m < 2; m++) {
        dlp_pretrain_opts o = small_opts(m, 4, 2);
        dlp_encoder *e;
        CHECK_I64(dlp_encoder_new(&o, LAYOUT, &e, &err), DLP_OK);
        double l = -1;
        int sk = 0;
        CHECK_I64(dlp__encoder_step(e, fs, 1, 1, 1, 1, &l, &sk, &err), DLP_OK);
        CHECK(sk == 1 && l == 0);
        dlp_encoder_free(e);
    }
    dlp_features_free(one);
}

/* ---- 2. pre-training helps --------------------------------------------------- */

typedef struct {
    int calls, stop_at;
    double first_val, last_val, last_loss;
} prog_t;

static int progress(void *user, int epoch, int epochs, double loss, double val, double el) {
    prog_t *p = user;
    p->calls++;
    if (epoch == 1) p->first_val = val;
    p->last_val = val;
    p->last_loss = loss;
    return p->stop_at && epoch >= p->stop_at;
}

static void train_helps(int method) {
    dlp_features **tr = corpus(100 + method, 40, 8, 30, LAYOUT), **te = corpus(200 + method, 10, 8, 30, LAYOUT);
    dlp_pretrain_opts o = small_opts(method, method ? 32 : 16, 2);
    o.dropout = 0.1;
    o.epochs = 30;
    o.batch_size = 8;
    o.lr = 5e-3;
    o.holdout = 8;
    prog_t p = {0};
    o.progress = progress;
    o.progress_user = &p;
    dlp_encoder *e = NULL, *u = NULL;
    dlp_error err = {0};
    CHECK_I64(dlp__encoder_pretrain_feats((const dlp_features *const *)tr, 40, &o, &e, &err), DLP_OK);
    if (!e) {
        fprintf(stderr, "  %s\n", err.msg);
        goto done;
    }
    CHECK_I64(dlp_encoder_new(&o, LAYOUT, &u, &err), DLP_OK);
    double lt = NAN, lu = NAN, lt2 = NAN;
    CHECK_I64(dlp__encoder_loss_feats(e, (const dlp_features *const *)te, 10, 77, &lt, &err), DLP_OK);
    CHECK_I64(dlp__encoder_loss_feats(u, (const dlp_features *const *)te, 10, 77, &lu, &err), DLP_OK);
    CHECK_I64(dlp__encoder_loss_feats(e, (const dlp_features *const *)te, 10, 77, &lt2, &err), DLP_OK);
    CHECK(lt == lt2);   /* same seed, same number */
    fprintf(stderr, "  %s: unseen-graph loss untrained %.4f trained %.4f; holdout val %.4f -> %.4f\n",
            dlp_pretrain_method_name(method), lu, lt, p.first_val, p.last_val);
    CHECK(isfinite(lt) && isfinite(lu));
    CHECK(lt < 0.8 * lu);
    CHECK(p.last_val < p.first_val);
    CHECK_I64(p.calls, 30);
    dlp_encoder_info in;
    dlp_encoder_info_get(e, &in);
    CHECK_I64(in.epochs_run, 30);
    CHECK_I64(in.n_graphs, 32);
    CHECK_I64(in.n_holdout, 8);
    CHECK(in.final_loss == p.last_loss && in.val_loss == p.last_val);
    CHECK_I64(in.n_feat, dlp_layout_width(LAYOUT));
    CHECK_I64(dlp_encoder_dim(e), o.hidden);
    dlp_encoder_info_get(u, &in);
    CHECK(in.epochs_run == 0 && isnan(in.final_loss));
done:
    dlp_encoder_free(e);
    dlp_encoder_free(u);
    corpus_free(tr, 40);
    corpus_free(te, 10);
}

static void t_pretrain_gae(void) { train_helps(DLP_PRETRAIN_GAE); }
static void t_pretrain_graphmae(void) { train_helps(DLP_PRETRAIN_GRAPHMAE); }

/* One-node graphs make one-node batches: skipped; only such graphs: error. */
static void t_pretrain_tiny_batches(void) {
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 2);
    dlp_features *fs[6];
    for (int i = 0; i < 6; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "t%d", i);
        fs[i] = i < 3 ? make_graph(LAYOUT, 1, 0, NULL, NULL, &r, -1, nm) : random_dag(&r, LAYOUT, 6, nm);
    }
    dlp_error err = {0};
    for (int m = 0; m < 2; m++) {
        dlp_pretrain_opts o = small_opts(m, 4, 2);
        o.epochs = 2;
        o.batch_size = 1;
        dlp_encoder *e = NULL;
        CHECK_I64(dlp__encoder_pretrain_feats((const dlp_features *const *)fs, 6, &o, &e, &err), DLP_OK);
        dlp_encoder_free(e);
        CHECK_I64(dlp__encoder_pretrain_feats((const dlp_features *const *)fs, 3, &o, &e, &err), DLP_EINVAL);
        CHECK(e == NULL && strstr(err.msg, "no batch"));
        /* options out of range */
        o.holdout = 6;
        CHECK_I64(dlp__encoder_pretrain_feats((const dlp_features *const *)fs, 6, &o, &e, &err), DLP_EINVAL);
        CHECK(strstr(err.msg, "holdout") != NULL);
    }
    dlp_pretrain_opts o = small_opts(DLP_PRETRAIN_GRAPHMAE, 4, 2);
    o.mask_rate = 1.5;
    dlp_encoder *e = NULL;
    CHECK_I64(dlp_encoder_new(&o, LAYOUT, &e, &err), DLP_EINVAL);
    CHECK(strstr(err.msg, "mask_rate") != NULL);
    for (int i = 0; i < 6; i++) dlp_features_free(fs[i]);
}

/* ---- 3. checkpoint / resume ------------------------------------------------- */

static int same_weights(dlp_encoder *a, dlp_encoder *b) {
    dlp__nn_params *pa = dlp__encoder_params(a), *pb = dlp__encoder_params(b);
    return pa->total == pb->total && !memcmp(pa->data, pb->data, sizeof(float) * (size_t)pa->total);
}

static void resume_case(int method) {
    dlp_features **fs = corpus(300 + method, 24, 6, 16, LAYOUT);
    const dlp_features *const *cf = (const dlp_features *const *)fs;
    dlp_pretrain_opts o = small_opts(method, 8, 2);
    o.dropout = 0.2;   /* the dropout stream must be restored too */
    o.epochs = 6;
    o.batch_size = 5;
    o.holdout = 4;
    o.lr = 3e-3;
    dlp_error err = {0};
    dlp_encoder *a = NULL, *b = NULL, *c = NULL, *d = NULL;
    char ca[96], cb[96];
    snprintf(ca, sizeof ca, "%s", tmp_path(method ? "a_mae.ckpt" : "a_gae.ckpt"));
    snprintf(cb, sizeof cb, "%s", tmp_path(method ? "b_mae.ckpt" : "b_gae.ckpt"));
    o.checkpoint = ca;
    CHECK_I64(dlp__encoder_pretrain_feats(cf, 24, &o, &a, &err), DLP_OK);
    /* interrupted after epoch 3 (checkpoint every 2: written at the stop) */
    prog_t p = {0};
    p.stop_at = 3;
    o.checkpoint = cb;
    o.checkpoint_every = 2;
    o.progress = progress;
    o.progress_user = &p;
    CHECK_I64(dlp__encoder_pretrain_feats(cf, 24, &o, &b, &err), DLP_OK);
    dlp_encoder_info in;
    dlp_encoder_info_get(b, &in);
    CHECK_I64(in.epochs_run, 3);
    CHECK(a && b && !same_weights(a, b));
    /* resumed to the end */
    p.stop_at = 0;
    p.calls = 0;
    o.resume = 1;
    CHECK_I64(dlp__encoder_pretrain_feats(cf, 24, &o, &c, &err), DLP_OK);
    CHECK_I64(p.calls, 3);
    if (a && c) {
        CHECK(same_weights(a, c));
        dlp_encoder_info ia, ic;
        dlp_encoder_info_get(a, &ia);
        dlp_encoder_info_get(c, &ic);
        CHECK(ia.final_loss == ic.final_loss && ia.val_loss == ic.val_loss);
        CHECK_I64(ic.epochs_run, 6);
    }
    /* resuming a finished run trains nothing and gives the same weights */
    p.calls = 0;
    CHECK_I64(dlp__encoder_pretrain_feats(cf, 24, &o, &d, &err), DLP_OK);
    CHECK_I64(p.calls, 0);
    if (a && d) CHECK(same_weights(a, d));
    dlp_encoder_free(d);
    d = NULL;
    /* another recipe or corpus: refused, naming the difference */
    o.lr = 1e-3;
    CHECK_I64(dlp__encoder_pretrain_feats(cf, 24, &o, &d, &err), DLP_EINVAL);
    CHECK(strstr(err.msg, "lr (checkpoint") != NULL && strstr(err.msg, cb) != NULL);
    o.lr = 3e-3;
    CHECK_I64(dlp__encoder_pretrain_feats(cf, 23, &o, &d, &err), DLP_EINVAL);
    CHECK(strstr(err.msg, "corpus") != NULL);
    dlp_features *t = fs[5];
    fs[5] = fs[6];
    fs[6] = t;
    CHECK_I64(dlp__encoder_pretrain_feats(cf, 24, &o, &d, &err), DLP_EINVAL);
    CHECK(strstr(err.msg, "corpus graphs") != NULL);
    /* a checkpoint is not an encoder file */
    CHECK_I64(dlp_encoder_load(cb, &d, &err), DLP_EFORMAT);
    CHECK(strstr(err.msg, "checkpoint") != NULL);
    dlp_encoder_free(a);
    dlp_encoder_free(b);
    dlp_encoder_free(c);
    corpus_free(fs, 24);
}

/* Through a corpus pack (streamed from disk): the same graphs under the
 * same names give the same fingerprint, hence bitwise the same run as the
 * in-memory array, and the same loss. */
static void t_corpus_stream(void) {
    dlp_features **fs = corpus(600, 10, 5, 12, LAYOUT);
    char *paths[10];
    dlp_error err = {0};
    for (int i = 0; i < 10; i++) {
        char nm[160];
        snprintf(nm, sizeof nm, "%s.dlpg", fs[i]->name);
        paths[i] = strdup(tmp_path(nm));
        CHECK_I64(dlp_features_save(fs[i], paths[i], &err), DLP_OK);
    }
    dlp_corpus_opts co;
    memset(&co, 0, sizeof co);
    co.layout = LAYOUT;
    dlp_corpus *c = NULL;
    CHECK_I64(dlp_corpus_pack((const char *const *)paths, 10, tmp_path("c.dlpc"), &co, &c, &err), DLP_OK);
    if (!c) {
        fprintf(stderr, "  corpus: %s\n", err.msg);
    } else {
        CHECK_I64(dlp_corpus_count(c), 10);
        for (int m = 0; m < 2; m++) {
            dlp_pretrain_opts o = small_opts(m, 8, 2);
            o.dropout = 0.2;
            o.epochs = 3;
            o.batch_size = 3;
            o.holdout = 2;
            dlp_encoder *a = NULL, *b = NULL;
            CHECK_I64(dlp_encoder_pretrain(c, &o, &a, &err), DLP_OK);
            CHECK_I64(dlp__encoder_pretrain_feats((const dlp_features *const *)fs, 10, &o, &b, &err), DLP_OK);
            if (a && b) {
                CHECK(same_weights(a, b));
                double la = NAN, lb = NAN;
                CHECK_I64(dlp_encoder_loss(a, c, NULL, 10, 3, &la, &err), DLP_OK);
                CHECK_I64(dlp__encoder_loss_feats(b, (const dlp_features *const *)fs, 10, 3, &lb, &err), DLP_OK);
                CHECK(la == lb && isfinite(la));
                double lall = NAN;   /* NULL idx: every graph, whatever n says */
                CHECK_I64(dlp_encoder_loss(a, c, NULL, 0, 3, &lall, &err), DLP_OK);
                CHECK(lall == la);
                int64_t idx[2] = {9, 0};
                CHECK_I64(dlp_encoder_loss(a, c, idx, 2, 3, &la, &err), DLP_OK);
                idx[0] = 10;
                CHECK_I64(dlp_encoder_loss(a, c, idx, 2, 3, &la, &err), DLP_EINVAL);
            }
            dlp_encoder_free(a);
            dlp_encoder_free(b);
        }
        dlp_corpus_close(c);
    }
    for (int i = 0; i < 10; i++) free(paths[i]);
    corpus_free(fs, 10);
}

static void t_resume_gae(void) { resume_case(DLP_PRETRAIN_GAE); }
static void t_resume_graphmae(void) { resume_case(DLP_PRETRAIN_GRAPHMAE); }

/* ---- 4. save / load ---------------------------------------------------------- */

static void t_save_load(void) {
    dlp_features **fs = corpus(400, 12, 6, 14, LAYOUT);
    const dlp_features *const *cf = (const dlp_features *const *)fs;
    dlp_error err = {0};
    for (int m = 0; m < 2; m++) {
        dlp_pretrain_opts o = small_opts(m, 8, 2);
        o.epochs = 3;
        o.batch_size = 4;
        o.holdout = 2;
        o.dropout = 0.3;
        dlp_encoder *e = NULL, *l = NULL;
        CHECK_I64(dlp__encoder_pretrain_feats(cf, 12, &o, &e, &err), DLP_OK);
        if (!e) continue;
        const char *path = tmp_path(m ? "mae.dlpm" : "gae.dlpm");
        CHECK_I64(dlp_encoder_save(e, path, &err), DLP_OK);
        CHECK_I64(dlp_encoder_load(path, &l, &err), DLP_OK);
        if (!l) {
            fprintf(stderr, "  %s\n", err.msg);
            dlp_encoder_free(e);
            continue;
        }
        CHECK(same_weights(e, l));
        float v1[8], v2[8];
        for (int i = 0; i < 12; i++) {
            CHECK_I64(dlp_encoder_embed(e, fs[i], v1, &err), DLP_OK);
            CHECK_I64(dlp_encoder_embed(l, fs[i], v2, &err), DLP_OK);
            CHECK(!memcmp(v1, v2, sizeof v1));
        }
        double la, lb;
        CHECK_I64(dlp__encoder_loss_feats(e, cf, 12, 5, &la, &err), DLP_OK);
        CHECK_I64(dlp__encoder_loss_feats(l, cf, 12, 5, &lb, &err), DLP_OK);
        CHECK(la == lb);
        dlp_encoder_info ia, ib;
        dlp_encoder_info_get(e, &ia);
        dlp_encoder_info_get(l, &ib);
        CHECK(ia.method == ib.method && ia.hidden == ib.hidden && ia.layers == ib.layers &&
              ia.dropout == ib.dropout && ia.mask_rate == ib.mask_rate && ia.alpha == ib.alpha &&
              ia.neg_ratio == ib.neg_ratio && ia.lr == ib.lr && ia.seed == ib.seed && ia.epochs_run == 3 &&
              ib.epochs_run == 3 && ia.n_graphs == ib.n_graphs && ia.n_holdout == ib.n_holdout &&
              ia.final_loss == ib.final_loss && ia.n_params == ib.n_params && ia.layout == ib.layout &&
              ia.layout_version == ib.layout_version && ia.n_feat == ib.n_feat);
        /* features of another layout */
        dlp__nn_rng r;
        dlp__nn_rng_seed(&r, 3);
        dlp_features *tp = random_dag(&r, DLP_LAYOUT_TRAPPM, 5, "trappm graph");
        CHECK_I64(dlp_encoder_embed(l, tp, v1, &err), DLP_EINVAL);
        CHECK(strstr(err.msg, "trappm graph") != NULL);
        dlp_features_free(tp);
        /* truncated and corrupted files */
        FILE *fp = fopen(path, "rb");
        fseek(fp, 0, SEEK_END);
        long n = ftell(fp);
        rewind(fp);
        unsigned char *buf = malloc((size_t)n);
        CHECK(fread(buf, 1, (size_t)n, fp) == (size_t)n);
        fclose(fp);
        const char *bad = tmp_path("bad.dlpm");
        fp = fopen(bad, "wb");
        fwrite(buf, 1, (size_t)n - 100, fp);
        fclose(fp);
        dlp_encoder *x = NULL;
        CHECK_I64(dlp_encoder_load(bad, &x, &err), DLP_EFORMAT);
        CHECK(x == NULL && strstr(err.msg, bad) != NULL);
        buf[n - 50] ^= 0x40;
        fp = fopen(bad, "wb");
        fwrite(buf, 1, (size_t)n, fp);
        fclose(fp);
        CHECK_I64(dlp_encoder_load(bad, &x, &err), DLP_ECHECKSUM);
        CHECK(strstr(err.msg, bad) != NULL);
        free(buf);
        /* an encoder is not a GNN predictor */
        dlp_gnn *gm = NULL;
        CHECK(dlp_gnn_load(path, &gm, &err) != DLP_OK);
        CHECK(gm == NULL && strstr(err.msg, "encoder") != NULL);
        dlp_encoder_free(e);
        dlp_encoder_free(l);
    }
    /* a GNN model file is not an encoder */
    const char *hdr = "{\"kind\":\"gnn\",\"gnn_format\":1}";
    void *img;
    size_t len;
    float payload[4] = {0};
    CHECK_I64(dlp__dlpm_pack(hdr, strlen(hdr), payload, sizeof payload, &img, &len, &err), DLP_OK);
    const char *gp = tmp_path("gnn.dlpm");
    FILE *fp = fopen(gp, "wb");
    fwrite(img, 1, len, fp);
    fclose(fp);
    free(img);
    dlp_encoder *x = NULL;
    CHECK_I64(dlp_encoder_load(gp, &x, &err), DLP_EFORMAT);
    CHECK(strstr(err.msg, "'gnn' model, not a pre-trained encoder") != NULL);
    CHECK_I64(dlp_encoder_load(tmp_path("missing.dlpm"), &x, &err), DLP_EIO);
    corpus_free(fs, 12);
}

static void t_method_names(void) {
    CHECK_STR(dlp_pretrain_method_name(DLP_PRETRAIN_GAE), "gae");
    CHECK_STR(dlp_pretrain_method_name(DLP_PRETRAIN_GRAPHMAE), "graphmae");
    CHECK_I64(dlp_pretrain_method_parse("graphmae"), DLP_PRETRAIN_GRAPHMAE);
    CHECK_I64(dlp_pretrain_method_parse("gae"), DLP_PRETRAIN_GAE);
    CHECK_I64(dlp_pretrain_method_parse("vgae"), -1);
    /* defaults of dlp_encoder_new: the thesis' */
    dlp_pretrain_opts o;
    memset(&o, 0, sizeof o);
    dlp_encoder *e;
    dlp_error err = {0};
    CHECK_I64(dlp_encoder_new(&o, 0, &e, &err), DLP_OK);
    dlp_encoder_info in;
    dlp_encoder_info_get(e, &in);
    CHECK(in.hidden == 512 && in.layers == 4 && in.dropout == 0.5 && in.neg_ratio == 1 && in.lr == 5e-4 &&
          in.epochs == 400 && in.batch_size == 32 && in.layout == DLP_LAYOUT_TRAPPM &&
          in.layout_version == DLP_LAYOUT_TRAPPM_VERSION && in.n_feat == dlp_layout_width(DLP_LAYOUT_TRAPPM));
    dlp_encoder_free(e);
    o.method = DLP_PRETRAIN_GRAPHMAE;
    o.hidden = 16;   /* keep the allocation small; the rest default */
    CHECK_I64(dlp_encoder_new(&o, LAYOUT, &e, &err), DLP_OK);
    dlp_encoder_info_get(e, &in);
    CHECK(in.layers == 5 && in.dropout == 0.2 && in.mask_rate == 0.5 && in.replace_rate == 0.1 &&
          in.alpha == 2 && in.epochs == 500 && in.batch_size == 128);
    dlp_encoder_free(e);
}

/* ---- 5. graph vectors ---------------------------------------------------------- */

/* A one-layer GAE encoder is one SAGEConv: z_i = W_l mean_{j -> i} x_j + b +
 * W_r x_i; the graph vector is the sum over nodes, computed here from the
 * stored weights and the edge list. */
static void t_embed_by_hand(void) {
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 8);
    const int32_t src[] = {0, 0, 1, 2}, dst[] = {1, 2, 2, 3};
    dlp_features *f = make_graph(LAYOUT, 4, 4, src, dst, &r, -1, "hand");
    dlp_pretrain_opts o = small_opts(DLP_PRETRAIN_GAE, 4, 1);
    dlp_encoder *e;
    dlp_error err = {0};
    CHECK_I64(dlp_encoder_new(&o, LAYOUT, &e, &err), DLP_OK);
    jitter(e, 3, 0.2f);
    dlp__nn_params *ps = dlp__encoder_params(e);
    int wl = dlp__nn_params_find(ps, "encoder.convs.0.lin_l.weight");
    int bl = dlp__nn_params_find(ps, "encoder.convs.0.lin_l.bias");
    int wr = dlp__nn_params_find(ps, "encoder.convs.0.lin_r.weight");
    CHECK(wl >= 0 && bl >= 0 && wr >= 0);
    if (wl < 0 || bl < 0 || wr < 0) return;
    int F = f->n_feat, H = 4;
    double want[4] = {0};
    for (int i = 0; i < 4; i++) {
        double agg[64] = {0};
        int cnt = 0;
        for (int e2 = 0; e2 < 4; e2++)
            if (dst[e2] == i) {
                cnt++;
                for (int c = 0; c < F; c++) agg[c] += f->x[src[e2] * F + c];
            }
        for (int h = 0; h < H; h++) {
            double z = dlp__nn_pv(ps, bl)[h];
            for (int c = 0; c < F; c++)
                z += dlp__nn_pv(ps, wl)[h * F + c] * (cnt ? agg[c] / cnt : 0) +
                     dlp__nn_pv(ps, wr)[h * F + c] * f->x[i * F + c];
            want[h] += z;
        }
    }
    float v[4], v2[4];
    CHECK_I64(dlp_encoder_embed(e, f, v, &err), DLP_OK);
    for (int h = 0; h < H; h++) CHECK_NEAR(v[h], want[h], 1e-4 * (1 + fabs(want[h])));
    CHECK_I64(dlp_encoder_embed(e, f, v2, &err), DLP_OK);
    CHECK(!memcmp(v, v2, sizeof v));
    dlp_encoder_free(e);
    dlp_features_free(f);
}

typedef struct {
    const dlp_encoder *e;
    dlp_features **fs;
    int n;
    float *out;
    int bad;
} thr_t;

static void *embed_thread(void *arg) {
    thr_t *t = arg;
    dlp_error err = {0};
    for (int rep = 0; rep < 5; rep++)
        for (int i = 0; i < t->n; i++)
            t->bad += dlp_encoder_embed(t->e, t->fs[i], t->out + (size_t)i * 16, &err) != DLP_OK;
    return NULL;
}

/* Batched pooling (what a TraPPM model runs) = per-graph embeds, also from
 * another store the weights were copied into; concurrent embeds agree. */
static void t_pool_batch_threads(void) {
    dlp_features **fs = corpus(500, 6, 5, 12, LAYOUT);
    dlp_error err = {0};
    for (int m = 0; m < 2; m++) {
        dlp_pretrain_opts o = small_opts(m, 16, 3);
        o.dropout = 0.5;   /* must be off in eval */
        o.epochs = 2;
        o.batch_size = 3;
        dlp_encoder *e = NULL;
        CHECK_I64(dlp__encoder_pretrain_feats((const dlp_features *const *)fs, 6, &o, &e, &err), DLP_OK);
        if (!e) continue;
        float one[6 * 16];
        for (int i = 0; i < 6; i++) CHECK_I64(dlp_encoder_embed(e, fs[i], one + i * 16, &err), DLP_OK);
        /* a TraPPM-like store: other tensors first, the encoder frozen */
        dlp__nn_params ps = {0};
        dlp__nn_linear other;
        CHECK_I64(dlp__nn_linear_init(&other, &ps, "fc_1", 3, 3, 1), DLP_OK);
        dlp__enc_recipe rc;
        dlp__enc_recipe_get(e, &rc);
        dlp__enc_net net;
        CHECK_I64(dlp__enc_declare(&net, &ps, "encoder", &rc, 0, &err), DLP_OK);
        CHECK_I64(dlp__nn_params_alloc(&ps), DLP_OK);
        CHECK_I64(dlp__nn_params_trainable(&ps), 12);   /* only fc_1 */
        CHECK_I64(dlp__enc_copy_weights(e, &ps, &err), DLP_OK);
        /* collate all six graphs */
        dlp__nn_graph_part parts[6];
        int32_t *srcs[6];
        int nn = 0;
        for (int i = 0; i < 6; i++) {
            srcs[i] = malloc(sizeof(int32_t) * (size_t)(fs[i]->n_edges + 1));
            for (int u = 0; u < fs[i]->n_nodes; u++)
                for (int k = fs[i]->rowptr[u]; k < fs[i]->rowptr[u + 1]; k++) srcs[i][k] = u;
            parts[i] = (dlp__nn_graph_part){fs[i]->n_nodes, fs[i]->n_edges, srcs[i], fs[i]->col};
            nn += fs[i]->n_nodes;
        }
        dlp__nn_graph g;
        CHECK_I64(dlp__nn_graph_collate(&g, 6, parts, &err), DLP_OK);
        int F = fs[0]->n_feat;
        float *x = malloc(sizeof *x * (size_t)nn * F), pooled[6 * 16];
        for (int i = 0, r0 = 0; i < 6; r0 += fs[i]->n_nodes, i++)
            memcpy(x + (size_t)r0 * F, fs[i]->x, sizeof *x * (size_t)fs[i]->n_nodes * F);
        dlp__nn_ws ws = {0};
        dlp__nn_ctx cx;
        dlp__nn_ctx_init(&cx, &ps, &ws, 1, 1);   /* training flag ignored by pool */
        CHECK_I64(dlp__enc_pool(&net, &cx, &g, x, pooled), DLP_OK);
        for (int k = 0; k < 6 * 16; k++) CHECK_NEAR(pooled[k], one[k], 1e-4 * (1 + fabs(one[k])));
        /* a mismatched recipe cannot take the weights */
        dlp__nn_params ps2 = {0};
        dlp__enc_net net2;
        rc.hidden = 8;
        CHECK_I64(dlp__enc_declare(&net2, &ps2, "encoder", &rc, 0, &err), DLP_OK);
        CHECK_I64(dlp__nn_params_alloc(&ps2), DLP_OK);
        CHECK_I64(dlp__enc_copy_weights(e, &ps2, &err), DLP_EINVAL);
        CHECK(strstr(err.msg, "encoder.") != NULL);
        dlp__enc_net_free(&net2);
        dlp__nn_params_free(&ps2);
        /* threads */
        thr_t t[2];
        pthread_t th[2];
        for (int k = 0; k < 2; k++) {
            t[k] = (thr_t){e, fs, 6, malloc(sizeof(float) * 6 * 16), 0};
            pthread_create(&th[k], NULL, embed_thread, &t[k]);
        }
        for (int k = 0; k < 2; k++) {
            pthread_join(th[k], NULL);
            CHECK_I64(t[k].bad, 0);
            CHECK(!memcmp(t[k].out, one, sizeof one));
            free(t[k].out);
        }
        dlp__nn_ws_free(&ws);
        dlp__nn_graph_free(&g);
        for (int i = 0; i < 6; i++) free(srcs[i]);
        free(x);
        dlp__enc_net_free(&net);
        dlp__nn_params_free(&ps);
        dlp_encoder_free(e);
    }
    corpus_free(fs, 6);
}

int main(void) {
    openblas_set_num_threads(1);
    snprintf(tmpdir, sizeof tmpdir, "/tmp/dlp_pretrain_XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    RUN(t_inner_product);
    RUN(t_gae_bce);
    RUN(t_mask_token);
    RUN(t_remask_gather);
    RUN(t_grad_gae_step);
    RUN(t_grad_graphmae_step);
    RUN(t_step_skips);
    RUN(t_method_names);
    RUN(t_pretrain_gae);
    RUN(t_pretrain_graphmae);
    RUN(t_pretrain_tiny_batches);
    RUN(t_corpus_stream);
    RUN(t_resume_gae);
    RUN(t_resume_graphmae);
    RUN(t_save_load);
    RUN(t_embed_by_hand);
    RUN(t_pool_batch_threads);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
    return TAP_DONE();
}
