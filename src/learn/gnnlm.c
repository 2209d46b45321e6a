/*
 * gnnlm.c — the GNN + language-model predictor (thesis ch. 7) as the arch
 * gnnlm of dlp_gnn: building, the forward/backward pair of the whole
 * model, the stage-2 (graph-to-text) and stage-3 (performance) training
 * loops, prediction, and the model-file hooks.  See gnnlm.h for the model
 * and docs/gnnlm.md for the why.
 *
 * Two parameter stores train together: the dlp_gnn's own (the GIN
 * "encoder.*" and the head) and the language model's (LoRA, soft prompt,
 * graph projection; its base weights stay frozen).  Each has its Adam.
 * Gradients reach the GIN through the LM: d loss / d hidden at the prompt's
 * last token -> dlp__lm_backward -> d graph vector -> the sum pool -> the GIN.
 */
#include "learn/gnnlm.h"

#include <cJSON.h>
#include <cblas.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "lm/lm.h"
#include "lm/lmtext.h"
#include "dlpm/dlpm_json.h"
#include "learn/encoder_internal.h"
#include "learn/gnn_internal.h"
#include "util/util.h"

#define GL_PRED_BATCH 32

typedef struct {
    char *key;
    int32_t *ids;
    int n;
} prompt_t;

struct dlp__gnnlm {
    dlp__lm lm;
    dlp__bpe tok;
    int has_lm;
    int lm_dim;                 /* the LM's width (the head's input)           */
    dlp__enc_net gin;           /* tensors "encoder.*" of the dlp_gnn's store  */
    int gdim;                   /* graph vector: gin.r.hidden + n_static       */
    int stage;                  /* dlp_gnnlm_stage last trained                */
    int input;                  /* dlp_gnnlm_input: the graph as a token, text
                                   or JSON (table 7.2)                         */
    int output;                 /* dlp_gnnlm_output: regression head or the
                                   number written by the LM                   */
    int unreadable;             /* tokens: answers that were no number (last
                                   prediction call)                           */
    int gin_pretrained;         /* the GIN started from a GraphMAE encoder     */
    int lm_adapted;             /* stage 2 ran on this model's line            */
    char device[512];           /* default device of predictions               */
    pthread_mutex_t lock;       /* the LM keeps its caches in its struct       */
    int lock_ok;
    prompt_t *pc;               /* tokenised prompts by device                 */
    int npc, cap;
    dlp__nn_ws ws;              /* prediction workspace (under lock)           */
};

static dlp__gnnlm *gl_alloc(void) {
    dlp__gnnlm *x = calloc(1, sizeof *x);
    if (!x) return NULL;
    x->lock_ok = pthread_mutex_init(&x->lock, NULL) == 0;
    if (!x->lock_ok) {
        free(x);
        return NULL;
    }
    return x;
}

static void prompts_clear(dlp__gnnlm *x) {
    for (int i = 0; i < x->npc; i++) {
        free(x->pc[i].key);
        free(x->pc[i].ids);
    }
    free(x->pc);
    x->pc = NULL;
    x->npc = x->cap = 0;
}

void dlp__gnnlm_free(dlp__gnnlm *x) {
    if (!x) return;
    if (x->has_lm) dlp__lm_free(&x->lm);
    dlp__bpe_free(&x->tok);
    dlp__enc_net_free(&x->gin);
    prompts_clear(x);
    dlp__nn_ws_free(&x->ws);
    if (x->lock_ok) pthread_mutex_destroy(&x->lock);
    free(x);
}

const char *dlp__gnnlm_device(const dlp__gnnlm *x) { return x ? x->device : ""; }
int dlp__gnnlm_stage(const dlp__gnnlm *x) { return x ? x->stage : -1; }

/* ---- build ----------------------------------------------------------------------- */

dlp_status dlp__gnnlm_build(dlp_gnn *m, dlp_error *err) {
    dlp__gnnlm *x = m->lmx;
    const dlp_gnn_info *h = &m->info;
    if (!x || x->lm_dim < 1 || h->hidden < 1 || h->fc_layers < 0 || m->n_targets < 1)
        return dlp__err(err, DLP_EINVAL, "gnnlm: bad architecture");
    dlp__enc_recipe r = x->gin.r;
    if (r.n_feat != m->n_feat || r.layout != m->layout || r.layout_version != m->layout_version)
        return dlp__err(err, DLP_EINVAL,
                        "gnnlm: the GIN reads %s layout version %d (%d columns), the data is %s version %d (%d "
                        "columns)",
                        dlp_layout_name(r.layout), r.layout_version, r.n_feat, dlp_layout_name(m->layout),
                        m->layout_version, m->n_feat);
    m->emb = 0;
    m->enc_dim = 0;
    x->gdim = r.hidden + m->n_static;
    char name[32];
    /* the head reads the LM's state at the last prompt token and, beside
     * it, the graph vector itself: the LM conditions on the device, the
     * skip keeps the graph's own figures one layer from the output */
    int in = x->lm_dim + (x->input == DLP_GNNLM_INPUT_TOKEN ? x->gdim : 0);
    float p = (float)h->dropout;
    dlp__nn_layer *L;
    for (int f = 0; f < h->fc_layers; f++) {
        snprintf(name, sizeof name, "fc_%d", f + 1);
        if (!(L = dlp__nn_seq_push(&m->head, DLP__NN_L_LINEAR)) ||
            dlp__nn_linear_init(&L->u.linear, &m->ps, name, in, h->hidden, 1) != DLP_OK ||
            !(L = dlp__nn_seq_push(&m->head, DLP__NN_L_ACT)) ||
            dlp__nn_act_init(&L->u.act, &m->ps, NULL, DLP__NN_ACT_RELU, h->hidden, 0, 0) != DLP_OK)
            return dlp__err(err, DLP_ENOMEM, "gnnlm: out of memory");
        if (p > 0 && (!(L = dlp__nn_seq_push(&m->head, DLP__NN_L_DROPOUT)) ||
                      dlp__nn_dropout_init(&L->u.drop, h->hidden, p) != DLP_OK))
            return dlp__err(err, DLP_ENOMEM, "gnnlm: out of memory");
        in = h->hidden;
    }
    if (!(L = dlp__nn_seq_push(&m->head, DLP__NN_L_LINEAR)) ||
        dlp__nn_linear_init(&L->u.linear, &m->ps, "predictor", in, m->n_targets, 1) != DLP_OK)
        return dlp__err(err, DLP_ENOMEM, "gnnlm: out of memory");
    dlp_error ee = {0};
    dlp_status st = dlp__enc_declare(&x->gin, &m->ps, "encoder", &r, 1, &ee);
    x->gin.r = r;
    if (st != DLP_OK) return dlp__err(err, st, "gnnlm: cannot build the GIN (%s)", ee.msg);
    if (dlp__nn_params_alloc(&m->ps) != DLP_OK) return dlp__err(err, DLP_ENOMEM, "gnnlm: out of memory");
    m->info.n_params = dlp__nn_params_trainable(&m->ps) + (x->has_lm ? dlp__nn_params_trainable(&x->lm.ps) : 0);
    return DLP_OK;
}

/* ---- prompts ---------------------------------------------------------------------- */

/* The description of dev: a named setting (HELP column, database id) is
 * described from the database; anything else is taken as the user's own
 * description. */
static void device_text(const char *dev, dlp__sb *b) {
    if (dlp__lm_setting_text(NULL, dev, b) == 0) return;
    dlp__sb_printf(b, "Device: %s.", dev);
}

/* Token ids of the prompt for device dev (cached): <bos> description,
 * then the task and the graph slot, cut so that it fits the LM's window
 * (the description's end is dropped first). */
static dlp_status prompt_ids(dlp_gnn *m, const char *dev, const int32_t **ids, int *n, dlp_error *err) {
    dlp__gnnlm *x = m->lmx;
    if (!dev || !*dev) dev = x->device;
    for (int i = 0; i < x->npc; i++)
        if (!strcmp(x->pc[i].key, dev)) {
            *ids = x->pc[i].ids;
            *n = x->pc[i].n;
            return DLP_OK;
        }
    dlp__sb a = {0}, b = {0};
    device_text(dev, &a);
    if (x->input == DLP_GNNLM_INPUT_TOKEN)
        dlp__sb_printf(&b, "\nPredict the %s of the graph <graph><gslot></graph>", m->target[0]);
    else
        dlp__sb_printf(&b, "\nPredict the %s of the graph: ", m->target[0]);
    if (a.oom || b.oom) {
        dlp__sb_free(&a);
        dlp__sb_free(&b);
        return dlp__err(err, DLP_ENOMEM, "gnnlm: out of memory");
    }
    int32_t *ia = NULL, *ib = NULL;
    int na = 0, nb = 0;
    dlp_status st = dlp__bpe_encode(&x->tok, a.s, a.len, 0, &ia, &na, err);
    if (st == DLP_OK) st = dlp__bpe_encode(&x->tok, b.s, b.len, 1, &ib, &nb, err);
    dlp__sb_free(&a);
    dlp__sb_free(&b);
    int room = x->lm.c.max_seq - x->lm.c.n_soft - 1 - nb;
    /* a graph written as text needs room after the description */
    if (x->input != DLP_GNNLM_INPUT_TOKEN) room = room / 2;
    if (st == DLP_OK && room < 1)
        st = dlp__err(err, DLP_EINVAL, "gnnlm: the language model's window (%d tokens) is too short for a prompt",
                      x->lm.c.max_seq);
    if (st == DLP_OK && na > room) na = room;
    int32_t *all = st == DLP_OK ? malloc(sizeof *all * (size_t)(1 + na + nb)) : NULL;
    if (st == DLP_OK && (!all || dlp__grow((void **)&x->pc, x->npc, &x->cap, sizeof *x->pc) != 0)) {
        free(all);
        all = NULL;
        st = dlp__err(err, DLP_ENOMEM, "gnnlm: out of memory");
    }
    if (st == DLP_OK) {
        all[0] = DLP__BPE_BOS;
        memcpy(all + 1, ia, sizeof *all * (size_t)na);
        memcpy(all + 1 + na, ib, sizeof *all * (size_t)nb);
        prompt_t *p = &x->pc[x->npc];
        p->key = strdup(dev);
        p->ids = all;
        p->n = 1 + na + nb;
        if (!p->key) {
            free(all);
            st = dlp__err(err, DLP_ENOMEM, "gnnlm: out of memory");
        } else {
            x->npc++;
            *ids = p->ids;
            *n = p->n;
        }
    }
    free(ia);
    free(ib);
    return st;
}

/* The graph as text (table 7.2's alternatives to the graph token), from
 * what every graph's features hold: TEXT a high-level summary (sizes,
 * FLOPs, parameters, memory, operator counts), JSON a lossless dump of the
 * nodes (operator, output shape) and edges.  Long graphs do not fit the
 * window: the caller cuts the tokens, as the thesis reports. */
static void graph_as_text(const dlp_features *f, int json, dlp__sb *b) {
    int L = f->layout, W = dlp_layout_width(L), n_ops = 0, out0 = -1;
    for (int j = 0; j < W; j++) {
        const char *c = dlp_layout_column(L, j);
        if (c && !strcmp(c, "other")) n_ops = j + 1;
        if (c && !strcmp(c, "out_dim0") && out0 < 0) out0 = j;
    }
    int *op = n_ops ? calloc((size_t)(f->n_nodes > 0 ? f->n_nodes : 1), sizeof *op) : NULL;
    if (!op) return;
    for (int i = 0; i < f->n_nodes; i++) {
        const float *r = f->x + (size_t)i * f->n_feat;
        int best = n_ops - 1;
        for (int j = 0; j < n_ops; j++)
            if (r[j] > r[best]) best = j;
        op[i] = best;
    }
    const double *sf = f->static_f;
    if (!json) {
        char w1[32], w2[32], w3[32];
        dlp__sb_printf(b, "%d nodes and %d edges at batch %lld; %s FLOPs, %s parameters, %s bytes of memory; layers:",
                       f->n_nodes, f->n_edges, (long long)sf[DLP_SF_BATCH], dlp__lm_words(sf[DLP_SF_FLOPS], w1, sizeof w1),
                       dlp__lm_words(sf[DLP_SF_PARAMS], w2, sizeof w2), dlp__lm_words(sf[DLP_SF_MEMORY], w3, sizeof w3));
        for (int j = 0; j < n_ops; j++) {
            int c = 0;
            for (int i = 0; i < f->n_nodes; i++) c += op[i] == j;
            if (c) dlp__sb_printf(b, " %s %d,", dlp_layout_column(L, j), c);
        }
        if (b->len && b->s[b->len - 1] == ',') b->s[--b->len] = 0;
        dlp__sb_printf(b, ".");
    } else {
        dlp__sb_printf(b, "{\"nodes\":[");
        for (int i = 0; i < f->n_nodes; i++) {
            dlp__sb_printf(b, "%s[\"%s\"", i ? "," : "", dlp_layout_column(L, op[i]));
            if (out0 >= 0)
                for (int d = 0; d < 6 && out0 + d < W; d++) {
                    float v = f->x[(size_t)i * f->n_feat + out0 + d];
                    if (v != 0) dlp__sb_printf(b, ",%g", v);
                }
            dlp__sb_printf(b, "]");
        }
        dlp__sb_printf(b, "],\"edges\":[");
        int first = 1;
        for (int i = 0; i < f->n_nodes; i++)
            for (int32_t e = f->rowptr[i]; e < f->rowptr[i + 1]; e++, first = 0)
                dlp__sb_printf(b, "%s[%d,%d]", first ? "" : ",", i, f->col[e]);
        dlp__sb_printf(b, "]}");
    }
    free(op);
}

/* ---- forward / backward ---------------------------------------------------------- */

typedef struct {
    int k, T, S, N;
    dlp__nn_graph g;
    int has_g;
    float *x;                   /* (N, n_feat) node rows                       */
    float *gv;                  /* (k, gdim) graph vectors                     */
    int32_t *tok;               /* (k, T)                                      */
    int *last;                  /* (k) row of m->hidden read by the head       */
    int *len;                   /* (k) prompt tokens of each row               */
    float *hl;                  /* (k, lm_dim + gdim) those rows ⊕ the graph vectors */
} fb_t;

static void fb_free(fb_t *b) {
    if (b->has_g) dlp__nn_graph_free(&b->g);
    b->has_g = 0;
}

/* Collate graphs fs[0..k) block-diagonally (node rows and edges). */
static dlp_status collate(const dlp_gnn *m, dlp__nn_ws *ws, const dlp_features *const *fs, int k, fb_t *b,
                          dlp_error *err) {
    dlp_status st = dlp__nn_collate_features(ws, fs, k, m->n_feat, &b->g, &b->x, NULL, "gnnlm", err);
    if (st != DLP_OK) return st;
    b->has_g = 1;
    b->N = b->g.n_nodes;
    return DLP_OK;
}

/* Graph vectors of the batch: the GIN's node rows summed per graph x the
 * readout scale, then the scaled static features.  cx->training picks
 * batch statistics + dropout or running statistics. */
static dlp_status graph_vectors(dlp_gnn *m, dlp__nn_ctx *cx, const dlp_features *const *fs, fb_t *b) {
    dlp__gnnlm *x = m->lmx;
    int H = x->gin.r.hidden, G = x->gdim, rows;
    const float *hn;
    dlp_status st = dlp__nn_seq_forward(&x->gin.seq, cx, &b->g, b->x, b->N, &hn, &rows);
    if (st != DLP_OK) return st;
    float *pool = dlp__nn_ws_floats(cx->ws, (size_t)b->k * H);
    b->gv = dlp__nn_ws_floats(cx->ws, (size_t)b->k * G);
    if (!pool || !b->gv) return DLP_ENOMEM;
    dlp__nn_pool(&b->g, DLP__NN_AGG_SUM, hn, H, pool, NULL);
    float sc = (float)m->ro_scale;
    for (int q = 0; q < b->k; q++) {
        for (int c = 0; c < H; c++) b->gv[(size_t)q * G + c] = pool[(size_t)q * H + c] * sc;
        dlp__gnn_scale_static(m, fs[q], b->gv + (size_t)q * G + H);
    }
    return DLP_OK;
}

/* The whole forward of k samples: *y (k, n_targets) scaled. */
/* The graph vectors and the prompt rows of k samples: b->tok (k, T) with
 * T = the longest prompt + `extra` tokens of room, right-padded. */
static dlp_status gl_prepare(dlp_gnn *m, dlp__nn_ctx *cx, const dlp_features *const *fs, const char *const *dev,
                             int k, int extra, fb_t *b, dlp_error *err) {
    dlp__gnnlm *x = m->lmx;
    memset(b, 0, sizeof *b);
    b->k = k;
    int tokin = x->input == DLP_GNNLM_INPUT_TOKEN;
    dlp_status st = DLP_OK;
    if (tokin) {
        if ((st = collate(m, cx->ws, fs, k, b, err)) != DLP_OK) return st;
        if ((st = graph_vectors(m, cx, fs, b)) != DLP_OK)
            return dlp__err(err, st, "gnnlm: GIN forward failed (%s)", dlp_status_str(st));
    }
    const int32_t **ids = dlp__nn_ws_alloc(cx->ws, sizeof *ids * (size_t)k);
    int *len = b->len = dlp__nn_ws_alloc(cx->ws, sizeof *len * (size_t)k);
    b->last = dlp__nn_ws_alloc(cx->ws, sizeof *b->last * (size_t)k);
    if (!ids || !len || !b->last) return dlp__err(err, DLP_ENOMEM, "gnnlm: out of memory");
    int T = 1, room = x->lm.c.max_seq - x->lm.c.n_soft - extra;
    for (int q = 0; q < k; q++) {
        if ((st = prompt_ids(m, dev ? dev[q] : NULL, &ids[q], &len[q], err)) != DLP_OK) return st;
        if (!tokin) {
            /* the prompt's prefix, then the graph written out, cut to the window */
            dlp__sb g = {0};
            graph_as_text(fs[q], x->input == DLP_GNNLM_INPUT_JSON, &g);
            int32_t *gi = NULL, ng = 0;
            if (g.oom || !g.s) st = dlp__err(err, DLP_ENOMEM, "gnnlm: out of memory");
            else st = dlp__bpe_encode(&x->tok, g.s, g.len, 0, &gi, &ng, err);
            dlp__sb_free(&g);
            int tot = len[q] + ng < room ? len[q] + ng : room;
            int32_t *all = st == DLP_OK ? dlp__nn_ws_ints(cx->ws, (size_t)tot) : NULL;
            if (st == DLP_OK && !all) st = dlp__err(err, DLP_ENOMEM, "gnnlm: out of memory");
            if (st == DLP_OK) {
                memcpy(all, ids[q], sizeof *all * (size_t)len[q]);
                memcpy(all + len[q], gi, sizeof *all * (size_t)(tot - len[q]));
                ids[q] = all;
                len[q] = tot;
            }
            free(gi);
            if (st != DLP_OK) return st;
        }
        if (len[q] > T) T = len[q];
    }
    T += extra;
    b->T = T;
    b->S = x->lm.c.n_soft + T;
    b->tok = dlp__nn_ws_ints(cx->ws, (size_t)k * T);
    if (!b->tok) return dlp__err(err, DLP_ENOMEM, "gnnlm: out of memory");
    for (int q = 0; q < k; q++) {
        /* right-padded: the causal mask keeps padding out of the last
         * prompt token's state */
        for (int t = 0; t < T; t++) b->tok[(size_t)q * T + t] = t < len[q] ? ids[q][t] : DLP__BPE_PAD;
        b->last[q] = q * b->S + x->lm.c.n_soft + len[q] - 1;
    }
    return DLP_OK;
}

/* The whole forward of k samples: *y (k, n_targets) scaled. */
static dlp_status gl_forward(dlp_gnn *m, dlp__nn_ctx *cx, const dlp_features *const *fs, const char *const *dev,
                             int k, fb_t *b, const float **y, dlp_error *err) {
    dlp__gnnlm *x = m->lmx;
    dlp_status st = gl_prepare(m, cx, fs, dev, k, 0, b, err);
    if (st != DLP_OK) return st;
    int tokin = x->input == DLP_GNNLM_INPUT_TOKEN, T = b->T;
    dlp__lm_batch lb = {k, T, b->tok, NULL, tokin ? b->gv : NULL};
    if ((st = dlp__lm_forward(&x->lm, cx->ws, &lb, NULL, err)) != DLP_OK) return st;
    int D = x->lm_dim, G = tokin ? x->gdim : 0, W = D + G;
    b->hl = dlp__nn_ws_floats(cx->ws, (size_t)k * W);
    if (!b->hl) return dlp__err(err, DLP_ENOMEM, "gnnlm: out of memory");
    for (int q = 0; q < k; q++) {
        memcpy(b->hl + (size_t)q * W, x->lm.hidden + (size_t)b->last[q] * D, sizeof(float) * (size_t)D);
        if (G) memcpy(b->hl + (size_t)q * W + D, b->gv + (size_t)q * G, sizeof(float) * (size_t)G);
    }
    int rows;
    st = dlp__nn_seq_forward(&m->head, cx, NULL, b->hl, k, y, &rows);
    if (st == DLP_OK && rows != k) st = DLP_EINTERNAL;
    if (st != DLP_OK) return dlp__err(err, st, "gnnlm: head forward failed (%s)", dlp_status_str(st));
    return DLP_OK;
}

/* The GIN's share of a gradient on the graph vectors dgv (k, gdim): the
 * pool, then the GIN's layers. */
static dlp_status gin_backward(dlp_gnn *m, dlp__nn_ctx *cx, fb_t *b, const float *dgv) {
    dlp__gnnlm *x = m->lmx;
    int k = b->k, H = x->gin.r.hidden, G = x->gdim;
    float *dp = dlp__nn_ws_floats(cx->ws, (size_t)k * H), *dh = dlp__nn_ws_zeros(cx->ws, (size_t)b->N * H);
    if (!dp || !dh) return DLP_ENOMEM;
    float sc = (float)m->ro_scale;
    for (int q = 0; q < k; q++)
        for (int c = 0; c < H; c++) dp[(size_t)q * H + c] = dgv[(size_t)q * G + c] * sc;
    dlp__nn_pool_backward(&b->g, DLP__NN_AGG_SUM, dp, H, NULL, dh);
    return dlp__nn_seq_backward(&x->gin.seq, cx, &b->g, dh, NULL);
}

/* ---- numeric tokens: the latency written out by the LM (--output tokens) ---- */

#define GL_NUM_MAX 10   /* tokens of room for "1.23e+04" and <eos> */

/* Teacher-forced next-token loss on each row's target written with 3
 * significant digits after its prompt, then <eos>; the GIN trains through
 * the graph token.  t (k) in target units (NaN rows add no loss). */
static dlp_status tokens_step(dlp_gnn *m, dlp__nn_ctx *cx, const dlp_features *const *fs, const char *const *dev,
                              int k, const double *t, int train_gin, double *loss, dlp_error *err) {
    dlp__gnnlm *x = m->lmx;
    fb_t b;
    dlp_status st = gl_prepare(m, cx, fs, dev, k, GL_NUM_MAX, &b, err);
    int32_t *tgt = st == DLP_OK ? dlp__nn_ws_ints(cx->ws, (size_t)k * b.T) : NULL;
    float *dgv = st == DLP_OK ? dlp__nn_ws_zeros(cx->ws, (size_t)k * x->gdim) : NULL;
    if (st == DLP_OK && (!tgt || !dgv)) st = dlp__err(err, DLP_ENOMEM, "gnnlm: out of memory");
    for (int i = 0; st == DLP_OK && i < k * b.T; i++) tgt[i] = -1;
    for (int q = 0; st == DLP_OK && q < k; q++) {
        if (isnan(t[q])) continue;
        char num[32];
        int nd = snprintf(num, sizeof num, "%.3g", t[q]);
        if (nd >= GL_NUM_MAX) nd = GL_NUM_MAX - 1;
        int32_t *row = b.tok + (size_t)q * b.T, *tr = tgt + (size_t)q * b.T;
        int L = b.len[q];
        for (int j = 0; j < nd; j++) row[L + j] = (uint8_t)num[j];   /* digits are byte tokens */
        row[L + nd] = DLP__BPE_EOS;
        for (int j = 0; j <= nd; j++) tr[L - 1 + j] = row[L + j];
    }
    if (st == DLP_OK) {
        dlp__lm_batch lb = {k, b.T, b.tok, tgt, b.gv};
        st = dlp__lm_forward(&x->lm, cx->ws, &lb, loss, err);
        if (st == DLP_OK) st = dlp__lm_backward(&x->lm, cx->ws, NULL, train_gin ? dgv : NULL);
        if (st == DLP_OK && train_gin) st = gin_backward(m, cx, &b, dgv);
    }
    fb_free(&b);
    return st;
}

/* Greedy decoding of every row's number after its prompt (rows right-
 * padded: each row's next token is read at its own last position): out
 * (k) in target units; an unreadable answer gets the training geometric
 * mean, counted in *bad. */
static dlp_status tokens_decode(dlp_gnn *m, dlp__nn_ctx *cx, const dlp_features *const *fs, const char *const *dev,
                                int k, float *out, int *bad, dlp_error *err) {
    dlp__gnnlm *x = m->lmx;
    fb_t b;
    dlp_status st = gl_prepare(m, cx, fs, dev, k, GL_NUM_MAX, &b, err);
    int *done = st == DLP_OK ? dlp__nn_ws_alloc(cx->ws, sizeof *done * (size_t)k) : NULL;
    char(*txt)[GL_NUM_MAX + 1] = st == DLP_OK ? dlp__nn_ws_alloc(cx->ws, sizeof *txt * (size_t)k) : NULL;
    if (st == DLP_OK && (!done || !txt)) st = dlp__err(err, DLP_ENOMEM, "gnnlm: out of memory");
    for (int q = 0; st == DLP_OK && q < k; q++) {
        done[q] = 0;
        txt[q][0] = 0;
    }
    int V = x->lm.c.vocab;
    for (int step = 0; st == DLP_OK && step < GL_NUM_MAX; step++) {
        dlp__nn_ws_mark mk = dlp__nn_ws_get_mark(cx->ws);
        dlp__lm_batch lb = {k, b.T, b.tok, NULL, b.gv};
        if ((st = dlp__lm_forward(&x->lm, cx->ws, &lb, NULL, err)) != DLP_OK) break;
        int live = 0;
        for (int q = 0; q < k; q++) {
            if (done[q]) continue;
            int pos = b.len[q] + step;   /* the token written at pos is read from pos - 1 */
            const float *l = x->lm.logits + ((size_t)q * b.T + pos - 1) * V;
            int32_t am = 0;
            for (int j = 1; j < V; j++) am = l[j] > l[am] ? j : am;
            b.tok[(size_t)q * b.T + pos] = am;
            if (am == DLP__BPE_EOS || am >= 256 || step == GL_NUM_MAX - 1) done[q] = 1;
            else {
                txt[q][step] = (char)am;
                txt[q][step + 1] = 0;
                live++;
            }
        }
        dlp__nn_ws_release(cx->ws, mk);
        if (!live) break;
    }
    for (int q = 0; st == DLP_OK && q < k; q++) {
        char *e;
        double v = strtod(txt[q], &e);
        if (e == txt[q] || *e || !(v > 0) || !isfinite(v)) {
            v = dlp__gnn_unscale(m, 0, 0.0);   /* ln-mean of the training targets */
            (*bad)++;
        }
        out[q] = (float)v;
    }
    fb_free(&b);
    return st;
}

/* Backward of gl_forward from dy (k, n_targets): gradients into the head,
 * the LM's trainable tensors and, with train_gin, the GIN. */
static dlp_status gl_backward(dlp_gnn *m, dlp__nn_ctx *cx, fb_t *b, const float *dy, int train_gin) {
    dlp__gnnlm *x = m->lmx;
    int tokin = x->input == DLP_GNNLM_INPUT_TOKEN;
    int D = x->lm_dim, k = b->k, G = tokin ? x->gdim : 0, W = D + G;
    float *dhl = dlp__nn_ws_zeros(cx->ws, (size_t)k * W);
    float *dhid = dlp__nn_ws_zeros(cx->ws, (size_t)k * b->S * D);
    float *dgv = dlp__nn_ws_zeros(cx->ws, (size_t)k * (G ? G : 1));
    if (!dhl || !dhid || !dgv) return DLP_ENOMEM;
    dlp_status st = dlp__nn_seq_backward(&m->head, cx, NULL, dy, dhl);
    if (st != DLP_OK) return st;
    for (int q = 0; q < k; q++) {
        memcpy(dhid + (size_t)b->last[q] * D, dhl + (size_t)q * W, sizeof(float) * (size_t)D);
        if (G) memcpy(dgv + (size_t)q * G, dhl + (size_t)q * W + D, sizeof(float) * (size_t)G);   /* the skip */
    }
    if ((st = dlp__lm_backward(&x->lm, cx->ws, dhid, tokin ? dgv : NULL)) != DLP_OK) return st;
    if (!train_gin || !tokin) return DLP_OK;
    return gin_backward(m, cx, b, dgv);
}

/* ---- prediction ------------------------------------------------------------------ */

dlp_status dlp__gnnlm_predict(const dlp_gnn *mc, const dlp_features *const *fs, const char *const *dev, int n,
                              float *out, dlp_error *err) {
    dlp_gnn *m = (dlp_gnn *)mc;   /* the LM's caches, the prompt cache and the workspace change, under lock */
    dlp__gnnlm *x = m->lmx;
    if (!x || !x->has_lm) return dlp__err(err, DLP_EINVAL, "gnnlm predict: the model has no language model");
    for (int i = 0; i < n; i++) {
        dlp_status st = dlp__gnn_check_features(m, fs[i], err);
        if (st != DLP_OK) return st;
    }
    pthread_mutex_lock(&x->lock);
    x->unreadable = 0;
    dlp__nn_ctx cx;
    dlp__nn_ctx_init(&cx, &m->ps, &x->ws, 0, 0);
    dlp_status st = DLP_OK;
    for (int b0 = 0; b0 < n && st == DLP_OK; b0 += GL_PRED_BATCH) {
        int k = n - b0 < GL_PRED_BATCH ? n - b0 : GL_PRED_BATCH;
        dlp__nn_ws_reset(&x->ws);
        if (x->output == DLP_GNNLM_OUTPUT_TOKENS) {
            float v[GL_PRED_BATCH];
            if ((st = tokens_decode(m, &cx, fs + b0, dev ? dev + b0 : NULL, k, v, &x->unreadable, err)) == DLP_OK)
                for (int q = 0; q < k; q++) out[(size_t)(b0 + q) * m->n_targets] = v[q];
            continue;
        }
        fb_t b;
        const float *y;
        st = gl_forward(m, &cx, fs + b0, dev ? dev + b0 : NULL, k, &b, &y, err);
        if (st == DLP_OK)
            for (int q = 0; q < k; q++)
                for (int t = 0; t < m->n_targets; t++)
                    out[(size_t)(b0 + q) * m->n_targets + t] =
                        (float)dlp__gnn_unscale(m, t, y[(size_t)q * m->n_targets + t]);
        fb_free(&b);
    }
    dlp__nn_ws_reset(&x->ws);
    pthread_mutex_unlock(&x->lock);
    return st;
}

/* The test hook of gnnlm.h: loss and gradients in eval mode. */
dlp_status dlp__gnnlm_loss_grad(dlp_gnn *m, const dlp_features *const *fs, const char *const *dev, int k,
                                const float *t, double *loss, dlp_error *err) {
    dlp__nn_ws ws = {0};
    dlp__nn_ctx cx;
    dlp__nn_ctx_init(&cx, &m->ps, &ws, 0, 0);
    float *g = malloc(sizeof *g * (size_t)(k > 0 ? k : 1) * (size_t)m->n_targets);
    fb_t b;
    memset(&b, 0, sizeof b);
    const float *y;
    dlp_status st = g ? DLP_OK : DLP_ENOMEM;
    dlp__nn_zero_grad(&m->ps);
    dlp__nn_zero_grad(&m->lmx->lm.ps);
    if (st == DLP_OK) st = gl_forward(m, &cx, fs, dev, k, &b, &y, err);
    if (st == DLP_OK) {
        *loss = dlp__gnn_loss_vec(m, y, t, k * m->n_targets, g);
        st = gl_backward(m, &cx, &b, g, 1);
    }
    fb_free(&b);
    free(g);
    dlp__nn_ws_free(&ws);
    return st;
}

dlp__nn_params *dlp__gnnlm_lm_params(dlp_gnn *m) { return m && m->lmx ? &m->lmx->lm.ps : NULL; }

/* ---- training pieces both stages use ---------------------------------------------- */

/* Fisher-Yates over order[0..n), the same draws gnn.c's loop makes. */
static void shuffle(int *order, int n, dlp__nn_rng *r) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)dlp__nn_rng_below(r, (uint32_t)i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

/* --lr-schedule cosine: the factor on the peak rate at this step, from 1
 * down to 1/100 (gnn.c's schedule). */
static double cosine(int64_t step, int64_t total) {
    return 0.01 + 0.99 * 0.5 * (1 + cos(3.14159265358979323846 * (double)step / (double)total));
}

/* ---- stage 2: graph-to-text ------------------------------------------------------- */

/* The §7.7.3 summary of a sample's graph: rebuilt from the NAS spaces'
 * architecture strings (HELP datasets name samples by them); for other
 * graphs, what the features hold. */
static void graph_summary(const dlp_dataset_sample *s, dlp__sb *b) {
    dlp_graph *g = NULL;
    dlp_error e = {0};
    char title[320];
    const char *fam = s->family ? s->family : "";
    if (!strncmp(fam, "nb201", 5) && s->name) {
        dlp_graph_from_nb201_mode(s->name, s->batch, strstr(fam, "effective") ? DLP_NB201_EFFECTIVE : DLP_NB201_EXECUTED,
                                  &g, &e);
        snprintf(title, sizeof title, "the NAS-Bench-201 cell %s", s->name);
    } else if (!strcmp(fam, "fbnet") && s->name) {
        int ops[DLP_FBNET_LAYERS], k = 0;
        const char *p = s->name;
        while (k < DLP_FBNET_LAYERS && *p) {
            char *end;
            ops[k++] = (int)strtol(p, &end, 10);
            p = *end == '-' ? end + 1 : end;
            if (end == p && *p) break;
        }
        if (k == DLP_FBNET_LAYERS) dlp_graph_from_fbnet(ops, s->batch, &g, &e);
        snprintf(title, sizeof title, "the FBNet architecture %s", s->name);
    }
    if (g) {
        dlp__lm_graph_summary(g, title, b);
        dlp_graph_free(g);
        return;
    }
    /* any other graph: what its features hold, as the text input writes it */
    dlp__sb_printf(b, "Q: Summarise the graph %s.\nA: The graph has ", s->name ? s->name : "");
    graph_as_text(s->features, 0, b);
    dlp__sb_printf(b, "\n");
}

typedef struct {
    const dlp_features *f;
    int32_t *ids;               /* <bos><graph><gslot></graph>\n summary        */
    int n, prefix;              /* tokens; the first `prefix` are not targets   */
} adapt_doc;

static dlp_status adapt_docs(dlp_gnn *m, const dlp_dataset *ds, const int *train, int n_train, adapt_doc **out,
                             int *n_out, dlp_error *err) {
    dlp__gnnlm *x = m->lmx;
    int ng = dlp_dataset_graph_count(ds), nd = 0;
    uint8_t *seen = calloc((size_t)(ng > 0 ? ng : 1), 1);
    adapt_doc *d = calloc((size_t)n_train, sizeof *d);
    if (!seen || !d) {
        free(seen);
        free(d);
        return dlp__err(err, DLP_ENOMEM, "gnnlm adapt: out of memory");
    }
    static const int32_t pre[] = {DLP__BPE_BOS, DLP__BPE_GRAPH, DLP__BPE_GSLOT, DLP__BPE_GRAPH_END, '\n'};
    int np = (int)(sizeof pre / sizeof pre[0]), room = x->lm.c.max_seq - x->lm.c.n_soft;
    dlp_status st = DLP_OK;
    for (int i = 0; i < n_train && st == DLP_OK; i++) {
        dlp_dataset_sample s;
        s = *dlp_dataset_at(ds, train[i]);
        if (seen[s.graph]) continue;
        seen[s.graph] = 1;
        dlp__sb b = {0};
        graph_summary(&s, &b);
        int32_t *ids = NULL;
        int n = 0;
        if (b.oom) st = dlp__err(err, DLP_ENOMEM, "gnnlm adapt: out of memory");
        else st = dlp__bpe_encode(&x->tok, b.s, b.len, 0, &ids, &n, err);
        dlp__sb_free(&b);
        if (st != DLP_OK) break;
        int tot = np + n + 1 < room ? np + n + 1 : room;
        int32_t *all = malloc(sizeof *all * (size_t)tot);
        if (!all) {
            free(ids);
            st = dlp__err(err, DLP_ENOMEM, "gnnlm adapt: out of memory");
            break;
        }
        memcpy(all, pre, sizeof pre);
        int body = tot - np;
        memcpy(all + np, ids, sizeof *all * (size_t)(body < n ? body : n));
        if (body > n) all[tot - 1] = DLP__BPE_EOS;
        free(ids);
        d[nd++] = (adapt_doc){s.features, all, tot, np};
    }
    free(seen);
    if (st != DLP_OK) {
        for (int i = 0; i < nd; i++) free(d[i].ids);
        free(d);
        return st;
    }
    *out = d;
    *n_out = nd;
    return DLP_OK;
}

/* Stage 2: the GIN frozen (running statistics, no dropout), LoRA + soft
 * prompt + graph projection trained to write each graph's summary after
 * its graph token. */
static dlp_status train_adapt(dlp_gnn *m, const dlp_dataset *ds, const int *train, int n_train,
                              const dlp_gnn_opts *o, dlp__nn_adam *opt, dlp_error *err) {
    dlp__gnnlm *x = m->lmx;
    adapt_doc *d = NULL;
    int nd = 0;
    dlp_status st = adapt_docs(m, ds, train, n_train, &d, &nd, err);
    if (st != DLP_OK) return st;
    int B = o->batch_size < nd ? o->batch_size : nd;
    int *order = malloc(sizeof *order * (size_t)(nd > 0 ? nd : 1));
    const dlp_features **fs = malloc(sizeof *fs * (size_t)(B > 0 ? B : 1));
    dlp__nn_ws ws = {0};
    if (!order || !fs) st = dlp__err(err, DLP_ENOMEM, "gnnlm adapt: out of memory");
    for (int i = 0; i < nd; i++) order[i] = i;
    dlp__nn_rng shuf;
    dlp__nn_rng_seed(&shuf, o->seed ^ 0x41444150ULL);
    dlp__nn_ctx cx;
    dlp__nn_ctx_init(&cx, &m->ps, &ws, o->seed, 0);
    double t0 = dlp__now_s();
    int64_t total = (int64_t)((nd + B - 1) / (B > 0 ? B : 1)) * o->epochs, step = 0;
    for (int ep = 0; ep < o->epochs && st == DLP_OK && nd > 0; ep++) {
        shuffle(order, nd, &shuf);
        double lsum = 0, lr = o->lm_lr;
        int nb = 0;
        for (int b0 = 0; b0 < nd && st == DLP_OK; b0 += B, step++) {
            int k = nd - b0 < B ? nd - b0 : B, T = 1;
            if (o->lr_schedule == DLP_GNN_LR_COSINE) {
                lr = o->lm_lr * cosine(step, total);
                opt->lr = (float)lr;
            }
            for (int q = 0; q < k; q++) {
                fs[q] = d[order[b0 + q]].f;
                if (d[order[b0 + q]].n > T) T = d[order[b0 + q]].n;
            }
            dlp__nn_ws_reset(&ws);
            fb_t b;
            memset(&b, 0, sizeof b);
            b.k = k;
            int32_t *tok = dlp__nn_ws_ints(&ws, (size_t)k * T), *tgt = dlp__nn_ws_ints(&ws, (size_t)k * T);
            if (!tok || !tgt) st = dlp__err(err, DLP_ENOMEM, "gnnlm adapt: out of memory");
            if (st == DLP_OK) st = collate(m, &ws, fs, k, &b, err);
            if (st == DLP_OK && (st = graph_vectors(m, &cx, fs, &b)) != DLP_OK)
                dlp__err(err, st, "gnnlm adapt: GIN forward failed");
            if (st == DLP_OK) {
                for (int q = 0; q < k; q++) {
                    const adapt_doc *a = &d[order[b0 + q]];
                    for (int t = 0; t < T; t++) tok[(size_t)q * T + t] = t < a->n ? a->ids[t] : DLP__BPE_PAD;
                }
                dlp__lm_next_targets(tok, k, T, tgt);
                /* no loss on the graph tag: the summary is the answer */
                for (int q = 0; q < k; q++)
                    for (int t = 0; t < d[order[b0 + q]].prefix - 1; t++) tgt[(size_t)q * T + t] = -1;
                dlp__lm_batch lb = {k, T, tok, tgt, b.gv};
                double loss = 0;
                dlp__nn_zero_grad(&x->lm.ps);
                st = dlp__lm_forward(&x->lm, &ws, &lb, &loss, err);
                if (st == DLP_OK) st = dlp__lm_backward(&x->lm, &ws, NULL, NULL);
                if (st == DLP_OK) {
                    dlp__nn_clip_grad_norm(&x->lm.ps, 1.0);
                    dlp__nn_adam_step(opt, &x->lm.ps);
                    lsum += loss;
                    nb++;
                }
            }
            fb_free(&b);
        }
        if (st == DLP_OK && !isfinite(lsum)) st = dlp__err(err, DLP_EINVAL, "gnnlm adapt: loss diverged at epoch %d", ep + 1);
        m->info.epochs_run = ep + 1;
        if (st == DLP_OK && o->progress) {
            double el = dlp__now_s() - t0;
            dlp_gnn_progress pr = {ep + 1, o->epochs, nb ? lsum / nb : 0, NAN, NAN, 0, lr, el,
                                   el / (ep + 1) * (o->epochs - ep - 1)};
            if (o->progress(o->progress_user, &pr)) break;
        }
    }
    for (int i = 0; i < nd; i++) free(d[i].ids);
    free(d);
    free(order);
    free(fs);
    dlp__nn_ws_free(&ws);
    m->info.best_epoch = m->info.epochs_run;
    return st;
}

/* ---- stage 3: performance -------------------------------------------------------- */

static double val_mape(dlp_gnn *m, const dlp_dataset *ds, const int *val, int n_val, const int *tcol,
                       const dlp_features **fs, const char **dev, float *pred, dlp_error *err) {
    for (int i = 0; i < n_val; i++) {
        dlp_dataset_sample s;
        s = *dlp_dataset_at(ds, val[i]);
        fs[i] = s.features;
        dev[i] = s.device;
    }
    if (dlp__gnnlm_predict(m, fs, dev, n_val, pred, err) != DLP_OK) return NAN;
    double sum = 0;
    int cnt = 0;
    for (int i = 0; i < n_val; i++) {
        dlp_dataset_sample s;
        s = *dlp_dataset_at(ds, val[i]);
        for (int t = 0; t < m->n_targets; t++) {
            double y = s.targets[tcol[t]];
            if (isnan(y) || y == 0) continue;
            sum += fabs(pred[(size_t)i * m->n_targets + t] - y) / fabs(y);
            cnt++;
        }
    }
    return cnt ? 100.0 * sum / cnt : NAN;
}

static dlp_status train_predict(dlp_gnn *m, const dlp_dataset *ds, const int *train, int n_train, const int *val,
                                int n_val, const int *tcol, const dlp_gnn_opts *o, dlp__nn_adam *og,
                                dlp__nn_adam *ol, dlp_error *err) {
    dlp__gnnlm *x = m->lmx;
    dlp_gnn_info *h = &m->info;
    int n_t = m->n_targets, B = o->batch_size < n_train ? o->batch_size : n_train;
    int *order = malloc(sizeof *order * (size_t)n_train);
    float *tgt = malloc(sizeof *tgt * (size_t)B * n_t * 2);
    double *raw = malloc(sizeof *raw * (size_t)B);   /* the first target as measured (numeric tokens) */
    const dlp_features **fs = malloc(sizeof *fs * (size_t)(n_val > B ? n_val : B));
    const char **dev = malloc(sizeof *dev * (size_t)(n_val > B ? n_val : B));
    float *vpred = malloc(sizeof *vpred * (size_t)(n_val > 0 ? n_val : 1) * n_t);
    float *best_g = malloc(sizeof(float) * (size_t)m->ps.total), *best_l = malloc(sizeof(float) * (size_t)x->lm.ps.total);
    dlp__nn_ws ws = {0};
    dlp_status st = DLP_OK;
    if (!order || !tgt || !raw || !fs || !dev || !vpred || !best_g || !best_l) {
        st = dlp__err(err, DLP_ENOMEM, "gnnlm train: out of memory");
        goto out;
    }
    float *dy = tgt + (size_t)B * n_t;
    for (int i = 0; i < n_train; i++) order[i] = i;
    dlp__nn_rng shuf;
    dlp__nn_rng_seed(&shuf, o->seed ^ 0x5348554646ULL);
    dlp__nn_ctx cx;
    dlp__nn_ctx_init(&cx, &m->ps, &ws, o->seed ^ 0x44524f50ULL, 1);
    double t0 = dlp__now_s(), best = INFINITY;
    int best_epoch = 0;
    int64_t total = (int64_t)((n_train + B - 1) / B) * o->epochs, step = 0;
    for (int ep = 0; ep < o->epochs && st == DLP_OK; ep++) {
        shuffle(order, n_train, &shuf);
        double lsum = 0, lr = o->lr;
        int nb = 0;
        for (int b0 = 0; b0 < n_train && st == DLP_OK; b0 += B, step++) {
            int k = n_train - b0 < B ? n_train - b0 : B;
            if (o->lr_schedule == DLP_GNN_LR_COSINE) {
                double f = cosine(step, total);
                lr = o->lr * f;
                og->lr = (float)lr;
                ol->lr = (float)(o->lm_lr * f);
            }
            for (int q = 0; q < k; q++) {
                dlp_dataset_sample s;
                s = *dlp_dataset_at(ds, train[order[b0 + q]]);
                fs[q] = s.features;
                dev[q] = s.device;
                raw[q] = s.targets[tcol[0]];
                for (int t = 0; t < n_t; t++) {
                    double v = s.targets[tcol[t]];
                    tgt[q * n_t + t] = isnan(v) ? NAN
                                                : (float)((dlp__gnn_prescale(h->target_scale, v) - m->t_mean[t]) / m->t_std[t]);
                }
            }
            dlp__nn_ws_reset(&ws);
            cx.training = 1;
            fb_t b;
            const float *y;
            dlp__nn_zero_grad(&m->ps);
            dlp__nn_zero_grad(&x->lm.ps);
            if (x->output == DLP_GNNLM_OUTPUT_TOKENS) {
                /* the number written out: next-token loss on its digits */
                double l = 0;
                st = tokens_step(m, &cx, fs, dev, k, raw, 1, &l, err);
                lsum += l;
            } else {
                st = gl_forward(m, &cx, fs, dev, k, &b, &y, err);
                if (st == DLP_OK) {
                    lsum += dlp__gnn_loss_vec(m, y, tgt, k * n_t, dy);
                    if ((st = gl_backward(m, &cx, &b, dy, 1)) != DLP_OK)
                        dlp__err(err, st, "gnnlm train: backward failed (%s)", dlp_status_str(st));
                }
                fb_free(&b);
            }
            if (st != DLP_OK) break;
            double clip = o->clip > 0 ? o->clip : 1.0;
            dlp__nn_clip_grad_norm(&m->ps, clip);
            dlp__nn_clip_grad_norm(&x->lm.ps, clip);
            dlp__nn_adam_step(og, &m->ps);
            dlp__nn_adam_step(ol, &x->lm.ps);
            nb++;
        }
        if (st != DLP_OK) break;
        double vm = NAN;
        if (n_val) {
            vm = val_mape(m, ds, val, n_val, tcol, fs, dev, vpred, err);
            if (isnan(vm) && err && err->code) {
                st = err->code;
                break;
            }
            if (vm < best) {
                best = vm;
                best_epoch = ep + 1;
                memcpy(best_g, m->ps.data, sizeof(float) * (size_t)m->ps.total);
                memcpy(best_l, x->lm.ps.data, sizeof(float) * (size_t)x->lm.ps.total);
            }
        }
        h->epochs_run = ep + 1;
        double loss = nb ? lsum / nb : 0;
        if (!isfinite(loss)) {
            st = dlp__err(err, DLP_EINVAL, "gnnlm train: loss diverged at epoch %d (lower --lr?)", ep + 1);
            break;
        }
        if (o->progress) {
            double el = dlp__now_s() - t0;
            dlp_gnn_progress pr = {ep + 1, o->epochs, loss, vm, n_val ? best : NAN, best_epoch, lr, el,
                                   el / (ep + 1) * (o->epochs - ep - 1)};
            if (!isfinite(pr.best_val_mape)) pr.best_val_mape = NAN;
            if (o->progress(o->progress_user, &pr)) break;
        }
    }
    if (st == DLP_OK) {
        if (n_val && !o->keep_last && best_epoch > 0) {
            memcpy(m->ps.data, best_g, sizeof(float) * (size_t)m->ps.total);
            memcpy(x->lm.ps.data, best_l, sizeof(float) * (size_t)x->lm.ps.total);
            h->best_epoch = best_epoch;
        } else {
            h->best_epoch = h->epochs_run;
        }
        h->best_val_mape = n_val && best_epoch > 0 ? best : NAN;
    }
out:
    free(order);
    free(tgt);
    free(raw);
    free(fs);
    free(dev);
    free(vpred);
    free(best_g);
    free(best_l);
    dlp__nn_ws_free(&ws);
    return st;
}

/* ---- training entry ---------------------------------------------------------------- */

static const int dippm_static[] = {DLP_SF_MACS, DLP_SF_BATCH, DLP_SF_N_CONV, DLP_SF_N_DENSE, DLP_SF_N_RELU};

/* Few-shot start: the level of the new samples.  The model's own
 * predictions of the training samples (what it says from the device's
 * description) are compared with the measurements, and each target's
 * mean (in ln units for log scalings) moves by their mean difference, so
 * fine-tuning starts at the right level and spends its few steps on the
 * shape.  A GNN gets the level by refitting its scalings; gnnlm keeps its
 * scalings (the device is in its input) and corrects only the level. */
static dlp_status calibrate_level(dlp_gnn *m, const dlp_dataset *ds, const int *train, int n, const int *tcol,
                                  dlp_error *err) {
    int T = m->n_targets;
    const dlp_features **fs = malloc(sizeof *fs * (size_t)n);
    const char **dev = malloc(sizeof *dev * (size_t)n);
    float *p = malloc(sizeof *p * (size_t)n * (size_t)T);
    dlp_status st = fs && dev && p ? DLP_OK : dlp__err(err, DLP_ENOMEM, "gnnlm train: out of memory");
    for (int i = 0; st == DLP_OK && i < n; i++) {
        dlp_dataset_sample s;
        s = *dlp_dataset_at(ds, train[i]);
        fs[i] = s.features;
        dev[i] = s.device;
    }
    if (st == DLP_OK) st = dlp__gnnlm_predict(m, fs, dev, n, p, err);
    for (int t = 0; st == DLP_OK && t < T; t++) {
        double sum = 0;
        int cnt = 0;
        for (int i = 0; i < n; i++) {
            dlp_dataset_sample s;
            s = *dlp_dataset_at(ds, train[i]);
            double y = s.targets[tcol[t]], yh = p[(size_t)i * T + t];
            if (isnan(y) || !(yh > 0) || !(y > 0)) continue;
            sum += dlp__gnn_prescale(m->info.target_scale, y) - dlp__gnn_prescale(m->info.target_scale, yh);
            cnt++;
        }
        if (cnt) m->t_mean[t] += sum / cnt;
    }
    free(fs);
    free(dev);
    free(p);
    return st;
}

/* A copy of init's language model (with its adapters) into x. */
static dlp_status copy_lm(const dlp__gnnlm *from, dlp__gnnlm *x, dlp_error *err) {
    void *img;
    size_t n;
    dlp_status st = dlp__lm_save_mem(&from->lm, &from->tok, NULL, NULL, &img, &n, err);
    if (st != DLP_OK) return st;
    st = dlp__lm_load_mem(img, n, "init model", NULL, 0, &x->lm, &x->tok, err);
    free(img);
    if (st == DLP_OK) x->has_lm = 1;
    return st;
}

/* The device most samples of the training set name (the default of
 * predictions without one). */
static void common_device(const dlp_dataset *ds, const int *train, int n, char *out, size_t cap) {
    int nd = dlp_dataset_device_count(ds), *cnt = calloc((size_t)(nd > 0 ? nd : 1), sizeof *cnt), best = -1;
    if (!cnt) return;
    for (int i = 0; i < n; i++) {
        dlp_dataset_sample s;
        s = *dlp_dataset_at(ds, train[i]);
        if (s.device_id >= 0 && s.device_id < nd && ++cnt[s.device_id] > (best >= 0 ? cnt[best] : 0)) best = s.device_id;
    }
    if (best >= 0) snprintf(out, cap, "%s", dlp_dataset_device_at(ds, best));
    free(cnt);
}

/* The options with gnnlm's defaults (its own, or --init's recipe) filled
 * in and checked, each named in the message; the dataset has graphs and
 * targets. */
static dlp_status check_opts(dlp_gnn_opts *o, const dlp_dataset *ds, dlp_error *err) {
    const dlp_gnn *init = o->init;
    if (init && !init->lmx) return dlp__err(err, DLP_EINVAL, "gnnlm train: --init must be a gnnlm model");
    if (!init && (!o->lm || !*o->lm)) o->lm = DLP__LM_BUILTIN;   /* the language model dlperf ships */
    if (init && o->lm) return dlp__err(err, DLP_EINVAL, "gnnlm train: give --lm or --init, not both");
    if (init && o->encoder) return dlp__err(err, DLP_EINVAL, "gnnlm train: --encoder starts a new model; not with --init");
    if (!o->hidden) o->hidden = init ? init->info.hidden : 64;
    if (!o->layers) o->layers = 3;
    if (!o->fc_layers) o->fc_layers = init ? init->info.fc_layers : 1;
    if (o->fc_layers < 0) o->fc_layers = 0;
    if (o->dropout == 0) o->dropout = init ? init->info.dropout : 0.05;
    if (o->dropout < 0) o->dropout = 0;
    if (o->lr == 0) o->lr = 1e-3;
    if (o->lm_lr == 0) o->lm_lr = 1e-3;
    if (!o->batch_size) o->batch_size = 16;
    if (!o->epochs) o->epochs = 10;
    if (o->huber_delta == 0) o->huber_delta = 1.0;
    if (!o->lora_rank) o->lora_rank = 8;
    if (!o->soft_tokens) o->soft_tokens = 8;
    if (o->stage != DLP_GNNLM_STAGE_PREDICT && o->stage != DLP_GNNLM_STAGE_ADAPT)
        return dlp__err(err, DLP_EINVAL, "gnnlm train: unknown stage %d", o->stage);
    const char *bad = o->batch_size < 1                                             ? "batch_size"
                      : o->epochs < 1                                               ? "epochs"
                      : o->lr < 0                                                   ? "lr"
                      : o->lm_lr < 0                                                ? "lm_lr"
                      : o->hidden < 1                                               ? "hidden"
                      : o->layers < 1                                               ? "layers"
                      : o->dropout >= 1                                             ? "dropout"
                      : o->loss < 0 || o->loss > DLP_GNN_LOSS_L1                    ? "loss"
                      : o->target_scale < 0 || o->target_scale > DLP_GNN_SCALE_NONE ? "target_scale"
                      : o->huber_delta <= 0                                         ? "huber_delta"
                                                                                    : NULL;
    if (bad) return dlp__err(err, DLP_EINVAL, "gnnlm train: option %s is out of range", bad);
    if (o->n_targets > DLP__GNN_MAX_TARGETS)
        return dlp__err(err, DLP_EINVAL, "gnnlm train: at most %d targets", DLP__GNN_MAX_TARGETS);
    if (!dlp_dataset_graph_at(ds, 0) || dlp_dataset_target_count(ds) < 1)
        return dlp__err(err, DLP_EINVAL, "gnnlm train: the dataset has no graphs or targets");
    return DLP_OK;
}

/* A training run's state across the steps below. */
typedef struct {
    dlp_gnn_opts o;           /* the caller's, with gnnlm's defaults */
    const dlp_gnn *init;
    const dlp_dataset *ds;
    dlp_gnn *m;
    dlp__gnnlm *x;            /* m->lmx */
    int tcol[DLP__GNN_MAX_TARGETS];
    int *train, *val, n_train, n_val;
    dlp__nn_adam og, ol;      /* optimisers: GIN and head; the LM's adapters */
} gl_trainer;

/* What the model reads and answers: the targets (their dataset columns
 * into tcol), the layout of the dataset's graphs and the static features
 * (--init's, the options', or DIPPM's). */
static dlp_status set_contract(gl_trainer *T, dlp_error *err) {
    const dlp_gnn_opts *o = &T->o;
    const dlp_gnn *init = T->init;
    dlp_gnn *m = T->m;
    int n_t = o->n_targets > 0 ? o->n_targets : 1;
    m->n_targets = n_t;
    for (int k = 0; k < n_t; k++) {
        const char *name = o->n_targets > 0 && o->targets ? o->targets[k] : dlp_dataset_target_at(T->ds, 0);
        T->tcol[k] = dlp_dataset_target_index(T->ds, name);
        if (T->tcol[k] < 0)
            return dlp__err(err, DLP_ENOTFOUND, "gnnlm train: the dataset has no target '%s'", name ? name : "");
        snprintf(m->target[k], sizeof m->target[k], "%s", name);
    }
    const dlp_features *f0 = dlp_dataset_graph_at(T->ds, 0);
    m->layout = dlp_dataset_layout(T->ds);
    m->layout_version = f0->layout_version;
    m->n_feat = f0->n_feat;
    if (init) {
        if (init->layout != m->layout || init->layout_version != m->layout_version || init->n_feat != m->n_feat ||
            init->n_targets != n_t)
            return dlp__err(err, DLP_EINVAL,
                            "gnnlm train: --init was trained on other features or targets (%s version %d, %d targets)",
                            dlp_layout_name(init->layout), init->layout_version, init->n_targets);
        m->n_static = init->n_static;
        memcpy(m->sf, init->sf, sizeof m->sf);
    } else if (o->n_static > 0 && o->static_features) {
        if (o->n_static > DLP_SF_COUNT)
            return dlp__err(err, DLP_EINVAL, "gnnlm train: at most %d static features", DLP_SF_COUNT);
        m->n_static = o->n_static;
        for (int j = 0; j < o->n_static; j++) {
            if (o->static_features[j] < 0 || o->static_features[j] >= DLP_SF_COUNT)
                return dlp__err(err, DLP_EINVAL, "gnnlm train: static feature %d out of range", o->static_features[j]);
            m->sf[j] = o->static_features[j];
        }
    } else if (o->n_static == 0) {
        m->n_static = 5;
        memcpy(m->sf, dippm_static, sizeof dippm_static);
    }
    return DLP_OK;
}

/* The GIN's recipe: the GraphMAE encoder's (stage 1), init's, or a fresh one. */
static dlp_status set_gin(gl_trainer *T, dlp_error *err) {
    const dlp_gnn_opts *o = &T->o;
    dlp__gnnlm *x = T->x;
    if (o->encoder) {
        dlp__enc_recipe_get(o->encoder, &x->gin.r);
        if (x->gin.r.method != DLP_PRETRAIN_GRAPHMAE)
            return dlp__err(err, DLP_EINVAL, "gnnlm train: the encoder must be a GraphMAE (GIN) encoder, not %s",
                            dlp_pretrain_method_name(x->gin.r.method));
        x->gin_pretrained = 1;
    } else if (T->init) {
        x->gin.r = T->init->lmx->gin.r;
        x->gin_pretrained = T->init->lmx->gin_pretrained;
        x->lm_adapted = T->init->lmx->lm_adapted;
    } else {
        x->gin.r = (dlp__enc_recipe){DLP_PRETRAIN_GRAPHMAE, T->m->n_feat, o->hidden, o->layers, o->dropout,
                                     T->m->layout, T->m->layout_version};
    }
    return DLP_OK;
}

/* The language model: init's (with its adapters), or the built-in one, a
 * Hugging Face LLaMA-family folder or an lm .dlpm with LoRA, soft prompt
 * and graph projection added and the base frozen. */
static dlp_status load_lm(gl_trainer *T, dlp_error *err) {
    const dlp_gnn_opts *o = &T->o;
    dlp__gnnlm *x = T->x;
    if (T->init) return copy_lm(T->init->lmx, x, err);
    dlp__lm_config add = {0};
    add.lora_rank = o->lora_rank > 0 ? o->lora_rank : 0;
    add.lora_alpha = 2.0f * (float)add.lora_rank;
    add.n_soft = o->soft_tokens > 0 ? o->soft_tokens : 0;
    add.graph_dim = x->gin.r.hidden + T->m->n_static;
    dlp_error le = {0};
    const void *bi;
    size_t bn;
    dlp__lm_builtin(&bi, &bn);
    struct stat sb;
    dlp_status st;
    if (!strcmp(o->lm, DLP__LM_BUILTIN))
        st = dlp__lm_load_mem(bi, bn, "the built-in language model", &add, o->seed ^ 0x4c4dULL, &x->lm, &x->tok, &le);
    else if (stat(o->lm, &sb) == 0 && S_ISDIR(sb.st_mode))
        st = dlp__lm_load_hf(o->lm, &add, o->seed ^ 0x4c4dULL, &x->lm, &x->tok, &le);
    else
        st = dlp__lm_load(o->lm, &add, o->seed ^ 0x4c4dULL, &x->lm, &x->tok, NULL, &le);
    if (st != DLP_OK) return dlp__err(err, st, "gnnlm train: %s", le.msg);
    x->has_lm = 1;
    if (x->lm.c.graph_dim != add.graph_dim)
        return dlp__err(err, DLP_EINVAL, "gnnlm train: %s has a graph projection for %d values, this model makes %d",
                        o->lm, x->lm.c.graph_dim, add.graph_dim);
    dlp__lm_set_base_trainable(&x->lm, 0);
    return DLP_OK;
}

/* The stage, how the graph enters the prompt and what the model answers
 * with (init's input and output are kept), and the combinations refused. */
static dlp_status set_io(gl_trainer *T, dlp_error *err) {
    const dlp_gnn_opts *o = &T->o;
    dlp__gnnlm *x = T->x;
    x->lm_dim = x->lm.c.dim;
    x->stage = o->stage;
    x->input = T->init ? T->init->lmx->input : o->graph_input;
    x->output = T->init ? T->init->lmx->output : o->output;
    if (x->output != DLP_GNNLM_OUTPUT_HEAD && x->output != DLP_GNNLM_OUTPUT_TOKENS)
        return dlp__err(err, DLP_EINVAL, "gnnlm train: unknown output %d", x->output);
    if (x->output == DLP_GNNLM_OUTPUT_TOKENS && (x->input != DLP_GNNLM_INPUT_TOKEN || T->m->n_targets != 1))
        return dlp__err(err, DLP_EINVAL, "gnnlm train: numeric-token output needs the graph token and one target");
    if (x->input < DLP_GNNLM_INPUT_TOKEN || x->input > DLP_GNNLM_INPUT_JSON)
        return dlp__err(err, DLP_EINVAL, "gnnlm train: unknown graph input %d", x->input);
    if (x->input != DLP_GNNLM_INPUT_TOKEN && o->stage == DLP_GNNLM_STAGE_ADAPT)
        return dlp__err(err, DLP_EINVAL, "gnnlm train: stage adapt trains the graph token; the graph as %s has none",
                        x->input == DLP_GNNLM_INPUT_TEXT ? "text" : "JSON");
    if (o->stage == DLP_GNNLM_STAGE_ADAPT) x->lm_adapted = 1;
    return DLP_OK;
}

/* The network's recipe in m->info. */
static void set_recipe(gl_trainer *T) {
    dlp_gnn_info *h = &T->m->info;
    h->arch = DLP_GNN_GNNLM;
    h->hidden = T->o.hidden;
    h->layers = T->x->gin.r.layers;
    h->block_depth = 1;
    h->fc_layers = T->o.fc_layers;
    h->readout = DLP_GNN_READOUT_SCALED_SUM;
    h->gat_heads = 1;
    h->dropout = T->o.dropout;
    dlp__gnn_info_common(T->m, &T->o, T->ds);
}

/* The samples that have the targets, the scalings, the readout scale and
 * the most common device. */
static dlp_status set_samples(gl_trainer *T, const int *train_in, int n_train_in, const int *val_in, int n_val_in,
                              dlp_error *err) {
    dlp_gnn *m = T->m;
    const dlp_gnn *init = T->init;
    const dlp_dataset *ds = T->ds;
    int n_t = m->n_targets;
    dlp_status st;
    if ((st = dlp__gnn_present(ds, T->tcol, n_t, train_in, n_train_in, &T->train, &T->n_train, "gnnlm train", err)) !=
            DLP_OK ||
        (st = dlp__gnn_present(ds, T->tcol, n_t, val_in, n_val_in, &T->val, &T->n_val, "gnnlm train", err)) != DLP_OK)
        return st;
    if (!T->n_train) return dlp__err(err, DLP_EINVAL, "gnnlm train: no training sample has the target(s)");
    m->info.n_train = T->n_train;
    m->info.n_val = T->n_val;
    /* Scalings: fitted here for a new model.  A gnnlm --init keeps its
     * own (the device is in the prompt; refitting on a few samples of one
     * device would move every output the model places by the description)
     * and only corrects its level on the new samples (calibrate_level). */
    if (init) {
        memcpy(m->sf_mean, init->sf_mean, sizeof m->sf_mean);
        memcpy(m->sf_std, init->sf_std, sizeof m->sf_std);
        memcpy(m->t_mean, init->t_mean, sizeof m->t_mean);
        memcpy(m->t_std, init->t_std, sizeof m->t_std);
        if (init->info.target_scale != T->o.target_scale)
            return dlp__err(err, DLP_EINVAL, "gnnlm train: --init scales targets %s, not %s",
                            dlp_gnn_scale_name(init->info.target_scale), dlp_gnn_scale_name(T->o.target_scale));
    } else if ((st = dlp__gnn_fit_scalings(m, ds, T->tcol, T->train, T->n_train, err)) != DLP_OK) {
        return st;
    }
    double nodes = 0;
    for (int i = 0; i < T->n_train; i++) {
        dlp_dataset_sample s;
        s = *dlp_dataset_at(ds, T->train[i]);
        nodes += s.features->n_nodes;
    }
    /* init's readout scale is kept: the GIN's output scale is learned with it */
    m->ro_scale = init ? init->ro_scale : T->n_train / nodes;
    common_device(ds, T->train, T->n_train, T->x->device, sizeof T->x->device);
    return DLP_OK;
}

/* The network built and its weights: from the seed, the encoder's GIN,
 * or --init's (whose level is then corrected on the new samples). */
static dlp_status init_weights(gl_trainer *T, dlp_error *err) {
    dlp_gnn *m = T->m;
    const dlp_gnn *init = T->init;
    dlp_status st = dlp__gnn_build(m, err);
    if (st != DLP_OK) return st;
    dlp__nn_params_init(&m->ps, T->o.seed);
    if (T->o.encoder) {
        dlp_error ee = {0};
        if ((st = dlp__enc_copy_weights(T->o.encoder, &m->ps, &ee)) != DLP_OK)
            return dlp__err(err, st, "gnnlm train: the encoder's weights: %s", ee.msg);
    }
    if (!init) return DLP_OK;
    if (init->ps.total != m->ps.total)
        return dlp__err(err, DLP_EINVAL, "gnnlm train: --init has another shape (%lld values, this recipe %lld)",
                        (long long)init->ps.total, (long long)m->ps.total);
    memcpy(m->ps.data, init->ps.data, sizeof(float) * (size_t)m->ps.total);
    /* only a model that already predicts has a level to correct (a
     * stage-2 model's head is untrained) */
    if (T->o.stage == DLP_GNNLM_STAGE_PREDICT && init->lmx->stage == DLP_GNNLM_STAGE_PREDICT)
        return calibrate_level(m, T->ds, T->train, T->n_train, T->tcol, err);
    return DLP_OK;
}

/* The optimisers and the stage's training loop, timed. */
static dlp_status train_stage(gl_trainer *T, dlp_error *err) {
    const dlp_gnn_opts *o = &T->o;
    dlp_gnn *m = T->m;
    dlp_status st;
    if (o->threads > 0) openblas_set_num_threads(o->threads);
    if ((st = dlp__nn_adam_init(&T->og, &m->ps, (float)o->lr, 0.9f, 0.999f, 1e-8f, (float)o->weight_decay,
                                o->adamw != 0)) != DLP_OK ||
        (st = dlp__nn_adam_init(&T->ol, &T->x->lm.ps, (float)o->lm_lr, 0.9f, 0.999f, 1e-8f, 0.0f, 1)) != DLP_OK)
        return dlp__err(err, st, "gnnlm train: optimizer: %s", dlp_status_str(st));
    double t0 = dlp__now_s();
    if (o->stage == DLP_GNNLM_STAGE_ADAPT) st = train_adapt(m, T->ds, T->train, T->n_train, o, &T->ol, err);
    else st = train_predict(m, T->ds, T->train, T->n_train, T->val, T->n_val, T->tcol, o, &T->og, &T->ol, err);
    if (st != DLP_OK) return st;
    m->info.train_seconds = dlp__now_s() - t0;
    dlp__nn_zero_grad(&m->ps);
    dlp__nn_zero_grad(&T->x->lm.ps);
    return DLP_OK;
}

dlp_status dlp__gnnlm_train(const dlp_dataset *ds, const int *train_in, int n_train_in, const int *val_in,
                            int n_val_in, const dlp_gnn_opts *opts, dlp_gnn **out, dlp_error *err) {
    gl_trainer T = {.o = *opts, .init = opts->init, .ds = ds};
    dlp_status st = check_opts(&T.o, ds, err);
    if (st != DLP_OK) return st;
    T.m = dlp__gnn_alloc();
    T.x = T.m ? gl_alloc() : NULL;
    if (!T.m || !T.x) {
        free(T.m);
        return dlp__err(err, DLP_ENOMEM, "gnnlm train: out of memory");
    }
    T.m->lmx = T.x;
    T.m->ops = &dlp__gnnlm_ops;
    if ((st = set_contract(&T, err)) == DLP_OK && (st = set_gin(&T, err)) == DLP_OK &&
        (st = load_lm(&T, err)) == DLP_OK && (st = set_io(&T, err)) == DLP_OK) {
        set_recipe(&T);
        if ((st = set_samples(&T, train_in, n_train_in, val_in, n_val_in, err)) == DLP_OK &&
            (st = init_weights(&T, err)) == DLP_OK)
            st = train_stage(&T, err);
    }
    if (st == DLP_OK) {
        *out = T.m;
        T.m = NULL;
    }
    dlp__nn_adam_free(&T.og);
    dlp__nn_adam_free(&T.ol);
    free(T.train);
    free(T.val);
    dlp_gnn_free(T.m);
    return st;
}

/* ---- model file ------------------------------------------------------------------ */

void dlp__gnnlm_header(const dlp_gnn *m, cJSON *root, size_t lm_bytes) {
    const dlp__gnnlm *x = m->lmx;
    cJSON *g = cJSON_AddObjectToObject(root, "gnnlm");
    if (!g) return;
    cJSON_AddNumberToObject(g, "lm_bytes", (double)lm_bytes);
    cJSON_AddStringToObject(g, "stage", x->stage == DLP_GNNLM_STAGE_ADAPT ? "adapt" : "predict");
    cJSON_AddStringToObject(g, "graph_input", dlp_gnnlm_input_name(x->input));
    cJSON_AddStringToObject(g, "output", x->output == DLP_GNNLM_OUTPUT_TOKENS ? "tokens" : "head");
    cJSON_AddBoolToObject(g, "gin_pretrained", x->gin_pretrained);
    cJSON_AddBoolToObject(g, "lm_adapted", x->lm_adapted);
    cJSON_AddStringToObject(g, "device", x->device);
    cJSON_AddNumberToObject(g, "lm_dim", x->lm_dim);
    cJSON *e = cJSON_AddObjectToObject(g, "gin");
    cJSON_AddNumberToObject(e, "n_feat", x->gin.r.n_feat);
    cJSON_AddNumberToObject(e, "hidden", x->gin.r.hidden);
    cJSON_AddNumberToObject(e, "layers", x->gin.r.layers);
    cJSON_AddNumberToObject(e, "dropout", x->gin.r.dropout);
    cJSON_AddNumberToObject(e, "layout_id", x->gin.r.layout);
    cJSON_AddNumberToObject(e, "layout_version", x->gin.r.layout_version);
}

dlp_status dlp__gnnlm_parse(dlp_gnn *m, const cJSON *o, const char *name, uint64_t *lm_bytes, dlp_error *err) {
    if (!cJSON_IsObject(o)) return dlp__err(err, DLP_EFORMAT, "%s: a gnnlm model without its 'gnnlm' member", name);
    dlp__gnnlm *x = gl_alloc();
    if (!x) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", name);
    m->lmx = x;
    dlp__dlpm_rd r = {name, "model", err, DLP_OK};
    const char *s = dlp__dlpm_str(&r, o, "stage");
    if (r.st == DLP_OK) {
        if (!strcmp(s, "adapt")) x->stage = DLP_GNNLM_STAGE_ADAPT;
        else if (!strcmp(s, "predict")) x->stage = DLP_GNNLM_STAGE_PREDICT;
        else return dlp__err(err, DLP_EFORMAT, "%s: unknown gnnlm stage '%s'", name, s);
    }
    /* graph_input and output: absent in the first gnnlm files, whose
     * models were token / head */
    const cJSON *gi = cJSON_GetObjectItemCaseSensitive(o, "graph_input"), *go = cJSON_GetObjectItemCaseSensitive(o, "output");
    s = cJSON_IsString(gi) ? gi->valuestring : "token";
    if ((x->input = dlp_gnnlm_input_parse(s)) < 0)
        return dlp__err(err, DLP_EFORMAT, "%s: unknown gnnlm graph input '%s'", name, s);
    s = cJSON_IsString(go) ? go->valuestring : "head";
    if (!strcmp(s, "tokens")) x->output = DLP_GNNLM_OUTPUT_TOKENS;
    else if (!strcmp(s, "head")) x->output = DLP_GNNLM_OUTPUT_HEAD;
    else return dlp__err(err, DLP_EFORMAT, "%s: unknown gnnlm output '%s'", name, s);
    const cJSON *b1 = cJSON_GetObjectItemCaseSensitive(o, "gin_pretrained"),
                *b2 = cJSON_GetObjectItemCaseSensitive(o, "lm_adapted");
    x->gin_pretrained = cJSON_IsTrue(b1);
    x->lm_adapted = cJSON_IsTrue(b2);
    s = dlp__dlpm_str(&r, o, "device");
    if (r.st == DLP_OK) snprintf(x->device, sizeof x->device, "%s", s);
    x->lm_dim = (int)dlp__dlpm_inum(&r, o, "lm_dim", 1, 1 << 16);
    *lm_bytes = (uint64_t)dlp__dlpm_num(&r, o, "lm_bytes");
    const cJSON *e = dlp__dlpm_need(&r, o, "gin", cJSON_Object);
    if (r.st != DLP_OK) return r.st;
    dlp__enc_recipe *er = &x->gin.r;
    er->method = DLP_PRETRAIN_GRAPHMAE;
    er->n_feat = (int)dlp__dlpm_inum(&r, e, "n_feat", 1, 1 << 20);
    er->hidden = (int)dlp__dlpm_inum(&r, e, "hidden", 1, 1 << 16);
    er->layers = (int)dlp__dlpm_inum(&r, e, "layers", 1, 64);
    er->dropout = dlp__dlpm_num(&r, e, "dropout");
    er->layout = (int)dlp__dlpm_inum(&r, e, "layout_id", 1, 1 << 20);
    er->layout_version = (int)dlp__dlpm_inum(&r, e, "layout_version", 0, 1 << 20);
    return r.st;
}

dlp_status dlp__gnnlm_lm_image(const dlp_gnn *m, void **buf, size_t *len, dlp_error *err) {
    return dlp__lm_save_mem(&m->lmx->lm, &m->lmx->tok, NULL, NULL, buf, len, err);
}

dlp_status dlp__gnnlm_load_lm(dlp_gnn *m, const void *buf, size_t len, const char *name, dlp_error *err) {
    dlp__gnnlm *x = m->lmx;
    dlp_status st = dlp__lm_load_mem(buf, len, name, NULL, 0, &x->lm, &x->tok, err);
    if (st != DLP_OK) return st;
    x->has_lm = 1;
    if (x->lm.c.dim != x->lm_dim || x->lm.c.graph_dim != x->gin.r.hidden + m->n_static)
        return dlp__err(err, DLP_EFORMAT, "%s: the language model (width %d, graph vector %d) does not fit the model "
                        "(width %d, graph vector %d)", name, x->lm.c.dim, x->lm.c.graph_dim, x->lm_dim,
                        x->gin.r.hidden + m->n_static);
    dlp__lm_set_base_trainable(&x->lm, 0);
    m->info.n_params = dlp__nn_params_trainable(&m->ps) + dlp__nn_params_trainable(&x->lm.ps);
    return DLP_OK;
}

static const char *const input_names[] = {"token", "text", "json"};
const char *dlp_gnnlm_input_name(dlp_gnnlm_input v) { return v >= 0 && v < 3 ? input_names[v] : "?"; }
int dlp_gnnlm_input_parse(const char *s) {
    for (int i = 0; s && i < 3; i++)
        if (!strcmp(s, input_names[i])) return i;
    return -1;
}

/* ---- the architecture's row (gnn_internal.h, learn/arch.c) ------------------------- */

static void ops_free(dlp_gnn *m) {
    dlp__gnnlm_free(m->lmx);
    m->lmx = NULL;
}
static const char *ops_device(const dlp_gnn *m) { return dlp__gnnlm_device(m->lmx); }
static int ops_stage(const dlp_gnn *m) { return dlp__gnnlm_stage(m->lmx); }
static dlp_status ops_parse(dlp_gnn *m, const cJSON *root, const char *name, uint64_t *tail, dlp_error *err) {
    return dlp__gnnlm_parse(m, cJSON_GetObjectItemCaseSensitive(root, "gnnlm"), name, tail, err);
}

const dlp__gnn_arch_ops dlp__gnnlm_ops = {
    .arch = DLP_GNN_GNNLM,
    .train = dlp__gnnlm_train,
    .build = dlp__gnnlm_build,
    .predict = dlp__gnnlm_predict,
    .free = ops_free,
    .device = ops_device,
    .stage = ops_stage,
    .header = dlp__gnnlm_header,
    .parse = ops_parse,
    .tail_image = dlp__gnnlm_lm_image,
    .load_tail = dlp__gnnlm_load_lm,
};
