/*
 * transformer.h — internals shared by the LLM module (src/llm/transformer.c,
 * llm_embed.c, src/llm/llm.c): the embedded catalogue and the
 * memory-rule helpers.  Not public API.
 */
#ifndef DLP_BUILD_TRANSFORMER_H
#define DLP_BUILD_TRANSFORMER_H

#include <stdint.h>

#include "dlperf.h"

/* data/llm_configs.json as compiled into the library, NUL-terminated. */
extern const char dlp__llm_configs_json[];
/* data/models/llm_models.bundle: concatenated .dlpm files (may be empty). */
extern const unsigned char dlp__llm_models_bundle[];
extern const uint64_t dlp__llm_models_bundle_len;

/* Bytes of one bitsandbytes NF4 weight of n elements (double quantisation). */
int64_t dlp__nf4_bytes(int64_t n);

/* Multiply-adds of the token mixers for ONE decode token of one sequence
 * whose cache holds ctx tokens, summed over layers (docs/llm.md, "Decode
 * attention"): GQA 2 x heads x head_dim x n (n = ctx, or the window on
 * sliding layers); MLA as engines run it in decode (kv_b absorbed into q and
 * o): heads x (2 kv_lora_rank + qk_rope_head_dim) x n, with n capped at
 * index_topk under DeepSeek Sparse Attention, whose indexer adds
 * index_n_heads x (index_head_dim + 1) x ctx; Gated DeltaNet 3 x value heads
 * x dk x dv + conv channels x kernel (constant in ctx); Mamba-2 2 x heads x
 * head_dim x state + conv channels x kernel; MLP-only blocks 0.  The
 * projections are not included (they are 2 x active parameters per token). */
double dlp__llm_decode_mixer_macs(const dlp_llm_config *c, double ctx);

#endif
