/*
 * cmd_mig.c — `dlperf mig`: which MIG profile of a GPU should serve a model
 * that needs a given amount of memory (and optionally meets a latency SLO)?
 * Prints the recommendation and, like DIPPM's table 5, how much of each
 * profile's memory the model would use.  The rule lives in src/hw/mig.c and
 * is described in docs/devices.md.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* Declared here too: main.c's table is the only caller, and -Wmissing-prototypes
 * wants a prototype in scope at the definition. */
int dlp_cmd_mig(int argc, char **argv);

static void usage(FILE *f) {
    fprintf(f,
            "usage: dlperf mig --device ID --memory-mb MIB [--margin 0.1]\n"
            "                  [--latency-ms MS --slo-ms MS] [--json] [--db FILE]\n\n"
            "Recommends the smallest MIG profile (by memory, then compute slices) that holds\n"
            "MIB x (1 + margin) of memory and, with --slo-ms, whose latency (full-GPU\n"
            "--latency-ms scaled by 7 / compute slices) meets the SLO.\n"
            "  --device ID       GPU id, name or alias (dlperf devices lists them)\n"
            "  --memory-mb MIB   memory the model needs, MiB (e.g. dlperf's peak memory)\n"
            "  --margin X        safety margin, fraction (default 0.1 = 10%%)\n"
            "  --latency-ms MS   latency on the whole GPU, to estimate each profile's\n"
            "  --slo-ms MS       latency objective a profile must meet\n"
            "  --json            JSON output\n"
            "  --db FILE         read this device database instead of the built-in one\n");
}

static const char *tri(int v) { return v < 0 ? "-" : v ? "yes" : "no"; }

static void print_text(const dlp_device *d, double mem, double margin, double lat, double slo,
                       const dlp_mig_choice *c) {
    printf("device:          %s (%s)\n", d->id, d->name);
    printf("memory needed:   %.0f MiB + %g%% margin = %.0f MiB\n", mem, margin * 100, c->need_mb);
    if (lat > 0) printf("latency:         %s on the full GPU%s", dlp__hu_ms(lat), slo > 0 ? "" : "\n");
    if (slo > 0) printf(", SLO %s\n", dlp__hu_ms(slo));
    printf("recommendation:  %s\n", c->profile ? c->profile->name : "none");
    printf("reason:          %s\n", c->reason);
    if (!c->n_fit) return;
    printf("\n%-10s %7s %7s %6s %4s %5s %7s %5s %7s", "profile", "GiB", "usable", "slices", "SMs", "inst",
           "used", "fits", "usable?");
    if (lat > 0) printf(" %10s", "est. time");
    if (slo > 0) printf(" %4s", "SLO");
    printf("\n");
    for (int i = 0; i < c->n_fit; i++) {
        const dlp_mig_profile *p = &d->mig[i];
        const dlp_mig_fit *t = &c->fit[i];
        char u[32] = "-", s[32] = "-";
        if (p->usable_gib > 0) snprintf(u, sizeof u, "%g", p->usable_gib);
        if (p->sms > 0) snprintf(s, sizeof s, "%d", p->sms);
        printf("%-10s %7g %7s %6d %4s %5d %6.1f%% %5s %7s", p->name, p->memory_gib, u, p->compute_slices, s,
               p->max_instances, t->used_share * 100, t->fits_memory ? "yes" : "no", tri(t->fits_usable));
        const char *ms = dlp__hu_ms(t->latency_ms);
        if (lat > 0) printf(" %*s", 10 + dlp__hu_extra(ms), ms);
        if (slo > 0) printf(" %4s", tri(t->meets_slo));
        printf("%s\n", i == c->index ? "  <-" : "");
    }
    printf("\nused: the model's memory (no margin) as a share of the profile's nominal memory.\n");
}

int dlp_cmd_mig(int argc, char **argv) {
    const char *dev_name = NULL, *db_path = NULL;
    double mem = -1, margin = 0.10, lat = 0, slo = 0;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        const char *v;
        int r;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return DLP_EXIT_OK;
        }
        if (!strcmp(argv[i], "--json")) {
            json = 1;
            continue;
        }
        if ((r = cli_opt(argc, argv, &i, "--device", &v)) != 0) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            dev_name = v;
            continue;
        }
        if ((r = cli_opt(argc, argv, &i, "--db", &v)) != 0) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            db_path = v;
            continue;
        }
        if ((r = cli_opt(argc, argv, &i, "--memory-mb", &v)) != 0) {
            if (r < 0 || cli_parse_f64("--memory-mb", v, 0, 1e9, &mem)) return DLP_EXIT_BADINPUT;
            continue;
        }
        if ((r = cli_opt(argc, argv, &i, "--margin", &v)) != 0) {
            if (r < 0 || cli_parse_f64("--margin", v, 0, 10, &margin)) return DLP_EXIT_BADINPUT;
            continue;
        }
        if ((r = cli_opt(argc, argv, &i, "--latency-ms", &v)) != 0) {
            if (r < 0 || cli_parse_f64("--latency-ms", v, 1e-9, 1e12, &lat)) return DLP_EXIT_BADINPUT;
            continue;
        }
        if ((r = cli_opt(argc, argv, &i, "--slo-ms", &v)) != 0) {
            if (r < 0 || cli_parse_f64("--slo-ms", v, 1e-9, 1e12, &slo)) return DLP_EXIT_BADINPUT;
            continue;
        }
        return cli_failf(DLP_EXIT_BADINPUT, "mig: unknown argument '%s' (try 'dlperf mig --help')", argv[i]);
    }
    if (!dev_name) return cli_usage_error("mig", "--device is required");
    if (mem < 0) return cli_usage_error("mig", "--memory-mb is required");
    if (slo > 0 && lat <= 0)
        return cli_failf(DLP_EXIT_BADINPUT, "mig: --slo-ms needs --latency-ms (the full-GPU latency to scale)");

    dlp_error err = {0};
    dlp_devdb *db = NULL;
    if (dlp_devdb_load(db_path, &db, &err)) return cli_fail(&err);
    const dlp_device *d = dlp_devdb_find(db, dev_name);
    if (!d) {
        int rc = cli_unknown_device(db, dev_name);
        dlp_devdb_free(db);
        return rc;
    }
    if (d->kind == DLP_DEVICE_CPU) {
        /* Not "recommendation: none": that would read as "too big for every
         * profile".  A CPU cannot be partitioned this way at all. */
        int rc = cli_failf(DLP_EXIT_BADINPUT,
                           "mig: '%s' is a CPU; MIG (Multi-Instance GPU) partitions NVIDIA A100/H100-class "
                           "GPUs only ('dlperf devices' lists those with MIG: yes)", d->id);
        dlp_devdb_free(db);
        return rc;
    }
    dlp_mig_choice c;
    dlp_status st = dlp_mig_recommend(d, mem, margin, lat, slo, &c);
    int rc = DLP_EXIT_OK;
    if (st) rc = cli_failf(cli_exit_code(st), "mig: %s", c.reason);
    else if (json) {
        char *buf;
        size_t len;
        st = dlp_mig_json(d, mem, margin, lat, slo, &c, &buf, &len, &err);
        rc = cli_print_json(st, buf, len, &err);
    } else print_text(d, mem, margin, lat, slo, &c);
    dlp_devdb_free(db);
    if (rc == DLP_EXIT_OK && fflush(stdout) != 0) rc = cli_write_error("stdout");
    return rc;
}
