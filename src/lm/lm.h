/*
 * lm.h — a small decoder-only transformer (LLaMA family) for the GNN +
 * language-model predictor of thesis chapter 7 (issue 14, docs/gnnlm.md),
 * held to the rules of src/nn: float32 row-major, explicit forward/backward
 * pairs where backward ACCUMULATES (+=), parameters in one dlp__nn_params
 * store (PyTorch state_dict names), activations in a dlp__nn_ws arena,
 * every matmul through dlp__nn_gemm (OpenBLAS).
 *
 * The model: token embedding -> [RMSNorm -> grouped-query causal attention
 * with RoPE -> residual -> RMSNorm -> SwiGLU MLP -> residual] x n_layers ->
 * RMSNorm -> head tied to the token embedding (or, with untied_head, a
 * separate output matrix).  On top of the base model:
 *   - LoRA (rank r, alpha): W x + (alpha/r) B A x on wq wk wv wo and the MLP's
 *     w1 (gate) w3 (up) w2 (down); with the base frozen only A, B (and the
 *     adapters below) get gradients;
 *   - soft prompt: n_soft trainable vectors prepended to every sequence;
 *   - graph token: every position holding the <gslot> token (written between
 *     <graph> and </graph>) takes graph_proj(gvec[b]) instead of an embedding
 *     row, and backward returns d loss / d gvec so the encoder that produced
 *     gvec can be trained through it.
 *
 * Shapes: B rows of T text tokens; S = n_soft + T positions per row; the
 * residual stream is (B*S, dim); heads have head_dim = dim / n_heads; the
 * logits cover the T text positions only: (B*T, vocab).
 *
 * Not public API (src/lm/, double-underscore names like src/nn).
 */
#ifndef DLP_LM_H
#define DLP_LM_H

#include <stddef.h>
#include <stdint.h>

#include "dlperf.h"
#include "nn/nn.h"

/* ==== tokenizer (bpe.c) =============================================== */

/* Special tokens, ids 256 .. 256+DLP__BPE_N_SPECIAL-1 (after the 256 bytes). */
enum {
    DLP__BPE_PAD = 256, DLP__BPE_BOS, DLP__BPE_EOS, DLP__BPE_GRAPH,
    DLP__BPE_GRAPH_END, DLP__BPE_GSLOT, DLP__BPE_FIRST_MERGE
};
#define DLP__BPE_N_SPECIAL (DLP__BPE_FIRST_MERGE - 256)

/* Text of special token id (DLP__BPE_PAD .. DLP__BPE_GSLOT), else NULL. */
const char *dlp__bpe_special_text(int id);

typedef struct dlp__bpe_map dlp__bpe_map;
typedef struct {
    int n_merges;               /* token DLP__BPE_FIRST_MERGE + i = merge i    */
    int32_t *merges;            /* (n_merges, 2) left, right ids               */
    /* derived (dlp__bpe_build) */
    int vocab;                  /* 256 + specials + n_merges                   */
    uint32_t *tok_off, *tok_len;/* (vocab) bytes of every token in tok_bytes   */
    uint8_t *tok_bytes;
    dlp__bpe_map *map;          /* (left, right) -> merge rank                  */
} dlp__bpe;

/* Learn up to n_merges merges from text (len bytes, any bytes; special-token
 * strings are cut out and never merged).  Pre-tokenization splits the text
 * into chunks (an optional space + letters/UTF-8 bytes; one digit; an
 * optional space + a punctuation run; whitespace; at most 64 bytes), merges
 * never cross a chunk, ties go to the smallest (left, right).  Stops early when no pair
 * occurs twice. */
dlp_status dlp__bpe_train(dlp__bpe *t, const char *text, size_t len, int n_merges,
                          dlp_error *err);
/* Rebuild the derived tables from merges (after load); DLP_EFORMAT when a
 * merge names a token not defined before it. */
dlp_status dlp__bpe_build(dlp__bpe *t, dlp_error *err);
/* Token ids of text into *ids (malloc'ed, caller frees).  specials != 0:
 * the special strings ("<graph>", ...) become their tokens; 0: everything is
 * plain bytes.  decode(encode(s)) == s either way. */
dlp_status dlp__bpe_encode(const dlp__bpe *t, const char *text, size_t len, int specials,
                           int32_t **ids, int *n, dlp_error *err);
/* Bytes of ids into *out (malloc'ed, NUL-terminated, *len without the NUL);
 * DLP_EINVAL for an id outside the vocabulary. */
dlp_status dlp__bpe_decode(const dlp__bpe *t, const int32_t *ids, int n, char **out,
                           size_t *len, dlp_error *err);
void dlp__bpe_free(dlp__bpe *t);
/* Standalone tokenizer file: a .dlpm of kind "bpe" (merges in the header). */
dlp_status dlp__bpe_save(const dlp__bpe *t, const char *path, dlp_error *err);
dlp_status dlp__bpe_load(const char *path, dlp__bpe *t, dlp_error *err);

/* The tokenizer as a JSON object {"specials": [...], "merges": [l, r, ...]}
 * (lm_file.c puts it in the LM header) and back; name starts messages. */
struct cJSON;
struct cJSON *dlp__bpe_to_json(const dlp__bpe *t);
dlp_status dlp__bpe_from_json(const struct cJSON *o, const char *name, dlp__bpe *t,
                              dlp_error *err);

/* ==== pieces (lm.c): forward / backward pairs ========================= */

/* Embedding: x (n, d) = emb[tok[i]]; backward demb[tok[i]] += dx[i]. */
void dlp__lm_embed_forward(const float *emb, int d, const int32_t *tok, int n, float *x);
void dlp__lm_embed_backward(const float *dx, int d, const int32_t *tok, int n, float *demb);

/* RMSNorm: y = x / sqrt(mean(x^2) + eps) * w per row; rstd (n) cached.
 * backward: dx (may be NULL) += , dw (may be NULL) += . */
void dlp__lm_rmsnorm_forward(const float *x, const float *w, int n, int d, float eps,
                             float *y, float *rstd);
void dlp__lm_rmsnorm_backward(const float *x, const float *w, const float *rstd,
                              const float *dy, int n, int d, float *dx, float *dw);

/* RoPE (rotate-half / HF LLaMA convention) in place on x (B*S rows of nh
 * heads of hd), position = row % S; cos, sin (max_seq, hd/2).  backward
 * rotates a gradient back in place. */
void dlp__lm_rope_tables(int max_seq, int hd, float theta, float *cos_t, float *sin_t);
void dlp__lm_rope_forward(float *x, int B, int S, int nh, int hd, const float *cos_t,
                          const float *sin_t);
void dlp__lm_rope_backward(float *dx, int B, int S, int nh, int hd, const float *cos_t,
                           const float *sin_t);

/* Causal grouped-query attention: q (B*S, H*hd), k v (B*S, KV*hd), H a
 * multiple of KV (head h reads kv head h / (H/KV)); P (B, H, S, S) caches
 * the softmax; out (B*S, H*hd) overwritten.  backward: dq dk dv += (all
 * required); scratch (S*S floats) from ws. */
dlp_status dlp__lm_attn_forward(const float *q, const float *k, const float *v, int B, int S,
                                int H, int KV, int hd, float *P, float *out);
dlp_status dlp__lm_attn_backward(const float *q, const float *k, const float *v, const float *P,
                                 const float *dout, int B, int S, int H, int KV, int hd,
                                 dlp__nn_ws *ws, float *dq, float *dk, float *dv);

/* SwiGLU: y = silu(g) * u element-wise (n); dg du += . */
void dlp__lm_swiglu_forward(const float *g, const float *u, int64_t n, float *y);
void dlp__lm_swiglu_backward(const float *g, const float *u, const float *dy, int64_t n,
                             float *dg, float *du);

/* A projection y = x W^T (W (out, in), no bias) with an optional LoRA
 * adapter: + scale * (x A^T) B^T, A (r, in), B (out, r).  W gets a gradient
 * only when its tensor is trainable. */
typedef struct {
    int in, out;
    int w, a, b;                /* tensor ids; a = b = -1 without LoRA         */
    int r;
    float scale;                /* alpha / r                                   */
    /* cache */
    const float *x;             /* (n, in)                                     */
    float *xa;                  /* (n, r)                                      */
    int n;
} dlp__lm_proj;

dlp_status dlp__lm_proj_init(dlp__lm_proj *p, dlp__nn_params *ps, const char *name, int in,
                             int out, float w_bound, int r, float alpha);
dlp_status dlp__lm_proj_forward(dlp__lm_proj *p, dlp__nn_ctx *cx, const float *x, int n,
                                float *y);
/* dx (n, in) += (may be NULL). */
dlp_status dlp__lm_proj_backward(dlp__lm_proj *p, dlp__nn_ctx *cx, const float *dy, float *dx);

/* Mean next-token cross-entropy over rows with target >= 0 (others
 * ignored); logits (n, V); dlogits (may be NULL) overwritten with the
 * gradient of the mean.  *count (may be NULL) gets the rows counted. */
double dlp__lm_xent(const float *logits, int n, int V, const int32_t *target, float *dlogits,
                    int *count);

/* ==== the model (lm.c) ================================================ */

typedef struct {
    int vocab, dim, n_layers, n_heads, n_kv_heads, ffn, max_seq;
    float rope_theta;           /* 10000                                       */
    float norm_eps;             /* 1e-5                                        */
    int lora_rank;              /* 0: no LoRA                                  */
    float lora_alpha;
    int n_soft;                 /* soft-prompt vectors (0: none)               */
    int graph_dim;              /* external vector size (0: no graph token)    */
    /* LLaMA-3.1 RoPE scaling ("llama3", dlp__lm_load_hf); rope_factor 0:
     * none.  A frequency f of wavelength w = 2 pi / f is kept when
     * w < rope_orig_max / rope_high_freq, divided by rope_factor when
     * w > rope_orig_max / rope_low_freq, and blended in between. */
    float rope_factor, rope_low_freq, rope_high_freq;
    int rope_orig_max;
    int untied_head;            /* 0: logits = hidden E^T (head tied to the
                                   token embedding); 1: a separate
                                   "output.weight" (vocab, dim), as in
                                   LLaMA-3-8B (dlp__lm_load_hf)                */
} dlp__lm_config;

/* The RoPE tables (max_seq, head_dim/2) of a config: theta, head size and,
 * with rope_factor > 0, the llama3 frequency scaling. */
void dlp__lm_rope_tables_cfg(const dlp__lm_config *c, float *cos_t, float *sin_t);

typedef struct {
    int attn_norm, ffn_norm;    /* (dim) tensor ids                            */
    dlp__lm_proj wq, wk, wv, wo, w1, w3, w2;
    /* cache (ws) */
    const float *x;             /* (N, dim) block input                        */
    float *n1, *rstd1, *q, *k, *v, *P, *att, *x1, *n2, *rstd2, *g, *u, *h;
} dlp__lm_block;

typedef struct {
    dlp__lm_config c;
    dlp__nn_params ps;
    int tok_emb;                /* (vocab, dim), also the head when tied       */
    int head;                   /* "output.weight" (vocab, dim), or -1 (tied)  */
    int norm;                   /* (dim)                                       */
    int soft;                   /* (n_soft, dim) or -1                         */
    int gproj_w, gproj_b;       /* (dim, graph_dim), (dim) or -1               */
    dlp__lm_block *blk;         /* (n_layers)                                  */
    float *rope_cos, *rope_sin; /* (max_seq, head_dim/2)                       */
    /* cache of the last forward (ws) */
    int B, T, S;
    const int32_t *tokens, *targets;
    const float *gvec;
    float *x0;                  /* (B*S, dim) embedding output                 */
    float *xL;                  /* (B*S, dim) last block output                */
    float *hidden;              /* (B*S, dim) final RMSNorm output             */
    float *rstdL;               /* (B*S)                                       */
    float *logits;              /* (B*T, vocab)                                */
    float *dlogits;             /* (B*T, vocab) when targets were given        */
} dlp__lm;

/* Defaults for a model of that size (theta 1e4, eps 1e-5, no adapters). */
dlp__lm_config dlp__lm_config_default(int vocab, int dim, int n_layers, int n_heads,
                                      int n_kv_heads, int ffn, int max_seq);
/* Declare, allocate and initialise (seeded) every tensor.  Base weights
 * are trainable unless the config has LoRA, in which case they start
 * frozen (dlp__lm_set_base_trainable changes that). */
dlp_status dlp__lm_init(dlp__lm *m, const dlp__lm_config *c, uint64_t seed, dlp_error *err);
void dlp__lm_free(dlp__lm *m);
/* Mark the base weights (embedding, norms, projections) trainable or
 * frozen; LoRA A/B, the soft prompt and the graph projection stay trainable. */
void dlp__lm_set_base_trainable(dlp__lm *m, int on);

typedef struct {
    int B, T;
    const int32_t *tokens;      /* (B, T) ids < vocab                          */
    const int32_t *targets;     /* (B, T) next-token ids or -1; NULL: no loss  */
    const float *gvec;          /* (B, graph_dim); required when tokens hold
                                   <gslot> and the model has a graph_proj      */
} dlp__lm_batch;

/* Forward over a batch: caches in ws (kept until ws reset), m->logits,
 * m->hidden; *loss (may be NULL) gets the mean cross-entropy (0 without
 * targets).  The batch's arrays must stay unchanged until backward. */
dlp_status dlp__lm_forward(dlp__lm *m, dlp__nn_ws *ws, const dlp__lm_batch *b, double *loss,
                           dlp_error *err);
/* Backward of the last forward: parameter gradients accumulate into
 * m->ps.grad (trainable tensors only).  The loss gradient is used when the
 * forward had targets; dhidden (B*S, dim; may be NULL) adds a gradient on
 * m->hidden (a regression head).  dgvec (B, graph_dim; may be NULL) +=. */
dlp_status dlp__lm_backward(dlp__lm *m, dlp__nn_ws *ws, const float *dhidden, float *dgvec);

/* Greedy decoding of one row: appends up to max_new argmax tokens to the
 * prompt (n ids, n >= 1) into out (max_new), stopping after `stop` (< 0:
 * never) or when n_soft + length reaches max_seq; *n_out gets the count.
 * Each token reruns the whole sequence (no KV cache: prompts here are
 * short).  Resets ws.  gvec (graph_dim) for a prompt with <gslot>. */
dlp_status dlp__lm_generate(dlp__lm *m, dlp__nn_ws *ws, const int32_t *prompt, int n, int max_new,
                            int32_t stop, const float *gvec, int32_t *out, int *n_out,
                            dlp_error *err);

/* targets[b][t] = tokens[b][t+1], -1 for the last position, for <pad> and
 * <gslot> (never predicted) next tokens. */
void dlp__lm_next_targets(const int32_t *tokens, int B, int T, int32_t *targets);

/* ==== checkpoint (lm_file.c) ========================================== */

/* A .dlpm of kind "lm": header {config, tokenizer merges, size table,
 * optimizer settings}, payload every tensor (base, LoRA, soft prompt, graph
 * projection), then, when opt is given (training checkpoints, for resume),
 * Adam's two moment arrays.  tok and opt may be NULL. */
dlp_status dlp__lm_save(const dlp__lm *m, const dlp__bpe *tok, const dlp__nn_adam *opt,
                        const char *path, dlp_error *err);
/* The same with a training state: train_json (a JSON object, may be NULL)
 * is stored as the header's "train" member. */
dlp_status dlp__lm_save_ex(const dlp__lm *m, const dlp__bpe *tok, const dlp__nn_adam *opt,
                           const char *train_json, const char *path, dlp_error *err);
/* The same checkpoint as an image in memory: *buf (malloc'ed) of *len bytes. */
dlp_status dlp__lm_save_mem(const dlp__lm *m, const dlp__bpe *tok, const dlp__nn_adam *opt,
                            const char *train_json, void **buf, size_t *len, dlp_error *err);
/* dlp__lm_load of an image in memory (no optimizer); name starts messages. */
dlp_status dlp__lm_load_mem(const void *buf, size_t len, const char *name, const dlp__lm_config *add,
                            uint64_t seed, dlp__lm *m, dlp__bpe *tok, dlp_error *err);
/* The language model dlperf ships (lm_embed.c: data/models/lm/dlperf-lm.dlpm
 * compiled in): its .dlpm image, for dlp__lm_load_mem.  DLP__LM_BUILTIN is
 * the name that selects it where a path is expected. */
#define DLP__LM_BUILTIN "builtin"
void dlp__lm_builtin(const void **buf, size_t *len);
/* The "train" member of a checkpoint's header into *json (malloc'ed by
 * cJSON, free with free(); NULL when the file has none). */
dlp_status dlp__lm_train_state(const char *path, char **json, dlp_error *err);

/* Load a checkpoint.  add (may be NULL) asks for adapters the file may not
 * have: a lora_rank / n_soft / graph_dim > 0 there replaces the file's 0 and
 * those tensors keep their seeded init; tensors present in the file always
 * come from it (same shapes required).  tok (may be NULL) gets the
 * tokenizer (DLP_EFORMAT when the file has none).  opt (may be NULL) gets
 * the optimizer, moments and step count restored, when the file has one
 * (tensors added by `add` start with zero moments); without one, opt is
 * left zeroed (o->n == 0) for the caller to initialise. */
dlp_status dlp__lm_load(const char *path, const dlp__lm_config *add, uint64_t seed, dlp__lm *m,
                        dlp__bpe *tok, dlp__nn_adam *opt, dlp_error *err);

/* ==== Hugging Face checkpoints (lm_hf.c) ============================== */

/* Load a LLaMA-family Hugging Face model folder: dir/config.json
 * (model_type llama, mistral or qwen2; no rope_scaling, no biases),
 * dir/model.safetensors or the shards of dir/model.safetensors.index.json
 * (F32, F16, BF16 -> float32), dir/tokenizer.json (a byte-level BPE).  Our
 * tokenizer is rebuilt from the HF merges and the embedding / lm_head rows
 * are permuted into our ids (docs/gnnlm.md); our specials that HF lacks
 * keep their seeded initial rows, <bos> / <eos> / <pad> take the rows of
 * config.json's bos / eos / pad_token_id.  max_seq is
 * min(max_position_embeddings, 2048, sliding_window).  add (may be NULL)
 * adds LoRA / soft prompt / graph projection as dlp__lm_load does.  tok
 * (may be NULL) gets the tokenizer.  One-line errors name the file and the
 * thing; DLP_EUNSUPPORTED for valid checkpoints we do not handle. */
dlp_status dlp__lm_load_hf(const char *dir, const dlp__lm_config *add, uint64_t seed, dlp__lm *m,
                           dlp__bpe *tok, dlp_error *err);

typedef struct {
    char model_type[32];
    int hf_vocab;               /* config vocab_size (embedding rows)          */
    int tied;                   /* head tied to the embedding                  */
    int max_pos, window;        /* max_position_embeddings, sliding window (0) */
    int n_files;                /* safetensors files read                      */
    int hf_tokens, hf_merges;   /* tokenizer.json model.vocab and merges       */
    int merges_kept;            /* our merges                                  */
    int merges_unreachable;     /* skipped: a part no byte / earlier merge made */
    int merges_not_in_vocab;    /* skipped: the result is not a vocab token     */
    int merges_duplicate;       /* skipped: the same pair again                */
    int merges_same_string;     /* kept: a string an earlier merge made; its
                                   own id, the same HF row (see the docs)      */
    int tokens_dropped;         /* vocab tokens no merge reaches (rows dropped) */
    int added_tokens, added_dropped; /* added_tokens, those not mapped        */
    int bytes_missing;          /* byte tokens absent (seeded rows)            */
    int ignore_merges;          /* model.ignore_merges (LLaMA-3): see the docs */
    int normalizer;             /* a normalizer is set (we apply none)         */
    int32_t *our2hf;            /* (tok->vocab) HF id of each of our ids, -1:
                                   none; malloc'ed, the caller frees           */
} dlp__lm_hf_info;

/* The same with a report (info may be NULL). */
dlp_status dlp__lm_load_hf_ex(const char *dir, const dlp__lm_config *add, uint64_t seed, dlp__lm *m,
                              dlp__bpe *tok, dlp__lm_hf_info *info, dlp_error *err);

#endif /* DLP_LM_H */
