/*
 * store_stats.c — dlp_store_stats_get: what a measurement store holds, for
 * `dlperf data stats` (docs/store.md).  Computed from the runs (one query)
 * and the noise floor; the object keeps the runs alive because its strings
 * point into them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/util.h"

typedef struct {
    dlp_store_stats pub;       /* first: the caller's pointer is this         */
    dlp_store_runs *runs;
    dlp_store_group *groups;
    dlp_store_metric_count *metrics;
    dlp_store_device_stats *devices;
    dlp_store_noise *noise;
} stats_obj;

static int cmp_group(const void *a, const void *b) {
    const dlp_store_group *x = a, *y = b;
    int c = strcmp(x->device, y->device);
    if (!c) c = strcmp(x->mode, y->mode);
    if (!c) c = strcmp(x->family, y->family);
    return c;
}
static int cmp_metric(const void *a, const void *b) {
    const dlp_store_metric_count *x = a, *y = b;
    int c = strcmp(x->device, y->device);
    if (!c) c = strcmp(x->mode, y->mode);
    if (!c) c = strcmp(x->metric, y->metric);
    return c;
}
static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}
static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void dlp_store_stats_free(dlp_store_stats *st) {
    stats_obj *o = (stats_obj *)st;
    if (!o) return;
    dlp_store_runs_free(o->runs);
    free(o->groups);
    free(o->metrics);
    free(o->devices);
    free(o->noise);
    free(o);
}

/* The group of u, appended when new. */
static dlp_store_group *group_of(stats_obj *o, const dlp_store_run *u) {
    dlp_store_group *g = o->groups;
    for (int k = 0; k < o->pub.n_groups; k++)
        if (!strcmp(g[k].device, u->device) && !strcmp(g[k].mode, u->mode) && !strcmp(g[k].family, u->family))
            return &g[k];
    dlp_store_group *x = &g[o->pub.n_groups++];
    x->device = u->device;
    x->mode = u->mode;
    x->family = u->family;
    return x;
}

/* Count the metrics of an ok first measurement; -1 when out of memory. */
static int count_metrics(stats_obj *o, const dlp_store_run *u, int *cap) {
    for (int k = 0; k < u->n_metrics; k++) {
        const dlp_store_metric *m = &u->metrics[k];
        dlp_store_metric_count *y = NULL;
        for (int j = 0; j < o->pub.n_metrics && !y; j++) {
            dlp_store_metric_count *c = &o->metrics[j];
            if (!strcmp(c->device, u->device) && !strcmp(c->mode, u->mode) && !strcmp(c->metric, m->name)) y = c;
        }
        if (!y) {
            if (dlp__grow((void **)&o->metrics, o->pub.n_metrics, cap, sizeof *o->metrics)) return -1;
            y = &o->metrics[o->pub.n_metrics++];
            memset(y, 0, sizeof *y);
            y->device = u->device;
            y->mode = u->mode;
            y->metric = m->name;
        }
        if (m->n > 0 && isfinite(m->mean)) y->with_value++;
        else {
            y->without++;
            y->why_without = m->source;
        }
    }
    return 0;
}

/* Distinct models per group (runs are in id order, not grouped: sort). */
static int group_models(stats_obj *o, int n) {
    int64_t *ids = malloc(sizeof *ids * ((size_t)n + 1));
    if (!ids) return -1;
    for (int k = 0; k < o->pub.n_groups; k++) {
        dlp_store_group *g = &o->groups[k];
        int m = 0;
        for (int i = 0; i < n; i++) {
            const dlp_store_run *u = dlp_store_runs_at(o->runs, i);
            if (!u->repeat_of && !strcmp(g->device, u->device) && !strcmp(g->mode, u->mode) &&
                !strcmp(g->family, u->family))
                ids[m++] = u->model_id;
        }
        qsort(ids, (size_t)m, sizeof *ids, cmp_i64);
        for (int i = 0; i < m; i++) g->models += !i || ids[i] != ids[i - 1];
        qsort(g->batches, (size_t)g->n_batches, sizeof(int64_t), cmp_i64);
    }
    free(ids);
    return 0;
}

/* Distinct models and families among the runs, and the models whose graph
 * file is present beside the store. */
static int models_and_graphs(stats_obj *o, dlp_store *s, int n) {
    int64_t *mids = malloc(sizeof *mids * ((size_t)n + 1));
    if (!mids) return -1;
    for (int i = 0; i < n; i++) mids[i] = dlp_store_runs_at(o->runs, i)->model_id;
    qsort(mids, (size_t)n, sizeof *mids, cmp_i64);
    const char *fams[256];
    int nfam = 0;
    for (int i = 0; i < n; i++) {
        if (i && mids[i] == mids[i - 1]) continue;
        o->pub.models++;
        for (int j = 0; j < n; j++) {
            const dlp_store_run *u = dlp_store_runs_at(o->runs, j);
            if (u->model_id != mids[i]) continue;
            char p[8192];
            struct stat sb;
            snprintf(p, sizeof p, "%s/%s", dlp_store_dir(s), u->onnx_path);
            o->pub.graphs_present += u->onnx_path[0] && stat(p, &sb) == 0;
            int seen = 0;
            for (int k = 0; k < nfam; k++) seen |= !strcmp(fams[k], u->family);
            if (!seen && nfam < 256) fams[nfam++] = u->family;
            break;
        }
    }
    o->pub.families = nfam;
    free(mids);
    return 0;
}

/* Per device: runs, measuring time, first/last start, load at start. */
static int device_stats(stats_obj *o, dlp_store *s, int n) {
    int nd = dlp_store_device_count(s);
    o->devices = calloc((size_t)nd + 1, sizeof *o->devices);
    double *la = malloc(sizeof *la * ((size_t)n + 1));
    if (!o->devices || !la) {
        free(la);
        return -1;
    }
    for (int d = 0; d < nd; d++) {
        dlp_store_device_stats *x = &o->devices[d];
        x->device = dlp_store_device_at(s, d);
        int nla = 0;
        for (int i = 0; i < n; i++) {
            const dlp_store_run *u = dlp_store_runs_at(o->runs, i);
            if (u->device_id != x->device->id) continue;
            x->runs++;
            if (isfinite(u->loadavg)) la[nla++] = u->loadavg;
            if (isfinite(u->wall_s)) x->measuring_s += u->wall_s;
            if (!x->first || strcmp(u->started, x->first) < 0) x->first = u->started;
            if (!x->last || strcmp(u->started, x->last) > 0) x->last = u->started;
        }
        qsort(la, (size_t)nla, sizeof *la, cmp_d);
        x->loadavg_median = nla ? la[nla / 2] : NAN;
        x->loadavg_min = nla ? la[0] : NAN;
        x->loadavg_max = nla ? la[nla - 1] : NAN;
    }
    o->pub.n_devices = nd;
    free(la);
    return 0;
}

dlp_status dlp_store_stats_get(dlp_store *s, dlp_store_stats **out, dlp_error *err) {
    *out = NULL;
    stats_obj *o = calloc(1, sizeof *o);
    if (!o) return dlp__err(err, DLP_ENOMEM, "data stats: out of memory");
    dlp_status st = dlp_store_query(s, NULL, &o->runs, err);
    if (st != DLP_OK) {
        free(o);
        return st;
    }
    int n = dlp_store_runs_count(o->runs), mcap = 0;
    o->pub.runs = n;
    o->groups = calloc((size_t)n + 1, sizeof *o->groups);
    if (!o->groups) goto oom;
    for (int i = 0; i < n; i++) {
        const dlp_store_run *u = dlp_store_runs_at(o->runs, i);
        dlp_store_group *x = group_of(o, u);
        if (u->repeat_of) {
            o->pub.repeats++;
            x->repeats++;
            continue;
        }
        int ok = !strcmp(u->outcome, "ok"), oomr = !strcmp(u->outcome, "oom"), er = !strcmp(u->outcome, "error");
        o->pub.first++;
        o->pub.ok += ok;
        o->pub.oom += oomr;
        o->pub.error += er;
        x->configs++;
        x->ok += ok;
        x->oom += oomr;
        x->error += er;
        int seen = 0;
        for (int k = 0; k < x->n_batches; k++) seen |= x->batches[k] == u->batch;
        if (!seen && x->n_batches < 16) x->batches[x->n_batches++] = u->batch;
        if (ok && count_metrics(o, u, &mcap)) goto oom;
    }
    if (group_models(o, n) || models_and_graphs(o, s, n) || device_stats(o, s, n)) goto oom;
    qsort(o->groups, (size_t)o->pub.n_groups, sizeof *o->groups, cmp_group);
    if (o->metrics) qsort(o->metrics, (size_t)o->pub.n_metrics, sizeof *o->metrics, cmp_metric);
    if ((st = dlp_store_noise_get(s, &o->noise, &o->pub.n_noise, err)) != DLP_OK) {
        dlp_store_stats_free(&o->pub);
        return st;
    }
    o->pub.groups = o->groups;
    o->pub.metrics = o->metrics;
    o->pub.devices = o->devices;
    o->pub.noise = o->noise;
    *out = &o->pub;
    return DLP_OK;
oom:
    dlp_store_stats_free(&o->pub);
    return dlp__err(err, DLP_ENOMEM, "data stats: out of memory");
}
