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

static void json_num(double v) {
    if (isfinite(v)) printf("%.6g", v);
    else printf("null");
}

/* One device of the JSON: its runs, groups, metric counts and noise. */
static void stats_json_device(const dlp_store_stats *st, const dlp_store_device_stats *x) {
    const dlp_store_device *dv = x->device;
    printf("{\"name\":");
    cli_json_str(stdout, dv->name);
    printf(",\"kind\":");
    cli_json_str(stdout, dv->kind);
    printf(",\"model\":");
    cli_json_str(stdout, dv->model);
    printf(",\"features\":%s,\"runs\":%lld,\"measuring_s\":%.1f,\"first\":", dv->features[0] ? dv->features : "null",
           (long long)x->runs, x->measuring_s);
    cli_json_str(stdout, x->first ? x->first : "");
    printf(",\"last\":");
    cli_json_str(stdout, x->last ? x->last : "");
    printf(",\"loadavg\":{\"median\":");
    json_num(x->loadavg_median);
    printf(",\"min\":");
    json_num(x->loadavg_min);
    printf(",\"max\":");
    json_num(x->loadavg_max);
    printf("},\"groups\":[");
    int c = 0;
    for (int k = 0; k < st->n_groups; k++) {
        const dlp_store_group *g = &st->groups[k];
        if (strcmp(g->device, dv->name)) continue;
        printf("%s{\"mode\":\"%s\",\"family\":", c++ ? "," : "", g->mode);
        cli_json_str(stdout, g->family);
        printf(",\"models\":%lld,\"configs\":%lld,\"ok\":%lld,\"oom\":%lld,\"error\":%lld,\"repeats\":%lld,"
               "\"batches\":[",
               (long long)g->models, (long long)g->configs, (long long)g->ok, (long long)g->oom, (long long)g->error,
               (long long)g->repeats);
        for (int b = 0; b < g->n_batches; b++) printf("%s%lld", b ? "," : "", (long long)g->batches[b]);
        printf("]}");
    }
    printf("],\"metrics\":[");
    c = 0;
    for (int k = 0; k < st->n_metrics; k++) {
        const dlp_store_metric_count *m = &st->metrics[k];
        if (strcmp(m->device, dv->name)) continue;
        printf("%s{\"mode\":\"%s\",\"metric\":", c++ ? "," : "", m->mode);
        cli_json_str(stdout, m->metric);
        printf(",\"with_value\":%lld,\"without\":%lld,\"why_without\":", (long long)m->with_value,
               (long long)m->without);
        if (m->why_without) cli_json_str(stdout, m->why_without);
        else printf("null");
        printf("}");
    }
    printf("],\"noise\":[");
    c = 0;
    for (int k = 0; k < st->n_noise; k++) {
        const dlp_store_noise *nz = &st->noise[k];
        if (strcmp(nz->device, dv->name)) continue;
        printf("%s{\"mode\":\"%s\",\"metric\":\"%s\",\"runs\":%lld,\"cv_within_median\":", c++ ? "," : "", nz->mode,
               nz->metric, (long long)nz->runs);
        json_num(nz->cv_within_median);
        printf(",\"cv_within_p90\":");
        json_num(nz->cv_within_p90);
        printf(",\"pairs\":%lld,\"cv_repeat_median\":", (long long)nz->pairs);
        json_num(nz->cv_repeat_median);
        printf(",\"cv_repeat_p90\":");
        json_num(nz->cv_repeat_p90);
        printf("}");
    }
    printf("]}");
}

/* One device of the text: a heading, the groups, metric counts, noise. */
static void stats_text_device(const dlp_store_stats *st, const dlp_store_device_stats *x) {
    const dlp_store_device *dv = x->device;
    printf("\ndevice %s (%s, %s%s%s): %lld runs, %.2f h of measuring children, %s .. %s\n"
           "  load average at start median %.2f (min %.2f, max %.2f)\n",
           dv->name, dv->kind, dv->model, dv->host[0] ? "; host " : "", dv->host, (long long)x->runs,
           x->measuring_s / 3600.0, x->first ? x->first : "-", x->last ? x->last : "-", x->loadavg_median,
           x->loadavg_min, x->loadavg_max);
    printf("  %-6s %-16s %6s %7s %5s %4s %5s %7s  %s\n", "mode", "family", "models", "configs", "ok", "oom", "error",
           "repeats", "batches");
    for (int k = 0; k < st->n_groups; k++) {
        const dlp_store_group *g = &st->groups[k];
        if (strcmp(g->device, dv->name)) continue;
        printf("  %-6s %-16s %6lld %7lld %5lld %4lld %5lld %7lld  ", g->mode, g->family, (long long)g->models,
               (long long)g->configs, (long long)g->ok, (long long)g->oom, (long long)g->error, (long long)g->repeats);
        for (int b = 0; b < g->n_batches; b++) printf("%s%lld", b ? "," : "", (long long)g->batches[b]);
        printf("\n");
    }
    printf("  metrics of ok first measurements (with a value / without):\n");
    for (int k = 0; k < st->n_metrics; k++) {
        const dlp_store_metric_count *m = &st->metrics[k];
        if (strcmp(m->device, dv->name)) continue;
        printf("    %-6s %-20s %6lld / %-6lld%s%s\n", m->mode, m->metric, (long long)m->with_value,
               (long long)m->without, m->without && m->why_without ? "  " : "",
               m->without && m->why_without ? m->why_without : "");
    }
    printf("  noise floor, coefficient of variation in %% (within: std/mean of one run's iterations;\n"
           "  repeat: the configuration measured again later; median and p90):\n");
    printf("    %-6s %-20s %6s %8s %8s %6s %8s %8s\n", "mode", "metric", "runs", "within", "p90", "pairs", "repeat",
           "p90");
    for (int k = 0; k < st->n_noise; k++) {
        const dlp_store_noise *nz = &st->noise[k];
        if (strcmp(nz->device, dv->name)) continue;
        char a[4][16];
        double v[4] = {nz->cv_within_median, nz->cv_within_p90, nz->cv_repeat_median, nz->cv_repeat_p90};
        for (int j = 0; j < 4; j++) {
            if (isfinite(v[j])) snprintf(a[j], sizeof a[j], "%.2f", 100 * v[j]);
            else snprintf(a[j], sizeof a[j], "-");
        }
        printf("    %-6s %-20s %6lld %8s %8s %6lld %8s %8s\n", nz->mode, nz->metric, (long long)nz->runs, a[0], a[1],
               (long long)nz->pairs, a[2], a[3]);
    }
}

static int cmd_stats(const char *path, int json) {
    dlp_store *s;
    dlp_error err = {0};
    if (dlp_store_open(path, DLP_STORE_READ, &s, &err)) return cli_fail(&err);
    dlp_store_stats *st;
    if (dlp_store_stats_get(s, &st, &err)) {
        dlp_store_close(s);
        return cli_fail(&err);
    }
    int nd = st->n_devices;
    if (json) {
        printf("{\"store\":");
        cli_json_str(stdout, path);
        printf(",\"schema\":%d,\"models\":%lld,\"graphs_present\":%lld,\"families\":%d,\"runs\":%lld,"
               "\"first\":%lld,\"ok\":%lld,\"oom\":%lld,\"error\":%lld,\"repeats\":%lld,\"devices\":[",
               DLP_STORE_SCHEMA_VERSION, (long long)st->models, (long long)st->graphs_present, st->families,
               (long long)st->runs, (long long)st->first, (long long)st->ok, (long long)st->oom,
               (long long)st->error, (long long)st->repeats);
    } else {
        printf("%s: schema %d, %d device%s, %lld models (%d families; graphs present for %lld), %lld runs: %lld first "
               "measurements (ok %lld, oom %lld, error %lld) + %lld repeats\n",
               path, DLP_STORE_SCHEMA_VERSION, nd, nd == 1 ? "" : "s", (long long)st->models, st->families,
               (long long)st->graphs_present, (long long)st->runs, (long long)st->first, (long long)st->ok,
               (long long)st->oom, (long long)st->error, (long long)st->repeats);
    }
    for (int d = 0; d < nd; d++) {
        if (json) {
            if (d) printf(",");
            stats_json_device(st, &st->devices[d]);
        } else {
            stats_text_device(st, &st->devices[d]);
        }
    }
    if (json) printf("]}\n");
    dlp_store_stats_free(st);
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
