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
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "predict/learned.h"
#include "util/util.h"

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
    if (d->tdp_w > 0 && p->power_w > d->tdp_w) {   /* the board cannot draw more */
        p->power_w = d->tdp_w;
        p->energy_j = d->tdp_w * unit_ms / 1e3;
    }
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
    if (runtime == DLP_RUNTIME_TENSORRT) o->pure_roofline = 1, o->launch_us = -1;
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
    if (!db) {
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
            dlp_carbon_region(db, i, &id, NULL, NULL);
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
    if (st) dlp_prediction_free(out);
    return st;
}
