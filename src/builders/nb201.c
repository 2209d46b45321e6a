/*
 * nb201.c — NAS-Bench-201 cell string -> the full CIFAR network as a graph.
 *
 * The network is the benchmark's TinyNetwork (Dong & Yang, ICLR 2020;
 * reference code models/cell_infers/tiny_network.py) with C = 16, N = 5,
 * 10 classes, input (B, 3, 32, 32):
 *
 *   stem      Conv 3x3 3->16 pad 1 (no bias) + BatchNormalization
 *   cells 0-4   five cells at 16 ch, 32x32
 *   cell 5      ResNet block 16->32 stride 2
 *   cells 6-10  five cells at 32 ch, 16x16
 *   cell 11     ResNet block 32->64 stride 2
 *   cells 12-16 five cells at 64 ch, 8x8
 *   lastact   BatchNormalization + Relu
 *   head      GlobalAveragePool, Flatten, Gemm 64->10
 *
 * (cell indices are those of TinyNetwork.cells, so names line up with the
 * reference module paths).  ResNet block (ResNetBasicblock, stride 2):
 * Relu-Conv3x3/s2-BN, Relu-Conv3x3-BN, shortcut AveragePool 2x2/s2 +
 * Conv1x1 (no BN), Add.  A cell has nodes 0..3; node j is the sum over i<j
 * of op_ij(node i); the cell's output is node 3.  Ops: nor_conv_KxK =
 * Relu, Conv (pad K/2, no bias), BN; avg_pool_3x3 = AveragePool 3x3/s1/p1
 * with count_include_pad 0; skip_connect = the value itself (no node);
 * none: depends on the reading, below.
 *
 * Two readings of a cell (dlp_nb201_mode):
 *
 * DLP_NB201_EFFECTIVE (dlp_graph_from_nb201): the cell's effective
 *   computation, the view NAS-Bench-201 uses to find isomorphic cells.  none
 *   adds no node; a node with no incoming contribution is zero, and edges
 *   out of a zero node contribute nothing.  When a whole cell's output is
 *   zero we emit one Mul by a 0 scalar (the reference's Zero op) so the rest
 *   of the network still has an input: after it, a ReLU-Conv-BN edge gives
 *   BN's bias, not zero, so zero-ness is not propagated across cells.
 *
 * DLP_NB201_EXECUTED: what the reference PyTorch module runs (and what
 *   HELP timed): every edge's op runs on its input whether that is zero or
 *   not, none is x.mul(0.) (a Mul by a shared 0 scalar), and every node is
 *   the Add chain of all its j incoming terms.  Python's sum() also adds a
 *   leading 0 + t0 in eager mode; that costs every cell the same and is
 *   left out (ONNX export drops it too).  On HELP's NB201 table the number
 *   of kernels of this graph ranks batch-1 GPU latency with Spearman 0.97,
 *   against 0.77 for the effective graph (docs/datasets.md).
 */
#include <stdio.h>
#include <string.h>

#include "builders/builder.h"

enum { OP_NONE, OP_SKIP, OP_CONV1, OP_CONV3, OP_AVG, N_OPS };
static const char *const op_names[N_OPS] = {"none", "skip_connect", "nor_conv_1x1", "nor_conv_3x3",
                                            "avg_pool_3x3"};

#define NB201_NODES 4
#define NB201_EDGES 6
/* Edge (j <- i) is stored at EDGE(j, i): node 1: 0; node 2: 1, 2; node 3: 3, 4, 5. */
#define EDGE(j, i) ((j) * ((j) - 1) / 2 + (i))

#define MAX_ARCH_LEN 512

static dlp_status bad(dlp_error *err, const char *s, size_t pos, const char *what) {
    return dlp__err(err, DLP_EINVAL, "NAS-Bench-201 arch '%.200s': position %zu: %s", s, pos, what);
}

/* Parse "|op~0|+|op~0|op~1|+|op~0|op~1|op~2|" into ops[EDGE(j,i)].  Strict:
 * every edge i<j present, in order, each input index equal to its slot. */
static dlp_status parse_arch(const char *s, int ops[NB201_EDGES], dlp_error *err) {
    if (!s) return dlp__err(err, DLP_EINVAL, "NAS-Bench-201 arch: NULL string");
    size_t len = strnlen(s, MAX_ARCH_LEN + 1);
    if (len > MAX_ARCH_LEN) return bad(err, s, MAX_ARCH_LEN, "string too long");
    size_t p = 0;
    char msg[160];
    for (int j = 1; j < NB201_NODES; j++) {
        if (j > 1) {
            if (s[p] != '+') return bad(err, s, p, s[p] ? "expected '+' between nodes" : "string ends early: expected '+'");
            p++;
        }
        if (s[p] != '|') return bad(err, s, p, "expected '|'");
        p++;
        for (int i = 0; i < j; i++) {
            size_t start = p;
            while (s[p] && s[p] != '~' && s[p] != '|' && s[p] != '+') p++;
            if (p == start) return bad(err, s, p, "expected an operation name");
            int op = -1;
            for (int k = 0; k < N_OPS; k++)
                if (strlen(op_names[k]) == p - start && !strncmp(s + start, op_names[k], p - start)) op = k;
            if (op < 0) {
                snprintf(msg, sizeof msg, "unknown operation '%.*s' (expected none, skip_connect, "
                         "nor_conv_1x1, nor_conv_3x3 or avg_pool_3x3)", (int)(p - start > 40 ? 40 : p - start), s + start);
                return bad(err, s, start, msg);
            }
            if (s[p] != '~') return bad(err, s, p, "expected '~' after the operation");
            p++;
            size_t dstart = p;
            long in = 0;
            while (s[p] >= '0' && s[p] <= '9' && p - dstart < 6) in = in * 10 + (s[p++] - '0');
            if (p == dstart) return bad(err, s, p, "expected an input node number after '~'");
            if (in != i) {
                snprintf(msg, sizeof msg, "node %d's edge %d reads node %ld, expected node %d", j, i, in, i);
                return bad(err, s, dstart, msg);
            }
            if (s[p] != '|') return bad(err, s, p, "expected '|' after the input node number");
            p++;
            ops[EDGE(j, i)] = op;
        }
    }
    if (s[p]) return bad(err, s, p, "unexpected characters after the third node");
    return DLP_OK;
}

/* The 0 scalar of Zero ops, one initializer shared by the whole graph. */
static int zero_scalar(dlp__bld *b, int *zero) {
    if (*zero < 0) *zero = dlp__bld_weight(b, "zero", "value", 0, NULL);
    return *zero;
}

/* One searched cell at `c` channels; returns the output value id (-1 on OOM). */
static int build_cell(dlp__bld *b, int cell, int x, int64_t c, const int ops[NB201_EDGES], int mode,
                      int *zero) {
    int node[NB201_NODES] = {x, -1, -1, -1}; /* -1: zero (effective mode only) */
    char nm[128];
    for (int j = 1; j < NB201_NODES; j++) {
        int terms[NB201_NODES], nt = 0;
        for (int i = 0; i < j; i++) {
            int op = ops[EDGE(j, i)], src = node[i], t;
            if (mode == DLP_NB201_EFFECTIVE && (op == OP_NONE || src < 0)) continue; /* contributes nothing */
            switch (op) {
            case OP_NONE: {
                int in[2] = {src, zero_scalar(b, zero)};
                snprintf(nm, sizeof nm, "cell%d/e%d_%d/zero", cell, j, i);
                t = dlp__bld_node(b, nm, "Mul", 2, in);
                break;
            }
            case OP_SKIP: t = src; break;
            case OP_AVG:
                snprintf(nm, sizeof nm, "cell%d/e%d_%d/avg_pool", cell, j, i);
                t = dlp__bld_avgpool(b, nm, src, 3, 1, 1, 0);
                break;
            default: {
                int64_t k = op == OP_CONV3 ? 3 : 1;
                snprintf(nm, sizeof nm, "cell%d/e%d_%d/relu", cell, j, i);
                t = dlp__bld_relu(b, nm, src);
                snprintf(nm, sizeof nm, "cell%d/e%d_%d/conv", cell, j, i);
                t = dlp__bld_conv(b, nm, t, c, c, k, 1, k / 2, 1, 0);
                snprintf(nm, sizeof nm, "cell%d/e%d_%d/bn", cell, j, i);
                t = dlp__bld_bn(b, nm, t, c);
            }
            }
            if (t < 0) return -1;
            terms[nt++] = t;
        }
        if (nt == 0) continue; /* node j is zero */
        int acc = terms[0];
        /* left to right, as Python's sum() over the edges */
        for (int k = 1; k < nt; k++) {
            snprintf(nm, sizeof nm, "cell%d/node%d/add%d", cell, j, k);
            acc = dlp__bld_add(b, nm, acc, terms[k]);
        }
        node[j] = acc;
    }
    if (node[NB201_NODES - 1] >= 0) return node[NB201_NODES - 1];
    /* the cell outputs zeros: materialise them (see the file comment) */
    snprintf(nm, sizeof nm, "cell%d/zero", cell);
    int in[2] = {x, zero_scalar(b, zero)};
    return dlp__bld_node(b, nm, "Mul", 2, in);
}

/* ResNetBasicblock(cin, cout, stride 2). */
static int build_resblock(dlp__bld *b, int cell, int x, int64_t cin, int64_t cout) {
    char nm[128];
    snprintf(nm, sizeof nm, "cell%d/conv_a/relu", cell);
    int a = dlp__bld_relu(b, nm, x);
    snprintf(nm, sizeof nm, "cell%d/conv_a/conv", cell);
    a = dlp__bld_conv(b, nm, a, cin, cout, 3, 2, 1, 1, 0);
    snprintf(nm, sizeof nm, "cell%d/conv_a/bn", cell);
    a = dlp__bld_bn(b, nm, a, cout);
    snprintf(nm, sizeof nm, "cell%d/conv_b/relu", cell);
    a = dlp__bld_relu(b, nm, a);
    snprintf(nm, sizeof nm, "cell%d/conv_b/conv", cell);
    a = dlp__bld_conv(b, nm, a, cout, cout, 3, 1, 1, 1, 0);
    snprintf(nm, sizeof nm, "cell%d/conv_b/bn", cell);
    a = dlp__bld_bn(b, nm, a, cout);
    snprintf(nm, sizeof nm, "cell%d/downsample/avg_pool", cell);
    int r = dlp__bld_avgpool(b, nm, x, 2, 2, 0, 0);
    snprintf(nm, sizeof nm, "cell%d/downsample/conv", cell);
    r = dlp__bld_conv(b, nm, r, cin, cout, 1, 1, 0, 1, 0);
    snprintf(nm, sizeof nm, "cell%d/add", cell);
    return dlp__bld_add(b, nm, r, a); /* residual + basicblock, as the reference */
}

dlp_status dlp_graph_from_nb201_mode(const char *arch_str, int64_t batch, int mode, dlp_graph **out,
                                    dlp_error *err) {
    int ops[NB201_EDGES], zero = -1;
    if (!out) return dlp__err(err, DLP_EINVAL, "dlp_graph_from_nb201: out is NULL");
    *out = NULL;
    if (mode != DLP_NB201_EFFECTIVE && mode != DLP_NB201_EXECUTED)
        return dlp__err(err, DLP_EINVAL, "NAS-Bench-201: unknown graph mode %d", mode);
    dlp_status st = parse_arch(arch_str, ops, err);
    if (st) return st;
    if (batch < 1 || batch > ((int64_t)1 << 31))
        return dlp__err(err, DLP_EINVAL, "NAS-Bench-201 arch '%.200s': batch %lld is not in [1, 2^31]",
                        arch_str, (long long)batch);
    dlp__bld b;
    dlp__bld_init(&b, arch_str, batch);
    const int64_t C = 16, N = 5, classes = 10;
    int x = dlp__bld_input(&b, 3, 32, 32);
    x = dlp__bld_conv(&b, "stem/conv", x, 3, C, 3, 1, 1, 1, 0);
    x = dlp__bld_bn(&b, "stem/bn", x, C);
    int cell = 0;
    int64_t c = C;
    for (int stage = 0; stage < 3; stage++) {
        if (stage > 0) {
            x = build_resblock(&b, cell++, x, c, 2 * c);
            c *= 2;
        }
        for (int k = 0; k < N; k++) x = build_cell(&b, cell++, x, c, ops, mode, &zero);
    }
    x = dlp__bld_bn(&b, "lastact/bn", x, c);
    x = dlp__bld_relu(&b, "lastact/relu", x);
    x = dlp__bld_head(&b, x, c, classes);
    return dlp__bld_finish(&b, x, out, err);
}

dlp_status dlp_graph_from_nb201(const char *arch_str, int64_t batch, dlp_graph **out, dlp_error *err) {
    return dlp_graph_from_nb201_mode(arch_str, batch, DLP_NB201_EFFECTIVE, out, err);
}
