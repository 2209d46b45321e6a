/*
 * plan_infer.c — inference plans of any ONNX model (issue 24, docs/plan.md,
 * "Vision and other ONNX models"): which GPU and compute dtype, at which
 * batch, at what cost per million samples, under a latency limit.
 *
 * One GPU per replica (data parallelism is replicas).  For every device x
 * dtype the batch is bisected between batch_min and batch_max: a larger
 * batch takes longer and needs more memory (predict's kernels, src/predict),
 * so "latency <= limit and fits" holds from batch_min up to some B*, found
 * in log2(batch_max) predictions.  A graph is loaded once per batch size and
 * shared by every device, so the search costs a few dozen loads, not one per
 * prediction.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dlperf.h"
#include "plan/plan_internal.h"
#include "util/util.h"

#define INFER_DEFAULT_MAX_BATCH 256
#define INFER_MAX_BATCH (1 << 20)

dlp_status dlp__plan_graph_at(dlp__plan_graphs *gs, int64_t b, const dlp_graph **out, dlp_error *err) {
    for (int i = 0; i < gs->n; i++)
        if (gs->batch[i] == b) {
            *out = gs->g[i];
            return DLP_OK;
        }
    if (gs->n == gs->cap) {
        int nc = gs->cap ? 2 * gs->cap : 32;
        int64_t *nb = realloc(gs->batch, (size_t)nc * sizeof *nb);
        if (nb) gs->batch = nb;
        dlp_graph **ng = nb ? realloc(gs->g, (size_t)nc * sizeof *ng) : NULL;
        if (!nb || !ng) return dlp__err(err, DLP_ENOMEM, "plan: out of memory");
        gs->g = ng;
        gs->cap = nc;
    }
    dlp_load_opts lo = {.batch = b, .seq = gs->seq, .n_dims = gs->n_dims, .dim_names = gs->dim_names,
                        .dim_values = gs->dim_values};
    dlp_graph *g = NULL;
    dlp_status st = gs->onnx ? dlp_graph_load_mem(gs->onnx, gs->len, gs->name, &lo, &g, err)
                             : dlp_graph_load(gs->name, &lo, &g, err);
    if (st) return st;
    gs->batch[gs->n] = b;
    gs->g[gs->n++] = g;
    *out = g;
    return DLP_OK;
}

void dlp__plan_graphs_free(dlp__plan_graphs *gs) {
    for (int i = 0; i < gs->n; i++) dlp_graph_free(gs->g[i]);
    free(gs->batch);
    free(gs->g);
}

typedef struct {
    const dlp_devdb *db;
    const dlp_plan_infer_opts *o;
    dlp_plan *plan;
    dlp__plan_graphs *gs;
} isearch_t;

/* One prediction at batch b.  *refused: the predictor refused the request
 * (a dtype the GPU lacks, ...) with the message in e; other failures
 * (memory, a malformed model) are errors. */
static dlp_status predict_at(isearch_t *s, const dlp_device *d, int dtype, int64_t b, dlp_prediction *p,
                             int *refused, dlp_error *e, dlp_error *err) {
    const dlp_graph *g;
    dlp_status st = dlp__plan_graph_at(s->gs, b, &g, err);
    if (st) return st;
    dlp_predict_opts po;
    memset(&po, 0, sizeof po);
    dlp_predict_use_runtime(&po, s->o->runtime);
    po.dtype = dtype;
    po.batch = b;
    po.region = s->o->region;
    s->plan->evaluations++;
    *refused = 0;
    memset(p, 0, sizeof *p);
    st = dlp_predict(g, d, s->db, &po, p, e);
    /* the planner reads the totals only: the per-node and per-kernel
     * tables go at once (dlp_prediction_clear keeps the scalars) */
    dlp_prediction_clear(p);
    if (st == DLP_EINVAL || st == DLP_EUNSUPPORTED) {
        *refused = 1;
        return DLP_OK;
    }
    if (st) {
        *err = *e;
        return st;
    }
    return DLP_OK;
}

static int meets_lat(const dlp_plan_infer_opts *o, const dlp_prediction *p) {
    return o->latency_ms <= 0 || p->latency_ms <= o->latency_ms;
}

static void fill_infer_row(isearch_t *s, const dlp_device *d, int dtype, int64_t b, const dlp_prediction *p,
                           dlp_plan_row *r) {
    const dlp_plan_infer_opts *o = s->o;
    memset(r, 0, sizeof *r);
    r->device = d;
    r->gpus = 1;
    r->tp = 1;
    r->ep = 1;
    r->attention_dp = 1;
    r->dtype = dtype;
    r->batch = b;
    r->latency_ms = p->latency_ms;
    r->samples_per_s = (double)b / (p->latency_ms * 1e-3);
    r->replicas = 1;
    if (o->throughput > 0) {
        r->replicas = (int64_t)ceil(o->throughput / r->samples_per_s * (1.0 - 1e-12));
        if (r->replicas < 1) r->replicas = 1;
    }
    int own = 0;
    double price = dlp__plan_price(o->price_devices, o->price_usd_per_hour, o->n_prices, s->db, d, &own);
    r->price_usd_per_hour = price > 0 ? price : 0;
    r->price_from_caller = own;
    r->usd_per_hour = price > 0 ? price * (double)r->replicas : NAN;
    r->usd_per_msample = price > 0 ? price / (r->samples_per_s * 3600.0) * 1e6 : NAN;
    r->usd_per_mtok = NAN;
    r->j_per_sample = p->energy_known ? p->energy_j / (double)b : NAN;
    r->co2_g_per_msample = r->j_per_sample * 1e6 / 3.6e6 * s->plan->pue * s->plan->g_per_kwh;
    /* the energy cost, per million samples here */
    r->energy_usd_per_mtok = o->kwh_price > 0 ? r->j_per_sample * 1e6 / 3.6e6 * s->plan->pue * o->kwh_price : NAN;
    r->tokens_per_s = NAN;
    r->j_per_token = NAN;
    r->co2_g_per_mtok = NAN;
}

/* A miss: counted, and the closest latency miss kept (least latency / limit
 * at batch_min). */
static void miss(isearch_t *s, int why, const dlp_device *d, int dtype, int64_t b, const dlp_prediction *p,
                 const dlp_error *e) {
    dlp_plan *pl = s->plan;
    pl->missed[why]++;
    if (why == DLP_PLAN_MISS_REFUSED && e && !pl->first_refusal[0])
        snprintf(pl->first_refusal, sizeof pl->first_refusal, "%s", e->msg);
    if (why != DLP_PLAN_MISS_LATENCY) return;
    double ratio = p->latency_ms / s->o->latency_ms;
    if (!pl->has_closest || ratio < pl->closest_ratio) {
        fill_infer_row(s, d, dtype, b, p, &pl->closest);
        pl->closest.binding = DLP_PLAN_BIND_LATENCY;
        pl->closest_ratio = ratio;
        pl->has_closest = 1;
    }
}

static dlp_status search_infer(isearch_t *s, const dlp_device *d, int dtype, int64_t bmin, int64_t bmax,
                               dlp_error *err) {
    dlp_plan *pl = s->plan;
    pl->considered++;
    dlp_prediction p, lo_p;
    dlp_error e = {0};
    int refused;
    dlp_status st;
    /* the largest batch first: when it fits and meets the limit, it is the plan */
    if ((st = predict_at(s, d, dtype, bmax, &p, &refused, &e, err))) return st;
    if (refused) {
        miss(s, DLP_PLAN_MISS_REFUSED, d, dtype, bmax, &p, &e);
        return DLP_OK;
    }
    dlp_plan_row r;
    if (p.fits && meets_lat(s->o, &p)) {
        fill_infer_row(s, d, dtype, bmax, &p, &r);
        r.binding = DLP_PLAN_BIND_MAXBATCH;
        r.meets_slo = 1;
        r.evaluations = 1;
        return dlp__plan_add_row(pl, &r) ? dlp__err(err, DLP_ENOMEM, "plan: out of memory") : DLP_OK;
    }
    int bind = p.fits ? DLP_PLAN_BIND_LATENCY : DLP_PLAN_BIND_MEMORY;
    int evals = 1;
    if (bmax == bmin) {
        lo_p = p;
    } else {
        evals++;
        if ((st = predict_at(s, d, dtype, bmin, &lo_p, &refused, &e, err))) return st;
        if (refused) {
            miss(s, DLP_PLAN_MISS_REFUSED, d, dtype, bmin, &lo_p, &e);
            return DLP_OK;
        }
    }
    if (!lo_p.fits) {
        miss(s, DLP_PLAN_MISS_MEMORY, d, dtype, bmin, &lo_p, NULL);
        return DLP_OK;
    }
    if (!meets_lat(s->o, &lo_p)) {
        miss(s, DLP_PLAN_MISS_LATENCY, d, dtype, bmin, &lo_p, NULL);
        return DLP_OK;
    }
    int64_t lo = bmin, hi = bmax;
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        evals++;
        if ((st = predict_at(s, d, dtype, mid, &p, &refused, &e, err))) return st;
        if (!refused && p.fits && meets_lat(s->o, &p)) {
            lo = mid;
            lo_p = p;
        } else {
            hi = mid;
            bind = refused || !p.fits ? DLP_PLAN_BIND_MEMORY : DLP_PLAN_BIND_LATENCY;
        }
    }
    fill_infer_row(s, d, dtype, lo, &lo_p, &r);
    r.binding = bind;
    r.meets_slo = 1;
    r.evaluations = evals;
    return dlp__plan_add_row(pl, &r) ? dlp__err(err, DLP_ENOMEM, "plan: out of memory") : DLP_OK;
}

dlp_status dlp_plan_infer(const void *onnx, size_t len, const char *name, const dlp_devdb *db,
                          const dlp_plan_infer_opts *o, dlp_plan **out, dlp_error *err) {
    if (!out) return dlp__err(err, DLP_EINVAL, "dlp_plan_infer: NULL output");
    *out = NULL;
    if ((!onnx && !name) || !db || !o) return dlp__err(err, DLP_EINVAL, "dlp_plan_infer: NULL argument");
    int64_t bmin = o->batch_min > 0 ? o->batch_min : 1;
    int64_t bmax = o->batch_max > 0 ? o->batch_max : (bmin > INFER_DEFAULT_MAX_BATCH ? bmin : INFER_DEFAULT_MAX_BATCH);
    if (o->batch_min < 0 || o->batch_max < 0 || bmin > bmax || bmax > INFER_MAX_BATCH)
        return dlp__err(err, DLP_EINVAL, "plan: batch %lld..%lld is not a range within 1..%d",
                        (long long)o->batch_min, (long long)o->batch_max, INFER_MAX_BATCH);
    if (!(o->latency_ms >= 0) || !(o->throughput >= 0) || !(o->kwh_price >= 0) || isinf(o->latency_ms) ||
        isinf(o->throughput) || isinf(o->kwh_price) || o->seq < 0 || o->n_dtypes < 0)
        return dlp__err(err, DLP_EINVAL, "plan: latency, throughput, kwh price and seq must be finite and >= 0");
    if (o->runtime < 0 || o->runtime >= DLP_RUNTIME_COUNT_)
        return dlp__err(err, DLP_EINVAL, "plan: runtime %d is not a dlp_runtime", o->runtime);
    double gkwh;
    dlp_status st =
        dlp__plan_check_where(db, o->region, o->price_devices, o->price_usd_per_hour, o->n_prices, &gkwh, err);
    if (st) return st;
    for (int i = 0; o->dtypes && i < o->n_dtypes; i++)
        if (!dlp_dtype_size(o->dtypes[i]))
            return dlp__err(err, DLP_EINVAL, "plan: dtype %d is not a dlp_dtype", o->dtypes[i]);
    if (o->n_dims < 0 || (o->n_dims > 0 && (!o->dim_names || !o->dim_values)))
        return dlp__err(err, DLP_EINVAL, "plan: bad dimension list");
    dlp__plan_graphs gs = {.onnx = onnx, .len = len, .name = name ? name : "model.onnx", .seq = o->seq,
                           .n_dims = o->n_dims, .dim_names = o->dim_names, .dim_values = o->dim_values};
    /* load the least batch now: a malformed model is an error before any search */
    const dlp_graph *g0;
    if ((st = dlp__plan_graph_at(&gs, bmin, &g0, err))) {
        dlp__plan_graphs_free(&gs);
        return st;
    }
    const dlp_device **devs = NULL;
    int nd = 0;
    st = dlp__plan_devices(o->devices, o->n_devices, o->price_devices, o->price_usd_per_hour, o->n_prices, db, &devs,
                           &nd, err);
    dlp_plan *pl = st ? NULL : calloc(1, sizeof *pl);
    if (!st && !pl) st = dlp__err(err, DLP_ENOMEM, "plan: out of memory");
    if (st) {
        free(devs);
        dlp__plan_graphs_free(&gs);
        return st;
    }
    pl->kind = DLP_PLAN_INFER;
    const char *base = onnx ? NULL : strrchr(gs.name, '/');
    snprintf(pl->model, sizeof pl->model, "%s", base ? base + 1 : gs.name);
    pl->batch_min = bmin;
    pl->batch_max = bmax;
    pl->runtime = o->runtime;
    pl->latency_ms = o->latency_ms;
    pl->rate = o->throughput;
    dlp__plan_set_where(pl, db, o->region, gkwh, o->kwh_price, nd);
    isearch_t s = {.db = db, .o = o, .plan = pl, .gs = &gs};
    for (int i = 0; i < nd && !st; i++) {
        const dlp_device *d = devs[i];
        int dts[DLP_DT_COUNT_];
        int n = dlp__plan_dtypes(d, o->dtypes, o->n_dtypes, dts);
        for (int k = 0; k < n && !st; k++) {
            if (!dlp_device_supports_dtype(d, dts[k])) {
                pl->considered++;
                pl->missed[DLP_PLAN_MISS_DTYPE]++;
                continue;
            }
            st = search_infer(&s, d, dts[k], bmin, bmax, err);
        }
    }
    free(devs);
    dlp__plan_graphs_free(&gs);
    if (st) {
        dlp_plan_free(pl);
        return st;
    }
    dlp__plan_sort(pl, o->throughput > 0);
    *out = pl;
    return DLP_OK;
}
