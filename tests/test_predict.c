/*
 * test_predict.c — worked examples of the roofline predictor (src/models):
 * every expected number is computed by hand in the test from the device's
 * datasheet values in data/devices.json (typed in here as literals, so a
 * change of the database or of a rule shows up as a failure), the thesis'
 * §5.6.4 cost example, carbon arithmetic, MIG choices at profile boundaries
 * and DIPPM's table 5, and training-mode time and memory of a tiny graph.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "graph/graph.h"
#include "predict/learned.h"
#include "predict/roofline.h"
#include "predict/power.h"
#include "predict/predict.h"
#include "tap.h"

#define D(...) ((const int64_t[]){__VA_ARGS__})
#define F32 DLP_DT_FLOAT
#define MIB 1048576.0

/* datasheet values (data/devices.json) */
#define A100_FP32 19.5e12
#define A100_TF32 156e12
#define A100_BW 1555e9
#define A100_TDP 400.0
#define A100_IDLE 55.0
#define A100_PRICE 1.29
#define H100_FP16 989.4e12
#define H100_BW 3350e9
#define H100_TDP 700.0
#define H100_IDLE 70.0
#define LAUNCH 5e-6
/* the measured CPU (data/devices.json) and the CPU constants of dlperf.h */
#define CPU_FP32 166.1e9
#define CPU_BW 28.2e9
#define CPU_DISPATCH 67e-6
#define CPU_BASE_MIB 148.7

static dlp_devdb *DB;
static dlp_graph *G;
static dlp_error E;

static const dlp_device *dev(const char *id) {
    const dlp_device *d = dlp_devdb_find(DB, id);
    if (!d) fprintf(stderr, "  device %s missing\n", id);
    return d;
}

/* ---- tiny graph builder ------------------------------------------------------ */

static void fresh(void) {
    dlp_graph_free(G);
    G = dlp__graph_new("t");
    G->opset = 17;
    memset(&E, 0, sizeof E);
}
static int in_(const char *name, int rank, const int64_t *dims) {
    int v = dlp__graph_add_value(G, name, F32, rank, dims);
    dlp__graph_mark_input(G, v);
    return v;
}
static int w_(const char *name, int rank, const int64_t *dims) { return dlp__graph_add_weight(G, name, F32, rank, dims); }
static int val_(const char *name) { return dlp__graph_add_value(G, name, 0, -1, NULL); }
static int out_(const char *name) {
    int v = val_(name);
    dlp__graph_mark_output(G, v);
    return v;
}
static int node_(const char *name, const char *op, int n_in, const int *in, int out) {
    return dlp__graph_add_node(G, name, op, "", n_in, in, 1, &out);
}
static int fin(void) {
    dlp_status st = dlp__graph_finalize(G, NULL, &E);
    if (st) fprintf(stderr, "  finalize: %s\n", E.msg);
    return st;
}

/* Y = X(M,K) x W(K,N) [+ B]; returns the Gemm node. */
static int gemm_graph(int64_t m, int64_t k, int64_t n, int bias, int relu) {
    fresh();
    int x = in_("x", 2, D(m, k)), w = w_("w", 2, D(k, n));
    int y = relu ? val_("y") : out_("y");
    int in[3] = {x, w, bias ? w_("b", 1, D(n)) : -1};
    int g = node_("gemm", "Gemm", bias ? 3 : 2, in, y);
    if (relu) node_("relu", "Relu", 1, &y, out_("z"));
    return g;
}

static dlp_prediction P;

static int predict(const char *id, const dlp_predict_opts *o) {
    dlp_prediction_clear(&P);
    memset(&E, 0, sizeof E);
    dlp_status st = dlp_predict(G, dev(id), DB, o, &P, &E);
    if (st) fprintf(stderr, "  predict: %s\n", E.msg);
    return st;
}

/* ---- single kernels ---------------------------------------------------------- */

/* 4096^3 fp16 GEMM on an H100 SXM: compute-bound on the tensor cores.
 * FLOPs 2*4096^3 = 137438953472; bytes 3 * 4096^2 * 2 = 100663296;
 * compute 137438953472 / 989.4e12 = 138.911 us > memory 30.05 us. */
static void t_gemm_4096_fp16_h100(void) {
    gemm_graph(4096, 4096, 4096, 0, 0);
    CHECK(!fin());
    /* model.half(): X arrives in fp16 (under autocast the fp32 graph input
     * would first be cast down: its own kernel, test_lower's t_autocast) */
    dlp_predict_opts o = {.dtype = DLP_DT_FLOAT16, .pure_roofline = 1, .no_amp = 1};
    CHECK(!predict("h100-sxm", &o));
    double f = 2.0 * 4096 * 4096 * 4096, tk = f / H100_FP16;
    CHECK_NEAR(P.nodes[0].flops, f, 0.5);
    CHECK_NEAR(P.nodes[0].bytes, 3.0 * 4096 * 4096 * 2, 0.5);
    CHECK_I64(P.nodes[0].bound, 'c');
    CHECK_I64(P.nodes[0].tensor_core, 1);
    CHECK_I64(P.kernels, 1);
    CHECK_NEAR(P.nodes[0].kernel_ms, 1e3 * tk, 1e-9);
    CHECK_NEAR(P.latency_ms, 1e3 * (tk + LAUNCH), 1e-9);
    CHECK_NEAR(P.latency_ms, 0.143911, 1e-6);
    CHECK_NEAR(P.throughput_sps, 1.0 / (tk + LAUNCH), 1e-6);   /* batch 1 (none bound) */
    /* power: u = 1 on the kernel -> TDP; launch gap at idle */
    CHECK_NEAR(P.energy_j, H100_TDP * tk + H100_IDLE * LAUNCH, 1e-9);
    CHECK_NEAR(P.utilisation, tk / (tk + LAUNCH), 1e-9);
    CHECK_STR(P.method, "roofline");
}

/* 16x16x16 fp32 GEMM on an A100: bytes 3*256*4 = 3072 -> 1.976 ns at
 * 1555 GB/s, FLOPs 8192 -> 0.42 ns; the 5 us launch is 99.96% of it. */
static void t_gemm_tiny_launch_bound(void) {
    gemm_graph(16, 16, 16, 0, 0);
    CHECK(!fin());
    dlp_predict_opts o = {.pure_roofline = 1};
    CHECK(!predict("a100-40gb", &o));
    double tm = 3072 / A100_BW;
    CHECK_I64(P.nodes[0].bound, 'm');
    CHECK_I64(P.nodes[0].tensor_core, 0);   /* fp32 matmul: FP32 units by default */
    CHECK_NEAR(P.nodes[0].peak_flops, A100_FP32, 1);
    CHECK_NEAR(P.latency_ms, 1e3 * (tm + LAUNCH), 1e-12);
    o.launch_us = -1;                        /* no launch gap: the kernel's device */
    CHECK(!predict("a100-40gb", &o));        /* minimum, 5 us > 1.98 ns, holds it   */
    CHECK_NEAR(P.latency_ms, 1e3 * 5e-6, 1e-12);
    o.launch_us = 20;
    CHECK(!predict("a100-40gb", &o));
    CHECK_NEAR(P.latency_ms, 1e3 * (tm + 20e-6), 1e-12);
    o.launch_us = 0;
    o.tf32 = DLP_TF32_ON;                    /* --tf32: matmul on TF32 tensor cores */
    CHECK(!predict("a100-40gb", &o));
    CHECK_I64(P.nodes[0].tensor_core, 1);
    CHECK_NEAR(P.nodes[0].peak_flops, A100_TF32, 1);
}

/* The unit rules: fp32 convs on TF32 (cuDNN's default), fp32 matmuls on
 * FP32; fp16 on tensor cores; vector ops on FP32 whatever the dtype; a
 * GPU without tensor cores falls back to its vector rate. */
static void t_node_peaks(void) {
    const dlp_device *a = dev("a100-40gb"), *p100 = dev("p100");
    int tc;
    CHECK_NEAR(dlp__node_peak(a, DLP_OPC_CONV, F32, DLP_TF32_DEFAULT, &tc), A100_TF32, 1);
    CHECK_I64(tc, 1);
    CHECK_NEAR(dlp__node_peak(a, DLP_OPC_CONV, F32, DLP_TF32_OFF, &tc), A100_FP32, 1);
    CHECK_I64(tc, 0);
    CHECK_NEAR(dlp__node_peak(a, DLP_OPC_MATMUL, F32, DLP_TF32_DEFAULT, &tc), A100_FP32, 1);
    CHECK_NEAR(dlp__node_peak(a, DLP_OPC_GEMM, DLP_DT_FLOAT16, 0, &tc), 312e12, 1);
    CHECK_NEAR(dlp__node_peak(a, DLP_OPC_GEMM, DLP_DT_BFLOAT16, 0, &tc), 312e12, 1);
    CHECK_NEAR(dlp__node_peak(a, DLP_OPC_ELEMENTWISE, DLP_DT_FLOAT16, 0, &tc), A100_FP32, 1);
    CHECK_I64(tc, 0);
    CHECK_NEAR(dlp__node_peak(p100, DLP_OPC_CONV, F32, DLP_TF32_DEFAULT, &tc), 9300e9, 1);
    CHECK_I64(tc, 0);
}

/* Relu over 64x1024x1024 fp32 on an A100: reads and writes 2^26 * 4 B each =
 * 536870912 B -> 345.254 us at 1555 GB/s; 2^26 FLOPs take 3.44 us. */
static void t_elementwise_memory_bound(void) {
    fresh();
    node_("relu", "Relu", 1, (int[]){in_("x", 3, D(64, 1024, 1024))}, out_("y"));
    CHECK(!fin());
    dlp_predict_opts o = {.pure_roofline = 1};
    CHECK(!predict("a100-40gb", &o));
    double b = 2.0 * 67108864 * 4, tm = b / A100_BW;
    CHECK_NEAR(P.nodes[0].bytes, b, 0.5);
    CHECK_I64(P.nodes[0].bound, 'm');
    CHECK_NEAR(P.latency_ms, 1e3 * (tm + LAUNCH), 1e-9);
    CHECK_NEAR(P.latency_ms, 0.350254, 1e-6);
    /* --dtype fp16 halves the bytes (as .half() would: --no-amp) */
    o.dtype = DLP_DT_FLOAT16;
    o.no_amp = 1;
    CHECK(!predict("a100-40gb", &o));
    CHECK_NEAR(P.nodes[0].bytes, b / 2, 0.5);
    CHECK_NEAR(P.latency_ms, 1e3 * (tm / 2 + LAUNCH), 1e-9);
}

/* Clocks under a power cap (DVFS), by hand from data/devices.json.  The L4
 * (AD104, 58 SMs, 2040 MHz, 72 W, idle 16 W) is the only AD104: its
 * reference is the Ada GDDR6 entry with the largest budget per SM-GHz^3,
 * the L20 (92 SMs, 2520 MHz, 275 W, idle 28): k = 247 / (92 x 2.52^3) =
 * 0.167759; the L4 unlimited at boost: 16 + k x 58 x 2.04^3 = 98.609 W.
 * A 4096^3 fp16 GEMM, pure roofline: compute 2 x 4096^3 / 121e12 =
 * 1.13586 ms > memory 3 x 4096^2 x 2 / 300e9 = 0.33554 ms; u = 1, so the
 * draw at boost is 98.609 W > 72.  Of it the GDDR6 (7.5 pJ/bit, power.c)
 * moving 100.66 MB in 1.13586 ms (121e12 x 3 / 4096 = 88.62 GB/s) draws
 * 60e-12 x 88.62e9 = 5.3174 W at its fixed clock, which the cap cannot
 * lower: the core scales, (72 - 16 - 5.3174) / (98.609 - 16 - 5.3174) =
 * 0.65573 = s^3, clock share s = 0.86878, time 1.13586 / s = 1.30742 ms,
 * energy 72 W x that.  A memory-bound ReLU of 64M fp16 elements (268 MB,
 * 0.89478 ms) draws as much at boost but its time is the fixed memory
 * clock's: it does not move. */
/* DRAM energy per bit by memory type (power.c, from O'Connor et al. MICRO'17
 * and Micron's memory comparison) and the draw it gives: an H100 SXM
 * (HBM3, 6.0 pJ/bit) streaming 3.35e12 B/s: 6e-12 x 8 x 3.35e12 = 160.8 W;
 * an A100 40 GB (HBM2, 3.9): at 1.555e12 B/s 48.5 W; the A40 (GDDR6, 7.5),
 * the RTX 4090 (GDDR6X, 7.25), the RTX 5090 (GDDR7: 6X's 7.25 assumed).
 * Under the voltage floor a cap the DRAM alone exceeds leaves the core at
 * the lowest clock, 0.1 of boost; a cap above the draw leaves it at 1. */
static void t_mem_power(void) {
    CHECK_NEAR(dlp__mem_pj_per_bit(dev("h100-sxm")), 6.0, 0);
    CHECK_NEAR(dlp__mem_pj_per_bit(dev("a100-40gb")), 3.9, 0);
    CHECK_NEAR(dlp__mem_pj_per_bit(dev("a100-80gb")), 6.0, 0);
    CHECK_NEAR(dlp__mem_pj_per_bit(dev("a40")), 7.5, 0);
    CHECK_NEAR(dlp__mem_pj_per_bit(dev("rtx4090")), 7.25, 0);
    CHECK_NEAR(dlp__mem_pj_per_bit(dev("rtx5090")), 7.25, 0);
    CHECK_NEAR(dlp__mem_power_w(dev("h100-sxm"), 3.35e12), 160.8, 1e-9);
    CHECK_NEAR(dlp__mem_power_w(dev("a100-40gb"), 1.555e12), 48.516, 1e-9);
    CHECK_NEAR(dlp__mem_power_w(dev("h100-sxm"), -1), 0, 0);
    /* idle 30, boost 300 at share 1, limit 100, DRAM 80 W: room for the
     * core -10 W -> lowest clock; DRAM 0: r = 70/270, below 0.8^3 -> r/0.64 */
    CHECK_NEAR(dlp__dvfs_clock_mem(30, 80, 300, 100, 1), 0.1, 0);
    CHECK_NEAR(dlp__dvfs_clock_mem(30, 0, 300, 100, 1), 70.0 / 270 / 0.64, 1e-12);
    CHECK_NEAR(dlp__dvfs_clock_mem(30, 20, 300, 100, 1), 50.0 / 250 / 0.64, 1e-12);
    CHECK_NEAR(dlp__dvfs_clock_mem(30, 20, 300, 400, 1), 1, 0);
}

static void t_dvfs_power_cap_l4(void) {
    const double k = 247.0 / (92 * 2.52 * 2.52 * 2.52), pb = 16 + k * 58 * 2.04 * 2.04 * 2.04;
    CHECK_NEAR(dev("l4")->boost_power_w, pb, 1e-9);
    CHECK_NEAR(pb, 98.60, 0.01);
    const double mw = 7.5e-12 * 8 * 121e12 * 3 / 4096;   /* the DRAM's 5.3174 W */
    const double s = cbrt((72.0 - 16 - mw) / (pb - 16 - mw));
    CHECK_NEAR(s, 0.86878, 1e-5);
    gemm_graph(4096, 4096, 4096, 0, 0);
    CHECK(!fin());
    dlp_predict_opts o = {.dtype = DLP_DT_FLOAT16, .pure_roofline = 1, .no_amp = 1};   /* fp16 X */
    CHECK(!predict("l4", &o));
    double tc = 2.0 * 4096 * 4096 * 4096 / 121e12;
    CHECK_NEAR(P.nodes[0].kernel_ms, 1e3 * tc / s, 1e-9);
    CHECK_NEAR(P.nodes[0].kernel_ms, 1.30742, 1e-5);
    CHECK_NEAR(P.clock_share, s, 1e-12);
    CHECK_NEAR(P.energy_j, 72 * tc / s + 16 * LAUNCH, 1e-9);
    CHECK(P.power_w <= 72);
    /* nvidia-smi -pl 40: r = (40-16-5.3174)/(98.609-16-5.3174) = 0.24172
     * < 0.8^3, below the voltage floor power falls as f: s = r / 0.8^2 =
     * 0.37768, time 1.13586 / s = 3.00744 ms at 40 W (without the DRAM held
     * out, 2.50 ms: the memory's fixed draw leaves the core less) */
    o.power_limit_w = 40;
    CHECK(!predict("l4", &o));
    double r = (24 - mw) / (pb - 16 - mw);
    CHECK_NEAR(P.clock_share, r / 0.64, 1e-12);
    CHECK_NEAR(P.nodes[0].kernel_ms, 3.00744, 1e-5);
    CHECK_NEAR(P.power_limit_w, 40, 0);
    CHECK(P.power_w <= 40);
    o.power_limit_w = 73;                     /* above the board's 72 W: refused */
    CHECK(predict("l4", &o) == DLP_EINVAL);
    o.power_limit_w = 0;
    /* the same kernel on the 450 W RTX 4090 (its own reference): boost held */
    CHECK(!predict("rtx4090", &o));
    CHECK_NEAR(P.clock_share, 1, 1e-12);
    fresh();
    node_("relu", "Relu", 1, (int[]){in_("x", 3, D(64, 1024, 1024))}, out_("y"));
    CHECK(!fin());
    CHECK(!predict("l4", &o));
    double tm = 2.0 * 67108864 * 2 / 300e9;
    CHECK_NEAR(P.nodes[0].kernel_ms, 1e3 * tm, 1e-9);           /* memory clock fixed */
    CHECK_NEAR(P.energy_j, 72 * tm + 16 * LAUNCH, 1e-9);        /* at the capped power */
}

/* docs/predict.md's worked example, "a 300 W Max-Q part" (issue 23), by
 * hand from devices.json: GB202's reference is the RTX 5090 (170 SMs,
 * 2407 MHz, 575 W, idle 30): k = 545 / (170 x 2.407^3) = 0.22989; the
 * Max-Q (188 SMs, 2288 MHz, idle 15) draws P_max = 15 + k x 188 x 2.288^3
 * = 532.7 W unlimited.  An 8192^3 fp16 GEMM, pure roofline: 2 x 8192^3 =
 * 1.0995e12 FLOPs / 438.9 TFLOP/s = 2.505 ms; its 3 x 8192^2 x 2 B =
 * 402.65 MB at 160.7 GB/s draw 7.25 pJ/bit (GDDR7 = GDDR6X's) x 8 = 9.32 W
 * in the DRAM; s = ((300 - 15 - 9.32) / (532.7 - 15 - 9.32))^(1/3) =
 * 0.8155 (above 0.8^3: the f^3 law), so 2.505 / 0.8155 = 3.072 ms at 300 W
 * (0.92 J). */
static void t_dvfs_max_q_worked_example(void) {
    const double k = 545.0 / (170 * 2.407 * 2.407 * 2.407), pb = 15 + k * 188 * 2.288 * 2.288 * 2.288;
    CHECK_NEAR(k, 0.22989, 1e-5);
    CHECK_NEAR(pb, 532.7, 0.05);
    CHECK_NEAR(dev("rtx-pro-6000-maxq")->boost_power_w, pb, 1e-6);
    const double tc = 2.0 * 8192 * 8192 * 8192 / 438.9e12, bytes = 3.0 * 8192 * 8192 * 2;
    const double mw = 7.25e-12 * 8 * bytes / tc;
    CHECK_NEAR(mw, 9.32, 0.01);
    const double s = cbrt((300.0 - 15 - mw) / (pb - 15 - mw));
    CHECK_NEAR(s, 0.8155, 1e-4);
    gemm_graph(8192, 8192, 8192, 0, 0);
    CHECK(!fin());
    dlp_predict_opts o = {.dtype = DLP_DT_FLOAT16, .pure_roofline = 1, .no_amp = 1};   /* fp16 X: model.half() */
    CHECK(!predict("rtx-pro-6000-maxq", &o));
    CHECK_NEAR(P.nodes[0].kernel_ms, 1e3 * tc / s, 1e-9);
    CHECK_NEAR(P.nodes[0].kernel_ms, 3.072, 5e-4);
    CHECK_NEAR(P.clock_share, s, 1e-12);
    CHECK_NEAR(P.energy_j, 300 * tc / s + 15 * LAUNCH, 1e-9);
    CHECK_NEAR(P.energy_j, 0.92, 0.005);
}

/* The calibrated default: kernel time = roofline x exp(a + b u + c v),
 * u = log10(t_roof / 1 us), v = log10(AI / ridge) (clamped); the band is
 * the calibration's measured p10/p90. */
static void t_calibrated_curve(void) {
    fresh();
    node_("relu", "Relu", 1, (int[]){in_("x", 3, D(64, 1024, 1024))}, out_("y"));
    CHECK(!fin());
    CHECK(!predict("a100-40gb", NULL));
    const dlp_efficiency *e = dlp_efficiency_builtin();
    const dlp_eff_curve *c = &e->cls[DLP_OPC_ACTIVATION];
    double f = 67108864, b = 2.0 * 67108864 * 4, t = b / A100_BW;
    double u = log10(t / 1e-6), v = log10((f / b) / (A100_FP32 / A100_BW));
    double lr = c->a + c->b * u + c->c * v + c->d * u * u;
    double ratio = exp(lr < 0 ? 0 : lr);
    CHECK(ratio >= 1);
    CHECK_NEAR(P.nodes[0].ratio, ratio, 1e-9);
    CHECK_NEAR(P.latency_ms, 1e3 * (t * ratio + LAUNCH), 1e-9);
    char want[96];
    snprintf(want, sizeof want, "roofline+%s", e->name);
    CHECK_STR(P.method, want);
    CHECK(e->band_lo > 0 && e->band_hi > e->band_lo);
    CHECK_NEAR(P.band_lo_ms, P.latency_ms * e->band_lo, 1e-12);
    CHECK_NEAR(P.band_hi_ms, P.latency_ms * e->band_hi, 1e-12);
    /* the curve never beats the roofline */
    dlp_eff_curve neg = {-3, 0, 0, 0};  /* efficiency > 1 is clamped to 1 */
    CHECK_NEAR(dlp__eff_ratio_uv(&neg, 1, 1), 1.0, 0);
    dlp_eff_curve big = {50, 0, 0, 0};
    CHECK_NEAR(dlp__eff_ratio_uv(&big, 1, 1), 100.0, 1e-9);
    /* a custom efficiency (the hook a learned model fills): x2 on activations */
    dlp_efficiency mine;
    memset(&mine, 0, sizeof mine);
    mine.name = "mine";
    mine.cls[DLP_OPC_ACTIVATION].a = log(2.0);
    dlp_predict_opts o = {.eff = &mine};
    CHECK(!predict("a100-40gb", &o));
    CHECK_NEAR(P.latency_ms, 1e3 * (2 * t + LAUNCH), 1e-9);
    CHECK_STR(P.method, "roofline+mine");
    CHECK_NEAR(P.band_hi_ms, 0, 0);          /* no band given: none shown */
}

/* Views and shape arithmetic launch nothing; Reshape's output aliases its
 * input, so it adds no memory either. */
static void t_views_free(void) {
    fresh();
    int x = in_("x", 2, D(8, 16));
    int shp = dlp__graph_add_const_ints(G, "shape", 1, D(1), D(128));
    int r = val_("r"), y = val_("y"), z = val_("z");
    node_("reshape", "Reshape", 2, (int[]){x, shp}, r);
    node_("relu", "Relu", 1, &r, y);
    node_("id", "Identity", 1, &y, z);
    node_("drop", "Dropout", 1, &z, out_("o"));
    CHECK(!fin());
    dlp_predict_opts o = {.pure_roofline = 1};
    CHECK(!predict("a100-40gb", &o));
    CHECK_I64(P.kernels, 1);
    int relu_k = 0, others = 0;
    for (int i = 0; i < P.n_nodes; i++) {
        dlp_node_info ni;
        ni = *dlp_graph_node_at(G, P.nodes[i].node);
        if (!strcmp(ni.op_type, "Relu")) relu_k = P.nodes[i].kernels;
        else others += P.nodes[i].kernels;
    }
    CHECK_I64(relu_k, 1);
    CHECK_I64(others, 0);
    /* memory: x (512 B, the caller's) + relu's output (512 B); views alias */
    CHECK_NEAR(P.activations_mb * MIB, 1024, 1e-6);
    /* training: Dropout is a kernel again */
    o.mode = DLP_PREDICT_TRAIN;
    CHECK(!predict("a100-40gb", &o));
    int drop_k = 0;
    for (int i = 0; i < P.n_nodes; i++) {
        dlp_node_info ni;
        ni = *dlp_graph_node_at(G, P.nodes[i].node);
        if (!strcmp(ni.op_type, "Dropout")) drop_k = P.nodes[i].kernels;
    }
    CHECK_I64(drop_k, 1);
}

/* ---- cost and carbon ------------------------------------------------------------ */

/* Thesis §5.6.4: 350 ms/step x 2e5 steps = 19.44 h; x 2.934 $/h = 57.04 $.
 * The thesis rounds the hours first (19.44 x 2.934 = 57.037); unrounded,
 * 70000 s = 19.4444 h gives 57.05. */
static void t_cost_thesis_5_6_4(void) {
    CHECK_NEAR(350.0 * 2e5 / 3.6e6, 19.444444, 1e-6);
    CHECK_NEAR(dlp_cost_usd(2.934, 19.44 * 3.6e6, 1), 57.03696, 1e-9);
    CHECK_NEAR(round(dlp_cost_usd(2.934, 19.44 * 3.6e6, 1) * 100) / 100, 57.04, 1e-12);
    CHECK_NEAR(dlp_cost_usd(2.934, 350, 2e5), 57.05, 1e-9);
    CHECK_NEAR(dlp_cost_usd(0, 350, 2e5), 0, 0);
}

/* 1 kWh x PUE 1.2 x 475 g/kWh = 570 g. */
static void t_carbon_arithmetic(void) {
    CHECK_NEAR(dlp_co2_g(3.6e6, 1.2, 475), 570, 1e-9);
    CHECK_NEAR(dlp_co2_g(1800, 1.0, 56), 0.028, 1e-12);
}

/* Through dlp_predict: --runs counts forward passes of the batch. */
static void t_cost_carbon_predict(void) {
    gemm_graph(1024, 1024, 1024, 1, 1);
    CHECK(!fin());
    dlp_predict_opts o = {.runs = 1e6, .region = "eu"};
    CHECK(!predict("a100-40gb", &o));
    CHECK_NEAR(P.runs, 1e6, 0);
    CHECK_NEAR(P.price_usd_per_hour, A100_PRICE, 1e-12);
    CHECK_NEAR(P.total_hours, P.latency_ms * 1e6 / 3.6e6, 1e-12);
    CHECK_NEAR(P.cost_usd, A100_PRICE * P.latency_ms * 1e6 / 3.6e6, 1e-9);
    CHECK_NEAR(P.g_per_kwh, 251, 0);
    CHECK_NEAR(P.pue, 1.2, 1e-12);
    CHECK_NEAR(P.energy_kwh, P.energy_j * 1e6 / 3.6e6, 1e-12);
    CHECK_NEAR(P.co2_g, P.energy_j * 1e6 / 3.6e6 * 1.2 * 251, 1e-9);
    CHECK_STR(P.region, "eu");
    /* default region: the database's (world, 475 g/kWh) */
    o.region = NULL;
    CHECK(!predict("a100-40gb", &o));
    CHECK_NEAR(P.g_per_kwh, 475, 0);
    CHECK_STR(P.region, "world");
    /* no price: cost -1 (shown as n/a / null) */
    CHECK(!predict("gtx1080ti", &o));
    CHECK_NEAR(P.cost_usd, -1, 0);
    /* unknown region */
    o.region = "atlantis";
    dlp_prediction_clear(&P);
    CHECK_I64(dlp_predict(G, dev("a100-40gb"), DB, &o, &P, &E), DLP_ENOTFOUND);
    CHECK(strstr(E.msg, "atlantis") != NULL);
    /* training: steps */
    dlp_predict_opts t = {.mode = DLP_PREDICT_TRAIN, .steps = 2e5};
    CHECK(!predict("a100-40gb", &t));
    CHECK_NEAR(P.cost_usd, A100_PRICE * P.step_ms * 2e5 / 3.6e6, 1e-9);
    CHECK_NEAR(P.runs, 0, 0);
    CHECK_NEAR(P.steps, 2e5, 0);
}

/* ---- MIG ------------------------------------------------------------------------- */

/* DIPPM table 5 (thesis ch. 4): predicted MB -> profile on an A100-40GB with
 * DIPPM's rule (no margin).  MB read as MiB against nominal GiB x 1024. */
static void t_mig_dippm_table5(void) {
    const dlp_device *a = dev("a100-40gb");
    static const struct { double mb; const char *want; } rows[] = {
        {2865, "1g.5gb"},  /* densenet121, batch 8   */
        {5952, "2g.10gb"}, /* densenet121, batch 32  */
        {2873, "1g.5gb"},  /* swin_base_patch4, 2    */
        {6736, "2g.10gb"}, /* swin_base_patch4, 16   */
        {4771, "1g.5gb"},  /* convnext_base, 4       */
        {26439, "7g.40gb"} /* convnext_base, 128     */
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        dlp_mig_choice c;
        CHECK(!dlp_mig_recommend(a, rows[i].mb, 0, 0, 0, &c));
        CHECK(c.profile != NULL);
        if (c.profile) CHECK_STR(c.profile->name, rows[i].want);
    }
    /* the table's "share of each profile's memory": densenet121 b8 on 1g.5gb
     * = 2865 / 5120 = 56.0% here (DIPPM printed 58%; it did not say which MB) */
    dlp_mig_choice c;
    CHECK(!dlp_mig_recommend(a, 2865, 0, 0, 0, &c));
    CHECK_NEAR(c.fit[0].used_share, 2865.0 / 5120, 1e-12);
    CHECK_NEAR(c.fit[4].used_share, 2865.0 / 40960, 1e-12);
}

static void t_mig_boundaries(void) {
    const dlp_device *a = dev("a100-40gb"), *h = dev("h100-sxm");
    dlp_mig_choice c;
    CHECK(!dlp_mig_recommend(a, 5120, 0, 0, 0, &c));          /* exactly 5 GiB fits */
    CHECK(c.profile && !strcmp(c.profile->name, "1g.5gb"));
    CHECK(!dlp_mig_recommend(a, 5121, 0, 0, 0, &c));
    CHECK(c.profile && !strcmp(c.profile->name, "2g.10gb"));
    CHECK(!dlp_mig_recommend(a, 4654, 0.1, 0, 0, &c));        /* 4654 x 1.1 = 5119.4 */
    CHECK(c.profile && !strcmp(c.profile->name, "1g.5gb"));
    CHECK(!dlp_mig_recommend(a, 4655, 0.1, 0, 0, &c));        /* 5120.5 > 5120 */
    CHECK(c.profile && !strcmp(c.profile->name, "2g.10gb"));
    CHECK(!dlp_mig_recommend(a, 15000, 0, 0, 0, &c));         /* 3g.20gb before 4g.20gb */
    CHECK(c.profile && !strcmp(c.profile->name, "3g.20gb"));
    CHECK(!dlp_mig_recommend(a, 40961, 0, 0, 0, &c));
    CHECK(!c.profile && c.index == -1);
    CHECK(!dlp_mig_recommend(h, 10241, 0, 0, 0, &c));         /* 1g.20gb: less compute */
    CHECK(c.profile && !strcmp(c.profile->name, "1g.20gb"));
    /* SLO: 10 ms on the full GPU -> 1g: 70 ms, 2g: 35 ms; SLO 40 ms -> 2g.10gb */
    CHECK(!dlp_mig_recommend(a, 1000, 0, 10, 40, &c));
    CHECK(c.profile && !strcmp(c.profile->name, "2g.10gb"));
    CHECK_NEAR(c.latency_ms, 35, 1e-9);
}

/* dlp_predict hands memory_mb, the default 10% margin and the full-GPU
 * latency to the MIG rule. */
static void t_mig_from_predict(void) {
    gemm_graph(256, 256, 256, 1, 1);
    CHECK(!fin());
    dlp_predict_opts o = {.latency_slo_ms = 1000};
    CHECK(!predict("a100-40gb", &o));
    CHECK_NEAR(P.mig_margin, 0.10, 0);
    CHECK_NEAR(P.mig.need_mb, P.memory_mb * 1.1, 1e-9);
    CHECK(P.mig.profile && !strcmp(P.mig.profile->name, "1g.5gb"));
    CHECK_I64(P.mig.n_fit, 5);
    CHECK_NEAR(P.mig.fit[0].latency_ms, P.latency_ms * 7, 1e-9);
    o.mig_margin = -1;                                          /* DIPPM's rule */
    CHECK(!predict("a100-40gb", &o));
    CHECK_NEAR(P.mig.need_mb, P.memory_mb, 1e-9);
    CHECK(!predict("t4", &o));                                  /* no MIG: an answer */
    CHECK(!P.mig.profile && P.mig.n_fit == 0);
}

/* ---- memory --------------------------------------------------------------------- */

/* X(8,16) -> Gemm(W 16x32, B 32) -> Y(8,32) -> Relu -> Z, fp32, A100.
 * Inference: x 512 B (held by the caller) + y 1024 + z 1024 live at the Relu
 * = 2560 B; weights (512 + 32) x 4 = 2176 B; cuBLAS workspace 8.125 MiB;
 * context 512 MiB + 10% of the tensors. */
static void t_inference_memory_tiny(void) {
    gemm_graph(8, 16, 32, 1, 1);
    CHECK(!fin());
    CHECK(!predict("a100-40gb", NULL));
    CHECK_NEAR(P.weights_mb * MIB, 2176, 1e-6);
    CHECK_NEAR(P.activations_mb * MIB, 2560, 1e-6);
    CHECK_NEAR(P.gradients_mb, 0, 0);
    CHECK_NEAR(P.optimizer_mb, 0, 0);
    CHECK_NEAR(P.workspace_mb, 8.125, 1e-9);
    double tensors = 2176 + 2560 + 8.125 * MIB;
    CHECK_NEAR(P.context_mb, 512 + 0.1 * tensors / MIB, 1e-9);
    CHECK_NEAR(P.memory_mb, (2176 + 2560) / MIB + 8.125 + 512 + 0.1 * tensors / MIB, 1e-9);
    /* H100 (compute capability 9.0): 32 MiB cuBLAS workspace */
    CHECK(!predict("h100-sxm", NULL));
    CHECK_NEAR(P.workspace_mb, 32, 1e-9);
    /* fp16: every float tensor halves */
    dlp_predict_opts o = {.dtype = DLP_DT_FLOAT16};
    CHECK(!predict("a100-40gb", &o));
    CHECK_NEAR(P.weights_mb * MIB, 1088, 1e-6);
    CHECK_NEAR(P.activations_mb * MIB, 1280, 1e-6);
}

/* The same graph, training with Adam, fp32:
 *   weights   544 params x 4 B (fp32 master)            = 2176
 *   gradients 544 x 4                                    = 2176
 *   optimizer 544 x 8 (two moments)                      = 4352
 *   activations: what the backward reads: the Gemm its input x (512, a
 *                graph input), the Relu its output z (1024); y is read by
 *                no backward kernel; plus two gradient buffers of the
 *                largest activation 2 x 1024 = 512 + 1024 + 2048 = 3584
 *   context 512 MiB + 3 % of the tensors (a training step's allocator share)
 * SGD with momentum keeps 4 B/param, plain SGD none; fp16 (autocast) adds
 * the 2 B/param cast cache to the weights. */
static void t_train_memory_tiny(void) {
    gemm_graph(8, 16, 32, 1, 1);
    CHECK(!fin());
    dlp_predict_opts o = {.mode = DLP_PREDICT_TRAIN};
    CHECK(!predict("a100-40gb", &o));
    CHECK_NEAR(P.weights_mb * MIB, 2176, 1e-6);
    CHECK_NEAR(P.gradients_mb * MIB, 2176, 1e-6);
    CHECK_NEAR(P.optimizer_mb * MIB, 4352, 1e-6);
    CHECK_NEAR(P.activations_mb * MIB, 3584, 1e-6);
    CHECK_NEAR(P.workspace_mb, 8.125, 1e-9);
    double tensors = 2176 + 2176 + 4352 + 3584 + 8.125 * MIB;
    CHECK_NEAR(P.context_mb, 512 + 0.03 * tensors / MIB, 1e-9);
    CHECK_NEAR(P.memory_mb, tensors / MIB + 512 + 0.03 * tensors / MIB, 1e-9);
    o.optimizer = DLP_OPTIM_SGD_MOMENTUM;
    CHECK(!predict("a100-40gb", &o));
    CHECK_NEAR(P.optimizer_mb * MIB, 2176, 1e-6);
    o.optimizer = DLP_OPTIM_SGD;
    CHECK(!predict("a100-40gb", &o));
    CHECK_NEAR(P.optimizer_mb, 0, 0);
    o.optimizer = DLP_OPTIM_ADAM;
    o.dtype = DLP_DT_FLOAT16;
    CHECK(!predict("a100-40gb", &o));
    CHECK_NEAR(P.weights_mb * MIB, 2176 + 1088, 1e-6);
    CHECK_NEAR(P.gradients_mb * MIB, 2176, 1e-6);
    CHECK_NEAR(P.activations_mb * MIB, 256 + 512 + 2 * 512, 1e-6);
}

/* Training step of the same graph, pure roofline, fp32, A100, 5 us/kernel:
 *   fwd  Gemm  FLOPs 2*8*16*32 + 8*32 = 8448, bytes 512+2048+128+1024 = 3712
 *        Relu  FLOPs 256, bytes 2048
 *   bwd  Gemm  x is a graph input: no data gradient; the weight gradient
 *              kernel: 8448 FLOPs, 3712 bytes
 *        Relu  one kernel, 256 FLOPs, 1.5 x 2048 = 3072 bytes
 *   Adam 544 params x 28 B = 15232 bytes, one foreach kernel (2 tensors)
 * every kernel memory-bound: sum(bytes)/bw + 5 x 5 us. */
static void t_train_time_tiny(void) {
    gemm_graph(8, 16, 32, 1, 1);
    CHECK(!fin());
    dlp_predict_opts o = {.mode = DLP_PREDICT_TRAIN, .pure_roofline = 1};
    CHECK(!predict("a100-40gb", &o));
    double fwd = (3712 + 2048) / A100_BW + 2 * LAUNCH;
    double step = (3712 + 2048 + 3712 + 3072 + 15232) / A100_BW + 5 * LAUNCH;
    CHECK_NEAR(P.latency_ms, 1e3 * fwd, 1e-12);
    CHECK_NEAR(P.step_ms, 1e3 * step, 1e-12);
    CHECK_I64(P.kernels, 5);
    /* no symbolic batch was bound and none given: batch 1 */
    CHECK_I64(P.batch, 1);
    CHECK_NEAR(P.throughput_sps, 1 / step, 1e-6);
    o.batch = 8;
    CHECK(!predict("a100-40gb", &o));
    CHECK_NEAR(P.throughput_sps, 8 / step, 1e-6);
}

/* ---- fusion ---------------------------------------------------------------------- */

/* Gemm -> Relu with --fuse: the Relu runs in the Gemm's epilogue: one
 * kernel doing both FLOPs, no Relu traffic. */
static void t_fuse_epilogue(void) {
    gemm_graph(8, 16, 32, 1, 1);
    CHECK(!fin());
    dlp_predict_opts o = {.pure_roofline = 1, .fuse = 1};
    CHECK(!predict("a100-40gb", &o));
    CHECK_I64(P.kernels, 1);
    CHECK_I64(P.nodes[1].kernels, 0);
    CHECK_I64(P.nodes[1].fused_into, 0);
    CHECK_I64(P.nodes[0].fused_into, -1);
    CHECK_NEAR(P.nodes[0].flops, 8448 + 256, 0);
    CHECK_NEAR(P.nodes[0].bytes, 3712, 0);
    CHECK_NEAR(P.latency_ms, 1e3 * (3712 / A100_BW + LAUNCH), 1e-12);
    /* residual: Gemm -> Add(y, r) -> Relu: the Add's other input is read by the
     * fused kernel (1024 B more) */
    fresh();
    int x = in_("x", 2, D(8, 16)), r = in_("r", 2, D(8, 32)), w = w_("w", 2, D(16, 32));
    int y = val_("y"), s = val_("s");
    node_("gemm", "Gemm", 2, (int[]){x, w}, y);
    node_("add", "Add", 2, (int[]){y, r}, s);
    node_("relu", "Relu", 1, &s, out_("z"));
    CHECK(!fin());
    CHECK(!predict("a100-40gb", &o));
    CHECK_I64(P.kernels, 1);
    CHECK_NEAR(P.nodes[0].bytes, 512 + 2048 + 1024 + 1024, 0);
    CHECK_NEAR(P.nodes[0].flops, 8192 + 256 + 256, 0);
    /* without --fuse: three kernels */
    o.fuse = 0;
    CHECK(!predict("a100-40gb", &o));
    CHECK_I64(P.kernels, 3);
}

/* ---- errors and the chart ------------------------------------------------------------ */

static void t_bad_options(void) {
    gemm_graph(8, 16, 32, 0, 0);
    CHECK(!fin());
    dlp_prediction_clear(&P);
    dlp_predict_opts o = {.dtype = DLP_DT_DOUBLE};
    CHECK_I64(dlp_predict(G, dev("a100-40gb"), DB, &o, &P, &E), DLP_EINVAL);
    CHECK(strstr(E.msg, "dtype") != NULL);
    dlp_predict_opts t = {.mode = DLP_PREDICT_TRAIN, .dtype = DLP_DT_INT8};
    CHECK_I64(dlp_predict(G, dev("a100-40gb"), DB, &t, &P, &E), DLP_EINVAL);
    dlp_predict_opts m = {.mode = 7};
    CHECK_I64(dlp_predict(G, dev("a100-40gb"), DB, &m, &P, &E), DLP_EINVAL);
    CHECK_I64(dlp_predict(NULL, dev("a100-40gb"), DB, NULL, &P, &E), DLP_EINVAL);
    CHECK_I64(dlp_predict(G, NULL, DB, NULL, &P, &E), DLP_EINVAL);
    CHECK(P.nodes == NULL);
    /* NULL database: the built-in one */
    CHECK_I64(dlp_predict(G, dev("a100-40gb"), NULL, NULL, &P, &E), DLP_OK);
    CHECK_NEAR(P.g_per_kwh, 475, 0);
    dlp_prediction_clear(&P);
    dlp_prediction_clear(NULL);
}

static void t_svg_chart(void) {
    gemm_graph(512, 512, 512, 1, 1);
    CHECK(!fin());
    CHECK(!predict("a100-40gb", NULL));
    char *buf = NULL;
    size_t len = 0;
    CHECK(!dlp_roofline_svg_mem(&P, dev("a100-40gb"), &buf, &len, &E));
    CHECK(buf && len == strlen(buf));
    if (buf) {
        CHECK(!strncmp(buf, "<?xml", 5));
        CHECK(strstr(buf, "<svg xmlns=\"http://www.w3.org/2000/svg\"") != NULL);
        CHECK(strstr(buf, "FP32 vector") != NULL);
        CHECK(strstr(buf, "TF32 tensor") != NULL);   /* fp32: convs' ceiling */
        CHECK(strstr(buf, "<circle") != NULL);
        CHECK(strstr(buf, "</svg>") != NULL);
    }
    free(buf);
    CHECK_I64(dlp_roofline_svg_mem(NULL, dev("a100-40gb"), &buf, &len, &E), DLP_EINVAL);
    char path[] = "/tmp/dlp_test_roofline_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0 && !dlp_roofline_svg(&P, dev("a100-40gb"), path, &E));
    FILE *f = fopen(path, "rb");
    if (f) {
        fseek(f, 0, SEEK_END);
        CHECK(ftell(f) > 1000);
        fclose(f);
    }
    if (fd >= 0) close(fd), unlink(path);
}

/* ---- CPU and learned models (docs/learned.md) -------------------------------------- */

/* The tiny Gemm+Relu training step on the CPU, analytic (no learned model):
 * the same kernels and bytes as t_train_time_tiny, every one memory-bound
 * at 28.2 GB/s (the Gemm: 8448 FLOP / 166.1 GFLOP/s = 0.05 us < 3712 B /
 * 28.2 GB/s = 0.13 us), 67 us of eager dispatch per op; memory = tensors +
 * the 148.7 MiB process base, no workspace, no allocator overhead. */
static void t_cpu_tiny_analytic(void) {
    gemm_graph(8, 16, 32, 1, 1);
    CHECK(!fin());
    dlp_predict_opts o = {.mode = DLP_PREDICT_TRAIN, .no_learned = 1};
    CHECK(!predict("cpu-amd-epyc-2c", &o));
    double fwd = (3712 + 2048) / CPU_BW + 2 * CPU_DISPATCH;
    double step = (3712 + 2048 + 3712 + 3072 + 15232) / CPU_BW + 5 * CPU_DISPATCH;
    CHECK_NEAR(P.latency_ms, 1e3 * fwd, 1e-9);
    CHECK_NEAR(P.step_ms, 1e3 * step, 1e-9);
    CHECK_NEAR(P.nodes[0].peak_flops, CPU_FP32, 1);
    CHECK_I64(P.nodes[0].tensor_core, 0);
    CHECK_NEAR(P.workspace_mb, 0, 0);
    CHECK_NEAR(P.context_mb, CPU_BASE_MIB, 0);
    CHECK_NEAR(P.memory_mb * MIB, 2176 + 3584 + 2176 + 4352 + CPU_BASE_MIB * MIB, 1e-6);
    CHECK_STR(P.method, "roofline-cpu");
    CHECK_I64(P.device_kind, DLP_DEVICE_CPU);
    CHECK_I64(P.energy_known, 0);
    CHECK(isnan(P.energy_j) && isnan(P.power_w) && isnan(P.co2_g) && isnan(P.energy_kwh));
    CHECK_NEAR(P.band_hi_ms, 0, 0);
    CHECK_STR(P.mig.reason, "none (CPU)");
    CHECK_I64(P.mig.index, -1);
    CHECK_I64(P.time_src.learned, 0);
    CHECK_NEAR(P.time_src.analytic, P.step_ms, 0);
    /* an explicit overhead still wins */
    o.launch_us = 10;
    CHECK(!predict("cpu-amd-epyc-2c", &o));
    CHECK_NEAR(P.step_ms, 1e3 * ((3712 + 2048 + 3712 + 3072 + 15232) / CPU_BW + 5 * 10e-6), 1e-9);
    /* the GPU path keeps energy */
    o.launch_us = 0;
    CHECK(!predict("a100-40gb", &o));
    CHECK_I64(P.energy_known, 1);
    CHECK(P.energy_j > 0);
}

/* A shipped model for (cpu-amd-epyc-2c, train) in data/models/learned/:
 * its file name, or "" when none is shipped. */
static void shipped_train_model(char *name, size_t cap) {
    name[0] = 0;
    DIR *dir = opendir("data/models/learned");
    if (!dir) return;
    struct dirent *de;
    while ((de = readdir(dir)))
        if (!strncmp(de->d_name, "cpu-amd-epyc-2c--train--", 24) && strlen(de->d_name) > 29 &&
            !strcmp(de->d_name + strlen(de->d_name) - 5, ".dlpm") && (!name[0] || strcmp(de->d_name, name) < 0))
            snprintf(name, cap, "%s", de->d_name);
    closedir(dir);
}

/* Bundle image of records (name, bytes) in learned.h's format. */
static unsigned char *bundle(size_t *len, int n, const char *const *names, const void *const *data,
                             const size_t *sizes) {
    size_t cap = 64;
    for (int i = 0; i < n; i++) cap += 64 + strlen(names[i]) + sizes[i];
    unsigned char *b = malloc(cap);
    size_t off = 0;
    for (int i = 0; b && i < n; i++) {
        off += (size_t)sprintf((char *)b + off, "DLPL %s %zu\n", names[i], sizes[i]);
        memcpy(b + off, data[i], sizes[i]);
        off += sizes[i];
    }
    *len = off;
    return b;
}

static void *slurp_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *b = n > 0 ? malloc((size_t)n) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) free(b), b = NULL;
    fclose(f);
    *len = b ? (size_t)n : 0;
    return b;
}

/* Train mode on the CPU with the shipped model: the step time is what
 * dlp_gnn_predict gives on the graph's features (an independent call), the
 * analytic number is kept, --no-learned gives it back, a GPU is unaffected;
 * then the registry rules on hand-made bundles: one file per target, a
 * corrupted file (skipped with a note), a badly named file (ignored). */
static void t_learned_cpu_train(void) {
    char name[256];
    shipped_train_model(name, sizeof name);
    dlp_graph *g = NULL;
    dlp_load_opts lo = {.batch = 8};
    dlp_error e = {0};
    CHECK(dlp_graph_load("examples/resnet18.onnx", &lo, &g, &e) == DLP_OK);
    if (!g) return;
    const dlp_device *cpu = dev("cpu-amd-epyc-2c"), *gpu = dev("a100-40gb");
    dlp_predict_opts o = {.mode = DLP_PREDICT_TRAIN};
    dlp_prediction p, pa;
    CHECK(dlp_predict(g, cpu, DB, &o, &p, &e) == DLP_OK);
    o.no_learned = 1;
    CHECK(dlp_predict(g, cpu, DB, &o, &pa, &e) == DLP_OK);
    CHECK_I64(pa.time_src.learned, 0);
    CHECK_I64(pa.memory_src.learned, 0);
    CHECK_STR(pa.learned_note, "");
    CHECK_NEAR(p.time_src.analytic, pa.step_ms, 1e-9 * pa.step_ms);
    CHECK_NEAR(p.memory_src.analytic, pa.memory_mb, 1e-9 * pa.memory_mb);

    dlp_gnn *m = NULL;
    void *img = NULL;
    size_t img_len = 0;
    int k_step = -1, k_mem = -1;
    if (!name[0]) {
        fprintf(stderr, "  no shipped cpu-amd-epyc-2c train model: learned checks on the built-in set skipped\n");
        CHECK_I64(p.time_src.learned, 0);
        CHECK_NEAR(p.step_ms, pa.step_ms, 0);
    } else {
        char path[512];
        snprintf(path, sizeof path, "data/models/learned/%s", name);
        CHECK(dlp_gnn_load(path, &m, &e) == DLP_OK);
        img = slurp_file(path, &img_len);
        CHECK(img != NULL);
    }
    if (m) {
        for (int k = 0; k < dlp_gnn_target_count(m); k++) {
            if (!strcmp(dlp_gnn_target_at(m, k), "step_ms")) k_step = k;
            if (!strcmp(dlp_gnn_target_at(m, k), "memory_mb")) k_mem = k;
        }
        dlp_gnn_info in;
        dlp_gnn_info_get(m, &in);
        dlp_features *f = NULL;
        CHECK(dlp_features_build(g, in.layout, &f, &e) == DLP_OK);
        float y[16] = {0};
        CHECK(f && dlp_gnn_target_count(m) <= 16 && dlp_gnn_predict(m, f, y, &e) == DLP_OK);
        dlp_features_free(f);
        if (k_step >= 0) {
            CHECK_I64(p.time_src.learned, 1);
            CHECK_STR(p.time_src.model, name);
            CHECK(p.time_src.accuracy[0] != 0);
            CHECK(isfinite(p.step_ms) && p.step_ms > 0);
            CHECK_NEAR(p.step_ms, (double)y[k_step], 0);
            CHECK_NEAR(p.throughput_sps, 8 / (y[k_step] / 1e3), 1e-9 * p.throughput_sps);
            CHECK_NEAR(p.latency_ms, pa.latency_ms, 0);    /* forward stays analytic */
        }
        if (k_mem >= 0) {
            CHECK_I64(p.memory_src.learned, 1);
            CHECK_NEAR(p.memory_mb, (double)y[k_mem], 0);
            CHECK_NEAR(p.weights_mb, pa.weights_mb, 0);    /* breakdown analytic */
        }
    }
    dlp_prediction_clear(&p);
    dlp_prediction_clear(&pa);

    /* a GPU: no model, same numbers with and without learned models */
    o.no_learned = 0;
    CHECK(dlp_predict(g, gpu, DB, &o, &p, &e) == DLP_OK);
    o.no_learned = 1;
    CHECK(dlp_predict(g, gpu, DB, &o, &pa, &e) == DLP_OK);
    CHECK_I64(p.time_src.learned + p.memory_src.learned, 0);
    CHECK_NEAR(p.step_ms, pa.step_ms, 0);
    CHECK_NEAR(p.memory_mb, pa.memory_mb, 0);
    CHECK_STR(p.learned_note, "");
    dlp_prediction_clear(&p);
    dlp_prediction_clear(&pa);

    if (m && img && k_step >= 0 && k_mem >= 0) {
        /* the same model shipped as a memory-only file: the time stays analytic;
         * a corrupted copy first in name order is skipped with a note;
         * a name without the three parts is ignored */
        unsigned char *bad = malloc(img_len);
        memcpy(bad, img, img_len);
        bad[img_len / 2] ^= 0x55;
        const char *names[4] = {"cpu-amd-epyc-2c--train--a.dlpm", "cpu-amd-epyc-2c--train--memory_mb.dlpm",
                                "cpu-amd-epyc-2c--train--memory_mb.txt", "oops.dlpm"};
        const void *data[4] = {bad, img, "measured: 1 % (test)\nsecond line", img};
        size_t sizes[4] = {img_len, img_len, 31, img_len};
        size_t blen;
        unsigned char *b = bundle(&blen, 4, names, data, sizes);
        dlp__learned_set set;
        dlp__learned_parse(b, blen, &set);
        CHECK_I64(set.n, 3);
        /* names only: a corrupt model still counts (apply notes why it is skipped) */
        CHECK_I64(dlp__learned_bundle_has(b, blen, "cpu-amd-epyc-2c", DLP_PREDICT_TRAIN), 1);
        CHECK_I64(dlp__learned_bundle_has(b, blen, "cpu-amd-epyc-2c", DLP_PREDICT_INFER), 0);
        CHECK_I64(dlp__learned_bundle_has(b, blen, "h100-sxm", DLP_PREDICT_TRAIN), 0);
        CHECK_I64(dlp__learned_bundle_has(b, blen - 1, "cpu-amd-epyc-2c", DLP_PREDICT_TRAIN), 1);
        CHECK_I64(dlp__learned_bundle_has(NULL, 0, "cpu-amd-epyc-2c", DLP_PREDICT_TRAIN), 0);
        if (set.n == 3) {
            CHECK(set.e[0].model == NULL && set.e[0].error[0]);
            CHECK(set.e[1].model != NULL);
            CHECK_STR(set.e[1].target, "memory_mb");
            CHECK_STR(set.e[1].accuracy, "measured: 1 % (test)");
            CHECK_I64(set.e[2].mode, -1);
        }
        o.no_learned = 0;
        CHECK(dlp__predict_analytic(g, cpu, &(dlp_predict_opts){.mode = DLP_PREDICT_TRAIN,
                                    .launch_us = DLP_PREDICT_CPU_DISPATCH_US, .pure_roofline = 1}, &p, &e) == DLP_OK);
        dlp__predict_cpu_finish(cpu, &o, &p);
        double analytic_step = p.step_ms;
        dlp__learned_apply(&set, g, cpu, &o, &p);
        CHECK_I64(p.time_src.learned, 0);
        CHECK_NEAR(p.step_ms, analytic_step, 0);
        CHECK_I64(p.memory_src.learned, 1);
        CHECK_STR(p.memory_src.model, "cpu-amd-epyc-2c--train--memory_mb.dlpm");
        CHECK(strstr(p.learned_note, "skipped cpu-amd-epyc-2c--train--a.dlpm") != NULL);
        dlp_prediction_clear(&p);
        /* inference mode: no model for it in this set */
        CHECK(dlp__predict_analytic(g, cpu, &(dlp_predict_opts){.launch_us = 1}, &p, &e) == DLP_OK);
        dlp__learned_apply(&set, g, cpu, &(dlp_predict_opts){0}, &p);
        CHECK_I64(p.time_src.learned + p.memory_src.learned, 0);
        dlp_prediction_clear(&p);
        dlp__learned_set_free(&set);
        free(b);
        free(bad);
    }
    /* an empty bundle and garbage: no entries, no crash */
    dlp__learned_set set;
    dlp__learned_parse((const unsigned char *)"", 0, &set);
    CHECK_I64(set.n, 0);
    dlp__learned_parse((const unsigned char *)"DLPL x.dlpm 99999\nabc", 21, &set);
    CHECK_I64(set.n, 0);
    dlp__learned_set_free(&set);
    free(img);
    dlp_gnn_free(m);
    dlp_graph_free(g);
}

int main(void) {
    dlp_error e = {0};
    if (dlp_devdb_load(NULL, &DB, &e)) {
        fprintf(stderr, "devdb: %s\n", e.msg);
        return 1;
    }
    RUN(t_gemm_4096_fp16_h100);
    RUN(t_gemm_tiny_launch_bound);
    RUN(t_node_peaks);
    RUN(t_elementwise_memory_bound);
    RUN(t_dvfs_power_cap_l4);
    RUN(t_dvfs_max_q_worked_example);
    RUN(t_mem_power);
    RUN(t_calibrated_curve);
    RUN(t_views_free);
    RUN(t_cost_thesis_5_6_4);
    RUN(t_carbon_arithmetic);
    RUN(t_cost_carbon_predict);
    RUN(t_mig_dippm_table5);
    RUN(t_mig_boundaries);
    RUN(t_mig_from_predict);
    RUN(t_inference_memory_tiny);
    RUN(t_train_memory_tiny);
    RUN(t_train_time_tiny);
    RUN(t_fuse_epilogue);
    RUN(t_bad_options);
    RUN(t_svg_chart);
    RUN(t_cpu_tiny_analytic);
    RUN(t_learned_cpu_train);
    dlp_prediction_clear(&P);
    dlp_graph_free(G);
    dlp_devdb_free(DB);
    return TAP_DONE();
}
