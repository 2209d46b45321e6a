/* test_softmax_l1.c — PyTorch's block softmax (rows > 1024 elements) timed as
 * a streaming pass where the rows its resident CTAs hold stay in the SM's L1
 * between its three passes (src/predict/roofline.c dlp__block_softmax_in_l1;
 * docs/predict.md, "Timing a kernel").
 *
 * Block size, by PyTorch 2.1's SoftMaxForward_getBlockSize (ILP = 16 B /
 * element: 4 for fp32): the smallest power of two >= min(row / 4, 1024) / 2,
 * at least 32.  Hand-worked cases (fp32, 4 B an element):
 *   row 2048:  2048 / 4 = 512, / 2 = 256 -> 256 threads; an SM of 2048
 *              threads holds 8 CTAs: 8 x 2048 x 4 = 65,536 B = 64 KiB
 *   row 8192:  2048 -> 1024 (cap) -> 512 -> 512 threads; 4 CTAs:
 *              4 x 8192 x 4 = 131,072 B = 128 KiB
 *   row 16384: 512 threads, 4 CTAs: 4 x 16384 x 4 = 256 KiB
 *   row 1100:  275 -> 137 -> 256 threads, 8 CTAs: 8 x 1100 x 4 = 35,200 B
 *              = 34.4 KiB
 * On an SM of 1024 threads (Turing) row 2048 gives 4 CTAs: 32 KiB. */
#include <math.h>
#include <string.h>

#include "graph/graph.h"
#include "predict/curves.h"
#include "predict/roofline.h"
#include "tap.h"

static dlp_device nv(double l1_kb, int threads) {
    dlp_device d;
    memset(&d, 0, sizeof d);
    d.id = "test";
    d.vendor = "nvidia";
    d.l1_cache_kb_per_sm = l1_kb;
    d.max_threads_per_sm = threads;
    return d;
}

static void t_rule(void) {
    dlp_device a100 = nv(192, 2048), v100 = nv(128, 2048), p100 = nv(24, 2048), t4 = nv(96, 1024);
    /* row 2048: 64 KiB in flight */
    CHECK(dlp__block_softmax_in_l1(&a100, 2048, 4) == 1);
    CHECK(dlp__block_softmax_in_l1(&v100, 2048, 4) == 1);
    CHECK(dlp__block_softmax_in_l1(&p100, 2048, 4) == 0);     /* 64 > 24 KiB */
    CHECK(dlp__block_softmax_in_l1(&t4, 2048, 4) == 1);       /* 4 CTAs: 32 <= 96 */
    /* the boundary: 64 KiB fits an L1 of exactly 64 KiB, not one of 63 */
    dlp_device l64 = nv(64, 2048), l63 = nv(63, 2048);
    CHECK(dlp__block_softmax_in_l1(&l64, 2048, 4) == 1);
    CHECK(dlp__block_softmax_in_l1(&l63, 2048, 4) == 0);
    /* row 8192: 128 KiB; row 16384: 256 KiB */
    CHECK(dlp__block_softmax_in_l1(&a100, 8192, 4) == 1);
    CHECK(dlp__block_softmax_in_l1(&v100, 8192, 4) == 1);
    CHECK(dlp__block_softmax_in_l1(&a100, 16384, 4) == 0);
    /* row 1100: 34.4 KiB fits 48, not 34 */
    dlp_device l48 = nv(48, 2048), l34 = nv(34, 2048);
    CHECK(dlp__block_softmax_in_l1(&l48, 1100, 4) == 1);
    CHECK(dlp__block_softmax_in_l1(&l34, 1100, 4) == 0);
    /* not NVIDIA, unknown L1 or threads, bad input: no */
    dlp_device amd = a100;
    amd.vendor = "amd";
    CHECK(dlp__block_softmax_in_l1(&amd, 2048, 4) == 0);
    dlp_device nol1 = nv(0, 2048), nothr = nv(192, 0);
    CHECK(dlp__block_softmax_in_l1(&nol1, 2048, 4) == 0);
    CHECK(dlp__block_softmax_in_l1(&nothr, 2048, 4) == 0);
    CHECK(dlp__block_softmax_in_l1(NULL, 2048, 4) == 0);
    CHECK(dlp__block_softmax_in_l1(&a100, 0, 4) == 0);
    CHECK(dlp__block_softmax_in_l1(&a100, 2048, 0) == 0);
    CHECK(dlp__block_softmax_in_l1(&a100, NAN, 4) == 0);
}

/* The softmax row of a (4, 16, 512, row) fp32 graph on device id. */
static const dlp_kernel_pred *softmax_row(const char *id, int64_t row, dlp_prediction *P, dlp_devdb *db) {
    const dlp_device *d = dlp_devdb_find(db, id);
    CHECK(d != NULL);
    if (!d) return NULL;
    dlp_error e = {0};
    dlp_graph *g = dlp__graph_new("t");
    g->opset = 17;
    int x = dlp__graph_add_value(g, "x", DLP_DT_FLOAT, 4, (const int64_t[]){4, 16, 512, row});
    dlp__graph_mark_input(g, x);
    int y = dlp__graph_add_value(g, "y", 0, -1, NULL);
    dlp__graph_mark_output(g, y);
    dlp__graph_add_node(g, "sm", "Softmax", "", 1, &x, 1, &y);
    CHECK(dlp__graph_finalize(g, NULL, &e) == DLP_OK);
    dlp_predict_opts o = {0};
    o.dtype = DLP_DT_FLOAT;
    o.batch = 4;
    memset(P, 0, sizeof *P);
    const dlp_kernel_pred *k = NULL;
    if (dlp_predict(g, d, db, &o, P, &e) == DLP_OK)
        for (int i = 0; i < P->n_kernel_rows; i++)
            if (P->kernel_rows[i].kclass == DLP_KC_SOFTMAX) k = &P->kernel_rows[i];
    dlp_graph_free(g);
    return k;
}

/* Through dlp_predict: on the shipped A100 (L1 192 KiB, 2048 threads) a
 * 2048-element row is timed on the elementwise curve like the warp softmax,
 * at the same ratio as a streaming kernel of its bytes; on the P100 (L1 24
 * KiB) it keeps the softmax curve, and a 16384-element row (256 KiB) keeps it
 * on the A100 too. */
static void t_predict(void) {
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(dlp_devdb_load(NULL, &db, &e) == DLP_OK);
    if (!db) return;
    dlp_prediction P;
    const dlp_kernel_pred *k = softmax_row("a100-pcie-40gb", 2048, &P, db);
    CHECK(k != NULL);
    if (k) {
        CHECK_STR(k->curve, "neusight-fp32-v1:elementwise (block softmax, rows in L1)");
        /* the elementwise curve at the kernel's own (u, v) */
        const dlp_device *d = dlp_devdb_find(db, "a100-pcie-40gb");
        const dlp__kcurve *ew = dlp__kcurve_get(DLP__PREC_FP32, DLP_KC_ELEMENTWISE);
        double t = dlp__kernel_time(&ew->c, k->flops, k->bytes, k->peak_flops, d->mem_bandwidth_gbs * 1e9);
        CHECK_NEAR(k->kernel_ms, 1e3 * t, 1e-9);
    }
    dlp_prediction_clear(&P);
    k = softmax_row("p100", 2048, &P, db);
    CHECK(k != NULL);
    if (k) CHECK_STR(k->curve, dlp__kcurve_get(DLP__PREC_FP32, DLP_KC_SOFTMAX)->source);
    dlp_prediction_clear(&P);
    k = softmax_row("a100-pcie-40gb", 16384, &P, db);
    CHECK(k != NULL);
    if (k) CHECK_STR(k->curve, dlp__kcurve_get(DLP__PREC_FP32, DLP_KC_SOFTMAX)->source);
    dlp_prediction_clear(&P);
    k = softmax_row("a100-pcie-40gb", 1024, &P, db);   /* the warp softmax, as before */
    CHECK(k != NULL);
    if (k) CHECK_STR(k->curve, "neusight-fp32-v1:elementwise (warp softmax, row <= 1024)");
    dlp_prediction_clear(&P);
    dlp_devdb_free(db);
}

int main(void) {
    RUN(t_rule);
    RUN(t_predict);
    return TAP_DONE();
}
