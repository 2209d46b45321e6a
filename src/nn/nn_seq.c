/*
 * nn_seq.c — composition: dlp__nn_layer dispatches forward/backward to the
 * concrete layer by kind, and dlp__nn_seq runs a list of layers, keeping
 * each activation (in the workspace) for the backward sweep.
 *
 * A GNN regressor is exactly such a list: convs and activations over nodes,
 * a readout that turns node rows into graph rows, then an MLP head.  Row
 * counts may change along the way (readouts), feature counts must chain.
 */
#include "nn/nn.h"

#include <stdlib.h>
#include <string.h>

int dlp__nn_layer_in(const dlp__nn_layer *l) {
    switch (l->kind) {
    case DLP__NN_L_LINEAR: return l->u.linear.in;
    case DLP__NN_L_SAGE: return l->u.sage.in;
    case DLP__NN_L_GCN: return l->u.gcn.in;
    case DLP__NN_L_GIN: return l->u.gin.in;
    case DLP__NN_L_GAT: return l->u.gat.in;
    case DLP__NN_L_BATCHNORM: return l->u.bn.f;
    case DLP__NN_L_LAYERNORM: return l->u.ln.f;
    case DLP__NN_L_ACT: return l->u.act.f;
    case DLP__NN_L_DROPOUT: return l->u.drop.f;
    case DLP__NN_L_READOUT: return l->u.ro.f;
    }
    return 0;
}

int dlp__nn_layer_out(const dlp__nn_layer *l) {
    switch (l->kind) {
    case DLP__NN_L_LINEAR: return l->u.linear.out;
    case DLP__NN_L_SAGE: return l->u.sage.out;
    case DLP__NN_L_GCN: return l->u.gcn.out;
    case DLP__NN_L_GIN: return l->u.gin.out;
    case DLP__NN_L_GAT: return dlp__nn_gat_out(&l->u.gat);
    default: return dlp__nn_layer_in(l);   /* shape-preserving layers */
    }
}

int dlp__nn_layer_rows(const dlp__nn_layer *l, const dlp__nn_graph *g, int n) {
    return l->kind == DLP__NN_L_READOUT ? (g ? g->n_graphs : 0) : n;
}

static int needs_graph(dlp__nn_kind k) {
    return k == DLP__NN_L_SAGE || k == DLP__NN_L_GCN || k == DLP__NN_L_GIN ||
           k == DLP__NN_L_GAT || k == DLP__NN_L_READOUT;
}

dlp_status dlp__nn_layer_forward(dlp__nn_layer *l, dlp__nn_ctx *cx,
                                 const dlp__nn_graph *g, const float *x, int n,
                                 float *y) {
    if (n < 0 || (needs_graph(l->kind) && !g)) return DLP_EINVAL;
    switch (l->kind) {
    case DLP__NN_L_LINEAR: return dlp__nn_linear_forward(&l->u.linear, cx, x, n, y);
    case DLP__NN_L_SAGE: return dlp__nn_sage_forward(&l->u.sage, cx, g, x, n, y);
    case DLP__NN_L_GCN: return dlp__nn_gcn_forward(&l->u.gcn, cx, g, x, n, y);
    case DLP__NN_L_GIN: return dlp__nn_gin_forward(&l->u.gin, cx, g, x, n, y);
    case DLP__NN_L_GAT: return dlp__nn_gat_forward(&l->u.gat, cx, g, x, n, y);
    case DLP__NN_L_BATCHNORM: return dlp__nn_batchnorm_forward(&l->u.bn, cx, x, n, y);
    case DLP__NN_L_LAYERNORM: return dlp__nn_layernorm_forward(&l->u.ln, cx, x, n, y);
    case DLP__NN_L_ACT: return dlp__nn_act_forward(&l->u.act, cx, x, n, y);
    case DLP__NN_L_DROPOUT: return dlp__nn_dropout_forward(&l->u.drop, cx, x, n, y);
    case DLP__NN_L_READOUT: return dlp__nn_readout_forward(&l->u.ro, cx, g, x, n, y);
    }
    return DLP_EINVAL;
}

dlp_status dlp__nn_layer_backward(dlp__nn_layer *l, dlp__nn_ctx *cx,
                                  const dlp__nn_graph *g, const float *dy,
                                  float *dx) {
    if (needs_graph(l->kind) && !g) return DLP_EINVAL;
    switch (l->kind) {
    case DLP__NN_L_LINEAR: return dlp__nn_linear_backward(&l->u.linear, cx, dy, dx);
    case DLP__NN_L_SAGE: return dlp__nn_sage_backward(&l->u.sage, cx, g, dy, dx);
    case DLP__NN_L_GCN: return dlp__nn_gcn_backward(&l->u.gcn, cx, g, dy, dx);
    case DLP__NN_L_GIN: return dlp__nn_gin_backward(&l->u.gin, cx, g, dy, dx);
    case DLP__NN_L_GAT: return dlp__nn_gat_backward(&l->u.gat, cx, g, dy, dx);
    case DLP__NN_L_BATCHNORM: return dlp__nn_batchnorm_backward(&l->u.bn, cx, dy, dx);
    case DLP__NN_L_LAYERNORM: return dlp__nn_layernorm_backward(&l->u.ln, cx, dy, dx);
    case DLP__NN_L_ACT: return dlp__nn_act_backward(&l->u.act, cx, dy, dx);
    case DLP__NN_L_DROPOUT: return dlp__nn_dropout_backward(&l->u.drop, cx, dy, dx);
    case DLP__NN_L_READOUT: return dlp__nn_readout_backward(&l->u.ro, cx, g, dy, dx);
    }
    return DLP_EINVAL;
}

/* ---- sequence -------------------------------------------------------- */

dlp__nn_layer *dlp__nn_seq_push(dlp__nn_seq *s, dlp__nn_kind kind) {
    if (s->n == s->cap) {
        int nc = s->cap ? s->cap * 2 : 8;
        dlp__nn_layer *l = realloc(s->l, (size_t)nc * sizeof *l);
        if (!l) return NULL;
        s->l = l;
        int *rows = realloc(s->rows, (size_t)(nc + 1) * sizeof *rows);
        if (!rows) return NULL;
        s->rows = rows;
        const float **act = realloc(s->act, (size_t)(nc + 1) * sizeof *act);
        if (!act) return NULL;
        s->act = act;
        s->cap = nc;
    }
    dlp__nn_layer *l = &s->l[s->n++];
    memset(l, 0, sizeof *l);
    l->kind = kind;
    return l;
}

dlp_status dlp__nn_seq_forward(dlp__nn_seq *s, dlp__nn_ctx *cx,
                               const dlp__nn_graph *g, const float *x, int n,
                               const float **y, int *rows) {
    if (s->n == 0) return DLP_EINVAL;
    s->act[0] = x;
    s->rows[0] = n;
    for (int i = 0; i < s->n; i++) {
        dlp__nn_layer *l = &s->l[i];
        if (i > 0 && dlp__nn_layer_in(l) != dlp__nn_layer_out(&s->l[i - 1]))
            return DLP_EINVAL;
        if (l->kind == DLP__NN_L_DROPOUT && !(cx->training && l->u.drop.p > 0)) {
            /* inactive dropout is the identity: its input passes on, uncopied */
            l->u.drop.n = s->rows[i];
            l->u.drop.active = 0;
            l->u.drop.mask = NULL;
            s->act[i + 1] = s->act[i];
            s->rows[i + 1] = s->rows[i];
            continue;
        }
        int r = dlp__nn_layer_rows(l, g, s->rows[i]);
        float *out = dlp__nn_ws_floats(cx->ws, (size_t)r * dlp__nn_layer_out(l));
        if (!out) return DLP_ENOMEM;
        dlp_status st = dlp__nn_layer_forward(l, cx, g, s->act[i], s->rows[i], out);
        if (st != DLP_OK) return st;
        s->act[i + 1] = out;
        s->rows[i + 1] = r;
    }
    *y = s->act[s->n];
    *rows = s->rows[s->n];
    return DLP_OK;
}

dlp_status dlp__nn_seq_backward(dlp__nn_seq *s, dlp__nn_ctx *cx,
                                const dlp__nn_graph *g, const float *dy,
                                float *dx) {
    /* gradients flow through two buffers sized for the largest layer input;
     * each layer's own scratch is released as soon as it returns */
    size_t big = 0;
    for (int i = 1; i < s->n; i++) {
        size_t sz = (size_t)s->rows[i] * dlp__nn_layer_in(&s->l[i]);
        if (sz > big) big = sz;
    }
    float *buf[2] = {NULL, NULL};
    if (s->n > 1) {
        buf[0] = dlp__nn_ws_floats(cx->ws, big);
        buf[1] = dlp__nn_ws_floats(cx->ws, big);
        if (!buf[0] || !buf[1]) return DLP_ENOMEM;
    }
    for (int i = s->n - 1; i >= 0; i--) {
        dlp__nn_layer *l = &s->l[i];
        float *din = dx;
        if (i > 0) {
            din = buf[i & 1];
            memset(din, 0, (size_t)s->rows[i] * dlp__nn_layer_in(l) * sizeof *din);
        }
        dlp__nn_ws_mark mark = dlp__nn_ws_get_mark(cx->ws);
        dlp_status st = dlp__nn_layer_backward(l, cx, g, dy, din);
        dlp__nn_ws_release(cx->ws, mark);
        if (st != DLP_OK) return st;
        dy = din;
    }
    return DLP_OK;
}

void dlp__nn_seq_free(dlp__nn_seq *s) {
    if (!s) return;
    free(s->l);
    free(s->rows);
    free(s->act);
    memset(s, 0, sizeof *s);
}

int dlp__nn_seq_clone(const dlp__nn_seq *s, dlp__nn_seq *c) {
    memset(c, 0, sizeof *c);
    if (!s->n) return 0;
    c->l = malloc((size_t)s->n * sizeof *c->l);
    c->rows = malloc((size_t)(s->n + 1) * sizeof *c->rows);
    c->act = malloc((size_t)(s->n + 1) * sizeof *c->act);
    if (!c->l || !c->rows || !c->act) {
        dlp__nn_seq_free(c);
        return -1;
    }
    memcpy(c->l, s->l, (size_t)s->n * sizeof *c->l);
    c->n = c->cap = s->n;
    return 0;
}
