/*
 * test_llm.c — the LLM module: the transformer builder against ONNX exports
 * (tests/golden/llm.json from tools/golden/llm_golden.py: parameters and
 * MatMul/Gemm MACs must match exactly), hand-computed parameters for GQA and
 * tied embeddings, the int8/NF4 memory arithmetic by hand, the catalogue
 * against published parameter counts, config errors, and the XGBoost
 * wrapper (train/save/load round trip, corruption, cross-validation).
 */
#include <cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dlperf.h"
#include "learn/xgb.h"
#include "tap.h"

/* the analytic estimate only (no shipped trees) */
static const dlp_llm_predict_opts ANALYTIC = {.analytic_only = 1};

static int64_t jint(const cJSON *o, const char *k) {
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(x) ? (int64_t)x->valuedouble : -1;
}

/* Bytes of the graph's float initializers (the weights; the small int64
 * shape constants are initializers too). */
static int64_t float_init_bytes(const dlp_graph *g) {
    int64_t b = 0;
    for (int i = 0; i < dlp_graph_tensor_count(g); i++) {
        dlp_tensor_info ti;
        ti = *dlp_graph_tensor_at(g, i);
        if (ti.is_initializer && ti.dtype != DLP_DT_INT64 && ti.bytes > 0) b += ti.bytes;
    }
    return b;
}

/* Every model of the golden file: parameters, MACs and weight bytes per
 * format exactly as the ONNX export / the independent Python rules say. */
static void t_golden_onnx(void) {
    char *txt = tap_slurp("tests/golden/llm.json", NULL);
    CHECK(txt != NULL);
    if (!txt) return;
    cJSON *root = cJSON_Parse(txt);
    const cJSON *models = cJSON_GetObjectItemCaseSensitive(root, "models");
    CHECK(cJSON_GetArraySize(models) >= 5);
    const cJSON *m;
    cJSON_ArrayForEach(m, models) {
        const char *name = cJSON_GetObjectItemCaseSensitive(m, "name")->valuestring;
        char *cfg = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(m, "config"));
        dlp_llm_config c;
        dlp_error e = {0};
        dlp_status st = dlp_llm_config_parse(cfg, name, &c, &e);
        free(cfg);
        if (st) {
            fprintf(stderr, "  %s: %s\n", name, e.msg);
            CHECK(0);
            continue;
        }
        int64_t B = jint(m, "batch"), S = jint(m, "seq");
        dlp_graph *g = NULL;
        dlp_llm_weights w;
        st = dlp_llm_build(&c, B, S, DLP_QT_FP32, &g, &w, &e);
        if (st) {
            fprintf(stderr, "  %s: %s\n", name, e.msg);
            CHECK(0);
            continue;
        }
        dlp_graph_stats gs;
        dlp_graph_stats_get(g, &gs);
        fprintf(stderr, "  %-18s params %lld/%lld macs %lld/%lld\n", name, (long long)w.params,
                (long long)jint(m, "params"), (long long)gs.macs, (long long)jint(m, "macs"));
        CHECK_I64(w.params, jint(m, "params"));
        CHECK_I64(gs.params, jint(m, "params"));
        CHECK_I64(gs.macs, jint(m, "macs"));
        CHECK_I64(gs.n_unknown_ops, 0);
        CHECK_I64(gs.shapes_known, gs.node_outputs);
        /* MatMul/Gemm node count as in the export */
        int nmm = 0;
        for (int i = 0; i < dlp_graph_node_count(g); i++) {
            dlp_node_info ni;
            ni = *dlp_graph_node_at(g, i);
            if (!strcmp(ni.op_type, "MatMul") || !strcmp(ni.op_type, "Gemm")) nmm++;
        }
        CHECK_I64(nmm, jint(m, "n_matmul"));
        const cJSON *wb = cJSON_GetObjectItemCaseSensitive(m, "weight_bytes");
        /* the golden file has the bitsandbytes formats; the serving formats
         * are checked by hand in t_precisions_by_hand */
        for (int q = 0; q <= DLP_QT_NF4; q++) CHECK_I64(w.weight_bytes[q], jint(wb, dlp_quant_name(q)));
        /* fp32 graph: its float initializers are the fp32 rule's bytes */
        CHECK_I64(float_init_bytes(g), w.weight_bytes[DLP_QT_FP32]);
        dlp_graph_free(g);
    }
    cJSON_Delete(root);
    free(txt);
}

/* A tiny LLaMA-style config: GQA (8 heads, 2 kv), gated MLP, tied or not.
 * Parameters and MACs by hand. */
static const char *tiny_llama(int tied) {
    static char buf[512];
    snprintf(buf, sizeof buf,
             "{\"model_type\":\"llama\",\"hidden_size\":64,\"num_hidden_layers\":2,"
             "\"num_attention_heads\":8,\"num_key_value_heads\":2,\"intermediate_size\":96,"
             "\"vocab_size\":100,\"max_position_embeddings\":64,\"tie_word_embeddings\":%s}",
             tied ? "true" : "false");
    return buf;
}

static void t_gqa_tied_by_hand(void) {
    for (int tied = 0; tied < 2; tied++) {
        dlp_llm_config c;
        dlp_error e = {0};
        CHECK(dlp_llm_config_parse(tiny_llama(tied), "tiny.json", &c, &e) == DLP_OK);
        CHECK_I64(c.head_dim, 8);
        CHECK_I64(c.num_key_value_heads, 2);
        dlp_graph *g;
        dlp_llm_weights w;
        CHECK(dlp_llm_build(&c, 1, 4, DLP_QT_FP16, &g, &w, &e) == DLP_OK);
        /* per layer: q 64x64, k and v 64x16, o 64x64, gate/up/down 3 x 64x96,
         * two RMSNorm weights of 64 = 28800; embeddings 100x64 = 6400; final
         * norm 64; an untied head adds another 6400 */
        int64_t want = 2 * 28800 + 6400 + 64 + (tied ? 0 : 6400);
        CHECK_I64(w.params, want);
        dlp_graph_stats gs;
        dlp_graph_stats_get(g, &gs);
        CHECK_I64(gs.params, want);
        /* MACs (B 1, S 4): q 4*64*64, k+v 2*4*64*16, o 4*64*64, MLP 3*4*64*96,
         * scores and context 2 * (8 heads * 4 * 4 * 8) per layer; head 4*64*100 */
        int64_t macs = 2 * (16384 + 8192 + 16384 + 73728 + 2048) + 25600;
        CHECK_I64(gs.macs, macs);
        /* fp16 graph: 2 bytes per parameter */
        CHECK_I64(float_init_bytes(g), 2 * want);
        dlp_graph_free(g);
    }
}

/* bitsandbytes rules by hand on the tied tiny model (docs/llm.md):
 * int8: n + 4 * out per Linear weight; nf4: ceil(n/2) + ceil(n/64) +
 * 4 * ceil(blocks/256) + 4; everything else 2 bytes per parameter. */
static void t_quant_bytes_by_hand(void) {
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_config_parse(tiny_llama(1), "tiny.json", &c, &e) == DLP_OK);
    dlp_graph *g;
    dlp_llm_weights w;
    CHECK(dlp_llm_build(&c, 2, 8, DLP_QT_NF4, &g, &w, &e) == DLP_OK);
    /* int8 per layer: q,o 4096+256; k,v 1024+64; gate,up 6144+384; down 6144+256 */
    int64_t i8 = 2 * (2 * 4352 + 2 * 1088 + 2 * 6528 + 6400);
    /* nf4 per layer: q,o 2048+64+4+4; k,v 512+16+4+4; gate,up,down 3072+96+4+4 */
    int64_t n4 = 2 * (2 * 2120 + 2 * 536 + 3 * 3176);
    int64_t rest = 2 * (6400 + 2 * 2 * 64 + 64); /* embeddings + norms, 16-bit */
    CHECK_I64(w.weight_bytes[DLP_QT_INT8], i8 + rest);
    CHECK_I64(w.weight_bytes[DLP_QT_NF4], n4 + rest);
    CHECK_I64(w.weight_bytes[DLP_QT_FP32], 4 * w.params);
    CHECK_I64(w.weight_bytes[DLP_QT_BF16], 2 * w.params);
    CHECK_I64(w.linear_params, 2 * (2 * 4096 + 2 * 1024 + 3 * 6144));
    /* activations of an nf4 model run in fp16 */
    dlp_tensor_info ti;
    ti = *dlp_graph_tensor_at(g, 0);
    int found16 = 0;
    for (int i = 0; i < dlp_graph_tensor_count(g); i++) {
        ti = *dlp_graph_tensor_at(g, i);
        if (ti.is_initializer && ti.rank == 2 && ti.dtype == DLP_DT_FLOAT16) found16 = 1;
    }
    CHECK(found16);
    dlp_graph_free(g);
    /* LLaMA-2-7B: NF4 with double quantisation is ~0.516 B per Linear weight */
    CHECK(dlp_llm_catalogue_get("llama-2-7b", &c, &e) == DLP_OK);
    CHECK(dlp_llm_build(&c, 1, 16, DLP_QT_NF4, &g, &w, &e) == DLP_OK);
    double emb = 2.0 * 32000 * 4096;
    double lin_b = (double)w.weight_bytes[DLP_QT_NF4] - 2.0 * (double)(w.params - w.linear_params);
    CHECK_NEAR(lin_b / (double)w.linear_params, 0.5 + 1.0 / 64 + 4.0 / (64 * 256), 2e-4);
    CHECK_NEAR((double)(w.params - w.linear_params), emb + 4096.0 * 65, 0.5);
    dlp_graph_free(g);
}

/* Serving formats by hand (docs/llm.md, "Precisions") on the tied tiny
 * model: per layer q,o (64, 64), k,v (64, 16), gate,up (64, 96), down
 * (96, 64); embeddings (100 x 64) and the norms stay 16-bit.
 *   fp8   n + 4 per 128x128 block (each matrix is one block): n + 4
 *   int4  ceil(n/2) + ceil(in/128) x out x 2.5 (fp16 scale + 4-bit zero):
 *         q,o 2048+160, k,v 512+40, gate,up 3072+240, down 3072+160
 *   mxfp4 ceil(n/2) + ceil(in/32) x out (e8m0):
 *         q,o 2048+128, k,v 512+32, gate,up 3072+192, down 3072+192
 *   nvfp4 ceil(n/2) + ceil(in/16) x out (e4m3) + 4 (fp32 per tensor):
 *         q,o 2048+256+4, k,v 512+64+4, gate,up 3072+384+4, down 3072+384+4 */
static void t_precisions_by_hand(void) {
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_config_parse(tiny_llama(1), "tiny.json", &c, &e) == DLP_OK);
    dlp_graph *g;
    dlp_llm_weights w;
    CHECK(dlp_llm_build(&c, 1, 8, DLP_QT_FP8, &g, &w, &e) == DLP_OK);
    dlp_graph_free(g);
    int64_t rest = 2 * (6400 + 2 * 2 * 64 + 64);
    CHECK_I64(w.weight_bytes[DLP_QT_FP8], 2 * (2 * 4096 + 2 * 1024 + 3 * 6144 + 7 * 4) + rest);
    CHECK_I64(w.weight_bytes[DLP_QT_INT4], 2 * (2 * 2208 + 2 * 552 + 2 * 3312 + 3232) + rest);
    CHECK_I64(w.weight_bytes[DLP_QT_MXFP4], 2 * (2 * 2176 + 2 * 544 + 2 * 3264 + 3264) + rest);
    CHECK_I64(w.weight_bytes[DLP_QT_NVFP4], 2 * (2 * 2308 + 2 * 580 + 2 * 3460 + 3460) + rest);

    /* Llama-3.1-8B: 8,030,261,248 parameters of which 6,979,321,856 in the
     * blocks' Linear layers; the two 128256 x 4096 tables and the norms
     * stay bf16: 2 x 1,050,939,392 B.  Bytes per Linear weight: fp8 1 +
     * 4/16384 (128x128 fp32 scales) = 1.000244; int4 4.15625/8 = 0.519531;
     * mxfp4 4.25/8 = 0.53125; nvfp4 4.5/8 = 0.5625 (+ 4 B a tensor).
     * fp8 total = 6.979e9 x 1.000244 + 2.10e9 = 9.08 GB (RedHat's
     * Llama-3.1-8B-Instruct-FP8 checkpoint: 9.08 GB); bf16 16.06 GB. */
    CHECK(dlp_llm_catalogue_get("meta-llama/Llama-3.1-8B", &c, &e) == DLP_OK);
    CHECK(dlp_llm_build(&c, 1, 16, DLP_QT_BF16, &g, &w, &e) == DLP_OK);
    dlp_graph_free(g);
    CHECK_I64(w.params, 8030261248);
    CHECK_I64(w.linear_params, 6979321856);
    double rest8 = 2.0 * (double)(w.params - w.linear_params), lin = (double)w.linear_params;
    CHECK_NEAR(((double)w.weight_bytes[DLP_QT_FP8] - rest8) / lin, 1.0 + 4.0 / 16384, 1e-6);
    CHECK_NEAR(((double)w.weight_bytes[DLP_QT_INT4] - rest8) / lin, 4.15625 / 8, 1e-6);
    CHECK_NEAR(((double)w.weight_bytes[DLP_QT_MXFP4] - rest8) / lin, 4.25 / 8, 1e-6);
    CHECK_NEAR(((double)w.weight_bytes[DLP_QT_NVFP4] - rest8) / lin, 4.5 / 8, 1e-6);
    CHECK_NEAR((double)w.weight_bytes[DLP_QT_FP8] / 1e9, 9.08, 0.01);
    CHECK_I64(w.weight_bytes[DLP_QT_BF16], 2 * 8030261248);
    /* KV bytes per token: 2 (k, v) x 32 layers x 8 kv heads x 128 = 65536
     * elements: bf16 131072 B, fp8 65536 B, fp32 262144 B */
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 1, 2.0), 131072, 0);
    CHECK_NEAR(dlp_llm_kv_bytes(&c, 1, 1.0), 65536, 0);

    /* gpt-oss-120b in mxfp4, as released: only the routed experts (36 layers
     * x 128 experts x (2880 x 5760 + 2880 x 2880) = 114.65e9 weights) at
     * 4.25 bits = 60.9 GB; attention, router, embeddings, unembedding,
     * sinks and expert biases (2.18e9) in bf16 = 4.36 GB: 65.25 GB, the
     * published checkpoint's size (60.8 GiB = 65.3 GB). */
    CHECK(dlp_llm_catalogue_get("openai/gpt-oss-120b", &c, &e) == DLP_OK);
    CHECK(dlp_llm_build(&c, 1, 16, DLP_QT_MXFP4, &g, &w, &e) == DLP_OK);
    dlp_graph_free(g);
    double ex = 36.0 * 128 * (2880.0 * 5760 + 2880.0 * 2880);
    CHECK_NEAR((double)w.weight_bytes[DLP_QT_MXFP4], ex * 4.25 / 8 + 2.0 * ((double)w.params - ex), 1.0);
    CHECK((double)w.weight_bytes[DLP_QT_MXFP4] > 61e9 && (double)w.weight_bytes[DLP_QT_MXFP4] < 66e9);

    /* compute dtype per device: fp8 native on H100, weight-only bf16 on
     * A100; mxfp4 weight-only on H100, native on B200, refused on A100 */
    dlp_devdb *db = NULL;
    CHECK(dlp_devdb_load(NULL, &db, &e) == DLP_OK);
    const dlp_device *h100 = dlp_devdb_find(db, "h100-sxm"), *a100 = dlp_devdb_find(db, "a100-40gb"),
                     *b200 = dlp_devdb_find(db, "b200");
    char why[256];
    CHECK_I64(dlp_llm_compute_dtype(h100, DLP_QT_FP8, why, sizeof why), DLP_DT_FLOAT8E4M3FN);
    CHECK_I64(dlp_llm_compute_dtype(a100, DLP_QT_FP8, why, sizeof why), DLP_DT_BFLOAT16);
    CHECK_I64(dlp_llm_compute_dtype(h100, DLP_QT_MXFP4, why, sizeof why), DLP_DT_BFLOAT16);
    if (b200) CHECK_I64(dlp_llm_compute_dtype(b200, DLP_QT_NVFP4, why, sizeof why), DLP_DT_FLOAT4E2M1);
    CHECK_I64(dlp_llm_compute_dtype(a100, DLP_QT_MXFP4, why, sizeof why), -1);
    CHECK(strstr(why, "a100-40gb has no FP4 or FP8") != NULL);
    CHECK_I64(dlp_llm_compute_dtype(a100, DLP_QT_INT4, why, sizeof why), DLP_DT_FLOAT16);
    /* predictions: fp8 on H100 is faster than bf16 at decode (half the bytes)
     * and holds a fp8 KV cache of half the size; the shipped trees are of
     * fp16/bf16: the fp8 answer is analytic */
    CHECK(dlp_llm_catalogue_get("meta-llama/Llama-3.1-8B", &c, &e) == DLP_OK);
    dlp_llm_workload wb = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_BF16, .n_gpus = 1, .kv_dtype = 0}, w8 = {.batch = 1, .seq = 1024, .gen_tokens = 256, .quant = DLP_QT_FP8, .n_gpus = 1, .kv_dtype = DLP_DT_FLOAT8E4M3FN};
    dlp_llm_prediction pb, p8;
    CHECK(dlp_llm_predict(&c, h100, db, &wb, &ANALYTIC, &pb, &e) == DLP_OK);
    CHECK(dlp_llm_predict(&c, h100, db, &w8, NULL, &p8, &e) == DLP_OK);
    CHECK_STR(p8.method, "analytic");
    CHECK(p8.latency_ms < 0.7 * pb.latency_ms);
    CHECK_NEAR(p8.kv_bytes_per_seq, 1280.0 * 65536, 0);
    CHECK_NEAR(pb.kv_bytes_per_seq, 1280.0 * 131072, 0);
    CHECK_I64(p8.compute_dtype, DLP_DT_FLOAT8E4M3FN);
    CHECK(!p8.weight_only);
    dlp_devdb_free(db);
}

/* Requests nothing could run are refused with one line naming the field. */
static void t_refusals(void) {
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load(NULL, &db, &e) == DLP_OK);
    const dlp_device *a100 = dlp_devdb_find(db, "a100-40gb"), *h100 = dlp_devdb_find(db, "h100-sxm");
    dlp_llm_config c;
    dlp_llm_prediction p;
    CHECK(dlp_llm_catalogue_get("bert-base-uncased", &c, &e) == DLP_OK);
    dlp_llm_workload w1 = {.batch = 1, .seq = 128, .gen_tokens = 16, .quant = DLP_QT_FP16, .n_gpus = 1, .kv_dtype = 0};
    CHECK(dlp_llm_predict(&c, a100, db, &w1, &ANALYTIC, &p, &e) == DLP_EINVAL && strstr(e.msg, "encoder-only"));
    dlp_llm_workload w2 = {.batch = 1, .seq = 128, .gen_tokens = 0, .quant = DLP_QT_FP16, .n_gpus = 5, .kv_dtype = 0};
    CHECK(dlp_llm_predict(&c, a100, db, &w2, &ANALYTIC, &p, &e) == DLP_EINVAL && strstr(e.msg, "gpus 5") &&
          strstr(e.msg, "12 attention heads"));
    CHECK(dlp_llm_catalogue_get("gpt2", &c, &e) == DLP_OK);
    dlp_llm_workload w3 = {.batch = 1, .seq = 1000, .gen_tokens = 25, .quant = DLP_QT_FP16, .n_gpus = 1, .kv_dtype = 0};
    CHECK(dlp_llm_predict(&c, a100, db, &w3, &ANALYTIC, &p, &e) == DLP_EINVAL && strstr(e.msg, "gen 25") &&
          strstr(e.msg, "1025") && strstr(e.msg, "max_position_embeddings 1024"));
    w3.gen_tokens = 24; /* exactly the context: answered */
    CHECK(dlp_llm_predict(&c, a100, db, &w3, &ANALYTIC, &p, &e) == DLP_OK);
    /* Llama-3.1-8B (8 KV heads): tp 16 replicates them (vLLM), tp 3 cannot */
    CHECK(dlp_llm_catalogue_get("meta-llama/Llama-3.1-8B", &c, &e) == DLP_OK);
    dlp_llm_workload w4 = {.batch = 1, .seq = 128, .gen_tokens = 8, .quant = DLP_QT_BF16, .n_gpus = 16, .kv_dtype = 0};
    CHECK(dlp_llm_predict(&c, h100, db, &w4, &ANALYTIC, &p, &e) == DLP_OK);
    /* Llama-2-70B bf16 on one 40 GB A100: 128.5 GiB of weights */
    CHECK(dlp_llm_catalogue_get("llama-2-70b", &c, &e) == DLP_OK);
    dlp_llm_workload w5 = {.batch = 1, .seq = 128, .gen_tokens = 0, .quant = DLP_QT_BF16, .n_gpus = 1, .kv_dtype = 0};
    CHECK(dlp_llm_predict(&c, a100, db, &w5, &ANALYTIC, &p, &e) == DLP_EINVAL && strstr(e.msg, "does not fit") &&
          strstr(e.msg, "128.5") && strstr(e.msg, "40.0 GiB"));
    w5.n_gpus = 4; /* 32.1 GiB + 1 per GPU */
    CHECK(dlp_llm_predict(&c, a100, db, &w5, &ANALYTIC, &p, &e) == DLP_OK);
    w5.n_gpus = 1;
    w5.kv_dtype = DLP_DT_INT4;
    CHECK(dlp_llm_predict(&c, a100, db, &w5, &ANALYTIC, &p, &e) == DLP_EINVAL && strstr(e.msg, "kv dtype"));
    dlp_devdb_free(db);
}

/* Every catalogue model builds, fully shaped, and matches its published
 * parameter count where the catalogue has one. */
static void t_catalogue(void) {
    int n = dlp_llm_catalogue_count();
    CHECK(n >= 40);
    int with_ref = 0;
    for (int i = 0; i < n; i++) {
        dlp_llm_config c;
        dlp_error e = {0};
        const char *id = dlp_llm_catalogue_at(i);
        if (dlp_llm_catalogue_get(id, &c, &e)) {
            fprintf(stderr, "  %s: %s\n", id, e.msg);
            CHECK(0);
            continue;
        }
        CHECK_STR(c.id, id);
        dlp_graph *g;
        dlp_llm_weights w;
        if (dlp_llm_build(&c, 2, 64, DLP_QT_BF16, &g, &w, &e)) {
            fprintf(stderr, "  %s: %s\n", id, e.msg);
            CHECK(0);
            continue;
        }
        dlp_graph_stats gs;
        dlp_graph_stats_get(g, &gs);
        if (c.params_ref) {
            with_ref++;
            if (w.params != c.params_ref) fprintf(stderr, "  %s\n", id);
            CHECK_I64(w.params, c.params_ref);
        }
        CHECK_I64(gs.params, w.params);
        CHECK_I64(gs.n_unknown_ops, 0);
        CHECK_I64(gs.shapes_known, gs.node_outputs);
        CHECK(gs.macs > 0 && gs.peak_memory_bytes > gs.weight_bytes);
        dlp_graph_free(g);
    }
    CHECK(with_ref >= 40);
}

static void t_catalogue_lookup(void) {
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_catalogue_get("meta-llama/Llama-2-7b-hf", &c, &e) == DLP_OK);
    CHECK_STR(c.hf_id, "meta-llama/Llama-2-7b-hf");
    CHECK(dlp_llm_catalogue_get("LLAMA-2-7B", &c, &e) == DLP_OK);
    CHECK_I64(c.hidden_size, 4096);
    CHECK(dlp_llm_catalogue_get("deberta-v3-base", &c, &e) == DLP_OK);
    CHECK_STR(c.id, "microsoft/deberta-v3-base");
    CHECK(dlp_llm_catalogue_get("opt-1.3b", &c, &e) == DLP_OK);
    CHECK_I64(c.hidden_size, 2048);
    CHECK(dlp_llm_catalogue_get("facebook/opt-13b", &c, &e) == DLP_OK);
    CHECK_I64(c.hidden_size, 5120);
    CHECK(dlp_llm_catalogue_get("bert-base-uncasd", &c, &e) == DLP_ENOTFOUND);
    CHECK(strstr(e.msg, "bert-base-uncased") != NULL);
    CHECK(strchr(e.msg, '\n') == NULL);
}

/* Parse errors: one line naming the file and the field. */
static void t_config_errors(void) {
    static const struct { const char *json; dlp_status st; const char *field; } cases[] = {
        {"{\"model_type\":\"bert\",\"num_hidden_layers\":2,\"num_attention_heads\":2,\"intermediate_size\":8,"
         "\"vocab_size\":10}", DLP_EFORMAT, "hidden_size"},
        {"{\"model_type\":\"bert\",\"hidden_size\":8,\"num_hidden_layers\":2,\"num_attention_heads\":\"2\","
         "\"intermediate_size\":8,\"vocab_size\":10}", DLP_EFORMAT, "num_attention_heads"},
        {"{\"model_type\":\"llama\",\"hidden_size\":8,\"num_hidden_layers\":2,\"num_attention_heads\":2,"
         "\"vocab_size\":10}", DLP_EFORMAT, "intermediate_size"},
        {"{\"model_type\":\"t5\",\"d_model\":8}", DLP_EUNSUPPORTED, "model_type"},
        {"{\"hidden_size\":8}", DLP_EFORMAT, "model_type"},
        {"{\"model_type\":\"gpt2\",\"n_embd\":-8,\"n_layer\":2,\"n_head\":2,\"vocab_size\":10}", DLP_EFORMAT, "n_embd"},
        {"{\"model_type\":\"llama\",\"hidden_size\":8,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
         "\"num_key_value_heads\":3,\"intermediate_size\":8,\"vocab_size\":10}", DLP_EFORMAT, "num_key_value_heads"},
        {"{\"model_type\":\"llama\",\"hidden_size\":8,\"num_hidden_layers\":2,\"num_attention_heads\":2,"
         "\"intermediate_size\":8,\"vocab_size\":10,\"tie_word_embeddings\":1}", DLP_EFORMAT, "tie_word_embeddings"},
        {"{\"model_type\":\"gpt2\",\"n_embd\":8,\"n_layer\":2,\"n_head\":2,\"vocab_size\":10,"
         "\"activation_function\":\"mish\"}", DLP_EUNSUPPORTED, "hidden_act"},
        {"{\"model_type\": \"bert\", ", DLP_EFORMAT, "JSON"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dlp_llm_config c;
        dlp_error e = {0};
        dlp_status st = dlp_llm_config_parse(cases[i].json, "cfg.json", &c, &e);
        if (st != cases[i].st) fprintf(stderr, "  case %zu: %d %s\n", i, st, e.msg);
        CHECK_I64(st, cases[i].st);
        CHECK(strncmp(e.msg, "cfg.json: ", 10) == 0);
        CHECK(strstr(e.msg, cases[i].field) != NULL);
        CHECK(strchr(e.msg, '\n') == NULL);
    }
    /* a file that does not exist: DLP_EIO naming it */
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_config_load("/nonexistent/config.json", &c, &e) == DLP_EIO);
    CHECK(strstr(e.msg, "/nonexistent/config.json") != NULL);
}

static void t_config_file_and_limits(void) {
    char dir[] = "/tmp/dlp_llm_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char sub[128], path[160];
    snprintf(sub, sizeof sub, "%s/my-model", dir);
    CHECK(mkdir(sub, 0700) == 0);
    snprintf(path, sizeof path, "%s/config.json", sub);
    FILE *f = fopen(path, "w");
    fputs(tiny_llama(0), f);
    fclose(f);
    dlp_llm_config c;
    dlp_error e = {0};
    CHECK(dlp_llm_config_load(path, &c, &e) == DLP_OK);
    CHECK_STR(c.id, "my-model");
    unlink(path);
    rmdir(sub);
    rmdir(dir);
    /* learned positions bound seq */
    CHECK(dlp_llm_catalogue_get("bert-base-uncased", &c, &e) == DLP_OK);
    dlp_graph *g = NULL;
    CHECK(dlp_llm_build(&c, 1, 513, DLP_QT_FP32, &g, NULL, &e) == DLP_EINVAL);
    CHECK(g == NULL);
    CHECK(strstr(e.msg, "max_position_embeddings") != NULL);
    CHECK(dlp_llm_build(&c, 1, 512, DLP_QT_FP32, &g, NULL, &e) == DLP_OK);
    dlp_graph_free(g);
    CHECK(dlp_llm_build(&c, 0, 8, DLP_QT_FP32, &g, NULL, &e) == DLP_EINVAL);
}

static void t_quant_names(void) {
    CHECK_I64(dlp_quant_parse("fp16"), DLP_QT_FP16);
    CHECK_I64(dlp_quant_parse("BF16"), DLP_QT_BF16);
    CHECK_I64(dlp_quant_parse("nf4"), DLP_QT_NF4);
    CHECK_I64(dlp_quant_parse("4bit"), DLP_QT_NF4);
    CHECK_I64(dlp_quant_parse("int4"), DLP_QT_INT4);
    CHECK_I64(dlp_quant_parse("AWQ"), DLP_QT_INT4);
    CHECK_I64(dlp_quant_parse("fp8"), DLP_QT_FP8);
    CHECK_I64(dlp_quant_parse("fp4"), DLP_QT_MXFP4);
    CHECK_I64(dlp_quant_parse("nvfp4"), DLP_QT_NVFP4);
    CHECK_I64(dlp_quant_parse("int3"), -1);
    CHECK_STR(dlp_quant_name(DLP_QT_MXFP4), "mxfp4");
    CHECK_I64(dlp_quant_act_dtype(DLP_QT_FP8), DLP_DT_BFLOAT16);
    CHECK_STR(dlp_quant_name(DLP_QT_INT8), "int8");
    CHECK_I64(dlp_quant_act_dtype(DLP_QT_NF4), DLP_DT_FLOAT16);
    CHECK_I64(dlp_quant_act_dtype(DLP_QT_BF16), DLP_DT_BFLOAT16);
}

/* Every catalogue model on every device of the built-in database answers
 * with finite positive numbers (the CLI test times a sample of these). */
static void t_every_model_every_device(void) {
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load(NULL, &db, &e) == DLP_OK);
    if (!db) return;
    int n = 0, bad = 0, refused = 0;
    for (int i = 0; i < dlp_llm_catalogue_count(); i++) {
        dlp_llm_config c;
        if (dlp_llm_catalogue_get(dlp_llm_catalogue_at(i), &c, &e)) {
            bad++;
            continue;
        }
        for (int k = 0; k < dlp_devdb_count(db); k++) {
            const dlp_device *d = dlp_devdb_at(db, k);
            dlp_llm_workload wl = {.batch = 4, .seq = 128, .gen_tokens = 0, .quant = (i + k) % DLP_QT_COUNT_, .n_gpus = 1, .kv_dtype = 0};
            dlp_llm_prediction p;
            if (d->kind != DLP_DEVICE_GPU) {
                /* a CPU is refused with a message, never answered */
                CHECK(dlp_llm_predict(&c, d, db, &wl, NULL, &p, &e) == DLP_EINVAL && strstr(e.msg, "GPUs only"));
                continue;
            }
            n++;
            dlp_status st = dlp_llm_predict(&c, d, db, &wl, NULL, &p, &e);
            /* refused with the reason (docs/llm.md, "Refusals"): too large
             * for the device even at batch 1, or an fp4 format on a GPU
             * with neither FP4 nor FP8 tensor cores */
            if (st == DLP_EINVAL && (strstr(e.msg, "does not fit") ||
                                     ((wl.quant == DLP_QT_MXFP4 || wl.quant == DLP_QT_NVFP4) &&
                                      !dlp_device_supports_dtype(d, DLP_DT_FLOAT8E4M3FN) && strstr(e.msg, "no FP4")))) {
                refused++;
                continue;
            }
            if (st) {
                fprintf(stderr, "  %s on %s: %s\n", c.id, d->id, e.msg);
                bad++;
                continue;
            }
            int good = p.throughput_sps > 0 && isfinite(p.throughput_sps) && p.tokens_per_s > 0 &&
                       p.memory_mb > 0 && isfinite(p.memory_mb) && p.energy_j > 0 && isfinite(p.energy_j) &&
                       p.co2_g > 0 && p.power_w > 0 && p.power_w <= 1.01 * d->tdp_w &&
                       p.fits == (p.memory_mb <= d->memory_gib * 1024.0) && p.method[0];
            if (!good) {
                fprintf(stderr, "  %s on %s: thr %g mem %g energy %g power %g\n", c.id, d->id, p.throughput_sps,
                        p.memory_mb, p.energy_j, p.power_w);
                bad++;
            }
        }
    }
    CHECK(n - refused >= 40 * 20);
    CHECK_I64(bad, 0);
    dlp_devdb_free(db);
}

/* Memory: weights by the rule + peak activations; int8/nf4 shrink weights
 * only; carbon = energy x PUE x intensity; unknown region -> ENOTFOUND. */
static void t_predict_memory_carbon(void) {
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load(NULL, &db, &e) == DLP_OK);
    const dlp_device *d = dlp_devdb_find(db, "a100-40gb");
    dlp_llm_config c;
    CHECK(dlp_llm_catalogue_get("llama-2-7b", &c, &e) == DLP_OK);
    dlp_llm_prediction p[DLP_QT_COUNT_];
    for (int q = 0; q < DLP_QT_COUNT_; q++) {
        dlp_llm_workload wl = {.batch = 1, .seq = 256, .gen_tokens = 0, .quant = q, .n_gpus = 1, .kv_dtype = 0};
        if (q == DLP_QT_MXFP4 || q == DLP_QT_NVFP4) { /* no FP4/FP8 on an A100 */
            CHECK(dlp_llm_predict(&c, d, db, &wl, &(dlp_llm_predict_opts){"fr", 1}, &p[q], &e) == DLP_EINVAL);
            continue;
        }
        CHECK(dlp_llm_predict(&c, d, db, &wl, &(dlp_llm_predict_opts){"fr", 1}, &p[q], &e) == DLP_OK);
        CHECK_STR(p[q].method, "analytic");
    }
    /* 6.74e9 parameters: fp16 ~12852 MiB of weights; nf4 ~3.3 GiB + 16-bit embeddings */
    CHECK_NEAR(p[DLP_QT_FP16].weights_mb, 2.0 * 6738415616.0 / 1048576.0, 1e-6);
    CHECK_NEAR(p[DLP_QT_FP32].weights_mb, 2 * p[DLP_QT_FP16].weights_mb, 1e-6);
    CHECK(p[DLP_QT_NF4].weights_mb < 0.3 * p[DLP_QT_FP16].weights_mb);
    CHECK(p[DLP_QT_INT8].weights_mb < 0.55 * p[DLP_QT_FP16].weights_mb);
    /* fp8 (1 + 4/16384 B) just under int8 (1 + 4/in B); int4 (4.156 bits)
     * just over nf4 (4.127 bits) */
    CHECK(p[DLP_QT_FP8].weights_mb < p[DLP_QT_INT8].weights_mb);
    CHECK(p[DLP_QT_INT4].weights_mb > p[DLP_QT_NF4].weights_mb && p[DLP_QT_INT4].weights_mb < 1.01 * p[DLP_QT_NF4].weights_mb);
    CHECK_NEAR(p[DLP_QT_NF4].activations_mb, p[DLP_QT_FP16].activations_mb, 1e-9);
    CHECK(!p[DLP_QT_FP32].fits || p[DLP_QT_FP32].memory_mb <= 40 * 1024);
    CHECK_NEAR(p[DLP_QT_FP16].co2_g, p[DLP_QT_FP16].energy_j * p[DLP_QT_FP16].pue * 56.0 / 3.6e6, 1e-15);
    CHECK_NEAR(p[DLP_QT_FP16].carbon_g_per_kwh, 56.0, 0);
    dlp_llm_workload wl = {.batch = 1, .seq = 256, .gen_tokens = 0, .quant = DLP_QT_FP16, .n_gpus = 1, .kv_dtype = 0};
    CHECK(dlp_llm_predict(&c, d, db, &wl, &(dlp_llm_predict_opts){"mars", 0}, &p[0], &e) == DLP_ENOTFOUND);
    CHECK(strstr(e.msg, "mars") != NULL);
    /* generation adds the KV cache: 2 x layers x kv x head_dim x tokens x 2 B */
    dlp_llm_prediction g;
    dlp_llm_workload wg = {.batch = 4, .seq = 256, .gen_tokens = 256, .quant = DLP_QT_FP16, .n_gpus = 1, .kv_dtype = 0};
    CHECK(dlp_llm_predict(&c, d, db, &wg, &ANALYTIC, &g, &e) == DLP_OK);
    dlp_llm_workload wf = {.batch = 4, .seq = 256, .gen_tokens = 0, .quant = DLP_QT_FP16, .n_gpus = 1, .kv_dtype = 0};
    dlp_llm_prediction f;
    CHECK(dlp_llm_predict(&c, d, db, &wf, &ANALYTIC, &f, &e) == DLP_OK);
    CHECK_NEAR(g.activations_mb - f.activations_mb, 2.0 * 32 * 4096 * 512 * 4 * 2 / 1048576.0, 1e-6);
    CHECK(g.latency_ms > f.latency_ms);
    dlp_devdb_free(db);
}

/* Features: table 6.3 names, model values from the config and graph,
 * hardware values from the device. */
static void t_features(void) {
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load(NULL, &db, &e) == DLP_OK);
    const dlp_device *d = dlp_devdb_find(db, "h100-sxm");
    dlp_llm_config c;
    CHECK(dlp_llm_catalogue_get("bert-base-uncased", &c, &e) == DLP_OK);
    dlp_graph *g;
    dlp_llm_weights w;
    CHECK(dlp_llm_build(&c, 64, 128, DLP_QT_FP16, &g, &w, &e) == DLP_OK);
    double f[DLP_LF_COUNT];
    dlp_llm_workload wl = {.batch = 64, .seq = 128, .gen_tokens = 0, .quant = DLP_QT_FP16, .n_gpus = 1, .kv_dtype = 0};
    dlp_llm_features(&c, g, &w, &wl, d, f);
    dlp_graph_stats gs;
    dlp_graph_stats_get(g, &gs);
    CHECK_NEAR(f[DLP_LF_BS], 64, 0);
    CHECK_NEAR(f[DLP_LF_SL], 128, 0);
    CHECK_NEAR(f[DLP_LF_TN], (double)gs.nodes, 0);
    CHECK_NEAR(f[DLP_LF_TE], (double)gs.edges, 0);
    CHECK_NEAR(f[DLP_LF_TM], (double)gs.macs, 0);
    CHECK_NEAR(f[DLP_LF_TP], 109482240, 0);
    CHECK_NEAR(f[DLP_LF_TMMEM], 2.0 * 109482240 + (double)gs.peak_activation_bytes, 0);
    CHECK_NEAR(f[DLP_LF_HS], 768, 0);
    CHECK_NEAR(f[DLP_LF_NHL], 12, 0);
    CHECK_NEAR(f[DLP_LF_NAH], 12, 0);
    CHECK_NEAR(f[DLP_LF_VS], 30522, 0);
    CHECK_NEAR(f[DLP_LF_TVS], 2, 0);
    CHECK_NEAR(f[DLP_LF_MPE], 512, 0);
    CHECK_NEAR(f[DLP_LF_PF32], d->peak_fp32_gflops, 0);
    CHECK_NEAR(f[DLP_LF_PBHBM], d->mem_bandwidth_gbs, 0);
    CHECK_NEAR(f[DLP_LF_SMS], d->sm_count, 0);
    CHECK_NEAR(f[DLP_LF_CM], 9, 0);
    CHECK_NEAR(f[DLP_LF_PTC], d->fp16_tensor_tflops, 1e-9);
    CHECK(f[DLP_LF_AT] > 0);
    double lat, pw;
    dlp_llm_analytic(&c, g, &w, &wl, d, &lat, &pw);
    CHECK_NEAR(lat, f[DLP_LF_AT], 0);
    CHECK(pw > d->idle_w && pw <= d->tdp_w);
    CHECK_STR(dlp_llm_feature_name(DLP_LF_TMMEM), "TMmem");
    CHECK_I64(dlp_llm_feature_index("PBHBM"), DLP_LF_PBHBM);
    CHECK(dlp_llm_feature_is_hw(DLP_LF_SMS) && !dlp_llm_feature_is_hw(DLP_LF_TP));
    for (int k = 0; k < DLP_LF_COUNT; k++) CHECK(dlp_llm_feature_name(k) != NULL);
    dlp_graph_free(g);
    dlp_devdb_free(db);
}

/* The shipped models: present, described, predicting where they cover and
 * only there, and equal to XGBoost's own prediction. */
static void t_shipped_models(void) {
    int n = dlp_llm_model_count();
    CHECK(n >= 3);
    for (int i = 0; i < n; i++) {
        const dlp_xgb *m = dlp_llm_model_at(i);
        CHECK(m != NULL);
        if (!m) continue;
        CHECK(dlp_xgb_get_meta(m, "name") && dlp_xgb_get_meta(m, "predicts") && dlp_xgb_get_meta(m, "devices") &&
              dlp_xgb_get_meta(m, "quants") && dlp_xgb_get_meta(m, "workload"));
        for (int j = 0; j < dlp_xgb_feature_count(m); j++) {
            const char *fn = dlp_xgb_feature_at(m, j);
            CHECK(dlp_llm_feature_index(fn) >= 0); /* no evaluation-only column shipped */
        }
        /* exact agreement with libxgboost on a few feature vectors */
        dlp_xgb *mm = NULL;
        void *buf;
        size_t len;
        dlp_error e = {0};
        CHECK(dlp_xgb_save_mem(m, &buf, &len, &e) == DLP_OK);
        CHECK(dlp_xgb_load_mem(buf, len, "copy", &mm, &e) == DLP_OK);
        free(buf);
        if (mm) {
            int nf = dlp_xgb_feature_count(mm);
            float x[4 * 64];
            for (int r = 0; r < 4; r++)
                for (int j = 0; j < nf && j < 64; j++) x[r * nf + j] = (float)((r + 1) * (j + 3) % 17) * 100.0f;
            double a[4], b[4];
            CHECK(dlp_xgb_predict(mm, x, 4, a, &e) == DLP_OK);
            CHECK(dlp__xgb_predict_xgboost(mm, x, 4, b, &e) == DLP_OK);
            for (int r = 0; r < 4; r++) CHECK(a[r] == b[r]);
            dlp_xgb_free(mm);
        }
    }
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load(NULL, &db, &e) == DLP_OK);
    dlp_llm_config bert, llama;
    CHECK(dlp_llm_catalogue_get("bert-large-uncased", &bert, &e) == DLP_OK);
    CHECK(dlp_llm_catalogue_get("llama-2-7b", &llama, &e) == DLP_OK);
    dlp_llm_prediction p;
    /* fp32 forward pass on a NeuSight GPU: the latency model */
    dlp_llm_workload fw32 = {.batch = 8, .seq = 512, .gen_tokens = 0, .quant = DLP_QT_FP32, .n_gpus = 1, .kv_dtype = 0};
    CHECK(dlp_llm_predict(&bert, dlp_devdb_find(db, "t4"), db, &fw32, NULL, &p, &e) == DLP_OK);
    CHECK_STR(p.method, "xgb:neusight-latency-fp32-v1");
    CHECK_STR(p.method_energy, "analytic power x learned latency");
    /* NeuSight measured 694 ms for this (training data): within 10 % */
    CHECK(fabs(p.latency_ms - 694.46) / 694.46 < 0.10);
    /* --analytic forces the fallback */
    CHECK(dlp_llm_predict(&bert, dlp_devdb_find(db, "t4"), db, &fw32, &ANALYTIC, &p, &e) == DLP_OK);
    CHECK_STR(p.method, "analytic");
    /* fp16 forward on H100: no data, analytic */
    dlp_llm_workload fw16 = {.batch = 64, .seq = 128, .gen_tokens = 0, .quant = DLP_QT_FP16, .n_gpus = 1, .kv_dtype = 0};
    CHECK(dlp_llm_predict(&bert, dlp_devdb_find(db, "h100-sxm"), db, &fw16, NULL, &p, &e) == DLP_OK);
    CHECK_STR(p.method, "analytic");
    CHECK_STR(p.method_energy, "analytic");
    /* generation on A100: throughput and energy models */
    dlp_llm_workload gen = {.batch = 16, .seq = 512, .gen_tokens = 512, .quant = DLP_QT_FP16, .n_gpus = 1, .kv_dtype = 0};
    CHECK(dlp_llm_predict(&llama, dlp_devdb_find(db, "a100-40gb"), db, &gen, NULL, &p, &e) == DLP_OK);
    CHECK_STR(p.method_throughput, "xgb:infbench-vllm-throughput-v1");
    CHECK_STR(p.method_energy, "xgb:mlenergy-energy-v1");
    /* LLM-Inference-Bench: vLLM, 1 A100, batch 16, 512 + 512 tokens: 1636 tokens/s */
    CHECK(fabs(p.tokens_per_s - 1636.0) / 1636.0 < 0.10);
    /* nf4 generation: no model covers the dtype */
    gen.quant = DLP_QT_NF4;
    CHECK(dlp_llm_predict(&llama, dlp_devdb_find(db, "a100-40gb"), db, &gen, NULL, &p, &e) == DLP_OK);
    CHECK_STR(p.method, "analytic");
    dlp_devdb_free(db);
}

/* ---- XGBoost wrapper ---------------------------------------------------- */

/* Synthetic data with a known function: y = 10 + 3 x0 + x1^2 (+ an
 * irrelevant x2), x in [0, 4). */
static void synth(int n, uint64_t seed, float *x, float *y) {
    uint64_t s = seed;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < 3; j++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            x[i * 3 + j] = (float)((s >> 11) % 4000) / 1000.0f;
        }
        y[i] = 10.0f + 3.0f * x[i * 3] + x[i * 3 + 1] * x[i * 3 + 1];
    }
}

static const char *const fnames[3] = {"x0", "x1", "x2"};

static void t_xgb_roundtrip(void) {
    enum { N = 800, NT = 200 };
    static float x[N * 3], y[N], xt[NT * 3], yt[NT];
    synth(N, 1, x, y);
    synth(NT, 99, xt, yt);
    /* (300 trees, depth 4): walked as perfect trees; (60, depth 12): deeper
     * than the perfect layout takes, walked by pointer */
    for (int run = 0; run < 4; run++) {
        int lg = run & 1;
        dlp_xgb_params p = {0};
        p.n_estimators = run < 2 ? 300 : 60;
        p.max_depth = run < 2 ? 4 : 12;
        p.log_target = lg;
        dlp_xgb *m = NULL;
        dlp_error e = {0};
        CHECK(dlp_xgb_train(x, y, N, 3, fnames, "y", &p, &m, &e) == DLP_OK);
        if (!m) {
            fprintf(stderr, "  %s\n", e.msg);
            return;
        }
        double pred[NT], pred2[NT];
        CHECK(dlp_xgb_predict(m, xt, NT, pred, &e) == DLP_OK);
        if (e.msg[0]) fprintf(stderr, "  %s\n", e.msg);
        double se = 0;
        for (int i = 0; i < NT; i++) se += (pred[i] - yt[i]) * (pred[i] - yt[i]);
        double rmse = sqrt(se / NT); /* y spans 10 .. 38 */
        fprintf(stderr, "  depth %d log %d: test RMSE %.3f\n", p.max_depth, lg, rmse);
        CHECK(rmse < 0.8);
        CHECK(dlp_xgb_set_meta(m, "name", "synthetic") == DLP_OK);
        CHECK(dlp_xgb_set_meta(m, "devices", "a100-40gb,h100-sxm") == DLP_OK);
        char path[] = "/tmp/dlp_xgb_XXXXXX";
        int fd = mkstemp(path);
        CHECK(fd >= 0);
        close(fd);
        CHECK(dlp_xgb_save(m, path, &e) == DLP_OK);
        dlp_xgb *m2 = NULL;
        CHECK(dlp_xgb_load(path, &m2, &e) == DLP_OK);
        if (m2) {
            CHECK(dlp_xgb_predict(m2, xt, NT, pred2, &e) == DLP_OK);
            int same = 1;
            for (int i = 0; i < NT; i++) same &= pred[i] == pred2[i];
            CHECK(same);
            CHECK_I64(dlp_xgb_feature_count(m2), 3);
            CHECK_STR(dlp_xgb_feature_at(m2, 2), "x2");
            CHECK_STR(dlp_xgb_target(m2), "y");
            CHECK_I64(dlp_xgb_log_target(m2), lg);
            CHECK_STR(dlp_xgb_get_meta(m2, "devices"), "a100-40gb,h100-sxm");
            CHECK(dlp_xgb_get_meta(m2, "nope") == NULL);
            CHECK(dlp_xgb_fingerprint(m2) == dlp_xgb_fingerprint(m) && dlp_xgb_fingerprint(m) != 0);
            /* the flattened trees predict exactly what XGBoost predicts,
             * missing values (NaN) included */
            double ref[NT];
            for (int i = 0; i < NT; i += 7) xt[i * 3 + (i % 3)] = NAN;
            CHECK(dlp_xgb_predict(m2, xt, NT, pred2, &e) == DLP_OK);
            CHECK(dlp__xgb_predict_xgboost(m2, xt, NT, ref, &e) == DLP_OK);
            int exact = 1;
            for (int i = 0; i < NT; i++) exact &= pred2[i] == ref[i];
            if (!exact) fprintf(stderr, "  native %.9g xgboost %.9g\n", pred2[0], ref[0]);
            CHECK(exact);
            synth(NT, 99, xt, yt);
        }
        dlp_xgb_free(m2);
        dlp_xgb_free(m);
        unlink(path);
    }
    /* a log target must be positive */
    dlp_xgb *m = NULL;
    dlp_error e = {0};
    float yneg[4] = {1, 2, -1, 3}, x4[4] = {0, 1, 2, 3};
    dlp_xgb_params p = {0};
    p.log_target = 1;
    CHECK(dlp_xgb_train(x4, yneg, 4, 1, NULL, "y", &p, &m, &e) == DLP_EINVAL);
    CHECK(m == NULL);
}

/* Flipped bytes, truncation, another version, another magic. */
/* Files of the layout before the one container (a 28-byte fixed part:
 * magic, version, u32 header bytes, u64 booster bytes, u64 tree-table
 * bytes; header, booster, tree table, CRC-32) are still read, with the
 * same predictions.  Built here by hand from a container image. */
static void t_xgb_legacy_layout(void) {
    enum { N = 100 };
    static float x[N * 3], y[N];
    synth(N, 7, x, y);
    dlp_xgb_params p = {0};
    p.n_estimators = 10;
    dlp_xgb *m = NULL, *m2 = NULL;
    dlp_error e = {0};
    CHECK(dlp_xgb_train(x, y, N, 3, fnames, "y", &p, &m, &e) == DLP_OK);
    void *buf;
    size_t len;
    CHECK(dlp_xgb_save_mem(m, &buf, &len, &e) == DLP_OK);
    const uint8_t *b = buf;
    uint32_t h;
    uint64_t pl;
    memcpy(&h, b + 8, 4);
    memcpy(&pl, b + 12, 8);
    CHECK(20 + h + pl + 4 == len);
    /* the booster's size from the header's "booster_bytes" */
    char *hdr = strndup((const char *)b + 20, h);
    const char *bb = strstr(hdr, "\"booster_bytes\":");
    CHECK(bb != NULL);
    uint64_t nb = bb ? strtoull(bb + 16, NULL, 10) : 0, nt = pl - nb;
    size_t L = 28 + h + pl + 4;
    uint8_t *o = malloc(L);
    memcpy(o, "DLPM", 4);
    uint32_t one = 1;
    memcpy(o + 4, &one, 4);
    memcpy(o + 8, &h, 4);
    memcpy(o + 12, &nb, 8);
    memcpy(o + 20, &nt, 8);
    memcpy(o + 28, b + 20, h + pl);
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < L - 4; i++) {
        crc ^= o[i];
        for (int j = 0; j < 8; j++) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
    }
    crc ^= 0xffffffffu;
    memcpy(o + L - 4, &crc, 4);
    CHECK(dlp_xgb_load_mem(o, L, "old.dlpm", &m2, &e) == DLP_OK);
    double a[N], c[N];
    CHECK(dlp_xgb_predict(m, x, N, a, &e) == DLP_OK);
    CHECK(m2 && dlp_xgb_predict(m2, x, N, c, &e) == DLP_OK);
    CHECK(memcmp(a, c, sizeof a) == 0);   /* one code path: the same trees walked */
    /* a legacy file cut short is refused, not misread as a container */
    dlp_xgb *m3 = NULL;
    CHECK(dlp_xgb_load_mem(o, L - 50, "oldcut.dlpm", &m3, &e) != DLP_OK && m3 == NULL);
    dlp_xgb_free(m);
    dlp_xgb_free(m2);
    free(o);
    free(hdr);
    free(buf);
}

static void t_xgb_corruption(void) {
    enum { N = 200 };
    static float x[N * 3], y[N];
    synth(N, 5, x, y);
    dlp_xgb_params p = {0};
    p.n_estimators = 20;
    dlp_xgb *m = NULL;
    dlp_error e = {0};
    CHECK(dlp_xgb_train(x, y, N, 3, fnames, "y", &p, &m, &e) == DLP_OK);
    void *buf;
    size_t len;
    CHECK(dlp_xgb_save_mem(m, &buf, &len, &e) == DLP_OK);
    uint8_t *b = buf;
    dlp_xgb *m2 = NULL;
    CHECK(dlp_xgb_load_mem(b, len, "ok.dlpm", &m2, &e) == DLP_OK);
    dlp_xgb_free(m2);
    size_t at[3] = {len / 2, 30, len - 10};
    for (int k = 0; k < 3; k++) {
        b[at[k]] ^= 0x40;
        CHECK_I64(dlp_xgb_load_mem(b, len, "bad.dlpm", &m2, &e), DLP_ECHECKSUM);
        CHECK(m2 == NULL);
        CHECK(strstr(e.msg, "bad.dlpm") != NULL);
        b[at[k]] ^= 0x40;
    }
    /* the one container's rule (dlpm/container.h): a cut file is a format
     * error that says so, before any checksum is computed */
    CHECK_I64(dlp_xgb_load_mem(b, len - 100, "cut.dlpm", &m2, &e), DLP_EFORMAT);
    CHECK(strstr(e.msg, "cut.dlpm: truncated") != NULL);
    CHECK_I64(dlp_xgb_load_mem(b, 10, "cut.dlpm", &m2, &e), DLP_EFORMAT);
    /* a valid file of version 2: EVERSION */
    b[4] = 2;
    uint32_t crc = 0;
    {
        /* recompute the CRC the way the writer does (CRC-32 IEEE) */
        crc = 0xffffffffu;
        for (size_t i = 0; i < len - 4; i++) {
            crc ^= b[i];
            for (int j = 0; j < 8; j++) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
        }
        crc ^= 0xffffffffu;
        for (int i = 0; i < 4; i++) b[len - 4 + i] = (uint8_t)(crc >> (8 * i));
    }
    CHECK_I64(dlp_xgb_load_mem(b, len, "v2.dlpm", &m2, &e), DLP_EVERSION);
    b[0] = 'X';
    CHECK_I64(dlp_xgb_load_mem(b, len, "x.dlpm", &m2, &e), DLP_EFORMAT);
    free(buf);
    /* on disk too */
    char path[] = "/tmp/dlp_xgb_XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    CHECK(dlp_xgb_save(m, path, &e) == DLP_OK);
    FILE *f = fopen(path, "r+b");
    fseek(f, 40, SEEK_SET);
    fputc('#', f);
    fclose(f);
    CHECK_I64(dlp_xgb_load(path, &m2, &e), DLP_ECHECKSUM);
    unlink(path);
    dlp_xgb_free(m);
}

static void t_xgb_cv(void) {
    enum { N = 500 };
    static float x[N * 3], y[N];
    static double oof[N], yd[N];
    static int grp[N];
    synth(N, 7, x, y);
    dlp_xgb_params p = {0};
    p.n_estimators = 200;
    p.max_depth = 4;
    p.log_target = 1;
    dlp_error e = {0};
    CHECK(dlp_xgb_cv(x, y, N, 3, &p, 5, 42, NULL, oof, &e) == DLP_OK);
    for (int i = 0; i < N; i++) yd[i] = y[i];
    dlp_metrics mt;
    dlp_metrics_compute(yd, oof, N, &mt);
    fprintf(stderr, "  5-fold: MAPE %.2f%% RMSE %.3f tau %.3f\n", mt.mape, mt.rmse, mt.tau);
    CHECK_I64(mt.n, N);
    CHECK(mt.mape < 3.0 && mt.tau > 0.9);
    /* leave-one-group-out: groups by x2 (irrelevant) quartile, group 3 kept
     * in training always (-1) */
    for (int i = 0; i < N; i++) grp[i] = x[i * 3 + 2] < 3.0f ? (int)x[i * 3 + 2] : -1;
    CHECK(dlp_xgb_cv(x, y, N, 3, &p, 0, 42, grp, oof, &e) == DLP_OK);
    int nan_ok = 1;
    for (int i = 0; i < N; i++) nan_ok &= (grp[i] < 0) == (isnan(oof[i]) != 0);
    CHECK(nan_ok);
    dlp_metrics_compute(yd, oof, N, &mt);
    CHECK(mt.n > N / 2 && mt.mape < 3.0);
}

static void t_metrics(void) {
    double y[4] = {1, 2, 3, 4}, p[4] = {1.1, 1.8, 3.3, 4};
    dlp_metrics m;
    dlp_metrics_compute(y, p, 4, &m);
    CHECK_NEAR(m.mape, 7.5, 1e-9);
    CHECK_NEAR(m.rmse, sqrt(0.14 / 4), 1e-12);
    CHECK_NEAR(m.tau, 1.0, 1e-12);
    double q[4] = {2, 1, 3, 4}; /* one discordant pair of six */
    dlp_metrics_compute(y, q, 4, &m);
    CHECK_NEAR(m.tau, (5.0 - 1.0) / 6.0, 1e-12);
    double z[3] = {0, 1, NAN}, r[3] = {5, 1, 1};
    dlp_metrics_compute(z, r, 3, &m); /* y = 0 and NaN are skipped */
    CHECK_I64(m.n, 1);
}

int main(void) {
    RUN(t_golden_onnx);
    RUN(t_gqa_tied_by_hand);
    RUN(t_quant_bytes_by_hand);
    RUN(t_precisions_by_hand);
    RUN(t_refusals);
    RUN(t_catalogue);
    RUN(t_catalogue_lookup);
    RUN(t_config_errors);
    RUN(t_config_file_and_limits);
    RUN(t_quant_names);
    RUN(t_features);
    RUN(t_predict_memory_carbon);
    RUN(t_every_model_every_device);
    RUN(t_xgb_roundtrip);
    RUN(t_xgb_corruption);
    RUN(t_xgb_legacy_layout);
    RUN(t_xgb_cv);
    RUN(t_metrics);
    RUN(t_shipped_models);
    return TAP_DONE();
}
