/*
 * test_nb201.c — the NAS-Bench-201 builder: parser errors, hand-derived
 * MACs/params/node/edge counts, zero-node handling, batch scaling, and the
 * PyTorch golden values of tests/golden/nb201.json
 * (tools/golden/nb201_golden.py).
 *
 * Hand derivation (batch 1, C = 16, N = 5; MACs of a conv = output numel x
 * Cin/groups x k x k; "params" = what PyTorch's parameters() counts: conv
 * weights, BN weight+bias, Linear weight+bias — our graph also has BN
 * running mean/var initializers, removed by torch_params() below):
 *
 *   stem       Conv 3->16 3x3 at 32x32: 16*32*32*27 = 442,368 MACs; params 432 + BN 32 = 464
 *   3x3 edge   at C, HxW: H*W*C*C*9 MACs; 9C^2 + 2C params
 *              C=16 @32x32: 2,359,296 MACs, 2,336 params
 *              C=32 @16x16: 2,359,296 MACs, 9,280 params
 *              C=64 @ 8x8 : 2,359,296 MACs, 36,992 params
 *   resblock 16->32 (out 16x16): conv_a 256*32*16*9 = 1,179,648; conv_b 256*32*32*9 =
 *              2,359,296; shortcut 1x1 256*32*16 = 131,072 -> 3,670,016 MACs;
 *              params 4,608+64 + 9,216+64 + 512 = 14,464
 *   resblock 32->64 (out 8x8): 1,179,648 + 2,359,296 + 131,072 = 3,670,016 MACs;
 *              params 18,432+128 + 36,864+128 + 2,048 = 57,600
 *   lastact BN 128 params; classifier 64*10 = 640 MACs, 650 params
 *
 *   all nor_conv_3x3: MACs 442,368 + 3*(5*6*2,359,296) + 2*3,670,016 + 640 = 220,119,680
 *                     params 464 + 5*6*(2,336 + 9,280 + 36,992) + 14,464 + 57,600 + 128 + 650
 *                          = 1,531,546  (NAS-Bench-201's largest model, "1.53 MB")
 *   all skip_connect: MACs 442,368 + 2*3,670,016 + 640 = 7,783,040
 *                     params 464 + 14,464 + 57,600 + 128 + 650 = 73,306 ("0.07 MB")
 *   best CIFAR-10 arch (5 conv3x3 edges + 1 skip per cell):
 *                     MACs 220,119,680 - 15*2,359,296 = 184,730,240
 *                     params 1,531,546 - 5*(2,336 + 9,280 + 36,992) = 1,288,506
 *
 * Our graphs may also hold one 0 scalar (the Zero op's constant, for none
 * edges in "executed" mode or zero cells in "effective" mode); PyTorch has
 * no parameter for it, so torch_params() leaves out rank-0 initializers.
 *
 * BN running statistics (2 per BN channel): BN channels are stem 16, lastact
 * 64, resblocks 2*32 + 2*64, and per conv edge C — all-3x3: 16 + 64 + 192 +
 * 5*6*(16+32+64) = 3,632 -> 7,264 extra initializer elements in our graph.
 */
#include "tap.h"

#include "dlperf.h"

#define ALL3 "|nor_conv_3x3~0|+|nor_conv_3x3~0|nor_conv_3x3~1|+|nor_conv_3x3~0|nor_conv_3x3~1|nor_conv_3x3~2|"
#define SKIP "|skip_connect~0|+|skip_connect~0|skip_connect~1|+|skip_connect~0|skip_connect~1|skip_connect~2|"
#define BEST "|nor_conv_3x3~0|+|nor_conv_3x3~0|nor_conv_3x3~1|+|skip_connect~0|nor_conv_3x3~1|nor_conv_3x3~2|"

static dlp_graph *build_mode(const char *arch, int64_t batch, int mode) {
    dlp_graph *g = NULL;
    dlp_error err = {0};
    dlp_status st = dlp_graph_from_nb201_mode(arch, batch, mode, &g, &err);
    if (st) fprintf(stderr, "  build failed: %s\n", err.msg);
    return g;
}

static dlp_graph *build(const char *arch, int64_t batch) {
    dlp_graph *g = NULL;
    dlp_error err = {0};
    dlp_status st = dlp_graph_from_nb201(arch, batch, &g, &err);
    if (st) fprintf(stderr, "  build failed: %s\n", err.msg);
    return g;
}

/* Elements of BatchNormalization mean/var inputs (PyTorch buffers, not parameters). */
static int64_t bn_running_stats(const dlp_graph *g) {
    int64_t n = 0;
    for (int i = 0; i < dlp_graph_node_count(g); i++) {
        dlp_node_info ni;
        ni = *dlp_graph_node_at(g, i);
        if (strcmp(ni.op_type, "BatchNormalization") || ni.n_inputs < 5) continue;
        for (int k = 3; k < 5; k++) {
            dlp_tensor_info ti;
            ti = *dlp_graph_tensor_at(g, ni.inputs[k]);
            n += ti.numel;
        }
    }
    return n;
}

static int64_t torch_params(const dlp_graph *g) {
    dlp_graph_stats st;
    dlp_graph_stats_get(g, &st);
    int64_t scalars = 0;
    for (int i = 0; i < dlp_graph_tensor_count(g); i++) {
        dlp_tensor_info ti;
        ti = *dlp_graph_tensor_at(g, i);
        scalars += ti.is_initializer && ti.rank == 0;
    }
    return st.params - bn_running_stats(g) - scalars;
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

static void expect_einval(const char *arch, const char *pos_text) {
    dlp_graph *g = (dlp_graph *)1;
    dlp_error err = {0};
    dlp_status st = dlp_graph_from_nb201(arch, 1, &g, &err);
    CHECK_I64(st, DLP_EINVAL);
    CHECK(g == NULL);
    if (arch) CHECK(strstr(err.msg, arch) != NULL || strlen(arch) > 200);
    if (pos_text && !strstr(err.msg, pos_text)) {
        fprintf(stderr, "  message '%s' lacks '%s'\n", err.msg, pos_text);
        tap_cur_fail++;
    }
}

static void t_parse_errors(void) {
    expect_einval("", "position 0");
    expect_einval(NULL, NULL);
    expect_einval("|nor_conv_3x3~0|", "position 16");                       /* ends after node 1 */
    expect_einval("|conv~0|+|none~0|none~1|+|none~0|none~1|none~2|", "position 1: unknown operation 'conv'");
    expect_einval("|none~1|+|none~0|none~1|+|none~0|none~1|none~2|", "position 6");   /* wrong input */
    expect_einval("|none0|+|none~0|none~1|+|none~0|none~1|none~2|", "position 1: unknown operation 'none0'");
    expect_einval("|none~|+|none~0|none~1|+|none~0|none~1|none~2|", "position 6");    /* no number */
    expect_einval("|none~0|+|none~0|+|none~0|none~1|none~2|", "position 17: expected an operation");  /* node 2 short */
    expect_einval("|none~0|+|none~0|none~1|+|none~0|none~1|none~2", "position 46");  /* no final '|' */
    expect_einval("|none~0||none~0|none~1|+|none~0|none~1|none~2|", "position 8");    /* no '+' */
    expect_einval(SKIP "x", "position 95");                                              /* trailing */
    expect_einval(SKIP "+|none~0|", "position 95");                                      /* 4th node */
    /* bad batch */
    dlp_graph *g = NULL;
    dlp_error err = {0};
    CHECK_I64(dlp_graph_from_nb201(SKIP, 0, &g, &err), DLP_EINVAL);
    CHECK(g == NULL);
}

static void t_all_conv3x3(void) {
    dlp_graph *g = build(ALL3, 1);
    CHECK(g != NULL);
    if (!g) return;
    dlp_graph_stats st;
    dlp_graph_stats_get(g, &st);
    CHECK_I64(st.macs, 220119680);
    CHECK_I64(torch_params(g), 1531546);
    CHECK_I64(bn_running_stats(g), 7264);
    CHECK_I64(st.params, 1531546 + 7264);
    /* nodes: stem 2; per cell 6 edges x (Relu, Conv, BN) + 3 Adds = 21, x15;
     * resblocks 2 x 9; lastact 2; GlobalAveragePool, Flatten, Gemm */
    CHECK_I64(st.nodes, 2 + 15 * 21 + 18 + 2 + 3);
    /* edges: stem 1; per cell 6 x 3 (into Relu, Conv, BN) + 2 per Add = 24;
     * resblock 10 (6 in the chain, 2 into the shortcut, 2 into Add); tail 5 */
    CHECK_I64(st.edges, 1 + 15 * 24 + 2 * 10 + 5);
    CHECK_I64(st.shapes_known, st.node_outputs);
    CHECK_I64(st.n_unknown_ops, 0);
    CHECK_I64(count_op(g, "Conv"), 1 + 15 * 6 + 2 * 3);
    CHECK_I64(count_op(g, "Add"), 15 * 3 + 2);
    dlp_graph_free(g);
}

static void t_all_skip(void) {
    dlp_graph *g = build(SKIP, 1);
    CHECK(g != NULL);
    if (!g) return;
    dlp_graph_stats st;
    dlp_graph_stats_get(g, &st);
    CHECK_I64(st.macs, 7783040);
    CHECK_I64(torch_params(g), 73306);
    /* BN channels 16 + 64 + 2*32 + 2*64 = 272 -> 544 running-stat elements */
    CHECK_I64(st.params, 73306 + 544);
    /* cell: node1 = x (no node), node2 = Add(x, x), node3 = Add(Add(x, x), node2):
     * 3 Adds, 4 edges (P->add2, P->add3_1, add3_1->add3_2, add2->add3_2) */
    CHECK_I64(st.nodes, 2 + 15 * 3 + 18 + 2 + 3);
    CHECK_I64(st.edges, 1 + 15 * 4 + 2 * 10 + 5);
    CHECK_I64(count_op(g, "Relu"), 2 * 2 + 1);
    dlp_graph_free(g);
}

static void t_best_arch(void) {
    dlp_graph *g = build(BEST, 1);
    CHECK(g != NULL);
    if (!g) return;
    dlp_graph_stats st;
    dlp_graph_stats_get(g, &st);
    CHECK_I64(st.macs, 184730240);
    CHECK_I64(torch_params(g), 1288506);
    CHECK_STR(dlp_graph_name(g), BEST);
    dlp_graph_free(g);
}

static void t_zero_nodes(void) {
    /* node 1 zero (none from node 0): node 2 = skip(x) (+ conv of a zero: nothing),
     * node 3 = x + conv1x1(node 2).  Per cell: Relu, Conv, BN, Add.
     * MACs: stem + 1x1 conv per cell H*W*C*C (262,144 at every stage) x 15 + resblocks + fc */
    dlp_graph *g = build("|none~0|+|skip_connect~0|nor_conv_3x3~1|+|skip_connect~0|none~1|nor_conv_1x1~2|", 1);
    CHECK(g != NULL);
    if (!g) return;
    dlp_graph_stats st;
    dlp_graph_stats_get(g, &st);
    CHECK_I64(st.macs, 442368 + 15 * 262144 + 2 * 3670016 + 640);
    CHECK_I64(st.nodes, 2 + 15 * 4 + 18 + 5);
    dlp_graph_free(g);
    /* whole cell zero: the conv of node 1 is computed (as the reference does)
     * but nothing reads it; the cell's output is one Mul by a 0 scalar */
    g = build("|nor_conv_3x3~0|+|none~0|none~1|+|none~0|none~1|none~2|", 1);
    CHECK(g != NULL);
    if (!g) return;
    dlp_graph_stats_get(g, &st);
    CHECK_I64(st.macs, 442368 + 15 * 2359296 + 2 * 3670016 + 640);
    CHECK_I64(st.nodes, 2 + 15 * 4 + 18 + 5);
    CHECK_I64(count_op(g, "Mul"), 15);
    CHECK_I64(st.shapes_known, st.node_outputs);
    dlp_graph_free(g);
    /* all none: every cell is a Mul; the network still reaches the classifier */
    g = build("|none~0|+|none~0|none~1|+|none~0|none~1|none~2|", 1);
    CHECK(g != NULL);
    if (!g) return;
    dlp_graph_stats_get(g, &st);
    CHECK_I64(st.macs, 7783040);
    CHECK_I64(st.nodes, 2 + 15 + 18 + 5);
    dlp_graph_free(g);
}

/* The reference module as it runs: every op computed, none = Mul by 0. */
static void t_executed(void) {
    /* no none edge, no zero node: both readings give the same graph */
    const char *same[3] = {ALL3, SKIP, BEST};
    for (int k = 0; k < 3; k++) {
        dlp_graph *a = build(same[k], 1), *b = build_mode(same[k], 1, DLP_NB201_EXECUTED);
        CHECK(a && b);
        if (a && b) {
            dlp_graph_stats sa, sb;
            dlp_graph_stats_get(a, &sa);
            dlp_graph_stats_get(b, &sb);
            CHECK_I64(sb.macs, sa.macs);
            CHECK_I64(sb.nodes, sa.nodes);
            CHECK_I64(sb.edges, sa.edges);
            CHECK_I64(sb.params, sa.params);
        }
        dlp_graph_free(a);
        dlp_graph_free(b);
    }
    /* five none edges and a conv reading node 2 (zero): per cell 5 Mul, the
     * conv edge's Relu/Conv/BN, Adds 0 + 1 + 2 = 11 nodes; MACs of one 3x3
     * edge per cell; params of one 3x3 edge per cell, + the 0 scalar */
    const char *z = "|none~0|+|none~0|none~1|+|none~0|none~1|nor_conv_3x3~2|";
    dlp_graph *g = build_mode(z, 1, DLP_NB201_EXECUTED);
    CHECK(g != NULL);
    if (g) {
        dlp_graph_stats st;
        dlp_graph_stats_get(g, &st);
        CHECK_I64(st.macs, 442368 + 15 * 2359296 + 2 * 3670016 + 640);
        CHECK_I64(st.nodes, 2 + 15 * 11 + 18 + 5);
        CHECK_I64(count_op(g, "Mul"), 15 * 5);
        CHECK_I64(torch_params(g), 464 + 5 * (2336 + 9280 + 36992) + 14464 + 57600 + 128 + 650);
        CHECK_I64(st.shapes_known, st.node_outputs);
        dlp_graph_free(g);
    }
    /* the effective reading of the same arch: every cell is zero */
    g = build(z, 1);
    CHECK(g != NULL);
    if (g) {
        dlp_graph_stats st;
        dlp_graph_stats_get(g, &st);
        CHECK_I64(st.macs, 7783040);
        CHECK_I64(count_op(g, "Mul"), 15);
        dlp_graph_free(g);
    }
    dlp_error err = {0};
    CHECK_I64(dlp_graph_from_nb201_mode(SKIP, 1, 7, &g, &err), DLP_EINVAL);
}

static void t_batch_scaling(void) {
    dlp_graph *g1 = build(BEST, 1), *g8 = build(BEST, 8), *g256 = build(BEST, 256);
    CHECK(g1 && g8 && g256);
    if (g1 && g8 && g256) {
        dlp_graph_stats s1, s8, s256;
        dlp_graph_stats_get(g1, &s1);
        dlp_graph_stats_get(g8, &s8);
        dlp_graph_stats_get(g256, &s256);
        CHECK_I64(s8.macs, 8 * s1.macs);
        CHECK_I64(s256.macs, 256 * s1.macs);
        CHECK_I64(s8.params, s1.params);
        CHECK_I64(s8.nodes, s1.nodes);
        CHECK_I64(s8.batch, 8);
        CHECK_I64(s8.input_bytes, 8 * 3 * 32 * 32 * 4);
        CHECK_I64(s256.activation_bytes, 256 * s1.activation_bytes);
    }
    dlp_graph_free(g1);
    dlp_graph_free(g8);
    dlp_graph_free(g256);
}

/* Every node and every value name is unique (values and nodes separately). */
static void unique_names(const char *arch, int mode) {
    dlp_graph *g = build_mode(arch, 2, mode);
    CHECK(g != NULL);
    if (!g) return;
    int n = dlp_graph_node_count(g), t = dlp_graph_tensor_count(g);
    for (int i = 0; i < n; i++) {
        dlp_node_info a;
        a = *dlp_graph_node_at(g, i);
        for (int j = i + 1; j < n; j++) {
            dlp_node_info b;
            b = *dlp_graph_node_at(g, j);
            if (!strcmp(a.name, b.name)) {
                fprintf(stderr, "  duplicate node name %s\n", a.name);
                tap_cur_fail++;
            }
        }
    }
    for (int i = 0; i < t; i++) {
        dlp_tensor_info a;
        a = *dlp_graph_tensor_at(g, i);
        for (int j = i + 1; j < t; j++) {
            dlp_tensor_info b;
            b = *dlp_graph_tensor_at(g, j);
            if (!strcmp(a.name, b.name)) {
                fprintf(stderr, "  duplicate value name %s\n", a.name);
                tap_cur_fail++;
            }
        }
    }
    /* output is (2, 10) */
    dlp_tensor_info o;
    int found = 0;
    for (int i = 0; i < t; i++) {
        o = *dlp_graph_tensor_at(g, i);
        if (o.is_output) {
            found = 1;
            CHECK_I64(o.rank, 2);
            if (o.rank == 2) {
                CHECK_I64(o.dims[0], 2);
                CHECK_I64(o.dims[1], 10);
            }
        }
    }
    CHECK(found);
    dlp_graph_free(g);
}

static void t_unique_names(void) {
    unique_names("|nor_conv_1x1~0|+|avg_pool_3x3~0|nor_conv_3x3~1|+|skip_connect~0|avg_pool_3x3~1|nor_conv_1x1~2|",
                 DLP_NB201_EFFECTIVE);
    for (int mode = DLP_NB201_EFFECTIVE; mode <= DLP_NB201_EXECUTED; mode++) {
        unique_names("|nor_conv_1x1~0|+|none~0|nor_conv_3x3~1|+|none~0|avg_pool_3x3~1|none~2|", mode);
        unique_names("|none~0|+|none~0|none~1|+|none~0|none~1|none~2|", mode);
    }
}

/* Features build on a built graph (same path as a loaded model). */
static void t_features(void) {
    dlp_graph *g = build(BEST, 32);
    CHECK(g != NULL);
    if (!g) return;
    dlp_features *f = NULL;
    dlp_error err = {0};
    CHECK_I64(dlp_features_build(g, DLP_LAYOUT_DIPPM, &f, &err), DLP_OK);
    if (f) {
        dlp_graph_stats st;
        dlp_graph_stats_get(g, &st);
        CHECK_I64(f->n_nodes, st.nodes);
        CHECK_I64(f->n_edges, st.edges);
        CHECK_I64((int64_t)f->static_f[DLP_SF_BATCH], 32);
        CHECK_I64((int64_t)f->static_f[DLP_SF_MACS], 32 * 184730240LL);
        CHECK_STR(f->name, BEST);
    }
    dlp_features_free(f);
    dlp_graph_free(g);
}

/* ---- golden values from PyTorch ---------------------------------------- */

typedef struct {
    char key[256];
    long long macs, params;
    int prunes;
} golden_row;

/* Minimal reader for the flat {"key": {"macs": N, "params": N}, ...} files
 * the golden scripts write. */
static int read_golden(const char *path, golden_row *rows, int max) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return -1;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = 0;
    int k = 0;
    char *p = strchr(buf, '{');
    while (p && k < max && (p = strchr(p + 1, '"'))) {
        char *q = strchr(p + 1, '"'), *end = q ? strchr(q, '}') : NULL;
        if (!q || !end || (size_t)(q - p - 1) >= sizeof rows[k].key) break;
        memcpy(rows[k].key, p + 1, (size_t)(q - p - 1));
        rows[k].key[q - p - 1] = 0;
        *end = 0;
        char *m = strstr(q, "\"macs\":"), *pr = strstr(q, "\"params\":");
        if (!m || !pr) break;
        rows[k].macs = strtoll(m + 7, NULL, 10);
        rows[k].params = strtoll(pr + 9, NULL, 10);
        char *pu = strstr(q, "\"prunes\":");
        rows[k].prunes = pu && !strncmp(pu + 9, " true", 5);
        k++;
        p = end;
    }
    return k;
}

static void t_golden(void) {
    golden_row rows[32];
    int n = read_golden("tests/golden/nb201.json", rows, 32);
    if (n < 0) {
        printf("# tests/golden/nb201.json absent: skipped (make it with tools/golden/nb201_golden.py)\n");
        return;
    }
    CHECK(n >= 3);
    int n_prunes = 0;
    /* the executed graph is the reference module: always equal; the
     * effective one where no edge reads a zero node */
    for (int i = 0; i < n; i++)
        for (int mode = DLP_NB201_EFFECTIVE; mode <= DLP_NB201_EXECUTED; mode++) {
            if (mode == DLP_NB201_EFFECTIVE && rows[i].prunes) {
                n_prunes++;
                continue;
            }
            dlp_graph *g = build_mode(rows[i].key, 1, mode);
            CHECK(g != NULL);
            if (!g) continue;
            dlp_graph_stats st;
            dlp_graph_stats_get(g, &st);
            if (st.macs != rows[i].macs || torch_params(g) != rows[i].params) {
                fprintf(stderr, "  %s (mode %d): macs %lld params %lld, PyTorch %lld %lld\n", rows[i].key, mode,
                        (long long)st.macs, (long long)torch_params(g), rows[i].macs, rows[i].params);
                tap_cur_fail++;
            }
            dlp_graph_free(g);
        }
    CHECK(n_prunes >= 1);
}

int main(void) {
    RUN(t_parse_errors);
    RUN(t_all_conv3x3);
    RUN(t_all_skip);
    RUN(t_best_arch);
    RUN(t_zero_nodes);
    RUN(t_executed);
    RUN(t_batch_scaling);
    RUN(t_unique_names);
    RUN(t_features);
    RUN(t_golden);
    return TAP_DONE();
}
