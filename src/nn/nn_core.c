/*
 * nn_core.c — the plumbing under every layer: the seeded RNG, the parameter
 * store (size table + one flat allocation each for values and gradients),
 * the workspace arena for activations, and the sgemm wrapper.
 *
 * Reproducibility is a requirement (tests and model training must give the
 * same numbers from the same seed), so nothing here calls rand() and the
 * parameter init draws tensors in declaration order from one stream.
 */
#include "nn/nn.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- rng ------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void dlp__nn_rng_seed(dlp__nn_rng *r, uint64_t seed) {
    /* splitmix64 expands any seed (0 included) into a non-zero state */
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t dlp__nn_rng_u64(dlp__nn_rng *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

float dlp__nn_rng_uniform(dlp__nn_rng *r) {
    return (float)(dlp__nn_rng_u64(r) >> 40) * (1.0f / 16777216.0f);
}

float dlp__nn_rng_normal(dlp__nn_rng *r) {
    /* Box-Muller in double; u1 in (0, 1] so log never sees 0 */
    double u1 = ((double)(dlp__nn_rng_u64(r) >> 11) + 1.0) * (1.0 / 9007199254740992.0);
    double u2 = (double)(dlp__nn_rng_u64(r) >> 11) * (1.0 / 9007199254740992.0);
    return (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
}

uint32_t dlp__nn_rng_below(dlp__nn_rng *r, uint32_t n) {
    if (n <= 1) return 0;
    /* reject the top partial range so every value is equally likely */
    uint64_t lim = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do x = dlp__nn_rng_u64(r); while (x >= lim);
    return (uint32_t)(x % n);
}

/* ---- parameter store ------------------------------------------------- */

int dlp__nn_params_add(dlp__nn_params *ps, const char *prefix, const char *name,
                       int ndim, int32_t d0, int32_t d1, dlp__nn_init init,
                       float init_arg, int trainable) {
    if (ps->data || (ndim != 1 && ndim != 2) || d0 <= 0) return -1;
    if (ndim == 1) d1 = 1;
    if (d1 <= 0) return -1;
    if (ps->n == ps->cap) {
        int nc = ps->cap ? ps->cap * 2 : 16;
        dlp__nn_ptensor *t = realloc(ps->t, (size_t)nc * sizeof *t);
        if (!t) return -1;
        ps->t = t;
        ps->cap = nc;
    }
    dlp__nn_ptensor *t = &ps->t[ps->n];
    memset(t, 0, sizeof *t);
    if (prefix && *prefix)
        snprintf(t->name, sizeof t->name, "%s.%s", prefix, name);
    else
        snprintf(t->name, sizeof t->name, "%s", name);
    t->ndim = ndim;
    t->dims[0] = d0;
    t->dims[1] = d1;
    t->numel = (int64_t)d0 * d1;
    t->offset = ps->total;
    t->init = init;
    t->init_arg = init_arg;
    t->trainable = trainable ? 1 : 0;
    ps->total += t->numel;
    return ps->n++;
}

dlp_status dlp__nn_params_alloc(dlp__nn_params *ps) {
    if (ps->data) return DLP_EINVAL;
    size_t n = ps->total > 0 ? (size_t)ps->total : 1;
    ps->data = calloc(n, sizeof(float));
    ps->grad = calloc(n, sizeof(float));
    if (!ps->data || !ps->grad) {
        free(ps->data);
        free(ps->grad);
        ps->data = ps->grad = NULL;
        return DLP_ENOMEM;
    }
    return DLP_OK;
}

void dlp__nn_params_init(dlp__nn_params *ps, uint64_t seed) {
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, seed);
    for (int i = 0; i < ps->n; i++) {
        const dlp__nn_ptensor *t = &ps->t[i];
        float *p = ps->data + t->offset;
        double fan_out = t->dims[0];
        double fan_in = t->ndim == 2 ? t->dims[1] : t->dims[0];
        float bound = 0;
        switch (t->init) {
        case DLP__NN_INIT_ZEROS: bound = 0; break;
        case DLP__NN_INIT_CONST:
            for (int64_t k = 0; k < t->numel; k++) p[k] = t->init_arg;
            continue;
        case DLP__NN_INIT_UNIFORM: bound = t->init_arg; break;
        case DLP__NN_INIT_GLOROT: bound = (float)sqrt(6.0 / (fan_in + fan_out)); break;
        case DLP__NN_INIT_KAIMING: bound = (float)sqrt(6.0 / fan_in); break;
        }
        for (int64_t k = 0; k < t->numel; k++)
            p[k] = bound == 0 ? 0.0f : bound * (2.0f * dlp__nn_rng_uniform(&r) - 1.0f);
    }
}

void dlp__nn_params_free(dlp__nn_params *ps) {
    if (!ps) return;
    free(ps->t);
    free(ps->data);
    free(ps->grad);
    memset(ps, 0, sizeof *ps);
}

int dlp__nn_params_find(const dlp__nn_params *ps, const char *name) {
    for (int i = 0; i < ps->n; i++)
        if (strcmp(ps->t[i].name, name) == 0) return i;
    return -1;
}

int64_t dlp__nn_params_trainable(const dlp__nn_params *ps) {
    int64_t n = 0;
    for (int i = 0; i < ps->n; i++)
        if (ps->t[i].trainable) n += ps->t[i].numel;
    return n;
}

void dlp__nn_zero_grad(dlp__nn_params *ps) {
    if (ps->grad) memset(ps->grad, 0, (size_t)ps->total * sizeof(float));
}

/* ---- workspace ------------------------------------------------------- */

struct dlp__nn_ws_block {
    dlp__nn_ws_block *next;
    size_t used, cap;
    unsigned char *data;        /* 64-byte aligned, cap bytes */
};

#define WS_ALIGN 64
#define WS_MIN_BLOCK ((size_t)1 << 20)

static dlp__nn_ws_block *ws_block_new(size_t cap) {
    dlp__nn_ws_block *b = malloc(sizeof *b);
    if (!b) return NULL;
    cap = (cap + WS_ALIGN - 1) & ~(size_t)(WS_ALIGN - 1);
    b->data = aligned_alloc(WS_ALIGN, cap);
    if (!b->data) {
        free(b);
        return NULL;
    }
    b->used = 0;
    b->cap = cap;
    b->next = NULL;
    return b;
}

void *dlp__nn_ws_alloc(dlp__nn_ws *ws, size_t bytes) {
    size_t size = (bytes + WS_ALIGN - 1) & ~(size_t)(WS_ALIGN - 1);
    if (size == 0) size = WS_ALIGN;
    if (size < bytes) return NULL;  /* overflow */
    dlp__nn_ws_block *b = ws->head;
    if (!b || b->cap - b->used < size) {
        size_t cap = b ? b->cap * 2 : WS_MIN_BLOCK;
        if (cap < size) cap = size;
        dlp__nn_ws_block *nb = ws_block_new(cap);
        if (!nb) return NULL;
        nb->next = b;
        ws->head = b = nb;
    }
    void *p = b->data + b->used;
    b->used += size;
    ws->used += size;
    if (ws->used > ws->peak) ws->peak = ws->used;
    return p;
}

float *dlp__nn_ws_floats(dlp__nn_ws *ws, size_t n) {
    if (n > SIZE_MAX / sizeof(float)) return NULL;
    return dlp__nn_ws_alloc(ws, n * sizeof(float));
}

float *dlp__nn_ws_zeros(dlp__nn_ws *ws, size_t n) {
    float *p = dlp__nn_ws_floats(ws, n);
    if (p && n) memset(p, 0, n * sizeof(float));
    return p;
}

int32_t *dlp__nn_ws_ints(dlp__nn_ws *ws, size_t n) {
    if (n > SIZE_MAX / sizeof(int32_t)) return NULL;
    return dlp__nn_ws_alloc(ws, n * sizeof(int32_t));
}

static void ws_free_chain(dlp__nn_ws_block *b) {
    while (b) {
        dlp__nn_ws_block *n = b->next;
        free(b->data);
        free(b);
        b = n;
    }
}

void dlp__nn_ws_reset(dlp__nn_ws *ws) {
    dlp__nn_ws_block *b = ws->head;
    if (b && b->next) {
        /* several blocks: replace them by one that holds the peak, so the
         * steady state is a single block and no malloc per step */
        ws_free_chain(b);
        ws->head = ws_block_new(ws->peak);
        /* on OOM head is NULL and the next alloc simply tries again */
    } else if (b) {
        b->used = 0;
    }
    ws->used = 0;
}

dlp__nn_ws_mark dlp__nn_ws_get_mark(const dlp__nn_ws *ws) {
    dlp__nn_ws_mark m = {ws->head, ws->head ? ws->head->used : 0, ws->used};
    return m;
}

void dlp__nn_ws_release(dlp__nn_ws *ws, dlp__nn_ws_mark mark) {
    /* blocks opened after the mark are dropped; the peak already counts
     * them, so the next reset still coalesces to a block that fits */
    while (ws->head && ws->head != mark.block) {
        dlp__nn_ws_block *b = ws->head;
        ws->head = b->next;
        free(b->data);
        free(b);
    }
    if (ws->head) ws->head->used = mark.block_used;
    ws->used = mark.used;
}

void dlp__nn_ws_free(dlp__nn_ws *ws) {
    if (!ws) return;
    ws_free_chain(ws->head);
    memset(ws, 0, sizeof *ws);
}

void dlp__nn_ctx_init(dlp__nn_ctx *cx, dlp__nn_params *ps, dlp__nn_ws *ws,
                      uint64_t seed, int training) {
    cx->ps = ps;
    cx->ws = ws;
    cx->training = training;
    dlp__nn_rng_seed(&cx->rng, seed);
}

/* ---- dense ----------------------------------------------------------- */

void dlp__nn_gemm(int ta, int tb, int m, int n, int k, float alpha,
                  const float *A, int lda, const float *B, int ldb, float beta,
                  float *C, int ldc) {
    if (m <= 0 || n <= 0) return;
    if (k <= 0) {
        /* empty inner product: C = beta C (BLAS may not accept k = 0) */
        for (int i = 0; i < m; i++) {
            float *c = C + (size_t)i * ldc;
            for (int j = 0; j < n; j++) c[j] = beta == 0 ? 0.0f : beta * c[j];
        }
        return;
    }
    cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans,
                tb ? CblasTrans : CblasNoTrans, m, n, k, alpha, A, lda, B, ldb,
                beta, C, ldc);
}
