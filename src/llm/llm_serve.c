/*
 * llm_serve.c — the serving model of `dlperf llm` (docs/llm.md, "Serving"):
 * time to first token, time per output token, throughput at a concurrency,
 * KV-cache capacity, energy per request, for one replica of n_gpus GPUs
 * running continuous batching (vLLM, SGLang, TensorRT-LLM).
 *
 * Why a model of its own rather than the forward graph: a serving engine
 * runs *iterations*, each one forward pass over a mix of decode tokens (one
 * per running sequence) and prefill tokens (chunks of new prompts), and the
 * cost of an iteration is the sum of what those tokens do to the weights,
 * the KV cache and the interconnect.  We take the model's shape from the
 * graph the builder makes (one token, so every architecture the builder
 * knows — GQA, MLA, MoE, sliding windows, Mamba — comes for free): its
 * weight matrices (K, N, experts), the bytes its other kernels move per
 * token, and the cache bytes per token (dlp_llm_kv_bytes).  That profile is
 * cached per config, so a prediction is a few dozen kernel-time evaluations
 * (>= 10k predictions/s, bench/bench_llm.sh speed).
 *
 * Kernel times use the same per-precision efficiency curves as `dlperf
 * predict` (src/predict/curves.c): GEMM for the weight matrices, attention
 * for the cache, elementwise for the rest; collectives interpolate
 * aiconfigurator's measured NCCL tables (nccl_table.inc), scaled by the
 * device's NVLink bandwidth.  The steady state of continuous batching with
 * fixed prompt S and output G at concurrency C:
 *   - every iteration decodes the running sequences (about C) and prefills
 *     C S / G prompt tokens on average (each request is prefilled once per G
 *     decode steps): TPOT = that mixed iteration;
 *   - a new request waits on average half an iteration, then its S tokens
 *     run in mixed iterations (chunked prefill) beside the decodes: TTFT;
 *   - throughput = C G / (TTFT + (G - 1) TPOT) output tokens/s.
 * Disaggregated workers: a prefill worker runs prefill-only iterations
 * (TTFT), a decode worker decode-only ones (TPOT).
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llm/llm_internal.h"
#include "predict/roofline.h"
#include "predict/curves.h"
#include "predict/power.h"
#include "util/util.h"

#include "llm/nccl_table.inc"

/* ---- fixed costs (docs/llm.md "Serving") ---- */
/* The engine's CPU side of a step: a fixed part (scheduler, launch of the
 * step) and a part per running sequence (sampling, detokenising, the
 * scheduler's and the output processor's per-request work).
 *   modern (vLLM >= 0.6 / V1, SGLang, TensorRT-LLM) overlaps most of it
 *   with the GPU: round numbers (vLLM V1 profiles put a 256-sequence
 *   step's CPU side at a few ms, mostly hidden); a least-squares fit on
 *   aiconfigurator's 3,538 aggregated TPOTs finds no better pair (negative
 *   per-sequence slopes), so they stay.
 *   vllm-v0 (vLLM <= 0.5) runs the CPU work between GPU steps: fitted on
 *   the ML.ENERGY leaderboard v2 TPOTs (vLLM 0.5.4, A100 and H100, 308
 *   runs at 32..1536 running sequences; bench/bench_llm.sh --serving
 *   leaderboard prints the fit with leave-one-GPU-out and
 *   leave-one-family-out).  About 0.2 ms per sequence per step: at 1,000
 *   running sequences the step is 200 ms of Python whatever the model,
 *   which is why that engine's tok/s flattens near 2,000 on every model. */
#define VLLM_V0_FIXED_MS 20.5
#define VLLM_V0_SEQ_MS 0.217
/* vLLM <= 0.5 under tensor parallelism: the driver process broadcasts each
 * step's inputs (broadcast_tensor_dict) to its n - 1 worker processes, which
 * then prepare their own inputs in Python before the first all-reduce lines
 * them up (vllm-project/vllm#5792; V1 replaced it with one shared-memory
 * queue, vllm#9856): a per-step cost per extra GPU.  Fitted with the two
 * above on the leaderboard (its 70B-class runs on 4-8 GPUs decode 2x slower
 * than their GPU time and a single GPU's engine time explain). */
#define VLLM_V0_WORKER_MS 11.8
/* vLLM <= 0.5 offline (LLM.generate(), wl->offline): the leaderboard's runs
 * above went through the OpenAI API server, which in vLLM <= 0.5 ran in the
 * engine's own process and competed with it for the GIL, so its constants
 * are server time too.  Offline, fitted on LLM-Inference-Bench's vLLM <= 0.5
 * rows (vLLM 0.5.3 on H100 and GH200, 549 offline batches, B 1-256, 1-8
 * GPUs; bench/bench_llm.sh --serving all prints the refit, in vllm-v0's
 * form, on each batch's derived step: (latency - the predicted prefill) /
 * (gen - 1) less the predicted GPU step; the predicted prefill carries
 * these constants in its steps, so the fit is taken at its fixed point,
 * one iteration from the first).  Held out (e2e MAPE, fit against the
 * leaderboard's constants x 29 / 62 from the vLLM team's v0.5.3 split
 * that stood here before, h124): leave-one-GPU-out GH200 4.2 vs 74.1 %,
 * H100's one-GPU rows 8.3 vs 74.4 % (GH200 has one GPU count: the per-GPU
 * term is held out by family and by the next data set only),
 * leave-one-family-out 7.1 vs 199.9 %, and splitwise-sim's decode steps
 * (another stack, nothing of it fitted) 41.8 vs 103.4 %.  The residual
 * holds any error of the predicted GPU step on those two GPUs as well as
 * host time. */
#define VLLM_V0_OFFLINE_FIXED_MS 2.26
#define VLLM_V0_OFFLINE_SEQ_MS 0.0658
#define VLLM_V0_OFFLINE_WORKER_MS 0.160
/* req_ms: a request's way through the front end before and after its
 * prefill (HTTP, tokenising the prompt, handing it to the engine, the first
 * token detokenised and streamed back), in every TTFT a client measures.
 * Fitted per engine on aiconfigurator's aggregated TTFTs (weighted least
 * squares of the residual over each backend's rows; bench/bench_llm.sh
 * --serving silicon prints the refit with leave-one-GPU-out and
 * leave-one-family-out).  The engines' front ends differ: SGLang hands a
 * request through separate tokenizer, scheduler and detokenizer processes
 * (ZMQ between them), vLLM >= 0.6 one API-server process to the engine
 * core, TensorRT-LLM its own executor (trtllm-serve).  The leaderboard has
 * no TTFT, so vllm-v0 keeps the one constant fitted on all engines
 * together (REQ_FIT_MS, as before the per-engine fit).  SGLang's was refit
 * (143.5 -> 183.5 ms, with its burst weight 0.19 -> 0.27 below, alternately
 * until both settle) after the bench stopped reading 295 aggregated rows as
 * 16 or 64 GPUs (bench_serving.c squared_layout), half of them SGLang; the
 * vLLM and TensorRT-LLM refits moved less than their leave-one-GPU-out
 * spread (34.1, 56.1 ms) and were left.  h189 re-settled all three with the
 * burst weights below, alternately as SGLang's was, since session 19 had
 * refit the weights (0.27 -> 0.14 for SGLang) without them: 35.5 / 53.6 /
 * 183.5 -> 28.1 / 46.8 / 149.4 ms in two rounds, both fits then still.
 * The rows outside the fit move the same way: the disaggregated prefill
 * workers, whose TTFT carries the same front end, 37.5 -> 37.1 %; the
 * refit's own held-out MAPE (aggregated TTFT) 29.2 -> 29.1 % by GPU, 28.2 ->
 * 28.0 % by family (docs/llm.md, h189). */
#define REQ_FIT_MS 53.5
#define REQ_FIT_VLLM_MS 28.1
#define REQ_FIT_TRTLLM_MS 46.8
#define REQ_FIT_SGLANG_MS 149.4
/* The CPU side of a step served behind the engine's API server, and of an
 * offline batch (wl->offline, LLM.generate()): fixed, per running
 * sequence, per extra GPU.  The modern engines' API server is its own
 * process (vllm#6883), so the served and offline CPU sides of SGLang and
 * TensorRT-LLM are one; vLLM >= 0.6 offline has its own (h131, below). */
typedef struct {
    double fixed_ms, seq_ms, worker_ms;
} engine_cpu_t;
#define MODERN_CPU {0.35, 0.010, 0}
/* vLLM >= 0.6 offline (LLM.generate(), wl->offline; h131): fitted as
 * vllm-v0's offline triple above, on LLM-Inference-Bench's vLLM 0.6.1 A100
 * rows (235 offline batches, B 1-64, 1-4 GPUs; bench/bench_llm.sh
 * --serving infbench prints the refit, "modern offline").  Its API server
 * is its own process, but LLM.generate() still runs the scheduler, the
 * input preparation, the sampler's output processing and detokenising in
 * the caller's Python between GPU steps (0.6's async output processing
 * hides only part of it): 2.96 ms + 0.0789 ms per running sequence, at
 * its fixed point (the predicted prefill carries it, as vllm-v0's), the
 * rows' measured steps being 1.3-2.0x our GPU step.  The per-GPU term came
 * out negative (-0.17 ms) and is held at 0.  Held out (e2e MAPE against
 * the round numbers above): leave-one-family-out 7.3 vs 27.2 %, and the
 * ROCm rows held out whole, MI250 46.1 vs 62.1 %, MI300X 55.0 vs 73.6 %
 * (the rest of their miss is GPU time, docs/llm.md "h131").  The served
 * triple stays MODERN_CPU: silicon's served rows do not move.  The
 * residual holds any error of the predicted A100 GPU step (TensorRT-LLM's
 * A100 rows are 0.82x of measured) as well as host time. */
#define MODERN_OFFLINE_FIXED_MS 2.96
#define MODERN_OFFLINE_SEQ_MS 0.0789
static const struct {
    engine_cpu_t served, offline;
    double req_ms;
} ENGINE_CPU[] = {
    [DLP_LLM_ENGINE_MODERN] = {MODERN_CPU, {MODERN_OFFLINE_FIXED_MS, MODERN_OFFLINE_SEQ_MS, 0}, REQ_FIT_VLLM_MS},
    [DLP_LLM_ENGINE_VLLM_V0] = {{VLLM_V0_FIXED_MS, VLLM_V0_SEQ_MS, VLLM_V0_WORKER_MS},
                                {VLLM_V0_OFFLINE_FIXED_MS, VLLM_V0_OFFLINE_SEQ_MS, VLLM_V0_OFFLINE_WORKER_MS},
                                REQ_FIT_MS},
    /* the modern engines by name: the same CPU side, their own schedulers
     * (burst_weight) */
    [DLP_LLM_ENGINE_SGLANG] = {MODERN_CPU, MODERN_CPU, REQ_FIT_SGLANG_MS},
    [DLP_LLM_ENGINE_TRTLLM] = {MODERN_CPU, MODERN_CPU, REQ_FIT_TRTLLM_MS},
};
#define T_KERNEL_US 2.0        /* one kernel inside a CUDA graph / fused step   */
#define CHUNK_TOKENS 8192.0    /* prefill chunk of the memory breakdown
                                  (dlp__llm_mem_need) and vllm-v0's stand-in
                                  (dlp__llm_engine_defaults)                 */
#define SLACK_GIB 1.0          /* CUDA graphs, NCCL buffers and allocator slack
                                  beside weights, workspace and cache (a round
                                  number, as DLP_LLM_RUNTIME_GIB)             */
/* Power of a serving GPU: a floor P_FLOOR x TDP while the engine runs
 * (clocks up, the model resident: far above the board's deep idle: the
 * leaderboard's CPU-bound vLLM 0.5 runs, whose GPUs compute a few percent
 * of the time, draw 0.25-0.3 of TDP), plus the share of the rest full use
 * of the memory system (P_MEM: HBM streaming, the memory's pJ/bit and the
 * SMs' loads, about 0.45 of the way) and of the math units (P_MATH, dense
 * tensor-core math, 0.75) draw, each scaled by its utilisation.  The floor
 * is fitted on the ML.ENERGY leaderboard's energy per request with the
 * shares at those priors (bench/bench_llm.sh --serving leaderboard prints
 * it, with leave-one-GPU-out and leave-one-family-out).  Fitting the shares
 * too gains 4 points of MAPE there but puts P_MEM past 1: the leaderboard's
 * GPUs stream memory a fifth of the time at most, so the shares would be an
 * extrapolation to every busier engine: the modern engines keep these.
 * The memory share of the modern engines is no longer that 0.45 prior but
 * 0.63 (DLP__LLM_P_FIT_MEM, issue 22 h225): fitted on the power of
 * LLM-Inference-Bench's offline batches on the shared shares (TensorRT-LLM
 * on A100 / H100 / GH200, vLLM 0.6.1 on A100; busy all the time, memory
 * utilisation 0.6-0.9), held out by GPU (0.61-0.66), engine (0.62 / 0.81)
 * and model (0.62 / 0.66); bench/bench_llm.sh --serving infbench prints the
 * refit.  No leaderboard row uses it (vllm-v0's own below), so the floor
 * fitted at the prior stands. */
#define P_FIT_FLOOR 0.304
#define P_FIT_MEM DLP__LLM_P_FIT_MEM
#define P_FIT_MATH 0.75
/* vLLM <= 0.5 (vllm-v0) has its own three, fitted together on the
 * leaderboard's power per GPU (energy per request x requests/s / GPUs, the
 * ML.ENERGY derivation: steady-state energy over steady-state tokens x mean
 * output; weighted least squares of P / TDP = floor + (1 - floor)(mem um +
 * math uc); bench/bench_llm.sh --serving leaderboard refits them leaving out
 * each GPU and each family).  Its GPU works in short bursts between long
 * Python steps: the measured power is lower than the shared floor where the
 * engine is nearly all CPU (codegemma-1.1-2b on an H100: 0.24-0.26 of TDP
 * at every batch) and rises about twice as fast with the roofline memory
 * utilisation as the priors (one A100 serving Phi-3-medium, 14B: 0.68 of TDP
 * at um 0.42), as if the
 * burst's kernels ran below the roofline's bandwidth (eager PagedAttention
 * beyond the CUDA-graph batch sizes) or at boost clocks a continuously busy
 * GPU cannot hold.  Neither is modelled, so these stay with the engine they
 * were measured on: applied to a modern engine (busy all the time) they put
 * Llama-3.1-8B on an H100 at TDP from 64 clients, against 489 W with the
 * shared ones and against measured decodes far below TDP. */
#define P_V0_FLOOR 0.215
#define P_V0_MEM 1.06
#define P_V0_MATH 1.20
/* W8A8 fp8 with 128 x 128 block scales (the serving fp8 checkpoints:
 * DeepSeek, Qwen3, MiniMax, GLM) quantises each GEMM's activation per token
 * and 128-group before the GEMM.  vLLM (apply_w8a8_block_fp8_linear) and
 * SGLang (sgl_per_token_group_quant_fp8, layers/quantization/fp8_kernel.py)
 * run that as a kernel of its own, outside CUDA-graph fusion (vLLM fuses it
 * into RMSNorm only with its compile pass on, vllm#27883, and for DeepSeek
 * from vllm#37960, 2026-03); TensorRT-LLM fuses it into the preceding norm
 * (FusedAddRMSNormQuant, TensorRT-LLM#9905).  Its cost, from aiconfigurator's
 * H100 GEMM table (TensorRT-LLM 1.3.0rc10, fp8_block: the op quantises its
 * input): median 3.96 us over predict's fp8 curve + T_KERNEL_US on the 5,520
 * shapes with M <= 16 (3.0-4.7 us by weight size; bf16 on the same table:
 * 0.06 us, so the curve itself is right at small M).  A kernel-table fit,
 * not a fit on serving rows. */
#define FP8_ACT_QUANT_US 4.0
#define E_DECODE_ATTN 0.85  /* share of bandwidth decode attention streams at */
/* The decode-attention op's floor per layer (issue 22, h147): aiconfigurator's
 * H100 generation-attention table (TensorRT-LLM 1.3.0rc10, XQA / masked MHA
 * over a paged cache, one query token per sequence; 17,404 full-attention
 * rows) fits t = 8.58 us + cache bytes / (0.996 x DRAM BW) (MAPE 33.6 %;
 * held out on A100's table 47.9 %, where the old 2 us + bytes / (0.85 BW)
 * gave 63.5 / 66.9 %; tools/attn/fit_decode_attn.py).  Caches under 100 MB a
 * layer, the decode batches of small and mid concurrency, ran 6-13 us above
 * the old form.  The bandwidth share stays E_DECODE_ATTN (the large-cache
 * rows, where it matters, sit within 10 % of it). */
#define ATTN_DEC_T0_US 8.58
#define IB_GBS 50.0            /* one 400 Gb/s NIC per GPU across nodes         */
/* Expert parallelism's dispatch and combine as the engines run them with
 * attention DP (DeepEP's low-latency kernels in SGLang's decode steps and
 * vLLM wide EP; SGLang's prompt steps and TensorRT-LLM: ep_comm_kind): each
 * routed row is sent once per chosen expert, dispatch in the expert GEMM's
 * input format (fp8 + a 4-byte scale per 128 values where the experts run
 * fp8), combine in bf16.  Per kernel t = floor + bytes / BW.  Fitted on
 * aiconfigurator's measured DeepEP low-latency tables on H100 SXM (SGLang
 * 0.5.12 collection, EP 8, hidden 2048-7168, 1-1024 tokens per rank, 176
 * rows; tools/moe/fit_ep_a2a.py, which prints the held-out checks): inside a
 * node BW = eta x the one-way NVLink rate (H100 450 GB/s): dispatch 11.49 us
 * + eta 0.610 (MAPE 14.1 %; the other collection's EP 8 rows held out 10.6
 * %), combine 11.27 us + eta 0.546 (6.4 %, held out 4.3 %).  Past the NVLink
 * domain the bytes leaving it go at the NIC's IB_GBS (a free fit on the EP 16
 * and 32 rows gives 46-47 GB/s) after a floor fitted at that rate: 22.8 us
 * dispatch, 26.7 us combine (EP 16 fit held out on EP 32: 11.0 / 5.9 %).
 * DeepEP's README (deepseek-ai/DeepEP docs/legacy.md) publishes 77 / 114 us
 * at EP 8 over RDMA for 128 tokens of 7168 (fp8 dispatch, bf16 combine). */
#define A2A_T0_DISPATCH_US 11.49
#define A2A_T0_COMBINE_US 11.27
#define A2A_ETA_DISPATCH 0.610
#define A2A_ETA_COMBINE 0.546
#define A2A_T0_NODE_DISPATCH_US 22.8
#define A2A_T0_NODE_COMBINE_US 26.7
/* DeepEP's normal (high-throughput) kernels, the ones SGLang's
 * --deepep-mode auto / normal runs on prefill (extend) batches: a token goes
 * once to each rank that holds any of its experts (get_dispatch_layout ->
 * is_token_in_rank) and comes back once per rank, the receiving rank having
 * summed its experts' rows.  Per kernel t = floor + bytes received / rate,
 * the bytes the rank's distinct-rank rows (ep_distinct_ranks) x hidden x
 * bytes per element.  The rate is an absolute one, not a share of NVLink:
 * the kernels run on a fixed number of SMs (deep_ep Buffer.num_sms = 20 by
 * default), and the tables reach the same ~260-300 GB/s on H100 (450 GB/s
 * one way) and B200 (900).  Fitted on aiconfigurator's DeepEP normal-mode
 * tables (SGLang 0.5.12 collection, 20 SMs, one node: EP 8 on H100 / H200 /
 * B200 / B300, EP 4 on GB200 / GB300; hidden 2048-7168, 1-131,072 tokens a
 * rank; 2,530 rows; tools/moe/fit_ep_a2a_normal.py prints the checks):
 * dispatch 31.85 us + bytes / 257.0 GB/s (MAPE 15.4 %; each GPU held out
 * 14.1-20.5 %, each hidden size 12.5-23.7 %), combine 41.72 us + bytes /
 * 300.6 GB/s (13.7 %; 12.5-16.7 %, 10.6-24.6 %).  One node only: DeepEP's
 * intranode kernels serve at most 8 NVLink peers (NUM_MAX_NVL_PEERS). */
#define A2A_NORMAL_T0_DISPATCH_US 31.85
#define A2A_NORMAL_T0_COMBINE_US 41.72
#define A2A_NORMAL_DISPATCH_GBS 257.0
#define A2A_NORMAL_COMBINE_GBS 300.6
#define A2A_NORMAL_MAX_EP 8
/* TensorRT-LLM's own all-to-all on NVL72 racks (MNNVL, the two-sided
 * kernel: alltoall_prepare, dispatch, combine), which its MoE modules pick
 * under attention DP when EP > top_k on a board with MNNVL memory, and
 * which the GB200 / GB300 fp8 decode recipes force
 * (TRTLLM_FORCE_COMM_METHOD: NVLINK_TWO_SIDED).  A token goes once to each
 * other rank holding any of its experts; per MoE layer t = floor + the
 * remote distinct-rank rows' bytes (dispatch payload + bf16 combine) /
 * rate.  Fitted on aiconfigurator's GB200 table (TensorRT-LLM 1.2.0rc6,
 * gb200/comm/trtllm/1.3.0rc10/trtllm_alltoall_perf.parquet, DeepSeek's
 * shape, EP 2-64, bf16 / fp8 / nvfp4 payloads, 1-65,536 tokens a rank, 540
 * rows; tools/moe/fit_trt_alltoall.py): 42.50 us + bytes / 437.6 GB/s, MAPE
 * 12.0 % (each EP held out 7.3-24.5 %, each payload 12.1-14.5 %); counting
 * every routed row instead: 24.2 %. */
#define A2A_TRT_T0_US 42.50
#define A2A_TRT_GBS 437.6
#define A2A_FP8_BYTES (1.0 + 4.0 / 128.0) /* fp8 value + fp32 scale per 128 */
#define A2A_FP4_BYTES (0.5 + 1.0 / 16.0)  /* nvfp4: e2m1 + e4m3 scale per 16 */
#define W_WAVES 10.0           /* waves of requests a serving benchmark runs
                                  (num_prompts = 10 x concurrency is the
                                  common setting of vLLM/SGLang benchmarks) */

/* The first wave's burst in a closed-loop run's mean TTFT.  A benchmark
 * starts its C clients at once (the first C prompts queue behind each
 * other) and then runs W waves (InferenceMAX's benchmark_serving: 10 x C
 * prompts, no warm-up; aiconfigurator's aiperf jobs: 2 x C warm-up, then
 * 20 x C or 50 x C): 1 / W if the later waves were spread.  With the
 * benchmarks' fixed (aiperf) or nearly fixed (+-10 %) lengths and
 * ignore_eos, they are not at once: a wave's requests end close together
 * and come back close together, so part of the burst echoes in later
 * waves, more under an engine that runs waiting prompts before any decode
 * (SGLang: a wave starts decoding together, so it ends together) than under
 * decode-first chunked prefill (vLLM, TensorRT-LLM: a wave's requests start
 * decoding one chunk apart).  Fitted on aiconfigurator's aggregated TTFTs
 * with the per-engine front ends above (bench/bench_llm.sh --serving
 * silicon refits them leaving out each GPU and each family).  Session 19
 * refit both after the engines' waits and the prefill kernels moved
 * (h167-h172: the gap-analysis dumps' lockstep waves (h168) now carry
 * SGLang's echo that the weight had stood for): 0.15 / 0.27 -> 0.13 / 0.14,
 * leave-one-GPU-out 0.13 / 0.09-0.17, leave-one-family-out 0.13-0.14 /
 * 0.13-0.16; aggregated TTFT 28.3 -> 27.1 % (held out by GPU 27.6, by family
 * 27.4); the front ends' refit at these weights (29.9 / 49.0 / 156.9 ms)
 * gained nothing in-sample (27.1 %) and lost held out (29.3 / 28.3 %), so
 * they stayed.  h189 settled both in turn (the front ends above, then these
 * weights, then the front ends once more): 0.13 / 0.14 -> 0.14 / 0.17,
 * leave-one-GPU-out 0.14 / 0.10-0.20, leave-one-family-out 0.14-0.15 /
 * 0.16-0.20, aggregated TTFT 27.0 -> 26.9 % (held out by GPU 27.5, by family
 * 27.2).  SGLang's was 0.19 before the squared-layout rows were read as
 * the GPUs they ran on, see REQ_FIT_SGLANG_MS.  vllm-v0 keeps 1 / W_WAVES
 * (the leaderboard has no TTFT to fit it on). */
#define BURST_FIT_DECODE_FIRST 0.14
#define BURST_FIT_PREFILL_FIRST 0.17
/* An engine without CUDA graphs (wl->eager) issues every kernel of every
 * layer from the host on each step; the host side is per layer and does
 * not shrink with the batch.  Splitwise's profile (splitwise-sim
 * perf_model.csv: Llama-2-70B, BLOOM-176B, fp16, A100 / H100, TP 2-8) was
 * made on "an internal vLLM branch" (vllm-project/vllm#2472) before vLLM
 * captured CUDA graphs (vllm-project/vllm#1926, 2023-12-17); its decode
 * steps less our graphed vllm-v0 offline step, per layer, fit 0.210 ms
 * (leave-one-GPU-out 0.181 / 0.275, decode-step MAPE 15.1 / 21.6 %;
 * leave-one-model-out 13.2 / 7.4 %; in-sample 10.7 %, from 41.8 %;
 * bench/bench_llm.sh --serving splitwise prints the refit).  One host and
 * one engine generation stand behind it (the A100 and H100 hosts differ
 * by 1.5x): an estimate for today's --enforce-eager, not a measurement. */
#define EAGER_LAYER_MS DLP__LLM_EAGER_LAYER_MS
/* Overlap scheduling (docs/llm.md, "Serving", h123): TensorRT-LLM's
 * PyExecutor launches step n + 1 before it processes step n's results
 * ("Overlap Scheduler": on by default, disable_overlap_scheduler; "the
 * optimization introduces one extra decoding step"), and SGLang's
 * zero-overhead batch scheduler (v0.4, on by default, which the TensorRT-LLM
 * page cites) does the same: the next batch is already prepared when a
 * request arrives, so it joins the step after that one.  vLLM's async
 * scheduling was opt-in in the versions the bench rows ran (none here).
 * Whole decode steps, a documented fact of the schedulers, not fitted. */
static double overlap_steps(int engine) {
    return engine == DLP_LLM_ENGINE_TRTLLM || engine == DLP_LLM_ENGINE_SGLANG ? 1.0 : 0.0;
}
/* SGLang runs waiting prompts before any decode ("Run prefill first if
 * possible", python/sglang/srt/managers/scheduler.py get_next_batch_to_run)
 * unless --enable-mixed-chunk (off by default) puts the running decodes into
 * each prefill batch (the same file, "Mixed-style chunked prefill":
 * new_batch.mix_with_running), which is decode-first chunked prefill in
 * effect: a wave's requests then start decoding one batch apart. */
static int prefill_first(const dlp_llm_workload *wl) {
    return wl->engine == DLP_LLM_ENGINE_SGLANG && !wl->mixed_chunk;
}
static double burst_weight(const dlp_llm_workload *wl) {
    if (prefill_first(wl)) return BURST_FIT_PREFILL_FIRST;
    if (wl->engine == DLP_LLM_ENGINE_VLLM_V0) return 1.0 / W_WAVES;
    return BURST_FIT_DECODE_FIRST;
}

/* ---- the per-config profile ------------------------------------------------ */

/* LIN_ROUTER: an MoE router, a dense matrix the fp8 checkpoints keep in
 * 16 bits (as the LM head): no activation quantisation before it */
enum { LIN_DENSE = 0, LIN_EXPERT, LIN_HEAD, LIN_ROUTER };

typedef struct {
    double k, n;               /* the matrix (in, out)                          */
    double experts;            /* LIN_EXPERT: experts stacked (E)               */
    double count;              /* how many such matrices in one forward         */
    int kind;
    int attn;                  /* LIN_DENSE of an attention block (a scope
                                  "/attn/" or "/linear_attn/"): the nvfp4
                                  checkpoints of MoE models keep it 16-bit */
    int repl;                  /* replicated on every attention TP rank, not
                                  split (MLA's down projections, mla_repl) */
} lin_t;

#define MAX_LIN 48
typedef struct prof {
    dlp_llm_config cfg;
    int quant;
    lin_t lin[MAX_LIN];
    int n_lin;
    double other_bytes_pt;     /* bytes non-matmul kernels move per token       */
    double moe_ew_bytes_pt;    /* of which the MoE block's own (router, dispatch,
                                  experts, combine: trtgen_mxfp4_ew_bytes)      */
    double attn_ew_bytes_pt;   /* of which the attention blocks' (norms, RoPE,
                                  splits, transposes; step_elem, h246)          */
    double wbytes_per_elem;    /* stored bytes per linear weight element        */
    double act_bytes;
    double params, active_params, weight_bytes;
    int attn_layers, moe_layers;
    double expert_elems;       /* one expert's elements, all its matrices of one
                                  layer (expert_elems; 0: no experts)          */
} prof_t;

static int has_init_weight(const dlp_graph *g, const dlp_node_info *ni, dlp_tensor_info *w) {
    for (int j = 0; j < ni->n_inputs; j++) {
        if (ni->inputs[j] < 0) continue;
        *w = *dlp_graph_tensor_at(g, ni->inputs[j]);
        if (w->is_initializer && w->rank >= 2 && w->shape_known) return 1;
    }
    return 0;
}

static void add_lin(prof_t *p, double k, double n, double e, double count, int kind, int attn, int repl) {
    for (int i = 0; i < p->n_lin; i++) {
        lin_t *l = &p->lin[i];
        if (l->k == k && l->n == n && l->experts == e && l->kind == kind && l->attn == attn && l->repl == repl) {
            l->count += count;
            return;
        }
    }
    if (p->n_lin < MAX_LIN) p->lin[p->n_lin++] = (lin_t){k, n, e, count, kind, attn, repl};
    else p->lin[MAX_LIN - 1].count += count * k * n / (p->lin[MAX_LIN - 1].k * p->lin[MAX_LIN - 1].n);
}

dlp_status dlp__llm_act_graph(const dlp_llm_config *c, int64_t batch, int64_t seq, int quant, dlp_graph **g,
                              dlp_error *err) {
    dlp_llm_weights w;
    if (c->num_experts > 0 && c->experts_per_token > 0 && c->experts_per_token < c->num_experts) {
        dlp_llm_config r = *c;
        r.num_experts = c->experts_per_token;
        if (dlp_llm_build(&r, batch, seq, quant, g, &w, NULL) == DLP_OK) return DLP_OK;
    }
    return dlp_llm_build(c, batch, seq, quant, g, &w, err);
}

/* Elements of one expert (all its matrices, one layer) and the MoE layers:
 * the matrices writing the hidden state (down projections) count the
 * layers; the W4A16 time splits an expert's fixed parts by each matrix's
 * share of it (dlp__llm_w4a16_moe_s).  Once per profile (profile_build). */
static double expert_elems(const prof_t *p, double hidden) {
    double all = 0, layers = 0, least = 0;
    for (int i = 0; i < p->n_lin; i++) {
        const lin_t *l = &p->lin[i];
        if (l->kind != LIN_EXPERT) continue;
        all += l->k * l->n * l->count;
        if (l->n == hidden) layers += l->count;
        if (least <= 0 || l->count < least) least = l->count;
    }
    if (layers <= 0) layers = least;
    return layers > 0 ? all / layers : 0;
}

/* MLA's down projections (q_a_proj, kv_a_proj_with_mqa: hidden -> the
 * query and KV latents) are replicated on every attention TP rank, which
 * runs them over all its tokens: SGLang fuses them into one ReplicatedLinear
 * (python/sglang/srt/models/deepseek_v2.py, fused_qkv_a_proj_with_mqa, "For
 * tensor parallel attention"), and aiconfigurator's context-MLA module
 * collector times TensorRT-LLM's attention module at its local heads with
 * the full latent projections (collector/trtllm/collect_mla_module.py,
 * tp_size 1, num_heads = heads a GPU).  Only the heads' matrices (q_b,
 * kv_b, o_proj) split.  Issue 22, h167. */
static int mla_repl(const dlp_llm_config *c, const char *name) {
    if (c->kv_lora_rank <= 0 || !strstr(name, "/attn/")) return 0;
    return strstr(name, "/q_a_proj") != NULL || strstr(name, "/kv_a_proj_with_mqa") != NULL;
}

static dlp_status profile_build(const dlp_llm_config *c, int quant, prof_t *p, dlp_error *err) {
    memset(p, 0, sizeof *p);
    p->cfg = *c;
    p->quant = quant;
    dlp_graph *g = NULL;
    dlp_llm_weights w;
    /* the engine's kernels: one fused GELU, no dropout, no eager mask/clamp */
    dlp_llm_config ec = *c;
    ec.engine_form = 1;
    dlp_status st = dlp_llm_build(&ec, 1, 1, quant, &g, &w, err);
    if (st) return st;
    int adt = dlp_quant_act_dtype(quant);
    p->act_bytes = adt == DLP_DT_FLOAT ? 4.0 : 2.0;
    p->params = (double)w.params;
    p->active_params = (double)w.active_params;
    p->weight_bytes = (double)w.weight_bytes[quant];
    double lin_elems = 0;
    int n = dlp_graph_node_count(g);
    for (int i = 0; i < n; i++) {
        dlp_node_info ni;
        ni = *dlp_graph_node_at(g, i);
        if (ni.op_class == DLP_OPC_SHAPE || ni.op_class == DLP_OPC_CONTROL) continue;
        int mm = !strcmp(ni.op_type, "MatMul") || !strcmp(ni.op_type, "Gemm");
        dlp_tensor_info t;
        if (mm && has_init_weight(g, &ni, &t)) {
            if (t.rank == 3) {
                add_lin(p, (double)t.dims[1], (double)t.dims[2], (double)t.dims[0], 1, LIN_EXPERT, 0, 0);
            } else if (strstr(ni.name, "/experts.") && c->num_experts > 0) {
                /* Mixtral-style: one node per expert -> one grouped entry */
                add_lin(p, (double)t.dims[0], (double)t.dims[1], (double)c->num_experts, 1.0 / (double)c->num_experts,
                        LIN_EXPERT, 0, 0);
            } else {
                int head = strstr(ni.name, "lm_head") || strstr(ni.name, "mlm_head");
                int router = c->num_experts > 0 && strstr(ni.name, "/router") != NULL;
                int attn = strstr(ni.name, "/attn/") || strstr(ni.name, "/linear_attn/");
                add_lin(p, (double)t.dims[0], (double)t.dims[1], 1, 1,
                        head ? LIN_HEAD : router ? LIN_ROUTER : LIN_DENSE, attn, mla_repl(c, ni.name));
            }
            lin_elems += (double)t.numel;
            continue;
        }
        if (!strcmp(ni.op_type, "Reshape") || !strcmp(ni.op_type, "Identity")) continue;
        /* everything else: the bytes its kernel moves at one token, less
         * weights it only gathers from (embeddings: one row) */
        double b = (double)ni.bytes_read - (double)ni.weight_bytes + (double)ni.bytes_written;
        /* a recurrent state's scan (Mamba "/mixer/states/", Gated DeltaNet
         * "/linear_attn/state/") touches the whole state at one token: the
         * iteration costs the state on its own (once per decode token, once
         * per 64-token chunk of a prompt), so not here per token */
        if (strstr(ni.name, "/states/") || strstr(ni.name, "/state/")) continue;
        /* expert-side kernels of the one-token graph run on E padded rows
         * (one per expert) where T tokens make T k rows: scale to k / E;
         * the combine slices those rows back (Qwen3.5-397B: 4.3 MB per
         * token per layer unscaled, 90 % of an 8k prompt's prefill time) */
        if (c->num_experts > 0 && (strstr(ni.name, "/experts") || strstr(ni.name, "/dispatch") ||
                                   strstr(ni.name, "/combine")))
            b *= (double)(c->experts_per_token > 0 ? c->experts_per_token : 1) / (double)c->num_experts;
        if (b > 0) p->other_bytes_pt += b;
        if (b > 0 && strstr(ni.name, "/attn/")) p->attn_ew_bytes_pt += b;
        if (b > 0 && c->num_experts > 0 &&
            (strstr(ni.name, "/router") || strstr(ni.name, "/dispatch") || strstr(ni.name, "/experts") ||
             strstr(ni.name, "/combine")))
            p->moe_ew_bytes_pt += b;
    }
    /* bytes per linear weight: the stored format's bytes over the linear
     * elements (embeddings and norms stay 16-bit; their bytes are small) */
    double other_w = (double)w.params - lin_elems;
    double wb = (double)w.weight_bytes[quant] - other_w * p->act_bytes;
    p->wbytes_per_elem = lin_elems > 0 && wb > 0 ? wb / lin_elems : p->act_bytes;
    for (int64_t l = 0; l < c->num_hidden_layers && l < DLP_LLM_MAX_LAYERS; l++) {
        if (!(c->layer_kind[l] & DLP_LK_MAMBA)) p->attn_layers++;
    }
    if (!p->attn_layers) p->attn_layers = (int)c->num_hidden_layers;
    /* MoE layers: the expert matrices that write the hidden state (down
     * projections), one per layer.  The largest count of an expert matrix
     * took separate gate and up matrices (one entry, two a layer) for twice
     * the layers (DeepSeek-V3 116 for 58), so each layer paid its dispatch
     * and combine twice; kept only where no matrix writes the hidden size */
    double down = 0;
    for (int i = 0; i < p->n_lin; i++) {
        if (p->lin[i].kind != LIN_EXPERT) continue;
        if (p->lin[i].n == (double)c->hidden_size) down += p->lin[i].count;
        if (p->lin[i].count > p->moe_layers) p->moe_layers = (int)llround(p->lin[i].count);
    }
    if (down > 0) p->moe_layers = (int)llround(down);
    p->expert_elems = expert_elems(p, (double)c->hidden_size);
    dlp_graph_free(g);
    return DLP_OK;
}

/* A small cache of profiles (configs compared whole): NAS-style loops and
 * benchmarks ask about the same few models thousands of times. */
#define N_CACHE 16
static prof_t *cache[N_CACHE];
static int cache_next;
static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;

static dlp_status profile_get(const dlp_llm_config *c, int quant, prof_t *out, dlp_error *err) {
    pthread_mutex_lock(&cache_mu);
    for (int i = 0; i < N_CACHE; i++)
        if (cache[i] && cache[i]->quant == quant && !memcmp(&cache[i]->cfg, c, sizeof *c)) {
            *out = *cache[i];
            pthread_mutex_unlock(&cache_mu);
            return DLP_OK;
        }
    pthread_mutex_unlock(&cache_mu);
    dlp_status st = profile_build(c, quant, out, err);
    if (st) return st;
    prof_t *cp = malloc(sizeof *cp);
    if (!cp) return DLP_OK; /* uncached is still right */
    *cp = *out;
    pthread_mutex_lock(&cache_mu);
    free(cache[cache_next]);
    cache[cache_next] = cp;
    cache_next = (cache_next + 1) % N_CACHE;
    pthread_mutex_unlock(&cache_mu);
    return DLP_OK;
}

/* ---- interconnect ---------------------------------------------------------- */

/* Per-GPU NVLink bandwidth (GB/s, both directions) from the device's
 * interface text ("SXM5, NVLink 4 (900 GB/s)"); PCIe-only boards get their
 * slot's 2 x lane rate. */
static double link_gbs(const dlp_device *d, int *nvlink) {
    const char *s = d->host_interface ? d->host_interface : "";
    const char *nv = strstr(s, "NVLink");
    *nvlink = 0;
    if (nv && !strstr(s, "bridge")) {
        const char *par = strchr(nv, '(');
        if (par) {
            double v = atof(par + 1);
            *nvlink = 1;
            if (strstr(par, "TB/s")) v *= 1000;
            if (v > 0) return v;
        }
    }
    if (strstr(s, "Infinity Fabric")) {
        *nvlink = 1; /* AMD xGMI: 7 links x 64 GB/s on MI300X-class OAM */
        return 896;
    }
    if (strstr(s, "PCIe 5")) return 128;
    if (strstr(s, "PCIe 4")) return 64;
    return 32;
}

/* The rate (GB/s) of a 2-way NVLink bridge from the interface text ("PCIe
 * 5.0 x16, NVLink bridge (600 GB/s)"), 0 without one or without a rate.
 * A bridge joins one pair of PCIe boards (NVIDIA product briefs: H100 PCIe
 * PB-11133-001, two cards bridged at 600 GB/s bidirectional; A40
 * PB-09976-001, 112.5 GB/s bidirectional = GA102's four x4 NVLink 3
 * links), so only a 2-GPU group runs its
 * collectives over it (coll_s); a larger one crosses PCIe between pairs.
 * Without it vidur's bridged H100 pairs all-reduced 8-9x faster than
 * predicted (docs/llm.md, "vidur per-operator check"). */
static double bridge_gbs(const dlp_device *d) {
    const char *s = d->host_interface ? d->host_interface : "";
    const char *br = strstr(s, "NVLink bridge (");
    if (!br) return 0;
    double v = atof(br + strlen("NVLink bridge ("));
    return v > 0 && strstr(br, "GB/s") ? v : 0;
}

/* GPUs one NVLink domain holds: 72 on GB200/GB300 NVL72 racks, else 8. */
static int nvlink_domain(const dlp_device *d) {
    return d->host_interface && strstr(d->host_interface, "NVLink-C2C") ? 72 : 8;
}

enum { CO_ALLREDUCE = 0, CO_ALLGATHER, CO_REDUCESCATTER, CO_ALLTOALL };

/* Seconds of one collective of `bytes` per GPU over n GPUs: the measured
 * H100 (NVLink 4, 900 GB/s) or A100 (NVLink 3, 600 GB/s) table, log-log
 * interpolated in message size, with the size axis scaled by the link
 * ratio (a faster link moves a larger message in the same time); a pair
 * of bridged PCIe boards over its bridge; beyond a node (n > NVLink
 * domain) the bandwidth is the slower of the node link and a NIC's. */
static double coll_s(const dlp_device *d, int op, int n, double bytes) {
    if (n <= 1 || bytes <= 0) return 0;
    int nvl;
    double gbs = link_gbs(d, &nvl);
    double br = n == 2 ? bridge_gbs(d) : 0;
    if (br > 0) gbs = br, nvl = 1;
    int dom = nvlink_domain(d);
    const double(*tab)[3][NCCL_NSIZES] = gbs >= 750 ? nccl_h100 : nccl_a100;
    double ref = gbs >= 750 ? 900.0 : 600.0;
    double eff = nvl ? gbs : gbs * 0.5;
    /* past one node the ring also crosses the NICs: the slower of the two
     * links bounds it (PCIe boards must not get the NIC's faster rate) */
    if (n > dom) eff = fmin(eff, IB_GBS * 2.0);
    int ni = n <= 2 ? 0 : n <= 4 ? 1 : 2;
    double elems = bytes / 2.0 * ref / eff;
    /* ring steps grow as (n - 1) / n: scale past 8 GPUs by that ratio */
    double scale = n > 8 ? ((double)(n - 1) / n) / (7.0 / 8.0) : 1.0;
    const double *t = tab[op][ni];
    if (elems <= nccl_sizes[0]) return t[0] * 1e-3;
    for (int i = 1; i < NCCL_NSIZES; i++) {
        if (elems <= nccl_sizes[i]) {
            double f = log(elems / nccl_sizes[i - 1]) / log(nccl_sizes[i] / nccl_sizes[i - 1]);
            return exp(log(t[i - 1]) + f * (log(t[i]) - log(t[i - 1]))) * 1e-3 * scale;
        }
    }
    /* past the table: linear in size from the last point */
    return t[NCCL_NSIZES - 1] * elems / nccl_sizes[NCCL_NSIZES - 1] * 1e-3 * scale;
}

/* The same, for other modules (llm_internal.h); op is a DLP__COLL_*, in
 * the order of CO_*. */
_Static_assert((int)CO_ALLREDUCE == (int)DLP__COLL_ALLREDUCE && (int)CO_ALLTOALL == (int)DLP__COLL_ALLTOALL, "collective ids differ");
double dlp__llm_coll_s(const dlp_device *d, int op, int n, double bytes) {
    if (op < CO_ALLREDUCE || op > CO_ALLTOALL) return 0;
    return coll_s(d, op, n, bytes);
}

/* ---- one iteration ---------------------------------------------------------- */

typedef struct {
    const dlp_llm_config *c;
    const dlp_device *d;
    const prof_t *p;
    int tp_attn, attn_dp, ep, moe_tp, n_gpus;
    double mxfp4_pad;          /* the experts' zero padding (dlp__llm_trtgen_mxfp4_pad) */
    int trtgen_fused;          /* the MoE block as one trtllm-gen call (trtgen_mxfp4_ew_bytes) */
    double trtgen_pf_peak;     /* the FP8 dense peak its prefill fit reads; 0 off */
    int pf_whole;              /* iteration(): each prompt whole on one
                                  attention-DP rank (lone_prompt)          */
    int kv_shard;              /* how many ways the KV cache is split            */
    double kv_eb;              /* KV element bytes                               */
    double peak_mm, peak_vec, bw;
    const dlp_eff_curve *cv_gemm, *cv_attn, *cv_elem;
    double gemm_vmin;          /* the GEMM curve's lowest intensity feature:
                                  0 off the tensor cores (the fp32 curve has no
                                  data below the ridge; roofline.c's s.vmin) */
    double attn_flops_per_elem;/* attention FLOPs per cached element read         */
    double pf_flops_per_elem;  /* the same for a prompt token's causal attention
                                  (MLA: the un-absorbed form, per cached element) */
    int adt;                   /* activation dtype (attention, vision tower)      */
    double ov_fixed, ov_seq;   /* the engine's CPU time per step (s): fixed, per
                                  running sequence (ENGINE_CPU)                  */
    double state_elems;        /* recurrent state per sequence, all layers
                                  (Mamba, Gated DeltaNet): the part of the
                                  cache that does not grow with the context */
    int prefill_steps;         /* 1: prompts run in steps of their own (no
                                  chunked prefill: vllm-v0)                      */
    double gemm_extra_s;       /* fixed time per GEMM beyond the curve: the
                                  activation's fp8 quantisation (FP8_ACT_QUANT_US) */
    double spec_q;             /* MTP: query tokens a decoding sequence puts in
                                  a step (1 + drafts verified); 1: none          */
    double spec_draft;         /* MTP: the step's GPU work with the draft layers
                                  over without, (L + drafts) / L                 */
    double spec_yield;         /* MTP: tokens a sequence gains per step (1 +
                                  accepted drafts); 1: none                     */
    int keep16;                /* nvfp4 MoE checkpoints: attention matrices
                                  stay 16-bit (lin_is16)                    */
    const dlp_eff_curve *cv_gemm16;
    double peak_mm16;          /* the 16-bit GEMM curve and peak they run on */
    double mla_dec_rate;       /* MLA decode math FLOP/s (mla_dec_setup); 0 none */
    const double *nv4_gemm;    /* nvfp4 dense GEMMs' fitted op (nv4_gemm_fit:
                                  t0 us, eta); NULL: the GEMM curve alone   */
    const double *moe_pf;      /* its prefill-sized fit (moe_pf_fit; NULL: none) */
    double moe_pf_row;         /* ... its routed rows' term (MOE_PF_ROWS_BW c, DRAM
                                  bytes per row element; 0: none)          */
    const double *mla_pf;      /* the context-MLA module's fit (mla_pf_fit; NULL: none) */
    const double *mla_gen;     /* the MLA generation module's fit (mla_gen_fit, h236; NULL: none) */
    const double *dsa_gen;     /* SGLang's DSA generation module fit (dsa_gen_fit, h245; NULL: none) */
    const double *sgl_fmha;    /* SGLang's MLA prefill attention op's fit (sgl_fmha_fit, h241; NULL: none) */
    double max_prefill;        /* SGLang's max_prefill_tokens (0: its default;
                                  sglang_batch_prompts)                     */
    const struct w4_math *w4m; /* the W4A16 kernel's math rates (w4_math);
                                  NULL: not W4A16                          */
    const double *moe_fit;     /* the fitted MoE kernel the experts run
                                  (dlp__llm_moe_kernel: W4A16, 16-bit, fp8,
                                  per engine; NULL: the GEMM curve alone)   */
    const double *moe_fit_pf;  /* ... in steps that carry prompt tokens: the
                                  same but under TensorRT-LLM's trtllm-gen
                                  kernel, whose fit is decode-sized (h188) */
    dlp__llm_parts *parts;     /* NULL, or where iteration() writes its time
                                  split by part (dlp__llm_iter_parts)          */
    double a2a_db;             /* bytes per element an EP dispatch sends: the
                                  expert GEMM's input format (ep_a2a_s); 0:
                                  the activation's                          */
    double chunk;              /* prompt tokens a step takes at most (the
                                  engine's max_num_batched_tokens)          */
    int64_t max_seqs;          /* sequences the engine runs at most         */
    int engine;                /* dlp_llm_engine: its CUDA-graph batch sizes
                                  under attention DP (adp_decode_rows)      */
    double slots;              /* expert copies the EP ranks hold in all
                                  (redundant experts, expert_slots_setup);
                                  0: the model's experts                   */
    double gpu_x;              /* the engine-on-device factor on a step's GPU
                                  time (rocm_offline_gpu_x); 1: none        */
    double gemm_rate;          /* FLOP/s a decode-only step's GEMMs reach at
                                  most (rocm_gemm_rate); 0: no such floor    */
    double xqa_rate;           /* bytes/s one XQA thread block streams
                                  (trt_xqa_rate, wl->trt_xqa_block): 0 none */
    double cta_rate;           /* bytes/s one attention thread block streams
                                  (trt_cta_rate): a decode step's attention
                                  kernel lasts at least one block's stream of
                                  one head's cache; 0: no such floor        */
    double eager_s;            /* host time a step spends issuing its layers'
                                  kernels without CUDA graphs (wl->eager,
                                  EAGER_LAYER_MS x layers); 0: graphed      */
    double ctx_host_s;         /* host time a step with prompt tokens adds
                                  (wl->ctx_host_ms: its context iteration
                                  eager, h208); 0: none                     */
    const double *ar1;         /* the engine's one-shot all-reduce fit over
                                  the TP group (ar_oneshot_fit); NULL: NCCL */
    double ar1_gbs;            /* the NVLink rate it runs at (GB/s, both ways) */
    int same_prompts;          /* copies of one prompt, decoded greedily
                                  (wl->same_prompts): routed alike       */
    int fused_elem;            /* the element-wise work as the engine's fused
                                  kernels (fused_elem_on, h198); 0: the
                                  graph's unfused bytes                   */
    int a2a_none;              /* SGLang EP with --moe-a2a-backend none
                                  (wl->sglang_a2a_none, sglang_gathers) */
    int fp4_ew;                /* trt_fp4_ew_on: which steps price the
                                  element-wise work as fused kernels
                                  (bit 1 prompt, bit 2 decode-only; h240) */
} sctx;

typedef struct {
    double t;                  /* seconds                                         */
    double busy;               /* seconds x share of the bound peak (power)       */
    double bc, bm;             /* seconds of peak math / of peak bandwidth the
                                  kernels need (compute and memory utilisation) */
    double comm;
    double ovh;                /* the engine's CPU time in t                      */
    double bsm;                /* power only: seconds of peak bandwidth the SMs'
                                  side of an occupancy-bound stream draws beyond
                                  its bytes (floor_sm_draw)                   */
} itime;

static void kadd(const sctx *s, itime *it, const dlp_eff_curve *cv, double peak, double flops, double bytes,
                 double kernels) {
    if (flops <= 0 && bytes <= 0) return;
    double roof = dlp__roof_time(flops, bytes, peak, s->bw);
    double kt = dlp__kernel_time_vmin(cv, flops, bytes, peak, s->bw, cv == s->cv_gemm ? s->gemm_vmin : -INFINITY);
    it->t += kt + kernels * T_KERNEL_US * 1e-6;
    it->busy += roof;
    if (peak > 0) it->bc += flops / peak;
    it->bm += bytes / s->bw;
}

/* Cached elements one sequence of `ctx` tokens reads per step, all layers */
static double kv_elems(const sctx *s, double ctx) {
    if (ctx < 1) ctx = 1;
    return dlp_llm_kv_bytes(s->c, (int64_t)llround(ctx), 1.0);
}

/* Weight-only 4-bit MoE experts (W4A16: int4 Marlin MoE, mxfp4 as vLLM's
 * triton matmul_ogs / TensorRT-LLM's w4a16_mxfp4 runs it on Hopper): the
 * weights are dequantised in registers and the math stays 16-bit, and at
 * the few rows per expert of a decode step the kernel is neither at the
 * DRAM peak nor at a GEMM curve's floor.  aiconfigurator's per-op MoE
 * tables (the whole fused-MoE module under a CUDA graph: routing, both
 * grouped GEMMs, activation, combine; `balanced` routing, T <= 32 tokens,
 * no expert parallelism, the newest collection of vLLM, SGLang and
 * TensorRT-LLM on H100, H200 and B200: 834 rows) fit
 *     t = t0 + experts hit x (c + bytes of one expert's slice / (eta BW))
 * at t0 24.2 us, c 0.236 us, eta 0.659 (MAPE 22.1 %; refit leaving out a
 * GPU: t0 21.9-31.2 us, eta 0.57-0.72, held-out MAPE 24.5-30.7 %; leaving
 * out an engine 19.0-38.1 %): tools/moe/fit_w4a16_moe.py, docs/llm.md
 * "Weight-only 4-bit MoE".  A fit on kernel tables, not on serving rows. */
#define W4A16_MOE_T0_US 24.2   /* per MoE layer: routing, launches, combine  */
#define W4A16_MOE_EXPERT_US 0.236 /* per expert a layer's rows hit           */
#define W4A16_MOE_ETA 0.659    /* share of the DRAM bandwidth the slices stream at */

/* 16-bit and fp8 MoE kernels (issue 22, h130): the same tables' bfloat16
 * and fp8_block rows (balanced, T <= 32, no expert parallelism, SwiGLU
 * experts; vLLM 0.24, SGLang 0.5.14, TensorRT-LLM 1.3.0rc20 on H100, H200,
 * B200) put the fused-MoE module at 1.5-3x the GEMM curve at decode sizes,
 * and each engine runs its own kernel (vLLM and SGLang triton fused_moe,
 * TensorRT-LLM cutlass; on B200 flashinfer / deepgemm): at 4 tokens of
 * DeepSeek-V3's layer on an H200 with TP 8 SGLang 62, vLLM 78, TensorRT-LLM
 * 138 us.  The W4A16 form, one fit per engine and format (t0 us, c us, eta;
 * in-sample MAPE; held-out leaving out each GPU in turn):
 *   16-bit  vLLM 20.6 0.276 0.879 (19.0 %; 18.4-30.3 %)
 *           SGLang 16.9 0.154 0.753 (24.3 %; 21.2-30.2 %)
 *           TensorRT-LLM 28.1 0.265 0.802 (14.3 %; 11.5-16.7 %)
 *   fp8     vLLM 30.4 0.102 0.782 (13.1 %; 13.2-18.9 %)
 *   (block) SGLang 21.3 0.167 0.769 (14.0 %; 12.1-19.2 %)
 *           TensorRT-LLM 36.2 1.027 0.831 (22.1 %; 21.1-27.6 %)
 * vllm-v0 takes vLLM's (the same triton fused_moe lineage).  dlperf's fp8
 * is block fp8 (a scale per 128 x 128), so per-tensor fp8's kernels (vLLM's
 * modelopt flashinfer cutlass: 4x these on Hopper) are not used.
 * tools/moe/fit_16_fp8_moe.py; docs/llm.md "16-bit and fp8 MoE kernels".
 * A fit on kernel tables, not on serving rows. */
static const double MOE_FIT16[4][3] = {
    [DLP_LLM_ENGINE_MODERN] = {20.6, 0.276, 0.879},
    [DLP_LLM_ENGINE_VLLM_V0] = {20.6, 0.276, 0.879},
    [DLP_LLM_ENGINE_SGLANG] = {16.9, 0.154, 0.753},
    [DLP_LLM_ENGINE_TRTLLM] = {28.1, 0.265, 0.802},
};
static const double MOE_FITFP8[4][3] = {
    [DLP_LLM_ENGINE_MODERN] = {30.4, 0.102, 0.782},
    [DLP_LLM_ENGINE_VLLM_V0] = {30.4, 0.102, 0.782},
    [DLP_LLM_ENGINE_SGLANG] = {21.3, 0.167, 0.769},
    [DLP_LLM_ENGINE_TRTLLM] = {36.2, 1.027, 0.831},
};
/* The same rows refitted with the experts they really hit (issue 22, h227):
 * aiconfigurator's balanced router (collector/helper.py balanced_logits,
 * 095f58a5) spreads T tokens over min(E, T k) experts, not the uniform
 * draw's E (1 - (1 - k/E)^T) the rows above were fitted with (Qwen3-235B's
 * 16 tokens read all 128 experts, the draw says 82).  Its power-law router
 * (power_law_logits_v3, alpha 1.01), played, leaves the busiest EP rank
 * about the uniform draw's distinct experts (+-20 %), so decode steps keep
 * experts_hit and take these constants where moe_fit_hits picks them;
 * steps with prompt tokens keep the rows above (moe_fit_pf).  {t0 us, c us, eta}; in-sample / leave-one-GPU /
 * leave-one-shape MAPE in docs/llm.md (h227); tools/moe/fit_16_fp8_moe.py
 * --hits table.  A fit on kernel tables, not on serving rows. */
static const double MOE_FIT16_HITS[4][3] = {
    [DLP_LLM_ENGINE_MODERN] = {23.1, 0.169, 1.017},
    [DLP_LLM_ENGINE_VLLM_V0] = {23.1, 0.169, 1.017},
    [DLP_LLM_ENGINE_SGLANG] = {19.0, 0.078, 0.870},
    [DLP_LLM_ENGINE_TRTLLM] = {30.9, 0.142, 0.919},
};
static const double MOE_FITFP8_HITS[4][3] = {
    [DLP_LLM_ENGINE_MODERN] = {33.3, 0.021, 0.922},
    [DLP_LLM_ENGINE_VLLM_V0] = {33.3, 0.021, 0.922},
    [DLP_LLM_ENGINE_SGLANG] = {23.5, 0.091, 0.902},
    [DLP_LLM_ENGINE_TRTLLM] = {40.1, 0.626, 0.949},
};
static const double MOE_FITFP8_TRT_BW_HITS[3] = {42.8, 0.636, 0.762};
/* TensorRT-LLM's block-fp8 CUTLASS MoE on Hopper under expert parallelism
 * (h227): the rows above are EP 1 rows, and on the same tables' EP > 1 rows
 * (4,860, H100 / H200, T <= 32, balanced) the TensorRT-LLM row prices a
 * rank's module at a median 1.22x (MAPE 28.4 %: t0 and c too high, eta too
 * low for a rank's whole experts).  Refit on those rows with the local
 * experts the router really hit: MAPE 11.7 %, leaving out each GPU 11.8 /
 * 11.9 %, each model shape 12.0 % (tools/moe/fit_trt_fp8_ep_moe.py).
 * {t0 us, c us, eta}.  A fit on kernel tables, not on serving rows. */
static const double MOE_FITFP8_TRT_EP_HITS[3] = {24.0, 0.507, 0.903};

/* TensorRT-LLM's block-fp8 MoE on Blackwell (issue 22, h205): the row above
 * pools two kernels, CUTLASS on Hopper (the tables' moe_torch_flow_cutlass,
 * H100 / H200) and DeepGEMM on Blackwell (deepgemm, B200: the backend the
 * B200 recipes' DEEPGEMM names; NVIDIA/TensorRT-LLM fused_moe/ops/
 * moe_op_deepgemm.py: permute, per-128-group quantisation, two masked
 * grouped GEMMs with a SiLU + re-quantise kernel between, finalize), and the
 * pooled eta puts DeepGEMM's whole experts (moe_tp 1: a
 * rank's share under attention DP + EP) at 0.78 of the table.  Refit on the
 * B200 rows alone (444, T <= 32): t0 38.8 us, c 1.019 us, eta 0.652 (MAPE
 * 23.0 %, the pooled row on them 25.9 %; leaving out each of 17 model shapes
 * held-out 25.2 % row-weighted (DeepSeek-V3's 20.5 %, pooled 29.0 %), each
 * moe_tp 24.1 %; whole experts median 0.93, pooled 0.78).  Taken by every
 * Blackwell GPU (B300, GB200, GB300 not in the table); Hopper keeps the
 * pooled row (its own refit moved silicon TTFT up: docs/llm.md, h205).
 * tools/moe/fit_16_fp8_moe.py (by_generation).  A fit on kernel tables, not
 * on serving rows. */
static const double MOE_FITFP8_TRT_BW[3] = {38.8, 1.019, 0.652};
static const double MOE_FITW4[3] = {W4A16_MOE_T0_US, W4A16_MOE_EXPERT_US, W4A16_MOE_ETA};
/* TensorRT-LLM's TRTLLM MoE backend for block fp8 on Blackwell (issue 22,
 * h188; wl->moe_trtllm_gen): moe_config backend TRTLLM runs the trtllm-gen
 * fused MoE (tensorrt_llm/_torch/modules/fused_moe/fused_moe_trtllm_gen.py,
 * routing, both grouped GEMMs and the finalize in trtllm-gen kernels), where
 * the engine's Blackwell row (MOE_FITFP8_TRT_BW, h205) was timed on the
 * DEEPGEMM kernel (the only block-fp8 kernel of aiconfigurator's
 * TensorRT-LLM B200 table).  FlashInfer
 * ships the same trtllm-gen kernels (trtllm_fp8_block_scale_moe), and the
 * same tables time them under vLLM 0.24 (flashinfer_trtllm, monolithic:
 * routing inside, as TensorRT-LLM's runner) and SGLang 0.5.14
 * (flashinfer_trtllm_moe) on B200: 714 shapes (balanced, no EP, T <= 32),
 * the W4A16 form, t0 20.0 us, c 0.164 us, eta 0.803 (MAPE 12.2 %; leaving
 * out an engine's wrapper 12.4 / 14.2 %, a model shape 5.4-16.3 % but
 * DeepSeek-V3's layer, 36.1 %: its wide experts stream at ~0.95 of the
 * DRAM peak, so the fit prices them high).  At 16 tokens of DeepSeek-V3's
 * layer at TP 8: 88.6 us measured, DEEPGEMM 288 us.
 * tools/moe/fit_trtllm_gen_fp8_moe.py.  A fit on kernel tables, not on
 * serving rows. */
static const double MOE_FITFP8_TRTGEN[3] = {20.0, 0.164, 0.803};

/* Weight-only 4-bit MoE at prefill sizes (issue 22, h171).  The fit above
 * is the decode-size kernel; past a few hundred tokens the same tables put
 * the kernel at its math, and that math is not the 16-bit GEMM curve's:
 * the weights are dequantised in registers and multiplied on the warp-level
 * MMA.  Marlin (vLLM's and SGLang's fused MoE for int4, and for fp4 on GPUs
 * without FP4 tensor cores) issues mma.sync.aligned.m16n8k16 on every GPU
 * (vllm csrc/moe/marlin_moe_wna16/marlin_template.h), not Hopper's wgmma or
 * Blackwell's tcgen05: its rate is per SM per clock (the tables: B200's is
 * H200's, where the 16-bit peaks differ 2.3x).  Marlin also pads each
 * expert's rows to block_size_m, the first of 8, 16, 32, 48, 64 with
 * T k / E / block < 0.9, else 64 (vllm fused_marlin_moe.py;
 * moe_align_block_size), and computes the padded rows (the tables' steps:
 * Kimi-K2.5's layer at TP 8 on an H200 1,558 us at 3,072 tokens, one block
 * of 64 an expert, 2,775 us at 4,096, two).  Per layer on one GPU
 *     t_math = (2 P 3 H I / tp / R + P H delta) / (SMs x clock)
 * P the rows computed (padded for Marlin), R the FLOP per SM per clock,
 * delta SM clocks per computed row and hidden element (a cost that does not
 * shrink with I / tp: the down projection's short K = I / tp leaves each
 * output tile's fixed work unamortised); the kernel takes the larger of
 * this and the decode fit.  Fitted on aiconfigurator's W4A16 tables at
 * T >= 2,048 (balanced, no EP; tools/moe/fit_w4a16_moe_prefill.py, which
 * prints the held-out checks; docs/llm.md "Weight-only 4-bit MoE at
 * prefill sizes"): Marlin int4 (vLLM 0.24, SGLang 0.5.14; H100, H200, B200)
 * R 1200, delta 0.902 (MAPE 8.7 % at T >= 256; leaving out a GPU 6.6-12.5,
 * an engine 8.9-11.2 %); mxfp4 on Hopper, each engine's kernel: vLLM's
 * triton matmul_ogs 2207 / 0.793 (16.6 %; 15.1-18.5), SGLang's triton
 * fused_moe 1135 / 0.672 (36.2 %; 32.5-40.7).  TensorRT-LLM on Hopper
 * takes vLLM's: its gpt-oss guide has moe_config backend TRITON on Hopper
 * "for best performance" (TensorRT-LLM examples/models/core/gpt_oss/
 * README.md; fused_moe_triton.py runs the same triton_kernels matmul_ogs),
 * and InferenceX's H200 runs set it (benchmarks/.../gptoss_fp4_h200_trt.sh
 * since 551d81e9); its default CUTLASS kernel (the table's w4a16_mxfp4, one
 * I / tp: R alone 1408, 14.2 %) is not what they ran.  A fit on kernel
 * tables, not on serving rows. */
typedef struct w4_math {
    double flop_clk;           /* R: FLOP per SM per clock                     */
    double row_clk;            /* delta: SM clocks per row x hidden element    */
    int marlin;                /* rows padded to Marlin's block_size_m         */
} w4_math_t;
static const w4_math_t W4_MATH_MARLIN = {1200.0, 0.902, 1};
static const w4_math_t W4_MATH_MXFP4[4] = {
    [DLP_LLM_ENGINE_MODERN] = {2207.0, 0.793, 0},
    [DLP_LLM_ENGINE_VLLM_V0] = {2207.0, 0.793, 0},
    [DLP_LLM_ENGINE_SGLANG] = {1135.0, 0.672, 0},
    [DLP_LLM_ENGINE_TRTLLM] = {2207.0, 0.793, 0},
};

/* nvfp4 MoE kernels on Blackwell's FP4 tensor cores (issue 22, h137): the
 * same tables' nvfp4 rows on B200 (the only GPU with them: vLLM 0.24
 * flashinfer trtllm, SGLang 0.5.14 flashinfer trtllm, TensorRT-LLM
 * 1.3.0rc20 cutlass / min-latency, the faster per shape; balanced, T <= 32,
 * no EP, gated; 1,356 shapes) run 7x (1 token) to 1.9x (32 tokens) the
 * slices' 4-bit bytes at the DRAM peak: a per-layer floor and a per-expert
 * cost, as the other formats.  One pooled fit, t0 15.7 us, c 0.133 us, eta
 * 1.283 (MAPE 21.0 %; leaving out an engine 16.9 / 23.5 / 31.1 %, SGLang /
 * vLLM / TensorRT-LLM).  eta > 1 (faster than the DRAM peak) says the slice
 * term is loose (small experts stay in L2 between graph replays); the
 * floor and per-expert terms carry the fit.  tools/moe/fit_nvfp4_moe.py.
 * A fit on kernel tables, not on serving rows. */
static const double MOE_FITNV4[3] = {15.7, 0.133, 1.283};

/* nvfp4 dense GEMMs on FP4 tensor cores (issue 22, h147): aiconfigurator's
 * GEMM tables (095f58a5, systems/data/{b200_sxm,b300_sxm,gb200}/gemm/
 * {vllm/0.24.0,sglang/0.5.14,trtllm/1.3.0rc20}, nvfp4, m <= 32) are flat in
 * m and run far above the fp4 curve at decode sizes (vLLM: a median 5-7 us
 * over it; the op with its quantisation runs about as long as bf16 on the
 * same shape).  Each collector times the GEMM with the activation's fp4
 * quantisation from bf16 (collector/{vllm,sglang,trtllm}/collect_gemm.py).
 * Per op t = t0 + (weight + activation bytes) / (eta x DRAM BW), fitted per
 * engine on relative error (tools/gemm/fit_nvfp4_gemm.py, which prints the
 * leave-one-GPU-out checks): vLLM 7.84 us / 0.745 (MAPE 17.6 %, held out
 * 17.2-19.5 %), SGLang 5.07 / 0.617 (20.1 %, 20.1-20.7), TensorRT-LLM 8.82 /
 * 0.496 (27.6 %, 24.5-29.6).  What the engines run: vLLM's and SGLang's
 * ModelOpt nvfp4 linear (modelopt.py / modelopt_quant.py,
 * ModelOptFp4LinearMethod.apply) quantise with scaled_fp4_quant, a kernel
 * of its own, before the GEMM: the table's op as it is.  TensorRT-LLM
 * quantises inside the kernel before it (the all-reduce + residual +
 * RMSNorm kernel's RESIDUAL_RMS_NORM_QUANT_NVFP4 for QKV and gate/up,
 * the SwiGLU for down; tensorrt_llm/_torch/modules/linear.py skips
 * fp4_quantize for an Fp4QuantizedTensor input), and it autotunes each
 * GEMM at warm-up (pyexecutor/model_engine.py _run_autotuner_warmup) where
 * the collector ran Linear untuned (no autotune(): its table is the default
 * tactic, 1.5-2x SGLang's op); so TensorRT-LLM takes SGLang's op (the same
 * FlashInfer CuTe-DSL fp4 GEMM) less the one launch-bound quantisation
 * kernel it fuses away (T_KERNEL_US).  Its own table's fit put its nvfp4
 * rows at 1.18-1.23 of measured.  A fit on kernel tables, not on serving
 * rows; indexed by dlp_llm_engine. */
static const double NV4_GEMM_FIT[4][2] = {
    [DLP_LLM_ENGINE_MODERN] = {7.84, 0.745},
    [DLP_LLM_ENGINE_VLLM_V0] = {7.84, 0.745},
    [DLP_LLM_ENGINE_SGLANG] = {5.07, 0.617},
    [DLP_LLM_ENGINE_TRTLLM] = {5.07 - T_KERNEL_US, 0.617},
};

static int is_nvidia(const dlp_device *d) { return d && d->vendor && !strcmp(d->vendor, "nvidia"); }

/* The fitted (t0 us, eta) of an nvfp4 dense GEMM under `engine` on d, or
 * NULL: nvfp4 weights on FP4 tensor cores of an NVIDIA GPU only (the
 * tables are Blackwell's; elsewhere nvfp4 runs as weight-only W4A16). */
static const double *nv4_gemm_fit(const dlp_device *d, int quant, int cdt, int engine) {
    if (quant != DLP_QT_NVFP4 || cdt != DLP_DT_FLOAT4E2M1) return NULL;
    if (!is_nvidia(d)) return NULL;
    if (engine < DLP_LLM_ENGINE_MODERN || engine > DLP_LLM_ENGINE_TRTLLM) return NULL;
    return NV4_GEMM_FIT[engine];
}

int dlp__llm_w4a16_moe(const dlp_device *d, int quant) {
    if (quant == DLP_QT_INT4) return 1;
    if (quant != DLP_QT_MXFP4 && quant != DLP_QT_NVFP4) return 0;
    int cdt = dlp_llm_compute_dtype(d, (dlp_quant)quant, NULL, 0);
    return cdt == DLP_DT_BFLOAT16 || cdt == DLP_DT_FLOAT16;
}

/* Which fitted MoE kernel runs the experts of `quant` on d: W4A16 as
 * above; 16-bit weights on 16-bit tensor cores, fp8 weights on fp8 tensor
 * cores (W8A8), both on NVIDIA GPUs only (the tables are NVIDIA's kernels:
 * triton, cutlass, flashinfer, deepgemm); else none (the GEMM curve
 * alone: fp32, weight-only fp8 on Ampere, int8,
 * nf4, AMD and Intel). */
int dlp__llm_moe_kernel(const dlp_device *d, int quant) {
    if (!d) return DLP__MOEK_NONE;
    if (dlp__llm_w4a16_moe(d, quant)) return DLP__MOEK_W4A16;
    if (!is_nvidia(d)) return DLP__MOEK_NONE;
    int cdt = dlp_llm_compute_dtype(d, (dlp_quant)quant, NULL, 0);
    if (quant == DLP_QT_NVFP4) return cdt == DLP_DT_FLOAT4E2M1 ? DLP__MOEK_NVFP4 : DLP__MOEK_NONE;
    if (quant != DLP_QT_BF16 && quant != DLP_QT_FP16 && quant != DLP_QT_FP8) return DLP__MOEK_NONE;
    if (quant == DLP_QT_FP8) return cdt == DLP_DT_FLOAT8E4M3FN ? DLP__MOEK_FP8 : DLP__MOEK_NONE;
    return cdt == DLP_DT_BFLOAT16 || cdt == DLP_DT_FLOAT16 ? DLP__MOEK_16 : DLP__MOEK_NONE;
}

/* The fused-MoE module at prefill sizes (issue 22, h167): the fits above
 * are decode-sized (T <= 32, weight streaming).  With tens of rows an
 * expert the grouped GEMMs are math-bound, and aiconfigurator's tables
 * (095f58a5, moe/{trtllm/1.3.0rc20,sglang/0.5.14,vllm/0.24.0}/moe_perf,
 * balanced routing, >= 64 rows an expert, every model shape with hidden >=
 * 2,048; TensorRT-LLM's rank-local EP and TP rows, the other engines' EP 1
 * rows at TP 1-8) run them far below the dense peak: per layer
 * t = a + F / (eta x peak), F the rank's expert FLOPs (2 x rows x 3 x
 * hidden x inter / moe_tp), peak the format's dense tensor rate.  At 8,192
 * tokens of DeepSeek-V3 on EP 8 of H200 the table's 1.28 ms is ~0.28 of
 * the fp8 peak, where the GEMM curve (all layers' matrices taken as one
 * kernel) gave 0.42 ms.  Each engine runs its own kernel per generation
 * (SGLang triton on Hopper, FlashInfer's TensorRT-LLM MoE on Blackwell;
 * TensorRT-LLM cutlass on Hopper, DeepGEMM for fp8 on Blackwell), so one
 * fit per engine, format and generation (Hopper: H100, H200; Blackwell:
 * B200, B300, GB200, GB300), on relative error (tools/moe/fit_moe_prefill.py,
 * which prints the leave-one-GPU-out refits: eta within +-9 %, held-out
 * MAPE 14-45 %); {a us, eta}, indexed [generation][format][engine].
 * Outside the fitted range (under 64 rows an expert, other generations)
 * the decode fits above price the module alone.  A fit on kernel tables,
 * not on serving rows. */
#define MOE_PF_MIN_ROWS 64.0
static const double MOE_PF[2][3][4][2] = {
    { /* Hopper: 16-bit, fp8 (block); no nvfp4 */
     {[DLP_LLM_ENGINE_MODERN] = {205.7, 0.521}, [DLP_LLM_ENGINE_VLLM_V0] = {205.7, 0.521},
      [DLP_LLM_ENGINE_SGLANG] = {122.4, 0.365}, [DLP_LLM_ENGINE_TRTLLM] = {61.6, 0.569}},
     {[DLP_LLM_ENGINE_MODERN] = {189.5, 0.258}, [DLP_LLM_ENGINE_VLLM_V0] = {189.5, 0.258},
      [DLP_LLM_ENGINE_SGLANG] = {120.3, 0.295}, [DLP_LLM_ENGINE_TRTLLM] = {60.2, 0.254}},
     {{0, 0}}},
    { /* Blackwell: 16-bit, fp8 (block), nvfp4 */
     {[DLP_LLM_ENGINE_MODERN] = {110.1, 0.402}, [DLP_LLM_ENGINE_VLLM_V0] = {110.1, 0.402},
      [DLP_LLM_ENGINE_SGLANG] = {106.7, 0.379}, [DLP_LLM_ENGINE_TRTLLM] = {57.5, 0.520}},
     {[DLP_LLM_ENGINE_MODERN] = {111.7, 0.176}, [DLP_LLM_ENGINE_VLLM_V0] = {111.7, 0.176},
      [DLP_LLM_ENGINE_SGLANG] = {99.5, 0.173}, [DLP_LLM_ENGINE_TRTLLM] = {58.0, 0.330}},
     {[DLP_LLM_ENGINE_MODERN] = {82.7, 0.267}, [DLP_LLM_ENGINE_VLLM_V0] = {82.7, 0.267},
      [DLP_LLM_ENGINE_SGLANG] = {160.9, 0.320}, [DLP_LLM_ENGINE_TRTLLM] = {75.0, 0.255}}},
};

/* The busiest EP rank at prefill sizes (issue 22, h167): aiconfigurator
 * prices DeepSeek-family MoE layers at its power-law routing by default
 * (sdk/models/deepseek.py: workload_distribution "power_law", alpha 1.01;
 * collector/helper.py power_law_logits_v3: expert loads drawn from a power
 * law, the rank with the most routed rows measured).  Its TensorRT-LLM
 * tables' power-law over balanced time (moe_tp 1, >= 64 rows an expert)
 * fit 1 + b0 + b1 log2(EP) log2(T / 512) on T tokens a step (7,384 rows,
 * MAPE 20.3 %; leaving out each GPU b0 0.133-0.160, b1 0.036-0.042,
 * held-out MAPE 16.1-26.7 %; tools/moe/fit_moe_prefill.py): +15 % on one
 * rank (the hot experts' tiles), +39 % at 1k tokens on EP 8, +62 % at 8k.
 * It scales the rank's math (MOE_PF's F); with redundant expert slots
 * EPLB balances the load and none is charged (expert_copies). */
#define MOE_PF_IMB_B0 0.1512
#define MOE_PF_IMB_B1 0.0393
static double moe_pf_imbalance(double T, int ep, double slots) {
    if (slots > 0) return 1.0;
    double lt = T > 512.0 ? log2(T / 512.0) : 0.0;
    return 1.0 + MOE_PF_IMB_B0 + MOE_PF_IMB_B1 * log2(ep > 1 ? (double)ep : 1.0) * lt;
}

/* The busiest EP rank of an nvfp4 MoE at prefill sizes (issue 22, h240):
 * the same fit as moe_pf_imbalance on the nvfp4 rows of aiconfigurator's
 * TensorRT-LLM tables alone (095f58a5, tools/moe/aic_moe_prefill.csv,
 * moe_tp 1, >= 64 rows an expert, power_law_1.01 / balanced; 2,120 rows on
 * B200 / B300 / GB200 / GB300; tools/moe/fit_moe_imb_fp4.py): its power-law
 * rows run a median 1.20x the balanced ones where the block-fp8 and 16-bit
 * rows run 1.39x, and the pooled fit's growth with EP and T is twice nvfp4's.
 * MAPE 29.7 -> 14.6 %; leaving out each GPU 8.0-22.0 % (pooled 20.8-38.7),
 * each model shape better on 17 of 20 (DeepSeek's 13.3, pooled 28.4);
 * fitted below 8,192 tokens, 14.6 % on the larger rows (pooled 31.6).  At
 * EP 4 and 64k tokens (sixteen 1k prompts on each of 4 ranks): 1.34 where
 * the pooled fit says 1.70.  dlp__llm_knob.moe_imb_fp4: bit 1 TensorRT-LLM,
 * bit 2 the other engines' nvfp4 MoE as well (their kernels not in the
 * tables). */
#define MOE_PF_IMB_FP4_B0 0.0866
#define MOE_PF_IMB_FP4_B1 0.0182
static double moe_pf_imbalance_s(const sctx *s, double T) {
    int k = dlp__llm_knob.moe_imb_fp4;
    int on = k && dlp__llm_moe_kernel(s->d, s->p->quant) == DLP__MOEK_NVFP4 &&
             (k & (s->engine == DLP_LLM_ENGINE_TRTLLM ? 1 : 2));
    if (!on || s->slots > 0) return moe_pf_imbalance(T, s->ep, s->slots);
    double lt = T > 512.0 ? log2(T / 512.0) : 0.0;
    return 1.0 + MOE_PF_IMB_FP4_B0 + MOE_PF_IMB_FP4_B1 * log2(s->ep > 1 ? (double)s->ep : 1.0) * lt;
}

/* SGLang's block-fp8 fused MoE on Blackwell as the runs ran it (issue 22,
 * h247): every InferenceX DeepSeek-R1 / Qwen3.5 fp8 SGLang script for B200
 * and B300 (SemiAnalysisAI/InferenceX 843c6254f,
 * benchmarks/single_node/fixed_seq_len/dsr1_fp8_b200.sh and kin, the flag
 * there since the first commit b23086972) and srt-slurm's B200 fp8 and
 * GB200 fp8 TP recipes (NVIDIA/srt-slurm c88ef731, recipes/b200-fp8/,
 * recipes/gb200-fp8/ low-latency) run `--moe-runner-backend
 * flashinfer_trtllm`; the attention-DP EP recipes run DeepEP
 * instead.  aiconfigurator's SGLang 0.5.14 Blackwell fp8 tables time the
 * two kernels (kernel_source sglang_flashinfer_trtllm_moe and
 * sglang_fused_moe_triton) on disjoint model shapes, and MOE_PF pooled
 * them; refitted on the 11 flashinfer_trtllm shapes alone (688 rows;
 * tools/moe/fit_sgl_moe_kernel.py): {93.6 us, 0.1653}, MAPE 17.7 %
 * (pooled on them 17.6 %).  Decode: MOE_FITFP8_TRTGEN, the trtllm-gen
 * kernel's fit, SGLang's flashinfer_trtllm_moe rows among its own.
 * dlp__llm_knob.sgl_moe_fi: bit 1 the prefill refit, bit 2 the decode fit,
 * on SGLang's block-fp8 MoE on Blackwell without attention-DP EP. */
static const double MOE_PF_SGL_FI[2] = {93.6, 0.1653};
static int sgl_moe_fi(const dlp_device *d, const dlp_llm_workload *wl, int attn_dp, int ep) {
    if (wl->engine != DLP_LLM_ENGINE_SGLANG || !d || d->cc_major < 10) return 0;
    if (dlp__llm_moe_kernel(d, wl->quant) != DLP__MOEK_FP8 || (attn_dp > 1 && ep > 1)) return 0;
    return dlp__llm_knob.sgl_moe_fi;
}

/* MOE_PF's {a us, eta} for MoE kernel `kind` under `engine` on d (Hopper,
 * compute capability 9, or Blackwell, 10 and up); NULL elsewhere. */
static const double *moe_pf_fit(const dlp_device *d, int kind, int engine) {
    if (engine < DLP_LLM_ENGINE_MODERN || engine > DLP_LLM_ENGINE_TRTLLM || !d || d->cc_major < 9) return NULL;
    int gen = d->cc_major >= 10 ? 1 : 0;
    int f = kind == DLP__MOEK_16 ? 0 : kind == DLP__MOEK_FP8 ? 1 : kind == DLP__MOEK_NVFP4 ? 2 : -1;
    if (f < 0 || !(MOE_PF[gen][f][engine][1] > 0)) return NULL;
    return MOE_PF[gen][f][engine];
}

/* TensorRT-LLM's block-fp8 fused MoE at prefill sizes with its routed rows
 * priced (issue 22, h218).  MOE_PF's F / (eta peak) is the same for a rank
 * of EP 8 and one of moe_tp 8, but aiconfigurator's TensorRT-LLM tables are
 * not: DeepSeek-V3's layer at 8,192 tokens on B200 runs 0.50 ms at EP 8 and
 * 1.44 ms at moe_tp 8 (H200: 1.28 / 4.98 ms), the same FLOPs a rank.  The
 * module's work per routed row is not sliced by moe_tp: every rank of a
 * tensor-parallel MoE permutes, quantises (1 x 128 blocks) and finalises all
 * T K / ep rows of the hidden size, and each narrower expert slice re-reads
 * them (tensorrt_llm/_torch/modules/fused_moe: moe_permute, the grouped
 * GEMMs over the local slice, moe_finalize; the fp8 block path quantises
 * inside the op).  Per layer on one rank
 *     t = a + F / (eta peak) + c (T K / ep) hidden / BW
 * (BW the DRAM peak; c in bytes a row element), refitted with F on the same
 * balanced rows as MOE_PF (tools/moe/fit_moe_prefill.py --rows): Blackwell
 * MAPE 32.5 -> 16.6 % (moe_tp > 1 rows 35.2 -> 15.9), leaving out each GPU
 * 16.4-16.8 %, each model shape 17.2 % row-weighted (DeepSeek-V3's 19.0,
 * was 32.5).  {a us, eta, c}.  Blackwell only: Hopper's refit (40.1 us,
 * 0.439, 42.9; tables 37.1 -> 12.4 %, held out by GPU 17.2 / 14.2 %) puts
 * the H200 aggregated TP 8 rows (TensorRT-LLM 1.1.0rc2, moe_tp 8) at 1.6x
 * their measured TTFT where they sat at 0.95: the 1.3.0rc20 table's Hopper
 * CUTLASS slices are not what those runs ran (docs/llm.md, h218).  A fit on
 * kernel tables, not on serving rows. */
static const double MOE_PF_ROWS_BW[3] = {47.53, 0.5512, 25.01};

/* SGLang's fused MoE at prefill sizes with the same routed-rows term (issue
 * 22, h244).  Its kernels do the same per-row work outside the expert
 * slice: FlashInfer's TensorRT-LLM MoE on Blackwell (--moe-runner-backend
 * flashinfer_trtllm in InferenceX's qwen3.5 / dsr1 SGLang scripts) routes,
 * permutes and finalises every routed row of the hidden size on each rank,
 * and SGLang's triton fused_moe on Hopper sorts the rows, gathers them and
 * reduces the topk outputs (moe_align_block_size, moe_sum) whatever the
 * moe_tp slice.  aiconfigurator's SGLang tables show it: Qwen3.5-397B's
 * layer (hidden 4,096, 512 experts of 1,024, top 10) at 8,192 tokens on
 * B200 runs 1.10 ms at moe_tp 4 and 0.76 at moe_tp 8 (0.69x for half the
 * FLOPs), where MOE_PF's two terms price 0.76 / 0.43.  Refitted with F on
 * MOE_PF's SGLang rows (balanced, EP 1, >= 64 rows an expert;
 * tools/moe/fit_moe_prefill.py --sglang-rows): Blackwell fp8 MAPE 19.7 ->
 * 12.8 % (leaving out each GPU 12.4-14.1 %, was 19.5-20.4; each model shape
 * 13.6 % row-weighted, was 21.0; Qwen3.5's shape held out 29.5 -> 13.5);
 * Hopper fp8 22.4 -> 11.3 % (by GPU 12.4 / 12.6, by shape 11.8); Blackwell
 * nvfp4 25.3 -> 17.2 % (by GPU 17.4-20.0, by shape 19.5).  {a us, eta, c},
 * indexed [Hopper fp8, Blackwell fp8, Blackwell nvfp4].  A fit on kernel
 * tables, not on serving rows, and on EP 1 only (the SGLang tables' EP
 * rows are left out of MOE_PF: they do not scale with 1 / EP), so an EP
 * layout keeps MOE_PF's two terms; dlp__llm_knob.sgl_moe_rows picks which. */
static const double MOE_PF_ROWS_SGL[3][3] = {{66.9, 0.358, 10.16}, {60.8, 0.198, 9.78}, {104.7, 0.439, 6.01}};
static const double *moe_pf_rows_sgl(const dlp_device *d, int kind) {
    int bw = d->cc_major >= 10, on = dlp__llm_knob.sgl_moe_rows;
    if (kind == DLP__MOEK_FP8 && !bw && (on & 2)) return MOE_PF_ROWS_SGL[0];
    if (kind == DLP__MOEK_FP8 && bw && (on & 1)) return MOE_PF_ROWS_SGL[1];
    if (kind == DLP__MOEK_NVFP4 && bw && (on & 4)) return MOE_PF_ROWS_SGL[2];
    return NULL;
}

static void moe_pf_rows_setup(sctx *s, const dlp_device *d, int kind, int engine) {
    s->moe_pf_row = 0;
    const double *f = NULL;
    if (s->moe_pf && engine == DLP_LLM_ENGINE_TRTLLM && kind == DLP__MOEK_FP8 && d->cc_major >= 10) f = MOE_PF_ROWS_BW;
    /* SGLang's fit saw EP 1 only (its EP rows do not scale with 1 / EP) */
    if (s->moe_pf && engine == DLP_LLM_ENGINE_SGLANG && s->ep <= 1) f = moe_pf_rows_sgl(d, kind);
    if (!f) return;
    s->moe_pf = f;
    s->moe_pf_row = f[2];
}

/* The fitted (t0 us, c us, eta) of MoE kernel `kind` under `engine`;
 * NULL for none or out of range (W4A16: one fit for every engine). */
static const double *moe_fit(int kind, int engine) {
    if (kind == DLP__MOEK_W4A16) return MOE_FITW4;
    if (kind == DLP__MOEK_NVFP4) return MOE_FITNV4;
    if (engine < DLP_LLM_ENGINE_MODERN || engine > DLP_LLM_ENGINE_TRTLLM) return NULL;
    if (kind == DLP__MOEK_16) return MOE_FIT16[engine];
    if (kind == DLP__MOEK_FP8) return MOE_FITFP8[engine];
    return NULL;
}

/* The decode steps' row of fitted MoE kernel f under
 * dlp__llm_knob.moe_hits_fit (issue 22, h227; bench --moe-hits-fit N): 0 f
 * itself; 1 its refit on the hits the tables' router made
 * (MOE_FIT16_HITS, MOE_FITFP8_HITS, MOE_FITFP8_TRT_BW_HITS); 2 the same
 * but TensorRT-LLM's block fp8, the one kernel the refit fits worse on the
 * tables; 3 only TensorRT-LLM's block fp8 on Hopper under EP > 1 from its
 * own EP rows (MOE_FITFP8_TRT_EP_HITS); 4 both 2 and 3; 5, the default,
 * 4 without vLLM's 16-bit refit: every refit that is physical and beats the
 * old row held out by GPU and model shape on the tables (vLLM's 16-bit one
 * puts its bandwidth share at 1.017 of the DRAM peak; TensorRT-LLM's block
 * fp8 EP-1 one fits worse), with h229's MLA math floor beside it (docs/llm.md,
 * h227 and h229's merge decision).  W4A16 and nvfp4 have no refit. */
static const double *moe_fit_hits(const double *f, int ep, const dlp_device *d) {
    int mode = dlp__llm_knob.moe_hits_fit;
    const double *trt8 = MOE_FITFP8[DLP_LLM_ENGINE_TRTLLM];
    if (mode >= 3 && mode <= 5 && f == trt8 && ep > 1 && d->cc_major == 9) return MOE_FITFP8_TRT_EP_HITS;
    if (mode < 1 || mode == 3 || mode > 5) return f;
    if (f == MOE_FITFP8_TRT_BW) return mode == 1 ? MOE_FITFP8_TRT_BW_HITS : f;
    for (int e = DLP_LLM_ENGINE_MODERN; e <= DLP_LLM_ENGINE_TRTLLM; e++) {
        if (f == MOE_FIT16[e])
            return mode == 5 && (e == DLP_LLM_ENGINE_MODERN || e == DLP_LLM_ENGINE_VLLM_V0) ? f : MOE_FIT16_HITS[e];
        if (f == MOE_FITFP8[e]) return mode != 1 && e == DLP_LLM_ENGINE_TRTLLM ? f : MOE_FITFP8_HITS[e];
    }
    return f;
}

/* The triton block-fp8 decode rows refit with the experts the tables'
 * rows really reached (issue 22, h242).  aiconfigurator's SGLang 0.5.14
 * collector (collector/sglang/collect_moe.py, e23be5a7 / 095f58a5) times
 * DeepSeek-V3's layer through SGLang's own TopK, group-limited
 * (DeepseekV3ForCausalLM_cases.yaml: 8 expert groups, the 4 best kept),
 * so its balanced logits, one expert a group, keep 4 of a token's 8 and
 * fill the rest from the same few low-index experts: 20 / 66 / 128
 * experts at 4 / 16 / 32 tokens where MOE_FITFP8_HITS counted 32 / 128 /
 * 256.  That read those rows' time as fast experts and pulled eta up
 * (0.902), which priced GLM-5's ungrouped 256-expert layer 15-30 % under
 * its own rows.  With the grouped count (tools/moe/fit_16_fp8_moe.py
 * --hits table --grouped; vLLM 0.24's table shows the same halved reads at
 * DeepSeek-V3's shape, TensorRT-LLM's does not): SGLang MAPE 13.0 -> 11.0
 * %, leaving out each model shape 14.1 -> 11.4 % row-weighted, each GPU
 * B200 / H100 / H200 19.1 / 8.7 / 12.4 -> 15.7 / 10.0 / 9.2; vLLM 12.1 ->
 * 9.9 %, by shape 13.1 -> 10.3.  Serving keeps experts_hit (a real
 * router's tokens spread over the groups).  {t0 us, c us, eta}.  A fit on
 * kernel tables, not on serving rows. */
static const double MOE_FITFP8_HITS_GROUPED[4][3] = {
    [DLP_LLM_ENGINE_MODERN] = {31.9, 0.023, 0.838},
    [DLP_LLM_ENGINE_VLLM_V0] = {31.9, 0.023, 0.838},
    [DLP_LLM_ENGINE_SGLANG] = {22.5, 0.096, 0.816},
};

/* SGLang's rows split by the kernel each generation's table timed (the
 * fused_moe_triton kernel on H100 / H200, flashinfer's trtllm-gen on
 * B200 for most shapes), grouped hits: Hopper {24.0, 0.120, 0.856} MAPE
 * 7.5 % (pooled row on them 8.5), each shape out 7.9, each GPU out 8.2 /
 * 9.1; Blackwell {21.1, 0.088, 0.741} MAPE 14.9 (pooled 14.9). */
static const double MOE_FITFP8_SGL_GROUPED_GEN[2][3] = {{24.0, 0.120, 0.856}, {21.1, 0.088, 0.741}};

/* The decode row moe_fit_hits chose, swapped for its grouped refit under
 * dlp__llm_knob.moe_grouped (1 SGLang, 2 SGLang and vLLM, 3 SGLang by
 * generation, 4 SGLang's Hopper row only): only where the chosen row is
 * that engine's MOE_FITFP8_HITS. */
static const double *moe_fit_grouped(const double *f, const dlp_device *d) {
    int mode = dlp__llm_knob.moe_grouped, bw = d->cc_major >= 10;
    if (mode >= 3 && f == MOE_FITFP8_HITS[DLP_LLM_ENGINE_SGLANG])
        return mode == 4 && bw ? f : MOE_FITFP8_SGL_GROUPED_GEN[bw];
    if (mode >= 1 && f == MOE_FITFP8_HITS[DLP_LLM_ENGINE_SGLANG]) return MOE_FITFP8_HITS_GROUPED[DLP_LLM_ENGINE_SGLANG];
    for (int e = DLP_LLM_ENGINE_MODERN; mode == 2 && e <= DLP_LLM_ENGINE_VLLM_V0; e++)
        if (f == MOE_FITFP8_HITS[e]) return MOE_FITFP8_HITS_GROUPED[e];
    return f;
}

/* Does the run's TensorRT-LLM take the trtllm-gen kernel for its experts
 * (MOE_FITFP8_TRTGEN): the TRTLLM backend set, block-fp8 experts on fp8
 * tensor cores of a Blackwell GPU (compute capability 10 and up). */
static int trtllm_gen_fp8(const dlp_device *d, const dlp_llm_workload *wl) {
    return wl->moe_trtllm_gen && wl->engine == DLP_LLM_ENGINE_TRTLLM && d && d->cc_major >= 10 &&
           dlp__llm_moe_kernel(d, wl->quant) == DLP__MOEK_FP8;
}

/* One expert matrix of one layer under a fitted MoE kernel f: `share` of
 * an expert's weights (gate and up 1/3 each of a SwiGLU expert), so that a
 * layer's matrices add up to the fitted module whether the graph splits
 * gate and up or fuses them. */
static double moe_share_s(const double *f, double hit, double share, double slice_bytes, double bw) {
    if (!f || !(bw > 0) || !(hit >= 0) || !(share >= 0) || !(slice_bytes >= 0)) return 0;
    return share * f[0] * 1e-6 + hit * (share * f[1] * 1e-6 + slice_bytes / (f[2] * bw));
}

double dlp__llm_moe_kernel_s(int kind, int engine, double hit, double share, double slice_bytes, double bw) {
    return moe_share_s(moe_fit(kind, engine), hit, share, slice_bytes, bw);
}

double dlp__llm_w4a16_moe_s(double hit, double share, double slice_bytes, double bw) {
    return moe_share_s(MOE_FITW4, hit, share, slice_bytes, bw);
}

/* gpt-oss's mxfp4 experts under the trtllm-gen block-scale MoE kernel on
 * datacenter Blackwell (issue 22, h223).  Both engines run it there:
 * vLLM's get_mxfp4_backend picks SM100_FI_MXFP4_MXFP8_TRTLLM (or _BF16)
 * on compute capability 10.x with FlashInfer (InferenceX's
 * gptoss_fp4_b200.sh sets VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8=1), and
 * TensorRT-LLM's gpt-oss scripts set moe_config backend TRTLLM
 * (gptoss_fp4_b200_trt.sh; docs/llm.md, h204).  Three things of that kernel:
 *  - the padding: both engines zero-pad each expert's matrices to 256
 *    elements a side, the hidden side and each rank's share of the expert
 *    width.  vLLM's Mxfp4MoEMethod.create_weights for those backends:
 *    "round_up(intermediate_size_per_partition, 256)", "hidden_size =
 *    round_up(hidden_size, 256)" (vllm/model_executor/layers/quantization/
 *    mxfp4.py, vllm-project/vllm 007d5005); TensorRT-LLM's
 *    MXFP4WeightTRTLLMGenFusedMoEMethod, weight_alignment 256 ("TRTLLM-Gen
 *    backend requires weight elements to be 256 aligned"), the width padded
 *    before the TP split to a multiple of lcm(256, 32, tp) and to 256 x tp
 *    where a rank's share is not a multiple of 256 (_get_weight_alignment,
 *    tensorrt_llm/_torch/modules/fused_moe/quantization.py; NVIDIA/
 *    TensorRT-LLM#7214, merged 2025-08-25, before the 1.2.0rc releases the
 *    B200 rows ran).  For gpt-oss's 2,880 x 2,880 experts the two rules
 *    agree: 3,072 wide, and 3,072 / 1,536 / 768 / 512 of the width on 1 /
 *    2 / 4 / 8 ranks, so a rank streams and multiplies (3,072 / 2,880) x
 *    (share padded / share) of what the checkpoint holds: 1.138 at moe_tp
 *    1-4, 1.517 at 8 (zeros the kernel still reads and computes);
 *  - the fusion: one call routes (router logits in), permutes, runs both
 *    grouped GEMMs with their biases and the clamped SwiGLU (gemm1_alpha,
 *    gemm1_beta, gemm1_clamp_limit) and sums each token's experts
 *    (vLLM's apply: trtllm_fp4_block_scale_moe(router_logits, ..., w13_bias,
 *    gemm1_alpha, gemm1_beta, gemm1_clamp_limit, w2, ..., w2_bias, ...),
 *    same file), after one mxfp8 quantisation of the layer's input
 *    (mxfp8_quantize(x)).  So the one-token graph's unfused chain of the
 *    MoE block (router softmax and top-k, dispatch pad, bias adds, split,
 *    clips, sigmoid, products, combine: moe_ew_bytes_pt) is not run; the
 *    quantisation is: H 16-bit values read, H bytes and H / 32 scales
 *    written a token a MoE layer.
 *  - the kernel at prefill sizes: h204's fit of aiconfigurator's
 *    TensorRT-LLM 1.3.0rc20 MoE tables for this kernel (moe_dtype
 *    w4a8_mxfp4_mxfp8 on B200, B300, GB200, GB300, 095f58a5; balanced rows,
 *    >= 64 rows an expert; tools/moe/fit_mxfp4_mxfp8_moe.py), MOE_PF's form
 *    t = a + F / (eta x the FP8 dense peak), a 76.6 us, eta 0.349 (MAPE
 *    32.5 %; leaving out a GPU a 74.3-78.3, eta 0.345-0.358, held out
 *    31.2-34.3 %), a floor under the GEMM curve's time of the expert
 *    matrices, as MOE_PF is for the other formats.  The tables time the
 *    engine's module on the shape's nominal FLOPs, padding included, so F
 *    is the unpadded rows x 3 x H x I / moe_tp.
 * Elsewhere (other formats, Hopper's triton matmul_ogs, SGLang) none.
 * dlp__llm_knob.trtgen_mxfp4 (bench-only): bits 1 the padding, 2 the fusion,
 * 4 the prefill fit; 7 all (the default), 0 none (the before). */
#define TRTGEN_MXFP4_ALIGN 256.0
static double round_up_to(double x, double a) { return ceil(x / a) * a; }

/* Does d run quant's experts under `engine` on the trtllm-gen kernel? */
static int trtgen_mxfp4(const dlp_device *d, int quant, int engine) {
    if (!dlp__llm_knob.trtgen_mxfp4 || quant != DLP_QT_MXFP4 || !is_nvidia(d) || d->cc_major != 10) return 0;
    return engine == DLP_LLM_ENGINE_TRTLLM || engine == DLP_LLM_ENGINE_MODERN;
}

/* The padding's factor on a rank's expert weights and math (above), the
 * experts H x I (H the hidden size, I an expert's width) sliced moe_tp
 * ways; 1 where the kernel does not run. */
double dlp__llm_trtgen_mxfp4_pad(const dlp_device *d, int quant, int engine, double H, double I, int moe_tp) {
    if (!trtgen_mxfp4(d, quant, engine) || !(dlp__llm_knob.trtgen_mxfp4 & 1)) return 1.0;
    if (!(H > 0) || !(I > 0)) return 1.0;
    double share = ceil(I / (moe_tp > 1 ? moe_tp : 1));
    return round_up_to(H, TRTGEN_MXFP4_ALIGN) / H * round_up_to(share, TRTGEN_MXFP4_ALIGN) / share;
}

/* The element-wise bytes a token moves where the kernel runs (above): the
 * one-token graph's less its MoE block's, plus the input's mxfp8
 * quantisation in each MoE layer; the graph's bytes elsewhere. */
static double trtgen_mxfp4_ew_bytes(const sctx *s, const prof_t *p) {
    if (!s->trtgen_fused) return p->other_bytes_pt;
    double H = (double)s->c->hidden_size;
    return p->other_bytes_pt - p->moe_ew_bytes_pt + p->moe_layers * H * (p->act_bytes + 1.0 + 1.0 / 32.0);
}

/* The experts of E (E / ep on one GPU) that T tokens routed to K each hit,
 * balanced routing. */
static double experts_hit(double E, double K, double T, int ep) {
    double e_local = E / ep;
    return e_local * (1.0 - pow(1.0 - fmin(1.0, K / E), T));
}

/* E[max of ep independent Binomial(n, p)]: sum over x < n of
 * 1 - P(X <= x)^ep, the pmf built by its ratio (no factorials). */
static double binom_max(int n, double p, int ep) {
    if (n <= 0 || !(p > 0)) return 0.0;
    if (p >= 1.0) return (double)n;
    double q = 1.0 - p, pmf = pow(q, n), cdf = 0.0, out = 0.0;
    for (int x = 0; x < n; x++) {
        cdf += pmf;
        out += 1.0 - pow(fmin(1.0, cdf), ep);
        pmf *= (double)(n - x) / (double)(x + 1) * p / q;
    }
    return out;
}

/* The experts the busiest of the ep ranks reads in a decode-only step
 * (issue 22, h236; dlp__llm_knob.ep_busiest).  Each EP rank holds E / ep
 * experts and runs the experts its rows hit; the layer's combine (the
 * all-reduce, reduce-scatter or all-to-all after the experts) waits for
 * every rank, so the step lasts the rank that hit the most, not the mean
 * experts_hit gives.  Routing uniform as elsewhere in the library: a rank's
 * hits are about Binomial(E / ep, 1 - (1 - K / E)^T), the ranks nearly
 * independent (a 256-expert, top-8 router played in Python: EP 8 at 1 / 4 /
 * 16 / 64 tokens 2.56 / 6.53 / 16.66 / 30.38 busiest against 2.54 / 6.56 /
 * 16.71 / 30.30 by the binomial, mean 1.0 / 3.8 / 12.8 / 27.9).  Steps with
 * prompt tokens keep moe_pf_imbalance's price (h167); an EPLB's slots
 * balance the ranks (none charged, as there); copies of one prompt route
 * alike on every rank (routed_tokens). */
static double ep_busiest_hits(const sctx *s, double E, double K, double T, double n_pf) {
    double mean = experts_hit(E, K, T, s->ep);
    int k = dlp__llm_knob.ep_busiest; /* 1 every GPU, 2 Hopper only (a what-if) */
    if (!k || (k == 2 && s->d->cc_major != 9) || s->ep <= 1 || n_pf > 0 || s->slots > 0 || s->same_prompts) return mean;
    int n = (int)llround(E / s->ep);
    double p = 1.0 - pow(1.0 - fmin(1.0, K / E), T);
    return fmax(mean, binom_max(n, p, s->ep));
}

/* The W4A16 kernel's math rates (W4_MATH_*) for `quant` on d under
 * `engine`, or NULL where the experts do not run W4A16 or d has no SM count
 * or clock: int4 and nvfp4 on Marlin (nvfp4 on GPUs without FP4 tensor
 * cores: vLLM's and SGLang's marlin_utils_fp4 fallback), mxfp4 on each
 * engine's own kernel (the modern engine's for vllm-v0 and unknown ones).
 * NVIDIA only: Marlin and these triton configurations are the tables'
 * CUDA kernels (ROCm runs its own); fitted on Hopper and Blackwell, on an
 * older or smaller GPU the GEMM curve still floors it (a rate above the
 * tensor peak per SM-clock, as on an L4, leaves the curve's time). */
static const w4_math_t *w4_math(const dlp_device *d, int quant, int engine) {
    if (!is_nvidia(d) || !dlp__llm_w4a16_moe(d, quant) || d->sm_count <= 0 || !(d->boost_clock_mhz > 0)) return NULL;
    if (quant != DLP_QT_MXFP4) return &W4_MATH_MARLIN;
    if (engine < DLP_LLM_ENGINE_MODERN || engine > DLP_LLM_ENGINE_TRTLLM) engine = DLP_LLM_ENGINE_MODERN;
    return &W4_MATH_MXFP4[engine];
}

/* P(X > x) for X ~ Binomial(T, p), by the normal law with a continuity
 * correction: Marlin's padded blocks past the first, where rows per expert
 * are many and the error is small beside the block. */
static double binom_tail(double T, double p, double x) {
    double mu = T * p, sd = sqrt(T * p * (1.0 - p));
    if (!(sd > 0)) return mu > x ? 1.0 : 0.0;
    return 0.5 * erfc((x + 0.5 - mu) / (sd * sqrt(2.0)));
}

/* Rows the W4A16 kernel computes on one GPU when T tokens are routed to K
 * of E experts each (balanced, E / ep experts a GPU): the routed rows, or
 * under Marlin each expert's rows padded to its block (block_size_m as
 * vLLM's fused_marlin_moe picks it from the mean rows per expert), the
 * expected blocks an expert needs sum_j P(rows > j block) (j = 0 exact:
 * the expert is hit at all). */
static double w4_rows(const w4_math_t *m, double E, double K, double T, int ep) {
    if (!m->marlin) return T * K / ep;
    double p = fmin(1.0, K / E), mean = T * p, blk = 64;
    static const double BLOCKS[4] = {8, 16, 32, 48};
    for (int i = 0; i < 4; i++)
        if (mean / BLOCKS[i] < 0.9) {
            blk = BLOCKS[i];
            break;
        }
    double blocks = 1.0 - pow(1.0 - p, T);
    for (int j = 1; j < 100000; j++) {
        double q = binom_tail(T, p, j * blk);
        blocks += q;
        if (j * blk > mean && q < 1e-9) break;
    }
    return E / ep * blocks * blk;
}

/* The least time of expert matrix l at the W4A16 kernel's math (m) when it
 * computes `rows` rows on d: its k x n / moe_tp FLOPs at R a SM-clock and
 * its share of an expert's ee elements of the per-row cost over the model's
 * hidden size H. */
static double w4_math_lin_s(const w4_math_t *m, const lin_t *l, double rows, double ee, double H, int moe_tp,
                            const dlp_device *d) {
    double sm_clk = (double)d->sm_count * d->boost_clock_mhz * 1e6;
    double flops = 2.0 * rows * l->k * l->n / moe_tp;
    return l->count * (flops / m->flop_clk + l->k * l->n / ee * rows * H * m->row_clk) / sm_clk;
}

/* Redundant experts (EPLB; docs/llm.md, "Redundant experts"): the expert
 * copies (slots) the EP ranks hold in all, N / ep each, where the workload
 * gives them, else the model's E.  The load balancer replicates the hot
 * experts so that every slot takes about the same share of the routed
 * rows: the rows are read as routed over N slots, balanced (experts_hit
 * over N), so a rank's rows (T k / ep) do not change and the slots they
 * hit do.  No routing statistics are in the model: balanced is EPLB's aim,
 * and the one load the library assumes without slots too. */
static double expert_copies(const sctx *s, double E) {
    return s->slots > 0 ? s->slots : E;
}

/* The least time of expert matrix l under the fitted MoE kernel f
 * (moe_share_s) when its rows hit `hit` experts, each sliced moe_tp
 * ways: its share of an expert of ee elements, wb stored bytes a weight.
 * One function for serving's iteration and generate mode's steps
 * (dlp__llm_w4a16_moe_floor_s), so the two modes price the kernel alike. */
static double moe_lin_s(const double *f, const lin_t *l, double hit, double ee, int moe_tp, double wb, double bw) {
    double n = l->n / moe_tp;
    return l->count * moe_share_s(f, hit, l->k * l->n / ee, l->k * n * wb, bw);
}

/* Expert matrix l's share (of the layer's expert elements) of the routed
 * rows' term (MOE_PF_ROWS_BW): c x the `rows` a GPU runs x hidden / BW; 0
 * without the term or under MOE_PF_MIN_ROWS rows an expert. */
static double moe_pf_row_s(const sctx *s, const lin_t *l, double rows, double per_expert, double ee) {
    if (!(s->moe_pf_row > 0) || !(per_expert >= MOE_PF_MIN_ROWS) || !(ee > 0) || !(s->bw > 0)) return 0;
    return l->count * l->k * l->n / ee * s->moe_pf_row * rows * (double)s->c->hidden_size / s->bw;
}

/* Expert matrix l's part of the fused MoE at prefill sizes (MOE_PF, fit
 * f = {a us, eta}): its share of the layer's fixed part and its math over
 * the `rows` a GPU runs, each expert sliced moe_tp ways, at eta of `peak`;
 * 0 under MOE_PF_MIN_ROWS rows an expert (`per_expert`), outside the fit. */
static double moe_pf_lin_s(const double *f, const lin_t *l, double rows, double per_expert, double ee, int moe_tp,
                           double peak) {
    if (!f || !(per_expert >= MOE_PF_MIN_ROWS) || !(peak > 0) || !(ee > 0)) return 0;
    double flops = 2.0 * rows * l->k * l->n / moe_tp;
    return l->count * (l->k * l->n / ee * f[0] * 1e-6 + flops / (f[1] * peak));
}

/* Expert matrix l's floor at prefill sizes under the trtllm-gen MXFP4
 * kernel (dlp__llm_knob.trtgen_pf, with dlp__llm_trtgen_mxfp4_pad): m rows on
 * this GPU of a step of T tokens; 0 where off or under 64 rows an expert. */
static double trtgen_mxfp4_pf_s(const sctx *s, const lin_t *l, double m, double T) {
    if (!(s->trtgen_pf_peak > 0)) return 0;
    double K = (double)(s->c->experts_per_token > 0 ? s->c->experts_per_token : 1);
    return moe_pf_lin_s(dlp__llm_knob.trtgen_pf, l, m, T * K / l->experts, s->p->expert_elems, s->moe_tp,
                        s->trtgen_pf_peak);
}

double dlp__llm_w4a16_moe_floor_s(const dlp_llm_config *c, const dlp_device *d, int quant, int n_gpus,
                                  double tokens) {
    if (!c || !d || c->num_experts <= 0 || !(tokens > 0) || !dlp__llm_w4a16_moe(d, quant)) return 0;
    prof_t p;
    if (profile_get(c, quant, &p, NULL)) return 0;
    double ee = p.expert_elems, bw = d->mem_bandwidth_gbs * 1e9;
    double K = (double)(c->experts_per_token > 0 ? c->experts_per_token : 1), t = 0;
    if (!(ee > 0) || !(bw > 0)) return 0;
    int tp = n_gpus > 1 ? n_gpus : 1;
    /* the modern engine's kernel (generate mode names none) */
    const w4_math_t *m = w4_math(d, quant, DLP_LLM_ENGINE_MODERN);
    for (int i = 0; i < p.n_lin; i++) {
        const lin_t *l = &p.lin[i];
        if (l->kind != LIN_EXPERT) continue;
        double km = moe_lin_s(MOE_FITW4, l, experts_hit(l->experts, K, tokens, 1), ee, tp, p.wbytes_per_elem, bw);
        if (m)
            km = fmax(km, w4_math_lin_s(m, l, w4_rows(m, l->experts, K, tokens, 1), ee, (double)c->hidden_size, tp, d));
        t += km;
    }
    return t;
}

/* Seconds of one MoE layer's dispatch and combine under expert parallelism
 * with attention DP, `elems` the routed rows' elements one GPU receives
 * (rows x hidden): the fitted one-sided kernels (A2A_*) over NVLink, the NIC
 * for the share leaving the NVLink domain; NCCL's all-to-all table (both
 * ways at the activation's bytes) on boards without NVLink (PCIe, AMD's
 * Infinity Fabric), where DeepEP does not run. */
static double ep_a2a_s(const sctx *s, double elems) {
    int nvl;
    double gbs = link_gbs(s->d, &nvl);
    double cb = s->p->act_bytes, db = s->a2a_db > 0 ? s->a2a_db : cb;
    /* DeepEP and TensorRT-LLM's all-to-all are NVLink kernels; AMD's
     * Infinity Fabric and PCIe boards keep the (R)CCL table */
    if (!nvl || !strstr(s->d->host_interface, "NVLink")) return 2.0 * coll_s(s->d, CO_ALLTOALL, s->ep, elems * cb);
    int dom = nvlink_domain(s->d);
    if (s->ep <= dom) {
        double one_way = gbs / 2.0 * 1e9;
        return (A2A_T0_DISPATCH_US + A2A_T0_COMBINE_US) * 1e-6 + elems * db / (A2A_ETA_DISPATCH * one_way) +
               elems * cb / (A2A_ETA_COMBINE * one_way);
    }
    double out = 1.0 - (double)dom / s->ep; /* share of the peers past the domain */
    return (A2A_T0_NODE_DISPATCH_US + A2A_T0_NODE_COMBINE_US) * 1e-6 +
           elems * out * (db + cb) / (IB_GBS * 1e9);
}

/* ---- attention DP: the busiest rank and CUDA-graph padding (h139) ----------
 *
 * Under attention DP every rank runs its own sequences' attention, and the
 * MoE layers' all-to-all (or all-gather) makes all ranks wait for each
 * other every layer: a step lasts as long as its busiest rank.  Two things
 * the engines' sources document set that rank's batch (docs/llm.md,
 * "Attention DP: the busiest rank and CUDA-graph padding"):
 *
 * - Balance.  TensorRT-LLM assigns new requests to the ranks with the
 *   fewest active ones, up to expected = max(ceil((active + new) / D), max
 *   active) (pyexecutor executor_request_queue.py,
 *   _schedule_attention_dp_requests / _balance_requests_across_ranks); in a
 *   closed loop a finished request is replaced by one that goes to a rank
 *   below the others, so the counts stay within one: the busiest rank holds
 *   ceil(n / D) of n running sequences, and a rank with none runs a dummy
 *   request (py_executor _pad_attention_dp_dummy_request) so that the
 *   collectives meet.  SGLang's round-robin dispatch of equal requests gives
 *   the same ceil.
 * - CUDA graphs.  In a decode-only step TensorRT-LLM all-gathers every
 *   rank's batch size, takes the max and pads every rank to the next
 *   captured size (cuda_graph_runner.py _get_padded_batch: dummy generation
 *   requests; captured sizes with enable_padding [1, 2, 4] + multiples of 8
 *   to 128, llm_args.py CudaGraphConfig._generate_cuda_graph_batch_sizes);
 *   SGLang pads every rank to the captured size at or above the max of
 *   global_num_tokens (cuda_graph_runner.py replay_prepare; server_args.py
 *   capture list [1, 2, 4, 8, 12] + range(16, 257, 8), with speculative
 *   decoding 1..8, 10..32 by 2, 40..64 by 4, 72..256 by 8).  The padded rows
 *   run every GEMM, the experts and the all-to-all; their attention is over
 *   a one-token dummy cache and is left out.  Steps with prompt tokens are
 *   not graphed (no padding); past the lists (TensorRT-LLM > 128: the
 *   versions differ; SGLang > 256: cuda_graph_max_bs depends on the GPU) and
 *   for vLLM nothing is padded.  Nothing fitted. */

/* The captured batch size a rank of b sequences runs at (b an integer):
 * the engine's list under attention DP; b itself past the list. */
static double adp_graph_bs(int engine, int spec, double b) {
    if (engine != DLP_LLM_ENGINE_TRTLLM && engine != DLP_LLM_ENGINE_SGLANG) return b;
    if (b <= 2) return b <= 1 ? 1 : 2;
    if (b <= 4) return 4;
    if (engine == DLP_LLM_ENGINE_TRTLLM) return b <= 128 ? 8.0 * ceil(b / 8.0) : b;
    if (spec) { /* SGLang's list under speculative decoding */
        if (b <= 8) return b;
        if (b <= 32) return 2.0 * ceil(b / 2.0);
        if (b <= 64) return 4.0 * ceil(b / 4.0);
    } else if (b <= 16) {
        return 4.0 * ceil(b / 4.0); /* 8, 12, 16 */
    }
    return b <= 256 ? 8.0 * ceil(b / 8.0) : b;
}

/* The decode sequences the busiest of `dp` ranks holds when n run in all
 * (at least one: a dummy where a rank has none), and the rows it runs:
 * padded to the captured size in a decode-only step (graphed). */
double dlp__llm_adp_rank_rows(int engine, int spec, int dp, double n, int decode_only, double *seqs) {
    double b = 0;
    if (n > 0 && dp > 1) b = fmax(1.0, ceil(n / dp - 1e-9));
    else if (n > 0) b = n;
    if (seqs) *seqs = b;
    return decode_only && dp > 1 && b > 0 ? adp_graph_bs(engine, spec, b) : b;
}

/* The tensor-parallel all-reduce of a decode step as the engines run it
 * inside one NVLink node (issue 22, h147): their own one-shot kernels, not
 * NCCL, for small messages in CUDA graphs: vLLM's custom_all_reduce
 * (distributed/device_communicators/custom_all_reduce.py: world sizes 2-8,
 * full NVLink, one-shot below a few hundred KB, two-shot up to its 8 MB
 * buffer), SGLang's (sgl_kernel custom_reduce, the same design) and
 * TensorRT-LLM's AllReduce (strategy AUTO: ONESHOT / TWOSHOT by size and TP,
 * NCCL above).  One-shot: each GPU reads its n - 1 peers' buffers, t = t0 +
 * (n - 1) bytes / (eta x one-way NVLink).  Fitted per engine on
 * aiconfigurator's custom_allreduce tables (095f58a5: H100, H200, B200,
 * B300; graph mode, messages <= 1 MiB; tools/nccl/fit_custom_allreduce.py
 * prints leave-one-GPU-out): vLLM 5.51 us / 1.024 (MAPE 22.7 %, held out
 * 24.4-32.9 %), SGLang 3.35 / 0.900 (22.7 %, 25.0-31.4), TensorRT-LLM 3.50 /
 * 0.665 (20.7 %, 23.1-31.3).  NCCL's table gave 16-21 us at TP 8 for what
 * these run in 4-10 us.  The engine takes the faster of the two; past 1 MiB
 * (two-shot, NCCL) NCCL's table stays.  vllm-v0 (2023) keeps NCCL's: its
 * fitted CPU term (ENGINE_CPU) was fitted with it.  Indexed by
 * dlp_llm_engine; {0, 0}: none. */
static const double AR_ONESHOT_FIT[4][2] = {
    [DLP_LLM_ENGINE_MODERN] = {5.51, 1.024},
    [DLP_LLM_ENGINE_VLLM_V0] = {0, 0},
    [DLP_LLM_ENGINE_SGLANG] = {3.35, 0.900},
    [DLP_LLM_ENGINE_TRTLLM] = {3.50, 0.665},
};
#define AR_ONESHOT_MAX_BYTES 1048576.0

/* The engine's one-shot fit for a TP group of n on d, or NULL where it does
 * not run: off NVIDIA NVLink (link_gbs: no bridge, no PCIe, not AMD's
 * fabric), past 8 GPUs, vllm-v0.  *gbs: the link's rate.  Decided once a
 * prediction (serve_setup), not per step. */
static const double *ar_oneshot_fit(const dlp_device *d, int engine, int n, double *gbs) {
    int nvl;
    *gbs = link_gbs(d, &nvl);
    if (!nvl || n > 8 || !is_nvidia(d)) return NULL;
    if (engine < DLP_LLM_ENGINE_MODERN || engine > DLP_LLM_ENGINE_TRTLLM) return NULL;
    return AR_ONESHOT_FIT[engine][1] > 0 ? AR_ONESHOT_FIT[engine] : NULL;
}

/* Seconds of one all-reduce of `bytes` per GPU over the attention TP group:
 * the engine's one-shot kernel (s->ar1) up to its size where it is faster,
 * else NCCL's table (coll_s). */
static double tp_allreduce_s(const sctx *s, double bytes) {
    int n = s->tp_attn;
    double t = coll_s(s->d, CO_ALLREDUCE, n, bytes);
    if (!s->ar1 || bytes > AR_ONESHOT_MAX_BYTES) return t;
    return fmin(t, s->ar1[0] * 1e-6 + (n - 1) * bytes / (s->ar1[1] * s->ar1_gbs / 2.0 * 1e9));
}

/* A matrix the checkpoint keeps in 16 bits though the model is quantised:
 * NVIDIA's nvfp4 checkpoints of MoE models leave the attention
 * projections out of the fp4 format (hf_quant_config.json exclude_modules:
 * self_attn of DeepSeek-V3.1, Kimi-K2.6, GLM-5, MiniMax-M2.5; linear_attn
 * of Qwen3.5-397B; copies in aiconfigurator 095f58a5 model_configs/), so
 * those GEMMs read 2 B a weight on the 16-bit tensor cores.  Not int4: the
 * format dlperf's int4 stands for (AWQ / GPTQ, group 128) quantises every
 * linear but the router; Kimi's native int4, which keeps attention and the
 * shared experts 16-bit (compressed-tensors "ignore"), is that one model. */
static int lin_is16(const sctx *s, const lin_t *l) { return s->keep16 && l->kind == LIN_DENSE && l->attn; }

/* The layers' `count` calls of one GEMM of `flops` and `bytes` each: every
 * call is a kernel of its own (one launch a layer), so the efficiency curve,
 * fitted on single kernels, is read at one call's size and the time taken
 * count times (h211); before, the curve saw the sum of the calls. */
static void gemm_kadd(const sctx *s, itime *it, const dlp_eff_curve *cv, double peak, double flops, double bytes,
                      double count) {
    int each = dlp__llm_knob.gemm_each >= 0 ? dlp__llm_knob.gemm_each : s->fused_elem;
    if (!each || count <= 1) {
        kadd(s, it, cv, peak, flops * count, bytes * count, count);
        return;
    }
    itime one = {0};
    kadd(s, &one, cv, peak, flops, bytes, 1);
    it->t += one.t * count;
    it->busy += one.busy * count;
    it->bc += one.bc * count;
    it->bm += one.bm * count;
}

/* One matrix entry's GEMMs (not experts' kernel floor, added by the
 * caller): m rows of k x n, wbytes of weights per matrix, on the curve of
 * what the weights are; then the per-GEMM terms of the format. */
static void dense_gemm_add(const sctx *s, itime *it, const lin_t *l, double m, double k, double n, double wbytes,
                           double wb) {
    double flops = 2.0 * m * k * n;
    double bytes = wbytes + m * (k + n) * s->p->act_bytes;
    if (lin_is16(s, l)) { /* 16-bit kept: no activation quantisation */
        gemm_kadd(s, it, s->cv_gemm16, s->peak_mm16, flops, bytes, l->count);
        return;
    }
    /* bitsandbytes formats cost what generate mode charges (llm.c):
     * LLM.int8's outlier decomposition ~3x the math; nf4 dequantises
     * each weight to 16 bits (write and re-read) before the matmul */
    if (s->p->quant == DLP_QT_INT8) flops *= 3.0;
    if (s->p->quant == DLP_QT_NF4) bytes += 2.0 * (wbytes / wb) * 2.0;
    double t0 = it->t;
    gemm_kadd(s, it, s->cv_gemm, s->peak_mm, flops, bytes, l->count);
    if (l->kind == LIN_DENSE || l->kind == LIN_EXPERT) it->t += s->gemm_extra_s * l->count;
    /* nvfp4 dense GEMMs: at least the engine's fitted op (nv4_gemm_fit) */
    if (l->kind == LIN_DENSE && s->nv4_gemm) {
        double km = l->count * (s->nv4_gemm[0] * 1e-6 + bytes / (s->nv4_gemm[1] * s->bw));
        if (km > it->t - t0) it->t = t0 + km;
    }
}

/* The context-MLA module at prefill sizes (issue 22, h167): aiconfigurator's
 * mla_context_module_perf tables (095f58a5, mla/{trtllm/1.3.0rc20,
 * vllm/0.24.0}, six GPUs; collector/trtllm/collect_mla_module.py times the
 * engine's own DeepSeek-V3 attention module at its local heads: fused q_a /
 * kv_a, the norms, q_b and kv_b over every context token, RoPE, the FMHA,
 * o_proj) run it at about twice what the library's parts gave (H200, 16
 * heads, 4,096 tokens: 0.667 ms against 0.29 ms).  Per layer on one GPU,
 * N prompt tokens of s, h heads a GPU:
 *     t = a + c N + Fp / (eta_p Pg) + Ff / (eta_f P16)
 * Fp the module's GEMM FLOPs (2 N x the down, up and o projections at h),
 * Ff = N s h (qk + v head dims) the causal FMHA, Pg the GEMMs' format
 * peak, P16 the bf16 peak (the FMHA runs bf16).  Least squares on relative
 * error over batch x isl >= 1,024, fp8 KV (tools/attn/fit_mla_context.py,
 * which prints the leave-one-GPU-out refits): TensorRT-LLM fp8_block GEMMs
 * MAPE 8.1 % (held out 5.4-12.7 %), bf16 6.8 % (4.8-11.4 %); vLLM fp8 17.9 %
 * (10.8-56.0 %), bf16 18.4 % (8.9-55.8 %).  The terms are not separately
 * identified (eta_f ~1; the FMHA alone, context_mla_perf, is ~0.54 of the
 * peak and c absorbs the rest): a fit of the whole module, used as a floor
 * under the library's parts for the prompt tokens.  Not for sparse (DSA)
 * attention, which the table does not time.  {a us, c ns, eta_p, eta_f},
 * [engine][0 fp8 block GEMMs, 1 bf16 GEMMs].  SGLang's aggregated path has
 * no module table (only the FMHA's), so no floor there (TensorRT-LLM's fit
 * on its rows moved their TTFT 51.7 -> 51.0 % on prefill workers and 37.3
 * -> 38.1 % aggregated, the sum worse; docs/llm.md, h167); SGLang's own
 * wide-EP table floors an attention-DP prefill rank only (sglang_rank_step,
 * h180). */
static const double MLA_PF[4][2][4] = {
    [DLP_LLM_ENGINE_MODERN] = {{82.3, 11.45, 0.294, 1.003}, {70.3, 2.76, 0.495, 0.954}},
    [DLP_LLM_ENGINE_VLLM_V0] = {{82.3, 11.45, 0.294, 1.003}, {70.3, 2.76, 0.495, 0.954}},
    [DLP_LLM_ENGINE_TRTLLM] = {{52.3, 2.60, 0.337, 1.056}, {42.8, 3.08, 0.597, 0.917}},
    /* SGLang 0.5.10's wide-EP attention module (wideep_context_mla_perf,
     * fp8_block GEMMs, fp8 KV; tools/attn/fit_mla_context.py, c held at 0:
     * MAPE 20.4 %, leave-one-GPU-out 19.3-27.3 %; h174).  Only the rank of
     * an attention-DP prefill worker takes it (sglang_adp_prompt, h180). */
    [DLP_LLM_ENGINE_SGLANG] = {{576.8, 0.0, 0.617, 0.834}, {0, 0, 0, 0}},
};

/* The fit for c's MLA on d: fp8 GEMMs on fp8 tensor cores, or 16-bit
 * GEMMs (bf16 / fp16 checkpoints; nvfp4 checkpoints keep attention 16-bit,
 * lin_is16) on an NVIDIA GPU; NULL otherwise (and for DSA). */
static const double *mla_pf_fit(const dlp_llm_config *c, const dlp_device *d, int quant, int cdt, int engine) {
    if (c->kv_lora_rank <= 0 || c->index_topk > 0 || !is_nvidia(d)) return NULL;
    if (engine < DLP_LLM_ENGINE_MODERN || engine > DLP_LLM_ENGINE_TRTLLM || engine == DLP_LLM_ENGINE_SGLANG) return NULL;
    if (quant == DLP_QT_FP8 && cdt == DLP_DT_FLOAT8E4M3FN) return MLA_PF[engine][0];
    if (quant == DLP_QT_BF16 || quant == DLP_QT_FP16 || (quant == DLP_QT_NVFP4 && cdt == DLP_DT_FLOAT4E2M1))
        return MLA_PF[engine][1];
    return NULL;
}

/* SGLang's MLA prefill attention op at prefill sizes (issue 22, h241;
 * docs/llm.md): the RadixAttention layer's EXTEND forward under the
 * platform's MLA backend (the FMHA over the prompt, the K built 192 wide
 * from the latent's nope part and the shared rope part for every head, the
 * KV-cache write), as aiconfigurator's SGLang 0.5.9 context_mla_perf
 * tables time it (ai-dynamo/aiconfigurator 095f58a5, collector/sglang/
 * collect_mla.py; 0.5.9 the nearest to the runs' v0.5.8.post1).  Per layer
 * on one GPU, h local heads, b prompts of s tokens, N = b s:
 *     t = a + c N h + b s^2 h (192 + 128) / (eta P16)
 * least squares on relative error over heads >= 8, N >= 1,024
 * (tools/attn/fit_sgl_fmha.py, which prints the leave-one-GPU-out refits):
 * Blackwell, trtllm_mla: fp8 KV MAPE 10.9 % (held out 11.1-12.4 %), bf16
 * KV 11.6 % (11.7-13.5 %); Hopper, flash_attention (FA3): fp8 6.3 %
 * (6.4 / 6.9 %), bf16 6.0 % (6.0 / 6.8 %).  The library's FlashAttention
 * on the attention curve prices a 1k prompt's op on B200 at TP 8 at ~6 us
 * a layer where the table measures 43 us: c's per-head work and a are
 * what it leaves out.  {a us, c ns, eta}, [0 Blackwell, 1 Hopper][0 fp8
 * KV, 1 16-bit KV].  Hopper's table runs FA3 where InferenceX's H200
 * recipes run --attention-backend flashinfer (srt-slurm recipes/h200,
 * benchmarks/single_node/fixed_seq_len/dsr1_fp8_h200.sh), so its row is a
 * what-if (dlp__llm_knob.sgl_fmha bit 2).  A fit on kernel tables. */
static const double SGL_FMHA[2][2][3] = {
    {{28.60, 0.691, 1.0071}, {20.92, 0.541, 0.7068}},
    {{24.30, 1.000, 0.2069}, {14.23, 0.957, 0.2016}},
};
static const double *sgl_fmha_fit(const dlp_llm_config *c, const dlp_device *d, int engine, double kv_eb) {
    if (engine != DLP_LLM_ENGINE_SGLANG || c->kv_lora_rank <= 0 || c->index_topk > 0 || !is_nvidia(d)) return NULL;
    int bw = d->cc_major >= 10, k = dlp__llm_knob.sgl_fmha;
    if (d->cc_major < 9 || !(k & (bw ? 1 : 2))) return NULL;
    return SGL_FMHA[bw ? 0 : 1][kv_eb <= 1.0 ? 0 : 1];
}

/* Seconds of that op over all attention layers for n_pf prompt tokens of
 * prompts pf_len long on one attention rank (pf_r of them there). */
static double sgl_fmha_s(const sctx *s, double pf_r, double pf_len) {
    const double *f = s->sgl_fmha;
    int tc;
    double p16 = dlp__node_peak(s->d, DLP_OPC_GEMM, DLP_DT_BFLOAT16, DLP_TF32_OFF, &tc);
    double h = (double)s->c->num_attention_heads / s->tp_attn;
    double dq = (double)(s->c->qk_nope_head_dim + s->c->qk_rope_head_dim + s->c->v_head_dim);
    if (!f || !(pf_r > 0) || !(pf_len > 0) || !(p16 > 0)) return 0;
    double layer = f[0] * 1e-6 + f[1] * 1e-9 * pf_r * h + pf_r * pf_len * h * dq / (f[2] * p16);
    return s->p->attn_layers * layer;
}

/* Prompt tokens the busiest attention rank holds in a step of n_pf prompt
 * tokens of prompts pf_len long: the even share over the attention-DP
 * ranks, or, where the prompts sit whole on ranks (s->pf_whole), at least
 * one prompt's tokens. */
static double pf_rank_tokens(const sctx *s, double n_pf, double pf_len) {
    double even = n_pf / s->attn_dp;
    if (!s->pf_whole || !(n_pf > 0) || !(pf_len > 0)) return even;
    return fmax(even, fmin(n_pf, pf_len));
}

/* Seconds of the MLA modules (all attention layers) over n_pf prompt
 * tokens of prompts pf_len long, on the busiest attention rank, at the
 * table fit s->mla_pf (MLA_PF). */
static double mla_pf_floor_s(const sctx *s, double n_pf, double pf_len) {
    const dlp_llm_config *c = s->c;
    const double *f = s->mla_pf;
    double H = (double)c->hidden_size, h = (double)c->num_attention_heads / s->tp_attn;
    double dn = (double)c->qk_nope_head_dim, dr = (double)c->qk_rope_head_dim, dv = (double)c->v_head_dim;
    double rq = (double)c->q_lora_rank, rkv = (double)c->kv_lora_rank, N = pf_rank_tokens(s, n_pf, pf_len);
    double down = rq > 0 ? H * (rq + rkv + dr) + rq * h * (dn + dr) : H * (rkv + dr) + H * h * (dn + dr);
    double fp = 2.0 * N * (down + rkv * h * (dn + dv) + h * dv * H);
    double ff = N * pf_len * h * (dn + dr + dv);
    int tc;
    double p16 = dlp__node_peak(s->d, DLP_OPC_GEMM, DLP_DT_BFLOAT16, DLP_TF32_OFF, &tc);
    double pg = f == MLA_PF[s->engine][0] ? s->peak_mm : p16;
    if (!(pg > 0) || !(p16 > 0) || !(N > 0)) return 0;
    double layer = f[0] * 1e-6 + f[1] * 1e-9 * N + fp / (f[2] * pg) + ff / (f[3] * p16);
    return s->p->attn_layers * layer;
}

/* What the prompt tokens' attention floors add to `now`, the seconds the
 * step's prefill attention already costs: the MLA module's table fit
 * (mla_pf_floor_s) less its GEMMs' share `lin`, then SGLang's attention op
 * (sgl_fmha_s, h241) over what is there by then. */
static double pf_attn_floors_s(const sctx *s, double now, double n_pf, double pf_len, double lin) {
    double add = s->mla_pf ? fmax(0.0, mla_pf_floor_s(s, n_pf, pf_len) - lin - now) : 0.0;
    if (s->sgl_fmha) add += fmax(0.0, sgl_fmha_s(s, pf_rank_tokens(s, n_pf, pf_len), pf_len) - (now + add));
    return add;
}

/* TensorRT-LLM's MLA generation module around its attention kernel (issue
 * 22, h236): aiconfigurator's mla_generation_module_perf (the whole
 * attention module's forward, collector/trtllm/collect_mla_module.py) less
 * its generation_mla_perf (the kernel alone), TensorRT-LLM 1.3.0rc20,
 * DeepSeek-V3, fp8_block GEMMs: the fused q_a / kv_a down projection, the
 * latent norms, q_b, RoPE, the absorbed BMMs, o_proj and the fp8
 * activation quantisations each run as their own kernel, ~26-32 us a layer
 * before any weight moves, where the library's five GEMMs at one token
 * cost ~18 us.  Per layer a + W / (eta_b BW) + 2 b W / (eta_f P8), W the
 * module's fp8 weight bytes at h local heads, b query tokens on the rank;
 * least squares on relative error (tools/attn/fit_mla_gen_module.py, which
 * prints the leave-one-GPU-out refits): Hopper MAPE 14.4 % (H100 held out
 * 15.9 %, H200 22.8 %), Blackwell 11.6 % (each GPU held out 11.1-12.0 %).
 * {a us, eta_b, eta_f}, [0 Hopper, 1 Blackwell]. */
static const double MLA_GEN_MOD[2][3] = {{26.07, 0.733, 0.835}, {31.65, 0.674, 0.443}};

/* The fit for c's MLA decode on d under `engine`: TensorRT-LLM, fp8 block
 * GEMMs (the only format fitted), not DSA, Hopper or Blackwell, where
 * dlp__llm_knob.mla_gen_mod asks (1 both, 2 Hopper only); NULL otherwise. */
static const double *mla_gen_fit(const dlp_llm_config *c, const dlp_device *d, int quant, int cdt, int engine) {
    int k = dlp__llm_knob.mla_gen_mod;
    if (!k || c->kv_lora_rank <= 0 || c->index_topk > 0 || c->index_head_dim > 0 || !is_nvidia(d)) return NULL;
    if (engine != DLP_LLM_ENGINE_TRTLLM || quant != DLP_QT_FP8 || cdt != DLP_DT_FLOAT8E4M3FN) return NULL;
    if (d->cc_major == 9) return MLA_GEN_MOD[0];
    if (d->cc_major == 10 && k == 1) return MLA_GEN_MOD[1];
    return NULL;
}

/* Seconds the MLA generation modules (all attention layers) take around
 * their kernel at the fit s->mla_gen, for q query tokens on the busiest
 * attention rank. */
/* An MLA attention module's weight elements on one rank (one byte each in
 * fp8): the replicated down projections (q_a, kv_a with the rope key) in
 * *down, the per-head ones (q_b, the absorbed kv_b halves, o_proj) at the
 * rank's local heads in *up (mla_gen_floor_s, dsa_gen_floor_s). */
static void mla_module_w(const sctx *s, double *down, double *up) {
    const dlp_llm_config *c = s->c;
    double H = (double)c->hidden_size, h = (double)c->num_attention_heads / s->tp_attn;
    double dn = (double)c->qk_nope_head_dim, dr = (double)c->qk_rope_head_dim, dv = (double)c->v_head_dim;
    double rq = (double)c->q_lora_rank, rkv = (double)c->kv_lora_rank;
    *down = H * (rq + rkv + dr);
    *up = h * (rq * (dn + dr) + rkv * (dn + dv) + dv * H);
}

static double mla_gen_floor_s(const sctx *s, double q) {
    const double *f = s->mla_gen;
    double down, up, rq = (double)s->c->q_lora_rank;
    mla_module_w(s, &down, &up);
    double w = down + up;
    int tc;
    double p8 = dlp__node_peak(s->d, DLP_OPC_GEMM, DLP_DT_FLOAT8E4M3FN, DLP_TF32_OFF, &tc);
    if (!f || !(p8 > 0) || !(q > 0) || !(rq > 0)) return 0;
    double layer = f[0] * 1e-6 + w / (f[1] * s->bw) + 2.0 * q * w / (f[2] * p8);
    return s->p->attn_layers * layer;
}

/* What a decode-only step's MLA modules add over the attention GEMMs the
 * step already priced (attn_lin): the module floor (mla_gen_floor_s) for q
 * query tokens on the busiest rank, less those GEMMs; 0 where no fit
 * applies or the step carries prompt tokens (their modules keep
 * mla_pf_floor_s's price). */
static double mla_gen_extra_s(const sctx *s, double n_dec, double n_pf, double q, double attn_lin) {
    if (!s->mla_gen || !(n_dec > 0) || n_pf > 0) return 0;
    return fmax(0.0, mla_gen_floor_s(s, q) - attn_lin);
}

/* SGLang's whole DSA attention module in generation (issue 22, h245):
 * aiconfigurator's dsa_generation_module_perf (github ai-dynamo/
 * aiconfigurator 095f58a5, systems/data/<gpu>/sparse_attention/sglang/
 * 0.5.10/, GLM-5 and DeepSeek-V3.2, fp8_block GEMMs, both cache dtypes) times
 * the module's forward at the local heads: down projections, norms, q_b,
 * the indexer's projections and top-k over the context, RoPE, the absorbed
 * BMMs, the sparse kernel, o_proj, each its own kernel: ~85 us a layer at
 * 8 heads on H200 before any weight moves.  Per layer a + W / (eta_b BW)
 * + 2 b W / (eta_f P8) + K / (eta_k BW), W the module's fp8 weight bytes
 * at h local heads (the indexer's projections with the replicated down
 * projections), K the indexer keys' and top-k latent rows' bytes;
 * least squares on relative error (tools/attn/fit_dsa_gen_module.py, which
 * prints the hold-outs): Hopper (H200) MAPE 9.6 % (GLM-5 held out 10.1 %,
 * DeepSeek-V3.2 9.4 %), Blackwell (B200, B300) 5.8 % (9.2 / 6.2 %).
 * 0.5.10 is the nearest stored version to what the InferenceX GLM-5 runs
 * ran (H200 lmsysorg/sglang:glm5-hopper, B200 a 2026-03-17 nightly).
 * {a us, eta_b, eta_f, eta_k}, [0 Hopper, 1 Blackwell]. */
static const double DSA_GEN_MOD[2][4] = {{85.46, 0.590, 0.363, 0.851}, {92.37, 0.309, 6.992, 0.432}};

/* The fit for c's DSA decode on d under `engine`: SGLang, fp8 GEMMs, a
 * DSA model (an indexer), Hopper (dlp__llm_knob.dsa_gen_mod bit 1) or
 * Blackwell (bit 2); NULL otherwise. */
static const double *dsa_gen_fit(const dlp_llm_config *c, const dlp_device *d, int quant, int engine) {
    int k = dlp__llm_knob.dsa_gen_mod;
    if (!k || c->kv_lora_rank <= 0 || c->index_topk <= 0 || c->index_head_dim <= 0 || !is_nvidia(d)) return NULL;
    if (engine != DLP_LLM_ENGINE_SGLANG || quant != DLP_QT_FP8) return NULL;
    if (d->cc_major == 9 && (k & 1)) return DSA_GEN_MOD[0];
    if (d->cc_major == 10 && (k & 2)) return DSA_GEN_MOD[1];
    return NULL;
}

/* Seconds SGLang's DSA modules (all attention layers) take for b sequences
 * (q query tokens) on the busiest attention rank at context ctx, under the
 * fit s->dsa_gen. */
static double dsa_gen_floor_s(const sctx *s, double q, double b, double ctx) {
    const dlp_llm_config *c = s->c;
    const double *f = s->dsa_gen;
    double H = (double)c->hidden_size, dr = (double)c->qk_rope_head_dim;
    double rq = (double)c->q_lora_rank, rkv = (double)c->kv_lora_rank;
    double di = (double)c->index_head_dim, ni = (double)c->index_n_heads, down, up;
    mla_module_w(s, &down, &up);
    /* with the indexer's projections (wq_b, wk, weights_proj), replicated */
    double w = down + rq * ni * di + H * di + H * ni + up;
    /* the indexer's fp8 keys and scale over the context, the top-k latent rows */
    double kb = b * (ctx * (di + 4.0) + fmin(ctx, (double)c->index_topk) * (rkv + dr) * s->kv_eb);
    int tc;
    double p8 = dlp__node_peak(s->d, DLP_OPC_GEMM, DLP_DT_FLOAT8E4M3FN, DLP_TF32_OFF, &tc);
    if (!f || !(p8 > 0) || !(q > 0) || !(rq > 0)) return 0;
    double layer = f[0] * 1e-6 + w / (f[1] * s->bw) + 2.0 * q * w / (f[2] * p8) + kb / (f[3] * s->bw);
    return s->p->attn_layers * layer;
}

/* What a decode-only step's DSA modules add over what the step already
 * priced for them: the attention GEMMs (attn_lin) and the decode attention
 * (att, the indexer and sparse kernel); 0 where no fit applies or the step
 * carries prompt tokens. */
static double dsa_gen_extra_s(const sctx *s, double n_dec, double n_pf, double q, double b, double ctx,
                              double attn_lin, double att) {
    if (!s->dsa_gen || !(n_dec > 0) || n_pf > 0) return 0;
    return fmax(0.0, dsa_gen_floor_s(s, q, b, ctx) - attn_lin - att);
}

/* Bytes of one KV head's cache of one sequence at context ctx in one
 * layer (K and V): what one thread block of a single-block decode-attention
 * kernel streams (trt_cta_rate).  The model's cache of one sequence over
 * its attention layers and KV heads, the recurrent state (none in the
 * engines this serves) left out. */
static double cta_bytes(const sctx *s, double ctx) {
    double heads = (double)(s->c->num_key_value_heads > 0 ? s->c->num_key_value_heads : s->c->num_attention_heads);
    double layers = (double)s->p->attn_layers;
    if (!(heads > 0) || !(layers > 0)) return 0;
    return fmax(0.0, kv_elems(s, ctx) - s->state_elems) / (layers * heads) * s->kv_eb;
}

/* TensorRT-LLM 0.11's XQA decode attention (wl->trt_xqa_block): one thread
 * block per (KV head, sequence) (decoderXQAImplJIT.cpp runImpl: gridDim
 * (multi_block = 1 with multi_block_mode off, num_kv_heads, batch)), picked
 * only where blocks x kEnableMinBlockFactor 4 >= SMs (mayHavePerfGain) and
 * the group is not plain MHA (kernelUtils.cpp supportConfigCommon).  The
 * blocks run in waves of one per SM, each streaming one KV head's cache of
 * one sequence (cta_bytes) at s->xqa_rate; per layer the kernel floor plus
 * ceil(blocks / SMs) such streams.  0: XQA not picked at this batch. */
/* XQA's thread blocks for `seqs` sequences on this GPU: one per (KV head,
 * sequence) */
static double xqa_blocks(const sctx *s, double seqs) {
    double kvh = (double)(s->c->num_key_value_heads > 0 ? s->c->num_key_value_heads : s->c->num_attention_heads);
    return ceil(seqs) * fmax(1.0, kvh / s->kv_shard);
}

static double xqa_floor_s(const sctx *s, double seqs, double ctx) {
    double blocks = xqa_blocks(s, seqs), sms = (double)s->d->sm_count;
    if (!(sms > 0) || blocks * 4.0 < sms) return 0;
    return s->p->attn_layers * (ATTN_DEC_T0_US * 1e-6 + ceil(blocks / sms) * cta_bytes(s, ctx) / s->xqa_rate);
}

/* The share of the SMs a single-block decode attention occupies: one block
 * per (query head, sequence) for the masked-MHA kernel
 * (mmha_launch_kernel_ex: grid {heads, batch}), on this GPU's heads. */
static double cta_occ(const sctx *s, double seqs) {
    double sms = (double)s->d->sm_count, h = (double)s->c->num_attention_heads / s->tp_attn;
    return sms > 0 ? fmin(1.0, ceil(seqs) * fmax(1.0, h) / sms) : 0;
}

/* ... and XQA's: its blocks over its waves' SM slots (xqa_floor_s) */
static double xqa_occ(const sctx *s, double seqs) {
    double blocks = xqa_blocks(s, seqs), sms = (double)s->d->sm_count;
    return sms > 0 ? blocks / (ceil(blocks / sms) * sms) : 0;
}

/* The shared memory share in use: P_FIT_MEM, or the bench's refit scan
 * (dlp__llm_knob.p_fit_mem > 0, bench_serving's "shared memory share" block). */
static double fit_mem(void) { return dlp__llm_knob.p_fit_mem > 0 ? dlp__llm_knob.p_fit_mem : P_FIT_MEM; }

/* The watts a serving GPU's floor and shares scale with: its die's own
 * rated limit where the device's limit holds headroom beyond it
 * (die_tdp_w: GH200's GPU is the 700 W H100 SXM's die under 900 W, and
 * draws what an H100 SXM does on the same work), else the limit; the
 * limit stays the cap (serve_power_w). */
static double serve_scale_w(const dlp_device *d) {
    double tdp = d->tdp_w > 0 ? d->tdp_w : 0;
    return d->die_tdp_w > 0 && d->die_tdp_w < tdp ? d->die_tdp_w : tdp;
}

/* The SMs' side of a decode-attention stream that a thread-block floor
 * holds (cta_bytes, xqa_floor_s): power only, in seconds of peak bandwidth
 * (itime.bsm).  The memory share P_FIT_MEM prices a stream at peak
 * bandwidth over every SM; of it the DRAM's own draw (power.c, pJ/bit x
 * the bytes/s) goes with the bytes, and the rest (the SMs' loads, L2,
 * the link) is drawn by the SMs that run the stream.  Over a floor of fl
 * seconds the occupied fraction occ of the SMs runs all the time, so that
 * rest is priced at occ x fl instead of the bytes' time bm: equal at full
 * occupancy and peak bandwidth, more where few SMs stream slowly. */
static double floor_sm_draw(const sctx *s, double fl, double bm, double occ) {
    const dlp_device *d = s->d;
    double sc = serve_scale_w(d);
    double span = (sc - fmax(dlp__device_idle_w(d), P_FIT_FLOOR * sc)) * fit_mem();
    if (!(span > 0) || !(s->bw > 0) || s->engine == DLP_LLM_ENGINE_VLLM_V0) return 0;
    double dram = fmin(1.0, dlp__mem_power_w(d, s->bw) / span);
    return (1.0 - dram) * fmax(0.0, fmin(1.0, occ) * fl - bm);
}

/* The absorbed MLA decode kernel's math (issue 22, h229).  FlashMLA,
 * TensorRT-LLM's MLA generation kernel and trtllm-gen run decode attention
 * on the latent: per cached token of a sequence, QK over the latent and the
 * rope key (2 x heads x (kv_lora_rank + rope)) and PV over the latent
 * (2 x heads x kv_lora_rank), heads the rank's own (all of them under
 * attention DP, a TP share otherwise; MTP's query tokens share the pass).
 * At 128 heads that is ~480 FLOPs a cached bf16 byte, past every GPU's
 * ridge: aiconfigurator's MLA generation tables (H100 / H200 / B200 / B300 /
 * GB200 / GB300, TensorRT-LLM 1.3.0rc10 and SGLang 0.5.14; 128 heads a rank,
 * >= 262,144 cached tokens a layer) reach a flat share of the dense
 * tensor-core peak of the cache's precision there, by architecture (the
 * kernels differ: FlashMLA / TensorRT-LLM's Hopper kernel, trtllm-gen on
 * Blackwell): Hopper 0.562 of bf16 with a bf16 cache, 0.343 of fp8 with an
 * fp8 one; Blackwell 0.489 and 0.422 (tools/attn/fit_mla_decode_math.py:
 * the floor max(math, bytes at 0.85 BW) on the 64/128-head rows 21.8 %
 * against 32.8 % for bytes alone; each GPU held out 12.2-25.7 %, each
 * engine 22.9-23.3 %).  A fit on kernel tables, not serving rows. */
#define MLA_DEC_ETA16_HOPPER 0.562
#define MLA_DEC_ETA8_HOPPER 0.343
#define MLA_DEC_ETA16_BW 0.489
#define MLA_DEC_ETA8_BW 0.422

/* The rate the MLA decode math runs at on this GPU and cache: 0 where the
 * model has no MLA or the switch is off.  An fp8 cache on a GPU without
 * fp8 tensor cores (the peak no higher than 16-bit) runs at the 16-bit
 * rate and share. */
static double mla_dec_setup(const dlp_llm_config *c, const dlp_device *d, double kv_eb, double peak16) {
    /* DeepSeek Sparse Attention (an indexer's keys in the cache: V3.2,
     * GLM-5) attends a top-k of the context, FlashMLA's sparse kernel,
     * which the tables do not measure: left out */
    if (!dlp__llm_knob.mla_dec_math || c->kv_lora_rank <= 0 || c->index_head_dim > 0 || !(peak16 > 0)) return 0;
    int tc;
    double p8 = dlp__node_peak(d, DLP_OPC_GEMM, DLP_DT_FLOAT8E4M3FN, DLP_TF32_OFF, &tc);
    int bw = d->cc_major >= 10;
    if (kv_eb <= 1.0 && p8 > peak16) return (bw ? MLA_DEC_ETA8_BW : MLA_DEC_ETA8_HOPPER) * p8;
    return (bw ? MLA_DEC_ETA16_BW : MLA_DEC_ETA16_HOPPER) * peak16;
}

/* The decode attention's math time on this rank, `elems` the cached
 * elements its sequences read (all layers; latent + rope key a token), at
 * the kernel's rate: 2 x heads x (2 kv_lora_rank + rope) FLOPs per
 * (kv_lora_rank + rope) elements.  Seconds. */
static double mla_dec_math_s(const sctx *s, double elems) {
    const dlp_llm_config *c = s->c;
    if (!(s->mla_dec_rate > 0) || !(elems > 0)) return 0;
    double lat = (double)c->kv_lora_rank, rope = (double)c->qk_rope_head_dim;
    double heads = (double)c->num_attention_heads / (double)s->tp_attn;
    return elems * 2.0 * heads * (2.0 * lat + rope) / (lat + rope) * s->spec_q / s->mla_dec_rate;
}

/* The decode attention's thread-block floors, from t0 (the op's start; bm0
 * the bandwidth time before its bytes) over `seqs` sequences on this rank:
 * single-block attention (trt_cta_rate), at least one thread block's stream
 * of one KV head's cache of one sequence a layer; XQA's geometry
 * (trt_xqa_rate), blocks in waves over the SMs.  Where one holds the step,
 * the SMs it occupies draw their side of the stream (floor_sm_draw). */
static void dec_attn_floors(const sctx *s, itime *it, double t0, double bm0, double seqs, double ctx) {
    double occ = 0;
    if (s->cta_rate > 0) {
        double fl = s->p->attn_layers * (ATTN_DEC_T0_US * 1e-6 + cta_bytes(s, ctx) / s->cta_rate);
        if (fl > it->t - t0) it->t = t0 + fl, occ = cta_occ(s, seqs);
    }
    if (s->xqa_rate > 0) {
        double fl = xqa_floor_s(s, seqs, ctx);
        if (fl > it->t - t0) it->t = t0 + fl, occ = xqa_occ(s, seqs);
    }
    double sm = occ > 0 && dlp__llm_knob.floor_sm_draw ? floor_sm_draw(s, it->t - t0, it->bm - bm0, occ) : 0;
    it->bsm += sm;
    if (s->parts) s->parts->attn_sm_s = sm;
}

/* The tokens of a step that the router may send to different experts: all
 * T of them; but where every request is a copy of one prompt decoded
 * greedily (s->same_prompts), the copies' tokens are equal at every
 * position, so the router's top-k, a function of the token's hidden state,
 * picks the same experts for each copy: the decode tokens route as one
 * sequence's (its drafts with it) and a prompt round as one prompt's
 * positions.  The rows computed stay T; only the experts read shrink. */
static double routed_tokens(const sctx *s, double T, double n_dec, double n_pf, double pf_len) {
    if (!s->same_prompts) return T;
    return (n_dec > 0 ? s->spec_q : 0.0) + (n_pf > 0 ? fmin(n_pf, pf_len > 0 ? pf_len : n_pf) : 0.0);
}

/* The least time of expert matrix l under the fitted MoE kernels: the
 * decode-size fit (moe_lin_s) when its rows (m on this GPU, T in the step)
 * hit `hit` experts, and in steps with prompt tokens the grouped GEMMs'
 * math (MOE_PF; not decode-only steps: the wide-EP decode workers run
 * their own low-latency kernels, DeepEP's masked layout, not these tables'
 * module, where it put SGLang's GB200 / GB300 decode TPOT at 1.7-2.1x;
 * docs/llm.md, h167), and W4A16 at least its math at the kernel's own rate
 * over w4_rows computed rows (w4_math_lin_s; "Weight-only 4-bit MoE at
 * prefill sizes", h171).  Seconds. */
static double expert_kernel_s(const sctx *s, const lin_t *l, double hit, double m, double T, double n_pf,
                              double w4_rows) {
    const double *f = n_pf > 0 ? s->moe_fit_pf : s->moe_fit;
    double ee = s->p->expert_elems, km = moe_lin_s(f, l, hit, ee, s->moe_tp, s->p->wbytes_per_elem, s->bw);
    double K = (double)(s->c->experts_per_token > 0 ? s->c->experts_per_token : 1);
    if (n_pf > 0) {
        double mi = m * moe_pf_imbalance_s(s, T);
        km = fmax(km, moe_pf_lin_s(s->moe_pf, l, mi, T * K / l->experts, ee, s->moe_tp, s->peak_mm) +
                          moe_pf_row_s(s, l, mi, T * K / l->experts, ee));
    }
    if (s->w4m) km = fmax(km, w4_math_lin_s(s->w4m, l, w4_rows, ee, (double)s->c->hidden_size, s->moe_tp, s->d));
    return km;
}

/* Expected ranks of `ep` a token's K experts of E fall on, experts placed
 * E / ep to a rank and routed uniformly without replacement:
 * ep (1 - C(E - E/ep, K) / C(E, K)).  The product form of the binomial
 * ratio; E / ep whole (the engines require it).  K when the ratio is
 * undefined (no experts known). */
static double ep_distinct_ranks(double E, double K, int ep) {
    if (ep <= 1) return 1.0;
    if (!(E >= K) || !(K >= 1)) return K < ep ? K : ep;
    double miss = 1.0, per = E / ep; /* P(no chosen expert on a given rank) */
    for (int i = 0; i < (int)K; i++) miss *= fmax(0.0, (E - per - i) / (E - i));
    return ep * (1.0 - miss);
}

/* Seconds of one MoE layer's DeepEP normal-mode dispatch and combine
 * (A2A_NORMAL_*) for a step of T tokens over the ep ranks: each rank
 * receives T / ep tokens from each rank, a token once per distinct rank it
 * routes to, T x ep_distinct_ranks / ep rows in all (its own included, as
 * the tables count it). */
static double ep_a2a_normal_s(const sctx *s, double T, double E, double K) {
    double H = (double)s->c->hidden_size, cb = s->p->act_bytes, db = s->a2a_db > 0 ? s->a2a_db : cb;
    double rows = T * ep_distinct_ranks(E, K, s->ep) / s->ep;
    return (A2A_NORMAL_T0_DISPATCH_US + A2A_NORMAL_T0_COMBINE_US) * 1e-6 +
           rows * H * db / (A2A_NORMAL_DISPATCH_GBS * 1e9) + rows * H * cb / (A2A_NORMAL_COMBINE_GBS * 1e9);
}

/* Which dispatch / combine a MoE layer under EP runs in this step, by the
 * engine's source.
 * - TensorRT-LLM with attention DP picks its method once per MoE module
 *   (select_alltoall_method_type in fused_moe_wide_ep.py / _cutlass.py):
 *   no all-to-all when moe_ep_size <= top_k, so every step, decode
 *   included, all-gathers the ranks' tokens before the experts and
 *   reduce-scatters their output after (EPC_AGRS).  The 2026
 *   CommunicationFactory drops that gate (docs/llm.md, h191).
 * - SGLang with attention DP and its DeepEP backend (the recipes'
 *   `moe-a2a-backend: deepep`) under --deepep-mode auto runs the normal
 *   kernels on extend batches and the low-latency ones on decode batches
 *   (DeepEPMode.resolve: is_extend_in_batch -> normal); a step with prompt
 *   tokens is priced as the extend batch.  Beyond one node DeepEP's normal
 *   mode runs its internode kernels, not fitted here: those keep the
 *   low-latency price.
 * Every other engine and step keeps ep_a2a_s. */
enum { EPC_LL = 0, EPC_NORMAL, EPC_AGRS, EPC_TRT };
static int ep_comm_kind(const sctx *s, double n_pf) {
    double K = (double)(s->c->experts_per_token > 0 ? s->c->experts_per_token : 1);
    if (s->engine == DLP_LLM_ENGINE_TRTLLM && s->attn_dp > 1 && s->ep <= K) return EPC_AGRS;
    if (s->engine == DLP_LLM_ENGINE_TRTLLM && s->attn_dp > 1 && nvlink_domain(s->d) > 8 && s->ep <= nvlink_domain(s->d))
        return EPC_TRT;
    if (n_pf > 0 && s->engine == DLP_LLM_ENGINE_SGLANG && s->attn_dp > 1 && s->ep <= A2A_NORMAL_MAX_EP &&
        s->ep <= nvlink_domain(s->d) && s->d->host_interface && strstr(s->d->host_interface, "NVLink"))
        return EPC_NORMAL;
    return EPC_LL;
}

/* Seconds of one MoE layer's TensorRT-LLM MNNVL all-to-all (A2A_TRT_*)
 * for a step of T tokens over ep ranks: a rank sends its T / ep tokens
 * once to each rank their experts fall on, (ep - 1) / ep of them remote;
 * the payload as ep_agrs_s's (nvfp4 quantised, else 16 bits), the combine
 * bf16. */
static double ep_a2a_trt_s(const sctx *s, double T, double E, double K) {
    double H = (double)s->c->hidden_size, ab = s->p->act_bytes;
    double gb = s->a2a_db == A2A_FP4_BYTES ? A2A_FP4_BYTES : ab;
    double rows = T / s->ep * ep_distinct_ranks(E, K, s->ep) * (s->ep - 1.0) / s->ep;
    return A2A_TRT_T0_US * 1e-6 + rows * H * (gb + ab) / (A2A_TRT_GBS * 1e9);
}

/* Seconds of one MoE layer's all-gather of the step's T tokens before the
 * experts and reduce-scatter of their bf16 output after, over the ep ranks
 * (NCCL's tables, whose message is the whole gathered tensor).  TensorRT-LLM
 * gathers nvfp4 activations quantised (fp4 + the e4m3 scale per 16) and
 * others in 16 bits (fp8 block scales quantise inside the MoE op). */
static double ep_agrs_s(const sctx *s, double T) {
    double H = (double)s->c->hidden_size, ab = s->p->act_bytes;
    double gb = s->a2a_db == A2A_FP4_BYTES ? A2A_FP4_BYTES : ab;
    return coll_s(s->d, CO_ALLGATHER, s->ep, T * H * gb) + coll_s(s->d, CO_REDUCESCATTER, s->ep, T * H * ab);
}

/* One of the two collectives a MoE layer under attention DP without expert
 * parallelism runs (the ranks' tokens gathered before the experts, their
 * output scattered back after), T the step's tokens on all ranks.  An
 * all-gather of each rank's T / dp, except where SGLang runs a step with
 * prompt tokens: its DpPaddingMode.get_dp_padding_mode picks SUM_LEN for
 * any extend batch under dp > 1 (python/sglang/srt/layers/dp_attention.py),
 * which gathers by an all-reduce of the sum-length buffer
 * (_dp_gather_via_all_reduce: each rank writes its rows, zeros elsewhere)
 * and reduces the tensor-sharded experts' output by an all-reduce of the
 * same buffer before dp_scatter keeps the rank's rows (docs/llm.md, h215).
 * Seconds. */
static double adp_gather_s(const sctx *s, double T, double n_pf) {
    double bytes = T * (double)s->c->hidden_size * s->p->act_bytes;
    if (s->engine == DLP_LLM_ENGINE_SGLANG && n_pf > 0)
        return coll_s(s->d, CO_ALLREDUCE, s->attn_dp, bytes);
    /* TensorRT-LLM's fused MoE under attention DP (use_dp) all-gathers every
     * rank's rows before the experts and reduce-scatters their output after
     * (fused_moe forward_chunk / reducescatter_or_allreduce): NCCL
     * collectives of the whole T-row tensor, which is the message NCCL's
     * tables are indexed by (nccl-tests all_gather_perf's size is the
     * gathered buffer, each rank sending size / n: NVIDIA/nccl-tests
     * src/all_gather.cu AllGatherGetCollByteCount; aiconfigurator's
     * collect_nccl.py passes it as -b).  Priced as each rank's T / dp it
     * was up to dp times too cheap (docs/llm.md, h218). */
    if (s->engine == DLP_LLM_ENGINE_TRTLLM) return coll_s(s->d, CO_ALLGATHER, s->attn_dp, bytes);
    return coll_s(s->d, CO_ALLGATHER, s->attn_dp, bytes / s->attn_dp);
}

/* Whether an SGLang step moves its MoE rows as attention DP without EP
 * does although the experts are split over ep > 1 ranks (docs/llm.md,
 * h219): with --moe-a2a-backend none (SGLang's default; ServerArgs
 * moe_a2a_backend = "none") the MoE layer's StandardDispatcher
 * (layers/moe/token_dispatcher/standard.py) sends nothing: its dispatch
 * only maps the top-k ids to the rank's local experts (-1 elsewhere) and
 * its combine returns the rows as they are.  So the ranks' tokens reach
 * every GPU by dp_gather and the experts' partial outputs are summed back
 * before dp_scatter, as without EP (adp_gather_s: a step with prompt
 * tokens by two all-reduces of the sum-length buffer, a decode step by
 * all-gathers, DpPaddingMode).  NVIDIA/srt-slurm's B200 and H200 SGLang
 * recipes run attention DP with expert-parallel-size = dp and no
 * moe-a2a-backend in any version, the GB200 / GB300 fp4 ones so on their
 * prefill side; the bench says which rows ran so. */
static int sglang_gathers(const sctx *s) {
    return s->a2a_none && s->engine == DLP_LLM_ENGINE_SGLANG && s->ep > 1 && s->attn_dp > 1;
}

/* A step's collectives: two all-reduces per layer under attention TP; MoE
 * layers under expert parallelism dispatch and combine (all-to-all), under
 * attention DP alone gather the ranks' tokens.  T the step's tokens,
 * t_local those one attention rank holds, n_pf its prompt tokens.
 * Seconds. */
static double step_comm_s(const sctx *s, double T, double t_local, double n_pf) {
    const prof_t *p = s->p;
    double H = (double)s->c->hidden_size, L = (double)s->c->num_hidden_layers, ab = p->act_bytes;
    double comm = 0;
    if (s->tp_attn > 1) comm += 2.0 * L * tp_allreduce_s(s, t_local * H * ab);
    if (p->moe_layers > 0 && sglang_gathers(s)) {
        comm += 2.0 * p->moe_layers * adp_gather_s(s, T, n_pf);
    } else if (p->moe_layers > 0 && s->ep > 1) {
        /* a dispatch and a combine per MoE layer (ep_a2a_s) of the T K / ep
         * routed rows a GPU receives.  Under attention TP too: dropping them
         * there (every rank holds every token; the layer's second all-reduce
         * sums the experts' shares) put those rows at 0.75-0.85 of the
         * measured TPOT (docs/llm.md, "The all-to-all of expert parallelism") */
        double K = (double)(s->c->experts_per_token > 0 ? s->c->experts_per_token : 1);
        int kind = ep_comm_kind(s, n_pf);
        if (kind == EPC_NORMAL)
            comm += p->moe_layers * ep_a2a_normal_s(s, T, (double)s->c->num_experts, K);
        else if (kind == EPC_TRT)
            comm += p->moe_layers * ep_a2a_trt_s(s, T, (double)s->c->num_experts, K);
        else if (kind == EPC_AGRS)
            comm += p->moe_layers * ep_agrs_s(s, T);
        else
            comm += p->moe_layers * ep_a2a_s(s, T * K / s->ep * H);
    } else if (p->moe_layers > 0 && s->attn_dp > 1) {
        comm += 2.0 * p->moe_layers * adp_gather_s(s, T, n_pf);
    }
    return comm;
}

static double rocm_v1_extra_s(const sctx *s, double n_dec, double ctx);

/* ---- the element-wise kernels as the engines fuse them (issue 22, h198) ---
 *
 * The one-token graph's non-GEMM bytes (other_bytes_pt) are its unfused
 * lowering: an RMSNorm as Cast, Pow, ReduceMean, Div, Mul (~260 KB a norm
 * and token for DeepSeek-R1 where one fused kernel moves 28 KB), attention
 * layout ops the engines never run (docs/llm.md, h181).  The modern engines
 * run a short list of fused kernels a layer instead, each reading and
 * writing its rows once:
 *   - residual add + RMSNorm, before attention and before the MLP, one
 *     kernel each (vLLM layers/layernorm.py and SGLang layers/layernorm.py
 *     RMSNorm.forward with a residual: fused_add_rms_norm; TensorRT-LLM
 *     _torch/modules/rms_norm.py, fused add + norm (+ quant));
 *   - MLA: q_a_layernorm (kv_a_layernorm beside it) and RoPE with the latent
 *     cache write; GQA: RoPE with the KV-cache write (TensorRT-LLM's
 *     QKV preprocessing kernel; vLLM / SGLang rotary then reshape_and_cache,
 *     counted as one pass here), and a q / k norm where the model has one;
 *   - the gated activation of a dense MLP or shared expert (silu_and_mul);
 *   - MoE: routing (top-k over the router logits), the routed rows' permute,
 *     activation and the finalize / reduce-add back to the token.
 * aiconfigurator lists the same kernels for its TensorRT-LLM / SGLang / vLLM
 * models (aic-core/src/aiconfigurator_core/sdk/models/deepseek.py, llama.py,
 * blocks/moe.py at 095f58a5: add_norm_1 / add_norm_2 of 2h in and 2h out,
 * q_a_layernorm, rope_kvcache of kv_lora + rope, act_gate of 2I in and I out,
 * moe_reduce_add of 2h in and h out) and prices each as bytes / (0.8 BW) +
 * 3 us (query_mem_op; systems/<gpu>.yaml mem_bw_empirical_scaling_factor 0.8,
 * mem_empirical_constant_latency 3 us, every NVIDIA system).  The 3 us is
 * its constant; the bandwidth share is fitted on vidur's per-operator
 * profiles of sarathi's fused kernels (RMSNorm, rotary, SiluAndMul, adds;
 * A100, H100, A40, TP 1-8: bench_llm.sh vidur --fused-elem 1 --fused-eta E
 * over E = 0.5 ... 0.8): 0.6, per-layer MAPE 16.8 % (0.8: 27.2 %),
 * leave-one-GPU-out 24.5 %, leave-one-model-out 17.7 % (docs/llm.md, h198).
 * dlp__llm_knob.fused_elem: 0 the unfused graph
 * (the default: with these kernels silicon TTFT measured 29.4 -> 31.5 % and
 * TPOT 16.7 -> 17.7 %, the prompt steps and the large decode batches priced
 * lower where the rows are already under; docs/llm.md, h198), 1 these
 * kernels (bench_serving --fused-elem 1: the context step h187 / h200 read). */
#define FUSED_ELEM_ETA 0.6     /* share of the DRAM bandwidth (vidur fit)     */
#define FUSED_ELEM_T0_US 3.0   /* per kernel (aiconfigurator)                 */

/* `layers` launches of one fused kernel moving `row_bytes` for each of
 * `rows` rows */
static void ew_kernel(const sctx *s, itime *it, double layers, double row_bytes, double rows) {
    if (layers <= 0 || rows <= 0 || row_bytes <= 0) return;
    double b = layers * row_bytes * rows, eta = dlp__llm_knob.fused_eta > 0 ? dlp__llm_knob.fused_eta : FUSED_ELEM_ETA;
    it->t += b / (eta * s->bw) + layers * FUSED_ELEM_T0_US * 1e-6;
    it->busy += b / s->bw;
    it->bm += b / s->bw;
}

/* Whether the fused list covers the model and the engine: every layer
 * attention + MLP (a Mamba or Gated DeltaNet mixer has kernels of its own
 * the list does not hold), a modern engine under CUDA graphs on an NVIDIA
 * GPU (vllm-v0, eager and ROCm paths keep the graph's bytes). */
static int fused_list_covers(const sctx *s) {
    if (s->engine == DLP_LLM_ENGINE_VLLM_V0 || s->eager_s > 0) return 0;
    if (!s->d->vendor || strcmp(s->d->vendor, "nvidia")) return 0;
    for (int64_t l = 0; l < s->c->num_hidden_layers && l < DLP_LLM_MAX_LAYERS; l++)
        if (s->c->layer_kind[l] & (DLP_LK_MAMBA | DLP_LK_LINEAR_ATTN | DLP_LK_NO_ATTN | DLP_LK_NO_MLP)) return 0;
    return 1;
}

static int fused_elem_on(const sctx *s) {
    return dlp__llm_knob.fused_elem && fused_list_covers(s);
}

/* TensorRT-LLM's nvfp4 MoE path on Blackwell (h240, docs/llm.md): the
 * TRTLLM-gen MoE backend runs routing, the gated activation and the
 * finalize inside its own kernels (_torch/modules/fused_moe/
 * fused_moe_trtllm_gen.py); under TP > 1 on one node the model fuses the
 * un-permute, the shared expert's add, the all-reduce, the residual and the
 * RMSNorm into one kernel for that backend only (modeling_deepseekv3.py at
 * 000561df, forward_MoE: do_finalize false, moe_allreduce), and the dense
 * layers' norm with the fp4 quantisation (RESIDUAL_RMS_NORM_QUANT_NVFP4).
 * Under attention DP (the context workers) those two fusions do not fire,
 * so the split by format has no source there: a what-if
 * (dlp__llm_knob.trt_fp4_ew, off by default), its bits the steps that take
 * fused_elem's pricing. */
static int trt_fp4_ew_on(const sctx *s, int quant) {
    int k = dlp__llm_knob.trt_fp4_ew;
    if (!k || s->fused_elem || s->engine != DLP_LLM_ENGINE_TRTLLM || s->eager_s > 0) return 0;
    if (quant != DLP_QT_NVFP4 || s->c->num_experts <= 0 || s->d->cc_major < 10) return 0;
    if (dlp__llm_moe_kernel(s->d, quant) != DLP__MOEK_NVFP4) return 0;
    return fused_list_covers(s) ? k : 0;
}

/* What-if (issue 22, h246; dlp__llm_knob.trt_mla_ew, off): TensorRT-LLM's MLA
 * context module on Blackwell, priced against aiconfigurator's
 * mla_context_module tables (ai-dynamo/aiconfigurator 095f58a5; the module
 * holds the norms, RoPE and the q / k / v layouts), has no room for the
 * unfused graph's attention-side element-wise bytes at prompt tokens: 1 when
 * they are dropped (bit 1 nvfp4 checkpoints, bit 2 every format; DSA models,
 * whose module the tables do not hold, keep them). */
static double trt_mla_ew_off(const sctx *s) {
    int k = dlp__llm_knob.trt_mla_ew;
    if (!k || s->engine != DLP_LLM_ENGINE_TRTLLM || s->c->kv_lora_rank <= 0 || s->d->cc_major < 10) return 0;
    if (s->c->index_topk > 0) return 0;
    if (!(k & 2) && s->p->quant != DLP_QT_NVFP4) return 0;
    return 1.0;
}

/* The attention block's fused kernels over a rank's dec decode rows and pf
 * prompt rows */
static void fused_attn_elem(const sctx *s, itime *it, double L, double dec, double pf) {
    const dlp_llm_config *c = s->c;
    double ab = s->p->act_bytes, t_local = dec + pf;
    if (c->kv_lora_rank > 0) {
        double nh = (double)c->num_attention_heads / s->tp_attn, lat = (double)(c->kv_lora_rank + c->qk_rope_head_dim);
        ew_kernel(s, it, L, 2.0 * (double)c->q_lora_rank * ab, t_local);
        /* a decode row: TensorRT-LLM's mla_rope_generation, one kernel,
         * ropes k_pe and writes the latent to the cache, ropes q_pe inside
         * the fused q (the absorbed q_nope BMM writes there) and, with an
         * fp8 cache, copies the whole fused q into the cache's format for
         * the kernel (quant_q_buffer, heads x (kv_lora + rope);
         * _torch/modules/attention.py, forward_generation) */
        ew_kernel(s, it, L, (1.0 + nh) * lat * (ab + s->kv_eb), dec);
        /* a prompt row: the latent roped into the cache, then q, k, v for
         * the context kernel (kv_b_proj's k_nope and v and the roped q read,
         * q and k of nope + rope and v written) */
        double qk = (double)(c->qk_nope_head_dim + c->qk_rope_head_dim), v = (double)c->v_head_dim;
        ew_kernel(s, it, L, lat * (ab + s->kv_eb), pf);
        ew_kernel(s, it, L, nh * ((double)c->qk_nope_head_dim + v + qk + 2.0 * qk + v) * ab, pf);
        return;
    }
    double hd = (double)(c->head_dim > 0 ? c->head_dim : c->hidden_size / c->num_attention_heads);
    double nkv = (double)(c->num_key_value_heads > 0 ? c->num_key_value_heads : c->num_attention_heads);
    double qd = (double)c->num_attention_heads * hd / s->tp_attn, kvd = nkv * hd / s->kv_shard;
    if (c->qk_norm) ew_kernel(s, it, L, 2.0 * (qd + kvd) * ab, t_local);
    ew_kernel(s, it, L, 2.0 * (qd + 2.0 * kvd) * ab, t_local);
}

/* The element-wise kernels of one step: dec decode rows and pf prompt rows
 * on an attention rank, T in all (the routed rows a GPU holds are T K / ep,
 * as its expert GEMMs'); the norms run whole on every attention TP rank */
static void fused_elem(const sctx *s, itime *it, double dec, double pf) {
    const dlp_llm_config *c = s->c;
    const prof_t *p = s->p;
    double H = (double)c->hidden_size, ab = p->act_bytes, L = (double)c->num_hidden_layers, t_local = dec + pf;
    double moe_L = c->num_experts > 0 ? (double)p->moe_layers : 0, gate = c->gated_mlp ? 3.0 : 2.0;
    ew_kernel(s, it, 2.0 * L, 4.0 * H * ab, t_local);          /* add + RMSNorm, twice */
    fused_attn_elem(s, it, L, dec, pf);
    ew_kernel(s, it, L - moe_L, gate * (double)c->intermediate_size / s->tp_attn * ab, t_local);
    if (moe_L > 0)                                              /* shared expert */
        ew_kernel(s, it, moe_L, gate * (double)c->shared_expert_intermediate_size / s->tp_attn * ab, t_local);
    ew_kernel(s, it, 1, 2.0 * H * ab, t_local);                 /* embedding rows */
    ew_kernel(s, it, 1, 2.0 * H * ab, t_local);                 /* final norm */
}

/* The fused-MoE module's own element-wise kernels, t_local tokens on a rank
 * and T in all: routing and the routed rows' three passes.  aiconfigurator's
 * MoE tables (the experts' fits, expert_kernel_s) time the whole module
 * with these inside; iteration() counts them beside the experts' GEMM curve
 * and not beside those fits. */
static void fused_moe_elem(const sctx *s, itime *it, double t_local, double T) {
    const dlp_llm_config *c = s->c;
    double moe_L = c->num_experts > 0 ? (double)s->p->moe_layers : 0;
    if (moe_L <= 0) return;
    double H = (double)c->hidden_size, ab = s->p->act_bytes, gate = c->gated_mlp ? 3.0 : 2.0;
    double E = (double)c->num_experts, K = (double)(c->experts_per_token > 0 ? c->experts_per_token : 1);
    double Im = (double)(c->moe_intermediate_size > 0 ? c->moe_intermediate_size : c->intermediate_size);
    double rows = T * K / s->ep, db = s->a2a_db > 0 ? s->a2a_db : ab;
    ew_kernel(s, it, moe_L, E * 4.0 + K * 8.0, t_local);        /* routing: logits in, top-k out */
    /* the routed rows (TensorRT-LLM's CUTLASS MoE, cutlass_kernels/
     * moe_kernels.cu: expandInputRowsKernel, doActivationKernel,
     * finalizeMoeRoutingKernel; vLLM / SGLang fused_moe the same three
     * around its grouped GEMMs): a token read once and each of its rows
     * written in the experts' input format (db); the gated activation read
     * in 16 bits, written in that format; each row read back and the token
     * written, the shared expert's output added */
    ew_kernel(s, it, moe_L, H * ab * t_local / rows + H * db, rows);
    ew_kernel(s, it, moe_L, (gate - 1.0) * ab * Im / s->moe_tp + db * Im / s->moe_tp, rows);
    ew_kernel(s, it, moe_L, H * ab + 2.0 * H * ab * t_local / rows, rows);
}

/* The fused-MoE module's element-wise kernels (fused_moe_elem) a step adds:
 * beside the experts' GEMM curve, but inside the module fits where those
 * rule (over_curve: what the fits added over the curve, 0 without one) */
static double moe_module_ew_s(const sctx *s, itime *it, double t_local, double T, double over_curve) {
    itime m = {0};
    fused_moe_elem(s, &m, t_local, T);
    it->busy += m.busy, it->bm += m.bm;
    return s->moe_fit ? fmax(0.0, m.t - over_curve) : m.t;
}

/* A step's element-wise work: the engine's fused kernels (few: fused_elem
 * or h240's trt_fp4_ew) over dec decode and pf prompt rows of a rank, with
 * the fused MoE module's own (moe_ew); else the graph's bytes on the
 * element-wise curve over the t_local tokens a rank holds */
static void step_elem(const sctx *s, itime *it, int few, double moe_ew, double dec, double pf, double t_local) {
    if (few) {
        fused_elem(s, it, dec, pf);
        it->t += moe_ew;
        return;
    }
    double b = trtgen_mxfp4_ew_bytes(s, s->p) * t_local - trt_mla_ew_off(s) * s->p->attn_ew_bytes_pt * pf;
    kadd(s, it, s->cv_elem, s->peak_vec, 0, b / s->tp_attn, 0);
    it->t += (double)s->p->attn_layers * 6.0 * T_KERNEL_US * 1e-6;
}

/* One forward over n_dec decode tokens (sequences at mean context ctx) and
 * n_pf prefill tokens of prompts pf_len long (their attention at the mean
 * causal context pf_len / 2 plus what is cached before the chunk). */
static itime iteration(const sctx *s, double n_dec, double ctx, double n_pf, double pf_len) {
    itime it = {0};
    const prof_t *p = s->p;
    if (n_dec * s->spec_q + n_pf <= 0) return it;
    /* under attention DP the step is its busiest rank's: that rank's
     * sequences (dec_a / dp each) attend, its padded rows (dec_g / dp)
     * run the GEMMs (dlp__llm_adp_rank_rows); the CPU walks the real ones */
    double dec_g = n_dec, dec_a = n_dec;
    if (s->attn_dp > 1 && n_dec > 0) {
        double b;
        int graphed = n_pf <= 0 && s->eager_s <= 0; /* an eager engine pads nothing */
        dec_g = s->attn_dp * dlp__llm_adp_rank_rows(s->engine, s->spec_q > 1.0, s->attn_dp, n_dec, graphed, &b);
        dec_a = s->attn_dp * b;
    }
    double T = dec_g * s->spec_q + n_pf;
    double ab = p->act_bytes, wb = p->wbytes_per_elem;
    double pf_r = pf_rank_tokens(s, n_pf, pf_len);
    double t_local = dec_g * s->spec_q / s->attn_dp + pf_r; /* tokens one attention rank holds */
    double seqs = n_dec + (pf_len > 0 ? n_pf / pf_len : 0);
    /* the LM head's rows: every verified position of a decoding sequence
     * (MTP) and the last token of each prompt */
    double heads = dec_g * s->spec_q + (pf_len > 0 ? n_pf / pf_len : 0);
    double ee = s->moe_fit ? p->expert_elems : 0, gemm_f = 0; /* the GEMMs' FLOPs on one GPU */
    double attn_lin = 0; /* the attention blocks' GEMMs (MLA's prefill floor) */
    double exp_curve = 0, exp_t = 0; /* the experts on the GEMM curve; as charged */
    for (int i = 0; i < p->n_lin; i++) {
        const lin_t *l = &p->lin[i];
        double m, k = l->k, n = l->n, wbytes, rows, hit_l = 0, w4_rows_l = 0;
        if (l->kind == LIN_EXPERT) {
            /* tokens are routed to k of E experts, balanced; a GPU holds E/ep
             * experts, each sliced moe_tp ways; it reads the experts its
             * rows hit */
            double E = l->experts, K = (double)(s->c->experts_per_token > 0 ? s->c->experts_per_token : 1);
            rows = T * K / s->ep;
            double hit = ep_busiest_hits(s, expert_copies(s, E), K, routed_tokens(s, T, n_dec, n_pf, pf_len), n_pf);
            n = n / s->moe_tp * s->mxfp4_pad; /* the kernel's zero padding (h223) */
            wbytes = hit * k * n * wb;
            hit_l = hit;
            m = rows;
            if (s->w4m) w4_rows_l = w4_rows(s->w4m, expert_copies(s, E), K, T, s->ep);
        } else {
            m = l->kind == LIN_HEAD ? heads / s->attn_dp : t_local;
            if (!l->repl) n /= s->tp_attn;
            wbytes = k * n * (lin_is16(s, l) ? ab : wb);
        }
        double t0 = it.t;
        gemm_f += 2.0 * m * k * n * l->count;
        dense_gemm_add(s, &it, l, m, k, n, wbytes, wb);
        if (l->kind == LIN_EXPERT) exp_curve += it.t - t0;
        if (l->kind == LIN_EXPERT && n_pf > 0) { /* h223: the kernel's prefill fit */
            double km = trtgen_mxfp4_pf_s(s, l, m, T);
            if (km > it.t - t0) it.t = t0 + km;
        }
        /* experts: at least what the MoE kernel tables say for their
         * format (dlp__llm_moe_kernel_s; docs/llm.md, "Weight-only 4-bit
         * MoE", "16-bit and fp8 MoE kernels"); never below the GEMM curve */
        if (l->kind == LIN_EXPERT && s->moe_fit && ee > 0) {
            double km = expert_kernel_s(s, l, hit_l, m, T, n_pf, w4_rows_l);
            if (km > it.t - t0) it.t = t0 + km;
        }
        if (l->kind == LIN_EXPERT) exp_t += it.t - t0;
        if (l->kind == LIN_DENSE && l->attn) attn_lin += it.t - t0;
        if (s->parts) s->parts->lin_s[i] = it.t - t0;
    }
    int few = s->fused_elem || (s->fp4_ew & (n_pf > 0 ? 1 : 2)); /* h240 */
    double moe_ew = few ? moe_module_ew_s(s, &it, t_local, T, ee > 0 ? exp_t - exp_curve : 0) : 0;
    double t0 = it.t;
    /* attention on the cache: decode reads every running sequence's cache;
     * prefill computes causal attention over the prompt */
    double dec_elems = dec_a / s->attn_dp * kv_elems(s, ctx) / s->kv_shard;
    double pf_elems = pf_r * kv_elems(s, pf_len / 2.0 + 1.0) / s->kv_shard;
    /* a recurrent state (Mamba, Gated DeltaNet) is no context to attend
     * over: it is out of the attention terms and costs its own below */
    dec_elems -= dec_a / s->attn_dp * s->state_elems / s->kv_shard;
    pf_elems -= pf_r * s->state_elems / s->kv_shard;
    /* decode attention streams the cache: aiconfigurator's H100 generation-
     * attention table reaches about peak bandwidth on caches past 100 MB
     * and a few percent on small ones (launch-bound), so pure roofline at
     * E_DECODE_ATTN of the bandwidth plus a kernel floor per layer.  Under
     * MTP the 1 + drafts query tokens of a sequence share one pass over its
     * cache (FlashMLA and TensorRT-LLM's MLA generation kernel take several
     * query tokens per sequence): the math grows, the bytes do not */
    double bm0 = it.bm; /* the decode attention's bytes' time (dec_attn_floors) */
    if (dec_elems > 0)
        kadd(s, &it, NULL, s->peak_mm, dec_elems * s->attn_flops_per_elem * s->spec_q,
             dec_elems * s->kv_eb / E_DECODE_ATTN, (double)p->attn_layers);
    /* the decode-attention kernel's own floor per layer (ATTN_DEC_T0_US)
     * beyond the launch kadd counts; vllm-v0 keeps its fitted CPU term's */
    if (dec_elems > 0 && s->engine != DLP_LLM_ENGINE_VLLM_V0)
        it.t += p->attn_layers * (ATTN_DEC_T0_US - T_KERNEL_US) * 1e-6;
    if (dec_elems > 0) dec_attn_floors(s, &it, t0, bm0, dec_a / s->attn_dp, ctx);
    /* MLA: the kernel's math may set the op (mla_dec_math_s, h229); the module around it (h236) */
    if (dec_elems > 0 && s->mla_dec_rate > 0) it.t = fmax(it.t, t0 + mla_dec_math_s(s, dec_elems));
    it.t += mla_gen_extra_s(s, n_dec, n_pf, dec_g * s->spec_q / s->attn_dp, attn_lin);
    it.t += dsa_gen_extra_s(s, n_dec, n_pf, dec_g * s->spec_q / s->attn_dp, dec_a / s->attn_dp, ctx, attn_lin,
                            it.t - t0);
    if (s->parts) s->parts->attn_dec_s = it.t - t0, t0 = it.t;
    /* prefill: FlashAttention over the prompt, on the attention curve */
    double tpf0 = it.t;
    if (pf_elems > 0)
        kadd(s, &it, s->cv_attn, s->peak_mm, pf_elems * s->pf_flops_per_elem,
             pf_r * (kv_elems(s, 1) - s->state_elems) / s->kv_shard * 3.0 * ab, (double)p->attn_layers);
    /* MLA: the prompt tokens' attention module at least its table fit */
    if (n_pf > 0) it.t += pf_attn_floors_s(s, it.t - tpf0, n_pf, pf_len, attn_lin * pf_r / t_local);
    if (s->parts) s->parts->attn_pf_s = it.t - t0, t0 = it.t;
    /* the recurrent state, split over the attention TP ranks: a decode
     * token reads and writes it (a few FLOPs per element: decay, delta
     * rule, output); a prompt token in the chunked scan does the same math
     * and touches it once per 64-token chunk.  Before this term the state
     * was taken for context and every prompt token attended over it
     * (Qwen3.5-397B, 8k prompt: 754 ms prefill for ~30 ms of GEMMs) */
    double st = s->state_elems / s->tp_attn;
    if (st > 0 && n_dec > 0)
        kadd(s, &it, NULL, s->peak_vec, 4.0 * st * dec_a * s->spec_q / s->attn_dp,
             2.0 * st * s->kv_eb * dec_a / s->attn_dp, 0);
    if (st > 0 && n_pf > 0)
        kadd(s, &it, NULL, s->peak_mm, 4.0 * st * pf_r, 2.0 * st * s->kv_eb * pf_r / 64.0, 0);
    if (s->parts) s->parts->state_s = it.t - t0, t0 = it.t;
    /* norms, rotary, activations, residuals, router: bytes per token */
    step_elem(s, &it, few, moe_ew, dec_g * s->spec_q / s->attn_dp, pf_r, t_local);
    if (s->parts) s->parts->other_s = it.t - t0;
    double comm = step_comm_s(s, T, t_local, n_pf);
    /* MTP's draft layers: aiconfigurator (models/helpers.py,
     * mtp_scale_factor) prices a speculative step as num_layers + drafts
     * layers' worth of the verify step's work; the engine's CPU side is
     * per step and does not grow */
    if (s->spec_draft > 1.0 && n_dec > 0) {
        double f = s->spec_draft;
        it.t *= f, it.busy *= f, it.bc *= f, it.bm *= f, it.bsm *= f, comm *= f;
    }
    /* vLLM 0.6.1 on ROCm (rocm_offline_gpu_x): kernels, collectives and
     * launches slower by gpu_x; the shares of peak (busy, bc, bm) stay, so
     * the utilisation and the power fall with the longer time */
    if (s->gpu_x != 1.0) it.t *= s->gpu_x, comm *= s->gpu_x;
    /* ... and a decode-only step no faster than its GEMMs at gemm_rate */
    if (s->gemm_rate > 0 && n_pf <= 0 && gemm_f / s->gemm_rate > it.t + comm) it.t = gemm_f / s->gemm_rate - comm;
    /* ... plus paged attention V1's re-reads of a GQA group's cache */
    if (s->gpu_x != 1.0) it.t += rocm_v1_extra_s(s, dec_a / s->attn_dp, ctx);
    it.comm = comm;
    it.ovh = s->ov_fixed + s->ov_seq * seqs / s->attn_dp + s->eager_s;
    /* an eager context iteration's host time (wl->ctx_host_ms, h208): only
     * where the step carries prompt tokens, decode-only steps are graphed */
    if (n_pf > 0) it.ovh += s->ctx_host_s;
    it.t += comm + it.ovh;
    if (s->parts) s->parts->comm_s = comm, s->parts->ovh_s = it.ovh, s->parts->total_s = it.t;
    return it;
}

/* The board power of one serving GPU of `engine` at memory and math
 * utilisations um, uc (0..1): the serving floor, the device's idle if
 * higher, plus the shares (vllm-v0's own, the shared ones otherwise), both
 * scaled with the die's watts (serve_scale_w); never past TDP. */
static double serve_power_w(const dlp_device *d, int engine, double um, double uc) {
    int v0 = engine == DLP_LLM_ENGINE_VLLM_V0;
    double f = v0 ? P_V0_FLOOR : P_FIT_FLOOR, pm = v0 ? P_V0_MEM : fit_mem(), pc = v0 ? P_V0_MATH : P_FIT_MATH;
    double tdp = d->tdp_w > 0 ? d->tdp_w : 0, sc = serve_scale_w(d);
    double floor_w = fmax(dlp__device_idle_w(d), f * sc);
    return fmin(tdp, floor_w + (sc - floor_w) * fmin(1.0, pm * um + pc * uc));
}

/* ---- memory ------------------------------------------------------------------ */

static double gib(double b) { return b / (1024.0 * 1024.0 * 1024.0); }

/* GPUs one sequence's cache splits over: GQA splits over the KV heads up to
 * the attention TP and replicates beyond (vLLM's rule); MLA's latent is
 * replicated on every TP rank. */
int dlp__llm_kv_shard(const dlp_llm_config *c, int tp_attn) {
    int64_t nkv = c->num_key_value_heads > 0 ? c->num_key_value_heads : c->num_attention_heads;
    int k = c->kv_lora_rank > 0 ? 1 : (int)(nkv < tp_attn ? nkv : tp_attn);
    return k < 1 ? 1 : k;
}

/* Peak live activation bytes of one forward pass over batch x seq prompt
 * tokens (image tokens inside, as the builder adds them), MoE per routed
 * token (dlp__llm_act_graph), remembered: serving asks it on every call
 * and a plan's bisection asks it thousands of times.  A graph costs 1 to
 * 3 ms (Llama-3.1-8B), a hit well under 1 us, so the memo holds 256
 * (config, format, batch, prompt) keys (~0.4 MB): with 32 in a first-in
 * first-out ring, bench_serving's sweep over 64 prompt lengths missed on
 * every call (407 serving answers/s against 76,100 before the memo). */
#define N_ACT 256
static struct act_memo {
    dlp_llm_config cfg;
    int quant;
    int64_t batch, seq;
    double bytes;
} *act_memo[N_ACT];
static int act_next;
static pthread_mutex_t act_mu = PTHREAD_MUTEX_INITIALIZER;

double dlp__llm_prompt_act_bytes(const dlp_llm_config *c, int64_t batch, int64_t seq, int quant) {
    double bytes = -1;
    pthread_mutex_lock(&act_mu);
    for (int i = 0; i < N_ACT && bytes < 0; i++) {
        const struct act_memo *a = act_memo[i];
        if (a && a->quant == quant && a->batch == batch && a->seq == seq && !memcmp(&a->cfg, c, sizeof *c))
            bytes = a->bytes;
    }
    pthread_mutex_unlock(&act_mu);
    if (bytes >= 0) return bytes;
    dlp_graph *g = NULL;
    bytes = 0;
    if (dlp__llm_act_graph(c, batch, seq, quant, &g, NULL) == DLP_OK) {
        dlp_graph_stats gs;
        dlp_graph_stats_get(g, &gs);
        bytes = (double)gs.peak_activation_bytes;
        dlp_graph_free(g);
    }
    struct act_memo *a = malloc(sizeof *a);
    if (!a) return bytes;
    *a = (struct act_memo){*c, quant, batch, seq, bytes};
    pthread_mutex_lock(&act_mu);
    free(act_memo[act_next]);
    act_memo[act_next] = a;
    act_next = (act_next + 1) % N_ACT;
    pthread_mutex_unlock(&act_mu);
    return bytes;
}

/* The live activations of a prompt's forward pass as engines run it: in
 * chunks of at most CHUNK_TOKENS (8,192: the engines' chunk on large GPUs;
 * serving's own workspace takes the engine's chunk, dlp__llm_engine_defaults,
 * but this breakdown is the one both modes share, and generate mode has no
 * engine), and without the S x S score matrices the builder's
 * eager attention holds (FlashAttention and PyTorch's SDPA never
 * materialise them; DeepSeek-V3 at 64k tokens would need 257 GiB a GPU):
 * the lesser of the graph's peak and the one-token graph's peak per token
 * (which in turn overcounts a recurrent state a one-token graph holds per
 * token: Nemotron-H's 5.2 MB a token against 0.26 GiB at 1,024). */
static double prompt_act_bytes(const dlp_llm_config *c, int64_t batch, int64_t seq, int quant) {
    int64_t img = c->image_tokens > 0 ? c->image_tokens : 0;
    int64_t s = seq + img > (int64_t)CHUNK_TOKENS ? (int64_t)CHUNK_TOKENS - img : seq;
    if (s < 1) s = 1;
    dlp_llm_config c0 = *c;
    c0.image_tokens = 0;
    double per_tok = dlp__llm_prompt_act_bytes(&c0, 1, 1, quant);
    double whole = dlp__llm_prompt_act_bytes(c, batch, s, quant);
    return fmin(whole, per_tok * (double)batch * (double)(s + img));
}

/* Whether a layer keeps a recurrent state (Mamba-2, Gated DeltaNet): a
 * state per sequence, whatever its length. */
static int has_recurrent_state(const dlp_llm_config *c) {
    for (int64_t l = 0; l < c->num_hidden_layers && l < DLP_LLM_MAX_LAYERS; l++)
        if (c->layer_kind[l] & (DLP_LK_MAMBA | DLP_LK_LINEAR_ATTN)) return 1;
    return 0;
}

/* The activation workspace a serving engine reserves beside its cache, per
 * GPU: the peak of the forward it profiles before sizing the cache (vLLM V1
 * gpu_model_runner profile_run -> _dummy_run(max_num_batched_tokens): the
 * chunk's tokens shared evenly by min(tokens, max_num_seqs) requests).
 * Token-wise parts (projections, MLP, the LM head's rows) scale with the
 * tokens: the one-token graph's peak per token x chunk, as the profile
 * (MoE per routed token).  A recurrent state (Mamba-2 conv + SSM, Gated
 * DeltaNet) is per SEQUENCE: the one-token graph holds one, so scaling it
 * per token put 8,192 states (Nemotron-Nano-9B-v2: 5.2 MB each, the 8 GiB
 * cap) where the chunk holds one per request; a hybrid model's workspace
 * is its graph's peak at the profile's layout (requests x tokens each),
 * whose scan holds each request's chunk states.  The states that outlive
 * the step are the cache's (vLLM's mamba cache / hybrid KV cache
 * manager: dlp_llm_kv_bytes counts them per running sequence).  At most
 * 8 GiB (a bound on the graph's overcounts; no engine reserves more at
 * these chunk sizes). */
double dlp__llm_chunk_workspace(const dlp_llm_config *c, int quant, int tp_attn, int64_t max_seqs,
                                int64_t chunk_tokens) {
    if (tp_attn < 1) tp_attn = 1;
    if (chunk_tokens < 1) chunk_tokens = 1;
    if (max_seqs < 1) max_seqs = DLP_LLM_MAX_SEQS;
    dlp_llm_config ec = *c;
    ec.image_tokens = 0;
    ec.engine_form = 1;
    double bytes;
    if (!has_recurrent_state(c)) {
        /* the profile's one-token peak: the engine form, MoE per routed
         * token (profile_build) */
        dlp_llm_config mc = *c;
        mc.image_tokens = 0;
        bytes = dlp__llm_prompt_act_bytes(c->num_experts > 0 ? &mc : &ec, 1, 1, quant) * (double)chunk_tokens;
    } else {
        /* the remainder vLLM gives its last request (under one token a
         * request) is left out: the graph's requests are all alike */
        int64_t reqs = chunk_tokens < max_seqs ? chunk_tokens : max_seqs;
        bytes = dlp__llm_prompt_act_bytes(&ec, reqs, chunk_tokens / reqs, quant);
    }
    return fmin(bytes / tp_attn, 8.0 * 1073741824.0);
}

/* The one memory story (docs/llm.md): per GPU, the weights (the tower's in
 * the activations' 16 bits), the prompt's forward activations, the batch's
 * caches at seq + image + gen tokens and the runtime's reserve.  Generate
 * mode calls it at its batch, serving at one request; workspace_mb is the
 * caller's (serving's chunk workspace). */
void dlp__llm_mem_need(const dlp_llm_config *c, int quant, double weight_bytes, double kv_eb, int n_gpus,
                       int tp_attn, int64_t batch, int64_t seq, int64_t gen, dlp_llm_memory *m) {
    const double MiB = 1048576.0;
    double ab = dlp_quant_act_dtype(quant) == DLP_DT_FLOAT ? 4.0 : 2.0;
    if (n_gpus < 1) n_gpus = 1;
    if (tp_attn < 1) tp_attn = 1;
    memset(m, 0, sizeof *m);
    m->weights_mb = (weight_bytes + (double)dlp_llm_vision_params(c) * ab) / n_gpus / MiB;
    m->activations_mb = prompt_act_bytes(c, batch, seq, quant) / tp_attn / MiB;
    /* encoders cache nothing; a forward pass (gen 0, the thesis' protocol)
     * keeps no cache */
    if (!c->encoder_only && gen > 0)
        m->kv_mb = (double)batch * dlp_llm_kv_bytes(c, seq + c->image_tokens + gen, kv_eb) /
                   dlp__llm_kv_shard(c, tp_attn) / MiB;
    m->runtime_mb = DLP_LLM_RUNTIME_GIB * 1024.0;
    m->total_mb = m->weights_mb + m->activations_mb + m->kv_mb + m->runtime_mb;
}

/* The refusal of a request that does not fit even at one request, the same
 * words and parts in both modes. */
dlp_status dlp__llm_mem_refuse(const dlp_llm_config *c, const dlp_device *d, int n_gpus, const dlp_llm_memory *m,
                               dlp_error *err) {
    return dlp__err(err, DLP_EINVAL,
                    "%s: does not fit on %d x %s even at one request: needs %.1f GiB per GPU (weights %.1f + "
                    "activations %.2f + KV cache %.2f + runtime %.1f) of %.1f GiB; use more gpus, a smaller dtype "
                    "or a larger device", c->id, n_gpus, d->id, m->total_mb / 1024, m->weights_mb / 1024,
                    m->activations_mb / 1024, m->kv_mb / 1024, m->runtime_mb / 1024, d->memory_gib);
}

/* ---- the serving prediction ------------------------------------------------- */

/* Attention FLOPs per cached element for a prompt token.  MLA has two
 * forms (DeepSeek-V2, arXiv 2405.04434 sec. 2.1.3; vLLM
 * v1/attention/backends/mla/common.py: "the compute friendly approach for
 * prefill ... the data-movement friendly approach for decode"; TensorRT-LLM
 * and SGLang do the same): decode absorbs kv_b into the query and attends
 * over the latent (rank + rope = 576 per token in DeepSeek-V3: 4 h FLOPs per
 * cached element, the `absorbed` argument), prefill expands the latent into
 * per-head keys (nope + rope = 192) and values (128) once per token and runs
 * ordinary multi-head attention, 2 h (nope + rope + v) FLOPs per key:
 * 81,920 against 294,912 (0.28x) per query-key pair per layer in DeepSeek-V3.
 * The expansion itself (kv_b_proj) is a weight matrix of the profile, costed
 * per token in both forms.  DSA models (index_topk: DeepSeek-V3.2, GLM-5)
 * run their sparse attention in the absorbed (MQA) form in prefill too
 * (the DeepSeek-V3.2-Exp report builds DSA on MLA's MQA mode, one latent
 * shared by every head, in prefill and decode), as does everything
 * without MLA. */
static double mla_prefill_flops_per_elem(const dlp_llm_config *c, int tp_attn, double absorbed) {
    if (c->kv_lora_rank <= 0 || c->index_topk > 0) return absorbed;
    double per_key = 2.0 * (double)c->num_attention_heads *
                     (double)(c->qk_nope_head_dim + c->qk_rope_head_dim + c->v_head_dim);
    return per_key / (double)(c->kv_lora_rank + c->qk_rope_head_dim) / (double)tp_attn;
}

/* Seconds to hand one prompt's KV cache from a prefill worker to a decode
 * worker (disaggregated serving).  The client's first token comes back
 * through the decode side: TensorRT-LLM's context instance answers the
 * orchestrator with the first token and ctx_params, and the generation
 * instance then pulls the prompt's KV blocks, device to device over UCX /
 * NIXL (NVLink or RDMA), each GPU its own shard in parallel
 * (blog5_Disaggregated_Serving_in_TensorRT-LLM.md, "KV Cache Exchange";
 * the first token is streamed from the generation worker, TensorRT-LLM#6512);
 * Dynamo moves the blocks the same way (NIXL).  Bytes per GPU: the prompt's
 * cache over its shards (MLA: the one latent).  The link: one direction of
 * NVLink where a decode worker of the same size fits the worker's NVLink
 * domain beside it (an NVL72 rack, or two halves of an 8-GPU node), else the
 * GPU's NIC (IB_GBS).  No fitted constant. */
static double kv_handoff_s(const sctx *s, double S) {
    int nvl;
    double gbs = link_gbs(s->d, &nvl);
    double bw = nvl && 2 * s->n_gpus <= nvlink_domain(s->d) ? gbs / 2.0 : IB_GBS;
    double bytes = dlp_llm_kv_bytes(s->c, (int64_t)llround(S), s->kv_eb) / (double)s->kv_shard;
    return bytes / (bw * 1e9);
}

/* The replica's layout (attention TP x DP, expert parallelism, how the KV
 * cache splits) and the units and curves its kernels run on; refuses a
 * layout the model or the GPU count cannot take, and a device without a
 * peak or bandwidth. */
/* The most prompt + generated tokens a request may ask for on a model of
 * `positions` (max_model_len = the config's positions when none is given),
 * as the engine checks it.  The OpenAI server refuses "token_num +
 * max_tokens > self.max_model_len" (vllm/entrypoints/openai/serving_engine.py
 * _validate_input), and vLLM V1 stops a request once "request.num_tokens
 * >= max_model_len" (vllm/v1/core/sched/utils.py check_stop): prompt + gen
 * <= positions, which every engine here keeps but one.  vLLM <= 0.6's
 * engine, offline (LLM.generate(): no server check), stops a sequence only
 * once "seq.get_len() > self._get_max_model_len(...)"
 * (vllm/engine/output_processor/stop_checker.py): the last sampled token
 * takes no position, so prompt + gen <= positions + 1 runs in full, and a
 * prompt of exactly the positions runs its prefill and one token. */
int64_t dlp__llm_ctx_limit(const dlp_llm_workload *wl, int64_t positions) {
    int v0_offline = wl->engine == DLP_LLM_ENGINE_VLLM_V0 && wl->offline && wl->gen_tokens > 0 &&
                     (wl->concurrency > 0 || wl->max_fit);
    return v0_offline ? positions + 1 : positions;
}

/* 1 if the device's name holds "a100" (case ignored), as vLLM tests
 * current_platform.get_device_name().lower() for it. */
static int named_a100(const dlp_device *d) {
    const char *names[2] = {d->id, d->name};
    for (int k = 0; k < 2; k++)
        for (const char *q = names[k]; q && *q; q++)
            if (tolower((unsigned char)q[0]) == 'a' && q[1] == '1' && q[2] == '0' && q[3] == '0') return 1;
    return 0;
}

/* SGLang's chunked_prefill_size by the GPU's memory (server_args.py,
 * ServerArgs._handle_gpu_memory_settings, SGLang 0.5: "if gpu_mem < 20 *
 * 1024: # T4, 4080 ... 2048", "< 35 * 1024: # A10, 4090, 5090 ... 2048",
 * "< 60 * 1024: # A100 (40GB), L40 ... 4096", "< 90 * 1024: # H100, A100
 * ... 8192", "< 160 * 1024: # H20, H200 ... 8192", else "# B200, MI300
 * ... 16384"; gpu_mem in MiB). */
static int64_t sglang_chunk(double gib) {
    return gib < 35 ? 2048 : gib < 60 ? 4096 : gib < 160 ? 8192 : 16384;
}

/* The engine's own defaults for the prefill chunk (tokens a step takes at
 * most) and the running-sequence limit, each where the workload leaves it
 * 0 (docs/llm.md, "Engine defaults"):
 *  - modern (vLLM V1, >= 0.10: vllm/engine/arg_utils.py
 *    EngineArgs.get_batch_defaults): "if device_memory >= 70 * GiB_bytes
 *    and 'a100' not in device_name" max_num_batched_tokens {LLM_CLASS:
 *    16384, OPENAI_API_SERVER: 8192} and max_num_seqs 1024 for both, else
 *    {LLM_CLASS: 8192, OPENAI_API_SERVER: 2048} and 256 (the A100 kept out
 *    by name: larger chunks cut its throughput, vllm#17885).  Served is
 *    the OpenAI server, offline the LLM class.
 *  - vllm-v0 (vLLM <= 0.6, no chunked prefill): max_num_seqs 256; its
 *    budget is max(max_model_len, 2048) prompt tokens a step
 *    (SchedulerConfig), a figure the library cannot know (the server's
 *    --max-model-len; the leaderboard set 4096): 8,192 stands, as before.
 *  - SGLang: chunked_prefill_size by memory (sglang_chunk); its running
 *    limit is min(KV tokens / 2, the request pool of 2,048-4,096) by
 *    memory, not a constant: 256 stands (every bench row sets its own).
 *  - TensorRT-LLM (tensorrt_llm/builder.py BuildConfig, trtllm-serve's
 *    defaults): max_num_tokens 8192, max_batch_size 2048. */
void dlp__llm_engine_defaults(const dlp_device *d, const dlp_llm_workload *wl, int64_t *chunk, int64_t *max_seqs) {
    double gib = d ? d->memory_gib : 0;
    int64_t ck = (int64_t)CHUNK_TOKENS, ms = DLP_LLM_MAX_SEQS;
    if (wl->engine == DLP_LLM_ENGINE_MODERN) {
        int big = gib >= 70 && !named_a100(d);
        ck = big ? (wl->offline ? 16384 : 8192) : (wl->offline ? 8192 : 2048);
        ms = big ? 1024 : 256;
    } else if (wl->engine == DLP_LLM_ENGINE_SGLANG) {
        ck = sglang_chunk(gib);
    } else if (wl->engine == DLP_LLM_ENGINE_TRTLLM) {
        ck = 8192, ms = 2048;
    }
    *chunk = wl->chunk_tokens > 0 ? wl->chunk_tokens : ck;
    *max_seqs = wl->max_seqs > 0 ? wl->max_seqs : ms;
}

/* The expert slots of the replica (s->slots; redundant experts, EPLB):
 * none given, ep must divide the model's experts as before; given, the
 * slots must hold every expert at least once and spread evenly over the EP
 * ranks (TensorRT-LLM's num_slots "must be >= total experts"; vLLM's EPLB
 * "number of physical experts, must be a multiple of num_ranks"), and the
 * model must have experts.  Runs after s->ep is set. */
static dlp_status expert_slots_setup(sctx *s, const dlp_llm_config *c, const dlp_llm_workload *wl, dlp_error *err) {
    long long n = wl->expert_slots, e = (long long)c->num_experts;
    s->slots = 0;
    if (n < 0) return dlp__err(err, DLP_EINVAL, "%s: expert-slots %lld: must be >= 0 (0: the model's experts)", c->id, n);
    if (n == 0) {
        if (s->ep > 1 && e % s->ep)
            return dlp__err(err, DLP_EINVAL, "%s: ep %d does not divide the %lld experts", c->id, s->ep, e);
        return DLP_OK;
    }
    if (e <= 0)
        return dlp__err(err, DLP_EINVAL, "%s: expert-slots %lld: the model has no experts (redundant expert slots "
                        "need MoE)", c->id, n);
    if (n < e)
        return dlp__err(err, DLP_EINVAL, "%s: expert-slots %lld: fewer than the model's %lld experts (every expert "
                        "needs a slot)", c->id, n, e);
    if (n % s->ep)
        return dlp__err(err, DLP_EINVAL, "%s: expert-slots %lld is not a multiple of ep %d (each EP rank holds "
                        "expert-slots / ep slots)", c->id, n, s->ep);
    s->slots = (double)n;
    return DLP_OK;
}

/* Bytes of the redundant copies, all GPUs: (N - E) experts' matrices of
 * every MoE layer at the stored bytes per weight.  The slots are weights
 * in GPU memory: vLLM's EPLB, 256 experts + 32 redundant, "we'll have 288
 * sets of linear layer weights for each MoE layer"; TensorRT-LLM's 288 for
 * DeepSeek-R1 at EP 32 is "1 extra expert on each EP rank".  0 without
 * slots (the answers without them keep their bytes). */
static double slots_extra_bytes(const sctx *s, const prof_t *p) {
    double E = (double)s->c->num_experts, all = 0;
    if (!(s->slots > E) || !(E > 0)) return 0;
    for (int i = 0; i < p->n_lin; i++)
        if (p->lin[i].kind == LIN_EXPERT) all += p->lin[i].k * p->lin[i].n * p->lin[i].count * p->lin[i].experts;
    return all * p->wbytes_per_elem * (s->slots - E) / E;
}

/* The one-token graph's element-wise bytes a token (all of them, and the
 * MoE block's share that the trtllm-gen kernel fuses away: trtgen_mxfp4_ew
 * _bytes) for tests (tests/test_llm_serve.c, h223). */
dlp_status dlp__llm_ew_bytes_pt(const dlp_llm_config *c, int quant, double *all, double *moe, dlp_error *err) {
    prof_t p;
    dlp_status st = profile_get(c, quant, &p, err);
    if (st) return st;
    *all = p.other_bytes_pt, *moe = p.moe_ew_bytes_pt;
    return DLP_OK;
}

/* The modern engine's offline batches on an AMD GPU: vLLM 0.6.1 as
 * upstream built it for ROCm (LLM-Inference-Bench's MI250 / MI300X runs:
 * `git checkout v0.6.1`, Dockerfile.rocm), without the decode kernels of
 * AMD's ROCm fork: the skinny GEMMs for a few rows (ROCm/vllm#56, upstream
 * from vllm#15830, April 2025) and the custom paged attention (ROCm/vllm#22;
 * vllm#8310 was still in review after v0.6.1's tag, and V0 selected it
 * reliably only from vllm#16426).  No source gives the old kernels' share
 * of peak, so the factor is fitted on the rows (bench/bench_llm.sh
 * --serving infbench, "vLLM 0.6.1 on ROCm"): fitted on MI250 alone 2.32,
 * MI300X held out 55.1 -> 30.3 % e2e MAPE; on MI300X alone 2.68, MI250 held
 * out 46.2 -> 16.8 %; pooled 2.41 (the bench's figures).  With CDNA3's
 * GEMM floor below in place the refit is 2.37 leaving out MI250 (MI250
 * 11.0 %), 2.27 leaving out MI300X (19.3 %), pooled 2.31; 2.27 is compiled
 * in (h160).  Served vLLM (>= 0.7 in the silicon rows) and every other
 * device keep 1. */
static double rocm_offline_gpu_x(const dlp_device *d, const dlp_llm_workload *wl) {
    int amd = d && d->vendor && !strcmp(d->vendor, "amd");
    return amd && wl->offline && wl->engine == DLP_LLM_ENGINE_MODERN ? DLP__LLM_ROCM_OFFLINE_GPU_X : 1.0;
}

/* The same path's decode GEMMs at large batch (docs/llm.md "h155"): the
 * measured steps grow linearly with the batch from 16 sequences at every
 * length, in proportion to the model (Llama-2-70B 4.3 ms a sequence,
 * Llama-3-8B 0.45, Llama-2-7B 0.37 on MI300X: 27-31 us per GFLOP of GEMM
 * work, ~2.6 % of the fp16 matrix peak) and not the context, where the
 * GPU-time factor alone under-predicts 0.57x at B 64-256: on CDNA3
 * (gfx942) upstream v0.6.1 ran PyTorch's untuned hipBLASLt choices, which
 * AMD's MI300X tuning guide (ROCm/ROCm#3372, 2024-07) asks users to tune
 * and a GEMM-tuning study on MI300X found up to 7.2x slower than tuned.
 * MI250 (CDNA2, rocBLAS) shows no such floor: its rows fit best without
 * one, and the MI300X fit held out on them is worse (21.7 against 10.4 %
 * e2e MAPE), so the floor is CDNA3's only.  No source gives the untuned
 * rate: it is fitted on MI300X's rows, per compute unit and clock (304
 * CUs, 2.1 GHz): 54 FLOP, 52-56 leaving out each model family, the held-
 * out families' e2e MAPE 30.1 -> 20.1 % (docs/llm.md "h160"); refit to 60
 * once paged attention V1's re-reads (rocm_v1_extra_s) carried the long
 * contexts' part of the miss the floor had absorbed (h184).  Seconds: a
 * step's GEMM FLOPs per GPU / this. */
static double rocm_gemm_rate(const dlp_device *d, double gpu_x) {
    double c = dlp__llm_knob.rocm_gemm_c > 0 ? dlp__llm_knob.rocm_gemm_c : DLP__LLM_ROCM_GEMM_PER_CU_CLK;
    if (gpu_x == 1.0 || dlp__llm_knob.rocm_floor_off || !d->arch || strcmp(d->arch, "cdna3") || d->sm_count <= 0 ||
        !(d->boost_clock_mhz > 0))
        return 0;
    return c * (double)d->sm_count * d->boost_clock_mhz * 1e6;
}

/* The same path's decode attention (docs/llm.md "h184").  Upstream v0.6.1
 * on ROCm decodes with vLLM's own paged attention (rocm_flash_attn.py ->
 * PagedAttention.forward_decode; the custom ROCm kernel came later, see
 * rocm_offline_gpu_x), which picks V1 -- one thread block per (query head,
 * sequence) over the whole cache -- when max_seq_len <= 8192 and either
 * the cache fits one 512-token partition or num_seqs x num_heads > 512
 * "since there is enough work to parallelize" (vllm/attention/ops/
 * paged_attn.py, forward_decode), else V2 (the cache cut into 512-token
 * partitions).  A block reads its KV head's K and V (attention_kernels.cu:
 * kv_head_idx = head_idx / num_queries_per_kv), so a GQA group's query
 * heads read the same cache once each.  LLM-Inference-Bench's rows show
 * what that costs only in the second branch: on both MI250 and MI300X, with
 * every GQA model, a step's time per context token jumps 3-5x exactly where
 * sequences x query heads per GPU passes 512 (Llama-3-8B at TP 1/2/4/8:
 * from 32/64/128/256 sequences; Llama-2-7B's MHA, no group, does not), the
 * same per token at L 128 as at 2,048, while below 512 blocks the group's
 * reads cost what its one KV head does.  No source gives the rate, so the
 * re-reads (query heads / KV heads - 1 times the GPU's cache) stream at
 * DLP__LLM_ROCM_V1_ETA of the bandwidth; ctx stands for max_seq_len (the
 * offline batch's sequences are as long).  Seconds, added to the step. */
static double rocm_v1_extra_s(const sctx *s, double n_dec, double ctx) {
    double eta = dlp__llm_knob.rocm_v1_eta > 0 ? dlp__llm_knob.rocm_v1_eta : DLP__LLM_ROCM_V1_ETA;
    if (s->gpu_x == 1.0 || dlp__llm_knob.rocm_floor_off || s->c->kv_lora_rank > 0 || !(n_dec > 0) || ctx > 8192)
        return 0;
    int64_t nkv = s->c->num_key_value_heads > 0 ? s->c->num_key_value_heads : s->c->num_attention_heads;
    double hq = (double)s->c->num_attention_heads / s->tp_attn, hkv = (double)nkv / s->kv_shard;
    if (!(n_dec * hq > 512.0) || !(hq > hkv)) return 0;
    double elems = n_dec * (kv_elems(s, ctx) - s->state_elems) / s->kv_shard; /* this GPU's cache */
    return elems * (hq / hkv - 1.0) * s->kv_eb / (eta * s->bw);
}

/* TensorRT-LLM's offline engines as LLM-Inference-Bench ran them
 * (ModelRunnerCpp over engines built by trtllm-build 0.11 on A100 / H100,
 * 0.12 on GH200; wl->offline with engine trtllm): decode attention with
 * multi_block_mode off, the default until 0.13 ("Enabled multi_block_mode
 * by default", TensorRT-LLM 0.13.0 release notes; a build flag in 0.11,
 * moved to the runtime in 0.12).  Without it the masked-MHA kernel runs one
 * thread block per (query head, sequence) over the whole cache
 * (decoderMaskedMultiheadAttentionLaunch.h mmha_launch_kernel_ex: grid
 * {heads, batch, seq_len_tile}, one tile unless multi-block), and XQA,
 * which 0.11-0.12 pick only where (KV heads x batch) x 4 >= SMs
 * (decoderXQAImplPrecompiled.cpp mayHavePerfGain, kEnableMinBlockFactor
 * 4.0), one per (KV head, sequence): either way a block streams one KV
 * head's K and V of one sequence alone, and at a small batch the step waits
 * on that stream whatever the tensor parallelism.  (LLM-Inference-Bench's
 * rows at B 1, L 128 -> 2,048: +1.17-1.32 ms a step on A100 at TP 1-4,
 * +0.89-0.95 ms on H100, the same for Llama-2-7B's 32 KV heads and
 * Llama-3-8B's 8.)  A block's rate per SM clock, fitted on those rows
 * (DLP__LLM_TRT_CTA_BYTES_PER_CLK; the bench prints the refit, held out by
 * GPU and by family), times the boost clock.  The served engine
 * (trtllm-serve, 0.13+ / 1.x) splits the cache over blocks: no floor. */
/* The XQA block's rate on TensorRT-LLM 0.11 (xqa_floor_s), bytes per SM
 * clock x the boost clock; GQA models only (XQA refuses plain MHA at beam
 * 1); only where the workload says the engine ran 0.11 (wl->trt_xqa_block).
 * dlp__llm_knob.trt_xqa_bpc (bench-only): 0 the compiled-in rate, > 0 another,
 * < 0 none. */
static double trt_xqa_rate(const dlp_device *d, const dlp_llm_workload *wl, const dlp_llm_config *c) {
    double bpc = dlp__llm_knob.trt_xqa_bpc != 0 ? dlp__llm_knob.trt_xqa_bpc : DLP__LLM_TRT_XQA_BYTES_PER_CLK;
    int kvh = c->num_key_value_heads > 0 ? c->num_key_value_heads : c->num_attention_heads;
    if (!wl->trt_xqa_block || wl->engine != DLP_LLM_ENGINE_TRTLLM || !wl->offline || !is_nvidia(d) ||
        c->kv_lora_rank > 0 || kvh >= c->num_attention_heads || !(bpc > 0) || !(d->boost_clock_mhz > 0))
        return 0;
    return bpc * d->boost_clock_mhz * 1e6;
}

/* TensorRT-LLM 0.11's host time per layer per step (h222, a what-if off by
 * default): LLM-Inference-Bench's A100 / H100 runs (wl->trt_xqa_block: the
 * workload says 0.11 ran) take a per-step excess over the modelled GPU step
 * that is flat in the batch, the context and TP and grows with the layers
 * (h206; docs/llm.md "h222"), as a step whose kernels the host issues one
 * by one would: their ModelRunnerCpp runs without cuda_graph_mode, whose
 * default is off (ExtendedRuntimePerfKnobConfig).  Charged as engine CPU
 * time (the GPU at its floor meanwhile), so power and energy follow.  No
 * source gives the size: dlp__llm_knob.trt011_layer_ms, ms per layer, is set by
 * the bench's --trt011-layer-ms only; 0 (the default) nothing moves. */
static double trt011_host_s(const dlp_llm_workload *wl, const dlp_llm_config *c) {
    if (!wl->trt_xqa_block || wl->engine != DLP_LLM_ENGINE_TRTLLM || !wl->offline ||
        !(dlp__llm_knob.trt011_layer_ms > 0))
        return 0;
    return dlp__llm_knob.trt011_layer_ms * 1e-3 * (double)c->num_hidden_layers;
}

static double trt_cta_rate(const dlp_device *d, const dlp_llm_workload *wl, const dlp_llm_config *c) {
    double bpc = dlp__llm_knob.trt_cta_bpc != 0 ? dlp__llm_knob.trt_cta_bpc : DLP__LLM_TRT_CTA_BYTES_PER_CLK;
    if (wl->engine != DLP_LLM_ENGINE_TRTLLM || !wl->offline || !is_nvidia(d) || c->kv_lora_rank > 0 || !(bpc > 0) ||
        !(d->boost_clock_mhz > 0))
        return 0;
    return bpc * d->boost_clock_mhz * 1e6;
}

/* The trtllm-gen MXFP4 kernel's three terms for this prediction (above
 * dlp__llm_trtgen_mxfp4_pad): the padding's factor, the fused block, the
 * FP8 peak the prefill fit reads.  After s->moe_tp. */
static void trtgen_setup(sctx *s, const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *wl) {
    int gen = c->num_experts > 0 && trtgen_mxfp4(d, wl->quant, wl->engine), tc8;
    double I = (double)(c->moe_intermediate_size > 0 ? c->moe_intermediate_size : c->intermediate_size);
    s->mxfp4_pad = gen ? dlp__llm_trtgen_mxfp4_pad(d, wl->quant, wl->engine, (double)c->hidden_size, I, s->moe_tp) : 1.0;
    s->trtgen_fused = gen && (dlp__llm_knob.trtgen_mxfp4 & 2);
    s->trtgen_pf_peak = gen && (dlp__llm_knob.trtgen_mxfp4 & 4)
                            ? dlp__node_peak(d, DLP_OPC_GEMM, DLP_DT_FLOAT8E4M3FN, DLP_TF32_OFF, &tc8)
                            : 0;
}

static dlp_status serve_setup(sctx *s, const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *wl,
                              int cdt, double kv_eb, dlp_error *err) {
    s->c = c;
    s->d = d;
    int64_t chunk;
    dlp__llm_engine_defaults(d, wl, &chunk, &s->max_seqs);
    s->chunk = (double)chunk;
    s->n_gpus = wl->n_gpus > 1 ? wl->n_gpus : 1;
    s->engine = wl->engine;
    s->attn_dp = wl->attn_dp > 1 ? wl->attn_dp : 1;
    s->ep = wl->ep > 1 ? wl->ep : 1;
    /* what the model lacks first: a dense model has no experts to spread,
     * and attention data parallelism only pays beside an expert-parallel
     * MoE (a dense model's MLP would be replicated: run replicas) */
    if (s->ep > 1 && c->num_experts <= 0)
        return dlp__err(err, DLP_EINVAL, "%s: ep %d: the model has no experts (expert parallelism needs MoE)", c->id,
                        s->ep);
    if (s->attn_dp > 1 && c->num_experts <= 0)
        return dlp__err(err, DLP_EINVAL,
                        "%s: attention-dp %d: the model has no experts (attention DP serves MoE layers; a dense model "
                        "runs as %d replicas instead)", c->id, s->attn_dp, s->attn_dp);
    if (s->n_gpus % s->attn_dp || s->n_gpus % s->ep)
        return dlp__err(err, DLP_EINVAL, "%s: attention-dp %d and ep %d must divide gpus %d", c->id, s->attn_dp, s->ep,
                        s->n_gpus);
    dlp_status st = expert_slots_setup(s, c, wl, err);
    if (st) return st;
    /* the fixed part, and the per-step handoff to each further GPU's
     * worker process (ENGINE_CPU worker_ms; none for modern engines) */
    const engine_cpu_t *cpu = wl->offline ? &ENGINE_CPU[wl->engine].offline : &ENGINE_CPU[wl->engine].served;
    s->ov_fixed = (cpu->fixed_ms + cpu->worker_ms * (s->n_gpus - 1)) * 1e-3 + trt011_host_s(wl, c);
    s->ov_seq = cpu->seq_ms * 1e-3;
    s->gpu_x = rocm_offline_gpu_x(d, wl);
    s->gemm_rate = rocm_gemm_rate(d, s->gpu_x);
    s->cta_rate = trt_cta_rate(d, wl, c);
    s->xqa_rate = trt_xqa_rate(d, wl, c);
    s->eager_s = wl->eager ? EAGER_LAYER_MS * 1e-3 * (double)c->num_hidden_layers : 0;
    s->ctx_host_s = wl->ctx_host_ms > 0 ? wl->ctx_host_ms * 1e-3 : 0;
    s->same_prompts = wl->same_prompts != 0;
    s->prefill_steps = wl->engine == DLP_LLM_ENGINE_VLLM_V0;
    /* MTP (llm.c checked depth and acceptance): none is q = draft = yield 1 */
    s->spec_q = 1.0 + (double)wl->spec_tokens;
    s->spec_draft = c->num_hidden_layers > 0
                        ? ((double)c->num_hidden_layers + (double)wl->spec_tokens) / (double)c->num_hidden_layers
                        : 1.0;
    s->spec_yield = 1.0 + wl->spec_accepted;
    s->tp_attn = s->n_gpus / s->attn_dp;
    s->ar1 = ar_oneshot_fit(d, wl->engine, s->tp_attn, &s->ar1_gbs);
    s->moe_tp = s->n_gpus / s->ep;
    trtgen_setup(s, c, d, wl);
    s->kv_eb = kv_eb;
    /* what the cache holds at no context: 2 kv(1) - kv(2) (linear in the
     * context for attention layers, windows included at these lengths) */
    s->state_elems = fmax(0.0, 2.0 * kv_elems(s, 1) - kv_elems(s, 2));
    int64_t nkv = c->num_key_value_heads > 0 ? c->num_key_value_heads : c->num_attention_heads;
    s->kv_shard = dlp__llm_kv_shard(c, s->tp_attn);
    /* attention FLOPs per cached element: GQA 2 (heads / kv heads) (QK^T and
     * PV over k and v); MLA absorbed 4 heads over the latent (+ rope key) */
    double nh = (double)c->num_attention_heads;
    s->attn_flops_per_elem = c->kv_lora_rank > 0 ? 4.0 * nh / (double)s->tp_attn
                                                 : 2.0 * nh / (double)nkv;
    s->pf_flops_per_elem = mla_prefill_flops_per_elem(c, s->tp_attn, s->attn_flops_per_elem);
    int prec = dlp__prec_of_dtype(cdt);
    int tc;
    s->peak_mm = dlp__node_peak(d, DLP_OPC_GEMM, cdt, DLP_TF32_OFF, &tc);
    s->cv_gemm = &dlp__kcurve_get(tc ? prec : DLP__PREC_FP32, DLP_KC_GEMM)->c;
    /* a decode GEMM of a few rows lies far below the fp32 curve's data:
     * held at the ridge, its time is its weights' bytes (docs/llm.md) */
    s->gemm_vmin = tc ? -INFINITY : 0;
    /* attention runs at 16 bits even with fp8 weights (the cache dtype
     * aside): FlashAttention/FlashInfer on the half tensor cores */
    s->adt = dlp_quant_act_dtype(wl->quant);
    s->keep16 = wl->quant == DLP_QT_NVFP4 && c->num_experts > 0;
    s->peak_mm16 = dlp__node_peak(d, DLP_OPC_GEMM, s->adt, DLP_TF32_OFF, &tc);
    s->cv_gemm16 = &dlp__kcurve_get(tc ? dlp__prec_of_dtype(s->adt) : DLP__PREC_FP32, DLP_KC_GEMM)->c;
    s->peak_vec = dlp_device_peak_flops(d, DLP_DT_FLOAT, 0);
    double p_attn = dlp__node_peak(d, DLP_OPC_MATMUL, s->adt, DLP_TF32_OFF, &tc);
    s->cv_attn = &dlp__kcurve_get(tc ? dlp__prec_of_dtype(s->adt) : DLP__PREC_FP32, DLP_KC_ATTN)->c;
    s->mla_dec_rate = mla_dec_setup(c, d, kv_eb, s->peak_mm16);
    s->cv_elem = &dlp__kcurve_get(DLP__PREC_FP32, DLP_KC_ELEMENTWISE)->c;
    s->bw = d->mem_bandwidth_gbs * 1e9;
    /* the activation's own fp8 quantisation kernel per GEMM, where the
     * engine does not fuse it (W8A8 only: weight-only fp8 keeps 16-bit
     * activations) */
    s->gemm_extra_s = wl->quant == DLP_QT_FP8 && cdt == DLP_DT_FLOAT8E4M3FN && wl->engine != DLP_LLM_ENGINE_TRTLLM
                          ? FP8_ACT_QUANT_US * 1e-6
                          : 0;
    s->moe_fit = c->num_experts > 0 ? moe_fit(dlp__llm_moe_kernel(d, wl->quant), wl->engine) : NULL;
    /* the trtllm-gen fit (T <= 32 a step) prices decode steps; a step with a
     * prompt (a thousand rows and more) is outside it, and there the tables'
     * trtllm-gen module (SGLang's and vLLM's FlashInfer rows of
     * tools/moe/aic_moe_prefill.csv: 0.40 ms at 1,024 tokens of DeepSeek-V3's
     * layer at TP 8) sits nearer the DEEPGEMM fit's 0.51 ms than this fit's
     * 0.28: the engine's fit stays for those steps */
    /* TensorRT-LLM's block-fp8 experts on Blackwell run DeepGEMM, not the
     * Hopper CUTLASS kernel the pooled row also fits (MOE_FITFP8_TRT_BW) */
    if (s->moe_fit == MOE_FITFP8[DLP_LLM_ENGINE_TRTLLM] && d->cc_major >= 10) s->moe_fit = MOE_FITFP8_TRT_BW;
    s->moe_fit_pf = s->moe_fit;
    s->moe_fit = moe_fit_grouped(moe_fit_hits(s->moe_fit, s->ep, d), d);
    int sgl_fi = sgl_moe_fi(d, wl, s->attn_dp, s->ep);
    if (s->moe_fit && (trtllm_gen_fp8(d, wl) || (sgl_fi & 2))) s->moe_fit = MOE_FITFP8_TRTGEN;
    s->moe_pf = c->num_experts > 0 ? moe_pf_fit(d, dlp__llm_moe_kernel(d, wl->quant), wl->engine) : NULL;
    if (s->moe_pf && (sgl_fi & 1)) s->moe_pf = MOE_PF_SGL_FI;
    moe_pf_rows_setup(s, d, dlp__llm_moe_kernel(d, wl->quant), wl->engine);
    s->mla_pf = mla_pf_fit(c, d, wl->quant, cdt, wl->engine);
    s->mla_gen = mla_gen_fit(c, d, wl->quant, cdt, wl->engine);
    s->dsa_gen = dsa_gen_fit(c, d, wl->quant, wl->engine);
    s->sgl_fmha = sgl_fmha_fit(c, d, wl->engine, kv_eb);
    s->max_prefill = (double)wl->max_prefill_tokens;
    s->a2a_none = wl->sglang_a2a_none != 0;
    s->w4m = c->num_experts > 0 ? w4_math(d, wl->quant, wl->engine) : NULL;
    s->nv4_gemm = nv4_gemm_fit(d, wl->quant, cdt, wl->engine);
    s->a2a_db = cdt == DLP_DT_FLOAT8E4M3FN ? A2A_FP8_BYTES : cdt == DLP_DT_FLOAT4E2M1 ? A2A_FP4_BYTES : 0;
    s->fused_elem = fused_elem_on(s);
    s->fp4_ew = trt_fp4_ew_on(s, wl->quant);
    if (s->peak_mm <= 0 || s->bw <= 0 || p_attn <= 0)
        return dlp__err(err, DLP_EINVAL, "%s: device %s has no peak or bandwidth", c->id, d->id);
    return DLP_OK;
}

/* What the memory leaves room for: per GPU the weights, the activation
 * workspace, one sequence's cache and the cache space; and how many
 * requests run at once. */
typedef struct {
    double frac;               /* the engine's share of GPU memory                */
    double vparams;            /* vision tower parameters                         */
    double wgpu, act;          /* weights and activation workspace per GPU        */
    double avail;              /* bytes left for the KV cache per GPU             */
    double seq_bytes;          /* one sequence of S + G tokens' cache, one GPU    */
    int64_t S, G;              /* prompt (with image tokens) and output tokens    */
    int64_t max_c;             /* sequences of S + G the cache holds              */
    int64_t C, R;              /* clients, and sequences running at once          */
    double pre;                /* share of running sequences preempted once       */
} serve_plan;

/* The cache's bytes per GPU of `total`, with `used` taken by the weights
 * and the activation workspace, at the engine's memory fraction.  vLLM
 * (gpu_memory_utilization) and SGLang (mem_fraction_static) give the
 * fraction of all the GPU's memory to weights, workspace and cache
 * together; TensorRT-LLM's kv_cache_config.free_gpu_memory_fraction
 * (default 0.9) is the share of the memory still free once the model is
 * loaded and its activations profiled ("the fraction of free GPU memory
 * ... for the KV cache", KvCacheConfig; docs/llm.md "TensorRT-LLM's KV
 * fraction").  Served only (trtllm-serve's PyTorch executor, which
 * profiles its activations before it sizes the cache): the offline batches
 * of LLM-Inference-Bench ran TensorRT engines (0.11 / 0.12) whose build-
 * time buffers for max_batch_size x max_input_len the workspace here does
 * not size, and there the free share over-fills the cache (A100 tokens/s
 * 21.0 -> 25.0 %), so they keep the share of the whole.  The runtime
 * slack is out of both. */
static double kv_avail_bytes(const dlp_llm_workload *wl, double frac, double total, double used) {
    double slack = SLACK_GIB * 1073741824.0;
    if (wl->engine == DLP_LLM_ENGINE_TRTLLM && !wl->offline) return frac * (total - used - slack);
    return frac * total - used - slack;
}

/* Memory per GPU (docs/llm.md, "Memory"; the same story as generate mode):
 * weights (the tower's in 16 bits), the activation workspace of a step (per
 * token of the one-token graph, MoE per routed token, an 8k-token chunk as
 * the engine profiles it), runtime slack, and the cache in what is left of
 * the engine's fraction.  Refuses a model that does not fit at one request
 * or leaves no room for one sequence's cache. */
static dlp_status serve_memory(const sctx *s, const dlp_llm_workload *wl, serve_plan *m, dlp_llm_prediction *out,
                               dlp_error *err) {
    const dlp_llm_config *c = s->c;
    const dlp_device *d = s->d;
    const prof_t *p = s->p;
    double frac = m->frac = wl->mem_fraction > 0 ? wl->mem_fraction : DLP_LLM_MEM_FRACTION;
    m->vparams = (double)dlp_llm_vision_params(c);
    double wall = p->weight_bytes + slots_extra_bytes(s, p); /* weights, redundant experts with them */
    double wgpu = m->wgpu = (wall + m->vparams * p->act_bytes) / s->n_gpus;
    double act = m->act = dlp__llm_chunk_workspace(c, wl->quant, s->tp_attn, s->max_seqs, (int64_t)s->chunk);
    double avail = m->avail = kv_avail_bytes(wl, frac, d->memory_gib * 1073741824.0, wgpu + act);
    int64_t S = m->S = wl->seq + c->image_tokens, G = m->G = wl->gen_tokens > 0 ? wl->gen_tokens : 1;
    double seq_bytes = m->seq_bytes = dlp_llm_kv_bytes(c, S + G, s->kv_eb) / s->kv_shard; /* one sequence, one GPU */
    out->kv_cache_gib = avail > 0 ? gib(avail) : 0;
    /* one request at all: the breakdown and test generate mode makes at
     * batch 1 (dlp__llm_mem_need); the chunk workspace the engine reserves
     * on top sizes the cache below, and is said beside the breakdown */
    dlp__llm_mem_need(c, wl->quant, wall, s->kv_eb, s->n_gpus, s->tp_attn, 1, wl->seq, G, &out->need);
    out->need.workspace_mb = act / 1048576.0;
    if (out->need.total_mb > d->memory_gib * 1024.0) return dlp__llm_mem_refuse(c, d, s->n_gpus, &out->need, err);
    if (avail <= 0 || seq_bytes > avail)
        return dlp__err(err, DLP_EINVAL,
                        "%s: no room for the KV cache on %d x %s at memory fraction %.2f: %.1f GiB per GPU, weights "
                        "%.1f + activation workspace %.1f + runtime %.1f GiB; raise --mem-fraction, or use more gpus "
                        "or a smaller dtype", c->id, s->n_gpus, d->id, frac, frac * d->memory_gib, gib(wgpu), gib(act),
                        SLACK_GIB);
    return DLP_OK;
}

/* TensorRT-LLM admits a request only with room for its whole sequence,
 * prompt and every token it may generate, and never pauses one it started:
 * its capacity scheduler's default policy GUARANTEED_NO_EVICT (executor
 * SchedulerConfig; "Useful Runtime Options", TensorRT-LLM docs), where vLLM
 * admits on the tokens a sequence holds now and preempts (h185). */
static int no_evict(const dlp_llm_workload *wl) {
    return wl->engine == DLP_LLM_ENGINE_TRTLLM && !dlp__llm_knob.trt_evict;
}

/* Sequences of S + G the cache holds and its token count at that length
 * (sliding windows and Mamba states make bytes per token depend on it, so
 * "N tokens" is M x (S + G), never a one-token figure); clients vs running
 * sequences: the engine runs at most max_seqs (vLLM max_num_seqs) and what
 * the cache holds; more clients queue.  A cache sized for whole sequences
 * holds more of them at their mean live length S + G / 2, so vLLM admits
 * up to that many and preempts (recomputes) the ones that outgrow it. */
static void serve_concurrency(const sctx *s, const dlp_llm_workload *wl, serve_plan *m, dlp_llm_prediction *out) {
    const dlp_llm_config *c = s->c;
    const prof_t *p = s->p;
    double avail = m->avail, seq_bytes = m->seq_bytes, kv_eb = s->kv_eb;
    int64_t S = m->S, G = m->G;
    int64_t max_c = m->max_c = (int64_t)floor(avail / seq_bytes) * s->attn_dp;
    out->max_concurrency = max_c;
    double tok_bytes = dlp_llm_kv_bytes(c, 1, kv_eb) / s->kv_shard;
    if (fabs(seq_bytes - tok_bytes * (double)(S + G)) <= 1e-9 * seq_bytes)
        out->kv_capacity_tokens = (int64_t)floor(avail / tok_bytes) * s->attn_dp; /* bytes linear in tokens */
    else
        out->kv_capacity_tokens = max_c * (S + G);
    int64_t max_seqs = s->max_seqs;
    /* open-loop clients: the engine's slots are what can run at once */
    int64_t C = wl->max_fit ? (max_c < max_seqs ? max_c : max_seqs) : wl->rate > 0 ? max_seqs : wl->concurrency;
    if (C < 1) C = 1;
    double live_bytes = dlp_llm_kv_bytes(c, (int64_t)llround((double)S + (double)G / 2.0), kv_eb) / s->kv_shard;
    int64_t max_live = no_evict(wl) ? max_c : (int64_t)floor(avail / live_bytes) * s->attn_dp;
    int64_t R = C;
    if (R > max_seqs) R = max_seqs;
    /* a prefill worker hands each cache on after the prompt: its cache
     * bounds nothing here */
    if (R > max_live && wl->phase != DLP_LLM_PREFILL_ONLY) R = max_live;
    if (R < 1) R = 1;
    /* the share of running sequences preempted once, each recomputing its
     * prompt and half its output */
    double pre = R > max_c && wl->phase != DLP_LLM_PREFILL_ONLY ? 1.0 - (double)max_c / (double)R : 0.0;
    m->C = C, m->R = R, m->pre = pre;
    out->concurrency = C;
    out->running = R;
    out->params = (int64_t)p->params;
    out->active_params = p->active_params > 0 ? (int64_t)p->active_params : (int64_t)p->params;
    out->weights_mb = m->wgpu / 1048576.0;
    out->activations_mb = (m->act + fmin((double)R, (double)max_c) / s->attn_dp * seq_bytes) / 1048576.0;
    out->memory_mb = out->weights_mb + out->activations_mb + SLACK_GIB * 1024.0;
    out->fits = 1;
    out->kv_bytes_per_seq = dlp_llm_kv_bytes(c, S + G, kv_eb);
}

/* The iterations of the steady state and what they give: TTFT and TPOT of
 * the phase served, before queueing. */
typedef struct {
    itime dec;                 /* a decode-only step of the R running          */
    itime pf1;                 /* one prompt's prefill (and its tower) alone     */
    itime mix;                 /* the step whose time is TPOT (power too)       */
    double vis;                /* the vision tower, per request (s)             */
    double ttft, tpot;         /* seconds                                        */
    double rank_serve;         /* SGLang attention-DP prefill worker: a
                                  prompt's share of its rank's full step
                                  (sglang_rank_serve_s; 0: pf1)              */
    double wait, ride;         /* steady state: the step in flight an arrival
                                  waits for, and its prompt's prefill beside
                                  the running decodes (s)                       */
    double busy_share;         /* open loop: share of time a step runs         */
    itime cyc;                 /* what the clients' TPOT spans (power): the mixed
                                  step, or vllm-v0's decode step plus its share
                                  of the prompts' own steps                    */
} serve_times;

/* itime a x (1 - f) + b x f */
static itime itime_blend(const itime *a, const itime *b, double f) {
    itime r;
    r.t = a->t + f * (b->t - a->t);
    r.busy = a->busy + f * (b->busy - a->busy);
    r.bc = a->bc + f * (b->bc - a->bc);
    r.bm = a->bm + f * (b->bm - a->bm);
    r.comm = a->comm + f * (b->comm - a->comm);
    r.ovh = a->ovh + f * (b->ovh - a->ovh);
    r.bsm = a->bsm + f * (b->bsm - a->bsm);
    return r;
}

/* The mean step of an aggregated replica that prefills pf prompt tokens per
 * step on average.  A prompt arrives whole and the engine takes it in the
 * next step, in chunks of at most s->chunk; it is not spread over the G
 * steps of a generation.  So when fewer than a chunk's tokens arrive per
 * step, a share f of the steps carries a whole chunk (q tokens) and the rest
 * decode only.  Costing the spread-out mean instead (pf tokens in every
 * step) underprices the chunk's compute, which a decode's memory-bound
 * GEMMs hid, and overprices what is concave in the tokens: the experts a
 * step's rows hit (Kimi-K2.5, 4 clients, 8k prompts: 32 prompt tokens a
 * step made each step read 6.5x the experts of its 4 decodes). */
static itime mixed_step(const sctx *s, const itime *dec, double Rd, double ctx, double pf, double Sd) {
    if (pf <= 0) return *dec;
    double q = fmax(pf, fmin(Sd, s->chunk));
    itime full = iteration(s, Rd, ctx, q, Sd);
    return itime_blend(dec, &full, pf / q);
}

/* TensorRT-LLM's batch waiting (docs/llm.md, "Batch waiting"; PyExecutor
 * _schedule / _waiting_requests, options batch_wait_timeout_iters and
 * batch_wait_max_tokens_ratio): with sequences decoding (none: "no need to
 * wait, to avoid dead waiting") and attention DP off, the scheduler holds
 * the waiting prompts and counts iterations; it lets them in at the first
 * iteration where the count reaches the timeout or the iteration's tokens
 * (held prompts' + one per running sequence and draft) reach the threshold,
 * then the count starts again.  So a wait lasts k* = min(T, k_tok) decode
 * steps, k_tok the steps until the prompts arriving at a per step (R / G
 * requests end and are replaced, a closed loop) fill the threshold.  The
 * prompt that opens a wait waits k*; the a k* that arrive during it wait
 * k* / 2 on average.  Seconds of decode steps (dec_s each) beyond the step
 * in flight and the one already prepared (overlap).  Nothing fitted. */
static double batch_wait_s(const sctx *s, const dlp_llm_workload *wl, double Rd, double Sd, double Gd,
                           double dec_s) {
    if (wl->batch_wait_iters <= 0 || !(wl->batch_wait_tokens > 0) || Rd <= 1.0 || s->attn_dp > 1) return 0;
    double T = (double)wl->batch_wait_iters, a = Rd / Gd * s->spec_yield;
    double gen = (Rd - 1.0) * s->spec_q; /* one token per running sequence and draft */
    double short_by = wl->batch_wait_tokens - gen - Sd, k = T;
    if (short_by <= 0) k = 0;
    else if (a > 0) k = fmin(T, ceil(short_by / (Sd * a)));
    return k * (1.0 + 0.5 * a * k) / (1.0 + a * k) * dec_s;
}

/* SGLang's scheduler receive interval (--scheduler-recv-interval N;
 * python/sglang/srt/managers/scheduler_recv_skipper.py, SchedulerRecvSkipper:
 * each loop adds the last batch's weight, DECODE / TARGET_VERIFY / no batch 1,
 * any other mode (a prefill) 1000, and polls the tokenizer's socket only when
 * the sum reaches N, then starts again from 0).  With others decoding, the
 * readings come every N decode steps and a prompt sent at a random moment
 * waits for the next one: N / 2 steps on average, where the engine reading
 * every step waits the half step in flight already counted in serve_steady_
 * state, so (N - 1) / 2 decode steps more.  After a reading that brings
 * prompts the prefill's weight makes the next loop read again, and an idle
 * engine's empty loops reach N at once: a lone client (R = 1) never waits,
 * as the caller's R > 1 has it.  Nothing fitted. */
static double recv_skip_s(const dlp_llm_workload *wl, double dec_s) {
    return wl->recv_interval > 1 ? 0.5 * (double)(wl->recv_interval - 1) * dec_s : 0;
}

/* Leftovers (h178).  A release lets each rank's scheduler take its held
 * prompts only while they fit its max_num_tokens (per rank: each attention-DP
 * rank schedules on its own; whole prompts, no chunked prefill: h169), after
 * its running sequences' 1 + drafts tokens: k = floor((budget - R / N (1 +
 * drafts)) / S) prompts, at least one.  A rank left with more is, the next
 * iteration, again holding a prompt while the others mostly are not: its
 * leftovers wait for the next release (all ranks holding one, or the count).
 * Played iteration by iteration on N ranks with Poisson(a) arrivals (a fixed
 * seed: the same answer every call); the mean wait by Little's law (held
 * prompts summed over iterations / arrivals; one arriving within an iteration
 * is held half of it).  With k large the play gives the closed form's
 * E[tau^2] / (2 E[tau]); it is used only where a rank can collect more than
 * k prompts within a count (Poisson tail above 1e-3). */
static uint64_t adp_rng(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull); /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static int adp_poisson(uint64_t *x, double a) {
    double u = (double)(adp_rng(x) >> 11) * 0x1p-53, p = exp(-a), c = p;
    int n = 0;
    while (u > c && n < 64) p *= a / (double)++n, c += p;
    return n;
}
static double adp_leftover_iters(int N, double a, double m, int T, int k) {
    enum { MAXR = 256 };
    int q[MAXR] = {0}, count = 0;
    if (N > MAXR) N = MAXR;
    uint64_t x = 178;
    double area = 0, arrived = 0;
    long iters = 400000L / N;
    for (long t = 0; t < iters; t++) {
        int all = 1;
        for (int i = 0; i < N; i++) all &= q[i] > 0;
        if (all || ++count >= T) {
            count = 0;
            for (int i = 0; i < N; i++) q[i] -= q[i] < k ? q[i] : k;
        }
        for (int i = 0; i < N; i++) {
            /* a rank's requests end in proportion to those decoding:
             * its m clients less those it holds */
            int n = adp_poisson(&x, a * fmax(0.0, 1.0 - (double)q[i] / m));
            area += (double)q[i] + 0.5 * n, arrived += n, q[i] += n;
        }
    }
    return arrived > 0 ? area / arrived : 0;
}
static int adp_leftovers_matter(double a, int T, int k) {
    double m = a * T, p = exp(-m), c = p; /* P(Poisson(aT) <= k) */
    for (int n = 1; n <= k; n++) p *= m / n, c += p;
    return 1.0 - c > 1e-3;
}

/* TensorRT-LLM's attention-DP balance (attention_dp_config enable_balance,
 * timeout_iters T, batching_wait_iters 0; PyExecutor._balance_adp_requests,
 * and the TensorRT-LLM tech blog "ADP Balance Strategy", blog10): every
 * iteration the N attention-DP ranks all-gather their scheduled prompts and
 * decodes.  If every rank has a prompt (and a free slot) the prompts go in
 * and the count restarts; otherwise the prompts are held and the count, one
 * per iteration whether or not any rank holds a prompt, goes on until it
 * reaches T, when the held prompts go in and it restarts (also at once when
 * some rank has no decode: "no generation requests").  So prompts are let in
 * at tau = min(T, J) iterations after the last release, J the iteration by
 * which all N ranks hold one.  In the closed loop a = R / G x yield requests
 * end per iteration and each is replaced on the rank it left (the executor
 * gives a new request to the rank with the fewest active ones), a rank at
 * random: P(J <= j) = (1 - exp(-a j / N))^N.  A prompt arriving at a random
 * moment waits the rest of its interval, E[tau^2] / (2 E[tau]) iterations
 * (renewal-reward).  With no more clients than ranks a rank's only request
 * is replaced while the rank has no decode: no wait.  Nothing fitted. */
static double adp_balance_s(const sctx *s, const dlp_llm_workload *wl, double Rd, double Sd, double Gd, double dec_s) {
    double N = (double)s->attn_dp;
    if (wl->adp_balance_iters <= 0 || s->attn_dp <= 1 || Rd <= N) return 0;
    double a = Rd / Gd * s->spec_yield / N, e1 = 0, e2 = 0; /* per rank per iteration */
    double room = s->chunk - Rd / N * s->spec_q;
    int k = Sd > 0 && room >= Sd ? (int)fmin(floor(room / Sd), 1e6) : 1;
    if (adp_leftovers_matter(a, wl->adp_balance_iters, k))
        return adp_leftover_iters(s->attn_dp, a, Rd / N, wl->adp_balance_iters, k) * dec_s;
    for (int j = 0; j < wl->adp_balance_iters; j++) {
        double later = 1.0 - pow(1.0 - exp(-a * j), N); /* P(tau > j) */
        if (later < 1e-15) break; /* the rest adds nothing (a long timeout) */
        e1 += later, e2 += (2.0 * j + 1.0) * later;
    }
    return 0.5 * e2 / e1 * dec_s;
}

/* Waves in lockstep (docs/llm.md, "The gap-analysis dumps", h168).  A
 * benchmark that sends every request with the same prompt and output
 * length (aiconfigurator's genai-perf and aiperf runners: the lengths'
 * stddev 0, ignore_eos) against a prefill-first engine (prefill_first) keeps
 * its clients together for good: the wave's R prompts reach an idle engine
 * together, run in n_it prefill batches of bi.t back to back while no decode
 * runs, then the R sequences decode together for G - 1 tokens, end in the
 * same step and send the next wave together.  A decode-first engine spreads
 * the same wave (its requests start decoding one chunk apart and so end
 * apart), which the burst weight already covers.  So the mean TTFT is the
 * burst's, and a request prefilled in batch i waits the n_it - i batches
 * after its own before its first decode: TPOT = the decode step + the mean
 * wait (n_it bi.t - ttft_burst) over its G - 1 tokens.  Only where every
 * client runs (no queue, no preemption: those break the wave) and a served,
 * aggregated closed loop.  The power follows the cycle: n_it prefill
 * batches and (G - 1) / yield decode steps.  Nothing fitted. */
static int lockstep(const sctx *s, const dlp_llm_workload *wl, const serve_plan *m, const itime *dec,
                    const itime *bi, double n_it, double ttft_burst, double *tpot, itime *cyc) {
    if (!wl->fixed_lengths || !prefill_first(wl) || wl->phase != DLP_LLM_AGG || wl->offline || wl->rate > 0 ||
        s->prefill_steps || m->C != m->R || m->pre > 0 || m->G < 2)
        return 0;
    double steps = (double)(m->G - 1) / s->spec_yield;
    *tpot = dec->t / s->spec_yield + (n_it * bi->t - ttft_burst) / (double)(m->G - 1);
    *cyc = itime_blend(dec, bi, n_it / (n_it + steps));
    return 1;
}

/* What an offline batch's power is the mean over (issue 22, h202): a probe
 * around LLM.generate() / ModelRunnerCpp.generate() (LLM-Inference-Bench's
 * run_power.py and benchmark_power.py start NVML sampling before the call
 * and stop it after) spans the batch's prompts, run first in n_it batches
 * of bi, as well as its decodes: the cycle is n_it prompt batches and
 * (G - 1) / yield decode steps, time-weighted as lockstep's.  At 1,024-token
 * prompts and B 64 the prompts are 5-16 % of the run at near-peak math,
 * which the decode step alone lacks.  Nothing fitted. */
static itime offline_cycle(const sctx *s, const itime *mix, const itime *bi, double n_it, double Gd) {
    double steps = fmax(0.0, Gd - 1.0) / s->spec_yield;
    return n_it + steps > 0 ? itime_blend(mix, bi, n_it / (n_it + steps)) : *mix;
}

/* ---- closed-loop TTFT by iteration-level simulation (h145 prototype) ------
 * Off unless dlp__llm_knob.ttft_sim is set (bench_serving --ttft-sim): it would
 * replace the fitted burst/steady blend of the aggregated closed loop by the
 * run the benchmark makes.  R clients, each sending its next request when its
 * last one ends (request rate inf), W_WAVES x R requests, prompt S, outputs
 * drawn in [0.8 G, G] (sim_gen_steps).  A request reaches the engine req_s
 * after it is sent (the front end); the engine takes it from the step that
 * starts after it arrived, one step later under overlap scheduling
 * (overlap_steps; an idle engine at once).  Per step:
 *  - decode-first (vLLM V1, TensorRT-LLM): every decoding sequence's token,
 *    then prompts in arrival order up to the budget (the chunk);
 *  - prefill-first (SGLang): waiting prompts (up to the chunk) in a step of
 *    their own while the decodes pause; otherwise a decode step.
 * A prompt's first token comes at the end of the step that takes its last
 * chunk.  Step times from iteration() on a small grid (sim_grid), linear in
 * between; runs of decode-only steps are jumped over at once. */

/* not yet seen by the engine (a step count can be negative: an idle
 * engine's arrival counts as seen ov steps before step 0) */
#define SIM_UNSEEN LONG_MIN
#define SIM_ND 3
#define SIM_NP 4
typedef struct {
    double nd[SIM_ND], np[SIM_NP], t[SIM_ND][SIM_NP];
} sim_grid;

static void sim_grid_build(const sctx *s, double Rd, double ctx, double Sd, double vis, sim_grid *g) {
    double q = fmax(1.0, fmin(s->chunk, Sd * Rd));
    for (int i = 0; i < SIM_ND; i++) g->nd[i] = Rd * i / (SIM_ND - 1);
    g->np[0] = 0, g->np[1] = q / 8, g->np[2] = q / 2, g->np[3] = q;
    for (int i = 0; i < SIM_ND; i++)
        for (int j = 0; j < SIM_NP; j++)
            g->t[i][j] = (i || j) ? iteration(s, g->nd[i], ctx, g->np[j], Sd).t + vis * g->np[j] / Sd : 0;
}

static int sim_seg(const double *x, int n, double v, double *f) {
    int i = 0;
    while (i < n - 2 && v > x[i + 1]) i++;
    double w = x[i + 1] - x[i];
    *f = w > 0 ? (v - x[i]) / w : 0;
    return i;
}

static double sim_step(const sim_grid *g, double nd, double np) {
    double fa, fb;
    int a = sim_seg(g->nd, SIM_ND, nd, &fa), b = sim_seg(g->np, SIM_NP, np, &fb);
    double lo = g->t[a][b] + fb * (g->t[a][b + 1] - g->t[a][b]);
    double hi = g->t[a + 1][b] + fb * (g->t[a + 1][b + 1] - g->t[a + 1][b]);
    return lo + fa * (hi - lo);
}

typedef struct {
    long n;                    /* clients                                        */
    int *q;                    /* waiting or prefilling, in arrival order (ring) */
    int *d;                    /* decoding, in finishing order (ring)            */
    long qh, qt, dh, dt;
    double *arr, *rem;         /* arrival at the engine (s), prompt tokens left  */
    long *seen, *fin;          /* step the engine saw it in; decode steps at end */
    long steps, decs;          /* steps run, steps that decoded                  */
    double now, sum, S, req;   /* clock (s), TTFT sum, prompt, front end (s)     */
    long sent, firsts, total;
    double ov, G, yield;
} sim_t;

static void sim_send(sim_t *m, int i, double at) {
    if (m->sent >= m->total) return;
    m->sent++;
    m->arr[i] = at + m->req, m->rem[i] = m->S, m->seen[i] = SIM_UNSEEN;
    m->q[m->qt++ % m->n] = i;
}

/* the engine sees what arrived by now; eligible: seen ov steps before */
static int sim_eligible(sim_t *m) {
    for (long k = m->qh; k < m->qt; k++) {
        int i = m->q[k % m->n];
        if (m->arr[i] > m->now) break;
        if (m->seen[i] == SIM_UNSEEN) m->seen[i] = m->steps;
    }
    if (m->qh == m->qt) return 0;
    int h = m->q[m->qh % m->n];
    return m->seen[h] != SIM_UNSEEN && (double)(m->steps - m->seen[h]) >= m->ov;
}

/* decode steps of the next request's output.  With fixed lengths the waves
 * never part (h152: the sim then predicts 1.3-2.1x the measured TTFT at 2-64
 * clients, aggregated MAPE 97.9 %); benchmark_serving's random dataset with
 * --random-range-ratio r draws each output length uniformly in [r G, G]
 * (vLLM benchmarks/benchmark_serving.py sample_random_requests:
 * np.random.randint(int(output_len * range_ratio), output_len + 1);
 * InferenceMAX runs r = 0.8, docs/llm.md h145), and that spread staggers the
 * waves.  A golden-ratio sequence stands for the draws, so that a
 * prediction is deterministic. */
#define SIM_RANGE_RATIO 0.8
static long sim_gen_steps(sim_t *m) {
    double u = fmod((double)m->firsts * 0.6180339887498949, 1.0);
    double g = m->G * (SIM_RANGE_RATIO + (1.0 - SIM_RANGE_RATIO) * u);
    return (long)ceil(fmax(0.0, g - 1.0) / m->yield);
}

/* the decoding ring stays in finishing order: the new one moves back past
 * those that end after it */
static void sim_decode_insert(sim_t *m, int i) {
    long k = m->dt++;
    while (k > m->dh && m->fin[m->d[(k - 1) % m->n]] > m->fin[i]) {
        m->d[k % m->n] = m->d[(k - 1) % m->n];
        k--;
    }
    m->d[k % m->n] = i;
}

/* prompt tokens a step takes (up to budget, arrival order, eligible only);
 * with commit, the prompts done get their first token at `end` */
static double sim_take(sim_t *m, double budget, int commit, double end) {
    double used = 0;
    for (long k = m->qh; k < m->qt && used < budget; k++) {
        int i = m->q[k % m->n];
        if (m->seen[i] == SIM_UNSEEN || (double)(m->steps - m->seen[i]) < m->ov) break;
        double take = fmin(m->rem[i], budget - used);
        used += take;
        if (!commit) continue;
        m->rem[i] -= take;
        if (m->rem[i] > 0) continue;
        m->qh++;
        m->sum += end - m->arr[i], m->firsts++;
        m->fin[i] = m->decs + sim_gen_steps(m);
        sim_decode_insert(m, i);
    }
    return used;
}

/* requests whose last token came by decode step `decs` end at `end`; their
 * clients send the next */
static void sim_finish(sim_t *m, double end) {
    while (m->dh < m->dt && m->fin[m->d[m->dh % m->n]] <= m->decs) sim_send(m, m->d[m->dh++ % m->n], end);
}

/* decode-only steps while nothing can be taken: to the next end or the
 * step in which the next request arrives */
static void sim_jump(sim_t *m, const sim_grid *g) {
    long ndec = m->dt - m->dh;
    double dt = sim_step(g, (double)ndec, 0);
    long k = m->fin[m->d[m->dh % m->n]] - m->decs;
    if (m->qh < m->qt) k = (long)fmin((double)k, floor((m->arr[m->q[m->qh % m->n]] - m->now) / dt));
    if (k < 1) k = 1;
    m->now += (double)k * dt, m->decs += k, m->steps += k;
    sim_finish(m, m->now);
}

static void sim_one(sim_t *m, const sim_grid *g, double chunk, int pf_first) {
    double ndec = (double)(m->dt - m->dh), np, nd;
    if (pf_first) {
        np = sim_take(m, chunk, 0, 0), nd = np > 0 ? 0 : ndec;
    } else {
        nd = ndec, np = sim_take(m, fmax(0.0, chunk - nd), 0, 0);
    }
    double end = m->now + sim_step(g, nd, np);
    if (np > 0) sim_take(m, np, 1, end);
    if (nd > 0) m->decs++;
    m->steps++;
    m->now = end;
    sim_finish(m, end);
}

/* Mean engine part of TTFT (s) over the run, front end excluded. */
static double sim_ttft(const sctx *s, double Rd, double Sd, double Gd, double ctx, double vis, double req_s,
                       int pf_first) {
    sim_grid g;
    long n = (long)Rd;
    if (n < 1) return -1; /* no client: the caller keeps the blend */
    sim_grid_build(s, Rd, ctx, Sd, vis, &g);
    sim_t m = {.n = n, .S = Sd, .req = req_s, .total = (long)(W_WAVES * Rd), .ov = overlap_steps(s->engine)};
    m.G = Gd, m.yield = s->spec_yield;
    m.q = malloc(sizeof(int) * (size_t)n), m.d = malloc(sizeof(int) * (size_t)n);
    m.arr = malloc(sizeof(double) * (size_t)n), m.rem = malloc(sizeof(double) * (size_t)n);
    m.seen = malloc(sizeof(long) * (size_t)n), m.fin = malloc(sizeof(long) * (size_t)n);
    double mean = -1;
    if (m.q && m.d && m.arr && m.rem && m.seen && m.fin) {
        for (int i = 0; i < n; i++) sim_send(&m, i, 0);
        while (m.firsts < m.total) {
            int el = sim_eligible(&m);
            long ndec = m.dt - m.dh;
            if (!el && ndec == 0) {
                /* idle: the next arrival starts at once */
                int h = m.q[m.qh % m.n];
                if (m.arr[h] > m.now) m.now = m.arr[h];
                for (long k = m.qh; k < m.qt && m.arr[m.q[k % m.n]] <= m.now; k++) m.seen[m.q[k % m.n]] = m.steps - (long)m.ov;
                continue;
            }
            int pending = m.qh < m.qt && m.seen[m.q[m.qh % m.n]] != SIM_UNSEEN;
            if (!el && !pending && ndec > 0) sim_jump(&m, &g);
            else sim_one(&m, &g, s->chunk, pf_first);
        }
        mean = m.sum / (double)m.firsts;
    }
    free(m.q), free(m.d), free(m.arr), free(m.rem), free(m.seen), free(m.fin);
    return mean;
}

/* One prompt's prefill alone: a staggered arrival (the prefill worker's
 * steady TTFT) and every engine's TTFT floor.  Under TensorRT-LLM's
 * attention DP the executor hands each new request whole to one rank
 * (tensorrt_llm/_torch/pyexecutor/executor_request_queue.py,
 * _balance_requests_across_ranks: a heap over the ranks' active tokens), so
 * a lone prompt's attention and dense GEMMs run on that rank while the others
 * step dummies (_pad_attention_dp_dummy_request); its MoE rows still spread
 * over the EP ranks.  The first wave's steps, which fill every rank, keep the
 * even spread (docs/llm.md, h175; whole prompts there too was worse).
 * SGLang's prefill workers do the same by their own rule (sglang_adp_prompt,
 * h174, which also prices the MoE over the one rank's rows and the ranks'
 * gather); the two were written apart and are kept apart until a data set
 * separates them. */
static itime lone_prompt(const sctx *s, double Sd) {
    sctx one = *s;
    one.pf_whole = s->engine == DLP_LLM_ENGINE_TRTLLM && s->attn_dp > 1;
    return iteration(&one, 0, 0, Sd, Sd);
}

/* Prompt tokens one step of the first wave takes.  TensorRT-LLM does not
 * split a prompt unless enable_chunked_prefill is set (off by default,
 * tensorrt_llm/llmapi/llm_args.py): its micro-batch scheduler admits a
 * context request only whole, while its tokens fit what is left of
 * max_num_tokens (cpp/tensorrt_llm/batch_manager/microBatchScheduler.cpp),
 * so a step takes floor(chunk / S) prompts (docs/llm.md, h169); a prompt
 * longer than the budget, which the engine would refuse, is chunked as the
 * other engines do.  The others fill the budget, splitting the last prompt.
 * TensorRT-LLM's budget is a rank's own under attention DP (each rank runs
 * its scheduler on its own requests; h178): an aggregated step takes
 * floor(chunk / S) prompts on each of the DP ranks.  Prefill workers keep
 * one budget for all (per rank was worse there: docs/llm.md, h178). */
static double burst_step_tokens(const sctx *s, const dlp_llm_workload *wl, double burst, double Sd) {
    double ranks = s->engine == DLP_LLM_ENGINE_TRTLLM && wl->phase == DLP_LLM_AGG ? (double)s->attn_dp : 1.0;
    if (s->engine == DLP_LLM_ENGINE_TRTLLM && Sd > 0 && Sd <= s->chunk)
        return fmin(burst, floor(s->chunk / Sd) * Sd * ranks);
    return fmin(burst, s->chunk);
}

/* The rank's step under --moe-a2a-backend none (sglang_gathers, h219):
 * iteration() on the rank alone (attn_dp 1) charged each MoE layer an EP
 * dispatch and combine of its T tokens (ep_a2a_s, low-latency: what
 * ep_comm_kind gives a step without attention DP); the worker instead
 * gathers them to every GPU and sums the experts' output back by two
 * all-reduces of the T-token buffer over the dp ranks (adp_gather_s's
 * prompt-step form).  Swaps the one for the other in *it. */
static void rank_gather_swap(const sctx *s, const sctx *r, double T, itime *it) {
    const prof_t *p = s->p;
    double H = (double)s->c->hidden_size, K = (double)(s->c->experts_per_token > 0 ? s->c->experts_per_token : 1);
    double d = p->moe_layers * (2.0 * adp_gather_s(s, T, T) - ep_a2a_s(r, T * K / r->ep * H));
    it->t += d, it->comm += d;
}

/* k prompts of S tokens on one rank of an SGLang prefill worker under
 * attention DP: SGLang hands each request whole to one DP rank (its DP
 * controller's round_robin_scheduler / follow_bootstrap_room_scheduler; in
 * PD prefill mode round_robin means bootstrap_room % dp_size,
 * server_args.py), so that rank's attention GEMMs, prefill attention and
 * element-wise kernels run over all k S tokens at its own heads, where
 * iteration() spreads a step's tokens evenly over the ranks (right for a
 * step of many prompts on every rank, not for one rank's).  The MoE layers
 * see the same rows either way; the ranks' token gather before them is
 * kept as iteration() prices it.  The rank's attention module has at least
 * the time of SGLang's own wide-EP module table (MLA_PF[SGLANG], fp8
 * checkpoints' MLA; h180).  Seconds, one step. */
static itime sglang_rank_step(const sctx *s, double S, double k) {
    sctx r = *s;
    r.attn_dp = 1; /* the rank holding the prompts: every one of their tokens */
    r.parts = NULL;
    if (s->c->kv_lora_rank > 0 && s->c->index_topk <= 0 && is_nvidia(s->d) && s->p->quant == DLP_QT_FP8)
        r.mla_pf = MLA_PF[DLP_LLM_ENGINE_SGLANG][0];
    itime it = iteration(&r, 0, 0, k * S, S);
    const prof_t *p = s->p;
    if (p->moe_layers > 0 && s->ep <= 1) {
        double g = 2.0 * p->moe_layers *
                   coll_s(s->d, CO_ALLGATHER, s->attn_dp, k * S * (double)s->c->hidden_size * p->act_bytes / s->attn_dp);
        it.t += g, it.comm += g;
    }
    if (p->moe_layers > 0 && sglang_gathers(s)) rank_gather_swap(s, &r, k * S, &it);
    return it;
}

/* One prompt alone on its rank (h174): the lone client's step. */
static itime sglang_adp_prompt(const sctx *s, double S) { return sglang_rank_step(s, S, 1.0); }

/* SGLang's --max-prefill-tokens default (python/sglang/srt/server_args.py,
 * ServerArgs: max_prefill_tokens = 16384; docs.sglang.ai server arguments:
 * "the maximum number of tokens in a prefill batch").  Unlike
 * chunked_prefill_size, _handle_data_parallelism does not divide it by the
 * DP size: each rank's scheduler holds the whole of it. */
#define SGLANG_MAX_PREFILL_TOKENS 16384.0

/* Prompts of S tokens one prefill batch of a busy SGLang scheduler takes
 * (docs/llm.md, h186).  Its PrefillAdder (managers/schedule_policy.py,
 * add_one_req) starts from rem_input_tokens = max_prefill_tokens and
 * rem_chunk_tokens = chunked_prefill_size and takes waiting prompts whole
 * while they fit: a prompt after the first is refused when its tokens are
 * >= what is left of max_prefill_tokens ("input_tokens >=
 * self.rem_input_tokens and len(self.can_run_list) != 0"), and taken whole
 * only while they are <= what is left of the chunk.  So the i-th prompt
 * joins while i S < max_prefill_tokens and i S <= the chunk: k = min(
 * floor(chunk / S), ceil(M / S) - 1), at least 1; under attention DP the
 * chunk is the rank's (server_args.py _handle_data_parallelism:
 * chunked_prefill_size // dp_size, h180), M is not divided. */
static double sglang_batch_prompts(const sctx *s, double S) {
    if (!(S > 0)) return 1.0;
    double M = s->max_prefill > 0 ? s->max_prefill : SGLANG_MAX_PREFILL_TOKENS;
    double by_chunk = floor(s->chunk / s->attn_dp / S);
    double by_tokens = ceil(M / S) - 1.0;
    return fmax(1.0, fmin(by_chunk, by_tokens));
}

/* A prompt's share of a rank's step when every rank of a saturated SGLang
 * attention-DP prefill worker without expert parallelism holds k prompts
 * (docs/llm.md, h215).  The ranks step in lockstep: each forward gathers
 * every rank's tokens before the MoE (dp_attention.py dp_gather; an idle
 * rank still joins with an empty batch), and with expert-parallel-size 1
 * the experts are tensor-sharded, so every GPU runs its shard of the MoE
 * over all the ranks' rows: a busy rank's prompt waits out the step of
 * dp x k prompts (iteration(): the attention k S a rank, the MoE and the
 * gather over all), not its own alone.  Under DeepEP (ep > 1) the rank
 * keeps the lone price: the all-busy step there over-prices the GB200 /
 * GB300 rows (docs/llm.md, h215, a negative result); EP without an
 * all-to-all backend gathers as EP 1 does and takes this price too
 * (sglang_gathers, h219).  Seconds. */
static double sglang_busy_rank_s(const sctx *s, double S, double k) {
    return iteration(s, 0, 0, (double)s->attn_dp * k * S, S).t / k;
}

/* A prompt's share of its rank's step when the rank's queue is full: each
 * rank's scheduler takes k waiting prompts whole into one prefill batch
 * (sglang_batch_prompts), so each costs that step / k (what the bench's
 * per-rank queue serves a prompt in, h180).  lone: the prompt alone
 * (sglang_adp_prompt).  Seconds. */
static double sglang_rank_serve_s(const sctx *s, double S, double lone) {
    double k = sglang_batch_prompts(s, S);
    if (s->ep <= 1 || sglang_gathers(s)) return sglang_busy_rank_s(s, S, k);
    if (!(k >= 2)) return lone;
    return fmin(lone, sglang_rank_step(s, S, k).t / k);
}

/* The same for an SGLang prefill worker without attention DP (h186): one
 * scheduler, one queue; a busy worker runs k prompts a step over all its
 * GPUs (iteration() as the lone prompt's, lone_prompt), each costing that
 * step / k; the bench's queue of the worker serves a prompt in it. */
static double sglang_worker_serve_s(const sctx *s, double S, double lone) {
    double k = sglang_batch_prompts(s, S);
    if (!(k >= 2)) return lone;
    return fmin(lone, iteration(s, 0, 0, k * S, S).t / k);
}

/* TTFT of closed-loop clients (what serving benchmarks run, and what
 * --concurrency means).  The first wave arrives together: its R S prompt
 * tokens go in chunks, the i-th request done after i of them.  Afterwards
 * arrivals are spread by the staggered completions: a request waits for
 * the step in flight (none at R = 1: the engine is idle when the lone
 * client sends) and its prompt rides beside the other R - 1 decodes and
 * the prompt tokens other arrivals bring.  The mean over a run of W_WAVES
 * waves weights the burst 1 / W_WAVES.  Then per phase: a prefill worker
 * (prompts in full chunks, no decodes), a decode worker (the caches arrive
 * prefilled), or both mixed. */
static void serve_steady_state(const sctx *s, const dlp_llm_workload *wl, const serve_plan *m, double Rd,
                               serve_times *t, dlp_llm_prediction *out) {
    double Sd = (double)m->S, Gd = (double)m->G, pre = m->pre;
    double ctx = Sd + Gd / 2.0; /* the mean live context over a generation */
    itime dec = iteration(s, Rd, ctx, 0, 0);
    itime pf1 = lone_prompt(s, Sd);
    /* the vision tower runs once per request, before its prompt's prefill */
    double vbusy, vis = dlp__llm_vision_s(s->c, s->d, s->adt, s->c->image_tokens, s->tp_attn, &vbusy);
    pf1.t += vis;
    pf1.bc += vbusy;
    pf1.busy += vbusy;
    double ttft, tpot;
    itime mix;
    double burst = Rd * Sd, bstep = burst_step_tokens(s, wl, burst, Sd), n_it = ceil(burst / bstep);
    itime bi = iteration(s, 0, 0, bstep, Sd);
    bi.t += vis * fmin(burst, s->chunk) / Sd;
    double ttft_burst = bi.t * (n_it + 1.0) / 2.0;
    /* per step R / G requests end and as many prompts come in; under MTP a
     * step brings each sequence 1 + accepted tokens, so that many times more */
    double pf_per_step = (Rd * Sd / Gd + Rd * pre * (Sd + Gd / 2.0) / Gd) * s->spec_yield;
    double others = fmin((Rd - 1.0) * Sd / Gd * s->spec_yield, s->chunk);
    double nck = ceil(Sd / s->chunk);
    itime ride = iteration(s, Rd - 1.0, ctx, Sd / nck + others, Sd);
    /* the step in flight (half of one on average) and, under overlap
     * scheduling, the step already prepared without the new request */
    t->wait = 0.5 * (dec.t + vis * Rd / Gd) + overlap_steps(wl->engine) * dec.t;
    if (wl->phase == DLP_LLM_AGG && !wl->offline)
        t->wait += batch_wait_s(s, wl, Rd, Sd, Gd, dec.t) + recv_skip_s(wl, dec.t) +
                   adp_balance_s(s, wl, Rd, Sd, Gd, dec.t);
    t->ride = (ride.t + vis * (1.0 + others / Sd)) * nck;
    double ttft_steady = (Rd > 1 ? t->wait : 0) + t->ride;
    double wb = burst_weight(wl);
    double ttft_mean = ttft_burst * wb + ttft_steady * (1.0 - wb);
    out->ttft_burst_ms = ttft_burst * 1e3, out->ttft_steady_ms = ttft_steady * 1e3;
    if (wl->phase == DLP_LLM_PREFILL_ONLY) {
        /* a prefill worker: its clients arrive at the pace the decode side
         * lets them (the disaggregated measurements show TTFT near a
         * prompt's prefill at any client count), so the TTFT is the
         * burst/staggered mean; its requests/s is bounded by the round of
         * R prompts back to back */
        mix = bi;
        /* SGLang's attention DP: the prompt alone on the rank it was handed
         * (also the worker's prefill_ms, which the bench's per-rank queue
         * reads: bench/disagg_wait.h adp_rank_queue_ms) */
        if (s->engine == DLP_LLM_ENGINE_SGLANG && s->attn_dp > 1) {
            pf1 = sglang_adp_prompt(s, Sd);
            pf1.t += vis, pf1.bc += vbusy, pf1.busy += vbusy;
            t->rank_serve = sglang_rank_serve_s(s, Sd, pf1.t - vis) + vis;
        } else if (s->engine == DLP_LLM_ENGINE_SGLANG) {
            /* one queue for the worker (the bench's adp_rank_queue, dp 1) */
            t->rank_serve = sglang_worker_serve_s(s, Sd, pf1.t - vis) + vis;
        }
        double handoff = kv_handoff_s(s, Sd);
        out->kv_handoff_ms = handoff * 1e3;
        ttft = ttft_burst / W_WAVES + ((Rd > 1 ? 0.5 * bi.t : 0) + pf1.t) * (1.0 - 1.0 / W_WAVES) + handoff;
        out->round_ms = Rd * Sd / fmin(burst, s->chunk) * bi.t * 1e3;
        tpot = 0;
    } else if (wl->phase == DLP_LLM_DECODE_ONLY) {
        /* a step gives every sequence 1 + accepted tokens (MTP; 1 without) */
        mix = dec;
        tpot = dec.t / s->spec_yield;
        ttft = 0;
    } else if (wl->offline) {
        /* one batch submitted at once (LLM.generate()): its R S prompt
         * tokens run first, in n_it chunks (every engine's scheduler takes
         * waiting prompts before, or chunked beside, the decodes: the batch
         * decodes when its last prompt is in), then the batch decodes with
         * no prompt arriving; only preempted sequences recompute */
        mix = mixed_step(s, &dec, Rd, ctx, Rd * pre * (Sd + Gd / 2.0) / Gd * s->spec_yield, Sd);
        tpot = mix.t / s->spec_yield;
        ttft = bi.t * n_it;
    } else if (s->prefill_steps) {
        /* vLLM <= 0.5 (no chunked prefill): after a decode step in which a
         * request ended (probability 1 - exp(-R / G)) the waiting prompts run
         * in a step of their own, and that step's CPU side walks every
         * running sequence as a decode step does (its fixed part aside).  The clients' TPOT has
         * those stalls in it; the decode step alone is what
         * ML.ENERGY reports as TPOT (its tok/s x TPOT / batch falls to 0.5
         * at a thousand sequences) */
        double k = 1.0 - exp(-Rd * (1.0 + pre) / Gd);
        itime ps = iteration(s, 0, 0, pf_per_step / k, Sd);
        double walk = s->ov_seq * fmax(0.0, Rd - pf_per_step / k / Sd) / s->attn_dp;
        /* the fixed part and the workers' handoff are the decode step's:
         * at 32 running on 8 GPUs (k about 0.07) the leaderboard's tok/s x
         * TPOT / batch is 0.99-1.00, where a prompt step carrying them
         * (~100 ms) would make it 0.93; the walk and the prompt's GPU time
         * stay (tok/s 16.5 -> 10.6 % MAPE there) */
        ps.t += walk + vis * Rd / Gd / k - s->ov_fixed;
        mix = dec;
        /* the power of the whole cycle: the decode step and k of a prompt
         * step, whose prefill math (and towers) the decode step alone lacks
         * (leaderboard energy 17.8 -> 16.6 %; the refit floor 0.302) */
        t->cyc = dec;
        t->cyc.t += k * ps.t, t->cyc.bm += k * ps.bm, t->cyc.bsm += k * ps.bsm, t->cyc.bc += k * ps.bc + vbusy * Rd / Gd;
        tpot = dec.t + k * ps.t;
        ttft = ttft_mean;
    } else {
        /* R S / G prompt tokens a step on average (and what preempted
         * sequences recompute), taken whole in a share of the steps
         * (mixed_step), and R / G requests' towers */
        double towers = Rd / Gd * s->spec_yield;
        mix = mixed_step(s, &dec, Rd, ctx, pf_per_step, Sd);
        mix.t += vis * towers;
        mix.bc += vbusy * towers;
        mix.busy += vbusy * towers;
        tpot = mix.t / s->spec_yield;
        ttft = ttft_mean;
        if ((out->lockstep = lockstep(s, wl, m, &dec, &bi, n_it, ttft_burst, &tpot, &mix))) ttft = ttft_burst;
        double sim = !out->lockstep && dlp__llm_knob.ttft_sim && wl->rate <= 0
                         ? sim_ttft(s, Rd, Sd, Gd, ctx, vis, ENGINE_CPU[wl->engine].req_ms * 1e-3, prefill_first(wl))
                         : -1;
        if (sim >= 0) ttft = sim; /* -1: off, no client or out of memory */
    }
    if (wl->phase != DLP_LLM_DECODE_ONLY && ttft < pf1.t) ttft = pf1.t;
    /* an offline batch's power spans its whole generate(): the n_it prompt
     * batches first, then the (G - 1) / yield decode steps (offline_cycle) */
    if (wl->offline && wl->phase == DLP_LLM_AGG) t->cyc = offline_cycle(s, &mix, &bi, n_it, Gd);
    else if (!s->prefill_steps || wl->phase != DLP_LLM_AGG) t->cyc = mix;
    t->dec = dec, t->pf1 = pf1, t->mix = mix;
    t->vis = vis, t->ttft = ttft, t->tpot = tpot;
}

/* Mean wait for one of c slots in an M/G/c queue of offered load a = lambda
 * x service time (Erlang C, by the Erlang B recursion, which stays in
 * [0, 1]), scaled by (1 + cs^2) / 2 with cs^2 = 0 (Allen-Cunneen): every
 * request runs the same prompt and output, so its time in a slot hardly
 * varies.  Seconds; a < c is the caller's promise. */
static double slot_wait_s(double c, double a, double service_s) {
    double b = 1.0;
    for (int64_t k = 1; k <= (int64_t)c; k++) b = a * b / ((double)k + a * b);
    double rho = a / c, erlang_c = b / (1.0 - rho * (1.0 - b));
    double w = erlang_c * service_s / (c - a) * 0.5;
    return w > 1e-9 ? w : 0; /* below a nanosecond: none (no 1e-255 in the JSON) */
}

/* The steady state at n running (fractional: a mean), preempting what the
 * cache cannot hold, and its end-to-end time: the step in flight, the
 * prompt beside the decodes, the rest of the output. */
static double open_e2e(const sctx *s, const dlp_llm_workload *wl, const serve_plan *m, double n, serve_times *t,
                       dlp_llm_prediction *out) {
    serve_plan mm = *m;
    double run = fmax(1.0, n);
    mm.pre = run > (double)m->max_c ? 1.0 - (double)m->max_c / run : 0.0;
    serve_steady_state(s, wl, &mm, run, t, out);
    return fmin(1.0, n) * t->wait + t->ride + ((double)m->G - 1.0) * t->tpot;
}

/* Open-loop clients (docs/llm.md, "Client models"): Poisson arrivals at
 * wl->rate requests/s.  Continuous batching admits an arrival at the next
 * step while a slot is free, so the requests in flight N follow Little's
 * law, N = rate x e2e(N), with e2e from the iterations at N running (found
 * by bisection: e2e grows with N).  The replica's capacity is its full
 * running batch R over that batch's e2e; a rate at or past it has no
 * steady state and is refused with the capacity.  TTFT = the step in flight
 * (when one runs: PASTA, about min(1, N) of the time) + the prompt's prefill
 * beside the decodes + the wait for a slot (M/G/c over R slots), so TTFT
 * tends to one prompt's prefill as the rate goes to 0 and grows without
 * bound towards the capacity. */
static dlp_status serve_open_loop(const sctx *s, const dlp_llm_workload *wl, serve_plan *m, serve_times *t,
                                  double *queue, dlp_llm_prediction *out, dlp_error *err) {
    double lam = wl->rate, Rmax = (double)m->R;
    double e_full = open_e2e(s, wl, m, Rmax, t, out);
    double cap = Rmax / e_full;
    out->capacity_rps = cap;
    if (lam >= cap)
        return dlp__err(err, DLP_EINVAL,
                        "%s: rate %.4g req/s: overloaded: capacity %.4g req/s on %d x %s (%lld running, %lld-token "
                        "prompts, %lld out); lower --rate, or add GPUs or replicas", s->c->id, lam, cap, s->n_gpus,
                        s->d->id, (long long)m->R, (long long)m->S, (long long)m->G);
    double lo = 0, hi = Rmax;
    for (int i = 0; i < 48 && hi - lo > 1e-6 * Rmax; i++) {
        double n = 0.5 * (lo + hi);
        if (lam * open_e2e(s, wl, m, n, t, out) > n) lo = n;
        else hi = n;
    }
    double n = 0.5 * (lo + hi), e2e = open_e2e(s, wl, m, n, t, out);
    *queue = slot_wait_s(Rmax, fmin(lam * e2e, Rmax * (1.0 - 1e-9)), e2e);
    t->ttft = fmin(1.0, n) * t->wait + t->ride + *queue;
    if (t->ttft < t->pf1.t) t->ttft = t->pf1.t;
    t->busy_share = fmin(1.0, n);
    m->C = (int64_t)llround(fmax(1.0, n));
    m->R = m->C;
    m->pre = n > (double)m->max_c ? 1.0 - (double)m->max_c / n : 0.0;
    out->concurrency = m->C;
    out->running = m->R;
    return DLP_OK;
}

/* The profile and setup a serving estimate (and the per-part split) runs
 * on.  The language stack's profile is of one text token: image tokens are
 * text tokens to it (they only lengthen the prompt), and the tower is timed
 * on its own (llm_vision.c).  *p must outlive *s (s->p points at it). */
static dlp_status serve_ctx(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *wl, int cdt,
                            double kv_eb, prof_t *p, sctx *s, dlp_error *err) {
    dlp_llm_config ct = *c;
    ct.image_tokens = 0;
    dlp_status st = profile_get(&ct, wl->quant, p, err);
    if (st) return st;
    memset(s, 0, sizeof *s);
    s->p = p;
    return serve_setup(s, c, d, wl, cdt, kv_eb, err);
}

/* Batch waiting is TensorRT-LLM's scheduler option and needs both of its
 * limits (with either at 0 the engine lets the prompts in at once): refused
 * rather than ignored elsewhere, as MTP is. */
static dlp_status check_batch_wait(const dlp_llm_config *c, const dlp_llm_workload *wl, dlp_error *err) {
    if (wl->batch_wait_iters == 0 && wl->batch_wait_tokens == 0) return DLP_OK;
    if (wl->batch_wait_iters < 1 || !isfinite(wl->batch_wait_tokens) || !(wl->batch_wait_tokens > 0))
        return dlp__err(err, DLP_EINVAL, "%s: batch wait %d iterations, %g tokens: TensorRT-LLM waits only with both "
                        "a timeout (>= 1 iteration) and a token threshold (> 0)", c->id, wl->batch_wait_iters,
                        wl->batch_wait_tokens);
    if (wl->engine != DLP_LLM_ENGINE_TRTLLM)
        return dlp__err(err, DLP_EINVAL, "%s: batch wait is TensorRT-LLM's scheduler option (engine trtllm)", c->id);
    if (wl->phase != DLP_LLM_AGG || wl->offline)
        return dlp__err(err, DLP_EINVAL, "%s: batch wait holds prompts beside running decodes: aggregated, served "
                        "clients only", c->id);
    return DLP_OK;
}

/* The receive interval is SGLang's server option: refused rather than
 * ignored on another engine, as batch waiting is. */
static dlp_status check_recv_interval(const dlp_llm_config *c, const dlp_llm_workload *wl, dlp_error *err) {
    if (wl->recv_interval == 0) return DLP_OK;
    if (wl->recv_interval < 0 || wl->recv_interval > 1000000)
        return dlp__err(err, DLP_EINVAL, "%s: receive interval %d: give 1 to 1000000 decode steps", c->id,
                        wl->recv_interval);
    if (wl->engine != DLP_LLM_ENGINE_SGLANG)
        return dlp__err(err, DLP_EINVAL, "%s: the receive interval is SGLang's scheduler option (engine sglang)",
                        c->id);
    if (wl->phase != DLP_LLM_AGG || wl->offline)
        return dlp__err(err, DLP_EINVAL, "%s: the receive interval delays prompts beside running decodes: "
                        "aggregated, served clients only", c->id);
    return DLP_OK;
}

/* The attention-DP balance is TensorRT-LLM's option for attention-DP ranks:
 * refused rather than ignored elsewhere, as batch waiting is. */
static dlp_status check_adp_balance(const dlp_llm_config *c, const dlp_llm_workload *wl, dlp_error *err) {
    if (wl->adp_balance_iters == 0) return DLP_OK;
    if (wl->adp_balance_iters < 0 || wl->adp_balance_iters > 1000000)
        return dlp__err(err, DLP_EINVAL, "%s: attention-DP balance %d iterations: give 1 to 1000000", c->id,
                        wl->adp_balance_iters);
    if (wl->engine != DLP_LLM_ENGINE_TRTLLM)
        return dlp__err(err, DLP_EINVAL, "%s: the attention-DP balance is TensorRT-LLM's scheduler option (engine "
                        "trtllm)", c->id);
    if (wl->attn_dp <= 1)
        return dlp__err(err, DLP_EINVAL, "%s: the attention-DP balance holds prompts across attention-DP ranks: give "
                        "attention DP > 1", c->id);
    if (wl->phase != DLP_LLM_AGG || wl->offline)
        return dlp__err(err, DLP_EINVAL, "%s: the attention-DP balance holds prompts beside running decodes: "
                        "aggregated, served clients only", c->id);
    return DLP_OK;
}

/* The benchmark's fixed lengths and SGLang's mixed chunks shape how a closed
 * loop's prompts meet the decodes of one replica: aggregated served clients
 * only; mixed chunks are SGLang's option. */
static dlp_status check_waves(const dlp_llm_config *c, const dlp_llm_workload *wl, dlp_error *err) {
    if (!wl->fixed_lengths && !wl->mixed_chunk) return DLP_OK;
    if (wl->mixed_chunk && wl->engine != DLP_LLM_ENGINE_SGLANG)
        return dlp__err(err, DLP_EINVAL, "%s: mixed chunks are SGLang's scheduler option (engine sglang)", c->id);
    if (wl->phase != DLP_LLM_AGG || wl->offline)
        return dlp__err(err, DLP_EINVAL, "%s: %s how prompts meet running decodes: aggregated, served clients only",
                        c->id, wl->mixed_chunk ? "mixed chunks change" : "fixed lengths change");
    return DLP_OK;
}

/* SGLang's --max-prefill-tokens bounds the prompts one prefill batch of a
 * busy scheduler takes (sglang_batch_prompts), which the model prices on
 * SGLang prefill workers only (the worker's prefill_ms; docs/llm.md, h186):
 * refused rather than ignored on another engine or phase, as the receive
 * interval is. */
static dlp_status check_max_prefill(const dlp_llm_config *c, const dlp_llm_workload *wl, dlp_error *err) {
    if (wl->max_prefill_tokens == 0) return DLP_OK;
    if (wl->max_prefill_tokens < 0 || wl->max_prefill_tokens > ((int64_t)1 << 30))
        return dlp__err(err, DLP_EINVAL, "%s: max prefill tokens %lld: give 1 to 1073741824 tokens", c->id,
                        (long long)wl->max_prefill_tokens);
    if (wl->engine != DLP_LLM_ENGINE_SGLANG)
        return dlp__err(err, DLP_EINVAL, "%s: max prefill tokens is SGLang's server option (engine sglang)", c->id);
    if (wl->phase != DLP_LLM_PREFILL_ONLY)
        return dlp__err(err, DLP_EINVAL, "%s: max prefill tokens shapes the prefill batches of an SGLang prefill "
                        "worker, the only place it is modelled: phase prefill only", c->id);
    return DLP_OK;
}

/* An eager context iteration's host time (h208): a duration, aggregated
 * serving or a prefill worker (h226: a TensorRT-LLM context worker runs
 * context iterations only, none captured in a CUDA graph); a decode worker
 * runs no prompt steps, so it has none to pay. */
static dlp_status check_ctx_host(const dlp_llm_config *c, const dlp_llm_workload *wl, dlp_error *err) {
    if (wl->ctx_host_ms == 0) return DLP_OK;
    if (!(wl->ctx_host_ms > 0) || wl->ctx_host_ms > 1e4)
        return dlp__err(err, DLP_EINVAL, "%s: context-iteration host time %g ms: give 0 to 10,000 ms", c->id,
                        wl->ctx_host_ms);
    if ((wl->phase != DLP_LLM_AGG && wl->phase != DLP_LLM_PREFILL_ONLY) || wl->offline)
        return dlp__err(err, DLP_EINVAL, "%s: the context-iteration host time is read only for online serving "
                        "with prompt steps (aggregated or a prefill worker)", c->id);
    return DLP_OK;
}

/* The TRTLLM MoE backend is TensorRT-LLM's moe_config option. */
static dlp_status check_moe_backend(const dlp_llm_config *c, const dlp_llm_workload *wl, dlp_error *err) {
    if (wl->moe_trtllm_gen && wl->engine != DLP_LLM_ENGINE_TRTLLM)
        return dlp__err(err, DLP_EINVAL, "%s: the TRTLLM MoE backend is TensorRT-LLM's moe_config option (engine "
                        "trtllm)", c->id);
    return DLP_OK;
}

/* SGLang's front end per request on B300 (h248, a what-if, off by default:
 * dlp__llm_knob.sgl_b300_req_ms, bench --sgl-b300-req-ms).  Same engine
 * version, same script flags (InferenceX qwen3.5_fp8_b{2,3}00.sh): the
 * 0.5.9 Qwen3.5 fp8 runs at 1k / 1k and 4 clients measure 189 ms TTFT on
 * B300 and 338 ms on B200 (aiconfigurator silicon_sample.csv) while the
 * whole priced 1k prompt step is 48 ms on both, so the gap is not the GPU
 * step.  The B300 rows ran on another fleet (InferenceX configs/
 * runners.yaml: b300-nv_*, NVIDIA's hosts; B200 on b200-cw / -nb / -dgxc),
 * and SGLang's front end (tokenizer, scheduler and detokenizer processes)
 * is host time.  A per-fleet constant, fitted on one family's B300 SGLang
 * rows and held out on the other (docs/llm.md, h248). */
static double sgl_req_ms_of(const dlp_device *d, const dlp_llm_workload *wl) {
    double b300 = dlp__llm_knob.sgl_b300_req_ms;
    if (b300 > 0 && wl->engine == DLP_LLM_ENGINE_SGLANG && d && d->id && !strcmp(d->id, "b300")) return b300;
    return ENGINE_CPU[wl->engine].req_ms;
}

dlp_status dlp__llm_serve(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *wl, int cdt,
                          double kv_eb, dlp_llm_prediction *out, dlp_error *err) {
    prof_t p;
    dlp_status st;
    /* an offline batch is submitted at once: no arrival rate */
    if (wl->offline && wl->rate > 0)
        return dlp__err(err, DLP_EINVAL, "%s: offline and rate %g req/s are two client modes (a batch at once, "
                        "Poisson arrivals): give one", c->id, wl->rate);
    if ((st = check_batch_wait(c, wl, err)) || (st = check_recv_interval(c, wl, err)) ||
        (st = check_adp_balance(c, wl, err)) || (st = check_waves(c, wl, err)) ||
        (st = check_moe_backend(c, wl, err)) || (st = check_max_prefill(c, wl, err)) ||
        (st = check_ctx_host(c, wl, err)))
        return st;
    sctx s;
    serve_plan m = {0};
    if ((st = serve_ctx(c, d, wl, cdt, kv_eb, &p, &s, err)) || (st = serve_memory(&s, wl, &m, out, err))) return st;
    serve_concurrency(&s, wl, &m, out);
    out->max_seqs = s.max_seqs;
    out->chunk_tokens = (int64_t)s.chunk;

    /* steady state (docs/llm.md, "The iteration model") */
    serve_times t = {0};
    double queue = 0;
    if (wl->rate > 0) {
        if ((st = serve_open_loop(&s, wl, &m, &t, &queue, out, err))) return st;
    } else {
        serve_steady_state(&s, wl, &m, (double)m.R, &t, out);
    }
    /* the front end's part: every client-measured TTFT but a decode
     * worker's (its requests arrive prefilled); in the run a closed-loop
     * client repeats, so before the queueing below */
    out->request_ms = wl->phase == DLP_LLM_DECODE_ONLY || wl->offline ? 0 : sgl_req_ms_of(d, wl);
    double ttft = t.ttft + out->request_ms * 1e-3, tpot = t.tpot, Gd = (double)m.G, Rd = (double)m.R;
    int64_t C = m.C, R = m.R;
    /* clients beyond what runs wait in the queue: a closed loop of C
     * clients over R slots cycles every (C / R) x the run time */
    double run_e2e = ttft + (Gd - 1.0) * tpot;
    if (wl->phase == DLP_LLM_DECODE_ONLY) run_e2e = Gd * tpot;
    if (wl->phase == DLP_LLM_PREFILL_ONLY) {
        /* the round of R prompts, then the next R clients: a client's
         * first token comes a cycle after its request */
        if (C > R) ttft = fmax(ttft, out->round_ms * 1e-3) * (double)C / Rd;
    } else if (C > R && wl->rate <= 0) {
        ttft += run_e2e * ((double)C / Rd - 1.0);
    }
    out->serving = 1;
    out->prefill_ms = (t.rank_serve > 0 ? t.rank_serve : t.pf1.t) * 1e3;
    out->vision_ms = t.vis * 1e3;
    out->vision_params = (int64_t)m.vparams;
    out->decode_step_ms = t.dec.t * 1e3;
    out->comm_ms = t.mix.comm * 1e3;
    out->preempted = m.pre;
    out->queue_ms = queue * 1e3;
    out->overhead_ms = t.mix.ovh * 1e3;
    out->ttft_ms = out->ttft_analytic_ms = ttft * 1e3;
    out->tpot_ms = out->tpot_analytic_ms = tpot * 1e3;
    /* power follows load: idle plus the share of TDP the step's math and
     * memory traffic draw (utilisation of each, from the kernels' FLOPs and
     * bytes over the step's time); a memory-bound batch-1 decode draws
     * well under a compute-bound full batch */
    const itime *cyc = &t.cyc; /* over what the clients' TPOT spans: vllm-v0's
                                  prompt steps draw power too */
    double uc = cyc->t > 0 ? fmin(1.0, cyc->bc / cyc->t) : 0, um = cyc->t > 0 ? fmin(1.0, cyc->bm / cyc->t) : 0;
    /* open loop below one request in flight: the engine idles between
     * requests, busy about N of the time (N the mean in flight) */
    double duty = wl->rate > 0 ? fmin(1.0, t.busy_share) : 1.0;
    out->mem_util = duty * um;
    out->math_util = duty * uc;
    /* the power sees the SMs a decode-attention floor holds (floor_sm_draw)
     * beside the bytes; mem_util stays the bytes' */
    double usm = cyc->t > 0 ? fmin(1.0, (cyc->bm + cyc->bsm) / cyc->t) : 0;
    out->power_per_gpu_w = serve_power_w(d, wl->engine, duty * usm, out->math_util);
    dlp__llm_serve_derive(out, wl, s.n_gpus);
    out->energy_analytic_j = out->energy_j;
    snprintf(out->method_serving, sizeof out->method_serving, "analytic");
    return DLP_OK;
}

/* One iteration split by part, for a per-operator check against kernel
 * profiles (llm_internal.h; bench/bench_vidur.c): the same profile, setup
 * and iteration() the serving estimate runs, with iteration() writing what
 * each of its terms added.  Prints nothing and changes no estimate. */
dlp_status dlp__llm_iter_parts(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *wl, int cdt,
                               double kv_eb, double n_dec, double ctx, double n_pf, double pf_len,
                               dlp__llm_parts *out, dlp_error *err) {
    memset(out, 0, sizeof *out);
    prof_t p;
    sctx s;
    dlp_status st = serve_ctx(c, d, wl, cdt, kv_eb, &p, &s, err);
    if (st) return st;
    _Static_assert(DLP__LLM_PARTS_LIN >= MAX_LIN, "parts hold every profile entry");
    out->n_lin = p.n_lin;
    for (int i = 0; i < p.n_lin; i++) {
        out->lin_k[i] = p.lin[i].k;
        out->lin_n[i] = p.lin[i].n;
        out->lin_experts[i] = p.lin[i].experts;
        out->lin_count[i] = p.lin[i].count;
        out->lin_kind[i] = p.lin[i].kind;
    }
    out->attn_layers = p.attn_layers;
    out->tp_attn = s.tp_attn;
    s.parts = out;
    (void)iteration(&s, n_dec, ctx, n_pf, pf_len);
    return DLP_OK;
}

/* Everything that follows from TTFT, TPOT and power (called again after a
 * learned correction moves them). */
void dlp__llm_serve_derive(dlp_llm_prediction *out, const dlp_llm_workload *wl, int n_gpus) {
    double G = (double)(wl->gen_tokens > 0 ? wl->gen_tokens : 1), C = (double)out->concurrency;
    /* a disaggregated worker does its phase only: a prefill worker ends a
     * request at its first token, a decode worker starts from a filled cache */
    if (wl->phase == DLP_LLM_PREFILL_ONLY) out->e2e_ms = fmax(out->ttft_ms, out->round_ms);
    else if (wl->phase == DLP_LLM_DECODE_ONLY) out->e2e_ms = out->ttft_ms + G * out->tpot_ms;
    else out->e2e_ms = out->ttft_ms + (G - 1.0) * out->tpot_ms;
    out->latency_ms = out->e2e_ms;
    /* open loop: what arrives is served (the rate is under the capacity) */
    out->requests_per_s = wl->rate > 0 ? wl->rate : C / (out->e2e_ms * 1e-3);
    out->throughput_sps = out->requests_per_s;
    out->output_tokens_per_s = wl->phase == DLP_LLM_PREFILL_ONLY ? 0 : out->requests_per_s * G;
    out->tokens_per_s = out->requests_per_s * ((wl->phase == DLP_LLM_PREFILL_ONLY ? 0 : G) +
                                               (wl->phase == DLP_LLM_DECODE_ONLY ? 0 : (double)wl->seq));
    out->power_w = out->power_per_gpu_w * n_gpus;
    out->energy_j = out->power_w / out->requests_per_s;
    /* per output token; a prefill worker's per prompt token */
    out->energy_per_token_j = out->energy_j / (wl->phase == DLP_LLM_PREFILL_ONLY ? (double)(wl->seq > 0 ? wl->seq : 1) : G);
}

/* ---- features of the learned corrections ------------------------------------ */

static const char *const sf_names[DLP_LLM_SERVE_NFEAT] = {
    "log2_conc", "log2_prompt", "log2_gen", "gpus", "ep", "attn_dp", "phase", "quant",
    "log10_active", "log10_params", "experts", "mla", "log10_ttft_a", "log10_tpot_a", "prefill_share",
    "decode_share", "comm_share", "log10_bw", "log10_peak", "tdp", "kv_fill", "log10_kv_tok", "hidden", "layers"};

const char *dlp_llm_serve_feature_name(int k) { return k >= 0 && k < DLP_LLM_SERVE_NFEAT ? sf_names[k] : NULL; }

void dlp_llm_serve_features(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *wl,
                            const dlp_llm_prediction *p, float *x) {
    double v[DLP_LLM_SERVE_NFEAT] = {0};
    v[0] = log2((double)(p->concurrency > 0 ? p->concurrency : 1));
    v[1] = log2((double)(wl->seq > 0 ? wl->seq : 1));
    v[2] = log2((double)(wl->gen_tokens > 0 ? wl->gen_tokens : 1));
    v[3] = wl->n_gpus > 1 ? wl->n_gpus : 1;
    v[4] = wl->ep > 1 ? wl->ep : 1;
    v[5] = wl->attn_dp > 1 ? wl->attn_dp : 1;
    v[6] = wl->phase;
    v[7] = wl->quant;
    v[8] = log10((double)(p->active_params > 0 ? p->active_params : 1));
    v[9] = log10((double)(p->params > 0 ? p->params : 1));
    v[10] = (double)c->num_experts;
    v[11] = c->kv_lora_rank > 0;
    v[12] = log10(p->ttft_analytic_ms > 0 ? p->ttft_analytic_ms : 1e-3);
    v[13] = log10(p->tpot_analytic_ms > 0 ? p->tpot_analytic_ms : 1e-3);
    v[14] = p->ttft_analytic_ms > 0 ? p->prefill_ms / p->ttft_analytic_ms : 0;
    v[15] = p->tpot_analytic_ms > 0 ? p->decode_step_ms / p->tpot_analytic_ms : 0;
    v[16] = p->tpot_analytic_ms > 0 ? p->comm_ms / p->tpot_analytic_ms : 0;
    v[17] = log10(d->mem_bandwidth_gbs > 0 ? d->mem_bandwidth_gbs : 1);
    int tc;
    double pk = dlp__node_peak(d, DLP_OPC_GEMM, p->compute_dtype ? p->compute_dtype : DLP_DT_BFLOAT16, DLP_TF32_OFF, &tc);
    v[18] = log10(pk > 0 ? pk : 1);
    v[19] = d->tdp_w;
    v[20] = p->max_concurrency > 0 ? (double)p->concurrency / (double)p->max_concurrency : 0;
    double kt = dlp_llm_kv_bytes(c, 1, 1.0);
    v[21] = log10(kt > 0 ? kt : 1);
    v[22] = (double)c->hidden_size;
    v[23] = (double)c->num_hidden_layers;
    for (int k = 0; k < DLP_LLM_SERVE_NFEAT; k++) x[k] = (float)v[k];
}
