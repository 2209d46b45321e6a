/*
 * learned.c — the shipped learned models: the "learned" refinement row of
 * dlp_predict's estimator table (src/predict/predict.c).
 *
 * Shipped models are .dlpm GNN/TraPPM files in data/models/learned/ named
 *   <device id>--<mode>--<target>.dlpm     e.g. cpu-amd-epyc-2c--train--step_ms.dlpm
 * compiled into the binary (learned_embed.c).  <target> is one target of
 * the model ("step_ms", "latency_ms", "memory_mb": that one only) or any
 * other word ("all") for every target the model has, so one multi-target
 * file and one file per target both work.  An optional <stem>.txt holds
 * one line on the model's measured accuracy, shown with every number the
 * model gives; without it the line is composed from the model's header
 * (architecture, split, validation MAPE).  Files are taken in name order;
 * the first that gives a quantity wins.
 *
 * Why never fail: a learned model is an improvement over a prediction that
 * already exists.  A model that cannot be used (corrupt file, a feature
 * layout this build does not produce, a non-finite output) leaves the
 * analytic number and says why in learned_note.
 */
#include "predict/learned.h"
#include "predict/predict.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "dlpm/container.h"

/* ---- the bundle ------------------------------------------------------------------ */

static int ends_with(const char *s, const char *suf) {
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && !strcmp(s + n - k, suf);
}

/* "<device>--<mode>--<target>.dlpm" -> fields of e; -1 if the name is not so. */
static int parse_name(dlp__learned_entry *e) {
    char stem[96];
    snprintf(stem, sizeof stem, "%s", e->file);
    stem[strlen(stem) - 5] = 0;                 /* ".dlpm" */
    char *a = strstr(stem, "--");
    char *b = a ? strstr(a + 2, "--") : NULL;
    if (!a || !b || a == stem || b == a + 2 || !b[2] || strstr(b + 2, "--")) return -1;
    *a = 0, *b = 0;
    if ((size_t)(a - stem) >= sizeof e->device || strlen(b + 2) >= sizeof e->target) return -1;
    snprintf(e->device, sizeof e->device, "%s", stem);
    if (!strcmp(a + 2, "infer")) e->mode = DLP_PREDICT_INFER;
    else if (!strcmp(a + 2, "train")) e->mode = DLP_PREDICT_TRAIN;
    else return -1;
    snprintf(e->target, sizeof e->target, "%s", b + 2);
    return 0;
}

/* The model's own account of itself: an "accuracy" string in the header if
 * a producer wrote one, else architecture, split and validation MAPE. */
static void header_accuracy(const unsigned char *buf, size_t len, const dlp_gnn *m, char *out, size_t cap) {
    cJSON *j;
    const uint8_t *pl;
    uint64_t pn;
    if (dlp__dlpm_open(buf, len, "model", &j, &pl, &pn, NULL) == DLP_OK) {
        const cJSON *acc = cJSON_GetObjectItemCaseSensitive(j, "accuracy");
        if (cJSON_IsString(acc) && acc->valuestring[0]) {
            snprintf(out, cap, "%s", acc->valuestring);
            cJSON_Delete(j);
            return;
        }
        cJSON_Delete(j);
    }
    dlp_gnn_info in;
    dlp_gnn_info_get(m, &in);
    int n = snprintf(out, cap, "%s %dx%d, %lld training samples, split %s", dlp_gnn_arch_name(in.arch),
                     in.layers, in.hidden, (long long)in.n_train, in.split && *in.split ? in.split : "?");
    if (n > 0 && (size_t)n < cap) {
        if (isfinite(in.best_val_mape))
            snprintf(out + n, cap - (size_t)n, ", validation MAPE %.1f %%", in.best_val_mape);
        else
            snprintf(out + n, cap - (size_t)n, ", accuracy not recorded");
    }
}

void dlp__learned_set_free(dlp__learned_set *s) {
    if (!s) return;
    for (int i = 0; i < s->n; i++) dlp_gnn_free(s->e[i].model);
    free(s->e);
    s->e = NULL;
    s->n = 0;
}

/* One bundle record: "DLPL <name> <bytes>\n"; 0 and *name, *data, *dlen set,
 * or -1 when the rest is not a record. */
static int next_record(const unsigned char *p, size_t left, char *name, size_t ncap, const unsigned char **data,
                       size_t *dlen, size_t *used) {
    size_t i = 0;
    if (left < 5 || memcmp(p, "DLPL ", 5)) return -1;
    i = 5;
    size_t k = 0;
    while (i < left && p[i] != ' ' && p[i] != '\n') {
        if (k + 1 >= ncap || !isprint(p[i])) return -1;
        name[k++] = (char)p[i++];
    }
    name[k] = 0;
    if (!k || i >= left || p[i] != ' ') return -1;
    i++;
    uint64_t n = 0;
    size_t digits = 0;
    while (i < left && isdigit(p[i]) && digits < 15) n = n * 10 + (uint64_t)(p[i++] - '0'), digits++;
    if (!digits || i >= left || p[i] != '\n') return -1;
    i++;
    if (n > left - i) return -1;
    *data = p + i;
    *dlen = (size_t)n;
    *used = i + (size_t)n;
    return 0;
}

void dlp__learned_parse(const unsigned char *buf, size_t len, dlp__learned_set *out) {
    memset(out, 0, sizeof *out);
    if (!buf) return;
    /* two passes: models first, then their .txt accuracy lines */
    for (int pass = 0; pass < 2; pass++) {
        size_t off = 0, used, dlen;
        const unsigned char *data;
        char name[128];
        while (off < len && !next_record(buf + off, len - off, name, sizeof name, &data, &dlen, &used)) {
            off += used;
            if (pass == 0 && ends_with(name, ".dlpm")) {
                dlp__learned_entry *ne = realloc(out->e, sizeof *ne * (size_t)(out->n + 1));
                if (!ne) return;
                out->e = ne;
                dlp__learned_entry *e = &out->e[out->n++];
                memset(e, 0, sizeof *e);
                snprintf(e->file, sizeof e->file, "%s", name);
                if (strlen(name) >= sizeof e->file || parse_name(e)) {
                    e->mode = -1;
                    snprintf(e->error, sizeof e->error, "name is not <device>--<infer|train>--<target>.dlpm");
                    continue;
                }
                dlp_error err = {0};
                if (dlp_gnn_load_mem(data, dlen, e->file, &e->model, &err)) {
                    e->model = NULL;
                    snprintf(e->error, sizeof e->error, "%.150s", err.msg[0] ? err.msg : "cannot be loaded");
                    continue;
                }
                header_accuracy(data, dlen, e->model, e->accuracy, sizeof e->accuracy);
            } else if (pass == 1 && ends_with(name, ".txt")) {
                size_t sl = strlen(name) - 4;
                for (int i = 0; i < out->n; i++) {
                    dlp__learned_entry *e = &out->e[i];
                    if (strlen(e->file) != sl + 5 || strncmp(e->file, name, sl)) continue;
                    size_t k = 0;
                    while (k < dlen && data[k] != '\n' && k + 1 < sizeof e->accuracy) k++;
                    if (k) {
                        memcpy(e->accuracy, data, k);
                        e->accuracy[k] = 0;
                        while (k && isspace((unsigned char)e->accuracy[k - 1])) e->accuracy[--k] = 0;
                    }
                }
            }
        }
    }
}

int dlp__learned_bundle_has(const unsigned char *buf, size_t len, const char *device, int mode) {
    if (!buf || !device) return 0;
    size_t off = 0, used, dlen;
    const unsigned char *data;
    char name[128];
    /* the walk of dlp__learned_parse's first pass, names only */
    while (off < len && !next_record(buf + off, len - off, name, sizeof name, &data, &dlen, &used)) {
        off += used;
        if (!ends_with(name, ".dlpm")) continue;
        size_t nl = strlen(name);
        if (nl >= sizeof ((dlp__learned_entry *)0)->file) continue;
        dlp__learned_entry e;
        memset(&e, 0, sizeof e);
        memcpy(e.file, name, nl + 1);
        if (parse_name(&e)) continue;
        if (e.mode == mode && !strcmp(e.device, device)) return 1;
    }
    return 0;
}

static dlp__learned_set builtin_set;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static void builtin_load(void) {
    dlp__learned_parse(dlp__learned_bundle, (size_t)dlp__learned_bundle_len, &builtin_set);
}

const dlp__learned_set *dlp__learned_builtin(void) {
    pthread_once(&builtin_once, builtin_load);
    return &builtin_set;
}

/* ---- applying models ------------------------------------------------------------- */

static void note(dlp_prediction *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(dlp_prediction *p, const char *fmt, ...) {
    size_t n = strlen(p->learned_note);
    if (n + 3 >= sizeof p->learned_note) return;
    if (n) n += (size_t)snprintf(p->learned_note + n, sizeof p->learned_note - n, "; ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->learned_note + n, sizeof p->learned_note - n, fmt, ap);
    va_end(ap);
}

/* Index of target `want` in entry e's model (honouring a one-target file
 * name), -1 if it does not give it. */
static int target_index(const dlp__learned_entry *e, const char *want) {
    if (e->target[0] && dlp_gnn_target_count(e->model) > 0) {
        int named = 0;
        for (int k = 0; k < dlp_gnn_target_count(e->model); k++)
            if (!strcmp(dlp_gnn_target_at(e->model, k), e->target)) named = 1;
        if (named && strcmp(e->target, want)) return -1;
    }
    for (int k = 0; k < dlp_gnn_target_count(e->model); k++)
        if (!strcmp(dlp_gnn_target_at(e->model, k), want)) return k;
    return -1;
}

static int layout_current(int layout) {
    return layout == DLP_LAYOUT_TRAPPM ? DLP_LAYOUT_TRAPPM_VERSION
           : layout == DLP_LAYOUT_DIPPM ? DLP_LAYOUT_DIPPM_VERSION : -1;
}

/* Run entry e on graph g (features cached per layout in f[]); 0 and out[]
 * filled, or -1 with a note. */
static int run_model(const dlp__learned_entry *e, const dlp_graph *g, dlp_features **f, float *out,
                     dlp_prediction *p) {
    dlp_gnn_info in;
    dlp_gnn_info_get(e->model, &in);
    int cur = layout_current(in.layout);
    if (cur < 0 || in.layout_version != cur) {
        note(p, "skipped %s: built for %s layout v%d, this dlperf builds v%d", e->file, dlp_layout_name(in.layout),
             in.layout_version, cur);
        return -1;
    }
    int li = in.layout == DLP_LAYOUT_TRAPPM ? 0 : 1;
    if (!f[li]) {
        dlp_error err = {0};
        if (dlp_features_build(g, in.layout, &f[li], &err)) {
            f[li] = NULL;
            note(p, "skipped %s: features: %s", e->file, err.msg);
            return -1;
        }
    }
    dlp_error err = {0};
    if (dlp_gnn_predict(e->model, f[li], out, &err)) {
        note(p, "skipped %s: %s", e->file, err.msg);
        return -1;
    }
    return 0;
}

void dlp__learned_apply(const dlp__learned_set *set, const dlp_graph *g, const dlp_device *d,
                        const dlp_predict_opts *o, dlp_prediction *p) {
    int train = p->mode == DLP_PREDICT_TRAIN;
    double unit0 = train ? p->step_ms : p->latency_ms;
    memset(&p->time_src, 0, sizeof p->time_src);
    memset(&p->memory_src, 0, sizeof p->memory_src);
    p->time_src.analytic = unit0;
    p->memory_src.analytic = p->memory_mb;
    if (!set || !g || !d || (o && o->no_learned)) return;
    const char *want[2] = {train ? "step_ms" : "latency_ms", "memory_mb"};
    dlp_pred_source *src[2] = {&p->time_src, &p->memory_src};
    double val[2] = {NAN, NAN};
    dlp_features *f[2] = {NULL, NULL};
    float *out = NULL;
    for (int i = 0; i < set->n; i++) {
        const dlp__learned_entry *e = &set->e[i];
        if (e->mode != p->mode || strcmp(e->device, d->id)) continue;
        if (!e->model) {
            note(p, "skipped %s: %s", e->file, e->error);
            continue;
        }
        int idx[2] = {-1, -1}, any = 0;
        for (int q = 0; q < 2; q++)
            if (!src[q]->learned && (idx[q] = target_index(e, want[q])) >= 0) any = 1;
        if (!any) continue;
        /* a CPU without native fp16/bf16 computes them in fp32 (cpu.c): the
         * float32 time model describes what runs; memory is the half one */
        if (p->dtype != DLP_DT_FLOAT && dlp__cpu_half_as_fp32(d, p->dtype) && idx[0] >= 0) {
            if (idx[1] >= 0)
                note(p, "skipped %s for memory_mb: trained on float32 measurements, asked for %s", e->file,
                     dlp_dtype_name(p->dtype));
            idx[1] = -1;
        } else if (p->dtype != DLP_DT_FLOAT) {
            note(p, "skipped %s: trained on float32 measurements, asked for %s", e->file, dlp_dtype_name(p->dtype));
            continue;
        }
        int nt = dlp_gnn_target_count(e->model);
        float *no = realloc(out, sizeof *out * (size_t)(nt > 0 ? nt : 1));
        if (!no) break;
        out = no;
        if (run_model(e, g, f, out, p)) continue;
        for (int q = 0; q < 2; q++) {
            if (idx[q] < 0) continue;
            double v = out[idx[q]];
            if (!isfinite(v) || v <= 0) {
                note(p, "skipped %s for %s: it predicted %g", e->file, want[q], v);
                continue;
            }
            val[q] = v;
            src[q]->learned = 1;
            snprintf(src[q]->model, sizeof src[q]->model, "%s", e->file);
            snprintf(src[q]->accuracy, sizeof src[q]->accuracy, "%s", e->accuracy);
        }
    }
    free(out);
    dlp_features_free(f[0]);
    dlp_features_free(f[1]);

    /* a correction, not a replacement: within a factor of the analytic value
     * (predict.h); derive (predict.c) moves throughput, energy, cost, carbon
     * and MIG with it */
    for (int q = 0; q < 2; q++) {
        if (!src[q]->learned) continue;
        double a = src[q]->analytic, v = val[q];
        if (a > 0 && v > a * DLP__LEARNED_MAX_FACTOR) v = a * DLP__LEARNED_MAX_FACTOR;
        if (a > 0 && v < a / DLP__LEARNED_MAX_FACTOR) v = a / DLP__LEARNED_MAX_FACTOR;
        if (v != val[q]) note(p, "%s's %s (%g) held to %gx the analytic %g", src[q]->model, want[q], val[q],
                              DLP__LEARNED_MAX_FACTOR, a);
        val[q] = v;
    }
    if (p->time_src.learned) {
        if (train) p->step_ms = val[0];
        else p->latency_ms = val[0];
        p->band_lo_ms = p->band_hi_ms = 0;         /* the band is the roofline's */
    }
    if (p->memory_src.learned) p->memory_mb = val[1];
}

/* ---- the "learned" row of the estimator table ---------------------------------- */

dlp_status dlp__predict_learned(const dlp_graph *g, const dlp_device *d, const dlp_predict_opts *o,
                                dlp_prediction *out, dlp_error *err) {
    (void)err;
    dlp__learned_apply(dlp__learned_builtin(), g, d, o, out);
    return DLP_OK;
}
