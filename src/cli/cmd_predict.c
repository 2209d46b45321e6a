/*
 * cmd_predict.c — `dlperf predict MODEL.onnx --device ID ...`: the front
 * door.  Loads the model, predicts latency (or training step time),
 * throughput, memory with its breakdown, energy and power, the MIG profile
 * with the fit of every profile (DIPPM's table 5), cost and carbon for the
 * requested runs or steps, and prints them as text or JSON.  Every number
 * comes from dlp_predict (src/predict/; docs/predict.md): the
 * analytic roofline, on a CPU adapted (docs/learned.md), and shipped learned
 * models where one exists for the device and mode — the output names the
 * source of latency/step time and memory and keeps the analytic values.
 *
 * Shared with cmd_roofline.c through cli_predict_args / cli_predict_setup
 * below, so both commands accept the same flags and fail the same way.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "cli/predict_args.h"

int dlp_cmd_predict(int argc, char **argv);

/* ---- flags shared with `dlperf roofline` ------------------------------------ */

static int parse_dtype(const char *s, int *out) {
    int dt = dlp_dtype_parse(s);
    return dt < 0 ? -1 : (*out = dt, 0);
}

int cli_predict_arg(int argc, char **argv, int *i, cli_predict_args *a) {
    const char *v;
    int r = cli_graph_flag(argc, argv, i, &a->gf);
    if (r) return r;
    const char *s = argv[*i];
    if ((r = cli_opt(argc, argv, i, "--device", &v)) != 0) return r < 0 ? -1 : (a->device = v, 1);
    if ((r = cli_opt(argc, argv, i, "--db", &v)) != 0) return r < 0 ? -1 : (a->db_path = v, 1);
    if ((r = cli_opt(argc, argv, i, "--region", &v)) != 0) return r < 0 ? -1 : (a->o.region = v, 1);
    if ((r = cli_opt(argc, argv, i, "--mode", &v)) != 0) {
        if (r < 0) return -1;
        if ((a->o.mode = dlp_predict_mode_parse(v)) < 0)
            return cli_failf(DLP_EXIT_BADINPUT, "--mode: '%s' is not infer or train", v), -1;
        return 1;
    }
    if ((r = cli_opt(argc, argv, i, "--dtype", &v)) != 0) {
        if (r < 0) return -1;
        if (parse_dtype(v, &a->o.dtype))
            return cli_failf(DLP_EXIT_BADINPUT, "--dtype: '%s' is not fp32, fp16, bf16, fp8, fp4 or int8", v), -1;
        return 1;
    }
    if ((r = cli_opt(argc, argv, i, "--optimizer", &v)) != 0) {
        if (r < 0) return -1;
        if ((a->o.optimizer = dlp_optimizer_parse(v)) < 0)
            return cli_failf(DLP_EXIT_BADINPUT, "--optimizer: '%s' is not adam, sgd or sgd-momentum", v), -1;
        return 1;
    }
    if ((r = cli_opt(argc, argv, i, "--runs", &v)) != 0)
        return r < 0 || cli_parse_count("--runs", v, 1, 1e18, &a->o.runs) ? -1 : 1;
    if ((r = cli_opt(argc, argv, i, "--steps", &v)) != 0)
        return r < 0 || cli_parse_count("--steps", v, 1, 1e18, &a->o.steps) ? -1 : 1;
    if ((r = cli_opt(argc, argv, i, "--margin", &v)) != 0) {
        double m;
        if (r < 0 || cli_parse_f64("--margin", v, 0, 10, &m)) return -1;
        a->o.mig_margin = m > 0 ? m : -1;       /* 0 given: really no margin */
        return 1;
    }
    if ((r = cli_opt(argc, argv, i, "--latency-slo", &v)) != 0)
        return r < 0 || cli_parse_f64("--latency-slo", v, 1e-9, 1e12, &a->o.latency_slo_ms) ? -1 : 1;
    if ((r = cli_opt(argc, argv, i, "--launch-us", &v)) != 0) {
        double us;
        if (r < 0 || cli_parse_f64("--launch-us", v, 0, 1e6, &us)) return -1;
        a->o.launch_us = us > 0 ? us : -1;      /* 0 given: no overhead */
        return 1;
    }
    if ((r = cli_opt(argc, argv, i, "--host-us", &v)) != 0)
        return r < 0 || cli_parse_f64("--host-us", v, 0, 1e6, &a->o.host_us) ? -1 : 1;
    if ((r = cli_opt(argc, argv, i, "--power-limit", &v)) != 0)
        return r < 0 || cli_parse_f64("--power-limit", v, 1, 1e5, &a->o.power_limit_w) ? -1 : 1;
    if ((r = cli_opt(argc, argv, i, "--runtime", &v)) != 0) {
        if (r < 0) return -1;
        int rt = dlp_runtime_parse(v);
        if (rt < 0)
            return cli_failf(DLP_EXIT_BADINPUT,
                             "--runtime: '%s' is not eager, eager-1.x, compile, tensorrt or onnxruntime", v), -1;
        dlp_predict_use_runtime(&a->o, rt);   /* presets; later flags still override */
        return 1;
    }
    if ((r = cli_opt(argc, argv, i, "--cudnn", &v)) != 0) {
        if (r < 0) return -1;
        if (strcmp(v, "8") && strcmp(v, "9"))
            return cli_failf(DLP_EXIT_BADINPUT, "--cudnn: '%s' is not 8 or 9 (the cuDNN major version)", v), -1;
        a->o.cudnn = v[0] - '0';
        return 1;
    }
    if ((r = cli_opt(argc, argv, i, "--layout", &v)) != 0) {
        if (r < 0) return -1;
        int f = dlp_memfmt_parse(v);
        if (f < 0) return cli_failf(DLP_EXIT_BADINPUT, "--layout: '%s' is not nchw or nhwc (channels_last)", v), -1;
        a->o.memfmt = f;
        return 1;
    }
    if (!strcmp(s, "--no-sdpa")) return a->o.no_sdpa = 1, 1;
    if (!strcmp(s, "--no-amp")) return a->o.no_amp = 1, 1;
    if (!strcmp(s, "--tf32")) return a->o.tf32 = DLP_TF32_ON, 1;
    if (!strcmp(s, "--no-tf32")) return a->o.tf32 = DLP_TF32_OFF, 1;
    if (!strcmp(s, "--pure")) return a->o.pure_roofline = 1, 1;
    if (!strcmp(s, "--fuse")) return a->o.fuse = 1, 1;
    if (!strcmp(s, "--no-learned")) return a->o.no_learned = 1, 1;
    return 0;
}

int cli_predict_run(const char *cmd, cli_predict_args *a, cli_predict_state *s) {
    memset(s, 0, sizeof *s);
    if (!a->path) return cli_usage_error(cmd, "no model given (MODEL.onnx)");
    if (!a->device)
        return cli_usage_error(cmd, "--device ID is required; 'dlperf devices' lists the ids");
    dlp_error err = {0};
    if (dlp_devdb_load(a->db_path, &s->db, &err)) return cli_fail(&err);
    s->dev = dlp_devdb_find(s->db, a->device);
    if (!s->dev) {
        int rc = cli_unknown_device(s->db, a->device);
        cli_predict_done(s);
        return rc;
    }
    dlp_load_opts lo;
    cli_graph_opts(&a->gf, &lo);
    if (dlp_graph_load(a->path, &lo, &s->g, &err)) {
        cli_predict_done(s);
        return cli_fail(&err);
    }
    a->o.batch = a->gf.batch;
    dlp_status st = dlp_predict(s->g, s->dev, s->db, &a->o, &s->p, &err);
    if (st) {
        int rc = cli_fail(&err);
        cli_predict_done(s);
        return rc;
    }
    return 0;
}

void cli_predict_done(cli_predict_state *s) {
    dlp_prediction_clear(&s->p);
    dlp_graph_free(s->g);
    dlp_devdb_free(s->db);
    memset(s, 0, sizeof *s);
}


/* ---- output ----------------------------------------------------------------- */

static void usage(FILE *f) {
    fprintf(f,
            "usage: dlperf predict MODEL.onnx --device ID [--batch N] [--seq N] [--dim NAME=V]...\n"
            "                      [--mode infer|train] [--dtype fp32|fp16|bf16|int8] [--tf32|--no-tf32]\n"
            "                      [--optimizer adam|sgd|sgd-momentum] [--runs N | --steps N]\n"
            "                      [--region R] [--margin X] [--latency-slo MS] [--launch-us US] [--host-us US]\n"
            "                      [--runtime R] [--cudnn 8|9] [--layout nchw|nhwc] [--no-sdpa] [--no-amp] [--fuse]\n"
            "                      [--pure] [--no-learned] [--json] [--nodes] [--kernels] [--db FILE]\n\n"
            "Predicts latency (training: step time), throughput, peak memory, energy, power, the MIG\n"
            "profile, cost and carbon of MODEL on a GPU or CPU of the database, without running it\n"
            "(docs/predict.md).  Where a shipped learned model exists for the device and mode\n"
            "(docs/learned.md) it gives latency/step time and memory; the analytic values are shown too.\n"
            "  --device ID        GPU or CPU id, name or alias ('dlperf devices' lists them)\n"
            "  --mode             infer (default): one forward pass of the batch; train: one step\n"
            "                     (forward, backward, optimizer)\n"
            "  --dtype            compute type (default: the file's); fp16/bf16 scale the file's float\n"
            "                     tensors as .half()/autocast would; int8 = quantised inference\n"
            "  --tf32 / --no-tf32 fp32 matmuls on TF32 tensor cores too / nothing on TF32 (default:\n"
            "                     PyTorch's: convs TF32, matmuls FP32)\n"
            "  --optimizer        training optimizer state and step (default adam)\n"
            "  --runs N           inference: cost and carbon of N forward passes of the batch (N x\n"
            "                     batch samples); default 1\n"
            "  --steps N          training: cost and carbon of N steps; default 1\n"
            "  --region R         carbon region ('dlperf devices --carbon'); default the database's\n"
            "  --margin X         MIG memory safety margin, fraction (default 0.1; 0 = DIPPM's rule)\n"
            "  --latency-slo MS   MIG latency objective (full-GPU time x 7 / slices must meet it)\n"
            "  --launch-us US     per-kernel launch overhead (default 5; CPU: per-op dispatch, default\n"
            "                     %g; 0 = none, e.g. CUDA graphs: each GPU kernel then takes at least 5 us)\n"
            "  --host-us US       host CPU time to issue one kernel (eager; default 0: the host keeps\n"
            "                     ahead): a kernel starts at the later of the previous one's end and its\n"
            "                     issue time, so small batches on fast GPUs wait for the host\n"
            "  --power-limit W    board power limit (nvidia-smi -pl; default the TDP): heavy kernels clock\n"
            "                     down to meet it (DVFS, docs/predict.md)\n"
            "  --runtime R        which runtime's kernels are timed (docs/predict.md, \"Lowering\"):\n"
            "                     eager (default, PyTorch 2.x: fused norms/activations, SDPA, views free),\n"
            "                     eager-1.x (no SDPA), compile (inductor: pointwise/reduction chains and\n"
            "                     GEMM epilogues fuse), tensorrt (fusions, GEMMs/attention on curves, rest pure\n"
            "                     roofline, no launch gaps, 5 us kernel floor; NVIDIA, inference), onnxruntime (its\n"
            "                     documented fusions).  Combinations that do not exist are refused\n"
            "  --cudnn 8|9        the cuDNN major version eager/compile link (default: eager-1.x 8,\n"
            "                     others 9; PyTorch wheels before 2.4 ship 8): cuDNN 8 trains grouped\n"
            "                     convs on its direct kernels, and runs the NHWC forward of a group\n"
            "                     width that is not a power of two there (docs/predict.md, \"Training\")\n"
            "  --layout L         nchw (default) or nhwc (channels_last) activations\n"
            "  --no-sdpa          attention runs as written (code that does not call SDPA)\n"
            "  --no-amp           fp16/bf16 as model.half() (default: torch.autocast, whose fp32 ops such\n"
            "                     as softmax cast up and back)\n"
            "  --fuse             inference: elementwise ops, activations and BatchNorm fed by a\n"
            "                     conv/gemm/matmul run in its epilogue (TensorRT, torch.compile)\n"
            "  --pure             pure roofline (efficiency 1) instead of the calibrated curves\n"
            "  --no-learned       analytic numbers only: ignore the shipped learned models\n"
            "  --nodes            per-node table (time, bound, efficiency)\n"
            "  --kernels          the lowered kernel list, as torch.profiler names the ops, with each\n"
            "                     kernel's time, bound and the source of its efficiency curve\n"
            "  --json             JSON output\n"
            "  --db FILE          read this device database instead of the built-in one\n",
            DLP_PREDICT_CPU_DISPATCH_US);
}

static void print_nodes(const cli_predict_state *s) {
    const dlp_prediction *p = &s->p;
    double total = 0;
    for (int i = 0; i < p->n_nodes; i++) total += p->nodes[i].time_ms;
    printf("\n  %-5s %-36s %-16s %-11s %2s %5s %10s %10s %8s %6s %10s %6s\n", "#", "node", "op", "class", "k",
           "bound", "FLOPs", "bytes", "FLOP/B", "ratio", "fwd time", "share");
    for (int i = 0; i < p->n_nodes; i++) {
        const dlp_node_pred *n = &p->nodes[i];
        dlp_node_info ni;
        ni = *dlp_graph_node_at(s->g, n->node);
        const char *t = dlp__hu_ms(n->time_ms);
        printf("  %-5d %-36.36s %-16.16s %-11.11s %2d %5s %10s %10s %8s %6.2f %*s %5.1f%%%s\n", n->node,
               ni.name, ni.op_type, dlp_op_class_name(n->op_class), n->kernels,
               !n->kernels ? (n->fused_into >= 0 ? "fused" : "-") : n->bound == 'c' ? "comp" : "mem",
               dlp__hu_si(n->flops, ""), dlp__hu_si(n->bytes, ""), dlp__hu_sig(n->bytes > 0 ? n->flops / n->bytes : 0, 3),
               n->ratio, 10 + dlp__hu_extra(t), t, total > 0 ? 100 * n->time_ms / total : 0,
               n->unknown ? "  (cost unknown)" : "");
    }
}

static void print_kernels(const cli_predict_state *s) {
    const dlp_prediction *p = &s->p;
    double total = 0;
    for (int i = 0; i < p->n_kernel_rows; i++) total += p->kernel_rows[i].time_ms;
    static const char *const phase[] = {"fwd", "bwd", "opt"};
    printf("\n  kernels (%s, %s): %d rows\n", dlp_runtime_name(p->runtime), dlp_memfmt_name(p->memfmt),
           p->n_kernel_rows);
    printf("  %-4s %-3s %-34s %-11s %5s %5s %5s %10s %10s %6s %10s %6s  %s\n", "#", "ph", "kernel", "class", "nodes",
           "count", "bound", "FLOPs", "bytes", "ratio", "time", "share", "curve");
    for (int i = 0; i < p->n_kernel_rows; i++) {
        const dlp_kernel_pred *k = &p->kernel_rows[i];
        const char *t = dlp__hu_ms(k->time_ms);
        printf("  %-4d %-3s %-34.34s %-11.11s %5d %5d %5s %10s %10s %6.2f %*s %5.1f%%  %s\n", i,
               phase[k->phase >= 0 && k->phase < 3 ? k->phase : 0], k->name, dlp_kernel_class_name(k->kclass),
               k->n_nodes, k->count, k->bound == 'c' ? "comp" : "mem", dlp__hu_si(k->flops, ""), dlp__hu_si(k->bytes, ""),
               k->ratio, 10 + dlp__hu_extra(t), t,
               total > 0 ? 100 * k->time_ms / total : 0, k->curve ? k->curve : "");
    }
}

static void print_text(const cli_predict_state *s, int nodes) {
    const dlp_prediction *p = &s->p;
    const dlp_device *d = s->dev;
    int train = p->mode == DLP_PREDICT_TRAIN;
    double unit = train ? p->step_ms : p->latency_ms;
    printf("model:        %s (batch %lld, %s, %s)\n", p->model, (long long)p->batch, dlp_dtype_short(p->dtype),
           train ? "training" : "inference");
    printf("device:       %s (%s)\n", d->id, d->name);
    printf("method:       %s%s\n", p->method,
           p->time_src.learned || p->memory_src.learned ? " (analytic), learned models where marked" : "");
    printf("kernels of:   %s runtime, %s activations (--kernels lists them)\n", dlp_runtime_name(p->runtime),
           p->memfmt == DLP_MEMFMT_NHWC ? "channels_last" : "NCHW");
    if (train) printf("step time:    %s (forward %s, analytic)", dlp__hu_ms(p->step_ms), dlp__hu_ms(p->latency_ms));
    else printf("latency:      %s", dlp__hu_ms(p->latency_ms));
    if (p->time_src.learned) printf("   [learned: %s; analytic %s]\n", p->time_src.model, dlp__hu_ms(p->time_src.analytic));
    else if (p->band_hi_ms > 0)
        printf("   band %s .. %s (p10..p90 of kernel errors)\n", dlp__hu_ms(p->band_lo_ms), dlp__hu_ms(p->band_hi_ms));
    else printf("   (analytic, no band)\n");
    char nb[48], cb[48];
    printf("throughput:   %s samples/s\n", cli_count(p->throughput_sps, nb, sizeof nb));
    if (p->memory_src.learned)
        printf("memory:       %.0f MiB   [learned: %s]\n              analytic %.0f MiB", p->memory_mb, p->memory_src.model,
               p->memory_src.analytic);
    else
        printf("memory:       %.0f MiB", p->memory_mb);
    printf(" = weights %.1f + activations %.1f", p->weights_mb, p->activations_mb);
    if (train) printf(" + gradients %.1f + optimizer %.1f", p->gradients_mb, p->optimizer_mb);
    if (d->kind == DLP_DEVICE_CPU) printf(" + process base %.1f\n", p->context_mb);
    else printf(" + workspace %.1f + context %.1f\n", p->workspace_mb, p->context_mb);
    if (!p->fits)
        printf("              DOES NOT FIT (needs %.1f GiB of %.1f GiB); the times are for a device that had the "
               "memory\n", p->memory_mb / 1024, p->device_memory_mb / 1024);
    if (p->time_src.learned || p->memory_src.learned) {
        const dlp_pred_source *a = p->time_src.learned ? &p->time_src : &p->memory_src;
        printf("accuracy:     %s: %s\n", a->model, a->accuracy);
        if (p->time_src.learned && p->memory_src.learned && strcmp(p->time_src.model, p->memory_src.model))
            printf("              %s: %s\n", p->memory_src.model, p->memory_src.accuracy);
    }
    if (p->learned_note[0]) printf("learned:      %s\n", p->learned_note);
    if (p->energy_known)
        printf("energy:       %s per %s, average power %s (%s %s), utilisation %.0f%%\n", dlp__hu_j(p->energy_j),
               train ? "step" : "pass", dlp__hu_w(p->power_w), p->power_limit_w < d->tdp_w ? "limit" : "TDP",
               dlp__hu_w(p->power_limit_w), 100 * p->utilisation);
    if (p->energy_known && p->clock_share < 0.9995)
        printf("clocks:       %.0f%% of boost on average: the %s limit caps the draw of heavy kernels "
               "(DVFS; compute-bound kernels stretch)\n", 100 * p->clock_share, dlp__hu_w(p->power_limit_w));
    if (!p->energy_known)
        printf("energy:       not predicted (no power data for %s%s), utilisation %.0f%%\n", d->id,
               d->kind == DLP_DEVICE_CPU ? ": a CPU slice without TDP or RAPL" : "", 100 * p->utilisation);
    printf("work:         %s %s, %s, %s DRAM traffic", dlp__hu_count(p->kernels),
           d->kind == DLP_DEVICE_CPU ? "ops" : "kernels", dlp__hu_si(p->flops, "FLOP"), dlp__hu_si(p->bytes, "B"));
    if (p->n_unknown) printf(", %d nodes of unknown cost (launch only)", p->n_unknown);
    printf("\n");
    if (d->kind == DLP_DEVICE_CPU) printf("MIG:          none (CPU)\n");
    else
        printf("MIG:          %s (margin %g%%; %s)\n", p->mig.profile ? p->mig.profile->name : "none",
               100 * p->mig_margin, p->mig.reason);
    if (p->mig.n_fit) {
        printf("              %-10s %7s %7s %5s", "profile", "GiB", "used", "fits");
        if (p->mig.fit[0].latency_ms >= 0) printf(" %10s", "est. time");
        if (p->mig.fit[0].meets_slo >= 0) printf(" %4s", "SLO");
        printf("\n");
        for (int i = 0; i < p->mig.n_fit; i++) {
            const dlp_mig_fit *t = &p->mig.fit[i];
            printf("              %-10s %7g %6.1f%% %5s", d->mig[i].name, d->mig[i].memory_gib, 100 * t->used_share,
                   t->fits_memory ? "yes" : "no");
            const char *ms = dlp__hu_ms(t->latency_ms);
            if (t->latency_ms >= 0) printf(" %*s", 10 + dlp__hu_extra(ms), ms);
            if (t->meets_slo >= 0) printf(" %4s", t->meets_slo ? "yes" : "no");
            printf("%s\n", i == p->mig.index ? "  <-" : "");
        }
    }
    double count = train ? p->steps : p->runs;
    const char *what = train ? (count == 1 ? "step" : "steps") : (count == 1 ? "forward pass" : "forward passes");
    snprintf(cb, sizeof cb, "%s", dlp__hu_count(count));
    if (p->cost_usd >= 0)
        printf("cost:         %s for %s %s (%s x %s/h, %s)\n", dlp__hu_usd(p->cost_usd), cb, what,
               dlp__hu_ms(p->total_hours * 3.6e6), dlp__hu_usd(p->price_usd_per_hour), d->price_provider);
    else
        printf("cost:         n/a (no price for %s in the database; %s for %s %s)\n", d->id,
               dlp__hu_ms(p->total_hours * 3.6e6), cb, what);
    if (p->energy_known)
        /* the energy in the unit a person reads (J for one pass, kWh for a
         * long run): dlp__hu_j switches to kWh from 10 kWh on */
        printf("carbon:       %s CO2 (%s x PUE %g x %g g/kWh, region %s)\n", dlp__hu_g(p->co2_g),
               dlp__hu_j(p->energy_kwh * 3.6e6), p->pue, p->g_per_kwh, p->region);
    else
        printf("carbon:       not predicted (no energy)\n");
    (void)unit;
    if (nodes) print_nodes(s);
}

int dlp_cmd_predict(int argc, char **argv) {
    cli_predict_args a;
    memset(&a, 0, sizeof a);
    int json = 0, nodes = 0, kernels = 0;
    for (int i = 1; i < argc; i++) {
        int r = cli_predict_arg(argc, argv, &i, &a);
        if (r < 0) return DLP_EXIT_BADINPUT;
        if (r) continue;
        if (!strcmp(argv[i], "--json")) json = 1;
        else if (!strcmp(argv[i], "--nodes")) nodes = 1;
        else if (!strcmp(argv[i], "--kernels")) kernels = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return DLP_EXIT_OK;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_failf(DLP_EXIT_BADINPUT, "predict: unknown option '%s' (try 'dlperf predict --help')", argv[i]);
        } else if (!a.path) a.path = argv[i];
        else return cli_failf(DLP_EXIT_BADINPUT, "predict: more than one model given ('%s')", argv[i]);
    }
    if (a.o.mode == DLP_PREDICT_TRAIN && a.o.runs > 0)
        return cli_failf(DLP_EXIT_BADINPUT, "predict: --runs counts inference passes; use --steps with --mode train");
    if (a.o.mode == DLP_PREDICT_INFER && a.o.steps > 0)
        return cli_failf(DLP_EXIT_BADINPUT, "predict: --steps counts training steps; add --mode train (or use --runs)");
    cli_predict_state s;
    int rc = cli_predict_run("predict", &a, &s);
    if (rc) return rc;
    if (!json)
        for (int i = 0; i < dlp_graph_warning_count(s.g); i++)
            fprintf(stderr, "dlperf: warning: %s\n", dlp_graph_warning_at(s.g, i));
    if (json) {
        /* the library's text: the same bytes as the HTTP API's answer */
        char *buf;
        size_t len;
        dlp_error err = {0};
        dlp_status st = dlp_prediction_json(&s.p, s.dev, kernels ? DLP_JSON_KERNELS : 0, &buf, &len, &err);
        rc = cli_print_json(st, buf, len, &err);
        cli_predict_done(&s);
        return rc;
    }
    print_text(&s, nodes);
    if (kernels) print_kernels(&s);
    cli_predict_done(&s);
    if (fflush(stdout) != 0) return cli_write_error("stdout");
    return DLP_EXIT_OK;
}
