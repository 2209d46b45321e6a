/*
 * xgb.c — gradient-boosted trees through libxgboost's C API, and dlperf's
 * model file around them.
 *
 * Why libxgboost: the thesis' chapter 6 model is XGBoost (2.0.3 there,
 * Debian's 1.7 here — the same tree booster and objective); using the
 * library instead of a re-implementation keeps the trees, the split finding
 * and the prediction exactly XGBoost's.
 *
 * The .dlpm file wraps the booster (XGBoost's own UBJSON serialisation) with
 * what a prediction needs and XGBoost does not store: feature names in
 * order, the target and its scaling (log), a fingerprint of the training
 * data and free-form metadata (which devices/dtypes a model covers), plus a
 * version and a CRC-32 so a truncated or edited file is refused instead of
 * predicting garbage.  Layout (little-endian):
 *
 *   0   "DLPM"                      magic
 *   4   u32 version (1)
 *   8   u32 header bytes H
 *   12  u64 booster bytes N
 *   20  header: JSON {features, target, log_target, fingerprint, n_train,
 *       meta, xgboost}
 *   20+H  booster (UBJSON)
 *   end-4 u32 CRC-32 of every byte before it
 *
 * Also here: stratified k-fold / leave-one-group-out cross-validation and
 * the metrics of the thesis (MAPE, RMSE, Kendall's tau).
 */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xgboost/c_api.h>

#include "util/util.h"

#define DLPM_MAGIC "DLPM"
#define DLPM_VERSION 1u
#define DLPM_FIXED 20

struct dlp_xgb {
    BoosterHandle h;
    int n_feat;
    char **feat;
    char *target;
    int log_target;
    uint64_t fingerprint;
    int64_t n_train;
    int n_meta;
    char **mkey, **mval;
};

static dlp_status xgb_fail(dlp_error *err, const char *what) {
    return dlp__err(err, DLP_EINTERNAL, "xgboost: %s: %s", what, XGBGetLastError());
}

void dlp_xgb_free(dlp_xgb *m) {
    if (!m) return;
    if (m->h) XGBoosterFree(m->h);
    for (int i = 0; i < m->n_feat; i++) free(m->feat[i]);
    free(m->feat);
    free(m->target);
    for (int i = 0; i < m->n_meta; i++) {
        free(m->mkey[i]);
        free(m->mval[i]);
    }
    free(m->mkey);
    free(m->mval);
    free(m);
}

int dlp_xgb_feature_count(const dlp_xgb *m) { return m ? m->n_feat : 0; }
const char *dlp_xgb_feature_name(const dlp_xgb *m, int i) {
    return m && i >= 0 && i < m->n_feat ? m->feat[i] : NULL;
}
const char *dlp_xgb_target(const dlp_xgb *m) { return m ? m->target : NULL; }
int dlp_xgb_log_target(const dlp_xgb *m) { return m ? m->log_target : 0; }
uint64_t dlp_xgb_fingerprint(const dlp_xgb *m) { return m ? m->fingerprint : 0; }

dlp_status dlp_xgb_set_meta(dlp_xgb *m, const char *key, const char *value) {
    if (!m || !key || !value) return DLP_EINVAL;
    for (int i = 0; i < m->n_meta; i++)
        if (!strcmp(m->mkey[i], key)) {
            char *v = strdup(value);
            if (!v) return DLP_ENOMEM;
            free(m->mval[i]);
            m->mval[i] = v;
            return DLP_OK;
        }
    char **k = realloc(m->mkey, sizeof(char *) * (size_t)(m->n_meta + 1));
    if (!k) return DLP_ENOMEM;
    m->mkey = k;
    char **v = realloc(m->mval, sizeof(char *) * (size_t)(m->n_meta + 1));
    if (!v) return DLP_ENOMEM;
    m->mval = v;
    m->mkey[m->n_meta] = strdup(key);
    m->mval[m->n_meta] = strdup(value);
    if (!m->mkey[m->n_meta] || !m->mval[m->n_meta]) {
        free(m->mkey[m->n_meta]);
        free(m->mval[m->n_meta]);
        return DLP_ENOMEM;
    }
    m->n_meta++;
    return DLP_OK;
}

const char *dlp_xgb_get_meta(const dlp_xgb *m, const char *key) {
    if (!m || !key) return NULL;
    for (int i = 0; i < m->n_meta; i++)
        if (!strcmp(m->mkey[i], key)) return m->mval[i];
    return NULL;
}

/* FNV-1a 64 over the bytes of the training data. */
static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

static void params_defaults(const dlp_xgb_params *in, dlp_xgb_params *p) {
    memset(p, 0, sizeof *p);
    if (in) *p = *in;
    if (p->n_estimators <= 0) p->n_estimators = 500;
    if (p->learning_rate <= 0) p->learning_rate = 0.1;
    if (p->max_depth <= 0) p->max_depth = 6;
    if (p->subsample <= 0 || p->subsample > 1) p->subsample = 1.0;
    if (p->min_child_weight <= 0) p->min_child_weight = 1.0;
    if (p->nthread <= 0) p->nthread = 1;
}

/* A booster trained on rows `rows` (NULL: all n) of x/y; ty are the
 * (already transformed) targets. */
static dlp_status train_booster(const float *x, const float *ty, int64_t n, int n_feat, const int64_t *rows,
                                int64_t n_rows, const dlp_xgb_params *p, BoosterHandle *out, dlp_error *err) {
    *out = NULL;
    float *xs = NULL, *ys = NULL;
    const float *xd = x, *yd = ty;
    if (rows) {
        xs = malloc(sizeof(float) * (size_t)n_rows * (size_t)n_feat);
        ys = malloc(sizeof(float) * (size_t)n_rows);
        if (!xs || !ys) {
            free(xs);
            free(ys);
            return dlp__err(err, DLP_ENOMEM, "xgboost: out of memory");
        }
        for (int64_t i = 0; i < n_rows; i++) {
            memcpy(xs + i * n_feat, x + rows[i] * n_feat, sizeof(float) * (size_t)n_feat);
            ys[i] = ty[rows[i]];
        }
        xd = xs;
        yd = ys;
        n = n_rows;
    }
    DMatrixHandle dm = NULL;
    BoosterHandle h = NULL;
    dlp_status st = DLP_OK;
    if (XGDMatrixCreateFromMat(xd, (bst_ulong)n, (bst_ulong)n_feat, NAN, &dm)) {
        st = xgb_fail(err, "DMatrix");
        goto out;
    }
    if (XGDMatrixSetFloatInfo(dm, "label", yd, (bst_ulong)n)) {
        st = xgb_fail(err, "labels");
        goto out;
    }
    if (XGBoosterCreate(&dm, 1, &h)) {
        st = xgb_fail(err, "create");
        goto out;
    }
    /* base_score = mean target: XGBoost 1.7 starts every model at 0.5,
     * which on log targets costs many trees before the trees see detail */
    double mean = 0;
    for (int64_t i = 0; i < n; i++) mean += yd[i];
    mean = n ? mean / (double)n : 0;
    char v[64];
    const struct { const char *k; double val; int is_int; } kv[] = {
        {"eta", p->learning_rate, 0}, {"max_depth", p->max_depth, 1}, {"subsample", p->subsample, 0},
        {"min_child_weight", p->min_child_weight, 0}, {"nthread", p->nthread, 1},
        {"seed", (double)(p->seed % 2147483647u), 1}, {"base_score", mean, 0}, {"verbosity", 0, 1}};
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++) {
        if (kv[i].is_int) snprintf(v, sizeof v, "%lld", (long long)kv[i].val);
        else snprintf(v, sizeof v, "%.17g", kv[i].val);
        if (XGBoosterSetParam(h, kv[i].k, v)) {
            st = xgb_fail(err, kv[i].k);
            goto out;
        }
    }
    if (XGBoosterSetParam(h, "objective", "reg:squarederror") || XGBoosterSetParam(h, "tree_method", "hist")) {
        st = xgb_fail(err, "params");
        goto out;
    }
    for (int it = 0; it < p->n_estimators; it++)
        if (XGBoosterUpdateOneIter(h, it, dm)) {
            st = xgb_fail(err, "training");
            goto out;
        }
out:
    if (dm) XGDMatrixFree(dm);
    if (st && h) {
        XGBoosterFree(h);
        h = NULL;
    }
    free(xs);
    free(ys);
    *out = h;
    return st;
}

/* Targets as the booster sees them (log when asked). */
static dlp_status transform_y(const float *y, int64_t n, int log_target, float **out, dlp_error *err) {
    float *t = malloc(sizeof(float) * (size_t)(n ? n : 1));
    if (!t) return dlp__err(err, DLP_ENOMEM, "xgboost: out of memory");
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(y[i]) || (log_target && !(y[i] > 0))) {
            free(t);
            return dlp__err(err, DLP_EINVAL, "xgboost: target %lld is %g (must be finite%s)", (long long)i,
                            (double)y[i], log_target ? " and > 0 for a log target" : "");
        }
        t[i] = log_target ? logf(y[i]) : y[i];
    }
    *out = t;
    return DLP_OK;
}

dlp_status dlp_xgb_train(const float *x, const float *y, int64_t n, int n_feat, const char *const *feature_names,
                         const char *target, const dlp_xgb_params *pin, dlp_xgb **out, dlp_error *err) {
    if (out) *out = NULL;
    if (!x || !y || !out || n < 1 || n_feat < 1 || n > ((int64_t)1 << 40) / n_feat)
        return dlp__err(err, DLP_EINVAL, "xgboost: bad training arguments (n %lld, features %d)", (long long)n,
                        n_feat);
    dlp_xgb_params p;
    params_defaults(pin, &p);
    float *ty;
    dlp_status st = transform_y(y, n, p.log_target, &ty, err);
    if (st) return st;
    dlp_xgb *m = calloc(1, sizeof *m);
    if (!m) {
        free(ty);
        return dlp__err(err, DLP_ENOMEM, "xgboost: out of memory");
    }
    m->n_feat = n_feat;
    m->log_target = p.log_target != 0;
    m->n_train = n;
    m->feat = calloc((size_t)n_feat, sizeof(char *));
    m->target = strdup(target ? target : "y");
    if (!m->feat || !m->target) st = dlp__err(err, DLP_ENOMEM, "xgboost: out of memory");
    for (int i = 0; i < n_feat && !st; i++) {
        char tmp[32];
        snprintf(tmp, sizeof tmp, "f%d", i);
        m->feat[i] = strdup(feature_names && feature_names[i] ? feature_names[i] : tmp);
        if (!m->feat[i]) st = dlp__err(err, DLP_ENOMEM, "xgboost: out of memory");
    }
    uint64_t h = 1469598103934665603ull;
    h = fnv(h, &n, sizeof n);
    h = fnv(h, &n_feat, sizeof n_feat);
    h = fnv(h, x, sizeof(float) * (size_t)n * (size_t)n_feat);
    m->fingerprint = fnv(h, y, sizeof(float) * (size_t)n);
    if (!st) st = train_booster(x, ty, n, n_feat, NULL, n, &p, &m->h, err);
    free(ty);
    if (st) {
        dlp_xgb_free(m);
        return st;
    }
    *out = m;
    return DLP_OK;
}

/* Raw booster predictions (transformed scale) of n rows. */
static dlp_status predict_raw(BoosterHandle h, const float *x, int64_t n, int n_feat, double *out, dlp_error *err) {
    char arr[256];
    /* the array-interface protocol: the data pointer as an integer */
    snprintf(arr, sizeof arr,
             "{\"data\":[%llu,true],\"shape\":[%lld,%d],\"typestr\":\"<f4\",\"version\":3}",
             (unsigned long long)(uintptr_t)x, (long long)n, n_feat);
    static const char cfg[] = "{\"type\":0,\"training\":false,\"iteration_begin\":0,\"iteration_end\":0,"
                              "\"strict_shape\":false,\"cache_id\":0,\"missing\":NaN}";
    bst_ulong const *shape;
    bst_ulong dim;
    const float *res;
    if (XGBoosterPredictFromDense(h, arr, cfg, NULL, &shape, &dim, &res)) return xgb_fail(err, "predict");
    bst_ulong total = 1;
    for (bst_ulong i = 0; i < dim; i++) total *= shape[i];
    if (total != (bst_ulong)n) return dlp__err(err, DLP_EINTERNAL, "xgboost: %llu predictions for %lld rows",
                                               (unsigned long long)total, (long long)n);
    for (int64_t i = 0; i < n; i++) out[i] = res[i];
    return DLP_OK;
}

dlp_status dlp_xgb_predict(const dlp_xgb *m, const float *x, int64_t n, double *out, dlp_error *err) {
    if (!m || !x || !out || n < 0) return dlp__err(err, DLP_EINVAL, "dlp_xgb_predict: bad arguments");
    if (n == 0) return DLP_OK;
    dlp_status st = predict_raw(m->h, x, n, m->n_feat, out, err);
    if (st) return st;
    if (m->log_target)
        for (int64_t i = 0; i < n; i++) out[i] = exp(out[i]);
    return DLP_OK;
}

/* ---- model file -------------------------------------------------------- */

static void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get64(const uint8_t *p) { return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32; }

dlp_status dlp_xgb_save_mem(const dlp_xgb *m, void **buf, size_t *len, dlp_error *err) {
    if (!m || !buf || !len) return dlp__err(err, DLP_EINVAL, "dlp_xgb_save_mem: NULL argument");
    *buf = NULL;
    *len = 0;
    bst_ulong blen;
    const char *bdata;
    if (XGBoosterSaveModelToBuffer(m->h, "{\"format\":\"ubj\"}", &blen, &bdata)) return xgb_fail(err, "serialise");
    cJSON *hd = cJSON_CreateObject();
    cJSON *fe = cJSON_AddArrayToObject(hd, "features");
    for (int i = 0; i < m->n_feat; i++) cJSON_AddItemToArray(fe, cJSON_CreateString(m->feat[i]));
    cJSON_AddStringToObject(hd, "target", m->target);
    cJSON_AddNumberToObject(hd, "log_target", m->log_target);
    char fp[32];
    snprintf(fp, sizeof fp, "%016llx", (unsigned long long)m->fingerprint);
    cJSON_AddStringToObject(hd, "fingerprint", fp);
    cJSON_AddNumberToObject(hd, "n_train", (double)m->n_train);
    cJSON *me = cJSON_AddObjectToObject(hd, "meta");
    for (int i = 0; i < m->n_meta; i++) cJSON_AddStringToObject(me, m->mkey[i], m->mval[i]);
    int ma, mi, pa;
    XGBoostVersion(&ma, &mi, &pa);
    char ver[32];
    snprintf(ver, sizeof ver, "%d.%d.%d", ma, mi, pa);
    cJSON_AddStringToObject(hd, "xgboost", ver);
    char *hs = cJSON_PrintUnformatted(hd);
    cJSON_Delete(hd);
    if (!hs) return dlp__err(err, DLP_ENOMEM, "xgboost: out of memory");
    size_t hl = strlen(hs), total = DLPM_FIXED + hl + (size_t)blen + 4;
    uint8_t *b = malloc(total);
    if (!b) {
        free(hs);
        return dlp__err(err, DLP_ENOMEM, "xgboost: out of memory");
    }
    memcpy(b, DLPM_MAGIC, 4);
    put32(b + 4, DLPM_VERSION);
    put32(b + 8, (uint32_t)hl);
    put64(b + 12, (uint64_t)blen);
    memcpy(b + DLPM_FIXED, hs, hl);
    memcpy(b + DLPM_FIXED + hl, bdata, (size_t)blen);
    put32(b + total - 4, dlp__crc32(0, b, total - 4));
    free(hs);
    *buf = b;
    *len = total;
    return DLP_OK;
}

dlp_status dlp_xgb_save(const dlp_xgb *m, const char *path, dlp_error *err) {
    void *buf;
    size_t len;
    if (!path) return dlp__err(err, DLP_EINVAL, "dlp_xgb_save: NULL path");
    dlp_status st = dlp_xgb_save_mem(m, &buf, &len, err);
    if (st) return st;
    st = dlp__write_file_atomic(path, buf, len, err);
    free(buf);
    return st;
}

static char *jstrdup(const cJSON *o, const char *k) {
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(x) ? strdup(x->valuestring) : NULL;
}

dlp_status dlp_xgb_load_mem(const void *buf, size_t len, const char *name, dlp_xgb **out, dlp_error *err) {
    if (out) *out = NULL;
    if (!buf || !out) return dlp__err(err, DLP_EINVAL, "dlp_xgb_load_mem: NULL argument");
    if (!name) name = "model";
    const uint8_t *b = buf;
    if (len < DLPM_FIXED + 4 || memcmp(b, DLPM_MAGIC, 4))
        return dlp__err(err, DLP_EFORMAT, "%s: not a dlperf model file (no DLPM header)", name);
    if (get32(b + len - 4) != dlp__crc32(0, b, len - 4))
        return dlp__err(err, DLP_ECHECKSUM, "%s: checksum mismatch (file corrupted or truncated)", name);
    if (get32(b + 4) != DLPM_VERSION)
        return dlp__err(err, DLP_EVERSION, "%s: model file version %u, this dlperf reads version %u", name,
                        get32(b + 4), DLPM_VERSION);
    uint64_t hl = get32(b + 8), bl = get64(b + 12);
    if (hl > len || bl > len || DLPM_FIXED + hl + bl + 4 != len)
        return dlp__err(err, DLP_EFORMAT, "%s: section sizes do not add up to the file size", name);
    cJSON *hd = cJSON_ParseWithLength((const char *)b + DLPM_FIXED, (size_t)hl);
    if (!hd) return dlp__err(err, DLP_EFORMAT, "%s: header is not valid JSON", name);
    dlp_status st = DLP_OK;
    dlp_xgb *m = calloc(1, sizeof *m);
    const cJSON *fe = cJSON_GetObjectItemCaseSensitive(hd, "features");
    const cJSON *lt = cJSON_GetObjectItemCaseSensitive(hd, "log_target");
    const cJSON *nt = cJSON_GetObjectItemCaseSensitive(hd, "n_train");
    const cJSON *fp = cJSON_GetObjectItemCaseSensitive(hd, "fingerprint");
    if (!m) {
        st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", name);
        goto out;
    }
    if (!cJSON_IsArray(fe) || cJSON_GetArraySize(fe) < 1 || !cJSON_IsNumber(lt) || !cJSON_IsString(fp)) {
        st = dlp__err(err, DLP_EFORMAT, "%s: header lacks features, log_target or fingerprint", name);
        goto out;
    }
    m->n_feat = cJSON_GetArraySize(fe);
    m->feat = calloc((size_t)m->n_feat, sizeof(char *));
    if (!m->feat) {
        st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", name);
        goto out;
    }
    for (int i = 0; i < m->n_feat; i++) {
        const cJSON *f = cJSON_GetArrayItem(fe, i);
        if (!cJSON_IsString(f) || !(m->feat[i] = strdup(f->valuestring))) {
            st = dlp__err(err, DLP_EFORMAT, "%s: feature %d is not a string", name, i);
            goto out;
        }
    }
    m->target = jstrdup(hd, "target");
    if (!m->target) m->target = strdup("y");
    m->log_target = lt->valuedouble != 0;
    m->n_train = cJSON_IsNumber(nt) ? (int64_t)nt->valuedouble : 0;
    m->fingerprint = strtoull(fp->valuestring, NULL, 16);
    const cJSON *me = cJSON_GetObjectItemCaseSensitive(hd, "meta"), *kv;
    cJSON_ArrayForEach(kv, me) {
        if (cJSON_IsString(kv) && dlp_xgb_set_meta(m, kv->string, kv->valuestring)) {
            st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", name);
            goto out;
        }
    }
    if (XGBoosterCreate(NULL, 0, &m->h)) {
        st = xgb_fail(err, "create");
        goto out;
    }
    if (XGBoosterLoadModelFromBuffer(m->h, b + DLPM_FIXED + hl, (bst_ulong)bl)) {
        st = dlp__err(err, DLP_EFORMAT, "%s: booster does not load: %s", name, XGBGetLastError());
        goto out;
    }
    /* one thread: a prediction is a few microseconds, threads cost more */
    XGBoosterSetParam(m->h, "nthread", "1");
    bst_ulong nf = 0;
    if (!XGBoosterGetNumFeature(m->h, &nf) && nf > (bst_ulong)m->n_feat) {
        st = dlp__err(err, DLP_EFORMAT, "%s: booster has %llu features, header names %d", name,
                      (unsigned long long)nf, m->n_feat);
        goto out;
    }
out:
    cJSON_Delete(hd);
    if (st) {
        dlp_xgb_free(m);
        return st;
    }
    *out = m;
    return DLP_OK;
}

dlp_status dlp_xgb_load(const char *path, dlp_xgb **out, dlp_error *err) {
    dlp__mapped mp;
    if (out) *out = NULL;
    if (!path) return dlp__err(err, DLP_EINVAL, "dlp_xgb_load: NULL path");
    dlp_status st = dlp__map_file(path, &mp, err);
    if (st) return st;
    st = dlp_xgb_load_mem(mp.data, mp.len, path, out, err);
    dlp__unmap_file(&mp);
    return st;
}

/* ---- cross-validation --------------------------------------------------- */

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static const float *sort_key;
static int cmp_by_key(const void *a, const void *b) {
    float x = sort_key[*(const int64_t *)a], y = sort_key[*(const int64_t *)b];
    if (x < y) return -1;
    if (x > y) return 1;
    int64_t i = *(const int64_t *)a, j = *(const int64_t *)b;
    return (i > j) - (i < j);
}

/* Stratified folds: rows sorted by target, then each run of k consecutive
 * rows (a quantile bin of width k) is dealt to the k folds in a random
 * order — every fold sees the whole range of the target. */
static void strat_folds(const float *y, int64_t n, int k, uint64_t seed, int *fold) {
    int64_t *ord = malloc(sizeof(int64_t) * (size_t)n);
    if (!ord) {
        for (int64_t i = 0; i < n; i++) fold[i] = (int)(i % k);
        return;
    }
    for (int64_t i = 0; i < n; i++) ord[i] = i;
    sort_key = y; /* single-threaded use: the CLI and tests */
    qsort(ord, (size_t)n, sizeof *ord, cmp_by_key);
    uint64_t s = seed ^ 0x5eedull;
    int perm[64];
    for (int64_t start = 0; start < n; start += k) {
        for (int j = 0; j < k; j++) perm[j] = j;
        for (int j = k - 1; j > 0; j--) {
            int r = (int)(splitmix(&s) % (uint64_t)(j + 1));
            int t = perm[j];
            perm[j] = perm[r];
            perm[r] = t;
        }
        for (int j = 0; j < k && start + j < n; j++) fold[ord[start + j]] = perm[j];
    }
    free(ord);
}

dlp_status dlp_xgb_cv(const float *x, const float *y, int64_t n, int n_feat, const dlp_xgb_params *pin, int k,
                      uint64_t seed, const int *groups, double *oof, dlp_error *err) {
    if (!x || !y || !oof || n < 2 || n_feat < 1 || (!groups && (k < 2 || k > 64)))
        return dlp__err(err, DLP_EINVAL, "dlp_xgb_cv: bad arguments (n %lld, k %d)", (long long)n, k);
    dlp_xgb_params p;
    params_defaults(pin, &p);
    if (!pin || !pin->seed) p.seed = seed;
    float *ty;
    dlp_status st = transform_y(y, n, p.log_target, &ty, err);
    if (st) return st;
    int *fold = malloc(sizeof(int) * (size_t)n);
    int64_t *tr = malloc(sizeof(int64_t) * (size_t)n);
    double *pred = malloc(sizeof(double) * (size_t)n);
    float *xt = malloc(sizeof(float) * (size_t)n * (size_t)n_feat);
    if (!fold || !tr || !pred || !xt) {
        st = dlp__err(err, DLP_ENOMEM, "dlp_xgb_cv: out of memory");
        goto out;
    }
    int n_fold = k;
    if (groups) {
        n_fold = 0;
        for (int64_t i = 0; i < n; i++) {
            fold[i] = groups[i];
            if (groups[i] + 1 > n_fold) n_fold = groups[i] + 1;
        }
    } else {
        strat_folds(y, n, k, seed, fold);
    }
    for (int64_t i = 0; i < n; i++) oof[i] = NAN;
    for (int f = 0; f < n_fold && !st; f++) {
        int64_t ntr = 0, nte = 0;
        for (int64_t i = 0; i < n; i++) {
            if (fold[i] == f) nte++;
            else tr[ntr++] = i;
        }
        if (!nte || !ntr) continue;
        BoosterHandle h;
        st = train_booster(x, ty, n, n_feat, tr, ntr, &p, &h, err);
        if (st) break;
        int64_t m = 0;
        for (int64_t i = 0; i < n; i++)
            if (fold[i] == f) memcpy(xt + m++ * n_feat, x + i * n_feat, sizeof(float) * (size_t)n_feat);
        st = predict_raw(h, xt, m, n_feat, pred, err);
        XGBoosterFree(h);
        m = 0;
        for (int64_t i = 0; i < n && !st; i++)
            if (fold[i] == f) {
                double v = pred[m++];
                oof[i] = p.log_target ? exp(v) : v;
            }
    }
out:
    free(ty);
    free(fold);
    free(tr);
    free(pred);
    free(xt);
    return st;
}

/* ---- metrics ------------------------------------------------------------- */

/* Kendall tau-b over pairs (O(n^2): evaluation tables have a few thousand
 * rows). */
static double kendall(const double *y, const double *p, const int64_t *idx, int64_t m) {
    double conc = 0, disc = 0, ty = 0, tp = 0;
    for (int64_t a = 0; a < m; a++)
        for (int64_t b = a + 1; b < m; b++) {
            double dy = y[idx[a]] - y[idx[b]], dp = p[idx[a]] - p[idx[b]];
            if (dy == 0 && dp == 0) continue;
            if (dy == 0) ty++;
            else if (dp == 0) tp++;
            else if ((dy > 0) == (dp > 0)) conc++;
            else disc++;
        }
    double den = sqrt((conc + disc + ty) * (conc + disc + tp));
    return den > 0 ? (conc - disc) / den : 0;
}

void dlp_llm_metrics_compute(const double *y, const double *yhat, int64_t n, dlp_llm_metrics *m) {
    memset(m, 0, sizeof *m);
    if (!y || !yhat || n <= 0) return;
    int64_t *idx = malloc(sizeof(int64_t) * (size_t)n);
    if (!idx) return;
    int64_t k = 0;
    double ape = 0, se = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(y[i]) || !isfinite(yhat[i]) || y[i] == 0) continue;
        idx[k++] = i;
        ape += fabs(yhat[i] - y[i]) / fabs(y[i]);
        se += (yhat[i] - y[i]) * (yhat[i] - y[i]);
    }
    m->n = k;
    if (k) {
        m->mape = 100.0 * ape / (double)k;
        m->rmse = sqrt(se / (double)k);
        m->tau = kendall(y, yhat, idx, k);
    }
    free(idx);
}
