/*
 * nn_loss.c — training losses with their gradient with respect to the
 * prediction: MSE, L1, Huber, BCE-with-logits and GraphMAE's scaled cosine
 * error.  Reduction is the mean (PyTorch's default), so the gradient
 * already carries the 1/n and a caller can feed it straight to backward.
 *
 * Sums run in double: losses are compared across epochs and a float sum
 * over a whole dataset would drift in the last digits that early stopping
 * looks at.
 */
#include "nn/nn.h"

#include <math.h>

double dlp__nn_loss_mse(const float *pred, const float *target, int n,
                        float *grad) {
    if (n <= 0) return 0;
    double s = 0;
    for (int i = 0; i < n; i++) {
        double d = (double)pred[i] - target[i];
        s += d * d;
        if (grad) grad[i] = (float)(2.0 * d / n);
    }
    return s / n;
}

double dlp__nn_loss_l1(const float *pred, const float *target, int n,
                       float *grad) {
    if (n <= 0) return 0;
    double s = 0;
    for (int i = 0; i < n; i++) {
        double d = (double)pred[i] - target[i];
        s += fabs(d);
        /* sign(0) = 0 like torch.sign, the subgradient PyTorch uses */
        if (grad) grad[i] = (float)((d > 0) - (d < 0)) / (float)n;
    }
    return s / n;
}

double dlp__nn_loss_huber(const float *pred, const float *target, int n,
                          float delta, float *grad) {
    if (n <= 0) return 0;
    double s = 0;
    for (int i = 0; i < n; i++) {
        double d = (double)pred[i] - target[i], a = fabs(d);
        if (a <= delta) {
            s += 0.5 * d * d;
            if (grad) grad[i] = (float)(d / n);
        } else {
            s += delta * (a - 0.5 * delta);
            if (grad) grad[i] = (float)(d > 0 ? delta : -delta) / (float)n;
        }
    }
    return s / n;
}

double dlp__nn_loss_bce_logits(const float *pred, const float *target, int n,
                               float *grad) {
    if (n <= 0) return 0;
    double s = 0;
    for (int i = 0; i < n; i++) {
        double x = pred[i], t = target[i];
        /* max(x,0) - x t + log(1 + e^-|x|): never exponentiates a positive */
        s += (x > 0 ? x : 0) - x * t + log1p(exp(-fabs(x)));
        if (grad) {
            double e = exp(-fabs(x));
            double sig = x >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
            grad[i] = (float)((sig - t) / n);
        }
    }
    return s / n;
}

#define SCE_EPS 1e-12           /* F.normalize default */

double dlp__nn_loss_sce(const float *x, const float *y, int rows, int f,
                        float alpha, float *grad) {
    if (rows <= 0) return 0;
    double s = 0;
    for (int r = 0; r < rows; r++) {
        const float *xr = x + (size_t)r * f, *yr = y + (size_t)r * f;
        double nx = 0, ny = 0, xy = 0;
        for (int c = 0; c < f; c++) {
            nx += (double)xr[c] * xr[c];
            ny += (double)yr[c] * yr[c];
            xy += (double)xr[c] * yr[c];
        }
        nx = sqrt(nx);
        ny = sqrt(ny);
        double dx_ = nx > SCE_EPS ? nx : SCE_EPS, dy_ = ny > SCE_EPS ? ny : SCE_EPS;
        double cosv = xy / (dx_ * dy_);
        /* rounding can push cos a hair above 1; pow of a negative is NaN */
        double base = 1.0 - cosv;
        if (base < 0) base = 0;
        s += pow(base, alpha);
        if (!grad) continue;
        double dl_dc = base > 0 ? -alpha * pow(base, alpha - 1.0) : (alpha == 1 ? -1.0 : 0.0);
        float *gr = grad + (size_t)r * f;
        for (int c = 0; c < f; c++) {
            double yh = yr[c] / dy_;
            /* d cos / d x = (y^ - cos x^) / ||x|| above eps, y^ / eps below */
            double dc = nx > SCE_EPS ? (yh - cosv * xr[c] / nx) / nx : yh / SCE_EPS;
            gr[c] = (float)(dl_dc * dc / rows);
        }
    }
    return s / rows;
}
