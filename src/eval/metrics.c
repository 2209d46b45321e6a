/*
 * metrics.c — accuracy metrics of performance predictors (docs/gnn.md):
 * MAPE and RMSE (thesis eqs. 5.1, 5.2), MAE, Kendall's tau-b (ch. 6),
 * Spearman's rho (the rank correlation HELP and BRP-NAS report) and Acc(delta), the share of predictions
 * within +-delta relative error (NNLQP's Acc(10%), ch. 7).
 *
 * Every metric uses the same pairs: finite y and yhat with y != 0 (a
 * relative error needs y != 0; RMSE and tau use the same pairs so that the
 * numbers of one table describe one population).
 *
 * Kendall's tau-b is computed in O(n log n) (Knight 1966, as scipy does):
 * sort by (x, y), count ties in x and joint ties, then count discordant
 * pairs as the swaps of a merge sort on y, and ties in y; with
 *   n0 = n(n-1)/2, n1 = x-tied pairs, n2 = y-tied pairs, n3 = joint ties,
 *   C - D = n0 - n1 - n2 + n3 - 2 swaps,
 *   tau_b = (C - D) / sqrt((n0 - n1)(n0 - n2)).
 * Pair counts are int64 (n up to ~4e9 pairs fits); the final ratio is in
 * double.  A side with no variation gives NaN (scipy does the same).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dlperf.h"

static int usable(double y, double p) { return isfinite(y) && isfinite(p) && y != 0; }

double dlp_metric_mape(const double *y, const double *p, int64_t n) {
    double s = 0;
    int64_t c = 0;
    for (int64_t i = 0; i < n; i++)
        if (usable(y[i], p[i])) {
            s += fabs(p[i] - y[i]) / fabs(y[i]);
            c++;
        }
    return c ? 100.0 * s / (double)c : NAN;
}

double dlp_metric_rmse(const double *y, const double *p, int64_t n) {
    double s = 0;
    int64_t c = 0;
    for (int64_t i = 0; i < n; i++)
        if (usable(y[i], p[i])) {
            s += (p[i] - y[i]) * (p[i] - y[i]);
            c++;
        }
    return c ? sqrt(s / (double)c) : NAN;
}

double dlp_metric_acc(const double *y, const double *p, int64_t n, double delta) {
    int64_t c = 0, ok = 0;
    for (int64_t i = 0; i < n; i++)
        if (usable(y[i], p[i])) {
            c++;
            /* compare |p - y| <= delta |y| without dividing, so that exact
             * boundary cases (y 10, p 11, delta 0.1) count as within; a tiny
             * relative slack absorbs the rounding of delta*|y| itself */
            ok += fabs(p[i] - y[i]) <= delta * fabs(y[i]) * (1 + 1e-12);
        }
    return c ? (double)ok / (double)c : NAN;
}

/* ---- Kendall tau-b ------------------------------------------------------- */

typedef struct {
    double x, y;
} pair_t;

static int cmp_xy(const void *a, const void *b) {
    const pair_t *p = a, *q = b;
    if (p->x != q->x) return p->x < q->x ? -1 : 1;
    if (p->y != q->y) return p->y < q->y ? -1 : 1;
    return 0;
}

/* Sort v[0..n) ascending (stable merge), returning the number of swaps an
 * insertion sort would make = pairs (i < j) with v[i] > v[j]. */
static int64_t merge_count(double *v, double *tmp, int64_t n) {
    if (n < 2) return 0;
    int64_t h = n / 2, sw = merge_count(v, tmp, h) + merge_count(v + h, tmp, n - h);
    int64_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        if (v[j] < v[i]) {
            sw += h - i;     /* v[j] jumps over every remaining left item */
            tmp[k++] = v[j++];
        } else {
            tmp[k++] = v[i++];
        }
    }
    while (i < h) tmp[k++] = v[i++];
    while (j < n) tmp[k++] = v[j++];
    memcpy(v, tmp, sizeof *v * (size_t)n);
    return sw;
}

/* Pairs tied within runs of equal values of a sorted-by-key sequence. */
static int64_t tied_pairs_run(int64_t run) { return run * (run - 1) / 2; }

double dlp_metric_kendall_tau(const double *x, const double *y, int64_t n) {
    pair_t *p = malloc(sizeof *p * (size_t)(n > 0 ? n : 1));
    if (!p) return NAN;
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++)
        if (usable(x[i], y[i])) p[m++] = (pair_t){x[i], y[i]};
    if (m < 2) {
        free(p);
        return NAN;
    }
    qsort(p, (size_t)m, sizeof *p, cmp_xy);
    int64_t n1 = 0, n3 = 0;
    for (int64_t i = 0; i < m;) {
        int64_t j = i + 1;
        while (j < m && p[j].x == p[i].x) j++;
        n1 += tied_pairs_run(j - i);
        /* joint ties: equal (x, y) runs inside the x run (sorted by y) */
        for (int64_t a = i; a < j;) {
            int64_t b = a + 1;
            while (b < j && p[b].y == p[a].y) b++;
            n3 += tied_pairs_run(b - a);
            a = b;
        }
        i = j;
    }
    double *v = malloc(sizeof *v * (size_t)m * 2);
    if (!v) {
        free(p);
        return NAN;
    }
    for (int64_t i = 0; i < m; i++) v[i] = p[i].y;
    /* within an x-tie run y is already ascending, so tied-x pairs never
     * count as swaps: swaps are exactly the discordant pairs */
    int64_t swaps = merge_count(v, v + m, m);
    int64_t n2 = 0;
    for (int64_t i = 0; i < m;) {
        int64_t j = i + 1;
        while (j < m && v[j] == v[i]) j++;
        n2 += tied_pairs_run(j - i);
        i = j;
    }
    free(v);
    free(p);
    int64_t n0 = m * (m - 1) / 2;
    double den = sqrt((double)(n0 - n1) * (double)(n0 - n2));
    if (!(den > 0)) return NAN;
    /* concordant - discordant over pairs tied in neither variable */
    double num = (double)(n0 - n1 - n2 + n3) - 2.0 * (double)swaps;
    return num / den;
}

/* ---- Spearman rho --------------------------------------------------------- */

typedef struct {
    double v;
    int64_t i;
} vi_t;

static int cmp_vi(const void *a, const void *b) {
    const vi_t *p = a, *q = b;
    if (p->v != q->v) return p->v < q->v ? -1 : 1;
    return p->i < q->i ? -1 : p->i > q->i;
}

/* Average ranks (1-based; ties share the mean of their positions). */
static int ranks(const double *v, int64_t n, double *r) {
    vi_t *s = malloc(sizeof *s * (size_t)(n > 0 ? n : 1));
    if (!s) return -1;
    for (int64_t i = 0; i < n; i++) s[i] = (vi_t){v[i], i};
    qsort(s, (size_t)n, sizeof *s, cmp_vi);
    for (int64_t i = 0; i < n;) {
        int64_t j = i + 1;
        while (j < n && s[j].v == s[i].v) j++;
        double avg = 0.5 * (double)(i + j + 1);   /* mean of i+1 .. j */
        for (int64_t k = i; k < j; k++) r[s[k].i] = avg;
        i = j;
    }
    free(s);
    return 0;
}

double dlp_metric_spearman(const double *x, const double *y, int64_t n) {
    double *a = malloc(sizeof *a * (size_t)(n > 0 ? n : 1) * 4);
    if (!a) return NAN;
    double *bx = a + n, *rx = bx + n, *ry = rx + n;
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++)
        if (usable(x[i], y[i])) {
            a[m] = x[i];
            bx[m++] = y[i];
        }
    double rho = NAN;
    if (m >= 2 && !ranks(a, m, rx) && !ranks(bx, m, ry)) {
        double mu = 0.5 * (double)(m + 1), sxy = 0, sxx = 0, syy = 0;
        for (int64_t i = 0; i < m; i++) {
            sxy += (rx[i] - mu) * (ry[i] - mu);
            sxx += (rx[i] - mu) * (rx[i] - mu);
            syy += (ry[i] - mu) * (ry[i] - mu);
        }
        if (sxx > 0 && syy > 0) rho = sxy / sqrt(sxx * syy);
    }
    free(a);
    return rho;
}

void dlp_metrics_compute(const double *y, const double *p, int64_t n, dlp_metrics *m) {
    memset(m, 0, sizeof *m);
    double ae = 0;
    for (int64_t i = 0; i < n; i++)
        if (usable(y[i], p[i])) {
            m->n++;
            ae += fabs(p[i] - y[i]);
        }
    m->mape = dlp_metric_mape(y, p, n);
    m->rmse = dlp_metric_rmse(y, p, n);
    m->mae = m->n ? ae / (double)m->n : NAN;
    m->tau = dlp_metric_kendall_tau(y, p, n);
    m->spearman = dlp_metric_spearman(y, p, n);
    m->acc5 = dlp_metric_acc(y, p, n, 0.05);
    m->acc10 = dlp_metric_acc(y, p, n, 0.10);
}
