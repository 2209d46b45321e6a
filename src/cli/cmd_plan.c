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
            "  --json            JSON output: {\"considered\", \"plans\": [...], \"missed\": {...}, ...}\n");
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

int dlp_cmd_plan(int argc, char **argv) {
    const char *model = NULL, *config = NULL, *devices_s = NULL, *dtypes_s = NULL, *region = NULL, *prices_s = NULL,
               *v;
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
        struct { const char *flag; int64_t *dst; int64_t lo, hi; } nums[] = {
            {"--prompt", &prompt, 1, 1 << 22}, {"--gen", &gen, 1, 1 << 22}, {"--max-gpus", &max_gpus, 1, 1024},
            {"--max-concurrency", &max_conc, 1, 1 << 24}, {"--top", &top, 0, 1 << 24}};
        struct { const char *flag; double *dst; double lo, hi; } reals[] = {
            {"--ttft", &ttft, 1e-6, 1e9}, {"--tpot", &tpot, 1e-6, 1e9}, {"--rate", &rate, 1e-9, 1e12},
            {"--kwh-price", &kwh, 1e-9, 1e6}, {"--mem-fraction", &memfrac, 1e-6, 1}};
        int done = 0;
        for (size_t k = 0; k < sizeof nums / sizeof nums[0] && !done; k++) {
            if ((r = cli_opt(argc, argv, &i, nums[k].flag, &v)) == 0) continue;
            if (r < 0 || cli_parse_i64(nums[k].flag, v, nums[k].lo, nums[k].hi, nums[k].dst)) return DLP_EXIT_BADINPUT;
            done = 1;
        }
        for (size_t k = 0; k < sizeof reals / sizeof reals[0] && !done; k++) {
            if ((r = cli_opt(argc, argv, &i, reals[k].flag, &v)) == 0) continue;
            if (r < 0 || cli_parse_f64(reals[k].flag, v, reals[k].lo, reals[k].hi, reals[k].dst))
                return DLP_EXIT_BADINPUT;
            done = 1;
        }
        if (done) continue;
        if (!strcmp(argv[i], "--json")) json = 1;
        else if (!strcmp(argv[i], "--analytic")) analytic = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            return cli_usage_error("plan", "unknown option '%s'", argv[i]);
        }
    }
    if (!model && !config)
        return cli_usage_error("plan", "--model ID or --config FILE is required; 'dlperf llm --list' lists the ids");
    if (model && config) return cli_usage_error("plan", "--model and --config are exclusive");
    if (!prompt) return cli_usage_error("plan", "--prompt N (prompt tokens per request) is required");
    if (!gen) return cli_usage_error("plan", "--gen N (output tokens per request) is required");

    dlp_error e = {0};
    dlp_llm_config c;
    dlp_status st = model ? dlp_llm_catalogue_get(model, &c, &e) : dlp_llm_config_load(config, &c, &e);
    if (st) return cli_fail(&e);
    dlp_devdb *db = NULL;
    if ((st = dlp_devdb_load(NULL, &db, &e))) return cli_fail(&e);

    /* the lists: copies split in place, names checked here for the
     * "closest ids" message every --device command gives */
    char *dbuf = devices_s ? strdup(devices_s) : NULL, *qbuf = dtypes_s ? strdup(dtypes_s) : NULL;
    const char *dev_names[PLAN_MAX_LIST], *q_names[PLAN_MAX_LIST];
    int quants[PLAN_MAX_LIST], nd = 0, nq = 0, rc = 0;
    if ((devices_s && !dbuf) || (dtypes_s && !qbuf)) rc = cli_failf(DLP_EXIT_FAIL, "plan: out of memory");
    if (!rc && dbuf && (nd = cli_split_list(dbuf, dev_names, PLAN_MAX_LIST)) < 0)
        rc = cli_failf(DLP_EXIT_BADINPUT, "plan: --devices '%s' is not a comma list of at most %d ids", devices_s,
                       PLAN_MAX_LIST);
    for (int i = 0; !rc && i < nd; i++)
        if (!dlp_devdb_find(db, dev_names[i])) rc = cli_unknown_device(db, dev_names[i]);
    if (!rc && qbuf && (nq = cli_split_list(qbuf, q_names, PLAN_MAX_LIST)) < 0)
        rc = cli_failf(DLP_EXIT_BADINPUT, "plan: --dtypes '%s' is not a comma list", dtypes_s);
    for (int i = 0; !rc && i < nq; i++)
        if ((quants[i] = dlp_quant_parse(q_names[i])) < 0)
            rc = cli_failf(DLP_EXIT_BADINPUT,
                           "plan: --dtypes: '%s' is not fp32, fp16, bf16, int8, nf4, fp8, int4, mxfp4 (fp4) or nvfp4",
                           q_names[i]);
    char *pbuf = prices_s ? strdup(prices_s) : NULL;
    const char *price_items[PLAN_MAX_LIST], *price_ids[PLAN_MAX_LIST];
    double price_vals[PLAN_MAX_LIST];
    int np = 0;
    if (!rc && prices_s && !pbuf) rc = cli_failf(DLP_EXIT_FAIL, "plan: out of memory");
    if (!rc && pbuf && (np = cli_split_list(pbuf, price_items, PLAN_MAX_LIST)) < 0)
        rc = cli_failf(DLP_EXIT_BADINPUT, "plan: --price '%s' is not a comma list of ID=USD", prices_s);
    for (int i = 0; !rc && i < np; i++) {
        char *eq = strchr(price_items[i], '=');
        if (!eq) {
            rc = cli_failf(DLP_EXIT_BADINPUT, "plan: --price: '%s' is not ID=USD (e.g. h100-sxm=2.10)", price_items[i]);
            break;
        }
        *eq = 0;
        price_ids[i] = price_items[i];
        if (!dlp_devdb_find(db, price_ids[i])) rc = cli_unknown_device(db, price_ids[i]);
        else if (cli_parse_f64("--price", eq + 1, 1e-9, 1e9, &price_vals[i])) rc = DLP_EXIT_BADINPUT;
    }
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
    free(dbuf);
    free(qbuf);
    free(pbuf);
    dlp_devdb_free(db);
    return rc;
}
