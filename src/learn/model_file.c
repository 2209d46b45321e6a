/*
 * model_file.c — the .dlpm file of a GNN predictor (docs/gnn.md).
 *
 * The shared DLPM container (container.h: magic, version, JSON header,
 * payload, CRC-32) holds
 *   header   {"kind": "gnn", "gnn_format": 1, the recipe (arch, widths,
 *            dropout, readout, loss, optimiser settings, seed), the input
 *            contract (layout name/id/version, n_feat, static-feature names
 *            with the log1p mean/std of each), the targets with their
 *            scaling, provenance (training-data fingerprint, sample counts,
 *            epochs, best validation MAPE, split) and the nn size table
 *            (name, shape, offset of every tensor); TraPPM models add
 *            "encoder": the frozen encoder's recipe (method, n_feat, hidden,
 *            layers, dropout, layout, layout_version) and the per-column
 *            mean/std of its pooled embedding; its tensors ("encoder.*")
 *            are in the size table and payload like every other}
 *   payload  the flat float32 parameter array, in size-table order.
 * Loading rebuilds the layers from the recipe, then requires the rebuilt
 * size table to equal the stored one tensor by tensor, so a file can never
 * be read into a differently shaped network.  Doubles go through cJSON,
 * which prints 17 significant digits when 15 do not round-trip, so the
 * scalings (and therefore predictions) survive a save/load bit for bit.
 */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlpm/container.h"
#include "dlpm/dlpm_json.h"
#include "learn/gnn_internal.h"
#include "util/util.h"

/* ---- save ------------------------------------------------------------------ */

static cJSON *num_array(const double *v, int n) {
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; a && i < n; i++) cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

static char *header_json(const dlp_gnn *m, size_t lm_bytes) {
    const dlp_gnn_info *h = &m->info;
    cJSON *r = cJSON_CreateObject();
    if (!r) return NULL;
    cJSON_AddStringToObject(r, "kind", "gnn");
    cJSON_AddNumberToObject(r, "gnn_format", DLP__GNN_FORMAT);
    cJSON_AddStringToObject(r, "dlperf", DLP_VERSION_STRING);
    cJSON_AddStringToObject(r, "arch", dlp_gnn_arch_name(h->arch));
    cJSON_AddNumberToObject(r, "hidden", h->hidden);
    cJSON_AddNumberToObject(r, "layers", h->layers);
    cJSON_AddNumberToObject(r, "block_depth", h->block_depth);
    cJSON_AddNumberToObject(r, "fc_layers", h->fc_layers);
    cJSON_AddNumberToObject(r, "dropout", h->dropout);
    cJSON_AddStringToObject(r, "readout", dlp_gnn_readout_name(h->readout));
    cJSON_AddNumberToObject(r, "readout_scale", m->ro_scale);
    cJSON_AddNumberToObject(r, "gat_heads", h->gat_heads);
    cJSON_AddBoolToObject(r, "sage_normalize", h->sage_normalize);
    cJSON *tr = cJSON_AddObjectToObject(r, "training");
    cJSON_AddStringToObject(tr, "loss", dlp_gnn_loss_name(h->loss));
    cJSON_AddNumberToObject(tr, "huber_delta", h->huber_delta);
    cJSON_AddStringToObject(tr, "optimizer", h->adamw ? "adamw" : "adam");
    cJSON_AddNumberToObject(tr, "lr", h->lr);
    cJSON_AddStringToObject(tr, "lr_schedule", h->lr_schedule == DLP_GNN_LR_COSINE ? "cosine" : "const");
    cJSON_AddNumberToObject(tr, "weight_decay", h->weight_decay);
    cJSON_AddNumberToObject(tr, "clip", h->clip);
    cJSON_AddNumberToObject(tr, "batch_size", h->batch_size);
    cJSON_AddNumberToObject(tr, "epochs", h->epochs);
    cJSON_AddNumberToObject(tr, "epochs_run", h->epochs_run);
    cJSON_AddNumberToObject(tr, "best_epoch", h->best_epoch);
    dlp__dlpm_add_hex(tr, "seed", h->seed);
    dlp__dlpm_add_hex(tr, "data_fingerprint", h->data_fingerprint);
    cJSON_AddNumberToObject(tr, "n_train", (double)h->n_train);
    cJSON_AddNumberToObject(tr, "n_val", (double)h->n_val);
    dlp__dlpm_add_num_or_null(tr, "best_val_mape", h->best_val_mape);
    cJSON_AddNumberToObject(tr, "seconds", h->train_seconds);
    cJSON_AddStringToObject(tr, "split", m->split);
    cJSON *in = cJSON_AddObjectToObject(r, "input");
    cJSON_AddStringToObject(in, "layout", dlp_layout_name(m->layout));
    cJSON_AddNumberToObject(in, "layout_id", m->layout);
    cJSON_AddNumberToObject(in, "layout_version", m->layout_version);
    cJSON_AddNumberToObject(in, "n_feat", m->n_feat);
    cJSON *sfn = cJSON_AddArrayToObject(in, "static_features");
    for (int j = 0; j < m->n_static; j++)
        cJSON_AddItemToArray(sfn, cJSON_CreateString(dlp_static_name(m->sf[j])));
    cJSON_AddItemToObject(in, "static_log1p_mean", num_array(m->sf_mean, m->n_static));
    cJSON_AddItemToObject(in, "static_log1p_std", num_array(m->sf_std, m->n_static));
    cJSON *out = cJSON_AddObjectToObject(r, "output");
    cJSON *tn = cJSON_AddArrayToObject(out, "targets");
    for (int k = 0; k < m->n_targets; k++) cJSON_AddItemToArray(tn, cJSON_CreateString(m->target[k]));
    cJSON_AddStringToObject(out, "scale", dlp_gnn_scale_name(h->target_scale));
    cJSON_AddItemToObject(out, "mean", num_array(m->t_mean, m->n_targets));
    cJSON_AddItemToObject(out, "std", num_array(m->t_std, m->n_targets));
    if (m->has_enc) {
        const dlp__enc_recipe *er = &m->enc.r;
        cJSON *en = cJSON_AddObjectToObject(r, "encoder");
        cJSON_AddStringToObject(en, "method", dlp_pretrain_method_name(er->method));
        cJSON_AddNumberToObject(en, "n_feat", er->n_feat);
        cJSON_AddNumberToObject(en, "hidden", er->hidden);
        cJSON_AddNumberToObject(en, "layers", er->layers);
        cJSON_AddNumberToObject(en, "dropout", er->dropout);
        cJSON_AddStringToObject(en, "layout", dlp_layout_name(er->layout));
        cJSON_AddNumberToObject(en, "layout_id", er->layout);
        cJSON_AddNumberToObject(en, "layout_version", er->layout_version);
        cJSON_AddItemToObject(en, "embedding_mean", num_array(m->u_mean, m->enc_dim));
        cJSON_AddItemToObject(en, "embedding_std", num_array(m->u_std, m->enc_dim));
    }
    if (m->ops && m->ops->header) m->ops->header(m, r, lm_bytes);
    dlp__dlpm_add_tensors(r, &m->ps);
    char *s = cJSON_PrintUnformatted(r);
    cJSON_Delete(r);
    return s;
}

dlp_status dlp_gnn_save_mem(const dlp_gnn *m, void **buf, size_t *len, dlp_error *err) {
    *buf = NULL;
    *len = 0;
    if (!m) return dlp__err(err, DLP_EINVAL, "gnn save: no model");
    /* a gnnlm model appends its language model's own image to the floats */
    void *lm = NULL;
    size_t lm_n = 0;
    if (m->ops && m->ops->tail_image) {
        dlp_status st = m->ops->tail_image(m, &lm, &lm_n, err);
        if (st != DLP_OK) return st;
    }
    char *h = header_json(m, lm_n);
    size_t fb = (size_t)m->ps.total * sizeof(float);
    uint8_t *pl = lm ? malloc(fb + lm_n) : (uint8_t *)m->ps.data;
    if (!h || !pl) {
        free(h);
        free(lm);
        if (lm) free(pl);
        return dlp__err(err, DLP_ENOMEM, "gnn save: out of memory");
    }
    if (lm) {
        memcpy(pl, m->ps.data, fb);
        memcpy(pl + fb, lm, lm_n);
    }
    dlp_status st = dlp__dlpm_pack(h, strlen(h), pl, (uint64_t)(fb + lm_n), buf, len, err);
    free(h);
    if (lm) {
        free(lm);
        free(pl);
    }
    return st;
}

dlp_status dlp_gnn_save(const dlp_gnn *m, const char *path, dlp_error *err) {
    void *b;
    size_t n;
    dlp_status st = dlp_gnn_save_mem(m, &b, &n, err);
    if (st != DLP_OK) return st;
    st = dlp__write_file_atomic(path, b, n, err);
    free(b);
    return st;
}

/* ---- load ------------------------------------------------------------------- */

/* The header readers below share r: its getters record the first error
 * and are no-ops after it, so each step may stop at r->st (the model is
 * freed on any error, whatever fields it left half read). */

/* A GNN's header ("kind" gnn) in the format this dlperf reads. */
static dlp_status read_kind(const cJSON *root, dlp__dlpm_rd *r) {
    const char *kind = cJSON_IsObject(root) ? dlp__dlpm_str(r, root, "kind") : "";
    if (!cJSON_IsObject(root))
        return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: model header is not a JSON object", r->name);
    if (r->st != DLP_OK) {
        if (cJSON_GetObjectItemCaseSensitive(root, "xgboost"))
            r->st = dlp__err(r->err, DLP_EFORMAT, "%s: an XGBoost model, not a GNN", r->name);
        return r->st;
    }
    if (strcmp(kind, "gnn"))
        return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: a '%s' model, not a GNN", r->name, kind);
    int fmt = (int)dlp__dlpm_inum(r, root, "gnn_format", 0, 1 << 30);
    if (r->st == DLP_OK && fmt != DLP__GNN_FORMAT)
        return r->st = dlp__err(r->err, DLP_EVERSION, "%s: GNN model format %d, this dlperf reads format %d",
                                r->name, fmt, DLP__GNN_FORMAT);
    return r->st;
}

/* The network's recipe: architecture, widths, dropout, readout. */
static dlp_status read_recipe(dlp_gnn *m, const cJSON *root, dlp__dlpm_rd *r) {
    dlp_gnn_info *h = &m->info;
    const char *s = dlp__dlpm_str(r, root, "arch");
    h->arch = dlp__dlpm_enum_of(r, s, dlp_gnn_arch_parse(s), "architecture");
    h->hidden = (int)dlp__dlpm_inum(r, root, "hidden", 1, 1 << 16);
    h->layers = (int)dlp__dlpm_inum(r, root, "layers", 0, 64);
    h->block_depth = (int)dlp__dlpm_inum(r, root, "block_depth", 1, 16);
    h->fc_layers = (int)dlp__dlpm_inum(r, root, "fc_layers", 0, 64);
    h->dropout = dlp__dlpm_num(r, root, "dropout");
    s = dlp__dlpm_str(r, root, "readout");
    h->readout = dlp__dlpm_enum_of(r, s, dlp_gnn_readout_parse(s), "readout");
    m->ro_scale = dlp__dlpm_num(r, root, "readout_scale");
    if (r->st == DLP_OK && !(m->ro_scale > 0 && isfinite(m->ro_scale)))
        return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: bad readout_scale", r->name);
    h->gat_heads = (int)dlp__dlpm_inum(r, root, "gat_heads", 1, 1024);
    const cJSON *b = dlp__dlpm_need(r, root, "sage_normalize", cJSON_True);
    h->sage_normalize = b && cJSON_IsTrue(b);
    return r->st;
}

/* "training": the optimiser's settings and the provenance. */
static dlp_status read_training(dlp_gnn *m, const cJSON *root, dlp__dlpm_rd *r) {
    dlp_gnn_info *h = &m->info;
    const cJSON *tr = dlp__dlpm_need(r, root, "training", cJSON_Object);
    if (!tr) return r->st;
    const char *s = dlp__dlpm_str(r, tr, "loss");
    h->loss = dlp__dlpm_enum_of(r, s, dlp_gnn_loss_parse(s), "loss");
    h->huber_delta = dlp__dlpm_num(r, tr, "huber_delta");
    h->adamw = !strcmp(dlp__dlpm_str(r, tr, "optimizer"), "adamw");
    h->lr = dlp__dlpm_num(r, tr, "lr");
    h->lr_schedule = !strcmp(dlp__dlpm_str(r, tr, "lr_schedule"), "cosine") ? DLP_GNN_LR_COSINE : DLP_GNN_LR_CONST;
    h->weight_decay = dlp__dlpm_num(r, tr, "weight_decay");
    h->clip = dlp__dlpm_num(r, tr, "clip");
    h->batch_size = (int)dlp__dlpm_inum(r, tr, "batch_size", 0, 1 << 30);
    h->epochs = (int)dlp__dlpm_inum(r, tr, "epochs", 0, 1 << 30);
    h->epochs_run = (int)dlp__dlpm_inum(r, tr, "epochs_run", 0, 1 << 30);
    h->best_epoch = (int)dlp__dlpm_inum(r, tr, "best_epoch", 0, 1 << 30);
    h->seed = dlp__dlpm_hex64(r, tr, "seed");
    h->data_fingerprint = dlp__dlpm_hex64(r, tr, "data_fingerprint");
    h->n_train = (int64_t)dlp__dlpm_num(r, tr, "n_train");
    h->n_val = (int64_t)dlp__dlpm_num(r, tr, "n_val");
    const cJSON *bv = cJSON_GetObjectItemCaseSensitive(tr, "best_val_mape");
    h->best_val_mape = cJSON_IsNumber(bv) ? bv->valuedouble : NAN;
    h->train_seconds = dlp__dlpm_num(r, tr, "seconds");
    snprintf(m->split, sizeof m->split, "%s", dlp__dlpm_str(r, tr, "split"));
    return r->st;
}

/* "input": the layout and the static features with their scaling. */
static dlp_status read_input(dlp_gnn *m, const cJSON *root, dlp__dlpm_rd *r) {
    const cJSON *in = dlp__dlpm_need(r, root, "input", cJSON_Object);
    if (!in) return r->st;
    m->layout = (int)dlp__dlpm_inum(r, in, "layout_id", 1, 1 << 20);
    m->layout_version = (int)dlp__dlpm_inum(r, in, "layout_version", 0, 1 << 20);
    m->n_feat = (int)dlp__dlpm_inum(r, in, "n_feat", 1, 1 << 20);
    const cJSON *sfn = dlp__dlpm_need(r, in, "static_features", cJSON_Array);
    if (!sfn) return r->st;
    int n = cJSON_GetArraySize(sfn);
    if (n > DLP_SF_COUNT) return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: %d static features", r->name, n);
    m->n_static = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, sfn) {
        int k = cJSON_IsString(v) ? dlp_static_parse(v->valuestring) : -1;
        if (k < 0)
            return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: unknown static feature '%s'", r->name,
                                    cJSON_IsString(v) ? v->valuestring : "?");
        m->sf[m->n_static++] = k;
    }
    dlp__dlpm_doubles(r, in, "static_log1p_mean", m->sf_mean, m->n_static);
    dlp__dlpm_doubles(r, in, "static_log1p_std", m->sf_std, m->n_static);
    return r->st;
}

/* "output": the targets with their scaling. */
static dlp_status read_output(dlp_gnn *m, const cJSON *root, dlp__dlpm_rd *r) {
    const cJSON *out = dlp__dlpm_need(r, root, "output", cJSON_Object);
    const cJSON *tn = out ? dlp__dlpm_need(r, out, "targets", cJSON_Array) : NULL;
    if (!tn) return r->st;
    int n = cJSON_GetArraySize(tn);
    if (n < 1 || n > DLP__GNN_MAX_TARGETS) return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: %d targets", r->name, n);
    m->n_targets = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, tn) {
        if (!cJSON_IsString(v))
            return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: a target name is not a string", r->name);
        snprintf(m->target[m->n_targets++], DLP__GNN_NAME_MAX, "%s", v->valuestring);
    }
    const char *s = dlp__dlpm_str(r, out, "scale");
    m->info.target_scale = dlp__dlpm_enum_of(r, s, dlp_gnn_scale_parse(s), "target scaling");
    dlp__dlpm_doubles(r, out, "mean", m->t_mean, m->n_targets);
    dlp__dlpm_doubles(r, out, "std", m->t_std, m->n_targets);
    return r->st;
}

/* Scalings a prediction can use, a dropout in range, and the input and
 * output contract copied into the info. */
static dlp_status check_contract(dlp_gnn *m, dlp__dlpm_rd *r) {
    dlp_gnn_info *h = &m->info;
    for (int j = 0; j < m->n_static; j++)
        if (!(m->sf_std[j] > 0) || !isfinite(m->sf_mean[j]))
            return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: bad static-feature scaling", r->name);
    for (int k = 0; k < m->n_targets; k++)
        if (!(m->t_std[k] > 0) || !isfinite(m->t_mean[k]))
            return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: bad target scaling", r->name);
    h->layout = m->layout;
    h->layout_version = m->layout_version;
    h->n_feat = m->n_feat;
    h->n_static = m->n_static;
    memcpy(h->static_features, m->sf, sizeof m->sf);
    h->n_targets = m->n_targets;
    if (h->dropout < 0 || h->dropout >= 1)
        return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: dropout %g out of range", r->name, h->dropout);
    return DLP_OK;
}

/* TraPPM: the encoder's recipe, so that the build declares its (frozen)
 * tensors and the payload loads them with the others, and the scaling of
 * its pooled embedding. */
static dlp_status read_encoder(dlp_gnn *m, const cJSON *root, dlp__dlpm_rd *r) {
    int arch = m->info.arch;
    const cJSON *en = cJSON_GetObjectItemCaseSensitive(root, "encoder");
    if (arch == DLP_GNN_TRAPPM && !en)
        return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: a trappm model without its encoder", r->name);
    if (!en) return DLP_OK;
    if (!cJSON_IsObject(en) || arch != DLP_GNN_TRAPPM)
        return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: unexpected 'encoder' in a %s model", r->name,
                                dlp_gnn_arch_name(arch));
    dlp__enc_recipe *er = &m->enc.r;
    const char *s = dlp__dlpm_str(r, en, "method");
    er->method = dlp__dlpm_enum_of(r, s, dlp_pretrain_method_parse(s), "encoder method");
    er->n_feat = (int)dlp__dlpm_inum(r, en, "n_feat", 1, 1 << 20);
    er->hidden = (int)dlp__dlpm_inum(r, en, "hidden", 1, 1 << 16);
    er->layers = (int)dlp__dlpm_inum(r, en, "layers", 1, 64);
    er->dropout = dlp__dlpm_num(r, en, "dropout");
    er->layout = (int)dlp__dlpm_inum(r, en, "layout_id", 1, 1 << 20);
    er->layout_version = (int)dlp__dlpm_inum(r, en, "layout_version", 0, 1 << 20);
    if (r->st != DLP_OK) return r->st;
    m->u_mean = calloc((size_t)er->hidden, sizeof *m->u_mean);
    m->u_std = calloc((size_t)er->hidden, sizeof *m->u_std);
    if (!m->u_mean || !m->u_std) return r->st = dlp__err(r->err, DLP_ENOMEM, "%s: out of memory", r->name);
    dlp__dlpm_doubles(r, en, "embedding_mean", m->u_mean, er->hidden);
    dlp__dlpm_doubles(r, en, "embedding_std", m->u_std, er->hidden);
    if (r->st != DLP_OK) return r->st;
    for (int j = 0; j < er->hidden; j++)
        if (!(m->u_std[j] > 0) || !isfinite(m->u_mean[j]) || !isfinite(m->u_std[j]))
            return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: bad embedding scaling", r->name);
    m->has_enc = 1;
    return DLP_OK;
}

/* The architecture's own header part (gnnlm: the GIN's recipe and the LM's
 * width, its image following the floats in the payload), then the network
 * rebuilt and held against the stored size table and the payload. */
static dlp_status build_checked(dlp_gnn *m, const cJSON *root, dlp__dlpm_rd *r, uint64_t payload_len,
                                uint64_t *lm_bytes) {
    *lm_bytes = 0;
    m->ops = dlp__gnn_arch_ops_for(m->info.arch);
    if (m->ops && m->ops->parse) {
        dlp_status gs = m->ops->parse(m, root, r->name, lm_bytes, r->err);
        if (gs != DLP_OK) return r->st = gs;
        if (*lm_bytes > payload_len)
            return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: the language model's %llu bytes exceed the payload",
                                    r->name, (unsigned long long)*lm_bytes);
        payload_len -= *lm_bytes;
    }
    dlp_error be = {0};
    if (dlp__gnn_build(m, &be) != DLP_OK) return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: %s", r->name, be.msg);
    if (dlp__dlpm_check_tensors(r, root, &m->ps) != DLP_OK) return r->st;
    return dlp__dlpm_check_payload(r, payload_len, &m->ps);
}

static dlp_status parse_header(dlp_gnn *m, const cJSON *root, dlp__dlpm_rd *r, uint64_t payload_len,
                               uint64_t *lm_bytes) {
    if (read_kind(root, r) != DLP_OK || read_recipe(m, root, r) != DLP_OK || read_training(m, root, r) != DLP_OK ||
        read_input(m, root, r) != DLP_OK || read_output(m, root, r) != DLP_OK || check_contract(m, r) != DLP_OK ||
        read_encoder(m, root, r) != DLP_OK)
        return r->st;
    return build_checked(m, root, r, payload_len, lm_bytes);
}

dlp_status dlp_gnn_load_mem(const void *buf, size_t len, const char *name, dlp_gnn **out, dlp_error *err) {
    *out = NULL;
    if (!name) name = "model";
    cJSON *root;
    const uint8_t *payload;
    uint64_t pl;
    dlp_status st = dlp__dlpm_open(buf, len, name, &root, &payload, &pl, err);
    if (st != DLP_OK) return st;
    dlp_gnn *m = dlp__gnn_alloc();
    if (!m) {
        cJSON_Delete(root);
        return dlp__err(err, DLP_ENOMEM, "%s: out of memory", name);
    }
    dlp__dlpm_rd r = {name, "model", err, DLP_OK};
    snprintf(m->src, sizeof m->src, "%s", name);
    uint64_t lm_bytes = 0;
    st = parse_header(m, root, &r, pl, &lm_bytes);
    cJSON_Delete(root);
    if (st != DLP_OK) {
        dlp_gnn_free(m);
        return st;
    }
    pl -= lm_bytes;
    memcpy(m->ps.data, payload, (size_t)pl);
    if (m->ops && m->ops->load_tail && (st = m->ops->load_tail(m, payload + pl, (size_t)lm_bytes, name, err)) != DLP_OK) {
        dlp_gnn_free(m);
        return st;
    }
    for (int64_t i = 0; i < m->ps.total; i++)
        if (!isfinite(m->ps.data[i])) {
            dlp_gnn_free(m);
            return dlp__err(err, DLP_EFORMAT, "%s: parameter %lld is not finite", name, (long long)i);
        }
    *out = m;
    return DLP_OK;
}

dlp_status dlp_gnn_load(const char *path, dlp_gnn **out, dlp_error *err) {
    *out = NULL;
    if (path && !strcmp(path, DLP_GNN_BUILTIN)) {
        const void *buf;
        size_t len;
        dlp__gnnlm_builtin(&buf, &len);
        return dlp_gnn_load_mem(buf, len, "the built-in gnnlm base", out, err);
    }
    dlp__mapped mp;
    dlp_status st = dlp__map_file(path, &mp, err);
    if (st != DLP_OK) return st;
    st = dlp_gnn_load_mem(mp.data, mp.len, path, out, err);
    dlp__unmap_file(&mp);
    return st;
}
