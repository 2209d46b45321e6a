/*
 * report.c — evaluation reports of a predictor's test predictions: a
 * Markdown document (overall metrics per target, then per family like the
 * thesis' tables 5.2/5.3, then per device), the same numbers as JSON, and a
 * parity plot (measured vs predicted, log-log, y = x and the +-10% band)
 * as a standalone SVG that any browser shows.
 *
 * Everything is built in memory (a growable buffer) and handed back; the
 * caller decides where it goes, so the library never touches stdout.
 * Groups (families, devices) are listed in sorted order so reports diff
 * cleanly between runs.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/human.h"
#include "util/util.h"

/* ---- growable text buffer ------------------------------------------------- */

typedef dlp__sb sbuf;


static dlp_status sb_finish(sbuf *b, char **buf, size_t *len, dlp_error *err) {
    if (b->oom || !b->s) {
        free(b->s);
        *buf = NULL;
        *len = 0;
        return dlp__err(err, DLP_ENOMEM, "report: out of memory");
    }
    *buf = b->s;
    *len = b->len;
    return DLP_OK;
}

/* XML/Markdown-safe copy of a name (no markup characters). */
static void sb_name(sbuf *b, const char *s, int xml) {
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (xml && c == '<') dlp__sb_printf(b, "&lt;");
        else if (xml && c == '>') dlp__sb_printf(b, "&gt;");
        else if (xml && c == '&') dlp__sb_printf(b, "&amp;");
        else if (!xml && c == '|') dlp__sb_printf(b, "\\|");
        else if (c < 0x20) dlp__sb_printf(b, " ");
        else dlp__sb_printf(b, "%c", c);
    }
}

static void sb_json_str(sbuf *b, const char *s) {
    dlp__sb_printf(b, "\"");
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') dlp__sb_printf(b, "\\%c", c);
        else if (c < 0x20) dlp__sb_printf(b, "\\u%04x", c);
        else dlp__sb_printf(b, "%c", c);
    }
    dlp__sb_printf(b, "\"");
}

static void sb_json_num(sbuf *b, double v) {
    if (isfinite(v)) dlp__sb_printf(b, "%.10g", v);
    else dlp__sb_printf(b, "null");
}

/* ---- grouping ---------------------------------------------------------------- */

typedef struct {
    int n_groups;
    const char **names;       /* sorted                                  */
    int *gid;                 /* (n) group of each sample                */
} groups_t;

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int make_groups(const char *const *lab, int n, groups_t *g) {
    memset(g, 0, sizeof *g);
    if (!lab) return 0;
    dlp__strmap map;
    g->gid = malloc(sizeof *g->gid * (size_t)(n > 0 ? n : 1));
    g->names = malloc(sizeof *g->names * (size_t)(n > 0 ? n : 1));
    if (!g->gid || !g->names || dlp__strmap_init(&map, 64)) {
        free(g->gid);
        free(g->names);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        const char *s = lab[i] ? lab[i] : "";
        if (dlp__strmap_get(&map, s) < 0) {
            if (dlp__strmap_put(&map, s, g->n_groups)) {
                dlp__strmap_free(&map);
                return -1;
            }
            g->names[g->n_groups++] = s;
        }
    }
    qsort(g->names, (size_t)g->n_groups, sizeof *g->names, cmp_str);
    for (int k = 0; k < g->n_groups; k++) dlp__strmap_put(&map, g->names[k], k);
    for (int i = 0; i < n; i++) g->gid[i] = dlp__strmap_get(&map, lab[i] ? lab[i] : "");
    dlp__strmap_free(&map);
    return 0;
}

static void free_groups(groups_t *g) {
    free(g->gid);
    free(g->names);
    memset(g, 0, sizeof *g);
}

/* Metrics of target k over samples with gid == grp (grp < 0: all). */
static int group_metrics(const dlp_eval_input *in, int k, const int *gid, int grp, double *ty, double *tp,
                         dlp_metrics *m) {
    int c = 0;
    for (int i = 0; i < in->n; i++) {
        if (grp >= 0 && gid[i] != grp) continue;
        ty[c] = in->y[(size_t)i * in->n_targets + k];
        tp[c] = in->yhat[(size_t)i * in->n_targets + k];
        c++;
    }
    dlp_metrics_compute(ty, tp, c, m);
    return c;
}

static dlp_status check_input(const dlp_eval_input *in, dlp_error *err) {
    if (!in || in->n < 0 || in->n_targets < 1 || (in->n > 0 && (!in->y || !in->yhat)))
        return dlp__err(err, DLP_EINVAL, "report: no predictions");
    return DLP_OK;
}

static const char *tname(const dlp_eval_input *in, int k) {
    return in->target_names && in->target_names[k] ? in->target_names[k] : "target";
}

/* ---- Markdown ------------------------------------------------------------------- */

/* fmt NULL: a number for people (4 digits, separators, no exponent) */
static void md_fmt(sbuf *b, double v, const char *fmt) {
    if (!isfinite(v)) dlp__sb_printf(b, "–");
    else if (!fmt) dlp__sb_printf(b, "%s", dlp__hu_num(v));
    else dlp__sb_printf(b, fmt, v);
}

static void md_row(sbuf *b, const char *label, const dlp_metrics *m) {
    dlp__sb_printf(b, "| ");
    sb_name(b, label, 0);
    dlp__sb_printf(b, " | %lld | ", (long long)m->n);
    md_fmt(b, m->mape, "%.2f%%");
    dlp__sb_printf(b, " | ");
    md_fmt(b, m->rmse, NULL);
    dlp__sb_printf(b, " | ");
    md_fmt(b, m->mae, NULL);
    dlp__sb_printf(b, " | ");
    md_fmt(b, m->tau, "%.4f");
    dlp__sb_printf(b, " | ");
    md_fmt(b, m->spearman, "%.4f");
    dlp__sb_printf(b, " | ");
    md_fmt(b, 100 * m->acc5, "%.1f%%");
    dlp__sb_printf(b, " | ");
    md_fmt(b, 100 * m->acc10, "%.1f%%");
    dlp__sb_printf(b, " |\n");
}

static void md_table(sbuf *b, const dlp_eval_input *in, int k, const char *what, const groups_t *g,
                     double *ty, double *tp) {
    dlp_metrics m;
    dlp__sb_printf(b, "\n| %s | n | MAPE | RMSE | MAE | Kendall τ | Spearman ρ | Acc(5%%) | Acc(10%%) |\n"
                 "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n", what);
    for (int grp = 0; grp < g->n_groups; grp++) {
        group_metrics(in, k, g->gid, grp, ty, tp, &m);
        md_row(b, g->names[grp][0] ? g->names[grp] : "(none)", &m);
    }
    group_metrics(in, k, NULL, -1, ty, tp, &m);
    md_row(b, "**all**", &m);
}

/* What both report writers need: the input checked, the family and device
 * groups, and scratch for one target's (y, yhat) pairs. */
typedef struct {
    groups_t fam, dev;
    double *ty, *tp;            /* (n) each, one allocation at ty */
} report_ctx;

static dlp_status report_begin(const dlp_eval_input *in, report_ctx *c, dlp_error *err) {
    dlp_status st = check_input(in, err);
    if (st != DLP_OK) return st;
    size_t n = (size_t)(in->n > 0 ? in->n : 1);
    c->ty = malloc(sizeof *c->ty * n * 2);
    if (!c->ty || make_groups(in->family, in->n, &c->fam)) {
        free(c->ty);
        return dlp__err(err, DLP_ENOMEM, "report: out of memory");
    }
    if (make_groups(in->device, in->n, &c->dev)) {
        free_groups(&c->fam);
        free(c->ty);
        return dlp__err(err, DLP_ENOMEM, "report: out of memory");
    }
    c->tp = c->ty + n;
    return DLP_OK;
}

static void report_end(report_ctx *c) {
    free_groups(&c->fam);
    free_groups(&c->dev);
    free(c->ty);
}

dlp_status dlp_eval_report_md(const dlp_eval_input *in, char **buf, size_t *len, dlp_error *err) {
    *buf = NULL;
    *len = 0;
    report_ctx c;
    dlp_status st = report_begin(in, &c, err);
    if (st != DLP_OK) return st;
    sbuf b = {0};
    double *ty = c.ty, *tp = c.tp;
    dlp__sb_printf(&b, "# ");
    sb_name(&b, in->title ? in->title : "Evaluation", 0);
    dlp__sb_printf(&b, "\n\n");
    if (in->notes && *in->notes) dlp__sb_printf(&b, "%s\n\n", in->notes);
    if (in->command && *in->command) dlp__sb_printf(&b, "Produced by:\n\n    %s\n\n", in->command);
    dlp__sb_printf(&b, "Metrics over samples with a finite, non-zero measurement: MAPE and RMSE (thesis "
                  "eqs. 5.1, 5.2), MAE, Kendall's τ-b and Spearman's ρ between measured and predicted "
                  "values, and Acc(δ) = share of predictions within ±δ relative error.\n");
    for (int k = 0; k < in->n_targets; k++) {
        dlp__sb_printf(&b, "\n## ");
        sb_name(&b, tname(in, k), 0);
        dlp__sb_printf(&b, "\n");
        groups_t all = {0};
        md_table(&b, in, k, "set", &all, ty, tp);
        if (c.fam.n_groups > 0) {
            dlp__sb_printf(&b, "\n### Per family\n");
            md_table(&b, in, k, "family", &c.fam, ty, tp);
        }
        if (c.dev.n_groups > 1) {
            dlp__sb_printf(&b, "\n### Per device\n");
            md_table(&b, in, k, "device", &c.dev, ty, tp);
        }
        if (in->parity_svg && *in->parity_svg) {
            dlp__sb_printf(&b, "\n![parity plot of ");
            sb_name(&b, tname(in, k), 0);
            dlp__sb_printf(&b, "](%s)\n", in->parity_svg);
        }
    }
    report_end(&c);
    return sb_finish(&b, buf, len, err);
}

/* ---- JSON ------------------------------------------------------------------------ */

static void json_metrics(sbuf *b, const dlp_metrics *m) {
    dlp__sb_printf(b, "{\"n\":%lld,\"mape\":", (long long)m->n);
    sb_json_num(b, m->mape);
    dlp__sb_printf(b, ",\"rmse\":");
    sb_json_num(b, m->rmse);
    dlp__sb_printf(b, ",\"mae\":");
    sb_json_num(b, m->mae);
    dlp__sb_printf(b, ",\"tau\":");
    sb_json_num(b, m->tau);
    dlp__sb_printf(b, ",\"spearman\":");
    sb_json_num(b, m->spearman);
    dlp__sb_printf(b, ",\"acc5\":");
    sb_json_num(b, m->acc5);
    dlp__sb_printf(b, ",\"acc10\":");
    sb_json_num(b, m->acc10);
    dlp__sb_printf(b, "}");
}

static void json_groups(sbuf *b, const dlp_eval_input *in, int k, const groups_t *g, double *ty, double *tp) {
    dlp__sb_printf(b, "{");
    for (int grp = 0; grp < g->n_groups; grp++) {
        dlp_metrics m;
        group_metrics(in, k, g->gid, grp, ty, tp, &m);
        if (grp) dlp__sb_printf(b, ",");
        sb_json_str(b, g->names[grp]);
        dlp__sb_printf(b, ":");
        json_metrics(b, &m);
    }
    dlp__sb_printf(b, "}");
}

dlp_status dlp_eval_report_json(const dlp_eval_input *in, char **buf, size_t *len, dlp_error *err) {
    *buf = NULL;
    *len = 0;
    report_ctx c;
    dlp_status st = report_begin(in, &c, err);
    if (st != DLP_OK) return st;
    sbuf b = {0};
    double *ty = c.ty, *tp = c.tp;
    dlp__sb_printf(&b, "{\"title\":");
    sb_json_str(&b, in->title ? in->title : "Evaluation");
    if (in->command) {
        dlp__sb_printf(&b, ",\"command\":");
        sb_json_str(&b, in->command);
    }
    dlp__sb_printf(&b, ",\"n\":%d,\"targets\":{", in->n);
    for (int k = 0; k < in->n_targets; k++) {
        dlp_metrics m;
        group_metrics(in, k, NULL, -1, ty, tp, &m);
        if (k) dlp__sb_printf(&b, ",");
        sb_json_str(&b, tname(in, k));
        dlp__sb_printf(&b, ":{\"overall\":");
        json_metrics(&b, &m);
        dlp__sb_printf(&b, ",\"families\":");
        json_groups(&b, in, k, &c.fam, ty, tp);
        dlp__sb_printf(&b, ",\"devices\":");
        json_groups(&b, in, k, &c.dev, ty, tp);
        dlp__sb_printf(&b, "}");
    }
    dlp__sb_printf(&b, "}}\n");
    report_end(&c);
    return sb_finish(&b, buf, len, err);
}

/* ---- parity SVG --------------------------------------------------------------------- */

static const char *const palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
#define N_PAL (int)(sizeof palette / sizeof palette[0])

dlp_status dlp_eval_parity_svg(const dlp_eval_input *in, int k, char **buf, size_t *len, dlp_error *err) {
    *buf = NULL;
    *len = 0;
    dlp_status st = check_input(in, err);
    if (st != DLP_OK) return st;
    if (k < 0 || k >= in->n_targets) return dlp__err(err, DLP_EINVAL, "parity: target %d out of range", k);
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < in->n; i++) {
        double y = in->y[(size_t)i * in->n_targets + k], p = in->yhat[(size_t)i * in->n_targets + k];
        if (!(y > 0) || !isfinite(y) || !(p > 0) || !isfinite(p)) continue;
        lo = fmin(lo, fmin(y, p));
        hi = fmax(hi, fmax(y, p));
    }
    if (!(hi > 0)) lo = 1, hi = 10;   /* nothing plottable: an empty frame */
    /* half decades around the data (10^0.5 steps), at least one */
    double l0 = floor(2 * log10(lo)) / 2, l1 = ceil(2 * log10(hi)) / 2;
    if (l1 - l0 < 0.5) l1 = l0 + 0.5;
    const double W = 600, H = 600, ML = 80, MR = 24, MT = 48, MB = 64;
    double pw = W - ML - MR, ph = H - MT - MB;
#define PX(v) (ML + (log10(v) - l0) / (l1 - l0) * pw)
#define PY(v) (MT + ph - (log10(v) - l0) / (l1 - l0) * ph)
    groups_t fam;
    if (make_groups(in->family, in->n, &fam)) return dlp__err(err, DLP_ENOMEM, "parity: out of memory");
    sbuf b = {0};
    const char *tn = tname(in, k);
    dlp__sb_printf(&b,
              "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
              "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
              W, H, W, H);
    dlp__sb_printf(&b, "<text x=\"%.0f\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">", W / 2);
    sb_name(&b, in->title ? in->title : "Parity", 1);
    dlp__sb_printf(&b, " — ");
    sb_name(&b, tn, 1);
    dlp__sb_printf(&b, "</text>\n");
    dlp__sb_printf(&b, "<defs><clipPath id=\"plot\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/></clipPath></defs>\n",
              ML, MT, pw, ph);
    /* grid and ticks: decades (and 2, 5 when the range is short) */
    for (double e = floor(l0); e <= l1 + 1e-9; e += 1) {
        static const double sub[] = {1, 2, 5};
        for (int s = 0; s < 3; s++) {
            double v = sub[s] * pow(10, e), lv = log10(v);
            if (lv < l0 - 1e-9 || lv > l1 + 1e-9 || (s > 0 && l1 - l0 > 3.5)) continue;
            double x = PX(v), y = PY(v);
            dlp__sb_printf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>\n", x, MT, x, MT + ph);
            dlp__sb_printf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>\n", ML, y, ML + pw, y);
            dlp__sb_printf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", x, MT + ph + 16, dlp__hu_num(v));
            dlp__sb_printf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", ML - 6, y + 4, dlp__hu_num(v));
        }
    }
    /* +-10% band and y = x */
    double a = pow(10, l0), z = pow(10, l1);
    dlp__sb_printf(&b, "<polygon clip-path=\"url(#plot)\" fill=\"#2ca02c\" fill-opacity=\"0.12\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n",
              PX(a), PY(a * 1.1), PX(z), PY(z * 1.1), PX(z), PY(z * 0.9), PX(a), PY(a * 0.9));
    dlp__sb_printf(&b, "<line clip-path=\"url(#plot)\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" stroke-dasharray=\"4 3\"/>\n",
              PX(a), PY(a), PX(z), PY(z));
    dlp__sb_printf(&b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#333\"/>\n", ML, MT, pw, ph);
    dlp__sb_printf(&b, "<g clip-path=\"url(#plot)\" fill-opacity=\"0.55\">\n");
    for (int i = 0; i < in->n; i++) {
        double y = in->y[(size_t)i * in->n_targets + k], p = in->yhat[(size_t)i * in->n_targets + k];
        if (!(y > 0) || !isfinite(y) || !(p > 0) || !isfinite(p)) continue;
        int g = fam.gid ? fam.gid[i] : 0;
        dlp__sb_printf(&b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.2\" fill=\"%s\"/>\n", PX(y), PY(p), palette[g % N_PAL]);
    }
    dlp__sb_printf(&b, "</g>\n");
    dlp__sb_printf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">measured ", ML + pw / 2, H - 18);
    sb_name(&b, tn, 1);
    dlp__sb_printf(&b, "</text>\n<text transform=\"translate(18 %.1f) rotate(-90)\" text-anchor=\"middle\">predicted ",
              MT + ph / 2);
    sb_name(&b, tn, 1);
    dlp__sb_printf(&b, "</text>\n");
    /* legend and summary, top-left inside the frame */
    double ly = MT + 16;
    double *ty = malloc(sizeof *ty * (size_t)(in->n > 0 ? in->n : 1) * 2);
    if (ty) {
        dlp_metrics m;
        group_metrics(in, k, NULL, -1, ty, ty + (in->n > 0 ? in->n : 1), &m);
        dlp__sb_printf(&b, "<text x=\"%.1f\" y=\"%.1f\">n %lld, MAPE %.2f%%, Acc(10%%) %.1f%%, τ %.3f</text>\n", ML + 8, ly,
                  (long long)m.n, isfinite(m.mape) ? m.mape : 0, isfinite(m.acc10) ? 100 * m.acc10 : 0,
                  isfinite(m.tau) ? m.tau : 0);
        ly += 16;
        free(ty);
    }
    dlp__sb_printf(&b, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#2ca02c\">band: ±10%%; dashed: y = x</text>\n", ML + 8, ly);
    ly += 16;
    for (int g = 0; g < fam.n_groups && g < 12; g++, ly += 15) {
        dlp__sb_printf(&b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\">", ML + 12, ly - 4,
                  palette[g % N_PAL], ML + 20, ly);
        sb_name(&b, fam.names[g][0] ? fam.names[g] : "(none)", 1);
        dlp__sb_printf(&b, "</text>\n");
    }
    dlp__sb_printf(&b, "</svg>\n");
#undef PX
#undef PY
    free_groups(&fam);
    return sb_finish(&b, buf, len, err);
}
