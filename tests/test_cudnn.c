/* test_cudnn.c — the cuDNN generation of a runtime (dlp_predict_opts.cudnn,
 * `--cudnn 8|9`, docs/predict.md "Training"): cuDNN 8 (PyTorch 1.x and the
 * 2.x wheels before 2.4) trains a grouped conv with its grouped direct
 * kernels on the CUDA cores, cuDNN 9 with implicit GEMMs; 0 keeps each
 * runtime's own (eager-1.x: 8, eager: 9), so earlier answers stay as they
 * were.  Generations dlperf does not model, TensorRT and non-NVIDIA devices
 * are refused.
 *
 * The graph, worked by hand:
 *
 *   x[8,224,28,28] -> conv (3x3 pad 1, 224 -> 224, groups 2: width 112) -> relu -> y
 *
 * x is a graph input (no gradient), so the conv's backward is its wgrad
 * alone.  Its multiply-adds: N x Ho x Wo x Cout x (Cin / groups) x 3 x 3 =
 * 8 x 28 x 28 x 224 x 112 x 9 = 1,416,167,424, i.e. 2,832,334,848 FLOPs.
 * Two groups (not 32 or 64 of a power-of-two width) are none of the shapes
 * cuDNN 8 keeps on tensor cores, and 112 channels per group are above the
 * 48 of DLP__GROUPED_REUSE_CH, so under cuDNN 8 the wgrad runs at
 * DLP__GROUPED_DIRECT_EFF = 10 % of the RTX 3090's fp32 vector peak,
 * 35.6 TFLOP/s x 0.10 = 3.56 TFLOP/s: 2,832,334,848 / 3.56e12 = 0.7956 ms
 * (its bytes, ~5.7 MB in fp16, take 6 us at 936 GB/s: compute-bound). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "tap.h"

#define D(...) ((const int64_t[]){__VA_ARGS__})
#define DIRECT "cudnn::wgrad2d_grouped_direct_kernel"
#define WGRAD_MS 0.7956   /* hand value above */

/* x[8,ch,28,28] -> conv 3x3 pad 1, ch -> ch in groups of width gw -> relu */
static dlp_graph *build_g(int64_t ch, int64_t gw) {
    dlp_error e = {0};
    dlp_graph *g = dlp__graph_new("t");
    g->opset = 17;
    int x = dlp__graph_add_value(g, "x", DLP_DT_FLOAT, 4, D(8, ch, 28, 28));
    dlp__graph_mark_input(g, x);
    int w = dlp__graph_add_weight(g, "conv.weight", DLP_DT_FLOAT, 4, D(ch, gw, 3, 3));
    int c = dlp__graph_add_value(g, "c", 0, -1, NULL), y = dlp__graph_add_value(g, "y", 0, -1, NULL);
    dlp__graph_mark_output(g, y);
    int n = dlp__graph_add_node(g, "conv", "Conv", "", 2, (int[]){x, w}, 1, &c);
    dlp__node_set_ints(g, n, "pads", 4, D(1, 1, 1, 1));
    dlp__node_set_int(g, n, "group", ch / gw);
    dlp__graph_add_node(g, "relu", "Relu", "", 1, (int[]){c}, 1, &y);
    if (dlp__graph_finalize(g, NULL, &e)) fprintf(stderr, "  finalize: %s\n", e.msg);
    return g;
}

static dlp_graph *build(void) { return build_g(224, 112); }

/* predict (fp16 AMP, layout memfmt) and return the status; P filled on DLP_OK */
static dlp_status predict_fmt(const dlp_graph *g, const dlp_devdb *db, const char *dev, int mode, int runtime,
                              int cudnn, int memfmt, dlp_prediction *P) {
    const dlp_device *d = dlp_devdb_find(db, dev);
    dlp_predict_opts o = {0};
    dlp_error e = {0};
    if (!d) return DLP_ENOTFOUND;
    dlp_predict_use_runtime(&o, runtime);
    o.dtype = DLP_DT_FLOAT16;
    o.batch = 8;
    o.mode = mode;
    o.memfmt = memfmt;
    o.no_learned = 1;
    o.cudnn = cudnn;
    memset(P, 0, sizeof *P);
    return dlp_predict(g, d, db, &o, P, &e);
}

/* predict (fp16 AMP, channels_last) */
static dlp_status predict(const dlp_graph *g, const dlp_devdb *db, const char *dev, int mode, int runtime, int cudnn,
                          dlp_prediction *P) {
    return predict_fmt(g, db, dev, mode, runtime, cudnn, DLP_MEMFMT_NHWC, P);
}

/* the backward row of the conv (node 0) whose name contains `what` */
static const dlp_kernel_pred *bwd_row(const dlp_prediction *P, const char *what) {
    for (int i = 0; i < P->n_kernel_rows; i++) {
        const dlp_kernel_pred *k = &P->kernel_rows[i];
        if (k->node == 0 && k->phase == 1 && strstr(k->name, what)) return k;
    }
    return NULL;
}

/* which wgrad runs, per runtime and generation, and the direct kernel's time */
static void t_grouped_wgrad(void) {
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load(NULL, &db, &e) == DLP_OK);
    dlp_graph *g = build();
    if (!db || !g) return;
    static const struct {
        int runtime, cudnn, direct;
    } cases[] = {
        {DLP_RUNTIME_EAGER, 8, 1},   {DLP_RUNTIME_EAGER, 0, 0},   {DLP_RUNTIME_EAGER, 9, 0},
        {DLP_RUNTIME_EAGER1X, 0, 1}, {DLP_RUNTIME_EAGER1X, 8, 1}, {DLP_RUNTIME_EAGER1X, 9, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dlp_prediction P;
        CHECK(predict(g, db, "rtx3090", DLP_PREDICT_TRAIN, cases[i].runtime, cases[i].cudnn, &P) == DLP_OK);
        const dlp_kernel_pred *k = bwd_row(&P, DIRECT);
        const dlp_kernel_pred *gemm = bwd_row(&P, "aten::convolution_backward (wgrad)");
        if (cases[i].direct) {
            CHECK(k && !gemm);
            if (k) CHECK_NEAR(k->kernel_ms, WGRAD_MS, 0.01 * WGRAD_MS);
        } else {
            CHECK(!k && gemm);
        }
        if (!!k != cases[i].direct)
            fprintf(stderr, "  case %zu: runtime %d cudnn %d: direct wgrad %s\n", i, cases[i].runtime,
                    cases[i].cudnn, k ? "present" : "absent");
        dlp_prediction_clear(&P);
    }
    dlp_graph_free(g);
    dlp_devdb_free(db);
}

/* The forward of a grouped conv (docs/predict.md, "NHWC vs NCHW"): cuDNN 8
 * in channels_last runs a group width that is not a power of two on its
 * grouped direct kernel at DLP__GROUPED_FWD_EFF = 45 % of the fp32 vector
 * peak, 35.6 TFLOP/s x 0.45 = 16.02 TFLOP/s, and a width under 48 channels
 * (DLP__GROUPED_REUSE_CH) costs 48 / width times its FLOPs:
 *   width 112 (224 channels, 2 groups): 2,832,334,848 FLOPs (header)
 *     / 16.02e12 = 0.17680 ms;
 *   width 24 (240 channels, 10 groups): 8 x 28 x 28 x 240 x 24 x 9 x 2 =
 *     650,280,960 FLOPs x 48 / 24 = 1,300,561,920 / 16.02e12 = 0.08118 ms
 *     (its ~6 MB of fp16 activations take 6.4 us at 936 GB/s: compute-bound).
 * A power-of-two width (32), cuDNN 9, NCHW and fp32 keep the tensor-core
 * conv (the lowering's aten::conv2d). */
#define FWD_DIRECT "cudnn::conv2d_grouped_direct_kernel"
static const dlp_kernel_pred *fwd_row(const dlp_prediction *P) {
    for (int i = 0; i < P->n_kernel_rows; i++) {
        const dlp_kernel_pred *k = &P->kernel_rows[i];
        if (k->node == 0 && k->phase == 0 && (strstr(k->name, "conv") || strstr(k->name, "Conv"))) return k;
    }
    return NULL;
}

static void t_grouped_forward(void) {
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load(NULL, &db, &e) == DLP_OK);
    if (!db) return;
    static const struct {
        int ch, gw, runtime, cudnn, memfmt;
        double direct_ms;   /* 0: not the direct kernel */
    } cases[] = {
        {224, 112, DLP_RUNTIME_EAGER, 8, DLP_MEMFMT_NHWC, 0.17680},
        {224, 112, DLP_RUNTIME_EAGER1X, 0, DLP_MEMFMT_NHWC, 0.17680},
        {240, 24, DLP_RUNTIME_EAGER, 8, DLP_MEMFMT_NHWC, 0.08118},
        {224, 112, DLP_RUNTIME_EAGER, 9, DLP_MEMFMT_NHWC, 0},
        {224, 112, DLP_RUNTIME_EAGER, 0, DLP_MEMFMT_NHWC, 0},
        {224, 112, DLP_RUNTIME_EAGER, 8, DLP_MEMFMT_NCHW, 0},
        {224, 32, DLP_RUNTIME_EAGER, 8, DLP_MEMFMT_NHWC, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dlp_graph *g = build_g(cases[i].ch, cases[i].gw);
        dlp_prediction P;
        if (!g) continue;
        CHECK(predict_fmt(g, db, "rtx3090", DLP_PREDICT_INFER, cases[i].runtime, cases[i].cudnn, cases[i].memfmt,
                          &P) == DLP_OK);
        const dlp_kernel_pred *k = fwd_row(&P);
        CHECK(k != NULL);
        int direct = k && !strcmp(k->name, FWD_DIRECT);
        CHECK(direct == (cases[i].direct_ms > 0));
        if (direct) CHECK_NEAR(k->kernel_ms, cases[i].direct_ms, 0.01 * cases[i].direct_ms);
        if (direct != (cases[i].direct_ms > 0) || (direct && fabs(k->kernel_ms / cases[i].direct_ms - 1) > 0.01))
            fprintf(stderr, "  case %zu: width %d cudnn %d memfmt %d: %s %.5f ms\n", i, cases[i].gw, cases[i].cudnn,
                    cases[i].memfmt, k ? k->name : "(none)", k ? k->kernel_ms : 0.0);
        dlp_prediction_clear(&P);
        dlp_graph_free(g);
    }
    dlp_devdb_free(db);
}

/* refused: a generation not modelled, TensorRT, a CPU, an AMD GPU */
static void t_refused(void) {
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load(NULL, &db, &e) == DLP_OK);
    dlp_graph *g = build();
    if (!db || !g) return;
    dlp_prediction P;
    CHECK(predict(g, db, "rtx3090", DLP_PREDICT_INFER, DLP_RUNTIME_EAGER, 7, &P) == DLP_EINVAL);
    CHECK(predict(g, db, "rtx3090", DLP_PREDICT_INFER, DLP_RUNTIME_EAGER, -1, &P) == DLP_EINVAL);
    CHECK(predict(g, db, "rtx3090", DLP_PREDICT_INFER, DLP_RUNTIME_TENSORRT, 8, &P) == DLP_EINVAL);
    CHECK(predict(g, db, "cpu-amd-epyc-2c", DLP_PREDICT_INFER, DLP_RUNTIME_EAGER, 8, &P) == DLP_EINVAL);
    CHECK(predict(g, db, "mi250", DLP_PREDICT_INFER, DLP_RUNTIME_EAGER, 9, &P) == DLP_EINVAL);
    /* the same requests without a generation are answered */
    CHECK(predict(g, db, "mi250", DLP_PREDICT_INFER, DLP_RUNTIME_EAGER, 0, &P) == DLP_OK);
    dlp_prediction_clear(&P);
    dlp_graph_free(g);
    dlp_devdb_free(db);
}

int main(void) {
    RUN(t_grouped_wgrad);
    RUN(t_grouped_forward);
    RUN(t_refused);
    return TAP_DONE();
}
