/* test_backward.c — the backward kernels of a training step
 * (src/predict/backward.c, docs/predict.md "Training") on a hand-built
 * graph whose kernels are worked out by hand:
 *
 *   x[8,16,28,28] -> conv1 (1x1, 16->16) -> relu -> conv2 (3x3 pad 1, 16->16,
 *   `groups` groups) -> add(conv2, relu) -> y
 *
 * At fp16 an activation is A = 8*16*28*28 * 2 B = 200,704 B.  conv1 reads
 * the graph input (no dgrad); relu's output feeds conv2 and the add (one
 * gradient accumulation, 3A = 602,112 B); the add passes its gradient
 * through (no kernel).  conv2's weight is 16 x (16/g) x 3 x 3 at 2 B. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "predict/backward.h"
#include "predict/lower.h"
#include "tap.h"

#define D(...) ((const int64_t[]){__VA_ARGS__})
#define A_BYTES 200704.0

static dlp_graph *G;
static dlp__lowered L;
static int64_t CIN = 16;

static void build(int64_t groups) {
    dlp_graph_free(G);
    dlp_error e = {0};
    G = dlp__graph_new("t");
    G->opset = 17;
    int x = dlp__graph_add_value(G, "x", DLP_DT_FLOAT, 4, D(8, CIN, 28, 28));
    dlp__graph_mark_input(G, x);
    int w1 = dlp__graph_add_weight(G, "conv1.weight", DLP_DT_FLOAT, 4, D(CIN, CIN, 1, 1));
    int w2 = dlp__graph_add_weight(G, "conv2.weight", DLP_DT_FLOAT, 4, D(CIN, CIN / groups, 3, 3));
    int c1 = dlp__graph_add_value(G, "c1", 0, -1, NULL), r = dlp__graph_add_value(G, "r", 0, -1, NULL);
    int c2 = dlp__graph_add_value(G, "c2", 0, -1, NULL), y = dlp__graph_add_value(G, "y", 0, -1, NULL);
    dlp__graph_mark_output(G, y);
    dlp__graph_add_node(G, "conv1", "Conv", "", 2, (int[]){x, w1}, 1, &c1);
    dlp__graph_add_node(G, "relu", "Relu", "", 1, (int[]){c1}, 1, &r);
    int n2 = dlp__graph_add_node(G, "conv2", "Conv", "", 2, (int[]){r, w2}, 1, &c2);
    dlp__node_set_ints(G, n2, "pads", 4, D(1, 1, 1, 1));
    dlp__node_set_int(G, n2, "group", groups);
    dlp__graph_add_node(G, "add", "Add", "", 2, (int[]){c2, r}, 1, &y);
    if (dlp__graph_finalize(G, NULL, &e)) fprintf(stderr, "  finalize: %s\n", e.msg);
}

/* the kernel of node `name` (not the NCHW conversions anchored there) */
static int kernel_of(const char *name) {
    for (int k = 0; k < L.n; k++) {
        const dlp_node_info *ni = dlp_graph_node_at(G, L.k[k].anchor);
        if (ni && !strcmp(ni->name, name) && L.k[k].kclass != DLP_KC_COPY) return k;
    }
    return -1;
}

static int bwd(int runtime, int memfmt, const char *node, dlp__bwd_kernel *r) {
    dlp__lowered_free(&L);
    dlp_error e = {0};
    if (dlp__lower(G, runtime, memfmt, 1, DLP_DT_FLOAT16, 0, &L, &e)) return -1;
    dlp__bwd_ctx b = {G, &L, runtime, memfmt, DLP_DT_FLOAT16, NULL, 0};
    return dlp__backward_kernels(&b, kernel_of(node), r, 4);
}

static void t_grouped(void) {
    dlp__bwd_kernel r[4];
    CIN = 16;
    build(2);   /* 2 groups of 8 channels: no tuned cuDNN kernel */
    /* PyTorch 1.x, channels_last: dgrad and wgrad both grouped direct; a
     * width of 8 < 48 reuses each load 8 times: 48/8 = 6x the FLOPs' time */
    CHECK_I64(bwd(DLP_RUNTIME_EAGER1X, DLP_MEMFMT_NHWC, "conv2", r), 2);
    int k2 = kernel_of("conv2");
    double fwd = L.k[k2].flops;
    CHECK(!strcmp(r[0].name, "cudnn::dgrad2d_grouped_direct_kernel") && r[0].unit == DLP__BWD_GROUPED);
    CHECK(!strcmp(r[1].name, "cudnn::wgrad2d_grouped_direct_kernel") && r[1].unit == DLP__BWD_GROUPED);
    CHECK_NEAR(r[0].flops, 6.0 * fwd, 1e-6 * fwd);
    /* dY (A) + W (16*8*9*2 = 2,304) + dX (A) = 403,712 B; wgrad X + dY + dW the same */
    CHECK_NEAR(r[0].bytes, 403712.0, 0.5);
    CHECK_NEAR(r[1].bytes, 403712.0, 0.5);
    /* NCHW: dgrad as a dense conv on the forward's unit, wgrad direct */
    CHECK_I64(bwd(DLP_RUNTIME_EAGER1X, DLP_MEMFMT_NCHW, "conv2", r), 2);
    CHECK(r[0].unit == DLP__BWD_FWD && r[1].unit == DLP__BWD_GROUPED);
    CHECK_NEAR(r[0].flops, fwd, 1e-6 * fwd);
    /* PyTorch 2.x: both on the forward's unit with the forward's FLOPs */
    CHECK_I64(bwd(DLP_RUNTIME_EAGER, DLP_MEMFMT_NHWC, "conv2", r), 2);
    CHECK(r[0].unit == DLP__BWD_FWD && r[1].unit == DLP__BWD_FWD);
    CHECK_NEAR(r[1].flops, fwd, 1e-6 * fwd);
    /* conv1 reads the graph input: wgrad only; dense: forward's unit,
     * X (A) + dY (A) + W (16*16*2 = 512) = 401,920 B */
    CHECK_I64(bwd(DLP_RUNTIME_EAGER1X, DLP_MEMFMT_NHWC, "conv1", r), 1);
    CHECK(r[0].unit == DLP__BWD_FWD);
    CHECK_NEAR(r[0].bytes, 401920.0, 0.5);
    /* the add passes its gradient through: no kernel */
    CHECK_I64(bwd(DLP_RUNTIME_EAGER1X, DLP_MEMFMT_NHWC, "add", r), 0);
    /* relu: one kernel, reads dY and its output, writes dX: 3A */
    CHECK_I64(bwd(DLP_RUNTIME_EAGER1X, DLP_MEMFMT_NHWC, "relu", r), 1);
    CHECK_NEAR(r[0].bytes, 3 * A_BYTES, 0.5);
}

static void t_tuned_and_depthwise(void) {
    dlp__bwd_kernel r[4];
    /* 32 groups of 2 channels (a ResNeXt-like power-of-two shape): cuDNN's
     * tuned kernels, the forward's unit even under PyTorch 1.x */
    CIN = 64;
    build(32);
    CHECK_I64(bwd(DLP_RUNTIME_EAGER1X, DLP_MEMFMT_NHWC, "conv2", r), 2);
    CHECK(r[0].unit == DLP__BWD_FWD && r[1].unit == DLP__BWD_FWD);
    /* depthwise (64 groups of one channel): dgrad streams like the
     * forward, wgrad is the PyTorch 1.x reduction kernel; 2.x: forward's */
    build(64);
    CHECK_I64(bwd(DLP_RUNTIME_EAGER1X, DLP_MEMFMT_NHWC, "conv2", r), 2);
    CHECK(r[0].unit == DLP__BWD_FWD && r[1].unit == DLP__BWD_DW_WGRAD);
    CHECK_I64(bwd(DLP_RUNTIME_EAGER, DLP_MEMFMT_NHWC, "conv2", r), 2);
    CHECK(r[1].unit == DLP__BWD_FWD);
    CIN = 16;
}

static void t_fork(void) {
    CIN = 16;
    build(1);
    dlp__bwd_kernel r[4];
    CHECK(bwd(DLP_RUNTIME_EAGER1X, DLP_MEMFMT_NHWC, "relu", r) == 1);
    dlp__bwd_ctx b = {G, &L, DLP_RUNTIME_EAGER1X, DLP_MEMFMT_NHWC, DLP_DT_FLOAT16, NULL, 0};
    double by = 0;
    /* relu's output feeds conv2 and the add: one add of 3A */
    CHECK_I64(dlp__backward_fork_adds(&b, kernel_of("relu"), &by), 1);
    CHECK_NEAR(by, 3 * A_BYTES, 0.5);
    /* conv1's output feeds only relu; conv2's only the add */
    CHECK_I64(dlp__backward_fork_adds(&b, kernel_of("conv1"), &by), 0);
    CHECK_I64(dlp__backward_fork_adds(&b, kernel_of("conv2"), &by), 0);
}

/* A projection split into three parts (q, k, v): x[8,16] -> MatMul (W
 * [16,48]) -> qkv[8,48] -> Split 3 x [8,16] -> three Relu.  The parts'
 * gradients are put together by one copy (read the parts, write the whole:
 * 2 x 8*48*2 B = 1,536 B), not summed by two adds (which would be 2 x 3 x
 * 768 B). */
static void t_fork_sliced(void) {
    dlp_graph_free(G);
    dlp_error e = {0};
    G = dlp__graph_new("t");
    G->opset = 17;
    int x = dlp__graph_add_value(G, "x", DLP_DT_FLOAT, 2, D(8, 16));
    dlp__graph_mark_input(G, x);
    int w = dlp__graph_add_weight(G, "proj.weight", DLP_DT_FLOAT, 2, D(16, 48));
    int qkv = dlp__graph_add_value(G, "qkv", 0, -1, NULL);
    dlp__graph_add_node(G, "proj", "MatMul", "", 2, (int[]){x, w}, 1, &qkv);
    int sizes = dlp__graph_add_const_ints(G, "sizes", 1, D(3), D(16, 16, 16));
    int parts[3], outs[3];
    for (int i = 0; i < 3; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "p%d", i);
        parts[i] = dlp__graph_add_value(G, nm, 0, -1, NULL);
        snprintf(nm, sizeof nm, "o%d", i);
        outs[i] = dlp__graph_add_value(G, nm, 0, -1, NULL);
        dlp__graph_mark_output(G, outs[i]);
    }
    int sp = dlp__graph_add_node(G, "split", "Split", "", 2, (int[]){qkv, sizes}, 3, parts);
    dlp__node_set_int(G, sp, "axis", 1);
    for (int i = 0; i < 3; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "relu%d", i);
        dlp__graph_add_node(G, nm, "Relu", "", 1, &parts[i], 1, &outs[i]);
    }
    CHECK(!dlp__graph_finalize(G, NULL, &e));
    dlp__bwd_kernel r[4];
    CHECK(bwd(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, "proj", r) >= 1);
    dlp__bwd_ctx b = {G, &L, DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT16, NULL, 0};
    double by = 0;
    CHECK_I64(dlp__backward_fork_adds(&b, kernel_of("proj"), &by), 1);
    CHECK_NEAR(by, 1536.0, 0.5);
}

/* What the forward keeps for the backward: conv1 its input x (A, the graph
 * input), relu its output r (A), conv2 its input r (the same tensor), the
 * add nothing; c1 and c2 are read by no backward kernel: 2A = 401,408 B.
 * Every kernel output (the old rule) would add c1, r, c2 and y: 5A. */
static void t_saved(void) {
    CIN = 16;
    build(2);
    dlp__bwd_kernel r[4];
    CHECK(bwd(DLP_RUNTIME_EAGER1X, DLP_MEMFMT_NHWC, "conv2", r) == 2);
    dlp__bwd_ctx b = {G, &L, DLP_RUNTIME_EAGER1X, DLP_MEMFMT_NHWC, DLP_DT_FLOAT16, NULL, 0};
    CHECK_NEAR(dlp__saved_bytes(&b), 2 * A_BYTES, 0.5);
    CHECK_NEAR(dlp__saved_bytes(NULL), 0, 0);
}

/* Per parameter: 1e6 params in 10 tensors, of which 4 conv weights of
 * 8e5 params that autocast casts. */
static void t_step(void) {
    dlp__bwd_kernel r[8];
    /* PyTorch 1.x, fp16, SGD momentum: cast backward 4 x (2e5 x 6 B =
     * 1.2e6 B); GradScaler 1 launch (10 tensors <= 36) x 8e6 B;
     * AccumulateGrad 10 x 1.2e6 B; SGD momentum 30 kernels (3 per tensor)
     * of 32e6 / 30 B */
    int n = dlp__step_param_kernels(DLP_RUNTIME_EAGER1X, DLP_DT_FLOAT16, DLP_OPTIM_SGD_MOMENTUM, 1e6, 10, 8e5, 4, r,
                                    8);
    CHECK_I64(n, 4);
    CHECK_I64(r[0].count, 4);
    CHECK_NEAR(r[0].bytes, 1.2e6, 0.5);
    CHECK_I64(r[1].count, 1);
    CHECK_NEAR(r[1].bytes, 8e6, 0.5);
    CHECK_I64(r[2].count, 10);
    CHECK_NEAR(r[2].bytes, 1.2e6, 0.5);
    CHECK_I64(r[3].count, 30);
    CHECK_NEAR(r[3].count * r[3].bytes, 32e6, 1.0);
    /* PyTorch 2.x, bf16 (no scaler), Adam: cast backward, then one
     * foreach launch of 28 B x 1e6 */
    n = dlp__step_param_kernels(DLP_RUNTIME_EAGER, DLP_DT_BFLOAT16, DLP_OPTIM_ADAM, 1e6, 10, 8e5, 4, r, 8);
    CHECK_I64(n, 2);
    CHECK_I64(r[1].count, 1);
    CHECK_NEAR(r[1].bytes, 28e6, 1.0);
    /* fp32: no casts, no scaler */
    n = dlp__step_param_kernels(DLP_RUNTIME_EAGER, DLP_DT_FLOAT, DLP_OPTIM_SGD, 1e6, 10, 8e5, 4, r, 8);
    CHECK_I64(n, 1);
    CHECK_NEAR(r[0].bytes, 12e6, 1.0);
    /* bad input: nothing, no crash */
    CHECK_I64(dlp__step_param_kernels(DLP_RUNTIME_EAGER, DLP_DT_FLOAT, 9, 0, 0, 0, 0, r, 8), 0);
    CHECK_I64(dlp__backward_kernels(NULL, 0, r, 4), 0);
}

/* Whole steps: the grouped conv's backward under PyTorch 1.x is slower than
 * under 2.x (the direct kernels run on the CUDA cores at a tenth of their
 * peak), and the dense graph's difference is only per-parameter work. */
static void t_step_times(void) {
    CIN = 64;
    build(2);
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(!dlp_devdb_load(NULL, &db, &e));
    const dlp_device *d = db ? dlp_devdb_find(db, "rtx3090") : NULL;
    CHECK(d != NULL);
    if (!d) {
        dlp_devdb_free(db);
        return;
    }
    dlp_predict_opts o = {0};
    o.mode = DLP_PREDICT_TRAIN;
    o.dtype = DLP_DT_FLOAT16;
    o.memfmt = DLP_MEMFMT_NHWC;
    o.batch = 8;
    o.no_learned = 1;
    dlp_prediction p1 = {0}, p2 = {0};
    o.runtime = DLP_RUNTIME_EAGER1X;
    CHECK(!dlp_predict(G, d, db, &o, &p1, &e));
    o.runtime = DLP_RUNTIME_EAGER;
    CHECK(!dlp_predict(G, d, db, &o, &p2, &e));
    CHECK(p1.step_ms > p2.step_ms);
    CHECK(p1.step_ms >= p1.latency_ms && p2.step_ms >= p2.latency_ms);
    dlp_prediction_clear(&p1), dlp_prediction_clear(&p2);
    dlp_devdb_free(db);
    CIN = 16;
}

/* What requires grad (autograd's rule), on
 *   x[2,4,8] (input) -> MatMul (W [8,8]) -> s;  am[2,1,8] (input) x c -> m;
 *   y = s + m (m broadcast);  z = y / scale (a scalar initializer).
 * s carries a gradient (from W); m is computed from an input alone, so the
 * Add's backward runs no kernel (the old rule summed dY into m's shape) and
 * m's Mul none.  z = y / scale: dY / scale, one pass: read dY (64 x 2 B at
 * fp16), the scalar (2 B), write dX (128 B) = 258 B; the generic rule's 1.5x
 * the forward's 256 B would be 384 B. */
static void t_requires_grad(void) {
    dlp_graph_free(G);
    dlp_error e = {0};
    G = dlp__graph_new("t");
    G->opset = 17;
    int x = dlp__graph_add_value(G, "x", DLP_DT_FLOAT, 3, D(2, 4, 8));
    int am = dlp__graph_add_value(G, "am", DLP_DT_FLOAT, 3, D(2, 1, 8));
    dlp__graph_mark_input(G, x);
    dlp__graph_mark_input(G, am);
    int w = dlp__graph_add_weight(G, "w", DLP_DT_FLOAT, 2, D(8, 8));
    int c = dlp__graph_add_weight(G, "c", DLP_DT_FLOAT, 0, NULL);
    int sc = dlp__graph_add_weight(G, "scale", DLP_DT_FLOAT, 0, NULL);
    int s = dlp__graph_add_value(G, "s", 0, -1, NULL), m = dlp__graph_add_value(G, "m", 0, -1, NULL);
    int y = dlp__graph_add_value(G, "y", 0, -1, NULL), z = dlp__graph_add_value(G, "z", 0, -1, NULL);
    dlp__graph_mark_output(G, z);
    dlp__graph_add_node(G, "mm", "MatMul", "", 2, (int[]){x, w}, 1, &s);
    dlp__graph_add_node(G, "mask", "Mul", "", 2, (int[]){am, c}, 1, &m);
    dlp__graph_add_node(G, "add", "Add", "", 2, (int[]){s, m}, 1, &y);
    dlp__graph_add_node(G, "div", "Div", "", 2, (int[]){y, sc}, 1, &z);
    CHECK(!dlp__graph_finalize(G, NULL, &e));
    unsigned char *rg = dlp__requires_grad(G);
    CHECK(rg != NULL);
    if (!rg) return;
    CHECK(rg[w] && rg[s] && rg[y] && rg[z]);
    CHECK(!rg[x] && !rg[am] && !rg[m] && !rg[c] && !rg[sc]);
    free(rg);
    dlp__bwd_kernel r[4];
    CHECK_I64(bwd(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, "add", r), 0);
    CHECK_I64(bwd(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, "mask", r), 0);
    CHECK_I64(bwd(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, "div", r), 1);
    CHECK(!strcmp(r[0].name, "aten::div (backward)"));
    CHECK_NEAR(r[0].bytes, 258.0, 0.5);
    /* the MatMul: its input x needs no gradient: only the weight's kernel */
    CHECK_I64(bwd(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, "mm", r), 1);
    CHECK_I64(r[0].count, 1);
}

/* GELU-tanh written out, x[4,64] -> y: Hugging Face's gelu_new
 *   0.5 * x * (1 + tanh(0.79788 * (x + 0.044715 * pow(x, 3))))
 * is eight tensor ops (mul, pow, mul, add, mul, tanh, add, mul) and eager
 * PyTorch launches eight kernels; torch.onnx's decomposition of one
 * F.gelu(approximate="tanh") writes the cube as x * x * x (no Pow) and is
 * one kernel; a compiler fuses either into one. */
static int gelu_graph(int with_pow) {
    dlp_graph_free(G);
    dlp_error e = {0};
    G = dlp__graph_new("t");
    G->opset = 17;
    int x = dlp__graph_add_value(G, "x", DLP_DT_FLOAT, 2, D(4, 64));
    dlp__graph_mark_input(G, x);
    int k[5];
    for (int i = 0; i < 5; i++) {
        char nm[8];
        snprintf(nm, sizeof nm, "k%d", i);
        k[i] = dlp__graph_add_weight(G, nm, DLP_DT_FLOAT, 0, NULL);
    }
    int v[9];
    for (int i = 0; i < 9; i++) {
        char nm[8];
        snprintf(nm, sizeof nm, "v%d", i);
        v[i] = dlp__graph_add_value(G, nm, 0, -1, NULL);
    }
    dlp__graph_mark_output(G, v[8]);
    dlp__graph_add_node(G, "half", "Mul", "", 2, (int[]){x, k[0]}, 1, &v[0]);
    if (with_pow) {
        dlp__graph_add_node(G, "cube", "Pow", "", 2, (int[]){x, k[1]}, 1, &v[2]);
    } else {
        dlp__graph_add_node(G, "sq", "Mul", "", 2, (int[]){x, x}, 1, &v[1]);
        dlp__graph_add_node(G, "cube", "Mul", "", 2, (int[]){v[1], x}, 1, &v[2]);
    }
    dlp__graph_add_node(G, "kappa", "Mul", "", 2, (int[]){v[2], k[2]}, 1, &v[3]);
    dlp__graph_add_node(G, "inner", "Add", "", 2, (int[]){x, v[3]}, 1, &v[4]);
    dlp__graph_add_node(G, "beta", "Mul", "", 2, (int[]){v[4], k[3]}, 1, &v[5]);
    dlp__graph_add_node(G, "tanh", "Tanh", "", 1, &v[5], 1, &v[6]);
    dlp__graph_add_node(G, "one", "Add", "", 2, (int[]){v[6], k[4]}, 1, &v[7]);
    dlp__graph_add_node(G, "out", "Mul", "", 2, (int[]){v[0], v[7]}, 1, &v[8]);
    return dlp__graph_finalize(G, NULL, &e) == DLP_OK;
}

static int kernels_of(int runtime) {
    dlp__lowered_free(&L);
    dlp_error e = {0};
    if (dlp__lower(G, runtime, DLP_MEMFMT_NCHW, 0, DLP_DT_FLOAT, 0, &L, &e)) return -1;
    return L.n;
}

static void t_python_gelu(void) {
    CHECK(gelu_graph(1));
    CHECK_I64(kernels_of(DLP_RUNTIME_EAGER), 8);
    CHECK_I64(kernels_of(DLP_RUNTIME_EAGER1X), 8);
    CHECK_I64(kernels_of(DLP_RUNTIME_COMPILE), 1);
    CHECK(gelu_graph(0));
    CHECK_I64(kernels_of(DLP_RUNTIME_EAGER), 1);
    CHECK(!strcmp(L.k[0].name, "aten::gelu"));
}

/* Softmax over rows of S (x[8,16,S,S] fp32, A100-PCIe-40GB, eager): PyTorch
 * runs rows of at most 1024 elements as the persistent warp softmax (one
 * read, one write: the elementwise curve) and longer rows as the block
 * softmax: streaming too (the elementwise curve) while the rows of the 8
 * CTAs of 256 threads an SM holds fit its 192 KiB L1 (S = 2048: 8 x 8 KiB),
 * the softmax curve when not (S = 16384: 512 threads, 4 x 64 KiB = 256
 * KiB; test_softmax_l1.c has the rule).  By hand: N = 8*16*S*S, 4N FLOPs, 8N bytes;
 * roofline = 8N / 1555 GB/s (FP32 vector 19.5 TFLOP/s is not the bound);
 * u = log10(roofline / 1 us), v = log10((4N / 8N) / (19.5e12 / 1555e9));
 * kernel = roofline x exp(clamp(a + b u + c v, 0, ln 100)) with the shipped
 * (a, b, c) of the class the row length picks. */
static double softmax_kernel_ms(int64_t S, const char **curve) {
    dlp_graph_free(G);
    dlp_error e = {0};
    G = dlp__graph_new("t");
    G->opset = 17;
    int x = dlp__graph_add_value(G, "x", DLP_DT_FLOAT, 4, D(8, 16, S, S));
    dlp__graph_mark_input(G, x);
    int y = dlp__graph_add_value(G, "y", 0, -1, NULL);
    dlp__graph_mark_output(G, y);
    int n = dlp__graph_add_node(G, "sm", "Softmax", "", 1, &x, 1, &y);
    dlp__node_set_int(G, n, "axis", -1);
    if (dlp__graph_finalize(G, NULL, &e)) return -1;
    dlp_devdb *db = NULL;
    if (dlp_devdb_load(NULL, &db, &e)) return -1;
    dlp_predict_opts o = {0};
    o.batch = 8;
    dlp_prediction p;
    double ms = -1;
    if (!dlp_predict(G, dlp_devdb_find(db, "a100-pcie-40gb"), db, &o, &p, &e)) {
        for (int i = 0; i < p.n_kernel_rows; i++)
            if (!strcmp(p.kernel_rows[i].name, "aten::softmax")) ms = p.kernel_rows[i].kernel_ms, *curve = p.kernel_rows[i].curve;
        dlp_prediction_clear(&p);
    }
    dlp_devdb_free(db);
    return ms;
}

static double by_hand_ms(int64_t S, int opc) {
    double N = 8.0 * 16 * S * S, roof = 8 * N / 1555e9;
    double u = fmin(fmax(log10(roof / 1e-6), -1), 5), v = fmin(fmax(log10(0.5 / (19.5e12 / 1555e9)), -3), 3);
    const dlp_eff_curve *k = &dlp_efficiency_builtin()->cls[opc];
    double l = k->a + k->b * u + k->c * v + k->d * u * u;
    return 1e3 * roof * exp(fmin(fmax(l, 0), log(100)));
}

static void t_softmax_rows(void) {
    const char *src = NULL;
    double t1 = softmax_kernel_ms(1024, &src), h1 = by_hand_ms(1024, DLP_OPC_ELEMENTWISE);
    CHECK(t1 > 0 && fabs(t1 / h1 - 1) < 1e-3);
    CHECK(src && strstr(src, "warp softmax"));
    double t2 = softmax_kernel_ms(2048, &src), h2 = by_hand_ms(2048, DLP_OPC_ELEMENTWISE);
    CHECK(t2 > 0 && fabs(t2 / h2 - 1) < 1e-3);
    CHECK(src && strstr(src, "block softmax, rows in L1"));
    double t3 = softmax_kernel_ms(16384, &src), h3 = by_hand_ms(16384, DLP_OPC_SOFTMAX);
    CHECK(t3 > 0 && fabs(t3 / h3 - 1) < 1e-3);
    CHECK(src && strstr(src, "softmax") && !strstr(src, "warp") && !strstr(src, "rows in L1"));
    if (t1 > 0 && t2 > 0 && t3 > 0)
        fprintf(stderr, "  # softmax rows 1024: %.4f ms (hand %.4f); 2048: %.4f ms (hand %.4f); 16384: %.4f ms (hand %.4f)\n",
                t1, h1, t2, h2, t3, h3);
}

/* An embedding lookup: ids[4,8] (int64) -> Gather(W [1000,16]) -> e[4,8,16]
 * -> Relu.  At fp16 the lookup reads the 32 rows it selects (32 x 16 x 2 =
 * 1,024 B), the ids (256 B) and writes e (1,024 B): 2,304 B, not the table's
 * 32,000 B.  Its backward zero-fills the table's gradient (32,000 B) and adds
 * dY's rows into it (read 1,024, write 1,024). */
static void t_embedding(void) {
    dlp_graph_free(G);
    dlp_error e = {0};
    G = dlp__graph_new("t");
    G->opset = 17;
    int ids = dlp__graph_add_value(G, "ids", DLP_DT_INT64, 2, D(4, 8));
    dlp__graph_mark_input(G, ids);
    int w = dlp__graph_add_weight(G, "wte", DLP_DT_FLOAT, 2, D(1000, 16));
    int x = dlp__graph_add_value(G, "e", 0, -1, NULL), y = dlp__graph_add_value(G, "y", 0, -1, NULL);
    dlp__graph_mark_output(G, y);
    dlp__graph_add_node(G, "wte", "Gather", "", 2, (int[]){w, ids}, 1, &x);
    dlp__graph_add_node(G, "relu", "Relu", "", 1, &x, 1, &y);
    CHECK(!dlp__graph_finalize(G, NULL, &e));
    /* under torch.autocast an embedding returns its table's dtype (fp32:
     * nn.Embedding is on no autocast list): the rows read and e written at
     * 4 B, 32 x 16 x 4 = 2,048 B each, + the ids: 4,352 B */
    dlp__lowered_free(&L);
    CHECK(!dlp__lower(G, DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, 1, DLP_DT_FLOAT16, 0, &L, &e));
    for (int j = 0; j < L.n; j++)
        if (!strcmp(dlp_graph_node_at(G, L.k[j].anchor)->name, "wte")) CHECK_NEAR(L.k[j].bytes, 4352.0, 0.5);
    /* model.half() (the numbers above) */
    dlp__lowered_free(&L);
    CHECK(!dlp__lower(G, DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, 1, DLP_DT_FLOAT16, DLP__LOWER_NO_AMP, &L, &e));
    int k = -1;   /* the lookup is a copy-class kernel (aten::index_select) */
    for (int j = 0; j < L.n; j++)
        if (!strcmp(dlp_graph_node_at(G, L.k[j].anchor)->name, "wte")) k = j;
    CHECK(k >= 0);
    if (k < 0) return;
    dlp__bwd_ctx b = {G, &L, DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT16, NULL, 0};
    dlp__bwd_kernel r[4];
    CHECK_I64(dlp__backward_kernels(&b, k, r, 4), 2);
    CHECK_NEAR(L.k[k].bytes, 2304.0, 0.5);
    CHECK_NEAR(r[0].bytes, 32000.0, 0.5);
    CHECK_NEAR(r[1].bytes, 2048.0, 0.5);
}

/* Dropout in training, x[4,64] -> MatMul (W [64,64]) -> Dropout -> y, at
 * fp16: PyTorch's fused native_dropout reads x (512 B) and writes y (512 B)
 * and its one-byte mask (256 B): 1,280 B; its backward reads dY (512 B) and
 * the mask (256 B) and writes dX (512 B): 1,280 B (the generic rule's 1.5x
 * the forward would be 1,920 B).  In inference the Dropout is no kernel. */
static void t_dropout(void) {
    dlp_graph_free(G);
    dlp_error e = {0};
    G = dlp__graph_new("t");
    G->opset = 17;
    int x = dlp__graph_add_value(G, "x", DLP_DT_FLOAT, 2, D(4, 64));
    dlp__graph_mark_input(G, x);
    int w = dlp__graph_add_weight(G, "w", DLP_DT_FLOAT, 2, D(64, 64));
    int h = dlp__graph_add_value(G, "h", 0, -1, NULL), y = dlp__graph_add_value(G, "y", 0, -1, NULL);
    dlp__graph_mark_output(G, y);
    dlp__graph_add_node(G, "mm", "MatMul", "", 2, (int[]){x, w}, 1, &h);
    dlp__graph_add_node(G, "drop", "Dropout", "", 1, &h, 1, &y);
    CHECK(!dlp__graph_finalize(G, NULL, &e));
    dlp__bwd_kernel r[4];
    CHECK_I64(bwd(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, "drop", r), 1);
    int k = kernel_of("drop");
    CHECK(k >= 0);
    if (k < 0) return;
    CHECK_NEAR(L.k[k].bytes, 1280.0, 0.5);
    CHECK(!strcmp(r[0].name, "aten::native_dropout_backward"));
    CHECK_NEAR(r[0].bytes, 1280.0, 0.5);
    CHECK_I64(kernels_of(DLP_RUNTIME_EAGER), 1);   /* inference: the MatMul alone */
    /* p = 0 (torchvision's Swin): F.dropout returns its input, no kernel
     * in training either (opset 10: the ratio is an attribute) */
    dlp_graph_free(G);
    G = dlp__graph_new("t");
    G->opset = 10;
    x = dlp__graph_add_value(G, "x", DLP_DT_FLOAT, 2, D(4, 64));
    dlp__graph_mark_input(G, x);
    w = dlp__graph_add_weight(G, "w", DLP_DT_FLOAT, 2, D(64, 64));
    h = dlp__graph_add_value(G, "h", 0, -1, NULL), y = dlp__graph_add_value(G, "y", 0, -1, NULL);
    dlp__graph_mark_output(G, y);
    dlp__graph_add_node(G, "mm", "MatMul", "", 2, (int[]){x, w}, 1, &h);
    int dn = dlp__graph_add_node(G, "drop", "Dropout", "", 1, &h, 1, &y);
    dlp__node_set_float(G, dn, "ratio", 0.0);
    CHECK(!dlp__graph_finalize(G, NULL, &e));
    dlp__lowered_free(&L);
    /* model.half(): x arrives half (autocast would cast the fp32 input first) */
    CHECK(!dlp__lower(G, DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, 1, DLP_DT_FLOAT16, DLP__LOWER_NO_AMP, &L, &e));
    CHECK_I64(L.n, 1);
    CHECK(kernel_of("drop") < 0);
}

/* Pow by a scalar, x[4,64] -> MatMul (W [64,64]) -> h -> Pow(h, 3) -> y at
 * fp16 (512 B a tensor): pow_backward is grad * (3 * h.pow(2)), three
 * kernels: pow (read h, write: 1,024 B), the scalar multiply (1,024 B), the
 * product with dY (read two, write one: 1,536 B). */
static void t_pow(void) {
    dlp_graph_free(G);
    dlp_error e = {0};
    G = dlp__graph_new("t");
    G->opset = 17;
    int x = dlp__graph_add_value(G, "x", DLP_DT_FLOAT, 2, D(4, 64));
    dlp__graph_mark_input(G, x);
    int w = dlp__graph_add_weight(G, "w", DLP_DT_FLOAT, 2, D(64, 64));
    int c = dlp__graph_add_weight(G, "three", DLP_DT_FLOAT, 0, NULL);
    int h = dlp__graph_add_value(G, "h", 0, -1, NULL), y = dlp__graph_add_value(G, "y", 0, -1, NULL);
    dlp__graph_mark_output(G, y);
    dlp__graph_add_node(G, "mm", "MatMul", "", 2, (int[]){x, w}, 1, &h);
    dlp__graph_add_node(G, "cube", "Pow", "", 2, (int[]){h, c}, 1, &y);
    CHECK(!dlp__graph_finalize(G, NULL, &e));
    dlp__bwd_kernel r[4];
    CHECK_I64(bwd(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, "cube", r), 3);
    CHECK_NEAR(r[0].bytes, 1024.0, 0.5);
    CHECK_NEAR(r[1].bytes, 1024.0, 0.5);
    CHECK_NEAR(r[2].bytes, 1536.0, 0.5);
}

/* A linear layer's backward is two GEMMs of their own shapes.  y = h.W1
 * with h [M, K] (computed from W0, so it needs dX), W1 [K, N]: dX = dY.W1^T
 * is M x K over N, the forward GEMM of a linear with N inputs and K
 * outputs over M tokens; dW = h^T.dY is K x N over M, the forward GEMM of a
 * linear with M inputs and N outputs over K tokens.  So, by hand, the dX
 * row of graph A must time like the forward of graph B and the dW row like
 * the forward of graph C, at fp32 on a V100 (the tile/wave model).  With M
 * = 4096 tokens, K = 1024, N = 64 the three shapes are far apart: the
 * forward (N = 64: few tiles), dX (K = 64: short loop) and dW (K = 4096). */
static dlp_graph *mm_graph(int64_t m, int64_t k, int64_t n, int chain) {
    dlp_error e = {0};
    dlp_graph *g = dlp__graph_new("mm");
    g->opset = 17;
    int x = dlp__graph_add_value(g, "x", DLP_DT_FLOAT, 2, D(m, k));
    dlp__graph_mark_input(g, x);
    int h = x;
    if (chain) {
        int w0 = dlp__graph_add_weight(g, "w0", DLP_DT_FLOAT, 2, D(k, k));
        h = dlp__graph_add_value(g, "h", 0, -1, NULL);
        dlp__graph_add_node(g, "mm0", "MatMul", "", 2, (int[]){x, w0}, 1, &h);
    }
    int w1 = dlp__graph_add_weight(g, "w1", DLP_DT_FLOAT, 2, D(k, n));
    int y = dlp__graph_add_value(g, "y", 0, -1, NULL);
    dlp__graph_mark_output(g, y);
    dlp__graph_add_node(g, "mm1", "MatMul", "", 2, (int[]){h, w1}, 1, &y);
    if (dlp__graph_finalize(g, NULL, &e)) fprintf(stderr, "  finalize: %s\n", e.msg);
    return g;
}

/* kernel_ms of the row of node `node` in phase `phase` named `name` (NULL:
 * any); -1 when there is none */
static double mm_row_ms(dlp_graph *g, const dlp_device *d, const dlp_devdb *db, const char *node, int phase,
                        const char *name, const char **curve) {
    dlp_predict_opts o = {0};
    o.mode = DLP_PREDICT_TRAIN;
    o.dtype = DLP_DT_FLOAT;
    o.batch = 1;
    o.no_learned = 1;
    dlp_prediction p;
    dlp_error e = {0};
    double ms = -1;
    if (dlp_predict(g, d, db, &o, &p, &e)) return -1;
    for (int i = 0; i < p.n_kernel_rows; i++) {
        const dlp_kernel_pred *r = &p.kernel_rows[i];
        const dlp_node_info *ni = r->node >= 0 ? dlp_graph_node_at(g, r->node) : NULL;
        if (r->phase != phase || !ni || strcmp(ni->name, node) || (name && strcmp(r->name, name))) continue;
        ms = r->kernel_ms;
        if (curve) *curve = r->curve;
    }
    dlp_prediction_clear(&p);
    return ms;
}

static void t_mm_backward_shapes(void) {
    dlp_devdb *db = NULL;
    dlp_error e = {0};
    CHECK(!dlp_devdb_load(NULL, &db, &e));
    const dlp_device *d = db ? dlp_devdb_find(db, "v100-pcie-32gb") : NULL;
    CHECK(d != NULL);
    if (!d) {
        dlp_devdb_free(db);
        return;
    }
    dlp_graph *a = mm_graph(4096, 1024, 64, 1), *b = mm_graph(4096, 64, 1024, 0), *c = mm_graph(1024, 4096, 64, 0);
    const char *src = NULL;
    double dx = mm_row_ms(a, d, db, "mm1", 1, DLP__MM_DGRAD, &src);
    CHECK(src && strstr(src, "waves"));
    double dw = mm_row_ms(a, d, db, "mm1", 1, DLP__MM_WGRAD, &src);
    CHECK(src && strstr(src, "waves"));
    double fa = mm_row_ms(a, d, db, "mm1", 0, NULL, NULL);
    double fb = mm_row_ms(b, d, db, "mm1", 0, NULL, NULL), fc = mm_row_ms(c, d, db, "mm1", 0, NULL, NULL);
    CHECK(dx > 0 && fabs(dx / fb - 1) < 1e-9);
    CHECK(dw > 0 && fabs(dw / fc - 1) < 1e-9);
    /* the three shapes differ, so one time for all three (the old single
     * row at the forward's time) would be wrong for at least two */
    CHECK(fabs(dx / fa - 1) > 0.01 && fabs(dw / fa - 1) > 0.01);
    /* the first layer reads the graph input: its backward has no dX row */
    CHECK(mm_row_ms(a, d, db, "mm0", 1, DLP__MM_DGRAD, NULL) < 0);
    CHECK(mm_row_ms(a, d, db, "mm0", 1, DLP__MM_WGRAD, NULL) > 0);
    fprintf(stderr, "  # V100 fp32: forward %.4f ms, dX %.4f (as B's forward %.4f), dW %.4f (as C's %.4f)\n", fa, dx, fb,
            dw, fc);
    dlp_graph_free(a), dlp_graph_free(b), dlp_graph_free(c);
    dlp_devdb_free(db);
}

int main(void) {
    RUN(t_grouped);
    RUN(t_tuned_and_depthwise);
    RUN(t_fork);
    RUN(t_fork_sliced);
    RUN(t_saved);
    RUN(t_step);
    RUN(t_step_times);
    RUN(t_requires_grad);
    RUN(t_python_gelu);
    RUN(t_softmax_rows);
    RUN(t_embedding);
    RUN(t_dropout);
    RUN(t_pow);
    RUN(t_mm_backward_shapes);
    dlp__lowered_free(&L);
    dlp_graph_free(G);
    return TAP_DONE();
}
