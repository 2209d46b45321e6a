/*
 * predict.c — dlp_predict: the one prediction path.
 *
 *   options -> base estimator (first applicable row) -> refinements
 *           -> derive (throughput, power <= TDP, MIG, cost, carbon)
 *
 * Every estimator answers time, energy and memory; nothing else.  What
 * follows from them is derived here once, so a learned correction of the
 * time moves throughput, energy, cost and carbon consistently, and no
 * estimator re-patches another's result (docs/predict.md, "Pipeline").
 */
#include "predict/predict.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "predict/learned.h"
#include "util/util.h"

/* The built-in device database, loaded once per process and shared
 * read-only: callers without a database of their own (dlp_llm_predict
 * calls dlp_predict several times per answer) otherwise parsed the whole
 * devices.json each time, a quarter of an LLM answer's instructions. */
static dlp_devdb *builtin;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;
static void builtin_load(void) {
    if (dlp_devdb_load(NULL, &builtin, NULL) != DLP_OK) builtin = NULL;
}
static const dlp_devdb *builtin_db(void) {
    pthread_once(&builtin_once, builtin_load);
    return builtin;
}

int dlp_predict_mode_parse(const char *s) {
    if (!s) return -1;
    if (!strcasecmp(s, "infer") || !strcasecmp(s, "inference")) return DLP_PREDICT_INFER;
    if (!strcasecmp(s, "train") || !strcasecmp(s, "training")) return DLP_PREDICT_TRAIN;
    return -1;
}

int dlp_optimizer_parse(const char *s) {
    if (!s) return -1;
    if (!strcasecmp(s, "adam") || !strcasecmp(s, "adamw")) return DLP_OPTIM_ADAM;
    if (!strcasecmp(s, "sgd")) return DLP_OPTIM_SGD;
    if (!strcasecmp(s, "sgd-momentum") || !strcasecmp(s, "momentum")) return DLP_OPTIM_SGD_MOMENTUM;
    return -1;
}

double dlp_cost_usd(double price_usd_per_hour, double time_ms, double count) {
    return price_usd_per_hour * time_ms * count / 3.6e6;
}

double dlp_co2_g(double energy_j, double pue, double g_per_kwh) {
    return energy_j / 3.6e6 * pue * g_per_kwh;
}


/* ---- the estimator table ------------------------------------------------------- */

static int is_gpu(const dlp_device *d, const dlp_predict_opts *o) {
    (void)o;
    return d->kind != DLP_DEVICE_CPU;
}
static int is_cpu(const dlp_device *d, const dlp_predict_opts *o) {
    (void)o;
    return d->kind == DLP_DEVICE_CPU;
}
/* Unpacking the shipped models (a CRC over ~1.3 MB and a GNN load: ~20 % of
 * a whole `dlperf predict` on a 5k-node graph) only when one is named for
 * this device and mode (bench/bench_predict.sh). */
static int learned_wanted(const dlp_device *d, const dlp_predict_opts *o) {
    return !o->no_learned &&
           dlp__learned_bundle_has(dlp__learned_bundle, (size_t)dlp__learned_bundle_len, d->id, o->mode);
}

static const dlp__estimator table[] = {
    {"roofline", 0, is_gpu, dlp__predict_analytic},
    {"roofline-cpu", 0, is_cpu, dlp__predict_cpu},
    {"learned", 1, learned_wanted, dlp__predict_learned},
};

const dlp__estimator *dlp__estimators(int *n) {
    if (n) *n = (int)(sizeof table / sizeof table[0]);
    return table;
}

/* ---- derive ---------------------------------------------------------------------- */

dlp_status dlp__predict_derive(const dlp_device *d, const dlp_predict_opts *o, double g_per_kwh, double pue,
                               const char *region, dlp_prediction *p, dlp_error *err) {
    int train = p->mode == DLP_PREDICT_TRAIN;
    double unit_ms = train ? p->step_ms : p->latency_ms;
    p->device_kind = d->kind;
    p->energy_known = d->tdp_w > 0;
    p->throughput_sps = unit_ms > 0 ? (double)p->batch / (unit_ms / 1e3) : 0;
    /* a refinement that moved the time keeps the estimate's average power */
    double analytic_ms = p->time_src.learned ? p->time_src.analytic : unit_ms;
    if (p->time_src.learned && analytic_ms > 0) p->energy_j *= unit_ms / analytic_ms;
    p->power_w = unit_ms > 0 ? p->energy_j / (unit_ms / 1e3) : 0;
    double limit = o->power_limit_w > 0 && o->power_limit_w < d->tdp_w ? o->power_limit_w : d->tdp_w;
    p->power_limit_w = limit;
    if (limit > 0 && p->power_w > limit) {   /* the board cannot draw more */
        p->power_w = limit;
        p->energy_j = limit * unit_ms / 1e3;
    }
    /* memory above the device: said, never silent (the times stay those of
     * a device that had the memory) */
    p->device_memory_mb = d->memory_gib > 0 ? d->memory_gib * 1024.0 : 0;
    p->fits = p->device_memory_mb <= 0 || p->memory_mb <= p->device_memory_mb;
    double count = train ? (o->steps > 0 ? o->steps : 1) : (o->runs > 0 ? o->runs : 1);
    p->runs = train ? 0 : count;
    p->steps = train ? count : 0;
    p->total_hours = unit_ms * count / 3.6e6;
    p->price_usd_per_hour = d->price_usd_per_hour > 0 ? d->price_usd_per_hour : 0;
    p->cost_usd = p->price_usd_per_hour > 0 ? dlp_cost_usd(p->price_usd_per_hour, unit_ms, count) : -1;
    p->energy_kwh = p->energy_j * count / 3.6e6;
    p->pue = pue;
    p->g_per_kwh = g_per_kwh;
    p->co2_g = dlp_co2_g(p->energy_j * count, pue, g_per_kwh);
    snprintf(p->region, sizeof p->region, "%s", region ? region : "");
    if (!p->energy_known) {
        p->energy_j = p->power_w = p->energy_kwh = p->co2_g = NAN;
        for (int i = 0; i < p->n_nodes; i++) p->nodes[i].energy_j = NAN;
    }
    p->mig_margin = o->mig_margin == 0 ? DLP_PREDICT_MIG_MARGIN : o->mig_margin < 0 ? 0 : o->mig_margin;
    if (d->kind == DLP_DEVICE_CPU) {
        memset(&p->mig, 0, sizeof p->mig);
        p->mig.index = -1;
        p->mig.latency_ms = -1;
        snprintf(p->mig.reason, sizeof p->mig.reason, "none (CPU)");
        return DLP_OK;
    }
    dlp_status st = dlp_mig_recommend(d, p->memory_mb, p->mig_margin, unit_ms, o->latency_slo_ms, &p->mig);
    if (st) dlp__err(err, st, "predict: MIG: %s", p->mig.reason);
    return st;
}

void dlp_predict_use_runtime(dlp_predict_opts *o, int runtime) {
    if (!o) return;
    o->runtime = runtime;
    o->fuse = 0, o->pure_roofline = 0, o->launch_us = 0;
    /* TensorRT: no launch gaps; its tensor-core GEMMs and attention on the
     * curves, the rest on the pure roofline (roofline.c, trt_curve_class) */
    if (runtime == DLP_RUNTIME_TENSORRT) o->launch_us = -1;
}

/* ---- what cannot run ------------------------------------------------------------- */

static int graph_has_conv(const dlp_graph *g) {
    int n = dlp_graph_node_count(g);
    for (int i = 0; i < n; i++) {
        dlp_node_info ni;
        ni = *dlp_graph_node_at(g, i);
        if (ni.op_class == DLP_OPC_CONV) return 1;
    }
    return 0;
}

/* Runtime x mode x device x dtype combinations that do not exist are refused
 * with the reason ("predict what runs, not what is written"): a number for a
 * program nobody can run is not a prediction. */
static dlp_status check_combination(const dlp_graph *g, const dlp_device *d, const dlp_predict_opts *o,
                                    dlp_error *err) {
    const char *rt = dlp_runtime_name(o->runtime);
    if (o->runtime == DLP_RUNTIME_TENSORRT && o->mode == DLP_PREDICT_TRAIN) {
        dlp__err(err, DLP_EINVAL, "predict: TensorRT builds inference engines and does not train; use --runtime "
                                 "eager or compile with --mode train");
        return DLP_EINVAL;
    }
    if (o->runtime == DLP_RUNTIME_TENSORRT && (d->kind == DLP_DEVICE_CPU || !d->vendor || strcmp(d->vendor, "nvidia"))) {
        dlp__err(err, DLP_EINVAL, "predict: TensorRT runs on NVIDIA GPUs only; '%s' is %s (try --runtime %s)", d->id,
                d->kind == DLP_DEVICE_CPU ? "a CPU" : d->vendor ? d->vendor : "not NVIDIA",
                d->kind == DLP_DEVICE_CPU ? "eager" : "compile or onnxruntime");
        return DLP_EINVAL;
    }
    /* cuDNN is NVIDIA's and the eager, compile and onnxruntime profiles'
     * (TensorRT times its own kernels); its majors here are 8 and 9 */
    if (o->cudnn && ((o->cudnn != 8 && o->cudnn != 9) || o->runtime == DLP_RUNTIME_TENSORRT ||
                     d->kind == DLP_DEVICE_CPU || !d->vendor || strcmp(d->vendor, "nvidia"))) {
        dlp__err(err, DLP_EINVAL, "predict: cuDNN %d %s", o->cudnn,
                o->cudnn != 8 && o->cudnn != 9 ? "is not a cuDNN generation dlperf models (8 or 9)"
                : o->runtime == DLP_RUNTIME_TENSORRT ? "does not apply to TensorRT, which times its own kernels"
                                                     : "runs on NVIDIA GPUs only");
        return DLP_EINVAL;
    }
    if (o->power_limit_w < 0 || !isfinite(o->power_limit_w) ||
        (o->power_limit_w > 0 && (d->tdp_w <= 0 || o->power_limit_w > d->tdp_w))) {
        dlp__err(err, DLP_EINVAL, "predict: power limit %g W is outside (idle, %g W] of '%s'", o->power_limit_w,
                d->tdp_w, d->id);
        return DLP_EINVAL;
    }
    if (o->fuse && o->mode == DLP_PREDICT_TRAIN) {
        dlp__err(err, DLP_EINVAL, "predict: --fuse is inference-only (an epilogue fusion drops the intermediates "
                                 "that backward needs); use --runtime compile for training");
        return DLP_EINVAL;
    }
    /* Low-precision convolutions: PyTorch (eager and inductor) has fp8
     * matmuls (torch._scaled_mm) but no fp8, fp4 or int8 CUDA convolution;
     * onnxruntime's CUDA EP runs int8 convs (QLinearConv) but no fp8. */
    int dt = o->dtype;
    int f8 = dt == DLP_DT_FLOAT8E4M3FN || dt == DLP_DT_FLOAT8E4M3FNUZ || dt == DLP_DT_FLOAT8E5M2 ||
             dt == DLP_DT_FLOAT8E5M2FNUZ || dt == DLP_DT_FLOAT4E2M1;
    int i8 = dt == DLP_DT_INT8;
    if (d->kind != DLP_DEVICE_CPU && (f8 || i8) && o->runtime != DLP_RUNTIME_TENSORRT &&
        !(i8 && o->runtime == DLP_RUNTIME_ORT) && graph_has_conv(g)) {
        dlp__err(err, DLP_EINVAL, "predict: %s has no %s convolution kernels (PyTorch's low-precision paths are "
                                 "matmuls only); use --runtime tensorrt%s, or --dtype fp16",
                rt, dlp_dtype_short(dt == DLP_DT_FLOAT8E4M3FNUZ || dt == DLP_DT_FLOAT8E5M2 ||
                                            dt == DLP_DT_FLOAT8E5M2FNUZ ? DLP_DT_FLOAT8E4M3FN : dt),
                i8 ? " or onnxruntime" : "");
        return DLP_EINVAL;
    }
    return DLP_OK;
}

/* A sequence longer than the model's learned positions: a Gather from a 2-D
 * float initializer (an embedding table) whose indices are computed in the
 * graph from a Range (position ids = arange(seq)).  Token ids come from the
 * caller and say nothing; position ids run 0 .. seq-1 and must be rows of
 * the table, or the model indexes past it (PyTorch raises "index out of
 * range in self"). */
static int from_range(const dlp_graph *g, int t, int depth) {
    dlp_tensor_info ti;
    if (t < 0 || depth > 6) return 0;
    ti = *dlp_graph_tensor_at(g, t);
    if (ti.producer < 0) return 0;
    dlp_node_info ni;
    ni = *dlp_graph_node_at(g, ti.producer);
    if (!strcmp(ni.op_type, "Range")) return 1;
    if (strcmp(ni.op_type, "Unsqueeze") && strcmp(ni.op_type, "Expand") && strcmp(ni.op_type, "Reshape") &&
        strcmp(ni.op_type, "Slice") && strcmp(ni.op_type, "Cast") && strcmp(ni.op_type, "Add") &&
        strcmp(ni.op_type, "Identity"))
        return 0;
    return ni.n_inputs > 0 && from_range(g, ni.inputs[0], depth + 1);
}

static dlp_status check_positions(const dlp_graph *g, dlp_error *err) {
    int n = dlp_graph_node_count(g);
    for (int i = 0; i < n; i++) {
        dlp_node_info ni;
        ni = *dlp_graph_node_at(g, i);
        if (strcmp(ni.op_type, "Gather") || ni.n_inputs < 2 || ni.inputs[0] < 0 || ni.inputs[1] < 0) continue;
        dlp_tensor_info tab, idx;
        tab = *dlp_graph_tensor_at(g, ni.inputs[0]);
        idx = *dlp_graph_tensor_at(g, ni.inputs[1]);
        if (!tab.is_initializer || tab.rank != 2 || tab.dims[0] <= 0 || idx.producer < 0) continue;
        if (tab.dtype != DLP_DT_FLOAT && tab.dtype != DLP_DT_FLOAT16 && tab.dtype != DLP_DT_BFLOAT16) continue;
        int64_t rows = tab.dims[0], need = -1;
        if (idx.has_value) {
            for (int64_t k = 0; k < idx.n_value; k++)
                if (idx.value[k] + 1 > need) need = idx.value[k] + 1;
        } else if (from_range(g, ni.inputs[1], 0) && idx.shape_known && idx.rank >= 1) {
            need = idx.dims[idx.rank - 1];   /* arange(seq): the last index is seq - 1 */
        }
        if (need > rows) {
            dlp__err(err, DLP_EINVAL,
                    "predict: the sequence needs %lld positions but the model has %lld (position table '%s' of "
                    "node '%s'); use --seq %lld or less",
                    (long long)need, (long long)rows, tab.name ? tab.name : "?", ni.name ? ni.name : "?",
                    (long long)rows);
            return DLP_EINVAL;
        }
    }
    return DLP_OK;
}

/* ---- dlp_predict ------------------------------------------------------------------ */

dlp_status dlp_predict(const dlp_graph *g, const dlp_device *d, const dlp_devdb *db, const dlp_predict_opts *opts,
                       dlp_prediction *out, dlp_error *err) {
    if (!out) {
        dlp__err(err, DLP_EINVAL, "predict: no output given");
        return DLP_EINVAL;
    }
    memset(out, 0, sizeof *out);
    if (!g || !d) {
        dlp__err(err, DLP_EINVAL, "predict: %s", !g ? "no graph given" : "no device given");
        return DLP_EINVAL;
    }
    dlp_predict_opts o = {0};
    if (opts) o = *opts;
    /* the carbon region first: a typo should not cost a whole prediction */
    dlp_devdb *own_db = NULL;
    if (!db) db = builtin_db();
    if (!db) {   /* only if the built-in database could not be loaded: say why */
        dlp_status st = dlp_devdb_load(NULL, &own_db, err);
        if (st) return st;
        db = own_db;
    }
    double gkwh = dlp_carbon_intensity(db, o.region);
    if (gkwh < 0) {
        char list[256] = "";
        size_t len = 0;
        for (int i = 0; i < dlp_carbon_region_count(db) && len + 1 < sizeof list; i++) {
            const char *id = NULL;
            id = dlp_carbon_region_at(db, i)->id;
            int w = snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", id ? id : "?");
            if (w < 0) break;
            len += (size_t)w;
        }
        dlp__err(err, DLP_ENOTFOUND, "predict: unknown carbon region '%s' (known: %s)", o.region, list);
        dlp_devdb_free(own_db);
        return DLP_ENOTFOUND;
    }
    char region[32];
    const char *rid = o.region && *o.region ? o.region : dlp_carbon_default_region(db);
    snprintf(region, sizeof region, "%s", rid ? rid : "");
    double pue = dlp_devdb_pue(db);
    dlp_devdb_free(own_db);

    dlp_status cst = check_combination(g, d, &o, err);
    if (!cst) cst = check_positions(g, err);
    if (cst) return cst;

    int n;
    const dlp__estimator *t = dlp__estimators(&n);
    int based = 0;
    dlp_status st = DLP_OK;
    for (int i = 0; i < n && !st; i++) {
        if (t[i].refines != based || !t[i].applies(d, &o)) continue;
        st = t[i].run(g, d, &o, out, err);
        if (!st && !t[i].refines) {
            based = 1;
            /* the refinements see the base estimate as the analytic value */
            int train = out->mode == DLP_PREDICT_TRAIN;
            out->time_src.analytic = train ? out->step_ms : out->latency_ms;
            out->memory_src.analytic = out->memory_mb;
        }
    }
    if (!st && !based) {
        dlp__err(err, DLP_EINVAL, "predict: no estimator covers device '%s'", d->id);
        st = DLP_EINVAL;
    }
    if (!st) st = dlp__predict_derive(d, &o, gkwh, pue, region, out, err);
    if (st) dlp_prediction_clear(out);
    return st;
}
