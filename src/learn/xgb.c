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
 * data and free-form metadata (which devices/dtypes a model covers).  It is
 * the one .dlpm container of every model (dlpm/container.h: magic, version,
 * JSON header, payload, CRC-32):
 *
 *   header   {"kind": "xgboost", features, target, log_target, fingerprint,
 *            n_train, meta, xgboost (the library's version), booster_bytes}
 *   payload  the booster (XGBoost's UBJSON, the reference copy,
 *            booster_bytes long), then the tree table: the same trees
 *            flattened for prediction
 *
 * Files written before the container was shared (dlperf 0.1 sessions 1-5)
 * had a 28-byte fixed part (u64 booster and tree-table sizes where the
 * container has one payload size); they are still read (legacy_sections).
 *
 * Why a flattened copy: XGBoost's in-place prediction costs tens of
 * microseconds per call in set-up (JSON configs, proxy matrices, thread
 * pools) — more than walking 500 trees.  Prediction therefore walks the
 * table here with XGBoost's exact rule (float compare `x < cond`, NaN to the
 * default child, leaves summed in float from base_score in tree order), and
 * tests check it against XGBoost's own prediction.  libxgboost trains,
 * serialises, cross-validates and is the reference.
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

#include "dlpm/container.h"
#include "learn/xgb.h"
#include "util/util.h"

#define LEGACY_FIXED 28   /* magic, version, H, booster N, tree table T */

struct dlp_xgb {
    BoosterHandle h;           /* NULL until needed (loaded models)           */
    uint8_t *booster;          /* UBJSON bytes of the booster                 */
    size_t booster_len;
    /* flattened trees: node arrays of all trees back to back, children as
     * global indices, -1 for a leaf; a leaf's value is in cond */
    int n_trees, n_nodes;
    int32_t *root, *left, *right, *fidx;
    float *cond;
    uint8_t *dleft;
    float base;
    /* the same nodes packed 16 bytes each for the walk (one cache line
     * touch per level); the default-left flag is the feature's top bit */
    struct xnode { int32_t left, right, feat; float cond; } *nodes;
    /* and, when every tree is at most PERFECT_MAX deep, as perfect binary
     * trees of the model's depth (shallow leaves replicated below
     * themselves): walks of fixed length with no exit branch, four trees at
     * a time so their load chains overlap */
    int depth;                 /* 0: no perfect layout                        */
    struct pnode { int32_t feat; float cond; } *pin; /* n_trees x (2^depth - 1) */
    float *pleaf;                                     /* n_trees x 2^depth       */
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

static void trees_free(dlp_xgb *m) {
    free(m->nodes);
    m->nodes = NULL;
    free(m->pin);
    free(m->pleaf);
    m->pin = NULL;
    m->pleaf = NULL;
    m->depth = 0;
    free(m->root);
    free(m->left);
    free(m->right);
    free(m->fidx);
    free(m->cond);
    free(m->dleft);
    m->root = m->left = m->right = m->fidx = NULL;
    m->cond = NULL;
    m->dleft = NULL;
    m->n_trees = m->n_nodes = 0;
}

static int trees_alloc(dlp_xgb *m, int n_trees, int n_nodes) {
    m->n_trees = n_trees;
    m->n_nodes = n_nodes;
    size_t nn = (size_t)(n_nodes ? n_nodes : 1);
    m->root = malloc(sizeof(int32_t) * (size_t)(n_trees ? n_trees : 1));
    m->left = malloc(sizeof(int32_t) * nn);
    m->right = malloc(sizeof(int32_t) * nn);
    m->fidx = malloc(sizeof(int32_t) * nn);
    m->cond = malloc(sizeof(float) * nn);
    m->dleft = malloc(nn);
    m->nodes = malloc(sizeof *m->nodes * nn);
    return m->root && m->left && m->right && m->fidx && m->cond && m->dleft && m->nodes ? 0 : -1;
}

#define PERFECT_MAX 10

static int node_depth(const dlp_xgb *m, int32_t k) {
    if (m->left[k] < 0) return 0;
    int a = node_depth(m, m->left[k]), b = node_depth(m, m->right[k]);
    return 1 + (a > b ? a : b);
}

/* Mean depth of the leaves under k (unweighted). */
static void leaf_depths(const dlp_xgb *m, int32_t k, int d, double *sum, double *n) {
    if (m->left[k] < 0) {
        *sum += d;
        *n += 1;
        return;
    }
    leaf_depths(m, m->left[k], d + 1, sum, n);
    leaf_depths(m, m->right[k], d + 1, sum, n);
}

static double mean_leaf_depth(const dlp_xgb *m, int32_t k) {
    double s = 0, n = 0;
    leaf_depths(m, k, 0, &s, &n);
    return n > 0 ? s / n : 0;
}

/* Perfect-tree copy of node k at heap position i, level d (of depth D). */
static void perfect_fill(dlp_xgb *m, struct pnode *in, float *leaf, int D, int32_t k, int64_t i, int d) {
    int64_t n_in = ((int64_t)1 << D) - 1;
    if (d == D) {
        leaf[i - n_in] = m->cond[k];
        return;
    }
    if (m->left[k] < 0) {
        /* a leaf above the bottom: a node that always goes left (x < +inf,
         * NaN by default), and the leaf replicated below on both sides */
        in[i].feat = (int32_t)0x80000000u;
        in[i].cond = INFINITY;
        perfect_fill(m, in, leaf, D, k, 2 * i + 1, d + 1);
        perfect_fill(m, in, leaf, D, k, 2 * i + 2, d + 1);
        return;
    }
    in[i].feat = (int32_t)((uint32_t)m->fidx[k] | (m->dleft[k] ? 0x80000000u : 0));
    in[i].cond = m->cond[k];
    perfect_fill(m, in, leaf, D, m->left[k], 2 * i + 1, d + 1);
    perfect_fill(m, in, leaf, D, m->right[k], 2 * i + 2, d + 1);
}

static void trees_pack(dlp_xgb *m) {
    for (int i = 0; i < m->n_nodes; i++) {
        m->nodes[i].left = m->left[i];
        m->nodes[i].right = m->right[i];
        m->nodes[i].feat = (int32_t)((uint32_t)m->fidx[i] | (m->dleft[i] ? 0x80000000u : 0));
        m->nodes[i].cond = m->cond[i];
    }
    int D = 0;
    double walk_cost = 0;
    for (int t = 0; t < m->n_trees; t++) {
        int d = node_depth(m, m->root[t]);
        if (d > D) D = d;
        walk_cost += mean_leaf_depth(m, m->root[t]);
    }
    /* the perfect layout walks every tree D levels; worth it while that is
     * no more than twice the pointer walk's levels (which also pays an exit
     * misprediction per tree) — boosters whose later trees are stumps are
     * walked by pointer */
    if (D < 1 || D > PERFECT_MAX || m->n_trees < 1 || (double)m->n_trees * D > 2.0 * walk_cost + m->n_trees)
        return;
    size_t n_in = ((size_t)1 << D) - 1, n_leaf = (size_t)1 << D;
    m->pin = malloc(sizeof *m->pin * n_in * (size_t)m->n_trees);
    m->pleaf = malloc(sizeof(float) * n_leaf * (size_t)m->n_trees);
    if (!m->pin || !m->pleaf) {
        free(m->pin);
        free(m->pleaf);
        m->pin = NULL;
        m->pleaf = NULL;
        return;
    }
    for (int t = 0; t < m->n_trees; t++)
        perfect_fill(m, m->pin + (size_t)t * n_in, m->pleaf + (size_t)t * n_leaf, D, m->root[t], 0, 0);
    m->depth = D;
}

void dlp_xgb_free(dlp_xgb *m) {
    if (!m) return;
    if (m->h) XGBoosterFree(m->h);
    free(m->booster);
    trees_free(m);
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
const char *dlp_xgb_feature_at(const dlp_xgb *m, int i) {
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

static int jint_at(const cJSON *arr, int i, int64_t *out) {
    const cJSON *x = cJSON_GetArrayItem(arr, i);
    if (!cJSON_IsNumber(x)) return -1;
    *out = (int64_t)x->valuedouble;
    return 0;
}

/* Keep the booster's UBJSON bytes and flatten its trees (from XGBoost's
 * JSON dump, whose floats round-trip exactly). */
static dlp_status flatten(dlp_xgb *m, dlp_error *err) {
    bst_ulong len;
    const char *buf;
    if (XGBoosterSaveModelToBuffer(m->h, "{\"format\":\"ubj\"}", &len, &buf)) return xgb_fail(err, "serialise");
    free(m->booster);
    m->booster = malloc((size_t)len ? (size_t)len : 1);
    if (!m->booster) return dlp__err(err, DLP_ENOMEM, "xgboost: out of memory");
    memcpy(m->booster, buf, (size_t)len);
    m->booster_len = (size_t)len;
    if (XGBoosterSaveModelToBuffer(m->h, "{\"format\":\"json\"}", &len, &buf)) return xgb_fail(err, "dump");
    cJSON *root = cJSON_ParseWithLength(buf, (size_t)len);
    if (!root) return dlp__err(err, DLP_EINTERNAL, "xgboost: model dump is not JSON");
    dlp_status st = DLP_OK;
    const cJSON *lr = cJSON_GetObjectItemCaseSensitive(root, "learner");
    const cJSON *mp = cJSON_GetObjectItemCaseSensitive(lr, "learner_model_param");
    const cJSON *bs = cJSON_GetObjectItemCaseSensitive(mp, "base_score");
    const cJSON *gb = cJSON_GetObjectItemCaseSensitive(lr, "gradient_booster");
    const cJSON *trees = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(gb, "model"), "trees");
    const cJSON *t;
    int nt = cJSON_GetArraySize(trees), nn = 0;
    if (!cJSON_IsString(bs) || !cJSON_IsArray(trees)) {
        st = dlp__err(err, DLP_EUNSUPPORTED, "xgboost: model dump lacks base_score or trees (not a gbtree?)");
        goto out;
    }
    cJSON_ArrayForEach(t, trees) nn += cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(t, "left_children"));
    trees_free(m);
    if (trees_alloc(m, nt, nn)) {
        st = dlp__err(err, DLP_ENOMEM, "xgboost: out of memory");
        goto out;
    }
    m->base = (float)strtod(bs->valuestring, NULL);
    int off = 0, ti = 0;
    cJSON_ArrayForEach(t, trees) {
        const cJSON *L = cJSON_GetObjectItemCaseSensitive(t, "left_children"),
                    *R = cJSON_GetObjectItemCaseSensitive(t, "right_children"),
                    *F = cJSON_GetObjectItemCaseSensitive(t, "split_indices"),
                    *C = cJSON_GetObjectItemCaseSensitive(t, "split_conditions"),
                    *D = cJSON_GetObjectItemCaseSensitive(t, "default_left"),
                    *ST = cJSON_GetObjectItemCaseSensitive(t, "split_type");
        int k = cJSON_GetArraySize(L);
        m->root[ti++] = off;
        for (int i = 0; i < k; i++) {
            int64_t l, r, f, d, sty = 0;
            const cJSON *c = cJSON_GetArrayItem(C, i);
            if (jint_at(L, i, &l) || jint_at(R, i, &r) || jint_at(F, i, &f) || jint_at(D, i, &d) ||
                !cJSON_IsNumber(c) || (ST && !jint_at(ST, i, &sty) && sty != 0) || l >= k || r >= k) {
                st = dlp__err(err, DLP_EUNSUPPORTED, "xgboost: tree %d node %d is not a numerical split", ti - 1, i);
                goto out;
            }
            m->left[off + i] = l < 0 ? -1 : (int32_t)(off + l);
            m->right[off + i] = r < 0 ? -1 : (int32_t)(off + r);
            m->fidx[off + i] = (int32_t)f;
            m->cond[off + i] = (float)c->valuedouble;
            m->dleft[off + i] = d != 0;
        }
        off += k;
    }
    trees_pack(m);
out:
    cJSON_Delete(root);
    return st;
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
    /* the training data's fingerprint: util's byte hash, chained */
    uint64_t h = dlp__hash_bytes(&n, sizeof n, 0);
    h = dlp__hash_bytes(&n_feat, sizeof n_feat, h);
    h = dlp__hash_bytes(x, sizeof(float) * (size_t)n * (size_t)n_feat, h);
    m->fingerprint = dlp__hash_bytes(y, sizeof(float) * (size_t)n, h);
    if (!st) st = train_booster(x, ty, n, n_feat, NULL, n, &p, &m->h, err);
    if (!st) st = flatten(m, err);
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

/* Leaf reached by one row in the tree rooted at k.  Branch-free step:
 * left when x < cond, or when x is missing (NaN compares false) and the
 * node's default is left — XGBoost's rule. */
static inline float walk(const struct xnode *nd, const float *row, int32_t k) {
    while (nd[k].left >= 0) {
        const struct xnode *p = &nd[k];
        float v = row[p->feat & 0x7fffffff];
        int gl = (v < p->cond) | ((v != v) & (int)((uint32_t)p->feat >> 31));
        k = gl ? p->left : p->right;
    }
    return nd[k].cond;
}

/* One step down a perfect tree: heap child 2i+1 (left) or 2i+2. */
#define PSTEP(in, i, row)                                                                  \
    do {                                                                                   \
        const struct pnode *p_ = &(in)[i];                                                 \
        float v_ = (row)[p_->feat & 0x7fffffff];                                           \
        int gl_ = (v_ < p_->cond) | ((v_ != v_) & (int)((uint32_t)p_->feat >> 31));        \
        (i) = 2 * (i) + 2 - gl_;                                                           \
    } while (0)

/* Sum of a row's leaves over the perfect trees, in tree order. */
static float predict_perfect(const dlp_xgb *m, const float *row) {
    int D = m->depth;
    size_t n_in = ((size_t)1 << D) - 1, n_leaf = (size_t)1 << D;
    float acc = m->base;
    int t = 0;
    for (; t + 4 <= m->n_trees; t += 4) {
        const struct pnode *a = m->pin + (size_t)t * n_in, *b = a + n_in, *c = b + n_in, *d = c + n_in;
        size_t i = 0, j = 0, k = 0, l = 0;
        for (int lv = 0; lv < D; lv++) {
            PSTEP(a, i, row);
            PSTEP(b, j, row);
            PSTEP(c, k, row);
            PSTEP(d, l, row);
        }
        const float *lf = m->pleaf + (size_t)t * n_leaf;
        acc += lf[i - n_in];
        acc += lf[n_leaf + j - n_in];
        acc += lf[2 * n_leaf + k - n_in];
        acc += lf[3 * n_leaf + l - n_in];
    }
    for (; t < m->n_trees; t++) {
        const struct pnode *a = m->pin + (size_t)t * n_in;
        size_t i = 0;
        for (int lv = 0; lv < D; lv++) PSTEP(a, i, row);
        acc += m->pleaf[(size_t)t * n_leaf + i - n_in];
    }
    return acc;
}

dlp_status dlp_xgb_predict(const dlp_xgb *m, const float *x, int64_t n, double *out, dlp_error *err) {
    if (!m || !x || !out || n < 0) return dlp__err(err, DLP_EINVAL, "dlp_xgb_predict: bad arguments");
    if (m->depth) {
        for (int64_t r = 0; r < n; r++) {
            float acc = predict_perfect(m, x + r * m->n_feat);
            out[r] = m->log_target ? exp((double)acc) : (double)acc;
        }
        return DLP_OK;
    }
    /* rows in blocks, trees outer within a block: each tree's nodes stay in
     * cache while the block's rows walk it; every row still sums its leaves
     * in float from base_score in tree order, as XGBoost does */
    enum { BLK = 64 };
    float acc[BLK];
    for (int64_t r0 = 0; r0 < n; r0 += BLK) {
        int nb = n - r0 < BLK ? (int)(n - r0) : BLK;
        for (int i = 0; i < nb; i++) acc[i] = m->base;
        for (int t = 0; t < m->n_trees; t++) {
            int32_t root = m->root[t];
            for (int i = 0; i < nb; i++) acc[i] += walk(m->nodes, x + (r0 + i) * m->n_feat, root);
        }
        for (int i = 0; i < nb; i++) out[r0 + i] = m->log_target ? exp((double)acc[i]) : (double)acc[i];
    }
    return DLP_OK;
}

/* The booster, created from its bytes on first use (loaded models). */
static dlp_status booster(dlp_xgb *m, dlp_error *err) {
    if (m->h) return DLP_OK;
    if (XGBoosterCreate(NULL, 0, &m->h)) return xgb_fail(err, "create");
    if (XGBoosterLoadModelFromBuffer(m->h, m->booster, (bst_ulong)m->booster_len)) {
        dlp_status st = dlp__err(err, DLP_EFORMAT, "xgboost: booster does not load: %s", XGBGetLastError());
        XGBoosterFree(m->h);
        m->h = NULL;
        return st;
    }
    XGBoosterSetParam(m->h, "nthread", "1");
    return DLP_OK;
}

dlp_status dlp__xgb_predict_xgboost(dlp_xgb *m, const float *x, int64_t n, double *out, dlp_error *err) {
    if (!m || !x || !out || n < 0) return dlp__err(err, DLP_EINVAL, "dlp__xgb_predict_xgboost: bad arguments");
    if (n == 0) return DLP_OK;
    dlp_status st = booster(m, err);
    if (!st) st = predict_raw(m->h, x, n, m->n_feat, out, err);
    if (st) return st;
    if (m->log_target)
        for (int64_t i = 0; i < n; i++) out[i] = exp((double)(float)out[i]);
    return DLP_OK;
}

static uint32_t get32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get64(const uint8_t *p) { return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32; }

/* A file of the 28-byte layout (see the top): its three section sizes when
 * the bytes at p (at most `left`) are one, with its header where that layout
 * puts it; 0 otherwise.  A container image has its JSON header at byte 20,
 * where this layout has the tree-table size, so the two never both parse. */
static size_t legacy_sections(const uint8_t *b, size_t left, uint64_t *hl, uint64_t *bl, uint64_t *tl) {
    if (left < LEGACY_FIXED + 4 || memcmp(b, DLP__DLPM_MAGIC, 4) || get32(b + 4) != DLP__DLPM_VERSION) return 0;
    *hl = get32(b + 8), *bl = get64(b + 12), *tl = get64(b + 20);
    if (*hl > left || *bl > left || *tl > left || b[LEGACY_FIXED] != '{') return 0;
    uint64_t len = LEGACY_FIXED + *hl + *bl + *tl + 4;
    return len <= left ? (size_t)len : 0;
}

/* Length of the .dlpm file starting at p (at most `left` bytes), or 0. */
size_t dlp__xgb_file_len(const void *p, size_t left) {
    const uint8_t *b = p;
    if (left > DLP__DLPM_FIXED && b[DLP__DLPM_FIXED] == '{') return dlp__dlpm_image_len(p, left);
    uint64_t hl, bl, tl;
    return legacy_sections(b, left, &hl, &bl, &tl);
}

/* ---- model file -------------------------------------------------------- */

static void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

dlp_status dlp_xgb_save_mem(const dlp_xgb *m, void **buf, size_t *len, dlp_error *err) {
    if (!m || !buf || !len) return dlp__err(err, DLP_EINVAL, "dlp_xgb_save_mem: NULL argument");
    *buf = NULL;
    *len = 0;
    size_t blen = m->booster_len;
    const uint8_t *bdata = m->booster;
    /* tree table: u32 trees, u32 nodes, f32 base, roots, then per node
     * left, right, feature (i32), condition (f32), default-left (u8) */
    size_t tlen = 12 + 4 * (size_t)m->n_trees + 17 * (size_t)m->n_nodes;
    cJSON *hd = cJSON_CreateObject();
    cJSON_AddStringToObject(hd, "kind", "xgboost");
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
    cJSON_AddNumberToObject(hd, "booster_bytes", (double)blen);
    char *hs = cJSON_PrintUnformatted(hd);
    cJSON_Delete(hd);
    uint8_t *b = malloc(blen + tlen);
    if (!hs || !b) {
        free(hs);
        free(b);
        return dlp__err(err, DLP_ENOMEM, "xgboost: out of memory");
    }
    memcpy(b, bdata, blen);
    uint8_t *t = b + blen;
    put32(t, (uint32_t)m->n_trees);
    put32(t + 4, (uint32_t)m->n_nodes);
    uint32_t fb;
    memcpy(&fb, &m->base, 4);
    put32(t + 8, fb);
    t += 12;
    for (int i = 0; i < m->n_trees; i++, t += 4) put32(t, (uint32_t)m->root[i]);
    for (int i = 0; i < m->n_nodes; i++, t += 4) put32(t, (uint32_t)m->left[i]);
    for (int i = 0; i < m->n_nodes; i++, t += 4) put32(t, (uint32_t)m->right[i]);
    for (int i = 0; i < m->n_nodes; i++, t += 4) put32(t, (uint32_t)m->fidx[i]);
    for (int i = 0; i < m->n_nodes; i++, t += 4) {
        memcpy(&fb, &m->cond[i], 4);
        put32(t, fb);
    }
    for (int i = 0; i < m->n_nodes; i++) *t++ = m->dleft[i];
    dlp_status st = dlp__dlpm_pack(hs, strlen(hs), b, (uint64_t)(blen + tlen), buf, len, err);
    free(hs);
    free(b);
    return st;
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
    const uint8_t *b = buf, *booster_at, *t;
    uint64_t hl, bl, tl;
    cJSON *hd = NULL;
    dlp_status st;
    if (legacy_sections(b, len, &hl, &bl, &tl) == len) {
        /* the 28-byte layout: the same CRC over every byte before it */
        if (get32(b + len - 4) != dlp__crc32(0, b, len - 4))
            return dlp__err(err, DLP_ECHECKSUM, "%s: model file corrupted (CRC-32 mismatch)", name);
        if (!(hd = cJSON_ParseWithLength((const char *)b + LEGACY_FIXED, (size_t)hl)))
            return dlp__err(err, DLP_EFORMAT, "%s: header is not valid JSON", name);
        booster_at = b + LEGACY_FIXED + hl;
    } else {
        uint64_t pl;
        if ((st = dlp__dlpm_open(buf, len, name, &hd, &booster_at, &pl, err)) != DLP_OK) return st;
        const cJSON *bb = cJSON_GetObjectItemCaseSensitive(hd, "booster_bytes");
        if (strcmp(dlp__dlpm_kind(hd), "xgboost") != 0 || !cJSON_IsNumber(bb) || bb->valuedouble < 0 ||
            bb->valuedouble > (double)pl) {
            st = strcmp(dlp__dlpm_kind(hd), "xgboost")
                     ? dlp__err(err, DLP_EFORMAT, "%s: a '%s' model, not an XGBoost one", name, dlp__dlpm_kind(hd))
                     : dlp__err(err, DLP_EFORMAT, "%s: header field 'booster_bytes' is missing or out of range", name);
            cJSON_Delete(hd);
            return st;
        }
        bl = (uint64_t)bb->valuedouble;
        tl = pl - bl;
    }
    t = booster_at + bl;
    st = DLP_OK;
    dlp_xgb *m = calloc(1, sizeof *m);
    const cJSON *fe = cJSON_GetObjectItemCaseSensitive(hd, "features");
    const cJSON *lt = cJSON_GetObjectItemCaseSensitive(hd, "log_target");
    const cJSON *ntr = cJSON_GetObjectItemCaseSensitive(hd, "n_train");
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
    m->n_train = cJSON_IsNumber(ntr) ? (int64_t)ntr->valuedouble : 0;
    m->fingerprint = strtoull(fp->valuestring, NULL, 16);
    const cJSON *me = cJSON_GetObjectItemCaseSensitive(hd, "meta"), *kv;
    cJSON_ArrayForEach(kv, me) {
        if (cJSON_IsString(kv) && dlp_xgb_set_meta(m, kv->string, kv->valuestring)) {
            st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", name);
            goto out;
        }
    }
    /* the booster stays bytes until something needs XGBoost itself */
    m->booster = malloc(bl ? (size_t)bl : 1);
    if (!m->booster) {
        st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", name);
        goto out;
    }
    memcpy(m->booster, booster_at, (size_t)bl);
    m->booster_len = (size_t)bl;
    if (tl < 12) {
        st = dlp__err(err, DLP_EFORMAT, "%s: tree table truncated", name);
        goto out;
    }
    uint32_t nt = get32(t), nn = get32(t + 4), fb = get32(t + 8);
    if (nt > tl / 4 || nn > tl / 17 || 12 + 4 * (uint64_t)nt + 17 * (uint64_t)nn != tl) {
        st = dlp__err(err, DLP_EFORMAT, "%s: tree table of %u trees, %u nodes does not match its size", name, nt, nn);
        goto out;
    }
    if (trees_alloc(m, (int)nt, (int)nn)) {
        st = dlp__err(err, DLP_ENOMEM, "%s: out of memory", name);
        goto out;
    }
    memcpy(&m->base, &fb, 4);
    t += 12;
    for (uint32_t i = 0; i < nt; i++, t += 4) m->root[i] = (int32_t)get32(t);
    for (uint32_t i = 0; i < nn; i++, t += 4) m->left[i] = (int32_t)get32(t);
    for (uint32_t i = 0; i < nn; i++, t += 4) m->right[i] = (int32_t)get32(t);
    for (uint32_t i = 0; i < nn; i++, t += 4) m->fidx[i] = (int32_t)get32(t);
    for (uint32_t i = 0; i < nn; i++, t += 4) {
        uint32_t v = get32(t);
        memcpy(&m->cond[i], &v, 4);
    }
    for (uint32_t i = 0; i < nn; i++) m->dleft[i] = *t++;
    /* every index in range: a walk must end at a leaf of its own tree */
    for (uint32_t i = 0; i < nt; i++)
        if (m->root[i] < 0 || (uint32_t)m->root[i] >= nn) {
            st = dlp__err(err, DLP_EFORMAT, "%s: tree %u has no root", name, i);
            goto out;
        }
    for (uint32_t i = 0; i < nn; i++)
        if ((m->left[i] >= 0) != (m->right[i] >= 0) || m->left[i] >= (int32_t)nn || m->right[i] >= (int32_t)nn ||
            (m->left[i] >= 0 && (m->left[i] <= (int32_t)i || m->right[i] <= (int32_t)i)) ||
            (m->left[i] >= 0 && (m->fidx[i] < 0 || m->fidx[i] >= m->n_feat))) {
            st = dlp__err(err, DLP_EFORMAT, "%s: tree node %u is malformed", name, i);
            goto out;
        }
    trees_pack(m);
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
        /* eval's stratified k-fold (dlp_split_kfold): rows sorted by
         * target, each run of k dealt to the k folds in a seeded order */
        double *yd = malloc(sizeof *yd * (size_t)n);
        if (!yd) {
            st = dlp__err(err, DLP_ENOMEM, "dlp_xgb_cv: out of memory");
            goto out;
        }
        for (int64_t i = 0; i < n; i++) yd[i] = y[i];
        st = n > INT32_MAX ? dlp__err(err, DLP_EINVAL, "dlp_xgb_cv: too many rows")
                           : dlp_split_kfold(yd, (int)n, k, seed, fold, err);
        free(yd);
        if (st) goto out;
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
