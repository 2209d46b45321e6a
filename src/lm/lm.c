/*
 * lm.c — the decoder-only transformer of lm.h: its pieces (embedding,
 * RMSNorm, RoPE, causal GQA attention, SwiGLU, LoRA projection, cross-
 * entropy) as forward/backward pairs, and the whole model over a batch.
 *
 * Performance notes: every projection is one sgemm over all B*S rows;
 * attention is two sgemms per (row, head) over strided views of q/k/v (no
 * copies), the softmax kept (B, H, S, S) for backward; the head is one
 * sgemm per row over the text positions only.  Frozen weights skip their
 * dW sgemm, which is what makes LoRA tuning cheaper than full training.
 */
#include "lm/lm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define CHECK_ALLOC(p) do { if (!(p)) return DLP_ENOMEM; } while (0)

/* ---- embedding ------------------------------------------------------- */

void dlp__lm_embed_forward(const float *emb, int d, const int32_t *tok, int n, float *x) {
    for (int i = 0; i < n; i++)
        memcpy(x + (size_t)i * d, emb + (size_t)tok[i] * d, (size_t)d * sizeof(float));
}

void dlp__lm_embed_backward(const float *dx, int d, const int32_t *tok, int n, float *demb) {
    for (int i = 0; i < n; i++) {
        float *g = demb + (size_t)tok[i] * d;
        const float *s = dx + (size_t)i * d;
        for (int j = 0; j < d; j++) g[j] += s[j];
    }
}

/* ---- RMSNorm --------------------------------------------------------- */

void dlp__lm_rmsnorm_forward(const float *x, const float *w, int n, int d, float eps,
                             float *y, float *rstd) {
    for (int i = 0; i < n; i++) {
        const float *xi = x + (size_t)i * d;
        float *yi = y + (size_t)i * d;
        double ss = 0;
        for (int j = 0; j < d; j++) ss += (double)xi[j] * xi[j];
        float r = (float)(1.0 / sqrt(ss / d + eps));
        rstd[i] = r;
        for (int j = 0; j < d; j++) yi[j] = xi[j] * r * w[j];
    }
}

/* y_j = x_j r w_j, r = (mean x^2 + eps)^-1/2:
 * dx_j = r (w_j dy_j) - x_j r^3 / d * sum_k (w_k dy_k x_k);  dw_j = dy_j x_j r */
void dlp__lm_rmsnorm_backward(const float *x, const float *w, const float *rstd,
                              const float *dy, int n, int d, float *dx, float *dw) {
    for (int i = 0; i < n; i++) {
        const float *xi = x + (size_t)i * d, *gi = dy + (size_t)i * d;
        float r = rstd[i];
        if (dw)
            for (int j = 0; j < d; j++) dw[j] += gi[j] * xi[j] * r;
        if (dx) {
            double s = 0;
            for (int j = 0; j < d; j++) s += (double)w[j] * gi[j] * xi[j];
            float c = (float)(s * r * r * r / d);
            float *di = dx + (size_t)i * d;
            for (int j = 0; j < d; j++) di[j] += r * w[j] * gi[j] - xi[j] * c;
        }
    }
}

/* ---- RoPE ------------------------------------------------------------ */

void dlp__lm_rope_tables(int max_seq, int hd, float theta, float *cos_t, float *sin_t) {
    int h2 = hd / 2;
    for (int p = 0; p < max_seq; p++)
        for (int i = 0; i < h2; i++) {
            double f = pow((double)theta, -2.0 * i / hd);
            cos_t[(size_t)p * h2 + i] = (float)cos(p * f);
            sin_t[(size_t)p * h2 + i] = (float)sin(p * f);
        }
}

void dlp__lm_rope_tables_cfg(const dlp__lm_config *c, float *cos_t, float *sin_t) {
    int hd = c->dim / c->n_heads, h2 = hd / 2;
    const double pi = 3.14159265358979323846;
    for (int i = 0; i < h2; i++) {
        double f = pow((double)c->rope_theta, -2.0 * i / hd);
        if (c->rope_factor > 0) {
            double w = 2 * pi / f, lo = c->rope_low_freq, hi = c->rope_high_freq;
            double fac = c->rope_factor, orig = c->rope_orig_max;
            if (w > orig / lo) {
                f /= fac;
            } else if (!(w < orig / hi)) {
                double t = (orig / w - lo) / (hi - lo);
                f = (1 - t) * f / fac + t * f;
            }
        }
        for (int p = 0; p < c->max_seq; p++) {
            cos_t[(size_t)p * h2 + i] = (float)cos(p * f);
            sin_t[(size_t)p * h2 + i] = (float)sin(p * f);
        }
    }
}

static void rope_apply(float *x, int B, int S, int nh, int hd, const float *cos_t,
                       const float *sin_t, float sign) {
    int h2 = hd / 2;
    for (int row = 0; row < B * S; row++) {
        int pos = row % S;
        const float *c = cos_t + (size_t)pos * h2, *s = sin_t + (size_t)pos * h2;
        for (int h = 0; h < nh; h++) {
            float *v = x + ((size_t)row * nh + h) * hd;
            for (int i = 0; i < h2; i++) {
                float a = v[i], b = v[i + h2], si = sign * s[i];
                v[i] = a * c[i] - b * si;
                v[i + h2] = b * c[i] + a * si;
            }
        }
    }
}

void dlp__lm_rope_forward(float *x, int B, int S, int nh, int hd, const float *cos_t,
                          const float *sin_t) {
    rope_apply(x, B, S, nh, hd, cos_t, sin_t, 1.0f);
}

/* the rotation is orthogonal: its gradient is the inverse rotation */
void dlp__lm_rope_backward(float *dx, int B, int S, int nh, int hd, const float *cos_t,
                           const float *sin_t) {
    rope_apply(dx, B, S, nh, hd, cos_t, sin_t, -1.0f);
}

/* ---- causal grouped-query attention ----------------------------------- */

dlp_status dlp__lm_attn_forward(const float *q, const float *k, const float *v, int B, int S,
                                int H, int KV, int hd, float *P, float *out) {
    if (H <= 0 || KV <= 0 || H % KV) return DLP_EINVAL;
    int g = H / KV, ldq = H * hd, ldk = KV * hd;
    float scale = 1.0f / sqrtf((float)hd);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *qh = q + (size_t)b * S * ldq + (size_t)h * hd;
            const float *kh = k + (size_t)b * S * ldk + (size_t)(h / g) * hd;
            const float *vh = v + (size_t)b * S * ldk + (size_t)(h / g) * hd;
            float *Ph = P + ((size_t)b * H + h) * S * S;
            dlp__nn_gemm(0, 1, S, S, hd, scale, qh, ldq, kh, ldk, 0.0f, Ph, S);
            for (int i = 0; i < S; i++) {
                float *p = Ph + (size_t)i * S, mx = p[0];
                for (int j = 1; j <= i; j++) mx = p[j] > mx ? p[j] : mx;
                float sum = 0;
                for (int j = 0; j <= i; j++) sum += p[j] = expf(p[j] - mx);
                float inv = 1.0f / sum;
                for (int j = 0; j <= i; j++) p[j] *= inv;
                for (int j = i + 1; j < S; j++) p[j] = 0;
            }
            dlp__nn_gemm(0, 0, S, hd, S, 1.0f, Ph, S, vh, ldk, 0.0f,
                         out + (size_t)b * S * ldq + (size_t)h * hd, ldq);
        }
    return DLP_OK;
}

dlp_status dlp__lm_attn_backward(const float *q, const float *k, const float *v, const float *P,
                                 const float *dout, int B, int S, int H, int KV, int hd,
                                 dlp__nn_ws *ws, float *dq, float *dk, float *dv) {
    if (H <= 0 || KV <= 0 || H % KV) return DLP_EINVAL;
    int g = H / KV, ldq = H * hd, ldk = KV * hd;
    float scale = 1.0f / sqrtf((float)hd);
    dlp__nn_ws_mark mk = dlp__nn_ws_get_mark(ws);
    float *dP = dlp__nn_ws_floats(ws, (size_t)S * S);
    CHECK_ALLOC(dP);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t qo = (size_t)b * S * ldq + (size_t)h * hd;
            size_t ko = (size_t)b * S * ldk + (size_t)(h / g) * hd;
            const float *Ph = P + ((size_t)b * H + h) * S * S;
            /* dV += P^T dO;  dP = dO V^T */
            dlp__nn_gemm(1, 0, S, hd, S, 1.0f, Ph, S, dout + qo, ldq, 1.0f, dv + ko, ldk);
            dlp__nn_gemm(0, 1, S, S, hd, 1.0f, dout + qo, ldq, v + ko, ldk, 0.0f, dP, S);
            /* softmax backward, then the 1/sqrt(hd) of the scores */
            for (int i = 0; i < S; i++) {
                const float *p = Ph + (size_t)i * S;
                float *d = dP + (size_t)i * S;
                double dot = 0;
                for (int j = 0; j <= i; j++) dot += (double)p[j] * d[j];
                float fd = (float)dot;
                for (int j = 0; j <= i; j++) d[j] = scale * p[j] * (d[j] - fd);
                for (int j = i + 1; j < S; j++) d[j] = 0;
            }
            /* dQ += dS K;  dK += dS^T Q */
            dlp__nn_gemm(0, 0, S, hd, S, 1.0f, dP, S, k + ko, ldk, 1.0f, dq + qo, ldq);
            dlp__nn_gemm(1, 0, S, hd, S, 1.0f, dP, S, q + qo, ldq, 1.0f, dk + ko, ldk);
        }
    dlp__nn_ws_release(ws, mk);
    return DLP_OK;
}

/* ---- SwiGLU ---------------------------------------------------------- */

void dlp__lm_swiglu_forward(const float *g, const float *u, int64_t n, float *y) {
    for (int64_t i = 0; i < n; i++) {
        float s = 1.0f / (1.0f + expf(-g[i]));
        y[i] = g[i] * s * u[i];
    }
}

/* silu'(g) = s (1 + g (1 - s)) */
void dlp__lm_swiglu_backward(const float *g, const float *u, const float *dy, int64_t n,
                             float *dg, float *du) {
    for (int64_t i = 0; i < n; i++) {
        float s = 1.0f / (1.0f + expf(-g[i]));
        du[i] += dy[i] * g[i] * s;
        dg[i] += dy[i] * u[i] * s * (1.0f + g[i] * (1.0f - s));
    }
}

/* ---- projection with LoRA ------------------------------------------- */

dlp_status dlp__lm_proj_init(dlp__lm_proj *p, dlp__nn_params *ps, const char *name, int in,
                             int out, float w_bound, int r, float alpha) {
    memset(p, 0, sizeof *p);
    if (in <= 0 || out <= 0 || r < 0) return DLP_EINVAL;
    p->in = in;
    p->out = out;
    p->r = r;
    p->a = p->b = -1;
    p->w = dlp__nn_params_add(ps, name, "weight", 2, out, in, DLP__NN_INIT_UNIFORM, w_bound, 1);
    if (p->w < 0) return DLP_ENOMEM;
    if (r > 0) {
        /* PEFT: A kaiming-uniform(a=sqrt 5) = U(±1/sqrt(in)), B zero, so a
         * fresh adapter leaves the base model's output unchanged */
        p->a = dlp__nn_params_add(ps, name, "lora_A", 2, r, in, DLP__NN_INIT_UNIFORM,
                                  1.0f / sqrtf((float)in), 1);
        p->b = dlp__nn_params_add(ps, name, "lora_B", 2, out, r, DLP__NN_INIT_ZEROS, 0, 1);
        if (p->a < 0 || p->b < 0) return DLP_ENOMEM;
        p->scale = alpha / (float)r;
    }
    return DLP_OK;
}

dlp_status dlp__lm_proj_forward(dlp__lm_proj *p, dlp__nn_ctx *cx, const float *x, int n,
                                float *y) {
    const dlp__nn_params *ps = cx->ps;
    dlp__nn_gemm(0, 1, n, p->out, p->in, 1.0f, x, p->in, dlp__nn_pv(ps, p->w), p->in, 0.0f, y,
                 p->out);
    p->x = x;
    p->n = n;
    p->xa = NULL;
    if (p->a >= 0) {
        p->xa = dlp__nn_ws_floats(cx->ws, (size_t)n * p->r);
        CHECK_ALLOC(p->xa);
        dlp__nn_gemm(0, 1, n, p->r, p->in, 1.0f, x, p->in, dlp__nn_pv(ps, p->a), p->in, 0.0f,
                     p->xa, p->r);
        dlp__nn_gemm(0, 1, n, p->out, p->r, p->scale, p->xa, p->r, dlp__nn_pv(ps, p->b), p->r,
                     1.0f, y, p->out);
    }
    return DLP_OK;
}

dlp_status dlp__lm_proj_backward(dlp__lm_proj *p, dlp__nn_ctx *cx, const float *dy, float *dx) {
    dlp__nn_params *ps = cx->ps;
    int n = p->n;
    if (ps->t[p->w].trainable)
        dlp__nn_gemm(1, 0, p->out, p->in, n, 1.0f, dy, p->out, p->x, p->in, 1.0f,
                     dlp__nn_pg(ps, p->w), p->in);
    if (dx)
        dlp__nn_gemm(0, 0, n, p->in, p->out, 1.0f, dy, p->out, dlp__nn_pv(ps, p->w), p->in, 1.0f,
                     dx, p->in);
    if (p->a >= 0) {
        dlp__nn_ws_mark mk = dlp__nn_ws_get_mark(cx->ws);
        float *dxa = dlp__nn_ws_floats(cx->ws, (size_t)n * p->r);
        CHECK_ALLOC(dxa);
        /* dB += s dy^T xa;  dxa = s dy B;  dA += dxa^T x;  dx += dxa A */
        dlp__nn_gemm(1, 0, p->out, p->r, n, p->scale, dy, p->out, p->xa, p->r, 1.0f,
                     dlp__nn_pg(ps, p->b), p->r);
        dlp__nn_gemm(0, 0, n, p->r, p->out, p->scale, dy, p->out, dlp__nn_pv(ps, p->b), p->r,
                     0.0f, dxa, p->r);
        dlp__nn_gemm(1, 0, p->r, p->in, n, 1.0f, dxa, p->r, p->x, p->in, 1.0f,
                     dlp__nn_pg(ps, p->a), p->in);
        if (dx)
            dlp__nn_gemm(0, 0, n, p->in, p->r, 1.0f, dxa, p->r, dlp__nn_pv(ps, p->a), p->in, 1.0f,
                         dx, p->in);
        dlp__nn_ws_release(cx->ws, mk);
    }
    return DLP_OK;
}

/* ---- cross-entropy --------------------------------------------------- */

double dlp__lm_xent(const float *logits, int n, int V, const int32_t *target, float *dlogits,
                    int *count) {
    int cnt = 0;
    for (int i = 0; i < n; i++) cnt += target[i] >= 0 && target[i] < V;
    if (count) *count = cnt;
    double loss = 0;
    float inv = cnt ? 1.0f / (float)cnt : 0.0f;
    for (int i = 0; i < n; i++) {
        const float *l = logits + (size_t)i * V;
        float *d = dlogits ? dlogits + (size_t)i * V : NULL;
        int t = target[i];
        if (t < 0 || t >= V) {
            if (d) memset(d, 0, (size_t)V * sizeof(float));
            continue;
        }
        float mx = l[0];
        for (int j = 1; j < V; j++) mx = l[j] > mx ? l[j] : mx;
        /* exp once (float, shifted by the max so it cannot overflow); the
         * sum and the log in double */
        double sum = 0;
        if (d) {
            for (int j = 0; j < V; j++) sum += d[j] = expf(l[j] - mx);
            float sc = (float)(inv / sum);
            for (int j = 0; j < V; j++) d[j] *= sc;
            d[t] -= inv;
        } else {
            for (int j = 0; j < V; j++) sum += expf(l[j] - mx);
        }
        loss += mx + log(sum) - l[t];
    }
    return cnt ? loss / cnt : 0.0;
}

/* ---- the model ------------------------------------------------------- */

dlp__lm_config dlp__lm_config_default(int vocab, int dim, int n_layers, int n_heads,
                                      int n_kv_heads, int ffn, int max_seq) {
    dlp__lm_config c = {0};
    c.vocab = vocab;
    c.dim = dim;
    c.n_layers = n_layers;
    c.n_heads = n_heads;
    c.n_kv_heads = n_kv_heads;
    c.ffn = ffn;
    c.max_seq = max_seq;
    c.rope_theta = 10000.0f;
    c.norm_eps = 1e-5f;
    c.lora_alpha = 16.0f;
    return c;
}

static dlp_status check_config(const dlp__lm_config *c, dlp_error *err) {
    if (c->vocab < DLP__BPE_FIRST_MERGE || c->dim <= 0 || c->n_layers <= 0 || c->n_heads <= 0 ||
        c->n_kv_heads <= 0 || c->ffn <= 0 || c->max_seq <= 0)
        return dlp__err(err, DLP_EINVAL, "lm: bad config (vocab %d >= %d, dim, layers, heads, "
                        "ffn, max_seq > 0)", c->vocab, DLP__BPE_FIRST_MERGE);
    if (c->dim % c->n_heads || (c->dim / c->n_heads) % 2 || c->n_heads % c->n_kv_heads)
        return dlp__err(err, DLP_EINVAL, "lm: dim %d / heads %d must give an even head size and "
                        "heads a multiple of kv heads %d", c->dim, c->n_heads, c->n_kv_heads);
    if (c->lora_rank < 0 || c->n_soft < 0 || c->graph_dim < 0 || !(c->norm_eps > 0) ||
        !(c->rope_theta > 0) || (c->lora_rank > 0 && !(c->lora_alpha > 0)))
        return dlp__err(err, DLP_EINVAL, "lm: bad adapter settings (rank, alpha, soft, graph)");
    if (c->rope_factor < 0 || (c->rope_factor > 0 &&
        (!(c->rope_low_freq > 0) || !(c->rope_high_freq > c->rope_low_freq) || c->rope_orig_max <= 0)))
        return dlp__err(err, DLP_EINVAL, "lm: bad llama3 RoPE scaling (factor %g, low %g, high %g, "
                        "original length %d)", c->rope_factor, c->rope_low_freq, c->rope_high_freq,
                        c->rope_orig_max);
    if (c->n_soft >= c->max_seq)
        return dlp__err(err, DLP_EINVAL, "lm: %d soft-prompt vectors leave no room in max_seq %d",
                        c->n_soft, c->max_seq);
    return DLP_OK;
}

dlp_status dlp__lm_init(dlp__lm *m, const dlp__lm_config *c, uint64_t seed, dlp_error *err) {
    memset(m, 0, sizeof *m);
    dlp_status st = check_config(c, err);
    if (st != DLP_OK) return st;
    m->c = *c;
    dlp__nn_params *ps = &m->ps;
    int D = c->dim, hd = D / c->n_heads, kvd = c->n_kv_heads * hd;
    /* GPT-2 / LLaMA-style init: N(0, 0.02) as U(±0.02 sqrt 3); the residual
     * outputs (wo, w2) scaled by 1/sqrt(2 n_layers) */
    float b0 = 0.02f * sqrtf(3.0f), bres = b0 / sqrtf(2.0f * c->n_layers);
    m->soft = m->gproj_w = m->gproj_b = m->head = -1;
    m->tok_emb = dlp__nn_params_add(ps, NULL, "tok_embeddings.weight", 2, c->vocab, D,
                                    DLP__NN_INIT_UNIFORM, b0, 1);
    m->blk = calloc((size_t)c->n_layers, sizeof *m->blk);
    if (!m->blk || m->tok_emb < 0) goto oom;
    for (int l = 0; l < c->n_layers; l++) {
        dlp__lm_block *k = &m->blk[l];
        char nm[48];
        int r = c->lora_rank;
        float a = c->lora_alpha;
        snprintf(nm, sizeof nm, "layers.%d", l);
        k->attn_norm = dlp__nn_params_add(ps, nm, "attention_norm.weight", 1, D, 1,
                                          DLP__NN_INIT_CONST, 1.0f, 1);
        if (k->attn_norm < 0) goto oom;
        ps->t[k->attn_norm].no_decay = 1;
#define PROJ(field, sub, in, out, bound)                                                       \
        snprintf(nm, sizeof nm, "layers.%d.%s", l, sub);                                      \
        if (dlp__lm_proj_init(&k->field, ps, nm, in, out, bound, r, a) != DLP_OK) goto oom;
        PROJ(wq, "attention.wq", D, D, b0)
        PROJ(wk, "attention.wk", D, kvd, b0)
        PROJ(wv, "attention.wv", D, kvd, b0)
        PROJ(wo, "attention.wo", D, D, bres)
        snprintf(nm, sizeof nm, "layers.%d", l);
        k->ffn_norm = dlp__nn_params_add(ps, nm, "ffn_norm.weight", 1, D, 1, DLP__NN_INIT_CONST,
                                         1.0f, 1);
        if (k->ffn_norm < 0) goto oom;
        ps->t[k->ffn_norm].no_decay = 1;
        PROJ(w1, "feed_forward.w1", D, c->ffn, b0)
        PROJ(w3, "feed_forward.w3", D, c->ffn, b0)
        PROJ(w2, "feed_forward.w2", c->ffn, D, bres)
#undef PROJ
    }
    m->norm = dlp__nn_params_add(ps, NULL, "norm.weight", 1, D, 1, DLP__NN_INIT_CONST, 1.0f, 1);
    if (m->norm < 0) goto oom;
    ps->t[m->norm].no_decay = 1;
    if (c->untied_head) {
        m->head = dlp__nn_params_add(ps, NULL, "output.weight", 2, c->vocab, D,
                                     DLP__NN_INIT_UNIFORM, b0, 1);
        if (m->head < 0) goto oom;
    }
    if (c->n_soft > 0) {
        m->soft = dlp__nn_params_add(ps, NULL, "soft_prompt", 2, c->n_soft, D,
                                     DLP__NN_INIT_UNIFORM, b0, 1);
        if (m->soft < 0) goto oom;
        ps->t[m->soft].no_decay = 1;
    }
    if (c->graph_dim > 0) {
        m->gproj_w = dlp__nn_params_add(ps, NULL, "graph_proj.weight", 2, D, c->graph_dim,
                                        DLP__NN_INIT_GLOROT, 0, 1);
        m->gproj_b = dlp__nn_params_add(ps, NULL, "graph_proj.bias", 1, D, 1, DLP__NN_INIT_ZEROS,
                                        0, 1);
        if (m->gproj_w < 0 || m->gproj_b < 0) goto oom;
    }
    if (dlp__nn_params_alloc(ps) != DLP_OK) goto oom;
    dlp__nn_params_init(ps, seed);
    int h2 = hd / 2;
    m->rope_cos = malloc((size_t)c->max_seq * h2 * sizeof(float));
    m->rope_sin = malloc((size_t)c->max_seq * h2 * sizeof(float));
    if (!m->rope_cos || !m->rope_sin) goto oom;
    dlp__lm_rope_tables_cfg(c, m->rope_cos, m->rope_sin);
    dlp__lm_set_base_trainable(m, c->lora_rank == 0);
    return DLP_OK;
oom:
    dlp__lm_free(m);
    return dlp__err(err, DLP_ENOMEM, "lm: out of memory");
}

void dlp__lm_free(dlp__lm *m) {
    if (!m) return;
    dlp__nn_params_free(&m->ps);
    free(m->blk);
    free(m->rope_cos);
    free(m->rope_sin);
    memset(m, 0, sizeof *m);
}

void dlp__lm_set_base_trainable(dlp__lm *m, int on) {
    for (int i = 0; i < m->ps.n; i++) {
        const char *nm = m->ps.t[i].name;
        int adapter = strstr(nm, "lora_") || strncmp(nm, "soft_prompt", 11) == 0 ||
                      strncmp(nm, "graph_proj.", 11) == 0;
        m->ps.t[i].trainable = adapter || on ? 1 : 0;
    }
}

void dlp__lm_next_targets(const int32_t *tokens, int B, int T, int32_t *targets) {
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            int32_t nx = t + 1 < T ? tokens[(size_t)b * T + t + 1] : -1;
            targets[(size_t)b * T + t] = nx == DLP__BPE_PAD || nx == DLP__BPE_GSLOT ? -1 : nx;
        }
}

dlp_status dlp__lm_forward(dlp__lm *m, dlp__nn_ws *ws, const dlp__lm_batch *bt, double *loss,
                           dlp_error *err) {
    const dlp__lm_config *c = &m->c;
    int B = bt->B, T = bt->T, S = c->n_soft + T, D = c->dim, V = c->vocab;
    int H = c->n_heads, KV = c->n_kv_heads, hd = D / H, kvd = KV * hd, F = c->ffn;
    if (loss) *loss = 0;
    if (B <= 0 || T <= 0 || S > c->max_seq)
        return dlp__err(err, DLP_EINVAL, "lm: batch %d x %d tokens (+%d soft) exceeds max_seq %d",
                        B, T, c->n_soft, c->max_seq);
    for (int64_t i = 0; i < (int64_t)B * T; i++) {
        int32_t t = bt->tokens[i];
        if (t < 0 || t >= V)
            return dlp__err(err, DLP_EINVAL, "lm: token %d at %lld outside the vocabulary (%d)",
                            t, (long long)i, V);
        if (t == DLP__BPE_GSLOT && m->gproj_w >= 0 && !bt->gvec)
            return dlp__err(err, DLP_EINVAL, "lm: <gslot> in the input but no graph vector");
    }
    m->B = B;
    m->T = T;
    m->S = S;
    m->tokens = bt->tokens;
    m->targets = bt->targets;
    m->gvec = bt->gvec;
    size_t N = (size_t)B * S;
    dlp__nn_ctx cx;
    dlp__nn_ctx_init(&cx, &m->ps, ws, 1, 1);
    const dlp__nn_params *ps = &m->ps;

    /* embeddings: soft prompt, tokens, graph slots */
    float *x = m->x0 = dlp__nn_ws_floats(ws, N * D);
    if (!x) goto oom;
    float *gp = NULL;
    if (m->gproj_w >= 0 && bt->gvec) {
        gp = dlp__nn_ws_floats(ws, (size_t)B * D);
        if (!gp) goto oom;
        const float *gb = dlp__nn_pv(ps, m->gproj_b);
        for (int b = 0; b < B; b++) memcpy(gp + (size_t)b * D, gb, (size_t)D * sizeof(float));
        dlp__nn_gemm(0, 1, B, D, c->graph_dim, 1.0f, bt->gvec, c->graph_dim,
                     dlp__nn_pv(ps, m->gproj_w), c->graph_dim, 1.0f, gp, D);
    }
    const float *emb = dlp__nn_pv(ps, m->tok_emb);
    for (int b = 0; b < B; b++) {
        float *xb = x + (size_t)b * S * D;
        if (c->n_soft)
            memcpy(xb, dlp__nn_pv(ps, m->soft), (size_t)c->n_soft * D * sizeof(float));
        for (int t = 0; t < T; t++) {
            int32_t id = bt->tokens[(size_t)b * T + t];
            const float *src = id == DLP__BPE_GSLOT && gp ? gp + (size_t)b * D
                                                          : emb + (size_t)id * D;
            memcpy(xb + (size_t)(c->n_soft + t) * D, src, (size_t)D * sizeof(float));
        }
    }

    /* blocks */
    for (int l = 0; l < c->n_layers; l++) {
        dlp__lm_block *k = &m->blk[l];
        k->x = x;
        k->n1 = dlp__nn_ws_floats(ws, N * D);
        k->rstd1 = dlp__nn_ws_floats(ws, N);
        k->q = dlp__nn_ws_floats(ws, N * D);
        k->k = dlp__nn_ws_floats(ws, N * kvd);
        k->v = dlp__nn_ws_floats(ws, N * kvd);
        k->P = dlp__nn_ws_floats(ws, (size_t)B * H * S * S);
        k->att = dlp__nn_ws_floats(ws, N * D);
        k->x1 = dlp__nn_ws_floats(ws, N * D);
        k->n2 = dlp__nn_ws_floats(ws, N * D);
        k->rstd2 = dlp__nn_ws_floats(ws, N);
        k->g = dlp__nn_ws_floats(ws, N * F);
        k->u = dlp__nn_ws_floats(ws, N * F);
        k->h = dlp__nn_ws_floats(ws, N * F);
        float *x2 = dlp__nn_ws_floats(ws, N * D);
        if (!k->n1 || !k->rstd1 || !k->q || !k->k || !k->v || !k->P || !k->att || !k->x1 ||
            !k->n2 || !k->rstd2 || !k->g || !k->u || !k->h || !x2)
            goto oom;
        dlp__lm_rmsnorm_forward(x, dlp__nn_pv(ps, k->attn_norm), (int)N, D, c->norm_eps, k->n1,
                                k->rstd1);
        if (dlp__lm_proj_forward(&k->wq, &cx, k->n1, (int)N, k->q) ||
            dlp__lm_proj_forward(&k->wk, &cx, k->n1, (int)N, k->k) ||
            dlp__lm_proj_forward(&k->wv, &cx, k->n1, (int)N, k->v))
            goto oom;
        dlp__lm_rope_forward(k->q, B, S, H, hd, m->rope_cos, m->rope_sin);
        dlp__lm_rope_forward(k->k, B, S, KV, hd, m->rope_cos, m->rope_sin);
        dlp__lm_attn_forward(k->q, k->k, k->v, B, S, H, KV, hd, k->P, k->att);
        if (dlp__lm_proj_forward(&k->wo, &cx, k->att, (int)N, k->x1)) goto oom;
        for (size_t i = 0; i < N * D; i++) k->x1[i] += x[i];
        dlp__lm_rmsnorm_forward(k->x1, dlp__nn_pv(ps, k->ffn_norm), (int)N, D, c->norm_eps,
                                k->n2, k->rstd2);
        if (dlp__lm_proj_forward(&k->w1, &cx, k->n2, (int)N, k->g) ||
            dlp__lm_proj_forward(&k->w3, &cx, k->n2, (int)N, k->u))
            goto oom;
        dlp__lm_swiglu_forward(k->g, k->u, (int64_t)N * F, k->h);
        if (dlp__lm_proj_forward(&k->w2, &cx, k->h, (int)N, x2)) goto oom;
        for (size_t i = 0; i < N * D; i++) x2[i] += k->x1[i];
        x = x2;
    }
    m->xL = x;
    m->hidden = dlp__nn_ws_floats(ws, N * D);
    m->rstdL = dlp__nn_ws_floats(ws, N);
    m->logits = dlp__nn_ws_floats(ws, (size_t)B * T * V);
    if (!m->hidden || !m->rstdL || !m->logits) goto oom;
    dlp__lm_rmsnorm_forward(x, dlp__nn_pv(ps, m->norm), (int)N, D, c->norm_eps, m->hidden,
                            m->rstdL);
    /* head (tied: the embedding) over the text positions of each row */
    const float *W = m->head >= 0 ? dlp__nn_pv(ps, m->head) : emb;
    for (int b = 0; b < B; b++)
        dlp__nn_gemm(0, 1, T, V, D, 1.0f, m->hidden + ((size_t)b * S + c->n_soft) * D, D, W, D,
                     0.0f, m->logits + (size_t)b * T * V, V);
    m->dlogits = NULL;
    if (bt->targets) {
        m->dlogits = dlp__nn_ws_floats(ws, (size_t)B * T * V);
        if (!m->dlogits) goto oom;
        double lv = dlp__lm_xent(m->logits, B * T, V, bt->targets, m->dlogits, NULL);
        if (loss) *loss = lv;
    }
    return DLP_OK;
oom:
    return dlp__err(err, DLP_ENOMEM, "lm: out of memory in forward (batch %d x %d)", B, T);
}

dlp_status dlp__lm_backward(dlp__lm *m, dlp__nn_ws *ws, const float *dhidden, float *dgvec) {
    const dlp__lm_config *c = &m->c;
    int B = m->B, T = m->T, S = m->S, D = c->dim, V = c->vocab;
    int H = c->n_heads, KV = c->n_kv_heads, hd = D / H, kvd = KV * hd, F = c->ffn;
    size_t N = (size_t)B * S;
    dlp__nn_params *ps = &m->ps;
    dlp__nn_ctx cx;
    dlp__nn_ctx_init(&cx, ps, ws, 1, 1);
    int emb_tr = ps->t[m->tok_emb].trainable;
    int hid = m->head >= 0 ? m->head : m->tok_emb;   /* the head's tensor */
    const float *W = dlp__nn_pv(ps, hid);
    int head_tr = ps->t[hid].trainable;

    /* head: dhidden = dlogits W; dW += dlogits^T hidden (W = E when tied) */
    float *dh = dlp__nn_ws_zeros(ws, N * D);
    float *dX = dlp__nn_ws_zeros(ws, N * D);
    CHECK_ALLOC(dh);
    CHECK_ALLOC(dX);
    if (dhidden) memcpy(dh, dhidden, N * D * sizeof(float));
    if (m->dlogits)
        for (int b = 0; b < B; b++) {
            const float *dl = m->dlogits + (size_t)b * T * V;
            size_t ho = ((size_t)b * S + c->n_soft) * D;
            dlp__nn_gemm(0, 0, T, D, V, 1.0f, dl, V, W, D, 1.0f, dh + ho, D);
            if (head_tr)
                dlp__nn_gemm(1, 0, V, D, T, 1.0f, dl, V, m->hidden + ho, D, 1.0f,
                             dlp__nn_pg(ps, hid), D);
        }
    dlp__lm_rmsnorm_backward(m->xL, dlp__nn_pv(ps, m->norm), m->rstdL, dh, (int)N, D, dX,
                             ps->t[m->norm].trainable ? dlp__nn_pg(ps, m->norm) : NULL);

    for (int l = c->n_layers - 1; l >= 0; l--) {
        dlp__lm_block *k = &m->blk[l];
        dlp__nn_ws_mark mk = dlp__nn_ws_get_mark(ws);
        float *dhh = dlp__nn_ws_zeros(ws, N * F);
        float *dg = dlp__nn_ws_zeros(ws, N * F);
        float *du = dlp__nn_ws_zeros(ws, N * F);
        float *dn = dlp__nn_ws_zeros(ws, N * D);
        float *datt = dlp__nn_ws_zeros(ws, N * D);
        float *dq = dlp__nn_ws_zeros(ws, N * D);
        float *dk = dlp__nn_ws_zeros(ws, N * kvd);
        float *dv = dlp__nn_ws_zeros(ws, N * kvd);
        if (!dhh || !dg || !du || !dn || !datt || !dq || !dk || !dv) return DLP_ENOMEM;
        /* MLP: dX is d x2 here and d x1 after the norm's backward (residual) */
        if (dlp__lm_proj_backward(&k->w2, &cx, dX, dhh)) return DLP_ENOMEM;
        dlp__lm_swiglu_backward(k->g, k->u, dhh, (int64_t)N * F, dg, du);
        if (dlp__lm_proj_backward(&k->w1, &cx, dg, dn) || dlp__lm_proj_backward(&k->w3, &cx, du, dn))
            return DLP_ENOMEM;
        dlp__lm_rmsnorm_backward(k->x1, dlp__nn_pv(ps, k->ffn_norm), k->rstd2, dn, (int)N, D, dX,
                                 ps->t[k->ffn_norm].trainable ? dlp__nn_pg(ps, k->ffn_norm) : NULL);
        /* attention */
        if (dlp__lm_proj_backward(&k->wo, &cx, dX, datt)) return DLP_ENOMEM;
        if (dlp__lm_attn_backward(k->q, k->k, k->v, k->P, datt, B, S, H, KV, hd, ws, dq, dk, dv))
            return DLP_ENOMEM;
        dlp__lm_rope_backward(dq, B, S, H, hd, m->rope_cos, m->rope_sin);
        dlp__lm_rope_backward(dk, B, S, KV, hd, m->rope_cos, m->rope_sin);
        memset(dn, 0, N * D * sizeof(float));
        if (dlp__lm_proj_backward(&k->wq, &cx, dq, dn) || dlp__lm_proj_backward(&k->wk, &cx, dk, dn) ||
            dlp__lm_proj_backward(&k->wv, &cx, dv, dn))
            return DLP_ENOMEM;
        dlp__lm_rmsnorm_backward(k->x, dlp__nn_pv(ps, k->attn_norm), k->rstd1, dn, (int)N, D, dX,
                                 ps->t[k->attn_norm].trainable ? dlp__nn_pg(ps, k->attn_norm) : NULL);
        dlp__nn_ws_release(ws, mk);
    }

    /* embeddings */
    float *dgp = NULL;
    int use_g = m->gproj_w >= 0 && m->gvec;
    if (use_g) {
        dgp = dlp__nn_ws_zeros(ws, (size_t)B * D);
        CHECK_ALLOC(dgp);
    }
    for (int b = 0; b < B; b++) {
        const float *db = dX + (size_t)b * S * D;
        if (c->n_soft) {
            float *gs = dlp__nn_pg(ps, m->soft);
            for (size_t i = 0; i < (size_t)c->n_soft * D; i++) gs[i] += db[i];
        }
        for (int t = 0; t < T; t++) {
            int32_t id = m->tokens[(size_t)b * T + t];
            const float *g = db + (size_t)(c->n_soft + t) * D;
            float *to = id == DLP__BPE_GSLOT && use_g ? dgp + (size_t)b * D
                        : emb_tr                        ? dlp__nn_pg(ps, m->tok_emb) + (size_t)id * D
                                                        : NULL;
            if (to)
                for (int j = 0; j < D; j++) to[j] += g[j];
        }
    }
    if (use_g) {
        int G = c->graph_dim;
        /* gp = gvec W^T + b:  dW += dgp^T gvec;  db += sum dgp;  dgvec += dgp W */
        dlp__nn_gemm(1, 0, D, G, B, 1.0f, dgp, D, m->gvec, G, 1.0f, dlp__nn_pg(ps, m->gproj_w), G);
        float *gb = dlp__nn_pg(ps, m->gproj_b);
        for (int b = 0; b < B; b++)
            for (int j = 0; j < D; j++) gb[j] += dgp[(size_t)b * D + j];
        if (dgvec)
            dlp__nn_gemm(0, 0, B, G, D, 1.0f, dgp, D, dlp__nn_pv(ps, m->gproj_w), G, 1.0f, dgvec, G);
    }
    return DLP_OK;
}

dlp_status dlp__lm_generate(dlp__lm *m, dlp__nn_ws *ws, const int32_t *prompt, int n, int max_new,
                            int32_t stop, const float *gvec, int32_t *out, int *n_out,
                            dlp_error *err) {
    *n_out = 0;
    if (n < 1 || max_new < 0) return dlp__err(err, DLP_EINVAL, "lm generate: empty prompt");
    int32_t *seq = malloc(((size_t)n + max_new) * sizeof *seq);
    if (!seq) return dlp__err(err, DLP_ENOMEM, "lm generate: out of memory");
    memcpy(seq, prompt, (size_t)n * sizeof *seq);
    int len = n, V = m->c.vocab;
    dlp_status st = DLP_OK;
    while (len < n + max_new && m->c.n_soft + len < m->c.max_seq) {
        dlp__lm_batch b = {1, len, seq, NULL, gvec};
        dlp__nn_ws_reset(ws);
        if ((st = dlp__lm_forward(m, ws, &b, NULL, err)) != DLP_OK) break;
        const float *l = m->logits + (size_t)(len - 1) * V;
        int32_t am = 0;
        for (int j = 1; j < V; j++) am = l[j] > l[am] ? j : am;
        seq[len++] = am;
        out[(*n_out)++] = am;
        if (am == stop) break;
    }
    free(seq);
    return st;
}
