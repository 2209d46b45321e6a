/*
 * lm_file.c — the language-model checkpoint: a .dlpm container
 * (dlpm/container.h) of kind "lm".
 *
 * Header (JSON): {"kind": "lm", "format": 1, "config": {...every
 * dlp__lm_config field...; "untied_head" may be absent: files from before
 * it are tied; "rope_scaling" {type "llama3", factor, low_freq_factor,
 * high_freq_factor, original_max_position_embeddings} only when set}, "base_trainable": bool, "tokenizer":
 * {"specials", "merges"} or absent, "adam": {t, lr, beta1, beta2, eps,
 * weight_decay, decoupled} or absent, "tensors": [{name, shape, offset}],
 * "n_values"}.  Payload: every tensor's float32 values at its offset
 * (n_values floats), then with "adam" the first and second moments
 * (n_values floats each, the same offsets).
 *
 * Loading rebuilds the model from the config and copies tensors BY NAME:
 * a file saved without LoRA / soft prompt / graph projection can be loaded
 * with them added (they keep their fresh init), which is how the stage-2
 * adapters are put on a pre-trained base model.  Every tensor of the file
 * must exist in the rebuilt model with the same shape.
 */
#include "lm/lm.h"

#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dlpm/container.h"
#include "dlpm/dlpm_json.h"
#include "util/util.h"

#define LM_FORMAT 1

dlp_status dlp__lm_save(const dlp__lm *m, const dlp__bpe *tok, const dlp__nn_adam *opt,
                        const char *path, dlp_error *err) {
    return dlp__lm_save_ex(m, tok, opt, NULL, path, err);
}

dlp_status dlp__lm_save_ex(const dlp__lm *m, const dlp__bpe *tok, const dlp__nn_adam *opt,
                           const char *train_json, const char *path, dlp_error *err) {
    void *buf;
    size_t n;
    dlp_status st = dlp__lm_save_mem(m, tok, opt, train_json, &buf, &n, err);
    if (st != DLP_OK) return st;
    st = dlp__write_file_atomic(path, buf, n, err);
    free(buf);
    return st;
}

dlp_status dlp__lm_save_mem(const dlp__lm *m, const dlp__bpe *tok, const dlp__nn_adam *opt,
                            const char *train_json, void **out, size_t *out_len, dlp_error *err) {
    *out = NULL;
    *out_len = 0;
    if (opt && opt->n != m->ps.total)
        return dlp__err(err, DLP_EINVAL, "lm save: optimizer of %lld values for %lld parameters",
                        (long long)opt->n, (long long)m->ps.total);
    const dlp__lm_config *c = &m->c;
    cJSON *r = cJSON_CreateObject();
    if (!r) return dlp__err(err, DLP_ENOMEM, "lm save: out of memory");
    cJSON_AddStringToObject(r, "kind", "lm");
    cJSON_AddNumberToObject(r, "format", LM_FORMAT);
    cJSON *co = cJSON_AddObjectToObject(r, "config");
    cJSON_AddNumberToObject(co, "vocab", c->vocab);
    cJSON_AddNumberToObject(co, "dim", c->dim);
    cJSON_AddNumberToObject(co, "n_layers", c->n_layers);
    cJSON_AddNumberToObject(co, "n_heads", c->n_heads);
    cJSON_AddNumberToObject(co, "n_kv_heads", c->n_kv_heads);
    cJSON_AddNumberToObject(co, "ffn", c->ffn);
    cJSON_AddNumberToObject(co, "max_seq", c->max_seq);
    cJSON_AddNumberToObject(co, "rope_theta", c->rope_theta);
    cJSON_AddNumberToObject(co, "norm_eps", c->norm_eps);
    cJSON_AddNumberToObject(co, "lora_rank", c->lora_rank);
    cJSON_AddNumberToObject(co, "lora_alpha", c->lora_alpha);
    cJSON_AddNumberToObject(co, "n_soft", c->n_soft);
    cJSON_AddNumberToObject(co, "graph_dim", c->graph_dim);
    cJSON_AddBoolToObject(co, "untied_head", c->untied_head != 0);
    if (c->rope_factor > 0) {
        cJSON *rs = cJSON_AddObjectToObject(co, "rope_scaling");
        cJSON_AddStringToObject(rs, "type", "llama3");
        cJSON_AddNumberToObject(rs, "factor", c->rope_factor);
        cJSON_AddNumberToObject(rs, "low_freq_factor", c->rope_low_freq);
        cJSON_AddNumberToObject(rs, "high_freq_factor", c->rope_high_freq);
        cJSON_AddNumberToObject(rs, "original_max_position_embeddings", c->rope_orig_max);
    }
    cJSON_AddBoolToObject(r, "base_trainable", m->ps.t[m->tok_emb].trainable);
    if (tok) {
        cJSON *tj = dlp__bpe_to_json(tok);
        if (tj) cJSON_AddItemToObject(r, "tokenizer", tj);
    }
    if (opt) {
        cJSON *ao = cJSON_AddObjectToObject(r, "adam");
        cJSON_AddNumberToObject(ao, "t", (double)opt->t);
        cJSON_AddNumberToObject(ao, "lr", opt->lr);
        cJSON_AddNumberToObject(ao, "beta1", opt->beta1);
        cJSON_AddNumberToObject(ao, "beta2", opt->beta2);
        cJSON_AddNumberToObject(ao, "eps", opt->eps);
        cJSON_AddNumberToObject(ao, "weight_decay", opt->weight_decay);
        cJSON_AddBoolToObject(ao, "decoupled", opt->decoupled);
    }
    if (train_json) {
        cJSON *tj = cJSON_Parse(train_json);
        if (!tj) {
            cJSON_Delete(r);
            return dlp__err(err, DLP_EINVAL, "lm save: the training state is not valid JSON");
        }
        cJSON_AddItemToObject(r, "train", tj);
    }
    dlp__dlpm_add_tensors(r, &m->ps);
    char *h = cJSON_PrintUnformatted(r);
    cJSON_Delete(r);
    if (!h) return dlp__err(err, DLP_ENOMEM, "lm save: out of memory");
    size_t nv = (size_t)m->ps.total, pl = nv * sizeof(float) * (opt ? 3 : 1);
    float *payload = malloc(pl ? pl : 1);
    if (!payload) {
        free(h);
        return dlp__err(err, DLP_ENOMEM, "lm save: out of memory (%zu bytes)", pl);
    }
    memcpy(payload, m->ps.data, nv * sizeof(float));
    if (opt) {
        memcpy(payload + nv, opt->m, nv * sizeof(float));
        memcpy(payload + 2 * nv, opt->v, nv * sizeof(float));
    }
    dlp_status st = dlp__dlpm_pack(h, strlen(h), payload, pl, out, out_len, err);
    free(payload);
    free(h);
    return st;
}

/* An image being loaded: its header's parts, the config it builds (with
 * the adapters `add` asks for), and which model tensors the file gave. */
typedef struct {
    const char *path;
    cJSON *root;
    const uint8_t *payload;
    uint64_t pn, nfile;         /* payload bytes; float values (per array) */
    dlp__dlpm_rd r;
    dlp__lm_config c;
    const cJSON *bt, *ts, *ao;  /* base_trainable, tensors, adam (or NULL) */
    dlp__nn_adam fa;            /* the file's Adam settings */
    int lora_added, soft_added, graph_added;
    uint8_t *got;               /* (tensors of the model) 1: read from the file */
} lm_image;

/* "kind" lm in the format this dlperf reads. */
static dlp_status read_kind(lm_image *I, dlp_error *err) {
    const char *kind = dlp__dlpm_str(&I->r, I->root, "kind");
    if (I->r.st == DLP_OK && strcmp(kind, "lm") != 0)
        return dlp__err(err, DLP_EFORMAT, "%s: not a language-model file (kind '%s')", I->path, kind);
    if (dlp__dlpm_inum(&I->r, I->root, "format", 1, 1000) != LM_FORMAT && I->r.st == DLP_OK)
        return dlp__err(err, DLP_EVERSION, "%s: lm format %d, this dlperf reads %d", I->path,
                        (int)dlp__dlpm_inum(&I->r, I->root, "format", 1, 1000), LM_FORMAT);
    return DLP_OK;
}

/* "config": every dlp__lm_config field ("untied_head" absent: tied;
 * "rope_scaling" absent: plain RoPE). */
static dlp_status read_config(lm_image *I, dlp_error *err) {
    dlp__dlpm_rd *r = &I->r;
    dlp__lm_config *c = &I->c;
    const cJSON *co = dlp__dlpm_need(r, I->root, "config", cJSON_Object);
    if (r->st != DLP_OK) return DLP_OK;   /* (r->st is returned after the other fields) */
    c->vocab = (int)dlp__dlpm_inum(r, co, "vocab", 1, 1 << 24);
    c->dim = (int)dlp__dlpm_inum(r, co, "dim", 1, 1 << 16);
    c->n_layers = (int)dlp__dlpm_inum(r, co, "n_layers", 1, 1024);
    c->n_heads = (int)dlp__dlpm_inum(r, co, "n_heads", 1, 1024);
    c->n_kv_heads = (int)dlp__dlpm_inum(r, co, "n_kv_heads", 1, 1024);
    c->ffn = (int)dlp__dlpm_inum(r, co, "ffn", 1, 1 << 20);
    c->max_seq = (int)dlp__dlpm_inum(r, co, "max_seq", 1, 1 << 20);
    c->rope_theta = (float)dlp__dlpm_num(r, co, "rope_theta");
    c->norm_eps = (float)dlp__dlpm_num(r, co, "norm_eps");
    c->lora_rank = (int)dlp__dlpm_inum(r, co, "lora_rank", 0, 4096);
    c->lora_alpha = (float)dlp__dlpm_num(r, co, "lora_alpha");
    c->n_soft = (int)dlp__dlpm_inum(r, co, "n_soft", 0, 1 << 16);
    c->graph_dim = (int)dlp__dlpm_inum(r, co, "graph_dim", 0, 1 << 20);
    const cJSON *uh = cJSON_GetObjectItemCaseSensitive(co, "untied_head");
    if (uh && !cJSON_IsBool(uh))
        return dlp__err(err, DLP_EFORMAT, "%s: lm config field 'untied_head' is not a boolean", I->path);
    c->untied_head = cJSON_IsTrue(uh);
    const cJSON *rs = cJSON_GetObjectItemCaseSensitive(co, "rope_scaling");
    if (!rs) return DLP_OK;
    const cJSON *ty = cJSON_GetObjectItemCaseSensitive(rs, "type");
    if (!cJSON_IsObject(rs) || !cJSON_IsString(ty) || strcmp(ty->valuestring, "llama3"))
        return dlp__err(err, DLP_EFORMAT, "%s: lm config field 'rope_scaling' is not a llama3 scaling", I->path);
    c->rope_factor = (float)dlp__dlpm_num(r, rs, "factor");
    c->rope_low_freq = (float)dlp__dlpm_num(r, rs, "low_freq_factor");
    c->rope_high_freq = (float)dlp__dlpm_num(r, rs, "high_freq_factor");
    c->rope_orig_max = (int)dlp__dlpm_inum(r, rs, "original_max_position_embeddings", 1, 1 << 30);
    return DLP_OK;
}

/* The size table, the Adam settings (a training checkpoint's), and a
 * payload of the values, then with Adam two moment arrays of the same size. */
static dlp_status read_layout(lm_image *I, dlp_error *err) {
    dlp__dlpm_rd *r = &I->r;
    I->bt = dlp__dlpm_need(r, I->root, "base_trainable", cJSON_True);
    I->ts = dlp__dlpm_need(r, I->root, "tensors", cJSON_Array);
    double nvf = dlp__dlpm_num(r, I->root, "n_values");
    const cJSON *ao = I->ao = cJSON_GetObjectItemCaseSensitive(I->root, "adam");
    if (r->st == DLP_OK && ao) {
        if (!cJSON_IsObject(ao)) return dlp__err(err, DLP_EFORMAT, "%s: lm header field 'adam' is not an object", I->path);
        dlp__nn_adam *fa = &I->fa;
        fa->t = dlp__dlpm_inum(r, ao, "t", 0, INT64_C(1) << 52);
        fa->lr = (float)dlp__dlpm_num(r, ao, "lr");
        fa->beta1 = (float)dlp__dlpm_num(r, ao, "beta1");
        fa->beta2 = (float)dlp__dlpm_num(r, ao, "beta2");
        fa->eps = (float)dlp__dlpm_num(r, ao, "eps");
        fa->weight_decay = (float)dlp__dlpm_num(r, ao, "weight_decay");
        fa->decoupled = cJSON_IsTrue(dlp__dlpm_need(r, ao, "decoupled", cJSON_True));
    }
    if (r->st != DLP_OK) return r->st;
    I->nfile = (uint64_t)nvf;
    if (!(nvf >= 0) || (double)I->nfile != nvf || I->pn != I->nfile * sizeof(float) * (ao ? 3u : 1u))
        return dlp__err(err, DLP_EFORMAT, "%s: payload of %llu bytes does not hold %.0f values%s", I->path,
                        (unsigned long long)I->pn, nvf, ao ? " and two Adam moments" : "");
    return DLP_OK;
}

/* The adapters `add` asks for that the file's config lacks; they keep
 * their fresh init. */
static void add_adapters(lm_image *I, const dlp__lm_config *add) {
    dlp__lm_config *c = &I->c;
    if (!add) return;
    if (add->lora_rank > 0 && c->lora_rank == 0) {
        I->lora_added = 1;
        c->lora_rank = add->lora_rank;
        c->lora_alpha = add->lora_alpha;
    }
    if (add->n_soft > 0 && c->n_soft == 0) {
        I->soft_added = 1;
        c->n_soft = add->n_soft;
    }
    if (add->graph_dim > 0 && c->graph_dim == 0) {
        I->graph_added = 1;
        c->graph_dim = add->graph_dim;
    }
}

/* The file's tensors copied into the model by name (same shape, inside
 * the payload, once each, finite); every tensor of the model must come
 * from the file except the adapters added now. */
static dlp_status copy_tensors(lm_image *I, dlp__lm *m, dlp_error *err) {
    const char *path = I->path;
    I->got = calloc((size_t)m->ps.n, 1);
    if (!I->got) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", path);
    const cJSON *t;
    int i = 0;
    cJSON_ArrayForEach(t, I->ts) {
        const char *nm = cJSON_IsObject(t) ? dlp__dlpm_str(&I->r, t, "name") : "";
        double off = cJSON_IsObject(t) ? dlp__dlpm_num(&I->r, t, "offset") : -1;
        const cJSON *sh = cJSON_IsObject(t) ? dlp__dlpm_need(&I->r, t, "shape", cJSON_Array) : NULL;
        if (I->r.st != DLP_OK) return I->r.st;
        int id = dlp__nn_params_find(&m->ps, nm);
        const dlp__nn_ptensor *pt = id >= 0 ? &m->ps.t[id] : NULL;
        int same = pt && sh && cJSON_GetArraySize(sh) == pt->ndim;
        for (int d = 0; same && d < pt->ndim; d++) {
            const cJSON *dv = cJSON_GetArrayItem(sh, d);
            same = cJSON_IsNumber(dv) && dv->valuedouble == pt->dims[d];
        }
        if (!same)
            return dlp__err(err, DLP_EFORMAT, "%s: tensor %d ('%s') has no match of that shape in the model its "
                            "config builds", path, i, nm);
        if (!(off >= 0) || off != floor(off) || off + (double)pt->numel > (double)I->nfile)
            return dlp__err(err, DLP_EFORMAT, "%s: tensor '%s' lies outside the payload", path, nm);
        if (I->got[id]++) return dlp__err(err, DLP_EFORMAT, "%s: tensor '%s' listed twice", path, nm);
        float *dst = dlp__nn_pv(&m->ps, id);
        memcpy(dst, I->payload + (size_t)off * sizeof(float), (size_t)pt->numel * sizeof(float));
        for (int64_t k = 0; k < pt->numel; k++)
            if (!isfinite(dst[k]))
                return dlp__err(err, DLP_EFORMAT, "%s: tensor '%s' value %lld is not finite", path, nm, (long long)k);
        i++;
    }
    for (int k = 0; k < m->ps.n; k++) {
        const char *nm = m->ps.t[k].name;
        int added = (I->lora_added && strstr(nm, ".lora_")) || (I->soft_added && strcmp(nm, "soft_prompt") == 0) ||
                    (I->graph_added && strncmp(nm, "graph_proj.", 11) == 0);
        if (!I->got[k] && !added)
            return dlp__err(err, DLP_EFORMAT, "%s: tensor '%s' of the model is missing from the file", path, nm);
    }
    return DLP_OK;
}

/* With opt and a file that has Adam: its settings, step and two moments
 * (the tensors were checked by copy_tensors). */
static dlp_status load_adam(const lm_image *I, const dlp__lm *m, dlp__nn_adam *opt, dlp_error *err) {
    const dlp__nn_adam *fa = &I->fa;
    if (!opt || !I->ao) return DLP_OK;
    if (dlp__nn_adam_init(opt, &m->ps, fa->lr, fa->beta1, fa->beta2, fa->eps, fa->weight_decay, fa->decoupled) !=
        DLP_OK)
        return dlp__err(err, DLP_EFORMAT, "%s: bad or unallocatable Adam settings", I->path);
    opt->t = fa->t;
    const cJSON *t;
    cJSON_ArrayForEach(t, I->ts) {
        const dlp__nn_ptensor *pt =
            &m->ps.t[dlp__nn_params_find(&m->ps, cJSON_GetObjectItem(t, "name")->valuestring)];
        size_t off = (size_t)cJSON_GetObjectItem(t, "offset")->valuedouble;
        memcpy(opt->m + pt->offset, I->payload + (I->nfile + off) * sizeof(float), (size_t)pt->numel * sizeof(float));
        memcpy(opt->v + pt->offset, I->payload + (2 * I->nfile + off) * sizeof(float),
               (size_t)pt->numel * sizeof(float));
    }
    return DLP_OK;
}

/* With tok: the file's tokenizer, no larger than the model's vocabulary. */
static dlp_status load_tokenizer(const lm_image *I, dlp__bpe *tok, dlp_error *err) {
    if (!tok) return DLP_OK;
    const cJSON *tj = cJSON_GetObjectItemCaseSensitive(I->root, "tokenizer");
    if (!cJSON_IsObject(tj)) return dlp__err(err, DLP_EFORMAT, "%s: the file has no tokenizer", I->path);
    dlp_status st = dlp__bpe_from_json(tj, I->path, tok, err);
    if (st != DLP_OK) return st;
    if (tok->vocab > I->c.vocab) {
        st = dlp__err(err, DLP_EFORMAT, "%s: tokenizer has %d tokens, the model %d", I->path, tok->vocab, I->c.vocab);
        dlp__bpe_free(tok);
    }
    return st;
}

/* The model built from the config: its tensors, Adam's state, which
 * weights train, and the tokenizer, from the file. */
static dlp_status fill_model(lm_image *I, dlp__lm *m, dlp__bpe *tok, dlp__nn_adam *opt, dlp_error *err) {
    dlp_status st = copy_tensors(I, m, err);
    if (st == DLP_OK) st = load_adam(I, m, opt, err);
    if (st != DLP_OK) return st;
    /* the file's choice, except that adapters added now freeze the base */
    dlp__lm_set_base_trainable(m, cJSON_IsTrue(I->bt) && !I->lora_added);
    return load_tokenizer(I, tok, err);
}

static dlp_status load_image(const char *path, const uint8_t *data, size_t len,
                             const dlp__lm_config *add, uint64_t seed, dlp__lm *m, dlp__bpe *tok,
                             dlp__nn_adam *opt, dlp_error *err) {
    lm_image I = {.path = path, .r = {path, "lm", err, DLP_OK}};
    dlp_status st = dlp__dlpm_open(data, len, path, &I.root, &I.payload, &I.pn, err);
    if (st != DLP_OK) return st;
    if ((st = read_kind(&I, err)) == DLP_OK && (st = read_config(&I, err)) == DLP_OK &&
        (st = read_layout(&I, err)) == DLP_OK) {
        add_adapters(&I, add);
        dlp_error be = {0};
        if ((st = dlp__lm_init(m, &I.c, seed, &be)) != DLP_OK) {
            st = dlp__err(err, st == DLP_ENOMEM ? DLP_ENOMEM : DLP_EFORMAT, "%s: %s", path, be.msg);
        } else if ((st = fill_model(&I, m, tok, opt, err)) != DLP_OK) {
            if (opt) dlp__nn_adam_free(opt);
            dlp__lm_free(m);
        }
    }
    free(I.got);
    cJSON_Delete(I.root);
    return st;
}

dlp_status dlp__lm_load(const char *path, const dlp__lm_config *add, uint64_t seed, dlp__lm *m,
                        dlp__bpe *tok, dlp__nn_adam *opt, dlp_error *err) {
    memset(m, 0, sizeof *m);
    if (tok) memset(tok, 0, sizeof *tok);
    if (opt) memset(opt, 0, sizeof *opt);
    dlp__mapped mp;
    dlp_status st = dlp__map_file(path, &mp, err);
    if (st != DLP_OK) return st;
    st = load_image(path, mp.data, mp.len, add, seed, m, tok, opt, err);
    dlp__unmap_file(&mp);
    return st;
}

dlp_status dlp__lm_load_mem(const void *buf, size_t len, const char *name, const dlp__lm_config *add,
                            uint64_t seed, dlp__lm *m, dlp__bpe *tok, dlp_error *err) {
    memset(m, 0, sizeof *m);
    if (tok) memset(tok, 0, sizeof *tok);
    return load_image(name, buf, len, add, seed, m, tok, NULL, err);
}

dlp_status dlp__lm_train_state(const char *path, char **json, dlp_error *err) {
    *json = NULL;
    dlp__mapped mp;
    dlp_status st = dlp__map_file(path, &mp, err);
    if (st != DLP_OK) return st;
    cJSON *root;
    const uint8_t *payload;
    uint64_t pn;
    st = dlp__dlpm_open(mp.data, mp.len, path, &root, &payload, &pn, err);
    if (st == DLP_OK) {
        const cJSON *tj = cJSON_GetObjectItemCaseSensitive(root, "train");
        if (cJSON_IsObject(tj) && !(*json = cJSON_PrintUnformatted(tj)))
            st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", path);
        cJSON_Delete(root);
    }
    dlp__unmap_file(&mp);
    return st;
}
