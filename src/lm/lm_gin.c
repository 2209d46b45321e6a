/*
 * lm_gin.c — the GIN graph encoder whose output is the language model's
 * graph token (lm.h, docs/gnnlm.md): GINConv layers of src/nn with ReLU
 * between them and a mean readout per graph.  Backward takes d loss /
 * d gvec, which dlp__lm_backward returns, so the LM's loss trains the GIN.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lm/lm.h"
#include "util/util.h"

dlp_status dlp__lm_gin_init(dlp__lm_gin *e, int in, int hidden, int layers, uint64_t seed,
                            dlp_error *err) {
    memset(e, 0, sizeof *e);
    if (in < 1 || hidden < 1 || layers < 1)
        return dlp__err(err, DLP_EINVAL, "gin: in %d, hidden %d, layers %d must be >= 1", in, hidden, layers);
    e->in = in;
    e->hidden = hidden;
    e->layers = layers;
    e->gin = calloc((size_t)layers, sizeof *e->gin);
    e->y = calloc((size_t)layers, sizeof *e->y);
    e->h = calloc((size_t)layers, sizeof *e->h);
    if (!e->gin || !e->y || !e->h) {
        dlp__lm_gin_free(e);
        return dlp__err(err, DLP_ENOMEM, "gin: out of memory");
    }
    for (int l = 0; l < layers; l++) {
        char nm[32];
        snprintf(nm, sizeof nm, "gin.%d", l);
        if (dlp__nn_gin_init(&e->gin[l], &e->ps, nm, l ? hidden : in, hidden, hidden, 0.0f, 1, 0) != DLP_OK) {
            dlp__lm_gin_free(e);
            return dlp__err(err, DLP_ENOMEM, "gin: out of memory");
        }
    }
    if (dlp__nn_params_alloc(&e->ps) != DLP_OK) {
        dlp__lm_gin_free(e);
        return dlp__err(err, DLP_ENOMEM, "gin: out of memory");
    }
    dlp__nn_params_init(&e->ps, seed);
    return DLP_OK;
}

void dlp__lm_gin_free(dlp__lm_gin *e) {
    dlp__nn_params_free(&e->ps);
    free(e->gin);
    free(e->y);
    free(e->h);
    memset(e, 0, sizeof *e);
}

dlp_status dlp__lm_gin_forward(dlp__lm_gin *e, dlp__nn_ws *ws, const dlp__nn_graph *g, const float *x,
                               float *gvec) {
    dlp__nn_ctx cx;
    dlp__nn_ctx_init(&cx, &e->ps, ws, 1, 1);
    int N = g->n_nodes, H = e->hidden;
    e->g = g;
    e->x = x;
    const float *in = x;
    for (int l = 0; l < e->layers; l++) {
        float *y = dlp__nn_ws_floats(ws, (size_t)N * H);
        if (!y) return DLP_ENOMEM;
        dlp_status st = dlp__nn_gin_forward(&e->gin[l], &cx, g, in, N, y);
        if (st) return st;
        e->y[l] = y;
        if (l + 1 < e->layers) {
            float *h = dlp__nn_ws_floats(ws, (size_t)N * H);
            if (!h) return DLP_ENOMEM;
            for (size_t k = 0; k < (size_t)N * H; k++) h[k] = y[k] > 0 ? y[k] : 0;
            e->h[l] = h;
        } else {
            e->h[l] = y;
        }
        in = e->h[l];
    }
    dlp__nn_pool(g, DLP__NN_AGG_MEAN, e->h[e->layers - 1], H, gvec, NULL);
    return DLP_OK;
}

dlp_status dlp__lm_gin_backward(dlp__lm_gin *e, dlp__nn_ws *ws, const float *dgvec, float *dx) {
    dlp__nn_ctx cx;
    dlp__nn_ctx_init(&cx, &e->ps, ws, 1, 1);
    const dlp__nn_graph *g = e->g;
    int N = g->n_nodes, H = e->hidden;
    float *dh = dlp__nn_ws_zeros(ws, (size_t)N * H);
    if (!dh) return DLP_ENOMEM;
    dlp__nn_pool_backward(g, DLP__NN_AGG_MEAN, dgvec, H, NULL, dh);
    for (int l = e->layers - 1; l >= 0; l--) {
        /* dh is d loss / d h[l]; through the ReLU (not after the last layer) */
        if (l + 1 < e->layers)
            for (size_t k = 0; k < (size_t)N * H; k++)
                if (!(e->y[l][k] > 0)) dh[k] = 0;
        float *din = NULL;
        if (l > 0) {
            if (!(din = dlp__nn_ws_zeros(ws, (size_t)N * H))) return DLP_ENOMEM;
        } else {
            din = dx;
        }
        dlp_status st = dlp__nn_gin_backward(&e->gin[l], &cx, g, dh, din);
        if (st) return st;
        dh = din;
    }
    return DLP_OK;
}
