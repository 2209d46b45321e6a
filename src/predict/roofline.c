/*
 * roofline.c — the analytic whole-model predictor behind `dlperf predict`.
 *
 * Any device of the database, no measurements needed: every node of the
 * graph becomes zero or more GPU kernels whose time is the roofline bound
 * max(FLOPs / peak of the unit it runs on, bytes / DRAM bandwidth), stretched
 * by a per-op-class efficiency curve (calib.c; pure roofline when the curve
 * is zero), plus a launch overhead.  Kernels run back to back on one stream
 * in topological order, as eager PyTorch runs them, so the graph's time is
 * the sum.  Training adds each node's backward kernels, the optimizer step
 * and, in mixed precision, the weight casts.  Memory is weights + peak live
 * activations (training: everything saved for backward, gradients and
 * optimizer state) + workspace + the runtime context.  Energy integrates a
 * utilisation-driven power model over the kernels.  docs/predict.md states
 * every rule and constant, and why.
 *
 * Only the public graph API is used: the predictor sees what any client of
 * dlperf.h sees.
 */
#include "predict/roofline.h"
#include "predict/predict.h"
#include "predict/curves.h"
#include "predict/lower.h"
#include "predict/backward.h"
#include "predict/waves.h"
#include "predict/power.h"
#include "util/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


/* ---- board power ------------------------------------------------------------- */

double dlp__device_idle_w(const dlp_device *d) {
    double tdp = d->tdp_w > 0 ? d->tdp_w : 0;
    return d->idle_w > 0 && d->idle_w < tdp ? d->idle_w : 0.1 * tdp;
}

double dlp__board_power_w(const dlp_device *d, double share) {
    double tdp = d->tdp_w > 0 ? d->tdp_w : 0, idle = dlp__device_idle_w(d);
    double pw = idle + (tdp - idle) * share;
    return pw > tdp ? tdp : pw;
}

/* ---- which unit a node runs on ------------------------------------------------ */

static int is_tensor_class(int c) {
    return c == DLP_OPC_CONV || c == DLP_OPC_GEMM || c == DLP_OPC_MATMUL;
}

double dlp__node_peak(const dlp_device *d, int op_class, int dtype, int tf32_mode, int *tensor_core) {
    double vec = dlp_device_peak_flops(d, DLP_DT_FLOAT, 0);
    if (tensor_core) *tensor_core = 0;
    if (!is_tensor_class(op_class)) {
        /* PyTorch computes elementwise, normalisation and reduction kernels in
         * fp32 registers ("opmath") whatever the storage type, so the vector
         * FP32 rate is their ceiling; they are memory-bound anyway. */
        return vec;
    }
    int use_tc;
    if (dtype == DLP_DT_FLOAT && d->tf32_tensor_tflops <= 0 && d->fp32_matrix_tflops > 0)
        /* AMD CDNA: full-precision FP32 matrix cores (MFMA), which rocBLAS
         * SGEMM and MIOpen use for fp32 data; no reduced precision, so the
         * TF32 switches do not apply (NeuSight's MI100/MI210/MI250 traces:
         * large fp32 addmm at 33-35 TFLOP/s, above the 22.6 vector peak). */
        use_tc = 1;
    else if (dtype == DLP_DT_FLOAT)
        use_tc = op_class == DLP_OPC_CONV ? tf32_mode != DLP_TF32_OFF : tf32_mode == DLP_TF32_ON;
    else
        use_tc = 1;
    double p = dlp_device_peak_flops(d, dtype, use_tc);
    double pv = dlp_device_peak_flops(d, dtype, 0);
    if (tensor_core) *tensor_core = use_tc && p > pv;
    return p > 0 ? p : vec;
}

enum { NK_KERNEL = 0, NK_VIEW, NK_FREE };

static int is_float_storage(int dt) {
    return dt == DLP_DT_FLOAT || dt == DLP_DT_FLOAT16 || dt == DLP_DT_BFLOAT16;
}

/* The file's compute type: the first matmul-class node's input, else the
 * first float tensor, else fp32. */
static int file_float_dtype(const dlp_graph *g) {
    int n = dlp_graph_node_count(g);
    for (int i = 0; i < n; i++) {
        dlp_node_info ni;
        ni = *dlp_graph_node_at(g, i);
        if (!is_tensor_class(ni.op_class) || ni.n_inputs < 1 || ni.inputs[0] < 0) continue;
        dlp_tensor_info t;
        t = *dlp_graph_tensor_at(g, ni.inputs[0]);
        if (is_float_storage(t.dtype)) return t.dtype;
    }
    int nt = dlp_graph_tensor_count(g);
    for (int i = 0; i < nt; i++) {
        dlp_tensor_info t;
        t = *dlp_graph_tensor_at(g, i);
        if (is_float_storage(t.dtype)) return t.dtype;
    }
    return DLP_DT_FLOAT;
}

/* ---- the predictor ---------------------------------------------------------- */

typedef struct {
    const dlp_graph *g;
    const dlp_device *d;
    int cdt, train, tf32;
    double bw, launch_s;
    double bw_l2, l2_bytes;     /* L2 bandwidth (B/s; 0: unknown) and size    */
    double host_s, host_clock;  /* per-kernel issue cost; when the host has issued */
    double floor_s;             /* minimum device time of one kernel          */
    int pure;                   /* pure roofline: no curves                   */
    int trt;                    /* TensorRT engine: curves for tensor-core
                                   GEMM/bmm/attention only (trt_curve_class) */
    double p_idle, p_tdp;
    double p_boost;             /* unlimited draw of a fully busy chip at boost */
    /* accumulators over the pass/step */
    double time_s, energy_j, util_s, flops, bytes;
    double busy_s, clock_s;     /* kernel time, and kernel time x clock share  */
    int kernels;
    dlp_kernel_pred *rows;      /* the kernel list being written              */
    int n_rows, max_rows;
} pctx;

/* How one lowered kernel is timed: the unit's peak and the curve. */
typedef struct {
    double peak;
    int tensor_core;
    const dlp_eff_curve *curve; /* NULL: pure roofline                       */
    const char *source;         /* where the curve comes from                 */
    int kclass;
    double vmin;                /* lowest intensity feature v the curve is
                                   evaluated at (-inf: the curve's own clamp) */
    double wave_s;              /* > 0: the kernel's time from tiles and waves
                                   (waves.c), used instead of the curve       */
    double floor_s;             /* > 0: a lower bound on this kernel's time
                                   above the curve's (amd_block_softmax)      */
    const char *floor_source;   /* what floor_s is, for the kernel list       */
    const char *kname;          /* non-NULL: the kernel the runtime runs
                                   instead of the lowering's name (the kernel
                                   list prints it)                            */
    double tc_scale, tc_floor;  /* tc_scale in (0, 1): a half tensor-core GEMM on
                                   a GPU whose SMs do fewer tensor FLOP per
                                   clock than the curve's fit GPUs
                                   (tc_rate_setup); 0: none                   */
} kernel_setup;

/* The op class whose unit (dlp__node_peak) a kernel class runs on, and
 * whose curve a caller-supplied dlp_efficiency gives it. */
static int kc_op_class(int kc) {
    static const int opc[DLP_KC_COUNT_] = {DLP_OPC_CONV,        DLP_OPC_ELEMENTWISE, DLP_OPC_GEMM,
                                           DLP_OPC_MATMUL,      DLP_OPC_MATMUL,      DLP_OPC_ELEMENTWISE,
                                           DLP_OPC_NORM,        DLP_OPC_SOFTMAX,     DLP_OPC_REDUCE,
                                           DLP_OPC_POOL,        DLP_OPC_DATA,        DLP_OPC_OTHER};
    return kc >= 0 && kc < DLP_KC_COUNT_ ? opc[kc] : DLP_OPC_OTHER;
}

/* Which kernels of a TensorRT engine take an efficiency curve: GEMMs,
 * batched matmuls and fused attention on the half/fp8/int8 tensor cores,
 * the classes whose curves were fitted on TensorRT-LLM's own kernel tables
 * (aiconfigurator, curves.c), which are the cuBLASLt/CUTLASS-class kernels
 * a TensorRT engine builds its MatMul layers and fused MHA from.  Every
 * other kernel stays on the pure roofline: there is no conv data at these
 * precisions (the GEMM curve made MLPerf ResNet-50 worse, 25% -> 30%), and
 * the memory-bound curves are eager PyTorch's fp32 kernels, not
 * TensorRT's fused ones. */
static int trt_curve_class(int kc, int prec) {
    return prec != DLP__PREC_FP32 && (kc == DLP_KC_GEMM || kc == DLP_KC_BMM || kc == DLP_KC_ATTN);
}

/* The curve: none for the pure roofline (and, under TensorRT, outside
 * trt_curve_class); a caller's dlp_efficiency by op class; else the
 * built-in table of (precision, kernel class). */
static const dlp_eff_curve *kcurve_for(const pctx *c, const dlp_predict_opts *o, int kc, int opc, int prec,
                                       const char **source) {
    if (c->pure || (c->trt && !trt_curve_class(kc, prec))) {
        *source = "pure roofline";
        return NULL;
    }
    if (o->eff) {
        *source = o->eff->name ? o->eff->name : "custom";
        /* TensorRT: by kernel class (a linear layer's anchor is a MatMul node
         * like attention's): GEMM -> cls[GEMM], bmm and attention -> cls[MATMUL] */
        if (c->trt) return &o->eff->cls[kc == DLP_KC_GEMM ? DLP_OPC_GEMM : DLP_OPC_MATMUL];
        return &o->eff->cls[opc >= 0 && opc < DLP_OPC_COUNT_ ? opc : kc_op_class(kc)];
    }
    const dlp__kcurve *k = dlp__kcurve_get(prec, kc);
    *source = k->source;
    return &k->c;
}

/* The block softmax's re-reads hit L1 (docs/predict.md, "Timing a
 * kernel"): PyTorch 2.1's cunn_SoftMaxForward runs a CTA per row of
 * SoftMaxForward_getBlockSize threads (aten/src/ATen/native/cuda/SoftMax.cu:
 * ILP = 16 B / element size, the smallest power of two >= min(row / ILP,
 * 1024) / 2, at least a warp; NeuSight's traces show 256 threads for rows of
 * 1,025-2,048 fp32 elements, 512 above) and passes over its row three times
 * (max, sum of exponentials, write).  The rows of the CTAs an SM holds at
 * once (max_threads_per_sm / block) stay in its L1 between the passes when
 * they fit l1_cache_kb_per_sm (the whitepapers' L1, unified with shared
 * memory from Volta on; the kernel's shared memory is a few bytes): then
 * DRAM sees one read and one write, as for the warp softmax.  NVIDIA only
 * (ROCm's softmax is another kernel). */
int dlp__block_softmax_in_l1(const dlp_device *d, double row, double elem_bytes) {
    if (!d || !d->vendor || strcmp(d->vendor, "nvidia") || !(row > 0) || !(elem_bytes > 0)) return 0;
    if (!(d->l1_cache_kb_per_sm > 0) || d->max_threads_per_sm <= 0) return 0;
    double ilp = fmax(1.0, floor(16.0 / elem_bytes));
    double want = fmin(floor(row / ilp), 1024.0);
    if (ilp > 1) want = floor(want / 2);
    double block = 1;
    while (block < want) block *= 2;
    block = fmax(block, 32.0);
    double ctas = floor((double)d->max_threads_per_sm / block);
    if (ctas < 1) return 0;
    return ctas * row * elem_bytes <= d->l1_cache_kb_per_sm * 1024.0;
}

/* PyTorch's CUDA softmax over rows of at most 1024 elements (and 4 KiB:
 * aten/src/ATen/native/cuda/SoftMax.cu, host_softmax) runs the persistent
 * warp softmax (dispatch_softmax_forward): a warp holds its row in
 * registers, so the kernel reads the tensor once and writes it once, a
 * streaming pass timed like one (the elementwise curve).  Longer rows run
 * cunn_SoftMaxForward, a CTA per row that passes over it for the max, the
 * sum and the write: streaming too where its rows stay in L1
 * (dlp__block_softmax_in_l1), else the softmax curve, fitted on NeuSight's
 * softmax table, where those kernels are two thirds of the rows.  In the
 * end-to-end traces (NeuSight, fp32) the rows of 512 and 1024 ran at
 * 1.1-1.5x the bandwidth bound on every GPU, like the division next to
 * them, while the softmax curve put them at 1.6x.  Returns 1 for the warp
 * softmax, 2 for the block softmax with its rows in L1, 0 for neither. */
static int softmax_streams(const pctx *c, const dlp__kernel *kk) {
    int64_t row = dlp__softmax_row(c->g, kk);
    double eb = dlp__elem_bytes(c->cdt == DLP_DT_FLOAT16 || c->cdt == DLP_DT_BFLOAT16 ? DLP_DT_FLOAT : c->cdt);
    if (row > 0 && row <= 1024 && row * eb <= 4096) return 1;
    return row > 0 && dlp__block_softmax_in_l1(c->d, (double)row, eb) ? 2 : 0;
}

/* Tensor-core tile overhead and the per-SM tensor rate.  A GEMM or an
 * implicit-GEMM convolution runs as CTA tiles; each tile spends its math
 * cycles (tile FLOP / the SM's tensor FLOP per clock) plus cycles that do
 * not depend on the math rate: the prologue that fills the shared-memory
 * pipeline, the barrier of every k-step and the epilogue that writes the
 * tile.  On the A100 (2048 dense fp16 FLOP per clock per SM: 312 TFLOP/s /
 * (108 SMs x 1.41 GHz)) aiconfigurator's bf16 GEMMs of u >= 3 (349 kernels,
 * the half curve's own fit data) plateau at a median 0.834 of peak: those
 * cycles are o = 1 / 0.834 - 1 = 0.199 of the math cycles.  On an SM with a
 * lower tensor rate F the same cycles are a smaller share, o F / 2048:
 * GeForce Ampere/Ada/Blackwell run fp16 with fp32 accumulation (PyTorch's
 * cuDNN and cuBLAS math type for half inputs) at half rate, 512 FLOP per
 * clock per SM (RTX 3090: 71 TFLOP/s / (82 x 1.695 GHz); GA102 whitepaper),
 * so o = 0.050 and a long conv reaches 0.953 of peak, against the curve's
 * 0.86 at u = 3.5.  Checked across the fit's two GPUs: the A100's o
 * predicts the H100 (4096 FLOP per clock per SM) at 0.715 against its
 * measured 0.762 (1631 kernels, u >= 3; it runs at its 700 W cap), and the
 * H100's o (0.312) predicts the A100 at 0.865 against 0.834.
 * Within the fit set's range (F >= the A100's) the curve stands; below it
 * the compute side of the ratio is scaled by (1 + o F / Fref) / (1 + o) and
 * floored at 1 + o F / Fref (the tile overhead is never below zero), and the
 * memory side (a 1x1 conv below the ridge) keeps the curve: its loss is DRAM
 * efficiency, which the math rate does not change.  Half precision only
 * (the plateau is measured there); NVIDIA only (tensor-core tiles); fused
 * attention keeps its own curve (its tiles also run a softmax). */
#define DLP__TC_REF_FLOP_CLK_SM 2048.0   /* A100 dense fp16/bf16 */
#define DLP__TC_TILE_OVERHEAD 0.199      /* A100 bf16 GEMM plateau 0.834 */
/* 1 when kk is a dense (groups == 1) convolution: its weight's input
 * channels are all of its input's (a grouped conv's filter reads Cin /
 * groups, and cuDNN runs grouped shapes on other kernels: "Training") */
static int dense_conv(const dlp_graph *g, const dlp__kernel *kk) {
    const dlp_node_info *ni = kk && kk->anchor >= 0 ? dlp_graph_node_at(g, kk->anchor) : NULL;
    if (!ni || ni->n_inputs < 2) return 0;
    const dlp_tensor_info *x = dlp_graph_tensor_at(g, ni->inputs[0]);
    const dlp_tensor_info *w = dlp_graph_tensor_at(g, ni->inputs[1]);
    return x && w && x->rank == 4 && w->rank == 4 && x->dims[1] > 0 && x->dims[1] == w->dims[1];
}

static void tc_rate_setup(const pctx *c, const dlp_predict_opts *o, const dlp__kernel *kk, int kprec,
                          kernel_setup *s) {
    const dlp_device *d = c->d;
    if (c->pure || o->eff || !s->tensor_core || kprec != DLP__PREC_HALF || !s->curve) return;
    if (s->kclass != DLP_KC_GEMM && s->kclass != DLP_KC_BMM && !(s->kclass == DLP_KC_CONV && dense_conv(c->g, kk)))
        return;
    if (!d->vendor || strcmp(d->vendor, "nvidia") || d->sm_count <= 0 || !(d->boost_clock_mhz > 0)) return;
    double f = s->peak / ((double)d->sm_count * d->boost_clock_mhz * 1e6) / DLP__TC_REF_FLOP_CLK_SM;
    if (!(f > 0) || f >= 1) return;
    s->tc_floor = 1 + DLP__TC_TILE_OVERHEAD * f;
    s->tc_scale = s->tc_floor / (1 + DLP__TC_TILE_OVERHEAD);
}

/* A kernel's time under tc_rate_setup: the memory side at the curve's
 * ratio r, the compute side at r x scale but not under the tile floor. */
static double tc_rate_time(const kernel_setup *s, double flops, double bytes, double bw, double r) {
    double tm = bw > 0 ? bytes / bw : 0, tc = s->peak > 0 ? flops / s->peak : 0;
    return fmax(tm * r, fmax(tc * r * s->tc_scale, tc * s->tc_floor));
}

/* autocast's dtype casts (lower.c, "Autocast dtypes") are ATen's
 * vectorized copy kernel over a contiguous tensor: one read and one write
 * stream, the STREAM "scale" pattern, which runs at 0.89-0.94 of the DRAM
 * peak on Ampere/Hopper (gpu-benches gpu-stream: A100-40GB 1,381 of 1,555
 * GB/s, A40 -- GA102, the RTX 3090's chip -- 653 of 696; our H100's relu
 * and add over 2^27-2^28 elements 2,990-3,050 of 3,350,
 * data/measured/h100/ew.csv).  The elementwise curve, fitted on NeuSight's
 * smaller fp32 kernels, extrapolates to 1.3-1.4x the bandwidth time at
 * these sizes (our H100's large relu/add: measured 1.11-1.13x).  ratio =
 * exp(a) = 1 / 0.90. */
static const dlp_eff_curve stream_copy = {0.10536, 0, 0, 0};

/* cuDNN 8's channels_last grouped forward.  A grouped convolution (1 <
 * groups, not depthwise) whose group width is not a power of two does not
 * run on cuDNN 8's tensor-core implicit GEMMs in NHWC: it runs the grouped
 * direct kernel (`conv2d_grouped_direct_kernel`, CUDA cores), the forward
 * beside the `wgrad2d_grouped_direct_kernel` that pytorch/pytorch#34977
 * profiles for a channels_last half grouped conv.  What the timm RTX 3090
 * rows show (docs/predict.md, "NHWC vs NCHW"): under PyTorch 2.1 (cuDNN
 * 8.9) RegNet's grouped convs of width 8, 16 and 128 run at the tensor-core
 * rate the curve gives, those of width 24 to 232 at 7-20 TFLOP/s, the
 * vector units' range; cuDNN 9 (PyTorch 2.4) runs every width but 24 and
 * 48 at the tensor-core rate.  Like the backward's direct kernels
 * (backward.c), a group narrower than DLP__GROUPED_REUSE_CH channels
 * reloads its inputs for fewer outputs: its time is that of (REUSE_CH /
 * width) x its FLOPs.  The share of the vector peak, DLP__GROUPED_FWD_EFF,
 * is fitted on the RegNet rows of the cuDNN 8 NHWC files and checked
 * leaving RegNetX or RegNetY out (docs/predict.md).  Half precision under
 * the runtimes that call cuDNN through ATen (eager, eager-1.x, compile) on
 * NVIDIA GPUs only; the pure roofline and a caller's curves keep the conv. */
#define DLP__GROUPED_FWD_EFF 0.45
static void grouped_direct_fwd(const pctx *c, const dlp_predict_opts *o, const dlp__kernel *kk, int prec,
                               kernel_setup *s) {
    if (c->pure || o->eff || prec != DLP__PREC_HALF || o->memfmt != DLP_MEMFMT_NHWC) return;
    if (kk->kclass != DLP_KC_CONV || kk->anchor < 0) return;
    if (o->runtime != DLP_RUNTIME_EAGER && o->runtime != DLP_RUNTIME_EAGER1X && o->runtime != DLP_RUNTIME_COMPILE)
        return;
    if (dlp__cudnn_major(o->runtime, o->cudnn) != 8 || !c->d->vendor || strcmp(c->d->vendor, "nvidia")) return;
    const dlp_node_info *ni = dlp_graph_node_at(c->g, kk->anchor);
    if (!ni || ni->n_inputs < 2) return;
    const dlp_tensor_info *x = dlp_graph_tensor_at(c->g, ni->inputs[0]);
    const dlp_tensor_info *w = dlp_graph_tensor_at(c->g, ni->inputs[1]);
    if (!x || !w || x->rank != 4 || w->rank != 4 || w->dims[1] <= 1 || x->dims[1] <= w->dims[1]) return;
    long long gw = w->dims[1];
    if (!(gw & (gw - 1))) return;   /* a power of two: the tensor-core kernels */
    double eff = DLP__GROUPED_FWD_EFF;
    /* the reuse rule as a lower rate, so that the kernel keeps its real
     * FLOPs in the kernel list and the work total */
    double reuse = dlp__grouped_reuse((double)gw);
    s->peak = dlp_device_peak_flops(c->d, DLP_DT_FLOAT, 0) * eff / reuse;
    s->tensor_core = 0;
    s->curve = NULL;
    s->tc_scale = s->tc_floor = 0;
    s->kname = "cudnn::conv2d_grouped_direct_kernel";
    s->source = "cudnn 8 NHWC grouped direct (vector peak share)";
}

static kernel_setup setup_kernel(const pctx *c, const dlp_predict_opts *o, const dlp__kernel *kk, int prec) {
    kernel_setup s = {0};
    s.kclass = kk->kclass;
    /* depthwise convolutions run on the vector units (cuDNN/MIOpen
     * depthwise kernels use no tensor cores); they are bandwidth-bound */
    int opc = kk->kclass == DLP_KC_CONV_DW ? DLP_OPC_ELEMENTWISE : kc_op_class(kk->kclass);
    s.peak = dlp__node_peak(c->d, opc, c->cdt, c->tf32, &s.tensor_core);
    /* kernels off the tensor cores keep the fp32 curves: PyTorch computes
     * them in fp32 registers, and their time is bytes / bandwidth, with the
     * bytes already at the compute dtype */
    int kprec = s.tensor_core ? prec : DLP__PREC_FP32;
    int sm = softmax_streams(c, kk);
    if (sm) {
        s.curve = kcurve_for(c, o, DLP_KC_ELEMENTWISE, DLP_OPC_ELEMENTWISE, kprec, &s.source);
        if (!c->pure && !o->eff)
            s.source = sm == 1 ? "neusight-fp32-v1:elementwise (warp softmax, row <= 1024)"
                               : "neusight-fp32-v1:elementwise (block softmax, rows in L1)";
    } else {
        s.curve = kcurve_for(c, o, kk->kclass, kk->op_class, kprec, &s.source);
    }
    if (dlp__is_autocast_cast(kk) && !c->pure && !o->eff && !c->trt) {
        s.curve = &stream_copy;
        s.source = "stream copy: 0.90 of DRAM bandwidth (gpu-benches gpu-stream)";
    }
    /* NeuSight's fp32 linear layers (M = batch x seq >= 128 tokens) all lie
     * at or above the ridge (v >= 0); below it the fitted intensity term
     * (c < 0) would make a GEMV slower than the GEMM of 8 rows over the same
     * weights (VGG11's classifier on an L4: 12x vs 7x the bandwidth bound).
     * A memory-bound kernel's time is its bytes': the curve is not
     * extrapolated below its data. */
    s.vmin = -INFINITY;
    if (!c->pure && !o->eff && kprec == DLP__PREC_FP32 && kk->kclass == DLP_KC_GEMM) s.vmin = 0;
    tc_rate_setup(c, o, kk, kprec, &s);
    grouped_direct_fwd(c, o, kk, prec, &s);
    return s;
}

/* The GEMM shape of a linear (one GEMM of every leading row: M = numel / N)
 * or bmm kernel (batch x M x N) from its anchor node's output and MACs;
 * 0 when they are not known. */
static int gemm_shape(const dlp_graph *g, const dlp__kernel *kk, dlp__gemm_shape *s) {
    const dlp_node_info *ni = dlp_graph_node_at(g, kk->anchor);
    if (!ni || ni->n_outputs < 1 || ni->macs <= 0) return 0;
    if (ni->op_class != DLP_OPC_GEMM && ni->op_class != DLP_OPC_MATMUL) return 0;
    const dlp_tensor_info *t = dlp_graph_tensor_at(g, ni->outputs[0]);
    if (!t || !t->shape_known || t->rank < 1 || t->numel <= 0) return 0;
    double n = (double)t->dims[t->rank - 1], numel = (double)t->numel;
    double m = kk->kclass == DLP_KC_BMM && t->rank >= 3 ? (double)t->dims[t->rank - 2] : numel / (n > 0 ? n : 1);
    if (!(n >= 1) || !(m >= 1)) return 0;
    double batch = numel / (m * n);
    double k = round((double)ni->macs / numel);
    if (!(batch >= 1) || !(k >= 1)) return 0;
    *s = (dlp__gemm_shape){batch, m, n, k, 0, 0};
    return 1;
}

/* A dense 1x1 convolution is a GEMM: each output pixel is the dot product
 * of its Cin input channels with each of the Cout filters, so M = N x Ho x
 * Wo rows, N = Cout, K = Cin, and cuDNN runs it as that implicit GEMM (no
 * neighbourhood to gather; a stride only skips rows).  Its backward is two
 * more GEMMs: dgrad M x Cin over K = Cout, wgrad Cout x Cin over K = M.
 * NeuSight's conv table, which the fp32 conv curve was fitted on, holds
 * only 3x3 stride-1 convolutions (most of them Winograd); the SGEMM tables
 * the wave model was fitted on are the kernels a 1x1 conv runs.  pass: 0
 * forward, 1 dgrad, 2 wgrad; 0 returned when kk is no dense 1x1 conv. */
static int conv1x1_gemm(const dlp_graph *g, const dlp__kernel *kk, int pass, dlp__gemm_shape *s) {
    if (!kk || kk->kclass != DLP_KC_CONV || kk->anchor < 0) return 0;
    const dlp_node_info *ni = dlp_graph_node_at(g, kk->anchor);
    if (!ni || ni->n_inputs < 2 || ni->n_outputs < 1 || ni->macs <= 0) return 0;
    const dlp_tensor_info *x = dlp_graph_tensor_at(g, ni->inputs[0]);
    const dlp_tensor_info *w = dlp_graph_tensor_at(g, ni->inputs[1]);
    const dlp_tensor_info *y = dlp_graph_tensor_at(g, ni->outputs[0]);
    if (!x || !w || !y || x->rank != 4 || w->rank != 4 || w->dims[2] != 1 || w->dims[3] != 1) return 0;
    if (y->rank != 4 || !y->shape_known || y->numel <= 0 || w->dims[0] <= 0 || w->dims[1] <= 0) return 0;
    /* dense: each filter reads all Cin input channels (a grouped conv's
     * filter reads Cin / groups: one GEMM per group) */
    if (x->dims[1] != w->dims[1]) return 0;
    double co = (double)w->dims[0], ci = (double)w->dims[1], m = (double)y->numel / co;
    if (fabs((double)ni->macs - (double)y->numel * ci) > 0.5) return 0;
    switch (pass) {
    case 0: *s = (dlp__gemm_shape){1, m, co, ci, 0, 0}; break;
    case 1: *s = (dlp__gemm_shape){1, m, ci, co, 0, 0}; break;
    default: *s = (dlp__gemm_shape){1, co, ci, m, 0, 0}; break;
    }
    return 1;
}

/* Tiles and waves (waves.c) for an fp32 linear or bmm kernel, or a dense
 * 1x1 convolution's GEMM (pass as conv1x1_gemm), on the vector units, where
 * the wave model has parameters; 0 otherwise (the curve times it).  Applies
 * with the built-in curves or a caller's: a caller's dlp_efficiency still
 * times every other class. */
static double wave_time(const pctx *c, const dlp__kernel *kk, const kernel_setup *ks, int prec, int pass,
                        const char **source) {
    if (c->pure || c->trt || ks->tensor_core || !kk) return 0;
    if (prec != DLP__PREC_FP32 || c->cdt != DLP_DT_FLOAT) return 0;
    const dlp__wave_params *wp = dlp__wave_params_builtin(DLP__PREC_FP32);
    dlp__gemm_shape s;
    if (!wp) return 0;
    if (kk->kclass == DLP_KC_CONV) {
        if (!conv1x1_gemm(c->g, kk, pass, &s)) return 0;
    } else if ((kk->kclass != DLP_KC_GEMM && kk->kclass != DLP_KC_BMM) || !gemm_shape(c->g, kk, &s)) {
        return 0;
    } else if (pass) {
        /* Y = A.B, M x N over K: dA = dY.B^T is M x K over N (pass 1), dB =
         * A^T.dY is K x N over M (pass 2); backward.c matmul_backward */
        dlp__gemm_shape f = s;
        s.n = pass == 1 ? f.k : f.n;
        s.m = pass == 1 ? f.m : f.k;
        s.k = pass == 1 ? f.n : f.m;
    }
    s.elem_bytes = dlp__elem_bytes(c->cdt);
    double t = dlp__wave_gemm_time(wp, c->d, ks->peak, c->bw, &s, NULL);
    if (t > 0) *source = "neusight-fp32-waves-v1:linear+bmm";
    return t;
}

/* AMD GPUs: a softmax over rows longer than the warp softmax takes is
 * PyTorch's one-workgroup-per-row kernel, whose rate on CDNA is set by CUs x
 * clock (waves.h, dlp__amd_softmax_time; docs/predict.md, "AMD GPUs").  That
 * rate is a floor under the curve's time: add_kernels times the kernel by
 * the later of the two, so the curve is evaluated once, there. */
static void amd_block_softmax(const pctx *c, const dlp__kernel *kk, kernel_setup *ks) {
    if (c->pure || c->trt || !dlp__is_amd_gpu(c->d) || kk->kclass != DLP_KC_SOFTMAX || softmax_streams(c, kk)) return;
    const dlp_node_info *ni = dlp_graph_node_at(c->g, kk->anchor);
    const dlp_tensor_info *y = ni && ni->n_outputs > 0 ? dlp_graph_tensor_at(c->g, ni->outputs[0]) : NULL;
    if (!y || !y->shape_known || y->numel <= 0) return;
    ks->floor_s = dlp__amd_softmax_time(dlp__amd_softmax_builtin(), c->d, (double)y->numel, dlp__softmax_row(c->g, kk));
    ks->floor_source = "amd block softmax (rows per CU-clock)";
}

/* Which GEMM of a conv's or a linear/bmm's backward a row is (1 data
 * gradient, 2 weight gradient: conv1x1_gemm's and wave_time's pass; -1:
 * none): backward.c names them */
static int bwd_gemm_pass(const char *name) {
    if (!name) return -1;
    if (!strcmp(name, DLP__CONV_DGRAD) || !strcmp(name, DLP__MM_DGRAD)) return 1;
    if (!strcmp(name, DLP__CONV_WGRAD) || !strcmp(name, DLP__MM_WGRAD)) return 2;
    return -1;
}

/* Add `n` kernels of (flops, bytes) each; returns the seconds (launch
 * overhead included), adds energy to *energy and, when the list has room,
 * appends a row (*row_out). */
static double add_kernels(pctx *c, int n, const kernel_setup *s, double flops, double bytes, double *energy,
                          double *kernel_s_out, double *ratio_out, dlp_kernel_pred **row_out) {
    if (row_out) *row_out = NULL;
    if (n <= 0) return 0;
    double roof = dlp__roof_time(flops, bytes, s->peak, c->bw);
    double ks = roof;
    if (s->wave_s > 0) {
        ks = fmax(s->wave_s, roof);
    } else if (s->curve && roof > 0) {
        double u, v;
        dlp__eff_features(roof, flops, bytes, s->peak, c->bw, &u, &v);
        double r = dlp__eff_ratio_uv(s->curve, u, v < s->vmin ? s->vmin : v);
        ks = s->tc_scale > 0 ? tc_rate_time(s, flops, bytes, c->bw, r) : roof * r;
    }
    const char *source = s->source;
    if (s->floor_s > ks) ks = s->floor_s, source = s->floor_source;
    if (ks < c->floor_s) ks = c->floor_s;
    double u = ks > 0 ? roof / ks : 0;       /* achieved share of the bound peak */
    double share = DLP__POWER_BUSY + DLP__POWER_UTIL * u;
    /* Clocks under the power cap (DVFS; docs/predict.md): the kernel's draw
     * at boost; where it exceeds the board limit the clock drops to the
     * share s of boost whose draw meets it.  Dynamic power ~ f V^2 with V
     * tracking f: idle + (P - idle) s^3 = limit, and as s kv^2 below the
     * voltage floor at s = kv.  The core clock sets the
     * compute time (peak x s); the memory clock is fixed, so a memory-bound
     * kernel barely moves.  The efficiency ratio is kept. */
    double pw = c->p_idle + (c->p_boost - c->p_idle) * share;
    double clk = dlp__dvfs_clock_mem(c->p_idle, ks > 0 ? dlp__mem_power_w(c->d, bytes / ks) : 0, c->p_boost, c->p_tdp,
                                     share);   /* the DRAM's draw does not scale with the core clock */
    if (clk < 1) {
        double tc = s->peak > 0 ? flops / s->peak : 0, tm = bytes / c->bw;
        double capped = fmax(tc / clk, tm);
        if (roof > 0) ks *= capped / roof;
        pw = c->p_tdp;
        u = ks > 0 ? roof / ks : 0;
    }
    double e = n * (ks * pw + c->launch_s * c->p_idle);
    double t = n * (ks + c->launch_s);
    if (c->host_s > 0) {
        /* the host issues one kernel every host_s; the GPU runs each at the
         * later of the previous one's end and its issue time: waiting for
         * the host is idle time (eager PyTorch on a fast GPU at small batch) */
        double gpu = c->time_s, stall = 0;
        for (int i = 0; i < n; i++) {
            c->host_clock += c->host_s;
            if (gpu < c->host_clock) stall += c->host_clock - gpu, gpu = c->host_clock;
            gpu += ks + c->launch_s;
        }
        t += stall;
        e += stall * c->p_idle;
    }
    c->time_s += t;
    c->energy_j += e;
    c->busy_s += n * ks;
    c->clock_s += n * ks * clk;
    c->util_s += n * ks * u;
    c->flops += n * flops;
    c->bytes += n * bytes;
    c->kernels += n;
    if (energy) *energy += e;
    if (kernel_s_out) *kernel_s_out = ks;
    if (ratio_out) *ratio_out = roof > 0 ? ks / roof : 1;
    if (row_out && c->rows && c->n_rows < c->max_rows) {
        dlp_kernel_pred *r = &c->rows[c->n_rows++];
        r->node = -1;
        r->count = n;
        r->flops = flops;
        r->bytes = bytes;
        r->peak_flops = s->peak;
        r->tensor_core = s->tensor_core;
        r->ratio = roof > 0 ? ks / roof : 1;
        r->kernel_ms = 1e3 * ks;
        r->time_ms = 1e3 * t;
        r->bound = s->peak > 0 && flops / s->peak > bytes / c->bw ? 'c' : 'm';
        r->curve = source;
        r->kclass = s->kclass;
        *row_out = r;
    }
    return t;
}

typedef struct {
    double weights, activations, gradients, optimizer, workspace;
    double params, n_param_tensors;      /* float initializers */
    double cast_params, cast_tensors;    /* of which autocast casts: weights
                                            (rank >= 2) of conv/gemm/matmul */
} mem_parts;

/* Weights, peak live activations (inference) or saved activations
 * (training), and the workspace.  root[] maps views to their storage. */
static int memory_model(pctx *c, const int *kind, const unsigned char *internal, double saved_bwd, mem_parts *m) {
    const dlp_graph *g = c->g;
    int n = dlp_graph_node_count(g), nt = dlp_graph_tensor_count(g);
    int *root = malloc(sizeof(int) * (size_t)(nt ? nt : 1));
    int *last = malloc(sizeof(int) * (size_t)(nt ? nt : 1));
    double *free_at = calloc((size_t)n + 1, sizeof(double));
    unsigned char *used = calloc((size_t)(nt ? nt : 1), 1);
    if (!root || !last || !free_at || !used) {
        free(root), free(last), free(free_at), free(used);
        return -1;
    }
    for (int t = 0; t < nt; t++) root[t] = t, last[t] = -1;
    double max_conv_out = 0, max_out = 0;
    int any_blas = 0;
    for (int i = 0; i < n; i++) {
        dlp_node_info ni;
        ni = *dlp_graph_node_at(g, i);
        for (int k = 0; k < ni.n_inputs; k++) {
            int t = ni.inputs[k];
            if (t < 0) continue;
            /* 2: read by a conv/gemm/matmul, which autocast feeds half copies */
            used[t] |= is_tensor_class(ni.op_class) ? 3 : 1;
            if (last[root[t]] < i) last[root[t]] = i;
        }
        if (kind[i] == NK_VIEW && ni.n_inputs > 0 && ni.inputs[0] >= 0)
            for (int o = 0; o < ni.n_outputs; o++)
                if (ni.outputs[o] >= 0) root[ni.outputs[o]] = root[ni.inputs[0]];
        if (ni.op_class == DLP_OPC_GEMM || ni.op_class == DLP_OPC_MATMUL) any_blas = 1;
        if (kind[i] == NK_KERNEL && !internal[i])
            for (int o = 0; o < ni.n_outputs; o++) {
                if (ni.outputs[o] < 0) continue;
                dlp_tensor_info t;
                t = *dlp_graph_tensor_at(g, ni.outputs[o]);
                double b = dlp__tensor_bytes_at(&t, c->cdt);
                if (b > max_out) max_out = b;
                if (ni.op_class == DLP_OPC_CONV && b > max_conv_out) max_conv_out = b;
            }
    }
    /* weights, inputs; graph outputs stay to the end */
    double live = 0, saved = 0;
    for (int t = 0; t < nt; t++) {
        dlp_tensor_info ti;
        ti = *dlp_graph_tensor_at(g, t);
        double b = dlp__tensor_bytes_at(&ti, c->cdt);
        if (ti.is_output) last[root[t]] = n;
        if (ti.is_initializer) {
            if (!used[t] || b < 0) continue;
            if (is_float_storage(ti.dtype) && ti.numel >= 0) {
                m->params += (double)ti.numel;
                m->n_param_tensors += 1;
                if ((used[t] & 2) && ti.rank >= 2) m->cast_params += (double)ti.numel, m->cast_tensors += 1;
                /* training keeps fp32 master weights whatever the compute type */
                m->weights += c->train ? 4.0 * (double)ti.numel : b;
            } else {
                m->weights += b;
            }
        } else if (ti.producer < 0 && ti.is_input && b > 0) {
            live += b;                       /* held by the caller all along */
            saved += b;
        }
    }
    for (int t = 0; t < nt; t++) {
        dlp_tensor_info ti;
        ti = *dlp_graph_tensor_at(g, t);
        if (ti.producer < 0 || root[t] != t || kind[ti.producer] == NK_VIEW || internal[ti.producer]) continue;
        double b = dlp__tensor_bytes_at(&ti, c->cdt);
        if (b <= 0) continue;
        int at = last[t] >= 0 ? last[t] : ti.producer;   /* never read: freed at once */
        if (at < n) free_at[at] += b;
    }
    double peak = live;
    for (int i = 0; i < n; i++) {
        dlp_node_info ni;
        ni = *dlp_graph_node_at(g, i);
        if (kind[i] != NK_VIEW && !internal[i])
            for (int o = 0; o < ni.n_outputs; o++) {
                int t = ni.outputs[o];
                if (t < 0 || root[t] != t) continue;
                dlp_tensor_info ti;
                ti = *dlp_graph_tensor_at(g, t);
                double b = dlp__tensor_bytes_at(&ti, c->cdt);
                if (b <= 0) continue;
                live += b;
                if (kind[i] == NK_KERNEL) saved += b;
            }
        if (live > peak) peak = live;      /* inputs and outputs coexist */
        live -= free_at[i];
    }
    /* Training keeps what each kernel's backward reads (saved_bwd,
     * backward.c: conv and matmul their inputs, BatchNorm its input, ReLU
     * its output, Add nothing, ...; every kernel output when it could not be
     * computed) plus two gradient buffers of the largest activation in
     * flight. */
    m->activations = c->train ? (saved_bwd >= 0 ? saved_bwd : saved) + 2 * max_out : peak;
    if (c->train) {
        m->gradients = 4.0 * m->params;
        if (c->cdt != DLP_DT_FLOAT) m->weights += m->params * dlp__elem_bytes(c->cdt); /* autocast cache */
    }
    double ws = 0;
    if (any_blas) ws += (c->d->cc_major >= 9 ? DLP__CUBLAS_WS_MIB_SM90 : DLP__CUBLAS_WS_MIB) * 1048576.0;
    if (max_conv_out > 0) ws += fmin(max_conv_out, DLP__CONV_WS_CAP_MIB * 1048576.0);
    m->workspace = ws;
    free(root), free(last), free(free_at), free(used);
    return 0;
}

void dlp_prediction_clear(dlp_prediction *p) {
    if (!p) return;
    free(p->nodes);
    p->nodes = NULL;
    p->n_nodes = 0;
    free(p->kernel_rows);
    p->kernel_rows = NULL;
    p->n_kernel_rows = 0;
}

/* ---- the analytic estimate, step by step -------------------------------------- */

/* The compute type the options ask for (the file's when none), or a refusal:
 * a dtype predict has no curves for, a quantised type in training, a
 * precision the device lacks, an option out of range, a device without the
 * numbers the roofline needs.  *cdt gets the type. */
static dlp_status check_options(const dlp_graph *g, const dlp_device *d, const dlp_predict_opts *o, int *cdt_out,
                                dlp_error *err) {
    if (o->mode != DLP_PREDICT_INFER && o->mode != DLP_PREDICT_TRAIN) {
        dlp__err(err, DLP_EINVAL, "predict: mode must be inference or training");
        return DLP_EINVAL;
    }
    int cdt = o->dtype ? o->dtype : file_float_dtype(g);
    if (cdt == DLP_DT_FLOAT8E4M3FNUZ || cdt == DLP_DT_FLOAT8E5M2 || cdt == DLP_DT_FLOAT8E5M2FNUZ)
        cdt = DLP_DT_FLOAT8E4M3FN;   /* one fp8 class: same peak, same bytes */
    if (cdt != DLP_DT_FLOAT && cdt != DLP_DT_FLOAT16 && cdt != DLP_DT_BFLOAT16 && cdt != DLP_DT_INT8 &&
        cdt != DLP_DT_FLOAT8E4M3FN && cdt != DLP_DT_FLOAT4E2M1) {
        dlp__err(err, DLP_EINVAL, "predict: dtype %s is not supported (fp32, fp16, bf16, fp8, fp4, int8)",
                dlp_dtype_name(cdt));
        return DLP_EINVAL;
    }
    if (o->mode == DLP_PREDICT_TRAIN && (cdt == DLP_DT_INT8 || cdt == DLP_DT_FLOAT8E4M3FN || cdt == DLP_DT_FLOAT4E2M1)) {
        dlp__err(err, DLP_EINVAL, "predict: %s is for inference (quantised weights and activations); train in fp32, "
                "fp16 or bf16", cdt == DLP_DT_INT8 ? "int8" : cdt == DLP_DT_FLOAT4E2M1 ? "fp4" : "fp8");
        return DLP_EINVAL;
    }
    /* fp8/fp4 run only where the hardware has them: emulating them (an
     * upcast to fp16 before every GEMM) is a different program, and what
     * it costs depends on the library, so refuse with the reason */
    if ((cdt == DLP_DT_FLOAT8E4M3FN || cdt == DLP_DT_FLOAT4E2M1 || cdt == DLP_DT_BFLOAT16) &&
        d->kind != DLP_DEVICE_CPU && !dlp_device_supports_dtype(d, cdt)) {
        const char *what = cdt == DLP_DT_FLOAT8E4M3FN ? "fp8" : cdt == DLP_DT_FLOAT4E2M1 ? "fp4" : "bf16";
        dlp__err(err, DLP_EINVAL,
                "predict: device '%s' (%s) has no %s tensor cores; %s needs %s (try --dtype %s)", d->id,
                d->arch ? d->arch : "?", what, what,
                cdt == DLP_DT_FLOAT8E4M3FN ? "Ada, Hopper, Blackwell or CDNA3+"
                : cdt == DLP_DT_FLOAT4E2M1 ? "Blackwell or CDNA4"
                                           : "Ampere or newer",
                cdt == DLP_DT_BFLOAT16 ? "fp16" : "fp16 or int8");
        return DLP_EINVAL;
    }
    if (o->tf32 < DLP_TF32_DEFAULT || o->tf32 > DLP_TF32_OFF || o->optimizer < DLP_OPTIM_ADAM ||
        o->optimizer > DLP_OPTIM_SGD_MOMENTUM || !(o->runs >= 0) || !(o->steps >= 0) ||
        !isfinite(o->runs) || !isfinite(o->steps) || o->batch < 0 || !isfinite(o->launch_us) ||
        !isfinite(o->mig_margin) || !(o->latency_slo_ms >= 0) || !isfinite(o->latency_slo_ms) ||
        !(o->host_us >= 0) || !isfinite(o->host_us)) {
        dlp__err(err, DLP_EINVAL, "predict: an option is out of range (tf32, optimizer, runs, steps, "
                                 "batch, launch, host, margin or SLO)");
        return DLP_EINVAL;
    }
    if (d->mem_bandwidth_gbs <= 0 || dlp_device_peak_flops(d, DLP_DT_FLOAT, 0) <= 0) {
        dlp__err(err, DLP_EINVAL, "predict: device '%s' has no FP32 peak or bandwidth in the database", d->id);
        return DLP_EINVAL;
    }
    *cdt_out = cdt;
    return DLP_OK;
}

/* The device's side of the context: bandwidth, launch gap and kernel floor,
 * and the power model (idle, limit, boost); refuses a limit at or below the
 * idle draw. */
static dlp_status init_ctx(pctx *c, const dlp_graph *g, const dlp_device *d, const dlp_predict_opts *o, int cdt,
                           dlp_error *err) {
    c->g = g;
    c->d = d;
    c->cdt = cdt;
    c->train = o->mode == DLP_PREDICT_TRAIN;
    c->tf32 = o->tf32;
    c->bw = d->mem_bandwidth_gbs * 1e9;
    c->l2_bytes = d->l2_cache_mb * 1048576.0;
    c->bw_l2 = d->kind != DLP_DEVICE_CPU ? d->l2_bandwidth_gbs * 1e9 : 0;
    c->launch_s = (o->launch_us == 0 ? DLP_PREDICT_LAUNCH_US : o->launch_us < 0 ? 0 : o->launch_us) * 1e-6;
    /* TensorRT replays an engine: no per-kernel host work to wait for */
    c->host_s = d->kind != DLP_DEVICE_CPU && o->runtime != DLP_RUNTIME_TENSORRT && o->host_us > 0 ? o->host_us * 1e-6 : 0;
    c->pure = o->pure_roofline;
    c->trt = o->runtime == DLP_RUNTIME_TENSORRT;
    /* without launch gaps a kernel still costs its device minimum (a CPU
     * always has its dispatch overhead) */
    c->floor_s = d->kind != DLP_DEVICE_CPU && c->launch_s == 0 ? DLP__NOGAP_KERNEL_FLOOR_US * 1e-6 : 0;
    c->p_tdp = d->tdp_w > 0 ? d->tdp_w : 0;
    if (o->power_limit_w > 0 && o->power_limit_w < c->p_tdp) c->p_tdp = o->power_limit_w;
    c->p_idle = dlp__device_idle_w(d);
    c->p_boost = fmax(d->boost_power_w, d->tdp_w);
    if (c->p_tdp > 0 && c->p_idle >= c->p_tdp) {
        dlp__err(err, DLP_EINVAL, "predict: power limit %g W is not above the idle draw of '%s' (%g W)", c->p_tdp,
                d->id, c->p_idle);
        return DLP_EINVAL;
    }
    return DLP_OK;
}

/* Per node: whether it is a kernel, a free view or nothing (kind[]),
 * whether its outputs stay inside a fused kernel (internal[], never
 * allocated), and its row of the node table. */
static void classify_nodes(const pctx *c, const dlp__lowered *L, dlp_prediction *out, int *kind,
                           unsigned char *internal) {
    const dlp_graph *g = c->g;
    for (int i = 0; i < out->n_nodes; i++) {
        dlp_node_info ni;
        ni = *dlp_graph_node_at(g, i);
        int k = L->node_kernel[i];
        kind[i] = k >= 0 ? NK_KERNEL : L->node_view[i] ? NK_VIEW : NK_FREE;
        dlp_node_pred *np = &out->nodes[i];
        np->node = i;
        np->op_class = ni.op_class;
        np->ratio = 1;
        np->fused_into = k >= 0 && L->k[k].anchor != i ? L->k[k].anchor : -1;
        /* a member whose outputs never leave its kernel is never allocated */
        if (k >= 0 && L->k[k].n > 1) {
            int ext = 0;
            for (int q = 0; q < ni.n_outputs; q++) {
                if (ni.outputs[q] < 0) continue;
                dlp_tensor_info ti;
                ti = *dlp_graph_tensor_at(g, ni.outputs[q]);
                if (ti.is_output) ext = 1;
                for (int m = 0; m < ni.n_succs && !ext; m++)
                    if (L->node_kernel[ni.succs[m]] != k && L->node_kernel[ni.succs[m]] >= 0) ext = 1;
            }
            internal[i] = !ext;
        }
        if (!ni.known_op && k >= 0) np->unknown = 1, out->n_unknown++;
    }
}

/* A training BatchNorm in NCHW runs cuDNN's per-channel kernels
 * (backward.h, DLP__BN_NCHW_CTA_GBS): where their floor exceeds the
 * bandwidth bound, the kernel's rate is the floor's (no curve). */
static void bn_nchw_limit(const pctx *c, const dlp_predict_opts *o, const dlp__lowered *L, const dlp__kernel *kk,
                          double flops, double bytes, kernel_setup *s) {
    if (!c->train || c->pure || flops <= 0) return;
    dlp__bwd_ctx b = {c->g, L, o->runtime, o->memfmt, c->cdt, NULL, o->cudnn};
    double fl = dlp__bn_nchw_floor_s(&b, kk, bytes);
    if (fl <= bytes / c->bw) return;
    s->curve = NULL;
    s->peak = flops / fl;
    s->tensor_core = 0;
    s->source = "cudnn NCHW batch norm (per-channel CTAs)";
}

/* ---- L2 residency of a producer -> consumer chain ------------------------------------
 * A kernel's output that the next kernel reads is still in L2 when that
 * next kernel starts if neither kernel moves more bytes than the L2 holds
 * (LRU: the newest lines are the ones written last).  Those bytes then move
 * at L2 bandwidth: the consumer's read hits, and the producer's write stays
 * in the write-back L2 (the runtime's activation pool hands the same few
 * buffers round, so the dirty lines are overwritten before they are
 * evicted).  Only the direct link counts (a residual read three kernels
 * later may have been evicted), only inference (training's backward reads
 * the saved activations long after), and only devices whose L2 bandwidth
 * devices.json gives with a source (l2_bandwidth_gbs; 0: the rule is off).
 * Worked example in docs/predict.md ("L2 residency"). */

/* 1 when kernel j reads a tensor written by kernel i (through views) */
static int kernel_reads(const pctx *c, const dlp__lowered *L, int j, int i) {
    for (int m = 0; m < L->k[j].n; m++) {
        const dlp_node_info *ni = dlp_graph_node_at(c->g, L->members[L->k[j].first + m]);
        for (int p = 0; ni && p < ni->n_preds; p++) {
            int q = ni->preds[p], kq = L->node_kernel[q];
            if (kq < 0 && L->node_view && L->node_view[q]) {
                const dlp_node_info *vi = dlp_graph_node_at(c->g, q);
                kq = vi && vi->n_preds == 1 ? L->node_kernel[vi->preds[0]] : -1;
            }
            if (kq == i) return 1;
        }
    }
    return 0;
}

/* The bytes of forward kernel k that L2 serves: its read of the previous
 * kernel's output and its write that the next kernel reads, each when both
 * kernels of the link fit in L2; 0 when the rule does not apply. */
static double l2_link_bytes(const pctx *c, const dlp__lowered *L, int k) {
    if (c->train || c->bw_l2 <= 0 || c->l2_bytes <= 0) return 0;
    const dlp__kernel *kk = &L->k[k];
    if (kk->bytes > c->l2_bytes) return 0;
    double hit = 0, in_max = kk->bytes - kk->out_bytes;
    if (k > 0 && L->k[k - 1].bytes <= c->l2_bytes && kernel_reads(c, L, k, k - 1))
        hit += fmin(L->k[k - 1].out_bytes, in_max > 0 ? in_max : 0);
    if (k + 1 < L->n && L->k[k + 1].bytes <= c->l2_bytes && kernel_reads(c, L, k + 1, k)) hit += kk->out_bytes;
    return fmin(hit, kk->bytes);
}

/* The forward pass: one kernel per lowered kernel, summed into the node
 * that anchors it. */
static void time_forward(pctx *c, const dlp_predict_opts *o, const dlp__lowered *L, int prec, dlp_prediction *out) {
    for (int k = 0; k < L->n; k++) {
        const dlp__kernel *kk = &L->k[k];
        dlp_node_pred *np = &out->nodes[kk->anchor];
        kernel_setup ks = setup_kernel(c, o, kk, prec);
        bn_nchw_limit(c, o, L, kk, kk->flops, kk->bytes, &ks);
        ks.wave_s = wave_time(c, kk, &ks, prec, 0, &ks.source);
        if (ks.wave_s <= 0) amd_block_softmax(c, kk, &ks);
        dlp_kernel_pred *row = NULL;
        double kms = 0;
        double ratio = 1;
        /* L2-served bytes cost DRAM-equivalent bytes x bw / bw_l2, on the
         * roofline's kernels only: a curve's (or the wave model's) ratio was
         * fitted on measured kernel times, whose L2 hits it already holds */
        double l2b = !ks.curve && ks.wave_s <= 0 ? l2_link_bytes(c, L, k) : 0;
        double bytes = l2b > 0 ? kk->bytes - l2b + l2b * c->bw / c->bw_l2 : kk->bytes;
        np->time_ms += 1e3 * add_kernels(c, 1, &ks, kk->flops, bytes, &np->energy_j, &kms, &ratio, &row);
        if (row) {
            snprintf(row->name, sizeof row->name, "%s", ks.kname ? ks.kname : kk->name);
            row->node = kk->anchor;
            row->n_nodes = kk->n;
            row->phase = 0;
        }
        /* a node may anchor more than one kernel (a conv and the BatchNorm the
         * exporter folded into it): the node's row sums them, the main one
         * (the first) sets its unit, ratio and bound */
        if (np->kernels++ == 0) {
            np->peak_flops = ks.peak;
            np->tensor_core = ks.tensor_core;
            np->ratio = ratio;
            np->bound = kk->flops / ks.peak > bytes / c->bw ? 'c' : 'm';
        }
        np->flops += kk->flops;
        np->bytes += bytes;
        np->kernel_ms += 1e3 * kms;
    }
}

/* The unit a backward row runs on (backward.h): the forward kernel's, the
 * fp32 vector units on the elementwise or reduction curve, or a kernel
 * implementation with a known share of the vector peak (no curve: the
 * share is the efficiency; the pure roofline drops it). */
static kernel_setup backward_setup(const pctx *c, const dlp_predict_opts *o, const dlp__kernel *kk, int prec,
                                   int unit) {
    if (unit == DLP__BWD_FWD && kk) return setup_kernel(c, o, kk, prec);
    kernel_setup s = {0};
    s.vmin = -INFINITY;
    s.peak = dlp_device_peak_flops(c->d, DLP_DT_FLOAT, 0);
    int red = unit == DLP__BWD_REDUCE;
    s.kclass = red ? DLP_KC_REDUCE : DLP_KC_ELEMENTWISE;
    if (unit == DLP__BWD_GROUPED || unit == DLP__BWD_DW_WGRAD) {
        s.kclass = kk ? kk->kclass : DLP_KC_CONV;
        if (c->pure) {
            s.source = "pure roofline";
        } else {
            s.peak *= unit == DLP__BWD_GROUPED ? DLP__GROUPED_DIRECT_EFF : DLP__DW_WGRAD_EFF;
            s.source = unit == DLP__BWD_GROUPED ? "cudnn grouped direct (vector peak share)"
                                                : "depthwise wgrad (vector peak share)";
        }
        return s;
    }
    s.curve = kcurve_for(c, o, s.kclass, red ? DLP_OPC_REDUCE : DLP_OPC_ELEMENTWISE, DLP__PREC_FP32, &s.source);
    return s;
}

/* Time the rows of one backward list into node np (NULL: none); phase
 * 1 = backward, 2 = per-parameter step work.  Returns the seconds. */
static double time_bwd_rows(pctx *c, const dlp_predict_opts *o, const dlp__lowered *L, const dlp__kernel *kk,
                            int prec, const dlp__bwd_kernel *r, int nr, dlp_node_pred *np, int phase) {
    double t = 0;
    for (int i = 0; i < nr; i++) {
        kernel_setup ks = backward_setup(c, o, kk, prec, r[i].unit);
        if (r[i].bn && kk) bn_nchw_limit(c, o, L, kk, r[i].flops, r[i].bytes, &ks);
        int pass = r[i].unit == DLP__BWD_FWD ? bwd_gemm_pass(r[i].name) : -1;
        if (pass > 0) ks.wave_s = wave_time(c, kk, &ks, prec, pass, &ks.source);
        dlp_kernel_pred *row = NULL;
        t += add_kernels(c, r[i].count, &ks, r[i].flops, r[i].bytes, np ? &np->energy_j : NULL, NULL, NULL, &row);
        if (row) {
            snprintf(row->name, sizeof row->name, "%s", r[i].name);
            row->node = kk ? kk->anchor : -1;
            row->n_nodes = kk ? kk->n : 0;
            row->phase = phase;
        }
    }
    return t;
}

/* Backward, per forward kernel (docs/predict.md, "Training"): the kernels
 * backward.c lists for it, then the adds that sum the gradients of its
 * outputs where several kernels read them. */
static void time_backward(pctx *c, const dlp_predict_opts *o, const dlp__lowered *L, int prec, dlp_prediction *out) {
    unsigned char *rg = dlp__requires_grad(c->g);   /* once, not per kernel; NULL: per call */
    dlp__bwd_ctx b = {c->g, L, o->runtime, o->memfmt, c->cdt, rg, o->cudnn};
    for (int k = L->n - 1; k >= 0; k--) {
        const dlp__kernel *kk = &L->k[k];
        dlp_node_pred *np = &out->nodes[kk->anchor];
        dlp__bwd_kernel r[4];
        int nr = dlp__backward_kernels(&b, k, r, 4);
        double fb = 0;
        int adds = dlp__backward_fork_adds(&b, k, &fb);
        if (adds > 0 && nr < 4) {
            r[nr].name = "aten::add (gradient accumulation)";
            r[nr].unit = DLP__BWD_VECTOR;
        r[nr].bn = 0;
            r[nr].bn = 0;
            r[nr].count = adds;
            r[nr].bytes = fb / adds;
            r[nr].flops = r[nr].bytes / (3.0 * dlp__elem_bytes(c->cdt));
            nr++;
        }
        np->bwd_ms += 1e3 * time_bwd_rows(c, o, L, kk, prec, r, nr, np, 1);
    }
    free(rg);
}

/* The step's per-parameter work (backward.c: cast backward, gradient
 * accumulation, optimizer, GradScaler) and the optimizer state's bytes; in
 * mixed precision the casts autocast makes of every conv/linear weight once
 * per step (read fp32, write the half copy, one kernel each). */
static void time_optimizer(pctx *c, const dlp_predict_opts *o, mem_parts *m) {
    int half = c->cdt == DLP_DT_FLOAT16 || c->cdt == DLP_DT_BFLOAT16;
    dlp__bwd_kernel r[6];
    int nr = 0;
    if (half && m->cast_tensors >= 1) {
        r[nr].name = "aten::_to_copy (autocast)";
        r[nr].unit = DLP__BWD_VECTOR;
        r[nr].bn = 0;
        r[nr].count = (int)m->cast_tensors;
        r[nr].flops = 0;
        r[nr].bytes = m->cast_params / m->cast_tensors * (4.0 + dlp__elem_bytes(c->cdt));
        nr++;
    }
    nr += dlp__step_param_kernels(o->runtime, c->cdt, o->optimizer, m->params, m->n_param_tensors, m->cast_params,
                                  m->cast_tensors, r + nr, 6 - nr);
    time_bwd_rows(c, o, NULL, NULL, DLP__PREC_FP32, r, nr, NULL, 2);
    m->optimizer = (o->optimizer == DLP_OPTIM_ADAM ? 8.0 : o->optimizer == DLP_OPTIM_SGD_MOMENTUM ? 4.0 : 0) *
                   m->params;
}

/* What the run produced: the setting, time (forward alone: fwd_s/fwd_e),
 * band, energy, utilisation, and memory from its parts. */
static void fill_result(const pctx *c, const dlp_predict_opts *o, const mem_parts *m, double fwd_s, double fwd_e,
                        dlp_prediction *out) {
    const dlp_graph *g = c->g;
    const dlp_efficiency *eff = o->eff ? o->eff : dlp_efficiency_builtin();
    /* TensorRT keeps the pure roofline's band: most of its kernels are on
     * it, and the band holds the point either way (below) */
    const dlp_efficiency *band_src = o->pure_roofline || c->trt ? dlp_efficiency_pure() : eff;
    const double MiB = 1048576.0;
    int64_t batch = o->batch;
    if (batch <= 0) {
        dlp_graph_stats st;
        dlp_graph_stats_get(g, &st);
        batch = st.batch > 0 ? st.batch : 1;
    }
    out->mode = o->mode;
    out->runtime = o->runtime;
    out->memfmt = o->memfmt;
    out->dtype = c->cdt;
    out->optimizer = o->optimizer;
    out->batch = batch;
    snprintf(out->model, sizeof out->model, "%s", dlp_graph_name(g) ? dlp_graph_name(g) : "");
    snprintf(out->device, sizeof out->device, "%s", c->d->id);
    if (!c->pure && o->eff) snprintf(out->method, sizeof out->method, "roofline+%s", o->eff->name ? o->eff->name : "custom");
    else if (!c->pure && c->trt && dlp__prec_of_dtype(c->cdt) != DLP__PREC_FP32)
        snprintf(out->method, sizeof out->method, "roofline+%s:gemm+attention", dlp__curve_set_name(dlp__prec_of_dtype(c->cdt)));
    else if (!c->pure && !c->trt) snprintf(out->method, sizeof out->method, "roofline+%s", dlp__curve_set_name(dlp__prec_of_dtype(c->cdt)));
    else snprintf(out->method, sizeof out->method, "roofline");

    double total_s = c->time_s;
    out->latency_ms = 1e3 * fwd_s;
    out->step_ms = c->train ? 1e3 * total_s : 0;
    double unit_ms = c->train ? out->step_ms : out->latency_ms;
    /* the band always holds the estimate: the pure roofline's measured
     * quantiles (1.23-5.75x) lie above it, and a floor or a runtime the
     * quantiles were not measured on may put the point outside them */
    if (band_src && band_src->band_lo > 0 && band_src->band_hi >= band_src->band_lo) {
        out->band_lo_ms = unit_ms * fmin(band_src->band_lo, 1.0);
        out->band_hi_ms = unit_ms * fmax(band_src->band_hi, 1.0);
    }
    out->energy_j = c->train ? c->energy_j : fwd_e;
    out->utilisation = total_s > 0 ? c->util_s / total_s : 0;
    out->clock_share = c->busy_s > 0 ? c->clock_s / c->busy_s : 1;
    out->flops = c->flops;
    out->bytes = c->bytes;
    out->kernels = c->kernels;

    double tensors = m->weights + m->activations + m->gradients + m->optimizer + m->workspace;
    out->weights_mb = m->weights / MiB;
    out->activations_mb = m->activations / MiB;
    out->gradients_mb = m->gradients / MiB;
    out->optimizer_mb = m->optimizer / MiB;
    out->workspace_mb = m->workspace / MiB;
    /* a training step allocates the same sizes every step, so the caching
     * allocator's cached blocks fit them again: a smaller share */
    out->context_mb = DLP__CONTEXT_MIB + (c->train ? DLP__ALLOC_OVERHEAD_TRAIN : DLP__ALLOC_OVERHEAD) * tensors / MiB;
    out->memory_mb = out->weights_mb + out->activations_mb + out->gradients_mb + out->optimizer_mb +
                     out->workspace_mb + out->context_mb;
}

/* The analytic estimate (the "roofline" row of the estimator table in
 * predict.c): check -> lower -> time the forward pass -> memory ->
 * (training) backward and optimizer -> the result's time, energy, memory
 * parts and kernel list.  What follows from those (throughput, power, MIG,
 * cost, carbon) is derived once, in predict.c, whichever estimator
 * answered. */
dlp_status dlp__predict_analytic(const dlp_graph *g, const dlp_device *d, const dlp_predict_opts *opts,
                                 dlp_prediction *out, dlp_error *err) {
    /* dlp_predict has checked the pointers; tests call this row directly */
    if (!out || !g || !d) {
        dlp__err(err, DLP_EINVAL, "predict: no %s given", !out ? "output" : !g ? "graph" : "device");
        return DLP_EINVAL;
    }
    memset(out, 0, sizeof *out);
    dlp_predict_opts o = {0};
    if (opts) o = *opts;
    int cdt = 0;
    pctx c = {0};
    dlp_status st = check_options(g, d, &o, &cdt, err);
    if (!st) st = init_ctx(&c, g, d, &o, cdt, err);
    if (st) return st;

    int n = dlp_graph_node_count(g);
    int lflags = (o.fuse ? DLP__LOWER_FUSE : 0) | (o.no_sdpa ? DLP__LOWER_NO_SDPA : 0) |
                 (o.no_amp ? DLP__LOWER_NO_AMP : 0);
    dlp__lowered L;
    if ((st = dlp__lower(g, o.runtime, o.memfmt, c.train, cdt, lflags, &L, err))) return st;
    int *kind = malloc(sizeof(int) * (size_t)(n ? n : 1));
    unsigned char *internal = calloc((size_t)(n ? n : 1), 1);
    out->nodes = calloc((size_t)(n ? n : 1), sizeof *out->nodes);
    /* rows: forward kernels, their backward kernels, optimizer and casts */
    int max_rows = 5 * L.n + 8;
    out->kernel_rows = calloc((size_t)max_rows, sizeof *out->kernel_rows);
    mem_parts m = {0};
    if (kind && internal && out->nodes && out->kernel_rows) {
        out->n_nodes = n;
        c.rows = out->kernel_rows;
        c.max_rows = max_rows;
        classify_nodes(&c, &L, out, kind, internal);
        int prec = dlp__prec_of_dtype(cdt);
        time_forward(&c, &o, &L, prec, out);
        double fwd_s = c.time_s, fwd_e = c.energy_j;
        dlp__bwd_ctx bc = {g, &L, o.runtime, o.memfmt, cdt, NULL, o.cudnn};
        double saved_bwd = c.train ? dlp__saved_bytes(&bc) : -1;
        if (memory_model(&c, kind, internal, saved_bwd, &m)) {
            st = DLP_ENOMEM;
        } else {
            if (c.train) {
                time_backward(&c, &o, &L, prec, out);
                time_optimizer(&c, &o, &m);
            }
            fill_result(&c, &o, &m, fwd_s, fwd_e, out);
        }
    } else {
        st = DLP_ENOMEM;
    }
    out->n_kernel_rows = c.n_rows;
    free(kind), free(internal);
    dlp__lowered_free(&L);
    if (st) {
        dlp_prediction_clear(out);
        dlp__err(err, DLP_ENOMEM, "predict: out of memory");
    }
    return st;
}
