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

int dlp_cmd_dataset(int argc, char **argv);

#define MAX_TARGETS 32

static void usage(FILE *f) {
    fprintf(f,
            "usage: dlperf dataset build --from help-nb201|help-fbnet --device COL[,COL...]|all\n"
            "                            [--layout trappm|dippm] [--limit N] [--shared DIR]\n"
            "                            [--nb201-graph executed|effective] --out FILE.dlpd\n"
            "       dlperf dataset build --from STORE.sqlite [--device NAME] [--mode infer|train|llm]\n"
            "                            [--target latency_ms,memory_mb,...] [--family F] [--layout trappm|dippm]\n"
            "                            [--limit N] --out FILE.dlpd\n"
            "       dlperf dataset merge A.dlpd B.dlpd [C.dlpd...] --out FILE.dlpd\n"
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
            "merge: every sample of the inputs in one set (same layout; the first file's targets;\n"
            "graphs copied, devices and families kept), e.g. NAS-Bench-201 and FBNet for one model.\n"
            "info: counts, targets (min/median/max), devices, families, layout, fingerprint.\n");
}

/* ---- build ---------------------------------------------------------------- */

typedef struct {
    const char *from, *device, *layout_s, *out, *shared, *nb201_graph;
    const char *target, *mode, *family; /* --from STORE.sqlite only */
    int64_t limit;
} build_opts;


static double file_mib(const char *path) {
    struct stat sb;
    return stat(path, &sb) ? 0 : (double)sb.st_size / 1048576.0;
}

/* Progress of dlp_dataset_from_*: a terminal every `every` rows (and the
 * last), a log a line every few seconds. */
typedef struct {
    cli_progress pg;
    int every;
    const char *what;
} build_progress;

static void on_progress(void *user, int64_t done, int64_t total) {
    build_progress *b = user;
    if (b->pg.mode == CLI_PROGRESS_TTY ? done % b->every == 0 || done == total : cli_progress_due(&b->pg))
        cli_progress_line(&b->pg, "dataset build: %lld/%lld %s", (long long)done, (long long)total, b->what);
}

/* The end of both builds: progress closed, ds (built with status st) saved
 * to --out and summed up in one line, where `what` is the source's own part
 * ("(N models), device ...", "(N architectures x B batches), ..."); ds freed. */
static int finish_build(const build_opts *o, dlp_dataset *ds, dlp_status st, dlp_error *err, build_progress *bp,
                        int layout, const char *what, double t0) {
    cli_progress_end(&bp->pg);
    int saving = !st;
    if (!st) st = dlp_dataset_save(ds, o->out, err);
    int rc = st ? (saving ? cli_save_fail(err) : cli_fail(err)) : 0;
    if (!rc)
        printf("%s: %d samples on %d graphs %s, %s layout, %.1f MiB, fingerprint %016llx, %.1f s\n", o->out,
               dlp_dataset_count(ds), dlp_dataset_graph_count(ds), what, dlp_layout_name(layout), file_mib(o->out),
               (unsigned long long)dlp_dataset_fingerprint(ds), cli_now_s() - t0);
    dlp_dataset_free(ds);
    return rc;
}

/* --from STORE.sqlite: dlp_dataset_from_store */
static int build_from_store(const build_opts *o) {
    double t0 = cli_now_s();
    if (!o->out) return cli_usage_error("dataset build", "--out FILE.dlpd is required");
    if (cli_check_out("dataset build", "--out", o->out, 0)) return DLP_EXIT_BADINPUT;
    const char *mode = o->mode ? o->mode : "infer";
    if (strcmp(mode, "infer") && strcmp(mode, "train") && strcmp(mode, "llm"))
        return cli_failf(DLP_EXIT_BADINPUT, "dataset build: --mode '%s' is not infer, train or llm", mode);
    int layout = dlp_layout_parse(o->layout_s);
    if (layout < 0) return cli_failf(DLP_EXIT_BADINPUT, "dataset build: --layout '%s' is not trappm or dippm", o->layout_s);
    const char *targets = o->target ? o->target : !strcmp(mode, "train") ? "step_ms" : "latency_ms";
    char tbuf[1024];
    const char *tn[MAX_TARGETS];
    int nt = 0;
    snprintf(tbuf, sizeof tbuf, "%s", targets);
    for (char *save = NULL, *t = strtok_r(tbuf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (nt == MAX_TARGETS) return cli_failf(DLP_EXIT_BADINPUT, "dataset build: more than %d targets", MAX_TARGETS);
        for (int k = 0; k < nt; k++)
            if (!strcmp(tn[k], t)) return cli_failf(DLP_EXIT_BADINPUT, "dataset build: target '%s' given twice", t);
        tn[nt++] = t;
    }
    if (!nt) return cli_failf(DLP_EXIT_BADINPUT, "dataset build: --target names no metric");
    build_progress bp = {.every = 20, .what = "runs"};
    cli_progress_init(&bp.pg, "dataset build", "auto");
    dlp_store_dataset_opts so = {.store = o->from, .device = o->device, .mode = mode, .family = o->family,
                                 .targets = tn, .n_targets = nt, .layout = (dlp_layout)layout, .limit = o->limit,
                                 .progress = on_progress, .user = &bp};
    dlp_dataset *ds = NULL;
    dlp_store_dataset_info info;
    dlp_error err = {0};
    dlp_status st = dlp_dataset_from_store(&so, &ds, &info, &err);
    char what[512] = "";
    if (!st)
        snprintf(what, sizeof what, "(%lld models), device %s, mode %s, targets %s", (long long)info.models,
                 info.device, mode, targets);
    return finish_build(o, ds, st, &err, &bp, layout, what, t0);
}

static int cmd_build(const build_opts *o) {
    if (!o->from) return cli_usage_error("dataset build", "--from is required (help-nb201 or help-fbnet)");
    if (dlp_store_probe(o->from)) return build_from_store(o);
    if (o->target || o->mode || o->family)
        return cli_failf(DLP_EXIT_BADINPUT, "dataset build: --target, --mode and --family need --from STORE.sqlite");
    int fbnet = !strcmp(o->from, "help-fbnet");
    if (!fbnet && strcmp(o->from, "help-nb201"))
        return cli_failf(DLP_EXIT_BADINPUT, "dataset build: --from '%s' is not help-nb201 or help-fbnet", o->from);
    if (!o->device) return cli_usage_error("dataset build", "--device is required (a column, a comma list, or all)");
    if (!o->out) return cli_usage_error("dataset build", "--out FILE.dlpd is required");
    if (cli_check_out("dataset build", "--out", o->out, 0)) return DLP_EXIT_BADINPUT;
    int nb201_mode;
    if (!strcmp(o->nb201_graph, "executed")) nb201_mode = DLP_NB201_EXECUTED;
    else if (!strcmp(o->nb201_graph, "effective")) nb201_mode = DLP_NB201_EFFECTIVE;
    else
        return cli_failf(DLP_EXIT_BADINPUT, "dataset build: --nb201-graph '%s' is not executed or effective",
                         o->nb201_graph);
    int layout = dlp_layout_parse(o->layout_s);
    if (layout < 0) return cli_failf(DLP_EXIT_BADINPUT, "dataset build: --layout '%s' is not trappm or dippm", o->layout_s);
    double t0 = cli_now_s();
    build_progress bp = {.every = 100, .what = "architectures"};
    cli_progress_init(&bp.pg, "dataset build", "auto");
    dlp_help_dataset_opts ho = {.table = o->from, .shared = o->shared, .devices = o->device,
                                .layout = (dlp_layout)layout, .nb201_mode = nb201_mode, .limit = o->limit,
                                .progress = on_progress, .user = &bp};
    dlp_dataset *ds = NULL;
    dlp_help_dataset_info info;
    dlp_error err = {0};
    dlp_status st = dlp_dataset_from_help(&ho, &ds, &info, &err);
    char what[256] = "";
    if (!st)
        snprintf(what, sizeof what, "(%lld architectures x %d batch%s), %d device%s", (long long)info.architectures,
                 info.batches, info.batches > 1 ? "es" : "", info.devices, info.devices > 1 ? "s" : "");
    return finish_build(o, ds, st, &err, &bp, layout, what, t0);
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
        const dlp_features *f = dlp_dataset_graph_at(ds, g);
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
        s = *dlp_dataset_at(ds, i);
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
            s = *dlp_dataset_at(ds, i);
            if (!isnan(s.targets[k])) vals[m++] = s.targets[k];
        }
        qsort(vals, (size_t)m, sizeof(float), cmp_float);
        double lo = m ? vals[0] : NAN, hi = m ? vals[m - 1] : NAN;
        double med = !m ? NAN : m % 2 ? vals[m / 2] : 0.5 * ((double)vals[m / 2 - 1] + vals[m / 2]);
        if (json) {
            printf("%s{\"name\":", k ? "," : "");
            cli_json_str(stdout, dlp_dataset_target_at(ds, k));
            if (m) printf(",\"n\":%d,\"missing\":%d,\"min\":%.9g,\"median\":%.9g,\"max\":%.9g}", m, n - m, lo, med, hi);
            else printf(",\"n\":0,\"missing\":%d,\"min\":null,\"median\":null,\"max\":null}", n);
        } else {
            printf("  %-12s %8d %8d %12s %12s %12s\n", dlp_dataset_target_at(ds, k), m, n - m, dlp__hu_sig(lo, 6),
                   dlp__hu_sig(med, 6), dlp__hu_sig(hi, 6));
        }
    }
    if (json) {
        printf("],\"devices\":[");
        for (int d = 0; d < nd; d++) {
            printf("%s{\"id\":%d,\"name\":", d ? "," : "", d);
            cli_json_str(stdout, dlp_dataset_device_at(ds, d));
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
        for (int d = 0; d < nd; d++) printf("%s %d %s %d", d ? "," : "", d, dlp_dataset_device_at(ds, d), per_dev[d]);
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

/* ---- merge ---------------------------------------------------------------- */

static int cmd_merge(int argc, char **argv) {
    const char *out = NULL, *in[64];
    int n_in = 0;
    for (int i = 2; i < argc; i++) {
        const char *v;
        int r = cli_opt(argc, argv, &i, "--out", &v);
        if (r < 0) return DLP_EXIT_BADINPUT;
        if (r > 0) out = v;
        else if (argv[i][0] == '-' && argv[i][1])
            return cli_failf(DLP_EXIT_BADINPUT, "dataset merge: unknown option '%s'", argv[i]);
        else if (n_in >= 64) return cli_failf(DLP_EXIT_BADINPUT, "dataset merge: more than 64 files");
        else in[n_in++] = argv[i];
    }
    if (n_in < 2) return cli_usage_error("dataset merge", "give two or more .dlpd files");
    if (!out) return cli_usage_error("dataset merge", "--out FILE.dlpd is required");
    if (cli_check_out("dataset merge", "--out", out, 0)) return DLP_EXIT_BADINPUT;
    double t0 = cli_now_s();
    dlp_error e = {0};
    dlp_dataset *ds = NULL, *part = NULL;
    /* a file that does not load names itself (the loader's message); one
     * that does not fit the first is named here */
    dlp_status st = dlp_dataset_load(in[0], &ds, &e);
    for (int k = 1; k < n_in && !st; k++) {
        if ((st = dlp_dataset_load(in[k], &part, &e))) break;
        st = dlp_dataset_append(ds, part, &e);
        dlp_dataset_free(part);
        if (st) {
            dlp_dataset_free(ds);
            return cli_failf(DLP_EXIT_BADINPUT, "dataset merge: %s: %s", in[k], e.msg);
        }
    }
    if (st) {
        dlp_dataset_free(ds);
        return cli_fail(&e);
    }
    if ((st = dlp_dataset_save(ds, out, &e))) {
        dlp_dataset_free(ds);
        return cli_save_fail(&e);
    }
    printf("%s: %d samples on %d graphs from %d files, %d devices, %.1f MiB, fingerprint %016llx, %.1f s\n", out,
           dlp_dataset_count(ds), dlp_dataset_graph_count(ds), n_in, dlp_dataset_device_count(ds), file_mib(out),
           (unsigned long long)dlp_dataset_fingerprint(ds), cli_now_s() - t0);
    dlp_dataset_free(ds);
    return 0;
}

int dlp_cmd_dataset(int argc, char **argv) {
    if (argc < 2) return cli_usage_error("dataset", "give a subcommand: build, merge or info");
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    const char *sub = argv[1];
    if (strcmp(sub, "build") && strcmp(sub, "info") && strcmp(sub, "merge"))
        return cli_failf(DLP_EXIT_BADINPUT, "dataset: unknown subcommand '%s' (build, merge or info)", sub);
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            static const char *const subs[] = {"build", "merge", "info", NULL};
            return cli_sub_help(usage, "dataset", sub, subs);
        }
    if (!strcmp(sub, "merge")) return cmd_merge(argc, argv);
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
            static const char *const subs[] = {"build", "merge", "info", NULL};
            return cli_sub_help(usage, "dataset", sub, subs);
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
