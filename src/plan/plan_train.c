/*
 * plan_train.c — training plans of any ONNX model (issue 24, docs/plan.md,
 * "Training"): the cheapest way to train it.
 *
 * The search is GPUs x training dtype x data-parallel GPU count n (powers of
 * two up to max_gpus, and max_gpus, each dividing the global batch B).
 * Every GPU holds the whole model (DDP) and runs B / n samples per step; the
 * memory a micro-batch needs does not depend on n, so for each GPU x dtype
 * the largest micro-batch that fits is found once, by bisection over
 * dlp_predict's training memory (it grows with the batch), and only when
 * some B / n does not fit.  Then per configuration:
 *
 *   micro    = the largest divisor of B / n that fits; accum = B / n / micro
 *   compute  = accum x predicted training step at micro (dlp_predict, mode
 *              train, the options `dlperf predict --mode train` builds)
 *   comm     = NCCL all-reduce of the gradients' bytes (predict's
 *              gradients_mb) over n GPUs (src/llm/llm_serve.c's table)
 *   step     = compute + comm
 *
 * The all-reduce is not overlapped with the backward: DDP does overlap its
 * gradient buckets with the backward (Li et al., "PyTorch Distributed",
 * VLDB 2020), but how much hides depends on bucket size and order and each
 * layer's backward time, which the prediction does not give per bucket;
 * so the plan gives the upper bound of the step and says
 * so.  With accumulation the optimizer's update is counted once per
 * micro-batch (predict's step includes it): an overestimate of (accum - 1)
 * updates, small beside forward + backward.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dlperf.h"
#include "llm/llm_internal.h"
#include "plan/plan_internal.h"
#include "util/util.h"

#define TRAIN_DEFAULT_MAX_GPUS 8
#define TRAIN_MAX_GPUS 1024
#define TRAIN_MAX_BATCH (1 << 24)
#define TRAIN_MAX_COUNTS 16

/* What the planner keeps of one prediction. */
typedef struct {
    int refused, fits;
    double step_ms, power_w, grad_bytes;
} tpred;

typedef struct {
    const dlp_devdb *db;
    const dlp_plan_train_opts *o;
    dlp_plan *plan;
    dlp__plan_graphs *gs;
    dlp_error refusal;      /* the last refusal's message */
    /* the last prediction: the micro-batch search and the row ask for the
     * same one back to back */
    const dlp_device *last_d;
    int last_dtype;
    int64_t last_b;
    tpred last;
} tsearch_t;

/* One training prediction at micro-batch b; refusals (a dtype the kernels
 * lack, ...) are tp->refused, other failures errors. */
static dlp_status predict_train(tsearch_t *s, const dlp_device *d, int dtype, int64_t b, tpred *tp, dlp_error *err) {
    if (s->last_d == d && s->last_dtype == dtype && s->last_b == b) {
        *tp = s->last;
        return DLP_OK;
    }
    const dlp_graph *g;
    dlp_status st = dlp__plan_graph_at(s->gs, b, &g, err);
    if (st) return st;
    dlp_predict_opts po;
    memset(&po, 0, sizeof po);
    po.mode = DLP_PREDICT_TRAIN;
    po.dtype = dtype;
    po.batch = b;
    po.optimizer = s->o->optimizer;
    po.region = s->o->region;
    po.no_learned = s->o->no_learned;
    s->plan->evaluations++;
    dlp_prediction p;
    memset(&p, 0, sizeof p);
    memset(tp, 0, sizeof *tp);
    dlp_error e = {0};
    st = dlp_predict(g, d, s->db, &po, &p, &e);
    dlp_prediction_clear(&p);
    if (st == DLP_EINVAL || st == DLP_EUNSUPPORTED) {
        tp->refused = 1;
        s->refusal = e;
    } else if (st) {
        *err = e;
        return st;
    } else {
        tp->fits = p.fits;
        tp->step_ms = p.step_ms;
        tp->power_w = p.energy_known ? p.power_w : NAN;
        tp->grad_bytes = p.gradients_mb * 1048576.0;
    }
    s->last_d = d, s->last_dtype = dtype, s->last_b = b, s->last = *tp;
    return DLP_OK;
}

/* The GPU counts searched: powers of two up to max_gpus and max_gpus
 * itself, each dividing the batch (so every GPU gets whole samples). */
static int gpu_counts(int64_t batch, int max_gpus, int *out) {
    int n = 0;
    for (int g = 1; g <= max_gpus && n < TRAIN_MAX_COUNTS - 1; g *= 2)
        if (batch % g == 0) out[n++] = g;
    if ((max_gpus & (max_gpus - 1)) && batch % max_gpus == 0) out[n++] = max_gpus;
    return n;
}

/* Per GPU x dtype: what is known of the memory limit, so the bisection
 * runs once however many GPU counts need it. */
typedef struct {
    int64_t fit_max;        /* largest micro-batch known to fit; 0: none yet */
    int64_t nofit_min;      /* least known not to fit; 0: none yet           */
    int searched;           /* fit_max is the largest fitting batch          */
    int refused;
} memlimit_t;

/* Bisection of the largest micro-batch <= hi that fits, hi not fitting:
 * memory grows with the batch, so "fits" holds from 1 up to some B*. */
static dlp_status bisect_fit(tsearch_t *s, const dlp_device *d, int dtype, int64_t hi, memlimit_t *m,
                             dlp_error *err) {
    tpred tp;
    dlp_status st;
    int64_t lo = m->fit_max;
    if (lo < 1) {
        if ((st = predict_train(s, d, dtype, 1, &tp, err))) return st;
        if (tp.refused) m->refused = 1;
        if (tp.refused || !tp.fits) {
            m->searched = 1;   /* fit_max 0: not even one sample */
            return DLP_OK;
        }
        lo = 1;
    }
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if ((st = predict_train(s, d, dtype, mid, &tp, err))) return st;
        if (!tp.refused && tp.fits) lo = mid;
        else hi = mid;
    }
    m->fit_max = lo;
    m->nofit_min = hi;
    m->searched = 1;
    return DLP_OK;
}

/* The micro-batch for per = B / n samples per GPU: per itself when it fits,
 * else the largest divisor of per at most the fitting limit; 0 when none. */
static dlp_status micro_for(tsearch_t *s, const dlp_device *d, int dtype, int64_t per, memlimit_t *m,
                            int64_t *micro, dlp_error *err) {
    dlp_status st;
    *micro = 0;
    if (m->fit_max >= per) {
        *micro = per;
        return DLP_OK;
    }
    if (!m->searched && (m->nofit_min == 0 || per < m->nofit_min)) {
        tpred tp;
        if ((st = predict_train(s, d, dtype, per, &tp, err))) return st;
        if (tp.refused) {
            m->refused = 1;
            return DLP_OK;
        }
        if (tp.fits) {
            m->fit_max = per;
            *micro = per;
            return DLP_OK;
        }
        m->nofit_min = per;
    }
    if (!m->searched && (st = bisect_fit(s, d, dtype, m->nofit_min, m, err))) return st;
    for (int64_t b = m->fit_max < per ? m->fit_max : per; b >= 1; b--)
        if (per % b == 0) {
            *micro = b;
            break;
        }
    return DLP_OK;
}

/* Times, cost, energy and carbon of n GPUs at micro-batch micro (tp its
 * prediction) in row r. */
static void fill_train_row(tsearch_t *s, const dlp_device *d, int dtype, int n, int64_t micro, const tpred *tp,
                           dlp_plan_row *r) {
    const dlp_plan_train_opts *o = s->o;
    const dlp_plan *pl = s->plan;
    memset(r, 0, sizeof *r);
    r->device = d;
    r->gpus = n;
    r->tp = r->ep = r->attention_dp = 1;
    r->replicas = 1;
    r->dtype = dtype;
    r->batch = o->batch;
    r->micro_batch = micro;
    r->accum_steps = o->batch / n / micro;
    r->compute_ms = (double)r->accum_steps * tp->step_ms;
    r->comm_ms = dlp__llm_coll_s(d, DLP__COLL_ALLREDUCE, n, tp->grad_bytes) * 1e3;
    r->step_ms = r->compute_ms + r->comm_ms;
    r->samples_per_s = (double)o->batch / (r->step_ms * 1e-3);
    double steps = ceil((double)pl->samples / (double)o->batch) * pl->epochs;
    r->hours = steps * r->step_ms / 3.6e6;
    int own = 0;
    double price = dlp__plan_price(o->price_devices, o->price_usd_per_hour, o->n_prices, s->db, d, &own);
    r->price_usd_per_hour = price > 0 ? price : 0;
    r->price_from_caller = own;
    r->usd_per_hour = price > 0 ? price * n : NAN;
    r->usd_per_run = r->usd_per_hour * r->hours;
    r->usd_per_msample = NAN;
    r->usd_per_mtok = NAN;
    r->tokens_per_s = r->j_per_token = r->co2_g_per_mtok = r->energy_usd_per_mtok = NAN;
    /* the board's average power over the step, held through the all-reduce too */
    r->kwh = n * tp->power_w * r->hours / 1e3;
    r->j_per_sample = tp->power_w * n * r->step_ms * 1e-3 / (double)o->batch;
    r->co2_g_per_msample = NAN;
    r->co2_kg = r->kwh * pl->pue * pl->g_per_kwh / 1e3;
    r->energy_usd = o->kwh_price > 0 ? r->kwh * pl->pue * o->kwh_price : NAN;
}

/* A deadline miss: counted, the closest (least hours / deadline) kept. */
static void miss_deadline(tsearch_t *s, const dlp_plan_row *r) {
    dlp_plan *pl = s->plan;
    pl->missed[DLP_PLAN_MISS_DEADLINE]++;
    double ratio = r->hours / s->o->deadline_hours;
    if (!pl->has_closest || ratio < pl->closest_ratio) {
        pl->closest = *r;
        pl->closest.binding = DLP_PLAN_BIND_DEADLINE;
        pl->closest.meets_slo = 0;
        pl->closest_ratio = ratio;
        pl->has_closest = 1;
    }
}

static void miss_refused(tsearch_t *s) {
    dlp_plan *pl = s->plan;
    pl->missed[DLP_PLAN_MISS_REFUSED]++;
    if (!pl->first_refusal[0]) snprintf(pl->first_refusal, sizeof pl->first_refusal, "%s", s->refusal.msg);
}

/* Every GPU count of one GPU x dtype, fewest GPUs first (the one-GPU step
 * is what "communication binds" compares with). */
static dlp_status search_dtype(tsearch_t *s, const dlp_device *d, int dtype, dlp_error *err) {
    int counts[TRAIN_MAX_COUNTS];
    int nc = gpu_counts(s->o->batch, s->plan->max_gpus, counts);
    memlimit_t m = {0};
    double step1 = 0;   /* the one-GPU step, ms; 0: none */
    dlp_status st;
    for (int k = 0; k < nc; k++) {
        int n = counts[k];
        int64_t per = s->o->batch / n, micro;
        s->plan->considered++;
        if ((st = micro_for(s, d, dtype, per, &m, &micro, err))) return st;
        if (m.refused) {
            miss_refused(s);
            continue;
        }
        if (!micro) {
            s->plan->missed[DLP_PLAN_MISS_MEMORY]++;
            continue;
        }
        tpred tp;
        if ((st = predict_train(s, d, dtype, micro, &tp, err))) return st;
        if (tp.refused) {
            miss_refused(s);
            continue;
        }
        dlp_plan_row r;
        fill_train_row(s, d, dtype, n, micro, &tp, &r);
        r.evaluations = 1;
        if (n == 1) step1 = r.step_ms;
        if (r.comm_ms >= r.compute_ms || (n > 1 && step1 > 0 && r.step_ms >= step1))
            r.binding = DLP_PLAN_BIND_COMM;
        else r.binding = r.accum_steps > 1 ? DLP_PLAN_BIND_ACCUM : DLP_PLAN_BIND_COMPUTE;
        if (s->o->deadline_hours > 0 && r.hours > s->o->deadline_hours) {
            miss_deadline(s, &r);
            continue;
        }
        r.meets_slo = 1;
        if (dlp__plan_add_row(s->plan, &r)) return dlp__err(err, DLP_ENOMEM, "plan: out of memory");
    }
    return DLP_OK;
}

/* Cheapest run first; unpriced last by GPU-hours (the cost at any one
 * price); then the shorter run; then a full tie-break. */
static int cmp_train(const void *a, const void *b) {
    const dlp_plan_row *x = a, *y = b;
    int nx = isnan(x->usd_per_run), ny = isnan(y->usd_per_run);
    if (nx != ny) return nx - ny;
    if (!nx && x->usd_per_run != y->usd_per_run) return x->usd_per_run < y->usd_per_run ? -1 : 1;
    double gx = x->gpus * x->hours, gy = y->gpus * y->hours;
    if (nx && gx != gy) return gx < gy ? -1 : 1;
    if (x->hours != y->hours) return x->hours < y->hours ? -1 : 1;
    int c = strcmp(x->device->id, y->device->id);
    if (c) return c;
    if (x->gpus != y->gpus) return x->gpus - y->gpus;
    return x->dtype - y->dtype;
}

static dlp_status check_train_opts(const dlp_plan_train_opts *o, dlp_error *err) {
    if (o->batch < 1 || o->batch > TRAIN_MAX_BATCH)
        return dlp__err(err, DLP_EINVAL, "plan: training batch %lld is not within 1..%d", (long long)o->batch,
                        TRAIN_MAX_BATCH);
    if (o->samples < 1) return dlp__err(err, DLP_EINVAL, "plan: samples per epoch must be >= 1");
    if (!(o->epochs >= 0) || isinf(o->epochs) || !(o->deadline_hours >= 0) || isinf(o->deadline_hours) ||
        !(o->kwh_price >= 0) || isinf(o->kwh_price) || o->seq < 0 || o->n_dtypes < 0 || o->n_dims < 0 ||
        (o->n_dims > 0 && (!o->dim_names || !o->dim_values)))
        return dlp__err(err, DLP_EINVAL, "plan: epochs, deadline, kwh price and seq must be finite and >= 0, dims a list");
    if (o->max_gpus < 0 || o->max_gpus > TRAIN_MAX_GPUS)
        return dlp__err(err, DLP_EINVAL, "plan: max GPUs %d is not within 1..%d", o->max_gpus, TRAIN_MAX_GPUS);
    if (o->optimizer < DLP_OPTIM_ADAM || o->optimizer > DLP_OPTIM_SGD_MOMENTUM)
        return dlp__err(err, DLP_EINVAL, "plan: optimizer %d is not a dlp_optim", o->optimizer);
    for (int i = 0; o->dtypes && i < o->n_dtypes; i++)
        if (o->dtypes[i] != DLP_DT_FLOAT && o->dtypes[i] != DLP_DT_FLOAT16 && o->dtypes[i] != DLP_DT_BFLOAT16)
            return dlp__err(err, DLP_EINVAL, "plan: training dtype %d is not fp32, fp16 or bf16", o->dtypes[i]);
    return DLP_OK;
}

/* The search over devs; st the first error. */
static dlp_status search_all(tsearch_t *s, const dlp_device **devs, int nd, dlp_error *err) {
    const dlp_plan_train_opts *o = s->o;
    dlp_status st = DLP_OK;
    for (int i = 0; i < nd && !st; i++) {
        const dlp_device *d = devs[i];
        int dts[DLP_DT_COUNT_];
        int n = dlp__plan_dtypes(d, o->dtypes, o->n_dtypes, dts);
        for (int k = 0; k < n && !st; k++) {
            if (!dlp_device_supports_dtype(d, dts[k])) {
                s->plan->considered++;
                s->plan->missed[DLP_PLAN_MISS_DTYPE]++;
                continue;
            }
            st = search_dtype(s, d, dts[k], err);
        }
    }
    return st;
}

dlp_status dlp_plan_train(const void *onnx, size_t len, const char *name, const dlp_devdb *db,
                          const dlp_plan_train_opts *o, dlp_plan **out, dlp_error *err) {
    if (!out) return dlp__err(err, DLP_EINVAL, "dlp_plan_train: NULL output");
    *out = NULL;
    if ((!onnx && !name) || !db || !o) return dlp__err(err, DLP_EINVAL, "dlp_plan_train: NULL argument");
    dlp_status st = check_train_opts(o, err);
    double gkwh;
    if (!st) st = dlp__plan_check_where(db, o->region, o->price_devices, o->price_usd_per_hour, o->n_prices, &gkwh, err);
    if (st) return st;
    dlp__plan_graphs gs = {.onnx = onnx, .len = len, .name = name ? name : "model.onnx", .seq = o->seq,
                           .n_dims = o->n_dims, .dim_names = o->dim_names, .dim_values = o->dim_values};
    /* load one sample's graph now: a malformed model is an error before any search */
    const dlp_graph *g0;
    if ((st = dlp__plan_graph_at(&gs, 1, &g0, err))) {
        dlp__plan_graphs_free(&gs);
        return st;
    }
    const dlp_device **devs = NULL;
    int nd = 0;
    st = dlp__plan_devices(o->devices, o->n_devices, o->price_devices, o->price_usd_per_hour, o->n_prices, db, &devs,
                           &nd, err);
    dlp_plan *pl = st ? NULL : calloc(1, sizeof *pl);
    if (!st && !pl) st = dlp__err(err, DLP_ENOMEM, "plan: out of memory");
    if (!st) {
        pl->kind = DLP_PLAN_TRAIN;
        const char *base = onnx ? NULL : strrchr(gs.name, '/');
        snprintf(pl->model, sizeof pl->model, "%s", base ? base + 1 : gs.name);
        pl->train_batch = o->batch;
        pl->samples = o->samples;
        pl->epochs = o->epochs > 0 ? o->epochs : 1;
        pl->deadline_hours = o->deadline_hours;
        pl->optimizer = o->optimizer;
        pl->max_gpus = o->max_gpus > 0 ? o->max_gpus : TRAIN_DEFAULT_MAX_GPUS;
        dlp__plan_set_where(pl, db, o->region, gkwh, o->kwh_price, nd);
        tsearch_t s = {.db = db, .o = o, .plan = pl, .gs = &gs};
        st = search_all(&s, devs, nd, err);
    }
    free(devs);
    dlp__plan_graphs_free(&gs);
    if (st) {
        dlp_plan_free(pl);
        return st;
    }
    if (pl->n > 1) qsort(pl->rows, (size_t)pl->n, sizeof *pl->rows, cmp_train);
    *out = pl;
    return DLP_OK;
}
