/* test_lower.c — the lowering pass (src/predict/lower.c) on hand-built graphs
 * whose kernel lists are worked out by hand from what eager PyTorch, inductor
 * and TensorRT launch (docs/predict.md, "Lowering"), and the prediction
 * invariants that follow (rows sum to the latency, power <= TDP, fp8 only
 * where the hardware has it).  Real models against torch.profiler are in
 * test_kernels.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "predict/lower.h"
#include "predict/predict.h"
#include "tap.h"

#include <cJSON.h>

#define D(...) ((const int64_t[]){__VA_ARGS__})

static dlp_graph *G;
static dlp_error E;
static dlp__lowered L;

static void fresh(void) {
    dlp_graph_free(G);
    G = dlp__graph_new("t");
    G->opset = 17;
    memset(&E, 0, sizeof E);
}
static int in_(const char *name, int dt, int rank, const int64_t *dims) {
    int v = dlp__graph_add_value(G, name, dt, rank, dims);
    dlp__graph_mark_input(G, v);
    return v;
}
static int w_(const char *name, int rank, const int64_t *dims) {
    return dlp__graph_add_weight(G, name, DLP_DT_FLOAT, rank, dims);
}
static int k_(const char *name, int64_t v) { return dlp__graph_add_const_ints(G, name, 0, NULL, &v); }
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
static int lower(int runtime, int memfmt, int cdt, int flags) {
    dlp__lowered_free(&L);
    dlp_status st = dlp__lower(G, runtime, memfmt, 0, cdt, flags, &L, &E);
    if (st) fprintf(stderr, "  lower: %s\n", E.msg);
    return st;
}
static int count_named(const char *name) {
    int c = 0;
    for (int i = 0; i < L.n; i++) c += !strcmp(L.k[i].name, name);
    return c;
}

/* LayerNorm as torch.onnx writes it (opset < 17): 9 nodes, one kernel that
 * reads x, gamma, beta and writes y. */
static void t_layernorm(void) {
    fresh();
    int x = in_("x", DLP_DT_FLOAT, 3, D(4, 16, 32));
    int m = val_("m"), d = val_("d"), sq = val_("sq"), var = val_("var"), ve = val_("ve"), sd = val_("sd"),
        nrm = val_("n"), sc = val_("sc"), y = out_("y");
    int r1 = node_("mean", "ReduceMean", 1, &x, m);
    dlp__node_set_ints(G, r1, "axes", 1, D(-1));
    node_("sub", "Sub", 2, (int[]){x, m}, d);
    node_("pow", "Pow", 2, (int[]){d, k_("two", 2)}, sq);
    int r2 = node_("var", "ReduceMean", 1, &sq, var);
    dlp__node_set_ints(G, r2, "axes", 1, D(-1));
    node_("eps", "Add", 2, (int[]){var, k_("eps", 0)}, ve);
    node_("sqrt", "Sqrt", 1, &ve, sd);
    node_("div", "Div", 2, (int[]){d, sd}, nrm);
    node_("gamma", "Mul", 2, (int[]){nrm, w_("g", 1, D(32))}, sc);
    node_("beta", "Add", 2, (int[]){sc, w_("b", 1, D(32))}, y);
    CHECK(!fin());
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT, 0));
    CHECK_I64(L.n, 1);
    if (L.n != 1) return;
    CHECK_STR(L.k[0].name, "aten::layer_norm");
    CHECK_I64(L.k[0].kclass, DLP_KC_NORM);
    CHECK_I64(L.k[0].n, 9);
    /* x and y, 2048 floats each, + gamma and beta, 32 floats each */
    CHECK_NEAR(L.k[0].bytes, (2 * 2048 + 2 * 32) * 4.0, 0);
    /* model.half(): activations and parameters take the compute type's size */
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT16, DLP__LOWER_NO_AMP));
    CHECK_NEAR(L.k[0].bytes, (2 * 2048 + 2 * 32) * 2.0, 0);
    /* autocast: layer_norm is on the fp32 list and x arrives fp32 (no
     * cast): x and y at 4 B, gamma and beta at 2 B (the cached casts) */
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT16, 0));
    CHECK_I64(L.n, 1);
    CHECK_NEAR(L.k[0].bytes, 2 * 2048 * 4.0 + 2 * 32 * 2.0, 0);
}

/* GELU (erf): y = x * (1 + erf(x / sqrt 2)) * 0.5 -> aten::gelu; SiLU x *
 * sigmoid(x) -> aten::silu; a squeeze-excitation gate sigmoid(a) * b stays
 * two kernels. */
static void t_activations(void) {
    fresh();
    int x = in_("x", DLP_DT_FLOAT, 2, D(64, 128));
    int a = val_("a"), e = val_("e"), p1 = val_("p1"), mx = val_("mx"), g = val_("g");
    node_("div", "Div", 2, (int[]){x, k_("s2", 1)}, a);
    node_("erf", "Erf", 1, &a, e);
    node_("add1", "Add", 2, (int[]){e, k_("one", 1)}, p1);
    node_("mulx", "Mul", 2, (int[]){x, p1}, mx);
    node_("half", "Mul", 2, (int[]){mx, k_("h", 0)}, g);
    /* silu on g */
    int s = val_("s"), si = val_("si");
    node_("sig", "Sigmoid", 1, &g, s);
    node_("silu", "Mul", 2, (int[]){g, s}, si);
    /* a gate: sigmoid(si) * x */
    int gs = val_("gs"), y = out_("y");
    node_("gsig", "Sigmoid", 1, &si, gs);
    node_("gmul", "Mul", 2, (int[]){gs, x}, y);
    CHECK(!fin());
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT, 0));
    CHECK_I64(L.n, 4);
    CHECK_I64(count_named("aten::gelu"), 1);
    CHECK_I64(count_named("aten::silu"), 1);
    CHECK_I64(count_named("aten::sigmoid"), 1);
    CHECK_I64(count_named("aten::mul"), 1);
    for (int i = 0; i < L.n; i++)
        if (!strcmp(L.k[i].name, "aten::gelu")) {
            CHECK_I64(L.k[i].n, 5);
            CHECK_NEAR(L.k[i].bytes, 2 * 64 * 128 * 4.0, 0);   /* reads x, writes y */
        }
    /* inductor fuses the whole pointwise chain into one generated kernel */
    CHECK(!lower(DLP_RUNTIME_COMPILE, DLP_MEMFMT_NCHW, DLP_DT_FLOAT, 0));
    CHECK_I64(L.n, 1);
}

/* Attention: S = Q K^T / c, softmax, P V.  PyTorch 2.x: one SDPA kernel
 * reading Q, K, V and writing O; 1.x: bmm, div, softmax, bmm.  K^T is a
 * transpose of the last two dims: a view, read in place. */
static void t_attention(void) {
    fresh();
    const int64_t *dq = D(2, 4, 64, 16);
    int q = in_("q", DLP_DT_FLOAT, 4, dq), k = in_("k", DLP_DT_FLOAT, 4, dq), v = in_("v", DLP_DT_FLOAT, 4, dq);
    int kt = val_("kt"), s = val_("s"), ss = val_("ss"), p = val_("p"), o = out_("o");
    int tr = node_("kt", "Transpose", 1, &k, kt);
    dlp__node_set_ints(G, tr, "perm", 4, D(0, 1, 3, 2));
    node_("qk", "MatMul", 2, (int[]){q, kt}, s);
    node_("scale", "Div", 2, (int[]){s, k_("c", 4)}, ss);
    int sm = node_("softmax", "Softmax", 1, &ss, p);
    dlp__node_set_int(G, sm, "axis", -1);
    node_("pv", "MatMul", 2, (int[]){p, v}, o);
    CHECK(!fin());
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT16, DLP__LOWER_NO_AMP));
    CHECK_I64(L.n, 1);
    if (L.n == 1) {
        CHECK_STR(L.k[0].name, "aten::scaled_dot_product_attention");
        CHECK_I64(L.k[0].kclass, DLP_KC_ATTN);
        CHECK_NEAR(L.k[0].bytes, 4 * 2 * 4 * 64 * 16 * 2.0, 0);   /* Q, K, V, O in fp16 */
    }
    /* autocast: q, k, v arrive as fp32 graph inputs, so SDPA (a half op)
     * runs after three casts down; it still moves fp16 */
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT16, 0));
    CHECK_I64(L.n, 4);
    CHECK_I64(count_named("aten::_to_copy (autocast)"), 3);
    for (int i = 0; i < L.n; i++)
        if (L.k[i].kclass == DLP_KC_ATTN) CHECK_NEAR(L.k[i].bytes, 4 * 2 * 4 * 64 * 16 * 2.0, 0);
    /* model.half(): bmm, div, softmax, bmm */
    CHECK(!lower(DLP_RUNTIME_EAGER1X, DLP_MEMFMT_NCHW, DLP_DT_FLOAT16, DLP__LOWER_NO_AMP));
    CHECK_I64(L.n, 4);
    CHECK_I64(count_named("aten::matmul"), 2);
    CHECK_I64(count_named("aten::contiguous"), 0);
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT16, DLP__LOWER_NO_SDPA | DLP__LOWER_NO_AMP));
    CHECK_I64(L.n, 4);
    /* autocast: softmax in fp32, its scores cast up (2 -> 4 B) and back
     * (2*4*64*64 = 32768 scores), and q, k, v (fp32 graph inputs) cast down
     * for the two matmuls: 4 + 2 + 3 kernels */
    CHECK(!lower(DLP_RUNTIME_EAGER1X, DLP_MEMFMT_NCHW, DLP_DT_FLOAT16, 0));
    CHECK_I64(L.n, 9);
    CHECK_I64(count_named("aten::_to_copy (autocast fp32)"), 1);
    CHECK_I64(count_named("aten::_to_copy (autocast)"), 4);
    for (int i = 0; i < L.n; i++)
        if (!strcmp(L.k[i].name, "aten::_to_copy (autocast fp32)")) {
            CHECK_NEAR(L.k[i].bytes, 32768 * (2.0 + 4.0), 0);
            CHECK_NEAR(L.k[i].out_bytes, 32768 * 4.0, 0);
        }
    for (int i = 0; i < L.n; i++)
        if (!strcmp(L.k[i].name, "aten::softmax")) CHECK_NEAR(L.k[i].bytes, 2 * 32768 * 4.0, 0);
    /* fp32: nothing to cast */
    CHECK(!lower(DLP_RUNTIME_EAGER1X, DLP_MEMFMT_NCHW, DLP_DT_FLOAT, 0));
    CHECK_I64(L.n, 4);
}

/* A reshape of a transposed tensor copies (x.transpose(0, 1).reshape);
 * a reshape of a contiguous one, a flatten, a squeeze are free. */
static void t_views(void) {
    fresh();
    int x = in_("x", DLP_DT_FLOAT, 3, D(2, 3, 4));
    int t = val_("t"), r = val_("r"), y = out_("y");
    int tr = node_("tr", "Transpose", 1, &x, t);
    dlp__node_set_ints(G, tr, "perm", 3, D(1, 0, 2));
    node_("rs", "Reshape", 2, (int[]){t, dlp__graph_add_const_ints(G, "shape", 1, D(2), D(3, 8))}, r);
    node_("relu", "Relu", 1, &r, y);
    CHECK(!fin());
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT, 0));
    CHECK_I64(L.n, 2);
    CHECK_I64(count_named("aten::contiguous"), 1);
    CHECK_I64(count_named("aten::relu"), 1);
    fresh();
    x = in_("x", DLP_DT_FLOAT, 3, D(2, 3, 4));
    r = val_("r"), y = out_("y");
    node_("rs", "Reshape", 2, (int[]){x, dlp__graph_add_const_ints(G, "shape", 1, D(2), D(3, 8))}, r);
    node_("relu", "Relu", 1, &r, y);
    CHECK(!fin());
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT, 0));
    CHECK_I64(L.n, 1);
    CHECK(L.node_view[0] == 1);
}

/* Convolutions: a BatchNorm the exporter folded (onnx::Conv_<n> names) runs
 * again in eager, not under TensorRT; fp16 NCHW k x k convs pay cuDNN's
 * layout conversions, 1x1 convs and channels_last do not; a depthwise
 * conv is its own class. */
static void conv_graph(const char *wname, const char *bname, int64_t ks, int64_t groups, int dt) {
    fresh();
    int64_t cin = 16, cout = groups > 1 ? 16 : 32;
    int x = in_("x", dt, 4, D(8, cin, 28, 28));
    int w = dlp__graph_add_weight(G, wname, DLP_DT_FLOAT, 4, D(cout, cin / groups, ks, ks));
    int b = dlp__graph_add_weight(G, bname, DLP_DT_FLOAT, 1, D(cout));
    int y = out_("y");
    int c = node_("conv", "Conv", 3, (int[]){x, w, b}, y);
    dlp__node_set_ints(G, c, "pads", 4, ks == 3 ? D(1, 1, 1, 1) : D(0, 0, 0, 0));
    dlp__node_set_int(G, c, "group", groups);
    CHECK(!fin());
}
static void t_convs(void) {
    conv_graph("onnx::Conv_7", "onnx::Conv_8", 3, 1, DLP_DT_FLOAT);
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT, 0));
    CHECK_I64(L.n, 2);
    CHECK_I64(count_named("aten::batch_norm"), 1);
    CHECK(!lower(DLP_RUNTIME_TENSORRT, DLP_MEMFMT_NCHW, DLP_DT_FLOAT, 0));
    CHECK_I64(L.n, 1);
    conv_graph("conv.weight", "conv.bias", 3, 1, DLP_DT_FLOAT);
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT, 0));
    CHECK_I64(L.n, 1);
    /* fp16 NCHW 3x3: input and output converted; NHWC: not (model.half()) */
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT16, DLP__LOWER_NO_AMP));
    CHECK_I64(L.n, 3);
    CHECK_I64(count_named("cudnn::nchwToNhwcKernel"), 1);
    CHECK_I64(count_named("cudnn::nhwcToNchwKernel"), 1);
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NHWC, DLP_DT_FLOAT16, DLP__LOWER_NO_AMP));
    CHECK_I64(L.n, 1);
    /* autocast: the fp32 input x (8*16*28*28 = 100352 elements) is cast down
     * first (read 4 B, write 2 B each), then converted */
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT16, 0));
    CHECK_I64(L.n, 4);
    if (L.n == 4) {
        CHECK_STR(L.k[0].name, "aten::_to_copy (autocast)");
        CHECK_NEAR(L.k[0].bytes, 100352 * 6.0, 0);
        CHECK_I64(L.k[0].grad_inputs, 0);   /* a graph input: no gradient */
        CHECK_STR(L.k[1].name, "cudnn::nchwToNhwcKernel");
    }
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NHWC, DLP_DT_FLOAT16, 0));
    CHECK_I64(L.n, 2);
    /* the compilers fuse the cast into their own kernels */
    CHECK(!lower(DLP_RUNTIME_COMPILE, DLP_MEMFMT_NHWC, DLP_DT_FLOAT16, 0));
    CHECK_I64(count_named("aten::_to_copy (autocast)"), 0);
    conv_graph("conv.weight", "conv.bias", 1, 1, DLP_DT_FLOAT);
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT16, DLP__LOWER_NO_AMP));
    CHECK_I64(L.n, 1);
    conv_graph("conv.weight", "conv.bias", 3, 16, DLP_DT_FLOAT);
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT16, DLP__LOWER_NO_AMP));
    CHECK_I64(L.n, 1);
    if (L.n == 1) CHECK_I64(L.k[0].kclass, DLP_KC_CONV_DW);
}

/* LayerNorm as torch.onnx writes it, on x (9 nodes); returns y. */
static int ln_nodes(const char *p, int x, int64_t c) {
    char nm[12][32];
    for (int i = 0; i < 12; i++) snprintf(nm[i], sizeof nm[i], "%s%d", p, i);
    int m = val_(nm[0]), d = val_(nm[1]), sq = val_(nm[2]), var = val_(nm[3]), ve = val_(nm[4]), sd = val_(nm[5]),
        nrm = val_(nm[6]), sc = val_(nm[7]), y = val_(nm[8]);
    int r1 = node_(nm[0], "ReduceMean", 1, &x, m);
    dlp__node_set_ints(G, r1, "axes", 1, D(-1));
    node_(nm[1], "Sub", 2, (int[]){x, m}, d);
    node_(nm[2], "Pow", 2, (int[]){d, k_(nm[9], 2)}, sq);
    int r2 = node_(nm[3], "ReduceMean", 1, &sq, var);
    dlp__node_set_ints(G, r2, "axes", 1, D(-1));
    node_(nm[4], "Add", 2, (int[]){var, k_(nm[10], 0)}, ve);
    node_(nm[5], "Sqrt", 1, &ve, sd);
    node_(nm[6], "Div", 2, (int[]){d, sd}, nrm);
    snprintf(nm[11], sizeof nm[11], "%sg", p);
    node_(nm[7], "Mul", 2, (int[]){nrm, w_(nm[11], 1, D(c))}, sc);
    snprintf(nm[11], sizeof nm[11], "%sb", p);
    node_(nm[8], "Add", 2, (int[]){sc, w_(nm[11], 1, D(c))}, y);
    return y;
}

/* torch.autocast's dtypes ("Autocast dtypes" in lower.c) on a ConvNeXt-like
 * residual block over tokens x [2, 4, 8] (64 elements, fp32 graph input):
 *   y = LN(x); z = y W + b; s = z * gamma; out = s + x
 * Hand-worked (eager, fp16 autocast): LN is an fp32-list op and x is fp32
 * already: no cast; it reads x (64 x 4) and gamma, beta (2 x 8 x 2 B, the
 * cached casts) and writes y in fp32 (64 x 4) = 544 B.  linear is a half op:
 * y is cast down first (64 x (4 + 2) = 384 B), then it reads y (128), W
 * (64 x 2) and b (8 x 2), writes z in half (128) = 400 B.  gamma is an fp32
 * parameter of 8 elements: z * gamma promotes to fp32: reads z (128) and
 * gamma (16), writes 256 = 400 B.  The residual add reads two fp32 tensors
 * and writes one: 3 x 256 = 768 B.  Under model.half() (no autocast) every
 * tensor is 2 B: LN 288, linear 400, mul 272, add 384, and no cast. */
static void t_autocast(void) {
    fresh();
    int x = in_("x", DLP_DT_FLOAT, 3, D(2, 4, 8));
    int y = ln_nodes("ln", x, 8);
    int mm = val_("mm"), z = val_("z"), s = val_("s"), o = out_("o");
    node_("mm", "MatMul", 2, (int[]){y, w_("W", 2, D(8, 8))}, mm);
    node_("bias", "Add", 2, (int[]){mm, w_("bb", 1, D(8))}, z);
    node_("ls", "Mul", 2, (int[]){z, w_("gamma", 1, D(8))}, s);
    node_("res", "Add", 2, (int[]){s, x}, o);
    CHECK(!fin());
    static const char *names[] = {"aten::layer_norm", "aten::_to_copy (autocast)", "aten::linear", "aten::mul",
                                  "aten::add"};
    static const double amp_b[] = {544, 384, 400, 400, 768}, half_b[] = {288, 0, 400, 272, 384};
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT16, 0));
    CHECK_I64(L.n, 5);
    for (int i = 0; i < L.n && L.n == 5; i++) {
        CHECK_STR(L.k[i].name, names[i]);
        CHECK_NEAR(L.k[i].bytes, amp_b[i], 0);
    }
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT16, DLP__LOWER_NO_AMP));
    CHECK_I64(L.n, 4);
    for (int i = 0, j = 0; i < L.n && L.n == 4; i++, j++) {
        if (j == 1) j++;
        CHECK_NEAR(L.k[i].bytes, half_b[j], 0);
    }
    /* fp32: nothing changes size, nothing is cast */
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT, 0));
    CHECK_I64(L.n, 4);

    /* a half input to an fp32-list op is cast up: LN over z (the linear's
     * half output): 64 x (2 + 4) = 384 B, and a scalar (one element) does
     * not promote: z * 0.5 stays half (reads 128, writes 128) */
    fresh();
    x = in_("x", DLP_DT_FLOAT, 3, D(2, 4, 8));
    int x16 = val_("x16"), h = val_("h"), q = val_("q");
    int cast = node_("cast", "Cast", 1, &x, x16);
    dlp__node_set_int(G, cast, "to", DLP_DT_FLOAT16);
    node_("mm", "MatMul", 2, (int[]){x16, w_("W", 2, D(8, 8))}, h);
    node_("half", "Mul", 2, (int[]){h, w_("sc", 0, NULL)}, q);
    int y2 = ln_nodes("ln", q, 8), o2 = out_("o");
    node_("id", "Relu", 1, &y2, o2);
    CHECK(!fin());
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT16, 0));
    /* cast (the graph's own), matmul, mul, cast up, layer_norm, relu (fp32) */
    CHECK_I64(L.n, 6);
    CHECK_I64(count_named("aten::_to_copy (autocast fp32)"), 1);
    CHECK_I64(count_named("aten::_to_copy (autocast)"), 0);
    for (int i = 0; i < L.n; i++) {
        if (!strcmp(L.k[i].name, "aten::_to_copy (autocast fp32)")) CHECK_NEAR(L.k[i].bytes, 384, 0);
        if (!strcmp(L.k[i].name, "aten::mul")) CHECK_NEAR(L.k[i].bytes, 256, 0);
        if (!strcmp(L.k[i].name, "aten::relu")) CHECK_NEAR(L.k[i].bytes, 512, 0);
    }

    /* a view of an fp32 parameter promotes: ViT's class token [1, 1, 8]
     * expanded to [2, 1, 8] and concatenated with the half tokens h [2, 4, 8]
     * gives fp32 [2, 5, 8]: cat reads h (64 x 2 = 128 B) and the token (8 x
     * 2 = 16 B, a weight at the compute dtype) and writes 80 x 4 = 320 B */
    fresh();
    x = in_("x", DLP_DT_FLOAT, 3, D(2, 4, 8));
    x16 = val_("x16"), h = val_("h");
    int tk = val_("tk"), oc = out_("o");
    cast = node_("cast", "Cast", 1, &x, x16);
    dlp__node_set_int(G, cast, "to", DLP_DT_FLOAT16);
    node_("mm", "MatMul", 2, (int[]){x16, w_("W", 2, D(8, 8))}, h);
    node_("exp", "Expand", 2, (int[]){w_("cls", 3, D(1, 1, 8)), dlp__graph_add_const_ints(G, "shp", 1, D(3), D(2, 1, 8))},
          tk);
    int cc = node_("cat", "Concat", 2, (int[]){tk, h}, oc);
    dlp__node_set_int(G, cc, "axis", 1);
    CHECK(!fin());
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT16, 0));
    CHECK_I64(count_named("aten::cat"), 1);
    for (int i = 0; i < L.n; i++)
        if (!strcmp(L.k[i].name, "aten::cat")) CHECK_NEAR(L.k[i].bytes, 128 + 16 + 320, 0);
}

/* nn.Linear on a 3-D input: MatMul(x, W) + Add(b) = one addmm that also
 * reads the bias; under TensorRT a following Relu joins its epilogue. */
static void t_linear(void) {
    fresh();
    int x = in_("x", DLP_DT_FLOAT, 3, D(4, 10, 64));
    int mm = val_("mm"), a = val_("a"), y = out_("y");
    node_("mm", "MatMul", 2, (int[]){x, w_("w", 2, D(64, 32))}, mm);
    node_("bias", "Add", 2, (int[]){mm, w_("b", 1, D(32))}, a);
    node_("relu", "Relu", 1, &a, y);
    CHECK(!fin());
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT, 0));
    CHECK_I64(L.n, 2);
    CHECK_STR(L.k[0].name, "aten::linear");
    CHECK_I64(L.k[0].n, 2);
    CHECK_NEAR(L.k[0].bytes, (4 * 10 * 64 + 64 * 32 + 32 + 4 * 10 * 32) * 4.0, 0);
    CHECK(!lower(DLP_RUNTIME_TENSORRT, DLP_MEMFMT_NCHW, DLP_DT_FLOAT, 0));
    CHECK_I64(L.n, 1);
    CHECK(!lower(DLP_RUNTIME_EAGER, DLP_MEMFMT_NCHW, DLP_DT_FLOAT, DLP__LOWER_FUSE));
    CHECK_I64(L.n, 1);
}

/* The prediction built on the list: the kernel rows add up to the latency,
 * average power never exceeds TDP, fp8 only where the tensor cores have it. */
static void t_predict_invariants(void) {
    dlp_devdb *db = NULL;
    CHECK(!dlp_devdb_load(NULL, &db, &E));
    fresh();
    int x = in_("x", DLP_DT_FLOAT, 2, D(8192, 8192));
    int y = out_("y");
    node_("mm", "MatMul", 2, (int[]){x, w_("w", 2, D(8192, 8192))}, y);
    CHECK(!fin());
    static const char *const ids[] = {"rtx3090", "h100-sxm", "b200", "rtx5090", "mi300x", "l4"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const dlp_device *d = dlp_devdb_find(db, ids[i]);
        CHECK(d != NULL);
        if (!d) continue;
        dlp_prediction p;
        dlp_predict_opts o = {.dtype = DLP_DT_FLOAT16};
        CHECK(!dlp_predict(G, d, db, &o, &p, &E));
        double sum = 0;
        for (int r = 0; r < p.n_kernel_rows; r++) sum += p.kernel_rows[r].time_ms;
        CHECK_NEAR(sum, p.latency_ms, 1e-9 * p.latency_ms);
        CHECK(p.power_w <= d->tdp_w + 1e-9);
        CHECK(p.power_w > 0);
        dlp_prediction_clear(&p);
    }
    dlp_prediction p;
    dlp_predict_opts o8 = {.dtype = DLP_DT_FLOAT8E4M3FN};
    CHECK(dlp_predict(G, dlp_devdb_find(db, "rtx3090"), db, &o8, &p, &E) == DLP_EINVAL);
    CHECK(strstr(E.msg, "fp8") != NULL);
    CHECK(!dlp_predict(G, dlp_devdb_find(db, "h100-sxm"), db, &o8, &p, &E));
    /* half the bytes of fp16, and the fp8 tensor peak: faster than fp16 */
    double t8 = p.latency_ms;
    dlp_prediction_clear(&p);
    dlp_predict_opts o16 = {.dtype = DLP_DT_FLOAT16};
    CHECK(!dlp_predict(G, dlp_devdb_find(db, "h100-sxm"), db, &o16, &p, &E));
    CHECK(t8 < p.latency_ms);
    dlp_prediction_clear(&p);
    dlp_predict_opts o4 = {.dtype = DLP_DT_FLOAT4E2M1};
    CHECK(dlp_predict(G, dlp_devdb_find(db, "h100-sxm"), db, &o4, &p, &E) == DLP_EINVAL);
    CHECK(!dlp_predict(G, dlp_devdb_find(db, "b200"), db, &o4, &p, &E));
    dlp_prediction_clear(&p);
    dlp_predict_opts ot = {.dtype = DLP_DT_FLOAT8E4M3FN, .mode = DLP_PREDICT_TRAIN};
    CHECK(dlp_predict(G, dlp_devdb_find(db, "h100-sxm"), db, &ot, &p, &E) == DLP_EINVAL);
    dlp_devdb_free(db);
}

static void t_names(void) {
    CHECK_I64(dlp_runtime_parse("eager"), DLP_RUNTIME_EAGER);
    CHECK_I64(dlp_runtime_parse("eager-1.x"), DLP_RUNTIME_EAGER1X);
    CHECK_I64(dlp_runtime_parse("compile"), DLP_RUNTIME_COMPILE);
    CHECK_I64(dlp_runtime_parse("tensorrt"), DLP_RUNTIME_TENSORRT);
    CHECK_I64(dlp_runtime_parse("onnxruntime"), DLP_RUNTIME_ORT);
    CHECK_I64(dlp_runtime_parse("jax"), -1);
    CHECK_I64(dlp_runtime_parse(NULL), -1);
    for (int r = 0; r < DLP_RUNTIME_COUNT_; r++) CHECK_I64(dlp_runtime_parse(dlp_runtime_name(r)), r);
    CHECK_I64(dlp_memfmt_parse("channels_last"), DLP_MEMFMT_NHWC);
    CHECK_I64(dlp_memfmt_parse("nchw"), DLP_MEMFMT_NCHW);
    CHECK_I64(dlp_memfmt_parse("nwhc"), -1);
    CHECK_I64(dlp_dtype_parse("FP8"), DLP_DT_FLOAT8E4M3FN);
    CHECK_I64(dlp_dtype_parse("mxfp4"), DLP_DT_FLOAT4E2M1);
    CHECK_I64(dlp_dtype_parse("fp64"), -1);
    CHECK_STR(dlp_dtype_short(DLP_DT_FLOAT4E2M1), "fp4");
    CHECK_STR(dlp_kernel_class_name(DLP_KC_ATTN), "attention");
    CHECK_NEAR(dlp__elem_bytes(DLP_DT_FLOAT4E2M1), 0.5, 0);
}

/* Every pattern on a real export (tools/golden/make_patterns.py: torch.onnx
 * opset 13 of a tiny module) against the aten ops torch.profiler saw when the
 * same module ran eagerly (torch 1.13: the eager-1.x profile, fp32).  View
 * ops launch nothing and are left out of both sides. */
static int is_view_op(const char *op) {
    static const char *const v[] = {"aten::transpose", "aten::view", "aten::_unsafe_view", "aten::reshape",
                                    "aten::permute", "aten::t", "aten::expand", "aten::unsqueeze",
                                    "aten::squeeze", "aten::flatten", "aten::slice", "aten::select"};
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
        if (!strcmp(op, v[k])) return 1;
    return 0;
}
static void t_patterns_real(void) {
    char path[512];
    snprintf(path, sizeof path, "tests/golden/patterns/patterns.json");
    char *txt = tap_slurp(path, NULL);
    CHECK(txt != NULL);
    if (!txt) return;
    cJSON *root = cJSON_Parse(txt);
    free(txt);
    const cJSON *pats = cJSON_GetObjectItemCaseSensitive(root, "patterns");
    CHECK(cJSON_GetArraySize(pats) >= 9);
    const cJSON *p;
    cJSON_ArrayForEach(p, pats) {
        snprintf(path, sizeof path, "tests/golden/patterns/%s.onnx", p->string);
        dlp_graph_free(G);
        G = NULL;
        dlp_load_opts lo = {0};
        CHECK(!dlp_graph_load(path, &lo, &G, &E));
        if (!G) continue;
        CHECK(!lower(DLP_RUNTIME_EAGER1X, DLP_MEMFMT_NCHW, DLP_DT_FLOAT, 0));
        const cJSON *top = cJSON_GetObjectItemCaseSensitive(p, "top_level"), *op;
        int want = 0;
        cJSON_ArrayForEach(op, top) {
            if (is_view_op(op->string)) continue;
            int n = (int)op->valuedouble, got = count_named(op->string);
            want += n;
            if (got != n) fprintf(stderr, "  %s: %s lowered %d, torch.profiler %d\n", p->string, op->string, got, n);
            CHECK_I64(got, n);
        }
        if (L.n != want) fprintf(stderr, "  %s: %d kernels lowered, torch.profiler %d\n", p->string, L.n, want);
        CHECK_I64(L.n, want);
    }
    cJSON_Delete(root);
    dlp_graph_free(G);
    G = NULL;
}

/* derive: average power never above TDP; a refinement that moved the time
 * keeps the estimate's average power (energy scales with the time); cost
 * and carbon follow the final time and energy. */
static void t_derive(void) {
    dlp_devdb *db = NULL;
    CHECK(!dlp_devdb_load(NULL, &db, &E));
    const dlp_device *h = dlp_devdb_find(db, "h100-sxm");
    CHECK(h != NULL);
    if (!h) return;
    dlp_prediction p;
    memset(&p, 0, sizeof p);
    p.mode = DLP_PREDICT_INFER;
    p.batch = 8;
    p.latency_ms = 10;
    p.energy_j = 100;                  /* 10 kW over 10 ms: impossible */
    p.memory_mb = 1000;
    dlp_predict_opts o = {0};
    CHECK(!dlp__predict_derive(h, &o, 400, 1.2, "world", &p, &E));
    CHECK_NEAR(p.power_w, h->tdp_w, 1e-9);
    CHECK_NEAR(p.energy_j, h->tdp_w * 0.010, 1e-9);
    CHECK_NEAR(p.throughput_sps, 800, 1e-9);
    CHECK_NEAR(p.co2_g, p.energy_j / 3.6e6 * 1.2 * 400, 1e-12);
    /* learned time 2x the analytic: same power, twice the energy */
    memset(&p, 0, sizeof p);
    p.mode = DLP_PREDICT_INFER;
    p.batch = 1;
    p.latency_ms = 20;
    p.energy_j = 3;                    /* for the analytic 10 ms: 300 W */
    p.time_src.learned = 1;
    p.time_src.analytic = 10;
    CHECK(!dlp__predict_derive(h, &o, 400, 1.2, "world", &p, &E));
    CHECK_NEAR(p.power_w, 300, 1e-9);
    CHECK_NEAR(p.energy_j, 6, 1e-12);
    CHECK(p.mig.profile != NULL);      /* 1000 MiB fits the smallest slice */
    /* the estimator table: a base row per device kind, then the refinement */
    int n = 0;
    const dlp__estimator *t = dlp__estimators(&n);
    CHECK(n >= 3);
    int bases = 0, refines = 0;
    for (int i = 0; i < n; i++) {
        if (t[i].refines) refines++;
        else bases++;
    }
    CHECK(bases >= 2 && refines >= 1);
    CHECK(t[0].applies(h, &o));
    dlp_devdb_free(db);
}

int main(void) {
    RUN(t_layernorm);
    RUN(t_activations);
    RUN(t_attention);
    RUN(t_views);
    RUN(t_convs);
    RUN(t_autocast);
    RUN(t_linear);
    RUN(t_predict_invariants);
    RUN(t_names);
    RUN(t_patterns_real);
    RUN(t_derive);
    dlp__lowered_free(&L);
    dlp_graph_free(G);
    return TAP_DONE();
}
