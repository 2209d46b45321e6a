/*
 * llm.c — LLM predictions: the thesis' table 6.3 features, an analytic
 * roofline estimate, the shipped trained models and dlp_llm_predict.
 *
 * Why both an analytic model and trees: trees (chapter 6) are accurate
 * inside the data they were trained on — devices, dtypes and workloads that
 * were measured — and cannot extrapolate to a GPU they never saw.  The
 * roofline estimate answers everywhere, and it is also a feature (AT) and
 * the base the trees may correct (a model whose metadata says
 * relative=analytic predicts measured / analytic, so it transfers across
 * devices).  A prediction always names which one answered ("method").
 *
 * The analytic model (docs/llm.md, "Analytic estimate"): per graph node,
 * time = max(FLOPs / (peak x e_c), bytes / (bandwidth x e_m), t_min) with
 * MatMul/Gemm on tensor cores for fp16/bf16 (vector FP32 for fp32, as
 * PyTorch's default), a per-forward overhead, int8/nf4 dequantisation
 * costs, and for generation a decode step per token that reads the weights
 * and the KV cache.  Power = idle + (TDP - idle) x utilisation.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "llm/transformer.h"
#include "graph/graph.h"
#include "llm/llm_internal.h"
#include "predict/roofline.h"
#include "learn/xgb.h"
#include "dlpm/container.h"

#include <cJSON.h>
#include "util/util.h"

/* ---- features -------------------------------------------------------------- */

static const char *const lf_names[DLP_LF_COUNT] = {
    "BS", "SL", "QT", "TN", "TE", "TM", "TP", "TMmem", "MPE", "NHL", "NAH", "HS", "VS", "TVS",
    "NKV", "IS", "NE", "GEN", "NGPU", "WB", "AT",
    "PF32", "PBHBM", "CM", "Cm", "MTPB", "MTPM", "RPB", "RPM", "WS", "SMPB", "SMMP", "SMS", "SMPBO",
    "PTC", "MEM", "L2", "TDP"};

const char *dlp_llm_feature_name(int k) { return k >= 0 && k < DLP_LF_COUNT ? lf_names[k] : NULL; }

int dlp_llm_feature_index(const char *name) {
    if (!name) return -1;
    for (int k = 0; k < DLP_LF_COUNT; k++)
        if (!strcmp(lf_names[k], name)) return k;
    return -1;
}

int dlp_llm_feature_is_hw(int k) { return k >= DLP_LF_PF32 && k < DLP_LF_COUNT; }

/* ---- analytic estimate ------------------------------------------------------ */

/* Efficiencies of the roofline (fractions of peak a framework reaches on
 * large kernels) and fixed costs.  Round numbers, not fitted: the
 * evaluation tables in docs/llm.md show how far this gets alone. */
#define E_MATMUL 0.70     /* tensor / matrix cores                          */
#define E_MATMUL_VEC 0.85 /* SGEMM on the vector units (cuBLAS reaches ~90%) */
#define E_VECTOR 0.50
#define E_MEM 0.80
#define T_KERNEL_MS 0.004      /* floor of one kernel (launch + tail)            */
#define T_FORWARD_MS 0.20      /* per forward pass (framework, sync)             */
#define T_DECODE_LAYER_MS 0.012/* per layer per decode step (graphs, sampling)   */
#define T_ALLREDUCE_MS 0.020   /* per tensor-parallel all-reduce                 */
#define INT8_SLOWDOWN 3.0      /* LLM.int8 matmul with outlier decomposition     */

typedef struct {
    double prefill_ms, decode_ms, latency_ms;
    double flops, bytes;       /* whole workload                                   */
    double util;               /* 0..1, for the power model                        */
    double power_w;
    double predict_power_w;    /* and its average power (one GPU)                  */
} analytic_t;

static int is_matmul(const char *op) { return !strcmp(op, "MatMul") || !strcmp(op, "Gemm"); }

/* The KV cache's dtype: the workload's, else the activations'. */
static int kv_dtype_of(const dlp_llm_workload *wl) {
    return wl->kv_dtype ? wl->kv_dtype : dlp_quant_act_dtype(wl->quant);
}

static double kv_elem_bytes(const dlp_llm_workload *wl) {
    int k = kv_dtype_of(wl);
    return k == DLP_DT_FLOAT ? 4.0 : (k == DLP_DT_FLOAT16 || k == DLP_DT_BFLOAT16) ? 2.0 : 1.0;
}

static int kv_dtype_ok(int k) {
    return k == 0 || k == DLP_DT_FLOAT || k == DLP_DT_FLOAT16 || k == DLP_DT_BFLOAT16 || k == DLP_DT_FLOAT8E4M3FN ||
           k == DLP_DT_FLOAT8E4M3FNUZ || k == DLP_DT_FLOAT8E5M2 || k == DLP_DT_FLOAT8E5M2FNUZ;
}

/* Weight-only 4-bit MoE in generate mode (docs/llm.md, "Modes agree"): a
 * forward over `tokens` tokens takes at least its non-expert part rest_s
 * (seconds on one of ngpu GPUs) plus the W4A16 floor of its expert
 * matrices, the function serving's iteration floors each expert matrix with
 * (dlp__llm_w4a16_moe_floor_s), so that the two modes price the same
 * kernels alike.  t: the forward's seconds on one GPU; other formats and
 * dense models keep it. */
static double w4a16_floor(const dlp_llm_config *c, const dlp_device *d, int q, int ngpu, double tokens, double t,
                          double rest_s) {
    if (c->num_experts <= 0 || !dlp__llm_w4a16_moe(d, q)) return t;
    double floor_s = dlp__llm_w4a16_moe_floor_s(c, d, q, ngpu, tokens);
    return floor_s > 0 ? fmax(t, fmax(0.0, rest_s) + floor_s) : t;
}

/* Stored bytes of the weights beside the routed experts in format q.  The
 * same model with k of its E experts (the routed-token config of
 * dlp__llm_act_graph) holds k / E of the experts' bytes, so the rest is
 * (E W_k - k W_E) / (E - k) (the router's k / E columns aside: 16-bit,
 * H (E - k) x 2 B a layer, under 0.1 % of these weights).  Exact where the
 * format stores experts and other matrices differently (mxfp4 keeps
 * attention and the LM head 16-bit), where the serving profile's mean bytes
 * a weight is not.  -1 when the reduced model does not build. */
static double nonexpert_bytes(const dlp_llm_config *c, int q, const dlp_llm_weights *w) {
    double E = (double)c->num_experts, k = (double)c->experts_per_token;
    if (!(k > 0) || !(k < E)) return -1;
    dlp_llm_config r = *c;
    r.num_experts = c->experts_per_token;
    dlp_graph *g = NULL;
    dlp_llm_weights wk;
    if (dlp_llm_build(&r, 1, 1, q, &g, &wk, NULL) != DLP_OK) return -1;
    dlp_graph_free(g);
    return fmax(0.0, (E * (double)wk.weight_bytes[q] - k * (double)w->weight_bytes[q]) / (E - k));
}

/* Whether any layer of c is of `kind` (a dlp_llm_layer_kind bit). */
static int has_layer_kind(const dlp_llm_config *c, int kind) {
    for (int64_t l = 0; l < c->num_hidden_layers && l < DLP_LLM_MAX_LAYERS; l++)
        if (c->layer_kind[l] & kind) return 1;
    return 0;
}

static const char *const phase_names[] = {"agg", "prefill", "decode"};

int dlp_llm_phase_parse(const char *name) {
    for (int i = 0; name && i < (int)(sizeof phase_names / sizeof phase_names[0]); i++)
        if (!strcasecmp(name, phase_names[i])) return i;
    return -1;
}

const char *dlp_llm_phase_name(dlp_llm_phase phase) {
    return phase >= 0 && phase < (int)(sizeof phase_names / sizeof phase_names[0]) ? phase_names[phase] : NULL;
}

static const char *const engine_names[] = {"modern", "vllm-v0", "sglang", "trtllm"};

int dlp_llm_engine_parse(const char *name) {
    if (name && !strcasecmp(name, "vllm")) return DLP_LLM_ENGINE_MODERN; /* vLLM >= 0.6 / V1 */
    for (int i = 0; name && i < (int)(sizeof engine_names / sizeof engine_names[0]); i++)
        if (!strcasecmp(name, engine_names[i])) return i;
    return -1;
}

const char *dlp_llm_engine_name(int engine) {
    return engine >= 0 && engine < (int)(sizeof engine_names / sizeof engine_names[0]) ? engine_names[engine] : NULL;
}

int dlp_llm_default_quant(const dlp_llm_config *c, const dlp_device *d) {
    int q = c && c->weights_format[0] ? dlp_quant_parse(c->weights_format) : -1;
    /* a bf16 checkpoint runs as fp16 where the GPU has no bf16 (V100, T4), as vLLM casts it */
    if (q == DLP_QT_BF16 && d && !dlp_device_supports_dtype(d, DLP_DT_BFLOAT16)) return DLP_QT_FP16;
    if (q >= 0 && d && dlp_llm_compute_dtype(d, q, NULL, 0) >= 0) return q;
    return DLP_QT_FP16;
}

/* What `dlperf predict` says of the graph (docs/llm.md, "llm and predict"):
 * for fp16/bf16 the forward time (*t, scaling the compute and memory busy
 * times with it) and power.  The memory is the one story both modes tell
 * (dlp__llm_mem_need), not predict's. */
static void predict_side(const dlp_graph *g, const dlp_llm_workload *wl, const dlp_device *d,
                         const dlp_devdb *db, int adt, analytic_t *a, double *t, double *busy_c, double *busy_m) {
    int q = wl->quant, timed = q == DLP_QT_FP16 || q == DLP_QT_BF16;
    if (!timed) return;
    dlp_predict_opts po = {0};
    po.no_learned = 1;
    po.dtype = adt;
    /* LLM engines load the weights in the half type (torch_dtype), not
     * under torch.autocast: no fp32 ops, no casts (predict's --no-amp) */
    po.no_amp = 1;
    /* the whole graph through predict: its time */
    dlp_prediction pr;
    if (dlp_predict(g, d, db, &po, &pr, NULL) == DLP_OK) {
        if (pr.latency_ms > 0) {
            double scale = pr.latency_ms * 1e-3 / (*t > 0 ? *t : 1);
            *t = pr.latency_ms * 1e-3;
            *busy_c *= scale;
            *busy_m *= scale;
            a->predict_power_w = pr.power_w;
        }
        dlp_prediction_clear(&pr);
    }
}

/* db: the caller's device database for predict's carbon and power rules;
 * NULL: the built-in one (dlp_predict loads it once per process). */
static void analytic(const dlp_llm_config *c, const dlp_graph *g, const dlp_llm_weights *w,
                     const dlp_llm_workload *wl, const dlp_device *d, const dlp_devdb *db, analytic_t *a) {
    memset(a, 0, sizeof *a);
    int q = wl->quant, adt = dlp_quant_act_dtype(q);
    int ngpu = wl->n_gpus > 1 ? wl->n_gpus : 1;
    /* matrix rate: fp16/bf16 tensor cores; fp32 on NVIDIA's vector units
     * (PyTorch does not use TF32 for matmul by default) but on AMD's matrix
     * cores (rocBLAS SGEMM runs on MFMA); int8/nf4/int4 compute in fp16;
     * fp8/fp4 on their tensor cores where the device has them, else the
     * weight-only 16-bit path (dlp_llm_compute_dtype) */
    int cdt = dlp_llm_compute_dtype(d, q, NULL, 0);
    if (cdt < 0) cdt = adt;
    int fp32_mfma = adt == DLP_DT_FLOAT && d->fp32_matrix_tflops > 0;
    double p_mm = dlp_device_peak_flops(d, cdt, cdt != DLP_DT_FLOAT || fp32_mfma);
    double e_mm = adt == DLP_DT_FLOAT && !fp32_mfma ? E_MATMUL_VEC : E_MATMUL;
    double p_vec = dlp_device_peak_flops(d, adt, 0);
    if (p_vec <= 0) p_vec = dlp_device_peak_flops(d, DLP_DT_FLOAT, 0);
    if (p_mm <= 0) p_mm = p_vec;
    double bw = d->mem_bandwidth_gbs * 1e9;
    if (p_mm <= 0 || bw <= 0) return;
    double wscale = w->weight_bytes[DLP_QT_FP32] > 0 ? (double)w->weight_bytes[q] / (double)w->weight_bytes[DLP_QT_FP32] *
                                                            (q == DLP_QT_FP32 ? 1.0 : 2.0)
                                                      : 1.0;
    /* weight bytes in the graph are act-dtype; wscale turns them into the
     * stored format's bytes (nf4: ~0.26 of fp16) */
    double t = 0, fl = 0, by = 0, busy_c = 0, busy_m = 0, t_exp = 0;
    int n = dlp_graph_node_count(g);
    for (int i = 0; i < n; i++) {
        dlp_node_info ni;
        ni = *dlp_graph_node_at(g, i);
        /* no kernel; a Dropout in eval mode returns its input */
        if (ni.op_class == DLP_OPC_SHAPE || !strcmp(ni.op_type, "Reshape") || !strcmp(ni.op_type, "Dropout")) continue;
        double f = is_matmul(ni.op_type) ? 2.0 * (double)ni.macs : (double)ni.flops;
        double wb = (double)ni.weight_bytes;
        double b = (double)ni.bytes_read - wb + wb * wscale + (double)ni.bytes_written;
        double tc, tm = b / (bw * E_MEM);
        if (is_matmul(ni.op_type)) {
            tc = f / (p_mm * e_mm);
            if (q == DLP_QT_INT8 && wb > 0) tc *= INT8_SLOWDOWN;
            /* nf4: each weight is dequantised to fp16 before the matmul
             * (read 4-bit, write and re-read 16-bit) */
            if (q == DLP_QT_NF4 && wb > 0) tm += 2.0 * wb / (bw * E_MEM);
        } else {
            tc = f / (p_vec * E_VECTOR);
        }
        double ti = tc > tm ? tc : tm;
        if (ti < T_KERNEL_MS * 1e-3) ti = T_KERNEL_MS * 1e-3;
        /* the routed experts' matrices (the builder's "/experts" scope) */
        if (is_matmul(ni.op_type) && wb > 0 && strstr(ni.name, "/experts")) t_exp += ti;
        t += ti;
        fl += f;
        by += b;
        busy_c += tc;
        busy_m += tm;
    }
    /* fp16/bf16: the forward pass is timed by `dlperf predict`'s own path
     * (lowering to eager PyTorch's kernels, per-precision curves, launch
     * overheads) on the same graph, so `llm` and `predict` agree on the
     * same model (docs/llm.md, "llm and predict").  fp32 keeps the loop
     * above: on NeuSight's LLM rows it measured 13.7 % MAPE leave-one-GPU-
     * out where predict's path gives 23.1 % (T4, V100), and the two agree
     * within 1 % on BERT-base and the Llama of the agreement test anyway.
     * The loop also stays for the formats predict has no kernels for
     * (int8, nf4, fp8, int4, fp4) and for the utilisation split.  Memory
     * is the one story both modes tell (dlp__llm_mem_need), not predict's. */
    predict_side(g, wl, d, db, adt, a, &t, &busy_c, &busy_m);
    t /= ngpu;
    /* weight-only 4-bit experts: at least the W4A16 MoE kernel's time, as
     * serving's prefill chunks take them (w4a16_floor) */
    t = w4a16_floor(c, d, q, ngpu, (double)wl->batch * (double)(wl->seq + c->image_tokens), t, t - t_exp / ngpu);
    a->prefill_ms = t * 1e3 + (a->predict_power_w > 0 ? 0 : T_FORWARD_MS) +
                    (ngpu > 1 ? 2.0 * (double)c->num_hidden_layers * T_ALLREDUCE_MS : 0);
    a->flops = fl;
    a->bytes = by;
    double t_busy_c = busy_c / ngpu, t_busy_m = busy_m / ngpu;
    /* generation: gen decode steps at the mean context length */
    double B = (double)wl->batch, L = (double)c->num_hidden_layers;
    double ab = kv_elem_bytes(wl);
    if (wl->gen_tokens > 0) {
        double G = (double)wl->gen_tokens, ctx = (double)wl->seq + G / 2.0;
        /* MoE: the builder's count of what a token uses (top-k routed +
         * shared experts and every non-expert weight) */
        double active = (double)(w->active_params > 0 ? w->active_params : w->params);
        double f_step = 2.0 * active * B + 4.0 * L * (double)c->num_attention_heads * (double)c->head_dim * ctx * B;
        /* the cache read per step follows the architecture (GQA, MLA,
         * sliding windows, Mamba states): dlp_llm_kv_bytes */
        double ictx = ctx + (double)c->image_tokens;
        double b_step = (double)w->weight_bytes[q] + dlp_llm_kv_bytes(c, (int64_t)llround(ictx), ab) * B;
        if (c->num_experts > 0 && B * (double)c->experts_per_token < (double)c->num_experts)
            b_step *= (B * (double)c->experts_per_token + 2.0) / ((double)c->num_experts + 2.0); /* few experts hit */
        double tc = f_step / (p_mm * e_mm), tm = b_step / (bw * E_MEM);
        if (q == DLP_QT_INT8) tc *= INT8_SLOWDOWN;
        if (q == DLP_QT_NF4) tm += 2.0 * (double)w->linear_params * 2.0 / (bw * E_MEM);
        double step = (tc > tm ? tc : tm) / ngpu;
        /* weight-only 4-bit experts: the step's other weights and its cache
         * at the roofline, the experts at least the W4A16 kernel's time, as
         * in serving's decode step.  An untied embedding table (16-bit) is
         * a lookup of B rows, not read whole, as serving's profile has it */
        double ne;
        if (c->num_experts > 0 && dlp__llm_w4a16_moe(d, q) && (ne = nonexpert_bytes(c, q, w)) >= 0) {
            if (!c->tie_word_embeddings) ne = fmax(0.0, ne - 2.0 * (double)w->embed_params);
            double rest = ne + dlp_llm_kv_bytes(c, (int64_t)llround(ictx), ab) * B;
            step = w4a16_floor(c, d, q, ngpu, B, step, rest / (bw * E_MEM) / ngpu);
        }
        double step_ms = step * 1e3 + L * T_DECODE_LAYER_MS + (ngpu > 1 ? 2.0 * L * T_ALLREDUCE_MS : 0);
        a->decode_ms = G * step_ms;
        a->flops += G * f_step;
        a->bytes += G * b_step;
        t_busy_c += G * tc / ngpu;
        t_busy_m += G * tm / ngpu;
    }
    a->latency_ms = a->prefill_ms + a->decode_ms;
    double tt = a->latency_ms * 1e-3;
    double uc = t_busy_c / tt, um = t_busy_m / tt;
    double u = uc > um ? uc : um;
    if (u > 1) u = 1;
    a->util = 0.25 + 0.75 * u;
    a->power_w = dlp__board_power_w(d, a->util) * ngpu;
    /* a forward pass alone: predict's power, as its time */
    if (wl->gen_tokens <= 0 && a->predict_power_w > 0) a->power_w = a->predict_power_w * ngpu;
}

void dlp_llm_analytic(const dlp_llm_config *c, const dlp_graph *g, const dlp_llm_weights *w,
                      const dlp_llm_workload *wl, const dlp_device *d, double *latency_ms, double *power_w) {
    analytic_t a;
    memset(&a, 0, sizeof a);
    if (c && g && w && wl && d) analytic(c, g, w, wl, d, NULL, &a);
    if (latency_ms) *latency_ms = a.latency_ms;
    if (power_w) *power_w = a.power_w;
}

/* The features, with the analytic estimate a (of this workload on d)
 * given: dlp_llm_predict computes it once for both (it runs predict's
 * path on the whole graph) */
static void features_with(const dlp_llm_config *c, const dlp_graph *g, const dlp_llm_weights *w,
                          const dlp_llm_workload *wl, const dlp_device *d, const analytic_t *a, double *f) {
    for (int k = 0; k < DLP_LF_COUNT; k++) f[k] = 0;
    dlp_graph_stats st;
    dlp_graph_stats_get(g, &st);
    int q = wl->quant >= 0 && wl->quant < DLP_QT_COUNT_ ? wl->quant : DLP_QT_FP16;
    f[DLP_LF_BS] = (double)wl->batch;
    f[DLP_LF_SL] = (double)wl->seq;
    f[DLP_LF_QT] = q;
    f[DLP_LF_TN] = (double)st.nodes;
    f[DLP_LF_TE] = (double)st.edges;
    f[DLP_LF_TM] = (double)st.macs;
    f[DLP_LF_TP] = (double)w->params;
    f[DLP_LF_TMMEM] = (double)w->weight_bytes[q] + (double)st.peak_activation_bytes;
    f[DLP_LF_MPE] = (double)c->max_position_embeddings;
    f[DLP_LF_NHL] = (double)c->num_hidden_layers;
    f[DLP_LF_NAH] = (double)c->num_attention_heads;
    f[DLP_LF_HS] = (double)c->hidden_size;
    f[DLP_LF_VS] = (double)c->vocab_size;
    f[DLP_LF_TVS] = (double)c->type_vocab_size;
    f[DLP_LF_NKV] = (double)c->num_key_value_heads;
    f[DLP_LF_IS] = (double)c->intermediate_size;
    f[DLP_LF_NE] = (double)c->experts_per_token;
    f[DLP_LF_GEN] = (double)wl->gen_tokens;
    f[DLP_LF_NGPU] = wl->n_gpus > 1 ? wl->n_gpus : 1;
    f[DLP_LF_WB] = w->params ? (double)w->weight_bytes[q] / (double)w->params : 0;
    if (!d) return;
    f[DLP_LF_AT] = a->latency_ms;
    f[DLP_LF_PF32] = d->peak_fp32_gflops;
    f[DLP_LF_PBHBM] = d->mem_bandwidth_gbs;
    f[DLP_LF_CM] = d->cc_major;
    f[DLP_LF_CMIN] = d->cc_minor;
    f[DLP_LF_MTPB] = d->max_threads_per_block;
    f[DLP_LF_MTPM] = d->max_threads_per_sm;
    f[DLP_LF_RPB] = d->registers_per_block;
    f[DLP_LF_RPM] = d->registers_per_sm;
    f[DLP_LF_WS] = d->warp_size;
    /* the default (non-opt-in) shared memory per block: 48 KiB on NVIDIA,
     * the whole 64 KiB LDS on AMD */
    f[DLP_LF_SMPB] = !strcmp(d->vendor, "amd") ? 64 : 48;
    f[DLP_LF_SMMP] = d->shared_mem_kb_per_sm;
    f[DLP_LF_SMS] = d->sm_count;
    f[DLP_LF_SMPBO] = d->shared_mem_kb_per_block;
    int adt = dlp_llm_compute_dtype(d, q, NULL, 0);
    if (adt < 0) adt = dlp_quant_act_dtype(q);
    f[DLP_LF_PTC] = dlp_device_peak_flops(d, adt, adt != DLP_DT_FLOAT) / 1e12;
    f[DLP_LF_MEM] = d->memory_gib;
    f[DLP_LF_L2] = d->l2_cache_mb;
    f[DLP_LF_TDP] = d->tdp_w;
}

void dlp_llm_features(const dlp_llm_config *c, const dlp_graph *g, const dlp_llm_weights *w,
                      const dlp_llm_workload *wl, const dlp_device *d, double *f) {
    analytic_t a;
    memset(&a, 0, sizeof a);
    if (d) analytic(c, g, w, wl, d, NULL, &a);
    features_with(c, g, w, wl, d, &a, f);
}

/* ---- shipped models ----------------------------------------------------------- */

/* The shipped bundle is indexed, not loaded: each entry keeps its image
 * and its header's "meta" (which devices, quantisations and workloads it
 * covers), and the model itself (CRC-32 over the image, trees unpacked:
 * ~21 M instructions for the whole bundle, a third of a dense answer) is
 * loaded the first time a prediction or a listing needs it.  A device no
 * model covers (H200, B200, ...) never pays for it. */
typedef struct {
    const unsigned char *p;
    size_t len;
    cJSON *hd;                 /* the image's parsed header (NULL: legacy layout) */
    dlp_xgb *m;                /* loaded model, once asked for                    */
    int tried;                 /* a load was attempted (a failure is not retried) */
} llm_model_entry;

static llm_model_entry *entries;
static int n_entries;
static pthread_once_t models_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t models_mu = PTHREAD_MUTEX_INITIALIZER;

/* The header of a .dlpm image, parsed without checking its CRC (the load
 * checks it); NULL for the legacy 28-byte layout or a header that is not
 * JSON, which are then loaded at once. */
static cJSON *image_header(const unsigned char *p, size_t len) {
    if (dlp__dlpm_image_len(p, len) != len) return NULL;
    uint32_t h;
    memcpy(&h, p + 8, 4);
    return cJSON_ParseWithLength((const char *)p + DLP__DLPM_FIXED, h);
}

static dlp_xgb *entry_model(llm_model_entry *e) {
    pthread_mutex_lock(&models_mu);
    if (!e->tried) {
        char nm[64];
        snprintf(nm, sizeof nm, "built-in model %d", (int)(e - entries));
        e->tried = 1;
        if (dlp_xgb_load_mem(e->p, e->len, nm, &e->m, NULL) != DLP_OK) e->m = NULL;
    }
    dlp_xgb *m = e->m;
    pthread_mutex_unlock(&models_mu);
    return m;
}

/* The bundle is .dlpm files back to back; each gives its own length. */
static void models_load(void) {
    const unsigned char *p = dlp__llm_models_bundle;
    size_t left = (size_t)dlp__llm_models_bundle_len, len;
    int cap = 0;
    while ((len = dlp__xgb_file_len(p, left)) > 0) {
        if (n_entries == cap) {
            cap = cap ? 2 * cap : 8;
            llm_model_entry *ne = realloc(entries, sizeof *entries * (size_t)cap);
            if (!ne) break;
            entries = ne;
        }
        llm_model_entry *e = &entries[n_entries];
        memset(e, 0, sizeof *e);
        e->p = p;
        e->len = len;
        e->hd = image_header(p, len);
        /* an image whose header cannot be read here is loaded now, and
         * left out when that fails too, as before */
        if (e->hd || entry_model(e)) n_entries++;
        p += len;
        left -= len;
    }
}

int dlp_llm_model_count(void) {
    pthread_once(&models_once, models_load);
    return n_entries;
}

const dlp_xgb *dlp_llm_model_at(int i) {
    pthread_once(&models_once, models_load);
    return i >= 0 && i < n_entries ? entry_model(&entries[i]) : NULL;
}

/* A "meta" string of entry e: from its header while it is not loaded. */
static const char *entry_meta(const llm_model_entry *e, const char *key) {
    if (!e->hd) return e->m ? dlp_xgb_get_meta(e->m, key) : NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(e->hd, "meta"), key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* `item` in a comma-separated list ("*" matches everything). */
static int in_list(const char *list, const char *item) {
    if (!list || !item) return 0;
    size_t n = strlen(item);
    for (const char *s = list; *s;) {
        const char *e = strchr(s, ',');
        size_t k = e ? (size_t)(e - s) : strlen(s);
        if ((k == 1 && *s == '*') || (k == n && !strncmp(s, item, n))) return 1;
        if (!e) break;
        s = e + 1;
    }
    return 0;
}

/* The first shipped model that predicts `what` for this device, dtype and
 * workload kind. */
static const dlp_xgb *find_model(const char *what, const dlp_device *d, const dlp_llm_workload *wl) {
    const char *kind = wl->gen_tokens > 0 ? "generate" : "forward";
    for (int i = 0; i < dlp_llm_model_count(); i++) {
        const llm_model_entry *e = &entries[i];
        if (!in_list(entry_meta(e, "predicts"), what)) continue;
        if (!in_list(entry_meta(e, "workload"), kind)) continue;
        if (!in_list(entry_meta(e, "devices"), d->id)) continue;
        if (!in_list(entry_meta(e, "quants"), dlp_quant_name(wl->quant))) continue;
        const char *ng = entry_meta(e, "max_gpus");
        if (ng && (wl->n_gpus > 1 ? wl->n_gpus : 1) > atoi(ng)) continue;
        /* the first covering model that loads (a damaged one is skipped) */
        const dlp_xgb *m = entry_model(&entries[i]);
        if (m) return m;
    }
    return NULL;
}

/* Evaluate model m on feature vector f (by feature name); relative models
 * multiply the analytic value. */
static dlp_status apply_model(const dlp_xgb *m, const double *f, double analytic_value, double *out,
                              dlp_error *err) {
    int nf = dlp_xgb_feature_count(m);
    float x[DLP_LF_COUNT * 2];
    if (nf > (int)(sizeof x / sizeof x[0])) return dlp__err(err, DLP_EFORMAT, "model has %d features", nf);
    for (int j = 0; j < nf; j++) {
        int k = dlp_llm_feature_index(dlp_xgb_feature_at(m, j));
        x[j] = k >= 0 ? (float)f[k] : NAN;
    }
    double y;
    dlp_status st = dlp_xgb_predict(m, x, 1, &y, err);
    if (st) return st;
    const char *rel = dlp_xgb_get_meta(m, "relative");
    if (rel && !strcmp(rel, "analytic")) {
        /* a bounded correction of the physics (docs/llm.md, "Learned
         * corrections"): never more than DLP_LLM_MAX_FACTOR either way, so
         * a model or GPU the trees never saw cannot run away */
        if (y > DLP_LLM_MAX_FACTOR) y = DLP_LLM_MAX_FACTOR;
        if (y < 1.0 / DLP_LLM_MAX_FACTOR) y = 1.0 / DLP_LLM_MAX_FACTOR;
        y *= analytic_value;
    } else {
        /* an absolute model is held within the same band of the analytic value */
        if (analytic_value > 0 && y > analytic_value * DLP_LLM_MAX_FACTOR) y = analytic_value * DLP_LLM_MAX_FACTOR;
        if (analytic_value > 0 && y < analytic_value / DLP_LLM_MAX_FACTOR) y = analytic_value / DLP_LLM_MAX_FACTOR;
    }
    *out = y;
    return DLP_OK;
}

static void method_name(char *buf, size_t n, const dlp_xgb *m) {
    const char *nm = dlp_xgb_get_meta(m, "name");
    snprintf(buf, n, "xgb:%s", nm ? nm : "unnamed");
}

/* The heads split over attention TP: the GPUs, or gpus / attention-dp when
 * serving with attention data parallelism (each rank has all heads of its
 * own sequences). */
static dlp_status check_heads_split(const dlp_llm_config *c, const dlp_llm_workload *wl, dlp_error *err) {
    int tp = wl->n_gpus > 1 ? wl->n_gpus : 1;
    int adp = (wl->concurrency > 0 || wl->max_fit || wl->rate > 0) && wl->attn_dp > 1 && tp % wl->attn_dp == 0 ? wl->attn_dp : 1;
    int tpa = tp / adp;
    if (tpa <= 1) return DLP_OK;
    int64_t h = c->num_attention_heads, kv = c->num_key_value_heads > 0 ? c->num_key_value_heads : h;
    if (h % tpa)
        return dlp__err(err, DLP_EINVAL,
                        "%s: gpus %d: tensor parallelism splits the %lld attention heads evenly, and %d does "
                        "not divide %lld",
                        c->id, tpa, (long long)h, tpa, (long long)h);
    /* vLLM: KV heads split when tp divides them, replicated when they divide tp */
    if (c->kv_lora_rank <= 0 && kv % tpa && tpa % kv)
        return dlp__err(err, DLP_EINVAL,
                        "%s: gpus %d: the %lld KV heads can be neither split nor replicated over %d GPUs", c->id,
                        tpa, (long long)kv, tpa);
    if (has_layer_kind(c, DLP_LK_MAMBA) && c->mamba_num_heads % tpa)
        return dlp__err(err, DLP_EINVAL, "%s: gpus %d does not divide the %lld Mamba-2 heads", c->id, tpa,
                        (long long)c->mamba_num_heads);
    if (has_layer_kind(c, DLP_LK_LINEAR_ATTN) && ((c->linear_num_key_heads > 0 && c->linear_num_key_heads % tpa) ||
                (c->linear_num_value_heads > 0 && c->linear_num_value_heads % tpa)))
        return dlp__err(err, DLP_EINVAL,
                        "%s: gpus %d does not divide the Gated DeltaNet heads (%lld key, %lld value)", c->id, tpa,
                        (long long)c->linear_num_key_heads, (long long)c->linear_num_value_heads);
    return DLP_OK;
}

/* The request checks of dlp_llm_predict, in the order their messages are
 * given: the device kind, the workload's fields, and the requests nothing
 * could run (docs/llm.md, "Refusals") up to the tensor-parallel splits. */
static dlp_status check_request(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *wl,
                                dlp_error *err) {
    /* the tree models and the analytic model are of GPU serving (memory
     * bandwidth, tensor cores, board power): nothing here describes a CPU */
    if (d->kind != DLP_DEVICE_GPU)
        return dlp__err(err, DLP_EINVAL, "%s: LLM prediction covers GPUs only (%s is a %s)", c->id, d->id,
                        dlp_device_kind_name(d->kind));
    if (wl->batch < 1 || wl->seq < 1 || wl->gen_tokens < 0 || wl->quant < 0 || wl->quant >= DLP_QT_COUNT_ ||
        wl->n_gpus < 0)
        return dlp__err(err, DLP_EINVAL, "%s: bad workload (batch %lld, seq %lld, gen %lld)", c->id,
                        (long long)wl->batch, (long long)wl->seq, (long long)wl->gen_tokens);
    if (!kv_dtype_ok(wl->kv_dtype))
        return dlp__err(err, DLP_EINVAL, "%s: kv dtype '%s' is not fp16, bf16, fp8 or fp32", c->id,
                        dlp_dtype_short(wl->kv_dtype));
    /* requests nothing could run (docs/llm.md, "Refusals") */
    if (c->image_tokens > 0 && c->vision_hidden <= 0)
        return dlp__err(err, DLP_EINVAL,
                        "%s: image tokens %lld: the model has no vision tower (no vision_config); it reads text only",
                        c->id, (long long)c->image_tokens);
    if (c->encoder_only && wl->gen_tokens > 0)
        return dlp__err(err, DLP_EINVAL,
                        "%s: gen %lld: %s is an encoder-only model (%s) and does not generate tokens; use gen 0",
                        c->id, (long long)wl->gen_tokens, c->id, c->model_type);
    int64_t ctx = wl->seq + c->image_tokens + wl->gen_tokens;
    /* the prompt itself must fit; prompt + gen as the engine checks it */
    if (c->max_position_embeddings > 0 &&
        (ctx > dlp__llm_ctx_limit(wl, c->max_position_embeddings) ||
         wl->seq + c->image_tokens > c->max_position_embeddings)) {
        if (wl->gen_tokens > 0)
            return dlp__err(err, DLP_EINVAL,
                            "%s: gen %lld: prompt %lld%s + %lld generated = %lld tokens exceed the model's context "
                            "(max_position_embeddings %lld)",
                            c->id, (long long)wl->gen_tokens, (long long)(wl->seq + c->image_tokens),
                            c->image_tokens ? " (with image tokens)" : "", (long long)wl->gen_tokens, (long long)ctx,
                            (long long)c->max_position_embeddings);
        return dlp__err(err, DLP_EINVAL, "%s: seq %lld%s exceeds the model's context (max_position_embeddings %lld)",
                        c->id, (long long)wl->seq, c->image_tokens ? " + image tokens" : "",
                        (long long)c->max_position_embeddings);
    }
    return check_heads_split(c, wl, err);
}

/* Carbon intensity and PUE of the options' region (-1 and 1 without a
 * database). */
static dlp_status region_of(const dlp_devdb *db, const char *region, double *ci, double *pue, dlp_error *err) {
    *ci = -1;
    *pue = 1.0;
    if (!db) return DLP_OK;
    *ci = dlp_carbon_intensity(db, region);
    *pue = dlp_devdb_pue(db);
    if (*ci < 0)
        return dlp__err(err, DLP_ENOTFOUND, "unknown carbon region '%s' ('dlperf devices --carbon' lists them)",
                        region ? region : "");
    return DLP_OK;
}

static void add_carbon(dlp_llm_prediction *out, double ci, double pue) {
    out->pue = pue;
    out->carbon_g_per_kwh = ci > 0 ? ci : 0;
    out->co2_g = out->energy_j * pue * out->carbon_g_per_kwh / 3.6e6;
}

/* What the weight format computes in, and what the cache stores. */
static void set_dtypes(dlp_llm_prediction *out, const dlp_llm_workload *wl, int cdt) {
    out->compute_dtype = cdt;
    out->kv_dtype = kv_dtype_of(wl);
    out->weight_only = wl->quant >= DLP_QT_INT8 && cdt != DLP_DT_FLOAT8E4M3FN && cdt != DLP_DT_FLOAT4E2M1;
}

/* The serving estimate (concurrency or max_fit): llm_serve.c's iterations,
 * with the methods, dtypes and carbon filled here. */
static dlp_status predict_serving(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *wl,
                                  int cdt, double ci, double pue, dlp_llm_prediction *out, dlp_error *err) {
    if (c->encoder_only)
        return dlp__err(err, DLP_EINVAL, "%s: serving (concurrency, max-fit) is of generation, and %s is an "
                        "encoder-only model (%s)", c->id, c->id, c->model_type);
    /* the serving engines compute bf16 on bf16 units only: vLLM refuses
     * dtype bfloat16 below compute capability 8.0 ("Bfloat16 is only
     * supported on GPUs with compute capability of at least 8.0") and its
     * "auto" casts a bf16 checkpoint to fp16 there, as dlperf's default
     * does (Hugging Face generate emulates bf16, so generate mode answers) */
    if (wl->quant == DLP_QT_BF16 && !dlp_device_supports_dtype(d, DLP_DT_BFLOAT16))
        return dlp__err(err, DLP_EINVAL, "%s: serving in bf16 on %s: the serving engines need bf16 units (compute "
                        "capability >= 8.0) and %s has none; use --dtype fp16 (what vLLM's auto dtype picks there)",
                        c->id, d->id, d->id);
    dlp_status ss = dlp__llm_serve(c, d, wl, cdt, kv_elem_bytes(wl), out, err);
    if (ss) return ss;
    set_dtypes(out, wl, cdt);
    snprintf(out->method, sizeof out->method, "%s", out->method_serving);
    snprintf(out->method_throughput, sizeof out->method_throughput, "%s", out->method_serving);
    snprintf(out->method_energy, sizeof out->method_energy, "%s", out->method_serving);
    snprintf(out->method_memory, sizeof out->method_memory, "analytic");
    add_carbon(out, ci, pue);
    return DLP_OK;
}

/* Batch 1 must fit: the one memory story (dlp__llm_mem_need: weights, the
 * prompt's activations, its cache, the runtime's reserve) per GPU, the test
 * and the words serving uses for one request. */
static dlp_status check_fits_batch1(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *wl,
                                    const dlp_llm_weights *w, int tp, dlp_error *err) {
    dlp_llm_memory m;
    dlp__llm_mem_need(c, wl->quant, (double)w->weight_bytes[wl->quant], kv_elem_bytes(wl), tp, tp, 1, wl->seq,
                      wl->gen_tokens, &m);
    return m.total_mb > d->memory_gib * 1024.0 ? dlp__llm_mem_refuse(c, d, tp, &m, err) : DLP_OK;
}

/* Memory: the one story at the workload's batch, split over the
 * tensor-parallel GPUs; activations_mb holds the activations and the
 * caches, memory_mb the runtime's reserve too (fits is its test). */
static void predict_memory(const dlp_llm_config *c, const dlp_llm_workload *wl, const dlp_device *d,
                           const dlp_llm_weights *w, int ngpu, dlp_llm_prediction *out) {
    dlp__llm_mem_need(c, wl->quant, (double)w->weight_bytes[wl->quant], kv_elem_bytes(wl), ngpu, ngpu, wl->batch,
                      wl->seq, wl->gen_tokens, &out->need);
    out->weights_mb = out->need.weights_mb;
    out->activations_mb = out->need.activations_mb + out->need.kv_mb;
    out->memory_mb = out->need.total_mb;
    out->fits = out->memory_mb <= d->memory_gib * 1024.0;
    snprintf(out->method_memory, sizeof out->method_memory, "analytic");
}

/* Latency: a shipped latency or tokens/s tree on features f, else the
 * analytic one. */
static double predict_latency(const dlp_device *d, const dlp_llm_workload *wl, const analytic_t *a, const double *f,
                              int analytic_only, dlp_llm_prediction *out) {
    double lat = a->latency_ms;
    snprintf(out->method_throughput, sizeof out->method_throughput, "analytic");
    const dlp_xgb *m;
    if (!analytic_only && (m = find_model("latency_ms", d, wl))) {
        double v;
        if (apply_model(m, f, a->latency_ms, &v, NULL) == DLP_OK && isfinite(v) && v > 0) {
            lat = v;
            method_name(out->method_throughput, sizeof out->method_throughput, m);
        }
    } else if (!analytic_only && (m = find_model("tokens_per_s", d, wl))) {
        double v, tok = (double)wl->batch * (double)(wl->seq + wl->gen_tokens);
        if (apply_model(m, f, tok / (a->latency_ms * 1e-3), &v, NULL) == DLP_OK && isfinite(v) && v > 0) {
            lat = tok / v * 1e3;
            method_name(out->method_throughput, sizeof out->method_throughput, m);
        }
    }
    return lat;
}

/* VLMs: the vision tower over each sequence's images, once per batch before
 * the prefill; outside the trees (they saw text only).  Adds to *lat and to
 * the analytic latency. */
static void add_vision(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *wl, int ngpu,
                       double *lat, analytic_t *a, dlp_llm_prediction *out) {
    double vbusy;
    out->vision_params = dlp_llm_vision_params(c);
    out->vision_ms = dlp__llm_vision_s(c, d, dlp_quant_act_dtype(wl->quant), c->image_tokens, ngpu, &vbusy) * 1e3 *
                    (double)wl->batch;
    *lat += out->vision_ms;
    a->latency_ms += out->vision_ms;
    /* the tower's weights are in the memory story's weights already */
}

/* Energy: a trained energy model, else analytic power x latency; power
 * never above TDP per GPU. */
static void predict_energy(const dlp_device *d, const dlp_llm_workload *wl, const analytic_t *a, const double *f,
                           double lat, int ngpu, int analytic_only, dlp_llm_prediction *out) {
    const dlp_xgb *m;
    out->power_w = a->power_w;
    out->energy_j = a->power_w * lat * 1e-3 / (double)wl->batch;
    snprintf(out->method_energy, sizeof out->method_energy, "%s",
             strcmp(out->method_throughput, "analytic") ? "analytic power x learned latency" : "analytic");
    if (analytic_only || !(m = find_model("energy_j", d, wl))) return;
    double v;
    if (apply_model(m, f, a->power_w * a->latency_ms * 1e-3 / (double)wl->batch, &v, NULL) != DLP_OK ||
        !isfinite(v) || v <= 0)
        return;
    out->energy_j = v;
    out->power_w = v * (double)wl->batch / (lat * 1e-3);
    method_name(out->method_energy, sizeof out->method_energy, m);
    /* power never above TDP per GPU: the energy the latency allows */
    double cap = d->tdp_w * (double)ngpu;
    if (out->power_w > cap) {
        out->power_w = cap;
        out->energy_j = cap * lat * 1e-3 / (double)wl->batch;
        snprintf(out->method_energy + strlen(out->method_energy),
                 sizeof out->method_energy - strlen(out->method_energy), " (capped at TDP)");
    }
}

/* Generate mode and forward passes: build the graph, time it analytically,
 * let the shipped trees correct latency and energy. */
static dlp_status predict_generate(const dlp_llm_config *c, const dlp_device *d, const dlp_devdb *db,
                                   const dlp_llm_workload *wl, int analytic_only, int cdt,
                                   dlp_llm_prediction *out, dlp_error *err) {
    int tp = wl->n_gpus > 1 ? wl->n_gpus : 1;
    int64_t ctx = wl->seq + c->image_tokens + wl->gen_tokens;
    dlp_graph *g = NULL;
    dlp_llm_weights w;
    dlp_status st = dlp_llm_build(c, wl->batch, wl->seq, wl->quant, &g, &w, err);
    if (st) return st;
    dlp_graph_stats gs;
    dlp_graph_stats_get(g, &gs);
    if ((st = check_fits_batch1(c, d, wl, &w, tp, err))) {
        dlp_graph_free(g);
        return st;
    }
    analytic_t a;
    analytic(c, g, &w, wl, d, db, &a);
    double f[DLP_LF_COUNT];
    features_with(c, g, &w, wl, d, &a, f);
    out->params = w.params;
    out->active_params = w.active_params;
    /* what a decoder's prefill + generation leaves in the cache; encoders keep none */
    out->kv_bytes_per_seq = c->encoder_only ? 0 : dlp_llm_kv_bytes(c, ctx, kv_elem_bytes(wl));
    set_dtypes(out, wl, cdt);
    out->macs = gs.macs;
    out->nodes = gs.nodes;
    out->edges = gs.edges;
    predict_memory(c, wl, d, &w, tp, out);
    double lat = predict_latency(d, wl, &a, f, analytic_only, out);
    add_vision(c, d, wl, tp, &lat, &a, out);
    out->latency_ms = lat;
    out->latency_analytic_ms = a.latency_ms;
    out->energy_analytic_j = a.power_w * a.latency_ms * 1e-3 / (double)wl->batch;
    out->throughput_sps = (double)wl->batch / (lat * 1e-3);
    out->tokens_per_s = (double)wl->batch * (double)(wl->seq + wl->gen_tokens) / (lat * 1e-3);
    predict_energy(d, wl, &a, f, lat, tp, analytic_only, out);
    snprintf(out->method, sizeof out->method, "%s", out->method_throughput);
    dlp_graph_free(g);
    return DLP_OK;
}

/* Speculative decoding (MTP) is a property of a serving decode loop: the
 * draft depth and the measured acceptance come together, the acceptance
 * within [0, depth]; generate mode, prefill workers and vllm-v0 (which had
 * none) refuse it rather than ignore it. */
static dlp_status check_spec(const dlp_llm_config *c, const dlp_llm_workload *wl, dlp_error *err) {
    if (wl->spec_tokens == 0 && wl->spec_accepted == 0) return DLP_OK;
    if (wl->spec_tokens < 1 || wl->spec_tokens > 16 || !isfinite(wl->spec_accepted) || wl->spec_accepted < 0 ||
        wl->spec_accepted > wl->spec_tokens)
        return dlp__err(err, DLP_EINVAL, "%s: mtp %d tokens, %g accepted: the draft depth is 1..16 and the accepted "
                        "drafts per step a measured mean in [0, depth]", c->id, wl->spec_tokens, wl->spec_accepted);
    if (!(wl->concurrency > 0 || wl->max_fit || wl->rate > 0))
        return dlp__err(err, DLP_EINVAL, "%s: mtp: speculative decoding is a serving option (give a concurrency, a "
                        "rate or max-fit)", c->id);
    if (wl->phase == DLP_LLM_PREFILL_ONLY)
        return dlp__err(err, DLP_EINVAL, "%s: mtp: a prefill worker decodes nothing to speculate on", c->id);
    if (wl->engine == DLP_LLM_ENGINE_VLLM_V0)
        return dlp__err(err, DLP_EINVAL, "%s: mtp: the vllm-v0 engine has no speculative decoding", c->id);
    return DLP_OK;
}

dlp_status dlp_llm_predict(const dlp_llm_config *c, const dlp_device *d, const dlp_devdb *db,
                           const dlp_llm_workload *wl, const dlp_llm_predict_opts *opts,
                           dlp_llm_prediction *out, dlp_error *err) {
    if (!c || !d || !wl || !out) return dlp__err(err, DLP_EINVAL, "dlp_llm_predict: NULL argument");
    memset(out, 0, sizeof *out);
    static const dlp_llm_predict_opts defaults;   /* NULL options: the database's region, trees allowed */
    if (!opts) opts = &defaults;
    dlp_status st = check_request(c, d, wl, err);
    if (st) return st;
    char why[320];
    int cdt = dlp_llm_compute_dtype(d, wl->quant, why, sizeof why);
    if (cdt < 0) return dlp__err(err, DLP_EINVAL, "%s: dtype %s: %s", c->id, dlp_quant_name(wl->quant), why);
    double ci, pue;
    if ((st = region_of(db, opts->region, &ci, &pue, err))) return st;
    if (wl->concurrency < 0 || wl->ep < 0 || wl->attn_dp < 0 || wl->mem_fraction < 0 || wl->mem_fraction > 1 ||
        wl->phase < DLP_LLM_AGG || wl->phase > DLP_LLM_DECODE_ONLY)
        return dlp__err(err, DLP_EINVAL, "%s: bad serving workload (concurrency %lld, ep %d, attention-dp %d, memory "
                        "fraction %g)", c->id, (long long)wl->concurrency, wl->ep, wl->attn_dp, wl->mem_fraction);
    if (!(wl->rate >= 0) || !isfinite(wl->rate) || wl->engine < DLP_LLM_ENGINE_MODERN ||
        wl->engine > DLP_LLM_ENGINE_TRTLLM)
        return dlp__err(err, DLP_EINVAL, "%s: bad serving workload (rate %g, engine %d)", c->id, wl->rate, wl->engine);
    if ((st = check_spec(c, wl, err))) return st;
    /* one client model at a time: closed-loop clients or Poisson arrivals */
    if (wl->rate > 0 && (wl->concurrency > 0 || wl->max_fit))
        return dlp__err(err, DLP_EINVAL, "%s: rate %g req/s and %s are two client models: give one", c->id, wl->rate,
                        wl->max_fit ? "max-fit" : "concurrency");
    if (wl->rate > 0 && wl->phase != DLP_LLM_AGG)
        return dlp__err(err, DLP_EINVAL, "%s: rate: Poisson arrivals are of an aggregated replica (phase agg), not a "
                        "%s worker", c->id, dlp_llm_phase_name(wl->phase));
    if (wl->concurrency > 0 || wl->max_fit || wl->rate > 0) return predict_serving(c, d, wl, cdt, ci, pue, out, err);
    if ((st = predict_generate(c, d, db, wl, opts->analytic_only, cdt, out, err))) return st;
    add_carbon(out, ci, pue);
    return DLP_OK;
}
