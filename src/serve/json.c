/*
 * json.c — the server's JSON answers for /api/predict, /api/llm and /api/mig.
 *
 * Each one has the same keys, in the same order, with the same numbers as
 * `dlperf predict|llm|mig --json` (src/cli/cmd_predict.c, cmd_llm.c,
 * cmd_mig.c): a user switching from the CLI to the API (or the page) must
 * see the same values, and tests/t_serve.sh compares the two whole objects.
 * To make "the same numbers" exact rather than close, numbers are emitted as
 * cJSON raw values printed with the CLI's own printf formats (%.10g for
 * predict and mig, %.6g for llm, %lld for counts); only non-finite values
 * differ: the CLI would print "inf", the server prints null (valid JSON).
 *
 * The CLI's printers write to stdout and live in src/cli, which the library
 * cannot use; hence this mirror.  When the CLI's JSON gains a key, add it
 * here too (the t_serve.sh comparison fails until both agree).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "serve/serve.h"

/* A builder that remembers whether any allocation failed, so the callers
 * below can stay linear and check once at the end. */
typedef struct {
    int oom;
} jb;

static cJSON *chk(jb *b, cJSON *item) {
    if (!item) b->oom = 1;
    return item;
}

static void add(jb *b, cJSON *o, const char *k, cJSON *v) {
    if (!o || !v || !cJSON_AddItemToObject(o, k, v)) {
        b->oom = 1;
        cJSON_Delete(v);
    }
}

static void num(jb *b, cJSON *o, const char *k, const char *fmt, double v) {
    if (!isfinite(v)) {
        add(b, o, k, chk(b, cJSON_CreateNull()));
        return;
    }
    char t[64];
    snprintf(t, sizeof t, fmt, v);
    add(b, o, k, chk(b, cJSON_CreateRaw(t)));
}

static void i64(jb *b, cJSON *o, const char *k, long long v) {
    char t[32];
    snprintf(t, sizeof t, "%lld", v);
    add(b, o, k, chk(b, cJSON_CreateRaw(t)));
}

static void str(jb *b, cJSON *o, const char *k, const char *v) {
    add(b, o, k, chk(b, v ? cJSON_CreateString(v) : cJSON_CreateNull()));
}

static void boolean(jb *b, cJSON *o, const char *k, int v) { add(b, o, k, chk(b, cJSON_CreateBool(v))); }

/* 1/0 -> true/false, negative -> null (the CLI's tri-state fields). */
static void tri(jb *b, cJSON *o, const char *k, int v) {
    add(b, o, k, chk(b, v < 0 ? cJSON_CreateNull() : cJSON_CreateBool(v)));
}

static void null(jb *b, cJSON *o, const char *k) { add(b, o, k, chk(b, cJSON_CreateNull())); }

static char *finish(jb *b, cJSON *root) {
    char *s = NULL;
    if (!b->oom && root) s = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return s;
}

#define G10 "%.10g"
#define G6 "%.6g"

char *dlp__serve_predict_json(const dlp_prediction *p, const dlp_device *d) {
    jb b = {0};
    cJSON *o = chk(&b, cJSON_CreateObject());
    int train = p->mode == DLP_PREDICT_TRAIN;
    str(&b, o, "model", p->model);
    str(&b, o, "device", d->id);
    str(&b, o, "device_name", d->name);
    str(&b, o, "device_kind", dlp_device_kind_name(d->kind));
    str(&b, o, "method", p->method);
    /* where latency/step and memory come from (docs/learned.md), as the CLI */
    cJSON *srcs = chk(&b, cJSON_CreateObject());
    const dlp_pred_source *sv[2] = {&p->time_src, &p->memory_src};
    const char *sk[2] = {train ? "step_ms" : "latency_ms", "memory_mb"};
    for (int i = 0; i < 2; i++) {
        cJSON *e = chk(&b, cJSON_CreateObject());
        str(&b, e, "source", sv[i]->learned ? "learned" : "analytic");
        str(&b, e, "model", sv[i]->learned ? sv[i]->model : NULL);
        str(&b, e, "accuracy", sv[i]->learned ? sv[i]->accuracy : NULL);
        num(&b, e, i ? "analytic_mb" : "analytic_ms", G10, sv[i]->analytic);
        add(&b, srcs, sk[i], e);
    }
    add(&b, o, "sources", srcs);
    num(&b, o, train ? "analytic_step_ms" : "analytic_latency_ms", G10, p->time_src.analytic);
    num(&b, o, "analytic_memory_mb", G10, p->memory_src.analytic);
    str(&b, o, "learned_note", p->learned_note[0] ? p->learned_note : NULL);
    boolean(&b, o, "energy_predicted", p->energy_known);
    str(&b, o, "mode", train ? "train" : "infer");
    str(&b, o, "dtype", dlp_dtype_short(p->dtype));
    i64(&b, o, "batch", (long long)p->batch);
    str(&b, o, "runtime", dlp_runtime_name(p->runtime));
    str(&b, o, "layout", dlp_memfmt_name(p->memfmt));
    if (train) {
        null(&b, o, "latency_ms");
        num(&b, o, "step_ms", G10, p->step_ms);
        num(&b, o, "forward_ms", G10, p->latency_ms);
        str(&b, o, "optimizer",
            p->optimizer == DLP_OPTIM_ADAM ? "adam" : p->optimizer == DLP_OPTIM_SGD ? "sgd" : "sgd-momentum");
    } else {
        num(&b, o, "latency_ms", G10, p->latency_ms);
        null(&b, o, "step_ms");
    }
    num(&b, o, "throughput_sps", G10, p->throughput_sps);
    if (p->band_hi_ms > 0) {
        cJSON *band = chk(&b, cJSON_CreateObject());
        num(&b, band, "lower_ms", G10, p->band_lo_ms);
        num(&b, band, "upper_ms", G10, p->band_hi_ms);
        str(&b, band, "meaning", "p10-p90 of measured/predicted kernel time, leave-one-GPU-out (docs/predict.md)");
        add(&b, o, "band", band);
    } else {
        null(&b, o, "band");
    }
    num(&b, o, "memory_mb", G10, p->memory_mb);
    cJSON *mb = chk(&b, cJSON_CreateObject());
    num(&b, mb, "weights", G10, p->weights_mb);
    num(&b, mb, "activations", G10, p->activations_mb);
    num(&b, mb, "gradients", G10, p->gradients_mb);
    num(&b, mb, "optimizer", G10, p->optimizer_mb);
    num(&b, mb, "workspace", G10, p->workspace_mb);
    num(&b, mb, "context", G10, p->context_mb);
    add(&b, o, "memory_breakdown_mb", mb);
    num(&b, o, "energy_j", G10, p->energy_j);
    num(&b, o, "power_w", G10, p->power_w);
    num(&b, o, "utilisation", G10, p->utilisation);
    num(&b, o, "flops", G10, p->flops);
    num(&b, o, "bytes", G10, p->bytes);
    i64(&b, o, "kernels", p->kernels);
    i64(&b, o, "unknown_nodes", p->n_unknown);
    /* MIG, as DIPPM's table 5: share of each profile's memory used */
    cJSON *mig = chk(&b, cJSON_CreateObject());
    str(&b, mig, "recommended", p->mig.profile ? p->mig.profile->name : NULL);
    num(&b, mig, "margin", G10, p->mig_margin);
    num(&b, mig, "need_mb", G10, p->mig.need_mb);
    str(&b, mig, "reason", p->mig.reason);
    cJSON *profs = chk(&b, cJSON_CreateArray());
    for (int i = 0; i < p->mig.n_fit && i < d->n_mig; i++) {
        const dlp_mig_fit *t = &p->mig.fit[i];
        cJSON *e = chk(&b, cJSON_CreateObject());
        str(&b, e, "name", d->mig[i].name);
        num(&b, e, "memory_gib", G10, d->mig[i].memory_gib);
        num(&b, e, "used_share", G10, t->used_share);
        boolean(&b, e, "fits", t->fits_memory);
        num(&b, e, "latency_ms", G10, t->latency_ms);
        tri(&b, e, "meets_slo", t->meets_slo);
        if (e && profs && !cJSON_AddItemToArray(profs, e)) b.oom = 1, cJSON_Delete(e);
    }
    add(&b, mig, "profiles", profs);
    add(&b, o, "mig", mig);
    if (train) {
        null(&b, o, "runs");
        num(&b, o, "steps", G10, p->steps);
    } else {
        num(&b, o, "runs", G10, p->runs);
        null(&b, o, "steps");
    }
    num(&b, o, "total_hours", G10, p->total_hours);
    if (p->cost_usd >= 0) {
        num(&b, o, "cost_usd", G10, p->cost_usd);
        num(&b, o, "price_usd_per_hour", G10, p->price_usd_per_hour);
        str(&b, o, "price_provider", d->price_provider);
    } else {
        null(&b, o, "cost_usd");
        null(&b, o, "price_usd_per_hour");
        null(&b, o, "price_provider");
    }
    num(&b, o, "energy_kwh", G10, p->energy_kwh);
    num(&b, o, "co2_g", G10, p->co2_g);
    str(&b, o, "region", p->region);
    num(&b, o, "g_per_kwh", G10, p->g_per_kwh);
    num(&b, o, "pue", G10, p->pue);
    return finish(&b, o);
}

char *dlp__serve_llm_json(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_prediction *p,
                          const dlp_llm_workload *wl, int64_t samples, const char *region) {
    jb b = {0};
    cJSON *o = chk(&b, cJSON_CreateObject());
    /* the CLI's totals, computed the same way */
    double tot_s = (double)samples / p->throughput_sps, tot_j = p->energy_j * (double)samples,
           tot_g = p->co2_g * (double)samples;
    str(&b, o, "model", c->id);
    str(&b, o, "hf_id", c->hf_id);
    str(&b, o, "model_type", c->model_type);
    str(&b, o, "device", d->id);
    str(&b, o, "device_name", d->name);
    i64(&b, o, "batch", (long long)wl->batch);
    i64(&b, o, "seq", (long long)wl->seq);
    i64(&b, o, "gen_tokens", (long long)wl->gen_tokens);
    i64(&b, o, "gpus", (long long)(wl->n_gpus > 0 ? wl->n_gpus : 1));
    str(&b, o, "dtype", dlp_quant_name(wl->quant));
    str(&b, o, "compute_dtype", dlp_dtype_short(p->compute_dtype));
    str(&b, o, "kv_dtype", dlp_dtype_short(p->kv_dtype));
    boolean(&b, o, "weight_only", p->weight_only);
    num(&b, o, "throughput_sps", G6, p->throughput_sps);
    num(&b, o, "tokens_per_s", G6, p->tokens_per_s);
    num(&b, o, "latency_ms", G6, p->latency_ms);
    num(&b, o, "memory_mb", G6, p->memory_mb);
    num(&b, o, "weights_mb", G6, p->weights_mb);
    num(&b, o, "activations_mb", G6, p->activations_mb);
    boolean(&b, o, "fits", p->fits);
    num(&b, o, "power_w", G6, p->power_w);
    num(&b, o, "energy_j", G6, p->energy_j);
    num(&b, o, "co2_g", G6, p->co2_g);
    str(&b, o, "region", region);
    num(&b, o, "carbon_g_per_kwh", G6, p->carbon_g_per_kwh);
    num(&b, o, "pue", G6, p->pue);
    i64(&b, o, "samples", (long long)samples);
    num(&b, o, "total_time_s", G6, tot_s);
    num(&b, o, "total_energy_j", G6, tot_j);
    num(&b, o, "total_co2_g", G6, tot_g);
    i64(&b, o, "params", (long long)p->params);
    i64(&b, o, "macs", (long long)p->macs);
    i64(&b, o, "nodes", (long long)p->nodes);
    i64(&b, o, "edges", (long long)p->edges);
    i64(&b, o, "active_params", (long long)p->active_params);
    i64(&b, o, "image_tokens", (long long)c->image_tokens);
    i64(&b, o, "kv_bytes_per_seq", (long long)llround(p->kv_bytes_per_seq));
    str(&b, o, "method", p->method);
    cJSON *m = chk(&b, cJSON_CreateObject());
    str(&b, m, "throughput", p->method_throughput);
    str(&b, m, "memory", p->method_memory);
    str(&b, m, "energy", p->method_energy);
    add(&b, o, "methods", m);
    return finish(&b, o);
}

char *dlp__serve_mig_json(const dlp_device *d, double mem, double margin, double lat, double slo,
                          const dlp_mig_choice *c) {
    jb b = {0};
    cJSON *o = chk(&b, cJSON_CreateObject());
    str(&b, o, "device", d->id);
    num(&b, o, "memory_mb", G10, mem);
    num(&b, o, "margin", G10, margin);
    num(&b, o, "need_mb", G10, c->need_mb);
    if (lat > 0) num(&b, o, "latency_ms_full_gpu", G10, lat);
    else null(&b, o, "latency_ms_full_gpu");
    if (slo > 0) num(&b, o, "slo_ms", G10, slo);
    else null(&b, o, "slo_ms");
    str(&b, o, "recommendation", c->profile ? c->profile->name : NULL);
    if (c->latency_ms >= 0) num(&b, o, "latency_ms", G10, c->latency_ms);
    else null(&b, o, "latency_ms");
    str(&b, o, "reason", c->reason);
    cJSON *profs = chk(&b, cJSON_CreateArray());
    for (int i = 0; i < c->n_fit && i < d->n_mig; i++) {
        const dlp_mig_profile *p = &d->mig[i];
        const dlp_mig_fit *t = &c->fit[i];
        cJSON *e = chk(&b, cJSON_CreateObject());
        str(&b, e, "name", p->name);
        num(&b, e, "memory_gib", G10, p->memory_gib);
        if (p->usable_gib > 0) num(&b, e, "usable_gib", G10, p->usable_gib);
        else null(&b, e, "usable_gib");
        i64(&b, e, "compute_slices", p->compute_slices);
        if (p->sms > 0) i64(&b, e, "sms", p->sms);
        else null(&b, e, "sms");
        i64(&b, e, "max_instances", p->max_instances);
        num(&b, e, "used_share", G6, t->used_share);
        boolean(&b, e, "fits", t->fits_memory);
        tri(&b, e, "fits_usable", t->fits_usable);
        if (t->latency_ms >= 0) num(&b, e, "latency_ms", G10, t->latency_ms);
        else null(&b, e, "latency_ms");
        tri(&b, e, "meets_slo", t->meets_slo);
        if (e && profs && !cJSON_AddItemToArray(profs, e)) b.oom = 1, cJSON_Delete(e);
    }
    add(&b, o, "profiles", profs);
    return finish(&b, o);
}
