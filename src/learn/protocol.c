/*
 * protocol.c — the evaluation protocols of docs/gnn.md ("Splits") over a
 * dataset: which samples a device/family selection keeps, how the split
 * (random, family Monte Carlo, stratified k-fold, leave one family out,
 * none) parts them into train/val/test, the seeded train/val limits, and
 * the pool of predictions that reports and metrics are computed from.
 * `dlperf train`, `eval` and `predict-graph` parse the flags (cli/gnn_cli.c)
 * and call these.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* v in the comma list (an empty or NULL list holds everything). */
static int in_list(const char *list, const char *v) {
    if (!list || !list[0]) return 1;
    size_t L = strlen(v);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == L && !strncmp(p, v, n)) return 1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

/* Every name of a comma list must occur in the dataset (a typo is an
 * error, not an empty selection). */
static dlp_status check_names(const char *list, const char *what, const dlp_dataset *ds, int is_dev,
                              dlp_error *err) {
    if (!list || !list[0]) return DLP_OK;
    char buf[512], *items[64], *save = NULL;
    snprintf(buf, sizeof buf, "%s", list);
    int n = 0, N = dlp_dataset_count(ds);
    for (char *t = strtok_r(buf, ",", &save); t && n < 64; t = strtok_r(NULL, ",", &save)) items[n++] = t;
    for (int k = 0; k < n; k++) {
        int found = 0;
        if (is_dev) {
            for (int d = 0; d < dlp_dataset_device_count(ds) && !found; d++)
                found = !strcmp(dlp_dataset_device_at(ds, d), items[k]);
        } else {
            for (int i = 0; i < N && !found; i++) {
                dlp_dataset_sample s;
                s = *dlp_dataset_at(ds, i);
                found = !strcmp(s.family, items[k]);
            }
        }
        if (!found) {
            char msg[sizeof err->msg];
            size_t w = (size_t)snprintf(msg, sizeof msg, "no sample of %s '%s' in the dataset", what, items[k]);
            if (is_dev && w < sizeof msg) {
                w += (size_t)snprintf(msg + w, sizeof msg - w, " (devices:");
                for (int d = 0; d < dlp_dataset_device_count(ds) && d < 40 && w < sizeof msg; d++)
                    w += (size_t)snprintf(msg + w, sizeof msg - w, " %s", dlp_dataset_device_at(ds, d));
                if (w < sizeof msg) snprintf(msg + w, sizeof msg - w, ")");
            }
            return dlp__err(err, DLP_EINVAL, "%s", msg);
        }
    }
    return DLP_OK;
}

dlp_status dlp_dataset_select(const dlp_dataset *ds, const char *devices, const char *families, int *idx, int *n,
                              dlp_error *err) {
    if (!ds || !n || (*n > 0 && !idx)) return dlp__err(err, DLP_EINVAL, "dlp_dataset_select: bad arguments");
    dlp_status st = check_names(devices, "device", ds, 1, err);
    if (!st) st = check_names(families, "family", ds, 0, err);
    if (st) return st;
    int m = 0;
    for (int i = 0; i < *n; i++) {
        dlp_dataset_sample smp;
        smp = *dlp_dataset_at(ds, idx[i]);
        if (in_list(devices, smp.device) && in_list(families, smp.family)) idx[m++] = idx[i];
    }
    *n = m;
    return DLP_OK;
}

/* Keep a seeded random subset of `limit` items of v (order kept), drawn
 * with the library's own random split so it is reproducible. */
static int subset(int *v, int *n, int64_t limit, uint64_t seed) {
    if (!limit || *n <= limit) return 0;
    int *part = malloc(sizeof *part * (size_t)*n);
    if (!part || dlp_split_random(*n, (double)limit / (double)*n, 0, seed, part, NULL) != DLP_OK) {
        free(part);
        return -1;
    }
    int m = 0;
    for (int i = 0; i < *n; i++)
        if (part[i] == DLP_PART_TRAIN) v[m++] = v[i];
    *n = m;
    free(part);
    return 0;
}

void dlp_split_parts_clear(dlp_split_parts *p) {
    if (!p) return;
    free(p->train);
    free(p->val);
    free(p->test);
    memset(p, 0, sizeof *p);
}

/* A random split of the distinct names among samples sel[0..n), in order
 * of first appearance by name (not by sample), then each sample takes its
 * name's part.  The names of the whole dataset are parted, so the part of
 * a name is the same whichever devices were selected. */
static dlp_status split_by_name(const dlp_dataset *ds, const int *sel, int n, const dlp_split_spec *s, uint64_t seed,
                                int *part, dlp_error *err) {
    int N = dlp_dataset_count(ds), nn = 0;
    dlp__strmap map;
    int *of = malloc(sizeof *of * (size_t)(N > 0 ? N : 1)), *npart = malloc(sizeof *npart * (size_t)(N > 0 ? N : 1));
    if (!of || !npart || dlp__strmap_init(&map, (uint32_t)N) != 0) {
        free(of);
        free(npart);
        return dlp__err(err, DLP_ENOMEM, "out of memory");
    }
    dlp_status st = DLP_OK;
    for (int i = 0; i < N && st == DLP_OK; i++) {
        dlp_dataset_sample smp;
        smp = *dlp_dataset_at(ds, i);
        const char *name = smp.name ? smp.name : "";
        int k = dlp__strmap_get(&map, name);
        if (k < 0 && dlp__strmap_put(&map, name, k = nn++) != 0) st = dlp__err(err, DLP_ENOMEM, "out of memory");
        of[i] = k;
    }
    if (st == DLP_OK) st = dlp_split_random(nn, s->train_frac, s->val_frac, seed, npart, err);
    for (int i = 0; i < n && st == DLP_OK; i++) part[i] = npart[of[sel[i]]];
    dlp__strmap_free(&map);
    free(of);
    free(npart);
    return st;
}

dlp_status dlp_dataset_split(const dlp_dataset *ds, const dlp_split_spec *s, uint64_t seed, dlp_split_parts *p,
                             dlp_error *err) {
    if (!p) return dlp__err(err, DLP_EINVAL, "dlp_dataset_split: bad arguments");
    memset(p, 0, sizeof *p);
    if (!ds || !s) return dlp__err(err, DLP_EINVAL, "dlp_dataset_split: bad arguments");
    dlp_status st = check_names(s->devices, "device", ds, 1, err);
    if (!st) st = check_names(s->families, "family", ds, 0, err);
    if (st) return st;
    int N = dlp_dataset_count(ds), n = 0;
    size_t cap = (size_t)(N > 0 ? N : 1);
    int *sel = malloc(sizeof *sel * cap), *part = malloc(sizeof *part * cap);
    const char **fam = malloc(sizeof *fam * cap);
    double *y = malloc(sizeof *y * cap);
    p->train = malloc(sizeof(int) * cap);
    p->val = malloc(sizeof(int) * cap);
    p->test = malloc(sizeof(int) * cap);
    if (!sel || !part || !fam || !y || !p->train || !p->val || !p->test) {
        st = dlp__err(err, DLP_ENOMEM, "out of memory");
        goto out;
    }
    for (int i = 0; i < N; i++) {
        dlp_dataset_sample smp;
        smp = *dlp_dataset_at(ds, i);
        if (!in_list(s->devices, smp.device) || !in_list(s->families, smp.family)) continue;
        fam[n] = smp.family;
        y[n] = smp.targets[0];
        sel[n++] = i;
    }
    p->n_selected = n;
    if (!n) {
        st = dlp__err(err, DLP_EINVAL, "no sample matches the selection");
        goto out;
    }
    if (s->by_name && s->kind != DLP_SPLIT_RANDOM) {
        st = dlp__err(err, DLP_EINVAL, "a split by name is a random split");
        goto out;
    }
    switch (s->kind) {
    case DLP_SPLIT_RANDOM:
        st = s->by_name ? split_by_name(ds, sel, n, s, seed, part, err)
                        : dlp_split_random(n, s->train_frac, s->val_frac, seed, part, err);
        break;
    case DLP_SPLIT_FAMILY_MC: st = dlp_split_family(fam, n, s->train_frac, seed, part, err); break;
    case DLP_SPLIT_KFOLD:
        if (s->fold >= s->k) {
            st = dlp__err(err, DLP_EINVAL, "--fold %d out of range for %d folds", s->fold, s->k);
            goto out;
        }
        st = dlp_split_kfold(y, n, s->k, seed, part, err);
        for (int i = 0; i < n && st == DLP_OK; i++)
            part[i] = part[i] < 0 ? DLP_PART_NONE : part[i] == s->fold ? DLP_PART_TEST : DLP_PART_TRAIN;
        break;
    case DLP_SPLIT_LOFO: st = dlp_split_lofo(fam, n, s->lofo ? s->lofo : "", part, err); break;
    default:
        for (int i = 0; i < n; i++) part[i] = DLP_PART_TRAIN;
    }
    if (st) goto out;
    for (int i = 0; i < n; i++) {
        if (part[i] == DLP_PART_TRAIN) p->train[p->n_train++] = sel[i];
        else if (part[i] == DLP_PART_VAL) p->val[p->n_val++] = sel[i];
        else if (part[i] == DLP_PART_TEST) p->test[p->n_test++] = sel[i];
    }
    /* subsets use their own streams so a limit never changes the split */
    if (subset(p->train, &p->n_train, s->train_limit, seed ^ 0x747261696eULL) ||
        subset(p->val, &p->n_val, s->val_limit, seed ^ 0x76616cULL))
        st = dlp__err(err, DLP_ENOMEM, "out of memory");
out:
    free(sel);
    free(part);
    free(fam);
    free(y);
    if (st) dlp_split_parts_clear(p);
    return st;
}

/* ---- the pool of predictions ----------------------------------------------------- */

dlp_status dlp_eval_preds_add(dlp_eval_preds *p, const dlp_gnn *m, const dlp_dataset *ds, const int *idx, int n,
                              dlp_error *err) {
    if (!p || !m || !ds || n < 0 || (n > 0 && !idx)) return dlp__err(err, DLP_EINVAL, "dlp_eval_preds_add: bad arguments");
    int T = dlp_gnn_target_count(m);
    if (T > DLP_EVAL_MAX_TARGETS) return dlp__err(err, DLP_EINVAL, "more than %d targets", DLP_EVAL_MAX_TARGETS);
    if (p->T == 0) {
        p->T = T;
        for (int k = 0; k < T; k++) snprintf(p->tnames[k], sizeof p->tnames[k], "%s", dlp_gnn_target_at(m, k));
    }
    if (n <= 0) return DLP_OK;
    if (p->n + n > p->cap) {
        int nc = p->cap ? p->cap : 1024;
        while (nc < p->n + n) nc *= 2;
        double *y = realloc(p->y, sizeof *y * (size_t)nc * T);
        if (y) p->y = y;
        double *yh = realloc(p->yhat, sizeof *yh * (size_t)nc * T);
        if (yh) p->yhat = yh;
        const char **f = realloc(p->fam, sizeof *f * (size_t)nc);
        if (f) p->fam = f;
        const char **d = realloc(p->dev, sizeof *d * (size_t)nc);
        if (d) p->dev = d;
        if (!y || !yh || !f || !d) return dlp__err(err, DLP_ENOMEM, "out of memory");
        p->cap = nc;
    }
    float *out = malloc(sizeof *out * (size_t)n * T);
    if (!out) return dlp__err(err, DLP_ENOMEM, "out of memory");
    dlp_status st = dlp_gnn_predict_dataset(m, ds, idx, n, out, err);
    if (st != DLP_OK) {
        free(out);
        return st;
    }
    int tcol[DLP_EVAL_MAX_TARGETS];
    for (int k = 0; k < T; k++) tcol[k] = dlp_dataset_target_index(ds, dlp_gnn_target_at(m, k));
    for (int i = 0; i < n; i++) {
        dlp_dataset_sample s;
        s = *dlp_dataset_at(ds, idx[i]);
        size_t r = (size_t)(p->n + i);
        for (int k = 0; k < T; k++) {
            p->y[r * T + k] = tcol[k] >= 0 ? s.targets[tcol[k]] : NAN;
            p->yhat[r * T + k] = out[(size_t)i * T + k];
        }
        p->fam[r] = s.family;
        p->dev[r] = s.device;
    }
    p->n += n;
    free(out);
    return DLP_OK;
}

void dlp_eval_preds_clear(dlp_eval_preds *p) {
    if (!p) return;
    free(p->y);
    free(p->yhat);
    free(p->fam);
    free(p->dev);
    memset(p, 0, sizeof *p);
}

void dlp_eval_preds_metrics(const dlp_eval_preds *p, int k, dlp_metrics *out) {
    double *a = malloc(sizeof *a * (size_t)(p->n > 0 ? p->n : 1) * 2);
    if (!a) {
        memset(out, 0, sizeof *out);
        return;
    }
    for (int i = 0; i < p->n; i++) {
        a[i] = p->y[(size_t)i * p->T + k];
        a[p->n + i] = p->yhat[(size_t)i * p->T + k];
    }
    dlp_metrics_compute(a, a + p->n, p->n, out);
    free(a);
}
