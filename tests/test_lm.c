/*
 * test_lm.c — the small language model of src/lm (docs/gnnlm.md):
 *   - finite-difference gradient checks of every piece (embedding, RMSNorm,
 *     RoPE, causal GQA attention, SwiGLU, LoRA projection with a frozen
 *     base, cross-entropy) and of the whole loss with respect to every
 *     parameter, the soft prompt, the graph projection and the graph vector;
 *   - golden values: a fixed-weight model's logits, loss and gradients
 *     against a float64 PyTorch reference (tools/golden/lm_golden.py ->
 *     tests/golden/lm.json), never from this code;
 *   - the BPE tokenizer: hand-computed merges, round trips on arbitrary
 *     bytes with and without special tokens, save/load;
 *   - a tiny model overfits a small text within a time bound; LoRA tuning
 *     leaves the base untouched; save/load gives identical logits.
 *
 * Finite differences: for y = f(x; θ) the scalar L = Σ y ⊙ R (R fixed
 * random) has dL/dy = R, so a backward with dy = R gives the analytic
 * gradient; central differences of L (accumulated in double) the numeric
 * one.  Float32 forwards limit the precision, hence the tolerances.
 */
#include "tap.h"

#include <cJSON.h>
#include <time.h>

#include "lm/lm.h"
#include "dlpm/container.h"

#ifndef FD_H
#define FD_H 1e-2f
#endif
#define FD_RTOL 2e-2
#define FD_ATOL 2e-4

static void fill(dlp__nn_rng *r, float *p, size_t n, float a) {
    for (size_t i = 0; i < n; i++) p[i] = a * (2 * dlp__nn_rng_uniform(r) - 1);
}

static double dotR(const float *y, const float *R, size_t n) {
    double s = 0;
    for (size_t i = 0; i < n; i++) s += (double)y[i] * R[i];
    return s;
}

/* analytic a vs numeric n; prints the first few misses */
static int fd_cmp(const char *what, size_t i, double a, double n, int *shown) {
    if (isfinite(a) && fabs(a - n) <= FD_RTOL * fmax(fabs(a), fabs(n)) + FD_ATOL) return 0;
    if ((*shown)++ < 5) fprintf(stderr, "  %s[%zu]: analytic %.6g numeric %.6g\n", what, i, a, n);
    return 1;
}

/* ---- piece checks ---------------------------------------------------- */

/* Generic: evaluate L(p) for a perturbed element through a callback. */
typedef double (*loss_fn)(void *ctx);

static double fd_central(float *p, float h, loss_fn f, void *ctx) {
    float o = *p;
    *p = o + h;
    double lp = f(ctx);
    *p = o - h;
    double lm = f(ctx);
    *p = o;
    return (lp - lm) / (2.0 * h);
}

/* Central differences at FD_H; an element that misses gets a second try
 * at FD_H / 4 (a sharper curvature, e.g. through two RMSNorms, needs the
 * smaller step; float32 noise the larger one). */
static int fd_vec(const char *what, float *p, const float *ga, size_t n, loss_fn f, void *ctx) {
    int bad = 0, shown = 0, quiet = 1 << 30;
    for (size_t i = 0; i < n; i++) {
        if (!fd_cmp(what, i, ga[i], fd_central(&p[i], FD_H, f, ctx), &quiet)) continue;
        bad += fd_cmp(what, i, ga[i], fd_central(&p[i], FD_H / 4, f, ctx), &shown);
    }
    return bad;
}

typedef struct {
    float *x, *w, *y, *rstd, *R;
    int n, d;
} rms_ctx;

static double rms_loss(void *v) {
    rms_ctx *c = v;
    dlp__lm_rmsnorm_forward(c->x, c->w, c->n, c->d, 1e-5f, c->y, c->rstd);
    return dotR(c->y, c->R, (size_t)c->n * c->d);
}

static void t_grad_rmsnorm(void) {
    enum { N = 5, D = 7 };
    float x[N * D], w[D], y[N * D], rstd[N], R[N * D], dx[N * D] = {0}, dw[D] = {0};
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 1);
    fill(&r, x, N * D, 1.5f);
    fill(&r, w, D, 1.0f);
    fill(&r, R, N * D, 1.0f);
    rms_ctx c = {x, w, y, rstd, R, N, D};
    rms_loss(&c);
    /* forward by hand for row 0 */
    double ss = 0;
    for (int j = 0; j < D; j++) ss += (double)x[j] * x[j];
    CHECK_NEAR(y[3], x[3] * w[3] / sqrt(ss / D + 1e-5), 1e-6);
    dlp__lm_rmsnorm_backward(x, w, rstd, R, N, D, dx, dw);
    CHECK_I64(fd_vec("x", x, dx, N * D, rms_loss, &c), 0);
    CHECK_I64(fd_vec("w", w, dw, D, rms_loss, &c), 0);
}

typedef struct {
    const float *emb;
    float *y, *R;
    const int32_t *tok;
    int n, d;
} emb_ctx;

static double emb_loss(void *v) {
    emb_ctx *c = v;
    dlp__lm_embed_forward(c->emb, c->d, c->tok, c->n, c->y);
    return dotR(c->y, c->R, (size_t)c->n * c->d);
}

static void t_grad_embedding(void) {
    enum { V = 6, D = 3, N = 5 };
    float emb[V * D], y[N * D], R[N * D], de[V * D] = {0};
    const int32_t tok[N] = {2, 0, 2, 5, 1}; /* a repeat, one row unused */
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 2);
    fill(&r, emb, V * D, 1.0f);
    fill(&r, R, N * D, 1.0f);
    emb_ctx c = {emb, y, R, tok, N, D};
    emb_loss(&c);
    CHECK(y[2 * D + 1] == emb[2 * D + 1]);
    dlp__lm_embed_backward(R, D, tok, N, de);
    CHECK_NEAR(de[2 * D], R[0] + R[2 * D], 1e-6);
    CHECK(de[3 * D] == 0 && de[4 * D + 2] == 0);
    CHECK_I64(fd_vec("emb", emb, de, V * D, emb_loss, &c), 0);
}

typedef struct {
    float *x, *y, *R, *cs, *sn;
    int B, S, nh, hd;
} rope_ctx;

static double rope_loss(void *v) {
    rope_ctx *c = v;
    size_t n = (size_t)c->B * c->S * c->nh * c->hd;
    memcpy(c->y, c->x, n * sizeof(float));
    dlp__lm_rope_forward(c->y, c->B, c->S, c->nh, c->hd, c->cs, c->sn);
    return dotR(c->y, c->R, n);
}

static void t_grad_rope(void) {
    enum { B = 2, S = 5, NH = 3, HD = 6, N = B * S * NH * HD };
    float x[N], y[N], R[N], dx[N], cs[S * HD / 2], sn[S * HD / 2];
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 3);
    fill(&r, x, N, 1.0f);
    fill(&r, R, N, 1.0f);
    dlp__lm_rope_tables(S, HD, 10000.0f, cs, sn);
    /* hand: position 2, pair i=1: angle 2 * 10000^(-2/6) */
    double ang = 2 * pow(10000.0, -2.0 / 6);
    CHECK_NEAR(cs[2 * 3 + 1], cos(ang), 1e-6);
    rope_ctx c = {x, y, R, cs, sn, B, S, NH, HD};
    rope_loss(&c);
    /* row 0 is position 0: unchanged; row S+2 of head 1: rotated by hand */
    CHECK(y[0] == x[0] && y[HD - 1] == x[HD - 1]);
    size_t o = ((size_t)(S + 2) * NH + 1) * HD;
    CHECK_NEAR(y[o + 1], x[o + 1] * cos(ang) - x[o + 4] * sin(ang), 1e-6);
    CHECK_NEAR(y[o + 4], x[o + 4] * cos(ang) + x[o + 1] * sin(ang), 1e-6);
    memcpy(dx, R, sizeof dx);
    dlp__lm_rope_backward(dx, B, S, NH, HD, cs, sn);
    CHECK_I64(fd_vec("x", x, dx, N, rope_loss, &c), 0);
}

typedef struct {
    float *q, *k, *v, *P, *out, *R;
    int B, S, H, KV, hd;
} attn_ctx;

static double attn_loss(void *vc) {
    attn_ctx *c = vc;
    dlp__lm_attn_forward(c->q, c->k, c->v, c->B, c->S, c->H, c->KV, c->hd, c->P, c->out);
    return dotR(c->out, c->R, (size_t)c->B * c->S * c->H * c->hd);
}

static void t_grad_attention(void) {
    enum { B = 2, S = 5, H = 4, KV = 2, HD = 4, NQ = B * S * H * HD, NK = B * S * KV * HD };
    float q[NQ], k[NK], v[NK], P[B * H * S * S], out[NQ], out2[NQ], R[NQ];
    float dq[NQ] = {0}, dk[NK] = {0}, dv[NK] = {0};
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 4);
    fill(&r, q, NQ, 1.5f);
    fill(&r, k, NK, 1.5f);
    fill(&r, v, NK, 1.0f);
    fill(&r, R, NQ, 1.0f);
    attn_ctx c = {q, k, v, P, out, R, B, S, H, KV, HD};
    attn_loss(&c);
    /* hand: position 0 attends only to itself, head 3 reads kv head 1 */
    for (int j = 0; j < HD; j++) CHECK_NEAR(out[3 * HD + j], v[1 * HD + j], 1e-6);
    /* the causal mask: changing the last position's k and v changes no
     * earlier output */
    memcpy(out2, out, sizeof out);
    for (int j = 0; j < KV * HD; j++) {
        k[(S - 1) * KV * HD + j] += 0.5f;
        v[(S - 1) * KV * HD + j] -= 0.7f;
    }
    attn_loss(&c);
    int same = 1, diff = 0;
    for (int i = 0; i < (S - 1) * H * HD; i++) same &= out[i] == out2[i];
    for (int i = (S - 1) * H * HD; i < S * H * HD; i++) diff |= out[i] != out2[i];
    CHECK(same && diff);
    attn_loss(&c);
    dlp__nn_ws ws = {0};
    CHECK(dlp__lm_attn_backward(q, k, v, P, R, B, S, H, KV, HD, &ws, dq, dk, dv) == DLP_OK);
    dlp__nn_ws_free(&ws);
    CHECK_I64(fd_vec("q", q, dq, NQ, attn_loss, &c), 0);
    CHECK_I64(fd_vec("k", k, dk, NK, attn_loss, &c), 0);
    CHECK_I64(fd_vec("v", v, dv, NK, attn_loss, &c), 0);
    CHECK(dlp__lm_attn_forward(q, k, v, B, S, 3, 2, HD, P, out) == DLP_EINVAL);
}

typedef struct {
    float *g, *u, *y, *R;
    int n;
} swi_ctx;

static double swi_loss(void *v) {
    swi_ctx *c = v;
    dlp__lm_swiglu_forward(c->g, c->u, c->n, c->y);
    return dotR(c->y, c->R, (size_t)c->n);
}

static void t_grad_swiglu(void) {
    enum { N = 40 };
    float g[N], u[N], y[N], R[N], dg[N] = {0}, du[N] = {0};
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 5);
    fill(&r, g, N, 4.0f);
    fill(&r, u, N, 2.0f);
    fill(&r, R, N, 1.0f);
    swi_ctx c = {g, u, y, R, N};
    swi_loss(&c);
    CHECK_NEAR(y[7], g[7] / (1 + exp(-g[7])) * u[7], 1e-6);
    dlp__lm_swiglu_backward(g, u, R, N, dg, du);
    CHECK_I64(fd_vec("g", g, dg, N, swi_loss, &c), 0);
    CHECK_I64(fd_vec("u", u, du, N, swi_loss, &c), 0);
}

typedef struct {
    dlp__lm_proj *p;
    dlp__nn_ctx *cx;
    float *x, *y, *R;
    int n;
} proj_ctx;

static double proj_loss(void *v) {
    proj_ctx *c = v;
    dlp__nn_ws_mark mk = dlp__nn_ws_get_mark(c->cx->ws);
    dlp__lm_proj_forward(c->p, c->cx, c->x, c->n, c->y);
    dlp__nn_ws_release(c->cx->ws, mk);
    return dotR(c->y, c->R, (size_t)c->n * c->p->out);
}

/* LoRA on a projection: base frozen (no W gradient, exact A/B gradients),
 * then base trainable (W gradient too); y by hand. */
static void t_grad_lora(void) {
    enum { N = 4, IN = 6, OUT = 5, RK = 2 };
    for (int frozen = 1; frozen >= 0; frozen--) {
        dlp__nn_params ps = {0};
        dlp__lm_proj p;
        CHECK(dlp__lm_proj_init(&p, &ps, "wq", IN, OUT, 0.5f, RK, 3.0f) == DLP_OK);
        CHECK(dlp__nn_params_alloc(&ps) == DLP_OK);
        dlp__nn_params_init(&ps, 9);
        ps.t[p.w].trainable = frozen ? 0 : 1;
        CHECK(p.scale == 1.5f);
        dlp__nn_rng r;
        dlp__nn_rng_seed(&r, 6);
        fill(&r, dlp__nn_pv(&ps, p.b), OUT * RK, 0.8f); /* B starts at 0: jitter it */
        float x[N * IN], y[N * OUT], R[N * OUT], dx[N * IN] = {0};
        fill(&r, x, N * IN, 1.0f);
        fill(&r, R, N * OUT, 1.0f);
        dlp__nn_ws ws = {0};
        dlp__nn_ctx cx;
        dlp__nn_ctx_init(&cx, &ps, &ws, 1, 1);
        proj_ctx c = {&p, &cx, x, y, R, N};
        proj_loss(&c);
        /* hand: y[1][2] */
        const float *W = dlp__nn_pv(&ps, p.w), *A = dlp__nn_pv(&ps, p.a), *Bm = dlp__nn_pv(&ps, p.b);
        double want = 0;
        for (int i = 0; i < IN; i++) want += (double)x[IN + i] * W[2 * IN + i];
        for (int k = 0; k < RK; k++) {
            double xa = 0;
            for (int i = 0; i < IN; i++) xa += (double)x[IN + i] * A[k * IN + i];
            want += 1.5 * Bm[2 * RK + k] * xa;
        }
        CHECK_NEAR(y[OUT + 2], want, 1e-5);
        dlp__nn_zero_grad(&ps);
        dlp__lm_proj_forward(&p, &cx, x, N, y);
        CHECK(dlp__lm_proj_backward(&p, &cx, R, dx) == DLP_OK);
        CHECK_I64(fd_vec("x", x, dx, N * IN, proj_loss, &c), 0);
        CHECK_I64(fd_vec("lora_A", dlp__nn_pv(&ps, p.a), dlp__nn_pg(&ps, p.a), RK * IN, proj_loss, &c), 0);
        CHECK_I64(fd_vec("lora_B", dlp__nn_pv(&ps, p.b), dlp__nn_pg(&ps, p.b), OUT * RK, proj_loss, &c), 0);
        if (frozen) {
            int zero = 1;
            for (int i = 0; i < OUT * IN; i++) zero &= dlp__nn_pg(&ps, p.w)[i] == 0;
            CHECK(zero);
        } else {
            CHECK_I64(fd_vec("W", dlp__nn_pv(&ps, p.w), dlp__nn_pg(&ps, p.w), OUT * IN, proj_loss, &c), 0);
        }
        dlp__nn_ws_free(&ws);
        dlp__nn_params_free(&ps);
    }
}

typedef struct {
    float *l;
    const int32_t *t;
    int n, V;
} xent_ctx;

static double xent_loss(void *v) {
    xent_ctx *c = v;
    return dlp__lm_xent(c->l, c->n, c->V, c->t, NULL, NULL);
}

static void t_grad_xent(void) {
    enum { N = 4, V = 7 };
    float l[N * V], dl[N * V];
    const int32_t t[N] = {3, -1, 0, 6};
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 7);
    fill(&r, l, N * V, 3.0f);
    int cnt;
    double loss = dlp__lm_xent(l, N, V, t, dl, &cnt);
    CHECK_I64(cnt, 3);
    double want = 0;
    for (int i = 0; i < N; i++) {
        if (t[i] < 0) continue;
        double s = 0;
        for (int j = 0; j < V; j++) s += exp(l[i * V + j]);
        want += log(s) - l[i * V + t[i]];
    }
    CHECK_NEAR(loss, want / 3, 1e-6);
    CHECK(dl[V + 2] == 0);
    xent_ctx c = {l, t, N, V};
    CHECK_I64(fd_vec("logits", l, dl, N * V, xent_loss, &c), 0);
}

/* ---- the whole model ------------------------------------------------- */

typedef struct {
    dlp__lm *m;
    dlp__nn_ws *ws;
    dlp__lm_batch *b;
} model_ctx;

static double model_loss(void *v) {
    model_ctx *c = v;
    double loss = 0;
    dlp__nn_ws_reset(c->ws);
    if (dlp__lm_forward(c->m, c->ws, c->b, &loss, NULL) != DLP_OK) return NAN;
    return loss;
}

/* Every trainable parameter, the graph vector: analytic vs numeric, on a
 * model with LoRA, a soft prompt and a graph slot, base trainable or not. */
static void t_grad_model(void) {
    /* v 0: base trainable, tied head; 1: the same with an untied head
     * ("output.weight"); 2: base frozen */
    for (int v = 0; v < 3; v++) {
        int base = v != 2;
        dlp__lm_config c = dlp__lm_config_default(DLP__BPE_FIRST_MERGE + 4, 8, 2, 2, 1, 12, 16);
        c.untied_head = v == 1;
        c.lora_rank = 2;
        c.lora_alpha = 4;
        c.n_soft = 2;
        c.graph_dim = 3;
        dlp__lm m;
        dlp_error err = {0};
        CHECK(dlp__lm_init(&m, &c, 11, &err) == DLP_OK);
        dlp__lm_set_base_trainable(&m, base);
        dlp__nn_rng r;
        dlp__nn_rng_seed(&r, 12);
        for (int i = 0; i < m.ps.n; i++) { /* every tensor away from its init */
            float *p = dlp__nn_pv(&m.ps, i);
            for (int64_t k = 0; k < m.ps.t[i].numel; k++) p[k] += 0.3f * (2 * dlp__nn_rng_uniform(&r) - 1);
        }
        enum { B = 2, T = 6 };
        int32_t tok[B * T] = {DLP__BPE_BOS, 'a', DLP__BPE_GRAPH, DLP__BPE_GSLOT, DLP__BPE_GRAPH_END, 263,
                              DLP__BPE_BOS, DLP__BPE_GRAPH, DLP__BPE_GSLOT, DLP__BPE_GRAPH_END, 'z',
                              DLP__BPE_PAD};
        int32_t tgt[B * T];
        dlp__lm_next_targets(tok, B, T, tgt);
        CHECK(tgt[2] == -1 && tgt[3] == DLP__BPE_GRAPH_END && tgt[5] == -1 && tgt[10] == -1);
        float gv[B * 3], dgv[B * 3] = {0};
        fill(&r, gv, B * 3, 1.0f);
        dlp__lm_batch b = {B, T, tok, tgt, gv};
        dlp__nn_ws ws = {0};
        model_ctx mc = {&m, &ws, &b};
        model_loss(&mc);
        dlp__nn_zero_grad(&m.ps);
        CHECK(dlp__lm_backward(&m, &ws, NULL, dgv) == DLP_OK);
        float *ga = malloc((size_t)m.ps.total * sizeof(float));
        memcpy(ga, m.ps.grad, (size_t)m.ps.total * sizeof(float));
        int bad = 0, checked = 0;
        double num2 = 0, err2 = 0;
        for (int i = 0; i < m.ps.n; i++) {
            const dlp__nn_ptensor *t = &m.ps.t[i];
            if (!t->trainable) {
                int zero = 1;
                for (int64_t k = 0; k < t->numel; k++) zero &= ga[t->offset + k] == 0;
                if (!zero) fprintf(stderr, "  frozen %s got a gradient\n", t->name);
                bad += !zero;
                continue;
            }
            /* the embedding: only the rows in use (the rest are 0) */
            int shown = 0;
            for (int64_t k = 0; k < t->numel; k++) {
                if (i == m.tok_emb && k / c.dim != 'a' && k / c.dim != 'z' && k / c.dim < 256)
                    continue;
                float *p = &m.ps.data[t->offset + k], o = *p;
                *p = o + FD_H;
                double lp = model_loss(&mc);
                *p = o - FD_H;
                double lm = model_loss(&mc);
                *p = o;
                double n = (lp - lm) / (2.0 * FD_H), a = ga[t->offset + k];
                int quiet = 1 << 30;
                if (fd_cmp(t->name, (size_t)k, a, n, &quiet)) { /* as fd_vec: a smaller step */
                    *p = o + FD_H / 4;
                    lp = model_loss(&mc);
                    *p = o - FD_H / 4;
                    lm = model_loss(&mc);
                    *p = o;
                    n = (lp - lm) / (2.0 * (FD_H / 4));
                }
                bad += fd_cmp(t->name, (size_t)k, a, n, &shown);
                num2 += n * n;
                err2 += (a - n) * (a - n);
                checked++;
            }
        }
        int shown = 0;
        for (int k = 0; k < B * 3; k++) {
            float o = gv[k];
            gv[k] = o + FD_H;
            double lp = model_loss(&mc);
            gv[k] = o - FD_H;
            double lm = model_loss(&mc);
            gv[k] = o;
            bad += fd_cmp("gvec", (size_t)k, dgv[k], (lp - lm) / (2.0 * FD_H), &shown);
        }
        CHECK_I64(bad, 0);
        CHECK(checked > 500);
        if (v == 1) { /* the untied head is what the logits use */
            CHECK(m.head >= 0 && m.ps.t[m.head].trainable);
            double hn = 0;
            for (int64_t k = 0; m.head >= 0 && k < m.ps.t[m.head].numel; k++)
                hn += fabs(ga[m.ps.t[m.head].offset + k]);
            CHECK(hn > 1e-3);
        }
        CHECK(sqrt(err2 / num2) < 1e-2); /* overall relative error */
        /* the graph vector does reach the loss */
        double gn = 0;
        for (int k = 0; k < B * 3; k++) gn += fabs(dgv[k]);
        CHECK(gn > 1e-4);
        free(ga);
        dlp__nn_ws_free(&ws);
        dlp__lm_free(&m);
    }
}

/* The regression-head path: no targets, a gradient on m->hidden instead
 * (L = Σ hidden ⊙ R over every position, soft prompt included). */
typedef struct {
    dlp__lm *m;
    dlp__nn_ws *ws;
    dlp__lm_batch *b;
    const float *R;
} hid_ctx;

static double hid_loss(void *v) {
    hid_ctx *c = v;
    dlp__nn_ws_reset(c->ws);
    if (dlp__lm_forward(c->m, c->ws, c->b, NULL, NULL) != DLP_OK) return NAN;
    return dotR(c->m->hidden, c->R, (size_t)c->b->B * c->m->S * c->m->c.dim);
}

static void t_grad_hidden(void) {
    dlp__lm_config c = dlp__lm_config_default(DLP__BPE_FIRST_MERGE + 2, 8, 1, 2, 2, 8, 8);
    c.n_soft = 1;
    c.graph_dim = 2;
    dlp__lm m;
    dlp_error err = {0};
    CHECK(dlp__lm_init(&m, &c, 13, &err) == DLP_OK);
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 14);
    for (int64_t k = 0; k < m.ps.total; k++) m.ps.data[k] += 0.3f * (2 * dlp__nn_rng_uniform(&r) - 1);
    enum { B = 2, T = 3 };
    int32_t tok[B * T] = {1, DLP__BPE_GSLOT, 2, 3, 1, DLP__BPE_GSLOT};
    float gv[B * 2] = {0.5f, -0.3f, 1.1f, 0.2f}, dgv[B * 2] = {0};
    float R[B * (T + 1) * 8];
    fill(&r, R, sizeof R / sizeof *R, 1.0f);
    dlp__lm_batch b = {B, T, tok, NULL, gv};
    dlp__nn_ws ws = {0};
    hid_ctx hc = {&m, &ws, &b, R};
    hid_loss(&hc);
    CHECK(m.dlogits == NULL);
    dlp__nn_zero_grad(&m.ps);
    CHECK(dlp__lm_backward(&m, &ws, R, dgv) == DLP_OK);
    float *ga = malloc((size_t)m.ps.total * 4);
    memcpy(ga, m.ps.grad, (size_t)m.ps.total * 4);
    int bad = 0;
    for (int i = 0; i < m.ps.n; i++) {
        if (i == m.tok_emb) continue; /* rows 1..3 only: checked below */
        bad += fd_vec(m.ps.t[i].name, dlp__nn_pv(&m.ps, i), ga + m.ps.t[i].offset, (size_t)m.ps.t[i].numel,
                      hid_loss, &hc);
    }
    bad += fd_vec("tok_emb rows 1-3", dlp__nn_pv(&m.ps, m.tok_emb) + 8, ga + m.ps.t[m.tok_emb].offset + 8, 24,
                  hid_loss, &hc);
    bad += fd_vec("gvec", gv, dgv, B * 2, hid_loss, &hc);
    CHECK_I64(bad, 0);
    free(ga);
    dlp__nn_ws_free(&ws);
    dlp__lm_free(&m);
}

/* ---- golden values (PyTorch) ----------------------------------------- */

static void rule_fill(float *p, int64_t n, const cJSON *rule) {
    double off = cJSON_GetArrayItem(rule, 0)->valuedouble, sc = cJSON_GetArrayItem(rule, 1)->valuedouble,
           ph = cJSON_GetArrayItem(rule, 2)->valuedouble;
    for (int64_t i = 0; i < n; i++) p[i] = (float)(off + sc * sin(0.713 * (double)i + ph));
}

static int cmp_arr(const char *what, const float *a, const cJSON *ref, int64_t n, double tol) {
    if (!cJSON_IsArray(ref) || cJSON_GetArraySize(ref) != n) {
        fprintf(stderr, "  %s: golden has %d values, expected %lld\n", what, cJSON_GetArraySize(ref),
                (long long)n);
        return 1;
    }
    int bad = 0, i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, ref) {
        double w = e->valuedouble;
        if (!(fabs(a[i] - w) <= tol * fmax(1.0, fabs(w)))) {
            if (bad++ < 3) fprintf(stderr, "  %s[%d]: %.8g, torch %.8g\n", what, i, a[i], w);
        }
        i++;
    }
    return bad;
}

static void t_golden_torch(void) {
    char *txt = tap_slurp("tests/golden/lm.json", NULL);
    CHECK(txt != NULL);
    if (!txt) return;
    cJSON *g = cJSON_Parse(txt);
    free(txt);
    CHECK(g != NULL);
    if (!g) return;
    const cJSON *cj = cJSON_GetObjectItem(g, "config");
#define CI(k) (int)cJSON_GetObjectItem(cj, #k)->valuedouble
    dlp__lm_config c = dlp__lm_config_default(CI(vocab), CI(dim), CI(n_layers), CI(n_heads),
                                              CI(n_kv_heads), CI(ffn), CI(max_seq));
    c.lora_rank = CI(lora_rank);
    c.n_soft = CI(n_soft);
    c.graph_dim = CI(graph_dim);
    c.lora_alpha = (float)cJSON_GetObjectItem(cj, "lora_alpha")->valuedouble;
    c.rope_theta = (float)cJSON_GetObjectItem(cj, "rope_theta")->valuedouble;
    c.norm_eps = (float)cJSON_GetObjectItem(cj, "norm_eps")->valuedouble;
#undef CI
    dlp__lm m;
    dlp_error err = {0};
    CHECK(dlp__lm_init(&m, &c, 1, &err) == DLP_OK);
    const cJSON *rules = cJSON_GetObjectItem(g, "rules");
    CHECK_I64(cJSON_GetArraySize(rules), m.ps.n);
    for (int i = 0; i < m.ps.n; i++) {
        const cJSON *rl = cJSON_GetObjectItem(rules, m.ps.t[i].name);
        CHECK(rl != NULL);
        if (rl) rule_fill(dlp__nn_pv(&m.ps, i), m.ps.t[i].numel, rl);
    }
    const cJSON *tk = cJSON_GetObjectItem(g, "tokens"), *tg = cJSON_GetObjectItem(g, "targets");
    int B = cJSON_GetArraySize(tk), T = cJSON_GetArraySize(cJSON_GetArrayItem(tk, 0));
    int32_t *tok = malloc((size_t)B * T * 4), *tgt = malloc((size_t)B * T * 4), *mine = malloc((size_t)B * T * 4);
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            tok[b * T + t] = (int32_t)cJSON_GetArrayItem(cJSON_GetArrayItem(tk, b), t)->valuedouble;
            tgt[b * T + t] = (int32_t)cJSON_GetArrayItem(cJSON_GetArrayItem(tg, b), t)->valuedouble;
        }
    dlp__lm_next_targets(tok, B, T, mine);
    CHECK(memcmp(mine, tgt, (size_t)B * T * 4) == 0);
    float *gv = malloc((size_t)B * c.graph_dim * 4), *dgv = calloc((size_t)B * c.graph_dim, 4);
    rule_fill(gv, (int64_t)B * c.graph_dim, cJSON_GetObjectItem(g, "gvec_rule"));
    dlp__lm_batch bt = {B, T, tok, tgt, gv};
    dlp__nn_ws ws = {0};
    for (int base = 0; base <= 1; base++) {
        dlp__lm_set_base_trainable(&m, base);
        dlp__nn_ws_reset(&ws);
        double loss;
        CHECK(dlp__lm_forward(&m, &ws, &bt, &loss, &err) == DLP_OK);
        CHECK_NEAR(loss, cJSON_GetObjectItem(g, "loss")->valuedouble, 2e-5);
        CHECK_I64(cmp_arr("logits", m.logits, cJSON_GetObjectItem(g, "logits"), (int64_t)B * T * c.vocab, 1e-4), 0);
        dlp__nn_zero_grad(&m.ps);
        memset(dgv, 0, (size_t)B * c.graph_dim * 4);
        CHECK(dlp__lm_backward(&m, &ws, NULL, dgv) == DLP_OK);
        const cJSON *gr = cJSON_GetObjectItem(g, "grads");
        CHECK_I64(cmp_arr("d gvec", dgv, cJSON_GetObjectItem(gr, "gvec"), (int64_t)B * c.graph_dim, 1e-4), 0);
        const cJSON *e;
        cJSON_ArrayForEach(e, gr) {
            if (!strcmp(e->string, "gvec")) continue;
            int id = dlp__nn_params_find(&m.ps, e->string);
            CHECK(id >= 0);
            if (id < 0) continue;
            if (!m.ps.t[id].trainable) continue; /* base frozen: checked when base = 1 */
            CHECK_I64(cmp_arr(e->string, dlp__nn_pg(&m.ps, id), e, m.ps.t[id].numel, 1e-4), 0);
        }
    }
    dlp__nn_ws_free(&ws);
    dlp__lm_free(&m);
    free(tok);
    free(tgt);
    free(mine);
    free(gv);
    free(dgv);
    cJSON_Delete(g);
}

/* ---- tokenizer ------------------------------------------------------- */

/* "abab abab ab": chunks "abab", " abab", " ab".  Pairs: (a,b) 5, (b,a) 2,
 * (' ',a) 2 -> merge 262 = (a,b).  Then (262,262) 2 and (' ',262) 2 tie:
 * the smaller key (32, 262) wins -> 263.  Then every pair occurs once:
 * stop at two merges. */
static void t_bpe_hand(void) {
    dlp__bpe t;
    dlp_error err = {0};
    const char *s = "abab abab ab";
    CHECK(dlp__bpe_train(&t, s, strlen(s), 10, &err) == DLP_OK);
    CHECK_I64(t.n_merges, 2);
    if (t.n_merges == 2) {
        CHECK(t.merges[0] == 'a' && t.merges[1] == 'b');
        CHECK(t.merges[2] == ' ' && t.merges[3] == 262);
    }
    CHECK_I64(t.vocab, 264);
    int32_t *ids;
    int n;
    CHECK(dlp__bpe_encode(&t, "abab ab<eos>", 12, 1, &ids, &n, &err) == DLP_OK);
    CHECK_I64(n, 4);
    if (n == 4) CHECK(ids[0] == 262 && ids[1] == 262 && ids[2] == 263 && ids[3] == DLP__BPE_EOS);
    free(ids);
    /* without specials the same text is bytes + merges */
    CHECK(dlp__bpe_encode(&t, "ab<eos>", 7, 0, &ids, &n, &err) == DLP_OK);
    CHECK_I64(n, 6);
    if (n == 6) CHECK(ids[0] == 262 && ids[1] == '<' && ids[5] == '>');
    free(ids);
    /* a merge never crosses a special token or a chunk boundary */
    CHECK(dlp__bpe_encode(&t, "a<graph>b", 9, 1, &ids, &n, &err) == DLP_OK);
    CHECK_I64(n, 3);
    if (n == 3) CHECK(ids[0] == 'a' && ids[1] == DLP__BPE_GRAPH && ids[2] == 'b');
    free(ids);
    dlp__bpe_free(&t);
    /* a run longer than 64 bytes is cut into 64-byte chunks: on 1000 'a'
     * (15 chunks of 64 + one of 40) the merges are a^2, a^4, ..., a^64
     * (6, the last from the 15 full chunks); the 40-byte chunk ends as
     * a^32 a^8, a pair seen once, so training stops; encoding gives
     * 15 x a^64 + a^32 + a^8 = 17 tokens */
    char *longrun = malloc(1000);
    memset(longrun, 'a', 1000);
    CHECK(dlp__bpe_train(&t, longrun, 1000, 20, &err) == DLP_OK);
    CHECK_I64(t.n_merges, 6);
    CHECK(dlp__bpe_encode(&t, longrun, 1000, 1, &ids, &n, &err) == DLP_OK);
    CHECK_I64(n, 17);
    if (n == 17) CHECK(ids[0] == 267 && ids[14] == 267 && ids[15] == 266 && ids[16] == 264);
    free(ids);
    free(longrun);
    CHECK_STR(dlp__bpe_special_text(DLP__BPE_GRAPH_END), "</graph>");
    CHECK_STR(dlp__bpe_special_text(DLP__BPE_PAD), "<pad>");
    CHECK(dlp__bpe_special_text(255) == NULL);
    dlp__bpe_free(&t);
}

static const char CORPUS[] =
    "<bos>The model resnet18 has 11.7 M parameters and 1.8 GFLOPs at batch 1.<eos>\n"
    "<bos>The device h100-sxm has 132 SMs, 1979 TFLOP/s fp16 and 3350 GB/s.<eos>\n"
    "<bos>On h100-sxm, resnet18 at batch 32 runs in 2.41 ms.<eos>\n"
    "<bos>The graph <graph><gslot></graph> has 69 nodes: Conv 20, Relu 17, Add 8.<eos>\n"
    "<bos>The device cpu-amd-epyc-2c has 2 cores at 2.45 GHz and 8 GB of memory.<eos>\n"
    "<bos>On cpu-amd-epyc-2c, bert at batch 8 and sequence 128 runs in 812 ms.<eos>\n";

static void t_bpe_roundtrip(void) {
    dlp__bpe t;
    dlp_error err = {0};
    CHECK(dlp__bpe_train(&t, CORPUS, sizeof CORPUS - 1, 60, &err) == DLP_OK);
    CHECK(t.n_merges > 40 && t.n_merges <= 60); /* stops when no pair occurs twice */
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 21);
    char buf[600];
    for (int trial = 0; trial < 200; trial++) {
        size_t len = dlp__nn_rng_below(&r, 500);
        for (size_t i = 0; i < len; i++) {
            uint32_t k = dlp__nn_rng_below(&r, 10);
            if (k < 3) buf[i] = (char)dlp__nn_rng_below(&r, 256);      /* any byte, NUL too */
            else if (k < 5) buf[i] = CORPUS[dlp__nn_rng_below(&r, sizeof CORPUS - 1)];
            else if (k < 6) buf[i] = ' ';
            else buf[i] = "abcde <graph></>gslot0123"[dlp__nn_rng_below(&r, 25)];
        }
        if (trial % 3 == 0 && len > 20) memcpy(buf + len / 2, "<graph><gslot></graph>", 22 <= len / 2 ? 22 : 0);
        for (int sp = 0; sp <= 1; sp++) {
            int32_t *ids;
            int n;
            char *back;
            size_t bl;
            CHECK(dlp__bpe_encode(&t, buf, len, sp, &ids, &n, &err) == DLP_OK);
            int specials_seen = 0;
            for (int i = 0; i < n; i++) specials_seen += ids[i] >= 256 && ids[i] < DLP__BPE_FIRST_MERGE;
            if (!sp) CHECK_I64(specials_seen, 0);
            CHECK(dlp__bpe_decode(&t, ids, n, &back, &bl, &err) == DLP_OK);
            CHECK(bl == len && memcmp(back, buf, len) == 0);
            free(ids);
            free(back);
        }
    }
    /* the training text compresses and its specials are single tokens */
    int32_t *ids;
    int n;
    CHECK(dlp__bpe_encode(&t, CORPUS, sizeof CORPUS - 1, 1, &ids, &n, &err) == DLP_OK);
    CHECK(n < (int)(sizeof CORPUS - 1) * 6 / 10);
    int gs = 0;
    for (int i = 0; i < n; i++) gs += ids[i] == DLP__BPE_GSLOT;
    CHECK_I64(gs, 1);
    /* save / load: same merges, same encoding */
    const char *path = "build/tests/tmp_lm_tok.dlpm";
    CHECK(dlp__bpe_save(&t, path, &err) == DLP_OK);
    dlp__bpe u;
    CHECK(dlp__bpe_load(path, &u, &err) == DLP_OK);
    CHECK_I64(u.vocab, t.vocab);
    int32_t *ids2;
    int n2;
    CHECK(dlp__bpe_encode(&u, CORPUS, sizeof CORPUS - 1, 1, &ids2, &n2, &err) == DLP_OK);
    CHECK(n2 == n && memcmp(ids, ids2, (size_t)n * 4) == 0);
    free(ids);
    free(ids2);
    int32_t badid = t.vocab;
    char *o;
    CHECK(dlp__bpe_decode(&t, &badid, 1, &o, NULL, &err) == DLP_EINVAL);
    dlp__bpe_free(&u);
    dlp__bpe_free(&t);
    remove(path);
}

/* ---- training -------------------------------------------------------- */

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* rows of T tokens from the encoded corpus (row r starts at r * T / 2) */
static int make_rows(const int32_t *ids, int n, int T, int32_t *rows, int max_rows) {
    int B = 0;
    for (int s = 0; s + T <= n && B < max_rows; s += T / 2, B++)
        memcpy(rows + (size_t)B * T, ids + s, (size_t)T * 4);
    return B;
}

void openblas_set_num_threads(int n); /* src/nn/blas_shim.c */

static double cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* The time bound is on CPU time with one BLAS thread, so other processes
 * on a shared machine cannot make it fail. */
static void t_overfit(void) {
    openblas_set_num_threads(1);
    dlp__bpe tok;
    dlp_error err = {0};
    CHECK(dlp__bpe_train(&tok, CORPUS, sizeof CORPUS - 1, 100, &err) == DLP_OK);
    int32_t *ids;
    int n;
    CHECK(dlp__bpe_encode(&tok, CORPUS, sizeof CORPUS - 1, 1, &ids, &n, &err) == DLP_OK);
    enum { T = 32, MAXB = 16 };
    int32_t rows[MAXB * T], tgt[MAXB * T];
    int B = make_rows(ids, n, T, rows, MAXB);
    CHECK(B >= 4);
    dlp__lm_next_targets(rows, B, T, tgt);
    dlp__lm_config c = dlp__lm_config_default(tok.vocab, 32, 2, 4, 2, 64, 64);
    dlp__lm m;
    CHECK(dlp__lm_init(&m, &c, 5, &err) == DLP_OK);
    dlp__nn_adam opt;
    CHECK(dlp__nn_adam_init(&opt, &m.ps, 1e-2f, 0.9f, 0.99f, 1e-8f, 0.0f, 1) == DLP_OK);
    dlp__nn_ws ws = {0};
    dlp__lm_batch b = {B, T, rows, tgt, NULL};
    double t0 = now_s(), c0 = cpu_s(), first = 0, loss = 0;
    int step;
    for (step = 0; step < 300; step++) {
        dlp__nn_ws_reset(&ws);
        CHECK(dlp__lm_forward(&m, &ws, &b, &loss, &err) == DLP_OK);
        if (step == 0) first = loss;
        if (loss < 0.1) break;
        dlp__nn_zero_grad(&m.ps);
        dlp__lm_backward(&m, &ws, NULL, NULL);
        dlp__nn_clip_grad_norm(&m.ps, 1.0);
        dlp__nn_adam_step(&opt, &m.ps);
    }
    double dt = now_s() - t0, dc = cpu_s() - c0;
    printf("# overfit: %d rows x %d tokens, %lld params, loss %.3f -> %.3f in %d steps, %.3f s (cpu %.3f s)\n",
           B, T, (long long)m.ps.total, first, loss, step, dt, dc);
    CHECK(first > 4.0);
    CHECK(loss < 0.1);
#if !defined(__SANITIZE_ADDRESS__)
    CHECK(dc < 1.0);
#endif
    /* the trained model predicts its training text: greedy next token */
    int hit = 0, cnt = 0;
    for (int i = 0; i < B * T; i++) {
        if (tgt[i] < 0) continue;
        const float *l = m.logits + (size_t)i * c.vocab;
        int am = 0;
        for (int j = 1; j < c.vocab; j++) am = l[j] > l[am] ? j : am;
        hit += am == tgt[i];
        cnt++;
    }
    CHECK(hit >= cnt * 95 / 100);
    /* and continues a training line from its first tokens, greedily */
    int32_t gen[8];
    int ng;
    CHECK(dlp__lm_generate(&m, &ws, rows + T, 12, 8, -1, NULL, gen, &ng, &err) == DLP_OK);
    CHECK_I64(ng, 8);
    int same = 0;
    for (int i = 0; i < ng; i++) same += gen[i] == rows[T + 12 + i];
    CHECK(same >= 7);
    dlp__nn_adam_free(&opt);
    dlp__nn_ws_free(&ws);
    dlp__lm_free(&m);
    free(ids);
    dlp__bpe_free(&tok);
}

/* LoRA tuning: the base stays bit-identical, the adapters move, the loss
 * falls; a fresh adapter (B = 0) leaves the base model's logits unchanged. */
static void t_lora_train(void) {
    dlp_error err = {0};
    dlp__lm_config c = dlp__lm_config_default(DLP__BPE_FIRST_MERGE + 20, 16, 2, 2, 1, 32, 32);
    dlp__lm base;
    CHECK(dlp__lm_init(&base, &c, 3, &err) == DLP_OK);
    /* a "pre-trained" embedding: the tied head of a fresh init (U(±0.035))
     * caps the logits near uniform whatever the adapters do */
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 8);
    fill(&r, dlp__nn_pv(&base.ps, base.tok_emb), (size_t)c.vocab * c.dim, 0.5f);
    c.lora_rank = 4;
    c.lora_alpha = 8;
    c.n_soft = 3;
    dlp__lm m;
    CHECK(dlp__lm_init(&m, &c, 3, &err) == DLP_OK);
    /* same base weights (by name) */
    for (int i = 0; i < base.ps.n; i++) {
        int j = dlp__nn_params_find(&m.ps, base.ps.t[i].name);
        CHECK(j >= 0);
        if (j >= 0) memcpy(dlp__nn_pv(&m.ps, j), dlp__nn_pv(&base.ps, i), (size_t)base.ps.t[i].numel * 4);
    }
    CHECK(!m.ps.t[m.tok_emb].trainable && m.ps.t[m.soft].trainable);
    enum { B = 3, T = 12 };
    int32_t tok[B * T], tgt[B * T];
    for (int i = 0; i < B * T; i++) tok[i] = (int32_t)dlp__nn_rng_below(&r, (uint32_t)c.vocab - 10);
    dlp__lm_next_targets(tok, B, T, tgt);
    dlp__lm_batch b = {B, T, tok, tgt, NULL};
    dlp__nn_ws ws = {0};
    double l0, l1, lb;
    CHECK(dlp__lm_forward(&base, &ws, &b, &lb, &err) == DLP_OK);
    float *lg = malloc((size_t)B * T * c.vocab * 4);
    memcpy(lg, base.logits, (size_t)B * T * c.vocab * 4);
    /* without the soft prompt the adapters are a no-op at init */
    dlp__lm_config c2 = c;
    c2.n_soft = 0;
    dlp__lm m2;
    CHECK(dlp__lm_init(&m2, &c2, 3, &err) == DLP_OK);
    for (int i = 0; i < base.ps.n; i++) {
        int j = dlp__nn_params_find(&m2.ps, base.ps.t[i].name);
        memcpy(dlp__nn_pv(&m2.ps, j), dlp__nn_pv(&base.ps, i), (size_t)base.ps.t[i].numel * 4);
    }
    dlp__nn_ws_reset(&ws);
    CHECK(dlp__lm_forward(&m2, &ws, &b, &l0, &err) == DLP_OK);
    int maxd = 0;
    for (int i = 0; i < B * T * c.vocab; i++) maxd |= fabsf(m2.logits[i] - lg[i]) > 1e-6f;
    CHECK(!maxd);
    dlp__lm_free(&m2);

    float *snap = malloc((size_t)m.ps.total * 4);
    memcpy(snap, m.ps.data, (size_t)m.ps.total * 4);
    dlp__nn_adam opt;
    CHECK(dlp__nn_adam_init(&opt, &m.ps, 3e-2f, 0.9f, 0.999f, 1e-8f, 0.01f, 1) == DLP_OK);
    for (int s = 0; s < 100; s++) {
        dlp__nn_ws_reset(&ws);
        dlp__lm_forward(&m, &ws, &b, s == 0 ? &l0 : &l1, &err);
        dlp__nn_zero_grad(&m.ps);
        dlp__lm_backward(&m, &ws, NULL, NULL);
        dlp__nn_adam_step(&opt, &m.ps);
    }
    CHECK(l1 < l0 - 0.5);
    int base_same = 1, lora_moved = 0;
    for (int i = 0; i < m.ps.n; i++) {
        const dlp__nn_ptensor *t = &m.ps.t[i];
        int same = memcmp(snap + t->offset, m.ps.data + t->offset, (size_t)t->numel * 4) == 0;
        if (t->trainable) lora_moved += !same;
        else base_same &= same;
    }
    CHECK(base_same);
    CHECK_I64(lora_moved, 2 * 7 * 2 + 1); /* A and B of 7 projections x 2 layers, soft prompt */
    printf("# lora: %lld of %lld parameters trainable, loss %.3f -> %.3f\n",
           (long long)dlp__nn_params_trainable(&m.ps), (long long)m.ps.total, l0, l1);
    free(snap);
    free(lg);
    dlp__nn_adam_free(&opt);
    dlp__nn_ws_free(&ws);
    dlp__lm_free(&m);
    dlp__lm_free(&base);
}

/* ---- checkpoints ----------------------------------------------------- */

static void t_save_load(void) {
    dlp_error err = {0};
    dlp__bpe tok;
    CHECK(dlp__bpe_train(&tok, CORPUS, sizeof CORPUS - 1, 40, &err) == DLP_OK);
    dlp__lm_config c = dlp__lm_config_default(tok.vocab, 16, 2, 4, 2, 24, 32);
    c.lora_rank = 2;
    c.lora_alpha = 4;
    c.n_soft = 2;
    c.graph_dim = 4;
    dlp__lm m;
    CHECK(dlp__lm_init(&m, &c, 4, &err) == DLP_OK);
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 9);
    for (int64_t i = 0; i < m.ps.total; i++) m.ps.data[i] += 0.1f * (2 * dlp__nn_rng_uniform(&r) - 1);
    int32_t *ids;
    int n;
    const char *txt = "<bos>The graph <graph><gslot></graph> has 69 nodes.";
    CHECK(dlp__bpe_encode(&tok, txt, strlen(txt), 1, &ids, &n, &err) == DLP_OK);
    float gv[4] = {0.3f, -1.2f, 0.5f, 2.0f};
    dlp__lm_batch b = {1, n, ids, NULL, gv};
    dlp__nn_ws ws = {0};
    CHECK(dlp__lm_forward(&m, &ws, &b, NULL, &err) == DLP_OK);
    size_t nl = (size_t)n * c.vocab;
    float *lg = malloc(nl * 4);
    memcpy(lg, m.logits, nl * 4);
    const char *path = "build/tests/tmp_lm.dlpm";
    CHECK(dlp__lm_save(&m, &tok, NULL, path, &err) == DLP_OK);
    dlp__lm m2;
    dlp__bpe tok2;
    CHECK(dlp__lm_load(path, NULL, 0, &m2, &tok2, NULL, &err) == DLP_OK);
    if (err.msg[0]) fprintf(stderr, "  %s\n", err.msg);
    CHECK_I64(m2.ps.total, m.ps.total);
    CHECK(!m2.ps.t[m2.tok_emb].trainable);
    CHECK(tok2.n_merges == tok.n_merges && memcmp(tok2.merges, tok.merges, (size_t)tok.n_merges * 8) == 0);
    dlp__nn_ws_reset(&ws);
    CHECK(dlp__lm_forward(&m2, &ws, &b, NULL, &err) == DLP_OK);
    CHECK(memcmp(lg, m2.logits, nl * 4) == 0);
    dlp__lm_free(&m2);
    dlp__bpe_free(&tok2);

    /* a base model saved alone, loaded with adapters added: same logits
     * as the base (fresh LoRA B = 0), base frozen */
    dlp__lm_config cb = dlp__lm_config_default(tok.vocab, 16, 2, 4, 2, 24, 32);
    dlp__lm bm;
    CHECK(dlp__lm_init(&bm, &cb, 6, &err) == DLP_OK);
    b.gvec = NULL;
    b.tokens = ids + 3; /* no <gslot> */
    b.T = 2;
    dlp__nn_ws_reset(&ws);
    CHECK(dlp__lm_forward(&bm, &ws, &b, NULL, &err) == DLP_OK);
    memcpy(lg, bm.logits, (size_t)2 * c.vocab * 4);
    CHECK(dlp__lm_save(&bm, NULL, NULL, path, &err) == DLP_OK);
    dlp__lm_config add = {0};
    add.lora_rank = 4;
    add.lora_alpha = 8;
    CHECK(dlp__lm_load(path, &add, 1, &m2, NULL, NULL, &err) == DLP_OK);
    CHECK(m2.c.lora_rank == 4 && m2.blk[1].w2.a >= 0 && !m2.ps.t[m2.tok_emb].trainable);
    dlp__nn_ws_reset(&ws);
    CHECK(dlp__lm_forward(&m2, &ws, &b, NULL, &err) == DLP_OK);
    CHECK(memcmp(lg, m2.logits, (size_t)2 * c.vocab * 4) == 0);
    dlp__lm_free(&m2);
    /* asking for the tokenizer of a file without one fails cleanly */
    dlp__bpe tk3;
    CHECK(dlp__lm_load(path, NULL, 1, &m2, &tk3, NULL, &err) == DLP_EFORMAT);
    /* a flipped byte is caught by the CRC; a tokenizer file is not an lm */
    size_t flen;
    char *img = tap_slurp(path, &flen);
    CHECK(img != NULL);
    if (img) {
        img[flen / 2] ^= 0x40;
        FILE *f = fopen(path, "wb");
        fwrite(img, 1, flen, f);
        fclose(f);
        free(img);
        CHECK(dlp__lm_load(path, NULL, 1, &m2, NULL, NULL, &err) == DLP_ECHECKSUM);
    }
    CHECK(dlp__bpe_save(&tok, path, &err) == DLP_OK);
    CHECK(dlp__lm_load(path, NULL, 1, &m2, NULL, NULL, &err) == DLP_EFORMAT);
    /* a header whose size table drops a tensor, or lists one twice, is
     * refused (the payload is intact and the CRC right) */
    for (int mode = 0; mode < 2; mode++) {
        CHECK(dlp__lm_save(&bm, NULL, NULL, path, &err) == DLP_OK);
        size_t L;
        char *im = tap_slurp(path, &L);
        const char *h;
        size_t hl;
        const uint8_t *pl;
        uint64_t pn;
        CHECK(im && dlp__dlpm_unpack(im, L, path, &h, &hl, &pl, &pn, &err) == DLP_OK);
        cJSON *root = cJSON_ParseWithLength(h, hl);
        cJSON *ts = cJSON_GetObjectItem(root, "tensors");
        if (mode == 0) cJSON_DeleteItemFromArray(ts, 1);
        else cJSON_AddItemToArray(ts, cJSON_Duplicate(cJSON_GetArrayItem(ts, 2), 1));
        char *nh = cJSON_PrintUnformatted(root);
        void *nb;
        size_t nlen;
        CHECK(dlp__dlpm_pack(nh, strlen(nh), pl, pn, &nb, &nlen, &err) == DLP_OK);
        FILE *f = fopen(path, "wb");
        fwrite(nb, 1, nlen, f);
        fclose(f);
        err.msg[0] = 0;
        CHECK(dlp__lm_load(path, NULL, 1, &m2, NULL, NULL, &err) == DLP_EFORMAT);
        CHECK(strstr(err.msg, mode == 0 ? "missing" : "twice") != NULL);
        free(nb);
        free(nh);
        cJSON_Delete(root);
        free(im);
    }
    remove(path);
    dlp__lm_free(&bm);
    dlp__nn_ws_free(&ws);
    dlp__lm_free(&m);
    dlp__bpe_free(&tok);
    free(ids);
    free(lg);
}

/* Resume: 3 AdamW steps, a checkpoint with the optimizer, 3 more steps;
 * loading the checkpoint and taking the same 3 steps gives bit-identical
 * parameters (moments and step count restored). */
static void t_resume(void) {
    dlp_error err = {0};
    dlp__lm_config c = dlp__lm_config_default(DLP__BPE_FIRST_MERGE + 30, 16, 2, 4, 2, 24, 32);
    c.n_soft = 2;
    dlp__lm m;
    CHECK(dlp__lm_init(&m, &c, 21, &err) == DLP_OK);
    enum { B = 2, T = 10 };
    int32_t tok[B * T], tgt[B * T];
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 22);
    for (int i = 0; i < B * T; i++) tok[i] = (int32_t)dlp__nn_rng_below(&r, (uint32_t)c.vocab);
    tok[3] = DLP__BPE_GSLOT; /* no graph projection: an ordinary token here */
    dlp__lm_next_targets(tok, B, T, tgt);
    dlp__lm_batch b = {B, T, tok, tgt, NULL};
    dlp__nn_adam opt;
    CHECK(dlp__nn_adam_init(&opt, &m.ps, 1e-2f, 0.9f, 0.95f, 1e-8f, 0.1f, 1) == DLP_OK);
    dlp__nn_ws ws = {0};
    const char *path = "build/tests/tmp_lm_resume.dlpm";
    for (int s = 0; s < 6; s++) {
        if (s == 3) CHECK(dlp__lm_save(&m, NULL, &opt, path, &err) == DLP_OK);
        dlp__nn_ws_reset(&ws);
        dlp__lm_forward(&m, &ws, &b, NULL, &err);
        dlp__nn_zero_grad(&m.ps);
        dlp__lm_backward(&m, &ws, NULL, NULL);
        dlp__nn_adam_step(&opt, &m.ps);
    }
    dlp__lm m2;
    dlp__nn_adam o2;
    CHECK(dlp__lm_load(path, NULL, 0, &m2, NULL, &o2, &err) == DLP_OK);
    CHECK(o2.t == 3 && o2.n == m.ps.total && o2.decoupled == 1 && o2.weight_decay == 0.1f);
    for (int s = 0; s < 3; s++) {
        dlp__nn_ws_reset(&ws);
        dlp__lm_forward(&m2, &ws, &b, NULL, &err);
        dlp__nn_zero_grad(&m2.ps);
        dlp__lm_backward(&m2, &ws, NULL, NULL);
        dlp__nn_adam_step(&o2, &m2.ps);
    }
    CHECK(memcmp(m.ps.data, m2.ps.data, (size_t)m.ps.total * 4) == 0);
    CHECK(memcmp(opt.m, o2.m, (size_t)2 * m.ps.total * 4) == 0);
    dlp__nn_adam_free(&o2);
    dlp__lm_free(&m2);
    /* a file without optimizer state leaves opt zeroed */
    CHECK(dlp__lm_save(&m, NULL, NULL, path, &err) == DLP_OK);
    CHECK(dlp__lm_load(path, NULL, 0, &m2, NULL, &o2, &err) == DLP_OK);
    CHECK(o2.n == 0 && o2.m == NULL);
    dlp__lm_free(&m2);
    remove(path);
    dlp__nn_adam_free(&opt);
    dlp__nn_ws_free(&ws);
    dlp__lm_free(&m);
}

static void t_errors(void) {
    dlp_error err = {0};
    dlp__lm m;
    dlp__lm_config c = dlp__lm_config_default(300, 10, 1, 4, 2, 8, 8); /* 10 / 4 heads */
    CHECK(dlp__lm_init(&m, &c, 1, &err) == DLP_EINVAL);
    c = dlp__lm_config_default(300, 8, 1, 2, 1, 8, 8);
    c.graph_dim = 2;
    CHECK(dlp__lm_init(&m, &c, 1, &err) == DLP_OK);
    dlp__nn_ws ws = {0};
    int32_t tok[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    dlp__lm_batch b = {1, 9, tok, NULL, NULL};
    CHECK(dlp__lm_forward(&m, &ws, &b, NULL, &err) == DLP_EINVAL); /* > max_seq */
    b.T = 3;
    tok[1] = 300;
    CHECK(dlp__lm_forward(&m, &ws, &b, NULL, &err) == DLP_EINVAL); /* outside vocab */
    tok[1] = DLP__BPE_GSLOT;
    CHECK(dlp__lm_forward(&m, &ws, &b, NULL, &err) == DLP_EINVAL); /* no graph vector */
    dlp__nn_ws_free(&ws);
    dlp__lm_free(&m);
}

int main(void) {
    RUN(t_grad_embedding);
    RUN(t_grad_rmsnorm);
    RUN(t_grad_rope);
    RUN(t_grad_attention);
    RUN(t_grad_swiglu);
    RUN(t_grad_lora);
    RUN(t_grad_xent);
    RUN(t_grad_model);
    RUN(t_grad_hidden);
    RUN(t_golden_torch);
    RUN(t_bpe_hand);
    RUN(t_bpe_roundtrip);
    RUN(t_overfit);
    RUN(t_lora_train);
    RUN(t_save_load);
    RUN(t_resume);
    RUN(t_errors);
    return TAP_DONE();
}
