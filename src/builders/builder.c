/*
 * builder.c — shared node emitters for the graph builders (see builder.h).
 *
 * The nodes carry the same attributes a PyTorch ONNX export writes
 * (kernel_shape, strides, pads, dilations, group; epsilon/momentum for
 * BatchNormalization; transB for the classifier Gemm) so that a built graph
 * and an exported file of the same network cost and featurise identically.
 */
#include "builders/builder.h"

#include <stdio.h>
#include <string.h>

void dlp__bld_init(dlp__bld *b, const char *name, int64_t batch) {
    memset(b, 0, sizeof *b);
    b->batch = batch;
    b->g = dlp__graph_new(name);
    if (!b->g) b->oom = 1;
    else b->g->batch = batch;
}

void dlp__bld_abort(dlp__bld *b) {
    dlp_graph_free(b->g);
    b->g = NULL;
}

int dlp__bld_input(dlp__bld *b, int64_t c, int64_t h, int64_t w) {
    if (b->oom) return -1;
    int64_t d[4] = {b->batch, c, h, w};
    int v = dlp__graph_add_value(b->g, "input", DLP_DT_FLOAT, 4, d);
    if (v < 0 || dlp__graph_mark_input(b->g, v)) {
        b->oom = 1;
        return -1;
    }
    return v;
}

int dlp__bld_weight(dlp__bld *b, const char *node, const char *suffix, int rank,
                    const int64_t *dims) {
    char nm[256];
    if (b->oom) return -1;
    snprintf(nm, sizeof nm, "%s.%s", node, suffix);
    int v = dlp__graph_add_weight(b->g, nm, DLP_DT_FLOAT, rank, dims);
    if (v < 0) b->oom = 1;
    return v;
}

int dlp__bld_node(dlp__bld *b, const char *name, const char *op, int n_in, const int *in) {
    char nm[256];
    if (b->oom) return -1;
    for (int i = 0; i < n_in; i++)
        if (in[i] < 0) { /* an earlier helper failed */
            b->oom = 1;
            return -1;
        }
    snprintf(nm, sizeof nm, "%s:out", name);
    /* rank -1: the shape rule decides, as for a loaded file */
    int v = dlp__graph_add_value(b->g, nm, DLP_DT_FLOAT, -1, NULL);
    if (v < 0) {
        b->oom = 1;
        return -1;
    }
    int n = dlp__graph_add_node(b->g, name, op, "", n_in, in, 1, &v);
    if (n < 0) {
        b->oom = 1;
        return -1;
    }
    return v;
}

/* Attribute setters report failure through b->oom. */
static void set_ints(dlp__bld *b, const char *name, int n, const int64_t *v) {
    if (!b->oom && dlp__node_set_ints(b->g, b->g->n_nodes - 1, name, n, v)) b->oom = 1;
}

static void set_int(dlp__bld *b, const char *name, int64_t v) {
    if (!b->oom && dlp__node_set_int(b->g, b->g->n_nodes - 1, name, v)) b->oom = 1;
}

static void set_float(dlp__bld *b, const char *name, double v) {
    if (!b->oom && dlp__node_set_float(b->g, b->g->n_nodes - 1, name, v)) b->oom = 1;
}

int dlp__bld_conv(dlp__bld *b, const char *name, int x, int64_t cin, int64_t cout, int64_t k,
                  int64_t stride, int64_t pad, int64_t groups, int bias) {
    int64_t wd[4] = {cout, cin / groups, k, k}, bd[1] = {cout};
    int in[3] = {x, dlp__bld_weight(b, name, "weight", 4, wd), -1};
    if (bias) in[2] = dlp__bld_weight(b, name, "bias", 1, bd);
    int y = dlp__bld_node(b, name, "Conv", bias ? 3 : 2, in);
    int64_t ks[2] = {k, k}, st[2] = {stride, stride}, pd[4] = {pad, pad, pad, pad}, dl[2] = {1, 1};
    set_ints(b, "dilations", 2, dl);
    set_int(b, "group", groups);
    set_ints(b, "kernel_shape", 2, ks);
    set_ints(b, "pads", 4, pd);
    set_ints(b, "strides", 2, st);
    return b->oom ? -1 : y;
}

int dlp__bld_bn(dlp__bld *b, const char *name, int x, int64_t c) {
    int64_t d[1] = {c};
    int in[5] = {x, dlp__bld_weight(b, name, "weight", 1, d), dlp__bld_weight(b, name, "bias", 1, d),
                 dlp__bld_weight(b, name, "mean", 1, d), dlp__bld_weight(b, name, "var", 1, d)};
    int y = dlp__bld_node(b, name, "BatchNormalization", 5, in);
    /* PyTorch's defaults: eps 1e-5, momentum 0.1 (ONNX spells it 1 - 0.1) */
    set_float(b, "epsilon", 1e-5);
    set_float(b, "momentum", 0.9);
    return b->oom ? -1 : y;
}

int dlp__bld_relu(dlp__bld *b, const char *name, int x) { return dlp__bld_node(b, name, "Relu", 1, &x); }

int dlp__bld_add(dlp__bld *b, const char *name, int x, int y) {
    int in[2] = {x, y};
    return dlp__bld_node(b, name, "Add", 2, in);
}

int dlp__bld_avgpool(dlp__bld *b, const char *name, int x, int64_t k, int64_t s, int64_t p,
                     int count_include_pad) {
    int y = dlp__bld_node(b, name, "AveragePool", 1, &x);
    int64_t ks[2] = {k, k}, st[2] = {s, s}, pd[4] = {p, p, p, p};
    set_int(b, "ceil_mode", 0);
    set_int(b, "count_include_pad", count_include_pad);
    set_ints(b, "kernel_shape", 2, ks);
    set_ints(b, "pads", 4, pd);
    set_ints(b, "strides", 2, st);
    return b->oom ? -1 : y;
}

int dlp__bld_head(dlp__bld *b, int x, int64_t c, int64_t classes) {
    int p = dlp__bld_node(b, "global_pool", "GlobalAveragePool", 1, &x);
    int f = dlp__bld_node(b, "flatten", "Flatten", 1, &p);
    set_int(b, "axis", 1);
    int64_t wd[2] = {classes, c}, bd[1] = {classes};
    int in[3] = {f, dlp__bld_weight(b, "classifier", "weight", 2, wd),
                 dlp__bld_weight(b, "classifier", "bias", 1, bd)};
    int y = dlp__bld_node(b, "classifier", "Gemm", 3, in);
    set_float(b, "alpha", 1.0);
    set_float(b, "beta", 1.0);
    set_int(b, "transB", 1);
    return b->oom ? -1 : y;
}

dlp_status dlp__bld_finish(dlp__bld *b, int out, dlp_graph **out_g, dlp_error *err) {
    *out_g = NULL;
    if (!b->oom && (out < 0 || dlp__graph_mark_output(b->g, out))) b->oom = 1;
    if (b->oom) {
        dlp__bld_abort(b);
        return dlp__err(err, DLP_ENOMEM, "out of memory building a graph");
    }
    dlp_load_opts o;
    memset(&o, 0, sizeof o);
    o.batch = b->batch;
    dlp_status st = dlp__graph_finalize(b->g, &o, err);
    if (st) {
        dlp__bld_abort(b);
        return st;
    }
    *out_g = b->g;
    b->g = NULL;
    return DLP_OK;
}
