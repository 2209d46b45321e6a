/*
 * calib.c — efficiency curves of the roofline predictor: how far below the
 * roofline real kernels run, per op class, and how those curves are fitted
 * to measured kernel times.
 *
 * A pure roofline says a kernel takes max(FLOPs/peak, bytes/bandwidth).  Real
 * kernels are slower, and by how much depends mostly on their size (small
 * kernels cannot fill the GPU: tail effects, too few blocks) and on where they
 * sit against the ridge point (kernels near it are limited by both).  So the
 * time multiplier is a smooth function of u = log10(roofline time / 1 us) and
 * v = log10(intensity / ridge), both device-relative, which is what lets one
 * curve transfer between GPUs:
 *     ratio = exp(clamp(a + b u + c v + d u^2, 0, ln 100))
 * The clamp at 0 keeps every kernel at or below the roofline (efficiency <= 1).
 *
 * The built-in curves were fitted with dlp__eff_fit on NeuSight's measured
 * kernel tables (bench/bench_roofline.sh --emit regenerates the table below;
 * docs/predict.md, "Calibration", has the protocol and the leave-one-GPU-out
 * errors).  The fit also estimates a per-kernel floor (the isolated-kernel
 * timing overhead of that data set); the floor is reported but not used by
 * dlp_predict, which adds its own launch overhead instead.
 */
#include "predict/roofline.h"
#include "predict/power.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the curve ------------------------------------------------------------ */

static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

void dlp__eff_features(double t_roof_s, double flops, double bytes, double peak, double bw,
                       double *u, double *v) {
    double tu = t_roof_s > 0 ? log10(t_roof_s / 1e-6) : -1;
    double vv;
    if (flops <= 0) vv = -3;                 /* pure data movement */
    else if (bytes <= 0 || peak <= 0 || bw <= 0) vv = 3;
    else vv = log10((flops / bytes) / (peak / bw));
    *u = clampd(tu, -1, 5);
    *v = clampd(vv, -3, 3);
}

double dlp__eff_ratio_uv(const dlp_eff_curve *c, double u, double v) {
    if (!c) return 1.0;
    double e = c->a + c->b * u + c->c * v + c->d * u * u;
    if (!isfinite(e)) return 1.0;
    return exp(clampd(e, 0, DLP__EFF_MAX_LOG));
}

double dlp__roof_time(double flops, double bytes, double peak, double bw) {
    double tc = flops > 0 && peak > 0 ? flops / peak : 0;
    double tm = bytes > 0 && bw > 0 ? bytes / bw : 0;
    return tc > tm ? tc : tm;
}

double dlp__kernel_time_vmin(const dlp_eff_curve *c, double flops, double bytes, double peak, double bw, double vmin) {
    double t = dlp__roof_time(flops, bytes, peak, bw);
    if (!c || t <= 0) return t;
    double u, v;
    dlp__eff_features(t, flops, bytes, peak, bw, &u, &v);
    return t * dlp__eff_ratio_uv(c, u, v < vmin ? vmin : v);
}

double dlp__kernel_time(const dlp_eff_curve *c, double flops, double bytes, double peak, double bw) {
    return dlp__kernel_time_vmin(c, flops, bytes, peak, bw, -INFINITY);
}

/* The clock share under a power cap (roofline.h; the DVFS model of
 * docs/predict.md), here with the rest of the per-kernel time model so that
 * predict (roofline.c) and the wave fit (waves.c) share it. */
static double dvfs_vmin = 0;     /* 0: DLP__DVFS_VMIN_SHARE */

void dlp__dvfs_vmin_override(double kv) { dvfs_vmin = kv > 0 && kv <= 1 ? kv : 0; }

double dlp__dvfs_clock_mem(double p_idle, double p_mem, double p_boost, double p_tdp, double share) {
    double pw = p_idle + (p_boost - p_idle) * share;
    if (!(pw > p_tdp && p_tdp > p_idle)) return 1;
    /* the DRAM runs at its own fixed clock: its draw (p_mem, inside pw) stays
     * whatever the core clock, so only the rest scales with it; where the
     * memory alone leaves the core nothing the core sits at its lowest clock */
    double mem = p_mem > 0 ? fmin(p_mem, pw - p_idle) : 0;
    double core = pw - p_idle - mem, room = p_tdp - p_idle - mem;
    if (!(core > 0)) return 1;
    if (room >= core) return 1;
    double r = fmax(room, 0) / core, kv = dvfs_vmin > 0 ? dvfs_vmin : DLP__DVFS_VMIN_SHARE;
    /* below the voltage floor (share kv of boost) power falls only as f */
    double s = r >= kv * kv * kv ? cbrt(r) : r / (kv * kv);
    return fmax(s, DLP__DVFS_MIN_CLOCK);
}

double dlp__eff_predict(const dlp_eff_curve *c, double floor_s, const dlp__kernel_sample *s) {
    return floor_s + dlp__kernel_time(c, s->flops, s->bytes, s->peak, s->bw);
}

/* ---- fitting ----------------------------------------------------------------
 * Nelder-Mead on the mean absolute percentage error.  MAPE is what the thesis
 * reports and what the benchmark evaluates; it is not smooth (clamp, |.|),
 * which rules out Gauss-Newton but not a simplex search.  Parameters:
 * x[0] = floor in us (|x0| keeps it >= 0), x[1..4] = a, b, c, d. */

#define NP 5

typedef struct {
    size_t n;
    const double *t_roof, *u, *v, *t;
    double fixed_floor;        /* >= 0: x[0] ignored */
    int linear;                /* x[4] ignored (d = 0) */
} fit_data;

static double objective(const fit_data *fd, const double *x) {
    double floor_s = fd->fixed_floor >= 0 ? fd->fixed_floor : fabs(x[0]) * 1e-6, sum = 0;
    dlp_eff_curve c = {x[1], x[2], x[3], fd->linear ? 0 : x[4]};
    for (size_t i = 0; i < fd->n; i++) {
        double p = floor_s + fd->t_roof[i] * dlp__eff_ratio_uv(&c, fd->u[i], fd->v[i]);
        sum += fabs(p - fd->t[i]) / fd->t[i];
    }
    return sum / (double)fd->n;
}

double dlp__nelder_mead(double (*f)(const void *ctx, const double *x), const void *ctx, int np, double *x,
                        const double *step, int max_evals, double tol, int *evals) {
    double s[DLP__NM_MAX + 1][DLP__NM_MAX], fv[DLP__NM_MAX + 1];
    size_t xb = sizeof(double) * (size_t)np;
    if (np < 1 || np > DLP__NM_MAX) return INFINITY;
    for (int i = 0; i <= np; i++) {
        memcpy(s[i], x, xb);
        if (i) s[i][i - 1] += step[i - 1];
        fv[i] = f(ctx, s[i]);
    }
    int ne = np + 1;
    while (ne < max_evals) {
        /* order: best first */
        for (int i = 1; i <= np; i++)
            for (int j = i; j > 0 && fv[j] < fv[j - 1]; j--) {
                double tf = fv[j], tx[DLP__NM_MAX];
                fv[j] = fv[j - 1];
                fv[j - 1] = tf;
                memcpy(tx, s[j], xb);
                memcpy(s[j], s[j - 1], xb);
                memcpy(s[j - 1], tx, xb);
            }
        if (fv[np] - fv[0] < tol * (1 + fv[0])) break;
        double c[DLP__NM_MAX] = {0}, xr[DLP__NM_MAX], xe[DLP__NM_MAX], xc[DLP__NM_MAX];
        for (int i = 0; i < np; i++)
            for (int k = 0; k < np; k++) c[k] += s[i][k] / np;
        for (int k = 0; k < np; k++) xr[k] = c[k] + (c[k] - s[np][k]);
        double fr = f(ctx, xr);
        ne++;
        if (fr < fv[0]) {
            for (int k = 0; k < np; k++) xe[k] = c[k] + 2 * (c[k] - s[np][k]);
            double fe = f(ctx, xe);
            ne++;
            if (fe < fr) {
                memcpy(s[np], xe, xb);
                fv[np] = fe;
            } else {
                memcpy(s[np], xr, xb);
                fv[np] = fr;
            }
        } else if (fr < fv[np - 1]) {
            memcpy(s[np], xr, xb);
            fv[np] = fr;
        } else {
            for (int k = 0; k < np; k++) xc[k] = c[k] + 0.5 * (s[np][k] - c[k]);
            double fc = f(ctx, xc);
            ne++;
            if (fc < fv[np]) {
                memcpy(s[np], xc, xb);
                fv[np] = fc;
            } else {               /* shrink towards the best */
                for (int i = 1; i <= np; i++) {
                    for (int k = 0; k < np; k++) s[i][k] = s[0][k] + 0.5 * (s[i][k] - s[0][k]);
                    fv[i] = f(ctx, s[i]);
                    ne++;
                }
            }
        }
    }
    int best = 0;
    for (int i = 1; i <= np; i++)
        if (fv[i] < fv[best]) best = i;
    memcpy(x, s[best], xb);
    if (evals) *evals += ne;
    return fv[best];
}

static double objective_cb(const void *fd, const double *x) { return objective(fd, x); }

dlp_status dlp__eff_fit(const dlp__kernel_sample *s, size_t n, const dlp__eff_fit_opts *o,
                        dlp__eff_fit_result *out) {
    if (!s || !out || n == 0) return DLP_EINVAL;
    memset(out, 0, sizeof *out);
    dlp__eff_fit_opts opt = {0, -1, 0};
    if (o) opt = *o;
    size_t m = opt.max_samples && opt.max_samples < n ? opt.max_samples : n;
    double *buf = malloc(sizeof(double) * 4 * m);
    if (!buf) return DLP_ENOMEM;
    fit_data fd = {0, buf, buf + m, buf + 2 * m, buf + 3 * m, opt.floor_s, opt.linear};
    double *tr = buf, *uu = buf + m, *vv = buf + 2 * m, *tt = buf + 3 * m;
    for (size_t k = 0; k < m; k++) {
        /* even stride: deterministic, and spreads over the file's order */
        const dlp__kernel_sample *x = &s[m == n ? k : (size_t)((double)k * (double)n / (double)m)];
        if (!(x->t_meas > 0)) continue;
        double t = dlp__roof_time(x->flops, x->bytes, x->peak, x->bw);
        if (!(t > 0)) continue;
        tr[fd.n] = t;
        dlp__eff_features(t, x->flops, x->bytes, x->peak, x->bw, &uu[fd.n], &vv[fd.n]);
        tt[fd.n] = x->t_meas;
        fd.n++;
    }
    if (!fd.n) {
        free(buf);
        return DLP_EINVAL;
    }
    /* three starts: no floor / a typical isolated-timing floor, flat / sloped */
    static const double starts[3][NP] = {
        {5, 0.5, 0, 0, 0}, {30, 1.0, -0.2, 0, 0}, {10, 0.3, 0.2, -0.2, -0.02}};
    static const double step[NP] = {10, 0.5, 0.2, 0.2, 0.05};
    double best_f = INFINITY, best_x[NP] = {0};
    for (int r = 0; r < 3; r++) {
        double x[NP];
        memcpy(x, starts[r], sizeof x);
        double f = dlp__nelder_mead(objective_cb, &fd, NP, x, step, 1500, 1e-9, &out->evals);
        f = dlp__nelder_mead(objective_cb, &fd, NP, x, step, 800, 1e-9, &out->evals);   /* restart from the optimum */
        if (f < best_f) {
            best_f = f;
            memcpy(best_x, x, sizeof x);
        }
    }
    out->floor_s = opt.floor_s >= 0 ? opt.floor_s : fabs(best_x[0]) * 1e-6;
    out->curve = (dlp_eff_curve){best_x[1], best_x[2], best_x[3], opt.linear ? 0 : best_x[4]};
    out->mape = best_f;
    free(buf);
    return DLP_OK;
}

/* ---- built-in tables ---------------------------------------------------------
 * Generated by `bench/bench_roofline.sh --emit` (fit on all six GPUs); the
 * leave-one-GPU-out band quantiles come from the same run.  Classes without
 * measurements (pool, reduce, data movement, other) use the elementwise curve:
 * they are memory-bound vector kernels of the same kind. */

#include "predict/calib_table.inc"

const dlp_efficiency *dlp_efficiency_builtin(void) { return &dlp__eff_neusight; }
const dlp_efficiency *dlp_efficiency_pure(void) { return &dlp__eff_pure; }
