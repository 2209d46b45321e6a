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

int dlp__cpu_half_as_fp32(const dlp_device *d, int dtype) {
    if (!d || d->kind != DLP_DEVICE_CPU || (dtype != DLP_DT_FLOAT16 && dtype != DLP_DT_BFLOAT16)) return 0;
    double native = dtype == DLP_DT_FLOAT16 ? fmax(d->fp16_tensor_tflops * 1e3, d->peak_fp16_gflops)
                                            : d->bf16_tensor_tflops * 1e3;
    return !(native > d->peak_fp32_gflops);
}

/* The "roofline-cpu" row of the estimator table: the CPU's options, the
 * analytic pass, then the CPU's memory accounting and method. */
dlp_status dlp__predict_cpu(const dlp_graph *g, const dlp_device *d, const dlp_predict_opts *opts,
                            dlp_prediction *out, dlp_error *err) {
    dlp_predict_opts o = *opts;
    dlp__predict_cpu_opts(d, &o);
    dlp_status st = dlp__predict_analytic(g, d, &o, out, err);
    if (st) return st;
    /* fp16/bf16 on a CPU without native arithmetic for it: PyTorch converts
     * every operand to fp32, computes, and converts back, so no op is faster
     * than in fp32 (the halved bytes do not help a kernel that converts them
     * first).  What runs is timed: the fp32 pass's time, energy and kernels,
     * with the memory of the half-precision tensors. */
    if (dlp__cpu_half_as_fp32(d, out->dtype)) {
        dlp_predict_opts o32 = o;
        o32.dtype = DLP_DT_FLOAT;
        dlp_prediction f;
        st = dlp__predict_analytic(g, d, &o32, &f, err);
        if (st) {
            dlp_prediction_clear(out);
            return st;
        }
        if (f.latency_ms > out->latency_ms || f.step_ms > out->step_ms) {
            dlp_node_pred *nodes = out->nodes;
            dlp_kernel_pred *rows = out->kernel_rows;
            out->nodes = f.nodes, f.nodes = nodes;
            out->kernel_rows = f.kernel_rows, f.kernel_rows = rows;
            int nr = out->n_kernel_rows;
            out->n_kernel_rows = f.n_kernel_rows, f.n_kernel_rows = nr;
            out->latency_ms = f.latency_ms, out->step_ms = f.step_ms;
            out->band_lo_ms = f.band_lo_ms, out->band_hi_ms = f.band_hi_ms;
            out->energy_j = f.energy_j, out->utilisation = f.utilisation;
            out->flops = f.flops, out->bytes = f.bytes, out->kernels = f.kernels;
        }
        dlp_prediction_clear(&f);
        dlp__predict_cpu_finish(d, &o, out);
        size_t len = strlen(out->method);
        snprintf(out->method + len, sizeof out->method - len, " (%s computed in fp32: no native %s on this CPU)",
                 dlp_dtype_short(out->dtype), dlp_dtype_short(out->dtype));
        return DLP_OK;
    }
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
