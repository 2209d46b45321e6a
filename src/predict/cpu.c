/*
 * cpu.c — the analytic predictor on a CPU (device kind "cpu").
 *
 * The roofline of roofline.c applies unchanged per node — time = max(FLOPs /
 * peak, bytes / bandwidth) — with the CPU's FP32 vector peak (no tensor
 * cores: a CPU entry has none, so every op runs on the vector units) and its
 * measured STREAM bandwidth.  What differs from a GPU is around the kernels:
 *
 *  - overhead per op: PyTorch eager on a CPU pays its dispatcher, autograd
 *    bookkeeping and oneDNN primitive lookup per op, not a CUDA launch.
 *    DLP_PREDICT_CPU_DISPATCH_US was derived from data/cpu/runs.sqlite
 *    (docs/learned.md, "CPU device": median over the cheapest batch-1
 *    inference runs of (measured - pure roofline) / ops).
 *  - efficiency: the built-in curves were fitted on GPU kernels; on a CPU
 *    the pure roofline is used unless the caller passes its own table.
 *  - memory: the process base measured before any model (Python + torch,
 *    memory_base_mb in the store) instead of the CUDA context; no cuBLAS/
 *    cuDNN workspace and no caching-allocator overhead (CPU tensors come
 *    from malloc).  The rest — weights, activations, gradients, optimizer
 *    state — is the same tensor accounting as on a GPU.
 *  - no MIG; no power model without a TDP (a VM slice has none): energy,
 *    power and carbon are then NaN ("not predicted"), never 0.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "predict/learned.h"
#include "predict/predict.h"

/* The "roofline-cpu" row of the estimator table: the CPU's options, the
 * analytic pass, then the CPU's memory accounting and method. */
dlp_status dlp__predict_cpu(const dlp_graph *g, const dlp_device *d, const dlp_predict_opts *opts,
                            dlp_prediction *out, dlp_error *err) {
    dlp_predict_opts o = *opts;
    dlp__predict_cpu_opts(d, &o);
    dlp_status st = dlp__predict_analytic(g, d, &o, out, err);
    if (st) return st;
    dlp__predict_cpu_finish(d, &o, out);
    return DLP_OK;
}

void dlp__predict_cpu_opts(const dlp_device *d, dlp_predict_opts *o) {
    if (!d || !o || d->kind != DLP_DEVICE_CPU) return;
    if (o->launch_us == 0) o->launch_us = DLP_PREDICT_CPU_DISPATCH_US;
    if (!o->eff) o->pure_roofline = 1;
}

void dlp__predict_cpu_finish(const dlp_device *d, const dlp_predict_opts *o, dlp_prediction *p) {
    if (!d || !p) return;
    p->device_kind = d->kind;
    p->energy_known = d->tdp_w > 0;
    if (d->kind != DLP_DEVICE_CPU) return;
    p->workspace_mb = 0;
    p->context_mb = DLP_PREDICT_CPU_BASE_MIB;
    p->memory_mb = p->weights_mb + p->activations_mb + p->gradients_mb + p->optimizer_mb + p->context_mb;
    /* the band measures GPU kernel errors; nothing measured it on a CPU */
    p->band_lo_ms = p->band_hi_ms = 0;
    if (o && o->eff && !o->pure_roofline)
        snprintf(p->method, sizeof p->method, "roofline-cpu+%s", o->eff->name ? o->eff->name : "custom");
    else snprintf(p->method, sizeof p->method, "roofline-cpu");
}
