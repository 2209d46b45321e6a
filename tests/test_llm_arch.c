/*
 * test_llm_arch.c — golden numbers for the 2025-26 architectures of
 * `dlperf llm` (issue 13, scope 1): parameter counts (total and active) and
 * KV-cache bytes per token, worked by hand from the published config.json
 * values (the arithmetic is in the comments), then checked against the
 * numbers the model cards publish.
 *
 * Tolerances: the hand arithmetic must match the builder EXACTLY (it is the
 * same published config, counted twice).  Published figures are rounded to
 * two or three significant digits ("30.5B", "3.3B", "671B"), so the builder
 * must come within 2 % of them; model cards of VLMs count the vision tower,
 * which the language stack does not build, so those are compared by hand
 * only (catalogue "published.includes_vision").
 */
#include <cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llm/transformer.h"
#include "dlperf.h"
#include "tap.h"

#define PUB_TOL 0.02

static int get(const char *id, dlp_llm_config *c) {
    dlp_error e = {0};
    if (dlp_llm_catalogue_get(id, c, &e)) {
        fprintf(stderr, "  %s: %s\n", id, e.msg);
        return 0;
    }
    return 1;
}

/* Build at (1, 16), bf16; returns the weights' counts. */
static int build(const dlp_llm_config *c, int64_t S, dlp_llm_weights *w, dlp_graph_stats *gs) {
    dlp_graph *g = NULL;
    dlp_error e = {0};
    if (dlp_llm_build(c, 1, S, DLP_QT_BF16, &g, w, &e)) {
        fprintf(stderr, "  %s: %s\n", c->id, e.msg);
        return 0;
    }
    dlp_graph_stats st;
    dlp_graph_stats_get(g, &st);
    if (gs) *gs = st;
    /* every shape known, every op costed */
    CHECK_I64(st.n_unknown_ops, 0);
    CHECK_I64(st.shapes_known, st.node_outputs);
    CHECK_I64(st.params, w->params);
    dlp_graph_free(g);
    return 1;
}

/* within tol of a published figure: PUB_TOL, or wider where the card rounds
 * to one or two digits ("10B", "1T", "A17B": catalogue "tolerance") */
static void near_pub_tol(const char *what, double ours, double published, double tol) {
    double rel = ours / published - 1.0;
    fprintf(stderr, "  %-44s ours %10.4gB published %8.4gB (%+.2f %%, tol %.0f %%)\n", what, ours / 1e9,
            published / 1e9, 100 * rel, 100 * tol);
    CHECK(fabs(rel) <= tol);
}

static void near_pub(const char *what, double ours, double published) { near_pub_tol(what, ours, published, PUB_TOL); }

/* ---- dense GQA: Llama-3.1-8B (renamed ids) ------------------------------ */
static void t_llama31_8b(void) {
    dlp_llm_config c;
    /* all spellings of the id in use resolve to the same model */
    const char *ids[] = {"meta-llama/Llama-3.1-8B", "meta-llama/Meta-Llama-3.1-8B", "meta-llama/Llama-3.1-8B-Instruct",
                         "meta-llama/Meta-Llama-3.1-8B-Instruct"};
    for (int i = 0; i < 4; i++) {
        CHECK(get(ids[i], &c));
        CHECK_I64(c.hidden_size, 4096);
    }
    dlp_llm_weights w;
    if (!build(&c, 16, &w, NULL)) return;
    /* embed 128256*4096 = 525,336,576, untied head the same;
     * per layer: q 4096^2 16,777,216 + k,v 4096*1024 = 4,194,304 each + o
     * 16,777,216 = 41,943,040; MLP 3*4096*14336 = 176,160,768; 2 norms 8192
     * -> 218,112,000 x 32 = 6,979,584,000; final norm 4096
     * = 8,030,261,248 (HF: 8.03B) */
    int64_t want = 2 * 525336576LL + 32 * (41943040LL + 176160768LL + 8192) + 4096;
    CHECK_I64(want, 8030261248LL);
    CHECK_I64(w.params, want);
    CHECK_I64(w.active_params, want);
    CHECK_I64(w.embed_params, 525336576LL);
    near_pub("Llama-3.1-8B total", (double)w.params, 8.03e9);
    /* KV per token, bf16: 2 (k, v) * 32 layers * 8 kv heads * 128 * 2 B = 131,072 */
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 1, 2.0), 131072.0, 0);
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 8192, 2.0), 131072.0 * 8192, 0);
}

/* ---- Phi-3-small (phi3small: fused qkv, gated GELU, tied embeddings) ------- */
static void t_phi3_small(void) {
    dlp_llm_config c;
    CHECK(get("microsoft/Phi-3-small-8k-instruct", &c));
    CHECK_I64(c.intermediate_size, 14336); /* from ff_intermediate_size */
    dlp_llm_weights w;
    if (!build(&c, 16, &w, NULL)) return;
    /* config.json: hidden 4096, 32 layers, 32 heads, 8 KV heads (head_dim
     * 128), ff_intermediate_size 14336, vocab 100352, embeddings tied.
     * embed 100352*4096 = 411,041,792 (once); per layer: qkv 4096*(32+2*8)*128
     * = 25,165,824 + o 16,777,216 + up (gate and linear halves) 4096*2*14336
     * = 117,440,512 + down 14336*4096 = 58,720,256 + 2 norms 8,192
     * = 218,112,000 x 32 = 6,979,584,000; final norm 4096
     * = 7,390,629,888 (card: 7.39B) */
    int64_t want = 411041792LL + 32 * (25165824LL + 16777216LL + 117440512LL + 58720256LL + 8192) + 4096;
    CHECK_I64(want, 7390629888LL);
    CHECK_I64(w.params, want);
    near_pub("Phi-3-small total", (double)w.params, 7.39e9);
    /* KV per token, bf16: 2 * 32 layers * 8 kv heads * 128 * 2 B = 131,072 */
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 1, 2.0), 131072.0, 0);
}

/* ---- dense + qk-norm: Qwen3-8B ------------------------------------------ */
static void t_qwen3_8b(void) {
    dlp_llm_config c;
    if (!get("Qwen/Qwen3-8B", &c)) return;
    CHECK_I64(c.qk_norm, 1);
    CHECK_I64(c.head_dim, 128);
    dlp_llm_weights w;
    if (!build(&c, 16, &w, NULL)) return;
    /* embed 151936*4096 = 622,329,856 (untied: x2); per layer q 16,777,216,
     * k,v 4,194,304 each, o 16,777,216 (41,943,040), q_norm + k_norm 2*128,
     * MLP 3*4096*12288 = 150,994,944, norms 8192 -> 192,946,432 x 36 =
     * 6,946,071,552; final 4096 -> 8,190,735,360 (card: 8.2B, 6.95B
     * non-embedding) */
    int64_t want = 2 * 622329856LL + 36 * (41943040LL + 256 + 150994944LL + 8192) + 4096;
    CHECK_I64(want, 8190735360LL);
    CHECK_I64(w.params, want);
    near_pub("Qwen3-8B total", (double)w.params, 8.2e9);
    near_pub("Qwen3-8B non-embedding", (double)(w.params - 2 * w.embed_params), 6.95e9);
    /* KV: 2 * 36 * 8 * 128 * 2 B = 147,456 per token */
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 1, 2.0), 147456.0, 0);
}

/* ---- MoE: Qwen3-30B-A3B ------------------------------------------------- */
static void t_qwen3_moe(void) {
    dlp_llm_config c;
    if (!get("Qwen/Qwen3-30B-A3B-Instruct-2507", &c)) return;
    CHECK_I64(c.num_experts, 128);
    CHECK_I64(c.experts_per_token, 8);
    CHECK_I64(c.moe_intermediate_size, 768);
    dlp_llm_weights w;
    dlp_graph_stats gs;
    if (!build(&c, 16, &w, &gs)) return;
    /* embed 151936*2048 = 311,164,928 (x2 untied); per layer: q 2048*4096
     * 8,388,608, k,v 2048*512 1,048,576 each, o 8,388,608 (18,874,368), qk
     * norms 256, router 2048*128 262,144, experts 128*3*2048*768 =
     * 603,979,776, norms 4096 -> 623,120,640 x 48 = 29,909,790,720; final
     * 2048 -> 30,532,122,624 (card: 30.5B total, 29.9B non-embedding) */
    int64_t layer = 18874368LL + 256 + 262144 + 603979776LL + 4096;
    int64_t want = 2 * 311164928LL + 48 * layer + 2048;
    CHECK_I64(want, 30532122624LL);
    CHECK_I64(w.params, want);
    /* active: 8 of 128 experts = 37,748,736 per layer: 48 * (623,120,640 -
     * 603,979,776 + 37,748,736) + 2048 + 622,329,856 = 3,353,032,704 (card:
     * 3.3B activated, embeddings included) */
    int64_t act = 48 * (layer - 603979776LL + 37748736LL) + 2048 + 2 * 311164928LL;
    CHECK_I64(act, 3353032704LL);
    CHECK_I64(w.active_params, act);
    near_pub("Qwen3-30B-A3B total", (double)w.params, 30.5e9);
    near_pub("Qwen3-30B-A3B active", (double)w.active_params, 3.3e9);
    near_pub("Qwen3-30B-A3B non-embedding", (double)(w.params - 2 * w.embed_params), 29.9e9);
    /* compute is that of the active experts: at (1, 16) the 16*8 = 128
     * token-expert rows split one per expert, so the expert MatMuls are
     * 128 rows * 3 * 2048 * 768 = T k 3 H I per layer, the MACs of 8 experts
     * per token (not of 128) */
    int64_t T = 16, attn = T * (2048 * 4096 * 2 + 2048 * 512 * 2) + 2 * 32 * T * T * 128;
    int64_t moe = T * 2048 * 128 + T * 8 * 3 * 2048 * 768;
    CHECK_I64(gs.macs, 48 * (attn + moe) + T * 2048 * 151936);
    /* KV: 2 * 48 layers * 4 kv heads * 128 * 2 B = 98,304 per token */
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 1, 2.0), 98304.0, 0);
}

/* A tiny qwen3_moe config with every MAC by hand (B 1, S 4, 8 experts top-2:
 * T k = 8 rows, one per expert). */
static void t_tiny_moe_by_hand(void) {
    const char *js = "{\"model_type\":\"qwen3_moe\",\"hidden_size\":64,\"num_hidden_layers\":1,"
                     "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":16,\"intermediate_size\":96,"
                     "\"moe_intermediate_size\":32,\"num_experts\":8,\"num_experts_per_tok\":2,\"vocab_size\":100,"
                     "\"tie_word_embeddings\":false}";
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_config_parse(js, "tiny.json", &c, &e) == DLP_OK);
    dlp_llm_weights w;
    dlp_graph_stats gs;
    if (!build(&c, 4, &w, &gs)) return;
    /* params: embed 6400, q 4096, k 2048, v 2048, o 4096, q/k norm 32, 2
     * norms 128, router 512, experts 8*3*64*32 = 49,152, final 64, head 6400 */
    CHECK_I64(w.params, 6400 + 4096 + 2048 + 2048 + 4096 + 32 + 128 + 512 + 49152 + 64 + 6400);
    /* active: 2 of 8 experts = 12,288 */
    CHECK_I64(w.active_params, 74976 - 49152 + 12288);
    /* MACs: q 4*64*64 16,384, k,v 4*64*32 8,192 each, o 16,384, scores and
     * context 2 * 4 heads * 4*4*16 = 2,048, router 4*64*8 2,048, experts
     * 8 rows * (64*32*2 + 32*64) = 49,152, head 4*64*100 25,600 */
    CHECK_I64(gs.macs, 16384 + 8192 + 8192 + 16384 + 2048 + 2048 + 49152 + 25600);
    /* a batch whose T k does not divide by E pads to ceil(T k / E) rows per
     * expert: S 3 -> 6 rows -> 1 per expert (8 rows of work) */
    CHECK(build(&c, 3, &w, &gs));
}

/* ---- MLA + MoE: DeepSeek-V3 / R1 ---------------------------------------- */
static void t_deepseek_v3(void) {
    dlp_llm_config c;
    if (!get("deepseek-ai/DeepSeek-V3", &c)) return;
    CHECK_I64(c.kv_lora_rank, 512);
    CHECK_I64(c.head_dim, 192);
    CHECK_I64(c.layer_kind[0] & DLP_LK_DENSE, DLP_LK_DENSE);
    CHECK_I64(c.layer_kind[3] & DLP_LK_DENSE, 0);
    dlp_llm_weights w;
    if (!build(&c, 16, &w, NULL)) return;
    /* embed 129280*7168 = 926,679,040 (x2 untied).
     * MLA per layer: q_a 7168*1536 11,010,048 + q_a_norm 1536 + q_b
     * 1536*(128*192) 37,748,736 + kv_a 7168*(512+64) 4,128,768 + kv_norm 512
     * + kv_b 512*(128*(128+128)) 16,777,216 + o (128*128)*7168 117,440,512
     * = 187,107,328; 2 norms 14,336 -> 187,121,664 x 61 = 11,414,421,504.
     * Dense MLP (first_k_dense_replace 3): 3*7168*18432 = 396,361,728 x 3.
     * MoE (58 layers): router 256*7168 1,835,008 + 256 routed x 3*7168*2048
     * (44,040,192) = 11,274,289,152 + 1 shared 44,040,192 = 11,320,164,352.
     * Total 11,414,421,504 + 1,189,085,184 + 656,569,532,416 + 7168 +
     * 1,853,358,080 = 671,026,404,352 (README: 671B; the MTP module is a
     * separate 11.5B not in HF's model) */
    int64_t mla = 11010048LL + 1536 + 37748736LL + 4128768LL + 512 + 16777216LL + 117440512LL;
    CHECK_I64(mla, 187107328LL);
    int64_t moe = 1835008LL + 256 * 44040192LL + 44040192LL;
    int64_t want = 61 * (mla + 14336) + 3 * 396361728LL + 58 * moe + 7168 + 2 * 926679040LL;
    CHECK_I64(want, 671026404352LL);
    CHECK_I64(w.params, want);
    /* active: 8 routed + 1 shared expert: 58 * (1,835,008 + 9 * 44,040,192)
     * + the rest = 37,552,282,624; without the input embedding (DeepSeek's
     * count, README_WEIGHTS: 36.6B incl. the 0.9B output head)
     * 36,625,603,584 */
    int64_t act = 61 * (mla + 14336) + 3 * 396361728LL + 58 * (1835008LL + 9 * 44040192LL) + 7168 + 2 * 926679040LL;
    CHECK_I64(act, 37552282624LL);
    CHECK_I64(w.active_params, act);
    near_pub("DeepSeek-V3 total", (double)w.params, 671e9);
    near_pub("DeepSeek-V3 active (no input embedding)", (double)(w.active_params - w.embed_params), 36.6e9);
    near_pub("DeepSeek-V3 active (incl. embedding)", (double)w.active_params, 37e9);
    /* KV per token: MLA caches kv_lora_rank + qk_rope_head_dim = 576
     * elements per layer: 61 * 576 * 2 B = 70,272 (GQA with 128 kv heads of
     * 192/128 would be 61 * 128 * (192 + 128) * 2 = 4,997,120) */
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 1, 2.0), 70272.0, 0);
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 4096, 2.0), 70272.0 * 4096, 0);
    dlp_llm_config r1;
    if (get("deepseek-ai/DeepSeek-R1", &r1) && build(&r1, 16, &w, NULL)) CHECK_I64(w.params, want);
}

/* ---- MoE + sinks + alternating windows: gpt-oss ------------------------- */
static void t_gpt_oss(void) {
    dlp_llm_config c;
    if (!get("openai/gpt-oss-120b", &c)) return;
    CHECK_I64(c.attn_sinks, 1);
    CHECK_I64(c.sliding_window, 128);
    CHECK_I64(c.layer_kind[0] & DLP_LK_SLIDING, DLP_LK_SLIDING);
    CHECK_I64(c.layer_kind[1] & DLP_LK_SLIDING, 0);
    dlp_llm_weights w;
    if (!build(&c, 16, &w, NULL)) return;
    /* embed 201088*2880 = 579,133,440 (x2 untied).  Attention (biases on):
     * q 2880*4096+4096 11,800,576, k,v 2880*512+512 1,475,072 each, o
     * 4096*2880+2880 11,799,360, sinks 64 = 26,550,144; norms 5760.
     * MoE: router 2880*128+128 368,768; experts 128 x (gate_up 2880*5760 +
     * 5760 bias + down 2880*2880 + 2880 bias) = 128 * 24,891,840 =
     * 3,186,155,520.  Layer 3,213,080,192 x 36 + 2880 + 1,158,266,880 =
     * 116,829,156,672 (card: 116.83B) */
    int64_t attn = 11800576LL + 2 * 1475072LL + 11799360LL + 64;
    CHECK_I64(attn, 26550144LL);
    int64_t experts = 128 * (2880LL * 5760 + 5760 + 2880LL * 2880 + 2880);
    int64_t layer = attn + 5760 + 368768 + experts;
    CHECK_I64(36 * layer + 2880 + 2 * 579133440LL, 116829156672LL);
    CHECK_I64(w.params, 116829156672LL);
    /* active: 4 of 128 experts (99,567,360 per layer): 36 * 126,492,032 +
     * 2880 + 1,158,266,880 = 5,711,982,912; the card counts the unembedding
     * but not the embedding: 5,132,849,472 (card: 5.13B) */
    int64_t act = 36 * (layer - experts + experts / 32) + 2880 + 2 * 579133440LL;
    CHECK_I64(act, 5711982912LL);
    CHECK_I64(w.active_params, act);
    near_pub("gpt-oss-120b total", (double)w.params, 116.83e9);
    near_pub("gpt-oss-120b active (no embedding)", (double)(w.active_params - w.embed_params), 5.13e9);
    /* KV: 36 layers * 2 * 8 * 64 * 2 B = 73,728 per token up to the window;
     * beyond it the 18 sliding layers hold 128 tokens: at 10,000 tokens
     * 18 * 2048 * 10000 + 18 * 2048 * 128 = 373,358,592 */
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 1, 2.0), 73728.0, 0);
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 100, 2.0), 73728.0 * 100, 0);
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 10000, 2.0), 18.0 * 2048 * 10000 + 18.0 * 2048 * 128, 0);
    /* gpt-oss-20b: 24 layers, 32 experts: 24 * (26,550,144 + 5760 + 2880*32
     * + 32 + 32 * 24,891,840) + 2880 + 1,158,266,880 = 20,914,757,184
     * (card: 20.91B total, 3.61B active) */
    if (!get("openai/gpt-oss-20b", &c) || !build(&c, 16, &w, NULL)) return;
    int64_t l20 = attn + 5760 + (2880 * 32 + 32) + 32 * 24891840LL;
    CHECK_I64(w.params, 24 * l20 + 2880 + 2 * 579133440LL);
    near_pub("gpt-oss-20b total", (double)w.params, 20.91e9);
    near_pub("gpt-oss-20b active (no embedding)", (double)(w.active_params - w.embed_params), 3.61e9);
}

/* ---- local/global sliding windows + text_config: Gemma 3 ---------------- */
static void t_gemma3(void) {
    dlp_llm_config c;
    if (!get("google/gemma-3-1b-it", &c)) return;
    dlp_llm_weights w;
    if (!build(&c, 16, &w, NULL)) return;
    /* tied embed 262144*1152 = 301,989,888; per layer q 1152*1024
     * 1,179,648, k,v 1152*256 294,912 each, o 1,179,648 (2,949,120), q/k
     * norm 512, MLP 3*1152*6912 23,887,872, 4 norms (sandwich) 4608 =
     * 26,842,112 x 26 = 697,894,912; final 1152 -> 999,885,952 (HF: exactly
     * this count) */
    CHECK_I64(w.params, 301989888LL + 26 * (2949120LL + 512 + 23887872LL + 4608) + 1152);
    CHECK_I64(w.params, 999885952LL);
    /* KV: 1 kv head * 256 * 2 (k, v) * 2 B = 1,024 per layer per token;
     * sliding_window_pattern 6: layers 5, 11, 17, 23 global, 22 local with a
     * 512-token window.  At 32,768 tokens: 4 * 1024 * 32768 + 22 * 1024 *
     * 512 = 145,752,064 (all-global would be 872,415,232) */
    int nloc = 0;
    for (int i = 0; i < 26; i++) nloc += (c.layer_kind[i] & DLP_LK_SLIDING) != 0;
    CHECK_I64(nloc, 22);
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 1, 2.0), 26.0 * 1024, 0);
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 32768, 2.0), 145752064.0, 0);
    /* gemma-3-27b-it: config nested under text_config.  Text stack: tied
     * embed 262208*5376 = 1,409,630,208; per layer q 5376*4096 22,020,096,
     * k,v 5376*2048 11,010,048 each, o 22,020,096 (66,060,288), q/k norm
     * 256, MLP 3*5376*21504 346,816,512, norms 4*5376 21,504 = 412,898,560
     * x 62 = 25,599,710,720; final 5376 -> 27,009,346,304 (card: 27.4B with
     * the 0.42B SigLIP tower, not built) */
    if (!get("google/gemma-3-27b-it", &c) || !build(&c, 16, &w, NULL)) return;
    CHECK_STR(c.model_type, "gemma3_text");
    CHECK_I64(w.params, 1409630208LL + 62 * (66060288LL + 256 + 346816512LL + 21504) + 5376);
    /* KV: 16 kv heads * 128 * 2 * 2 B = 8,192 per layer; 62 layers, every
     * 6th global (10), 52 with a 1024 window */
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 100000, 2.0), 10.0 * 8192 * 100000 + 52.0 * 8192 * 1024, 0);
    /* a published gemma3 config leaves fields to Gemma3TextConfig's
     * defaults (heads 8, kv 4, head_dim 256, vocab 262208) */
    const char *js = "{\"model_type\":\"gemma3\",\"text_config\":{\"model_type\":\"gemma3_text\",\"hidden_size\":2560,"
                     "\"intermediate_size\":10240,\"num_hidden_layers\":34,\"sliding_window\":1024},"
                     "\"vision_config\":{\"hidden_size\":1152}}";
    dlp_error e = {0};
    CHECK(dlp_llm_config_parse(js, "g3.json", &c, &e) == DLP_OK);
    CHECK_I64(c.num_attention_heads, 8);
    CHECK_I64(c.num_key_value_heads, 4);
    CHECK_I64(c.head_dim, 256);
    CHECK_I64(c.vocab_size, 262208);
    dlp_llm_config ref;
    if (get("google/gemma-3-4b-it", &ref) && build(&c, 16, &w, NULL)) {
        dlp_llm_weights w2;
        if (build(&ref, 16, &w2, NULL)) CHECK_I64(w.params, w2.params);
        /* embed 262208*2560 671,252,480 + 34 * (q 5,242,880 + k,v 2,621,440
         * x2 + o 5,242,880 + 512 + MLP 78,643,200 + 10,240) + 2560 */
        CHECK_I64(w.params, 671252480LL + 34 * (5242880LL * 2 + 2621440LL * 2 + 512 + 78643200LL + 10240) + 2560);
    }
}

/* ---- MoE interleaved + shared expert + chunked/NoPE: Llama 4 ------------ */
static void t_llama4(void) {
    dlp_llm_config c;
    if (!get("meta-llama/Llama-4-Scout-17B-16E-Instruct", &c)) return;
    CHECK_I64(c.num_experts, 16);
    CHECK_I64(c.shared_expert_intermediate_size, 8192);
    CHECK_I64(c.layer_kind[3] & DLP_LK_NOPE, DLP_LK_NOPE);
    dlp_llm_weights w;
    if (!build(&c, 16, &w, NULL)) return;
    /* embed 202048*5120 = 1,034,485,760 (x2 untied); attention q 26,214,400
     * + k,v 5,242,880 each + o 26,214,400 = 62,914,560, norms 10,240; MoE
     * router 81,920 + 16 x 3*5120*8192 (125,829,120) + shared 125,829,120 =
     * 2,139,176,960; 48 layers -> 105,700,884,480 + 5120 + 2,068,971,520 =
     * 107,769,861,120 (text stack; the card's 109B includes the vision
     * encoder) */
    int64_t e1 = 3LL * 5120 * 8192, layer = 62914560LL + 10240 + 81920 + 17 * e1;
    CHECK_I64(w.params, 48 * layer + 5120 + 2 * 1034485760LL);
    /* active: 1 routed + 1 shared: 48 * (62,914,560 + 10,240 + 81,920 + 2 *
     * 125,829,120) + 2,068,976,640 = 17,172,894,720 (card: 17B active) */
    CHECK_I64(w.active_params, 48 * (62914560LL + 10240 + 81920 + 2 * e1) + 5120 + 2 * 1034485760LL);
    near_pub("Llama-4-Scout active", (double)w.active_params, 17e9);
    /* KV: 2 * 8 * 128 * 2 B = 4,096 per layer per token; 12 NoPE layers
     * global, 36 chunked (attention_chunk_size 8192) */
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 100000, 2.0), 12.0 * 4096 * 100000 + 36.0 * 4096 * 8192, 0);
    /* Maverick: 128 experts on every 2nd layer, dense (16384) between:
     * 24 * (62,924,800 + 3*5120*16384) + 24 * (62,924,800 + 5120*128 + 129
     * * 125,829,120) + 5120 + 2,068,971,520 = 400,711,848,960 (card: 400B
     * total, 17B active) */
    if (!get("meta-llama/Llama-4-Maverick-17B-128E-Instruct", &c) || !build(&c, 16, &w, NULL)) return;
    CHECK_I64(w.params, 24 * (62924800LL + 3LL * 5120 * 16384) + 24 * (62924800LL + 5120 * 128 + 129 * e1) + 5120 +
                            2 * 1034485760LL);
    near_pub("Llama-4-Maverick total", (double)w.params, 400e9);
    near_pub("Llama-4-Maverick active", (double)w.active_params, 17e9);
}

/* ---- hybrid Mamba-2 + attention: Nemotron-H-8B -------------------------- */
static void t_nemotron_h(void) {
    dlp_llm_config c;
    if (!get("nvidia/Nemotron-H-8B-Base-8K", &c)) return;
    int nm = 0, na = 0, nf = 0;
    for (int i = 0; i < 52; i++) {
        nm += (c.layer_kind[i] & DLP_LK_MAMBA) != 0;
        na += !(c.layer_kind[i] & (DLP_LK_MAMBA | DLP_LK_NO_ATTN));
        nf += (c.layer_kind[i] & DLP_LK_NO_ATTN) != 0;
    }
    CHECK_I64(nm, 24);
    CHECK_I64(na, 4);
    CHECK_I64(nf, 24);
    dlp_llm_weights w;
    /* 300 tokens: chunks of 128 with padding to 384 */
    if (!build(&c, 300, &w, NULL)) return;
    /* embed 131072*4096 = 536,870,912 (x2 untied).  Mamba-2 block:
     * in_proj 4096 * (2*8192 + 2*8*128 + 128 = 18,560) 76,021,760, conv1d
     * (8192 + 2048) * 4 + 10,240 bias = 51,200, dt_bias/A_log/D 3*128, gated
     * norm 8192, out_proj 8192*4096 33,554,432, block norm 4096 =
     * 109,640,064.  Attention block: 4096^2 * 2 + 4096*1024 * 2 + norm =
     * 41,947,136.  MLP block (relu2, not gated): 2 * 4096*21504 + norm =
     * 176,164,864.  24 + 4 + 24 blocks + final 4096 + 1,073,741,824 =
     * 8,100,852,736 (card: 8B) */
    int64_t mamba = 76021760LL + 51200 + 384 + 8192 + 33554432LL + 4096;
    CHECK_I64(mamba, 109640064LL);
    CHECK_I64(w.params, 24 * mamba + 4 * 41947136LL + 24 * 176164864LL + 4096 + 2 * 536870912LL);
    near_pub("Nemotron-H-8B total", (double)w.params, 8.1e9);
    /* cache: 4 attention layers * 2 * 8 * 128 * 2 B = 16,384 per token; 24
     * Mamba layers hold a constant conv state (10,240 channels * 3) + SSM
     * state (128 heads * 64 * 128) = 1,079,296 elements * 2 B each:
     * 51,806,208 B whatever the length */
    double mstate = 24.0 * (10240 * 3 + 128 * 64 * 128) * 2;
    CHECK_NEAR(mstate, 51806208.0, 0);
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 1, 2.0), mstate + 16384, 0);
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 8192, 2.0), mstate + 16384.0 * 8192, 0);
}

/* ---- VLM language stacks, image tokens as a count ----------------------- */
static void t_vlm_text(void) {
    dlp_llm_config c, ref;
    if (!get("Qwen/Qwen2.5-VL-7B-Instruct", &c) || !get("Qwen/Qwen2.5-7B-Instruct", &ref)) return;
    dlp_llm_weights w, wr;
    dlp_graph_stats gs, gr;
    /* the text stack is Qwen2.5-7B's with 128,000 positions: embed
     * 152064*3584 = 544,997,376 (x2 untied), 28 layers of q 3584^2 + 3584
     * bias, k,v 3584*512 + 512 each, o 3584^2, MLP 3*3584*18944, norms 7168
     * = 7,615,616,512 (card: 7.61B; the VL card's 8.29B adds the 0.68B
     * vision tower) */
    c.image_tokens = 256;
    if (!build(&c, 64, &w, &gs) || !build(&ref, 320, &wr, &gr)) return;
    int64_t layer = 3584LL * 3584 * 2 + 3584 + 2 * (3584LL * 512 + 512) + 3LL * 3584 * 18944 + 7168;
    CHECK_I64(w.params, 2 * 544997376LL + 28 * layer + 3584);
    CHECK_I64(w.params, wr.params);
    near_pub("Qwen2.5-VL-7B text stack vs Qwen2.5-7B card", (double)w.params, 7.61e9);
    /* 64 text + 256 image tokens cost what a 320-token prompt costs */
    CHECK_I64(gs.macs, gr.macs);
    /* KV grows with the image tokens: 2 * 28 * 4 * 128 * 2 B = 57,344 per token */
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 320, 2.0), 57344.0 * 320, 0);
    /* Qwen3-VL: text_config (qwen3_vl_text) = Qwen3-8B's stack */
    if (get("Qwen/Qwen3-VL-8B-Instruct", &c) && get("Qwen/Qwen3-8B", &ref) && build(&c, 16, &w, NULL) &&
        build(&ref, 16, &wr, NULL)) {
        CHECK_STR(c.model_type, "qwen3_vl_text");
        CHECK_I64(w.params, wr.params);
    }
}

/* ---- MoE + per-layer qk-norm + partial rotary: MiniMax-M2.5 ------------- */
static void t_minimax_m2(void) {
    dlp_llm_config c;
    if (!get("MiniMaxAI/MiniMax-M2.5", &c)) return;
    CHECK_I64(c.qk_norm, 3);
    CHECK_I64(c.num_experts, 256);
    CHECK_I64(c.experts_per_token, 8);
    CHECK_I64(c.moe_intermediate_size, 1536);
    CHECK_NEAR(c.rotary_fraction, 0.5, 0); /* rotary_dim 64 of head_dim 128 */
    CHECK_STR(c.weights_format, "fp8");
    dlp_llm_config m2;
    CHECK(get("MiniMaxAI/MiniMax-M2", &m2) && !strcmp(m2.id, "MiniMaxAI/MiniMax-M2.5"));
    dlp_llm_weights w;
    if (!build(&c, 16, &w, NULL)) return;
    /* config.json: hidden 3072, 62 layers, 48 heads, 8 kv heads, head_dim
     * 128, 256 experts of intermediate_size 1536, top-8, vocab 200064,
     * untied, qk_norm_type per_layer.
     * embed 200064*3072 = 614,596,608 (x2 untied = 1,229,193,216).
     * per layer: q 3072*(48*128) 18,874,368 + k, v 3072*1024 3,145,728 each +
     * o 6144*3072 18,874,368 = 44,040,192; q_norm 6144 + k_norm 1024 (over
     * the whole projections) = 7,168; router 3072*256 786,432; experts 256 *
     * 3*3072*1536 (14,155,776) = 3,623,878,656; 2 norms 6,144 ->
     * 3,668,718,592 x 62 = 227,460,552,704; final norm 3,072
     * -> 228,689,748,992 (card: 230B; the e_score_correction_bias is a
     * buffer, the 3 MTP modules are not part of the HF model) */
    int64_t layer = 44040192LL + 7168 + 786432 + 256 * 14155776LL + 6144;
    CHECK_I64(layer, 3668718592LL);
    int64_t want = 2 * 614596608LL + 62 * layer + 3072;
    CHECK_I64(want, 228689748992LL);
    CHECK_I64(w.params, want);
    /* active: 8 of 256 experts = 113,246,208 per layer -> 62 * 158,086,144
     * + 3,072 + 1,229,193,216 = 11,030,537,216; without the input embedding
     * 10,415,940,608 (card: 10B, one digit) */
    int64_t act = 62 * (layer - 248 * 14155776LL) + 3072 + 2 * 614596608LL;
    CHECK_I64(act, 11030537216LL);
    CHECK_I64(w.active_params, act);
    near_pub("MiniMax-M2.5 total", (double)w.params, 230e9);
    near_pub_tol("MiniMax-M2.5 active (card rounds: 10B)", (double)(w.active_params - w.embed_params), 10e9, 0.05);
    /* KV: 2 * 62 layers * 8 kv heads * 128 * 2 B = 253,952 per token */
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 1, 2.0), 253952.0, 0);
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 4096, 1.0), 126976.0 * 4096, 0);
}

/* ---- Gated DeltaNet hybrid + MoE: Qwen3.5-397B-A17B (text stack) --------- */
static void t_qwen35(void) {
    dlp_llm_config c;
    if (!get("Qwen/Qwen3.5-397B-A17B", &c)) return;
    CHECK_STR(c.model_type, "qwen3_5_moe_text"); /* from text_config */
    CHECK_I64(c.layer_kind[0] & DLP_LK_LINEAR_ATTN, DLP_LK_LINEAR_ATTN);
    CHECK_I64(c.layer_kind[3], 0); /* every 4th: gated full attention */
    CHECK_I64(c.attn_output_gate, 1);
    CHECK_I64(c.shared_expert_gate, 1);
    CHECK_I64(c.linear_num_value_heads, 64);
    CHECK_NEAR(c.rotary_fraction, 0.25, 0);
    dlp_llm_config f8;
    CHECK(get("Qwen/Qwen3.5-397B-A17B-FP8", &f8) && !strcmp(f8.weights_format, "fp8"));
    CHECK_STR(c.weights_format, "");
    dlp_llm_weights w;
    if (!build(&c, 16, &w, NULL)) return;
    /* text_config: hidden 4096, 60 layers (45 linear_attention, 15
     * full_attention), 32 heads, 2 kv heads, head_dim 256, vocab 248320,
     * untied; 512 experts of 1024, top-10, shared expert 1024.
     * embed 248320*4096 = 1,017,118,720 (x2 = 2,034,237,440).
     * full attention: q_proj 4096*(32*256*2, query + gate) 67,108,864, k, v
     * 4096*512 2,097,152 each, o 8192*4096 33,554,432, q/k norm 2*256
     * -> 104,858,112.
     * Gated DeltaNet: key_dim 16*128 = 2048, value_dim 64*128 = 8192;
     * in_proj_qkv 4096*(2*2048+8192) 50,331,648, in_proj_z 4096*8192
     * 33,554,432, in_proj_b, in_proj_a 4096*64 262,144 each, conv1d
     * 12288*4 49,152, dt_bias 64, A_log 64, norm 128, out_proj 8192*4096
     * 33,554,432 -> 118,014,208.
     * MoE: router 4096*512 2,097,152, experts 512 * 3*4096*1024
     * (12,582,912) = 6,442,450,944, shared expert 12,582,912, shared gate
     * 4,096 -> 6,457,135,104; 2 norms 8,192.
     * 2,034,237,440 + 15*104,858,112 + 45*118,014,208 + 60*6,457,143,296 +
     * 4,096 = 396,346,350,336 (card 397B counts the vision tower) */
    int64_t full = 67108864LL + 2 * 2097152LL + 33554432LL + 512, gdn = 50331648LL + 33554432LL + 2 * 262144LL +
                   49152 + 64 + 64 + 128 + 33554432LL, moe = 2097152LL + 512 * 12582912LL + 12582912LL + 4096;
    CHECK_I64(full, 104858112LL);
    CHECK_I64(gdn, 118014208LL);
    CHECK_I64(moe, 6457135104LL);
    int64_t want = 2 * 1017118720LL + 15 * full + 45 * gdn + 60 * (moe + 8192) + 4096;
    CHECK_I64(want, 396346350336LL);
    CHECK_I64(w.params, want);
    /* active: 10 of 512 experts (125,829,120) per layer: 60 * (140,513,280
     * + 8,192) + the rest = 17,349,040,896 with the embeddings (Qwen's
     * convention; card "A17B") */
    int64_t act = 2 * 1017118720LL + 15 * full + 45 * gdn + 60 * (moe - 502 * 12582912LL + 8192) + 4096;
    CHECK_I64(act, 17349040896LL);
    CHECK_I64(w.active_params, act);
    near_pub_tol("Qwen3.5-397B-A17B active (card rounds: 17B)", (double)w.active_params, 17e9, 0.03);
    near_pub("Qwen3.5-397B-A17B total (+ vision ~0.4-0.6B)", (double)w.params, 397e9);
    /* cache: 15 full layers * 2 * 2 kv heads * 256 * 2 B = 30,720 per token;
     * 45 DeltaNet layers hold a constant state: conv (2*2048 + 8192) * 3 =
     * 36,864 + recurrent 64 heads * 128 * 128 = 1,048,576 -> 1,085,440
     * elements * 45 * 2 B = 97,689,600 B whatever the length */
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 1, 2.0), 30720.0 + 97689600.0, 0);
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 8192, 2.0), 30720.0 * 8192 + 97689600.0, 0);
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 0, 2.0), 97689600.0, 0);
}

/* ---- Qwen3-Next-80B-A3B (the same hybrid, flat config) ------------------ */
static void t_qwen3_next(void) {
    dlp_llm_config c;
    if (!get("Qwen/Qwen3-Next-80B-A3B-Instruct", &c)) return;
    dlp_llm_weights w;
    if (!build(&c, 16, &w, NULL)) return;
    /* hidden 2048, 48 layers (36 linear, 12 full), 16 heads, 2 kv heads,
     * head_dim 256, vocab 151936 (x2 untied: 622,329,856); key_dim 2048,
     * value_dim 32*128 = 4096; 512 experts of 512, top-10, shared 512.
     * full: q 2048*8192 16,777,216 + k, v 2048*512 1,048,576 each + o
     * 4096*2048 8,388,608 + qk norms 512 = 27,263,488.
     * DeltaNet: qkv 2048*8192 16,777,216 + z 2048*4096 8,388,608 + b, a
     * 2048*32 65,536 each + conv 8192*4 32,768 + dt_bias, A_log 32 each +
     * norm 128 + out 4096*2048 8,388,608 = 33,718,464.
     * MoE: router 2048*512 1,048,576 + 512 * 3*2048*512 (3,145,728) =
     * 1,610,612,736 + shared 3,145,728 + gate 2,048 = 1,614,809,088; norms
     * 4,096.  Total 622,329,856 + 12*27,263,488 + 36*33,718,464 +
     * 48*1,614,813,184 + 2,048 = 79,674,391,296 (card: 80B) */
    int64_t full = 16777216LL + 2 * 1048576LL + 8388608LL + 512,
            gdn = 16777216LL + 8388608LL + 2 * 65536LL + 32768 + 64 + 128 + 8388608LL,
            moe = 1048576LL + 512 * 3145728LL + 3145728LL + 2048;
    int64_t want = 622329856LL + 12 * full + 36 * gdn + 48 * (moe + 4096) + 2048;
    CHECK_I64(want, 79674391296LL);
    CHECK_I64(w.params, want);
    /* active: 10 of 512 experts -> 3,874,929,408 with the embeddings,
     * 3,252,599,552 without (card: "3B activated", a name-like rounding) */
    int64_t act = want - 48 * 502 * 3145728LL;
    CHECK_I64(act, 3874929408LL);
    CHECK_I64(w.active_params, act);
    near_pub("Qwen3-Next-80B-A3B total", (double)w.params, 80e9);
    /* cache: 12 * 2 * 2 * 256 * 2 B = 24,576 per token; state 36 * (8192*3
     * + 32*128*128 = 548,864) * 2 B = 39,518,208 */
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 1000, 2.0), 24576.0 * 1000 + 39518208.0, 0);
}

/* A tiny dense qwen3_5 config with one Gated DeltaNet layer, every MAC by
 * hand (B 1, S 4: one chunk of 4 tokens). */
static void t_tiny_gdn_by_hand(void) {
    const char *js = "{\"model_type\":\"qwen3_5_text\",\"hidden_size\":32,\"num_hidden_layers\":1,"
                     "\"num_attention_heads\":2,\"num_key_value_heads\":1,\"head_dim\":16,\"intermediate_size\":64,"
                     "\"vocab_size\":50,\"layer_types\":[\"linear_attention\"],\"linear_num_key_heads\":2,"
                     "\"linear_num_value_heads\":4,\"linear_key_head_dim\":8,\"linear_value_head_dim\":8,"
                     "\"linear_conv_kernel_dim\":4,\"tie_word_embeddings\":false}";
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_config_parse(js, "tiny.json", &c, &e) == DLP_OK);
    CHECK_I64(c.num_experts, 0);
    dlp_llm_weights w;
    dlp_graph_stats gs;
    if (!build(&c, 4, &w, &gs)) return;
    /* params: embed 50*32 = 1,600 (x2 untied); key_dim 16, value_dim 32,
     * conv channels 64: in_proj_qkv 32*64 2,048, z 32*32 1,024, b, a 32*4
     * 128 each, conv 64*4 256, dt_bias 4, A_log 4, norm 8, out_proj 32*32
     * 1,024 (= 4,624); MLP 3*32*64 6,144; norms 64; final 32 */
    CHECK_I64(w.params, 3200 + 4624 + 6144 + 64 + 32);
    /* MACs: projections 4 tokens * 32 * (64 + 32 + 4 + 4) = 13,312, out_proj
     * 4*32*32 = 4,096, depthwise conv 64 channels * 4 * kernel 4 = 1,024;
     * per value head (4), chunk Q 4, dk = dv = 8: k beta.k^T Q*Q*dk 128,
     * the substitution stand-in Q^3 64, u = A.v beta 128, w = A.(k beta
     * e^g) 128, state k^T.u dk*Q*dv 256, w.state 256, (q e^g).state 256,
     * q.k^T 128, (..).v_new 128 = 1,472 x 4 = 5,888; MLP 4*3*32*64 24,576;
     * head 4*32*50 6,400 */
    CHECK_I64(gs.macs, 13312 + 4096 + 1024 + 5888 + 24576 + 6400);
    /* a length that is not a multiple of the chunk pads to one: S 70 ->
     * 2 chunks of 64 */
    CHECK(build(&c, 70, &w, &gs));
}

/* ---- MLA + 384 experts: Kimi-K2.5 / Kimi-K2 ----------------------------- */
static void t_kimi(void) {
    dlp_llm_config c;
    if (!get("moonshotai/Kimi-K2.5", &c)) return;
    CHECK_I64(c.num_experts, 384);
    CHECK_I64(c.num_attention_heads, 64);
    CHECK_I64(c.layer_kind[0] & DLP_LK_DENSE, DLP_LK_DENSE);
    CHECK_I64(c.layer_kind[1] & DLP_LK_DENSE, 0);
    dlp_llm_weights w;
    if (!build(&c, 16, &w, NULL)) return;
    /* hidden 7168, 61 layers (1 dense), 64 heads, q_lora 1536, kv_lora 512,
     * nope 128, rope 64, v 128, vocab 163840 (x2 untied: 2,348,810,240).
     * MLA: q_a 7168*1536 11,010,048 + q_a_norm 1,536 + q_b 1536*(64*192)
     * 18,874,368 + kv_a 7168*576 4,128,768 + kv_norm 512 + kv_b
     * 512*(64*256) 8,388,608 + o 8192*7168 58,720,256 = 101,124,096; +2
     * norms 14,336 -> x 61 = 6,169,444,352.  Dense MLP 3*7168*18432 =
     * 396,361,728.  MoE (60 layers): router 384*7168 2,752,512 + 384 *
     * 44,040,192 = 16,911,433,728 + shared 44,040,192 = 16,958,226,432.
     * Total 2,348,810,240 + 6,169,444,352 + 396,361,728 + 60 *
     * 16,958,226,432 + 7,168 = 1,026,408,209,408 (card: 1T, one digit) */
    int64_t mla = 11010048LL + 1536 + 18874368LL + 4128768LL + 512 + 8388608LL + 58720256LL;
    CHECK_I64(mla, 101124096LL);
    int64_t moe = 2752512LL + 384 * 44040192LL + 44040192LL;
    int64_t want = 2 * 1174405120LL + 61 * (mla + 14336) + 396361728LL + 60 * moe + 7168;
    CHECK_I64(want, 1026408209408LL);
    CHECK_I64(w.params, want);
    /* active: 8 routed + 1 shared: 60 * (2,752,512 + 9 * 44,040,192) + the
     * rest = 32,861,477,888; without the input embedding 31,687,072,768
     * (card: 32B) */
    int64_t act = want - 60 * 376 * 44040192LL;
    CHECK_I64(act, 32861477888LL);
    CHECK_I64(w.active_params, act);
    near_pub("Kimi-K2.5 active (no input embedding)", (double)(w.active_params - w.embed_params), 32e9);
    near_pub_tol("Kimi-K2.5 text total (card rounds: 1T)", (double)w.params, 1e12, 0.03);
    /* KV: MLA 61 * 576 * 2 B = 70,272 per token, as DeepSeek-V3 */
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 1, 2.0), 70272.0, 0);
    /* K2 is the same text stack; a config.json nesting it under text_config
     * (kimi_k25 with a deepseek_v3 text_config) parses to the same model */
    dlp_llm_config k2, nested;
    dlp_llm_weights w2;
    if (get("moonshotai/Kimi-K2-Instruct", &k2) && build(&k2, 16, &w2, NULL)) CHECK_I64(w2.params, want);
    CHECK(get("moonshotai/Kimi-K2-Thinking", &k2) && !strcmp(k2.weights_format, "int4"));
    const char *js =
        "{\"model_type\":\"kimi_k25\",\"architectures\":[\"KimiK25ForConditionalGeneration\"],\"text_config\":{"
        "\"model_type\":\"deepseek_v3\",\"num_hidden_layers\":61,\"hidden_size\":7168,\"num_attention_heads\":64,"
        "\"num_key_value_heads\":64,\"intermediate_size\":18432,\"vocab_size\":163840,\"n_routed_experts\":384,"
        "\"n_shared_experts\":1,\"num_experts_per_tok\":8,\"moe_intermediate_size\":2048,\"first_k_dense_replace\":1,"
        "\"kv_lora_rank\":512,\"q_lora_rank\":1536,\"qk_nope_head_dim\":128,\"qk_rope_head_dim\":64,\"v_head_dim\":128,"
        "\"tie_word_embeddings\":false},\"vision_config\":{\"vt_hidden_size\":1152}}";
    dlp_error e = {0};
    CHECK(dlp_llm_config_parse(js, "k25.json", &nested, &e) == DLP_OK);
    if (build(&nested, 16, &w2, NULL)) CHECK_I64(w2.params, want);
}

/* ---- MLA + DeepSeek Sparse Attention + MoE: GLM-5 ----------------------- */
static void t_glm5(void) {
    dlp_llm_config c;
    if (!get("zhipuai/GLM-5", &c)) return;
    CHECK_STR(c.id, "zai-org/GLM-5");
    CHECK_I64(c.index_topk, 2048);
    CHECK_I64(c.index_n_heads, 32);
    CHECK_I64(c.head_dim, 256); /* qk_nope 192 + rope 64 */
    dlp_llm_weights w;
    if (!build(&c, 16, &w, NULL)) return;
    /* hidden 6144, 78 layers (3 dense), 64 heads, q_lora 2048, kv_lora 512,
     * nope 192, rope 64, v 256, vocab 154880 (x2 untied: 1,903,165,440).
     * MLA: q_a 6144*2048 12,582,912 + q_a_norm 2,048 + q_b 2048*(64*256)
     * 33,554,432 + kv_a 6144*576 3,538,944 + kv_norm 512 + kv_b
     * 512*(64*448) 14,680,064 + o 16384*6144 100,663,296 = 165,022,208.
     * Indexer: wq_b 2048*(32*128) 8,388,608 + wk 6144*128 786,432 + k_norm
     * (LayerNorm) 256 + weights_proj 6144*32 196,608 = 9,371,904.  2 norms
     * 12,288 -> 174,406,400 x 78 = 13,603,699,200.  Dense MLP 3*6144*12288
     * 226,492,416 x 3.  MoE (75 layers): router 256*6144 1,572,864 + 256 *
     * 3*6144*2048 (37,748,736) + shared 37,748,736 = 9,702,998,016.
     * Total 1,903,165,440 + 13,603,699,200 + 679,477,248 + 75 *
     * 9,702,998,016 + 6,144 = 743,911,199,232 (card: 744B; the MTP layer
     * is not part of the HF model) */
    int64_t mla = 12582912LL + 2048 + 33554432LL + 3538944LL + 512 + 14680064LL + 100663296LL;
    int64_t idx = 8388608LL + 786432 + 256 + 196608;
    CHECK_I64(mla, 165022208LL);
    CHECK_I64(idx, 9371904LL);
    int64_t moe = 1572864LL + 257 * 37748736LL;
    int64_t want = 2 * 951582720LL + 78 * (mla + idx + 12288) + 3 * 226492416LL + 75 * moe + 6144;
    CHECK_I64(want, 743911199232LL);
    CHECK_I64(w.params, want);
    /* active: 8 routed + shared -> 41,784,709,632; without the input
     * embedding 40,833,126,912 (card: 40B, rounded) */
    int64_t act = want - 75 * 248 * 37748736LL;
    CHECK_I64(act, 41784709632LL);
    CHECK_I64(w.active_params, act);
    near_pub("GLM-5 total", (double)w.params, 744e9);
    near_pub_tol("GLM-5 active (no input embedding; card rounds)", (double)(w.active_params - w.embed_params), 40e9,
                 0.03);
    /* cache per token: the MLA latent 512 + rope key 64 + the indexer's key
     * 128 = 704 elements per layer: 78 * 704 * 2 B = 109,824 */
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 1, 2.0), 109824.0, 0);
    /* attention to index_topk tokens: at S = 4096 each query attends to 2048
     * keys.  Against the same model without DSA, per layer the indexer adds
     * wq_b S*2048*4096 + wk S*6144*128 + weights_proj S*6144*32 + scores
     * S*32*S*128 + the head-weighted sum S*32*S MACs, and attention saves
     * 64 heads * S * (S - 2048) * (256 + 256) (scores over nope+rope 256,
     * values of 256) */
    dlp_llm_config nd = c;
    nd.index_topk = nd.index_n_heads = nd.index_head_dim = 0;
    nd.num_hidden_layers = c.num_hidden_layers = 4; /* 3 dense + 1 MoE layer: enough for the difference */
    dlp_graph *g1 = NULL, *g2 = NULL;
    dlp_error e = {0};
    int64_t S = 4096;
    if (dlp_llm_build(&c, 1, S, DLP_QT_BF16, &g1, NULL, &e) || dlp_llm_build(&nd, 1, S, DLP_QT_BF16, &g2, NULL, &e)) {
        fprintf(stderr, "  %s\n", e.msg);
        CHECK(0);
    } else {
        dlp_graph_stats s1, s2;
        dlp_graph_stats_get(g1, &s1);
        dlp_graph_stats_get(g2, &s2);
        int64_t add = S * 2048 * 4096 + S * 6144 * 128 + S * 6144 * 32 + S * 32 * S * 128 + S * 32 * S;
        int64_t save = 64 * S * (S - 2048) * (256 + 256);
        CHECK_I64(s1.macs - s2.macs, 4 * (add - save));
    }
    dlp_graph_free(g1);
    dlp_graph_free(g2);
}

/* ---- DeepSeek-V3.2: DeepSeek-V3 + the DSA indexer ------------------------ */
static void t_deepseek_v32(void) {
    dlp_llm_config c;
    if (!get("deepseek-ai/DeepSeek-V3.2-Exp", &c)) return;
    CHECK_I64(c.index_n_heads, 64);
    CHECK_STR(c.weights_format, "fp8"); /* its config.json's quantization_config */
    dlp_llm_weights w;
    if (!build(&c, 16, &w, NULL)) return;
    /* DeepSeek-V3's 671,026,404,352 (t_deepseek_v3) + per layer the
     * indexer: wq_b 1536*(64*128) 12,582,912 + wk 7168*128 917,504 + k_norm
     * 256 + weights_proj 7168*64 458,752 = 13,959,424, x 61 = 851,524,864
     * -> 671,877,929,216.  (The card's 685B counts the MTP module, which HF's
     * model does not build; compared by hand only.) */
    int64_t idx = 12582912LL + 917504 + 256 + 458752;
    CHECK_I64(idx, 13959424LL);
    CHECK_I64(w.params, 671026404352LL + 61 * idx);
    CHECK_I64(w.active_params, 37552282624LL + 61 * idx);
    /* KV: 61 * (512 + 64 + 128) * 2 B = 85,888 per token */
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 1, 2.0), 85888.0, 0);
}

/* Token-mixer MACs of one decode token (dlp__llm_decode_mixer_macs, for the
 * serving model), by hand. */
static void t_decode_mixer_macs(void) {
    dlp_llm_config c;
    /* Llama-3.1-8B, 1000 cached tokens: 32 layers * 2 (q.K, p.V) * 32 heads
     * * 128 * 1000 = 262,144,000 */
    if (get("meta-llama/Llama-3.1-8B", &c)) CHECK_NEAR(dlp__llm_decode_mixer_macs(&c, 1000), 262144000.0, 0);
    /* gpt-oss-120b: 18 full layers * 2 * 64 heads * 64 * 1000 = 147,456,000
     * + 18 sliding layers over 128 tokens 18,874,368 */
    if (get("openai/gpt-oss-120b", &c)) CHECK_NEAR(dlp__llm_decode_mixer_macs(&c, 1000), 147456000.0 + 18874368.0, 0);
    /* DeepSeek-V3, absorbed MLA: 61 * 128 heads * (2*512 + 64) * 1000 =
     * 8,495,104,000 */
    if (get("deepseek-ai/DeepSeek-V3", &c)) CHECK_NEAR(dlp__llm_decode_mixer_macs(&c, 1000), 8495104000.0, 0);
    /* GLM-5 at 8192: indexer 32 * (128 + 1) * 8192 = 33,816,576 + MLA over
     * 2048 selected tokens 64 * 1088 * 2048 = 142,606,336, x 78 layers =
     * 13,760,987,136 */
    if (get("zai-org/GLM-5", &c)) CHECK_NEAR(dlp__llm_decode_mixer_macs(&c, 8192), 13760987136.0, 0);
    /* Qwen3.5-397B at 8192: 15 full layers * 2 * 32 * 256 * 8192 =
     * 2,013,265,920 + 45 DeltaNet layers * (3 * 64 * 128 * 128 + 12288 * 4
     * = 3,194,880) = 143,769,600 */
    if (get("Qwen/Qwen3.5-397B-A17B", &c))
        CHECK_NEAR(dlp__llm_decode_mixer_macs(&c, 8192), 2013265920.0 + 143769600.0, 0);
}

/* Quantised checkpoints resolve to their base architecture and say their
 * native weight format (catalogue alias {"id", "weights"}, or a config.json
 * quantization_config). */
static void t_checkpoint_formats(void) {
    static const struct { const char *id, *base, *fmt; } cases[] = {
        {"nvidia/DeepSeek-R1-NVFP4", "deepseek-ai/DeepSeek-R1", "nvfp4"},
        {"deepseek-ai/DeepSeek-R1", "deepseek-ai/DeepSeek-R1", "fp8"},
        {"nvidia/DeepSeek-V3.1-NVFP4", "deepseek-ai/DeepSeek-V3", "nvfp4"},
        {"deepseek-ai/DeepSeek-V3.1", "deepseek-ai/DeepSeek-V3", "fp8"},
        {"nvidia/Qwen3-32B-NVFP4", "Qwen/Qwen3-32B", "nvfp4"},
        {"Qwen/Qwen3-32B", "Qwen/Qwen3-32B", ""},
        {"Qwen/Qwen3-235B-A22B-FP8", "Qwen/Qwen3-235B-A22B", "fp8"},
        {"nvidia/Llama-3.1-8B-Instruct-FP8", "meta-llama/Meta-Llama-3.1-8B-Instruct", "fp8"},
        {"meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Meta-Llama-3.1-8B-Instruct", ""},
        {"openai/gpt-oss-120b", "openai/gpt-oss-120b", "mxfp4"},
        {"zai-org/GLM-5-FP8", "zai-org/GLM-5", "fp8"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dlp_llm_config c;
        if (!get(cases[i].id, &c)) {
            CHECK(0);
            continue;
        }
        if (strcmp(c.id, cases[i].base) || strcmp(c.weights_format, cases[i].fmt))
            fprintf(stderr, "  %s -> %s [%s]\n", cases[i].id, c.id, c.weights_format);
        CHECK_STR(c.id, cases[i].base);
        CHECK_STR(c.weights_format, cases[i].fmt);
        if (*c.weights_format) CHECK(dlp_quant_parse(c.weights_format) >= 0);
    }
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_config_parse("{\"model_type\":\"llama\",\"hidden_size\":64,\"num_hidden_layers\":2,"
                               "\"num_attention_heads\":4,\"intermediate_size\":64,\"vocab_size\":10,"
                               "\"quantization_config\":{\"quant_method\":\"fp8\",\"weight_block_size\":[128,128]}}",
                               "cfg.json", &c, &e) == DLP_OK);
    CHECK_STR(c.weights_format, "fp8");
    CHECK(dlp_llm_config_parse("{\"model_type\":\"llama\",\"hidden_size\":64,\"num_hidden_layers\":2,"
                               "\"num_attention_heads\":4,\"intermediate_size\":64,\"vocab_size\":10,"
                               "\"quantization_config\":{\"quant_method\":\"modelopt\",\"quant_algo\":\"NVFP4\"}}",
                               "cfg.json", &c, &e) == DLP_OK);
    CHECK_STR(c.weights_format, "nvfp4");
}

/* ---- issue 22, scope 5: the served 2025-26 models that were "unknown" ----
 * Every count below is worked from the published config.json (catalogue
 * entry) by hand; the builder must match it exactly, and the sum must come
 * within PUB_TOL of the published figure (the tolerance of each check is in
 * its comment). */

/* Qwen3-VL tower (Qwen3-VL-8B's, out_hidden_size = the text width): 27
 * blocks of H = 1152, MLP 4304 (GELU): 4 H^2 + 4 H (qkv, proj + biases) +
 * 2 H I + I + H (fc1, fc2 + biases) + 4 H (two LayerNorms) = 5,308,416 +
 * 4,608 + 9,916,416 + 4,304 + 1,152 + 4,608 = 15,239,504 per block,
 * 411,466,608 in all; patch embedding Conv3d 3 x 2 x 16 x 16 x 1152 +
 * bias = 1,770,624; 4 mergers (1 + 3 deepstack) of norm 1152 + Linear(4608,
 * 4608) + bias + Linear(4608, out) + bias. */
static int64_t qwen3_vl_tower(int64_t out) {
    return 411466608LL + 1770624LL + 4 * (1152 + 4608LL * 4608 + 4608 + 4608LL * out + out);
}

static void t_qwen3_vl_moe(void) {
    dlp_llm_config c, ref;
    dlp_llm_weights w, wr;
    /* Qwen3-VL-30B-A3B: text_config (qwen3_vl_moe_text) is Qwen3-30B-A3B's
     * stack (hidden 2048, 48 layers, 32 / 4 heads of 128, 128 experts of
     * 768, top-8, vocab 151,936): 30,532,122,624 as t_qwen3_moe works out;
     * the tower with out 2048: 411,466,608 + 1,770,624 + 4 x 30,678,656 =
     * 535,951,856; 31,068,074,480 in all (HF: 31.1B, -0.10 %, tol 2 %) */
    if (get("Qwen/Qwen3-VL-30B-A3B-Instruct", &c) && get("Qwen/Qwen3-30B-A3B", &ref) && build(&c, 16, &w, NULL) &&
        build(&ref, 16, &wr, NULL)) {
        CHECK_STR(c.model_type, "qwen3_vl_moe_text");
        CHECK_I64(w.params, 30532122624LL);
        CHECK_I64(w.active_params, wr.active_params);
        CHECK_I64(c.vision_layers, 27);
        CHECK_I64(c.vision_out_hidden, 2048);
        CHECK_I64(c.vision_deepstack, 3);
        CHECK_I64(dlp_llm_vision_params(&c), qwen3_vl_tower(2048));
        CHECK_I64(qwen3_vl_tower(2048), 535951856LL);
        near_pub("Qwen3-VL-30B-A3B text + tower", (double)(w.params + dlp_llm_vision_params(&c)), 31.1e9);
        /* 1024 x 768: 16 px patches merged 2 x 2 = 32 px per token, 32 x 24 */
        int64_t t = 0;
        dlp_error e = {0};
        CHECK(dlp_llm_image_tokens(&c, 1, 1024, 768, 0, &t, &e) == DLP_OK);
        CHECK_I64(t, 768);
    }
    /* Qwen3-VL-235B-A22B: the text stack is Qwen3-235B-A22B's (hidden 4096,
     * 94 layers, 64 / 4 heads, 128 experts of 1536) = 235,093,634,560; the
     * tower with out 4096: 411,466,608 + 1,770,624 + 4 x 40,117,888 =
     * 573,708,784 (Qwen3-VL-8B's 0.574B); 235,667,343,344 (HF: 236B, -0.14 %,
     * tol 2 %); active 22,190,763,520 as the text model's (card: A22B) */
    if (get("Qwen/Qwen3-VL-235B-A22B-Instruct", &c) && get("Qwen/Qwen3-235B-A22B", &ref) &&
        build(&c, 16, &w, NULL) && build(&ref, 16, &wr, NULL)) {
        CHECK_I64(w.params, wr.params);
        CHECK_I64(w.params, 235093634560LL);
        CHECK_I64(w.active_params, 22190763520LL);
        CHECK_I64(dlp_llm_vision_params(&c), 573708784LL);
        near_pub("Qwen3-VL-235B-A22B text + tower", (double)(w.params + dlp_llm_vision_params(&c)), 236e9);
    }
}

/* Qwen3-Omni-30B-A3B: the thinker under thinker_config is built; the
 * published safetensors count (35,259,818,545) is reached EXACTLY by hand:
 *   text (qwen3_omni_moe_text) = Qwen3-30B-A3B's stack with vocab 152,064
 *     instead of 151,936: 30,532,122,624 + 2 x 128 x 2048 = 30,532,646,912
 *   vision (out 2048, as Qwen3-VL-30B-A3B's) 535,951,856, + what our tower
 *     count leaves out: the learned positions 2304 x 1152 = 2,654,208 and the
 *     mergers' LayerNorm biases and wider deepstack norms (2,304 + 3 x 9,216
 *     - 4 x 1,152 = 25,344)
 *   audio encoder (32 Whisper-like layers of 1280, FFN 5120: 4 (1280^2 +
 *     1280) + 2 x 5120 x 1280 + 5120 + 1280 + 4 x 1280 = 19,677,440 each;
 *     convs 4,800 + 2 x 2,074,080, conv_out 7680 x 1280, proj1 1,639,680,
 *     proj2 2,623,488, ln_post 2,560) = 647,927,168 — not built
 *   talker (20 MoE layers of 1024: 128 experts of 384 + shared 768, + the
 *     code predictor) = 3,324,596,480 and code2wav = 216,016,577 — speech
 *     out, not built
 *   30,532,646,912 + 535,951,856 + 2,679,552 + 647,927,168 + 3,324,596,480
 *   + 216,016,577 = 35,259,818,545 */
static void t_qwen3_omni(void) {
    dlp_llm_config c;
    dlp_llm_weights w;
    if (!get("Qwen/Qwen3-Omni-30B-A3B-Instruct", &c) || !build(&c, 16, &w, NULL)) return;
    CHECK_STR(c.model_type, "qwen3_omni_moe_text");
    CHECK_I64(c.vocab_size, 152064);
    CHECK_I64(c.num_experts, 128);
    CHECK_I64(w.params, 30532646912LL);
    /* the vision_config's unused image_size 768 must not make it a fixed-size
     * (SigLIP) tower: patches are merged 2 x 2 */
    CHECK_I64(c.vision_image_size, 0);
    CHECK_I64(c.vision_merge, 2);
    CHECK_I64(dlp_llm_vision_params(&c), 535951856LL);
    int64_t rest = 2654208LL + 25344 + 647927168LL + 3324596480LL + 216016577LL;
    CHECK_I64(w.params + dlp_llm_vision_params(&c) + rest, 35259818545LL);
    near_pub("Qwen3-Omni thinker (text + vision) + by hand", (double)(w.params + dlp_llm_vision_params(&c) + rest),
             35259818545.0);
}

/* Nemotron Nano v2 (nemotron_h, Mamba-2 hybrid).  Per block, each with its
 * RMSNorm (H):
 *   M  Mamba-2: d_inner = 128 heads x 80 = 10,240; in_proj H x (2 d_inner +
 *      2 x 8 groups x 128 state + 128 heads = 22,656); conv over d_inner +
 *      2,048 = 12,288 channels x (4 + bias); dt_bias, A_log, D 3 x 128;
 *      gated norm 10,240; out_proj 10,240 x H
 *   -  MLP (relu2, not gated): 2 H I
 *   *  attention: q H x 5120, k, v H x 1024, o 5120 x H (40 / 8 heads of 128)
 * plus the untied embedding and head 2 x 131,072 x H and the final norm H.
 * 9B-v2 (H 4480, I 15,680; "M-M-M-MM-..." = 27 M, 25 -, 4 *):
 *   M = 4480 x 22,656 + 12,288 x 5 + 384 + 10,240 + 10,240 x 4480 + 4480 =
 *   147,450,624; - = 140,492,800 + 4480; * = 55,050,240 + 4480
 *   -> 1,174,405,120 + 4480 + 27 M + 25 - + 4 * = 8,888,227,328 (HF 8.89B)
 * 12B-v2 (H 5120, I 20,480; 28 M, 28 -, 6 *): M = 168,504,704, - =
 *   209,720,320, * = 62,919,680 -> 12,310,001,152 (HF 12.3B) */
static int64_t nemotron_nano(int64_t H, int64_t I, int nm, int nmlp, int natt) {
    int64_t mamba = H * 22656 + 12288LL * 5 + 384 + 10240 + 10240 * H + H;
    int64_t mlp = 2 * H * I + H, att = H * 5120 + 2 * H * 1024 + 5120 * H + H;
    return 2 * 131072 * H + H + nm * mamba + nmlp * mlp + natt * att;
}

static void t_nemotron_nano_v2(void) {
    dlp_llm_config c;
    dlp_llm_weights w;
    CHECK_I64(nemotron_nano(4480, 15680, 27, 25, 4), 8888227328LL);
    CHECK_I64(nemotron_nano(5120, 20480, 28, 28, 6), 12310001152LL);
    if (get("nvidia/NVIDIA-Nemotron-Nano-9B-v2", &c) && build(&c, 16, &w, NULL)) {
        CHECK_I64(w.params, 8888227328LL);
        CHECK_I64(c.mamba_head_dim, 80);
        CHECK_I64(c.vision_hidden, 0); /* text only: image flags refused */
        near_pub("Nemotron-Nano-9B-v2", (double)w.params, 8.89e9);
        /* cache: 4 attention layers x 2 x 8 x 128 x 2 B = 16,384 B per token,
         * + 27 Mamba states of (12,288 x 3 conv + 128 x 80 x 128 ssm) x 2 B
         * = 27 x 2,695,168 = 72,769,536 B whatever the length */
        CHECK_NEAR(dlp_llm_kv_bytes(&c, 1000, 2.0), 16384.0 * 1000 + 72769536.0, 0);
    }
    if (get("nvidia/NVIDIA-Nemotron-Nano-12B-v2", &c) && build(&c, 16, &w, NULL)) {
        CHECK_I64(w.params, 12310001152LL);
        near_pub("Nemotron-Nano-12B-v2", (double)w.params, 12.3e9);
    }
    /* 12B-v2-VL: llm_config = the 12B-v2 stack; RADIOv2.5-H (ViT-H/16: 32
     * blocks of 1280, MLP 5120) over 512 px tiles: block 4 (1280^2 + 1280) +
     * 2 x 1280 x 5120 + 5120 + 1280 + 4 x 1280 = 19,677,440, x 32 =
     * 629,678,080; patch embedding 3 x 16 x 16 x 1280 + 1280 = 984,320;
     * positions (512 / 16)^2 x 1280 = 1,310,720; mlp1: RMSNorm 5120 +
     * 5120 x 20,480 + 20,480 x 5120 = 209,720,320; tower 841,693,440 */
    if (get("nvidia/NVIDIA-Nemotron-Nano-12B-v2-VL-BF16", &c) && build(&c, 16, &w, NULL)) {
        CHECK_STR(c.model_type, "nemotron_h");
        CHECK_I64(w.params, 12310001152LL);
        CHECK_I64(c.vision_layers, 32);
        CHECK_I64(c.vision_merge, 2);
        CHECK_I64(dlp_llm_vision_params(&c), 841693440LL);
        /* tiles of 512 px, 2 x 2 patches per token: (32 / 2)^2 = 256 per
         * tile.  1024 x 768 is 4:3 -> the 4 x 3 grid (12 tiles, the most
         * allowed) + a thumbnail = 13 tiles = 3,328 tokens; 512 x 512 -> one
         * tile, no thumbnail = 256; 2000 x 500 (4:1) -> 4 x 1 + thumbnail =
         * 1,280; a video of 8 frames: a tile per frame = 2,048 */
        int64_t t = 0;
        dlp_error e = {0};
        CHECK(dlp_llm_image_tokens(&c, 1, 1024, 768, 0, &t, &e) == DLP_OK);
        CHECK_I64(t, 3328);
        CHECK(dlp_llm_image_tokens(&c, 2, 512, 512, 0, &t, &e) == DLP_OK);
        CHECK_I64(t, 512);
        CHECK(dlp_llm_image_tokens(&c, 1, 2000, 500, 0, &t, &e) == DLP_OK);
        CHECK_I64(t, 1280);
        CHECK(dlp_llm_image_tokens(&c, 1, 1024, 768, 8, &t, &e) == DLP_OK);
        CHECK_I64(t, 2048);
    }
    /* a RADIO version we do not know: a VLM (image tokens by count only),
     * its tower untimed; a tile size out of range: one line naming the
     * vision_config */
    static const char *lm = "\"llm_config\":{\"model_type\":\"nemotron_h\",\"hidden_size\":64,\"num_hidden_layers\":2,"
                            "\"num_attention_heads\":4,\"intermediate_size\":64,\"vocab_size\":10,"
                            "\"hybrid_override_pattern\":\"M*\",\"mamba_num_heads\":8,\"mamba_head_dim\":8,"
                            "\"ssm_state_size\":16}";
    char js[1024];
    dlp_error e = {0};
    snprintf(js, sizeof js, "{\"model_type\":\"NemotronH_Nano_VL_V2\",\"vit_hidden_size\":1280,%s,"
             "\"vision_config\":{\"version\":\"radio_v9-x\"}}", lm);
    CHECK(dlp_llm_config_parse(js, "cfg.json", &c, &e) == DLP_OK);
    CHECK_I64(c.vision_hidden, 1280);
    CHECK_I64(c.vision_layers, 0);
    CHECK_I64(dlp_llm_vision_params(&c), 0);
    int64_t t = 0;
    CHECK(dlp_llm_image_tokens(&c, 1, 512, 512, 0, &t, &e) == DLP_EINVAL && strstr(e.msg, "--image-tokens"));
    snprintf(js, sizeof js, "{\"model_type\":\"NemotronH_Nano_VL_V2\",\"force_image_size\":8,%s,"
             "\"vision_config\":{\"version\":\"radio_v2.5-h\",\"patch_size\":16}}", lm);
    CHECK(dlp_llm_config_parse(js, "cfg.json", &c, &e) == DLP_EFORMAT);
    CHECK(strncmp(e.msg, "cfg.json: vision_config", 23) == 0 && !strchr(e.msg, '\n'));
}

/* BLOOM-176B (issue 22: splitwise-sim's second model), from the published
 * config.json (n_embed 14336, n_layer 70, num_attention_heads 112, vocab
 * 250,880; tied LM head, ALiBi: no position table), by hand, H = 14336:
 *   a layer: fused qkv 3 H^2 + 3 H, dense H^2 + H, mlp H x 4H + 4H and
 *   4H x H + H, two LayerNorms 4 H: 12 H^2 + 13 H = 12 x 205,520,896 +
 *   186,368 = 2,466,437,120; x 70 = 172,650,598,400
 *   embedding 250,880 x 14,336 = 3,596,615,680, its LayerNorm and ln_f 4 H
 *   = 57,344
 *   total 176,247,271,424 = the model card's figure to the parameter.
 * Cache: MHA, 112 heads of 128: K and V 2 x 14,336 x 2 B = 57,344 B per
 * layer, x 70 = 4,014,080 B per token in 16 bits. */
static void t_bloom_176b(void) {
    dlp_llm_config c;
    dlp_llm_weights w;
    if (get("bloom-176b", &c) && build(&c, 16, &w, NULL)) {
        CHECK_STR(c.id, "bigscience/bloom");
        CHECK_I64(c.num_attention_heads, 112);
        CHECK_I64(c.num_key_value_heads, 112);
        CHECK_I64(w.params, 176247271424LL);
        near_pub("BLOOM-176B", (double)w.params, 176247271424.0);
        CHECK_NEAR(dlp_llm_kv_bytes(&c, 1, 2.0), 4014080.0, 0);
    }
}

/* DeciLM-7B's variable GQA, per layer (num_key_value_heads_per_layer:
 * 4,4,4,4,4, 2,2,2,2,2, 4, 2 x 9, 1 x 11, 4 = 67 KV heads over 32 layers;
 * the config's num_key_value_heads 32 is not what the layers hold).  By
 * hand, head_dim 128:
 *   per layer: q, o 2 x 4096^2 = 33,554,432; gate/up/down 3 x 4096 x 14336
 *   = 176,160,768; two RMSNorms 8,192 -> 209,723,392; x 32 = 6,711,148,544
 *   k, v: 2 x 4096 x 128 = 1,048,576 per KV head, x 67 = 70,254,592
 *   embedding + untied head 2 x 32000 x 4096 = 262,144,000; final norm 4,096
 *   total 7,043,551,232 (the card's "7.04 billion"; a uniform 4 heads, as
 *   vLLM pads it, would be 128 heads: 7,107,510,272)
 *   KV cache per token (fp16): 2 x 67 x 128 x 2 B = 34,304 B; at a uniform
 *   max it would be 65,536 B. */
static void t_decilm_7b(void) {
    dlp_llm_config c;
    dlp_llm_weights w;
    if (get("decilm-7b", &c) && build(&c, 16, &w, NULL)) {
        CHECK_STR(c.id, "Deci/DeciLM-7B");
        CHECK_I64(c.num_key_value_heads, 4); /* the largest entry */
        CHECK_I64(c.kv_heads_layer[0], 4);
        CHECK_I64(c.kv_heads_layer[5], 2);
        CHECK_I64(c.kv_heads_layer[20], 1);
        CHECK_I64(c.kv_heads_layer[31], 4);
        CHECK_I64(w.params, 7043551232LL);
        near_pub("DeciLM-7B", (double)w.params, 7043551232.0);
        CHECK_NEAR(dlp_llm_kv_bytes(&c, 1, 2.0), 34304.0, 0);
        CHECK_NEAR(dlp_llm_kv_bytes(&c, 1000, 2.0), 34304000.0, 0);
    }
    /* a list of the wrong length, or an entry that does not divide the heads */
    static const char *const bad[] = {
        "{\"model_type\":\"deci\",\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
        "\"intermediate_size\":64,\"vocab_size\":10,\"num_key_value_heads_per_layer\":[2]}",
        "{\"model_type\":\"deci\",\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
        "\"intermediate_size\":64,\"vocab_size\":10,\"num_key_value_heads_per_layer\":[2,3]}",
        "{\"model_type\":\"deci\",\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
        "\"intermediate_size\":64,\"vocab_size\":10,\"num_key_value_heads_per_layer\":[2,0]}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        dlp_error e = {0};
        dlp_llm_config b;
        CHECK_I64(dlp_llm_config_parse(bad[i], "bad.json", &b, &e), DLP_EFORMAT);
        CHECK(strstr(e.msg, "bad.json") && strstr(e.msg, "num_key_value_heads_per_layer"));
    }
}

/* The catalogue's published figures (data/llm_configs.json "published"),
 * every one within PUB_TOL of the builder. */
static void t_published(void) {
    char *txt = tap_slurp("data/llm_configs.json", NULL);
    CHECK(txt != NULL);
    if (!txt) return;
    cJSON *root = cJSON_Parse(txt);
    const cJSON *m;
    int n = 0;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(root, "models")) {
        const cJSON *pub = cJSON_GetObjectItemCaseSensitive(m, "published");
        if (!pub) continue;
        const char *id = cJSON_GetObjectItemCaseSensitive(m, "id")->valuestring;
        dlp_llm_config c;
        dlp_llm_weights w;
        if (!get(id, &c) || !build(&c, 16, &w, NULL)) {
            CHECK(0);
            continue;
        }
        n++;
        int vis = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pub, "includes_vision"));
        /* a count with the speech output parts (Qwen3-Omni's talker and
         * code2wav) is worked by hand in t_qwen3_omni */
        int speech = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pub, "includes_speech"));
        int noemb = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pub, "active_excludes_embedding"));
        const cJSON *tl = cJSON_GetObjectItemCaseSensitive(pub, "tolerance");
        double tol = cJSON_IsNumber(tl) ? tl->valuedouble : PUB_TOL;
        CHECK(tol >= PUB_TOL && tol <= 0.05); /* a rounding, never a fudge */
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(pub, "total"),
                    *a = cJSON_GetObjectItemCaseSensitive(pub, "active"),
                    *ne = cJSON_GetObjectItemCaseSensitive(pub, "non_embedding");
        char what[160];
        if (cJSON_IsNumber(t) && !vis) {
            snprintf(what, sizeof what, "%s total", id);
            near_pub_tol(what, (double)w.params, t->valuedouble, tol);
        } else if (cJSON_IsNumber(t) && !speech) {
            /* a VLM's card counts its tower: the language stack + ours */
            snprintf(what, sizeof what, "%s total with the vision tower", id);
            near_pub_tol(what, (double)(w.params + dlp_llm_vision_params(&c)), t->valuedouble, tol);
        }
        if (cJSON_IsNumber(a)) {
            snprintf(what, sizeof what, "%s active", id);
            near_pub_tol(what, (double)(w.active_params - (noemb ? w.embed_params : 0)), a->valuedouble, tol);
        }
        if (cJSON_IsNumber(ne)) {
            snprintf(what, sizeof what, "%s non-embedding", id);
            near_pub(what, (double)(w.params - (c.tie_word_embeddings ? 1 : 2) * w.embed_params), ne->valuedouble);
        }
    }
    CHECK(n >= 25);
    cJSON_Delete(root);
    free(txt);
}

/* Config errors of the new fields: one line naming file and field. */
static void t_arch_errors(void) {
    static const struct { const char *json; const char *field; } cases[] = {
        {"{\"model_type\":\"nemotron_h\",\"hidden_size\":64,\"num_hidden_layers\":3,\"num_attention_heads\":4,"
         "\"intermediate_size\":64,\"vocab_size\":10,\"hybrid_override_pattern\":\"M*\",\"mamba_num_heads\":8,"
         "\"mamba_head_dim\":8,\"ssm_state_size\":16}", "hybrid_override_pattern"},
        {"{\"model_type\":\"nemotron_h\",\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
         "\"intermediate_size\":64,\"vocab_size\":10,\"hybrid_override_pattern\":\"MX\",\"mamba_num_heads\":8,"
         "\"mamba_head_dim\":8,\"ssm_state_size\":16}", "hybrid_override_pattern"},
        {"{\"model_type\":\"deepseek_v3\",\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
         "\"intermediate_size\":64,\"vocab_size\":10,\"kv_lora_rank\":16,\"qk_rope_head_dim\":8,\"v_head_dim\":8}",
         "qk_nope_head_dim"},
        {"{\"model_type\":\"gpt_oss\",\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
         "\"intermediate_size\":64,\"vocab_size\":10,\"layer_types\":[\"full_attention\"]}", "layer_types"},
        {"{\"model_type\":\"qwen3_moe\",\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
         "\"intermediate_size\":64,\"vocab_size\":10,\"num_experts\":4,\"num_experts_per_tok\":5}", "num_experts_per_tok"},
        {"{\"model_type\":\"gpt_oss\",\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
         "\"intermediate_size\":64,\"vocab_size\":10,\"num_local_experts\":4}", "sliding_window"},
        {"{\"model_type\":\"qwen3_next\",\"hidden_size\":64,\"num_hidden_layers\":4,\"num_attention_heads\":4,"
         "\"intermediate_size\":64,\"vocab_size\":10,\"linear_num_key_heads\":3,\"linear_num_value_heads\":4}",
         "linear_num_value_heads"},
        {"{\"model_type\":\"qwen3_moe\",\"hidden_size\":64,\"num_hidden_layers\":1,\"num_attention_heads\":4,"
         "\"intermediate_size\":64,\"vocab_size\":10,\"layer_types\":[\"linear_attention\"]}", "layer_types"},
        {"{\"model_type\":\"minimax_m2\",\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
         "\"intermediate_size\":64,\"vocab_size\":10,\"attn_type_list\":[0,1]}", "attn_type_list"},
        {"{\"model_type\":\"glm_moe_dsa\",\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
         "\"intermediate_size\":64,\"vocab_size\":10,\"kv_lora_rank\":16,\"q_lora_rank\":16,\"qk_nope_head_dim\":8,"
         "\"qk_rope_head_dim\":8,\"v_head_dim\":8,\"indexer_types\":[\"shared\",\"full\"]}", "indexer_types"},
        {"{\"model_type\":\"glm_moe_dsa\",\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
         "\"intermediate_size\":64,\"vocab_size\":10,\"kv_lora_rank\":16,\"q_lora_rank\":16,\"qk_nope_head_dim\":8,"
         "\"qk_rope_head_dim\":8,\"v_head_dim\":8,\"index_head_dim\":4}", "index_head_dim"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dlp_llm_config c;
        dlp_error e = {0};
        dlp_status st = dlp_llm_config_parse(cases[i].json, "cfg.json", &c, &e);
        if (st == DLP_OK || !strstr(e.msg, cases[i].field)) fprintf(stderr, "  case %zu: %d %s\n", i, st, e.msg);
        CHECK(st != DLP_OK);
        CHECK(strncmp(e.msg, "cfg.json: ", 10) == 0);
        CHECK(strstr(e.msg, cases[i].field) != NULL);
        CHECK(strchr(e.msg, '\n') == NULL);
    }
    /* a config filled by hand with a Mamba layer but no Mamba sizes is
     * refused by the builder, not divided by zero */
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_config_parse("{\"model_type\":\"llama\",\"hidden_size\":64,\"num_hidden_layers\":2,"
                               "\"num_attention_heads\":4,\"intermediate_size\":64,\"vocab_size\":10}",
                               "cfg.json", &c, &e) == DLP_OK);
    c.layer_kind[1] = DLP_LK_MAMBA;
    dlp_graph *g = NULL;
    CHECK(dlp_llm_build(&c, 1, 8, DLP_QT_BF16, &g, NULL, &e) == DLP_EINVAL && g == NULL);
    CHECK(strstr(e.msg, "Mamba") != NULL);
}


/* ---- the kernels Hugging Face's eager code runs (issue 23) ---------------
 * A 2-layer GPT-2 (hidden 64, 4 heads, vocab 100) with transformers' GPT2Config
 * defaults: activation_function gelu_new, attn_pdrop = resid_pdrop =
 * embd_pdrop = 0.1.  By hand from modeling_gpt2.py: gelu_new is eight tensor
 * ops per MLP (mul, pow, mul, add, mul, tanh, add, mul), so 2 Pow, 2 Tanh,
 * 0 Gelu; dropouts: drop(wte + wpe) once, attn_dropout, resid_dropout and
 * the MLP's dropout per layer = 1 + 3 * 2 = 7. */
static int count_op(const dlp_graph *g, const char *op) {
    int n = 0;
    for (int i = 0; i < dlp_graph_node_count(g); i++) n += !strcmp(dlp_graph_node_at(g, i)->op_type, op);
    return n;
}

/* forward kernel launches named `kname` at (1, 16) fp32 on the A100 */
static int count_kernels(const dlp_graph *g, int mode, int runtime, const char *kname) {
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    if (dlp_devdb_load(NULL, &db, &e)) return -1;
    dlp_predict_opts o = {0};
    dlp_predict_use_runtime(&o, runtime);
    o.batch = 1;
    o.mode = mode;
    dlp_prediction p;
    int n = -1;
    if (!dlp_predict(g, dlp_devdb_find(db, "a100-pcie-40gb"), db, &o, &p, &e)) {
        n = 0;
        for (int i = 0; i < p.n_kernel_rows; i++)
            if (p.kernel_rows[i].phase == 0 && !strcmp(p.kernel_rows[i].name, kname)) n += p.kernel_rows[i].count;
        dlp_prediction_clear(&p);
    } else
        fprintf(stderr, "  predict: %s\n", e.msg);
    dlp_devdb_free(db);
    return n;
}

static dlp_graph *tiny_gpt2(const char *extra, dlp_llm_weights *w) {
    char js[512];
    snprintf(js, sizeof js,
             "{\"model_type\":\"gpt2\",\"n_embd\":64,\"n_layer\":2,\"n_head\":4,\"vocab_size\":100,"
             "\"n_positions\":32%s}",
             extra);
    dlp_llm_config c;
    dlp_error e = {0};
    dlp_graph *g = NULL;
    if (dlp_llm_config_parse(js, "tiny_gpt2.json", &c, &e) || dlp_llm_build(&c, 1, 16, DLP_QT_FP32, &g, w, &e)) {
        fprintf(stderr, "  tiny_gpt2: %s\n", e.msg);
        return NULL;
    }
    return g;
}

static void t_hf_eager_kernels(void) {
    dlp_llm_weights w, w0;
    dlp_graph *g = tiny_gpt2("", &w);
    dlp_graph *g0 = tiny_gpt2(",\"activation_function\":\"gelu_pytorch_tanh\",\"attn_pdrop\":0,"
                              "\"resid_pdrop\":0,\"embd_pdrop\":0", &w0);
    CHECK(g && g0);
    if (!g || !g0) return;
    CHECK_I64(count_op(g, "Pow"), 2);
    CHECK_I64(count_op(g, "Tanh"), 2);
    CHECK_I64(count_op(g, "Gelu"), 0);
    CHECK_I64(count_op(g, "Dropout"), 7);
    /* the one-kernel tanh GELU and p = 0: one Gelu per layer, no Dropout node */
    CHECK_I64(count_op(g0, "Gelu"), 2);
    CHECK_I64(count_op(g0, "Pow"), 0);
    CHECK_I64(count_op(g0, "Dropout"), 0);
    /* neither adds a parameter: embeddings 100*64 + 32*64, per layer
     * qkv 64*192+192, proj 64*64+64, fc 64*256+256, proj 256*64+64, two
     * LayerNorms 4*64, final LayerNorm 128, tied head */
    int64_t per_layer = 64 * 192 + 192 + 64 * 64 + 64 + 64 * 256 + 256 + 256 * 64 + 64 + 4 * 64;
    CHECK_I64(w.params, 100 * 64 + 32 * 64 + 2 * per_layer + 128);
    CHECK_I64(w0.params, w.params);
    /* eager: the Pow is a kernel of its own (one per layer); compiled, the
     * eight ops are one fused kernel and no aten::pow runs */
    CHECK_I64(count_kernels(g, DLP_PREDICT_INFER, DLP_RUNTIME_EAGER, "aten::pow"), 2);
    CHECK_I64(count_kernels(g, DLP_PREDICT_INFER, DLP_RUNTIME_COMPILE, "aten::pow"), 0);
    /* dropout launches nothing in inference; in training the embedding's
     * and the two residual dropouts per layer are 1 + 2 * 2 = 5 kernels (the
     * attention's joins PyTorch 2's fused SDPA kernel as its dropout_p; the
     * 1.x eager runtime has no SDPA: all 7); none at p = 0 either */
    CHECK_I64(count_kernels(g, DLP_PREDICT_INFER, DLP_RUNTIME_EAGER, "aten::dropout"), 0);
    CHECK_I64(count_kernels(g, DLP_PREDICT_INFER, DLP_RUNTIME_EAGER1X, "aten::dropout"), 0);
    CHECK_I64(count_kernels(g, DLP_PREDICT_TRAIN, DLP_RUNTIME_EAGER, "aten::dropout"), 5);
    CHECK_I64(count_kernels(g, DLP_PREDICT_TRAIN, DLP_RUNTIME_EAGER1X, "aten::dropout"), 7);
    CHECK_I64(count_kernels(g0, DLP_PREDICT_TRAIN, DLP_RUNTIME_EAGER, "aten::dropout"), 0);
    dlp_graph_free(g);
    dlp_graph_free(g0);
    /* a serving engine's form of the same config (what `llm --concurrency`
     * costs): one Gelu per layer, no Pow, no Dropout, same parameters */
    dlp_llm_config c;
    dlp_error e = {0};
    dlp_graph *ge = NULL;
    CHECK(dlp_llm_config_parse("{\"model_type\":\"gpt2\",\"n_embd\":64,\"n_layer\":2,\"n_head\":4,"
                               "\"vocab_size\":100,\"n_positions\":32}", "tiny_gpt2.json", &c, &e) == DLP_OK);
    CHECK_I64(c.act, DLP_ACT_GELU_NEW);
    c.engine_form = 1;
    if (dlp_llm_build(&c, 1, 16, DLP_QT_FP32, &ge, &w0, &e) != DLP_OK) {
        CHECK(0);
        return;
    }
    CHECK_I64(count_op(ge, "Gelu"), 2);
    CHECK_I64(count_op(ge, "Pow"), 0);
    CHECK_I64(count_op(ge, "Dropout"), 0);
    CHECK_I64(w0.params, w.params);
    dlp_graph_free(ge);
}

/* BERT's extended mask add and OPT's clamp, one per layer over the scores
 * (2 layers each); the engine form has neither */
static void t_hf_eager_scores(void) {
    static const char *const js[2] = {
        "{\"model_type\":\"bert\",\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
        "\"intermediate_size\":128,\"vocab_size\":100}",
        "{\"model_type\":\"opt\",\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
        "\"ffn_dim\":128,\"vocab_size\":100,\"max_position_embeddings\":32,\"word_embed_proj_dim\":64}"};
    static const char *const op[2] = {"Add", "Max"};
    for (int k = 0; k < 2; k++) {
        for (int engine = 0; engine < 2; engine++) {
            dlp_llm_config c;
            dlp_error e = {0};
            dlp_graph *g = NULL;
            dlp_llm_weights w;
            CHECK(dlp_llm_config_parse(js[k], "tiny.json", &c, &e) == DLP_OK);
            c.engine_form = engine;
            if (dlp_llm_build(&c, 1, 8, DLP_QT_FP32, &g, &w, &e) != DLP_OK) {
                fprintf(stderr, "  %s\n", e.msg);
                CHECK(0);
                continue;
            }
            int n = 0;
            for (int i = 0; i < dlp_graph_node_count(g); i++) {
                const dlp_node_info *ni = dlp_graph_node_at(g, i);
                n += !strcmp(ni->op_type, op[k]) && (strstr(ni->name, "ext_mask") || strstr(ni->name, "Max_clamp"));
            }
            CHECK_I64(n, engine ? 0 : 2);
            dlp_graph_free(g);
        }
    }
}

int main(void) {
    RUN(t_llama31_8b);
    RUN(t_hf_eager_kernels);
    RUN(t_hf_eager_scores);
    RUN(t_qwen3_8b);
    RUN(t_qwen3_moe);
    RUN(t_tiny_moe_by_hand);
    RUN(t_deepseek_v3);
    RUN(t_gpt_oss);
    RUN(t_gemma3);
    RUN(t_llama4);
    RUN(t_nemotron_h);
    RUN(t_vlm_text);
    RUN(t_minimax_m2);
    RUN(t_qwen35);
    RUN(t_qwen3_next);
    RUN(t_tiny_gdn_by_hand);
    RUN(t_kimi);
    RUN(t_glm5);
    RUN(t_deepseek_v32);
    RUN(t_decode_mixer_macs);
    RUN(t_checkpoint_formats);
    RUN(t_phi3_small);
    RUN(t_qwen3_vl_moe);
    RUN(t_qwen3_omni);
    RUN(t_nemotron_nano_v2);
    RUN(t_bloom_176b);
    RUN(t_decilm_7b);
    RUN(t_published);
    RUN(t_arch_errors);
    return TAP_DONE();
}
