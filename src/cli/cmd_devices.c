/*
 * cmd_devices.c — `dlperf devices`: the hardware database from the command
 * line.  With no argument, one line per device (GPUs and the measured
 * CPU, column "kind"); with an id/name/alias, every feature of it (a CPU
 * shows cores and lanes instead of SMs, and no GPU-only fields); --json prints the same as JSON; --carbon lists the
 * grid carbon intensities and the default PUE; --db FILE uses another
 * database file instead of the built-in one (same schema, docs/devices.md).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* Declared here too: main.c's table is the only caller, and -Wmissing-prototypes
 * wants a prototype in scope at the definition. */
int dlp_cmd_devices(int argc, char **argv);

static void usage(FILE *f) {
    fprintf(f,
            "usage: dlperf devices [ID] [--json] [--db FILE]\n"
            "       dlperf devices --carbon [--json] [--db FILE]\n\n"
            "Without ID: one line per device, GPU or CPU (memory, FP32 and FP16 tensor TFLOPS,\n"
            "bandwidth, TDP, on-demand price, MIG).  With ID (an id, a name such as\n"
            "'NVIDIA H100 80GB HBM3', or an alias such as 'h100'): every feature of it.\n"
            "  --json     JSON output (all devices, or the one device)\n"
            "  --carbon   grid carbon intensity by region (gCO2/kWh) and the default PUE\n"
            "  --db FILE  read this database instead of the built-in data/devices.json\n");
}

/* Value or "-" for the fields where 0 means none, into a caller buffer. */
static const char *num_or_dash(char *buf, size_t n, const char *fmt, double x) {
    if (x <= 0) return "-";
    snprintf(buf, n, fmt, x);
    return buf;
}

static void device_text(const dlp_device *d) {
    char b[64];
    printf("id:                      %s\n", d->id);
    printf("name:                    %s\n", d->name);
    printf("vendor / arch / chip:    %s / %s / %s\n", d->vendor, d->arch, d->chip);
    printf("form factor:             %s\n", d->form_factor);
    printf("kind:                    %s\n", dlp_device_kind_name(d->kind));
    printf("interface:               %s\n", d->host_interface);
    if (d->kind == DLP_DEVICE_CPU) {
        printf("cores x FP32 lanes:      %d x %d (FMA lanes per core and cycle)\n", d->sm_count,
               d->fp32_cores_per_sm);
        printf("clock:                   %g MHz\n", d->boost_clock_mhz);
        printf("FP32 / FP64 vector:      %g / %g GFLOP/s\n", d->peak_fp32_gflops, d->peak_fp64_gflops);
        printf("memory:                  %g GiB %s, %g GB/s\n", d->memory_gib, d->memory_type,
               d->mem_bandwidth_gbs);
        printf("last-level cache / L1d:  %g MiB / %s KiB per core\n", d->l2_cache_mb,
               num_or_dash(b, sizeof b, "%g", d->l1_cache_kb_per_sm));
        if (d->tdp_w > 0) printf("power TDP / idle:        %g / ~%g W\n", d->tdp_w, d->idle_w);
        else printf("power TDP / idle:        unknown (energy is not predicted)\n");
    } else {
        if (d->cc_major) printf("compute capability:      %d.%d\n", d->cc_major, d->cc_minor);
        else printf("compute capability:      -\n");
        printf("SMs x FP32 lanes:        %d x %d\n", d->sm_count, d->fp32_cores_per_sm);
        printf("boost clock:             %g MHz\n", d->boost_clock_mhz);
        printf("FP32 / FP64 / FP16 vec:  %g / %g / %s GFLOP/s\n", d->peak_fp32_gflops, d->peak_fp64_gflops,
               num_or_dash(b, sizeof b, "%g", d->peak_fp16_gflops));
        printf("tensor FP16 / BF16:      %s", num_or_dash(b, sizeof b, "%g", d->fp16_tensor_tflops));
        printf(" / %s TFLOP/s (dense)\n", num_or_dash(b, sizeof b, "%g", d->bf16_tensor_tflops));
        printf("tensor TF32 / FP8 / FP4: %s", num_or_dash(b, sizeof b, "%g", d->tf32_tensor_tflops));
        printf(" / %s", num_or_dash(b, sizeof b, "%g", d->fp8_tensor_tflops));
        printf(" / %s TFLOP/s\n", num_or_dash(b, sizeof b, "%g", d->fp4_tensor_tflops));
        printf("tensor INT8:             %s TOP/s\n", num_or_dash(b, sizeof b, "%g", d->int8_tensor_tops));
        printf("tensor FP64:             %s TFLOP/s\n", num_or_dash(b, sizeof b, "%g", d->fp64_tensor_tflops));
        if (d->fp32_matrix_tflops > 0) printf("matrix FP32:             %g TFLOP/s\n", d->fp32_matrix_tflops);
        printf("memory:                  %g GiB %s, %g GB/s\n", d->memory_gib, d->memory_type, d->mem_bandwidth_gbs);
        printf("L2 / L1 per SM:          %g MiB / %s KiB\n", d->l2_cache_mb,
               num_or_dash(b, sizeof b, "%g", d->l1_cache_kb_per_sm));
        if (d->l2_bandwidth_gbs > 0) printf("L2 bandwidth:            %g GB/s (docs/devices.md)\n", d->l2_bandwidth_gbs);
        printf("shared mem SM / block:   %g / %g KiB\n", d->shared_mem_kb_per_sm, d->shared_mem_kb_per_block);
        printf("threads SM / block:      %s / %d\n", num_or_dash(b, sizeof b, "%.0f", d->max_threads_per_sm),
               d->max_threads_per_block);
        printf("registers SM / block:    %s", num_or_dash(b, sizeof b, "%.0f", d->registers_per_sm));
        printf(" / %s\n", num_or_dash(b, sizeof b, "%.0f", d->registers_per_block));
        printf("warp size:               %d\n", d->warp_size);
        printf("power TDP / idle:        %g / ~%g W\n", d->tdp_w, d->idle_w);
        if (d->die_tdp_w > 0) printf("die power limit:         %g W (serving power scales with it; docs/devices.md)\n", d->die_tdp_w);
    }
    if (d->price_usd_per_hour > 0)
        printf("price:                   $%g/hour (%s, %s)\n", d->price_usd_per_hour, d->price_provider,
               d->price_date);
    else
        printf("price:                   -\n");
    printf("aliases:                 ");
    for (int i = 0; i < d->n_aliases; i++) printf("%s%s", i ? ", " : "", d->aliases[i]);
    printf("\n");
    if (d->n_mig) {
        printf("MIG profiles:\n  %-10s %8s %8s %7s %5s %10s\n", "profile", "GiB", "usable", "slices", "SMs",
               "instances");
        for (int i = 0; i < d->n_mig; i++) {
            const dlp_mig_profile *p = &d->mig[i];
            char u[32], s[32];
            printf("  %-10s %8g %8s %7d %5s %10d\n", p->name, p->memory_gib,
                   num_or_dash(u, sizeof u, "%g", p->usable_gib), p->compute_slices,
                   num_or_dash(s, sizeof s, "%.0f", p->sms), p->max_instances);
        }
    } else {
        printf("MIG profiles:            none%s\n", d->kind == DLP_DEVICE_CPU ? " (CPU)" : "");
    }
    if (d->notes[0]) printf("notes:                   %s\n", d->notes);
    printf("sources:\n");
    for (int i = 0; i < d->n_sources; i++) printf("  [%s] %s\n", d->source_keys[i], d->sources[i]);
}

static void devices_table(const dlp_devdb *db) {
    printf("%-17s %-28s %4s %7s %8s %8s %8s %6s %7s %4s\n", "id", "name", "kind", "mem GiB", "FP32 TF",
           "FP16 TC", "BW GB/s", "TDP W", "$/hour", "MIG");
    for (int i = 0; i < dlp_devdb_count(db); i++) {
        const dlp_device *d = dlp_devdb_at(db, i);
        char tc[32], pr[32], tdp[32];
        printf("%-17s %-28.28s %4s %7g %8.2f %8s %8g %6s %7s %4s\n", d->id, d->name, dlp_device_kind_name(d->kind),
               d->memory_gib, d->peak_fp32_gflops / 1000.0,
               num_or_dash(tc, sizeof tc, "%.1f", d->fp16_tensor_tflops), d->mem_bandwidth_gbs,
               num_or_dash(tdp, sizeof tdp, "%g", d->tdp_w), num_or_dash(pr, sizeof pr, "%.2f", d->price_usd_per_hour),
               d->n_mig ? "yes" : "no");
    }
    printf("\nFP16 TC: dense FP16 tensor/matrix TFLOPS.  'dlperf devices ID' shows every feature.\n");
}

static void carbon_text(const dlp_devdb *db) {
    printf("%-10s %9s  %s\n", "region", "gCO2/kWh", "source");
    for (int i = 0; i < dlp_carbon_region_count(db); i++) {
        const char *id, *src;
        double g;
        const dlp_region *rg = dlp_carbon_region_at(db, i);
        id = rg->id;
        g = rg->g_per_kwh;
        src = rg->source;
        printf("%-10s %9g  %s\n", id, g, src);
    }
    printf("\ndefault region: %s; default PUE: %g (docs/devices.md says why)\n",
           dlp_carbon_default_region(db), dlp_devdb_pue(db));
}

int dlp_cmd_devices(int argc, char **argv) {
    const char *id = NULL, *db_path = NULL;
    int json = 0, carbon = 0;
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
        if (!strcmp(argv[i], "--carbon")) {
            carbon = 1;
            continue;
        }
        if ((r = cli_opt(argc, argv, &i, "--db", &v)) != 0) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            db_path = v;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1])
            return cli_failf(DLP_EXIT_BADINPUT, "devices: unknown option '%s' (try 'dlperf devices --help')",
                             argv[i]);
        if (id)
            return cli_failf(DLP_EXIT_BADINPUT, "devices: one device at a time ('%s' and '%s' given)", id,
                             argv[i]);
        id = argv[i];
    }
    if (carbon && id) return cli_failf(DLP_EXIT_BADINPUT, "devices: --carbon takes no device");

    dlp_error err = {0};
    dlp_devdb *db = NULL;
    if (dlp_devdb_load(db_path, &db, &err)) return cli_fail(&err);
    int rc = DLP_EXIT_OK;
    char *buf = NULL;
    size_t len = 0;
    if (carbon) {
        if (json) {
            dlp_status st = dlp_carbon_json(db, &buf, &len, &err);
            rc = cli_print_json(st, buf, len, &err);
        } else {
            carbon_text(db);
        }
    } else if (id) {
        const dlp_device *d = dlp_devdb_find(db, id);
        if (!d) rc = cli_unknown_device(db, id);
        else if (json) {
            dlp_status st = dlp_device_json(d, &buf, &len, &err);
            rc = cli_print_json(st, buf, len, &err);
        } else {
            device_text(d);
        }
    } else if (json) {
        dlp_status st = dlp_devices_json(db, &buf, &len, &err);
        rc = cli_print_json(st, buf, len, &err);
    } else {
        devices_table(db);
    }
    dlp_devdb_free(db);
    if (rc == DLP_EXIT_OK && fflush(stdout) != 0) rc = cli_write_error("stdout");
    return rc;
}
