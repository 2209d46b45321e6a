/*
 * nn_pretrain.c — the pieces self-supervised graph encoders need on top of
 * the layers (src/learn/encoder.c uses them):
 *   GAE       the inner-product decoder s_uv = <z_u, z_v> (A_hat =
 *             sigmoid(Z Z^T), evaluated only at the sampled pairs, never as
 *             a dense N x N matrix) and PyG's recon_loss on those logits;
 *   GraphMAE  the input masking (learnable mask token, "noise" rows copied
 *             from other nodes), re-masking of the code before the decoder,
 *             and row gathers to restrict the loss to the masked nodes.
 * Each forward has a backward that accumulates, like every layer in nn.h.
 */
#include "nn/nn.h"

#include <math.h>
#include <string.h>

/* ---- inner-product decoder ------------------------------------------- */

void dlp__nn_inner_product(const float *z, int f, const int32_t *pairs, int n_pairs,
                           float *out) {
    for (int k = 0; k < n_pairs; k++) {
        const float *a = z + (size_t)pairs[2 * k] * f, *b = z + (size_t)pairs[2 * k + 1] * f;
        float s = 0;
        for (int c = 0; c < f; c++) s += a[c] * b[c];
        out[k] = s;
    }
}

void dlp__nn_inner_product_backward(const float *z, int f, const int32_t *pairs,
                                    int n_pairs, const float *dout, float *dz) {
    for (int k = 0; k < n_pairs; k++) {
        int32_t u = pairs[2 * k], v = pairs[2 * k + 1];
        const float *a = z + (size_t)u * f, *b = z + (size_t)v * f;
        float *da = dz + (size_t)u * f, *db = dz + (size_t)v * f;
        float g = dout[k];
        /* u == v (never sampled, but legal) gets both halves: d<z,z> = 2z */
        for (int c = 0; c < f; c++) {
            da[c] += g * b[c];
            db[c] += g * a[c];
        }
    }
}

/* ---- GAE reconstruction loss ----------------------------------------- */

/* sigmoid(s) and 1 - sigmoid(s), each without cancellation: for s = 40
 * the second is 4e-18, not the 0 that 1 - 1.0 would give. */
static void sig2(double s, double *sig, double *one_minus) {
    if (s >= 0) {
        double e = exp(-s);
        *sig = 1.0 / (1.0 + e);
        *one_minus = e / (1.0 + e);
    } else {
        double e = exp(s);
        *sig = e / (1.0 + e);
        *one_minus = 1.0 / (1.0 + e);
    }
}

double dlp__nn_loss_gae_bce(const float *pos, int n_pos, const float *neg, int n_neg,
                            double eps, float *grad_pos, float *grad_neg) {
    double lp = 0, ln = 0;
    for (int k = 0; k < n_pos; k++) {
        double sg, om;
        sig2(pos[k], &sg, &om);
        lp -= log(sg + eps);
        /* d/ds -log(sigma + eps) = -sigma (1 - sigma) / (sigma + eps) */
        if (grad_pos) grad_pos[k] = (float)(-sg * om / (sg + eps) / n_pos);
    }
    for (int k = 0; k < n_neg; k++) {
        double sg, om;
        sig2(neg[k], &sg, &om);
        ln -= log(om + eps);
        /* d/ds -log(1 - sigma + eps) = sigma (1 - sigma) / (1 - sigma + eps) */
        if (grad_neg) grad_neg[k] = (float)(sg * om / (om + eps) / n_neg);
    }
    return (n_pos > 0 ? lp / n_pos : 0) + (n_neg > 0 ? ln / n_neg : 0);
}

/* ---- GraphMAE masking ------------------------------------------------- */

void dlp__nn_mask_token_forward(const float *x, int n, int f, const int32_t *src,
                                const float *token, float *y) {
    for (int r = 0; r < n; r++) {
        const float *from = src[r] < 0 ? token : x + (size_t)src[r] * f;
        memcpy(y + (size_t)r * f, from, sizeof *y * (size_t)f);
    }
}

void dlp__nn_mask_token_backward(const float *dy, int n, int f, const int32_t *src,
                                 float *dtoken, float *dx) {
    for (int r = 0; r < n; r++) {
        const float *g = dy + (size_t)r * f;
        float *to = src[r] < 0 ? dtoken : dx ? dx + (size_t)src[r] * f : NULL;
        if (!to) continue;
        for (int c = 0; c < f; c++) to[c] += g[c];
    }
}

void dlp__nn_remask_forward(const float *x, int n, int f, const uint8_t *masked,
                            float *y) {
    for (int r = 0; r < n; r++) {
        float *yr = y + (size_t)r * f;
        if (masked[r]) memset(yr, 0, sizeof *yr * (size_t)f);
        else memcpy(yr, x + (size_t)r * f, sizeof *yr * (size_t)f);
    }
}

void dlp__nn_remask_backward(const float *dy, int n, int f, const uint8_t *masked,
                             float *dx) {
    for (int r = 0; r < n; r++) {
        if (masked[r]) continue;
        const float *g = dy + (size_t)r * f;
        float *d = dx + (size_t)r * f;
        for (int c = 0; c < f; c++) d[c] += g[c];
    }
}

void dlp__nn_gather_rows(const float *x, int f, const int32_t *rows, int m, float *y) {
    for (int k = 0; k < m; k++)
        memcpy(y + (size_t)k * f, x + (size_t)rows[k] * f, sizeof *y * (size_t)f);
}

void dlp__nn_gather_rows_backward(const float *dy, int f, const int32_t *rows, int m,
                                  float *dx) {
    for (int k = 0; k < m; k++) {
        const float *g = dy + (size_t)k * f;
        float *d = dx + (size_t)rows[k] * f;
        for (int c = 0; c < f; c++) d[c] += g[c];
    }
}
