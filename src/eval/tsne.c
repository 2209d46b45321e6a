/*
 * tsne.c — exact t-SNE (van der Maaten & Hinton, JMLR 2008) and an SVG
 * scatter of its output: the map of graph embeddings coloured by family
 * (TraPPM thesis figure 5.4).
 *
 * Exact, not Barnes-Hut: the maps we draw have at most a few thousand
 * points, where O(n^2) per iteration is seconds, and the exact gradient
 * keeps the result free of approximation parameters.  Recipe (the usual
 * reference choices, as in sklearn/openTSNE):
 *   - input centred, squared Euclidean distances;
 *   - per point, bisection on the Gaussian precision beta so that the
 *     conditional distribution's entropy (nats) is ln(perplexity);
 *   - P = (P + P^T) / 2n;
 *   - early exaggeration 12 and momentum 0.5 for 250 iterations, then
 *     momentum 0.8; learning rate max(200, n/12) (openTSNE's n/12 when
 *     larger); delta-bar-delta gains (+0.2 / x0.8, at least 0.01);
 *   - y initialised from N(0, 1e-4), seeded; re-centred every iteration.
 * Memory: two n x n float matrices (P and the Student-t kernel).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlperf.h"
#include "util/util.h"

#define TSNE_MAX_N 5000
#define EXAG 12.0
#define EXAG_ITERS 250

/* splitmix64 + Box-Muller: a small self-contained seeded normal source */
static uint64_t sm64(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static double unif(uint64_t *s) { return ((double)(sm64(s) >> 11) + 0.5) / 9007199254740992.0; }
static double normal(uint64_t *s) {
    double u = unif(s), v = unif(s);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* Row i of P (conditional, sums to 1) for distances d (d[i] ignored). */
static void row_p(const double *d, int n, int i, double log_perp, double *p) {
    double beta = 1.0, lo = -INFINITY, hi = INFINITY;
    double dmin = INFINITY;
    for (int j = 0; j < n; j++)
        if (j != i && d[j] < dmin) dmin = d[j];
    for (int it = 0; it < 100; it++) {
        double sum = 0, dsum = 0;
        for (int j = 0; j < n; j++) {
            if (j == i) {
                p[j] = 0;
                continue;
            }
            /* shifted by the smallest distance: exp never underflows to 0
             * for every j; H is invariant to the shift */
            double dj = d[j] - dmin;
            p[j] = exp(-dj * beta);
            sum += p[j];
            dsum += dj * p[j];
        }
        double h = log(sum) + beta * dsum / sum;
        for (int j = 0; j < n; j++) p[j] /= sum;
        double diff = h - log_perp;
        if (fabs(diff) < 1e-5) break;
        if (diff > 0) {   /* too flat: sharpen */
            lo = beta;
            beta = isinf(hi) ? beta * 2 : (beta + hi) / 2;
        } else {
            hi = beta;
            beta = isinf(lo) ? beta / 2 : (beta + lo) / 2;
        }
    }
}

dlp_status dlp_tsne(const float *x, int n, int d, double perplexity, int iters, uint64_t seed, float *y,
                    dlp_error *err) {
    if (n < 1 || d < 1 || !x || !y) return dlp__err(err, DLP_EINVAL, "t-SNE: no points");
    if (n > TSNE_MAX_N)
        return dlp__err(err, DLP_EINVAL, "t-SNE: %d points, exact t-SNE here is limited to %d (use --max-graphs)", n,
                        TSNE_MAX_N);
    if (perplexity < 0 || !isfinite(perplexity)) return dlp__err(err, DLP_EINVAL, "t-SNE: bad perplexity %g", perplexity);
    if (iters < 0) return dlp__err(err, DLP_EINVAL, "t-SNE: bad iteration count %d", iters);
    for (size_t k = 0; k < (size_t)n * (size_t)d; k++)
        if (!isfinite(x[k])) return dlp__err(err, DLP_EINVAL, "t-SNE: point %zu has a non-finite value", k / (size_t)d);
    if (n == 1) {
        y[0] = y[1] = 0;
        return DLP_OK;
    }
    if (!perplexity) perplexity = 30;
    if (perplexity > (n - 1) / 3.0) perplexity = (n - 1) / 3.0;
    if (perplexity < 1) perplexity = 1;
    if (!iters) iters = 1000;

    size_t nn = (size_t)n * (size_t)n;
    double *xc = malloc(sizeof *xc * (size_t)n * (size_t)d), *mean = calloc((size_t)d, sizeof *mean);
    double *drow = malloc(sizeof *drow * (size_t)n), *prow = malloc(sizeof *prow * (size_t)n);
    float *P = malloc(sizeof *P * nn), *Q = malloc(sizeof *Q * nn);
    double *Y = malloc(sizeof *Y * 2 * (size_t)n), *G = malloc(sizeof *G * 2 * (size_t)n);
    double *U = calloc(2 * (size_t)n, sizeof *U), *gains = malloc(sizeof *gains * 2 * (size_t)n);
    dlp_status st = DLP_OK;
    if (!xc || !mean || !drow || !prow || !P || !Q || !Y || !G || !U || !gains) {
        st = dlp__err(err, DLP_ENOMEM, "t-SNE: out of memory for %d points", n);
        goto done;
    }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < d; k++) mean[k] += x[(size_t)i * d + k];
    for (int k = 0; k < d; k++) mean[k] /= n;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < d; k++) xc[(size_t)i * d + k] = x[(size_t)i * d + k] - mean[k];

    /* conditional P row by row (distances on the fly: no n x n doubles) */
    double log_perp = log(perplexity);
    for (int i = 0; i < n; i++) {
        const double *xi = xc + (size_t)i * d;
        for (int j = 0; j < n; j++) {
            const double *xj = xc + (size_t)j * d;
            double s = 0;
            for (int k = 0; k < d; k++) {
                double t = xi[k] - xj[k];
                s += t * t;
            }
            drow[j] = s;
        }
        row_p(drow, n, i, log_perp, prow);
        for (int j = 0; j < n; j++) P[(size_t)i * n + j] = (float)prow[j];
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double v = (P[(size_t)i * n + j] + P[(size_t)j * n + i]) / (2.0 * n);
            if (v < 1e-12) v = 1e-12;
            P[(size_t)i * n + j] = P[(size_t)j * n + i] = (float)v;
        }

    uint64_t rs = seed ^ 0x74736e65ull;
    for (int k = 0; k < 2 * n; k++) {
        Y[k] = 1e-2 * normal(&rs);   /* sd 1e-2: variance 1e-4 */
        gains[k] = 1;
    }
    double lr = n / 12.0 > 200 ? n / 12.0 : 200;
    for (int it = 0; it < iters; it++) {
        double exag = it < EXAG_ITERS ? EXAG : 1, mom = it < EXAG_ITERS ? 0.5 : 0.8;
        /* Student-t kernel, symmetric: computed once per pair */
        double z = 0;
        for (int i = 0; i < n; i++) {
            Q[(size_t)i * n + i] = 0;
            for (int j = i + 1; j < n; j++) {
                double a = Y[2 * i] - Y[2 * j], b = Y[2 * i + 1] - Y[2 * j + 1];
                double q = 1.0 / (1.0 + a * a + b * b);
                Q[(size_t)i * n + j] = Q[(size_t)j * n + i] = (float)q;
                z += 2 * q;
            }
        }
        /* dC/dy_i = 4 sum_j (exag p_ij - q_ij/Z) q_ij (y_i - y_j) */
        for (int i = 0; i < n; i++) {
            double g0 = 0, g1 = 0;
            const float *pr = P + (size_t)i * n, *qr = Q + (size_t)i * n;
            for (int j = 0; j < n; j++) {
                if (j == i) continue;
                double q = qr[j], m = (exag * pr[j] - q / z) * q;
                g0 += m * (Y[2 * i] - Y[2 * j]);
                g1 += m * (Y[2 * i + 1] - Y[2 * j + 1]);
            }
            G[2 * i] = 4 * g0;
            G[2 * i + 1] = 4 * g1;
        }
        double c0 = 0, c1 = 0;
        for (int k = 0; k < 2 * n; k++) {
            /* delta-bar-delta: grow the gain while the gradient keeps
             * pointing against the last step, shrink it when it flips */
            gains[k] = (G[k] > 0) != (U[k] > 0) ? gains[k] + 0.2 : gains[k] * 0.8;
            if (gains[k] < 0.01) gains[k] = 0.01;
            U[k] = mom * U[k] - lr * gains[k] * G[k];
            Y[k] += U[k];
        }
        for (int i = 0; i < n; i++) {
            c0 += Y[2 * i];
            c1 += Y[2 * i + 1];
        }
        c0 /= n;
        c1 /= n;
        for (int i = 0; i < n; i++) {
            Y[2 * i] -= c0;
            Y[2 * i + 1] -= c1;
        }
    }
    for (int k = 0; k < 2 * n; k++) {
        if (!isfinite(Y[k])) {
            st = dlp__err(err, DLP_EINTERNAL, "t-SNE: diverged (non-finite coordinates)");
            goto done;
        }
        y[k] = (float)Y[k];
    }
done:
    free(xc);
    free(mean);
    free(drow);
    free(prow);
    free(P);
    free(Q);
    free(Y);
    free(G);
    free(U);
    free(gains);
    return st;
}

/* ---- SVG ---------------------------------------------------------------- */

/* 24 distinguishable colours: Tableau 10, then the lighter/darker halves of
 * tab20 and a few more, so that up to 24 families never share a colour. */
static const char *const palette[] = {
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94",
    "#f7b6d2", "#c7c7c7", "#dbdb8d", "#9edae5", "#393b79", "#637939", "#8c6d31", "#843c39",
};
#define N_PALETTE ((int)(sizeof palette / sizeof palette[0]))

typedef dlp__sb sbuf;


static void sb_xml(sbuf *s, const char *t) {
    for (; *t; t++) {
        switch (*t) {
        case '<': dlp__sb_printf(s, "&lt;"); break;
        case '>': dlp__sb_printf(s, "&gt;"); break;
        case '&': dlp__sb_printf(s, "&amp;"); break;
        case '"': dlp__sb_printf(s, "&quot;"); break;
        default:
            if ((unsigned char)*t >= 0x20) dlp__sb_printf(s, "%c", *t);
        }
    }
}

static int cmp_label(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

dlp_status dlp_tsne_svg(const float *y, int n, const char *const *label, const char *title, char **buf, size_t *len,
                        dlp_error *err) {
    *buf = NULL;
    *len = 0;
    if (n < 0 || (n && !y)) return dlp__err(err, DLP_EINVAL, "t-SNE plot: no points");
    /* distinct labels, sorted (legend order and colour order) */
    const char **lab = malloc(sizeof *lab * (size_t)(n ? n : 1));
    int *cnt = calloc((size_t)(n ? n : 1), sizeof *cnt);
    if (!lab || !cnt) {
        free(lab);
        free(cnt);
        return dlp__err(err, DLP_ENOMEM, "t-SNE plot: out of memory");
    }
    for (int i = 0; i < n; i++) lab[i] = label && label[i] && label[i][0] ? label[i] : "(none)";
    qsort(lab, (size_t)n, sizeof *lab, cmp_label);
    int nl = 0;
    for (int i = 0; i < n; i++) {
        if (!nl || strcmp(lab[nl - 1], lab[i])) lab[nl++] = lab[i];
        cnt[nl - 1]++;
    }
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (int i = 0; i < n; i++) {
        if (!isfinite(y[2 * i]) || !isfinite(y[2 * i + 1])) continue;
        if (y[2 * i] < x0) x0 = y[2 * i];
        if (y[2 * i] > x1) x1 = y[2 * i];
        if (y[2 * i + 1] < y0) y0 = y[2 * i + 1];
        if (y[2 * i + 1] > y1) y1 = y[2 * i + 1];
    }
    if (!(x1 > x0)) {
        x0 -= 1;
        x1 += 1;
    }
    if (!(y1 > y0)) {
        y0 -= 1;
        y1 += 1;
    }
    /* plot square on the left, legend column on the right */
    const double W = 960, H = 720, M = 40, top = 56, side = H - top - M, lx = M + side + 30;
    int legend_rows = nl;
    double h_needed = top + 22.0 * legend_rows + M;
    double HH = h_needed > H ? h_needed : H;
    sbuf s = {0};
    dlp__sb_printf(&s,
              "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
              "font-family=\"sans-serif\">\n",
              W, HH, W, HH);
    dlp__sb_printf(&s, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", W, HH);
    dlp__sb_printf(&s, "<text x=\"%.0f\" y=\"32\" font-size=\"18\">", M);
    sb_xml(&s, title && *title ? title : "t-SNE");
    dlp__sb_printf(&s, "</text>\n");
    dlp__sb_printf(&s, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#cccccc\"/>\n",
              M, top, side, side);
    double sx = (side - 20) / (x1 - x0), sy = (side - 20) / (y1 - y0);
    for (int i = 0; i < n; i++) {
        const char *li = label && label[i] && label[i][0] ? label[i] : "(none)";
        const char **hit = bsearch(&li, lab, (size_t)nl, sizeof *lab, cmp_label);
        int c = hit ? (int)(hit - lab) : 0;
        double px = isfinite(y[2 * i]) ? M + 10 + (y[2 * i] - x0) * sx : M;
        double py = isfinite(y[2 * i + 1]) ? top + side - 10 - (y[2 * i + 1] - y0) * sy : top + side;
        dlp__sb_printf(&s, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\" fill-opacity=\"0.8\"><title>", px, py,
                  palette[c % N_PALETTE]);
        sb_xml(&s, li);
        dlp__sb_printf(&s, "</title></circle>\n");
    }
    for (int k = 0; k < nl; k++) {
        double ly = top + 22.0 * k;
        dlp__sb_printf(&s, "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"12\" fill=\"%s\"/>", lx, ly + 2,
                  palette[k % N_PALETTE]);
        dlp__sb_printf(&s, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"13\">", lx + 18, ly + 13);
        sb_xml(&s, lab[k]);
        dlp__sb_printf(&s, " (%d)</text>\n", cnt[k]);
    }
    dlp__sb_printf(&s, "</svg>\n");
    free(lab);
    free(cnt);
    if (s.oom) {
        free(s.s);
        return dlp__err(err, DLP_ENOMEM, "t-SNE plot: out of memory");
    }
    *buf = s.s;
    *len = s.len;
    return DLP_OK;
}
