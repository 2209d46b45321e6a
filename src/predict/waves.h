/*
 * waves.h — GEMM-class kernel time as waves of CTA tiles over the SMs
 * (docs/predict.md, "Tiles and waves").  Internal (src/predict).
 *
 * A GEMM C[M,N] += A[M,K] B[K,N] (batch of them for a bmm) runs as a grid of
 * output tiles tm x tn; each SM works through its share of the tiles, so the
 * busiest SM has ceil(tiles / SMs) of them and a wider GPU needs more tiles to
 * fill it (wave quantisation; the last, partial wave is the tail).  One tile
 * computes 2 tm tn K FLOPs at a fraction e of the SM's peak:
 *     e = e_max * ai / (ai + ai0) * K' / (K' + k0) * (64 / lanes)^lane_g
 *     ai = tm tn / (tm + tn)      (FLOPs per byte the tile streams per k-step,
 *                                 up to the element size: register reuse)
 *     K' = K / split              (split-K: a grid too small for the SMs cuts K)
 * and it streams (tm + tn) K' elements from L2 at l2_bpc bytes per clock per
 * SM; the tile takes the longer of the two.  The kernel takes the longer of
 * the busiest SM's tiles and the DRAM roofline, plus the split-K reduction.
 * The tile shape and split are chosen per size, dtype and architecture as
 * cuBLAS/CUTLASS heuristics do, i.e. the candidate (of the shapes their
 * kernels have) the model says is fastest.
 * The learned part is bounded: 0 < e_max <= 1, ai0, k0, l2_bpc > 0, 0 <= lane_g <= 1, fitted
 * across GPUs on NeuSight's kernel tables (bench/bench_waves.sh); the GPU
 * enters through its SM count, clock (peak per SM), L2 path and bandwidth.
 */
#ifndef DLP_PREDICT_WAVES_H
#define DLP_PREDICT_WAVES_H

#include <stddef.h>

#include "dlperf.h"

typedef struct {
    double e_max;              /* efficiency of a large tile over a long K, (0, 1] */
    double ai0;                /* tile intensity at which e is half of e_max        */
    double k0;                 /* K lost to a tile's prologue and epilogue          */
    double l2_bpc;             /* L2 -> SM bytes per clock per SM                   */
    double lane_g;             /* e x (64 / FP32 lanes per SM)^lane_g, in [0, 1]: an
                                  SM of 128 lanes has half the registers per lane
                                  (GP104, GA10x, AD10x, GH100) to block a tile in  */
    double floor_s;            /* isolated-kernel floor of the fit's data; not used
                                  by dlp_predict (it adds its launch overhead)      */
} dlp__wave_params;

/* The shapes of one GEMM-class kernel; batch >= 1. */
typedef struct {
    double batch, m, n, k;
    double elem_bytes;         /* operand element size (4 fp32, 2 half, 1 fp8)      */
    int tensor_core;           /* tile candidates of tensor-core or SIMT kernels    */
} dlp__gemm_shape;

/* What the model chose and why, for --kernels, tests and the docs. */
typedef struct {
    int tm, tn, split;         /* tile and split-K                                  */
    double tiles;              /* CTAs in the grid                                  */
    double per_sm;             /* tiles on the busiest SM = ceil(tiles / SMs)       */
    double waves;              /* tiles / SMs, fractional: the tail is the rest     */
    double eff;                /* per-tile efficiency e                             */
    double t_tiles, t_dram, t_reduce; /* seconds                                    */
} dlp__wave_info;

/* Kernel seconds of shape s on device d whose unit has `peak` FLOP/s and
 * DRAM `bw` B/s; 0 when the shape or device is unusable (the caller keeps its
 * other model).  info may be NULL. */
double dlp__wave_gemm_time(const dlp__wave_params *p, const dlp_device *d, double peak, double bw,
                           const dlp__gemm_shape *s, dlp__wave_info *info);

/* The shipped parameters per precision group (DLP__PREC_*; waves_table.inc);
 * NULL where the wave model is not used (the curves time those kernels). */
const dlp__wave_params *dlp__wave_params_builtin(int prec);

/* A process-wide replacement of the fp32 parameters (leave-one-GPU-out
 * evaluation in bench/bench_e2e.c); NULL restores the shipped ones.  Not for
 * use while predictions run on other threads. */
void dlp__wave_params_override(const dlp__wave_params *p);

/* ---- fitting (bench/bench_waves.c) ---------------------------------------- */

typedef struct {
    const dlp_device *d;
    double peak, bw;
    dlp__gemm_shape s;
    double t_meas;             /* seconds */
    double flops, bytes;       /* the kernel's roofline work, as predict counts it */
    double p_idle, p_boost, p_tdp; /* W, as predict's power cap sees the board;
                                  p_tdp 0: no cap */
} dlp__wave_sample;

/* Wave time t of sample q after the power cap, as dlp_predict applies it
 * (roofline.c, add_kernels): the compute part stretches by 1 / clock. */
double dlp__wave_capped(const dlp__wave_sample *q, double t);

/* Fit the parameters minimising the MAPE of floor + wave time over s[0..n)
 * (at most max_samples, by an even stride; 0: all); Nelder-Mead on bounded
 * transforms, deterministic.  Returns the MAPE in *mape. */
dlp_status dlp__wave_fit(const dlp__wave_sample *s, size_t n, size_t max_samples, dlp__wave_params *out,
                         double *mape);

/* ---- AMD (ROCm) block softmax ------------------------------------------------
 * PyTorch's softmax over rows longer than its warp softmax takes (> 1,024
 * elements) runs one workgroup per row (cunn_SoftMaxForward: passes for the
 * max, the sum of exponentials and the write, with two workgroup
 * reductions).  On CDNA GPUs it runs at a rate set by compute units x clock,
 * not by DRAM bandwidth (NeuSight's per-op traces: MI100 and MI210 run the
 * 2,048-element rows in the same time, 2.60 / 2.57 ms for 201 M elements,
 * with 1.23 / 1.64 TB/s but 180 / 177 G CU-clocks/s); docs/predict.md,
 * "AMD GPUs".  Elements per CU per clock: */
typedef struct {
    double elem_per_cu_clk;    /* > 0; the rate of the block softmax            */
    int64_t min_row;           /* rows longer than this run the block kernel    */
} dlp__amd_softmax_params;

/* Seconds of the block softmax over `elems` elements in rows of `row` on d,
 * a lower bound the caller takes the max with; 0 where the rule does not
 * apply (no AMD GPU, a row the warp softmax takes, unusable numbers). */
double dlp__amd_softmax_time(const dlp__amd_softmax_params *p, const dlp_device *d, double elems, int64_t row);

/* The shipped rate (fitted by bench/bench_e2e.c on NeuSight's AMD per-op
 * softmax rows; the bench refits it leaving the row's architecture out) and
 * its process-wide replacement for that evaluation (NULL: the shipped one). */
const dlp__amd_softmax_params *dlp__amd_softmax_builtin(void);
void dlp__amd_softmax_override(const dlp__amd_softmax_params *p);

/* 1 for the GPUs the AMD rules above are for (vendor "amd", a GPU). */
int dlp__is_amd_gpu(const dlp_device *d);

#endif
