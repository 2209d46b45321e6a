/*
 * gnn.c — graph neural performance predictors: DIPPM's PMGNS (thesis
 * §4.3.4, DIPPM paper §3.4) and its rivals of table 4.4, built from the nn
 * core, trained on .dlpd datasets, and used for prediction.
 *
 * The model (docs/gnn.md has the full picture):
 *   conv blocks   `layers` x [conv x block_depth -> ReLU -> Dropout], the conv
 *                 being SAGEConv (mean aggregation), GCNConv, GATConv or
 *                 GINConv, over each node's incoming edges (the data flow of
 *                 the DAG: a node sees its producers);
 *   readout       sum (default; latency is roughly additive over nodes, and
 *                 TraPPM §5.4.3 and DIPPM's public code both sum) / mean / max
 *                 of node embeddings per graph;
 *   concat        with the static features F_s, scaled log1p + standardised
 *                 with training-set statistics (DIPPM's eq. 4.1 list by
 *                 default: macs, batch, n_conv, n_dense, n_relu);
 *   FC blocks     `fc_layers` x [Linear(hidden) -> ReLU -> Dropout], then a
 *                 Linear to one output per target (multi-output).
 *   The MLP rival drops the conv blocks and readout: FC blocks on F_s only
 *   (as DIPPM's "plain MLP without GNN").
 *   TraPPM (thesis §5.4.3) is the SAGE model with one more input to the
 *   concatenation: the sum-pooled node embeddings of a frozen, pre-trained
 *   graph encoder (encoder.c), standardised; [e | u | F_s] then FC blocks.
 * Targets are learned in scaled units (ln, then standardised, by default;
 * the statistics go into the model file) and unscaled on prediction.
 *
 * Training is mini-batch: each step collates batch_size graphs
 * block-diagonally (dlp__nn_graph_collate), runs forward and backward
 * through the nn sequences by hand around the concatenation, and takes an
 * Adam step.  Every random draw (init, shuffles, dropout) comes from seeded
 * xoshiro streams and the order of floating-point work does not depend on
 * timing, so a run with one BLAS thread is bitwise reproducible.  With a
 * validation set the weights of the epoch with the lowest validation MAPE
 * are kept (DIPPM's code does the same with a Lightning checkpoint).
 *
 * Nothing here prints: progress goes to the caller's callback.
 */
#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "learn/gnn_internal.h"
#include "util/util.h"

/* ---- names --------------------------------------------------------------- */

static const char *const arch_names[] = {"sage", "gcn", "gat", "gin", "mlp", "trappm", "gnnlm"};
static const char *const readout_names[] = {"sum", "mean", "max", "scaled-sum"};
static const char *const loss_names[] = {"huber", "mse", "l1"};
static const char *const scale_names[] = {"log-std", "std", "log", "none"};

#define NAMEOF(tab, i) ((i) >= 0 && (size_t)(i) < sizeof tab / sizeof tab[0] ? tab[i] : "?")

static int parse_name(const char *const *tab, int n, const char *s) {
    if (!s) return -1;
    for (int i = 0; i < n; i++)
        if (!strcmp(tab[i], s)) return i;
    return -1;
}

const char *dlp_gnn_arch_name(dlp_gnn_arch a) { return NAMEOF(arch_names, a); }
int dlp_gnn_arch_parse(const char *s) {
    if (s && !strcmp(s, "graphsage")) return DLP_GNN_SAGE;
    return parse_name(arch_names, (int)(sizeof arch_names / sizeof arch_names[0]), s);
}
const char *dlp_gnn_readout_name(dlp_gnn_readout r) { return NAMEOF(readout_names, r); }
int dlp_gnn_readout_parse(const char *s) { return parse_name(readout_names, 4, s); }
const char *dlp_gnn_loss_name(dlp_gnn_loss l) { return NAMEOF(loss_names, l); }
int dlp_gnn_loss_parse(const char *s) { return parse_name(loss_names, 3, s); }
const char *dlp_gnn_scale_name(dlp_gnn_scale s) { return NAMEOF(scale_names, s); }
int dlp_gnn_scale_parse(const char *s) { return parse_name(scale_names, 4, s); }

int dlp_static_parse(const char *name) {
    if (!name) return -1;
    for (int k = 0; k < DLP_SF_COUNT; k++) {
        const char *n = dlp_static_name(k);
        if (n && !strcmp(n, name)) return k;
    }
    /* docs/features.md calls the peak memory "memory_bytes" */
    if (!strcmp(name, "memory_bytes") || !strcmp(name, "memory")) return DLP_SF_MEMORY;
    return -1;
}

/* ---- model lifetime -------------------------------------------------------- */

dlp_gnn *dlp__gnn_alloc(void) {
    dlp_gnn *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    if (pthread_mutex_init(&m->ws_lock, NULL) != 0) {
        free(m);
        return NULL;
    }
    m->info.split = m->split;
    m->ro_scale = 1;
    return m;
}

void dlp_gnn_free(dlp_gnn *m) {
    if (!m) return;
    dlp__nn_seq_free(&m->gnn);
    dlp__nn_seq_free(&m->head);
    if (m->has_enc) dlp__enc_net_free(&m->enc);
    if (m->ops && m->ops->free) m->ops->free(m);
    free(m->u_mean);
    free(m->u_std);
    free(m->curve_train);
    free(m->curve_val);
    dlp__nn_params_free(&m->ps);
    dlp__nn_ws_free(&m->ws_cache);
    pthread_mutex_destroy(&m->ws_lock);
    free(m);
}

void dlp_gnn_info_get(const dlp_gnn *m, dlp_gnn_info *out) {
    if (!m) {
        memset(out, 0, sizeof *out);
        return;
    }
    *out = m->info;
    out->split = m->split;
}

int dlp_gnn_target_count(const dlp_gnn *m) { return m ? m->n_targets : 0; }

void dlp_gnn_loss_curve(const dlp_gnn *m, const double **train, const double **val, int *n) {
    int have = m && m->curve_train && m->curve_n > 0;
    if (train) *train = have ? m->curve_train : NULL;
    if (val) *val = have ? m->curve_val : NULL;
    if (n) *n = have ? m->curve_n : 0;
}

const char *dlp_gnn_encoder_method(const dlp_gnn *m) {
    return m && m->has_enc ? dlp_pretrain_method_name(m->enc.r.method) : NULL;
}
dlp_status dlp_gnn_encoder_copy(const dlp_gnn *m, dlp_encoder **out, dlp_error *err) {
    *out = NULL;
    if (!m || !m->has_enc) return dlp__err(err, DLP_EINVAL, "gnn: the model has no encoder (arch %s)",
                                           m ? dlp_gnn_arch_name(m->info.arch) : "?");
    return dlp__encoder_from_params(&m->enc.r, &m->ps, out, err);
}

int dlp_gnn_encoder_dim(const dlp_gnn *m) { return m && m->has_enc ? m->enc_dim : 0; }
const char *dlp_gnn_target_at(const dlp_gnn *m, int k) {
    return m && k >= 0 && k < m->n_targets ? m->target[k] : NULL;
}

/* ---- architecture ---------------------------------------------------------- */

#define PUSH(seq, kind)                                                                \
    do {                                                                               \
        if (!(L = dlp__nn_seq_push(&(seq), (kind))))                                   \
            return dlp__err(err, DLP_ENOMEM, "gnn: out of memory building the model"); \
    } while (0)
#define TRY(call)                                                                              \
    do {                                                                                       \
        dlp_status st_ = (call);                                                               \
        if (st_ != DLP_OK)                                                                     \
            return dlp__err(err, st_, "gnn: cannot build the %s model (%s)",                   \
                            dlp_gnn_arch_name(m->info.arch), dlp_status_str(st_));             \
    } while (0)

dlp_status dlp__gnn_build(dlp_gnn *m, dlp_error *err) {
    if (m->ops && m->ops->build) return m->ops->build(m, err);
    const dlp_gnn_info *h = &m->info;
    dlp__nn_layer *L;
    char name[64];
    int H = h->hidden;
    float p = (float)h->dropout;
    if (H < 1 || h->layers < 0 || h->fc_layers < 0 || h->block_depth < 1 || m->n_targets < 1 ||
        m->n_feat < 1 || p < 0 || p >= 1)
        return dlp__err(err, DLP_EINVAL, "gnn: bad architecture (hidden %d, layers %d, fc %d, dropout %g)",
                        H, h->layers, h->fc_layers, h->dropout);
    m->emb = 0;
    m->enc_dim = 0;
    if (h->arch == DLP_GNN_TRAPPM && !m->has_enc)
        return dlp__err(err, DLP_EINVAL, "gnn: arch trappm needs a pre-trained encoder");
    if (h->arch != DLP_GNN_MLP && !(h->arch == DLP_GNN_TRAPPM && h->layers == 0)) {
        if (h->layers < 1) return dlp__err(err, DLP_EINVAL, "gnn: %s needs at least one conv block",
                                           dlp_gnn_arch_name(h->arch));
        if (h->arch == DLP_GNN_GAT && (h->gat_heads < 1 || H % h->gat_heads))
            return dlp__err(err, DLP_EINVAL, "gnn: hidden %d is not a multiple of %d GAT heads", H,
                            h->gat_heads);
        int in = m->n_feat, idx = 0;
        for (int b = 0; b < h->layers; b++) {
            for (int d = 0; d < h->block_depth; d++, idx++) {
                snprintf(name, sizeof name, "convs.%d", idx);
                switch (h->arch) {
                case DLP_GNN_SAGE:
                case DLP_GNN_TRAPPM:   /* TraPPM's blocks are SAGE blocks (normalize off) */
                    PUSH(m->gnn, DLP__NN_L_SAGE);
                    TRY(dlp__nn_sage_init(&L->u.sage, &m->ps, name, in, H, DLP__NN_AGG_MEAN,
                                          h->sage_normalize));
                    break;
                case DLP_GNN_GCN:
                    PUSH(m->gnn, DLP__NN_L_GCN);
                    TRY(dlp__nn_gcn_init(&L->u.gcn, &m->ps, name, in, H));
                    break;
                case DLP_GNN_GAT:
                    PUSH(m->gnn, DLP__NN_L_GAT);
                    TRY(dlp__nn_gat_init(&L->u.gat, &m->ps, name, in, H / h->gat_heads, h->gat_heads, 1));
                    break;
                case DLP_GNN_GIN:
                    PUSH(m->gnn, DLP__NN_L_GIN);
                    TRY(dlp__nn_gin_init(&L->u.gin, &m->ps, name, in, H, H, 0.0f, 0, 0));
                    break;
                default:
                    return dlp__err(err, DLP_EINVAL, "gnn: unknown architecture %d", h->arch);
                }
                in = H;
                /* inside a block, PyG's BasicGNN puts the activation between
                 * convs; the block's own ReLU follows the last one */
                PUSH(m->gnn, DLP__NN_L_ACT);
                TRY(dlp__nn_act_init(&L->u.act, &m->ps, NULL, DLP__NN_ACT_RELU, H, 0, 0));
            }
            if (p > 0) {
                PUSH(m->gnn, DLP__NN_L_DROPOUT);
                TRY(dlp__nn_dropout_init(&L->u.drop, H, p));
            }
        }
        PUSH(m->gnn, DLP__NN_L_READOUT);
        TRY(dlp__nn_readout_init(&L->u.ro, H, h->readout == DLP_GNN_READOUT_MEAN  ? DLP__NN_AGG_MEAN
                                              : h->readout == DLP_GNN_READOUT_MAX ? DLP__NN_AGG_MAX
                                                                                  : DLP__NN_AGG_SUM));
        m->emb = H;
    }
    if (m->has_enc) {
        if (h->arch != DLP_GNN_TRAPPM)
            return dlp__err(err, DLP_EINVAL, "gnn: an encoder is only used by arch trappm");
        if (m->enc.r.n_feat != m->n_feat || m->enc.r.layout != m->layout ||
            m->enc.r.layout_version != m->layout_version || m->enc.r.hidden < 1)
            return dlp__err(err, DLP_EINVAL,
                            "gnn: the encoder reads %s layout version %d (%d columns), the model %s version %d "
                            "(%d columns)",
                            dlp_layout_name(m->enc.r.layout), m->enc.r.layout_version, m->enc.r.n_feat,
                            dlp_layout_name(m->layout), m->layout_version, m->n_feat);
        m->enc_dim = m->enc.r.hidden;
    }
    int in = dlp__gnn_zw(m);
    if (in < 1) return dlp__err(err, DLP_EINVAL, "gnn: the MLP needs at least one static feature");
    for (int f = 0; f < h->fc_layers; f++) {
        snprintf(name, sizeof name, "fc_%d", f + 1);
        PUSH(m->head, DLP__NN_L_LINEAR);
        TRY(dlp__nn_linear_init(&L->u.linear, &m->ps, name, in, H, 1));
        PUSH(m->head, DLP__NN_L_ACT);
        TRY(dlp__nn_act_init(&L->u.act, &m->ps, NULL, DLP__NN_ACT_RELU, H, 0, 0));
        if (p > 0) {
            PUSH(m->head, DLP__NN_L_DROPOUT);
            TRY(dlp__nn_dropout_init(&L->u.drop, H, p));
        }
        in = H;
    }
    PUSH(m->head, DLP__NN_L_LINEAR);
    TRY(dlp__nn_linear_init(&L->u.linear, &m->ps, "predictor", in, m->n_targets, 1));
    if (m->has_enc) {
        /* the frozen encoder: buffers of this store (saved and loaded with
         * the rest, never optimised), declared last so that the random init
         * of the other tensors does not depend on the encoder's size */
        dlp__enc_recipe r = m->enc.r;
        dlp_error ee = {0};
        dlp_status st = dlp__enc_declare(&m->enc, &m->ps, "encoder", &r, 0, &ee);
        m->enc.r = r;
        if (st != DLP_OK) return dlp__err(err, st, "gnn: cannot build the encoder (%s)", ee.msg);
    }
    TRY(dlp__nn_params_alloc(&m->ps));
    m->info.n_params = dlp__nn_params_trainable(&m->ps);
    return DLP_OK;
}
#undef PUSH
#undef TRY

/* ---- batches ---------------------------------------------------------------- */

/* One mini-batch: the block-diagonal graph, node rows, and the head input
 * z = [readout | static] whose static columns are filled here. */
typedef struct {
    dlp__nn_graph g;
    int has_graph;
    int k;
    float *x;                 /* (N, n_feat)                                     */
    float *z;                 /* (k, emb + enc_dim + n_static)                   */
} batch_t;

static dlp_status check_features(const dlp_gnn *m, const dlp_features *f, dlp_error *err) {
    if (!f) return dlp__err(err, DLP_EINVAL, "gnn: no features");
    if (f->layout != m->layout)
        return dlp__err(err, DLP_EINVAL, "%s: features are in layout %s, the model wants %s",
                        f->name[0] ? f->name : "graph", dlp_layout_name(f->layout),
                        dlp_layout_name(m->layout));
    if (f->layout_version != m->layout_version || f->n_feat != m->n_feat)
        return dlp__err(err, DLP_EVERSION,
                        "%s: features are %s layout version %d (%d columns), the model was trained on "
                        "version %d (%d columns)",
                        f->name[0] ? f->name : "graph", dlp_layout_name(f->layout), f->layout_version,
                        f->n_feat, m->layout_version, m->n_feat);
    if (f->n_nodes < 1) return dlp__err(err, DLP_EINVAL, "%s: graph has no nodes", f->name);
    /* batches expand rowptr into edge sources: it must be a valid CSR
     * (collation range-checks the columns) */
    int bad = !f->x || !f->rowptr || (f->n_edges && !f->col) || f->n_edges < 0 || f->rowptr[0] != 0 ||
              f->rowptr[f->n_nodes] != f->n_edges;
    for (int i = 0; i < f->n_nodes && !bad; i++) bad = f->rowptr[i] > f->rowptr[i + 1];
    if (bad) return dlp__err(err, DLP_EINVAL, "%s: inconsistent CSR adjacency", f->name[0] ? f->name : "graph");
    return DLP_OK;
}

static void scale_static(const dlp_gnn *m, const dlp_features *f, float *out) {
    for (int j = 0; j < m->n_static; j++) {
        double v = f->static_f[m->sf[j]];
        v = log1p(v > 0 ? v : 0);
        out[j] = (float)((v - m->sf_mean[j]) / m->sf_std[j]);
    }
}

static dlp_status make_batch(const dlp_gnn *m, dlp__nn_ws *ws, const dlp_features *const *fs, int k,
                             batch_t *b, dlp_error *err) {
    memset(b, 0, sizeof *b);
    b->k = k;
    int zw = dlp__gnn_zw(m);
    b->z = dlp__nn_ws_floats(ws, (size_t)k * (size_t)zw);
    if (!b->z) return dlp__err(err, DLP_ENOMEM, "gnn: out of memory (batch)");
    for (int q = 0; q < k; q++) scale_static(m, fs[q], b->z + (size_t)q * zw + m->emb + m->enc_dim);
    if (m->info.arch == DLP_GNN_MLP) return DLP_OK;
    dlp_status st = dlp__nn_collate_features(ws, fs, k, m->n_feat, &b->g, &b->x, NULL, "gnn", err);
    if (st != DLP_OK) return st;
    b->has_graph = 1;
    return DLP_OK;
}

static void free_batch(batch_t *b) {
    if (b->has_graph) dlp__nn_graph_free(&b->g);
    b->has_graph = 0;
}

/* Forward through both sequences; *y gets (k, n_targets) scaled outputs. */
static dlp_status forward(dlp__nn_seq *gnn, dlp__nn_seq *head, const dlp_gnn *m, dlp__nn_ctx *cx,
                          batch_t *b, const float **y) {
    int zw = dlp__gnn_zw(m), rows;
    const dlp__nn_graph *g = b->has_graph ? &b->g : NULL;
    if (m->emb) {
        const float *e;
        dlp_status st = dlp__nn_seq_forward(gnn, cx, g, b->x, b->g.n_nodes, &e, &rows);
        if (st != DLP_OK) return st;
        if (rows != b->k) return DLP_EINTERNAL;
        float sc = (float)m->ro_scale;
        for (int q = 0; q < b->k; q++) {
            float *zq = b->z + (size_t)q * zw;
            const float *eq = e + (size_t)q * m->emb;
            for (int c = 0; c < m->emb; c++) zq[c] = eq[c] * sc;
        }
    }
    dlp_status st = dlp__nn_seq_forward(head, cx, g, b->z, b->k, y, &rows);
    if (st == DLP_OK && rows != b->k) st = DLP_EINTERNAL;
    return st;
}

static dlp_status backward(dlp__nn_seq *gnn, dlp__nn_seq *head, const dlp_gnn *m, dlp__nn_ctx *cx,
                           batch_t *b, const float *dy) {
    int zw = dlp__gnn_zw(m);
    const dlp__nn_graph *g = b->has_graph ? &b->g : NULL;
    /* the static and embedding columns need no gradient (the encoder is
     * frozen), but the head's first Linear writes one for all of z; only
     * the readout part flows on */
    float *dz = m->emb ? dlp__nn_ws_zeros(cx->ws, (size_t)b->k * zw) : NULL;
    if (m->emb && !dz) return DLP_ENOMEM;
    dlp_status st = dlp__nn_seq_backward(head, cx, g, dy, dz);
    if (st != DLP_OK || !m->emb) return st;
    float *de = dlp__nn_ws_floats(cx->ws, (size_t)b->k * m->emb);
    if (!de) return DLP_ENOMEM;
    float sc = (float)m->ro_scale;
    for (int q = 0; q < b->k; q++)
        for (int c = 0; c < m->emb; c++) de[(size_t)q * m->emb + c] = dz[(size_t)q * zw + c] * sc;
    return dlp__nn_seq_backward(gnn, cx, g, de, NULL);
}

/* ---- scaling ----------------------------------------------------------------- */

static double unscale_target(const dlp_gnn *m, int k, double v) {
    v = v * m->t_std[k] + m->t_mean[k];
    int s = m->info.target_scale;
    if (s == DLP_GNN_SCALE_LOG_STD || s == DLP_GNN_SCALE_LOG) v = exp(v > 700 ? 700 : v);
    return v;
}

static double prescale_target(int scale, double v) {
    return scale == DLP_GNN_SCALE_LOG_STD || scale == DLP_GNN_SCALE_LOG ? log(v) : v;
}

/* ---- prediction ------------------------------------------------------------- */

#define PRED_BATCH 64

/* The encoder's sum-pooled embeddings of a batch, raw: (k, enc_dim).  The
 * encoder runs in eval mode and nothing flows back into it. */
static dlp_status embed_raw(const dlp_gnn *m, dlp__enc_net *net, dlp__nn_ctx *cx, const batch_t *b,
                            float *raw) {
    if (!b->has_graph) return DLP_EINTERNAL;
    int tr = cx->training;
    cx->training = 0;
    dlp_status st = dlp__enc_pool(net, cx, &b->g, b->x, raw);
    cx->training = tr;
    return st;
}

/* Standardised embedding rows u (k, enc_dim) into the z columns after the
 * readout. */
static void put_u(const dlp_gnn *m, batch_t *b, const float *u, int scaled) {
    int zw = dlp__gnn_zw(m), d = m->enc_dim;
    for (int q = 0; q < b->k; q++) {
        float *zq = b->z + (size_t)q * zw + m->emb;
        const float *uq = u + (size_t)q * d;
        if (scaled) memcpy(zq, uq, sizeof *zq * (size_t)d);
        else
            for (int c = 0; c < d; c++) zq[c] = (float)(((double)uq[c] - m->u_mean[c]) / m->u_std[c]);
    }
}

/* The embedding columns of a batch, computed with the (cloned) encoder. */
static dlp_status fill_u(const dlp_gnn *m, dlp__enc_net *net, dlp__nn_ctx *cx, batch_t *b) {
    if (!m->enc_dim) return DLP_OK;
    float *raw = dlp__nn_ws_floats(cx->ws, (size_t)b->k * (size_t)m->enc_dim);
    if (!raw) return DLP_ENOMEM;
    dlp_status st = embed_raw(m, net, cx, b, raw);
    if (st == DLP_OK) put_u(m, b, raw, 0);
    return st;
}

/* Predict graphs fs[0..n).  ucache: their standardised embeddings
 * (n, enc_dim), computed once by training; NULL: computed here. */
static dlp_status predict_core(const dlp_gnn *m, const dlp_features *const *fs, int n, const float *ucache,
                               dlp__nn_ws *ws_in, float *out, dlp_error *err) {
    if (!m || (n > 0 && (!fs || !out))) return dlp__err(err, DLP_EINVAL, "gnn predict: bad arguments");
    if (m->ops && m->ops->predict) return m->ops->predict(m, fs, NULL, n, out, err);
    for (int i = 0; i < n; i++) {
        dlp_status st = check_features(m, fs[i], err);
        if (st != DLP_OK) return st;
    }
    dlp_gnn *mm = (dlp_gnn *)m;   /* only the lock and the cached workspace change */
    dlp__nn_ws local = {0}, *ws = ws_in ? ws_in : &local;
    int locked = !ws_in && pthread_mutex_trylock(&mm->ws_lock) == 0;
    if (locked) ws = &mm->ws_cache;
    dlp__nn_seq gnn = {0}, head = {0};
    dlp__enc_net enc = {0};
    dlp_status st = DLP_OK;
    if (m->has_enc) enc.r = m->enc.r;
    /* private copies of the layer lists (dlp__nn_seq_clone): concurrent
     * predictions on one model each need their own forward caches */
    if (dlp__nn_seq_clone(&m->gnn, &gnn) || dlp__nn_seq_clone(&m->head, &head) ||
        (m->has_enc && dlp__nn_seq_clone(&m->enc.seq, &enc.seq))) {
        st = dlp__err(err, DLP_ENOMEM, "gnn predict: out of memory");
        goto done;
    }
    dlp__nn_ctx cx;
    dlp__nn_ctx_init(&cx, &mm->ps, ws, 0, 0);
    for (int b0 = 0; b0 < n && st == DLP_OK; b0 += PRED_BATCH) {
        int k = n - b0 < PRED_BATCH ? n - b0 : PRED_BATCH;
        dlp__nn_ws_reset(ws);
        batch_t b;
        const float *y;
        st = make_batch(m, ws, fs + b0, k, &b, err);
        if (st == DLP_OK && m->enc_dim) {
            if (ucache) put_u(m, &b, ucache + (size_t)b0 * m->enc_dim, 1);
            else if ((st = fill_u(m, &enc, &cx, &b)) != DLP_OK)
                dlp__err(err, st, "gnn predict: encoder failed (%s)", dlp_status_str(st));
        }
        if (st == DLP_OK) {
            st = forward(&gnn, &head, m, &cx, &b, &y);
            if (st != DLP_OK) dlp__err(err, st, "gnn predict: forward failed (%s)", dlp_status_str(st));
        }
        free_batch(&b);
        if (st != DLP_OK) break;
        for (int q = 0; q < k; q++)
            for (int t = 0; t < m->n_targets; t++)
                out[(size_t)(b0 + q) * m->n_targets + t] =
                    (float)unscale_target(m, t, y[(size_t)q * m->n_targets + t]);
    }
    dlp__nn_ws_reset(ws);
done:
    dlp__nn_seq_free(&gnn);
    dlp__nn_seq_free(&head);
    dlp__nn_seq_free(&enc.seq);
    if (locked) pthread_mutex_unlock(&mm->ws_lock);
    dlp__nn_ws_free(&local);
    return st;
}

static dlp_status predict_feats(const dlp_gnn *m, const dlp_features *const *fs, int n, float *out,
                                dlp_error *err) {
    return predict_core(m, fs, n, NULL, NULL, out, err);
}

dlp_status dlp__gnn_predict_ws(const dlp_gnn *m, const dlp_features *f, dlp__nn_ws *ws, float *out,
                               dlp_error *err) {
    return predict_core(m, &f, 1, NULL, ws, out, err);
}

dlp_status dlp_gnn_predict(const dlp_gnn *m, const dlp_features *f, float *out, dlp_error *err) {
    return predict_feats(m, &f, 1, out, err);
}

dlp_status dlp_gnn_predict_on(const dlp_gnn *m, const dlp_features *f, const char *device, float *out,
                              dlp_error *err) {
    if (m && m->ops && m->ops->predict) return m->ops->predict(m, &f, &device, 1, out, err);
    return predict_feats(m, &f, 1, out, err);
}
const char *dlp_gnn_device(const dlp_gnn *m) { return m && m->ops && m->ops->device ? m->ops->device(m) : ""; }
int dlp_gnn_stage(const dlp_gnn *m) { return m && m->ops && m->ops->stage ? m->ops->stage(m) : -1; }

dlp_status dlp_gnn_predict_many(const dlp_gnn *m, const dlp_features *const *f, int n, float *out,
                                dlp_error *err) {
    return predict_feats(m, f, n, out, err);
}

dlp_status dlp_gnn_predict_dataset(const dlp_gnn *m, const dlp_dataset *ds, const int *idx, int n,
                                   float *out, dlp_error *err) {
    if (!m || !ds || n < 0) return dlp__err(err, DLP_EINVAL, "gnn predict: bad arguments");
    const dlp_features **fs = malloc(sizeof *fs * (size_t)(n > 0 ? n : 1));
    const char **dev = malloc(sizeof *dev * (size_t)(n > 0 ? n : 1));
    if (!fs || !dev) {
        free(fs);
        free(dev);
        return dlp__err(err, DLP_ENOMEM, "gnn predict: out of memory");
    }
    for (int i = 0; i < n; i++) {
        const dlp_dataset_sample *sp = dlp_dataset_at(ds, idx ? idx[i] : i);
        if (!sp) {
            free(fs);
            free(dev);
            return dlp__err(err, DLP_EINVAL, "gnn predict: sample %d out of range", idx ? idx[i] : i);
        }
        dlp_dataset_sample s = *sp;
        fs[i] = s.features;
        dev[i] = s.device;
    }
    /* One BLAS thread, whatever the caller's setting.  A multi-threaded
     * sgemm splits the rows among threads at boundaries that depend on the
     * kernel OpenBLAS picked for this CPU (OPENBLAS_CORETYPE), so rows land
     * on tail kernels and their last bits move: `train` (which had set one
     * thread for training) and `eval` (the default, all cores) printed
     * different metrics for the same model and samples on some machines.
     * On one thread every path (train's test part, eval, the batch
     * predictor, which runs its workers on one BLAS thread too) gives the
     * same bits for the same samples in the same order; these products
     * are small, so extra BLAS threads only contend anyway. */
    int blas = openblas_get_num_threads();
    if (blas != 1) openblas_set_num_threads(1);
    /* a gnnlm model reads each sample's device */
    dlp_status st = m->ops && m->ops->predict ? m->ops->predict(m, fs, dev, n, out, err)
                                              : predict_feats(m, fs, n, out, err);
    if (blas > 1) openblas_set_num_threads(blas);
    free(fs);
    free(dev);
    return st;
}

/* ---- training ------------------------------------------------------------------ */

/* Masked loss over k x T scaled values: missing targets (NaN) add nothing;
 * mean over the present ones (PyTorch's reduction='mean'). */
static double loss_grad(int kind, double delta, const float *p, const float *t, int n, float *g) {
    double sum = 0;
    int cnt = 0;
    for (int i = 0; i < n; i++) cnt += !isnan(t[i]);
    if (!cnt) {
        memset(g, 0, sizeof *g * (size_t)n);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        if (isnan(t[i])) {
            g[i] = 0;
            continue;
        }
        double d = (double)p[i] - t[i], a = fabs(d), gi;
        if (kind == DLP_GNN_LOSS_MSE) {
            sum += d * d;
            gi = 2 * d;
        } else if (kind == DLP_GNN_LOSS_L1) {
            sum += a;
            gi = d > 0 ? 1 : d < 0 ? -1 : 0;
        } else if (a <= delta) {
            sum += 0.5 * d * d;
            gi = d;
        } else {
            sum += delta * (a - 0.5 * delta);
            gi = d > 0 ? delta : -delta;
        }
        g[i] = (float)(gi / cnt);
    }
    return sum / cnt;
}

/* The test hook of gnn_internal.h. */
dlp_status dlp__gnn_loss_grad(dlp_gnn *m, const dlp_features *const *fs, int k, const float *t, double *loss,
                              dlp_error *err) {
    for (int i = 0; i < k; i++) {
        dlp_status st = check_features(m, fs[i], err);
        if (st != DLP_OK) return st;
    }
    dlp__nn_ws ws = {0};
    dlp__nn_ctx cx;
    dlp__nn_ctx_init(&cx, &m->ps, &ws, 1, 0);
    float *g = malloc(sizeof *g * (size_t)(k > 0 ? k : 1) * (size_t)m->n_targets);
    batch_t b = {0};
    const float *y;
    dlp_status st = g ? make_batch(m, &ws, fs, k, &b, err) : DLP_ENOMEM;
    if (st == DLP_OK) st = fill_u(m, &m->enc, &cx, &b);
    if (st == DLP_OK) {
        dlp__nn_zero_grad(&m->ps);
        st = forward(&m->gnn, &m->head, m, &cx, &b, &y);
    }
    if (st == DLP_OK) {
        *loss = loss_grad(m->info.loss, m->info.huber_delta, y, t, k * m->n_targets, g);
        st = backward(&m->gnn, &m->head, m, &cx, &b, g);
    }
    free_batch(&b);
    free(g);
    dlp__nn_ws_free(&ws);
    if (st != DLP_OK && err && !err->msg[0]) dlp__err(err, st, "gnn: loss/gradient failed (%s)", dlp_status_str(st));
    return st;
}

/* TraPPM's defaults (§5.4.3) differ from DIPPM's: two SAGE blocks, two FC
 * blocks, MSE, lr 1e-3.  DLP_GNN_LOSS_HUBER is the enum's 0, so "0 = the
 * default" makes trappm train with MSE whatever loss 0 means elsewhere. */
static void fill_defaults(dlp_gnn_opts *o) {
    int tp = o->arch == DLP_GNN_TRAPPM;
    if (!o->hidden) o->hidden = 512;
    if (!o->layers) o->layers = tp ? 2 : 3;
    /* trappm with layers < 0: no supervised SAGE branch, the head sees only
     * the frozen embedding and F_s (our variant for few labels, where the
     * branch overfits: tests/test_pretrain_pays.c) */
    if (tp && o->layers < 0) o->layers = 0;
    if (!o->block_depth) o->block_depth = 1;
    if (!o->fc_layers) o->fc_layers = tp ? 2 : 3;
    if (o->fc_layers < 0) o->fc_layers = 0;   /* readout straight to the output */
    if (o->dropout == 0) o->dropout = 0.05;
    if (o->dropout < 0) o->dropout = 0;
    if (!o->gat_heads) o->gat_heads = 1;
    if (o->lr == 0) o->lr = tp ? 1e-3 : 2.754e-5;
    if (tp && o->loss == 0) o->loss = DLP_GNN_LOSS_MSE;
    if (!o->batch_size) o->batch_size = 32;
    if (!o->epochs) o->epochs = 100;
    if (o->huber_delta == 0) o->huber_delta = 1.0;
}

static const int dippm_static[] = {DLP_SF_MACS, DLP_SF_BATCH, DLP_SF_N_CONV, DLP_SF_N_DENSE,
                                   DLP_SF_N_RELU};
static const int trappm_static[] = {DLP_SF_BATCH, DLP_SF_NODES, DLP_SF_EDGES, DLP_SF_MACS, DLP_SF_PARAMS,
                                    DLP_SF_MEMORY};

/* Scalings from the training samples. */
static dlp_status fit_scalings(dlp_gnn *m, const dlp_dataset *ds, const int *tcol, const int *train,
                               int n_train, dlp_error *err) {
    for (int j = 0; j < m->n_static; j++) {
        double s = 0, s2 = 0;
        for (int i = 0; i < n_train; i++) {
            dlp_dataset_sample smp;
            smp = *dlp_dataset_at(ds, train[i]);
            double v = smp.features->static_f[m->sf[j]];
            v = log1p(v > 0 ? v : 0);
            s += v;
            s2 += v * v;
        }
        double mean = n_train ? s / n_train : 0, var = n_train ? s2 / n_train - mean * mean : 0;
        m->sf_mean[j] = mean;
        /* a feature constant over the training set (the batch of a
         * one-device set) is centred and left unscaled */
        m->sf_std[j] = var > 1e-12 ? sqrt(var) : 1.0;
    }
    int sc = m->info.target_scale;
    for (int k = 0; k < m->n_targets; k++) {
        double s = 0, s2 = 0;
        int64_t c = 0;
        for (int i = 0; i < n_train; i++) {
            dlp_dataset_sample smp;
            smp = *dlp_dataset_at(ds, train[i]);
            double v = smp.targets[tcol[k]];
            if (isnan(v)) continue;
            if (!isfinite(v) || ((sc == DLP_GNN_SCALE_LOG_STD || sc == DLP_GNN_SCALE_LOG) && v <= 0))
                return dlp__err(err, DLP_EINVAL,
                                "gnn: target %s of sample %d is %g; log scaling needs positive values "
                                "(use --target-scale std)",
                                m->target[k], train[i], v);
            v = prescale_target(sc, v);
            s += v;
            s2 += v * v;
            c++;
        }
        double mean = c ? s / (double)c : 0, var = c ? s2 / (double)c - mean * mean : 0;
        if (sc == DLP_GNN_SCALE_LOG_STD || sc == DLP_GNN_SCALE_STD) {
            m->t_mean[k] = mean;
            m->t_std[k] = var > 1e-24 ? sqrt(var) : 1.0;
        } else {
            m->t_mean[k] = 0;
            m->t_std[k] = 1;
        }
    }
    return DLP_OK;
}

/* Validation MAPE (%, mean over targets) of samples idx[0..n). */
static dlp_status val_mape(const dlp_gnn *m, const dlp_dataset *ds, const int *idx, int n,
                           const int *tcol, const float *ucache, float *pred, double *mape, dlp_error *err) {
    dlp_status st;
    if (ucache) {
        const dlp_features **fs = malloc(sizeof *fs * (size_t)(n > 0 ? n : 1));
        if (!fs) return dlp__err(err, DLP_ENOMEM, "gnn train: out of memory");
        for (int i = 0; i < n; i++) {
            dlp_dataset_sample smp;
            smp = *dlp_dataset_at(ds, idx[i]);
            fs[i] = smp.features;
        }
        st = predict_core(m, fs, n, ucache, NULL, pred, err);
        free(fs);
    } else {
        st = dlp_gnn_predict_dataset(m, ds, idx, n, pred, err);
    }
    if (st != DLP_OK) return st;
    double tot = 0;
    int nt = 0;
    for (int k = 0; k < m->n_targets; k++) {
        double s = 0;
        int c = 0;
        for (int i = 0; i < n; i++) {
            dlp_dataset_sample smp;
            smp = *dlp_dataset_at(ds, idx[i]);
            double y = smp.targets[tcol[k]], p = pred[(size_t)i * m->n_targets + k];
            if (isnan(y) || y == 0 || !isfinite(p)) continue;
            s += fabs(p - y) / fabs(y);
            c++;
        }
        if (c) {
            tot += 100.0 * s / c;
            nt++;
        }
    }
    *mape = nt ? tot / nt : NAN;
    return DLP_OK;
}

/* Transfer learning: can `init`'s parameters seed model m?  Everything that
 * shapes or names a tensor, or gives an input column its meaning, must be
 * the same. */
static dlp_status init_compatible(const dlp_gnn *m, const dlp_gnn *init, dlp_error *err) {
    const dlp_gnn_info *a = &init->info, *b = &m->info;
    const char *nm = init->src[0] ? init->src : "(model)";
#define SAME(what, x, y)                                                                                  \
    if ((x) != (y))                                                                                       \
    return dlp__err(err, DLP_EINVAL, "gnn train: --init %s: " what " %d, this model %d", nm, (int)(x), (int)(y))
    if (a->arch != b->arch)
        return dlp__err(err, DLP_EINVAL, "gnn train: --init %s: arch %s, this model %s", nm,
                        dlp_gnn_arch_name(a->arch), dlp_gnn_arch_name(b->arch));
    SAME("hidden", a->hidden, b->hidden);
    SAME("layers", a->layers, b->layers);
    SAME("block depth", a->block_depth, b->block_depth);
    SAME("fc layers", a->fc_layers, b->fc_layers);
    SAME("GAT heads", a->gat_heads, b->gat_heads);
    if (init->layout != m->layout)
        return dlp__err(err, DLP_EINVAL, "gnn train: --init %s: layout %s, this model %s", nm,
                        dlp_layout_name(init->layout), dlp_layout_name(m->layout));
    SAME("layout version", init->layout_version, m->layout_version);
    SAME("n_feat", init->n_feat, m->n_feat);
    int same_sf = init->n_static == m->n_static;
    for (int j = 0; same_sf && j < m->n_static; j++) same_sf = init->sf[j] == m->sf[j];
    if (!same_sf) {
        char x[256] = "", y[256] = "";
        for (int j = 0; j < init->n_static; j++)
            snprintf(x + strlen(x), sizeof x - strlen(x), "%s%s", j ? "," : "", dlp_static_name(init->sf[j]));
        for (int j = 0; j < m->n_static; j++)
            snprintf(y + strlen(y), sizeof y - strlen(y), "%s%s", j ? "," : "", dlp_static_name(m->sf[j]));
        return dlp__err(err, DLP_EINVAL, "gnn train: --init %s: static features [%s], this model [%s]", nm, x, y);
    }
    SAME("n_targets", init->n_targets, m->n_targets);
    if (init->has_enc != m->has_enc)
        return dlp__err(err, DLP_EINVAL, "gnn train: --init %s: %s an encoder, this model %s", nm,
                        init->has_enc ? "has" : "has no", m->has_enc ? "has one" : "has none");
    if (m->has_enc) {
        const dlp__enc_recipe *x = &init->enc.r, *y = &m->enc.r;
        if (x->method != y->method)
            return dlp__err(err, DLP_EINVAL, "gnn train: --init %s: encoder method %s, this model %s", nm,
                            dlp_pretrain_method_name(x->method), dlp_pretrain_method_name(y->method));
        SAME("encoder hidden", x->hidden, y->hidden);
        SAME("encoder layers", x->layers, y->layers);
        SAME("encoder n_feat", x->n_feat, y->n_feat);
        SAME("encoder layout", x->layout, y->layout);
        SAME("encoder layout version", x->layout_version, y->layout_version);
    }
#undef SAME
    /* the checks above imply the same size table; hold it anyway, tensor
     * by tensor, so a copy can never write out of bounds */
    for (int i = 0; i < m->ps.n; i++) {
        int j = dlp__nn_params_find(&init->ps, m->ps.t[i].name);
        if (j < 0 || init->ps.t[j].numel != m->ps.t[i].numel)
            return dlp__err(err, DLP_EINVAL, "gnn train: --init %s: tensor %s %s", nm, m->ps.t[i].name,
                            j < 0 ? "is missing" : "has another size");
    }
    return DLP_OK;
}

/* Copy every tensor (trainable and buffers, the frozen encoder's too) by
 * name; init_compatible has vouched for each. */
static void init_copy(dlp_gnn *m, const dlp_gnn *init) {
    for (int i = 0; i < m->ps.n; i++) {
        int j = dlp__nn_params_find(&init->ps, m->ps.t[i].name);
        memcpy(dlp__nn_pv(&m->ps, i), dlp__nn_pv(&init->ps, j), sizeof(float) * (size_t)m->ps.t[i].numel);
    }
}

/* TraPPM: the encoder's embedding of every training and validation graph,
 * computed once (the encoder is frozen and in eval mode, so it never
 * changes), then standardised per column with the training rows'
 * mean/std.  The standardisation is dlperf's addition, not the thesis':
 * sum-pooled embeddings of 700-node graphs reach magnitudes in the
 * hundreds and would swamp the other inputs of the first FC layer, as the
 * plain sum readout does (docs/gnn.md, Readout).  cache rows: the train
 * samples in train[] order, then the validation ones. */
static dlp_status embed_cache(dlp_gnn *m, const dlp_dataset *ds, const int *train, int n_train, const int *val,
                              int n_val, float **out, dlp_error *err) {
    int d = m->enc_dim, n = n_train + n_val;
    float *c = malloc(sizeof *c * (size_t)n * (size_t)d);
    const dlp_features **fs = malloc(sizeof *fs * PRED_BATCH);
    m->u_mean = calloc((size_t)d, sizeof *m->u_mean);
    m->u_std = calloc((size_t)d, sizeof *m->u_std);
    double *s2 = calloc((size_t)d, sizeof *s2);
    dlp__nn_ws ws = {0};
    dlp_status st = DLP_OK;
    if (!c || !fs || !m->u_mean || !m->u_std || !s2) {
        st = dlp__err(err, DLP_ENOMEM, "gnn train: out of memory (embeddings)");
        goto done;
    }
    dlp__nn_ctx cx;
    dlp__nn_ctx_init(&cx, &m->ps, &ws, 0, 0);
    for (int b0 = 0; b0 < n && st == DLP_OK; b0 += PRED_BATCH) {
        int k = n - b0 < PRED_BATCH ? n - b0 : PRED_BATCH;
        for (int q = 0; q < k; q++) {
            dlp_dataset_sample smp;
            int i = b0 + q;
            smp = *dlp_dataset_at(ds, i < n_train ? train[i] : val[i - n_train]);
            fs[q] = smp.features;
            if ((st = check_features(m, fs[q], err)) != DLP_OK) goto done;
        }
        dlp__nn_ws_reset(&ws);
        batch_t b;
        st = make_batch(m, &ws, fs, k, &b, err);
        if (st == DLP_OK && (st = embed_raw(m, &m->enc, &cx, &b, c + (size_t)b0 * d)) != DLP_OK)
            dlp__err(err, st, "gnn train: encoder failed (%s)", dlp_status_str(st));
        free_batch(&b);
    }
    if (st != DLP_OK) goto done;
    for (int i = 0; i < n_train; i++)
        for (int j = 0; j < d; j++) {
            double v = c[(size_t)i * d + j];
            m->u_mean[j] += v;
            s2[j] += v * v;
        }
    for (int j = 0; j < d; j++) {
        double mean = m->u_mean[j] / n_train, var = s2[j] / n_train - mean * mean;
        m->u_mean[j] = mean;
        /* a column constant in training (a dead ReLU unit) is centred only */
        m->u_std[j] = var > 1e-12 * (1 + mean * mean) ? sqrt(var) : 1.0;
    }
    for (size_t i = 0; i < (size_t)n; i++)
        for (int j = 0; j < d; j++) {
            float *v = c + i * (size_t)d + j;
            *v = (float)(((double)*v - m->u_mean[j]) / m->u_std[j]);
            if (!isfinite(*v)) {
                st = dlp__err(err, DLP_EINVAL, "gnn train: the encoder's embedding is not finite");
                goto done;
            }
        }
done:
    dlp__nn_ws_free(&ws);
    free(fs);
    free(s2);
    if (st != DLP_OK) {
        free(c);
        c = NULL;
    }
    *out = c;
    return st;
}

/* The options in range, each named in the message. */
static dlp_status check_opts(const dlp_gnn_opts *o, dlp_error *err) {
    const char *bad = o->arch < 0 || o->arch >= DLP_GNN_ARCH_COUNT_                  ? "arch"
                      : o->readout < 0 || o->readout > DLP_GNN_READOUT_SCALED_SUM      ? "readout"
                      : o->loss < 0 || o->loss > DLP_GNN_LOSS_L1                       ? "loss"
                      : o->target_scale < 0 || o->target_scale > DLP_GNN_SCALE_NONE    ? "target_scale"
                      : o->batch_size < 1                                              ? "batch_size"
                      : o->epochs < 1                                                  ? "epochs"
                      : o->lr < 0                                                      ? "lr"
                      : o->weight_decay < 0                                            ? "weight_decay"
                      : o->huber_delta <= 0                                            ? "huber_delta"
                      : o->dropout >= 1                                                ? "dropout"
                      : o->hidden < 1                                                  ? "hidden"
                      : o->layers < 0                                                  ? "layers"
                      : o->fc_layers < 0                                               ? "fc_layers"
                      : o->block_depth < 1                                             ? "block_depth"
                      : o->clip < 0                                                    ? "clip"
                      : o->n_targets > DLP__GNN_MAX_TARGETS                            ? "n_targets"
                      : o->n_static > 0 && !o->static_features                         ? "static_features"
                      : o->n_static > DLP_SF_COUNT                                     ? "n_static"
                                                                                       : NULL;
    if (!bad) return DLP_OK;
    if (!strcmp(bad, "arch")) return dlp__err(err, DLP_EINVAL, "gnn train: unknown architecture %d", o->arch);
    if (!strcmp(bad, "n_targets")) return dlp__err(err, DLP_EINVAL, "gnn train: at most %d targets", DLP__GNN_MAX_TARGETS);
    if (!strcmp(bad, "static_features")) return dlp__err(err, DLP_EINVAL, "gnn train: n_static without a list");
    if (!strcmp(bad, "n_static"))
        return dlp__err(err, DLP_EINVAL, "gnn train: at most %d static features", DLP_SF_COUNT);
    return dlp__err(err, DLP_EINVAL, "gnn train: option %s is out of range", bad);
}

/* What the model reads and answers: targets (their dataset columns into
 * tcol), static features, the layout of the dataset's graphs and, for
 * TraPPM, the frozen encoder's recipe (which must read that layout). */
static dlp_status set_contract(dlp_gnn *m, const dlp_gnn_opts *o, const dlp_dataset *ds, int *tcol, dlp_error *err) {
    if (dlp_dataset_target_count(ds) < 1) return dlp__err(err, DLP_EINVAL, "gnn train: the dataset has no targets");
    m->n_targets = o->n_targets > 0 ? o->n_targets : 1;
    for (int k = 0; k < m->n_targets; k++) {
        const char *name = o->n_targets > 0 && o->targets ? o->targets[k] : dlp_dataset_target_at(ds, 0);
        tcol[k] = dlp_dataset_target_index(ds, name);
        if (tcol[k] < 0) return dlp__err(err, DLP_ENOTFOUND, "gnn train: the dataset has no target '%s'", name ? name : "");
        snprintf(m->target[k], sizeof m->target[k], "%s", name);
    }
    if (o->n_static == 0 && o->arch == DLP_GNN_TRAPPM) {
        m->n_static = 6;
        memcpy(m->sf, trappm_static, sizeof trappm_static);
    } else if (o->n_static == 0) {
        m->n_static = 5;
        memcpy(m->sf, dippm_static, sizeof dippm_static);
    } else if (o->n_static > 0) {
        m->n_static = o->n_static;
        for (int j = 0; j < o->n_static; j++) {
            if (o->static_features[j] < 0 || o->static_features[j] >= DLP_SF_COUNT)
                return dlp__err(err, DLP_EINVAL, "gnn train: static feature %d out of range", o->static_features[j]);
            m->sf[j] = o->static_features[j];
        }
    }
    m->layout = dlp_dataset_layout(ds);
    const dlp_features *f0 = dlp_dataset_graph_at(ds, 0);
    if (!f0) return dlp__err(err, DLP_EINVAL, "gnn train: the dataset has no graphs");
    m->layout_version = f0->layout_version;
    m->n_feat = f0->n_feat;
    if (o->arch != DLP_GNN_TRAPPM) return DLP_OK;
    /* the encoder's recipe: from opts.encoder, or (warm start without one)
     * from the init model, whose frozen copy is then taken over */
    if (o->encoder) dlp__enc_recipe_get(o->encoder, &m->enc.r);
    else if (o->init && o->init->has_enc) m->enc.r = o->init->enc.r;
    else return dlp__err(err, DLP_EINVAL, "gnn train: arch trappm needs a pre-trained encoder (--encoder)");
    const dlp__enc_recipe *r = &m->enc.r;
    if (r->layout != m->layout || r->layout_version != m->layout_version || r->n_feat != m->n_feat)
        return dlp__err(err, DLP_EINVAL,
                        "gnn train: the encoder reads %s layout version %d (%d columns), the dataset is %s "
                        "version %d (%d columns)",
                        dlp_layout_name(r->layout), r->layout_version, r->n_feat, dlp_layout_name(m->layout),
                        m->layout_version, m->n_feat);
    m->has_enc = 1;
    return DLP_OK;
}

/* The network's recipe in m->info. */
static void set_recipe(dlp_gnn *m, const dlp_gnn_opts *o, const dlp_dataset *ds) {
    dlp_gnn_info *h = &m->info;
    h->arch = o->arch;
    h->hidden = o->hidden;
    h->layers = o->arch == DLP_GNN_MLP ? 0 : o->layers;
    h->block_depth = o->block_depth;
    h->fc_layers = o->fc_layers;
    h->readout = o->readout;
    h->gat_heads = o->arch == DLP_GNN_GAT ? o->gat_heads : 1;
    h->sage_normalize = o->arch == DLP_GNN_SAGE && o->sage_normalize;
    h->dropout = o->dropout;
    dlp__gnn_info_common(m, o, ds);
}

/* A training run's state: the samples, the mini-batch buffers, the
 * optimiser and the two random streams. */
typedef struct {
    dlp_gnn *m;
    const dlp_gnn_opts *o;
    const dlp_dataset *ds;
    int tcol[DLP__GNN_MAX_TARGETS];
    int *train, *val, n_train, n_val;
    int *order;               /* positions into train[], reshuffled per epoch */
    float *tgt, *dy;          /* scaled targets of a batch and the loss gradient */
    const dlp_features **fs;
    float *ucache;            /* TraPPM: standardised embeddings, train then val */
    float *best, *vpred;      /* best epoch's weights; validation predictions */
    int B;
    int64_t step, total_steps;
    dlp__nn_ws ws;
    dlp__nn_adam opt;
    dlp__nn_rng shuf;
    dlp__nn_ctx cx;
} trainer;

/* Samples with a target, the scalings fitted on them, the network built
 * and initialised (from the seed, the encoder's weights, a warm start),
 * the buffers, the optimiser and the random streams. */
static dlp_status prepare(trainer *T, const int *train_in, int n_train_in, const int *val_in, int n_val_in,
                          dlp_error *err) {
    dlp_gnn *m = T->m;
    const dlp_gnn_opts *o = T->o;
    const dlp_dataset *ds = T->ds;
    int n_t = m->n_targets;
    dlp_status st;
    if ((st = dlp__gnn_present(ds, T->tcol, n_t, train_in, n_train_in, &T->train, &T->n_train, "gnn train", err)) ||
        (st = dlp__gnn_present(ds, T->tcol, n_t, val_in, n_val_in, &T->val, &T->n_val, "gnn train", err)))
        return st;
    if (!T->n_train) return dlp__err(err, DLP_EINVAL, "gnn train: no training sample has the target(s)");
    m->info.n_train = T->n_train;
    m->info.n_val = T->n_val;
    if ((st = fit_scalings(m, ds, T->tcol, T->train, T->n_train, err)) != DLP_OK) return st;
    m->ro_scale = 1;
    if (o->readout == DLP_GNN_READOUT_SCALED_SUM) {
        double nodes = 0;
        for (int i = 0; i < T->n_train; i++) {
            dlp_dataset_sample smp;
            smp = *dlp_dataset_at(ds, T->train[i]);
            nodes += smp.features->n_nodes;
        }
        m->ro_scale = T->n_train ? (double)T->n_train / nodes : 1;
    }
    if ((st = dlp__gnn_build(m, err)) != DLP_OK) return st;
    dlp__nn_params_init(&m->ps, o->seed);
    if (m->has_enc && o->encoder) {
        dlp_error ee = {0};
        if ((st = dlp__enc_copy_weights(o->encoder, &m->ps, &ee)) != DLP_OK)
            return dlp__err(err, st, "gnn train: the encoder's weights: %s", ee.msg);
    }
    if (o->init) {
        /* warm start: every parameter from init.  The target, static and
         * embedding scalings stay the ones just fitted on this training
         * set: transfer to another device shifts the target distribution
         * (a GPU twice as fast moves ln latency by ln 2), and a head that
         * sees standardised targets adapts by a small change of its last
         * layer rather than having to learn the shift. */
        if ((st = init_compatible(m, o->init, err)) != DLP_OK) return st;
        init_copy(m, o->init);
    }
    if (o->threads > 0) openblas_set_num_threads(o->threads);
    if (m->enc_dim &&
        (st = embed_cache(m, ds, T->train, T->n_train, T->val, T->n_val, &T->ucache, err)) != DLP_OK)
        return st;
    if (o->record_curve) {
        m->curve_train = malloc(sizeof *m->curve_train * (size_t)o->epochs);
        m->curve_val = malloc(sizeof *m->curve_val * (size_t)o->epochs);
        if (!m->curve_train || !m->curve_val) return dlp__err(err, DLP_ENOMEM, "gnn train: out of memory");
    }
    T->B = o->batch_size < T->n_train ? o->batch_size : T->n_train;
    T->order = malloc(sizeof *T->order * (size_t)T->n_train);
    T->tgt = malloc(sizeof *T->tgt * (size_t)T->B * n_t * 2);
    T->fs = malloc(sizeof *T->fs * (size_t)T->B);
    T->best = malloc(sizeof *T->best * (size_t)(m->ps.total > 0 ? m->ps.total : 1));
    T->vpred = malloc(sizeof *T->vpred * (size_t)(T->n_val > 0 ? T->n_val : 1) * n_t);
    if (!T->order || !T->tgt || !T->fs || !T->best || !T->vpred)
        return dlp__err(err, DLP_ENOMEM, "gnn train: out of memory");
    T->dy = T->tgt + (size_t)T->B * n_t;
    if ((st = dlp__nn_adam_init(&T->opt, &m->ps, (float)o->lr, 0.9f, 0.999f, 1e-8f, (float)o->weight_decay,
                                o->adamw != 0)) != DLP_OK)
        return dlp__err(err, st, "gnn train: optimizer: %s", dlp_status_str(st));
    /* positions into train[] (the sample is train[order[i]]): the same
     * permutation as shuffling the sample ids, and it finds a sample's
     * cached embedding row */
    for (int i = 0; i < T->n_train; i++) T->order[i] = i;
    dlp__nn_rng_seed(&T->shuf, o->seed ^ 0x5348554646ULL);
    /* dropout draws from its own stream so changing the shuffle does not
     * change the masks and vice versa */
    dlp__nn_ctx_init(&T->cx, &m->ps, &T->ws, o->seed ^ 0x44524f50ULL, 1);
    T->total_steps = (int64_t)((T->n_train + T->B - 1) / T->B) * o->epochs;
    return DLP_OK;
}

/* One epoch: a reshuffle, then a forward, backward and Adam step per
 * mini-batch.  *loss: the mean batch loss; *lr_used: the last rate. */
static dlp_status train_epoch(trainer *T, double *loss, double *lr_used, dlp_error *err) {
    dlp_gnn *m = T->m;
    const dlp_gnn_opts *o = T->o;
    int n_t = m->n_targets, n_train = T->n_train, B = T->B;
    for (int i = n_train - 1; i > 0; i--) {
        int j = (int)dlp__nn_rng_below(&T->shuf, (uint32_t)i + 1), t = T->order[i];
        T->order[i] = T->order[j];
        T->order[j] = t;
    }
    double loss_sum = 0;
    *lr_used = o->lr;
    int nb = 0;
    dlp_status st;
    for (int b0 = 0; b0 < n_train; b0 += B, T->step++) {
        int k = n_train - b0 < B ? n_train - b0 : B;
        if (o->lr_schedule == DLP_GNN_LR_COSINE) {
            /* per step, from lr down to lr/100 */
            double lr_min = o->lr * 0.01;
            *lr_used = lr_min + 0.5 * (o->lr - lr_min) *
                                    (1 + cos(3.14159265358979323846 * (double)T->step / (double)T->total_steps));
            T->opt.lr = (float)*lr_used;
        }
        for (int q = 0; q < k; q++) {
            dlp_dataset_sample smp;
            smp = *dlp_dataset_at(T->ds, T->train[T->order[b0 + q]]);
            T->fs[q] = smp.features;
            for (int t = 0; t < n_t; t++) {
                double v = smp.targets[T->tcol[t]];
                T->tgt[q * n_t + t] =
                    isnan(v) ? NAN : (float)((prescale_target(o->target_scale, v) - m->t_mean[t]) / m->t_std[t]);
            }
        }
        dlp__nn_ws_reset(&T->ws);
        batch_t b;
        const float *y;
        T->cx.training = 1;
        if ((st = make_batch(m, &T->ws, T->fs, k, &b, err)) != DLP_OK) return st;
        if (m->enc_dim) {
            int zw = dlp__gnn_zw(m);
            for (int q = 0; q < k; q++)
                memcpy(b.z + (size_t)q * zw + m->emb, T->ucache + (size_t)T->order[b0 + q] * m->enc_dim,
                       sizeof(float) * (size_t)m->enc_dim);
        }
        dlp__nn_zero_grad(&m->ps);
        st = forward(&m->gnn, &m->head, m, &T->cx, &b, &y);
        if (st == DLP_OK) {
            loss_sum += loss_grad(o->loss, o->huber_delta, y, T->tgt, k * n_t, T->dy);
            st = backward(&m->gnn, &m->head, m, &T->cx, &b, T->dy);
        }
        free_batch(&b);
        if (st != DLP_OK) return dlp__err(err, st, "gnn train: step failed (%s)", dlp_status_str(st));
        if (o->clip > 0) dlp__nn_clip_grad_norm(&m->ps, o->clip);
        dlp__nn_adam_step(&T->opt, &m->ps);
        nb++;
    }
    dlp__nn_ws_reset(&T->ws);
    *loss = nb ? loss_sum / nb : 0;
    return DLP_OK;
}

static void trainer_free(trainer *T) {
    dlp__nn_adam_free(&T->opt);
    dlp__nn_ws_free(&T->ws);
    free(T->train);
    free(T->val);
    free(T->order);
    free(T->tgt);
    free(T->fs);
    free(T->best);
    free(T->vpred);
    free(T->ucache);
}

dlp_status dlp__gnn_train_layers(const dlp_dataset *ds, const int *train_in, int n_train_in, const int *val_in,
                                 int n_val_in, const dlp_gnn_opts *opts, dlp_gnn **out, dlp_error *err) {
    dlp_gnn_opts o = *opts;
    fill_defaults(&o);
    dlp_status st = check_opts(&o, err);
    if (st != DLP_OK) return st;
    trainer T = {.o = &o, .ds = ds};
    dlp_gnn *m = T.m = dlp__gnn_alloc();
    if (!m) return dlp__err(err, DLP_ENOMEM, "gnn train: out of memory");
    if ((st = set_contract(m, &o, ds, T.tcol, err)) != DLP_OK) goto done;
    set_recipe(m, &o, ds);
    if ((st = prepare(&T, train_in, n_train_in, val_in, n_val_in, err)) != DLP_OK) goto done;

    dlp_gnn_info *h = &m->info;
    double t0 = dlp__now_s(), best_mape = INFINITY;
    int best_epoch = 0, stop = 0;
    for (int ep = 0; ep < o.epochs && !stop; ep++) {
        double loss, lr_used, vm = NAN;
        if ((st = train_epoch(&T, &loss, &lr_used, err)) != DLP_OK) goto done;
        if (T.n_val) {
            if ((st = val_mape(m, ds, T.val, T.n_val, T.tcol,
                               T.ucache ? T.ucache + (size_t)T.n_train * m->enc_dim : NULL, T.vpred, &vm, err)) !=
                DLP_OK)
                goto done;
            /* a NaN/inf validation error never becomes "best" */
            if (vm < best_mape) {
                best_mape = vm;
                best_epoch = ep + 1;
                memcpy(T.best, m->ps.data, sizeof *T.best * (size_t)m->ps.total);
            }
        }
        h->epochs_run = ep + 1;
        if (m->curve_train) {
            m->curve_train[ep] = loss;
            m->curve_val[ep] = vm;
            m->curve_n = ep + 1;
        }
        if (!isfinite(loss)) {
            st = dlp__err(err, DLP_EINVAL, "gnn train: loss diverged at epoch %d (lower --lr?)", ep + 1);
            goto done;
        }
        if (o.progress) {
            double el = dlp__now_s() - t0;
            dlp_gnn_progress pr = {ep + 1, o.epochs, loss, vm, T.n_val ? best_mape : NAN, best_epoch,
                                   lr_used, el, el / (ep + 1) * (o.epochs - ep - 1)};
            if (!isfinite(pr.best_val_mape)) pr.best_val_mape = NAN;
            stop = o.progress(o.progress_user, &pr) != 0;
        }
    }
    if (T.n_val && !o.keep_last && best_epoch > 0) {
        memcpy(m->ps.data, T.best, sizeof *T.best * (size_t)m->ps.total);
        h->best_epoch = best_epoch;
    } else {
        h->best_epoch = h->epochs_run;
    }
    h->best_val_mape = T.n_val && best_epoch > 0 ? best_mape : NAN;
    h->train_seconds = dlp__now_s() - t0;
    dlp__nn_zero_grad(&m->ps);
    *out = m;
    m = NULL;
done:
    trainer_free(&T);
    dlp_gnn_free(m);
    return st;
}

/* ---- what gnnlm.c shares (gnn_internal.h) ---------------------------------------- */

dlp_status dlp__gnn_fit_scalings(dlp_gnn *m, const dlp_dataset *ds, const int *tcol, const int *train,
                                 int n_train, dlp_error *err) {
    return fit_scalings(m, ds, tcol, train, n_train, err);
}
double dlp__gnn_loss_vec(const dlp_gnn *m, const float *p, const float *t, int n, float *g) {
    return loss_grad(m->info.loss, m->info.huber_delta, p, t, n, g);
}
double dlp__gnn_unscale(const dlp_gnn *m, int k, double v) { return unscale_target(m, k, v); }
double dlp__gnn_prescale(int scale, double v) { return prescale_target(scale, v); }
void dlp__gnn_scale_static(const dlp_gnn *m, const dlp_features *f, float *out) { scale_static(m, f, out); }
dlp_status dlp__gnn_check_features(const dlp_gnn *m, const dlp_features *f, dlp_error *err) {
    return check_features(m, f, err);
}

void dlp__gnn_info_common(dlp_gnn *m, const dlp_gnn_opts *o, const dlp_dataset *ds) {
    dlp_gnn_info *h = &m->info;
    h->loss = o->loss;
    h->target_scale = o->target_scale;
    h->lr_schedule = o->lr_schedule;
    h->adamw = o->adamw != 0;
    h->lr = o->lr;
    h->weight_decay = o->weight_decay;
    h->huber_delta = o->huber_delta;
    h->clip = o->clip;
    h->batch_size = o->batch_size;
    h->epochs = o->epochs;
    h->seed = o->seed;
    h->layout = m->layout;
    h->layout_version = m->layout_version;
    h->n_feat = m->n_feat;
    h->n_static = m->n_static;
    memcpy(h->static_features, m->sf, sizeof m->sf);
    h->n_targets = m->n_targets;
    h->data_fingerprint = dlp_dataset_fingerprint(ds);
    h->best_val_mape = NAN;
    snprintf(m->split, sizeof m->split, "%s", o->split ? o->split : "");
}

dlp_status dlp__gnn_present(const dlp_dataset *ds, const int *tcol, int n_t, const int *in, int n_in, int **out,
                            int *n_out, const char *who, dlp_error *err) {
    int n_ds = dlp_dataset_count(ds);
    *n_out = 0;
    *out = malloc(sizeof **out * (size_t)(n_in > 0 ? n_in : 1));
    if (!*out) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", who);
    for (int i = 0; i < n_in; i++) {
        const dlp_dataset_sample *smp = dlp_dataset_at(ds, in[i]);
        if (in[i] < 0 || in[i] >= n_ds || !smp)
            return dlp__err(err, DLP_EINVAL, "%s: sample %d out of range (%d samples)", who, in[i], n_ds);
        int any = 0;
        for (int k = 0; k < n_t; k++) any |= !isnan(smp->targets[tcol[k]]);
        if (any) (*out)[(*n_out)++] = in[i];
    }
    return DLP_OK;
}
