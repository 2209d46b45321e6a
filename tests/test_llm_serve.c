/*
 * test_llm_serve.c — the serving model of dlp_llm_predict (docs/llm.md,
 * "Serving"): KV-cache capacity worked by hand from the published
 * Llama-3.1-8B config, the roofline floor of a decode step, the identities
 * between the serving fields, monotonicity, power <= TDP, and refusals.
 */
#include "dlperf.h"
#include "llm/llm_internal.h"
#include "tap.h"

/* the analytic estimate only (no shipped trees) */
static const dlp_llm_predict_opts ANALYTIC = {.analytic_only = 1};

static dlp_devdb *db;

static dlp_status serve(const char *model, const char *dev, dlp_llm_workload wl, dlp_llm_prediction *p,
                        dlp_error *e) {
    dlp_llm_config c;
    dlp_status st = dlp_llm_catalogue_get(model, &c, e);
    if (st) return st;
    return dlp_llm_predict(&c, dlp_devdb_find(db, dev), db, &wl, &ANALYTIC, p, e);
}

/* Llama-3.1-8B (config.json: 32 layers, 8 KV heads, head_dim 128, bf16):
 * one cached token = 2 (k, v) x 32 x 8 x 128 x 2 B = 131,072 B; weights
 * 8,030,261,248 x 2 B = 14.96 GiB.  On an H100 (80 GiB) at vLLM's 0.9 the
 * cache gets 72 - 14.96 - the activation workspace (at most 8 GiB) - 1 GiB
 * of runtime: between 48.0 and 56.0 GiB, and every token of it is
 * 131,072 B; a 1024 + 512 sequence needs 1536 of them. */
static void t_kv_capacity_by_hand(void) {
    dlp_llm_prediction p;
    dlp_error e = {0};
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 512, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 64};
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &p, &e) == DLP_OK);
    double w_gib = 8030261248.0 * 2 / 1073741824.0;
    CHECK_NEAR(w_gib, 14.9575, 1e-3);
    CHECK(p.serving == 1);
    CHECK(p.kv_cache_gib <= 0.9 * 80 - w_gib - 1.0 + 1e-9);
    CHECK(p.kv_cache_gib >= 0.9 * 80 - w_gib - 1.0 - 8.0 - 1e-9);
    double bytes = p.kv_cache_gib * 1073741824.0;
    CHECK_I64(p.kv_capacity_tokens, (int64_t)floor(bytes / 131072.0));
    CHECK_I64(p.max_concurrency, (int64_t)floor(bytes / (1536.0 * 131072.0)));
    CHECK_I64(p.concurrency, 64);
    /* fp8 KV halves the bytes per token: twice the tokens (same room) */
    dlp_llm_prediction q;
    wl.kv_dtype = DLP_DT_FLOAT8E4M3FN;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &q, &e) == DLP_OK);
    CHECK_NEAR((double)q.kv_capacity_tokens / (double)p.kv_capacity_tokens, 2.0, 1e-4);
    /* a lower memory fraction leaves 8 GiB less (0.1 x 80) */
    wl.kv_dtype = 0;
    wl.mem_fraction = 0.8;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &q, &e) == DLP_OK);
    CHECK_NEAR(p.kv_cache_gib - q.kv_cache_gib, 8.0, 1e-9);
    /* --max-fit serves what fits, at most max_seqs (here 256); more
     * clients than run queue */
    wl.mem_fraction = 0;
    wl.max_fit = 1;
    wl.max_seqs = 256;
    CHECK(p.max_concurrency > 256);
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &q, &e) == DLP_OK);
    CHECK_I64(q.concurrency, 256);
    CHECK_I64(q.running, 256);
    /* vLLM V1's own limit on an 80 GiB H100 is 1,024 (t_engine_defaults):
     * the cache binds first */
    wl.max_seqs = 0;
    CHECK(p.max_concurrency < 1024);
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &q, &e) == DLP_OK);
    CHECK_I64(q.concurrency, p.max_concurrency);
    CHECK_I64(q.max_seqs, 1024);
    wl.max_fit = 0;
    wl.concurrency = 1 << 20;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &q, &e) == DLP_OK);
    CHECK_I64(q.concurrency, 1 << 20);
    /* 1,024 slots, but the cache holds fewer at the mean live length */
    CHECK(q.running > 256 && q.running < 1024);
    wl.max_seqs = 256;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &q, &e) == DLP_OK);
    CHECK_I64(q.running, 256);
}

/* A decode step of one sequence reads every weight once: at least
 * 16.06 GB / 3.35 TB/s = 4.79 ms on an H100, and a serving engine is not
 * more than twice that plus its per-step overhead. */
static void t_decode_roofline(void) {
    dlp_llm_prediction p;
    dlp_error e = {0};
    dlp_llm_workload wl = {.batch = 1, .seq = 128, .gen_tokens = 128, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 1, .phase = DLP_LLM_DECODE_ONLY};
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &p, &e) == DLP_OK);
    double floor_ms = 8030261248.0 * 2 / 3.35e12 * 1e3;
    CHECK(p.tpot_ms >= floor_ms);
    CHECK(p.tpot_ms <= 2 * floor_ms + 1.5);
    CHECK_NEAR(p.tpot_ms, p.decode_step_ms, 1e-9);
}

static void t_identities_and_monotone(void) {
    dlp_error e = {0};
    double last_tpot = 0, last_tps = 0;
    const int64_t cs[] = {1, 8, 64, 256};
    for (int i = 0; i < 4; i++) {
        dlp_llm_prediction p;
        dlp_llm_workload wl = {.batch = 1, .seq = 2048, .gen_tokens = 256, .quant = DLP_QT_FP8, .n_gpus = 2,
                               .concurrency = cs[i]};
        CHECK(serve("Qwen/Qwen3-30B-A3B", "h100-sxm", wl, &p, &e) == DLP_OK);
        CHECK_NEAR(p.e2e_ms, p.ttft_ms + 255 * p.tpot_ms, 1e-6 * p.e2e_ms);
        CHECK_NEAR(p.latency_ms, p.e2e_ms, 1e-9);
        CHECK_NEAR(p.requests_per_s, (double)p.concurrency / (p.e2e_ms * 1e-3), 1e-9 * p.requests_per_s);
        CHECK_NEAR(p.output_tokens_per_s, p.requests_per_s * 256, 1e-9 * p.output_tokens_per_s);
        CHECK_NEAR(p.energy_j, p.power_per_gpu_w * 2 / p.requests_per_s, 1e-9 * p.energy_j);
        CHECK_NEAR(p.energy_per_token_j, p.energy_j / 256, 1e-12 + 1e-9 * p.energy_j);
        CHECK(p.power_per_gpu_w <= 700.0 + 1e-9 && p.power_per_gpu_w > 0);
        CHECK(p.tpot_ms >= last_tpot);         /* more sequences per step: slower steps */
        CHECK(p.output_tokens_per_s >= last_tps); /* ... but more tokens per second */
        CHECK(p.ttft_ms >= p.prefill_ms - 1e-9);
        CHECK(p.active_params < p.params);
        last_tpot = p.tpot_ms;
        last_tps = p.output_tokens_per_s;
    }
    /* tensor parallelism: a faster step; a decode worker never slower than
     * the same batch with prefill mixed in */
    dlp_llm_prediction a, b, c2;
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 16};
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &a, &e) == DLP_OK);
    wl.n_gpus = 2;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &b, &e) == DLP_OK);
    CHECK(b.tpot_ms < a.tpot_ms);
    CHECK(b.comm_ms > 0 && a.comm_ms == 0);
    wl.n_gpus = 1;
    wl.phase = DLP_LLM_DECODE_ONLY;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &c2, &e) == DLP_OK);
    CHECK(c2.tpot_ms <= a.tpot_ms);
    /* expert parallelism on a MoE adds all-to-alls */
    dlp_llm_prediction m;
    dlp_llm_workload we = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_FP8, .n_gpus = 8,
                           .concurrency = 64, .ep = 8, .attn_dp = 8};
    CHECK(serve("deepseek-ai/DeepSeek-V3", "h200", we, &m, &e) == DLP_OK);
    CHECK(m.comm_ms > 0);
    CHECK(m.power_per_gpu_w <= 700.0 + 1e-9);
}

static void t_phase_names(void) {
    CHECK(dlp_llm_phase_parse("agg") == DLP_LLM_AGG);
    CHECK(dlp_llm_phase_parse("Prefill") == DLP_LLM_PREFILL_ONLY);
    CHECK(dlp_llm_phase_parse("decode") == DLP_LLM_DECODE_ONLY);
    CHECK(dlp_llm_phase_parse("middle") == -1 && dlp_llm_phase_parse(NULL) == -1);
    CHECK_STR(dlp_llm_phase_name(DLP_LLM_DECODE_ONLY), "decode");
    CHECK(dlp_llm_phase_name(3) == NULL && dlp_llm_phase_name(-1) == NULL);
}

static void t_serve_refusals(void) {
    dlp_llm_prediction p;
    dlp_error e = {0};
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 2,
                           .concurrency = 8, .ep = 2};
    /* expert parallelism needs experts */
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &p, &e) == DLP_EINVAL);
    CHECK(strstr(e.msg, "no experts") != NULL);
    /* ep that does not divide the 128 experts */
    wl.n_gpus = 3;
    wl.ep = 3;
    CHECK(serve("Qwen/Qwen3-30B-A3B", "h100-sxm", wl, &p, &e) == DLP_EINVAL);
    /* attention DP that does not divide the GPUs */
    wl.n_gpus = 4;
    wl.ep = 1;
    wl.attn_dp = 3;
    CHECK(serve("Qwen/Qwen3-30B-A3B", "h100-sxm", wl, &p, &e) == DLP_EINVAL);
    /* an encoder has nothing to serve */
    dlp_llm_workload wb = {.batch = 1, .seq = 128, .quant = DLP_QT_FP16, .n_gpus = 1, .concurrency = 8};
    CHECK(serve("bert-base-uncased", "h100-sxm", wb, &p, &e) == DLP_EINVAL);
    CHECK(strstr(e.msg, "encoder-only") != NULL);
    /* a memory fraction out of (0, 1] */
    dlp_llm_workload wf = {.batch = 1, .seq = 128, .gen_tokens = 8, .quant = DLP_QT_FP16, .n_gpus = 1,
                           .concurrency = 8, .mem_fraction = 1.5};
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wf, &p, &e) == DLP_EINVAL);
    /* weights that leave no room for a cache at 0.9 */
    dlp_llm_workload wn = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 8};
    CHECK(serve("Qwen/Qwen3-32B", "l4", wn, &p, &e) == DLP_EINVAL);
}

/* The serving path answers every GPU of the database for a small model,
 * in well under a millisecond per prediction once its profile is built. */
static void t_every_device(void) {
    dlp_error e = {0};
    for (int i = 0; i < dlp_devdb_count(db); i++) {
        const dlp_device *d = dlp_devdb_at(db, i);
        if (d->kind != DLP_DEVICE_GPU) continue;
        dlp_llm_config c;
        CHECK(dlp_llm_catalogue_get("Qwen/Qwen3-0.6B", &c, &e) == DLP_OK);
        dlp_llm_prediction p;
        dlp_llm_workload wl = {.batch = 1, .seq = 512, .gen_tokens = 128, .quant = DLP_QT_FP16, .n_gpus = 1,
                               .concurrency = 32};
        dlp_status st = dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &p, &e);
        if (st) fprintf(stderr, "  %s: %s\n", d->id, e.msg);
        CHECK(st == DLP_OK);
        CHECK(p.tpot_ms > 0 && p.ttft_ms > 0 && isfinite(p.energy_j));
        CHECK(p.power_per_gpu_w <= d->tdp_w + 1e-9);
    }
}


/* ---- VLMs (issue 22, scope 1) ------------------------------------------------ */

static dlp_status serve_img(const char *model, int64_t img, dlp_llm_workload wl, dlp_llm_prediction *p,
                            dlp_error *e) {
    dlp_llm_config c;
    dlp_status st = dlp_llm_catalogue_get(model, &c, e);
    if (st) return st;
    c.image_tokens = img;
    return dlp_llm_predict(&c, dlp_devdb_find(db, "h100-sxm"), db, &wl, &ANALYTIC, p, e);
}

/* Image tokens cost the language stack what as many text tokens cost: a
 * 768-token prompt with 256 image tokens decodes exactly as a 1024-token
 * text prompt, and its prefill is the text prefill plus the vision tower
 * (in serving and in generate mode). */
static void t_image_tokens_are_text_tokens_plus_tower(void) {
    dlp_error e = {0};
    const char *ms[] = {"google/gemma-3-12b-it", "Qwen/Qwen2.5-VL-7B-Instruct", "Qwen/Qwen3-VL-8B-Instruct"};
    for (int i = 0; i < 3; i++) {
        dlp_llm_prediction a, b;
        dlp_llm_workload wa = {.batch = 1, .seq = 768, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                               .concurrency = 16};
        dlp_llm_workload wb = wa;
        wb.seq = 1024;
        CHECK(serve_img(ms[i], 256, wa, &a, &e) == DLP_OK);
        CHECK(serve_img(ms[i], 0, wb, &b, &e) == DLP_OK);
        CHECK(a.vision_ms > 0 && b.vision_ms == 0);
        CHECK_NEAR(a.decode_step_ms, b.decode_step_ms, 1e-9 * b.decode_step_ms);
        CHECK_NEAR(a.prefill_ms, b.prefill_ms + a.vision_ms, 1e-9 * a.prefill_ms);
        CHECK_I64(a.kv_bytes_per_seq, b.kv_bytes_per_seq);
        CHECK(a.ttft_ms >= a.prefill_ms - 1e-9);
        /* the tower's weights (16-bit) are loaded with or without images */
        CHECK(a.vision_params > 0 && a.weights_mb == b.weights_mb);
        CHECK(a.weights_mb * 1048576.0 > 2.0 * ((double)a.params + (double)a.vision_params) - 1.0);
        /* generate mode: the same identities on a batch of 4 */
        wa.concurrency = wb.concurrency = 0;
        wa.batch = wb.batch = 4;
        CHECK(serve_img(ms[i], 256, wa, &a, &e) == DLP_OK);
        CHECK(serve_img(ms[i], 0, wb, &b, &e) == DLP_OK);
        CHECK_NEAR(a.latency_ms, b.latency_ms + a.vision_ms, 1e-9 * a.latency_ms);
    }
    /* the tower over one 896 x 896 SigLIP image: at least its FLOPs at the
     * H100's dense bf16 peak (989 TFLOP/s).  27 layers x 4,096 patches x
     * 2 x (4 x 1152^2 + 2 x 1152 x 4304) = 3.37 TFLOP of GEMMs, + 4 x
     * 4096^2 x 1152 x 27 = 2.09 TFLOP of attention: >= 5.5 ms */
    dlp_llm_prediction g;
    dlp_llm_workload wg = {.batch = 1, .seq = 100, .gen_tokens = 100, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 1};
    CHECK(serve_img("google/gemma-3-12b-it", 256, wg, &g, &e) == DLP_OK);
    CHECK(g.vision_ms >= 5.46e12 / 989e12 * 1e3);
    CHECK(g.vision_ms <= 4 * 5.46e12 / 989e12 * 1e3);
    /* a text-only model refuses image tokens */
    CHECK(serve_img("meta-llama/Llama-3.1-8B-Instruct", 16, wg, &g, &e) == DLP_EINVAL);
    CHECK(strstr(e.msg, "no vision tower") != NULL);
}

/* Image token counts from the processors' rules, by hand:
 * Qwen3-VL 16 px patches merged 2 x 2 = 32 px per token: 1024 x 768 ->
 * 32 x 24 = 768; Qwen2.5-VL 28 px: round(1024 / 28) = 37, round(768 / 28)
 * = 27 -> 999; Gemma 3: 256 per image whatever its size; a video of 8
 * frames at temporal patch 2: 4 x 768. */
static void t_image_token_counts(void) {
    dlp_llm_config c;
    dlp_error e = {0};
    int64_t n;
    CHECK(dlp_llm_catalogue_get("Qwen/Qwen3-VL-8B-Instruct", &c, &e) == DLP_OK);
    CHECK(dlp_llm_image_tokens(&c, 1, 1024, 768, 0, &n, &e) == DLP_OK);
    CHECK_I64(n, 768);
    CHECK(dlp_llm_image_tokens(&c, 2, 1024, 768, 0, &n, &e) == DLP_OK);
    CHECK_I64(n, 1536);
    CHECK(dlp_llm_image_tokens(&c, 1, 1024, 768, 8, &n, &e) == DLP_OK);
    CHECK_I64(n, 3072);
    /* a tiny image is scaled up to the 4-token floor; a huge one down to
     * at most 16,384 tokens */
    CHECK(dlp_llm_image_tokens(&c, 1, 10, 10, 0, &n, &e) == DLP_OK);
    CHECK(n >= 4 && n <= 9);
    CHECK(dlp_llm_image_tokens(&c, 1, 20000, 20000, 0, &n, &e) == DLP_OK);
    CHECK(n <= 16384 && n >= 16000);
    CHECK(dlp_llm_catalogue_get("Qwen/Qwen2.5-VL-7B-Instruct", &c, &e) == DLP_OK);
    CHECK(dlp_llm_image_tokens(&c, 1, 1024, 768, 0, &n, &e) == DLP_OK);
    CHECK_I64(n, 999);
    CHECK(dlp_llm_catalogue_get("google/gemma-3-12b-it", &c, &e) == DLP_OK);
    CHECK(dlp_llm_image_tokens(&c, 2, 3000, 100, 0, &n, &e) == DLP_OK);
    CHECK_I64(n, 512);
    CHECK(dlp_llm_catalogue_get("meta-llama/Llama-3.1-8B-Instruct", &c, &e) == DLP_OK);
    CHECK(dlp_llm_image_tokens(&c, 1, 1024, 768, 0, &n, &e) == DLP_EINVAL);
    CHECK(strstr(e.msg, "no vision tower") != NULL);
}

/* The towers' weights, by hand from the published configs, and with the
 * language stack against the model cards' totals (which count the tower).
 * SigLIP-so400m (Gemma 3): a block = 4 x 1152^2 + 4 x 1152 (q, k, v, o) +
 * 2 x 1152 x 4304 + 4304 + 1152 (MLP) + 4 x 1152 (two LayerNorms) =
 * 15,239,504; x 27 = 411,466,608; patch conv 3 x 14^2 x 1152 + 1152 =
 * 678,528; positions 64^2 x 1152 = 4,718,592; post-norm 2,304; projector
 * norm 1,152 + 1152 x 3840 = 4,423,680: 421,290,864 (the card's 0.42B). */
static void t_vision_params(void) {
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("google/gemma-3-12b-it", &c, &e) == DLP_OK);
    CHECK_I64(dlp_llm_vision_params(&c), 421290864);
    struct { const char *id; double total; } cards[] = {
        {"google/gemma-3-12b-it", 12.2e9},        /* model card, with the 0.42B SigLIP */
        {"Qwen/Qwen2.5-VL-7B-Instruct", 8.29e9},  /* HF safetensors */
        {"Qwen/Qwen3-VL-8B-Instruct", 8.77e9},    /* HF safetensors */
    };
    for (int i = 0; i < 3; i++) {
        dlp_graph *g;
        dlp_llm_weights w;
        CHECK(dlp_llm_catalogue_get(cards[i].id, &c, &e) == DLP_OK);
        CHECK(dlp_llm_build(&c, 1, 1, DLP_QT_BF16, &g, &w, &e) == DLP_OK);
        double tot = (double)w.params + (double)dlp_llm_vision_params(&c);
        fprintf(stderr, "  %-32s language %.4gB + tower %.4gB = %.4gB (card %.4gB)\n", cards[i].id,
                (double)w.params / 1e9, (double)dlp_llm_vision_params(&c) / 1e9, tot / 1e9, cards[i].total / 1e9);
        CHECK(fabs(tot / cards[i].total - 1.0) <= 0.02);
        dlp_graph_free(g);
    }
    CHECK(dlp_llm_catalogue_get("meta-llama/Llama-3.1-8B-Instruct", &c, &e) == DLP_OK);
    CHECK_I64(dlp_llm_vision_params(&c), 0);
}

/* ---- one memory story, the iteration model, power (issue 22) ------------- */

/* `fits` is the same answer in generate mode (batch 1) and serving
 * (one client) on seventeen setups of fourteen models chosen away from the border: weights alone
 * settle them (by hand: 16-bit bytes = 2 x params; Qwen3-32B 65.5 GB > an
 * L4's 24; DeepSeek-V3 fp8 671 GB > one H200's 141; Llama-3.1-70B 141 GB >
 * one H100's 80; gpt-oss-120b mxfp4 ~61 GiB < 80 once activations are per
 * routed token — the README's case that said DOES NOT FIT). */
static void t_fits_same_in_both_modes(void) {
    struct { const char *m, *d; int q, gpus, fits; } cs[] = {
        {"openai/gpt-oss-120b", "h100-sxm", DLP_QT_MXFP4, 1, 1},
        {"openai/gpt-oss-20b", "h100-sxm", DLP_QT_MXFP4, 1, 1},
        {"meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", DLP_QT_BF16, 1, 1},
        {"Qwen/Qwen3-30B-A3B", "h100-sxm", DLP_QT_BF16, 1, 1},
        {"Qwen/Qwen3-0.6B", "t4", DLP_QT_FP16, 1, 1},
        {"deepseek-ai/DeepSeek-V3", "h200", DLP_QT_FP8, 8, 1},
        {"Qwen/Qwen3-32B", "l4", DLP_QT_BF16, 1, 0},
        {"deepseek-ai/DeepSeek-V3", "h200", DLP_QT_FP8, 1, 0},
        {"meta-llama/Llama-3.1-70B-Instruct", "h100-sxm", DLP_QT_BF16, 1, 0},
        {"google/gemma-3-27b-it", "l4", DLP_QT_BF16, 1, 0},
        /* the hybrid-Mamba family (issue 22's audit: ten models, not ten
         * setups): 8.89e9 x 2 B = 17.8 GB > a T4's 16 GiB = 17.2 GB */
        {"nvidia/NVIDIA-Nemotron-Nano-9B-v2", "t4", DLP_QT_FP16, 1, 0},
        /* one memory story, part by part where both run (h111): the
         * Mamba hybrid on a 48 GB card, a 262k vocabulary, a VLM's tower
         * in the weights, GQA split over TP 4, a Mixtral over TP 2, fp8
         * weight-only over TP 4 on L4s */
        {"nvidia/NVIDIA-Nemotron-Nano-9B-v2", "l40s", DLP_QT_FP16, 1, 1},
        {"google/gemma-3-27b-it", "h100-sxm", DLP_QT_BF16, 1, 1},
        {"Qwen/Qwen3-VL-8B-Instruct", "h100-sxm", DLP_QT_BF16, 1, 1},
        {"meta-llama/Llama-3.1-70B-Instruct", "h100-sxm", DLP_QT_BF16, 4, 1},
        {"mistralai/Mixtral-8x7B-Instruct-v0.1", "h100-sxm", DLP_QT_BF16, 2, 1},
        {"Qwen/Qwen3-32B", "l4", DLP_QT_FP8, 4, 1},
        /* hybrids on 24 GB (h122): a recurrent state per sequence, not per
         * token, in serving's chunk workspace — Nemotron-Nano-9B-v2 fits
         * an L4 in generate mode and serving said "no room for the KV
         * cache" (8 GiB of workspace); the 12B's 12,310,001,152 x 2 B =
         * 22.9 GiB of weights do not fit it in either mode; the Mamba
         * hybrid Nemotron-H-8B; Gated DeltaNet + MoE over TP 4; the VL
         * hybrid's tower */
        {"nvidia/NVIDIA-Nemotron-Nano-9B-v2", "l4", DLP_QT_BF16, 1, 1},
        {"nvidia/NVIDIA-Nemotron-Nano-12B-v2", "l4", DLP_QT_BF16, 1, 0},
        {"nvidia/Nemotron-H-8B-Base-8K", "l4", DLP_QT_BF16, 1, 1},
        {"Qwen/Qwen3-Next-80B-A3B-Instruct", "h100-sxm", DLP_QT_BF16, 4, 1},
        {"nvidia/NVIDIA-Nemotron-Nano-12B-v2-VL-BF16", "l40s", DLP_QT_BF16, 1, 1},
    };
    int both = 0;
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        dlp_error e = {0}, es = {0};
        dlp_llm_prediction g, sv;
        dlp_llm_workload wg = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = cs[i].q, .n_gpus = cs[i].gpus};
        dlp_status sg = serve(cs[i].m, cs[i].d, wg, &g, &e);
        int gen_fits = sg == DLP_OK && g.fits;
        if (sg) CHECK(strstr(e.msg, "does not fit") != NULL);
        wg.concurrency = 1;
        dlp_status ss = serve(cs[i].m, cs[i].d, wg, &sv, &es);
        if (ss) CHECK(strstr(es.msg, "does not fit") != NULL);
        int serve_fits = ss == DLP_OK && sv.fits;
        if (gen_fits != cs[i].fits || serve_fits != cs[i].fits)
            fprintf(stderr, "  %s on %d x %s: generate fits %d, serving %d, expected %d\n", cs[i].m, cs[i].gpus,
                    cs[i].d, gen_fits, serve_fits, cs[i].fits);
        CHECK(gen_fits == cs[i].fits && serve_fits == cs[i].fits);
        /* one story: a refusal names the same parts and total in both
         * modes, word for word */
        if (sg && ss) CHECK_STR(e.msg, es.msg);
        /* where both run: the same parts, part by part; only serving has
         * the chunk workspace, which is not in the total */
        if (!sg && !ss) {
            const dlp_llm_memory *a = &g.need, *b = &sv.need;
            CHECK_NEAR(a->weights_mb, b->weights_mb, 1e-9 * a->weights_mb);
            CHECK_NEAR(a->activations_mb, b->activations_mb, 1e-9 * a->activations_mb);
            CHECK_NEAR(a->kv_mb, b->kv_mb, 1e-9 * a->kv_mb);
            CHECK_NEAR(a->runtime_mb, b->runtime_mb, 0);
            CHECK_NEAR(a->total_mb, b->total_mb, 1e-9 * a->total_mb);
            CHECK_NEAR(a->total_mb, a->weights_mb + a->activations_mb + a->kv_mb + a->runtime_mb, 1e-9 * a->total_mb);
            CHECK_NEAR(a->workspace_mb, 0, 0);
            CHECK(b->workspace_mb > 0);
            CHECK_NEAR(g.memory_mb, a->total_mb, 1e-9 * a->total_mb);
            CHECK_NEAR(g.weights_mb, sv.weights_mb, 1e-9 * g.weights_mb);
            both++;
        }
    }
    CHECK(both >= 16);   /* the parts compared on sixteen setups, not skipped */
}

/* The one memory story by hand: Llama-3.1-8B bf16, 1024 prompt + 256
 * output tokens on one H100, generate mode at batch 1 and one client.
 * weights: embed + lm_head 2 x 128,256 x 4,096 = 1,050,673,152; a layer
 * q, o 2 x 4,096^2 + k, v 2 x 4,096 x 1,024 + MLP 3 x 4,096 x 14,336 +
 * 2 norms x 4,096 = 218,112,000, x 32 = 6,979,584,000; + the final norm
 * 4,096 = 8,030,261,248 x 2 B = 16,060,522,496 B = 15,316.5078125 MiB.  KV:
 * 1,280 tokens x 131,072 B = 160 MiB.  Activations: the peak of the
 * 1,024-token forward is at the LM head, its input 1,024 x 4,096 x 2 B
 * (8 MiB) and the logits 1,024 x 128,256 x 2 B (262,668,288 B = 250.5 MiB)
 * live together: 258.5 MiB.  Runtime 1 GiB = 1,024 MiB.  Total
 * 15,316.5078125 + 258.5 + 160 + 1,024 = 16,759.0078125 MiB.  Serving reserves eight
 * times the activations as its 8,192-token chunk workspace: about 2 GiB. */
static void t_memory_story_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_prediction g, sv;
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1};
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &g, &e) == DLP_OK);
    wl.concurrency = 1;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &sv, &e) == DLP_OK);
    const dlp_llm_memory *n[2] = {&g.need, &sv.need};
    for (int k = 0; k < 2; k++) {
        CHECK_NEAR(n[k]->weights_mb, 16060522496.0 / 1048576.0, 1e-9);
        CHECK_NEAR(n[k]->kv_mb, 160.0, 1e-9);
        CHECK_NEAR(n[k]->activations_mb, (262668288.0 + 8388608.0) / 1048576.0, 1e-9);
        CHECK_NEAR(n[k]->runtime_mb, 1024.0, 0);
        CHECK_NEAR(n[k]->total_mb, 16759.0078125, 1e-9);
    }
    CHECK(sv.need.workspace_mb > 7.5 * sv.need.activations_mb && sv.need.workspace_mb < 8.5 * sv.need.activations_mb);
}

/* Serving's chunk workspace for a Mamba-2 hybrid, by hand (issue 22's
 * L4 case: `dlperf llm --model nvidia/NVIDIA-Nemotron-Nano-9B-v2 --device
 * l4 --concurrency 8 --prompt 1024 --gen 256 --chunk 8192 --max-seqs 256`;
 * vLLM's own default on a 24 GB L4 is 2,048, t_engine_defaults).  The
 * engine profiles 8,192 tokens as 256 requests of 32 (vLLM's _dummy_run); the peak is at
 * the LM head: its input 8,192 x 4,480 x 2 B = 73,400,320 B and the logits
 * 8,192 x 131,072 x 2 B = 2,147,483,648 B live together: 2,220,883,968 B
 * = 2,118 MiB.  (Each request's scan state, 128 heads x 80 x 128 state
 * x 2 B = 2.6 MB a layer, x 256 = 0.67 GB, is below it; scaled per token,
 * as before, 8,192 states hit the 8 GiB cap.)  One sequence's cache: 27
 * Mamba layers x (conv (10,240 + 2 x 8 x 128) x 3 + SSM 128 x 80 x 128 =
 * 1,347,584 elements) x 2 B = 72,769,536 B, + 4 attention layers x 1,280
 * tokens x 8 KV heads x 128 x 2 (k, v) x 2 B = 20,971,520 B: 93,741,056 B.
 * Weights 8,888,227,328 x 2 B = 17,776,454,656 B.  Cache = 0.9 x 24 GiB
 * - weights - workspace - 1 GiB = 2,121,742,950.4 B (1.976 GiB): 22
 * sequences of 1,280 tokens (22.6), 28,160 tokens. */
static void t_hybrid_chunk_workspace(void) {
    dlp_error e = {0};
    dlp_llm_prediction p;
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 8, .max_seqs = 256, .chunk_tokens = 8192};
    CHECK(serve("nvidia/NVIDIA-Nemotron-Nano-9B-v2", "l4", wl, &p, &e) == DLP_OK);
    if (e.msg[0]) fprintf(stderr, "  %s\n", e.msg);
    CHECK_NEAR(p.need.workspace_mb, 2220883968.0 / 1048576.0, 1e-6);
    CHECK_NEAR((double)p.kv_bytes_per_seq, 93741056.0, 0);
    CHECK_NEAR(p.kv_cache_gib * 1073741824.0, 2121742950.4, 1.0);
    CHECK_I64(p.max_concurrency, 22);
    CHECK_I64(p.kv_capacity_tokens, 22 * 1280);
    CHECK(p.fits == 1 && p.concurrency == 8);
    /* the state is per request: 1,024 requests of 8 tokens hold at least
     * 1,024 scan states of one layer (128 x 80 x 128 x 2 B each), more than
     * 256 requests of 32 */
    dlp_llm_config c;
    CHECK(dlp_llm_catalogue_get("nvidia/NVIDIA-Nemotron-Nano-9B-v2", &c, &e) == DLP_OK);
    double w256 = dlp__llm_chunk_workspace(&c, DLP_QT_BF16, 1, 256, 8192);
    double w1024 = dlp__llm_chunk_workspace(&c, DLP_QT_BF16, 1, 1024, 8192);
    CHECK_NEAR(w256, 2220883968.0, 1.0);
    CHECK(w1024 >= 1024.0 * 128 * 80 * 128 * 2 && w1024 > w256);
    /* TP 4 splits it (the heads and the vocabulary's logits) */
    CHECK_NEAR(dlp__llm_chunk_workspace(&c, DLP_QT_BF16, 4, 256, 8192), w256 / 4, 1.0);
}

/* Serving's KV capacity against the chunk the engine profiles (vLLM's
 * max_num_batched_tokens: 2,048 on smaller GPUs, 8,192 on an H100, 16,384
 * offline): a larger chunk never shrinks the workspace, so the cache never
 * grows; at 8,192 the workspace and cache are serving's printed ones, cache
 * = 0.9 x memory - weights - workspace - 1 GiB.  Dense, MoE, Mamba-2 and
 * Gated DeltaNet hybrids. */
static void t_kv_capacity_vs_chunk(void) {
    struct { const char *m, *d; int gpus; } cs[] = {
        {"meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", 1},
        {"Qwen/Qwen3-30B-A3B", "h100-sxm", 1},
        {"nvidia/NVIDIA-Nemotron-Nano-9B-v2", "l4", 1},
        {"nvidia/Nemotron-H-8B-Base-8K", "a100-40gb", 1},
        {"Qwen/Qwen3-Next-80B-A3B-Instruct", "h100-sxm", 4},
    };
    const int64_t chunks[] = {1, 16, 256, 512, 2048, 8192, 16384};
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        dlp_error e = {0};
        dlp_llm_config c;
        dlp_llm_prediction p;
        CHECK(dlp_llm_catalogue_get(cs[i].m, &c, &e) == DLP_OK);
        dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16,
                               .n_gpus = cs[i].gpus, .concurrency = 8};
        CHECK(serve(cs[i].m, cs[i].d, wl, &p, &e) == DLP_OK);
        const dlp_device *d = dlp_devdb_find(db, cs[i].d);
        double room = 0.9 * d->memory_gib * 1073741824.0 - p.weights_mb * 1048576.0 - 1073741824.0;
        double last_ws = -1, last_cap = 1e300;
        for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
            double ws = dlp__llm_chunk_workspace(&c, DLP_QT_BF16, cs[i].gpus, p.max_seqs, chunks[k]);
            double cap = fmax(0.0, room - ws);
            CHECK(ws > 0 && ws >= last_ws * (1 - 1e-12));
            CHECK(cap >= 0 && cap <= last_cap * (1 + 1e-12));
            if (!(ws >= last_ws * (1 - 1e-12)))
                fprintf(stderr, "  %s: workspace %g B at chunk %lld < %g\n", cs[i].m, ws, (long long)chunks[k], last_ws);
            /* the engine's default chunk (t_engine_defaults) is what sized it */
            if (chunks[k] == p.chunk_tokens) {
                CHECK_NEAR(ws / 1048576.0, p.need.workspace_mb, 1e-9 * ws);
                CHECK_NEAR(cap, p.kv_cache_gib * 1073741824.0, 1e-6 * cap);
            }
            last_ws = ws, last_cap = cap;
        }
    }
}

/* Closed-loop clients on Llama-3.1-8B bf16, H100, 1024 + 256: TTFT is
 * never under one prompt's prefill plus the front end's time (HTTP,
 * tokenising, the first token back: request_ms, a fitted constant) and is
 * exactly that at one client (the engine is idle when the lone request
 * arrives); output tok/s rises with
 * the clients, then saturates once max_seqs (256) run — more clients only
 * queue, which lengthens their TTFT, not the throughput. */
static void t_iteration_and_clients(void) {
    dlp_error e = {0};
    const int64_t cs[] = {1, 2, 8, 32, 128, 256, 512, 2048};
    double last = 0, tput256 = 0;
    for (int i = 0; i < 8; i++) {
        dlp_llm_prediction p;
        dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                               .concurrency = cs[i], .max_seqs = 256};
        CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &p, &e) == DLP_OK);
        CHECK(p.request_ms > 0);
        CHECK(p.ttft_ms >= p.prefill_ms + p.request_ms - 1e-9);
        if (cs[i] == 1) CHECK_NEAR(p.ttft_ms, p.prefill_ms + p.request_ms, 1e-9 * p.ttft_ms);
        /* the issue's case: 8 clients wait little more than a prefill */
        if (cs[i] == 8) CHECK(p.ttft_ms - p.request_ms < 3.0 * p.prefill_ms);
        CHECK(p.output_tokens_per_s >= last * (1 - 1e-9));
        CHECK_I64(p.running, cs[i] < 256 ? cs[i] : 256);
        if (cs[i] == 256) tput256 = p.output_tokens_per_s;
        if (cs[i] > 256) CHECK_NEAR(p.output_tokens_per_s, tput256, 1e-9 * tput256);
        last = p.output_tokens_per_s;
    }
    /* a step's engine overhead grows with the batch: 256 sequences' step
     * is more than the 1-sequence step plus the extra weights-free work */
    /* long outputs exhaust the cache: 1024 + 8192 tokens hold ~48 whole
     * sequences, vLLM admits more at their mean length and preempts the
     * rest; throughput saturates there */
    dlp_llm_prediction a, b;
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 8192, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 0};
    wl.concurrency = 8;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &a, &e) == DLP_OK);
    CHECK(a.preempted == 0);
    wl.concurrency = 512;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &b, &e) == DLP_OK);
    CHECK(b.preempted > 0 && b.running < 256 && b.running > b.max_concurrency);
    wl.concurrency = 4096;
    dlp_llm_prediction c2;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &c2, &e) == DLP_OK);
    CHECK_NEAR(c2.output_tokens_per_s, b.output_tokens_per_s, 1e-9 * b.output_tokens_per_s);
    CHECK(c2.ttft_ms > b.ttft_ms);
}

/* Power follows load: one client's memory-bound decode draws far less than
 * a full batch; every figure at most TDP; energy per token falls with load.
 * One client's bound is 0.65 of TDP (455 W): LLM-Inference-Bench's H100 SXM
 * runs at batch 1 drew 363-414 W (0.52-0.59; docs/llm.md "h225"), and the
 * refit memory share (0.63, h225) puts this decode at about 435 W where the
 * 0.45 prior gave under 0.6 x 700. */
static void t_power_follows_load(void) {
    dlp_error e = {0};
    const int64_t cs[] = {1, 8, 64};
    double lastw = 0, lastj = 1e30;
    for (int i = 0; i < 3; i++) {
        dlp_llm_prediction p;
        dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                               .concurrency = cs[i]};
        CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &p, &e) == DLP_OK);
        CHECK(p.power_per_gpu_w > lastw && p.power_per_gpu_w <= 700.0);
        CHECK(p.energy_per_token_j < lastj);
        if (cs[i] == 1) CHECK(p.power_per_gpu_w < 0.65 * 700.0);
        /* never under the serving floor: 0.304 x 700 W = 212.8 W */
        CHECK(p.power_per_gpu_w >= 212.8 - 1e-9);
        lastw = p.power_per_gpu_w;
        lastj = p.energy_per_token_j;
    }
}

/* bitsandbytes formats cost their dequantisation in both modes: nf4 is
 * slower than bf16 in generate mode and in serving, by a like factor. */
static void t_dequant_both_modes(void) {
    dlp_error e = {0};
    double r[2];
    for (int mode = 0; mode < 2; mode++) {
        dlp_llm_prediction b, n;
        dlp_llm_workload wl = {.batch = 1, .seq = 128, .gen_tokens = 128, .quant = DLP_QT_BF16, .n_gpus = 1,
                               .concurrency = mode};
        CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "a100-80gb", wl, &b, &e) == DLP_OK);
        wl.quant = DLP_QT_NF4;
        CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "a100-80gb", wl, &n, &e) == DLP_OK);
        r[mode] = mode ? n.tpot_ms / b.tpot_ms : n.latency_ms / b.latency_ms;
    }
    fprintf(stderr, "  nf4 / bf16: generate %.3g, serving %.3g\n", r[0], r[1]);
    CHECK(r[0] > 1.2 && r[1] > 1.2);
    CHECK(r[1] / r[0] > 0.67 && r[1] / r[0] < 1.5);
}

/* Poisson clients (--rate): TTFT rises with the rate; towards rate 0 it is
 * one prompt's prefill plus the front end (the engine idle, nothing in
 * the way); Little's law holds (in flight = rate x time in the engine);
 * the capacity is what the full running batch sustains, and a rate at or
 * past it is refused naming it; rate is exclusive with concurrency and
 * max_fit, and of an aggregated replica only. */
static void t_rate_open_loop(void) {
    dlp_error e = {0};
    const double rates[] = {0.001, 1, 4, 8, 12, 16};
    double last = 0, cap = 0;
    for (int i = 0; i < 6; i++) {
        dlp_llm_prediction p;
        dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                               .rate = rates[i], .max_seqs = 256};
        CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &p, &e) == DLP_OK);
        CHECK(p.serving && p.capacity_rps > rates[i]);
        CHECK(p.ttft_ms > last);
        CHECK(p.ttft_ms >= p.prefill_ms + p.request_ms - 1e-9);
        /* a lone request now and then: prefill + front end within 0.1 % */
        if (i == 0) CHECK_NEAR(p.ttft_ms, p.prefill_ms + p.request_ms, 1e-3 * p.ttft_ms);
        /* what arrives is served; in flight = rate x engine time (Little),
         * to the rounding of the reported count */
        CHECK_NEAR(p.requests_per_s, rates[i], 1e-12 * rates[i]);
        double in_engine = (p.e2e_ms - p.request_ms - p.queue_ms) * 1e-3;
        if (rates[i] >= 1) CHECK(fabs((double)p.concurrency - rates[i] * in_engine) <= 0.5 + 0.02 * p.concurrency);
        CHECK(p.power_per_gpu_w <= 700.0);
        last = p.ttft_ms;
        cap = p.capacity_rps;
    }
    /* the capacity against closed-loop clients at the full batch (256
     * running): the same steady state, so within the closed loop's first
     * wave (a tenth of the run, W_WAVES) of its requests/s */
    dlp_llm_prediction full;
    dlp_llm_workload wc = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 256};
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wc, &full, &e) == DLP_OK);
    CHECK(cap >= full.requests_per_s && cap <= 1.1 * full.requests_per_s);
    /* at and past the capacity: refused, naming it */
    dlp_llm_prediction p;
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .rate = cap * 1.001, .max_seqs = 256};
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &p, &e) == DLP_EINVAL);
    CHECK(strstr(e.msg, "overloaded: capacity") != NULL);
    wl.rate = 1e6;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &p, &e) == DLP_EINVAL);
    /* one client model at a time; aggregated replicas only; no NaN */
    wl.rate = 2, wl.concurrency = 8;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &p, &e) == DLP_EINVAL);
    CHECK(strstr(e.msg, "two client models") != NULL);
    wl.concurrency = 0, wl.phase = DLP_LLM_DECODE_ONLY;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &p, &e) == DLP_EINVAL);
    wl.phase = DLP_LLM_AGG, wl.rate = NAN;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &p, &e) == DLP_EINVAL);
    wl.rate = -1;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &p, &e) == DLP_EINVAL);
}

/* The engine's CPU side by hand.  vllm-v0 (vLLM <= 0.5) spends 20.5 ms +
 * 0.217 ms per running sequence + 11.8 ms per GPU beyond the first (the
 * step's inputs handed to each further worker process) of CPU time in every
 * decode step, modern engines 0.35 ms + 0.010 ms per sequence
 * (llm_serve.c ENGINE_CPU).  At 64 running sequences on one GPU the decode
 * step differs by exactly (20.5 + 0.217 x 64) - (0.35 + 0.010 x 64) =
 * 34.388 - 0.99 = 33.398 ms, the GPU's part being the same but for the
 * modern engines' decode-attention floor (h147: 32 layers x (8.58 - 2) us =
 * 0.21056 ms more on the modern side): 33.18744 ms; on 4 GPUs the
 * vllm-v0 overhead is 34.388 + 3 x 11.8 = 69.788 ms.  Without chunked
 * prefill the clients' TPOT also carries the prompts' own steps: after a
 * step in which a request ended, probability 1 - exp(-64 / 256) = 0.2212, a
 * prefill step that walks the 64 sequences (0.217 x 64 = 13.888 ms: the
 * 62.9 decoding ones and the 1.13 prompts) but carries neither the fixed
 * part nor the handoff: on 4 GPUs its stall stays under k x the 35.4 ms
 * handoff alone (k x 13.888 = 3.072 ms plus the prompts' GPU time). */
static void t_engine_cpu_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_prediction m, v;
    dlp_llm_workload wl = {.batch = 1, .seq = 512, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 64, .max_seqs = 64};
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &m, &e) == DLP_OK);
    wl.engine = DLP_LLM_ENGINE_VLLM_V0;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &v, &e) == DLP_OK);
    CHECK_I64(m.running, 64);
    CHECK_I64(v.running, 64);
    CHECK_NEAR(v.decode_step_ms - m.decode_step_ms, 33.398 - 32 * (8.58 - 2.0) * 1e-3, 1e-6);
    CHECK_NEAR(v.overhead_ms, 34.388, 1e-6);
    /* the stall: at least k x the prefill step's CPU walk of 64 sequences */
    double k = 1.0 - exp(-64.0 / 256.0);
    CHECK_NEAR(k, 0.2212, 1e-4);
    CHECK(v.tpot_ms >= v.decode_step_ms + k * 13.888 - 1e-9);
    /* 4 GPUs: the handoff in every decode step, not in the prompts' steps */
    wl.n_gpus = 4;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &v, &e) == DLP_OK);
    CHECK_NEAR(v.overhead_ms, 69.788, 1e-6);
    CHECK(v.tpot_ms >= v.decode_step_ms + k * 13.888 - 1e-9);
    CHECK(v.tpot_ms - v.decode_step_ms < k * 35.4);
    wl.engine = DLP_LLM_ENGINE_MODERN;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &m, &e) == DLP_OK);
    /* modern engines: no handoff term; their TPOT step carries the 64
     * decodes and 64 x 512 / 256 = 128 prompt tokens, 0.25 of a prompt:
     * 0.35 + 0.010 x 64.25 = 0.9925 ms */
    CHECK_NEAR(m.overhead_ms, 0.9925, 1e-6);
    /* names both ways; an unknown engine refused */
    CHECK(dlp_llm_engine_parse("VLLM-V0") == DLP_LLM_ENGINE_VLLM_V0 && dlp_llm_engine_parse("modern") == 0);
    CHECK(dlp_llm_engine_parse("tgi") == -1 && dlp_llm_engine_parse(NULL) == -1);
    CHECK(!strcmp(dlp_llm_engine_name(DLP_LLM_ENGINE_VLLM_V0), "vllm-v0") && dlp_llm_engine_name(4) == NULL);
    CHECK(dlp_llm_engine_parse("SGLang") == DLP_LLM_ENGINE_SGLANG && dlp_llm_engine_parse("trtllm") == DLP_LLM_ENGINE_TRTLLM);
    CHECK(dlp_llm_engine_parse("vllm") == DLP_LLM_ENGINE_MODERN && !strcmp(dlp_llm_engine_name(DLP_LLM_ENGINE_SGLANG), "sglang"));
    wl.engine = 7;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &v, &e) == DLP_EINVAL);
}

/* The first wave's burst by engine (docs/llm.md, "Client models").
 * Llama-3.1-8B bf16 on an H100, 64 clients of 1024 + 256: the burst is
 * 64 x 1024 = 65,536 prompt tokens in eight 8192-token chunks, the mean
 * request done after (8 + 1) / 2 = 4.5 of them; a chunk is at least
 * 2 x 6.98e9 FLOPs (the 32 layers' matrices, t_power_spans_prompt_steps)
 * x 8192 = 1.144e14 FLOPs, 115.6 ms at the 989.4 TFLOP/s bf16 peak, so the
 * burst is >= 520 ms, far above the staggered steady state (one prompt
 * beside the decodes).  TTFT mixes them by the engine's burst weight:
 * 0.14 decode-first (modern = vLLM, TensorRT-LLM), 0.17 prefill-first
 * (SGLang), and adds the engine's front end (vLLM 28.1, TensorRT-LLM
 * 46.8, SGLang 149.4 ms; h189's re-settled fit).  TensorRT-LLM and SGLang schedule with overlap
 * (the next step is prepared while one runs, so an arrival joins the step
 * after it: one decode step more in the steady state; vLLM none), so
 * TensorRT-LLM's TTFT is vLLM's + 18.7 ms + 0.86 decode steps and SGLang's
 * is vLLM's + 0.03 x (burst - steady) + 0.83 decode steps + 121.3 ms, while
 * TPOT, tokens/s... the same CPU side: TPOT identical.  At one client every
 * engine's TTFT is one prompt's prefill + the front end (the engine is
 * idle when the lone request comes: no step to wait for). */
static void t_burst_by_engine(void) {
    dlp_error e = {0};
    dlp_llm_prediction p[3];
    const int eng[3] = {DLP_LLM_ENGINE_MODERN, DLP_LLM_ENGINE_TRTLLM, DLP_LLM_ENGINE_SGLANG};
    for (int k = 0; k < 3; k++) {
        dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                               .concurrency = 64, .engine = eng[k]};
        CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &p[k], &e) == DLP_OK);
        CHECK(p[k].ttft_burst_ms >= 520.0);
        CHECK(p[k].ttft_steady_ms >= p[k].prefill_ms - 1e-9 && p[k].ttft_steady_ms < p[k].ttft_burst_ms / 4);
        CHECK(p[k].ttft_ms >= p[k].prefill_ms + p[k].request_ms - 1e-9);
        dlp_llm_prediction one;
        wl.concurrency = 1;
        CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &one, &e) == DLP_OK);
        CHECK_NEAR(one.ttft_ms, one.prefill_ms + one.request_ms, 1e-9 * one.ttft_ms);
    }
    double gap = p[0].ttft_burst_ms - p[0].ttft_steady_ms;
    CHECK_NEAR(p[0].ttft_ms - p[0].request_ms, p[0].ttft_steady_ms + 0.14 * gap, 1e-9 * p[0].ttft_ms);
    CHECK_NEAR(p[0].request_ms, 28.1, 1e-12);
    double dec = p[0].decode_step_ms;
    CHECK_NEAR(p[1].decode_step_ms, dec, 1e-12 * dec);
    CHECK_NEAR(p[1].ttft_steady_ms - p[0].ttft_steady_ms, dec, 1e-9 * p[0].ttft_ms);
    CHECK_NEAR(p[2].ttft_steady_ms - p[0].ttft_steady_ms, dec, 1e-9 * p[0].ttft_ms);
    CHECK_NEAR(p[1].ttft_ms - p[0].ttft_ms, 46.8 - 28.1 + 0.86 * dec, 1e-9 * p[0].ttft_ms);
    CHECK_NEAR(p[2].ttft_ms - p[0].ttft_ms, 0.03 * gap + 0.83 * dec + 149.4 - 28.1, 1e-9 * p[0].ttft_ms);
    CHECK_NEAR(p[2].tpot_ms, p[0].tpot_ms, 1e-12 * p[0].tpot_ms);
    CHECK(!strcmp(dlp_llm_engine_name(DLP_LLM_ENGINE_SGLANG), "sglang"));
}

/* vllm-v0's power spans what the clients' TPOT spans: the decode step and
 * the prompts' own steps.  Llama-3.1-8B on an H100, 64 clients of 4096-token
 * prompts and 16 output tokens: every decode step brings 64 x 4096 / 16 =
 * 16,384 prompt tokens, each at least 2 x 6.98e9 FLOPs of the 32 layers'
 * matrices (per layer q 4096^2, k and v 4096 x 1024, o 4096^2, gate, up and
 * down 3 x 4096 x 14336: 218.1 M), 2.287e14 FLOPs = 231.2 ms at the 989.4
 * TFLOP/s bf16 peak, so the math utilisation over a TPOT of T ms is at least
 * 231.2 / T.  The decode step alone (64 tokens: 0.9 ms of peak math in a
 * step of 34 ms of CPU and more) would say under 0.03. */
static void t_power_spans_prompt_steps(void) {
    dlp_error e = {0};
    dlp_llm_prediction v;
    dlp_llm_workload wl = {.batch = 1, .seq = 4096, .gen_tokens = 16, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 64, .max_seqs = 64, .engine = DLP_LLM_ENGINE_VLLM_V0};
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &v, &e) == DLP_OK);
    CHECK_I64(v.running, 64);
    CHECK(v.preempted == 0);
    printf("  vllm-v0, 4096 + 16: TPOT %.1f ms (decode step %.1f), math util %.3f, %.0f W\n", v.tpot_ms,
           v.decode_step_ms, v.math_util, v.power_per_gpu_w);
    CHECK(v.math_util >= 231.2 / v.tpot_ms);
    CHECK(v.math_util <= 1.0);
    CHECK(v.power_per_gpu_w <= 700.0 + 1e-9);
}

/* vllm-v0 draws power by its own floor and shares, the modern engines by
 * the shared ones (docs/llm.md, "power follows load").  codegemma-1.1-2b on
 * one H100 (TDP 700 W) behind 768 clients of 150 + 236 tokens, as the
 * ML.ENERGY leaderboard ran it: vLLM 0.5's engine spends nearly the whole
 * step in Python, so the GPU sits near its floor.  By hand from the reported
 * utilisations um, uc of each answer:
 *   vllm-v0: 700 (0.215 + 0.785 min(1, 1.06 um + 1.20 uc)) W, at least
 *            0.215 x 700 = 150.5 W and, with um + uc under 0.1, under the
 *            shared floor 0.304 x 700 = 212.8 W (the leaderboard measured
 *            168-181 W = energy per request x requests/s on these rows);
 *   modern:  700 (0.304 + 0.696 min(1, 0.63 um + 0.75 uc)) W, at least
 *            212.8 W. */
static void t_power_vllm_v0_own_shares(void) {
    dlp_error e = {0};
    dlp_llm_prediction v, m;
    dlp_llm_workload wl = {.batch = 1, .seq = 150, .gen_tokens = 236, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 768, .max_seqs = 768, .engine = DLP_LLM_ENGINE_VLLM_V0};
    CHECK(serve("google/codegemma-1.1-2b", "h100-sxm", wl, &v, &e) == DLP_OK);
    wl.engine = DLP_LLM_ENGINE_MODERN;
    CHECK(serve("google/codegemma-1.1-2b", "h100-sxm", wl, &m, &e) == DLP_OK);
    printf("  codegemma-1.1-2b, 768 clients: vllm-v0 %.1f W (um %.3f uc %.3f), modern %.1f W (um %.3f uc %.3f)\n",
           v.power_per_gpu_w, v.mem_util, v.math_util, m.power_per_gpu_w, m.mem_util, m.math_util);
    CHECK_NEAR(v.power_per_gpu_w, 700.0 * (0.215 + 0.785 * fmin(1.0, 1.06 * v.mem_util + 1.20 * v.math_util)), 1e-6);
    CHECK_NEAR(m.power_per_gpu_w, 700.0 * (0.304 + 0.696 * fmin(1.0, 0.63 * m.mem_util + 0.75 * m.math_util)), 1e-6);
    CHECK(v.mem_util + v.math_util < 0.1);
    CHECK(v.power_per_gpu_w >= 150.5 - 1e-9 && v.power_per_gpu_w < 212.8);
    CHECK(m.power_per_gpu_w >= 212.8 - 1e-9 && m.power_per_gpu_w <= 700.0);
    /* energy per request is power x GPUs over requests/s in both */
    CHECK_NEAR(v.energy_j, v.power_per_gpu_w / v.requests_per_s, 1e-9 * v.energy_j);
}

/* GH200's GPU is the H100 SXM's die under a 900 W limit (devices.json
 * die_tdp_w 700, docs/llm.md "h225"): the serving floor and shares scale
 * with 700 W, 900 W stays the cap.  Llama-3.1-8B, one lone client of 1,024
 * + 256 tokens on the modern engine: by hand from the reported utilisations,
 *   P = 0.304 x 700 + (700 - 212.8) min(1, 0.63 um + 0.75 uc)
 *     = 212.8 + 487.2 min(1, 0.63 um + 0.75 uc) W,
 * not 0.304 x 900 = 273.6 + 626.4 min(...) W as the limit would give; and
 * the same utilisations on an H100 SXM (700 W, no die_tdp_w) give the same
 * formula.  At 64 clients the power rises and stays under 900 W. */
static void t_gh200_die_scale(void) {
    dlp_error e = {0};
    dlp_llm_prediction g, h, g64;
    const dlp_device *d = dlp_devdb_find(db, "gh200");
    CHECK(d && d->tdp_w == 900.0 && d->die_tdp_w == 700.0);
    CHECK(dlp_devdb_find(db, "h100-sxm")->die_tdp_w == 0.0);
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 1};
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "gh200", wl, &g, &e) == DLP_OK);
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &h, &e) == DLP_OK);
    printf("  Llama-3.1-8B, one client: gh200 %.1f W (um %.3f uc %.3f), h100-sxm %.1f W (um %.3f uc %.3f)\n",
           g.power_per_gpu_w, g.mem_util, g.math_util, h.power_per_gpu_w, h.mem_util, h.math_util);
    CHECK_NEAR(g.power_per_gpu_w, 212.8 + 487.2 * fmin(1.0, 0.63 * g.mem_util + 0.75 * g.math_util), 1e-6);
    CHECK_NEAR(h.power_per_gpu_w, 212.8 + 487.2 * fmin(1.0, 0.63 * h.mem_util + 0.75 * h.math_util), 1e-6);
    CHECK(g.power_per_gpu_w < 273.6 + 626.4 * fmin(1.0, 0.63 * g.mem_util + 0.75 * g.math_util));
    wl.concurrency = 64;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "gh200", wl, &g64, &e) == DLP_OK);
    CHECK(g64.power_per_gpu_w > g.power_per_gpu_w && g64.power_per_gpu_w <= 900.0);
}

/* A recurrent state (Gated DeltaNet, Mamba) is no context: an 8k prompt of
 * Qwen3.5-397B-A17B (17 B active) on 8 x B200 in fp8 is 2 x 17e9 x 8192 =
 * 2.79e14 FLOPs, 3.5e13 per GPU: 7.7 ms at the 4.5 PFLOP/s fp8 peak, so
 * even at a tenth of it under 80 ms, plus attention on its 15 full layers.
 * The state taken for context (every prompt token over ~49 M state
 * elements) made it 754 ms; 300 ms bounds it with room. */
static void t_recurrent_state_prefill(void) {
    dlp_error e = {0};
    dlp_llm_prediction p;
    dlp_llm_workload wl = {.batch = 1, .seq = 8192, .gen_tokens = 100, .quant = DLP_QT_FP8, .n_gpus = 8,
                           .concurrency = 1};
    CHECK(serve("Qwen/Qwen3.5-397B-A17B", "b200", wl, &p, &e) == DLP_OK);
    CHECK(p.prefill_ms > 7.7 && p.prefill_ms < 300.0);
}

/* Attention DP reads only its share of the MLA cache (the layout of the
 * wide-EP decode workers, docs/llm.md "fourth pass").  DeepSeek-V3 caches
 * one latent of 512 + 64 per layer: 61 x 576 x 1 B (fp8 cache) = 35,136 B
 * per token, and TP does not split it (one latent head).  256 decoding
 * sequences of a 4096 prompt and 1024 outputs hold about 4096 + 512 = 4608
 * tokens each: 256 x 4608 x 35,136 B = 41.4 GB, 5.18 ms at B200's 8 TB/s
 * on every rank under TP 8, 0.65 ms under attention DP 8 (32 sequences a
 * rank).  DP pays for it by reading all the attention weights on every
 * rank: per layer q_a 7168 x 1536, q_b 1536 x 128 x 192, kv_a 7168 x 576,
 * kv_b 512 x 128 x 256, o 128 x 128 x 7168 = 187.0 M, x 61 = 11.41 G, of
 * which TP reads an eighth: at most 7/8 x 11.41 GB = 1.25 ms more, plus the
 * 3 dense MLPs (3 x 7168 x 18432 x 3 = 1.19 G) and the head (7168 x
 * 129,280 = 0.93 G): 0.24 ms more at most.  So TP's step is at least 5.18
 * ms and DP's is at least 4.53 - 1.49 = 3.0 ms shorter where both run at
 * the same fraction of the bandwidth. */
static void t_attention_dp_reads_its_share(void) {
    dlp_error e = {0};
    dlp_llm_prediction tp, dp;
    dlp_llm_workload wl = {.batch = 1, .seq = 4096, .gen_tokens = 1024, .quant = DLP_QT_FP8,
                           .kv_dtype = DLP_DT_FLOAT8E4M3FN, .n_gpus = 8, .concurrency = 256, .ep = 8,
                           .phase = DLP_LLM_DECODE_ONLY};
    CHECK(serve("deepseek-ai/DeepSeek-V3", "b200", wl, &tp, &e) == DLP_OK);
    wl.attn_dp = 8;
    CHECK(serve("deepseek-ai/DeepSeek-V3", "b200", wl, &dp, &e) == DLP_OK);
    printf("  DeepSeek-V3 decode, 256 x 4608 tokens on 8 x B200: TP 8 %.2f ms, attention DP 8 %.2f ms\n",
           tp.decode_step_ms, dp.decode_step_ms);
    CHECK_I64(tp.running, 256);
    CHECK_I64(dp.running, 256);
    CHECK(tp.decode_step_ms >= 5.18);
    CHECK(tp.decode_step_ms - dp.decode_step_ms >= 3.0);
}

/* Attention DP's busiest rank and CUDA-graph padding (docs/llm.md,
 * "Attention DP: the busiest rank and CUDA-graph padding"), by hand on 8
 * ranks.  The busiest rank holds ceil(n / 8) of n decode sequences (at least
 * one: an idle rank runs a dummy); in a decode-only step it is padded to the
 * engine's next captured size:
 *   TensorRT-LLM [1, 2, 4, 8, 16, ..., 128]: n = 4 -> 1 -> 1; n = 60 -> 8 ->
 *   8; n = 66 -> ceil(8.25) = 9 -> 16; n = 1100 -> 138, past the list: 138;
 *   SGLang [1, 2, 4, 8, 12, 16, 24, ..., 256]: n = 66 -> 9 -> 12; n = 200 ->
 *   25 -> 32; with speculative decoding (.., 8, 10, 12, .., 32, 36, ..): 9 ->
 *   10, 25 -> 26;  vLLM: 9 -> 9 (no padding modelled); a step with prompt
 *   tokens is not graphed: 9 -> 9; one rank (no attention DP): n itself.
 * Through the serving step (DeepSeek-V3 fp8, 8 x B200, EP 8, attention DP
 * 8, TensorRT-LLM): 66 and 128 decoding sequences both run 16 rows a rank,
 * so every GEMM and expert costs the same; the decode attention reads 9
 * against 16 sequences' caches a rank, so its time above the per-layer
 * floor (61 layers x 8.58 us, the decode-attention op's, h147) is 9 / 16
 * of the other's. */
static double adp_parts(int engine, double n_dec, dlp__llm_parts *p) {
    dlp_llm_config c;
    dlp_error e = {0};
    if (dlp_llm_catalogue_get("deepseek-ai/DeepSeek-V3", &c, &e)) return -1;
    const dlp_device *d = dlp_devdb_find(db, "b200");
    dlp_llm_workload wl = {.quant = DLP_QT_FP8, .n_gpus = 8, .ep = 8, .attn_dp = 8, .engine = engine,
                           .kv_dtype = DLP_DT_FLOAT8E4M3FN, .phase = DLP_LLM_DECODE_ONLY};
    int cdt = dlp_llm_compute_dtype(d, DLP_QT_FP8, NULL, 0);
    if (dlp__llm_iter_parts(&c, d, &wl, cdt, 1.0, n_dec, 4608, 0, 0, p, &e) != DLP_OK) return -1;
    double t = 0;
    for (int i = 0; i < p->n_lin; i++) t += p->lin_s[i];
    return t;
}

static void t_attention_dp_busiest_rank_padding(void) {
    const int TRT = DLP_LLM_ENGINE_TRTLLM, SGL = DLP_LLM_ENGINE_SGLANG;
    double b;
    CHECK_NEAR(dlp__llm_adp_rank_rows(TRT, 0, 8, 4, 1, &b), 1, 0); CHECK_NEAR(b, 1, 0);
    CHECK_NEAR(dlp__llm_adp_rank_rows(TRT, 0, 8, 60, 1, &b), 8, 0); CHECK_NEAR(b, 8, 0);
    CHECK_NEAR(dlp__llm_adp_rank_rows(TRT, 0, 8, 66, 1, &b), 16, 0); CHECK_NEAR(b, 9, 0);
    CHECK_NEAR(dlp__llm_adp_rank_rows(TRT, 0, 8, 1100, 1, &b), 138, 0);
    CHECK_NEAR(dlp__llm_adp_rank_rows(SGL, 0, 8, 66, 1, &b), 12, 0);
    CHECK_NEAR(dlp__llm_adp_rank_rows(SGL, 0, 8, 200, 1, &b), 32, 0); CHECK_NEAR(b, 25, 0);
    CHECK_NEAR(dlp__llm_adp_rank_rows(SGL, 1, 8, 66, 1, &b), 10, 0);
    CHECK_NEAR(dlp__llm_adp_rank_rows(SGL, 1, 8, 200, 1, &b), 26, 0);
    CHECK_NEAR(dlp__llm_adp_rank_rows(DLP_LLM_ENGINE_MODERN, 0, 8, 66, 1, &b), 9, 0);
    CHECK_NEAR(dlp__llm_adp_rank_rows(TRT, 0, 8, 66, 0, &b), 9, 0);
    CHECK_NEAR(dlp__llm_adp_rank_rows(TRT, 0, 1, 5.5, 1, &b), 5.5, 0);
    dlp__llm_parts p66, p128, p65;
    double g66 = adp_parts(TRT, 66, &p66), g128 = adp_parts(TRT, 128, &p128), g65 = adp_parts(TRT, 65, &p65);
    CHECK(g66 > 0 && g128 > 0 && g65 > 0);
    CHECK_NEAR(g66, g128, 1e-12);
    double floor_s = 61 * 8.58e-6;
    CHECK_I64(p66.attn_layers, 61);
    CHECK_NEAR((p66.attn_dec_s - floor_s) / (p128.attn_dec_s - floor_s), 9.0 / 16.0, 1e-9);
    CHECK_NEAR(p65.attn_dec_s, p66.attn_dec_s, 1e-15);   /* 65 and 66: 9 on the busiest rank */
    CHECK(p66.total_s <= p128.total_s);
    /* SGLang: 66 -> 12 rows a rank, the same GEMMs as 96 (12 a rank) */
    dlp__llm_parts q66, q96;
    CHECK_NEAR(adp_parts(SGL, 66, &q66), adp_parts(SGL, 96, &q96), 1e-12);
    printf("  DeepSeek-V3 decode step on 8 x B200, attention DP 8 (TensorRT-LLM): 65 %.3f, 66 %.3f, 128 %.3f ms\n",
           p65.total_s * 1e3, p66.total_s * 1e3, p128.total_s * 1e3);
}

/* MTP speculative decoding (docs/llm.md, "MTP"), by hand on Llama-3.1-8B
 * bf16 at one request on an H100, where a decode step is the 16.06 GB of
 * weights read once (t_decode_roofline).  Verifying 1 + 1 tokens reads the
 * same weights and the same cache (activations of two tokens are ~KB), and
 * the draft layer adds (L + 1) / L = 33 / 32 of the GPU work
 * (aiconfigurator's mtp_scale_factor): the step grows by at most
 * 1/32 + a little, never shrinks.  The step does not depend on the
 * acceptance; TPOT is the step over 1 + accepted tokens (exactly).  In an
 * aggregated replica at one client TPOT falls to about (33/32) / 1.8 =
 * 0.573 of plain decoding at 0.8 accepted: between 0.55 and 0.62. */
static void t_mtp_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_prediction p, q0, m;
    dlp_llm_workload wl = {.batch = 1, .seq = 128, .gen_tokens = 128, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 1, .phase = DLP_LLM_DECODE_ONLY};
    const char *llama = "meta-llama/Llama-3.1-8B-Instruct";
    CHECK(serve(llama, "h100-sxm", wl, &p, &e) == DLP_OK);
    wl.spec_tokens = 1;
    CHECK(serve(llama, "h100-sxm", wl, &q0, &e) == DLP_OK);
    double r = q0.decode_step_ms / p.decode_step_ms;
    CHECK(r >= 1.0 && r <= 33.0 / 32.0 + 0.03);
    CHECK_NEAR(q0.tpot_ms, q0.decode_step_ms, 1e-9);   /* nothing accepted: a token per step */
    wl.spec_accepted = 0.8;
    CHECK(serve(llama, "h100-sxm", wl, &m, &e) == DLP_OK);
    CHECK_NEAR(m.decode_step_ms, q0.decode_step_ms, 1e-9);
    CHECK_NEAR(m.tpot_ms * 1.8, m.decode_step_ms, 1e-9 * m.decode_step_ms);
    CHECK(m.output_tokens_per_s > p.output_tokens_per_s);
    /* aggregated, one client */
    dlp_llm_workload wa = wl;
    wa.phase = DLP_LLM_AGG;
    wa.spec_tokens = 0, wa.spec_accepted = 0;
    CHECK(serve(llama, "h100-sxm", wa, &p, &e) == DLP_OK);
    wa.spec_tokens = 1, wa.spec_accepted = 0.8;
    CHECK(serve(llama, "h100-sxm", wa, &m, &e) == DLP_OK);
    CHECK(m.tpot_ms / p.tpot_ms >= 0.55 && m.tpot_ms / p.tpot_ms <= 0.62);
    /* a deep draft with nothing accepted only costs: 3 drafts verify 4
     * tokens per sequence and add 3 draft layers (DeepSeek-V3, 61 layers) */
    dlp_llm_workload wd = {.batch = 1, .seq = 1024, .gen_tokens = 1024, .quant = DLP_QT_FP8, .n_gpus = 8, .ep = 8,
                           .attn_dp = 8, .concurrency = 256, .phase = DLP_LLM_DECODE_ONLY};
    CHECK(serve("deepseek-ai/DeepSeek-V3", "b200", wd, &p, &e) == DLP_OK);
    wd.spec_tokens = 3;
    CHECK(serve("deepseek-ai/DeepSeek-V3", "b200", wd, &q0, &e) == DLP_OK);
    CHECK(q0.tpot_ms > p.tpot_ms * 64.0 / 61.0);
    /* refusals: acceptance past the depth, no depth, generate mode, a
     * prefill worker, the vllm-v0 engine */
    dlp_llm_workload bad = wl;
    bad.spec_accepted = 1.5;
    CHECK(serve(llama, "h100-sxm", bad, &m, &e) == DLP_EINVAL && strstr(e.msg, "mtp") != NULL);
    bad = wl, bad.spec_tokens = 0;
    CHECK(serve(llama, "h100-sxm", bad, &m, &e) == DLP_EINVAL && strstr(e.msg, "mtp") != NULL);
    bad = wl, bad.concurrency = 0, bad.phase = DLP_LLM_AGG;
    CHECK(serve(llama, "h100-sxm", bad, &m, &e) == DLP_EINVAL && strstr(e.msg, "serving option") != NULL);
    bad = wl, bad.phase = DLP_LLM_PREFILL_ONLY;
    CHECK(serve(llama, "h100-sxm", bad, &m, &e) == DLP_EINVAL && strstr(e.msg, "prefill worker") != NULL);
    bad = wl, bad.phase = DLP_LLM_AGG, bad.engine = DLP_LLM_ENGINE_VLLM_V0;
    CHECK(serve(llama, "h100-sxm", bad, &m, &e) == DLP_EINVAL && strstr(e.msg, "vllm-v0") != NULL);
}

/* W8A8 fp8 GEMMs quantise their activation per token and 128-group first
 * (docs/llm.md, "Serving"): a kernel of its own in vLLM and SGLang, fused
 * into the preceding RMSNorm by TensorRT-LLM.  Its cost is a fixed 4 us per
 * GEMM (aiconfigurator's H100 fp8_block table, llm_serve.c
 * FP8_ACT_QUANT_US).  Llama-3.1-8B (HF LlamaDecoderLayer: q, k, v, o, gate,
 * up, down = 7 Linear per layer, 32 layers; the LM head stays 16-bit) fp8 on
 * an H100, one decoding sequence: the vLLM step is the TensorRT-LLM step +
 * 7 x 32 x 4 us = 0.896 ms; the two engines have the same CPU side, so
 * nothing else differs.  bf16, and fp8 run weight-only on an A100 (16-bit
 * activations), quantise nothing: the engines agree. */
static void t_fp8_act_quant_by_engine(void) {
    dlp_error e = {0};
    dlp_llm_prediction v, t;
    dlp_llm_workload wl = {.batch = 1, .seq = 128, .gen_tokens = 128, .quant = DLP_QT_FP8, .n_gpus = 1,
                           .concurrency = 1, .phase = DLP_LLM_DECODE_ONLY, .engine = DLP_LLM_ENGINE_MODERN};
    const char *llama = "meta-llama/Llama-3.1-8B-Instruct";
    CHECK(serve(llama, "h100-sxm", wl, &v, &e) == DLP_OK);
    wl.engine = DLP_LLM_ENGINE_TRTLLM;
    CHECK(serve(llama, "h100-sxm", wl, &t, &e) == DLP_OK);
    CHECK_NEAR(v.decode_step_ms - t.decode_step_ms, 0.896, 1e-6);
    wl.engine = DLP_LLM_ENGINE_SGLANG;
    CHECK(serve(llama, "h100-sxm", wl, &v, &e) == DLP_OK);
    CHECK_NEAR(v.decode_step_ms - t.decode_step_ms, 0.896, 1e-6);
    const char *devs[] = {"h100-sxm", "a100-80gb"};
    int qs[] = {DLP_QT_BF16, DLP_QT_FP8};
    for (int i = 0; i < 2; i++) {
        wl.quant = qs[i];
        wl.engine = DLP_LLM_ENGINE_MODERN;
        CHECK(serve(llama, devs[i], wl, &v, &e) == DLP_OK);
        wl.engine = DLP_LLM_ENGINE_TRTLLM;
        CHECK(serve(llama, devs[i], wl, &t, &e) == DLP_OK);
        CHECK_NEAR(v.decode_step_ms, t.decode_step_ms, 1e-9);
    }
}

/* Weight-only 4-bit MoE experts (docs/llm.md, "Weight-only 4-bit MoE"):
 * per layer t0 + hit (c + slice / (eta BW)), t0 24.2 us, c 0.236 us, eta
 * 0.659, fitted on aiconfigurator's MoE kernel tables (tools/moe).  By hand,
 * Kimi-K2.5's layer on one H200 (no TP), one token: 8 experts hit, each
 * 3 x 7168 x 2048 int4 weights with a bf16 scale per 32 (0.5625 B) =
 * 24,772,608 B; 24,772,608 / (0.659 x 4.8e12) = 7.8315 us; so 24.2 + 8 x
 * (0.236 + 7.8315) = 88.74 us (the vLLM 0.24 Marlin table measures 97 us).
 * A matrix with a share of the expert's weights takes that share of the
 * fixed parts: gate and up (2/3) plus down (1/3) are the whole layer.
 * Which formats run W4A16: int4 always; mxfp4 and nvfp4 where the GPU has
 * no FP4 tensor cores (H200) and not on Blackwell (B200's FP4 cores);
 * never bf16 or fp8.  Kimi-K2.5 (60 MoE layers, 8 of 384 experts) on 8
 * B200 at one client: int4 (W4A16) and nvfp4 (FP4 tensor cores) read about
 * the same bytes (4.16 and 4.5 bits), but int4's experts now cost at least
 * 60 x (24.2 + 8 x 0.236) us = 1.57 ms a step, where nvfp4's are on the GEMM
 * curve (h121; since h137 on their own nvfp4 kernel, below); int4's step
 * exceeds nvfp4's (before the W4A16 model int4's step was the faster). */
static double expert_parts_s(const dlp_llm_config *c, const dlp_device *d, int quant, double n_dec, double n_pf);

/* the routed experts' GEMMs of a step's parts (lin_kind 1), s */
static double parts_experts_s(const dlp__llm_parts *p) {
    double t = 0;
    for (int i = 0; i < p->n_lin; i++)
        if (p->lin_kind[i] == 1) t += p->lin_s[i];
    return t;
}

static void t_w4a16_moe(void) {
    double slice = 3.0 * 7168 * 2048 * 0.5625;
    CHECK_NEAR(slice, 24772608.0, 1e-6);
    CHECK_NEAR(dlp__llm_w4a16_moe_s(8, 1.0, slice, 4.8e12) * 1e6, 88.74, 0.01);
    double parts = dlp__llm_w4a16_moe_s(8, 2.0 / 3, slice * 2 / 3, 4.8e12) +
                   dlp__llm_w4a16_moe_s(8, 1.0 / 3, slice / 3, 4.8e12);
    CHECK_NEAR(parts, dlp__llm_w4a16_moe_s(8, 1.0, slice, 4.8e12), 1e-15);
    CHECK(dlp__llm_w4a16_moe_s(8, 1.0, slice, 0) == 0);
    CHECK(dlp__llm_w4a16_moe_s(-1, 1.0, slice, 4.8e12) == 0);
    const dlp_device *h200 = dlp_devdb_find(db, "h200"), *b200 = dlp_devdb_find(db, "b200");
    CHECK(dlp__llm_w4a16_moe(h200, DLP_QT_INT4) && dlp__llm_w4a16_moe(b200, DLP_QT_INT4));
    CHECK(dlp__llm_w4a16_moe(h200, DLP_QT_MXFP4) && dlp__llm_w4a16_moe(h200, DLP_QT_NVFP4));
    CHECK(!dlp__llm_w4a16_moe(b200, DLP_QT_MXFP4) && !dlp__llm_w4a16_moe(b200, DLP_QT_NVFP4));
    CHECK(!dlp__llm_w4a16_moe(h200, DLP_QT_BF16) && !dlp__llm_w4a16_moe(h200, DLP_QT_FP8));
    dlp_error e = {0};
    dlp_llm_prediction i4, f4;
    dlp_llm_workload wl = {.batch = 1, .seq = 128, .gen_tokens = 128, .quant = DLP_QT_INT4, .n_gpus = 8,
                           .concurrency = 1, .phase = DLP_LLM_DECODE_ONLY};
    CHECK(serve("moonshotai/Kimi-K2.5", "b200", wl, &i4, &e) == DLP_OK);
    wl.quant = DLP_QT_NVFP4;
    CHECK(serve("moonshotai/Kimi-K2.5", "b200", wl, &f4, &e) == DLP_OK);
    /* since h137 nvfp4's experts on B200 take their own kernel (MOE_FITNV4):
     * by hand 60 x (15.7 + 8 x (0.133 + 24.77 MB / (1.283 x 8 TB/s))) us =
     * 2.16 ms against int4's 60 x (24.2 + 8 x (0.236 + 22.88 MB (0.5195 B a
     * weight) / (0.659 x 8 TB/s))) us = 3.65 ms: int4 stays the slower by at
     * least a quarter of that 1.49 ms gap (the rest of the step differs by
     * the attention weights' 4.16 against 4.5 bits) */
    /* the experts themselves (h147: nvfp4's dense GEMMs now cost the
     * measured fp4 op with its quantisation, which W4A16's do not, so the
     * whole steps are no longer the experts' comparison): one token on one
     * GPU, int4's 3.65 ms against nvfp4's 2.16 ms by hand above */
    dlp_llm_config kc;
    CHECK(dlp_llm_catalogue_get("moonshotai/Kimi-K2.5", &kc, &e) == DLP_OK);
    double xi4 = expert_parts_s(&kc, b200, DLP_QT_INT4, 1, 0), xf4 = expert_parts_s(&kc, b200, DLP_QT_NVFP4, 1, 0);
    CHECK((xi4 - xf4) * 1e3 >= 0.9 * 1.49);
    CHECK(i4.decode_step_ms > 0 && f4.decode_step_ms > 0);
    /* a dense model has no experts: int4 Llama is untouched by it */
    dlp_llm_workload wd = {.batch = 1, .seq = 128, .gen_tokens = 128, .quant = DLP_QT_INT4, .n_gpus = 1,
                           .concurrency = 1, .phase = DLP_LLM_DECODE_ONLY};
    dlp_llm_prediction d4;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h200", wd, &d4, &e) == DLP_OK);
    /* 6.98e9 Linear weights x 0.5195 B + 1.05e9 x 2 B at 4.8 TB/s ~ 1.2 ms:
     * no per-layer W4A16 module time (32 x 24.2 us = 0.77 ms) on top */
    CHECK(d4.decode_step_ms < 3.0);
}

/* 16-bit and fp8 MoE kernels (docs/llm.md, "16-bit and fp8 MoE kernels";
 * fitted per engine on aiconfigurator's tables by tools/moe/fit_16_fp8_moe.py:
 * vLLM 16-bit t0 20.6 us, c 0.276 us, eta 0.879; vLLM block fp8 30.4 us,
 * 0.102 us, 0.782; TensorRT-LLM block fp8 36.2 us, 1.027 us, 0.831).
 * By hand, one Qwen3-30B-A3B expert (hidden 2048, moe_intermediate 768:
 * 3 x 2048 x 768 = 4,718,592 weights) on an H200 (4.8 TB/s):
 *   vLLM bf16, 8 experts hit: 9,437,184 B / (0.879 x 4.8e12) = 2.2368 us,
 *     20.6 + 8 x (0.276 + 2.2368) = 40.70 us
 *   TensorRT-LLM fp8, 8 hit: 4,718,592 B / (0.831 x 4.8e12) = 1.1829 us,
 *     36.2 + 8 x (1.027 + 1.1829) = 53.88 us
 *   8 decode tokens on one H200 under vLLM, 128 experts, top 8: hit = 128
 *     (1 - (120/128)^8) = 51.62; bf16 a layer 20.6 + 51.62 x 2.5128 =
 *     150.31 us, x 48 MoE layers = 7.215 ms of expert matrices; fp8
 *     4,718,592 B / (0.782 x 4.8e12) = 1.2571 us, a layer 30.4 + 51.62 x
 *     1.3591 = 100.56 us, x 48 = 4.827 ms
 * The GEMM curve gives about the bytes at the DRAM peak there (bf16:
 * 51.62 x 9.44 MB / 4.8 TB/s = 101 us a layer), so the kernel rules.  Never
 * faster than the curve: a prefill of 8192 tokens hits every expert with 512
 * rows each, 2 x 8192 x 8 x 4,718,592 = 618 GFLOP a layer, >= 625 us at the
 * 989 TFLOPS peak, over the kernel's 20.6 + 128 x 2.5128 = 342.2 us: the
 * curve's time stands.  Which kernel: bf16/fp16 and fp8 (W8A8) on NVIDIA
 * tensor cores; none on AMD (the tables are NVIDIA kernels), for fp8 on an
 * A100 (no fp8 tensor cores: weight-only), for fp32 or nvfp4 on B200. */
static double expert_parts_s(const dlp_llm_config *c, const dlp_device *d, int quant, double n_dec, double n_pf) {
    dlp_llm_workload wl = {.quant = quant, .n_gpus = 1, .kv_dtype = DLP_DT_BFLOAT16, .engine = DLP_LLM_ENGINE_MODERN};
    int cdt = dlp_llm_compute_dtype(d, (dlp_quant)quant, NULL, 0);
    dlp__llm_parts p;
    dlp_error e = {0};
    if (dlp__llm_iter_parts(c, d, &wl, cdt, 2.0, n_dec, 1.0, n_pf, n_pf, &p, &e) != DLP_OK) return -1;
    return parts_experts_s(&p);
}

/* The experts' time of a decode step of 8 tokens under workload w (h227). */
static double trt_expert_parts_s(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *w) {
    int cdt = dlp_llm_compute_dtype(d, (dlp_quant)w->quant, NULL, 0);
    dlp__llm_parts p;
    dlp_error e = {0};
    if (dlp__llm_iter_parts(c, d, w, cdt, 2.0, 8, 1.0, 0, 0, &p, &e) != DLP_OK) return -1;
    return parts_experts_s(&p);
}

/* h242: SGLang's block-fp8 decode MoE on Hopper under the triton row
 * refit on the hits the collector's group-limited router made
 * (MOE_FITFP8_SGL_GROUPED_GEN[0]: 24.0, 0.120, 0.856; dlp__llm_knob.
 * moe_grouped 4, the default).  By hand, Qwen3-30B-A3B, one H200 (4.8
 * TB/s), 8 decode tokens: 128 (1 - (120/128)^8) = 51.617 experts hit; an
 * expert's fp8 slice 3 x 2048 x 768 = 4,718,592 B:
 *   mode 4: 0.120 + 4,718,592 / (0.856 x 4.8e12) s = 1.26839 us, a layer
 *     24.0 + 51.617 x 1.26839 = 89.471 us, x 48 = 4.2946 ms
 *   mode 0 (h227's MOE_FITFP8_HITS row, 23.5, 0.091, 0.902): 0.091 +
 *     1.08983 = 1.18083 us, 23.5 + 60.951 = 84.451 us, x 48 = 4.0537 ms
 *   mode 1 (the pooled grouped row, 22.5, 0.096, 0.816): 0.096 + 1.20470
 *     = 1.30070 us, 22.5 + 67.139 = 89.639 us, x 48 = 4.3027 ms
 * A B200 keeps mode 0's row under mode 4; TensorRT-LLM is unmoved. */
static void t_moe_grouped_by_hand(void) {
    int was = dlp__llm_knob.moe_grouped;
    const dlp_device *h200 = dlp_devdb_find(db, "h200"), *b200 = dlp_devdb_find(db, "b200");
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(h200 && b200 && dlp_llm_catalogue_get("Qwen/Qwen3-30B-A3B-Instruct-2507", &c, &e) == DLP_OK);
    if (!h200 || !b200) return;
    dlp_llm_workload w = {.quant = DLP_QT_FP8, .n_gpus = 1, .kv_dtype = DLP_DT_BFLOAT16, .engine = DLP_LLM_ENGINE_SGLANG};
    dlp_llm_workload wt = w;
    wt.engine = DLP_LLM_ENGINE_TRTLLM;
    dlp__llm_knob.moe_grouped = 0;
    double h0 = trt_expert_parts_s(&c, h200, &w), b0 = trt_expert_parts_s(&c, b200, &w);
    double t0 = trt_expert_parts_s(&c, h200, &wt);
    dlp__llm_knob.moe_grouped = 1;
    double h1 = trt_expert_parts_s(&c, h200, &w);
    dlp__llm_knob.moe_grouped = 4;
    double h4 = trt_expert_parts_s(&c, h200, &w), b4 = trt_expert_parts_s(&c, b200, &w);
    double t4 = trt_expert_parts_s(&c, h200, &wt);
    dlp__llm_knob.moe_grouped = was;
    /* 2 % covers the round counts of the config (as t_moe_16_fp8_kernels) */
    CHECK_NEAR(h0 * 1e3, 4.0537, 0.02 * 4.0537);
    CHECK_NEAR(h1 * 1e3, 4.3027, 0.02 * 4.3027);
    CHECK_NEAR(h4 * 1e3, 4.2946, 0.02 * 4.2946);
    CHECK_NEAR(b4, b0, 1e-12);
    CHECK_NEAR(t4, t0, 1e-12);
}

static void t_moe_16_fp8_kernels(void) {
    int hits_was = dlp__llm_knob.moe_hits_fit; /* the defaults' h227 mode, restored below */
    dlp__llm_knob.moe_hits_fit = 0;
    const dlp_device *h200 = dlp_devdb_find(db, "h200"), *b200 = dlp_devdb_find(db, "b200");
    const dlp_device *a100 = dlp_devdb_find(db, "a100"), *mi300 = dlp_devdb_find(db, "mi300x");
    double slice = 3.0 * 2048 * 768 * 2.0;
    const int V = DLP_LLM_ENGINE_MODERN, TR = DLP_LLM_ENGINE_TRTLLM;
    CHECK_NEAR(dlp__llm_moe_kernel_s(DLP__MOEK_16, V, 8, 1.0, slice, 4.8e12) * 1e6, 40.70, 0.01);
    CHECK_NEAR(dlp__llm_moe_kernel_s(DLP__MOEK_FP8, TR, 8, 1.0, slice / 2, 4.8e12) * 1e6, 53.88, 0.01);
    CHECK(dlp__llm_moe_kernel_s(DLP__MOEK_NONE, V, 8, 1.0, slice, 4.8e12) == 0);
    CHECK(dlp__llm_moe_kernel_s(DLP__MOEK_NVFP4 + 1, V, 8, 1.0, slice, 4.8e12) == 0);
    CHECK(dlp__llm_moe_kernel_s(DLP__MOEK_16, 99, 8, 1.0, slice, 4.8e12) == 0);
    CHECK(dlp__llm_moe_kernel_s(DLP__MOEK_16, V, 8, 1.0, slice, 0) == 0);
    CHECK(dlp__llm_moe_kernel(h200, DLP_QT_BF16) == DLP__MOEK_16);
    CHECK(dlp__llm_moe_kernel(h200, DLP_QT_FP16) == DLP__MOEK_16);
    CHECK(dlp__llm_moe_kernel(h200, DLP_QT_FP8) == DLP__MOEK_FP8);
    CHECK(dlp__llm_moe_kernel(b200, DLP_QT_FP8) == DLP__MOEK_FP8);
    CHECK(dlp__llm_moe_kernel(h200, DLP_QT_INT4) == DLP__MOEK_W4A16);
    CHECK(dlp__llm_moe_kernel(b200, DLP_QT_NVFP4) == DLP__MOEK_NVFP4);
    CHECK(dlp__llm_moe_kernel(h200, DLP_QT_FP32) == DLP__MOEK_NONE);
    CHECK(a100 && dlp__llm_moe_kernel(a100, DLP_QT_FP8) == DLP__MOEK_NONE);
    CHECK(mi300 && dlp__llm_moe_kernel(mi300, DLP_QT_BF16) == DLP__MOEK_NONE);
    CHECK(dlp__llm_moe_kernel(NULL, DLP_QT_BF16) == DLP__MOEK_NONE);
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("Qwen/Qwen3-30B-A3B-Instruct-2507", &c, &e) == DLP_OK);
    /* 2 % covers the round counts of the config (as t_w4a16_floor_by_hand) */
    double bf = expert_parts_s(&c, h200, DLP_QT_BF16, 8, 0), f8 = expert_parts_s(&c, h200, DLP_QT_FP8, 8, 0);
    CHECK_NEAR(bf * 1e3, 7.215, 0.02 * 7.215);
    CHECK_NEAR(f8 * 1e3, 4.827, 0.02 * 4.827);
    /* prefill: the curve's time, above the kernel's 48 x 342.2 us */
    double pf = expert_parts_s(&c, h200, DLP_QT_BF16, 0, 8192);
    CHECK(pf * 1e6 > 48 * 625.0);
    /* h227's what-if, the refit on the tables' true hits (MOE_FIT16_HITS /
     * MOE_FITFP8_HITS, vLLM): by hand, the same 51.615 experts hit of 8
     * tokens; bf16 per expert 0.169 + 9,437,184 / (1.017 x 4.8e12) s =
     * 2.10218 us, a layer 23.1 + 51.615 x 2.10218 = 131.604 us, x 48 =
     * 6.317 ms (was 7.215); fp8 0.021 + 4,718,592 / (0.922 x 4.8e12) s =
     * 1.08720 us, 33.3 + 51.615 x 1.08720 = 89.416 us, x 48 = 4.292 ms.  The
     * prompt step keeps the engine's row: unchanged. */
    dlp__llm_knob.moe_hits_fit = 1;
    double bf_h = expert_parts_s(&c, h200, DLP_QT_BF16, 8, 0), f8_h = expert_parts_s(&c, h200, DLP_QT_FP8, 8, 0);
    double pf_h = expert_parts_s(&c, h200, DLP_QT_BF16, 0, 8192);
    dlp__llm_knob.moe_hits_fit = 0;
    CHECK_NEAR(bf_h * 1e3, 6.317, 0.02 * 6.317);
    CHECK_NEAR(f8_h * 1e3, 4.292, 0.02 * 4.292);
    CHECK_NEAR(pf_h, pf, 1e-12);
    CHECK_NEAR(expert_parts_s(&c, h200, DLP_QT_BF16, 8, 0), bf, 1e-12); /* off again */
    /* mode 5 (the default): vLLM's 16-bit refit left out (its bandwidth
     * share 1.017 is past the DRAM peak), its fp8 refit kept: 7.215 and
     * 4.292 ms by hand as above */
    dlp__llm_knob.moe_hits_fit = 5;
    CHECK_NEAR(expert_parts_s(&c, h200, DLP_QT_BF16, 8, 0), bf, 1e-12);
    CHECK_NEAR(expert_parts_s(&c, h200, DLP_QT_FP8, 8, 0) * 1e3, 4.292, 0.02 * 4.292);
    dlp__llm_knob.moe_hits_fit = 0;
    /* mode 3: TensorRT-LLM's block fp8 on Hopper under EP from its EP rows
     * (MOE_FITFP8_TRT_EP_HITS: 24.0, 0.507, 0.903).  By hand, 2 x H100 (3.35
     * TB/s), EP 2, 8 decode tokens: 64 (1 - (120/128)^8) = 25.811 local
     * experts hit; per expert 0.507 + 4,718,592 / (0.903 x 3.35e12) s =
     * 0.507 + 1.55984 = 2.06684 us, a layer 24.0 + 25.811 x 2.06684 =
     * 77.347 us, x 48 = 3.713 ms; EP 1 keeps the engine's row. */
    const dlp_device *h100 = dlp_devdb_find(db, "h100");
    CHECK(h100 != NULL);
    if (h100) {
        dlp_llm_workload w2 = {.quant = DLP_QT_FP8, .n_gpus = 2, .ep = 2, .kv_dtype = DLP_DT_BFLOAT16,
                               .engine = DLP_LLM_ENGINE_TRTLLM};
        dlp_llm_workload w1 = w2;
        w1.ep = 1;
        double ep_off = trt_expert_parts_s(&c, h100, &w2), one_off = trt_expert_parts_s(&c, h100, &w1);
        dlp__llm_knob.moe_hits_fit = 3;
        double ep_on = trt_expert_parts_s(&c, h100, &w2), one_on = trt_expert_parts_s(&c, h100, &w1);
        dlp__llm_knob.moe_hits_fit = 0;
        CHECK_NEAR(ep_on * 1e3, 3.713, 0.02 * 3.713);
        CHECK(ep_on < ep_off);
        CHECK_NEAR(one_on, one_off, 1e-12);
    }
    dlp__llm_knob.moe_hits_fit = hits_was;
}

/* TensorRT-LLM's TRTLLM MoE backend on Blackwell (h188, MOE_FITFP8_TRTGEN
 * from tools/moe/fit_trtllm_gen_fp8_moe.py: t0 20.0 us, c 0.164 us, eta
 * 0.803).  By hand, Qwen3-30B-A3B (48 MoE layers, 128 experts, top 8, an
 * expert 3 x 2048 x 768 weights, 4,718,592 B in fp8) on one B200 (8 TB/s),
 * 8 decode tokens: 128 (1 - (120/128)^8) = 51.615 experts hit; per expert
 * 0.164 + 4,718,592 / (0.803 x 8e12) s = 0.164 + 0.73452 = 0.89852 us, a
 * layer 20.0 + 51.615 x 0.89852 = 66.377 us, x 48 = 3.186 ms; the engine's
 * DEEPGEMM fit on Blackwell (h205, MOE_FITFP8_TRT_BW: 38.8, 1.019, 0.652):
 * 4,718,592 / (0.652 x 8e12) s = 0.90464 us, 38.8 + 51.615 x (1.019 +
 * 0.90464) = 138.09 us, x 48 = 6.628 ms (h188's pooled row, 36.2, 1.027,
 * 0.831, gave 6.040).  The GEMM curve is below both (51.615 x 4.72 MB /
 * 8 TB/s = 30.4 us a layer).  A step with a prompt keeps the engine's fit,
 * an H200 (Hopper) does not move, another engine refuses. */
static double expert_parts_trt_s(const dlp_llm_config *c, const dlp_device *d, int gen, double n_dec, double n_pf) {
    dlp_llm_workload wl = {.quant = DLP_QT_FP8, .n_gpus = 1, .kv_dtype = DLP_DT_BFLOAT16,
                           .engine = DLP_LLM_ENGINE_TRTLLM, .moe_trtllm_gen = gen};
    int cdt = dlp_llm_compute_dtype(d, DLP_QT_FP8, NULL, 0);
    dlp__llm_parts p;
    dlp_error e = {0};
    if (dlp__llm_iter_parts(c, d, &wl, cdt, 2.0, n_dec, 1.0, n_pf, n_pf, &p, &e) != DLP_OK) return -1;
    return parts_experts_s(&p);
}

static void t_trtllm_gen_moe_by_hand(void) {
    const dlp_device *b200 = dlp_devdb_find(db, "b200"), *h200 = dlp_devdb_find(db, "h200");
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("Qwen/Qwen3-30B-A3B-Instruct-2507", &c, &e) == DLP_OK);
    /* 2 % covers the round counts of the config (as t_moe_16_fp8_kernels) */
    CHECK_NEAR(expert_parts_trt_s(&c, b200, 1, 8, 0) * 1e3, 3.186, 0.02 * 3.186);
    CHECK_NEAR(expert_parts_trt_s(&c, b200, 0, 8, 0) * 1e3, 6.628, 0.02 * 6.628);
    double pf0 = expert_parts_trt_s(&c, b200, 0, 8, 1024), pf1 = expert_parts_trt_s(&c, b200, 1, 8, 1024);
    CHECK(pf0 > 0 && fabs(pf1 - pf0) <= 1e-12 * pf0);
    double h0 = expert_parts_trt_s(&c, h200, 0, 8, 0), h1 = expert_parts_trt_s(&c, h200, 1, 8, 0);
    CHECK(h0 > 0 && fabs(h1 - h0) <= 1e-12 * h0);
    /* through the serving model: TPOT falls, another engine is refused */
    dlp_llm_prediction p0, p1;
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 1024, .quant = DLP_QT_FP8, .n_gpus = 8,
                           .concurrency = 4, .engine = DLP_LLM_ENGINE_TRTLLM};
    CHECK(serve("deepseek-ai/DeepSeek-R1", "b200", wl, &p0, &e) == DLP_OK);
    wl.moe_trtllm_gen = 1;
    CHECK(serve("deepseek-ai/DeepSeek-R1", "b200", wl, &p1, &e) == DLP_OK);
    CHECK(p1.tpot_ms < p0.tpot_ms);
    wl.engine = DLP_LLM_ENGINE_SGLANG;
    CHECK(serve("deepseek-ai/DeepSeek-R1", "b200", wl, &p1, &e) == DLP_EINVAL);
    CHECK(strstr(e.msg, "trtllm") != NULL);
}

/* TensorRT-LLM's block-fp8 experts by GPU generation (issue 22, h205):
 * DeepGEMM on Blackwell (MOE_FITFP8_TRT_BW: t0 38.8 us, c 1.019 us, eta
 * 0.652, tools/moe/fit_16_fp8_moe.py by_generation), the pooled row (36.2,
 * 1.027, 0.831) on Hopper.  By hand, Qwen3-30B-A3B (48 MoE layers, 128
 * experts, top 8, an expert 4,718,592 B in fp8), 8 decode tokens on one
 * GPU: 51.615 experts hit (t_trtllm_gen_moe_by_hand).
 *   H200 (4.8 TB/s, Hopper): 4,718,592 / (0.831 x 4.8e12) s = 1.18292 us,
 *     36.2 + 51.615 x (1.027 + 1.18292) = 150.27 us, x 48 = 7.213 ms.
 *   B300 and GB200 (8 TB/s, Blackwell, not in the kernel table): B200's
 *     6.628 ms.
 *   DeepSeek-R1 on one B200 of an EP 8 attention-DP worker, one decode
 *     sequence a rank (8 tokens all-gathered, rows 8 x 8 / 8 = 8 a rank):
 *     32 local experts, 32 (1 - (248/256)^8) = 7.1775 hit; an expert 3 x
 *     7168 x 2048 = 44,040,192 B, / (0.652 x 8e12) s = 8.4433 us; a layer
 *     38.8 + 7.1775 x (1.019 + 8.4433) = 106.72 us, x 58 MoE layers =
 *     6.190 ms (the pooled row: 36.2 + 7.1775 x (1.027 + 6.6246) = 91.12
 *     us, 5.285 ms).
 * vLLM and SGLang keep their rows on Blackwell. */
/* The absorbed MLA decode kernel's math floor (llm_serve.c mla_dec_math_s,
 * docs/llm.md "h229"; bench --mla-dec-math 1, off by default).  By hand,
 * DeepSeek-R1 (61 layers, 128 heads, kv_lora_rank 512, rope 64) on an 8-GPU
 * attention-DP 8 worker (each rank all 128 heads), 1,024 sequences (128 a
 * rank) at context 8,704: per rank 128 x 8,704 x 61 = 67,960,832 cached
 * token-layers, each 2 x 128 x (2 x 512 + 64) = 278,528 FLOPs:
 * 1.8928995e13 FLOPs.  B200, fp8 cache: at 0.422 of the 4,500 TFLOPS fp8
 * peak, 9.967875 ms (the cache's bytes, 67,960,832 x 576 B at 0.85 of 8 TB/s,
 * 5.76 ms plus the floors: under it).  H200, bf16 cache: 0.562 of 989.4
 * TFLOPS bf16, 34.042334 ms (bytes 19.2 ms).  Switch off: under both. */
static double mla_dec_attn_ms(const char *dev, double kv_eb) {
    dlp_llm_config ds;
    dlp_error e = {0};
    const dlp_device *d = dlp_devdb_find(db, dev);
    if (!d || dlp_llm_catalogue_get("deepseek-ai/DeepSeek-R1", &ds, &e) != DLP_OK) return -1;
    dlp_llm_workload wl = {.quant = DLP_QT_FP8, .n_gpus = 8, .ep = 8, .attn_dp = 8,
                           .kv_dtype = kv_eb < 2 ? DLP_DT_FLOAT8E4M3FN : DLP_DT_BFLOAT16,
                           .phase = DLP_LLM_DECODE_ONLY, .engine = DLP_LLM_ENGINE_TRTLLM};
    dlp__llm_parts p;
    if (dlp__llm_iter_parts(&ds, d, &wl, dlp_llm_compute_dtype(d, DLP_QT_FP8, NULL, 0), kv_eb, 1024, 8704, 0, 0, &p,
                            &e) != DLP_OK)
        return -1;
    return p.attn_dec_s * 1e3;
}

static void t_mla_dec_math_by_hand(void) {
    int was = dlp__llm_knob.mla_dec_math; /* on by default (h229); off for the "before" figures */
    int gen_was = dlp__llm_knob.mla_gen_mod; /* h236's module floor sits in the same part: off here */
    dlp__llm_knob.mla_gen_mod = 0;
    dlp__llm_knob.mla_dec_math = 0;
    double off_b = mla_dec_attn_ms("b200", 1.0), off_h = mla_dec_attn_ms("h200", 2.0);
    dlp__llm_knob.mla_dec_math = 1;
    CHECK_NEAR(mla_dec_attn_ms("b200", 1.0), 9.967875, 1e-5);
    CHECK_NEAR(mla_dec_attn_ms("h200", 2.0), 34.042334, 1e-5);
    dlp__llm_knob.mla_dec_math = 0;
    printf("  MLA decode attention, DeepSeek-R1 128 seqs a rank at 8,704: B200 %.3f ms off, H200 %.3f ms off\n", off_b, off_h);
    CHECK(off_b > 5.0 && off_b < 9.0);
    CHECK(off_h > 15.0 && off_h < 30.0);
    dlp__llm_knob.mla_dec_math = was;
    dlp__llm_knob.mla_gen_mod = gen_was;
}

/* DeepSeek-R1 on 8 x `dev`, TensorRT-LLM fp8, TP 8 attention, EP 8, one
 * sequence decoding at 1,024: the step's parts. */
static int ds_tp8_decode_parts(const char *dev, int engine, dlp__llm_parts *p) {
    dlp_llm_config ds;
    dlp_error e = {0};
    const dlp_device *d = dlp_devdb_find(db, dev);
    if (!d || dlp_llm_catalogue_get("deepseek-ai/DeepSeek-R1", &ds, &e) != DLP_OK) return -1;
    dlp_llm_workload wl = {.quant = DLP_QT_FP8, .n_gpus = 8, .ep = 8, .attn_dp = 1, .kv_dtype = DLP_DT_FLOAT8E4M3FN,
                           .phase = DLP_LLM_DECODE_ONLY, .engine = engine};
    return (int)dlp__llm_iter_parts(&ds, d, &wl, dlp_llm_compute_dtype(d, DLP_QT_FP8, NULL, 0), 1.0, 1, 1024, 0, 0, p,
                                    &e);
}

/* The MLA attention GEMMs' seconds in p (DeepSeek-R1's five: q_a, kv_a,
 * q_b, the latent up-projection, o_proj; picked by shape). */
static double ds_attn_lin_s(const dlp__llm_parts *p) {
    static const double KN[5][2] = {{7168, 1536}, {7168, 576}, {1536, 24576}, {512, 32768}, {16384, 7168}};
    double t = 0;
    for (int i = 0; i < p->n_lin; i++)
        for (int j = 0; j < 5; j++)
            if (p->lin_kind[i] == 0 && p->lin_k[i] == KN[j][0] && p->lin_n[i] == KN[j][1]) t += p->lin_s[i];
    return t;
}

/* TensorRT-LLM's MLA generation module floor (h236, MLA_GEN_MOD Hopper
 * {26.07 us, 0.733, 0.835} from tools/attn/fit_mla_gen_module.py).  By
 * hand, DeepSeek-R1 at 16 heads a rank (TP 8): W = 7168 x (1536 + 512 +
 * 64) + 16 x (1536 x 192 + 512 x 256 + 128 x 7168) = 15,138,816 + 16 x
 * 1,343,488 = 36,634,624 bytes; one query token on an H200 (4.8 TB/s,
 * 1,978.9 fp8 TFLOPS): 26.07 + 36,634,624 / (0.733 x 4.8e12) s (10.41238
 * us) + 2 x 36,634,624 / (0.835 x 1.9789e15) s (0.04434 us) = 36.52664 us
 * a layer, x 61 = 2.228125 ms.  The step gains that less what its
 * attention GEMMs already cost.  Blackwell (mode 2, the default) and
 * SGLang do not move. */
static void t_mla_gen_module_by_hand(void) {
    int was = dlp__llm_knob.mla_gen_mod;
    dlp__llm_parts off, on;
    dlp__llm_knob.mla_gen_mod = 0;
    CHECK(ds_tp8_decode_parts("h200", DLP_LLM_ENGINE_TRTLLM, &off) == 0);
    dlp__llm_knob.mla_gen_mod = 2;
    CHECK(ds_tp8_decode_parts("h200", DLP_LLM_ENGINE_TRTLLM, &on) == 0);
    double lin = ds_attn_lin_s(&off);
    printf("  H200 TP 8, one sequence: attention GEMMs %.4f ms, module floor adds %.4f ms\n", lin * 1e3,
           (on.attn_dec_s - off.attn_dec_s) * 1e3);
    CHECK(lin > 0.2e-3 && lin < 2.0e-3);
    CHECK_NEAR((on.attn_dec_s - off.attn_dec_s) * 1e3, 2.228125 - lin * 1e3, 1e-5);
    CHECK_NEAR(on.total_s - off.total_s, on.attn_dec_s - off.attn_dec_s, 1e-12);
    /* mode 2: Blackwell and other engines as before */
    CHECK(ds_tp8_decode_parts("b200", DLP_LLM_ENGINE_TRTLLM, &on) == 0);
    dlp__llm_knob.mla_gen_mod = 0;
    CHECK(ds_tp8_decode_parts("b200", DLP_LLM_ENGINE_TRTLLM, &off) == 0);
    CHECK_NEAR(on.total_s, off.total_s, 1e-15);
    CHECK(ds_tp8_decode_parts("h200", DLP_LLM_ENGINE_SGLANG, &off) == 0);
    dlp__llm_knob.mla_gen_mod = 2;
    CHECK(ds_tp8_decode_parts("h200", DLP_LLM_ENGINE_SGLANG, &on) == 0);
    CHECK_NEAR(on.total_s, off.total_s, 1e-15);
    dlp__llm_knob.mla_gen_mod = was;
}

/* GLM-5 on 8 x `dev`, SGLang fp8, TP 8 attention (8 heads a GPU), a
 * 16-bit cache (kv_eb 2, what the H200 runs ran, h242), one sequence
 * decoding at 1,024: the step's parts. */
static int glm5_tp8_decode_parts(const char *dev, dlp__llm_parts *p) {
    dlp_llm_config g;
    dlp_error e = {0};
    const dlp_device *d = dlp_devdb_find(db, dev);
    if (!d || dlp_llm_catalogue_get("zai-org/GLM-5", &g, &e) != DLP_OK) return -1;
    dlp_llm_workload wl = {.quant = DLP_QT_FP8, .n_gpus = 8, .ep = 8, .attn_dp = 1, .kv_dtype = DLP_DT_BFLOAT16,
                           .phase = DLP_LLM_DECODE_ONLY, .engine = DLP_LLM_ENGINE_SGLANG};
    return (int)dlp__llm_iter_parts(&g, d, &wl, dlp_llm_compute_dtype(d, DLP_QT_FP8, NULL, 0), 2.0, 1, 1024, 0, 0, p,
                                    &e);
}

/* GLM-5's attention GEMMs' seconds in p: its first eight (q_a, kv_a, the
 * indexer's wk and weights_proj, q_b, the indexer's wq_b, the latent
 * up-projection, o_proj), checked by shape. */
static double glm5_attn_lin_s(const dlp__llm_parts *p) {
    static const double KN[8][2] = {{6144, 2048}, {6144, 576}, {6144, 128}, {6144, 32},
                                    {2048, 16384}, {2048, 4096}, {512, 28672}, {16384, 6144}};
    double t = 0;
    for (int j = 0; j < 8; j++) {
        if (j >= p->n_lin || p->lin_kind[j] != 0 || p->lin_k[j] != KN[j][0] || p->lin_n[j] != KN[j][1]) return -1;
        t += p->lin_s[j];
    }
    return t;
}

/* SGLang's front end on the B300 fleet (h248, --sgl-b300-req-ms, off by
 * default).  By hand: one client on Llama-3.1-8B bf16, 1,024 + 256, finds
 * the engine idle, so TTFT = prefill + request_ms (as above); with the knob
 * at 62 ms the B300 SGLang request_ms is 62 instead of REQ_FIT_SGLANG_MS's
 * 149.4, the TTFT exactly 149.4 - 62 = 87.4 ms lower and the TPOT equal;
 * a B200 SGLang run keeps 149.4, a B300 TensorRT-LLM run 46.8. */
static void t_sgl_b300_req_by_hand(void) {
    dlp_error e = {0};
    double was = dlp__llm_knob.sgl_b300_req_ms;
    dlp_llm_prediction off, on, b200, trt;
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 1, .max_seqs = 256, .engine = DLP_LLM_ENGINE_SGLANG};
    const char *m = "meta-llama/Llama-3.1-8B-Instruct";
    dlp__llm_knob.sgl_b300_req_ms = 0;
    CHECK(serve(m, "b300", wl, &off, &e) == DLP_OK);
    dlp__llm_knob.sgl_b300_req_ms = 62;
    CHECK(serve(m, "b300", wl, &on, &e) == DLP_OK);
    CHECK(serve(m, "b200", wl, &b200, &e) == DLP_OK);
    wl.engine = DLP_LLM_ENGINE_TRTLLM;
    CHECK(serve(m, "b300", wl, &trt, &e) == DLP_OK);
    dlp__llm_knob.sgl_b300_req_ms = was;
    CHECK_NEAR(off.request_ms, 149.4, 1e-12);
    CHECK_NEAR(on.request_ms, 62.0, 1e-12);
    CHECK_NEAR(on.ttft_ms, on.prefill_ms + 62.0, 1e-9 * on.ttft_ms);
    CHECK_NEAR(off.ttft_ms - on.ttft_ms, 87.4, 1e-9);
    CHECK_NEAR(off.tpot_ms, on.tpot_ms, 1e-12);
    CHECK_NEAR(b200.request_ms, 149.4, 1e-12);
    CHECK_NEAR(trt.request_ms, 46.8, 1e-12);
}

/* SGLang's DSA generation module floor (h245, DSA_GEN_MOD Hopper {85.46 us,
 * 0.590, 0.363, 0.851} from tools/attn/fit_dsa_gen_module.py 0.5.10).  By
 * hand, GLM-5 at 8 heads a rank: W = 6144 x (2048 + 512 + 64) + 2048 x 32 x
 * 128 + 6144 x 128 + 6144 x 32 + 8 x (2048 x 256 + 512 x 448 + 256 x 6144)
 * = 16,121,856 + 9,371,648 + 18,612,224 = 44,105,728 bytes; K = 1,024 x
 * (128 + 4) + 1,024 x 576 x 2 = 1,314,816 bytes; one sequence on an H200
 * (4.8 TB/s, 1,978.9 fp8 TFLOPS): 85.46 + 44,105,728 / (0.590 x 4.8e12) s
 * (15.574056 us) + 2 x 44,105,728 / (0.363 x 1.9789e15) s (0.122799 us)
 * + 1,314,816 / (0.851 x 4.8e12) s (0.321880 us) = 101.478736 us a layer,
 * x 78 = 7.915341 ms: the attention GEMMs and the decode attention together
 * are lifted to it.  Blackwell under mode 1 (Hopper only) and DeepSeek-R1
 * (MLA, no indexer) do not move. */
static void t_dsa_gen_module_by_hand(void) {
    int was = dlp__llm_knob.dsa_gen_mod;
    dlp__llm_parts off, on;
    dlp__llm_knob.dsa_gen_mod = 0;
    CHECK(glm5_tp8_decode_parts("h200", &off) == 0);
    dlp__llm_knob.dsa_gen_mod = 3;
    CHECK(glm5_tp8_decode_parts("h200", &on) == 0);
    double lin = glm5_attn_lin_s(&off);
    printf("  GLM-5 H200 TP 8, one sequence: attention GEMMs %.4f ms, decode attention %.4f -> %.4f ms\n", lin * 1e3,
           off.attn_dec_s * 1e3, on.attn_dec_s * 1e3);
    CHECK(lin > 1e-3 && lin + off.attn_dec_s < 7.915341e-3);
    CHECK_NEAR((lin + on.attn_dec_s) * 1e3, 7.915341, 1e-5);
    CHECK_NEAR(on.total_s - off.total_s, on.attn_dec_s - off.attn_dec_s, 1e-12);
    /* mode 1: Blackwell as off */
    dlp__llm_knob.dsa_gen_mod = 1;
    CHECK(glm5_tp8_decode_parts("b200", &on) == 0);
    dlp__llm_knob.dsa_gen_mod = 0;
    CHECK(glm5_tp8_decode_parts("b200", &off) == 0);
    CHECK_NEAR(on.total_s, off.total_s, 1e-15);
    /* DeepSeek-R1 runs MLA without an indexer: no DSA floor */
    CHECK(ds_tp8_decode_parts("h200", DLP_LLM_ENGINE_SGLANG, &off) == 0);
    dlp__llm_knob.dsa_gen_mod = 3;
    CHECK(ds_tp8_decode_parts("h200", DLP_LLM_ENGINE_SGLANG, &on) == 0);
    CHECK_NEAR(on.total_s, off.total_s, 1e-15);
    dlp__llm_knob.dsa_gen_mod = was;
}

/* SGLang's MLA prefill attention op floor (h241, --sgl-fmha, off by
 * default; SGL_FMHA Blackwell fp8 KV {28.60 us, 0.691 ns, 1.0071} from
 * tools/attn/fit_sgl_fmha.py).  By hand, DeepSeek-R1 on 8 x B200, TP 8 (16
 * heads a GPU), one 1,024-token prompt: 28.60 us + 0.691 ns x 1,024 x 16
 * (11.321344 us) + 1,024^2 x 16 x 320 FLOPs / (1.0071 x 2,250 TFLOPS)
 * (2.369293 us) = 42.290637 us a layer, x 61 = 2.579728 ms, the prompt's
 * attention part (the library's own FMHA is under it).  Off: under it;
 * Hopper at mode 1 (Blackwell only) as off. */
static int ds_tp8_prefill_parts(const char *dev, dlp__llm_parts *p) {
    dlp_llm_config ds;
    dlp_error e = {0};
    const dlp_device *d = dlp_devdb_find(db, dev);
    if (!d || dlp_llm_catalogue_get("deepseek-ai/DeepSeek-R1", &ds, &e) != DLP_OK) return -1;
    dlp_llm_workload wl = {.quant = DLP_QT_FP8, .n_gpus = 8, .ep = 8, .attn_dp = 1, .kv_dtype = DLP_DT_FLOAT8E4M3FN,
                           .phase = DLP_LLM_PREFILL_ONLY, .engine = DLP_LLM_ENGINE_SGLANG};
    return (int)dlp__llm_iter_parts(&ds, d, &wl, dlp_llm_compute_dtype(d, DLP_QT_FP8, NULL, 0), 1.0, 0, 1.0, 1024,
                                    1024, p, &e);
}

static void t_sgl_fmha_by_hand(void) {
    int was = dlp__llm_knob.sgl_fmha;
    dlp__llm_parts off, on;
    dlp__llm_knob.sgl_fmha = 0;
    CHECK(ds_tp8_prefill_parts("b200", &off) == 0);
    dlp__llm_knob.sgl_fmha = 1;
    CHECK(ds_tp8_prefill_parts("b200", &on) == 0);
    printf("  B200 TP 8, one 1k prompt: attention %.4f ms off, %.4f ms on\n", off.attn_pf_s * 1e3, on.attn_pf_s * 1e3);
    CHECK(off.attn_pf_s * 1e3 < 2.579728);
    CHECK_NEAR(on.attn_pf_s * 1e3, 2.579728, 1e-5);
    CHECK_NEAR(on.total_s - off.total_s, on.attn_pf_s - off.attn_pf_s, 1e-12);
    dlp__llm_knob.sgl_fmha = 0;
    CHECK(ds_tp8_prefill_parts("h200", &off) == 0);
    dlp__llm_knob.sgl_fmha = 1;
    CHECK(ds_tp8_prefill_parts("h200", &on) == 0);
    CHECK_NEAR(on.total_s, off.total_s, 1e-15);
    dlp__llm_knob.sgl_fmha = was;
}

/* SGLang's fused MoE at prefill sizes with its routed rows (h241's check of
 * the term h244 landed first: --sgl-moe-rows, off by default, bit 2 Hopper
 * fp8; MOE_PF_ROWS_SGL Hopper fp8 {66.9 us, 0.358, 10.16}, the same fit as
 * h241's tools/moe/fit_moe_prefill.py --rows-sglang, whose fuller digits
 * {66.92, 0.3583, 10.16} give 272.5595 ms).  By hand, DeepSeek-R1 on 8 x
 * H200, TP 8, EP 1, a step of 16,384 prompt tokens: rows a GPU 16,384 x 8 =
 * 131,072, x the busiest-rank factor at EP 1 (1 + 0.1512) = 150,890.1; per
 * MoE layer 66.9 us + 2 x 150,890.1 x 3 x 7,168 x 2,048 / 8 FLOPs / (0.358 x
 * 1,978.9 TFLOPS) (2.345 ms) + 10.16 x 150,890.1 x 7,168 B / 4.8 TB/s
 * (2.289 ms) = 4.701246 ms, x 58 = 272.6723 ms over the three expert
 * matrices.  Off: the two-term fit's, less. */
static int ds_h200_tp8_pf_parts(dlp__llm_parts *p) {
    dlp_llm_config ds;
    dlp_error e = {0};
    const dlp_device *d = dlp_devdb_find(db, "h200");
    if (!d || dlp_llm_catalogue_get("deepseek-ai/DeepSeek-R1", &ds, &e) != DLP_OK) return -1;
    dlp_llm_workload wl = {.quant = DLP_QT_FP8, .n_gpus = 8, .ep = 1, .attn_dp = 1, .kv_dtype = DLP_DT_BFLOAT16,
                           .phase = DLP_LLM_PREFILL_ONLY, .engine = DLP_LLM_ENGINE_SGLANG};
    return (int)dlp__llm_iter_parts(&ds, d, &wl, dlp_llm_compute_dtype(d, DLP_QT_FP8, NULL, 0), 2.0, 0, 1.0,
                                    16384, 1024, p, &e);
}

static double sgl_expert_parts_s(const dlp__llm_parts *p) {
    double t = 0;
    for (int i = 0; i < p->n_lin; i++)
        if (p->lin_kind[i] == 1) t += p->lin_s[i];
    return t;
}

static void t_sgl_moe_rows_by_hand(void) {
    int was = dlp__llm_knob.sgl_moe_rows;
    dlp__llm_parts off, on;
    dlp__llm_knob.sgl_moe_rows = 0;
    CHECK(ds_h200_tp8_pf_parts(&off) == 0);
    dlp__llm_knob.sgl_moe_rows = 2; /* h244's bit for Hopper fp8 */
    CHECK(ds_h200_tp8_pf_parts(&on) == 0);
    printf("  H200 TP 8, 16,384 prompt tokens: experts %.3f ms off, %.3f ms on\n", sgl_expert_parts_s(&off) * 1e3,
           sgl_expert_parts_s(&on) * 1e3);
    CHECK(sgl_expert_parts_s(&off) * 1e3 < 272.6723);
    CHECK_NEAR(sgl_expert_parts_s(&on) * 1e3, 272.6723, 1e-3);
    dlp__llm_knob.sgl_moe_rows = was;
}

/* SGLang's Blackwell block-fp8 MoE on the flashinfer_trtllm kernel's own
 * prefill fit (h247, --sgl-moe-fi, off by default).  By hand, DeepSeek-R1
 * on 8 x B200, TP 8, EP 1, a step of 16,384 prompt tokens: rows a GPU
 * 16,384 x 8 x (1 + 0.1512) = 150,890.1; F = 2 x 150,890.1 x 3 x 7,168 x
 * 2,048 / 8 = 1.661307e12 FLOPs a layer; at B200's dense fp8 4,500 TFLOPS
 * per layer 93.6 us + F / (0.1653 x 4.5e15) (2.233390 ms) = 2.326990 ms,
 * x 58 layers = 134.9654 ms over the three expert matrices (the pooled
 * {99.5 us, 0.173}: 129.5421 ms).  With attention-DP EP (DeepEP, DeepGEMM)
 * the knob leaves the step as it was. */
static int ds_b200_pf_parts(int ep, int dp, dlp__llm_parts *p) {
    dlp_llm_config ds;
    dlp_error e = {0};
    const dlp_device *d = dlp_devdb_find(db, "b200");
    if (!d || dlp_llm_catalogue_get("deepseek-ai/DeepSeek-R1", &ds, &e) != DLP_OK) return -1;
    dlp_llm_workload wl = {.quant = DLP_QT_FP8, .n_gpus = 8, .ep = ep, .attn_dp = dp, .kv_dtype = DLP_DT_BFLOAT16,
                           .phase = DLP_LLM_PREFILL_ONLY, .engine = DLP_LLM_ENGINE_SGLANG};
    return (int)dlp__llm_iter_parts(&ds, d, &wl, dlp_llm_compute_dtype(d, DLP_QT_FP8, NULL, 0), 2.0, 0, 1.0,
                                    16384, 1024, p, &e);
}

static void t_sgl_moe_fi_by_hand(void) {
    int was = dlp__llm_knob.sgl_moe_fi;
    dlp__llm_parts off, on, dep_off, dep_on;
    dlp__llm_knob.sgl_moe_fi = 0;
    CHECK(ds_b200_pf_parts(1, 1, &off) == 0);
    CHECK(ds_b200_pf_parts(8, 8, &dep_off) == 0);
    dlp__llm_knob.sgl_moe_fi = 1;
    CHECK(ds_b200_pf_parts(1, 1, &on) == 0);
    CHECK(ds_b200_pf_parts(8, 8, &dep_on) == 0);
    printf("  B200 TP 8, 16,384 prompt tokens: experts %.4f ms off, %.4f ms on\n", sgl_expert_parts_s(&off) * 1e3,
           sgl_expert_parts_s(&on) * 1e3);
    CHECK_NEAR(sgl_expert_parts_s(&off) * 1e3, 129.5421, 1e-3);
    CHECK_NEAR(sgl_expert_parts_s(&on) * 1e3, 134.9654, 1e-3);
    CHECK_NEAR(sgl_expert_parts_s(&dep_on), sgl_expert_parts_s(&dep_off), 1e-15);
    dlp__llm_knob.sgl_moe_fi = was;
}

/* The busiest EP rank's experts (h236, --ep-busiest, off by default).  By
 * hand, DeepSeek-R1 on 8 x H200, EP 8, one token: 32 experts a rank, each
 * hit with p = 8 / 256 = 1/32; the mean rank hits 32 x 1/32 = 1, the
 * busiest E[max of 8 Binomial(32, 1/32)] = sum_x<32 1 - P(X <= x)^8 =
 * 2.544487 (summed exactly).  TensorRT-LLM's Hopper EP block-fp8 fit
 * (24.0 us, 0.507 us, 0.903; an expert 3 x 7168 x 2048 = 44,040,192
 * bytes, at the checkpoint's stored bytes a weight, 1.0018 with its
 * scales and the rest): 0.507 + 44,040,192 / (0.903 x 4.8e12) s = 10.668
 * us a hit; off (24.0 + 10.668) x 58 layers = 2.011 ms; on, the per-hit
 * part 2.544487 times the mean's: (on - 58 x 24 us) / (off - 58 x 24 us)
 * = 2.544487 whatever the bytes a weight. */
static void t_ep_busiest_by_hand(void) {
    int was = dlp__llm_knob.ep_busiest;
    dlp__llm_parts p;
    dlp__llm_knob.ep_busiest = 0;
    CHECK(ds_tp8_decode_parts("h200", DLP_LLM_ENGINE_TRTLLM, &p) == 0);
    double off = parts_experts_s(&p), t0 = 58 * 24.0e-6;
    CHECK_NEAR(off * 1e3, 2.011, 0.002);
    dlp__llm_knob.ep_busiest = 1;
    CHECK(ds_tp8_decode_parts("h200", DLP_LLM_ENGINE_TRTLLM, &p) == 0);
    CHECK_NEAR((parts_experts_s(&p) - t0) / (off - t0), 2.544487, 1e-5);
    dlp__llm_knob.ep_busiest = 2; /* Hopper only: B200 keeps the mean */
    dlp__llm_parts b_on, b_off;
    CHECK(ds_tp8_decode_parts("b200", DLP_LLM_ENGINE_TRTLLM, &b_on) == 0);
    dlp__llm_knob.ep_busiest = 0;
    CHECK(ds_tp8_decode_parts("b200", DLP_LLM_ENGINE_TRTLLM, &b_off) == 0);
    CHECK_NEAR(parts_experts_s(&b_on), parts_experts_s(&b_off), 1e-15);
    dlp__llm_knob.ep_busiest = was;
}

static void t_trt_fp8_moe_blackwell_by_hand(void) {
    const char *bw[] = {"b300", "gb200"};
    dlp_llm_config c, ds;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("Qwen/Qwen3-30B-A3B-Instruct-2507", &c, &e) == DLP_OK);
    CHECK(dlp_llm_catalogue_get("deepseek-ai/DeepSeek-R1", &ds, &e) == DLP_OK);
    CHECK_NEAR(expert_parts_trt_s(&c, dlp_devdb_find(db, "h200"), 0, 8, 0) * 1e3, 7.213, 0.02 * 7.213);
    for (int i = 0; i < 2; i++) {
        const dlp_device *d = dlp_devdb_find(db, bw[i]);
        CHECK(d != NULL);
        if (d) CHECK_NEAR(expert_parts_trt_s(&c, d, 0, 8, 0) * 1e3, 6.628, 0.02 * 6.628);
    }
    const dlp_device *b200 = dlp_devdb_find(db, "b200");
    dlp_llm_workload wl = {.quant = DLP_QT_FP8, .n_gpus = 8, .ep = 8, .attn_dp = 8, .kv_dtype = DLP_DT_FLOAT8E4M3FN,
                           .phase = DLP_LLM_DECODE_ONLY, .engine = DLP_LLM_ENGINE_TRTLLM};
    dlp__llm_parts p;
    CHECK(dlp__llm_iter_parts(&ds, b200, &wl, dlp_llm_compute_dtype(b200, DLP_QT_FP8, NULL, 0), 1.0, 8, 1024, 0, 0,
                              &p, &e) == DLP_OK);
    CHECK_NEAR(parts_experts_s(&p) * 1e3, 6.190, 0.01 * 6.190);
    /* the other engines' rows do not move on Blackwell (h227's refits off) */
    int hits_was = dlp__llm_knob.moe_hits_fit;
    dlp__llm_knob.moe_hits_fit = 0;
    wl = (dlp_llm_workload){.quant = DLP_QT_FP8, .n_gpus = 1, .kv_dtype = DLP_DT_BFLOAT16,
                            .engine = DLP_LLM_ENGINE_SGLANG};
    CHECK(dlp__llm_iter_parts(&c, b200, &wl, dlp_llm_compute_dtype(b200, DLP_QT_FP8, NULL, 0), 2.0, 8, 1.0, 0, 0,
                              &p, &e) == DLP_OK);
    /* SGLang fp8 (21.3, 0.167, 0.769): 4,718,592 / (0.769 x 8e12) s =
     * 0.76700 us, 21.3 + 51.615 x 0.93400 = 69.51 us, x 48 = 3.337 ms */
    CHECK_NEAR(parts_experts_s(&p) * 1e3, 3.337, 0.02 * 3.337);
    /* the default (mode 5) takes SGLang fp8's refit on the tables' hits
     * (MOE_FITFP8_HITS 23.5, 0.091, 0.902): 4,718,592 / (0.902 x 8e12) s =
     * 0.65390 us, 23.5 + 51.615 x 0.74490 = 61.948 us, x 48 = 2.974 ms */
    dlp__llm_knob.moe_hits_fit = 5;
    CHECK(dlp__llm_iter_parts(&c, b200, &wl, dlp_llm_compute_dtype(b200, DLP_QT_FP8, NULL, 0), 2.0, 8, 1.0, 0, 0,
                              &p, &e) == DLP_OK);
    CHECK_NEAR(parts_experts_s(&p) * 1e3, 2.974, 0.02 * 2.974);
    dlp__llm_knob.moe_hits_fit = hits_was;
}

/* The fused MoE at prefill sizes and the busiest EP rank (h167, MOE_PF
 * and MOE_PF_IMB_* from tools/moe/fit_moe_prefill.py: vLLM 16-bit on
 * Hopper a 205.7 us, eta 0.521; imbalance 1 + 0.1512 + 0.0393 log2(EP)
 * log2(T / 512)).  By hand, Qwen3-30B-A3B (48 MoE layers, 128 experts,
 * top 8, an expert 3 x 2048 x 768 = 4,718,592 weights) on one H200 (989.4
 * bf16 TFLOPS), a prompt of 8,192 tokens: 512 rows an expert (>= 64: in
 * the fit); rows 65,536 x 1.1512 = 75,445; F = 2 x 75,445 x 4,718,592 =
 * 711.99 GFLOP, / (0.521 x 989.4e12) = 1.3812 ms, + 0.2057 = 1.5869 ms a
 * layer, x 48 = 76.17 ms.  On EP 8 (8 GPUs): 8,192 rows a GPU x (1.1512 +
 * 0.0393 x 3 x 4 = 1.6228) = 13,294; F = 125.46 GFLOP, 0.24338 + 0.2057 =
 * 0.44908 ms a layer, x 48 = 21.56 ms.  Decode-only steps keep the decode
 * fit (t_moe_16_fp8_kernels: 7.215 ms at 8 tokens). */
static double expert_parts_ep_s(const dlp_llm_config *c, const dlp_device *d, int ep, double n_pf) {
    dlp_llm_workload wl = {.quant = DLP_QT_BF16, .n_gpus = ep, .ep = ep, .attn_dp = ep,
                           .kv_dtype = DLP_DT_BFLOAT16, .engine = DLP_LLM_ENGINE_MODERN};
    int cdt = dlp_llm_compute_dtype(d, DLP_QT_BF16, NULL, 0);
    dlp__llm_parts p;
    dlp_error e = {0};
    if (dlp__llm_iter_parts(c, d, &wl, cdt, 2.0, 0, 1.0, n_pf, n_pf, &p, &e) != DLP_OK) return -1;
    return parts_experts_s(&p);
}

static void t_moe_prefill_kernel(void) {
    const dlp_device *h200 = dlp_devdb_find(db, "h200");
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("Qwen/Qwen3-30B-A3B-Instruct-2507", &c, &e) == DLP_OK);
    CHECK_NEAR(expert_parts_ep_s(&c, h200, 1, 8192) * 1e3, 76.17, 0.02 * 76.17);
    CHECK_NEAR(expert_parts_ep_s(&c, h200, 8, 8192) * 1e3, 21.56, 0.02 * 21.56);
    /* 512 tokens: 32 rows an expert, under the fit's 64: the decode fit
     * alone, every expert hit (128 (1 - (120/128)^512) = 128.0): 48 x
     * (20.6 + 128 x 2.5128) us = 16.43 ms (t_moe_16_fp8_kernels' terms) */
    CHECK_NEAR(expert_parts_ep_s(&c, h200, 1, 512) * 1e3, 16.43, 0.02 * 16.43);
}

/* TensorRT-LLM's block-fp8 fused MoE at prefill sizes on Blackwell with
 * its routed rows' term (h218, MOE_PF_ROWS_BW from tools/moe/
 * fit_moe_prefill.py --rows: a 47.53 us, eta 0.5512, c 25.01).  By hand,
 * DeepSeek-R1 on 8 B200 (4,500 fp8 TFLOPS, 8,000 GB/s), TP 8 (moe_tp 8, EP
 * 1), one prompt of 8,192 tokens: rows a GPU 8,192 x 8 = 65,536, x the
 * busiest rank's 1.1512 (EP 1) = 75,445.0; F = 2 x 75,445.0 x 3 x 7,168 x
 * 2,048 / 8 = 830.65 GFLOP, / (0.5512 x 4.5e15) = 0.33488 ms; the rows
 * 25.01 x 75,445.0 x 7,168 / 8e12 = 1.69058 ms; + 0.04753 = 2.07299 ms a
 * layer, x 58 = 120.23 ms (MOE_PF alone: 0.0580 + 830.65e9 / (0.330 x
 * 4.5e15) = 0.61737 ms, 35.81 ms).  H200 keeps MOE_PF (Hopper not
 * refitted): 0.0602 + 830.65e9 / (0.254 x 1978.9e12) = 1.71278 ms, x 58 =
 * 99.34 ms.  SGLang on B200 keeps its row. */
static double expert_parts_tp_s(const dlp_llm_config *c, const dlp_device *d, int engine, double n_pf) {
    dlp_llm_workload wl = {.quant = DLP_QT_FP8, .n_gpus = 8, .kv_dtype = DLP_DT_FLOAT8E4M3FN, .engine = engine};
    dlp__llm_parts p;
    dlp_error e = {0};
    if (dlp__llm_iter_parts(c, d, &wl, dlp_llm_compute_dtype(d, DLP_QT_FP8, NULL, 0), 1.0, 0, 1.0, n_pf, n_pf, &p,
                            &e) != DLP_OK)
        return -1;
    return parts_experts_s(&p);
}

static void t_trt_fp8_moe_rows_by_hand(void) {
    dlp_llm_config ds;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("deepseek-ai/DeepSeek-R1", &ds, &e) == DLP_OK);
    const dlp_device *b200 = dlp_devdb_find(db, "b200"), *h200 = dlp_devdb_find(db, "h200");
    CHECK(b200 && h200);
    if (!b200 || !h200) return;
    CHECK_NEAR(expert_parts_tp_s(&ds, b200, DLP_LLM_ENGINE_TRTLLM, 8192) * 1e3, 120.23, 0.005 * 120.23);
    CHECK_NEAR(expert_parts_tp_s(&ds, h200, DLP_LLM_ENGINE_TRTLLM, 8192) * 1e3, 99.34, 0.005 * 99.34);
    /* SGLang fp8 on Blackwell (99.5 us, eta 0.173): 0.0995 + 830.65e9 /
     * (0.173 x 4.5e15) = 1.16649 ms, x 58 = 67.66 ms */
    CHECK_NEAR(expert_parts_tp_s(&ds, b200, DLP_LLM_ENGINE_SGLANG, 8192) * 1e3, 67.66, 0.005 * 67.66);
}

/* TensorRT-LLM's MoE gather under attention DP without EP (h218): an
 * all-gather and a reduce-scatter of the whole gathered tensor a MoE layer,
 * NCCL's tables indexed by that tensor.  By hand, DeepSeek-R1 on 8 H200
 * (NVLink 900 GB/s: the H100 table unscaled), attention DP 8, EP 1, a step
 * of 8 prompts of 8,192 tokens: 65,536 x 7,168 = 469,762,048 bf16 elements,
 * past the table's last 268,435,456 (8 GPUs, all-gather 1.39972 ms):
 * linear, 2.44951 ms; x 2 x 58 MoE layers = 284.14 ms (each rank's T / 8,
 * 58,720,256 elements, log-interpolated 0.34492 ms, was 40.01 ms). */
static void t_trt_adp_gather_by_hand(void) {
    dlp_llm_config ds;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("deepseek-ai/DeepSeek-R1", &ds, &e) == DLP_OK);
    const dlp_device *h200 = dlp_devdb_find(db, "h200");
    CHECK(h200 != NULL);
    if (!h200) return;
    dlp_llm_workload wl = {.quant = DLP_QT_FP8, .n_gpus = 8, .ep = 1, .attn_dp = 8, .kv_dtype = DLP_DT_FLOAT8E4M3FN,
                           .phase = DLP_LLM_PREFILL_ONLY, .engine = DLP_LLM_ENGINE_TRTLLM};
    dlp__llm_parts p;
    CHECK(dlp__llm_iter_parts(&ds, h200, &wl, dlp_llm_compute_dtype(h200, DLP_QT_FP8, NULL, 0), 1.0, 0, 1.0, 65536,
                              8192, &p, &e) == DLP_OK);
    CHECK_NEAR(p.comm_s * 1e3, 284.14, 0.005 * 284.14);
}

/* MLA's down projections are replicated on every attention TP rank (h167):
 * q_a_proj (7,168 x 1,536) takes the same time on each of 8 TP GPUs as on
 * one (the same rows, the whole matrix); q_b_proj (1,536 x 24,576) splits. */
static double lin_entry_s(const dlp_llm_config *c, const dlp_device *d, int tp, double k, double n) {
    dlp_llm_workload wl = {.quant = DLP_QT_FP8, .n_gpus = tp, .kv_dtype = DLP_DT_BFLOAT16,
                           .engine = DLP_LLM_ENGINE_TRTLLM};
    int cdt = dlp_llm_compute_dtype(d, DLP_QT_FP8, NULL, 0);
    dlp__llm_parts p;
    dlp_error e = {0};
    if (dlp__llm_iter_parts(c, d, &wl, cdt, 1.0, 0, 1.0, 4096, 4096, &p, &e) != DLP_OK) return -1;
    for (int i = 0; i < p.n_lin; i++)
        if (p.lin_kind[i] == 0 && p.lin_k[i] == k && p.lin_n[i] == n) return p.lin_s[i];
    return -1;
}

static void t_mla_down_proj_replicated(void) {
    const dlp_device *h200 = dlp_devdb_find(db, "h200");
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("deepseek-ai/DeepSeek-R1", &c, &e) == DLP_OK);
    double qa1 = lin_entry_s(&c, h200, 1, 7168, 1536), qa8 = lin_entry_s(&c, h200, 8, 7168, 1536);
    double qb1 = lin_entry_s(&c, h200, 1, 1536, 24576), qb8 = lin_entry_s(&c, h200, 8, 1536, 24576);
    CHECK(qa1 > 0 && qb1 > 0);
    CHECK_NEAR(qa8, qa1, 1e-12);
    CHECK(qb8 < 0.5 * qb1);
}

/* The context-MLA module's floor (h167, MLA_PF from
 * tools/attn/fit_mla_context.py, TensorRT-LLM fp8 block GEMMs: a 52.3 us,
 * c 2.60 ns a token, eta_p 0.337, eta_f 1.056).  By hand, DeepSeek-R1 on 8
 * H200 (TP 8: 16 heads a GPU), one prompt of 4,096 tokens, per layer:
 *   Fp = 2 x 4096 x (7168 x 2112 + 1536 x 16 x 192 + 512 x 16 x 256
 *        + 16 x 128 x 7168) = 2 x 4096 x 36,634,624 = 300.11 GFLOP,
 *        / (0.337 x 1978.9e12) = 0.45002 ms
 *   Ff = 4096 x 4096 x 16 x 320 = 85.90 GFLOP, / (1.056 x 989.4e12) =
 *        0.08222 ms
 *   t = 0.0523 + 2.60e-9 x 4096 s + 0.45002 + 0.08222 = 0.59519 ms,
 *   x 61 attention layers = 36.31 ms (the table: 0.667 ms a layer).
 * The library's own parts give ~0.29 ms a layer there, so the floor is the
 * answer: the attention GEMMs plus the prefill attention = 36.31 ms.
 * SGLang has no module table: no floor, its parts stand (less). */
static double mla_prefill_s(const dlp_llm_config *c, const dlp_device *d, int engine) {
    dlp_llm_workload wl = {.quant = DLP_QT_FP8, .n_gpus = 8, .kv_dtype = DLP_DT_FLOAT8E4M3FN, .engine = engine};
    int cdt = dlp_llm_compute_dtype(d, DLP_QT_FP8, NULL, 0);
    dlp__llm_parts p;
    dlp_error e = {0};
    if (dlp__llm_iter_parts(c, d, &wl, cdt, 1.0, 0, 1.0, 4096, 4096, &p, &e) != DLP_OK) return -1;
    double t = p.attn_pf_s;
    for (int i = 0; i < p.n_lin; i++) {
        double k = p.lin_k[i], n = p.lin_n[i];
        if (p.lin_kind[i] == 0 && ((k == 7168 && (n == 1536 || n == 576)) || (k == 1536 && n == 24576) ||
                                   (k == 512 && n == 32768) || (k == 16384 && n == 7168)))
            t += p.lin_s[i];
    }
    return t;
}

static void t_mla_context_floor(void) {
    const dlp_device *h200 = dlp_devdb_find(db, "h200");
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("deepseek-ai/DeepSeek-R1", &c, &e) == DLP_OK);
    double tr = mla_prefill_s(&c, h200, DLP_LLM_ENGINE_TRTLLM), sg = mla_prefill_s(&c, h200, DLP_LLM_ENGINE_SGLANG);
    CHECK_NEAR(tr * 1e3, 36.31, 0.005 * 36.31);
    CHECK(sg > 0 && sg < 0.7 * tr);
}

/* Weight-only 4-bit MoE at prefill sizes (h171; docs/llm.md "Weight-only
 * 4-bit MoE at prefill sizes"; W4_MATH_* fitted by
 * tools/moe/fit_w4a16_moe_prefill.py).  By hand, Qwen3-30B-A3B (48 MoE
 * layers, 128 experts, top 8, hidden 2048, moe_intermediate 768) in int4 on
 * one H200 (132 SMs, 1,980 MHz), a prefill chunk of 8,192 tokens:
 *   rows an expert X ~ Binomial(8192, 1/16): mean 512, sd 21.909; Marlin's
 *   block 64 (512 / 48 >= 0.9); blocks an expert 1 (hit) + sum_j>=1
 *   P(X > 64 j) = 1 + 6 x 1.0 + 0.998124 (j 7) + 0.490896 (j 8) + 0.001620
 *   (j 9) = 8.490641 (normal law, continuity 0.5); rows computed 128 x
 *   8.490641 x 64 = 69,555.3
 *   per row 2 x 3 x 2048 x 768 / 1200 + 2048 x 0.902 = 7,864.32 + 1,847.30
 *   = 9,711.62 SM clocks; a layer 69,555.3 x 9,711.62 / (132 x 1.98e9) =
 *   2.58454 ms, x 48 = 124.058 ms
 * against the decode fit's 24.2 + 128 x (0.236 + 0.797) = 156.5 us a layer
 * and the 16-bit curve's >= 625 us (t_moe_16_fp8_kernels): the math rules.
 * B200 (148 SMs, same clock): 124.058 x 132 / 148 = 110.646 ms.  mxfp4 on
 * the H200 under vLLM (triton matmul_ogs, no padding): 65,536 rows x
 * (9,437,184 / 2207 + 2048 x 0.793 = 5,900.14) / 2.6136e11 x 48 = 71.013 ms.
 * Generate mode's floor prices the same kernel (modes agree); 8 decode
 * tokens keep the decode fit's 3.721 ms (t_w4a16_floor_by_hand). */
static void t_w4a16_moe_prefill(void) {
    const dlp_device *h200 = dlp_devdb_find(db, "h200"), *b200 = dlp_devdb_find(db, "b200");
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("Qwen/Qwen3-30B-A3B-Instruct-2507", &c, &e) == DLP_OK);
    double i4 = expert_parts_s(&c, h200, DLP_QT_INT4, 0, 8192);
    CHECK_NEAR(i4 * 1e3, 124.058, 0.005 * 124.058);
    CHECK_NEAR(dlp__llm_w4a16_moe_floor_s(&c, h200, DLP_QT_INT4, 1, 8192) * 1e3, i4 * 1e3, 1e-6);
    CHECK_NEAR(expert_parts_s(&c, b200, DLP_QT_INT4, 0, 8192) * 1e3, 110.646, 0.005 * 110.646);
    CHECK_NEAR(expert_parts_s(&c, h200, DLP_QT_MXFP4, 0, 8192) * 1e3, 71.013, 0.005 * 71.013);
    CHECK_NEAR(expert_parts_s(&c, h200, DLP_QT_INT4, 8, 0) * 1e3, 3.721, 0.02 * 3.721);
    /* 16-bit experts keep their own kernel, not the W4A16 math: h167's
     * fused-MoE prefill term by hand, 76.17 ms (t_moe_prefill_kernel) */
    CHECK_NEAR(expert_parts_s(&c, h200, DLP_QT_BF16, 0, 8192) * 1e3, 76.17, 0.005 * 76.17);
}

/* SGLang's attention-DP prefill worker hands a request whole to one DP
 * rank (its DP controller; in PD prefill mode round_robin is bootstrap_room
 * % dp_size), so a lone prompt's attention runs on one GPU at all 128 heads
 * (llm_serve.c sglang_adp_prompt; docs/llm.md, h174).  By hand, DeepSeek-R1
 * on 8 x B200 (DP 8, attention TP 1), a 16,384-token prompt, one client:
 *  - the causal FMHA, N^2 / 2 query-key pairs x 2 FLOPs x 128 heads x (192
 *    + 128) dims: 16,384^2 x 40,960 = 1.0995e13 FLOPs a layer, x 61 layers =
 *    6.707e14, at B200's dense bf16 peak (2,250 TFLOP/s): 298.1 ms;
 *  - the MLA projections, 2 x (7168 x 1536 + 7168 x 576 + 1536 x 24,576 +
 *    512 x 32,768 + 16,384 x 7168) = 374,210,560 FLOPs a token and layer, x
 *    16,384 x 61 = 3.740e14 at the fp8 peak (4,500 TFLOP/s): 83.1 ms;
 * so at least 381.2 ms beside the front end (request_ms) and the KV
 * handoff.  Spread over the 8 ranks (the pricing before h174) the same
 * work was 47.6 ms.  TensorRT-LLM's executor hands a request whole to one
 * rank too (h175, llm_serve.c lone_prompt), so its lone prompt is above the
 * floor as well. */
static void t_sglang_adp_prompt_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_config c;
    CHECK(dlp_llm_catalogue_get("deepseek-ai/DeepSeek-R1", &c, &e) == DLP_OK);
    const dlp_device *d = dlp_devdb_find(db, "b200");
    dlp_llm_workload wl = {.batch = 1, .seq = 16384, .gen_tokens = 16, .quant = DLP_QT_FP8,
                           .kv_dtype = DLP_DT_FLOAT8E4M3FN, .n_gpus = 8, .attn_dp = 8, .concurrency = 1,
                           .engine = DLP_LLM_ENGINE_SGLANG, .phase = DLP_LLM_PREFILL_ONLY};
    dlp_llm_prediction p, q;
    CHECK(dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &p, &e) == DLP_OK);
    double gpu = p.ttft_ms - p.request_ms - p.kv_handoff_ms;
    wl.engine = DLP_LLM_ENGINE_TRTLLM;
    CHECK(dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &q, &e) == DLP_OK);
    printf("  DeepSeek-R1 16k prompt, 8 x B200 DP 8, SGLang: %.1f ms on the rank (hand floor 381.2), "
           "TensorRT-LLM TTFT %.1f ms\n", gpu, q.ttft_ms - q.request_ms - q.kv_handoff_ms);
    CHECK(gpu >= 381.2);
    CHECK(q.ttft_ms - q.request_ms - q.kv_handoff_ms >= 381.2);
}

/* h180: the rank's attention module at least SGLang's wide-EP module fit
 * (MLA_PF[SGLANG]: a 576.8 us, eta_p 0.617 at the fp8 peak 4.5 PFLOP/s,
 * eta_f 0.834 at the bf16 peak 2.25 PFLOP/s), DeepSeek-R1 on 8 x B200, DP
 * 8 (128 heads on the rank), 61 MLA layers.  By hand, per layer, N tokens
 * of prompts L long: Fp = 2 N x 187,105,280 (down 7168 x 2112 + 1536 x 128
 * x 192, up 512 x 128 x 256, o 128 x 128 x 7168), Ff = N L 128 x 320.
 *   16k alone: 0.5768 + 2.2082 + 5.8594 ms = 8.6444 ms; x 61 = 527.3 ms
 *   1k alone:  0.5768 + 0.1380 + 0.0229 = 0.7377 ms; x 61 = 45.00 ms
 *   two 1k on the rank (B200's chunk 16,384 / 8 ranks = 2,048 tokens):
 *              0.5768 + 0.2760 + 0.0458 = 0.8986 ms; x 61 = 54.81 ms,
 *              27.41 ms a prompt: the busy rank's service (prefill_ms) is
 *              at least that and below the lone prompt's step. */
static void t_sglang_rank_step_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_config c;
    CHECK(dlp_llm_catalogue_get("deepseek-ai/DeepSeek-R1", &c, &e) == DLP_OK);
    const dlp_device *d = dlp_devdb_find(db, "b200");
    dlp_llm_workload wl = {.batch = 1, .seq = 16384, .gen_tokens = 16, .quant = DLP_QT_FP8,
                           .kv_dtype = DLP_DT_FLOAT8E4M3FN, .n_gpus = 8, .ep = 8, .attn_dp = 8, .concurrency = 1,
                           .engine = DLP_LLM_ENGINE_SGLANG, .phase = DLP_LLM_PREFILL_ONLY};
    /* ep 8 (DeepEP): without expert parallelism a busy rank serves at the
     * all-rank step since h215 (t_sglang_busy_rank_by_hand) */
    dlp_llm_prediction p;
    CHECK(dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &p, &e) == DLP_OK);
    printf("  16k on the rank: prefill %.1f ms (hand floor 527.3)\n", p.prefill_ms);
    CHECK(p.prefill_ms >= 527.3);
    wl.seq = 1024;
    CHECK(dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &p, &e) == DLP_OK);
    double lone = p.ttft_ms - p.request_ms - p.kv_handoff_ms;
    printf("  1k: lone step ~%.1f ms (hand floor 45.00), busy rank's share %.2f ms (hand floor 27.41)\n", lone,
           p.prefill_ms);
    CHECK(lone >= 45.0);
    CHECK(p.prefill_ms >= 27.41);
    CHECK(p.prefill_ms < lone);
}

/* An SGLang prefill worker's batch under max-prefill-tokens (h186): its
 * PrefillAdder takes a prompt after the first while the prompt's tokens are
 * under what is left of max_prefill_tokens, and whole while they fit the
 * chunk.  By hand, DeepSeek-R1 fp8 on 8 x B200 TP 8 (no attention DP; chunk
 * 16,384, SGLang's default there): 1k prompts, the default 16,384: i x 1024
 * < 16384 for i <= 15, so 15 prompts a step (the chunk alone would take 16);
 * max-prefill-tokens 8,192: 7; 4,096: 3; 2,048: 1 (the prompt alone).  The
 * worker's prefill_ms is min(lone, step(k) / k), the step timed by the same
 * iteration (dlp__llm_iter_parts over k x 1024 tokens); an 8k prompt under
 * the default: 8192 < 8192 fails for the second, so 1 (prefill_ms = the
 * lone prompt's step). */
static double sglang_step_s(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *wl, double k) {
    dlp__llm_parts parts;
    dlp_error e = {0};
    int cdt = dlp_llm_compute_dtype(d, wl->quant, NULL, 0);
    if (dlp__llm_iter_parts(c, d, wl, cdt, 1.0, 0, 1.0, k * (double)wl->seq, (double)wl->seq, &parts, &e) != DLP_OK)
        return -1;
    return parts.total_s;
}

static void t_sglang_batch_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_config c;
    CHECK(dlp_llm_catalogue_get("deepseek-ai/DeepSeek-R1", &c, &e) == DLP_OK);
    const dlp_device *d = dlp_devdb_find(db, "b200");
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 16, .quant = DLP_QT_FP8,
                           .kv_dtype = DLP_DT_FLOAT8E4M3FN, .n_gpus = 8, .ep = 8, .attn_dp = 1, .concurrency = 1,
                           .engine = DLP_LLM_ENGINE_SGLANG, .phase = DLP_LLM_PREFILL_ONLY};
    const int64_t M[4] = {0, 8192, 4096, 2048};
    const double K[4] = {15, 7, 3, 1};
    double lone = sglang_step_s(&c, d, &wl, 1.0);
    CHECK(lone > 0);
    for (int i = 0; i < 4; i++) {
        wl.max_prefill_tokens = M[i];
        dlp_llm_prediction p;
        CHECK(dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &p, &e) == DLP_OK);
        double want = fmin(lone, sglang_step_s(&c, d, &wl, K[i]) / K[i]) * 1e3;
        printf("  1k, max-prefill-tokens %lld: %g prompts a step, %.3f ms a prompt (want %.3f)\n", (long long)M[i],
               K[i], p.prefill_ms, want);
        CHECK_NEAR(p.prefill_ms, want, 1e-6 * want);
    }
    wl.seq = 8192, wl.max_prefill_tokens = 0;
    dlp_llm_prediction p;
    CHECK(dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &p, &e) == DLP_OK);
    CHECK_NEAR(p.prefill_ms, sglang_step_s(&c, d, &wl, 1.0) * 1e3, 1e-6 * p.prefill_ms);
    /* modelled on SGLang prefill workers only (h192): refused, not ignored,
     * on another engine, an aggregated or decode worker, or a negative count */
    wl.seq = 1024, wl.max_prefill_tokens = 2048, wl.engine = DLP_LLM_ENGINE_MODERN;
    CHECK(dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &p, &e) == DLP_EINVAL && strstr(e.msg, "engine sglang"));
    wl.engine = DLP_LLM_ENGINE_SGLANG, wl.phase = DLP_LLM_AGG;
    CHECK(dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &p, &e) == DLP_EINVAL && strstr(e.msg, "phase prefill"));
    wl.phase = DLP_LLM_DECODE_ONLY;
    CHECK(dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &p, &e) == DLP_EINVAL && strstr(e.msg, "phase prefill"));
    wl.phase = DLP_LLM_PREFILL_ONLY, wl.max_prefill_tokens = -1;
    CHECK(dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &p, &e) == DLP_EINVAL);
}

/* The B200 8k recipes' DeepSeek-R1 prefill worker (srt-slurm
 * recipes/b200-fp8/8k1k_stp_maxtpt_*.yaml: TP 8, data-parallel-size 8,
 * chunked-prefill-size 65,536, max-prefill-tokens 8,192) at expert
 * parallelism ep, with or without --moe-a2a-backend none (h215, h219). */
static dlp_llm_workload b200_8k_dp8_prefill(int ep, int a2a_none) {
    dlp_llm_workload wl = {.batch = 1, .seq = 8192, .gen_tokens = 16, .quant = DLP_QT_FP8,
                           .kv_dtype = DLP_DT_FLOAT8E4M3FN, .n_gpus = 8, .ep = ep, .attn_dp = 8, .concurrency = 64,
                           .chunk_tokens = 65536, .max_prefill_tokens = 8192, .engine = DLP_LLM_ENGINE_SGLANG,
                           .phase = DLP_LLM_PREFILL_ONLY, .sglang_a2a_none = a2a_none};
    return wl;
}

/* That worker's prompt costs the step of all 8 ranks' prompts (a rank's
 * chunk 65,536 / 8 = 8,192, max-prefill-tokens 8,192: one prompt a rank a
 * step); `what` names the layout in the line printed. */
static void check_busy_rank_step(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *wl,
                                 const char *what) {
    dlp_error e = {0};
    dlp_llm_prediction p;
    CHECK(dlp_llm_predict(c, d, db, wl, &ANALYTIC, &p, &e) == DLP_OK);
    double busy = sglang_step_s(c, d, wl, 8.0) * 1e3;
    printf("  8k, DP 8, %s: %.3f ms a prompt (want the 8-prompt step %.3f)\n", what, p.prefill_ms, busy);
    CHECK(busy > 0);
    CHECK_NEAR(p.prefill_ms, busy, 1e-6 * busy);
}

/* Its 65,536-token prompt step's MoE collectives when SGLang gathers the
 * extend batch (SUM_LEN, dp_attention.py): 2 x 58 MoE layers x an
 * all-reduce over 8 GPUs of 65,536 x 7,168 x 2 B (bf16 activations), no
 * attention all-reduce (attention TP 1).  Returns that want. */
static double check_sum_len_gather(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *wl,
                                   const char *what) {
    dlp_error e = {0};
    dlp__llm_parts parts;
    int cdt = dlp_llm_compute_dtype(d, wl->quant, NULL, 0);
    CHECK(dlp__llm_iter_parts(c, d, wl, cdt, 1.0, 0, 1.0, 65536.0, 8192.0, &parts, &e) == DLP_OK);
    double ar = 2.0 * 58 * dlp__llm_coll_s(d, DLP__COLL_ALLREDUCE, 8, 65536.0 * 7168 * 2);
    printf("  8k x 8 ranks, %s: MoE collectives %.3f ms (want 2 x 58 all-reduces %.3f)\n", what, parts.comm_s * 1e3,
           ar * 1e3);
    CHECK_NEAR(parts.comm_s, ar, 1e-6 * ar);
    return ar;
}

/* h215: an SGLang attention-DP prefill worker without expert parallelism
 * serves a busy rank's prompt at the lockstep step of every rank's prompts.
 * By hand, the B200 8k recipes' prefill worker (srt-slurm
 * recipes/b200-fp8/8k1k_stp_maxtpt_*.yaml: TP 8, data-parallel-size 8,
 * expert-parallel-size 1, chunked-prefill-size 65,536, max-prefill-tokens
 * 8,192): a rank's chunk 65,536 / 8 = 8,192, so k = min(floor(8,192 /
 * 8,192), ceil(8,192 / 8,192) - 1) = 0 -> 1 prompt a rank a step; the
 * step carries 8 ranks x 1 x 8,192 = 65,536 prompt tokens, the MoE and the
 * gather over all of them: prefill_ms = that step / 1.  The same worker
 * under DeepEP (ep 8) keeps the lone price, below the all-busy step. */
static void t_sglang_busy_rank_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_config c;
    CHECK(dlp_llm_catalogue_get("deepseek-ai/DeepSeek-R1", &c, &e) == DLP_OK);
    const dlp_device *d = dlp_devdb_find(db, "b200");
    dlp_llm_workload wl = b200_8k_dp8_prefill(1, 0);
    check_busy_rank_step(&c, d, &wl, "EP 1");
    /* the step's MoE collectives: SGLang gathers an extend batch under DP
     * by an all-reduce of the sum-length buffer and reduces the sharded
     * experts' output by another (SUM_LEN, dp_attention.py): 2 x 58 MoE
     * layers x an all-reduce over 8 GPUs of 65,536 x 7,168 x 2 B (bf16
     * activations) = 939,524,096 B; no attention all-reduce (attention TP 1) */
    check_sum_len_gather(&c, d, &wl, "EP 1");
    wl.ep = 8;
    dlp_llm_prediction p;
    CHECK(dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &p, &e) == DLP_OK);
    double busy_ep = sglang_step_s(&c, d, &wl, 8.0) * 1e3;
    printf("  8k, DP 8, EP 8: %.3f ms a prompt (the 8-prompt step %.3f)\n", p.prefill_ms, busy_ep);
    CHECK(p.prefill_ms > 0 && p.prefill_ms < busy_ep);
}

/* h219: SGLang attention DP with EP and --moe-a2a-backend none (SGLang's
 * default; the B200 / H200 srt-slurm recipes): the StandardDispatcher sends
 * nothing, so the MoE rows move as under EP 1.  By hand, the B200 8k
 * prefill layout at DP 8, EP 8: (1) a 65,536-token prompt step's
 * collectives are h215's: 2 x 58 MoE layers x an all-reduce over 8 GPUs of
 * 65,536 x 7,168 x 2 B (the sum-length buffer), no attention all-reduce;
 * (2) a busy rank's prompt costs the step of all 8 ranks' prompts (chunk
 * 65,536 / 8 = 8,192 a rank, max-prefill-tokens 8,192: k = 1); (3) a
 * decode step's collectives equal the EP-1 worker's (two all-gathers a MoE
 * layer, the path h215 checked); without the flag the EP-8 prompt step
 * keeps DeepEP's price, not the gather's. */
static void t_sglang_a2a_none_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_config c;
    CHECK(dlp_llm_catalogue_get("deepseek-ai/DeepSeek-R1", &c, &e) == DLP_OK);
    const dlp_device *d = dlp_devdb_find(db, "b200");
    dlp_llm_workload wl = b200_8k_dp8_prefill(8, 1);
    double ar = check_sum_len_gather(&c, d, &wl, "EP 8, a2a none");
    check_busy_rank_step(&c, d, &wl, "EP 8, a2a none");
    int cdt = dlp_llm_compute_dtype(d, wl.quant, NULL, 0);
    dlp__llm_parts parts;
    /* a decode step of 512 sequences: the EP-1 worker's collectives */
    double dec[2];
    for (int i = 0; i < 2; i++) {
        dlp_llm_workload w = wl;
        w.phase = DLP_LLM_DECODE_ONLY, w.ep = i ? 1 : 8, w.sglang_a2a_none = !i;
        CHECK(dlp__llm_iter_parts(&c, d, &w, cdt, 1.0, 512.0, 8704.0, 0, 0, &parts, &e) == DLP_OK);
        dec[i] = parts.comm_s;
    }
    printf("  decode 512, DP 8: collectives EP 8 a2a none %.4f ms, EP 1 %.4f ms\n", dec[0] * 1e3, dec[1] * 1e3);
    CHECK(dec[1] > 0);
    CHECK_NEAR(dec[0], dec[1], 1e-9 + 1e-6 * dec[1]);
    /* the flag off: DeepEP's prompt step, another price */
    wl.sglang_a2a_none = 0;
    CHECK(dlp__llm_iter_parts(&c, d, &wl, cdt, 1.0, 0, 1.0, 65536.0, 8192.0, &parts, &e) == DLP_OK);
    CHECK(fabs(parts.comm_s - ar) > 1e-3 * ar);
}

/* nvfp4 MoE kernel on B200's FP4 tensor cores (h137, MOE_FITNV4 from
 * tools/moe/fit_nvfp4_moe.py).  By hand: Qwen3-30B-A3B's expert slice 3 x
 * 2048 x 768 weights x 0.5625 B (e2m1 + an e4m3 scale per 16) = 2,654,208
 * B; at 8.0 TB/s / 1.283 = 0.2586 us; 8 experts hit: 15.7 + 8 x (0.133 +
 * 0.2586) = 18.83 us.  Serving, 8 decode tokens on one B200: 51.62 experts
 * hit a layer (as t_moe_16_fp8_kernels), so the 48 layers' experts take at
 * least 48 x (15.7 + 51.62 x (0.133 + 0.2586)) = 1.724 ms (the profile's
 * mean bytes a weight is at least 0.5625: never below that); a 8192-token
 * prompt keeps the GEMM curve (the kernel's 48 x (15.7 + 128 x 0.39) us =
 * 3.16 ms is below the curve's math there: never faster, never slower). */
static void t_moe_nvfp4_kernel(void) {
    const dlp_device *b200 = dlp_devdb_find(db, "b200"), *h200 = dlp_devdb_find(db, "h200");
    double slice = 3.0 * 2048 * 768 * 0.5625;
    CHECK_NEAR(dlp__llm_moe_kernel_s(DLP__MOEK_NVFP4, DLP_LLM_ENGINE_TRTLLM, 8, 1.0, slice, 8.0e12) * 1e6, 18.83, 0.01);
    CHECK(b200 && dlp__llm_moe_kernel(b200, DLP_QT_NVFP4) == DLP__MOEK_NVFP4);
    /* no FP4 tensor cores on Hopper: nvfp4 runs weight-only there (W4A16) */
    CHECK(h200 && dlp__llm_moe_kernel(h200, DLP_QT_NVFP4) != DLP__MOEK_NVFP4);
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("Qwen/Qwen3-30B-A3B-Instruct-2507", &c, &e) == DLP_OK);
    double dec = expert_parts_s(&c, b200, DLP_QT_NVFP4, 8, 0);
    CHECK(dec * 1e3 >= 0.98 * 1.724);
    CHECK(dec * 1e3 < 1.5 * 1.724);
    double pf = expert_parts_s(&c, b200, DLP_QT_NVFP4, 0, 8192);
    CHECK(pf * 1e3 > 3.16);
}

/* nvfp4 dense GEMMs on Blackwell (docs/llm.md, "nvfp4 dense GEMMs", h147):
 * Llama-3.1-8B's gate/up matrix (4096 x 14336) at one decode token on a
 * B200 (8 TB/s).  Serving prices a linear weight at the checkpoint's mean
 * bytes per linear weight: 32 layers x (2 x 4096^2 + 2 x 4096 x 1024 + 3 x
 * 4096 x 14336) = 6,979,321,856 weights at 0.5625 B (e2m1 + an e4m3 scale
 * per 16) + 4 B per tensor (224 tensors), and the 16-bit LM head's
 * 128,256 x 4096 = 525,336,576 at 2 B: 0.663127 B a weight.
 *   bytes  4096 x 14336 x 0.663127 + 1 x (4096 + 14336) x 2 = 38,975,859
 *   vLLM   7.84 + 38,975,859 / (0.745 x 8e12) s = 7.84 + 6.540 = 14.380 us
 *   TensorRT-LLM (quantisation fused, autotuned: SGLang's op less one
 *          kernel) 5.07 - 2 + 38,975,859 / (0.617 x 8e12) = 10.966 us
 * and on an H200 (no FP4 tensor cores: weight-only) no such floor: the same
 * matrix stays under the vLLM figure.  In an MoE model's nvfp4 checkpoint
 * the attention projections are 16-bit (NVIDIA's hf_quant_config.json
 * exclude_modules), so they cost exactly what the bf16 model's do. */
static double dense_lin_us(const char *model, const dlp_device *d, int engine, int quant, double k, double n) {
    dlp_llm_config c;
    dlp_error e = {0};
    if (dlp_llm_catalogue_get(model, &c, &e) != DLP_OK) return -1;
    dlp_llm_workload wl = {.quant = quant, .n_gpus = 1, .kv_dtype = DLP_DT_BFLOAT16, .engine = engine};
    int cdt = dlp_llm_compute_dtype(d, (dlp_quant)quant, NULL, 0);
    dlp__llm_parts p;
    if (dlp__llm_iter_parts(&c, d, &wl, cdt, 2.0, 1, 1.0, 0, 0, &p, &e) != DLP_OK) return -1;
    for (int i = 0; i < p.n_lin; i++)
        if (p.lin_kind[i] == 0 && p.lin_k[i] == k && p.lin_n[i] == n && p.lin_count[i] > 0)
            return p.lin_s[i] / p.lin_count[i] * 1e6;
    return -1;
}

static void t_nvfp4_dense_gemm(void) {
    const dlp_device *b200 = dlp_devdb_find(db, "b200"), *h200 = dlp_devdb_find(db, "h200");
    const char *m = "meta-llama/Llama-3.1-8B-Instruct";
    CHECK(b200 && h200);
    const int V = DLP_LLM_ENGINE_MODERN, NV = DLP_QT_NVFP4;
    double v = dense_lin_us(m, b200, V, NV, 4096, 14336);
    double t = dense_lin_us(m, b200, DLP_LLM_ENGINE_TRTLLM, NV, 4096, 14336);
    CHECK_NEAR(v, 14.380, 0.01);
    CHECK_NEAR(t, 10.966, 0.01);
    double h = dense_lin_us(m, h200, V, NV, 4096, 14336);
    CHECK(h > 0 && h < 13.0);
    /* an MoE model's nvfp4 checkpoint keeps attention 16-bit: Qwen3-30B-A3B's
     * q_proj (2048 x 4096) reads and runs what the bf16 model's does */
    const char *q = "Qwen/Qwen3-30B-A3B-Instruct-2507";
    double a4 = dense_lin_us(q, b200, V, NV, 2048, 4096), a16 = dense_lin_us(q, b200, V, DLP_QT_BF16, 2048, 4096);
    CHECK(a16 > 0);
    CHECK_NEAR(a4, a16, 1e-9);
}

/* The decode step's tensor-parallel all-reduce and attention floor (docs/llm.md,
 * h147).  Llama-3.1-8B bf16 on 8 x H100 (NVLink 4: 900 GB/s, 450 each way),
 * one decode token: each of the 2 x 32 all-reduces moves 4096 x 2 = 8,192 B.
 * One-shot by hand, t0 + 7 x 8,192 / (eta x 450e9):
 *   vLLM    5.51 + 0.1244 = 5.634 us, x 64 = 360.6 us a step
 *   SGLang  3.35 + 0.1416 = 3.492 us, x 64 = 223.5 us
 * (NCCL's table: 16-21 us each); vllm-v0 keeps NCCL's price, and a 2 MiB
 * message (256 tokens) is past the one-shot range: NCCL's for every engine.
 * Decode attention, one sequence at 1,000 tokens on one H100 (3.35 TB/s):
 * 32 layers x 2 (k, v) x 1,000 x 8 kv heads x 128 x 2 B = 131,072,000 B
 * streamed at 0.85 of the bandwidth = 46.03 us, plus 32 x 8.58 us of floor
 * = 320.59 us for the modern engines; vllm-v0 keeps 2 us a layer (110.03). */
static double step_part_us(const char *model, const char *dev, int engine, int gpus, double n_dec, double ctx,
                           int comm) {
    dlp_llm_config c;
    dlp_error e = {0};
    const dlp_device *d = dlp_devdb_find(db, dev);
    if (!d || dlp_llm_catalogue_get(model, &c, &e) != DLP_OK) return -1;
    dlp_llm_workload wl = {.quant = DLP_QT_BF16, .n_gpus = gpus, .kv_dtype = DLP_DT_BFLOAT16, .engine = engine};
    int cdt = dlp_llm_compute_dtype(d, DLP_QT_BF16, NULL, 0);
    dlp__llm_parts p;
    if (dlp__llm_iter_parts(&c, d, &wl, cdt, 2.0, n_dec, ctx, 0, 0, &p, &e) != DLP_OK) return -1;
    return (comm ? p.comm_s : p.attn_dec_s) * 1e6;
}

static void t_oneshot_allreduce_and_attn_floor(void) {
    const char *m = "meta-llama/Llama-3.1-8B-Instruct";
    const int V = DLP_LLM_ENGINE_MODERN, SG = DLP_LLM_ENGINE_SGLANG, V0 = DLP_LLM_ENGINE_VLLM_V0;
    CHECK_NEAR(step_part_us(m, "h100-sxm", V, 8, 1, 1000, 1), 360.6, 0.1);
    CHECK_NEAR(step_part_us(m, "h100-sxm", SG, 8, 1, 1000, 1), 223.5, 0.1);
    const dlp_device *h100 = dlp_devdb_find(db, "h100-sxm");
    double nccl = 64.0 * dlp__llm_coll_s(h100, DLP__COLL_ALLREDUCE, 8, 8192.0) * 1e6;
    CHECK(nccl > 2.0 * 360.6);
    CHECK_NEAR(step_part_us(m, "h100-sxm", V0, 8, 1, 1000, 1), nccl, 1e-6);
    double big = 64.0 * dlp__llm_coll_s(h100, DLP__COLL_ALLREDUCE, 8, 256.0 * 8192.0) * 1e6;
    CHECK_NEAR(step_part_us(m, "h100-sxm", V, 8, 256, 1000, 1), big, 1e-6);
    CHECK_NEAR(step_part_us(m, "h100-sxm", V, 1, 1, 1000, 0), 320.59, 0.01);
    CHECK_NEAR(step_part_us(m, "h100-sxm", V0, 1, 1, 1000, 0), 110.03, 0.01);
}

/* A prompt arrives whole and is prefilled in the step after it arrives (in
 * chunks of 8192 tokens), not spread over the G steps of a generation
 * (llm_serve.c mixed_step).  So an aggregated replica's TPOT is its decode
 * step plus, per step, R / G prompts' prefill: R clients each bring one
 * prompt per G output tokens.  By hand, with the prefill alone as the cost
 * of a prompt's chunk step (its R decodes ride in it for little more):
 *   TPOT - decode step ~ (R / G) x prefill, within 20 % (the chunk step's
 *   decodes read the weights the prompt reads anyway).
 * Spreading the prompt instead put R S / G = 32 prompt tokens in every step
 * of Qwen3-30B-A3B (128 experts, 8 per token): the 36 rows of a step hit
 * 128 (1 - (15/16)^36) = 115 experts against 128 (1 - (15/16)^4) = 29 for
 * the 4 decodes alone, ~3.9x the expert bytes every step, several times
 * what the one prefill per 256 steps costs.  Dense (Llama-3.1-8B, 8 clients
 * of 8192 + 256): the chunk's compute, which the spread-out slivers hid
 * under the decode's weight reads, is now paid. */
static void t_prompt_arrives_whole(void) {
    dlp_error e = {0};
    dlp_llm_prediction p;
    struct {
        const char *model;
        int gpus, R, S, G;
    } cs[] = {{"Qwen/Qwen3-30B-A3B-Instruct-2507", 1, 4, 8192, 1024},
              {"meta-llama/Llama-3.1-8B-Instruct", 1, 8, 8192, 256}};
    for (int i = 0; i < 2; i++) {
        dlp_llm_workload wl = {.batch = 1, .seq = cs[i].S, .gen_tokens = cs[i].G, .quant = DLP_QT_BF16,
                               .n_gpus = cs[i].gpus, .concurrency = cs[i].R, .phase = DLP_LLM_AGG};
        CHECK(serve(cs[i].model, "h100-sxm", wl, &p, &e) == DLP_OK);
        CHECK(p.running == cs[i].R);
        double per_step = (double)cs[i].R / (double)cs[i].G * p.prefill_ms;
        double extra = p.tpot_ms - p.decode_step_ms;
        CHECK(extra >= 0.8 * per_step && extra <= 1.2 * per_step);
    }
}

/* MLA prompts attend in the un-absorbed form (docs/llm.md, "Serving"; the
 * DeepSeek-V2 paper's two forms, vLLM's mla/common.py "compute friendly
 * approach for prefill"): keys nope + rope = 192 and values 128 per head,
 * 2 x 128 x (192 + 128) = 81,920 FLOPs per query-key pair per layer,
 * whatever the latent rank; the absorbed form (decode) is 4 x 128 x (rank +
 * 64): 294,912 at rank 512, 1,081,344 at rank 2048.  DeepSeek-V3 fp8 on 8 x
 * B200 (TP 8), one 65,536-token prompt on a prefill worker:
 *   attention  61 x 65,536 x 32,769 pairs x 81,920 / 8 = 1.3415e15 FLOPs per
 *              GPU: >= 298 ms at the 4.5 PFLOPS fp8 peak;
 *   GEMMs      2 x 37.6e9 active x 65,536 / 8 = 6.16e14: >= 137 ms;
 * so the prefill is >= 0.435 s.  Raising the latent rank to 2048 leaves the
 * attention as it is and adds kv_a (7168 x 1536) and kv_b (1536 x 32,768)
 * per layer, 61.3 M x 61 = 3.74 G weights (+10 % of the GEMMs, +16 % of
 * their time at most with the head and norms), so the prompt's prefill grows
 * by well under 25 %; in the absorbed form its attention alone would grow
 * 3.67 x (more than 2 x the whole prefill). */
static void t_mla_prefill_unabsorbed(void) {
    dlp_error e = {0};
    dlp_llm_config c;
    CHECK(dlp_llm_catalogue_get("deepseek-ai/DeepSeek-V3", &c, &e) == DLP_OK);
    CHECK_I64(c.kv_lora_rank, 512);
    CHECK_I64(c.qk_nope_head_dim + c.qk_rope_head_dim, 192);
    CHECK_I64(c.v_head_dim, 128);
    dlp_llm_workload wl = {.batch = 1, .seq = 65536, .gen_tokens = 1, .quant = DLP_QT_FP8,
                           .kv_dtype = DLP_DT_FLOAT8E4M3FN, .n_gpus = 8, .concurrency = 1,
                           .phase = DLP_LLM_PREFILL_ONLY};
    const dlp_device *d = dlp_devdb_find(db, "b200");
    dlp_llm_prediction p, q;
    CHECK(dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &p, &e) == DLP_OK);
    c.kv_lora_rank = 2048;
    CHECK(dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &q, &e) == DLP_OK);
    printf("  DeepSeek-V3 64k prompt on 8 x B200: prefill %.1f ms (latent rank 512), %.1f ms (2048)\n",
           p.prefill_ms, q.prefill_ms);
    CHECK(p.prefill_ms >= 435.0);
    CHECK(q.prefill_ms > p.prefill_ms);
    CHECK(q.prefill_ms < 1.25 * p.prefill_ms);
}

/* round_ms, what bench_serving's splitwise slice reads as the prefill of a
 * batch of B prompts (docs/llm.md, "splitwise-sim as a scored slice"): a
 * prefill worker's R prompts of S tokens run back to back in chunks of
 * min(R S, 8,192) tokens, round = R S / chunk x the chunk's step
 * (llm_serve.c serve_steady_state).  By that definition, worked through:
 *   R = 1, S = 1,024: one chunk of the one prompt is the prompt's own
 *     prefill step, so round_ms = prefill_ms exactly;
 *   S = 1,024, R = 8: 8,192 tokens, one full chunk; R = 16: two of the same
 *     chunks, so round(16) = 2 x round(8) exactly;
 *   and one chunk of 8 prompts reads the weights once where 8 prompts one
 *     by one read them 8 times: prefill_ms < round(8) < 8 x prefill_ms. */
static void t_prefill_round_of_a_batch(void) {
    dlp_error e = {0};
    dlp_llm_config c;
    CHECK(dlp_llm_catalogue_get("meta-llama/Llama-3.1-8B-Instruct", &c, &e) == DLP_OK);
    const dlp_device *d = dlp_devdb_find(db, "h100-sxm");
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 128, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .phase = DLP_LLM_PREFILL_ONLY};
    dlp_llm_prediction p1, p8, p16;
    wl.concurrency = wl.max_seqs = 1;
    CHECK(dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &p1, &e) == DLP_OK);
    wl.concurrency = wl.max_seqs = 8;
    CHECK(dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &p8, &e) == DLP_OK);
    wl.concurrency = wl.max_seqs = 16;
    CHECK(dlp_llm_predict(&c, d, db, &wl, &ANALYTIC, &p16, &e) == DLP_OK);
    printf("  Llama-3.1-8B, 1k prompts, H100: round %.2f / %.2f / %.2f ms at 1 / 8 / 16 prompts, prefill %.2f ms\n",
           p1.round_ms, p8.round_ms, p16.round_ms, p1.prefill_ms);
    CHECK_NEAR(p1.round_ms, p1.prefill_ms, 1e-9 * p1.prefill_ms);
    CHECK_NEAR(p16.round_ms, 2.0 * p8.round_ms, 1e-9 * p8.round_ms);
    CHECK(p8.round_ms > p1.prefill_ms);
    CHECK(p8.round_ms < 8.0 * p1.prefill_ms);
}

/* A prefill worker's TTFT carries the handoff of its prompt's KV cache to
 * a decode worker (the client's first token comes from the decode side;
 * docs/llm.md, "Serving", h123).  By hand:
 *  - DeepSeek-V3 (61 layers, MLA latent 512 + rope 64 per token and layer,
 *    fp8 cache: 1 B) 8192-token prompt: 61 x 576 x 8192 = 287,834,112 B, the
 *    one latent (no split under TP).  8 x H200 (HGX, 8-GPU NVLink node: a
 *    decode worker of 8 more is in another node): the NIC, 50 GB/s:
 *    5.7567 ms.  8 x GB200 (NVL72 rack): NVLink 5, 1.8 TB/s both ways, 900
 *    GB/s one way: 0.31982 ms.
 *  - Llama-3.1-8B bf16 on one H100, 4096 tokens: 2 x 32 x 8 x 128 x 2 B x
 *    4096 = 536,870,912 B; a decode worker of one GPU fits the node beside
 *    it: NVLink 4, 450 GB/s one way: 1.19305 ms.
 * At one client the worker's TTFT is then the prompt's prefill + the
 * handoff + the front end exactly; an aggregated replica hands nothing. */
static void t_kv_handoff_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_prediction p;
    dlp_llm_workload wl = {.batch = 1, .seq = 8192, .gen_tokens = 1024, .quant = DLP_QT_FP8,
                           .kv_dtype = DLP_DT_FLOAT8E4M3FN, .n_gpus = 8, .concurrency = 1,
                           .engine = DLP_LLM_ENGINE_TRTLLM, .phase = DLP_LLM_PREFILL_ONLY};
    CHECK(serve("deepseek-ai/DeepSeek-V3", "h200", wl, &p, &e) == DLP_OK);
    CHECK_NEAR(p.kv_handoff_ms, 287834112.0 / 50e9 * 1e3, 1e-6);
    CHECK_NEAR(p.ttft_ms, p.prefill_ms + p.kv_handoff_ms + p.request_ms, 1e-9 * p.ttft_ms);
    printf("  DeepSeek-V3 8k prompt, prefill worker on 8 x H200: handoff %.3f ms of TTFT %.1f ms\n", p.kv_handoff_ms,
         p.ttft_ms);
    CHECK(serve("deepseek-ai/DeepSeek-V3", "gb200", wl, &p, &e) == DLP_OK);
    CHECK_NEAR(p.kv_handoff_ms, 287834112.0 / 900e9 * 1e3, 1e-7);
    dlp_llm_workload w2 = {.batch = 1, .seq = 4096, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 1, .phase = DLP_LLM_PREFILL_ONLY};
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", w2, &p, &e) == DLP_OK);
    CHECK_NEAR(p.kv_handoff_ms, 536870912.0 / 450e9 * 1e3, 1e-7);
    w2.phase = DLP_LLM_AGG;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", w2, &p, &e) == DLP_OK);
    CHECK(p.kv_handoff_ms == 0);
}

/* Issue 22's "TTFT >= prefill at every concurrency and = it at one client",
 * for every engine now that the overlapping schedulers wait a step more:
 * DeepSeek-V3 fp8 on 8 x B200, 1024 + 1024, aggregated, 1 to 512 clients:
 * TTFT >= one prompt's prefill + the front end, equal at one client, and
 * never falling as clients are added. */
static void t_ttft_at_least_prefill_all_engines(void) {
    dlp_error e = {0};
    const int eng[3] = {DLP_LLM_ENGINE_MODERN, DLP_LLM_ENGINE_TRTLLM, DLP_LLM_ENGINE_SGLANG};
    for (int k = 0; k < 3; k++) {
        double last = 0;
        for (int64_t c = 1; c <= 512; c *= 2) {
            dlp_llm_prediction p;
            dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 1024, .quant = DLP_QT_FP8,
                                   .kv_dtype = DLP_DT_FLOAT8E4M3FN, .n_gpus = 8, .concurrency = c,
                                   .engine = eng[k]};
            CHECK(serve("deepseek-ai/DeepSeek-V3", "b200", wl, &p, &e) == DLP_OK);
            CHECK(p.ttft_ms >= p.prefill_ms + p.request_ms - 1e-9 * p.ttft_ms);
            if (c == 1) CHECK_NEAR(p.ttft_ms, p.prefill_ms + p.request_ms, 1e-9 * p.ttft_ms);
            CHECK(p.ttft_ms >= last);
            last = p.ttft_ms;
        }
    }
}

/* The MoE layers and the all-to-all of expert parallelism by hand.  With
 * attention DP = EP = the GPUs (no attention TP: no all-reduce) the step's
 * collectives are one dispatch and one combine per MoE layer.  The true MoE
 * layer counts, from the configs: Qwen3-30B-A3B 48 (48 layers, all sparse),
 * DeepSeek-V3 58 (61 layers, first_k_dense_replace 3), Kimi-K2.5 60 (61,
 * first_k_dense_replace 1), MiniMax-M2.5 62 (62, all sparse); all route a
 * token to 8 experts.  The profile had taken the largest count of an expert
 * matrix, twice these where gate and up are separate matrices (96, 116,
 * 120, 124).  Per layer, from the fitted kernels (llm_serve.c A2A_*,
 * tools/moe/fit_ep_a2a.py on aiconfigurator's DeepEP tables): dispatch 11.49
 * us + bytes / (0.610 x the one-way NVLink 450 GB/s = 274.5 GB/s), combine
 * 11.27 us + bf16 bytes / (0.546 x 450 = 245.7 GB/s); dispatch bytes per
 * element 1 + 4/128 = 1.03125 where the experts run fp8, else 2.  8 clients
 * decoding, one token each: a GPU receives 8 x 8 / ep routed rows.
 *   Qwen3-30B-A3B bf16, 2 x H100, ep 2: 32 rows x 2048 = 65,536 elements;
 *     131,072 B / 274.5 GB/s = 0.4775 us, 131,072 B / 245.7 GB/s = 0.5335
 *     us: 23.771 us a layer, x 48 = 1.1410 ms (x 96: 2.28 ms before).
 *   DeepSeek-V3 fp8, 8 x H200, ep 8: 8 rows x 7168 = 57,344; 59,136 B ->
 *     0.2154 us, 114,688 B -> 0.4668 us: 23.442 us, x 58 = 1.3596 ms.
 *   Kimi-K2.5 int4 (16-bit activations), 8 x H200: 114,688 B both ways:
 *     0.4178 + 0.4668: 23.645 us, x 60 = 1.4187 ms.
 *   MiniMax-M2.5 fp8, 8 x H200: 8 x 3072 = 24,576; 25,344 B -> 0.0923 us,
 *     49,152 B -> 0.2000 us: 23.052 us, x 62 = 1.4292 ms.
 * Past the node (DeepSeek-V3 fp8 on 16 x H100, ep 16, 16 clients): half the
 * peers are on the other node; floors 22.8 + 26.7 us, the half of 8 rows x
 * 7168 x (1.03125 + 2) B that leaves = 86,912 B at the NIC's 50 GB/s =
 * 1.738 us: 51.238 us, x 58 = 2.9718 ms. */
static void t_moe_layers_and_alltoall(void) {
    static const struct {
        const char *model, *dev;
        int gpus, quant, clients;
        double comm_ms;
    } cases[] = {
        {"Qwen/Qwen3-30B-A3B-Instruct-2507", "h100-sxm", 2, DLP_QT_BF16, 8, 1.1410},
        {"deepseek-ai/DeepSeek-V3", "h200", 8, DLP_QT_FP8, 8, 1.3596},
        {"moonshotai/Kimi-K2.5", "h200", 8, DLP_QT_INT4, 8, 1.4187},
        {"MiniMaxAI/MiniMax-M2.5", "h200", 8, DLP_QT_FP8, 8, 1.4292},
        {"deepseek-ai/DeepSeek-V3", "h100-sxm", 16, DLP_QT_FP8, 16, 2.9718},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dlp_error e = {0};
        dlp_llm_prediction p;
        dlp_llm_workload wl = {.batch = 1, .seq = 128, .gen_tokens = 128, .quant = cases[i].quant,
                               .n_gpus = cases[i].gpus, .ep = cases[i].gpus, .attn_dp = cases[i].gpus,
                               .concurrency = cases[i].clients, .phase = DLP_LLM_DECODE_ONLY};
        CHECK(serve(cases[i].model, cases[i].dev, wl, &p, &e) == DLP_OK);
        CHECK(p.running == cases[i].clients);
        CHECK_NEAR(p.comm_ms, cases[i].comm_ms, 2e-4);
    }
}

/* Expert parallelism's dispatch / combine in a prompt step by engine
 * (issue 22, h191), by hand: DeepSeek-V3 fp8 on 8 x H200, attention DP 8 =
 * EP 8 (no attention TP, so the collectives are the MoE layers' alone),
 * one step of 8 prompts of 1024 (8192 tokens), 58 MoE layers.
 * SGLang (DeepEP normal mode on extend batches): a token's 8 of 256
 * experts miss a given rank (32 experts) with probability
 * prod_{i<8} (224 - i) / (256 - i) = 0.338168, so it goes to
 * 8 x (1 - 0.338168) = 5.29465 ranks; a GPU receives 8192 x 5.29465 / 8 =
 * 5421.72 rows x 7168: dispatch 5421.72 x 7168 x 1.03125 B / 257.0 GB/s =
 * 155.943 us, combine x 2 B / 300.6 GB/s = 258.569 us, + 31.85 + 41.72 us
 * = 488.082 us a layer, x 58 = 28.3088 ms.  The low-latency price of the
 * same step (vLLM: every routed row, 8192 x 8 / 8 a GPU): 11.49 + 11.27 us
 * + 8192 x 7168 x (1.03125 / 274.5 + 2 / 245.7) GB/s = 721.345 us, x 58 =
 * 41.838 ms.  TensorRT-LLM (EP 8 <= top_k 8: all-gather + reduce-scatter):
 * the gathered tensor 8192 x 7168 x 2 B = 58,720,256 16-bit elements on
 * NCCL's 8-GPU table (H200: the H100 table, same link), between 2^25
 * (all-gather 0.20925 ms, reduce-scatter 0.20083) and 2^26 (0.3886,
 * 0.38129) at log2(1.75) = 0.807355: 0.344915 + 0.336991 = 0.681906 ms a
 * layer, x 58 = 39.5506 ms.  A decode step of one sequence a rank keeps
 * the low-latency kernels on SGLang: t_moe_layers_and_alltoall's 1.3596
 * ms.  TensorRT-LLM on 32 x GB200 (EP 32 > top_k, one NVL72 rack: its
 * MNNVL all-to-all), 32 prompts of 1024: a token misses a rank's 8
 * experts with probability prod_{i<8} (248 - i) / (256 - i) = 0.772913,
 * so it reaches 32 x 0.227087 = 7.26680 ranks; a rank sends 1024 x
 * 7.26680 x 31 / 32 = 7208.67 rows x 7168 x (2 + 2) B (DeepSeek's fp8
 * block scales dispatch 16 bits) = 206.687 MB / 437.6 GB/s = 472.319 us,
 * + 42.50 us = 514.819 us a layer, x 58 = 29.8595 ms. */
static void t_ep_prompt_comm_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_config c;
    CHECK(dlp_llm_catalogue_get("deepseek-ai/DeepSeek-V3", &c, &e) == DLP_OK);
    const dlp_device *d = dlp_devdb_find(db, "h200");
    static const struct {
        int engine;
        double pf_ms, dec_ms;
    } cs[] = {{DLP_LLM_ENGINE_SGLANG, 28.3088, 1.3596},
              {DLP_LLM_ENGINE_MODERN, 41.8380, 1.3596},
              {DLP_LLM_ENGINE_TRTLLM, 39.5506, -1}};
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 128, .quant = DLP_QT_FP8, .n_gpus = 8,
                               .concurrency = 8, .ep = 8, .attn_dp = 8, .phase = DLP_LLM_PREFILL_ONLY,
                               .engine = cs[i].engine, .max_seqs = 64};
        int cdt = dlp_llm_compute_dtype(d, DLP_QT_FP8, NULL, 0);
        dlp__llm_parts p;
        CHECK(dlp__llm_iter_parts(&c, d, &wl, cdt, 1.0, 0, 1.0, 8192, 1024, &p, &e) == DLP_OK);
        CHECK_NEAR(p.comm_s * 1e3, cs[i].pf_ms, 2e-3);
        if (cs[i].dec_ms < 0) continue;
        wl.phase = DLP_LLM_DECODE_ONLY;
        CHECK(dlp__llm_iter_parts(&c, d, &wl, cdt, 1.0, 8, 256, 0, 0, &p, &e) == DLP_OK);
        CHECK_NEAR(p.comm_s * 1e3, cs[i].dec_ms, 2e-4);
    }
    const dlp_device *gb = dlp_devdb_find(db, "gb200");
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 128, .quant = DLP_QT_FP8, .n_gpus = 32,
                           .concurrency = 32, .ep = 32, .attn_dp = 32, .phase = DLP_LLM_PREFILL_ONLY,
                           .engine = DLP_LLM_ENGINE_TRTLLM, .max_seqs = 64};
    dlp__llm_parts p;
    CHECK(gb != NULL);
    CHECK(dlp__llm_iter_parts(&c, gb, &wl, dlp_llm_compute_dtype(gb, DLP_QT_FP8, NULL, 0), 1.0, 0, 1.0, 32768, 1024,
                              &p, &e) == DLP_OK);
    CHECK_NEAR(p.comm_s * 1e3, 29.8595, 2e-3);
}

/* Offline (wl.offline: one batch through LLM.generate(), no API server) on
 * vLLM <= 0.5, by hand.  The leaderboard's (served) CPU time is in part
 * the in-process API server's; offline vllm-v0 takes its own constants
 * (llm_serve.c VLLM_V0_OFFLINE_*).  Llama-3.1-8B on an H100, 64 prompts of
 * 512, 256 out, one GPU: served (20.5 + 0.217 x 64) = 34.388 ms a step,
 * offline 2.26 + 0.0658 x 64 = 6.4712 ms (h128's refit on
 * LLM-Inference-Bench's offline vLLM 0.5.3 rows), so the decode step is
 * 27.9168 ms shorter (the GPU's part the same).  No prompt arrives during the decode,
 * so TPOT = the decode step; no front end (request_ms 0); TTFT = the
 * batch's prefill rounds: 64 x 512 = 32,768 tokens = 4 chunks of 8192, and
 * the burst mean is (4 + 1) / 2 chunks, so TTFT = 4 / 2.5 x the burst mean.
 * On 4 GPUs the driver's handoff offline is 0.160 ms per further GPU (not
 * the served 11.8): 6.4712 + 3 x 0.160 = 6.9512 ms.  The modern engines'
 * offline steps: t_modern_offline_by_hand. */
static void t_offline_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_prediction v, o;
    dlp_llm_workload wl = {.batch = 1, .seq = 512, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 64, .max_seqs = 64, .engine = DLP_LLM_ENGINE_VLLM_V0};
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &v, &e) == DLP_OK);
    wl.offline = 1;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &o, &e) == DLP_OK);
    CHECK_I64(o.running, 64);
    /* served: 20.5 + 0.217 x 64 = 34.388 ms; offline (llm_serve.c
     * VLLM_V0_OFFLINE_*, fitted on LLM-Inference-Bench's vLLM 0.5.3 rows):
     * 2.26 + 0.0658 x 64 = 2.26 + 4.2112 = 6.4712 ms; the GPU step is the
     * same, so the steps differ by 34.388 - 6.4712 = 27.9168 ms */
    CHECK_NEAR(o.overhead_ms, 6.4712, 1e-5);
    CHECK_NEAR(v.decode_step_ms - o.decode_step_ms, 27.9168, 1e-5);
    CHECK_NEAR(o.tpot_ms, o.decode_step_ms, 1e-9 * o.tpot_ms);
    CHECK(v.request_ms > 0);
    CHECK_NEAR(o.request_ms, 0, 1e-12);
    CHECK_NEAR(o.ttft_ms, 4.0 / 2.5 * o.ttft_burst_ms, 1e-9 * o.ttft_ms);
    CHECK_NEAR(o.e2e_ms, o.ttft_ms + 255.0 * o.tpot_ms, 1e-9 * o.e2e_ms);
    CHECK(o.power_per_gpu_w > 0 && o.power_per_gpu_w <= 700.0); /* the H100 SXM's TDP */
    wl.n_gpus = 4;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &o, &e) == DLP_OK);
    /* + 0.160 ms per GPU beyond the first: 6.4712 + 3 x 0.160 = 6.9512 */
    CHECK_NEAR(o.overhead_ms, 6.9512, 1e-5);
    wl.n_gpus = 1;
    wl.engine = DLP_LLM_ENGINE_MODERN;
    /* a batch at once has no arrival rate */
    wl.concurrency = 0, wl.rate = 2.0;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &o, &e) == DLP_EINVAL);
    CHECK(strstr(e.msg, "offline") != NULL);
}

/* Offline on the modern engines, by hand (h131).  vLLM >= 0.6's offline
 * CPU time per step (llm_serve.c MODERN_OFFLINE_*, fitted on LLM-Inference-
 * Bench's vLLM 0.6.1 A100 rows): 2.96 ms + 0.0789 ms per running sequence,
 * no per-GPU term (it came out negative, held at 0).  Llama-3.1-8B, 64
 * prompts of 512, 256 out, on an A100 40GB: 2.96 + 0.0789 x 64 = 2.96 +
 * 5.0496 = 8.0096 ms a step, on 1 GPU and on 4 alike.  Served, the same
 * engine keeps its round numbers (silicon's served rows do not move): its
 * TPOT step carries 0.25 of a prompt beside the 64 decodes
 * (t_engine_cpu_by_hand), 0.35 + 0.010 x 64.25 = 0.9925 ms, its decode
 * step alone 0.35 + 0.010 x 64 = 0.99 ms; SGLang and TensorRT-LLM keep
 * the round numbers offline too: 0.99 ms.  decode_step_ms is the step with
 * no prompt tokens in both modes and its GPU part is the same, so the two
 * differ by exactly 8.0096 - 0.99 = 7.0196 ms. */
/* vLLM 0.6.1 offline on ROCm (h141, llm_serve.c rocm_offline_gpu_x): the
 * GPU part of a decode step (total - the engine's CPU time) is 2.27x the
 * served one's on MI300X and MI250, where the two modes differ only in the
 * CPU time (a decode-only step: no prompt chunk); 1x on H100 and under
 * vllm-v0.  By hand, the offline CPU time of 16 running sequences:
 * 2.96 + 0.0789 x 16 = 4.2224 ms (MODERN_OFFLINE_*), served 0.35 + 0.010 x
 * 16 = 0.51 ms (MODERN_CPU). */
static double gpu_part_s(const dlp_llm_config *c, const dlp_device *d, int engine, int offline, double *ovh) {
    dlp_llm_workload wl = {.quant = DLP_QT_FP16, .n_gpus = 1, .kv_dtype = DLP_DT_FLOAT16, .engine = engine,
                           .offline = offline};
    int cdt = dlp_llm_compute_dtype(d, DLP_QT_FP16, NULL, 0);
    dlp__llm_parts p;
    dlp_error e = {0};
    if (dlp__llm_iter_parts(c, d, &wl, cdt, 2.0, 16, 1024, 0, 0, &p, &e) != DLP_OK) return -1;
    *ovh = p.ovh_s;
    return p.total_s - p.ovh_s;
}

static void t_rocm_offline_gpu_x(void) {
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("Qwen/Qwen3-0.6B", &c, &e) == DLP_OK);
    const char *amd[] = {"mi300x", "mi250"};
    const int M = DLP_LLM_ENGINE_MODERN, V0 = DLP_LLM_ENGINE_VLLM_V0;
    double o_off, o_srv;
    for (int i = 0; i < 2; i++) {
        const dlp_device *d = dlp_devdb_find(db, amd[i]);
        CHECK(d != NULL);
        if (!d) continue;
        double off = gpu_part_s(&c, d, M, 1, &o_off), srv = gpu_part_s(&c, d, M, 0, &o_srv);
        CHECK(srv > 0);
        CHECK_NEAR(off / srv, 2.27, 1e-9);
        CHECK_NEAR(o_off * 1e3, 4.2224, 1e-9);
        CHECK_NEAR(o_srv * 1e3, 0.51, 1e-9);
        /* vLLM <= 0.5 on ROCm is not v0.6.1's build: no factor */
        CHECK_NEAR(gpu_part_s(&c, d, V0, 1, &o_off) / gpu_part_s(&c, d, V0, 0, &o_srv), 1.0, 1e-9);
    }
    const dlp_device *h100 = dlp_devdb_find(db, "h100-sxm");
    CHECK(h100 != NULL);
    if (h100) CHECK_NEAR(gpu_part_s(&c, h100, M, 1, &o_off) / gpu_part_s(&c, h100, M, 0, &o_srv), 1.0, 1e-12);
}

static void t_modern_offline_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_prediction s, o;
    dlp_llm_workload wl = {.batch = 1, .seq = 512, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 64, .max_seqs = 64, .engine = DLP_LLM_ENGINE_MODERN};
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "a100-40gb", wl, &s, &e) == DLP_OK);
    wl.offline = 1;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "a100-40gb", wl, &o, &e) == DLP_OK);
    CHECK_I64(o.running, 64);
    CHECK_NEAR(o.overhead_ms, 8.0096, 1e-6);
    CHECK_NEAR(s.overhead_ms, 0.9925, 1e-6);
    CHECK_NEAR(o.decode_step_ms - s.decode_step_ms, 7.0196, 1e-6);
    CHECK_NEAR(o.tpot_ms, o.decode_step_ms, 1e-9 * o.tpot_ms);
    CHECK_NEAR(o.request_ms, 0, 1e-12);
    wl.n_gpus = 4; /* no per-GPU term */
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "a100-40gb", wl, &o, &e) == DLP_OK);
    CHECK_NEAR(o.overhead_ms, 8.0096, 1e-6);
    wl.n_gpus = 1;
    static const int others[] = {DLP_LLM_ENGINE_SGLANG, DLP_LLM_ENGINE_TRTLLM};
    for (int i = 0; i < 2; i++) {
        wl.engine = others[i];
        CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "a100-40gb", wl, &o, &e) == DLP_OK);
        CHECK_NEAR(o.overhead_ms, 0.99, 1e-6);
    }
}

/* The engines' defaults (dlp__llm_engine_defaults), each value from the
 * engine's source as cited there:
 *  vLLM V1 (vllm/engine/arg_utils.py get_batch_defaults): memory >= 70 GiB
 *    and no "a100" in the name: served (OPENAI_API_SERVER) 8,192 tokens,
 *    offline (LLM_CLASS) 16,384, max_num_seqs 1,024 for both; else served
 *    2,048, offline 8,192, max_num_seqs 256.  H100 SXM 80 GiB and MI300X
 *    192 GiB are large; A100 80 GB (SXM and PCIe) are out by name; L4 24
 *    GiB and A100 40 GB are small; the A800 80GB PCIe has no "a100" in
 *    its name and is large.
 *  SGLang (server_args.py): chunked_prefill_size 2,048 under 35 GiB (T4
 *    16, L4 24), 4,096 under 60 (L40S 48), 8,192 under 160 (H100 80, H200
 *    141), 16,384 from 160 (B200 180).
 *  TensorRT-LLM (BuildConfig): max_num_tokens 8,192, max_batch_size 2,048.
 *  vllm-v0: 8,192 (the stand-in for max(max_model_len, 2,048)) and 256.
 * A workload's own values win. */
static void t_engine_defaults(void) {
    struct { const char *dev; int engine, offline; int64_t chunk, seqs; } cs[] = {
        {"h100-sxm", DLP_LLM_ENGINE_MODERN, 0, 8192, 1024},
        {"h100-sxm", DLP_LLM_ENGINE_MODERN, 1, 16384, 1024},
        {"mi300x", DLP_LLM_ENGINE_MODERN, 0, 8192, 1024},
        {"mi300x", DLP_LLM_ENGINE_MODERN, 1, 16384, 1024},
        {"a800-pcie-80gb", DLP_LLM_ENGINE_MODERN, 0, 8192, 1024},
        {"a100-80gb", DLP_LLM_ENGINE_MODERN, 0, 2048, 256},
        {"a100-80gb", DLP_LLM_ENGINE_MODERN, 1, 8192, 256},
        {"a100-pcie-80gb", DLP_LLM_ENGINE_MODERN, 0, 2048, 256},
        {"a100-40gb", DLP_LLM_ENGINE_MODERN, 1, 8192, 256},
        {"l4", DLP_LLM_ENGINE_MODERN, 0, 2048, 256},
        {"l4", DLP_LLM_ENGINE_MODERN, 1, 8192, 256},
        {"t4", DLP_LLM_ENGINE_SGLANG, 0, 2048, 256},
        {"l4", DLP_LLM_ENGINE_SGLANG, 0, 2048, 256},
        {"l40s", DLP_LLM_ENGINE_SGLANG, 0, 4096, 256},
        {"h100-sxm", DLP_LLM_ENGINE_SGLANG, 0, 8192, 256},
        {"h200", DLP_LLM_ENGINE_SGLANG, 0, 8192, 256},
        {"b200", DLP_LLM_ENGINE_SGLANG, 0, 16384, 256},
        {"l4", DLP_LLM_ENGINE_TRTLLM, 0, 8192, 2048},
        {"b200", DLP_LLM_ENGINE_TRTLLM, 1, 8192, 2048},
        {"h100-sxm", DLP_LLM_ENGINE_VLLM_V0, 0, 8192, 256},
        {"l4", DLP_LLM_ENGINE_VLLM_V0, 1, 8192, 256},
    };
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        const dlp_device *d = dlp_devdb_find(db, cs[i].dev);
        CHECK(d != NULL);
        if (!d) continue;
        dlp_llm_workload wl = {.engine = cs[i].engine, .offline = cs[i].offline};
        int64_t ck = 0, ms = 0;
        dlp__llm_engine_defaults(d, &wl, &ck, &ms);
        CHECK_I64(ck, cs[i].chunk);
        CHECK_I64(ms, cs[i].seqs);
        if (ck != cs[i].chunk || ms != cs[i].seqs)
            fprintf(stderr, "  %s engine %d offline %d: %lld / %lld\n", cs[i].dev, cs[i].engine, cs[i].offline,
                    (long long)ck, (long long)ms);
        wl.chunk_tokens = 3000, wl.max_seqs = 77;
        dlp__llm_engine_defaults(d, &wl, &ck, &ms);
        CHECK_I64(ck, 3000);
        CHECK_I64(ms, 77);
    }
    /* what a prediction used, reported: the chunk sizes the workspace
     * (Llama-3.1-8B's one-token peak is token-wise, so 16,384 tokens hold
     * twice 8,192's) */
    dlp_error e = {0};
    dlp_llm_prediction a, b;
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 8};
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &a, &e) == DLP_OK);
    wl.offline = 1;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &b, &e) == DLP_OK);
    CHECK_I64(a.chunk_tokens, 8192);
    CHECK_I64(b.chunk_tokens, 16384);
    CHECK_I64(a.max_seqs, 1024);
    CHECK_NEAR(b.need.workspace_mb, 2.0 * a.need.workspace_mb, 1e-9 * b.need.workspace_mb);
    wl.chunk_tokens = 8192;
    CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &b, &e) == DLP_OK);
    CHECK_NEAR(b.need.workspace_mb, a.need.workspace_mb, 0);
}

/* The context boundary as vLLM checks it, on OPT-1.3B (2,048 positions,
 * max_model_len when none is given): the OpenAI server refuses prompt +
 * max_tokens > max_model_len, V1 stops at num_tokens >= max_model_len, so
 * 2,032 + 16 = 2,048 runs and 2,032 + 17 does not; vLLM <= 0.6 offline
 * stops once the length passes max_model_len (the last sampled token takes
 * no position): 2,032 + 17 = 2,049 runs, + 18 does not, and a prompt of
 * exactly 2,048 runs its prefill and one token; no engine takes a prompt
 * of 2,049.  Generate mode keeps prompt + gen <= 2,048. */
static void t_context_boundary(void) {
    const char *m = "facebook/opt-1.3b";
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get(m, &c, &e) == DLP_OK);
    CHECK_I64(c.max_position_embeddings, 2048);
    struct { int engine, offline; int64_t seq, gen; dlp_status want; } cs[] = {
        {DLP_LLM_ENGINE_MODERN, 0, 2032, 16, DLP_OK},
        {DLP_LLM_ENGINE_MODERN, 0, 2032, 17, DLP_EINVAL},
        {DLP_LLM_ENGINE_MODERN, 1, 2032, 17, DLP_EINVAL},
        {DLP_LLM_ENGINE_MODERN, 1, 2048, 1, DLP_EINVAL},
        {DLP_LLM_ENGINE_VLLM_V0, 0, 2032, 16, DLP_OK},
        {DLP_LLM_ENGINE_VLLM_V0, 0, 2032, 17, DLP_EINVAL},
        {DLP_LLM_ENGINE_VLLM_V0, 1, 2032, 17, DLP_OK},
        {DLP_LLM_ENGINE_VLLM_V0, 1, 2032, 18, DLP_EINVAL},
        {DLP_LLM_ENGINE_VLLM_V0, 1, 2048, 1, DLP_OK},
        {DLP_LLM_ENGINE_VLLM_V0, 1, 2048, 2, DLP_EINVAL},
        {DLP_LLM_ENGINE_VLLM_V0, 1, 2049, 1, DLP_EINVAL},
        {DLP_LLM_ENGINE_SGLANG, 0, 2032, 17, DLP_EINVAL},
        {DLP_LLM_ENGINE_TRTLLM, 0, 2032, 16, DLP_OK},
    };
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        dlp_llm_prediction p;
        dlp_llm_workload wl = {.batch = 1, .seq = cs[i].seq, .gen_tokens = cs[i].gen, .quant = DLP_QT_FP16,
                               .n_gpus = 1, .concurrency = 4, .engine = cs[i].engine, .offline = cs[i].offline};
        e.msg[0] = 0;
        dlp_status st = serve(m, "h100-sxm", wl, &p, &e);
        CHECK(st == cs[i].want);
        if (st != cs[i].want) fprintf(stderr, "  case %zu: status %d (%s)\n", i, (int)st, e.msg);
        if (st) CHECK(strstr(e.msg, "2048") != NULL || strstr(e.msg, "2,048") != NULL);
    }
    /* generate mode (no serving engine): prompt + gen <= positions */
    dlp_llm_prediction p;
    dlp_llm_workload g = {.batch = 1, .seq = 2032, .gen_tokens = 16, .quant = DLP_QT_FP16, .n_gpus = 1};
    CHECK(dlp_llm_predict(&c, dlp_devdb_find(db, "h100-sxm"), db, &g, &ANALYTIC, &p, &e) == DLP_OK);
    g.gen_tokens = 17;
    CHECK(dlp_llm_predict(&c, dlp_devdb_find(db, "h100-sxm"), db, &g, &ANALYTIC, &p, &e) == DLP_EINVAL);
}

/* TensorRT-LLM's batch waiting (docs/llm.md, "Batch waiting"), Llama-3.1-8B on
 * an H100, 4 clients of 1,024-token prompts and 1,024 out.  Per decode step
 * a = R / G = 4 / 1024 = 0.00390625 prompts arrive; a held prompt's step
 * would carry its 1,024 tokens + 3 decodes.  (1) Timeout 20, threshold
 * 14,746 (the InferenceX Llama recipe: 0.9 x 16,384): the tokens need
 * ceil((14,746 - 1,027) / (1,024 a)) = 3,430 steps, so the timeout binds,
 * k = 20; the prompt that opens a wait waits 20, the a k = 0.078125 that come
 * during it 10: mean 20 (1 + 0.5 a 20) / (1 + a 20) = 20.78125 / 1.078125 =
 * 19.2753623 steps, in TTFT's steady part; TensorRT-LLM's TTFT weighs it
 * 1 - 0.14 (BURST_FIT_DECODE_FIRST): + 16.5768116 decode steps.  (2) A
 * threshold of 1,100 tokens: ceil(73 / 4) = 19 steps, mean 19 x 1.037109375
 * / 1.07421875 = 18.3436364, x 0.86 = 15.7755273 steps.  (3) Threshold 1,000
 * (reached at once), 1 client (nothing decoding: the engine does not wait)
 * and attention DP (the engine skips it): no change.  TPOT never moves. */
static void t_batch_wait_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_prediction p0, p1;
    const char *m = "meta-llama/Llama-3.1-8B-Instruct";
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 1024, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 4, .engine = DLP_LLM_ENGINE_TRTLLM};
    CHECK(serve(m, "h100-sxm", wl, &p0, &e) == DLP_OK);
    double dec = p0.decode_step_ms;
    wl.batch_wait_iters = 20, wl.batch_wait_tokens = 14746;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_OK);
    CHECK_NEAR(p1.ttft_ms - p0.ttft_ms, 16.5768116 * dec, 1e-6 * dec);
    CHECK_NEAR(p1.ttft_steady_ms - p0.ttft_steady_ms, 19.2753623 * dec, 1e-6 * dec);
    CHECK_NEAR(p1.tpot_ms, p0.tpot_ms, 1e-12 * p0.tpot_ms);
    wl.batch_wait_tokens = 1100;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_OK);
    CHECK_NEAR(p1.ttft_ms - p0.ttft_ms, 15.7755273 * dec, 1e-6 * dec);
    wl.batch_wait_tokens = 1000;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_OK);
    CHECK_NEAR(p1.ttft_ms, p0.ttft_ms, 1e-12 * p0.ttft_ms);
    wl.batch_wait_tokens = 14746, wl.concurrency = 1;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_OK);
    wl.batch_wait_iters = 0, wl.batch_wait_tokens = 0;
    CHECK(serve(m, "h100-sxm", wl, &p0, &e) == DLP_OK);
    CHECK_NEAR(p1.ttft_ms, p0.ttft_ms, 1e-12 * p0.ttft_ms);
    /* attention DP serves MoE layers: Qwen3-30B-A3B, 2 ranks, experts over both */
    dlp_llm_workload wd = wl;
    wd.concurrency = 8, wd.n_gpus = 2, wd.attn_dp = 2, wd.ep = 2;
    CHECK(serve("Qwen/Qwen3-30B-A3B", "h100-sxm", wd, &p0, &e) == DLP_OK);
    wd.batch_wait_iters = 20, wd.batch_wait_tokens = 14746;
    CHECK(serve("Qwen/Qwen3-30B-A3B", "h100-sxm", wd, &p1, &e) == DLP_OK);
    CHECK_NEAR(p1.ttft_ms, p0.ttft_ms, 1e-12 * p0.ttft_ms);
    /* refused, not ignored: one limit alone, another engine, a worker, offline */
    wl.concurrency = 4, wl.batch_wait_iters = 20, wl.batch_wait_tokens = 0;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_EINVAL);
    CHECK(strstr(e.msg, "batch wait") != NULL);
    wl.batch_wait_tokens = 14746, wl.engine = DLP_LLM_ENGINE_MODERN;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_EINVAL);
    CHECK(strstr(e.msg, "trtllm") != NULL);
    wl.engine = DLP_LLM_ENGINE_TRTLLM, wl.phase = DLP_LLM_PREFILL_ONLY;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_EINVAL);
    wl.phase = DLP_LLM_AGG, wl.offline = 1;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_EINVAL);
}

/* TensorRT-LLM's cache (docs/llm.md "TensorRT-LLM's KV fraction"): served,
 * kv_cache_config.free_gpu_memory_fraction of the memory left once the
 * weights and the activations are in (KvCacheConfig: "the fraction of free
 * GPU memory"), where vLLM and SGLang take their fraction of the whole GPU;
 * the runtime's 1 GiB is out of both.  By the two formulas, with the
 * library's weights and workspace per GPU: Llama-3.1-8B bf16 on one H100
 * (80 GiB) at 0.9; offline (TensorRT engines, LLM-Inference-Bench) the
 * share of the whole. */
static void t_trtllm_kv_fraction_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_prediction p;
    const char *m = "meta-llama/Llama-3.1-8B-Instruct";
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 8, .engine = DLP_LLM_ENGINE_TRTLLM};
    for (int off = 0; off < 2; off++) {
        wl.offline = off;
        CHECK(serve(m, "h100-sxm", wl, &p, &e) == DLP_OK);
        double w = p.weights_mb / 1024.0, a = p.need.workspace_mb / 1024.0;
        double want = off ? 0.9 * 80.0 - w - a - 1.0 : 0.9 * (80.0 - w - a - 1.0);
        CHECK_NEAR(p.kv_cache_gib, want, 1e-6);
    }
    wl.offline = 0, wl.engine = DLP_LLM_ENGINE_MODERN;
    CHECK(serve(m, "h100-sxm", wl, &p, &e) == DLP_OK);
    CHECK_NEAR(p.kv_cache_gib, 0.9 * 80.0 - p.weights_mb / 1024.0 - p.need.workspace_mb / 1024.0 - 1.0, 1e-6);
}

/* vLLM 0.6.1 offline on CDNA3 (docs/llm.md "h160"): a decode-only step is
 * at least its GEMM FLOPs at 60 FLOP per compute unit per clock (54 until
 * h184 refit it beside paged attention V1's re-reads).  By hand,
 * Llama-2-70B (config.json: hidden 8192, 80 layers, 64 heads / 8 KV heads of
 * 128, intermediate 28672, vocab 32000): a layer's linear weights 8192 x
 * (8192 + 1024 + 1024 + 8192) + 3 x 8192 x 28672 = 855,638,016, x 80 plus
 * the LM head 8192 x 32000 = 68,713,185,280; 256 sequences on one MI300X
 * (304 CUs, 2.1 GHz): 2 x 68,713,185,280 x 256 / (60 x 304 x 2.1e9) =
 * 918.472 ms of GPU step (the engine's CPU part beside it); 256 x 64 query
 * heads pass 512 blocks, so V1's re-reads come on top: 256 sequences x
 * 80 layers x 2 x 8 KV heads x 128 x 192 tokens (128 + 128 / 2) x 7 more
 * reads x 2 bytes / (0.30 x 5.3 TB/s) = 70.907 ms; 989.379 ms in all.
 * At one sequence the floor is 4 ms and does not bind and V1's branch is
 * not taken (64 blocks); NVIDIA has neither. */
static void t_rocm_gemm_floor_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_prediction p0, p1;
    const char *m = "meta-llama/Llama-2-70b-hf";
    dlp_llm_workload wl = {.batch = 1, .seq = 128, .gen_tokens = 128, .quant = DLP_QT_FP16, .n_gpus = 1,
                           .concurrency = 256, .offline = 1, .engine = DLP_LLM_ENGINE_MODERN};
    CHECK(serve(m, "mi300x", wl, &p1, &e) == DLP_OK);
    CHECK(p1.running == 256);
    CHECK_NEAR(p1.decode_step_ms - p1.overhead_ms, 989.379, 0.01);
    dlp__llm_knob.rocm_floor_off = 1;
    CHECK(serve(m, "mi300x", wl, &p0, &e) == DLP_OK);
    CHECK(p0.decode_step_ms - p0.overhead_ms < 0.9 * 918.472);
    wl.concurrency = 1;
    CHECK(serve(m, "mi300x", wl, &p0, &e) == DLP_OK);
    dlp__llm_knob.rocm_floor_off = 0;
    CHECK(serve(m, "mi300x", wl, &p1, &e) == DLP_OK);
    CHECK_NEAR(p1.decode_step_ms, p0.decode_step_ms, 1e-12 * p0.decode_step_ms);
    wl.concurrency = 256, wl.n_gpus = 4, wl.quant = DLP_QT_FP16;
    for (int i = 0; i < 2; i++) { /* CDNA2 under V1's 512 blocks and NVIDIA: the toggle moves nothing */
        const char *dev = i ? "h100-sxm" : "mi250";
        wl.concurrency = i ? 256 : 2; /* Llama-2-70B on 4 GCDs: 16 query heads each */
        dlp__llm_knob.rocm_floor_off = 1;
        CHECK(serve(m, dev, wl, &p0, &e) == DLP_OK);
        dlp__llm_knob.rocm_floor_off = 0;
        CHECK(serve(m, dev, wl, &p1, &e) == DLP_OK);
        CHECK_NEAR(p1.e2e_ms, p0.e2e_ms, 1e-12 * p0.e2e_ms);
    }
}

/* vLLM 0.6.1 offline on ROCm, paged attention V1's many-blocks branch
 * (docs/llm.md "h184", llm_serve.c rocm_v1_extra_s).  By hand, Llama-3-8B
 * (config.json: 32 layers, 32 query heads, 8 KV heads of 128) on one MI250
 * GCD (1,638.4 GB/s, no GEMM floor on CDNA2), prompt 1,024 + 1,024
 * generated, fp16: 64 sequences x 32 heads = 2,048 blocks > 512, at the
 * mean context 1,024 + 512 = 1,536 the GCD's cache 64 x 32 x 2 x 8 x 128 x
 * 1,536 = 6,442,450,944 elements, re-read 32 / 8 - 1 = 3 more times at 2
 * bytes: 38,654,705,664 bytes / (0.30 x 1,638.4e9) = 78.643 ms a step
 * beside the rest.  16 sequences (512 blocks: V2) add nothing; Llama-2-7B
 * (MHA, no group) adds nothing at 64. */
static void t_rocm_v1_rereads_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_prediction p0, p1;
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 1024, .quant = DLP_QT_FP16, .n_gpus = 1,
                           .concurrency = 64, .offline = 1, .engine = DLP_LLM_ENGINE_MODERN};
    const char *m = "meta-llama/Meta-Llama-3-8B";
    CHECK(serve(m, "mi250", wl, &p1, &e) == DLP_OK);
    CHECK(p1.running == 64);
    dlp__llm_knob.rocm_floor_off = 1;
    CHECK(serve(m, "mi250", wl, &p0, &e) == DLP_OK);
    dlp__llm_knob.rocm_floor_off = 0;
    CHECK_NEAR(p1.decode_step_ms - p0.decode_step_ms, 78.643, 0.001);
    for (int i = 0; i < 2; i++) {
        wl.concurrency = i ? 64 : 16;
        const char *mm = i ? "meta-llama/Llama-2-7b-hf" : m;
        CHECK(serve(mm, "mi250", wl, &p1, &e) == DLP_OK);
        dlp__llm_knob.rocm_floor_off = 1;
        CHECK(serve(mm, "mi250", wl, &p0, &e) == DLP_OK);
        dlp__llm_knob.rocm_floor_off = 0;
        CHECK_NEAR(p1.decode_step_ms, p0.decode_step_ms, 1e-12 * p0.decode_step_ms);
    }
}

/* TensorRT-LLM's offline engines with multi_block_mode off (docs/llm.md
 * "h173", llm_serve.c trt_cta_rate): one decode-attention thread block per
 * head and sequence streams one KV head's cache of one sequence.  By hand,
 * Llama-2-7B (32 layers, 32 KV heads of 128, fp16 cache) on A100-40GB
 * (1,410 MHz boost) at TP 4, one sequence at context 3,072:
 *   a block's bytes per layer = 3,072 x 128 x 2 (K, V) x 2 B = 1,572,864
 *   rate = 28 B per SM clock x 1.41e9 = 39.48e9 B/s -> 39.8395 us
 *   per layer 8.58 us (the kernel floor) + 39.8395 = 48.4195 us, x 32 layers
 *   = 1.549425 ms of decode attention,
 * where without it the layers' kernel floors (32 x 8.58 us = 0.27 ms) and
 * the whole cache at the bandwidth (~0.08 ms: 32 x 2 x 4,096 x 3,072 x 2 B /
 * 4 GPUs / (0.85 x 1,555 GB/s)) stay under 1 ms.  Served TensorRT-LLM,
 * offline vLLM and the bench's switch leave the floor out; at 64 sequences
 * on one GPU the cache's bandwidth time (~19 ms) is above it: no change. */
static double trt_attn_dec_ms(int offline, int engine, int n_gpus, double n_dec) {
    dlp_llm_config c;
    dlp_error e = {0};
    const dlp_device *d = dlp_devdb_find(db, "a100-40gb");
    if (!d || dlp_llm_catalogue_get("meta-llama/Llama-2-7b-hf", &c, &e) != DLP_OK) return -1;
    dlp_llm_workload wl = {.quant = DLP_QT_FP16, .n_gpus = n_gpus, .engine = engine, .offline = offline};
    int cdt = dlp_llm_compute_dtype(d, DLP_QT_FP16, NULL, 0);
    dlp__llm_parts p;
    if (dlp__llm_iter_parts(&c, d, &wl, cdt, 2.0, n_dec, 3072, 0, 0, &p, &e) != DLP_OK) return -1;
    return p.attn_dec_s * 1e3;
}

static void t_trt_single_block_attn_by_hand(void) {
    const int T = DLP_LLM_ENGINE_TRTLLM;
    CHECK_NEAR(trt_attn_dec_ms(1, T, 4, 1), 1.549425, 1e-5);
    double served = trt_attn_dec_ms(0, T, 4, 1), vllm = trt_attn_dec_ms(1, DLP_LLM_ENGINE_MODERN, 4, 1);
    CHECK(served > 0 && served < 1.0);
    CHECK(vllm > 0 && vllm < 1.0);
    dlp__llm_knob.trt_cta_bpc = -1.0;
    CHECK_NEAR(trt_attn_dec_ms(1, T, 4, 1), served, 1e-9);
    double big0 = trt_attn_dec_ms(1, T, 1, 64);
    dlp__llm_knob.trt_cta_bpc = 0;
    CHECK(big0 > 10.0);
    CHECK_NEAR(trt_attn_dec_ms(1, T, 1, 64), big0, 1e-9 * big0);
}

/* TensorRT-LLM 0.11's XQA decode attention (wl.trt_xqa_block; docs/llm.md
 * "h210", llm_serve.c xqa_floor_s): one block per (KV head, sequence), in
 * waves of one per SM.  By hand, Llama-3-8B (32 layers, 32 query heads, 8 KV
 * heads of 128, fp16 cache) on one H100 SXM (132 SMs, 1,980 MHz boost), 64
 * sequences at context 2,048:
 *   blocks = 64 x 8 = 512; 512 x 4 >= 132, so XQA is picked; waves =
 *   ceil(512 / 132) = 4;
 *   a block's bytes per layer = 2,048 x 128 x 2 (K, V) x 2 B = 1,048,576;
 *   rate = 6.9 B per SM clock x 1.98e9 = 13.662e9 B/s;
 *   per layer 8.58 us + 4 x 1,048,576 / 13.662e9 s (307.0048 us) = 315.5848 us,
 *   x 32 layers = 10.098714 ms of decode attention,
 * where without it the step prices the whole cache's stream (64 x 2,048 x
 * 32 x 8 x 128 x 2 x 2 B = 8.59 GB; 3.02 ms at 0.85 of 3,350 GB/s, 6.31 ms as
 * the model's kernels run it): under the floor.  At one sequence 8 x 4 = 32
 * blocks x 4 < 132 SMs: XQA not picked, nothing moves; Llama-2-7B (32 KV
 * heads: plain MHA, which XQA refuses) never moves. */
static double xqa_attn_dec_ms(const char *model, int xqa, double n_dec) {
    dlp_llm_config c;
    dlp_error e = {0};
    const dlp_device *d = dlp_devdb_find(db, "h100-sxm");
    if (!d || dlp_llm_catalogue_get(model, &c, &e) != DLP_OK) return -1;
    dlp_llm_workload wl = {.quant = DLP_QT_FP16, .n_gpus = 1, .engine = DLP_LLM_ENGINE_TRTLLM, .offline = 1,
                           .trt_xqa_block = xqa};
    int cdt = dlp_llm_compute_dtype(d, DLP_QT_FP16, NULL, 0);
    dlp__llm_parts p;
    if (dlp__llm_iter_parts(&c, d, &wl, cdt, 2.0, n_dec, 2048, 0, 0, &p, &e) != DLP_OK) return -1;
    return p.attn_dec_s * 1e3;
}

static void t_trt_xqa_waves_by_hand(void) {
    const char *l3 = "meta-llama/Meta-Llama-3-8B", *l2 = "meta-llama/Llama-2-7b-hf";
    CHECK_NEAR(xqa_attn_dec_ms(l3, 1, 64), 10.098714, 1e-5);
    double off = xqa_attn_dec_ms(l3, 0, 64);
    CHECK(off > 3.0 && off < 0.7 * 10.098714);
    CHECK_NEAR(xqa_attn_dec_ms(l3, 1, 1), xqa_attn_dec_ms(l3, 0, 1), 1e-12);
    double m0 = xqa_attn_dec_ms(l2, 0, 64);
    CHECK(m0 > 0);
    CHECK_NEAR(xqa_attn_dec_ms(l2, 1, 64), m0, 1e-12 * m0);
}

/* The SMs' side of a floor-bound decode attention (floor_sm_draw,
 * docs/llm.md "h214"), the same case: 512 XQA blocks in 4 waves of 132 SMs
 * occupy 512 / 528 = 0.969697 of them over the floor's 10.098714 ms (above);
 * the cache's 64 x 2,048 x 131,072 B read at 0.85 of 3,350 GB/s is 6.033317
 * ms of peak bandwidth.  The DRAM's draw at peak, 6 pJ/bit x 8 x 3.35e12 B/s
 * = 160.8 W, is 0.523888 of the memory share's 0.63 x (700 - 0.304 x 700) =
 * 306.936 W (P_FIT_MEM, h225), so the SMs' side adds (1 - 0.523888) x
 * (0.969697 x 10.098714 - 6.033317) = 1.789885 ms of peak bandwidth (at the
 * 0.45 prior before h225: 1.002089); at one sequence no floor binds
 * (0), and with the switch off none is added. */
static double floor_sm_ms(int on, double n_dec) {
    dlp_llm_config c;
    dlp_error e = {0};
    const dlp_device *d = dlp_devdb_find(db, "h100-sxm");
    if (!d || dlp_llm_catalogue_get("meta-llama/Meta-Llama-3-8B", &c, &e) != DLP_OK) return -1;
    dlp_llm_workload wl = {.quant = DLP_QT_FP16, .n_gpus = 1, .engine = DLP_LLM_ENGINE_TRTLLM, .offline = 1,
                           .trt_xqa_block = 1};
    int cdt = dlp_llm_compute_dtype(d, DLP_QT_FP16, NULL, 0);
    dlp__llm_parts p;
    int was = dlp__llm_knob.floor_sm_draw;
    dlp__llm_knob.floor_sm_draw = on;
    dlp_status st = dlp__llm_iter_parts(&c, d, &wl, cdt, 2.0, n_dec, 2048, 0, 0, &p, &e);
    dlp__llm_knob.floor_sm_draw = was;
    return st == DLP_OK ? p.attn_sm_s * 1e3 : -1;
}

static void t_floor_sm_draw_by_hand(void) {
    CHECK_NEAR(floor_sm_ms(1, 64), 1.789885, 1e-5);
    CHECK_NEAR(floor_sm_ms(0, 64), 0.0, 1e-15);
}

/* Copies of one prompt decoded greedily (wl.same_prompts; docs/llm.md,
 * "Copies of one prompt", h185): Mixtral-8x7B (8 experts, top 2) on 4 H100s
 * under TensorRT-LLM offline.  By hand, balanced routing hits
 * 8 (1 - (1 - 2/8)^T) experts a layer: T = 1 gives 2, T = 2 gives 3.5, T = 16
 * gives 7.91981; copies route as one token, so 16 copies hit 2, as one
 * sequence does.  Where the MoE kernel's fit rules (linear in the experts
 * hit), 16 distinct sequences cost t1 + (7.91981 - 2) / (3.5 - 2) x (t2 - t1)
 * = t1 + 3.94654 (t2 - t1), and 16 copies t1 (their 16 rows against the same
 * two experts' weights).  A prompt round of 16 copies of 128 tokens routes
 * 128 tokens: 8 (1 - 0.75^128) = 8 experts, as 2,048 distinct ones do; a
 * dense model never moves. */
static double copies_expert_ms(const char *model, int same, double n_dec, double n_pf, double pf_len) {
    dlp_llm_config c;
    dlp_error e = {0};
    const dlp_device *d = dlp_devdb_find(db, "h100-sxm");
    if (!d || dlp_llm_catalogue_get(model, &c, &e) != DLP_OK) return -1;
    dlp_llm_workload wl = {.quant = DLP_QT_FP16, .n_gpus = 4, .engine = DLP_LLM_ENGINE_TRTLLM, .offline = 1,
                           .same_prompts = same};
    int cdt = dlp_llm_compute_dtype(d, DLP_QT_FP16, NULL, 0);
    dlp__llm_parts p;
    if (dlp__llm_iter_parts(&c, d, &wl, cdt, 2.0, n_dec, 256, n_pf, pf_len, &p, &e) != DLP_OK) return -1;
    double t = 0;
    for (int i = 0; i < p.n_lin; i++)
        if (p.lin_kind[i] == 1 || c.num_experts <= 0) t += p.lin_s[i]; /* the experts (a dense model: every GEMM) */
    return t * 1e3;
}

static void t_same_prompts_by_hand(void) {
    const char *mx = "mistralai/Mixtral-8x7B-v0.1", *l2 = "meta-llama/Llama-2-7b-hf";
    double t1 = copies_expert_ms(mx, 0, 1, 0, 0), t2 = copies_expert_ms(mx, 0, 2, 0, 0);
    double t16 = copies_expert_ms(mx, 0, 16, 0, 0), c16 = copies_expert_ms(mx, 1, 16, 0, 0);
    CHECK(t1 > 0 && t2 > t1);
    CHECK_NEAR(t16, t1 + 3.94654 * (t2 - t1), 1e-4 * t16);
    CHECK_NEAR(c16, t1, 0.02 * t1); /* the rows' activations only */
    CHECK(c16 < 0.5 * t16);
    CHECK_NEAR(copies_expert_ms(mx, 1, 1, 0, 0), t1, 1e-12 * t1);
    double p0 = copies_expert_ms(mx, 0, 0, 2048, 128), p1 = copies_expert_ms(mx, 1, 0, 2048, 128);
    CHECK(p0 > 0);
    CHECK_NEAR(p1, p0, 1e-9 * p0);
    double d0 = copies_expert_ms(l2, 0, 16, 0, 0), d1 = copies_expert_ms(l2, 1, 16, 0, 0);
    CHECK(d0 > 0);
    CHECK_NEAR(d1, d0, 1e-12 * d0);
}

/* TensorRT-LLM's GUARANTEED_NO_EVICT admission (h185): a request enters only
 * with room for prompt + every token it may generate, and none is paused.
 * Llama-2-7B (MHA: 2 x 32 x 32 x 128 x 2 B = 524,288 B a cached token, linear
 * in the tokens) on one A100-40GB, 2,048 + 2,048, 64 requests at once: the
 * cache holds N tokens (kv_capacity_tokens), so TensorRT-LLM runs
 * floor(N / 4,096) sequences and preempts none, where vLLM admits on the mean
 * live length 2,048 + 1,024 (floor(N / 3,072)) and recomputes the ones that
 * outgrow it (floor(floor(x) / n) = floor(x / n) for a whole n). */
static void t_trt_no_evict_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_prediction p;
    const char *m = "meta-llama/Llama-2-7b-hf";
    dlp_llm_workload wl = {.batch = 1, .seq = 2048, .gen_tokens = 2048, .quant = DLP_QT_FP16, .n_gpus = 1,
                           .concurrency = 64, .max_seqs = 64, .engine = DLP_LLM_ENGINE_TRTLLM, .offline = 1};
    CHECK(serve(m, "a100-40gb", wl, &p, &e) == DLP_OK);
    CHECK(p.kv_capacity_tokens > 4096 && p.kv_capacity_tokens < 64 * 3072);
    CHECK(p.running == p.kv_capacity_tokens / 4096);
    CHECK(p.max_concurrency == p.kv_capacity_tokens / 4096);
    CHECK(p.preempted == 0);
    wl.engine = DLP_LLM_ENGINE_MODERN;
    CHECK(serve(m, "a100-40gb", wl, &p, &e) == DLP_OK);
    CHECK(p.running == p.kv_capacity_tokens / 3072);
    CHECK(p.preempted > 0);
}

/* An offline batch's power spans its prompts (h202, llm_serve.c
 * offline_cycle): LLM-Inference-Bench's probes start before generate() and
 * stop after it, so the mean is over the n_it prompt batches (TTFT) and the
 * G - 1 decode steps.  Power is affine in the utilisations below the cap,
 * P = floor + span (pm um + pc uc), and the batch's utilisations are the
 * time-weighted means of its parts', so by hand
 *   P_batch x e2e = P_prompts x TTFT + P_decode x (G - 1) TPOT,
 * P_prompts the draw of the same batch with one output token (its cycle is
 * the prompts alone) and P_decode a decode worker's at the same batch and
 * mean context (its cycle is the decode step alone).  Llama-2-7B fp16 on one
 * H100, 16 x (1,024 + 1,024), engine sglang (its CPU side is the same served
 * and offline, and nothing else of it is offline-only); the 16 sequences'
 * 16 x 2,048 x 524,288 B = 17.2 GB of cache fit beside 13.5 GB of weights,
 * so none is preempted and the offline decode is the decode step. */
static void t_offline_power_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_prediction b, pf, dec;
    const char *m = "meta-llama/Llama-2-7b-hf";
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 1024, .quant = DLP_QT_FP16, .n_gpus = 1,
                           .concurrency = 16, .max_seqs = 16, .engine = DLP_LLM_ENGINE_SGLANG, .offline = 1};
    CHECK(serve(m, "h100-sxm", wl, &b, &e) == DLP_OK);
    CHECK(b.running == 16 && b.preempted == 0);
    dlp_llm_workload w1 = wl;
    w1.gen_tokens = 1;
    CHECK(serve(m, "h100-sxm", w1, &pf, &e) == DLP_OK);
    dlp_llm_workload wd = wl;
    wd.offline = 0, wd.phase = DLP_LLM_DECODE_ONLY;
    CHECK(serve(m, "h100-sxm", wd, &dec, &e) == DLP_OK);
    CHECK_NEAR(pf.ttft_ms, b.ttft_ms, 1e-9 * b.ttft_ms);
    CHECK_NEAR(dec.tpot_ms, b.tpot_ms, 1e-9 * b.tpot_ms);
    double d = b.e2e_ms - b.ttft_ms;
    CHECK_NEAR(d, 1023.0 * b.tpot_ms, 1e-9 * d);
    CHECK(pf.power_per_gpu_w > dec.power_per_gpu_w && pf.power_per_gpu_w < 700.0);
    double hand = (pf.power_per_gpu_w * b.ttft_ms + dec.power_per_gpu_w * d) / b.e2e_ms;
    CHECK_NEAR(b.power_per_gpu_w, hand, 1e-9 * hand);
    CHECK(b.power_per_gpu_w > dec.power_per_gpu_w);
    fprintf(stderr, "# offline power %.4f W: prompts %.4f W x %.3f ms, decode %.4f W x %.3f ms\n", b.power_per_gpu_w,
            pf.power_per_gpu_w, b.ttft_ms, dec.power_per_gpu_w, d);
}

/* SGLang's --scheduler-recv-interval (wl.recv_interval; docs/llm.md,
 * "SGLang's scheduler receive interval"), from SchedulerRecvSkipper's rule:
 * with others decoding, the scheduler reads requests every N decode steps,
 * so an arrival waits N / 2 steps where the every-step engine waits the
 * half step in flight: (N - 1) / 2 decode steps more in the steady TTFT,
 * (1 - 0.17) of it in the mean (SGLang's documented first-wave weight,
 * llm_serve.c BURST_FIT_PREFILL_FIRST); a lone client finds the engine idle
 * (its empty loops reach N at once); TPOT does not move. */
static void t_recv_interval_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_prediction p0, p1;
    const char *m = "meta-llama/Llama-3.1-8B-Instruct";
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 1024, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 32, .engine = DLP_LLM_ENGINE_SGLANG};
    CHECK(serve(m, "h100-sxm", wl, &p0, &e) == DLP_OK);
    double dec = p0.decode_step_ms;
    wl.recv_interval = 30;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_OK);
    CHECK_NEAR(p1.ttft_steady_ms - p0.ttft_steady_ms, 14.5 * dec, 1e-9 * dec);
    CHECK_NEAR(p1.ttft_ms - p0.ttft_ms, 0.83 * 14.5 * dec, 1e-9 * dec);
    CHECK_NEAR(p1.tpot_ms, p0.tpot_ms, 1e-12 * p0.tpot_ms);
    wl.recv_interval = 1; /* SGLang's default: every step */
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_OK);
    CHECK_NEAR(p1.ttft_ms, p0.ttft_ms, 1e-12 * p0.ttft_ms);
    wl.concurrency = 1;
    CHECK(serve(m, "h100-sxm", wl, &p0, &e) == DLP_OK);
    wl.recv_interval = 30;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_OK);
    CHECK_NEAR(p1.ttft_ms, p0.ttft_ms, 1e-12 * p0.ttft_ms);
    /* refused, not ignored: another engine, a worker, offline, a negative N */
    wl.concurrency = 32, wl.engine = DLP_LLM_ENGINE_TRTLLM;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_EINVAL);
    CHECK(strstr(e.msg, "sglang") != NULL);
    wl.engine = DLP_LLM_ENGINE_SGLANG, wl.phase = DLP_LLM_DECODE_ONLY;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_EINVAL);
    wl.phase = DLP_LLM_AGG, wl.offline = 1;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_EINVAL);
    wl.offline = 0, wl.recv_interval = -3;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_EINVAL);
}

/* TensorRT-LLM's attention-DP balance (wl.adp_balance_iters; docs/llm.md,
 * "TensorRT-LLM's attention-DP balance"), by hand from the engine's rule: the
 * prompts go in when every rank holds one or the count reaches T, the count
 * running one per iteration from the last release.  T = 1 releases at every
 * iteration: a prompt waits the rest of the one in flight, half a step.  With
 * 16 clients of 8,192 tokens on 8 ranks about 2 requests end in 1,000
 * iterations (a = 16 / 8192 / 8 per rank and iteration), so eight ranks are
 * all covered within 60 iterations with probability (1 - e^(-60 a))^8 ~ 1e-15:
 * every release is the count's, tau = 60, and a prompt waits 60 / 2 = 30
 * steps.  TensorRT-LLM's first-wave weight is 0.14 (the mean moves 0.86 of
 * the steady part).  No more clients than ranks: no wait. */
static void t_adp_balance_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_prediction p0, p1;
    const char *m = "deepseek-ai/DeepSeek-R1";
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 1024, .quant = DLP_QT_FP8, .n_gpus = 8, .ep = 8,
                           .attn_dp = 8, .concurrency = 128, .engine = DLP_LLM_ENGINE_TRTLLM};
    CHECK(serve(m, "h200", wl, &p0, &e) == DLP_OK);
    double dec = p0.decode_step_ms;
    wl.adp_balance_iters = 1;
    CHECK(serve(m, "h200", wl, &p1, &e) == DLP_OK);
    CHECK_NEAR(p1.ttft_steady_ms - p0.ttft_steady_ms, 0.5 * dec, 1e-9 * dec);
    CHECK_NEAR(p1.ttft_ms - p0.ttft_ms, 0.86 * 0.5 * dec, 1e-9 * dec);
    CHECK_NEAR(p1.tpot_ms, p0.tpot_ms, 1e-12 * p0.tpot_ms);
    wl.adp_balance_iters = 0, wl.concurrency = 16, wl.gen_tokens = 8192;
    CHECK(serve(m, "h200", wl, &p0, &e) == DLP_OK);
    dec = p0.decode_step_ms;
    wl.adp_balance_iters = 60;
    CHECK(serve(m, "h200", wl, &p1, &e) == DLP_OK);
    CHECK_NEAR(p1.ttft_steady_ms - p0.ttft_steady_ms, 30.0 * dec, 1e-9 * dec);
    /* more clients end requests sooner and cover the ranks: less wait */
    wl.concurrency = 256, wl.gen_tokens = 1024;
    CHECK(serve(m, "h200", wl, &p1, &e) == DLP_OK);
    double w256 = p1.ttft_steady_ms;
    wl.adp_balance_iters = 0;
    CHECK(serve(m, "h200", wl, &p0, &e) == DLP_OK);
    CHECK(w256 - p0.ttft_steady_ms > 0 && w256 - p0.ttft_steady_ms < 30.0 * p0.decode_step_ms);
    wl.concurrency = 8, wl.adp_balance_iters = 60; /* one client a rank */
    CHECK(serve(m, "h200", wl, &p1, &e) == DLP_OK);
    wl.adp_balance_iters = 0;
    CHECK(serve(m, "h200", wl, &p0, &e) == DLP_OK);
    CHECK_NEAR(p1.ttft_ms, p0.ttft_ms, 1e-12 * p0.ttft_ms);
    /* refused, not ignored: another engine, no attention DP, a worker, offline */
    wl.concurrency = 128, wl.adp_balance_iters = 60, wl.engine = DLP_LLM_ENGINE_SGLANG;
    CHECK(serve(m, "h200", wl, &p1, &e) == DLP_EINVAL);
    CHECK(strstr(e.msg, "trtllm") != NULL);
    wl.engine = DLP_LLM_ENGINE_TRTLLM, wl.attn_dp = 1;
    CHECK(serve(m, "h200", wl, &p1, &e) == DLP_EINVAL);
    wl.attn_dp = 8, wl.phase = DLP_LLM_DECODE_ONLY;
    CHECK(serve(m, "h200", wl, &p1, &e) == DLP_EINVAL);
    wl.phase = DLP_LLM_AGG, wl.offline = 1;
    CHECK(serve(m, "h200", wl, &p1, &e) == DLP_EINVAL);
    wl.offline = 0, wl.adp_balance_iters = -1;
    CHECK(serve(m, "h200", wl, &p1, &e) == DLP_EINVAL);
}

/* Leftovers of the attention-DP balance (docs/llm.md, h178), by hand.  With
 * T = 1 the count releases at every iteration, and a rank's budget (8,192
 * tokens less its 32 decodes) holds one 8,192-token prompt: each rank is a
 * queue served one prompt a step.  256 clients of 64 tokens on 8 ranks end
 * a = 256 / 64 / 8 = 0.5 requests a rank and step, Poisson: the discrete
 * M/D/1 queue Q' = max(Q - 1, 0) + A has E[Q] = rho + rho^2 / (2 (1 - rho)),
 * so E[max(Q - 1, 0)] = rho^2 / (2 (1 - rho)) prompts held over a step, and by
 * Little's law a prompt waits rho / (2 (1 - rho)) + 1/2 (it arrives within a
 * step) = 1.0 step at rho = 0.5, against the closed form's half step with
 * room for all.  The rank's 32 clients less those held thin the arrivals a
 * little (a couple of per cent).  Then the same with 1,024-token prompts:
 * eight fit, P(more than 8 in a step) ~ 1e-8, the closed form stands. */
static void t_adp_leftovers_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_prediction p0, p1;
    const char *m = "deepseek-ai/DeepSeek-R1";
    dlp_llm_workload wl = {.batch = 1, .seq = 8192, .gen_tokens = 64, .quant = DLP_QT_FP8, .n_gpus = 8, .ep = 8,
                           .attn_dp = 8, .concurrency = 256, .engine = DLP_LLM_ENGINE_TRTLLM};
    CHECK(serve(m, "h200", wl, &p0, &e) == DLP_OK);
    double dec = p0.decode_step_ms;
    wl.adp_balance_iters = 1;
    CHECK(serve(m, "h200", wl, &p1, &e) == DLP_OK);
    double w = (p1.ttft_steady_ms - p0.ttft_steady_ms) / dec;
    printf("  balance leftovers, T = 1, one prompt a rank a step, rho 0.5: %.3f steps (M/D/1: 1.000)\n", w);
    CHECK(w > 0.95 && w < 1.01);
    CHECK_NEAR(p1.tpot_ms, p0.tpot_ms, 1e-12 * p0.tpot_ms);
    wl.seq = 1024, wl.adp_balance_iters = 0;
    CHECK(serve(m, "h200", wl, &p0, &e) == DLP_OK);
    dec = p0.decode_step_ms;
    wl.adp_balance_iters = 1;
    CHECK(serve(m, "h200", wl, &p1, &e) == DLP_OK);
    CHECK_NEAR(p1.ttft_steady_ms - p0.ttft_steady_ms, 0.5 * dec, 1e-9 * dec);
}

/* Fixed lengths under SGLang's prefill-first schedule (docs/llm.md, "The
 * gap-analysis dumps", h168), by hand.  Llama-3.1-8B bf16 on one H100,
 * SGLang, whose chunked_prefill_size on an 80 GB GPU is 8,192: 32 clients
 * of 1,024-token prompts are 32,768 prompt tokens a wave = 4 prefill
 * batches of b each, back to back, the i-th batch's requests taking their
 * first token after i b: mean TTFT (1 + 2 + 3 + 4) / 4 b = 2.5 b (the
 * burst), plus the front end.  A request of batch i then waits (4 - i) b
 * for the wave's last prompt before its first decode: 1.5 b on average,
 * spread over its 255 further tokens beside the decode step.  4 clients
 * (4,096 tokens, one batch) wait nothing: TPOT is the decode step.  A
 * decode-first engine or mixed chunks spread the wave (no lockstep; mixed
 * chunks take the decode-first burst weight 0.14), and so do clients
 * beyond the running slots and Poisson arrivals. */
static void t_lockstep_by_hand(void) {
    dlp_error e = {0};
    dlp_llm_prediction p0, p1;
    const char *m = "meta-llama/Llama-3.1-8B-Instruct";
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 32, .engine = DLP_LLM_ENGINE_SGLANG, .fixed_lengths = 1};
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_OK);
    CHECK(p1.lockstep == 1 && p1.chunk_tokens == 8192 && p1.running == 32);
    double b = p1.ttft_burst_ms / 2.5;
    CHECK_NEAR(p1.ttft_ms, 2.5 * b + p1.request_ms, 1e-9 * p1.ttft_ms);
    CHECK_NEAR(p1.tpot_ms, p1.decode_step_ms + 1.5 * b / 255.0, 1e-9 * p1.tpot_ms);
    wl.concurrency = 4;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_OK);
    CHECK(p1.lockstep == 1);
    CHECK_NEAR(p1.tpot_ms, p1.decode_step_ms, 1e-12 * p1.tpot_ms);
    CHECK_NEAR(p1.ttft_ms, p1.ttft_burst_ms + p1.request_ms, 1e-9 * p1.ttft_ms);
    /* mixed chunks: decode-first in effect, the wave parts */
    wl.concurrency = 32, wl.mixed_chunk = 1;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_OK);
    CHECK(p1.lockstep == 0);
    CHECK_NEAR(p1.ttft_ms, 0.14 * p1.ttft_burst_ms + 0.86 * p1.ttft_steady_ms + p1.request_ms, 1e-9 * p1.ttft_ms);
    wl.fixed_lengths = 0; /* fixed lengths change nothing once the wave parts */
    CHECK(serve(m, "h100-sxm", wl, &p0, &e) == DLP_OK);
    CHECK(p0.ttft_ms == p1.ttft_ms && p0.tpot_ms == p1.tpot_ms);
    /* a decode-first engine: the same answer with and without */
    wl.mixed_chunk = 0, wl.engine = DLP_LLM_ENGINE_MODERN;
    CHECK(serve(m, "h100-sxm", wl, &p0, &e) == DLP_OK);
    wl.fixed_lengths = 1;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_OK);
    CHECK(p1.lockstep == 0 && p0.ttft_ms == p1.ttft_ms && p0.tpot_ms == p1.tpot_ms);
    /* clients queueing for 16 slots, or arrivals at a rate: no lockstep */
    wl.engine = DLP_LLM_ENGINE_SGLANG, wl.max_seqs = 16;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_OK);
    CHECK(p1.lockstep == 0);
    wl.max_seqs = 0, wl.concurrency = 0, wl.rate = 2.0;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_OK);
    CHECK(p1.lockstep == 0);
    /* refused, not ignored: mixed chunks on another engine, a worker, offline */
    wl.rate = 0, wl.concurrency = 32, wl.mixed_chunk = 1, wl.engine = DLP_LLM_ENGINE_TRTLLM;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_EINVAL);
    CHECK(strstr(e.msg, "sglang") != NULL);
    wl.mixed_chunk = 0, wl.engine = DLP_LLM_ENGINE_SGLANG, wl.phase = DLP_LLM_DECODE_ONLY;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_EINVAL);
    wl.phase = DLP_LLM_AGG, wl.offline = 1;
    CHECK(serve(m, "h100-sxm", wl, &p1, &e) == DLP_EINVAL);
}

/* An engine without CUDA graphs (wl.eager; docs/llm.md, "Eager engines"):
 * every step carries 0.210 ms of host time per layer (the documented
 * constant) and nothing else moves; attention DP pads no rank to a
 * captured size.  Layers from the published configs: Llama-3.1-8B 32,
 * Qwen3-30B-A3B 48. */
/* TensorRT-LLM 0.11's host time per layer per step (llm_serve.c
 * trt011_host_s, docs/llm.md "h222"; a what-if the bench sets): by hand on
 * Llama-2-7B (config.json: 32 layers), one A100-40GB, an offline batch of
 * one 1,024-token prompt and 1,024 tokens, 0.04 ms a layer:
 *  - every step 32 x 0.04 = 1.28 ms longer: TPOT + 1.28 ms exactly, and the
 *    run (one prompt step and 1,023 decode steps) + 1,024 x 1.28 = 1,310.72 ms;
 *  - the GPU sits at its floor meanwhile, so the energy grows by the floor's
 *    0.304 x 400 W = 121.6 W over the added time: (P1 e2e1 - P0 e2e0) /
 *    (e2e1 - e2e0) = 121.6 W (power affine in the utilisations, the cycle's
 *    time-weighted, h202);
 *  - without the workload's 0.11 flag (trt_xqa_block), or on vLLM, nothing. */
static void t_trt011_host_by_hand(void) {
    const char *llama2 = "meta-llama/Llama-2-7b-hf";
    dlp_error e = {0};
    dlp_llm_prediction p0, p1;
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 1024, .quant = DLP_QT_FP16, .n_gpus = 1,
                           .concurrency = 1, .max_seqs = 1, .engine = DLP_LLM_ENGINE_TRTLLM, .offline = 1,
                           .trt_xqa_block = 1};
    CHECK(serve(llama2, "a100-40gb", wl, &p0, &e) == DLP_OK);
    dlp__llm_knob.trt011_layer_ms = 0.04;
    CHECK(serve(llama2, "a100-40gb", wl, &p1, &e) == DLP_OK);
    CHECK_NEAR(p1.tpot_ms - p0.tpot_ms, 1.28, 1e-9);
    CHECK_NEAR(p1.e2e_ms - p0.e2e_ms, 1310.72, 1e-6);
    CHECK_NEAR((p1.power_per_gpu_w * p1.e2e_ms - p0.power_per_gpu_w * p0.e2e_ms) / (p1.e2e_ms - p0.e2e_ms), 121.6,
               1e-6);
    CHECK(p1.power_per_gpu_w < p0.power_per_gpu_w);
    wl.trt_xqa_block = 0;
    CHECK(serve(llama2, "a100-40gb", wl, &p1, &e) == DLP_OK);
    dlp__llm_knob.trt011_layer_ms = 0;
    CHECK(serve(llama2, "a100-40gb", wl, &p0, &e) == DLP_OK);
    CHECK(p1.e2e_ms == p0.e2e_ms && p1.power_per_gpu_w == p0.power_per_gpu_w);
    wl.trt_xqa_block = 1, wl.engine = DLP_LLM_ENGINE_MODERN;
    CHECK(serve(llama2, "a100-40gb", wl, &p0, &e) == DLP_OK);
    dlp__llm_knob.trt011_layer_ms = 0.04;
    CHECK(serve(llama2, "a100-40gb", wl, &p1, &e) == DLP_OK);
    dlp__llm_knob.trt011_layer_ms = 0;
    CHECK(p1.e2e_ms == p0.e2e_ms);
}

static void t_eager_by_hand(void) {
    const char *llama = "meta-llama/Meta-Llama-3.1-8B-Instruct", *qwen = "Qwen/Qwen3-30B-A3B-Instruct-2507";
    dlp_error e = {0};
    dlp_llm_prediction p0, p1;
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 16, .phase = DLP_LLM_DECODE_ONLY};
    CHECK(serve(llama, "h100-sxm", wl, &p0, &e) == DLP_OK);
    wl.eager = 1;
    CHECK(serve(llama, "h100-sxm", wl, &p1, &e) == DLP_OK);
    CHECK_NEAR(p1.tpot_ms - p0.tpot_ms, 32 * 0.210, 1e-9);
    CHECK_NEAR(p1.comm_ms, p0.comm_ms, 1e-12);
    CHECK(p1.weights_mb == p0.weights_mb && p1.kv_cache_gib == p0.kv_cache_gib);
    /* aggregated: the prompts' steps pay it too */
    wl.phase = DLP_LLM_AGG, wl.eager = 0;
    CHECK(serve(llama, "h100-sxm", wl, &p0, &e) == DLP_OK);
    wl.eager = 1;
    CHECK(serve(llama, "h100-sxm", wl, &p1, &e) == DLP_OK);
    CHECK(p1.ttft_ms > p0.ttft_ms && p1.tpot_ms > p0.tpot_ms + 32 * 0.210 - 1e-9);
    /* SGLang, attention DP 8: 72 sequences are 9 a rank, which the graphed
     * step pads to the captured 12; 64 are 8, a captured size already */
    dlp_llm_workload wa = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 8, .ep = 8,
                           .attn_dp = 8, .concurrency = 72, .engine = DLP_LLM_ENGINE_SGLANG,
                           .phase = DLP_LLM_DECODE_ONLY};
    CHECK(serve(qwen, "h200", wa, &p0, &e) == DLP_OK);
    wa.eager = 1;
    CHECK(serve(qwen, "h200", wa, &p1, &e) == DLP_OK);
    CHECK(p1.tpot_ms - 48 * 0.210 < p0.tpot_ms - 1e-6);
    wa.concurrency = 64, wa.eager = 0;
    CHECK(serve(qwen, "h200", wa, &p0, &e) == DLP_OK);
    wa.eager = 1;
    CHECK(serve(qwen, "h200", wa, &p1, &e) == DLP_OK);
    CHECK_NEAR(p1.tpot_ms - p0.tpot_ms, 48 * 0.210, 1e-9);
}

/* An eager context iteration's host time (wl.ctx_host_ms; docs/llm.md,
 * "TensorRT-LLM's DeepSeek-R1 aggregated TTFT", h208), by hand on
 * Llama-3.1-8B, one H100, TensorRT-LLM (budget 8,192: eight whole 1k
 * prompts a step), 1k prompts, 50 ms:
 *  - one client: the burst is one prompt step and the steady TTFT one ride
 *    step, each 50 ms longer: TTFT + 50 ms exactly;
 *  - 16 clients: the burst's 16 prompts take 2 steps, its mean (n + 1) / 2 =
 *    1.5 of them, + 75 ms; the steady TTFT rides one prompt step, + 50 ms
 *    (the wait is decode steps); weighted 0.14 / 0.86: 0.14 x 75 + 0.86 x 50
 *    = 53.5 ms;
 *  - the decode step does not move; a decode worker and a negative time are
 *    refused. */
static void t_ctx_host_by_hand(void) {
    const char *llama = "meta-llama/Meta-Llama-3.1-8B-Instruct";
    dlp_error e = {0};
    dlp_llm_prediction p0, p1;
    dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 1, .engine = DLP_LLM_ENGINE_TRTLLM, .phase = DLP_LLM_AGG};
    CHECK(serve(llama, "h100-sxm", wl, &p0, &e) == DLP_OK);
    wl.ctx_host_ms = 50;
    CHECK(serve(llama, "h100-sxm", wl, &p1, &e) == DLP_OK);
    CHECK_NEAR(p1.ttft_ms - p0.ttft_ms, 50.0, 1e-6);
    CHECK_NEAR(p1.decode_step_ms, p0.decode_step_ms, 1e-12);
    wl.concurrency = 16, wl.ctx_host_ms = 0;
    CHECK(serve(llama, "h100-sxm", wl, &p0, &e) == DLP_OK);
    wl.ctx_host_ms = 50;
    CHECK(serve(llama, "h100-sxm", wl, &p1, &e) == DLP_OK);
    CHECK_NEAR(p1.ttft_ms - p0.ttft_ms, 0.14 * 75.0 + 0.86 * 50.0, 1e-6);
    CHECK_NEAR(p1.decode_step_ms, p0.decode_step_ms, 1e-12);
    wl.phase = DLP_LLM_DECODE_ONLY;
    CHECK(serve(llama, "h100-sxm", wl, &p1, &e) == DLP_EINVAL);
    wl.phase = DLP_LLM_AGG, wl.ctx_host_ms = -1;
    CHECK(serve(llama, "h100-sxm", wl, &p1, &e) == DLP_EINVAL);
    /* h226: a prefill worker, one client: its one prompt step pays the host
     * time once, so TTFT and the prompt's step (prefill_ms) each + 12.81 ms
     * = 61 layers x 0.210 ms (DeepSeek-R1's size at the eager constant, the
     * bench's trt_eager_ctx); nothing else in the step moves */
    wl = (dlp_llm_workload){.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                            .concurrency = 1, .engine = DLP_LLM_ENGINE_TRTLLM, .phase = DLP_LLM_PREFILL_ONLY};
    CHECK(serve(llama, "h100-sxm", wl, &p0, &e) == DLP_OK);
    wl.ctx_host_ms = 61 * 0.210;
    CHECK(serve(llama, "h100-sxm", wl, &p1, &e) == DLP_OK);
    CHECK_NEAR(p1.ttft_ms - p0.ttft_ms, 12.81, 1e-6);
    CHECK_NEAR(p1.prefill_ms - p0.prefill_ms, 12.81, 1e-6);
    CHECK_NEAR(p1.kv_handoff_ms, p0.kv_handoff_ms, 1e-12);
}

/* Redundant experts (wl.expert_slots; docs/llm.md, "Redundant experts
 * (EPLB expert slots, h138)"), by hand on Qwen3-30B-A3B (config.json: 48
 * layers, 128 experts, top 8, hidden 2048, moe_intermediate 768; bf16) on
 * 8 x H200 with EP 8 and attention DP 8, 136 slots = 128 + 8 (TensorRT-LLM's
 * "number of total experts + EP size": one more expert a rank, 17 for 16).
 *  - memory: the extra expert a rank is 3 x 2048 x 768 = 4,718,592 weights a
 *    layer x 48 layers x 2 B = 452,984,832 B = 432.0 MiB more weights per GPU.
 *  - time: 64 decode tokens routed to 8 experts each, balanced over the
 *    slots: a rank's slots hit, 16 (1 - (120/128)^64) = 16 x (1 - 0.016077)
 *    = 15.743 without, 17 (1 - (128/136)^64) = 17 x (1 - 0.020655) = 16.649
 *    with the slots.  vLLM's fitted bf16 MoE kernel (t_moe_16_fp8_kernels:
 *    20.6 us + 2.5128 us an expert hit, a layer) rules over the GEMM curve
 *    there (15.7 x 9.44 MB / 4.8 TB/s = 31 us): 20.6 + 15.743 x 2.5128 =
 *    60.159 us and 20.6 + 16.649 x 2.5128 = 62.436 us a layer, x 48 = 2.8876
 *    and 2.9969 ms of expert matrices a step (to 0.1 %: the kernel's
 *    figures are rounded).
 *  - refusals: slots on a dense model, fewer slots than experts, slots not a
 *    multiple of ep; DeepSeek-R1's 256 experts on EP 48 without slots keep
 *    the old refusal, with 288 (eplb288: 6 a rank) they run. */
static double expert_slots_parts_s(const dlp_llm_config *c, const dlp_device *d, int slots, double n_dec) {
    dlp_llm_workload wl = {.quant = DLP_QT_BF16, .n_gpus = 8, .ep = 8, .attn_dp = 8, .kv_dtype = DLP_DT_BFLOAT16,
                           .engine = DLP_LLM_ENGINE_MODERN, .expert_slots = slots};
    int cdt = dlp_llm_compute_dtype(d, DLP_QT_BF16, NULL, 0);
    dlp__llm_parts p;
    dlp_error e = {0};
    if (dlp__llm_iter_parts(c, d, &wl, cdt, 2.0, n_dec, 1.0, 0, 0, &p, &e) != DLP_OK) return -1;
    return parts_experts_s(&p);
}

static void t_expert_slots_by_hand(void) {
    const char *qwen = "Qwen/Qwen3-30B-A3B-Instruct-2507";
    dlp_error e = {0};
    dlp_llm_prediction p0, p1, pe;
    dlp_llm_workload wl = {.batch = 1, .seq = 128, .gen_tokens = 128, .quant = DLP_QT_BF16, .n_gpus = 8, .ep = 8,
                           .attn_dp = 8, .concurrency = 64, .phase = DLP_LLM_DECODE_ONLY};
    CHECK(serve(qwen, "h200", wl, &p0, &e) == DLP_OK);
    wl.expert_slots = 136;
    CHECK(serve(qwen, "h200", wl, &p1, &e) == DLP_OK);
    CHECK_NEAR(p1.weights_mb - p0.weights_mb, 432.0, 1e-6);
    CHECK(p1.kv_cache_gib < p0.kv_cache_gib);
    CHECK(p1.tpot_ms > p0.tpot_ms);
    CHECK_NEAR(p1.comm_ms, p0.comm_ms, 1e-12); /* the all-to-all: the same rows a rank */
    /* the model's own count given: the same answer as none */
    wl.expert_slots = 128;
    CHECK(serve(qwen, "h200", wl, &pe, &e) == DLP_OK);
    CHECK(pe.weights_mb == p0.weights_mb && pe.tpot_ms == p0.tpot_ms && pe.ttft_ms == p0.ttft_ms);
    dlp_llm_config c;
    CHECK(dlp_llm_catalogue_get(qwen, &c, &e) == DLP_OK);
    const dlp_device *h200 = dlp_devdb_find(db, "h200");
    double t0 = expert_slots_parts_s(&c, h200, 0, 64), t1 = expert_slots_parts_s(&c, h200, 136, 64);
    CHECK(fabs(t0 * 1e3 / 2.8876 - 1.0) < 0.001);
    CHECK(fabs(t1 * 1e3 / 2.9969 - 1.0) < 0.001);
    CHECK_NEAR(t1 / t0, 2.9969 / 2.8876, 0.002);
    /* refusals, each naming the flag */
    wl.expert_slots = 120;
    CHECK(serve(qwen, "h200", wl, &pe, &e) == DLP_EINVAL && strstr(e.msg, "expert-slots 120: fewer than") != NULL);
    wl.expert_slots = 140;
    CHECK(serve(qwen, "h200", wl, &pe, &e) == DLP_EINVAL && strstr(e.msg, "not a multiple of ep 8") != NULL);
    wl.expert_slots = -8;
    CHECK(serve(qwen, "h200", wl, &pe, &e) == DLP_EINVAL && strstr(e.msg, "expert-slots -8") != NULL);
    dlp_llm_workload wd = {.batch = 1, .seq = 128, .gen_tokens = 16, .quant = DLP_QT_BF16, .n_gpus = 1,
                           .concurrency = 4, .expert_slots = 8};
    CHECK(serve("meta-llama/Llama-3.1-8B", "h100-sxm", wd, &pe, &e) == DLP_EINVAL &&
          strstr(e.msg, "expert-slots 8: the model has no experts") != NULL);
    dlp_llm_workload wr = {.batch = 1, .seq = 1024, .gen_tokens = 1024, .quant = DLP_QT_NVFP4, .n_gpus = 48,
                           .ep = 48, .attn_dp = 48, .concurrency = 3072, .phase = DLP_LLM_DECODE_ONLY,
                           .engine = DLP_LLM_ENGINE_SGLANG};
    CHECK(serve("deepseek-ai/DeepSeek-R1", "gb200", wr, &pe, &e) == DLP_EINVAL &&
          strstr(e.msg, "ep 48 does not divide the 256 experts") != NULL);
    wr.expert_slots = 288;
    CHECK(serve("deepseek-ai/DeepSeek-R1", "gb200", wr, &pe, &e) == DLP_OK);
}

/* The first wave under TensorRT-LLM takes whole prompts (h169): its
 * micro-batch scheduler admits a context request only whole while it fits
 * what is left of max_num_tokens, chunking being off by default.  By hand,
 * Llama-3.1-8B bf16 on an H100, 64 clients of 1,024 + 256:
 *  - budget 1,152 or 1,024 or 2,047: one prompt a step, 64 steps of 1,024
 *    tokens: the same burst TTFT for the three;
 *  - budget 2,048: two prompts a step, 32 steps of 2,048 tokens: another;
 *  - budget 8,192: eight a step, as vLLM's 8,192-token chunks: the same burst
 *    as vLLM's (the step times are the engines' same CPU side and GPU step);
 *  - vLLM splits the last prompt: at 1,152 its 65,536 tokens go in
 *    ceil(65,536 / 1,152) = 57 steps of 1,152 tokens, not 64 of 1,024, so
 *    its burst at 1,152 differs from its burst at 1,024. */
static void t_trtllm_whole_prompts_in_burst(void) {
    dlp_error e = {0};
    const int64_t budget[5] = {1152, 1024, 2047, 2048, 8192};
    double trt[5], vllm[5];
    for (int k = 0; k < 5; k++) {
        dlp_llm_workload wl = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1,
                               .concurrency = 64, .engine = DLP_LLM_ENGINE_TRTLLM, .chunk_tokens = budget[k]};
        dlp_llm_prediction p;
        CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &p, &e) == DLP_OK);
        trt[k] = p.ttft_burst_ms;
        wl.engine = DLP_LLM_ENGINE_MODERN;
        CHECK(serve("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", wl, &p, &e) == DLP_OK);
        vllm[k] = p.ttft_burst_ms;
    }
    CHECK_NEAR(trt[0], trt[1], 1e-9 * trt[1]);
    CHECK_NEAR(trt[2], trt[1], 1e-9 * trt[1]);
    CHECK(fabs(trt[3] - trt[1]) > 1e-3 * trt[1]);
    CHECK_NEAR(trt[4], vllm[4], 1e-9 * vllm[4]);
    CHECK_NEAR(vllm[1], trt[1], 1e-9 * trt[1]);
    CHECK(fabs(vllm[0] - vllm[1]) > 1e-3 * vllm[1]);
}

/* A lone prompt under TensorRT-LLM's attention DP (h175, llm_serve.c
 * lone_prompt): the executor hands a request whole to one rank, so one 8k
 * prompt on an attention-DP-8 prefill worker holds 8,192 tokens on that
 * rank, as each rank does in a step of eight such prompts (one a rank); only
 * the experts' rows (8,192 against 65,536 over the EP ranks) and the
 * collectives are smaller.  So by hand its prefill lies between the prompt
 * spread evenly over the 8 ranks (1,024 tokens a rank: the step of
 * dlp__llm_iter_parts over n_pf 8,192) and the step of eight prompts (n_pf
 * 65,536).  SGLang's prefill worker puts the prompt on one rank as well
 * (h174, sglang_adp_prompt: the rank's attention and its MoE at all the
 * prompt's rows), so its prefill_ms is above the even spread too. */
static double lone_parts_ms(const dlp_llm_config *c, const dlp_device *d, int engine, double n_pf) {
    dlp_llm_workload wl = {.quant = DLP_QT_FP8, .kv_dtype = DLP_DT_FLOAT8E4M3FN, .n_gpus = 8, .ep = 8, .attn_dp = 8,
                           .engine = engine};
    int cdt = dlp_llm_compute_dtype(d, DLP_QT_FP8, NULL, 0);
    dlp__llm_parts p;
    dlp_error e = {0};
    if (dlp__llm_iter_parts(c, d, &wl, cdt, 1.0, 0, 1.0, n_pf, 8192, &p, &e) != DLP_OK) return -1;
    return p.total_s * 1e3;
}

/* The element-wise work as the engines' fused kernels (issue 22, h198;
 * llm_serve.c fused_elem, off by default: dlp__llm_knob.fused_elem).  By hand,
 * Llama-3.1-8B (hidden 4096, 32 layers, 32 heads, 8 KV heads, head_dim 128,
 * intermediate 14336, gated) bf16 on one H100 SXM (3,350 GB/s), a step of
 * 1,024 prompt tokens, each kernel bytes / (0.6 BW) + 3 us (the share
 * fitted on vidur's profiles, aiconfigurator's per-kernel constant), bytes
 * per token:
 *   two add + RMSNorm a layer, 2h in and 2h out: 2 x 32 x 4 x 4096 x 2 = 2,097,152
 *   RoPE + cache write, q k v in, q k v out: 32 x 2 x (4096 + 2 x 1024) x 2 = 786,432
 *   SiLU-mul, 2I in, I out: 32 x 3 x 14336 x 2 = 2,752,512
 *   embedding rows and the final norm, 2h each: 2 x 2 x 4096 x 2 = 32,768
 * 5,668,864 B x 1,024 / (0.6 x 3.35e12 B/s) = 2.88802 ms, plus 130 kernels
 * (64 + 32 + 32 + 2) x 3 us = 0.39 ms: 3.27802 ms.  Off, the graph's
 * unfused bytes stand, larger; vllm-v0 keeps them either way. */
static double fused_other_ms(int engine, int on) {
    dlp_llm_config c;
    dlp_error e = {0};
    if (dlp_llm_catalogue_get("meta-llama/Llama-3.1-8B-Instruct", &c, &e)) return -1;
    const dlp_device *d = dlp_devdb_find(db, "h100-sxm");
    dlp_llm_workload wl = {.quant = DLP_QT_BF16, .n_gpus = 1, .engine = engine, .kv_dtype = DLP_DT_BFLOAT16,
                           .phase = DLP_LLM_PREFILL_ONLY};
    int cdt = dlp_llm_compute_dtype(d, DLP_QT_BF16, NULL, 0);
    dlp__llm_parts p;
    int was = dlp__llm_knob.fused_elem;
    dlp__llm_knob.fused_elem = on;
    dlp_status st = dlp__llm_iter_parts(&c, d, &wl, cdt, 2.0, 0, 1.0, 1024, 1024, &p, &e);
    dlp__llm_knob.fused_elem = was;
    return st == DLP_OK ? p.other_s * 1e3 : -1;
}

/* ... and an MoE model's decode step, where the fused-MoE fit rules and
 * holds the module's own kernels: Qwen3-30B-A3B (hidden 2048, 48 layers all
 * MoE, 32 heads, 4 KV heads, head_dim 128, q / k norms, no shared expert)
 * bf16, 8 decode tokens on one H200 (4.8 TB/s), bytes per token:
 *   add + RMSNorm twice: 2 x 48 x 4 x 2048 x 2 = 1,572,864
 *   q / k norm: 48 x 2 x (4096 + 512) x 2 = 884,736
 *   RoPE + cache write: 48 x 2 x (4096 + 2 x 512) x 2 = 983,040
 *   embedding rows and final norm: 16,384
 * 3,457,024 B x 8 / (0.6 x 4.8e12) = 9.603 us, plus (96 + 48 + 48 + 2) x
 * 3 us = 582 us: 0.5916 ms.  The routing, expand, activation and finalize
 * kernels (4 x 48 x 3 us = 0.58 ms) stay inside the vLLM 16-bit MoE fit,
 * which is above the GEMM curve by ~49 us a layer (t_moe_16_fp8_by_hand:
 * 150.3 against ~101 us), 2.4 ms in all. */
static double fused_moe_other_ms(void) {
    dlp_llm_config c;
    dlp_error e = {0};
    if (dlp_llm_catalogue_get("Qwen/Qwen3-30B-A3B-Instruct-2507", &c, &e)) return -1;
    const dlp_device *d = dlp_devdb_find(db, "h200");
    dlp_llm_workload wl = {.quant = DLP_QT_BF16, .n_gpus = 1, .kv_dtype = DLP_DT_BFLOAT16, .engine = DLP_LLM_ENGINE_MODERN};
    int cdt = dlp_llm_compute_dtype(d, DLP_QT_BF16, NULL, 0);
    dlp__llm_parts p;
    int was = dlp__llm_knob.fused_elem;
    dlp__llm_knob.fused_elem = 1;
    dlp_status st = dlp__llm_iter_parts(&c, d, &wl, cdt, 2.0, 8, 1.0, 0, 0, &p, &e);
    dlp__llm_knob.fused_elem = was;
    return st == DLP_OK ? p.other_s * 1e3 : -1;
}

static void t_fused_elem_by_hand(void) {
    double on = fused_other_ms(DLP_LLM_ENGINE_MODERN, 1), off = fused_other_ms(DLP_LLM_ENGINE_MODERN, 0);
    CHECK_NEAR(on, 3.27802, 1e-4);
    CHECK(off > on);
    CHECK_NEAR(fused_other_ms(DLP_LLM_ENGINE_VLLM_V0, 1), fused_other_ms(DLP_LLM_ENGINE_VLLM_V0, 0), 1e-12);
    CHECK_NEAR(fused_moe_other_ms(), 0.5916, 1e-4);
}

/* Each GEMM call its own kernel on the efficiency curve (h211): Llama-3.1-8B
 * bf16 on one H100 SXM (989.4 TFLOP/s bf16, 3.35 TB/s), one 1,024-token
 * prompt, the profile's q / o linear (k 4,096, n 4,096, 64 calls).  One call:
 *   flops 2 x 1,024 x 4,096 x 4,096 = 34.360e9; bytes 4,096 x 4,096 x 2 +
 *   1,024 x (4,096 + 4,096) x 2 = 50.332e6
 *   roof max(34.360e9 / 989.4e12, 50.332e6 / 3.35e12) = 34.728 us
 *   u = log10(34.728) = 1.54068, v = log10((34.360e9 / 50.332e6) /
 *   (989.4e12 / 3.35e12)) = 0.36388
 *   the 16-bit GEMM curve (curves_table.inc, aiconfigurator's single bf16
 *   kernels): exp(0.487640 - 0.100340 u + 0.042715 v) = 1.41708
 *   34.728 x 1.41708 + 2 us (one in-graph kernel) = 51.212 us a call.
 * With the calls summed into one kernel the curve is read at 64 x the size,
 * near its top, and the call costs less (43.1 us). */
static double gemm_call_us(int each) {
    dlp_llm_config c;
    dlp_error e = {0};
    if (dlp_llm_catalogue_get("meta-llama/Llama-3.1-8B-Instruct", &c, &e)) return -1;
    const dlp_device *d = dlp_devdb_find(db, "h100-sxm");
    dlp_llm_workload wl = {.quant = DLP_QT_BF16, .n_gpus = 1, .engine = DLP_LLM_ENGINE_MODERN,
                           .kv_dtype = DLP_DT_BFLOAT16, .phase = DLP_LLM_PREFILL_ONLY};
    int cdt = dlp_llm_compute_dtype(d, DLP_QT_BF16, NULL, 0);
    dlp__llm_parts p;
    int was = dlp__llm_knob.gemm_each;
    dlp__llm_knob.gemm_each = each;
    dlp_status st = dlp__llm_iter_parts(&c, d, &wl, cdt, 2.0, 0, 1.0, 1024, 1024, &p, &e);
    dlp__llm_knob.gemm_each = was;
    if (st != DLP_OK) return -1;
    for (int i = 0; i < p.n_lin; i++)
        if (p.lin_kind[i] == 0 && p.lin_k[i] == 4096 && p.lin_n[i] == 4096) return p.lin_s[i] / p.lin_count[i] * 1e6;
    return -1;
}

/* nvfp4's own busiest-rank fit at prefill sizes (h240, moe_pf_imbalance_s:
 * 1 + 0.0866 + 0.0182 log2(EP) log2(T / 512) against the pooled 1 + 0.1512
 * + 0.0393 log2(EP) log2(T / 512)).  Where the table fit rules, the experts
 * of a prompt step of T tokens are A + c T x imbalance(T) (A the fit's fixed
 * part, c its math and rows' rate: both the same under either fit), so the
 * step from T to 2T adds c T ((1 + b0) + b1 log2(EP) (L + 2)), L = log2(T /
 * 512).  By hand, EP 8 (log2 3), T 8,192 (L 4): pooled 1.1512 + 0.0393 x 18
 * = 1.8586, nvfp4 1.0866 + 0.0182 x 18 = 1.4142: the increments' ratio
 * 0.76090; EP 4 (log2 2): 1.1512 + 0.0393 x 12 = 1.6228 and 1.0866 +
 * 0.0182 x 12 = 1.3050, ratio 0.80416.  DeepSeek-R1 nvfp4 under TensorRT-LLM on B200, attention DP. */
static double fp4_expert_s(const dlp_llm_config *c, const dlp_device *d, int ep, double T, int knob) {
    dlp_llm_workload wl = {.quant = DLP_QT_NVFP4, .n_gpus = 8, .ep = ep, .attn_dp = 8,
                           .kv_dtype = DLP_DT_FLOAT8E4M3FN, .engine = DLP_LLM_ENGINE_TRTLLM};
    int cdt = dlp_llm_compute_dtype(d, DLP_QT_NVFP4, NULL, 0), save = dlp__llm_knob.moe_imb_fp4;
    dlp__llm_knob.moe_imb_fp4 = knob;
    dlp__llm_parts p;
    dlp_error e = {0};
    dlp_status st = dlp__llm_iter_parts(c, d, &wl, cdt, 1.0, 0, 1.0, T, T, &p, &e);
    dlp__llm_knob.moe_imb_fp4 = save;
    return st == DLP_OK ? parts_experts_s(&p) : -1;
}

/* h246's what-if (trt_mla_ew, llm_serve.c trt_mla_ew_off): TensorRT-LLM's MLA
 * context module without the unfused graph's attention-side element-wise
 * bytes.  By hand, DeepSeek-R1's one-token graph (engine form, the rule of
 * profile_build): all element-wise bytes E = 141.0 MB a token (no trtllm-gen
 * fused block for nvfp4 DeepSeek), of which the attention blocks' own
 * A = 68.84 MB (61 layers x 1.13 MB: q / k / v transposes and splits 0.62,
 * the q / k RoPE 0.21, q_a / kv_a norms 0.04, the rest layouts).  The bytes
 * of the element-wise term at prompt tokens shrink by (E - A) / E = 0.5118;
 * the time goes through the element-wise efficiency curve, which is not
 * linear in bytes, so the increment from 131,072 to 262,144 prompt tokens
 * (attention DP 8) shrinks by a ratio below that and above (E - A) / E less
 * 0.05 (0.478 measured).  Block-fp8 and Hopper are left alone. */
static double ew_s(const dlp_llm_config *c, const dlp_device *d, int quant, double T, int knob) {
    dlp_llm_workload wl = {.quant = quant, .n_gpus = 8, .ep = 8, .attn_dp = 8,
                           .kv_dtype = DLP_DT_FLOAT8E4M3FN, .engine = DLP_LLM_ENGINE_TRTLLM};
    int cdt = dlp_llm_compute_dtype(d, quant, NULL, 0), save = dlp__llm_knob.trt_mla_ew;
    dlp__llm_knob.trt_mla_ew = knob;
    dlp__llm_parts p;
    dlp_error e = {0};
    dlp_status st = dlp__llm_iter_parts(c, d, &wl, cdt, 1.0, 0, 1.0, T, T, &p, &e);
    dlp__llm_knob.trt_mla_ew = save;
    return st == DLP_OK ? p.other_s : -1;
}

static void t_trt_mla_ew_by_hand(void) {
    const dlp_device *b200 = dlp_devdb_find(db, "b200"), *h200 = dlp_devdb_find(db, "h200");
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("deepseek-ai/DeepSeek-R1", &c, &e) == DLP_OK);
    double r = (ew_s(&c, b200, DLP_QT_NVFP4, 262144, 1) - ew_s(&c, b200, DLP_QT_NVFP4, 131072, 1)) /
               (ew_s(&c, b200, DLP_QT_NVFP4, 262144, 0) - ew_s(&c, b200, DLP_QT_NVFP4, 131072, 0));
    printf("  DeepSeek-R1 nvfp4 B200 element-wise increment ratio %.4f (bytes by hand 0.5118)\n", r);
    CHECK(r < 0.5118 && r > 0.5118 - 0.05);
    CHECK_NEAR(ew_s(&c, b200, DLP_QT_FP8, 8192, 1), ew_s(&c, b200, DLP_QT_FP8, 8192, 0), 1e-12);
    CHECK(ew_s(&c, b200, DLP_QT_FP8, 8192, 3) < ew_s(&c, b200, DLP_QT_FP8, 8192, 0));
    CHECK_NEAR(ew_s(&c, h200, DLP_QT_FP8, 8192, 3), ew_s(&c, h200, DLP_QT_FP8, 8192, 0), 1e-12);
}

static void t_moe_imb_fp4_by_hand(void) {
    const dlp_device *b200 = dlp_devdb_find(db, "b200");
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("deepseek-ai/DeepSeek-R1", &c, &e) == DLP_OK);
    double r8 = (fp4_expert_s(&c, b200, 8, 16384, 1) - fp4_expert_s(&c, b200, 8, 8192, 1)) /
                (fp4_expert_s(&c, b200, 8, 16384, 0) - fp4_expert_s(&c, b200, 8, 8192, 0));
    CHECK_NEAR(r8, 0.76090, 1e-3);
    double r4 = (fp4_expert_s(&c, b200, 4, 16384, 1) - fp4_expert_s(&c, b200, 4, 8192, 1)) /
                (fp4_expert_s(&c, b200, 4, 16384, 0) - fp4_expert_s(&c, b200, 4, 8192, 0));
    CHECK_NEAR(r4, 0.80416, 1e-3);
    /* bit 2 alone leaves TensorRT-LLM on the pooled fit */
    CHECK_NEAR(fp4_expert_s(&c, b200, 8, 8192, 2), fp4_expert_s(&c, b200, 8, 8192, 0), 1e-12);
}

static void t_gemm_each_by_hand(void) {
    CHECK_NEAR(gemm_call_us(1), 51.212, 2e-3);
    double summed = gemm_call_us(0);
    CHECK(summed > 0 && summed < 51.212);
    /* -1 (the default) follows the fused pricing, off here */
    CHECK_NEAR(gemm_call_us(-1), summed, 1e-9);
}

static void t_lone_prompt_adp_by_hand(void) {
    const dlp_device *b200 = dlp_devdb_find(db, "b200");
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("deepseek-ai/DeepSeek-V3", &c, &e) == DLP_OK);
    dlp_llm_workload wl = {.batch = 1, .seq = 8192, .gen_tokens = 1024, .quant = DLP_QT_FP8,
                           .kv_dtype = DLP_DT_FLOAT8E4M3FN, .n_gpus = 8, .ep = 8, .attn_dp = 8, .concurrency = 1,
                           .engine = DLP_LLM_ENGINE_TRTLLM, .phase = DLP_LLM_PREFILL_ONLY};
    dlp_llm_prediction p;
    CHECK(dlp_llm_predict(&c, b200, db, &wl, &ANALYTIC, &p, &e) == DLP_OK);
    double even = lone_parts_ms(&c, b200, DLP_LLM_ENGINE_TRTLLM, 8192);
    double eight = lone_parts_ms(&c, b200, DLP_LLM_ENGINE_TRTLLM, 65536);
    CHECK(even > 0 && even < p.prefill_ms && p.prefill_ms < eight);
    printf("  DeepSeek-V3 8k prompt, TensorRT-LLM attention DP 8 on 8 x B200: spread %.1f < lone %.1f < eight %.1f ms\n",
           even, p.prefill_ms, eight);
    wl.engine = DLP_LLM_ENGINE_SGLANG;
    CHECK(dlp_llm_predict(&c, b200, db, &wl, &ANALYTIC, &p, &e) == DLP_OK);
    CHECK(p.prefill_ms > lone_parts_ms(&c, b200, DLP_LLM_ENGINE_SGLANG, 8192));
}

/* gpt-oss's mxfp4 experts under the trtllm-gen MoE kernel on Blackwell
 * (llm_serve.c, dlp__llm_trtgen_mxfp4_pad; docs/llm.md, h223), by hand:
 *  - the padding, hidden 2,880 and expert width 2,880 to 256 a side:
 *    3,072 / 2,880 = 1.066667 on the hidden side; the width's rank share
 *    2,880 / 1,440 / 720 / 360 at moe_tp 1 / 2 / 4 / 8 rounds up to 3,072 /
 *    1,536 / 768 / 512 (vLLM's round_up(share, 256); TensorRT-LLM's
 *    _get_weight_alignment: lcm(256, 32, 8) = 256 pads 2,880 to 3,072, a
 *    share of 384 is no multiple of 256, so 256 x 2 x 8 = 4,096 and 512 a
 *    rank): 1.066667^2 = 1.137778 at 1-4 ranks, 1.066667 x 512 / 360 =
 *    1.517037 at 8.  1 on H200 (triton), under SGLang, for nvfp4;
 *  - the MoE block's element-wise bytes the kernel fuses away, a token a
 *    layer of the one-token graph (its expert-side kernels on 128 rows
 *    scaled by k / E = 4 / 128, i.e. 4 rows; 16-bit, in + out, biases being
 *    weights not counted): the gate_up bias add 4 x 5,760 x 2 x 2 =
 *    92,160; the split 92,160; two clips, the alpha product, the up + 1,
 *    the sigmoid and the down bias add 4 x 2,880 x 2 x 2 = 46,080 each
 *    (276,480); the two products of two inputs 4 x 2,880 x 2 x 3 = 69,120
 *    each; dispatch pad 23,760 and expand 900, combine slice 23,760,
 *    weights 1,440 and sum 900; router bias 512, softmax 512, top-k 296:
 *    651,120 B; and the scalar operands (2 B each, x 4 / 128): the two
 *    clips' bounds 0.125 each, alpha and the 1 0.0625 each, the combine's
 *    weights 0.25: 0.625 B; 651,120.625 x 36 layers = 23,440,342.5 B;
 *  - the prefill floor on one B200, a prompt of 8,192 tokens: 32,768
 *    routed rows, 256 an expert (>= 64); an expert 2,880 x 5,760 + 2,880
 *    x 2,880 = 24,883,200 weights, F = 2 x 32,768 x 24,883,200 = 1.63070e12
 *    a layer, / (0.349 x 4.5e15) = 1038.34 us, + 76.6 = 1114.94 us, x 36
 *    = 40.138 ms of expert matrices (the GEMM curve alone gave ~14 ms). */
static void t_trtgen_mxfp4_by_hand(void) {
    const dlp_device *b200 = dlp_devdb_find(db, "b200"), *gb200 = dlp_devdb_find(db, "gb200");
    const dlp_device *h200 = dlp_devdb_find(db, "h200");
    const int TR = DLP_LLM_ENGINE_TRTLLM, V = DLP_LLM_ENGINE_MODERN, SG = DLP_LLM_ENGINE_SGLANG;
    CHECK_NEAR(dlp__llm_trtgen_mxfp4_pad(b200, DLP_QT_MXFP4, TR, 2880, 2880, 1), 1.137778, 1e-6);
    CHECK_NEAR(dlp__llm_trtgen_mxfp4_pad(b200, DLP_QT_MXFP4, TR, 2880, 2880, 2), 1.137778, 1e-6);
    CHECK_NEAR(dlp__llm_trtgen_mxfp4_pad(gb200, DLP_QT_MXFP4, TR, 2880, 2880, 4), 1.137778, 1e-6);
    CHECK_NEAR(dlp__llm_trtgen_mxfp4_pad(b200, DLP_QT_MXFP4, TR, 2880, 2880, 8), 1.517037, 1e-6);
    CHECK_NEAR(dlp__llm_trtgen_mxfp4_pad(b200, DLP_QT_MXFP4, V, 2880, 2880, 8), 1.517037, 1e-6);
    CHECK(dlp__llm_trtgen_mxfp4_pad(h200, DLP_QT_MXFP4, TR, 2880, 2880, 8) == 1.0);
    CHECK(dlp__llm_trtgen_mxfp4_pad(b200, DLP_QT_MXFP4, SG, 2880, 2880, 8) == 1.0);
    CHECK(dlp__llm_trtgen_mxfp4_pad(b200, DLP_QT_NVFP4, TR, 2880, 2880, 8) == 1.0);
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("openai/gpt-oss-120b", &c, &e) == DLP_OK);
    double all = 0, moe = 0;
    CHECK(dlp__llm_ew_bytes_pt(&c, DLP_QT_MXFP4, &all, &moe, &e) == DLP_OK);
    CHECK_NEAR(moe, 23440342.5, 0.01);
    CHECK(all > moe);
    dlp_llm_workload wl = {.quant = DLP_QT_MXFP4, .n_gpus = 1, .kv_dtype = DLP_DT_BFLOAT16, .engine = TR};
    int cdt = dlp_llm_compute_dtype(b200, DLP_QT_MXFP4, NULL, 0);
    dlp__llm_parts p, q;
    CHECK(dlp__llm_iter_parts(&c, b200, &wl, cdt, 2.0, 0, 1.0, 8192, 8192, &p, &e) == DLP_OK);
    CHECK_NEAR(parts_experts_s(&p) * 1e3, 40.138, 0.002);
    /* the fused block moves fewer element-wise bytes than the graph's chain */
    int keep = dlp__llm_knob.trtgen_mxfp4;
    dlp__llm_knob.trtgen_mxfp4 = 0;
    CHECK(dlp__llm_iter_parts(&c, b200, &wl, cdt, 2.0, 0, 1.0, 8192, 8192, &q, &e) == DLP_OK);
    dlp__llm_knob.trtgen_mxfp4 = keep;
    CHECK(parts_experts_s(&q) < 0.5 * parts_experts_s(&p) && q.other_s > 1.5 * p.other_s);
    /* Hopper: no trtllm-gen, nothing moves */
    cdt = dlp_llm_compute_dtype(h200, DLP_QT_MXFP4, NULL, 0);
    CHECK(dlp__llm_iter_parts(&c, h200, &wl, cdt, 2.0, 0, 1.0, 8192, 8192, &p, &e) == DLP_OK);
    dlp__llm_knob.trtgen_mxfp4 = 0;
    CHECK(dlp__llm_iter_parts(&c, h200, &wl, cdt, 2.0, 0, 1.0, 8192, 8192, &q, &e) == DLP_OK);
    dlp__llm_knob.trtgen_mxfp4 = keep;
    CHECK(p.total_s == q.total_s);
}

int main(void) {
    dlp_error e = {0};
    if (dlp_devdb_load(NULL, &db, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    RUN(t_kv_capacity_by_hand);
    RUN(t_trtgen_mxfp4_by_hand);
    RUN(t_sgl_fmha_by_hand);
    RUN(t_sgl_moe_rows_by_hand);
    RUN(t_sgl_moe_fi_by_hand);
    RUN(t_decode_roofline);
    RUN(t_identities_and_monotone);
    RUN(t_phase_names);
    RUN(t_serve_refusals);
    RUN(t_every_device);
    RUN(t_image_tokens_are_text_tokens_plus_tower);
    RUN(t_image_token_counts);
    RUN(t_vision_params);
    RUN(t_fits_same_in_both_modes);
    RUN(t_memory_story_by_hand);
    RUN(t_hybrid_chunk_workspace);
    RUN(t_kv_capacity_vs_chunk);
    RUN(t_trtllm_whole_prompts_in_burst);
    RUN(t_iteration_and_clients);
    RUN(t_power_follows_load);
    RUN(t_dequant_both_modes);
    RUN(t_rate_open_loop);
    RUN(t_engine_cpu_by_hand);
    RUN(t_offline_by_hand);
    RUN(t_modern_offline_by_hand);
    RUN(t_rocm_offline_gpu_x);
    RUN(t_burst_by_engine);
    RUN(t_power_spans_prompt_steps);
    RUN(t_power_vllm_v0_own_shares);
    RUN(t_gh200_die_scale);
    RUN(t_recurrent_state_prefill);
    RUN(t_attention_dp_reads_its_share);
    RUN(t_attention_dp_busiest_rank_padding);
    RUN(t_mtp_by_hand);
    RUN(t_fp8_act_quant_by_engine);
    RUN(t_prompt_arrives_whole);
    RUN(t_mla_prefill_unabsorbed);
    RUN(t_prefill_round_of_a_batch);
    RUN(t_kv_handoff_by_hand);
    RUN(t_ttft_at_least_prefill_all_engines);
    RUN(t_w4a16_moe);
    RUN(t_moe_16_fp8_kernels);
    RUN(t_moe_grouped_by_hand);
    RUN(t_trtllm_gen_moe_by_hand);
    RUN(t_trt_fp8_moe_blackwell_by_hand);
    RUN(t_mla_dec_math_by_hand);
    RUN(t_mla_gen_module_by_hand);
    RUN(t_dsa_gen_module_by_hand);
    RUN(t_ep_busiest_by_hand);
    RUN(t_moe_prefill_kernel);
    RUN(t_trt_fp8_moe_rows_by_hand);
    RUN(t_trt_adp_gather_by_hand);
    RUN(t_mla_down_proj_replicated);
    RUN(t_mla_context_floor);
    RUN(t_w4a16_moe_prefill);
    RUN(t_sglang_adp_prompt_by_hand);
    RUN(t_sglang_rank_step_by_hand);
    RUN(t_sglang_batch_by_hand);
    RUN(t_sglang_busy_rank_by_hand);
    RUN(t_sglang_a2a_none_by_hand);
    RUN(t_moe_nvfp4_kernel);
    RUN(t_nvfp4_dense_gemm);
    RUN(t_oneshot_allreduce_and_attn_floor);
    RUN(t_moe_layers_and_alltoall);
    RUN(t_ep_prompt_comm_by_hand);
    RUN(t_engine_defaults);
    RUN(t_context_boundary);
    RUN(t_batch_wait_by_hand);
    RUN(t_recv_interval_by_hand);
    RUN(t_adp_balance_by_hand);
    RUN(t_adp_leftovers_by_hand);
    RUN(t_rocm_gemm_floor_by_hand);
    RUN(t_rocm_v1_rereads_by_hand);
    RUN(t_trtllm_kv_fraction_by_hand);
    RUN(t_expert_slots_by_hand);
    RUN(t_eager_by_hand);
    RUN(t_trt011_host_by_hand);
    RUN(t_ctx_host_by_hand);
    RUN(t_lockstep_by_hand);
    RUN(t_trt_single_block_attn_by_hand);
    RUN(t_trt_xqa_waves_by_hand);
    RUN(t_floor_sm_draw_by_hand);
    RUN(t_same_prompts_by_hand);
    RUN(t_trt_no_evict_by_hand);
    RUN(t_offline_power_by_hand);
    RUN(t_lone_prompt_adp_by_hand);
    RUN(t_fused_elem_by_hand);
    RUN(t_gemm_each_by_hand);
    RUN(t_moe_imb_fp4_by_hand);
    RUN(t_sgl_b300_req_by_hand);

    RUN(t_trt_mla_ew_by_hand);
    dlp_devdb_free(db);
    return TAP_DONE();
}
