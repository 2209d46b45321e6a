/*
 * test_pretrain_pays.c — does self-supervised pre-training (encoder.c) pay
 * off with few labels (issue 8, TraPPM)?
 *
 * Setting (built here, trappm layout).  Four generator families, each with
 * its own wiring (0 chains, 1 residual blocks with skip edges, 2 inception
 * fan-out/fan-in blocks, 3 dense blocks whose concat reads every earlier
 * block) and its own vocabulary of V = 8 op types (one-hot columns); a graph
 * uses 3 of its family's 8 "synonyms", chosen per graph, and half the graphs
 * are hybrids (a segment of one family feeding a segment of another).  Every
 * node of family f costs rate[f]; the target is 0.5 + the sum.  So the
 * target is linear in the per-family node counts, while a graph's op
 * histogram is 32-dimensional and varies in synonyms that do not matter.
 * Why pre-training should help: which ops belong together (co-occur,
 * connect, are predictable from one another's context) is visible in
 * unlabeled graphs; GraphMAE, reconstructing a masked node's op from its
 * neighbours, has to map a family's synonyms onto common directions, so its
 * summed embedding carries the per-family counts in few directions, whereas
 * a random 16-wide projection of the 32-op histogram mixes them.
 *
 * Asserted:
 *  (1) held-out reconstruction loss (dlp_encoder_loss, fixed seed) of the
 *      pre-trained encoder < the untrained one's, GAE and GraphMAE, every
 *      seed;
 *  (2) a linear probe: ridge regression (lambda 0.1, solved here in double,
 *      on the embeddings standardised with the 20 training graphs' stats)
 *      of the target on the GraphMAE embedding from 20 labels has a test
 *      MAPE (100 graphs) below 0.85 x the same probe on the random encoder,
 *      mean of 3 pre-training seeds.  While developing: master seeds 1..5
 *      gave pre/random means 38/94, 59/77, 31/56, 34/65, 25/54 (worst ratio
 *      0.77; 14 of 15 seeds better, one tie); then, with the file fixed,
 *      unseen masters 6 and 7: 28/55, 28/55.
 * Not asserted, printed (the negative result): the downstream TraPPM
 * regressor (a) with the pre-trained GraphMAE, (b) with the random encoder,
 * (c) the supervised-only SAGE baseline, same widths, no static features.
 * TraPPM does not turn the better embedding into a lower MAPE here: over
 * master seeds 1..5 x 3 seeds (a) beat (b) in 4 of 15 runs (means 70/87,
 * 107/83, 60/60, 70/62, 62/52); the supervised SAGE branch (c alone
 * 80-120 %) overfits 20 labels and drags the head, whatever the encoder.
 * Head variants tried (linear head, std targets, weight decay, mean
 * readout, width 4 SAGE branch, no validation, 1000 epochs) did not change
 * that.  DLP_PRETRAIN_PAYS_MASTER=k reruns everything on other data.
 */
#include <cblas.h>
#include <time.h>

#include "tap.h"

#include "dlperf.h"
#include "learn/encoder_internal.h"
#include "nn/nn.h"

static int W;
static int OUT_C, IN_C;   /* channel slots of the output / input shape */

/* ---- synthetic graphs --------------------------------------------------- */

#define MAXN 256
#define MAXE 1024
#define V 8    /* op types per family */
#define NF 4   /* families            */
static const double rate[NF] = {0.2, 0.5, 1.0, 2.0};

typedef struct {
    int n, ne;
    int op[MAXN];
    int src[MAXE], dst[MAXE];
    double cost;
} gb_t;

/* A node of family f: one of the graph's 3 preferred ops of f, reading in[]. */
static int node(gb_t *g, dlp__nn_rng *r, int f, const int *pref, const int *in, int k) {
    int v = g->n++;
    g->op[v] = f * V + pref[dlp__nn_rng_below(r, 3)];
    for (int i = 0; i < k; i++) {
        g->src[g->ne] = in[i];
        g->dst[g->ne++] = v;
    }
    g->cost += rate[f];
    return v;
}

/* s blocks of family f after node x (x < 0: a fresh input node). */
static int segment(dlp__nn_rng *r, int f, gb_t *g, int x, int s) {
    int pref[3], outs[16], no = 0, in[8];
    for (int q = 0; q < 3; q++) pref[q] = (int)dlp__nn_rng_below(r, V);
    if (x < 0) x = node(g, r, f, pref, NULL, 0);
    outs[no++] = x;
    for (int b = 0; b < s; b++) {
        if (f == 0) {   /* chain */
            for (int q = 0; q < 2; q++) {
                in[0] = x;
                x = node(g, r, f, pref, in, 1);
            }
        } else if (f == 1) {   /* residual: three in a row, then add the skip */
            int skip = x;
            for (int q = 0; q < 3; q++) {
                in[0] = x;
                x = node(g, r, f, pref, in, 1);
            }
            in[0] = x;
            in[1] = skip;
            x = node(g, r, f, pref, in, 2);
        } else if (f == 2) {   /* inception: 3-4 branches, then concat */
            int nb = 3 + (int)dlp__nn_rng_below(r, 2), br[4];
            for (int q = 0; q < nb; q++) {
                in[0] = x;
                br[q] = node(g, r, f, pref, in, 1);
            }
            x = node(g, r, f, pref, br, nb);
        } else {   /* dense: concat of every earlier block output, then one op */
            in[0] = node(g, r, f, pref, outs, no);
            x = node(g, r, f, pref, in, 1);
            if (no < 16) outs[no++] = x;
        }
    }
    return x;
}

static float lnorm(double v) { return (float)(log1p(v) / log1p(65536.0)); }

static dlp_features *draw(dlp__nn_rng *r, int id, double *y) {
    gb_t g;
    memset(&g, 0, sizeof g);
    int f = (int)dlp__nn_rng_below(r, NF);
    int x = segment(r, f, &g, -1, 2 + (int)dlp__nn_rng_below(r, 6));
    if (dlp__nn_rng_below(r, 2)) {   /* hybrid: another family follows */
        int f2 = (f + 1 + (int)dlp__nn_rng_below(r, NF - 1)) % NF;
        segment(r, f2, &g, x, 1 + (int)dlp__nn_rng_below(r, 5));
    }
    *y = 0.5 + g.cost;
    dlp_features *f_ = calloc(1, sizeof *f_);
    int n = g.n;
    f_->layout = DLP_LAYOUT_TRAPPM;
    f_->layout_version = DLP_LAYOUT_TRAPPM_VERSION;
    f_->n_nodes = n;
    f_->n_feat = W;
    f_->x = calloc((size_t)n * W, sizeof *f_->x);
    for (int i = 0; i < n; i++) {
        float *xi = f_->x + (size_t)i * W;
        xi[g.op[i] * 4] = 1;   /* 32 op columns spread over the vocabulary */
        /* 1 x C x 32 x 32 tensors, C = 16 out; in: the channels of all its
         * inputs (a concat's grow with its fan-in), 3 for a graph input */
        int cin = 0;
        for (int e = 0; e < g.ne; e++) cin += g.dst[e] == i ? 16 : 0;
        xi[OUT_C - 1] = xi[IN_C - 1] = lnorm(1);
        xi[OUT_C] = lnorm(16);
        xi[IN_C] = lnorm(cin ? cin : 3);
        xi[OUT_C + 1] = xi[OUT_C + 2] = xi[IN_C + 1] = xi[IN_C + 2] = lnorm(32);
    }
    f_->rowptr = calloc((size_t)n + 1, sizeof *f_->rowptr);
    f_->col = malloc(sizeof *f_->col * (size_t)(g.ne ? g.ne : 1));
    for (int e = 0; e < g.ne; e++) f_->rowptr[g.src[e] + 1]++;
    for (int i = 0; i < n; i++) f_->rowptr[i + 1] += f_->rowptr[i];
    int fill[MAXN] = {0};
    for (int e = 0; e < g.ne; e++) f_->col[f_->rowptr[g.src[e]] + fill[g.src[e]]++] = g.dst[e];
    f_->n_edges = g.ne;
    f_->static_f[DLP_SF_BATCH] = 1;
    f_->static_f[DLP_SF_NODES] = n;
    f_->static_f[DLP_SF_EDGES] = g.ne;
    snprintf(f_->name, sizeof f_->name, "g%d", id);
    return f_;
}

/* ---- linear probe --------------------------------------------------------- */

/* Test MAPE (%) of ridge regression y ~ [standardised embedding, 1] fitted
 * on samples 0..ntr) and evaluated on off..off+nte), the intercept not
 * penalised; normal equations solved by Gauss-Jordan with partial pivoting. */
static double probe_mape(const dlp_encoder *e, const dlp_dataset *ds, int ntr, int off, int nte, double lam) {
    int d = dlp_encoder_dim(e), D = d + 1, n = off + nte;
    double *Z = calloc((size_t)n * D, sizeof *Z), *yv = calloc((size_t)n, sizeof *yv);
    double *A = calloc((size_t)D * D, sizeof *A), *b = calloc((size_t)D, sizeof *b);
    float *v = malloc(sizeof *v * (size_t)d);
    double mape = NAN;
    if (!Z || !yv || !A || !b || !v) goto out;
    for (int i = 0; i < n; i++) {
        dlp_dataset_sample s;
        s = *dlp_dataset_at(ds, i);
        if (dlp_encoder_embed(e, s.features, v, NULL) != DLP_OK) goto out;
        for (int j = 0; j < d; j++) Z[(size_t)i * D + j] = v[j];
        Z[(size_t)i * D + d] = 1;
        yv[i] = s.targets[0];
    }
    for (int j = 0; j < d; j++) {
        double m = 0, q = 0;
        for (int i = 0; i < ntr; i++) m += Z[(size_t)i * D + j] / ntr;
        for (int i = 0; i < ntr; i++) q += (Z[(size_t)i * D + j] - m) * (Z[(size_t)i * D + j] - m) / ntr;
        q = sqrt(q) + 1e-9;
        for (int i = 0; i < n; i++) Z[(size_t)i * D + j] = (Z[(size_t)i * D + j] - m) / q;
    }
    for (int i = 0; i < ntr; i++)
        for (int j = 0; j < D; j++) {
            b[j] += Z[(size_t)i * D + j] * yv[i];
            for (int k = 0; k < D; k++) A[j * D + k] += Z[(size_t)i * D + j] * Z[(size_t)i * D + k];
        }
    for (int j = 0; j < d; j++) A[j * D + j] += lam;
    for (int c = 0; c < D; c++) {
        int pv = c;
        for (int r = c + 1; r < D; r++)
            if (fabs(A[r * D + c]) > fabs(A[pv * D + c])) pv = r;
        for (int k = 0; k < D; k++) {
            double t = A[c * D + k];
            A[c * D + k] = A[pv * D + k];
            A[pv * D + k] = t;
        }
        double t = b[c];
        b[c] = b[pv];
        b[pv] = t;
        if (A[c * D + c] == 0) goto out;
        for (int r = 0; r < D; r++) {
            if (r == c) continue;
            double f = A[r * D + c] / A[c * D + c];
            for (int k = 0; k < D; k++) A[r * D + k] -= f * A[c * D + k];
            b[r] -= f * b[c];
        }
    }
    mape = 0;
    for (int i = off; i < n; i++) {
        double p = 0;
        for (int j = 0; j < D; j++) p += Z[(size_t)i * D + j] * b[j] / A[j * D + j];
        mape += fabs(p - yv[i]) / yv[i];
    }
    mape *= 100.0 / nte;
out:
    free(Z);
    free(yv);
    free(A);
    free(b);
    free(v);
    return mape;
}

/* ---- the test ---------------------------------------------------------------- */

enum { NU = 300, NHO = 50, NTR = 20, NVA = 10, NTE = 100, NL = NTR + NVA + NTE, NSEED = 3 };

static double downstream(const dlp_dataset *ds, const int *idx, const dlp_encoder *e, int layers, uint64_t seed) {
    dlp_gnn_opts o;
    memset(&o, 0, sizeof o);
    o.arch = e ? DLP_GNN_TRAPPM : DLP_GNN_SAGE;
    o.encoder = e;
    o.hidden = 16;
    o.layers = layers;
    o.fc_layers = 2;
    o.dropout = -1;
    o.loss = DLP_GNN_LOSS_MSE;
    o.lr = 3e-3;
    o.batch_size = 10;
    o.epochs = 60;
    o.n_static = -1;   /* structure only */
    o.seed = seed;
    o.threads = 1;
    dlp_gnn *m = NULL;
    dlp_error err = {0};
    if (dlp_gnn_train(ds, idx, NTR, idx + NTR, NVA, &o, &m, &err) != DLP_OK) {
        fprintf(stderr, "  train: %s\n", err.msg);
        return NAN;
    }
    float p[NTE];
    double yy[NTE], pp[NTE];
    dlp_status st = dlp_gnn_predict_dataset(m, ds, idx + NTR + NVA, NTE, p, &err);
    dlp_gnn_free(m);
    if (st != DLP_OK) return NAN;
    for (int i = 0; i < NTE; i++) {
        dlp_dataset_sample s;
        s = *dlp_dataset_at(ds, NTR + NVA + i);
        yy[i] = s.targets[0];
        pp[i] = p[i];
    }
    return dlp_metric_mape(yy, pp, NTE);
}

static void t_pretrain_pays(void) {
    const char *ms = getenv("DLP_PRETRAIN_PAYS_MASTER");
    uint64_t master = ms ? strtoull(ms, NULL, 10) : 1;
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 1000 + master);
    dlp_features *un[NU], *ho[NHO];
    double y;
    for (int i = 0; i < NU; i++) un[i] = draw(&r, i, &y);
    for (int i = 0; i < NHO; i++) ho[i] = draw(&r, 5000 + i, &y);
    const char *names[] = {"latency_ms"};
    dlp_dataset *ds = NULL;
    CHECK_I64(dlp_dataset_new(DLP_LAYOUT_TRAPPM, 1, names, &ds, NULL), DLP_OK);
    int idx[NL];
    for (int i = 0; i < NL && ds; i++) {
        dlp_features *f = draw(&r, 10000 + i, &y);
        float t = (float)y;
        CHECK_I64(dlp_dataset_add(ds, f, &t, "synth", "dev", f->name, NULL), DLP_OK);
        idx[i] = i;
    }
    if (!ds) goto out;
    double probe[2] = {0, 0}, down[3] = {0, 0, 0}, emb[2] = {0, 0};
    for (int seed = 1; seed <= NSEED; seed++) {
        dlp_encoder *pre[2] = {NULL, NULL}, *rnd[2] = {NULL, NULL};
        for (int method = 0; method < 2; method++) {
            dlp_pretrain_opts po;
            memset(&po, 0, sizeof po);
            po.method = method;
            po.hidden = 16;
            po.layers = 2;
            po.epochs = 30;
            po.batch_size = 16;
            po.lr = 1e-2;
            po.dropout = -1;
            po.seed = (uint64_t)seed;
            po.threads = 1;
            dlp_error err = {0};
            CHECK_I64(dlp__encoder_pretrain_feats((const dlp_features *const *)un, NU, &po, &pre[method], &err),
                      DLP_OK);
            CHECK_I64(dlp_encoder_new(&po, DLP_LAYOUT_TRAPPM, &rnd[method], &err), DLP_OK);
            if (!pre[method] || !rnd[method]) {
                fprintf(stderr, "  %s\n", err.msg);
                continue;
            }
            /* (1) held-out reconstruction loss, same negatives / masks */
            double lp = NAN, lr = NAN;
            CHECK_I64(dlp__encoder_loss_feats(pre[method], (const dlp_features *const *)ho, NHO, 77, &lp, &err),
                      DLP_OK);
            CHECK_I64(dlp__encoder_loss_feats(rnd[method], (const dlp_features *const *)ho, NHO, 77, &lr, &err),
                      DLP_OK);
            fprintf(stderr, "  seed %d %-8s held-out loss: untrained %.4f, pre-trained %.4f\n", seed,
                    dlp_pretrain_method_name(method), lr, lp);
            CHECK(isfinite(lp) && isfinite(lr) && lp < lr);
        }
        dlp_encoder *mae = pre[DLP_PRETRAIN_GRAPHMAE], *mae0 = rnd[DLP_PRETRAIN_GRAPHMAE];
        if (mae && mae0) {
            /* (2) the linear probe on 20 labels */
            double pp = probe_mape(mae, ds, NTR, NTR + NVA, NTE, 0.1);
            double pr = probe_mape(mae0, ds, NTR, NTR + NVA, NTE, 0.1);
            CHECK(isfinite(pp) && isfinite(pr));
            probe[0] += pp / NSEED;
            probe[1] += pr / NSEED;
            /* downstream, diagnostic only */
            double a = downstream(ds, idx, mae, 2, (uint64_t)seed), b = downstream(ds, idx, mae0, 2, (uint64_t)seed);
            double c = downstream(ds, idx, NULL, 2, (uint64_t)seed);
            /* trappm without its SAGE branch (layers < 0): the head on the
             * frozen embedding alone */
            double a0 = downstream(ds, idx, mae, -1, (uint64_t)seed), b0 = downstream(ds, idx, mae0, -1, (uint64_t)seed);
            emb[0] += a0 / NSEED;
            emb[1] += b0 / NSEED;
            fprintf(stderr, "  seed %d trappm without SAGE branch: graphmae %.2f%%, random %.2f%%\n", seed, a0, b0);
            down[0] += a / NSEED;
            down[1] += b / NSEED;
            down[2] += c / NSEED;
            fprintf(stderr,
                    "  seed %d probe MAPE (20 labels): graphmae %.2f%%, random %.2f%% | trappm+graphmae %.2f%%, "
                    "trappm+random %.2f%%, sage %.2f%%\n",
                    seed, pp, pr, a, b, c);
        }
        for (int k = 0; k < 2; k++) {
            dlp_encoder_free(pre[k]);
            dlp_encoder_free(rnd[k]);
        }
    }
    fprintf(stderr, "  mean of %d: probe graphmae %.2f%% vs random %.2f%% (asserted < 0.85x)\n", NSEED, probe[0],
            probe[1]);
    fprintf(stderr,
            "  mean of %d (diagnostic, not asserted): trappm+graphmae %.2f%%, trappm+random %.2f%%, sage %.2f%%\n",
            NSEED, down[0], down[1], down[2]);
    fprintf(stderr, "  mean of %d: trappm without SAGE branch, graphmae %.2f%% vs random %.2f%%\n", NSEED, emb[0],
            emb[1]);
    CHECK(probe[0] < 0.85 * probe[1]);
out:
    for (int i = 0; i < NU; i++) dlp_features_free(un[i]);
    for (int i = 0; i < NHO; i++) dlp_features_free(ho[i]);
    dlp_dataset_free(ds);
}

int main(void) {
    openblas_set_num_threads(1);
    W = dlp_layout_width(DLP_LAYOUT_TRAPPM);
    for (int j = 0; j < W; j++) {
        const char *c = dlp_layout_column(DLP_LAYOUT_TRAPPM, j);
        if (!strcmp(c, "out_dim3")) OUT_C = j;   /* NCHW right-aligned in 6 slots */
        if (!strcmp(c, "in_dim3")) IN_C = j;
    }
    RUN(t_pretrain_pays);
    return TAP_DONE();
}
