/* test_waves.c — GEMM kernels as waves of CTA tiles over the SMs
 * (src/predict/waves.c; docs/predict.md, "Tiles and waves").  Golden values
 * are worked by hand in the comments, on a made-up GPU whose numbers are
 * round: 100 SMs of 64 FP32 lanes at 1 GHz (peak 100 x 64 x 2 x 1e9 =
 * 12.8 TFLOP/s, 128 GFLOP/s per SM), DRAM 1 TB/s. */
#include <math.h>
#include <string.h>

#include "graph/graph.h"
#include "predict/waves.h"
#include "predict/curves.h"
#include "predict/roofline.h"
#include "tap.h"

static dlp_device gpu(int sms) {
    dlp_device d;
    memset(&d, 0, sizeof d);
    d.id = "test";
    d.sm_count = sms;
    d.fp32_cores_per_sm = 64;
    d.boost_clock_mhz = 1000;
    return d;
}

#define PEAK(sms) ((sms) * 64 * 2 * 1e9)
#define BW 1e12

/* Tail wave and tile choice.  e = 1 for every tile (e_max 1, ai0 = k0 = 0,
 * lane_g 0), L2 path 8 B/clk/SM.  C[1280 x 1408] with K = 4096, fp32:
 * per tile, compute 2 tm tn K / 128e9 s and L2 (tm + tn) K 4 / 8e9 s:
 *   128x128: 10 x 11 = 110 tiles, 2 on the busiest SM (the tail wave has 10
 *            tiles on 100 SMs); compute 1048.576 us > L2 262.144 -> 2097.152 us
 *   128x64 : 220 tiles, 3 per SM; 524.288 > 393.216 -> 1572.864 us
 *   128x32 : 440 tiles, 5; L2 327.68 > 262.144 -> 1638.4 us
 *   64x64  : 20 x 22 = 440 tiles, 5; 262.144 = 262.144 -> 1310.72 us
 *   64x32  : 880, 9; L2 196.608 > 131.072 -> 1769.472 us
 *   32x32  : 1760, 18; L2 131.072 > 65.536 -> 2359.296 us
 * so 64x64 wins: 1310.72 us, 4.4 waves; DRAM (1280 x 4096 + 4096 x 1408 +
 * 1280 x 1408) x 4 B = 51,249,152 B = 51.249 us is far below. */
static void t_tail_wave(void) {
    dlp_device d = gpu(100);
    dlp__wave_params p = {1, 0, 0, 8, 0, 0};
    dlp__gemm_shape s = {1, 1280, 1408, 4096, 4, 0};
    dlp__wave_info w;
    double t = dlp__wave_gemm_time(&p, &d, PEAK(100), BW, &s, &w);
    CHECK_NEAR(t, 1310.72e-6, 1e-9);
    CHECK_I64(w.tm, 64);
    CHECK_I64(w.tn, 64);
    CHECK_I64(w.split, 1);
    CHECK_NEAR(w.tiles, 440, 0);
    CHECK_NEAR(w.per_sm, 5, 0);
    CHECK_NEAR(w.waves, 4.4, 1e-12);
    CHECK_NEAR(w.t_dram, 51.249152e-6, 1e-12);
    /* one more SM-row of work: N = 1408 + 64 -> 20 x 23 = 460 64x64 tiles, still
     * 5 per SM: the same time (wave quantisation), not 460/440 x */
    s.n = 1472;
    CHECK_NEAR(dlp__wave_gemm_time(&p, &d, PEAK(100), BW, &s, NULL), 1310.72e-6, 1e-9);
}

/* Split-K: C[128 x 128], K = 65536 (e = 1, L2 unlimited).  Unsplit, the
 * best grid is 16 tiles of 32x32 on 100 SMs: 2 x 1024 x 65536 / 128e9 =
 * 1048.576 us.  Split 6 -> 96 tiles, one per SM, K' = 10922.67:
 * 2 x 1024 x 10922.67 / 128e9 = 174.763 us, plus the reduction: fp32
 * partials written and read, 2 x 4 x 128 x 128 x 6 B / 1 TB/s = 0.786 us:
 * 175.550 us.  (Split 12 of 32x64 tiles ties on tiles but reduces twice
 * the partials; split 8 of 32x32 puts 2 tiles on an SM: 262 us.) */
static void t_split_k(void) {
    dlp_device d = gpu(100);
    dlp__wave_params p = {1, 0, 0, 1e9, 0, 0};
    dlp__gemm_shape s = {1, 128, 128, 65536, 4, 0};
    dlp__wave_info w;
    double t = dlp__wave_gemm_time(&p, &d, PEAK(100), BW, &s, &w);
    CHECK_NEAR(t, 2 * 1024 * (65536 / 6.0) / 128e9 + 8.0 * 128 * 128 * 6 / BW, 1e-12);
    CHECK_NEAR(t, 175.550e-6, 1e-9);
    CHECK_I64(w.split, 6);
    CHECK_I64(w.tm, 32);
    CHECK_I64(w.tn, 32);
}

/* Per-tile efficiency: e = e_max ai/(ai + ai0) K/(K + k0) (64/lanes)^lane_g,
 * ai = tm tn / (tm + tn).  C[128 x 128], K = 192 (no split: K < 2 x 256),
 * e_max 0.8, ai0 64, k0 64, L2 unlimited; every grid fits in one wave:
 *   128x128 (ai 64):   e = 0.8 x 0.5 x 0.75 = 0.3,  2 x 16384 x 192 / (128e9 x 0.3)  = 163.84 us
 *   128x64  (ai 42.7): e = 0.8 x 0.4 x 0.75 = 0.24, 2 x 8192 x 192 / (128e9 x 0.24)  = 102.4 us
 *   64x32   (ai 21.3): e = 0.15,                    2 x 2048 x 192 / (128e9 x 0.15)  = 40.96 us
 *   32x32   (ai 16):   e = 0.8 x 0.2 x 0.75 = 0.12, 2 x 1024 x 192 / (128e9 x 0.12)  = 25.6 us
 * so sixteen 32x32 tiles on sixteen SMs win: 25.6 us.  On 128-lane SMs
 * (peak per SM 256e9) with lane_g 1, e halves (0.06) and the per-SM peak
 * doubles: the same 25.6 us. */
static void t_tile_efficiency(void) {
    dlp_device d = gpu(100);
    dlp__wave_params p = {0.8, 64, 64, 1e9, 1, 0};
    dlp__gemm_shape s = {1, 128, 128, 192, 4, 0};
    dlp__wave_info w;
    double t = dlp__wave_gemm_time(&p, &d, PEAK(100), BW, &s, &w);
    CHECK_I64(w.tm, 32);
    CHECK_NEAR(w.tiles, 16, 0);
    CHECK_NEAR(w.eff, 0.12, 1e-12);
    CHECK_NEAR(t, 25.6e-6, 1e-12);
    d.fp32_cores_per_sm = 128;
    double t2 = dlp__wave_gemm_time(&p, &d, 2 * PEAK(100), BW, &s, &w);
    CHECK_NEAR(w.eff, 0.06, 1e-12);
    CHECK_NEAR(t2, 25.6e-6, 1e-12);
}

/* DRAM-bound: K = 1 outer product C[8192 x 8192]: 8192^2 x 4 B written
 * (+ 2 x 8192 x 4 read) = 268.500992 MB at 1 TB/s = 268.500992 us, above
 * any tile time. */
static void t_dram_bound(void) {
    dlp_device d = gpu(100);
    dlp__wave_params p = {1, 0, 0, 1e9, 0, 0};
    dlp__gemm_shape s = {1, 8192, 8192, 1, 4, 0};
    CHECK_NEAR(dlp__wave_gemm_time(&p, &d, PEAK(100), BW, &s, NULL), 268.500992e-6, 1e-12);
}

/* More SMs at the same per-SM peak never make a kernel slower, and the
 * time is never below the roofline. */
static void t_monotone_and_roofline(void) {
    const dlp__wave_params *p = dlp__wave_params_builtin(DLP__PREC_FP32);
    CHECK(p != NULL);
    if (!p) return;
    static const double ms[] = {1, 7, 128, 1000, 4096, 50000};
    for (size_t i = 0; i < 6; i++)
        for (size_t j = 0; j < 6; j++)
            for (size_t k = 0; k < 6; k++) {
                dlp__gemm_shape s = {1, ms[i], ms[j], ms[k], 4, 0};
                double prev = INFINITY;
                for (int sms = 20; sms <= 160; sms += 20) {
                    dlp_device d = gpu(sms);
                    double t = dlp__wave_gemm_time(p, &d, PEAK(sms), BW, &s, NULL);
                    double roof = fmax(2 * ms[i] * ms[j] * ms[k] / PEAK(sms),
                                       4 * (ms[i] * ms[k] + ms[k] * ms[j] + ms[i] * ms[j]) / BW);
                    if (!(t > 0 && t <= prev * (1 + 1e-12) && t >= roof * (1 - 1e-12))) {
                        fprintf(stderr, "  %g x %g x %g on %d SMs: %g s (prev %g, roof %g)\n", ms[i], ms[j], ms[k], sms,
                                t, prev, roof);
                        CHECK(0);
                    }
                    prev = t;
                }
            }
}


/* Batched SIMT kernels (bmm, batch > 1) use the shapes the bmm traces name.
 * e = 1, L2 8 B/clk/SM, the 100-SM GPU.  P.V of attention: batch 80,
 * C[1024 x 64] over K = 1024.
 *   Pascal (cc 6.1): only maxwell_sgemm_128x64, 128 along the output's
 *   columns, so {tm, tn} = {64, 128}: tiles 80 x 16 x ceil(64 / 128) = 1280,
 *   13 per SM; a tile computes the full 64 x 128 (half of it past N = 64):
 *   compute 2 x 64 x 128 x 1024 / 128e9 = 131.072 us, L2 (64 + 128) x 1024
 *   x 4 / 8e9 = 98.304 us -> 13 x 131.072 = 1703.936 us.  No split (1280
 *   tiles > 200).  N = 128 costs the same: the wasted half is filled.
 *   (The single-GEMM list, 8.9 below, has faster shapes for it.)
 *   Ampere (cc 8.0): only 128x128: 80 x 8 x 1 = 640 tiles, 7 per SM, compute
 *   262.144 us, L2 131.072 -> 1835.008 us.
 *   batch 1 (a single GEMM) keeps the full list. */
static void t_batched_tiles(void) {
    dlp_device d = gpu(100);
    dlp__wave_params p = {1, 0, 0, 8, 0, 0};
    dlp__wave_info w;
    dlp__gemm_shape pv = {80, 1024, 64, 1024, 4, 0};
    d.cc_major = 6, d.cc_minor = 1;
    CHECK_NEAR(dlp__wave_gemm_time(&p, &d, PEAK(100), BW, &pv, &w), 1703.936e-6, 1e-9);
    CHECK_I64(w.tm, 64);
    CHECK_I64(w.tn, 128);
    CHECK_NEAR(w.tiles, 1280, 0);
    dlp__gemm_shape wide = pv;
    wide.n = 128;
    CHECK_NEAR(dlp__wave_gemm_time(&p, &d, PEAK(100), BW, &wide, NULL), 1703.936e-6, 1e-9);
    d.cc_major = 8, d.cc_minor = 0;
    CHECK_NEAR(dlp__wave_gemm_time(&p, &d, PEAK(100), BW, &pv, &w), 1835.008e-6, 1e-9);
    CHECK_I64(w.tm, 128);
    CHECK_I64(w.tn, 128);
    /* a compute capability with no batched list (8.9) keeps the single-GEMM
     * tiles: 64x64 is the fastest of them here, 80 x 16 x 1 = 1280 tiles, 13
     * per SM, compute 2 x 64 x 64 x 1024 / 128e9 = 65.536 us = L2 128 x 1024
     * x 4 / 8e9 -> 851.968 us (128x64: 640 tiles, 7 x 131.072 = 917.504;
     * 128x32: 1064.96; 64x32 / 32x64: 26 x 49.152 = 1277.952) */
    d.cc_major = 8, d.cc_minor = 9;
    CHECK_NEAR(dlp__wave_gemm_time(&p, &d, PEAK(100), BW, &pv, &w), 851.968e-6, 1e-9);
    CHECK_I64(w.tm, 64);
    CHECK_I64(w.tn, 64);
}

/* The shipped parameters lie in their physical ranges; other precisions
 * have none (their curves time them). */
static void t_builtin(void) {
    const dlp__wave_params *p = dlp__wave_params_builtin(DLP__PREC_FP32);
    CHECK(p && p->e_max > 0 && p->e_max <= 1);
    CHECK(p && p->lane_g >= 0 && p->lane_g <= 1);
    CHECK(p && p->k0 >= 0 && p->ai0 >= 0 && p->l2_bpc > 0);
    CHECK(dlp__wave_params_builtin(DLP__PREC_HALF) == NULL);
    CHECK(dlp__wave_params_builtin(DLP__PREC_FP8) == NULL);
    dlp__wave_params mine = *p;
    mine.e_max = 0.5;
    dlp__wave_params_override(&mine);
    CHECK(dlp__wave_params_builtin(DLP__PREC_FP32)->e_max == 0.5);
    dlp__wave_params_override(NULL);
    CHECK(dlp__wave_params_builtin(DLP__PREC_FP32) == p);
}

/* Bad input: 0, never a crash or NaN. */
static void t_bad_input(void) {
    dlp_device d = gpu(100);
    dlp__wave_params p = {1, 0, 0, 8, 0, 0};
    dlp__gemm_shape s = {1, 128, 128, 128, 4, 0};
    CHECK_NEAR(dlp__wave_gemm_time(NULL, &d, PEAK(100), BW, &s, NULL), 0, 0);
    CHECK_NEAR(dlp__wave_gemm_time(&p, NULL, PEAK(100), BW, &s, NULL), 0, 0);
    CHECK_NEAR(dlp__wave_gemm_time(&p, &d, PEAK(100), BW, NULL, NULL), 0, 0);
    CHECK_NEAR(dlp__wave_gemm_time(&p, &d, 0, BW, &s, NULL), 0, 0);
    dlp__gemm_shape bad = s;
    bad.m = NAN;
    CHECK_NEAR(dlp__wave_gemm_time(&p, &d, PEAK(100), BW, &bad, NULL), 0, 0);
    bad = s, bad.k = 0;
    CHECK_NEAR(dlp__wave_gemm_time(&p, &d, PEAK(100), BW, &bad, NULL), 0, 0);
    dlp_device z = gpu(0);
    CHECK_NEAR(dlp__wave_gemm_time(&p, &z, PEAK(100), BW, &s, NULL), 0, 0);
    dlp__wave_params q = p;
    q.e_max = 0;
    CHECK_NEAR(dlp__wave_gemm_time(&q, &d, PEAK(100), BW, &s, NULL), 0, 0);
    CHECK(dlp__wave_fit(NULL, 3, 0, &p, NULL) != DLP_OK);
}

/* The fit recovers parameters it generated data with (e_max 0.8, ai0 8,
 * k0 100, l2 16, lane_g 0, floor 10 us) to within 2 % MAPE. */
static void t_fit_recovers(void) {
    dlp_device d80 = gpu(80), d40 = gpu(40);
    dlp__wave_params truth = {0.8, 8, 100, 16, 0, 10e-6};
    dlp__wave_sample s[216];
    size_t n = 0;
    static const double dims[] = {64, 300, 1024, 2048, 4000, 8192};
    for (int g = 0; g < 2; g++)
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 6; j++)
                for (int k = 0; k < 3; k++) {
                    dlp__wave_sample *q = &s[n++];
                    memset(q, 0, sizeof *q);
                    q->d = g ? &d80 : &d40;
                    q->peak = PEAK(g ? 80 : 40);
                    q->bw = BW;
                    q->s = (dlp__gemm_shape){1, dims[i], dims[j], dims[2 * k + 1], 4, 0};
                    q->t_meas = truth.floor_s + dlp__wave_gemm_time(&truth, q->d, q->peak, q->bw, &q->s, NULL);
                }
    dlp__wave_params fit;
    double mape = 1;
    CHECK(dlp__wave_fit(s, n, 0, &fit, &mape) == DLP_OK);
    CHECK(mape < 0.02);
}

/* The hook in predict: an fp32 MatMul of x[64, 512, 1024] by W[1024, 4096]
 * is one linear kernel of M = 64 x 512 = 32768, N = 4096, K = 1024 (the
 * anchor's output numel / N, MACs / numel); a MatMul of two activations
 * [8, 16, 128, 64] x [8, 16, 64, 128] is a bmm of batch 128, 128 x 128,
 * K = 64.  Their rows name the wave model and take its time (after the
 * power cap, as the fit applies it); fp16 and --pure keep curve / roofline. */
static double row_ms(const dlp_prediction *P, int kclass, const char **curve) {
    for (int i = 0; i < P->n_kernel_rows; i++)
        if (P->kernel_rows[i].kclass == kclass && P->kernel_rows[i].phase == 0) {
            *curve = P->kernel_rows[i].curve;
            return P->kernel_rows[i].kernel_ms;
        }
    *curve = "";
    return -1;
}

static double expect_ms(const dlp_device *d, dlp__gemm_shape s, int bmm) {
    dlp__wave_sample q;
    memset(&q, 0, sizeof q);
    q.d = d;
    q.peak = dlp__node_peak(d, bmm ? DLP_OPC_MATMUL : DLP_OPC_GEMM, DLP_DT_FLOAT, DLP_TF32_OFF, NULL);
    q.bw = d->mem_bandwidth_gbs * 1e9;
    q.s = s;
    q.flops = 2 * s.batch * s.m * s.n * s.k;
    q.bytes = 4 * s.batch * (s.m * s.k + (bmm ? s.k * s.n : 0) + s.m * s.n) + (bmm ? 0 : 4 * s.k * s.n);
    q.p_idle = dlp__device_idle_w(d);
    q.p_boost = fmax(d->boost_power_w, d->tdp_w);
    q.p_tdp = d->tdp_w;
    double t = dlp__wave_gemm_time(dlp__wave_params_builtin(DLP__PREC_FP32), d, q.peak, q.bw, &q.s, NULL);
    return 1e3 * dlp__wave_capped(&q, t);
}

static void t_predict_hook(void) {
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load(NULL, &db, &e) == DLP_OK);
    if (!db) return;
    const dlp_device *d = dlp_devdb_find(db, "a100-pcie-40gb");
    CHECK(d != NULL);
    dlp_graph *g = dlp__graph_new("t");
    g->opset = 17;
    int x = dlp__graph_add_value(g, "x", DLP_DT_FLOAT, 3, (const int64_t[]){64, 512, 1024});
    dlp__graph_mark_input(g, x);
    int w = dlp__graph_add_weight(g, "w", DLP_DT_FLOAT, 2, (const int64_t[]){1024, 4096});
    int y = dlp__graph_add_value(g, "y", 0, -1, NULL);
    dlp__graph_mark_output(g, y);
    dlp__graph_add_node(g, "mm", "MatMul", "", 2, (const int[]){x, w}, 1, &y);
    int a = dlp__graph_add_value(g, "a", DLP_DT_FLOAT, 4, (const int64_t[]){8, 16, 128, 64});
    int b = dlp__graph_add_value(g, "b", DLP_DT_FLOAT, 4, (const int64_t[]){8, 16, 64, 128});
    dlp__graph_mark_input(g, a);
    dlp__graph_mark_input(g, b);
    int z = dlp__graph_add_value(g, "z", 0, -1, NULL);
    dlp__graph_mark_output(g, z);
    dlp__graph_add_node(g, "bmm", "MatMul", "", 2, (const int[]){a, b}, 1, &z);
    CHECK(dlp__graph_finalize(g, NULL, &e) == DLP_OK);
    dlp_prediction P;
    memset(&P, 0, sizeof P);
    dlp_predict_opts o = {0};
    o.dtype = DLP_DT_FLOAT;
    o.batch = 64;
    const char *src;
    if (d && dlp_predict(g, d, db, &o, &P, &e) == DLP_OK) {
        double ms = row_ms(&P, DLP_KC_GEMM, &src);
        CHECK_STR(src, "neusight-fp32-waves-v1:linear+bmm");
        CHECK_NEAR(ms, expect_ms(d, (dlp__gemm_shape){1, 32768, 4096, 1024, 4, 0}, 0), 1e-9);
        ms = row_ms(&P, DLP_KC_BMM, &src);
        CHECK_STR(src, "neusight-fp32-waves-v1:linear+bmm");
        CHECK_NEAR(ms, expect_ms(d, (dlp__gemm_shape){128, 128, 128, 64, 4, 0}, 1), 1e-9);
    } else {
        CHECK(0);
    }
    dlp_prediction_clear(&P);
    o.dtype = DLP_DT_FLOAT16;      /* tensor cores: the half GEMM curve */
    if (d && dlp_predict(g, d, db, &o, &P, &e) == DLP_OK) {
        row_ms(&P, DLP_KC_GEMM, &src);
        CHECK(strstr(src, "waves") == NULL);
    }
    dlp_prediction_clear(&P);
    o.dtype = DLP_DT_FLOAT;
    o.pure_roofline = 1;
    if (d && dlp_predict(g, d, db, &o, &P, &e) == DLP_OK) {
        row_ms(&P, DLP_KC_GEMM, &src);
        CHECK_STR(src, "pure roofline");
    }
    dlp_prediction_clear(&P);
    dlp_graph_free(g);
    dlp_devdb_free(db);
}

/* docs/predict.md's worked example, "a GEMM whose tail wave costs 30 %"
 * (issue 23): BERT-base's FFN down-projection at batch 17 x seq 256, fp32,
 * on an H100 SXM (devices.json: 132 SMs of 128 lanes, 1,980 MHz, 66.9
 * TFLOP/s fp32 = 506.8 GFLOP/s per SM, 3.35 TB/s), with the shipped
 * parameters (e_max 0.999999, ai0 4.50909, k0 14.9542, l2_bpc 7.9262,
 * lane_g 0.345121).  C[4352 x 768], K = 3072; 128x128 tiles: 768 / 128 = 6
 * x 4352 / 128 = 34 = 204 tiles = 1.545 waves, the busiest SM runs 2.
 *   e = 64 / 68.509 x 3072 / 3086.954 x 0.5^0.345121 = 0.7319
 *   tile: compute 2 x 128^2 x 3072 / (506.8e9 x 0.7319) = 271.4 us,
 *         L2 256 x 3072 x 4 / (7.9262 x 1.98e9) = 200.4 us
 *   kernel 2 x 271.4 = 542.8 us (DRAM 22.8 us far below); without the
 *   quantisation 1.545 x 271.4 = 419.4 us: the tail wave costs 2 / 1.545
 *   = +29.4 %.  128x64 (408 tiles, 4 a SM, L2-bound 150.3 us a tile: 601 us)
 *   and split-K (408 tiles > 2 per SM) lose. */
static void t_worked_example_tail_30(void) {
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load(NULL, &db, &e) == DLP_OK);
    if (!db) return;
    const dlp_device *d = dlp_devdb_find(db, "h100-sxm");
    const dlp__wave_params *p = dlp__wave_params_builtin(DLP__PREC_FP32);
    CHECK(d && p);
    if (!d || !p) {
        dlp_devdb_free(db);
        return;
    }
    CHECK_I64(d->sm_count, 132);
    const double peak = 66.9e12, eff = 0.999999 * 64 / (64 + 4.50909) * 3072 / (3072 + 14.9542) * pow(0.5, 0.345121);
    const double tile = 2.0 * 128 * 128 * 3072 / (peak / 132 * eff);
    CHECK_NEAR(eff, 0.7319, 1e-4);
    CHECK_NEAR(tile, 271.4e-6, 0.05e-6);
    CHECK(tile > 256.0 * 3072 * 4 / (7.9262 * 1.98e9));         /* compute-, not L2-bound */
    dlp__gemm_shape s = {1, 4352, 768, 3072, 4, 0};
    dlp__wave_info w;
    double t = dlp__wave_gemm_time(p, d, peak, 3.35e12, &s, &w);
    CHECK_I64(w.tm, 128);
    CHECK_I64(w.tn, 128);
    CHECK_I64(w.split, 1);
    CHECK_NEAR(w.tiles, 204, 0);
    CHECK_NEAR(w.per_sm, 2, 0);
    CHECK_NEAR(w.waves, 204.0 / 132, 1e-12);
    CHECK_NEAR(t, 2 * tile, 1e-6 * t);
    CHECK_NEAR(t, 542.8e-6, 0.05e-6);
    CHECK_NEAR(w.per_sm / w.waves - 1, 0.294, 1e-3);              /* the tail: +29.4 % */
    dlp_devdb_free(db);
}

/* AMD block softmax (waves.c dlp__amd_softmax_time; docs/predict.md, "AMD
 * GPUs"): a made-up AMD GPU of 100 CUs at 1 GHz and a rate of 0.5 elements
 * per CU per clock: 1e8 elements in rows of 2,048 take 1e8 / (0.5 x 100 x
 * 1e9) = 2 ms; rows of 1,024 are the warp softmax's (0), and an NVIDIA GPU,
 * a CPU or bad numbers get 0. */
static void t_amd_softmax(void) {
    dlp__amd_softmax_params p = {0.5, 1024};
    dlp_device d = gpu(100);
    d.vendor = "amd";
    d.kind = DLP_DEVICE_GPU;
    CHECK_NEAR(dlp__amd_softmax_time(&p, &d, 1e8, 2048), 2e-3, 1e-12);
    CHECK(dlp__amd_softmax_time(&p, &d, 1e8, 1024) == 0);
    CHECK(dlp__amd_softmax_time(&p, &d, 0, 2048) == 0);
    CHECK(dlp__amd_softmax_time(&p, &d, NAN, 2048) == 0);
    CHECK(dlp__amd_softmax_time(NULL, &d, 1e8, 2048) == 0);
    d.kind = DLP_DEVICE_CPU;
    CHECK(dlp__amd_softmax_time(&p, &d, 1e8, 2048) == 0);
    d.kind = DLP_DEVICE_GPU;
    d.vendor = "nvidia";
    CHECK(dlp__amd_softmax_time(&p, &d, 1e8, 2048) == 0);
    CHECK(dlp__amd_softmax_builtin()->elem_per_cu_clk > 0);
}

/* One Softmax over (64, 2048, cols) fp32, last axis, predicted. */
static double softmax_ms(const dlp_devdb *db, const char *dev, int64_t cols, int pure, const char **src) {
    dlp_error e = {0};
    dlp_graph *g = dlp__graph_new("s");
    g->opset = 17;
    int x = dlp__graph_add_value(g, "x", DLP_DT_FLOAT, 3, (const int64_t[]){64, 2048, cols});
    dlp__graph_mark_input(g, x);
    int y = dlp__graph_add_value(g, "y", 0, -1, NULL);
    dlp__graph_mark_output(g, y);
    dlp__graph_add_node(g, "sm", "Softmax", "", 1, &x, 1, &y);
    double ms = -1;
    *src = "";
    dlp_prediction P;
    memset(&P, 0, sizeof P);
    dlp_predict_opts o = {0};
    o.dtype = DLP_DT_FLOAT;
    o.pure_roofline = pure;
    if (dlp__graph_finalize(g, NULL, &e) == DLP_OK && dlp_predict(g, dlp_devdb_find(db, dev), db, &o, &P, &e) == DLP_OK)
        ms = row_ms(&P, DLP_KC_SOFTMAX, src);
    dlp_prediction_clear(&P);
    dlp_graph_free(g);
    return ms;
}

/* In predict: OPT-1.3B's scores at batch 2 (64 x 2048 rows of 2,048) on an
 * MI210 (104 CUs, 1,700 MHz) at a rate of 0.5: 268,435,456 / (0.5 x 104 x
 * 1.7e9 = 88.4e9) = 3.036600 ms, above the softmax curve's time (about 2.4
 * ms), so the rule times it; rows of 1,024 (the warp softmax), the A100 and
 * the pure roofline keep their own models. */
static void t_amd_softmax_predict(void) {
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load(NULL, &db, &e) == DLP_OK);
    if (!db) return;
    const char *src;
    dlp__amd_softmax_params p = {0.5, 1024};
    dlp__amd_softmax_override(&p);
    CHECK_NEAR(softmax_ms(db, "mi210", 2048, 0, &src), 3.036600, 1e-6);
    CHECK_STR(src, "amd block softmax (rows per CU-clock)");
    softmax_ms(db, "mi210", 1024, 0, &src);
    CHECK(strstr(src, "amd") == NULL);
    softmax_ms(db, "a100-pcie-40gb", 2048, 0, &src);
    CHECK(strstr(src, "amd") == NULL);
    softmax_ms(db, "mi210", 2048, 1, &src);
    CHECK_STR(src, "pure roofline");
    dlp__amd_softmax_override(NULL);
    CHECK(dlp__amd_softmax_builtin() != &p);
    dlp_devdb_free(db);
}

int main(void) {
    RUN(t_tail_wave);
    RUN(t_split_k);
    RUN(t_tile_efficiency);
    RUN(t_dram_bound);
    RUN(t_monotone_and_roofline);
    RUN(t_batched_tiles);
    RUN(t_builtin);
    RUN(t_bad_input);
    RUN(t_fit_recovers);
    RUN(t_predict_hook);
    RUN(t_worked_example_tail_30);
    RUN(t_amd_softmax);
    RUN(t_amd_softmax_predict);
    return TAP_DONE();
}
