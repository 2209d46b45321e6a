/*
 * roofline_svg.c — the roofline chart of a prediction as a standalone SVG.
 *
 * The picture the thesis draws in chapter 3 (fig. 3.5), for a whole model:
 * log-log axes, arithmetic intensity (FLOP/byte) against FLOP/s; the memory
 * ceiling (DRAM bandwidth x intensity) rising to the ridge points; the FP32
 * vector ceiling (where elementwise, normalisation and reduction kernels
 * live) and the tensor-core ceiling of the compute dtype (where conv and
 * matmul live); and every costed node as a point at its predicted achieved
 * rate (FLOPs / kernel time, launch overhead excluded, as a profiler would
 * measure the kernel), its area proportional to its share of the predicted
 * time, coloured by op class.  Nodes without FLOPs (pure data movement)
 * have no place on a log FLOP/s axis; the legend counts them.
 *
 * One writer for both outputs: the FILE* variant writes directly, the buffer
 * variant through open_memstream.  No dependency beyond stdio.
 */
#include "util/util.h"
#include "predict/roofline.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 960.0
#define H 620.0
#define ML 90.0    /* margins: left, right (legend), top, bottom */
#define MR 230.0
#define MT 60.0
#define MB 60.0

/* One colour per dlp_op_class (colour-blind-safe-ish palette). */
static const char *const class_colour[DLP_OPC_COUNT_] = {
    "#7f7f7f", /* other       */
    "#1f77b4", /* conv        */
    "#d62728", /* gemm        */
    "#ff7f0e", /* matmul      */
    "#2ca02c", /* elementwise */
    "#17becf", /* activation  */
    "#9467bd", /* norm        */
    "#8c564b", /* pool        */
    "#e377c2", /* reduce      */
    "#bcbd22", /* softmax     */
    "#aec7e8", /* data        */
    "#c7c7c7", /* shape       */
    "#c7c7c7", /* control     */
};

typedef struct {
    double x0, x1, y0, y1;     /* log10 ranges */
} axes;

static double px(const axes *a, double x) { return ML + (log10(x) - a->x0) / (a->x1 - a->x0) * (W - ML - MR); }
static double py(const axes *a, double y) { return H - MB - (log10(y) - a->y0) / (a->y1 - a->y0) * (H - MT - MB); }

static void xml_text(FILE *f, const char *s) {
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default:
            if ((unsigned char)*s >= 0x20 || *s == '\t') fputc(*s, f);
        }
    }
}

/* 1.5e12 -> "1.5 T" */
static void si(char *buf, size_t n, double v) {
    static const char *const u[] = {"", " k", " M", " G", " T", " P", " E"};
    int k = 0;
    while (v >= 1000 && k < 6) v /= 1000, k++;
    snprintf(buf, n, "%g%s", v < 10 ? round(v * 100) / 100 : round(v * 10) / 10, u[k]);
}

static const char *dtype_label(int dt) {
    switch (dt) {
    case DLP_DT_FLOAT: return "FP32";
    case DLP_DT_FLOAT16: return "FP16";
    case DLP_DT_BFLOAT16: return "BF16";
    case DLP_DT_INT8: return "INT8";
    default: return dlp_dtype_name(dt);
    }
}

static void hline(FILE *f, const axes *a, double x_from, double y, const char *colour, const char *label) {
    double xa = px(a, x_from), xb = W - MR, yy = py(a, y);
    if (xa > xb) return;
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2.5\"/>\n", xa, yy,
            xb, yy, colour);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\" fill=\"%s\">", xb - 4, yy - 6,
            colour);
    xml_text(f, label);
    fputs("</text>\n", f);
}

/* What one chart needs besides the prediction: the device's ceilings, the
 * range of the points, and which op classes appear (for the legend). */
typedef struct {
    axes a;
    double bw, vec, ten;       /* DRAM bytes/s, FP32 vector and tensor FLOP/s  */
    double top, ridge;         /* the highest ceiling and its ridge point      */
    double total_ms;           /* the predicted time of the costed nodes       */
    int plotted, no_flops;     /* nodes drawn, costed nodes without FLOPs      */
    int present[DLP_OPC_COUNT_];
} chart;

/* The ceilings of the device at the prediction's dtype: bandwidth, FP32
 * vector, and the tensor ceiling (for fp32: TF32, where convs go; 0 where
 * the dtype has no tensor cores). */
static dlp_status chart_ceilings(const dlp_prediction *p, const dlp_device *d, chart *ch, dlp_error *err) {
    ch->bw = d->mem_bandwidth_gbs * 1e9;
    ch->vec = dlp_device_peak_flops(d, DLP_DT_FLOAT, 0);
    int tc = 0;
    ch->ten = dlp__node_peak(d, DLP_OPC_CONV, p->dtype, DLP_TF32_DEFAULT, &tc);
    if (!tc) ch->ten = 0;
    if (ch->bw <= 0 || ch->vec <= 0) {
        if (err) {
            err->code = DLP_EINVAL;
            snprintf(err->msg, sizeof err->msg, "roofline: device '%s' has no FP32 peak or bandwidth", d->id);
        }
        return DLP_EINVAL;
    }
    ch->top = ch->ten > ch->vec ? ch->ten : ch->vec;
    return DLP_OK;
}

/* The log axes: intensity from the points (or 0.01) to ten times the
 * ridge, at most 9 decades; FLOP/s from the lowest point or the bandwidth
 * slope's start up to twice the top ceiling, 3 to 8 decades. */
static void chart_axes(const dlp_prediction *p, chart *ch) {
    double total_ms = 0, ai_min = INFINITY, ai_max = 0, y_min = INFINITY;
    int plotted = 0, no_flops = 0;
    for (int i = 0; i < p->n_nodes; i++) {
        const dlp_node_pred *n = &p->nodes[i];
        if (n->kernels <= 0) continue;
        total_ms += n->time_ms;
        if (n->flops <= 0 || n->bytes <= 0 || n->kernel_ms <= 0) {
            no_flops++;
            continue;
        }
        double ai = n->flops / n->bytes, y = n->flops / (n->kernel_ms * 1e-3);
        ai_min = fmin(ai_min, ai), ai_max = fmax(ai_max, ai), y_min = fmin(y_min, y);
        plotted++;
    }
    double top = ch->top, bw = ch->bw;
    axes *a = &ch->a;
    double ridge = top / bw;
    double lo = plotted ? fmin(ai_min, 0.1) : 0.01, hi = fmax(plotted ? ai_max : 1, ridge * 10);
    a->x0 = floor(log10(lo));
    a->x1 = ceil(log10(hi));
    if (a->x1 - a->x0 > 9) a->x0 = a->x1 - 9;
    a->y1 = ceil(log10(top * 2));
    double ylo = fmin(plotted ? y_min : top, bw * pow(10, a->x0));
    a->y0 = floor(log10(ylo));
    if (a->y1 - a->y0 > 8) a->y0 = a->y1 - 8;
    if (a->y1 - a->y0 < 3) a->y0 = a->y1 - 3;
    ch->ridge = ridge;
    ch->total_ms = total_ms;
    ch->plotted = plotted;
    ch->no_flops = no_flops;
}

/* The SVG header, background and the two title lines. */
static void write_title(FILE *f, const dlp_prediction *p, const dlp_device *d) {
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
               "font-family=\"DejaVu Sans, Arial, sans-serif\">\n",
            W, H, W, H);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", W, H);
    fputs("<text x=\"20\" y=\"30\" font-size=\"17\" font-weight=\"bold\">Roofline: ", f);
    xml_text(f, p->model);
    fputs(" on ", f);
    xml_text(f, d->name ? d->name : d->id);
    fprintf(f, "</text>\n<text x=\"20\" y=\"48\" font-size=\"12\" fill=\"#444\">%s, batch %lld, %s, %s; "
               "predicted %.4g ms</text>\n",
            dtype_label(p->dtype), (long long)p->batch, p->mode == DLP_PREDICT_TRAIN ? "training (forward shown)" : "inference",
            p->method, p->latency_ms);
}

/* Grid lines at every decade, the plot frame, tick labels, axis titles. */
static void write_grid(FILE *f, const axes *a) {
    fputs("<g stroke=\"#e4e4e4\" stroke-width=\"1\">\n", f);
    for (int k = (int)a->x0; k <= (int)a->x1; k++)
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", px(a, pow(10, k)), MT,
                px(a, pow(10, k)), H - MB);
    for (int k = (int)a->y0; k <= (int)a->y1; k++)
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", ML, py(a, pow(10, k)), W - MR,
                py(a, pow(10, k)));
    fputs("</g>\n", f);
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#333\"/>\n", ML,
            MT, W - ML - MR, H - MT - MB);
    char b[32];
    for (int k = (int)a->x0; k <= (int)a->x1; k++) {
        double v = pow(10, k);
        if (k < 0) snprintf(b, sizeof b, "%g", v);
        else si(b, sizeof b, v);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n", px(a, v),
                H - MB + 16, b);
    }
    for (int k = (int)a->y0; k <= (int)a->y1; k++) {
        si(b, sizeof b, pow(10, k));
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>\n", ML - 6,
                py(a, pow(10, k)) + 4, b);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\">arithmetic intensity "
               "(FLOP/byte, DRAM)</text>\n",
            (ML + W - MR) / 2, H - 18);
    fprintf(f, "<text x=\"18\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\" transform=\"rotate(-90 18 %.1f)\">"
               "performance (FLOP/s)</text>\n",
            (MT + H - MB) / 2, (MT + H - MB) / 2);
}

/* The ceilings, inside the plot's clip group (which write_points closes):
 * the bandwidth slope up to the ridge, the FP32 vector line and, where the
 * dtype has one above it, the tensor line. */
static void write_ceilings(FILE *f, const dlp_prediction *p, const chart *ch) {
    const axes *a = &ch->a;
    double bw = ch->bw, vec = ch->vec, ten = ch->ten;
    fprintf(f, "<defs><clipPath id=\"plot\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/></clipPath>"
               "</defs>\n<g clip-path=\"url(#plot)\">\n",
            ML, MT, W - ML - MR, H - MT - MB);
    double xl = pow(10, a->x0);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\" stroke-width=\"2.5\"/>\n",
            px(a, xl), py(a, bw * xl), px(a, ch->ridge), py(a, ch->top));
    char lab[96], v1[32];
    si(v1, sizeof v1, vec);
    snprintf(lab, sizeof lab, "FP32 vector %sFLOP/s", v1);
    hline(f, a, vec / bw, vec, "#2b6cb0", lab);
    if (ten > vec) {
        si(v1, sizeof v1, ten);
        snprintf(lab, sizeof lab, "%s tensor %s%s/s", p->dtype == DLP_DT_FLOAT ? "TF32" : dtype_label(p->dtype), v1,
                 p->dtype == DLP_DT_INT8 ? "OP" : "FLOP");
        hline(f, a, ten / bw, ten, "#c53030", lab);
    }
}

/* One circle per node with FLOPs, largest first so small ones stay
 * visible on top; marks the classes present; closes the clip group. */
static void write_points(FILE *f, const dlp_prediction *p, chart *ch) {
    const axes *a = &ch->a;
    int *order = malloc(sizeof(int) * (size_t)(p->n_nodes ? p->n_nodes : 1));
    int no = 0;
    if (order)
        for (int i = 0; i < p->n_nodes; i++) {
            const dlp_node_pred *n = &p->nodes[i];
            if (n->kernels > 0 && n->flops > 0 && n->bytes > 0 && n->kernel_ms > 0) order[no++] = i;
        }
    for (int i = 1; i < no; i++)
        for (int j = i; j > 0 && p->nodes[order[j]].time_ms > p->nodes[order[j - 1]].time_ms; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (int k = 0; k < no; k++) {
        const dlp_node_pred *n = &p->nodes[order[k]];
        double share = ch->total_ms > 0 ? n->time_ms / ch->total_ms : 0;
        double r = 2.0 + 30.0 * sqrt(share);
        int cls = n->op_class >= 0 && n->op_class < DLP_OPC_COUNT_ ? n->op_class : 0;
        ch->present[cls] = 1;
        double ai = n->flops / n->bytes, y = n->flops / (n->kernel_ms * 1e-3);
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" fill-opacity=\"0.65\" stroke=\"#222\" "
                   "stroke-width=\"0.5\"><title>node %d (%s): %.3g FLOP, %.3g FLOP/B, %.3g ms (%.1f%%)</title></circle>\n",
                px(a, ai), py(a, y), r, class_colour[cls], n->node, dlp_op_class_name(cls), n->flops, ai,
                n->time_ms, 100 * share);
    }
    free(order);
    fputs("</g>\n", f);
}

/* The bandwidth label rides on the slope, a quarter of the way to the
 * ridge; then the legend: the classes present, what the area means, how
 * many nodes are drawn and how many kernels had no FLOPs to draw. */
static void write_legend(FILE *f, const chart *ch) {
    const axes *a = &ch->a;
    double bw = ch->bw;
    char v1[32];
    si(v1, sizeof v1, bw);
    double lx0 = pow(10, a->x0 + 0.25 * (log10(ch->ridge) - a->x0));
    double ang = atan2(py(a, bw * lx0 * 10) - py(a, bw * lx0), px(a, lx0 * 10) - px(a, lx0)) * 180 / M_PI;
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"#444\" transform=\"rotate(%.1f %.1f %.1f)\">"
               "DRAM %sB/s</text>\n",
            px(a, lx0), py(a, bw * lx0) - 6, ang, px(a, lx0), py(a, bw * lx0) - 6, v1);
    double lx = W - MR + 18, ly = MT + 10;
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" font-weight=\"bold\">op class</text>\n", lx, ly);
    ly += 8;
    for (int c = 0; c < DLP_OPC_COUNT_; c++) {
        if (!ch->present[c]) continue;
        ly += 20;
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"%s\" fill-opacity=\"0.65\" stroke=\"#222\" "
                   "stroke-width=\"0.5\"/>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">%s</text>\n",
                lx + 6, ly - 4, class_colour[c], lx + 18, ly, dlp_op_class_name(c));
    }
    ly += 30;
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#444\">area: share of predicted time</text>\n",
            lx, ly);
    ly += 16;
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#444\">%d nodes plotted</text>\n", lx, ly,
            ch->plotted);
    if (ch->no_flops) {
        ly += 16;
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#444\">%d kernels without FLOPs not "
                   "shown</text>\n",
                lx, ly, ch->no_flops);
    }
}

static dlp_status write_svg(const dlp_prediction *p, const dlp_device *d, FILE *f, dlp_error *err) {
    chart ch = {0};
    dlp_status st = chart_ceilings(p, d, &ch, err);
    if (st) return st;
    chart_axes(p, &ch);
    write_title(f, p, d);
    write_grid(f, &ch.a);
    write_ceilings(f, p, &ch);
    write_points(f, p, &ch);
    write_legend(f, &ch);
    fputs("</svg>\n", f);
    return DLP_OK;
}

static int check_args(const dlp_prediction *p, const dlp_device *d, dlp_error *err) {
    if (p && d && (p->n_nodes == 0 || p->nodes)) return 0;
    if (err) {
        err->code = DLP_EINVAL;
        snprintf(err->msg, sizeof err->msg, "roofline: %s", !p ? "no prediction given" : !d ? "no device given"
                                                                                            : "prediction has no nodes");
    }
    return -1;
}

/* No FILE* in the public API (a caller in another language or with another
 * libc has none to give): a path, written atomically, or memory. */
dlp_status dlp_roofline_svg(const dlp_prediction *p, const dlp_device *d, const char *path, dlp_error *err) {
    if (!path) {
        if (err) err->code = DLP_EINVAL, snprintf(err->msg, sizeof err->msg, "roofline: no output path");
        return DLP_EINVAL;
    }
    char *b = NULL;
    size_t n = 0;
    dlp_status st = dlp_roofline_svg_mem(p, d, &b, &n, err);
    if (!st) st = dlp__write_file_atomic(path, b, n, err);
    free(b);
    return st;
}

dlp_status dlp_roofline_svg_mem(const dlp_prediction *p, const dlp_device *d, char **buf, size_t *len,
                                dlp_error *err) {
    if (buf) *buf = NULL;
    if (len) *len = 0;
    if (check_args(p, d, err)) return DLP_EINVAL;
    if (!buf) {
        if (err) err->code = DLP_EINVAL, snprintf(err->msg, sizeof err->msg, "roofline: no output buffer");
        return DLP_EINVAL;
    }
    char *b = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&b, &n);
    if (!f) {
        if (err) err->code = DLP_ENOMEM, snprintf(err->msg, sizeof err->msg, "roofline: out of memory");
        return DLP_ENOMEM;
    }
    dlp_status st = write_svg(p, d, f, err);
    int bad = ferror(f);
    if (fclose(f) != 0) bad = 1;
    if (st || bad) {
        free(b);
        if (!st) {
            if (err) err->code = DLP_ENOMEM, snprintf(err->msg, sizeof err->msg, "roofline: out of memory");
            st = DLP_ENOMEM;
        }
        return st;
    }
    *buf = b;
    if (len) *len = n;
    return DLP_OK;
}
