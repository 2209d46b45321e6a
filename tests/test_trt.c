/*
 * test_trt.c — the TensorRT profile (docs/predict.md, "TensorRT") and the
 * MLPerf BERT work model of bench/mlperf_bert.c:
 *   - under `--runtime tensorrt` the tensor-core GEMMs, batched matmuls and
 *     fused attention take the TensorRT-LLM-fitted curves and every other
 *     kernel stays on the pure roofline; `--pure` after the preset puts
 *     them all back on it;
 *   - ResNet-50's convolutions stay on the pure roofline (no conv data);
 *   - squad_shape() turns Graphcore's SQuAD v1.1 histogram into the graph
 *     with the same GEMM tokens and attention work as MLPerf's unpadded
 *     batches (hand-worked below).
 * Public API plus the bench file; shipped models only (no ../shared).
 */
#include <dlperf.h>
#include <string.h>

#include "tap.h"

#define MLPERF_BERT_NO_MAIN
#include "../bench/mlperf_bert.c"

static dlp_devdb *DB;

/* one device entry of a test database (t_l2_residency) */
#define L2DEV(id, l2mb, extra) \
    "{\"id\": \"" id "\", \"name\": \"" id "\", \"vendor\": \"nvidia\", \"arch\": \"ada\", \"chip\": \"AD104\"," \
    " \"form_factor\": \"PCIe\", \"aliases\": [], \"compute_capability\": \"8.9\", \"sm_count\": 58," \
    " \"fp32_cores_per_sm\": 128, \"boost_clock_mhz\": 2040, \"peak_fp32_gflops\": 30300, \"peak_fp64_gflops\": 473," \
    " \"peak_fp16_gflops\": 30300, \"fp16_tensor_tflops\": 121, \"bf16_tensor_tflops\": 121, \"tf32_tensor_tflops\": 60," \
    " \"fp8_tensor_tflops\": 242, \"fp4_tensor_tflops\": null, \"int8_tensor_tops\": 242, \"fp64_tensor_tflops\": null," \
    " \"fp32_matrix_tflops\": null, \"memory_gib\": 24, \"memory_type\": \"GDDR6\", \"mem_bandwidth_gbs\": 500," \
    " \"l2_cache_mb\": " #l2mb ", " extra " \"l1_cache_kb_per_sm\": 128, \"shared_mem_kb_per_sm\": 100," \
    " \"shared_mem_kb_per_block\": 99, \"max_threads_per_sm\": 1536, \"max_threads_per_block\": 1024," \
    " \"registers_per_sm\": 65536, \"registers_per_block\": 65536, \"warp_size\": 32, \"tdp_w\": 1000," \
    " \"idle_w\": 16, \"interface\": \"PCIe\", \"mig\": null, \"price\": null, \"sources\": [\"me\"]}"

static dlp_graph *load(const char *path, int64_t batch, int64_t seq) {
    static const char *const names[] = {"height", "width"};
    static const int64_t vals[] = {224, 224};
    dlp_load_opts lo = {.batch = batch, .seq = seq};
    if (!seq) lo.n_dims = 2, lo.dim_names = names, lo.dim_values = vals;
    dlp_graph *g = NULL;
    dlp_error e = {0};
    if (dlp_graph_load(path, &lo, &g, &e)) fprintf(stderr, "  load %s: %s\n", path, e.msg);
    return g;
}

static int predict(const dlp_graph *g, const char *dev, dlp_predict_opts *o, dlp_prediction *p) {
    dlp_error e = {0};
    const dlp_device *d = dlp_devdb_find(DB, dev);
    if (!d || dlp_predict(g, d, DB, o, p, &e)) {
        fprintf(stderr, "  predict %s: %s\n", dev, d ? e.msg : "no device");
        return 1;
    }
    return 0;
}

static int curve_class(int kc) { return kc == DLP_KC_GEMM || kc == DLP_KC_BMM || kc == DLP_KC_ATTN; }

/* BERT (examples/bert.onnx, batch 8, seq 128), int8 TensorRT on an H100
 * SXM: GEMM-class rows carry an aiconfigurator curve (ratio >= 1, at least
 * one > 1: a GEMM never reaches the tensor peak); every other row is on
 * the pure roofline, its time max(FLOPs / peak, bytes / 3350 GB/s
 * (devices.json), 5 us floor) -- the pass stays under 700 W, so no DVFS
 * stretch.  With --pure after the preset every row is on the pure
 * roofline and the pass is faster. */
static void t_trt_gemm_curves(void) {
    dlp_graph *g = load("examples/bert.onnx", 8, 128);
    CHECK(g);
    if (!g) return;
    dlp_predict_opts o = {.no_learned = 1, .dtype = DLP_DT_INT8};
    dlp_predict_use_runtime(&o, DLP_RUNTIME_TENSORRT);
    dlp_prediction p, q;
    CHECK(!predict(g, "h100-sxm", &o, &p));
    CHECK_NEAR(p.clock_share, 1, 1e-12);   /* under 700 W: no DVFS stretch */
    int gemm_rows = 0, above = 0, bad = 0;
    for (int i = 0; i < p.n_kernel_rows; i++) {
        const dlp_kernel_pred *r = &p.kernel_rows[i];
        double roof_ms = 1e3 * fmax(r->flops / r->peak_flops, r->bytes / 3350e9);
        if (curve_class(r->kclass) && r->tensor_core) {
            gemm_rows++;
            above += r->ratio > 1 + 1e-9;
            bad += r->ratio < 1 - 1e-12 || strncmp(r->curve, "aic-", 4) != 0;
        } else {
            /* the pure roofline, or the 5 us floor of a gap-free kernel */
            bad += strcmp(r->curve, "pure roofline") != 0;
            bad += fabs(r->kernel_ms - fmax(roof_ms, 5e-3)) > 1e-9 * r->kernel_ms;
        }
    }
    CHECK(gemm_rows > 0);
    CHECK(above > 0);
    CHECK_I64(bad, 0);
    CHECK(strstr(p.method, "gemm+attention") != NULL);
    CHECK(p.band_lo_ms <= p.latency_ms && p.latency_ms <= p.band_hi_ms);
    o.pure_roofline = 1;                       /* --pure after --runtime tensorrt */
    CHECK(!predict(g, "h100-sxm", &o, &q));
    for (int i = 0; i < q.n_kernel_rows; i++) bad += strcmp(q.kernel_rows[i].curve, "pure roofline") != 0;
    CHECK_I64(bad, 0);
    CHECK(q.latency_ms < p.latency_ms);
    CHECK(!strcmp(q.method, "roofline"));
    dlp_prediction_clear(&p);
    dlp_prediction_clear(&q);
    dlp_graph_free(g);
}

/* A caller's dlp_efficiency under TensorRT goes by kernel class: linear
 * kernels take cls[GEMM], attention cls[MATMUL] (BERT's linear layers and
 * its attention are both anchored on MatMul nodes).  Constant curves
 * ratio = exp(a): GEMM ln 2 -> 2x its roofline, attention ln 3 -> 3x,
 * each at least the 5 us floor; other kernels stay pure. */
static void t_trt_custom_curves(void) {
    dlp_graph *g = load("examples/bert.onnx", 8, 128);
    CHECK(g);
    if (!g) return;
    dlp_efficiency eff;
    memset(&eff, 0, sizeof eff);
    eff.name = "test";
    eff.cls[DLP_OPC_GEMM].a = log(2.0);
    eff.cls[DLP_OPC_MATMUL].a = log(3.0);
    dlp_predict_opts o = {.no_learned = 1, .dtype = DLP_DT_FLOAT16};
    dlp_predict_use_runtime(&o, DLP_RUNTIME_TENSORRT);
    o.eff = &eff;
    dlp_prediction p;
    CHECK(!predict(g, "h100-sxm", &o, &p));
    CHECK_NEAR(p.clock_share, 1, 1e-12);   /* under 700 W: no DVFS stretch */
    int seen_gemm = 0, seen_attn = 0, bad = 0;
    for (int i = 0; i < p.n_kernel_rows; i++) {
        const dlp_kernel_pred *r = &p.kernel_rows[i];
        double roof_ms = 1e3 * fmax(r->flops / r->peak_flops, r->bytes / 3350e9);   /* devices.json: 3350 GB/s */
        double want = r->kclass == DLP_KC_GEMM ? 2 : r->kclass == DLP_KC_ATTN ? 3 : 1;
        seen_gemm += r->kclass == DLP_KC_GEMM, seen_attn += r->kclass == DLP_KC_ATTN;
        bad += fabs(r->kernel_ms - fmax(want * roof_ms, 5e-3)) > 1e-9 * r->kernel_ms;
    }
    CHECK(seen_gemm > 0 && seen_attn > 0);
    CHECK_I64(bad, 0);
    dlp_prediction_clear(&p);
    dlp_graph_free(g);
}

/* ResNet-50 int8 TensorRT: no conv row takes a curve (there is no int8
 * conv data), so the convolutions time as with --pure. */
static void t_trt_conv_pure(void) {
    dlp_graph *g = load("data/models/torchvision/resnet50.onnx", 32, 0);
    CHECK(g);
    if (!g) return;
    dlp_predict_opts o = {.no_learned = 1, .dtype = DLP_DT_INT8};
    dlp_predict_use_runtime(&o, DLP_RUNTIME_TENSORRT);
    dlp_prediction p;
    CHECK(!predict(g, "a100-80gb", &o, &p));
    int convs = 0, bad = 0;
    for (int i = 0; i < p.n_kernel_rows; i++) {
        if (p.kernel_rows[i].kclass != DLP_KC_CONV) continue;
        convs++;
        bad += strcmp(p.kernel_rows[i].curve, "pure roofline") != 0;
    }
    CHECK_I64(convs, 53);   /* ResNet-50: 53 convolutions (49 + 4 downsample) */
    CHECK_I64(bad, 0);
    dlp_prediction_clear(&p);
    dlp_graph_free(g);
}

/* squad_shape(): Graphcore's histogram holds N = 88,641 features with
 * sum(L) = 15,249,479 and sum(L^2) = 2,985,577,771 (summed by hand from
 * histograms.py with a script outside the code: mean 172.04 tokens,
 * median 159, E[L^2] = 33,681.7).  seq = E[L^2] / E[L] = 195.78 -> 196;
 * for 256 samples batch = 256 x 172.04 / 196 = 224.70 -> 225.  The graph
 * then carries 225 x 196 = 44,100 GEMM tokens against the real 44,041
 * (+0.13%) and 225 x 196^2 = 8.64 M attention cells against 256 x
 * 33,681.7 = 8.62 M (+0.2%). */
static void t_squad_shape(void) {
    int64_t b = 0, s = 0;
    CHECK(squad_shape(256, &b, &s));
    CHECK_I64(s, 196);
    CHECK_I64(b, 225);
    long long n = 0, s1 = 0;
    for (int i = 0; i < 384; i++) n += squad_hist[i], s1 += (long long)squad_hist[i] * (i + 1);
    CHECK_I64(n, 88641);
    CHECK_I64(s1, 15249479);
    CHECK(!squad_shape(0, &b, &s));                  /* no samples: refused */
    /* sps() scales the graph's throughput from its 225 rows to the 256
     * samples they stand for: bert-large at (225, 196) on an H100, int8
     * TensorRT, above the padded (256, 384) graph's */
    dlp_llm_config c;
    dlp_error e = {0};
    dlp_graph *gs = NULL, *gp = NULL;
    CHECK(!dlp_llm_catalogue_get("bert-large-uncased", &c, &e));
    CHECK(!dlp_llm_build(&c, b, s, DLP_QT_FP16, &gs, NULL, &e));
    CHECK(!dlp_llm_build(&c, 256, 384, DLP_QT_FP16, &gp, NULL, &e));
    const dlp_device *d = dlp_devdb_find(DB, "h100-sxm");
    if (gs && gp && d) {
        double v = sps(gs, d, DB, DLP_DT_INT8, b, 256, 1), pad = sps(gp, d, DB, DLP_DT_INT8, 256, 256, 1);
        CHECK(v > 0 && pad > 0);
        /* 384 / 172 = 2.2x less GEMM work; the curves' efficiency falls
         * a little with the smaller M, so between 1.5x and 2.3x */
        CHECK(v > 1.5 * pad && v < 2.3 * pad);
    }
    dlp_graph_free(gs);
    dlp_graph_free(gp);
}

/* ---- L2 residency (docs/predict.md, "L2 residency") ----------------------------------
 * Three GPUs alike but for their L2: "dram" gives no l2_bandwidth_gbs (the
 * rule is off), "l2" gives 2000 GB/s over 500 GB/s DRAM and a 48 MiB L2,
 * "tiny" the same bandwidth with a 1 MiB L2.  The 1000 W limit keeps DVFS
 * out of the times. */
static const char L2DB[] =
    "{\"schema\": \"dlperf-devices/1\", \"sources\": {\"me\": \"test\"},\n"
    " \"carbon\": {\"default_region\": \"here\", \"pue\": 1.1, \"pue_source\": \"guess\",\n"
    "   \"regions\": {\"here\": {\"g_per_kwh\": 100, \"source\": \"guess\"}}},\n"
    " \"devices\": [" L2DEV("dram", 48, "") "," L2DEV("l2", 48, "\"l2_bandwidth_gbs\": 2000,")
    "," L2DEV("tiny", 1, "\"l2_bandwidth_gbs\": 2000,") "]}\n";

static const dlp_kernel_pred *row_at(const dlp_prediction *p, int i) {
    return i < p->n_kernel_rows ? &p->kernel_rows[i] : NULL;
}

/* ResNet-50 int8 TensorRT at batch 1.  Row 0 (conv1 + BN + ReLU) reads the
 * graph input (no producer kernel) and writes 64 x 112 x 112 int8 =
 * 802,816 B that row 1 (max pool) reads: on "l2" only that write moves at
 * L2 speed, so its DRAM-equivalent bytes drop by 802,816 x (1 - 500/2000)
 * = 602,112.  Row 1 reads those 802,816 B and writes 64 x 56 x 56 =
 * 200,704 B that the next conv reads: (802,816 + 200,704) x 0.75 =
 * 752,640 B less.  At batch 32 every kernel moves more than "tiny"'s
 * 1 MiB (the smallest, the last block's 1x1 conv, reads 7 x 7 x 512 x 32
 * = 0.8 MB and writes 3.2 MB), so "tiny" times the pass as "dram" does,
 * while "l2" is faster.  A training step does not change at all. */
static void t_l2_residency(void) {
    const char *path = "/tmp/dlperf_test_trt_l2.json";
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(L2DB, f);
    fclose(f);
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load(path, &db, &e) == DLP_OK);
    if (e.msg[0]) fprintf(stderr, "  %s\n", e.msg);
    remove(path);
    dlp_graph *g = load("data/models/torchvision/resnet50.onnx", 1, 0);
    CHECK(g && db);
    if (!g || !db) {
        dlp_graph_free(g);
        dlp_devdb_free(db);
        return;
    }
    CHECK_NEAR(dlp_devdb_find(db, "l2")->l2_bandwidth_gbs, 2000, 0);
    {
        /* a wrong value is refused, naming the field */
        static const char bad[] = "{\"schema\": \"dlperf-devices/1\", \"sources\": {\"me\": \"test\"},\n"
                                  " \"carbon\": {\"default_region\": \"here\", \"pue\": 1.1, \"pue_source\": \"guess\",\n"
                                  "   \"regions\": {\"here\": {\"g_per_kwh\": 100, \"source\": \"guess\"}}},\n"
                                  " \"devices\": [" L2DEV("neg", 48, "\"l2_bandwidth_gbs\": -5,") "]}\n";
        dlp_devdb *b2 = NULL;
        dlp_error e2 = {0};
        CHECK(dlp_devdb_load_mem(bad, "bad.json", &b2, &e2) == DLP_EFORMAT);
        CHECK(strstr(e2.msg, "l2_bandwidth_gbs") != NULL);
        dlp_devdb_free(b2);
    }
    CHECK_NEAR(dlp_devdb_find(db, "dram")->l2_bandwidth_gbs, 0, 0);
    {
        /* die_tdp_w (h225): optional, never above tdp_w (1,000 W here) */
        static const char die[] = "{\"schema\": \"dlperf-devices/1\", \"sources\": {\"me\": \"test\"},\n"
                                  " \"carbon\": {\"default_region\": \"here\", \"pue\": 1.1, \"pue_source\": \"guess\",\n"
                                  "   \"regions\": {\"here\": {\"g_per_kwh\": 100, \"source\": \"guess\"}}},\n"
                                  " \"devices\": [" L2DEV("die", 48, "\"die_tdp_w\": 700,") "]}\n";
        static const char over[] = "{\"schema\": \"dlperf-devices/1\", \"sources\": {\"me\": \"test\"},\n"
                                   " \"carbon\": {\"default_region\": \"here\", \"pue\": 1.1, \"pue_source\": \"guess\",\n"
                                   "   \"regions\": {\"here\": {\"g_per_kwh\": 100, \"source\": \"guess\"}}},\n"
                                   " \"devices\": [" L2DEV("over", 48, "\"die_tdp_w\": 1200,") "]}\n";
        dlp_devdb *b3 = NULL, *b4 = NULL;
        dlp_error e3 = {0}, e4 = {0};
        CHECK(dlp_devdb_load_mem(die, "die.json", &b3, &e3) == DLP_OK);
        CHECK(b3 && dlp_devdb_find(b3, "die")->die_tdp_w == 700.0);
        CHECK(dlp_devdb_load_mem(over, "over.json", &b4, &e4) == DLP_EFORMAT);
        CHECK(strstr(e4.msg, "die_tdp_w") != NULL);
        CHECK_NEAR(dlp_devdb_find(db, "dram")->die_tdp_w, 0, 0);
        dlp_devdb_free(b3);
        dlp_devdb_free(b4);
    }
    dlp_predict_opts o = {.no_learned = 1, .dtype = DLP_DT_INT8};
    dlp_predict_use_runtime(&o, DLP_RUNTIME_TENSORRT);
    dlp_prediction pd, pl, pt;
    const char *ids[3] = {"dram", "l2", "tiny"};
    dlp_prediction *ps[3] = {&pd, &pl, &pt};
    for (int i = 0; i < 2; i++) CHECK(!dlp_predict(g, dlp_devdb_find(db, ids[i]), db, &o, ps[i], &e));
    const dlp_kernel_pred *d0 = row_at(&pd, 0), *l0 = row_at(&pl, 0), *d1 = row_at(&pd, 1), *l1 = row_at(&pl, 1);
    CHECK(d0 && l0 && d1 && l1);
    if (d0 && l0 && d1 && l1) {
        CHECK(d1->kclass == DLP_KC_POOL);
        CHECK_NEAR(d0->bytes - l0->bytes, 602112, 1e-6);
        CHECK_NEAR(d1->bytes - l1->bytes, 752640, 1e-6);
        CHECK_NEAR(l0->flops, d0->flops, 0);
    }
    for (int i = 0; i < 2; i++) dlp_prediction_clear(ps[i]);
    dlp_graph_free(g);
    g = load("data/models/torchvision/resnet50.onnx", 32, 0);
    CHECK(g != NULL);
    if (!g) {
        dlp_devdb_free(db);
        return;
    }
    for (int i = 0; i < 3; i++) CHECK(!dlp_predict(g, dlp_devdb_find(db, ids[i]), db, &o, ps[i], &e));
    CHECK(pl.latency_ms < 0.9 * pd.latency_ms);
    CHECK_NEAR(pt.latency_ms, pd.latency_ms, 0);
    for (int i = 0; i < 3; i++) dlp_prediction_clear(ps[i]);
    /* training: the backward reads saved activations long after; no rule */
    dlp_predict_opts t = {.no_learned = 1, .mode = DLP_PREDICT_TRAIN};
    CHECK(!dlp_predict(g, dlp_devdb_find(db, "dram"), db, &t, &pd, &e));
    CHECK(!dlp_predict(g, dlp_devdb_find(db, "l2"), db, &t, &pl, &e));
    CHECK_NEAR(pl.latency_ms, pd.latency_ms, 0);
    dlp_prediction_clear(&pd);
    dlp_prediction_clear(&pl);
    dlp_graph_free(g);
    dlp_devdb_free(db);
}

int main(void) {
    dlp_error e = {0};
    if (dlp_devdb_load(NULL, &DB, &e)) {
        fprintf(stderr, "devdb: %s\n", e.msg);
        return 1;
    }
    RUN(t_trt_gemm_curves);
    RUN(t_trt_custom_curves);
    RUN(t_trt_conv_pure);
    RUN(t_squad_shape);
    RUN(t_l2_residency);
    dlp_devdb_free(DB);
    return TAP_DONE();
}
