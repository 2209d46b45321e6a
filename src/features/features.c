/*
 * features.c — graph -> (X, A, F_s): the inputs of every learned predictor.
 *
 * Layouts (docs/features.md; bump the version when a column changes):
 *   trappm v1: one-hot over a fixed vocabulary of ONNX ops + "other",
 *              input shape (6), output shape (6), MACs, params, memory
 *              — TraPPM fig. 5.1 with a wider vocabulary (thesis: 98 ops).
 *   dippm  v1: 32 columns — one-hot over 18 coarse op kinds (Relay-like),
 *              8 attributes (kernel, stride, dilation, groups, pads,
 *              channels), output shape (6) — DIPPM §4.3.2.
 * Scale normalisation: counts x become ln(1+x)/ln(1+S) with S the column's
 * documented scale, so typical values land in [0, 1] whatever the model.
 * A is the CSR of the true DAG (producer -> consumer), never a chain.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "graph/graph.h"
#include "graph/ops.h"
#include "features/features_internal.h"

static const char *const trappm_vocab[] = {
    "Conv", "ConvTranspose", "ConvInteger", "QLinearConv", "Gemm", "MatMul", "MatMulInteger",
    "QLinearMatMul", "Einsum", "MaxPool", "AveragePool", "LpPool", "GlobalAveragePool",
    "GlobalMaxPool", "GlobalLpPool", "MaxRoiPool", "RoiAlign", "MaxUnpool",
    "BatchNormalization", "InstanceNormalization", "LayerNormalization", "GroupNormalization",
    "LRN", "MeanVarianceNormalization", "LpNormalization", "Relu", "LeakyRelu", "PRelu",
    "Sigmoid", "HardSigmoid", "HardSwish", "Tanh", "Elu", "Selu", "Celu", "Softplus",
    "Softsign", "Mish", "Gelu", "Clip", "ThresholdedRelu", "Shrink", "Softmax", "LogSoftmax",
    "Hardmax", "Add", "Sub", "Mul", "Div", "Pow", "Mod", "Max", "Min", "Sum", "Mean", "Neg",
    "Abs", "Sqrt", "Reciprocal", "Exp", "Log", "Erf", "Floor", "Ceil", "Round", "Sign", "Sin",
    "Cos", "Tan", "Atan", "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And",
    "Or", "Xor", "Not", "Where", "IsNaN", "IsInf", "ReduceMean", "ReduceSum", "ReduceMax",
    "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSumExp", "ReduceSumSquare",
    "ArgMax", "ArgMin", "TopK", "CumSum", "Reshape", "Flatten", "Squeeze", "Unsqueeze",
    "Transpose", "Concat", "Split", "Slice", "Gather", "GatherElements", "GatherND",
    "ScatterND", "ScatterElements", "Expand", "Tile", "Pad", "Resize", "Upsample",
    "DepthToSpace", "SpaceToDepth", "Shape", "Size", "Range", "ConstantOfShape", "Constant",
    "Cast", "CastLike", "Identity", "Dropout", "NonZero", "OneHot", "Trilu",
    "NonMaxSuppression", "LSTM", "GRU", "RNN", "If", "Loop", "Scan", "QuantizeLinear",
    "DequantizeLinear", "DynamicQuantizeLinear", "Attention", "MultiHeadAttention",
    "SkipLayerNormalization", "EmbedLayerNormalization", "FastGelu", "BiasGelu", "FusedConv",
    "FusedGemm"};
#define N_VOCAB ((int)(sizeof trappm_vocab / sizeof trappm_vocab[0]))
_Static_assert(sizeof trappm_vocab / sizeof trappm_vocab[0] >= 120, "TraPPM vocabulary must cover >= 120 ops");

/* TraPPM columns after the one-hot block (N_VOCAB + 1 "other"). */
enum { TP_IN = 0, TP_OUT = 6, TP_MACS = 12, TP_PARAMS = 13, TP_MEM = 14, TP_TAIL = 15 };
#define TRAPPM_WIDTH (N_VOCAB + 1 + TP_TAIL)

/* DIPPM: 18 op kinds, 8 attributes, 6 output dims = 32. */
enum {
    DK_CONV, DK_CONVT, DK_DENSE, DK_MATMUL, DK_RELU, DK_ACT, DK_ADD, DK_MUL, DK_EW,
    DK_MAXPOOL, DK_AVGPOOL, DK_GPOOL, DK_BN, DK_LN, DK_SOFTMAX, DK_CONCAT, DK_DATA, DK_OTHER,
    DK_COUNT
};
enum { DA_KH = DK_COUNT, DA_KW, DA_SH, DA_SW, DA_DIL, DA_GROUPS, DA_PADS, DA_CH, DIPPM_SHAPE };
#define DIPPM_WIDTH (DIPPM_SHAPE + 6)
_Static_assert(DIPPM_WIDTH == 32, "DIPPM layout is 32 wide");

static const char *const dippm_kinds[DK_COUNT] = {
    "conv2d", "conv2d_transpose", "dense", "batch_matmul", "relu", "activation", "add",
    "multiply", "elementwise", "max_pool", "avg_pool", "global_pool", "batch_norm",
    "layer_norm", "softmax", "concatenate", "data_movement", "other"};
static const char *const dippm_attrs[8] = {"kernel_h", "kernel_w", "stride_h", "stride_w",
                                           "dilation", "groups", "pads", "channels"};
static const char *const static_names[DLP_SF_COUNT] = {
    "batch", "nodes", "edges", "macs", "params", "memory_bytes", "n_conv", "n_dense",
    "n_relu", "flops", "weight_bytes"};

/* Scales S of ln(1+x)/ln(1+S) normalisation (why: spans of real models). */
#define SCALE_DIM 65536.0      /* a tensor dim (channels, tokens, pixels)    */
#define SCALE_MACS 1e12        /* per-node MACs: a huge conv at batch 256     */
#define SCALE_PARAMS 1e9       /* per-node parameters: an LLM embedding        */
#define SCALE_MEM 1e11         /* per-node bytes: 100 GB                       */
#define SCALE_ATTR 64.0        /* kernel/stride/dilation/pads                  */
#define SCALE_GROUPS 4096.0

static float lognorm(double x, double s) {
    if (!(x > 0)) return 0.0f;
    return (float)(log1p(x) / log1p(s));
}

/* Kernel sizes, strides, pads, groups and most dims are small integers:
 * their lognorm comes from a table of the very same values, built once. */
#define LN_SMALL 1025
enum { LN_ATTR, LN_GROUPS, LN_DIM, LN_SCALES };
static const double ln_scale[LN_SCALES] = {SCALE_ATTR, SCALE_GROUPS, SCALE_DIM};
static float ln_tab[LN_SCALES][LN_SMALL];
static pthread_once_t ln_once = PTHREAD_ONCE_INIT;

static void ln_init(void) {
    for (int i = 0; i < LN_SCALES; i++)
        for (int k = 0; k < LN_SMALL; k++) ln_tab[i][k] = lognorm((double)k, ln_scale[i]);
}

/* Only under dlp_features_build, which builds the table first. */
static inline float lognorm_of(double x, int scale) {
    if (x >= 0 && x < LN_SMALL && x == (double)(int)x) return ln_tab[scale][(int)x];
    return lognorm(x, ln_scale[scale]);
}

int dlp_layout_width(dlp_layout layout) {
    return layout == DLP_LAYOUT_TRAPPM ? TRAPPM_WIDTH : layout == DLP_LAYOUT_DIPPM ? DIPPM_WIDTH : 0;
}

const char *dlp_layout_name(dlp_layout layout) {
    return layout == DLP_LAYOUT_TRAPPM ? "trappm" : layout == DLP_LAYOUT_DIPPM ? "dippm" : "unknown";
}

int dlp_layout_parse(const char *s) {
    if (!s) return -1;
    if (!strcasecmp(s, "trappm")) return DLP_LAYOUT_TRAPPM;
    if (!strcasecmp(s, "dippm")) return DLP_LAYOUT_DIPPM;
    return -1;
}

const char *dlp_static_name(int k) { return k >= 0 && k < DLP_SF_COUNT ? static_names[k] : "?"; }

const char *dlp_layout_column(dlp_layout layout, int j) {
    static _Thread_local char buf[64];
    if (layout == DLP_LAYOUT_TRAPPM) {
        if (j < 0 || j >= TRAPPM_WIDTH) return "?";
        if (j < N_VOCAB) return trappm_vocab[j];
        if (j == N_VOCAB) return "other";
        j -= N_VOCAB + 1;
        if (j < TP_OUT) snprintf(buf, sizeof buf, "in_dim%d", j);
        else if (j < TP_MACS) snprintf(buf, sizeof buf, "out_dim%d", j - TP_OUT);
        else return j == TP_MACS ? "macs" : j == TP_PARAMS ? "params" : "memory";
        return buf;
    }
    if (layout == DLP_LAYOUT_DIPPM) {
        if (j < 0 || j >= DIPPM_WIDTH) return "?";
        if (j < DK_COUNT) return dippm_kinds[j];
        if (j < DIPPM_SHAPE) return dippm_attrs[j - DK_COUNT];
        snprintf(buf, sizeof buf, "out_dim%d", j - DIPPM_SHAPE);
        return buf;
    }
    return "?";
}

static dlp__strmap vocab_map;
static int vocab_ok;
static pthread_once_t vocab_once = PTHREAD_ONCE_INIT;

static void vocab_init(void) {
    if (dlp__strmap_init(&vocab_map, N_VOCAB)) return;
    for (int i = 0; i < N_VOCAB; i++) dlp__strmap_put(&vocab_map, trappm_vocab[i], i);
    vocab_ok = 1;
}

/* built once (pthread_once: dlp_gnn_predict_onnx builds features on
 * several threads); the vocabulary is constant */
static int vocab_index(const char *op) {
    pthread_once(&vocab_once, vocab_init);
    int r = vocab_ok ? dlp__strmap_get(&vocab_map, op) : -1;
    return r < 0 ? N_VOCAB : r;
}

/* Shape written into 6 slots, right-aligned so that the last (spatial /
 * feature) dims keep their positions across ranks; ranks > 6 fold the
 * leading dims into the first slot. */
static void put_shape(float *dst, const dlp__value *v) {
    for (int k = 0; k < 6; k++) dst[k] = 0;
    if (!v || v->rank <= 0 || !v->dims) return;
    double lead = 1;
    int r = v->rank;
    for (int k = 0; k < r - 6; k++) lead *= v->dims[k] > 0 ? (double)v->dims[k] : 1;
    for (int k = 0; k < 6 && k < r; k++) {
        int src = r - 1 - k;
        double d = v->dims[src] > 0 ? (double)v->dims[src] : 0;
        if (src == r - 6 && r > 6) d *= lead;
        dst[5 - k] = lognorm_of(d, LN_DIM);
    }
}

static const dlp__value *first_in(const dlp_graph *g, const dlp__node *n) {
    for (int j = 0; j < n->n_in; j++)
        if (n->in[j] >= 0 && !g->values[n->in[j]].is_init) return &g->values[n->in[j]];
    return n->n_in && n->in[0] >= 0 ? &g->values[n->in[0]] : NULL;
}

static const dlp__value *first_out(const dlp_graph *g, const dlp__node *n) {
    return n->n_out && n->out[0] >= 0 ? &g->values[n->out[0]] : NULL;
}

/* op == s; the first characters compared inline (most tests fail there:
 * these ladders run for every node of every graph a NAS loop predicts) */
#define OP_IS(op, s) ((op)[0] == (s)[0] && !strcmp((op), (s)))

static int is_dense(const dlp_graph *g, const dlp__node *n) {
    if (OP_IS(n->op_type, "Gemm")) return 1;
    /* MatMul with a weight operand is a dense layer (TVM "dense") */
    return OP_IS(n->op_type, "MatMul") && n->n_in > 1 && n->in[1] >= 0 && g->values[n->in[1]].is_init;
}

static int dippm_kind(const dlp_graph *g, const dlp__node *n) {
    const char *op = n->op_type;
    const dlp__op_def *d = dlp__node_def(n);
    size_t len = strlen(op);
    if (OP_IS(op, "Conv") || OP_IS(op, "FusedConv") || OP_IS(op, "QLinearConv")) return DK_CONV;
    if (OP_IS(op, "ConvTranspose")) return DK_CONVT;
    if (is_dense(g, n)) return DK_DENSE;
    if (OP_IS(op, "MatMul") || OP_IS(op, "Einsum")) return DK_MATMUL;
    if (OP_IS(op, "Relu")) return DK_RELU;
    if (OP_IS(op, "Add") || OP_IS(op, "Sum")) return DK_ADD;
    if (OP_IS(op, "Mul")) return DK_MUL;
    if (OP_IS(op, "MaxPool")) return DK_MAXPOOL;
    if (OP_IS(op, "AveragePool")) return DK_AVGPOOL;
    if (!strncmp(op, "Global", 6)) return DK_GPOOL;
    if (OP_IS(op, "BatchNormalization")) return DK_BN;
    if ((len >= 18 && strstr(op, "LayerNormalization")) || OP_IS(op, "GroupNormalization") ||
        OP_IS(op, "InstanceNormalization"))
        return DK_LN;
    if (len >= 7 && strstr(op, "Softmax")) return DK_SOFTMAX;
    if (OP_IS(op, "Concat")) return DK_CONCAT;
    if (d && d->cls == DLP_OPC_ACTIVATION) return DK_ACT;
    if (d && (d->cls == DLP_OPC_ELEMENTWISE)) return DK_EW;
    if (d && (d->cls == DLP_OPC_DATA || d->cls == DLP_OPC_SHAPE)) return DK_DATA;
    return DK_OTHER;
}

static void dippm_attrs_of(const dlp_graph *g, const dlp__node *n, float *dst) {
    dlp__ictx c = {(dlp_graph *)g, (dlp__node *)n, 0, NULL, NULL}; /* attribute reads only */
    const int64_t *v;
    int k, has = n->n_attr > 0;   /* most nodes have none: no lookups */
    double kh = 0, kw = 0, sh = 0, sw = 0, dil = 0, pads = 0;
    if (has && (k = dlp__attr_ints(&c, "kernel_shape", &v)) > 0) {
        kh = (double)v[0];
        kw = (double)v[k - 1];
    } else if (OP_IS(n->op_type, "Conv") || OP_IS(n->op_type, "ConvTranspose")) {
        const dlp__value *w = n->n_in > 1 && n->in[1] >= 0 ? &g->values[n->in[1]] : NULL;
        if (w && w->rank >= 3) {
            kh = (double)w->dims[2];
            kw = (double)w->dims[w->rank - 1];
        }
    }
    if (has && (k = dlp__attr_ints(&c, "strides", &v)) > 0) {
        sh = (double)v[0];
        sw = (double)v[k - 1];
    }
    if (has && (k = dlp__attr_ints(&c, "dilations", &v)) > 0) dil = (double)v[0];
    if (has && (k = dlp__attr_ints(&c, "pads", &v)) > 0)
        for (int i = 0; i < k; i++) pads += v[i] > 0 ? (double)v[i] : 0;
    const dlp__value *o = first_out(g, n);
    double ch = o && o->rank >= 2 && o->dims[1] > 0 ? (double)o->dims[1] : 0;
    dst[0] = lognorm_of(kh, LN_ATTR);
    dst[1] = lognorm_of(kw, LN_ATTR);
    dst[2] = lognorm_of(sh, LN_ATTR);
    dst[3] = lognorm_of(sw, LN_ATTR);
    dst[4] = lognorm_of(dil, LN_ATTR);
    dst[5] = lognorm_of(has ? (double)dlp__attr_i(&c, "group", 0) : 0, LN_GROUPS);
    dst[6] = lognorm_of(pads, LN_ATTR);
    dst[7] = lognorm_of(ch, LN_DIM);
}

dlp_status dlp_features_build(const dlp_graph *g, dlp_layout layout, dlp_features **out, dlp_error *err) {
    *out = NULL;
    int w = dlp_layout_width(layout);
    if (!w) return dlp__err(err, DLP_EINVAL, "unknown feature layout %d", layout);
    pthread_once(&ln_once, ln_init);
    dlp_features *f = calloc(1, sizeof *f);
    if (!f) return dlp__err(err, DLP_ENOMEM, "out of memory");
    int n = g->n_nodes;
    f->layout = layout;
    f->layout_version = layout == DLP_LAYOUT_TRAPPM ? DLP_LAYOUT_TRAPPM_VERSION : DLP_LAYOUT_DIPPM_VERSION;
    f->n_nodes = n;
    f->n_feat = w;
    snprintf(f->name, sizeof f->name, "%s", g->name);
    f->x = calloc((size_t)n * (size_t)w + 1, sizeof(float));
    f->rowptr = calloc((size_t)n + 1, sizeof(int32_t));
    int64_t ne = 0;
    for (int i = 0; i < n; i++) ne += g->nodes[i].n_succ;
    f->col = calloc((size_t)ne + 1, sizeof(int32_t));
    if (!f->x || !f->rowptr || !f->col) {
        dlp_features_free(f);
        return dlp__err(err, DLP_ENOMEM, "%s: out of memory building features", g->name);
    }
    int32_t e = 0;
    for (int i = 0; i < n; i++) {
        const dlp__node *nd = &g->nodes[i];
        f->rowptr[i] = e;
        for (int k = 0; k < nd->n_succ; k++) f->col[e++] = nd->succ[k];
        float *row = f->x + (size_t)i * (size_t)w;
        if (layout == DLP_LAYOUT_TRAPPM) {
            row[vocab_index(nd->op_type)] = 1.0f;
            float *t = row + N_VOCAB + 1;
            put_shape(t + TP_IN, first_in(g, nd));
            put_shape(t + TP_OUT, first_out(g, nd));
            t[TP_MACS] = lognorm((double)nd->macs, SCALE_MACS);
            t[TP_PARAMS] = lognorm((double)nd->params, SCALE_PARAMS);
            t[TP_MEM] = lognorm((double)nd->bytes_read + (double)nd->bytes_written, SCALE_MEM);
        } else {
            row[dippm_kind(g, nd)] = 1.0f;
            dippm_attrs_of(g, nd, row + DK_COUNT);
            put_shape(row + DIPPM_SHAPE, first_out(g, nd));
        }
    }
    f->rowptr[n] = e;
    f->n_edges = e;
    /* static features */
    const dlp_graph_stats *s = &g->stats;
    int nconv = 0, ndense = 0, nrelu = 0;
    for (int i = 0; i < n; i++) {
        const dlp__node *nd = &g->nodes[i];
        if (OP_IS(nd->op_type, "Conv") || OP_IS(nd->op_type, "ConvTranspose") || OP_IS(nd->op_type, "FusedConv"))
            nconv++;
        if (is_dense(g, nd)) ndense++;
        if (OP_IS(nd->op_type, "Relu")) nrelu++;
    }
    f->static_f[DLP_SF_BATCH] = (double)s->batch;
    f->static_f[DLP_SF_NODES] = (double)s->nodes;
    f->static_f[DLP_SF_EDGES] = (double)s->edges;
    f->static_f[DLP_SF_MACS] = (double)s->macs;
    f->static_f[DLP_SF_PARAMS] = (double)s->params;
    f->static_f[DLP_SF_MEMORY] = (double)s->peak_memory_bytes;
    f->static_f[DLP_SF_N_CONV] = nconv;
    f->static_f[DLP_SF_N_DENSE] = ndense;
    f->static_f[DLP_SF_N_RELU] = nrelu;
    f->static_f[DLP_SF_FLOPS] = (double)s->flops;
    f->static_f[DLP_SF_WEIGHT_BYTES] = (double)s->weight_bytes;
    *out = f;
    return DLP_OK;
}

void dlp_features_free(dlp_features *f) {
    if (!f) return;
    free(f->x);
    free(f->rowptr);
    free(f->col);
    free(f);
}

/* ---- .dlpg file --------------------------------------------------------
 * little-endian: "DLPG" u32 version, u32 layout, u32 layout_version,
 * u32 n_nodes, u32 n_feat, u32 n_edges, u32 n_static, char name[128],
 * f64 static[n_static], f32 x[n_nodes*n_feat], i32 rowptr[n_nodes+1],
 * i32 col[n_edges], u32 crc32 of everything before it. */

#define DLPG_VERSION 1u
#define DLPG_HDR (4 + 7 * 4 + 128)

static void put_u32(uint8_t **p, uint32_t v) {
    memcpy(*p, &v, 4);
    *p += 4;
}

/* Serialise f as .dlpg bytes (malloc'ed, *len bytes); `name` is used in
 * messages.  Shared by dlp_features_save and the corpus pack writer. */
dlp_status dlp__features_save_mem(const dlp_features *f, const char *name, uint8_t **out, size_t *len,
                                  dlp_error *err) {
    *out = NULL;
    *len = 0;
    size_t n = DLPG_HDR + 8 * (size_t)DLP_SF_COUNT + 4 * (size_t)f->n_nodes * (size_t)f->n_feat +
               4 * ((size_t)f->n_nodes + 1) + 4 * (size_t)f->n_edges + 4;
    uint8_t *buf = malloc(n), *p = buf;
    if (!buf) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", name);
    memcpy(p, "DLPG", 4);
    p += 4;
    put_u32(&p, DLPG_VERSION);
    put_u32(&p, (uint32_t)f->layout);
    put_u32(&p, (uint32_t)f->layout_version);
    put_u32(&p, (uint32_t)f->n_nodes);
    put_u32(&p, (uint32_t)f->n_feat);
    put_u32(&p, (uint32_t)f->n_edges);
    put_u32(&p, (uint32_t)DLP_SF_COUNT);
    memset(p, 0, 128);
    memcpy(p, f->name, strnlen(f->name, 127));
    p += 128;
    memcpy(p, f->static_f, 8 * (size_t)DLP_SF_COUNT);
    p += 8 * (size_t)DLP_SF_COUNT;
    memcpy(p, f->x, 4 * (size_t)f->n_nodes * (size_t)f->n_feat);
    p += 4 * (size_t)f->n_nodes * (size_t)f->n_feat;
    memcpy(p, f->rowptr, 4 * ((size_t)f->n_nodes + 1));
    p += 4 * ((size_t)f->n_nodes + 1);
    memcpy(p, f->col, 4 * (size_t)f->n_edges);
    p += 4 * (size_t)f->n_edges;
    put_u32(&p, dlp__crc32(0, buf, (size_t)(p - buf)));
    *out = buf;
    *len = n;
    return DLP_OK;
}

dlp_status dlp_features_save(const dlp_features *f, const char *path, dlp_error *err) {
    uint8_t *buf;
    size_t n;
    dlp_status st = dlp__features_save_mem(f, path, &buf, &n, err);
    if (st) return st;
    st = dlp__write_file_atomic(path, buf, n, err);
    free(buf);
    return st;
}

/* Parse .dlpg bytes (buf, len); `path` names them in messages.  Shared by
 * dlp_features_load and dlp_corpus_read. */
dlp_status dlp__features_load_mem(const void *buf, size_t len, const char *path, dlp_features **out,
                                  dlp_error *err) {
    *out = NULL;
    dlp_status st = DLP_OK;
    const uint8_t *p = buf;
    uint32_t h[7];
    dlp_features *f = NULL;
    if (len < DLPG_HDR + 4 || memcmp(p, "DLPG", 4)) {
        st = dlp__err(err, DLP_EFORMAT, "%s: not a .dlpg graph file", path);
        goto done;
    }
    memcpy(h, p + 4, sizeof h);
    if (h[0] != DLPG_VERSION) {
        st = dlp__err(err, DLP_EVERSION, "%s: .dlpg version %u, this dlperf reads version %u", path, h[0], DLPG_VERSION);
        goto done;
    }
    uint32_t layout = h[1], lver = h[2], nn = h[3], nf = h[4], ne = h[5], ns = h[6];
    if (!dlp_layout_width((int)layout) || nf != (uint32_t)dlp_layout_width((int)layout) || ns != DLP_SF_COUNT ||
        nn > (1u << 26) || ne > (1u << 28)) {
        st = dlp__err(err, DLP_EFORMAT, "%s: bad .dlpg header", path);
        goto done;
    }
    size_t need = DLPG_HDR + 8 * (size_t)ns + 4 * (size_t)nn * nf + 4 * ((size_t)nn + 1) + 4 * (size_t)ne + 4;
    if (len != need) {
        st = dlp__err(err, DLP_EFORMAT, "%s: .dlpg is %zu bytes, header says %zu (truncated?)", path, len, need);
        goto done;
    }
    uint32_t crc;
    memcpy(&crc, p + need - 4, 4);
    if (crc != dlp__crc32(0, p, need - 4)) {
        st = dlp__err(err, DLP_ECHECKSUM, "%s: checksum mismatch (corrupted file)", path);
        goto done;
    }
    int expect_ver = layout == DLP_LAYOUT_TRAPPM ? DLP_LAYOUT_TRAPPM_VERSION : DLP_LAYOUT_DIPPM_VERSION;
    if ((int)lver != expect_ver) {
        st = dlp__err(err, DLP_EVERSION, "%s: %s layout version %u, this dlperf builds version %d", path,
                      dlp_layout_name((int)layout), lver, expect_ver);
        goto done;
    }
    f = calloc(1, sizeof *f);
    if (!f) {
        st = dlp__err(err, DLP_ENOMEM, "out of memory");
        goto done;
    }
    f->layout = (int)layout;
    f->layout_version = (int)lver;
    f->n_nodes = (int)nn;
    f->n_feat = (int)nf;
    f->n_edges = (int)ne;
    memcpy(f->name, p + 32, 127);
    const uint8_t *q = p + DLPG_HDR;
    memcpy(f->static_f, q, 8 * (size_t)ns);
    q += 8 * (size_t)ns;
    f->x = malloc(4 * (size_t)nn * nf + 4);
    f->rowptr = malloc(4 * ((size_t)nn + 1));
    f->col = malloc(4 * (size_t)ne + 4);
    if (!f->x || !f->rowptr || !f->col) {
        st = dlp__err(err, DLP_ENOMEM, "out of memory");
        goto done;
    }
    memcpy(f->x, q, 4 * (size_t)nn * nf);
    q += 4 * (size_t)nn * nf;
    memcpy(f->rowptr, q, 4 * ((size_t)nn + 1));
    q += 4 * ((size_t)nn + 1);
    memcpy(f->col, q, 4 * (size_t)ne);
    /* structural validation: CSR must index inside the graph */
    if (f->rowptr[0] != 0 || f->rowptr[nn] != (int32_t)ne) st = DLP_EFORMAT;
    for (uint32_t i = 0; i < nn && !st; i++)
        if (f->rowptr[i] > f->rowptr[i + 1]) st = DLP_EFORMAT;
    for (uint32_t e = 0; e < ne && !st; e++)
        if (f->col[e] < 0 || (uint32_t)f->col[e] >= nn) st = DLP_EFORMAT;
    if (st) st = dlp__err(err, DLP_EFORMAT, "%s: adjacency indexes outside the graph", path);
done:
    if (st) {
        dlp_features_free(f);
        return st;
    }
    *out = f;
    return DLP_OK;
}

dlp_status dlp_features_load(const char *path, dlp_features **out, dlp_error *err) {
    *out = NULL;
    dlp__mapped m;
    dlp_status st = dlp__map_file(path, &m, err);
    if (st) return st;
    st = dlp__features_load_mem(m.data, m.len, path, out, err);
    dlp__unmap_file(&m);
    return st;
}
