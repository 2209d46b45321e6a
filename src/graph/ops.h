/*
 * ops.h — how the op registry is assembled.
 *
 * Rules are grouped by family, one file each, and every file exports one
 * table fragment (an array of dlp__op_def terminated by a row whose name is
 * NULL).  ops.c concatenates the fragments listed in dlp__op_fragments[] into
 * a hash index on first use.  Adding an op = adding a row and its test.
 *
 *   ops_ew.c      elementwise unary/binary/variadic (+ integer value
 *                 propagation for shape arithmetic), Where, Cast, Identity
 *   ops_nn.c      Conv/ConvTranspose/pools, Gemm/MatMul/Einsum, norms,
 *                 softmax, reductions, TopK/Arg*, RNNs, Resize, com.microsoft
 *   ops_tensor.c  Shape/Reshape/Concat/Slice/Gather/... value propagation,
 *                 Constant*, Range, Pad, Tile, Expand, control flow
 *
 * The fragments call only ir.c's helpers (graph.h), never ops.c or graph.c:
 * a rule reads its own row from dlp__ictx.def.
 */
#ifndef DLP_OPS_H
#define DLP_OPS_H

#include "graph/graph.h"

extern const dlp__op_def dlp__ops_ew[];
extern const dlp__op_def dlp__ops_nn[];
extern const dlp__op_def dlp__ops_tensor[];

/* Generic cost rules usable by any fragment (ir.c). */
void dlp__cost_elementwise(dlp__ictx *c);   /* flops = out numel * flops_per_elem */
void dlp__cost_none(dlp__ictx *c);

/* Registry row of a node (NULL if unknown). */
const dlp__op_def *dlp__node_def(const dlp__node *n);

#endif
