/*
 * nn_optim.c — Adam / AdamW and global-norm gradient clipping over the
 * flat parameter store.
 *
 * PyTorch semantics, so hyper-parameters from the DIPPM / GraphMAE papers
 * carry over: bias-corrected moments, eps added outside the square root,
 * Adam's weight decay added to the gradient (L2) and AdamW's decoupled
 * decay p *= 1 - lr wd applied before the moment update.  The moments are
 * arrays parallel to the parameter array, so a checkpoint of the optimizer
 * is two more flat arrays.
 */
#include "nn/nn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

dlp_status dlp__nn_adam_init(dlp__nn_adam *o, const dlp__nn_params *ps,
                             float lr, float beta1, float beta2, float eps,
                             float weight_decay, int decoupled) {
    memset(o, 0, sizeof *o);
    if (!(lr >= 0) || !(beta1 >= 0 && beta1 < 1) || !(beta2 >= 0 && beta2 < 1) ||
        !(eps >= 0) || !(weight_decay >= 0))
        return DLP_EINVAL;
    o->lr = lr;
    o->beta1 = beta1;
    o->beta2 = beta2;
    o->eps = eps;
    o->weight_decay = weight_decay;
    o->decoupled = decoupled;
    o->n = ps->total;
    /* one allocation for both moments */
    o->m = calloc((size_t)(o->n > 0 ? 2 * o->n : 1), sizeof(float));
    if (!o->m) return DLP_ENOMEM;
    o->v = o->m + o->n;
    return DLP_OK;
}

void dlp__nn_adam_free(dlp__nn_adam *o) {
    if (!o) return;
    free(o->m);
    memset(o, 0, sizeof *o);
}

void dlp__nn_adam_step(dlp__nn_adam *o, dlp__nn_params *ps) {
    o->t++;
    double bc1 = 1.0 - pow(o->beta1, (double)o->t);
    double bc2 = 1.0 - pow(o->beta2, (double)o->t);
    float step = (float)(o->lr / bc1);
    float rbc2 = (float)(1.0 / sqrt(bc2));
    float b1 = o->beta1, b2 = o->beta2;
    for (int i = 0; i < ps->n; i++) {
        const dlp__nn_ptensor *t = &ps->t[i];
        if (!t->trainable) continue;
        float wd = t->no_decay ? 0.0f : o->weight_decay;
        float *p = ps->data + t->offset, *g = ps->grad + t->offset;
        float *m = o->m + t->offset, *v = o->v + t->offset;
        float shrink = o->decoupled ? 1.0f - o->lr * wd : 1.0f;
        float l2 = o->decoupled ? 0.0f : wd;
        for (int64_t k = 0; k < t->numel; k++) {
            float gk = g[k] + l2 * p[k];
            m[k] = b1 * m[k] + (1 - b1) * gk;
            v[k] = b2 * v[k] + (1 - b2) * gk * gk;
            p[k] = p[k] * shrink - step * m[k] / (sqrtf(v[k]) * rbc2 + o->eps);
        }
    }
}

double dlp__nn_clip_grad_norm(dlp__nn_params *ps, double max_norm) {
    double s = 0;
    for (int i = 0; i < ps->n; i++) {
        const dlp__nn_ptensor *t = &ps->t[i];
        if (!t->trainable) continue;
        const float *g = ps->grad + t->offset;
        for (int64_t k = 0; k < t->numel; k++) s += (double)g[k] * g[k];
    }
    double norm = sqrt(s);
    double coef = max_norm / (norm + 1e-6);
    if (coef < 1.0)
        for (int i = 0; i < ps->n; i++) {
            const dlp__nn_ptensor *t = &ps->t[i];
            if (!t->trainable) continue;
            float *g = ps->grad + t->offset;
            for (int64_t k = 0; k < t->numel; k++) g[k] *= (float)coef;
        }
    return norm;
}
