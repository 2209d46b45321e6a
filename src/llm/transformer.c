/*
 * transformer.c — transformer graphs from Hugging Face config.json files.
 *
 * Why a builder instead of ONNX files: an LLM's ONNX export is gigabytes of
 * weights and minutes of exporting per (batch, seq); its structure is fully
 * determined by a few config fields.  This file turns those fields into the
 * same graph IR an ONNX file becomes — standard ONNX op names and attribute
 * semantics (MatMul with weight initializers + Add bias, LayerNormalization
 * opset 17, RMSNorm as Cast/Pow/ReduceMean/Add/Sqrt/Div/Cast/Mul as HF
 * computes it, Softmax, Gather for embeddings, Reshape/Transpose for heads)
 * — so nodes, edges, MACs, parameters and peak memory come out of the shared
 * shape/cost rules exactly as for a loaded file.  tools/golden/llm_golden.py
 * exports PyTorch modules of the same structure and tests/test_llm.c checks
 * parameters and MACs against them exactly.
 *
 * Families: BERT, RoBERTa/XLM-R, DistilBERT, DeBERTa-v2/v3, GPT-2, OPT,
 * GPT-NeoX/Pythia, GPT-J, LLaMA 1/2/3, Mistral, Mixtral (MoE), Qwen2, Phi,
 * Phi-3, Falcon, BLOOM, Gemma/Gemma-2, StarCoder2, and the 2025-26 families:
 * Qwen3 (qk-norm), Qwen3-MoE, Gemma 3 (local/global windows), Llama 4, gpt-oss
 * (sinks), DeepSeek-V3 (MLA), Nemotron-H (Mamba-2 hybrid), Qwen-VL text
 * stacks — per-layer kinds in layer_kind[], grouped MoE experts, active vs
 * total parameters, dlp_llm_kv_bytes.  docs/llm.md lists what
 * each family builds and what is approximated (masks, ALiBi slopes, DeBERTa's
 * relative-position gathers are cost-equivalent stand-ins).
 *
 * The builder also does the bookkeeping of the memory rules: each weight is
 * added with its role (a Linear weight a bitsandbytes quantiser converts, or
 * a tensor that stays 16-bit), and the bytes per format are summed here.
 */
#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "llm/transformer.h"
#include "graph/graph.h"
#include "util/util.h"

/* Node and value names are built for every node of every graph, so they are
 * joined here rather than by snprintf (a quarter of a large MoE answer's
 * instructions went to snprintf); same bytes as snprintf "%s%s", including
 * the truncation at n - 1. */
static size_t join2(char *buf, size_t n, const char *a, const char *b) {
    if (!n) return 0;
    size_t la = strlen(a), lb = strlen(b);
    if (la > n - 1) la = n - 1;
    if (lb > n - 1 - la) lb = n - 1 - la;
    memcpy(buf, a, la);
    memcpy(buf + la, b, lb);
    buf[la + lb] = 0;
    return la + lb;
}
/* prefix and a decimal int, as snprintf "%s%d" */
static void join_int(char *buf, size_t n, const char *prefix, int v) {
    char d[16];
    int k = 0;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    do d[k++] = (char)('0' + u % 10); while ((u /= 10) && k < 15);
    if (v < 0) d[k++] = '-';
    char r[16];
    for (int i = 0; i < k; i++) r[i] = d[k - 1 - i];
    r[k] = 0;
    join2(buf, n, prefix, r);
}


/* ======================================================================
 * quantisation formats
 * ====================================================================== */

static const char *const qt_names[DLP_QT_COUNT_] = {"fp32", "fp16", "bf16",  "int8", "nf4",
                                                    "fp8",  "int4", "mxfp4", "nvfp4"};

const char *dlp_quant_name(dlp_quant q) { return q >= 0 && q < DLP_QT_COUNT_ ? qt_names[q] : "?"; }

int dlp_quant_parse(const char *s) {
    static const struct { const char *n; int q; } m[] = {
        {"fp32", DLP_QT_FP32}, {"float32", DLP_QT_FP32}, {"float", DLP_QT_FP32},
        {"fp16", DLP_QT_FP16}, {"float16", DLP_QT_FP16}, {"half", DLP_QT_FP16},
        {"bf16", DLP_QT_BF16}, {"bfloat16", DLP_QT_BF16},
        {"int8", DLP_QT_INT8}, {"8bit", DLP_QT_INT8}, {"llm.int8", DLP_QT_INT8},
        {"nf4", DLP_QT_NF4}, {"4bit", DLP_QT_NF4}, {"bnb4", DLP_QT_NF4}, {"bnb-4bit", DLP_QT_NF4},
        {"fp8", DLP_QT_FP8}, {"fp8-e4m3", DLP_QT_FP8}, {"e4m3", DLP_QT_FP8}, {"float8", DLP_QT_FP8},
        {"int4", DLP_QT_INT4}, {"awq", DLP_QT_INT4}, {"gptq", DLP_QT_INT4}, {"w4a16", DLP_QT_INT4},
        {"mxfp4", DLP_QT_MXFP4}, {"fp4", DLP_QT_MXFP4}, {"nvfp4", DLP_QT_NVFP4}};
    if (!s) return -1;
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (!strcasecmp(s, m[i].n)) return m[i].q;
    return -1;
}

int dlp_quant_act_dtype(dlp_quant q) {
    switch (q) {
    case DLP_QT_FP32: return DLP_DT_FLOAT;
    case DLP_QT_BF16: case DLP_QT_FP8: case DLP_QT_MXFP4: case DLP_QT_NVFP4:
        return DLP_DT_BFLOAT16;     /* what vLLM / TensorRT-LLM pass between kernels */
    default: return DLP_DT_FLOAT16; /* fp16, and the compute dtype of int8/nf4/int4 */
    }
}

/* docs/llm.md, "Precisions".  fp8 without FP8 tensor cores runs as vLLM's
 * fp8 Marlin path (weight-only, W8A16): the memory saving, 16-bit math.
 * fp4 formats without FP4 tensor cores run weight-only where engines ship
 * the kernels (Hopper/Ada: gpt-oss's mxfp4 on H100) and are refused before. */
int dlp_llm_compute_dtype(const dlp_device *d, dlp_quant quant, char *why, size_t n) {
    if (why && n) why[0] = 0;
    if (!d || quant < 0 || quant >= DLP_QT_COUNT_) return -1;
    int b16 = dlp_device_supports_dtype(d, DLP_DT_BFLOAT16) ? DLP_DT_BFLOAT16 : DLP_DT_FLOAT16;
    switch (quant) {
    case DLP_QT_FP8:
        return dlp_device_supports_dtype(d, DLP_DT_FLOAT8E4M3FN) ? DLP_DT_FLOAT8E4M3FN : b16;
    case DLP_QT_MXFP4:
    case DLP_QT_NVFP4:
        if (dlp_device_supports_dtype(d, DLP_DT_FLOAT4E2M1) && d->fp4_tensor_tflops > 0) return DLP_DT_FLOAT4E2M1;
        if (dlp_device_supports_dtype(d, DLP_DT_FLOAT8E4M3FN)) return b16;
        if (why && n)
            snprintf(why, n,
                     "%s has no FP4 or FP8 tensor cores: %s runs natively on FP4 tensor cores (Blackwell) and "
                     "weight-only (dequantised to bf16) on FP8-capable GPUs (Hopper, Ada); use int4 or bf16 here",
                     d->id, dlp_quant_name(quant));
        return -1;
    default:
        return dlp_quant_act_dtype(quant);
    }
}

/* Bytes of one bitsandbytes NF4 weight of n elements with double
 * quantisation: packed 4-bit codes, one uint8 absmax per 64-block, one fp32
 * second-level absmax per 256 blocks, one fp32 offset (the absmax mean). */
int64_t dlp__nf4_bytes(int64_t n) {
    int64_t blocks = (n + 63) / 64;
    return (n + 1) / 2 + blocks + 4 * ((blocks + 255) / 256) + 4;
}

/* ======================================================================
 * config.json parsing
 * ====================================================================== */

typedef struct {
    const char *name;      /* file name for messages */
    const cJSON *root;
    dlp_error *err;
} pctx;

/* Integer field under any of `keys` (first present wins).  Returns 1 when
 * found, 0 when absent or null, or a dlp_status < 0 on a bad value. */
static int get_i64k(pctx *p, const char *const *keys, int64_t *out, const char **found) {
    for (int i = 0; keys[i]; i++) {
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(p->root, keys[i]);
        if (!x || cJSON_IsNull(x)) continue;
        if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble) || x->valuedouble != floor(x->valuedouble) ||
            fabs(x->valuedouble) > 9e15)
            return dlp__err(p->err, DLP_EFORMAT, "%s: field '%s' must be an integer", p->name, keys[i]);
        *out = (int64_t)x->valuedouble;
        if (found) *found = keys[i];
        return 1;
    }
    return 0;
}

static int get_i64(pctx *p, const char *const *keys, int64_t *out) { return get_i64k(p, keys, out, NULL); }

static int get_f64(pctx *p, const char *const *keys, double *out) {
    for (int i = 0; keys[i]; i++) {
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(p->root, keys[i]);
        if (!x || cJSON_IsNull(x)) continue;
        if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble))
            return dlp__err(p->err, DLP_EFORMAT, "%s: field '%s' must be a number", p->name, keys[i]);
        *out = x->valuedouble;
        return 1;
    }
    return 0;
}

static int get_bool(pctx *p, const char *key, int *out) {
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(p->root, key);
    if (!x || cJSON_IsNull(x)) return 0;
    if (!cJSON_IsBool(x))
        return dlp__err(p->err, DLP_EFORMAT, "%s: field '%s' must be true or false", p->name, key);
    *out = cJSON_IsTrue(x);
    return 1;
}

static const char *get_str(pctx *p, const char *key) {
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(p->root, key);
    return cJSON_IsString(x) ? x->valuestring : NULL;
}

#define KEYS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Required positive integer. */
static dlp_status need_pos(pctx *p, const char *const *keys, int64_t *out) {
    const char *k = keys[0];
    int r = get_i64k(p, keys, out, &k);
    if (r < 0) return (dlp_status)r;
    if (r == 0 && *out > 0) return DLP_OK; /* a family default (Gemma 3's text_config leaves fields out) */
    if (r == 0) return dlp__err(p->err, DLP_EFORMAT, "%s: field '%s' is missing", p->name, keys[0]);
    if (*out <= 0)
        return dlp__err(p->err, DLP_EFORMAT, "%s: field '%s' must be positive (got %lld)", p->name, k,
                        (long long)*out);
    return DLP_OK;
}

/* Optional non-negative integer (keeps *out when absent). */
static dlp_status opt_nonneg(pctx *p, const char *const *keys, int64_t *out) {
    int64_t v;
    const char *k = keys[0];
    int r = get_i64k(p, keys, &v, &k);
    if (r < 0) return (dlp_status)r;
    if (r == 0) return DLP_OK;
    if (v < 0)
        return dlp__err(p->err, DLP_EFORMAT, "%s: field '%s' must not be negative (got %lld)", p->name, k,
                        (long long)v);
    *out = v;
    return DLP_OK;
}

static int act_parse(const char *s) {
    if (!s) return -1;
    if (!strcmp(s, "gelu") || !strcmp(s, "gelu_python")) return DLP_ACT_GELU;
    /* gelu_new is Python arithmetic with torch.pow (transformers'
     * activations.py NewGELUActivation): eight eager kernels; the others are
     * one F.gelu(approximate="tanh") kernel.  gelu_fast (FastGELUActivation:
     * x * 0.7978845608 * (1 + 0.044715 * x * x), no pow) stays the one-op
     * form: the lowering tells the Python form by its Pow. */
    if (!strcmp(s, "gelu_new")) return DLP_ACT_GELU_NEW;
    if (!strcmp(s, "gelu_pytorch_tanh") || !strcmp(s, "gelu_fast") ||
        !strcmp(s, "gelu_tanh") || !strcmp(s, "bloom_gelu") || !strcmp(s, "gelu_approximate"))
        return DLP_ACT_GELU_TANH;
    if (!strcmp(s, "gegelu")) return DLP_ACT_GELU_TANH; /* Phi-3-small's gated GELU: the gate is its own GEMM column */
    if (!strcmp(s, "relu")) return DLP_ACT_RELU;
    if (!strcmp(s, "silu") || !strcmp(s, "swish")) return DLP_ACT_SILU;
    if (!strcmp(s, "relu2")) return DLP_ACT_RELU2;
    return -1;
}
/* ----------------------------------------------------------------------
 * The family table.  One row per family: the HF model_type strings it
 * matches, its defaults (transformers' config defaults and the structure of
 * its modules), and its quirks as flags and hooks called at fixed points of
 * the parse (docs/ARCHITECTURE.md, "where a new LLM family goes").  Adding a
 * family is adding a row (and the hooks it needs); the parse itself has no
 * per-family branches.
 * ---------------------------------------------------------------------- */

enum {
    FF_FFN4 = 1 << 0,           /* intermediate_size defaults to 4 x hidden    */
    FF_FFN_MOE = 1 << 1,        /* ... or to moe_intermediate_size (Qwen3.5-MoE)*/
    FF_LAYERS = 1 << 2,         /* 2025-26: per-layer kinds, MoE, MLA, Mamba    */
    FF_OWN_PATTERN = 1 << 3,    /* layer_types ignored (a pattern of its own)   */
    FF_LINEAR_ATTN = 1 << 4,    /* layer_types may name linear_attention        */
    FF_ATTN_BIAS = 1 << 5,      /* attention_bias defaults to true              */
    FF_ROUTER_SIGMOID = 1 << 6, /* builder: the MoE router's scores are sigmoids*/
    FF_PROJ_IN_OUT = 1 << 7,    /* builder: embed_proj_dim projects the token
                                   embeddings in and the head's input out (OPT) */
};

typedef struct {
    const char *name;
    const char *const *types;                        /* model_type strings   */
    unsigned flags;                                  /* FF_*                 */
    void (*defaults)(dlp_llm_config *c);
    /* hooks, NULL when the family has none: */
    dlp_status (*heads)(pctx *p, dlp_llm_config *c);  /* after kv heads      */
    dlp_status (*rope)(pctx *p, dlp_llm_config *c);   /* after rope fields   */
    dlp_status (*quirks)(pctx *p, dlp_llm_config *c); /* after the encoder's
                                                          head is chosen     */
    dlp_status (*layers)(pctx *p, dlp_llm_config *c); /* FF_LAYERS without
                                                          layer_types: which
                                                          layers slide       */
    dlp_status (*arch)(pctx *p, dlp_llm_config *c);   /* FF_LAYERS: experts,
                                                          MLA, Mamba, ...    */
} llm_family;

/* ---- defaults ---- */

/* the common decoder: pre-norm LayerNorm, learned nothing, no biases */
static void def_common(dlp_llm_config *c) {
    c->pre_norm = 1;
    c->final_norm = 1;
    c->norm_bias = 1;
    c->rope_theta = 10000.0;
    c->rotary_fraction = 1.0;
    c->norm_eps = 1e-5;
}

/* BERT-style encoders: post-norm, biases everywhere, learned positions */
static void def_encoder(dlp_llm_config *c) {
    c->encoder_only = 1;
    /* BertConfig / RobertaConfig / DistilBertConfig / DebertaConfig:
     * hidden_dropout_prob (or dropout) and attention_probs_dropout_prob 0.1 */
    c->attn_dropout = c->resid_dropout = c->embed_dropout = 0.1;
    c->pre_norm = 0;
    c->final_norm = 0;
    c->embed_norm = 1;
    c->qkv_bias = c->out_bias = c->mlp_bias = 1;
    c->act = DLP_ACT_GELU;
    c->position = DLP_POS_LEARNED;
    c->max_position_embeddings = 512;
}
static void def_bert(dlp_llm_config *c) {
    def_encoder(c);
    c->pooler = 1;
    c->type_vocab_size = 2;
    c->norm_eps = 1e-12;
}
static void def_roberta(dlp_llm_config *c) {
    def_encoder(c);
    c->pooler = 1;
    c->type_vocab_size = 1;
    c->position_offset = 2;
}
static void def_distilbert(dlp_llm_config *c) {
    def_encoder(c);
    c->norm_eps = 1e-12;
}
static void def_deberta(dlp_llm_config *c) {
    def_encoder(c);
    c->position = DLP_POS_RELATIVE;
    c->norm_eps = 1e-7;
    c->position_buckets = 256;
}
static void def_gpt2(dlp_llm_config *c) {
    c->fused_qkv = 1;
    c->qkv_bias = c->out_bias = c->mlp_bias = 1;
    c->act = DLP_ACT_GELU_NEW; /* GPT2Config activation_function "gelu_new" */
    c->attn_dropout = c->resid_dropout = c->embed_dropout = 0.1; /* attn_pdrop, resid_pdrop, embd_pdrop */
    c->position = DLP_POS_LEARNED;
    c->tie_word_embeddings = 1;
    c->max_position_embeddings = 1024;
}
static void def_opt(dlp_llm_config *c) {
    c->qkv_bias = c->out_bias = c->mlp_bias = 1;
    c->act = DLP_ACT_RELU;
    c->resid_dropout = 0.1; /* OPTConfig dropout; attention_dropout 0.0 */
    c->position = DLP_POS_LEARNED;
    c->position_offset = 2;
    c->tie_word_embeddings = 1;
    c->max_position_embeddings = 2048;
}
static void def_neox(dlp_llm_config *c) {
    c->fused_qkv = 1;
    c->qkv_bias = c->out_bias = c->mlp_bias = 1;
    c->act = DLP_ACT_GELU;
    c->position = DLP_POS_ROTARY;
    c->rotary_fraction = 0.25;
    c->parallel_residual = 1;
    c->max_position_embeddings = 2048;
}
static void def_gptj(dlp_llm_config *c) {
    c->mlp_bias = c->lm_head_bias = 1;
    c->act = DLP_ACT_GELU_NEW; /* GPTJConfig activation_function "gelu_new" */
    c->position = DLP_POS_ROTARY;
    c->parallel_residual = c->shared_parallel_norm = 1;
    c->max_position_embeddings = 2048;
}
/* LLaMA-style decoders: RMSNorm, gated SiLU MLP, rotary, no biases */
static void def_llama(dlp_llm_config *c) {
    c->rms_norm = 1;
    c->norm_bias = 0;
    c->gated_mlp = 1;
    c->act = DLP_ACT_SILU;
    c->position = DLP_POS_ROTARY;
    c->norm_eps = 1e-6;
    c->max_position_embeddings = 2048;
}
static void def_qwen2(dlp_llm_config *c) {
    def_llama(c);
    c->qkv_bias = 1;
}
static void def_phi3(dlp_llm_config *c) {
    def_llama(c);
    c->fused_qkv = c->fused_gate_up = 1;
}
/* Phi-3-small: fused qkv and fused gated up projection like phi3, gated GELU
 * ("gegelu"), embeddings tied (its config leaves tie_word_embeddings at
 * transformers' default, true); its block-sparse attention on every other
 * layer is costed dense */
static void def_phi3small(dlp_llm_config *c) {
    def_phi3(c);
    c->tie_word_embeddings = 1;
    c->act = DLP_ACT_GELU_TANH;
}
static void def_gemma(dlp_llm_config *c) {
    def_llama(c);
    c->act = DLP_ACT_GELU_TANH;
    c->tie_word_embeddings = c->embed_scale = 1;
}
static void def_gemma2(dlp_llm_config *c) {
    def_gemma(c);
    c->sandwich_norm = 1;
}
static void def_phi(dlp_llm_config *c) {
    c->qkv_bias = c->out_bias = c->mlp_bias = c->lm_head_bias = 1;
    c->act = DLP_ACT_GELU_NEW; /* PhiConfig hidden_act "gelu_new" */
    c->position = DLP_POS_ROTARY;
    c->rotary_fraction = 0.5;
    c->parallel_residual = c->shared_parallel_norm = 1;
    c->max_position_embeddings = 2048;
}
static void def_falcon(dlp_llm_config *c) {
    c->fused_qkv = 1;
    c->act = DLP_ACT_GELU;
    c->position = DLP_POS_ROTARY;
    c->tie_word_embeddings = 1;
    c->max_position_embeddings = 2048;
}
static void def_bloom(dlp_llm_config *c) {
    c->fused_qkv = 1;
    c->qkv_bias = c->out_bias = c->mlp_bias = 1;
    c->act = DLP_ACT_GELU_TANH;
    c->position = DLP_POS_ALIBI;
    c->embed_norm = 1;
    c->tie_word_embeddings = 1;
    c->max_position_embeddings = 2048;
}
static void def_starcoder2(dlp_llm_config *c) {
    c->qkv_bias = c->out_bias = c->mlp_bias = 1;
    c->act = DLP_ACT_GELU_TANH;
    c->position = DLP_POS_ROTARY;
    c->tie_word_embeddings = 1;
    c->max_position_embeddings = 4096;
}
/* the 2025-26 decoders: RMSNorm, gated SiLU MLP, rotary, eps 1e-6 */
static void def_modern(dlp_llm_config *c) {
    c->rms_norm = 1;
    c->norm_bias = 0;
    c->gated_mlp = 1;
    c->act = DLP_ACT_SILU;
    c->position = DLP_POS_ROTARY;
    c->norm_eps = 1e-6;
    c->max_position_embeddings = 4096;
}
static void def_qwen3(dlp_llm_config *c) {
    def_modern(c);
    c->qk_norm = 1;
}
static void def_qwen3_moe(dlp_llm_config *c) {
    def_qwen3(c);
    c->moe_grouped = 1;
}
/* Gemma3TextConfig defaults: published configs leave some out */
static void def_gemma3(dlp_llm_config *c) {
    def_qwen3(c);
    c->act = DLP_ACT_GELU_TANH;
    c->tie_word_embeddings = c->embed_scale = c->sandwich_norm = 1;
    c->hidden_size = 2304;
    c->intermediate_size = 9216;
    c->num_hidden_layers = 26;
    c->num_attention_heads = 8;
    c->num_key_value_heads = 4;
    c->head_dim = 256;
    c->vocab_size = 262208;
    c->sliding_window = 4096;
    c->max_position_embeddings = 131072;
}
static void def_llama4(dlp_llm_config *c) {
    def_modern(c);
    c->norm_eps = 1e-5;
    c->qk_norm = 2;
    c->moe_grouped = 1;
}
static void def_gpt_oss(dlp_llm_config *c) {
    def_modern(c);
    c->act = DLP_ACT_SWIGLU_OAI;
    c->norm_eps = 1e-5;
    c->moe_grouped = 1;
    c->qkv_bias = c->out_bias = 1;
    c->attn_sinks = 1;
    c->moe_router_bias = c->moe_expert_bias = 1;
}
static void def_deepseek(dlp_llm_config *c) {
    def_modern(c);
    c->moe_grouped = 1;
}
/* Qwen3NextConfig / Qwen3_5MoeTextConfig defaults */
static void def_qwen3_next(dlp_llm_config *c) {
    def_qwen3_moe(c);
    c->rotary_fraction = 0.25;
    c->attn_output_gate = c->shared_expert_gate = 1;
    c->linear_num_key_heads = 16;
    c->linear_num_value_heads = 32;
    c->linear_key_head_dim = c->linear_value_head_dim = 128;
    c->linear_conv_kernel = 4;
    c->linear_chunk_size = 64;
    c->max_position_embeddings = 32768;
}
static void def_minimax_m2(dlp_llm_config *c) {
    def_modern(c);
    c->qk_norm = 3;
    c->moe_grouped = 1;
}
static void def_nemotron_h(dlp_llm_config *c) {
    c->rms_norm = 1;
    c->norm_bias = 0;
    c->act = c->mlp_act = DLP_ACT_RELU2;
    c->position = DLP_POS_NONE;
    c->max_position_embeddings = 8192;
    c->mamba_conv_kernel = 4;
    c->mamba_chunk_size = 128;
    c->mamba_n_groups = 8;
    c->mamba_conv_bias = 1;
}

#define TRY(x) do { dlp_status st_ = (x); if (st_) return st_; } while (0)
#define TRYI(x) do { int r_ = (x); if (r_ < 0) return (dlp_status)r_; } while (0)

static dlp_status parse_obj1(const cJSON *root, const char *name, dlp_llm_config *c, dlp_error *err);
static dlp_status parse_obj2(const cJSON *root, const char *name, dlp_llm_config *c, dlp_error *err);

/* Vision-language and multimodal configs nest the language model under
 * "text_config" (Gemma 3, Llama 4, Qwen2.5-VL in newer transformers,
 * Qwen3-VL): parse the text stack, with the top level's fields as fallback
 * (e.g. tie_word_embeddings), and the top level's model_type when the nested
 * one is missing. */
static dlp_status parse_vision(const cJSON *root, const char *name, dlp_llm_config *c, dlp_error *err);

static dlp_status parse_obj(const cJSON *root, const char *name, dlp_llm_config *c, dlp_error *err) {
    /* Qwen3-Omni nests the model that reads the prompt — the "thinker": its
     * language stack (text_config) and encoders (vision_config,
     * audio_config) — under thinker_config, beside the talker and code2wav
     * that turn its text into speech (not built: they run after the text) */
    const cJSON *th = cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "thinker_config") : NULL;
    if (cJSON_IsObject(th)) root = th;
    dlp_status vs = parse_obj2(root, name, c, err);
    return vs ? vs : parse_vision(root, name, c, err);
}

/* RADIO towers (Nemotron Nano VL) name their ViT by "version" and give no
 * depth: the timm ViT each version is (RADIOv2.5 B/L/H are ViT-B/16, L/16,
 * H/16: depth x width, MLP 4 x width).  Unknown versions stay untimed. */
static const struct {
    const char *version;
    int64_t depth, width;
} radio_vits[] = {{"radio_v2.5-b", 12, 768}, {"radio_v2.5-l", 24, 1024}, {"radio_v2.5-h", 32, 1280}};

/* Nemotron Nano VL (InternVL layout): a RADIO ViT over tiles of
 * force_image_size pixels, pixel-shuffled by downsample_ratio (0.5: 2 x 2
 * patches per token), then the mlp1 projector (norm, Linear(H m^2 ->
 * projector_hidden_size), ReLU^2, Linear(-> text hidden)); an image is cut
 * into up to max_num_tiles tiles (12, InternVL's dynamic_preprocess) plus a
 * thumbnail (use_thumbnail). */
static dlp_status parse_radio(const cJSON *vc, const char *version, pctx *pr, const char *nm, dlp_llm_config *c) {
    int64_t H = 0, L = 0, isz = 448, patch = 16, ph = 0, tiles = 12;
    TRYI(get_i64(pr, KEYS("vit_hidden_size"), &H));
    for (size_t i = 0; i < sizeof radio_vits / sizeof radio_vits[0]; i++)
        if (!strcmp(version, radio_vits[i].version)) {
            L = radio_vits[i].depth;
            if (H <= 0) H = radio_vits[i].width;
        }
    if (H > 0 && H <= 65536) c->vision_hidden = H; /* a VLM even when its ViT is not one we know */
    if (L <= 0 || H <= 0 || H > 65536) return DLP_OK;
    pctx p = {nm, vc, pr->err};
    TRYI(get_i64(&p, KEYS("patch_size"), &patch));
    TRYI(get_i64(pr, KEYS("force_image_size", "image_size"), &isz));
    TRYI(get_i64(pr, KEYS("projector_hidden_size"), &ph));
    TRYI(get_i64(pr, KEYS("max_num_tiles", "max_dynamic_patch"), &tiles));
    double ds = 0.5;
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(pr->root, "downsample_ratio");
    if (cJSON_IsNumber(d)) ds = d->valuedouble;
    else if (d && !cJSON_IsNull(d))
        return dlp__err(pr->err, DLP_EFORMAT, "%s: field 'downsample_ratio' must be a number", pr->name);
    int thumb = 1;
    TRYI(get_bool(pr, "use_thumbnail", &thumb));
    if (patch < 1 || patch > 1024 || isz < patch || isz > 1 << 16 || ph < 0 || ph > 1 << 20 || tiles < 1 ||
        tiles > 1024 || !(ds > 0.05 && ds <= 1))
        return dlp__err(pr->err, DLP_EFORMAT, "%s: sizes out of range", nm);
    c->vision_layers = L;
    c->vision_intermediate = 4 * H;
    c->vision_patch = patch;
    c->vision_merge = (int64_t)floor(1.0 / ds + 0.5);
    c->vision_temporal_patch = 1;
    c->vision_image_size = isz;
    c->vision_out_hidden = c->hidden_size;
    c->vision_max_tiles = tiles;
    c->vision_thumbnail = thumb;
    c->vision_proj_hidden = ph;
    return DLP_OK;
}

/* The vision tower of a VLM config (vision_config beside text_config), the
 * keys of the families the catalogue serves: Qwen2.5/3-VL and Qwen3.5
 * ("depth", "spatial_merge_size", "temporal_patch_size", "out_hidden_size"),
 * Gemma 3's SigLIP ("num_hidden_layers", "image_size", top-level
 * "mm_tokens_per_image"), Kimi's MoonViT ("vt_*", "merge_kernel_size").
 * A width without a depth is a VLM whose tower we cannot time: vision_hidden
 * set, vision_layers 0 (image tokens accepted, the tower not counted). */
static dlp_status parse_vision(const cJSON *root, const char *name, dlp_llm_config *c, dlp_error *err) {
    const cJSON *vc = cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "vision_config") : NULL;
    if (!cJSON_IsObject(vc)) return DLP_OK;
    char nm[192];
    join2(nm, sizeof nm, name, ": vision_config");
    pctx p = {nm, vc, err}, pr = {name, root, err};
    const char *ver = get_str(&p, "version");
    if (ver && !strncmp(ver, "radio", 5)) return parse_radio(vc, ver, &pr, nm, c);
    int64_t L = 0, H = 0, I = 0, patch = 14, merge = 1, tpatch = 1, isz = 0, tpi = 0, out = c->hidden_size;
    TRYI(get_i64(&p, KEYS("depth", "num_hidden_layers", "vt_num_hidden_layers"), &L));
    const char *hk = NULL;
    TRYI(get_i64k(&p, KEYS("hidden_size", "vt_hidden_size", "embed_dim"), &H, &hk));
    TRYI(get_i64(&pr, KEYS("mm_tokens_per_image"), &tpi));
    if (H > 0 && H <= 65536) c->vision_hidden = H; /* a VLM, even when the tower is not described */
    if (tpi > 0 && tpi <= 1000000) c->vision_tokens_per_image = tpi;
    if (L <= 0 || H <= 0) return DLP_OK;
    /* MoonViT merges 2 x 2 patches (Kimi-VL's merge_kernel_size [2, 2]) */
    if (hk && !strcmp(hk, "vt_hidden_size")) merge = 2;
    /* a plain ViT MLP is 4 x wide when the config does not say */
    I = 4 * H;
    TRYI(get_i64(&p, KEYS("intermediate_size", "vt_intermediate_size"), &I));
    TRYI(get_i64(&p, KEYS("patch_size"), &patch));
    TRYI(get_i64(&p, KEYS("spatial_merge_size"), &merge));
    const cJSON *mk = cJSON_GetObjectItemCaseSensitive(vc, "merge_kernel_size");
    if (cJSON_IsArray(mk) && cJSON_IsNumber(cJSON_GetArrayItem(mk, 0))) merge = cJSON_GetArrayItem(mk, 0)->valueint;
    TRYI(get_i64(&p, KEYS("temporal_patch_size"), &tpatch));
    /* a fixed input size (SigLIP) only where patches are not merged: the
     * Qwen3-Omni vision_config carries an unused image_size beside its
     * spatial_merge_size */
    if (!cJSON_GetObjectItemCaseSensitive(vc, "spatial_merge_size")) TRYI(get_i64(&p, KEYS("image_size"), &isz));
    TRYI(get_i64(&p, KEYS("out_hidden_size", "text_hidden_size"), &out));
    if (L > 1000 || H > 65536 || I < 1 || I > 1 << 20 || patch < 1 || patch > 1024 || merge < 1 || merge > 16 ||
        tpatch < 1 || tpatch > 16 || isz < 0 || isz > 1 << 16 || tpi < 0 || out < 1)
        return dlp__err(err, DLP_EFORMAT, "%s: sizes out of range", nm);
    const cJSON *ds = cJSON_GetObjectItemCaseSensitive(vc, "deepstack_visual_indexes");
    c->vision_deepstack = cJSON_IsArray(ds) ? cJSON_GetArraySize(ds) : 0;
    int64_t win = 0;
    TRYI(get_i64(&p, KEYS("window_size"), &win));
    const cJSON *fa = cJSON_GetObjectItemCaseSensitive(vc, "fullatt_block_indexes");
    if (win > 0 && cJSON_IsArray(fa)) {
        c->vision_window = (win / patch) * (win / patch);
        c->vision_full_layers = cJSON_GetArraySize(fa);
    }
    const char *act = get_str(&p, "hidden_act"), *mt = get_str(&pr, "model_type");
    c->vision_layers = L;
    c->vision_hidden = H;
    c->vision_intermediate = I;
    c->vision_patch = patch;
    c->vision_merge = merge;
    c->vision_temporal_patch = tpatch;
    c->vision_image_size = isz;
    c->vision_tokens_per_image = tpi;
    c->vision_out_hidden = out;
    /* Qwen2.5-VL's blocks are SwiGLU (hidden_act silu); SigLIP, Qwen3-VL and
     * MoonViT a GELU MLP */
    c->vision_gated = (act && !strcmp(act, "silu")) || (mt && !strcmp(mt, "qwen2_5_vl"));
    return DLP_OK;
}

static dlp_status parse_obj2(const cJSON *root, const char *name, dlp_llm_config *c, dlp_error *err) {
    const cJSON *tc = cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "text_config") : NULL;
    /* InternVL-style VLMs (Nemotron Nano VL) call it llm_config */
    if (!cJSON_IsObject(tc) && cJSON_IsObject(root)) tc = cJSON_GetObjectItemCaseSensitive(root, "llm_config");
    if (!cJSON_IsObject(tc)) return parse_obj1(root, name, c, err);
    cJSON *m = cJSON_Duplicate(tc, 1);
    if (!m) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", name);
    const cJSON *it;
    cJSON_ArrayForEach(it, root) {
        if (!it->string || !strcmp(it->string, "text_config") || !strcmp(it->string, "llm_config") ||
            strstr(it->string, "vision") || strstr(it->string, "audio") || strstr(it->string, "sound") ||
            cJSON_GetObjectItemCaseSensitive(m, it->string))
            continue;
        cJSON_AddItemToObject(m, it->string, cJSON_Duplicate(it, 1));
    }
    dlp_status st = parse_obj1(m, name, c, err);
    cJSON_Delete(m);
    return st;
}

/* Integer list field (e.g. mlp_only_layers): calls back per element. */
static dlp_status int_list(pctx *p, const char *key, int64_t *v, int cap, int *n) {
    *n = 0;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(p->root, key), *x;
    if (!a || cJSON_IsNull(a)) return DLP_OK;
    if (!cJSON_IsArray(a)) return dlp__err(p->err, DLP_EFORMAT, "%s: field '%s' must be a list", p->name, key);
    cJSON_ArrayForEach(x, a) {
        if (!cJSON_IsNumber(x) || x->valuedouble != floor(x->valuedouble))
            return dlp__err(p->err, DLP_EFORMAT, "%s: field '%s' must be a list of integers", p->name, key);
        if (*n < cap) v[*n] = (int64_t)x->valuedouble;
        (*n)++;
    }
    return DLP_OK;
}

/* ---- the 2025-26 families: per-layer kinds, MoE, MLA, Mamba-2, Gated
 * DeltaNet (docs/llm.md, "Architectures") ---- */

/* Which layers slide (or are linear attention): the config's layer_types,
 * or the family's own pattern (row->layers); then sliding_window checked. */
static dlp_status read_layer_types(pctx *p, const llm_family *fam, dlp_llm_config *c) {
    int64_t L = c->num_hidden_layers;
    const cJSON *lt = cJSON_GetObjectItemCaseSensitive(p->root, "layer_types"), *x;
    if (cJSON_IsArray(lt) && !(fam->flags & FF_OWN_PATTERN)) {
        if (cJSON_GetArraySize(lt) != L)
            return dlp__err(p->err, DLP_EFORMAT, "%s: field 'layer_types' has %d entries for %lld layers", p->name,
                            cJSON_GetArraySize(lt), (long long)L);
        int i = 0;
        cJSON_ArrayForEach(x, lt) {
            if (!cJSON_IsString(x))
                return dlp__err(p->err, DLP_EFORMAT, "%s: field 'layer_types' must be a list of strings", p->name);
            if (strstr(x->valuestring, "sliding") || strstr(x->valuestring, "chunked"))
                c->layer_kind[i] |= DLP_LK_SLIDING;
            if (!strcmp(x->valuestring, "linear_attention")) {
                if (!(fam->flags & FF_LINEAR_ATTN))
                    return dlp__err(p->err, DLP_EUNSUPPORTED, "%s: field 'layer_types': linear_attention layers are "
                                    "built for qwen3_next / qwen3_5 only", p->name);
                c->layer_kind[i] |= DLP_LK_LINEAR_ATTN;
            }
            i++;
        }
    } else if (fam->layers) {
        TRY(fam->layers(p, c));
    }
    int has_sliding = 0;
    for (int64_t i = 0; i < L && i < DLP_LLM_MAX_LAYERS; i++) has_sliding |= c->layer_kind[i] & DLP_LK_SLIDING;
    if (has_sliding && c->sliding_window <= 0)
        return dlp__err(p->err, DLP_EFORMAT, "%s: field 'sliding_window' is missing (sliding-window layers)", p->name);
    if (!has_sliding) c->sliding_window = 0;
    return DLP_OK;
}

/* three Gated DeltaNet layers, then one gated full-attention layer */
static dlp_status layers_qwen3_next(pctx *p, dlp_llm_config *c) {
    int64_t every = 4;
    TRYI(get_i64(p, KEYS("full_attention_interval"), &every));
    for (int64_t i = 0; i < c->num_hidden_layers; i++)
        if (every <= 0 || (i + 1) % every) c->layer_kind[i] |= DLP_LK_LINEAR_ATTN;
    return DLP_OK;
}
/* five local layers, then one global */
static dlp_status layers_gemma3(pctx *p, dlp_llm_config *c) {
    int64_t pat = 6;
    TRYI(get_i64(p, KEYS("sliding_window_pattern"), &pat));
    for (int64_t i = 0; i < c->num_hidden_layers; i++)
        if (pat <= 0 || (i + 1) % pat) c->layer_kind[i] |= DLP_LK_SLIDING;
    return DLP_OK;
}
static dlp_status layers_gpt_oss(pctx *p, dlp_llm_config *c) {
    for (int64_t i = 0; i < c->num_hidden_layers; i += 2) c->layer_kind[i] |= DLP_LK_SLIDING; /* even layers banded */
    return DLP_OK;
}
/* Qwen3: use_sliding_window slides the layers from max_window_layers on */
static dlp_status layers_qwen3(pctx *p, dlp_llm_config *c) {
    int sw = 0;
    TRYI(get_bool(p, "use_sliding_window", &sw));
    int64_t L = c->num_hidden_layers, mwl = L;
    TRYI(get_i64(p, KEYS("max_window_layers"), &mwl));
    if (sw && c->sliding_window > 0)
        for (int64_t i = mwl; i < L; i++) c->layer_kind[i] |= DLP_LK_SLIDING;
    return DLP_OK;
}

/* Dense layers of Qwen-style MoE: all but every decoder_sparse_step-th, and
 * those in mlp_only_layers. */
static dlp_status qwen_dense_layers(pctx *p, dlp_llm_config *c, int need_experts) {
    int64_t L = c->num_hidden_layers, step = 1, v[DLP_LLM_MAX_LAYERS];
    TRYI(get_i64(p, KEYS("decoder_sparse_step"), &step));
    int n = 0;
    TRY(int_list(p, "mlp_only_layers", v, DLP_LLM_MAX_LAYERS, &n));
    if (need_experts && !c->num_experts) return DLP_OK; /* dense Qwen3.5: no MoE layers to mark */
    for (int64_t i = 0; i < L; i++)
        if (step <= 0 || (i + 1) % step) c->layer_kind[i] |= DLP_LK_DENSE;
    for (int i = 0; i < n && i < DLP_LLM_MAX_LAYERS; i++)
        if (v[i] >= 0 && v[i] < L) c->layer_kind[v[i]] |= DLP_LK_DENSE;
    return DLP_OK;
}

static dlp_status arch_qwen3_moe(pctx *p, dlp_llm_config *c) {
    c->num_experts = 128;
    c->experts_per_token = 8;
    TRY(opt_nonneg(p, KEYS("num_experts"), &c->num_experts));
    TRY(opt_nonneg(p, KEYS("num_experts_per_tok"), &c->experts_per_token));
    TRY(opt_nonneg(p, KEYS("moe_intermediate_size"), &c->moe_intermediate_size));
    TRY(opt_nonneg(p, KEYS("shared_expert_intermediate_size"), &c->shared_expert_intermediate_size));
    return qwen_dense_layers(p, c, 0);
}

/* Llama 4: experts and the shared expert are intermediate_size wide; dense
 * layers intermediate_size_mlp.  NoPE layers: no_rope_layers[i] == 0
 * (default every 4th); the others use chunked attention
 * (attention_chunk_size). */
static dlp_status arch_llama4(pctx *p, dlp_llm_config *c) {
    int64_t L = c->num_hidden_layers;
    c->num_experts = 16;
    c->experts_per_token = 1;
    TRY(opt_nonneg(p, KEYS("num_local_experts"), &c->num_experts));
    TRY(opt_nonneg(p, KEYS("num_experts_per_tok"), &c->experts_per_token));
    c->moe_intermediate_size = c->shared_expert_intermediate_size = c->intermediate_size;
    TRY(opt_nonneg(p, KEYS("intermediate_size_mlp"), &c->intermediate_size));
    int64_t step = 1;
    TRYI(get_i64(p, KEYS("interleave_moe_layer_step"), &step));
    for (int64_t i = 0; i < L; i++)
        if (step > 1 && (i + 1) % step) c->layer_kind[i] |= DLP_LK_DENSE;
    int64_t v[DLP_LLM_MAX_LAYERS];
    int n = 0;
    TRY(int_list(p, "no_rope_layers", v, DLP_LLM_MAX_LAYERS, &n));
    int64_t chunk = 8192;
    TRYI(get_i64(p, KEYS("attention_chunk_size"), &chunk));
    for (int64_t i = 0; i < L; i++) {
        int rope = n ? (i < n ? v[i] != 0 : 1) : (i + 1) % 4 != 0;
        if (!rope) c->layer_kind[i] |= DLP_LK_NOPE;
        else if (chunk > 0) c->layer_kind[i] |= DLP_LK_SLIDING;
    }
    if (chunk > 0) c->sliding_window = chunk;
    int qkn = 1;
    TRYI(get_bool(p, "use_qk_norm", &qkn));
    c->qk_norm = qkn ? 2 : 0;
    return DLP_OK;
}

static dlp_status arch_gpt_oss(pctx *p, dlp_llm_config *c) {
    c->num_experts = 128;
    c->experts_per_token = 4;
    TRY(opt_nonneg(p, KEYS("num_local_experts", "num_experts"), &c->num_experts));
    TRY(opt_nonneg(p, KEYS("num_experts_per_tok", "experts_per_token"), &c->experts_per_token));
    c->act = DLP_ACT_SWIGLU_OAI; /* its hidden_act says "silu" */
    return DLP_OK;
}

/* DeepSeek's dense layers: GLM-5's mlp_layer_types ("dense" / "sparse" per
 * layer), else the first first_k_dense_replace and those off moe_layer_freq */
static dlp_status deepseek_dense_layers(pctx *p, dlp_llm_config *c) {
    int64_t L = c->num_hidden_layers, fk = 0, step = 1;
    TRY(opt_nonneg(p, KEYS("first_k_dense_replace"), &fk));
    TRYI(get_i64(p, KEYS("moe_layer_freq"), &step));
    const cJSON *mlt = cJSON_GetObjectItemCaseSensitive(p->root, "mlp_layer_types"), *x;
    if (!cJSON_IsArray(mlt)) {
        for (int64_t i = 0; i < L; i++)
            if (i < fk || (step > 1 && i % step)) c->layer_kind[i] |= DLP_LK_DENSE;
        return DLP_OK;
    }
    if (cJSON_GetArraySize(mlt) != L)
        return dlp__err(p->err, DLP_EFORMAT, "%s: field 'mlp_layer_types' has %d entries for %lld layers", p->name,
                        cJSON_GetArraySize(mlt), (long long)L);
    int i = 0;
    cJSON_ArrayForEach(x, mlt) {
        if (cJSON_IsString(x) && !strcmp(x->valuestring, "dense")) c->layer_kind[i] |= DLP_LK_DENSE;
        i++;
    }
    return DLP_OK;
}

/* DeepSeek Sparse Attention (glm_moe_dsa, deepseek_v32): the lightning
 * indexer on every layer, or on the "full" layers of indexer_types /
 * index_topk_pattern (the others reuse its top-k) */
static dlp_status deepseek_dsa(pctx *p, dlp_llm_config *c) {
    int64_t L = c->num_hidden_layers;
    int dsa = !strcmp(c->model_type, "glm_moe_dsa") || !strcmp(c->model_type, "deepseek_v32") ||
              cJSON_GetObjectItemCaseSensitive(p->root, "index_topk");
    if (!dsa) return DLP_OK;
    c->index_n_heads = !strcmp(c->model_type, "glm_moe_dsa") ? 32 : 64;
    c->index_head_dim = 128;
    c->index_topk = 2048;
    TRY(opt_nonneg(p, KEYS("index_n_heads"), &c->index_n_heads));
    TRY(opt_nonneg(p, KEYS("index_head_dim"), &c->index_head_dim));
    TRY(opt_nonneg(p, KEYS("index_topk"), &c->index_topk));
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(p->root, "indexer_types"), *x;
    const char *pat = get_str(p, "index_topk_pattern");
    int i = 0;
    if (cJSON_IsArray(it)) {
        cJSON_ArrayForEach(x, it) {
            if (i < L && cJSON_IsString(x) && !strcmp(x->valuestring, "shared"))
                c->layer_kind[i] |= DLP_LK_SHARED_INDEX;
            i++;
        }
    } else if (pat) {
        for (; pat[i] && i < L; i++)
            if (pat[i] == 'S') c->layer_kind[i] |= DLP_LK_SHARED_INDEX;
    }
    if (c->layer_kind[0] & DLP_LK_SHARED_INDEX)
        return dlp__err(p->err, DLP_EFORMAT, "%s: field 'indexer_types': layer 0 cannot reuse an earlier "
                        "layer's top-k", p->name);
    return DLP_OK;
}

static dlp_status arch_deepseek(pctx *p, dlp_llm_config *c) {
    c->num_experts = 256;
    c->experts_per_token = 8;
    TRY(opt_nonneg(p, KEYS("n_routed_experts"), &c->num_experts));
    TRY(opt_nonneg(p, KEYS("num_experts_per_tok"), &c->experts_per_token));
    TRY(opt_nonneg(p, KEYS("moe_intermediate_size"), &c->moe_intermediate_size));
    int64_t ns = 1;
    TRY(opt_nonneg(p, KEYS("n_shared_experts"), &ns));
    c->shared_expert_intermediate_size = ns * (c->moe_intermediate_size ? c->moe_intermediate_size
                                                                        : c->intermediate_size);
    TRY(deepseek_dense_layers(p, c));
    TRY(deepseek_dsa(p, c));
    /* MLA */
    c->q_lora_rank = 0;
    TRY(opt_nonneg(p, KEYS("q_lora_rank"), &c->q_lora_rank));
    TRY(need_pos(p, KEYS("kv_lora_rank"), &c->kv_lora_rank));
    TRY(need_pos(p, KEYS("qk_nope_head_dim"), &c->qk_nope_head_dim));
    TRY(need_pos(p, KEYS("qk_rope_head_dim"), &c->qk_rope_head_dim));
    TRY(need_pos(p, KEYS("v_head_dim"), &c->v_head_dim));
    c->head_dim = c->qk_nope_head_dim + c->qk_rope_head_dim;
    c->num_key_value_heads = c->num_attention_heads;
    c->rotary_fraction = (double)c->qk_rope_head_dim / (double)c->head_dim;
    if (c->index_topk > 0 && (c->index_n_heads < 1 || c->index_head_dim < c->qk_rope_head_dim ||
                              c->q_lora_rank < 1))
        return dlp__err(p->err, DLP_EFORMAT, "%s: field 'index_head_dim' must be >= qk_rope_head_dim, with "
                        "index_n_heads >= 1 and a q_lora_rank (the indexer reads the q latent)", p->name);
    return DLP_OK;
}

/* Nemotron-H's hybrid_override_pattern: one letter per layer */
static dlp_status nemotron_pattern(pctx *p, dlp_llm_config *c) {
    int64_t L = c->num_hidden_layers;
    const char *pat = get_str(p, "hybrid_override_pattern");
    if (!pat) return dlp__err(p->err, DLP_EFORMAT, "%s: field 'hybrid_override_pattern' is missing", p->name);
    if ((int64_t)strlen(pat) != L)
        return dlp__err(p->err, DLP_EFORMAT, "%s: field 'hybrid_override_pattern' has %zu layers, not %lld", p->name,
                        strlen(pat), (long long)L);
    TRY(opt_nonneg(p, KEYS("n_routed_experts"), &c->num_experts));
    TRY(opt_nonneg(p, KEYS("num_experts_per_tok"), &c->experts_per_token));
    TRY(opt_nonneg(p, KEYS("moe_intermediate_size"), &c->moe_intermediate_size));
    TRY(opt_nonneg(p, KEYS("moe_shared_expert_intermediate_size"), &c->shared_expert_intermediate_size));
    if (c->num_experts) c->moe_grouped = 1;
    for (int64_t i = 0; i < L; i++) {
        switch (pat[i]) {
        case 'M': c->layer_kind[i] = DLP_LK_MAMBA | DLP_LK_NO_MLP; break;
        case '*': c->layer_kind[i] = DLP_LK_NO_MLP; break;
        case '-': c->layer_kind[i] = DLP_LK_NO_ATTN | DLP_LK_DENSE; break;
        case 'E':
            if (!c->num_experts)
                return dlp__err(p->err, DLP_EFORMAT, "%s: 'E' layers in 'hybrid_override_pattern' need "
                                "n_routed_experts", p->name);
            c->layer_kind[i] = DLP_LK_NO_ATTN;
            break;
        default:
            return dlp__err(p->err, DLP_EFORMAT, "%s: field 'hybrid_override_pattern' has '%c' (M, *, - or E)",
                            p->name, pat[i]);
        }
    }
    return DLP_OK;
}

static dlp_status arch_nemotron_h(pctx *p, dlp_llm_config *c) {
    TRY(nemotron_pattern(p, c));
    TRY(need_pos(p, KEYS("mamba_num_heads"), &c->mamba_num_heads));
    TRY(need_pos(p, KEYS("mamba_head_dim"), &c->mamba_head_dim));
    TRY(need_pos(p, KEYS("ssm_state_size"), &c->ssm_state_size));
    TRY(opt_nonneg(p, KEYS("n_groups"), &c->mamba_n_groups));
    TRY(opt_nonneg(p, KEYS("conv_kernel"), &c->mamba_conv_kernel));
    TRY(opt_nonneg(p, KEYS("chunk_size"), &c->mamba_chunk_size));
    TRYI(get_bool(p, "use_conv_bias", &c->mamba_conv_bias));
    int ub = 0;
    TRYI(get_bool(p, "use_bias", &ub));
    c->qkv_bias = c->out_bias = c->qkv_bias || ub; /* attention_bias, read before */
    if (c->mamba_n_groups < 1 || c->mamba_num_heads % c->mamba_n_groups || c->mamba_conv_kernel < 1 ||
        c->mamba_chunk_size < 1)
        return dlp__err(p->err, DLP_EFORMAT, "%s: n_groups must divide mamba_num_heads; conv_kernel, chunk_size >= 1",
                        p->name);
    const char *ma = get_str(p, "mlp_hidden_act");
    if (ma) {
        int a = act_parse(ma);
        if (a < 0)
            return dlp__err(p->err, DLP_EUNSUPPORTED, "%s: field 'mlp_hidden_act' value '%s' is not supported",
                            p->name, ma);
        c->mlp_act = a;
    }
    c->act = c->mlp_act;
    return DLP_OK;
}

static dlp_status arch_qwen3_next(pctx *p, dlp_llm_config *c) {
    /* dense Qwen3.5 (qwen3_5 / qwen3_5_text): no experts */
    int moe = !!strstr(c->model_type, "moe") || !strcmp(c->model_type, "qwen3_next");
    if (moe) {
        c->num_experts = 512;
        c->experts_per_token = 10;
        c->moe_intermediate_size = c->shared_expert_intermediate_size = 512;
    }
    TRY(opt_nonneg(p, KEYS("num_experts"), &c->num_experts));
    TRY(opt_nonneg(p, KEYS("num_experts_per_tok"), &c->experts_per_token));
    TRY(opt_nonneg(p, KEYS("moe_intermediate_size"), &c->moe_intermediate_size));
    TRY(opt_nonneg(p, KEYS("shared_expert_intermediate_size"), &c->shared_expert_intermediate_size));
    if (!c->shared_expert_intermediate_size) c->shared_expert_gate = 0;
    TRY(qwen_dense_layers(p, c, 1));
    int gate = 1;
    TRYI(get_bool(p, "attn_output_gate", &gate));
    c->attn_output_gate = gate;
    TRY(opt_nonneg(p, KEYS("linear_num_key_heads"), &c->linear_num_key_heads));
    TRY(opt_nonneg(p, KEYS("linear_num_value_heads"), &c->linear_num_value_heads));
    TRY(opt_nonneg(p, KEYS("linear_key_head_dim"), &c->linear_key_head_dim));
    TRY(opt_nonneg(p, KEYS("linear_value_head_dim"), &c->linear_value_head_dim));
    TRY(opt_nonneg(p, KEYS("linear_conv_kernel_dim"), &c->linear_conv_kernel));
    if (c->linear_num_key_heads < 1 || c->linear_num_value_heads < 1 || c->linear_key_head_dim < 1 ||
        c->linear_value_head_dim < 1 || c->linear_conv_kernel < 1 ||
        c->linear_num_value_heads % c->linear_num_key_heads)
        return dlp__err(p->err, DLP_EFORMAT, "%s: field 'linear_num_value_heads' must be a multiple of "
                        "linear_num_key_heads (heads, head dims and linear_conv_kernel_dim >= 1)", p->name);
    return DLP_OK;
}

/* MiniMax-M2: experts are intermediate_size wide; sigmoid router with a
 * score correction bias (a buffer); qk-norm over the whole projections */
static dlp_status arch_minimax_m2(pctx *p, dlp_llm_config *c) {
    c->num_experts = 256;
    c->experts_per_token = 8;
    TRY(opt_nonneg(p, KEYS("num_local_experts", "num_experts"), &c->num_experts));
    TRY(opt_nonneg(p, KEYS("num_experts_per_tok"), &c->experts_per_token));
    c->moe_intermediate_size = c->intermediate_size;
    TRY(opt_nonneg(p, KEYS("shared_intermediate_size"), &c->shared_expert_intermediate_size));
    int64_t rd = 0;
    TRYI(get_i64(p, KEYS("rotary_dim"), &rd));
    if (rd > 0 && rd <= c->head_dim) c->rotary_fraction = (double)rd / (double)c->head_dim;
    int qkn = 1;
    TRYI(get_bool(p, "use_qk_norm", &qkn));
    const char *qt = get_str(p, "qk_norm_type");
    c->qk_norm = !qkn ? 0 : qt && !strcmp(qt, "per_head") ? 1 : 3;
    /* MiniMax-M1's attn_type_list 0 = lightning (linear) attention */
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(p->root, "attn_type_list"), *x;
    cJSON_ArrayForEach(x, at) {
        if (cJSON_IsNumber(x) && x->valuedouble == 0)
            return dlp__err(p->err, DLP_EUNSUPPORTED, "%s: field 'attn_type_list': lightning-attention layers (0) "
                            "are not built", p->name);
    }
    return DLP_OK;
}

/* FF_LAYERS families: biases, which layers slide, then the family's own
 * architecture (row->arch); experts checked last. */
static dlp_status parse_layers(pctx *p, const llm_family *fam, dlp_llm_config *c) {
    int64_t L = c->num_hidden_layers;
    if (L > DLP_LLM_MAX_LAYERS)
        return dlp__err(p->err, DLP_EUNSUPPORTED, "%s: %lld layers is more than the per-layer table holds (%d)",
                        p->name, (long long)L, DLP_LLM_MAX_LAYERS);
    int ab = !!(fam->flags & FF_ATTN_BIAS);
    TRYI(get_bool(p, "attention_bias", &ab));
    c->qkv_bias = c->out_bias = ab;
    int mb = 0;
    TRYI(get_bool(p, "mlp_bias", &mb));
    c->mlp_bias = mb;
    /* sliding windows: layer_types (newer configs) or a pattern */
    TRY(opt_nonneg(p, KEYS("sliding_window"), &c->sliding_window));
    TRY(read_layer_types(p, fam, c));
    if (fam->arch) TRY(fam->arch(p, c));
    if (c->num_experts > 0 && (c->experts_per_token < 1 || c->experts_per_token > c->num_experts))
        return dlp__err(p->err, DLP_EFORMAT, "%s: field 'num_experts_per_tok' must be in 1..%lld experts", p->name,
                        (long long)c->num_experts);
    return DLP_OK;
}

/* ---- hooks of the earlier families ---- */

/* Falcon: new_decoder_architecture (40B/180B: GQA, two norms in parallel)
 * or Falcon-7B (multi-query unless the config says otherwise, one norm) */
static dlp_status heads_falcon(pctx *p, dlp_llm_config *c) {
    int nda = 0, mq = 0;
    TRYI(get_bool(p, "new_decoder_architecture", &nda));
    int has_mq = get_bool(p, "multi_query", &mq);
    TRYI(has_mq);
    if (!nda) {
        int64_t kv = 0;
        int r = get_i64(p, KEYS("num_kv_heads", "n_head_kv"), &kv);
        TRYI(r);
        if (has_mq == 1 && !mq) c->num_key_value_heads = c->num_attention_heads;
        else if (r == 0 || has_mq == 1) c->num_key_value_heads = 1;
        int par = 1;
        TRYI(get_bool(p, "parallel_attn", &par));
        c->parallel_residual = c->shared_parallel_norm = par;
    } else {
        c->parallel_residual = 1;
        int64_t nln = 2;
        TRYI(get_i64(p, KEYS("num_ln_in_parallel_attn"), &nln));
        c->shared_parallel_norm = nln == 1;
    }
    int bias = 0, alibi = 0;
    TRYI(get_bool(p, "bias", &bias));
    TRYI(get_bool(p, "alibi", &alibi));
    c->qkv_bias = c->out_bias = c->mlp_bias = bias;
    if (alibi) c->position = DLP_POS_ALIBI;
    return DLP_OK;
}

static dlp_status rope_gptj(pctx *p, dlp_llm_config *c) {
    int64_t rd = 64;
    TRYI(get_i64(p, KEYS("rotary_dim"), &rd));
    c->rotary_fraction = (double)rd / (double)c->head_dim;
    return DLP_OK;
}

static dlp_status quirks_roberta(pctx *p, dlp_llm_config *c) {
    int64_t pad = 1;
    TRYI(get_i64(p, KEYS("pad_token_id"), &pad));
    c->position_offset = pad + 1;
    return DLP_OK;
}

static dlp_status quirks_distilbert(pctx *p, dlp_llm_config *c) {
    int sin = 0;
    TRYI(get_bool(p, "sinusoidal_pos_embds", &sin));
    if (sin) c->position = DLP_POS_NONE; /* a fixed table, not parameters: see docs */
    return DLP_OK;
}

static dlp_status quirks_deberta(pctx *p, dlp_llm_config *c) {
    int rel = 1, biased = 0;
    int r = get_bool(p, "relative_attention", &rel);
    TRYI(r);
    TRYI(get_bool(p, "position_biased_input", &biased));
    if (!rel) c->position = biased ? DLP_POS_LEARNED : DLP_POS_NONE;
    c->position_buckets = 0;
    TRYI(get_i64(p, KEYS("position_buckets"), &c->position_buckets));
    if (c->position_buckets <= 0) {
        int64_t mrp = -1;
        TRYI(get_i64(p, KEYS("max_relative_positions"), &mrp));
        c->position_buckets = mrp > 0 ? mrp : c->max_position_embeddings;
    }
    /* position_biased_input also adds absolute positions (DeBERTa v1) */
    if (rel && biased) c->position_offset = -1; /* marker: both, see build_embeddings */
    int64_t es = 0;
    TRYI(get_i64(p, KEYS("embedding_size"), &es));
    if (es > 0 && es != c->hidden_size) c->embed_proj_dim = es;
    return DLP_OK;
}

static dlp_status quirks_opt(pctx *p, dlp_llm_config *c) {
    int before = 1, remove_final = 0, bias = 1;
    TRYI(get_bool(p, "do_layer_norm_before", &before));
    TRYI(get_bool(p, "_remove_final_layer_norm", &remove_final));
    TRYI(get_bool(p, "enable_bias", &bias));
    c->pre_norm = before;
    c->final_norm = before && !remove_final;
    c->qkv_bias = c->out_bias = c->mlp_bias = bias;
    int64_t proj = c->hidden_size;
    TRYI(get_i64(p, KEYS("word_embed_proj_dim"), &proj));
    if (proj > 0 && proj != c->hidden_size) c->embed_proj_dim = proj;
    return DLP_OK;
}

static dlp_status quirks_neox(pctx *p, dlp_llm_config *c) {
    int par = 1;
    TRYI(get_bool(p, "use_parallel_residual", &par));
    c->parallel_residual = par;
    return DLP_OK;
}

static dlp_status quirks_llama(pctx *p, dlp_llm_config *c) {
    int ab = 0, mb = 0;
    TRYI(get_bool(p, "attention_bias", &ab));
    TRYI(get_bool(p, "mlp_bias", &mb));
    c->qkv_bias = c->out_bias = ab;
    c->mlp_bias = mb;
    return DLP_OK;
}

static dlp_status quirks_mixtral(pctx *p, dlp_llm_config *c) {
    TRY(quirks_llama(p, c));
    c->num_experts = 8;
    c->experts_per_token = 2;
    TRY(opt_nonneg(p, KEYS("num_local_experts"), &c->num_experts));
    TRY(opt_nonneg(p, KEYS("num_experts_per_tok"), &c->experts_per_token));
    if (c->experts_per_token < 1 || c->experts_per_token > c->num_experts)
        return dlp__err(p->err, DLP_EFORMAT, "%s: field 'num_experts_per_tok' must be in 1..num_local_experts",
                        p->name);
    return DLP_OK;
}

static dlp_status quirks_phi(pctx *p, dlp_llm_config *c) {
    int qk = 0;
    TRYI(get_bool(p, "qk_layernorm", &qk));
    if (qk) return dlp__err(p->err, DLP_EUNSUPPORTED, "%s: field 'qk_layernorm' true is not supported", p->name);
    return DLP_OK;
}

static dlp_status quirks_gemma2(pctx *p, dlp_llm_config *c) {
    c->attn_softcap = 50.0;
    TRYI(get_f64(p, KEYS("attn_logit_softcapping"), &c->attn_softcap));
    return DLP_OK;
}

static dlp_status quirks_starcoder2(pctx *p, dlp_llm_config *c) {
    int ub = 1;
    TRYI(get_bool(p, "use_bias", &ub));
    c->qkv_bias = c->out_bias = c->mlp_bias = ub;
    return DLP_OK;
}

/* ---- the table ---- */

#define TYPES(...) ((const char *const[]){__VA_ARGS__, NULL})

static const llm_family families[] = {
    /* name          model_type strings                       flags, defaults, heads, rope, quirks, layers, arch */
    {"bert", TYPES("bert"), 0, def_bert, NULL, NULL, NULL, NULL, NULL},
    {"roberta", TYPES("roberta", "xlm-roberta", "camembert"), 0, def_roberta, NULL, NULL, quirks_roberta, NULL,
     NULL},
    {"distilbert", TYPES("distilbert"), 0, def_distilbert, NULL, NULL, quirks_distilbert, NULL, NULL},
    {"deberta", TYPES("deberta-v2", "deberta"), 0, def_deberta, NULL, NULL, quirks_deberta, NULL, NULL},
    {"gpt2", TYPES("gpt2"), FF_FFN4, def_gpt2, NULL, NULL, NULL, NULL, NULL},
    {"opt", TYPES("opt"), FF_PROJ_IN_OUT, def_opt, NULL, NULL, quirks_opt, NULL, NULL},
    {"gpt_neox", TYPES("gpt_neox"), 0, def_neox, NULL, NULL, quirks_neox, NULL, NULL},
    {"gptj", TYPES("gptj"), FF_FFN4, def_gptj, NULL, rope_gptj, NULL, NULL, NULL},
    {"llama", TYPES("llama", "mistral", "aquila", "deci"), 0, def_llama, NULL, NULL, quirks_llama, NULL, NULL},
    {"qwen2", TYPES("qwen2", "qwen2_vl", "qwen2_5_vl", "qwen2_5_vl_text", "qwen2_vl_text"), 0, def_qwen2, NULL,
     NULL, NULL, NULL, NULL},
    {"mixtral", TYPES("mixtral"), 0, def_llama, NULL, NULL, quirks_mixtral, NULL, NULL},
    {"phi", TYPES("phi"), 0, def_phi, NULL, NULL, quirks_phi, NULL, NULL},
    {"phi3", TYPES("phi3"), 0, def_phi3, NULL, NULL, NULL, NULL, NULL},
    {"phi3small", TYPES("phi3small"), 0, def_phi3small, NULL, NULL, NULL, NULL, NULL},
    {"falcon", TYPES("falcon", "RefinedWeb", "RefinedWebModel"), FF_FFN4, def_falcon, heads_falcon, NULL, NULL,
     NULL, NULL},
    {"bloom", TYPES("bloom"), FF_FFN4, def_bloom, NULL, NULL, NULL, NULL, NULL},
    {"gemma", TYPES("gemma"), 0, def_gemma, NULL, NULL, NULL, NULL, NULL},
    {"gemma2", TYPES("gemma2"), 0, def_gemma2, NULL, NULL, quirks_gemma2, NULL, NULL},
    {"starcoder2", TYPES("starcoder2"), 0, def_starcoder2, NULL, NULL, quirks_starcoder2, NULL, NULL},
    /* 2025-26 */
    {"qwen3", TYPES("qwen3", "qwen3_vl", "qwen3_vl_text"), FF_LAYERS, def_qwen3, NULL, NULL, NULL, layers_qwen3,
     NULL},
    {"qwen3_moe", TYPES("qwen3_moe", "qwen3_vl_moe", "qwen3_vl_moe_text", "qwen3_omni_moe_text"), FF_LAYERS,
     def_qwen3_moe, NULL, NULL,
     NULL, layers_qwen3, arch_qwen3_moe},
    {"gemma3", TYPES("gemma3", "gemma3_text"), FF_LAYERS, def_gemma3, NULL, NULL, NULL, layers_gemma3, NULL},
    {"llama4", TYPES("llama4", "llama4_text"), FF_LAYERS | FF_ROUTER_SIGMOID, def_llama4, NULL, NULL, NULL, NULL,
     arch_llama4},
    {"gpt_oss", TYPES("gpt_oss"), FF_LAYERS | FF_ATTN_BIAS, def_gpt_oss, NULL, NULL, NULL, layers_gpt_oss,
     arch_gpt_oss},
    {"deepseek", TYPES("deepseek_v3", "kimi_k2", "kimi_k25", "deepseek_v32", "glm_moe_dsa"),
     FF_LAYERS | FF_ROUTER_SIGMOID, def_deepseek, NULL, NULL, NULL, NULL, arch_deepseek},
    {"nemotron_h", TYPES("nemotron_h"), FF_LAYERS | FF_OWN_PATTERN | FF_ROUTER_SIGMOID, def_nemotron_h, NULL, NULL,
     NULL, NULL, arch_nemotron_h},
    {"qwen3_next", TYPES("qwen3_next", "qwen3_5_moe", "qwen3_5_moe_text", "qwen3_5", "qwen3_5_text"),
     FF_LAYERS | FF_LINEAR_ATTN | FF_FFN_MOE, def_qwen3_next, NULL, NULL, NULL, layers_qwen3_next, arch_qwen3_next},
    {"minimax_m2", TYPES("minimax_m2"), FF_LAYERS | FF_ROUTER_SIGMOID, def_minimax_m2, NULL, NULL, NULL, NULL,
     arch_minimax_m2},
};

/* The row whose model_type strings include mt; NULL when none does. */
static const llm_family *family_find(const char *mt) {
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        for (const char *const *t = families[i].types; *t; t++)
            if (!strcmp(mt, *t)) return &families[i];
    return NULL;
}

/* ---- config.json -> dlp_llm_config, in steps ---- */

/* model_type -> the family's row, defaults applied */
static dlp_status read_family(pctx *p, dlp_llm_config *c, const llm_family **fam) {
    const char *mt = get_str(p, "model_type");
    if (!mt) {
        if (cJSON_GetObjectItemCaseSensitive(p->root, "model_type"))
            return dlp__err(p->err, DLP_EFORMAT, "%s: field 'model_type' must be a string", p->name);
        return dlp__err(p->err, DLP_EFORMAT, "%s: field 'model_type' is missing", p->name);
    }
    *fam = family_find(mt);
    if (!*fam)
        return dlp__err(p->err, DLP_EUNSUPPORTED,
                        "%s: model_type '%s' is not supported (bert, roberta, xlm-roberta, distilbert, "
                        "deberta-v2, gpt2, opt, gpt_neox, gptj, llama, mistral, deci, mixtral, qwen2, phi, phi3, "
                        "falcon, bloom, gemma, gemma2, starcoder2, qwen3, qwen3_moe, gemma3, llama4, gpt_oss, "
                        "deepseek_v3, kimi_k2, kimi_k25, glm_moe_dsa, deepseek_v32, nemotron_h, qwen3_next, "
                        "qwen3_5_moe, qwen3_5, minimax_m2, qwen2_5_vl, qwen3_vl, qwen3_vl_moe, qwen3_omni_moe)", p->name, mt);
    snprintf(c->model_type, sizeof c->model_type, "%s", mt);
    def_common(c);
    (*fam)->defaults(c);
    return DLP_OK;
}

/* DeciLM's variable GQA: num_key_value_heads_per_layer gives each layer's
 * KV heads (its modeling code builds layer i with entry i; the config's
 * num_key_value_heads, 32 for DeciLM-7B, is not used).  Kept per layer, so
 * that the weights and the cache are the per-layer sum; num_key_value_heads
 * becomes the largest entry (what vLLM's decilm.py pads every layer to). */
static dlp_status read_kv_per_layer(pctx *p, dlp_llm_config *c) {
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(p->root, "num_key_value_heads_per_layer"), *x;
    if (!a || cJSON_IsNull(a)) return DLP_OK;
    int64_t L = c->num_hidden_layers, mx = 0;
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != L || L > DLP_LLM_MAX_LAYERS)
        return dlp__err(p->err, DLP_EFORMAT, "%s: field 'num_key_value_heads_per_layer' must list one count for each "
                        "of the %lld layers", p->name, (long long)L);
    int i = 0;
    cJSON_ArrayForEach(x, a) {
        double v = cJSON_IsNumber(x) ? x->valuedouble : -1;
        if (!(v >= 1 && v <= 255) || v != floor(v) || c->num_attention_heads % (int64_t)v)
            return dlp__err(p->err, DLP_EFORMAT, "%s: field 'num_key_value_heads_per_layer' entry %d (%g) must be a "
                            "count that divides num_attention_heads %lld", p->name, i, v,
                            (long long)c->num_attention_heads);
        c->kv_heads_layer[i++] = (unsigned char)v;
        if ((int64_t)v > mx) mx = (int64_t)v;
    }
    c->num_key_value_heads = mx;
    return DLP_OK;
}

/* sizes and heads, under each family's spelling */
static dlp_status read_sizes(pctx *p, const llm_family *fam, dlp_llm_config *c) {
    TRY(need_pos(p, KEYS("hidden_size", "n_embd", "dim", "d_model", "n_embed"), &c->hidden_size));
    TRY(need_pos(p, KEYS("num_hidden_layers", "n_layer", "n_layers", "num_layers"), &c->num_hidden_layers));
    TRY(need_pos(p, KEYS("num_attention_heads", "n_head", "n_heads", "num_heads"), &c->num_attention_heads));
    TRY(need_pos(p, KEYS("vocab_size"), &c->vocab_size));
    int64_t H = c->hidden_size;
    TRY(opt_nonneg(p, KEYS("intermediate_size", "ffn_dim", "hidden_dim", "n_inner", "ffn_hidden_size",
                           "ff_intermediate_size"), &c->intermediate_size));
    /* Qwen3.5-MoE has no dense MLP width: every layer is MoE */
    if (!c->intermediate_size && (fam->flags & FF_FFN_MOE))
        TRY(opt_nonneg(p, KEYS("moe_intermediate_size"), &c->intermediate_size));
    if (!c->intermediate_size) {
        if (fam->flags & FF_FFN4) c->intermediate_size = 4 * H;
        else return dlp__err(p->err, DLP_EFORMAT, "%s: field 'intermediate_size' is missing", p->name);
    }
    TRY(opt_nonneg(p, KEYS("max_position_embeddings", "n_positions", "n_ctx", "max_sequence_length",
                           "seq_length"), &c->max_position_embeddings));
    TRY(opt_nonneg(p, KEYS("type_vocab_size"), &c->type_vocab_size));
    if (!c->num_key_value_heads) c->num_key_value_heads = c->num_attention_heads;
    TRY(opt_nonneg(p, KEYS("num_key_value_heads", "num_kv_heads", "n_head_kv"), &c->num_key_value_heads));
    if (fam->heads) TRY(fam->heads(p, c));
    if (c->num_key_value_heads == 0) c->num_key_value_heads = c->num_attention_heads;
    TRY(read_kv_per_layer(p, c));
    TRY(opt_nonneg(p, KEYS("head_dim", "attention_head_dim"), &c->head_dim));
    if (!c->head_dim) {
        if (H % c->num_attention_heads)
            return dlp__err(p->err, DLP_EFORMAT, "%s: hidden size %lld is not divisible by num_attention_heads %lld",
                            p->name, (long long)H, (long long)c->num_attention_heads);
        c->head_dim = H / c->num_attention_heads;
    }
    if (c->num_attention_heads % c->num_key_value_heads)
        return dlp__err(p->err, DLP_EFORMAT, "%s: num_attention_heads %lld is not a multiple of num_key_value_heads "
                        "%lld", p->name, (long long)c->num_attention_heads, (long long)c->num_key_value_heads);
    return DLP_OK;
}

/* A dropout probability under any of `keys`, kept in [0, 1]. */
static dlp_status read_dropout(pctx *p, const char *const *keys, double *out) {
    double v = *out;
    int r = get_f64(p, keys, &v);
    if (r < 0) return (dlp_status)r;
    if (r && (v < 0 || v > 1))
        return dlp__err(p->err, DLP_EFORMAT, "%s: dropout probability %g is not in [0, 1]", p->name, v);
    *out = v;
    return DLP_OK;
}

/* Dropout where the modeling code has it: on the attention probabilities
 * (GPT-2 attn_pdrop, BERT attention_probs_dropout_prob, OPT/Llama/DistilBERT
 * attention_dropout), on each sublayer's output before the residual add
 * (GPT-2/GPT-J/Phi resid_pdrop, BERT hidden_dropout_prob, OPT/DistilBERT
 * dropout, GPT-Neo resid_dropout, Falcon hidden_dropout) and on the
 * embeddings (GPT-2/GPT-J embd_pdrop, GPT-Neo embed_dropout; BERT-style
 * encoders use the hidden dropout there: BertEmbeddings.dropout). */
static dlp_status read_dropouts(pctx *p, dlp_llm_config *c) {
    dlp_status st = read_dropout(p, KEYS("attn_pdrop", "attention_probs_dropout_prob", "attention_dropout"),
                                 &c->attn_dropout);
    if (st == DLP_OK)
        st = read_dropout(p, KEYS("resid_pdrop", "hidden_dropout_prob", "resid_dropout", "dropout", "hidden_dropout"),
                          &c->resid_dropout);
    if (st == DLP_OK && c->encoder_only) c->embed_dropout = c->resid_dropout;
    if (st == DLP_OK) st = read_dropout(p, KEYS("embd_pdrop", "embed_dropout"), &c->embed_dropout);
    return st;
}

/* activation, norms, tied head, rotary positions */
static dlp_status read_act_rope(pctx *p, const llm_family *fam, dlp_llm_config *c) {
    const char *act = get_str(p, "hidden_activation");
    if (!act) act = get_str(p, "hidden_act");
    if (!act) act = get_str(p, "activation_function");
    if (!act) act = get_str(p, "activation");
    if (act) {
        int a = act_parse(act);
        if (a < 0)
            return dlp__err(p->err, DLP_EUNSUPPORTED, "%s: field 'hidden_act' value '%s' is not supported", p->name,
                            act);
        c->act = a;
    }
    dlp_status dst = read_dropouts(p, c);
    if (dst != DLP_OK) return dst;
    TRYI(get_f64(p, KEYS("layer_norm_eps", "layer_norm_epsilon", "rms_norm_eps", "norm_epsilon", "norm_eps"),
                 &c->norm_eps));
    if (c->norm_eps < 0)
        return dlp__err(p->err, DLP_EFORMAT, "%s: field 'layer_norm_eps' must not be negative", p->name);
    TRYI(get_bool(p, "tie_word_embeddings", &c->tie_word_embeddings));
    if (c->encoder_only) c->tie_word_embeddings = 0;
    /* positions: top level, or (newer configs) inside rope_parameters */
    const cJSON *rp = cJSON_GetObjectItemCaseSensitive(p->root, "rope_parameters");
    if (cJSON_IsObject(rp)) {
        pctx pr = {p->name, rp, p->err};
        TRYI(get_f64(&pr, KEYS("rope_theta"), &c->rope_theta));
        TRYI(get_f64(&pr, KEYS("partial_rotary_factor"), &c->rotary_fraction));
    }
    TRYI(get_f64(p, KEYS("rope_theta", "rotary_emb_base", "rope_embedding_base"), &c->rope_theta));
    TRYI(get_f64(p, KEYS("partial_rotary_factor", "rotary_pct"), &c->rotary_fraction));
    if (fam->rope) TRY(fam->rope(p, c));
    if (c->rotary_fraction <= 0 || c->rotary_fraction > 1)
        return dlp__err(p->err, DLP_EFORMAT, "%s: field 'partial_rotary_factor' must be in (0, 1]", p->name);
    return DLP_OK;
}

/* encoders: the architecture decides between pooler and masked-LM head */
static void read_encoder_head(pctx *p, dlp_llm_config *c) {
    const cJSON *arch = cJSON_GetObjectItemCaseSensitive(p->root, "architectures"), *ai;
    if (!c->encoder_only || !cJSON_IsArray(arch)) return;
    cJSON_ArrayForEach(ai, arch) {
        if (!cJSON_IsString(ai)) continue;
        if (strstr(ai->valuestring, "ForMaskedLM") || strstr(ai->valuestring, "LMHeadModel") ||
            strstr(ai->valuestring, "ForPreTraining")) {
            c->mlm_head = 1;
            c->pooler = 0;
        }
    }
}

/* the checkpoint's own weight format: quantization_config, else its 16-bit
 * type (torch_dtype, or transformers 4.56's "dtype") */
static void read_weights_format(pctx *p, dlp_llm_config *c) {
    const cJSON *qc = cJSON_GetObjectItemCaseSensitive(p->root, "quantization_config");
    if (cJSON_IsObject(qc)) {
        pctx pq = {p->name, qc, p->err};
        const char *qm = get_str(&pq, "quant_method"), *qa = get_str(&pq, "quant_algo");
        const char *fmt = NULL;
        if (qa && strstr(qa, "NVFP4")) fmt = "nvfp4";
        else if (qa && strstr(qa, "FP8")) fmt = "fp8";
        else if (qm && !strcmp(qm, "fp8")) fmt = "fp8";
        else if (qm && !strcmp(qm, "mxfp4")) fmt = "mxfp4";
        else if (qm && (!strcmp(qm, "awq") || !strcmp(qm, "gptq"))) fmt = "int4";
        if (fmt) snprintf(c->weights_format, sizeof c->weights_format, "%s", fmt);
    }
    if (!c->weights_format[0]) {
        const char *td = get_str(p, "torch_dtype");
        if (!td) td = get_str(p, "dtype");
        if (td && !strcmp(td, "bfloat16")) snprintf(c->weights_format, sizeof c->weights_format, "bf16");
    }
}

static dlp_status parse_obj1(const cJSON *root, const char *name, dlp_llm_config *c, dlp_error *err) {
    pctx p = {name, root, err};
    memset(c, 0, sizeof *c);
    snprintf(c->id, sizeof c->id, "%s", name);
    if (!cJSON_IsObject(root)) return dlp__err(err, DLP_EFORMAT, "%s: not a JSON object", name);
    const llm_family *fam = NULL;
    TRY(read_family(&p, c, &fam));
    TRY(read_sizes(&p, fam, c));
    TRY(read_act_rope(&p, fam, c));
    read_encoder_head(&p, c);
    if (fam->quirks) TRY(fam->quirks(&p, c));
    read_weights_format(&p, c);
    if (fam->flags & FF_LAYERS) TRY(parse_layers(&p, fam, c));
    if (c->position == DLP_POS_LEARNED && c->max_position_embeddings <= 0)
        return dlp__err(err, DLP_EFORMAT, "%s: field 'max_position_embeddings' is missing", name);
    return DLP_OK;
}

/* Builder quirks that follow the family of c->model_type (a config filled
 * by hand with an unknown model_type has none). */
static int family_has(const dlp_llm_config *c, unsigned flag) {
    const llm_family *f = family_find(c->model_type);
    return f && (f->flags & flag);
}

dlp_status dlp_llm_config_parse(const char *json, const char *name, dlp_llm_config *out, dlp_error *err) {
    if (!json || !out) return dlp__err(err, DLP_EINVAL, "dlp_llm_config_parse: NULL argument");
    if (!name) name = "config.json";
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(json, &end, 0);
    if (!root) {
        size_t off = end ? (size_t)(end - json) : 0;
        return dlp__err(err, DLP_EFORMAT, "%s: not valid JSON (near byte %zu)", name, off);
    }
    dlp_status st = parse_obj(root, name, out, err);
    cJSON_Delete(root);
    return st;
}

dlp_status dlp_llm_config_load(const char *path, dlp_llm_config *out, dlp_error *err) {
    dlp__mapped m;
    if (!path || !out) return dlp__err(err, DLP_EINVAL, "dlp_llm_config_load: NULL argument");
    dlp_status st = dlp__map_file(path, &m, err);
    if (st) return st;
    char *buf = malloc(m.len + 1);
    if (!buf) {
        dlp__unmap_file(&m);
        return dlp__err(err, DLP_ENOMEM, "%s: out of memory", path);
    }
    memcpy(buf, m.data, m.len);
    buf[m.len] = 0;
    dlp__unmap_file(&m);
    st = dlp_llm_config_parse(buf, path, out, err);
    free(buf);
    if (!st) {
        /* id: the file name without .json, or the folder for ".../config.json" */
        const char *b = dlp__basename(path);
        char tmp[96];
        if (!strcmp(b, "config.json") && b > path + 1) {
            const char *e = b - 1, *s = e;
            while (s > path && s[-1] != '/') s--;
            snprintf(tmp, sizeof tmp, "%.*s", (int)(e - s), s);
        } else {
            join2(tmp, sizeof tmp, b, "");
            char *dot = strrchr(tmp, '.');
            if (dot && !strcmp(dot, ".json")) *dot = 0;
        }
        snprintf(out->id, sizeof out->id, "%s", tmp);
    }
    return st;
}

/* ======================================================================
 * catalogue
 * ====================================================================== */

typedef struct {
    const char *id, *hf;
    const cJSON *aliases, *config;
    int64_t params;
    const char *weights;       /* the release's native weight format, or NULL */
} cat_entry;

static cJSON *cat_root;
static cat_entry *cat;
static int n_cat;
static pthread_once_t cat_once = PTHREAD_ONCE_INIT;

static void cat_load(void) {
    cat_root = cJSON_Parse(dlp__llm_configs_json);
    const cJSON *models = cJSON_GetObjectItemCaseSensitive(cat_root, "models");
    int n = cJSON_GetArraySize(models);
    cat = calloc(n > 0 ? (size_t)n : 1, sizeof *cat);
    if (!cat) return;
    const cJSON *m;
    cJSON_ArrayForEach(m, models) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(m, "id");
        const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(m, "config");
        if (!cJSON_IsString(id) || !cJSON_IsObject(cfg)) continue; /* tests check the file */
        cat_entry *e = &cat[n_cat++];
        e->id = id->valuestring;
        const cJSON *hf = cJSON_GetObjectItemCaseSensitive(m, "hf");
        e->hf = cJSON_IsString(hf) ? hf->valuestring : "";
        e->aliases = cJSON_GetObjectItemCaseSensitive(m, "aliases");
        e->config = cfg;
        const cJSON *pr = cJSON_GetObjectItemCaseSensitive(m, "params");
        e->params = cJSON_IsNumber(pr) ? (int64_t)pr->valuedouble : 0;
        const cJSON *wf = cJSON_GetObjectItemCaseSensitive(m, "weights");
        e->weights = cJSON_IsString(wf) ? wf->valuestring : NULL;
    }
}

int dlp_llm_catalogue_count(void) {
    pthread_once(&cat_once, cat_load);
    return n_cat;
}

const char *dlp_llm_catalogue_at(int i) {
    pthread_once(&cat_once, cat_load);
    return i >= 0 && i < n_cat ? cat[i].id : NULL;
}

/* Lowercase, drop "-", "_" and spaces: "Llama-2-7b_hf" == "llama27bhf"; dots
 * stay ("opt-1.3b" is not "opt-13b"). */
static void norm_id(const char *s, char *o, size_t cap) {
    size_t k = 0;
    for (; *s && k + 1 < cap; s++)
        if (*s != '-' && *s != '_' && *s != ' ') o[k++] = (char)tolower((unsigned char)*s);
    o[k] = 0;
}

/* An alias is a string, or {"id": "...", "weights": "nvfp4"} for a
 * quantised checkpoint of the same architecture; *weights receives the
 * matched alias' format (NULL: the entry's). */
static int cat_match(const cat_entry *e, const char *want, const char **weights) {
    char a[160], b[160];
    *weights = NULL;
    norm_id(want, a, sizeof a);
    const char *slash = strrchr(want, '/');
    char a2[160] = "";
    if (slash) norm_id(slash + 1, a2, sizeof a2); /* "org/name": the name alone too */
    const char *cands[2] = {e->id, e->hf};
    for (int k = 0; k < 2; k++) {
        if (!cands[k] || !*cands[k]) continue;
        norm_id(cands[k], b, sizeof b);
        if (!strcmp(a, b)) return 1;
    }
    const cJSON *al;
    cJSON_ArrayForEach(al, e->aliases) {
        const cJSON *aid = cJSON_IsObject(al) ? cJSON_GetObjectItemCaseSensitive(al, "id") : al;
        if (!cJSON_IsString(aid)) continue;
        norm_id(aid->valuestring, b, sizeof b);
        if (!strcmp(a, b) || (a2[0] && !strcmp(a2, b))) {
            const cJSON *wf = cJSON_IsObject(al) ? cJSON_GetObjectItemCaseSensitive(al, "weights") : NULL;
            if (cJSON_IsString(wf)) *weights = wf->valuestring;
            return 1;
        }
    }
    if (a2[0]) {
        norm_id(e->id, b, sizeof b);
        if (!strcmp(a2, b)) return 1;
    }
    return 0;
}

/* Edit distance on normalised ids, for "did you mean". */
static int edit_dist(const char *s, const char *t) {
    size_t n = strlen(s), m = strlen(t);
    if (n > 80 || m > 80) return 1000;
    int d[81][81];
    for (size_t i = 0; i <= n; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int c = d[i - 1][j - 1] + (s[i - 1] != t[j - 1]);
            if (d[i - 1][j] + 1 < c) c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c) c = d[i][j - 1] + 1;
            d[i][j] = c;
        }
    return d[n][m];
}

dlp_status dlp_llm_catalogue_get(const char *id, dlp_llm_config *out, dlp_error *err) {
    pthread_once(&cat_once, cat_load);
    if (!id || !out) return dlp__err(err, DLP_EINVAL, "dlp_llm_catalogue_get: NULL argument");
    if (!cat_root) return dlp__err(err, DLP_EINTERNAL, "built-in data/llm_configs.json does not parse");
    for (int i = 0; i < n_cat; i++) {
        const char *wf = NULL;
        if (!cat_match(&cat[i], id, &wf)) continue;
        char nm[160];
        snprintf(nm, sizeof nm, "data/llm_configs.json (%s)", cat[i].id);
        dlp_status st = parse_obj(cat[i].config, nm, out, err);
        if (st) return st;
        snprintf(out->id, sizeof out->id, "%s", cat[i].id);
        snprintf(out->hf_id, sizeof out->hf_id, "%s", cat[i].hf);
        out->params_ref = cat[i].params;
        if (!wf) wf = cat[i].weights;
        if (wf) snprintf(out->weights_format, sizeof out->weights_format, "%s", wf);
        return DLP_OK;
    }
    /* three closest ids */
    char want[160], b[160];
    norm_id(id, want, sizeof want);
    int best[3] = {-1, -1, -1}, bd[3] = {1 << 30, 1 << 30, 1 << 30};
    for (int i = 0; i < n_cat; i++) {
        norm_id(cat[i].id, b, sizeof b);
        int d = edit_dist(want, b);
        for (int k = 0; k < 3; k++)
            if (d < bd[k]) {
                for (int j = 2; j > k; j--) {
                    bd[j] = bd[j - 1];
                    best[j] = best[j - 1];
                }
                bd[k] = d;
                best[k] = i;
                break;
            }
    }
    char list[256] = "";
    size_t len = 0;
    for (int k = 0; k < 3 && best[k] >= 0 && len < sizeof list; k++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", k ? ", " : "", cat[best[k]].id);
    return dlp__err(err, DLP_ENOTFOUND, "unknown model '%s' (closest: %s; 'dlperf llm --list' lists all)", id,
                    list);
}

/* ======================================================================
 * graph building
 * ====================================================================== */

enum { W_PLAIN, W_LINEAR };

#define NCONST 96
typedef struct {
    dlp_graph *g;
    const dlp_llm_config *c;
    dlp_error *err;
    int dt;                    /* activation (and graph weight) dtype        */
    int64_t B, S;
    int oom;
    int last_node;
    char scope[96];            /* "/layers.3/attn"                           */
    dlp_llm_weights w;
    /* cached constants: int64 vectors and float scalars */
    int n_const;
    struct { int kind; int n; int64_t iv[8]; double f; int dt; int id; } konst[NCONST];
    int cos, sin;              /* rotary tables (S, rot_dim), shared         */
    int64_t rot_dim;
    int mask;                  /* causal mask (S, S), shared; -1 encoders    */
    int alibi;                 /* ALiBi stand-in (1,1,1,1,S), shared         */
    int rel;                   /* DeBERTa normalised rel_embeddings          */
    int rel_idx;               /* DeBERTa gather index (S)                   */
    int uid;
    int lk;                    /* layer_kind of the layer being built        */
    int64_t routed, routed_active; /* routed-expert parameters, all / per token */
    int expert;                /* building routed-expert weights (mxfp4 rule) */
} tb;

/* scope "/" name, as snprintf "%s/%s"; returns the length */
static size_t full_name(tb *b, char *buf, size_t n, const char *name) {
    size_t k = join2(buf, n, b->scope, "/");
    return k + join2(buf + k, n - k, name, "");
}

/* A node with n_out fresh outputs (shapes left to the rules).  Returns the
 * first output value id; outs (may be NULL) receives them all. */
static int tb_nodev(tb *b, const char *op, const char *name, int n_in, const int *in, int n_out, int *outs) {
    char nm[256], vn[300];
    int tmp[8];
    if (b->oom || n_out > 8) return -1;
    for (int i = 0; i < n_in; i++)
        if (in[i] < -1 || (in[i] == -1 && i == 0)) {
            b->oom = 1;
            return -1;
        }
    size_t k = full_name(b, nm, sizeof nm, name);
    memcpy(vn, nm, k); /* nm < 256 bytes: "nm_output_o" fits vn's 300 */
    memcpy(vn + k, "_output_0", 10);
    for (int o = 0; o < n_out; o++) {
        vn[k + 8] = (char)('0' + o); /* o < 8 */
        tmp[o] = dlp__graph_add_value(b->g, vn, 0, -1, NULL);
        if (tmp[o] < 0) {
            b->oom = 1;
            return -1;
        }
    }
    int nd = dlp__graph_add_node(b->g, nm, op, "", n_in, in, n_out, tmp);
    if (nd < 0) {
        b->oom = 1;
        return -1;
    }
    b->last_node = nd;
    if (outs)
        for (int o = 0; o < n_out; o++) outs[o] = tmp[o];
    return tmp[0];
}

static int tb_op(tb *b, const char *op, const char *name, int n_in, const int *in) {
    return tb_nodev(b, op, name, n_in, in, 1, NULL);
}
static int tb_op1(tb *b, const char *op, const char *name, int x) { return tb_op(b, op, name, 1, &x); }
static int tb_op2(tb *b, const char *op, const char *name, int x, int y) {
    int in[2] = {x, y};
    return tb_op(b, op, name, 2, in);
}

static void tb_attr_i(tb *b, const char *k, int64_t v) {
    if (!b->oom && dlp__node_set_int(b->g, b->last_node, k, v)) b->oom = 1;
}
static void tb_attr_f(tb *b, const char *k, double v) {
    if (!b->oom && dlp__node_set_float(b->g, b->last_node, k, v)) b->oom = 1;
}
static void tb_attr_s(tb *b, const char *k, const char *v) {
    if (!b->oom && dlp__node_set_string(b->g, b->last_node, k, v)) b->oom = 1;
}
static void tb_attr_ints(tb *b, const char *k, int n, const int64_t *v) {
    if (!b->oom && dlp__node_set_ints(b->g, b->last_node, k, n, v)) b->oom = 1;
}

/* 1-D int64 constant (an initializer with known values), cached. */
static int tb_ints(tb *b, int n, const int64_t *v) {
    if (b->oom) return -1;
    for (int i = 0; i < b->n_const; i++)
        if (b->konst[i].kind == 0 && b->konst[i].n == n && !memcmp(b->konst[i].iv, v, sizeof(int64_t) * (size_t)n))
            return b->konst[i].id;
    char nm[64];
    join_int(nm, sizeof nm, "const_i", b->uid++);
    int64_t d = n;
    int id = dlp__graph_add_const_ints(b->g, nm, 1, &d, v);
    if (id < 0) {
        b->oom = 1;
        return -1;
    }
    if (n <= 8 && b->n_const < NCONST) {
        b->konst[b->n_const].kind = 0;
        b->konst[b->n_const].n = n;
        memcpy(b->konst[b->n_const].iv, v, sizeof(int64_t) * (size_t)n);
        b->konst[b->n_const++].id = id;
    }
    return id;
}
static int tb_i1(tb *b, int64_t v) { return tb_ints(b, 1, &v); }

/* Scalar int64 constant (rank 0), for Range. */
static int tb_iscalar(tb *b, int64_t v) {
    if (b->oom) return -1;
    for (int i = 0; i < b->n_const; i++)
        if (b->konst[i].kind == 2 && b->konst[i].iv[0] == v) return b->konst[i].id;
    char nm[64];
    join_int(nm, sizeof nm, "const_s", b->uid++);
    int id = dlp__graph_add_const_ints(b->g, nm, 0, NULL, &v);
    if (id < 0) {
        b->oom = 1;
        return -1;
    }
    if (b->n_const < NCONST) {
        b->konst[b->n_const].kind = 2;
        b->konst[b->n_const].iv[0] = v;
        b->konst[b->n_const++].id = id;
    }
    return id;
}

/* Float scalar of dtype dt: a Constant node (value_float, as torch exports
 * scalars — Constant nodes are not parameters), Cast when dt is not FLOAT. */
static int tb_scalar(tb *b, double v, int dt) {
    if (b->oom) return -1;
    for (int i = 0; i < b->n_const; i++)
        if (b->konst[i].kind == 1 && b->konst[i].f == v && b->konst[i].dt == dt) return b->konst[i].id;
    char save[96], nm[64];
    memcpy(save, b->scope, sizeof save);
    b->scope[0] = 0;
    join_int(nm, sizeof nm, "Constant_", b->uid++);
    int id = tb_op(b, "Constant", nm, 0, NULL);
    tb_attr_f(b, "value_float", v);
    if (dt != DLP_DT_FLOAT) {
        join_int(nm, sizeof nm, "Cast_", b->uid++);
        id = tb_op1(b, "Cast", nm, id);
        tb_attr_i(b, "to", dt);
    }
    memcpy(b->scope, save, sizeof save);
    if (id >= 0 && b->n_const < NCONST) {
        b->konst[b->n_const].kind = 1;
        b->konst[b->n_const].f = v;
        b->konst[b->n_const].dt = dt;
        b->konst[b->n_const++].id = id;
    }
    return id;
}

/* Weight initializer "<scope>/<name>" in the graph dtype, with the memory
 * rules' bookkeeping: W_LINEAR weights (in, out) are what bitsandbytes
 * converts; everything else stays 16-bit under int8/nf4. */
static int tb_weight(tb *b, const char *name, int rank, const int64_t *dims, int kind) {
    char nm[256];
    if (b->oom) return -1;
    full_name(b, nm, sizeof nm, name);
    int id = dlp__graph_add_weight(b->g, nm, b->dt, rank, dims);
    if (id < 0) {
        b->oom = 1;
        return -1;
    }
    int64_t n = 1;
    for (int i = 0; i < rank; i++) n = dlp__sat_mul(n, dims[i]);
    dlp_llm_weights *w = &b->w;
    w->params += n;
    w->weight_bytes[DLP_QT_FP32] += 4 * n;
    w->weight_bytes[DLP_QT_FP16] += 2 * n;
    w->weight_bytes[DLP_QT_BF16] += 2 * n;
    if (kind == W_LINEAR) {
        /* (in, out), or (experts, in, out) stacked: a row scale per output
         * of every expert, NF4 blocks per expert tensor */
        int64_t in = dims[rank - 2], mats = rank == 3 ? dims[0] : 1;
        w->linear_params += n;
        w->weight_bytes[DLP_QT_INT8] += n + 4 * (in > 0 ? n / in : 0);  /* int8 codes + fp32 row scale */
        w->weight_bytes[DLP_QT_NF4] += mats * dlp__nf4_bytes(n / (mats > 0 ? mats : 1));
        /* serving formats (docs/llm.md, "Precisions"); blocks run along
         * `in` (the reduction dimension), per output and per expert */
        int64_t out = dims[rank - 1], m = mats > 0 ? mats : 1;
        int64_t g128 = (in + 127) / 128, g32 = (in + 31) / 32, g16 = (in + 15) / 16;
        /* fp8 e4m3: 1 byte + an fp32 scale per 128 x 128 block (DeepSeek-V3,
         * Qwen3-FP8; a per-tensor scale is 4 bytes a matrix, no larger) */
        w->weight_bytes[DLP_QT_FP8] += n + m * g128 * ((out + 127) / 128) * 4;
        /* AWQ/GPTQ int4: packed nibbles + per 128-group of inputs an fp16
         * scale and a 4-bit zero per output: 4 + 20/128 = 4.156 bits */
        w->weight_bytes[DLP_QT_INT4] += (n + 1) / 2 + (m * g128 * out * 5 + 1) / 2;
        /* NVFP4: e2m1 nibbles + an e4m3 scale per 16 + an fp32 per tensor */
        w->weight_bytes[DLP_QT_NVFP4] += (n + 1) / 2 + m * g16 * out + 4 * m;
        /* MXFP4: e2m1 nibbles + an e8m0 scale per 32; in MoE models only the
         * routed experts (as gpt-oss ships), the rest stays 16-bit */
        if (b->c->num_experts > 0 && !b->expert) w->weight_bytes[DLP_QT_MXFP4] += 2 * n;
        else w->weight_bytes[DLP_QT_MXFP4] += (n + 1) / 2 + m * g32 * out;
    } else {
        for (int q = DLP_QT_INT8; q < DLP_QT_COUNT_; q++) w->weight_bytes[q] += 2 * n;
    }
    return id;
}

/* x (.., in) @ W (in, out) [+ bias]: nn.Linear as torch exports it. */
static int tb_linear_w(tb *b, const char *name, int x, int W, int bias) {
    char nm[128];
    join2(nm, sizeof nm, name, "/MatMul");
    int y = tb_op2(b, "MatMul", nm, x, W);
    if (bias >= 0) {
        join2(nm, sizeof nm, name, "/Add");
        y = tb_op2(b, "Add", nm, y, bias);
    }
    return y;
}

static int tb_linear(tb *b, const char *name, int x, int64_t in, int64_t out, int has_bias, int kind) {
    char nm[128];
    int64_t d[2] = {in, out};
    join2(nm, sizeof nm, name, ".weight");
    int W = tb_weight(b, nm, 2, d, kind);
    int bias = -1;
    if (has_bias) {
        join2(nm, sizeof nm, name, ".bias");
        bias = tb_weight(b, nm, 1, &out, W_PLAIN);
    }
    return tb_linear_w(b, name, x, W, bias);
}

static int tb_reshape(tb *b, const char *name, int x, int n, const int64_t *dims) {
    return tb_op2(b, "Reshape", name, x, tb_ints(b, n, dims));
}

static int tb_transpose(tb *b, const char *name, int x, int n, const int64_t *perm) {
    int y = tb_op1(b, "Transpose", name, x);
    tb_attr_ints(b, "perm", n, perm);
    return y;
}

/* Slice x[start:end] along axis. */
static int tb_slice(tb *b, const char *name, int x, int64_t start, int64_t end, int64_t axis) {
    int in[4] = {x, tb_i1(b, start), tb_i1(b, end), tb_i1(b, axis)};
    return tb_op(b, "Slice", name, 4, in);
}

static int tb_concat(tb *b, const char *name, int n, const int *xs, int64_t axis) {
    int y = tb_op(b, "Concat", name, n, xs);
    tb_attr_i(b, "axis", axis);
    return y;
}

/* x split along its last axis into n parts of the given sizes: outs[n]. */
static void tb_split(tb *b, const char *name, int x, int n, const int64_t *sizes, int *outs) {
    int in[2] = {x, tb_ints(b, n, sizes)};
    for (int k = 0; k < n; k++) outs[k] = -1;
    tb_nodev(b, "Split", name, 2, in, n, outs);
    tb_attr_i(b, "axis", -1);
}

/* LayerNorm (opset 17) or RMSNorm as HF computes it (in fp32) over the last
 * dim H; weighted 0: no weight (Llama 4's L2 qk-norm). */
static int tb_norm_dim(tb *b, const char *name, int x, int64_t H, int weighted) {
    const dlp_llm_config *c = b->c;
    char nm[128];
    join2(nm, sizeof nm, name, ".weight");
    int w = weighted ? tb_weight(b, nm, 1, &H, W_PLAIN) : -1;
    if (!c->rms_norm) {
        int in[3] = {x, w, -1};
        int n = 2;
        if (c->norm_bias) {
            join2(nm, sizeof nm, name, ".bias");
            in[n++] = tb_weight(b, nm, 1, &H, W_PLAIN);
        }
        join2(nm, sizeof nm, name, "/LayerNormalization");
        int y = tb_op(b, "LayerNormalization", nm, n, in);
        tb_attr_i(b, "axis", -1);
        tb_attr_f(b, "epsilon", c->norm_eps);
        return y;
    }
    int xf = x;
    if (b->dt != DLP_DT_FLOAT) {
        join2(nm, sizeof nm, name, "/Cast");
        xf = tb_op1(b, "Cast", nm, x);
        tb_attr_i(b, "to", DLP_DT_FLOAT);
    }
    join2(nm, sizeof nm, name, "/Pow");
    int sq = tb_op2(b, "Pow", nm, xf, tb_scalar(b, 2.0, DLP_DT_FLOAT));
    join2(nm, sizeof nm, name, "/ReduceMean");
    int ms = tb_op2(b, "ReduceMean", nm, sq, tb_i1(b, -1));
    tb_attr_i(b, "keepdims", 1);
    join2(nm, sizeof nm, name, "/Add");
    int ad = tb_op2(b, "Add", nm, ms, tb_scalar(b, c->norm_eps, DLP_DT_FLOAT));
    join2(nm, sizeof nm, name, "/Sqrt");
    int rt = tb_op1(b, "Sqrt", nm, ad);
    join2(nm, sizeof nm, name, "/Div");
    int y = tb_op2(b, "Div", nm, xf, rt);
    if (b->dt != DLP_DT_FLOAT) {
        join2(nm, sizeof nm, name, "/Cast_1");
        y = tb_op1(b, "Cast", nm, y);
        tb_attr_i(b, "to", b->dt);
    }
    if (!weighted) return y;
    join2(nm, sizeof nm, name, "/Mul");
    return tb_op2(b, "Mul", nm, w, y);
}

static int tb_norm(tb *b, const char *name, int x) { return tb_norm_dim(b, name, x, b->c->hidden_size, 1); }

/* Hugging Face's gelu_new (transformers activations.py NewGELUActivation):
 * 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * torch.pow(x, 3)))),
 * in Python's order: eight tensor ops, each its own kernel in eager PyTorch
 * (the lowering fuses them when a compiler or engine runs the graph). */
static int tb_gelu_new(tb *b, const char *name, int x) {
    static const char *const part[8] = {"/Mul", "/Pow", "/Mul_1", "/Add", "/Mul_2", "/Tanh", "/Add_1", "/Mul_3"};
    char nm[8][128];
    for (int i = 0; i < 8; i++) join2(nm[i], sizeof nm[i], name, part[i]);
    int half = tb_op2(b, "Mul", nm[0], tb_scalar(b, 0.5, b->dt), x);
    int cube = tb_op2(b, "Pow", nm[1], x, tb_scalar(b, 3.0, b->dt));
    int in = tb_op2(b, "Add", nm[3], x, tb_op2(b, "Mul", nm[2], tb_scalar(b, 0.044715, b->dt), cube));
    int t = tb_op1(b, "Tanh", nm[5], tb_op2(b, "Mul", nm[4], tb_scalar(b, 0.7978845608028654 /* sqrt(2 / pi) */, b->dt), in));
    return tb_op2(b, "Mul", nm[7], half, tb_op2(b, "Add", nm[6], tb_scalar(b, 1.0, b->dt), t));
}

/* nn.Dropout(p) as a graph node (ONNX Dropout, ratio as input 1): the
 * lowering gives it a kernel only in training with p > 0 (F.dropout returns
 * its input in eval mode and at p = 0); p = 0 adds no node at all. */
static int tb_dropout(tb *b, const char *name, int x, double p) {
    if (!(p > 0) || x < 0 || b->c->engine_form) return x;
    int in[2] = {x, tb_scalar(b, p, DLP_DT_FLOAT)};
    return tb_op(b, "Dropout", name, 2, in);
}

static int tb_act(tb *b, const char *name, int x) {
    char nm[128];
    /* engines run gelu_new as one tanh-GELU kernel (below) */
    if (b->c->act == DLP_ACT_GELU_NEW && !b->c->engine_form) return tb_gelu_new(b, name, x);
    switch (b->c->act) {
    case DLP_ACT_RELU:
        join2(nm, sizeof nm, name, "/Relu");
        return tb_op1(b, "Relu", nm, x);
    case DLP_ACT_RELU2: {
        join2(nm, sizeof nm, name, "/Relu");
        int r = tb_op1(b, "Relu", nm, x);
        join2(nm, sizeof nm, name, "/Mul");
        return tb_op2(b, "Mul", nm, r, r);
    }
    case DLP_ACT_SILU: case DLP_ACT_SWIGLU_OAI: {
        join2(nm, sizeof nm, name, "/Sigmoid");
        int s = tb_op1(b, "Sigmoid", nm, x);
        join2(nm, sizeof nm, name, "/Mul");
        return tb_op2(b, "Mul", nm, x, s);
    }
    default: {
        join2(nm, sizeof nm, name, "/Gelu");
        int y = tb_op1(b, "Gelu", nm, x);
        if (b->c->act == DLP_ACT_GELU_TANH || b->c->act == DLP_ACT_GELU_NEW) tb_attr_s(b, "approximate", "tanh");
        return y;
    }
    }
}

/* Rotary tables, once per graph (HF computes them once per forward):
 * inv_freq = 1 / theta^(2i/rd), freqs = positions x inv_freq, cos/sin of
 * [freqs, freqs].  Built from Range and scalar Constants, so they are not
 * parameters (HF keeps inv_freq as a buffer). */
static void tb_rotary_tables(tb *b) {
    const dlp_llm_config *c = b->c;
    int64_t rd = (int64_t)llround((double)c->head_dim * c->rotary_fraction);
    rd -= rd % 2;
    if (rd < 2) rd = 2;
    b->rot_dim = rd;
    snprintf(b->scope, sizeof b->scope, "/rotary_emb");
    int r_in[3] = {tb_iscalar(b, 0), tb_iscalar(b, rd), tb_iscalar(b, 2)};
    int r = tb_op(b, "Range", "Range", 3, r_in);
    int rf = tb_op1(b, "Cast", "Cast", r);
    tb_attr_i(b, "to", DLP_DT_FLOAT);
    int e = tb_op2(b, "Div", "Div", rf, tb_scalar(b, (double)rd, DLP_DT_FLOAT));
    int p = tb_op2(b, "Pow", "Pow", tb_scalar(b, c->rope_theta, DLP_DT_FLOAT), e);
    int inv = tb_op1(b, "Reciprocal", "Reciprocal", p);
    int p_in[3] = {tb_iscalar(b, 0), tb_iscalar(b, b->S), tb_iscalar(b, 1)};
    int pos = tb_op(b, "Range", "Range_1", 3, p_in);
    int posf = tb_op1(b, "Cast", "Cast_1", pos);
    tb_attr_i(b, "to", DLP_DT_FLOAT);
    int64_t col[2] = {b->S, 1};
    int pc = tb_reshape(b, "Reshape", posf, 2, col);
    int f = tb_op2(b, "Mul", "Mul", pc, inv);
    int ff[2] = {f, f};
    int emb = tb_concat(b, "Concat", 2, ff, -1);
    b->cos = tb_op1(b, "Cos", "Cos", emb);
    b->sin = tb_op1(b, "Sin", "Sin", emb);
    if (b->dt != DLP_DT_FLOAT) {
        b->cos = tb_op1(b, "Cast", "Cast_2", b->cos);
        tb_attr_i(b, "to", b->dt);
        b->sin = tb_op1(b, "Cast", "Cast_3", b->sin);
        tb_attr_i(b, "to", b->dt);
    }
}

/* t * cos + rotate_half(t) * sin on the first rot_dim channels. */
static int tb_rope_d(tb *b, const char *name, int t, int64_t d) {
    int64_t rd = b->rot_dim < d ? b->rot_dim : d, h = rd / 2;
    char nm[128];
    int tr = t, tp = -1;
    if (rd < d) {
        join2(nm, sizeof nm, name, "/Slice_rot");
        tr = tb_slice(b, nm, t, 0, rd, -1);
        join2(nm, sizeof nm, name, "/Slice_pass");
        tp = tb_slice(b, nm, t, rd, d, -1);
    }
    join2(nm, sizeof nm, name, "/Slice");
    int x1 = tb_slice(b, nm, tr, 0, h, -1);
    join2(nm, sizeof nm, name, "/Slice_1");
    int x2 = tb_slice(b, nm, tr, h, rd, -1);
    join2(nm, sizeof nm, name, "/Neg");
    int nx2 = tb_op1(b, "Neg", nm, x2);
    int cc0[2] = {nx2, x1};
    join2(nm, sizeof nm, name, "/Concat");
    int rot = tb_concat(b, nm, 2, cc0, -1);
    join2(nm, sizeof nm, name, "/Mul");
    int a = tb_op2(b, "Mul", nm, tr, b->cos);
    join2(nm, sizeof nm, name, "/Mul_1");
    int s = tb_op2(b, "Mul", nm, rot, b->sin);
    join2(nm, sizeof nm, name, "/Add");
    int y = tb_op2(b, "Add", nm, a, s);
    if (tp >= 0) {
        int cc[2] = {y, tp};
        join2(nm, sizeof nm, name, "/Concat_1");
        y = tb_concat(b, nm, 2, cc, -1);
    }
    return y;
}

static int tb_rope(tb *b, const char *name, int t) { return tb_rope_d(b, name, t, b->c->head_dim); }

/* Causal mask (S, S): 0 on and below the diagonal, -inf above, once per
 * graph; added to every layer's scores as HF's eager attention does. */
static void tb_causal_mask(tb *b) {
    snprintf(b->scope, sizeof b->scope, "/causal_mask");
    int in[3] = {tb_iscalar(b, 0), tb_iscalar(b, b->S), tb_iscalar(b, 1)};
    int r = tb_op(b, "Range", "Range", 3, in);
    int64_t col[2] = {b->S, 1}, row[2] = {1, b->S};
    int rc = tb_reshape(b, "Reshape", r, 2, col);
    int rr = tb_reshape(b, "Reshape_1", r, 2, row);
    int gt = tb_op2(b, "Greater", "Greater", rr, rc);
    int w_in[3] = {gt, tb_scalar(b, -INFINITY, b->dt), tb_scalar(b, 0.0, b->dt)};
    b->mask = tb_op(b, "Where", "Where", 3, w_in);
}

/* BLOOM's ALiBi bias is slope(head) x key position; the per-head slopes
 * are a small float table, so a (1,1,1,1,S) position row added to the
 * scores stands in for it: the same elementwise work on the scores. */
static void tb_alibi(tb *b) {
    snprintf(b->scope, sizeof b->scope, "/alibi");
    int in[3] = {tb_iscalar(b, 0), tb_iscalar(b, b->S), tb_iscalar(b, 1)};
    int r = tb_op(b, "Range", "Range", 3, in);
    int rf = tb_op1(b, "Cast", "Cast", r);
    tb_attr_i(b, "to", b->dt);
    int64_t d[5] = {1, 1, 1, 1, b->S};
    b->alibi = tb_reshape(b, "Reshape", rf, 5, d);
}

/* DeBERTa-v2/v3: the encoder's rel_embeddings (2 x buckets, H), LayerNorm'd
 * once per forward, and the index used to gather (S, 2k) -> (S, S). */
static void tb_deberta_rel(tb *b) {
    const dlp_llm_config *c = b->c;
    snprintf(b->scope, sizeof b->scope, "/encoder");
    int64_t d[2] = {2 * c->position_buckets, c->hidden_size};
    int rel = tb_weight(b, "rel_embeddings.weight", 2, d, W_PLAIN);
    b->rel = tb_norm(b, "LayerNorm", rel);
    /* gather index: relative position of each key, clamped into the span */
    int64_t n = b->S <= DLP_MAX_VALUE_NUMEL ? b->S : 1;
    int64_t *iv = malloc(sizeof(int64_t) * (size_t)n);
    if (!iv) {
        b->oom = 1;
        return;
    }
    for (int64_t i = 0; i < n; i++) iv[i] = i < 2 * c->position_buckets ? i : 2 * c->position_buckets - 1;
    char nm[64];
    join_int(nm, sizeof nm, "const_relidx", b->uid++);
    b->rel_idx = n == b->S ? dlp__graph_add_const_ints(b->g, nm, 1, &n, iv) : -1;
    free(iv);
    if (b->rel_idx < 0) b->oom = 1;
}

typedef struct {
    int q_w, q_b, k_w, k_b;   /* DeBERTa reuses the projections on rel_embeddings */
} attn_w;

/* Score kernels of the eager attention code beyond scale and causal mask:
 * BERT's extended mask add (modeling_bert.py BertSelfAttention adds
 * attention_mask whenever it is given, and BertModel.forward builds one of
 * ones when none is passed: (1 - mask) * finfo.min, (B, 1, 1, S), added
 * over (B, H, S, S); RoBERTa's attention is a copy), and OPT's clamp
 * (modeling_opt.py OPTAttention, transformers 4.2x-4.4x eager:
 * torch.max(attn_weights, finfo(dtype).min) after the mask add). */
static int tb_eager_mask(tb *b, int s) {
    const dlp_llm_config *c = b->c;
    const char *mt = c->model_type;
    if (c->engine_form) return s;
    if (c->encoder_only && (!strcmp(mt, "bert") || !strcmp(mt, "roberta") || !strcmp(mt, "xlm-roberta") ||
                            !strcmp(mt, "camembert"))) {
        int64_t sh[5] = {b->B, 1, 1, 1, b->S};
        int e = tb_op2(b, "Expand", "ext_mask/Expand", tb_scalar(b, 0.0, b->dt), tb_ints(b, 5, sh));
        return tb_op2(b, "Add", "Add_ext_mask", s, e);
    }
    if (!strcmp(mt, "opt")) {
        double lo = b->dt == DLP_DT_FLOAT16 ? -65504.0 : -3.4028234663852886e38; /* finfo(dtype).min */
        return tb_op2(b, "Max", "Max_clamp", s, tb_scalar(b, lo, b->dt));
    }
    return s;
}

static int tb_attention(tb *b, int x, int layer) {
    const dlp_llm_config *c = b->c;
    int64_t B = b->B, S = b->S, H = c->hidden_size, h = c->num_attention_heads, kv = c->num_key_value_heads,
            d = c->head_dim;
    if (layer >= 0 && layer < DLP_LLM_MAX_LAYERS && c->kv_heads_layer[layer]) kv = c->kv_heads_layer[layer];
    int64_t g = h / kv;
    char save[96];
    memcpy(save, b->scope, sizeof save);
    snprintf(b->scope, sizeof b->scope, "/layers.%d/attn", layer);
    int q, k, v, gate = -1;
    attn_w aw = {-1, -1, -1, -1};
    if (c->attn_output_gate && !c->fused_qkv) {
        /* Qwen3-Next / Qwen3.5: q_proj gives (query, gate) per head */
        int qg = tb_linear(b, "q_proj", x, H, 2 * h * d, c->qkv_bias, W_LINEAR);
        int64_t s4[4] = {B, S, h, 2 * d}, s3[3] = {B, S, h * d};
        int qs[2];
        tb_split(b, "q_gate/Split", tb_reshape(b, "q_gate/Reshape", qg, 4, s4), 2, (int64_t[]){d, d}, qs);
        q = tb_reshape(b, "q/Reshape_0", qs[0], 3, s3);
        gate = tb_reshape(b, "gate/Reshape", qs[1], 3, s3);
        k = tb_linear(b, "k_proj", x, H, kv * d, c->qkv_bias, W_LINEAR);
        v = tb_linear(b, "v_proj", x, H, kv * d, c->qkv_bias, W_LINEAR);
    } else if (c->fused_qkv) {
        int qkv = tb_linear(b, "qkv_proj", x, H, (h + 2 * kv) * d, c->qkv_bias, W_LINEAR);
        int outs[3];
        tb_split(b, "Split", qkv, 3, (int64_t[]){h * d, kv * d, kv * d}, outs);
        q = outs[0];
        k = outs[1];
        v = outs[2];
    } else {
        int64_t dq[2] = {H, h * d}, dk[2] = {H, kv * d};
        aw.q_w = tb_weight(b, "q_proj.weight", 2, dq, W_LINEAR);
        if (c->qkv_bias) aw.q_b = tb_weight(b, "q_proj.bias", 1, &dq[1], W_PLAIN);
        q = tb_linear_w(b, "q_proj", x, aw.q_w, aw.q_b);
        aw.k_w = tb_weight(b, "k_proj.weight", 2, dk, W_LINEAR);
        if (c->qkv_bias) aw.k_b = tb_weight(b, "k_proj.bias", 1, &dk[1], W_PLAIN);
        k = tb_linear_w(b, "k_proj", x, aw.k_w, aw.k_b);
        v = tb_linear(b, "v_proj", x, H, kv * d, c->qkv_bias, W_LINEAR);
    }
    if (c->qk_norm == 3) {
        /* MiniMax-M2 "per_layer": RMSNorm over all heads of q and of k */
        q = tb_norm_dim(b, "q_norm", q, h * d, 1);
        k = tb_norm_dim(b, "k_norm", k, kv * d, 1);
    }
    /* heads: q (B,kv,g,S,d); k, v (B,kv,1,S,d) — grouped-query attention
     * broadcasts k/v over the g query heads of a group, with the MACs of
     * HF's repeat_kv + matmul */
    int64_t sq[5] = {B, S, kv, g, d}, sk[5] = {B, S, kv, 1, d}, perm[5] = {0, 2, 3, 1, 4};
    q = tb_transpose(b, "q/Transpose", tb_reshape(b, "q/Reshape", q, 5, sq), 5, perm);
    k = tb_transpose(b, "k/Transpose", tb_reshape(b, "k/Reshape", k, 5, sk), 5, perm);
    v = tb_transpose(b, "v/Transpose", tb_reshape(b, "v/Reshape", v, 5, sk), 5, perm);
    int rope = c->position == DLP_POS_ROTARY && !(b->lk & DLP_LK_NOPE);
    if (c->qk_norm == 1 || (c->qk_norm == 2 && rope)) {
        /* Qwen3 / Gemma 3: RMSNorm over head_dim with a (d) weight shared by
         * the heads; Llama 4: the same without weight, rotary layers only */
        q = tb_norm_dim(b, "q_norm", q, d, c->qk_norm == 1);
        k = tb_norm_dim(b, "k_norm", k, d, c->qk_norm == 1);
    }
    if (rope) {
        q = tb_rope(b, "q/rotary", q);
        k = tb_rope(b, "k/rotary", k);
    }
    int64_t pt[5] = {0, 1, 2, 4, 3};
    int kt = tb_transpose(b, "k/Transpose_1", k, 5, pt);
    int s = tb_op2(b, "MatMul", "MatMul", q, kt);
    double scale = sqrt((double)d * (c->position == DLP_POS_RELATIVE ? 3.0 : 1.0));
    s = tb_op2(b, "Div", "Div", s, tb_scalar(b, scale, b->dt));
    if (c->position == DLP_POS_RELATIVE && b->rel >= 0) {
        /* disentangled attention: c2p = q . pos_key, p2c = k . pos_query,
         * pos_key/pos_query = the layer's key/query projections of the
         * shared rel_embeddings (share_att_key) */
        int64_t P2 = 2 * c->position_buckets;
        int64_t rs[4] = {P2, h, 1, d}, rp[4] = {1, 2, 3, 0};
        int pk = tb_linear_w(b, "pos_key_proj", b->rel, aw.k_w, aw.k_b);
        pk = tb_transpose(b, "pos_key/Transpose", tb_reshape(b, "pos_key/Reshape", pk, 4, rs), 4, rp);
        int c2p = tb_op2(b, "MatMul", "c2p/MatMul", q, pk);
        int gi[2] = {c2p, b->rel_idx};
        c2p = tb_op(b, "Gather", "c2p/Gather", 2, gi);
        tb_attr_i(b, "axis", -1);
        c2p = tb_op2(b, "Div", "c2p/Div", c2p, tb_scalar(b, scale, b->dt));
        int pq = tb_linear_w(b, "pos_query_proj", b->rel, aw.q_w, aw.q_b);
        pq = tb_transpose(b, "pos_query/Transpose", tb_reshape(b, "pos_query/Reshape", pq, 4, rs), 4, rp);
        int p2c = tb_op2(b, "MatMul", "p2c/MatMul", k, pq);
        int gj[2] = {p2c, b->rel_idx};
        p2c = tb_op(b, "Gather", "p2c/Gather", 2, gj);
        tb_attr_i(b, "axis", -1);
        p2c = tb_transpose(b, "p2c/Transpose", p2c, 5, pt);
        p2c = tb_op2(b, "Div", "p2c/Div", p2c, tb_scalar(b, scale, b->dt));
        s = tb_op2(b, "Add", "Add_c2p", s, c2p);
        s = tb_op2(b, "Add", "Add_p2c", s, p2c);
    }
    if (b->alibi >= 0) s = tb_op2(b, "Add", "Add_alibi", s, b->alibi);
    if (c->attn_softcap > 0) {
        int cap = tb_scalar(b, c->attn_softcap, b->dt);
        s = tb_op2(b, "Mul", "softcap/Mul", tb_op1(b, "Tanh", "softcap/Tanh", tb_op2(b, "Div", "softcap/Div", s, cap)),
                   cap);
    }
    if (b->mask >= 0) s = tb_op2(b, "Add", "Add_mask", s, b->mask);
    s = tb_eager_mask(b, s);
    if (c->attn_sinks) {
        /* gpt-oss: a learned logit per head joins every row's softmax and is
         * dropped after it */
        int snk = tb_weight(b, "sinks", 1, &h, W_PLAIN);
        int64_t s5[5] = {1, kv, g, 1, 1}, e5[5] = {B, kv, g, S, 1};
        snk = tb_op2(b, "Expand", "sinks/Expand", tb_reshape(b, "sinks/Reshape", snk, 5, s5), tb_ints(b, 5, e5));
        int cc[2] = {s, snk};
        s = tb_concat(b, "sinks/Concat", 2, cc, -1);
    }
    int pr = tb_op1(b, "Softmax", "Softmax", s);
    tb_attr_i(b, "axis", -1);
    pr = tb_dropout(b, "attn_dropout/Dropout", pr, c->attn_dropout);
    if (c->attn_sinks) pr = tb_slice(b, "sinks/Slice", pr, 0, S, -1);
    int o = tb_op2(b, "MatMul", "MatMul_1", pr, v);
    int64_t pb[5] = {0, 3, 1, 2, 4}, so[3] = {B, S, h * d};
    o = tb_reshape(b, "o/Reshape", tb_transpose(b, "o/Transpose", o, 5, pb), 3, so);
    if (gate >= 0) o = tb_op2(b, "Mul", "gate/Mul", o, tb_op1(b, "Sigmoid", "gate/Sigmoid", gate));
    o = tb_linear(b, "o_proj", o, h * d, H, c->out_bias, W_LINEAR);
    o = tb_dropout(b, "resid_dropout/Dropout", o, c->resid_dropout);
    memcpy(b->scope, save, sizeof save);
    return o;
}

/* The lightning indexer of DeepSeek Sparse Attention (HF's
 * DeepseekV32Indexer, used by GLM-5): q = wq_b(q latent) (index_n_heads x
 * index_head_dim), one key k = LayerNorm(wk(x)) per token (what its cache
 * holds), rotary on the first qk_rope_head_dim dims of both; scores =
 * relu(q . k) per head, weighted by weights_proj(x) and summed over heads
 * (a MatMul), + the causal mask, then TopK(index_topk) per query.  The
 * Hadamard rotation and fp8 scoring of the reference kernel are not
 * modelled (HF skips them too). */
static void tb_dsa_indexer(tb *b, int x, int qr) {
    const dlp_llm_config *c = b->c;
    int64_t B = b->B, S = b->S, H = c->hidden_size, Hi = c->index_n_heads, Di = c->index_head_dim;
    int qi = tb_linear(b, "indexer/wq_b", qr, c->q_lora_rank, Hi * Di, 0, W_LINEAR);
    int64_t s4[4] = {B, S, Hi, Di}, p4[4] = {0, 2, 1, 3};
    qi = tb_transpose(b, "indexer/q/Transpose", tb_reshape(b, "indexer/q/Reshape", qi, 4, s4), 4, p4);
    qi = tb_transpose(b, "indexer/q/Transpose_1", tb_rope_d(b, "indexer/q/rotary", qi, Di), 4, p4); /* (B,S,Hi,Di) */
    int ki = tb_linear(b, "indexer/wk", x, H, Di, 0, W_LINEAR);
    int ln[3] = {ki, tb_weight(b, "indexer/k_norm.weight", 1, &Di, W_PLAIN),
                 tb_weight(b, "indexer/k_norm.bias", 1, &Di, W_PLAIN)};
    ki = tb_op(b, "LayerNormalization", "indexer/k_norm/LayerNormalization", 3, ln);
    tb_attr_i(b, "axis", -1);
    tb_attr_f(b, "epsilon", 1e-6);
    int64_t k4[4] = {B, 1, S, Di}, pt[4] = {0, 1, 3, 2};
    ki = tb_rope_d(b, "indexer/k/rotary", tb_reshape(b, "indexer/k/Reshape", ki, 4, k4), Di);
    int sc = tb_op2(b, "MatMul", "indexer/MatMul", qi, tb_transpose(b, "indexer/k/Transpose", ki, 4, pt));
    sc = tb_op1(b, "Relu", "indexer/Relu", sc); /* (B,S,Hi,S) */
    int64_t w4[4] = {B, S, 1, Hi}, s3[3] = {B, S, S};
    int wv = tb_reshape(b, "indexer/weights/Reshape", tb_linear(b, "indexer/weights_proj", x, H, Hi, 0, W_PLAIN), 4, w4);
    int is = tb_reshape(b, "indexer/Reshape", tb_op2(b, "MatMul", "indexer/MatMul_1", wv, sc), 3, s3);
    if (b->mask >= 0) is = tb_op2(b, "Add", "indexer/Add_mask", is, b->mask);
    int tk[2] = {-1, -1};
    int tin[2] = {is, tb_i1(b, c->index_topk < S ? c->index_topk : S)};
    tb_nodev(b, "TopK", "indexer/TopK", 2, tin, 2, tk);
    tb_attr_i(b, "axis", -1);
}

/* Multi-head latent attention (DeepSeek-V2/V3, as HF's eager
 * DeepseekV3Attention): q = q_b(norm(q_a(x))) split into a no-rope and a
 * rope part; one compressed kv latent (kv_lora_rank) plus a shared rope key
 * (qk_rope_head_dim) per token — what the cache stores — expanded by kv_b
 * into per-head k_nope and v; scores over nope+rope dims, values v_head_dim. */
static int tb_mla(tb *b, int x, int layer) {
    const dlp_llm_config *c = b->c;
    int64_t B = b->B, S = b->S, H = c->hidden_size, h = c->num_attention_heads, dn = c->qk_nope_head_dim,
            dr = c->qk_rope_head_dim, dv = c->v_head_dim, rq = c->q_lora_rank, rkv = c->kv_lora_rank;
    char save[96];
    memcpy(save, b->scope, sizeof save);
    snprintf(b->scope, sizeof b->scope, "/layers.%d/attn", layer);
    int q, qr = -1;
    if (rq > 0) {
        q = tb_linear(b, "q_a_proj", x, H, rq, c->qkv_bias, W_LINEAR);
        q = qr = tb_norm_dim(b, "q_a_layernorm", q, rq, 1);
        q = tb_linear(b, "q_b_proj", q, rq, h * (dn + dr), 0, W_LINEAR);
    } else {
        q = tb_linear(b, "q_proj", x, H, h * (dn + dr), 0, W_LINEAR);
    }
    int64_t sq[4] = {B, S, h, dn + dr}, p4[4] = {0, 2, 1, 3};
    q = tb_transpose(b, "q/Transpose", tb_reshape(b, "q/Reshape", q, 4, sq), 4, p4);
    int qs[2];
    tb_split(b, "q/Split", q, 2, (int64_t[]){dn, dr}, qs);
    int qpe = tb_rope_d(b, "q/rotary", qs[1], dr);
    int qc[2] = {qs[0], qpe};
    q = tb_concat(b, "q/Concat", 2, qc, -1);
    /* latent + shared rope key */
    int ckv = tb_linear(b, "kv_a_proj_with_mqa", x, H, rkv + dr, c->qkv_bias, W_LINEAR);
    int cs[2];
    tb_split(b, "kv/Split", ckv, 2, (int64_t[]){rkv, dr}, cs);
    int kv = tb_linear(b, "kv_b_proj", tb_norm_dim(b, "kv_a_layernorm", cs[0], rkv, 1), rkv, h * (dn + dv), 0,
                       W_LINEAR);
    int64_t skv[4] = {B, S, h, dn + dv};
    kv = tb_transpose(b, "kv/Transpose", tb_reshape(b, "kv/Reshape", kv, 4, skv), 4, p4);
    int ks[2];
    tb_split(b, "kv/Split_1", kv, 2, (int64_t[]){dn, dv}, ks);
    int64_t spe[4] = {B, 1, S, dr}, epe[4] = {B, h, S, dr};
    int kpe = tb_rope_d(b, "k/rotary", tb_reshape(b, "k_pe/Reshape", cs[1], 4, spe), dr);
    kpe = tb_op2(b, "Expand", "k_pe/Expand", kpe, tb_ints(b, 4, epe));
    int kc[2] = {ks[0], kpe};
    int k = tb_concat(b, "k/Concat", 2, kc, -1);
    int64_t pt[4] = {0, 1, 3, 2};
    int vv = ks[1], mask = b->mask;
    if (c->index_topk > 0) {
        if (!(b->lk & DLP_LK_SHARED_INDEX) && qr >= 0) tb_dsa_indexer(b, x, qr);
        if (S > c->index_topk) {
            /* DSA: every query attends to index_topk selected tokens — the
             * first index_topk keys stand in for the selected ones (the
             * same MACs as the sparse kernel's gather) */
            k = tb_slice(b, "k/Slice_topk", k, 0, c->index_topk, 2);
            vv = tb_slice(b, "v/Slice_topk", vv, 0, c->index_topk, 2);
            if (mask >= 0) mask = tb_slice(b, "mask/Slice_topk", mask, 0, c->index_topk, -1);
        }
    }
    int sc = tb_op2(b, "MatMul", "MatMul", q, tb_transpose(b, "k/Transpose", k, 4, pt));
    sc = tb_op2(b, "Div", "Div", sc, tb_scalar(b, sqrt((double)(dn + dr)), b->dt));
    if (mask >= 0) sc = tb_op2(b, "Add", "Add_mask", sc, mask);
    int pr = tb_op1(b, "Softmax", "Softmax", sc);
    tb_attr_i(b, "axis", -1);
    int o = tb_op2(b, "MatMul", "MatMul_1", pr, vv);
    int64_t so[3] = {B, S, h * dv};
    o = tb_reshape(b, "o/Reshape", tb_transpose(b, "o/Transpose", o, 4, p4), 3, so);
    o = tb_linear(b, "o_proj", o, h * dv, H, c->out_bias, W_LINEAR);
    memcpy(b->scope, save, sizeof save);
    return o;
}

/* Mamba-2 mixer (Nemotron-H, as HF's torch_forward of the SSD scan in chunks
 * of chunk_size): in_proj -> z | xBC | dt; causal depthwise Conv1d + SiLU on
 * xBC; dt = softplus(dt + dt_bias), A = -exp(A_log); per chunk of Q tokens
 * C.B^T (Q x Q per group) times the decay, times x (the diagonal blocks),
 * B^T.x chunk states, a running sum of states across chunks, C.states (the
 * off-diagonal blocks), + D x; gated RMSNorm(y * silu(z)); out_proj.  The
 * decay's segment sums are one CumSum/Sub/Exp per chunk (stand-ins of the
 * same size as HF's segsum). */
static int tb_mamba(tb *b, int x, int layer) {
    const dlp_llm_config *c = b->c;
    int64_t B = b->B, S = b->S, H = c->hidden_size, nh = c->mamba_num_heads, P = c->mamba_head_dim,
            N = c->ssm_state_size, G = c->mamba_n_groups, K = c->mamba_conv_kernel;
    int64_t di = nh * P, cd = di + 2 * G * N, hg = nh / G;
    int64_t Q = c->mamba_chunk_size < S ? c->mamba_chunk_size : S, nc = (S + Q - 1) / Q, Sp = nc * Q;
    char save[96];
    memcpy(save, b->scope, sizeof save);
    snprintf(b->scope, sizeof b->scope, "/layers.%d/mixer", layer);
    int zx = tb_linear(b, "in_proj", x, H, di + cd + nh, 0, W_LINEAR);
    int sp[3];
    tb_split(b, "Split", zx, 3, (int64_t[]){di, cd, nh}, sp);
    int z = sp[0], xbc = sp[1], dt = sp[2];
    /* causal depthwise conv over time */
    int64_t p3[3] = {0, 2, 1}, wc[3] = {cd, 1, K};
    int xt = tb_transpose(b, "conv1d/Transpose", xbc, 3, p3);
    int cin[3] = {xt, tb_weight(b, "conv1d.weight", 3, wc, W_PLAIN),
                  c->mamba_conv_bias ? tb_weight(b, "conv1d.bias", 1, &cd, W_PLAIN) : -1};
    int cv = tb_op(b, "Conv", "conv1d/Conv", c->mamba_conv_bias ? 3 : 2, cin);
    tb_attr_i(b, "group", cd);
    tb_attr_ints(b, "kernel_shape", 1, &K);
    tb_attr_ints(b, "pads", 2, (int64_t[]){K - 1, 0});
    int sg = tb_op1(b, "Sigmoid", "conv1d/Sigmoid", cv);
    cv = tb_transpose(b, "conv1d/Transpose_1", tb_op2(b, "Mul", "conv1d/Mul", cv, sg), 3, p3);
    int xs3[3];
    tb_split(b, "Split_1", cv, 3, (int64_t[]){di, G * N, G * N}, xs3);
    int xs = xs3[0], Bm = xs3[1], Cm = xs3[2];
    int dtb = tb_weight(b, "dt_bias", 1, &nh, W_PLAIN);
    dt = tb_op1(b, "Softplus", "dt/Softplus", tb_op2(b, "Add", "dt/Add", dt, dtb));
    int A = tb_op1(b, "Neg", "A/Neg", tb_op1(b, "Exp", "A/Exp", tb_weight(b, "A_log", 1, &nh, W_PLAIN)));
    int dA = tb_op2(b, "Mul", "dA/Mul", dt, A);
    if (Sp != S) {
        int64_t pads[6] = {0, 0, 0, 0, Sp - S, 0};
        int pv = tb_ints(b, 6, pads);
        int a1[2] = {xs, pv}, a2[2] = {Bm, pv}, a3[2] = {Cm, pv}, a4[2] = {dt, pv}, a5[2] = {dA, pv};
        xs = tb_op(b, "Pad", "x/Pad", 2, a1);
        Bm = tb_op(b, "Pad", "B/Pad", 2, a2);
        Cm = tb_op(b, "Pad", "C/Pad", 2, a3);
        dt = tb_op(b, "Pad", "dt/Pad", 2, a4);
        dA = tb_op(b, "Pad", "dA/Pad", 2, a5);
    }
    /* chunked layout (B nc, G, heads per group, Q, .) */
    int64_t r5x[5] = {B * nc, Q, G, hg, P}, r5b[5] = {B * nc, Q, G, 1, N}, r5a[5] = {B * nc, Q, G, hg, 1},
            pq[5] = {0, 2, 3, 1, 4}, pT[5] = {0, 1, 2, 4, 3};
    int X = tb_transpose(b, "x/Transpose", tb_reshape(b, "x/Reshape", xs, 5, r5x), 5, pq);
    int DT = tb_transpose(b, "dt/Transpose", tb_reshape(b, "dt/Reshape", dt, 5, r5a), 5, pq);
    int Xd = tb_op2(b, "Mul", "x/Mul", X, DT);
    int B5 = tb_transpose(b, "B/Transpose", tb_reshape(b, "B/Reshape", Bm, 5, r5b), 5, pq);
    int C5 = tb_transpose(b, "C/Transpose", tb_reshape(b, "C/Reshape", Cm, 5, r5b), 5, pq);
    int cs = tb_op2(b, "CumSum", "dA/CumSum",
                    tb_transpose(b, "dA/Transpose", tb_reshape(b, "dA/Reshape", dA, 5, r5a), 5, pq), tb_iscalar(b, 3));
    int seg = tb_op2(b, "Sub", "segsum/Sub", cs, tb_transpose(b, "segsum/Transpose", cs, 5, pT));
    int Lm = tb_op1(b, "Exp", "segsum/Exp", seg);
    int CB = tb_op2(b, "MatMul", "CB/MatMul", C5, tb_transpose(b, "B/Transpose_1", B5, 5, pT));
    int Yd = tb_op2(b, "MatMul", "Y_diag/MatMul", tb_op2(b, "Mul", "Y_diag/Mul", CB, Lm), Xd);
    int dec = tb_op1(b, "Exp", "decay/Exp", cs);
    int st = tb_op2(b, "MatMul", "states/MatMul", tb_transpose(b, "B/Transpose_2", B5, 5, pT),
                    tb_op2(b, "Mul", "states/Mul", Xd, dec));
    int64_t r3s[3] = {B, nc, nh * N * P}, r5s[5] = {B * nc, G, hg, N, P};
    st = tb_op2(b, "CumSum", "states/CumSum", tb_reshape(b, "states/Reshape", st, 3, r3s), tb_iscalar(b, 1));
    st = tb_reshape(b, "states/Reshape_1", st, 5, r5s);
    int Yo = tb_op2(b, "Mul", "Y_off/Mul", tb_op2(b, "MatMul", "Y_off/MatMul", C5, st), dec);
    int64_t d5[5] = {1, G, hg, 1, 1};
    int D = tb_reshape(b, "D/Reshape", tb_weight(b, "D", 1, &nh, W_PLAIN), 5, d5);
    int y = tb_op2(b, "Add", "Y/Add_1", tb_op2(b, "Add", "Y/Add", Yd, Yo), tb_op2(b, "Mul", "D/Mul", X, D));
    int64_t pb[5] = {0, 3, 1, 2, 4}, r3[3] = {B, Sp, di};
    y = tb_reshape(b, "Y/Reshape", tb_transpose(b, "Y/Transpose", y, 5, pb), 3, r3);
    if (Sp != S) y = tb_slice(b, "Y/Slice", y, 0, S, 1);
    /* gated RMSNorm, out_proj */
    int zs = tb_op1(b, "Sigmoid", "gate/Sigmoid", z);
    y = tb_op2(b, "Mul", "gate/Mul_1", y, tb_op2(b, "Mul", "gate/Mul", z, zs));
    y = tb_norm_dim(b, "norm", y, di, 1);
    y = tb_linear(b, "out_proj", y, di, H, 0, W_LINEAR);
    memcpy(b->scope, save, sizeof save);
    return y;
}

/* Gated DeltaNet (Qwen3-Next / Qwen3.5 linear attention, HF's
 * torch_chunk_gated_delta_rule with chunks of linear_chunk_size tokens):
 * in_proj_qkv -> causal depthwise Conv1d + SiLU -> q, k (linear_num_key_heads
 * x key dim), v (linear_num_value_heads x value dim); in_proj_z (the output
 * gate), in_proj_b (beta = sigmoid), in_proj_a (g = -exp(A_log) *
 * softplus(a + dt_bias)); q, k repeated to the value heads, L2-normalised,
 * q scaled.  Per chunk of Q tokens and head: decay = exp(cumsum g_i -
 * cumsum g_j); A = -(k beta . k^T) * decay, made (I + A)^-1 by a forward
 * substitution (one Q x Q x Q MatMul stands in for it: the loop does about a
 * third of that); u = A . v beta, w = A . (k beta exp g); chunk states k^T .
 * u summed across chunks (CumSum: the recurrent state, dk x dv per head);
 * v_new = u - w . state, out = (q exp g) . state + (q . k^T * decay) .
 * v_new; gated RMSNorm(out) * silu(z) over the value head dim; out_proj.
 * Every MatMul of HF's chunked loop is here once, with its size; the data
 * flow between chunks is a cost-equivalent stand-in (as for Mamba-2). */
static int tb_gdn(tb *b, int x, int layer) {
    const dlp_llm_config *c = b->c;
    int64_t B = b->B, S = b->S, H = c->hidden_size, nk = c->linear_num_key_heads, nv = c->linear_num_value_heads,
            dk = c->linear_key_head_dim, dv = c->linear_value_head_dim, K = c->linear_conv_kernel;
    int64_t kd = nk * dk, vd = nv * dv, cd = 2 * kd + vd, r = nv / nk;
    int64_t Q = c->linear_chunk_size > 0 && c->linear_chunk_size < S ? c->linear_chunk_size : S, nc = (S + Q - 1) / Q,
            Sp = nc * Q;
    char save[96];
    memcpy(save, b->scope, sizeof save);
    snprintf(b->scope, sizeof b->scope, "/layers.%d/linear_attn", layer);
    int qkv = tb_linear(b, "in_proj_qkv", x, H, cd, 0, W_LINEAR);
    int z = tb_linear(b, "in_proj_z", x, H, vd, 0, W_LINEAR);
    int bb = tb_linear(b, "in_proj_b", x, H, nv, 0, W_LINEAR);
    int a = tb_linear(b, "in_proj_a", x, H, nv, 0, W_LINEAR);
    /* causal depthwise conv over time + SiLU */
    int64_t p3[3] = {0, 2, 1}, wc[3] = {cd, 1, K};
    int cin[2] = {tb_transpose(b, "conv1d/Transpose", qkv, 3, p3), tb_weight(b, "conv1d.weight", 3, wc, W_PLAIN)};
    int cv = tb_op(b, "Conv", "conv1d/Conv", 2, cin);
    tb_attr_i(b, "group", cd);
    tb_attr_ints(b, "kernel_shape", 1, &K);
    tb_attr_ints(b, "pads", 2, (int64_t[]){K - 1, 0});
    cv = tb_op2(b, "Mul", "conv1d/Mul", cv, tb_op1(b, "Sigmoid", "conv1d/Sigmoid", cv));
    cv = tb_transpose(b, "conv1d/Transpose_1", cv, 3, p3);
    int sp[3];
    tb_split(b, "Split", cv, 3, (int64_t[]){kd, kd, vd}, sp);
    /* beta, g */
    int beta = tb_op1(b, "Sigmoid", "beta/Sigmoid", bb);
    int A = tb_op1(b, "Neg", "A/Neg", tb_op1(b, "Exp", "A/Exp", tb_weight(b, "A_log", 1, &nv, W_PLAIN)));
    int g = tb_op2(b, "Mul", "g/Mul", A,
                   tb_op1(b, "Softplus", "g/Softplus", tb_op2(b, "Add", "g/Add", a, tb_weight(b, "dt_bias", 1, &nv, W_PLAIN))));
    /* heads: q, k (B,S,nk,dk) repeated to (B,S,nv,dk); v (B,S,nv,dv) */
    int64_t k5[5] = {B, S, nk, 1, dk}, e5[5] = {B, S, nk, r, dk}, k4[4] = {B, S, nv, dk}, v4[4] = {B, S, nv, dv};
    int q = tb_reshape(b, "q/Reshape", sp[0], 5, k5), k = tb_reshape(b, "k/Reshape", sp[1], 5, k5);
    if (r > 1) {
        q = tb_op2(b, "Expand", "q/Expand", q, tb_ints(b, 5, e5));
        k = tb_op2(b, "Expand", "k/Expand", k, tb_ints(b, 5, e5));
    }
    q = tb_norm_dim(b, "q/l2norm", tb_reshape(b, "q/Reshape_1", q, 4, k4), dk, 0);
    k = tb_norm_dim(b, "k/l2norm", tb_reshape(b, "k/Reshape_1", k, 4, k4), dk, 0);
    q = tb_op2(b, "Mul", "q/Mul_scale", q, tb_scalar(b, 1.0 / sqrt((double)dk), b->dt));
    int v = tb_reshape(b, "v/Reshape", sp[2], 4, v4);
    if (Sp != S) {
        int p4 = tb_ints(b, 8, (int64_t[]){0, 0, 0, 0, 0, Sp - S, 0, 0}), p3v = tb_ints(b, 6, (int64_t[]){0, 0, 0, 0, Sp - S, 0});
        int a1[2] = {q, p4}, a2[2] = {k, p4}, a3[2] = {v, p4}, a4[2] = {beta, p3v}, a5[2] = {g, p3v};
        q = tb_op(b, "Pad", "q/Pad", 2, a1);
        k = tb_op(b, "Pad", "k/Pad", 2, a2);
        v = tb_op(b, "Pad", "v/Pad", 2, a3);
        beta = tb_op(b, "Pad", "beta/Pad", 2, a4);
        g = tb_op(b, "Pad", "g/Pad", 2, a5);
    }
    /* chunked layout (B, nv, nc, Q, .) */
    int64_t rq[5] = {B, nc, Q, nv, dk}, rv[5] = {B, nc, Q, nv, dv}, r1[5] = {B, nc, Q, nv, 1}, pc[5] = {0, 3, 1, 2, 4},
            pT[5] = {0, 1, 2, 4, 3};
    q = tb_transpose(b, "q/Transpose", tb_reshape(b, "q/Reshape_2", q, 5, rq), 5, pc);
    k = tb_transpose(b, "k/Transpose", tb_reshape(b, "k/Reshape_2", k, 5, rq), 5, pc);
    v = tb_transpose(b, "v/Transpose", tb_reshape(b, "v/Reshape_1", v, 5, rv), 5, pc);
    beta = tb_transpose(b, "beta/Transpose", tb_reshape(b, "beta/Reshape", beta, 5, r1), 5, pc);
    g = tb_op2(b, "CumSum", "g/CumSum", tb_transpose(b, "g/Transpose", tb_reshape(b, "g/Reshape", g, 5, r1), 5, pc),
               tb_iscalar(b, 3));
    int eg = tb_op1(b, "Exp", "g/Exp", g);
    int decay = tb_op1(b, "Exp", "decay/Exp", tb_op2(b, "Sub", "decay/Sub", g, tb_transpose(b, "decay/Transpose", g, 5, pT)));
    int kb = tb_op2(b, "Mul", "k_beta/Mul", k, beta), vb = tb_op2(b, "Mul", "v_beta/Mul", v, beta);
    int kT = tb_transpose(b, "k/Transpose_1", k, 5, pT);
    int At = tb_op1(b, "Neg", "attn/Neg", tb_op2(b, "Mul", "attn/Mul", tb_op2(b, "MatMul", "attn/MatMul", kb, kT), decay));
    At = tb_op2(b, "Add", "solve/Add", At, tb_op2(b, "MatMul", "solve/MatMul", At, At));
    int u = tb_op2(b, "MatMul", "u/MatMul", At, vb);
    int w = tb_op2(b, "MatMul", "w/MatMul", At, tb_op2(b, "Mul", "w/Mul", kb, eg));
    /* recurrent state: per-chunk k^T . u, running sum over chunks */
    int64_t r3s[3] = {B * nv, nc, dk * dv}, r5s[5] = {B, nv, nc, dk, dv};
    int st = tb_op2(b, "MatMul", "state/MatMul", tb_transpose(b, "state/Transpose", tb_op2(b, "Mul", "state/Mul", k, eg), 5, pT), u);
    st = tb_op2(b, "CumSum", "state/CumSum", tb_reshape(b, "state/Reshape", st, 3, r3s), tb_iscalar(b, 1));
    st = tb_reshape(b, "state/Reshape_1", st, 5, r5s);
    int vn = tb_op2(b, "Sub", "v_new/Sub", u, tb_op2(b, "MatMul", "v_new/MatMul", w, st));
    int inter = tb_op2(b, "MatMul", "inter/MatMul", tb_op2(b, "Mul", "inter/Mul", q, eg), st);
    int qk = tb_op2(b, "Mul", "intra/Mul", tb_op2(b, "MatMul", "intra/MatMul", q, kT), decay);
    int y = tb_op2(b, "Add", "out/Add", inter, tb_op2(b, "MatMul", "intra/MatMul_1", qk, vn));
    int64_t pb[5] = {0, 2, 3, 1, 4}, ry[4] = {B, Sp, nv, dv}, r3[3] = {B, S, vd};
    y = tb_reshape(b, "out/Reshape", tb_transpose(b, "out/Transpose", y, 5, pb), 4, ry);
    if (Sp != S) y = tb_slice(b, "out/Slice", y, 0, S, 1);
    /* gated RMSNorm over the value head dim, out_proj */
    y = tb_norm_dim(b, "norm", y, dv, 1);
    int zz = tb_reshape(b, "z/Reshape", z, 4, v4);
    y = tb_op2(b, "Mul", "norm/Mul_gate", y, tb_op2(b, "Mul", "z/Mul", zz, tb_op1(b, "Sigmoid", "z/Sigmoid", zz)));
    y = tb_linear(b, "out_proj", tb_reshape(b, "out/Reshape_1", y, 3, r3), vd, H, 0, W_LINEAR);
    memcpy(b->scope, save, sizeof save);
    return y;
}

/* act(gate) * up, or gpt-oss's clamped SwiGLU: (clip(up) + 1) * g *
 * sigmoid(1.702 g), g = clip(gate). */
static int tb_glu(tb *b, int gt, int up) {
    if (b->c->act != DLP_ACT_SWIGLU_OAI) return tb_op2(b, "Mul", "Mul", tb_act(b, "act", gt), up);
    int lo = tb_scalar(b, -7.0, b->dt), hi = tb_scalar(b, 7.0, b->dt);
    int ci[3] = {gt, tb_scalar(b, -INFINITY, b->dt), hi};
    int g = tb_op(b, "Clip", "gate/Clip", 3, ci);
    int sg = tb_op1(b, "Sigmoid", "act/Sigmoid", tb_op2(b, "Mul", "act/Mul", g, tb_scalar(b, 1.702, b->dt)));
    int glu = tb_op2(b, "Mul", "act/Mul_1", g, sg);
    int cu[3] = {up, lo, hi};
    int u = tb_op2(b, "Add", "up/Add", tb_op(b, "Clip", "up/Clip", 3, cu), tb_scalar(b, 1.0, b->dt));
    return tb_op2(b, "Mul", "Mul", u, glu);
}

/* Dense MLP on x (.., H) of width I: plain fc1 -> act -> fc2, or gated. */
static int tb_mlp_dense_w(tb *b, int x, int64_t I) {
    const dlp_llm_config *c = b->c;
    int64_t H = c->hidden_size;
    if (!c->gated_mlp) {
        int hdn = tb_act(b, "act", tb_linear(b, "fc1", x, H, I, c->mlp_bias, W_LINEAR));
        return tb_linear(b, "fc2", hdn, I, H, c->mlp_bias, W_LINEAR);
    }
    int gt, up;
    if (c->fused_gate_up) {
        int gu = tb_linear(b, "gate_up_proj", x, H, 2 * I, c->mlp_bias, W_LINEAR);
        int outs[2];
        tb_split(b, "Split", gu, 2, (int64_t[]){I, I}, outs);
        gt = outs[0];
        up = outs[1];
    } else {
        gt = tb_linear(b, "gate_proj", x, H, I, c->mlp_bias, W_LINEAR);
        up = tb_linear(b, "up_proj", x, H, I, c->mlp_bias, W_LINEAR);
    }
    int hdn = tb_glu(b, gt, up);
    return tb_linear(b, "down_proj", hdn, I, H, c->mlp_bias, W_LINEAR);
}

static int tb_mlp_dense(tb *b, int x) {
    const dlp_llm_config *c = b->c;
    return tb_mlp_dense_w(b, x, c->num_experts > 0 && c->moe_intermediate_size ? c->moe_intermediate_size
                                                                             : c->intermediate_size);
}

/* Mixtral sparse MoE: router (H -> E) + softmax + top-k, then each expert
 * runs its gated MLP on its share of the tokens — ceil(T k / E) rows, the
 * load-balanced average — so the MACs are those of k experts per token and
 * every expert's weights are parameters. */
static int tb_moe(tb *b, int x) {
    const dlp_llm_config *c = b->c;
    int64_t B = b->B, S = b->S, H = c->hidden_size, E = c->num_experts, K = c->experts_per_token;
    int64_t T = B * S, ne = (T * K + E - 1) / E;
    char save[96];
    memcpy(save, b->scope, sizeof save);
    int logits = tb_linear(b, "gate", x, H, E, 0, W_LINEAR);
    int pr = tb_op1(b, "Softmax", "router/Softmax", logits);
    tb_attr_i(b, "axis", -1);
    int tk[2] = {-1, -1};
    int tin[2] = {pr, tb_i1(b, K)};
    tb_nodev(b, "TopK", "router/TopK", 2, tin, 2, tk);
    tb_attr_i(b, "axis", -1);
    int64_t flat[2] = {T, H};
    int x2 = tb_reshape(b, "tokens/Reshape", x, 2, flat);
    int *ys = malloc(sizeof(int) * (size_t)E);
    if (!ys) {
        b->oom = 1;
        return -1;
    }
    int64_t p0 = b->w.params;
    for (int64_t e = 0; e < E; e++) {
        snprintf(b->scope, sizeof b->scope, "%.60s/experts.%lld", save, (long long)e);
        int xe = tb_slice(b, "Slice", x2, 0, ne, 0);
        b->expert = 1;
        ys[e] = tb_mlp_dense(b, xe);
        b->expert = 0;
    }
    b->routed += b->w.params - p0;
    b->routed_active += (b->w.params - p0) / E * K;
    memcpy(b->scope, save, sizeof save);
    int y = tb_concat(b, "experts/Concat", (int)E, ys, 0);
    free(ys);
    if (E * ne != T * K) y = tb_slice(b, "experts/Slice", y, 0, T * K, 0);
    int64_t d4[4] = {B, S, K, H}, w4[4] = {B, S, K, 1};
    y = tb_reshape(b, "experts/Reshape", y, 4, d4);
    int wv = tb_reshape(b, "router/Reshape", tk[0], 4, w4);
    y = tb_op2(b, "Mul", "experts/Mul", y, wv);
    y = tb_op2(b, "ReduceSum", "experts/ReduceSum", y, tb_i1(b, 2));
    tb_attr_i(b, "keepdims", 0);
    return y;
}

/* MoE of the 2025-26 families (Qwen3-MoE, DeepSeek-V3, Llama 4, gpt-oss,
 * Nemotron-H 'E'): router (+ bias for gpt-oss), softmax or sigmoid, top-k;
 * every token is copied to its k experts and the T*k rows are split evenly,
 * ceil(T k / E) per expert (balanced routing; padded), so each expert
 * projection is ONE batched MatMul of (E, rows, in) by the stacked (E, in,
 * out) weights — the grouped GEMM serving engines run — with the MACs of k
 * experts per token and all E experts' parameters.  Shared experts are a
 * dense MLP every token runs. */
static int tb_moe_grouped(tb *b, int x) {
    const dlp_llm_config *c = b->c;
    int64_t B = b->B, S = b->S, H = c->hidden_size, E = c->num_experts, K = c->experts_per_token;
    int64_t I = c->moe_intermediate_size ? c->moe_intermediate_size : c->intermediate_size;
    int64_t T = B * S, ne = (T * K + E - 1) / E;
    int logits = tb_linear(b, "router", x, H, E, c->moe_router_bias, W_PLAIN);
    int sig = family_has(c, FF_ROUTER_SIGMOID);
    int pr = tb_op1(b, sig ? "Sigmoid" : "Softmax", sig ? "router/Sigmoid" : "router/Softmax", logits);
    if (!sig) tb_attr_i(b, "axis", -1);
    int tk[2] = {-1, -1};
    int tin[2] = {pr, tb_i1(b, K)};
    tb_nodev(b, "TopK", "router/TopK", 2, tin, 2, tk);
    tb_attr_i(b, "axis", -1);
    /* dispatch: (T, 1, H) -> (T, k, H) -> (T k, H) [-> padded to E ne] -> (E, ne, H) */
    int64_t t3[3] = {T, 1, H}, tkh[3] = {T, K, H}, f2[2] = {T * K, H}, g3[3] = {E, ne, H};
    int xd = tb_op2(b, "Expand", "dispatch/Expand", tb_reshape(b, "dispatch/Reshape", x, 3, t3), tb_ints(b, 3, tkh));
    xd = tb_reshape(b, "dispatch/Reshape_1", xd, 2, f2);
    if (E * ne != T * K) {
        int64_t pads[4] = {0, 0, E * ne - T * K, 0};
        int pin[2] = {xd, tb_ints(b, 4, pads)};
        xd = tb_op(b, "Pad", "dispatch/Pad", 2, pin);
    }
    xd = tb_reshape(b, "dispatch/Reshape_2", xd, 3, g3);
    int64_t p0 = b->w.params;
    char save[96];
    memcpy(save, b->scope, sizeof save);
    snprintf(b->scope, sizeof b->scope, "%.80s/experts", save);
    b->expert = 1;
    int hdn;
    int64_t wgu[3] = {E, H, c->gated_mlp ? 2 * I : I}, bgu[3] = {E, 1, c->gated_mlp ? 2 * I : I};
    if (c->gated_mlp && c->fused_gate_up == 0 && !c->moe_expert_bias) {
        int64_t wg[3] = {E, H, I};
        int gt = tb_linear_w(b, "gate_proj", xd, tb_weight(b, "gate_proj.weight", 3, wg, W_LINEAR), -1);
        int up = tb_linear_w(b, "up_proj", xd, tb_weight(b, "up_proj.weight", 3, wg, W_LINEAR), -1);
        hdn = tb_glu(b, gt, up);
    } else {
        int bias = c->moe_expert_bias ? tb_weight(b, "gate_up_proj.bias", 3, bgu, W_PLAIN) : -1;
        int gu = tb_linear_w(b, "gate_up_proj", xd, tb_weight(b, "gate_up_proj.weight", 3, wgu, W_LINEAR), bias);
        if (c->gated_mlp) {
            int outs[2];
            tb_split(b, "Split", gu, 2, (int64_t[]){I, I}, outs);
            hdn = tb_glu(b, outs[0], outs[1]);
        } else {
            hdn = tb_act(b, "act", gu);
        }
    }
    int64_t wd[3] = {E, I, H}, bd[3] = {E, 1, H};
    int dbias = c->moe_expert_bias ? tb_weight(b, "down_proj.bias", 3, bd, W_PLAIN) : -1;
    int y = tb_linear_w(b, "down_proj", hdn, tb_weight(b, "down_proj.weight", 3, wd, W_LINEAR), dbias);
    b->expert = 0;
    b->routed += b->w.params - p0;
    b->routed_active += (b->w.params - p0) / E * K;
    memcpy(b->scope, save, sizeof save);
    /* combine: (E ne, H) -> first T k rows -> (B, S, k, H) x weights, sum over k */
    int64_t e2[2] = {E * ne, H}, d4[4] = {B, S, K, H}, w4[4] = {B, S, K, 1};
    y = tb_reshape(b, "combine/Reshape", y, 2, e2);
    if (E * ne != T * K) y = tb_slice(b, "combine/Slice", y, 0, T * K, 0);
    y = tb_reshape(b, "combine/Reshape_1", y, 4, d4);
    y = tb_op2(b, "Mul", "combine/Mul", y, tb_reshape(b, "router/Reshape", tk[0], 4, w4));
    y = tb_op2(b, "ReduceSum", "combine/ReduceSum", y, tb_i1(b, 2));
    tb_attr_i(b, "keepdims", 0);
    if (c->shared_expert_intermediate_size > 0) {
        snprintf(b->scope, sizeof b->scope, "%.80s/shared_expert", save);
        int ys = tb_mlp_dense_w(b, x, c->shared_expert_intermediate_size);
        memcpy(b->scope, save, sizeof save);
        if (c->shared_expert_gate) {
            /* Qwen3-Next: sigmoid(Linear(H, 1)) scales the shared expert */
            int sg = tb_linear(b, "shared_expert_gate", x, c->hidden_size, 1, 0, W_PLAIN);
            ys = tb_op2(b, "Mul", "shared_expert_gate/Mul", ys, tb_op1(b, "Sigmoid", "shared_expert_gate/Sigmoid", sg));
        }
        y = tb_op2(b, "Add", "shared/Add", y, ys);
    }
    return y;
}

static int tb_mlp(tb *b, int x, int layer) {
    const dlp_llm_config *c = b->c;
    char save[96];
    memcpy(save, b->scope, sizeof save);
    snprintf(b->scope, sizeof b->scope, "/layers.%d/mlp", layer);
    int y;
    if (c->num_experts > 0 && !(b->lk & DLP_LK_DENSE))
        y = c->moe_grouped ? tb_moe_grouped(b, x) : tb_moe(b, x);
    else
        y = tb_mlp_dense_w(b, x, c->intermediate_size);
    y = tb_dropout(b, "dropout/Dropout", y, c->resid_dropout);
    memcpy(b->scope, save, sizeof save);
    return y;
}

/* Token (+ position, + token-type) embeddings; *wte receives the table for
 * a tied LM head. */
static int tb_embed(tb *b, int ids, int *wte) {
    const dlp_llm_config *c = b->c;
    int64_t H = c->hidden_size, E = c->embed_proj_dim ? c->embed_proj_dim : H;
    snprintf(b->scope, sizeof b->scope, "/embeddings");
    int64_t dw[2] = {c->vocab_size, E};
    *wte = tb_weight(b, "word_embeddings.weight", 2, dw, W_PLAIN);
    b->w.embed_params = dw[0] * dw[1];
    int gi[2] = {*wte, ids};
    int x = tb_op(b, "Gather", "word_embeddings/Gather", 2, gi);
    /* OPT projects the token embeddings before adding positions; DeBERTa
     * projects the sum (below) */
    int in_out = family_has(c, FF_PROJ_IN_OUT);
    if (c->embed_proj_dim && in_out) x = tb_linear(b, "project_in", x, E, H, 0, W_LINEAR);
    if (c->embed_scale) x = tb_op2(b, "Mul", "Mul", x, tb_scalar(b, sqrt((double)H), b->dt));
    int learned = c->position == DLP_POS_LEARNED || (c->position == DLP_POS_RELATIVE && c->position_offset < 0);
    int64_t W = c->embed_proj_dim && !in_out ? E : H;
    if (learned) {
        int64_t off = c->position_offset > 0 ? c->position_offset : 0;
        /* OPT's table has `offset` extra rows; RoBERTa's count includes them */
        int64_t rows = c->max_position_embeddings + (in_out ? off : 0);
        if (off + b->S > rows) {
            dlp__err(b->err, DLP_EINVAL, "%s: seq %lld is longer than max_position_embeddings %lld", c->id,
                     (long long)b->S, (long long)(rows - off));
            b->oom = 2;
            return -1;
        }
        int64_t dp[2] = {rows, W};
        int wpe = tb_weight(b, "position_embeddings.weight", 2, dp, W_PLAIN);
        int pos = tb_slice(b, "position_embeddings/Slice", wpe, off, off + b->S, 0);
        x = tb_op2(b, "Add", "Add_pos", x, pos);
    }
    if (c->type_vocab_size > 0) {
        int64_t dt[2] = {c->type_vocab_size, W};
        int tte = tb_weight(b, "token_type_embeddings.weight", 2, dt, W_PLAIN);
        int ti[2] = {tte, tb_i1(b, 0)};
        int t = tb_op(b, "Gather", "token_type_embeddings/Gather", 2, ti);
        x = tb_op2(b, "Add", "Add_type", x, t);
    }
    /* DeBERTa with embedding_size != hidden projects before its LayerNorm */
    if (W != H) x = tb_linear(b, "embed_proj", x, W, H, 0, W_LINEAR);
    if (c->embed_norm) x = tb_norm(b, "LayerNorm", x);
    return tb_dropout(b, "dropout/Dropout", x, c->embed_dropout);
}

/* A config the builder can honour: sizes positive, per-layer kinds with
 * their sizes; seq already includes the image tokens. */
static dlp_status build_check(const dlp_llm_config *c, const char *id, int64_t seq, dlp_error *err) {
    if (c->num_hidden_layers > 1000 || c->num_experts > 1024)
        return dlp__err(err, DLP_EINVAL, "%s: %lld layers / %lld experts is more than the builder takes", id,
                        (long long)c->num_hidden_layers, (long long)c->num_experts);
    if (c->num_experts > 0 && (c->experts_per_token < 1 || c->experts_per_token > c->num_experts))
        return dlp__err(err, DLP_EINVAL, "%s: experts_per_token must be in 1..num_experts", id);
    if (c->kv_lora_rank > 0 && (c->qk_nope_head_dim < 1 || c->qk_rope_head_dim < 1 || c->v_head_dim < 1 ||
                                c->q_lora_rank < 0))
        return dlp__err(err, DLP_EINVAL, "%s: MLA needs qk_nope_head_dim, qk_rope_head_dim, v_head_dim >= 1", id);
    for (int64_t l = 0; l < c->num_hidden_layers && l < DLP_LLM_MAX_LAYERS; l++) {
        int lk = c->layer_kind[l];
        if ((lk & DLP_LK_MAMBA) &&
            (c->mamba_num_heads < 1 || c->mamba_head_dim < 1 || c->ssm_state_size < 1 || c->mamba_n_groups < 1 ||
             c->mamba_num_heads % c->mamba_n_groups || c->mamba_conv_kernel < 1 || c->mamba_chunk_size < 1))
            return dlp__err(err, DLP_EINVAL, "%s: layer %lld is Mamba-2 but the mamba_* sizes are incomplete", id,
                            (long long)l);
        if ((lk & DLP_LK_LINEAR_ATTN) &&
            (c->linear_num_key_heads < 1 || c->linear_num_value_heads < 1 || c->linear_key_head_dim < 1 ||
             c->linear_value_head_dim < 1 || c->linear_conv_kernel < 1 ||
             c->linear_num_value_heads % c->linear_num_key_heads))
            return dlp__err(err, DLP_EINVAL, "%s: layer %lld is Gated DeltaNet but the linear_* sizes are incomplete",
                            id, (long long)l);
        if ((lk & DLP_LK_SLIDING) && c->sliding_window < 1)
            return dlp__err(err, DLP_EINVAL, "%s: layer %lld slides but sliding_window < 1", id, (long long)l);
    }
    if (c->position == DLP_POS_RELATIVE && c->position_buckets < 1)
        return dlp__err(err, DLP_EINVAL, "%s: relative attention needs position_buckets >= 1", id);
    if (c->position == DLP_POS_RELATIVE && seq > DLP_MAX_VALUE_NUMEL)
        return dlp__err(err, DLP_EINVAL, "%s: seq %lld is longer than the DeBERTa builder takes (%d)", id,
                        (long long)seq, DLP_MAX_VALUE_NUMEL);
    return DLP_OK;
}

/* The arguments and the config's sizes; seq grows by the image tokens. */
static dlp_status build_args(const dlp_llm_config *c, const char *id, int64_t batch, int64_t *seq, int quant,
                             dlp_error *err) {
    if (batch < 1 || *seq < 1)
        return dlp__err(err, DLP_EINVAL, "%s: batch and seq must be >= 1 (got %lld, %lld)", id, (long long)batch,
                        (long long)*seq);
    if (quant < 0 || quant >= DLP_QT_COUNT_) return dlp__err(err, DLP_EINVAL, "%s: unknown quantisation %d", id, quant);
    if (c->hidden_size < 1 || c->num_hidden_layers < 1 || c->num_attention_heads < 1 || c->vocab_size < 1 ||
        c->intermediate_size < 1 || c->head_dim < 1 || c->num_key_value_heads < 1 ||
        c->num_attention_heads % c->num_key_value_heads)
        return dlp__err(err, DLP_EINVAL, "%s: incomplete config (sizes must be positive, heads a multiple of kv heads)",
                        id);
    if (c->image_tokens < 0 || c->image_tokens > 1000000)
        return dlp__err(err, DLP_EINVAL, "%s: image_tokens %lld out of range (0..1000000)", id,
                        (long long)c->image_tokens);
    *seq += c->image_tokens; /* VLM language stack: the image's tokens join the prompt */
    return build_check(c, id, *seq, err);
}

/* One transformer block (layer L) on the residual stream x. */
static int tb_block(tb *b, int x, int L) {
    const dlp_llm_config *c = b->c;
    int mla = c->kv_lora_rank > 0;
    snprintf(b->scope, sizeof b->scope, "/layers.%d", L);
    b->lk = L < DLP_LLM_MAX_LAYERS ? c->layer_kind[L] : 0;
    if (b->lk || mla) {
        /* the 2025-26 stacks: pre-norm blocks with per-layer kinds */
        if (!(b->lk & DLP_LK_NO_ATTN)) {
            int hn = tb_norm(b, "input_norm", x);
            int a = b->lk & DLP_LK_MAMBA         ? tb_mamba(b, hn, L)
                    : b->lk & DLP_LK_LINEAR_ATTN ? tb_gdn(b, hn, L)
                    : mla                        ? tb_mla(b, hn, L)
                                                 : tb_attention(b, hn, L);
            if (c->sandwich_norm) a = tb_norm(b, "post_attn_norm", a);
            x = tb_op2(b, "Add", "Add", x, a);
        }
        if (!(b->lk & DLP_LK_NO_MLP)) {
            int m = tb_mlp(b, tb_norm(b, "mlp_norm", x), L);
            snprintf(b->scope, sizeof b->scope, "/layers.%d", L);
            if (c->sandwich_norm) m = tb_norm(b, "post_mlp_norm", m);
            x = tb_op2(b, "Add", "Add_1", x, m);
        }
    } else if (!c->pre_norm) {
        int a = tb_attention(b, x, L);
        x = tb_norm(b, "attn_norm", tb_op2(b, "Add", "Add", x, a));
        int m = tb_mlp(b, x, L);
        snprintf(b->scope, sizeof b->scope, "/layers.%d", L);
        x = tb_norm(b, "mlp_norm", tb_op2(b, "Add", "Add_1", x, m));
    } else if (c->parallel_residual) {
        int h1 = tb_norm(b, "input_norm", x);
        int h2 = c->shared_parallel_norm ? h1 : tb_norm(b, "mlp_norm", x);
        int a = tb_attention(b, h1, L);
        int m = tb_mlp(b, h2, L);
        x = tb_op2(b, "Add", "Add_1", tb_op2(b, "Add", "Add", x, a), m);
    } else {
        int a = tb_attention(b, tb_norm(b, "input_norm", x), L);
        if (c->sandwich_norm) a = tb_norm(b, "post_attn_norm", a);
        x = tb_op2(b, "Add", "Add", x, a);
        int m = tb_mlp(b, tb_norm(b, "mlp_norm", x), L);
        snprintf(b->scope, sizeof b->scope, "/layers.%d", L);
        if (c->sandwich_norm) m = tb_norm(b, "post_mlp_norm", m);
        x = tb_op2(b, "Add", "Add_1", x, m);
    }
    return x;
}

/* Encoder heads: the masked-LM head, or the pooler (a second output);
 * outs[0] is the last hidden state unless the MLM head replaces it. */
static int tb_encoder_head(tb *b, int x, int wte, int *outs) {
    const dlp_llm_config *c = b->c;
    if (c->mlm_head) {
        /* transform (dense + act + LayerNorm), then the decoder tied to
         * the word embeddings with its own bias */
        snprintf(b->scope, sizeof b->scope, "/mlm_head");
        int t = tb_act(b, "act", tb_linear(b, "dense", x, c->hidden_size, c->hidden_size, 1, W_LINEAR));
        t = tb_norm(b, "LayerNorm", t);
        int64_t f2[2] = {b->B * b->S, c->hidden_size}, f3[3] = {b->B, b->S, c->vocab_size};
        int in[3] = {tb_reshape(b, "Reshape", t, 2, f2), wte, tb_weight(b, "bias", 1, &c->vocab_size, W_PLAIN)};
        int y = tb_op(b, "Gemm", "Gemm", 3, in);
        tb_attr_i(b, "transB", 1);
        outs[0] = tb_reshape(b, "Reshape_1", y, 3, f3);
    } else if (c->pooler) {
        snprintf(b->scope, sizeof b->scope, "/pooler");
        int gi[2] = {x, tb_iscalar(b, 0)};
        int first = tb_op(b, "Gather", "Gather", 2, gi); /* hidden state of token 0: (B, H) */
        tb_attr_i(b, "axis", 1);
        int pd = tb_linear(b, "dense", first, c->hidden_size, c->hidden_size, 1, W_LINEAR);
        outs[1] = tb_op1(b, "Tanh", "Tanh", pd);
        return 2;
    }
    return 1;
}

/* The LM head: logits (B, S, vocab), tied to the embeddings or its own. */
static int tb_lm_head(tb *b, int x, int wte) {
    const dlp_llm_config *c = b->c;
    snprintf(b->scope, sizeof b->scope, "/lm_head");
    int64_t E = c->embed_proj_dim && family_has(c, FF_PROJ_IN_OUT) ? c->embed_proj_dim : c->hidden_size;
    if (E != c->hidden_size) x = tb_linear(b, "project_out", x, c->hidden_size, E, 0, W_LINEAR);
    if (!c->tie_word_embeddings) return tb_linear(b, "lm_head", x, E, c->vocab_size, c->lm_head_bias, W_PLAIN);
    /* logits = x @ wte^T: Gemm(transB=1) on (B*S, E) reuses the embedding
     * table without a transposed copy */
    int64_t f2[2] = {b->B * b->S, E}, f3[3] = {b->B, b->S, c->vocab_size};
    int x2 = tb_reshape(b, "Reshape", x, 2, f2);
    int in[3] = {x2, wte, -1};
    int n = 2;
    if (c->lm_head_bias) in[n++] = tb_weight(b, "bias", 1, &c->vocab_size, W_PLAIN);
    int y = tb_op(b, "Gemm", "Gemm", n, in);
    tb_attr_i(b, "transB", 1);
    return tb_reshape(b, "Reshape_1", y, 3, f3);
}

/* The whole forward: embeddings, shared tables, blocks, final norm, head.
 * Returns the number of graph outputs in outs. */
static int tb_forward(tb *b, int *outs) {
    const dlp_llm_config *c = b->c;
    int64_t di[2] = {b->B, b->S};
    int ids = dlp__graph_add_value(b->g, "input_ids", DLP_DT_INT64, 2, di);
    if (ids < 0 || dlp__graph_mark_input(b->g, ids)) b->oom = 1;
    int wte = -1;
    int x = tb_embed(b, ids, &wte);
    if (c->position == DLP_POS_ROTARY) tb_rotary_tables(b);
    if (!c->encoder_only) tb_causal_mask(b);
    if (c->position == DLP_POS_ALIBI) tb_alibi(b);
    if (c->position == DLP_POS_RELATIVE) tb_deberta_rel(b);
    for (int64_t l = 0; l < c->num_hidden_layers && !b->oom; l++) x = tb_block(b, x, (int)l);
    b->scope[0] = 0;
    if (c->final_norm) x = tb_norm(b, "norm", x);
    outs[0] = x;
    outs[1] = -1;
    if (c->encoder_only) return tb_encoder_head(b, x, wte, outs);
    outs[0] = tb_lm_head(b, x, wte);
    return 1;
}

/* Outputs marked and the graph finalized (shapes, costs, liveness); the
 * graph freed on any failure. */
static dlp_status tb_finish(tb *b, const char *id, const int *outs, int n_outs) {
    if (b->oom) {
        dlp_graph_free(b->g);
        if (b->oom == 2) return b->err ? b->err->code : DLP_EINVAL;
        return dlp__err(b->err, DLP_ENOMEM, "%s: out of memory building the graph", id);
    }
    for (int i = 0; i < n_outs; i++)
        if (dlp__graph_mark_output(b->g, outs[i])) {
            dlp_graph_free(b->g);
            return dlp__err(b->err, DLP_ENOMEM, "%s: out of memory", id);
        }
    dlp_load_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.batch = b->B;
    lo.seq = b->S;
    dlp_status st = dlp__graph_finalize(b->g, &lo, b->err);
    if (st) dlp_graph_free(b->g);
    return st;
}

dlp_status dlp_llm_build(const dlp_llm_config *c, int64_t batch, int64_t seq, dlp_quant quant, dlp_graph **out,
                         dlp_llm_weights *wout, dlp_error *err) {
    if (out) *out = NULL;
    if (!c || !out) return dlp__err(err, DLP_EINVAL, "dlp_llm_build: NULL argument");
    const char *id = c->id[0] ? c->id : "transformer";
    TRY(build_args(c, id, batch, &seq, quant, err));
    tb b;
    memset(&b, 0, sizeof b);
    b.c = c;
    b.err = err;
    b.dt = dlp_quant_act_dtype(quant);
    b.B = batch;
    b.S = seq;
    b.mask = b.alibi = b.rel = b.cos = b.sin = b.rel_idx = -1;
    b.g = dlp__graph_new(id);
    if (!b.g) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", id);
    b.g->opset = 20; /* Gelu (20), ReduceMean axes as input (18), Split sizes as input (13) */
    b.g->batch = batch;
    int outs[2];
    int n_outs = tb_forward(&b, outs);
    TRY(tb_finish(&b, id, outs, n_outs));
    *out = b.g;
    b.w.active_params = b.w.params - b.routed + b.routed_active;
    if (wout) *wout = b.w;
    return DLP_OK;
}

/* KV-cache (and Mamba state) bytes of one sequence after `tokens` tokens. */
double dlp_llm_kv_bytes(const dlp_llm_config *c, int64_t tokens, double elem_bytes) {
    if (!c || tokens < 0) return 0;
    double total = 0, t = (double)tokens;
    for (int64_t l = 0; l < c->num_hidden_layers; l++) {
        int lk = l < DLP_LLM_MAX_LAYERS ? c->layer_kind[l] : 0;
        if (lk & DLP_LK_NO_ATTN) continue; /* an MLP-only block */
        if (lk & DLP_LK_MAMBA) {
            /* conv state (kernel - 1 inputs of the conv channels) + SSM state
             * (heads x head_dim x state): constant in the length */
            double cd = (double)(c->mamba_num_heads * c->mamba_head_dim + 2 * c->mamba_n_groups * c->ssm_state_size);
            total += (cd * (double)(c->mamba_conv_kernel - 1) +
                      (double)c->mamba_num_heads * (double)c->mamba_head_dim * (double)c->ssm_state_size) * elem_bytes;
            continue;
        }
        if (lk & DLP_LK_LINEAR_ATTN) {
            /* Gated DeltaNet: conv state (kernel - 1 inputs of q, k, v) +
             * recurrent state (value heads x key dim x value dim) */
            double cd = (double)(2 * c->linear_num_key_heads * c->linear_key_head_dim +
                                 c->linear_num_value_heads * c->linear_value_head_dim);
            total += (cd * (double)(c->linear_conv_kernel - 1) + (double)c->linear_num_value_heads *
                                                                     (double)c->linear_key_head_dim *
                                                                     (double)c->linear_value_head_dim) *
                     elem_bytes;
            continue;
        }
        /* MLA caches the compressed latent and the shared rope key (+ the
         * DSA indexer's key on layers with an indexer); GQA k and v */
        int64_t kvl = l < DLP_LLM_MAX_LAYERS && c->kv_heads_layer[l] ? c->kv_heads_layer[l] : c->num_key_value_heads;
        double per = c->kv_lora_rank > 0 ? (double)(c->kv_lora_rank + c->qk_rope_head_dim)
                                         : 2.0 * (double)kvl * (double)c->head_dim;
        if (c->kv_lora_rank > 0 && c->index_topk > 0 && !(lk & DLP_LK_SHARED_INDEX)) per += (double)c->index_head_dim;
        double n = (lk & DLP_LK_SLIDING) && c->sliding_window > 0 && (double)c->sliding_window < t
                       ? (double)c->sliding_window : t;
        total += per * n * elem_bytes;
    }
    return total;
}

double dlp__llm_decode_mixer_macs(const dlp_llm_config *c, double ctx) {
    if (!c || ctx < 0) return 0;
    double total = 0;
    for (int64_t l = 0; l < c->num_hidden_layers; l++) {
        int lk = l < DLP_LLM_MAX_LAYERS ? c->layer_kind[l] : 0;
        if (lk & DLP_LK_NO_ATTN) continue;
        if (lk & DLP_LK_MAMBA) {
            double nh = (double)c->mamba_num_heads, P = (double)c->mamba_head_dim, N = (double)c->ssm_state_size;
            double cd = nh * P + 2.0 * (double)c->mamba_n_groups * N;
            total += 2.0 * nh * P * N + cd * (double)c->mamba_conv_kernel;
            continue;
        }
        if (lk & DLP_LK_LINEAR_ATTN) {
            /* decay, k . state (delta rule), state += k (x) delta, q . state */
            double nv = (double)c->linear_num_value_heads, dk = (double)c->linear_key_head_dim,
                   dv = (double)c->linear_value_head_dim;
            double cd = 2.0 * (double)c->linear_num_key_heads * dk + nv * dv;
            total += 3.0 * nv * dk * dv + cd * (double)c->linear_conv_kernel;
            continue;
        }
        double n = (lk & DLP_LK_SLIDING) && c->sliding_window > 0 && (double)c->sliding_window < ctx
                       ? (double)c->sliding_window : ctx;
        if (c->kv_lora_rank > 0) {
            double h = (double)c->num_attention_heads;
            if (c->index_topk > 0) {
                if (!(lk & DLP_LK_SHARED_INDEX))
                    total += (double)c->index_n_heads * ((double)c->index_head_dim + 1.0) * ctx;
                if ((double)c->index_topk < n) n = (double)c->index_topk;
            }
            total += h * (2.0 * (double)c->kv_lora_rank + (double)c->qk_rope_head_dim) * n;
        } else {
            total += 2.0 * (double)c->num_attention_heads * (double)c->head_dim * n;
        }
    }
    return total;
}
