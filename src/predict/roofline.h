/*
 * roofline.h — internals of the analytic predictor (src/predict/roofline.c,
 * calib.c, roofline_svg.c) shared with the calibration benchmark
 * (bench/bench_roofline.c) and the unit tests.  Not public API.
 *
 * The per-kernel time model is in one place (dlp__kernel_time) so that the
 * whole-graph predictor, the calibration fit and its leave-one-GPU-out
 * evaluation all time a kernel the same way.
 */
#ifndef DLP_ROOFLINE_H
#define DLP_ROOFLINE_H

#include <stddef.h>

#include "dlperf.h"

/* ---- documented constants (docs/predict.md) ------------------------------ */

/* CUDA context + cuBLAS/cuDNN handles of a PyTorch 2.x process with lazy
 * module loading (CUDA >= 11.7), as nvidia-smi shows it before any tensor. */
#define DLP__CONTEXT_MIB 512.0
/* Caching-allocator overhead (block rounding, fragmentation), a share of
 * the tensor memory (weights, activations, gradients, optimizer, workspace). */
#define DLP__ALLOC_OVERHEAD 0.10
/* cuBLAS workspace PyTorch reserves: ":4096:2:16:8" = 8 MiB + 128 KiB, and
 * ":4096:8" = 32 MiB on compute capability 9.x (Hopper). */
#define DLP__CUBLAS_WS_MIB 8.125
#define DLP__CUBLAS_WS_MIB_SM90 32.0
/* Cap of the cuDNN convolution workspace estimate (largest conv output). */
#define DLP__CONV_WS_CAP_MIB 256.0
/* Power model: while a kernel runs the board draws
 * idle + (tdp - idle) * (BUSY + UTIL * u), u = achieved share of the bound
 * resource's peak; in launch gaps it draws idle. */
#define DLP__POWER_BUSY 0.6
#define DLP__POWER_UTIL 0.4
/* The board's idle draw: the database's, else a tenth of TDP. */
double dlp__device_idle_w(const dlp_device *d);
/* Average board power at `share` (0..1) of the way from idle to TDP,
 * never above TDP (predict's kernels, llm's analytic and serving models). */
double dlp__board_power_w(const dlp_device *d, double share);
/* Training: backward of a non-matmul op = 1 kernel, same FLOPs, this many
 * times the forward bytes (reads dY and a saved tensor, writes dX). */
#define DLP__BWD_BYTES_FACTOR 1.5
/* Tensors per multi-tensor-apply launch of PyTorch's foreach optimizers
 * (depth 4 = param, grad, exp_avg, exp_avg_sq for Adam). */
#define DLP__FOREACH_TENSORS 36
/* Minimum device time of one GPU kernel where the runtime leaves no launch
 * gap between kernels (TensorRT engines, --launch-us 0 / CUDA graphs):
 * launch-to-retire of a back-to-back kernel plus the prologue/epilogue of a
 * kernel too small to fill the GPU.  Checked on MLPerf Inference ResNet-50
 * SingleStream (TensorRT, batch 1, 56 kernels): 320-520 us per image on
 * A100/H100-PCIe/L4/L40S including host I/O, i.e. 6-9 us per kernel all in
 * (docs/predict.md, "Kernel floors"); 5 us is also eager's launch gap, so
 * no gap-free runtime is timed below eager for the same kernel. */
#define DLP__NOGAP_KERNEL_FLOOR_US 5.0
/* DVFS: the share of the boost clock below which the voltage stays at its
 * floor, so dynamic power falls only as f (above it V tracks f: f^3).
 * Fitted on Zeus's power-limit sweeps (ResNet-50 training on V100, A40,
 * P100, Quadro RTX 6000, 52 points; bench/zeus_power_limit.c): MAPE of
 * t(limit)/t(max) 11.6 % with f^3 all the way, 9.5 % with the floor at 0.8;
 * leave-one-GPU-out picks 0.80-0.85, held-out MAPE 10.1 % (10.6 % without).
 * With fp32 1x1 convs as GEMMs (predict.md): 9.0 % in-sample, leave-one-GPU-
 * out 0.77-0.85 and 10.8 % (bench/zeus_power_limit.c refits it). */
#define DLP__DVFS_VMIN_SHARE 0.8
/* The DVFS clock itself is dlp__dvfs_clock_mem (power.h). */
/* A process-wide replacement of DLP__DVFS_VMIN_SHARE, in (0, 1]; 0 restores
 * it.  For the benches' leave-one-GPU-out refits only (bench/zeus_power_limit.c),
 * as dlp__wave_params_override is for the wave model: not thread-safe. */
void dlp__dvfs_vmin_override(double kv);
/* Clamp of the efficiency curve's ln(time ratio): [0, ln 100]. */
#define DLP__EFF_MAX_LOG 4.605170185988091

/* ---- one kernel ----------------------------------------------------------- */

/* Features of the efficiency curve for a kernel of pure-roofline time
 * t_roof_s seconds and arithmetic intensity flops/bytes on a device whose
 * ridge point is peak/bw:  u = log10(t_roof / 1 us) in [-1, 5],
 * v = log10(AI / ridge) in [-3, 3]. */
void dlp__eff_features(double t_roof_s, double flops, double bytes, double peak, double bw,
                       double *u, double *v);
/* Time multiplier (>= 1) of a curve at (u, v). */
double dlp__eff_ratio_uv(const dlp_eff_curve *c, double u, double v);
/* Pure roofline time (s) of one kernel: max(flops/peak, bytes/bw). */
double dlp__roof_time(double flops, double bytes, double peak, double bw);
/* 1 when PyTorch's block softmax (cunn_SoftMaxForward, rows > 1024) keeps
 * the rows its resident CTAs hold in an NVIDIA SM's L1 between its three
 * passes, so DRAM sees one read and one write (roofline.c). */
int dlp__block_softmax_in_l1(const dlp_device *d, double row, double elem_bytes);
/* Calibrated kernel time (s), launch overhead not included:
 * roof_time * ratio(curve). c may be NULL (pure roofline). */
double dlp__kernel_time(const dlp_eff_curve *c, double flops, double bytes, double peak, double bw);
/* The same with the curve's intensity feature v held at >= vmin: a curve
 * fitted only at or above the ridge (the fp32 GEMM curve, v >= 0) is not
 * extrapolated below it, where its intensity term would make a GEMV slower
 * than a GEMM of more rows over the same weights (roofline.c's s.vmin). */
double dlp__kernel_time_vmin(const dlp_eff_curve *c, double flops, double bytes, double peak, double bw, double vmin);

/* Peak FLOP/s used for a node of class op_class computing in dtype, and
 * whether it runs on tensor/matrix cores (rules in docs/predict.md). */
double dlp__node_peak(const dlp_device *d, int op_class, int dtype, int tf32_mode, int *tensor_core);

/* ---- calibration fit (calib.c) -------------------------------------------- */

/* The fits' one minimiser: Nelder-Mead (reflect, expand, contract, shrink
 * towards the best) over np <= DLP__NM_MAX parameters from x (the best point
 * on return), first simplex x + step[i] e_i, stopping after max_evals
 * evaluations of f or when the simplex's values agree within tol x (1 +
 * best).  Returns f at the best point; adds the evaluations to *evals
 * (may be NULL).  Used by the efficiency-curve fit and the wave fit. */
#define DLP__NM_MAX 8
double dlp__nelder_mead(double (*f)(const void *ctx, const double *x), const void *ctx, int np, double *x,
                        const double *step, int max_evals, double tol, int *evals);

typedef struct {
    double flops, bytes;       /* kernel's work                               */
    double peak, bw;           /* FLOP/s of the unit it runs on, bytes/s      */
    double t_meas;             /* measured seconds                            */
} dlp__kernel_sample;

typedef struct {
    dlp_eff_curve curve;
    double floor_s;            /* fitted per-kernel floor (isolated timing)   */
    double mape;               /* on the fitting samples, fraction            */
    int evals;
} dlp__eff_fit_result;

/* How to fit. */
typedef struct {
    size_t max_samples;        /* even stride through the array; 0 = all       */
    double floor_s;            /* >= 0: the floor is fixed to this; < 0: fitted */
    int linear;                /* 1: d = 0 (no u^2 term)                        */
} dlp__eff_fit_opts;

/* Fit floor + curve to samples of one op class, minimising the mean
 * absolute percentage error of floor + roof * ratio (Nelder-Mead, three
 * starts).  DLP_EINVAL when n == 0. */
dlp_status dlp__eff_fit(const dlp__kernel_sample *s, size_t n, const dlp__eff_fit_opts *o,
                        dlp__eff_fit_result *out);
/* Predicted seconds of a sample under curve c and floor. */
double dlp__eff_predict(const dlp_eff_curve *c, double floor_s, const dlp__kernel_sample *s);

#endif
