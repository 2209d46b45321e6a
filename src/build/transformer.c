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
 * Phi-3, Falcon, BLOOM, Gemma/Gemma-2, StarCoder2.  docs/llm.md lists what
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

#include "build/transformer.h"
#include "graph/graph.h"
#include "util/util.h"

/* ======================================================================
 * quantisation formats
 * ====================================================================== */

static const char *const qt_names[DLP_QT_COUNT_] = {"fp32", "fp16", "bf16", "int8", "nf4"};

const char *dlp_quant_name(int q) { return q >= 0 && q < DLP_QT_COUNT_ ? qt_names[q] : "?"; }

int dlp_quant_parse(const char *s) {
    static const struct { const char *n; int q; } m[] = {
        {"fp32", DLP_QT_FP32}, {"float32", DLP_QT_FP32}, {"float", DLP_QT_FP32},
        {"fp16", DLP_QT_FP16}, {"float16", DLP_QT_FP16}, {"half", DLP_QT_FP16},
        {"bf16", DLP_QT_BF16}, {"bfloat16", DLP_QT_BF16},
        {"int8", DLP_QT_INT8}, {"8bit", DLP_QT_INT8}, {"llm.int8", DLP_QT_INT8},
        {"nf4", DLP_QT_NF4}, {"4bit", DLP_QT_NF4}, {"bnb4", DLP_QT_NF4}, {"bnb-4bit", DLP_QT_NF4}};
    if (!s) return -1;
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (!strcasecmp(s, m[i].n)) return m[i].q;
    return -1;
}

int dlp_quant_act_dtype(int q) {
    switch (q) {
    case DLP_QT_FP32: return DLP_DT_FLOAT;
    case DLP_QT_BF16: return DLP_DT_BFLOAT16;
    default: return DLP_DT_FLOAT16; /* fp16, and the compute dtype of int8/nf4 */
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
    if (!strcmp(s, "gelu_new") || !strcmp(s, "gelu_pytorch_tanh") || !strcmp(s, "gelu_fast") ||
        !strcmp(s, "gelu_tanh") || !strcmp(s, "bloom_gelu") || !strcmp(s, "gelu_approximate"))
        return DLP_ACT_GELU_TANH;
    if (!strcmp(s, "relu")) return DLP_ACT_RELU;
    if (!strcmp(s, "silu") || !strcmp(s, "swish")) return DLP_ACT_SILU;
    return -1;
}

typedef enum {
    FAM_BERT, FAM_ROBERTA, FAM_DISTILBERT, FAM_DEBERTA, FAM_GPT2, FAM_OPT, FAM_NEOX, FAM_GPTJ,
    FAM_LLAMA, FAM_QWEN2, FAM_MIXTRAL, FAM_PHI, FAM_PHI3, FAM_FALCON, FAM_BLOOM, FAM_GEMMA,
    FAM_GEMMA2, FAM_STARCODER2
} family;

static const struct { const char *type; family fam; } families[] = {
    {"bert", FAM_BERT}, {"roberta", FAM_ROBERTA}, {"xlm-roberta", FAM_ROBERTA},
    {"camembert", FAM_ROBERTA}, {"distilbert", FAM_DISTILBERT}, {"deberta-v2", FAM_DEBERTA},
    {"deberta", FAM_DEBERTA}, {"gpt2", FAM_GPT2}, {"opt", FAM_OPT}, {"gpt_neox", FAM_NEOX},
    {"gptj", FAM_GPTJ}, {"llama", FAM_LLAMA}, {"mistral", FAM_LLAMA}, {"aquila", FAM_LLAMA},
    {"qwen2", FAM_QWEN2}, {"mixtral", FAM_MIXTRAL}, {"phi", FAM_PHI}, {"phi3", FAM_PHI3},
    {"falcon", FAM_FALCON}, {"RefinedWeb", FAM_FALCON}, {"RefinedWebModel", FAM_FALCON},
    {"bloom", FAM_BLOOM}, {"gemma", FAM_GEMMA}, {"gemma2", FAM_GEMMA2},
    {"starcoder2", FAM_STARCODER2}};

static void family_defaults(family f, dlp_llm_config *c) {
    /* the common decoder: pre-norm LayerNorm, learned nothing, no biases */
    c->pre_norm = 1;
    c->final_norm = 1;
    c->norm_bias = 1;
    c->rope_theta = 10000.0;
    c->rotary_fraction = 1.0;
    c->norm_eps = 1e-5;
    switch (f) {
    case FAM_BERT: case FAM_ROBERTA: case FAM_DISTILBERT: case FAM_DEBERTA:
        c->encoder_only = 1;
        c->pre_norm = 0;
        c->final_norm = 0;
        c->embed_norm = 1;
        c->pooler = f == FAM_BERT || f == FAM_ROBERTA;
        c->qkv_bias = c->out_bias = c->mlp_bias = 1;
        c->act = DLP_ACT_GELU;
        c->position = f == FAM_DEBERTA ? DLP_POS_RELATIVE : DLP_POS_LEARNED;
        c->type_vocab_size = f == FAM_BERT ? 2 : f == FAM_ROBERTA ? 1 : 0;
        c->position_offset = f == FAM_ROBERTA ? 2 : 0;
        c->max_position_embeddings = 512;
        c->norm_eps = f == FAM_BERT || f == FAM_DISTILBERT ? 1e-12 : f == FAM_DEBERTA ? 1e-7 : 1e-5;
        c->position_buckets = f == FAM_DEBERTA ? 256 : 0;
        break;
    case FAM_GPT2:
        c->fused_qkv = 1;
        c->qkv_bias = c->out_bias = c->mlp_bias = 1;
        c->act = DLP_ACT_GELU_TANH;
        c->position = DLP_POS_LEARNED;
        c->tie_word_embeddings = 1;
        c->max_position_embeddings = 1024;
        break;
    case FAM_OPT:
        c->qkv_bias = c->out_bias = c->mlp_bias = 1;
        c->act = DLP_ACT_RELU;
        c->position = DLP_POS_LEARNED;
        c->position_offset = 2;
        c->tie_word_embeddings = 1;
        c->max_position_embeddings = 2048;
        break;
    case FAM_NEOX:
        c->fused_qkv = 1;
        c->qkv_bias = c->out_bias = c->mlp_bias = 1;
        c->act = DLP_ACT_GELU;
        c->position = DLP_POS_ROTARY;
        c->rotary_fraction = 0.25;
        c->parallel_residual = 1;
        c->max_position_embeddings = 2048;
        break;
    case FAM_GPTJ:
        c->mlp_bias = c->lm_head_bias = 1;
        c->act = DLP_ACT_GELU_TANH;
        c->position = DLP_POS_ROTARY;
        c->parallel_residual = c->shared_parallel_norm = 1;
        c->max_position_embeddings = 2048;
        break;
    case FAM_LLAMA: case FAM_QWEN2: case FAM_MIXTRAL: case FAM_PHI3: case FAM_GEMMA: case FAM_GEMMA2:
        c->rms_norm = 1;
        c->norm_bias = 0;
        c->gated_mlp = 1;
        c->act = f == FAM_GEMMA || f == FAM_GEMMA2 ? DLP_ACT_GELU_TANH : DLP_ACT_SILU;
        c->position = DLP_POS_ROTARY;
        c->qkv_bias = f == FAM_QWEN2;
        c->norm_eps = 1e-6;
        c->fused_qkv = c->fused_gate_up = f == FAM_PHI3;
        c->tie_word_embeddings = f == FAM_GEMMA || f == FAM_GEMMA2;
        c->embed_scale = f == FAM_GEMMA || f == FAM_GEMMA2;
        c->sandwich_norm = f == FAM_GEMMA2;
        c->max_position_embeddings = 2048;
        break;
    case FAM_PHI:
        c->qkv_bias = c->out_bias = c->mlp_bias = c->lm_head_bias = 1;
        c->act = DLP_ACT_GELU_TANH;
        c->position = DLP_POS_ROTARY;
        c->rotary_fraction = 0.5;
        c->parallel_residual = c->shared_parallel_norm = 1;
        c->max_position_embeddings = 2048;
        break;
    case FAM_FALCON:
        c->fused_qkv = 1;
        c->act = DLP_ACT_GELU;
        c->position = DLP_POS_ROTARY;
        c->tie_word_embeddings = 1;
        c->max_position_embeddings = 2048;
        break;
    case FAM_BLOOM:
        c->fused_qkv = 1;
        c->qkv_bias = c->out_bias = c->mlp_bias = 1;
        c->act = DLP_ACT_GELU_TANH;
        c->position = DLP_POS_ALIBI;
        c->embed_norm = 1;
        c->tie_word_embeddings = 1;
        c->max_position_embeddings = 2048;
        break;
    case FAM_STARCODER2:
        c->qkv_bias = c->out_bias = c->mlp_bias = 1;
        c->act = DLP_ACT_GELU_TANH;
        c->position = DLP_POS_ROTARY;
        c->tie_word_embeddings = 1;
        c->max_position_embeddings = 4096;
        break;
    }
}

#define TRY(x) do { dlp_status st_ = (x); if (st_) return st_; } while (0)
#define TRYI(x) do { int r_ = (x); if (r_ < 0) return (dlp_status)r_; } while (0)

static dlp_status parse_obj(const cJSON *root, const char *name, dlp_llm_config *c, dlp_error *err) {
    pctx p = {name, root, err};
    memset(c, 0, sizeof *c);
    snprintf(c->id, sizeof c->id, "%s", name);
    if (!cJSON_IsObject(root)) return dlp__err(err, DLP_EFORMAT, "%s: not a JSON object", name);
    const char *mt = get_str(&p, "model_type");
    if (!mt) {
        if (cJSON_GetObjectItemCaseSensitive(root, "model_type"))
            return dlp__err(err, DLP_EFORMAT, "%s: field 'model_type' must be a string", name);
        return dlp__err(err, DLP_EFORMAT, "%s: field 'model_type' is missing", name);
    }
    int fi = -1;
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        if (!strcmp(mt, families[i].type)) fi = (int)i;
    if (fi < 0)
        return dlp__err(err, DLP_EUNSUPPORTED,
                        "%s: model_type '%s' is not supported (bert, roberta, xlm-roberta, distilbert, "
                        "deberta-v2, gpt2, opt, gpt_neox, gptj, llama, mistral, mixtral, qwen2, phi, phi3, "
                        "falcon, bloom, gemma, gemma2, starcoder2)", name, mt);
    family f = families[fi].fam;
    snprintf(c->model_type, sizeof c->model_type, "%s", mt);
    family_defaults(f, c);

    /* sizes, under each family's spelling */
    TRY(need_pos(&p, KEYS("hidden_size", "n_embd", "dim", "d_model", "n_embed"), &c->hidden_size));
    TRY(need_pos(&p, KEYS("num_hidden_layers", "n_layer", "n_layers", "num_layers"), &c->num_hidden_layers));
    TRY(need_pos(&p, KEYS("num_attention_heads", "n_head", "n_heads", "num_heads"), &c->num_attention_heads));
    TRY(need_pos(&p, KEYS("vocab_size"), &c->vocab_size));
    int64_t H = c->hidden_size;
    c->intermediate_size = 0;
    TRY(opt_nonneg(&p, KEYS("intermediate_size", "ffn_dim", "hidden_dim", "n_inner", "ffn_hidden_size"),
                   &c->intermediate_size));
    if (!c->intermediate_size) {
        if (f == FAM_GPT2 || f == FAM_GPTJ || f == FAM_FALCON || f == FAM_BLOOM) c->intermediate_size = 4 * H;
        else return dlp__err(err, DLP_EFORMAT, "%s: field 'intermediate_size' is missing", name);
    }
    TRY(opt_nonneg(&p, KEYS("max_position_embeddings", "n_positions", "n_ctx", "max_sequence_length",
                            "seq_length"), &c->max_position_embeddings));
    TRY(opt_nonneg(&p, KEYS("type_vocab_size"), &c->type_vocab_size));
    c->num_key_value_heads = c->num_attention_heads;
    TRY(opt_nonneg(&p, KEYS("num_key_value_heads", "num_kv_heads", "n_head_kv"), &c->num_key_value_heads));
    if (f == FAM_FALCON) {
        int nda = 0, mq = 0;
        TRYI(get_bool(&p, "new_decoder_architecture", &nda));
        int has_mq = get_bool(&p, "multi_query", &mq);
        TRYI(has_mq);
        if (!nda) {
            /* Falcon-7B: multi-query unless the config says otherwise */
            int64_t kv = 0;
            int r = get_i64(&p, KEYS("num_kv_heads", "n_head_kv"), &kv);
            TRYI(r);
            if (has_mq == 1 && !mq) c->num_key_value_heads = c->num_attention_heads;
            else if (r == 0 || has_mq == 1) c->num_key_value_heads = 1;
            int par = 1;
            TRYI(get_bool(&p, "parallel_attn", &par));
            c->parallel_residual = c->shared_parallel_norm = par;
        } else {
            c->parallel_residual = 1;
            int64_t nln = 2;
            TRYI(get_i64(&p, KEYS("num_ln_in_parallel_attn"), &nln));
            c->shared_parallel_norm = nln == 1;
        }
        int bias = 0, alibi = 0;
        TRYI(get_bool(&p, "bias", &bias));
        TRYI(get_bool(&p, "alibi", &alibi));
        c->qkv_bias = c->out_bias = c->mlp_bias = bias;
        if (alibi) c->position = DLP_POS_ALIBI;
    }
    if (c->num_key_value_heads == 0) c->num_key_value_heads = c->num_attention_heads;
    c->head_dim = 0;
    TRY(opt_nonneg(&p, KEYS("head_dim"), &c->head_dim));
    if (!c->head_dim) {
        if (H % c->num_attention_heads)
            return dlp__err(err, DLP_EFORMAT, "%s: hidden size %lld is not divisible by num_attention_heads %lld",
                            name, (long long)H, (long long)c->num_attention_heads);
        c->head_dim = H / c->num_attention_heads;
    }
    if (c->num_attention_heads % c->num_key_value_heads)
        return dlp__err(err, DLP_EFORMAT, "%s: num_attention_heads %lld is not a multiple of num_key_value_heads %lld",
                        name, (long long)c->num_attention_heads, (long long)c->num_key_value_heads);

    /* activation */
    const char *act = get_str(&p, "hidden_activation");
    if (!act) act = get_str(&p, "hidden_act");
    if (!act) act = get_str(&p, "activation_function");
    if (!act) act = get_str(&p, "activation");
    if (act) {
        int a = act_parse(act);
        if (a < 0) return dlp__err(err, DLP_EUNSUPPORTED, "%s: field 'hidden_act' value '%s' is not supported", name, act);
        c->act = a;
    }

    /* norms */
    TRYI(get_f64(&p, KEYS("layer_norm_eps", "layer_norm_epsilon", "rms_norm_eps", "norm_epsilon", "norm_eps"),
                 &c->norm_eps));
    if (c->norm_eps < 0) return dlp__err(err, DLP_EFORMAT, "%s: field 'layer_norm_eps' must not be negative", name);

    /* embeddings and head */
    TRYI(get_bool(&p, "tie_word_embeddings", &c->tie_word_embeddings));
    if (c->encoder_only) c->tie_word_embeddings = 0;

    /* positions */
    TRYI(get_f64(&p, KEYS("rope_theta", "rotary_emb_base"), &c->rope_theta));
    TRYI(get_f64(&p, KEYS("partial_rotary_factor", "rotary_pct"), &c->rotary_fraction));
    if (f == FAM_GPTJ) {
        int64_t rd = 64;
        TRYI(get_i64(&p, KEYS("rotary_dim"), &rd));
        c->rotary_fraction = (double)rd / (double)c->head_dim;
    }
    if (c->rotary_fraction <= 0 || c->rotary_fraction > 1)
        return dlp__err(err, DLP_EFORMAT, "%s: field 'partial_rotary_factor' must be in (0, 1]", name);

    /* encoders: the architecture decides between pooler and masked-LM head */
    const cJSON *arch = cJSON_GetObjectItemCaseSensitive(root, "architectures"), *ai;
    if (c->encoder_only && cJSON_IsArray(arch))
        cJSON_ArrayForEach(ai, arch) {
            if (!cJSON_IsString(ai)) continue;
            if (strstr(ai->valuestring, "ForMaskedLM") || strstr(ai->valuestring, "LMHeadModel") ||
                strstr(ai->valuestring, "ForPreTraining")) {
                c->mlm_head = 1;
                c->pooler = 0;
            }
        }
    switch (f) {
    case FAM_ROBERTA: {
        int64_t pad = 1;
        TRYI(get_i64(&p, KEYS("pad_token_id"), &pad));
        c->position_offset = pad + 1;
        break;
    }
    case FAM_DISTILBERT: {
        int sin = 0;
        TRYI(get_bool(&p, "sinusoidal_pos_embds", &sin));
        if (sin) c->position = DLP_POS_NONE; /* a fixed table, not parameters: see docs */
        break;
    }
    case FAM_DEBERTA: {
        int rel = 1, biased = 0;
        int r = get_bool(&p, "relative_attention", &rel);
        TRYI(r);
        TRYI(get_bool(&p, "position_biased_input", &biased));
        if (!rel) c->position = biased ? DLP_POS_LEARNED : DLP_POS_NONE;
        c->position_buckets = 0;
        TRYI(get_i64(&p, KEYS("position_buckets"), &c->position_buckets));
        if (c->position_buckets <= 0) {
            int64_t mrp = -1;
            TRYI(get_i64(&p, KEYS("max_relative_positions"), &mrp));
            c->position_buckets = mrp > 0 ? mrp : c->max_position_embeddings;
        }
        /* position_biased_input also adds absolute positions (DeBERTa v1) */
        if (rel && biased) c->position_offset = -1; /* marker: both, see build_embeddings */
        int64_t es = 0;
        TRYI(get_i64(&p, KEYS("embedding_size"), &es));
        if (es > 0 && es != H) c->embed_proj_dim = es;
        break;
    }
    case FAM_OPT: {
        int before = 1, remove_final = 0, bias = 1;
        TRYI(get_bool(&p, "do_layer_norm_before", &before));
        TRYI(get_bool(&p, "_remove_final_layer_norm", &remove_final));
        TRYI(get_bool(&p, "enable_bias", &bias));
        c->pre_norm = before;
        c->final_norm = before && !remove_final;
        c->qkv_bias = c->out_bias = c->mlp_bias = bias;
        int64_t proj = H;
        TRYI(get_i64(&p, KEYS("word_embed_proj_dim"), &proj));
        if (proj > 0 && proj != H) c->embed_proj_dim = proj;
        break;
    }
    case FAM_NEOX: {
        int par = 1;
        TRYI(get_bool(&p, "use_parallel_residual", &par));
        c->parallel_residual = par;
        break;
    }
    case FAM_LLAMA: case FAM_MIXTRAL: {
        int ab = 0, mb = 0;
        TRYI(get_bool(&p, "attention_bias", &ab));
        TRYI(get_bool(&p, "mlp_bias", &mb));
        c->qkv_bias = c->out_bias = ab;
        c->mlp_bias = mb;
        if (f == FAM_MIXTRAL) {
            c->num_experts = 8;
            c->experts_per_token = 2;
            TRY(opt_nonneg(&p, KEYS("num_local_experts"), &c->num_experts));
            TRY(opt_nonneg(&p, KEYS("num_experts_per_tok"), &c->experts_per_token));
            if (c->experts_per_token < 1 || c->experts_per_token > c->num_experts)
                return dlp__err(err, DLP_EFORMAT, "%s: field 'num_experts_per_tok' must be in 1..num_local_experts",
                                name);
        }
        break;
    }
    case FAM_PHI: {
        int qk = 0;
        TRYI(get_bool(&p, "qk_layernorm", &qk));
        if (qk) return dlp__err(err, DLP_EUNSUPPORTED, "%s: field 'qk_layernorm' true is not supported", name);
        break;
    }
    case FAM_GEMMA2: {
        c->attn_softcap = 50.0;
        TRYI(get_f64(&p, KEYS("attn_logit_softcapping"), &c->attn_softcap));
        break;
    }
    case FAM_STARCODER2: {
        int ub = 1;
        TRYI(get_bool(&p, "use_bias", &ub));
        c->qkv_bias = c->out_bias = c->mlp_bias = ub;
        break;
    }
    case FAM_BLOOM: {
        /* BLOOM has no position table: any length */
        break;
    }
    default: break;
    }
    if (c->position == DLP_POS_LEARNED && c->max_position_embeddings <= 0)
        return dlp__err(err, DLP_EFORMAT, "%s: field 'max_position_embeddings' is missing", name);
    return DLP_OK;
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
            snprintf(tmp, sizeof tmp, "%s", b);
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
    }
}

int dlp_llm_catalogue_count(void) {
    pthread_once(&cat_once, cat_load);
    return n_cat;
}

const char *dlp_llm_catalogue_id(int i) {
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

static int cat_match(const cat_entry *e, const char *want) {
    char a[160], b[160];
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
        if (!cJSON_IsString(al)) continue;
        norm_id(al->valuestring, b, sizeof b);
        if (!strcmp(a, b) || (a2[0] && !strcmp(a2, b))) return 1;
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
        if (!cat_match(&cat[i], id)) continue;
        char nm[160];
        snprintf(nm, sizeof nm, "data/llm_configs.json (%s)", cat[i].id);
        dlp_status st = parse_obj(cat[i].config, nm, out, err);
        if (st) return st;
        snprintf(out->id, sizeof out->id, "%s", cat[i].id);
        snprintf(out->hf_id, sizeof out->hf_id, "%s", cat[i].hf);
        out->params_ref = cat[i].params;
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
} tb;

static void full_name(tb *b, char *buf, size_t n, const char *name) {
    snprintf(buf, n, "%s/%s", b->scope, name);
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
    full_name(b, nm, sizeof nm, name);
    for (int o = 0; o < n_out; o++) {
        snprintf(vn, sizeof vn, "%s_output_%d", nm, o);
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
    snprintf(nm, sizeof nm, "const_i%d", b->uid++);
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
    snprintf(nm, sizeof nm, "const_s%d", b->uid++);
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
    snprintf(nm, sizeof nm, "Constant_%d", b->uid++);
    int id = tb_op(b, "Constant", nm, 0, NULL);
    tb_attr_f(b, "value_float", v);
    if (dt != DLP_DT_FLOAT) {
        snprintf(nm, sizeof nm, "Cast_%d", b->uid++);
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
        int64_t out = dims[rank - 1];
        w->linear_params += n;
        w->weight_bytes[DLP_QT_INT8] += n + 4 * out;  /* int8 codes + fp32 row scale */
        w->weight_bytes[DLP_QT_NF4] += dlp__nf4_bytes(n);
    } else {
        w->weight_bytes[DLP_QT_INT8] += 2 * n;
        w->weight_bytes[DLP_QT_NF4] += 2 * n;
    }
    return id;
}

/* x (.., in) @ W (in, out) [+ bias]: nn.Linear as torch exports it. */
static int tb_linear_w(tb *b, const char *name, int x, int W, int bias) {
    char nm[128];
    snprintf(nm, sizeof nm, "%s/MatMul", name);
    int y = tb_op2(b, "MatMul", nm, x, W);
    if (bias >= 0) {
        snprintf(nm, sizeof nm, "%s/Add", name);
        y = tb_op2(b, "Add", nm, y, bias);
    }
    return y;
}

static int tb_linear(tb *b, const char *name, int x, int64_t in, int64_t out, int has_bias, int kind) {
    char nm[128];
    int64_t d[2] = {in, out};
    snprintf(nm, sizeof nm, "%s.weight", name);
    int W = tb_weight(b, nm, 2, d, kind);
    int bias = -1;
    if (has_bias) {
        snprintf(nm, sizeof nm, "%s.bias", name);
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

/* LayerNorm (opset 17) or RMSNorm as HF computes it (in fp32). */
static int tb_norm(tb *b, const char *name, int x) {
    const dlp_llm_config *c = b->c;
    char nm[128];
    int64_t H = c->hidden_size;
    snprintf(nm, sizeof nm, "%s.weight", name);
    int w = tb_weight(b, nm, 1, &H, W_PLAIN);
    if (!c->rms_norm) {
        int in[3] = {x, w, -1};
        int n = 2;
        if (c->norm_bias) {
            snprintf(nm, sizeof nm, "%s.bias", name);
            in[n++] = tb_weight(b, nm, 1, &H, W_PLAIN);
        }
        snprintf(nm, sizeof nm, "%s/LayerNormalization", name);
        int y = tb_op(b, "LayerNormalization", nm, n, in);
        tb_attr_i(b, "axis", -1);
        tb_attr_f(b, "epsilon", c->norm_eps);
        return y;
    }
    int xf = x;
    if (b->dt != DLP_DT_FLOAT) {
        snprintf(nm, sizeof nm, "%s/Cast", name);
        xf = tb_op1(b, "Cast", nm, x);
        tb_attr_i(b, "to", DLP_DT_FLOAT);
    }
    snprintf(nm, sizeof nm, "%s/Pow", name);
    int sq = tb_op2(b, "Pow", nm, xf, tb_scalar(b, 2.0, DLP_DT_FLOAT));
    snprintf(nm, sizeof nm, "%s/ReduceMean", name);
    int ms = tb_op2(b, "ReduceMean", nm, sq, tb_i1(b, -1));
    tb_attr_i(b, "keepdims", 1);
    snprintf(nm, sizeof nm, "%s/Add", name);
    int ad = tb_op2(b, "Add", nm, ms, tb_scalar(b, c->norm_eps, DLP_DT_FLOAT));
    snprintf(nm, sizeof nm, "%s/Sqrt", name);
    int rt = tb_op1(b, "Sqrt", nm, ad);
    snprintf(nm, sizeof nm, "%s/Div", name);
    int y = tb_op2(b, "Div", nm, xf, rt);
    if (b->dt != DLP_DT_FLOAT) {
        snprintf(nm, sizeof nm, "%s/Cast_1", name);
        y = tb_op1(b, "Cast", nm, y);
        tb_attr_i(b, "to", b->dt);
    }
    snprintf(nm, sizeof nm, "%s/Mul", name);
    return tb_op2(b, "Mul", nm, w, y);
}

static int tb_act(tb *b, const char *name, int x) {
    char nm[128];
    switch (b->c->act) {
    case DLP_ACT_RELU:
        snprintf(nm, sizeof nm, "%s/Relu", name);
        return tb_op1(b, "Relu", nm, x);
    case DLP_ACT_SILU: {
        snprintf(nm, sizeof nm, "%s/Sigmoid", name);
        int s = tb_op1(b, "Sigmoid", nm, x);
        snprintf(nm, sizeof nm, "%s/Mul", name);
        return tb_op2(b, "Mul", nm, x, s);
    }
    default: {
        snprintf(nm, sizeof nm, "%s/Gelu", name);
        int y = tb_op1(b, "Gelu", nm, x);
        if (b->c->act == DLP_ACT_GELU_TANH) tb_attr_s(b, "approximate", "tanh");
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
static int tb_rope(tb *b, const char *name, int t) {
    int64_t d = b->c->head_dim, rd = b->rot_dim, h = rd / 2;
    char nm[128];
    int tr = t, tp = -1;
    if (rd < d) {
        snprintf(nm, sizeof nm, "%s/Slice_rot", name);
        tr = tb_slice(b, nm, t, 0, rd, -1);
        snprintf(nm, sizeof nm, "%s/Slice_pass", name);
        tp = tb_slice(b, nm, t, rd, d, -1);
    }
    snprintf(nm, sizeof nm, "%s/Slice", name);
    int x1 = tb_slice(b, nm, tr, 0, h, -1);
    snprintf(nm, sizeof nm, "%s/Slice_1", name);
    int x2 = tb_slice(b, nm, tr, h, rd, -1);
    snprintf(nm, sizeof nm, "%s/Neg", name);
    int nx2 = tb_op1(b, "Neg", nm, x2);
    int cc0[2] = {nx2, x1};
    snprintf(nm, sizeof nm, "%s/Concat", name);
    int rot = tb_concat(b, nm, 2, cc0, -1);
    snprintf(nm, sizeof nm, "%s/Mul", name);
    int a = tb_op2(b, "Mul", nm, tr, b->cos);
    snprintf(nm, sizeof nm, "%s/Mul_1", name);
    int s = tb_op2(b, "Mul", nm, rot, b->sin);
    snprintf(nm, sizeof nm, "%s/Add", name);
    int y = tb_op2(b, "Add", nm, a, s);
    if (tp >= 0) {
        int cc[2] = {y, tp};
        snprintf(nm, sizeof nm, "%s/Concat_1", name);
        y = tb_concat(b, nm, 2, cc, -1);
    }
    return y;
}

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
    snprintf(nm, sizeof nm, "const_relidx%d", b->uid++);
    b->rel_idx = n == b->S ? dlp__graph_add_const_ints(b->g, nm, 1, &n, iv) : -1;
    free(iv);
    if (b->rel_idx < 0) b->oom = 1;
}

typedef struct {
    int q_w, q_b, k_w, k_b;   /* DeBERTa reuses the projections on rel_embeddings */
} attn_w;

static int tb_attention(tb *b, int x, int layer) {
    const dlp_llm_config *c = b->c;
    int64_t B = b->B, S = b->S, H = c->hidden_size, h = c->num_attention_heads, kv = c->num_key_value_heads,
            d = c->head_dim, g = h / kv;
    char save[96];
    memcpy(save, b->scope, sizeof save);
    snprintf(b->scope, sizeof b->scope, "/layers.%d/attn", layer);
    int q, k, v;
    attn_w aw = {-1, -1, -1, -1};
    if (c->fused_qkv) {
        int qkv = tb_linear(b, "qkv_proj", x, H, (h + 2 * kv) * d, c->qkv_bias, W_LINEAR);
        int outs[3] = {-1, -1, -1};
        int in[2] = {qkv, tb_ints(b, 3, (int64_t[]){h * d, kv * d, kv * d})};
        tb_nodev(b, "Split", "Split", 2, in, 3, outs);
        tb_attr_i(b, "axis", -1);
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
    /* heads: q (B,kv,g,S,d); k, v (B,kv,1,S,d) — grouped-query attention
     * broadcasts k/v over the g query heads of a group, with the MACs of
     * HF's repeat_kv + matmul */
    int64_t sq[5] = {B, S, kv, g, d}, sk[5] = {B, S, kv, 1, d}, perm[5] = {0, 2, 3, 1, 4};
    q = tb_transpose(b, "q/Transpose", tb_reshape(b, "q/Reshape", q, 5, sq), 5, perm);
    k = tb_transpose(b, "k/Transpose", tb_reshape(b, "k/Reshape", k, 5, sk), 5, perm);
    v = tb_transpose(b, "v/Transpose", tb_reshape(b, "v/Reshape", v, 5, sk), 5, perm);
    if (c->position == DLP_POS_ROTARY) {
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
    int pr = tb_op1(b, "Softmax", "Softmax", s);
    tb_attr_i(b, "axis", -1);
    int o = tb_op2(b, "MatMul", "MatMul_1", pr, v);
    int64_t pb[5] = {0, 3, 1, 2, 4}, so[3] = {B, S, h * d};
    o = tb_reshape(b, "o/Reshape", tb_transpose(b, "o/Transpose", o, 5, pb), 3, so);
    o = tb_linear(b, "o_proj", o, h * d, H, c->out_bias, W_LINEAR);
    memcpy(b->scope, save, sizeof save);
    return o;
}

/* Dense MLP on x (.., H): plain fc1 -> act -> fc2, or gated. */
static int tb_mlp_dense(tb *b, int x) {
    const dlp_llm_config *c = b->c;
    int64_t H = c->hidden_size, I = c->intermediate_size;
    if (!c->gated_mlp) {
        int hdn = tb_act(b, "act", tb_linear(b, "fc1", x, H, I, c->mlp_bias, W_LINEAR));
        return tb_linear(b, "fc2", hdn, I, H, c->mlp_bias, W_LINEAR);
    }
    int gt, up;
    if (c->fused_gate_up) {
        int gu = tb_linear(b, "gate_up_proj", x, H, 2 * I, c->mlp_bias, W_LINEAR);
        int outs[2] = {-1, -1};
        int in[2] = {gu, tb_ints(b, 2, (int64_t[]){I, I})};
        tb_nodev(b, "Split", "Split", 2, in, 2, outs);
        tb_attr_i(b, "axis", -1);
        gt = outs[0];
        up = outs[1];
    } else {
        gt = tb_linear(b, "gate_proj", x, H, I, c->mlp_bias, W_LINEAR);
        up = tb_linear(b, "up_proj", x, H, I, c->mlp_bias, W_LINEAR);
    }
    int hdn = tb_op2(b, "Mul", "Mul", tb_act(b, "act", gt), up);
    return tb_linear(b, "down_proj", hdn, I, H, c->mlp_bias, W_LINEAR);
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
    for (int64_t e = 0; e < E; e++) {
        snprintf(b->scope, sizeof b->scope, "%.60s/experts.%lld", save, (long long)e);
        int xe = tb_slice(b, "Slice", x2, 0, ne, 0);
        ys[e] = tb_mlp_dense(b, xe);
    }
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

static int tb_mlp(tb *b, int x, int layer) {
    char save[96];
    memcpy(save, b->scope, sizeof save);
    snprintf(b->scope, sizeof b->scope, "/layers.%d/mlp", layer);
    int y = b->c->num_experts > 0 ? tb_moe(b, x) : tb_mlp_dense(b, x);
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
    int gi[2] = {*wte, ids};
    int x = tb_op(b, "Gather", "word_embeddings/Gather", 2, gi);
    /* OPT projects the token embeddings before adding positions; DeBERTa
     * projects the sum (below) */
    if (c->embed_proj_dim && !strcmp(c->model_type, "opt")) x = tb_linear(b, "project_in", x, E, H, 0, W_LINEAR);
    if (c->embed_scale) x = tb_op2(b, "Mul", "Mul", x, tb_scalar(b, sqrt((double)H), b->dt));
    int learned = c->position == DLP_POS_LEARNED || (c->position == DLP_POS_RELATIVE && c->position_offset < 0);
    int64_t W = c->embed_proj_dim && strcmp(c->model_type, "opt") ? E : H;
    if (learned) {
        int64_t off = c->position_offset > 0 ? c->position_offset : 0;
        /* OPT's table has `offset` extra rows; RoBERTa's count includes them */
        int64_t rows = c->max_position_embeddings + (!strcmp(c->model_type, "opt") ? off : 0);
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
    return x;
}

dlp_status dlp_llm_build(const dlp_llm_config *c, int64_t batch, int64_t seq, int quant, dlp_graph **out,
                         dlp_llm_weights *wout, dlp_error *err) {
    if (out) *out = NULL;
    if (!c || !out) return dlp__err(err, DLP_EINVAL, "dlp_llm_build: NULL argument");
    const char *id = c->id[0] ? c->id : "transformer";
    if (batch < 1 || seq < 1)
        return dlp__err(err, DLP_EINVAL, "%s: batch and seq must be >= 1 (got %lld, %lld)", id, (long long)batch,
                        (long long)seq);
    if (quant < 0 || quant >= DLP_QT_COUNT_) return dlp__err(err, DLP_EINVAL, "%s: unknown quantisation %d", id, quant);
    if (c->hidden_size < 1 || c->num_hidden_layers < 1 || c->num_attention_heads < 1 || c->vocab_size < 1 ||
        c->intermediate_size < 1 || c->head_dim < 1 || c->num_key_value_heads < 1 ||
        c->num_attention_heads % c->num_key_value_heads)
        return dlp__err(err, DLP_EINVAL, "%s: incomplete config (sizes must be positive, heads a multiple of kv heads)",
                        id);
    if (c->num_hidden_layers > 1000 || c->num_experts > 256)
        return dlp__err(err, DLP_EINVAL, "%s: %lld layers / %lld experts is more than the builder takes", id,
                        (long long)c->num_hidden_layers, (long long)c->num_experts);
    if (c->position == DLP_POS_RELATIVE && c->position_buckets < 1)
        return dlp__err(err, DLP_EINVAL, "%s: relative attention needs position_buckets >= 1", id);
    if (c->position == DLP_POS_RELATIVE && seq > DLP_MAX_VALUE_NUMEL)
        return dlp__err(err, DLP_EINVAL, "%s: seq %lld is longer than the DeBERTa builder takes (%d)", id,
                        (long long)seq, DLP_MAX_VALUE_NUMEL);
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

    int64_t di[2] = {batch, seq};
    int ids = dlp__graph_add_value(b.g, "input_ids", DLP_DT_INT64, 2, di);
    if (ids < 0 || dlp__graph_mark_input(b.g, ids)) b.oom = 1;

    int wte = -1;
    int x = tb_embed(&b, ids, &wte);
    if (c->position == DLP_POS_ROTARY) tb_rotary_tables(&b);
    if (!c->encoder_only) tb_causal_mask(&b);
    if (c->position == DLP_POS_ALIBI) tb_alibi(&b);
    if (c->position == DLP_POS_RELATIVE) tb_deberta_rel(&b);

    char nm[64];
    for (int64_t l = 0; l < c->num_hidden_layers && !b.oom; l++) {
        int L = (int)l;
        snprintf(b.scope, sizeof b.scope, "/layers.%d", L);
        if (!c->pre_norm) {
            int a = tb_attention(&b, x, L);
            x = tb_norm(&b, "attn_norm", tb_op2(&b, "Add", "Add", x, a));
            int m = tb_mlp(&b, x, L);
            snprintf(b.scope, sizeof b.scope, "/layers.%d", L);
            x = tb_norm(&b, "mlp_norm", tb_op2(&b, "Add", "Add_1", x, m));
        } else if (c->parallel_residual) {
            int h1 = tb_norm(&b, "input_norm", x);
            int h2 = c->shared_parallel_norm ? h1 : tb_norm(&b, "mlp_norm", x);
            int a = tb_attention(&b, h1, L);
            int m = tb_mlp(&b, h2, L);
            x = tb_op2(&b, "Add", "Add_1", tb_op2(&b, "Add", "Add", x, a), m);
        } else {
            int a = tb_attention(&b, tb_norm(&b, "input_norm", x), L);
            if (c->sandwich_norm) a = tb_norm(&b, "post_attn_norm", a);
            x = tb_op2(&b, "Add", "Add", x, a);
            int m = tb_mlp(&b, tb_norm(&b, "mlp_norm", x), L);
            snprintf(b.scope, sizeof b.scope, "/layers.%d", L);
            if (c->sandwich_norm) m = tb_norm(&b, "post_mlp_norm", m);
            x = tb_op2(&b, "Add", "Add_1", x, m);
        }
    }
    b.scope[0] = 0;
    if (c->final_norm) x = tb_norm(&b, "norm", x);
    int outs[2] = {x, -1};
    int n_outs = 1;
    if (c->encoder_only) {
        if (c->mlm_head) {
            /* transform (dense + act + LayerNorm), then the decoder tied to
             * the word embeddings with its own bias */
            snprintf(b.scope, sizeof b.scope, "/mlm_head");
            int t = tb_act(&b, "act", tb_linear(&b, "dense", x, c->hidden_size, c->hidden_size, 1, W_LINEAR));
            t = tb_norm(&b, "LayerNorm", t);
            int64_t f2[2] = {batch * seq, c->hidden_size}, f3[3] = {batch, seq, c->vocab_size};
            int in[3] = {tb_reshape(&b, "Reshape", t, 2, f2), wte, tb_weight(&b, "bias", 1, &c->vocab_size, W_PLAIN)};
            int y = tb_op(&b, "Gemm", "Gemm", 3, in);
            tb_attr_i(&b, "transB", 1);
            outs[0] = tb_reshape(&b, "Reshape_1", y, 3, f3);
        } else if (c->pooler) {
            snprintf(b.scope, sizeof b.scope, "/pooler");
            int gi[2] = {x, tb_iscalar(&b, 0)};
            int first = tb_op(&b, "Gather", "Gather", 2, gi); /* hidden state of token 0: (B, H) */
            tb_attr_i(&b, "axis", 1);
            int pd = tb_linear(&b, "dense", first, c->hidden_size, c->hidden_size, 1, W_LINEAR);
            outs[1] = tb_op1(&b, "Tanh", "Tanh", pd);
            n_outs = 2;
        }
    } else {
        snprintf(b.scope, sizeof b.scope, "/lm_head");
        int64_t E = c->embed_proj_dim && !strcmp(c->model_type, "opt") ? c->embed_proj_dim : c->hidden_size;
        if (E != c->hidden_size) x = tb_linear(&b, "project_out", x, c->hidden_size, E, 0, W_LINEAR);
        if (c->tie_word_embeddings) {
            /* logits = x @ wte^T: Gemm(transB=1) on (B*S, E) reuses the
             * embedding table without a transposed copy */
            int64_t f2[2] = {batch * seq, E}, f3[3] = {batch, seq, c->vocab_size};
            int x2 = tb_reshape(&b, "Reshape", x, 2, f2);
            int in[3] = {x2, wte, -1};
            int n = 2;
            if (c->lm_head_bias) in[n++] = tb_weight(&b, "bias", 1, &c->vocab_size, W_PLAIN);
            int y = tb_op(&b, "Gemm", "Gemm", n, in);
            tb_attr_i(&b, "transB", 1);
            x = tb_reshape(&b, "Reshape_1", y, 3, f3);
        } else {
            x = tb_linear(&b, "lm_head", x, E, c->vocab_size, c->lm_head_bias, W_PLAIN);
        }
        outs[0] = x;
    }
    if (b.oom) {
        dlp_graph_free(b.g);
        if (b.oom == 2) return err ? err->code : DLP_EINVAL;
        return dlp__err(err, DLP_ENOMEM, "%s: out of memory building the graph", id);
    }
    for (int i = 0; i < n_outs; i++)
        if (dlp__graph_mark_output(b.g, outs[i])) {
            dlp_graph_free(b.g);
            return dlp__err(err, DLP_ENOMEM, "%s: out of memory", id);
        }
    (void)nm;
    dlp_load_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.batch = batch;
    lo.seq = seq;
    dlp_status st = dlp__graph_finalize(b.g, &lo, err);
    if (st) {
        dlp_graph_free(b.g);
        return st;
    }
    *out = b.g;
    if (wout) *wout = b.w;
    return DLP_OK;
}
