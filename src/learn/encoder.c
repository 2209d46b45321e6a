/*
 * encoder.c — self-supervised graph encoders (docs/pretrain.md): TraPPM's
 * graph autoencoder (thesis §5.4.2) and GraphMAE (Hou et al. 2022, as
 * configured in table 7.7), pre-trained on unlabeled graphs streamed from a
 * corpus, saved as .dlpm files, and used to map a graph to one vector.
 *
 * The models:
 *   GAE       encoder: layers 1..L-1 SAGEConv(mean) -> BatchNorm -> ReLU ->
 *             Dropout, layer L SAGEConv alone (the embedding Z); decoder
 *             sigmoid(<z_u, z_v>) at the graph's directed edges (positives)
 *             and at neg_ratio x edges sampled non-edges of the same graph;
 *             loss PyG's recon_loss (eps 1e-15 inside the logs).
 *   GraphMAE  encoder: L x [GINConv (MLP Linear -> BatchNorm -> ReLU ->
 *             Linear; GraphMAE's MLP uses PReLU inside, dlp__nn_gin has
 *             ReLU) -> BatchNorm -> PReLU -> Dropout], the last layer too
 *             (GraphMAE's encoding=True); a mask_rate share of a batch's
 *             nodes is masked: replace_rate of them get another node's
 *             features, the rest the learnable mask token; encoder ->
 *             encoder_to_decoder (Linear, no bias) -> masked rows zeroed ->
 *             one GINConv decoder to n_feat -> scaled cosine error against
 *             the original features over the masked nodes.
 * Message passing gathers over incoming edges (a node sees its producers),
 * as in gnn.c.  The graph vector is the sum of the encoder's final node
 * embeddings in eval mode.
 *
 * Training streams: each step reads batch_size graphs from the corpus,
 * collates them block-diagonally, steps Adam and frees them.  Every random
 * draw comes from one of three seeded xoshiro streams (shuffles, dropout,
 * negatives/masks) saved in the checkpoint with the parameters and Adam's
 * state, so with one BLAS thread a resumed run is bitwise the same as an
 * uninterrupted one.
 *
 * Nothing here prints: progress goes to the caller's callback.
 */
#include <cJSON.h>
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dlpm/container.h"
#include "dlpm/dlpm_json.h"
#include "learn/encoder_internal.h"
#include "util/util.h"

#define ENC_FORMAT 1          /* version of the "encoder" header in a DLPM file */
#define GAE_EPS 1e-15         /* PyG GAE EPS                                    */
/* A sampled negative that is an edge (either direction: the inner product
 * is symmetric, so (v, u) would contradict the positive (u, v)) is redrawn
 * up to this many times in all, then kept: dense small graphs cannot loop. */
#define NEG_TRIES 8
#define MAX_LAYERS 64

/* seeds of the separate streams, derived from opts.seed */
#define SEED_HOLDOUT 0x484f4c444f5554ULL
#define SEED_SHUFFLE 0x5348554646ULL
#define SEED_DROPOUT 0x44524f50ULL
#define SEED_AUX 0x415558ULL
#define SEED_VAL 0x56414cULL

struct dlp_encoder {
    dlp_encoder_info info;    /* recipe + provenance                          */
    dlp__enc_recipe r;
    dlp__nn_params ps;        /* network, then the pre-training-only tensors   */
    dlp__enc_net net;         /* "encoder.*"                                   */
    int token;                /* GraphMAE "enc_mask_token" id; -1 for GAE      */
    dlp__nn_linear e2d;       /* GraphMAE encoder_to_decoder                   */
    dlp__nn_seq dec;          /* GraphMAE decoder (one GINConv)                */
    int64_t corpus_count;     /* fingerprint of the graphs it was trained on   */
    uint64_t corpus_hash;
};

/* ---- names ------------------------------------------------------------------ */

static const char *const method_names[] = {"gae", "graphmae"};

const char *dlp_pretrain_method_name(dlp_pretrain_method method) {
    return method >= 0 && method < 2 ? method_names[method] : "?";
}

int dlp_pretrain_method_parse(const char *s) {
    if (!s) return -1;
    for (int i = 0; i < 2; i++)
        if (!strcmp(s, method_names[i])) return i;
    return -1;
}

/* ---- the network ---------------------------------------------------------- */

static int bad_recipe(const dlp__enc_recipe *r) {
    return (r->method != DLP_PRETRAIN_GAE && r->method != DLP_PRETRAIN_GRAPHMAE) || r->n_feat < 1 ||
           r->hidden < 1 || r->hidden > (1 << 16) || r->layers < 1 || r->layers > MAX_LAYERS ||
           !(r->dropout >= 0 && r->dropout < 1);
}

#define PUSH(seq, kind)                                          \
    do {                                                         \
        if (!(L = dlp__nn_seq_push(&(seq), (kind)))) {           \
            st = DLP_ENOMEM;                                     \
            goto fail;                                           \
        }                                                        \
    } while (0)
#define TRY(call)                                                \
    do {                                                         \
        if ((st = (call)) != DLP_OK) goto fail;                  \
    } while (0)

static void layer_name(char *buf, size_t n, const char *prefix, const char *what, int i) {
    if (prefix && *prefix) snprintf(buf, n, "%s.%s.%d", prefix, what, i);
    else snprintf(buf, n, "%s.%d", what, i);
}

dlp_status dlp__enc_declare(dlp__enc_net *net, dlp__nn_params *ps, const char *prefix,
                            const dlp__enc_recipe *r, int trainable, dlp_error *err) {
    memset(net, 0, sizeof *net);
    if (!r || bad_recipe(r))
        return dlp__err(err, DLP_EINVAL, "encoder: bad recipe (method %d, n_feat %d, hidden %d, layers %d)",
                        r ? r->method : -1, r ? r->n_feat : 0, r ? r->hidden : 0, r ? r->layers : 0);
    net->r = *r;
    int t0 = ps->n, in = r->n_feat, H = r->hidden;
    float p = (float)r->dropout;
    char name[DLP__NN_NAME_MAX];
    dlp__nn_layer *L;
    dlp_status st = DLP_OK;
    for (int i = 0; i < r->layers; i++) {
        int last = i == r->layers - 1;
        layer_name(name, sizeof name, prefix, "convs", i);
        if (r->method == DLP_PRETRAIN_GAE) {
            PUSH(net->seq, DLP__NN_L_SAGE);
            TRY(dlp__nn_sage_init(&L->u.sage, ps, name, in, H, DLP__NN_AGG_MEAN, 0));
            in = H;
            if (last) break;   /* Z is the last conv's output, as is */
            layer_name(name, sizeof name, prefix, "norms", i);
            PUSH(net->seq, DLP__NN_L_BATCHNORM);
            TRY(dlp__nn_batchnorm_init(&L->u.bn, ps, name, H));
            PUSH(net->seq, DLP__NN_L_ACT);
            TRY(dlp__nn_act_init(&L->u.act, ps, NULL, DLP__NN_ACT_RELU, H, 0, 0));
        } else {
            PUSH(net->seq, DLP__NN_L_GIN);
            TRY(dlp__nn_gin_init(&L->u.gin, ps, name, in, H, H, 0.0f, 0, 1));
            in = H;
            layer_name(name, sizeof name, prefix, "norms", i);
            PUSH(net->seq, DLP__NN_L_BATCHNORM);
            TRY(dlp__nn_batchnorm_init(&L->u.bn, ps, name, H));
            layer_name(name, sizeof name, prefix, "acts", i);
            PUSH(net->seq, DLP__NN_L_ACT);
            TRY(dlp__nn_act_init(&L->u.act, ps, name, DLP__NN_ACT_PRELU, H, 0, 1));
        }
        if (p > 0) {
            PUSH(net->seq, DLP__NN_L_DROPOUT);
            TRY(dlp__nn_dropout_init(&L->u.drop, H, p));
        }
    }
    if (!trainable)
        for (int i = t0; i < ps->n; i++) ps->t[i].trainable = 0;
    return DLP_OK;
fail:
    dlp__nn_seq_free(&net->seq);
    return dlp__err(err, st, "encoder: cannot declare the %s network (%s)", dlp_pretrain_method_name(r->method),
                    dlp_status_str(st));
}

void dlp__enc_net_free(dlp__enc_net *net) {
    if (!net) return;
    dlp__nn_seq_free(&net->seq);
}

/* Declare everything (network, then GraphMAE's decoder side) and allocate. */
static dlp_status enc_build(dlp_encoder *e, dlp_error *err) {
    dlp_status st = dlp__enc_declare(&e->net, &e->ps, "encoder", &e->r, 1, err);
    if (st != DLP_OK) return st;
    e->token = -1;
    if (e->r.method == DLP_PRETRAIN_GRAPHMAE) {
        int H = e->r.hidden;
        dlp__nn_layer *L;
        /* GraphMAE: nn.Parameter(torch.zeros(1, in_dim)) */
        e->token = dlp__nn_params_add(&e->ps, NULL, "enc_mask_token", 2, 1, e->r.n_feat, DLP__NN_INIT_ZEROS, 0, 1);
        if (e->token < 0) {
            st = DLP_ENOMEM;
            goto fail;
        }
        TRY(dlp__nn_linear_init(&e->e2d, &e->ps, "encoder_to_decoder", H, H, 0));
        PUSH(e->dec, DLP__NN_L_GIN);
        TRY(dlp__nn_gin_init(&L->u.gin, &e->ps, "decoder.convs.0", H, H, e->r.n_feat, 0.0f, 0, 1));
    }
    TRY(dlp__nn_params_alloc(&e->ps));
    e->info.n_params = dlp__nn_params_trainable(&e->ps);
    return DLP_OK;
fail:
    return dlp__err(err, st, "encoder: cannot build the %s decoder (%s)", dlp_pretrain_method_name(e->r.method),
                    dlp_status_str(st));
}
#undef PUSH
#undef TRY

void dlp_encoder_free(dlp_encoder *e) {
    if (!e) return;
    dlp__enc_net_free(&e->net);
    dlp__nn_seq_free(&e->dec);
    dlp__nn_params_free(&e->ps);
    free(e);
}

void dlp_encoder_info_get(const dlp_encoder *e, dlp_encoder_info *out) {
    if (!e) {
        memset(out, 0, sizeof *out);
        out->final_loss = out->val_loss = NAN;
        return;
    }
    *out = e->info;
}

int dlp_encoder_dim(const dlp_encoder *e) { return e ? e->r.hidden : 0; }

void dlp__enc_recipe_get(const dlp_encoder *e, dlp__enc_recipe *r) { *r = e->r; }
dlp__nn_params *dlp__encoder_params(dlp_encoder *e) { return &e->ps; }
dlp__enc_net *dlp__encoder_net(dlp_encoder *e) { return &e->net; }

/* Copy every "encoder." tensor of `from` into the tensor of the same name in
 * `to`, after checking that both stores hold the same set with the same
 * shapes (names in messages: fname, tname). */
static dlp_status copy_encoder_tensors(const dlp__nn_params *from, const char *fname, dlp__nn_params *to,
                                       const char *tname, dlp_error *err) {
    static const char pre[] = "encoder.";
    size_t np = sizeof pre - 1;
    for (int pass = 0; pass < 2; pass++) {
        const dlp__nn_params *a = pass ? to : from, *b = pass ? from : to;
        const char *an = pass ? tname : fname, *bn = pass ? fname : tname;
        for (int i = 0; i < a->n; i++) {
            const dlp__nn_ptensor *t = &a->t[i];
            if (strncmp(t->name, pre, np)) continue;
            int j = dlp__nn_params_find(b, t->name);
            if (j < 0) return dlp__err(err, DLP_EINVAL, "encoder weights: %s has tensor '%s', %s has none", an, t->name, bn);
            const dlp__nn_ptensor *u = &b->t[j];
            if (u->numel != t->numel || u->ndim != t->ndim || u->dims[0] != t->dims[0] || u->dims[1] != t->dims[1])
                return dlp__err(err, DLP_EINVAL, "encoder weights: tensor '%s' is %dx%d in %s, %dx%d in %s", t->name,
                                t->dims[0], t->dims[1], an, u->dims[0], u->dims[1], bn);
            if (!pass) memcpy(dlp__nn_pv(to, j), dlp__nn_pv(from, i), sizeof(float) * (size_t)t->numel);
        }
    }
    return DLP_OK;
}

dlp_status dlp__enc_copy_weights(const dlp_encoder *e, dlp__nn_params *ps, dlp_error *err) {
    return copy_encoder_tensors(&e->ps, "the encoder", ps, "the model", err);
}

dlp_status dlp__encoder_from_params(const dlp__enc_recipe *r, const dlp__nn_params *ps, dlp_encoder **out,
                                    dlp_error *err) {
    *out = NULL;
    dlp_pretrain_opts o;
    memset(&o, 0, sizeof o);
    o.method = r->method;
    o.hidden = r->hidden;
    o.layers = r->layers;
    o.dropout = r->dropout > 0 ? r->dropout : -1;
    dlp_encoder *e = NULL;
    dlp_status st = dlp_encoder_new(&o, r->layout, &e, err);
    if (st != DLP_OK) return st;
    if (e->r.n_feat != r->n_feat || e->r.layout_version != r->layout_version) {
        dlp__err(err, DLP_EVERSION, "encoder: the model's encoder reads %d columns (layout version %d), this "
                 "dlperf builds %d (version %d)", r->n_feat, r->layout_version, e->r.n_feat, e->r.layout_version);
        dlp_encoder_free(e);
        return DLP_EVERSION;
    }
    /* the model's frozen copy holds exactly the network's tensors */
    if ((st = copy_encoder_tensors(ps, "the model", &e->ps, "the encoder", err)) != DLP_OK) {
        dlp_encoder_free(e);
        return st;
    }
    *out = e;
    return DLP_OK;
}

/* ---- batches ---------------------------------------------------------------- */

static dlp_status check_features(const dlp_encoder *e, const dlp_features *f, dlp_error *err) {
    if (!f) return dlp__err(err, DLP_EINVAL, "encoder: no features");
    const char *nm = f->name[0] ? f->name : "graph";
    if (f->layout != e->r.layout)
        return dlp__err(err, DLP_EINVAL, "%s: features are in layout %s, the encoder wants %s", nm,
                        dlp_layout_name(f->layout), dlp_layout_name(e->r.layout));
    if (f->layout_version != e->r.layout_version || f->n_feat != e->r.n_feat)
        return dlp__err(err, DLP_EVERSION,
                        "%s: features are %s layout version %d (%d columns), the encoder was built for version "
                        "%d (%d columns)",
                        nm, dlp_layout_name(f->layout), f->layout_version, f->n_feat, e->r.layout_version,
                        e->r.n_feat);
    if (f->n_nodes < 1) return dlp__err(err, DLP_EINVAL, "%s: graph has no nodes", nm);
    int bad = !f->x || !f->rowptr || (f->n_edges && !f->col) || f->n_edges < 0 || f->rowptr[0] != 0 ||
              f->rowptr[f->n_nodes] != f->n_edges;
    for (int i = 0; i < f->n_nodes && !bad; i++) bad = f->rowptr[i] > f->rowptr[i + 1];
    for (int e2 = 0; e2 < f->n_edges && !bad; e2++) bad = f->col[e2] < 0 || f->col[e2] >= f->n_nodes;
    if (bad) return dlp__err(err, DLP_EINVAL, "%s: inconsistent CSR adjacency", nm);
    return DLP_OK;
}

/* k graphs stacked block-diagonally; off[q] is graph q's first node. */
typedef struct {
    dlp__nn_graph g;
    int has_graph, k;
    int32_t n;                /* nodes in all                                  */
    int64_t n_edges;
    int32_t *off;             /* (k + 1)                                       */
    float *x;                 /* (n, n_feat)                                   */
    const dlp_features *const *fs;
} batch_t;

static dlp_status make_batch(dlp__nn_ws *ws, const dlp_features *const *fs, int k, int nf, batch_t *b,
                             dlp_error *err) {
    memset(b, 0, sizeof *b);
    b->k = k;
    b->fs = fs;
    int64_t nn = 0, ne = 0;
    for (int q = 0; q < k; q++) {
        nn += fs[q]->n_nodes;
        ne += fs[q]->n_edges;
    }
    b->n = (int32_t)nn;
    b->n_edges = ne;
    b->off = dlp__nn_ws_ints(ws, (size_t)k + 1);
    if (!b->off) return dlp__err(err, DLP_ENOMEM, "encoder: out of memory (batch)");
    dlp_status st = dlp__nn_collate_features(ws, fs, k, nf, &b->g, &b->x, b->off, "encoder", err);
    if (st != DLP_OK) return st;
    b->has_graph = 1;
    return DLP_OK;
}

static void free_batch(batch_t *b) {
    if (b->has_graph) dlp__nn_graph_free(&b->g);
    b->has_graph = 0;
}

/* ---- one step --------------------------------------------------------------- */

/* The layer lists a step runs: the encoder's own for training, private
 * copies for concurrent evaluation (layers cache pointers in their structs). */
typedef struct {
    dlp__nn_seq enc, dec;
    dlp__nn_linear e2d;
    int owned;
} nets_t;

static int nets_clone(const dlp_encoder *e, nets_t *n) {
    memset(n, 0, sizeof *n);
    n->owned = 1;
    n->e2d = e->e2d;
    if (dlp__nn_seq_clone(&e->net.seq, &n->enc) || dlp__nn_seq_clone(&e->dec, &n->dec)) {
        dlp__nn_seq_free(&n->enc);
        dlp__nn_seq_free(&n->dec);
        return -1;
    }
    return 0;
}

static void nets_own(dlp_encoder *e, nets_t *n) {
    memset(n, 0, sizeof *n);
    n->enc = e->net.seq;
    n->dec = e->dec;
    n->e2d = e->e2d;
}

/* Hand the (possibly updated) cached layer state back after a step on the
 * encoder's own lists: the seq structs were copied by value. */
static void nets_return(dlp_encoder *e, nets_t *n) {
    if (n->owned) {
        dlp__nn_seq_free(&n->enc);
        dlp__nn_seq_free(&n->dec);
        return;
    }
    e->net.seq = n->enc;
    e->dec = n->dec;
    e->e2d = n->e2d;
}

static int adjacent(const dlp_features *f, int32_t u, int32_t v) {
    for (int32_t e = f->rowptr[u]; e < f->rowptr[u + 1]; e++)
        if (f->col[e] == v) return 1;
    for (int32_t e = f->rowptr[v]; e < f->rowptr[v + 1]; e++)
        if (f->col[e] == u) return 1;
    return 0;
}

#define WS_FLOATS(p, n)                          \
    do {                                         \
        if (!((p) = dlp__nn_ws_floats(ws, (n)))) \
            return DLP_ENOMEM;                   \
    } while (0)
#define WS_ZEROS(p, n)                          \
    do {                                        \
        if (!((p) = dlp__nn_ws_zeros(ws, (n)))) \
            return DLP_ENOMEM;                  \
    } while (0)

static dlp_status step_gae(const dlp_encoder *e, nets_t *nt, dlp__nn_ctx *cx, batch_t *b, dlp__nn_rng *aux,
                           int backward, double *loss, int *skipped) {
    dlp__nn_ws *ws = cx->ws;
    int H = e->r.hidden, ratio = e->info.neg_ratio;
    if (b->n_edges == 0 || (cx->training && b->n < 2)) {
        *skipped = 1;
        return DLP_OK;
    }
    int64_t n_neg_max = (int64_t)ratio * b->n_edges;
    if (b->n_edges + n_neg_max > INT32_MAX / 4) return DLP_EINVAL;
    int32_t *pos = dlp__nn_ws_ints(ws, 2 * (size_t)b->n_edges);
    int32_t *neg = dlp__nn_ws_ints(ws, 2 * (size_t)(n_neg_max > 0 ? n_neg_max : 1));
    if (!pos || !neg) return DLP_ENOMEM;
    int n_pos = 0, n_neg = 0;
    for (int q = 0; q < b->k; q++) {
        const dlp_features *f = b->fs[q];
        int32_t o = b->off[q];
        for (int32_t i = 0; i < f->n_nodes; i++)
            for (int32_t ei = f->rowptr[i]; ei < f->rowptr[i + 1]; ei++) {
                pos[2 * n_pos] = o + i;
                pos[2 * n_pos + 1] = o + f->col[ei];
                n_pos++;
            }
        if (f->n_nodes < 2) continue;
        int64_t want = (int64_t)ratio * f->n_edges;
        for (int64_t t = 0; t < want; t++) {
            int32_t u, v;
            int tries = 0;
            do {
                u = (int32_t)dlp__nn_rng_below(aux, (uint32_t)f->n_nodes);
                v = (int32_t)dlp__nn_rng_below(aux, (uint32_t)f->n_nodes - 1);
                if (v >= u) v++;   /* u != v, uniform over the other nodes */
            } while (adjacent(f, u, v) && ++tries < NEG_TRIES);
            neg[2 * n_neg] = o + u;
            neg[2 * n_neg + 1] = o + v;
            n_neg++;
        }
    }
    const float *z;
    int rows;
    dlp_status st = dlp__nn_seq_forward(&nt->enc, cx, &b->g, b->x, b->n, &z, &rows);
    if (st != DLP_OK) return st;
    float *sp, *sn, *gp, *gn;
    WS_FLOATS(sp, (size_t)n_pos);
    WS_FLOATS(sn, (size_t)(n_neg > 0 ? n_neg : 1));
    WS_FLOATS(gp, (size_t)n_pos);
    WS_FLOATS(gn, (size_t)(n_neg > 0 ? n_neg : 1));
    dlp__nn_inner_product(z, H, pos, n_pos, sp);
    dlp__nn_inner_product(z, H, neg, n_neg, sn);
    *loss = dlp__nn_loss_gae_bce(sp, n_pos, sn, n_neg, GAE_EPS, gp, gn);
    if (!backward) return DLP_OK;
    float *dz;
    WS_ZEROS(dz, (size_t)b->n * H);
    dlp__nn_inner_product_backward(z, H, pos, n_pos, gp, dz);
    dlp__nn_inner_product_backward(z, H, neg, n_neg, gn, dz);
    return dlp__nn_seq_backward(&nt->enc, cx, &b->g, dz, NULL);
}

static dlp_status step_mae(const dlp_encoder *e, nets_t *nt, dlp__nn_ctx *cx, batch_t *b, dlp__nn_rng *aux,
                           int backward, double *loss, int *skipped) {
    dlp__nn_ws *ws = cx->ws;
    int H = e->r.hidden, F = e->r.n_feat, N = b->n;
    /* int(mask_rate * N) as GraphMAE's encoding_mask_noise */
    int n_mask = (int)(e->info.mask_rate * N);
    if (n_mask > N) n_mask = N;
    if (n_mask < 1 || (cx->training && N < 2)) {
        *skipped = 1;
        return DLP_OK;
    }
    int32_t *idx = dlp__nn_ws_ints(ws, (size_t)N), *src = dlp__nn_ws_ints(ws, (size_t)N);
    uint8_t *masked = dlp__nn_ws_alloc(ws, (size_t)N);
    if (!idx || !src || !masked) return DLP_ENOMEM;
    for (int32_t i = 0; i < N; i++) {
        idx[i] = i;
        src[i] = i;
        masked[i] = 0;
    }
    /* the first n_mask of a seeded permutation; the first n_noise of those
     * (a uniform subset: the order is random) take another node's row.
     * GraphMAE floors both counts separately, which can leave a masked node
     * neither replaced nor tokenised; here token = masked - noise. */
    for (int i = 0; i < n_mask; i++) {
        int j = i + (int)dlp__nn_rng_below(aux, (uint32_t)(N - i));
        int32_t t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
    }
    int n_noise = (int)(e->info.replace_rate * n_mask);
    for (int i = 0; i < n_mask; i++) {
        int32_t r = idx[i];
        masked[r] = 1;
        if (i < n_noise && N > 1) {
            int32_t o = (int32_t)dlp__nn_rng_below(aux, (uint32_t)N - 1);
            src[r] = o >= r ? o + 1 : o;
        } else {
            src[r] = -1;
        }
    }
    float *xm, *rep, *rep2, *xr, *xo, *g;
    const float *h, *rec;
    int rows;
    WS_FLOATS(xm, (size_t)N * F);
    dlp__nn_mask_token_forward(b->x, N, F, src, dlp__nn_pv(cx->ps, e->token), xm);
    dlp_status st = dlp__nn_seq_forward(&nt->enc, cx, &b->g, xm, N, &h, &rows);
    if (st != DLP_OK) return st;
    WS_FLOATS(rep, (size_t)N * H);
    if ((st = dlp__nn_linear_forward(&nt->e2d, cx, h, N, rep)) != DLP_OK) return st;
    WS_FLOATS(rep2, (size_t)N * H);
    dlp__nn_remask_forward(rep, N, H, masked, rep2);
    if ((st = dlp__nn_seq_forward(&nt->dec, cx, &b->g, rep2, N, &rec, &rows)) != DLP_OK) return st;
    WS_FLOATS(xr, (size_t)n_mask * F);
    WS_FLOATS(xo, (size_t)n_mask * F);
    WS_FLOATS(g, (size_t)n_mask * F);
    dlp__nn_gather_rows(rec, F, idx, n_mask, xr);
    dlp__nn_gather_rows(b->x, F, idx, n_mask, xo);
    /* an all-zero original row has cos 0 whatever the reconstruction: it
     * adds a constant 1 and no gradient (F.normalize's eps), never a NaN */
    *loss = dlp__nn_loss_sce(xr, xo, n_mask, F, (float)e->info.alpha, g);
    if (!backward) return DLP_OK;
    float *drec, *drep2, *drep, *dh, *dxm;
    WS_ZEROS(drec, (size_t)N * F);
    dlp__nn_gather_rows_backward(g, F, idx, n_mask, drec);
    WS_ZEROS(drep2, (size_t)N * H);
    if ((st = dlp__nn_seq_backward(&nt->dec, cx, &b->g, drec, drep2)) != DLP_OK) return st;
    WS_ZEROS(drep, (size_t)N * H);
    dlp__nn_remask_backward(drep2, N, H, masked, drep);
    WS_ZEROS(dh, (size_t)N * H);
    if ((st = dlp__nn_linear_backward(&nt->e2d, cx, drep, dh)) != DLP_OK) return st;
    WS_ZEROS(dxm, (size_t)N * F);
    if ((st = dlp__nn_seq_backward(&nt->enc, cx, &b->g, dh, dxm)) != DLP_OK) return st;
    dlp__nn_mask_token_backward(dxm, N, F, src, dlp__nn_pg(cx->ps, e->token), NULL);
    return DLP_OK;
}
#undef WS_FLOATS
#undef WS_ZEROS

static dlp_status run_step(const dlp_encoder *e, nets_t *nt, dlp__nn_ctx *cx, batch_t *b, dlp__nn_rng *aux,
                           int backward, double *loss, int *skipped) {
    *loss = 0;
    *skipped = 0;
    return e->r.method == DLP_PRETRAIN_GAE ? step_gae(e, nt, cx, b, aux, backward, loss, skipped)
                                           : step_mae(e, nt, cx, b, aux, backward, loss, skipped);
}

dlp_status dlp__encoder_step(dlp_encoder *e, const dlp_features *const *fs, int k, uint64_t seed, int training,
                             int backward, double *loss, int *skipped, dlp_error *err) {
    if (!e || !fs || k < 1 || !loss || !skipped) return dlp__err(err, DLP_EINVAL, "encoder step: bad arguments");
    for (int q = 0; q < k; q++) {
        dlp_status st = check_features(e, fs[q], err);
        if (st != DLP_OK) return st;
    }
    dlp__nn_ws ws = {0};
    dlp__nn_ctx cx;
    dlp__nn_ctx_init(&cx, &e->ps, &ws, seed ^ SEED_DROPOUT, training);
    dlp__nn_rng aux;
    dlp__nn_rng_seed(&aux, seed ^ SEED_AUX);
    batch_t b;
    nets_t nt;
    nets_own(e, &nt);
    dlp_status st = make_batch(&ws, fs, k, e->r.n_feat, &b, err);
    if (st == DLP_OK) {
        if (backward) dlp__nn_zero_grad(&e->ps);
        st = run_step(e, &nt, &cx, &b, &aux, backward, loss, skipped);
        if (st != DLP_OK) dlp__err(err, st, "encoder step: %s", dlp_status_str(st));
    }
    nets_return(e, &nt);
    free_batch(&b);
    dlp__nn_ws_free(&ws);
    return st;
}

/* ---- graph sources: a corpus on disk or an array in memory ----------------- */

typedef struct {
    const dlp_corpus *c;
    const dlp_features *const *fs;
    int64_t n;
} src_t;

static dlp_status src_get(const src_t *s, int64_t i, const dlp_features **f, dlp_features **owned,
                          dlp_error *err) {
    *owned = NULL;
    if (s->fs) {
        *f = s->fs[i];
        return DLP_OK;
    }
    dlp_status st = dlp_corpus_read(s->c, i, owned, err);
    *f = *owned;
    return st;
}

static void src_fingerprint(const src_t *s, int64_t *count, uint64_t *hash) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int64_t i = 0; i < s->n; i++) {
        const char *nm = s->fs ? s->fs[i]->name : dlp_corpus_name(s->c, i);
        int64_t nodes = s->fs ? s->fs[i]->n_nodes : dlp_corpus_nodes(s->c, i);
        if (!nm) nm = "";
        h = dlp__hash_bytes(nm, strlen(nm) + 1, h);
        h = dlp__hash_bytes(&nodes, sizeof nodes, h);
    }
    *count = s->n;
    *hash = h;
}

/* Reads graphs idx[0..k) into fs (owned copies in own[] to free). */
static dlp_status read_batch(const dlp_encoder *e, const src_t *s, const int64_t *idx, int k,
                             const dlp_features **fs, dlp_features **own, dlp_error *err) {
    for (int q = 0; q < k; q++) own[q] = NULL;
    for (int q = 0; q < k; q++) {
        dlp_status st = src_get(s, idx[q], &fs[q], &own[q], err);
        if (st == DLP_OK) st = check_features(e, fs[q], err);
        if (st != DLP_OK) return st;
    }
    return DLP_OK;
}

static void free_owned(dlp_features **own, int k) {
    for (int q = 0; q < k; q++) {
        dlp_features_free(own[q]);
        own[q] = NULL;
    }
}

/* ---- loss on a set of graphs -------------------------------------------------- */

static dlp_status loss_src(const dlp_encoder *e, const src_t *s, const int64_t *idx, int64_t n, uint64_t seed,
                           double *loss, dlp_error *err) {
    *loss = NAN;
    if (!idx) n = s->n;   /* NULL idx: every graph */
    if (!e || n < 0 || (n > 0 && !s->fs && !s->c)) return dlp__err(err, DLP_EINVAL, "encoder loss: bad arguments");
    for (int64_t i = 0; idx && i < n; i++)
        if (idx[i] < 0 || idx[i] >= s->n)
            return dlp__err(err, DLP_EINVAL, "encoder loss: graph %lld out of range (%lld graphs)",
                            (long long)idx[i], (long long)s->n);
    int B = e->info.batch_size > 0 ? e->info.batch_size : 32;
    nets_t nt;
    if (nets_clone(e, &nt)) return dlp__err(err, DLP_ENOMEM, "encoder loss: out of memory");
    const dlp_features **fs = malloc(sizeof *fs * (size_t)B);
    dlp_features **own = calloc((size_t)B, sizeof *own);
    int64_t *ids = malloc(sizeof *ids * (size_t)B);
    dlp__nn_ws ws = {0};
    dlp_status st = DLP_OK;
    if (!fs || !own || !ids) {
        st = dlp__err(err, DLP_ENOMEM, "encoder loss: out of memory");
        goto done;
    }
    dlp__nn_ctx cx;
    /* eval mode: only reads the store (BatchNorm running stats unchanged) */
    dlp__nn_ctx_init(&cx, (dlp__nn_params *)&e->ps, &ws, seed ^ SEED_DROPOUT, 0);
    dlp__nn_rng aux;
    dlp__nn_rng_seed(&aux, seed);
    double total = 0;
    int64_t w = 0;
    for (int64_t b0 = 0; b0 < n; b0 += B) {
        int k = n - b0 < B ? (int)(n - b0) : B;
        for (int q = 0; q < k; q++) ids[q] = idx ? idx[b0 + q] : b0 + q;
        st = read_batch(e, s, ids, k, fs, own, err);
        batch_t b = {0};
        if (st == DLP_OK) {
            dlp__nn_ws_reset(&ws);
            st = make_batch(&ws, fs, k, e->r.n_feat, &b, err);
        }
        if (st == DLP_OK) {
            double l;
            int skipped;
            st = run_step(e, &nt, &cx, &b, &aux, 0, &l, &skipped);
            if (st != DLP_OK) dlp__err(err, st, "encoder loss: forward failed (%s)", dlp_status_str(st));
            else if (!skipped) {
                total += l * k;
                w += k;
            }
        }
        free_batch(&b);
        free_owned(own, k);
        if (st != DLP_OK) goto done;
    }
    *loss = w ? total / (double)w : NAN;
done:
    nets_return((dlp_encoder *)e, &nt);
    dlp__nn_ws_free(&ws);
    free(fs);
    free(own);
    free(ids);
    return st;
}

dlp_status dlp_encoder_loss(const dlp_encoder *e, const dlp_corpus *c, const int64_t *idx, int64_t n,
                            uint64_t seed, double *loss, dlp_error *err) {
    if (!c || !loss) return dlp__err(err, DLP_EINVAL, "encoder loss: no corpus");
    src_t s = {c, NULL, dlp_corpus_count(c)};
    return loss_src(e, &s, idx, n, seed, loss, err);
}

dlp_status dlp__encoder_loss_feats(const dlp_encoder *e, const dlp_features *const *fs, int64_t n, uint64_t seed,
                                   double *loss, dlp_error *err) {
    if (!loss || (n > 0 && !fs)) return dlp__err(err, DLP_EINVAL, "encoder loss: no graphs");
    src_t s = {NULL, fs, n};
    return loss_src(e, &s, NULL, n, seed, loss, err);
}

/* ---- embeddings ---------------------------------------------------------------- */

dlp_status dlp__enc_pool(dlp__enc_net *net, dlp__nn_ctx *cx, const dlp__nn_graph *g, const float *x, float *out) {
    if (!net || !cx || !g || !x || !out) return DLP_EINVAL;
    dlp__nn_ctx ev = *cx;
    ev.training = 0;   /* running statistics, no dropout */
    const float *y;
    int rows;
    dlp_status st = dlp__nn_seq_forward(&net->seq, &ev, g, x, g->n_nodes, &y, &rows);
    if (st != DLP_OK) return st;
    if (rows != g->n_nodes) return DLP_EINTERNAL;
    dlp__nn_pool(g, DLP__NN_AGG_SUM, y, net->r.hidden, out, NULL);
    return DLP_OK;
}

dlp_status dlp_encoder_embed(const dlp_encoder *e, const dlp_features *f, float *out, dlp_error *err) {
    if (!e || !out) return dlp__err(err, DLP_EINVAL, "encoder embed: bad arguments");
    dlp_status st = check_features(e, f, err);
    if (st != DLP_OK) return st;
    dlp__enc_net net = {e->r, {0}};
    if (dlp__nn_seq_clone(&e->net.seq, &net.seq))
        return dlp__err(err, DLP_ENOMEM, "encoder embed: out of memory");
    dlp__nn_ws ws = {0};
    dlp__nn_ctx cx;
    dlp__nn_ctx_init(&cx, (dlp__nn_params *)&e->ps, &ws, 0, 0);
    batch_t b;
    st = make_batch(&ws, &f, 1, e->r.n_feat, &b, err);
    if (st == DLP_OK) {
        st = dlp__enc_pool(&net, &cx, &b.g, b.x, out);
        if (st != DLP_OK) dlp__err(err, st, "%s: encoder forward failed (%s)", f->name[0] ? f->name : "graph",
                                   dlp_status_str(st));
    }
    free_batch(&b);
    dlp__nn_ws_free(&ws);
    dlp__nn_seq_free(&net.seq);
    return st;
}

/* ---- creation -------------------------------------------------------------------- */

static void fill_defaults(dlp_pretrain_opts *o) {
    int mae = o->method == DLP_PRETRAIN_GRAPHMAE;
    if (!o->hidden) o->hidden = mae ? 1024 : 512;
    if (!o->layers) o->layers = mae ? 5 : 4;
    if (o->dropout == 0) o->dropout = mae ? 0.2 : 0.5;
    else if (o->dropout < 0) o->dropout = 0;
    if (mae) {
        if (o->mask_rate == 0) o->mask_rate = 0.5;
        if (o->replace_rate == 0) o->replace_rate = 0.1;
        else if (o->replace_rate < 0) o->replace_rate = 0;
        if (o->alpha == 0) o->alpha = 2;
        o->neg_ratio = 0;   /* not part of this recipe */
    } else {
        if (!o->neg_ratio) o->neg_ratio = 1;
        o->mask_rate = o->replace_rate = o->alpha = 0;
    }
    if (o->lr == 0) o->lr = 5e-4;
    if (!o->epochs) o->epochs = mae ? 500 : 400;
    if (!o->batch_size) o->batch_size = mae ? 128 : 32;
    if (!o->checkpoint_every) o->checkpoint_every = 1;
}

static dlp_status check_opts(const dlp_pretrain_opts *o, dlp_error *err) {
    const char *bad = NULL;
    int mae = o->method == DLP_PRETRAIN_GRAPHMAE;
    if (o->method != DLP_PRETRAIN_GAE && !mae) bad = "method";
    else if (o->hidden < 1 || o->hidden > (1 << 16)) bad = "hidden";
    else if (o->layers < 1 || o->layers > MAX_LAYERS) bad = "layers";
    else if (!(o->dropout >= 0 && o->dropout < 1)) bad = "dropout";
    else if (mae && !(o->mask_rate > 0 && o->mask_rate <= 1)) bad = "mask_rate";
    else if (mae && !(o->replace_rate >= 0 && o->replace_rate < 1)) bad = "replace_rate";
    else if (mae && !(o->alpha > 0 && isfinite(o->alpha))) bad = "alpha";
    else if (!mae && (o->neg_ratio < 1 || o->neg_ratio > 1000)) bad = "neg_ratio";
    else if (!(o->lr > 0 && isfinite(o->lr))) bad = "lr";
    else if (!(o->weight_decay >= 0 && isfinite(o->weight_decay))) bad = "weight_decay";
    else if (o->epochs < 1) bad = "epochs";
    else if (o->batch_size < 1) bad = "batch_size";
    else if (o->holdout < 0) bad = "holdout";
    else if (o->checkpoint_every < 1) bad = "checkpoint_every";
    if (bad) return dlp__err(err, DLP_EINVAL, "pretrain: option %s is out of range", bad);
    return DLP_OK;
}

static int layout_version_of(int layout) {
    return layout == DLP_LAYOUT_TRAPPM ? DLP_LAYOUT_TRAPPM_VERSION
           : layout == DLP_LAYOUT_DIPPM ? DLP_LAYOUT_DIPPM_VERSION
                                        : 0;
}

/* A built, initialised, untrained encoder for the (defaulted) options. */
static dlp_status enc_create(const dlp_pretrain_opts *o, int layout, int layout_version, int n_feat,
                             dlp_encoder **out, dlp_error *err) {
    *out = NULL;
    dlp_encoder *e = calloc(1, sizeof *e);
    if (!e) return dlp__err(err, DLP_ENOMEM, "encoder: out of memory");
    dlp_encoder_info *h = &e->info;
    h->method = o->method;
    h->hidden = o->hidden;
    h->layers = o->layers;
    h->neg_ratio = o->neg_ratio;
    h->batch_size = o->batch_size;
    h->epochs = o->epochs;
    h->dropout = o->dropout;
    h->mask_rate = o->mask_rate;
    h->replace_rate = o->replace_rate;
    h->alpha = o->alpha;
    h->lr = o->lr;
    h->weight_decay = o->weight_decay;
    h->seed = o->seed;
    h->layout = layout;
    h->layout_version = layout_version;
    h->n_feat = n_feat;
    h->final_loss = h->val_loss = NAN;
    e->r = (dlp__enc_recipe){o->method, n_feat, o->hidden, o->layers, o->dropout, layout, layout_version};
    dlp_status st = enc_build(e, err);
    if (st != DLP_OK) {
        dlp_encoder_free(e);
        return st;
    }
    dlp__nn_params_init(&e->ps, o->seed);
    *out = e;
    return DLP_OK;
}

dlp_status dlp_encoder_new(const dlp_pretrain_opts *opts, dlp_layout layout, dlp_encoder **out, dlp_error *err) {
    if (!out) return dlp__err(err, DLP_EINVAL, "encoder: no output");
    *out = NULL;
    if (!opts) return dlp__err(err, DLP_EINVAL, "encoder: no options");
    dlp_pretrain_opts o = *opts;
    fill_defaults(&o);
    dlp_status st = check_opts(&o, err);
    if (st != DLP_OK) return st;
    if (!layout) layout = DLP_LAYOUT_TRAPPM;
    int w = dlp_layout_width(layout);
    if (!w) return dlp__err(err, DLP_EINVAL, "encoder: unknown feature layout %d", layout);
    return enc_create(&o, layout, layout_version_of(layout), w, out, err);
}

/* ---- .dlpm header ---------------------------------------------------------------- */

static cJSON *header_obj(const dlp_encoder *e, const char *kind) {
    const dlp_encoder_info *h = &e->info;
    cJSON *r = cJSON_CreateObject();
    if (!r) return NULL;
    cJSON_AddStringToObject(r, "kind", kind);
    cJSON_AddNumberToObject(r, "encoder_format", ENC_FORMAT);
    cJSON_AddStringToObject(r, "dlperf", DLP_VERSION_STRING);
    cJSON_AddStringToObject(r, "method", dlp_pretrain_method_name(h->method));
    cJSON_AddNumberToObject(r, "hidden", h->hidden);
    cJSON_AddNumberToObject(r, "layers", h->layers);
    cJSON_AddNumberToObject(r, "dropout", h->dropout);
    cJSON_AddNumberToObject(r, "mask_rate", h->mask_rate);
    cJSON_AddNumberToObject(r, "replace_rate", h->replace_rate);
    cJSON_AddNumberToObject(r, "alpha", h->alpha);
    cJSON_AddNumberToObject(r, "neg_ratio", h->neg_ratio);
    cJSON *tr = cJSON_AddObjectToObject(r, "training");
    cJSON_AddStringToObject(tr, "optimizer", "adam");
    cJSON_AddNumberToObject(tr, "lr", h->lr);
    cJSON_AddNumberToObject(tr, "weight_decay", h->weight_decay);
    cJSON_AddNumberToObject(tr, "batch_size", h->batch_size);
    cJSON_AddNumberToObject(tr, "epochs", h->epochs);
    cJSON_AddNumberToObject(tr, "epochs_run", h->epochs_run);
    dlp__dlpm_add_hex(tr, "seed", h->seed);
    cJSON_AddNumberToObject(tr, "n_graphs", (double)h->n_graphs);
    cJSON_AddNumberToObject(tr, "n_holdout", (double)h->n_holdout);
    dlp__dlpm_add_num_or_null(tr, "final_loss", h->final_loss);
    dlp__dlpm_add_num_or_null(tr, "val_loss", h->val_loss);
    cJSON_AddNumberToObject(tr, "seconds", h->train_seconds);
    cJSON_AddNumberToObject(tr, "corpus_count", (double)e->corpus_count);
    dlp__dlpm_add_hex(tr, "corpus_hash", e->corpus_hash);
    cJSON *in = cJSON_AddObjectToObject(r, "input");
    cJSON_AddStringToObject(in, "layout", dlp_layout_name(h->layout));
    cJSON_AddNumberToObject(in, "layout_id", h->layout);
    cJSON_AddNumberToObject(in, "layout_version", h->layout_version);
    cJSON_AddNumberToObject(in, "n_feat", h->n_feat);
    dlp__dlpm_add_tensors(r, &e->ps);
    return r;
}

/* Pack header + payload and write atomically. */
static dlp_status write_dlpm(cJSON *root, const void *payload, uint64_t plen, const char *path, dlp_error *err) {
    char *h = root ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    if (!h) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", path);
    void *buf;
    size_t len;
    dlp_status st = dlp__dlpm_pack(h, strlen(h), payload, plen, &buf, &len, err);
    free(h);
    if (st != DLP_OK) return st;
    st = dlp__write_file_atomic(path, buf, len, err);
    free(buf);
    return st;
}

dlp_status dlp_encoder_save(const dlp_encoder *e, const char *path, dlp_error *err) {
    if (!e || !path) return dlp__err(err, DLP_EINVAL, "encoder save: bad arguments");
    return write_dlpm(header_obj(e, "encoder"), e->ps.data, (uint64_t)e->ps.total * sizeof(float), path, err);
}

/* ---- reading headers ------------------------------------------------------------ */

static double num_or_nan(dlp__dlpm_rd *r, const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (cJSON_IsNull(v)) return NAN;
    return dlp__dlpm_num(r, o, key);
}

/* Rebuild an encoder from a header of kind `want`; the payload is checked
 * by the caller (its size depends on the kind). */
static dlp_status parse_header(dlp_encoder *e, const cJSON *root, dlp__dlpm_rd *r, const char *want) {
    dlp_encoder_info *h = &e->info;
    if (!cJSON_IsObject(root))
        return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: model header is not a JSON object", r->name);
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(root, "kind");
    if (!cJSON_IsString(k)) {
        if (cJSON_GetObjectItemCaseSensitive(root, "xgboost"))
            return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: an XGBoost model, not a pre-trained encoder", r->name);
        return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: model header has no kind", r->name);
    }
    if (strcmp(k->valuestring, want)) {
        if (!strcmp(want, "encoder") && !strcmp(k->valuestring, "encoder-checkpoint"))
            return r->st = dlp__err(r->err, DLP_EFORMAT,
                                    "%s: a pre-training checkpoint, not an encoder (resume the run to finish it)",
                                    r->name);
        return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: a '%s' model, not %s", r->name, k->valuestring,
                                !strcmp(want, "encoder") ? "a pre-trained encoder" : "a pre-training checkpoint");
    }
    int fmt = (int)dlp__dlpm_inum(r, root, "encoder_format", 0, 1 << 30);
    if (r->st == DLP_OK && fmt != ENC_FORMAT)
        return r->st = dlp__err(r->err, DLP_EVERSION, "%s: encoder format %d, this dlperf reads format %d", r->name,
                                fmt, ENC_FORMAT);
    const char *s = dlp__dlpm_str(r, root, "method");
    h->method = dlp__dlpm_enum_of(r, s, dlp_pretrain_method_parse(s), "pre-training method");
    h->hidden = (int)dlp__dlpm_inum(r, root, "hidden", 1, 1 << 16);
    h->layers = (int)dlp__dlpm_inum(r, root, "layers", 1, MAX_LAYERS);
    h->dropout = dlp__dlpm_num(r, root, "dropout");
    h->mask_rate = dlp__dlpm_num(r, root, "mask_rate");
    h->replace_rate = dlp__dlpm_num(r, root, "replace_rate");
    h->alpha = dlp__dlpm_num(r, root, "alpha");
    h->neg_ratio = (int)dlp__dlpm_inum(r, root, "neg_ratio", 0, 1000);
    const cJSON *tr = dlp__dlpm_need(r, root, "training", cJSON_Object);
    if (tr) {
        h->lr = dlp__dlpm_num(r, tr, "lr");
        h->weight_decay = dlp__dlpm_num(r, tr, "weight_decay");
        h->batch_size = (int)dlp__dlpm_inum(r, tr, "batch_size", 1, 1 << 30);
        h->epochs = (int)dlp__dlpm_inum(r, tr, "epochs", 0, 1 << 30);
        h->epochs_run = (int)dlp__dlpm_inum(r, tr, "epochs_run", 0, 1 << 30);
        h->seed = dlp__dlpm_hex64(r, tr, "seed");
        h->n_graphs = dlp__dlpm_inum(r, tr, "n_graphs", 0, INT64_C(1) << 50);
        h->n_holdout = dlp__dlpm_inum(r, tr, "n_holdout", 0, INT64_C(1) << 50);
        h->final_loss = num_or_nan(r, tr, "final_loss");
        h->val_loss = num_or_nan(r, tr, "val_loss");
        h->train_seconds = dlp__dlpm_num(r, tr, "seconds");
        e->corpus_count = dlp__dlpm_inum(r, tr, "corpus_count", 0, INT64_C(1) << 50);
        e->corpus_hash = dlp__dlpm_hex64(r, tr, "corpus_hash");
    }
    const cJSON *in = dlp__dlpm_need(r, root, "input", cJSON_Object);
    if (in) {
        h->layout = (int)dlp__dlpm_inum(r, in, "layout_id", 1, 1 << 20);
        h->layout_version = (int)dlp__dlpm_inum(r, in, "layout_version", 0, 1 << 20);
        h->n_feat = (int)dlp__dlpm_inum(r, in, "n_feat", 1, 1 << 20);
    }
    if (r->st != DLP_OK) return r->st;
    if (!(h->dropout >= 0 && h->dropout < 1) || !(h->mask_rate >= 0 && h->mask_rate <= 1) ||
        !(h->replace_rate >= 0 && h->replace_rate < 1) || !(h->alpha >= 0 && isfinite(h->alpha)) ||
        (h->method == DLP_PRETRAIN_GRAPHMAE && !(h->mask_rate > 0 && h->alpha > 0)) ||
        (h->method == DLP_PRETRAIN_GAE && h->neg_ratio < 1))
        return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: encoder recipe out of range", r->name);
    e->r = (dlp__enc_recipe){h->method, h->n_feat, h->hidden, h->layers, h->dropout, h->layout, h->layout_version};
    dlp_error be = {0};
    if (enc_build(e, &be) != DLP_OK) return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: %s", r->name, be.msg);
    /* the rebuilt size table must be the stored one, tensor by tensor */
    return dlp__dlpm_check_tensors(r, root, &e->ps);
}

static dlp_status check_finite(const float *v, int64_t n, const char *name, dlp_error *err) {
    for (int64_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return dlp__err(err, DLP_EFORMAT, "%s: stored value %lld is not finite", name, (long long)i);
    return DLP_OK;
}

/* An encoder file read in: its mapping, parsed header, the encoder rebuilt
 * from that header and the payload (inside the mapping). */
typedef struct {
    dlp__dlpm_rd r;           /* reports for the file; holds its first error   */
    dlp__mapped mp;
    cJSON *root;
    dlp_encoder *e;           /* close_dlpm frees it unless taken (set NULL)   */
    const uint8_t *payload;
    uint64_t plen;
} dlpm_file;

static void close_dlpm(dlpm_file *f) {
    dlp_encoder_free(f->e);
    cJSON_Delete(f->root);
    dlp__unmap_file(&f->mp);
}

/* Maps path, unpacks the container, parses its JSON and rebuilds a fresh
 * encoder from the header of kind `want`.  On success close_dlpm(f) later;
 * on failure nothing is held. */
static dlp_status open_dlpm(const char *path, const char *want, dlpm_file *f, dlp_error *err) {
    memset(f, 0, sizeof *f);
    f->r = (dlp__dlpm_rd){path, "encoder", err, DLP_OK};
    dlp_status st = dlp__map_file(path, &f->mp, err);
    if (st != DLP_OK) return st;
    st = dlp__dlpm_open(f->mp.data, f->mp.len, path, &f->root, &f->payload, &f->plen, err);
    if (st == DLP_OK && !(f->e = calloc(1, sizeof *f->e))) st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", path);
    if (st == DLP_OK) st = parse_header(f->e, f->root, &f->r, want);
    if (st != DLP_OK) close_dlpm(f);
    return st;
}

dlp_status dlp_encoder_load(const char *path, dlp_encoder **out, dlp_error *err) {
    if (!out || !path) return dlp__err(err, DLP_EINVAL, "encoder load: bad arguments");
    *out = NULL;
    dlpm_file f;
    dlp_status st = open_dlpm(path, "encoder", &f, err);
    if (st != DLP_OK) return st;
    dlp_encoder *e = f.e;
    if ((st = dlp__dlpm_check_payload(&f.r, f.plen, &e->ps)) != DLP_OK) goto done;
    memcpy(e->ps.data, f.payload, (size_t)f.plen);
    if ((st = check_finite(e->ps.data, e->ps.total, path, err)) != DLP_OK) goto done;
    *out = e;
    f.e = NULL;
done:
    close_dlpm(&f);
    return st;
}

/* ---- checkpoints --------------------------------------------------------------- */

/* What a checkpoint holds besides the encoder header and the parameters. */
typedef struct {
    int epoch;                /* epochs completed                              */
    int64_t adam_t;
    dlp__nn_rng shuf, drop, aux;
} ckpt_state;

static void add_rng(cJSON *o, const char *key, const dlp__nn_rng *g) {
    cJSON *a = cJSON_AddArrayToObject(o, key);
    for (int i = 0; a && i < 4; i++) {
        char b[24];
        snprintf(b, sizeof b, "%016llx", (unsigned long long)g->s[i]);
        cJSON_AddItemToArray(a, cJSON_CreateString(b));
    }
}

static void get_rng(dlp__dlpm_rd *r, const cJSON *o, const char *key, dlp__nn_rng *g) {
    const cJSON *a = dlp__dlpm_need(r, o, key, cJSON_Array);
    if (!a) return;
    if (cJSON_GetArraySize(a) != 4) {
        r->st = dlp__err(r->err, DLP_EFORMAT, "%s: checkpoint field '%s' needs 4 words", r->name, key);
        return;
    }
    for (int i = 0; i < 4; i++) {
        const cJSON *v = cJSON_GetArrayItem(a, i);
        g->s[i] = dlp__dlpm_hex_str(r, cJSON_IsString(v) ? v->valuestring : "", key);
    }
}

static dlp_status ckpt_write(const dlp_encoder *e, const dlp__nn_adam *opt, const ckpt_state *cs, const char *path,
                             dlp_error *err) {
    cJSON *root = header_obj(e, "encoder-checkpoint");
    if (!root) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", path);
    cJSON *c = cJSON_AddObjectToObject(root, "checkpoint");
    cJSON_AddNumberToObject(c, "epoch", cs->epoch);
    cJSON_AddNumberToObject(c, "adam_t", (double)cs->adam_t);
    add_rng(c, "rng_shuffle", &cs->shuf);
    add_rng(c, "rng_dropout", &cs->drop);
    add_rng(c, "rng_aux", &cs->aux);
    /* payload: parameters | Adam m | Adam v */
    size_t n = (size_t)e->ps.total;
    float *p = malloc(sizeof *p * (3 * n + 1));
    if (!p) {
        cJSON_Delete(root);
        return dlp__err(err, DLP_ENOMEM, "%s: out of memory", path);
    }
    memcpy(p, e->ps.data, sizeof *p * n);
    memcpy(p + n, opt->m, sizeof *p * n);
    memcpy(p + 2 * n, opt->v, sizeof *p * n);
    dlp_status st = write_dlpm(root, p, (uint64_t)(3 * n) * sizeof *p, path, err);
    free(p);
    return st;
}

/* The first recipe or corpus field in which a checkpoint differs from this
 * run, as "name (checkpoint A, this run B)"; NULL when none. */
static const char *recipe_diff(const dlp_encoder *ck, const dlp_encoder *e, char *buf, size_t n) {
    const dlp_encoder_info *a = &ck->info, *b = &e->info;
#define DIFF_I(field, name)                                                                             \
    if (a->field != b->field) {                                                                         \
        snprintf(buf, n, "%s (checkpoint %lld, this run %lld)", name, (long long)a->field, (long long)b->field); \
        return buf;                                                                                     \
    }
#define DIFF_D(field, name)                                                                 \
    if (a->field != b->field) {                                                             \
        snprintf(buf, n, "%s (checkpoint %.17g, this run %.17g)", name, a->field, b->field); \
        return buf;                                                                         \
    }
    if (a->method != b->method) {
        snprintf(buf, n, "method (checkpoint %s, this run %s)", dlp_pretrain_method_name(a->method),
                 dlp_pretrain_method_name(b->method));
        return buf;
    }
    DIFF_I(hidden, "hidden")
    DIFF_I(layers, "layers")
    DIFF_D(dropout, "dropout")
    DIFF_D(mask_rate, "mask_rate")
    DIFF_D(replace_rate, "replace_rate")
    DIFF_D(alpha, "alpha")
    DIFF_I(neg_ratio, "neg_ratio")
    DIFF_D(lr, "lr")
    DIFF_D(weight_decay, "weight_decay")
    DIFF_I(batch_size, "batch_size")
    if (a->seed != b->seed) {
        snprintf(buf, n, "seed (checkpoint %llu, this run %llu)", (unsigned long long)a->seed,
                 (unsigned long long)b->seed);
        return buf;
    }
    DIFF_I(layout, "layout")
    DIFF_I(layout_version, "layout_version")
    DIFF_I(n_feat, "n_feat")
    DIFF_I(n_holdout, "holdout")
#undef DIFF_I
#undef DIFF_D
    if (ck->corpus_count != e->corpus_count) {
        snprintf(buf, n, "corpus size (checkpoint %lld graphs, this run %lld)", (long long)ck->corpus_count,
                 (long long)e->corpus_count);
        return buf;
    }
    if (ck->corpus_hash != e->corpus_hash) {
        snprintf(buf, n, "corpus graphs (same count, other names or node counts)");
        return buf;
    }
    return NULL;
}

/* Load a checkpoint into e / opt / cs after checking it belongs to this
 * run.  e must already carry this run's recipe and fingerprint. */
static dlp_status ckpt_read(dlp_encoder *e, dlp__nn_adam *opt, ckpt_state *cs, const char *path, dlp_error *err) {
    dlpm_file f;
    dlp_status st = open_dlpm(path, "encoder-checkpoint", &f, err);
    if (st != DLP_OK) return st;
    const dlp_encoder *ck = f.e;
    dlp__dlpm_rd *r = &f.r;
    const uint8_t *payload = f.payload;
    uint64_t pl = f.plen;
    char why[256];
    if (recipe_diff(ck, e, why, sizeof why)) {
        st = dlp__err(err, DLP_EINVAL, "%s: checkpoint of another run: %s", path, why);
        goto done;
    }
    const cJSON *c = dlp__dlpm_need(r, f.root, "checkpoint", cJSON_Object);
    ckpt_state s = {0};
    if (c) {
        s.epoch = (int)dlp__dlpm_inum(r, c, "epoch", 0, 1 << 30);
        s.adam_t = dlp__dlpm_inum(r, c, "adam_t", 0, INT64_C(1) << 52);
        get_rng(r, c, "rng_shuffle", &s.shuf);
        get_rng(r, c, "rng_dropout", &s.drop);
        get_rng(r, c, "rng_aux", &s.aux);
    }
    if ((st = r->st) != DLP_OK) goto done;
    size_t n = (size_t)e->ps.total;
    if (pl != (uint64_t)(3 * n) * sizeof(float) || ck->ps.total != e->ps.total) {
        st = dlp__err(err, DLP_EFORMAT, "%s: checkpoint payload of %llu bytes, expected %llu", path,
                      (unsigned long long)pl, (unsigned long long)(3 * n) * sizeof(float));
        goto done;
    }
    /* the payload follows a header of any length: copy, never cast */
    memcpy(e->ps.data, payload, sizeof(float) * n);
    memcpy(opt->m, payload + sizeof(float) * n, sizeof(float) * n);
    memcpy(opt->v, payload + 2 * sizeof(float) * n, sizeof(float) * n);
    if ((st = check_finite(e->ps.data, (int64_t)n, path, err)) != DLP_OK ||
        (st = check_finite(opt->m, (int64_t)n, path, err)) != DLP_OK ||
        (st = check_finite(opt->v, (int64_t)n, path, err)) != DLP_OK)
        goto done;
    opt->t = s.adam_t;
    *cs = s;
    e->info.epochs_run = ck->info.epochs_run;
    e->info.final_loss = ck->info.final_loss;
    e->info.val_loss = ck->info.val_loss;
    e->info.train_seconds = ck->info.train_seconds;
done:
    close_dlpm(&f);
    return st;
}

/* ---- training ------------------------------------------------------------------ */

static dlp_status pretrain(const src_t *s, int layout, int layout_version, int n_feat,
                           const dlp_pretrain_opts *opts, dlp_encoder **out, dlp_error *err) {
    *out = NULL;
    dlp_pretrain_opts o = *opts;
    fill_defaults(&o);
    dlp_status st = check_opts(&o, err);
    if (st != DLP_OK) return st;
    int64_t n = s->n;
    if (n < 1) return dlp__err(err, DLP_EINVAL, "pretrain: the corpus has no graphs");
    if (o.holdout >= n)
        return dlp__err(err, DLP_EINVAL, "pretrain: holdout %lld leaves no graph to train on (%lld graphs)",
                        (long long)o.holdout, (long long)n);
    if (!dlp_layout_width(layout) || n_feat < 1)
        return dlp__err(err, DLP_EINVAL, "pretrain: unknown feature layout %d", layout);
    dlp_encoder *e = NULL;
    if ((st = enc_create(&o, layout, layout_version, n_feat, &e, err)) != DLP_OK) return st;

    int64_t n_hold = o.holdout, n_train = n - n_hold;
    int B = o.batch_size < n_train ? o.batch_size : (int)n_train;
    int64_t *perm = malloc(sizeof *perm * (size_t)n), *order = malloc(sizeof *order * (size_t)n_train);
    const dlp_features **fs = malloc(sizeof *fs * (size_t)B);
    dlp_features **own = calloc((size_t)B, sizeof *own);
    dlp__nn_ws ws = {0};
    dlp__nn_adam opt = {0};
    if (!perm || !order || !fs || !own) {
        st = dlp__err(err, DLP_ENOMEM, "pretrain: out of memory");
        goto fail;
    }
    src_fingerprint(s, &e->corpus_count, &e->corpus_hash);
    e->info.n_graphs = n_train;
    e->info.n_holdout = n_hold;
    /* holdout: the last graphs of a seeded permutation */
    dlp__nn_rng hr;
    dlp__nn_rng_seed(&hr, o.seed ^ SEED_HOLDOUT);
    for (int64_t i = 0; i < n; i++) perm[i] = i;
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = (int64_t)(dlp__nn_rng_u64(&hr) % (uint64_t)(i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    const int64_t *hold = perm + n_train;
    if (o.threads > 0) openblas_set_num_threads(o.threads);
    if ((st = dlp__nn_adam_init(&opt, &e->ps, (float)o.lr, 0.9f, 0.999f, 1e-8f, (float)o.weight_decay, 0)) !=
        DLP_OK) {
        dlp__err(err, st, "pretrain: optimizer: %s", dlp_status_str(st));
        goto fail;
    }
    ckpt_state cs = {0};
    dlp__nn_rng_seed(&cs.shuf, o.seed ^ SEED_SHUFFLE);
    dlp__nn_rng_seed(&cs.aux, o.seed ^ SEED_AUX);
    dlp__nn_ctx cx;
    dlp__nn_ctx_init(&cx, &e->ps, &ws, o.seed ^ SEED_DROPOUT, 1);
    if (o.checkpoint && o.resume && access(o.checkpoint, F_OK) == 0) {
        if ((st = ckpt_read(e, &opt, &cs, o.checkpoint, err)) != DLP_OK) goto fail;
        cx.rng = cs.drop;
    }
    double t0 = dlp__now_s(), t_before = e->info.train_seconds;
    nets_t nt;
    int stop = 0;
    for (int ep = cs.epoch; ep < o.epochs && !stop; ep++) {
        /* the order restarts from the same list each epoch, so the shuffle
         * stream is all the state an epoch boundary needs */
        memcpy(order, perm, sizeof *order * (size_t)n_train);
        for (int64_t i = n_train - 1; i > 0; i--) {
            int64_t j = (int64_t)(dlp__nn_rng_u64(&cs.shuf) % (uint64_t)(i + 1)), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        double loss_sum = 0;
        int64_t nb = 0;
        for (int64_t b0 = 0; b0 < n_train; b0 += B) {
            int k = n_train - b0 < B ? (int)(n_train - b0) : B;
            st = read_batch(e, s, order + b0, k, fs, own, err);
            batch_t b = {0};
            double l = 0;
            int skipped = 1;
            if (st == DLP_OK) {
                dlp__nn_ws_reset(&ws);
                st = make_batch(&ws, fs, k, n_feat, &b, err);
            }
            if (st == DLP_OK) {
                dlp__nn_zero_grad(&e->ps);
                nets_own(e, &nt);
                st = run_step(e, &nt, &cx, &b, &cs.aux, 1, &l, &skipped);
                nets_return(e, &nt);
                if (st != DLP_OK) dlp__err(err, st, "pretrain: step failed at epoch %d (%s)", ep + 1, dlp_status_str(st));
            }
            free_batch(&b);
            free_owned(own, k);
            if (st != DLP_OK) goto fail;
            if (skipped) continue;
            loss_sum += l;
            nb++;
            dlp__nn_adam_step(&opt, &e->ps);
        }
        dlp__nn_ws_reset(&ws);
        if (!nb) {
            st = dlp__err(err, DLP_EINVAL, "pretrain: no batch could be trained on (%s)",
                          o.method == DLP_PRETRAIN_GAE ? "no batch has 2 nodes and an edge"
                                                       : "no batch has 2 nodes and a masked node");
            goto fail;
        }
        double loss = loss_sum / (double)nb;
        if (!isfinite(loss)) {
            st = dlp__err(err, DLP_EINVAL, "pretrain: loss diverged at epoch %d (lower the learning rate?)", ep + 1);
            goto fail;
        }
        double vl = NAN;
        if (n_hold && (st = loss_src(e, s, hold, n_hold, o.seed ^ SEED_VAL, &vl, err)) != DLP_OK) goto fail;
        e->info.epochs_run = ep + 1;
        e->info.final_loss = loss;
        e->info.val_loss = vl;
        e->info.train_seconds = t_before + (dlp__now_s() - t0);
        if (o.progress) stop = o.progress(o.progress_user, ep + 1, o.epochs, loss, vl, e->info.train_seconds) != 0;
        if (o.checkpoint && ((ep + 1) % o.checkpoint_every == 0 || ep + 1 == o.epochs || stop)) {
            cs.epoch = ep + 1;
            cs.adam_t = opt.t;
            cs.drop = cx.rng;
            if ((st = ckpt_write(e, &opt, &cs, o.checkpoint, err)) != DLP_OK) goto fail;
        }
    }
    dlp__nn_zero_grad(&e->ps);
    *out = e;
    e = NULL;
fail:
    dlp__nn_adam_free(&opt);
    dlp__nn_ws_free(&ws);
    if (own) free_owned(own, B);
    free(perm);
    free(order);
    free(fs);
    free(own);
    dlp_encoder_free(e);
    return st;
}

dlp_status dlp_encoder_pretrain(const dlp_corpus *c, const dlp_pretrain_opts *opts, dlp_encoder **out,
                                dlp_error *err) {
    if (!out) return dlp__err(err, DLP_EINVAL, "pretrain: no output");
    *out = NULL;
    if (!c || !opts) return dlp__err(err, DLP_EINVAL, "pretrain: no corpus or options");
    int layout = dlp_corpus_layout(c);
    if (!layout) layout = DLP_LAYOUT_TRAPPM;
    src_t s = {c, NULL, dlp_corpus_count(c)};
    return pretrain(&s, layout, layout_version_of(layout), dlp_layout_width(layout), opts, out, err);
}

dlp_status dlp__encoder_pretrain_feats(const dlp_features *const *fs, int64_t n, const dlp_pretrain_opts *opts,
                                       dlp_encoder **out, dlp_error *err) {
    if (!out) return dlp__err(err, DLP_EINVAL, "pretrain: no output");
    *out = NULL;
    if (!opts || n < 1 || !fs || !fs[0]) return dlp__err(err, DLP_EINVAL, "pretrain: no graphs");
    src_t s = {NULL, fs, n};
    return pretrain(&s, fs[0]->layout, fs[0]->layout_version, fs[0]->n_feat, opts, out, err);
}
