/*
 * predict.h — the one prediction path (src/predict): lower -> time -> derive.
 * Not public API.
 *
 * dlp_predict (predict.c) checks the options, runs the first applicable
 * base estimator of its table and then every applicable refinement, and
 * derives throughput, energy and power (never above TDP), MIG, cost and
 * carbon exactly once from what they left: time, energy, memory.
 *
 * An estimator fills, in dlp_prediction: latency_ms (and step_ms in
 * training), energy_j for that time, memory_mb and its parts, the method,
 * band, nodes and kernel list.  A refinement (the shipped learned models)
 * may replace time and memory and records the analytic values in
 * time_src / memory_src; it must not touch the derived fields.
 */
#ifndef DLP_PREDICT_PREDICT_H
#define DLP_PREDICT_PREDICT_H

#include "dlperf.h"

typedef struct {
    const char *name;
    int refines;               /* 0: a base estimate; 1: corrects one         */
    int (*applies)(const dlp_device *d, const dlp_predict_opts *o);
    dlp_status (*run)(const dlp_graph *g, const dlp_device *d, const dlp_predict_opts *o, dlp_prediction *p,
                      dlp_error *err);
} dlp__estimator;

/* The table, in the order dlp_predict consults it; *n gets its length. */
const dlp__estimator *dlp__estimators(int *n);

/* Rows (roofline.c, cpu.c, src/predict/learned.c). */
dlp_status dlp__predict_analytic(const dlp_graph *g, const dlp_device *d, const dlp_predict_opts *opts,
                                 dlp_prediction *out, dlp_error *err);
/* 1: on CPU d, dtype (fp16/bf16) has no native arithmetic and PyTorch
 * computes it in fp32 (cpu.c): timed as fp32. */
int dlp__cpu_half_as_fp32(const dlp_device *d, int dtype);
dlp_status dlp__predict_cpu(const dlp_graph *g, const dlp_device *d, const dlp_predict_opts *opts,
                            dlp_prediction *out, dlp_error *err);
dlp_status dlp__predict_learned(const dlp_graph *g, const dlp_device *d, const dlp_predict_opts *opts,
                                dlp_prediction *out, dlp_error *err);

/* A learned model corrects the analytic value within these factors: it can
 * move a prediction, never run away from physics on a new model. */
#define DLP__LEARNED_MAX_FACTOR 3.0

/* Derive throughput, power (<= TDP), MIG, cost and carbon from time,
 * energy and memory (the last stage of dlp_predict; tests call it alone). */
dlp_status dlp__predict_derive(const dlp_device *d, const dlp_predict_opts *o, double g_per_kwh, double pue,
                               const char *region, dlp_prediction *p, dlp_error *err);

#endif
