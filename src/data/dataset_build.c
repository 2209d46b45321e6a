/*
 * dataset_build.c — training sets (dlp_dataset) from measurements:
 *
 *   dlp_dataset_from_store  a dlperf-profile SQLite store (docs/store.md):
 *                           one sample per ok first measurement of a device
 *                           and mode, the graph loaded at the run's batch/seq;
 *   dlp_dataset_from_help   HELP's latency tables (NAS-Bench-201, FBNet):
 *                           every architecture's graph built once per batch
 *                           among the chosen device columns.
 *
 * `dlperf dataset build` parses its flags, calls one of these, saves and
 * prints; messages start "dataset build:" as the command's always did.
 * Progress goes to the caller's callback (the library never prints).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"

#define MAX_TARGETS 32
#define MAX_COLS 128

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* ---- from a measurement store ------------------------------------------------ */

dlp_status dlp_dataset_from_store(const dlp_store_dataset_opts *o, dlp_dataset **out, dlp_store_dataset_info *info,
                                  dlp_error *err) {
    if (out) *out = NULL;
    if (info) memset(info, 0, sizeof *info);
    if (!o || !o->store || !out) return dlp__err(err, DLP_EINVAL, "dlp_dataset_from_store: bad arguments");
    const char *from = o->store, *mode = o->mode ? o->mode : "infer", *family = o->family;
    if (strcmp(mode, "infer") && strcmp(mode, "train") && strcmp(mode, "llm"))
        return dlp__err(err, DLP_EINVAL, "dataset build: --mode '%s' is not infer, train or llm", mode);
    if (o->layout != DLP_LAYOUT_TRAPPM && o->layout != DLP_LAYOUT_DIPPM)
        return dlp__err(err, DLP_EINVAL, "dataset build: layout %d is not trappm or dippm", (int)o->layout);
    const char *dflt = !strcmp(mode, "train") ? "step_ms" : "latency_ms";
    const char *const *tn = o->n_targets > 0 ? o->targets : &dflt;
    int nt = o->n_targets > 0 ? o->n_targets : 1;
    if (nt > MAX_TARGETS) return dlp__err(err, DLP_EINVAL, "dataset build: more than %d targets", MAX_TARGETS);
    dlp_store *s;
    if (dlp_store_open(from, DLP_STORE_READ, &s, err)) return err ? err->code : DLP_EIO;
    dlp_status st = DLP_OK;
    char devs[2048] = "";
    size_t dl = 0;
    for (int d = 0; d < dlp_store_device_count(s) && dl < sizeof devs; d++)
        dl += (size_t)snprintf(devs + dl, sizeof devs - dl, "%s%s", d ? ", " : "", dlp_store_device_at(s, d)->name);
    const dlp_store_device *dv = NULL;
    if (o->device) {
        dv = dlp_store_find_device(s, o->device, NULL);
        if (!dv)
            st = dlp__err(err, DLP_EINVAL, "dataset build: no device '%s' in %s; devices: %s", o->device, from,
                          devs[0] ? devs : "(none)");
    } else if (dlp_store_device_count(s) == 1) {
        dv = dlp_store_device_at(s, 0);
    } else {
        st = dlp__err(err, DLP_EINVAL, "dataset build: %s has %d devices: give --device (one of: %s)", from,
                      dlp_store_device_count(s), devs[0] ? devs : "(none)");
    }
    if (st) {
        dlp_store_close(s);
        return st;
    }
    dlp_store_filter f = {.device = dv->name, .mode = mode, .family = family, .ok_only = 1, .first_only = 1};
    dlp_store_runs *r;
    if (dlp_store_query(s, &f, &r, err)) {
        dlp_store_close(s);
        return err ? err->code : DLP_EIO;
    }
    int n = dlp_store_runs_count(r);
    if (o->limit > 0 && n > o->limit) n = (int)o->limit;
    if (!n) {
        st = dlp__err(err, DLP_EINVAL, "dataset build: %s has no ok %s runs on %s%s%s", from, mode, dv->name,
                      family ? " of family " : "", family ? family : "");
        dlp_store_runs_free(r);
        dlp_store_close(s);
        return st;
    }
    /* every target must be a metric of these runs (a NULL value is fine: NaN) */
    for (int k = 0; k < nt && !st; k++) {
        int found = 0;
        for (int i = 0; i < n && !found; i++) found = dlp_store_run_metric(dlp_store_runs_at(r, i), tn[k]) != NULL;
        if (!found) {
            char have[1024] = "";
            size_t hl = 0;
            const dlp_store_run *u = dlp_store_runs_at(r, 0);
            for (int m = 0; m < u->n_metrics && hl < sizeof have; m++)
                hl += (size_t)snprintf(have + hl, sizeof have - hl, "%s%s", m ? ", " : "", u->metrics[m].name);
            st = dlp__err(err, DLP_EINVAL, "dataset build: no run of %s (%s, %s) has metric '%s'; metrics: %s", from,
                          dv->name, mode, tn[k], have);
        }
    }
    dlp_dataset *ds = NULL;
    if (!st) st = dlp_dataset_new(o->layout, nt, tn, &ds, err);
    if (!st) dlp_dataset_add_device(ds, dv->name);
    dlp__strmap gm;
    dlp__arena keys = {0}; /* the map does not own its keys */
    int have_map = !st && dlp__strmap_init(&gm, (uint32_t)n * 2 + 16) == 0;
    if (!st && !have_map) st = dlp__err(err, DLP_ENOMEM, "dataset build: out of memory");
    for (int i = 0; i < n && !st; i++) {
        const dlp_store_run *u = dlp_store_runs_at(r, i);
        char key[96];
        snprintf(key, sizeof key, "%lld:%lld:%lld", (long long)u->model_id, (long long)u->batch, (long long)u->seq);
        int gid = dlp__strmap_get(&gm, key);
        if (gid < 0) {
            char path[8192];
            if (!u->onnx_path[0]) {
                st = dlp__err(err, DLP_EINTERNAL, "dataset build: model %s (%s) has no graph in %s", u->variant,
                              u->model_hash, from);
                break;
            }
            if (u->onnx_path[0] == '/') snprintf(path, sizeof path, "%s", u->onnx_path);
            else snprintf(path, sizeof path, "%s/%s", dlp_store_dir(s), u->onnx_path);
            dlp_load_opts lo = {.batch = u->batch, .seq = u->seq};
            dlp_graph *g = NULL;
            dlp_features *ft = NULL;
            dlp_error e = {0};
            if (dlp_graph_load(path, &lo, &g, &e) || dlp_features_build(g, o->layout, &ft, &e) ||
                dlp_dataset_add_graph(ds, ft, &gid, &e)) {
                dlp_graph_free(g);
                st = dlp__err(err, e.code, "dataset build: run %lld (%s %s batch %lld): %s", (long long)u->id,
                              u->variant, u->mode, (long long)u->batch, e.msg);
                break;
            }
            dlp_graph_free(g);
            const char *kc = dlp__arena_strdup(&keys, key);
            if (!kc || dlp__strmap_put(&gm, kc, gid)) {
                st = dlp__err(err, DLP_ENOMEM, "dataset build: out of memory");
                break;
            }
        }
        float tv[MAX_TARGETS];
        for (int k = 0; k < nt; k++) {
            const dlp_store_metric *m = dlp_store_run_metric(u, tn[k]);
            tv[k] = m && m->n > 0 && isfinite(m->mean) ? (float)m->mean : NAN;
        }
        if ((st = dlp_dataset_add_sample(ds, gid, tv, u->family, dv->name, u->variant, err))) break;
        if (o->progress) o->progress(o->user, i + 1, n);
    }
    if (!st && info) {
        /* distinct models */
        int64_t *ids = malloc(sizeof *ids * (size_t)n);
        for (int i = 0; ids && i < n; i++) ids[i] = dlp_store_runs_at(r, i)->model_id;
        if (ids) qsort(ids, (size_t)n, sizeof *ids, cmp_i64);
        for (int i = 0; ids && i < n; i++) info->models += !i || ids[i] != ids[i - 1];
        free(ids);
        snprintf(info->device, sizeof info->device, "%s", dv->name);
    }
    if (have_map) dlp__strmap_free(&gm);
    dlp__arena_free(&keys);
    dlp_store_runs_free(r);
    dlp_store_close(s);
    if (st) dlp_dataset_free(ds);
    else *out = ds;
    return st;
}

/* ---- from HELP's latency tables ------------------------------------------------ */

typedef struct {
    char *buf;
    int n_cols;
    char *cols[MAX_COLS];
    char *next; /* first unread row */
} csv_t;

static char *read_all(const char *path, size_t *n) {
    FILE *f = dlp__fopen_regular(path, NULL); /* a named pipe would block */
    if (!f) return NULL;
    size_t cap = 1 << 20, len = 0;
    char *b = malloc(cap + 1);
    while (b) {
        size_t r = fread(b + len, 1, cap - len, f);
        len += r;
        if (len < cap) break;
        char *nb = realloc(b, cap * 2 + 1);
        if (!nb) {
            free(b);
            b = NULL;
            break;
        }
        b = nb;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!b || bad) {
        free(b);
        return NULL;
    }
    b[len] = 0;
    *n = len;
    return b;
}

/* Split one line in place at commas; returns the field count (or -1 when
 * over max).  *p advances past the line. */
static int split_line(char **p, char **fields, int max) {
    char *s = *p, *e = strchr(s, '\n');
    if (e) {
        *e = 0;
        *p = e + 1;
    } else {
        *p = s + strlen(s);
    }
    size_t L = strlen(s);
    if (L && s[L - 1] == '\r') s[L - 1] = 0;
    int n = 0;
    for (;;) {
        if (n >= max) return -1;
        fields[n++] = s;
        char *c = strchr(s, ',');
        if (!c) break;
        *c = 0;
        s = c + 1;
    }
    return n;
}

static int csv_open(const char *path, csv_t *c) {
    size_t n;
    memset(c, 0, sizeof *c);
    errno = 0;
    if (!(c->buf = read_all(path, &n))) return -1;
    c->next = c->buf;
    c->n_cols = split_line(&c->next, c->cols, MAX_COLS);
    return c->n_cols > 0 ? 0 : -1;
}

static int col_index(const csv_t *c, const char *name) {
    for (int i = 0; i < c->n_cols; i++)
        if (!strcmp(c->cols[i], name)) return i;
    return -1;
}

/* Batch of a device column: its "_N" suffix when N is a power of two up to
 * 4096, else 1 (CPU model numbers such as gold_6240 are not batches). */
static int64_t column_batch(const char *col) {
    const char *u = strrchr(col, '_');
    if (!u || !u[1]) return 1;
    char *end;
    errno = 0;
    long v = strtol(u + 1, &end, 10);
    if (*end || errno || v < 1 || v > 4096 || (v & (v - 1))) return 1;
    return v;
}

static float parse_target(const char *s, int *ok) {
    *ok = 1;
    while (isspace((unsigned char)*s)) s++;
    if (!*s || !strcasecmp(s, "nan") || !strcasecmp(s, "na")) return NAN;
    char *end;
    double v = strtod(s, &end);
    while (isspace((unsigned char)*end)) end++;
    if (*end) *ok = 0;
    return (float)v;
}

static dlp_status make_graph(int fbnet, int nb201_mode, const char *arch, int64_t batch, dlp_graph **g,
                             dlp_error *err) {
    if (!fbnet) return dlp_graph_from_nb201_mode(arch, batch, nb201_mode, g, err);
    int ops[DLP_FBNET_LAYERS], n;
    const char *p = arch;
    for (n = 0; n < DLP_FBNET_LAYERS; n++) {
        char *end;
        if (*p < '0' || *p > '9') break;
        long v = strtol(p, &end, 10);
        ops[n] = v > 1000 ? 1000 : (int)v; /* out of range: the builder names it */
        p = end;
        if (n + 1 < DLP_FBNET_LAYERS) {
            if (*p != '-') break;
            p++;
        }
    }
    if (n != DLP_FBNET_LAYERS || *p) {
        *g = NULL;
        return dlp__err(err, DLP_EINVAL, "FBNet arch '%.100s': expected 22 op numbers joined by '-'", arch);
    }
    return dlp_graph_from_fbnet(ops, batch, g, err);
}

dlp_status dlp_dataset_from_help(const dlp_help_dataset_opts *o, dlp_dataset **out, dlp_help_dataset_info *info,
                                 dlp_error *err) {
    if (out) *out = NULL;
    if (info) memset(info, 0, sizeof *info);
    if (!o || !o->table || !o->devices || !out) return dlp__err(err, DLP_EINVAL, "dlp_dataset_from_help: bad arguments");
    int fbnet;
    const char *csv_name, *arch_col, *family;
    if (!strcmp(o->table, "help-nb201")) {
        fbnet = 0;
        csv_name = "nasbench201_latency_ms.csv";
        arch_col = "arch_str";
        family = o->nb201_mode == DLP_NB201_EFFECTIVE ? "nb201-effective" : "nb201";
    } else if (!strcmp(o->table, "help-fbnet")) {
        fbnet = 1;
        csv_name = "fbnet_latency_ms.csv";
        arch_col = "arch_ops_22";
        family = "fbnet";
    } else {
        return dlp__err(err, DLP_EINVAL, "dataset build: --from '%s' is not help-nb201 or help-fbnet", o->table);
    }
    if (o->layout != DLP_LAYOUT_TRAPPM && o->layout != DLP_LAYOUT_DIPPM)
        return dlp__err(err, DLP_EINVAL, "dataset build: layout %d is not trappm or dippm", (int)o->layout);
    char path[4096];
    snprintf(path, sizeof path, "%s/data/HELP/DERIVED_csv/%s", o->shared ? o->shared : "../shared", csv_name);
    csv_t c;
    if (csv_open(path, &c)) {
        free(c.buf);
        return dlp__err(err, DLP_EINVAL, "dataset build: cannot read %s (%s; set --shared DIR or DLP_SHARED)", path,
                        errno ? strerror(errno) : "empty or malformed header");
    }
    int ai = col_index(&c, arch_col);
    if (ai < 0) {
        free(c.buf);
        return dlp__err(err, DLP_EINVAL, "dataset build: %s has no column '%s'", path, arch_col);
    }
    /* device columns: everything after the arch column */
    char valid[2048] = "";
    size_t vl = 0;
    for (int i = ai + 1; i < c.n_cols && vl < sizeof valid; i++)
        vl += (size_t)snprintf(valid + vl, sizeof valid - vl, "%s%s", i > ai + 1 ? ", " : "", c.cols[i]);
    int sel[MAX_COLS], n_sel = 0;
    if (!strcmp(o->devices, "all")) {
        for (int i = ai + 1; i < c.n_cols; i++) sel[n_sel++] = i;
    } else {
        char list[1024];
        snprintf(list, sizeof list, "%s", o->devices);
        char *save = NULL;
        for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            int k = col_index(&c, tok);
            if (k <= ai) {
                free(c.buf);
                return dlp__err(err, DLP_EINVAL, "dataset build: no device column '%s' in %s; valid: %s, all", tok,
                                csv_name, valid);
            }
            int dup = 0;
            for (int j = 0; j < n_sel; j++) dup |= sel[j] == k;
            if (!dup) sel[n_sel++] = k;
        }
    }
    if (!n_sel) {
        free(c.buf);
        return dlp__err(err, DLP_EINVAL, "dataset build: --device '%s' names no column; valid: %s, all", o->devices,
                        valid);
    }
    /* distinct batches among the selected columns */
    int64_t batches[MAX_COLS], col_b[MAX_COLS];
    int n_b = 0;
    for (int j = 0; j < n_sel; j++) {
        col_b[j] = column_batch(c.cols[sel[j]]);
        int seen = 0;
        for (int k = 0; k < n_b; k++) seen |= batches[k] == col_b[j];
        if (!seen) batches[n_b++] = col_b[j];
    }

    static const char *const tn[1] = {"latency_ms"};
    dlp_dataset *ds = NULL;
    dlp_status st = dlp_dataset_new(o->layout, 1, tn, &ds, err);
    if (st) {
        free(c.buf);
        return st;
    }
    for (int j = 0; j < n_sel; j++) dlp_dataset_add_device(ds, c.cols[sel[j]]);
    /* rows: count them first so progress can show a total */
    int64_t total = 0;
    for (const char *q = c.next; *q; q++) total += *q == '\n';
    if (c.next[0] && c.next[strlen(c.next) - 1] != '\n') total++;
    if (o->limit > 0 && total > o->limit) total = o->limit;
    int64_t row = 0;
    char *fields[MAX_COLS];
    while (*c.next && (o->limit <= 0 || row < o->limit)) {
        int line = (int)row + 2;
        int nf = split_line(&c.next, fields, MAX_COLS);
        if (nf == 1 && !fields[0][0]) continue; /* blank line */
        if (nf != c.n_cols) {
            st = dlp__err(err, DLP_EINVAL, "dataset build: %s line %d has %d fields, the header %d", csv_name, line, nf,
                          c.n_cols);
            break;
        }
        const char *arch = fields[ai];
        for (int k = 0; k < n_b && !st; k++) {
            dlp_graph *g = NULL;
            dlp_features *f = NULL;
            dlp_error e = {0};
            int gid;
            if (make_graph(fbnet, o->nb201_mode, arch, batches[k], &g, &e) ||
                dlp_features_build(g, o->layout, &f, &e) || dlp_dataset_add_graph(ds, f, &gid, &e)) {
                dlp_graph_free(g);
                st = dlp__err(err, e.code, "dataset build: %s line %d: %s", csv_name, line, e.msg);
                break;
            }
            dlp_graph_free(g);
            for (int j = 0; j < n_sel && !st; j++) {
                if (col_b[j] != batches[k]) continue;
                int ok;
                float v = parse_target(fields[sel[j]], &ok);
                if (!ok)
                    st = dlp__err(err, DLP_EINVAL, "dataset build: %s line %d column %s: '%s' is not a number", csv_name,
                                  line, c.cols[sel[j]], fields[sel[j]]);
                else
                    st = dlp_dataset_add_sample(ds, gid, &v, family, c.cols[sel[j]], arch, err);
            }
        }
        if (st) break;
        row++;
        if (o->progress) o->progress(o->user, row, total);
    }
    free(c.buf);
    if (st) {
        dlp_dataset_free(ds);
        return st;
    }
    if (info) {
        info->architectures = row;
        info->batches = n_b;
        info->devices = n_sel;
    }
    *out = ds;
    return DLP_OK;
}
