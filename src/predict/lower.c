/*
 * lower.c — from the graph as exported to the kernels a runtime launches.
 *
 * An exported graph is not the kernel list.  torch.onnx writes LayerNorm as
 * nine nodes (ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, Mul, Add) and
 * GELU as five, where eager PyTorch launches one aten::layer_norm and one
 * aten::gelu; attention is MatMul-Softmax-MatMul where PyTorch 2.x runs one
 * fused scaled_dot_product_attention; Transpose, Slice and Reshape are mostly
 * strided views that move no data.  Timing the exported nodes one by one
 * charged ConvNeXt-T 412 ms of elementwise kernels on a GPU where the whole
 * pass takes 213 ms.  So the predictor first lowers the graph for a named
 * runtime, then times what this file returns.
 *
 * The passes, in order (docs/predict.md, "Lowering"):
 *   1. classify: nodes that launch nothing (shape arithmetic, constants,
 *      values folded at load time, control-flow shells);
 *   2. patterns, one table per runtime: decomposed LayerNorm / RMSNorm,
 *      unary functions of one tensor (GELU erf/tanh, SiLU, HardSwish, Mish),
 *      attention (scores -> softmax -> weighted sum), linear = matmul + bias;
 *   3. views: Reshape/Flatten/Squeeze/Unsqueeze/Identity/Transpose/Slice/
 *      Split/Expand/select-Gather/Dropout(eval) alias their input; contiguity
 *      is tracked so that a view whose consumer needs contiguous memory (a
 *      reshape of a transposed tensor, a norm or softmax over one) becomes a
 *      copy kernel;
 *   4. runtime fusion: epilogues into conv/gemm (tensorrt, compile,
 *      onnxruntime), chains of pointwise ops and reductions (compile);
 *   5. every remaining node is one kernel.
 * Group bytes are what crosses the group's boundary at the compute dtype:
 * intermediates of a fused group never reach DRAM.
 */
#include "predict/lower.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "graph/graph.h"
#include "util/util.h"

/* ---- names ----------------------------------------------------------------- */

const char *dlp_runtime_name(dlp_runtime rt) {
    static const char *const nm[DLP_RUNTIME_COUNT_] = {"eager", "eager-1.x", "compile", "tensorrt",
                                                       "onnxruntime"};
    return rt >= 0 && rt < DLP_RUNTIME_COUNT_ ? nm[rt] : "?";
}

int dlp_runtime_parse(const char *s) {
    if (!s) return -1;
    static const struct { const char *n; int v; } tab[] = {
        {"eager", DLP_RUNTIME_EAGER},       {"eager-2", DLP_RUNTIME_EAGER},
        {"eager-2.x", DLP_RUNTIME_EAGER},   {"eager-1.x", DLP_RUNTIME_EAGER1X},
        {"eager-1", DLP_RUNTIME_EAGER1X},   {"eager1x", DLP_RUNTIME_EAGER1X},
        {"compile", DLP_RUNTIME_COMPILE},   {"inductor", DLP_RUNTIME_COMPILE},
        {"tensorrt", DLP_RUNTIME_TENSORRT}, {"trt", DLP_RUNTIME_TENSORRT},
        {"onnxruntime", DLP_RUNTIME_ORT},   {"ort", DLP_RUNTIME_ORT},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (!strcasecmp(s, tab[i].n)) return tab[i].v;
    return -1;
}

const char *dlp_memfmt_name(dlp_memfmt f) { return f == DLP_MEMFMT_NHWC ? "nhwc" : f == DLP_MEMFMT_NCHW ? "nchw" : "?"; }

int dlp_memfmt_parse(const char *s) {
    if (!s) return -1;
    if (!strcasecmp(s, "nchw") || !strcasecmp(s, "contiguous")) return DLP_MEMFMT_NCHW;
    if (!strcasecmp(s, "nhwc") || !strcasecmp(s, "channels_last") || !strcasecmp(s, "channels-last"))
        return DLP_MEMFMT_NHWC;
    return -1;
}

const char *dlp_kernel_class_name(dlp_kernel_class kc) {
    static const char *const nm[DLP_KC_COUNT_] = {"conv",    "conv_dw", "gemm",   "bmm",  "attention", "elementwise",
                                                  "norm",    "softmax", "reduce", "pool", "copy",      "other"};
    return kc >= 0 && kc < DLP_KC_COUNT_ ? nm[kc] : "?";
}

double dlp__elem_bytes(int dt) {
    if (dt == DLP_DT_FLOAT4E2M1 || dt == DLP_DT_INT4 || dt == DLP_DT_UINT4) return 0.5;
    int b = dlp_dtype_size(dt);
    return b > 0 ? b : 4;
}

double dlp__tensor_bytes_at(const dlp_tensor_info *t, int cdt) {
    if (t->bytes < 0) return -1;
    int fl = t->dtype == DLP_DT_FLOAT || t->dtype == DLP_DT_FLOAT16 || t->dtype == DLP_DT_BFLOAT16;
    if (fl && t->numel >= 0) return (double)t->numel * dlp__elem_bytes(cdt);
    return (double)t->bytes;
}

/* ---- context ----------------------------------------------------------------- */

enum { K_FREE = 0, K_VIEW, K_KERNEL };

typedef struct {
    const dlp_graph *g;
    int n, nv;
    int runtime, memfmt, train, cdt;
    int *kind;       /* per node: K_*                                     */
    int *grp;        /* per node: group id (union-find root), -1 = own    */
    int *copy;       /* per node (a view): 1 = it copies (contiguous())   */
    unsigned char *nc;   /* per value: 0 contiguous, 1 last two dims
                            transposed, 2 strided                          */
    unsigned char *cl;   /* per value: a 4-D tensor stored channels_last  */
    int amp;             /* fp16/bf16 under torch.autocast (not .half())  */
    int flags;           /* DLP__LOWER_*                                   */
    int *scratch;        /* per node, zeroed before each pass that uses it */
    const char **name;   /* per group root: aten name, NULL = by op type  */
    int *kclass;         /* per group root: kernel class, -1 = by op      */
    int *opc;            /* per node: dlp_op_class (read once)            */
    /* autocast dtypes (eager fp16/bf16 AMP only; "Autocast dtypes" below) */
    int amp_on;          /* this lowering tracks them                      */
    unsigned char *f32;  /* per value: stored in fp32 under autocast       */
    int cur_cat;         /* AMP_* of the kernel whose bytes are being summed */
    int *cast_k, *cast_v, ncast, cast_cap;   /* casts: (kernel, value), v < 0:
                                                 up to fp32 (value -v - 1) */
} lctx;

static const dlp__node *N(const lctx *c, int i) { return &c->g->nodes[i]; }
static const dlp__value *V(const lctx *c, int v) { return &c->g->values[v]; }
static int is_op(const lctx *c, int i, const char *op) {
    return i >= 0 && !N(c, i)->domain[0] && !strcmp(N(c, i)->op_type, op);
}
static int producer(const lctx *c, int v) { return v >= 0 ? V(c, v)->producer : -1; }
static int opc(const lctx *c, int i) { return c->opc[i]; }


/* The value behind Identity nodes (the exporter shares tied parameters as
 * Identity(initializer)). */
static int through_identity(const lctx *c, int v) {
    for (int guard = 0; guard < 8 && v >= 0; guard++) {
        int p = V(c, v)->producer;
        if (p < 0 || c->g->nodes[p].domain[0] || strcmp(c->g->nodes[p].op_type, "Identity") ||
            c->g->nodes[p].n_in < 1)
            return v;
        v = c->g->nodes[p].in[0];
    }
    return v;
}
/* An initializer, possibly behind Identity nodes. */
static int is_param(const lctx *c, int v) {
    v = through_identity(c, v);
    return v >= 0 && V(c, v)->is_init;
}

/* A constant operand: an initializer or a folded/constant value (not an
 * activation), of at most `max` elements. */
static int is_const(const lctx *c, int v, int64_t max) {
    if (v < 0) return 0;
    v = through_identity(c, v);
    const dlp__value *x = V(c, v);
    int p = x->producer;
    if (!x->is_init && !(p >= 0 && c->kind[p] == K_FREE)) return 0;
    int64_t ne = dlp__numel(x);
    return ne >= 0 && ne <= max;
}
static int is_scalar(const lctx *c, int v) { return is_const(c, v, 1); }
/* Known scalar value (float or int), NAN when unknown. */
static double scalar_val(const lctx *c, int v) {
    if (v < 0) return NAN;
    const dlp__value *x = V(c, v);
    if (x->nval == 1 && x->fval) return x->fval[0];
    if (x->nval == 1 && x->ival) return (double)x->ival[0];
    return NAN;
}

/* Consumers of a value that are not free (a graph output counts as one). */
static int n_cons(const lctx *c, int v) {
    if (v < 0) return 0;
    const dlp__value *x = V(c, v);
    int k = x->is_output ? 1 : 0;
    for (int j = 0; j < x->n_cons; j++)
        if (c->kind[x->cons[j]] != K_FREE) k++;
    return k;
}
/* The only consumer of a value, or -1. */
static int only_cons(const lctx *c, int v) {
    if (v < 0 || n_cons(c, v) != 1 || V(c, v)->is_output) return -1;
    const dlp__value *x = V(c, v);
    for (int j = 0; j < x->n_cons; j++)
        if (c->kind[x->cons[j]] != K_FREE) return x->cons[j];
    return -1;
}

static int find(lctx *c, int i) {
    while (c->grp[i] >= 0 && c->grp[i] != i) i = c->grp[i];
    return i;
}
/* Put node j into the group of node i (both kernels, both ungrouped or i
 * already a root). */
static void join(lctx *c, int i, int j) {
    int ri = find(c, i), rj = find(c, j);
    if (ri == rj) return;
    c->grp[ri] = ri;
    c->grp[rj] = ri;
}
static int grouped(const lctx *c, int i) { return c->grp[i] >= 0; }

/* ---- 1. what launches nothing --------------------------------------------- */

static int classify(const lctx *c, int i) {
    const dlp__node *nd = N(c, i);
    if (opc(c, i) == DLP_OPC_SHAPE || opc(c, i) == DLP_OPC_CONTROL) return K_FREE;
    if (!nd->domain[0] && !strcmp(nd->op_type, "Constant")) return K_FREE;
    int n_out = 0, n_val = 0;
    for (int o = 0; o < nd->n_out; o++) {
        if (nd->out[o] < 0) continue;
        n_out++;
        if (V(c, nd->out[o])->nval >= 0) n_val++;
    }
    if (n_out && n_val == n_out) return K_FREE;   /* folded at load (host) */
    if (nd->domain[0]) return K_KERNEL;
    static const char *const views[] = {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity",
                                        "Transpose", "Slice", "Split", "Expand"};
    for (size_t k = 0; k < sizeof views / sizeof views[0]; k++)
        if (!strcmp(nd->op_type, views[k])) return K_VIEW;
    if (!strcmp(nd->op_type, "Dropout")) {
        /* F.dropout(p=0) returns its input even in training (ATen's
         * dropout: "if (p == 0 || !train ...) return input"): torchvision's
         * Swin has 24-48 of them; the ratio is input 1 (opset >= 12) or an
         * attribute, 0.5 when absent */
        double p = 0.5;
        if (nd->opset >= 12 && nd->n_in > 1 && nd->in[1] >= 0) p = scalar_val(c, nd->in[1]);
        else if (nd->opset < 12 && dlp__attr_get(nd, "ratio")) p = dlp__attr_get(nd, "ratio")->f;
        return c->train && p != 0 ? K_KERNEL : K_VIEW;
    }
    /* a Cast to the type the value already has copies nothing (x.to(x.dtype)
     * returns x) */
    if (!strcmp(nd->op_type, "Cast") && nd->n_in >= 1 && nd->in[0] >= 0 && nd->n_out >= 1 && nd->out[0] >= 0 &&
        V(c, nd->in[0])->dtype && V(c, nd->in[0])->dtype == V(c, nd->out[0])->dtype)
        return K_VIEW;
    /* a zero Pad feeding only a pool is how torch.onnx writes avg_pool2d's
     * padding argument; eager pads inside the pooling kernel */
    if (!strcmp(nd->op_type, "Pad") && nd->n_in >= 2 && nd->in[1] >= 0 && nd->n_out >= 1 && nd->out[0] >= 0) {
        const dlp__value *pads = V(c, nd->in[1]), *y = V(c, nd->out[0]);
        int zero = pads->nval > 0 && pads->ival != NULL;
        for (int64_t k = 0; zero && k < pads->nval; k++) zero = pads->ival[k] == 0;
        int only_pool = y->n_cons > 0 && !y->is_output;
        for (int j = 0; j < y->n_cons && only_pool; j++) {
            const dlp__node *u = N(c, y->cons[j]);
            only_pool = !u->domain[0] && (!strcmp(u->op_type, "AveragePool") || !strcmp(u->op_type, "MaxPool"));
        }
        if (zero && only_pool) return K_VIEW;
    }
    /* x[:, 0] exports as Gather with a scalar index: aten::select, a view */
    if (!strcmp(nd->op_type, "Gather") && nd->n_in == 2 && nd->in[1] >= 0) {
        const dlp__value *idx = V(c, nd->in[1]);
        if (idx->rank == 0 && idx->nval == 1) return K_VIEW;
    }
    return K_KERNEL;
}

/* ---- 2a. LayerNorm / RMSNorm written out --------------------------------------
 * LayerNorm:  m = mean(x); d = x - m; v = mean(d^2); y = d / sqrt(v + eps)
 *             [* gamma] [+ beta]
 * RMSNorm:    v = mean(x^2); y = x / sqrt(v + eps)  or  x * rsqrt(...)
 *             [* gamma]          (Casts to fp32 and back may sit between)  */

static int through_casts(const lctx *c, int v) {
    /* follow single-consumer float Casts forward */
    for (int guard = 0; guard < 4; guard++) {
        int u = only_cons(c, v);
        if (u < 0 || !is_op(c, u, "Cast")) return v;
        v = N(c, u)->out[0];
    }
    return v;
}

static int other_in(const lctx *c, int node, int v) {
    const dlp__node *nd = N(c, node);
    if (nd->n_in != 2) return -1;
    return nd->in[0] == v ? nd->in[1] : nd->in[1] == v ? nd->in[0] : -1;
}

/* Is v^2 computed by node i (Pow(v, 2) or Mul(v, v))? */
static int is_square_of(const lctx *c, int i, int v) {
    if (is_op(c, i, "Pow")) return N(c, i)->in[0] == v && scalar_val(c, N(c, i)->in[1]) == 2.0;
    if (is_op(c, i, "Mul")) return N(c, i)->in[0] == v && N(c, i)->in[1] == v;
    return 0;
}

/* Is node u 1 / s: Reciprocal(s) or Div(1, s)? */
static int is_recip_of(const lctx *c, int u, int s) {
    if (is_op(c, u, "Reciprocal")) return N(c, u)->in[0] == s;
    return is_op(c, u, "Div") && N(c, u)->n_in == 2 && N(c, u)->in[1] == s && scalar_val(c, N(c, u)->in[0]) == 1.0;
}

/* From the variance node (ReduceMean of a square) to the normalised output:
 * Add(eps) -> Sqrt -> Div(d, .)  or  Add(eps) -> Sqrt -> Reciprocal -> Mul(d, .)
 * or Add(eps) -> Rsqrt (custom) ... Collect the members; returns the output
 * value or -1. */
static int norm_tail(lctx *c, int var_node, int d, int *mem, int *nm) {
    int v = N(c, var_node)->out[0];
    int a = only_cons(c, v);
    if (!is_op(c, a, "Add") || !is_scalar(c, other_in(c, a, v))) return -1;
    mem[(*nm)++] = a;
    int s = only_cons(c, N(c, a)->out[0]);
    if (!is_op(c, s, "Sqrt")) return -1;
    mem[(*nm)++] = s;
    int sv = N(c, s)->out[0];
    int u = only_cons(c, sv);
    if (is_op(c, u, "Div") && N(c, u)->in[0] == d && N(c, u)->in[1] == sv) {
        mem[(*nm)++] = u;
        return N(c, u)->out[0];
    }
    if (is_recip_of(c, u, sv)) {
        mem[(*nm)++] = u;
        int m = only_cons(c, N(c, u)->out[0]);
        if (is_op(c, m, "Mul") && other_in(c, m, N(c, u)->out[0]) == d) {
            mem[(*nm)++] = m;
            return N(c, m)->out[0];
        }
    }
    return -1;
}

/* Optional affine tail: Mul by a 1-D constant, then Add of a 1-D constant. */
static void affine_tail(lctx *c, int *y, int *mem, int *nm) {
    int m = only_cons(c, *y);
    if (is_op(c, m, "Mul")) {
        int w = other_in(c, m, *y);
        if (w >= 0 && (is_param(c, w) || is_const(c, w, 1 << 20)) && V(c, w)->rank <= 1) {
            mem[(*nm)++] = m;
            *y = N(c, m)->out[0];
            m = only_cons(c, *y);
        }
    }
    if (is_op(c, m, "Add")) {
        int b = other_in(c, m, *y);
        if (b >= 0 && (is_param(c, b) || is_const(c, b, 1 << 20)) && V(c, b)->rank <= 1) {
            mem[(*nm)++] = m;
            *y = N(c, m)->out[0];
        }
    }
}

static void make_group(lctx *c, const int *mem, int nm, const char *name, int kclass) {
    for (int k = 0; k < nm; k++)
        if (grouped(c, mem[k]) || c->kind[mem[k]] != K_KERNEL) return;   /* overlaps: leave it */
    for (int k = 1; k < nm; k++) join(c, mem[0], mem[k]);
    if (nm == 1) c->grp[mem[0]] = mem[0];
    int r = find(c, mem[0]);
    c->name[r] = name;
    c->kclass[r] = kclass;
}

static void pattern_norms(lctx *c, int rms) {
    for (int i = 0; i < c->n; i++) {
        if (c->kind[i] != K_KERNEL || grouped(c, i) || !is_op(c, i, "ReduceMean")) continue;
        int mem[16], nm = 0;
        int x = N(c, i)->in[0];
        int mv = N(c, i)->out[0];
        /* LayerNorm: i = mean(x); Sub(x, m) */
        int sub = -1;
        const dlp__value *mvv = V(c, mv);
        for (int j = 0; j < mvv->n_cons; j++)
            if (is_op(c, mvv->cons[j], "Sub") && N(c, mvv->cons[j])->in[0] == x &&
                N(c, mvv->cons[j])->in[1] == mv)
                sub = mvv->cons[j];
        if (sub >= 0 && n_cons(c, mv) == 1) {
            int d = N(c, sub)->out[0];
            /* d feeds the square and the division */
            const dlp__value *dv = V(c, d);
            int sq = -1;
            for (int j = 0; j < dv->n_cons; j++)
                if (is_square_of(c, dv->cons[j], d)) sq = dv->cons[j];
            if (sq < 0 || n_cons(c, d) != 2) continue;
            int var = only_cons(c, N(c, sq)->out[0]);
            if (!is_op(c, var, "ReduceMean")) continue;
            mem[nm++] = i, mem[nm++] = sub, mem[nm++] = sq, mem[nm++] = var;
            int y = norm_tail(c, var, d, mem, &nm);
            if (y < 0) continue;
            affine_tail(c, &y, mem, &nm);
            make_group(c, mem, nm, "aten::layer_norm", DLP_KC_NORM);
            continue;
        }
        /* RMSNorm: i = mean(square(x)) */
        if (!rms) continue;
        int sq = producer(c, x);
        if (sq < 0 || c->kind[sq] != K_KERNEL || grouped(c, sq) || only_cons(c, x) != i) continue;
        int base = N(c, sq)->in[0];
        if (!is_square_of(c, sq, base)) continue;
        mem[nm++] = sq, mem[nm++] = i;
        int y = norm_tail(c, i, base, mem, &nm);
        if (y < 0) continue;
        y = through_casts(c, y);
        affine_tail(c, &y, mem, &nm);
        make_group(c, mem, nm, "aten::rms_norm", DLP_KC_NORM);
    }
}

/* torch.rsqrt exports as Sqrt -> Reciprocal: one aten::rsqrt */
static void pattern_rsqrt(lctx *c) {
    for (int i = 0; i < c->n; i++) {
        if (c->kind[i] != K_KERNEL || grouped(c, i) || !(is_op(c, i, "Reciprocal") || is_op(c, i, "Div"))) continue;
        int q = producer(c, N(c, i)->in[is_op(c, i, "Div") ? 1 : 0]);
        if (q < 0 || c->kind[q] != K_KERNEL || grouped(c, q) || !is_op(c, q, "Sqrt") ||
            !is_recip_of(c, i, N(c, q)->out[0]) || only_cons(c, N(c, q)->out[0]) != i)
            continue;
        int mem[2] = {q, i};
        make_group(c, mem, 2, "aten::rsqrt", DLP_KC_ELEMENTWISE);
    }
}

/* ---- 2b. unary functions of one tensor -----------------------------------------
 * GELU (erf: x * 0.5 * (1 + erf(x / sqrt 2)); tanh: 0.5 x (1 + tanh(a (x +
 * b x^3)))), SiLU (x * sigmoid(x)), HardSwish (x * hardsigmoid(x)), Mish
 * (x * tanh(softplus(x))): a connected set of elementwise nodes around a seed
 * (Erf, Tanh, Sigmoid, HardSigmoid, Softplus) whose only non-constant input
 * is one tensor x.  Eager PyTorch runs the recognised ones as one kernel;
 * sigmoid(a) * b with a != b (a squeeze-excitation gate) stays two. */

static int is_pointwise_op(const lctx *c, int i) {
    static const char *const ops[] = {"Add", "Sub", "Mul", "Div", "Pow", "Erf", "Tanh", "Sigmoid",
                                      "HardSigmoid", "Softplus", "Clip", "Relu", "Cast"};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (is_op(c, i, ops[k])) return 1;
    return 0;
}

/* Every input of node i is x, a scalar constant, or produced inside the set. */
static int inputs_ok(const lctx *c, int i, int x, const int *in_set) {
    const dlp__node *nd = N(c, i);
    for (int k = 0; k < nd->n_in; k++) {
        int v = nd->in[k];
        if (v < 0 || v == x || is_scalar(c, v)) continue;
        int p = producer(c, v);
        if (p >= 0 && in_set[p]) continue;
        return 0;
    }
    return 1;
}

/* Is t computed from x alone by single-consumer pointwise nodes with scalar
 * operands (at most `depth` of them)?  Collects them. */
static int derives_from(const lctx *c, int t, int x, int *chain, int *nch, int depth) {
    if (t == x) return 1;
    int p = producer(c, t);
    if (depth <= 0 || p < 0 || c->kind[p] != K_KERNEL || c->grp[p] >= 0 || !is_pointwise_op(c, p) ||
        n_cons(c, t) != 1)
        return 0;
    for (int k = 0; k < N(c, p)->n_in; k++) {
        int v = N(c, p)->in[k];
        if (v < 0 || is_scalar(c, v)) continue;
        if (!derives_from(c, v, x, chain, nch, depth - 1)) return 0;
    }
    chain[(*nch)++] = p;
    return 1;
}

static void pattern_unary(lctx *c, int *in_set) {
    for (int s = 0; s < c->n; s++) {
        if (c->kind[s] != K_KERNEL || grouped(c, s)) continue;
        int seed_erf = is_op(c, s, "Erf"), seed_tanh = is_op(c, s, "Tanh"), seed_sig = is_op(c, s, "Sigmoid"),
            seed_hs = is_op(c, s, "HardSigmoid"), seed_sp = is_op(c, s, "Softplus");
        if (!(seed_erf || seed_tanh || seed_sig || seed_hs || seed_sp)) continue;
        int mem[64], nm = 0;
        mem[nm++] = s;
        in_set[s] = 1;
        /* backwards: single-consumer pointwise producers with scalar others
         * (x / sqrt 2; a * (x + b * x^3)) until the source tensor x */
        int x = N(c, s)->in[0];
        for (int guard = 0; guard < 8; guard++) {
            int p = producer(c, x);
            if (p < 0 || c->kind[p] != K_KERNEL || grouped(c, p) || !is_pointwise_op(c, p) || n_cons(c, x) != 1)
                break;
            /* p's non-scalar inputs must be one tensor (maybe used twice:
             * x*x*x) or a chain inside the set */
            int src = -1, ok = 1;
            for (int k = 0; k < N(c, p)->n_in; k++) {
                int v = N(c, p)->in[k];
                if (v < 0 || is_scalar(c, v)) continue;
                if (src < 0) src = v;
                else if (v != src) ok = 0;
            }
            if (!ok && N(c, p)->n_in == 2) {
                /* x + 0.044715 x^3: Add(x, t) where t is a single-consumer
                 * pointwise chain of x alone (Mul(Pow(x, 3), k)) */
                int a = N(c, p)->in[0], b = N(c, p)->in[1], chain[16], nch = 0;
                int src_a = derives_from(c, b, a, chain, &nch, 3);
                if (!src_a) nch = 0;
                if (src_a || derives_from(c, a, b, chain, &nch, 3)) {
                    mem[nm++] = p;
                    in_set[p] = 1;
                    for (int q = 0; q < nch; q++) mem[nm++] = chain[q], in_set[chain[q]] = 1;
                    x = src_a ? a : b;
                }
                break;
            }
            if (!ok || src < 0) break;
            mem[nm++] = p;
            in_set[p] = 1;
            x = src;
        }
        /* grow: a node whose inputs are x / scalars / set members, reached
         * from x or from set members, joins; the earliest such node first
         * (topological order), one seed per set, and no more nodes than the
         * function has (GELU-erf 5, GELU-tanh up to 10 as exported — 9 with
         * x*x*x — SiLU/HardSwish 2, Mish 3):
         * a scalar multiply after a GELU (a layer scale) is not part of it */
        int cap = seed_erf ? 5 : seed_tanh ? 10 : seed_sp ? 3 : 2;
        while (nm < cap) {
            int best = -1;
            for (int k = 0; k <= nm; k++) {
                int v = k < nm ? N(c, mem[k])->out[0] : x;
                if (v < 0) continue;
                const dlp__value *vv = V(c, v);
                for (int j = 0; j < vv->n_cons; j++) {
                    int u = vv->cons[j];
                    if (in_set[u] || c->kind[u] != K_KERNEL || grouped(c, u) || !is_pointwise_op(c, u)) continue;
                    /* one seed per set; Mish's tanh(softplus(x)) is the exception */
                    if (is_op(c, u, "Erf") || (is_op(c, u, "Tanh") && !seed_sp) || is_op(c, u, "Sigmoid") ||
                        is_op(c, u, "HardSigmoid") || is_op(c, u, "Softplus"))
                        continue;
                    if (!inputs_ok(c, u, x, in_set)) continue;
                    /* must consume a set member (x alone starts other
                     * functions of x, e.g. the residual) or be x^n */
                    int uses_set = 0, uses_x_only = 1;
                    for (int q = 0; q < N(c, u)->n_in; q++) {
                        int w = N(c, u)->in[q];
                        if (w < 0 || is_scalar(c, w)) continue;
                        if (w != x) uses_x_only = 0;
                        if (producer(c, w) >= 0 && in_set[producer(c, w)]) uses_set = 1;
                    }
                    if (!uses_set && !(uses_x_only && (is_op(c, u, "Pow") || is_op(c, u, "Mul")))) continue;
                    if (best < 0 || u < best) best = u;
                }
            }
            if (best < 0) break;
            mem[nm++] = best;
            in_set[best] = 1;
        }
        /* the set must have one output leaving it, every other member's
         * output consumed only inside */
        int outs = 0;
        for (int k = 0; k < nm; k++) {
            int v = N(c, mem[k])->out[0];
            const dlp__value *vv = V(c, v);
            int ext = vv->is_output;
            for (int j = 0; j < vv->n_cons; j++)
                if (!in_set[vv->cons[j]] && c->kind[vv->cons[j]] != K_FREE) ext = 1;
            outs += ext;
        }
        /* what is it? */
        int n_mul = 0, n_add = 0, n_pow = 0;
        for (int k = 0; k < nm; k++) {
            n_mul += is_op(c, mem[k], "Mul") || is_op(c, mem[k], "Div");
            n_add += is_op(c, mem[k], "Add");
            n_pow += is_op(c, mem[k], "Pow");
        }
        /* A tanh GELU with a Pow in it is Python code, not one op: the
         * exporter writes F.gelu(approximate="tanh") as x * x * x (torch.onnx's
         * decomposition, tests/golden/patterns/gelu_tanh.onnx), while
         * Hugging Face's gelu_new (GPT-2, GPT-J, CodeGen) calls torch.pow(x,
         * 3.0) among its eight tensor ops, and eager PyTorch launches each
         * of them (NeuSight's GPT-2 traces: mul, pow, mul, add, mul, tanh,
         * add, mul, each as long as a copy of the tensor).  Compilers fuse it. */
        int python_gelu = seed_tanh && n_pow > 0 && (c->runtime == DLP_RUNTIME_EAGER || c->runtime == DLP_RUNTIME_EAGER1X);
        /* x must be consumed by the set beyond the seed's own chain (x * f(x)) */
        int x_uses = 0;
        for (int k = 0; k < nm; k++)
            for (int q = 0; q < N(c, mem[k])->n_in; q++)
                if (N(c, mem[k])->in[q] == x) x_uses++;
        const char *name = NULL;
        if (outs == 1 && nm >= 2 && x_uses >= 2) {
            if (seed_erf && n_add >= 1 && n_mul >= 2) name = "aten::gelu";
            else if (seed_tanh && n_add >= 2 && n_mul >= 3 && !python_gelu) name = "aten::gelu";
            else if (seed_sig && nm == 2) name = "aten::silu";
            else if (seed_hs && nm == 2) name = "aten::hardswish";
            else if (seed_sp && nm == 3) name = "aten::mish";
        }
        if (name) make_group(c, mem, nm, name, DLP_KC_ELEMENTWISE);
        for (int k = 0; k < nm; k++) in_set[mem[k]] = 0;
    }
}

/* ---- 2c. attention ----------------------------------------------------------------
 * S = Q K^T [* or / scale] [+ mask/bias]; P = softmax(S) [dropout]; O = P V.
 * PyTorch 2.x (nn.MultiheadAttention, F.scaled_dot_product_attention, HF and
 * timm models) runs it as one flash / memory-efficient kernel that never
 * writes S to DRAM.  A scale applied to Q before the product joins too. */

static int is_act_matmul(const lctx *c, int i) {
    if (!is_op(c, i, "MatMul") || c->kind[i] != K_KERNEL || grouped(c, i)) return 0;
    const dlp__node *nd = N(c, i);
    return nd->n_in == 2 && nd->in[0] >= 0 && nd->in[1] >= 0 && !is_param(c, nd->in[0]) && !is_param(c, nd->in[1]);
}

static void pattern_attention(lctx *c) {
    for (int s = 0; s < c->n; s++) {
        if (c->kind[s] != K_KERNEL || grouped(c, s) || !is_op(c, s, "Softmax")) continue;
        int mem[12], nm = 0;
        mem[nm++] = s;
        /* back: [Add mask]* [Mul/Div scale] to the scores MatMul */
        int v = N(c, s)->in[0], m1 = -1;
        for (int guard = 0; guard < 4; guard++) {
            int p = producer(c, v);
            if (p < 0 || c->kind[p] != K_KERNEL || grouped(c, p) || n_cons(c, v) != 1) break;
            if (is_act_matmul(c, p)) {
                m1 = p;
                break;
            }
            /* Max: OPT's eager clamp of the scores (SDPA has none) */
            if ((is_op(c, p, "Add") || is_op(c, p, "Mul") || is_op(c, p, "Div") || is_op(c, p, "Where") ||
                 is_op(c, p, "Max"))) {
                mem[nm++] = p;
                /* follow the operand that comes from the scores */
                int next = -1;
                for (int k = 0; k < N(c, p)->n_in; k++) {
                    int w = N(c, p)->in[k];
                    int q = producer(c, w);
                    if (w >= 0 && q >= 0 && c->kind[q] == K_KERNEL && !is_scalar(c, w) &&
                        (is_act_matmul(c, q) || is_op(c, q, "Add") || is_op(c, q, "Mul") || is_op(c, q, "Div")) &&
                        n_cons(c, w) == 1)
                        next = w;
                }
                if (next < 0) break;
                v = next;
                continue;
            }
            break;
        }
        if (m1 < 0) continue;
        const dlp__value *sv = V(c, N(c, m1)->out[0]);
        if (sv->rank < 3) continue;
        /* forward: [Dropout | Cast] to O = P V */
        int pv = N(c, s)->out[0], m2 = -1;
        for (int guard = 0; guard < 3; guard++) {
            int u = only_cons(c, pv);
            if (u < 0) break;
            if (is_act_matmul(c, u) && N(c, u)->in[0] == pv) {
                m2 = u;
                break;
            }
            if ((is_op(c, u, "Dropout") || is_op(c, u, "Cast")) && c->kind[u] == K_KERNEL && !grouped(c, u)) {
                mem[nm++] = u;
                pv = N(c, u)->out[0];
                continue;
            }
            if (is_op(c, u, "Dropout") && c->kind[u] == K_VIEW) {
                pv = N(c, u)->out[0];
                continue;
            }
            break;
        }
        if (m2 < 0) continue;
        mem[nm++] = m1;
        mem[nm++] = m2;
        /* a scale on Q before the product */
        int q = N(c, m1)->in[0], qp = producer(c, q);
        if (qp >= 0 && c->kind[qp] == K_KERNEL && !grouped(c, qp) && n_cons(c, q) == 1 &&
            (is_op(c, qp, "Mul") || is_op(c, qp, "Div")) &&
            (is_scalar(c, N(c, qp)->in[1]) || is_scalar(c, N(c, qp)->in[0])))
            mem[nm++] = qp;
        make_group(c, mem, nm, "aten::scaled_dot_product_attention", DLP_KC_ATTN);
    }
}

/* ---- 2d. linear = matmul + bias ------------------------------------------------- */

static int is_weight_matmul(const lctx *c, int i) {
    if (!is_op(c, i, "MatMul") || N(c, i)->n_in < 2 || N(c, i)->in[1] < 0) return 0;
    const dlp__value *w = V(c, N(c, i)->in[1]);
    return is_param(c, N(c, i)->in[1]) && w->rank == 2;
}

static void pattern_linear(lctx *c) {
    for (int i = 0; i < c->n; i++) {
        if (c->kind[i] != K_KERNEL || grouped(c, i)) continue;
        if (is_op(c, i, "Gemm")) {
            make_group(c, &i, 1, "aten::linear", DLP_KC_GEMM);
            continue;
        }
        if (!is_weight_matmul(c, i)) continue;
        int mem[2] = {i, -1}, nm = 1;
        int a = only_cons(c, N(c, i)->out[0]);
        if (is_op(c, a, "Add") && c->kind[a] == K_KERNEL && !grouped(c, a)) {
            int b = other_in(c, a, N(c, i)->out[0]);
            if (b >= 0 && is_param(c, b) && V(c, b)->rank == 1) mem[nm++] = a;
        }
        make_group(c, mem, nm, "aten::linear", DLP_KC_GEMM);
    }
}

/* a != b exports as Not(Equal(a, b)) (opset < 19 has no NotEqual): one
 * aten::ne */
static void pattern_not_equal(lctx *c) {
    for (int i = 0; i < c->n; i++) {
        if (c->kind[i] != K_KERNEL || grouped(c, i) || !is_op(c, i, "Not")) continue;
        int e = producer(c, N(c, i)->in[0]);
        if (e < 0 || c->kind[e] != K_KERNEL || grouped(c, e) || !is_op(c, e, "Equal") ||
            only_cons(c, N(c, e)->out[0]) != i)
            continue;
        int mem[2] = {e, i};
        make_group(c, mem, 2, "aten::ne", DLP_KC_ELEMENTWISE);
    }
}

/* ---- 4. runtime fusion ------------------------------------------------------------ */

static const char *aten_name(const lctx *c, int i, int *kc);

static int root_class(lctx *c, int i) {
    int r = find(c, i);
    if (c->grp[r] >= 0 && c->kclass[r] >= 0) return c->kclass[r];
    return -1;
}
static int is_extern(lctx *c, int i) {
    int kc = root_class(c, i);
    /* a member of a conv/GEMM/attention kernel (an epilogue) is that
     * library kernel, whatever its own op */
    if (kc == DLP_KC_GEMM || kc == DLP_KC_ATTN || kc == DLP_KC_CONV || kc == DLP_KC_CONV_DW || kc == DLP_KC_BMM)
        return 1;
    return opc(c, i) == DLP_OPC_CONV || opc(c, i) == DLP_OPC_GEMM || opc(c, i) == DLP_OPC_MATMUL;
}
static int is_fusible_pw(lctx *c, int i) {
    if (root_class(c, i) == DLP_KC_ELEMENTWISE) return 1;
    return opc(c, i) == DLP_OPC_ELEMENTWISE || opc(c, i) == DLP_OPC_ACTIVATION ||
           (is_op(c, i, "BatchNormalization") && !c->train);
}

/* The kernel node whose group produces v (through views), or -1. */
static int kernel_producer(lctx *c, int v) {
    for (int guard = 0; guard < 16 && v >= 0; guard++) {
        int p = producer(c, v);
        if (p < 0) return -1;
        if (c->kind[p] == K_KERNEL) return p;
        if (c->kind[p] != K_VIEW || c->copy[p] || N(c, p)->n_in < 1) return -1;
        v = N(c, p)->in[0];
    }
    return -1;
}

/* Epilogue: a pointwise node (or a whole fused pointwise group) reading a
 * conv/gemm/matmul output that nothing else reads joins that kernel (the
 * residual of Conv -> Add -> Relu is read as an extra input). */
static int all_cons_in(lctx *c, int v, int r) {
    const dlp__value *x = V(c, v);
    if (x->is_output) return 0;
    for (int j = 0; j < x->n_cons; j++)
        if (c->kind[x->cons[j]] != K_FREE && find(c, x->cons[j]) != r) return 0;
    return 1;
}
static void fuse_epilogues(lctx *c) {
    for (int i = 0; i < c->n; i++) {
        if (c->kind[i] != K_KERNEL) continue;
        int ri = find(c, i);
        int fusible = c->grp[ri] >= 0 && c->kclass[ri] >= 0 ? c->kclass[ri] == DLP_KC_ELEMENTWISE : is_fusible_pw(c, i);
        if (!fusible || is_extern(c, i)) continue;
        const dlp__node *nd = N(c, i);
        for (int k = 0; k < nd->n_in; k++) {
            int v = nd->in[k];
            if (v < 0) continue;
            int p = producer(c, v);
            if (p < 0 || c->kind[p] != K_KERNEL) continue;
            int rp = find(c, p);
            if (rp == ri || !is_extern(c, rp) || !all_cons_in(c, v, ri)) continue;
            /* an epilogue works on the output tile: an op whose output is
             * larger than the conv/GEMM's (a squeeze-excitation gate
             * broadcast over the feature map) is its own kernel */
            if (nd->n_out > 0 && nd->out[0] >= 0) {
                dlp_tensor_info tv, to;
                tv = *dlp_graph_tensor_at(c->g, v);
                to = *dlp_graph_tensor_at(c->g, nd->out[0]);
                if (tv.numel >= 0 && to.numel > tv.numel) continue;
            }
            const char *nm = c->grp[rp] >= 0 ? c->name[rp] : NULL;
            int kc = c->grp[rp] >= 0 ? c->kclass[rp] : -1;
            /* the group is the conv/GEMM's kernel: it keeps that class (a
             * class of -1 let inductor's pass take conv+ReLU for pointwise
             * and fold a MaxPool into it: VGG16 compile 2.5x eager) */
            if (kc < 0) nm = aten_name(c, rp, &kc);
            join(c, rp, ri);
            int nr = find(c, rp);
            c->name[nr] = nm;
            c->kclass[nr] = kc;
            break;
        }
    }
}

/* compile: chains of pointwise ops, norms, reductions and softmax fuse into
 * generated kernels (at most two reductions each). */
static int is_reduction_node(lctx *c, int i) {
    int k = opc(c, i);
    return k == DLP_OPC_REDUCE || k == DLP_OPC_SOFTMAX || k == DLP_OPC_NORM || k == DLP_OPC_POOL;
}
static void fuse_inductor(lctx *c, int *nred) {
    for (int i = 0; i < c->n; i++) nred[i] = c->kind[i] == K_KERNEL && is_reduction_node(c, i);
    for (int i = 0; i < c->n; i++) {
        if (c->kind[i] != K_KERNEL || is_extern(c, i)) continue;
        if (opc(c, i) == DLP_OPC_CONV || opc(c, i) == DLP_OPC_OTHER) continue;
        const dlp__node *nd = N(c, i);
        for (int k = 0; k < nd->n_in; k++) {
            int p = kernel_producer(c, nd->in[k]);
            if (p < 0 || is_extern(c, p)) continue;
            int rp = find(c, p), ri = find(c, i);
            if (rp == ri) continue;
            if (opc(c, p) == DLP_OPC_CONV || opc(c, p) == DLP_OPC_OTHER) continue;
            if (nred[rp] + nred[ri] > 2) continue;
            int tot = nred[rp] + nred[ri];
            join(c, rp, ri);
            int nr = find(c, rp);
            nred[nr] = tot;
            c->name[nr] = c->runtime == DLP_RUNTIME_TENSORRT ? "trt_fused_pointwise" : "triton_fused";
            c->kclass[nr] = tot ? DLP_KC_REDUCE : DLP_KC_ELEMENTWISE;
        }
    }
}

/* onnxruntime: SkipLayerNormalization = residual Add + LayerNorm.  The
 * group's first ReduceMean reads x; an unfused Add producing x joins (the
 * variance's ReduceMean reads the square, inside the group). */
static void fuse_skip_ln(lctx *c) {
    for (int j = 0; j < c->n; j++) {
        if (!is_op(c, j, "ReduceMean") || !grouped(c, j)) continue;
        int r = find(c, j);
        if (!c->name[r] || strcmp(c->name[r], "aten::layer_norm")) continue;
        int a = producer(c, N(c, j)->in[0]);
        if (!is_op(c, a, "Add") || c->kind[a] != K_KERNEL || grouped(c, a)) continue;
        join(c, r, a);
        int nr = find(c, r);
        c->name[nr] = "SkipLayerNormalization";
        c->kclass[nr] = DLP_KC_NORM;
    }
}

/* ---- 3. views and contiguity ------------------------------------------------- */

static int perm_moves_data(const lctx *c, int i) {
    const dlp__attr *a = dlp__attr_get(N(c, i), "perm");
    const dlp__value *x = N(c, i)->in[0] >= 0 ? V(c, N(c, i)->in[0]) : NULL;
    if (!a || !x || x->rank < 0) return 1;
    /* order of the non-unit dims kept? */
    int last = -1;
    for (int k = 0; k < a->n; k++) {
        int64_t ax = a->ints[k];
        if (ax < 0 || ax >= x->rank) return 1;
        if (x->dims[ax] == 1) continue;
        if (ax < last) return 1;
        last = (int)ax;
    }
    return 0;
}

/* Does the permutation only swap the last two non-unit axes (k.transpose
 * (-1, -2))?  matmul/bmm read such an operand in place (cuBLAS transa). */
static int perm_is_last2_swap(const lctx *c, int i) {
    const dlp__attr *a = dlp__attr_get(N(c, i), "perm");
    const dlp__value *x = N(c, i)->in[0] >= 0 ? V(c, N(c, i)->in[0]) : NULL;
    if (!a || !x || x->rank < 2 || a->n != x->rank) return 0;
    int r = x->rank;
    for (int k = 0; k < r - 2; k++)
        if (a->ints[k] != k) return 0;
    return a->ints[r - 2] == r - 1 && a->ints[r - 1] == r - 2;
}

/* The axis a Slice/Split/Gather cuts, normalised; -1 when unknown. */
static int64_t cut_axis(const lctx *c, int i) {
    const dlp__node *nd = N(c, i);
    const dlp__value *x = nd->in[0] >= 0 ? V(c, nd->in[0]) : NULL;
    if (!x || x->rank < 0) return -1;
    int64_t axis = 0;
    if (is_op(c, i, "Split") || is_op(c, i, "Gather")) {
        const dlp__attr *a = dlp__attr_get(nd, "axis");
        axis = a ? a->i : 0;
    } else if (nd->n_in >= 4 && nd->in[3] >= 0) {
        const dlp__value *ax = V(c, nd->in[3]);
        if (ax->nval != 1 || !ax->ival) return -1;
        axis = ax->ival[0];
    }
    return axis < 0 ? axis + x->rank : axis;
}
static int slice_axis_is_last(const lctx *c, int i) {
    const dlp__value *x = N(c, i)->in[0] >= 0 ? V(c, N(c, i)->in[0]) : NULL;
    return x && x->rank > 0 && !is_op(c, i, "Gather") && cut_axis(c, i) == x->rank - 1;
}
/* Does a Reshape only split the last dim ([.., L] -> [.., a, b], a*b = L)? */
static int splits_last_dim(const lctx *c, int i) {
    const dlp__node *nd = N(c, i);
    if (nd->in[0] < 0 || nd->n_out < 1 || nd->out[0] < 0) return 0;
    const dlp__value *x = V(c, nd->in[0]), *y = V(c, nd->out[0]);
    if (x->rank < 1 || y->rank != x->rank + 1) return 0;
    for (int k = 0; k < x->rank - 1; k++)
        if (x->dims[k] != y->dims[k] || x->dims[k] < 0) return 0;
    return y->dims[x->rank - 1] * y->dims[x->rank] == x->dims[x->rank - 1] && x->dims[x->rank - 1] > 0;
}

static int slice_keeps_contig(const lctx *c, int i) {
    /* slicing the outermost non-unit axis keeps a contiguous block */
    const dlp__node *nd = N(c, i);
    const dlp__value *x = nd->in[0] >= 0 ? V(c, nd->in[0]) : NULL;
    if (!x || x->rank < 0) return 0;
    int64_t axis = -1;
    if (is_op(c, i, "Split")) {
        const dlp__attr *a = dlp__attr_get(nd, "axis");
        axis = a ? a->i : 0;
    } else if (is_op(c, i, "Gather")) {
        const dlp__attr *a = dlp__attr_get(nd, "axis");
        axis = a ? a->i : 0;
    } else {
        if (nd->n_in < 4 || nd->in[3] < 0) axis = 0;
        else {
            const dlp__value *ax = V(c, nd->in[3]);
            if (ax->nval != 1 || !ax->ival) return 0;
            axis = ax->ival[0];
        }
    }
    if (axis < 0) axis += x->rank;
    for (int k = 0; k < axis && k < x->rank; k++)
        if (x->dims[k] != 1) return 0;
    return 1;
}

/* Does node i need its data input contiguous (eager calls .contiguous())? */
static int needs_contig(lctx *c, int i) {
    if (root_class(c, i) == DLP_KC_NORM) return 1;
    int k = opc(c, i);
    return k == DLP_OPC_NORM || k == DLP_OPC_SOFTMAX || k == DLP_OPC_CONV || k == DLP_OPC_POOL;
}

/* Kernels whose output keeps the memory format of their 4-D input
 * (PyTorch's suggest_memory_format): convs, pools, pointwise ops, BatchNorm,
 * cat and pad.  Reductions over the channel dim, norms over the last dim,
 * matmuls and softmax write plain contiguous tensors. */
static int keeps_format(const lctx *c, int i) {
    int k = opc(c, i);
    return k == DLP_OPC_CONV || k == DLP_OPC_POOL || k == DLP_OPC_ELEMENTWISE || k == DLP_OPC_ACTIVATION || is_op(c, i, "BatchNormalization") || is_op(c, i, "Concat") ||
           is_op(c, i, "Pad") || is_op(c, i, "Cast");
}

static int value_rank(const lctx *c, int v) { return v >= 0 ? V(c, v)->rank : -1; }

static void views(lctx *c) {
    /* --layout nhwc: the 4-D inputs arrive channels_last */
    if (c->memfmt == DLP_MEMFMT_NHWC)
        for (int v = 0; v < c->nv; v++)
            if (V(c, v)->is_input && !V(c, v)->is_init && V(c, v)->rank == 4) c->cl[v] = 1;
    for (int i = 0; i < c->n; i++) {
        const dlp__node *nd = N(c, i);
        if (c->kind[i] != K_VIEW) {
            /* kernels write contiguous outputs; a kernel reading a
             * non-contiguous view that needs contiguity gets a copy, charged
             * to the view that produced it */
            if (c->kind[i] == K_KERNEL && needs_contig(c, i))
                for (int k = 0; k < nd->n_in && k < 1; k++) {
                    int v = nd->in[k];
                    if (v >= 0 && c->nc[v] && producer(c, v) >= 0 && c->kind[producer(c, v)] == K_VIEW)
                        c->copy[producer(c, v)] = 1;
                }
            /* torch.matmul on 4-D (or higher) operands folds the batch dims
             * with a reshape: an operand whose batch dims were permuted
             * cannot be viewed that way and is copied (a transpose of the
             * last two dims alone is read in place; 3-D operands go to bmm
             * with their strides) */
            if (c->kind[i] == K_KERNEL && is_op(c, i, "MatMul") && !grouped(c, i))
                for (int k = 0; k < nd->n_in && k < 2; k++) {
                    int v = nd->in[k];
                    if (v >= 0 && c->nc[v] == 2 && V(c, v)->rank >= 4 && producer(c, v) >= 0 &&
                        c->kind[producer(c, v)] == K_VIEW)
                        c->copy[producer(c, v)] = 1;
                }
            /* channels_last propagates through the format-keeping kernels */
            if (c->kind[i] == K_KERNEL && keeps_format(c, i)) {
                int any = 0;
                for (int k = 0; k < nd->n_in; k++)
                    if (nd->in[k] >= 0 && c->cl[nd->in[k]] && value_rank(c, nd->in[k]) == 4) any = 1;
                for (int o = 0; o < nd->n_out; o++)
                    if (nd->out[o] >= 0 && value_rank(c, nd->out[o]) == 4) c->cl[nd->out[o]] = (unsigned char)any;
            }
            continue;
        }
        int x = nd->n_in > 0 ? nd->in[0] : -1;
        /* nc: 0 contiguous, 1 the last two dims transposed, 2 strided */
        int in_nc = x >= 0 ? c->nc[x] : 0, in_cl = x >= 0 ? c->cl[x] : 0;
        int out_nc = in_nc, out_cl = in_cl;
        if (is_op(c, i, "Transpose")) {
            const dlp__attr *a = dlp__attr_get(nd, "perm");
            static const int64_t to_nhwc[4] = {0, 2, 3, 1}, to_nchw[4] = {0, 3, 1, 2};
            int p_nhwc = a && a->n == 4 && !memcmp(a->ints, to_nhwc, sizeof to_nhwc);
            int p_nchw = a && a->n == 4 && !memcmp(a->ints, to_nchw, sizeof to_nchw);
            out_cl = 0;
            if (!in_nc && in_cl && p_nhwc) out_nc = 0;                 /* channels_last seen as NHWC */
            else if (!in_nc && !in_cl && p_nchw) out_nc = 0, out_cl = 1; /* NHWC seen as NCHW */
            else if (perm_moves_data(c, i)) out_nc = !in_nc && !in_cl && perm_is_last2_swap(c, i) ? 1 : 2;
        } else if (is_op(c, i, "Slice") || is_op(c, i, "Split") || is_op(c, i, "Gather")) {
            if (!slice_keeps_contig(c, i) || in_cl) {
                /* a slice of the last axis of a contiguous tensor (qkv.chunk(3,
                 * -1)) keeps rows contiguous: "row-strided" */
                out_nc = in_nc ? (in_nc == 3 ? 3 : 2) : !in_cl && slice_axis_is_last(c, i) ? 3 : 2;
            }
            out_cl = 0;
        } else if (is_op(c, i, "Expand")) {
            out_nc = 2;
            out_cl = 0;
        } else if (is_op(c, i, "Reshape") || is_op(c, i, "Flatten")) {
            /* a channels_last tensor with H x W > 1 is strided as NCHW */
            const dlp__value *xv = x >= 0 ? V(c, x) : NULL;
            int cl_strided = in_cl && xv && xv->rank == 4 && xv->dims[2] * xv->dims[3] != 1;
            if (in_nc == 3 && splits_last_dim(c, i)) {
                out_nc = 3;          /* q.view(B, S, H, D) of a chunk: a view */
            } else if (in_nc || cl_strided) {
                c->copy[i] = 1;      /* .reshape of a strided tensor: clone */
                out_nc = 0;
            }
            out_cl = 0;
        }
        for (int o = 0; o < nd->n_out; o++)
            if (nd->out[o] >= 0) {
                c->nc[nd->out[o]] = (unsigned char)out_nc;
                c->cl[nd->out[o]] = (unsigned char)(value_rank(c, nd->out[o]) == 4 ? out_cl : 0);
            }
    }
}

/* ---- names of single-node kernels --------------------------------------------- */

static const char *aten_name(const lctx *c, int i, int *kc) {
    const dlp__node *nd = N(c, i);
    static const struct { const char *op, *aten; int kc; } tab[] = {
        {"Relu", "aten::relu", DLP_KC_ELEMENTWISE},     {"Clip", "aten::hardtanh", DLP_KC_ELEMENTWISE},
        {"Sigmoid", "aten::sigmoid", DLP_KC_ELEMENTWISE}, {"HardSigmoid", "aten::hardsigmoid", DLP_KC_ELEMENTWISE},
        {"HardSwish", "aten::hardswish", DLP_KC_ELEMENTWISE}, {"Gelu", "aten::gelu", DLP_KC_ELEMENTWISE},
        {"Tanh", "aten::tanh", DLP_KC_ELEMENTWISE},     {"Add", "aten::add", DLP_KC_ELEMENTWISE},
        {"Sub", "aten::sub", DLP_KC_ELEMENTWISE},       {"Mul", "aten::mul", DLP_KC_ELEMENTWISE},
        {"Div", "aten::div", DLP_KC_ELEMENTWISE},       {"Pow", "aten::pow", DLP_KC_ELEMENTWISE},
        {"Erf", "aten::erf", DLP_KC_ELEMENTWISE},       {"Sqrt", "aten::sqrt", DLP_KC_ELEMENTWISE},
        {"Where", "aten::where", DLP_KC_ELEMENTWISE},   {"Cast", "aten::to", DLP_KC_COPY},
        {"LayerNormalization", "aten::layer_norm", DLP_KC_NORM},
        /* BatchNorm streams its input (eval: one affine pass): the bandwidth
         * curve, as for the folded ones of implied_kernels */
        {"BatchNormalization", "aten::batch_norm", DLP_KC_ELEMENTWISE},
        {"InstanceNormalization", "aten::instance_norm", DLP_KC_NORM},
        {"GroupNormalization", "aten::group_norm", DLP_KC_NORM},
        {"Softmax", "aten::softmax", DLP_KC_SOFTMAX},   {"LogSoftmax", "aten::log_softmax", DLP_KC_SOFTMAX},
        {"ReduceMean", "aten::mean", DLP_KC_REDUCE},    {"ReduceSum", "aten::sum", DLP_KC_REDUCE},
        {"ReduceMax", "aten::amax", DLP_KC_REDUCE},     {"MaxPool", "aten::max_pool2d", DLP_KC_POOL},
        {"AveragePool", "aten::avg_pool2d", DLP_KC_POOL},
        {"GlobalAveragePool", "aten::adaptive_avg_pool2d", DLP_KC_POOL},
        {"GlobalMaxPool", "aten::adaptive_max_pool2d", DLP_KC_POOL},
        {"Concat", "aten::cat", DLP_KC_COPY},           {"Pad", "aten::constant_pad_nd", DLP_KC_COPY},
        {"Gather", "aten::index_select", DLP_KC_COPY},  {"ScatterND", "aten::index_put_", DLP_KC_COPY},
        {"Tile", "aten::repeat", DLP_KC_COPY},          {"Dropout", "aten::dropout", DLP_KC_ELEMENTWISE},
        {"MatMul", "aten::matmul", DLP_KC_BMM},         {"ConvTranspose", "aten::conv_transpose2d", DLP_KC_CONV},
        {"Resize", "aten::upsample", DLP_KC_COPY},      {"Einsum", "aten::einsum", DLP_KC_BMM},
        {"Equal", "aten::eq", DLP_KC_ELEMENTWISE},      {"Not", "aten::logical_not", DLP_KC_ELEMENTWISE},
        {"Less", "aten::lt", DLP_KC_ELEMENTWISE},       {"Greater", "aten::gt", DLP_KC_ELEMENTWISE},
        {"Neg", "aten::neg", DLP_KC_ELEMENTWISE},       {"Exp", "aten::exp", DLP_KC_ELEMENTWISE},
        {"Log", "aten::log", DLP_KC_ELEMENTWISE},       {"Reciprocal", "aten::reciprocal", DLP_KC_ELEMENTWISE},
        {"Abs", "aten::abs", DLP_KC_ELEMENTWISE},       {"Min", "aten::minimum", DLP_KC_ELEMENTWISE},
        {"Max", "aten::maximum", DLP_KC_ELEMENTWISE},   {"LeakyRelu", "aten::leaky_relu", DLP_KC_ELEMENTWISE},
        {"Elu", "aten::elu", DLP_KC_ELEMENTWISE},       {"Softplus", "aten::softplus", DLP_KC_ELEMENTWISE},
        {"ArgMax", "aten::argmax", DLP_KC_REDUCE},      {"TopK", "aten::topk", DLP_KC_REDUCE},
        {"CumSum", "aten::cumsum", DLP_KC_REDUCE},      {"Range", "aten::arange", DLP_KC_COPY},
        {"ConstantOfShape", "aten::full", DLP_KC_COPY}, {"GatherElements", "aten::gather", DLP_KC_COPY},
    };
    if (!nd->domain[0]) {
        if (!strcmp(nd->op_type, "Conv")) {
            /* depthwise: one input channel per group (W is [Cout, Cin/g, k..]) */
            const dlp__value *w = nd->n_in > 1 && nd->in[1] >= 0 ? V(c, nd->in[1]) : NULL;
            const dlp__value *x = nd->in[0] >= 0 ? V(c, nd->in[0]) : NULL;
            int dw = w && w->rank >= 3 && w->dims[1] == 1 && x && x->rank >= 3 && x->dims[1] > 1;
            *kc = dw ? DLP_KC_CONV_DW : DLP_KC_CONV;
            int r = x ? x->rank : 4;
            return r == 3 ? "aten::conv1d" : r == 5 ? "aten::conv3d" : "aten::conv2d";
        }
        for (size_t k = 0; k < sizeof tab / sizeof tab[0]; k++)
            if (!strcmp(nd->op_type, tab[k].op)) {
                *kc = tab[k].kc;
                return tab[k].aten;
            }
    }
    switch (opc(c, i)) {
    case DLP_OPC_CONV: *kc = DLP_KC_CONV; break;
    case DLP_OPC_GEMM: *kc = DLP_KC_GEMM; break;
    case DLP_OPC_MATMUL: *kc = DLP_KC_BMM; break;
    case DLP_OPC_ELEMENTWISE: case DLP_OPC_ACTIVATION: *kc = DLP_KC_ELEMENTWISE; break;
    case DLP_OPC_NORM: *kc = DLP_KC_NORM; break;
    case DLP_OPC_POOL: *kc = DLP_KC_POOL; break;
    case DLP_OPC_REDUCE: *kc = DLP_KC_REDUCE; break;
    case DLP_OPC_SOFTMAX: *kc = DLP_KC_SOFTMAX; break;
    case DLP_OPC_DATA: *kc = DLP_KC_COPY; break;
    default: *kc = DLP_KC_OTHER; break;
    }
    return nd->op_type;   /* lives in the graph's arena */
}

/* ---- autocast dtypes ----------------------------------------------------------
 * Under torch.autocast (eager fp16/bf16, the default for half precision; not
 * --no-amp) tensors do not all take the half type (autocast_mode.cpp's op
 * lists, and type promotion for every op on neither list):
 * - conv, linear, matmul/bmm, SDPA run in half: each fp32 activation input is
 *   cast down first (aten::_to_copy, one kernel per call: autocast's cast
 *   cache holds leaf parameters only) and they write half;
 * - layer_norm, group_norm, softmax and log_softmax are on the fp32 list: a
 *   half input is cast up, and the kernel reads and writes fp32;
 * - every other op promotes: its output is fp32 when a tensor operand is
 *   (an fp32 activation, or an fp32 parameter such as ConvNeXt's layer
 *   scale, ViT's position embedding or class token); exported Python
 *   scalars (constants of one element) do not promote.
 * So the residual stream of ConvNeXt, Swin and ViT is fp32 (LayerNorm's
 * output, or the fp32 layer scale, plus the shortcut), as our H100 kernel
 * tables (data/measured/h100/train.json) show for ConvNeXt-T in both layouts:
 * vectorized_layer_norm_kernel<float, float> (23 a step), MulFunctor<float>,
 * CUDAFunctor_add<float>, and 197 float16_copy_kernel_cuda casts. */
enum { AMP_PROMOTE = 0, AMP_HALF, AMP_F32 };

static int is_float_dt(int dt) { return dt == DLP_DT_FLOAT || dt == DLP_DT_FLOAT16 || dt == DLP_DT_BFLOAT16; }

/* The autocast category of a kernel: its class or its aten name. */
static int amp_cat(const dlp__kernel *kk) {
    if (kk->kclass == DLP_KC_CONV || kk->kclass == DLP_KC_CONV_DW || kk->kclass == DLP_KC_GEMM ||
        kk->kclass == DLP_KC_BMM || kk->kclass == DLP_KC_ATTN)
        return AMP_HALF;
    if (kk->name && (!strcmp(kk->name, "aten::layer_norm") || !strcmp(kk->name, "aten::group_norm") ||
                     !strcmp(kk->name, "aten::softmax") || !strcmp(kk->name, "aten::log_softmax")))
        return AMP_F32;
    return AMP_PROMOTE;
}

/* Does value v make a promoting op's output fp32: an fp32 activation, or a
 * float parameter/constant of more than one element? */
static int promotes(const lctx *c, int v) {
    if (v < 0 || !is_float_dt(V(c, v)->dtype)) return 0;
    if (c->f32[v]) return 1;
    int u = through_identity(c, v);
    return is_const(c, u, INT64_MAX) && dlp__numel(V(c, u)) > 1;
}

/* Ops whose output takes the dtype of their data input alone (their other
 * inputs are statistics, indices, sizes or pads): cuDNN's batch_norm keeps a
 * half input half with fp32 statistics; an embedding lookup returns its
 * table's dtype. */
static int dtype_of_first(const lctx *c, int i) {
    static const char *ops[] = {"BatchNormalization", "InstanceNormalization", "LpNormalization", "Resize",
                                "Upsample", "Gather", "GatherElements", "Pad", "Tile", "Expand", "Clip",
                                "MaxPool", "AveragePool", "ReduceMean", "ReduceMax", "TopK"};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (is_op(c, i, ops[k])) return 1;
    return 0;
}

/* Whether node i's float outputs are fp32 under autocast. */
static int amp_out_f32(const lctx *c, const dlp__lowered *out, int i) {
    const dlp__node *nd = N(c, i);
    /* a view keeps its input's dtype; a view of an fp32 parameter (ViT's
     * class token expanded over the batch) is fp32 */
    if (c->kind[i] == K_VIEW) return nd->n_in > 0 && promotes(c, nd->in[0]);
    int k = out->node_kernel[i];
    int cat = k >= 0 ? amp_cat(&out->k[k]) : AMP_PROMOTE;
    if (cat != AMP_PROMOTE) return cat == AMP_F32;
    if (is_op(c, i, "Cast")) {
        const dlp__attr *to = dlp__attr_get(nd, "to");
        return to && to->type == DLP_AT_INT && to->i == DLP_DT_FLOAT;
    }
    int nin = dtype_of_first(c, i) ? (nd->n_in > 0 ? 1 : 0) : nd->n_in;
    for (int q = 0; q < nin; q++)
        if (promotes(c, nd->in[q])) return 1;
    return 0;
}

/* Every value's autocast dtype, in node (topological) order: float graph
 * inputs arrive fp32 (timm's benchmark feeds fp32 images under AMP). */
static void amp_dtypes(lctx *c, const dlp__lowered *out) {
    for (int v = 0; v < c->nv; v++) {
        const dlp__value *x = V(c, v);
        c->f32[v] = x->is_input && !x->is_init && is_float_dt(x->dtype);
    }
    for (int i = 0; i < c->n; i++) {
        if (c->kind[i] == K_FREE) continue;
        int y = amp_out_f32(c, out, i);
        const dlp__node *nd = N(c, i);
        for (int o = 0; o < nd->n_out; o++)
            if (nd->out[o] >= 0 && is_float_dt(V(c, nd->out[o])->dtype)) c->f32[nd->out[o]] = (unsigned char)y;
    }
}

/* Note a cast autocast runs before kernel k: value v down to half (up = 0)
 * or up to fp32 (up = 1).  Out of memory: the cast is left out. */
static void amp_note_cast(lctx *c, int k, int v, int up) {
    if (c->ncast == c->cast_cap) {
        int cap = c->cast_cap ? 2 * c->cast_cap : 64;
        int *nk = realloc(c->cast_k, sizeof(int) * (size_t)cap);
        if (!nk) return;
        c->cast_k = nk;
        int *nv = realloc(c->cast_v, sizeof(int) * (size_t)cap);
        if (!nv) return;
        c->cast_v = nv;
        c->cast_cap = cap;
    }
    c->cast_k[c->ncast] = k;
    c->cast_v[c->ncast++] = up ? -v - 1 : v;
}

/* ---- assembling the list ------------------------------------------------------- */

static double vbytes(const lctx *c, int v) {
    dlp_tensor_info t;
    t = *dlp_graph_tensor_at(c->g, v);
    double b = dlp__tensor_bytes_at(&t, c->cdt);
    return b > 0 ? b : 0;
}

/* Bytes of value v as stored: fp32 where autocast keeps it so. */
static double own_bytes(const lctx *c, int v) {
    double b = vbytes(c, v);
    if (!c->amp_on || !c->f32[v] || b <= 0) return b;
    return b / dlp__elem_bytes(c->cdt) * 4.0;
}

/* Bytes the current kernel reads of input s: a half op reads the half cast,
 * an fp32-list op the fp32 one, any other op the stored tensor; weights at
 * the compute dtype as before (autocast's cached casts). */
static double read_bytes(const lctx *c, int s) {
    if (!c->amp_on || is_param(c, s) || c->cur_cat == AMP_HALF) return vbytes(c, s);
    if (c->cur_cat == AMP_F32 && is_float_dt(V(c, s)->dtype)) return vbytes(c, s) / dlp__elem_bytes(c->cdt) * 4.0;
    return own_bytes(c, s);
}

/* The storage a value reads through views: the value itself unless it is a
 * non-copying view's output. */
static int storage_of(const lctx *c, int v) {
    for (int guard = 0; guard < 64 && v >= 0; guard++) {
        int p = producer(c, v);
        if (p < 0 || c->kind[p] != K_VIEW || c->copy[p] || N(c, p)->n_in < 1) return v;
        v = N(c, p)->in[0];
    }
    return v;
}

/* ---- 6. kernels the graph does not show ---------------------------------------
 * - BatchNorm folded by the exporter.  torch.onnx's eval export folds each
 *   Conv -> BatchNorm pair into one Conv whose weight and bias are new
 *   initializers named "onnx::Conv_<n>"; a conv that kept its own bias keeps
 *   its module's names ("features.0.bias").  Eager PyTorch still runs the
 *   BatchNorm (cudnn's inference kernel: reads and writes the conv output),
 *   and so does training; TensorRT, onnxruntime and inference under
 *   torch.compile fold it, as the exporter did.
 * - NCHW tensor-core convolutions.  cuDNN's tensor-core kernels work in
 *   NHWC; with NCHW half-precision tensors it converts the input to NHWC
 *   and the output back (nchwToNhwcKernel / nhwcToNchwKernel), two extra
 *   passes over the activations that channels_last (--layout nhwc) avoids. */
static int folded_bn_name(const char *nm) { return nm && !strncmp(nm, "onnx::Conv_", 11); }

static void implied_kernels(lctx *c, dlp__lowered *out) {
    int eager = c->runtime == DLP_RUNTIME_EAGER || c->runtime == DLP_RUNTIME_EAGER1X;
    int bn = eager || (c->runtime == DLP_RUNTIME_COMPILE && c->train);
    int half = c->cdt == DLP_DT_FLOAT16 || c->cdt == DLP_DT_BFLOAT16;
    int nchw_tc = half && (eager || c->runtime == DLP_RUNTIME_COMPILE);
    if (!bn && !nchw_tc && !c->ncast) return;
    int n0 = out->n, nn = 0, ci = 0;
    /* at most 4 rows per kernel (a conv, its two conversions, its
     * BatchNorm) and the autocast casts */
    dlp__kernel *nk = calloc((size_t)(4 * n0 + c->ncast + 1), sizeof *nk);
    int *remap = malloc(sizeof(int) * (size_t)(n0 ? n0 : 1));
    if (!nk || !remap) {   /* out of memory: keep the plain list */
        free(nk), free(remap);
        return;
    }
    for (int k = 0; k < n0; k++) {
        const dlp__kernel *kk = &out->k[k];
        int conv = (kk->kclass == DLP_KC_CONV || kk->kclass == DLP_KC_CONV_DW) && kk->anchor >= 0 &&
                   is_op(c, kk->anchor, "Conv");
        const dlp__node *nd = conv ? N(c, kk->anchor) : NULL;
        double in_b = 0, out_b = kk->out_bytes;
        if (conv && nd->in[0] >= 0) in_b = vbytes(c, storage_of(c, nd->in[0]));
        /* 1x1 convolutions are plain GEMMs over NCHW (W[Cout,Cin] x X[Cin,HW]
         * per image) and need no conversion */
        const dlp__value *w = conv && nd->n_in > 1 && nd->in[1] >= 0 ? V(c, nd->in[1]) : NULL;
        int spatial = w && w->rank == 4 && (w->dims[2] > 1 || w->dims[3] > 1);
        int tc = conv && kk->kclass == DLP_KC_CONV && nchw_tc && V(c, nd->in[0])->rank == 4 && spatial &&
                 !c->cl[nd->in[0]];   /* a channels_last input is already NHWC */
        /* the casts autocast runs before this kernel ("Autocast dtypes"),
         * ahead of cuDNN's layout conversion of the half tensor */
        while (ci < c->ncast && c->cast_k[ci] < k) ci++;
        for (; ci < c->ncast && c->cast_k[ci] == k; ci++) {
            int up = c->cast_v[ci] < 0, v = up ? -c->cast_v[ci] - 1 : c->cast_v[ci];
            double e = vbytes(c, v) / dlp__elem_bytes(c->cdt);
            dlp__kernel *t = &nk[nn++];
            t->name = up ? "aten::_to_copy (autocast fp32)" : "aten::_to_copy (autocast)";
            t->kclass = DLP_KC_COPY;
            t->anchor = kk->anchor;
            t->bytes = e * (dlp__elem_bytes(c->cdt) + 4);
            t->out_bytes = e * (up ? 4 : dlp__elem_bytes(c->cdt));
            t->op_class = DLP_OPC_DATA;
            /* a graph input (the fp32 images) needs no gradient */
            t->grad_inputs = producer(c, v) >= 0 && c->kind[producer(c, v)] != K_FREE;
        }
        if (tc) {
            dlp__kernel *t = &nk[nn++];
            t->name = "cudnn::nchwToNhwcKernel";
            t->kclass = DLP_KC_COPY;
            t->anchor = kk->anchor;
            t->bytes = 2 * in_b;
            t->out_bytes = in_b;
            t->op_class = DLP_OPC_DATA;
            t->grad_inputs = 1;
        }
        remap[k] = nn;
        nk[nn++] = *kk;
        if (tc) {
            dlp__kernel *t = &nk[nn++];
            t->name = "cudnn::nhwcToNchwKernel";
            t->kclass = DLP_KC_COPY;
            t->anchor = kk->anchor;
            t->bytes = 2 * out_b;
            t->out_bytes = out_b;
            t->op_class = DLP_OPC_DATA;
            t->grad_inputs = 1;
        }
        if (conv && bn && kk->n == 1 && nd->n_in >= 3 && nd->in[1] >= 0 && nd->in[2] >= 0 &&
            folded_bn_name(V(c, nd->in[1])->name) && folded_bn_name(V(c, nd->in[2])->name)) {
            dlp__kernel *b = &nk[nn++];
            double ne = out_b / (dlp__elem_bytes(c->cdt));
            b->name = "aten::batch_norm";
            /* in eval mode BatchNorm is a per-channel affine map: a pointwise
             * kernel; training adds a statistics pass (counted in the bytes
             * below).  Both are streaming, bandwidth-bound passes, timed on
             * the elementwise curve (the layernorm curve was fitted on
             * LayerNorm kernels, a different reduction) */
            b->kclass = DLP_KC_ELEMENTWISE;
            b->anchor = kk->anchor;
            /* inference: y = x * scale + shift, read x, write y; training
             * also computes the batch statistics (one more read) */
            b->flops = (c->train ? 4.0 : 2.0) * ne;
            b->bytes = (c->train ? 3.0 : 2.0) * out_b;
            b->out_bytes = out_b;
            b->op_class = DLP_OPC_ELEMENTWISE;
            b->has_weight = 0;
            b->grad_inputs = 1;
        }
    }
    for (int i = 0; i < c->n; i++)
        if (out->node_kernel[i] >= 0) out->node_kernel[i] = remap[out->node_kernel[i]];
    free(out->k);
    free(remap);
    out->k = nk;
    out->n = nn;
}


/* ---- the pass table -------------------------------------------------------------
 * One row per pass, with the runtime profiles that run it: the patterns of
 * every profile are data here, and docs/predict.md's table is this one. */
#define RT(x) (1u << DLP_RUNTIME_##x)
#define RT_ALL (RT(EAGER) | RT(EAGER1X) | RT(COMPILE) | RT(TENSORRT) | RT(ORT))
static void run_norms(lctx *c) { pattern_norms(c, 0); }
static void run_norms_rms(lctx *c) { pattern_norms(c, 1); }
static void run_unary(lctx *c) {
    memset(c->scratch, 0, sizeof(int) * (size_t)(c->n ? c->n : 1));
    pattern_unary(c, c->scratch);
}
static void run_inductor(lctx *c) {
    fuse_inductor(c, c->scratch); /* it sets every entry */
}
static const struct {
    const char *name;
    void (*run)(lctx *c);
    unsigned runtimes;       /* profiles that run it                          */
    unsigned also_with;      /* DLP__LOWER_* flags that turn it on anyway     */
    unsigned not_with;       /* DLP__LOWER_* flags that turn it off           */
    int infer_only;
} passes[] = {
    /* a written-out RMSNorm (Hugging Face's LlamaRMSNorm) runs as six eager
     * kernels (tests/golden/patterns): only the compilers fuse it */
    {"layernorm", run_norms, RT(EAGER) | RT(EAGER1X), 0, 0, 0},
    {"layernorm+rmsnorm", run_norms_rms, RT(COMPILE) | RT(TENSORRT) | RT(ORT), 0, 0, 0},
    {"rsqrt", pattern_rsqrt, RT_ALL, 0, 0, 0},
    {"gelu/silu/hardswish/mish", run_unary, RT_ALL, 0, 0, 0},
    /* fused attention is what PyTorch 1.x eager lacks */
    {"attention", pattern_attention, RT_ALL & ~RT(EAGER1X), 0, DLP__LOWER_NO_SDPA, 0},
    {"linear", pattern_linear, RT_ALL, 0, 0, 0},
    {"not-equal", pattern_not_equal, RT_ALL, 0, 0, 0},
    {"views", views, RT_ALL, 0, 0, 0},
    {"epilogues", fuse_epilogues, RT(COMPILE) | RT(TENSORRT) | RT(ORT), DLP__LOWER_FUSE, 0, 1},
    {"skip-layernorm", fuse_skip_ln, RT(ORT), 0, 0, 0},
    /* TensorRT's builder fuses chains of pointwise layers, and reductions
     * with their pointwise neighbours (its PointWise and Myelin fusions),
     * as inductor does: without it a TensorRT engine had more kernels than
     * the compiled model (ConvNeXt, DenseNet at batch 1; property suite) */
    {"inductor", run_inductor, RT(COMPILE) | RT(TENSORRT), 0, 0, 0},
};

/* 1. every node's kind (kernel, view, free), before any pass groups them */
static void classify_nodes(lctx *c) {
    for (int i = 0; i < c->n; i++) {
        dlp_node_info ni;
        ni = *dlp_graph_node_at(c->g, i);
        c->opc[i] = ni.op_class;
        c->grp[i] = -1;
        c->kclass[i] = -1;
        c->kind[i] = classify(c, i);
    }
}

/* 2-4. the pass table, in order: each runtime profile runs the rows whose
 * mask names it (and whose flag conditions hold) */
static void run_passes(lctx *c) {
    for (size_t p = 0; p < sizeof passes / sizeof passes[0]; p++) {
        if (!(passes[p].runtimes & (1u << c->runtime)) && !(passes[p].also_with & (unsigned)c->flags)) continue;
        if ((passes[p].not_with & (unsigned)c->flags) || (passes[p].infer_only && c->train)) continue;
        passes[p].run(c);
    }
}

/* 5. one kernel per group root / ungrouped kernel node (and per copying
 * view), in the order of their first member (topological): its name and
 * class, and which kernel every node belongs to.  kidx[] is per-node
 * scratch (root -> kernel). */
static void make_kernels(lctx *c, dlp__lowered *out, int *kidx) {
    int nk = 0;
    for (int i = 0; i < c->n; i++) {
        out->node_kernel[i] = -1;
        kidx[i] = -1;
        if (c->kind[i] == K_VIEW) out->node_view[i] = !c->copy[i];
    }
    for (int i = 0; i < c->n; i++) {
        int is_k = c->kind[i] == K_KERNEL || (c->kind[i] == K_VIEW && c->copy[i]);
        if (!is_k) continue;
        int r = c->kind[i] == K_KERNEL ? find(c, i) : i;
        if (kidx[r] < 0) {
            kidx[r] = nk;
            dlp__kernel *k = &out->k[nk++];
            int kc = DLP_KC_OTHER;
            if (c->kind[i] == K_VIEW) {
                k->name = "aten::contiguous";
                kc = DLP_KC_COPY;
            } else if (c->grp[r] >= 0 && c->name[r]) {
                k->name = c->name[r];
                kc = c->kclass[r] >= 0 ? c->kclass[r] : DLP_KC_ELEMENTWISE;
            } else {
                k->name = aten_name(c, r, &kc);
                if (c->grp[r] >= 0 && c->kclass[r] >= 0) kc = c->kclass[r];
            }
            k->kclass = kc;
            k->anchor = -1;
        }
        out->node_kernel[i] = kidx[r];
        out->k[kidx[r]].n++;
    }
    out->n = nk;
}

/* The members of each kernel, contiguous in out->members (node order). */
static void group_members(const lctx *c, dlp__lowered *out) {
    int pos = 0;
    for (int k = 0; k < out->n; k++) {
        out->k[k].first = pos;
        pos += out->k[k].n;
        out->k[k].n = 0;
    }
    for (int i = 0; i < c->n; i++) {
        int k = out->node_kernel[i];
        if (k < 0) continue;
        dlp__kernel *kk = &out->k[k];
        out->members[kk->first + kk->n++] = i;
    }
}

/* The bytes member i of kernel k reads from outside the kernel (through
 * views: the storage), each value once (vseen[]); whether one is a weight
 * and how many inputs carry a gradient. */
static void member_inputs(lctx *c, const dlp__lowered *out, int k, int i, dlp__kernel *kk, unsigned char *vseen) {
    const dlp__node *nd = &c->g->nodes[i];
    for (int q = 0; q < nd->n_in; q++) {
        int v = nd->in[q];
        if (v < 0) continue;
        int p = producer(c, v);
        if (p >= 0 && out->node_kernel[p] == k) continue;
        int s = c->kind[i] == K_VIEW ? v : storage_of(c, v);
        int sp = producer(c, s);
        if (sp >= 0 && out->node_kernel[sp] == k) continue;
        if (sp >= 0 && c->kind[sp] == K_FREE && V(c, s)->nval >= 0) continue;   /* host value */
        if (is_scalar(c, s)) continue;   /* a scalar operand is a kernel argument */
        if (vseen[s]) continue;
        vseen[s] = 1;
        /* an embedding lookup (Gather from a weight table) reads the rows it
         * selects, which are its output, not the whole table: PyTorch's
         * embedding is index_select over rows (a decode step of a 128k-token
         * vocabulary reads one row per token, not 1 GB) */
        if (q == 0 && is_op(c, i, "Gather") && is_param(c, s) && nd->n_out > 0 && nd->out[0] >= 0 &&
            vbytes(c, nd->out[0]) < vbytes(c, s))
            kk->bytes += own_bytes(c, nd->out[0]);
        else
            kk->bytes += read_bytes(c, s);
        if (is_param(c, s) && V(c, s)->rank >= 2) kk->has_weight = 1;
        if (sp >= 0 && c->kind[sp] != K_FREE) kk->grad_inputs++;
        /* an activation in the wrong dtype for an autocast-listed op is cast */
        int act = (sp >= 0 && c->kind[sp] != K_FREE) || (V(c, s)->is_input && !V(c, s)->is_init);
        if (c->amp_on && act && !is_param(c, s) && is_float_dt(V(c, s)->dtype) &&
            ((c->cur_cat == AMP_HALF && c->f32[s]) || (c->cur_cat == AMP_F32 && !c->f32[s])))
            amp_note_cast(c, k, s, c->cur_cat == AMP_F32);
    }
}

/* Is node u a view whose outputs only kernel k reads (an eval-mode Dropout
 * between the softmax and P V inside the attention kernel: the fused kernel
 * never writes P)? */
static int view_into(const lctx *c, const dlp__lowered *out, int k, int u) {
    if (c->kind[u] != K_VIEW) return 0;
    const dlp__node *nd = &c->g->nodes[u];
    for (int o = 0; o < nd->n_out; o++) {
        if (nd->out[o] < 0) continue;
        const dlp__value *x = V(c, nd->out[o]);
        if (x->is_output) return 0;
        for (int j = 0; j < x->n_cons; j++)
            if (out->node_kernel[x->cons[j]] != k) return 0;
    }
    return 1;
}

/* The bytes member i of kernel k writes that are read outside the kernel
 * or returned. */
static void member_outputs(lctx *c, const dlp__lowered *out, int k, int i, dlp__kernel *kk) {
    const dlp__node *nd = &c->g->nodes[i];
    for (int o = 0; o < nd->n_out; o++) {
        int v = nd->out[o];
        if (v < 0) continue;
        const dlp__value *x = V(c, v);
        int ext = x->is_output;
        for (int j = 0; j < x->n_cons && !ext; j++)
            if (out->node_kernel[x->cons[j]] != k && c->kind[x->cons[j]] != K_FREE && !view_into(c, out, k, x->cons[j]))
                ext = 1;
        if (ext) {
            double b = own_bytes(c, v);
            kk->bytes += b;
            kk->out_bytes += b;
        }
    }
}

/* Kernel k's work (its kernel members' FLOPs), boundary bytes, and anchor:
 * the heaviest member, a conv/gemm/matmul before anything else. */
static void kernel_work(lctx *c, const dlp__lowered *out, int k, unsigned char *vseen) {
    const dlp_graph *g = c->g;
    dlp__kernel *kk = &out->k[k];
    int heavy = -1;
    double best = -1;
    c->cur_cat = c->amp_on ? amp_cat(kk) : AMP_PROMOTE;
    for (int m = 0; m < kk->n; m++) {
        int i = out->members[kk->first + m];
        dlp_node_info ni;
        ni = *dlp_graph_node_at(g, i);
        if (c->kind[i] == K_KERNEL) kk->flops += (double)ni.flops;
        double w = (double)ni.flops + (ni.op_class == DLP_OPC_CONV || ni.op_class == DLP_OPC_GEMM ||
                                               ni.op_class == DLP_OPC_MATMUL
                                           ? 1e30
                                           : 0);
        if (w > best) best = w, heavy = i;
        member_inputs(c, out, k, i, kk, vseen);
        member_outputs(c, out, k, i, kk);
    }
    /* clear the seen marks of this kernel's inputs */
    for (int m = 0; m < kk->n; m++) {
        const dlp__node *nd = &g->nodes[out->members[kk->first + m]];
        for (int q = 0; q < nd->n_in; q++)
            if (nd->in[q] >= 0) vseen[storage_of(c, nd->in[q])] = 0, vseen[nd->in[q]] = 0;
    }
    kk->anchor = heavy;
    kk->op_class = opc(c, heavy);
    if (c->kind[heavy] == K_VIEW) kk->op_class = DLP_OPC_DATA;
    /* a training Dropout is PyTorch's fused native_dropout: it also writes
     * its one-byte keep mask (kept for the backward), whether or not the
     * graph names the mask as an output */
    const dlp__node *hn = &g->nodes[heavy];
    if (kk->n == 1 && c->train && !strcmp(hn->op_type, "Dropout") && hn->n_out == 1 && hn->out[0] >= 0) {
        const dlp_tensor_info *y = dlp_graph_tensor_at(g, hn->out[0]);
        if (y && y->numel > 0) kk->bytes += (double)y->numel;
    }
}

dlp_status dlp__lower(const dlp_graph *g, int runtime, int memfmt, int train, int cdt, int flags,
                      dlp__lowered *out, dlp_error *err) {
    if (!out) return dlp__err(err, DLP_EINVAL, "lower: no output given");
    memset(out, 0, sizeof *out);
    if (!g) return dlp__err(err, DLP_EINVAL, "lower: no graph given");
    if (runtime < 0 || runtime >= DLP_RUNTIME_COUNT_ || (memfmt != DLP_MEMFMT_NCHW && memfmt != DLP_MEMFMT_NHWC))
        return dlp__err(err, DLP_EINVAL, "lower: unknown runtime or memory format");
    lctx c = {0};
    c.g = g;
    c.n = g->n_nodes;
    c.nv = g->n_values;
    c.runtime = runtime, c.memfmt = memfmt, c.train = train, c.cdt = cdt;
    c.amp = !(flags & DLP__LOWER_NO_AMP);
    size_t n1 = (size_t)(c.n ? c.n : 1), v1 = (size_t)(c.nv ? c.nv : 1);
    c.kind = calloc(n1, sizeof(int));
    c.grp = malloc(n1 * sizeof(int));
    c.copy = calloc(n1, sizeof(int));
    c.nc = calloc(v1, 1);
    c.cl = calloc(v1, 1);
    c.name = calloc(n1, sizeof(char *));
    c.kclass = malloc(n1 * sizeof(int));
    c.opc = malloc(n1 * sizeof(int));
    int *scratch = calloc(n1, sizeof(int));
    int *kidx = malloc(n1 * sizeof(int));
    unsigned char *vseen = calloc(v1, 1);
    out->k = calloc(3 * n1 + 1, sizeof(dlp__kernel));
    out->members = calloc(n1, sizeof(int));
    out->node_kernel = malloc(n1 * sizeof(int));
    out->node_view = calloc(n1, sizeof(int));
    dlp_status st = DLP_OK;
    if (!c.kind || !c.grp || !c.copy || !c.nc || !c.cl || !c.name || !c.kclass || !c.opc || !scratch || !kidx || !vseen || !out->k ||
        !out->members || !out->node_kernel || !out->node_view) {
        st = dlp__err(err, DLP_ENOMEM, "lower: out of memory");
        goto done;
    }
    out->n_nodes = c.n;
    classify_nodes(&c);
    c.scratch = scratch;
    c.flags = flags;
    run_passes(&c);
    make_kernels(&c, out, kidx);
    group_members(&c, out);
    /* autocast's dtypes: eager fp16/bf16 under torch.autocast */
    c.amp_on = c.amp && (cdt == DLP_DT_FLOAT16 || cdt == DLP_DT_BFLOAT16) &&
               (runtime == DLP_RUNTIME_EAGER || runtime == DLP_RUNTIME_EAGER1X);
    if (c.amp_on && !(c.f32 = calloc(v1, 1))) {
        st = dlp__err(err, DLP_ENOMEM, "lower: out of memory");
        goto done;
    }
    if (c.amp_on) amp_dtypes(&c, out);
    for (int k = 0; k < out->n; k++) kernel_work(&c, out, k, vseen);
    implied_kernels(&c, out);
done:
    free(c.f32), free(c.cast_k), free(c.cast_v);
    free(c.kind), free(c.grp), free(c.copy), free(c.nc), free(c.cl), free(c.name), free(c.kclass), free(c.opc);
    free(scratch), free(kidx), free(vseen);
    if (st) dlp__lowered_free(out);
    return st;
}

void dlp__lowered_free(dlp__lowered *l) {
    if (!l) return;
    free(l->k), free(l->members), free(l->node_kernel), free(l->node_view);
    memset(l, 0, sizeof *l);
}

int dlp__is_autocast_cast(const dlp__kernel *kk) {
    return kk && kk->name && !strncmp(kk->name, "aten::_to_copy (autocast", 24);
}

int64_t dlp__softmax_row(const dlp_graph *g, const dlp__kernel *kk) {
    if (kk->kclass != DLP_KC_SOFTMAX || kk->n != 1 || kk->anchor < 0) return 0;
    const dlp__node *nd = &g->nodes[kk->anchor];
    if (strcmp(nd->op_type, "Softmax") && strcmp(nd->op_type, "LogSoftmax")) return 0;
    if (nd->n_out < 1 || nd->out[0] < 0) return 0;
    const dlp_tensor_info *y = dlp_graph_tensor_at(g, nd->out[0]);
    if (!y || !y->shape_known || y->rank < 1) return 0;
    const dlp__attr *ax = dlp__attr_get(nd, "axis");
    int64_t a = ax && ax->type == DLP_AT_INT ? ax->i : nd->opset >= 13 ? -1 : 1;
    if (a < 0) a += y->rank;
    if (a < 0 || a >= y->rank) return 0;
    if (nd->opset < 13) {      /* opset < 13 flattens to 2-D at the axis */
        int64_t row = 1;
        for (int i = (int)a; i < y->rank; i++) row *= y->dims[i];
        return row;
    }
    return a == y->rank - 1 ? y->dims[a] : 0;
}
