/* test_conv_gemm.c — a dense 1x1 convolution times as the GEMM it is
 * (src/predict/roofline.c conv1x1_gemm, docs/predict.md "Tiles and waves"):
 * in fp32 on the vector units its forward, dgrad and wgrad each take the
 * wave model's time of their GEMM; other convolutions, tensor cores and
 * the pure roofline keep what they had.
 *
 * The graph, worked by hand:
 *
 *   x[32,64,56,56] -> conv3 (3x3 pad 1, 64->64) -> relu -> conv1 (1x1, 64->256) -> y
 *
 * conv1's GEMM rows are M = 32 x 56 x 56 = 100,352 output pixels:
 *   forward  M x Cout over K = Cin:  100,352 x 256, K = 64
 *   dgrad    M x Cin  over K = Cout: 100,352 x 64,  K = 256  (relu needs dX)
 *   wgrad    Cout x Cin over K = M:  256 x 64,      K = 100,352
 * each 2 x 100,352 x 256 x 64 = 3,288,334,336 FLOPs and
 * 4 x (100,352 x 64 + 100,352 x 256 + 64 x 256) = 128,516,096 bytes.
 * The expected times call the wave model on those shapes (what is checked
 * is the mapping from a convolution to its GEMMs, which the hand numbers
 * above fix; the wave model has its own tests in test_waves.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "predict/curves.h"
#include "predict/roofline.h"
#include "predict/waves.h"
#include "tap.h"

#define D(...) ((const int64_t[]){__VA_ARGS__})
#define M_ROWS 100352.0
#define FLOPS 3288334336.0
#define BYTES 128516096.0
#define WAVES "neusight-fp32-waves-v1:linear+bmm"

static dlp_graph *build(int64_t groups1) {
    dlp_error e = {0};
    dlp_graph *g = dlp__graph_new("t");
    g->opset = 17;
    int x = dlp__graph_add_value(g, "x", DLP_DT_FLOAT, 4, D(32, 64, 56, 56));
    dlp__graph_mark_input(g, x);
    int w3 = dlp__graph_add_weight(g, "conv3.weight", DLP_DT_FLOAT, 4, D(64, 64, 3, 3));
    int w1 = dlp__graph_add_weight(g, "conv1.weight", DLP_DT_FLOAT, 4, D(256, 64 / groups1, 1, 1));
    int c3 = dlp__graph_add_value(g, "c3", 0, -1, NULL), r = dlp__graph_add_value(g, "r", 0, -1, NULL);
    int y = dlp__graph_add_value(g, "y", 0, -1, NULL);
    dlp__graph_mark_output(g, y);
    int n3 = dlp__graph_add_node(g, "conv3", "Conv", "", 2, (int[]){x, w3}, 1, &c3);
    dlp__node_set_ints(g, n3, "pads", 4, D(1, 1, 1, 1));
    dlp__graph_add_node(g, "relu", "Relu", "", 1, (int[]){c3}, 1, &r);
    int n1 = dlp__graph_add_node(g, "conv1", "Conv", "", 2, (int[]){r, w1}, 1, &y);
    dlp__node_set_int(g, n1, "group", groups1);
    if (dlp__graph_finalize(g, NULL, &e)) fprintf(stderr, "  finalize: %s\n", e.msg);
    return g;
}

/* The wave model's time of GEMM s as predict applies it: at the conv's
 * unit (the fp32 vector peak: no TF32 on a V100), then the power cap. */
static double expect_ms(const dlp_device *d, dlp__gemm_shape s) {
    dlp__wave_sample q;
    memset(&q, 0, sizeof q);
    q.d = d;
    q.peak = dlp__node_peak(d, DLP_OPC_CONV, DLP_DT_FLOAT, DLP_TF32_DEFAULT, NULL);
    q.bw = d->mem_bandwidth_gbs * 1e9;
    q.s = s;
    q.flops = FLOPS;
    q.bytes = BYTES;
    q.p_idle = dlp__device_idle_w(d);
    q.p_boost = fmax(d->boost_power_w, d->tdp_w);
    q.p_tdp = d->tdp_w;
    double t = dlp__wave_gemm_time(dlp__wave_params_builtin(DLP__PREC_FP32), d, q.peak, q.bw, &q.s, NULL);
    return 1e3 * dlp__wave_capped(&q, t);
}

/* the row of conv1 (anchor node 2) in phase ph whose name contains `what` */
static const dlp_kernel_pred *row(const dlp_prediction *P, int ph, const char *what) {
    for (int i = 0; i < P->n_kernel_rows; i++) {
        const dlp_kernel_pred *k = &P->kernel_rows[i];
        if (k->node == 2 && k->phase == ph && strstr(k->name, what)) return k;
    }
    return NULL;
}

static int predict(dlp_graph *g, const dlp_devdb *db, const char *dev, int dtype, int pure, dlp_prediction *P) {
    const dlp_device *d = dlp_devdb_find(db, dev);
    dlp_predict_opts o = {0};
    dlp_error e = {0};
    o.dtype = dtype;
    o.batch = 32;
    o.mode = DLP_PREDICT_TRAIN;
    o.pure_roofline = pure;
    o.no_learned = 1;
    memset(P, 0, sizeof *P);
    return d && dlp_predict(g, d, db, &o, P, &e) == DLP_OK;
}

static void t_fp32_gemms(void) {
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load(NULL, &db, &e) == DLP_OK);
    if (!db) return;
    const dlp_device *d = dlp_devdb_find(db, "v100-pcie-32gb");
    dlp_graph *g = build(1);
    dlp_prediction P;
    CHECK(d != NULL);
    if (d && predict(g, db, "v100-pcie-32gb", DLP_DT_FLOAT, 0, &P)) {
        const dlp_kernel_pred *f = row(&P, 0, "conv2d"), *dg = row(&P, 1, "dgrad"), *wg = row(&P, 1, "wgrad");
        CHECK(f && dg && wg);
        if (f && dg && wg) {
            CHECK_STR(f->curve, WAVES);
            CHECK_STR(dg->curve, WAVES);
            CHECK_STR(wg->curve, WAVES);
            CHECK_NEAR(f->flops, FLOPS, 1);
            CHECK_NEAR(f->bytes, BYTES, 1);
            CHECK_NEAR(dg->bytes, BYTES, 1);
            CHECK_NEAR(f->kernel_ms, expect_ms(d, (dlp__gemm_shape){1, M_ROWS, 256, 64, 4, 0}), 1e-9);
            CHECK_NEAR(dg->kernel_ms, expect_ms(d, (dlp__gemm_shape){1, M_ROWS, 64, 256, 4, 0}), 1e-9);
            CHECK_NEAR(wg->kernel_ms, expect_ms(d, (dlp__gemm_shape){1, 256, 64, M_ROWS, 4, 0}), 1e-9);
            /* a long-K wgrad and a wide forward are not the same GEMM */
            CHECK(fabs(wg->kernel_ms - f->kernel_ms) > 1e-6);
        }
        /* the 3x3 conv stays on the conv curve (fitted on 3x3 convs) */
        for (int i = 0; i < P.n_kernel_rows; i++)
            if (P.kernel_rows[i].node == 0 && P.kernel_rows[i].phase == 0)
                CHECK_STR(P.kernel_rows[i].curve, "neusight-fp32-v1:conv");
    }
    dlp_prediction_clear(&P);
    dlp_graph_free(g);
    dlp_devdb_free(db);
}

static void t_not_a_gemm(void) {
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load(NULL, &db, &e) == DLP_OK);
    if (!db) return;
    dlp_graph *g = build(1);
    dlp_prediction P;
    const dlp_kernel_pred *f;
    /* fp16: tensor cores, the half curves */
    if (predict(g, db, "v100-pcie-32gb", DLP_DT_FLOAT16, 0, &P)) {
        f = row(&P, 0, "conv2d");
        CHECK(f && !strstr(f->curve, "waves"));
    } else {
        CHECK(0);
    }
    dlp_prediction_clear(&P);
    /* fp32 on an A40: cuDNN convs run TF32 tensor cores by default */
    if (predict(g, db, "a40", DLP_DT_FLOAT, 0, &P)) {
        f = row(&P, 0, "conv2d");
        CHECK(f && f->tensor_core && !strstr(f->curve, "waves"));
    } else {
        CHECK(0);
    }
    dlp_prediction_clear(&P);
    /* --pure: the roofline */
    if (predict(g, db, "v100-pcie-32gb", DLP_DT_FLOAT, 1, &P)) {
        f = row(&P, 0, "conv2d");
        CHECK(f && !strcmp(f->curve, "pure roofline"));
    } else {
        CHECK(0);
    }
    dlp_prediction_clear(&P);
    dlp_graph_free(g);
    /* a grouped 1x1 conv (2 groups of 32) is not one GEMM */
    g = build(2);
    if (predict(g, db, "v100-pcie-32gb", DLP_DT_FLOAT, 0, &P)) {
        f = row(&P, 0, "conv2d");
        CHECK(f && !strstr(f->curve, "waves"));
    } else {
        CHECK(0);
    }
    dlp_prediction_clear(&P);
    dlp_graph_free(g);
    dlp_devdb_free(db);
}

int main(void) {
    RUN(t_fp32_gemms);
    RUN(t_not_a_gemm);
    return TAP_DONE();
}
