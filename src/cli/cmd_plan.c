/*
 * cmd_plan.c — `dlperf plan`: which GPU, how many, which weight format and
 * parallelism, at what concurrency and cost, under a TTFT / TPOT service
 * level (issue 24, docs/plan.md); for an ONNX model, inference under a
 * latency or (--mode train) the cheapest training run.  The searches are
 * the library's (dlp_plan_llm, dlp_plan_infer, dlp_plan_train in
 * src/plan/); this file parses flags (and --price-file) and prints the
 * ranked table or the library's JSON.
 */
#include <cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
            "  --model ID        catalogue id, Hugging Face id or alias ('dlperf llm --list'), a folder with\n"
            "                    a config.json, or a Hugging Face id in the local hub cache, offline\n"
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
            "  --price-file FILE the same from a file: CSV 'id,usd_per_hour' or JSON {\"id\": usd}\n"
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
            "  --seq N           binds sequence dims of the model\n"
            "  --dim NAME=V      binds another symbolic dim by name (repeatable; height=224 of a vision model)\n"
            "\n"
            "       dlperf plan MODEL.onnx --mode train --batch N --samples N [--epochs E] [--max-gpus N]\n"
            "                   [--dtypes fp32,fp16,bf16] [--optimizer adam|sgd|sgd-momentum] [--deadline HOURS]\n"
            "                   [--devices a,b] [--price ID=USD,...] [--region R] [--kwh-price USD] [--top N] [--json]\n\n"
            "The cheapest way to train it: every GPU x training dtype x data-parallel GPU count\n"
            "(powers of two up to --max-gpus, each dividing the batch), gradient accumulation over\n"
            "the largest micro-batch that fits where the per-GPU batch does not ('dlperf predict\n"
            "--mode train' per step, plus the NCCL all-reduce of the gradients), ranked by $ per run.\n"
            "  --batch N         global batch per optimizer step (required)\n"
            "  --samples N       samples per epoch (required); steps = ceil(samples / batch) x epochs\n"
            "  --epochs E        epochs (default 1)\n"
            "  --max-gpus N      data-parallel GPUs, 1..N (default 8)\n"
            "  --deadline HOURS  the run must end within; slower plans are counted as missed\n"
            "  --optimizer NAME  adam (default), sgd or sgd-momentum\n"
            "  --no-learned      predict's analytic step time only\n"
            "\n"
            "Every kind of plan also takes --price-file FILE: your contract prices as CSV lines\n"
            "'id,usd_per_hour' (# comments) or JSON {\"h100-sxm\": 2.1, ...}; --price wins over it.\n");
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

/* "$12.34" or "n/a" for a missing price. */
static const char *usd_or_na(double v) { return v == v ? dlp__hu_usd(v) : "n/a"; }

/* $ per million with 4 significant digits ($0.1319), "n/a" when missing:
 * dlp__hu_usd's cents would tie plans that differ by a quarter. */
static const char *usd_sig4(double v, char *buf, size_t n) {
    if (v == v) snprintf(buf, n, "$%s", dlp__hu_num(v));
    else snprintf(buf, n, "n/a");
    return buf;
}

/* "missed N: a reason-a, b reason-b" over the four reasons of a vision or
 * training plan (counts of zero left out; nothing when nothing missed). */
static void print_misses(const dlp_plan *p, const int reasons[4], const char *const why[4]) {
    int64_t missed = 0;
    for (int k = 0; k < 4; k++) missed += dlp_plan_missed(p, reasons[k]);
    if (!missed) return;
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

/* A figure as the JSON answer carries it (%.6g): the table rounds that for
 * people, as the page does from /api/plan's JSON, so both print the same
 * text (rounding the full double instead to 4 digits can differ from
 * rounding its 6-digit form at a boundary: 0.04993496 J shows 49.93 mJ,
 * its JSON 0.049935 49.94). */
static double as_json(double v) {
    char b[32];
    snprintf(b, sizeof b, "%.6g", v);
    return strtod(b, NULL);
}

static void print_row(const dlp_plan_row *r, int rank, int fleet) {
    char split[48];
    split_label(r, split, sizeof split);
    if (rank > 0) printf("%4d ", rank);
    else printf("     ");
    printf("%-16s %4d %-6s %-14s", r->device->id, r->gpus, dlp_quant_name(r->quant), split);
    cell(dlp__hu_count((double)r->concurrency), 6);
    cell(dlp__hu_ms(as_json(r->ttft_ms)), 10);
    cell(dlp__hu_ms(as_json(r->tpot_ms)), 10);
    cell(dlp__hu_num(r->tokens_per_s), 9); /* its JSON keeps 9 digits */
    cell(dlp__hu_count((double)r->replicas), 8);
    char usd[40];
    cell(usd_sig4(as_json(r->usd_per_mtok), usd, sizeof usd), 9);
    if (fleet) cell(usd_or_na(as_json(r->usd_per_hour)), 10);
    cell(dlp__hu_j(as_json(r->j_per_token)), 10);
    cell(dlp__hu_g(as_json(r->co2_g_per_mtok)), 9);
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
        /* the LLM reasons only (the later ones are inference's and training's) */
        for (int m = 0; m < (int)(sizeof why / sizeof why[0]); m++) {
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
    char *fbuf;                 /* --price-file's text (CSV: split in place) */
    cJSON *fjson;               /* --price-file's JSON (its keys are price ids) */
    const char *dev_names[PLAN_MAX_LIST], *q_names[PLAN_MAX_LIST], *price_ids[PLAN_MAX_LIST];
    double price_vals[PLAN_MAX_LIST];
    int nd, nq, np;
} cli_plan_lists;

static void lists_free(cli_plan_lists *L) {
    free(L->dbuf);
    free(L->qbuf);
    free(L->pbuf);
    free(L->fbuf);
    cJSON_Delete(L->fjson);
}

/* ---- --price-file: CSV "id,usd_per_hour" lines or JSON {"id": usd} ---------- */

/* The whole file, NUL-terminated, in *out; 0 or the exit code. */
static int read_text(const char *path, char **out) {
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return cli_failf(DLP_EXIT_BADINPUT, "plan: --price-file '%s': %s", path, strerror(errno));
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (size_t k; buf && (k = fread(buf + n, 1, cap - 1 - n, f)) > 0;) {
        n += k;
        if (n + 1 == cap) {
            char *nb = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;
            if (!nb) free(buf);
            buf = nb;
            cap *= 2;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf) return cli_failf(DLP_EXIT_BADINPUT, "plan: --price-file '%s': too large or out of memory", path);
    if (bad) {
        free(buf);
        return cli_failf(DLP_EXIT_BADINPUT, "plan: --price-file '%s': read error", path);
    }
    buf[n] = 0;
    *out = buf;
    return 0;
}

/* One price from the file at line `line`; merged after --price's own (which
 * win: a device already priced is skipped).  0 or the exit code. */
static int add_file_price(const dlp_devdb *db, const char *path, int line, const char *id, double usd,
                          cli_plan_lists *L) {
    const dlp_device *d = dlp_devdb_find(db, id);
    if (!d)
        return cli_failf(DLP_EXIT_BADINPUT, "plan: --price-file '%s' line %d: unknown device '%s' ('dlperf devices' "
                                            "lists them)", path, line, id);
    if (!(usd > 0) || !isfinite(usd) || usd > 1e9)
        return cli_failf(DLP_EXIT_BADINPUT, "plan: --price-file '%s' line %d: '%s' needs a positive $/h per GPU",
                         path, line, id);
    for (int i = 0; i < L->np; i++)
        if (dlp_devdb_find(db, L->price_ids[i]) == d) return 0;
    if (L->np == PLAN_MAX_LIST)
        return cli_failf(DLP_EXIT_BADINPUT, "plan: --price-file '%s' line %d: more than %d prices", path, line,
                         PLAN_MAX_LIST);
    L->price_ids[L->np] = id;
    L->price_vals[L->np++] = usd;
    return 0;
}

/* "id,usd_per_hour" (any case) as the CSV's column names. */
static int line_is_header(const char *id, const char *v) {
    return !strcasecmp(id, "id") && !strcasecmp(v, "usd_per_hour");
}

/* CSV: "id,usd_per_hour" per line; blank lines and lines starting with #
 * are skipped, as is a header line "id,usd_per_hour". */
static int parse_price_csv(const dlp_devdb *db, const char *path, cli_plan_lists *L) {
    int line = 0, rc = 0;
    for (char *p = L->fbuf; p && *p && !rc;) {
        char *nl = strchr(p, '\n');
        if (nl) *nl = 0;
        line++;
        char *s = p;
        p = nl ? nl + 1 : NULL;
        while (isspace((unsigned char)*s)) s++;
        size_t n = strlen(s);
        while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
        if (!*s || *s == '#') continue;
        char *comma = strchr(s, ',');
        if (!comma)
            return cli_failf(DLP_EXIT_BADINPUT, "plan: --price-file '%s' line %d: '%.60s' is not id,usd_per_hour", path,
                             line, s);
        *comma = 0;
        char *id = s, *v = comma + 1, *end = NULL;
        for (size_t k = strlen(id); k && isspace((unsigned char)id[k - 1]);) id[--k] = 0;
        while (isspace((unsigned char)*v)) v++;
        if (line_is_header(id, v)) continue;
        double usd = strtod(v, &end);
        if (end == v || *end)
            return cli_failf(DLP_EXIT_BADINPUT, "plan: --price-file '%s' line %d: '%.40s' is not a number of $/h",
                             path, line, v);
        rc = add_file_price(db, path, line, id, usd, L);
    }
    return rc;
}

/* The line of byte offset off in text (1-based). */
static int line_of(const char *text, size_t off) {
    int line = 1;
    for (size_t i = 0; i < off && text[i]; i++) line += text[i] == '\n';
    return line;
}

/* JSON: {"h100-sxm": 2.1, ...}; a bad entry is named with its line. */
static int parse_price_json(const dlp_devdb *db, const char *path, cli_plan_lists *L) {
    L->fjson = cJSON_Parse(L->fbuf);
    if (!L->fjson) {
        const char *at = cJSON_GetErrorPtr();
        size_t off = at && at >= L->fbuf && at <= L->fbuf + strlen(L->fbuf) ? (size_t)(at - L->fbuf) : 0;
        return cli_failf(DLP_EXIT_BADINPUT, "plan: --price-file '%s' line %d: not valid JSON", path,
                         line_of(L->fbuf, off));
    }
    if (!cJSON_IsObject(L->fjson))
        return cli_failf(DLP_EXIT_BADINPUT, "plan: --price-file '%s' line 1: JSON must be an object {\"id\": usd}",
                         path);
    const cJSON *it;
    cJSON_ArrayForEach(it, L->fjson) {
        /* the entry's line: where its quoted key first appears */
        char key[160];
        snprintf(key, sizeof key, "\"%s\"", it->string);
        const char *at = strstr(L->fbuf, key);
        int line = at ? line_of(L->fbuf, (size_t)(at - L->fbuf)) : 1;
        if (!cJSON_IsNumber(it))
            return cli_failf(DLP_EXIT_BADINPUT, "plan: --price-file '%s' line %d: '%s' needs a number of $/h", path,
                             line, it->string);
        int rc = add_file_price(db, path, line, it->string, it->valuedouble, L);
        if (rc) return rc;
    }
    return 0;
}

static int load_price_file(const dlp_devdb *db, const char *path, cli_plan_lists *L) {
    int rc = read_text(path, &L->fbuf);
    if (rc) return rc;
    const char *s = L->fbuf;
    while (isspace((unsigned char)*s)) s++;
    return *s == '{' ? parse_price_json(db, path, L) : parse_price_csv(db, path, L);
}

/* Split the lists; device names are checked here for the "closest ids"
 * message every --device command gives.  Returns 0 or the exit code (the
 * lists are freed by lists_free either way). */
static int parse_lists(const dlp_devdb *db, const char *devices_s, const char *dtypes_s, const char *prices_s,
                       const char *price_file, cli_plan_lists *L) {
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
    return price_file ? load_price_file(db, price_file, L) : 0;
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
    print_misses(p, reasons, why);
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
        cell(usd_sig4(r->usd_per_msample, usd, sizeof usd), 10);
        if (fleet) cell(usd_or_na(as_json(r->usd_per_hour)), 10);
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

/* What the three kinds of plan share: where, prices, output. */
typedef struct {
    const char *devices_s, *dtypes_s, *prices_s, *price_file, *region;
    double kwh;
    int json, top;
    const cli_graph_flags *gf;  /* --dim bindings of a model file */
} plan_common;

static int plan_infer(const char *path, const char *batch_s, double latency, double throughput, const char *runtime_s,
                      int64_t seq, const plan_common *pc) {
    const char *devices_s = pc->devices_s, *dtypes_s = pc->dtypes_s, *prices_s = pc->prices_s, *region = pc->region;
    double kwh = pc->kwh;
    int json = pc->json, top = pc->top;
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
    int rc = parse_lists(db, devices_s, dtypes_s, prices_s, pc->price_file, &L);
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
                             .n_prices = L.np, .n_dims = pc->gf->n_dims, .dim_names = pc->gf->dim_names,
                             .dim_values = pc->gf->dim_values};
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

/* ---- training plans of an ONNX model ------------------------------------------ */

static void print_train_misses(const dlp_plan *p) {
    static const int reasons[] = {DLP_PLAN_MISS_DEADLINE, DLP_PLAN_MISS_MEMORY, DLP_PLAN_MISS_DTYPE,
                                  DLP_PLAN_MISS_REFUSED};
    static const char *const why[] = {"over the deadline", "not even one sample per GPU fits",
                                      "dtype the GPU lacks", "refused by the predictor"};
    print_misses(p, reasons, why);
}

static void print_train_row(const dlp_plan_row *r, int rank) {
    printf("%4d %-18s %4d %-5s", rank, r->device->id, r->gpus, dlp_dtype_short(r->dtype));
    cell(dlp__hu_count((double)r->micro_batch), 6);
    cell(dlp__hu_count((double)r->accum_steps), 5);
    cell(dlp__hu_ms(r->step_ms), 10);
    cell(dlp__hu_ms(r->comm_ms), 10);
    cell(dlp__hu_num(r->samples_per_s), 9);
    cell(dlp__hu_num(r->hours), 8);
    cell(usd_or_na(r->usd_per_run), 10);
    cell(r->kwh == r->kwh ? dlp__hu_num(r->kwh) : "n/a", 8);
    cell(r->co2_kg == r->co2_kg ? dlp__hu_num(r->co2_kg) : "n/a", 8);
    printf("  %s\n", dlp_plan_bind_name(r->binding));
}

static void print_train(const dlp_plan_train_opts *o, const dlp_plan *p, const char *path, double secs, int top) {
    double epochs = o->epochs > 0 ? o->epochs : 1;
    printf("%s: training, batch %s, %s samples x %s epochs", path, dlp__hu_count((double)o->batch),
           dlp__hu_count((double)o->samples), dlp__hu_num(epochs));
    if (o->deadline_hours > 0) printf(", deadline %s h", dlp__hu_num(o->deadline_hours));
    printf("\n");
    int n = dlp_plan_count(p);
    printf("searched %s configurations on %d GPU kinds (%s predictions, %s): %s plans\n",
           dlp__hu_count((double)dlp_plan_considered(p)), dlp_plan_device_kinds(p),
           dlp__hu_count((double)dlp_plan_evaluations(p)), dlp__hu_ms(secs * 1e3), dlp__hu_count((double)n));
    print_train_misses(p);
    if (!n) {
        const dlp_plan_row *m = dlp_plan_closest_miss(p);
        printf("\nno configuration meets the deadline");
        if (m)
            printf("; closest: %d x %s, %s: %s h (limit %s h)", m->gpus, m->device->id, dlp_dtype_short(m->dtype),
                   dlp__hu_num(m->hours), dlp__hu_num(o->deadline_hours));
        else if (dlp_plan_missed(p, DLP_PLAN_MISS_MEMORY)) printf(": none fits even at a micro-batch of 1");
        printf("\n");
        return;
    }
    int shown = top > 0 && top < n ? top : n;
    printf("\n%4s %-18s %4s %-5s %6s %5s %10s %10s %9s %8s %10s %8s %8s  %s\n", "#", "device", "GPUs", "dtype",
           "micro", "accum", "step", "allreduce", "samples/s", "hours", "$/run", "kWh", "kgCO2", "binding");
    for (int i = 0; i < shown; i++) print_train_row(dlp_plan_at(p, i), i + 1);
    if (shown < n) printf("  ... %s more (--top 0 lists all, --json gives every plan)\n",
                          dlp__hu_count((double)(n - shown)));
    const dlp_plan_row *b = dlp_plan_at(p, 0);
    if (b->usd_per_run == b->usd_per_run) {
        printf("\nbest: %d x %s, %s, micro-batch %s x %s: %s per run, %s h (%s/h per GPU, ", b->gpus,
               b->device->id, dlp_dtype_short(b->dtype), dlp__hu_count((double)b->micro_batch),
               dlp__hu_count((double)b->accum_steps), dlp__hu_usd(b->usd_per_run), dlp__hu_num(b->hours),
               dlp__hu_usd(b->price_usd_per_hour));
        if (b->price_from_caller) printf("your price)\n");
        else printf("%s %s)\n", b->device->price_provider, b->device->price_date);
    }
    if (o->kwh_price > 0)
        printf("energy at %s/kWh: %s per run on the best plan\n", dlp__hu_usd(o->kwh_price), usd_or_na(b->energy_usd));
    printf("all-reduce not overlapped with the backward (an upper bound; docs/plan.md, \"Training\")\n");
}

typedef struct {
    int64_t batch, samples, seq, max_gpus;
    double epochs, deadline;
    const char *optimizer_s;
    int no_learned;
} train_args;

static int plan_train(const char *path, const train_args *a, const plan_common *pc) {
    int optimizer = 0;
    if (a->optimizer_s && (optimizer = dlp_optimizer_parse(a->optimizer_s)) < 0)
        return cli_failf(DLP_EXIT_BADINPUT, "plan: --optimizer '%s' is not adam, sgd or sgd-momentum", a->optimizer_s);
    dlp_error e = {0};
    dlp_devdb *db = NULL;
    if (dlp_devdb_load(NULL, &db, &e)) return cli_fail(&e);
    cli_plan_lists L;
    int rc = parse_lists(db, pc->devices_s, pc->dtypes_s, pc->prices_s, pc->price_file, &L);
    int dts[PLAN_MAX_LIST];
    for (int i = 0; !rc && i < L.nq; i++) {
        int dt = dlp_dtype_parse(L.q_names[i]);
        if (dt != DLP_DT_FLOAT && dt != DLP_DT_FLOAT16 && dt != DLP_DT_BFLOAT16)
            rc = cli_failf(DLP_EXIT_BADINPUT, "plan: --dtypes: '%s' is not a training dtype (fp32, fp16 or bf16)",
                           L.q_names[i]);
        dts[i] = dt;
    }
    dlp_plan_train_opts o = {.batch = a->batch, .samples = a->samples, .epochs = a->epochs,
                             .max_gpus = (int)a->max_gpus, .deadline_hours = a->deadline, .optimizer = optimizer,
                             .devices = L.nd ? L.dev_names : NULL, .n_devices = L.nd, .dtypes = L.nq ? dts : NULL,
                             .n_dtypes = L.nq, .seq = a->seq, .no_learned = a->no_learned, .region = pc->region,
                             .kwh_price = pc->kwh, .price_devices = L.np ? L.price_ids : NULL,
                             .price_usd_per_hour = L.price_vals, .n_prices = L.np, .n_dims = pc->gf->n_dims,
                             .dim_names = pc->gf->dim_names, .dim_values = pc->gf->dim_values};
    dlp_plan *p = NULL;
    double t0 = cli_now_s();
    if (!rc && dlp_plan_train(NULL, 0, path, db, &o, &p, &e)) rc = cli_fail(&e);
    double secs = cli_now_s() - t0;
    if (!rc) {
        if (pc->json) {
            char *buf;
            size_t len;
            dlp_status st = dlp_plan_json(p, &buf, &len, &e);
            rc = cli_print_json(st, buf, len, &e);
        } else {
            print_train(&o, p, path, secs, pc->top);
        }
    }
    dlp_plan_free(p);
    lists_free(&L);
    dlp_devdb_free(db);
    return rc;
}

/* Every flag of the three kinds of plan; which kind each belongs to is
 * checked after parsing. */
typedef struct {
    const char *model, *config, *onnx, *batch_s, *runtime_s, *mode_s;
    plan_common pc;
    train_args ta;
    cli_graph_flags gf;         /* --dim NAME=V only (--batch, --seq are parsed here) */
    double latency, throughput, ttft, tpot, rate, memfrac;
    int64_t prompt, gen, max_conc, top;
    int analytic;
    /* flags given of one kind of plan, refused by name by the others */
    int llm_flag, infer_flag, train_flag, maxg_flag;
} plan_args;

/* A flag with a number; 1 taken, 0 not this flag, -1 bad input. */
static int parse_number_flag(int argc, char **argv, int *i, plan_args *a) {
    const char *v;
    int r;
    struct { const char *flag; int64_t *dst; int64_t lo, hi; int *kind; } nums[] = {
        {"--prompt", &a->prompt, 1, 1 << 22, &a->llm_flag}, {"--gen", &a->gen, 1, 1 << 22, &a->llm_flag},
        {"--max-gpus", &a->ta.max_gpus, 1, 1024, &a->maxg_flag},
        {"--max-concurrency", &a->max_conc, 1, 1 << 24, &a->llm_flag}, {"--top", &a->top, 0, 1 << 24, NULL},
        {"--seq", &a->ta.seq, 1, 1 << 22, &a->infer_flag}, {"--samples", &a->ta.samples, 1, INT64_C(1) << 50,
                                                             &a->train_flag}};
    struct { const char *flag; double *dst; double lo, hi; int *kind; } reals[] = {
        {"--ttft", &a->ttft, 1e-6, 1e9, &a->llm_flag}, {"--tpot", &a->tpot, 1e-6, 1e9, &a->llm_flag},
        {"--rate", &a->rate, 1e-9, 1e12, &a->llm_flag}, {"--kwh-price", &a->pc.kwh, 1e-9, 1e6, NULL},
        {"--mem-fraction", &a->memfrac, 1e-6, 1, &a->llm_flag}, {"--latency", &a->latency, 1e-6, 1e9, &a->infer_flag},
        {"--throughput", &a->throughput, 1e-9, 1e15, &a->infer_flag},
        {"--epochs", &a->ta.epochs, 1e-6, 1e9, &a->train_flag}, {"--deadline", &a->ta.deadline, 1e-9, 1e9,
                                                                   &a->train_flag}};
    for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++) {
        if ((r = cli_opt(argc, argv, i, nums[k].flag, &v)) == 0) continue;
        if (r < 0 || cli_parse_i64(nums[k].flag, v, nums[k].lo, nums[k].hi, nums[k].dst)) return -1;
        if (nums[k].kind) *nums[k].kind = 1;
        return 1;
    }
    for (size_t k = 0; k < sizeof reals / sizeof reals[0]; k++) {
        if ((r = cli_opt(argc, argv, i, reals[k].flag, &v)) == 0) continue;
        if (r < 0 || cli_parse_f64(reals[k].flag, v, reals[k].lo, reals[k].hi, reals[k].dst)) return -1;
        if (reals[k].kind) *reals[k].kind = 1;
        return 1;
    }
    return 0;
}

/* Parse argv into a; 0, -1 (bad input, said), or 1 (--help printed). */
static int parse_plan_args(int argc, char **argv, plan_args *a) {
    int r;
    for (int i = 1; i < argc; i++) {
        if ((r = cli_opt(argc, argv, &i, "--model", &a->model)) || (r = cli_opt(argc, argv, &i, "--config", &a->config)) ||
            (r = cli_opt(argc, argv, &i, "--devices", &a->pc.devices_s)) ||
            (r = cli_opt(argc, argv, &i, "--dtypes", &a->pc.dtypes_s)) ||
            (r = cli_opt(argc, argv, &i, "--price", &a->pc.prices_s)) ||
            (r = cli_opt(argc, argv, &i, "--price-file", &a->pc.price_file)) ||
            (r = cli_opt(argc, argv, &i, "--region", &a->pc.region)) ||
            (r = cli_opt(argc, argv, &i, "--batch", &a->batch_s)) ||
            (r = cli_opt(argc, argv, &i, "--mode", &a->mode_s))) {
            if (r < 0) return -1;
            continue;
        }
        if ((r = cli_opt(argc, argv, &i, "--runtime", &a->runtime_s))) {
            if (r < 0) return -1;
            a->infer_flag = 1;
            continue;
        }
        if ((r = cli_opt(argc, argv, &i, "--optimizer", &a->ta.optimizer_s))) {
            if (r < 0) return -1;
            a->train_flag = 1;
            continue;
        }
        if (!strncmp(argv[i], "--dim", 5) && (argv[i][5] == 0 || argv[i][5] == '=')) {
            if (cli_graph_flag(argc, argv, &i, &a->gf) < 0) return -1;
            continue;
        }
        if (argv[i][0] != '-') {
            if (a->onnx) return cli_usage_error("plan", "one model file, not '%s' and '%s'", a->onnx, argv[i]), -1;
            a->onnx = argv[i];
            continue;
        }
        if ((r = parse_number_flag(argc, argv, &i, a))) {
            if (r < 0) return -1;
            continue;
        }
        if (!strcmp(argv[i], "--json")) a->pc.json = 1;
        else if (!strcmp(argv[i], "--analytic")) a->analytic = 1, a->llm_flag = 1;
        else if (!strcmp(argv[i], "--no-learned")) a->ta.no_learned = 1, a->train_flag = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 1;
        } else {
            return cli_usage_error("plan", "unknown option '%s'", argv[i]), -1;
        }
    }
    a->pc.top = (int)a->top;
    a->pc.gf = &a->gf;
    return 0;
}

/* dlperf plan --model ID ...: LLM serving plans. */
static int plan_llm(const plan_args *a) {
    const char *model = a->model, *config = a->config, *devices_s = a->pc.devices_s, *dtypes_s = a->pc.dtypes_s,
               *prices_s = a->pc.prices_s, *price_file = a->pc.price_file, *region = a->pc.region;
    int64_t prompt = a->prompt, gen = a->gen, max_gpus = a->ta.max_gpus ? a->ta.max_gpus : 8, max_conc = a->max_conc,
            top = a->top;
    double ttft = a->ttft, tpot = a->tpot, rate = a->rate, kwh = a->pc.kwh, memfrac = a->memfrac;
    int json = a->pc.json, analytic = a->analytic;
    if (!model && !config)
        return cli_usage_error("plan", "--model ID, --config FILE or a model file is required; 'dlperf llm --list' "
                                       "lists the ids");
    if (model && config) return cli_usage_error("plan", "--model and --config are exclusive");
    if (!prompt) return cli_usage_error("plan", "--prompt N (prompt tokens per request) is required");
    if (!gen) return cli_usage_error("plan", "--gen N (output tokens per request) is required");

    dlp_error e = {0};
    dlp_llm_config c;
    /* --model as `dlperf llm --model` takes it: a catalogue id, a folder, or a hub-cache id */
    dlp_status st = model ? dlp_llm_model_find(model, &c, &e) : dlp_llm_config_load(config, &c, &e);
    if (st) return cli_fail(&e);
    dlp_devdb *db = NULL;
    if ((st = dlp_devdb_load(NULL, &db, &e))) return cli_fail(&e);

    cli_plan_lists L;
    int rc = parse_lists(db, devices_s, dtypes_s, prices_s, price_file, &L);
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

static const char *const LLM_FLAGS = "--prompt, --gen, --ttft, --tpot, --rate, --max-concurrency, --mem-fraction "
                                     "and --analytic are LLM flags";
static const char *const TRAIN_FLAGS = "--epochs, --samples, --deadline, --optimizer and --no-learned are for "
                                       "--mode train";

/* dlperf plan MODEL.onnx [--mode infer|train] ... */
static int plan_model_file(plan_args *a) {
    if (a->model || a->config) return cli_usage_error("plan", "give a model file or --model/--config, not both");
    if (a->llm_flag) return cli_usage_error("plan", "%s; a model file takes --batch, --latency, ...", LLM_FLAGS);
    int train = 0;
    if (a->mode_s) {
        int m = dlp_predict_mode_parse(a->mode_s);
        if (m < 0) return cli_usage_error("plan", "--mode '%s' is not infer or train", a->mode_s);
        train = m == DLP_PREDICT_TRAIN;
    }
    if (!train) {
        if (a->train_flag) return cli_usage_error("plan", "%s", TRAIN_FLAGS);
        if (a->maxg_flag) return cli_usage_error("plan", "--max-gpus is for LLM and --mode train plans");
        return plan_infer(a->onnx, a->batch_s, a->latency, a->throughput, a->runtime_s, a->ta.seq, &a->pc);
    }
    if (a->infer_flag && (a->latency > 0 || a->throughput > 0 || a->runtime_s))
        return cli_usage_error("plan", "--latency, --throughput and --runtime are for inference plans");
    if (!a->batch_s) return cli_usage_error("plan", "--mode train needs --batch N (the global batch per step)");
    if (strstr(a->batch_s, ".."))
        return cli_usage_error("plan", "--mode train takes one --batch N (the global batch), not a range");
    if (cli_parse_i64("--batch", a->batch_s, 1, 1 << 24, &a->ta.batch)) return DLP_EXIT_BADINPUT;
    if (!a->ta.samples) return cli_usage_error("plan", "--mode train needs --samples N (samples per epoch)");
    return plan_train(a->onnx, &a->ta, &a->pc);
}

int dlp_cmd_plan(int argc, char **argv) {
    plan_args a;
    memset(&a, 0, sizeof a);
    a.top = 20;
    int r = parse_plan_args(argc, argv, &a);
    if (r) return r < 0 ? DLP_EXIT_BADINPUT : 0;
    if (a.onnx) return plan_model_file(&a);
    if (a.gf.n_dims) return cli_usage_error("plan", "--dim is for a model file (dlperf plan MODEL.onnx ...)");
    if (a.infer_flag || a.batch_s)
        return cli_usage_error("plan", "--batch, --latency, --throughput, --runtime and --seq are for a model file "
                                       "(dlperf plan MODEL.onnx ...)");
    if (a.train_flag || a.mode_s) return cli_usage_error("plan", "%s with a model file", TRAIN_FLAGS);
    return plan_llm(&a);
}
