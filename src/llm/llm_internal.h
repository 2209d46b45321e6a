/*
 * llm_internal.h — shared by src/llm/llm.c and llm_serve.c.  Not public.
 */
#ifndef DLP_MODELS_LLM_INTERNAL_H
#define DLP_MODELS_LLM_INTERNAL_H

#include "dlperf.h"

/* The serving estimate (docs/llm.md, "Serving") of a validated workload
 * (concurrency > 0 or max_fit) computing in cdt with kv_eb bytes per cached
 * element: fills the serving fields of *out and the per-request ones
 * (latency = e2e, energy per request, power).  DLP_EINVAL when the cache
 * has no room for one sequence. */
dlp_status dlp__llm_serve(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *wl, int cdt,
                          double kv_eb, dlp_llm_prediction *out, dlp_error *err);
/* Recompute e2e, throughputs, power and energies from ttft_ms, tpot_ms,
 * power_per_gpu_w and concurrency. */
void dlp__llm_serve_derive(dlp_llm_prediction *out, const dlp_llm_workload *wl, int n_gpus);

/* Seconds the vision tower takes over `image_tokens` image tokens (one
 * request's images) computing in adt, sharded over tp GPUs; *busy the
 * roofline seconds (power).  0 for text-only models (llm_vision.c). */
double dlp__llm_vision_s(const dlp_llm_config *c, const dlp_device *d, int adt, int64_t image_tokens, int tp,
                         double *busy);

/* The graph whose live activations a forward of (batch, seq) holds: the
 * model itself, or for an MoE the same model with only the experts a token
 * is routed to (experts_per_token of num_experts): activations are per routed
 * token, and the builder's one-token graph pads every expert (llm_serve.c).
 * Falls back to the full graph when the reduced config does not build. */
dlp_status dlp__llm_act_graph(const dlp_llm_config *c, int64_t batch, int64_t seq, int quant, dlp_graph **g,
                              dlp_error *err);

/* One memory story (docs/llm.md; llm_serve.c): the GPUs one sequence's cache
 * splits over; the peak live activation bytes of a forward over batch x seq
 * (MoE per routed token; remembered); what a workload of batch sequences of
 * seq (+ image) + gen tokens needs per GPU, which both modes print and test;
 * and the one refusal of a request that does not fit. */
int dlp__llm_kv_shard(const dlp_llm_config *c, int tp_attn);
double dlp__llm_prompt_act_bytes(const dlp_llm_config *c, int64_t batch, int64_t seq, int quant);
void dlp__llm_mem_need(const dlp_llm_config *c, int quant, double weight_bytes, double kv_eb, int n_gpus,
                       int tp_attn, int64_t batch, int64_t seq, int64_t gen, dlp_llm_memory *m);
/* Serving's chunk workspace per GPU (llm_serve.c): the peak activations of
 * the engine's profiling forward over chunk_tokens shared by
 * min(chunk_tokens, max_seqs) requests, over tp_attn GPUs: token-wise
 * parts per token, a recurrent state per request, at most 8 GiB. */
double dlp__llm_chunk_workspace(const dlp_llm_config *c, int quant, int tp_attn, int64_t max_seqs,
                                int64_t chunk_tokens);
/* The most prompt (+ image) + generated tokens the engine runs for a
 * model of `positions` (llm_serve.c): positions, or positions + 1 for
 * vllm-v0 offline (its stop check lets the last sampled token go past). */
int64_t dlp__llm_ctx_limit(const dlp_llm_workload *wl, int64_t positions);
/* The serving engine's prefill chunk and running limit (llm_serve.c): the
 * workload's where it sets them, else the engine's own defaults by engine,
 * client mode (served / offline) and the GPU's memory, from its source
 * (docs/llm.md, "Engine defaults"). */
void dlp__llm_engine_defaults(const dlp_device *d, const dlp_llm_workload *wl, int64_t *chunk, int64_t *max_seqs);
dlp_status dlp__llm_mem_refuse(const dlp_llm_config *c, const dlp_device *d, int n_gpus, const dlp_llm_memory *m,
                               dlp_error *err);

/* Seconds of one NCCL collective of `bytes` per GPU over n GPUs of d: the
 * serving model's measured H100/A100 tables scaled by d's link (llm_serve.c,
 * coll_s); also the training planner's gradient all-reduce (src/plan). */
enum { DLP__COLL_ALLREDUCE = 0, DLP__COLL_ALLGATHER, DLP__COLL_REDUCESCATTER, DLP__COLL_ALLTOALL };
double dlp__llm_coll_s(const dlp_device *d, int op, int n, double bytes);

/* Weight-only 4-bit MoE experts (llm_serve.c; docs/llm.md, "Weight-only
 * 4-bit MoE"): whether `quant` runs its experts as W4A16 on d (int4 everywhere;
 * mxfp4/nvfp4 where d has no FP4 tensor cores), and the seconds one expert
 * matrix of one layer takes at least when its rows hit `hit` experts: its
 * `share` of an expert's weights times the module's fixed time and of the
 * per-expert time, plus its slice of `slice_bytes` per expert streamed at a
 * fitted share of the bandwidth bw (bytes/s).  Fitted on aiconfigurator's
 * kernel tables (tools/moe/fit_w4a16_moe.py); 0 on bad input. */
int dlp__llm_w4a16_moe(const dlp_device *d, int quant);
double dlp__llm_w4a16_moe_s(double hit, double share, double slice_bytes, double bw);
/* The fitted MoE kernels (llm_serve.c; docs/llm.md, "16-bit and fp8 MoE
 * kernels"): which one runs the experts of `quant` on d (W4A16 as
 * dlp__llm_w4a16_moe; 16-bit and W8A8 fp8 on NVIDIA tensor cores; else
 * none), and the seconds of one expert matrix under it as `engine`
 * (dlp_llm_engine) runs it, as dlp__llm_w4a16_moe_s (kind W4A16, one fit
 * for every engine); 0 for none or bad input.
 * Fitted on aiconfigurator's kernel tables (tools/moe/fit_16_fp8_moe.py). */
enum { DLP__MOEK_NONE = 0, DLP__MOEK_W4A16, DLP__MOEK_16, DLP__MOEK_FP8, DLP__MOEK_NVFP4 };
int dlp__llm_moe_kernel(const dlp_device *d, int quant);
double dlp__llm_moe_kernel_s(int kind, int engine, double hit, double share, double slice_bytes, double bw);
/* The same floor summed over one forward's expert matrices (llm_serve.c:
 * the serving profile's, which iteration floors one by one) for `tokens`
 * tokens on one of n_gpus tensor-parallel GPUs (experts sliced n_gpus ways,
 * no expert parallelism): what generate mode's decode steps and prefill
 * take at least for their experts.  0 where the experts do not run W4A16
 * on d (or the model has none). */
double dlp__llm_w4a16_moe_floor_s(const dlp_llm_config *c, const dlp_device *d, int quant, int n_gpus,
                                  double tokens);

/* One serving iteration (llm_serve.c) over n_dec decode tokens at context
 * ctx and n_pf prompt tokens of prompts pf_len long, split by what each of
 * its terms adds: every weight-matrix entry of the profile (k x n unsplit,
 * experts, how many such matrices in one forward, kind 0 dense, 1 expert,
 * 2 LM head, 3 router) with the seconds all of them take together; decode
 * and prefill attention over all attention layers; a recurrent state; the
 * other kernels (norms, rotary, activations, residuals: the per-token bytes
 * plus the per-layer launch floors); collectives; the engine's CPU side.
 * For per-operator checks against kernel profiles (bench/bench_vidur.c):
 * the same function the serving estimate times its steps with. */
#define DLP__LLM_PARTS_LIN 48
typedef struct dlp__llm_parts {
    int n_lin, attn_layers, tp_attn;
    double lin_k[DLP__LLM_PARTS_LIN], lin_n[DLP__LLM_PARTS_LIN], lin_experts[DLP__LLM_PARTS_LIN];
    double lin_count[DLP__LLM_PARTS_LIN], lin_s[DLP__LLM_PARTS_LIN];
    int lin_kind[DLP__LLM_PARTS_LIN];
    double attn_dec_s, attn_pf_s, state_s, other_s, comm_s, ovh_s, total_s;
    double attn_sm_s; /* power only: the SMs' side a floor-bound decode attention
                         draws beyond its bytes (floor_sm_draw), s of peak BW */
} dlp__llm_parts;
dlp_status dlp__llm_iter_parts(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *wl, int cdt,
                               double kv_eb, double n_dec, double ctx, double n_pf, double pf_len,
                               dlp__llm_parts *out, dlp_error *err);

/* Attention DP (llm_serve.c, h139): the decode sequences the busiest of dp
 * ranks holds when n run in all (*seqs; at least one, a dummy on an idle
 * rank) and the rows it runs: in a decode-only step padded to `engine`'s
 * next captured CUDA-graph batch size (TensorRT-LLM, SGLang; spec: SGLang's
 * speculative-decoding list). */
double dlp__llm_adp_rank_rows(int engine, int spec, int dp, double n, int decode_only, double *seqs);

/* vLLM 0.6.1's offline batches on ROCm (the modern engine, offline, an AMD
 * device): every GPU part of a step x this (llm_serve.c rocm_offline_gpu_x,
 * docs/llm.md "h141"), and on CDNA3 a decode-only step at least its GEMM
 * FLOPs at this many FLOP per compute unit per clock (rocm_gemm_rate,
 * h160).  The factor is refit with the floor in place (the bench prints
 * it), the rate on MI300X's rows with the floor off
 * (tools/infbench/rocm_gemm_floor_proto.py on bench_serving
 * --no-rocm-floor rows; h184 refit it 54 -> 60 with the V1 term below, on
 * the bench's own grid).  dlp__llm_knob.rocm_floor_off (bench-only, as
 * dlp__llm_knob.ttft_sim) leaves the floor out. */
#define DLP__LLM_ROCM_OFFLINE_GPU_X 2.27
#define DLP__LLM_ROCM_GEMM_PER_CU_CLK 60.0

dlp_status dlp__llm_ew_bytes_pt(const dlp_llm_config *c, int quant, double *all, double *moe, dlp_error *err);
/* gpt-oss's mxfp4 experts under the trtllm-gen MoE kernel on Blackwell
 * (llm_serve.c, issue 22, h223): the zero padding's factor on a rank's
 * expert weights and math (dlp__llm_knob.trtgen_mxfp4 bit 1). */
double dlp__llm_trtgen_mxfp4_pad(const dlp_device *d, int quant, int engine, double H, double I, int moe_tp);

/* The same path's decode attention where vLLM runs paged attention V1 for
 * many thread blocks (sequences x query heads > 512): a GQA group's query
 * heads re-read their KV head's cache, the re-reads streaming at this share
 * of the memory bandwidth (llm_serve.c rocm_v1_extra_s, docs/llm.md
 * "h184"); fitted on both ROCm GPUs' rows, held out by GPU and by family
 * (tools/infbench/rocm_v1_proto.py).  dlp__llm_knob.rocm_floor_off leaves it out
 * too; dlp__llm_knob.rocm_v1_eta and dlp__llm_knob.rocm_gemm_c (bench-only): 0 the
 * compiled-in value, > 0 another. */
#define DLP__LLM_ROCM_V1_ETA 0.30

/* TensorRT-LLM's offline engines (0.11 / 0.12, multi_block_mode off): one
 * decode-attention thread block streams one KV head's cache of one
 * sequence at this many bytes per SM clock (llm_serve.c trt_cta_rate,
 * docs/llm.md "h173"), fitted on LLM-Inference-Bench's TensorRT-LLM rows;
 * the bench prints the refit held out by GPU and family.
 * dlp__llm_knob.trt_cta_bpc (bench-only): 0 the compiled-in rate, > 0 another,
 * < 0 no floor. */
#define DLP__LLM_TRT_CTA_BYTES_PER_CLK 28.0

/* TensorRT-LLM 0.11's XQA decode attention (wl->trt_xqa_block): one block
 * per (KV head, sequence), in waves of one per SM, each streaming one KV
 * head's cache of one sequence at this many bytes per SM clock (llm_serve.c
 * trt_xqa_rate, docs/llm.md "h210"), fitted on LLM-Inference-Bench's A100 /
 * H100 TensorRT-LLM GQA rows; the bench prints the refit held out by GPU and
 * family.  dlp__llm_knob.trt_xqa_bpc (bench-only): 0 the compiled-in rate, > 0
 * another, < 0 none. */
#define DLP__LLM_TRT_XQA_BYTES_PER_CLK 6.9

/* The modern engines' memory share of the serving power as compiled in:
 * fitted on LLM-Inference-Bench's power rows (docs/llm.md "h225";
 * llm_serve.c P_FIT_MEM says how, the bench prints the refit) */
#define DLP__LLM_P_FIT_MEM 0.63

/* An eager engine's host time per layer per step, ms (wl->eager; llm_serve.c
 * EAGER_LAYER_MS, docs/llm.md "Eager engines"); bench_serving.c prints its
 * refit on splitwise's decode steps with the held-out checks. */
#define DLP__LLM_EAGER_LAYER_MS 0.210

/* The library's bench-only what-ifs, in one place (issue 22, h231).  Each
 * turns a mechanism off, or overrides a compiled-in fit, so that the bench
 * (bench_serving / bench_vidur flags), the tests and the tools/ prototypes
 * can measure the before or refit a constant; the library's own callers
 * never set them.  The one definition, with every default, is
 * llm_knobs.c's; a field's default leaves the answers as shipped.  Not
 * thread-safe: a caller sets a field, predicts and restores it on one
 * thread. */
typedef struct dlp__llm_knobs {
    /* the aggregated closed loop's TTFT simulated step by step (sim_ttft, "h152"): 0 off, 1 --ttft-sim */
    int ttft_sim;
    /* 1: vLLM ROCm's CDNA3 GEMM floor and V1 re-reads left out ("h160", "h184"; --no-rocm-floor) */
    int rocm_floor_off;
    /* that floor's FLOP per CU per clock: 0 DLP__LLM_ROCM_GEMM_PER_CU_CLK, > 0 another ("h160"; --rocm-gemm-c) */
    double rocm_gemm_c;
    /* paged attention V1 re-reads' bandwidth share: 0 DLP__LLM_ROCM_V1_ETA, > 0 another ("h184"; --rocm-v1-eta) */
    double rocm_v1_eta;
    /* 1: TensorRT-LLM admitted as vLLM, preempting: h185's before (--vllm-admission) */
    int trt_evict;
    /* the element-wise work as the engines' fused kernels (fused_elem, "h198"): 0 off, 1 on (--fused-elem) */
    int fused_elem;
    /* those kernels' DRAM bandwidth share: 0 FUSED_ELEM_ETA, > 0 another ("h198"; --fused-eta) */
    double fused_eta;
    /* each GEMM call its own kernel on the curve (gemm_kadd, "h211"): -1 as fused_elem, 0 never, 1 always */
    int gemm_each;
    /* gpt-oss mxfp4 under trtllm-gen ("h223"): bits 1 padding, 2 fused block, 4 prefill fit; 7 all, 0 none */
    int trtgen_mxfp4;
    /* that prefill fit {a us, eta} ("h223"; --trtgen-pf A,ETA for the held-out runs) */
    double trtgen_pf[2];
    /* TensorRT-LLM offline decode-attention block bytes per SM clock ("h173"): 0 compiled, > 0 another, < 0 none */
    double trt_cta_bpc;
    /* TensorRT-LLM 0.11 XQA block bytes per SM clock ("h210"; --trt-xqa-bpc): 0 compiled, > 0 another, < 0 none */
    double trt_xqa_bpc;
    /* TensorRT-LLM 0.11 host ms per layer per step (trt011_host_s, "h222"; --trt011-layer-ms): 0 none */
    double trt011_layer_ms;
    /* decode MoE refit on the true hits ("h227"): 0 off, 1 all, 2 but TRT fp8, 3 TRT fp8 EP, 4 2+3, 5 4 but vLLM 16 (default) */
    int moe_hits_fit;
    /* the SMs' draw under a decode-attention floor (floor_sm_draw, "h214"): 1 on, 0 off (--no-floor-sm) */
    int floor_sm_draw;
    /* modern engines' memory share of serving power: 0 DLP__LLM_P_FIT_MEM, > 0 another ("h225"; --p-fit-mem) */
    double p_fit_mem;
    /* the absorbed MLA decode kernel's math floor (mla_dec_math_s, "h229"; --mla-dec-math): 1 on (default), 0 off */
    int mla_dec_math;
    /* a decode-only step's experts on the busiest EP rank (ep_busiest_hits, "h236"; --ep-busiest): 0 off, 1 on */
    int ep_busiest;
    /* TensorRT-LLM's MLA generation module floor (mla_gen_floor_s, "h236"; --mla-gen-mod): 0 off, 1 on, 2 Hopper only */
    int mla_gen_mod;
    /* SGLang's DSA generation module floor (dsa_gen_floor_s, "h245"; --dsa-gen-mod): bit 1 Hopper, bit 2 Blackwell; 0 off */
    int dsa_gen_mod;
    /* SGLang's routed-rows term at prefill sizes (MOE_PF_ROWS_SGL, "h244"; --sgl-moe-rows): bits 1 Blackwell
     * fp8, 2 Hopper fp8, 4 Blackwell nvfp4; 0 off */
    int sgl_moe_rows;
    /* SGLang's front end on the B300 runner fleet (sgl_req_ms_of, "h248"; --sgl-b300-req-ms): ms a request, 0 off
     * (REQ_FIT_SGLANG_MS everywhere) */
    double sgl_b300_req_ms;
    /* SGLang's MLA prefill attention op floor (sgl_fmha_s, "h241"; --sgl-fmha): bit 1 Blackwell, bit 2 Hopper; 0 off */
    int sgl_fmha;
    /* TensorRT-LLM nvfp4 MoE steps on Blackwell with the element-wise work as fused kernels (trt_fp4_ew_on, "h240";
       --trt-fp4-ew): bit 1 the steps with prompt tokens, bit 2 the decode-only steps; 0 off */
    int trt_fp4_ew;
    /* h246: TensorRT-LLM's MLA context module without the graph's attention element-wise bytes (trt_mla_ew_off) */
    int trt_mla_ew;
    /* the busiest EP rank of an nvfp4 MoE at prefill sizes on its own fit (moe_pf_imbalance_s, "h240";
       --moe-imb-fp4): bit 1 TensorRT-LLM, bit 2 the other engines; 0 the pooled fit */
    int moe_imb_fp4;
    /* the triton fp8 decode MoE refit with the collectors' group-limited router (moe_fit_grouped, "h242";
     * --moe-grouped): 0 off, 1 SGLang, 2 SGLang and vLLM */
    int moe_grouped;
    /* SGLang's block-fp8 MoE on Blackwell as FlashInfer's trtllm-gen kernel the runs ran (sgl_moe_fi, "h247";
     * --sgl-moe-fi): bit 1 the prefill refit on its rows, bit 2 the trtllm-gen decode fit; 0 off */
    int sgl_moe_fi;
} dlp__llm_knobs;
extern dlp__llm_knobs dlp__llm_knob;

#endif
