/*
 * builder.h — small helpers the graph builders (NAS-Bench-201, FBNet, ...)
 * share to emit ONNX-style nodes into the IR: Conv/BatchNormalization/Relu/
 * pools/Gemm with their initializers, named consistently.
 *
 * Why a layer over graph.h: every builder needs the same "conv + weight
 * initializer + output value" boilerplate, and the same out-of-memory
 * bookkeeping.  Helpers return the output value id, or -1 after an
 * allocation failure (b->oom is then set, and every later call is a no-op
 * returning -1, so builders check once at the end).
 *
 * Naming: a node is called `name`, its output value `name:out`, its weights
 * `name.weight`, `name.bias`, `name.mean`, `name.var` — unique as long as
 * node names are, which builders guarantee with hierarchical names
 * ("cell3/e2_1/conv").
 *
 * Intermediate values are created with unknown shape (rank -1) so that the
 * shapes and costs come from the registry's shape rules at finalize, exactly
 * as for an ONNX file; only the graph input has a declared shape.
 */
#ifndef DLP_BUILD_BUILDER_H
#define DLP_BUILD_BUILDER_H

#include <stdint.h>

#include "graph/graph.h"

typedef struct {
    dlp_graph *g;
    int64_t batch;
    int oom;          /* an allocation failed: the graph is incomplete */
} dlp__bld;

/* New graph named `name` (copied); b->g is NULL (and oom set) on failure. */
void dlp__bld_init(dlp__bld *b, const char *name, int64_t batch);

/* Graph input "input" of shape (batch, c, h, w), float. */
int dlp__bld_input(dlp__bld *b, int64_t c, int64_t h, int64_t w);

/* Float initializer (dims known, no data). */
int dlp__bld_weight(dlp__bld *b, const char *node, const char *suffix, int rank,
                    const int64_t *dims);

/* Generic node with one output "<name>:out"; returns the output value id. */
int dlp__bld_node(dlp__bld *b, const char *name, const char *op, int n_in, const int *in);

/* Conv k x k, square stride/pad, `groups`, weight (cout, cin/groups, k, k),
 * bias (cout) only when `bias` != 0. */
int dlp__bld_conv(dlp__bld *b, const char *name, int x, int64_t cin, int64_t cout, int64_t k,
                  int64_t stride, int64_t pad, int64_t groups, int bias);
/* BatchNormalization with scale, B, mean, var initializers of (c). */
int dlp__bld_bn(dlp__bld *b, const char *name, int x, int64_t c);
int dlp__bld_relu(dlp__bld *b, const char *name, int x);
int dlp__bld_add(dlp__bld *b, const char *name, int x, int y);
/* AveragePool k x k, stride s, pad p, count_include_pad as given. */
int dlp__bld_avgpool(dlp__bld *b, const char *name, int x, int64_t k, int64_t s, int64_t p,
                     int count_include_pad);
/* GlobalAveragePool -> Flatten(axis 1) -> Gemm(transB=1) with weight
 * (classes, c) and bias (classes): the classifier head of CNNs.  Node names
 * are "global_pool", "flatten" and "classifier". */
int dlp__bld_head(dlp__bld *b, int x, int64_t c, int64_t classes);

/* Mark `out` as the graph output and finalize (shapes, costs, stats) with
 * the batch bound.  On success *out_g owns the graph; on failure the graph
 * is freed and err says why (DLP_ENOMEM after an allocation failure). */
dlp_status dlp__bld_finish(dlp__bld *b, int out, dlp_graph **out_g, dlp_error *err);

/* Free a half-built graph (error paths before finish). */
void dlp__bld_abort(dlp__bld *b);

#endif
