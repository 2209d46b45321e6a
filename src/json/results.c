/*
 * results.c — the one JSON text of each result: prediction, MIG
 * recommendation, device, device database, carbon table, graph inspection.
 *
 * The CLI's --json, the HTTP API (src/serve/api.c) and the Python package
 * all print these texts, so "the same request gives the same answer" holds
 * byte for byte rather than by a mirror kept in step by hand (tests/t_serve.sh
 * compares CLI and HTTP bytes).  Numbers: %.10g, MIG shares %.6g, counts as
 * integers; a non-finite value is null.  LLM predictions: llm_json.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/jw.h"

#define G10 "%.10g"
#define G6 "%.6g"

/* ---- prediction ----------------------------------------------------------- */

static void source(dlp__jw *w, const char *key, const dlp_pred_source *s, const char *analytic_key) {
    dlp__jw_obj(w, key);
    dlp__jw_str(w, "source", s->learned ? "learned" : "analytic");
    dlp__jw_str(w, "model", s->learned ? s->model : NULL);
    dlp__jw_str(w, "accuracy", s->learned ? s->accuracy : NULL);
    dlp__jw_num(w, analytic_key, G10, s->analytic);
    dlp__jw_end(w, '}');
}

static const char *optimizer_name(int o) {
    return o == DLP_OPTIM_ADAM ? "adam" : o == DLP_OPTIM_SGD ? "sgd" : "sgd-momentum";
}

dlp_status dlp_prediction_json(const dlp_prediction *p, const dlp_device *d, int flags, char **out, size_t *len,
                               dlp_error *err) {
    dlp__jw w = {0};
    int train = p->mode == DLP_PREDICT_TRAIN;
    dlp__jw_obj(&w, NULL);
    dlp__jw_str(&w, "model", p->model);
    dlp__jw_str(&w, "device", d->id);
    dlp__jw_str(&w, "device_name", d->name);
    dlp__jw_str(&w, "device_kind", dlp_device_kind_name(d->kind));
    dlp__jw_str(&w, "method", p->method);
    /* where latency/step and memory come from (docs/learned.md) */
    dlp__jw_obj(&w, "sources");
    source(&w, train ? "step_ms" : "latency_ms", &p->time_src, "analytic_ms");
    source(&w, "memory_mb", &p->memory_src, "analytic_mb");
    dlp__jw_end(&w, '}');
    dlp__jw_num(&w, train ? "analytic_step_ms" : "analytic_latency_ms", G10, p->time_src.analytic);
    dlp__jw_num(&w, "analytic_memory_mb", G10, p->memory_src.analytic);
    dlp__jw_str(&w, "learned_note", p->learned_note[0] ? p->learned_note : NULL);
    dlp__jw_str(&w, "mode", train ? "train" : "infer");
    dlp__jw_str(&w, "dtype", dlp_dtype_short(p->dtype));
    dlp__jw_i64(&w, "batch", (long long)p->batch);
    dlp__jw_str(&w, "runtime", dlp_runtime_name(p->runtime));
    dlp__jw_str(&w, "layout", dlp_memfmt_name(p->memfmt));
    if (train) {
        dlp__jw_null(&w, "latency_ms");
        dlp__jw_num(&w, "step_ms", G10, p->step_ms);
        dlp__jw_num(&w, "forward_ms", G10, p->latency_ms);
        dlp__jw_str(&w, "optimizer", optimizer_name(p->optimizer));
    } else {
        dlp__jw_num(&w, "latency_ms", G10, p->latency_ms);
        dlp__jw_null(&w, "step_ms");
    }
    dlp__jw_num(&w, "throughput_sps", G10, p->throughput_sps);
    if (p->band_hi_ms > 0) {
        dlp__jw_obj(&w, "band");
        dlp__jw_num(&w, "lower_ms", G10, p->band_lo_ms);
        dlp__jw_num(&w, "upper_ms", G10, p->band_hi_ms);
        dlp__jw_str(&w, "meaning", "p10-p90 of measured/predicted kernel time, leave-one-GPU-out (docs/predict.md)");
        dlp__jw_end(&w, '}');
    } else {
        dlp__jw_null(&w, "band");
    }
    dlp__jw_num(&w, "memory_mb", G10, p->memory_mb);
    dlp__jw_bool(&w, "fits", p->fits);
    if (p->device_memory_mb > 0) dlp__jw_num(&w, "device_memory_mb", G10, p->device_memory_mb);
    else dlp__jw_null(&w, "device_memory_mb");
    dlp__jw_obj(&w, "memory_breakdown_mb");
    dlp__jw_num(&w, "weights", G10, p->weights_mb);
    dlp__jw_num(&w, "activations", G10, p->activations_mb);
    dlp__jw_num(&w, "gradients", G10, p->gradients_mb);
    dlp__jw_num(&w, "optimizer", G10, p->optimizer_mb);
    dlp__jw_num(&w, "workspace", G10, p->workspace_mb);
    dlp__jw_num(&w, "context", G10, p->context_mb);
    dlp__jw_end(&w, '}');
    dlp__jw_num(&w, "energy_j", G10, p->energy_j);
    dlp__jw_num(&w, "power_w", G10, p->power_w);
    dlp__jw_bool(&w, "energy_predicted", p->energy_known);
    dlp__jw_num(&w, "clock_share", G6, p->clock_share);
    if (p->power_limit_w > 0) dlp__jw_num(&w, "power_limit_w", G10, p->power_limit_w);
    else dlp__jw_null(&w, "power_limit_w");
    dlp__jw_num(&w, "utilisation", G10, p->utilisation);
    dlp__jw_num(&w, "flops", G10, p->flops);
    dlp__jw_num(&w, "bytes", G10, p->bytes);
    dlp__jw_i64(&w, "kernels", p->kernels);
    dlp__jw_i64(&w, "unknown_nodes", p->n_unknown);
    /* MIG, as DIPPM's table 5: share of each profile's memory used */
    dlp__jw_obj(&w, "mig");
    dlp__jw_str(&w, "recommended", p->mig.profile ? p->mig.profile->name : NULL);
    dlp__jw_num(&w, "margin", G10, p->mig_margin);
    dlp__jw_num(&w, "need_mb", G10, p->mig.need_mb);
    dlp__jw_str(&w, "reason", p->mig.reason);
    dlp__jw_arr(&w, "profiles");
    for (int i = 0; i < p->mig.n_fit && i < d->n_mig; i++) {
        const dlp_mig_fit *t = &p->mig.fit[i];
        dlp__jw_obj(&w, NULL);
        dlp__jw_str(&w, "name", d->mig[i].name);
        dlp__jw_num(&w, "memory_gib", G10, d->mig[i].memory_gib);
        dlp__jw_num(&w, "used_share", G10, t->used_share);
        dlp__jw_bool(&w, "fits", t->fits_memory);
        dlp__jw_num(&w, "latency_ms", G10, t->latency_ms);
        dlp__jw_tri(&w, "meets_slo", t->meets_slo);
        dlp__jw_end(&w, '}');
    }
    dlp__jw_end(&w, ']');
    dlp__jw_end(&w, '}');
    if (train) {
        dlp__jw_null(&w, "runs");
        dlp__jw_num(&w, "steps", G10, p->steps);
    } else {
        dlp__jw_num(&w, "runs", G10, p->runs);
        dlp__jw_null(&w, "steps");
    }
    dlp__jw_num(&w, "total_hours", G10, p->total_hours);
    if (p->cost_usd >= 0) {
        dlp__jw_num(&w, "cost_usd", G10, p->cost_usd);
        dlp__jw_num(&w, "price_usd_per_hour", G10, p->price_usd_per_hour);
        dlp__jw_str(&w, "price_provider", d->price_provider);
    } else {
        dlp__jw_null(&w, "cost_usd");
        dlp__jw_null(&w, "price_usd_per_hour");
        dlp__jw_null(&w, "price_provider");
    }
    dlp__jw_num(&w, "energy_kwh", G10, p->energy_kwh);
    dlp__jw_num(&w, "co2_g", G10, p->co2_g);
    dlp__jw_str(&w, "region", p->region);
    dlp__jw_num(&w, "g_per_kwh", G10, p->g_per_kwh);
    dlp__jw_num(&w, "pue", G10, p->pue);
    if (flags & DLP_JSON_KERNELS) {
        static const char *const phase[] = {"forward", "backward", "optimizer"};
        dlp__jw_arr(&w, "kernel_list");
        for (int i = 0; i < p->n_kernel_rows; i++) {
            const dlp_kernel_pred *k = &p->kernel_rows[i];
            dlp__jw_obj(&w, NULL);
            dlp__jw_str(&w, "name", k->name);
            dlp__jw_str(&w, "class", dlp_kernel_class_name(k->kclass));
            dlp__jw_str(&w, "phase", phase[k->phase >= 0 && k->phase < 3 ? k->phase : 0]);
            dlp__jw_i64(&w, "node", k->node);
            dlp__jw_i64(&w, "nodes", k->n_nodes);
            dlp__jw_i64(&w, "count", k->count);
            dlp__jw_str(&w, "bound", k->bound == 'c' ? "compute" : "memory");
            dlp__jw_bool(&w, "tensor_core", k->tensor_core);
            dlp__jw_num(&w, "flops", G10, k->flops);
            dlp__jw_num(&w, "bytes", G10, k->bytes);
            dlp__jw_num(&w, "ratio", G10, k->ratio);
            dlp__jw_num(&w, "kernel_ms", G10, k->kernel_ms);
            dlp__jw_num(&w, "time_ms", G10, k->time_ms);
            dlp__jw_str(&w, "curve", k->curve ? k->curve : "");
            dlp__jw_end(&w, '}');
        }
        dlp__jw_end(&w, ']');
    }
    dlp__jw_end(&w, '}');
    return dlp__jw_finish(&w, "prediction", out, len, err);
}

/* ---- MIG recommendation ------------------------------------------------------ */

dlp_status dlp_mig_json(const dlp_device *d, double memory_mb, double margin, double latency_ms, double slo_ms,
                        const dlp_mig_choice *c, char **out, size_t *len, dlp_error *err) {
    dlp__jw w = {0};
    dlp__jw_obj(&w, NULL);
    dlp__jw_str(&w, "device", d->id);
    dlp__jw_num(&w, "memory_mb", G10, memory_mb);
    dlp__jw_num(&w, "margin", G10, margin);
    dlp__jw_num(&w, "need_mb", G10, c->need_mb);
    if (latency_ms > 0) dlp__jw_num(&w, "latency_ms_full_gpu", G10, latency_ms);
    else dlp__jw_null(&w, "latency_ms_full_gpu");
    if (slo_ms > 0) dlp__jw_num(&w, "slo_ms", G10, slo_ms);
    else dlp__jw_null(&w, "slo_ms");
    dlp__jw_str(&w, "recommendation", c->profile ? c->profile->name : NULL);
    if (c->latency_ms >= 0) dlp__jw_num(&w, "latency_ms", G10, c->latency_ms);
    else dlp__jw_null(&w, "latency_ms");
    dlp__jw_str(&w, "reason", c->reason);
    dlp__jw_arr(&w, "profiles");
    for (int i = 0; i < c->n_fit && i < d->n_mig; i++) {
        const dlp_mig_profile *p = &d->mig[i];
        const dlp_mig_fit *t = &c->fit[i];
        dlp__jw_obj(&w, NULL);
        dlp__jw_str(&w, "name", p->name);
        dlp__jw_num(&w, "memory_gib", G10, p->memory_gib);
        if (p->usable_gib > 0) dlp__jw_num(&w, "usable_gib", G10, p->usable_gib);
        else dlp__jw_null(&w, "usable_gib");
        dlp__jw_i64(&w, "compute_slices", p->compute_slices);
        if (p->sms > 0) dlp__jw_i64(&w, "sms", p->sms);
        else dlp__jw_null(&w, "sms");
        dlp__jw_i64(&w, "max_instances", p->max_instances);
        dlp__jw_num(&w, "used_share", G6, t->used_share);
        dlp__jw_bool(&w, "fits", t->fits_memory);
        dlp__jw_tri(&w, "fits_usable", t->fits_usable);
        if (t->latency_ms >= 0) dlp__jw_num(&w, "latency_ms", G10, t->latency_ms);
        else dlp__jw_null(&w, "latency_ms");
        dlp__jw_tri(&w, "meets_slo", t->meets_slo);
        dlp__jw_end(&w, '}');
    }
    dlp__jw_end(&w, ']');
    dlp__jw_end(&w, '}');
    return dlp__jw_finish(&w, "mig", out, len, err);
}

/* ---- devices ----------------------------------------------------------------- */

/* A number, or null where 0 means "unknown / none". */
static void num0(dlp__jw *w, const char *key, double x, int zero_is_null) {
    if (zero_is_null && x == 0) dlp__jw_null(w, key);
    else dlp__jw_num(w, key, G10, x);
}

static void device(dlp__jw *w, const dlp_device *d) {
    char cc[32];
    dlp__jw_obj(w, NULL);
    dlp__jw_str(w, "id", d->id);
    dlp__jw_str(w, "name", d->name);
    dlp__jw_str(w, "vendor", d->vendor);
    dlp__jw_str(w, "arch", d->arch);
    dlp__jw_str(w, "chip", d->chip);
    dlp__jw_str(w, "form_factor", d->form_factor);
    dlp__jw_str(w, "kind", dlp_device_kind_name(d->kind));
    dlp__jw_arr(w, "aliases");
    for (int i = 0; i < d->n_aliases; i++) dlp__jw_str(w, NULL, d->aliases[i]);
    dlp__jw_end(w, ']');
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    dlp__jw_str(w, "compute_capability", d->cc_major ? cc : NULL);
    num0(w, "sm_count", d->sm_count, 0);
    num0(w, "fp32_cores_per_sm", d->fp32_cores_per_sm, 0);
    num0(w, "boost_clock_mhz", d->boost_clock_mhz, 0);
    num0(w, "peak_fp32_gflops", d->peak_fp32_gflops, 0);
    num0(w, "peak_fp64_gflops", d->peak_fp64_gflops, 0);
    num0(w, "peak_fp16_gflops", d->peak_fp16_gflops, 1);
    num0(w, "fp16_tensor_tflops", d->fp16_tensor_tflops, 1);
    num0(w, "bf16_tensor_tflops", d->bf16_tensor_tflops, 1);
    num0(w, "tf32_tensor_tflops", d->tf32_tensor_tflops, 1);
    num0(w, "fp8_tensor_tflops", d->fp8_tensor_tflops, 1);
    num0(w, "fp4_tensor_tflops", d->fp4_tensor_tflops, 1);
    num0(w, "int8_tensor_tops", d->int8_tensor_tops, 1);
    num0(w, "fp64_tensor_tflops", d->fp64_tensor_tflops, 1);
    num0(w, "fp32_matrix_tflops", d->fp32_matrix_tflops, 1);
    num0(w, "memory_gib", d->memory_gib, 0);
    dlp__jw_str(w, "memory_type", d->memory_type);
    num0(w, "mem_bandwidth_gbs", d->mem_bandwidth_gbs, 0);
    num0(w, "l2_cache_mb", d->l2_cache_mb, 0);
    num0(w, "l2_bandwidth_gbs", d->l2_bandwidth_gbs, 1);   /* null: no sourced figure (docs/devices.md) */
    num0(w, "l1_cache_kb_per_sm", d->l1_cache_kb_per_sm, 1);
    int cpu = d->kind == DLP_DEVICE_CPU;   /* GPU-only fields and power may be 0 = null */
    num0(w, "shared_mem_kb_per_sm", d->shared_mem_kb_per_sm, cpu);
    num0(w, "shared_mem_kb_per_block", d->shared_mem_kb_per_block, cpu);
    num0(w, "max_threads_per_sm", d->max_threads_per_sm, 1);
    num0(w, "max_threads_per_block", d->max_threads_per_block, cpu);
    num0(w, "registers_per_sm", d->registers_per_sm, 1);
    num0(w, "registers_per_block", d->registers_per_block, 1);
    num0(w, "warp_size", d->warp_size, cpu);
    num0(w, "tdp_w", d->tdp_w, cpu);
    num0(w, "idle_w", d->idle_w, cpu);
    num0(w, "die_tdp_w", d->die_tdp_w, 1);   /* null: tdp_w is the die's own (docs/devices.md) */
    dlp__jw_str(w, "interface", d->host_interface);
    if (d->n_mig) {
        dlp__jw_arr(w, "mig");
        for (int i = 0; i < d->n_mig; i++) {
            const dlp_mig_profile *p = &d->mig[i];
            dlp__jw_obj(w, NULL);
            dlp__jw_str(w, "name", p->name);
            num0(w, "memory_gib", p->memory_gib, 0);
            num0(w, "usable_gib", p->usable_gib, 1);
            num0(w, "compute_slices", p->compute_slices, 0);
            num0(w, "sms", p->sms, 1);
            num0(w, "max_instances", p->max_instances, 0);
            dlp__jw_end(w, '}');
        }
        dlp__jw_end(w, ']');
    } else {
        dlp__jw_null(w, "mig");
    }
    if (d->price_usd_per_hour > 0) {
        dlp__jw_obj(w, "price");
        dlp__jw_num(w, "usd_per_hour", G10, d->price_usd_per_hour);
        dlp__jw_str(w, "provider", d->price_provider);
        dlp__jw_str(w, "date", d->price_date);
        dlp__jw_end(w, '}');
    } else {
        dlp__jw_null(w, "price");
    }
    dlp__jw_arr(w, "sources");
    for (int i = 0; i < d->n_sources; i++) {
        dlp__jw_obj(w, NULL);
        dlp__jw_str(w, "key", d->source_keys[i]);
        dlp__jw_str(w, "text", d->sources[i]);
        dlp__jw_end(w, '}');
    }
    dlp__jw_end(w, ']');
    dlp__jw_str(w, "notes", d->notes);
    dlp__jw_end(w, '}');
}

static void carbon(dlp__jw *w, const char *key, const dlp_devdb *db) {
    dlp__jw_obj(w, key);
    dlp__jw_str(w, "default_region", dlp_carbon_default_region(db));
    dlp__jw_num(w, "pue", G10, dlp_devdb_pue(db));
    dlp__jw_arr(w, "regions");
    for (int i = 0; i < dlp_carbon_region_count(db); i++) {
        const char *id = NULL, *src = NULL;
        double g = 0;
        const dlp_region *rg = dlp_carbon_region_at(db, i);
        id = rg->id;
        g = rg->g_per_kwh;
        src = rg->source;
        dlp__jw_obj(w, NULL);
        dlp__jw_str(w, "region", id);
        dlp__jw_num(w, "g_per_kwh", G10, g);
        dlp__jw_str(w, "source", src);
        dlp__jw_end(w, '}');
    }
    dlp__jw_end(w, ']');
    dlp__jw_end(w, '}');
}

dlp_status dlp_device_json(const dlp_device *d, char **out, size_t *len, dlp_error *err) {
    dlp__jw w = {0};
    device(&w, d);
    return dlp__jw_finish(&w, d->id, out, len, err);
}

dlp_status dlp_devices_json(const dlp_devdb *db, char **out, size_t *len, dlp_error *err) {
    dlp__jw w = {0};
    dlp__jw_obj(&w, NULL);
    dlp__jw_arr(&w, "devices");
    for (int i = 0; i < dlp_devdb_count(db); i++) device(&w, dlp_devdb_at(db, i));
    dlp__jw_end(&w, ']');
    carbon(&w, "carbon", db);
    dlp__jw_end(&w, '}');
    return dlp__jw_finish(&w, "devices", out, len, err);
}

dlp_status dlp_carbon_json(const dlp_devdb *db, char **out, size_t *len, dlp_error *err) {
    dlp__jw w = {0};
    carbon(&w, NULL, db);
    return dlp__jw_finish(&w, "carbon", out, len, err);
}

/* ---- graph inspection ---------------------------------------------------------- */

/* A tensor's shape: [d, ...] with -1 for unknown dims, null for unknown rank. */
static void shape_json(dlp__jw *w, const char *key, const dlp_graph *g, int t) {
    dlp_tensor_info ti;
    if (t < 0) {
        dlp__jw_null(w, key);
        return;
    }
    ti = *dlp_graph_tensor_at(g, t);
    if (ti.rank < 0) {
        dlp__jw_null(w, key);
        return;
    }
    dlp__jw_arr(w, key);
    for (int d = 0; d < ti.rank; d++) dlp__jw_i64(w, NULL, (long long)ti.dims[d]);
    dlp__jw_end(w, ']');
}

static dlp_status inspect_json(const dlp_graph *g, int nodes, char **out, size_t *len, dlp_error *err) {
    dlp_graph_stats st;
    dlp_graph_stats_get(g, &st);
    /* per op type, by FLOPs then count then name (the CLI table's order) */
    dlp_op_total *rows;
    int nr = dlp_graph_op_totals(g, &rows);
    if (nr < 0) return dlp__err(err, DLP_ENOMEM, "%s: out of memory writing JSON", dlp_graph_name(g));
    dlp__jw w = {0};
    dlp__jw_obj(&w, NULL);
    dlp__jw_str(&w, "model", dlp_graph_name(g));
    dlp__jw_str(&w, "method", "graph");
    dlp__jw_i64(&w, "batch", (long long)st.batch);
    dlp__jw_i64(&w, "nodes", (long long)st.nodes);
    dlp__jw_i64(&w, "edges", (long long)st.edges);
    dlp__jw_i64(&w, "params", (long long)st.params);
    dlp__jw_i64(&w, "macs", (long long)st.macs);
    dlp__jw_i64(&w, "flops", (long long)st.flops);
    dlp__jw_i64(&w, "weight_bytes", (long long)st.weight_bytes);
    dlp__jw_i64(&w, "activation_bytes", (long long)st.activation_bytes);
    dlp__jw_i64(&w, "peak_memory_bytes", (long long)st.peak_memory_bytes);
    dlp__jw_i64(&w, "peak_activation_bytes", (long long)st.peak_activation_bytes);
    dlp__jw_i64(&w, "input_bytes", (long long)st.input_bytes);
    dlp__jw_i64(&w, "node_outputs", (long long)st.node_outputs);
    dlp__jw_i64(&w, "shapes_known", (long long)st.shapes_known);
    dlp__jw_obj(&w, "ops");
    for (int r = 0; r < nr; r++) dlp__jw_i64(&w, rows[r].op, rows[r].count);
    dlp__jw_end(&w, '}');
    dlp__jw_obj(&w, "macs_by_op");
    for (int r = 0; r < nr; r++)
        if (rows[r].macs) dlp__jw_i64(&w, rows[r].op, rows[r].macs);
    dlp__jw_end(&w, '}');
    dlp__jw_obj(&w, "flops_by_op");
    for (int r = 0; r < nr; r++) dlp__jw_i64(&w, rows[r].op, rows[r].flops);
    dlp__jw_end(&w, '}');
    free(rows);
    dlp__jw_arr(&w, "unknown_ops");
    for (int i = 0; i < dlp_graph_unknown_op_count(g); i++) dlp__jw_str(&w, NULL, dlp_graph_unknown_op_at(g, i));
    dlp__jw_end(&w, ']');
    dlp__jw_obj(&w, "symbols");
    for (int i = 0; i < dlp_graph_symbol_count(g); i++) {
        const char *nm;
        int64_t v;
        const dlp_symbol *sy = dlp_graph_symbol_at(g, i);
        nm = sy->name;
        v = sy->value;
        dlp__jw_i64(&w, nm, (long long)v);
    }
    dlp__jw_end(&w, '}');
    dlp__jw_arr(&w, "warnings");
    for (int i = 0; i < dlp_graph_warning_count(g); i++) dlp__jw_str(&w, NULL, dlp_graph_warning_at(g, i));
    dlp__jw_end(&w, ']');
    if (nodes) {
        dlp__jw_arr(&w, "outputs");
        for (int i = 0; i < dlp_graph_output_count(g); i++) {
            int t = dlp_graph_output_at(g, i);
            dlp_tensor_info ti;
            ti = *dlp_graph_tensor_at(g, t);
            dlp__jw_obj(&w, NULL);
            dlp__jw_str(&w, "name", ti.name);
            dlp__jw_str(&w, "dtype", dlp_dtype_name(ti.dtype));
            shape_json(&w, "shape", g, t);
            dlp__jw_end(&w, '}');
        }
        dlp__jw_end(&w, ']');
        dlp__jw_arr(&w, "node_list");
        for (int i = 0; i < dlp_graph_node_count(g); i++) {
            dlp_node_info ni;
            ni = *dlp_graph_node_at(g, i);
            dlp__jw_obj(&w, NULL);
            dlp__jw_str(&w, "name", ni.name);
            dlp__jw_str(&w, "op", ni.op_type);
            dlp__jw_arr(&w, "outputs");
            for (int o = 0; o < ni.n_outputs; o++) shape_json(&w, NULL, g, ni.outputs[o]);
            dlp__jw_end(&w, ']');
            dlp__jw_end(&w, '}');
        }
        dlp__jw_end(&w, ']');
    }
    dlp__jw_end(&w, '}');
    return dlp__jw_finish(&w, dlp_graph_name(g), out, len, err);
}

dlp_status dlp_inspect_json(const dlp_graph *g, char **out, size_t *len, dlp_error *err) {
    return inspect_json(g, 0, out, len, err);
}

dlp_status dlp_inspect_nodes_json(const dlp_graph *g, char **out, size_t *len, dlp_error *err) {
    return inspect_json(g, 1, out, len, err);
}
