/*
 * backward.h — the kernels a training step's backward pass launches, as the
 * runtime runs them (docs/predict.md, "Training").  Internal (src/predict);
 * roofline.c times what these functions list.
 *
 * Per forward kernel of the lowered list: which backward kernels run, on
 * which unit, with which FLOPs and bytes — convolutions split into cuDNN's
 * data-gradient (dgrad) and weight-gradient (wgrad) kernels, with grouped and
 * depthwise convolutions on the kernels the runtime really picks;
 * BatchNorm's two passes; a residual Add passes its gradient through; a
 * tensor read by several kernels sums their gradients.  Per parameter: the
 * autocast cast's backward, the gradient accumulation, the optimizer step
 * (for-loop under PyTorch 1.x, multi-tensor under 2.x) and the fp16
 * GradScaler.
 */
#ifndef DLP_PREDICT_BACKWARD_H
#define DLP_PREDICT_BACKWARD_H

#include "dlperf.h"
#include "predict/lower.h"

/* Where a backward kernel runs, and so which peak and curve time it. */
enum {
    DLP__BWD_FWD = 0,      /* the forward kernel's unit and curve             */
    DLP__BWD_VECTOR,       /* fp32 vector units, the elementwise (bandwidth)
                              curve: streaming passes, casts                  */
    DLP__BWD_REDUCE,       /* fp32 vector units, the reduction curve: sums of
                              dY (bias and broadcast gradients)               */
    DLP__BWD_GROUPED,      /* cuDNN's grouped direct kernels (CUDA cores):
                              vector peak x DLP__GROUPED_DIRECT_EFF, no curve */
    DLP__BWD_DW_WGRAD      /* depthwise weight gradient, a reduction over
                              N x H x W per filter tap: vector peak x
                              DLP__DW_WGRAD_EFF, no curve                     */
};

/* Share of the fp32 vector peak that cuDNN 8.x's grouped direct kernels
 * (wgrad2d_grouped_direct_kernel, dgrad2d_grouped_direct_kernel: what
 * PyTorch 1.x runs for the backward of a grouped convolution; no tensor
 * cores) reach at a group width of DLP__GROUPED_REUSE_CH channels or more;
 * a narrower group reuses each loaded input over fewer output channels and
 * runs proportionally slower.  Both fitted on the 14 RegNet rows of the one
 * public training file (timm RTX 3090 NHWC pt1.12; grid over 0.03-1.0 and
 * 32-256 channels, MAPE 17.5 % on those rows); docs/predict.md. */
#define DLP__GROUPED_DIRECT_EFF 0.10
#define DLP__GROUPED_REUSE_CH 48.0

/* The direct kernels' cost factor for a group of gw channels: (REUSE_CH /
 * gw) times its FLOPs below REUSE_CH, 1 from there on (backward.c's dgrad /
 * wgrad, roofline.c's cuDNN 8 NHWC grouped forward). */
static inline double dlp__grouped_reuse(double gw) {
    return gw < DLP__GROUPED_REUSE_CH ? DLP__GROUPED_REUSE_CH / gw : 1;
}
/* Share of the fp32 vector peak of a depthwise weight-gradient kernel of
 * PyTorch 1.x (a reduction of N x H x W products per filter tap); fitted on
 * the MobileNet/EfficientNet/MNASNet rows of the same file, whose forward
 * is within 3 % in the inference files (0.03 fits them best; ConvNeXt's
 * 7x7 rows ask for more: 0.04 between the two). */
#define DLP__DW_WGRAD_EFF 0.04

/* Caching-allocator overhead of a training step, a share of the tensor
 * memory (inference: DLP__ALLOC_OVERHEAD, 10 %).  Checked on the batch
 * sizes timm's benchmark settled on for the RTX 3090 training file (it
 * steps the batch down 512, 384, 256, 192, 128, 96 on out-of-memory: the
 * batch ran in 24 GiB, the next one up did not): 10 % put 13 of 55 run
 * batches over 24 GiB, 3 % puts 5 (misses either way 13 vs 16 of 103). */
#define DLP__ALLOC_OVERHEAD_TRAIN 0.03

/* cuDNN's NCHW BatchNorm training kernels (bn_fw_tr_1C11_kernel_NCHW,
 * bn_bw_1C11_kernel_new) give each channel one CTA that streams its
 * N x H x W values: a kernel takes at least (bytes / channels) / this rate,
 * latency-bound (a CTA's loads in flight / DRAM latency).  Measured on our
 * H100 (cuDNN 9.19, ResNet-50 batch 256 NCHW: the 56x56 layers' kernels
 * move 7.0 GB/s per channel forward, 6.5 backward, the 112x112 stem 8.1 and
 * 6.9); channels_last runs cuDNN's NHWC kernels, which fill the GPU. */
#define DLP__BN_NCHW_CTA_GBS 7.0

/* The row names of a GEMM/BMM's two backward kernels (backward.c
 * matmul_backward) and of a conv's implicit-GEMM ones (conv_backward):
 * roofline.c times each on its own GEMM shape (bwd_gemm_pass). */
#define DLP__MM_DGRAD "aten::mm (backward, dX)"
#define DLP__MM_WGRAD "aten::mm (backward, dW)"
#define DLP__CONV_DGRAD "aten::convolution_backward (dgrad)"
#define DLP__CONV_WGRAD "aten::convolution_backward (wgrad)"

typedef struct {
    const char *name;      /* aten-style name (static string)                */
    int unit;              /* DLP__BWD_*                                     */
    int bn;                /* a training BatchNorm kernel (NCHW rate limit)  */
    int count;             /* launches of this shape                         */
    double flops, bytes;   /* per launch                                     */
} dlp__bwd_kernel;

typedef struct {
    const dlp_graph *g;
    const dlp__lowered *L;
    int runtime, memfmt, cdt;
    const unsigned char *rg;   /* per graph tensor: requires grad (from
                                  dlp__requires_grad); NULL: each call works
                                  it out itself (small graphs, tests)      */
    int cudnn;                 /* dlp_predict_opts.cudnn (0: the runtime's)  */
} dlp__bwd_ctx;

/* Which tensors of g carry a gradient, as autograd decides it: a float
 * parameter (an initializer of more than one element) does, and so does a
 * float tensor computed from one that does; graph inputs, constants and
 * anything computed from them alone (an attention mask built from a
 * Range, the padding mask from the input ids) do not, so their backward
 * runs no kernel.  One byte per tensor, malloc'ed (free() it); NULL when
 * out of memory. */
unsigned char *dlp__requires_grad(const dlp_graph *g);

/* The cuDNN major version a runtime runs (opts.cudnn, else eager-1.x: 8 and
 * the other profiles: 9, the wheels PyTorch 1.x and 2.4+ ship). */
static inline int dlp__cudnn_major(int runtime, int cudnn) {
    return cudnn ? cudnn : runtime == DLP_RUNTIME_EAGER1X ? 8 : 9;
}

/* The backward kernels of forward kernel k of b->L: at most `max` rows
 * written to out; returns how many (0: no gradient flows through it). */
int dlp__backward_kernels(const dlp__bwd_ctx *b, int k, dlp__bwd_kernel *out, int max);

/* Gradient accumulation where a kernel's output feeds several kernels
 * (a residual fork, DenseNet's concatenations): autograd sums the incoming
 * gradients, one add per extra consumer.  *bytes gets the total bytes
 * (read two, write one per add); returns the number of adds. */
int dlp__backward_fork_adds(const dlp__bwd_ctx *b, int k, double *bytes);

/* Bytes autograd keeps from the forward pass for the backward: the union
 * (by storage: a view is its base) of what each kernel's backward reads —
 * conv/matmul their activation inputs, BatchNorm/LayerNorm their input,
 * ReLU/sigmoid/tanh/softmax/exp their output, other activations their
 * input, Mul/Div both inputs, MaxPool its input and int64 indices, Dropout
 * a one-byte mask, fused attention q, k, v and its output; Add, Sub,
 * concatenation, padding, average pooling, means, casts and layout copies
 * keep nothing — plus the graph inputs, which the caller holds. */
double dlp__saved_bytes(const dlp__bwd_ctx *b);

/* A training BatchNorm kernel of `bytes` in NCHW: the least time its
 * per-channel CTAs take (DLP__BN_NCHW_CTA_GBS); 0 when kk is no BatchNorm,
 * the layout is NHWC or the channels are unknown. */
double dlp__bn_nchw_floor_s(const dlp__bwd_ctx *b, const dlp__kernel *kk, double bytes);

/* Per-parameter work of one step (casts, accumulation, optimizer, scaler),
 * as rows; `params` and `n_tensors` count the float initializers, `cast_*`
 * those autocast casts (conv/linear/matmul weights).  Returns the rows. */
int dlp__step_param_kernels(int runtime, int cdt, int optimizer, double params, double n_tensors,
                            double cast_params, double cast_tensors, dlp__bwd_kernel *out, int max);

#endif
