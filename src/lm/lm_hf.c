/*
 * lm_hf.c — load a LLaMA-family Hugging Face checkpoint folder (config.json,
 * model.safetensors or its shards, tokenizer.json) into our model and
 * tokenizer (lm.h, docs/gnnlm.md "Loading a Hugging Face model").
 *
 * Weights: safetensors (an 8-byte little-endian header length, a JSON header
 * {name: {dtype, shape, data_offsets}}, then the raw little-endian bytes),
 * F32 / F16 / BF16 converted to float32.  Tensor names map one to one
 * (model.layers.i.self_attn.q_proj.weight -> layers.i.attention.wq.weight,
 * ...); HF's q/k rows already follow the rotate-half RoPE we use, so no
 * weight is permuted except the vocabulary rows below.
 *
 * Tokenizer: a byte-level BPE tokenizer.json.  Our token ids are fixed by
 * construction (the 256 bytes, our 6 specials, then merges in rank order),
 * so every HF token is given our id and the embedding (and lm_head) rows are
 * permuted into our order.  A merge whose parts no earlier merge (or byte)
 * produced, or whose result is not in the vocabulary, is skipped and
 * counted; so is a vocabulary token no merge reaches (its row is dropped).
 * HF's added tokens are dropped, except the ones config.json names as
 * bos / eos / pad, whose rows go to our <bos> / <eos> / <pad>.  Our other
 * specials get their seeded initial rows.
 */
#include "lm/lm.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/util.h"

#define HF_MAX_SEQ 2048                   /* cap on max_position_embeddings   */
#define HF_MAX_HEADER (UINT64_C(256) << 20)

/* ---- small helpers ---------------------------------------------------- */

static char *join(const char *dir, const char *name) {
    size_t a = strlen(dir), b = strlen(name);
    char *p = malloc(a + b + 2);
    if (!p) return NULL;
    memcpy(p, dir, a);
    size_t o = a;
    if (a && dir[a - 1] != '/') p[o++] = '/';
    memcpy(p + o, name, b + 1);
    return p;
}

static int is_file(const char *dir, const char *name) {
    char *p = join(dir, name);
    struct stat st;
    int r = p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
    free(p);
    return r;
}

static dlp_status read_json(const char *path, cJSON **out, dlp_error *err) {
    *out = NULL;
    dlp__mapped mp;
    dlp_status st = dlp__map_file(path, &mp, err);
    if (st != DLP_OK) return st;
    *out = cJSON_ParseWithLength((const char *)mp.data, mp.len);
    dlp__unmap_file(&mp);
    if (!*out || !cJSON_IsObject(*out)) {
        cJSON_Delete(*out);
        *out = NULL;
        return dlp__err(err, DLP_EFORMAT, "%s: not a JSON object", path);
    }
    return DLP_OK;
}

/* String -> int32 hash map (owned keys), open addressing. */
typedef struct {
    char **key;
    int32_t *val;
    size_t cap, n;
} smap;

static uint64_t shash(const char *s) {
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static void smap_free(smap *m) {
    for (size_t i = 0; i < m->cap; i++) free(m->key[i]);
    free(m->key);
    free(m->val);
    memset(m, 0, sizeof *m);
}

static int32_t smap_get(const smap *m, const char *s) {
    if (!m->cap) return -1;
    size_t i = shash(s) & (m->cap - 1);
    while (m->key[i]) {
        if (strcmp(m->key[i], s) == 0) return m->val[i];
        i = (i + 1) & (m->cap - 1);
    }
    return -1;
}

/* 0 inserted, 1 already there (unchanged), -1 out of memory */
static int smap_put(smap *m, const char *s, int32_t v) {
    if ((m->n + 1) * 2 > m->cap) {
        smap nm = {0};
        nm.cap = m->cap ? m->cap * 2 : 1024;
        nm.key = calloc(nm.cap, sizeof *nm.key);
        nm.val = malloc(nm.cap * sizeof *nm.val);
        if (!nm.key || !nm.val) {
            free(nm.key);
            free(nm.val);
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->key[i]) {
                size_t j = shash(m->key[i]) & (nm.cap - 1);
                while (nm.key[j]) j = (j + 1) & (nm.cap - 1);
                nm.key[j] = m->key[i];
                nm.val[j] = m->val[i];
            }
        nm.n = m->n;
        free(m->key);
        free(m->val);
        *m = nm;
    }
    size_t i = shash(s) & (m->cap - 1);
    while (m->key[i]) {
        if (strcmp(m->key[i], s) == 0) return 1;
        i = (i + 1) & (m->cap - 1);
    }
    size_t l = strlen(s);
    if (!(m->key[i] = malloc(l + 1))) return -1;
    memcpy(m->key[i], s, l + 1);
    m->val[i] = v;
    m->n++;
    return 0;
}

/* ---- config.json ------------------------------------------------------ */

typedef struct {
    char type[32];
    int hidden, layers, heads, kv, ffn, vocab, max_pos, max_seq, window;
    double eps, theta;
    double rope_factor, rope_low, rope_high;    /* llama3 scaling; factor 0: none */
    int rope_orig;
    int tie;                    /* 1 tied, 0 untied, -1 not said               */
    int bos, eos, pad;          /* HF ids or -1                                */
} hf_config;

/* An integer field: absent -> def (def < 0 with required: error). */
static int cfg_int(const char *path, const cJSON *o, const char *k, int def, int lo, int hi,
                   int *out, dlp_error *err) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    if (!v || cJSON_IsNull(v)) {
        if (def == INT32_MIN) {
            dlp__err(err, DLP_EFORMAT, "%s: field '%s' is missing", path, k);
            return -1;
        }
        *out = def;
        return 0;
    }
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) || v->valuedouble < lo ||
        v->valuedouble > hi) {
        dlp__err(err, DLP_EFORMAT, "%s: field '%s' must be an integer in [%d, %d]", path, k, lo, hi);
        return -1;
    }
    *out = (int)v->valuedouble;
    return 0;
}

static int cfg_num(const char *path, const cJSON *o, const char *k, double def, double *out,
                   dlp_error *err) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    if (!v || cJSON_IsNull(v)) {
        *out = def;
        return 0;
    }
    if (!cJSON_IsNumber(v) || !(v->valuedouble > 0) || !isfinite(v->valuedouble)) {
        dlp__err(err, DLP_EFORMAT, "%s: field '%s' must be a positive number", path, k);
        return -1;
    }
    *out = v->valuedouble;
    return 0;
}

/* A token id field that may be an integer, a list (the first counts) or null. */
static int cfg_tok(const char *path, const cJSON *o, const char *k, int *out, dlp_error *err) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    *out = -1;
    if (cJSON_IsArray(v)) v = cJSON_GetArrayItem(v, 0);
    if (!v || cJSON_IsNull(v)) return 0;
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) || v->valuedouble < 0 ||
        v->valuedouble >= (1 << 24)) {
        dlp__err(err, DLP_EFORMAT, "%s: field '%s' is not a token id", path, k);
        return -1;
    }
    *out = (int)v->valuedouble;
    return 0;
}

static dlp_status read_config(const char *dir, hf_config *c, dlp_error *err) {
    memset(c, 0, sizeof *c);
    char *path = join(dir, "config.json");
    if (!path) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", dir);
    cJSON *o;
    dlp_status st = read_json(path, &o, err);
    if (st != DLP_OK) {
        free(path);
        return st;
    }
    st = DLP_EFORMAT;
    const cJSON *mt = cJSON_GetObjectItemCaseSensitive(o, "model_type");
    const char *type = cJSON_IsString(mt) ? mt->valuestring : "(none)";
    if (strcmp(type, "llama") && strcmp(type, "mistral") && strcmp(type, "qwen2")) {
        st = dlp__err(err, DLP_EUNSUPPORTED, "%s: model_type '%s' is not supported (llama, mistral "
                      "and qwen2 are: decoder-only, RMSNorm, RoPE, SwiGLU)", path, type);
        goto out;
    }
    snprintf(c->type, sizeof c->type, "%s", type);
    const int REQ = INT32_MIN;
    if (cfg_int(path, o, "hidden_size", REQ, 2, 1 << 16, &c->hidden, err) ||
        cfg_int(path, o, "num_hidden_layers", REQ, 1, 1024, &c->layers, err) ||
        cfg_int(path, o, "num_attention_heads", REQ, 1, 1024, &c->heads, err) ||
        cfg_int(path, o, "intermediate_size", REQ, 1, 1 << 20, &c->ffn, err) ||
        cfg_int(path, o, "vocab_size", REQ, 1, 1 << 24, &c->vocab, err) ||
        cfg_int(path, o, "num_key_value_heads", c->heads, 1, 1024, &c->kv, err) ||
        cfg_int(path, o, "max_position_embeddings", 2048, 1, 1 << 24, &c->max_pos, err) ||
        cfg_num(path, o, "rms_norm_eps", 1e-6, &c->eps, err) ||
        cfg_num(path, o, "rope_theta", 10000.0, &c->theta, err) ||
        cfg_tok(path, o, "bos_token_id", &c->bos, err) ||
        cfg_tok(path, o, "eos_token_id", &c->eos, err) ||
        cfg_tok(path, o, "pad_token_id", &c->pad, err))
        goto out;
    if (c->hidden % c->heads || (c->hidden / c->heads) % 2 || c->heads % c->kv) {
        st = dlp__err(err, DLP_EUNSUPPORTED, "%s: hidden_size %d / num_attention_heads %d must give "
                      "an even head size, and the heads must be a multiple of num_key_value_heads %d",
                      path, c->hidden, c->heads, c->kv);
        goto out;
    }
    int hd;
    if (cfg_int(path, o, "head_dim", c->hidden / c->heads, 1, 1 << 16, &hd, err)) goto out;
    if (hd != c->hidden / c->heads) {
        st = dlp__err(err, DLP_EUNSUPPORTED, "%s: head_dim %d differs from hidden_size / "
                      "num_attention_heads = %d, which our model assumes", path, hd,
                      c->hidden / c->heads);
        goto out;
    }
    const cJSON *act = cJSON_GetObjectItemCaseSensitive(o, "hidden_act");
    if (act && !(cJSON_IsString(act) && strcmp(act->valuestring, "silu") == 0)) {
        st = dlp__err(err, DLP_EUNSUPPORTED, "%s: hidden_act '%s' is not supported (silu is)", path,
                      cJSON_IsString(act) ? act->valuestring : "?");
        goto out;
    }
    const char *bias[] = {"attention_bias", "mlp_bias"};
    for (int i = 0; i < 2; i++)
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, bias[i]))) {
            st = dlp__err(err, DLP_EUNSUPPORTED, "%s: %s is true; our model has no biases", path,
                          bias[i]);
            goto out;
        }
    const cJSON *rs = cJSON_GetObjectItemCaseSensitive(o, "rope_scaling");
    if (rs && !cJSON_IsNull(rs)) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(rs, "rope_type");
        if (!cJSON_IsString(t)) t = cJSON_GetObjectItemCaseSensitive(rs, "type");
        if (cJSON_IsString(t) && strcmp(t->valuestring, "llama3") == 0) {
            double lo = 0, hi = 0;
            if (cfg_num(path, rs, "factor", -1, &c->rope_factor, err) ||
                cfg_num(path, rs, "low_freq_factor", -1, &lo, err) ||
                cfg_num(path, rs, "high_freq_factor", -1, &hi, err) ||
                cfg_int(path, rs, "original_max_position_embeddings", REQ, 1, 1 << 30,
                        &c->rope_orig, err))
                goto out;
            if (!(c->rope_factor > 0) || !(lo > 0) || !(hi > lo)) {
                st = dlp__err(err, DLP_EFORMAT, "%s: rope_scaling llama3 needs factor, "
                              "low_freq_factor and high_freq_factor > low_freq_factor (all > 0)",
                              path);
                goto out;
            }
            c->rope_low = lo;
            c->rope_high = hi;
        } else if (!cJSON_IsString(t) || strcmp(t->valuestring, "default") != 0) {
            st = dlp__err(err, DLP_EUNSUPPORTED, "%s: rope_scaling of type '%s' is not implemented "
                          "(plain RoPE and llama3 are)", path,
                          cJSON_IsString(t) ? t->valuestring : "?");
            goto out;
        }
    }
    /* a sliding window (mistral) only matters past its length: cap there */
    c->window = 0;
    const cJSON *sw = cJSON_GetObjectItemCaseSensitive(o, "sliding_window");
    const cJSON *use = cJSON_GetObjectItemCaseSensitive(o, "use_sliding_window");
    int sw_on = use ? cJSON_IsTrue(use) : strcmp(type, "qwen2") != 0;
    if (sw_on && cJSON_IsNumber(sw) && sw->valuedouble >= 1) c->window = (int)sw->valuedouble;
    c->max_seq = c->max_pos < HF_MAX_SEQ ? c->max_pos : HF_MAX_SEQ;
    if (c->window && c->window < c->max_seq) c->max_seq = c->window;
    const cJSON *tie = cJSON_GetObjectItemCaseSensitive(o, "tie_word_embeddings");
    c->tie = cJSON_IsBool(tie) ? cJSON_IsTrue(tie) : -1;
    st = DLP_OK;
out:
    cJSON_Delete(o);
    free(path);
    return st;
}

/* ---- safetensors ------------------------------------------------------ */

typedef struct {
    char *path;
    dlp__mapped mp;
    int mapped;
    const uint8_t *data;        /* after the header                            */
    uint64_t data_len;
    cJSON *hdr;
} st_file;

typedef struct {
    st_file *f;
    int n;
} st_set;

static void st_close(st_set *s) {
    for (int i = 0; i < s->n; i++) {
        if (s->f[i].mapped) dlp__unmap_file(&s->f[i].mp);
        cJSON_Delete(s->f[i].hdr);
        free(s->f[i].path);
    }
    free(s->f);
    memset(s, 0, sizeof *s);
}

static uint64_t le64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* Map one file and parse its header (owns path). */
static dlp_status st_add(st_set *s, char *path, dlp_error *err) {
    st_file *nf = realloc(s->f, (size_t)(s->n + 1) * sizeof *nf);
    if (!nf) {
        free(path);
        return dlp__err(err, DLP_ENOMEM, "safetensors: out of memory");
    }
    s->f = nf;
    st_file *f = &s->f[s->n++];
    memset(f, 0, sizeof *f);
    f->path = path;
    dlp_status st = dlp__map_file(path, &f->mp, err);
    if (st != DLP_OK) return st;
    f->mapped = 1;
    if (f->mp.len < 8)
        return dlp__err(err, DLP_EFORMAT, "%s: truncated safetensors file (%zu bytes, no header "
                        "length)", path, f->mp.len);
    uint64_t hl = le64(f->mp.data);
    if (hl > f->mp.len - 8 || hl > HF_MAX_HEADER)
        return dlp__err(err, DLP_EFORMAT, "%s: safetensors header of %llu bytes does not fit the "
                        "file (%zu bytes): truncated or not safetensors", path,
                        (unsigned long long)hl, f->mp.len);
    f->hdr = cJSON_ParseWithLength((const char *)f->mp.data + 8, (size_t)hl);
    if (!f->hdr || !cJSON_IsObject(f->hdr))
        return dlp__err(err, DLP_EFORMAT, "%s: safetensors header is not a JSON object", path);
    f->data = f->mp.data + 8 + hl;
    f->data_len = f->mp.len - 8 - hl;
    return DLP_OK;
}

static dlp_status st_open(const char *dir, st_set *s, dlp_error *err) {
    memset(s, 0, sizeof *s);
    if (is_file(dir, "model.safetensors")) {
        char *p = join(dir, "model.safetensors");
        if (!p) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", dir);
        return st_add(s, p, err);
    }
    if (!is_file(dir, "model.safetensors.index.json")) {
        if (is_file(dir, "pytorch_model.bin") || is_file(dir, "pytorch_model.bin.index.json"))
            return dlp__err(err, DLP_EUNSUPPORTED, "%s: only safetensors weights are read, not "
                            "pytorch_model.bin (save the model with safe_serialization)", dir);
        return dlp__err(err, DLP_EIO, "%s: no model.safetensors or model.safetensors.index.json",
                        dir);
    }
    char *ip = join(dir, "model.safetensors.index.json");
    if (!ip) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", dir);
    cJSON *idx;
    dlp_status st = read_json(ip, &idx, err);
    if (st != DLP_OK) {
        free(ip);
        return st;
    }
    const cJSON *wm = cJSON_GetObjectItemCaseSensitive(idx, "weight_map");
    const cJSON *e;
    if (!cJSON_IsObject(wm) || !wm->child) {
        st = dlp__err(err, DLP_EFORMAT, "%s: no 'weight_map' object", ip);
        goto out;
    }
    cJSON_ArrayForEach(e, wm) {
        const char *fn = cJSON_IsString(e) ? e->valuestring : NULL;
        if (!fn || !*fn || strchr(fn, '/') || fn[0] == '.') {
            st = dlp__err(err, DLP_EFORMAT, "%s: weight_map entry '%s' is not a file name in the "
                          "folder", ip, e->string ? e->string : "?");
            goto out;
        }
        int seen = 0;
        for (int i = 0; i < s->n && !seen; i++) {
            const char *b = strrchr(s->f[i].path, '/');
            seen = strcmp(b ? b + 1 : s->f[i].path, fn) == 0;
        }
        if (seen) continue;
        char *p = join(dir, fn);
        if (!p) {
            st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", dir);
            goto out;
        }
        if ((st = st_add(s, p, err)) != DLP_OK) goto out;
    }
    st = DLP_OK;
out:
    cJSON_Delete(idx);
    free(ip);
    return st;
}

static int dtype_size(const char *dt) {
    if (!strcmp(dt, "F32")) return 4;
    if (!strcmp(dt, "F16") || !strcmp(dt, "BF16")) return 2;
    return 0;
}

static float f16_to_f32(uint16_t h) {
    int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    float v;
    if (e == 0) v = ldexpf((float)m, -24);
    else if (e == 31) v = m ? NAN : INFINITY;
    else v = ldexpf((float)(m | 1024), e - 25);
    return s ? -v : v;
}

static void convert(const uint8_t *src, int es, int bf16, size_t n, float *dst) {
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = src + i * es;
        if (es == 4) {
            uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                         (uint32_t)p[3] << 24;
            memcpy(&dst[i], &u, 4);
        } else {
            uint16_t h = (uint16_t)(p[0] | p[1] << 8);
            if (bf16) {
                uint32_t u = (uint32_t)h << 16;
                memcpy(&dst[i], &u, 4);
            } else {
                dst[i] = f16_to_f32(h);
            }
        }
    }
}

typedef struct {
    const st_file *f;
    const uint8_t *src;
    int es, bf16;
} st_view;

/* The checkpoint's tensor `name`, required to have shape (d0) or (d0, d1)
 * (d1 = 0: one dimension). */
static dlp_status st_get(const st_set *s, const char *dir, const char *name, int64_t d0,
                         int64_t d1, st_view *v, dlp_error *err) {
    const cJSON *t = NULL;
    const st_file *f = NULL;
    for (int i = 0; i < s->n && !t; i++)
        if ((t = cJSON_GetObjectItemCaseSensitive(s->f[i].hdr, name))) f = &s->f[i];
    if (!t)
        return dlp__err(err, DLP_EFORMAT, "%s: tensor '%s' is missing from the safetensors file%s",
                        s->n == 1 ? s->f[0].path : dir, name, s->n == 1 ? "" : "s");
    const cJSON *dt = cJSON_GetObjectItemCaseSensitive(t, "dtype");
    const cJSON *sh = cJSON_GetObjectItemCaseSensitive(t, "shape");
    const cJSON *of = cJSON_GetObjectItemCaseSensitive(t, "data_offsets");
    if (!cJSON_IsString(dt) || !cJSON_IsArray(sh) || !cJSON_IsArray(of) ||
        cJSON_GetArraySize(of) != 2)
        return dlp__err(err, DLP_EFORMAT, "%s: tensor '%s' lacks dtype, shape or data_offsets",
                        f->path, name);
    int es = dtype_size(dt->valuestring);
    if (!es)
        return dlp__err(err, DLP_EUNSUPPORTED, "%s: tensor '%s' has dtype %s (F32, F16 and BF16 "
                        "are read)", f->path, name, dt->valuestring);
    int nd = cJSON_GetArraySize(sh), want = d1 ? 2 : 1, same = nd == want;
    char got[96] = "";
    size_t gl = 0;
    double numel = 1;
    for (int i = 0; i < nd; i++) {
        const cJSON *x = cJSON_GetArrayItem(sh, i);
        double dv = cJSON_IsNumber(x) ? x->valuedouble : -1;
        if (!(dv >= 0) || dv != floor(dv) || dv > 1e12)
            return dlp__err(err, DLP_EFORMAT, "%s: tensor '%s' has a bad shape", f->path, name);
        numel *= dv;
        if (same && dv != (double)(i == 0 ? d0 : d1)) same = 0;
        if (gl < sizeof got - 24)
            gl += (size_t)snprintf(got + gl, sizeof got - gl, "%s%.0f", i ? ", " : "", dv);
    }
    if (!same) {
        if (d1)
            return dlp__err(err, DLP_EFORMAT, "%s: tensor '%s' has shape [%s], expected [%lld, %lld]",
                            f->path, name, got, (long long)d0, (long long)d1);
        return dlp__err(err, DLP_EFORMAT, "%s: tensor '%s' has shape [%s], expected [%lld]", f->path,
                        name, got, (long long)d0);
    }
    double b = cJSON_GetArrayItem(of, 0)->valuedouble, e = cJSON_GetArrayItem(of, 1)->valuedouble;
    if (!cJSON_IsNumber(cJSON_GetArrayItem(of, 0)) || !cJSON_IsNumber(cJSON_GetArrayItem(of, 1)) ||
        !(b >= 0) || b != floor(b) || !(e >= b) || e > (double)f->data_len ||
        e - b != numel * es)
        return dlp__err(err, DLP_EFORMAT, "%s: tensor '%s' data_offsets [%.0f, %.0f] do not hold "
                        "its %.0f values within the %llu data bytes (truncated or corrupt)", f->path,
                        name, b, e, numel, (unsigned long long)f->data_len);
    v->f = f;
    v->src = f->data + (size_t)b;
    v->es = es;
    v->bf16 = strcmp(dt->valuestring, "BF16") == 0;
    return DLP_OK;
}

static dlp_status check_finite(const st_view *v, const char *name, const float *x, size_t n,
                               dlp_error *err) {
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return dlp__err(err, DLP_EFORMAT, "%s: tensor '%s' value %zu is not finite",
                            v->f->path, name, i);
    return DLP_OK;
}

/* Every tensor of the checkpoint must be one we know (biases refused). */
static dlp_status st_check_names(const st_set *s, int layers, dlp_error *err) {
    static const char *const SUB[] = {
        "input_layernorm.weight", "post_attention_layernorm.weight", "self_attn.q_proj.weight",
        "self_attn.k_proj.weight", "self_attn.v_proj.weight", "self_attn.o_proj.weight",
        "mlp.gate_proj.weight", "mlp.up_proj.weight", "mlp.down_proj.weight",
        "self_attn.rotary_emb.inv_freq"};
    for (int i = 0; i < s->n; i++) {
        const cJSON *t;
        cJSON_ArrayForEach(t, s->f[i].hdr) {
            const char *nm = t->string ? t->string : "";
            if (!strcmp(nm, "__metadata__") || !strcmp(nm, "model.embed_tokens.weight") ||
                !strcmp(nm, "model.norm.weight") || !strcmp(nm, "lm_head.weight"))
                continue;
            size_t l = strlen(nm);
            if (l > 5 && !strcmp(nm + l - 5, ".bias"))
                return dlp__err(err, DLP_EUNSUPPORTED, "%s: tensor '%s' is a bias (as Qwen2's "
                                "attention has); our model has no biases", s->f[i].path, nm);
            int layer = -1, used = 0, ok = 0;
            if (sscanf(nm, "model.layers.%d.%n", &layer, &used) == 1 && used > 0 && layer >= 0 &&
                layer < layers)
                for (size_t k = 0; k < sizeof SUB / sizeof *SUB && !ok; k++)
                    ok = strcmp(nm + used, SUB[k]) == 0;
            if (!ok)
                return dlp__err(err, DLP_EUNSUPPORTED, "%s: tensor '%s' is not part of a %d-layer "
                                "LLaMA-family model", s->f[i].path, nm, layers);
        }
    }
    return DLP_OK;
}

/* ---- tokenizer.json --------------------------------------------------- */

/* GPT-2's byte -> code point table: printable Latin-1 bytes map to
 * themselves, the other 68 to 256, 257, ... in byte order. */
static void byte_unicode(int cp[256]) {
    int extra = 0;
    for (int b = 0; b < 256; b++) {
        int keep = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
        cp[b] = keep ? b : 256 + extra++;
    }
}

static void utf8(int cp, char *o) {
    if (cp < 0x80) {
        o[0] = (char)cp;
        o[1] = 0;
    } else {
        o[0] = (char)(0xC0 | cp >> 6);
        o[1] = (char)(0x80 | (cp & 63));
        o[2] = 0;
    }
}

/* Some object inside j (any depth) has "type": want. */
static int has_type(const cJSON *j, const char *want) {
    if (!j) return 0;
    if (cJSON_IsObject(j)) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "type");
        if (cJSON_IsString(t) && strcmp(t->valuestring, want) == 0) return 1;
    }
    const cJSON *c;
    if (cJSON_IsObject(j) || cJSON_IsArray(j))
        cJSON_ArrayForEach(c, j) if (has_type(c, want)) return 1;
    return 0;
}

/* A tokenizer.json being read: the HF vocabulary, our strings (bytes, then
 * merge results) with their ids, the pairs merged so far, and our2hf, the
 * HF id of each of our ids; the merges' counts for the report. */
typedef struct {
    const char *path;
    const hf_config *hc;
    const cJSON *root, *model, *vocab, *merges;
    dlp__bpe *tok;
    smap hf, ours, pairs;
    int32_t *our2hf;
    uint8_t *hit;             /* HF ids one of ours maps to */
    char *buf;                /* a merge's "left\0right\0leftright\0" */
    size_t bufcap;
    int n_vocab, n_merges, missing_bytes;
    int kept, unreach, notin, dup, same;
} tok_reader;

static dlp_status tok_oom(const tok_reader *R, dlp_error *err) {
    return dlp__err(err, DLP_ENOMEM, "%s: out of memory", R->path);
}

/* Only a byte-level BPE (GPT-2 style, as LLaMA-3, Qwen, Mistral-Nemo) is
 * read; SentencePiece-style BPEs and subword affixes are refused. */
static dlp_status check_bpe_kind(const tok_reader *R, dlp_error *err) {
    const cJSON *model = R->model;
    const cJSON *mty = cJSON_GetObjectItemCaseSensitive(model, "type");
    if (!cJSON_IsObject(model)) return dlp__err(err, DLP_EFORMAT, "%s: no 'model' object", R->path);
    if (cJSON_IsString(mty) && strcmp(mty->valuestring, "BPE") != 0)
        return dlp__err(err, DLP_EUNSUPPORTED, "%s: model type '%s' is not supported (byte-level BPE is)", R->path,
                        mty->valuestring);
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(model, "byte_fallback")) || has_type(R->root, "Metaspace"))
        return dlp__err(err, DLP_EUNSUPPORTED, "%s: a SentencePiece-style BPE (byte fallback, "
                        "Metaspace: LLaMA-2) is not supported; byte-level BPE is", R->path);
    const char *affix[] = {"continuing_subword_prefix", "end_of_word_suffix"};
    for (int i = 0; i < 2; i++) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(model, affix[i]);
        if (cJSON_IsString(a) && a->valuestring[0])
            return dlp__err(err, DLP_EUNSUPPORTED, "%s: %s '%s' is not supported", R->path, affix[i], a->valuestring);
    }
    if (!has_type(cJSON_GetObjectItemCaseSensitive(R->root, "pre_tokenizer"), "ByteLevel") &&
        !has_type(cJSON_GetObjectItemCaseSensitive(R->root, "decoder"), "ByteLevel"))
        return dlp__err(err, DLP_EUNSUPPORTED, "%s: not a byte-level BPE (no ByteLevel pre-tokenizer or decoder)",
                        R->path);
    if (!cJSON_IsObject(R->vocab) || !cJSON_IsArray(R->merges))
        return dlp__err(err, DLP_EFORMAT, "%s: model.vocab (object) or model.merges (list) missing", R->path);
    return DLP_OK;
}

/* The HF vocabulary (string -> id, every id inside the model's). */
static dlp_status read_vocab(tok_reader *R, dlp_error *err) {
    const cJSON *e;
    cJSON_ArrayForEach(e, R->vocab) {
        double id = cJSON_IsNumber(e) ? e->valuedouble : -1;
        if (!(id >= 0) || id != floor(id) || id >= R->hc->vocab)
            return dlp__err(err, DLP_EFORMAT, "%s: vocab token '%s' has id %g, outside the model's vocab_size %d",
                            R->path, e->string ? e->string : "?", cJSON_IsNumber(e) ? e->valuedouble : -1.0,
                            R->hc->vocab);
        int r = smap_put(&R->hf, e->string ? e->string : "", (int32_t)id);
        if (r < 0) return tok_oom(R, err);
        if (r == 0) R->n_vocab++;
    }
    return DLP_OK;
}

/* Our 256 byte tokens (GPT-2's byte -> code point strings) and our
 * specials (config's pad, bos, eos ids) mapped to HF ids. */
static dlp_status map_bytes(tok_reader *R, dlp_error *err) {
    R->n_merges = cJSON_GetArraySize(R->merges);
    R->our2hf = malloc(((size_t)DLP__BPE_FIRST_MERGE + R->n_merges) * sizeof *R->our2hf);
    R->tok->merges = malloc(((size_t)R->n_merges + 1) * 2 * sizeof(int32_t));
    R->hit = calloc((size_t)R->hc->vocab, 1);
    if (!R->our2hf || !R->tok->merges || !R->hit) return tok_oom(R, err);
    int cp[256];
    byte_unicode(cp);
    for (int b = 0; b < 256; b++) {
        char s[4];
        utf8(cp[b], s);
        R->our2hf[b] = smap_get(&R->hf, s);
        if (R->our2hf[b] < 0) R->missing_bytes++;
        else R->hit[R->our2hf[b]] = 1;
        if (smap_put(&R->ours, s, b) < 0) return tok_oom(R, err);
    }
    const hf_config *hc = R->hc;
    int sp_hf[DLP__BPE_N_SPECIAL] = {hc->pad, hc->bos, hc->eos, -1, -1, -1};
    for (int i = 0; i < DLP__BPE_N_SPECIAL; i++) {
        R->our2hf[256 + i] = sp_hf[i] >= 0 && sp_hf[i] < hc->vocab ? sp_hf[i] : -1;
        if (R->our2hf[256 + i] >= 0) R->hit[R->our2hf[256 + i]] = 1;
    }
    return DLP_OK;
}

/* Merge i's two sides ("a b" or [a, b]) into R->buf as "left\0right\0leftright\0". */
static dlp_status merge_sides(tok_reader *R, const cJSON *e, int i, char **l, char **r, char **res, dlp_error *err) {
    const char *l0, *r0;
    size_t ll, rl;
    if (cJSON_IsString(e)) {
        const char *sp = strchr(e->valuestring, ' ');
        if (!sp || strchr(sp + 1, ' ') || sp == e->valuestring || !sp[1])
            return dlp__err(err, DLP_EFORMAT, "%s: merge %d ('%s') is not two tokens 'a b'", R->path, i,
                            e->valuestring);
        l0 = e->valuestring;
        ll = (size_t)(sp - l0);
        r0 = sp + 1;
    } else if (cJSON_IsArray(e) && cJSON_GetArraySize(e) == 2 && cJSON_IsString(cJSON_GetArrayItem(e, 0)) &&
               cJSON_IsString(cJSON_GetArrayItem(e, 1))) {
        l0 = cJSON_GetArrayItem(e, 0)->valuestring;
        r0 = cJSON_GetArrayItem(e, 1)->valuestring;
        ll = strlen(l0);
    } else {
        return dlp__err(err, DLP_EFORMAT, "%s: merge %d is neither 'a b' nor [a, b]", R->path, i);
    }
    rl = strlen(r0);
    if (2 * (ll + rl) + 3 > R->bufcap) {
        size_t nc = 2 * (ll + rl) + 64;
        char *nb = realloc(R->buf, nc);
        if (!nb) return tok_oom(R, err);
        R->buf = nb;
        R->bufcap = nc;
    }
    *l = R->buf;
    *r = R->buf + ll + 1;
    *res = R->buf + ll + rl + 2;
    memcpy(*l, l0, ll);
    (*l)[ll] = 0;
    memcpy(*r, r0, rl + 1);
    memcpy(*res, l0, ll);
    memcpy(*res + ll, r0, rl + 1);
    return DLP_OK;
}

/* The merges in rank order: kept when both sides are ours, the pair is
 * new and the result is an HF token; counted by why when not. */
static dlp_status read_merges(tok_reader *R, dlp_error *err) {
    const cJSON *e;
    int i = 0;
    cJSON_ArrayForEach(e, R->merges) {
        char *l = NULL, *r = NULL, *res = NULL;
        dlp_status st = merge_sides(R, e, i, &l, &r, &res, err);
        if (st != DLP_OK) return st;
        i++;
        int32_t a = smap_get(&R->ours, l), b = smap_get(&R->ours, r);
        if (a < 0 || b < 0) {
            R->unreach++;
            continue;
        }
        char key[32];
        snprintf(key, sizeof key, "%d %d", (int)a, (int)b);
        int pr = smap_put(&R->pairs, key, 0);
        if (pr < 0) return tok_oom(R, err);
        if (pr == 1) {
            R->dup++;
            continue;
        }
        int32_t h = smap_get(&R->hf, res);
        if (h < 0) {
            R->notin++;
            continue;
        }
        int32_t id = DLP__BPE_FIRST_MERGE + R->kept;
        R->tok->merges[2 * R->kept] = a;
        R->tok->merges[2 * R->kept + 1] = b;
        R->our2hf[id] = h;
        R->hit[h] = 1;
        R->kept++;
        int rp = smap_put(&R->ours, res, id);
        if (rp < 0) return tok_oom(R, err);
        if (rp == 1) R->same++;   /* the same string again: its own id, the same row */
    }
    R->tok->n_merges = R->kept;
    return dlp__bpe_build(R->tok, err);
}

/* The report: what was kept, vocabulary tokens no merge reaches, added
 * tokens not mapped, and what our encoder does not do. */
static void tok_report(const tok_reader *R, dlp__lm_hf_info *info) {
    int dropped = 0, dropped_added = 0, n_added = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, R->vocab) if (!R->hit[(int)e->valuedouble]) dropped++;
    const cJSON *added = cJSON_GetObjectItemCaseSensitive(R->root, "added_tokens");
    cJSON_ArrayForEach(e, added) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(e, "id");
        const cJSON *ct = cJSON_GetObjectItemCaseSensitive(e, "content");
        if (!cJSON_IsNumber(id) || !cJSON_IsString(ct)) continue;
        n_added++;
        if (smap_get(&R->hf, ct->valuestring) >= 0) continue;   /* also a vocab token */
        if (!(id->valuedouble >= 0 && id->valuedouble < R->hc->vocab) || !R->hit[(int)id->valuedouble])
            dropped_added++;
    }
    if (!info) return;
    info->hf_tokens = R->n_vocab;
    info->hf_merges = R->n_merges;
    info->merges_kept = R->kept;
    info->merges_unreachable = R->unreach;
    info->merges_not_in_vocab = R->notin;
    info->merges_duplicate = R->dup;
    info->merges_same_string = R->same;
    info->tokens_dropped = dropped;
    info->added_tokens = n_added;
    info->added_dropped = dropped_added;
    info->bytes_missing = R->missing_bytes;
    info->ignore_merges = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(R->model, "ignore_merges"));
    const cJSON *nz = cJSON_GetObjectItemCaseSensitive(R->root, "normalizer");
    info->normalizer = nz && !cJSON_IsNull(nz);
}

static dlp_status read_tokenizer(const char *dir, const hf_config *hc, dlp__bpe *tok,
                                 int32_t **our2hf_out, dlp__lm_hf_info *info, dlp_error *err) {
    memset(tok, 0, sizeof *tok);
    *our2hf_out = NULL;
    if (!is_file(dir, "tokenizer.json")) {
        if (is_file(dir, "tokenizer.model"))
            return dlp__err(err, DLP_EUNSUPPORTED, "%s/tokenizer.model: SentencePiece tokenizers "
                            "(LLaMA-2) are not supported; a byte-level BPE tokenizer.json is needed",
                            dir);
        return dlp__err(err, DLP_EIO, "%s: no tokenizer.json", dir);
    }
    char *path = join(dir, "tokenizer.json");
    if (!path) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", dir);
    cJSON *root;
    dlp_status st = read_json(path, &root, err);
    if (st != DLP_OK) {
        free(path);
        return st;
    }
    tok_reader R = {.path = path, .hc = hc, .root = root, .tok = tok};
    R.model = cJSON_GetObjectItemCaseSensitive(root, "model");
    R.vocab = cJSON_GetObjectItemCaseSensitive(R.model, "vocab");
    R.merges = cJSON_GetObjectItemCaseSensitive(R.model, "merges");
    if ((st = check_bpe_kind(&R, err)) == DLP_OK && (st = read_vocab(&R, err)) == DLP_OK &&
        (st = map_bytes(&R, err)) == DLP_OK && (st = read_merges(&R, err)) == DLP_OK) {
        tok_report(&R, info);
        *our2hf_out = R.our2hf;
        R.our2hf = NULL;
    }
    if (st != DLP_OK) dlp__bpe_free(tok);
    free(R.our2hf);
    free(R.hit);
    free(R.buf);
    smap_free(&R.hf);
    smap_free(&R.ours);
    smap_free(&R.pairs);
    cJSON_Delete(root);
    free(path);
    return st;
}

/* ---- the model -------------------------------------------------------- */

/* Rows of an HF (vocab_size, D) matrix into ours by our2hf; unmapped rows
 * keep their initial values. */
static dlp_status copy_rows(const st_set *s, const char *dir, const char *name, int hf_vocab, int D,
                            const int32_t *our2hf, int V, float *dst, dlp_error *err) {
    st_view v;
    dlp_status st = st_get(s, dir, name, hf_vocab, D, &v, err);
    if (st != DLP_OK) return st;
    for (int r = 0; r < V; r++) {
        if (our2hf[r] < 0) continue;
        float *row = dst + (size_t)r * D;
        convert(v.src + (size_t)our2hf[r] * D * v.es, v.es, v.bf16, (size_t)D, row);
        if ((st = check_finite(&v, name, row, (size_t)D, err)) != DLP_OK) return st;
    }
    return DLP_OK;
}

static dlp_status copy_tensor(const st_set *s, const char *dir, const char *name,
                              const dlp__nn_params *ps, const char *ours, dlp_error *err) {
    int id = dlp__nn_params_find(ps, ours);
    if (id < 0) return dlp__err(err, DLP_EINTERNAL, "lm hf: no tensor '%s' in our model", ours);
    const dlp__nn_ptensor *pt = &ps->t[id];
    st_view v;
    dlp_status st = st_get(s, dir, name, pt->dims[0], pt->ndim == 2 ? pt->dims[1] : 0, &v, err);
    if (st != DLP_OK) return st;
    float *dst = dlp__nn_pv(ps, id);
    convert(v.src, v.es, v.bf16, (size_t)pt->numel, dst);
    return check_finite(&v, name, dst, (size_t)pt->numel, err);
}

dlp_status dlp__lm_load_hf_ex(const char *dir, const dlp__lm_config *add, uint64_t seed, dlp__lm *m,
                              dlp__bpe *tok, dlp__lm_hf_info *info, dlp_error *err) {
    memset(m, 0, sizeof *m);
    if (tok) memset(tok, 0, sizeof *tok);
    if (info) memset(info, 0, sizeof *info);
    hf_config hc;
    dlp_status st = read_config(dir, &hc, err);
    if (st != DLP_OK) return st;
    dlp__bpe bt;
    int32_t *our2hf = NULL;
    st_set s = {0};
    if ((st = read_tokenizer(dir, &hc, &bt, &our2hf, info, err)) != DLP_OK) return st;
    if ((st = st_open(dir, &s, err)) != DLP_OK || (st = st_check_names(&s, hc.layers, err)) != DLP_OK)
        goto fail;
    int has_head = 0;
    for (int i = 0; i < s.n; i++)
        has_head |= cJSON_GetObjectItemCaseSensitive(s.f[i].hdr, "lm_head.weight") != NULL;
    int tied = hc.tie >= 0 ? hc.tie : !has_head;
    dlp__lm_config c = dlp__lm_config_default(bt.vocab, hc.hidden, hc.layers, hc.heads, hc.kv,
                                              hc.ffn, hc.max_seq);
    c.rope_theta = (float)hc.theta;
    c.norm_eps = (float)hc.eps;
    c.untied_head = !tied;
    c.rope_factor = (float)hc.rope_factor;
    c.rope_low_freq = (float)hc.rope_low;
    c.rope_high_freq = (float)hc.rope_high;
    c.rope_orig_max = hc.rope_orig;
    if (add) {
        c.lora_rank = add->lora_rank;
        if (add->lora_rank > 0) c.lora_alpha = add->lora_alpha;
        c.n_soft = add->n_soft;
        c.graph_dim = add->graph_dim;
    }
    dlp_error be = {0};
    if ((st = dlp__lm_init(m, &c, seed, &be)) != DLP_OK) {
        st = dlp__err(err, st, "%s: %s", dir, be.msg);
        goto fail;
    }
    const dlp__nn_params *ps = &m->ps;
    int D = hc.hidden;
    if ((st = copy_rows(&s, dir, "model.embed_tokens.weight", hc.vocab, D, our2hf, bt.vocab,
                        dlp__nn_pv(ps, m->tok_emb), err)) != DLP_OK)
        goto fail;
    if (!tied && (st = copy_rows(&s, dir, "lm_head.weight", hc.vocab, D, our2hf, bt.vocab,
                                 dlp__nn_pv(ps, m->head), err)) != DLP_OK)
        goto fail;
    static const char *const MAP[][2] = {
        {"input_layernorm.weight", "attention_norm.weight"},
        {"post_attention_layernorm.weight", "ffn_norm.weight"},
        {"self_attn.q_proj.weight", "attention.wq.weight"},
        {"self_attn.k_proj.weight", "attention.wk.weight"},
        {"self_attn.v_proj.weight", "attention.wv.weight"},
        {"self_attn.o_proj.weight", "attention.wo.weight"},
        {"mlp.gate_proj.weight", "feed_forward.w1.weight"},
        {"mlp.up_proj.weight", "feed_forward.w3.weight"},
        {"mlp.down_proj.weight", "feed_forward.w2.weight"}};
    for (int l = 0; l < hc.layers; l++)
        for (size_t k = 0; k < sizeof MAP / sizeof *MAP; k++) {
            char hn[96], on[96];
            snprintf(hn, sizeof hn, "model.layers.%d.%s", l, MAP[k][0]);
            snprintf(on, sizeof on, "layers.%d.%s", l, MAP[k][1]);
            if ((st = copy_tensor(&s, dir, hn, ps, on, err)) != DLP_OK) goto fail;
        }
    if ((st = copy_tensor(&s, dir, "model.norm.weight", ps, "norm.weight", err)) != DLP_OK)
        goto fail;
    if (info) {
        snprintf(info->model_type, sizeof info->model_type, "%s", hc.type);
        info->hf_vocab = hc.vocab;
        info->tied = tied;
        info->max_pos = hc.max_pos;
        info->window = hc.window;
        info->n_files = s.n;
        info->our2hf = our2hf;
        our2hf = NULL;
    }
    st_close(&s);
    free(our2hf);
    if (tok) *tok = bt;
    else dlp__bpe_free(&bt);
    return DLP_OK;
fail:
    st_close(&s);
    free(our2hf);
    dlp__bpe_free(&bt);
    dlp__lm_free(m);
    if (info) {
        free(info->our2hf);
        memset(info, 0, sizeof *info);
    }
    return st;
}

dlp_status dlp__lm_load_hf(const char *dir, const dlp__lm_config *add, uint64_t seed, dlp__lm *m,
                           dlp__bpe *tok, dlp_error *err) {
    return dlp__lm_load_hf_ex(dir, add, seed, m, tok, NULL, err);
}
