/*
 * test_ops_nn.c — unit tests of the rules in src/graph/ops_nn.c: shapes and
 * costs of convolutions, pools, Gemm/MatMul/Einsum, norms, softmax,
 * reductions, TopK, Resize, RNNs and the com.microsoft attention ops.
 *
 * Every expected number is computed by hand in the comment beside it (or
 * checked against onnx / PyTorch where the comment says so), so a failure
 * points at the rule, not at the test.
 */
#include <stdarg.h>

#include "graph/graph.h"
#include "tap.h"

#define D(...) ((const int64_t[]){__VA_ARGS__})
#define F32 DLP_DT_FLOAT

/* ---- tiny graph builder --------------------------------------------------- */

static dlp_graph *G;
static dlp_error E;

static void fresh(int64_t opset) {
    dlp_graph_free(G);
    G = dlp__graph_new("t");
    G->opset = opset;
    G->opset_ms = 1;
    memset(&E, 0, sizeof E);
}

static int in_(const char *name, int dt, int rank, const int64_t *dims) {
    int v = dlp__graph_add_value(G, name, dt, rank, dims);
    dlp__graph_mark_input(G, v);
    return v;
}
static int w_(const char *name, int rank, const int64_t *dims) {
    return dlp__graph_add_weight(G, name, F32, rank, dims);
}
static int ints_(const char *name, int n, const int64_t *vals) {
    int64_t d = n, none = 0;
    return dlp__graph_add_const_ints(G, name, 1, &d, vals ? vals : &none);
}
static int floats_(const char *name, int n, const double *vals) {
    int64_t d = n;
    int v = dlp__graph_add_weight(G, name, F32, 1, &d);
    double none = 0;
    G->values[v].fval = dlp__arena_memdup(&G->arena, vals ? vals : &none, sizeof(double) * (size_t)(n ? n : 1));
    G->values[v].nval = n;
    return v;
}
static int out_(const char *name) {
    int v = dlp__graph_add_value(G, name, 0, -1, NULL);
    dlp__graph_mark_output(G, v);
    return v;
}
/* node(op, domain, n_in, in..., n_out, out...) */
static int node_(const char *op, const char *domain, int n_in, ...) {
    int in[16], out[16];
    va_list ap;
    va_start(ap, n_in);
    for (int i = 0; i < n_in; i++) in[i] = va_arg(ap, int);
    int n_out = va_arg(ap, int);
    for (int i = 0; i < n_out; i++) out[i] = va_arg(ap, int);
    va_end(ap);
    return dlp__graph_add_node(G, "n0", op, domain, n_in, in, n_out, out);
}
static dlp_status fin(void) { return dlp__graph_finalize(G, NULL, &E); }

/* The value of a tensor by name (after finalize ids are unchanged). */
static const dlp__value *V(int id) { return &G->values[id]; }

#define CHECK_SHAPE(id, ...)                                                          \
    do {                                                                              \
        const int64_t want_[] = {__VA_ARGS__};                                        \
        int wr_ = (int)(sizeof want_ / sizeof want_[0]);                              \
        const dlp__value *v_ = V(id);                                                 \
        CHECK_I64(v_->rank, wr_);                                                     \
        for (int i_ = 0; i_ < wr_ && i_ < v_->rank; i_++) CHECK_I64(v_->dims[i_], want_[i_]); \
    } while (0)

/* Finalize must fail with DLP_ESHAPE and a message naming the node. */
#define CHECK_FAILS(substr)                                                           \
    do {                                                                              \
        dlp_status s_ = fin();                                                        \
        CHECK_I64(s_, DLP_ESHAPE);                                                    \
        CHECK(strstr(E.msg, "n0") != NULL);                                           \
        if (!strstr(E.msg, substr)) {                                                 \
            tap_cur_fail++;                                                           \
            fprintf(stderr, "  %s:%d: message \"%s\" lacks \"%s\"\n", __FILE__, __LINE__, E.msg, substr); \
        }                                                                             \
    } while (0)

/* ---- Conv ------------------------------------------------------------------ */

static void t_conv_stem(void) {
    /* ResNet stem: 224 -> (224 + 6 - 7)/2 + 1 = 112 */
    fresh(13);
    int x = in_("x", F32, 4, D(1, 3, 224, 224)), w = w_("w", 4, D(64, 3, 7, 7)), b = w_("b", 1, D(64));
    int y = out_("y");
    int n = node_("Conv", "", 3, x, w, b, 1, y);
    dlp__node_set_ints(G, n, "strides", 2, D(2, 2));
    dlp__node_set_ints(G, n, "pads", 4, D(3, 3, 3, 3));
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 64, 112, 112);
    CHECK_I64(V(y)->dtype, F32);
    /* MACs = 64*112*112 outputs x 3 x 49 = 118013952; FLOPs = 2 MACs + bias */
    CHECK_I64(G->nodes[0].macs, 118013952);
    CHECK_I64(G->nodes[0].flops, 2 * 118013952LL + 64 * 112 * 112);
}

static void t_conv_auto_pad(void) {
    /* SAME_*: out = ceil(in / s) either way; only the odd pad's side moves */
    const char *modes[] = {"SAME_UPPER", "SAME_LOWER"};
    for (int m = 0; m < 2; m++) {
        fresh(13);
        /* in 7, k 3, s 2: out 4.  in 8, k 4, s 1: total pad 3 (odd), out 8 */
        int x = in_("x", F32, 4, D(1, 2, 7, 8)), w = w_("w", 4, D(4, 2, 3, 4));
        int y = out_("y");
        int n = node_("Conv", "", 2, x, w, 1, y);
        dlp__node_set_string(G, n, "auto_pad", modes[m]);
        dlp__node_set_ints(G, n, "strides", 2, D(2, 1));
        CHECK_I64(fin(), DLP_OK);
        CHECK_SHAPE(y, 1, 4, 4, 8);
    }
    /* VALID: (7 - 3)/2 + 1 = 3, (8 - 4)/1 + 1 = 5 */
    fresh(13);
    int x = in_("x", F32, 4, D(1, 2, 7, 8)), w = w_("w", 4, D(4, 2, 3, 4)), y = out_("y");
    int n = node_("Conv", "", 2, x, w, 1, y);
    dlp__node_set_string(G, n, "auto_pad", "VALID");
    dlp__node_set_ints(G, n, "strides", 2, D(2, 1));
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 4, 3, 5);
    /* SAME with stride > kernel (pad clipped to 0): in 10, k 1, s 4 -> 3 */
    fresh(13);
    x = in_("x", F32, 3, D(1, 2, 10));
    w = w_("w", 3, D(4, 2, 1));
    y = out_("y");
    n = node_("Conv", "", 2, x, w, 1, y);
    dlp__node_set_string(G, n, "auto_pad", "SAME_LOWER");
    dlp__node_set_ints(G, n, "strides", 1, D(4));
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 4, 3);
}

static void t_conv_dilation_1d_3d(void) {
    /* dilation 2, k 3 -> extent 5; in 17 + pads 1+2 = 20; (20-5)/2+1 = 8.
     * axis 1: dilation 3, k 3 -> 7; in 19 + 0 + 1 = 20; (20-7)/1+1 = 14 */
    fresh(13);
    int x = in_("x", F32, 4, D(2, 4, 17, 19)), w = w_("w", 4, D(6, 4, 3, 3)), y = out_("y");
    int n = node_("Conv", "", 2, x, w, 1, y);
    dlp__node_set_ints(G, n, "dilations", 2, D(2, 3));
    dlp__node_set_ints(G, n, "pads", 4, D(1, 0, 2, 1));
    dlp__node_set_ints(G, n, "strides", 2, D(2, 1));
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 2, 6, 8, 14);
    /* 1-D: (100 - 5)/2 + 1 = 48; MACs = 4*32*48 x 16 x 5 */
    fresh(13);
    x = in_("x", F32, 3, D(4, 16, 100));
    w = w_("w", 3, D(32, 16, 5));
    y = out_("y");
    n = node_("Conv", "", 2, x, w, 1, y);
    dlp__node_set_ints(G, n, "strides", 1, D(2));
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 4, 32, 48);
    CHECK_I64(G->nodes[0].macs, 4LL * 32 * 48 * 16 * 5);
    /* 3-D with kernel_shape given explicitly (must agree with W) */
    fresh(11);
    x = in_("x", F32, 5, D(1, 3, 16, 112, 112));
    w = w_("w", 5, D(64, 3, 3, 7, 7));
    y = out_("y");
    n = node_("Conv", "", 2, x, w, 1, y);
    dlp__node_set_ints(G, n, "kernel_shape", 3, D(3, 7, 7));
    dlp__node_set_ints(G, n, "strides", 3, D(1, 2, 2));
    dlp__node_set_ints(G, n, "pads", 6, D(1, 3, 3, 1, 3, 3));
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 64, 16, 56, 56);
}

static void t_conv_groups_macs(void) {
    /* depthwise: C 32, group 32, W (32, 1, 3, 3): MACs = 32*56*56 x 1 x 9 */
    fresh(13);
    int x = in_("x", F32, 4, D(1, 32, 56, 56)), w = w_("w", 4, D(32, 1, 3, 3)), y = out_("y");
    int n = node_("Conv", "", 2, x, w, 1, y);
    dlp__node_set_int(G, n, "group", 32);
    dlp__node_set_ints(G, n, "pads", 4, D(1, 1, 1, 1));
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 32, 56, 56);
    CHECK_I64(G->nodes[0].macs, 903168);
    CHECK_I64(G->nodes[0].flops, 2 * 903168);
    /* grouped: group 4, W (64, 8, 3, 3), stride 2: out 28x28;
     * MACs = 64*28*28 x 8 x 9 = 3612672 */
    fresh(13);
    x = in_("x", F32, 4, D(1, 32, 56, 56));
    w = w_("w", 4, D(64, 8, 3, 3));
    y = out_("y");
    n = node_("Conv", "", 2, x, w, 1, y);
    dlp__node_set_int(G, n, "group", 4);
    dlp__node_set_ints(G, n, "pads", 4, D(1, 1, 1, 1));
    dlp__node_set_ints(G, n, "strides", 2, D(2, 2));
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 64, 28, 28);
    CHECK_I64(G->nodes[0].macs, 3612672);
    CHECK_I64(G->nodes[0].params, 64 * 8 * 9);
}

static void t_conv_errors(void) {
    /* W of rank 3 for a 4-D X */
    fresh(13);
    int x = in_("x", F32, 4, D(1, 3, 32, 32)), w = w_("w", 3, D(8, 3, 3)), y = out_("y");
    node_("Conv", "", 2, x, w, 1, y);
    CHECK_FAILS("input 'w' (W) has rank 3, Conv needs rank 4");
    /* C_in 4 vs W dim 1 x group = 3 */
    fresh(13);
    x = in_("x", F32, 4, D(1, 4, 32, 32));
    w = w_("w", 4, D(8, 3, 3, 3));
    y = out_("y");
    node_("Conv", "", 2, x, w, 1, y);
    CHECK_FAILS("has 4 channels");
    /* M 10 not divisible by group 4 (C 8 = 2 x 4) */
    fresh(13);
    x = in_("x", F32, 4, D(1, 8, 32, 32));
    w = w_("w", 4, D(10, 2, 3, 3));
    y = out_("y");
    int n = node_("Conv", "", 2, x, w, 1, y);
    dlp__node_set_int(G, n, "group", 4);
    CHECK_FAILS("not divisible by group");
    /* kernel larger than the padded input */
    fresh(13);
    x = in_("x", F32, 4, D(1, 3, 4, 4));
    w = w_("w", 4, D(8, 3, 7, 7));
    y = out_("y");
    node_("Conv", "", 2, x, w, 1, y);
    CHECK_FAILS("smaller than the kernel extent");
    /* negative stride, zero dilation, group 0 */
    const char *attr[] = {"strides", "dilations"};
    for (int k = 0; k < 2; k++) {
        fresh(13);
        x = in_("x", F32, 4, D(1, 3, 32, 32));
        w = w_("w", 4, D(8, 3, 3, 3));
        y = out_("y");
        n = node_("Conv", "", 2, x, w, 1, y);
        dlp__node_set_ints(G, n, attr[k], 2, k ? D(1, 0) : D(-1, 1));
        CHECK_FAILS(attr[k]);
    }
    fresh(13);
    x = in_("x", F32, 4, D(1, 3, 32, 32));
    w = w_("w", 4, D(8, 3, 3, 3));
    y = out_("y");
    n = node_("Conv", "", 2, x, w, 1, y);
    dlp__node_set_int(G, n, "group", 0);
    CHECK_FAILS("group");
    /* absurd dilation x kernel */
    fresh(13);
    x = in_("x", F32, 4, D(1, 3, 32, 32));
    w = w_("w", 4, D(8, 3, 3, 3));
    y = out_("y");
    n = node_("Conv", "", 2, x, w, 1, y);
    dlp__node_set_ints(G, n, "dilations", 2, D((int64_t)1 << 40, (int64_t)1 << 40));
    CHECK_FAILS("absurd");
    /* rank above DLP_MAX_RANK */
    fresh(13);
    int64_t big[20];
    for (int i = 0; i < 20; i++) big[i] = 1;
    x = in_("x", F32, 20, big);
    w = w_("w", 20, big);
    y = out_("y");
    node_("Conv", "", 2, x, w, 1, y);
    CHECK_FAILS("not supported");
}

static void t_conv_unknown(void) {
    /* X of unknown rank: dtype only, no failure, no cost */
    fresh(13);
    int x = in_("x", F32, -1, NULL), w = w_("w", 4, D(8, 3, 3, 3)), y = out_("y");
    node_("Conv", "", 2, x, w, 1, y);
    CHECK_I64(fin(), DLP_OK);
    CHECK_I64(V(y)->dtype, F32);
    CHECK_I64(V(y)->rank, 4); /* W gives the rank */
    CHECK_I64(V(y)->dims[1], 8);
    CHECK_I64(V(y)->dims[2], -1);
    CHECK_I64(G->nodes[0].macs, 0);
    /* symbolic batch: N stays unknown, the rest is exact */
    fresh(13);
    x = in_("x", F32, 4, D(-1, 3, 32, 32));
    w = w_("w", 4, D(8, 3, 3, 3));
    y = out_("y");
    node_("Conv", "", 2, x, w, 1, y);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, -1, 8, 30, 30);
    CHECK_I64(G->nodes[0].macs, 0);
}

static void t_conv_quant(void) {
    /* ConvInteger -> int32; QLinearConv reads W at slot 3, dtype of y_zp */
    fresh(10);
    int x = in_("x", DLP_DT_UINT8, 4, D(1, 3, 10, 10));
    int w = dlp__graph_add_weight(G, "w", DLP_DT_UINT8, 4, D(4, 3, 3, 3));
    int y = out_("y");
    node_("ConvInteger", "", 2, x, w, 1, y);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 4, 8, 8);
    CHECK_I64(V(y)->dtype, DLP_DT_INT32);
    CHECK_I64(G->nodes[0].macs, 4 * 64 * 27);
    fresh(10);
    x = in_("x", DLP_DT_UINT8, 4, D(1, 3, 10, 10));
    int s = w_("s", 0, NULL);
    int z = dlp__graph_add_weight(G, "z", DLP_DT_INT8, 0, NULL);
    w = dlp__graph_add_weight(G, "w", DLP_DT_INT8, 4, D(4, 3, 3, 3));
    y = out_("y");
    int n = node_("QLinearConv", "", 8, x, s, z, w, s, z, s, z, 1, y);
    dlp__node_set_ints(G, n, "pads", 4, D(1, 1, 1, 1));
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 4, 10, 10);
    CHECK_I64(V(y)->dtype, DLP_DT_INT8);
}

static void t_conv_transpose(void) {
    /* out = s (in-1) + op + k - pads = 2*6 + 1 + 3 - 2 = 14 */
    fresh(13);
    int x = in_("x", F32, 4, D(1, 16, 7, 7)), w = w_("w", 4, D(16, 8, 3, 3)), b = w_("b", 1, D(8));
    int y = out_("y");
    int n = node_("ConvTranspose", "", 3, x, w, b, 1, y);
    dlp__node_set_ints(G, n, "strides", 2, D(2, 2));
    dlp__node_set_ints(G, n, "pads", 4, D(1, 1, 1, 1));
    dlp__node_set_ints(G, n, "output_padding", 2, D(1, 1));
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 8, 14, 14);
    /* MACs = numel(X) 16*49 x C_out/group 8 x 9 */
    CHECK_I64(G->nodes[0].macs, 16 * 49 * 8 * 9);
    CHECK_I64(G->nodes[0].flops, 2 * 16 * 49 * 8 * 9 + 8 * 14 * 14);
    /* groups: C_out = W dim 1 x group = 8; dilation 2 -> extent 5:
     * 2*6 + 5 = 17, and stride 3 on the other axis: 3*8 + 3 = 27 */
    fresh(13);
    x = in_("x", F32, 4, D(1, 16, 7, 9));
    w = w_("w", 4, D(16, 2, 3, 3));
    y = out_("y");
    n = node_("ConvTranspose", "", 2, x, w, 1, y);
    dlp__node_set_int(G, n, "group", 4);
    dlp__node_set_ints(G, n, "strides", 2, D(2, 3));
    dlp__node_set_ints(G, n, "dilations", 2, D(2, 1));
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 8, 17, 27);
    /* output_shape wins; SAME_UPPER gives in x stride */
    fresh(13);
    x = in_("x", F32, 4, D(1, 16, 7, 8));
    w = w_("w", 4, D(16, 8, 3, 3));
    y = out_("y");
    n = node_("ConvTranspose", "", 2, x, w, 1, y);
    dlp__node_set_ints(G, n, "strides", 2, D(2, 2));
    dlp__node_set_string(G, n, "auto_pad", "SAME_UPPER");
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 8, 14, 16);
    fresh(13);
    x = in_("x", F32, 4, D(1, 16, 7, 7));
    w = w_("w", 4, D(16, 8, 3, 3));
    y = out_("y");
    n = node_("ConvTranspose", "", 2, x, w, 1, y);
    dlp__node_set_ints(G, n, "output_shape", 2, D(15, 15));
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 8, 15, 15);
    /* X channels must match W dim 0 */
    fresh(13);
    x = in_("x", F32, 4, D(1, 12, 7, 7));
    w = w_("w", 4, D(16, 8, 3, 3));
    y = out_("y");
    node_("ConvTranspose", "", 2, x, w, 1, y);
    CHECK_FAILS("input 'x' has 12 channels");
}

/* ---- pools ------------------------------------------------------------------ */

static int64_t pool_out(const char *op, int64_t in, int64_t k, int64_t s, int64_t p, int ceil) {
    fresh(12);
    int x = in_("x", F32, 4, D(1, 3, in, in)), y = out_("y");
    int n = node_(op, "", 1, x, 1, y);
    dlp__node_set_ints(G, n, "kernel_shape", 2, D(k, k));
    dlp__node_set_ints(G, n, "strides", 2, D(s, s));
    dlp__node_set_ints(G, n, "pads", 4, D(p, p, p, p));
    dlp__node_set_int(G, n, "ceil_mode", ceil);
    if (fin()) return -99;
    return V(y)->dims[2];
}

static void t_pool_ceil(void) {
    /* floor((112 - 3)/2) + 1 = 55; ceil -> 56 */
    CHECK_I64(pool_out("MaxPool", 112, 3, 2, 0, 0), 55);
    CHECK_I64(pool_out("MaxPool", 112, 3, 2, 0, 1), 56);
    CHECK_I64(pool_out("AveragePool", 113, 3, 2, 1, 1), 57);
    /* the last window may not start in the right padding: in 5, k 2, s 2,
     * pad 1: ceil((7-2)/2)+1 = 4 windows, but the 4th starts at 6 >= 5+1,
     * so 3 (PyTorch gives 3; onnx 1.12's inference says 4) */
    CHECK_I64(pool_out("MaxPool", 5, 2, 2, 1, 1), 3);
    CHECK_I64(pool_out("MaxPool", 5, 2, 2, 1, 0), 3);
    /* cost: numel(out) x window */
    fresh(12);
    int x = in_("x", F32, 4, D(1, 3, 112, 112)), y = out_("y"), idx = out_("i");
    int n = node_("MaxPool", "", 1, x, 2, y, idx);
    dlp__node_set_ints(G, n, "kernel_shape", 2, D(3, 3));
    dlp__node_set_ints(G, n, "strides", 2, D(2, 2));
    dlp__node_set_ints(G, n, "pads", 4, D(1, 1, 1, 1));
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 3, 56, 56);
    CHECK_SHAPE(idx, 1, 3, 56, 56);
    CHECK_I64(V(idx)->dtype, DLP_DT_INT64);
    CHECK_I64(G->nodes[0].flops, 3 * 56 * 56 * 9);
    CHECK_I64(G->nodes[0].macs, 0);
    /* dilations: extent (3-1)*2+1 = 5: (20-5)/1+1 = 16; (21-4)/2+1 = 9 */
    fresh(12);
    x = in_("x", F32, 4, D(1, 3, 20, 21));
    y = out_("y");
    n = node_("MaxPool", "", 1, x, 1, y);
    dlp__node_set_ints(G, n, "kernel_shape", 2, D(3, 2));
    dlp__node_set_ints(G, n, "dilations", 2, D(2, 3));
    dlp__node_set_ints(G, n, "strides", 2, D(1, 2));
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 3, 16, 9);
    /* kernel_shape is required; kernel larger than input fails */
    fresh(12);
    x = in_("x", F32, 4, D(1, 3, 20, 21));
    y = out_("y");
    node_("AveragePool", "", 1, x, 1, y);
    CHECK_FAILS("kernel_shape is required");
    CHECK_I64(pool_out("MaxPool", 4, 7, 1, 1, 0), -99);
}

static void t_global_and_roi(void) {
    fresh(13);
    int x = in_("x", F32, 4, D(2, 3, 20, 21)), y = out_("y");
    node_("GlobalAveragePool", "", 1, x, 1, y);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 2, 3, 1, 1);
    CHECK_I64(G->nodes[0].flops, 2 * 3 * 20 * 21);
    fresh(16);
    x = in_("x", F32, 4, D(2, 256, 38, 50));
    int r = in_("rois", F32, 2, D(300, 4)), bi = in_("bi", DLP_DT_INT64, 1, D(300));
    y = out_("y");
    int n = node_("RoiAlign", "", 3, x, r, bi, 1, y);
    dlp__node_set_int(G, n, "output_height", 7);
    dlp__node_set_int(G, n, "output_width", 5);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 300, 256, 7, 5);
    fresh(13);
    x = in_("x", F32, 4, D(1, 256, 38, 50));
    r = in_("rois", F32, 2, D(300, 5));
    y = out_("y");
    n = node_("MaxRoiPool", "", 2, x, r, 1, y);
    dlp__node_set_ints(G, n, "pooled_shape", 2, D(7, 7));
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 300, 256, 7, 7);
    /* MaxUnpool: (10-1)*2 + 2 = 20, or the output_shape input */
    fresh(11);
    x = in_("x", F32, 4, D(1, 3, 10, 10));
    int ix = in_("i", DLP_DT_INT64, 4, D(1, 3, 10, 10));
    y = out_("y");
    n = node_("MaxUnpool", "", 2, x, ix, 1, y);
    dlp__node_set_ints(G, n, "kernel_shape", 2, D(2, 2));
    dlp__node_set_ints(G, n, "strides", 2, D(2, 2));
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 3, 20, 20);
    fresh(11);
    x = in_("x", F32, 4, D(1, 3, 10, 10));
    ix = in_("i", DLP_DT_INT64, 4, D(1, 3, 10, 10));
    int os = ints_("os", 4, D(1, 3, 21, 21));
    y = out_("y");
    n = node_("MaxUnpool", "", 3, x, ix, os, 1, y);
    dlp__node_set_ints(G, n, "kernel_shape", 2, D(2, 2));
    dlp__node_set_ints(G, n, "strides", 2, D(2, 2));
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 3, 21, 21);
}

/* ---- Gemm / MatMul / Einsum ----------------------------------------------- */

static void t_gemm(void) {
    /* A (4, 8), B (16, 8) transB, C (16) broadcast over rows */
    fresh(13);
    int a = in_("a", F32, 2, D(4, 8)), b = w_("b", 2, D(16, 8)), c = w_("c", 1, D(16)), y = out_("y");
    int n = node_("Gemm", "", 3, a, b, c, 1, y);
    dlp__node_set_int(G, n, "transB", 1);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 4, 16);
    CHECK_I64(G->nodes[0].macs, 4 * 16 * 8);
    CHECK_I64(G->nodes[0].flops, 2 * 512 + 64);
    /* transA, C (4, 1) broadcast over columns, alpha != 1: +MN */
    fresh(13);
    a = in_("a", F32, 2, D(8, 4));
    b = w_("b", 2, D(8, 16));
    c = w_("c", 2, D(4, 1));
    y = out_("y");
    n = node_("Gemm", "", 3, a, b, c, 1, y);
    dlp__node_set_int(G, n, "transA", 1);
    dlp__node_set_float(G, n, "alpha", 0.5);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 4, 16);
    CHECK_I64(G->nodes[0].flops, 2 * 512 + 64 + 64);
    /* C that cannot broadcast */
    fresh(13);
    a = in_("a", F32, 2, D(4, 8));
    b = w_("b", 2, D(8, 16));
    c = w_("c", 2, D(3, 16));
    y = out_("y");
    node_("Gemm", "", 3, a, b, c, 1, y);
    CHECK_FAILS("input 'c' (C) dim 0 is 3");
    /* K mismatch */
    fresh(13);
    a = in_("a", F32, 2, D(4, 8));
    b = w_("b", 2, D(7, 16));
    y = out_("y");
    node_("Gemm", "", 2, a, b, 1, y);
    CHECK_FAILS("inner dims differ");
    /* unknown A: still rank 2, N from B */
    fresh(13);
    a = in_("a", F32, -1, NULL);
    b = w_("b", 2, D(8, 16));
    y = out_("y");
    node_("Gemm", "", 2, a, b, 1, y);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, -1, 16);
}

static const dlp__value *matmul(const int64_t *ad, int ar, const int64_t *bd, int br, dlp_status *st) {
    fresh(13);
    int a = in_("a", F32, ar, ad), b = in_("b", F32, br, bd), y = out_("y");
    node_("MatMul", "", 2, a, b, 1, y);
    *st = fin();
    return V(y);
}

static void t_matmul(void) {
    dlp_status st;
    const dlp__value *y = matmul(D(4), 1, D(4, 5), 2, &st); /* (K)·(K,N) -> (N) */
    CHECK_I64(st, DLP_OK);
    CHECK_I64(y->rank, 1);
    CHECK_I64(y->dims[0], 5);
    CHECK_I64(G->nodes[0].macs, 20);
    y = matmul(D(3, 4), 2, D(4), 1, &st); /* (M,K)·(K) -> (M) */
    CHECK_I64(y->rank, 1);
    CHECK_I64(y->dims[0], 3);
    y = matmul(D(4), 1, D(4), 1, &st); /* dot product -> scalar */
    CHECK_I64(st, DLP_OK);
    CHECK_I64(y->rank, 0);
    CHECK_I64(G->nodes[0].macs, 4);
    CHECK_I64(G->nodes[0].flops, 8);
    y = matmul(D(4), 1, D(2, 4, 6), 3, &st); /* (K)·(B,K,N) -> (B,N) */
    CHECK_I64(y->rank, 2);
    CHECK_I64(y->dims[0], 2);
    CHECK_I64(y->dims[1], 6);
    y = matmul(D(2, 1, 3, 4), 4, D(5, 4, 6), 3, &st); /* batch broadcast */
    CHECK_I64(st, DLP_OK);
    CHECK_I64(y->rank, 4);
    CHECK_I64(y->dims[0], 2);
    CHECK_I64(y->dims[1], 5);
    CHECK_I64(y->dims[2], 3);
    CHECK_I64(y->dims[3], 6);
    CHECK_I64(G->nodes[0].macs, 2 * 5 * 3 * 6 * 4);
    matmul(D(3, 4), 2, D(5, 6), 2, &st);
    CHECK_I64(st, DLP_ESHAPE);
    CHECK(strstr(E.msg, "inner dims differ") != NULL);
    matmul(D(2, 3, 4), 3, D(3, 4, 6), 3, &st); /* batch 2 vs 3 */
    CHECK_I64(st, DLP_ESHAPE);
    matmul(NULL, 0, D(4, 5), 2, &st);
    CHECK_I64(st, DLP_ESHAPE);
    /* MatMulInteger -> int32 */
    fresh(10);
    int a = in_("a", DLP_DT_UINT8, 2, D(3, 4)), b = in_("b", DLP_DT_UINT8, 2, D(4, 5)), o = out_("y");
    node_("MatMulInteger", "", 2, a, b, 1, o);
    CHECK_I64(fin(), DLP_OK);
    CHECK_I64(V(o)->dtype, DLP_DT_INT32);
    CHECK_SHAPE(o, 3, 5);
    /* com.microsoft FusedMatMul with transB */
    fresh(13);
    a = in_("a", F32, 3, D(2, 3, 4));
    b = in_("b", F32, 2, D(5, 4));
    o = out_("y");
    int n = node_("FusedMatMul", "com.microsoft", 2, a, b, 1, o);
    dlp__node_set_int(G, n, "transB", 1);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(o, 2, 3, 5);
    CHECK_I64(G->nodes[0].macs, 2 * 3 * 5 * 4);
}

static const dlp__value *einsum(const char *eq, int n, const int64_t *const *dims, const int *ranks,
                                dlp_status *st) {
    fresh(12);
    int in[4];
    char nm[16];
    for (int i = 0; i < n; i++) {
        snprintf(nm, sizeof nm, "x%d", i);
        in[i] = in_(nm, F32, ranks[i], dims[i]);
    }
    int y = out_("y");
    int node = dlp__graph_add_node(G, "n0", "Einsum", "", n, in, 1, &y);
    dlp__node_set_string(G, node, "equation", eq);
    *st = fin();
    return V(y);
}

static void t_einsum(void) {
    dlp_status st;
    const int64_t *mm[] = {D(3, 4), D(4, 5)};
    const dlp__value *y = einsum("ij,jk->ik", 2, mm, (int[]){2, 2}, &st);
    CHECK_I64(st, DLP_OK);
    CHECK_I64(y->rank, 2);
    CHECK_I64(y->dims[0], 3);
    CHECK_I64(y->dims[1], 5);
    CHECK_I64(G->nodes[0].macs, 60); /* i j k = 3*4*5 */
    CHECK_I64(G->nodes[0].flops, 120);
    /* implicit output: letters used once, sorted: "ba,ca" -> "bc" */
    const int64_t *bc[] = {D(3, 4), D(5, 4)};
    y = einsum("ba,ca", 2, bc, (int[]){2, 2}, &st);
    CHECK_I64(y->rank, 2);
    CHECK_I64(y->dims[0], 3);
    CHECK_I64(y->dims[1], 5);
    /* ellipsis with broadcasting batch dims */
    const int64_t *el[] = {D(7, 2, 3, 4), D(2, 4, 5)};
    y = einsum("...ij,...jk->...ik", 2, el, (int[]){4, 3}, &st);
    CHECK_I64(st, DLP_OK);
    CHECK_I64(y->rank, 4);
    CHECK_I64(y->dims[0], 7);
    CHECK_I64(y->dims[1], 2);
    CHECK_I64(y->dims[2], 3);
    CHECK_I64(y->dims[3], 5);
    CHECK_I64(G->nodes[0].macs, 7 * 2 * 3 * 4 * 5);
    y = einsum("...ij,...jk", 2, el, (int[]){4, 3}, &st); /* implicit: ... first */
    CHECK_I64(y->rank, 4);
    CHECK_I64(y->dims[3], 5);
    /* ellipsis in the middle; trace; attention scores */
    const int64_t *mid[] = {D(2, 3, 4, 5), D(5)};
    y = einsum("b...d,d->b...", 2, mid, (int[]){4, 1}, &st);
    CHECK_I64(y->rank, 3);
    CHECK_I64(y->dims[1], 3);
    CHECK_I64(y->dims[2], 4);
    const int64_t *tr[] = {D(4, 4)};
    y = einsum("ii", 1, tr, (int[]){2}, &st);
    CHECK_I64(y->rank, 0);
    const int64_t *at[] = {D(2, 8, 16, 64), D(2, 8, 20, 64)};
    y = einsum("bhqd, bhkd -> bhqk", 2, at, (int[]){4, 4}, &st);
    CHECK_I64(st, DLP_OK);
    CHECK_I64(y->rank, 4);
    CHECK_I64(y->dims[3], 20);
    CHECK_I64(G->nodes[0].macs, 2 * 8 * 16 * 20 * 64);
    /* errors: letter size conflict, rank vs term, bad character */
    const int64_t *bad[] = {D(3, 4), D(5, 6)};
    einsum("ij,jk->ik", 2, bad, (int[]){2, 2}, &st);
    CHECK_I64(st, DLP_ESHAPE);
    CHECK(strstr(E.msg, "letter 'j'") != NULL);
    einsum("ijk,jk->ik", 2, mm, (int[]){2, 2}, &st);
    CHECK_I64(st, DLP_ESHAPE);
    einsum("i#,jk->ik", 2, mm, (int[]){2, 2}, &st);
    CHECK_I64(st, DLP_ESHAPE);
    einsum("ij,jk->iz", 2, mm, (int[]){2, 2}, &st);
    CHECK_I64(st, DLP_ESHAPE);
}

/* ---- norms, softmax ---------------------------------------------------------- */

static void t_norms(void) {
    /* BatchNorm inference: 2 FLOPs / element */
    fresh(15);
    int x = in_("x", F32, 4, D(2, 8, 5, 5)), s = w_("s", 1, D(8)), y = out_("y");
    node_("BatchNormalization", "", 5, x, s, s, s, s, 1, y);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 2, 8, 5, 5);
    CHECK_I64(G->nodes[0].flops, 2 * 400);
    CHECK_I64(G->nodes[0].macs, 0);
    /* training_mode (opset 15): running mean/var (C); 5 FLOPs/elem */
    fresh(15);
    x = in_("x", F32, 4, D(2, 8, 5, 5));
    s = w_("s", 1, D(8));
    y = out_("y");
    int rm = out_("rm"), rv = out_("rv");
    int n = node_("BatchNormalization", "", 5, x, s, s, s, s, 3, y, rm, rv);
    dlp__node_set_int(G, n, "training_mode", 1);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(rm, 8);
    CHECK_SHAPE(rv, 8);
    CHECK_I64(G->nodes[0].flops, 5 * 400);
    /* opset 9: extra outputs imply training */
    fresh(9);
    x = in_("x", F32, 4, D(2, 8, 5, 5));
    s = w_("s", 1, D(8));
    y = out_("y");
    rm = out_("m");
    node_("BatchNormalization", "", 5, x, s, s, s, s, 2, y, rm);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(rm, 8);
    CHECK_I64(G->nodes[0].flops, 5 * 400);
    /* opset 7, spatial=0: per-activation parameters (C, H, W) */
    fresh(7);
    x = in_("x", F32, 4, D(2, 3, 4, 5));
    s = w_("s", 3, D(3, 4, 5));
    y = out_("y");
    rm = out_("m");
    n = node_("BatchNormalization", "", 5, x, s, s, s, s, 2, y, rm);
    dlp__node_set_int(G, n, "spatial", 0);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 2, 3, 4, 5);
    CHECK_SHAPE(rm, 3, 4, 5);
    /* scale of the wrong size */
    fresh(15);
    x = in_("x", F32, 4, D(2, 8, 5, 5));
    s = w_("s", 1, D(8));
    int s7 = w_("s7", 1, D(7));
    y = out_("y");
    node_("BatchNormalization", "", 5, x, s7, s, s, s, 1, y);
    CHECK_FAILS("input 's7' (scale) has 7 values");
    /* LayerNorm axis 1 on (2, 5, 16): Mean/InvStdDev (2, 1, 1) float even
     * for float16 X (stash_type) */
    fresh(17);
    x = in_("x", DLP_DT_FLOAT16, 3, D(2, 5, 16));
    s = dlp__graph_add_weight(G, "s", DLP_DT_FLOAT16, 2, D(5, 16));
    y = out_("y");
    int m = out_("m"), is = out_("is");
    n = node_("LayerNormalization", "", 2, x, s, 3, y, m, is);
    dlp__node_set_int(G, n, "axis", 1);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 2, 5, 16);
    CHECK_I64(V(y)->dtype, DLP_DT_FLOAT16);
    CHECK_SHAPE(m, 2, 1, 1);
    CHECK_SHAPE(is, 2, 1, 1);
    CHECK_I64(V(m)->dtype, DLP_DT_FLOAT);
    CHECK_I64(G->nodes[0].flops, 5 * 160);
    /* GroupNorm channels % groups */
    fresh(18);
    x = in_("x", F32, 4, D(2, 6, 5, 5));
    s = w_("s", 1, D(4));
    y = out_("y");
    n = node_("GroupNormalization", "", 3, x, s, s, 1, y);
    dlp__node_set_int(G, n, "num_groups", 4);
    CHECK_FAILS("not divisible by num_groups");
    /* LRN: size + 3 per element */
    fresh(13);
    x = in_("x", F32, 4, D(2, 8, 5, 5));
    y = out_("y");
    n = node_("LRN", "", 1, x, 1, y);
    dlp__node_set_int(G, n, "size", 5);
    CHECK_I64(fin(), DLP_OK);
    CHECK_I64(G->nodes[0].flops, 8 * 400);
}

static int64_t softmax_flops(const char *op, int64_t opset, int has_axis, int64_t axis) {
    fresh(opset);
    int x = in_("x", F32, 3, D(2, 8, 5)), y = out_("y");
    int n = node_(op, "", 1, x, 1, y);
    if (has_axis) dlp__node_set_int(G, n, "axis", axis);
    if (fin()) return -1;
    CHECK_SHAPE(y, 2, 8, 5);
    return G->nodes[0].flops;
}

static void t_softmax(void) {
    /* 80 elements: opset 13 default axis -1 -> 16 rows of 5: 4*80 + 16;
     * opset 11 default axis 1 coerces to (2, 40): 2 rows: 4*80 + 2 */
    CHECK_I64(softmax_flops("Softmax", 13, 0, 0), 336);
    CHECK_I64(softmax_flops("Softmax", 11, 0, 0), 322);
    CHECK_I64(softmax_flops("LogSoftmax", 13, 1, 1), 320 + 10);
    CHECK_I64(softmax_flops("Hardmax", 13, 0, 0), 80);
    CHECK_I64(softmax_flops("Softmax", 13, 1, 3), -1); /* axis out of range */
    CHECK(strstr(E.msg, "axis 3 is out of range") != NULL);
}

/* ---- reductions --------------------------------------------------------------- */

static void t_reduce(void) {
    /* opset 11: axes attribute, negative axis */
    fresh(11);
    int x = in_("x", F32, 4, D(2, 3, 4, 5)), y = out_("y");
    int n = node_("ReduceSum", "", 1, x, 1, y);
    dlp__node_set_ints(G, n, "axes", 2, D(1, -1));
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 2, 1, 4, 1);
    CHECK_I64(G->nodes[0].flops, 120);
    /* opset 13: ReduceSum axes as an input */
    fresh(13);
    x = in_("x", F32, 4, D(2, 3, 4, 5));
    int ax = ints_("axes", 2, D(1, -1));
    y = out_("y");
    n = node_("ReduceSum", "", 2, x, ax, 1, y);
    dlp__node_set_int(G, n, "keepdims", 0);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 2, 4);
    /* ReduceMean at 13 still takes the attribute; at 18 the input */
    fresh(13);
    x = in_("x", F32, 3, D(2, 3, 4));
    y = out_("y");
    n = node_("ReduceMean", "", 1, x, 1, y);
    dlp__node_set_ints(G, n, "axes", 1, D(-1));
    dlp__node_set_int(G, n, "keepdims", 0);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 2, 3);
    fresh(18);
    x = in_("x", F32, 3, D(2, 3, 4));
    ax = ints_("axes", 1, D(-2));
    y = out_("y");
    node_("ReduceMean", "", 2, x, ax, 1, y);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 2, 1, 4);
    /* no axes: reduce all; keepdims 0 -> scalar */
    fresh(18);
    x = in_("x", F32, 3, D(2, 3, 4));
    y = out_("y");
    n = node_("ReduceMax", "", 1, x, 1, y);
    dlp__node_set_int(G, n, "keepdims", 0);
    CHECK_I64(fin(), DLP_OK);
    CHECK_I64(V(y)->rank, 0);
    /* empty axes + noop_with_empty_axes: identity */
    fresh(18);
    x = in_("x", F32, 3, D(2, 3, 4));
    ax = ints_("axes", 0, NULL);
    y = out_("y");
    n = node_("ReduceMax", "", 2, x, ax, 1, y);
    dlp__node_set_int(G, n, "noop_with_empty_axes", 1);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 2, 3, 4);
    /* axes input of unknown value: keepdims 1 -> rank kept, dims of 1
     * stay 1; keepdims 0 -> unknown rank */
    fresh(18);
    x = in_("x", F32, 3, D(2, 1, 4));
    ax = in_("axes", DLP_DT_INT64, 1, D(1));
    y = out_("y");
    node_("ReduceL2", "", 2, x, ax, 1, y);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, -1, 1, -1);
    fresh(18);
    x = in_("x", F32, 3, D(2, 1, 4));
    ax = in_("axes", DLP_DT_INT64, 1, D(1));
    y = out_("y");
    n = node_("ReduceL2", "", 2, x, ax, 1, y);
    dlp__node_set_int(G, n, "keepdims", 0);
    CHECK_I64(fin(), DLP_OK);
    CHECK_I64(V(y)->rank, -1);
    CHECK_I64(V(y)->dtype, F32);
    /* axis out of range */
    fresh(11);
    x = in_("x", F32, 3, D(2, 3, 4));
    y = out_("y");
    n = node_("ReduceProd", "", 1, x, 1, y);
    dlp__node_set_ints(G, n, "axes", 1, D(-4));
    CHECK_FAILS("axes value -4 is out of range");
}

static void t_arg_topk_cumsum(void) {
    fresh(13);
    int x = in_("x", F32, 3, D(2, 3, 4)), y = out_("y");
    int n = node_("ArgMax", "", 1, x, 1, y);
    dlp__node_set_int(G, n, "axis", -2);
    dlp__node_set_int(G, n, "keepdims", 0);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 2, 4);
    CHECK_I64(V(y)->dtype, DLP_DT_INT64);
    /* TopK opset 1: k attribute; opset 11: K input */
    fresh(1);
    x = in_("x", F32, 2, D(3, 10));
    int v = out_("v"), i = out_("i");
    n = node_("TopK", "", 1, x, 2, v, i);
    dlp__node_set_int(G, n, "k", 3);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(v, 3, 3);
    CHECK_SHAPE(i, 3, 3);
    CHECK_I64(V(i)->dtype, DLP_DT_INT64);
    fresh(11);
    x = in_("x", F32, 3, D(3, 10, 7));
    int k = ints_("k", 1, D(2));
    v = out_("v");
    i = out_("i");
    n = node_("TopK", "", 2, x, k, 2, v, i);
    dlp__node_set_int(G, n, "axis", -3);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(v, 2, 10, 7);
    /* flops: 210 elements x ceil(log2 2) = 1 */
    CHECK_I64(G->nodes[0].flops, 210);
    fresh(11);
    x = in_("x", F32, 2, D(3, 10));
    k = ints_("k", 1, D(11));
    v = out_("v");
    i = out_("i");
    node_("TopK", "", 2, x, k, 2, v, i);
    CHECK_FAILS("k = 11 exceeds");
    /* unknown K value: that dim unknown */
    fresh(11);
    x = in_("x", F32, 2, D(3, 10));
    k = in_("k", DLP_DT_INT64, 1, D(1));
    v = out_("v");
    i = out_("i");
    node_("TopK", "", 2, x, k, 2, v, i);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(v, 3, -1);
    fresh(14);
    x = in_("x", F32, 2, D(3, 10));
    int a = ints_("a", 1, D(1));
    y = out_("y");
    node_("CumSum", "", 2, x, a, 1, y);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 3, 10);
}

/* ---- Resize / Upsample ------------------------------------------------------- */

static void t_resize(void) {
    /* opset 10: (X, scales) */
    fresh(10);
    int x = in_("x", F32, 4, D(1, 3, 10, 10)), s = floats_("s", 4, (double[]){1, 1, 2, 2}), y = out_("y");
    node_("Resize", "", 2, x, s, 1, y);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 3, 20, 20);
    CHECK_I64(G->nodes[0].flops, 1200); /* nearest: 1 per output */
    /* opset 13: roi omitted (""), scales floor(10 x 2.5) = 25, floor(11 x 1.7) = 18 */
    fresh(13);
    x = in_("x", F32, 4, D(1, 3, 10, 11));
    s = floats_("s", 4, (double[]){1, 1, 2.5, 1.7});
    y = out_("y");
    int n = node_("Resize", "", 3, x, -1, s, 1, y);
    dlp__node_set_string(G, n, "mode", "linear");
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 3, 25, 18);
    CHECK_I64(G->nodes[0].flops, 3 * 25 * 18 * 4); /* 2 axes resized: 4 taps */
    /* opset 11: empty roi/scales (0 elements) with sizes */
    fresh(11);
    x = in_("x", F32, 4, D(1, 3, 10, 11));
    int roi = floats_("roi", 0, NULL);
    s = floats_("s", 0, NULL);
    int sz = ints_("sz", 4, D(1, 3, 33, 7));
    y = out_("y");
    node_("Resize", "", 4, x, roi, s, sz, 1, y);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 3, 33, 7);
    /* opset 18: axes attribute, sizes for those axes only, and
     * not_larger: scale = min(40/10, 30/11) = 2.727 -> (27, 30) */
    fresh(18);
    x = in_("x", F32, 4, D(1, 3, 10, 11));
    sz = ints_("sz", 2, D(40, 30));
    y = out_("y");
    n = node_("Resize", "", 4, x, -1, -1, sz, 1, y);
    dlp__node_set_ints(G, n, "axes", 2, D(2, 3));
    dlp__node_set_string(G, n, "keep_aspect_ratio_policy", "not_larger");
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 3, 27, 30);
    /* scales of unknown value: rank known, dims unknown */
    fresh(13);
    x = in_("x", F32, 4, D(1, 3, 10, 11));
    s = in_("s", F32, 1, D(4));
    y = out_("y");
    node_("Resize", "", 3, x, -1, s, 1, y);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, -1, -1, -1, -1);
    /* wrong count, and neither scales nor sizes */
    fresh(13);
    x = in_("x", F32, 4, D(1, 3, 10, 11));
    s = floats_("s", 2, (double[]){2, 2});
    y = out_("y");
    node_("Resize", "", 3, x, -1, s, 1, y);
    CHECK_FAILS("'scales' has 2 values, expected 4");
    fresh(13);
    x = in_("x", F32, 4, D(1, 3, 10, 11));
    y = out_("y");
    node_("Resize", "", 3, x, -1, -1, 1, y);
    CHECK_FAILS("needs 'scales' or 'sizes'");
    /* Upsample-7: scales attribute; Upsample-9: input */
    fresh(7);
    x = in_("x", F32, 4, D(1, 3, 10, 11));
    y = out_("y");
    n = node_("Upsample", "", 1, x, 1, y);
    dlp__node_set_ints(G, n, "scales", 4, D(1, 1, 2, 3));
    {
        /* the builder has no FLOATS setter: retype the INTS slot */
        dlp__attr *a = &G->nodes[n].attr[G->nodes[n].n_attr - 1];
        double *f = dlp__arena_alloc(&G->arena, 4 * sizeof(double));
        f[0] = 1, f[1] = 1, f[2] = 2, f[3] = 3;
        a->type = DLP_AT_FLOATS;
        a->floats = f;
    }
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 3, 20, 33);
    fresh(9);
    x = in_("x", F32, 4, D(1, 3, 10, 11));
    s = floats_("s", 4, (double[]){1, 1, 2, 3});
    y = out_("y");
    node_("Upsample", "", 2, x, s, 1, y);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 3, 20, 33);
}

/* ---- RNNs ----------------------------------------------------------------------- */

static void t_rnn(void) {
    /* bidirectional LSTM: seq 10, batch 4, input 32, hidden 20 */
    fresh(14);
    int x = in_("x", F32, 3, D(10, 4, 32)), w = w_("w", 3, D(2, 80, 32)), r = w_("r", 3, D(2, 80, 20));
    int y = out_("y"), yh = out_("yh"), yc = out_("yc");
    int n = node_("LSTM", "", 3, x, w, r, 3, y, yh, yc);
    dlp__node_set_int(G, n, "hidden_size", 20);
    dlp__node_set_string(G, n, "direction", "bidirectional");
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 10, 2, 4, 20);
    CHECK_SHAPE(yh, 2, 4, 20);
    CHECK_SHAPE(yc, 2, 4, 20);
    /* MACs = 10*4*2 x 4 gates x 20 x (32 + 20) = 332800 */
    CHECK_I64(G->nodes[0].macs, 332800);
    CHECK_I64(G->nodes[0].flops, 2 * 332800 + 10 * 4 * 2 * 20 * 17);
    /* GRU layout 1 (batch first), hidden from R */
    fresh(14);
    x = in_("x", F32, 3, D(4, 10, 32));
    w = w_("w", 3, D(1, 60, 32));
    r = w_("r", 3, D(1, 60, 20));
    y = out_("y");
    yh = out_("yh");
    n = node_("GRU", "", 3, x, w, r, 2, y, yh);
    dlp__node_set_int(G, n, "layout", 1);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 4, 10, 1, 20);
    CHECK_SHAPE(yh, 4, 1, 20);
    CHECK_I64(G->nodes[0].macs, 10 * 4 * 3 * 20 * 52);
    /* W with the wrong number of directions */
    fresh(14);
    x = in_("x", F32, 3, D(10, 4, 32));
    w = w_("w", 3, D(1, 20, 32));
    r = w_("r", 3, D(1, 20, 20));
    y = out_("y");
    n = node_("RNN", "", 3, x, w, r, 1, y);
    dlp__node_set_string(G, n, "direction", "bidirectional");
    CHECK_FAILS("input 'w' (W) has 1 directions");
}

/* ---- com.microsoft ---------------------------------------------------------------- */

static void t_ms_attention(void) {
    /* Attention: B 2, S 16, hidden 64, 4 heads */
    fresh(17);
    int x = in_("x", F32, 3, D(2, 16, 64)), w = w_("w", 2, D(64, 192)), b = w_("b", 1, D(192));
    int y = out_("y"), pr = out_("present");
    int n = node_("Attention", "com.microsoft", 3, x, w, b, 2, y, pr);
    dlp__node_set_int(G, n, "num_heads", 4);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 2, 16, 64);
    CHECK_SHAPE(pr, 2, 2, 4, 16, 16);
    /* MACs = 2*16*64*192 (QKV) + 2*16*16*(64 + 64) (QK^T, AV) */
    CHECK_I64(G->nodes[0].macs, 393216 + 65536);
    /* weights rows must equal hidden */
    fresh(17);
    x = in_("x", F32, 3, D(2, 16, 64));
    w = w_("w", 2, D(32, 192));
    y = out_("y");
    n = node_("Attention", "com.microsoft", 2, x, w, 1, y);
    dlp__node_set_int(G, n, "num_heads", 4);
    CHECK_FAILS("input 'w' (weights) has 32 rows");
    /* MultiHeadAttention: query (2, 16, 64), key/value (2, 20, 64) */
    fresh(17);
    int q = in_("q", F32, 3, D(2, 16, 64)), k = in_("k", F32, 3, D(2, 20, 64)), v = in_("v", F32, 3, D(2, 20, 64));
    y = out_("y");
    int pk = out_("pk"), pv = out_("pv");
    n = node_("MultiHeadAttention", "com.microsoft", 3, q, k, v, 3, y, pk, pv);
    dlp__node_set_int(G, n, "num_heads", 4);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 2, 16, 64);
    CHECK_SHAPE(pk, 2, 4, 20, 16);
    CHECK_I64(G->nodes[0].macs, 2LL * 16 * 20 * 128);
    /* GroupQueryAttention: 8 query heads, 2 kv heads, head 16 */
    fresh(17);
    q = in_("q", F32, 3, D(2, 16, 128));
    k = in_("k", F32, 3, D(2, 16, 32));
    v = in_("v", F32, 3, D(2, 16, 32));
    int pkin = in_("pk_in", F32, 4, D(2, 2, 40, 16)), pvin = in_("pv_in", F32, 4, D(2, 2, 40, 16));
    int sl = in_("sl", DLP_DT_INT32, 1, D(2));
    int tot = ints_("tot", 1, D(56));
    y = out_("y");
    pk = out_("pk");
    pv = out_("pv");
    n = node_("GroupQueryAttention", "com.microsoft", 7, q, k, v, pkin, pvin, sl, tot, 3, y, pk, pv);
    dlp__node_set_int(G, n, "num_heads", 8);
    dlp__node_set_int(G, n, "kv_num_heads", 2);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 2, 16, 128);
    CHECK_SHAPE(pk, 2, 2, 56, 16);
    CHECK_I64(G->nodes[0].macs, 2LL * 8 * 16 * 56 * 16 * 2);
}

static void t_ms_norms(void) {
    /* SkipLayerNormalization: output like input, mean/inv_std (B, S, 1),
     * input_skip_bias_sum like input */
    fresh(17);
    int x = in_("x", DLP_DT_FLOAT16, 3, D(2, 16, 64)), sk = in_("s", DLP_DT_FLOAT16, 3, D(2, 16, 64));
    int g = dlp__graph_add_weight(G, "g", DLP_DT_FLOAT16, 1, D(64));
    int y = out_("y"), m = out_("m"), is = out_("is"), sum = out_("sum");
    node_("SkipLayerNormalization", "com.microsoft", 4, x, sk, g, g, 4, y, m, is, sum);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 2, 16, 64);
    CHECK_I64(V(y)->dtype, DLP_DT_FLOAT16);
    CHECK_SHAPE(m, 2, 16, 1);
    CHECK_I64(V(m)->dtype, DLP_DT_FLOAT);
    CHECK_SHAPE(sum, 2, 16, 64);
    CHECK_I64(G->nodes[0].flops, 7 * 2048);
    /* gamma of the wrong size */
    fresh(17);
    x = in_("x", F32, 3, D(2, 16, 64));
    sk = in_("s", F32, 3, D(2, 16, 64));
    g = w_("g", 1, D(32));
    y = out_("y");
    node_("SkipLayerNormalization", "com.microsoft", 3, x, sk, g, 1, y);
    CHECK_FAILS("input 'g' (gamma) has 32 values");
    /* contrib LayerNormalization and SimplifiedLayerNormalization resolve
     * from com.microsoft to the rule registered in the default domain */
    fresh(17);
    x = in_("x", F32, 3, D(2, 16, 64));
    g = w_("g", 1, D(64));
    y = out_("y");
    is = out_("is");
    node_("SimplifiedLayerNormalization", "com.microsoft", 2, x, g, 2, y, is);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 2, 16, 64);
    CHECK_SHAPE(is, 2, 16, 1);
    /* EmbedLayerNormalization */
    fresh(17);
    int ids = in_("ids", DLP_DT_INT32, 2, D(2, 16));
    int we = w_("we", 2, D(30522, 64)), pe = w_("pe", 2, D(512, 64));
    g = w_("g", 1, D(64));
    y = out_("y");
    int mi = out_("mi");
    node_("EmbedLayerNormalization", "com.microsoft", 7, ids, ids, we, pe, -1, g, g, 2, y, mi);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 2, 16, 64);
    CHECK_SHAPE(mi, 2);
    CHECK_I64(V(mi)->dtype, DLP_DT_INT32);
    /* FusedConv / FusedGemm behave as Conv / Gemm (+ activation) */
    fresh(13);
    x = in_("x", F32, 4, D(1, 3, 8, 8));
    int w = w_("w", 4, D(4, 3, 3, 3));
    y = out_("y");
    int n = node_("FusedConv", "com.microsoft", 2, x, w, 1, y);
    dlp__node_set_string(G, n, "activation", "Relu");
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 1, 4, 6, 6);
    CHECK_I64(G->nodes[0].macs, 4 * 36 * 27);
    CHECK_I64(G->nodes[0].flops, 2 * 4 * 36 * 27 + 4 * 36);
    fresh(13);
    x = in_("a", F32, 2, D(4, 8));
    w = w_("b", 2, D(8, 16));
    y = out_("y");
    node_("FusedGemm", "com.microsoft", 2, x, w, 1, y);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 4, 16);
    CHECK_I64(G->nodes[0].macs, 512);
}

/* ---- losses, quantization, DFT, training optimizers (issue 26) -------------- */

static void t_losses_quant_dft(void) {
    /* SoftmaxCrossEntropyLoss, scores (3, 5, 2), labels (3, 2), mean:
     * scalar loss, log_prob like scores; FLOPs = 4*30 (log-softmax) + 6
     * (a log per row, rows = labels) + 2*6 (pick + weight/reduce) = 138 */
    fresh(13);
    int x = in_("x", F32, 3, D(3, 5, 2)), t = in_("t", DLP_DT_INT64, 2, D(3, 2));
    int y = out_("y"), lp = out_("lp");
    node_("SoftmaxCrossEntropyLoss", "", 2, x, t, 2, y, lp);
    CHECK_I64(fin(), DLP_OK);
    CHECK_I64(V(y)->rank, 0);
    CHECK_SHAPE(lp, 3, 5, 2);
    CHECK_I64(G->nodes[0].flops, 138);
    /* NegativeLogLikelihoodLoss, reduction none: the target's shape; an
     * unknown target dim comes from the input; FLOPs = 2 per target element */
    fresh(13);
    x = in_("x", F32, 3, D(3, 5, 2));
    t = in_("t", DLP_DT_INT64, 2, D(3, -1));
    y = out_("y");
    int n = node_("NegativeLogLikelihoodLoss", "", 2, x, t, 1, y);
    dlp__node_set_string(G, n, "reduction", "none");
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 3, 2);
    /* mismatched target and a bad reduction fail naming the input / value */
    fresh(13);
    x = in_("x", F32, 3, D(3, 5, 2));
    t = in_("t", DLP_DT_INT64, 2, D(3, 4));
    y = out_("y");
    node_("NegativeLogLikelihoodLoss", "", 2, x, t, 1, y);
    CHECK_FAILS("input 't' dim 1 is 4, scores have 2");
    fresh(13);
    x = in_("x", F32, 2, D(3, 5));
    t = in_("t", DLP_DT_INT64, 1, D(3));
    y = out_("y");
    n = node_("SoftmaxCrossEntropyLoss", "", 2, x, t, 1, y);
    dlp__node_set_string(G, n, "reduction", "avg");
    CHECK_FAILS("reduction is 'avg'");
    /* DynamicQuantizeLinear: uint8 like x, float and uint8 scalars; 5/elem */
    fresh(11);
    x = in_("x", F32, 2, D(3, 4));
    y = out_("y");
    int sc = out_("sc"), zp = out_("zp");
    node_("DynamicQuantizeLinear", "", 1, x, 3, y, sc, zp);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 3, 4);
    CHECK_I64(V(y)->dtype, DLP_DT_UINT8);
    CHECK_I64(V(sc)->rank, 0);
    CHECK_I64(V(sc)->dtype, DLP_DT_FLOAT);
    CHECK_I64(V(zp)->dtype, DLP_DT_UINT8);
    CHECK_I64(G->nodes[0].flops, 60);
    /* QuantizeLinear takes the zero point's dtype (int8 here) */
    fresh(13);
    x = in_("x", F32, 1, D(6));
    sc = in_("s", F32, 0, NULL);
    zp = in_("z", DLP_DT_INT8, 0, NULL);
    y = out_("y");
    node_("QuantizeLinear", "", 3, x, sc, zp, 1, y);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 6);
    CHECK_I64(V(y)->dtype, DLP_DT_INT8);
    CHECK_I64(G->nodes[0].flops, 18);
    /* DFT opset 17, axis 1, onesided, dft_length 8 on (2, 10, 1):
     * (2, 8/2+1 = 5, 2); FLOPs = 2 transforms x 5 x 8 x log2(8) = 240 */
    fresh(17);
    x = in_("x", F32, 3, D(2, 10, 1));
    int len = ints_("len", 1, D(8));
    G->values[len].rank = 0; /* a scalar */
    y = out_("y");
    n = node_("DFT", "", 2, x, len, 1, y);
    dlp__node_set_int(G, n, "onesided", 1);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(y, 2, 5, 2);
    CHECK_I64(G->nodes[0].flops, 240);
    /* Adam over two tensors: X_new, V_new, H_new shaped like each X;
     * FLOPs = 14 x (4 + 6) */
    fresh(17);
    int r = in_("r", F32, 0, NULL), st = in_("t", DLP_DT_INT64, 0, NULL);
    int x1 = in_("x1", F32, 1, D(4)), x2 = in_("x2", F32, 2, D(2, 3));
    int ins[10] = {r, st, x1, x2, x1, x2, x1, x2, x1, x2}, outs[6];
    for (int i = 0; i < 6; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "o%d", i);
        outs[i] = out_(nm);
    }
    dlp__graph_add_node(G, "adam", "Adam", "ai.onnx.preview.training", 10, ins, 6, outs);
    CHECK_I64(fin(), DLP_OK);
    CHECK_SHAPE(outs[0], 4);
    CHECK_SHAPE(outs[3], 2, 3);
    CHECK_SHAPE(outs[5], 2, 3);
    CHECK_I64(G->nodes[0].flops, 140);
}

int main(void) {
    RUN(t_conv_stem);
    RUN(t_conv_auto_pad);
    RUN(t_conv_dilation_1d_3d);
    RUN(t_conv_groups_macs);
    RUN(t_conv_errors);
    RUN(t_conv_unknown);
    RUN(t_conv_quant);
    RUN(t_conv_transpose);
    RUN(t_pool_ceil);
    RUN(t_global_and_roi);
    RUN(t_gemm);
    RUN(t_matmul);
    RUN(t_einsum);
    RUN(t_norms);
    RUN(t_softmax);
    RUN(t_reduce);
    RUN(t_arg_topk_cumsum);
    RUN(t_resize);
    RUN(t_rnn);
    RUN(t_ms_attention);
    RUN(t_ms_norms);
    RUN(t_losses_quant_dft);
    dlp_graph_free(G);
    return TAP_DONE();
}
