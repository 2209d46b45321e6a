/*
 * lmtext.c — graph summaries (§7.7.3), device descriptions and the
 * pre-training corpus of the language model (lmtext.h, docs/gnnlm.md).
 *
 * Everything written here is deterministic: files and folders are read in
 * sorted order, numbers are printed with fixed precision, and the subsets
 * of the measured tables are chosen by index arithmetic, not at random.
 */
#include "lm/lmtext.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/util.h"

const char *dlp__lm_words(double v, char *buf, size_t n) {
    static const char *u[] = {"thousand", "million", "billion", "trillion", "quadrillion"};
    if (!(fabs(v) >= 1000.0)) {
        snprintf(buf, n, "%.0f", v);
        return buf;
    }
    int k = -1;
    while (fabs(v) >= 1000.0 && k < 4) {
        v /= 1000.0;
        k++;
    }
    snprintf(buf, n, "%.3g %s", v, u[k]);
    return buf;
}

/* ---- the graph summary ------------------------------------------------- */

/* ONNX op type -> the words of the thesis' template ("convolution"). */
static const char *op_words(const char *op) {
    static const char *const tab[][2] = {
        {"Conv", "convolution"}, {"ConvTranspose", "transposed convolution"},
        {"Gemm", "fully connected"}, {"MatMul", "matrix multiplication"},
        {"Relu", "relu"}, {"Clip", "clip (relu6)"}, {"Sigmoid", "sigmoid"},
        {"HardSigmoid", "hard sigmoid"}, {"HardSwish", "hard swish"}, {"Tanh", "tanh"},
        {"Gelu", "gelu"}, {"Erf", "erf"}, {"MaxPool", "max pooling"},
        {"AveragePool", "average pooling"}, {"GlobalAveragePool", "global average pooling"},
        {"Add", "addition"}, {"Mul", "multiplication"}, {"Sub", "subtraction"},
        {"Div", "division"}, {"Concat", "concatenation"}, {"BatchNormalization", "batch normalization"},
        {"LayerNormalization", "layer normalization"}, {"Softmax", "softmax"},
        {"Reshape", "reshape"}, {"Flatten", "flatten"}, {"Transpose", "transpose"},
        {"ReduceMean", "mean reduction"}, {"Dropout", "dropout"}, {"Pad", "padding"},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (!strcmp(tab[i][0], op)) return tab[i][1];
    return op;
}

#define SEQ_OPS 24

static int is_compute(const dlp_node_info *ni) {
    return ni->op_class != DLP_OPC_DATA && strcmp(ni->op_type, "Identity") && strcmp(ni->op_type, "Constant");
}

void dlp__lm_graph_summary(const dlp_graph *g, const char *title, dlp__sb *b) {
    dlp_graph_stats st;
    dlp_graph_stats_get(g, &st);
    int n = dlp_graph_node_count(g);
    dlp_op_total *rows;
    int nr = dlp_graph_op_totals(g, &rows);
    int *depth = calloc((size_t)(n ? n : 1), sizeof *depth);
    int *at = calloc((size_t)(n ? n : 1) + 1, sizeof *at);
    if (nr < 0 || !depth || !at) {
        free(rows);
        free(depth);
        free(at);
        b->oom = 1;
        return;
    }
    int max_depth = 0, width = 0;
    for (int i = 0; i < n; i++) {
        dlp_node_info ni;
        ni = *dlp_graph_node_at(g, i);
        /* nodes are in topological order: a compute node's depth is 1 + its
           deepest producer's; shape / data-movement nodes pass it through and
           are not counted in the width */
        int d = 0, comp = is_compute(&ni);
        for (int p = 0; p < ni.n_preds; p++)
            if (ni.preds[p] >= 0 && ni.preds[p] < i && depth[ni.preds[p]] > d) d = depth[ni.preds[p]];
        d += comp;
        depth[i] = d;
        if (d > max_depth) max_depth = d;
        if (comp && ++at[d] > width) width = at[d];
    }
    char w1[48], w2[48], w3[48];
    const double MiB = 1024.0 * 1024.0;
    dlp__sb_printf(b, "Q: Summarise the graph of %s\n", title ? title : dlp_graph_name(g));
    dlp__sb_printf(b, "A: The graph contains %lld nodes and %lld edges. The batch size is %lld. ",
                   (long long)st.nodes, (long long)st.edges, (long long)(st.batch ? st.batch : 1));
    dlp__sb_printf(b, "The graph has %s FLOPs, %s parameters, and %s MACs. ",
                   dlp__lm_words((double)st.flops, w1, sizeof w1), dlp__lm_words((double)st.params, w2, sizeof w2),
                   dlp__lm_words((double)st.macs, w3, sizeof w3));
    dlp__sb_printf(b, "Its depth is %d operators and its width is %d operators. ", max_depth, width);
    dlp__sb_printf(b, "Weights take %.2f MiB and the peak memory is %.2f MiB.\n", (double)st.weight_bytes / MiB,
                   (double)st.peak_memory_bytes / MiB);
    /* the compute ops in order (shape and data-movement ops left out) */
    dlp__sb_printf(b, "Layer sequence:");
    int shown = 0, more = 0;
    for (int i = 0; i < n; i++) {
        dlp_node_info ni;
        ni = *dlp_graph_node_at(g, i);
        if (!is_compute(&ni)) continue;
        if (shown < SEQ_OPS) dlp__sb_printf(b, "%s %s", shown++ ? "," : "", op_words(ni.op_type));
        else more++;
    }
    if (more) dlp__sb_printf(b, ", and %d more", more);
    dlp__sb_printf(b, ".\nLayer Stats Summary:\n");
    for (int r = 0; r < nr; r++)
        dlp__sb_printf(b, "Layer: %s, Implemented: %lld times, FLOPs: %s, MACs: %s, Parameters: %s\n",
                       op_words(rows[r].op), (long long)rows[r].count,
                       dlp__lm_words((double)rows[r].flops, w1, sizeof w1),
                       dlp__lm_words((double)rows[r].macs, w2, sizeof w2),
                       dlp__lm_words((double)rows[r].params, w3, sizeof w3));
    free(rows);
    free(depth);
    free(at);
}

/* ---- device text ------------------------------------------------------- */

/* 4 significant digits, no trailing zeros: 35600 -> "35600", 35.6 -> "35.6". */
static const char *num(double v, char *buf, size_t n) {
    if (fabs(v) >= 1e4) snprintf(buf, n, "%.0f", v);
    else snprintf(buf, n, "%.4g", v);
    return buf;
}

/* "35.6 TFLOP/s" from GFLOP/s (TFLOP/s at and above 1000). */
static const char *rate(double gflops, const char *unit, char *buf, size_t n) {
    char x[32];
    if (gflops >= 1000) snprintf(buf, n, "%s T%s/s", num(gflops / 1000, x, sizeof x), unit);
    else snprintf(buf, n, "%s G%s/s", num(gflops, x, sizeof x), unit);
    return buf;
}

void dlp__lm_device_text(const dlp_device *d, const char *type, const char *precision,
                         const char *runtime, int64_t batch, dlp__sb *b) {
    char x[48], y[48];
    int cpu = d->kind == DLP_DEVICE_CPU;
    if (!type) type = cpu ? "CPU" : "GPU";
    dlp__sb_printf(b, "Device: %s, a %s", d->name, type);
    const char *arch = d->arch && *d->arch ? d->arch : NULL, *chip = d->chip && *d->chip ? d->chip : NULL;
    if (arch || chip) {
        dlp__sb_printf(b, " (");
        if (arch) dlp__sb_printf(b, "%s architecture", arch);
        if (chip) dlp__sb_printf(b, "%s%s", arch ? ", " : "", chip);
        dlp__sb_printf(b, ")");
    }
    dlp__sb_printf(b, ".");
    if (d->sm_count > 0) {
        dlp__sb_printf(b, " %d %s", d->sm_count, cpu ? (d->sm_count == 1 ? "core" : "cores") : "SMs");
        if (d->fp32_cores_per_sm > 0)
            dlp__sb_printf(b, " with %d FP32 lanes each", d->fp32_cores_per_sm);
        if (d->boost_clock_mhz > 0) dlp__sb_printf(b, " at %s MHz", num(d->boost_clock_mhz, x, sizeof x));
        dlp__sb_printf(b, ".");
    } else if (d->boost_clock_mhz > 0) {
        dlp__sb_printf(b, " Clock %s MHz.", num(d->boost_clock_mhz, x, sizeof x));
    }
    struct {
        const char *what;
        double gflops;
        const char *unit;
    } pk[] = {
        {"FP32", d->peak_fp32_gflops, "FLOP"},
        {"FP64", d->peak_fp64_gflops, "FLOP"},
        {"FP16", d->peak_fp16_gflops, "FLOP"},
        {"FP16 tensor", d->fp16_tensor_tflops * 1000, "FLOP"},
        {"BF16 tensor", d->bf16_tensor_tflops * 1000, "FLOP"},
        {"TF32 tensor", d->tf32_tensor_tflops * 1000, "FLOP"},
        {"FP8 tensor", d->fp8_tensor_tflops * 1000, "FLOP"},
        {"FP4 tensor", d->fp4_tensor_tflops * 1000, "FLOP"},
        {"INT8 tensor", d->int8_tensor_tops * 1000, "OP"},
        {"FP32 matrix", d->fp32_matrix_tflops * 1000, "FLOP"},
    };
    int np = 0;
    for (size_t i = 0; i < sizeof pk / sizeof pk[0]; i++) {
        if (!(pk[i].gflops > 0)) continue;
        dlp__sb_printf(b, "%s%s %s", np ? ", " : " Peak ", pk[i].what, rate(pk[i].gflops, pk[i].unit, y, sizeof y));
        np++;
    }
    if (np) dlp__sb_printf(b, ".");
    if (d->memory_gib > 0 || d->mem_bandwidth_gbs > 0) {
        dlp__sb_printf(b, " Memory");
        if (d->memory_gib > 0) dlp__sb_printf(b, " %s GiB", num(d->memory_gib, x, sizeof x));
        if (d->memory_type && *d->memory_type) dlp__sb_printf(b, " %s", d->memory_type);
        if (d->mem_bandwidth_gbs > 0)
            dlp__sb_printf(b, "%s %s GB/s", d->memory_gib > 0 ? " at" : " bandwidth", num(d->mem_bandwidth_gbs, x, sizeof x));
        dlp__sb_printf(b, ".");
    }
    if (d->l2_cache_mb > 0) dlp__sb_printf(b, " %s cache %s MiB.", cpu ? "Last-level" : "L2", num(d->l2_cache_mb, x, sizeof x));
    if (d->tdp_w > 0) dlp__sb_printf(b, " Power limit %s W.", num(d->tdp_w, x, sizeof x));
    if (precision || runtime || batch > 0) {
        dlp__sb_printf(b, " Setting:");
        int k = 0;
        if (precision) dlp__sb_printf(b, " precision %s", precision), k++;
        if (runtime) dlp__sb_printf(b, "%s runtime %s", k++ ? "," : "", runtime);
        if (batch > 0) dlp__sb_printf(b, "%s batch %lld", k++ ? "," : "", (long long)batch);
        dlp__sb_printf(b, ".");
    }
    dlp__sb_printf(b, "\n");
}

/* ---- devices outside the database (HELP, NNLQP, timm) ----------------- */

typedef struct {
    const char *key;            /* HELP / timm name                             */
    const char *db;             /* device database name, or NULL: described    */
    const char *name, *type, *arch, *chip;
    int cores;
    double clock_mhz;
    double mem_gib, bw_gbs;
    const char *mem_type;
} ext_dev;

/* Public product facts only (core counts, base clocks); 0 / NULL: left out. */
static const ext_dev ext_devs[] = {
    {"1080ti", "1080ti", 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"2080ti", "2080ti", 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"titan_rtx", "titan_rtx", 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"titanx", "titanx", 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"titanxp", "titanxp", 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"rtx3090", "rtx3090", 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"gold_6240", NULL, "Intel Xeon Gold 6240", "server CPU", "Cascade Lake", 0, 18, 2600, 0, 0, 0},
    {"silver_4114", NULL, "Intel Xeon Silver 4114", "server CPU", "Skylake-SP", 0, 10, 2200, 0, 0, 0},
    {"silver_4210r", NULL, "Intel Xeon Silver 4210R", "server CPU", "Cascade Lake", 0, 10, 2400, 0, 0, 0},
    {"essential_ph_1", NULL, "Essential Phone PH-1", "mobile phone", NULL, "Qualcomm Snapdragon 835", 8, 0, 0, 0, 0},
    {"pixel3", NULL, "Google Pixel 3", "mobile phone", NULL, "Qualcomm Snapdragon 845", 8, 0, 0, 0, 0},
    {"samsung_a50", NULL, "Samsung Galaxy A50", "mobile phone", NULL, "Samsung Exynos 9610", 8, 0, 0, 0, 0},
    {"samsung_s7", NULL, "Samsung Galaxy S7", "mobile phone", NULL, NULL, 0, 0, 0, 0, 0},
    {"i9_10940x", NULL, "Intel Core i9-10940X", "desktop CPU", "Cascade Lake", 0, 14, 3300, 0, 0, 0},
    {"i7_12700h", NULL, "Intel Core i7-12700H", "laptop CPU", "Alder Lake", 0, 14, 0, 0, 0, 0},
    {"gtx1660", NULL, "NVIDIA GeForce GTX 1660", "GPU", "turing", "TU116", 22, 1785, 6, 192, "GDDR5"},
};

static const ext_dev *ext_find(const char *key) {
    for (size_t i = 0; i < sizeof ext_devs / sizeof ext_devs[0]; i++)
        if (!strcmp(ext_devs[i].key, key)) return &ext_devs[i];
    return NULL;
}

/* The device of ext entry e: from the database, else filled in *tmp. */
static const dlp_device *ext_device(const dlp_devdb *db, const ext_dev *e, dlp_device *tmp,
                                    const char **type) {
    *type = NULL;
    if (e->db) {
        const dlp_device *d = dlp_devdb_find(db, e->db);
        if (d) return d;
    }
    memset(tmp, 0, sizeof *tmp);
    tmp->id = e->key;
    tmp->name = e->name ? e->name : e->key;
    tmp->arch = e->arch;
    tmp->chip = e->chip;
    tmp->sm_count = e->cores;
    tmp->boost_clock_mhz = e->clock_mhz;
    tmp->memory_gib = e->mem_gib;
    tmp->mem_bandwidth_gbs = e->bw_gbs;
    tmp->memory_type = e->mem_type;
    tmp->kind = e->type && strstr(e->type, "GPU") ? DLP_DEVICE_GPU : DLP_DEVICE_CPU;
    if (e->type && !strcmp(e->type, "GPU")) tmp->fp32_cores_per_sm = 64;
    *type = e->type;
    return tmp;
}

/* ---- corpus ------------------------------------------------------------ */

const char *const dlp__lm_corpus_files[3] = {"graphs.txt", "devices.txt", "perf.txt"};

typedef struct {
    char **v;
    int n, cap;
} strvec;

static int sv_push(strvec *s, const char *p) {
    if (dlp__grow((void **)&s->v, s->n + 1, &s->cap, sizeof *s->v)) return -1;
    if (!(s->v[s->n] = strdup(p))) return -1;
    s->n++;
    return 0;
}
static void sv_free(strvec *s) {
    for (int i = 0; i < s->n; i++) free(s->v[i]);
    free(s->v);
}
static int str_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int has_suffix(const char *s, const char *x) {
    size_t a = strlen(s), b = strlen(x);
    return a >= b && !strcmp(s + a - b, x);
}

/* ONNX files under path (a file or a folder, recursive), in sorted order. */
static int collect_onnx(const char *path, strvec *out, int depth) {
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    if (!S_ISDIR(st.st_mode)) return sv_push(out, path);
    if (depth > 16) return 0;
    DIR *dir = opendir(path);
    if (!dir) return -1;
    strvec names = {0};
    struct dirent *de;
    while ((de = readdir(dir)))
        if (de->d_name[0] != '.') sv_push(&names, de->d_name);
    closedir(dir);
    qsort(names.v, (size_t)names.n, sizeof *names.v, str_cmp);
    for (int i = 0; i < names.n; i++) {
        size_t l = strlen(path) + strlen(names.v[i]) + 2;
        char *p = malloc(l);
        if (!p) continue;
        snprintf(p, l, "%s/%s", path, names.v[i]);
        struct stat s2;
        if (stat(p, &s2) == 0 && (S_ISDIR(s2.st_mode) ? 1 : has_suffix(p, ".onnx")))
            collect_onnx(p, out, depth + 1);
        free(p);
    }
    sv_free(&names);
    return 0;
}

/* H and W of file's line in manifest.jsonl beside it, when there is one. */
static void manifest_hw(const char *file, int64_t hw[2]) {
    const char *base = dlp__basename(file);
    char mp[4096];
    snprintf(mp, sizeof mp, "%.*smanifest.jsonl", (int)(base - file), file);
    FILE *f = fopen(mp, "r");
    if (!f) return;
    char line[4096], key[1100];
    snprintf(key, sizeof key, "\"file\": \"%s\"", base);
    while (fgets(line, sizeof line, f)) {
        if (!strstr(line, key)) continue;
        const char *in = strstr(line, "\"input\": [");
        long long v[4];
        if (in && sscanf(in + 10, "%lld, %lld, %lld, %lld", &v[0], &v[1], &v[2], &v[3]) == 4 && v[2] > 0 && v[3] > 0) {
            hw[0] = v[2];
            hw[1] = v[3];
        }
        break;
    }
    fclose(f);
}

typedef struct {
    FILE *f;
    int64_t docs, bytes;
} out_file;

static void put_doc(out_file *o, dlp__sb *b) {
    if (!b->len) return;
    fwrite(b->s, 1, b->len, o->f);
    fputc('\n', o->f);          /* documents end with "\n\n" */
    o->docs++;
    o->bytes += (int64_t)b->len + 1;
    b->len = 0;
    if (b->s) b->s[0] = 0;
}

static void warnf(const dlp__lm_corpus_opts *o, const char *fmt, ...) {
    if (!o->warn) return;
    char m[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    o->warn(o->warn_user, m);
}

/* A CSV read into lines; fields are split in place by csv_fields. */
typedef struct {
    char *text;
    char **line;
    int n;
} csv_t;

static int csv_read(const char *path, csv_t *c) {
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    dlp__sb b = {0};
    char buf[65536];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0) dlp__sb_printf(&b, "%.*s", (int)k, buf);
    fclose(f);
    if (b.oom || !b.s) {
        dlp__sb_free(&b);
        return -1;
    }
    c->text = b.s;
    int cap = 0;
    for (char *p = c->text; *p;) {
        char *e = strchr(p, '\n');
        if (e) *e = 0;
        if (e && e > p && e[-1] == '\r') e[-1] = 0;
        if (*p && !dlp__grow((void **)&c->line, c->n + 1, &cap, sizeof *c->line)) c->line[c->n++] = p;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}
static void csv_free(csv_t *c) {
    free(c->text);
    free(c->line);
}
/* Split line s at commas into f (at most max); returns the count. */
static int csv_fields(char *s, char **f, int max) {
    int n = 0;
    for (char *p = s; n < max;) {
        f[n++] = p;
        char *c = strchr(p, ',');
        if (!c) break;
        *c = 0;
        p = c + 1;
    }
    return n;
}

#define MAX_COLS 64

/* "titan_rtx_32" -> key "titan_rtx", batch 32 */
static const ext_dev *ext_find(const char *key);
static void help_setting(const char *col, char *key, size_t n, int64_t *batch) {
    const char *u = strrchr(col, '_');
    if (ext_find(col)) u = NULL;    /* a device name ending in digits: gold_6240, essential_ph_1 */
    char *end;
    long v = u ? strtol(u + 1, &end, 10) : 0;
    if (u && *end == 0 && v > 0) {
        snprintf(key, n, "%.*s", (int)(u - col), col);
        *batch = v;
    } else {
        snprintf(key, n, "%s", col);
        *batch = 1;
    }
}

/* Is name one of the comma list's items (list may be NULL)? */
static int in_list(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, ',');
        size_t k = e ? (size_t)(e - p) : strlen(p);
        if (k == n && !strncmp(p, name, n)) return 1;
        p = e ? e + 1 : NULL;
    }
    return 0;
}

/* The description of a device setting named like a HELP column
 * ("titan_rtx_32", "gold_6240"), a database id ("h100-sxm") or a database
 * id with a batch suffix; -1 when the name is neither. */
int dlp__lm_setting_text(const dlp_devdb *db, const char *setting, dlp__sb *b) {
    char key[64];
    int64_t batch;
    help_setting(setting, key, sizeof key, &batch);
    const ext_dev *x = ext_find(key);
    const dlp_device *d = NULL;
    const char *type = NULL;
    dlp_device tmp;
    if (x) d = ext_device(db, x, &tmp, &type);
    else if (!(d = dlp_devdb_find(db, key))) {
        batch = 0;
        if (!(d = dlp_devdb_find(db, setting))) return -1;
    }
    dlp__lm_device_text(d, type, NULL, NULL, batch, b);
    return 0;
}

static const char *help_space_name(int fb) { return fb ? "FBNet" : "NAS-Bench-201"; }

/* HELP: graph summaries (one per arch, batch 1) and latency statements (a
 * third of the device settings per arch, chosen by index). */
static dlp_status help_space(const dlp__lm_corpus_opts *o, int fb, out_file *og, out_file *op,
                             dlp_error *err) {
    char path[4096];
    snprintf(path, sizeof path, "%s/data/HELP/DERIVED_csv/%s", o->shared,
             fb ? "fbnet_latency_ms.csv" : "nasbench201_latency_ms.csv");
    csv_t c;
    if (csv_read(path, &c) != 0) return dlp__err(err, DLP_EIO, "%s: cannot read (%s)", path, strerror(errno));
    if (c.n < 2) {
        csv_free(&c);
        return dlp__err(err, DLP_EFORMAT, "%s: no rows", path);
    }
    char *hdr[MAX_COLS];
    int nh = csv_fields(c.line[0], hdr, MAX_COLS);
    dlp__sb b = {0};
    const dlp_devdb *db = o->db;
    int64_t limit = o->nas_limit > 0 ? o->nas_limit : INT64_MAX;
    dlp_status st = DLP_OK;
    for (int r = 1; r < c.n && r - 1 < limit; r++) {
        char *f[MAX_COLS];
        int nf = csv_fields(c.line[r], f, MAX_COLS);
        if (nf != nh) {
            st = dlp__err(err, DLP_EFORMAT, "%s: line %d has %d fields, the header %d", path, r + 1, nf, nh);
            break;
        }
        dlp_graph *g = NULL;
        dlp_error ge = {0};
        char title[256];
        if (fb) {
            int ops[DLP_FBNET_LAYERS], k = 0;
            for (char *p = f[1]; k < DLP_FBNET_LAYERS && *p; k++) {
                ops[k] = (int)strtol(p, &p, 10);
                if (*p == '-') p++;
            }
            if (k == DLP_FBNET_LAYERS) dlp_graph_from_fbnet(ops, 1, &g, &ge);
            snprintf(title, sizeof title, "the FBNet architecture %s", f[1]);
        } else {
            dlp_graph_from_nb201_mode(f[1], 1, DLP_NB201_EXECUTED, &g, &ge);
            snprintf(title, sizeof title, "the NAS-Bench-201 cell %s", f[1]);
        }
        if (!g) {
            warnf(o, "%s line %d: %s", path, r + 1, ge.msg);
            continue;
        }
        dlp__lm_graph_summary(g, title, &b);
        put_doc(og, &b);
        dlp_graph_free(g);
        for (int j = 2; j < nh; j++) {
            if ((r + j) % 3 != 0 || in_list(o->holdout, hdr[j])) continue;
            char *e;
            double ms = strtod(f[j], &e);
            if (e == f[j] || !(ms > 0)) continue;
            char key[64];
            int64_t batch;
            help_setting(hdr[j], key, sizeof key, &batch);
            const ext_dev *x = ext_find(key);
            dlp_device tmp;
            const char *type;
            const dlp_device *d = x ? ext_device(db, x, &tmp, &type) : NULL;
            dlp__sb_printf(&b, "The %s %s %s at batch %lld on the %s runs in %.4g ms (HELP, %s).\n",
                           help_space_name(fb), fb ? "architecture" : "cell", f[1], (long long)batch,
                           d ? d->name : key, ms, hdr[j]);
            put_doc(op, &b);
        }
    }
    dlp__sb_free(&b);
    csv_free(&c);
    return st;
}

/* "benchmark-infer-amp-nchw-pt240-cu124-rtx3090.csv" -> its parts. */
typedef struct {
    int train, amp;
    char layout[8], torch[16], dev[32];
    int compiled;
} timm_file;

static int timm_parse(const char *name, timm_file *t) {
    memset(t, 0, sizeof *t);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", name);
    if (strncmp(buf, "benchmark-", 10) || !has_suffix(buf, ".csv")) return -1;
    buf[strlen(buf) - 4] = 0;
    char *parts[8];
    int n = 0;
    for (char *p = buf + 10; n < 8;) {
        parts[n++] = p;
        char *d = strchr(p, '-');
        if (!d) break;
        *d = 0;
        p = d + 1;
    }
    if (n < 6) return -1;
    t->train = !strcmp(parts[0], "train");
    t->amp = !strcmp(parts[1], "amp");
    snprintf(t->layout, sizeof t->layout, "%s", parts[2]);
    for (char *q = t->layout; *q; q++) *q = (char)(*q - 'a' + 'A');
    const char *v = parts[3];
    if (strncmp(v, "pt", 2) || strlen(v) != 5) return -1;
    if (v[2] == '1') snprintf(t->torch, sizeof t->torch, "%c.%c%c", v[2], v[3], v[4]);
    else if (v[4] == '0') snprintf(t->torch, sizeof t->torch, "%c.%c", v[2], v[3]);
    else snprintf(t->torch, sizeof t->torch, "%c.%c.%c", v[2], v[3], v[4]);
    snprintf(t->dev, sizeof t->dev, "%s", !strcmp(parts[4], "cpu") ? parts[5] : parts[5]);
    t->compiled = n > 6 && !strcmp(parts[6], "dynamo");
    return 0;
}

/* timm benchmarks: one statement per model and file. */
static dlp_status timm_statements(const dlp__lm_corpus_opts *o, out_file *op, strvec *settings,
                                  dlp_error *err) {
    char dirp[4096];
    snprintf(dirp, sizeof dirp, "%s/data/pytorch-image-models/results", o->shared);
    DIR *dir = opendir(dirp);
    if (!dir) return DLP_OK;    /* an absent set is no error: fewer statements */
    strvec files = {0};
    struct dirent *de;
    while ((de = readdir(dir)))
        if (!strncmp(de->d_name, "benchmark-", 10) && has_suffix(de->d_name, ".csv")) sv_push(&files, de->d_name);
    closedir(dir);
    qsort(files.v, (size_t)files.n, sizeof *files.v, str_cmp);
    dlp__sb b = {0};
    dlp_status st = DLP_OK;
    for (int i = 0; i < files.n && st == DLP_OK; i++) {
        timm_file t;
        if (timm_parse(files.v[i], &t)) continue;
        const ext_dev *x = ext_find(t.dev);
        if (!x) continue;
        dlp_device tmp;
        const char *type;
        const dlp_device *d = ext_device(o->db, x, &tmp, &type);
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dirp, files.v[i]);
        csv_t c;
        if (csv_read(path, &c) != 0) {
            st = dlp__err(err, DLP_EIO, "%s: cannot read (%s)", path, strerror(errno));
            break;
        }
        char *hdr[MAX_COLS];
        int nh = c.n ? csv_fields(c.line[0], hdr, MAX_COLS) : 0;
        int cm = -1, cs = -1, ct = -1, cb = -1, ci = -1, cp = -1, cg = -1;
        for (int j = 0; j < nh; j++) {
            if (!strcmp(hdr[j], "model")) cm = j;
            else if (strstr(hdr[j], "samples_per_sec")) cs = j;
            else if (strstr(hdr[j], "step_time")) ct = j;
            else if (strstr(hdr[j], "batch_size")) cb = j;
            else if (strstr(hdr[j], "img_size")) ci = j;
            else if (!strcmp(hdr[j], "param_count")) cp = j;
            else if (!strcmp(hdr[j], "infer_gmacs")) cg = j;
        }
        if (cm < 0 || cs < 0 || cb < 0) {
            csv_free(&c);
            continue;
        }
        char setting[256];
        snprintf(setting, sizeof setting, "%s|%s|%s|%s|%s", t.dev, t.amp ? "fp16 (AMP)" : "fp32", t.layout, t.torch,
                 t.compiled ? "1" : "0");
        sv_push(settings, setting);
        for (int r = 1; r < c.n; r++) {
            char *f[MAX_COLS];
            int nf = csv_fields(c.line[r], f, MAX_COLS);
            if (nf != nh) continue;
            double sps = strtod(f[cs], NULL);
            if (!(sps > 0)) continue;
            double bs = strtod(f[cb], NULL), img = ci >= 0 ? strtod(f[ci], NULL) : 0;
            dlp__sb_printf(&b, "%s", f[cm]);
            if (img > 0) dlp__sb_printf(&b, " (%.0fx%.0f input)", img, img);
            dlp__sb_printf(&b, " at batch %.0f on the %s in %s (%sPyTorch %s%s) %s at %.6g samples/s",
                           bs, d->name, t.amp ? "fp16" : "fp32", t.amp ? "AMP, " : "", t.torch,
                           t.compiled ? ", torch.compile" : "", t.train ? "trains" : "runs inference", sps);
            if (ct >= 0) dlp__sb_printf(&b, ", %s ms per step", f[ct]);
            dlp__sb_printf(&b, "; %s layout", t.layout);
            if (cp >= 0) dlp__sb_printf(&b, ", %s M parameters", f[cp]);
            if (cg >= 0) dlp__sb_printf(&b, ", %s GMACs", f[cg]);
            dlp__sb_printf(&b, " (timm benchmark).\n");
            put_doc(op, &b);
        }
        csv_free(&c);
    }
    dlp__sb_free(&b);
    sv_free(&files);
    return st;
}

static dlp_status devices_text(const dlp__lm_corpus_opts *o, out_file *od, const strvec *timm) {
    dlp__sb b = {0};
    static const char *prec[] = {"fp32", "fp16", "bf16", "fp8"};
    static const int dt[] = {DLP_DT_FLOAT, DLP_DT_FLOAT16, DLP_DT_BFLOAT16, DLP_DT_FLOAT8E4M3FN};
    static const int64_t batches[] = {1, 8, 32, 128};
    for (int i = 0; i < dlp_devdb_count(o->db); i++) {
        const dlp_device *d = dlp_devdb_at(o->db, i);
        dlp__lm_device_text(d, NULL, NULL, NULL, 0, &b);
        put_doc(od, &b);
        for (int p = 0; p < 4; p++) {
            if (!dlp_device_supports_dtype(d, dt[p])) continue;
            dlp__lm_device_text(d, NULL, prec[p], "PyTorch", batches[(i + p) % 4], &b);
            put_doc(od, &b);
        }
    }
    /* the HELP settings (both spaces' columns), NNLQP's GTX 1660, the timm settings */
    static const char *help_cols[] = {
        "1080ti_1", "1080ti_32", "1080ti_64", "1080ti_256", "2080ti_1", "2080ti_32", "2080ti_64", "2080ti_256",
        "essential_ph_1", "gold_6240", "pixel3", "samsung_a50", "samsung_s7", "silver_4114", "silver_4210r",
        "titan_rtx_1", "titan_rtx_32", "titan_rtx_64", "titanx_1", "titanx_32", "titanx_64", "titanx_256",
        "titanxp_1", "titanxp_32", "titanxp_64", "titanxp_256"};
    for (size_t i = 0; i < sizeof help_cols / sizeof help_cols[0]; i++) {
        char key[64];
        int64_t batch;
        help_setting(help_cols[i], key, sizeof key, &batch);
        const ext_dev *x = ext_find(key);
        if (!x) continue;
        dlp_device tmp;
        const char *type;
        const dlp_device *d = ext_device(o->db, x, &tmp, &type);
        dlp__lm_device_text(d, type, NULL, NULL, batch, &b);
        put_doc(od, &b);
    }
    {
        dlp_device tmp;
        const char *type;
        const dlp_device *d = ext_device(o->db, ext_find("gtx1660"), &tmp, &type);
        dlp__lm_device_text(d, type, NULL, NULL, 1, &b);
        dlp__sb_printf(&b, "NNLQP measured model latency on this GPU.\n");
        put_doc(od, &b);
    }
    for (int i = 0; i < timm->n; i++) {
        char s[256], *f[5];
        snprintf(s, sizeof s, "%s", timm->v[i]);
        int n = 0;
        for (char *p = s; n < 5;) {
            f[n++] = p;
            char *q = strchr(p, '|');
            if (!q) break;
            *q = 0;
            p = q + 1;
        }
        if (n != 5) continue;
        const ext_dev *x = ext_find(f[0]);
        if (!x) continue;
        dlp_device tmp;
        const char *type;
        const dlp_device *d = ext_device(o->db, x, &tmp, &type);
        char rt[96];
        snprintf(rt, sizeof rt, "PyTorch %s%s, %s layout", f[3], !strcmp(f[4], "1") ? " with torch.compile" : "", f[2]);
        dlp__lm_device_text(d, type, f[1], rt, 0, &b);
        put_doc(od, &b);
    }
    int oom = b.oom;
    dlp__sb_free(&b);
    return oom ? DLP_ENOMEM : DLP_OK;
}

dlp_status dlp__lm_corpus_build(const char *out, const dlp__lm_corpus_opts *o0,
                                dlp__lm_corpus_report *rep, dlp_error *err) {
    memset(rep, 0, sizeof *rep);
    dlp__lm_corpus_opts o = *o0;
    dlp_devdb *own = NULL;
    if (!o.db) {
        dlp_status s = dlp_devdb_load(NULL, &own, err);
        if (s) return s;
        o.db = own;
    }
    if (mkdir(out, 0777) != 0 && errno != EEXIST) {
        dlp_devdb_free(own);
        return dlp__err(err, DLP_EIO, "%s: cannot create the folder (%s)", out, strerror(errno));
    }
    out_file of[3] = {{0}};
    char tmp[3][4096];
    dlp_status st = DLP_OK;
    for (int i = 0; i < 3; i++) {
        snprintf(tmp[i], sizeof tmp[i], "%s/%s.tmp", out, dlp__lm_corpus_files[i]);
        if (!(of[i].f = fopen(tmp[i], "wb"))) {
            st = dlp__err(err, DLP_EIO, "%s: cannot write (%s)", tmp[i], strerror(errno));
            goto done;
        }
    }
    /* 1. graphs: the ONNX files, then the NAS spaces (with their statements) */
    strvec files = {0};
    for (int i = 0; i < o.n_graphs; i++)
        if (collect_onnx(o.graphs[i], &files, 0) != 0) {
            sv_free(&files);
            st = dlp__err(err, DLP_EIO, "%s: cannot read (%s)", o.graphs[i], strerror(errno));
            goto done;
        }
    dlp__sb b = {0};
    for (int i = 0; i < files.n; i++) {
        static const int64_t batches[] = {1, 8, 32};
        dlp_load_opts lo;
        memset(&lo, 0, sizeof lo);
        lo.batch = batches[i % 3];
        /* image size: the folder's manifest.jsonl ("input": [N, C, H, W]) or 224 */
        int64_t hw[2] = {224, 224};
        manifest_hw(files.v[i], hw);
        static const char *const dn[] = {"height", "width"};
        lo.n_dims = 2;
        lo.dim_names = dn;
        lo.dim_values = hw;
        dlp_graph *g;
        dlp_error ge = {0};
        if (dlp_graph_load(files.v[i], &lo, &g, &ge) != DLP_OK) {
            warnf(&o, "skipped %s", ge.msg);
            rep->skipped++;
            continue;
        }
        char title[512];
        const char *base = dlp__basename(files.v[i]);
        snprintf(title, sizeof title, "%.*s", (int)(strlen(base) - (has_suffix(base, ".onnx") ? 5 : 0)), base);
        dlp__lm_graph_summary(g, title, &b);
        put_doc(&of[0], &b);
        dlp_graph_free(g);
    }
    dlp__sb_free(&b);
    sv_free(&files);
    strvec timm = {0};
    if (o.shared) {
        if ((st = help_space(&o, 0, &of[0], &of[2], err)) != DLP_OK) goto done_t;
        if ((st = help_space(&o, 1, &of[0], &of[2], err)) != DLP_OK) goto done_t;
        if ((st = timm_statements(&o, &of[2], &timm, err)) != DLP_OK) goto done_t;
    }
    st = devices_text(&o, &of[1], &timm);
    if (st) dlp__err(err, st, "corpus: out of memory");
done_t:
    sv_free(&timm);
done:
    for (int i = 0; i < 3; i++) {
        if (!of[i].f) continue;
        if (fclose(of[i].f) != 0 && st == DLP_OK)
            st = dlp__err(err, DLP_EIO, "%s: write failed (%s)", tmp[i], strerror(errno));
        rep->docs[i] = of[i].docs;
        rep->bytes[i] = of[i].bytes;
    }
    for (int i = 0; i < 3; i++) {
        if (!of[i].f) continue;
        char fin[4096];
        snprintf(fin, sizeof fin, "%s/%s", out, dlp__lm_corpus_files[i]);
        if (st == DLP_OK && rename(tmp[i], fin) != 0)
            st = dlp__err(err, DLP_EIO, "%s: cannot rename (%s)", fin, strerror(errno));
        if (st != DLP_OK) remove(tmp[i]);
    }
    dlp_devdb_free(own);
    return st;
}
