/*
 * cmd_dataset.c — `dlperf dataset build|info`: training sets (.dlpd) from
 * the HELP latency tables, and their summary.
 *
 *   dlperf dataset build --from help-nb201|help-fbnet --device COL[,COL..]|all
 *                        [--layout trappm|dippm] [--limit N] [--shared DIR]
 *                        [--nb201-graph executed|effective] --out F.dlpd
 *   dlperf dataset info F.dlpd [--json]
 *
 * build reads <shared>/data/HELP/DERIVED_csv/{nasbench201,fbnet}_latency_ms.csv
 * (shared: --shared, else $DLP_SHARED, else ../shared), builds every
 * architecture's graph once per batch among the chosen device columns (the
 * batch is the column's suffix: 1080ti_256 -> 256; a suffix that is not a
 * power of two up to 4096 — gold_6240, samsung_a50 — or none means batch 1),
 * and adds one sample per device column with target latency_ms.  NB201
 * cells are built as the reference module runs them (every op, none = Mul
 * by 0: what HELP timed) unless --nb201-graph effective asks for the pruned
 * reading (family "nb201-effective" then, so the two never mix unnoticed).
 * Progress
 * goes to stderr only when it is a terminal, so CI logs stay quiet.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/util.h"

int dlp_cmd_dataset(int argc, char **argv);
/* --from STORE.sqlite: the measurement store branch (src/cli/cmd_data.c) */
int dlp_cli_dataset_from_store(const char *from, const char *device, const char *targets, const char *mode,
                               const char *family, const char *layout_s, int64_t limit, const char *out);

#define MAX_COLS 128

static void usage(FILE *f) {
    fprintf(f,
            "usage: dlperf dataset build --from help-nb201|help-fbnet --device COL[,COL...]|all\n"
            "                            [--layout trappm|dippm] [--limit N] [--shared DIR]\n"
            "                            [--nb201-graph executed|effective] --out FILE.dlpd\n"
            "       dlperf dataset build --from STORE.sqlite [--device NAME] [--mode infer|train|llm]\n"
            "                            [--target latency_ms,memory_mb,...] [--family F] [--layout trappm|dippm]\n"
            "                            [--limit N] --out FILE.dlpd\n"
            "       dlperf dataset info FILE.dlpd [--json]\n\n"
            "build: one graph per architecture (and batch) of HELP's latency table, features in\n"
            "the chosen layout (default trappm), target latency_ms from each device column.\n"
            "  --from     help-nb201 (15,625 NAS-Bench-201 cells) or help-fbnet (5,000 FBNet archs)\n"
            "  --device   column(s) of the table, e.g. titanxp_32 or 2080ti_1,2080ti_32, or all;\n"
            "             the batch is the column's suffix (_1, _32, _64, _256; none: 1)\n"
            "  --limit N  only the first N architectures\n"
            "  --shared   folder holding data/HELP (default $DLP_SHARED, else ../shared)\n"
            "  --nb201-graph executed (default: every op runs, none = Mul by 0, as timed) or\n"
            "             effective (none and edges out of zero nodes dropped; family nb201-effective)\n"
            "--from STORE.sqlite (a dlperf-profile store, docs/store.md): one sample per ok first\n"
            "measurement of the device (a store name or a database alias; optional when the store has\n"
            "one) and mode (default infer), the graph loaded at the run's batch (and seq); targets are\n"
            "metric means (default latency_ms, train: step_ms), NaN where not measured; family from\n"
            "the store, name = variant.\n"
            "info: counts, targets (min/median/max), devices, families, layout, fingerprint.\n");
}

/* ---- CSV ----------------------------------------------------------------- */

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

/* ---- build ---------------------------------------------------------------- */

typedef struct {
    const char *from, *device, *layout_s, *out, *shared, *nb201_graph;
    const char *target, *mode, *family; /* --from STORE.sqlite only */
    int64_t limit;
} build_opts;

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
        err->code = DLP_EINVAL;
        snprintf(err->msg, sizeof err->msg, "FBNet arch '%.100s': expected 22 op numbers joined by '-'", arch);
        return DLP_EINVAL;
    }
    return dlp_graph_from_fbnet(ops, batch, g, err);
}

/* A measurement store (dlperf-profile): *.sqlite / *.db, or a file with SQLite's magic. */
static int is_store(const char *from) {
    size_t L = strlen(from);
    if ((L > 7 && !strcmp(from + L - 7, ".sqlite")) || (L > 3 && !strcmp(from + L - 3, ".db"))) return 1;
    char magic[16] = {0};
    FILE *f = dlp__fopen_regular(from, NULL);
    if (!f) return 0;
    size_t n = fread(magic, 1, sizeof magic, f);
    fclose(f);
    return n == sizeof magic && !memcmp(magic, "SQLite format 3", 16);
}

static int cmd_build(const build_opts *o) {
    int fbnet;
    const char *csv_name, *arch_col, *family;
    if (!o->from) return cli_usage_error("dataset build", "--from is required (help-nb201 or help-fbnet)");
    if (is_store(o->from))
        return dlp_cli_dataset_from_store(o->from, o->device, o->target, o->mode, o->family, o->layout_s, o->limit,
                                          o->out);
    if (o->target || o->mode || o->family)
        return cli_failf(DLP_EXIT_BADINPUT, "dataset build: --target, --mode and --family need --from STORE.sqlite");
    if (!strcmp(o->from, "help-nb201")) {
        fbnet = 0;
        csv_name = "nasbench201_latency_ms.csv";
        arch_col = "arch_str";
        family = "nb201";
    } else if (!strcmp(o->from, "help-fbnet")) {
        fbnet = 1;
        csv_name = "fbnet_latency_ms.csv";
        arch_col = "arch_ops_22";
        family = "fbnet";
    } else {
        return cli_failf(DLP_EXIT_BADINPUT, "dataset build: --from '%s' is not help-nb201 or help-fbnet", o->from);
    }
    if (!o->device) return cli_usage_error("dataset build", "--device is required (a column, a comma list, or all)");
    if (!o->out) return cli_usage_error("dataset build", "--out FILE.dlpd is required");
    if (cli_check_out("dataset build", "--out", o->out, 0)) return DLP_EXIT_BADINPUT;
    int nb201_mode;
    if (!strcmp(o->nb201_graph, "executed")) nb201_mode = DLP_NB201_EXECUTED;
    else if (!strcmp(o->nb201_graph, "effective")) {
        nb201_mode = DLP_NB201_EFFECTIVE;
        if (!fbnet) family = "nb201-effective";
    } else {
        return cli_failf(DLP_EXIT_BADINPUT, "dataset build: --nb201-graph '%s' is not executed or effective",
                         o->nb201_graph);
    }
    int layout = dlp_layout_parse(o->layout_s);
    if (layout < 0) return cli_failf(DLP_EXIT_BADINPUT, "dataset build: --layout '%s' is not trappm or dippm", o->layout_s);

    char path[4096];
    snprintf(path, sizeof path, "%s/data/HELP/DERIVED_csv/%s", o->shared, csv_name);
    csv_t c;
    if (csv_open(path, &c)) {
        free(c.buf);
        return cli_failf(DLP_EXIT_BADINPUT, "dataset build: cannot read %s (%s; set --shared DIR or DLP_SHARED)", path,
                         errno ? strerror(errno) : "empty or malformed header");
    }
    int ai = col_index(&c, arch_col);
    if (ai < 0) {
        free(c.buf);
        return cli_failf(DLP_EXIT_BADINPUT, "dataset build: %s has no column '%s'", path, arch_col);
    }
    /* device columns: everything after the arch column */
    char valid[2048] = "";
    size_t vl = 0;
    for (int i = ai + 1; i < c.n_cols && vl < sizeof valid; i++)
        vl += (size_t)snprintf(valid + vl, sizeof valid - vl, "%s%s", i > ai + 1 ? ", " : "", c.cols[i]);
    int sel[MAX_COLS], n_sel = 0;
    if (!strcmp(o->device, "all")) {
        for (int i = ai + 1; i < c.n_cols; i++) sel[n_sel++] = i;
    } else {
        char list[1024];
        snprintf(list, sizeof list, "%s", o->device);
        for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
            int k = col_index(&c, tok);
            if (k <= ai) {
                free(c.buf);
                return cli_failf(DLP_EXIT_BADINPUT, "dataset build: no device column '%s' in %s; valid: %s, all", tok,
                                 csv_name, valid);
            }
            int dup = 0;
            for (int j = 0; j < n_sel; j++) dup |= sel[j] == k;
            if (!dup) sel[n_sel++] = k;
        }
    }
    if (!n_sel) {
        free(c.buf);
        return cli_failf(DLP_EXIT_BADINPUT, "dataset build: --device '%s' names no column; valid: %s, all", o->device, valid);
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
    dlp_error err = {0};
    if (dlp_dataset_new(layout, 1, tn, &ds, &err)) {
        free(c.buf);
        return cli_fail(&err);
    }
    for (int j = 0; j < n_sel; j++) dlp_dataset_add_device(ds, c.cols[sel[j]]);
    int rc = 0;
    cli_progress pg;
    cli_progress_init(&pg, "dataset build", "auto");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
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
            rc = cli_failf(DLP_EXIT_BADINPUT, "dataset build: %s line %d has %d fields, the header %d", csv_name, line,
                           nf, c.n_cols);
            break;
        }
        const char *arch = fields[ai];
        for (int k = 0; k < n_b && !rc; k++) {
            dlp_graph *g = NULL;
            dlp_features *f = NULL;
            int gid;
            if (make_graph(fbnet, nb201_mode, arch, batches[k], &g, &err) || dlp_features_build(g, layout, &f, &err) ||
                dlp_dataset_add_graph(ds, f, &gid, &err)) {
                dlp_graph_free(g);
                fprintf(stderr, "dlperf: dataset build: %s line %d: %s\n", csv_name, line, err.msg);
                rc = cli_exit_code(err.code);
                break;
            }
            dlp_graph_free(g);
            for (int j = 0; j < n_sel && !rc; j++) {
                if (col_b[j] != batches[k]) continue;
                int ok;
                float v = parse_target(fields[sel[j]], &ok);
                if (!ok) {
                    rc = cli_failf(DLP_EXIT_BADINPUT, "dataset build: %s line %d column %s: '%s' is not a number",
                                   csv_name, line, c.cols[sel[j]], fields[sel[j]]);
                } else if (dlp_dataset_add_sample(ds, gid, &v, family, c.cols[sel[j]], arch, &err)) {
                    rc = cli_fail(&err);
                }
            }
        }
        if (rc) break;
        row++;
        /* a terminal: every 100 rows; a log: a line every few seconds */
        if (pg.mode == CLI_PROGRESS_TTY ? row % 100 == 0 || row == total : cli_progress_due(&pg))
            cli_progress_line(&pg, "dataset build: %lld/%lld architectures", (long long)row, (long long)total);
    }
    cli_progress_end(&pg);
    free(c.buf);
    if (!rc && dlp_dataset_save(ds, o->out, &err)) rc = cli_fail(&err);
    if (!rc) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        struct stat sb;
        double mb = stat(o->out, &sb) ? 0 : (double)sb.st_size / 1048576.0;
        printf("%s: %d samples on %d graphs (%lld architectures x %d batch%s), %d device%s, %s layout, %.1f MiB, "
               "fingerprint %016llx, %.1f s\n",
               o->out, dlp_dataset_count(ds), dlp_dataset_graph_count(ds), (long long)row, n_b, n_b > 1 ? "es" : "",
               n_sel, n_sel > 1 ? "s" : "", dlp_layout_name(layout), mb,
               (unsigned long long)dlp_dataset_fingerprint(ds),
               (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    }
    dlp_dataset_free(ds);
    return rc;
}

/* ---- info ----------------------------------------------------------------- */

static int cmp_float(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* A name and a count, for the family and batch tallies. */
typedef struct {
    const char *name;
    int64_t key;
    int n;
} tally_t;

static void tally_add(tally_t *t, int *n, int max, const char *name, int64_t key) {
    for (int i = 0; i < *n; i++)
        if ((name && !strcmp(t[i].name, name)) || (!name && t[i].key == key)) {
            t[i].n++;
            return;
        }
    if (*n < max) t[(*n)++] = (tally_t){name, key, 1};
}

static int cmd_info(const char *path, int json) {
    dlp_dataset *ds = NULL;
    dlp_error err = {0};
    if (dlp_dataset_load(path, &ds, &err)) return cli_fail(&err);
    int n = dlp_dataset_count(ds), ng = dlp_dataset_graph_count(ds), nt = dlp_dataset_target_count(ds);
    int nd = dlp_dataset_device_count(ds), layout = dlp_dataset_layout(ds);
    int64_t nodes = 0, edges = 0, nmin = -1, nmax = 0;
    for (int g = 0; g < ng; g++) {
        const dlp_features *f = dlp_dataset_graph(ds, g);
        nodes += f->n_nodes;
        edges += f->n_edges;
        if (nmin < 0 || f->n_nodes < nmin) nmin = f->n_nodes;
        if (f->n_nodes > nmax) nmax = f->n_nodes;
    }
    tally_t fam[64], bat[64];
    int nfam = 0, nbat = 0;
    int *per_dev = calloc((size_t)nd + 1, sizeof(int));
    float *vals = malloc(sizeof(float) * ((size_t)n + 1));
    if (!per_dev || !vals) {
        free(per_dev);
        free(vals);
        dlp_dataset_free(ds);
        return cli_failf(DLP_EXIT_FAIL, "dataset info: out of memory");
    }
    for (int i = 0; i < n; i++) {
        dlp_dataset_sample s;
        dlp_dataset_get(ds, i, &s);
        per_dev[s.device_id]++;
        tally_add(fam, &nfam, 64, s.family, 0);
        tally_add(bat, &nbat, 64, NULL, s.batch);
    }
    struct stat sb;
    double mb = stat(path, &sb) ? 0 : (double)sb.st_size / 1048576.0;
    unsigned long long fp = (unsigned long long)dlp_dataset_fingerprint(ds);
    if (json) {
        printf("{\"file\":");
        cli_json_str(stdout, path);
        printf(",\"size_mib\":%.3f,\"layout\":\"%s\",\"features\":%d,\"fingerprint\":\"%016llx\",\"samples\":%d,"
               "\"graphs\":%d,\"nodes\":{\"total\":%lld,\"min\":%lld,\"mean\":%.3f,\"max\":%lld},\"edges\":%lld",
               mb, dlp_layout_name(layout), dlp_layout_width(layout), fp, n, ng, (long long)nodes,
               (long long)(nmin < 0 ? 0 : nmin), ng ? (double)nodes / ng : 0.0, (long long)nmax, (long long)edges);
    } else {
        printf("%s: %.1f MiB, %s layout (%d columns), fingerprint %016llx\n", path, mb, dlp_layout_name(layout),
               dlp_layout_width(layout), fp);
        printf("samples %d on %d graphs; nodes per graph min %lld, mean %.1f, max %lld; %lld edges in all\n", n, ng,
               (long long)(nmin < 0 ? 0 : nmin), ng ? (double)nodes / ng : 0.0, (long long)nmax, (long long)edges);
        printf("targets            n  missing          min       median          max\n");
    }
    if (json) printf(",\"targets\":[");
    for (int k = 0; k < nt; k++) {
        int m = 0;
        for (int i = 0; i < n; i++) {
            dlp_dataset_sample s;
            dlp_dataset_get(ds, i, &s);
            if (!isnan(s.targets[k])) vals[m++] = s.targets[k];
        }
        qsort(vals, (size_t)m, sizeof(float), cmp_float);
        double lo = m ? vals[0] : NAN, hi = m ? vals[m - 1] : NAN;
        double med = !m ? NAN : m % 2 ? vals[m / 2] : 0.5 * ((double)vals[m / 2 - 1] + vals[m / 2]);
        if (json) {
            printf("%s{\"name\":", k ? "," : "");
            cli_json_str(stdout, dlp_dataset_target_name(ds, k));
            if (m) printf(",\"n\":%d,\"missing\":%d,\"min\":%.9g,\"median\":%.9g,\"max\":%.9g}", m, n - m, lo, med, hi);
            else printf(",\"n\":0,\"missing\":%d,\"min\":null,\"median\":null,\"max\":null}", n);
        } else {
            printf("  %-12s %8d %8d %12.6g %12.6g %12.6g\n", dlp_dataset_target_name(ds, k), m, n - m, lo, med, hi);
        }
    }
    if (json) {
        printf("],\"devices\":[");
        for (int d = 0; d < nd; d++) {
            printf("%s{\"id\":%d,\"name\":", d ? "," : "", d);
            cli_json_str(stdout, dlp_dataset_device_name(ds, d));
            printf(",\"samples\":%d}", per_dev[d]);
        }
        printf("],\"families\":{");
        for (int i = 0; i < nfam; i++) {
            printf("%s", i ? "," : "");
            cli_json_str(stdout, fam[i].name);
            printf(":%d", fam[i].n);
        }
        printf("},\"batches\":{");
        for (int i = 0; i < nbat; i++) printf("%s\"%lld\":%d", i ? "," : "", (long long)bat[i].key, bat[i].n);
        printf("}}\n");
    } else {
        printf("devices (id name samples):");
        for (int d = 0; d < nd; d++) printf("%s %d %s %d", d ? "," : "", d, dlp_dataset_device_name(ds, d), per_dev[d]);
        printf("\nfamilies:");
        for (int i = 0; i < nfam; i++) printf("%s %s %d", i ? "," : "", fam[i].name, fam[i].n);
        printf("\nbatches:");
        for (int i = 0; i < nbat; i++) printf("%s %lld (%d samples)", i ? "," : "", (long long)bat[i].key, bat[i].n);
        printf("\n");
    }
    free(per_dev);
    free(vals);
    dlp_dataset_free(ds);
    return 0;
}

int dlp_cmd_dataset(int argc, char **argv) {
    if (argc < 2) return cli_usage_error("dataset", "give a subcommand: build or info");
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    const char *sub = argv[1];
    if (strcmp(sub, "build") && strcmp(sub, "info"))
        return cli_failf(DLP_EXIT_BADINPUT, "dataset: unknown subcommand '%s' (build or info)", sub);
    build_opts o = {0};
    o.layout_s = "trappm";
    o.nb201_graph = "executed";
    const char *env = getenv("DLP_SHARED"); /* the CLI may read the environment; the library never does */
    o.shared = env && *env ? env : "../shared";
    const char *file = NULL;
    int json = 0;
    for (int i = 2; i < argc; i++) {
        const char *v;
        int r;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(sub, "info")) {
            if (!strcmp(argv[i], "--json")) json = 1;
            else if (argv[i][0] == '-' && argv[i][1])
                return cli_failf(DLP_EXIT_BADINPUT, "dataset info: unknown option '%s'", argv[i]);
            else if (!file) file = argv[i];
            else return cli_failf(DLP_EXIT_BADINPUT, "dataset info: more than one file given ('%s')", argv[i]);
            continue;
        }
        if ((r = cli_opt(argc, argv, &i, "--from", &v))) o.from = v;
        else if ((r = cli_opt(argc, argv, &i, "--device", &v))) o.device = v;
        else if ((r = cli_opt(argc, argv, &i, "--layout", &v))) o.layout_s = v;
        else if ((r = cli_opt(argc, argv, &i, "--out", &v))) o.out = v;
        else if ((r = cli_opt(argc, argv, &i, "--shared", &v))) o.shared = v;
        else if ((r = cli_opt(argc, argv, &i, "--nb201-graph", &v))) o.nb201_graph = v;
        else if ((r = cli_opt(argc, argv, &i, "--target", &v))) o.target = v;
        else if ((r = cli_opt(argc, argv, &i, "--mode", &v))) o.mode = v;
        else if ((r = cli_opt(argc, argv, &i, "--family", &v))) o.family = v;
        else if ((r = cli_opt(argc, argv, &i, "--limit", &v))) {
            if (r > 0 && cli_parse_i64("--limit", v, 1, INT32_MAX, &o.limit)) return DLP_EXIT_BADINPUT;
        } else return cli_failf(DLP_EXIT_BADINPUT, "dataset build: unknown argument '%s'", argv[i]);
        if (r < 0) return DLP_EXIT_BADINPUT;
    }
    if (!strcmp(sub, "info")) {
        if (!file) return cli_usage_error("dataset info", "no file given");
        return cmd_info(file, json);
    }
    return cmd_build(&o);
}
