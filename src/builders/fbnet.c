/*
 * fbnet.c — FBNet architecture (22 op indices) -> the CIFAR-100 network as
 * a graph, for the HELP / HW-NAS-Bench FBNet latency data.
 *
 * The space is HW-NAS-Bench's FBNet_Infer (hw_nas_bench_api/fbnet_models/
 * model_infer.py) with its CIFAR settings; HELP's data/fbnet/metainfo.pt
 * says dataset "cifar100", num_classes 100, and its arch lists use the same
 * op order.  docs/datasets.md records how this was established.
 *
 *   stem    Conv 3x3 3->16 s1 p1 + BN + Relu                     32x32
 *   stages  layers x channels, first layer's stride (CIFAR strides):
 *           1 x 16 s1 | 4 x 24 s1 | 4 x 32 s2 | 4 x 64 s2 | 4 x 112 s1 |
 *           4 x 184 s2 | 1 x 352 s1                               -> 4x4
 *   header  Conv 1x1 352->1504 + BN + Relu
 *   head    GlobalAveragePool, Flatten, Gemm 1504->100
 *
 * Op kE(_g2) = inverted-residual ConvBlock(Cin, Cout, expansion E, kernel
 * K, stride s, groups g): Conv1x1 Cin->Cin*E (group g) + BN + Relu,
 * [channel shuffle when g > 1: Reshape (B,g,C/g,H,W), Transpose
 * (0,2,1,3,4), Reshape (B,C,H,W)], depthwise ConvKxK stride s pad
 * ceil((K-s)/2) + BN + Relu, Conv1x1 Cin*E->Cout (group g) + BN, and
 * Add of the input when Cin == Cout and s == 1.  Note the expansion is
 * on Cin, not Cout.  skip = identity when Cin == Cout and s == 1, else
 * Conv1x1 stride s + BN + Relu.  Convs have no bias.
 */
#include <stdio.h>
#include <string.h>

#include "builders/builder.h"

static const char *const op_names[DLP_FBNET_N_OPS] = {"k3_e1", "k3_e1_g2", "k3_e3", "k3_e6", "k5_e1",
                                                      "k5_e1_g2", "k5_e3", "k5_e6", "skip"};
/* kernel, expansion, groups per op (skip: 0) */
static const int op_k[DLP_FBNET_N_OPS] = {3, 3, 3, 3, 5, 5, 5, 5, 0};
static const int op_e[DLP_FBNET_N_OPS] = {1, 1, 3, 6, 1, 1, 3, 6, 0};
static const int op_g[DLP_FBNET_N_OPS] = {1, 2, 1, 1, 1, 2, 1, 1, 0};

#define N_STAGES 7
static const int stage_layers[N_STAGES] = {1, 4, 4, 4, 4, 4, 1};
static const int64_t stage_ch[N_STAGES] = {16, 24, 32, 64, 112, 184, 352};
static const int64_t stage_stride[N_STAGES] = {1, 1, 2, 2, 1, 2, 1}; /* CIFAR */
#define STEM_CH 16
#define HEADER_CH 1504
#define CLASSES 100
#define RES 32

const char *dlp_fbnet_op_name(int op) { return op >= 0 && op < DLP_FBNET_N_OPS ? op_names[op] : NULL; }

/* Channel shuffle of ShuffleNet: (B,C,H,W) -> (B,g,C/g,H,W) -> swap 1,2 -> back. */
static int shuffle(dlp__bld *b, const char *pre, int x, int64_t c, int64_t g, int64_t hw) {
    char nm[128];
    int64_t one = 5, four = 4;
    int64_t s1[5] = {b->batch, g, c / g, hw, hw}, s2[4] = {b->batch, c, hw, hw};
    int64_t perm[5] = {0, 2, 1, 3, 4};
    if (b->oom) return -1;
    snprintf(nm, sizeof nm, "%s/shuffle/shape1", pre);
    int k1 = dlp__graph_add_const_ints(b->g, nm, 1, &one, s1);
    snprintf(nm, sizeof nm, "%s/shuffle/shape2", pre);
    int k2 = dlp__graph_add_const_ints(b->g, nm, 1, &four, s2);
    if (k1 < 0 || k2 < 0) {
        b->oom = 1;
        return -1;
    }
    int in[2] = {x, k1};
    snprintf(nm, sizeof nm, "%s/shuffle/reshape1", pre);
    int y = dlp__bld_node(b, nm, "Reshape", 2, in);
    snprintf(nm, sizeof nm, "%s/shuffle/transpose", pre);
    y = dlp__bld_node(b, nm, "Transpose", 1, &y);
    if (!b->oom && dlp__node_set_ints(b->g, b->g->n_nodes - 1, "perm", 5, perm)) b->oom = 1;
    in[0] = y;
    in[1] = k2;
    snprintf(nm, sizeof nm, "%s/shuffle/reshape2", pre);
    return dlp__bld_node(b, nm, "Reshape", 2, in);
}

/* Layer `l` with op `op`; *hw is updated to the output resolution. */
static int build_layer(dlp__bld *b, int l, int op, int x, int64_t cin, int64_t cout, int64_t s,
                       int64_t *hw) {
    char pre[64], nm[128];
    snprintf(pre, sizeof pre, "layer%d_%s", l, op_names[op]);
    int64_t out_hw = (*hw - 1) / s + 1; /* both kernels use "same" padding */
    if (op == DLP_FBNET_N_OPS - 1) { /* skip */
        *hw = out_hw;
        if (cin == cout && s == 1) return x;
        snprintf(nm, sizeof nm, "%s/conv", pre);
        int y = dlp__bld_conv(b, nm, x, cin, cout, 1, s, 0, 1, 0);
        snprintf(nm, sizeof nm, "%s/bn", pre);
        y = dlp__bld_bn(b, nm, y, cout);
        snprintf(nm, sizeof nm, "%s/relu", pre);
        return dlp__bld_relu(b, nm, y);
    }
    int64_t k = op_k[op], g = op_g[op], mid = cin * op_e[op], pad = (k - s + 1) / 2;
    snprintf(nm, sizeof nm, "%s/conv1", pre);
    int y = dlp__bld_conv(b, nm, x, cin, mid, 1, 1, 0, g, 0);
    snprintf(nm, sizeof nm, "%s/bn1", pre);
    y = dlp__bld_bn(b, nm, y, mid);
    snprintf(nm, sizeof nm, "%s/relu1", pre);
    y = dlp__bld_relu(b, nm, y);
    if (g > 1) y = shuffle(b, pre, y, mid, g, *hw);
    snprintf(nm, sizeof nm, "%s/conv2", pre);
    y = dlp__bld_conv(b, nm, y, mid, mid, k, s, pad, mid, 0); /* depthwise */
    snprintf(nm, sizeof nm, "%s/bn2", pre);
    y = dlp__bld_bn(b, nm, y, mid);
    snprintf(nm, sizeof nm, "%s/relu2", pre);
    y = dlp__bld_relu(b, nm, y);
    snprintf(nm, sizeof nm, "%s/conv3", pre);
    y = dlp__bld_conv(b, nm, y, mid, cout, 1, 1, 0, g, 0);
    snprintf(nm, sizeof nm, "%s/bn3", pre);
    y = dlp__bld_bn(b, nm, y, cout);
    *hw = out_hw;
    if (cin == cout && s == 1) {
        snprintf(nm, sizeof nm, "%s/add", pre);
        y = dlp__bld_add(b, nm, y, x); /* x += identity */
    }
    return y;
}

dlp_status dlp_graph_from_fbnet(const int *ops22, int64_t batch, dlp_graph **out, dlp_error *err) {
    if (!out) return dlp__err(err, DLP_EINVAL, "dlp_graph_from_fbnet: out is NULL");
    *out = NULL;
    if (!ops22) return dlp__err(err, DLP_EINVAL, "FBNet arch: NULL op list");
    char name[DLP_FBNET_LAYERS * 3 + 8];
    size_t p = 0;
    for (int l = 0; l < DLP_FBNET_LAYERS; l++) {
        if (ops22[l] < 0 || ops22[l] >= DLP_FBNET_N_OPS)
            return dlp__err(err, DLP_EINVAL, "FBNet arch: layer %d has op %d, expected 0..%d", l, ops22[l],
                            DLP_FBNET_N_OPS - 1);
        p += (size_t)snprintf(name + p, sizeof name - p, "%s%d", l ? "-" : "", ops22[l]);
    }
    if (batch < 1 || batch > ((int64_t)1 << 31))
        return dlp__err(err, DLP_EINVAL, "FBNet arch %s: batch %lld is not in [1, 2^31]", name, (long long)batch);
    dlp__bld b;
    dlp__bld_init(&b, name, batch);
    int x = dlp__bld_input(&b, 3, RES, RES);
    x = dlp__bld_conv(&b, "stem/conv", x, 3, STEM_CH, 3, 1, 1, 1, 0);
    x = dlp__bld_bn(&b, "stem/bn", x, STEM_CH);
    x = dlp__bld_relu(&b, "stem/relu", x);
    int64_t c = STEM_CH, hw = RES;
    int l = 0;
    for (int s = 0; s < N_STAGES; s++)
        for (int i = 0; i < stage_layers[s]; i++, l++) {
            x = build_layer(&b, l, ops22[l], x, c, stage_ch[s], i == 0 ? stage_stride[s] : 1, &hw);
            c = stage_ch[s];
        }
    x = dlp__bld_conv(&b, "header/conv", x, c, HEADER_CH, 1, 1, 0, 1, 0);
    x = dlp__bld_bn(&b, "header/bn", x, HEADER_CH);
    x = dlp__bld_relu(&b, "header/relu", x);
    x = dlp__bld_head(&b, x, HEADER_CH, CLASSES);
    return dlp__bld_finish(&b, x, out, err);
}
