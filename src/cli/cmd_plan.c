/*
 * cmd_plan.c — `dlperf plan`: which GPU, how many, which weight format and
 * parallelism, at what concurrency and cost, under a TTFT / TPOT service
 * level (issue 24, docs/plan.md).  The search is the library's
 * (dlp_plan_llm, src/plan/plan.c); this file parses flags and prints the
 * ranked table or the library's JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

int dlp_cmd_plan(int argc, char **argv);

#define PLAN_MAX_LIST 128

static void usage(FILE *f) {
    fprintf(f,
            "usage: dlperf plan (--model ID | --config FILE) --prompt N --gen N [--ttft MS] [--tpot MS]\n"
            "                   [--rate R] [--devices a,b,...] [--dtypes bf16,fp8,fp4] [--max-gpus N]\n"
            "                   [--max-concurrency N] [--price ID=USD,...] [--region R] [--kwh-price USD]\n"
            "                   [--mem-fraction F]\n"
            "                   [--top N] [--analytic] [--json]\n\n"
            "Ranks LLM serving configurations by cost under a service level: every GPU (and GPU\n"
            "count, weight format, tensor / expert / attention-data parallelism) at the largest\n"
            "concurrency whose TTFT and TPOT meet the limits, found by bisection over the serving\n"
            "model of 'dlperf llm --concurrency' (docs/plan.md).\n"
            "  --model ID        catalogue id, Hugging Face id or alias ('dlperf llm --list')\n"
            "  --config FILE     a Hugging Face config.json\n"
            "  --prompt N        prompt tokens per request (required)\n"
            "  --gen N           output tokens per request (required)\n"
            "  --ttft MS         time-to-first-token limit, ms (default: none)\n"
            "  --tpot MS         time-per-output-token limit, ms (default: none)\n"
            "  --rate R          requests/s to serve: replicas needed, and the ranking by the fleet's $/h\n"
            "  --devices LIST    GPU ids/names (default: every GPU of the database with a price)\n"
            "  --dtypes LIST     weight formats (default: bf16 (fp16 without bf16), fp8 and fp4 = mxfp4,\n"
            "                    each where the GPU runs it; also fp16, int8, int4, nvfp4)\n"
            "  --max-gpus N      GPUs per replica, 1..N (default 8)\n"
            "  --max-concurrency N  cap on requests in flight per replica (default: none)\n"
            "  --price ID=USD,.. your own $/h per GPU (contract prices), instead of the database's;\n"
            "                    a GPU priced here joins the default search\n"
            "  --region R        carbon region (default: the database's; 'dlperf devices --carbon')\n"
            "  --kwh-price USD   energy price per kWh: adds the energy cost per million tokens\n"
            "  --mem-fraction F  GPU memory the engine takes (default 0.9)\n"
            "  --top N           rows of the table (default 20; 0: all); JSON lists all\n"
            "  --analytic        the analytic serving model even where a learned correction exists\n"
            "  --json            JSON output: {\"considered\", \"plans\": [...], \"missed\": {...}, ...}\n"
            "\n"
            "       dlperf plan MODEL.onnx [--batch A..B] [--latency MS] [--throughput N] [--dtypes fp16,bf16,fp32]\n"
            "                   [--runtime R] [--seq N] [--devices a,b] [--price ID=USD,...] [--region R]\n"
            "                   [--kwh-price USD] [--top N] [--json]\n\n"
            "Any ONNX model (vision, ...), inference: every GPU x compute dtype at the largest batch\n"
            "whose predicted latency ('dlperf predict') meets --latency and whose memory fits, by\n"
            "bisection, ranked by $ per million samples.\n"
            "  --batch A..B      batch range searched (default 1..256; N alone: that batch only)\n"
            "  --latency MS      latency limit of one batch, ms (default: none)\n"
            "  --throughput N    samples/s to serve: replicas, and the ranking by their $/h\n"
            "  --dtypes LIST     compute dtypes (default fp16, bf16 and fp32 where the GPU has them)\n"
            "  --runtime R       eager (default), eager-1.x, compile, tensorrt or onnxruntime\n"
            "  --seq N           binds sequence dims of the model\n");
}

/* "TP4"; attention data-parallel: "DP8" (attention TP 1) or "TP2 DP4";
 * expert parallelism: " EP8".  Without EP a MoE's experts are split over
 * all the replica's GPUs. */
static void split_label(const dlp_plan_row *r, char *buf, size_t n) {
    int len;
    if (r->attention_dp > 1 && r->tp == 1) len = snprintf(buf, n, "DP%d", r->attention_dp);
    else if (r->attention_dp > 1) len = snprintf(buf, n, "TP%d DP%d", r->tp, r->attention_dp);
    else len = snprintf(buf, n, "TP%d", r->tp);
    if (r->ep > 1 && len > 0 && (size_t)len < n) snprintf(buf + len, n - (size_t)len, " EP%d", r->ep);
}

/* A right-aligned cell of a human-units string (µ counts as one column). */
static void cell(const char *s, int w) { printf(" %*s", w + dlp__hu_extra(s), s); }

static void print_row(const dlp_plan_row *r, int rank, int fleet) {
    char split[48];
    split_label(r, split, sizeof split);
    if (rank > 0) printf("%4d ", rank);
    else printf("     ");
    printf("%-16s %4d %-6s %-14s", r->device->id, r->gpus, dlp_quant_name(r->quant), split);
    cell(dlp__hu_count((double)r->concurrency), 6);
    cell(dlp__hu_ms(r->ttft_ms), 10);
    cell(dlp__hu_ms(r->tpot_ms), 10);
    cell(dlp__hu_num(r->tokens_per_s), 9);
    cell(dlp__hu_count((double)r->replicas), 8);
    /* $/M tokens with 4 significant digits ($0.1319): dlp__hu_usd's cents
     * would tie plans that differ by a quarter */
    char usd[40];
    if (r->usd_per_mtok == r->usd_per_mtok) snprintf(usd, sizeof usd, "$%s", dlp__hu_num(r->usd_per_mtok));
    else snprintf(usd, sizeof usd, "n/a");
    cell(usd, 9);
    if (fleet) cell(r->usd_per_hour == r->usd_per_hour ? dlp__hu_usd(r->usd_per_hour) : "n/a", 10);
    cell(dlp__hu_j(r->j_per_token), 10);
    cell(dlp__hu_g(r->co2_g_per_mtok), 9);
    printf("  %s\n", dlp_plan_bind_name(r->binding));
}

static void print_text(const dlp_llm_config *c, const dlp_plan_llm_opts *o, const dlp_plan *p, double secs, int top) {
    printf("%s: prompt %s + %s output tokens", c->id, dlp__hu_count((double)o->prompt),
           dlp__hu_count((double)o->gen));
    if (o->ttft_ms > 0 || o->tpot_ms > 0) {
        printf(", SLO");
        if (o->ttft_ms > 0) printf(" TTFT <= %s", dlp__hu_ms(o->ttft_ms));
        if (o->tpot_ms > 0) printf("%s TPOT <= %s", o->ttft_ms > 0 ? "," : "", dlp__hu_ms(o->tpot_ms));
    } else {
        printf(", no SLO (every configuration at the most its KV cache holds)");
    }
    if (o->rate > 0) printf(", %s requests/s", dlp__hu_num(o->rate));
    printf("\n");
    int n = dlp_plan_count(p);
    printf("searched %s configurations on %d GPU kinds (%s serving-model calls, %s): %s plans meet the SLO\n",
           dlp__hu_count((double)dlp_plan_considered(p)), dlp_plan_device_kinds(p),
           dlp__hu_count((double)dlp_plan_evaluations(p)), dlp__hu_ms(secs * 1e3), dlp__hu_count((double)n));
    int64_t missed = 0;
    for (int m = 0; m < DLP_PLAN_MISS_COUNT_; m++) missed += dlp_plan_missed(p, m);
    if (missed) {
        printf("missed %s:", dlp__hu_count((double)missed));
        static const char *const why[] = {"TTFT over the limit at concurrency 1", "TPOT over the limit at concurrency 1",
                                          "weights + one sequence's KV cache do not fit",
                                          "format the GPU cannot run", "refused by the serving model"};
        const char *sep = " ";
        for (int m = 0; m < DLP_PLAN_MISS_COUNT_; m++) {
            int64_t k = dlp_plan_missed(p, m);
            if (!k) continue;
            printf("%s%s %s", sep, dlp__hu_count((double)k), why[m]);
            sep = ", ";
        }
        printf("\n");
    }
    if (n) {
        int shown = top > 0 && top < n ? top : n;
        /* with --rate the ranking is by the fleet's $/h: show it */
        int fleet = o->rate > 0;
        printf("\n%4s %-16s %4s %-6s %-14s %6s %10s %10s %9s %8s %9s", "#", "device", "GPUs", "dtype", "parallel",
               "conc", "TTFT", "TPOT", "tok/s", "replicas", "$/M tok");
        if (fleet) printf(" %10s", "fleet $/h");
        printf(" %10s %9s  %s\n", "J/tok", "gCO2/Mtok", "binding");
        for (int i = 0; i < shown; i++) print_row(dlp_plan_at(p, i), i + 1, fleet);
        if (shown < n) printf("  ... %s more (--top 0 lists all, --json gives every plan)\n",
                              dlp__hu_count((double)(n - shown)));
        const dlp_plan_row *b = dlp_plan_at(p, 0);
        if (b->usd_per_mtok == b->usd_per_mtok) {
            printf("\nbest: %d x %s, %s, concurrency %s: $%s per million output tokens (%s/h per GPU, ", b->gpus,
                   b->device->id, dlp_quant_name(b->quant), dlp__hu_count((double)b->concurrency),
                   dlp__hu_num(b->usd_per_mtok), dlp__hu_usd(b->price_usd_per_hour));
            if (b->price_from_caller) printf("your --price)");
            else printf("%s %s)", b->device->price_provider, b->device->price_date);
            if (o->rate > 0)
                printf("; %s replicas for %s requests/s, %s/h", dlp__hu_count((double)b->replicas),
                       dlp__hu_num(o->rate), dlp__hu_usd(b->usd_per_hour));
            printf("\n");
        }
        if (o->kwh_price > 0)
            printf("energy at %s/kWh: $%s per million output tokens on the best plan\n", dlp__hu_usd(o->kwh_price),
                   dlp__hu_num(b->energy_usd_per_mtok));
    } else {
        const dlp_plan_row *m = dlp_plan_closest_miss(p);
        printf("\nno configuration meets the SLO");
        if (m) {
            char split[48];
            split_label(m, split, sizeof split);
            printf("; closest: %d x %s, %s, %s at one request in flight: TTFT %s", m->gpus, m->device->id,
                   dlp_quant_name(m->quant), split, dlp__hu_ms(m->ttft_ms));
            if (o->ttft_ms > 0) printf(" (limit %s)", dlp__hu_ms(o->ttft_ms));
            printf(", TPOT %s", dlp__hu_ms(m->tpot_ms));
            if (o->tpot_ms > 0) printf(" (limit %s)", dlp__hu_ms(o->tpot_ms));
        } else {
            printf(": none fits");
        }
        printf("\n");
    }
}

/* ---- the list flags (--devices, --dtypes, --price) ----------------------------- */

typedef struct {
    char *dbuf, *qbuf, *pbuf;   /* copies, split in place */
    const char *dev_names[PLAN_MAX_LIST], *q_names[PLAN_MAX_LIST], *price_ids[PLAN_MAX_LIST];
    double price_vals[PLAN_MAX_LIST];
    int nd, nq, np;
} cli_plan_lists;

static void lists_free(cli_plan_lists *L) {
    free(L->dbuf);
    free(L->qbuf);
    free(L->pbuf);
}

/* Split the lists; device names are checked here for the "closest ids"
 * message every --device command gives.  Returns 0 or the exit code (the
 * lists are freed by lists_free either way). */
static int parse_lists(const dlp_devdb *db, const char *devices_s, const char *dtypes_s, const char *prices_s,
                       cli_plan_lists *L) {
    memset(L, 0, sizeof *L);
    L->dbuf = devices_s ? strdup(devices_s) : NULL;
    L->qbuf = dtypes_s ? strdup(dtypes_s) : NULL;
    L->pbuf = prices_s ? strdup(prices_s) : NULL;
    if ((devices_s && !L->dbuf) || (dtypes_s && !L->qbuf) || (prices_s && !L->pbuf))
        return cli_failf(DLP_EXIT_FAIL, "plan: out of memory");
    if (L->dbuf && (L->nd = cli_split_list(L->dbuf, L->dev_names, PLAN_MAX_LIST)) < 0)
        return cli_failf(DLP_EXIT_BADINPUT, "plan: --devices '%s' is not a comma list of at most %d ids", devices_s,
                         PLAN_MAX_LIST);
    for (int i = 0; i < L->nd; i++)
        if (!dlp_devdb_find(db, L->dev_names[i])) return cli_unknown_device(db, L->dev_names[i]);
    if (L->qbuf && (L->nq = cli_split_list(L->qbuf, L->q_names, PLAN_MAX_LIST)) < 0)
        return cli_failf(DLP_EXIT_BADINPUT, "plan: --dtypes '%s' is not a comma list", dtypes_s);
    const char *items[PLAN_MAX_LIST];
    int np = 0;
    if (L->pbuf && (np = cli_split_list(L->pbuf, items, PLAN_MAX_LIST)) < 0)
        return cli_failf(DLP_EXIT_BADINPUT, "plan: --price '%s' is not a comma list of ID=USD", prices_s);
    for (int i = 0; i < np; i++) {
        char *eq = strchr(items[i], '=');
        if (!eq) return cli_failf(DLP_EXIT_BADINPUT, "plan: --price: '%s' is not ID=USD (e.g. h100-sxm=2.10)", items[i]);
        *eq = 0;
        L->price_ids[i] = items[i];
        if (!dlp_devdb_find(db, items[i])) return cli_unknown_device(db, items[i]);
        if (cli_parse_f64("--price", eq + 1, 1e-9, 1e9, &L->price_vals[i])) return DLP_EXIT_BADINPUT;
    }
    L->np = np;
    return 0;
}

/* ---- inference plans of an ONNX model ---------------------------------------- */

static void print_infer(const dlp_plan_infer_opts *o, const dlp_plan *p, const char *path, double secs, int top) {
    printf("%s: batch %s..%s, %s", path, dlp__hu_count((double)(o->batch_min > 0 ? o->batch_min : 1)),
           dlp__hu_count((double)(o->batch_max > 0 ? o->batch_max : 256)), dlp_runtime_name(o->runtime));
    if (o->latency_ms > 0) printf(", latency <= %s per batch", dlp__hu_ms(o->latency_ms));
    if (o->throughput > 0) printf(", %s samples/s", dlp__hu_num(o->throughput));
    printf("\n");
    int n = dlp_plan_count(p);
    printf("searched %s configurations on %d GPU kinds (%s predictions, %s): %s plans meet the limit\n",
           dlp__hu_count((double)dlp_plan_considered(p)), dlp_plan_device_kinds(p),
           dlp__hu_count((double)dlp_plan_evaluations(p)), dlp__hu_ms(secs * 1e3), dlp__hu_count((double)n));
    static const int reasons[] = {DLP_PLAN_MISS_LATENCY, DLP_PLAN_MISS_MEMORY, DLP_PLAN_MISS_DTYPE,
                                  DLP_PLAN_MISS_REFUSED};
    static const char *const why[] = {"latency over the limit at the least batch", "does not fit at the least batch",
                                      "dtype the GPU lacks", "refused by the predictor"};
    int64_t missed = 0;
    for (int k = 0; k < 4; k++) missed += dlp_plan_missed(p, reasons[k]);
    if (missed) {
        printf("missed %s:", dlp__hu_count((double)missed));
        const char *sep = " ";
        for (int k = 0; k < 4; k++) {
            int64_t c = dlp_plan_missed(p, reasons[k]);
            if (!c) continue;
            printf("%s%s %s", sep, dlp__hu_count((double)c), why[k]);
            sep = ", ";
        }
        printf("\n");
    }
    if (!n) {
        const dlp_plan_row *m = dlp_plan_closest_miss(p);
        printf("\nno configuration meets the limit");
        if (m)
            printf("; closest: %s, %s at batch %s: %s (limit %s)", m->device->id, dlp_dtype_short(m->dtype),
                   dlp__hu_count((double)m->batch), dlp__hu_ms(m->latency_ms), dlp__hu_ms(o->latency_ms));
        printf("\n");
        return;
    }
    int shown = top > 0 && top < n ? top : n, fleet = o->throughput > 0;
    printf("\n%4s %-18s %-5s %6s %10s %10s %8s %10s", "#", "device", "dtype", "batch", "latency", "samples/s",
           "replicas", "$/M samp");
    if (fleet) printf(" %10s", "fleet $/h");
    printf(" %10s %10s  %s\n", "J/sample", "gCO2/Msamp", "binding");
    for (int i = 0; i < shown; i++) {
        const dlp_plan_row *r = dlp_plan_at(p, i);
        printf("%4d %-18s %-5s", i + 1, r->device->id, dlp_dtype_short(r->dtype));
        cell(dlp__hu_count((double)r->batch), 6);
        cell(dlp__hu_ms(r->latency_ms), 10);
        cell(dlp__hu_num(r->samples_per_s), 10);
        cell(dlp__hu_count((double)r->replicas), 8);
        char usd[40];
        if (r->usd_per_msample == r->usd_per_msample) snprintf(usd, sizeof usd, "$%s", dlp__hu_num(r->usd_per_msample));
        else snprintf(usd, sizeof usd, "n/a");
        cell(usd, 10);
        if (fleet) cell(r->usd_per_hour == r->usd_per_hour ? dlp__hu_usd(r->usd_per_hour) : "n/a", 10);
        cell(r->j_per_sample == r->j_per_sample ? dlp__hu_j(r->j_per_sample) : "n/a", 10);
        cell(r->co2_g_per_msample == r->co2_g_per_msample ? dlp__hu_g(r->co2_g_per_msample) : "n/a", 10);
        printf("  %s\n", dlp_plan_bind_name(r->binding));
    }
    if (shown < n) printf("  ... %s more (--top 0 lists all, --json gives every plan)\n",
                          dlp__hu_count((double)(n - shown)));
}

/* "A..B" or "N" (then A = B = N). */
static int parse_batch_range(const char *s, int64_t *lo, int64_t *hi) {
    const char *dots = strstr(s, "..");
    if (!dots) {
        if (cli_parse_i64("--batch", s, 1, 1 << 20, lo)) return -1;
        *hi = *lo;
        return 0;
    }
    char a[32];
    size_t n = (size_t)(dots - s);
    if (n == 0 || n >= sizeof a) return cli_failf(DLP_EXIT_BADINPUT, "plan: --batch '%s' is not A..B or N", s), -1;
    memcpy(a, s, n);
    a[n] = 0;
    if (cli_parse_i64("--batch", a, 1, 1 << 20, lo) || cli_parse_i64("--batch", dots + 2, 1, 1 << 20, hi)) return -1;
    if (*lo > *hi) return cli_failf(DLP_EXIT_BADINPUT, "plan: --batch %s: the range is empty", s), -1;
    return 0;
}

static int plan_infer(const char *path, const char *batch_s, double latency, double throughput, const char *runtime_s,
                      int64_t seq, const char *devices_s, const char *dtypes_s, const char *prices_s,
                      const char *region, double kwh, int json, int top) {
    int64_t bmin = 1, bmax = 256;
    if (batch_s && parse_batch_range(batch_s, &bmin, &bmax)) return DLP_EXIT_BADINPUT;
    int runtime = 0;
    if (runtime_s && (runtime = dlp_runtime_parse(runtime_s)) < 0)
        return cli_failf(DLP_EXIT_BADINPUT, "plan: --runtime '%s' is not eager, eager-1.x, compile, tensorrt or "
                                            "onnxruntime", runtime_s);
    dlp_error e = {0};
    dlp_devdb *db = NULL;
    if (dlp_devdb_load(NULL, &db, &e)) return cli_fail(&e);
    cli_plan_lists L;
    int rc = parse_lists(db, devices_s, dtypes_s, prices_s, &L);
    int dts[PLAN_MAX_LIST];
    for (int i = 0; !rc && i < L.nq; i++) {
        int dt = dlp_dtype_parse(L.q_names[i]);
        if (dt != DLP_DT_FLOAT && dt != DLP_DT_FLOAT16 && dt != DLP_DT_BFLOAT16 && dt != DLP_DT_FLOAT8E4M3FN &&
            dt != DLP_DT_FLOAT8E5M2 && dt != DLP_DT_FLOAT4E2M1 && dt != DLP_DT_INT8)
            rc = cli_failf(DLP_EXIT_BADINPUT, "plan: --dtypes: '%s' is not fp32, fp16, bf16, fp8, fp4 or int8",
                           L.q_names[i]);
        dts[i] = dt;
    }
    dlp_plan_infer_opts o = {.batch_min = bmin, .batch_max = bmax, .latency_ms = latency, .throughput = throughput,
                             .devices = L.nd ? L.dev_names : NULL, .n_devices = L.nd, .dtypes = L.nq ? dts : NULL,
                             .n_dtypes = L.nq, .runtime = runtime, .seq = seq, .region = region, .kwh_price = kwh,
                             .price_devices = L.np ? L.price_ids : NULL, .price_usd_per_hour = L.price_vals,
                             .n_prices = L.np};
    dlp_plan *p = NULL;
    double t0 = cli_now_s();
    if (!rc && dlp_plan_infer(NULL, 0, path, db, &o, &p, &e)) rc = cli_fail(&e);
    double secs = cli_now_s() - t0;
    if (!rc) {
        if (json) {
            char *buf;
            size_t len;
            dlp_status st = dlp_plan_json(p, &buf, &len, &e);
            rc = cli_print_json(st, buf, len, &e);
        } else {
            print_infer(&o, p, path, secs, top);
        }
    }
    dlp_plan_free(p);
    lists_free(&L);
    dlp_devdb_free(db);
    return rc;
}

int dlp_cmd_plan(int argc, char **argv) {
    const char *model = NULL, *config = NULL, *devices_s = NULL, *dtypes_s = NULL, *region = NULL, *prices_s = NULL,
               *v, *onnx = NULL, *batch_s = NULL, *runtime_s = NULL;
    double latency = 0, throughput = 0;
    int64_t seq = 0;
    /* flags of the other kind of plan, refused by name */
    int llm_flag = 0, infer_flag = 0;
    int64_t prompt = 0, gen = 0, max_gpus = 8, max_conc = 0, top = 20;
    double ttft = 0, tpot = 0, rate = 0, kwh = 0, memfrac = 0;
    int json = 0, analytic = 0, r;
    for (int i = 1; i < argc; i++) {
        if ((r = cli_opt(argc, argv, &i, "--model", &model)) || (r = cli_opt(argc, argv, &i, "--config", &config)) ||
            (r = cli_opt(argc, argv, &i, "--devices", &devices_s)) ||
            (r = cli_opt(argc, argv, &i, "--dtypes", &dtypes_s)) ||
            (r = cli_opt(argc, argv, &i, "--price", &prices_s)) ||
            (r = cli_opt(argc, argv, &i, "--region", &region))) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            continue;
        }
        if ((r = cli_opt(argc, argv, &i, "--batch", &batch_s)) || (r = cli_opt(argc, argv, &i, "--runtime", &runtime_s))) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            infer_flag = 1;
            continue;
        }
        if (argv[i][0] != '-') {
            if (onnx) return cli_usage_error("plan", "one model file, not '%s' and '%s'", onnx, argv[i]);
            onnx = argv[i];
            continue;
        }
        struct { const char *flag; int64_t *dst; int64_t lo, hi; } nums[] = {
            {"--prompt", &prompt, 1, 1 << 22}, {"--gen", &gen, 1, 1 << 22}, {"--max-gpus", &max_gpus, 1, 1024},
            {"--max-concurrency", &max_conc, 1, 1 << 24}, {"--top", &top, 0, 1 << 24}, {"--seq", &seq, 1, 1 << 22}};
        struct { const char *flag; double *dst; double lo, hi; } reals[] = {
            {"--ttft", &ttft, 1e-6, 1e9}, {"--tpot", &tpot, 1e-6, 1e9}, {"--rate", &rate, 1e-9, 1e12},
            {"--kwh-price", &kwh, 1e-9, 1e6}, {"--mem-fraction", &memfrac, 1e-6, 1},
            {"--latency", &latency, 1e-6, 1e9}, {"--throughput", &throughput, 1e-9, 1e15}};
        int done = 0;
        for (size_t k = 0; k < sizeof nums / sizeof nums[0] && !done; k++) {
            if ((r = cli_opt(argc, argv, &i, nums[k].flag, &v)) == 0) continue;
            if (r < 0 || cli_parse_i64(nums[k].flag, v, nums[k].lo, nums[k].hi, nums[k].dst)) return DLP_EXIT_BADINPUT;
            done = 1;
            llm_flag |= k < 4;   /* prompt, gen, max-gpus, max-concurrency */
            infer_flag |= nums[k].dst == &seq;
        }
        for (size_t k = 0; k < sizeof reals / sizeof reals[0] && !done; k++) {
            if ((r = cli_opt(argc, argv, &i, reals[k].flag, &v)) == 0) continue;
            if (r < 0 || cli_parse_f64(reals[k].flag, v, reals[k].lo, reals[k].hi, reals[k].dst))
                return DLP_EXIT_BADINPUT;
            done = 1;
            llm_flag |= reals[k].dst == &ttft || reals[k].dst == &tpot || reals[k].dst == &rate ||
                        reals[k].dst == &memfrac;
            infer_flag |= reals[k].dst == &latency || reals[k].dst == &throughput;
        }
        if (done) continue;
        if (!strcmp(argv[i], "--json")) json = 1;
        else if (!strcmp(argv[i], "--analytic")) analytic = 1, llm_flag = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            return cli_usage_error("plan", "unknown option '%s'", argv[i]);
        }
    }
    if (onnx) {
        if (model || config) return cli_usage_error("plan", "give a model file or --model/--config, not both");
        if (llm_flag)
            return cli_usage_error("plan", "--prompt, --gen, --ttft, --tpot, --rate, --max-gpus, --max-concurrency, "
                                           "--mem-fraction and --analytic are LLM flags; a model file takes "
                                           "--batch, --latency, --throughput, --runtime, --seq");
        return plan_infer(onnx, batch_s, latency, throughput, runtime_s, seq, devices_s, dtypes_s, prices_s, region,
                          kwh, json, (int)top);
    }
    if (infer_flag)
        return cli_usage_error("plan", "--batch, --latency, --throughput, --runtime and --seq are for a model file "
                                       "(dlperf plan MODEL.onnx ...)");
    if (!model && !config)
        return cli_usage_error("plan", "--model ID, --config FILE or a model file is required; 'dlperf llm --list' "
                                       "lists the ids");
    if (model && config) return cli_usage_error("plan", "--model and --config are exclusive");
    if (!prompt) return cli_usage_error("plan", "--prompt N (prompt tokens per request) is required");
    if (!gen) return cli_usage_error("plan", "--gen N (output tokens per request) is required");

    dlp_error e = {0};
    dlp_llm_config c;
    dlp_status st = model ? dlp_llm_catalogue_get(model, &c, &e) : dlp_llm_config_load(config, &c, &e);
    if (st) return cli_fail(&e);
    dlp_devdb *db = NULL;
    if ((st = dlp_devdb_load(NULL, &db, &e))) return cli_fail(&e);

    cli_plan_lists L;
    int rc = parse_lists(db, devices_s, dtypes_s, prices_s, &L);
    int quants[PLAN_MAX_LIST];
    for (int i = 0; !rc && i < L.nq; i++)
        if ((quants[i] = dlp_quant_parse(L.q_names[i])) < 0)
            rc = cli_failf(DLP_EXIT_BADINPUT,
                           "plan: --dtypes: '%s' is not fp32, fp16, bf16, int8, nf4, fp8, int4, mxfp4 (fp4) or nvfp4",
                           L.q_names[i]);
    int nd = L.nd, nq = L.nq, np = L.np;
    const char **dev_names = L.dev_names, **price_ids = L.price_ids;
    double *price_vals = L.price_vals;
    dlp_plan_llm_opts o = {.prompt = prompt, .gen = gen, .ttft_ms = ttft, .tpot_ms = tpot, .rate = rate,
                           .devices = nd ? dev_names : NULL, .n_devices = nd, .quants = nq ? quants : NULL,
                           .n_quants = nq, .max_gpus = (int)max_gpus, .max_concurrency = max_conc, .region = region,
                           .mem_fraction = memfrac, .kwh_price = kwh, .analytic_only = analytic,
                           .price_devices = np ? price_ids : NULL, .price_usd_per_hour = price_vals, .n_prices = np};
    dlp_plan *p = NULL;
    double t0 = cli_now_s();
    if (!rc && (st = dlp_plan_llm(&c, db, &o, &p, &e))) rc = cli_fail(&e);
    double secs = cli_now_s() - t0;
    if (!rc) {
        if (json) {
            char *buf;
            size_t len;
            st = dlp_plan_json(p, &buf, &len, &e);
            rc = cli_print_json(st, buf, len, &e);
        } else {
            print_text(&c, &o, p, secs, (int)top);
        }
    }
    dlp_plan_free(p);
    lists_free(&L);
    dlp_devdb_free(db);
    return rc;
}
