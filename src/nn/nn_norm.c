/*
 * nn_norm.c — per-element and per-row layers: BatchNorm1d, LayerNorm, the
 * activations (ReLU, PReLU, ELU) and Dropout, with their backward passes.
 *
 * Statistics are accumulated in double: a batch of a whole graph set can
 * hold 10^5 rows, and float sums of that many terms lose the digits the
 * variance is made of.  PyTorch semantics throughout (BatchNorm momentum
 * 0.1 with the unbiased variance in the running estimate, eps 1e-5; PReLU
 * slope 0.25; inverted dropout).
 */
#include "nn/nn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_ALLOC(p) do { if (!(p)) return DLP_ENOMEM; } while (0)

/* ---- BatchNorm1d ----------------------------------------------------- */

dlp_status dlp__nn_batchnorm_init(dlp__nn_batchnorm *l, dlp__nn_params *ps,
                                  const char *name, int f) {
    memset(l, 0, sizeof *l);
    if (f <= 0) return DLP_EINVAL;
    l->f = f;
    l->eps = 1e-5f;
    l->momentum = 0.1f;
    l->gamma = dlp__nn_params_add(ps, name, "weight", 1, f, 1, DLP__NN_INIT_CONST, 1.0f, 1);
    l->beta = dlp__nn_params_add(ps, name, "bias", 1, f, 1, DLP__NN_INIT_ZEROS, 0, 1);
    l->rmean = dlp__nn_params_add(ps, name, "running_mean", 1, f, 1, DLP__NN_INIT_ZEROS, 0, 0);
    l->rvar = dlp__nn_params_add(ps, name, "running_var", 1, f, 1, DLP__NN_INIT_CONST, 1.0f, 0);
    if (l->gamma < 0 || l->beta < 0 || l->rmean < 0 || l->rvar < 0) return DLP_ENOMEM;
    return DLP_OK;
}

/* Column means and biased variances of x (n, f), in double. */
static dlp_status column_stats(dlp__nn_ws *ws, const float *x, int n, int f,
                               double **mean, double **var) {
    double *m = dlp__nn_ws_alloc(ws, (size_t)f * sizeof(double));
    double *v = dlp__nn_ws_alloc(ws, (size_t)f * sizeof(double));
    CHECK_ALLOC(m && v);
    memset(m, 0, (size_t)f * sizeof *m);
    memset(v, 0, (size_t)f * sizeof *v);
    for (int i = 0; i < n; i++)
        for (int c = 0; c < f; c++) m[c] += x[(size_t)i * f + c];
    for (int c = 0; c < f; c++) m[c] /= n;
    for (int i = 0; i < n; i++)
        for (int c = 0; c < f; c++) {
            double d = x[(size_t)i * f + c] - m[c];
            v[c] += d * d;
        }
    for (int c = 0; c < f; c++) v[c] /= n;
    *mean = m;
    *var = v;
    return DLP_OK;
}

dlp_status dlp__nn_batchnorm_forward(dlp__nn_batchnorm *l, dlp__nn_ctx *cx,
                                     const float *x, int n, float *y) {
    int f = l->f;
    dlp__nn_params *ps = cx->ps;
    if (cx->training && n < 2) return DLP_EINVAL;  /* no variance from one row */
    l->n = n;
    l->x = x;
    l->train = cx->training;
    l->mean = dlp__nn_ws_floats(cx->ws, (size_t)f);
    l->invstd = dlp__nn_ws_floats(cx->ws, (size_t)f);
    CHECK_ALLOC(l->mean && l->invstd);
    float *rm = dlp__nn_pv(ps, l->rmean), *rv = dlp__nn_pv(ps, l->rvar);
    if (l->train) {
        double *m, *v;
        dlp_status st = column_stats(cx->ws, x, n, f, &m, &v);
        if (st != DLP_OK) return st;
        float mo = l->momentum;
        for (int c = 0; c < f; c++) {
            l->mean[c] = (float)m[c];
            l->invstd[c] = (float)(1.0 / sqrt(v[c] + l->eps));
            rm[c] = (1 - mo) * rm[c] + mo * (float)m[c];
            rv[c] = (1 - mo) * rv[c] + mo * (float)(v[c] * n / (n - 1));
        }
    } else {
        for (int c = 0; c < f; c++) {
            l->mean[c] = rm[c];
            l->invstd[c] = 1.0f / sqrtf(rv[c] + l->eps);
        }
    }
    const float *ga = dlp__nn_pv(ps, l->gamma), *be = dlp__nn_pv(ps, l->beta);
    for (int i = 0; i < n; i++)
        for (int c = 0; c < f; c++) {
            size_t k = (size_t)i * f + c;
            y[k] = ga[c] * (x[k] - l->mean[c]) * l->invstd[c] + be[c];
        }
    return DLP_OK;
}

dlp_status dlp__nn_batchnorm_backward(dlp__nn_batchnorm *l, dlp__nn_ctx *cx,
                                      const float *dy, float *dx) {
    int n = l->n, f = l->f;
    dlp__nn_params *ps = cx->ps;
    double *sdy = dlp__nn_ws_alloc(cx->ws, (size_t)f * sizeof(double));
    double *sdyx = dlp__nn_ws_alloc(cx->ws, (size_t)f * sizeof(double));
    CHECK_ALLOC(sdy && sdyx);
    memset(sdy, 0, (size_t)f * sizeof *sdy);
    memset(sdyx, 0, (size_t)f * sizeof *sdyx);
    for (int i = 0; i < n; i++)
        for (int c = 0; c < f; c++) {
            size_t k = (size_t)i * f + c;
            float xh = (l->x[k] - l->mean[c]) * l->invstd[c];
            sdy[c] += dy[k];
            sdyx[c] += (double)dy[k] * xh;
        }
    const float *ga = dlp__nn_pv(ps, l->gamma);
    float *gg = dlp__nn_pg(ps, l->gamma), *gb = dlp__nn_pg(ps, l->beta);
    for (int c = 0; c < f; c++) {
        gg[c] += (float)sdyx[c];
        gb[c] += (float)sdy[c];
    }
    if (!dx) return DLP_OK;
    if (!l->train) {
        /* running stats are constants: an affine map per column */
        for (int i = 0; i < n; i++)
            for (int c = 0; c < f; c++) {
                size_t k = (size_t)i * f + c;
                dx[k] += dy[k] * ga[c] * l->invstd[c];
            }
        return DLP_OK;
    }
    /* batch stats depend on x: dx = g istd / n (n dy - sum dy - xh sum dy xh) */
    for (int i = 0; i < n; i++)
        for (int c = 0; c < f; c++) {
            size_t k = (size_t)i * f + c;
            float xh = (l->x[k] - l->mean[c]) * l->invstd[c];
            float s = ga[c] * l->invstd[c] / (float)n;
            dx[k] += s * ((float)n * dy[k] - (float)sdy[c] - xh * (float)sdyx[c]);
        }
    return DLP_OK;
}

/* ---- LayerNorm ------------------------------------------------------- */

dlp_status dlp__nn_layernorm_init(dlp__nn_layernorm *l, dlp__nn_params *ps,
                                  const char *name, int f) {
    memset(l, 0, sizeof *l);
    if (f <= 0) return DLP_EINVAL;
    l->f = f;
    l->eps = 1e-5f;
    l->gamma = dlp__nn_params_add(ps, name, "weight", 1, f, 1, DLP__NN_INIT_CONST, 1.0f, 1);
    l->beta = dlp__nn_params_add(ps, name, "bias", 1, f, 1, DLP__NN_INIT_ZEROS, 0, 1);
    return l->gamma < 0 || l->beta < 0 ? DLP_ENOMEM : DLP_OK;
}

dlp_status dlp__nn_layernorm_forward(dlp__nn_layernorm *l, dlp__nn_ctx *cx,
                                     const float *x, int n, float *y) {
    int f = l->f;
    l->n = n;
    l->x = x;
    l->mean = dlp__nn_ws_floats(cx->ws, (size_t)(n > 0 ? n : 1));
    l->rstd = dlp__nn_ws_floats(cx->ws, (size_t)(n > 0 ? n : 1));
    CHECK_ALLOC(l->mean && l->rstd);
    const float *ga = dlp__nn_pv(cx->ps, l->gamma), *be = dlp__nn_pv(cx->ps, l->beta);
    for (int i = 0; i < n; i++) {
        const float *xi = x + (size_t)i * f;
        double m = 0, v = 0;
        for (int c = 0; c < f; c++) m += xi[c];
        m /= f;
        for (int c = 0; c < f; c++) v += (xi[c] - m) * (xi[c] - m);
        v /= f;
        float rs = (float)(1.0 / sqrt(v + l->eps));
        l->mean[i] = (float)m;
        l->rstd[i] = rs;
        float *yi = y + (size_t)i * f;
        for (int c = 0; c < f; c++) yi[c] = (xi[c] - (float)m) * rs * ga[c] + be[c];
    }
    return DLP_OK;
}

dlp_status dlp__nn_layernorm_backward(dlp__nn_layernorm *l, dlp__nn_ctx *cx,
                                      const float *dy, float *dx) {
    int f = l->f;
    const float *ga = dlp__nn_pv(cx->ps, l->gamma);
    float *gg = dlp__nn_pg(cx->ps, l->gamma), *gb = dlp__nn_pg(cx->ps, l->beta);
    for (int i = 0; i < l->n; i++) {
        const float *xi = l->x + (size_t)i * f, *dyi = dy + (size_t)i * f;
        float m = l->mean[i], rs = l->rstd[i];
        double sg = 0, sgx = 0;   /* sums of dxhat and dxhat * xhat */
        for (int c = 0; c < f; c++) {
            float xh = (xi[c] - m) * rs, g = dyi[c] * ga[c];
            gg[c] += dyi[c] * xh;
            gb[c] += dyi[c];
            sg += g;
            sgx += (double)g * xh;
        }
        if (!dx) continue;
        float mg = (float)(sg / f), mgx = (float)(sgx / f);
        float *dxi = dx + (size_t)i * f;
        for (int c = 0; c < f; c++) {
            float xh = (xi[c] - m) * rs;
            dxi[c] += rs * (dyi[c] * ga[c] - mg - xh * mgx);
        }
    }
    return DLP_OK;
}

/* ---- activations ----------------------------------------------------- */

dlp_status dlp__nn_act_init(dlp__nn_act *l, dlp__nn_params *ps, const char *name,
                            dlp__nn_act_kind kind, int f, float alpha,
                            int n_slope) {
    memset(l, 0, sizeof *l);
    if (f <= 0 || kind < DLP__NN_ACT_RELU || kind > DLP__NN_ACT_ELU) return DLP_EINVAL;
    l->kind = kind;
    l->f = f;
    l->alpha = alpha;
    l->slope = -1;
    /* ELU's backward reads the sign of x off y, which needs alpha > 0 */
    if (kind == DLP__NN_ACT_ELU && !(alpha > 0)) return DLP_EINVAL;
    if (kind == DLP__NN_ACT_PRELU) {
        if (n_slope != 1 && n_slope != f) return DLP_EINVAL;
        l->n_slope = n_slope;
        l->slope = dlp__nn_params_add(ps, name, "weight", 1, n_slope, 1,
                                      DLP__NN_INIT_CONST, 0.25f, 1);
        if (l->slope < 0) return DLP_ENOMEM;
    }
    return DLP_OK;
}

dlp_status dlp__nn_act_forward(dlp__nn_act *l, dlp__nn_ctx *cx, const float *x,
                               int n, float *y) {
    size_t total = (size_t)n * l->f;
    l->n = n;
    l->x = x;
    l->y = y;
    switch (l->kind) {
    case DLP__NN_ACT_RELU:
        for (size_t k = 0; k < total; k++) y[k] = x[k] > 0 ? x[k] : 0.0f;
        break;
    case DLP__NN_ACT_ELU:
        for (size_t k = 0; k < total; k++)
            y[k] = x[k] > 0 ? x[k] : l->alpha * expm1f(x[k]);
        break;
    case DLP__NN_ACT_PRELU: {
        const float *a = dlp__nn_pv(cx->ps, l->slope);
        int per = l->n_slope > 1;
        for (size_t k = 0; k < total; k++) {
            float s = a[per ? k % (size_t)l->f : 0];
            y[k] = x[k] > 0 ? x[k] : s * x[k];
        }
        break;
    }
    }
    return DLP_OK;
}

dlp_status dlp__nn_act_backward(dlp__nn_act *l, dlp__nn_ctx *cx,
                                const float *dy, float *dx) {
    size_t total = (size_t)l->n * l->f;
    switch (l->kind) {
    case DLP__NN_ACT_RELU:
        if (dx)
            for (size_t k = 0; k < total; k++) dx[k] += l->y[k] > 0 ? dy[k] : 0.0f;
        break;
    case DLP__NN_ACT_ELU:
        /* for x <= 0, d/dx alpha (e^x - 1) = alpha e^x = y + alpha; y > 0
         * exactly when x > 0 (alpha > 0), so y alone is enough */
        if (dx)
            for (size_t k = 0; k < total; k++)
                dx[k] += l->y[k] > 0 ? dy[k] : dy[k] * (l->y[k] + l->alpha);
        break;
    case DLP__NN_ACT_PRELU: {
        const float *a = dlp__nn_pv(cx->ps, l->slope);
        float *ga = dlp__nn_pg(cx->ps, l->slope);
        int per = l->n_slope > 1;
        for (size_t k = 0; k < total; k++) {
            size_t c = per ? k % (size_t)l->f : 0;
            if (l->x[k] > 0) {
                if (dx) dx[k] += dy[k];
            } else {
                ga[c] += dy[k] * l->x[k];
                if (dx) dx[k] += dy[k] * a[c];
            }
        }
        break;
    }
    }
    return DLP_OK;
}

/* ---- Dropout --------------------------------------------------------- */

dlp_status dlp__nn_dropout_init(dlp__nn_dropout *l, int f, float p) {
    memset(l, 0, sizeof *l);
    if (f <= 0 || !(p >= 0 && p <= 1)) return DLP_EINVAL;
    l->f = f;
    l->p = p;
    return DLP_OK;
}

dlp_status dlp__nn_dropout_forward(dlp__nn_dropout *l, dlp__nn_ctx *cx,
                                   const float *x, int n, float *y) {
    size_t total = (size_t)n * l->f;
    l->n = n;
    l->active = cx->training && l->p > 0;
    l->mask = NULL;
    if (!l->active) {
        if (total && y != x) memcpy(y, x, total * sizeof *y);
        return DLP_OK;
    }
    l->mask = dlp__nn_ws_alloc(cx->ws, total);
    CHECK_ALLOC(l->mask);
    float scale = l->p < 1 ? 1.0f / (1.0f - l->p) : 0.0f;
    for (size_t k = 0; k < total; k++) {
        l->mask[k] = dlp__nn_rng_uniform(&cx->rng) >= l->p;
        y[k] = l->mask[k] ? x[k] * scale : 0.0f;
    }
    return DLP_OK;
}

dlp_status dlp__nn_dropout_backward(dlp__nn_dropout *l, dlp__nn_ctx *cx,
                                    const float *dy, float *dx) {
    (void)cx;   /* the mask was drawn in forward */
    if (!dx) return DLP_OK;
    size_t total = (size_t)l->n * l->f;
    if (!l->active) {
        for (size_t k = 0; k < total; k++) dx[k] += dy[k];
        return DLP_OK;
    }
    float scale = l->p < 1 ? 1.0f / (1.0f - l->p) : 0.0f;
    for (size_t k = 0; k < total; k++)
        if (l->mask[k]) dx[k] += dy[k] * scale;
    return DLP_OK;
}
