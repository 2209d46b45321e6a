/*
 * test_fbnet.c — the FBNet (HW-NAS-Bench, CIFAR-100) builder: hand-derived
 * MACs/params for two architectures, structure of a grouped block, op
 * validation, batch scaling, and the PyTorch golden values of
 * tests/golden/fbnet.json (tools/golden/fbnet_golden.py).
 *
 * Hand derivation at batch 1 (MACs = output numel x Cin/groups x k x k;
 * params = PyTorch parameters(): conv weights, BN weight+bias, Linear):
 *
 *   stem    Conv 3->16 3x3 @32x32: 442,368 MACs; 432 + 32 = 464 params
 *   header  Conv 352->1504 1x1 @4x4: 16*1504*352 = 8,470,528 MACs; 529,408 + 3,008 = 532,416
 *   fc      1504*100 = 150,400 MACs; 150,500 params
 *
 *   all skip: identity except each stage's first layer, which changes channels
 *   (Conv1x1 stride s + BN + Relu):
 *     16->24 @32x32  393,216 MACs   384+48 =    432 params
 *     24->32 s2 @16  196,608        768+64 =    832
 *     32->64 s2 @8   131,072      2,048+128 =  2,176
 *     64->112 @8     458,752      7,168+224 =  7,392
 *     112->184 s2 @4 329,728     20,608+368 = 20,976
 *     184->352 @4  1,036,288     64,768+704 = 65,472
 *   MACs 11,608,960; params 780,660
 *
 *   all k3_e1 (mid = Cin; conv1 at the input resolution, conv2/conv3 at the output):
 *     layer 0  16->16 @32       671,744 MACs      752 params
 *     1        16->24 @32       802,816           896
 *     2-4      24->24 @32     3 x 1,400,832     3 x 1,512
 *     5        24->32 s2 32->16 841,728         1,720
 *     6-8      32->32 @16     3 x 598,016       3 x 2,528
 *     9        32->64 s2 16->8  411,648         3,616
 *     10-12    64->64 @8      3 x 561,152       3 x 9,152
 *     13       64->112 @8       757,760        12,320
 *     14-16    112->112 @8    3 x 1,670,144     3 x 26,768
 *     17       112->184 s2 8->4 1,148,672      34,976
 *     18-20    184->184 @4    3 x 1,109,888     3 x 70,472
 *     21       184->352 @4    1,604,480       101,720
 *   MACs 31,322,240; params 1,170,676
 */
#include "tap.h"

#include "dlperf.h"

static dlp_graph *build(const int *ops, int64_t batch) {
    dlp_graph *g = NULL;
    dlp_error err = {0};
    if (dlp_graph_from_fbnet(ops, batch, &g, &err)) fprintf(stderr, "  build failed: %s\n", err.msg);
    return g;
}

static int64_t torch_params(const dlp_graph *g) {
    dlp_graph_stats st;
    dlp_graph_stats_get(g, &st);
    int64_t n = st.params;
    for (int i = 0; i < dlp_graph_node_count(g); i++) {
        dlp_node_info ni;
        ni = *dlp_graph_node_at(g, i);
        if (strcmp(ni.op_type, "BatchNormalization") || ni.n_inputs < 5) continue;
        for (int k = 3; k < 5; k++) {
            dlp_tensor_info ti;
            ti = *dlp_graph_tensor_at(g, ni.inputs[k]);
            n -= ti.numel;
        }
    }
    return n;
}

static int count_op(const dlp_graph *g, const char *op) {
    int n = 0;
    for (int i = 0; i < dlp_graph_node_count(g); i++) {
        dlp_node_info ni;
        ni = *dlp_graph_node_at(g, i);
        n += !strcmp(ni.op_type, op);
    }
    return n;
}

static void fill(int *ops, int v) {
    for (int i = 0; i < DLP_FBNET_LAYERS; i++) ops[i] = v;
}

static void t_all_skip(void) {
    int ops[DLP_FBNET_LAYERS];
    fill(ops, 8);
    dlp_graph *g = build(ops, 1);
    CHECK(g != NULL);
    if (!g) return;
    dlp_graph_stats st;
    dlp_graph_stats_get(g, &st);
    CHECK_I64(st.macs, 11608960);
    CHECK_I64(torch_params(g), 780660);
    /* stem 3 + six (Conv, BN, Relu) + header 3 + head 3 */
    CHECK_I64(st.nodes, 3 + 6 * 3 + 3 + 3);
    CHECK_I64(st.shapes_known, st.node_outputs);
    CHECK_STR(dlp_graph_name(g), "8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8");
    dlp_graph_free(g);
}

static void t_all_k3_e1(void) {
    int ops[DLP_FBNET_LAYERS];
    fill(ops, 0);
    dlp_graph *g = build(ops, 1);
    CHECK(g != NULL);
    if (!g) return;
    dlp_graph_stats st;
    dlp_graph_stats_get(g, &st);
    CHECK_I64(st.macs, 31322240);
    CHECK_I64(torch_params(g), 1170676);
    /* residual Add where Cin == Cout and stride 1: layer 0 and 3 per stage 1..5 */
    CHECK_I64(count_op(g, "Add"), 1 + 5 * 3);
    CHECK_I64(count_op(g, "Conv"), 1 + 22 * 3 + 1);
    CHECK_I64(st.shapes_known, st.node_outputs);
    CHECK_I64(st.n_unknown_ops, 0);
    dlp_graph_free(g);
}

/* k5_e1_g2 everywhere: grouped 1x1 convs and a channel shuffle per layer. */
static void t_grouped(void) {
    int ops[DLP_FBNET_LAYERS];
    fill(ops, 5);
    dlp_graph *g = build(ops, 2);
    CHECK(g != NULL);
    if (!g) return;
    dlp_graph_stats st;
    dlp_graph_stats_get(g, &st);
    CHECK_I64(count_op(g, "Transpose"), 22);
    CHECK_I64(count_op(g, "Reshape"), 44);
    CHECK_I64(st.shapes_known, st.node_outputs);
    CHECK_I64(st.n_unknown_ops, 0);
    /* layer 0: 16->16, conv1 1x1 group 2 at 32x32: 2*32*32*16*8 MACs; the
     * depthwise 5x5: 2*32*32*16*25 */
    for (int i = 0; i < dlp_graph_node_count(g); i++) {
        dlp_node_info ni;
        ni = *dlp_graph_node_at(g, i);
        if (!strcmp(ni.name, "layer0_k5_e1_g2/conv1")) CHECK_I64(ni.macs, 2 * 32 * 32 * 16 * 8);
        if (!strcmp(ni.name, "layer0_k5_e1_g2/conv2")) CHECK_I64(ni.macs, 2 * 32 * 32 * 16 * 25);
    }
    dlp_graph_free(g);
}

static void t_errors(void) {
    int ops[DLP_FBNET_LAYERS];
    fill(ops, 0);
    ops[7] = 9;
    dlp_graph *g = (dlp_graph *)1;
    dlp_error err = {0};
    CHECK_I64(dlp_graph_from_fbnet(ops, 1, &g, &err), DLP_EINVAL);
    CHECK(g == NULL);
    CHECK(strstr(err.msg, "layer 7") != NULL);
    ops[7] = -1;
    CHECK_I64(dlp_graph_from_fbnet(ops, 1, &g, &err), DLP_EINVAL);
    ops[7] = 0;
    CHECK_I64(dlp_graph_from_fbnet(ops, 0, &g, &err), DLP_EINVAL);
    CHECK_I64(dlp_graph_from_fbnet(NULL, 1, &g, &err), DLP_EINVAL);
    CHECK_STR(dlp_fbnet_op_name(0), "k3_e1");
    CHECK_STR(dlp_fbnet_op_name(5), "k5_e1_g2");
    CHECK_STR(dlp_fbnet_op_name(8), "skip");
    CHECK(dlp_fbnet_op_name(9) == NULL);
}

static void t_batch_scaling(void) {
    int ops[DLP_FBNET_LAYERS] = {7, 8, 1, 8, 4, 8, 8, 8, 7, 4, 1, 4, 7, 3, 2, 7, 3, 2, 4, 2, 4, 5};
    dlp_graph *g1 = build(ops, 1), *g64 = build(ops, 64);
    CHECK(g1 && g64);
    if (g1 && g64) {
        dlp_graph_stats a, b;
        dlp_graph_stats_get(g1, &a);
        dlp_graph_stats_get(g64, &b);
        CHECK_I64(b.macs, 64 * a.macs);
        CHECK_I64(b.params, a.params);
        CHECK_I64(b.nodes, a.nodes);
    }
    dlp_graph_free(g1);
    dlp_graph_free(g64);
}

static void t_golden(void) {
    FILE *fp = fopen("tests/golden/fbnet.json", "rb");
    if (!fp) {
        printf("# tests/golden/fbnet.json absent: skipped (tools/golden/fbnet_golden.py)\n");
        return;
    }
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = 0;
    int rows = 0;
    /* keys are "d-d-...-d" (22 digits); each is followed by its macs and params */
    for (char *p = strchr(buf, '"'); p; p = strchr(p + 1, '"')) {
        int ops[DLP_FBNET_LAYERS], k = 0;
        char *q = p + 1;
        while (k < DLP_FBNET_LAYERS && *q >= '0' && *q <= '9') {
            ops[k++] = *q - '0';
            q++;
            if (*q == '-') q++;
        }
        if (k != DLP_FBNET_LAYERS || *q != '"') continue;
        char *m = strstr(q, "\"macs\":"), *pr = strstr(q, "\"params\":");
        CHECK(m && pr);
        if (!m || !pr) break;
        long long macs = strtoll(m + 7, NULL, 10), params = strtoll(pr + 9, NULL, 10);
        dlp_graph *g = build(ops, 1);
        CHECK(g != NULL);
        if (!g) continue;
        dlp_graph_stats st;
        dlp_graph_stats_get(g, &st);
        if (st.macs != macs || torch_params(g) != params) {
            fprintf(stderr, "  %.*s: macs %lld params %lld, PyTorch %lld %lld\n", (int)(q - p - 1), p + 1,
                    (long long)st.macs, (long long)torch_params(g), macs, params);
            tap_cur_fail++;
        }
        dlp_graph_free(g);
        rows++;
        p = q;
    }
    CHECK(rows >= 3);
}

int main(void) {
    RUN(t_all_skip);
    RUN(t_all_k3_e1);
    RUN(t_grouped);
    RUN(t_errors);
    RUN(t_batch_scaling);
    RUN(t_golden);
    return TAP_DONE();
}
