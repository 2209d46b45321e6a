/*
 * test_llm_parity.c — generate mode and serving cost the same kernels
 * (issue 22, "Modes disagree"; docs/llm.md, "Modes agree").
 *
 * Generate mode's decode step: (latency at gen 2 - latency at gen 0) / 2 of
 * a batch of B prompts of C - 1 tokens (its decode steps run at the mean
 * context C - 1 + 2 / 2 = C; the prefill is the same graph in both).
 * Serving's: a decode worker's decode_step_ms at B running sequences of
 * prompt C - 1 and 2 generated tokens (mean live context C - 1 + 2 / 2 = C).
 */
#include "dlperf.h"
#include "llm/llm_internal.h"
#include "tap.h"

static const dlp_llm_predict_opts ANALYTIC = {.analytic_only = 1};
static dlp_devdb *db;

static dlp_status run(const char *model, const char *dev, dlp_llm_workload wl, dlp_llm_prediction *p) {
    dlp_llm_config c;
    dlp_error e = {0};
    dlp_status st = dlp_llm_catalogue_get(model, &c, &e);
    if (!st) st = dlp_llm_predict(&c, dlp_devdb_find(db, dev), db, &wl, &ANALYTIC, p, &e);
    if (st) fprintf(stderr, "  %s on %s: %s\n", model, dev, e.msg);
    return st;
}

/* Generate mode's decode step (ms) and serving's decode step and engine CPU
 * time (ms) at B sequences and mean context C; 0 on error. */
static double gen_step_ms(const char *model, const char *dev, int gpus, int quant, int64_t B, int64_t C) {
    dlp_llm_workload wl = {.batch = B, .seq = C - 1, .gen_tokens = 0, .quant = quant, .n_gpus = gpus};
    dlp_llm_prediction p0, p2;
    if (run(model, dev, wl, &p0)) return 0;
    wl.gen_tokens = 2;
    if (run(model, dev, wl, &p2)) return 0;
    return (p2.latency_analytic_ms - p0.latency_analytic_ms) / 2.0;
}

static double serve_step_ms(const char *model, const char *dev, int gpus, int quant, int64_t B, int64_t C,
                            double *ovh_ms) {
    dlp_llm_workload wl = {.batch = 1, .seq = C - 1, .gen_tokens = 2, .quant = quant, .n_gpus = gpus,
                           .concurrency = B, .phase = DLP_LLM_DECODE_ONLY};
    dlp_llm_prediction p;
    *ovh_ms = 0;
    if (run(model, dev, wl, &p)) return 0;
    if (p.running != B) fprintf(stderr, "  %s on %s: %lld running, not %lld\n", model, dev, (long long)p.running,
                                (long long)B);
    *ovh_ms = p.overhead_ms;
    return p.decode_step_ms;
}

/* The W4A16 MoE floor by hand, Qwen3-30B-A3B (config.json: 48 layers, 128
 * experts, 8 per token, hidden 2048, moe_intermediate_size 768, SwiGLU) in
 * int4 on one H200 (4.8 TB/s), 8 tokens:
 *   hit   = 128 x (1 - (120/128)^8) = 51.59 experts a layer
 *   slice = 3 x 2048 x 768 weights x wb; wb the serving profile's stored
 *           bytes a linear weight: int4's 0.5195 (group 128) on the block
 *           matrices, 2 B on the 16-bit LM head (151,936 x 2048 = 0.311 G
 *           of 30.5 G linear weights) -> 0.5195 + 1.4805 x 0.311 / 30.5 =
 *           0.5346 B: 2.522 MB; / (0.659 x 4.8e12) = 0.7973 us
 *   layer = 24.2 + 51.59 x (0.236 + 0.7973) = 77.51 us; x 48 = 3.721 ms
 * (2 % covers the LM head's share, taken from the config's round counts).
 * A dense model and bf16 have no floor; nor has mxfp4 on B200 (FP4 tensor
 * cores). */
static void t_w4a16_floor_by_hand(void) {
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("Qwen/Qwen3-30B-A3B-Instruct-2507", &c, &e) == DLP_OK);
    const dlp_device *h200 = dlp_devdb_find(db, "h200"), *b200 = dlp_devdb_find(db, "b200");
    double f = dlp__llm_w4a16_moe_floor_s(&c, h200, DLP_QT_INT4, 1, 8);
    CHECK_NEAR(f * 1e3, 3.721, 0.02 * 3.721);
    /* split over 2 GPUs: each reads half a slice, the fixed parts stay */
    double f2 = dlp__llm_w4a16_moe_floor_s(&c, h200, DLP_QT_INT4, 2, 8);
    CHECK_NEAR(f2 * 1e3, 48 * (24.2 + 51.59 * (0.236 + 0.7973 / 2)) * 1e-3, 0.02 * 3.0);
    CHECK(dlp__llm_w4a16_moe_floor_s(&c, h200, DLP_QT_BF16, 1, 8) == 0);
    CHECK(dlp__llm_w4a16_moe_floor_s(&c, b200, DLP_QT_MXFP4, 1, 8) == 0);
    CHECK(dlp__llm_w4a16_moe_floor_s(&c, h200, DLP_QT_INT4, 1, 0) == 0);
    CHECK(dlp__llm_w4a16_moe_floor_s(NULL, h200, DLP_QT_INT4, 1, 8) == 0);
    dlp_llm_config dense;
    CHECK(dlp_llm_catalogue_get("meta-llama/Llama-3.1-8B-Instruct", &dense, &e) == DLP_OK);
    CHECK(dlp__llm_w4a16_moe_floor_s(&dense, h200, DLP_QT_INT4, 1, 8) == 0);
}

/* Generate mode's decode step of a W4A16 MoE takes at least the floor:
 * Qwen3-30B-A3B int4, batch 8, context 1024 on one H200 is >= the floor
 * above plus 48 layers x 12 us (generate mode's per-layer step cost).
 * Before issue 22's parity fix it was 2.90 ms, under the floor alone.
 * The prefill takes the same floor (serving's prefill chunks do). */
static void t_generate_decode_has_floor(void) {
    double g = gen_step_ms("Qwen/Qwen3-30B-A3B-Instruct-2507", "h200", 1, DLP_QT_INT4, 8, 1024);
    CHECK(g >= 3.721 * 0.98 + 48 * 0.012);
    /* and by hand: beside the experts the step reads attention 48 x (2048 x
     * 4096 + 2 x 2048 x 512 + 4096 x 2048) = 906.0 M weights x 0.5195 B =
     * 470.6 MB, the 16-bit LM head 151,936 x 2048 x 2 B = 622.3 MB (the
     * untied embedding is a lookup of 8 rows), routers 48 x 2048 x 128 x 2 B
     * = 25.2 MB (1,118 MB), and 8 caches of 1024 tokens x 2 x 48 x 4 x 128 x
     * 2 B = 805.3 MB: 1,924 MB at 0.8 x 4.8 TB/s = 0.501 ms; + the floor
     * 3.721 + 48 x 12 us = 4.798 ms */
    CHECK_NEAR(g, 4.798, 0.03 * 4.798);
    /* prefill: one 512-token prompt of Qwen3-30B-A3B on one B200 (8 TB/s),
     * where int4 experts run W4A16 and nvfp4 ones on the FP4 tensor cores.
     * Its 512 rows hit all 128 experts of a layer: the int4 floor is 48 x
     * (24.2 + 128 x (0.236 + 2.522 MB / (0.659 x 8e12))) us = 48 x 115.6 us
     * = 5.55 ms, where nvfp4's expert matrices read 28.99 G weights x
     * 0.5625 B = 16.3 GB at 0.8 x 8 TB/s: 2.55 ms (their math, 2 x 512 x 8
     * x 3 x 2048 x 768 x 48 = 0.93 TFLOP, is far below that at the FP4
     * rate).  The rest of the two graphs differs little (16-bit math on
     * int4's attention, 4.3 % fewer bytes): int4's prefill is ~3.0 ms over
     * nvfp4's, at least 2.0; before the floor reached generate mode's
     * prefill it was 0.1 ms over. */
    dlp_llm_workload wl = {.batch = 1, .seq = 512, .quant = DLP_QT_INT4, .n_gpus = 1};
    dlp_llm_prediction i4, f4;
    CHECK(run("Qwen/Qwen3-30B-A3B-Instruct-2507", "b200", wl, &i4) == DLP_OK);
    wl.quant = DLP_QT_NVFP4;
    CHECK(run("Qwen/Qwen3-30B-A3B-Instruct-2507", "b200", wl, &f4) == DLP_OK);
    CHECK(i4.latency_analytic_ms - f4.latency_analytic_ms >= 2.0);
}

/* The parity: ~8 setups, B = 8 sequences at context 1024, generate mode's
 * decode step over serving's.  What legitimately differs (by hand):
 *  - serving's engine CPU time per step (overhead_ms: scheduling, sampling)
 *    against generate mode's 12 us per layer (graphs, sampling): both kept,
 *    the totals compared;
 *  - serving prices each small GEMM on predict's GEMM curve with a 2 us
 *    launch floor per kernel inside a CUDA graph and 6 more per layer, where
 *    generate mode takes the whole step's bytes at 0.8 of the bandwidth:
 *    for Qwen3-30B-A3B's 48 layers x ~15 kernels, 1.4 ms against 0.58 ms;
 *  - fp8 W8A8: serving adds vLLM's unfused activation quantisation, 4 us per
 *    GEMM (FP8_ACT_QUANT_US): Llama-3.1-8B's 7 x 32 = 224 GEMMs, 0.896 ms,
 *    taken off serving's step here by hand;
 *  - MoE expert bytes: serving reads the E (1 - (1 - k/E)^B) experts a step
 *    hits (128 (1 - (15/16)^8) = 51.6 of 128 for Qwen3-30B-A3B at 8),
 *    generate mode the whole step's bytes x (B k + 2) / (E + 2) = 66 / 130
 *    (the KV cache and dense weights too): 1.19x serving's bf16 step;
 *  - serving's decode-attention op floor (h147, ATTN_DEC_T0_US: 8.58 us a
 *    layer where its launch counted 2 us, from aiconfigurator's H100
 *    generation-attention table), serving-only like the fp8 quantisation:
 *    layers x 6.58 us (Qwen3-30B-A3B 48 x 6.58 = 0.316 ms) taken off by hand.
 * So the ratio generate / serving is held to [0.78, 1.25].  Before the W4A16
 * floor reached generate mode, Qwen3-30B-A3B int4 was 0.50 (H200) and 0.41
 * (B200) and gpt-oss-120b mxfp4 on H100 0.73. */
static void t_modes_agree(void) {
    struct {
        const char *model, *dev;
        int gpus, quant;
        double serve_extra_ms; /* serving-only kernels, by hand (above) */
        int64_t B;
        double lo;             /* 0: the 0.78 bound; else this row's, by hand */
    } cs[] = {
        {"meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", 1, DLP_QT_BF16, 0, 8, 0},
        {"meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", 1, DLP_QT_FP8, 224 * 0.004, 8, 0},
        {"meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", 1, DLP_QT_NF4, 0, 8, 0},
        {"meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", 1, DLP_QT_INT8, 0, 8, 0},
        {"Qwen/Qwen3-30B-A3B-Instruct-2507", "h100-sxm", 1, DLP_QT_BF16, 0, 8, 0},
        {"Qwen/Qwen3-30B-A3B-Instruct-2507", "h200", 1, DLP_QT_INT4, 0, 8, 0},
        {"Qwen/Qwen3-30B-A3B-Instruct-2507", "b200", 1, DLP_QT_INT4, 0, 8, 0},
        {"openai/gpt-oss-120b", "h100-sxm", 1, DLP_QT_MXFP4, 0, 8, 0},
        {"openai/gpt-oss-120b", "b200", 1, DLP_QT_MXFP4, 0, 8, 0},
        {"openai/gpt-oss-20b", "h200", 1, DLP_QT_MXFP4, 0, 8, 0},
        /* one sequence: the experts a step hits are k of E */
        {"openai/gpt-oss-120b", "h100-sxm", 1, DLP_QT_MXFP4, 0, 1, 0},
        /* a small step: serving's 48 x 15 + 1 kernel floors (1.44 ms) against
         * generate mode's 48 x 12 us (0.58 ms) are 0.87 ms of its 3.3 ms, so
         * ~0.74 expected; 0.70 */
        {"Qwen/Qwen3-30B-A3B-Instruct-2507", "h200", 1, DLP_QT_INT4, 0, 1, 0.70},
        {"meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", 1, DLP_QT_BF16, 0, 1, 0},
    };
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        double ovh, g = gen_step_ms(cs[i].model, cs[i].dev, cs[i].gpus, cs[i].quant, cs[i].B, 1024);
        dlp_llm_config mc;
        dlp_error me = {0};
        double floor_ms = dlp_llm_catalogue_get(cs[i].model, &mc, &me) == DLP_OK
                              ? (double)mc.num_hidden_layers * (8.58 - 2.0) * 1e-3
                              : 0;
        double s = serve_step_ms(cs[i].model, cs[i].dev, cs[i].gpus, cs[i].quant, cs[i].B, 1024, &ovh) -
                   cs[i].serve_extra_ms - floor_ms;
        double r = s > 0 ? g / s : 0;
        printf("  # B %lld %-34s %-8s %-5s generate %7.3f ms  serving %7.3f ms (engine CPU %.3f)  ratio %.3f\n",
               (long long)cs[i].B, cs[i].model, cs[i].dev, dlp_quant_name(cs[i].quant), g, s, ovh, r);
        double lo = cs[i].lo > 0 ? cs[i].lo : 0.78;
        if (!(r >= lo && r <= 1.25)) fprintf(stderr, "  %s %s %s: ratio %.3f\n", cs[i].model, cs[i].dev,
                                               dlp_quant_name(cs[i].quant), r);
        CHECK(r >= lo && r <= 1.25);
    }
}

int main(void) {
    dlp_error e = {0};
    if (dlp_devdb_load(NULL, &db, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    RUN(t_w4a16_floor_by_hand);
    RUN(t_generate_decode_has_floor);
    RUN(t_modes_agree);
    dlp_devdb_free(db);
    return TAP_DONE();
}
