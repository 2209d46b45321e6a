/*
 * cmd_data.c — `dlperf data stats|export|import|merge`: the measurement
 * store written by tools/profile/dlperf-profile (docs/store.md).  (Store ->
 * dataset is dlp_dataset_from_store, src/data/dataset_build.c.)
 *
 *   dlperf data stats STORE [--json]
 *   dlperf data export STORE [--out FILE.csv]          (stdout without --out)
 *   dlperf data import FILE.csv --into STORE           (created when missing)
 *   dlperf data merge OUT.sqlite IN.sqlite [IN...]     (OUT created when missing)
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

int dlp_cmd_data(int argc, char **argv);

static void usage(FILE *f) {
    fprintf(f,
            "usage: dlperf data stats STORE.sqlite [--json]\n"
            "       dlperf data export STORE.sqlite [--out FILE.csv]\n"
            "       dlperf data import FILE.csv --into STORE.sqlite\n"
            "       dlperf data merge OUT.sqlite IN.sqlite [IN.sqlite ...]\n\n"
            "The measurement store of tools/profile/dlperf-profile (docs/store.md).\n"
            "  stats   what is measured per device, mode and family (outcomes, batches), which metrics\n"
            "          have values, the load the machine was under, and the noise floor per metric:\n"
            "          within-run CV (std/mean of the timed iterations) and repeat CV (the same\n"
            "          configuration measured again later, runs.repeat_of)\n"
            "  export  one CSV row per run (run, model, device columns; n/mean/median/std/min/max/source\n"
            "          per metric); stdout without --out\n"
            "  import  a CSV of export into a store (created when missing), with the merge rules\n"
            "  merge   shards into OUT: a run already there (uid) is skipped; the same model hash +\n"
            "          config + device measured twice keeps the earlier measurement; repeats follow\n"
            "          it; graphs are copied beside OUT.  One transaction per input.\n");
}

/* ---- stats ------------------------------------------------------------------ */

typedef struct {
    const char *device, *mode, *family;
    int64_t models, configs, ok, oom, error, repeats;
    int64_t batches[16];
    int n_b;
    int64_t last_model;
} grp_t;

typedef struct {
    const char *device, *mode, *metric;
    int64_t with, without;
    const char *why; /* source of a NULL row */
} mcount_t;

static int cmp_grp(const void *a, const void *b) {
    const grp_t *x = a, *y = b;
    int c = strcmp(x->device, y->device);
    if (!c) c = strcmp(x->mode, y->mode);
    if (!c) c = strcmp(x->family, y->family);
    return c;
}

static int cmp_mc(const void *a, const void *b) {
    const mcount_t *x = a, *y = b;
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

static void json_num(double v) {
    if (isfinite(v)) printf("%.6g", v);
    else printf("null");
}

static int cmd_stats(const char *path, int json) {
    dlp_store *s;
    dlp_error err = {0};
    if (dlp_store_open(path, DLP_STORE_READ, &s, &err)) return cli_fail(&err);
    dlp_store_runs *r;
    if (dlp_store_query(s, NULL, &r, &err)) {
        dlp_store_close(s);
        return cli_fail(&err);
    }
    int n = dlp_store_runs_count(r);
    grp_t *g = calloc((size_t)n + 1, sizeof *g);
    mcount_t *mc = NULL;
    int ng = 0, nmc = 0, cmc = 0;
    int64_t first = 0, reps = 0, ok = 0, oom = 0, error = 0;
    /* distinct models and families among runs; graphs present */
    int64_t *mids = calloc((size_t)n + 1, sizeof *mids);
    int nmid = 0;
    if (!g || !mids) {
        free(g);
        free(mids);
        dlp_store_runs_free(r);
        dlp_store_close(s);
        return cli_failf(DLP_EXIT_FAIL, "data stats: out of memory");
    }
    for (int i = 0; i < n; i++) {
        const dlp_store_run *u = dlp_store_runs_at(r, i);
        mids[nmid++] = u->model_id;
        if (u->repeat_of) reps++;
        else {
            first++;
            ok += !strcmp(u->outcome, "ok");
            oom += !strcmp(u->outcome, "oom");
            error += !strcmp(u->outcome, "error");
        }
        grp_t *x = NULL;
        for (int k = 0; k < ng && !x; k++)
            if (!strcmp(g[k].device, u->device) && !strcmp(g[k].mode, u->mode) && !strcmp(g[k].family, u->family))
                x = &g[k];
        if (!x) {
            x = &g[ng++];
            x->device = u->device;
            x->mode = u->mode;
            x->family = u->family;
            x->last_model = -1;
        }
        if (u->repeat_of) {
            x->repeats++;
        } else {
            x->configs++;
            x->ok += !strcmp(u->outcome, "ok");
            x->oom += !strcmp(u->outcome, "oom");
            x->error += !strcmp(u->outcome, "error");
            int seen = 0;
            for (int k = 0; k < x->n_b; k++) seen |= x->batches[k] == u->batch;
            if (!seen && x->n_b < 16) x->batches[x->n_b++] = u->batch;
        }
        if (strcmp(u->outcome, "ok") || u->repeat_of) continue;
        for (int k = 0; k < u->n_metrics; k++) {
            const dlp_store_metric *m = &u->metrics[k];
            mcount_t *y = NULL;
            for (int j = 0; j < nmc && !y; j++)
                if (!strcmp(mc[j].device, u->device) && !strcmp(mc[j].mode, u->mode) && !strcmp(mc[j].metric, m->name))
                    y = &mc[j];
            if (!y) {
                if (nmc == cmc) {
                    int nc = cmc ? 2 * cmc : 16;
                    mcount_t *g2 = realloc(mc, sizeof *mc * (size_t)nc);
                    if (!g2) continue;
                    mc = g2;
                    cmc = nc;
                }
                y = &mc[nmc++];
                memset(y, 0, sizeof *y);
                y->device = u->device;
                y->mode = u->mode;
                y->metric = m->name;
            }
            if (m->n > 0 && isfinite(m->mean)) y->with++;
            else {
                y->without++;
                y->why = m->source;
            }
        }
    }
    /* models per group: distinct model ids (runs are in id order, not grouped: count by sorting pairs) */
    for (int k = 0; k < ng; k++) {
        int64_t *ids = malloc(sizeof *ids * ((size_t)n + 1));
        int m = 0;
        for (int i = 0; ids && i < n; i++) {
            const dlp_store_run *u = dlp_store_runs_at(r, i);
            if (!u->repeat_of && !strcmp(g[k].device, u->device) && !strcmp(g[k].mode, u->mode) &&
                !strcmp(g[k].family, u->family))
                ids[m++] = u->model_id;
        }
        if (ids) qsort(ids, (size_t)m, sizeof *ids, cmp_i64);
        for (int i = 0; ids && i < m; i++) g[k].models += !i || ids[i] != ids[i - 1];
        free(ids);
        qsort(g[k].batches, (size_t)g[k].n_b, sizeof(int64_t), cmp_i64);
    }
    qsort(g, (size_t)ng, sizeof *g, cmp_grp);
    qsort(mc, (size_t)nmc, sizeof *mc, cmp_mc);
    qsort(mids, (size_t)nmid, sizeof *mids, cmp_i64);
    int64_t models = 0, graphs_ok = 0;
    const char *fams[256];
    int nfam = 0;
    for (int i = 0; i < nmid; i++) {
        if (i && mids[i] == mids[i - 1]) continue;
        models++;
        for (int j = 0; j < n; j++) {
            const dlp_store_run *u = dlp_store_runs_at(r, j);
            if (u->model_id != mids[i]) continue;
            char p[8192];
            struct stat sb;
            snprintf(p, sizeof p, "%s/%s", dlp_store_dir(s), u->onnx_path);
            graphs_ok += u->onnx_path[0] && stat(p, &sb) == 0;
            int seen = 0;
            for (int k = 0; k < nfam; k++) seen |= !strcmp(fams[k], u->family);
            if (!seen && nfam < 256) fams[nfam++] = u->family;
            break;
        }
    }
    dlp_store_noise *nz = NULL;
    int nn = 0;
    if (dlp_store_noise_get(s, &nz, &nn, &err)) {
        free(g);
        free(mids);
        free(mc);
        dlp_store_runs_free(r);
        dlp_store_close(s);
        return cli_fail(&err);
    }
    int nd = dlp_store_device_count(s);
    if (json) {
        printf("{\"store\":");
        cli_json_str(stdout, path);
        printf(",\"schema\":%d,\"models\":%lld,\"graphs_present\":%lld,\"families\":%d,\"runs\":%d,"
               "\"first\":%lld,\"ok\":%lld,\"oom\":%lld,\"error\":%lld,\"repeats\":%lld,\"devices\":[",
               DLP_STORE_SCHEMA_VERSION, (long long)models, (long long)graphs_ok, nfam, n, (long long)first,
               (long long)ok, (long long)oom, (long long)error, (long long)reps);
    } else {
        printf("%s: schema %d, %d device%s, %lld models (%d families; graphs present for %lld), %d runs: %lld first "
               "measurements (ok %lld, oom %lld, error %lld) + %lld repeats\n",
               path, DLP_STORE_SCHEMA_VERSION, nd, nd == 1 ? "" : "s", (long long)models, nfam, (long long)graphs_ok, n,
               (long long)first, (long long)ok, (long long)oom, (long long)error, (long long)reps);
    }
    for (int d = 0; d < nd; d++) {
        const dlp_store_device *dv = dlp_store_device_at(s, d);
        /* load average at the start of this device's runs */
        double *la = malloc(sizeof *la * ((size_t)n + 1));
        int nla = 0;
        int64_t druns = 0;
        double wall = 0;
        const char *t_first = NULL, *t_last = NULL;
        for (int i = 0; la && i < n; i++) {
            const dlp_store_run *u = dlp_store_runs_at(r, i);
            if (u->device_id != dv->id) continue;
            druns++;
            if (isfinite(u->loadavg)) la[nla++] = u->loadavg;
            if (isfinite(u->wall_s)) wall += u->wall_s;
            if (!t_first || strcmp(u->started, t_first) < 0) t_first = u->started;
            if (!t_last || strcmp(u->started, t_last) > 0) t_last = u->started;
        }
        if (la) qsort(la, (size_t)nla, sizeof *la, cmp_d);
        double lmed = nla ? la[nla / 2] : NAN, lmin = nla ? la[0] : NAN, lmax = nla ? la[nla - 1] : NAN;
        free(la);
        if (json) {
            printf("%s{\"name\":", d ? "," : "");
            cli_json_str(stdout, dv->name);
            printf(",\"kind\":");
            cli_json_str(stdout, dv->kind);
            printf(",\"model\":");
            cli_json_str(stdout, dv->model);
            printf(",\"features\":%s,\"runs\":%lld,\"measuring_s\":%.1f,\"first\":",
                   dv->features[0] ? dv->features : "null", (long long)druns, wall);
            cli_json_str(stdout, t_first ? t_first : "");
            printf(",\"last\":");
            cli_json_str(stdout, t_last ? t_last : "");
            printf(",\"loadavg\":{\"median\":");
            json_num(lmed);
            printf(",\"min\":");
            json_num(lmin);
            printf(",\"max\":");
            json_num(lmax);
            printf("},\"groups\":[");
            int c = 0;
            for (int k = 0; k < ng; k++) {
                if (strcmp(g[k].device, dv->name)) continue;
                printf("%s{\"mode\":\"%s\",\"family\":", c++ ? "," : "", g[k].mode);
                cli_json_str(stdout, g[k].family);
                printf(",\"models\":%lld,\"configs\":%lld,\"ok\":%lld,\"oom\":%lld,\"error\":%lld,\"repeats\":%lld,"
                       "\"batches\":[",
                       (long long)g[k].models, (long long)g[k].configs, (long long)g[k].ok, (long long)g[k].oom,
                       (long long)g[k].error, (long long)g[k].repeats);
                for (int b = 0; b < g[k].n_b; b++) printf("%s%lld", b ? "," : "", (long long)g[k].batches[b]);
                printf("]}");
            }
            printf("],\"metrics\":[");
            c = 0;
            for (int k = 0; k < nmc; k++) {
                if (strcmp(mc[k].device, dv->name)) continue;
                printf("%s{\"mode\":\"%s\",\"metric\":", c++ ? "," : "", mc[k].mode);
                cli_json_str(stdout, mc[k].metric);
                printf(",\"with_value\":%lld,\"without\":%lld,\"why_without\":", (long long)mc[k].with,
                       (long long)mc[k].without);
                if (mc[k].why) cli_json_str(stdout, mc[k].why);
                else printf("null");
                printf("}");
            }
            printf("],\"noise\":[");
            c = 0;
            for (int k = 0; k < nn; k++) {
                if (strcmp(nz[k].device, dv->name)) continue;
                printf("%s{\"mode\":\"%s\",\"metric\":\"%s\",\"runs\":%lld,\"cv_within_median\":", c++ ? "," : "",
                       nz[k].mode, nz[k].metric, (long long)nz[k].runs);
                json_num(nz[k].cv_within_median);
                printf(",\"cv_within_p90\":");
                json_num(nz[k].cv_within_p90);
                printf(",\"pairs\":%lld,\"cv_repeat_median\":", (long long)nz[k].pairs);
                json_num(nz[k].cv_repeat_median);
                printf(",\"cv_repeat_p90\":");
                json_num(nz[k].cv_repeat_p90);
                printf("}");
            }
            printf("]}");
            continue;
        }
        printf("\ndevice %s (%s, %s%s%s): %lld runs, %.2f h of measuring children, %s .. %s\n"
               "  load average at start median %.2f (min %.2f, max %.2f)\n",
               dv->name, dv->kind, dv->model, dv->host[0] ? "; host " : "", dv->host, (long long)druns, wall / 3600.0,
               t_first ? t_first : "-", t_last ? t_last : "-", lmed, lmin, lmax);
        printf("  %-6s %-16s %6s %7s %5s %4s %5s %7s  %s\n", "mode", "family", "models", "configs", "ok", "oom",
               "error", "repeats", "batches");
        for (int k = 0; k < ng; k++) {
            if (strcmp(g[k].device, dv->name)) continue;
            printf("  %-6s %-16s %6lld %7lld %5lld %4lld %5lld %7lld  ", g[k].mode, g[k].family,
                   (long long)g[k].models, (long long)g[k].configs, (long long)g[k].ok, (long long)g[k].oom,
                   (long long)g[k].error, (long long)g[k].repeats);
            for (int b = 0; b < g[k].n_b; b++) printf("%s%lld", b ? "," : "", (long long)g[k].batches[b]);
            printf("\n");
        }
        printf("  metrics of ok first measurements (with a value / without):\n");
        for (int k = 0; k < nmc; k++) {
            if (strcmp(mc[k].device, dv->name)) continue;
            printf("    %-6s %-20s %6lld / %-6lld%s%s\n", mc[k].mode, mc[k].metric, (long long)mc[k].with,
                   (long long)mc[k].without, mc[k].without && mc[k].why ? "  " : "",
                   mc[k].without && mc[k].why ? mc[k].why : "");
        }
        printf("  noise floor, coefficient of variation in %% (within: std/mean of one run's iterations;\n"
               "  repeat: the configuration measured again later; median and p90):\n");
        printf("    %-6s %-20s %6s %8s %8s %6s %8s %8s\n", "mode", "metric", "runs", "within", "p90", "pairs", "repeat",
               "p90");
        for (int k = 0; k < nn; k++) {
            if (strcmp(nz[k].device, dv->name)) continue;
            char a[4][16];
            double v[4] = {nz[k].cv_within_median, nz[k].cv_within_p90, nz[k].cv_repeat_median, nz[k].cv_repeat_p90};
            for (int j = 0; j < 4; j++) {
                if (isfinite(v[j])) snprintf(a[j], sizeof a[j], "%.2f", 100 * v[j]);
                else snprintf(a[j], sizeof a[j], "-");
            }
            printf("    %-6s %-20s %6lld %8s %8s %6lld %8s %8s\n", nz[k].mode, nz[k].metric,
                   (long long)nz[k].runs, a[0], a[1], (long long)nz[k].pairs, a[2], a[3]);
        }
    }
    if (json) printf("]}\n");
    free(nz);
    free(g);
    free(mids);
    free(mc);
    dlp_store_runs_free(r);
    dlp_store_close(s);
    return 0;
}

/* ---- export / import / merge ------------------------------------------------ */

static int cmd_export(const char *path, const char *out) {
    dlp_store *s;
    dlp_error err = {0};
    if (dlp_store_open(path, DLP_STORE_READ, &s, &err)) return cli_fail(&err);
    int rc = 0;
    if (!out || !strcmp(out, "-")) {
        char *buf;
        size_t len;
        if (dlp_store_export_csv_mem(s, &buf, &len, &err)) {
            rc = cli_fail(&err);
        } else {
            if (fwrite(buf, 1, len, stdout) != len) rc = cli_write_error("stdout");
            dlp_free(buf);
        }
    } else if (dlp_store_export_csv(s, out, &err)) {
        rc = cli_save_fail(&err);   /* the message names the file */
    } else {
        fprintf(stderr, "data export: %s -> %s\n", path, out);
    }
    dlp_store_close(s);
    return rc;
}

static void print_counts(const char *what, const dlp_store_merge_counts *c) {
    printf("%s: runs added %lld, duplicates skipped %lld, replaced by an earlier measurement %lld; repeats added "
           "%lld (duplicates %lld, without their first measurement %lld); models added %lld, devices added %lld; "
           "graphs copied %lld, missing %lld\n",
           what, (long long)c->runs_added, (long long)c->runs_duplicate, (long long)c->runs_replaced,
           (long long)c->repeats_added, (long long)c->repeats_duplicate, (long long)c->repeats_orphan,
           (long long)c->models_added, (long long)c->devices_added, (long long)c->graphs_copied,
           (long long)c->graphs_missing);
}

static int cmd_import(const char *csv, const char *into) {
    if (!into) return cli_usage_error("data import", "--into STORE.sqlite is required");
    struct stat sb;
    if (stat(csv, &sb) != 0) return cli_failf(DLP_EXIT_BADINPUT, "data import: %s: %s", csv, strerror(errno));
    dlp_store *s;
    dlp_error err = {0};
    if (dlp_store_open(into, DLP_STORE_CREATE, &s, &err)) return cli_fail(&err);
    dlp_store_merge_counts c;
    int rc = 0;
    if (dlp_store_import_csv(s, csv, &c, &err)) rc = cli_fail(&err);
    else {
        char what[8300];
        snprintf(what, sizeof what, "%s <- %s", into, csv);
        print_counts(what, &c);
    }
    dlp_store_close(s);
    return rc;
}

static int cmd_merge(int n_in, char **in, const char *out) {
    dlp_store *s;
    dlp_error err = {0};
    for (int i = 0; i < n_in; i++) {
        struct stat sb;
        if (stat(in[i], &sb) != 0) return cli_failf(DLP_EXIT_BADINPUT, "data merge: %s: %s", in[i], strerror(errno));
    }
    if (dlp_store_open(out, DLP_STORE_CREATE, &s, &err)) return cli_fail(&err);
    dlp_store_merge_counts total = {0};
    int rc = 0;
    for (int i = 0; i < n_in && !rc; i++) {
        dlp_store_merge_counts c;
        if (dlp_store_merge(s, in[i], &c, &err)) {
            rc = cli_fail(&err);
            break;
        }
        char what[8300];
        snprintf(what, sizeof what, "%s <- %s", out, in[i]);
        print_counts(what, &c);
        int64_t *a = (int64_t *)&total, *b = (int64_t *)&c;
        for (size_t k = 0; k < sizeof c / sizeof(int64_t); k++) a[k] += b[k];
    }
    if (!rc && n_in > 1) print_counts("total", &total);
    dlp_store_close(s);
    return rc;
}

int dlp_cmd_data(int argc, char **argv) {
    if (argc < 2) return cli_usage_error("data", "give a subcommand: stats, export, import or merge");
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    const char *sub = argv[1];
    if (strcmp(sub, "stats") && strcmp(sub, "export") && strcmp(sub, "import") && strcmp(sub, "merge"))
        return cli_failf(DLP_EXIT_BADINPUT, "data: unknown subcommand '%s' (stats, export, import or merge)", sub);
    const char *out = NULL, *into = NULL;
    int json = 0, npos = 0;
    char **pos = calloc((size_t)argc, sizeof *pos);
    if (!pos) return cli_failf(DLP_EXIT_FAIL, "data: out of memory");
    for (int i = 2; i < argc; i++) {
        const char *v;
        int r = 0;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            static const char *const subs[] = {"stats", "export", "import", "merge", NULL};
            free(pos);
            return cli_sub_help(usage, "data", sub, subs);
        }
        if (!strcmp(sub, "stats") && !strcmp(argv[i], "--json")) json = 1;
        else if (!strcmp(sub, "export") && (r = cli_opt(argc, argv, &i, "--out", &v))) out = v;
        else if (!strcmp(sub, "import") && (r = cli_opt(argc, argv, &i, "--into", &v))) into = v;
        else if (argv[i][0] == '-' && argv[i][1]) {
            free(pos);
            return cli_failf(DLP_EXIT_BADINPUT, "data %s: unknown option '%s'", sub, argv[i]);
        } else pos[npos++] = argv[i];
        if (r < 0) {
            free(pos);
            return DLP_EXIT_BADINPUT;
        }
    }
    int rc;
    int want = !strcmp(sub, "merge") ? 2 : 1;
    /* outputs first: a bad path fails before any store is read */
    if (cli_check_out("data export", "--out", out, CLI_OUT_STDOUT) ||
        cli_check_out("data import", "--into", into, CLI_OUT_MKDIRS) ||
        (!strcmp(sub, "merge") && npos >= 1 && cli_check_out("data merge", "OUT", pos[0], CLI_OUT_MKDIRS))) {
        free(pos);
        return DLP_EXIT_BADINPUT;
    }
    if (npos < want || (want == 1 && npos > 1)) {
        char cmd[32];
        snprintf(cmd, sizeof cmd, "data %s", sub);
        rc = cli_usage_error(cmd, "%s",
                       !strcmp(sub, "merge") ? "give OUT.sqlite and at least one IN.sqlite"
                       : npos ? "more than one file given"
                       : !strcmp(sub, "import") ? "no CSV file given" : "no store given");
    } else if (!strcmp(sub, "stats")) rc = cmd_stats(pos[0], json);
    else if (!strcmp(sub, "export")) rc = cmd_export(pos[0], out);
    else if (!strcmp(sub, "import")) rc = cmd_import(pos[0], into);
    else rc = cmd_merge(npos - 1, pos + 1, pos[0]);
    free(pos);
    return rc;
}
