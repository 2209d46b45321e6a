/*
 * test_plan.c — LLM serving plans (dlp_plan_llm, docs/plan.md) against the
 * public API.  The planner bisects over concurrency; these tests recompute
 * its answers a different way — a linear scan of the serving model
 * (dlp_llm_predict) from one request up, and the cost arithmetic by hand
 * from the database prices — so a wrong bisection, a wrong formula or a
 * wrong sort fails here.  The serving model itself may change (its numbers
 * are asserted in test_llm_serve.c); what is asserted here is the planner's
 * agreement with it, plus the worked numbers in the comments.
 */
#include "dlperf.h"
#include "tap.h"

static dlp_devdb *db;
static dlp_llm_config llama;   /* meta-llama/Llama-3.1-8B-Instruct */

#define PROMPT 1024
#define GEN 256
#define TTFT 500.0
#define TPOT 40.0

static int meets(const dlp_llm_prediction *p, double ttft, double tpot) {
    return (ttft <= 0 || p->ttft_ms <= ttft) && (tpot <= 0 || p->tpot_ms <= tpot);
}

static dlp_llm_workload serving(int quant, int gpus, int64_t conc) {
    dlp_llm_workload wl = {.batch = 1, .seq = PROMPT, .gen_tokens = GEN, .quant = quant, .n_gpus = gpus,
                           .concurrency = conc, .max_fit = conc == 0};
    return wl;
}

/* The largest concurrency meeting the SLO, by walking up from 1 (no
 * bisection): 0 when even one request misses.  *out gets its prediction. */
static int64_t scan_best(const dlp_llm_config *c, const char *dev, int quant, int gpus, double ttft, double tpot,
                         dlp_llm_prediction *out) {
    const dlp_device *d = dlp_devdb_find(db, dev);
    dlp_llm_prediction p;
    dlp_error e = {0};
    dlp_llm_workload wl = serving(quant, gpus, 0);
    if (dlp_llm_predict(c, d, db, &wl, NULL, &p, &e)) return -1;
    int64_t max_c = p.concurrency, best = 0;   /* what runs at once: KV or max_seqs */
    for (int64_t k = 1; k <= max_c; k++) {
        wl = serving(quant, gpus, k);
        if (dlp_llm_predict(c, d, db, &wl, NULL, &p, &e) || !meets(&p, ttft, tpot)) break;
        best = k;
        *out = p;
    }
    return best;
}

/* The hand-worked case: Llama-3.1-8B, 1024 prompt + 256 output tokens,
 * TTFT <= 500 ms, TPOT <= 40 ms, bf16 on one GPU, two GPUs to choose from.
 * With the serving model of this writing (dlperf llm --concurrency N):
 *
 *   h100-sxm ($2.99/h): C = 192 gives TTFT 394.1 ms, TPOT 39.94 ms and
 *     4,646 output tok/s; C = 193 gives TPOT 40.14 ms: over.  So the
 *     plan is C = 192, TPOT binding, and one GPU-hour makes
 *     4,646 x 3600 = 16.726 M tokens: $2.99 / 16.726 = $0.1788 per M.
 *   a100-80gb ($1.79/h): C = 85 gives TTFT 485.5 ms, TPOT 39.77 ms, 2,048
 *     tok/s; C = 86 gives TPOT 40.21 ms: over.  2,048 x 3600 = 7.3728 M
 *     tokens per hour: $1.79 / 7.3728 = $0.2428 per M.
 * (Before issue 22's closed-loop clients, TTFT bound both: $0.1740 and
 * $0.9464; TTFT no longer counts the whole first wave as prefilling.  Issue
 * 22's second pass added the front end's 53.5 ms to every TTFT: 340.6 ->
 * 394.1 ms and 432.0 -> 485.5 ms, still under 500; the CPU side of a step
 * is unchanged for this engine, so the TPOT bounds and C stay.)
 * Issue 22's fifth pass weighs the first wave's burst 0.14 (was 0.10), and
 * TTFT binds both now:
 *   h100-sxm: C = 192 gives TTFT 499.3 ms, TPOT 39.94 ms, 4,600 tok/s;
 *     C = 193 is past both, TTFT the more (514.7 / 500 = 1.029: its burst
 *     needs a 25th 8192-token chunk, 193 x 1024 > 24 x 8192; TPOT 40.14 /
 *     40 = 1.003): $2.99 / (4,600.5 x 3600 / 1e6) = $0.1805 per M.
 *   a100-80gb: C = 64 gives TTFT 488.2 ms, TPOT 30.55 ms, 1,979 tok/s;
 *     C = 65 (a 9th chunk) TTFT 526.6 ms: $1.79 / 7.1248 = $0.2512 per M.
 * Session 10 gave each engine its own front end (the default, vLLM >= 0.6,
 * 35.5 ms instead of 53.5) and the burst weight 0.15:
 *   h100-sxm: C = 184 gives TTFT 489.8 ms, TPOT 38.37 ms, 4,585.3 tok/s;
 *     C = 185 needs a 24th chunk (185 x 1024 = 189,440 > 23 x 8192) and
 *     TTFT 506.2 ms: $2.99 / (4,585.3 x 3600 / 1e6) = $0.1811 per M.
 *   a100-80gb: C = 64 gives TTFT 493.6 ms, TPOT 30.55 ms, 1,977.8 tok/s;
 *     C = 65 TTFT 534.7 ms: $1.79 / 7.1201 = $0.2514 per M.
 *
 * Session 19 refit the burst weight to 0.13 (docs/llm.md, issue 22): the
 * H100's TTFT falls below the bound and TPOT binds again there:
 *   h100-sxm: C = 189 gives TTFT 454.7 ms, TPOT 40.00 ms, 4,540.8 tok/s;
 *     C = 190 TPOT 40.19 ms: $2.99 / (4,540.8 x 3600 / 1e6) = $0.1829 per M.
 *   a100-80gb: C = 76 gives TTFT 490.8 ms, TPOT 38.43 ms, 1,890.5 tok/s;
 *     C = 77 TTFT 500.3 ms: $1.79 / 6.8058 = $0.2630 per M.
 * h189 re-settled the front ends with the burst weights (vLLM's 35.5 ->
 * 28.1 ms, decode-first weight 0.13 -> 0.14; docs/llm.md, issue 22): a
 * shorter cycle brings the prompts a little sooner, so TPOT binds one
 * client earlier on the H100, and the heavier burst costs the A100 two:
 *   h100-sxm: C = 188 gives TTFT 473.4 ms, TPOT 39.82 ms, 4,529.0 tok/s;
 *     C = 189 TPOT 40.003 ms: $2.99 / (4,529.0 x 3600 / 1e6) = $0.1834 per M.
 *   a100-80gb: C = 74 gives TTFT 498.9 ms, TPOT 37.66 ms, 1,875.4 tok/s;
 *     C = 75 TTFT 509.2 ms: $1.79 / 6.7514 = $0.2651 per M.
 *
 * The H100 wins at $0.1834 per million output tokens, 0.2651 / 0.1834 =
 * 1.45x cheaper.  The
 * test redoes this at run time: a linear scan for each C, the cost from
 * the prediction's tok/s and the database price. */
static void t_hand_worked_two_gpus(void) {
    const char *devs[] = {"h100-sxm", "a100-80gb"};
    int q[] = {DLP_QT_BF16};
    dlp_plan_llm_opts o = {.prompt = PROMPT, .gen = GEN, .ttft_ms = TTFT, .tpot_ms = TPOT, .devices = devs,
                           .n_devices = 2, .quants = q, .n_quants = 1, .max_gpus = 1};
    dlp_plan *p = NULL;
    dlp_error e = {0};
    CHECK(dlp_plan_llm(&llama, db, &o, &p, &e) == DLP_OK);
    if (!p) return;
    CHECK_I64(dlp_plan_considered(p), 2);
    CHECK_I64(dlp_plan_count(p), 2);
    double usd[2];
    int64_t conc[2];
    for (int i = 0; i < 2; i++) {
        dlp_llm_prediction best = {0};
        conc[i] = scan_best(&llama, devs[i], DLP_QT_BF16, 1, TTFT, TPOT, &best);
        CHECK(conc[i] > 0);
        double price = dlp_devdb_find(db, devs[i])->price_usd_per_hour;
        usd[i] = price / (best.output_tokens_per_s * 3600.0) * 1e6;
    }
    /* today's figures, from the comment: a drift of the serving model shows
     * here first (loosely: 10 %), the agreement below is exact */
    CHECK_NEAR(usd[0], 0.1834, 0.1834 * 0.10);
    CHECK_NEAR(usd[1], 0.2651, 0.2651 * 0.10);
    int win = usd[0] <= usd[1] ? 0 : 1;
    const dlp_plan_row *r0 = dlp_plan_at(p, 0), *r1 = dlp_plan_at(p, 1);
    CHECK(r0 && r1);
    if (r0 && r1) {
        CHECK_STR(r0->device->id, devs[win]);
        CHECK_STR(r1->device->id, devs[1 - win]);
        CHECK_I64(r0->concurrency, conc[win]);
        CHECK_I64(r1->concurrency, conc[1 - win]);
        CHECK_NEAR(r0->usd_per_mtok, usd[win], usd[win] * 1e-9);
        CHECK_NEAR(r1->usd_per_mtok, usd[1 - win], usd[1 - win] * 1e-9);
        CHECK(r0->meets_slo && r1->meets_slo);
        CHECK_I64(r0->replicas, 1);
        CHECK_I64(r0->gpus, 1);
        CHECK_I64(r0->tp, 1);
        CHECK_I64(r0->quant, DLP_QT_BF16);
        /* the H100 held by TPOT, the A100 by TTFT (see the comment) */
        CHECK_STR(dlp_plan_bind_name(r0->binding), "tpot");
        CHECK_STR(dlp_plan_bind_name(r1->binding), "ttft");
        /* g CO2 per M tokens: J/token x 1e6 / 3.6e6 kWh x PUE x g/kWh */
        double g = r0->j_per_token * 1e6 / 3.6e6 * dlp_devdb_pue(db) * dlp_carbon_intensity(db, NULL);
        CHECK_NEAR(r0->co2_g_per_mtok, g, g * 1e-9);
    }
    CHECK_STR(devs[win], "h100-sxm");
    dlp_plan_free(p);
}

/* An SLO nobody meets: 1 ms to the first token.  No plan; every
 * configuration that fits is a TTFT miss, and the closest miss is the one
 * with the least max(TTFT / 1 ms, TPOT / 40 ms) at one request, which the
 * test finds by asking the serving model for each configuration itself. */
static void t_nobody_meets(void) {
    const char *devs[] = {"l4", "h100-sxm", "a100-40gb"};
    int q[] = {DLP_QT_BF16, DLP_QT_FP8};
    dlp_plan_llm_opts o = {.prompt = PROMPT, .gen = GEN, .ttft_ms = 1, .tpot_ms = TPOT, .devices = devs,
                           .n_devices = 3, .quants = q, .n_quants = 2, .max_gpus = 2};
    dlp_plan *p = NULL;
    dlp_error e = {0};
    CHECK(dlp_plan_llm(&llama, db, &o, &p, &e) == DLP_OK);
    if (!p) return;
    CHECK_I64(dlp_plan_count(p), 0);
    CHECK(dlp_plan_at(p, 0) == NULL);
    /* 3 devices x 2 formats x 2 GPU counts; fp8 runs weight-only on the
     * L4/A100 and natively on the H100, so nothing is a dtype miss */
    CHECK_I64(dlp_plan_considered(p), 12);
    int64_t sum = 0;
    for (int m = 0; m < DLP_PLAN_MISS_COUNT_; m++) sum += dlp_plan_missed(p, m);
    CHECK_I64(sum, 12);
    CHECK_I64(dlp_plan_missed(p, DLP_PLAN_MISS_DTYPE), 0);
    const dlp_plan_row *m = dlp_plan_closest_miss(p);
    CHECK(m != NULL);
    if (!m) return;
    CHECK(!m->meets_slo);
    CHECK_I64(m->concurrency, 1);
    CHECK_STR(dlp_plan_bind_name(m->binding), "ttft");
    double best = INFINITY;
    const char *best_dev = NULL;
    int best_q = -1, best_g = 0, fits = 0;
    for (int di = 0; di < 3; di++)
        for (int qi = 0; qi < 2; qi++)
            for (int g = 1; g <= 2; g++) {
                dlp_llm_prediction pr;
                dlp_llm_workload wl = serving(q[qi], g, 1);
                if (dlp_llm_predict(&llama, dlp_devdb_find(db, devs[di]), db, &wl, NULL, &pr, &e)) continue;
                fits++;
                double r = fmax(pr.ttft_ms / 1.0, pr.tpot_ms / TPOT);
                if (r < best) best = r, best_dev = devs[di], best_q = q[qi], best_g = g;
            }
    CHECK_I64(dlp_plan_missed(p, DLP_PLAN_MISS_TTFT) + dlp_plan_missed(p, DLP_PLAN_MISS_TPOT), fits);
    CHECK_I64(dlp_plan_missed(p, DLP_PLAN_MISS_MEMORY), 12 - fits);
    CHECK_STR(m->device->id, best_dev);
    CHECK_I64(m->quant, best_q);
    CHECK_I64(m->gpus, best_g);
    CHECK_NEAR(fmax(m->ttft_ms, m->tpot_ms / TPOT), best, best * 1e-12);
    /* the JSON says the same: no plans, the counts, the closest miss */
    char *js = NULL;
    size_t len = 0;
    CHECK(dlp_plan_json(p, &js, &len, &e) == DLP_OK);
    CHECK(js && strstr(js, "\"plans\":[]") && strstr(js, "\"closest_miss\":{") && strstr(js, "\"meets_slo\":false"));
    dlp_free(js);
    dlp_plan_free(p);
}

/* --rate: replicas = ceil(rate x gen / output tok/s of one replica), the
 * fleet costs replicas x GPUs x $/h, and the ranking is by that.  A rate
 * of exactly 3 replicas' worth needs 3, a little more needs 4. */
static void t_rate_replicas(void) {
    const char *devs[] = {"h100-sxm"};
    int q[] = {DLP_QT_FP8};
    dlp_plan_llm_opts o = {.prompt = PROMPT, .gen = GEN, .ttft_ms = TTFT, .tpot_ms = TPOT, .devices = devs,
                           .n_devices = 1, .quants = q, .n_quants = 1, .max_gpus = 1};
    dlp_plan *p = NULL;
    dlp_error e = {0};
    CHECK(dlp_plan_llm(&llama, db, &o, &p, &e) == DLP_OK);
    if (!p || dlp_plan_count(p) != 1) {
        CHECK(0);
        dlp_plan_free(p);
        return;
    }
    const dlp_plan_row *r = dlp_plan_at(p, 0);
    double tps = r->tokens_per_s, price = dlp_devdb_find(db, "h100-sxm")->price_usd_per_hour;
    CHECK_I64(r->replicas, 1);
    CHECK_NEAR(r->usd_per_hour, price, 1e-12);
    /* requests/s of one replica x gen = its output tokens/s */
    CHECK_NEAR(r->requests_per_s * GEN, tps, tps * 1e-9);
    dlp_plan_free(p);
    double rates[] = {3.0 * tps / GEN, 3.0 * tps / GEN * 1.001, 0.5 * tps / GEN, 100.0};
    for (int i = 0; i < 4; i++) {
        o.rate = rates[i];
        CHECK(dlp_plan_llm(&llama, db, &o, &p, &e) == DLP_OK);
        r = dlp_plan_at(p, 0);
        if (!r) continue;
        int64_t want = i == 0 ? 3 : i == 1 ? 4 : i == 2 ? 1 : (int64_t)ceil(100.0 * GEN / tps);
        CHECK_I64(r->replicas, want);
        CHECK_NEAR(r->usd_per_hour, (double)want * price, 1e-9);
        /* $/M tokens stays that of one loaded replica */
        CHECK_NEAR(r->usd_per_mtok, price / (tps * 3600) * 1e6, 1e-12);
        dlp_plan_free(p);
    }
    /* with a rate the ranking is by the fleet's $/h */
    o.devices = NULL, o.n_devices = 0, o.quants = NULL, o.n_quants = 0, o.max_gpus = 0, o.rate = 200;
    CHECK(dlp_plan_llm(&llama, db, &o, &p, &e) == DLP_OK);
    for (int i = 1; i < dlp_plan_count(p); i++) {
        const dlp_plan_row *a = dlp_plan_at(p, i - 1), *b = dlp_plan_at(p, i);
        CHECK(a->usd_per_hour <= b->usd_per_hour);
        CHECK_I64(b->replicas, (int64_t)ceil(200.0 * GEN / b->tokens_per_s * (1 - 1e-12)));
    }
    dlp_plan_free(p);
}

/* The issue's command: every priced GPU, default formats, up to 8 GPUs.
 * At least 50 configurations over at least 5 GPU kinds; every plan meets
 * the SLO; sorted by $/M tokens; a plan held by TTFT or TPOT breaks that
 * limit one request later (the bisection found the edge), one held by the
 * KV cache runs at what the cache holds; plans + misses = considered. */
static void t_issue_command(void) {
    dlp_plan_llm_opts o = {.prompt = PROMPT, .gen = GEN, .ttft_ms = TTFT, .tpot_ms = TPOT};
    dlp_plan *p = NULL;
    dlp_error e = {0};
    CHECK(dlp_plan_llm(&llama, db, &o, &p, &e) == DLP_OK);
    if (!p) return;
    CHECK(dlp_plan_considered(p) >= 50);
    CHECK(dlp_plan_device_kinds(p) >= 5);
    int n = dlp_plan_count(p), kinds = 0;
    CHECK(n >= 10);
    int64_t sum = n;
    for (int m = 0; m < DLP_PLAN_MISS_COUNT_; m++) sum += dlp_plan_missed(p, m);
    CHECK_I64(sum, dlp_plan_considered(p));
    const char *seen[64];
    for (int i = 0; i < n; i++) {
        const dlp_plan_row *r = dlp_plan_at(p, i);
        CHECK(r->meets_slo && r->ttft_ms <= TTFT && r->tpot_ms <= TPOT);
        CHECK(r->device->price_usd_per_hour > 0);
        CHECK(r->tp * r->attention_dp == r->gpus);
        CHECK(r->concurrency >= 1 && r->concurrency <= r->max_concurrency);
        if (i) CHECK(dlp_plan_at(p, i - 1)->usd_per_mtok <= r->usd_per_mtok);
        int new_kind = 1;
        for (int k = 0; k < kinds; k++) new_kind &= strcmp(seen[k], r->device->id) != 0;
        if (new_kind && kinds < 64) seen[kinds++] = r->device->id;
        /* maximality, checked directly on the serving model */
        dlp_llm_workload wl = serving(r->quant, r->gpus, r->concurrency + 1);
        dlp_llm_prediction pr;
        if (r->binding == DLP_PLAN_BIND_KV) {
            CHECK_I64(r->concurrency, r->max_concurrency);
        } else if (r->binding == DLP_PLAN_BIND_MAXSEQS) {
            /* the engine runs DLP_LLM_MAX_SEQS at once, the cache holds more */
            CHECK_I64(r->concurrency, DLP_LLM_MAX_SEQS);
            CHECK(r->max_concurrency > r->concurrency);
        } else {
            CHECK(r->binding == DLP_PLAN_BIND_TTFT || r->binding == DLP_PLAN_BIND_TPOT);
            CHECK(dlp_llm_predict(&llama, r->device, db, &wl, NULL, &pr, &e) == DLP_OK);
            CHECK(!meets(&pr, TTFT, TPOT));
            CHECK(r->binding == DLP_PLAN_BIND_TTFT ? pr.ttft_ms > TTFT : pr.tpot_ms > TPOT);
        }
    }
    CHECK(kinds >= 5);
    dlp_plan_free(p);
}

/* A model too large for the GPU is a memory miss, a format the GPU cannot
 * run a dtype miss (only when asked for: the defaults skip it), and the
 * caller's concurrency cap binds. */
static void t_misses_and_cap(void) {
    dlp_llm_config big;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("meta-llama/Llama-3.1-70B-Instruct", &big, &e) == DLP_OK);
    const char *l4[] = {"l4"};
    int bf16[] = {DLP_QT_BF16};
    dlp_plan_llm_opts o = {.prompt = PROMPT, .gen = GEN, .tpot_ms = TPOT, .devices = l4, .n_devices = 1,
                           .quants = bf16, .n_quants = 1, .max_gpus = 1};
    dlp_plan *p = NULL;
    CHECK(dlp_plan_llm(&big, db, &o, &p, &e) == DLP_OK);
    CHECK_I64(dlp_plan_count(p), 0);
    CHECK_I64(dlp_plan_missed(p, DLP_PLAN_MISS_MEMORY), 1);
    CHECK(dlp_plan_closest_miss(p) == NULL);
    dlp_plan_free(p);
    /* mxfp4 on an A100: no FP4 or FP8 tensor cores, no kernel */
    const char *a100[] = {"a100-80gb"};
    int fp4[] = {DLP_QT_MXFP4, DLP_QT_BF16};
    o.devices = a100, o.quants = fp4, o.n_quants = 2, o.max_gpus = 2;
    CHECK(dlp_plan_llm(&llama, db, &o, &p, &e) == DLP_OK);
    CHECK_I64(dlp_plan_missed(p, DLP_PLAN_MISS_DTYPE), 1);
    CHECK_I64(dlp_plan_considered(p), 3);   /* the fp4 miss once, bf16 on 1 and 2 GPUs */
    CHECK_I64(dlp_plan_count(p), 2);
    for (int i = 0; i < dlp_plan_count(p); i++) CHECK_I64(dlp_plan_at(p, i)->quant, DLP_QT_BF16);
    dlp_plan_free(p);
    o.quants = NULL, o.n_quants = 0;   /* defaults: no fp4 tried on an A100 */
    CHECK(dlp_plan_llm(&llama, db, &o, &p, &e) == DLP_OK);
    CHECK_I64(dlp_plan_missed(p, DLP_PLAN_MISS_DTYPE), 0);
    for (int i = 0; i < dlp_plan_count(p); i++) CHECK(dlp_plan_at(p, i)->quant != DLP_QT_MXFP4);
    dlp_plan_free(p);
    /* no SLO: memory binds; a cap below it binds instead */
    o.tpot_ms = 0, o.quants = bf16, o.n_quants = 1, o.max_gpus = 1;
    CHECK(dlp_plan_llm(&llama, db, &o, &p, &e) == DLP_OK);
    CHECK_I64(dlp_plan_count(p), 1);
    const dlp_plan_row *r = dlp_plan_at(p, 0);
    /* memory binds where the cache holds fewer than the engine runs at
     * once (max_seqs), the engine's limit where it holds more */
    CHECK(r && ((r->binding == DLP_PLAN_BIND_KV && r->concurrency == r->max_concurrency) ||
                (r->binding == DLP_PLAN_BIND_MAXSEQS && r->concurrency == DLP_LLM_MAX_SEQS &&
                 r->max_concurrency > DLP_LLM_MAX_SEQS)));
    dlp_plan_free(p);
    o.max_concurrency = 5;
    CHECK(dlp_plan_llm(&llama, db, &o, &p, &e) == DLP_OK);
    r = dlp_plan_at(p, 0);
    CHECK(r && r->binding == DLP_PLAN_BIND_MAXCONC && r->concurrency == 5);
    dlp_plan_free(p);
}

/* The caller's prices: an override changes the cost by exactly the price
 * ratio (same tok/s), and an unpriced GPU given a price joins the default
 * search; a bad price list is refused. */
static void t_caller_prices(void) {
    const char *dev[] = {"h100-sxm"};
    int fp8[] = {DLP_QT_FP8};
    dlp_plan_llm_opts o = {.prompt = PROMPT, .gen = GEN, .ttft_ms = TTFT, .tpot_ms = TPOT, .devices = dev,
                           .n_devices = 1, .quants = fp8, .n_quants = 1, .max_gpus = 1};
    dlp_plan *p = NULL, *q = NULL;
    dlp_error e = {0};
    CHECK(dlp_plan_llm(&llama, db, &o, &p, &e) == DLP_OK);
    const char *pd[] = {"H100 SXM", "mi300x"};   /* a name, not the id: found the same way */
    double pv[] = {2.00, 2.50};
    o.price_devices = pd, o.price_usd_per_hour = pv, o.n_prices = 2;
    CHECK(dlp_plan_llm(&llama, db, &o, &q, &e) == DLP_OK);
    const dlp_plan_row *a = dlp_plan_at(p, 0), *b = dlp_plan_at(q, 0);
    CHECK(a && b);
    if (a && b) {
        CHECK(!a->price_from_caller && b->price_from_caller);
        CHECK_NEAR(a->price_usd_per_hour, 2.99, 1e-12);
        CHECK_NEAR(b->usd_per_mtok, 2.00 / (b->tokens_per_s * 3600) * 1e6, 1e-12);
        CHECK_NEAR(b->usd_per_mtok / a->usd_per_mtok, 2.00 / 2.99, 1e-12);
    }
    dlp_plan_free(p);
    dlp_plan_free(q);
    /* default search: the 19 priced GPUs, + the MI300X priced here */
    dlp_plan_llm_opts d = {.prompt = PROMPT, .gen = GEN, .tpot_ms = TPOT, .max_gpus = 1};
    CHECK(dlp_plan_llm(&llama, db, &d, &p, &e) == DLP_OK);
    d.price_devices = pd, d.price_usd_per_hour = pv, d.n_prices = 2;
    CHECK(dlp_plan_llm(&llama, db, &d, &q, &e) == DLP_OK);
    CHECK_I64(dlp_plan_device_kinds(q), dlp_plan_device_kinds(p) + 1);
    int seen = 0;
    for (int i = 0; i < dlp_plan_count(q); i++) seen |= !strcmp(dlp_plan_at(q, i)->device->id, "mi300x");
    CHECK(seen);
    dlp_plan_free(p);
    dlp_plan_free(q);
    pv[1] = 0;
    CHECK(dlp_plan_llm(&llama, db, &d, &p, &e) == DLP_EINVAL);
    pv[1] = 2.5, pd[1] = "mi301x";
    CHECK(dlp_plan_llm(&llama, db, &d, &p, &e) == DLP_ENOTFOUND);
}

/* A MoE: Qwen3-235B-A22B at TPOT <= 50 ms on up to 8 GPUs.  Plans exist;
 * every split is consistent (TP x attention-DP = GPUs, EP divides the
 * experts and the GPUs), and expert or attention-data parallelism appears. */
static void t_moe(void) {
    dlp_llm_config q;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("Qwen/Qwen3-235B-A22B-Instruct-2507", &q, &e) == DLP_OK);
    dlp_plan_llm_opts o = {.prompt = 2048, .gen = 1024, .tpot_ms = 50, .max_gpus = 8};
    dlp_plan *p = NULL;
    CHECK(dlp_plan_llm(&q, db, &o, &p, &e) == DLP_OK);
    if (!p) return;
    int n = dlp_plan_count(p), parallel = 0;
    CHECK(n > 0);
    for (int i = 0; i < n; i++) {
        const dlp_plan_row *r = dlp_plan_at(p, i);
        CHECK(r->tp * r->attention_dp == r->gpus);
        CHECK(r->gpus % r->ep == 0 && q.num_experts % r->ep == 0);
        CHECK(r->tpot_ms <= 50);
        parallel += r->ep > 1 || r->attention_dp > 1;
    }
    CHECK(parallel > 0);
    CHECK(dlp_plan_missed(p, DLP_PLAN_MISS_MEMORY) > 0);   /* 235B at bf16 on one GPU */
    dlp_plan_free(p);
}

/* ---- inference plans of an ONNX model (dlp_plan_infer) ---- */

#define RESNET "examples/resnet18.onnx"

/* The largest batch meeting `lat` ms that fits, walking up from 1. */
static int64_t scan_batch(const char *dev, int dtype, double lat, int64_t bmax, dlp_prediction *out) {
    const dlp_device *d = dlp_devdb_find(db, dev);
    int64_t best = 0;
    for (int64_t b = 1; b <= bmax; b++) {
        dlp_load_opts lo = {.batch = b};
        dlp_graph *g = NULL;
        dlp_error e = {0};
        dlp_predict_opts po;
        memset(&po, 0, sizeof po);
        po.dtype = dtype;
        po.batch = b;
        dlp_prediction p;
        int ok = dlp_graph_load(RESNET, &lo, &g, &e) == DLP_OK && dlp_predict(g, d, db, &po, &p, &e) == DLP_OK;
        int meets = ok && p.fits && p.latency_ms <= lat;
        if (meets) *out = p, best = b;
        if (ok) dlp_prediction_clear(&p);
        dlp_graph_free(g);
        if (!meets) break;
    }
    return best;
}

/* Hand-worked: ResNet-18, fp16, latency <= 10 ms per batch, T4 or L4.
 * With predict's kernels of this writing (dlperf predict --batch N):
 *
 *   t4 ($0.35/h): batch 33 takes 9.849 ms, batch 34 10.13 ms: over.  33 /
 *     9.849 ms = 3,350.7 images/s = 12.06 M per hour: $0.35 / 12.06 =
 *     $0.02902 per million images; 0.6588 J / 33 = 19.96 mJ per image.
 *   l4 ($0.805/h): batch 38 takes 9.829 ms, 39 10.07 ms: over.  3,866.2
 *     images/s = 13.92 M per hour: $0.805 / 13.92 = $0.05784 per million.
 *
 * The T4 wins at half the L4's cost per image, although the L4 is faster. */
static void t_infer_hand_worked(void) {
    const char *devs[] = {"t4", "l4"};
    int dt[] = {DLP_DT_FLOAT16};
    dlp_plan_infer_opts o = {.latency_ms = 10, .devices = devs, .n_devices = 2, .dtypes = dt, .n_dtypes = 1};
    dlp_plan *p = NULL;
    dlp_error e = {0};
    CHECK(dlp_plan_infer(NULL, 0, RESNET, db, &o, &p, &e) == DLP_OK);
    if (!p) return;
    CHECK_I64(dlp_plan_kind(p), DLP_PLAN_INFER);
    CHECK_I64(dlp_plan_considered(p), 2);
    CHECK_I64(dlp_plan_count(p), 2);
    double usd[2], jps[2];
    int64_t b[2];
    for (int i = 0; i < 2; i++) {
        dlp_prediction best = {0};
        b[i] = scan_batch(devs[i], DLP_DT_FLOAT16, 10, 256, &best);
        CHECK(b[i] > 0);
        double sps = (double)b[i] / (best.latency_ms * 1e-3);
        usd[i] = dlp_devdb_find(db, devs[i])->price_usd_per_hour / (sps * 3600) * 1e6;
        jps[i] = best.energy_j / (double)b[i];
    }
    CHECK_NEAR(usd[0], 0.02902, 0.02902 * 0.10);   /* the comment's figures, loosely */
    CHECK_NEAR(usd[1], 0.05784, 0.05784 * 0.10);
    int win = usd[0] <= usd[1] ? 0 : 1;
    CHECK_I64(win, 0);
    for (int k = 0; k < 2; k++) {
        const dlp_plan_row *r = dlp_plan_at(p, k);
        int i = k == 0 ? win : 1 - win;
        if (!r) {
            CHECK(0);
            continue;
        }
        CHECK_STR(r->device->id, devs[i]);
        CHECK_I64(r->batch, b[i]);
        CHECK_NEAR(r->usd_per_msample, usd[i], usd[i] * 1e-9);
        CHECK_NEAR(r->j_per_sample, jps[i], jps[i] * 1e-9);
        CHECK(r->latency_ms <= 10 && r->meets_slo);
        CHECK_STR(dlp_plan_bind_name(r->binding), "latency");
        CHECK_I64(r->replicas, 1);
    }
    dlp_plan_free(p);
    /* --throughput: replicas = ceil(throughput / samples/s), fleet $/h */
    o.throughput = 10000;
    CHECK(dlp_plan_infer(NULL, 0, RESNET, db, &o, &p, &e) == DLP_OK);
    for (int k = 0; p && k < dlp_plan_count(p); k++) {
        const dlp_plan_row *r = dlp_plan_at(p, k);
        CHECK_I64(r->replicas, (int64_t)ceil(10000.0 / r->samples_per_s));
        CHECK_NEAR(r->usd_per_hour, (double)r->replicas * r->price_usd_per_hour, 1e-12);
        if (k) CHECK(dlp_plan_at(p, k - 1)->usd_per_hour <= r->usd_per_hour);
    }
    dlp_plan_free(p);
}

/* No latency limit: the largest batch binds; a limit nobody meets names
 * the closest miss; a fixed batch is one prediction; bad input is refused. */
static void t_infer_edges(void) {
    const char *devs[] = {"h100-sxm"};
    dlp_plan_infer_opts o = {.batch_max = 64, .devices = devs, .n_devices = 1};
    dlp_plan *p = NULL;
    dlp_error e = {0};
    CHECK(dlp_plan_infer(NULL, 0, RESNET, db, &o, &p, &e) == DLP_OK);
    CHECK(dlp_plan_count(p) >= 2);   /* fp16, bf16, fp32 */
    for (int k = 0; p && k < dlp_plan_count(p); k++) {
        CHECK_I64(dlp_plan_at(p, k)->batch, 64);
        CHECK_STR(dlp_plan_bind_name(dlp_plan_at(p, k)->binding), "max_batch");
    }
    dlp_plan_free(p);
    o.latency_ms = 0.001;
    CHECK(dlp_plan_infer(NULL, 0, RESNET, db, &o, &p, &e) == DLP_OK);
    CHECK_I64(dlp_plan_count(p), 0);
    CHECK_I64(dlp_plan_missed(p, DLP_PLAN_MISS_LATENCY), dlp_plan_considered(p));
    const dlp_plan_row *m = dlp_plan_closest_miss(p);
    CHECK(m && m->batch == 1 && m->latency_ms > 0.001 && !m->meets_slo);
    char *js = NULL;
    CHECK(dlp_plan_json(p, &js, NULL, &e) == DLP_OK);
    CHECK(js && strstr(js, "\"kind\":\"infer\"") && strstr(js, "\"latency\":") && !strstr(js, "\"ttft\":"));
    dlp_free(js);
    dlp_plan_free(p);
    o.latency_ms = 0, o.batch_min = 8, o.batch_max = 8;
    CHECK(dlp_plan_infer(NULL, 0, RESNET, db, &o, &p, &e) == DLP_OK);
    CHECK(dlp_plan_count(p) > 0 && dlp_plan_at(p, 0)->batch == 8 && dlp_plan_at(p, 0)->evaluations == 1);
    dlp_plan_free(p);
    o.batch_min = 9;
    CHECK(dlp_plan_infer(NULL, 0, RESNET, db, &o, &p, &e) == DLP_EINVAL);
    o.batch_min = 1;
    CHECK(dlp_plan_infer(NULL, 0, "no/such.onnx", db, &o, &p, &e) != DLP_OK);
    CHECK(p == NULL);
}

/* Requests nothing could answer are errors, not empty plans. */
static void t_refusals(void) {
    dlp_plan *p = (dlp_plan *)1;
    dlp_error e = {0};
    dlp_plan_llm_opts o = {.prompt = PROMPT, .gen = 0};
    CHECK(dlp_plan_llm(&llama, db, &o, &p, &e) == DLP_EINVAL);
    CHECK(p == NULL);
    o.gen = GEN;
    const char *bad[] = {"no-such-gpu"};
    o.devices = bad, o.n_devices = 1;
    CHECK(dlp_plan_llm(&llama, db, &o, &p, &e) == DLP_ENOTFOUND);
    CHECK(strstr(e.msg, "no-such-gpu") != NULL);
    const char *cpu[] = {"cpu-amd-epyc-2c"};
    o.devices = cpu;
    CHECK(dlp_plan_llm(&llama, db, &o, &p, &e) == DLP_EINVAL);
    o.devices = NULL, o.n_devices = 0, o.region = "atlantis";
    CHECK(dlp_plan_llm(&llama, db, &o, &p, &e) == DLP_ENOTFOUND);
    o.region = NULL, o.prompt = 200000;   /* past the 131,072-token context */
    CHECK(dlp_plan_llm(&llama, db, &o, &p, &e) == DLP_EINVAL);
    CHECK(strstr(e.msg, "context") != NULL);
    o.prompt = PROMPT, o.ttft_ms = -1;
    CHECK(dlp_plan_llm(&llama, db, &o, &p, &e) == DLP_EINVAL);
    o.ttft_ms = NAN;
    CHECK(dlp_plan_llm(&llama, db, &o, &p, &e) == DLP_EINVAL);
    CHECK(dlp_plan_count(NULL) == 0 && dlp_plan_at(NULL, 0) == NULL && dlp_plan_closest_miss(NULL) == NULL);
    CHECK_STR(dlp_plan_miss_name(DLP_PLAN_MISS_MEMORY), "memory");
    CHECK_STR(dlp_plan_bind_name(DLP_PLAN_BIND_KV), "kv_memory");
    CHECK_STR(dlp_plan_bind_name(99), "?");
    dlp_plan_free(NULL);
}

/* ---- training plans of an ONNX model (dlp_plan_train) ---- */

/* predict's training step of ResNet-18 at batch b (the options `dlperf
 * predict --mode train` builds); *fits and *grad_mib from it too. */
static double train_step(const char *dev, int dtype, int64_t b, int *fits, double *grad_mib, double *power_w) {
    dlp_load_opts lo = {.batch = b};
    dlp_graph *g = NULL;
    dlp_error e = {0};
    dlp_predict_opts po;
    memset(&po, 0, sizeof po);
    po.mode = DLP_PREDICT_TRAIN;
    po.dtype = dtype;
    po.batch = b;
    dlp_prediction p;
    double ms = -1;
    if (dlp_graph_load(RESNET, &lo, &g, &e) == DLP_OK && dlp_predict(g, dlp_devdb_find(db, dev), db, &po, &p, &e) == DLP_OK) {
        ms = p.step_ms;
        if (fits) *fits = p.fits;
        if (grad_mib) *grad_mib = p.gradients_mb;
        if (power_w) *power_w = p.power_w;
        dlp_prediction_clear(&p);
    }
    dlp_graph_free(g);
    return ms;
}

/* Hand-worked: ResNet-18 on h100-sxm, fp16, global batch 64, 1,280,000
 * samples x 10 epochs = 20,000 x 10 = 200,000 steps, your price $2/h, one
 * or two GPUs.  With predict of this writing (dlperf predict --mode train):
 *
 *   1 GPU:  micro-batch 64, step 9.5090 ms, no all-reduce.  200,000 x
 *           9.5090 ms = 1,901.8 s = 0.52828 h; 1 x $2 x 0.52828 = $1.0566.
 *   2 GPUs: micro-batch 32 each, step 5.6293 ms + the all-reduce of the
 *           gradients, 44.559 MiB = 46.72 MB fp32 = 23.36 M fp16 elements
 *           of the NCCL table (H100 NVLink 900 GB/s = the table's link, so
 *           no scaling).  The 2-GPU all_reduce row: 2^24 elements 0.14258
 *           ms, 2^25 0.25232 ms; log-log, f = ln(23.36M / 2^24) / ln 2 =
 *           0.4777, t = exp(ln 0.14258 + 0.4777 ln(0.25232 / 0.14258)) =
 *           0.1873 ms.  Step 5.6293 + 0.1873 = 5.8166 ms: 200,000 steps =
 *           1,163.3 s = 0.32315 h; 2 x $2 x 0.32315 = $1.2926.
 *
 * (The steps are predict's NCHW fp16 training steps, with cuDNN's
 * per-channel NCHW BatchNorm kernels: docs/predict.md, "Training".)
 * One GPU is cheaper ($1.0566 vs $1.2926): the half batch takes 59% of
 * the full one's time and the all-reduce adds 3%.  Two GPUs are faster
 * (11,003 vs 6,731 samples/s), so "compute" binds both. */
static double allreduce_2gpu_h100_ms(double bytes) {
    double elems = bytes / 2.0, f = log(elems / 16777216.0) / log(2.0);
    return exp(log(0.14258) + f * (log(0.25232) - log(0.14258)));
}

static void t_train_hand_worked(void) {
    const char *devs[] = {"h100-sxm"}, *pdev[] = {"h100-sxm"};
    double price[] = {2.0};
    int dt[] = {DLP_DT_FLOAT16};
    dlp_plan_train_opts o = {.batch = 64, .samples = 1280000, .epochs = 10, .max_gpus = 2, .devices = devs,
                             .n_devices = 1, .dtypes = dt, .n_dtypes = 1, .price_devices = pdev,
                             .price_usd_per_hour = price, .n_prices = 1};
    dlp_plan *p = NULL;
    dlp_error e = {0};
    CHECK(dlp_plan_train(NULL, 0, RESNET, db, &o, &p, &e) == DLP_OK);
    if (!p) return;
    CHECK_I64(dlp_plan_kind(p), DLP_PLAN_TRAIN);
    CHECK_I64(dlp_plan_considered(p), 2);
    CHECK_I64(dlp_plan_count(p), 2);
    double grad = 0, s64 = train_step("h100-sxm", DLP_DT_FLOAT16, 64, NULL, &grad, NULL);
    double s32 = train_step("h100-sxm", DLP_DT_FLOAT16, 32, NULL, NULL, NULL);
    double ar = allreduce_2gpu_h100_ms(grad * 1048576.0);
    CHECK_NEAR(s64, 9.5090, 9.5090 * 0.10);   /* the comment's figures, loosely */
    CHECK_NEAR(s32, 5.6293, 5.6293 * 0.10);
    CHECK_NEAR(ar, 0.1873, 0.1873 * 0.02);
    double h1 = 200000 * s64 / 3.6e6, h2 = 200000 * (s32 + ar) / 3.6e6;
    CHECK_NEAR(2.0 * h1, 1.0566, 1.0566 * 0.10);
    CHECK_NEAR(4.0 * h2, 1.2926, 1.2926 * 0.10);
    const dlp_plan_row *a = dlp_plan_at(p, 0), *b = dlp_plan_at(p, 1);
    if (!a || !b) return (void)dlp_plan_free(p);
    /* cheapest first: one GPU */
    CHECK_I64(a->gpus, 1);
    CHECK_I64(a->micro_batch, 64);
    CHECK_I64(a->accum_steps, 1);
    CHECK_NEAR(a->step_ms, s64, s64 * 1e-9);
    CHECK_NEAR(a->comm_ms, 0, 1e-12);
    CHECK_NEAR(a->hours, h1, h1 * 1e-9);
    CHECK_NEAR(a->usd_per_run, 2.0 * h1, 1e-9);
    CHECK_I64(b->gpus, 2);
    CHECK_I64(b->micro_batch, 32);
    CHECK_NEAR(b->comm_ms, ar, ar * 1e-6);
    CHECK_NEAR(b->step_ms, s32 + ar, (s32 + ar) * 1e-6);
    CHECK_NEAR(b->usd_per_run, 2 * 2.0 * h2, 2 * 2.0 * h2 * 1e-6);
    CHECK_NEAR(b->samples_per_s, 64 / ((s32 + ar) * 1e-3), 1e-3);
    CHECK(b->samples_per_s > a->samples_per_s);
    CHECK_STR(dlp_plan_bind_name(a->binding), "compute");
    CHECK_STR(dlp_plan_bind_name(b->binding), "compute");
    CHECK(a->meets_slo && b->meets_slo && a->price_from_caller);
    /* energy: GPUs x predicted power x time; carbon at the region's intensity */
    double pw = 0;
    train_step("h100-sxm", DLP_DT_FLOAT16, 32, NULL, NULL, &pw);
    CHECK_NEAR(b->kwh, 2 * pw * h2 / 1000, b->kwh * 1e-6);
    CHECK(b->co2_kg > 0 && isnan(b->energy_usd));
    char *js = NULL;
    CHECK(dlp_plan_json(p, &js, NULL, &e) == DLP_OK);
    CHECK(js && strstr(js, "\"kind\":\"train\"") && strstr(js, "\"mode\":\"train\"") &&
          strstr(js, "\"usd_per_run\":") && strstr(js, "\"deadline\":0") && !strstr(js, "\"ttft\":"));
    free(js);
    dlp_plan_free(p);
    /* a deadline between the two: only two GPUs meet it */
    o.deadline_hours = (h1 + h2) / 2;
    CHECK(dlp_plan_train(NULL, 0, RESNET, db, &o, &p, &e) == DLP_OK);
    CHECK_I64(dlp_plan_count(p), 1);
    CHECK_I64(dlp_plan_missed(p, DLP_PLAN_MISS_DEADLINE), 1);
    if (dlp_plan_count(p)) CHECK_I64(dlp_plan_at(p, 0)->gpus, 2);
    dlp_plan_free(p);
    /* a deadline nobody meets: no plan, the closest miss (two GPUs) named */
    o.deadline_hours = h2 / 2;
    CHECK(dlp_plan_train(NULL, 0, RESNET, db, &o, &p, &e) == DLP_OK);
    CHECK_I64(dlp_plan_count(p), 0);
    const dlp_plan_row *m = dlp_plan_closest_miss(p);
    CHECK(m && m->gpus == 2 && !m->meets_slo && m->binding == DLP_PLAN_BIND_DEADLINE);
    dlp_plan_free(p);
}

/* The per-GPU batch does not fit: accumulation over the largest fitting
 * micro-batch that divides it.  ResNet-18 fp32 on a 16 GB T4 needs about
 * 15.0 GiB at 512 and 29.0 GiB at 1,024 (predict; training keeps what the
 * backward reads), so 2,048 per step takes 4 x 512 on one GPU and 2 x 512
 * on each of two.  Checked against a walk down the divisors with
 * dlp_predict, not the planner's bisection. */
static void t_train_accumulation(void) {
    const char *devs[] = {"t4"};
    int dt[] = {DLP_DT_FLOAT};
    dlp_plan_train_opts o = {.batch = 2048, .samples = 2048, .max_gpus = 2, .devices = devs, .n_devices = 1,
                             .dtypes = dt, .n_dtypes = 1};
    dlp_plan *p = NULL;
    dlp_error e = {0};
    CHECK(dlp_plan_train(NULL, 0, RESNET, db, &o, &p, &e) == DLP_OK);
    CHECK_I64(dlp_plan_count(p), 2);
    for (int k = 0; k < dlp_plan_count(p); k++) {
        const dlp_plan_row *r = dlp_plan_at(p, k);
        int64_t per = 2048 / r->gpus, want = 0;
        for (int64_t b = per; b >= 1 && !want; b--) {
            int fits = 0;
            if (per % b == 0 && train_step("t4", DLP_DT_FLOAT, b, &fits, NULL, NULL) > 0 && fits) want = b;
        }
        CHECK_I64(r->micro_batch, want);
        CHECK_I64(r->micro_batch, 512);
        CHECK_I64(r->accum_steps * r->micro_batch * r->gpus, 2048);
        double st = train_step("t4", DLP_DT_FLOAT, r->micro_batch, NULL, NULL, NULL);
        CHECK_NEAR(r->compute_ms, r->accum_steps * st, st * 1e-9);
        CHECK(r->binding == DLP_PLAN_BIND_ACCUM || r->binding == DLP_PLAN_BIND_COMM);
    }
    dlp_plan_free(p);
}

/* Data parallelism never lowers throughput unless the plan says
 * communication binds: across GPUs and counts of the default search. */
static void t_train_scaling(void) {
    const char *devs[] = {"h100-sxm", "a100-80gb", "l4", "t4"};
    dlp_plan_train_opts o = {.batch = 256, .samples = 1281167, .epochs = 1, .max_gpus = 16, .devices = devs,
                             .n_devices = 4};
    dlp_plan *p = NULL;
    dlp_error e = {0};
    CHECK(dlp_plan_train(NULL, 0, RESNET, db, &o, &p, &e) == DLP_OK);
    int n = dlp_plan_count(p), checked = 0;
    CHECK(n > 8);
    for (int i = 0; i < n; i++) {
        const dlp_plan_row *r = dlp_plan_at(p, i);
        if (i) CHECK(dlp_plan_at(p, i - 1)->usd_per_run <= r->usd_per_run);
        CHECK(r->meets_slo);
        CHECK_I64(r->accum_steps * r->micro_batch * r->gpus, 256);
        for (int j = 0; j < n && r->gpus > 1; j++) {
            const dlp_plan_row *one = dlp_plan_at(p, j);
            if (one->gpus != 1 || one->device != r->device || one->dtype != r->dtype) continue;
            CHECK(r->samples_per_s >= one->samples_per_s || r->binding == DLP_PLAN_BIND_COMM);
            checked++;
        }
    }
    CHECK(checked > 4);
    dlp_plan_free(p);
    /* bad requests */
    o.batch = 0;
    CHECK(dlp_plan_train(NULL, 0, RESNET, db, &o, &p, &e) == DLP_EINVAL && !p);
    o.batch = 256;
    o.samples = 0;
    CHECK(dlp_plan_train(NULL, 0, RESNET, db, &o, &p, &e) == DLP_EINVAL);
    o.samples = 10;
    int i8[] = {DLP_DT_INT8};
    o.dtypes = i8;
    o.n_dtypes = 1;
    CHECK(dlp_plan_train(NULL, 0, RESNET, db, &o, &p, &e) == DLP_EINVAL);
    o.dtypes = NULL;
    o.n_dtypes = 0;
    o.deadline_hours = -1;
    CHECK(dlp_plan_train(NULL, 0, RESNET, db, &o, &p, &e) == DLP_EINVAL);
    o.deadline_hours = 0;
    CHECK(dlp_plan_train(NULL, 0, "no/such.onnx", db, &o, &p, &e) != DLP_OK && !p);
}

int main(void) {
    dlp_error e = {0};
    if (dlp_devdb_load(NULL, &db, &e) || dlp_llm_catalogue_get("meta-llama/Llama-3.1-8B-Instruct", &llama, &e)) {
        printf("FAIL setup: %s\n", e.msg);
        return 1;
    }
    RUN(t_hand_worked_two_gpus);
    RUN(t_nobody_meets);
    RUN(t_rate_replicas);
    RUN(t_issue_command);
    RUN(t_misses_and_cap);
    RUN(t_caller_prices);
    RUN(t_moe);
    RUN(t_refusals);
    RUN(t_infer_hand_worked);
    RUN(t_infer_edges);
    RUN(t_train_hand_worked);
    RUN(t_train_accumulation);
    RUN(t_train_scaling);
    dlp_devdb_free(db);
    return TAP_DONE();
}
