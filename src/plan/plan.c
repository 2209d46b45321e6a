/*
 * plan.c — LLM serving plans (issue 24, docs/plan.md): which GPU, how many,
 * which weight format and parallelism, at what concurrency and cost, under
 * a TTFT / TPOT service level.
 *
 * The search is devices x formats x GPU counts x parallel splits; inside a
 * configuration the concurrency is not gridded but bisected: the serving
 * model (dlp_llm_predict with concurrency set, src/llm/llm_serve.c) gets
 * slower per token as more requests share an iteration, so "meets the SLO"
 * holds from 1 up to some C* and the largest such C is found in
 * log2(max concurrency) calls.  Every listed plan is a concurrency that was
 * evaluated and met the SLO, so even if a learned correction made the
 * curve non-monotone somewhere, no plan breaks the SLO — at worst the
 * bisection stops below the true largest C.
 *
 * Only the public API of the serving model is used (dlp_llm_predict and
 * dlp_llm_compute_dtype), so the serving model can change underneath.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dlperf.h"
#include "util/jw.h"
#include "util/util.h"
#include "plan/plan_internal.h"

#define PLAN_DEFAULT_MAX_GPUS 8
#define PLAN_MAX_GPUS 1024


const char *dlp_plan_bind_name(dlp_plan_bind b) {
    static const char *const names[] = {"ttft", "tpot", "kv_memory", "max_concurrency", "latency", "memory",
                                        "max_batch", "max_seqs", "accumulation", "compute", "communication",
                                        "deadline"};
    return b >= 0 && b < DLP_PLAN_BIND_COUNT_ ? names[b] : "?";
}

const char *dlp_plan_miss_name(dlp_plan_miss m) {
    static const char *const names[] = {"ttft", "tpot", "memory", "dtype", "refused", "latency", "deadline"};
    return m >= 0 && m < DLP_PLAN_MISS_COUNT_ ? names[m] : "?";
}

/* ---- one configuration ------------------------------------------------------ */

typedef struct {
    const dlp_llm_config *c;
    const dlp_devdb *db;
    const dlp_plan_llm_opts *o;
    dlp_plan *plan;
} search_t;

/* How far a prediction is from the SLO: max over the given limits of
 * value / limit; <= 1 meets it.  Which limit is worst goes to *bind. */
static double slo_ratio(const dlp_plan_llm_opts *o, const dlp_llm_prediction *p, int *bind) {
    double rt = o->ttft_ms > 0 ? p->ttft_ms / o->ttft_ms : 0;
    double rp = o->tpot_ms > 0 ? p->tpot_ms / o->tpot_ms : 0;
    if (bind) *bind = rt >= rp ? DLP_PLAN_BIND_TTFT : DLP_PLAN_BIND_TPOT;
    return rt > rp ? rt : rp;
}

static int meets(const dlp_plan_llm_opts *o, const dlp_llm_prediction *p) {
    return (o->ttft_ms <= 0 || p->ttft_ms <= o->ttft_ms) && (o->tpot_ms <= 0 || p->tpot_ms <= o->tpot_ms);
}

double dlp__plan_price(const char *const *price_devices, const double *prices, int n_prices, const dlp_devdb *db,
                       const dlp_device *d, int *from_caller) {
    for (int i = 0; price_devices && i < n_prices; i++)
        if (dlp_devdb_find(db, price_devices[i]) == d) {
            *from_caller = 1;
            return prices[i];
        }
    *from_caller = 0;
    return d->price_usd_per_hour > 0 ? d->price_usd_per_hour : 0;
}

dlp_status dlp__plan_check_prices(const char *const *price_devices, const double *prices, int n_prices,
                                  const dlp_devdb *db, dlp_error *err) {
    if (n_prices < 0 || (n_prices > 0 && (!price_devices || !prices)))
        return dlp__err(err, DLP_EINVAL, "plan: bad price list");
    for (int i = 0; i < n_prices; i++) {
        const dlp_device *d = price_devices[i] ? dlp_devdb_find(db, price_devices[i]) : NULL;
        if (!d)
            return dlp__err(err, DLP_ENOTFOUND, "price: unknown device '%s' ('dlperf devices' lists them)",
                            price_devices[i] ? price_devices[i] : "(null)");
        if (!(prices[i] > 0) || isinf(prices[i]))
            return dlp__err(err, DLP_EINVAL, "price of %s: %g $/h is not a positive number", d->id, prices[i]);
    }
    return DLP_OK;
}

dlp_status dlp__plan_devices(const char *const *names, int n_names, const char *const *price_devices,
                             const double *prices, int n_prices, const dlp_devdb *db, const dlp_device ***out,
                             int *n_out, dlp_error *err) {
    int ndb = dlp_devdb_count(db), nd = 0;
    const dlp_device **devs = calloc((size_t)(ndb > 0 ? ndb : 1), sizeof *devs);
    *out = NULL;
    *n_out = 0;
    if (!devs) return dlp__err(err, DLP_ENOMEM, "plan: out of memory");
    dlp_status st = DLP_OK;
    if (names && n_names > 0) {
        for (int i = 0; i < n_names && !st; i++) {
            const dlp_device *d = names[i] ? dlp_devdb_find(db, names[i]) : NULL;
            if (!d)
                st = dlp__err(err, DLP_ENOTFOUND, "unknown device '%s' ('dlperf devices' lists them)",
                              names[i] ? names[i] : "(null)");
            else if (d->kind != DLP_DEVICE_GPU)
                st = dlp__err(err, DLP_EINVAL, "%s is a %s: plans cover GPUs only", d->id,
                              dlp_device_kind_name(d->kind));
            int dup = 0;
            for (int k = 0; k < nd && !st; k++) dup |= devs[k] == d;
            if (!st && !dup && nd < ndb) devs[nd++] = d;
        }
    } else {
        for (int i = 0; i < ndb; i++) {
            const dlp_device *d = dlp_devdb_at(db, i);
            int own;
            if (d->kind == DLP_DEVICE_GPU && dlp__plan_price(price_devices, prices, n_prices, db, d, &own) > 0)
                devs[nd++] = d;
        }
        if (!nd) st = dlp__err(err, DLP_EINVAL, "plan: no GPU of the database has a price (give prices or devices)");
    }
    if (st) {
        free(devs);
        return st;
    }
    *out = devs;
    *n_out = nd;
    return DLP_OK;
}

/* The costs and energy of a prediction, in the row. */
static void fill_row(const search_t *s, const dlp_device *d, const dlp_llm_workload *wl,
                     const dlp_llm_prediction *p, dlp_plan_row *r) {
    const dlp_plan_llm_opts *o = s->o;
    memset(r, 0, sizeof *r);
    r->device = d;
    r->gpus = wl->n_gpus;
    r->quant = wl->quant;
    r->attention_dp = wl->attn_dp > 1 ? wl->attn_dp : 1;
    r->tp = r->gpus / r->attention_dp;
    r->ep = wl->ep > 1 ? wl->ep : 1;
    r->concurrency = p->concurrency;
    r->max_concurrency = p->max_concurrency;
    r->ttft_ms = p->ttft_ms;
    r->tpot_ms = p->tpot_ms;
    r->tokens_per_s = p->output_tokens_per_s;
    r->requests_per_s = p->requests_per_s;
    /* requests/s x gen output tokens each, over what one replica makes; the
     * epsilon keeps an exact 3.0 from rounding up to 4 */
    r->replicas = 1;
    if (o->rate > 0 && r->tokens_per_s > 0) {
        double need = o->rate * (double)o->gen / r->tokens_per_s;
        r->replicas = (int64_t)ceil(need * (1.0 - 1e-12));
        if (r->replicas < 1) r->replicas = 1;
    }
    int from_caller = 0;
    double price = dlp__plan_price(o->price_devices, o->price_usd_per_hour, o->n_prices, s->db, d, &from_caller);
    r->price_usd_per_hour = price > 0 ? price : 0;
    r->price_from_caller = from_caller;
    double gpu_hour = price > 0 ? price * r->gpus : NAN;
    r->usd_per_hour = gpu_hour * (double)r->replicas;
    r->usd_per_mtok = r->tokens_per_s > 0 ? gpu_hour / (r->tokens_per_s * 3600.0) * 1e6 : NAN;
    r->j_per_token = p->energy_per_token_j;
    /* dlp_llm_predict's co2_g is per request in the region asked: / gen per token */
    r->co2_g_per_mtok = p->co2_g / (double)o->gen * 1e6;
    r->energy_usd_per_mtok = o->kwh_price > 0 ? r->j_per_token * 1e6 / 3.6e6 * s->plan->pue * o->kwh_price : NAN;
}

dlp_status dlp__plan_check_where(const dlp_devdb *db, const char *region, const char *const *price_devices,
                                 const double *prices, int n_prices, double *g_per_kwh, dlp_error *err) {
    if ((*g_per_kwh = dlp_carbon_intensity(db, region)) < 0)
        return dlp__err(err, DLP_ENOTFOUND, "unknown carbon region '%s' ('dlperf devices --carbon' lists them)",
                        region);
    return dlp__plan_check_prices(price_devices, prices, n_prices, db, err);
}

void dlp__plan_set_where(dlp_plan *pl, const dlp_devdb *db, const char *region, double g_per_kwh, double kwh_price,
                         int device_kinds) {
    pl->kwh_price = kwh_price;
    snprintf(pl->region, sizeof pl->region, "%s", region && *region ? region : dlp_carbon_default_region(db));
    pl->g_per_kwh = g_per_kwh;
    pl->pue = dlp_devdb_pue(db);
    pl->device_kinds = device_kinds;
}

dlp_status dlp__plan_add_row(dlp_plan *pl, const dlp_plan_row *r) {
    if (pl->n == pl->cap) {
        int nc = pl->cap ? 2 * pl->cap : 64;
        dlp_plan_row *nr = realloc(pl->rows, (size_t)nc * sizeof *nr);
        if (!nr) return DLP_ENOMEM;
        pl->rows = nr;
        pl->cap = nc;
    }
    pl->rows[pl->n++] = *r;
    return DLP_OK;
}

/* A refusal of the serving model, sorted into the miss counts.  The memory
 * refusals are told apart by their text ("no room for the KV cache", "does
 * not fit"): the serving model reports them as DLP_EINVAL like the others. */
static int refusal_kind(const dlp_error *e) {
    if (strstr(e->msg, "no room") || strstr(e->msg, "does not fit")) return DLP_PLAN_MISS_MEMORY;
    return DLP_PLAN_MISS_REFUSED;
}

/* The serving model accepted this configuration at its KV capacity but
 * refused a smaller concurrency: a bug there, reported with its message. */
static dlp_status unexpected(dlp_error *err, const dlp_error *e) {
    return dlp__err(err, DLP_EINTERNAL, "plan: the serving model refused a concurrency within capacity: %s", e->msg);
}

/* One configuration: find the largest concurrency that meets the SLO. */
static dlp_status search_config(search_t *s, const dlp_device *d, int quant, int gpus, int ep, int adp,
                                dlp_error *err) {
    dlp_plan *pl = s->plan;
    const dlp_plan_llm_opts *o = s->o;
    pl->considered++;
    dlp_llm_workload wl = {.batch = 1, .seq = o->prompt, .gen_tokens = o->gen, .quant = quant, .n_gpus = gpus,
                           .ep = ep, .attn_dp = adp, .mem_fraction = o->mem_fraction, .max_fit = 1};
    dlp_llm_prediction top, p;
    const dlp_llm_predict_opts po = {.region = o->region, .analytic_only = o->analytic_only};
    dlp_error e = {0};
    int evals = 1;
    pl->evaluations++;
    /* 1. what the KV cache holds, and the figures there */
    if (dlp_llm_predict(s->c, d, s->db, &wl, &po, &top, &e)) {
        int k = refusal_kind(&e);
        pl->missed[k]++;
        if (k == DLP_PLAN_MISS_REFUSED && !pl->first_refusal[0])
            snprintf(pl->first_refusal, sizeof pl->first_refusal, "%s", e.msg);
        return DLP_OK;
    }
    /* max_fit runs what the engine runs at once: the KV cache's capacity or
     * its running limit (max_seqs), whichever is smaller; more clients than
     * that only queue, so no plan goes beyond it */
    int64_t hi_c = top.concurrency;
    int top_bind = top.concurrency < top.max_concurrency ? DLP_PLAN_BIND_MAXSEQS : DLP_PLAN_BIND_KV;
    wl.max_fit = 0;
    if (o->max_concurrency > 0 && o->max_concurrency < hi_c) {
        hi_c = o->max_concurrency;
        top_bind = DLP_PLAN_BIND_MAXCONC;
        wl.concurrency = hi_c;
        pl->evaluations++, evals++;
        if (dlp_llm_predict(s->c, d, s->db, &wl, &po, &top, &e)) return unexpected(err, &e);
    }
    dlp_plan_row r;
    if (meets(o, &top)) {
        /* the SLO never binds: memory (or the cap) does */
        fill_row(s, d, &wl, &top, &r);
        r.binding = top_bind;
        r.meets_slo = 1;
        r.evaluations = evals;
        return dlp__plan_add_row(pl, &r) ? dlp__err(err, DLP_ENOMEM, "plan: out of memory") : DLP_OK;
    }
    /* 2. one request in flight: if that misses, nothing does */
    dlp_llm_prediction lo_p;
    wl.concurrency = 1;
    if (hi_c == 1) {
        lo_p = top;
    } else {
        pl->evaluations++, evals++;
        if (dlp_llm_predict(s->c, d, s->db, &wl, &po, &lo_p, &e)) return unexpected(err, &e);
    }
    int bind;
    if (!meets(o, &lo_p)) {
        double ratio = slo_ratio(o, &lo_p, &bind);
        pl->missed[bind == DLP_PLAN_BIND_TTFT ? DLP_PLAN_MISS_TTFT : DLP_PLAN_MISS_TPOT]++;
        if (!pl->has_closest || ratio < pl->closest_ratio) {
            fill_row(s, d, &wl, &lo_p, &pl->closest);
            pl->closest.binding = bind;
            pl->closest.meets_slo = 0;
            pl->closest.evaluations = evals;
            pl->closest_ratio = ratio;
            pl->has_closest = 1;
        }
        return DLP_OK;
    }
    /* 3. bisection: lo meets the SLO, hi does not; the limit that breaks
     * at hi is the binding one */
    int64_t lo = 1, hi = hi_c;
    slo_ratio(o, &top, &bind);
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        wl.concurrency = mid;
        pl->evaluations++, evals++;
        if (dlp_llm_predict(s->c, d, s->db, &wl, &po, &p, &e)) return unexpected(err, &e);
        if (meets(o, &p)) {
            lo = mid;
            lo_p = p;
        } else {
            hi = mid;
            slo_ratio(o, &p, &bind);
        }
    }
    wl.concurrency = lo;
    fill_row(s, d, &wl, &lo_p, &r);
    r.binding = bind;
    r.meets_slo = 1;
    r.evaluations = evals;
    return dlp__plan_add_row(pl, &r) ? dlp__err(err, DLP_ENOMEM, "plan: out of memory") : DLP_OK;
}

/* ---- the search ------------------------------------------------------------- */

/* Tensor parallelism over tpa GPUs splits the attention heads evenly and
 * the KV heads either way (vLLM); MLA's latent cache is replicated.  Splits
 * that fail this are not configurations at all, so they are not counted. */
static int tp_divides(const dlp_llm_config *c, int tpa) {
    if (tpa <= 1) return 1;
    int64_t h = c->num_attention_heads, kv = c->num_key_value_heads > 0 ? c->num_key_value_heads : h;
    if (h <= 0 || h % tpa) return 0;
    if (c->kv_lora_rank <= 0 && kv % tpa && tpa % kv) return 0;
    /* a dense MLP's columns split over the same GPUs */
    if (c->num_experts <= 0 && c->intermediate_size > 0 && c->intermediate_size % tpa) return 0;
    return 1;
}

/* Each routed expert's matrices split over gpus / ep GPUs: the expert's
 * width must divide (engines refuse 7-way splits of a 1536-wide expert). */
static int expert_tp_divides(const dlp_llm_config *c, int etp) {
    if (c->num_experts <= 0 || etp <= 1) return 1;
    int64_t w = c->moe_intermediate_size > 0 ? c->moe_intermediate_size : c->intermediate_size;
    return w > 0 && w % etp == 0;
}

/* Best first: cost (key 1: the fleet's $/h; 0: $/M of the plan's unit),
 * unpriced last by GPU-seconds per unit (the cost at any one price), then
 * the lower latency (TPOT for LLMs), then a full tie-break so the order
 * never depends on qsort. */
static int cmp_rows(const dlp_plan_row *x, const dlp_plan_row *y, int fleet) {
    int infer = x->batch > 0;
    double cx = fleet ? x->usd_per_hour : infer ? x->usd_per_msample : x->usd_per_mtok;
    double cy = fleet ? y->usd_per_hour : infer ? y->usd_per_msample : y->usd_per_mtok;
    int nx = isnan(cx), ny = isnan(cy);
    if (nx != ny) return nx - ny;
    if (!nx && cx != cy) return cx < cy ? -1 : 1;
    if (nx) {
        double gx = infer ? 1.0 / x->samples_per_s : x->gpus / x->tokens_per_s;
        double gy = infer ? 1.0 / y->samples_per_s : y->gpus / y->tokens_per_s;
        if (gx != gy) return gx < gy ? -1 : 1;
    }
    double lx = infer ? x->latency_ms : x->tpot_ms, ly = infer ? y->latency_ms : y->tpot_ms;
    if (lx != ly) return lx < ly ? -1 : 1;
    int s = strcmp(x->device->id, y->device->id);
    if (s) return s;
    if (x->gpus != y->gpus) return x->gpus - y->gpus;
    if (x->quant != y->quant) return x->quant - y->quant;
    if (x->dtype != y->dtype) return x->dtype - y->dtype;
    if (x->ep != y->ep) return x->ep - y->ep;
    return x->attention_dp - y->attention_dp;
}
/* qsort has no context argument in C11: one comparator per key. */
static int cmp_by_unit(const void *a, const void *b) { return cmp_rows(a, b, 0); }
static int cmp_by_hour(const void *a, const void *b) { return cmp_rows(a, b, 1); }

void dlp__plan_sort(dlp_plan *pl, int by_fleet) {
    if (pl->n > 1) qsort(pl->rows, (size_t)pl->n, sizeof *pl->rows, by_fleet ? cmp_by_hour : cmp_by_unit);
}

/* The formats tried on device d: the caller's, or bf16 (fp16 without bf16),
 * fp8 and mxfp4 where the device runs them.  Returns how many went to q[]. */
static int formats_for(const dlp_plan_llm_opts *o, const dlp_device *d, int *q, int max) {
    int n = 0;
    if (o->quants && o->n_quants > 0) {
        for (int i = 0; i < o->n_quants && n < max; i++) q[n++] = o->quants[i];
        return n;
    }
    q[n++] = dlp_device_supports_dtype(d, DLP_DT_BFLOAT16) ? DLP_QT_BF16 : DLP_QT_FP16;
    char why[320];
    if (dlp_llm_compute_dtype(d, DLP_QT_FP8, why, sizeof why) >= 0) q[n++] = DLP_QT_FP8;
    if (dlp_llm_compute_dtype(d, DLP_QT_MXFP4, why, sizeof why) >= 0) q[n++] = DLP_QT_MXFP4;
    return n;
}

static dlp_status search_device(search_t *s, const dlp_device *d, dlp_error *err) {
    const dlp_plan_llm_opts *o = s->o;
    const dlp_llm_config *c = s->c;
    int q[DLP_QT_COUNT_ * 2], nq = formats_for(o, d, q, (int)(sizeof q / sizeof q[0]));
    int max_gpus = o->max_gpus > 0 ? o->max_gpus : PLAN_DEFAULT_MAX_GPUS;
    int moe = c->num_experts > 0;
    for (int qi = 0; qi < nq; qi++) {
        char why[320];
        if (dlp_llm_compute_dtype(d, q[qi], why, sizeof why) < 0) {
            /* only a format the caller named lands here: one miss per
             * (device, format), not one per GPU count */
            s->plan->considered++;
            s->plan->missed[DLP_PLAN_MISS_DTYPE]++;
            continue;
        }
        for (int n = 1; n <= max_gpus; n++) {
            /* splits of n GPUs: dense models tensor-parallel only (data
             * parallelism is what replicas are); MoE models also experts
             * over all n (EP) and attention data-parallel over all n */
            for (int ep = 1; ep <= n; ep += (n > 1 ? n - 1 : 1)) {
                if (ep > 1 && (!moe || c->num_experts % ep)) continue;
                for (int adp = 1; adp <= n; adp += (n > 1 ? n - 1 : 1)) {
                    if (adp > 1 && !moe) continue;
                    if (!tp_divides(c, n / adp) || !expert_tp_divides(c, n / ep)) continue;
                    dlp_status st = search_config(s, d, q[qi], n, ep, adp, err);
                    if (st) return st;
                }
            }
        }
    }
    return DLP_OK;
}

dlp_status dlp_plan_llm(const dlp_llm_config *c, const dlp_devdb *db, const dlp_plan_llm_opts *o, dlp_plan **out,
                        dlp_error *err) {
    if (!out) return dlp__err(err, DLP_EINVAL, "dlp_plan_llm: NULL output");
    *out = NULL;
    if (!c || !db || !o) return dlp__err(err, DLP_EINVAL, "dlp_plan_llm: NULL argument");
    if (o->prompt < 1) return dlp__err(err, DLP_EINVAL, "plan: prompt %lld: at least one token", (long long)o->prompt);
    if (o->gen < 1)
        return dlp__err(err, DLP_EINVAL, "plan: gen %lld: serving generates at least one token", (long long)o->gen);
    if (!(o->ttft_ms >= 0) || !(o->tpot_ms >= 0) || !(o->rate >= 0) || !(o->kwh_price >= 0) || isinf(o->ttft_ms) ||
        isinf(o->tpot_ms) || isinf(o->rate) || isinf(o->kwh_price))
        return dlp__err(err, DLP_EINVAL, "plan: ttft, tpot, rate and kwh price must be finite and >= 0");
    if (o->max_gpus < 0 || o->max_gpus > PLAN_MAX_GPUS)
        return dlp__err(err, DLP_EINVAL, "plan: max gpus %d is not in 1..%d", o->max_gpus, PLAN_MAX_GPUS);
    if (o->max_concurrency < 0 || o->mem_fraction < 0 || o->mem_fraction > 1 || o->n_devices < 0 || o->n_quants < 0)
        return dlp__err(err, DLP_EINVAL, "plan: bad max concurrency, memory fraction or list length");
    /* refusals that hold for every configuration are errors, not misses */
    if (c->encoder_only)
        return dlp__err(err, DLP_EINVAL, "%s is an encoder-only model (%s): nothing to serve", c->id, c->model_type);
    int64_t ctx = o->prompt + c->image_tokens + o->gen;
    if (c->max_position_embeddings > 0 && ctx > c->max_position_embeddings)
        return dlp__err(err, DLP_EINVAL, "%s: prompt %lld + gen %lld = %lld tokens exceed the model's context (%lld)",
                        c->id, (long long)(o->prompt + c->image_tokens), (long long)o->gen, (long long)ctx,
                        (long long)c->max_position_embeddings);
    double gkwh;
    dlp_status st =
        dlp__plan_check_where(db, o->region, o->price_devices, o->price_usd_per_hour, o->n_prices, &gkwh, err);
    if (st) return st;
    for (int i = 0; o->quants && i < o->n_quants; i++)
        if (o->quants[i] < 0 || o->quants[i] >= DLP_QT_COUNT_)
            return dlp__err(err, DLP_EINVAL, "plan: weight format %d is not a dlp_quant", o->quants[i]);

    /* the devices: the caller's (each once), or every priced GPU */
    const dlp_device **devs = NULL;
    int nd = 0;
    st = dlp__plan_devices(o->devices, o->n_devices, o->price_devices, o->price_usd_per_hour, o->n_prices, db, &devs,
                           &nd, err);
    if (st) return st;
    dlp_plan *pl = calloc(1, sizeof *pl);
    if (!pl) {
        free(devs);
        return dlp__err(err, DLP_ENOMEM, "plan: out of memory");
    }
    pl->kind = DLP_PLAN_LLM;
    snprintf(pl->model, sizeof pl->model, "%s", c->id);
    pl->prompt = o->prompt;
    pl->gen = o->gen;
    pl->max_concurrency = o->max_concurrency;
    pl->ttft_ms = o->ttft_ms;
    pl->tpot_ms = o->tpot_ms;
    pl->rate = o->rate;
    dlp__plan_set_where(pl, db, o->region, gkwh, o->kwh_price, nd);
    search_t s = {.c = c, .db = db, .o = o, .plan = pl};
    for (int i = 0; i < nd && !st; i++) st = search_device(&s, devs[i], err);
    free(devs);
    if (st) {
        dlp_plan_free(pl);
        return st;
    }
    dlp__plan_sort(pl, o->rate > 0);
    *out = pl;
    return DLP_OK;
}

/* ---- accessors ---------------------------------------------------------------- */

int dlp_plan_count(const dlp_plan *p) { return p ? p->n : 0; }
int dlp_plan_kind(const dlp_plan *p) { return p ? p->kind : DLP_PLAN_LLM; }
const dlp_plan_row *dlp_plan_at(const dlp_plan *p, int i) { return p && i >= 0 && i < p->n ? &p->rows[i] : NULL; }
int64_t dlp_plan_considered(const dlp_plan *p) { return p ? p->considered : 0; }
int64_t dlp_plan_evaluations(const dlp_plan *p) { return p ? p->evaluations : 0; }
int dlp_plan_device_kinds(const dlp_plan *p) { return p ? p->device_kinds : 0; }
int64_t dlp_plan_missed(const dlp_plan *p, int m) {
    return p && m >= 0 && m < DLP_PLAN_MISS_COUNT_ ? p->missed[m] : 0;
}
const dlp_plan_row *dlp_plan_closest_miss(const dlp_plan *p) { return p && p->has_closest ? &p->closest : NULL; }

void dlp_plan_free(dlp_plan *p) {
    if (!p) return;
    free(p->rows);
    free(p);
}

/* ---- JSON ------------------------------------------------------------------- */

#define G6 "%.6g"

static void price_json(dlp__jw *w, const dlp_plan_row *r) {
    if (r->price_usd_per_hour > 0) dlp__jw_num(w, "usd_per_gpu_hour", G6, r->price_usd_per_hour);
    else dlp__jw_null(w, "usd_per_gpu_hour");
    dlp__jw_str(w, "price_source", r->price_usd_per_hour <= 0 ? NULL
                                   : r->price_from_caller  ? "caller"
                                                           : "database");
}

/* An inference plan's row: batch, latency, samples (dlp_plan_infer). */
static void infer_row_json(dlp__jw *w, const char *key, const dlp_plan_row *r, const dlp_plan *p) {
    dlp__jw_obj(w, key);
    dlp__jw_str(w, "device", r->device->id);
    dlp__jw_i64(w, "gpus", r->gpus);
    dlp__jw_str(w, "dtype", dlp_dtype_short(r->dtype));
    dlp__jw_str(w, "runtime", dlp_runtime_name(p->runtime));
    dlp__jw_i64(w, "batch", (long long)r->batch);
    dlp__jw_num(w, "latency_ms", G6, r->latency_ms);
    dlp__jw_num(w, "samples_per_s", G6, r->samples_per_s);
    dlp__jw_i64(w, "replicas", (long long)r->replicas);
    price_json(w, r);
    dlp__jw_num(w, "usd_per_hour", G6, r->usd_per_hour);
    dlp__jw_num(w, "usd_per_msample", G6, r->usd_per_msample);
    dlp__jw_num(w, "j_per_sample", G6, r->j_per_sample);
    dlp__jw_num(w, "co2_g_per_msample", G6, r->co2_g_per_msample);
    dlp__jw_num(w, "energy_usd_per_msample", G6, r->energy_usd_per_mtok);
    dlp__jw_bool(w, "meets_slo", r->meets_slo);
    dlp__jw_str(w, "binding", dlp_plan_bind_name(r->binding));
    dlp__jw_end(w, '}');
}

/* A training plan's row (dlp_plan_train). */
static void train_row_json(dlp__jw *w, const char *key, const dlp_plan_row *r) {
    dlp__jw_obj(w, key);
    dlp__jw_str(w, "device", r->device->id);
    dlp__jw_i64(w, "gpus", r->gpus);
    dlp__jw_str(w, "dtype", dlp_dtype_short(r->dtype));
    dlp__jw_i64(w, "batch", (long long)r->batch);
    dlp__jw_i64(w, "micro_batch", (long long)r->micro_batch);
    dlp__jw_i64(w, "accum_steps", (long long)r->accum_steps);
    dlp__jw_num(w, "compute_ms", G6, r->compute_ms);
    dlp__jw_num(w, "comm_ms", G6, r->comm_ms);
    dlp__jw_num(w, "step_ms", G6, r->step_ms);
    dlp__jw_num(w, "samples_per_s", G6, r->samples_per_s);
    dlp__jw_num(w, "hours", G6, r->hours);
    price_json(w, r);
    dlp__jw_num(w, "usd_per_hour", G6, r->usd_per_hour);
    dlp__jw_num(w, "usd_per_run", G6, r->usd_per_run);
    dlp__jw_num(w, "kwh", G6, r->kwh);
    dlp__jw_num(w, "co2_kg", G6, r->co2_kg);
    dlp__jw_num(w, "energy_usd", G6, r->energy_usd);
    dlp__jw_bool(w, "meets", r->meets_slo);
    dlp__jw_str(w, "binding", dlp_plan_bind_name(r->binding));
    dlp__jw_end(w, '}');
}

static void row_json(dlp__jw *w, const char *key, const dlp_plan_row *r, const dlp_plan *p) {
    if (p->kind == DLP_PLAN_INFER) {
        infer_row_json(w, key, r, p);
        return;
    }
    if (p->kind == DLP_PLAN_TRAIN) {
        train_row_json(w, key, r);
        return;
    }
    dlp__jw_obj(w, key);
    dlp__jw_str(w, "device", r->device->id);
    dlp__jw_i64(w, "gpus", r->gpus);
    dlp__jw_str(w, "dtype", dlp_quant_name(r->quant));
    dlp__jw_i64(w, "tp", r->tp);
    dlp__jw_i64(w, "ep", r->ep);
    dlp__jw_i64(w, "attention_dp", r->attention_dp);
    dlp__jw_i64(w, "concurrency", (long long)r->concurrency);
    dlp__jw_i64(w, "max_concurrency", (long long)r->max_concurrency);
    dlp__jw_num(w, "ttft_ms", G6, r->ttft_ms);
    dlp__jw_num(w, "tpot_ms", G6, r->tpot_ms);
    /* nine digits: the page rounds this to the CLI's four significant
     * digits, and six would round twice (15914.98 -> 15915 -> 15,920 against
     * the CLI's 15,910) */
    dlp__jw_num(w, "tokens_per_s", "%.9g", r->tokens_per_s);
    dlp__jw_num(w, "requests_per_s", G6, r->requests_per_s);
    dlp__jw_i64(w, "replicas", (long long)r->replicas);
    price_json(w, r);
    dlp__jw_num(w, "usd_per_hour", G6, r->usd_per_hour);
    dlp__jw_num(w, "usd_per_mtok", G6, r->usd_per_mtok);
    dlp__jw_num(w, "j_per_token", G6, r->j_per_token);
    dlp__jw_num(w, "co2_g_per_mtok", G6, r->co2_g_per_mtok);
    dlp__jw_num(w, "energy_usd_per_mtok", G6, r->energy_usd_per_mtok);
    dlp__jw_bool(w, "meets_slo", r->meets_slo);
    dlp__jw_str(w, "binding", dlp_plan_bind_name(r->binding));
    dlp__jw_end(w, '}');
}

dlp_status dlp_plan_json(const dlp_plan *p, char **out, size_t *len, dlp_error *err) {
    if (!p || !out) return dlp__err(err, DLP_EINVAL, "dlp_plan_json: NULL argument");
    dlp__jw w = {0};
    dlp__jw_obj(&w, NULL);
    dlp__jw_i64(&w, "considered", (long long)p->considered);
    dlp__jw_i64(&w, "evaluations", (long long)p->evaluations);
    dlp__jw_i64(&w, "device_kinds", p->device_kinds);
    static const char *const kinds[] = {"llm", "infer", "train"};
    dlp__jw_str(&w, "kind", kinds[p->kind]);
    if (p->kind == DLP_PLAN_TRAIN) dlp__jw_str(&w, "mode", "train");   /* as `--mode train` asked */
    dlp__jw_obj(&w, "request");
    dlp__jw_str(&w, "model", p->model);
    if (p->kind == DLP_PLAN_TRAIN) {
        static const char *const optim[] = {"adam", "sgd", "sgd-momentum"};
        dlp__jw_i64(&w, "batch", (long long)p->train_batch);
        dlp__jw_i64(&w, "samples", (long long)p->samples);
        dlp__jw_num(&w, "epochs", G6, p->epochs);
        dlp__jw_i64(&w, "max_gpus", p->max_gpus);
        dlp__jw_str(&w, "optimizer", optim[p->optimizer]);
        if (p->deadline_hours > 0) dlp__jw_num(&w, "deadline_hours", G6, p->deadline_hours);
        else dlp__jw_null(&w, "deadline_hours");
    } else if (p->kind == DLP_PLAN_INFER) {
        dlp__jw_i64(&w, "batch_min", (long long)p->batch_min);
        dlp__jw_i64(&w, "batch_max", (long long)p->batch_max);
        dlp__jw_str(&w, "runtime", dlp_runtime_name(p->runtime));
        if (p->latency_ms > 0) dlp__jw_num(&w, "latency_ms", G6, p->latency_ms);
        else dlp__jw_null(&w, "latency_ms");
        if (p->rate > 0) dlp__jw_num(&w, "throughput", G6, p->rate);
        else dlp__jw_null(&w, "throughput");
    } else {
        dlp__jw_i64(&w, "prompt", (long long)p->prompt);
        dlp__jw_i64(&w, "gen", (long long)p->gen);
        if (p->ttft_ms > 0) dlp__jw_num(&w, "ttft_ms", G6, p->ttft_ms);
        else dlp__jw_null(&w, "ttft_ms");
        if (p->tpot_ms > 0) dlp__jw_num(&w, "tpot_ms", G6, p->tpot_ms);
        else dlp__jw_null(&w, "tpot_ms");
        if (p->rate > 0) dlp__jw_num(&w, "rate", G6, p->rate);
        else dlp__jw_null(&w, "rate");
        if (p->max_concurrency > 0) dlp__jw_i64(&w, "max_concurrency", (long long)p->max_concurrency);
        else dlp__jw_null(&w, "max_concurrency");
    }
    dlp__jw_str(&w, "region", p->region);
    dlp__jw_num(&w, "carbon_g_per_kwh", G6, p->g_per_kwh);
    dlp__jw_num(&w, "pue", G6, p->pue);
    if (p->kwh_price > 0) dlp__jw_num(&w, "kwh_price", G6, p->kwh_price);
    else dlp__jw_null(&w, "kwh_price");
    dlp__jw_end(&w, '}');
    dlp__jw_arr(&w, "plans");
    for (int i = 0; i < p->n; i++) row_json(&w, NULL, &p->rows[i], p);
    dlp__jw_end(&w, ']');
    dlp__jw_obj(&w, "missed");
    /* the reasons of the plan's kind: TTFT/TPOT for LLMs, latency for
     * inference, deadline for training */
    for (int m = 0; m < DLP_PLAN_MISS_COUNT_; m++) {
        int kind_of = m == DLP_PLAN_MISS_LATENCY                            ? DLP_PLAN_INFER
                      : m == DLP_PLAN_MISS_TTFT || m == DLP_PLAN_MISS_TPOT ? DLP_PLAN_LLM
                      : m == DLP_PLAN_MISS_DEADLINE                         ? DLP_PLAN_TRAIN
                                                                            : -1;
        if (kind_of >= 0 && kind_of != p->kind) continue;
        dlp__jw_i64(&w, dlp_plan_miss_name(m), (long long)p->missed[m]);
    }
    dlp__jw_end(&w, '}');
    if (p->has_closest) row_json(&w, "closest_miss", &p->closest, p);
    else dlp__jw_null(&w, "closest_miss");
    if (p->first_refusal[0]) dlp__jw_str(&w, "refusal", p->first_refusal);
    dlp__jw_end(&w, '}');
    return dlp__jw_finish(&w, "plan JSON", out, len, err);
}

int dlp__plan_dtypes(const dlp_device *d, const int *want, int n_want, int *dts) {
    int n = 0;
    if (want && n_want > 0) {
        for (int k = 0; k < n_want && n < DLP_DT_COUNT_; k++) dts[n++] = want[k];
        return n;
    }
    if (dlp_device_supports_dtype(d, DLP_DT_FLOAT16)) dts[n++] = DLP_DT_FLOAT16;
    if (dlp_device_supports_dtype(d, DLP_DT_BFLOAT16)) dts[n++] = DLP_DT_BFLOAT16;
    dts[n++] = DLP_DT_FLOAT;
    return n;
}
