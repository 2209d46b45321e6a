/*
 * curves.h — efficiency curves per (precision, kernel class), with where
 * each comes from.  Internal (src/predict); the form of a curve and its
 * features are those of src/predict/calib.c (dlp__kernel_time):
 *   ratio = exp(clamp(a + b u + c v + d u^2, 0, ln 100))
 *   u = log10(roofline time / 1 us), v = log10(intensity / ridge).
 * The peak a kernel is measured against is the unit it runs on for that
 * precision (tensor cores for half/fp8 GEMM/conv/attention), so one curve
 * transfers across GPUs through u and v.
 */
#ifndef DLP_PREDICT_CURVES_H
#define DLP_PREDICT_CURVES_H

#include "dlperf.h"

/* Precision groups that have curves of their own. */
enum {
    DLP__PREC_FP32 = 0,        /* fp32 (NeuSight's kernel tables)               */
    DLP__PREC_HALF = 1,        /* fp16 / bf16 tensor-core kernels               */
    DLP__PREC_FP8 = 2,         /* fp8 / int8 / fp4 tensor-core kernels          */
    DLP__PREC_COUNT_
};

typedef struct {
    dlp_eff_curve c;
    const char *source;        /* short id shown by --kernels, e.g.
                                  "neusight-fp32-v1:linear", "aic-h100-fp16:gemm" */
} dlp__kcurve;

/* Precision group of a compute dtype. */
int dlp__prec_of_dtype(int dtype);
/* The curve of a kernel class at a precision; never NULL (a class without
 * data falls back to a documented neighbour, and says so in source). */
const dlp__kcurve *dlp__kcurve_get(int prec, int kclass);

/* Name of the curve set used at a precision, shown in the prediction's
 * method: "neusight-fp32-v1" (fp32), "aic-half-v1" (fp16/bf16 tensor-core
 * kernels on aiconfigurator's tables, the rest on NeuSight's), "aic-fp8-v1". */
const char *dlp__curve_set_name(int prec);

#endif
