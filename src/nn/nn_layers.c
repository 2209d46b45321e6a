/*
 * nn_layers.c — the dense and message-passing layers: Linear, SAGEConv,
 * GCNConv, GINConv, GATConv and the graph readout, each an explicit
 * forward/backward pair following the conventions in nn.h.
 *
 * Semantics follow PyTorch / PyTorch-Geometric 2.x so that weights trained
 * there (or the DIPPM reference models) mean the same thing here: Linear
 * weights are (out, in); SAGEConv = lin_l(mean of neighbours) + lin_r(x);
 * GCN/GAT see exactly one self loop per node; GAT's softmax runs over each
 * node's incoming edges, per head.
 *
 * Every dense product is one cblas_sgemm; the sparse parts are plain loops
 * over the destination-major CSR.  Forward caches pointers to its inputs
 * and the few intermediates backward cannot cheaply recompute.
 */
#include "nn/nn.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CHECK_ALLOC(p) do { if (!(p)) return DLP_ENOMEM; } while (0)

/* ---- Linear ---------------------------------------------------------- */

dlp_status dlp__nn_linear_init(dlp__nn_linear *l, dlp__nn_params *ps,
                               const char *name, int in, int out, int bias) {
    memset(l, 0, sizeof *l);
    if (in <= 0 || out <= 0) return DLP_EINVAL;
    l->in = in;
    l->out = out;
    /* PyG's Linear and the convs use glorot weights and zero biases */
    l->w = dlp__nn_params_add(ps, name, "weight", 2, out, in, DLP__NN_INIT_GLOROT, 0, 1);
    l->b = bias ? dlp__nn_params_add(ps, name, "bias", 1, out, 1, DLP__NN_INIT_ZEROS, 0, 1) : -1;
    if (l->w < 0 || (bias && l->b < 0)) return DLP_ENOMEM;
    return DLP_OK;
}

/* y = x W^T (+ b); accumulate: y += x W^T (+ b) */
static void linear_fwd(dlp__nn_linear *l, const dlp__nn_params *ps,
                       const float *x, int n, float *y, int accumulate) {
    const float *W = dlp__nn_pv(ps, l->w);
    float beta = accumulate ? 1.0f : 0.0f;
    if (l->b >= 0) {
        const float *b = dlp__nn_pv(ps, l->b);
        size_t row = (size_t)l->out * sizeof *y;
        if (!accumulate)
            for (int i = 0; i < n; i++) memcpy(y + (size_t)i * l->out, b, row);
        else
            for (int i = 0; i < n; i++) {
                float *yi = y + (size_t)i * l->out;
                for (int o = 0; o < l->out; o++) yi[o] += b[o];
            }
        beta = 1.0f;
    }
    dlp__nn_gemm(0, 1, n, l->out, l->in, 1.0f, x, l->in, W, l->in, beta, y, l->out);
    l->x = x;
    l->n = n;
}

dlp_status dlp__nn_linear_forward(dlp__nn_linear *l, dlp__nn_ctx *cx,
                                  const float *x, int n, float *y) {
    if (n < 0) return DLP_EINVAL;
    linear_fwd(l, cx->ps, x, n, y, 0);
    return DLP_OK;
}

/* dx_beta 1: dx += dy W (the convention); 0: dx = dy W, which spares the
 * caller zeroing a scratch buffer first. */
static void linear_bwd(dlp__nn_linear *l, dlp__nn_params *ps, const float *dy,
                       float *dx, float dx_beta) {
    int n = l->n;
    /* dW (out, in) += dy^T (out, n) x (n, in) */
    dlp__nn_gemm(1, 0, l->out, l->in, n, 1.0f, dy, l->out, l->x, l->in, 1.0f,
                 dlp__nn_pg(ps, l->w), l->in);
    if (l->b >= 0) {
        float *db = dlp__nn_pg(ps, l->b);
        for (int i = 0; i < n; i++) {
            const float *dyi = dy + (size_t)i * l->out;
            for (int o = 0; o < l->out; o++) db[o] += dyi[o];
        }
    }
    /* dx (n, in) += dy (n, out) W (out, in) */
    if (dx)
        dlp__nn_gemm(0, 0, n, l->in, l->out, 1.0f, dy, l->out, dlp__nn_pv(ps, l->w),
                     l->in, dx_beta, dx, l->in);
}

dlp_status dlp__nn_linear_backward(dlp__nn_linear *l, dlp__nn_ctx *cx,
                                   const float *dy, float *dx) {
    linear_bwd(l, cx->ps, dy, dx, 1.0f);
    return DLP_OK;
}

/* ---- SAGEConv -------------------------------------------------------- */

#define NORM_EPS 1e-12f         /* F.normalize default */

dlp_status dlp__nn_sage_init(dlp__nn_sage *l, dlp__nn_params *ps,
                             const char *name, int in, int out, dlp__nn_agg aggr,
                             int normalize) {
    memset(l, 0, sizeof *l);
    if (in <= 0 || out <= 0 || aggr < DLP__NN_AGG_SUM || aggr > DLP__NN_AGG_MAX)
        return DLP_EINVAL;
    l->in = in;
    l->out = out;
    l->aggr = aggr;
    l->normalize = normalize;
    char sub[DLP__NN_NAME_MAX];
    dlp_status st;
    snprintf(sub, sizeof sub, "%s%slin_l", name ? name : "", name && *name ? "." : "");
    if ((st = dlp__nn_linear_init(&l->lin_l, ps, sub, in, out, 1)) != DLP_OK) return st;
    snprintf(sub, sizeof sub, "%s%slin_r", name ? name : "", name && *name ? "." : "");
    return dlp__nn_linear_init(&l->lin_r, ps, sub, in, out, 0);
}

dlp_status dlp__nn_sage_forward(dlp__nn_sage *l, dlp__nn_ctx *cx,
                                const dlp__nn_graph *g, const float *x, int n,
                                float *y) {
    if (n != g->n_nodes) return DLP_EINVAL;
    l->n = n;
    l->x = x;
    l->agg = dlp__nn_ws_floats(cx->ws, (size_t)n * l->in);
    CHECK_ALLOC(l->agg);
    l->argmax = NULL;
    if (l->aggr == DLP__NN_AGG_MAX) {
        l->argmax = dlp__nn_ws_ints(cx->ws, (size_t)n * l->in);
        CHECK_ALLOC(l->argmax);
    }
    dlp__nn_aggregate(&g->in, l->aggr, x, l->in, l->agg, l->argmax);
    linear_fwd(&l->lin_l, cx->ps, l->agg, n, y, 0);
    linear_fwd(&l->lin_r, cx->ps, x, n, y, 1);
    if (!l->normalize) return DLP_OK;
    l->norm = dlp__nn_ws_floats(cx->ws, (size_t)(n > 0 ? n : 1));
    CHECK_ALLOC(l->norm);
    for (int i = 0; i < n; i++) {
        float *yi = y + (size_t)i * l->out;
        double s = 0;
        for (int o = 0; o < l->out; o++) s += (double)yi[o] * yi[o];
        l->norm[i] = (float)sqrt(s);
        float inv = 1.0f / (l->norm[i] > NORM_EPS ? l->norm[i] : NORM_EPS);
        for (int o = 0; o < l->out; o++) yi[o] *= inv;
    }
    l->y = y;
    return DLP_OK;
}

/* Through y = o / max(||o||, eps): do = (dy - y <y, dy>) / ||o|| while the
 * norm is above eps (the projection removes the radial part), dy / eps
 * below it. */
static void normalize_backward(const float *y, const float *norm, const float *dy,
                               int n, int f, float *dout) {
    for (int i = 0; i < n; i++) {
        const float *yi = y + (size_t)i * f, *dyi = dy + (size_t)i * f;
        float *di = dout + (size_t)i * f;
        if (norm[i] > NORM_EPS) {
            double dot = 0;
            for (int c = 0; c < f; c++) dot += (double)yi[c] * dyi[c];
            float inv = 1.0f / norm[i];
            for (int c = 0; c < f; c++) di[c] = (dyi[c] - yi[c] * (float)dot) * inv;
        } else {
            for (int c = 0; c < f; c++) di[c] = dyi[c] / NORM_EPS;
        }
    }
}

dlp_status dlp__nn_sage_backward(dlp__nn_sage *l, dlp__nn_ctx *cx,
                                 const dlp__nn_graph *g, const float *dy,
                                 float *dx) {
    int n = l->n;
    const float *dout = dy;
    if (l->normalize) {
        float *t = dlp__nn_ws_floats(cx->ws, (size_t)n * l->out);
        CHECK_ALLOC(t);
        normalize_backward(l->y, l->norm, dy, n, l->out, t);
        dout = t;
    }
    dlp__nn_linear_backward(&l->lin_r, cx, dout, dx);
    if (!dx) return dlp__nn_linear_backward(&l->lin_l, cx, dout, NULL);
    float *dagg = dlp__nn_ws_floats(cx->ws, (size_t)n * l->in);
    CHECK_ALLOC(dagg);
    linear_bwd(&l->lin_l, cx->ps, dout, dagg, 0.0f);
    dlp__nn_aggregate_backward(&g->in, l->aggr, dagg, l->in, l->argmax, dx);
    return DLP_OK;
}

/* ---- GCNConv --------------------------------------------------------- */

dlp_status dlp__nn_gcn_init(dlp__nn_gcn *l, dlp__nn_params *ps, const char *name,
                            int in, int out) {
    memset(l, 0, sizeof *l);
    if (in <= 0 || out <= 0) return DLP_EINVAL;
    l->in = in;
    l->out = out;
    char sub[DLP__NN_NAME_MAX];
    snprintf(sub, sizeof sub, "%s%slin", name ? name : "", name && *name ? "." : "");
    dlp_status st = dlp__nn_linear_init(&l->lin, ps, sub, in, out, 0);
    if (st != DLP_OK) return st;
    l->bias = dlp__nn_params_add(ps, name, "bias", 1, out, 1, DLP__NN_INIT_ZEROS, 0, 1);
    return l->bias < 0 ? DLP_ENOMEM : DLP_OK;
}

dlp_status dlp__nn_gcn_forward(dlp__nn_gcn *l, dlp__nn_ctx *cx,
                               const dlp__nn_graph *g, const float *x, int n,
                               float *y) {
    if (n != g->n_nodes) return DLP_EINVAL;
    const dlp__nn_csr *a = &g->in_sl;
    int f = l->out;
    l->n = n;
    l->h = dlp__nn_ws_floats(cx->ws, (size_t)n * f);
    l->dinv = dlp__nn_ws_floats(cx->ws, (size_t)(n > 0 ? n : 1));
    CHECK_ALLOC(l->h);
    CHECK_ALLOC(l->dinv);
    linear_fwd(&l->lin, cx->ps, x, n, l->h, 0);
    /* degree counts the edges into i, self loop included, so it is >= 1 */
    for (int i = 0; i < n; i++)
        l->dinv[i] = 1.0f / sqrtf((float)(a->rowptr[i + 1] - a->rowptr[i]));
    const float *b = dlp__nn_pv(cx->ps, l->bias);
    for (int i = 0; i < n; i++) {
        float *yi = y + (size_t)i * f;
        memcpy(yi, b, (size_t)f * sizeof *yi);
        for (int32_t k = a->rowptr[i]; k < a->rowptr[i + 1]; k++) {
            int32_t j = a->col[k];
            float w = l->dinv[i] * l->dinv[j];
            const float *hj = l->h + (size_t)j * f;
            for (int c = 0; c < f; c++) yi[c] += w * hj[c];
        }
    }
    return DLP_OK;
}

dlp_status dlp__nn_gcn_backward(dlp__nn_gcn *l, dlp__nn_ctx *cx,
                                const dlp__nn_graph *g, const float *dy,
                                float *dx) {
    const dlp__nn_csr *a = &g->in_sl;
    int n = l->n, f = l->out;
    float *db = dlp__nn_pg(cx->ps, l->bias);
    float *dh = dlp__nn_ws_zeros(cx->ws, (size_t)n * f);
    CHECK_ALLOC(dh);
    for (int i = 0; i < n; i++) {
        const float *dyi = dy + (size_t)i * f;
        for (int c = 0; c < f; c++) db[c] += dyi[c];
        for (int32_t k = a->rowptr[i]; k < a->rowptr[i + 1]; k++) {
            int32_t j = a->col[k];
            float w = l->dinv[i] * l->dinv[j];
            float *dhj = dh + (size_t)j * f;
            for (int c = 0; c < f; c++) dhj[c] += w * dyi[c];
        }
    }
    return dlp__nn_linear_backward(&l->lin, cx, dh, dx);
}

/* ---- GINConv --------------------------------------------------------- */

dlp_status dlp__nn_gin_init(dlp__nn_gin *l, dlp__nn_params *ps, const char *name,
                            int in, int hidden, int out, float eps,
                            int train_eps, int use_bn) {
    memset(l, 0, sizeof *l);
    if (in <= 0 || hidden <= 0 || out <= 0) return DLP_EINVAL;
    l->in = in;
    l->hidden = hidden;
    l->out = out;
    l->use_bn = use_bn;
    /* a fixed eps is a buffer: saved with the model but never stepped */
    l->eps = dlp__nn_params_add(ps, name, "eps", 1, 1, 1, DLP__NN_INIT_CONST, eps, train_eps);
    if (l->eps < 0) return DLP_ENOMEM;
    /* state_dict names of PyG's MLP: nn.0 Linear, [nn.1 BatchNorm], ReLU, Linear */
    const char *p = name ? name : "", *dot = name && *name ? "." : "";
    char sub[DLP__NN_NAME_MAX];
    dlp_status st;
    snprintf(sub, sizeof sub, "%s%snn.0", p, dot);
    if ((st = dlp__nn_linear_init(&l->lin1, ps, sub, in, hidden, 1)) != DLP_OK) return st;
    if (use_bn) {
        snprintf(sub, sizeof sub, "%s%snn.1", p, dot);
        if ((st = dlp__nn_batchnorm_init(&l->bn, ps, sub, hidden)) != DLP_OK) return st;
    }
    snprintf(sub, sizeof sub, "%s%snn.%d", p, dot, use_bn ? 3 : 2);
    return dlp__nn_linear_init(&l->lin2, ps, sub, hidden, out, 1);
}

dlp_status dlp__nn_gin_forward(dlp__nn_gin *l, dlp__nn_ctx *cx,
                               const dlp__nn_graph *g, const float *x, int n,
                               float *y) {
    if (n != g->n_nodes) return DLP_EINVAL;
    size_t nin = (size_t)n * l->in, nh = (size_t)n * l->hidden;
    dlp__nn_ws *ws = cx->ws;
    l->n = n;
    l->x = x;
    l->sum = dlp__nn_ws_floats(ws, nin);
    l->z = dlp__nn_ws_floats(ws, nin);
    l->a1 = dlp__nn_ws_floats(ws, nh);
    l->r = dlp__nn_ws_floats(ws, nh);
    l->b1 = l->use_bn ? dlp__nn_ws_floats(ws, nh) : l->a1;
    CHECK_ALLOC(l->sum && l->z && l->a1 && l->r && l->b1);
    float one_eps = 1.0f + dlp__nn_pv(cx->ps, l->eps)[0];
    dlp__nn_aggregate(&g->in, DLP__NN_AGG_SUM, x, l->in, l->sum, NULL);
    for (size_t k = 0; k < nin; k++) l->z[k] = one_eps * x[k] + l->sum[k];
    linear_fwd(&l->lin1, cx->ps, l->z, n, l->a1, 0);
    if (l->use_bn) {
        dlp_status st = dlp__nn_batchnorm_forward(&l->bn, cx, l->a1, n, l->b1);
        if (st != DLP_OK) return st;
    }
    for (size_t k = 0; k < nh; k++) l->r[k] = l->b1[k] > 0 ? l->b1[k] : 0.0f;
    linear_fwd(&l->lin2, cx->ps, l->r, n, y, 0);
    return DLP_OK;
}

dlp_status dlp__nn_gin_backward(dlp__nn_gin *l, dlp__nn_ctx *cx,
                                const dlp__nn_graph *g, const float *dy,
                                float *dx) {
    size_t nin = (size_t)l->n * l->in, nh = (size_t)l->n * l->hidden;
    dlp__nn_ws *ws = cx->ws;
    float *dr = dlp__nn_ws_zeros(ws, nh);
    float *dz = dlp__nn_ws_zeros(ws, nin);
    CHECK_ALLOC(dr && dz);
    dlp__nn_linear_backward(&l->lin2, cx, dy, dr);
    for (size_t k = 0; k < nh; k++)
        if (!(l->r[k] > 0)) dr[k] = 0;                   /* ReLU */
    const float *da1 = dr;
    if (l->use_bn) {
        float *t = dlp__nn_ws_zeros(ws, nh);
        CHECK_ALLOC(t);
        dlp_status st = dlp__nn_batchnorm_backward(&l->bn, cx, dr, t);
        if (st != DLP_OK) return st;
        da1 = t;
    }
    dlp__nn_linear_backward(&l->lin1, cx, da1, dz);
    /* z = (1 + eps) x + sum_j x_j */
    if (cx->ps->t[l->eps].trainable) {
        double s = 0;
        for (size_t k = 0; k < nin; k++) s += (double)l->x[k] * dz[k];
        dlp__nn_pg(cx->ps, l->eps)[0] += (float)s;
    }
    if (dx) {
        float one_eps = 1.0f + dlp__nn_pv(cx->ps, l->eps)[0];
        for (size_t k = 0; k < nin; k++) dx[k] += one_eps * dz[k];
        dlp__nn_aggregate_backward(&g->in, DLP__NN_AGG_SUM, dz, l->in, NULL, dx);
    }
    return DLP_OK;
}

/* ---- GATConv --------------------------------------------------------- */

dlp_status dlp__nn_gat_init(dlp__nn_gat *l, dlp__nn_params *ps, const char *name,
                            int in, int ch, int heads, int concat) {
    memset(l, 0, sizeof *l);
    if (in <= 0 || ch <= 0 || heads <= 0) return DLP_EINVAL;
    l->in = in;
    l->ch = ch;
    l->heads = heads;
    l->concat = concat ? 1 : 0;
    l->neg_slope = 0.2f;
    char sub[DLP__NN_NAME_MAX];
    snprintf(sub, sizeof sub, "%s%slin", name ? name : "", name && *name ? "." : "");
    dlp_status st = dlp__nn_linear_init(&l->lin, ps, sub, in, heads * ch, 0);
    if (st != DLP_OK) return st;
    l->att_src = dlp__nn_params_add(ps, name, "att_src", 2, heads, ch, DLP__NN_INIT_GLOROT, 0, 1);
    l->att_dst = dlp__nn_params_add(ps, name, "att_dst", 2, heads, ch, DLP__NN_INIT_GLOROT, 0, 1);
    l->bias = dlp__nn_params_add(ps, name, "bias", 1, dlp__nn_gat_out(l), 1,
                                 DLP__NN_INIT_ZEROS, 0, 1);
    return l->att_src < 0 || l->att_dst < 0 || l->bias < 0 ? DLP_ENOMEM : DLP_OK;
}

/* a[i, hd] = <h[i, hd, :], att[hd, :]> */
static void gat_logits(const float *h, const float *att, int n, int H, int C, float *a) {
    for (int i = 0; i < n; i++)
        for (int hd = 0; hd < H; hd++) {
            const float *hi = h + ((size_t)i * H + hd) * C, *at = att + (size_t)hd * C;
            float s = 0;
            for (int c = 0; c < C; c++) s += hi[c] * at[c];
            a[(size_t)i * H + hd] = s;
        }
}

dlp_status dlp__nn_gat_forward(dlp__nn_gat *l, dlp__nn_ctx *cx,
                               const dlp__nn_graph *g, const float *x, int n,
                               float *y) {
    if (n != g->n_nodes) return DLP_EINVAL;
    const dlp__nn_csr *a = &g->in_sl;
    int H = l->heads, C = l->ch, HC = H * C, fo = dlp__nn_gat_out(l);
    dlp__nn_ws *ws = cx->ws;
    l->n = n;
    l->h = dlp__nn_ws_floats(ws, (size_t)n * HC);
    l->asrc = dlp__nn_ws_floats(ws, (size_t)n * H);
    l->adst = dlp__nn_ws_floats(ws, (size_t)n * H);
    l->alpha = dlp__nn_ws_floats(ws, (size_t)a->nnz * H);
    CHECK_ALLOC(l->h && l->asrc && l->adst && l->alpha);
    linear_fwd(&l->lin, cx->ps, x, n, l->h, 0);
    gat_logits(l->h, dlp__nn_pv(cx->ps, l->att_src), n, H, C, l->asrc);
    gat_logits(l->h, dlp__nn_pv(cx->ps, l->att_dst), n, H, C, l->adst);
    const float *bias = dlp__nn_pv(cx->ps, l->bias);
    float inv_h = 1.0f / (float)H;
    for (int i = 0; i < n; i++) {
        int32_t k0 = a->rowptr[i], k1 = a->rowptr[i + 1];   /* k1 > k0: self loop */
        float *yi = y + (size_t)i * fo;
        memcpy(yi, bias, (size_t)fo * sizeof *yi);
        for (int hd = 0; hd < H; hd++) {
            /* softmax over the incoming edges, shifted by the max */
            float adi = l->adst[(size_t)i * H + hd], mx = -INFINITY;
            for (int32_t k = k0; k < k1; k++) {
                float s = l->asrc[(size_t)a->col[k] * H + hd] + adi;
                s = s > 0 ? s : l->neg_slope * s;
                l->alpha[(size_t)k * H + hd] = s;
                if (s > mx) mx = s;
            }
            float sum = 0;
            for (int32_t k = k0; k < k1; k++) {
                float e = expf(l->alpha[(size_t)k * H + hd] - mx);
                l->alpha[(size_t)k * H + hd] = e;
                sum += e;
            }
            float inv = 1.0f / sum;
            float *yo = yi + (l->concat ? (size_t)hd * C : 0);
            float scale = l->concat ? 1.0f : inv_h;
            for (int32_t k = k0; k < k1; k++) {
                float w = l->alpha[(size_t)k * H + hd] *= inv;
                const float *hj = l->h + ((size_t)a->col[k] * H + hd) * C;
                for (int c = 0; c < C; c++) yo[c] += scale * w * hj[c];
            }
        }
    }
    return DLP_OK;
}

dlp_status dlp__nn_gat_backward(dlp__nn_gat *l, dlp__nn_ctx *cx,
                                const dlp__nn_graph *g, const float *dy,
                                float *dx) {
    const dlp__nn_csr *a = &g->in_sl;
    int n = l->n, H = l->heads, C = l->ch, HC = H * C, fo = dlp__nn_gat_out(l);
    dlp__nn_ws *ws = cx->ws;
    dlp__nn_params *ps = cx->ps;
    float *dh = dlp__nn_ws_zeros(ws, (size_t)n * HC);
    float *dasrc = dlp__nn_ws_zeros(ws, (size_t)n * H);
    float *dadst = dlp__nn_ws_zeros(ws, (size_t)n * H);
    float *da = dlp__nn_ws_floats(ws, (size_t)a->nnz);
    CHECK_ALLOC(dh && dasrc && dadst && da);
    float *db = dlp__nn_pg(ps, l->bias);
    float scale = l->concat ? 1.0f : 1.0f / (float)H;
    for (int i = 0; i < n; i++) {
        const float *dyi = dy + (size_t)i * fo;
        for (int c = 0; c < fo; c++) db[c] += dyi[c];
        int32_t k0 = a->rowptr[i], k1 = a->rowptr[i + 1];
        for (int hd = 0; hd < H; hd++) {
            const float *dout = dyi + (l->concat ? (size_t)hd * C : 0);
            /* out_i = scale sum_k alpha_k h_j: gradients to h_j and alpha_k */
            float dot_ad = 0;
            for (int32_t k = k0; k < k1; k++) {
                int32_t j = a->col[k];
                float w = l->alpha[(size_t)k * H + hd];
                const float *hj = l->h + ((size_t)j * H + hd) * C;
                float *dhj = dh + ((size_t)j * H + hd) * C;
                float s = 0;
                for (int c = 0; c < C; c++) {
                    s += dout[c] * hj[c];
                    dhj[c] += scale * w * dout[c];
                }
                da[k] = scale * s;
                dot_ad += w * da[k];
            }
            /* softmax, then LeakyReLU, then the two logits it summed */
            float adi = l->adst[(size_t)i * H + hd];
            for (int32_t k = k0; k < k1; k++) {
                int32_t j = a->col[k];
                float de = l->alpha[(size_t)k * H + hd] * (da[k] - dot_ad);
                float s = l->asrc[(size_t)j * H + hd] + adi;
                float ds = s > 0 ? de : l->neg_slope * de;
                dasrc[(size_t)j * H + hd] += ds;
                dadst[(size_t)i * H + hd] += ds;
            }
        }
    }
    /* asrc = <h, att_src>, adst = <h, att_dst> per head */
    const float *as = dlp__nn_pv(ps, l->att_src), *ad = dlp__nn_pv(ps, l->att_dst);
    float *gas = dlp__nn_pg(ps, l->att_src), *gad = dlp__nn_pg(ps, l->att_dst);
    for (int j = 0; j < n; j++)
        for (int hd = 0; hd < H; hd++) {
            float gs = dasrc[(size_t)j * H + hd], gd = dadst[(size_t)j * H + hd];
            const float *hj = l->h + ((size_t)j * H + hd) * C;
            float *dhj = dh + ((size_t)j * H + hd) * C;
            const float *ash = as + (size_t)hd * C, *adh = ad + (size_t)hd * C;
            float *gash = gas + (size_t)hd * C, *gadh = gad + (size_t)hd * C;
            for (int c = 0; c < C; c++) {
                dhj[c] += gs * ash[c] + gd * adh[c];
                gash[c] += gs * hj[c];
                gadh[c] += gd * hj[c];
            }
        }
    return dlp__nn_linear_backward(&l->lin, cx, dh, dx);
}

/* ---- readout --------------------------------------------------------- */

dlp_status dlp__nn_readout_init(dlp__nn_readout *l, int f, dlp__nn_agg op) {
    memset(l, 0, sizeof *l);
    if (f <= 0 || op < DLP__NN_AGG_SUM || op > DLP__NN_AGG_MAX) return DLP_EINVAL;
    l->f = f;
    l->op = op;
    return DLP_OK;
}

dlp_status dlp__nn_readout_forward(dlp__nn_readout *l, dlp__nn_ctx *cx,
                                   const dlp__nn_graph *g, const float *x,
                                   int n, float *y) {
    if (n != g->n_nodes) return DLP_EINVAL;
    l->argmax = NULL;
    if (l->op == DLP__NN_AGG_MAX) {
        l->argmax = dlp__nn_ws_ints(cx->ws, (size_t)g->n_graphs * l->f);
        CHECK_ALLOC(l->argmax);
    }
    dlp__nn_pool(g, l->op, x, l->f, y, l->argmax);
    return DLP_OK;
}

dlp_status dlp__nn_readout_backward(dlp__nn_readout *l, dlp__nn_ctx *cx,
                                    const dlp__nn_graph *g, const float *dy,
                                    float *dx) {
    (void)cx;   /* uniform signature: readouts need no scratch */
    if (dx) dlp__nn_pool_backward(g, l->op, dy, l->f, l->argmax, dx);
    return DLP_OK;
}
