/*
 * test_tc_rate.c — half-precision tensor-core GEMMs on GPUs whose SMs run
 * fewer tensor FLOP per clock than the half curve's fit GPUs (roofline.c,
 * tc_rate_setup; docs/predict.md, "Tensor-core tile overhead").
 *
 * Every expected number is worked out here from data/devices.json values
 * typed in as literals and the half GEMM curve's four constants
 * (src/predict/curves_table.inc: a 0.487640, b -0.100340, c 0.042715,
 * d 0), so a change of the rule, the database or the curve fails:
 *
 *   ratio r = exp(a + b u + c v), u = log10(roofline / 1 us),
 *   v = log10(intensity / (peak / bandwidth)).
 *   Tile overhead o = 0.199 of the math cycles at Fref = 2048 FLOP per
 *   clock per SM (A100); a GPU at F < Fref: floor = 1 + o F / Fref,
 *   scale = floor / (1 + o); compute side r x scale, never under floor.
 */
#include <math.h>
#include <string.h>

#include "graph/graph.h"
#include "predict/roofline.h"
#include "predict/predict.h"
#include "tap.h"

#define D(...) ((const int64_t[]){__VA_ARGS__})

/* the half GEMM curve (curves_table.inc) */
#define CA 0.487640
#define CB -0.100340
#define CC 0.042715

static dlp_devdb *DB;
static dlp_graph *G;
static dlp_error E;
static dlp_prediction P;

/* Y = X(M,K) x W(K,N): one Gemm node */
static int gemm_graph(int64_t m, int64_t k, int64_t n) {
    dlp_graph_free(G);
    G = dlp__graph_new("t");
    G->opset = 17;
    int x = dlp__graph_add_value(G, "x", DLP_DT_FLOAT, 2, D(m, k));
    dlp__graph_mark_input(G, x);
    int w = dlp__graph_add_weight(G, "w", DLP_DT_FLOAT, 2, D(k, n));
    int y = dlp__graph_add_value(G, "y", 0, -1, NULL);
    dlp__graph_mark_output(G, y);
    int in[2] = {x, w};
    dlp__graph_add_node(G, "gemm", "Gemm", "", 2, in, 1, &y);
    memset(&E, 0, sizeof E);
    return dlp__graph_finalize(G, NULL, &E);
}

/* the GEMM's row of the kernel list (autocast adds cast kernels) */
static const dlp_kernel_pred *gemm_row(const char *dev_id, int dtype) {
    dlp_prediction_clear(&P);
    const dlp_device *d = dlp_devdb_find(DB, dev_id);
    CHECK(d != NULL);
    if (!d) return NULL;
    dlp_predict_opts o = {.dtype = dtype, .no_learned = 1};
    memset(&E, 0, sizeof E);
    if (dlp_predict(G, d, DB, &o, &P, &E)) {
        fprintf(stderr, "  predict %s: %s\n", dev_id, E.msg);
        return NULL;
    }
    for (int i = 0; i < P.n_kernel_rows; i++)
        if (P.kernel_rows[i].kclass == DLP_KC_GEMM) return &P.kernel_rows[i];
    return NULL;
}

static double curve_ratio(double flops, double bytes, double peak, double bw) {
    double roof = fmax(flops / peak, bytes / bw);
    double u = log10(roof / 1e-6), v = log10((flops / bytes) / (peak / bw));
    return exp(CA + CB * u + CC * v);
}

/* 8192^3 fp16 GEMM on the RTX 3090 (71 TFLOP/s fp16 tensor with fp32
 * accumulation, 82 SMs, 1695 MHz, 936 GB/s):
 *   F = 71e12 / (82 x 1.695e9) = 510.82 FLOP/clk/SM, F / 2048 = 0.249424
 *   floor = 1 + 0.199 x 0.249424 = 1.049635, scale = 1.049635 / 1.199 = 0.875425
 *   flops 2 x 8192^3 = 1.09951e12 -> 15.486 ms; bytes 3 x 8192^2 x 2 = 402.65 MB
 *   -> 0.430 ms: compute-bound.  u = 4.190, v = log10(2730.7 / 75.855) = 1.5563
 *   r = exp(0.487640 - 0.420406 + 0.066477) = 1.1433; r x scale = 1.0009 <
 *   floor: the kernel runs at the floor, 15.486 x 1.049635 = 16.255 ms
 *   (0.953 of peak; the curve alone said 1.1433, 0.875). */
static void t_rtx3090_long_gemm_at_tile_floor(void) {
    CHECK(!gemm_graph(8192, 8192, 8192));
    const dlp_kernel_pred *r = gemm_row("rtx3090", DLP_DT_FLOAT16);
    CHECK(r != NULL);
    if (!r) return;
    double f = 2.0 * 8192 * 8192 * 8192, b = 3.0 * 8192 * 8192 * 2;
    CHECK_NEAR(r->flops, f, 0.5);
    CHECK_NEAR(r->bytes, b, 0.5);
    CHECK_NEAR(curve_ratio(f, b, 71e12, 936e9), 1.1433, 5e-4);
    CHECK_NEAR(r->ratio, 1.049635, 1e-5);
    CHECK_NEAR(r->kernel_ms, 1e3 * f / 71e12 * 1.049635, 1e-3);
}

/* The same GEMM in bf16 on the L4 (121 TFLOP/s, 58 SMs, 2040 MHz, 300 GB/s):
 *   F = 121e12 / (58 x 2.04e9) = 1022.65, F / 2048 = 0.499341
 *   floor = 1 + 0.199 x 0.499341 = 1.099369, scale = 0.916905
 *   roofline 1.09951e12 / 121e12 = 9.0869 ms (bytes: 1.342 ms), u = 3.9584,
 *   v = log10(2730.7 / 403.33) = 0.83061; r = exp(0.487640 - 0.397186 +
 *   0.035480) = 1.1342; r x scale = 1.0399 < floor 1.099369. */
static void t_l4_half_rate_gemm(void) {
    CHECK(!gemm_graph(8192, 8192, 8192));
    const dlp_kernel_pred *r = gemm_row("l4", DLP_DT_BFLOAT16);
    CHECK(r != NULL);
    if (!r) return;
    CHECK_NEAR(curve_ratio(r->flops, r->bytes, 121e12, 300e9), 1.1342, 5e-4);
    /* the L4 (72 W) may clock down under its cap (DVFS), which stretches
     * the time, never below the tile floor */
    CHECK(r->ratio >= 1.099369 - 1e-5);
    if (P.power_w < 71.9) CHECK_NEAR(r->ratio, 1.099369, 1e-5);
}

/* On the A100 (the reference, 312 TFLOP/s, 108 SMs, 1410 MHz: F = 2049 >=
 * 2048) the curve stands: roofline 1.09951e12 / 312e12 = 3.5241 ms, u =
 * 3.54704, v = log10(2730.7 / 153.01) = 1.25154; r = exp(0.487640 -
 * 0.355910 + 0.053460) = 1.20347. */
static void t_a100_keeps_the_curve(void) {
    CHECK(!gemm_graph(8192, 8192, 8192));
    const dlp_kernel_pred *r = gemm_row("a100-80gb", DLP_DT_BFLOAT16);
    CHECK(r != NULL);
    if (!r) return;
    CHECK_NEAR(r->ratio, 1.20347, 2e-4);
}

/* A memory-bound half GEMM on the RTX 3090 keeps the curve: its loss is
 * DRAM efficiency, not tile cycles.  M 65536, K = N = 64: flops
 * 2 x 65536 x 64 x 64 = 536.87e6 -> 7.56 us; bytes (65536 x 64 x 2 + 64 x 64)
 * x 2 = 16.785 MB -> 17.933 us: memory-bound.  u = log10(17.933) = 1.25366,
 * v = log10(31.985 / 75.855) = -0.37505; r = exp(0.487640 - 0.125792 -
 * 0.016020) = 1.41326. */
static void t_rtx3090_memory_bound_keeps_the_curve(void) {
    CHECK(!gemm_graph(65536, 64, 64));
    const dlp_kernel_pred *r = gemm_row("rtx3090", DLP_DT_FLOAT16);
    CHECK(r != NULL);
    if (!r) return;
    CHECK_I64(r->bound, 'm');
    CHECK_NEAR(r->bytes, (65536.0 * 64 * 2 + 64 * 64) * 2, 0.5);
    CHECK_NEAR(r->ratio, 1.41326, 2e-4);
}

/* fp32 on the RTX 3090 is not a half tensor-core GEMM: unchanged (the
 * vector units; the wave model or the fp32 curve, never under 1) and not
 * at the half floor */
static void t_fp32_untouched(void) {
    CHECK(!gemm_graph(8192, 8192, 8192));
    const dlp_kernel_pred *r = gemm_row("rtx3090", DLP_DT_FLOAT);
    CHECK(r != NULL);
    if (!r) return;
    CHECK_I64(r->tensor_core, 0);
    CHECK(fabs(r->ratio - 1.049635) > 1e-3);
}

int main(void) {
    if (dlp_devdb_load(NULL, &DB, &E) != DLP_OK) {
        fprintf(stderr, "devdb: %s\n", E.msg);
        return 1;
    }
    RUN(t_rtx3090_long_gemm_at_tile_floor);
    RUN(t_l4_half_rate_gemm);
    RUN(t_a100_keeps_the_curve);
    RUN(t_rtx3090_memory_bound_keeps_the_curve);
    RUN(t_fp32_untouched);
    dlp_prediction_clear(&P);
    dlp_graph_free(G);
    dlp_devdb_free(DB);
    return TAP_DONE();
}
