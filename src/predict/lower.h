/*
 * lower.h — lowering a graph to the kernels a runtime really launches.
 * Internal (src/predict).  docs/predict.md, "Lowering", has the patterns.
 *
 * The result is a list of kernels in topological order of their anchors.
 * Every graph node maps to at most one kernel (node_kernel[i]), or to none
 * (views, shape arithmetic, constants, folded values).  A kernel covers one
 * node or a fused group (LayerNorm decomposed into 9 ONNX nodes = one
 * aten::layer_norm); its FLOPs are the members' and its bytes are what
 * crosses the group's boundary (inputs read from outside the group, outputs
 * read outside it or graph outputs), at the compute dtype.
 */
#ifndef DLP_PREDICT_LOWER_H
#define DLP_PREDICT_LOWER_H

#include "dlperf.h"

typedef struct {
    const char *name;          /* aten-style name (static string)               */
    int kclass;                /* dlp_kernel_class                               */
    int anchor;                /* the node that represents it (the group's
                                  heaviest: matmul/conv, else its last node)    */
    int first, n;              /* its member nodes: members[first .. first+n)   */
    double flops, bytes;       /* forward, at the compute dtype                  */
    double out_bytes;          /* bytes it writes (for training's saved set)    */
    int op_class;              /* dlp_op_class of the anchor                    */
    int has_weight;            /* reads an initializer of rank >= 2            */
    int grad_inputs;           /* inputs produced by nodes (need a dX kernel)   */
} dlp__kernel;

typedef struct {
    int n;                     /* kernels                                        */
    dlp__kernel *k;
    int *members;              /* node ids, grouped per kernel                   */
    int *node_kernel;          /* per node: kernel index, or -1 (no kernel)      */
    int *node_view;            /* per node: 1 when it aliases its input (view)  */
    int n_nodes;
} dlp__lowered;

/* Lower g for a runtime (dlp_runtime) and memory format, at compute dtype
 * cdt, for inference (train = 0) or a training step's forward (train = 1:
 * Dropout is a kernel, no inference-only fusion). */
enum {
    DLP__LOWER_FUSE = 1,       /* epilogue fusion into conv/gemm (--fuse) whatever
                                  the runtime                                    */
    DLP__LOWER_NO_SDPA = 2,    /* attention as written (bmm, softmax, bmm): code
                                  that does not call SDPA                         */
    DLP__LOWER_NO_AMP = 4      /* fp16/bf16 as model.half(), not torch.autocast:
                                  no fp32 ops, no casts                           */
};
dlp_status dlp__lower(const dlp_graph *g, int runtime, int memfmt, int train, int cdt, int flags,
                      dlp__lowered *out, dlp_error *err);
void dlp__lowered_free(dlp__lowered *l);

/* Bytes per element of a compute dtype as kernels move it: fractional for
 * 4-bit types (fp4 e2m1, int4: two per byte), 4 when unknown. */
double dlp__elem_bytes(int dtype);
/* Bytes of a tensor when its float storage (fp32/fp16/bf16) takes the
 * compute dtype cdt — as model.half() or autocast would store it — and its
 * own size otherwise; -1 when unknown.  Time and memory both use it. */
double dlp__tensor_bytes_at(const dlp_tensor_info *t, int cdt);

/* 1 when kk is a dtype cast that torch.autocast runs ("aten::_to_copy
 * (autocast...)": lower.c, "Autocast dtypes"). */
int dlp__is_autocast_cast(const dlp__kernel *kk);

/* The row length of a Softmax/LogSoftmax kernel over its last axis (the
 * length PyTorch's CUDA softmax picks its kernel by); 0 for any other
 * kernel or axis (another axis runs the spatial kernels). */
int64_t dlp__softmax_row(const dlp_graph *g, const dlp__kernel *kk);

#endif
