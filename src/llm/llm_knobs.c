/*
 * llm_knobs.c — the one definition of the serving model's bench-only
 * what-ifs (llm_internal.h dlp__llm_knobs; docs/llm.md "The bench-only
 * switches in one struct", issue 22, h231).
 *
 * Why a file of its own: every default sits in one designated initialiser,
 * so a reader sees at once what the shipped answers assume, and a new
 * switch is one field and one line here rather than a global scattered
 * next to the code it steers.  A field left out of the initialiser is 0.
 */
#include "llm/llm_internal.h"

dlp__llm_knobs dlp__llm_knob = {
    .gemm_each = -1,                /* follow fused_elem (h211) */
    .trtgen_mxfp4 = 7,              /* padding, fused block and prefill fit all on (h223) */
    .trtgen_pf = {76.6, 0.349},     /* trtllm-gen mxfp4 prefill fit {a us, eta} (h223) */
    .floor_sm_draw = 1,             /* the SMs' draw under a floor on (h214) */
    .moe_hits_fit = 5,              /* the physical, held-out MoE refits on the tables' true hits (h227) */
    .mla_dec_math = 1,              /* the absorbed MLA decode kernel's math floor (h229) */
    .mla_gen_mod = 2,               /* TensorRT-LLM's MLA generation module floor, Hopper (h236) */
    .dsa_gen_mod = 3,               /* SGLang's DSA generation module floor, Hopper and Blackwell (h245) */
    .moe_imb_fp4 = 1,               /* nvfp4's own busiest-rank fit at prefill sizes, TensorRT-LLM (h240) */
    .moe_grouped = 4,               /* SGLang Hopper triton fp8 decode MoE refit on the grouped hits (h242) */
    /* 0, the shipped answer: ttft_sim, rocm_floor_off, rocm_gemm_c,
     * rocm_v1_eta, trt_evict, fused_elem, fused_eta, trt_cta_bpc,
     * trt_xqa_bpc, trt011_layer_ms, p_fit_mem, and the what-ifs docs/llm.md
     * says why are off: trt_fp4_ew (h240), sgl_fmha (h241), sgl_moe_rows
     * (h244), trt_mla_ew (h246), sgl_moe_fi (h247), sgl_b300_req_ms (h248) */
};
